#!/usr/bin/env bash
# Keeps what fuzzing found in the repository, so that runs on other machines (and CI's
# replay) start from it. The kept corpus is one archive, fuzz/corpus.tar.zst, of
# <target>/<unit> entries: the units that reach coverage the fixture seeds do not.
# For each target, libFuzzer's -merge=1 runs the seeds and the archive's units first, then
# the working corpus (build-fuzz/corpus/<target>), and reports the coverage edges the working
# corpus adds. When no target gains an edge, the archive is left as it is, byte for byte.
# When one does, that target's units are merged again, from the seeds alone, into a minimal
# set (the seeds are made by every build, so they are merged in first and left out of what
# is kept), and the archive is written anew: names sorted, owner and times fixed, so that the
# same units make the same bytes. Edges and not features decide: a feature is also a new hit
# count of a known edge, and the archive changes only when fuzzing reaches code it did not.
# Usage: fuzz/keep_corpus.sh [TARGET...]   (after fuzz/run.sh has built build-fuzz/)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${ROCM_AUDIT_FUZZ_BUILD:-$src/build-fuzz}
corpus_root=${ROCM_AUDIT_FUZZ_CORPUS:-$build/corpus}
archive=$src/fuzz/corpus.tar.zst
targets=("$@")
source "$src/fuzz/targets.sh"
[ ${#targets[@]} -gt 0 ] || targets=("${fuzz_targets[@]}")

work=$(mktemp -d "$build/keep-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The archive as committed, not build-fuzz/fuzz-corpus: the build may not have unpacked the
# latest one yet.
mkdir "$work/kept"
tar --use-compress-program=zstd -xf "$archive" -C "$work/kept"

# merge TARGET INTO FROM: libFuzzer's merge of FROM into INTO (whose units are the initial
# corpus); prints the new features and the new coverage edges it reports.
merge() {
  local log=$build/findings/$1.merge.log
  mkdir -p "$build/findings"
  ASAN_OPTIONS=detect_leaks=0 "$build/fuzz/rocm_audit_fuzz_$1" -merge=1 -timeout=10 -rss_limit_mb=2048 \
    -max_len=1048576 "$2" "$3" > "$log" 2>&1 || { echo "$1: merge failed, see $log" >&2; return 1; }
  sed -n 's/^MERGE-OUTER: [0-9]* new files with \([0-9]*\) new features added; \([0-9]*\) new coverage edges$/\1 \2/p' \
    "$log" | grep . || { echo "$1: no merge summary in $log" >&2; return 1; }
}
# seed TARGET DIR: copies the target's seeds into DIR, under names of their own (a unit of
# the same content is then already present, and the seeds can be told apart afterwards).
seed() {
  local f
  for f in "$build/fuzz-seeds/$1"/*; do [ -f "$f" ] && cp "$f" "$2/seed-$(sha1sum < "$f" | cut -c1-40)"; done
  return 0
}

grown=0
for t in "${targets[@]}"; do
  kept=$work/kept/$t base=$work/$t/base merged=$work/$t/merged
  mkdir -p "$kept" "$base" "$merged" "$corpus_root/$t"
  seed "$t" "$base"
  cp -pr "$kept"/. "$base"
  summary=$(merge "$t" "$base" "$corpus_root/$t")
  read -r features edges <<< "$summary"
  if [ "$edges" -eq 0 ]; then
    printf '%s: %s units kept; no new coverage edges (%s new features)\n' \
      "$t" "$(find "$kept" -type f | wc -l)" "$features"
    continue
  fi
  # $base now holds the archive's units and what the working corpus added to them.
  seed "$t" "$merged"
  merge "$t" "$merged" "$base" > /dev/null
  rm -f "$merged"/seed-*
  rm -rf "$kept"
  mv "$merged" "$kept"
  grown=1
  printf '%s: %s new coverage edges, %s new features; %s units kept\n' \
    "$t" "$edges" "$features" "$(find "$kept" -type f | wc -l)"
done

if [ "$grown" = 0 ]; then
  echo "fuzz/corpus.tar.zst unchanged"
  exit 0
fi
# -19 --long=27: a window of 128 MiB, which zstd decodes without being asked (zstd(1), --long).
mapfile -t dirs < <(cd "$work/kept" && LC_ALL=C ls)
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=gnu --mode=a=rX,u+w \
  -C "$work/kept" -cf - "${dirs[@]}" | zstd -q -T1 -19 --long=27 -o "$work/corpus.tar.zst"
mv "$work/corpus.tar.zst" "$archive"
printf 'fuzz/corpus.tar.zst rewritten: %s units, %s bytes\n' \
  "$(find "$work/kept" -type f | wc -l)" "$(stat -c %s "$archive")"
