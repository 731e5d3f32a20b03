#!/usr/bin/env bash
# session20_2026-11-27.sh — the grid cap's estimate from the registers on NVIDIA's
# OpenCL (runtime/opencl_device.c, opencl_resident_groups; session19: scan 0.972 ms
# at 3 groups of 256 an SM against 1.000 at the former 8): tests/fcl/fcl_test.sh
# (its opencl is NVIDIA's here), reduce and scan at 2^27 on opencl as built and
# with the former estimate forced (CLIFT_OCL_RESIDENT=2048 no longer forces 8: the
# registers' bound applies below it; so the former code is the frozen 7a17c0f
# built beside), cuda beside, three interleaved rounds, the CUB peers, the
# default's results against NumPy. Usage (device, carry .carry/frozen11): ~4 minutes.
# First run (b0b2d6b: the registers read from CL_KERNEL_WORK_GROUP_SIZE): reduce
# 0.379 ms against 0.204, scan 1.331 against 1.089: the v256 kernels' required size
# of 256 read as 256 registers, one group an SM; second run: ptxas's count from the
# build log (-cl-nv-verbose): scan unchanged (1.000), the cap computed for the
# generic kernel, not the v256 version launched; third run: plan_run.c asks for the
# version's residency: scan 0.972 in round 1, 1.000 in rounds 2-3 (the driver's
# cache: a program built before comes with an empty log); fourth run: the log kept
# in clift's cache (opencl_device.c saved_log).
cd "$(dirname "$0")/../.." || exit 1
O="${OUT:-/tmp/s20}"; mkdir -p "$O"; W=$(mktemp -d); C=build/clift
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
F=.carry/frozen11; make -s -C $F -j16 > /tmp/build0.log 2>&1 || echo "frozen build failed"
( nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -lcublas -o "$W/fcl_peers" > "$W/nvcc.log" 2>&1 ) &
clinfo 2>/dev/null | grep -iE "registers|Device Name" | head -n 4
echo "fcl_test: $(timeout 200 bash tests/fcl/fcl_test.sh > "$O/fcl_test.txt" 2>&1; tail -n 1 "$O/fcl_test.txt")"
grep FAIL "$O/fcl_test.txt" | head -5
N=134217728
python3 tests/fcl/npy.py $N "$W/n.npy" 8 raw
for round in 1 2 3; do
  for p in reduce scan; do
    for v in new old; do
      [ $v = new ] && b=$C || b=$F/build/clift
      m=$(timeout 60 $b bench -t opencl --runs 100 examples/fcl/$p.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
      echo "round $round: $p opencl $v ${m:-FAILED}"
    done
    m=$(timeout 60 $C bench -t cuda --runs 100 examples/fcl/$p.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
    echo "round $round: $p cuda new ${m:-FAILED}"
  done
done | tee "$O/times.txt"
wait
timeout 90 "$W/fcl_peers" 2027 2>&1 | grep -E "^peer (reduce|scan)|fcl_peers:" | tee "$O/peers.txt"
for p in reduce scan; do for t in opencl cuda; do
  timeout 90 $C run -t $t -o "$W/$p.npy" examples/fcl/$p.fcl "$W/n.npy" > /dev/null 2>&1
  echo "check $p $t: $(timeout 120 python3 bench/gpu/fcl_check.py $p "$W/$p.npy" "$W/n.npy" 2>&1 | head -c 200)"
done; done | tee "$O/checks.txt"
rm -rf "$W"
