#!/usr/bin/env bash
# sgemm_db.sh — sgemm_tiled_v4 at 4096² with the loop over K's steps software-
# pipelined (dpia/pipeline.c, docs/design.md §14), against the same program
# without it (the default since its first run: the code timed in
# results/2026-11-27c-sgemm-transpose, 3.56 ms at K=8 W=132) and cublasSgemm,
# one device call (one H100), under 3.5 minutes:
#   1. builds clift (make) and peers.cu (nvcc, in the background);
#   2. the resources of each configuration's kernel: clift compile --print -t cuda,
#      nvcc -cubin -Xptxas -v with 32-bit indices (as the runtime compiles them
#      at 4096), and where cuobjdump exists the SASS's 128-bit loads, FFMAs,
#      barriers and local-memory accesses;
#   3. each new configuration checked on cuda against the interpreter at N = 256
#      and 384 (an odd number of tiles each way), in the background (an odd
#      number of steps, the last in the second half, is tests/lift/pipeline_tiles.lift);
#   4. compute-sanitizer racecheck at N = 128 on the pipelined and the
#      double-buffered kernels (one barrier per step: the check that matters);
#   5. clift bench -t cuda --runs 20 at N = 4096, every configuration twice (the
#      spread between the rounds is the noise);
#   6. peers.cu's cublasSgemm (fp32, no tf32), median of 50, before and after 5;
#   7. a table: ms (the better round), TFLOP/s, cuBLAS time / clift time;
#   8. Nsight Compute (SpeedOfLight, WarpStateStats, MemoryWorkloadAnalysis) on
#      the baseline and on the best new configuration at 4096 (one launch each).
# Configurations (all sgemm_tiled_v4.lift, W = 132): K=8 (the baseline);
# K=8 --pipeline (the next step's float4s read into
# registers after the first barrier, stored to local memory at the next step);
# K=8 --double-buffer (also two halves of each tile, one barrier per step);
# --unroll (#pragma unroll on the constant loops: the 8 k-steps of a K-step
# unrolled, 117-127 registers, still 2 groups per SM) alone and with both;
# K=16 pipelined and double-buffered (K=16 was 3.73 ms unpipelined), K=16
# double-buffered --unroll (128 registers; pipelined --unroll is 151: not
# timed); K=32 pipelined (not double-buffered: 66 KB of local memory); and
# sgemm_tiled.lift R=8 K=16 with and without pipelining (4.55 ms before), the
# pass being general and on by default.
# Usage (device): bash bench/gpu/sgemm_db.sh   (output also in $OUT/output.txt)
# Dry run without a GPU: TARGET=opencl BIG=256 SMALL_CHECK=128 bash bench/gpu/sgemm_db.sh
# (PoCL; no sanitizer, no peers, no resources, no ncu).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/sgemm_db}; mkdir -p "$OUT"
TMPD=$(mktemp -d /tmp/sgemm_db.XXXXXX)
main() {
TARGET=${TARGET:-cuda} BIG=${BIG:-4096}
c=build/clift p=bench/gpu/sgemm_tiled_v4.lift
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null
git log --oneline -1 2>/dev/null
[ "$TARGET" = cuda ] && ( timeout 150 nvcc -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o "$TMPD/peers" >"$TMPD/nvcc.log" 2>&1; echo $? >"$TMPD/nvcc.rc" ) &
make -s -j"$(nproc)" >&2 || { echo "build failed"; exit 1; }
median() { sed -nE 's/.*median ([0-9.]+) ms.*/\1/p'; }
# the configurations: LABEL|OPTIONS|CHECK SIZES (none: not checked, the code measured before)|PROGRAM (default $p)
CONFIGS=("v4 K=8 baseline|--tunable K=8 --tunable W=132|"
         "v4 K=8 pipelined|--tunable K=8 --tunable W=132 --pipeline|256 384"
         "v4 K=8 double-buffered|--tunable K=8 --tunable W=132 --double-buffer|256 384"
         "v4 K=8 --unroll|--tunable K=8 --tunable W=132 --unroll|256"
         "v4 K=8 pipelined --unroll|--tunable K=8 --tunable W=132 --pipeline --unroll|256 384"
         "v4 K=8 double-buffered --unroll|--tunable K=8 --tunable W=132 --double-buffer --unroll|256 384"
         "v4 K=16 pipelined|--tunable K=16 --tunable W=132 --pipeline|256 384"
         "v4 K=16 double-buffered|--tunable K=16 --tunable W=132 --double-buffer|256 384"
         "v4 K=16 double-buffered --unroll|--tunable K=16 --tunable W=132 --double-buffer --unroll|256"
         "v4 K=32 pipelined|--tunable K=32 --tunable W=132 --pipeline|256"
         "sgemm_tiled R=8 K=16|--tunable R=8 --tunable K=16||bench/gpu/sgemm_tiled.lift"
         "sgemm_tiled R=8 K=16 pipelined|--tunable R=8 --tunable K=16 --pipeline|256|bench/gpu/sgemm_tiled.lift")
echo "== 1. checks started ($TARGET against the interpreter, tolerance 1e-3; in the background) [${SECONDS}s]"
small=${SMALL_CHECK:-}
i=0
for cfg in "${CONFIGS[@]}"; do
  IFS='|' read -r label opts sizes prog <<<"$cfg"; prog=${prog:-$p}
  [ -n "$small" ] && [ -n "$sizes" ] && sizes=$small
  for n in $sizes; do
    i=$((i + 1))
    ( if out=$(timeout 180 $c bench -t $TARGET --no-tune-cache --check --tolerance 1e-3 --runs 1 $opts --size N=$n $prog 2>&1) \
           && grep -q "agrees" <<<"$out"; then echo "$label N=$n: ok"
      else echo "$label N=$n: FAILED"; echo "$out" | tail -n 4; fi ) >"$TMPD/check$i.txt" 2>&1 &
  done
done
wait_checks() { for j in $(seq 1 $i); do while [ ! -s "$TMPD/check$j.txt" ]; do sleep 0.5; done; done; }
echo "== 2. kernel resources (nvcc -Xptxas -v, 32-bit indices; SASS where cuobjdump exists) [${SECONDS}s]"
if [ "$TARGET" = cuda ] && command -v nvcc >/dev/null; then
  ki=0
  for cfg in "${CONFIGS[@]}"; do
    IFS='|' read -r label opts sizes prog <<<"$cfg"; prog=${prog:-$p}
    ki=$((ki + 1)); k="$TMPD/k$ki"
    $c compile --print -t cuda --no-tune-cache $opts --size N=$BIG $prog >"$k.cu" 2>"$k.err" || { echo "$label: compile failed: $(head -c 300 "$k.err")"; continue; }
    r=$(nvcc -arch=sm_90 -DCLIFT_INDEX=int -cubin -Xptxas -v -o "$k.cubin" "$k.cu" 2>&1 | grep -oE "Used [0-9]+ registers|[0-9]+ bytes stack frame|[0-9]+ bytes spill stores|[0-9]+ bytes smem" | tr '\n' ' ')
    s=""
    if command -v cuobjdump >/dev/null; then
      cuobjdump -sass "$k.cubin" >"$k.sass" 2>/dev/null
      s="SASS: $(grep -c 'FFMA' "$k.sass") FFMA, $(grep -cE 'LDS\.128' "$k.sass") LDS.128, $(grep -cE 'LDG\.E\.128' "$k.sass") LDG.128, $(grep -cE 'BAR\.SYNC' "$k.sass") BAR.SYNC, $(grep -cE 'LDL|STL' "$k.sass") LDL/STL"
    fi
    echo "$label: $r$s"
  done
fi
echo "== 3. compute-sanitizer racecheck at N=128 [${SECONDS}s]"
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ "$TARGET" = cuda ]; then
  for opts in "--tunable K=8" "--tunable K=8 --double-buffer" "--tunable K=16 --double-buffer"; do
    r=$(timeout 60 "$SAN" --tool racecheck --error-exitcode 3 $c bench -t cuda --no-tune-cache --runs 1 $opts --size N=128 $p 2>&1)
    echo "$opts racecheck: exit $?, $(grep -E "RACECHECK SUMMARY|ERROR SUMMARY|hazard" <<<"$r" | head -n 3 | tr '\n' ' ')"
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
    IFS='|' read -r label opts sizes prog <<<"$cfg"; prog=${prog:-$p}
    [ $round = 2 ] && [ $SECONDS -gt ${ROUND2_BY:-100} ] && { echo "round 2 $label: skipped (${SECONDS}s: the time budget)"; continue; }
    m=$(timeout 60 $c bench -t $TARGET --no-tune-cache --runs 20 $opts --size N=$BIG $prog 2>&1 | median)
    echo "round $round $label: ${m:-failed}"
    if [ -n "$m" ] && { [ -z "${best[$label]:-}" ] || awk -v a="$m" -v b="${best[$label]}" 'BEGIN { exit !(a < b) }'; }; then best[$label]=$m; fi
  done
