#!/usr/bin/env bash
# issue14_goals.sh — the goals of issue 14 not yet measured, in one device call (one
# H100, ~4 minutes), every clift configuration beside its peer in the same call:
#   1. sgemm_tiled_v4 at 8192² (and 4096²) on cuda and opencl with the configuration
#      `clift tune` chose on 2026-11-27 (K=8 W=132 --double-buffer --unroll), and the
#      default; cuBLAS (peers.cu sgemm, sgemm_big) at both sizes;
#   2. transpose_4 T=64 R=4 at 8192² on cuda and opencl; cublasSgeam (peers.cu);
#   3. jacobi_vec R=2 local 16×32 at 4096² on cuda and opencl; JAX and the hand kernel;
#      also local 32×8: NVIDIA's OpenCL answers CL_KERNEL_WORK_GROUP_SIZE 256 for its
#      kernel (39 registers; 2026-11-28, bench/gpu/jacobi_ocl_2026-11-28.sh), so 16×32
#      is refused there with "this device allows at most 256";
#   4. scal, asum, dot at 2^24 on cuda and opencl against the copy kernel moving the
#      same bytes (scal, dot: a copy of 2^24 floats; asum: of 2^23);
#   each clift program first checked against the interpreter at a small size
#   (`clift bench --check`), then `clift bench --runs 20` twice (the better median).
# Output: $OUT/output.txt (the tables), $OUT/peers.log, $OUT/jax.log.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/issue14}; mkdir -p "$OUT"
TMPD=$(mktemp -d /tmp/issue14.XXXXXX)
main() {
c=build/clift
date -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
( timeout 170 nvcc -O3 -arch=sm_90 bench/gpu/peers.cu -lcublas -o "$TMPD/peers" >"$TMPD/nvcc.log" 2>&1; echo $? >"$TMPD/nvcc.rc" ) &
make -s -j16 >&2 || { echo "build failed"; exit 1; }
median() { sed -nE 's/.*median ([0-9.]+) ms.*/\1/p'; }
declare -A ms
# label | target | options | small sizes (check) | full sizes | program
CFG=(
  "sgemm_v4 tuned 4096|K=8 W=132 --double-buffer --unroll|--size N=256|--size N=4096|sgemm_tiled_v4"
  "sgemm_v4 tuned 8192|K=8 W=132 --double-buffer --unroll|--size N=256|--size N=8192|sgemm_tiled_v4"
  "sgemm_v4 default 8192||--size N=256|--size N=8192|sgemm_tiled_v4"
  "transpose_4 T=64 R=4|T=64 R=4|--size N=256 --size M4=64|--size N=8192 --size M4=2048|transpose_4"
  "jacobi_vec R=2 16x32|R=2 --local-size 16,32|--size N=256 --size M4=64|--size N=4096 --size M4=1024|jacobi_vec"
  "jacobi_vec R=2 32x8|R=2 --local-size 32,8|--size N=256 --size M4=64|--size N=4096 --size M4=1024|jacobi_vec"
  "scal 2^24||--size N=4100|--size N=16777216|scal"
  "asum 2^24||--size N=4100|--size N=16777216|asum"
  "dot 2^24||--size N=4100|--size N=16777216|dot"
)
opts_of() {   # "K=8 W=132 --double-buffer" -> --tunable K=8 --tunable W=132 --double-buffer
  local o r=""; for o in $1; do case $o in --*|[0-9]*,*) r="$r $o";; *=*) r="$r --tunable $o";; *) r="$r $o";; esac; done; echo "$r"
}
for t in cuda opencl; do
  echo "== $t: checks against the interpreter [${SECONDS}s]"
  for cfg in "${CFG[@]}"; do
    IFS='|' read -r label o small full prog <<<"$cfg"
    opts=$(opts_of "$o")
    r=$(timeout 90 $c bench -t $t --no-tune-cache --check --tolerance 1e-3 --runs 1 $opts $small bench/gpu/$prog.lift 2>&1)
    echo "check $t $label: exit $? $(grep -oiE 'check(ed)?[^;]*(agree|disagree|ok|fail)[^;]*' <<<"$r" | head -n 1)"
  done
  for round in 1 2; do
    echo "== $t: round $round, clift bench --runs 20 [${SECONDS}s]"
    for cfg in "${CFG[@]}"; do
      IFS='|' read -r label o small full prog <<<"$cfg"
      opts=$(opts_of "$o")
      m=$(timeout 90 $c bench -t $t --no-tune-cache --runs 20 $opts $full bench/gpu/$prog.lift 2>&1 | median)
      echo "$t $label: ${m:-failed}"
      if [ -n "$m" ] && { [ -z "${ms[$t $label]:-}" ] || awk -v a="$m" -v b="${ms[$t $label]}" 'BEGIN{exit !(a<b)}'; }; then ms[$t $label]=$m; fi
    done
  done
