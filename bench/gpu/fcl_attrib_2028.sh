#!/usr/bin/env bash
# fcl_attrib_2028.sh — which of stop 28's cuda defaults for FCL chunk kernels
# (CLIFT_FCL_GRID=1, CLIFT_FCL_PREFETCH=reg, CLIFT_FCL_BATCH=4) makes reverse,
# transpose and matmul slower (fcl_retime_2028.sh, 2026-11-27 on one H100: reverse
# 0.408 ms against 0.377 with stop 27's, transpose 0.412 against 0.384, matmul 5.49
# against 5.01; reduce 0.192 against 0.225). Each program in six modes, each switch
# put back to stop 27's value alone, two interleaved rounds, the best of the two:
#   new   no switch set (the defaults)      old  BATCH=0 GRID=0 PREFETCH=l2
#   b0    BATCH=0       g0  GRID=0          l2   PREFETCH=l2      b0g0 BATCH=0 GRID=0
#   o27   old and NO_VERSION=1 (opencl's code before its fixed-size kernels)
#   w0    CLIFT_OCL_WARP=0 (opencl: warp barriers as work-group barriers, the code before the eighth session)
# Sizes as fcl_2027.sh (2^27 int32; transpose 8192 x 16384; matmul doubles 2048²).
# No checks here (fcl_2027.sh checks every mode's results). About 4 minutes.
# Environment: T (target, default cuda), MODES (default all six), PROGS (default
# "reverse transpose reduce matmul").
# Usage (device): bash bench/gpu/fcl_attrib_2028.sh; output on stdout.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
W=$(mktemp -d); C=build/clift
make -s -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
{ sed '/^sig main/,$d' examples/fcl/matmul.fcl
  echo "sig main : int -> int -> int -> int -> [double] -> [double] -> Program<grid> [double]<grid>"
  echo "fun main t hA wA wB A B = matmulTiled (fn a => fn b => a + b) (fn a => fn b => a * b) 0.0 t hA wA wB A B"
} > "$W/mm.fcl"
N=134217728 M=2048
python3 tests/fcl/npy.py $N "$W/n.npy" 8 raw
python3 tests/fcl/npy.py $((M * M)) "$W/ma.npy" 9 rawdouble
python3 tests/fcl/npy.py $((M * M)) "$W/mb.npy" 10 rawdouble
benches=(
  "reverse|examples/fcl/reverse.fcl|256 $W/n.npy|100"
  "transpose|examples/fcl/transpose.fcl|32 8192 16384 $W/n.npy|100"
  "reduce|examples/fcl/reduce.fcl|$W/n.npy|100"
  "scan|examples/fcl/scan.fcl|$W/n.npy|100"
  "matmul|$W/mm.fcl|16 $M $M $M $W/ma.npy $W/mb.npy|20"
)
modeenv() { case $1 in
  new) echo "X=1" ;; old) echo "CLIFT_FCL_BATCH=0 CLIFT_FCL_GRID=0 CLIFT_FCL_PREFETCH=l2" ;;
  b0) echo "CLIFT_FCL_BATCH=0" ;; g0) echo "CLIFT_FCL_GRID=0" ;; l2) echo "CLIFT_FCL_PREFETCH=l2" ;;
  b0g0) echo "CLIFT_FCL_BATCH=0 CLIFT_FCL_GRID=0" ;; w0) echo "CLIFT_OCL_WARP=0" ;;
  o27) echo "CLIFT_FCL_BATCH=0 CLIFT_FCL_GRID=0 CLIFT_FCL_PREFETCH=l2 CLIFT_FCL_NO_VERSION=1" ;; esac; }
MODES=${MODES:-"new old b0 g0 l2 b0g0"}
T=${T:-cuda}
PROGS=${PROGS:-"reverse transpose reduce matmul"}
keep=(); for b in "${benches[@]}"; do [[ " $PROGS " == *" ${b%%|*} "* ]] && keep+=("$b"); done; benches=("${keep[@]}")
for b in "${benches[@]}"; do
  IFS='|' read -r name prog args runs <<<"$b"
  for mode in $MODES; do
    env $(modeenv $mode) $C compile -t $T --print "$prog" $args > "$W/$name.$mode.cu" 2>&1
    printf '%s %s: %s lines, %s barriers, %s kernels\n' "$name" "$mode" "$(wc -l < "$W/$name.$mode.cu")" "$(grep -cE '__syncthreads|barrier\(' "$W/$name.$mode.cu")" "$(grep -cE '__global__ void|__kernel ' "$W/$name.$mode.cu")"
  done
done
for round in 1 2; do
  for b in "${benches[@]}"; do
    IFS='|' read -r name prog args runs <<<"$b"
    for mode in $MODES; do
      [ $SECONDS -lt 420 ] || { echo "round $round $name $mode: skipped"; continue; }
      m=$(env $(modeenv $mode) timeout 60 $C bench -t $T --runs $runs "$prog" $args 2>&1 | sed -nE 's/.*median ([0-9.]+) ms.*/\1/p')
      echo "$name $mode ${m:-FAILED}" | tee -a "$W/t.txt" | sed "s/^/round $round: /"
    done
  done
done
echo "== best of the rounds (ms), and against old"
awk '$3 != "FAILED" { k = $1 " " $2; if (!(k in b) || $3 < b[k]) b[k] = $3 }
  END { for (k in b) { split(k, p, " "); o = b[p[1] " old"]; printf "%-10s %-5s %.4f  %.3f of old\n", p[1], p[2], b[k], (o > 0 ? b[k] / o : 0) } }' "$W/t.txt" | sort
[ "$T" = cuda ] && { mkdir -p "${OUT:-/tmp}/cu"; cp "$W"/*.cu "${OUT:-/tmp}/cu/" 2>/dev/null; }
rm -rf "$W"