done
echo "== 6. cuBLAS (after) [${SECONDS}s]"
[ "$TARGET" = cuda ] && timeout 40 "$TMPD/peers" sgemm 2>&1 | grep -E "^peer(fail)? sgemm|failure" | tee "$TMPD/peer2.txt"
cub=$(cat "$TMPD"/peer*.txt 2>/dev/null | sed -nE 's/^peer sgemm N=[0-9]+ ([0-9.]+)$/\1/p' | sort -g | head -n 1)
echo "== 7. summary: N=$BIG, $TARGET, the better of two rounds; cuBLAS ${cub:-—} ms (the better of two) [${SECONDS}s]"
printf '| %-36s | %9s | %8s | %14s |\n' configuration ms TFLOP/s "cuBLAS / clift"
printf '|%s|%s|%s|%s|\n' -------------------------------------- ----------- ---------- ----------------
bestnew="" bestms=""
for cfg in "${CONFIGS[@]}"; do
  IFS='|' read -r label opts sizes prog <<<"$cfg"; prog=${prog:-$p}
  m=${best[$label]:-}
  if [ -z "$m" ]; then printf '| %-36s | %9s | %8s | %14s |\n' "$label" — — —; continue; fi
  if [ -n "$sizes" ] && [ "$prog" = "$p" ] && { [ -z "$bestms" ] || awk -v a="$m" -v b="$bestms" 'BEGIN { exit !(a < b) }'; }; then bestms=$m bestnew=$cfg; fi
  tf=$(awk -v n=$BIG -v t="$m" 'BEGIN { printf "%.1f", 2 * n * n * n / (t * 1e-3) / 1e12 }')
  ratio=$( [ -n "$cub" ] && awk -v a="$cub" -v b="$m" 'BEGIN { printf "%.2f", a / b }' || echo —)
  printf '| %-36s | %9s | %8s | %14s |\n' "$label" "$m" "$tf" "$ratio"
