#!/usr/bin/env python3
"""Where the time of C0's calls goes, from the kernel's own trace.

Runs a command (usually `rtorb-bench priority ...`) with ftrace recording
scheduling, timer-interrupt and softirq events on one CPU (C0's: the last
one, in the benchmark's real-time configuration), then cuts the trace
into C0's cycles, one per slot: from the timer's wake-up of C0 to C0
going to sleep after the reply. For every C0 thread in the trace (one
per point, in the order the benchmark ran them: the floor's echo client
first) it prints:

- the cycles and their p50/p99/max, ns of kernel time included;
- the segments of a cycle with nothing else on the CPU: C0's wake-up to
  its send, its send to the server thread running, the server's turn to
  its reply, the reply to C0 running, and C0's reading to its sleep;
- the cycles the scheduler tick landed in, and what they cost;
- the cycles with more than 25 µs in which nothing was traced (the
  virtual CPU was not running: the host's doing).

Tracing costs a few µs per event, so the traced cycles are longer than
the benchmark's own figures: compare segments and configurations with
each other, not with the untraced table.

Needs root (tracefs). Usage:
  scripts/trace-c0.py [--cpu N] [--out FILE] -- COMMAND [ARGS...]
  scripts/trace-c0.py --read FILE        # analyse a trace saved before
"""

import argparse
import collections
import os
import re
import subprocess
import sys

TRACEFS = "/sys/kernel/tracing"
EVENTS = [
    "sched/sched_switch",
    "sched/sched_wakeup",
    "irq_vectors/local_timer_entry",
    "irq/softirq_entry",
]
LINE = re.compile(r"^\s*(.+?)-(\d+)\s+\[\d+\]\s+(\S+)\s+([\d.]+):\s+(\w+):\s*(.*)$")
SILENT_US = 25.0


def write(name, value):
    with open(os.path.join(TRACEFS, name), "w") as f:
        f.write(value)


def record(cpu, command, out):
    """Runs `command` with the events enabled on `cpu`; the trace's text."""
    if not os.path.exists(os.path.join(TRACEFS, "trace")):
        subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS], check=True)
    with open(os.path.join(TRACEFS, "tracing_cpumask")) as f:
        mask = f.read().strip()
    with open(os.path.join(TRACEFS, "buffer_size_kb")) as f:
        size = f.read().split()[0]
    write("tracing_on", "0")
    write("trace", "")
    write("tracing_cpumask", format(1 << cpu, "x"))
    write("buffer_size_kb", "200000")
    for e in EVENTS:
        write(f"events/{e}/enable", "1")
    try:
        write("tracing_on", "1")
        status = subprocess.run(command).returncode
        write("tracing_on", "0")
        with open(os.path.join(TRACEFS, "trace")) as f:
            text = f.read()
    finally:
        write("tracing_on", "0")
        for e in EVENTS:
            write(f"events/{e}/enable", "0")
        write("tracing_cpumask", mask)
        write("buffer_size_kb", size)
        write("trace", "")
    if out:
        with open(out, "w") as f:
            f.write(text)
    if status != 0:
        print(f"trace-c0: the command exited with {status}", file=sys.stderr)
    return text


def parse(text):
    events = []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            comm, pid, flags, t, ev, rest = m.groups()
            events.append((float(t) * 1e6, comm, pid, flags, ev, rest))
    return events


def cycles_of(events, c0):
    """C0's cycles: the events from each timer wake-up of C0 (in a hard
    interrupt) to the next."""
    wake = f"comm=C0 pid={c0} "
    cycles, cur = [], None
    for e in events:
        if e[4] == "sched_wakeup" and wake in e[5] and "h" in e[3]:
            if cur:
                cycles.append(cur)
            cur = []
        if cur is not None:
            cur.append(e)
    return cycles


def switch(e, prev, nxt=None):
    return (
        e[4] == "sched_switch"
        and f"prev_pid={prev} " in e[5]
        and (nxt is None or re.search(f"next_pid={nxt} ", e[5] + " "))
    )


def analyse(cycle, c0):
    """(duration, segments or None, tick inside, silent gap) of a cycle."""
    start = cycle[0][0]
    outs = [e[0] for e in cycle if switch(e, c0) and "prev_state=S" in e[5]]
    if len(outs) < 2:
        return None
    end = outs[1]
    inside = [e for e in cycle[1:] if e[0] <= end]
    tick = any(e[4] == "local_timer_entry" for e in inside)
    times = [start] + [e[0] for e in inside]
    gap = max(b - a for a, b in zip(times, times[1:]))
    segments = None
    try:
        send = next(e for e in inside if e[2] == c0 and e[4] == "softirq_entry")
        to_server = next(e for e in inside if switch(e, c0) and e[0] >= send[0])
        server = re.search(r"next_pid=(\d+)", to_server[5]).group(1)
        reply = next(e for e in inside
                     if e[2] == server and e[4] == "softirq_entry" and e[0] >= to_server[0])
        back = next(e for e in inside if switch(e, server, c0) and e[0] >= reply[0])
        others = [
            e for e in inside
            if e[4] == "sched_switch"
            and not re.search(f"next_pid=({c0}|{server}|0) ", e[5] + " ")
        ]
        if not others and not tick and gap <= SILENT_US:
            segments = [
                send[0] - start,
                to_server[0] - send[0],
                reply[0] - to_server[0],
                back[0] - reply[0],
                end - back[0],
            ]
    except StopIteration:
        pass
    return end - start, segments, tick, gap > SILENT_US


def figures(values):
    v = sorted(values)
    if not v:
        return "-"
    n = len(v)
    return "mean %6.1f  p50 %6.1f  p99 %6.1f  max %7.1f" % (
        sum(v) / n, v[n // 2], v[min(n - 1, int(n * 0.99))], v[-1])


def report(events):
    c0s = list(dict.fromkeys(
        re.search(r"pid=(\d+)", e[5]).group(1)
        for e in events
        if e[4] == "sched_wakeup" and "comm=C0 " in e[5]
    ))
    names = ["wake-up to send", "send to server", "server's turn",
             "reply to C0", "C0 to sleep"]
    for i, c0 in enumerate(c0s):
        rows = [r for r in (analyse(c, c0) for c in cycles_of(events, c0)) if r]
        if len(rows) < 10:
            continue
        clean = [r for r in rows if r[1]]
        ticked = [r[0] for r in rows if r[2]]
        silent = [r[0] for r in rows if r[3]]
        print(f"\n== C0 thread {c0}, point {i + 1} of the trace: {len(rows)} cycles, µs")
        print(f"  every cycle         {figures([r[0] for r in rows])}")
        print(f"  nothing else on CPU {figures([r[0] for r in clean])}  ({len(clean)})")
        for k, name in enumerate(names):
            print(f"    {name:<17} {figures([r[1][k] for r in clean])}")
        print(f"  the tick inside     {figures(ticked)}  ({len(ticked)})")
        print(f"  >{SILENT_US:.0f} µs untraced    {figures(silent)}  ({len(silent)})")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cpu", type=int, default=os.cpu_count() - 1,
                   help="the CPU to trace (default: the last, C0's)")
    p.add_argument("--out", help="also save the trace's text here")
    p.add_argument("--read", help="analyse this saved trace instead of running")
    p.add_argument("command", nargs=argparse.REMAINDER)
    args = p.parse_args()
    if args.read:
        with open(args.read) as f:
            text = f.read()
    else:
        command = args.command[1:] if args.command[:1] == ["--"] else args.command
        if not command:
            p.error("a command to run, after --")
        text = record(args.cpu, command, args.out)
    report(parse(text))


if __name__ == "__main__":
    main()
