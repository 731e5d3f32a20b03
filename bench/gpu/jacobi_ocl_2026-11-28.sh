#!/usr/bin/env bash
# jacobi_ocl_2026-11-28.sh — issue14_goals.sh's jacobi_vec (R=2, local 16x32) failed on
# NVIDIA's OpenCL (exit 1, its message cut by the script's grep; cuda fine, PoCL fine):
# the whole message, then the same at other local sizes and with the switches that
# changed opencl since it last ran there (warp barriers, the grid cap's estimate).
cd "$(dirname "$0")/../.." || exit 1
make -s -j16 >&2 || exit 1
run() { echo "== $*"; timeout 90 build/clift bench -t opencl --no-tune-cache --check --tolerance 1e-3 --runs 1 "$@" 2>&1 | tail -n 12; echo "exit ${PIPESTATUS[0]}"; }
base="--tunable R=2 --size N=256 --size M4=64 bench/gpu/jacobi_vec.lift"
run --local-size 16,32 $base
run --local-size 16,16 $base
run $base
CLIFT_OCL_WARP=0 run --local-size 16,32 $base
timeout 60 build/clift test -t opencl bench/gpu/jacobi_vec.lift 2>&1 | tail -n 1
# 2. why NVIDIA's OpenCL allows k0 only 256 work-items: ptxas's registers of the kernel
#    built by NVIDIA's OpenCL (bench/gpu/ocl_ptx.c) with the runtime's options, without
#    the #pragma unroll lines (F38's workaround, seventh session), without the
#    correctly rounded division
W=$(mktemp -d)
build/clift compile -t opencl --print --tunable R=2 bench/gpu/jacobi_vec.lift > "$W/j.cl"
sed '/#pragma unroll/d' "$W/j.cl" > "$W/j_nopragma.cl"
cc bench/gpu/ocl_ptx.c -o "$W/ocl_ptx" -ldl
for src in j j_nopragma; do
  for opts in "-DCLIFT_INDEX=int -cl-fp32-correctly-rounded-divide-sqrt" "-DCLIFT_INDEX=int" "-cl-fp32-correctly-rounded-divide-sqrt"; do
    if "$W/ocl_ptx" "$W/$src.cl" "$W/o.ptx" "$opts" > "$W/b.log" 2>&1; then
      echo "$src [$opts]: $(ptxas -arch=sm_90 -v "$W/o.ptx" -o /dev/null 2>&1 | grep -A3 "entry function 'k0'" | grep -oE 'Used [0-9]+ registers' | head -n 1)"
    else echo "$src [$opts]: build failed: $(tail -c 300 "$W/b.log")"; fi
  done
done
# 3. the full size at the local sizes NVIDIA's OpenCL takes (JAX 0.0609 ms, cuda 0.0515 at 16x32 in issue14_goals)
for ls in 16,16 8,32 32,8; do
  echo "full 4096² local $ls: $(timeout 60 build/clift bench -t opencl --no-tune-cache --runs 20 --tunable R=2 --local-size $ls --size N=4096 --size M4=1024 bench/gpu/jacobi_vec.lift 2>&1 | grep -oE 'median [0-9.]+ ms')"
done
echo "full 4096² default: $(timeout 60 build/clift bench -t opencl --no-tune-cache --runs 20 --tunable R=2 --size N=4096 --size M4=1024 bench/gpu/jacobi_vec.lift 2>&1 | grep -oE 'median [0-9.]+ ms')"
echo "cuda full 4096² 16x32: $(timeout 60 build/clift bench -t cuda --no-tune-cache --runs 20 --tunable R=2 --local-size 16,32 --size N=4096 --size M4=1024 bench/gpu/jacobi_vec.lift 2>&1 | grep -oE 'median [0-9.]+ ms')"
