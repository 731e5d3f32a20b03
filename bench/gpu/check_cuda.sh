#!/usr/bin/env bash
# check_cuda.sh — the cuda target on a GPU machine (the device tool's `run`;
# CI has no GPU, tests/codegen/cuda_test.sh covers what needs none): build,
# run every test block on the interpreter and on cuda (SPEC §9), the cuda
# codegen test with a device, and compute-sanitizer's memcheck over one
# work-group program. Logs go to $OUT when set (the device tool brings them back).
# Usage: bash bench/gpu/check_cuda.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
LOG=${OUT:-/tmp}
status=0
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
make -s -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }

echo "== clift test -t interp,cuda,opencl"
build/clift test -t interp,cuda,opencl tests/lift tests/regress tests/codegen examples examples/euler > "$LOG/cuda_test.log" 2>&1 || status=1
grep -v '^PASS' "$LOG/cuda_test.log" | tail -n 40

echo "== tests/codegen/cuda_test.sh (with a device)"
bash tests/codegen/cuda_test.sh build/clift 2>&1 | tail -n 5 || status=1

echo "== compute-sanitizer memcheck: tests/lift/dot_wrg.lift"
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
"$SAN" --tool memcheck --error-exitcode 3 build/clift run -t cuda tests/lift/dot_wrg.lift \
  tests/lift/data/dot_xs_8192.npy tests/lift/data/dot_ys_8192.npy 2>&1 | tail -n 8 || status=1

echo "check_cuda: exit $status"
exit $status
