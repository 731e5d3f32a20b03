#!/usr/bin/env bash
# run.sh — a short fuzz of the compiler for the test suite (tests/fuzz/README.md):
# build build-fuzz/fuzz_compile, rebuild the seed corpus, fuzz for
# $FUZZ_SECONDS seconds (default 60) and print "N passed, N failed": 1 passed
# when the run ends with no finding, 1 failed on a crash, leak, timeout, memory
# limit or sanitizer report, whose input is saved in build-fuzz/findings/.
# Where clang's libFuzzer is missing (and scripts/setup.sh could not install
# it) the fuzz is skipped: "0 passed, 0 failed".
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
bash tests/fuzz/make_corpus.sh "$out/corpus"
mkdir -p "$findings"
before=$(ls "$findings" | wc -l)

# Leaks are findings here (the suite turns them off for the compiler itself).
log=$out/last_run.log
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$out/fuzz_compile" -dict=tests/fuzz/lift.dict -max_total_time="$seconds" \
    -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$out/corpus" >"$log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
after=$(ls "$findings" | wc -l)

if [ "$rc" -eq 0 ] && [ "$after" -eq "$before" ]; then
  echo "PASS fuzz: ${runs:-?} executions in ${seconds} s (${speed:-?}/s), no finding"
  echo "1 passed, 0 failed"
  exit 0
fi
# A finding: show the report (the sanitizer's stack) and where its input is.
sed -n '/==[0-9]*== *ERROR\|runtime error:\|ALARM\|out-of-memory/,/^SUMMARY/p' "$log" | grep -v ' in fuzzer::\| in __libc_\| in _start\| in main ' | head -n 40
for f in $(ls -t "$findings" | head -n $((after - before))); do
  echo "FAIL fuzz: finding saved in $findings/$f (reproduce: $out/fuzz_compile $findings/$f)"
done
[ "$after" -gt "$before" ] || echo "FAIL fuzz: libFuzzer exited with status $rc (log: $log)"
echo "0 passed, 1 failed"
exit 1
