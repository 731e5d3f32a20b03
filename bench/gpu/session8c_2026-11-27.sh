#!/usr/bin/env bash
# session8c_2026-11-27.sh — the seventh session's last call, on the H100 x4:
#   1. session8b_2026-11-27.sh (this tree: tests/regress on cuda and NVIDIA's
#      OpenCL, examples/fcl and tests/fcl/compiled on both);
#   2. the soak of the frozen ab70c35 (F39's fix; .carry/frozen7, .carry/fuzz7):
#      session7b_2026-11-27.sh, the fuzzer then the tester.
# Usage (device x4, carry .carry/frozen7 .carry/fuzz7):
#   FUZZ_S=100 DIFF_S=120 bash bench/gpu/session8c_2026-11-27.sh
# Run on 2026-11-27 with FUZZ_S=100 DIFF_S=180: session8b's opencl half and the
# tester's output were cut off by the timeouts (the fuzz half took 137 s, not 100);
# session7b now writes under $OUT as it goes.
cd "$(dirname "$0")/../.." || exit 1
timeout 230 bash bench/gpu/session8b_2026-11-27.sh; echo "session8b: rc=$? at ${SECONDS} s"
FROZEN=.carry/frozen7 FUZZER=.carry/fuzz7/fuzz_compile SEEDS=${SEEDS:-700000000:} FUZZ_BASE=${FUZZ_BASE:-60000} \
  PROCS=${PROCS:-12} JOBS=${JOBS:-96} ROTATE=${ROTATE:-16} timeout 340 bash bench/gpu/session7b_2026-11-27.sh
echo "soak: rc=$? at ${SECONDS} s"
