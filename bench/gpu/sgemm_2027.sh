#!/usr/bin/env bash
# sgemm_2027.sh — issue 14, sgemm 4096² against cublasSgemm (goal: cuBLAS speed),
# one device call (one H100), under 4 minutes:
#   1. builds clift (make) and peers.cu (nvcc, in the background);
#   2. the resources of each configuration's kernel: clift compile --print -t cuda,
#      then nvcc -cubin -Xptxas -v with 32-bit indices (as the runtime compiles
#      them at 4096: CLIFT_INDEX=int), and where cuobjdump exists the SASS's
#      128-bit shared/global loads, FFMAs and local-memory accesses;
#   3. checks on cuda against the interpreter at N = 256 (and 384 for the
#      128-wide tiles: an odd number of tiles each way), all at once in the
#      background (the interpreter is the slow part, on the CPUs);
#   4. compute-sanitizer racecheck on sgemm_tiled_v4 at N = 128 (K = 8 and 16, W = 132);
#   5. clift bench -t cuda --runs 20 at N = 4096, every configuration twice (the
#      spread between the two rounds is the noise), and sgemm_tiled_v4 on opencl
#      (NVIDIA's OpenCL: vload4 of unknown alignment, for comparison);
#   6. peers.cu's cublasSgemm (plain fp32, no tf32; checked on 512 sampled entries
#      against double sums), median of 50, before and after step 5;
#   7. a table: ms (the better round), TFLOP/s (2N³/t), cuBLAS time / clift time.
# Configurations: sgemm.lift (8×8 registers, no local memory); sgemm_tiled.lift
# R=4 K=16 (the best of docs/performance.md, 7.60 ms) and R=8 K=16;
# sgemm_tiled_v4.lift with K = 8, 16, 32 and W = 132, 128 (128×128 tiles, 8×8
# registers, float4 global and local accesses, A's tile transposed in local
# memory with rows of W floats).
# Usage (device): bash bench/gpu/sgemm_2027.sh   (output also in $OUT/output.txt)
# Dry run without a GPU: TARGET=opencl BIG=256 SMALL_CHECK=128 bash bench/gpu/sgemm_2027.sh
# (PoCL; no sanitizer, no peers, no resources).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/sgemm_2027}; mkdir -p "$OUT"
TMPD=$(mktemp -d /tmp/sgemm_2027.XXXXXX)
main() {
TARGET=${TARGET:-cuda} BIG=${BIG:-4096}
c=build/clift
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null
git log --oneline -1 2>/dev/null
[ "$TARGET" = cuda ] && ( timeout 150 nvcc -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o "$TMPD/peers" >"$TMPD/nvcc.log" 2>&1; echo $? >"$TMPD/nvcc.rc" ) &
make -s -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
median() { sed -nE 's/.*median ([0-9.]+) ms.*/\1/p'; }
# the configurations: LABEL|OPTIONS|PROGRAM|CHECK SIZES
CONFIGS=("sgemm.lift||sgemm.lift|256"
         "sgemm_tiled R=4 K=16|--tunable R=4 --tunable K=16|sgemm_tiled.lift|256"
         "sgemm_tiled R=8 K=16|--tunable R=8 --tunable K=16|sgemm_tiled.lift|256")
for kw in "8 132" "16 132" "32 132" "8 128" "16 128" "32 128"; do
  set -- $kw
  CONFIGS+=("sgemm_tiled_v4 K=$1 W=$2|--tunable K=$1 --tunable W=$2|sgemm_tiled_v4.lift|256 384")
done
echo "== 1. checks started ($TARGET against the interpreter, tolerance 1e-3; in the background) [${SECONDS}s]"
small=${SMALL_CHECK:-}
i=0
for cfg in "${CONFIGS[@]}"; do
  IFS='|' read -r label opts prog sizes <<<"$cfg"
  [ -n "$small" ] && sizes=$small
  for n in $sizes; do
    i=$((i + 1))
    ( if out=$(timeout 180 $c bench -t $TARGET --no-tune-cache --check --tolerance 1e-3 --runs 1 $opts --size N=$n bench/gpu/$prog 2>&1) \
           && grep -q "agrees" <<<"$out"; then echo "$label N=$n: ok"
      else echo "$label N=$n: FAILED"; echo "$out" | tail -n 4; fi ) >"$TMPD/check$i.txt" 2>&1 &
  done
done
wait_checks() { for j in $(seq 1 $i); do while [ ! -s "$TMPD/check$j.txt" ]; do sleep 0.5; done; done; }
echo "== 2. kernel resources (nvcc -Xptxas -v, 32-bit indices; SASS where cuobjdump exists) [${SECONDS}s]"
if [ "$TARGET" = cuda ] && command -v nvcc >/dev/null; then
  ki=0
  for cfg in "${CONFIGS[@]}"; do
    IFS='|' read -r label opts prog sizes <<<"$cfg"
    ki=$((ki + 1)); k="$TMPD/k$ki"
    $c compile --print -t cuda --no-tune-cache $opts --size N=$BIG bench/gpu/$prog >"$k.cu" 2>"$k.err" || { echo "$label: compile failed: $(head -c 300 "$k.err")"; continue; }
    r=$(nvcc -arch=sm_90 -DCLIFT_INDEX=int -cubin -Xptxas -v -o "$k.cubin" "$k.cu" 2>&1 | grep -oE "Used [0-9]+ registers|[0-9]+ bytes stack frame|[0-9]+ bytes spill stores" | tr '\n' ' ')
    s=""
    if command -v cuobjdump >/dev/null; then
      cuobjdump -sass "$k.cubin" >"$k.sass" 2>/dev/null
      s="SASS: $(grep -c 'FFMA' "$k.sass") FFMA, $(grep -cE 'LDS\.128' "$k.sass") LDS.128, $(grep -cE 'LDS(\.U)?(\.32)? ' "$k.sass") LDS.32, $(grep -cE 'LDG\.E\.128' "$k.sass") LDG.128, $(grep -cE 'LDG\.E(\.CONSTANT)? ' "$k.sass") LDG.32, $(grep -cE 'LDL|STL' "$k.sass") LDL/STL"
    fi
    echo "$label: $r$s"
  done
fi
echo "== 3. compute-sanitizer racecheck, sgemm_tiled_v4 N=128, W=132 [${SECONDS}s]"
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ "$TARGET" = cuda ] && [ -f bench/gpu/sgemm_tiled_v4.lift ]; then
  for k in 8 16; do
    r=$(timeout 60 "$SAN" --tool racecheck --error-exitcode 3 $c bench -t cuda --no-tune-cache --runs 1 --tunable K=$k --size N=128 bench/gpu/sgemm_tiled_v4.lift 2>&1)
    echo "K=$k racecheck: exit $?, $(grep -E "RACECHECK SUMMARY|ERROR SUMMARY|hazard" <<<"$r" | head -n 3 | tr '\n' ' ')"
  done
