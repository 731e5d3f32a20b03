#!/usr/bin/env bash
# lookback_emu.sh CLIFT — the one pass's cuda code (dpia/lookback.c) run on
# the CPU (cuda_emu/: a block's threads as POSIX threads, blocks one after
# another) for the filters and the int scan of bench/gpu at the tile's edges
# and beyond, checked against a reference in the harness; without a GPU.
# The code is generated with the environment this script gets, so the
# experiment switches of lookback.c are checked with it:
#   CLIFT_LB_GROUP=128 CLIFT_LB_ITEMS=24 CLIFT_LB_TOTALS=1 bash tests/codegen/lookback_emu.sh build/clift
# SIZES (default: 1, the tile's edges, 262144, 3000000) and GRID (blocks: 2;
# 0 one a tile, which CLIFT_LB_BLOCK_TILE's path needs) change the runs.
# Not part of the suites (about 30 s a variant on 2 cores).
set -uo pipefail
CLIFT=${1:-build/clift}
GROUP=${CLIFT_LB_GROUP:-256} ITEMS=${CLIFT_LB_ITEMS:-15}
TILE=$((GROUP * ITEMS)) GRID=${GRID:-2}
SIZES=${SIZES:-1 $((TILE - 1)) $TILE $((TILE + 1)) 262144 3000000}
D=$(cd "$(dirname "$0")" && pwd) T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
bad=0
for p in filter:0.0f filter_1pct:0.98f scan_int:; do
  prog=${p%%:*} th=${p#*:}
  "$CLIFT" compile -t cuda --print "$D/../../bench/gpu/$prog.lift" >"$T/$prog.cu" || { echo "FAIL $prog: compile"; bad=1; continue; }
  flags=$([ -z "$th" ] && echo -DSCAN || echo "-DTHRESH=$th")
  g++ -O1 -std=c++17 -w $flags -DTILE="$TILE" -DGROUP="$GROUP" -DGEN="\"$T/$prog.cu\"" -I"$D/cuda_emu" "$D/cuda_emu/lookback_harness.cpp" \
    -o "$T/$prog" -lpthread || { echo "FAIL $prog: harness"; bad=1; continue; }
  for n in $SIZES; do
    out=$(timeout 300 "$T/$prog" $n $GRID) || bad=1
    case "$out" in *": ok"*) ;; *) echo "FAIL $prog N=$n: $out"; bad=1 ;; esac
  done
done
[ $bad = 0 ] && echo "lookback emulation (group $GROUP, $ITEMS items): all ok" || echo "lookback emulation (group $GROUP, $ITEMS items): FAILED"
exit $bad
