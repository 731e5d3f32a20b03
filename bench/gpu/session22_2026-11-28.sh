#!/usr/bin/env bash
# session22_2026-11-28.sh — issue 15: FCL's reduce on NVIDIA's OpenCL at 2^27 is
# 1.11-1.12x CUB (goal 1.1x; the ninth session, session20). The switches not yet
# tried together on opencl's reduce, three interleaved rounds beside the default
# and cuda's, CUB in the same call before and after (fcl_peers 2027rs), each variant's result
# checked against NumPy. ~4 minutes on one H100.
#   bash bench/gpu/session22_2026-11-28.sh
cd "$(dirname "$0")/../.." || exit 1
O="${OUT:-/tmp/s22}"; mkdir -p "$O"; W=$(mktemp -d); C=build/clift
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
( nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -lcublas -o "$W/fcl_peers" > "$W/nvcc.log" 2>&1 ) &
N=134217728
python3 tests/fcl/npy.py $N "$W/n.npy" 8 raw
wait
timeout 90 "$W/fcl_peers" 2027rs 2>&1 | grep -E "^peer (reduce|scan)|fcl_peers:" | sed 's/^/before: /' | tee "$O/peers0.txt"
variants=(
  "default|"
  "batch8|CLIFT_FCL_BATCH=8"
  "batch3|CLIFT_FCL_BATCH=3"
  "both|CLIFT_FCL_PREFETCH=both"
  "grid2|CLIFT_FCL_GRID=2"
  "res1536|CLIFT_OCL_RESIDENT=1536"
  "res1024|CLIFT_OCL_RESIDENT=1024"
  "nopad|CLIFT_FCL_NO_PAD=1"
  "nowarp|CLIFT_OCL_WARP=0"
)
for round in 1 2 3; do
  for v in "${variants[@]}"; do
    name=${v%%|*} env=${v#*|}
    m=$(env $env timeout 60 $C bench -t opencl --runs 100 examples/fcl/reduce.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
    echo "round $round: reduce opencl $name ${m:-FAILED}"
  done
  m=$(timeout 60 $C bench -t cuda --runs 100 examples/fcl/reduce.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
  echo "round $round: reduce cuda default ${m:-FAILED}"
done | tee "$O/times.txt"
timeout 90 "$W/fcl_peers" 2027rs 2>&1 | grep -E "^peer (reduce|scan)|fcl_peers:" | tee "$O/peers.txt"
for v in "${variants[@]}"; do
  name=${v%%|*} env=${v#*|}
  env $env timeout 90 $C run -t opencl -o "$W/r.npy" examples/fcl/reduce.fcl "$W/n.npy" > /dev/null 2>&1
  echo "check reduce opencl $name: $(timeout 120 python3 bench/gpu/fcl_check.py reduce "$W/r.npy" "$W/n.npy" 2>&1 | head -c 200)"
done | tee "$O/checks.txt"
rm -rf "$W"
