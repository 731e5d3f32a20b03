#!/usr/bin/env bash
# run.sh — F29 (tests/difftest/FINDINGS.md) on the device: sobol_parts.apl on
# cuda and opencl beside openmp (the first line that differs names the part),
# then the vectors x, y and in (x.apl, y.apl, in.apl) of each target compared
# element by element with their exact values (compare.py); cuda runs twice
# (a difference between two runs is a race).
set -uo pipefail
cd "$(dirname "$0")/../../.."
out=${OUT:-/tmp/f29}; mkdir -p "$out/npy"
make -s -j"$(nproc)" 2>&1 | tail -3
for t in openmp cuda opencl; do build/clift run -t $t bench/gpu/f29/sobol_parts.apl > "$out/f29_$t.txt" 2>&1; done
paste "$out"/f29_openmp.txt "$out"/f29_cuda.txt "$out"/f29_opencl.txt
for p in x y in; do
  for t in openmp cuda cuda_2 opencl; do
    build/clift run -t "${t%_2}" -o "$out/npy/${p}_$t.npy" "bench/gpu/f29/$p.apl" || echo "$p $t: exit $?"
  done
done
python3 bench/gpu/f29/compare.py "$out/npy"
rm -rf "$out/npy"
