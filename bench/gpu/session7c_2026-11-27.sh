#!/usr/bin/env bash
# session7c (stop 28): the last call of the session on one H100.
#   - the fuzzer of the frozen 4ea3c21 (FUZZER, carried) on 12 of the 16 cores for
#     FUZZ_S seconds (fuzz_device.sh; issue 9's count on one commit; on the x4 the
#     workers made 47 executions a second each, on an H100 host 800 before);
#   - FCL's new cuda defaults (batched chunks, grid cap, staged reads) built from this
#     tree: fcl_2027c.sh's checks against NumPy and the timings beside CUB in modes
#     `default` and `after` (stop 27's), so that the default is checked as built;
#   - F37's regression test and every tests/regress program on cuda and NVIDIA OpenCL.
# Usage (device, carry FUZZER): FUZZER=.carry/fuzz5 FUZZ_BASE=50000 bash bench/gpu/session7c_2026-11-27.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
R=/tmp/s7c; rm -rf $R; mkdir -p $R/fuzz $R/fcl
FUZZ_S=${FUZZ_S:-280}
echo "$(nproc) cores; $(nvidia-smi -L | head -n 1)"
( FUZZ_SEED_BASE=$FUZZ_BASE OUT=$R/fuzz bash bench/gpu/fuzz_device.sh "$FUZZER" 12 100000000 "$FUZZ_S" > $R/fuzz/summary.txt 2>&1 ) &
fz=$!
make -s -j4 > $R/build.log 2>&1 || { echo "build failed"; tail $R/build.log; }
MODES="default after" SCAN_MODES="default after" OUT=$R/fcl timeout 200 bash bench/gpu/fcl_2027c.sh > /dev/null 2>&1; echo "fcl_2027c rc=$? at ${SECONDS} s"
for t in cuda opencl; do
  pass=0 fail=0
  for f in tests/regress/*.lift; do
    out=$(timeout 60 build/clift test -t $t "$f" 2>&1 | tail -n 1)
    case $out in *" 0 failed"*) pass=$((pass + 1)) ;; *) fail=$((fail + 1)); echo "regress $t $f: $out" | head -c 300; echo ;; esac
  done
  echo "regress on $t: $pass files passed, $fail failed (at ${SECONDS} s)"
done
wait $fz
echo "== fcl"; grep -E 'CUB|check|sanitizer|done|MISSED|met|skipped|FAIL|^reduce |^scan ' $R/fcl/output.txt | tail -n 40
echo "== fuzz"; grep -v '^finding ' $R/fuzz/summary.txt | tail -n 3; grep '^finding ' $R/fuzz/summary.txt | head -c 3000
tar czf $OUT/s7c.tgz -C $R .
