#!/usr/bin/env bash
# (2026-11-27: measured at 4952401, the merge of branch lb2; the blocked path was
# slower than the old one and that merge is reverted: this script needs that tree.)
# lb2_2026-11-27.sh — issue 11 item 10, second step: cuda's one-pass filter and
# scan with each warp's elements in registers, blocked (dpia/lookback.c
# lb_blocked_*; docs/design.md §11). One device call, under 3 minutes:
#   0. builds this tree (new: the blocked default), main as it was before
#      (old: this tree with -DCLIFT_LB_BLOCKED=0 -DCLIFT_LOOP_BARRIER_COVERED=0,
#      whose cuda code for the four bench programs is byte for byte main's at
#      25f4734) and two variants:
#      `direct` (-DCLIFT_LB_DIRECT=1: outputs from the registers straight to
#      global memory, no exchange through the warp's slice) and `lb5`
#      (-DCLIFT_LB_MIN_BLOCKS=5: __launch_bounds__(256, 5) on the pass: 48
#      registers and 5 groups a multiprocessor, with 44 (filter) and 8 (scan)
#      bytes of spills, where the default's 64 and 56 allow 4 groups; ptxas
#      sm_90, 32-bit indices) and `i11` (-DCLIFT_LB_ITEMS=11: tiles of 2816,
#      55 and 48 registers); CUB's peers in the background;
#   1. new on cuda against the interpreter: filter, filter_1pct, scan_int
#      (exact) at 1, 3839, 3841, 262144 and 3·10^6 elements, the float scan at
#      262144 (tolerance 5e-2, its sums drift with the order); direct and lb5
#      at 3841 and 3·10^6, i11 at 2817 and 3·10^6; sum, asum and dot at 2^20
#      (barrier.c's change drops a barrier from the reductions' loops over
#      chunks too);
#   2. compute-sanitizer racecheck and synccheck of new's filter at 65537 elements;
#   3. times new, old, direct, lb5 and i11 at 2^27 (clift bench --runs 20, one round):
#      filter, filter_1pct, scan; then CUB (bench/gpu/peers.cu filter scan);
#   4. in the time left (to 176 s), the language tests whose cuda code has the pass.
# Usage (device run, nothing to carry):
#   mkdir -p $OUT && bash bench/gpu/lb2_2026-11-27.sh 2>&1 | tee $OUT/output.txt
# BIG and RUNS (defaults 134217728 and 20) change the timed size and runs.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/lb2_out}
mkdir -p "$OUT"
T0=$(date +%s)
elapsed() { echo $(( $(date +%s) - T0 )); }
stamp() { echo "   [$(elapsed) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
( $NVCC -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o /tmp/lb2_peers >/tmp/lb2_nvcc.log 2>&1; echo $? >/tmp/lb2_nvcc.rc ) &
nvcc_pid=$!
for v in old direct lb5 i11; do rm -rf /tmp/lb2_$v && mkdir -p /tmp/lb2_$v && cp -r src Makefile /tmp/lb2_$v/; done
make -s -j8 >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -n 20 "$OUT/build.log"; exit 1; } &
p1=$!
make -s -C /tmp/lb2_old -j4 CC="cc -DCLIFT_LB_BLOCKED=0 -DCLIFT_LOOP_BARRIER_COVERED=0" >/tmp/lb2_old.log 2>&1 &
p2=$!
make -s -C /tmp/lb2_direct -j4 CC="cc -DCLIFT_LB_DIRECT=1" >/tmp/lb2_direct.log 2>&1 &
p3=$!
make -s -C /tmp/lb2_lb5 -j4 CC="cc -DCLIFT_LB_MIN_BLOCKS=5" >/tmp/lb2_lb5.log 2>&1 &
p4=$!
make -s -C /tmp/lb2_i11 -j4 CC="cc -DCLIFT_LB_ITEMS=11" >/tmp/lb2_i11.log 2>&1 &
p5=$!
wait $p1 || exit 1
wait $p2 || echo "old: no build ($(tail -n 3 /tmp/lb2_old.log))"
wait $p3 || echo "direct: no build ($(tail -n 3 /tmp/lb2_direct.log))"
wait $p4 || echo "lb5: no build ($(tail -n 3 /tmp/lb2_lb5.log))"
wait $p5 || echo "i11: no build ($(tail -n 3 /tmp/lb2_i11.log))"
clift() { if [ "$1" = new ]; then echo build/clift; else echo /tmp/lb2_$1/build/clift; fi; }
echo "== 0. builds done$(stamp)"

status=0
hung=" "   # builds where a run timed out: a hang in the look-back would cost every later step its timeout
check() {  # check BUILD NAME COMMAND…: one line, ok or FAIL (the output's tail for failures)
  local key=$1 name=$2 rc; shift 2
  case "$hung" in *" $key "*) echo "skip $name ($key timed out before)"; return ;; esac
  timeout 30 "$@" >/tmp/lb2_check.log 2>&1; rc=$?
  if [ $rc = 0 ]; then echo "ok   $name"; return; fi
  echo "FAIL $name (exit $rc): $(tail -n 2 /tmp/lb2_check.log | cut -c1-300)"; status=1
  [ $rc = 124 ] && hung="$hung$key "
}
tol() { case $1 in scan_int) echo 0 ;; *) echo 1e-4 ;; esac; }
echo "== 1. checks against the interpreter (cuda)"
for p in filter filter_1pct scan_int; do
  for n in 1 3839 3841 262144 3000000; do
    check new "new $p N=$n" build/clift bench -t cuda --check --tolerance "$(tol $p)" --runs 1 --size N=$n bench/gpu/$p.lift
  done
