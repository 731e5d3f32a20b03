#!/usr/bin/env bash
# f36 probe 2: which pattern, which compiler stage (ptxas options), the SASS of the loop.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/f36}; mkdir -p "$OUT"
{
echo "== minimal kernels (nvcc default)"; nvcc -arch=sm_90 -o /tmp/mini mini.cu 2>&1 | grep -v warn | head -3; /tmp/mini
for o in "-Xptxas -O0" "-Xptxas -O1" "-Xptxas -O2" "-G"; do
  nvcc -arch=sm_90 $o -DCLIFT_INDEX=int -o /tmp/f36v main.cu 2>&1 | grep -v warn | head -3
  echo "== clift kernel, nvcc $o: $(/tmp/f36v | grep -E 'N=(8|127):' | tr '\n' ' ')"
done
sed 's/^  for (clift_index i2 = 0; i2 < N; i2 += 1) {/  _Pragma("unroll 1") for (clift_index i2 = 0; i2 < N; i2 += 1) {/' kernel.cu > kernel_u1.cu
sed 's/kernel.cu/kernel_u1.cu/' main.cu > main_u1.cu
nvcc -arch=sm_90 -DCLIFT_INDEX=int -o /tmp/f36u main_u1.cu 2>&1 | grep -v warn | head -3
echo "== clift kernel, unroll 1: $(/tmp/f36u | grep -E 'N=(8|127):' | tr '\n' ' ')"
nvcc -arch=sm_90 -cubin -DCLIFT_INDEX=int -o /tmp/f36.cubin main.cu 2>/dev/null
echo "== SASS of k0"; cuobjdump -sass /tmp/f36.cubin | sed -n '/Function : k0/,/Function :/p' | grep -E '^\s+/\*[0-9a-f]+\*/' | sed 's/ *\/\* 0x[0-9a-f]* \*\///' | head -90
nvcc -arch=sm_90 -cubin -o /tmp/mini.cubin mini.cu 2>/dev/null
echo "== SASS of kB"; cuobjdump -sass /tmp/mini.cubin | sed -n '/Function : _Z2kBPiif/,/Function :/p' | grep -E '^\s+/\*[0-9a-f]+\*/' | sed 's/ *\/\* 0x[0-9a-f]* \*\///' | head -60
} 2>&1 | tee "$OUT/output.txt"
