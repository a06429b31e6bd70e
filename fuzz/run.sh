#!/usr/bin/env bash
# Builds the libFuzzer binaries with clang-19 (ASan + UBSan, coverage on the project's own
# code) in build-fuzz/, and fuzzes one target or all of them, each for SECONDS.
# The corpus a run grows is kept in $ROCM_AUDIT_FUZZ_CORPUS/<target> (default
# build-fuzz/corpus), seeded from the fixture trees, so that runs add up; crashes, leaks and
# slow units land in build-fuzz/findings/<target>/. A finding, once fixed, is copied to
# fuzz/regressions/<target>/, which ctest replays.
# Usage: fuzz/run.sh SECONDS [TARGET...]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
build=${ROCM_AUDIT_FUZZ_BUILD:-$src/build-fuzz}
corpus_root=${ROCM_AUDIT_FUZZ_CORPUS:-$build/corpus}
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if [ ! -f "$build/CMakeCache.txt" ]; then
  CXX=clang++-19 cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DROCM_AUDIT_FUZZERS=ON -DBUILD_TESTING=OFF -DCMAKE_CXX_FLAGS="$flags" >/dev/null
fi
cmake --build "$build" --target rocm_audit_fuzzers fuzz-seeds >/dev/null
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(elf archive device_code bundle code_object offload_binary cmake_list_file
                                     cmake_evaluator policy_files unpack)
for t in "${targets[@]}"; do
  corpus=$corpus_root/$t findings=$build/findings/$t
  mkdir -p "$corpus" "$findings"
  echo "== $t: ${seconds}s"
  # -timeout: an input slower than 10 s is a finding (a hang); -rss_limit_mb: so is one that
  # needs more than 2 GB; -max_len 1 MiB leaves room for whole small ELF files.
  ASAN_OPTIONS=detect_leaks=1 "$build/fuzz/rocm_audit_fuzz_$t" "$corpus" "$build/fuzz-seeds/$t" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
    -artifact_prefix="$findings/" -print_final_stats=1 2>&1 |
    grep -E '^(#[0-9]+[[:space:]]+(DONE|INITED)|stat::|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' || true
done
