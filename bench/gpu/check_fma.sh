#!/usr/bin/env bash
# check_fma.sh — after turning floating-point contraction off on the device
# targets (docs/design.md §8): the Sobol π program at the GPU size must count
# the points as NumPy does (7854017), fma_off.lift must agree with the
# interpreter on cuda and opencl, and sgemm's time with the contraction off.
set -uo pipefail
cd "$(dirname "$0")/../.."
make -s -j"$(nproc)" 2>&1 | tail -3
build/clift test -t interp,cuda,opencl tests/codegen/fma_off.lift
for t in cuda opencl; do echo "== $t"; build/clift run -t $t examples/apl/bench/sobol_pi_gpu.apl; done
grep "output:" examples/apl/bench/sobol_pi_gpu.apl
build/clift bench -t cuda --runs 10 --size N=4096 bench/gpu/sgemm.lift
