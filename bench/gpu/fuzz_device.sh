#!/usr/bin/env bash
# fuzz_device.sh — the compiler's libFuzzer target (tests/fuzz) on the many cores
# of a device machine: JOBS workers in parallel, each RUNS executions (or until
# SECONDS), from the seed corpus of tests/, examples/ and bench/. The fuzzer is
# built here (clang with libFuzzer) and carried in: the device machine has no
# clang. Findings (crash-*, leak-*, timeout-*, oom-*) and each worker's log go
# to $OUT; the last line is the total of executions and findings. Env:
# FUZZ_TIMEOUT (seconds an input may take, default 10), FUZZ_SEED_BASE (worker j
# fuzzes with seed BASE + j, default 0: give each run its own base), FUZZ_ASAN
# (more ASAN_OPTIONS, e.g. quarantine_size_mb=32:malloc_context_size=4: stop 28 saw
# 47-83 executions a second a worker on the device hosts against 270-470 here on one
# core; a worker's peak RSS is 339 MB with ASan's default quarantine, 118 MB with 8 MB,
# at the same speed here; untried there).
#   make fuzz && mkdir -p .carry && cp build-fuzz/fuzz_compile .carry/
#   (device run, carry .carry) bash bench/gpu/fuzz_device.sh .carry/fuzz_compile 16 625000 300
set -uo pipefail
cd "$(dirname "$0")/../.."
fuzzer=$1 jobs=${2:-16} runs=${3:-625000} seconds=${4:-300}
out=${OUT:-/tmp/fuzz_device}
work=$(mktemp -d)
mkdir -p "$out/findings" "$work/corpus"
bash tests/fuzz/make_corpus.sh "$work/seeds"
bash tests/fuzz/replay_seeds.sh "$fuzzer" "$work/seeds" "$work/seeds-clean" | tail -n 3
for j in $(seq 1 "$jobs"); do
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1${FUZZ_ASAN:+:$FUZZ_ASAN} \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$fuzzer" -dict=tests/fuzz/lift.dict -rss_limit_mb=2048 -timeout=${FUZZ_TIMEOUT:-10} -seed="$((${FUZZ_SEED_BASE:-0} + j))" \
      -runs="$runs" -max_total_time="$seconds" -print_final_stats=1 \
      -artifact_prefix="$out/findings/" "$work/corpus" "$work/seeds-clean" >"$work/job$j.log" 2>&1 &
done
wait
total=0
for j in $(seq 1 "$jobs"); do
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/job$j.log" | tail -n 1)
  [ -n "$n" ] || n=$(grep -oE '^#[0-9]+' "$work/job$j.log" | tail -n 1 | tr -d '#')
  echo "job $j: ${n:-0} executions"
  total=$((total + ${n:-0}))
done
tar czf "$out/fuzz_logs.tgz" -C "$work" $(cd "$work" && ls job*.log)
found=$(ls "$out/findings" | wc -l)
echo "fuzz on $(nproc) cores, $jobs workers: $total executions, $found findings"
ls "$out/findings"
# each finding's bytes in the output too: the device tool brings back a limited
# number of files, and the soak of f4ae0e0 lost its crash input that way
for f in "$out"/findings/*; do
  [ -f "$f" ] && echo "finding $(basename "$f") base64: $(head -c 65536 "$f" | base64 -w0)"
done
rm -rf "$work"
