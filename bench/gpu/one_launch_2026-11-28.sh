#!/usr/bin/env bash
# one_launch_2026-11-28.sh — thirteenth session: a top-level reduce in one
# launch on cuda (dpia/last_group.c, CLIFT_REDUCE_ONE_LAUNCH; issue 14's asum
# goal), one H200, one call (~5 minutes):
#   1. checks: tests/lift, tests/regress, examples on cuda (every top-level reduce
#      among them now one launch); tests/lift/reduce_one_launch.lift's edges;
#      compute-sanitizer memcheck, racecheck and synccheck of asum at 2^20 + 3;
#      the random tester's top_reduce programs on c, opencl and cuda (DIFF_S s);
#   2. timings: asum, dot, sum at 2^24 and 2^27, cuda, CLIFT_REDUCE_ONE_LAUNCH=1
#      against =0 (the two kernels), alternating, three rounds of
#      `clift bench --runs 20` (the best median of each), opencl once (two kernels);
#   3. peers in the same call: the copy kernel of the same bytes (asum: 2^23 floats
#      a 2^24 sum; dot: 2^24), cublasSasum/Sdot, CUB's sum (peers.cu).
# Output: $OUT/output.txt (everything), $OUT/peers.log, $OUT/tests_cuda.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/one_launch}; mkdir -p "$O"
TMPD=$(mktemp -d /tmp/one_launch.XXXXXX)
c=build/clift
main() {
date -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
( timeout 170 nvcc -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o "$TMPD/peers" >"$TMPD/nvcc.log" 2>&1; echo $? >"$TMPD/nvcc.rc" ) &
make -s -j16 >&2 || { echo "build failed"; exit 1; }
echo "== 1. checks [${SECONDS}s]"
timeout 300 $c test -t cuda tests/lift tests/regress examples > "$O/tests_cuda.txt" 2>&1
echo "tests/lift, tests/regress, examples on cuda (exit $?): $(tail -n 1 "$O/tests_cuda.txt")"
grep -A3 '^FAIL' "$O/tests_cuda.txt" | head -n 20
$c test -t cuda tests/lift/reduce_one_launch.lift 2>&1 | tail -n 2
python3 - > "$TMPD/in.txt" <<'PY'
import random
random.seed(7)
print("[" + ", ".join("%.3f" % random.uniform(-2, 2) for _ in range((1 << 20) + 3)) + "]")
PY
for tool in memcheck racecheck synccheck; do
  echo "$tool: $(timeout 200 compute-sanitizer --tool $tool $c run -t cuda bench/gpu/asum.lift @"$TMPD/in.txt" 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -n 1)"
done
a=$($c run -t cuda bench/gpu/asum.lift @"$TMPD/in.txt" 2>&1); b=$($c run -t interp bench/gpu/asum.lift @"$TMPD/in.txt" 2>&1)
echo "asum of 2^20 + 3: cuda $a, interp $b"
if [ "${DIFF_S:-0}" -gt 0 ]; then
  timeout $((DIFF_S + 120)) python3 tests/difftest/difftest.py --seeds "${SEEDS:-4900000000}:4999999999" --clift $c --targets c,opencl,cuda \
    --only top_reduce --jobs 12 --budget "$DIFF_S" --keep "$TMPD/keep" > "$O/diff.txt" 2>&1
  grep -E 'programs in|^per target|passed' "$O/diff.txt" | tail -n 3; grep -E 'disagree|crash' "$O/diff.txt" | head -n 8
fi
echo "== 2. timings [${SECONDS}s]"
median() { sed -nE 's/.*median ([0-9.]+) ms.*/\1/p'; }
declare -A best
for round in 1 2 3; do
  for prog in asum dot sum; do
    for n in 16777216 134217728; do
      for one in 1 0; do
        m=$(CLIFT_REDUCE_ONE_LAUNCH=$one timeout 90 $c bench -t cuda --runs 20 --size N=$n bench/gpu/$prog.lift 2>&1 | median)
        k="$prog $n $one"
        echo "round $round cuda $k: ${m:-failed}"
        if [ -n "$m" ] && { [ -z "${best[$k]:-}" ] || awk -v a="$m" -v b="${best[$k]}" 'BEGIN{exit !(a<b)}'; }; then best[$k]=$m; fi
      done
    done
  done
done
for prog in asum dot sum; do
  for n in 16777216 134217728; do
    echo "opencl $prog $n: $(timeout 90 $c bench -t opencl --runs 20 --size N=$n bench/gpu/$prog.lift 2>&1 | median)"
  done
done
echo "== 3. peers [${SECONDS}s]"
while [ ! -s "$TMPD/nvcc.rc" ]; do sleep 1; done
[ "$(cat "$TMPD/nvcc.rc")" = 0 ] || tail -n 5 "$TMPD/nvcc.log"
timeout 120 "$TMPD/peers" asum dot sum copy_half > "$O/peers.log" 2>&1
grep -E "^peer|failure" "$O/peers.log"
echo "== best medians (ms): one launch | two kernels [${SECONDS}s]"
for prog in asum dot sum; do
  for n in 16777216 134217728; do
    echo "$prog N=$n: ${best[$prog $n 1]:-?} | ${best[$prog $n 0]:-?}"
  done
done
}
main 2>&1 | tee "$O/output.txt"
rm -rf "$TMPD"
