#!/usr/bin/env bash
# Keeps what fuzzing found in the repository, so that runs on other machines (and CI's
# replay) start from it: the units of the working corpus (build-fuzz/corpus/<target>) and of
# the kept one (fuzz/corpus/<target>) that reach coverage the fixture seeds do not, merged
# with libFuzzer's -merge=1 into a new fuzz/corpus/<target>. The seeds are made by every
# build, so they are merged in first and left out of what is kept.
# Usage: fuzz/keep_corpus.sh [TARGET...]   (after fuzz/run.sh has built build-fuzz/)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${ROCM_AUDIT_FUZZ_BUILD:-$src/build-fuzz}
corpus_root=${ROCM_AUDIT_FUZZ_CORPUS:-$build/corpus}
targets=("$@")
source "$src/fuzz/targets.sh"
[ ${#targets[@]} -gt 0 ] || targets=("${fuzz_targets[@]}")
for t in "${targets[@]}"; do
  kept=$src/fuzz/corpus/$t seeds=$build/fuzz-seeds/$t
  merged=$(mktemp -d) empty=$(mktemp -d)
  # Seeds first, under names of their own: a unit of the same content is then already present.
  for f in "$seeds"/*; do [ -f "$f" ] && cp "$f" "$merged/seed-$(sha1sum < "$f" | cut -c1-40)"; done
  mkdir -p "$kept" "$corpus_root/$t"
  ASAN_OPTIONS=detect_leaks=0 "$build/fuzz/rocm_audit_fuzz_$t" -merge=1 -timeout=10 -rss_limit_mb=2048 \
    -max_len=1048576 "$merged" "$kept" "$corpus_root/$t" "$empty" > "$build/findings/$t.merge.log" 2>&1 ||
    { echo "$t: merge failed, see $build/findings/$t.merge.log"; rm -rf "$merged" "$empty"; exit 1; }
  rm -f "$merged"/seed-*
  rm -rf "$kept"
  mv "$merged" "$kept"
  chmod 755 "$kept"
  rmdir "$empty"
  printf '%s: %s units, %s\n' "$t" "$(find "$kept" -type f | wc -l)" "$(du -sh "$kept" | cut -f1)"
done
