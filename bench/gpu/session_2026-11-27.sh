#!/usr/bin/env bash
# session_2026-11-27.sh — one device call for this session's GPU questions:
#   1. F29 (tests/difftest/FINDINGS.md): bench/gpu/f29/run.sh;
#   2. issue 12: trmv_wrg / trmv_upper_wrg at N = 16000 and the jsweep 3×3 and
#      5×5 stencils at 4096² (plain and --peel); issue 14: sgemm.lift and the
#      tiled sgemm_tiled.lift (registers: privatise.c) at 4096, cuBLAS beside;
#      base build against this tree,
#      alternating ROUNDS rounds of `clift bench --runs RUNS` on cuda (checked
#      first against the interpreter, cuda and opencl), and the copy bandwidth
#      of peers.cu in the same call;
#   3. issue 13: the APL GPU table against JAX (apl_gpu.sh), after the 2-D grid;
#   4. issue 11: Nsight Compute on the one-pass filter and scan at 2^24 (where
#      the time goes: warp stall reasons, throughput).
# Usage (device, carry .carry): bash bench/gpu/session_2026-11-27.sh .carry/frozen
set -uo pipefail
cd "$(dirname "$0")/../.."
base=$1 RUNS=${RUNS:-20} ROUNDS=${ROUNDS:-2}
out=${OUT:-/tmp/session}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( nvcc -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o /tmp/peers >/tmp/nvcc.log 2>&1; echo $? >/tmp/nvcc.rc ) &
make -s -j"$(nproc)" >&2 && make -s -C "$base" -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
echo "== F29"; timeout 150 bash bench/gpu/f29/run.sh 2>&1 | tail -n 20
gen=$(mktemp -d)
for k in 3 5; do
  h=$((k / 2))
  printf '(lift (N M) ((array-type (array-type float M) N))\n  (lambda (a)\n    (mapGlb1 (lambda (wrow)\n               (mapGlb (lambda (w) (reduceSeq 0.0f (lambda (acc x) (+ acc x)) (join w))) wrow))\n             (slide2D #%d #1 (pad2D #%d #%d a)))))\n' "$k" "$h" "$h" >"$gen/jsweep_$k.lift"
done
cases="trmv_wrg|bench/gpu/trmv_wrg.lift|--size N=16000|--size N=1008|
trmv_upper_wrg|bench/gpu/trmv_upper_wrg.lift|--size N=16000|--size N=1008|
jsweep_3|$gen/jsweep_3.lift|--size N=4096 --size M=4096|--size N=250 --size M=270|
jsweep_3-peel|$gen/jsweep_3.lift|--size N=4096 --size M=4096|--size N=250 --size M=270|--peel
jsweep_5|$gen/jsweep_5.lift|--size N=4096 --size M=4096|--size N=250 --size M=270|
jsweep_5-peel|$gen/jsweep_5.lift|--size N=4096 --size M=4096|--size N=250 --size M=270|--peel
sgemm|bench/gpu/sgemm.lift|--size N=4096|--size N=256|
sgemm_tiled|bench/gpu/sgemm_tiled.lift|--size N=4096|--size N=256|"
echo "== checks against the interpreter (this build)"
while IFS='|' read -r name file full small flag; do
  for t in cuda opencl; do
    r=$(build/clift bench -t $t --check --tolerance 1e-3 --runs 1 $small $flag "$file" 2>&1 | tail -n 1)
    echo "$name $t: $r"
  done
done <<<"$cases"
echo "== timings (ms, cuda): median of $ROUNDS rounds' medians of --runs $RUNS"
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf "%-16s %10s %10s %8s\n" program base new new/base
while IFS='|' read -r name file full small flag; do
  : >/tmp/b.txt; : >/tmp/n.txt
  for r in $(seq "$ROUNDS"); do
    "$base/build/clift" bench -t cuda --runs "$RUNS" $full $flag "$file" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p' >>/tmp/b.txt
    build/clift bench -t cuda --runs "$RUNS" $full $flag "$file" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p' >>/tmp/n.txt
  done
  b=$(median </tmp/b.txt); n=$(median </tmp/n.txt)
  printf "%-16s %10s %10s %8s\n" "$name" "$b" "$n" "$(awk -v b="$b" -v n="$n" 'BEGIN{ if (b > 0) printf "%.3f", n / b; else print "-" }')"
done <<<"$cases"
echo "== copy bandwidth (peers.cu, same call)"
wait
if [ "$(cat /tmp/nvcc.rc)" = 0 ]; then timeout 150 /tmp/peers trmv sgemm 2>&1 | grep -E "copy|trmv|sgemm" | head -n 30; else tail -n 3 /tmp/nvcc.log; fi
echo "== APL on the GPU against JAX"
ONLY="life hotspot easter" timeout 120 bash bench/gpu/apl_gpu.sh 10 2>&1 | tail -n 16
echo "== Nsight Compute: one-pass filter and scan, 2^24, cuda"
for p in filter; do
  timeout 90 ncu --section SpeedOfLight --section WarpStateStats --section LaunchStats --section Occupancy --launch-count 4 \
    build/clift bench -t cuda --runs 1 --size N=16777216 "bench/gpu/$p.lift" 2>&1 |
    grep -E "^  k[0-9]+|Duration|Block Size|Grid Size|Registers Per|Achieved Occupancy|Memory Throughput|DRAM Throughput|Compute \(SM\)|Warp Cycles|Stall|stall|barrier|Barrier" | head -80
done
