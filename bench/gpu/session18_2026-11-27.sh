#!/usr/bin/env bash
# session18_2026-11-27.sh — session17 found FCL's scan on NVIDIA's OpenCL 8% faster
# with 2 chunks a work-group iteration than with the default 4 (1.000-1.003 ms
# against 1.091-1.093; registers 74 against 120), reduce fastest at 4 (0.2036).
# Is it so on cuda too? reduce and scan at 2^27 with CLIFT_FCL_BATCH 4 and 2 on
# cuda and opencl, three interleaved rounds, the CUB peers in the same call, the
# batch-2 results checked against NumPy. Usage (device): about 3 minutes.
cd "$(dirname "$0")/../.." || exit 1
O="${OUT:-/tmp/s18}"; mkdir -p "$O"; W=$(mktemp -d); C=build/clift
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
( nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -lcublas -o "$W/fcl_peers" > "$W/nvcc.log" 2>&1 ) &
N=134217728
python3 tests/fcl/npy.py $N "$W/n.npy" 8 raw
for round in 1 2 3; do
  for p in reduce scan; do
    for t in cuda opencl; do
      for b in 4 2 3; do
        m=$(CLIFT_FCL_BATCH=$b timeout 60 $C bench -t $t --runs 100 examples/fcl/$p.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
        echo "round $round: $p $t B=$b ${m:-FAILED}"
      done
    done
  done
done | tee "$O/times.txt"
wait
timeout 90 "$W/fcl_peers" 2027 2>&1 | grep -E "^peer (reduce|scan)|fcl_peers:" | tee "$O/peers.txt"
for p in reduce scan; do for t in cuda opencl; do for b in 2 3; do
  CLIFT_FCL_BATCH=$b timeout 90 $C run -t $t -o "$W/$p.npy" examples/fcl/$p.fcl "$W/n.npy" > /dev/null 2>&1
  echo "check $p $t B=$b: $(timeout 120 python3 bench/gpu/fcl_check.py $p "$W/$p.npy" "$W/n.npy" 2>&1 | head -c 200)"
done; done; done | tee "$O/checks.txt"
rm -rf "$W"
