#!/usr/bin/env bash
# opencl_test.sh — what the generated OpenCL C looks like (SPEC §4.2, §6):
#   - barriers: one after a toLocal mapLcl whose result other work-items read
#     (plus one closing the work-group loop body, before the next iteration
#     overwrites the local buffer), none when each item reads what it wrote;
#   - loops as grid-stride loops over the ids of their level; __local arrays
#     without the work-group index; vload4/vstore4 for asVector;
#   - the host plan: a parallel map then a sequential sum are two kernels,
#     the second run by one work-item;
#   - seed 004 §6.3's dot product keeps the paper's structure: a work-group
#     loop, a local loop, a private float4 accumulator, a sequential loop of
#     2048 vload4s of both inputs, one store per work-item.
# Only text is checked: no OpenCL platform is needed (the runs are `clift test`).
# Usage: opencl_test.sh path/to/clift    Prints "N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"
GEN_TARGET=opencl
AL=' __attribute__\(\(aligned\(16\)\)\)'   # local arrays are aligned for float4 accesses


f=tests/lift/local_neighbours.lift
if gen $f; then
  expect_count $f 'barrier\(CLK_LOCAL_MEM_FENCE\);' 2 "barriers (after the writer, closing the work-group body)"
  # the first barrier comes right after the mapLcl loop that fills the local buffer
  if awk '/loc[0-9]+\[lid[0-9]+\] = /{w=1} w&&/^    }$/{getline; print; exit}' "$T/gen" | grep -q 'barrier('; then ok
  else bad "$f: no barrier right after the loop writing local memory"; fi
  expect_count $f "__local float loc[0-9]+\\[4\\]$AL;" 1 "one local array of 4 floats per work-group"
  expect_count $f 'for \(clift_index wid[0-9]+ = get_group_id\(0\); wid[0-9]+ < N / 4; wid[0-9]+ \+= get_num_groups\(0\)\)' 1 "work-group loop"
  expect_count $f 'for \(clift_index lid[0-9]+ = get_local_id\(0\); lid[0-9]+ < 4; lid[0-9]+ \+= get_local_size\(0\)\)' 2 "local loops"
fi

f=tests/lift/local_same_item.lift
if gen $f; then
  expect_count $f 'barrier' 0 "barriers when each work-item reads what it wrote"
  expect_count $f "__local float loc[0-9]+\\[4\\]$AL;" 1 "local array"
fi

# a lane of a float4 in global memory is written as one scalar (FINDINGS F9, F11)
for f in tests/regress/vec_lane_store_race.lift tests/regress/vec_lane_field_store.lift; do
  if gen $f; then
    expect_count $f '\(\(__global float \*\)&?out(\[[^]]*\](\.f[0-9])*)?\)\[[^]]*\] = ' 1 "lane stores as scalar stores"
    expect_count $f '\(out\[[^]]*\](\.f[0-9])*\)\[' 0 "lane stores into a vector"
  fi
done

# vector accesses at a multiple of their width are one aligned access through a
# pointer cast (NVIDIA's compiler splits a vload4 it cannot prove aligned: issue 14,
# sgemm_tiled_v4 at 0.63 of cuBLAS on OpenCL); elsewhere vloadN (any alignment)
f=tests/lift/vadd4.lift
if gen $f; then
  expect_count $f '\(\*\(__global const float4 \*\)&(xs|ys)\[gid[0-9]+ \* 4\]\)' 2 "vector loads (aligned)"
  expect_count $f '^ *\*\(__global float4 \*\)&out\[gid[0-9]+ \* 4\] = ' 1 "vector store (aligned)"
  expect_count $f 'vload4|vstore4' 0 "vloadN/vstoreN where the index is a multiple of 4"
  expect_count $f 'for \(clift_index gid[0-9]+ = get_global_id\(0\); .* \+= get_global_size\(0\)\)' 1 "grid-stride loop"
fi

