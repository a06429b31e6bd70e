#!/bin/bash
# What evaluating CMake package configs costs as the set grows: rocm-audit over the installed
# system's package configs (the directories tests/cmake-world's test audits: every
# *Config.cmake / *-config.cmake below /usr/lib and /usr/share, but CMake's own modules and
# ROCm's), and a scaling series of one family's directories audited together against the
# sum of each audited alone. Needs no corpus: the -dev packages of
# tests/cmake-world/packages.txt installed (tests/cmake-world/install.sh).
#   bench/cmake_evaluation.sh [build-dir]
# Environment:
#   RUNS=N            runs of the whole set (default 3; CPU and peak RSS the mean and the max)
#   FAMILY=REGEX      the scaling series' directories (default: Qt6's, cmake/Qt6*)
#   COUNTS="10 20 40 80"  the series' sizes (the family's first N directories by name; the
#                     whole family is added last)
#   SAMPLES=N         random sets of 256 directories, the size of the issue's goal set
#                     (default 4; seeds 1..N, so each is the same set on the same system)
# CPU is user+sys and peak RSS VmHWM, from /usr/bin/time; the series' "alone" column is the
# sum over its directories of one run each.
set -euo pipefail
build=$(realpath "${1:-build}")
audit="$build/rocm-audit"
runs=${RUNS:-3}
family=${FAMILY:-/cmake/Qt6}
counts=${COUNTS:-10 20 40 80}
samples=${SAMPLES:-4}
[ -x "$audit" ] || { echo "no $audit: build first" >&2; exit 2; }
command -v bc >/dev/null || { echo "missing tools: apt-get install bc" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

find /usr/lib /usr/share -maxdepth 6 \( -name '*Config.cmake' -o -name '*-config.cmake' \) \
  -not -path '/usr/share/cmake-*' 2>/dev/null | grep -v -e /rocm -e /hip | sort > "$work/configs" || true
xargs -r -n1 dirname < "$work/configs" | sort -u > "$work/dirs"
grep -e "$family" "$work/dirs" > "$work/family" || true
[ -s "$work/dirs" ] || { echo "no package configs below /usr: install tests/cmake-world/packages.txt" >&2; exit 2; }

# measure FILE-OF-DIRS N: "cpu rss_kb" of one run over the first N directories.
measure() {
  mapfile -t d < <(head -n "$2" "$1")
  /usr/bin/time -f '%U %S %M' -o "$work/time" "$audit" --no-progress --root / "${d[@]}" > /dev/null || true
  read -r u s m < <(tail -1 "$work/time")
  echo "$(echo "$u + $s" | bc) $m"
}

echo "rocm-audit CMake evaluation, $(date -u +%FT%TZ): $("$audit" --version)" \
  "(git $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "machine: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: rocm-audit --no-progress --root / DIR..."
echo
echo "| set | configs | directories | CPU s (mean of $runs) | peak RSS MB (max) |"
echo "|---|---:|---:|---:|---:|"
total=0 peak=0
for ((r = 0; r < runs; r++)); do
  read -r c m < <(measure "$work/dirs" 100000)
  total=$(echo "$total + $c" | bc)
  ((m > peak)) && peak=$m
done
printf '| the installed system | %d | %d | %.2f | %d |\n' "$(wc -l < "$work/configs")" "$(wc -l < "$work/dirs")" \
  "$(echo "$total / $runs" | bc -l)" $((peak / 1024))
echo
echo "Random sets of 256 directories (shuf, seeded), one run each"
echo
echo "| seed | configs | CPU s | peak RSS MB |"
echo "|---:|---:|---:|---:|"
for ((s = 1; s <= samples; s++)); do
  shuf -n 256 --random-source=<(yes "$s") "$work/dirs" > "$work/sample"
  read -r c m < <(measure "$work/sample" 256)
  n_configs=$(awk 'NR == FNR { d[$0] = 1; next } { p = $0; sub(/\/[^\/]*$/, "", p); n += (p in d) }
                   END { print n + 0 }' "$work/sample" "$work/configs")
  printf '| %d | %d | %.2f | %d |\n' "$s" "$n_configs" "$c" $((m / 1024))
done
echo
n_family=$(wc -l < "$work/family")
echo "Scaling: the first N directories matching $family ($n_family in all) together, against each alone"
echo
echo "| N | together: CPU s | peak RSS MB | alone: sum of CPU s | together / alone |"
echo "|---:|---:|---:|---:|---:|"
for n in $counts $n_family; do
  ((n <= n_family)) || continue
  read -r c m < <(measure "$work/family" "$n")
  alone=0
  while read -r d; do
    echo "$d" > "$work/one"
    read -r c1 _ < <(measure "$work/one" 1)
    alone=$(echo "$alone + $c1" | bc)
  done < <(head -n "$n" "$work/family")
  printf '| %d | %.2f | %d | %.2f | %.2f |\n' "$n" "$c" $((m / 1024)) "$alone" "$(echo "$c / $alone" | bc -l)"
done
