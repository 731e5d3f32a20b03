#!/usr/bin/env bash
# session6 b (stop 27), one H100: the changes of this stop checked on a GPU.
#   1. F36's workaround (integer min/max by a mask in the cuda and opencl preludes):
#      the probes' mini2.cu again (the mask's encoding), tests/regress/f36_*.lift and
#      tests/lift/minmax*.lift on cuda and NVIDIA OpenCL; then every language test
#      (tests/lift tests/regress examples) on cuda and opencl, since the index
#      arithmetic's min/max changed in every kernel;
#   2. the one pass's new defaults (scan_2027.sh's `all`): VARIANTS="loops all
#      default" checked, racechecked (default), timed at 2^27 beside CUB;
#   3. FCL's new defaults (warp barriers, fixed-size versions, L2 prefetch):
#      fcl_2027b.sh (NumPy checks, five modes, CUB, sanitizers).
# Outputs: $OUT/output.txt (this), $OUT/scan/, $OUT/fcl/.
set -uo pipefail
cd "$(dirname "$0")/../.."
T0=$(date +%s)
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
make -s -j"$(nproc)" >/tmp/build.log 2>&1 || { echo "build failed"; tail -n 20 /tmp/build.log; exit 1; }
echo "== 1. F36"
nvcc -arch=sm_90 -O3 -o /tmp/mini2 bench/gpu/f36/mini2.cu 2>&1 | grep -v warn | head -3; /tmp/mini2 | grep -E "^(builtin|xor) "
build/clift test -t interp,cuda,opencl tests/regress/f36_*.lift tests/lift/minmax*.lift 2>&1 | grep -E "^FAIL|passed" -A2 | head -20
timeout 330 build/clift test -t cuda,opencl tests/lift tests/regress examples >/tmp/tests.log 2>&1
echo "language tests (rc $?): $(tail -n 1 /tmp/tests.log)"; grep -E "^FAIL" -A3 /tmp/tests.log | head -30
echo "   [$(( $(date +%s) - T0 )) s]"
echo "== 2. one pass, defaults"
OUT=$OUT/scan VARIANTS="loops all default" CHECK_SECONDS=60 timeout 150 bash bench/gpu/scan_2027.sh >/dev/null 2>&1
grep -E "^(default|loops|all):|racecheck|^filter|^scan|^peer|CUB|end" $OUT/scan/output.txt | head -30
echo "   [$(( $(date +%s) - T0 )) s]"
echo "== 3. FCL defaults"
OUT=$OUT/fcl timeout 100 bash bench/gpu/fcl_2027b.sh >/dev/null 2>&1
grep -E "^check|^clift test|CUB|x CUB|sanitizer|done" $OUT/fcl/output.txt | head -40
echo "   [$(( $(date +%s) - T0 )) s]"
