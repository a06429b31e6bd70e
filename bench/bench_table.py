#!/usr/bin/env python3
"""Prints bench/all.sh's tables from hyperfine's --export-json files (or bench/timeit.py's).

    bench_table.py times [--best | --median] [--digits N] [--vs NAME] [--also NAME] [--pair ANCHOR=AUDIT]... JSON...
        One numbered row per command, in order: mean wall time (--best: the least of the
        runs; --median: their median), its standard deviation, mean user+sys CPU time
        (--median: the median of the runs' where the JSON has them, bench/timeit.py's); ratios
        with N decimals (default 1). A row whose name does not start
        with "rocm-audit", or one --pair names first, is an anchor: it
        gets the ratios anchor / rocm-audit of wall and CPU time against its --pair
        counterpart, else --vs, and also against --also when given.
    bench_table.py scaling TSV
        TSV lines: scale, regular files, bytes, hyperfine JSON, bench/peak_memory.py line.
"""
import json
import re
import statistics
import sys


def load(paths):
    rows = {}
    for p in paths:
        for r in json.load(open(p))["results"]:
            rows[r["command"]] = r
    return rows


def cpu(r):
    return r["user"] + r["system"]


def sd(r):
    return f"{r['stddev']:.3f}" if r.get("stddev") is not None else "-"


def times(argv):
    vs = also = None
    best = median = False
    digits = 1
    pairs = {}
    files = []
    it = iter(argv)
    for a in it:
        if a == "--best": best = True
        elif a == "--median": median = True
        elif a == "--digits": digits = int(next(it))
        elif a == "--vs": vs = next(it)
        elif a == "--also": also = next(it)
        elif a == "--pair":
            k, v = next(it).split("=", 1)
            pairs[k] = v
        else: files.append(a)
    rows = load(files)
    wall = (lambda r: min(r["times"])) if best else (lambda r: statistics.median(r["times"])) if median else (
        lambda r: r["mean"])
    cpu = (lambda r: statistics.median(r["cpu_times"]) if "cpu_times" in r else r["user"] + r["system"]) if median else (
        lambda r: r["user"] + r["system"])
    index = {name: i + 1 for i, name in enumerate(rows)}
    width = max(len(k) for k in rows) + 2
    print(f"    {'command':{width}s}{'best s' if best else 'median s' if median else 'wall s':>8s}{'±':>7s}{'cpu s':>8s}   anchor / rocm-audit: wall, cpu")
    for name, r in rows.items():
        line = f"{'[%d]' % index[name]:4s}{name:{width}s}{wall(r):8.3f}{sd(r):>7s}{cpu(r):8.3f}"
        if name in pairs or not name.startswith("rocm-audit"):
            for base in (pairs.get(name, vs), also):
                if base in rows:
                    b = rows[base]
                    line += f"   vs [{index[base]}] {wall(r) / wall(b):6.{digits}f}x {cpu(r) / cpu(b):6.{digits}f}x"
        print(line.rstrip())


def scaling(argv):
    print(f"{'k':>5s}{'files':>8s}{'GB':>7s}{'wall s':>9s}{'±':>8s}{'cpu s':>9s}{'peak anon MB':>14s}"
          f"{'peak RSS MB':>13s}{'major faults':>14s}   wall / first row")
    first = None
    for line in open(argv[0]):
        scale, nfiles, nbytes, path, peak, faults = line.rstrip("\n").split("\t")
        r = next(iter(load([path]).values()))
        first = first or r
        anon = re.search(r"anon ([\d.]+) MB", peak)
        rss = re.search(r"rss ([\d.]+) MB", peak)
        print(f"{scale + 'x':>5s}{int(nfiles):8d}{int(nbytes) / 1e9:7.2f}{r['mean']:9.3f}{sd(r):>8s}{cpu(r):9.3f}"
              f"{anon.group(1) if anon else '?':>14s}{rss.group(1) if rss else '?':>13s}{faults:>14s}"
              f"   {r['mean'] / first['mean']:6.2f}")


if __name__ == "__main__":
    {"times": times, "scaling": scaling}[sys.argv[1]](sys.argv[2:])
