#!/usr/bin/env bash
# session12_2026-11-27.sh — FCL's reduce and scan on NVIDIA's OpenCL: the grid
# cap's residency estimate against the registers (session11: NVIDIA's OpenCL gives
# reduce's k0_v256 70 registers, 3 groups of 256 an SM, and scan's 120, 2 an SM;
# NVRTC 59 and 48; the runtime assumed 8 an SM). Each (CLIFT_OCL_RESIDENT R,
# CLIFT_OCL_MAXRREG M) pair times the program at 2^27, two interleaved rounds,
# cuda beside it; the registers under each M from -cl-nv-verbose; the best pair
# of each checked against NumPy; the CUB peers.
# Usage (device): bash bench/gpu/session12_2026-11-27.sh   (about 5 minutes)
cd "$(dirname "$0")/../.." || exit 1
O="${OUT:-/tmp/s12}"; mkdir -p "$O"; W=$(mktemp -d); C=build/clift
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
( nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -lcublas -o "$W/fcl_peers" > "$W/nvcc.log" 2>&1 ) &
cc -O2 bench/gpu/ocl_ptx.c -o "$W/ocl_ptx" -ldl || echo "ocl_ptx did not build"
N=134217728
python3 tests/fcl/npy.py $N "$W/n.npy" 8 raw
declare -A pairs=( [reduce]="2048:0 768:0 1536:0 1024:64 1536:40 2048:32" [scan]="2048:0 512:0 1024:64 1536:40 2048:32" )
for p in reduce scan; do
  $C compile -t opencl --print examples/fcl/$p.fcl "$W/n.npy" > "$O/$p.cl" 2>&1
  for m in 0 64 40 32; do
    opt="-DCLIFT_INDEX=int -DCLIFT_NVIDIA_WARP -cl-fp32-correctly-rounded-divide-sqrt -cl-nv-verbose"
    [ $m = 0 ] || opt="$opt -cl-nv-maxrregcount=$m"
    "$W/ocl_ptx" "$O/$p.cl" "$W/x.ptx" "$opt" 2>&1 | grep -E "Compiling entry|registers|spill" | paste - - - | sed -E "s/ptxas info *: //g; s/^/$p M=$m: /" | grep -E "k0_v256|k1_v256" 
  done
done | tee "$O/registers.txt"
for round in 1 2; do
  for p in reduce scan; do
    for rm in ${pairs[$p]}; do
      m=$(CLIFT_OCL_RESIDENT=${rm%:*} CLIFT_OCL_MAXRREG=${rm#*:} timeout 60 $C bench -t opencl --runs 100 examples/fcl/$p.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
      echo "round $round: $p opencl $rm ${m:-FAILED}"
    done
    m=$(timeout 60 $C bench -t cuda --runs 100 examples/fcl/$p.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
    echo "round $round: $p cuda - ${m:-FAILED}"
  done
done | tee "$O/times.txt"
wait
timeout 90 "$W/fcl_peers" 2027 2>&1 | grep -E "^peer|fcl_peers:" | grep -E "CUB|fcl_peers" | tee "$O/peers.txt"
for p in reduce scan; do
  best=$(awk -v p=$p '$3 == p && $4 == "opencl" && $6 != "FAILED" { if (!($5 in b) || $6 < b[$5]) b[$5] = $6 }
    END { for (k in b) print b[k], k }' "$O/times.txt" | sort -g | head -n 1 | cut -d' ' -f2)
  CLIFT_OCL_RESIDENT=${best%:*} CLIFT_OCL_MAXRREG=${best#*:} timeout 90 $C run -t opencl -o "$W/$p.npy" examples/fcl/$p.fcl "$W/n.npy" > /dev/null 2>&1
  echo "check $p opencl $best: $(timeout 120 python3 bench/gpu/fcl_check.py $p "$W/$p.npy" "$W/n.npy" 2>&1 | head -c 300)"
done
rm -rf "$W"
