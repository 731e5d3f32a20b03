#!/usr/bin/env bash
# run.sh CLIFT — the random differential tester as part of the test suite: a fixed
# range of seeds (deterministic programs), every available target, within a time
# budget. Prints difftest.py's summary, ending "N passed, N failed".
#   DIFFTEST_SEEDS    seed range A:B            (default 0:500)
#   DIFFTEST_BUDGET   seconds before no new seed starts (default 240)
#   DIFFTEST_EXCLUDE  feature groups left out   (default "open": groups of open bugs, README.md)
#   DIFFTEST_KEEP     folder for failing programs (default: none)
#   DIFFTEST_ROTATE   run opencl/cuda on every K-th seed only (default 2)
#   DIFFTEST_BATCH    opencl/cuda runs K at a time in one process (default 4; 0: one each)
set -u
CLIFT=${1:-build/clift}
cd "$(dirname "$0")/../.."
exec python3 tests/difftest/difftest.py --clift "$CLIFT" \
  --seeds "${DIFFTEST_SEEDS:-0:500}" --budget "${DIFFTEST_BUDGET:-240}" \
  --rotate "${DIFFTEST_ROTATE:-2}" --exclude "${DIFFTEST_EXCLUDE-open}" \
  ${DIFFTEST_KEEP:+--keep "$DIFFTEST_KEEP"} --jobs "${DIFFTEST_JOBS:-$(nproc)}" --batch "${DIFFTEST_BATCH:-4}"
