#!/bin/sh
# make_root.sh DIR [MIRROR]: the Debian 13 (trixie) root whose package configs
# CMakeWorld.AgreesWithCMakeInADebian13Root probes: `debootstrap --variant=minbase trixie`,
# then, inside it, the -dev packages of packages-trixie.txt and the consumer's tools
# (cmake 3.31, g++, make), without recommends. About 3.8 GB downloaded, 4,860 packages
# (24 GB installed).
# Needs root; the test then runs with ROCM_AUDIT_TRIXIE_WORLD=DIR (default
# /var/tmp/rocm-audit-trixie-world).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$1
mirror=${2:-http://deb.debian.org/debian}
[ -x "$root/usr/bin/apt-get" ] || debootstrap --variant=minbase trixie "$root" "$mirror"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# No service starts in the root.
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT
chroot "$root" apt-get update -q
# shellcheck disable=SC2046 # one word per package is the intent
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  cmake g++ make $(grep -v '^#' "$here/packages-trixie.txt")
