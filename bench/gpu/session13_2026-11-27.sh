#!/usr/bin/env bash
# session13_2026-11-27.sh — issue 9's soak of the frozen d4c7be5 (the eighth
# session's first commit: the one-work-item toLocal, F39 and F40 fixed, the run's
# kernel handles kept) on the H100 x4: session7b_2026-11-27.sh, the fuzzer alone
# (60 workers), then the differential tester alone (12 testers, the device targets
# on every 16th program, batched).
# Usage (device x4, carry .carry/frozen8 .carry/fuzz8):
#   FUZZ_S=150 DIFF_S=300 bash bench/gpu/session13_2026-11-27.sh
cd "$(dirname "$0")/../.." || exit 1
FROZEN=.carry/frozen8 FUZZER=.carry/fuzz8/fuzz_compile SEEDS=${SEEDS:-1900000000:} FUZZ_BASE=${FUZZ_BASE:-70000} \
  PROCS=${PROCS:-12} JOBS=${JOBS:-96} ROTATE=${ROTATE:-16} timeout 560 bash bench/gpu/session7b_2026-11-27.sh
echo "soak: rc=$? at ${SECONDS} s"
