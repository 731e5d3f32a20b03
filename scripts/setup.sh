#!/usr/bin/env bash
# setup.sh — install what clift needs on a fresh Debian machine (only what is
# missing), then build build/clift. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v cc   >/dev/null 2>&1 || need+=(gcc libc6-dev)
command -v make >/dev/null 2>&1 || need+=(make)
if ((${#need[@]})); then
  echo "setup: installing ${need[*]}" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi

make -s -j"$(nproc)" all >&2