fi
wait_checks
for j in $(seq 1 $i); do cat "$TMPD/check$j.txt"; done
echo "== 4. cuBLAS (before) [${SECONDS}s]"
[ "$TARGET" = cuda ] && { while [ ! -s "$TMPD/nvcc.rc" ]; do sleep 1; done; [ "$(cat "$TMPD/nvcc.rc")" = 0 ] || tail -n 5 "$TMPD/nvcc.log"; }
[ "$TARGET" = cuda ] && timeout 40 "$TMPD/peers" sgemm 2>&1 | grep -E "^peer(fail)? sgemm|failure" | tee "$TMPD/peer1.txt"
echo "== 5. clift bench -t $TARGET --runs 20 at N=$BIG, two rounds (ms) [${SECONDS}s]"
declare -A best
for round in 1 2; do
  for cfg in "${CONFIGS[@]}"; do
    IFS='|' read -r label opts prog sizes <<<"$cfg"
    [ $round = 2 ] && [ $SECONDS -gt ${ROUND2_BY:-190} ] && { echo "round 2 $label: skipped (${SECONDS}s: the 4-minute budget)"; continue; }
    m=$(timeout 60 $c bench -t $TARGET --no-tune-cache --runs 20 $opts --size N=$BIG bench/gpu/$prog 2>&1 | median)
    echo "round $round $label: ${m:-failed}"
    if [ -n "$m" ] && { [ -z "${best[$label]:-}" ] || awk -v a="$m" -v b="${best[$label]}" 'BEGIN { exit !(a < b) }'; }; then best[$label]=$m; fi
  done
done
if [ "$TARGET" = cuda ] && [ -f bench/gpu/sgemm_tiled_v4.lift ]; then
  for k in 16 32; do   # W = 132
    echo "opencl sgemm_tiled_v4 K=$k W=132: $(timeout 60 $c bench -t opencl --no-tune-cache --runs 20 --tunable K=$k --size N=$BIG bench/gpu/sgemm_tiled_v4.lift 2>&1 | median)"
  done
fi
echo "== 6. cuBLAS (after) [${SECONDS}s]"
[ "$TARGET" = cuda ] && timeout 40 "$TMPD/peers" sgemm 2>&1 | grep -E "^peer(fail)? sgemm|failure" | tee "$TMPD/peer2.txt"
cub=$(cat "$TMPD"/peer*.txt 2>/dev/null | sed -nE 's/^peer sgemm N=[0-9]+ ([0-9.]+)$/\1/p' | sort -g | head -n 1)
echo "== 7. summary: N=$BIG, $TARGET, the better of two rounds; cuBLAS ${cub:-—} ms (the better of two) [${SECONDS}s]"
printf '| %-28s | %9s | %8s | %14s |\n' configuration ms TFLOP/s "cuBLAS / clift"
printf '|%s|%s|%s|%s|\n' ------------------------------ ----------- ---------- ----------------
for cfg in "${CONFIGS[@]}"; do
  IFS='|' read -r label opts prog sizes <<<"$cfg"
  m=${best[$label]:-}
  if [ -z "$m" ]; then printf '| %-28s | %9s | %8s | %14s |\n' "$label" — — —; continue; fi
  tf=$(awk -v n=$BIG -v t="$m" 'BEGIN { printf "%.1f", 2 * n * n * n / (t * 1e-3) / 1e12 }')
  ratio=$( [ -n "$cub" ] && awk -v a="$cub" -v b="$m" 'BEGIN { printf "%.2f", a / b }' || echo —)
  printf '| %-28s | %9s | %8s | %14s |\n' "$label" "$m" "$tf" "$ratio"
done
[ -n "$cub" ] && printf '| %-28s | %9s | %8s | %14s |\n' "cuBLAS cublasSgemm" "$cub" "$(awk -v n=$BIG -v t="$cub" 'BEGIN { printf "%.1f", 2 * n * n * n / (t * 1e-3) / 1e12 }')" 1.00
echo "== done [${SECONDS}s]"
}
main 2>&1 | tee -a "$OUT/output.txt"
rm -rf "$TMPD"
