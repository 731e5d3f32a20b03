#!/usr/bin/env bash
# lb_2026-11-27.sh — issue 11 item 10 (the one-pass filter and scan at CUB
# speed), one device call of 5 to 8 minutes (later steps shrink when time runs short):
#   0. builds this tree (the new default) and, from the same tree with
#      lookback.c's switches, the old one (CLIFT_LB_WARP=0 CLIFT_LB_REGISTERS=0:
#      it prints the code of main before the change, checked when it was made)
#      and four variants, three of them each without one of the changes: `warp` (the
#      warp-wide look-back and the group's scan by shuffles, the tile loaded
#      the old way), `regs` (the tile through registers, the old look-back),
#      `hs` (everything but the group's scan, which is Hillis–Steele again),
#      and `i15`: all of it with 15 elements a work-item (tiles of 3840, as
#      CUB's; 16 was slower on 2026-11-27, when each load waited for the last);
#   1. checks the new default against the interpreter on cuda and opencl:
#      filter, filter_1pct and scan_int (exact) at 4097, 262144 and 3·10^6
#      elements, the float scan at 4097 and 262144 (its sums drift with the
#      order: tolerance 5e-2); cuda with --local-size 64 (a given work-group
#      size keeps the old look-back); old and the variants on cuda at 3·10^6;
#      the language tests that take the one pass, on cuda and opencl;
#   2. compute-sanitizer racecheck, synccheck and memcheck on cuda (small sizes);
#   3. times the filter (half and 1% kept) and the scan at 2^27, clift bench
#      --runs 20, two rounds, cuda: new, old and the variants; opencl: new and
#      old; new and old at 2^24 too; then CUB (bench/gpu/peers.cu) in the same call.
#   4. if time is left (under 5.5 minutes so far), Nsight Compute on the new
#      filter's pass at 2^24.
# Usage (device run, nothing to carry):
#   mkdir -p $OUT && bash bench/gpu/lb_2026-11-27.sh 2>&1 | tee $OUT/output.txt
# The build and test logs go to $OUT too. BIG, SMALL and RUNS (defaults
# 134217728, 16777216 and 20) change the timed sizes and runs (a trial on a
# machine without a GPU: the cuda steps fail there, the opencl ones run on PoCL).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/lb_out}
mkdir -p "$OUT"
T0=$(date +%s)
elapsed() { echo $(( $(date +%s) - T0 )); }
stamp() { echo "   [$(elapsed) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
( $NVCC -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o /tmp/lb_peers >/tmp/lb_nvcc.log 2>&1; echo $? >/tmp/lb_nvcc.rc ) &
nvcc_pid=$!
make -s -j"$(nproc)" >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -n 20 "$OUT/build.log"; exit 1; }
declare -A variant=([old]="-DCLIFT_LB_WARP=0 -DCLIFT_LB_REGISTERS=0" [warp]="-DCLIFT_LB_REGISTERS=0"
                     [regs]="-DCLIFT_LB_WARP=0" [hs]="-DCLIFT_LB_WARP_SCAN=0" [i15]="-DCLIFT_LB_ITEMS=15")
pids=""
for v in "${!variant[@]}"; do
  rm -rf /tmp/lb_$v && mkdir -p /tmp/lb_$v && cp -r src Makefile /tmp/lb_$v/ &&
    { make -s -C /tmp/lb_$v -j"$(nproc)" CC="cc ${variant[$v]}" >/tmp/lb_$v.log 2>&1 & pids="$pids $!"; }
done
for p in $pids; do wait $p || echo "a variant build failed"; done
clift() { if [ "$1" = new ]; then echo build/clift; else echo /tmp/lb_$1/build/clift; fi; }
for v in old warp regs hs i15; do [ -x "$(clift $v)" ] || echo "variant $v: no build ($(tail -n 3 /tmp/lb_$v.log))"; done
echo "== 0. builds done$(stamp)"

status=0
hung=" "   # builds and targets (new-cuda, old-opencl, …) where a run timed out: a hang in the
           # look-back would otherwise cost every later step its whole timeout
check() {  # check KEY NAME COMMAND…: one line, ok or FAIL (the output's tail for failures)
  local key=$1 name=$2 rc; shift 2
  case "$hung" in *" $key "*) echo "skip $name ($key timed out before)"; return ;; esac
  timeout 60 "$@" >/tmp/lb_check.log 2>&1; rc=$?
  if [ $rc = 0 ]; then echo "ok   $name"; return; fi
  echo "FAIL $name (exit $rc): $(tail -n 2 /tmp/lb_check.log | cut -c1-300)"; status=1
  [ $rc = 124 ] && hung="$hung$key "
}
tol() { case $1 in scan) echo 5e-2 ;; scan_int) echo 0 ;; *) echo 1e-4 ;; esac; }
sizes() { case $1 in scan) echo "4097 262144" ;; *) echo "4097 262144 3000000" ;; esac; }
echo "== 1. checks against the interpreter (new default)"
for t in cuda opencl; do
  for p in filter filter_1pct scan scan_int; do
    for n in $(sizes $p); do
      check new-$t "$t $p N=$n" build/clift bench -t $t --check --tolerance "$(tol $p)" --runs 1 --size N=$n bench/gpu/$p.lift
    done
  done
