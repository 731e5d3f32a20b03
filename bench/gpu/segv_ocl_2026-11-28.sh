#!/usr/bin/env bash
# segv_ocl_2026-11-28.sh — the frozen 08946c3's `clift test -t opencl
# tests/regress/*.lift` died of SIGSEGV on an H100 (NVIDIA's OpenCL, session24),
# printing nothing (stdout to a file); cuda passed all 270. Each file alone, its
# exit status; for each that crashes, its output and a backtrace where gdb exists.
# Usage (device, carry .carry/frozen13): bash bench/gpu/segv_ocl_2026-11-28.sh
cd "$(dirname "$0")/../.." || exit 1
O=${OUT:-/tmp/segv}; mkdir -p "$O"; F=.carry/frozen13; C=$F/build/clift
make -s -C $F -j16 > "$O/build.log" 2>&1 || { echo "frozen build failed"; exit 1; }
bad=()
for f in tests/regress/*.lift; do
  timeout 120 $C test -t opencl "$f" > "$O/one.txt" 2>&1; rc=$?
  if [ $rc -ne 0 ]; then echo "$f: exit $rc: $(tail -c 300 "$O/one.txt")"; bad+=("$f"); fi
done
echo "files crashing or failing: ${#bad[@]} (at ${SECONDS} s)"
command -v gdb > /dev/null && echo "gdb present" || echo "no gdb"
for f in "${bad[@]:0:3}"; do
  echo "== $f"
  stdbuf -oL -eL timeout 120 $C test -v -t opencl "$f" 2>&1 | tail -n 30
  command -v gdb > /dev/null && timeout 200 gdb -batch -ex run -ex bt --args $C test -t opencl "$f" 2>&1 | tail -n 25
done
