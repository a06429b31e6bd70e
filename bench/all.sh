#!/usr/bin/env bash
# Every benchmark of rocm-audit against its anchors, from one run on the same files of the
# real corpus (../shared/corpus/fetch.sh: sid-root and bookworm-root unpacked), one table per
# section. Its output is kept in bench/results/, from which bench/benchmarks_md.py makes
# docs/benchmarks.md.
#
#   bench/all.sh [BUILD_DIR]                 (default: the checkout's build/)
#
# Environment:
#   CORPUS=DIR        the corpus (default $HOME/rocm-corpus)
#   RUNS=N            measured runs per command, after one warm-up run (default 5)
#   SLOW_RUNS=N       runs of the anchors that take minutes, the clang-offload-bundler loop
#                     and the CMake find_package probes: no warm-up run, as the rocm-audit
#                     commands just read the same files (default 2)
#   SECTIONS="..."    which sections, in order (default "loader device cmake scaling";
#                     "packages" and "diff" are run only when named)
#   DEB=FILE          the .deb of the packages section (default: sid's librocsolver0 in
#                     $CORPUS/debs/sid, 530 MB, a multi-block data.tar.xz)
#   SET="NAME..."     the packages section's set, from $CORPUS/debs/bookworm (default: the
#                     six of tests/cli/corpus_packages_test.cc, rocminfo to libamd-comgr2)
#   DIFF_PACKAGE=NAME the diff section's package, bookworm's and sid's .deb in $CORPUS/debs
#                     (default librocrand1: 5.3.3 to 6.4.3, 149 symbols removed)
#   DIFF_SET="NAME..." the diff section's pair of sets, bookworm's and sid's .debs (default:
#                     librocrand1 libhiprand1 libamdhip64-5 libhsa-runtime64-1 librocrand-dev
#                     libhiprand-dev)
#   SCALES="1 2 4"    the rows k of the scaling table: the tree holds SCALE_PART k times
#   SCALE_PART="P..." what the scaling table repeats: files or directories below sid-root
#                     (default: the Tensile directories of hipBLASLt and rocBLAS and the
#                     device-code libraries under 300 MB, librccl, librocrand, librocfft:
#                     ~75% of the whole tree's CPU time, 4.2 GB of which ~3 GB are read;
#                     the whole usr/lib/x86_64-linux-gnu is 9.3 GB of which ~7.5 GB are read,
#                     so at 4x (30 GB) it does not stay in the page cache of a 23 GB machine)
#   SCRATCH=DIR       where the scaled trees are made (default /var/tmp; must be on the
#                     corpus's filesystem; removed at exit)
#
# The sections (each command is a script run with `bash`, timed by hyperfine -N, or by
# bench/timeit.py when hyperfine is absent: mean of RUNS runs after one warm-up run, warm
# page cache; "cpu" is user+sys of the command and its children; ratios are anchor time /
# rocm-audit time):
#   loader   the 328 x86-64 executables and shared libraries of sid-root, as
#            bench/ldd_vs_audit.sh lists and runs them: `ldd -r` (the corpus's own ld.so in
#            trace mode, LD_BIND_NOW, --inhibit-cache, the same --library-path), lddtree -R
#            and libtree, against rocm-audit with the loader checks only and with all
#            checks; and rocm-audit on the whole tree (--root sid-root sid-root).
#   device   as bench/bundles_vs_bundler.sh: the inventory of every bundle of the fat
#            binaries and standalone bundles (rocm-audit, all checks) against
#            llvm-objcopy + `clang-offload-bundler-19 --list` (first bundle only), and the
#            CCOB files at -j1 against `zstd -d` over the same payloads (compare the CPU).
#   cmake    as bench/cmake_vs_find_package.sh: rocm-audit on the CMake package configs of
#            sid-root and bookworm-root against one `cmake` find_package(CONFIG REQUIRED)
#            probe project per package.
#   packages rocm-audit (all checks) of DEB, and of the bookworm SET together, installed over
#            /, against `dpkg-deb -x` of the same .debs into a fresh directory, against
#            `dpkg-deb -x` followed by rocm-audit of the unpacked tree over / (--root D
#            --root / D), and rocm-audit of that tree alone (unpacked once beforehand): what
#            auditing packages costs beside unpacking them. Wall time is the best of RUNS
#            (the first runs pay the page cache of a 2 GB tree); CPU the mean.
#   diff     `rocm-audit diff` of bookworm's and sid's .deb of DIFF_PACKAGE against the two
#            audits it replaces (each .deb, with --symbols, one after the other), the diff of
#            the two JSON reports those audits wrote, and the same with --root /: the base
#            scan for "who is hit" alone, which a diff of two .debs makes over /; then the same
#            for the sets DIFF_SET (diff --from/--to against an audit of each set). Wall and
#            CPU time the median of the runs.
#   scaling  rocm-audit (all checks) on the whole tree at SCALES x: a hard-linked copy of
#            sid-root (the 1x tree, no data copied) plus k-1 real copies (distinct inodes:
#            rocm-audit, like glibc, treats hard links as one object) of SCALE_PART, each under
#            opt/scale-copy-I/, like side-by-side ROCm installs in /opt. Per scale: wall,
#            user+sys, and from one more run under bench/peak_memory.py the peak
#            anonymous memory (sampled RssAnon) and peak RSS (VmHWM), with the major page
#            faults of that run (non-zero: the tree did not fit in the page cache).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$(realpath "${1:-$HERE/../build}")
AUDIT=$BUILD/rocm-audit
export CORPUS=${CORPUS:-$HOME/rocm-corpus}
export PATH=/usr/bin:/bin:$PATH  # the helpers want Debian's python3, not a pyenv shim
RUNS=${RUNS:-5}
SLOW_RUNS=${SLOW_RUNS:-2}
SECTIONS=${SECTIONS:-loader device cmake scaling}
for s in $SECTIONS; do
  case $s in loader | device | cmake | scaling | packages | diff) ;; *) echo "SECTIONS: loader device cmake scaling packages diff, not $s" >&2; exit 2 ;; esac
