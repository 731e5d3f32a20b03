#!/usr/bin/env bash
# session25_2026-11-28.sh — twelfth session: the session's new code on one GPU
# (cuda and NVIDIA's OpenCL) against the interpreter:
#   1. (iota e) of int inputs (value sizes), (iota (min e c)), APL's ⍳ of a
#      run-time count, F47 (a lazy element opening a filter, read field by
#      field: scoped blocks) and F48 (refused) — tests/lift/iota_input_*.lift,
#      tests/regress/f47_*, f48_*, reduce_iota_runtime, tests/apl/iota_runtime*;
#   2. every language test in one process per target (timeout LIMIT s).
# Usage (device): bash bench/gpu/session25_2026-11-28.sh
cd "$(dirname "$0")/../.." || exit 1
make -s -j16 >&2 || { echo "build failed"; exit 1; }
C=build/clift
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in cuda opencl; do
  echo "1. $t: $($C test -t $t tests/lift/iota_input_*.lift tests/lift/iota_runtime.lift tests/regress/f47_*.lift \
    tests/regress/f48_*.lift tests/regress/reduce_iota_runtime.lift tests/apl/iota_runtime*.apl 2>&1 | grep -E '^FAIL|passed' | tr '\n' ' ')"
done
for t in cuda opencl; do
  timeout "${LIMIT:-110}" $C test -t $t tests/regress tests/lift examples > "${OUT:-/tmp}/all_$t.txt" 2>&1
  echo "2. $t (exit $?): $(tail -n 1 "${OUT:-/tmp}/all_$t.txt")"; grep -E '^FAIL' "${OUT:-/tmp}/all_$t.txt" | head -n 5
done
