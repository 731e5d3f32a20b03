#!/usr/bin/env bash
# session8b_2026-11-27.sh — the seventh session's last call on one H100: every
# tests/regress program (F38's and F39's among them) on cuda and NVIDIA's OpenCL,
# built from this tree, and examples/fcl on both (the fixed-size kernels of
# opencl, NAME_v256, launched for blocks of 256).
# Usage (device): bash bench/gpu/session8b_2026-11-27.sh   (about 4 minutes)
set -uo pipefail
cd "$(dirname "$0")/../.."
echo "$(nvidia-smi -L | head -n 1)"
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
for t in cuda opencl; do
  pass=0 fail=0
  for f in tests/regress/*.lift; do
    [ $SECONDS -lt 400 ] || { echo "regress $t: stopped at $f (past 400 s)"; break; }
    out=$(timeout 60 build/clift test -t $t "$f" 2>&1 | tail -n 1)
    case $out in *" 0 failed"*) pass=$((pass + 1)) ;; *) fail=$((fail + 1)); echo "regress $t $f: $out" | head -c 300; echo ;; esac
  done
  echo "regress on $t: $pass files passed, $fail failed (at ${SECONDS} s)"
done
for t in cuda opencl; do
  out=$(timeout 120 build/clift test -t $t examples/fcl tests/fcl/compiled 2>&1 | tail -n 1)
  echo "fcl examples on $t: $out (at ${SECONDS} s)"
done