done
echo "== peers [${SECONDS}s]"
while [ ! -s "$TMPD/nvcc.rc" ]; do sleep 1; done
[ "$(cat "$TMPD/nvcc.rc")" = 0 ] || tail -n 5 "$TMPD/nvcc.log"
timeout 120 "$TMPD/peers" sgemm sgemm_big transpose jacobi scal asum dot copy_half >"$OUT/peers.log" 2>&1
grep -E "^peer|failure" "$OUT/peers.log"
timeout 60 env PYTHONUNBUFFERED=1 JAX_PEERS_RUNS=50 python3 bench/gpu/jax_peers.py jacobi >"$OUT/jax.log" 2>&1
grep -E "^jax(fail)? jacobi|jax unavailable" "$OUT/jax.log" || tail -n 2 "$OUT/jax.log"
peer() { sed -nE "s/^peer $1 ([0-9.]+)\$/\\1/p" "$OUT/peers.log" | head -n 1; }
jax=$(sed -nE 's/^jax jacobi N=[0-9]+,M=[0-9]+ ([0-9.]+)$/\1/p' "$OUT/jax.log" | head -n 1)
copy24=$(peer "copy_kernel N=16777216"); copy23=$(peer "copy_kernel N=8388608")
declare -A P=(
  ["sgemm_v4 tuned 4096"]="cuBLAS|$(peer 'sgemm N=4096')"
  ["sgemm_v4 tuned 8192"]="cuBLAS|$(peer 'sgemm N=8192')"
  ["sgemm_v4 default 8192"]="cuBLAS|$(peer 'sgemm N=8192')"
  ["transpose_4 T=64 R=4"]="cublasSgeam|$(peer 'transpose N=8192,M=8192')"
  ["jacobi_vec R=2 16x32"]="JAX|$jax"
  ["jacobi_vec R=2 32x8"]="JAX|$jax"
  ["scal 2^24"]="copy 2^24|$copy24"
  ["asum 2^24"]="copy 2^23|$copy23"
  ["dot 2^24"]="copy 2^24|$copy24"
)
echo "== summary [${SECONDS}s] (the better of two rounds; peer/clift > 1: clift faster)"
printf '| %-22s | %-6s | %9s | %-12s | %9s | %11s |\n' program target "clift ms" peer "peer ms" "peer/clift"
for cfg in "${CFG[@]}"; do
  IFS='|' read -r label _ <<<"$cfg"
  IFS='|' read -r pname pms <<<"${P[$label]}"
  for t in cuda opencl; do
    m=${ms[$t $label]:-}
    ratio=$([ -n "$m" ] && [ -n "$pms" ] && awk -v p="$pms" -v m="$m" 'BEGIN{printf "%.2f", p/m}')
    printf '| %-22s | %-6s | %9s | %-12s | %9s | %11s |\n' "$label" $t "${m:-—}" "$pname" "${pms:-—}" "${ratio:-—}"
  done
done
echo "== done [${SECONDS}s]"
}
main 2>&1 | tee "$OUT/output.txt"
