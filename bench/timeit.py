#!/usr/bin/env python3
"""The stand-in for hyperfine when it is not installed: runs each command WARMUP times
unmeasured, then RUNS times, and writes hyperfine's --export-json shape (mean, stddev,
user, system, times) so that bench/bench_table.py reads either; and each run's user+sys in
cpu_times, which hyperfine does not export.

    bench/timeit.py --warmup 1 --runs 5 --export-json OUT -n NAME CMD [-n NAME CMD]...

A command is split on whitespace and run without a shell, like `hyperfine -N`. User and
system time are the command's and its waited-for children's (wait4's rusage).
"""
import argparse
import json
import os
import statistics
import sys
import time


def run(argv):
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    return time.monotonic() - start, usage.ru_utime, usage.ru_stime, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--export-json", required=True)
    ap.add_argument("-n", dest="names", action="append", default=[])
    ap.add_argument("commands", nargs="+")
    args = ap.parse_intermixed_args()
    if len(args.names) != len(args.commands):
        sys.exit("timeit.py: one -n NAME per command")
    results = []
    for name, command in zip(args.names, args.commands):
        argv = command.split()
        for _ in range(args.warmup):
            run(argv)
        samples = [run(argv) for _ in range(args.runs)]
        walls = [s[0] for s in samples]
        results.append({"command": name, "mean": statistics.mean(walls),
                        "stddev": statistics.stdev(walls) if len(walls) > 1 else None,
                        "user": statistics.mean(s[1] for s in samples),
                        "system": statistics.mean(s[2] for s in samples),
                        "times": walls, "cpu_times": [s[1] + s[2] for s in samples],
                        "exit_codes": [s[3] for s in samples]})
        if any(s[3] for s in samples):
            sys.exit(f"timeit.py: {name} failed: exit codes {[s[3] for s in samples]}")
    json.dump({"results": results}, open(args.export_json, "w"), indent=1)


if __name__ == "__main__":
    main()
