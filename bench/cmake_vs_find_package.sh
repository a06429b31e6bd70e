#!/bin/bash
# Times rocm-audit's static evaluation of every CMake package config of the corpus against
# CMake itself: one throw-away project per package calling find_package(<Name> CONFIG
# REQUIRED) (configure and generate, as the agreement test does). Also lists the commands
# the evaluator met and did not evaluate (the cmake-not-evaluated notes).
#   bench/cmake_vs_find_package.sh [build-dir]   (needs the corpus: $CORPUS or ~/rocm-corpus)
#   BENCH_PREPARE=DIR bench/cmake_vs_find_package.sh [build-dir]   only writes the commands
#     (DIR/audit-ROOT.sh, DIR/probe-ROOT.sh, DIR/packages-ROOT) for bench/all.sh, and exits
set -euo pipefail
build=$(realpath "${1:-build}")
corpus=${CORPUS:-$HOME/rocm-corpus}
audit="$build/rocm-audit"
if [ -n "${BENCH_PREPARE:-}" ]; then work=$BENCH_PREPARE; mkdir -p "$work"
else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

for root in sid-root bookworm-root; do
  r="$corpus/$root"
  dirs=()
  for d in usr/lib/x86_64-linux-gnu/cmake usr/lib/cmake usr/share/cmake usr/share/rocm/cmake \
           usr/share/rocmcmakebuildtools/cmake usr/lib/llvm-21/lib/cmake/AMDDeviceLibs; do
    [ -d "$r/$d" ] && dirs+=("$r/$d")
  done
  "$audit" "${dirs[@]}" --cmake-prefix-path "$r/usr" --format json --fail-on none -q -o "$work/$root.json"
  mapfile -t packages < <(python3 -c 'import json,sys
for f in json.load(open(sys.argv[1]))["files"]:
    if "cmake" in f: print(f["cmake"]["package"])' "$work/$root.json")
  echo "== $root: ${#packages[@]} packages"
  python3 - "$work/$root.json" <<'PY'
import json, sys, collections
r = json.load(open(sys.argv[1]))
c = collections.Counter()
for f in r["findings"]:
    if f["check"] == "cmake-not-evaluated":
        for cmd in f["commands"]:
            c[(cmd["command"], cmd["reason"].split(" (")[0].split(";")[0])] += 1
print("not evaluated:", dict(c) or "none")
PY
  # CMake: one probe per package, sequentially, as a consumer's configure would.
  printf '%s\n' "${packages[@]}" > "$work/packages-$root"
  echo "$audit ${dirs[*]} --cmake-prefix-path $r/usr --format json --fail-on none -q -o /dev/null" > "$work/audit-$root.sh"
  cat > "$work/probe-$root.sh" <<PROBE
#!/bin/bash
for p in ${packages[*]}; do
  d=\$(mktemp -d -p "$work")
  printf 'cmake_minimum_required(VERSION 3.25)\nproject(probe LANGUAGES C)\nfind_package(%s CONFIG REQUIRED)\n' "\$p" > "\$d/CMakeLists.txt"
  cmake -S "\$d" -B "\$d/b" -DCMAKE_PREFIX_PATH="$r/usr" -DHIP_PLATFORM=amd >/dev/null 2>&1 || true
  rm -rf "\$d"
done
PROBE
  chmod +x "$work/probe-$root.sh"
  [ -z "${BENCH_PREPARE:-}" ] || continue
  hyperfine --warmup 1 --runs 10 -N -n "rocm-audit (${#packages[@]} configs)" "bash $work/audit-$root.sh"
  hyperfine --runs 2 -N -n "find_package probes (${#packages[@]} cmake runs)" "$work/probe-$root.sh"
done
