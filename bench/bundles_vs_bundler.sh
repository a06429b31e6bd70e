#!/usr/bin/env bash
# Device-code benchmarks on the real corpus (../shared/corpus/fetch.sh):
#  1. inventory: rocm-audit listing every bundle of every fat binary and standalone code
#     object vs llvm-objcopy (dump .hip_fatbin) + clang-offload-bundler --list, which reads
#     only the first bundle of a section;
#  2. CCOB validation: rocm-audit decompressing and checking every compressed bundle (-j1)
#     vs `zstd -d` over the same payloads, CPU time;
#  3. peak memory of rocm-audit on the smallest and the largest compressed bundle.
#   bench/bundles_vs_bundler.sh [BUILD_DIR]   (CORPUS defaults to $HOME/rocm-corpus)
#   BENCH_PREPARE=DIR bench/bundles_vs_bundler.sh [BUILD_DIR]   only writes the lists, the
#     extracted payloads and the commands (DIR/*.sh) for bench/all.sh, and exits
set -euo pipefail
build=${1:-build}
audit=$(realpath "$build/rocm-audit")
root=${CORPUS:-$HOME/rocm-corpus}/sid-root/usr
if [ -n "${BENCH_PREPARE:-}" ]; then tmp=$BENCH_PREPARE; mkdir -p "$tmp"
else tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; fi

"$audit" --no-progress --fail-on none --format json --absolute-paths -o "$tmp/all.json" "$root"
python3 - "$tmp" <<'PY'
import json, sys, os
tmp = sys.argv[1]
d = json.load(open(f"{tmp}/all.json"))
fat, standalone, payloads = [], [], []
for f in d["files"]:
    bundles = f.get("bundles", [])
    if any(b.get("section") == ".hip_fatbin" for b in bundles):
        fat.append(f["path"])
    elif bundles and all(b["format"] in ("plain", "ccob") for b in bundles):
        standalone.append(f["path"])
    for b in bundles:
        if b["format"] == "ccob" and b["compression"] == "zstd":
            head = {1: 20, 2: 24, 3: 32}[b["ccob_version"]]
            payloads.append((f["path"], b["file_offset"] + head, b["compressed_size"] - head,
                             b["uncompressed_size"]))
open(f"{tmp}/fat.txt", "w").write("\n".join(fat) + "\n")
open(f"{tmp}/standalone.txt", "w").write("\n".join(standalone) + "\n")
os.makedirs(f"{tmp}/zst")
ccob_files = set()
for i, (path, off, size, raw) in enumerate(payloads):
    with open(path, "rb") as src, open(f"{tmp}/zst/{i:05d}.zst", "wb") as dst:
        src.seek(off)
        dst.write(src.read(size))
    ccob_files.add(path)
open(f"{tmp}/ccob_files.txt", "w").write("\n".join(sorted(ccob_files)) + "\n")
sizes = sorted((raw, p) for p, _, _, raw in payloads)
open(f"{tmp}/smallest.txt", "w").write(sizes[0][1] + "\n")
open(f"{tmp}/largest.txt", "w").write(sizes[-1][1] + "\n")
print(f"{len(fat)} fat binaries, {len(standalone)} standalone bundle files, {len(payloads)} zstd CCOB payloads "
      f"({sum(p[2] for p in payloads)/1e6:.1f} MB -> {sum(p[3] for p in payloads)/1e6:.1f} MB); "
      f"smallest {sizes[0][0]} B, largest {sizes[-1][0]} B uncompressed")
PY

cat > "$tmp/bundler.sh" <<SH
#!/usr/bin/env bash
while read -r f; do
  llvm-objcopy-19 --dump-section .hip_fatbin="$tmp/fb" "\$f" /dev/null 2>/dev/null || continue
  clang-offload-bundler-19 --list --type=o --input="$tmp/fb" >/dev/null 2>&1 || true
done < "$tmp/fat.txt"
while read -r f; do clang-offload-bundler-19 --list --type=o --input="\$f" >/dev/null 2>&1 || true; done < "$tmp/standalone.txt"
SH
chmod +x "$tmp/bundler.sh"
cat > "$tmp/audit-inventory.sh" <<SH
cat "$tmp/fat.txt" "$tmp/standalone.txt" | xargs -d '\n' "$audit" --no-progress --fail-on none --format json -o /dev/null
SH
cat > "$tmp/audit-ccob.sh" <<SH
xargs -a "$tmp/ccob_files.txt" -d '\n' "$audit" -j1 --no-progress --fail-on none --format json -o /dev/null
SH
cat > "$tmp/zstd.sh" <<SH
zstd -q -d -c --long=31 "$tmp"/zst/*.zst > /dev/null
SH
[ -z "${BENCH_PREPARE:-}" ] || exit 0
echo "== 1. inventory (every bundle) vs llvm-objcopy + clang-offload-bundler --list (first bundle)"
hyperfine -w 1 -r 3 -N -n rocm-audit -n "llvm-objcopy + clang-offload-bundler --list" \
  "bash $tmp/audit-inventory.sh" "$tmp/bundler.sh" 2>&1 | grep -E "Time|±|faster|Benchmark"

echo "== 2. CCOB validation CPU time: rocm-audit -j1 vs zstd -d on the same payloads"
/usr/bin/time -f "rocm-audit -j1: %U s user + %S s sys, max RSS %M kB" bash "$tmp/audit-ccob.sh" 2>&1 >/dev/null | tail -1
/usr/bin/time -f "zstd -d:        %U s user + %S s sys, max RSS %M kB" bash "$tmp/zstd.sh" 2>&1 | tail -1

echo "== 3. peak memory, smallest vs largest compressed bundle"
for which in smallest largest; do
  /usr/bin/time -f "$which: max RSS %M kB" "$audit" -j1 --no-progress --fail-on none -q $(cat "$tmp/$which.txt") 2>&1 >/dev/null | tail -1
done
