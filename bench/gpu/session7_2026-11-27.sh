#!/usr/bin/env bash
# session7 (stop 28): one call on a quiet H100 (nothing else on the machine):
#   - bench/gpu/fcl_2027c.sh: issue 15's reduce opt-ins (CLIFT_FCL_GRID, _BATCH,
#     _PREFETCH) beside CUB, with the checks that stop 27's loaded run skipped
#     (scan under batching, the uneven batches b3both, other local sizes) and the
#     sanitizer runs; the result decides whether GRID=1 PREFETCH=reg BATCH=4
#     becomes the default;
#   - bench/gpu/asum_2027.sh: issue 14's asum/sum/dot/scal, a second round on a
#     quiet machine (stop 27's one round ran beside a soak).
# Usage (device): bash bench/gpu/session7_2026-11-27.sh
# Output: $OUT/output.txt (the summaries), $OUT/fcl.tgz, $OUT/asum.tgz.
set -uo pipefail
cd "$(dirname "$0")/../.."
R=/tmp/s7; rm -rf $R; mkdir -p $R/asum $R/fcl
echo "local commit $(git log -1 --format=%h 2>/dev/null || echo '?'); $(nvidia-smi -L | head -n 1)"
OUT=$R/fcl timeout 300 bash bench/gpu/fcl_2027c.sh > /dev/null 2>&1; echo "fcl_2027c rc=$?"
OUT=$R/asum timeout 230 bash bench/gpu/asum_2027.sh > /dev/null 2>&1; echo "asum_2027 rc=$?"
echo "== fcl"; grep -E 'CUB|x CUB|check|sanitizer|done|MISSED|met|skipped|FAIL' $R/fcl/output.txt | tail -n 80
echo "== asum"; grep -vE '^\s*$' $R/asum/output.txt | tail -n 30
for d in asum fcl; do tar czf $OUT/$d.tgz -C $R $d; done