f=tests/lift/vec4_rows.lift   # aligned by the size condition "4 divides M"
if gen $f; then
  expect_count $f '\(\*\(__global const float4 \*\)&a\[M \* gid[0-9]+ \+ gid[0-9]+ \* 4\]\)' 2 "float4 loads of a row (M a multiple of 4)"
  expect_count $f 'vload4' 0 "vload4 where the size conditions prove the alignment"
fi
if "$CLIFT" compile -t opencl -o "$T/v4rows" $f > "$T/err" 2>&1; then
  if [ "$(grep -c 'if (M % 4 != 0) {' "$T/v4rows/vec4_rows_host.c")" = 1 ]; then ok
  else bad "$f: the OpenCL library does not refuse an M that 4 does not divide (once)"; fi
else bad "$f: clift compile -t opencl -o failed: $(cat "$T/err")"; fi
f=tests/lift/vec4_unaligned.lift   # window i's float4 starts at xs[i]
if gen $f; then
  expect_count $f 'vload4\(0, &xs\[gid[0-9]+ \+ i[0-9]+ \* 4\]\)' 1 "vload4 of an unaligned float4"
  expect_count $f '^ *\*\(__global float4 \*\)&out\[gid[0-9]+ \* 4 \+ i[0-9]+ \* 4\] = ' 1 "the aligned store"
fi

f=tests/codegen/dot_par_seq.lift
if gen $f; then
  expect_count $f '^__kernel void' 2 "kernels (parallel map, then the sequential sum)"
  expect_count $f '^/\* k1: one work-item \*/' 1 "the sum runs on one work-item"
  expect_count $f '__global float \*restrict tmp[0-9]+' 2 "the temporary is a global buffer of both kernels"
  expect_count $f 'barrier' 0 "barriers (the kernel boundary separates them)"
fi

# in_order PROG PATTERN… : each pattern matches a line after the previous one's
in_order() {
  local f=$1 last=0 pat n; shift
  for pat in "$@"; do
    n=$(grep -nE "$pat" "$T/gen" | awk -F: -v l="$last" '$1 > l { print $1; exit }')
    if [ -z "$n" ]; then bad "$f: no line matching '$pat' after line $last"; sed -n '/__kernel/,$p' "$T/gen"; return; fi
    last=$n
  done
  ok
}

for f in tests/lift/dot_vec4_wrg.lift tests/lift/dot_vec4_wrg_scalar.lift; do
  gen $f || continue
  expect_count $f '^__kernel void' 1 "one kernel"
  expect_count $f 'for \(clift_index' 3 "loops (work-group, local, sequential)"
  expect_count $f '\(\*\(__global const float4 \*\)&(xs|ys)\[' 2 "vector loads (one per input, aligned)"
  expect_count $f '(barrier|__local)' 0 "barriers or local memory"
  expect_count $f '(out\[[^]]*\] = )' 1 "stores to the output"
  store='out\[wid[0-9]+ \* 4 \+ lid[0-9]+\] = acc[0-9]+;'
  [ $f = tests/lift/dot_vec4_wrg_scalar.lift ] && store='\*\(__global float4 \*\)&out\[wid[0-9]+ \* 16 \+ lid[0-9]+ \* 4\] = acc[0-9]+;'
  in_order $f 'for \(clift_index wid[0-9]+ = get_group_id\(0\); wid[0-9]+ < N / 32768; wid[0-9]+ \+= get_num_groups\(0\)\)' \
    'for \(clift_index lid[0-9]+ = get_local_id\(0\); lid[0-9]+ < 4; lid[0-9]+ \+= get_local_size\(0\)\)' \
    '^ +float4 acc[0-9]+;' '^ +acc[0-9]+ = z;' 'for \(clift_index i[0-9]+ = 0; i[0-9]+ < 2048; i[0-9]+ \+= 1\)' \
    'acc[0-9]+ = \(acc[0-9]+ \+ \(\(\*\(__global const float4 \*\)&xs\[wid[0-9]+ \* 32768 \+ lid[0-9]+ \* 8192 \+ i[0-9]+ \* 4\]\) \* \(\*\(__global const float4 \*\)&ys\[wid[0-9]+ \* 32768 \+ lid[0-9]+ \* 8192 \+ i[0-9]+ \* 4\]\)\)\);' \
    '^      }$' "$store"
