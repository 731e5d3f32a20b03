#!/usr/bin/env bash
# f36 probe (difftest seed 110000080, soak of 237dd99: cuda and NVIDIA OpenCL gave
# (…, 120) where every other target gives (1977.875, 2)).
cd "$(dirname "$0")/../../.."
OUT=${OUT:-/tmp/f36}; mkdir -p "$OUT"
{
make -s -j16 >&2 || echo "build failed"
d=bench/gpu/f36
for t in interp cuda opencl; do echo "clift run -t $t: $(build/clift run -t $t $d/f36.lift @$d/in0.txt 2>&1 | head -c 300)"; done
for idx in "long long" int; do
  for o in -O3 -O0; do
    nvcc $o -arch=sm_90 -DCLIFT_INDEX="$idx" -o /tmp/f36_$o "$d/main.cu" 2>&1 | grep -v warning | head -5
    echo "== nvcc $o CLIFT_INDEX=$idx"; /tmp/f36_$o
  done
done
nvcc -arch=sm_90 -DCLIFT_INDEX=int -ptx -o /tmp/f36.ptx "$d/main.cu" && grep -A80 "entry k0" /tmp/f36.ptx | head -120
} 2>&1 | tee "$OUT/output.txt"
