#!/usr/bin/env bash
# bench_and_difftest.sh — one device call that times a benchmark set on the GPU
# (bench/gpu/run.sh) while the random differential tester runs on the CPU
# targets only (c, openmp: no GPU work that could disturb the timings), at the
# lowest priority, on all cores but four. The benchmark's own peers run in the
# same call under the same load, so its ratios stay like for like; the report
# says that the tester ran beside it.
# Usage (device run): ONLY=trmv CLIFT_COMMIT=<sha> bash bench/gpu/bench_and_difftest.sh SEEDS [SECONDS]
# Output in $OUT: run.sh's seven files plus difftest.tgz (the log and any
# failing programs).
set -uo pipefail
cd "$(dirname "$0")/../.."
SEEDS=$1
SECS=${2:-430}
OUTD=${OUT:-/tmp/bench_and_difftest}
mkdir -p "$OUTD"
make -s -j"$(nproc)" >/dev/null 2>&1 || { echo "build failed"; exit 1; }
jobs=$(( $(nproc) - 4 )); [ "$jobs" -lt 1 ] && jobs=1
dt=$(mktemp -d)
nice -n 19 python3 tests/difftest/difftest.py --clift build/clift --seeds "$SEEDS" --budget "$SECS" \
  --jobs "$jobs" --targets c,openmp --keep "$dt/keep" >"$dt/difftest.log" 2>&1 &
DT=$!
echo "difftest: seeds $SEEDS, $jobs jobs at nice 19, c and openmp, ${SECS}s (pid $DT)"
bash bench/gpu/run.sh
rc=$?
wait "$DT"; dtrc=$?
echo "=== difftest (rc $dtrc)"; tail -n 12 "$dt/difftest.log"
(cd "$dt" && tar czf "$OUTD/difftest.tgz" difftest.log keep 2>/dev/null || tar czf "$OUTD/difftest.tgz" difftest.log)
exit $rc
