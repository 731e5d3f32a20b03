#!/usr/bin/env bash
# session7b (stop 28): issue 9's soak of the frozen 79938e1 on the H100 x4, the two
# halves one after the other instead of side by side: in stop 27's soaks the
# fuzz workers made 56-85 executions a second each beside 48-72 tester jobs
# (PoCL and OpenMP runs take every core), against ~800 alone on an H100 host.
#   1. the frozen compiler built (make -j, all cores);
#   2. the fuzzer alone: FUZZ_JOBS workers for FUZZ_S seconds (fuzz_device.sh);
#   3. the differential tester alone: PROCS testers (one Python process each;
#      stop 27's final soak: 11 programs a second per tester) with JOBS threads in
#      all, device targets on every ROTATE-th program, for DIFF_S seconds.
# Usage (device, carry FROZEN and FUZZER):
#   FROZEN=.carry/frozen4 FUZZER=.carry/fuzz4 SEEDS=190000000: FUZZ_BASE=40000 \
#     bash bench/gpu/session7b_2026-11-27.sh
# Output: $OUT/output.txt (the summaries), $OUT/soak.tgz (logs, kept failures).
set -uo pipefail
cd "$(dirname "$0")/../.."
# the logs straight under $OUT (when set), so that a call cut short by its time
# limit still brings back what the tester wrote (the seventh session lost a
# tester's output when the call ran past its limit, /tmp being left behind)
R=${OUT:+$OUT/s7b}; R=${R:-/tmp/s7b}; rm -rf $R; mkdir -p $R/fuzz $R/diff
FUZZ_S=${FUZZ_S:-250} FUZZ_JOBS=${FUZZ_JOBS:-60} DIFF_S=${DIFF_S:-260}
PROCS=${PROCS:-12} JOBS=${JOBS:-96} ROTATE=${ROTATE:-16}
echo "$(nproc) cores, $(nvidia-smi -L | wc -l) GPUs; fuzz $FUZZ_JOBS workers $FUZZ_S s, then difftest $PROCS testers $JOBS jobs $DIFF_S s"
make -s -C "$FROZEN" -j"$(nproc)" > $R/build.log 2>&1 || { echo "build failed"; tail $R/build.log; exit 1; }
echo "built at ${SECONDS} s"
FUZZ_SEED_BASE=$FUZZ_BASE OUT=$R/fuzz bash bench/gpu/fuzz_device.sh "$FUZZER" "$FUZZ_JOBS" 100000000 "$FUZZ_S" > $R/fuzz/summary.txt 2>&1
echo "fuzz done at ${SECONDS} s"; grep -v '^finding ' $R/fuzz/summary.txt | tail -n 3; grep '^finding ' $R/fuzz/summary.txt
CLIFT_BIN=$FROZEN/build/clift PROCS=$PROCS JOBS=$JOBS OUT=$R/diff \
  bash bench/gpu/difftest_device.sh "$SEEDS" "$DIFF_S" "$ROTATE" > $R/diff/summary.txt 2>&1
echo "difftest done at ${SECONDS} s (exit $?)"
grep -E 'programs in|seconds per run|per target|^[0-9]+ passed|^all ' $R/diff/summary.txt | tail -n 60
grep -A3 -i 'refusals:' $R/diff/summary.txt | head -n 20
grep -iE 'FAIL|disagree|crash' $R/diff/summary.txt | head -n 20
echo "fuzz again (last, so that a cut output keeps it):"; grep -v '^finding ' $R/fuzz/summary.txt | tail -n 3; grep '^finding ' $R/fuzz/summary.txt
if [ "$R" = /tmp/s7b ]; then tar czf $OUT/soak.tgz -C $R .; fi
