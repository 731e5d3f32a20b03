#!/usr/bin/env bash
# test.sh — the whole test suite, from a fresh machine: set up, build the
# normal and the ASan/UBSan compiler, then run
#   1. the C unit tests (arithmetic, values I/O, …) under ASan/UBSan,
#   2. every test block in tests/lift, tests/codegen, tests/tail, tests/apl, the APL programs of
#      examples/apl/ that the front-end runs so far, examples/ and examples/euler/ under
#      ASan/UBSan and on the optimised build, on every target available here
#      (interp, c, openmp, …), each checked against the expected output,
#   3. the shape of the generated code (strategy preservation, temporaries,
#      no warnings under -Wall -Wextra), and the files of `clift compile -t
#      opencl` built with -lOpenCL and run against the interpreter,
#      the FCL front end (tests/fcl/fcl_test.sh: its examples on the interpreter and compiled on every target),
#   4. the command-line tests (exit statuses, messages, no partial output),
#      and two programs compiled with `clift compile` linked into one executable,
#   5. a short fuzz of the compiler (tests/fuzz: $FUZZ_SECONDS, default 60 s),
#   6. random programs run on every target against the interpreter
#      (tests/difftest; DIFFTEST_BUDGET, DIFFTEST_SAN_BUDGET in seconds).
# Ends with one line "N passed, N failed" summing every runner.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }
make -s -j"$(nproc)" SAN=1 all unit >&2 || { echo "0 passed, 1 failed"; exit 1; }

# exitcode=99: a sanitizer report is never mistaken for clift's exit status 1
# (an error in the program), which the error tests expect
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=1:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
total_pass=0 total_fail=0
log=$(mktemp)

# Each runner prints a line "… N passed, N failed …"; add them up. A runner
# that dies without its line counts as one failure.
tally() {
  local name=$1; shift
  echo "== $name" >&2
  "$@" >"$log" 2>&1
  local rc=$?
  cat "$log"
  local line; line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  if [ -z "$line" ]; then
    echo "$name: no summary line (exit $rc)"; total_fail=$((total_fail + 1)); return
  fi
  local p f
  p=$(sed -E 's/.*\b([0-9]+) passed.*/\1/' <<<"$line")
  f=$(sed -E 's/.*\b([0-9]+) failed.*/\1/' <<<"$line")
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "$name: exit status $rc with no failed test (sanitizer report?)"; total_fail=$((total_fail + 1))
  fi
}

for t in build-san/test_*; do tally "unit $(basename "$t") (asan/ubsan)" "$t"; done
# the APL programs of examples/apl the front-end runs (docs/apl.md §5; M6 added tests only, in tests/apl)
apl_files="examples/apl/signal.apl examples/apl/primes.apl examples/apl/easter.apl examples/apl/blackscholes.apl
  examples/apl/life.apl examples/apl/life_board.apl examples/apl/hotspot.apl examples/apl/sobol_pi.apl examples/apl/dot.apl
  examples/apl/errors/power_shape.apl examples/apl/errors/power_rank.apl
  examples/apl/errors/length.apl examples/apl/errors/nested_each.apl examples/apl/errors/nested_strand.apl
  examples/apl/errors/rank.apl examples/apl/errors/rank_index.apl examples/apl/errors/recursion_del.apl
  examples/apl/errors/recursion_named.apl"
# the GPU strategy programs with tunable sizes (issue 14 item 3), against the interpreter
tuned_bench="bench/gpu/jacobi_tiled.lift bench/gpu/transpose_tiled.lift bench/gpu/jacobi_strip.lift bench/gpu/jacobi_tiled_r.lift bench/gpu/jacobi_vec.lift"
tally "language tests (asan/ubsan build)" build-san/clift test --strict tests/lift tests/regress tests/codegen tests/tune tests/tail tests/apl $apl_files examples examples/euler $tuned_bench
tally "language tests (optimised build)" build/clift test --strict tests/lift tests/regress tests/codegen tests/tune tests/tail tests/apl $apl_files examples examples/euler $tuned_bench
tally "TAIL text round trip and errors (asan/ubsan build)" bash tests/tail/tail_test.sh build-san/clift
tally "APL front-end: --emit-tail goldens, errors, robustness (asan/ubsan build)" bash tests/apl/apl_test.sh build-san/clift
tally "FCL front-end: examples vs a Python oracle, errors, robustness (asan/ubsan build)" bash tests/fcl/fcl_test.sh build-san/clift
tally "Project Euler at the real sizes (openmp)" bash tests/euler_test.sh build/clift
tally "generated code (asan/ubsan build)" bash tests/codegen/codegen_test.sh build-san/clift
tally "top-level reduce of 10^6 random floats" bash tests/codegen/reduce_large_test.sh build/clift
tally "top-level reduce around its tiles' boundaries" bash tests/codegen/reduce_tiles_test.sh build/clift
tally "any launch size is correct (device targets)" bash tests/codegen/launch_sizes_test.sh build/clift
tally "generated OpenCL (asan/ubsan build)" bash tests/codegen/opencl_test.sh build-san/clift
tally "generated CUDA, NVRTC (asan/ubsan build)" bash tests/codegen/cuda_test.sh build-san/clift
tally "compiled OpenCL library (asan/ubsan build)" bash tests/codegen/opencl_lib_test.sh build-san/clift
tally "libraries with results of dynamic length (asan/ubsan build)" bash tests/codegen/filter_lib_test.sh build-san/clift
tally "command-line tests (asan/ubsan build)" bash tests/cli/cli_test.sh build-san/clift
tally "tunable sizes and clift tune (asan/ubsan build)" bash tests/tune/tune_test.sh build-san/clift
tally "compiled libraries link together (asan/ubsan build)" bash tests/cli/library_link_test.sh build-san/clift
tally "fuzz: parse → check → lower → DPIA → codegen, all targets (libFuzzer)" bash tests/fuzz/run.sh
tally "the differential tester's output comparisons" python3 tests/difftest/difftest.py --self-test
tally "random differential test, interp vs targets" bash tests/difftest/run.sh build/clift
tally "random differential test (asan/ubsan build)" env DIFFTEST_SEEDS="${DIFFTEST_SAN_SEEDS:-0:60}" \
  DIFFTEST_BUDGET="${DIFFTEST_SAN_BUDGET:-60}" bash tests/difftest/run.sh build-san/clift
tally "random TAIL programs, interp vs targets" python3 tests/difftest/tail_difftest.py --clift build/clift \
  --seeds "${TAIL_DIFFTEST_SEEDS:-1:301}" --budget "${TAIL_DIFFTEST_BUDGET:-180}" --jobs "$(nproc)"

rm -f "$log"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
