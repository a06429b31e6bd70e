#!/usr/bin/env bash
# Benchmark: rocm-audit against `ldd -r`, lddtree and libtree on the real corpus's x86-64
# ELF files (../shared/corpus/fetch.sh). Not a test: it prints figures.
#
#   bench/ldd_vs_audit.sh [BUILD_DIR]      (CORPUS defaults to $HOME/rocm-corpus)
#   BENCH_PREPARE=DIR bench/ldd_vs_audit.sh  only writes the file list (DIR/files) and the
#                                            commands (DIR/*.sh) for bench/all.sh, and exits
#
# `ldd -r` is what a packager runs today: a loop over the files, each run of the loader in
# trace mode with binding of every symbol (LD_BIND_NOW), which is what ldd -r does. It is
# run with the corpus's own ld.so (the host's glibc would mix two libcs) with the same
# library path and no ld.so.cache, exactly the setup rocm-audit is given. The same verdict
# comparison the integration test makes (bench/compare_ldd.py) is printed at the end.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${1:-$HERE/../build}
AUDIT=$BUILD/rocm-audit
CORPUS=${CORPUS:-$HOME/rocm-corpus}
ROOT=$CORPUS/sid-root
LDSO=$ROOT/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
LP=$ROOT/usr/lib/x86_64-linux-gnu:$ROOT/usr/lib
RUNS=${RUNS:-5}
[ -x "$AUDIT" ] || { echo "no $AUDIT: build first" >&2; exit 2; }
[ -x "$LDSO" ] || { echo "no corpus at $CORPUS (run ../shared/corpus/fetch.sh)" >&2; exit 2; }
if [ -n "${BENCH_PREPARE:-}" ]; then WORK=$BENCH_PREPARE; mkdir -p "$WORK"
else WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT; fi

# The file list: every x86-64 executable and shared library rocm-audit finds in the tree.
"$AUDIT" --no-progress --format json --absolute-paths --fail-on none --ld-so-conf /nonexistent --library-path "$LP" \
  -o "$WORK/all.json" "$ROOT"
python3 - "$WORK/all.json" > "$WORK/files" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["files"]:
    if f["kind"] in ("elf-shared-library", "elf-executable") and f.get("machine") == "x86-64":
        print(f["path"])
PY
N=$(wc -l < "$WORK/files")
echo "files: $N x86-64 executables and shared libraries under $ROOT"
echo "bytes: $(xargs -a "$WORK/files" -d '\n' du -cb | tail -1 | cut -f1)"

cat > "$WORK/ldd-r.sh" <<SH
while IFS= read -r f; do
  env -i LD_TRACE_LOADED_OBJECTS=1 LD_WARN=yes LD_BIND_NOW=yes "$LDSO" --inhibit-cache --library-path "$LP" "\$f" >/dev/null 2>&1 || true
done < "$WORK/files"
SH
cat > "$WORK/audit.sh" <<SH
xargs -a "$WORK/files" -d '\n' "$AUDIT" --no-progress --format json --fail-on none --ld-so-conf /nonexistent --library-path "$LP" -o /dev/null
SH
# Facts on demand: the loader's checks alone read no device code and evaluate no CMake.
cat > "$WORK/audit-loader.sh" <<SH
xargs -a "$WORK/files" -d '\n' "$AUDIT" --no-progress --format json --fail-on none --ld-so-conf /nonexistent --library-path "$LP" --enable 'undefined-symbol,missing-version,unresolved-library,rpath-*,mixed-soname' -o /dev/null
SH
cat > "$WORK/lddtree.sh" <<SH
xargs -a "$WORK/files" -d '\n' -n 64 lddtree -R "$ROOT" >/dev/null 2>&1 || true
SH
cat > "$WORK/libtree.sh" <<SH
# The same search setup as the others: the corpus's library path (which libtree takes from
# LD_LIBRARY_PATH, so its own libraries come from the host through ld.so --library-path),
# no ld.so.conf.
LIBTREE=\$(command -v libtree)
while IFS= read -r f; do
  LD_LIBRARY_PATH="$LP" /lib64/ld-linux-x86-64.so.2 --library-path /lib/x86_64-linux-gnu "\$LIBTREE" --ldconf /nonexistent "\$f" >/dev/null 2>&1 || true
done < "$WORK/files"
SH
[ -z "${BENCH_PREPARE:-}" ] || exit 0

cmds=(-n "rocm-audit, loader checks only (undefined symbols, versions, libraries, rpath, sonames)" "bash $WORK/audit-loader.sh"
      -n "rocm-audit, all checks (also device code)" "bash $WORK/audit.sh"
      -n "ldd -r loop (sid ld.so, trace mode, bind now)" "bash $WORK/ldd-r.sh")
command -v lddtree >/dev/null && cmds+=(-n "lddtree -R (closure only)" "bash $WORK/lddtree.sh")
command -v libtree >/dev/null && cmds+=(-n "libtree loop (closure only)" "bash $WORK/libtree.sh")
if command -v hyperfine >/dev/null; then
  hyperfine --warmup 1 --runs "$RUNS" --export-json "$WORK/times.json" "${cmds[@]}"
  python3 - "$WORK/times.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
audit = next(v for k, v in r.items() if k.startswith("rocm-audit"))
for k, v in r.items():
    print(f"{k:60s} mean {v['mean']*1000:8.1f} ms  (user {v['user']*1000:7.1f} ms)  "
          f"{v['mean']/audit['mean']:6.1f}x rocm-audit")
PY
else
  for ((i = 1; i < ${#cmds[@]}; i += 3)); do echo "${cmds[i]}"; time bash -c "${cmds[i+1]}"; done
fi

echo; echo "verdicts, file by file (rocm-audit vs the loader):"
python3 "$HERE/compare_ldd.py" "$WORK/all.json" --ld-so "$LDSO" --inhibit-cache --library-path "$LP" --show 5