done
[ -n "$cub" ] && printf '| %-36s | %9s | %8s | %14s |\n' "cuBLAS cublasSgemm" "$cub" "$(awk -v n=$BIG -v t="$cub" 'BEGIN { printf "%.1f", 2 * n * n * n / (t * 1e-3) / 1e12 }')" 1.00
echo "== 8. Nsight Compute at N=$BIG: the baseline and the fastest new configuration (${bestnew%%|*}) [${SECONDS}s]"
if [ "$TARGET" = cuda ] && command -v ncu >/dev/null; then
  for cfg in "${CONFIGS[0]}" ${bestnew:+"$bestnew"}; do
    IFS='|' read -r label opts sizes prog <<<"$cfg"; prog=${prog:-$p}
    [ $SECONDS -gt ${NCU_BY:-175} ] && { echo "-- $label: skipped (${SECONDS}s: the time budget)"; continue; }
    echo "-- $label"
    timeout 40 ncu --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis -k regex:'^k0$' --launch-count 1 \
      $c bench -t cuda --no-tune-cache --runs 1 $opts --size N=$BIG $prog 2>&1 | grep -vE "^==PROF==|^bench |^ *$" | cut -c1-160 | head -n 70
  done
fi
echo "== done [${SECONDS}s]"
}
main 2>&1 | tee -a "$OUT/output.txt"
rm -rf "$TMPD"
