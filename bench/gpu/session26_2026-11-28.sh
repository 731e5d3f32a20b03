#!/usr/bin/env bash
# session26_2026-11-28.sh — sixteenth session: F59 (+ - * of ints through the
# unsigned type on every target), F60 (index copies closed under their inits),
# F61 (a reduce over a length bounded by 0), F62, on the GPU:
#   1. tests/regress, tests/tail, tests/lift on cuda and NVIDIA's OpenCL (this tree);
#   2. whether NVIDIA's OpenCL keeps ptxas's register lines under -w (nv_verbose_w.c);
#   3. the int programs whose kernels F59 changed, base (BASE_TGZ, a git archive of
#      the commit before) and new alternating ROUNDS times, `clift bench --runs RUNS`
#      on cuda and opencl; the median of each side's medians and new / base.
# Usage (device x1, carry .carry/base.tgz): bash bench/gpu/session26_2026-11-28.sh .carry/base.tgz
cd "$(dirname "$0")/../.." || exit 1
RUNS=${RUNS:-20} ROUNDS=${ROUNDS:-2}   # PROGS, SIZES (N values, default 2^26): the programs and sizes timed
mkdir -p /tmp/base && tar xzf "$1" -C /tmp/base
make -s -j16 > /tmp/build.log 2>&1 && make -s -C /tmp/base -j16 >> /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
echo "built at ${SECONDS} s"
for t in ${TEST_TARGETS-cuda opencl}; do
  timeout 200 build/clift test --strict -t $t tests/regress tests/tail tests/lift > /tmp/t_$t.txt 2>&1
  echo "tests/regress + tests/tail + tests/lift on $t (exit $?): $(tail -n 1 /tmp/t_$t.txt)"; grep -E "^FAIL" -A2 /tmp/t_$t.txt | head -n 12
done
cc -std=c11 -o /tmp/nvw bench/gpu/nv_verbose_w.c -lOpenCL && CUDA_CACHE_DISABLE=1 /tmp/nvw
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf "%-12s %-12s %-7s %10s %10s %7s\n" program size target base new ratio
for prog in ${PROGS-sum_int scan_int filter reverse_int}; do
  for n in ${SIZES:-67108864}; do
    for t in cuda opencl; do
      : > /tmp/b; : > /tmp/n
      for r in $(seq "$ROUNDS"); do
        for side in b n; do
          c=build/clift; [ $side = b ] && c=/tmp/base/build/clift
          timeout 120 $c bench -t $t --size N=$n --runs "$RUNS" --seed 7 bench/gpu/$prog.lift </dev/null 2>>/tmp/bench_err.log |
            sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' >> /tmp/$side
        done
      done
      b=$(median < /tmp/b); nn=$(median < /tmp/n)
      printf "%-12s %-12s %-7s %10s %10s %7s\n" $prog $n $t "${b:--}" "${nn:--}" \
        "$(awk -v b="$b" -v n="$nn" 'BEGIN { if (b > 0 && n > 0) printf "%.3f", n / b; else print "-" }')"
    done
  done
done
head -c 1500 /tmp/bench_err.log
echo "done at ${SECONDS} s"
# NOREGS=1: a build on NVIDIA's OpenCL keeps ptxas's register lines under -w:
# the runtime caches such a log as KEY.nvlog (opencl_device.c saved_log)
if [ "${NOREGS:-0}" = 1 ]; then
  export CUDA_CACHE_DISABLE=1   # else the driver's cache serves the build: no ptxas, no register lines
  c=$(mktemp -d)
  XDG_CACHE_HOME=$c build/clift run -t opencl tests/lift/twice.lift "[1, 2]"
  echo "register logs kept with this build: $(find "$c" -name '*.nvlog' | wc -l) ($(cat "$c"/*/*.nvlog "$c"/*.nvlog 2>/dev/null | grep -m1 -o 'Used [0-9]* registers'))"
  c=$(mktemp -d)
  XDG_CACHE_HOME=$c /tmp/base/build/clift run -t opencl tests/lift/twice.lift "[1, 2]"
  echo "register logs kept with the base build: $(find "$c" -name '*.nvlog' | wc -l)"
fi
