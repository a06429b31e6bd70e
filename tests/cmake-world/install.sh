#!/bin/sh
# Installs the Debian 12 -dev packages whose CMake package configs the broad
# agreement test (tests/cli/cmake_world_test.cc) probes: real configs outside
# ROCm that rocm-audit was never tuned to. One package a line in packages.txt;
# --no-install-recommends keeps the set to what the configs themselves need.
set -eu
here=$(dirname "$0")
export DEBIAN_FRONTEND=noninteractive
apt-get update
# shellcheck disable=SC2046 # one word per package is the intent
apt-get install -y --no-install-recommends $(grep -v '^#' "$here/packages.txt")
