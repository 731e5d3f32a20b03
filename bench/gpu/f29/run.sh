#!/usr/bin/env bash
# run.sh — F29 (tests/difftest/FINDINGS.md) on the device: sobol_parts.apl on
# cuda and opencl beside openmp; the first line that differs names the part.
set -uo pipefail
cd "$(dirname "$0")/../../.."
make -s -j"$(nproc)" 2>&1 | tail -3
for t in openmp cuda opencl; do build/clift run -t $t bench/gpu/f29/sobol_parts.apl > "${OUT:-/tmp}/f29_$t.txt" 2>&1; done
paste "${OUT:-/tmp}"/f29_openmp.txt "${OUT:-/tmp}"/f29_cuda.txt "${OUT:-/tmp}"/f29_opencl.txt
