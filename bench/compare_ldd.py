#!/usr/bin/env python3
"""Compare rocm-audit's verdicts with the real loader's (`ldd -r` semantics), file by file.

For every loadable ELF file in rocm-audit's JSON report, runs the dynamic loader in trace
mode (LD_TRACE_LOADED_OBJECTS=1 LD_WARN=yes LD_BIND_NOW=yes, exactly what ldd -r sets) and
parses its verdicts about that file:
  - libraries "=> not found" anywhere in the closure,
  - "undefined symbol: NAME[, version V] (FILE)" and
    "symbol NAME version V not defined in file F with link time reference (FILE)",
  - "version `V' not found (required by FILE)".
rocm-audit's side: files[].unresolved (the closure view), undefined-symbol (+ the symbols
it attributes to unresolved libraries and missing versions), missing-version. A plugin or a
library of a host's API (files[].plugin) is bound against its host program too, which ld.so
in trace mode does not load: the symbols only the loader reports are the host's when there
are as many as files[].plugin.bound_by_host counts (stats "undefined"."bound_by_host").

usage: compare_ldd.py REPORT.json [--ld-so PATH] [--library-path DIRS] [--inhibit-cache]
                      [--chroot ROOT] [--json OUT] [--show N]
With --chroot ROOT (run as root) the loader runs inside `chroot ROOT`, the reference for
rocm-audit's --root: --ld-so and --library-path are then paths inside ROOT.
This runs the audited files' loader: use it only on trusted trees (it is a test harness).
"""
import argparse, json, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

LOADABLE = {"elf-shared-library", "elf-executable"}
ARGS = None

def inside(args, path):
    return path[len(args.chroot):] if args.chroot and path.startswith(args.chroot + "/") else path

def run_loader(args, path):
    env = {"LD_TRACE_LOADED_OBJECTS": "1", "LD_WARN": "yes", "LD_BIND_NOW": "yes",
           "PATH": "/usr/bin:/bin"}
    cmd = [args.ld_so]
    if args.inhibit_cache: cmd.append("--inhibit-cache")
    if args.library_path: cmd += ["--library-path", args.library_path]
    cmd.append(inside(args, path))
    try:
        # chroot(2) in the child, so the trace variables reach only the loader inside it.
        enter = (lambda: (os.chroot(args.chroot), os.chdir("/"))) if args.chroot else None
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, errors="replace",
                           timeout=120, preexec_fn=enter)
    except subprocess.TimeoutExpired:
        return None
    return p.stdout + p.stderr

UNDEF = re.compile(r"^\s*undefined symbol: ([^,\s]+)(?:, version (\S*))?\s+\((.*)\)\s*$")  # glibc prints an empty version when its library is not loaded
NOTDEF = re.compile(r"^\s*symbol (\S+) version (\S+) not defined in file (\S+) with link time reference\s+\((.*)\)\s*$")
NOTFOUND = re.compile(r"^\s*(\S+) => not found")
VERSION = re.compile(r"version `([^']+)' not found \(required by (.*)\)")

def loader_verdict(out, path):
    v = {"unresolved": set(), "undefined": set(), "versions": set()}
    real = os.path.realpath(path)
    def same(p):
        return p == path or (not ARGS.chroot and os.path.realpath(p) == real)
    for line in out.splitlines():
        if m := NOTFOUND.match(line): v["unresolved"].add(m.group(1))
        elif (m := UNDEF.match(line)) and same(m.group(3)): v["undefined"].add(m.group(1))
        elif (m := NOTDEF.match(line)) and same(m.group(4)): v["undefined"].add(m.group(1))
        elif (m := VERSION.search(line)) and same(m.group(2)): v["versions"].add(m.group(1))
    return v

def audit_verdict(entry, findings):
    # Libraries: the closure view (files[].unresolved), which lists every library missing
    # anywhere in the closure, as ld.so prints them; findings report each where it is fixed.
    v = {"unresolved": set(entry.get("unresolved", [])), "undefined": set(), "versions": set()}
    for f in findings:
        if f["check"] == "unresolved-library":
            v["undefined"].update(f.get("unbound_symbols", []))
        elif f["check"] == "undefined-symbol": v["undefined"].add(f["symbol"])
        elif f["check"] == "missing-version":
            v["versions"].add(f["version"]); v["undefined"].update(f.get("symbols", []))
    return v

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--ld-so", default="/lib64/ld-linux-x86-64.so.2")
    ap.add_argument("--library-path", default="")
    ap.add_argument("--inhibit-cache", action="store_true")
    ap.add_argument("--chroot", default="")
    ap.add_argument("--json")
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("-j", type=int, default=os.cpu_count())
    args = ap.parse_args()
    global ARGS
    ARGS = args
    report = json.load(open(args.report))
    by_file = {}
    for f in report["findings"]: by_file.setdefault(f["file"], []).append(f)
    files = [f for f in report["files"] if f["kind"] in LOADABLE and f.get("machine") == "x86-64"]
    with ThreadPoolExecutor(args.j) as pool:
        outs = list(pool.map(lambda f: run_loader(args, f["path"]), files))
    stats = {"files": len(files), "files_agree": 0, "loader_failed": 0}
    for k in ("unresolved", "undefined", "versions"):
        stats[k] = {"both": 0, "only_loader": 0, "only_audit": 0}
    disagreements = []
    for f, out in zip(files, outs):
        if out is None:
            stats["loader_failed"] += 1; continue
        lv = loader_verdict(out, inside(args, f["path"]) if args.chroot else f["path"])
        av = audit_verdict(f, by_file.get(f["path"], []))
        agree = True
        by_host = (f.get("plugin") or {}).get("bound_by_host", 0)
        if by_host and len(lv["undefined"] - av["undefined"]) == by_host:
            stats["undefined"]["bound_by_host"] = stats["undefined"].get("bound_by_host", 0) + by_host
            lv["undefined"] &= av["undefined"]
        for k in ("unresolved", "undefined", "versions"):
            stats[k]["both"] += len(lv[k] & av[k])
            stats[k]["only_loader"] += len(lv[k] - av[k])
            stats[k]["only_audit"] += len(av[k] - lv[k])
            if lv[k] != av[k]:
                agree = False
                disagreements.append({"file": f["path"], "what": k,
                                      "only_loader": sorted(lv[k] - av[k])[:20],
                                      "only_audit": sorted(av[k] - lv[k])[:20]})
        stats["files_agree"] += agree
    print(json.dumps(stats, indent=1))
    for d in disagreements[:args.show]: print(json.dumps(d))
    if args.json:
        json.dump({"stats": stats, "disagreements": disagreements}, open(args.json, "w"), indent=1)
    return 0 if stats["files_agree"] + stats["loader_failed"] == stats["files"] else 1

if __name__ == "__main__":
    sys.exit(main())
