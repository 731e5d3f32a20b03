#!/usr/bin/env bash
# session8_2026-11-27.sh — FCL on NVIDIA's OpenCL after the seventh session's
# changes (the fixed-size version a kernel of its own, NAME_v256; a residency
# estimate, so the grid cap, staged reads and 4 chunks an iteration apply):
#   1. fcl_2027.sh with TARGETS="opencl cuda": every case study checked against
#      NumPy at 2^27 on opencl, both targets timed, the peers, the sanitizers (cuda);
#   2. fcl_attrib_2028.sh on opencl: the defaults against opencl's former code
#      (o27), stop 27's switches (old), no grid cap (g0), no batching (b0).
# Usage (device): bash bench/gpu/session8_2026-11-27.sh   (about 6 minutes)
cd "$(dirname "$0")/../.." || exit 1
mkdir -p "${OUT:-/tmp/s8}"
TARGETS="opencl cuda" timeout 300 bash bench/gpu/fcl_2027.sh > /dev/null 2>&1; echo "fcl_2027: rc=$?"
grep -E 'check |ms \(|goal|reported|sanitizer|peers:|skipped' "${OUT:-/tmp/s8}/output.txt"
T=opencl MODES="new o27 old g0 b0" PROGS="reverse transpose reduce scan matmul" timeout 240 bash bench/gpu/fcl_attrib_2028.sh > "${OUT:-/tmp/s8}/attrib_opencl.txt" 2>&1
echo "attrib: rc=$?"; sed -n '/best of the rounds/,$p' "${OUT:-/tmp/s8}/attrib_opencl.txt"
