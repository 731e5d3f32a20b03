#!/usr/bin/env bash
# codegen_test.sh — what the generated C looks like (SPEC §4.2, §5; seed 004):
#   - strategy preservation: the loops a program names and no others;
#   - the temporaries the paper shows (and none for fused lazy maps);
#   - every test program's generated C (c and openmp) compiles without a
#     warning under -Wall -Wextra.
# Usage: codegen_test.sh path/to/clift    Prints "N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"


f=tests/codegen/glb_seq.lift
if gen $f; then
  expect_count $f '^\s*for \(' 2 "loops for mapGlb(mapSeq f)"
  expect_count $f '#pragma omp parallel for' 1 "parallel loops"
  expect_count $f 'malloc' 0 "temporaries"
fi

f=tests/codegen/dot_par_seq.lift
if gen $f; then
  expect_count $f '^\s*for \(' 2 "loops (parallel map, then sequential reduce)"
  expect_count $f 'malloc\(sizeof\(float\) \* \(size_t\)\(N\)\)' 1 "one temporary of N floats"
  # the parallel loop comes first and writes the temporary
  if grep -A1 'omp parallel for' "$T/gen" | grep -q 'for (int64_t gid' && grep -qE 'tmp0\[gid1\] = ' "$T/gen"; then ok; else bad "$f: parallel map into the temporary"; fi
fi

f=tests/codegen/dot_wrg_lcl.lift
if gen $f; then
  expect_count $f '^\s*for \(' 4 "loops (work-groups, local items, per-item sum, final sum)"
  expect_count $f 'malloc' 1 "temporaries"
  expect_count $f 'malloc\(sizeof\(float\) \* \(size_t\)\(\(N / 262144\) \* 128\)\)' 1 "the temporary holds N/262144*128 = N/2048 partial sums"
  expect_count $f '^\s*float acc[0-9]+;' 2 "private accumulators"
fi

f=tests/codegen/aref_rotate.lift
if gen $f; then
  expect_count $f '= clift_check_index\(' 1 "index checks (only (i + k) % 8 with a run-time k)"
  expect_count $f '\(int64_t\)\(\(int32_t\)\(\(uint32_t\)\(\(int32_t\)\(gid0\)\) \+ \(uint32_t\)\(3\)\) % 8\)' 1 "the rotation's index, unchecked"
fi

f=tests/codegen/lazy_map_reduce.lift
if gen $f; then
  expect_count $f '^\s*for \(' 1 "loops for reduceSeq over a lazy map"
  expect_count $f 'malloc' 0 "temporaries"
fi

# rows of a lazy map that need a loop (mapSeq), read by a sequential loop
# (mapSeq, reduceSeq, a filter's copy): each row computed once before the
# loop, not again inside it for every element (difftest seed 80004443: cubic)
for f in tests/lift/lazy_rows_once.lift tests/lift/lazy_rows_once_reduce.lift; do
  if gen $f; then
    expect_count $f '^      for \(' 0 "loops nested three deep (the row computed inside its reader)"
    expect_count $f '^    for \(' 2 "loops in the parallel one (compute the row, then read it)"
  fi
done
f=tests/lift/filter_rows_once.lift
if gen $f; then
  expect_count $f '^          for \(' 0 "loops nested five deep (the kept row computed for each element copied)"
fi

f=tests/lift/pad_constant_out.lift
if gen $f; then
  expect_count $f 'malloc' 0 "temporaries (padConstant written through an offset acceptor)"
  expect_count $f 'out\[gid[0-9]+ \+ 1\] = ' 1 "the map writes the interior in place"
fi

# a lazy map of padConstant over a layout of a map's output (rules_map.c
# acc_map_pad_constant): the borders in a loop of their own, the data written in
# place through the layout and an offset (before: a temporary and a copy)
for f in tests/lift/padc_map_acc_top.lift tests/lift/padc_map_acc_seq.lift; do
  if gen $f; then
    expect_count $f 'malloc|tmp[0-9]+\[' 0 "temporaries"
  fi
