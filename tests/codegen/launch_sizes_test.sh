#!/usr/bin/env bash
# launch_sizes_test.sh — SPEC §6: grid-stride loops make any launch size
# correct. Programs with work-groups, local memory, barriers and multi-kernel
# plans run on the device targets with odd --local-size/--global-size values
# and must agree with the interpreter on fresh random inputs.
# Usage: launch_sizes_test.sh path/to/clift    Prints "N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"
targets=$("$CLIFT" test --list-targets | grep -E '^(opencl|cuda)$')
if [ -z "$targets" ]; then echo "SKIP: no device target here (opencl, cuda)"; # --local-size for dimension 0 of a 2-D kernel: the other dimension shrinks so
# that the work-group fits the device (64 x 128 is more than any device allows);
# a --local-size the device cannot hold is a clear error, exit 1
for t in $targets; do
  if out=$("$CLIFT" bench -t "$t" --check --runs 1 --local-size 128 --size N=3 --size M=128 tests/codegen/grid2d.lift 2>&1) \
     && grep -q "agrees with interp" <<<"$out"; then ok
  else bad "$t grid2d.lift --local-size 128: $out"; fi
  out=$("$CLIFT" run -t "$t" --local-size 100000 tests/codegen/grid2d.lift '[[1, 2], [3, 4]]' 2>&1); rc=$?
  if [ "$rc" -eq 1 ] && grep -q "error: --local-size gives kernel k0 work-groups of 100000 work-items; this device allows at most" <<<"$out"; then ok
  else bad "$t grid2d.lift --local-size 100000 (exit $rc): $out"; fi
done
summary "launch sizes"; exit; fi
# program | sizes
cases=(
  "tests/lift/reduce_top.lift|--size N=40000"
  "bench/gpu/transpose.lift|--size N=64 --size M=96"
  "bench/gpu/gemv.lift|--size N=9 --size M=300"
  "bench/gpu/jacobi.lift|--size N=23 --size M=37"
  "bench/gpu/jacobi_tiled.lift|--size N=48 --size M=32"
  "bench/gpu/jacobi_strip.lift|--size N=24 --size M=37"
  "bench/gpu/jacobi_tiled_r.lift|--size N=64 --size M=96"
  "bench/gpu/jacobi_vec.lift|--size N=20 --size M4=9"
  "bench/gpu/transpose_tiled.lift|--size N=32 --size M=64"
  "bench/gpu/scal.lift|--size N=1000"
  "tests/regress/iterate_dim1.lift|--size N=6 --size M=13"
)
launches=("--local-size 1 --global-size 1" "--local-size 3,5 --global-size 17,11" "--local-size 7 --global-size 300" "--local-size 64,4")
for t in $targets; do
  for c in "${cases[@]}"; do
    prog=${c%%|*}; sizes=${c#*|}
    for l in "${launches[@]}"; do
      # shellcheck disable=SC2086
      if out=$("$CLIFT" bench -t "$t" --check --runs 1 --tolerance 1e-3 $l $sizes "$prog" 2>&1) && grep -q "agrees with interp" <<<"$out"; then ok
      else bad "$t $prog $l: $out"; fi
    done
  done
done
# --local-size for dimension 0 of a 2-D kernel: the other dimension shrinks so
# that the work-group fits the device (64 x 128 is more than any device allows);
# a --local-size the device cannot hold is a clear error, exit 1
for t in $targets; do
  if out=$("$CLIFT" bench -t "$t" --check --runs 1 --local-size 128 --size N=3 --size M=128 tests/codegen/grid2d.lift 2>&1) \
     && grep -q "agrees with interp" <<<"$out"; then ok
  else bad "$t grid2d.lift --local-size 128: $out"; fi
  out=$("$CLIFT" run -t "$t" --local-size 100000 tests/codegen/grid2d.lift '[[1, 2], [3, 4]]' 2>&1); rc=$?
  if [ "$rc" -eq 1 ] && grep -q "error: --local-size gives kernel k0 work-groups of 100000 work-items; this device allows at most" <<<"$out"; then ok
  else bad "$t grid2d.lift --local-size 100000 (exit $rc): $out"; fi
done
summary "launch sizes"