done

# Issue 11 item 7: the top-level filter and scan in one pass (lib.sh)
# a top-level reduce: its full tiles read without the padding's check
check_reduce_tiles 'barrier\(CLK_LOCAL_MEM_FENCE\);'

check_single_pass '^__kernel void' 'atomic_inc\(' '\(\*\(volatile __global long \*\)&'
# --no-single-pass: the three steps instead (no counter, no status words), and
# the programs agree with the interpreter that way on this machine's OpenCL
for f in tests/regress/lookback_filter.lift tests/regress/lookback_scan.lift; do
  GEN_FLAGS=--no-single-pass gen $f || continue
  expect_count $f 'atomic_inc\(' 0 "atomic tile counters with --no-single-pass"
  expect_count $f 'volatile' 0 "volatile accesses with --no-single-pass"
done
if "$CLIFT" test --list-targets | grep -qx opencl; then
  if "$CLIFT" test --no-single-pass -t opencl tests/regress/lookback_*.lift > "$T/out" 2>&1; then ok
  else bad "clift test --no-single-pass -t opencl: $(grep -A3 FAIL "$T/out" | head -n 12)"; fi
fi

# lookback.c's switches that change opencl's pass (issue 11): groups of 128
# (Hillis–Steele's 7 steps start in the other buffer), the kept bits of the
# filter in a register, the loops strided, the few kept written straight out;
# the one-pass tests agree with the interpreter under them
export CLIFT_LB_GROUP=128 CLIFT_LB_ITEMS=24
f=tests/regress/lookback_scan.lift
gen $f && expect_count $f '__local int loc[0-9]+\[128\]|atomic_inc\(' 3 "the one pass in groups of 128 (two scan buffers, the counter)"
unset CLIFT_LB_GROUP CLIFT_LB_ITEMS
if "$CLIFT" test --list-targets | grep -qx opencl; then
  for vars in "CLIFT_LB_GROUP=128 CLIFT_LB_ITEMS=24" "CLIFT_LB_GROUP=64 CLIFT_LB_ITEMS=7 CLIFT_LB_MASK=1 CLIFT_LB_LOOPS=1 CLIFT_LB_DIRECT=64"; do
    if env $vars "$CLIFT" test -t opencl tests/regress/lookback_*.lift tests/regress/filter_reads_kept.lift > "$T/out" 2>&1; then ok
    else bad "clift test -t opencl with $vars: $(grep -A3 FAIL "$T/out" | head -n 12)$(tail -n 3 "$T/out")"; fi
  done
fi

# the kept bits and the direct writes are cuda's defaults only (NVIDIA's OpenCL ran
# the filter 1.10x slower with them: lookback_config.c); set, opencl prints them too
f=tests/regress/lookback_filter.lift
gen $f && expect_count $f 'in_tile[0-9]+ < 257|>> \(\(int\)\(i[0-9]+\) & 31\)' 0 "no kept bits or direct writes by default"
CLIFT_LB_MASK=1 CLIFT_LB_DIRECT=256 gen $f && expect_count $f 'in_tile[0-9]+ < 257|>> \(\(int\)\(i[0-9]+\) & 31\)' 3 "kept bits and direct writes when asked"

# integer min/max select by a mask, never by a comparison or the builtins (FINDINGS
# F36: NVIDIA's ptxas fused chains of them into a VIMNMX3 that dropped a negation);
# reals keep their comparison (a NaN as in C), vectors the -1 lanes' form
f=tests/regress/f36_max_const_chain.lift
gen $f && expect_count $f 'clift_max_int\(|clift_min_int\(' 6 "int max/min through the prelude's mask (2 + 2 in the fold, 2 definitions)"
expect_count $f '#define max\(a, b\) \(\(a\) \^ \(\(\(a\) \^ \(b\)\) & -\(\(a\) < \(b\)\)\)\)' 1 "the index arithmetic's max by a mask"
f=tests/lift/minmax_int_vec.lift
gen $f && expect_count $f 'clift_vmin\(clift_vmax\(' 1 "int4 min/max by the lanes' mask"
f=tests/lift/minmax.lift
gen $f && expect_count $f '(clift_fmin|clift_fmax)\(acc' 2 "float min/max as comparisons"