done
f=tests/lift/padc_map_acc_top.lift
if gen $f; then
  expect_count $f 'out\[\(M \+ 3\) \* gid[0-9]+\] = 7\.0f;' 1 "the left border of each row"
  expect_count $f 'out\[M \* i[0-9]+ \+ gid[0-9]+ \+ i[0-9]+ \* 3 \+ 1\] = \(2\.0f \* a\[' 1 "the data through the transpose and the offset"
fi

f=tests/lift/vector_scale.lift
if gen $f; then
  expect_count $f 'clift_float4u \*\)&xs\[' 1 "4-wide vector load of the input"
  expect_count $f '\(\*\(clift_float4u \*\)&out\[' 1 "4-wide vector store of the output"
fi

# position-dependent arrays (issue 12, SPEC §3.5): row offsets are closed
# forms, never a loop or a statement expression in an index
# (a Σ with no closed form is refused: tests/lift/dep_split_row.lift)
for f in tests/regress/dep_*.lift tests/lift/dep_*.lift; do
  "$CLIFT" check "$f" >/dev/null 2>&1 || continue
  if "$CLIFT" compile -t openmp --print "$f" > "$T/gen" 2>"$T/err"; then
    expect_count $f '\(\{' 0 "statement expressions (a Σ with no closed form) in the generated code"
  elif grep -q "no closed form" "$T/err"; then ok
  else bad "$f does not compile: $(cat "$T/err")"; fi
done
f=tests/lift/dep_zip.lift
if gen $f; then
  expect_count $f 'm\[i[0-9]+ \+ \(gid[0-9]+ \+ 1\) \* gid[0-9]+ / 2\]' 2 "row gid of the triangle at gid*(gid+1)/2"
fi
f=tests/regress/dep_unrolled_parts.lift
if gen $f; then
  expect_count $f '^\s*for \(' 3 "loops: one parallel loop per unrolled section, none over the sections"
  expect_count $f 'out\[N \* 2 \+ gid[0-9]+ \+ 1\] = ' 1 "the third section written from 2N + 1"
fi
# stencil peeling (issue 12 item 8, seed 002 §6.2): three sections, the body
# reading xs with no clamp (min/max) and no select; --no-peel: one loop
f=tests/regress/peel_stencil.lift
if gen $f c; then
  expect_count $f '^\s*for \(int64_t gid' 4 "parallel loops: prologue, body, epilogue, and the unpeeled one for N < 2"
  expect_count $f 'xs\[gid[0-9]+ \+ i[0-9]+\]' 1 "the body's read of xs, unclamped"
fi
if GEN_FLAGS=--no-peel gen $f c; then expect_count $f '^\s*for \(int64_t gid' 1 "parallel loops with --no-peel"; fi
f=tests/regress/peel_stencil_constant.lift
if gen $f c; then expect_count $f '^\s*for \(int64_t gid' 1 "parallel loops of a mapGlb stencil (not peeled by default)"; fi
if GEN_FLAGS=--peel gen $f c; then
  expect_count $f '^\s*for \(int64_t gid' 4 "parallel loops of the mapGlb stencil with --peel"
  expect_count $f 'acc[0-9]+ \+ xs\[gid[0-9]+ \+ i[0-9]+\]\)' 1 "the body's read of xs, no select"
fi
# 2-D: nine sections with --peel, one of them (the interior) with no clamp
f=tests/regress/peel_jacobi.lift
if GEN_FLAGS=--peel gen $f c; then
  n=$(grep -E '^\s*out\[.*\] = ' "$T/gen" | grep -cvE 'min\(|max\(')
  [ "$n" = 1 ] && ok || bad "$f --peel: $n assignments without a clamp, expected 1 (the interior section)"
  expect_count $f '^\s*out\[.*\] = ' 16 "assignments: 3 x 3 sections and the unpeeled loops of each guard"
fi
# on the device targets the guard of a peeled stencil (the sections fit: a
# test of sizes) is tested in the one kernel, not computed by a kernel of its
# own with the sections and the fallback in two kernels launched always
# (measured: 3×3 Jacobi 4096² peeled 0.60× unpeeled on an H100 that way)
if GEN_FLAGS=--peel=all gen $f opencl; then
  expect_count $f '^__kernel void' 1 "kernels of the peeled 2-D stencil (guard, sections and fallback in one)"
  expect_count $f 'clift_if' 0 "guard flags"
