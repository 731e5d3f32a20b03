#!/usr/bin/env bash
# session11_2026-11-27.sh — why FCL's reduce and scan are slower on NVIDIA's OpenCL
# than on cuda (1.13x and 2.43x CUB against 1.07x and 2.14x): the grid cap. cuda
# caps a chunk kernel at the occupancy API's resident blocks (reduce's k0: 59
# registers, 4 blocks of 256 an SM); OpenCL has no occupancy query and assumed
# 2048 work-items an SM (8 blocks): twice as many groups as fit, an uneven last wave.
#   1. registers: the opencl kernels' PTX from NVIDIA's OpenCL (bench/gpu/ocl_ptx.c,
#      clift's build options) and the cuda kernels' PTX, each through ptxas -v;
#   2. reduce and scan at 2^27 on opencl with CLIFT_OCL_RESIDENT = 2048 (the former
#      estimate), 1536, 1024, 512, and on cuda, two interleaved rounds, the CUB peers.
# Usage (device): bash bench/gpu/session11_2026-11-27.sh   (about 5 minutes)
cd "$(dirname "$0")/../.." || exit 1
O="${OUT:-/tmp/s11}"; mkdir -p "$O"; W=$(mktemp -d); C=build/clift
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
( nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -lcublas -o "$W/fcl_peers" > "$W/nvcc.log" 2>&1 ) &
cc -O2 bench/gpu/ocl_ptx.c -o "$W/ocl_ptx" -ldl || echo "ocl_ptx did not build"
N=134217728
python3 tests/fcl/npy.py $N "$W/n.npy" 8 raw
for p in reduce scan; do
  $C compile -t opencl --print examples/fcl/$p.fcl "$W/n.npy" > "$O/$p.cl" 2>&1
  "$W/ocl_ptx" "$O/$p.cl" "$O/$p.opencl.ptx" "-DCLIFT_INDEX=int -DCLIFT_NVIDIA_WARP -cl-fp32-correctly-rounded-divide-sqrt" \
    && ptxas -arch=sm_90 -v "$O/$p.opencl.ptx" -o /dev/null 2>&1 | grep -E "Compiling|registers" | paste - - | sed -E "s/^/$p opencl: /; s/ptxas info *: //g"
  $C compile -t cuda --ptx examples/fcl/$p.fcl "$W/n.npy" > "$O/$p.cuda.ptx" 2>&1 \
    && ptxas -arch=sm_90 -v "$O/$p.cuda.ptx" -o /dev/null 2>&1 | grep -E "Compiling|registers" | paste - - | sed -E "s/^/$p cuda: /; s/ptxas info *: //g"
done
for round in 1 2; do
  for p in reduce scan; do
    for r in 2048 1536 1024 512; do
      m=$(CLIFT_OCL_RESIDENT=$r timeout 60 $C bench -t opencl --runs 100 examples/fcl/$p.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
      echo "round $round: $p opencl R=$r ${m:-FAILED}"
    done
    m=$(timeout 60 $C bench -t cuda --runs 100 examples/fcl/$p.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
    echo "round $round: $p cuda ${m:-FAILED}"
  done
done | tee "$O/times.txt"
wait
timeout 90 "$W/fcl_peers" 2027 2>&1 | grep -E "CUB|fcl_peers:" | tee "$O/peers.txt"
# the results of the fastest opencl setting, checked against NumPy (fcl_check.py as fcl_2027.sh)
for p in reduce scan; do
  best=$(grep " $p opencl" "$O/times.txt" | sort -k5 -g | head -n 1 | sed -E 's/.*R=([0-9]+).*/\1/')
  CLIFT_OCL_RESIDENT=$best timeout 90 $C run -t opencl -o "$W/$p.npy" examples/fcl/$p.fcl "$W/n.npy" > /dev/null 2>&1
  echo "check $p opencl R=$best: $(timeout 120 python3 bench/gpu/fcl_check.py $p "$W/$p.npy" "$W/n.npy" 2>&1 | head -c 300)"
done
rm -rf "$W"