# a sequential loop around kernels inside an `if` at the top runs (plan.c distribute:
# its body's statements under the if's guard; refused before the ninth session),
# both branches, against the interpreter
f=tests/regress/host_loop_under_if.lift
for t in 1.0 -1.0; do
  echo "$t" > "$T/guard.txt"
  want=$("$CLIFT" run -t interp $f '[1, 2, 3]' '[[1, 2], [3, 4], [5, 6]]' @"$T/guard.txt" 2>&1)
  got=$("$CLIFT" run -t opencl $f '[1, 2, 3]' '[[1, 2], [3, 4], [5, 6]]' @"$T/guard.txt" 2>&1)
  if [ -n "$want" ] && [ "${want#error}" = "$want" ] && [ "$got" = "$want" ]; then ok; else bad "host loop under an if ($t): got $got, want $want"; fi
done

# clift's Lift-IL versions of FCL's case studies (bench/gpu/fcl_2027.sh step 2b, issue
# 15 item 6): their test blocks against the interpreter on c, openmp and opencl
for f in bench/gpu/reverse_int.lift bench/gpu/sum_int.lift bench/gpu/scan_int.lift bench/gpu/dgemm_tiled.lift; do
  r=$("$CLIFT" test -t c,openmp,opencl $f 2>&1 | tail -n 1)
  case "$r" in "0 passed"*|*" 0 passed"*) bad "$f: $r" ;; *" 0 failed, 0 skipped") ok ;; *) bad "$f: $r" ;; esac
done

# local memory sized at launch (plan.c locals_sized, docs/design.md): a __local
# argument after the error cell, no array declared in the kernel; a tile larger
# than the device's local memory is a clear error (exit 1, nothing printed);
# cuda: one extern __shared__ array, each local a pointer into it
f=tests/lift/local_dynamic.lift
"$CLIFT" compile -t opencl --print $f > "$T/dyn.cl" 2>&1
if grep -qE '__global int \*clift_error, __local float \*restrict loc[0-9]+\)' "$T/dyn.cl" && ! grep -qE '__local float loc[0-9]+\[' "$T/dyn.cl"; then ok
else bad "dynamic local: $(grep -m1 '__kernel' "$T/dyn.cl")"; fi
"$CLIFT" compile -t cuda --print $f > "$T/dyn.cu" 2>&1   # cuda: the dynamic shared memory, a pointer at offset 0
if grep -q 'extern __shared__ __align__(16) unsigned char clift_dynamic_shared\[\];' "$T/dyn.cu" &&
   grep -qE 'float \*__restrict__ loc[0-9]+ = \(float \*\)\(clift_dynamic_shared \+ 0\);' "$T/dyn.cu" &&
   grep -qE 'int \*clift_error\) \{' "$T/dyn.cu"; then ok; else bad "dynamic local on cuda: $(head -c 300 "$T/dyn.cu")"; fi
if "$CLIFT" test --list-targets | grep -qx opencl; then
  python3 -c "print('[[' + ', '.join(['1'] * 4000000) + ']]')" > "$T/dyn_big.txt"
  "$CLIFT" run -t opencl $f @"$T/dyn_big.txt" > "$T/dyn.out" 2> "$T/dyn.err"
  if [ $? -eq 1 ] && [ ! -s "$T/dyn.out" ] && grep -qE '^error: kernel k0 needs 16000000 bytes of local memory a work-group; .* has [0-9]+$' "$T/dyn.err"; then ok
  else bad "dynamic local too large: $(head -c 300 "$T/dyn.err")"; fi
fi

summary "opencl codegen"
