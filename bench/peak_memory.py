#!/usr/bin/env python3
"""Runs a command and prints its wall time and peak memory, as the benchmarks quote them.

    bench/peak_memory.py [--label L] -- COMMAND...

The kernel keeps the peak resident set (VmHWM) but not the peak of anonymous memory, which is
what a bound per worker is about (file-backed pages of the mapped inputs can be dropped at
any time and are not the tool's to bound). So RssAnon is sampled every millisecond while the
command runs; a peak shorter than that can be missed, which is why the figure is a lower
bound, and why the sampling is fast. Output, one line:

    label  wall 1.234 s  user 1.1 s  sys 0.2 s  anon 123.4 MB  rss 456.7 MB  exit 0
"""
import os
import sys
import time


def status_kb(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError, ValueError):
        pass
    return 0


def main(argv):
    label = ""
    if argv[:1] == ["--label"]:
        label, argv = argv[1], argv[2:]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        sys.exit(__doc__)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.execvp(argv[0], argv)
    anon = rss = 0
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        anon = max(anon, status_kb(pid, "RssAnon"))
        rss = max(rss, status_kb(pid, "VmHWM"))
        time.sleep(0.001)
    wall = time.monotonic() - start
    usage = os.times()
    code = os.waitstatus_to_exitcode(status)
    print(f"{label}  wall {wall:.3f} s  user {usage.children_user:.2f} s  sys {usage.children_system:.2f} s  "
          f"anon {anon / 1000:.1f} MB  rss {rss / 1000:.1f} MB  exit {code}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
