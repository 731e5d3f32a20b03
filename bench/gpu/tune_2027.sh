#!/usr/bin/env bash
# tune_2027.sh — issue 14: `clift tune` over the schedule flags on sgemm_tiled_v4, and
# the Jacobi strategy programs against JAX and the hand kernel; one device call (one
# H100), under 4 minutes:
#   1. builds clift (make -j16) and peers.cu (nvcc, in the background);
#   2. clift tune -t cuda on sgemm_tiled_v4 at N = 4096: the 6 tunable assignments
#      (K 8 16 32, W 132 128) × the schedule flags --pipeline, --double-buffer,
#      --unroll = 32 distinct codes (the work-group is pinned: default launch only),
#      each checked against the interpreter at N = 256 (two tiles each way; the
#      default check size of 4096) and timed (median of 10); bounded by --time-limit
#      (SGEMM_LIMIT, default 90 s; expected: ~40 s, 0.5-1 s of NVRTC per code and
#      2-3 s of interpreter per tunable assignment); the seconds it took are printed;
#   3. clift bench -t cuda --runs 20 at 4096: the tuned configuration (read from the
#      cache: "using tuned configuration from …"), two rounds; the default
#      (--no-tune-cache); the best known by hand (K=8 W=132 --double-buffer --unroll,
#      3.08 ms on 2026-11-27);
#   4. clift tune -t cuda on jacobi_vec.lift (4 columns × R rows per work-item,
#      float4 loads and stores), jacobi_strip.lift (R outputs of a column per
#      work-item, loads reused in registers) and jacobi_tiled_r.lift (a local tile
#      with halo and R outputs per work-item) at 4096², bounded (--max-tries 200,
#      --time-limit 20 s each), checked at 256² (256×1024 for jacobi_vec); compute-sanitizer racecheck and memcheck on
#      jacobi_tiled_r (barriers, local memory) at 64×96 (unless past 140 s);
#   5. clift bench -t cuda --runs 50 at 4096², two rounds: jacobi.lift (untiled),
#      jacobi_tiled.lift (T=32, local 16×8: its tuned configuration of 2026-11-26),
#      the three new programs tuned (from the cache), jacobi_vec R=4 and
#      jacobi_strip R=8 at local 32×8 (round 2 skipped past 185 s);
#   6. peers.cu: cublasSgemm (fp32), the hand Jacobi kernel, the copy kernel of 2^24
#      floats (the bytes a 4096² Jacobi step reads and writes: copy bandwidth);
#      jax_peers.py jacobi (jax.jit; when JAX is installed);
#   7. tables: sgemm ms, TFLOP/s, cuBLAS/clift; Jacobi ms, JAX/clift, hand/clift,
#      % of copy bandwidth (copy time / time).
# Output: a short summary on stdout, also in $OUT/output.txt; the tune runs' progress
# and the raw peer lines in $OUT/*.log.
# Usage (device): bash bench/gpu/tune_2027.sh
# Dry run without a GPU: TARGET=opencl BIG=256 JBIG=256 bash bench/gpu/tune_2027.sh
# (PoCL, small sizes; no peers, no JAX.)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tune_2027}; mkdir -p "$OUT"
TMPD=$(mktemp -d /tmp/tune_2027.XXXXXX)
export CLIFT_TUNE_CACHE=$TMPD/cache   # a fresh cache: this run's choices only
main() {
TARGET=${TARGET:-cuda} BIG=${BIG:-4096} JBIG=${JBIG:-4096}
c=build/clift v4=bench/gpu/sgemm_tiled_v4.lift
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null
git log --oneline -1 2>/dev/null
[ "$TARGET" = cuda ] && ( timeout 170 nvcc -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o "$TMPD/peers" >"$TMPD/nvcc.log" 2>&1; echo $? >"$TMPD/nvcc.rc" ) &
make -s -j"${MAKEJ:-16}" >&2 || { echo "build failed"; exit 1; }
median() { sed -nE 's/.*median ([0-9.]+) ms.*/\1/p'; }
better() { [ -z "$2" ] || awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
# tune LABEL LOG ARGS…: the header, the ranking and the best on stdout; progress in LOG
tune() {
  local label=$1 log=$2; shift 2
  local t0=$SECONDS
  $c tune -t $TARGET "$@" >"$TMPD/tune.out" 2>"$OUT/$log"
  local rc=$?
  echo "$label: exit $rc in $((SECONDS - t0)) s; $(grep -m1 -oE '[0-9]+ candidates \(.*\)' "$OUT/$log")"
  grep -E '^tuned |^ +[0-9]+\. |^best: ' "$TMPD/tune.out" | sed 's/^/  /'
  grep -E 'DISAGREES' "$OUT/$log" | head -n 5
  [ $rc = 0 ] || tail -n 3 "$OUT/$log"
}

echo "== 1. clift tune -t $TARGET sgemm_tiled_v4 N=$BIG (checks at N=256 against the interpreter) [${SECONDS}s]"
tune "sgemm_tiled_v4" tune_sgemm.log --size N=$BIG --check-size N=256 --tolerance 1e-3 --runs 10 --time-limit ${SGEMM_LIMIT:-90} $v4

echo "== 2. sgemm_tiled_v4 at N=$BIG, clift bench -t $TARGET --runs 20 (ms) [${SECONDS}s]"
declare -A best
SG=("tuned (from the cache)||2"
    "default (--no-tune-cache)|--no-tune-cache|1"
    "K=8 W=132 --double-buffer --unroll|--tunable K=8 --tunable W=132 --double-buffer --unroll|1")
for round in 1 2; do
  for cfg in "${SG[@]}"; do
    IFS='|' read -r label opts rounds <<<"$cfg"
    [ $round -gt $rounds ] && continue
    out=$(timeout 60 $c bench -t $TARGET --runs 20 $opts --size N=$BIG $v4 2>&1)
    m=$(median <<<"$out")
    echo "round $round $label: ${m:-failed} $(grep -oE 'using tuned configuration .*' <<<"$out" | sed "s|$CLIFT_TUNE_CACHE/||")"
    [ -n "$m" ] || tail -n 3 <<<"$out"
    if [ -n "$m" ] && better "$m" "${best[$label]:-}"; then best[$label]=$m; fi
  done
done

echo "== 3. clift tune -t $TARGET on the Jacobi strategy programs, ${JBIG}² (checks at 256²) [${SECONDS}s]"
JS="--size N=$JBIG --size M=$JBIG" JS4="--size N=$JBIG --size M4=$((JBIG / 4))"
tune "jacobi_vec" tune_jvec.log $JS4 --runs 10 --max-tries ${JTRIES:-200} --time-limit ${JLIMIT:-20} bench/gpu/jacobi_vec.lift
tune "jacobi_strip" tune_jstrip.log $JS --runs 10 --max-tries ${JTRIES:-200} --time-limit ${JLIMIT:-20} bench/gpu/jacobi_strip.lift
tune "jacobi_tiled_r" tune_jtiled_r.log $JS --runs 10 --max-tries ${JTRIES:-200} --time-limit ${JLIMIT:-20} bench/gpu/jacobi_tiled_r.lift

if [ "$TARGET" = cuda ] && [ $SECONDS -gt ${SAN_BY:-140} ]; then
  echo "compute-sanitizer: skipped (${SECONDS}s: the 4-minute budget)"
elif [ "$TARGET" = cuda ]; then
  SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in racecheck memcheck; do
    for opts in "--no-tune-cache" "--no-tune-cache --tunable TY=4 --tunable R=2 --local-size 32,2"; do
      r=$(timeout 40 "$SAN" --tool $tool --error-exitcode 3 $c bench -t cuda --runs 1 $opts --size N=64 --size M=96 bench/gpu/jacobi_tiled_r.lift 2>&1)
      echo "jacobi_tiled_r $opts $tool: exit $?, $(grep -E "RACECHECK SUMMARY|ERROR SUMMARY" <<<"$r" | head -n 1)"
    done
  done
fi

echo "== 4. Jacobi at ${JBIG}², clift bench -t $TARGET --runs 50, two rounds (ms) [${SECONDS}s]"
JC=("jacobi.lift (untiled, one point per item)|--no-tune-cache|jacobi.lift"
    "jacobi_tiled T=32 local 16x8|--tunable T=32 --local-size 16,8|jacobi_tiled.lift"
    "jacobi_vec tuned|-|jacobi_vec.lift|4"
    "jacobi_vec R=4 local 32x8|--tunable R=4 --local-size 32,8|jacobi_vec.lift|4"
    "jacobi_strip tuned|-|jacobi_strip.lift"
    "jacobi_strip R=8 local 32x8|--tunable R=8 --local-size 32,8|jacobi_strip.lift"
    "jacobi_tiled_r tuned|-|jacobi_tiled_r.lift")
for round in 1 2; do
  [ $round = 2 ] && [ $SECONDS -gt ${ROUND2_BY:-185} ] && { echo "round 2: skipped (${SECONDS}s: the 4-minute budget)"; continue; }
  for cfg in "${JC[@]}"; do
    IFS='|' read -r label opts prog vec <<<"$cfg"
    [ "$opts" = - ] && opts=""
    sizes=$JS; [ -n "$vec" ] && sizes=$JS4
    out=$(timeout 40 $c bench -t $TARGET --runs 50 $opts $sizes bench/gpu/$prog 2>&1)
    m=$(median <<<"$out")
    echo "round $round $label: ${m:-failed} $(grep -oE 'using tuned configuration .*' <<<"$out" | sed "s|$CLIFT_TUNE_CACHE/||")"
    [ -n "$m" ] || tail -n 3 <<<"$out"
    if [ -n "$m" ] && better "$m" "${best[$label]:-}"; then best[$label]=$m; fi
  done
done

echo "== 5. peers: cuBLAS, hand Jacobi, copy (peers.cu); JAX (jax_peers.py) [${SECONDS}s]"
if [ "$TARGET" = cuda ]; then
  while [ ! -s "$TMPD/nvcc.rc" ]; do sleep 1; done
  [ "$(cat "$TMPD/nvcc.rc")" = 0 ] || tail -n 5 "$TMPD/nvcc.log"
  timeout 60 "$TMPD/peers" sgemm jacobi >"$OUT/peers.log" 2>&1
  grep -E "^peer(fail)? (sgemm|jacobi|copy_kernel N=16777216|memcpy_d2d N=16777216)|failure" "$OUT/peers.log"
  timeout 60 env PYTHONUNBUFFERED=1 JAX_PEERS_RUNS=50 python3 bench/gpu/jax_peers.py jacobi >"$OUT/jax.log" 2>&1
  grep -E "^jax(fail)? jacobi|jax unavailable" "$OUT/jax.log" || tail -n 2 "$OUT/jax.log"
fi
cub=$(sed -nE 's/^peer sgemm N=[0-9]+ ([0-9.]+)$/\1/p' "$OUT/peers.log" 2>/dev/null | head -n 1)
hand=$(sed -nE 's/^peer jacobi N=[0-9]+,M=[0-9]+ ([0-9.]+)$/\1/p' "$OUT/peers.log" 2>/dev/null | head -n 1)
copy=$(sed -nE 's/^peer (copy_kernel|memcpy_d2d) N=16777216 ([0-9.]+)$/\2/p' "$OUT/peers.log" 2>/dev/null | sort -g | head -n 1)
jax=$(sed -nE 's/^jax jacobi N=[0-9]+,M=[0-9]+ ([0-9.]+)$/\1/p' "$OUT/jax.log" 2>/dev/null | head -n 1)

ratio() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }' || echo —; }
echo "== 6. summary [${SECONDS}s]"
echo "sgemm N=$BIG, $TARGET (the better round); cuBLAS ${cub:-—} ms"
printf '| %-36s | %9s | %8s | %14s |\n' configuration ms TFLOP/s "cuBLAS / clift"
for cfg in "${SG[@]}"; do
  IFS='|' read -r label opts rounds <<<"$cfg"
  m=${best[$label]:-}
  tf=$([ -n "$m" ] && awk -v n=$BIG -v t="$m" 'BEGIN { printf "%.1f", 2 * n * n * n / (t * 1e-3) / 1e12 }' || echo —)
  printf '| %-36s | %9s | %8s | %14s |\n' "$label" "${m:-—}" "$tf" "$(ratio "$cub" "$m")"
done
echo "Jacobi ${JBIG}², $TARGET (the better round); JAX ${jax:-—} ms, hand kernel ${hand:-—} ms, copy of 2^24 floats ${copy:-—} ms"
printf '| %-40s | %9s | %10s | %11s | %10s |\n' program ms "JAX / clift" "hand / clift" "% copy BW"
for cfg in "${JC[@]}"; do
  IFS='|' read -r label opts prog vec <<<"$cfg"
  m=${best[$label]:-}
  bw=$([ -n "$m" ] && [ -n "$copy" ] && awk -v a="$copy" -v b="$m" 'BEGIN { printf "%.0f%%", 100 * a / b }' || echo —)
  printf '| %-40s | %9s | %10s | %11s | %10s |\n' "$label" "${m:-—}" "$(ratio "$jax" "$m")" "$(ratio "$hand" "$m")" "$bw"
done
echo "== done [${SECONDS}s]"
}
main 2>&1 | tee -a "$OUT/output.txt"
rm -rf "$TMPD"
