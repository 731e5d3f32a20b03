#!/usr/bin/env bash
# session3_2026-11-27.sh — the last device call of 2026-11-27:
#   1. issue 11: the one-pass filter and scan with a look-back window of 8
#      status words (fewer registers: 32 longs per work-item today), with 16
#      items per work-item (tiles of 4096), with the group's scan by warp
#      shuffles (3 barriers instead of 8), built as variants of this tree
#      (CLIFT_LB_WINDOW, CLIFT_LB_ITEMS, CLIFT_LB_SHUFFLE), each checked against the interpreter
#      at several lengths, then timed at 2^27 beside CUB in the same call;
#   2. issue 14: sgemm.lift, sgemm_tiled and sgemm_tiled_c for R in 4 8 and
#      K in 8 16 at 4096 (checked at 256) beside cuBLAS;
#   3. issue 12: jsweep 3x3 and 5x5, unpeeled and --peel, this build;
#   4. the merged front ends on the GPU: tests/apl, tests/tail, the FCL
#      examples and compiled tests on cuda and opencl.
# Usage (device): bash bench/gpu/session3_2026-11-27.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
( nvcc -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o /tmp/peers >/tmp/nvcc.log 2>&1; echo $? >/tmp/nvcc.rc ) &
make -s -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
declare -A variant=([w8]="-DCLIFT_LB_WINDOW=8" [i16]="-DCLIFT_LB_ITEMS=16" [shf]="-DCLIFT_LB_SHUFFLE=1"
                     [shfw8i16]="-DCLIFT_LB_SHUFFLE=1 -DCLIFT_LB_WINDOW=8 -DCLIFT_LB_ITEMS=16")
pids=""
for v in "${!variant[@]}"; do
  mkdir -p /tmp/$v && cp -r src Makefile /tmp/$v/ && { make -s -C /tmp/$v -j"$(nproc)" CC="cc ${variant[$v]}" >&2 & pids="$pids $!"; }
done
for p in $pids; do wait $p; done
echo "== 1. one-pass filter and scan: checks (cuda)"
for v in main w8 i16 shf shfw8i16; do
  c=build/clift; [ $v = main ] || c=/tmp/$v/build/clift
  bad=0
  for n in 4097 262144 3000000; do
    $c bench -t cuda --check --tolerance 1e-4 --runs 1 --size N=$n bench/gpu/filter.lift >/dev/null 2>&1 || { bad=1; echo "$v filter N=$n FAILED"; }
  done
  for n in 4097 262144; do
    $c bench -t cuda --check --tolerance 5e-2 --runs 1 --size N=$n bench/gpu/scan.lift >/dev/null 2>&1 || { bad=1; echo "$v scan N=$n FAILED"; }
  done
  echo "$v: checks $([ $bad = 0 ] && echo ok || echo FAILED)"
done
echo "== 1. timings at 2^27 (cuda, ms, median of --runs 10)"
for p in filter filter_1pct scan; do
  line="$p"
  for v in main w8 i16 shf shfw8i16; do
    c=build/clift; [ $v = main ] || c=/tmp/$v/build/clift
    m=$($c bench -t cuda --runs 10 --size N=134217728 bench/gpu/$p.lift 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
    line="$line $v=$m"
  done
  echo "$line"
done
echo "== 2. sgemm 4096 (cuda, median of --runs 20)"
for cfg in "sgemm.lift|" "sgemm_tiled.lift|--tunable R=4 --tunable K=16" "sgemm_tiled.lift|--tunable R=8 --tunable K=16" \
           "sgemm_tiled.lift|--tunable R=8 --tunable K=8" "sgemm_tiled_c.lift|--tunable R=4 --tunable K=16" \
           "sgemm_tiled_c.lift|--tunable R=4 --tunable K=8" "sgemm_tiled_c.lift|--tunable R=8 --tunable K=16" \
           "sgemm_tiled_c.lift|--tunable R=8 --tunable K=8" "sgemm_tiled.lift|--tunable R=8 --tunable K=32" \
           "sgemm_tiled_c.lift|--tunable R=8 --tunable K=32"; do
  f=${cfg%%|*} t=${cfg#*|}
  build/clift bench -t cuda --runs 1 --check --tolerance 1e-3 $t --size N=256 bench/gpu/$f >/dev/null 2>&1 && ck=ok || ck=FAILED
  m=$(build/clift bench -t cuda --runs 20 $t --size N=4096 bench/gpu/$f 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
  echo "$f $t: check $ck, $m ms"
done
echo "== 3. jsweep (cuda, ms)"
g=$(mktemp -d)
for k in 3 5; do
  h=$((k / 2))
  printf '(lift (N M) ((array-type (array-type float M) N))\n  (lambda (a)\n    (mapGlb1 (lambda (wrow)\n               (mapGlb (lambda (w) (reduceSeq 0.0f (lambda (acc x) (+ acc x)) (join w))) wrow))\n             (slide2D #%d #1 (pad2D #%d #%d a)))))\n' "$k" "$h" "$h" >"$g/j$k.lift"
  for r in 1 2; do
    u=$(build/clift bench -t cuda --runs 20 --size N=4096 --size M=4096 "$g/j$k.lift" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
    p=$(build/clift bench -t cuda --runs 20 --peel --size N=4096 --size M=4096 "$g/j$k.lift" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
    echo "jsweep $k round $r: unpeeled $u, peeled $p"
  done
done
echo "== 3b. Nsight Compute: jsweep 3x3 unpeeled and --peel (the second launch: the first timed run)"
for fl in "" "--peel"; do
  echo "-- jsweep 3 $fl"
  timeout 60 ncu --section SpeedOfLight --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis \
    --launch-skip 1 --launch-count 1 build/clift bench -t cuda --runs 1 $fl --size N=4096 --size M=4096 "$g/j3.lift" 2>&1 |
    grep -E "Duration|Registers Per|Achieved Occupancy|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|Compute \(SM\)|Warp Cycles Per Issued|Executed Ipc|stalled" | cut -c1-150 | head -20
done
echo "== 4. front ends on the GPU"
fcl=""; for d in examples/fcl tests/fcl/compiled; do [ -d $d ] && fcl="$fcl $d"; done
timeout 150 build/clift test -t cuda,opencl tests/apl tests/tail $fcl >/tmp/fe.log 2>&1
grep -E "^FAIL" -A3 /tmp/fe.log | head -30; tail -n 1 /tmp/fe.log
echo "== 5. APL against JAX (sobol_pi: JAX now runs the program's own bit-matrix algorithm; life)"
ONLY="sobol_pi life" timeout 100 bash bench/gpu/apl_gpu.sh 5 2>&1 | tail -n 6
echo "== peers"
wait
if [ "$(cat /tmp/nvcc.rc)" = 0 ]; then timeout 100 /tmp/peers sgemm filter scan 2>&1 | grep -E "^peer" | head -n 12; else tail -n 3 /tmp/nvcc.log; fi