done
check new "new scan N=262144" build/clift bench -t cuda --check --tolerance 5e-2 --runs 1 --size N=262144 bench/gpu/scan.lift
# barrier.c's change (a loop's closing barrier dropped where its own barriers
# separate the steps) reaches the tree reductions' loops over chunks too
for p in sum asum dot; do
  check new "new $p N=1048576 (reduction)" build/clift bench -t cuda --check --tolerance 5e-2 --runs 1 --size N=1048576 bench/gpu/$p.lift
done
for v in direct lb5 i11; do
  for p in filter filter_1pct scan_int; do
    for n in $([ $v = i11 ] && echo 2817 || echo 3841) 3000000; do
      check $v "$v $p N=$n" "$(clift $v)" bench -t cuda --check --tolerance "$(tol $p)" --runs 1 --size N=$n bench/gpu/$p.lift
    done
  done
done
echo "== 1. done$(stamp)"

echo "== 2. compute-sanitizer racecheck, synccheck (cuda, new)"
check new "racecheck filter N=65537" /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 3 \
  build/clift bench -t cuda --size N=65537 --runs 1 bench/gpu/filter.lift
check new "synccheck filter N=65537 (the __syncwarp()s)" /usr/local/cuda/bin/compute-sanitizer --tool synccheck --error-exitcode 3 \
  build/clift bench -t cuda --size N=65537 --runs 1 bench/gpu/filter.lift
# the barrier.c change (a loop's closing barrier dropped where its own barriers
# separate the steps) reaches every tree reduction: racecheck those too
for p in sum dot; do
  check new "racecheck $p N=65537 (tree reduction, barrier.c)" /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 3 \
    build/clift bench -t cuda --size N=65537 --runs 1 bench/gpu/$p.lift
done
check new "racecheck sgemm_tiled N=128 (work-group loops with barriers)" /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 3 \
  build/clift bench -t cuda --size N=128 --runs 1 bench/gpu/sgemm_tiled.lift
echo "== 2. done$(stamp)"

BIG=${BIG:-134217728} RUNS=${RUNS:-20}
echo "== 3. timings at N=$BIG (ms, median of clift bench --runs $RUNS; one round)"
median() {   # median BUILD PROGRAM: ms, or "-" where that build hung before, "late" past 150 s
  case "$hung" in *" $1 "*) echo -; return ;; esac
  [ "$(elapsed)" -gt 150 ] && { echo late; return; }
  timeout 25 "$(clift $1)" bench -t cuda --runs $RUNS --size N=$BIG bench/gpu/$2.lift 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p'; }
for p in filter filter_1pct scan; do
  line="cuda $p:"
  for v in new old direct lb5 i11; do line="$line $v=$(median $v $p)"; done
  echo "$line"
done
echo "== 3. done$(stamp)"
echo "== peers (CUB)"
while kill -0 $nvcc_pid 2>/dev/null && [ "$(elapsed)" -lt 160 ]; do sleep 1; done
if kill -0 $nvcc_pid 2>/dev/null; then echo "peers.cu still compiling at $(elapsed) s: no CUB timings"
elif [ "$(cat /tmp/lb2_nvcc.rc)" = 0 ]; then timeout $(( 178 - $(elapsed) > 5 ? 178 - $(elapsed) : 5 )) /tmp/lb2_peers filter scan 2>&1 | grep -E "^peer" | head -n 12
else echo "peers.cu did not build:"; tail -n 3 /tmp/lb2_nvcc.log; fi
echo "== 4. the language tests whose cuda code has the pass (new), in the time left"
left=$(( 176 - $(elapsed) ))
case "$hung" in *" new "*) echo "skipped (new timed out)" ;;
  *) onepass="tests/lift/filter_chain.lift tests/lift/filter_compose.lift tests/lift/filter_glb.lift tests/lift/filter_if.lift
       tests/lift/filter_length.lift tests/lift/filter_reduce.lift tests/lift/filter_top.lift tests/lift/filter_top_chain.lift
       tests/lift/scan_top.lift tests/lift/scan_top_max.lift tests/regress/filter_map_mentions.lift
       tests/regress/filter_reads_kept.lift tests/regress/lookback_*.lift examples/euler/007.lift examples/euler/010.lift"
     [ $left -lt 10 ] && { echo "skipped: $(elapsed) s so far"; left=0; }
     [ $left = 0 ] || timeout $left build/clift test -t cuda $onepass >"$OUT/tests.log" 2>&1
     grep -E "^FAIL" -A3 "$OUT/tests.log" 2>/dev/null | head -n 20; grep -qE "^FAIL" "$OUT/tests.log" 2>/dev/null && status=1
     [ $left = 0 ] || echo "one-pass tests on cuda: $(tail -n 1 "$OUT/tests.log") (timeout ${left} s)" ;;
esac
echo "== end$(stamp), checks $([ $status = 0 ] && echo "all ok" || echo "FAILED (see above)")"
exit $status
