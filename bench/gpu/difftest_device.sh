#!/usr/bin/env bash
# difftest_device.sh — the random differential tester (tests/difftest) on a GPU
# machine (the device tool's `run`): every target there, cuda included, on its
# 16 cores, within a time budget. Failing programs and the summary go to $OUT.
# Usage: bash bench/gpu/difftest_device.sh [SEEDS] [BUDGET_SECONDS] [ROTATE]
# ROTATE K (default 1): opencl and cuda on every K-th seed only, c and openmp on all.
# CLIFT_BIN: the compiler under test (default build/clift, built here).
# ONLY (e.g. "stencil,bits,long,while"): only the programs of these feature groups
# (difftest.py --only); the fourteenth session's first run of the new groups:
#   ONLY=stencil,bits,long,while ROTATE=1 bash bench/gpu/difftest_device.sh 9500000:9600000 215
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
# FIRST_GPU=F: the GPUs from F on only (GPU 0 … F-1 left to timings in the same call)
first_gpu=${FIRST_GPU:-0}
gpus=$(( $(nvidia-smi -L 2>/dev/null | wc -l) - first_gpu ))
# PROCS (default 1) testers side by side, each on its own part of SEEDS with
# JOBS/PROCS threads: one tester's threads share one Python interpreter, and a
# thread whose seed runs on a device waits for its batch (up to 3 s) without
# using a core, so one process with many jobs left most of the x4's cores idle
# (the 2026-11-27 soaks: ~24 programs a second with 36 or 52 jobs)
procs=${PROCS:-1} jobs=${JOBS:-$(nproc)}
first=${SEEDS%%:*} last=${SEEDS#*:}
[ -n "$last" ] && [ "$last" != "$SEEDS" ] || last=$((first + 1000000000))
part=$(( (last - first + procs - 1) / procs ))
pids=()
for k in $(seq 0 $((procs - 1))); do
  a=$((first + k * part)) b=$((first + (k + 1) * part)); [ "$b" -le "$last" ] || b=$last
  python3 tests/difftest/difftest.py --clift "$clift" --seeds "$a:$b" --budget "$BUDGET" --rotate "$ROTATE" \
    --jobs "$(( (jobs + procs - 1) / procs ))" --targets "$targets" --keep "$LOG/keep" --gpus "$(( gpus > 0 ? gpus : 1 ))" --first-gpu "$first_gpu" --omp-threads 2 \
    --batch "${BATCH:-16}" ${ONLY:+--only "$ONLY"} > "$LOG/difftest.$k.log" 2>&1 &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
cat "$LOG"/difftest.[0-9]*.log > "$LOG/difftest.log"
for k in $(seq 0 $((procs - 1))); do echo "== tester $k"; tail -n 30 "$LOG/difftest.$k.log"; done
if [ "$procs" -gt 1 ]; then
  awk '/^[0-9]+ programs in/ { n += $1 } /^[0-9]+ passed, [0-9]+ failed/ { p += $1; f += $3 }
       END { printf "all %d testers: %d programs\n%d passed, %d failed\n", '"$procs"', n, p, f }' "$LOG"/difftest.[0-9]*.log
fi
(cd "$LOG" && tar czf keep.tgz keep 2>/dev/null && rm -rf keep)
exit $status
