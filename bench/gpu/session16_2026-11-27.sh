#!/usr/bin/env bash
# session16_2026-11-27.sh — issue 9's soak of the frozen 7a17c0f (the eighth
# session's last code commit: F7, F41 and F42 fixed or worked around) on the
# H100 x4: session7b_2026-11-27.sh, the fuzzer alone (60 workers), then the
# differential tester alone (12 testers, device targets on every 16th program).
# Usage (device x4, carry .carry/frozen11 .carry/fuzz11):
#   FUZZ_S=150 DIFF_S=330 bash bench/gpu/session16_2026-11-27.sh
cd "$(dirname "$0")/../.." || exit 1
FROZEN=.carry/frozen11 FUZZER=.carry/fuzz11/fuzz_compile SEEDS=${SEEDS:-2500000000:} FUZZ_BASE=${FUZZ_BASE:-90000} \
  PROCS=${PROCS:-12} JOBS=${JOBS:-96} ROTATE=${ROTATE:-16} timeout 570 bash bench/gpu/session7b_2026-11-27.sh
echo "soak: rc=$? at ${SECONDS} s"
