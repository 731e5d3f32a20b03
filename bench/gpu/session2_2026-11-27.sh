#!/usr/bin/env bash
# session2_2026-11-27.sh — the second device call of 2026-11-27:
#   1. F29's fix (clift_pow): bench/gpu/f29/run.sh (every element of X, Y and
#      the count against exact values) and tests/lift/pow_exact.lift on cuda/opencl;
#   2. privatisation and barrier placement (issue 14 item 1) checked: the
#      language tests on cuda and opencl, compute-sanitizer memcheck and
#      racecheck of sgemm_tiled (R = 4 and 8);
#   3. sgemm at 4096: sgemm.lift, sgemm_tiled.lift for R in 4 8 and K in 8 16
#      (each checked against the interpreter at 256 first), cuBLAS (peers.cu)
#      in the same call.
# Usage (device): bash bench/gpu/session2_2026-11-27.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( nvcc -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o /tmp/peers >/tmp/nvcc.log 2>&1; echo $? >/tmp/nvcc.rc ) &
make -s -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
echo "== F29 after the fix"
timeout 150 bash bench/gpu/f29/run.sh 2>&1 | grep -vE "^\s*$" | cut -c1-160 | tail -n 20
echo "== language tests on cuda and opencl"
timeout 200 build/clift test -t cuda,opencl tests/lift tests/regress bench/gpu/sgemm_tiled.lift >/tmp/tests.log 2>&1
grep -E "^FAIL" -A3 /tmp/tests.log | head -30; tail -n 1 /tmp/tests.log
echo "== compute-sanitizer on sgemm_tiled (N = 256)"
for r in 4 8; do
  for tool in memcheck racecheck; do
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 build/clift bench -t cuda --runs 1 --check --tolerance 1e-3 \
      --tunable R=$r --tunable K=8 --size N=256 bench/gpu/sgemm_tiled.lift >/tmp/san.log 2>&1
    echo "R=$r $tool: exit $? $(grep -E 'ERROR SUMMARY|hazard|bench ' /tmp/san.log | head -n 2 | tr '\n' ' ')"
  done
done
echo "== sgemm 4096 (cuda, median of --runs 20)"
for cfg in "sgemm.lift|" "sgemm_tiled.lift|--tunable R=4 --tunable K=16" "sgemm_tiled.lift|--tunable R=4 --tunable K=8" \
           "sgemm_tiled.lift|--tunable R=8 --tunable K=16" "sgemm_tiled.lift|--tunable R=8 --tunable K=8"; do
  f=${cfg%%|*} t=${cfg#*|}
  c=$(build/clift bench -t cuda --runs 1 --check --tolerance 1e-3 $t --size N=256 bench/gpu/$f 2>&1 | tail -n 1)
  m=$(build/clift bench -t cuda --runs 20 $t --size N=4096 bench/gpu/$f 2>&1 | tail -n 1)
  echo "$f $t | check: ${c:0:60} | $m"
done
wait
if [ "$(cat /tmp/nvcc.rc)" = 0 ]; then timeout 100 /tmp/peers sgemm 2>&1 | grep -E "sgemm|copy" | head -n 8; else tail -n 3 /tmp/nvcc.log; fi
