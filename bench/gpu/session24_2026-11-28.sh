#!/usr/bin/env bash
# session24_2026-11-28.sh — eleventh session: why a fuzz worker makes 47-83
# executions a second on the device hosts against ~620 here on one core
# (fuzz13, 60 s, seeds only), then issue 9's soak of the frozen 08946c3
# (.carry/frozen13, .carry/fuzz13) and its GPU checks:
#   0. the host: nproc, the cgroup's CPU limit, the CPU model, /tmp's file system;
#   1. PROBE=1: one fuzz worker alone for PROBE_S seconds, then PROBE_J workers for
#      PROBE_S seconds (the same seeds): executions a second each;
#   2. CHECKS=1 (beside 3): tests/regress on cuda and NVIDIA's OpenCL with the frozen build
#      (the branch-free filter store's programs among them: never run on a GPU);
#   3. the fuzzer (FUZZ_JOBS workers, FUZZ_S seconds) and the differential tester
#      (PROCS testers, JOBS jobs, ROTATE, DIFF_S seconds), side by side when
#      TOGETHER=1, else one after the other.
# FROZEN (default .carry/frozen13) and FUZZER (.carry/fuzz13/fuzz_compile): the
# frozen tree and its fuzzer; ALL_OCL=1 with CHECKS=1: tests/regress, tests/lift and
# examples in one process on NVIDIA's OpenCL (F45).
# The diff timeout leaves 150 s past DIFF_S (a tester ends its batches in flight);
# everything but the summaries comes back in $OUT/bundle.tgz.
# Usage (device x1, carry .carry/frozen13 .carry/fuzz13):
#   PROBE=1 PROBE_S=20 PROBE_J=15 CHECKS=1 FUZZ_S=0 DIFF_S=0 bash bench/gpu/session24_2026-11-28.sh
cd "$(dirname "$0")/../.." || exit 1
O=${OUT:-/tmp/s24}; mkdir -p "$O/diff"; F=${FROZEN:-.carry/frozen13}; C=$F/build/clift; Z=${FUZZER:-.carry/fuzz13/fuzz_compile}
echo "host: nproc $(nproc), cgroup cpu.max '$(cat /sys/fs/cgroup/cpu.max 2>/dev/null)', $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), /tmp on $(df -T /tmp | awk 'NR==2{print $2}'), load $(cut -d' ' -f1-3 /proc/loadavg)"
make -s -C $F -j16 > "$O/build.log" 2>&1 || { echo "frozen build failed"; tail "$O/build.log"; exit 1; }
echo "built at ${SECONDS} s, frozen tree $F"
if [ "${PROBE:-0}" = 1 ]; then
  W=$(mktemp -d); bash tests/fuzz/make_corpus.sh "$W/seeds" > /dev/null 2>&1
  probe() {   # probe JOBS: JOBS workers, each its own corpus dir, PROBE_S seconds
    for j in $(seq 1 "$1"); do
      mkdir -p "$W/c$1_$j"
      ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1${FUZZ_ASAN:+:$FUZZ_ASAN} \
        $Z -dict=tests/fuzz/lift.dict -rss_limit_mb=2048 -timeout=10 -seed=$((500 + j)) \
        -max_total_time="${PROBE_S:-20}" -print_final_stats=1 "$W/c$1_$j" "$W/seeds" > "$W/p$1_$j.log" 2>&1 &
    done
    wait
    echo "probe $1 worker(s), ${PROBE_S:-20} s: $(for j in $(seq 1 "$1"); do sed -n 's/^stat::average_exec_per_sec: *//p' "$W/p$1_$j.log"; done | paste -sd' ') exec/s; INITED at $(grep -m1 INITED "$W/p$1_1.log" | grep -oE 'exec/s: [0-9]+')"
  }
  probe 1
  probe "${PROBE_J:-15}"
  rm -rf "$W"
  echo "probes done at ${SECONDS} s"
fi
if [ "${CHECKS:-0}" = 1 ]; then
  ( for t in cuda opencl; do
    timeout 300 $C test -t $t tests/regress/*.lift > "$O/regress_$t.txt" 2>&1
    echo "regress $t (exit $?): $(tail -n 1 "$O/regress_$t.txt")"; grep -E "FAIL|error" "$O/regress_$t.txt" | head -n 8
  done
  # F45 (fixed after 08946c3): NVIDIA's OpenCL, every language test in one process
  if [ "${ALL_OCL:-0}" = 1 ]; then
    timeout 400 $C test -t opencl tests/regress tests/lift examples > "$O/all_opencl.txt" 2>&1
    echo "tests/regress, tests/lift, examples in one process on opencl (exit $?): $(tail -n 1 "$O/all_opencl.txt")"; grep -E "^FAIL" "$O/all_opencl.txt" | head -n 8
  fi
  echo "checks done at ${SECONDS} s" ) > "$O/checks.txt" 2>&1 &   # beside the soak
  checks=$!
fi
fuzz() { [ "${FUZZ_S:-0}" -gt 0 ] && FUZZ_SEED_BASE=${FUZZ_BASE:-100300} OUT=$O/fuzz bash bench/gpu/fuzz_device.sh $Z "${FUZZ_JOBS:-15}" 100000000 "${FUZZ_S}" > "$O/fuzz_summary.txt" 2>&1; }
diff() { [ "${DIFF_S:-0}" -gt 0 ] && CLIFT_BIN=$C PROCS=${PROCS:-2} JOBS=${JOBS:-16} OUT=$O/diff \
  timeout $(( ${DIFF_S} + 150 )) bash bench/gpu/difftest_device.sh "${SEEDS:-4000000000:}" "${DIFF_S}" "${ROTATE:-4}" > "$O/diff_summary.txt" 2>&1; }
if [ "${TOGETHER:-0}" = 1 ]; then fuzz & fp=$!; diff; wait $fp; else fuzz; diff; fi
echo "soak done at ${SECONDS} s"
[ -n "${checks:-}" ] && { wait $checks; cat "$O/checks.txt"; }
if [ "${DIFF_S:-0}" -gt 0 ]; then
  grep -E 'programs in|seconds per run|per target|^[0-9]+ passed|^all ' "$O/diff_summary.txt" | tail -n 20
  grep -A4 -i 'refusals:' "$O/diff_summary.txt" | head -n 12
  grep -iE 'FAIL|disagree|crash' "$O/diff_summary.txt" | head -n 20
fi
if [ "${FUZZ_S:-0}" -gt 0 ]; then
  echo "fuzz (last, so that a cut output keeps it):"; grep -v '^finding ' "$O/fuzz_summary.txt" | tail -n 3; grep '^finding ' "$O/fuzz_summary.txt"
fi
# the device tool brings back 8 files: the three summaries, and the rest in one archive
# (the fifteenth session's x4 soak lost testers 1-3's logs and their counts)
(cd "$O" && find . -type f ! -name '*_summary.txt' ! -name checks.txt ! -name bundle.tgz -print0 | tar czf bundle.tgz --null -T - --remove-files 2>/dev/null)
