#!/usr/bin/env bash
# session4_2026-11-27.sh — the lead's part of the second session of 2026-11-27:
#   1. issue 13: Life and Sobol π on cuda/opencl against JAX, now that the aref
#      change is back (F32's cause found: GCC's predictive commoning; Life was
#      0.49× JAX with it, 1.27× without);
#   2. issue 13: the five schedules of Sobol's bit-matrix product as hand CUDA
#      (bench/gpu/sobol_schedules.cu), checked against each other and timed,
#      with ptxas's register counts, to choose the code the lowering should emit;
#   3. Nsight Compute on Sobol's product kernel as clift generates it today.
# Usage (device): bash bench/gpu/session4_2026-11-27.sh   (output also in $OUT)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/session4}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -s -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
echo "clift $(git rev-parse --short HEAD 2>/dev/null)"
echo "== 2. Sobol product schedules (hand CUDA, N = 10^7)"
nvcc -O3 -arch=sm_90 -Xptxas -v -o /tmp/sobol_schedules bench/gpu/sobol_schedules.cu 2>&1 | grep -E "registers|spill" | sed 's/^ptxas info *: //'
/tmp/sobol_schedules 10000000
echo "== 1. APL Life and Sobol π against JAX (10 runs)"
ONLY="life sobol_pi" bash bench/gpu/apl_gpu.sh 10
echo "== 3. Nsight Compute: Sobol's kernels as generated (cuda, first launches)"
if command -v ncu >/dev/null; then
  timeout 240 ncu --launch-count 16 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
    build/clift bench -t cuda --runs 1 examples/apl/bench/sobol_pi_gpu.apl > "$OUT/sobol_ncu.txt" 2>&1
  grep -E "^  k[0-9]+|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\)|L1/TEX Hit|Achieved Occupancy|Registers Per" "$OUT/sobol_ncu.txt" | head -120
else
  echo "ncu not found"
fi
echo "== 4. device runs per second, 8 at a time, without and with a CUDA context held open (issue 9 soaks)"
f=tests/lift/vector_scale.lift
build/clift test -t cuda "$f" >/dev/null 2>&1   # the compile cache warm
burst() { local t0=$(date +%s.%N); for i in $(seq 1 32); do echo $i; done | xargs -P 8 -I{} sh -c "build/clift test -t cuda $f >/dev/null 2>&1"; echo "32 runs in $(python3 -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 2))" "$t0" "$(date +%s.%N)") s"; }
echo "without: $(burst)"
printf '#include <cuda_runtime.h>\n#include <unistd.h>\nint main(){cudaFree(0);pause();}\n' > /tmp/cuda_keep.cu && nvcc -o /tmp/cuda_keep /tmp/cuda_keep.cu && { /tmp/cuda_keep & k=$!; sleep 2; echo "with: $(burst)"; kill $k; }
