#!/usr/bin/env bash
# check_single_pass.sh — the one-pass filter and scan (dpia/lookback.c) on a GPU
# machine, in a few minutes: clift bench --check against the interpreter on
# several lengths (one tile, a few, many), compute-sanitizer memcheck and
# racecheck on the scan and the filter, and a short timing at 2^27 of each.
# Usage (device run): bash bench/gpu/check_single_pass.sh   Logs in $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
LOG=${OUT:-/tmp}/single_pass.log
make -s -j"$(nproc)" >/dev/null 2>&1 || { echo "build failed"; exit 1; }
status=0
run() { echo "### $*" >>"$LOG"; if timeout 120 "$@" >>"$LOG" 2>&1; then echo "ok   $*"; else echo "FAIL $*"; status=1; fi; }
for t in cuda opencl; do
  # scan: float prefix sums drift from the interpreter's sequential ones with
  # the length (run.sh check_tolerance): 5e-2 up to 2^18; the filter is exact
  for n in 1000 2305 9217 262144; do
    run build/clift bench -t $t --check --tolerance 5e-2 --runs 2 --size N=$n bench/gpu/scan.lift
  done
  for n in 1000 2305 9217 262144 3000000; do
    run build/clift bench -t $t --check --tolerance 1e-4 --runs 2 --size N=$n bench/gpu/filter.lift
  done
done
SAN=/usr/local/cuda/bin/compute-sanitizer
for p in scan filter; do
  run $SAN --tool racecheck --error-exitcode 3 build/clift bench -t cuda --size N=262144 --runs 1 bench/gpu/$p.lift
  run $SAN --tool memcheck --error-exitcode 3 build/clift bench -t cuda --size N=262144 --runs 1 bench/gpu/$p.lift
done
for t in cuda opencl; do
  for p in scan filter filter_1pct; do
    echo "### time $t $p" >>"$LOG"
    timeout 120 build/clift bench -t $t --runs 20 --size N=134217728 bench/gpu/$p.lift 2>&1 | tail -n 1 | tee -a "$LOG"
  done
done
exit $status