done
for p in filter scan_int; do
  for n in 262144 3000000; do
    check local-cuda "cuda --local-size 64 $p N=$n" build/clift bench -t cuda --local-size 64 --check --tolerance "$(tol $p)" --runs 1 --size N=$n bench/gpu/$p.lift
  done
done
for v in old warp regs hs i15; do
  for p in filter filter_1pct scan_int; do
    for n in 3000000; do
      check $v-cuda "$v cuda $p N=$n" "$(clift $v)" bench -t cuda --check --tolerance "$(tol $p)" --runs 1 --size N=$n bench/gpu/$p.lift
    done
  done
done
case "$hung" in *" new-cuda "*) targets=opencl ;; *) targets=cuda,opencl ;; esac
# the tests whose cuda code has the one pass (ballots), listed when this was written
onepass="tests/lift/filter_chain.lift tests/lift/filter_compose.lift tests/lift/filter_glb.lift tests/lift/filter_if.lift
  tests/lift/filter_length.lift tests/lift/filter_reduce.lift tests/lift/filter_top.lift tests/lift/filter_top_chain.lift
  tests/lift/scan_top.lift tests/lift/scan_top_max.lift tests/regress/filter_map_mentions.lift
  tests/regress/filter_map_mentions_tuple.lift tests/regress/filter_reads_kept.lift tests/regress/lookback_*.lift
  examples/euler/007.lift examples/euler/010.lift"
timeout 150 build/clift test -t $targets $onepass >"$OUT/tests.log" 2>&1
grep -E "^FAIL" -A3 "$OUT/tests.log" | head -n 30; echo "language tests: $(tail -n 1 "$OUT/tests.log")"
echo "== 1. done$(stamp)"

echo "== 2. compute-sanitizer (cuda, new default)"
SAN=/usr/local/cuda/bin/compute-sanitizer
for p in filter scan_int; do
  check new-cuda "racecheck $p N=65537" $SAN --tool racecheck --error-exitcode 3 build/clift bench -t cuda --size N=65537 --runs 1 bench/gpu/$p.lift
  check new-cuda "synccheck $p N=65537" $SAN --tool synccheck --error-exitcode 3 build/clift bench -t cuda --size N=65537 --runs 1 bench/gpu/$p.lift
  check new-cuda "memcheck $p N=262144" $SAN --tool memcheck --error-exitcode 3 build/clift bench -t cuda --size N=262144 --runs 1 bench/gpu/$p.lift
done
echo "== 2. done$(stamp)"

BIG=${BIG:-134217728} RUNS=${RUNS:-20}
echo "== 3. timings at N=$BIG (ms, median of clift bench --runs $RUNS; two rounds)"
median() {   # median VARIANT TARGET PROGRAM: ms, or "-" where that build hung before
  case "$hung" in *" $1-$2 "*) echo -; return ;; esac
  [ "$(elapsed)" -gt 420 ] && { echo late; return; }   # the call's 8 minutes
  timeout 90 "$(clift $1)" bench -t $2 --runs $RUNS --size N=$BIG bench/gpu/$3.lift 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p'; }
for round in 1 2; do
  [ $round = 2 ] && [ "$(elapsed)" -gt 300 ] && { echo "(no second round: $(elapsed) s so far)"; break; }
  for p in filter filter_1pct scan; do
    line="cuda $p round $round:"
    for v in new old warp regs hs i15; do line="$line $v=$(median $v cuda $p)"; done
    echo "$line"
    echo "opencl $p round $round: new=$(median new opencl $p) old=$(median old opencl $p)"
  done
done
SMALL=${SMALL:-16777216}
for p in filter filter_1pct scan; do
  echo "N=$SMALL $p: cuda new=$(BIG=$SMALL median new cuda $p) old=$(BIG=$SMALL median old cuda $p)" \
       "opencl new=$(BIG=$SMALL median new opencl $p) old=$(BIG=$SMALL median old opencl $p)"
done
echo "== 3. done$(stamp)"
echo "== peers (CUB)"
wait $nvcc_pid
if [ "$(cat /tmp/lb_nvcc.rc)" = 0 ]; then timeout 100 /tmp/lb_peers filter scan 2>&1 | grep -E "^peer" | head -n 12
else echo "peers.cu did not build:"; tail -n 3 /tmp/lb_nvcc.log; fi
if [ "$(elapsed)" -lt 330 ]; then
  echo "== 4. Nsight Compute: the new filter's pass at 2^24 (the second launch of k1: the first timed run)"
  timeout 60 ncu --section SpeedOfLight --section WarpStateStats --section LaunchStats --section Occupancy \
    --kernel-name k1 --launch-skip 1 --launch-count 1 build/clift bench -t cuda --runs 1 --size N=16777216 bench/gpu/filter.lift 2>&1 |
    grep -E "Duration|Registers Per|Shared Memory Config|Static Shared|Achieved Occupancy|Theoretical Occupancy|Memory Throughput|DRAM Throughput|Warp Cycles Per Issued|stalled" |
    cut -c1-160 | head -n 24
fi
echo "== end$(stamp), checks $([ $status = 0 ] && echo "all ok" || echo "FAILED (see above)")"
exit $status
