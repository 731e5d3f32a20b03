#!/usr/bin/env bash
# lookback_emu.sh CLIFT [TILE] — the one pass's cuda code (dpia/lookback.c)
# run on the CPU (cuda_emu/: a block's threads as POSIX threads) for the
# filters and the int scan of bench/gpu at the tile's edges and beyond,
# checked against a reference in the harness; without a GPU. Not part of the
# suites (about 30 s on 2 cores); TILE: the tile when built with another
# CLIFT_LB_ITEMS (256 × items).
set -uo pipefail
CLIFT=${1:-build/clift} TILE=${2:-3840}
D=$(cd "$(dirname "$0")" && pwd) T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
bad=0
for p in filter:0.0f filter_1pct:0.98f scan_int:; do
  prog=${p%%:*} th=${p#*:}
  "$CLIFT" compile -t cuda --print "$D/../../bench/gpu/$prog.lift" >"$T/$prog.cu" || { echo "FAIL $prog: compile"; bad=1; continue; }
  flags=$([ -z "$th" ] && echo -DSCAN || echo "-DTHRESH=$th")
  g++ -O1 -std=c++17 -w $flags -DTILE="$TILE" -DGEN="\"$T/$prog.cu\"" -I"$D/cuda_emu" "$D/cuda_emu/lookback_harness.cpp" \
    -o "$T/$prog" -lpthread || { echo "FAIL $prog: harness"; bad=1; continue; }
  for n in 1 $((TILE - 1)) $TILE $((TILE + 1)) 262144 3000000; do
    out=$(timeout 120 "$T/$prog" $n 2) || bad=1
    case "$out" in *": ok"*) ;; *) echo "FAIL $prog N=$n: $out"; bad=1 ;; esac
  done
done
[ $bad = 0 ] && echo "lookback emulation: all ok" || echo "lookback emulation: FAILED"
exit $bad
