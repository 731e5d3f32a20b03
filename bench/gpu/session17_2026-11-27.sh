#!/usr/bin/env bash
# session17_2026-11-27.sh — two questions, one H100 call (about 8 minutes):
#   1. FCL's reduce and scan on NVIDIA's OpenCL (1.13x and 2.43x CUB; goals 1.1x
#      and 2.2x): NVIDIA's OpenCL gives the v256 chunk kernels 70 and 120
#      registers (NVRTC: 59, 48). Fewer values staged: each (CLIFT_FCL_PREFETCH P,
#      CLIFT_FCL_BATCH B) times the program at 2^27 (two interleaved rounds, the
#      registers of its chunk kernel from -cl-nv-verbose); cuda beside it, the CUB
#      peers; the best pair of each checked against NumPy.
#   2. the cubin cache (runtime/cuda_compile.c): 8 copies of replicate_runtime.apl's
#      statements (1,288 kernels; session15's run passed its 60 s) and one copy, on
#      cuda twice (NVRTC, then the cache) and NVIDIA's OpenCL twice, each against
#      the interpreter.
# Usage (device): bash bench/gpu/session17_2026-11-27.sh
cd "$(dirname "$0")/../.." || exit 1
O="${OUT:-/tmp/s17}"; mkdir -p "$O"; W=$(mktemp -d); C=build/clift
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
( nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -lcublas -o "$W/fcl_peers" > "$W/nvcc.log" 2>&1 ) &
cc -O2 bench/gpu/ocl_ptx.c -o "$W/ocl_ptx" -ldl || echo "ocl_ptx did not build"
N=134217728
python3 tests/fcl/npy.py $N "$W/n.npy" 8 raw
configs="reg:4 reg:2 reg:1 l2:4 l2:2 l2:1 0:4 0:1"
for p in reduce scan; do
  for pb in $configs; do
    CLIFT_FCL_PREFETCH=${pb%:*} CLIFT_FCL_BATCH=${pb#*:} $C compile -t opencl --print examples/fcl/$p.fcl "$W/n.npy" > "$W/x.cl" 2>&1
    "$W/ocl_ptx" "$W/x.cl" "$W/x.ptx" "-DCLIFT_INDEX=int -DCLIFT_NVIDIA_WARP -cl-fp32-correctly-rounded-divide-sqrt -cl-nv-verbose" 2>&1 \
      | grep -E "Compiling entry|registers" | paste - - | sed -E "s/ptxas info *: //g; s/^/$p $pb: /" | grep -E "k0_v256|k1_v256" | head -n 2
  done
done | tee "$O/registers.txt"
for round in 1 2; do
  for p in reduce scan; do
    for pb in $configs; do
      m=$(CLIFT_FCL_PREFETCH=${pb%:*} CLIFT_FCL_BATCH=${pb#*:} timeout 60 $C bench -t opencl --runs 100 examples/fcl/$p.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
      echo "round $round: $p opencl $pb ${m:-FAILED}"
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
  CLIFT_FCL_PREFETCH=${best%:*} CLIFT_FCL_BATCH=${best#*:} timeout 90 $C run -t opencl -o "$W/$p.npy" examples/fcl/$p.fcl "$W/n.npy" > /dev/null 2>&1
  echo "check $p opencl $best: $(timeout 120 python3 bench/gpu/fcl_check.py $p "$W/$p.npy" "$W/n.npy" 2>&1 | head -c 300)"
done | tee "$O/checks.txt"
# 2. the cubin cache
export XDG_CACHE_HOME=$W/cache
body=$(sed -n '/^x ← /,/^≢R$/p' tests/apl/replicate_runtime.apl)
echo "$body" > "$W/many1.apl"; for i in 1 2 3 4 5 6 7 8; do echo "$body"; done > "$W/many8.apl"
for n in 1 8; do
  $C run -t interp "$W/many$n.apl" > "$W/want.txt" 2>&1
  for t in cuda cuda opencl opencl; do
    s=$(date +%s%N); timeout 200 $C run -t $t "$W/many$n.apl" > "$W/got.txt" 2>&1; rc=$?
    echo "many$n $t: rc=$rc $(( ($(date +%s%N) - s) / 1000000 )) ms, $(cmp -s "$W/want.txt" "$W/got.txt" && echo same || echo "DIFFERENT: $(diff "$W/want.txt" "$W/got.txt" | head -n 3)")"
  done
  echo "cubins in the cache: $(ls "$W/cache/clift/"*.cubin 2>/dev/null | wc -l)"
done | tee "$O/many.txt"
rm -rf "$W"