fi
# issue 12 item 10: on the device targets no border section (a one-iteration
# `if (id < 1)`) sits inside the grid-stride loop over the interior rows, where
# the device compiler hoisted its clamps out of the loop for every work-item
# (3×3 on sm_90: 98 SASS instructions per interior element against the
# unpeeled 92; as nests of their own, 84): each section is a loop nest of its
# own (dpia/plan_nests.c), the interior a perfect nest of two loops
for t in cuda opencl; do
  if GEN_FLAGS=--peel=all gen $f $t; then
    inside=$(awk '/for \(clift_index gid[0-9]+ = .*(blockIdx\.y|get_global_id\(1\)).* < N - 2;/ { d = match($0, /[^ ]/); open = 1; next }
                  open && match($0, /[^ ]/) <= d { open = 0 }
                  open && /if \(\(clift_index\)(blockIdx\.x|get_global_id\(0\))/ { n++ }
                  END { print n + 0 }' "$T/gen")
    [ "$inside" = 0 ] && ok || bad "$f --peel=all ($t): $inside border sections inside the loop over the interior rows"
    nests=$(awk 'row && /for \(clift_index gid[0-9]+ = [^;]*; gid[0-9]+ < M - 2;/ { n++ }
                 { row = /for \(clift_index gid[0-9]+ = [^;]*; gid[0-9]+ < N - 2;/ }
                 END { print n + 0 }' "$T/gen")
    [ "$nests" = 1 ] && ok || bad "$f --peel=all ($t): $nests perfect nests rows × columns of the interior, expected 1"
  fi
done
# issue 12 item 10, the device cost rule (dpia/peel.c): on opencl and cuda a
# dimension is peeled only when its window is 5 or wider (measured on an H100,
# 4096²: peeled 3×3 1.05× the unpeeled time, 5×5 0.90×), so --peel leaves the
# 3×3 Jacobi as written there, the same kernel as --no-peel, and says so in a
# note per dimension; the CPU targets still peel it (above), --peel=all too
for t in cuda opencl; do
  if GEN_FLAGS=--no-peel gen $f $t; then
    cp "$T/gen" "$T/unpeeled"
    if GEN_FLAGS=--peel gen $f $t; then
      expect_count $f "window of 3 not peeled on this target" 2 "notes of the cost rule ($t, --peel): rows and columns"
      if grep -v "not peeled on this target" "$T/gen" | cmp -s - "$T/unpeeled"; then ok
      else bad "$f --peel ($t): not the unpeeled kernel: $(grep -v 'not peeled on this target' "$T/gen" | diff - "$T/unpeeled" | head -n 4)"; fi
    fi
  fi
done
f=tests/regress/peel_box5.lift
for t in cuda opencl; do
  if gen $f $t; then
    expect_count $f "not peeled" 0 "notes of the cost rule ($t): a 5×5 window is peeled"
    expect_count $f "for \\(clift_index [a-z]+[0-9]+ = [^;]*; [a-z]+[0-9]+ < N - 4;" 2 "loops over the interior rows ($t), the sections' and their guard's fallback"
    expect_count $f "a\\[M \\* [a-z]+[0-9]+ \\+ M \\* \\([a-z]+[0-9]+ / 5\\) \\+ [a-z]+[0-9]+ \\+ [a-z]+[0-9]+ % 5\\]" 1 "the interior's read of a, unclamped ($t)"
  fi
done
# --peel-aligned (for measuring, KStmt.shift): the interior's work-items at the
# positions the unpeeled kernel gives them, work-item x computing window x (the
# peeled interior otherwise stores from column x + 1: one more 32-byte sector
# per half-warp), the items below the left padding skipping the first trip
f=tests/regress/peel_jacobi.lift
if GEN_FLAGS="--peel=all --peel-aligned" gen $f cuda; then
  expect_count $f "for \\(clift_index gid[0-9]+ = \\(clift_index\\)blockIdx\\.x \\* blockDim\\.x \\+ threadIdx\\.x - 1; gid[0-9]+ < M - 2;.* \\{ if \\(gid[0-9]+ < 0\\) continue;" 4 "interior column loops shifted by one (cuda): in the three row sections and in the rows of the fallback for N < 2"
  expect_count $f "out\\[M \\* gid[0-9]+ \\+ M \\+ gid[0-9]+ \\+ 1\\] = " 1 "the interior's store (cuda)"
fi
if GEN_FLAGS="--peel=all --peel-aligned" gen $f opencl; then
  expect_count $f "for \\(clift_index gid[0-9]+ = \\(clift_index\\)get_global_id\\(1\\) - 1; gid[0-9]+ < N - 2;" 4 "interior row loops shifted by one (opencl): the left, interior and right nests and the fallback for M < 2"
fi
if GEN_FLAGS="--peel=all" gen $f cuda; then expect_count $f "continue;" 0 "no shifted loop without --peel-aligned"; fi
# both forms of the programs agree with the interpreter on every target here
for pe in --peel --peel=all --no-peel "--peel=all --peel-aligned"; do
  if "$CLIFT" test $pe tests/regress/peel_stencil.lift tests/regress/peel_stencil_constant.lift tests/regress/peel_jacobi.lift \
       tests/regress/peel_box5.lift > "$T/out" 2>&1; then ok
  else bad "clift test $pe on the stencils: $(grep -A3 FAIL "$T/out" | head -n 8)"; fi
done
f=tests/regress/dep_row_temp.lift
if gen $f; then
  expect_count $f 'malloc\(sizeof\(float\) \* \(size_t\)\(\(N \+ 1\) \* N / 2\)\)' 1 "the per-row temporary packed: N(N+1)/2 floats, not N*N"
fi

# issue 14 item 1 (dpia/privatise.c): a work-group's accumulator partitioned by
# mapLcl lives in each work-item's registers on the device targets, its
# mapLcl loops pinned (one iteration per work-item); elsewhere, or accessed
# outside its partition, in local memory
f=bench/gpu/sgemm_tiled.lift
if gen $f cuda; then
  expect_count $f 'float reg[0-9]+\[16\];' 1 "the 4x4 register block of each work-item (the 16x16 blocks' indices dropped)"
  expect_count $f '__shared__ __align__\(16\) float loc[0-9]+\[1024\];' 2 "local memory: the tiles of A and B only"
  expect_count $f '__syncthreads\(\);' 3 "barriers: one after both tile loads (not one each), the k loop's end, the work-group loop's end"
fi
if GEN_FLAGS=--no-privatise gen $f cuda; then expect_count $f 'float reg[0-9]+' 0 "--no-privatise: no register block"; fi
if gen $f opencl; then expect_count $f 'float reg[0-9]+\[16\];' 1 "the register block on opencl too"; fi
if gen $f openmp; then expect_count $f 'float reg[0-9]+' 0 "openmp: a work-group's items are iterations of one thread, no registers of their own"; fi
# dpia/pipeline.c (docs/design.md §14): a work-group's sequential loop of copy
# (global → local by mapLcl) → barrier → compute reads the next step's global
# values into private stages after the barrier, step 0's before the loop; on
# opencl and cuda only, with --pipeline (off by default); --double-buffer: the tile in
# two halves, one barrier per step and one after the loop
f=tests/lift/pipeline_tiles.lift
if GEN_FLAGS=--pipeline gen $f opencl; then
  expect_count $f 'float stage[0-9]+\[4\];' 1 "the row's 4 elements of each work-item staged"
  expect_count $f 'stage[0-9]+\[lid[0-9]+_s_n\] = xs\[' 2 "its reads: step 0's, the next step's"
  expect_count $f 'if \(i[0-9]+ \+ 1 < S\) \{' 1 "the next step's reads only when there is one"
  expect_count $f '= stage[0-9]+\[lid[0-9]+_s\];' 1 "the tile stored from the stage"
  expect_count $f '^      barrier\(' 2 "two barriers per step"
fi
if gen $f opencl; then expect_count $f 'stage' 0 "no stage by default"; fi
if GEN_FLAGS=--pipeline gen $f openmp; then expect_count $f 'stage' 0 "openmp: no stage"; fi
if GEN_FLAGS=--double-buffer gen $f opencl; then
  expect_count $f '__local float loc[0-9]+\[64\] __attribute__\(\(aligned\(16\)\)\);' 1 "--double-buffer: the tile twice"
  expect_count $f '\(i[0-9]+ % 2\) \* 32' 2 "--double-buffer: its store and its read in the step's half"
  expect_count $f '^      barrier\(' 1 "--double-buffer: one barrier per step"
  expect_count $f '^    barrier\(' 3 "--double-buffer: after the loop, after the copy-out, at the work-group loop's end"
fi
if GEN_FLAGS="--pipeline --unroll" gen $f opencl; then expect_count $f '#pragma unroll' 6 "--unroll: the loops of 4 and 8 steps, and of 1"; fi
# a toLocal at work-group level of sequential code (F38's group sum) is written by
# one work-item, and a barrier orders it before the group's mapLcl reads it: not
# every work-item writing the same local place (a race; dpia/rules_map.c exp_to)
f=tests/regress/f38_wrg_two_step_loop.lift
for t in opencl cuda; do
  if gen $f $t; then
    one=$([ $t = opencl ] && echo 'if \(\(clift_index\)get_local_id\(0\) < 1\)' || echo 'if \(\(clift_index\)threadIdx.x < 1\)')
    expect_count $f "$one" 1 "$t: the group's sum written by one work-item"
    if sed -n '/loc1\[0\] = acc/,/loc1\[0\])/p' "$T/gen" | grep -qE 'barrier\(|__syncthreads\(\)'; then ok
    else bad "$f: $t: no barrier between the one work-item's write and the reads"; cat "$T/gen"; fi
  fi
done
f=tests/lift/pipeline_tiles.lift
# opencl unrolls every sequential loop of at most 4 constant steps without
# --unroll too (PoCL 3.1 aborts on some loops of two: F38, opencl_print.c short_loop)
if gen $f opencl; then expect_count $f '#pragma unroll' 2 "opencl: the sequential loops of 4 and of 1 step"; fi
if GEN_FLAGS=--unroll gen $f openmp; then expect_count $f '#pragma unroll' 0 "--unroll: not on openmp"; fi
# not double-buffered where the compute writes local memory (a second tile
# made from the first after the barrier): pipelined, three barriers per step
f=tests/lift/pipeline_two_tiles.lift
if GEN_FLAGS=--double-buffer gen $f opencl; then
  expect_count $f '% 2\)' 0 "--double-buffer: no halves where the compute writes local memory"
  expect_count $f 'stage[0-9]+\[lid[0-9]+_s_n\] = xs\[' 2 "the first tile's reads staged"
  expect_count $f '^      barrier\(' 3 "three barriers per step"
fi
# the pipelined forms (off by default) agree with the interpreter on every target here
for fl in --pipeline "--double-buffer --unroll" "--pipeline --unroll"; do
  if "$CLIFT" test $fl tests/lift/pipeline_tiles.lift tests/lift/pipeline_two_tiles.lift > "$T/out" 2>&1; then ok
  else bad "clift test $fl on the pipelined tiles: $(grep -A3 FAIL "$T/out" | head -n 8)"; fi
done
f=tests/regress/wrg_accumulator.lift
if gen $f opencl; then
  expect_count $f 'float reg[0-9]+\[1\];' 1 "the accumulator's element in each work-item"
  expect_count $f '__local float loc[0-9]+\[4\] __attribute__\(\(aligned\(16\)\)\);' 1 "copied out to local memory after the loop (the result is written by every work-item)"
  expect_count $f 'barrier\(' 2 "barriers: after the copy-out and at the work-group loop's end, none in the loop"
fi
f=tests/regress/wrg_acc_other_read.lift
if gen $f opencl; then expect_count $f 'float reg[0-9]+' 0 "acc[0] read by every work-item: local memory"; fi

# FINDINGS F29: pow goes through the prelude's clift_pow (exact integer powers)
# on every compiled target, never the device library's pow directly
f=tests/lift/pow_exact.lift
for t in c opencl cuda; do
  if gen $f $t; then
    expect_count $f '= \(?floor\(\(?clift_pow\(' 1 "$t: the power through clift_pow"
    expect_count $f '[^_]pow\(\(?\(?get|[^_]pow\(x_' 0 "$t: no direct pow of the program's values"
  fi
done

# FINDINGS F32: GCC's predictive commoning stores back, below a small loop nest,
# the old value of every element an iteration not run by this thread would have
# written; another thread's element is lost. Off in every openmp file (GCC only),
# and APL's dyadic transpose (two parallel iterations writing alternate
# elements; it lost elements about one run in five) runs 40 times on 2 threads.
f=tests/apl/transpose.apl
if gen $f openmp; then expect_count $f '^#pragma GCC optimize\("no-predictive-commoning"\)' 1 "openmp: predictive commoning off"; fi
if gen $f c; then expect_count $f 'predictive-commoning' 0 "c: one thread, the optimisation stays"; fi
lost=0
for i in $(seq 1 40); do
  OMP_NUM_THREADS=2 "$CLIFT" test -t openmp "$f" >"$T/race" 2>&1 || { lost=$((lost + 1)); cp "$T/race" "$T/race_bad"; }
done
if [ $lost -eq 0 ]; then ok; else bad "$f on openmp with 2 threads failed $lost of 40 runs: $(head -c 600 "$T/race_bad")"; fi

# APL: an inner product's result read by another inner product is not written to
# memory when it is read once (shape(X) reads no element): Sobol's bit matrix
# product I ≠.∧ dirs, 10^4 × 30 reductions here, goes straight into +.× 2*-⍳D
f=examples/apl/bench/sobol_pi_cpu.apl
# ... and each point's 30 products are computed into a private row before their
# sum (fused into the ordered double sum, GCC did not vectorise them: 1.85x slower)
for t in openmp cuda; do
  if gen $f $t; then
    expect_count $f 'malloc\(sizeof\(double\) \* \(size_t\)\(300000\)\)' 0 "$t: the 10^4 x 30 product materialised"
    expect_count $f 'double priv[0-9]+\[30\];' 2 "$t: a private row of 30 products, one per coordinate"
  fi
done

# the top-level reduce on c/openmp takes chunks of 1024 (lower.h LOWER_CHUNK_CPU):
# Black-Scholes' 10^5 options in 98 work-groups, not 7 of 16384 (4 and 3 on two
# threads: 1.34-1.48x the hand C)
f=examples/apl/bench/blackscholes_cpu.apl
if gen $f openmp; then expect_count $f 'for \(int64_t wid[0-9]+ = 0; wid[0-9]+ < 98;' 1 "openmp: the reduce's first level in 98 work-groups"; fi

# (iota e) of int inputs has a bound before the run (a value size, docs/language.md
# §4.3): compiled on every target, none refused (a refusal would only be a skip)
for f in tests/lift/iota_input_*.lift; do
  for t in c openmp opencl cuda; do
    if "$CLIFT" compile -t $t --print "$f" > /dev/null 2>"$T/err"; then ok; else bad "$f ($t) refused: $(head -c 300 "$T/err")"; fi
  done
done
# every program: generated C compiles cleanly on both CPU targets
for f in tests/lift/*.lift tests/regress/*.lift tests/codegen/*.lift examples/*.lift; do
  "$CLIFT" check "$f" >/dev/null 2>&1 || continue          # negative tests
  for t in c openmp; do
    if ! "$CLIFT" compile -t $t --print "$f" > "$T/w.c" 2>"$T/err"; then
      grep -qE "not supported (by the|on )" "$T/err" && continue
      bad "$f ($t): $(cat "$T/err")"; continue
    fi
    flags="-std=c11 -O2 -Wall -Wextra -Werror -fsyntax-only"
    [ $t = openmp ] && flags="$flags -fopenmp"
    if cc $flags "$T/w.c" 2>"$T/cc"; then ok; else bad "$f ($t) warns: $(head -5 "$T/cc")"; fi
  done
done

summary "codegen"
