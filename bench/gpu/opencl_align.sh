#!/usr/bin/env bash
# opencl_align.sh — the OpenCL aligned vector accesses (c_expr.c codegen_cl_vector_aligned)
# on NVIDIA's OpenCL: sgemm_tiled_v4 and transpose_4 before (CLIFT_OLD, a build of the
# commit before, given as a source folder) and after, cuda and cuBLAS beside them, and why
# jacobi_vec failed at local 16×32 on NVIDIA OpenCL (2026-11-27 issue14_goals.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/oalign}; mkdir -p "$OUT"
main() {
make -s -j16 >&2 || { echo "build failed"; exit 1; }
old=${CLIFT_OLD:-}
[ -n "$old" ] && { make -s -C "$old" -j16 >&2 || old=""; }
median() { sed -nE 's/.*median ([0-9.]+) ms.*/\1/p'; }
for round in 1 2; do
  for c in build/clift ${old:+$old/build/clift}; do
    for t in opencl cuda; do
      [ "$c" != build/clift ] && [ $t = cuda ] && continue
      tag=$([ "$c" = build/clift ] && echo new || echo old)
      echo "round $round $tag $t sgemm_v4 8192 tuned: $(timeout 90 $c bench -t $t --no-tune-cache --runs 10 --tunable K=8 --tunable W=132 --double-buffer --unroll --size N=8192 bench/gpu/sgemm_tiled_v4.lift 2>&1 | median)"
      echo "round $round $tag $t sgemm_v4 4096 tuned: $(timeout 90 $c bench -t $t --no-tune-cache --runs 20 --tunable K=8 --tunable W=132 --double-buffer --unroll --size N=4096 bench/gpu/sgemm_tiled_v4.lift 2>&1 | median)"
      echo "round $round $tag $t transpose_4 T=64 R=4: $(timeout 90 $c bench -t $t --no-tune-cache --runs 20 --tunable T=64 --tunable R=4 --size N=8192 --size M4=2048 bench/gpu/transpose_4.lift 2>&1 | median)"
    done
  done
done
echo "== checks (new build)"
for t in opencl cuda; do
  echo "check $t sgemm_v4: $(timeout 90 build/clift bench -t $t --no-tune-cache --check --tolerance 1e-3 --runs 1 --tunable K=8 --tunable W=132 --double-buffer --unroll --size N=256 bench/gpu/sgemm_tiled_v4.lift 2>&1 | grep -m1 -i check)"
  echo "check $t transpose_4: $(timeout 90 build/clift bench -t $t --no-tune-cache --check --runs 1 --tunable T=64 --tunable R=4 --size N=256 --size M4=64 bench/gpu/transpose_4.lift 2>&1 | grep -m1 -i check)"
done
echo "== jacobi_vec on NVIDIA OpenCL, local 16x32 and default"
for ls in "--local-size 16,32" ""; do
  echo "jacobi_vec R=2 $ls:"; timeout 60 build/clift bench -t opencl --no-tune-cache --check --tolerance 1e-3 --runs 1 --tunable R=2 $ls --size N=256 --size M4=64 bench/gpu/jacobi_vec.lift 2>&1 | tail -n 4
done
echo "jacobi_vec opencl R=2 default local, 4096²: $(timeout 60 build/clift bench -t opencl --no-tune-cache --runs 20 --tunable R=2 --size N=4096 --size M4=1024 bench/gpu/jacobi_vec.lift 2>&1 | median)"
}
main 2>&1 | tee "$OUT/output.txt"
