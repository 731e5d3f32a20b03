#!/usr/bin/env bash
# long.sh — the long fuzz of the compiler (tests/fuzz/README.md): one worker at
# low priority, in chunks of $FUZZ_CHUNK seconds (default 3000) until
# $FUZZ_RUNS executions in all (default 10^7). A chunk that ends on a finding
# (crash, leak, timeout, memory limit) leaves its input in DIR/findings/ and the
# next chunk goes on, so one finding does not stop the search for others.
# Everything lives in DIR (default build-fuzz/long): a copy of the fuzzer (so
# that `make fuzz` may rebuild meanwhile), the seeds (those that crash alone
# are findings, logged once per start and left out of the corpus: libFuzzer
# stops at the first crash), its corpus, findings, and log.txt with one line
# per chunk and the running total of executions.
#   nohup bash tests/fuzz/long.sh >/dev/null 2>&1 &
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build-fuzz/long}
goal=${FUZZ_RUNS:-10000000}
chunk=${FUZZ_CHUNK:-3000}
nice -n 15 make -s fuzz >&2 || exit 1
mkdir -p "$dir/corpus" "$dir/findings"
cp build-fuzz/fuzz_compile "$dir/fuzz_compile"
log=$dir/log.txt
total=$(grep -o 'total=[0-9]*' "$log" 2>/dev/null | tail -n 1 | cut -d= -f2)
total=${total:-0}
dict=$PWD/tests/fuzz/lift.dict
echo "$(date -u +%FT%TZ) start pid=$$ total=$total goal=$goal" >>"$log"
bash tests/fuzz/make_corpus.sh "$dir/seeds"
nice -n 15 bash tests/fuzz/replay_seeds.sh "$dir/fuzz_compile" "$dir/seeds" "$dir/seeds-clean" |
  sed -n "s/^FAIL /$(date -u +%FT%TZ) FINDING (seed) /p" >>"$log"
# Every chunk reads its whole corpus before it mutates (at 20-30 inputs a second
# under load, 6,000 inputs were 4 minutes of each chunk): a corpus grown past
# $FUZZ_MERGE_ABOVE inputs (default 3000) is merged first (-merge=1: the same
# coverage from fewer inputs; 6,145 became 2,624 on 2026-11-28). Its executions
# are not counted; where the merge fails the corpus stays as it was.
n=$(find "$dir/corpus" -type f | wc -l)
if [ "$n" -gt "${FUZZ_MERGE_ABOVE:-3000}" ]; then
  rm -rf "$dir/corpus.merged" && mkdir -p "$dir/corpus.merged"
  if ASAN_OPTIONS=detect_leaks=0 nice -n 15 "$dir/fuzz_compile" -merge=1 -rss_limit_mb=2048 -timeout=10 \
       "$dir/corpus.merged" "$dir/corpus" >"$dir/merge.log" 2>&1; then
    rm -rf "$dir/corpus" && mv "$dir/corpus.merged" "$dir/corpus"
    echo "$(date -u +%FT%TZ) merged the corpus: $n -> $(find "$dir/corpus" -type f | wc -l) inputs" >>"$log"
  else
    rm -rf "$dir/corpus.merged"
  fi
fi
while [ "$total" -lt "$goal" ]; do
  left=$((goal - total))
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    nice -n 15 "$dir/fuzz_compile" -dict="$dict" -rss_limit_mb=2048 -timeout=10 \
      -max_total_time="$chunk" -runs="$left" -print_final_stats=1 \
      -artifact_prefix="$dir/findings/" "$dir/corpus" "$dir/seeds-clean" >"$dir/chunk.log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/chunk.log" | tail -n 1)
  # no final stats (killed by a signal): count the last progress line
  [ -n "$runs" ] || runs=$(grep -oE '^#[0-9]+' "$dir/chunk.log" | tail -n 1 | tr -d '#')
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/chunk.log" | tail -n 1)
  total=$((total + ${runs:-0}))
  line="$(date -u +%FT%TZ) chunk runs=${runs:-0} exec/s=${speed:-?} rc=$rc total=$total"
  if [ "$rc" -ne 0 ]; then
    cp "$dir/chunk.log" "$dir/findings/chunk-$(date -u +%Y%m%dT%H%M%S).log"
    found=$(grep -oE "(crash|leak|timeout|oom|slow-unit)-[0-9a-f]{40}" "$dir/chunk.log" | tail -n 1)
    line="$line FINDING $found"
    # an input of the corpus itself (a newer fuzzer after a restart): keep it
    # with the findings, or every later chunk would stop on it at once
    sha=${found#*-}
    [ -n "$found" ] && [ -f "$dir/corpus/$sha" ] && mv "$dir/corpus/$sha" "$dir/findings/corpus-$sha"
  fi
  echo "$line" >>"$log"
  [ "${runs:-0}" -gt 0 ] || break   # nothing ran (a seed that crashes at once?): stop
done
echo "$(date -u +%FT%TZ) done total=$total" >>"$log"
