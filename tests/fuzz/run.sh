#!/usr/bin/env bash
# run.sh — a short fuzz of the compiler for the test suite (tests/fuzz/README.md):
#   1. build build-fuzz/fuzz_compile and the seed corpus (build-fuzz/seeds),
#   2. run every seed alone: one test each, a crashing seed is a failure,
#   3. fuzz for $FUZZ_SECONDS seconds (default 60) from the clean seeds and the
#      inputs earlier runs kept (build-fuzz/corpus): one test, failed on a
#      crash, leak, timeout, memory limit or sanitizer report, whose input is
#      saved in build-fuzz/findings/ (FUZZ_SECONDS=0: the seeds only).
# Prints "N passed, N failed". Where clang's libFuzzer is missing (and
# scripts/setup.sh could not install it) everything is skipped: "0 passed, 0 failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${FUZZ_SECONDS:-60}
out=build-fuzz
findings=$out/findings

if ! bash tests/fuzz/have_libfuzzer.sh; then
  echo "SKIP fuzz: ${FUZZ_CC:-clang} cannot build a libFuzzer target here (scripts/setup.sh installs clang, libclang-rt-*-dev)"
  echo "0 passed, 0 failed"
  exit 0
fi
if ! make -s -j"$(nproc)" fuzz >&2; then
  echo "FAIL fuzz: make fuzz did not build $out/fuzz_compile"
  echo "0 passed, 1 failed"
  exit 1
fi
bash tests/fuzz/make_corpus.sh "$out/seeds"
seeds=$(bash tests/fuzz/replay_seeds.sh "$out/fuzz_compile" "$out/seeds" "$out/seeds-clean")
grep -v -E '^[0-9]+ passed, [0-9]+ failed' <<<"$seeds"
pass=$(sed -n -E 's/^([0-9]+) passed, ([0-9]+) failed.*/\1/p' <<<"$seeds")
fail=$(sed -n -E 's/^([0-9]+) passed, ([0-9]+) failed.*/\2/p' <<<"$seeds")
echo "fuzz seeds: ${pass:-0} run clean, ${fail:-0} crash (each seed alone through every generator)"
pass=${pass:-0} fail=${fail:-1}

if ! [ "$seconds" -gt 0 ] 2>/dev/null; then   # libFuzzer reads -max_total_time=0 as "no limit"
  echo "fuzz: FUZZ_SECONDS=$seconds, seeds only"
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]; exit
fi
mkdir -p "$findings" "$out/corpus"
before=$(ls "$findings" | wc -l)
# Leaks are findings here (the suite turns them off for the compiler itself).
log=$out/last_run.log
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$out/fuzz_compile" -dict=tests/fuzz/lift.dict -max_total_time="$seconds" \
    -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$out/corpus" "$out/seeds-clean" >"$log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
after=$(ls "$findings" | wc -l)

if [ "$rc" -eq 0 ] && [ "$after" -eq "$before" ]; then
  echo "PASS fuzz: ${runs:-?} executions in ${seconds} s (${speed:-?}/s), no finding"
  pass=$((pass + 1))
else
  # A finding: the sanitizer's report (less libFuzzer's own frames) and its input.
  sed -n '/==[0-9]*== *ERROR\|runtime error:\|ALARM\|out-of-memory/,/^SUMMARY/p' "$log" |
    grep -v ' in fuzzer::\| in __libc_\| in _start\| in main ' | head -n 40
  for f in $(ls -t "$findings" | head -n $((after - before))); do
    echo "FAIL fuzz: finding saved in $findings/$f (reproduce: $out/fuzz_compile $findings/$f)"
  done
  [ "$after" -gt "$before" ] || echo "FAIL fuzz: libFuzzer exited with status $rc (log: $log)"
  echo "fuzz: ${runs:-?} executions before the finding (log: $log)"
  fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
