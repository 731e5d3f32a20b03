#!/usr/bin/env bash
# session14_2026-11-27.sh — asum on NVIDIA's OpenCL (issue 14: 0.895 of the copy
# kernel's bandwidth at 2^24 in stop 28, goal 0.90; cuda 0.91-0.94 from the same
# source). Is it NVIDIA OpenCL's compiler not unrolling the 64-step loop of loads?
#   0. k0's PTX from NVIDIA's OpenCL (bench/gpu/ocl_ptx.c) under CLIFT_OCL_UNROLL
#      = 0, 8, 16: the longest run of ld.global with no branch between, registers;
#   1. asum, sum, dot on opencl under 0 and 16 against the interpreter (4 sizes);
#   2. asum, sum, dot at 2^24: opencl under U = 0, 8, 16 and cuda, two rounds,
#      median of --runs 50; the copy kernel of the same bytes (peers.cu).
# Usage (device): bash bench/gpu/session14_2026-11-27.sh   (about 1 minute)
# Run 2026-11-27 (bench/gpu/results/2026-11-27m-asum-opencl/): NVIDIA's OpenCL
# already unrolls all 64 loads (a run of 64, 30 registers); a hint of 8 or 16 cut
# the run and was no faster, so CLIFT_OCL_UNROLL was removed after this call
# (the script needs the commit that added it, 0ebed06).
cd "$(dirname "$0")/../.." || exit 1
O="${OUT:-/tmp/s14}"; mkdir -p "$O"; W=$(mktemp -d); C=build/clift
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
( nvcc -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o "$W/peers" > "$W/nvcc.log" 2>&1 ) &
cc -O2 bench/gpu/ocl_ptx.c -o "$W/ocl_ptx" -ldl || echo "ocl_ptx did not build"
BIG=16777216
echo "== 0. k0's PTX on NVIDIA's OpenCL"
for p in asum sum dot; do
  for u in 0 8 16; do
    CLIFT_OCL_UNROLL=$u $C compile -t opencl --print bench/gpu/$p.lift > "$W/$p.$u.cl" 2>&1
    regs=$("$W/ocl_ptx" "$W/$p.$u.cl" "$W/$p.$u.ptx" "-DCLIFT_INDEX=int -cl-fp32-correctly-rounded-divide-sqrt -cl-nv-verbose" 2>&1 |
           grep -A3 "entry function 'k0'" | sed -nE 's/.*Used ([0-9]+) registers.*/\1/p' | head -n 1)
    run=$(awk '/\.entry k0\(/{k=1} k&&/ld\.global/{n++; if(n>m)m=n} k&&/bra/{n=0} k&&/^}/{k=0} END{print m+0}' "$W/$p.$u.ptx")
    echo "$p U=$u: longest run of loads $run, k0 ${regs:-?} registers"
  done
done
cp "$W"/asum.*.ptx "$O/" 2>/dev/null
echo "== 1. checks"
for p in asum sum dot; do for u in 0 16; do for n in 1 16385 81997 1000000; do
  CLIFT_OCL_UNROLL=$u timeout 60 $C bench -t opencl --no-tune-cache --check --tolerance 1e-3 --runs 1 --size N=$n bench/gpu/$p.lift > "$W/c.log" 2>&1
  grep -q "agrees with interp" "$W/c.log" && echo "ok $p U=$u N=$n" || echo "FAIL $p U=$u N=$n: $(tail -n 2 "$W/c.log" | tr '\n' ' ' | cut -c1-200)"
done; done; done | tee "$O/checks.txt" | grep -c '^ok' | sed 's/$/ checks ok of 24/'
grep FAIL "$O/checks.txt"
echo "== 2. ms at N=$BIG"
for round in 1 2; do
  for p in asum sum dot; do
    line="round $round $p:"
    for u in 0 8 16; do
      m=$(CLIFT_OCL_UNROLL=$u timeout 40 $C bench -t opencl --no-tune-cache --runs 50 --size N=$BIG bench/gpu/$p.lift 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
      line="$line opencl-U$u=${m:-?}"
    done
    m=$(timeout 40 $C bench -t cuda --no-tune-cache --runs 50 --size N=$BIG bench/gpu/$p.lift 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
    echo "$line cuda=${m:-?}"
  done
done | tee "$O/times.txt"
wait
timeout 25 "$W/peers" copy_half asum dot > "$W/peers.log" 2>&1; grep -E "^peer|failure" "$W/peers.log" | tee "$O/peers.txt"
rm -rf "$W"
