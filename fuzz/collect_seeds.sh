#!/usr/bin/env bash
# Seed corpora for the fuzz targets, taken from the fixture trees the build made with the real
# toolchain: ELF files, static libraries, bundles and CCOBs and the sections holding them,
# code objects, .llvm.offloading sections, CMake package files, packages, and the reports and
# waiver files of the tests. Usage: collect_seeds.sh BUILD-DIR OUT-DIR
set -euo pipefail
build=$1 out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
objcopy=${LLVM_OBJCOPY:-llvm-objcopy-19}
rm -rf "$out"
source "$src/fuzz/targets.sh"
for t in "${fuzz_targets[@]}"; do
  mkdir -p "$out/$t"
done

n=0
seed() {  # seed TARGET FILE [PREFIX-BYTE-OCTAL]: copies FILE, under a unique name
  n=$((n + 1))
  local to="$out/$1/$n-$(basename "$2")"
  if [ $# -ge 3 ]; then { printf "\\$3"; cat "$2"; } > "$to"; else cp "$2" "$to"; fi
}
is_elf() { [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }

trees=("$build/demo-tree" "$build/gpu-tree")
while IFS= read -r -d '' f; do
  [ -s "$f" ] || continue
  [ "$(stat -c %s "$f")" -le 1048576 ] || continue
  if is_elf "$f"; then
    seed elf "$f"
    seed audit "$f"  # the whole audit: installed as a library and as a CMake config
    for section in .hip_fatbin .llvm.offloading; do
      tmp=$(mktemp)
      if "$objcopy" --dump-section "$section=$tmp" "$f" /dev/null 2>/dev/null && [ -s "$tmp" ]; then
        case $section in
          .hip_fatbin) seed bundle "$tmp" 017 ;;  # 2 MiB decompression cap, no hash check
          .llvm.offloading) seed offload_binary "$tmp" ;;
        esac
      fi
      rm -f "$tmp"
    done
  fi
  case $f in
    *.a) seed archive "$f" ;;
    *.co | *.hsaco)
      if is_elf "$f"; then seed code_object "$f"; else seed bundle "$f" 037; fi ;;  # hash checked
  esac
done < <(find "${trees[@]}" -type f -print0 | sort -z)
while IFS= read -r -d '' f; do
  [ -s "$f" ] && [ "$(stat -c %s "$f")" -le 1048576 ] && seed device_code "$f"
done < <(find "$build/gpu-tree" -type f -print0 | sort -z)
while IFS= read -r -d '' f; do
  seed cmake_list_file "$f"
  seed cmake_evaluator "$f"
  seed audit "$f"
done < <(find "$build/cmake-tree" "$build/demo-tree" "$src/fixtures/cmake" -name '*.cmake' -type f -print0 | sort -z)
find "$build/package-tree" -maxdepth 2 -type f ! -name .stamp -print0 | sort -z |
  while IFS= read -r -d '' f; do seed unpack "$f"; done
for f in "$src"/tests/golden/*.json "$src"/fuzz/seeds/policy_files/*; do seed policy_files "$f"; done
# The JSON report read back: the golden reports (audits, a diff), the baseline seeds, and
# fuzz/seeds/report_reader/ (a side naming files that are not UTF-8, a nest at the depth
# limit and one 30,000 deep, issue 47).
for f in "$src"/tests/golden/*.json "$src"/fuzz/seeds/policy_files/*.json "$src"/fuzz/seeds/report_reader/*; do
  seed report_reader "$f"
done
# Names a terminal or a parser cannot take raw (issue 34): a DT_NEEDED and a SONAME with
# escapes and a carriage return, a RUNPATH with an escape. The audit target renders them.
for f in "$build/hostile-tree/names/bin/app" "$build/hostile-tree/names/lib/libterm.so"; do
  if [ -f "$f" ]; then seed elf "$f"; seed audit "$f"; fi
done
# The shapes of the hostile tree that amplify (shared offsets, DT_NEEDED) and that ld.so reads
# where section headers do not (PT_DYNAMIC past DT_NULL, DT_STRSZ that lies, section headers
# past the end), small; and a separate debug file made by objcopy --only-keep-debug.
shapes=$(mktemp -d)
"$src/fixtures/hostile_bytes.py" seeds "$shapes"
for f in "$shapes"/*.so; do seed elf "$f"; seed audit "$f"; done
for f in "$shapes"/*.hsaco; do seed bundle "$f" 017; seed device_code "$f"; done
for f in "$build"/demo-tree/lib/*.so*; do
  if is_elf "$f" && objcopy --only-keep-debug "$f" "$shapes/only-keep-debug.so" 2>/dev/null; then
    seed elf "$shapes/only-keep-debug.so"
    seed audit "$shapes/only-keep-debug.so"
    break
  fi
done
rm -rf "$shapes"
# The second round of the hostile tree (fixtures/hostile_names.py): every control byte in
# names and bundle IDs, markup in names, archives whose headers claim more than they hold,
# and one tiny .deb of the ring.
hostile=$build/hostile-tree
for f in "$hostile"/names-controls/lib/libc1b.so "$hostile"/names-controls/lib/libc9b.so \
         "$hostile"/names-controls/lib/libcc29b.so "$hostile"/names-markup/lib/libmarkup.so; do
  if [ -f "$f" ]; then seed elf "$f"; seed audit "$f"; fi
done
for f in "$hostile"/names-controls/gpu/controls.hipfb; do
  if [ -f "$f" ]; then seed bundle "$f" 017; seed device_code "$f"; fi
done
for f in "$hostile"/archives/*.deb "$hostile"/debs/p01_1.0_amd64.deb; do
  if [ -f "$f" ]; then seed unpack "$f"; fi
done
# Issue 47's static archives (fixtures/hostile_archive47.py): foreign members, lying tables.
for f in "$hostile"/archives47/*/*/lib/*.a; do
  if [ -f "$f" ]; then seed archive "$f"; fi
done

# Package metadata (fixtures/hostile_unpack47.py seeds: a control file, METADATA, index.json,
# an RPM and one whose signature claims 4,096 entries, a zip whose two entries share one
# local entry, a RECORD), each behind the byte that picks its reader; and the package tree's
# RPM and the lying RPMs of the hostile tree, behind byte 3.
metadata=$(mktemp -d)
"$src/fixtures/hostile_unpack47.py" seeds "$metadata"
for f in "$metadata"/*; do seed package_metadata "$f"; done
rm -rf "$metadata"
for f in "$build"/package-tree/*.rpm "$hostile"/unpack47/rpm/*.rpm; do
  if [ -f "$f" ]; then seed package_metadata "$f" 003; fi
done

for t in "$out"/*; do printf '%s: %s seeds\n' "$(basename "$t")" "$(ls "$t" | wc -l)"; done
