#!/usr/bin/env bash
# session6 (2026-11-27, stop 27), first call on one H100: the F36 probe 2
# (bench/gpu/f36/probe2.sh: minimal kernels, ptxas levels, SASS) and issue 11's
# one-pass variants (bench/gpu/scan_2027.sh). Outputs under $OUT/f36 and $OUT/scan.
cd "$(dirname "$0")/../.."
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
OUT=$OUT/f36 timeout 120 bash bench/gpu/f36/probe2.sh > /dev/null 2>&1
echo "f36 probe2 rc=$?"
OUT=$OUT/scan timeout 420 bash bench/gpu/scan_2027.sh > /dev/null 2>&1
echo "scan_2027 rc=$?"
tail -n 60 "$OUT/scan/output.txt"
