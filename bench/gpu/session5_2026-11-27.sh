#!/usr/bin/env bash
# session5_2026-11-27.sh — the last device call of the second session of
# 2026-11-27, one H100, under 9 minutes: the helpers' scripts for issue 11
# (lb2: the one-pass tile kept in registers) and issue 14 (tr: a transpose
# moving 4 elements per work-item), then runrate_probe.sh (where the soak's
# device runs spend their seconds). Each part writes its own section.
# Usage (device): bash bench/gpu/session5_2026-11-27.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/session5}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for part in lb2_2026-11-27.sh tr_2026-11-27.sh runrate_probe.sh; do
  [ -f bench/gpu/$part ] || { echo "== $part: not in this tree"; continue; }
  echo "== $part"
  mkdir -p "$OUT/${part%.sh}"; OUT=$OUT/${part%.sh} timeout 200 bash bench/gpu/$part 2>&1 | tail -n 80
done
