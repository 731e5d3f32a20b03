#!/usr/bin/env bash
# session23_2026-11-28.sh — issue 15: the default batch of a tree's chunk kernel
# doubled (dpia/batch.c tree(): reduce 8 chunks a work-group iteration, scan keeps
# 2), after session22 measured reduce with CLIFT_FCL_BATCH=8 on NVIDIA's OpenCL at
# 0.195-0.197 ms against 0.204-0.206 with 4 (CUB 0.183-0.187). Here, on one H100:
#   1. reduce at 2^27 on opencl and cuda, the new default against BATCH=4 (the
#      former default), three interleaved rounds, CUB before and after;
#   2. the default's results against NumPy at 2^27, 2^27 + 1000 and 5000;
#   3. compute-sanitizer racecheck, synccheck and memcheck of cuda's reduce at 2^16
#      and 2^16 + 1000 (default, --local-size 64 and 100);
#   4. tests/fcl/fcl_test.sh (its opencl is NVIDIA's here).
cd "$(dirname "$0")/../.." || exit 1
O="${OUT:-/tmp/s23}"; mkdir -p "$O"; W=$(mktemp -d); C=build/clift
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
( nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -lcublas -o "$W/fcl_peers" > "$W/nvcc.log" 2>&1 ) &
python3 tests/fcl/npy.py 134217728 "$W/n.npy" 8 raw
python3 tests/fcl/npy.py 134218728 "$W/u.npy" 9 raw
python3 tests/fcl/npy.py 5000 "$W/s.npy" 10 raw
python3 tests/fcl/npy.py 65536 "$W/a.npy" 11 raw
python3 tests/fcl/npy.py 66536 "$W/b.npy" 12 raw
wait
peers() { timeout 90 "$W/fcl_peers" 2027rs 2>&1 | grep -E "^peer reduce|fcl_peers:" | sed "s/^/$1: /"; }
peers before | tee "$O/peers.txt"
for round in 1 2 3; do
  for t in opencl cuda; do
    for v in "new|" "batch4|CLIFT_FCL_BATCH=4"; do
      name=${v%%|*} env=${v#*|}
      m=$(env $env timeout 60 $C bench -t $t --runs 100 examples/fcl/reduce.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
      echo "round $round: reduce $t $name ${m:-FAILED}"
    done
  done
done | tee "$O/times.txt"
peers after | tee -a "$O/peers.txt"
for t in opencl cuda; do for f in n u s; do
  timeout 90 $C run -t $t -o "$W/r.npy" examples/fcl/reduce.fcl "$W/$f.npy" > /dev/null 2>&1
  echo "check reduce $t $f: $(timeout 120 python3 bench/gpu/fcl_check.py reduce "$W/r.npy" "$W/$f.npy" 2>&1 | head -c 200)"
done; done | tee "$O/checks.txt"
: > "$W/san.batch"
for f in a b; do
  printf -- '-t\tcuda\texamples/fcl/reduce.fcl\t%s\n' "$W/$f.npy" >> "$W/san.batch"
  for ls in 64 100; do printf -- '-t\tcuda\t--local-size\t%s\texamples/fcl/reduce.fcl\t%s\n' $ls "$W/$f.npy" >> "$W/san.batch"; done
done
for tool in racecheck synccheck memcheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $C run --batch "$W/san.batch" > "$W/san.out" 2> "$W/san.err"
  echo "sanitizer $tool: exit $? $(grep -hE "(ERROR|RACECHECK|SYNCCHECK) SUMMARY" "$W/san.out" "$W/san.err" | head -n 1) runs ok: $(grep -c ' 0$' "$W/san.out")"
done | tee -a "$O/checks.txt"
echo "fcl_test: $(timeout 240 bash tests/fcl/fcl_test.sh > "$O/fcl_test.txt" 2>&1; tail -n 1 "$O/fcl_test.txt")"
grep FAIL "$O/fcl_test.txt" | head -5
rm -rf "$W"
