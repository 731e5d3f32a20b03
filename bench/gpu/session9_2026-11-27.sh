#!/usr/bin/env bash
# session9_2026-11-27.sh — one H100 call of the eighth session:
#   1. session8d_2026-11-27.sh (a work-group's toLocal of sequential code by one
#      work-item, F38/F39 programs, racecheck and memcheck on cuda);
#   2. every tests/regress program on NVIDIA's OpenCL (cut by a time limit in the
#      seventh session);
#   3. fcl_2027.sh on opencl: each FCL case study against NumPy at 2^27 and timed,
#      after the runtime started keeping a run's kernel handles (plan_run.c: one
#      clCreateKernel per plan kernel and run, the _v256 version looked up once).
# Usage (device): bash bench/gpu/session9_2026-11-27.sh   (about 7 minutes)
cd "$(dirname "$0")/../.." || exit 1
O="${OUT:-/tmp/s9}"; mkdir -p "$O"
timeout 150 bash bench/gpu/session8d_2026-11-27.sh 2>&1 | tee "$O/session8d.txt"
echo "regress opencl: $(timeout 170 build/clift test -t opencl tests/regress/*.lift > "$O/regress_opencl.txt" 2>&1; echo "rc=$? $(tail -n 1 "$O/regress_opencl.txt")")"
grep -B2 -A6 -E "FAIL|error" "$O/regress_opencl.txt" | head -40
TARGETS="opencl" timeout 220 bash bench/gpu/fcl_2027.sh > /dev/null 2>&1; echo "fcl_2027 opencl: rc=$?"
grep -E 'check |ms \(|goal|reported|peers:|skipped' "$O/output.txt"
