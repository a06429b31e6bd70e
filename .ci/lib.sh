# Helpers for .ci/run: the fresh root, the README's commands, the skip rule. Sourced.

die() { echo "ci: $*" >&2; exit 1; }
step() { printf '\n=== %s\n' "$*"; }
duration() { printf '%d min %02d s' $(($1 / 60)) $(($1 % 60)); }

# retry TRIES COMMAND...: network steps fail now and then; wait longer after each failure.
retry() {
  local tries=$1 n=1
  shift
  until "$@"; do
    [ "$n" -ge "$tries" ] && return 1
    echo "ci: attempt $n of $tries failed: $*; retrying in $((n * 15)) s" >&2
    sleep $((n * 15))
    n=$((n + 1))
  done
}

need_host_tools() {
  local missing=()
  for tool in "$@"; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  [ ${#missing[@]} = 0 ] && return
  export DEBIAN_FRONTEND=noninteractive
  retry 3 apt-get update -qq
  retry 3 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The Debian mirror this machine's apt uses for bookworm (deb822 .sources or sources.list),
# so the fresh root reaches the same archive the host does.
host_debian_mirror() {
  local uri
  uri=$(awk '
    /^[[:space:]]*$/ { if (suites ~ /(^| )bookworm( |$)/ && uris != "") { print uris; exit } uris = suites = ""; next }
    /^URIs:/ { uris = $2 } /^Suites:/ { $1 = ""; suites = $0 }
    END { if (suites ~ /(^| )bookworm( |$)/ && uris != "") print uris }' \
    /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)
  [ -n "$uri" ] || uri=$(awk '$1 == "deb" && / bookworm / { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; exit } }' \
    /etc/apt/sources.list 2>/dev/null | head -n1)
  [ -n "$uri" ] || die "no bookworm mirror in this machine's apt sources; set ROCM_AUDIT_CI_MIRROR"
  echo "$uri"
}

# unmount_below DIR: every mount at or below DIR, innermost first.
unmount_below() {
  local dir
  dir=$(realpath -m "$1")
  awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/self/mounts | sort -r |
    while read -r m; do umount "$m" 2>/dev/null || umount -l "$m"; done
}

# ensure_base_root TAR MIRROR: a tarball of a bootstrapped minbase bookworm root, made
# once and reused for two weeks (the README's first command updates the package lists).
ensure_base_root() {
  local tar=$1 mirror=$2 tmp n=1
  if [ -s "$tar" ] && [ -z "$(find "$tar" -mtime +14)" ]; then
    echo "cached: $tar ($(du -h "$tar" | cut -f1))"
    return
  fi
  mkdir -p "$(dirname "$tar")"
  tmp=$(mktemp -d "$(dirname "$tar")/base.XXXXXX")
  until debootstrap --variant=minbase bookworm "$tmp/root" "$mirror" >"$tmp/log" 2>&1; do
    tail -n 5 "$tmp/log" >&2
    unmount_below "$tmp/root"
    rm -rf --one-file-system "$tmp/root"
    [ "$n" -ge 3 ] && die "debootstrap failed $n times (mirror $mirror)"
    echo "ci: debootstrap attempt $n failed; retrying in $((n * 15)) s" >&2
    sleep $((n * 15))
    n=$((n + 1))
  done
  tar --numeric-owner -C "$tmp/root" -cf "$tmp/base.tar" .
  mv "$tmp/base.tar" "$tar"
  rm -rf --one-file-system "$tmp"
  echo "bootstrapped from $mirror: $tar ($(du -h "$tar" | cut -f1))"
}

# The host's network trust, as a container of this machine gets it: the certificate
# authorities it adds locally (a TLS-inspecting egress proxy signs with its own), the bundle
# that includes them, and the variables that point programs at that bundle (npm reaches its
# registry over TLS; apt uses plain HTTP and signed indexes).
trust_variables=(NODE_EXTRA_CA_CERTS SSL_CERT_FILE CURL_CA_BUNDLE REQUESTS_CA_BUNDLE)

copy_host_trust() {
  local root=$1 var file
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  fi
  for var in "${trust_variables[@]}"; do
    file=${!var:-}
    [ -n "$file" ] && [ -f "$file" ] || continue
    mkdir -p "$root$(dirname "$file")"
    cp -L "$file" "$root$file"
  done
}

# The trust variables the host has, for `env` inside the root (their files were copied).
trust_environment() {
  local var
  for var in "${trust_variables[@]}"; do
    [ -n "${!var:-}" ] && [ -f "${!var}" ] && printf '%s=%s\n' "$var" "${!var}"
  done
  return 0
}

# make_fresh_root TAR ROOT: unpack the base root and give it what a container runtime
# gives a debian:12 container on this machine: /proc, /dev/pts, /dev/shm, the host's
# resolver and network trust. apt inside retries its downloads (the README's commands are
# run unchanged).
make_fresh_root() {
  local tar=$1 root=$2
  mkdir -p "$root"
  tar --numeric-owner -C "$root" -xpf "$tar"
  cp -L /etc/resolv.conf "$root/etc/resolv.conf"
  copy_host_trust "$root"
  printf 'Acquire::Retries "5";\n' >"$root/etc/apt/apt.conf.d/80ci-retries"
  mount -t proc proc "$root/proc"
  mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
  mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
}

teardown_root() {
  [ -d "$1" ] && unmount_below "$1"
  return 0
}

# extract_readme_commands README PREFIX: the fenced `sh` blocks of the section
# "## Two commands" become PREFIX.1 and PREFIX.2; anything else is an error.
extract_readme_commands() {
  local readme=$1 prefix=$2 blocks
  blocks=$(awk -v out="$prefix" '
    /^## / { section = ($0 ~ /^## Two commands/); next }
    section && /^```sh[[:space:]]*$/ { n++; block = 1; next }
    block && /^```[[:space:]]*$/ { block = 0; next }
    block { print > (out "." n) }
    END { print n + 0 }' "$readme")
  [ "$blocks" = 2 ] || die "README.md: the section '## Two commands' has $blocks sh blocks, not 2"
  for n in 1 2; do [ -s "$prefix.$n" ] || die "README.md: command $n is empty"; done
}

# extract_readme_unit_loop README FILE: the command of README's "**Developing**" item (the
# unit tests with only the first command's packages), as one line, into FILE.
extract_readme_unit_loop() {
  local readme=$1 file=$2
  awk '
    /^- \*\*Developing\*\*/ { item = 1; next }
    item && /^- / { exit }
    item && /^  `cmake -S/ { line = $0; sub(/^  `/, "", line); sub(/`\.?[[:space:]]*$/, "", line); print line; exit }
  ' "$readme" > "$file"
  grep -q 'ctest --test-dir build -L unit' "$file" || die "README.md: no unit loop under **Developing**"
}

# run_in_root ROOT DIR FILE: the command in FILE, as written, by bash in DIR inside ROOT,
# with a container's bare environment (and the host's trust variables) and no standard
# input.
run_in_root() {
  local root=$1 dir=$2 trust
  mapfile -t trust < <(trust_environment)
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    "${trust[@]}" /bin/bash -c "cd '$dir' && $(cat "$3")" </dev/null
}

# check_skips CTEST_OUTPUT LAST_TEST_LOG: a test may skip only for one of the reasons of
# tests/support/test_support.h, which it prints as a code before its message:
# [skip:no-corpus], [skip:needs-root], [skip:installed-world]. The code is read from the skip
# message in ctest's log of every test's output; the wording after it is not read.
check_skips() {
  local output=$1 log=$2 skipped bad=0
  skipped=$(awk '/The following tests did not run:/ { on = 1; next }
                 on && /\(Skipped\)/ { sub(/^[[:space:]]*[0-9]+ - /, ""); sub(/ \(Skipped\).*$/, ""); print; next }
                 on { on = 0 }' "$output")
  if [ -z "$skipped" ]; then
    echo "no test skipped"
    return
  fi
  while IFS= read -r name; do
    # gtest prints "FILE:LINE: Skipped" and the message on the next line.
    reason=$(awk -v t="$name" '
      /^[0-9]+\/[0-9]+ Test: / { sub(/^[0-9]+\/[0-9]+ Test: /, ""); on = ($0 == t); next }
      on && /: Skipped$/ { getline; print; exit }' "$log")
    if grep -qE '^\[skip:(no-corpus|needs-root|installed-world)\] ' <<<"$reason"; then
      echo "skipped, allowed: $name: $reason"
    else
      echo "ci: skipped for another reason: $name: ${reason:-no reason printed}" >&2
      bad=1
    fi
  done <<<"$skipped"
  [ "$bad" = 0 ] || die "a test skipped without the code of an allowed reason (tests/support/test_support.h)"
}

# The CI snippets of hooks/ci/ as scripts, for a fresh root that has no YAML parser. They are
# read in the subset of YAML they are written in, and anything else is refused (exit 1):
#   - a variable: `KEY: value` one level below a top-level `env:` (GitHub) or the job's
#     `variables:` (GitLab), the value a plain scalar (no quote, no ` #`, no `: `);
#   - GitHub: each `run: |` literal block (its lines, less the first line's indentation, with
#     one final newline as `|` keeps) or `run: value` on one line; `uses:` steps are actions, and a `run:` that
#     opens a mapping (`defaults: run: shell:`) is no step;
#   - GitLab: the job's `script:` items, `- command` on one line each, run in one shell.
# Docs.CiSnippetsExtractAsYamlReadsThem holds the result to a YAML parser's reading.
#
# extract_github_steps WORKFLOW PREFIX: PREFIX.env (`export KEY='value'` lines) and
# PREFIX.1 ... PREFIX.N, the run steps in order; prints N.
extract_github_steps() {
  awk -v out="$2" '
    function fail(why) { print "ci: " FILENAME ":" FNR ": " why > "/dev/stderr"; bad = 1; exit 1 }
    function indent(s) { match(s, /^ */); return RLENGTH }
    function variable(s) {
      sub(/^ +/, "", s)
      key = s; sub(/:.*/, "", key); value = s; sub(/^[A-Za-z_][A-Za-z0-9_]*: */, "", value)
      if (key !~ /^[A-Za-z_][A-Za-z0-9_]*$/ || value ~ /^["\047|>&*!]/ || value ~ / #|: /) fail("not a plain variable: " s)
      print "export " key "=\047" value "\047" > (out ".env")
    }
    block && ($0 ~ /^ *$/ || indent($0) > key_indent) {
      if ($0 ~ /^ *$/) { blanks = blanks "\n"; next }
      if (strip < 0) strip = indent($0)
      printf "%s%s\n", blanks, substr($0, strip + 1) > (out "." n); blanks = ""; next
    }
    block { block = 0 }
    env && /^  [^ ]/ { variable($0); next }
    env && /^[^ ]/ { env = 0 }
    /^env:[ ]*$/ { env = 1; printf "" > (out ".env"); next }
    /^ *(- )?run: *\|[ ]*$/ {
      n++; block = 1; strip = -1; blanks = ""; key_indent = indent($0); if ($0 ~ /- run:/) key_indent += 2
      printf "" > (out "." n); next
    }
    /^ *(- )?run: *$/ { next }
    /^ *(- )?run:/ {
      value = $0; sub(/^ *(- )?run: */, "", value)
      if (value ~ /^["\047|>&*!]/ || value ~ / #/) fail("run: in a form this reader does not take")
      n++; print value > (out "." n); next
    }
    END { if (!bad) print n + 0 }' "$1"
}

# extract_gitlab_script CI_FILE JOB PREFIX: PREFIX.env (the job's variables) and PREFIX.1,
# the job's script items, one line each.
extract_gitlab_script() {
  awk -v out="$3" -v job="$2" '
    function fail(why) { print "ci: " FILENAME ":" FNR ": " why > "/dev/stderr"; bad = 1; exit 1 }
    /^[^ #]/ { in_job = ($0 == job ":"); section = ""; next }
    !in_job { next }
    /^  [a-z_]+:[ ]*$/ { section = $1; if (section == "variables:") printf "" > (out ".env"); if (section == "script:") { printf "" > (out ".1"); found = 1 } next }
    /^  [^ ]/ { section = ""; next }
    section == "variables:" && /^    [^ ]/ {
      s = $0; sub(/^ +/, "", s)
      key = s; sub(/:.*/, "", key); value = s; sub(/^[A-Za-z_][A-Za-z0-9_]*: */, "", value)
      if (key !~ /^[A-Za-z_][A-Za-z0-9_]*$/ || value ~ /^["\047|>&*!]/ || value ~ / #|: /) fail("not a plain variable: " s)
      print "export " key "=\047" value "\047" > (out ".env"); next
    }
    section == "script:" && /^    - / {
      s = $0; sub(/^    - /, "", s)
      if (s ~ /^["\047|>&*!]/ || s ~ / #|: /) fail("a script item in a form this reader does not take: " s)
      print s > (out ".1"); next
    }
    section == "script:" && /^ *#/ { next }
    section == "script:" && !/^ *$/ { fail("a script line this reader does not take: " $0) }
    END { if (bad) exit 1; if (!found) { print "ci: " FILENAME ": no script for job " job > "/dev/stderr"; exit 1 } }' "$1"
}
