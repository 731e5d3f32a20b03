#!/usr/bin/env bash
# compare_builds.sh BASE_TGZ — one device call that checks a back-end change
# against the commit before it (issue 10: "no benchmark slower", behaviour
# unchanged), on the GPU machine:
#   1. builds this tree and the base (a `git archive` tarball carried in),
#   2. every language test on cuda and opencl with this build,
#   3. the random differential tester on the iterate programs (host loops), every target,
#   4. `clift bench --runs RUNS` of every bench/gpu program at its first full size,
#      base and new alternating ROUNDS times, -t cuda and -t opencl; prints the
#      median of each side's medians and their ratio (new / base).
# Usage (device run, carry .carry):  bash bench/gpu/compare_builds.sh .carry/base.tgz
# Env: RUNS (default 30), ROUNDS (default 3), DIFF_BUDGET (default 90 s), CHECKS=0 (skip
# steps 2 and 3: timings only), PROGS="scal asum …" (those bench/gpu programs only; default
# every one), ALL_SIZES=1 (every full size of run.sh's table, not only the first).
# Issue 14's "no benchmark slower than today" (the commit the issue was filed at):
#   git archive a71f4d3 | gzip > .carry/base.tgz, then on an H200:
#   CHECKS=0 ALL_SIZES=1 PROGS="scal asum dot gemv sum transpose jacobi sgemm sgemm_naive" \
#     bash bench/gpu/compare_builds.sh .carry/base.tgz
set -uo pipefail
cd "$(dirname "$0")/../.."
base_tgz=$1
RUNS=${RUNS:-30} ROUNDS=${ROUNDS:-3}
out=${OUT:-/tmp/compare_builds}
mkdir -p "$out" /tmp/base
tar xzf "$base_tgz" -C /tmp/base
make -s -j"$(nproc)" >&2 && make -s -C /tmp/base -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
if [ "${CHECKS:-1}" != 0 ]; then
echo "== language tests, cuda and opencl (this build)"
build/clift test -t cuda,opencl tests/lift tests/regress tests/codegen examples >"$out/tests.log" 2>&1
grep -E "^FAIL" -A2 "$out/tests.log" | head -40; tail -n 1 "$out/tests.log"
echo "== difftest, iterate programs, every target"
python3 tests/difftest/difftest.py --clift build/clift --seeds 6000000:6100000 --only iterate \
  --budget "${DIFF_BUDGET:-90}" --jobs "$(nproc)" --keep "$out/keep" >"$out/difftest.log" 2>&1
tail -n 6 "$out/difftest.log"
fi
echo "== timings: median of $ROUNDS rounds of clift bench --runs $RUNS (ms), base vs new"
sizes() {   # one size set a line: the first is the default, ALL_SIZES=1 takes every one
  case $1 in
    scal|asum|dot) printf '%s\n' "--size N=16777216" "--size N=134217728" ;;
    sum) printf '%s\n' "--size N=134217728" ;;
    gemv) printf '%s\n' "--size N=4096 --size M=4096" "--size N=8192 --size M=8192" ;;
    transpose) printf '%s\n' "--size N=8192 --size M=8192" ;;
    jacobi) printf '%s\n' "--size N=4096 --size M=4096" ;;
    sgemm*) printf '%s\n' "--size N=4096" ;;
    *) echo "" ;;
  esac | if [ "${ALL_SIZES:-0}" = 1 ]; then cat; else head -n 1; fi
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf "%-12s %-30s %-7s %10s %10s %7s\n" program sizes target base new ratio
progs=${PROGS:-$(for f in bench/gpu/*.lift; do basename "$f" .lift; done)}
for prog in $progs; do
  f=bench/gpu/$prog.lift
  sizes "$prog" | while read -r sz; do
  for t in cuda opencl; do
    : >"$out/b" ; : >"$out/n"
    for r in $(seq "$ROUNDS"); do
      for side in b n; do
        c=build/clift; [ $side = b ] && c=/tmp/base/build/clift
        timeout 120 $c bench -t $t $sz --runs "$RUNS" --seed 7 "$f" </dev/null 2>>"$out/bench_err.log" |
          sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' >>"$out/$side"
      done
    done
    b=$(median <"$out/b"); n=$(median <"$out/n")
    ratio=$(awk -v b="$b" -v n="$n" 'BEGIN { if (b > 0 && n > 0) printf "%.3f", n / b; else print "-" }')
    printf "%-12s %-30s %-7s %10s %10s %7s\n" "$prog" "${sz:--}" "$t" "${b:--}" "${n:--}" "$ratio"
  done
  done
done | tee "$out/timings.txt"
tar czf "$out/keep.tgz" -C "$out" keep 2>/dev/null; rm -rf "$out/keep" "$out/b" "$out/n"
