#!/usr/bin/env bash
# difftest_device.sh — the random differential tester (tests/difftest) on a GPU
# machine (the device tool's `run`): every target there, cuda included, on its
# 16 cores, within a time budget. Failing programs and the summary go to $OUT.
# Usage: bash bench/gpu/difftest_device.sh [SEEDS] [BUDGET_SECONDS] [ROTATE]
# ROTATE K (default 1): opencl and cuda on every K-th seed only, c and openmp on all.
# CLIFT_BIN: the compiler under test (default build/clift, built here).
# BATCH (default 16): device runs that many at a time in one clift process
# (`clift run --batch`): a device process costs ~0.5 s of driver time,
# serialised between processes, which capped the 2026-11-27 soaks near 3 device
# runs a second (bench/gpu/runrate_probe.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
SEEDS=${1:-300000:400000}
BUDGET=${2:-420}
ROTATE=${3:-1}
LOG=${OUT:-/tmp}
clift=${CLIFT_BIN:-build/clift}
[ -n "${CLIFT_BIN:-}" ] || make -s -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
targets=$("$clift" test --list-targets | grep -v '^interp$' | paste -sd, -)
echo "targets: $targets"
# one GPU per seed (every CUDA or NVIDIA OpenCL run otherwise initialises all of a
# multi-GPU machine's), and 2 OpenMP threads per run unless the seed picks its own:
# on the x4 machine (2026-11-27) 42-52 jobs of 64-thread OpenMP runs and 4-GPU
# initialisations made every device run take 12-17 s, against 0.6-0.8 s on one H100
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
python3 tests/difftest/difftest.py --clift "$clift" --seeds "$SEEDS" --budget "$BUDGET" --rotate "$ROTATE" \
  --jobs "${JOBS:-$(nproc)}" --targets "$targets" --keep "$LOG/keep" --gpus "${gpus:-1}" --omp-threads 2 --batch "${BATCH:-16}" > "$LOG/difftest.log" 2>&1
status=$?
tail -n 30 "$LOG/difftest.log"
(cd "$LOG" && tar czf keep.tgz keep 2>/dev/null && rm -rf keep)
exit $status