done
SCALES=$(tr ' ' '\n' <<<"${SCALES:-1 2 4}" | grep . | sort -n | uniq | tr '\n' ' ')
[[ $SCALES =~ ^([1-9][0-9]*\ )+$ ]] || { echo "SCALES: positive integers" >&2; exit 2; }
lib=usr/lib/x86_64-linux-gnu
SCALE_PART=${SCALE_PART:-$lib/hipblaslt $lib/rocblas $lib/librccl.so.1.0 $lib/librocrand.so.1.1 $lib/librocfft.so.0.1}
SCRATCH=${SCRATCH:-/var/tmp}
PY=/usr/bin/python3
ROOT=$CORPUS/sid-root

missing=()
need() { command -v "$1" >/dev/null || missing+=("$2"); }
# Each section needs only its own anchors.
has() { [[ " $SECTIONS " == *" $1 "* ]]; }
if has loader; then need libtree libtree; need lddtree pax-utils; fi
if has device; then need zstd zstd; need clang-offload-bundler-19 clang-tools-19; need llvm-objcopy-19 llvm-19; fi
if has cmake; then need cmake cmake; fi
if has packages; then need dpkg-deb dpkg; need bc bc; fi
if has diff; then need bc bc; fi
need "$PY" python3
need /usr/bin/time time
if ((${#missing[@]})); then echo "missing tools: apt-get install ${missing[*]}" >&2; exit 2; fi
[ -x "$AUDIT" ] || { echo "no $AUDIT: build first" >&2; exit 2; }
if [ ! -d "$ROOT/usr" ] || [ ! -d "$CORPUS/bookworm-root/usr" ]; then
  echo "no corpus at $CORPUS (run ../shared/corpus/fetch.sh)" >&2; exit 2
fi

WORK=$(mktemp -d)
SCALE_DIR=
cleanup() { rm -rf "$WORK"; if [ -n "$SCALE_DIR" ]; then rm -rf "$SCALE_DIR"; fi; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# [WARMUP=N] bench OUT.json RUNS NAME SCRIPT [NAME SCRIPT]...: times `bash SCRIPT` for each.
bench() {
  local out=$1 runs=$2 args=()
  shift 2
  while (($#)); do args+=(-n "$1" "bash $2"); shift 2; done
  if command -v hyperfine >/dev/null; then
    hyperfine -N --style basic --warmup "${WARMUP:-1}" --runs "$runs" --export-json "$out" "${args[@]}" \
      > "$WORK/hyperfine.log" 2>&1 || { cat "$WORK/hyperfine.log" >&2; return 1; }
  else
    "$PY" "$HERE/timeit.py" --warmup "${WARMUP:-1}" --runs "$runs" --export-json "$out" "${args[@]}"
  fi
}
table() { "$PY" "$HERE/bench_table.py" "$@"; }
gb() { awk -v b="$1" 'BEGIN { printf "%.2f GB", b / 1e9 }'; }

echo "rocm-audit benchmarks, $(date -u +%FT%TZ): $("$AUDIT" --version) (git $(git -C "$HERE" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$HERE" diff --quiet HEAD 2>/dev/null || echo ', modified'))"
echo "machine: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), $(nproc) cores," \
  "$(awk '/MemTotal/ { t = $2 } /MemAvailable/ { a = $2 } END { printf "%.1f GiB RAM (%.1f GiB available)", t / 2^20, a / 2^20 }' /proc/meminfo), Linux $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
tools=$(dpkg-query -W -f '${Package} ${Version}, ' hyperfine libtree pax-utils zstd cmake clang-tools-19 2>/dev/null || true)
echo "tools: ${tools}sid-root's $("$ROOT/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --version | head -1)"
if command -v hyperfine >/dev/null; then timer=hyperfine; else timer="bench/timeit.py (no hyperfine: apt-get install hyperfine)"; fi
echo "times: seconds, mean of $RUNS runs after ${WARMUP:-1} warm-up ($timer; slow anchors: $SLOW_RUNS runs), warm page cache; cpu = user+sys"

for section in $SECTIONS; do
  echo
  case $section in
  loader)
    L=$WORK/ldd
    BENCH_PREPARE=$L "$HERE/ldd_vs_audit.sh" "$BUILD" > "$WORK/ldd.log"
    echo "== loader: $(sed -n 's/^files: //p' "$WORK/ldd.log") ($(gb "$(sed -n 's/^bytes: //p' "$WORK/ldd.log")"))"
    echo "$AUDIT --no-progress --format json --fail-on none -o /dev/null --root $ROOT $ROOT" > "$WORK/whole.sh"
    bench "$WORK/loader.json" "$RUNS" \
      "rocm-audit, loader checks" "$L/audit-loader.sh" \
      "rocm-audit, all checks" "$L/audit.sh" \
      "rocm-audit, all checks, whole tree (--root)" "$WORK/whole.sh" \
      "ldd -r loop (sid ld.so, bind now)" "$L/ldd-r.sh" \
      "lddtree -R (closure only)" "$L/lddtree.sh" \
      "libtree loop (closure only)" "$L/libtree.sh"
    table times --vs "rocm-audit, loader checks" --also "rocm-audit, all checks" "$WORK/loader.json"
    ;;
  device)
    B=$WORK/bundles
    BENCH_PREPARE=$B "$HERE/bundles_vs_bundler.sh" "$BUILD" > "$WORK/bundles.log"
    echo "== device code: $(cat "$WORK/bundles.log")"
    nfat=$(grep -c . "$B/fat.txt" || true); nsa=$(grep -c . "$B/standalone.txt" || true)
    nccob=$(grep -c . "$B/ccob_files.txt" || true); npay=$(find "$B/zst" -type f | wc -l)
    inv="rocm-audit, all checks, $nfat fat + $nsa standalone"
    ccob="rocm-audit -j1, $nccob files with CCOB"
    bench "$WORK/device.json" "$RUNS" "$inv" "$B/audit-inventory.sh" "$ccob" "$B/audit-ccob.sh" \
      "zstd -d, the $npay payloads" "$B/zstd.sh"
    WARMUP=0 bench "$WORK/device-slow.json" "$SLOW_RUNS" "llvm-objcopy + bundler --list loop" "$B/bundler.sh"
    table times --pair "llvm-objcopy + bundler --list loop=$inv" --pair "zstd -d, the $npay payloads=$ccob" \
      "$WORK/device.json" "$WORK/device-slow.json"
    ;;
  cmake)
    C=$WORK/cmake
    BENCH_PREPARE=$C "$HERE/cmake_vs_find_package.sh" "$BUILD" > "$WORK/cmake.log"
    audits=() probes=() pairs=()
    for r in sid-root bookworm-root; do
      n=$(grep -c . "$C/packages-$r" || true)
      audits+=("rocm-audit, $r ($n configs)" "$C/audit-$r.sh")
      probes+=("find_package probes, $r ($n cmake runs)" "$C/probe-$r.sh")
      pairs+=(--pair "find_package probes, $r ($n cmake runs)=rocm-audit, $r ($n configs)")
    done
    echo "== cmake: the package configs of sid-root and bookworm-root"
    bench "$WORK/cmake-audit.json" "$RUNS" "${audits[@]}"
    WARMUP=0 bench "$WORK/cmake-probes.json" "$SLOW_RUNS" "${probes[@]}"
    table times "${pairs[@]}" "$WORK/cmake-audit.json" "$WORK/cmake-probes.json"
    ;;
  packages)
    deb=${DEB:-$(ls "$CORPUS"/debs/sid/librocsolver0_*_amd64.deb 2>/dev/null | head -1)}
    [ -f "$deb" ] || { echo "no .deb (DEB=FILE, or sid's librocsolver0 in $CORPUS/debs/sid)" >&2; exit 2; }
    read -r -a set_names <<<"${SET:-rocminfo librocsparse0 libhsa-runtime64-1 libhsakmt1 libamdhip64-5 libamd-comgr2}"
    set_debs=()
    for n in "${set_names[@]}"; do
      f=$(ls "$CORPUS"/debs/bookworm/"${n}"_*_amd64.deb 2>/dev/null | head -1)
      [ -f "$f" ] || { echo "no $n in $CORPUS/debs/bookworm (SET=\"NAME...\")" >&2; exit 2; }
      set_debs+=("$f")
    done
    unpacked() { local b=0 f; for f in "$@"; do b=$((b + $(dpkg-deb --fsys-tarfile "$f" | wc -c))); done; echo "$b"; }
    rows=() pairs=()
    echo "== packages: sid's $(basename "$deb") and bookworm's ${set_names[*]}, installed over /; best of $RUNS runs"
    # Per input, four commands: rocm-audit of the .debs (unpacked in its private directory,
    # installed over /); `dpkg-deb -x` of each into one fresh directory; the same followed by
    # rocm-audit of that tree over / (--root D --root / D); and rocm-audit of a tree unpacked
    # once beforehand, which is what the third adds to the second, measured on its own rather
    # than as the difference of two noisy means.
    for input in sid set; do
      if [ $input = sid ]; then debs=("$deb") label=$(basename "$deb" | cut -d_ -f1); else debs=("${set_debs[@]}") label="bookworm set of ${#set_debs[@]}"; fi
      D=$WORK/dpkg-x-$input T=$WORK/tree-$input
      x="rm -rf $D && mkdir $D"
      for f in "${debs[@]}"; do x+=" && dpkg-deb -x $f $D"; done
      echo "$x" > "$WORK/dpkg-x-$input.sh"
      echo "$x && $AUDIT --no-progress --format json --fail-on none -o /dev/null --root $D --root / $D" > "$WORK/dpkg-x-audit-$input.sh"
      echo "$AUDIT --no-progress --format json --fail-on none -o /dev/null ${debs[*]}" > "$WORK/deb-$input.sh"
      mkdir "$T" && for f in "${debs[@]}"; do dpkg-deb -x "$f" "$T"; done
      echo "$AUDIT --no-progress --format json --fail-on none -o /dev/null --root $T --root / $T" > "$WORK/tree-$input.sh"
      echo "   + $label: $(gb "$(stat -c %s "${debs[@]}" | paste -sd+ | bc)") of .deb, $(gb "$(unpacked "${debs[@]}")") unpacked, $(find "$T" -type f | wc -l) files"
      rows+=("rocm-audit, $label (.deb)" "$WORK/deb-$input.sh" "dpkg-deb -x, $label" "$WORK/dpkg-x-$input.sh"
        "dpkg-deb -x + rocm-audit of the tree, $label" "$WORK/dpkg-x-audit-$input.sh"
        "rocm-audit of the unpacked tree, $label" "$WORK/tree-$input.sh")
      pairs+=(--pair "dpkg-deb -x, $label=rocm-audit, $label (.deb)"
        --pair "dpkg-deb -x + rocm-audit of the tree, $label=rocm-audit, $label (.deb)")
    done
    bench "$WORK/packages.json" "$RUNS" "${rows[@]}"
    table times --best "${pairs[@]}" "$WORK/packages.json"
    rm -rf "$WORK"/dpkg-x-* "$WORK"/tree-*
    ;;
  diff)
    name=${DIFF_PACKAGE:-librocrand1}
    old=$(ls "$CORPUS"/debs/bookworm/"${name}"_*_amd64.deb 2>/dev/null | head -1)
    new=$(ls "$CORPUS"/debs/sid/"${name}"_*_amd64.deb 2>/dev/null | head -1)
    [ -f "$old" ] && [ -f "$new" ] || { echo "no $name in $CORPUS/debs/bookworm and sid (DIFF_PACKAGE=NAME)" >&2; exit 2; }
    echo "== diff: $(basename "$old") to $(basename "$new")"
    echo "   + $(gb "$(stat -c %s "$old" "$new" | paste -sd+ | bc)") of .deb"
    opts="--no-progress --format json --fail-on none"
    echo "$AUDIT diff $opts -o /dev/null $old $new" > "$WORK/diff-debs.sh"
    echo "$AUDIT $opts --symbols -o $WORK/old.json $old && $AUDIT $opts --symbols -o $WORK/new.json $new" > "$WORK/audits.sh"
    bash "$WORK/audits.sh"
    echo "$AUDIT diff $opts -o /dev/null $WORK/old.json $WORK/new.json" > "$WORK/diff-reports.sh"
    echo "$AUDIT diff $opts -o /dev/null --root / $WORK/old.json $WORK/new.json" > "$WORK/diff-reports-base.sh"
    bench "$WORK/diff.json" "$RUNS" "rocm-audit diff, the two .debs" "$WORK/diff-debs.sh" \
      "rocm-audit of each .deb (--symbols)" "$WORK/audits.sh" \
      "rocm-audit diff, their two JSON reports" "$WORK/diff-reports.sh" \
      "rocm-audit diff, the reports over / (base scan)" "$WORK/diff-reports-base.sh"
    table times --median --digits 2 --pair "rocm-audit of each .deb (--symbols)=rocm-audit diff, the two .debs" "$WORK/diff.json"
    # The same for two sets (--from/--to), bookworm's and sid's .debs of DIFF_SET.
    read -r -a names <<<"${DIFF_SET:-librocrand1 libhiprand1 libamdhip64-5 libhsa-runtime64-1 librocrand-dev libhiprand-dev}"
    olds=() news=()
    for n in "${names[@]}"; do
      o=$(ls "$CORPUS"/debs/bookworm/"${n}"_*_amd64.deb 2>/dev/null | head -1)
      s=$(ls "$CORPUS"/debs/sid/"${n}"_*_amd64.deb 2>/dev/null | head -1)
      [ -f "$o" ] && [ -f "$s" ] || { echo "no $n in $CORPUS/debs/bookworm and sid (DIFF_SET=\"NAME...\")" >&2; exit 2; }
      olds+=("$o") news+=("$s")
    done
    echo "== diff sets: bookworm's to sid's set of ${#names[@]}: ${names[*]}"
    echo "   + $(gb "$(stat -c %s "${olds[@]}" "${news[@]}" | paste -sd+ | bc)") of .deb"
    echo "$AUDIT diff $opts -o /dev/null --from ${olds[*]} --to ${news[*]}" > "$WORK/diff-sets.sh"
    echo "$AUDIT $opts --symbols -o $WORK/old-set.json ${olds[*]} && $AUDIT $opts --symbols -o $WORK/new-set.json ${news[*]}" > "$WORK/audits-sets.sh"
    bench "$WORK/diff-sets.json" "$RUNS" "rocm-audit diff, the two sets" "$WORK/diff-sets.sh" \
      "rocm-audit of each set (--symbols)" "$WORK/audits-sets.sh"
    table times --median --digits 2 --pair "rocm-audit of each set (--symbols)=rocm-audit diff, the two sets" "$WORK/diff-sets.json"
    ;;
  scaling)
    read -r -a parts <<<"$SCALE_PART"
    srcs=()
    for p in "${parts[@]}"; do
      [ -e "$ROOT/$p" ] || { echo "SCALE_PART: no $ROOT/$p" >&2; exit 2; }
      srcs+=("$ROOT/$p")
    done
    part=$(du -scb "${srcs[@]}" | tail -1 | cut -f1)
    max=$(tr ' ' '\n' <<<"$SCALES" | grep . | tail -1)
    need=$(((max - 1) * part))
    avail=$(df -B1 --output=avail "$SCRATCH" | tail -1)
    echo "== scaling: rocm-audit, all checks, --root TREE TREE; at kx, TREE = sid-root (hard links)"
    echo "   + k-1 real copies, each in TREE/opt/scale-copy-I/, of $(gb "$part") ($(find "${srcs[@]}" -type f | wc -l) files) of sid-root: ${parts[*]}"
    if [ "$(stat -c %d "$SCRATCH")" != "$(stat -c %d "$ROOT")" ]; then
      echo "skipped: SCRATCH=$SCRATCH is not on the corpus's filesystem (the 1x tree is hard links)"; continue
    fi
    if ((need + 5000000000 > avail)); then
      echo "skipped: ${max}x needs $(gb "$need") in $SCRATCH, $(gb "$avail") free (5 GB kept); set SCALE_PART or SCALES"; continue
    fi
    SCALE_DIR=$(mktemp -d "$SCRATCH/rocm-audit-scale.XXXXXX")
    tree=$SCALE_DIR/tree
    cp -al "$ROOT" "$tree"
    copies=0 made=
    for k in $SCALES; do
      start=$SECONDS
      while ((copies < k - 1)); do
        copies=$((copies + 1))
        for p in "${parts[@]}"; do
          mkdir -p "$(dirname "$tree/opt/scale-copy-$copies/$p")"
          cp -a "$ROOT/$p" "$tree/opt/scale-copy-$copies/$p"
        done
      done
      sync -f "$tree"  # no writeback of the copies during the measurement
      made+="${k}x: $((SECONDS - start)) s; "
      cmd="$AUDIT --no-progress --format json --fail-on none -o /dev/null --root $tree $tree"
      echo "$cmd" > "$WORK/scale-$k.sh"
      bench "$WORK/scale-$k.json" "$RUNS" "rocm-audit, ${k}x" "$WORK/scale-$k.sh"
      # shellcheck disable=SC2086 # cmd is split on purpose: no path has a blank
      peak=$(/usr/bin/time -f %F -o "$WORK/faults" "$PY" "$HERE/peak_memory.py" --label "${k}x" -- $cmd)
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$(find "$tree" -type f | wc -l)" "$(du -sb "$tree" | cut -f1)" \
        "$WORK/scale-$k.json" "$peak" "$(tail -1 "$WORK/faults")" >> "$WORK/scaling.tsv"
    done
    table scaling "$WORK/scaling.tsv"
    echo "(copies made in ${made%; })"
    rm -rf "$SCALE_DIR"
    SCALE_DIR=
    ;;
  esac
done
