#!/usr/bin/env bash
# replay_seeds.sh FUZZER SEEDS CLEAN — run every seed program of SEEDS alone
# through the fuzz target FUZZER. A seed that crashes (or leaks, hangs, trips a
# sanitizer) is a finding like any other: one "FAIL" line with the report's
# summary. The seeds that run clean are copied into CLEAN (emptied first), the
# corpus a fuzz run starts from: libFuzzer stops at the first crash, so one
# crashing seed would otherwise stop all fuzzing. Ends with "N passed, N failed".
set -uo pipefail
fuzzer=$1 seeds=$2 clean=$3
mkdir -p "$clean"
find "$clean" -maxdepth 1 -type f -delete
pass=0 fail=0
log=$(mktemp)
for f in "$seeds"/*; do
  [ -f "$f" ] || continue
  if ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
       "$fuzzer" -rss_limit_mb=2048 -timeout=10 "$f" >"$log" 2>&1; then
    cp "$f" "$clean/"
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    why=$(grep -m1 -E '^SUMMARY|ERROR: libFuzzer' "$log" || tail -n 1 "$log")
    echo "FAIL fuzz seed $f: $why (reproduce: $fuzzer $f)"
  fi
done
rm -f "$log"
echo "$pass passed, $fail failed"
