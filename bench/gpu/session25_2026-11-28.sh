#!/usr/bin/env bash
# session25_2026-11-28.sh — fifteenth session's last device call (main after 8ab15a5):
# the OpenCL crash guard installed once (CLIFT_OCL_CRASH_TEST=1 inside a call: the
# internal error; 2 and 3 outside: the previous handler, NVIDIA's driver loaded),
# tests/regress and tests/tail on cuda and NVIDIA's OpenCL (F8's TAIL tests, F55's
# rows of extent 0, kernels over no work-item), and a host loop of 200,000 launches.
# Usage (device x1): bash bench/gpu/session25_2026-11-28.sh
cd "$(dirname "$0")/../.." || exit 1
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
echo "built at ${SECONDS} s"
for v in 1 2 3; do
  (env CLIFT_OCL_CRASH_TEST=$v build/clift run -t opencl tests/lift/twice.lift "[1, 2]" > /tmp/g$v.out 2>&1; exit $?) 2>/dev/null
  echo "CLIFT_OCL_CRASH_TEST=$v on NVIDIA OpenCL: exit $? $(head -c 160 /tmp/g$v.out)"
done
for t in cuda opencl; do
  timeout 150 build/clift test --strict -t $t tests/regress tests/tail > /tmp/t_$t.txt 2>&1
  echo "tests/regress + tests/tail on $t (exit $?): $(tail -n 1 /tmp/t_$t.txt)"; grep -E "^FAIL" /tmp/t_$t.txt | head -n 8
done
printf '(lift (N) ((array-type float N))\n  (lambda (xs) (iterate #200000 (lambda (ys) (mapGlb (lambda (y) (+ y 1.0f)) ys)) xs)))\n' > /tmp/it.lift
for i in 1 2 3; do /usr/bin/time -f "200,000 launches on NVIDIA OpenCL: %e s" build/clift run -t opencl /tmp/it.lift "[1.0, 2.0]" 2>&1 | tail -n 2 | paste -sd' '; done
echo "done at ${SECONDS} s"
