#!/usr/bin/env bash
# runrate_probe.sh — where a device run's seconds go (issue 9's soaks ran about 3
# device runs a second host-wide): one `clift run -t cuda` of a small program,
# three times (NVRTC compiles in every process: there is no cross-process cache),
# its phases with CLIFT_TIMING if the build has it, then 16 at a time.
# Usage (device): bash bench/gpu/runrate_probe.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
make -s -j"$(nproc)" >&2 || exit 1
f=tests/lift/vector_scale.lift
sec() { python3 -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 3))" "$1" "$2"; }
for t in cuda opencl c; do
  for i in 1 2 3; do
    t0=$(date +%s.%N); build/clift test -t $t "$f" >/dev/null 2>&1; echo "$t run $i: $(sec "$t0" "$(date +%s.%N)") s"
  done
done
t0=$(date +%s.%N); build/clift compile -t cuda --ptx "$f" >/dev/null 2>&1; echo "NVRTC alone (compile --ptx): $(sec "$t0" "$(date +%s.%N)") s"
# wall against CPU: a run that waits (a lock, the driver) has wall >> user + sys
for t in cuda opencl; do
  TIMEFORMAT="$t: %R s wall, %U s user, %S s sys"; time build/clift test -t $t "$f" >/dev/null 2>&1
done
TIMEFORMAT="opencl, CUDA_CACHE_DISABLE=1: %R s wall, %U s user, %S s sys"; time CUDA_CACHE_DISABLE=1 build/clift test -t opencl "$f" >/dev/null 2>&1
TIMEFORMAT="cuda, 16 programs in one clift test: %R s wall, %U s user, %S s sys"; time build/clift test -t cuda $(ls tests/lift/*.lift | head -n 16) >/dev/null 2>&1
for p in 4 16; do
  t0=$(date +%s.%N)
  seq 1 32 | xargs -P $p -I{} sh -c "build/clift test -t cuda $f >/dev/null 2>&1"
  echo "32 cuda runs, $p at a time: $(sec "$t0" "$(date +%s.%N)") s"
done
