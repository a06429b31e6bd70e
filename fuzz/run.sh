#!/usr/bin/env bash
# Builds the libFuzzer binaries with clang-19 (ASan + UBSan, coverage on the project's own
# code) in build-fuzz/, and fuzzes one target or all of them, each for SECONDS.
# Each target starts from three corpora: the one earlier runs grew and fuzz/keep_corpus.sh
# kept in the repository, fuzz/corpus.tar.zst, which the build unpacks into
# build-fuzz/fuzz-corpus/<target> (again whenever the archive changes); the fixture seeds; and
# the working corpus of this machine, $ROCM_AUDIT_FUZZ_CORPUS/<target> (default
# build-fuzz/corpus), into which the run adds what it finds. Crashes, leaks and slow units land in
# build-fuzz/findings/<target>/; a finding, once fixed, is copied to fuzz/regressions/<target>/,
# which ctest replays. Every run appends a row to fuzz/runs.tsv (the ledger of fuzzing time
# per target, summed by `fuzz/run.sh --totals`).
# Usage: fuzz/run.sh SECONDS [TARGET...]
#        fuzz/run.sh --totals
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
ledger=$src/fuzz/runs.tsv
source "$src/fuzz/targets.sh"

if [ "${1:-}" = --totals ]; then
  # Per target: runs, wall and CPU seconds, executions, the highest edge count reached.
  printf '%-16s %5s %8s %8s %12s %6s %6s\n' target runs "wall s" "CPU s" executions edges found
  awk -F'\t' 'NR > 1 { runs[$3]++; wall[$3] += $4; cpu[$3] += $5; execs[$3] += $6
                       if ($8 > edges[$3]) edges[$3] = $8; found[$3] += $10 }
              END { for (t in runs) printf "%-16s %5d %8d %8d %12d %6d %6d\n", t, runs[t], wall[t], cpu[t],
                                           execs[t], edges[t], found[t] }' "$ledger" | sort
  exit 0
fi

seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...] | --totals}
shift
build=${ROCM_AUDIT_FUZZ_BUILD:-$src/build-fuzz}
corpus_root=${ROCM_AUDIT_FUZZ_CORPUS:-$build/corpus}
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if [ ! -f "$build/CMakeCache.txt" ]; then
  CXX=clang++-19 cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DROCM_AUDIT_FUZZERS=ON -DBUILD_TESTING=OFF -DCMAKE_CXX_FLAGS="$flags" >/dev/null
fi
# Several runs at once (one per core) share the build: one ninja at a time in it.
flock "$build/.build-lock" cmake --build "$build" --target rocm_audit_fuzzers fuzz-seeds fuzz-corpus >/dev/null
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${fuzz_targets[@]}")
# The commit fuzzed, "-dirty" when tracked files differ from it: the ledger's own rows and
# the kept corpus, which keep_corpus.sh rewrites between runs, aside.
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$src" status --porcelain --untracked-files=no -- . ':!fuzz/runs.tsv' ':!fuzz/corpus.tar.zst' 2>/dev/null)" ] ||
  commit=$commit-dirty
[ -f "$ledger" ] ||
  printf 'date\tcommit\ttarget\twall_s\tcpu_s\texecutions\tedges_start\tedges_end\tcorpus_units\tfindings\n' > "$ledger"
for t in "${targets[@]}"; do
  corpus=$corpus_root/$t findings=$build/findings/$t kept=$build/fuzz-corpus/$t
  mkdir -p "$corpus" "$findings"
  log=$build/findings/$t.log
  found_before=$(find "$findings" -type f | wc -l)
  echo "== $t: ${seconds}s"
  # -timeout: an input slower than 10 s is a finding (a hang); -rss_limit_mb: so is one that
  # needs more than 2 GB; -max_len 1 MiB leaves room for whole small ELF files.
  # CPU time is the fuzzer's own (user + system), read from bash's `time`: wall time alone
  # overstates a run that shared its cores.
  TIMEFORMAT='%R %U %S'
  # A target's dictionary (fuzz/dict/TARGET.dict), when it has one: the tags and magic its
  # format is made of.
  dict=()
  [ -f "$src/fuzz/dict/$t.dict" ] && dict=(-dict="$src/fuzz/dict/$t.dict")
  { time ASAN_OPTIONS=detect_leaks=1 "$build/fuzz/rocm_audit_fuzz_$t" "$corpus" "$kept" "$build/fuzz-seeds/$t" \
      "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
      -artifact_prefix="$findings/" -print_final_stats=1 > "$log" 2>&1 || true; } 2> "$log.time"
  # -a: the log is text with the inputs' own bytes in it (LLVM's YAML parser quotes them).
  grep -a -E '^(#[0-9]+[[:space:]]+(DONE|INITED)|stat::|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' \
    "$log" || true
  read -r wall user sys < "$log.time"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  edges_start=$(sed -n 's/^#[0-9]*[[:space:]]*INITED cov: \([0-9]*\).*/\1/p' "$log" | head -1)
  edges_end=$(sed -n 's/^#[0-9]*[[:space:]]*\(DONE\|NEW\|REDUCE\|pulse\|INITED\) *cov: \([0-9]*\).*/\2/p' "$log" |
              tail -1)
  units=$(find "$corpus" -type f | wc -l)
  found=$(( $(find "$findings" -type f | wc -l) - found_before ))
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", u + s }')
  printf '%s\t%s\t%s\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%F)" "$commit" "$t" "$wall" "$cpu" \
    "${execs:-0}" "${edges_start:-0}" "${edges_end:-0}" "$units" "$found" >> "$ledger"
  tail -1 "$ledger"
done
