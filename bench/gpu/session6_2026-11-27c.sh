#!/usr/bin/env bash
# session6 c (stop 27): one call on the H100 x4. GPU 0 times while GPUs 1-3 soak:
#   - the soak of the frozen final head (bench/gpu/soak_device.sh: the differential
#     tester with its device runs on GPUs 1-3 (FIRST_GPU=1), the fuzzer), at nice 10
#     with 48 tester jobs and 16 fuzz workers, so that the timings keep cores;
#   - on GPU 0 (CUDA_VISIBLE_DEVICES=0): bench/gpu/asum_2027.sh (issue 14's asum, the
#     unchecked full tiles against CLIFT_REDUCE_GUARD=1), then bench/gpu/fcl_2027c.sh
#     (issue 15's reduce opt-ins beside CUB). Both compare their modes within the call.
# Usage (device, carry FROZEN and FUZZER):
#   FROZEN=.carry/frozen4 FUZZER=.carry/fuzz4 SEEDS=170000000: FUZZ_BASE=38000 \
#     bash bench/gpu/session6_2026-11-27c.sh
# Output: $OUT/output.txt (the summaries), $OUT/soak.tgz, $OUT/asum.tgz, $OUT/fcl.tgz.
set -uo pipefail
cd "$(dirname "$0")/../.."
R=/tmp/s6c; rm -rf $R; mkdir -p $R/soak $R/asum $R/fcl
SOAK_S=${SOAK_S:-400}
echo "local commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(nvidia-smi -L | wc -l) GPUs; soak ${SOAK_S} s"
( FIRST_GPU=1 PROCS=3 FUZZ_SEED_BASE=$FUZZ_BASE CLIFT_SRC=$FROZEN OUT=$R/soak \
    nice -n 10 bash bench/gpu/soak_device.sh "$FUZZER" "$SEEDS" "$SOAK_S" 48 16 16 > $R/soak/output.txt 2>&1 ) &
soak=$!
export CUDA_VISIBLE_DEVICES=0
OUT=$R/asum timeout 230 bash bench/gpu/asum_2027.sh > /dev/null 2>&1; echo "asum_2027 rc=$?"
OUT=$R/fcl timeout 250 bash bench/gpu/fcl_2027c.sh > /dev/null 2>&1; echo "fcl_2027c rc=$?"
unset CUDA_VISIBLE_DEVICES
wait $soak
echo "== asum"; grep -vE '^\s*$' $R/asum/output.txt | tail -n 30
echo "== fcl"; grep -E 'CUB|x CUB|check|sanitizer|done|MISSED|met' $R/fcl/output.txt | tail -n 40
echo "== soak"; tail -n 22 $R/soak/output.txt
for d in soak asum fcl; do tar czf $OUT/$d.tgz -C $R $d; done
