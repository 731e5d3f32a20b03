#!/usr/bin/env bash
# session19_2026-11-27.sh — FCL's scan on NVIDIA's OpenCL after the batch of 2
# (session18: 2.23x CUB, goal 2.2x): its chunk kernel now holds 74 registers (3
# groups of 256 an SM), the grid cap still assumes 2048 work-items an SM
# (CLIFT_OCL_RESIDENT). Scan with R = 2048, 1024, 768 and the prefetch reg or both;
# reduce with R = 2048 and 768; three interleaved rounds, cuda beside, CUB peers in
# the same call; the fastest opencl pair of each checked against NumPy.
# Usage (device): about 3 minutes.
cd "$(dirname "$0")/../.." || exit 1
O="${OUT:-/tmp/s19}"; mkdir -p "$O"; W=$(mktemp -d); C=build/clift
make -s -j16 > /tmp/build.log 2>&1 || { echo "build failed"; tail /tmp/build.log; exit 1; }
( nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -lcublas -o "$W/fcl_peers" > "$W/nvcc.log" 2>&1 ) &
N=134217728
python3 tests/fcl/npy.py $N "$W/n.npy" 8 raw
declare -A pairs=( [reduce]="2048:auto 768:auto" [scan]="2048:auto 1024:auto 768:auto 2048:both 768:both" )
for round in 1 2 3; do
  for p in reduce scan; do
    for rp in ${pairs[$p]}; do
      m=$(CLIFT_OCL_RESIDENT=${rp%:*} CLIFT_FCL_PREFETCH=${rp#*:} timeout 60 $C bench -t opencl --runs 100 examples/fcl/$p.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
      echo "round $round: $p opencl $rp ${m:-FAILED}"
    done
    m=$(timeout 60 $C bench -t cuda --runs 100 examples/fcl/$p.fcl "$W/n.npy" 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
    echo "round $round: $p cuda - ${m:-FAILED}"
  done
done | tee "$O/times.txt"
wait
timeout 90 "$W/fcl_peers" 2027 2>&1 | grep -E "^peer (reduce|scan)|fcl_peers:" | tee "$O/peers.txt"
for p in reduce scan; do
  best=$(awk -v p=$p '$3 == p && $4 == "opencl" && $6 != "FAILED" { if (!($5 in b) || $6 < b[$5]) b[$5] = $6 }
    END { for (k in b) print b[k], k }' "$O/times.txt" | sort -g | head -n 1 | cut -d' ' -f2)
  CLIFT_OCL_RESIDENT=${best%:*} CLIFT_FCL_PREFETCH=${best#*:} timeout 90 $C run -t opencl -o "$W/$p.npy" examples/fcl/$p.fcl "$W/n.npy" > /dev/null 2>&1
  echo "check $p opencl $best: $(timeout 120 python3 bench/gpu/fcl_check.py $p "$W/$p.npy" "$W/n.npy" 2>&1 | head -c 200)"
done | tee "$O/checks.txt"
rm -rf "$W"
