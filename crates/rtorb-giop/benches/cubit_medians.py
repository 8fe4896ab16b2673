#!/usr/bin/env python3
"""Prints the medians of the last `cubit_codec` run as a Markdown table,
with the message sizes and allocation counts the run printed.

    cargo bench -p rtorb-giop --bench cubit_codec | tee cubit_codec.txt
    python3 crates/rtorb-giop/benches/cubit_medians.py target/criterion cubit_codec.txt

Criterion keeps each benchmark's estimates in
<target>/criterion/<group>/<operation>/<protocol>/new/estimates.json; the
median is `median.point_estimate`, in nanoseconds. Without the second
argument only the times are printed.
"""

import json
import os
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "target/criterion"
OUTPUT = sys.argv[2] if len(sys.argv) > 2 else None
GROUPS = ["request_encode", "request_decode", "reply_encode", "reply_decode"]
PROTOCOLS = ["giop1.0", "giop1.1", "giop1.2", "lite"]
OPERATIONS = [
    "cube_void",
    "cube_octet",
    "cube_short",
    "cube_long",
    "cube_struct",
    "cube_long_sequence_1",
    "cube_long_sequence_1024",
    "cube_octet_sequence_1",
    "cube_octet_sequence_1024",
    "cube_octet_sequence_1024_chunks",
]


def median(group, op, protocol):
    path = os.path.join(ROOT, group, op, protocol, "new", "estimates.json")
    try:
        with open(path) as f:
            return json.load(f)["median"]["point_estimate"]
    except FileNotFoundError:
        return None


def show(ns):
    if ns is None:
        return "-"
    if ns >= 1000:
        return f"{ns / 1000:.2f} µs"
    return f"{ns:.0f} ns"


def allocations(path):
    """(operation, protocol) -> the columns of the bench's allocation tables:
    request octets, request encode, request encode with a new buffer,
    request decode, reply octets, reply encode, reply decode (for the
    zero-copy rows, the request's chunk sizes and the two encodes). The
    bytes allocated (in parentheses) are dropped."""
    rows = {}
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not cells[0].startswith("cube_"):
                continue
            cells = [c.split(" (")[0] for c in cells]
            if len(cells) == 9:
                rows[(cells[0], cells[1])] = cells[2:]
            elif len(cells) == 5:
                # The zero-copy table: chunk sizes, request and reply encode.
                op, protocol, chunks, request, reply = cells
                rows[(op + "_chunks", protocol)] = [chunks, request, "-", "-", "-", reply, "-"]
    return rows


if OUTPUT is None:
    print("| operation | protocol | request encode | request decode | reply encode | reply decode |")
    print("|---|---|---:|---:|---:|---:|")
else:
    allocs = allocations(OUTPUT)
    print(
        "| operation | protocol | request octets | request encode | allocs "
        "| request decode | allocs | reply octets | reply encode | allocs "
        "| reply decode | allocs |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for op in OPERATIONS:
    for protocol in PROTOCOLS:
        times = [show(median(g, op, protocol)) for g in GROUPS]
        if all(c == "-" for c in times):
            continue
        if OUTPUT is None:
            print(f"| {op} | {protocol} | " + " | ".join(times) + " |")
            continue
        a = allocs.get((op, protocol), ["-"] * 7)
        cells = [a[0], times[0], a[1], times[1], a[3], a[4], times[2], a[5], times[3], a[6]]
        print(f"| {op} | {protocol} | " + " | ".join(cells) + " |")
