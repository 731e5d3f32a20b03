#!/usr/bin/env bash
# fcl_retime_2028.sh — issue 15's six case studies (bench/gpu/fcl_2027.sh) under
# stop 28's cuda defaults (the grid cap, the staged reads, 4 chunks a work-group
# iteration, which reverse, transpose and matmul get too) and under stop 27's
# (CLIFT_FCL_BATCH=0 CLIFT_FCL_GRID=0 CLIFT_FCL_PREFETCH=l2), one after the other on
# one GPU, so that "no benchmark slower" is checked for the programs the new default
# was not timed on. Written in stop 28, not yet run (no device time left).
# Usage (device): bash bench/gpu/fcl_retime_2028.sh   (about 8 minutes on one H100)
# Output: $OUT/output.txt, $OUT/new.txt, $OUT/old.txt (fcl_2027.sh's outputs).
set -uo pipefail
cd "$(dirname "$0")/../.."
mkdir -p "${OUT:-/tmp}"
R=$(mktemp -d)
OUT=$R/new TARGETS=cuda timeout 280 bash bench/gpu/fcl_2027.sh > "${OUT:-/tmp}/new.txt" 2>&1; echo "new defaults: rc=$?"
OUT=$R/old TARGETS=cuda CLIFT_FCL_BATCH=0 CLIFT_FCL_GRID=0 CLIFT_FCL_PREFETCH=l2 timeout 280 bash bench/gpu/fcl_2027.sh > "${OUT:-/tmp}/old.txt" 2>&1
echo "stop 27's: rc=$?"
for f in new old; do echo "== $f"; grep -E 'goal|met|MISSED|FAIL|check|sanitizer|% of|x CUB' "${OUT:-/tmp}/$f.txt" | tail -n 30; done
