#!/usr/bin/env bash
# segv_ocl2_2026-11-28.sh — segv_ocl: each tests/regress file alone passes on
# NVIDIA's OpenCL, all of them in one `clift test` process died of SIGSEGV.
#   1. the whole set in one process, -v, line-buffered, RUNS times: exit status and
#      the last lines before the crash;
#   2. the same under the frozen build's ASan/UBSan copy (make SAN=1): the report.
# Usage (device, carry .carry/frozen13): bash bench/gpu/segv_ocl2_2026-11-28.sh
cd "$(dirname "$0")/../.." || exit 1
O=${OUT:-/tmp/segv2}; mkdir -p "$O"; F=.carry/frozen13; C=$F/build/clift
make -s -C $F -j16 > "$O/build.log" 2>&1 || { echo "frozen build failed"; exit 1; }
( make -s -C $F SAN=1 -j12 > "$O/build_san.log" 2>&1; echo $? > "$O/san.rc" ) &
for r in $(seq 1 "${RUNS:-2}"); do
  stdbuf -oL -eL timeout 300 $C test -v -t opencl tests/regress/*.lift > "$O/run$r.txt" 2>&1; rc=$?
  echo "run $r: exit $rc at ${SECONDS} s, $(grep -c . "$O/run$r.txt") lines; last:"; tail -n 4 "$O/run$r.txt"
done
wait
echo "san build: $(cat "$O/san.rc")"
ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  stdbuf -oL -eL timeout 400 $F/build-san/clift test -v -t opencl tests/regress/*.lift > "$O/san.txt" 2>&1
echo "san run: exit $? at ${SECONDS} s"
grep -n -m1 -B3 -A40 "ERROR: AddressSanitizer\|runtime error\|SEGV" "$O/san.txt" | head -n 70
tail -n 3 "$O/san.txt"
