#!/usr/bin/env bash
# session10_2026-11-27.sh — FCL's warp barriers on NVIDIA's OpenCL (eighth session):
# codegen/opencl_print.c prints dpia/warp.c's warp barriers as clift_warp_barrier(),
# PTX bar.warp.sync where the runtime builds with -DCLIFT_NVIDIA_WARP (NVIDIA's
# OpenCL, CLIFT_OCL_WARP=1, the default), the work-group's barrier elsewhere.
#   1. tests/fcl/fcl_test.sh on this machine (its opencl runs are NVIDIA's here:
#      reduce and scan at work-groups of 256, 64 and 100 against the oracle);
#   2. fcl_2027.sh on opencl: the six programs against NumPy at 2^27, timed, CUB;
#   3. fcl_attrib_2028.sh on opencl, reduce and scan: the default against
#      CLIFT_OCL_WARP=0 (work-group barriers, the seventh session's code), two rounds.
# Whether the driver took the PTX: clift prints a note when it refused it.
# Usage (device): bash bench/gpu/session10_2026-11-27.sh   (about 7 minutes)
cd "$(dirname "$0")/../.." || exit 1
O="${OUT:-/tmp/s10}"; mkdir -p "$O"
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
timeout 200 bash tests/fcl/fcl_test.sh > "$O/fcl_test.txt" 2>&1; echo "fcl_test: rc=$? $(tail -n 1 "$O/fcl_test.txt")"
grep -E "FAIL|refused the PTX" "$O/fcl_test.txt" | head -20
TARGETS="opencl" timeout 220 bash bench/gpu/fcl_2027.sh > /dev/null 2>&1; echo "fcl_2027 opencl: rc=$?"
grep -E 'check |ms \(|goal|reported|peers:|skipped|refused the PTX' "$O/output.txt"
T=opencl MODES="new w0" PROGS="reduce scan" timeout 150 bash bench/gpu/fcl_attrib_2028.sh > "$O/attrib_opencl.txt" 2>&1
echo "attrib: rc=$?"; grep -E "refused the PTX" "$O/attrib_opencl.txt" | head -3; sed -n '/best of the rounds/,$p' "$O/attrib_opencl.txt"
