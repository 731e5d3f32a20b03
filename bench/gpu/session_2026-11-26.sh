#!/usr/bin/env bash
# session_2026-11-26.sh — the one device call of the second half of the
# 2026-11-26 session (the first half was issue 9's soak): the APL programs at
# GPU sizes against JAX (issue 13 item 6, apl_gpu.sh), and clift tune on the
# tunable strategy programs (issue 14 items 3–4) with the untiled programs
# benched beside them. Everything in one run, on one machine; outputs in $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp}
mkdir -p "$O"
make -s -j"$(nproc)" 2>&1 | tail -3
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$O/gpu.txt"
export CLIFT_TUNE_CACHE=$O/tune-cache
{
  timeout 200 bash bench/gpu/apl_gpu.sh 10
} > "$O/apl_gpu.md" 2>&1
cat "$O/apl_gpu.md"
{
  echo "== untiled, default launch sizes"
  build/clift bench -t cuda --runs 20 --size N=4096 --size M=4096 bench/gpu/jacobi.lift
  build/clift bench -t cuda --runs 20 --size N=8192 --size M=8192 bench/gpu/transpose.lift
  echo "== tune (cuda)"
  timeout 80 build/clift tune -t cuda --size N=4096 --size M=4096 --max-tries 40 --time-limit 60 --runs 5 bench/gpu/jacobi_tiled.lift
  timeout 80 build/clift tune -t cuda --size N=8192 --size M=8192 --max-tries 40 --time-limit 60 --runs 5 bench/gpu/transpose_tiled.lift
  echo "== tuned, as clift bench uses them (the cache)"
  build/clift bench -t cuda --runs 20 --size N=4096 --size M=4096 bench/gpu/jacobi_tiled.lift
  build/clift bench -t cuda --runs 20 --size N=8192 --size M=8192 bench/gpu/transpose_tiled.lift
} > "$O/tune.txt" 2>&1
grep -v "^  \[" "$O/tune.txt" | grep -v "^tune: [0-9]" | tail -40
