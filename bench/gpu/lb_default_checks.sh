#!/usr/bin/env bash
# lb_default_checks.sh — the one-pass filter and scan as built by default
# (dpia/lookback.c) against the interpreter on cuda and opencl at the tile
# edges and beyond, then compute-sanitizer racecheck/memcheck on cuda; for a
# change of the default tile (2026-11-27: 15 elements a work-item).
# Usage (device): bash bench/gpu/lb_default_checks.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
make -s -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
bad=0
for t in cuda opencl; do
  for p in filter filter_1pct scan_int; do
    for n in 1 3839 3840 3841 262144 3000000; do
      if timeout 60 build/clift bench -t $t --check --tolerance 1e-4 --runs 1 --size N=$n bench/gpu/$p.lift >/tmp/lbc.log 2>&1; then :; else bad=$((bad + 1)); echo "FAILED $t $p N=$n: $(tail -n 2 /tmp/lbc.log)"; fi
    done
  done
  timeout 60 build/clift bench -t $t --check --tolerance 5e-2 --runs 1 --size N=262144 bench/gpu/scan.lift >/tmp/lbc.log 2>&1 || { bad=$((bad + 1)); echo "FAILED $t scan N=262144"; }
done
build/clift test -t cuda,opencl tests/regress/lookback_*.lift 2>&1 | tail -n 1
for tool in racecheck memcheck; do
  for p in filter scan_int; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 build/clift bench -t cuda --runs 1 --size N=65537 bench/gpu/$p.lift >/tmp/lbs.log 2>&1 \
      && echo "ok   $tool $p" || { bad=$((bad + 1)); echo "FAILED $tool $p: $(grep -m3 -E 'ERROR|error' /tmp/lbs.log)"; }
  done
done
echo "lb default checks: $bad failed"
