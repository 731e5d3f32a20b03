#!/usr/bin/env bash
# session21_2026-11-28.sh — issue 9's soak of the frozen 505821e (the ninth
# session's last code: F43's fix, host loops under an if, the cubin cache) on
# one H100 host (16 cores: stop 26 measured ~32 tester programs a second and
# ~13,000 fuzz executions a second there, against the x4's 20-30 and 2,800
# with every core of it counted), and the GPU checks the ninth session could
# not run after its last changes:
#   1. tests/regress on cuda and NVIDIA's OpenCL (F43, host_loop_under_if and
#      every other regression test against the interpreter), beside the fuzzer;
#   2. the cubin cache: one program run twice on cuda with an empty cache
#      (XDG_CACHE_HOME), the second run's time and the cache's files; NVIDIA's
#      build log kept as KEY.nvlog;
#   3. the fuzzer (FUZZ_JOBS workers, FUZZ_S seconds), then the differential
#      tester (PROCS testers, JOBS jobs, ROTATE, DIFF_S seconds).
# Usage (device x1, carry .carry/frozen12 .carry/fuzz12):
#   CHECKS=1 SEEDS=3100000000: FUZZ_BASE=100000 FUZZ_S=200 DIFF_S=240 bash bench/gpu/session21_2026-11-28.sh
cd "$(dirname "$0")/../.." || exit 1
O=${OUT:-/tmp/s21}; mkdir -p "$O/diff"; F=.carry/frozen12; C=$F/build/clift
make -s -C $F -j16 > "$O/build.log" 2>&1 || { echo "frozen build failed"; tail "$O/build.log"; exit 1; }
echo "built at ${SECONDS} s, commit 505821e"
if [ "${CHECKS:-0}" = 1 ]; then
  ( for t in cuda opencl; do
      timeout 300 $C test -t $t tests/regress/*.lift > "$O/regress_$t.txt" 2>&1
      echo "regress $t (exit $?): $(tail -n 1 "$O/regress_$t.txt")"; grep -E "FAIL|error" "$O/regress_$t.txt" | head -n 8
    done > "$O/checks.txt"
    K=$(mktemp -d)
    for i in 1 2; do
      s=$(date +%s.%N); XDG_CACHE_HOME=$K timeout 120 $C run -t cuda examples/dot.lift '[1, 2, 3]' '[4, 5, 6]' > "$O/cache_run$i.txt" 2>&1
      echo "cache cuda run $i: exit $? $(python3 -c "print(round($(date +%s.%N)-$s,2))") s" >> "$O/checks.txt"
    done
    for i in 1 2; do
      XDG_CACHE_HOME=$K timeout 120 $C run -t opencl examples/dot.lift '[1, 2, 3]' '[4, 5, 6]' > "$O/cache_ocl$i.txt" 2>&1
      echo "cache opencl run $i: exit $?" >> "$O/checks.txt"
    done
    echo "cache files: $(cd $K/clift 2>/dev/null && ls | sed 's/^[0-9a-f]*//' | sort | uniq -c | tr '\n' ' ')" >> "$O/checks.txt"
    cmp -s "$O/cache_run1.txt" "$O/cache_run2.txt" && echo "cuda runs 1 and 2 print the same" >> "$O/checks.txt"
    rm -rf "$K" ) &
  checks=$!
fi
FUZZ_SEED_BASE=${FUZZ_BASE:-100000} OUT=$O/fuzz bash bench/gpu/fuzz_device.sh .carry/fuzz12/fuzz_compile "${FUZZ_JOBS:-15}" 100000000 "${FUZZ_S:-200}" > "$O/fuzz_summary.txt" 2>&1
echo "fuzz done at ${SECONDS} s"
[ -n "${checks:-}" ] && { wait $checks; cat "$O/checks.txt"; }
CLIFT_BIN=$C PROCS=${PROCS:-2} JOBS=${JOBS:-16} OUT=$O/diff \
  timeout $(( ${DIFF_S:-240} + 60 )) bash bench/gpu/difftest_device.sh "${SEEDS:-3100000000:}" "${DIFF_S:-240}" "${ROTATE:-4}" > "$O/diff_summary.txt" 2>&1
echo "difftest done at ${SECONDS} s (exit $?)"
grep -E 'programs in|seconds per run|per target|^[0-9]+ passed|^all ' "$O/diff_summary.txt" | tail -n 20
grep -A4 -i 'refusals:' "$O/diff_summary.txt" | head -n 12
grep -iE 'FAIL|disagree|crash' "$O/diff_summary.txt" | head -n 20
echo "fuzz (last, so that a cut output keeps it):"; grep -v '^finding ' "$O/fuzz_summary.txt" | tail -n 3; grep '^finding ' "$O/fuzz_summary.txt"
