#!/bin/bash
# diff_sets_vs_audits.sh BIN OLD_LIST NEW_LIST: `rocm-audit diff --from OLD... --to NEW...` of two
# sets of .debs against the audits it replaces, each under /usr/bin/time -v: an audit of each
# set, an audit of NEW with --symbols (the report diff reads back), the diff over the base /,
# the diff with --no-base, and `rocm-audit index` of NEW. OLD_LIST and NEW_LIST hold the .deb
# paths, whitespace-separated. One line per command: wall, user, sys, CPU and peak RSS.
set -euo pipefail
bin=$1
read -r -a old <<< "$(tr '\n' ' ' < "$2")"
read -r -a new <<< "$(tr '\n' ' ' < "$3")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {
  local name=$1; shift
  /usr/bin/time -v "$@" > /dev/null 2> "$out/time" || true
  awk -v n="$name" '/Elapsed/ {w=$NF} /User time/ {u=$NF} /System time/ {s=$NF}
    /Maximum resident/ {r=$NF} END {printf "%-22s wall %8s  user %6.2f  sys %5.2f  CPU %6.2f  RSS %5d MB\n",
    n, w, u, s, u+s, r/1024}' "$out/time"
}
run "audit OLD" "$bin" --no-progress --format json -o /dev/null "${old[@]}"
run "audit NEW" "$bin" --no-progress --format json -o /dev/null "${new[@]}"
run "audit NEW --symbols" "$bin" --no-progress --format json --symbols -o "$out/new.json" "${new[@]}"
run "diff over /" "$bin" diff --no-progress --format json -o /dev/null --from "${old[@]}" --to "${new[@]}"
run "diff --no-base" "$bin" diff --no-progress --no-base --format json -o /dev/null --from "${old[@]}" --to "${new[@]}"
run "index NEW" "$bin" index -o /dev/null "${new[@]}"
