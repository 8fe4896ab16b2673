#!/usr/bin/env python3
"""Prints the medians of the last `cubit_codec` run as a Markdown table.

    cargo bench -p rtorb-giop --bench cubit_codec
    python3 crates/rtorb-giop/benches/cubit_medians.py [target/criterion]

Criterion keeps each benchmark's estimates in
<target>/criterion/<group>/<operation>/<protocol>/new/estimates.json; the
median is `median.point_estimate`, in nanoseconds.
"""

import json
import os
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "target/criterion"
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


print("| operation | protocol | request encode | request decode | reply encode | reply decode |")
print("|---|---|---:|---:|---:|---:|")
for op in OPERATIONS:
    for protocol in PROTOCOLS:
        cells = [show(median(g, op, protocol)) for g in GROUPS]
        if all(c == "-" for c in cells):
            continue
        print(f"| {op} | {protocol} | " + " | ".join(cells) + " |")
