#!/usr/bin/env bash
# cuda_test.sh — the cuda target without a GPU (SPEC §4.2, §6, §8):
#   - every test program that type-checks prints as CUDA C++ that NVRTC
#     compiles to PTX for sm_90 (skipped, with a message, where libnvrtc is
#     absent; programs the code generators do not support are skipped);
#   - the shape of the kernels, as opencl_test.sh checks it for OpenCL:
#     grid-stride loops over blockIdx/threadIdx, __shared__ arrays, a
#     __syncthreads() after a mapLcl whose result other threads read (plus one
#     closing the block's loop body) and none when each thread reads what it
#     wrote, float4 loads/stores for asVector, one kernel per plan kernel;
#   - `clift run -t cuda` without a CUDA device fails with a clear message and
#     exit status 1 (with a device it must print the right result);
#   - `clift compile -t cuda -o DIR` writes NAME.cu (what --print prints),
#     NAME_host.cu and NAME.h that nvcc builds for sm_90 without warnings and a
#     C main links against (skipped without nvcc); run against the interpreter
#     on fresh random inputs where a GPU exists (nvidia-smi -L).
# Usage: cuda_test.sh path/to/clift    Prints "N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"
GEN_TARGET=cuda

# 1. NVRTC accepts everything we print
if "$CLIFT" compile -t cuda --ptx examples/dot.lift > "$T/dot.ptx" 2> "$T/err"; then
  nvrtc_ok=0 nvrtc_skip=0
  # APL and TAIL programs too (an APL reduction once printed an (int, long)
  # call that NVRTC rejected, found only on a GPU: tests/lift/max_int_min.lift)
  for f in tests/lift/*.lift tests/regress/*.lift tests/codegen/*.lift examples/*.lift tests/apl/*.apl examples/apl/*.apl tests/tail/*.tail; do
    "$CLIFT" check "$f" > /dev/null 2>&1 || continue
    if ! "$CLIFT" compile -t cuda --print "$f" > "$T/gen" 2> "$T/err"; then
      if grep -q "not supported" "$T/err"; then nvrtc_skip=$((nvrtc_skip + 1)); else bad "$f: cuda printing failed: $(cat "$T/err")"; fi
      continue
    fi
    if "$CLIFT" compile -t cuda --ptx "$f" > "$T/gen.ptx" 2> "$T/err" && grep -q '\.entry k0' "$T/gen.ptx"; then
      nvrtc_ok=$((nvrtc_ok + 1)); ok
    else
      bad "$f: NVRTC rejects the CUDA source: $(head -c 2000 "$T/err")"
    fi
  done
  echo "NVRTC (compute_90): $nvrtc_ok programs compile, $nvrtc_skip not supported by the code generators"
elif grep -q "libnvrtc" "$T/err"; then
  echo "SKIP: NVRTC checks: $(cat "$T/err")"
else
  bad "examples/dot.lift: NVRTC failed: $(cat "$T/err")"
fi

# 2. the shape of the kernels

f=tests/lift/local_neighbours.lift
if gen $f; then
  expect_count $f '__syncthreads\(\);' 2 "barriers (after the writer, closing the block's loop body)"
  if awk '/loc[0-9]+\[lid[0-9]+\] = /{w=1} w&&/^    }$/{getline; print; exit}' "$T/gen" | grep -q '__syncthreads();'; then ok
  else bad "$f: no __syncthreads() right after the loop writing shared memory"; fi
  expect_count $f '__shared__ __align__\(16\) float loc[0-9]+\[4\];' 1 "one shared array of 4 floats per block"
  expect_count $f 'for \(clift_index wid[0-9]+ = blockIdx\.x; wid[0-9]+ < N / 4; wid[0-9]+ \+= gridDim\.x\)' 1 "block loop"
  expect_count $f 'for \(clift_index lid[0-9]+ = threadIdx\.x; lid[0-9]+ < 4; lid[0-9]+ \+= blockDim\.x\)' 2 "thread loops"
fi

f=tests/lift/local_same_item.lift
if gen $f; then
  expect_count $f '__syncthreads' 0 "barriers when each thread reads what it wrote"
  expect_count $f '__shared__ __align__\(16\) float loc[0-9]+\[4\];' 1 "shared array"
fi

f=tests/lift/vector_scale.lift
if gen $f; then
  expect_count $f '\*\(const float4 \*\)&xs\[wid[0-9]+ \* 1024 \+ lid[0-9]+ \* 4\]' 1 "float4 load"
  expect_count $f '\*\(float4 \*\)&out\[wid[0-9]+ \* 1024 \+ lid[0-9]+ \* 4\] = ' 1 "float4 store"
  expect_count $f 'const float \*__restrict__ xs' 1 "const __restrict__ input"
fi

f=tests/lift/vadd4.lift
if gen $f; then
  expect_count $f '\*\(const float4 \*\)&(xs|ys)\[gid[0-9]+ \* 4\]' 2 "float4 loads"
  expect_count $f 'for \(clift_index gid[0-9]+ = \(clift_index\)blockIdx\.x \* blockDim\.x \+ threadIdx\.x; .* \+= \(clift_index\)gridDim\.x \* blockDim\.x\)' 1 "grid-stride loop"
fi

# issue 14: the transpose moving 4·R elements per work-item. The padded local
# tile is written by a lazy map of padConstant over the mapLcl nest's layout
# (rules_map.c acc_map_pad_constant): no global temporary and no copy loop;
# the rows' pads in a loop of their own that does not size the work-group
# (launch: 8 × 32 work-items for T = 32, R = 1, not the pad loop's 32 in x);
# R float4 loads and R float4 stores per work-item, the loop over the R rows
# innermost (its loads in flight together); one barrier after the tile's
# writes and one closing the block's loop body.
f=bench/gpu/transpose_4.lift
if gen $f; then
  expect_count $f 'float \*__restrict__ tmp[0-9]+' 0 "global temporaries"
  expect_count $f '^ *loc[0-9]+\[lid[0-9]+ \* 33 \+ 32\] = 0\.0f;' 1 "pad writes, one per row, in a loop of their own"
  expect_count $f '\*\(const float4 \*\)&a\[' 1 "float4 load"
  expect_count $f '\*\(float4 \*\)&out\[' 1 "float4 store"
  expect_count $f '__syncthreads\(\);' 2 "barriers (after the tile's writes, closing the block's loop body)"
fi
if GEN_FLAGS="--tunable T=64 --tunable R=4" gen $f; then
  expect_count $f 'for \(clift_index i[0-9]+ = 0; i[0-9]+ < 4; i[0-9]+ \+= 1\) \{$' 2 "the loops over a work-item's 4 rows"
  if [ "$(grep -E -A2 '< 4; i[0-9]+ \+= 1\) \{$' "$T/gen" | grep -c 'float4 \*')" = 2 ]; then ok
  else bad "$f: the loop over a work-item's rows is not the innermost, around its float4 accesses"; fi
  expect_count $f '__shared__ __align__\(16\) float loc[0-9]+\[4160\];' 1 "the 64 × 65 padded tile"
fi
if "$CLIFT" compile -t cuda -o "$T/tr4" $f > "$T/err" 2>&1; then
  if grep -q 'const long long count\[\] = { M4 / 8, N / 32, 32, 8, 32, 8 };' "$T/tr4/transpose_4_host.cu"; then ok
  else bad "$f: the launch counts include the pad loop: $(grep 'count\[\] =' "$T/tr4/transpose_4_host.cu")"; fi
else bad "$f: clift compile -t cuda -o failed: $(cat "$T/err")"; fi

# issue 14: float4 accesses whose alignment only the program's size conditions
# prove (c_expr.c codegen_with_multiples): the rows of an N×M matrix under
# asVector #4 (4 divides M), and the tiles of sgemm_tiled_v4 (128 divides N):
# one 16-byte access each, no float4 built from four loads. The compiled
# library refuses sizes outside the conditions before any launch.
f=tests/lift/vec4_rows.lift
if gen $f; then
  expect_count $f '\*\(const float4 \*\)&a\[M \* gid[0-9]+ \+ gid[0-9]+ \* 4\]' 2 "float4 loads of a row (M a multiple of 4)"
  expect_count $f '\*\(float4 \*\)&out\[' 1 "float4 store"
  expect_count $f 'float4\{' 0 "float4 built from its lanes"
fi
if "$CLIFT" compile -t cuda -o "$T/v4rows" $f > "$T/err" 2>&1; then
  if [ "$(grep -c 'if (M % 4 != 0) {' "$T/v4rows/vec4_rows_host.cu")" = 1 ]; then ok
  else bad "$f: the library does not refuse an M that 4 does not divide (once)"; fi
else bad "$f: clift compile -t cuda -o failed: $(cat "$T/err")"; fi
f=tests/lift/vec4_unaligned.lift   # window i's float4 starts at xs[i]: built from its lanes
if gen $f; then
  expect_count $f 'float4\{xs\[gid[0-9]+ \+ i[0-9]+ \* 4\], ' 1 "an unaligned float4 built from its lanes"
  expect_count $f '^ *\*\(float4 \*\)&out\[gid[0-9]+ \* 4 \+ i[0-9]+ \* 4\] = ' 1 "the aligned store"
fi
f=bench/gpu/sgemm_tiled_v4.lift
if gen $f; then
  expect_count $f '\*\(const float4 \*\)&a\[' 1 "float4 load of A's piece"
  expect_count $f '\*\(const float4 \*\)&b\[' 1 "float4 load of B's piece"
  expect_count $f 'stage[0-9]+' 0 "no stage by default"
fi
if GEN_FLAGS=--pipeline gen $f; then
  expect_count $f '\*\(const float4 \*\)&a\[' 2 "float4 load of A's piece (step 0 before the loop, the next step's in it)"
  expect_count $f '\*\(const float4 \*\)&b\[' 2 "float4 load of B's piece (step 0 before the loop, the next step's in it)"
  expect_count $f '\*\(const float4 \*\)&loc[0-9]+\[' 1 "float4 read of the transposed A tile"
  expect_count $f '= loc[0-9]+\[lid[0-9]+ \+ i[0-9]+ \* 32 \+ i[0-9]+ \* 16\];' 1 "float4 read of the B tile (a float4 array)"
  expect_count $f '\*\(float4 \*\)&out\[' 1 "float4 store of C"
  expect_count $f 'float4\{' 0 "float4 built from its lanes"
  expect_count $f 'float reg[0-9]+\[64\];' 1 "the 8 × 8 register block"
  # dpia/pipeline.c: the pieces' float4s staged in registers, the next step's
  # read after the barrier, before the compute (two barriers per step)
  expect_count $f 'float4 stage[0-9]+\[1\];' 2 "a staged float4 of each piece"
  expect_count $f '= stage[0-9]+\[0\];' 2 "the tiles stored from the stages"
  expect_count $f 'if \(i[0-9]+ \+ 1 < N / 8\) \{' 1 "the next step's reads, when there is one"
  expect_count $f '^        __syncthreads\(\);' 2 "barriers in the loop over K's steps"
fi
if GEN_FLAGS=--double-buffer gen $f; then   # two halves of each tile, one barrier per step
  expect_count $f '__shared__ __align__\(16\) float loc[0-9]+\[2112\];' 1 "--double-buffer: A's tile twice (2 × 8 × 132)"
  expect_count $f '__shared__ __align__\(16\) float4 loc[0-9]+\[512\];' 1 "--double-buffer: B's tile twice"
  expect_count $f '\(i[0-9]+ % 2\) \* (1056|256)' 8 "--double-buffer: accesses to the step's half"
  expect_count $f '^        __syncthreads\(\);' 1 "--double-buffer: one barrier in the loop over K's steps"
  expect_count $f '__syncthreads\(\);' 3 "--double-buffer: that one, one after the loop, one at the work-group loop's end"
fi
# the work-group is pinned to 16 × 16 (privatise.c), so its mapLcl loops print
# with that size (stmt_print.h codegen_lcl_form): one iteration, a block; the
# 32 rows of a K = 16 piece, two steps of a constant-count loop (unrolled by
# nvcc, both float4 loads in flight); no loop strided by blockDim
if GEN_FLAGS="--tunable K=16" gen $f; then
  expect_count $f 'blockDim' 0 "loops strided by blockDim in a pinned kernel"
  expect_count $f 'for \(clift_index lid[0-9]+_step = 0; lid[0-9]+_step < 2; lid[0-9]+_step \+= 1\) \{ const clift_index lid[0-9]+ = threadIdx\.y \+ lid[0-9]+_step \* 16;' 2 "the two pieces' loads in two steps"
  expect_count $f '\{ const clift_index lid[0-9]+ = threadIdx\.x; \(void\)lid[0-9]+;' 6 "one-iteration loops as blocks"
fi
# --unroll: #pragma unroll before each sequential loop of 2 to 32 steps (the
# 8 k-steps of a K-step among them), none without it
if GEN_FLAGS="--pipeline --unroll" gen $f; then
  expect_count $f '#pragma unroll' 14 "--unroll: the constant sequential loops marked"
  expect_count $f '#pragma unroll\s*$' 14 "--unroll: each on a line of its own"
fi
if gen $f; then expect_count $f '#pragma unroll' 0 "no #pragma unroll by default"; fi
# pipelined (dpia/pipeline.c), the two steps of each piece's copy become a
# sequential loop around a one-iteration block, so that the stage's index is
# the step (registers once unrolled, not a stack array indexed by threadIdx)
if GEN_FLAGS="--tunable K=16 --pipeline" gen $f; then
  expect_count $f 'blockDim' 0 "loops strided by blockDim in a pinned kernel"
  expect_count $f 'float4 stage[0-9]+\[2\];' 2 "two staged float4s of each piece"
  expect_count $f 'for \(clift_index lid[0-9]+_s = 0; lid[0-9]+_s < 2; lid[0-9]+_s \+= 1\) \{' 2 "the copies' two steps"
  expect_count $f 'for \(clift_index lid[0-9]+_s_n = 0; lid[0-9]+_s_n < 2;' 4 "the reads' two steps (step 0, the next step)"
  expect_count $f '= stage[0-9]+\[lid[0-9]+_s\]' 2 "the stages indexed by the step"
fi
if [ -n "${nvrtc_ok:-}" ]; then   # and in the PTX: 128-bit loads from global and shared memory, stores of C
  if "$CLIFT" compile -t cuda --ptx $f > "$T/gen.ptx" 2> "$T/err"; then
    if grep -q 'ld\.global\.nc\.v4' "$T/gen.ptx" && grep -q 'ld\.shared\.v4\.f32' "$T/gen.ptx" && grep -q 'st\.global\.v4\.f32' "$T/gen.ptx"; then ok
    else bad "$f: no 128-bit loads or stores in the PTX"; fi
  else bad "$f: NVRTC rejects the CUDA source: $(head -c 1000 "$T/err")"; fi
  # the next step's global loads between the loop's first barrier and its FMAs
  # with --pipeline, none there without it
  after_barrier() { awk '/bar\.sync/ && !b { b = NR } /ld\.global\.nc\.v4/ && b && !l { l = NR } /fma\.rn\.f32/ && l && !f { f = NR } END { exit !(b && l && f) }' "$1"; }
  if "$CLIFT" compile -t cuda --ptx --pipeline $f > "$T/gen.ptx" 2> "$T/err" && after_barrier "$T/gen.ptx"; then ok
  else bad "$f --pipeline: no global load after the barrier before the FMAs in the PTX"; fi
  if "$CLIFT" compile -t cuda --ptx $f > "$T/gen.ptx" 2> "$T/err" && ! after_barrier "$T/gen.ptx"; then ok
  else bad "$f: a global load after the barrier before the FMAs in the PTX"; fi
fi

# the Jacobi strategies of several outputs per work-item (issue 14): the strip
# of R + 2 rows × 3 columns copied into a private array that NVRTC keeps in
# registers (no local memory in the PTX; the 4 corner loads dead), R stores
f=bench/gpu/jacobi_strip.lift
if gen $f; then
  expect_count $f 'float priv[0-9]+\[30\];' 1 "the (R + 2) × 3 strip at R = 8, private"
  expect_count $f '__shared__|__syncthreads' 0 "no local memory, no barrier"
  expect_count $f 'out\[' 1 "one store statement (a loop of R)"
fi
if [ -n "${nvrtc_ok:-}" ]; then
  if "$CLIFT" compile -t cuda --ptx $f > "$T/gen.ptx" 2> "$T/err" && [ "$(grep -c 'ld\.global' "$T/gen.ptx")" = 26 ] \
     && [ "$(grep -c 'st\.global' "$T/gen.ptx")" = 8 ] && ! grep -qE '\.local' "$T/gen.ptx"; then ok
  else bad "$f: expected 26 global loads, 8 stores and no local memory in the PTX: $(grep -cE 'ld\.global|st\.global|\.local' "$T/gen.ptx") $(head -c 300 "$T/err")"; fi
fi
# four columns and R rows per work-item: R + 2 float4 loads of the centres, 2R
# scalar loads of the neighbours, R float4 stores (R = 4), all in registers
f=bench/gpu/jacobi_vec.lift
if gen $f; then
  expect_count $f 'float4 priv[0-9]+\[6\];' 1 "the R + 2 centre float4s, private"
  expect_count $f '\*\(const float4 \*\)&a\[' 1 "a float4 load of the centres"
  expect_count $f '\*\(float4 \*\)&out\[' 1 "a float4 store of each row"
fi
if [ -n "${nvrtc_ok:-}" ]; then
  if "$CLIFT" compile -t cuda --ptx $f > "$T/gen.ptx" 2> "$T/err" && [ "$(grep -c 'ld\.global\.nc\.v4' "$T/gen.ptx")" = 6 ] \
     && [ "$(grep -c 'ld\.global' "$T/gen.ptx")" = 14 ] && [ "$(grep -c 'st\.global\.v4' "$T/gen.ptx")" = 4 ] && ! grep -qE '\.local' "$T/gen.ptx"; then ok
  else bad "$f: expected 6 128-bit and 8 scalar global loads, 4 128-bit stores and no local memory in the PTX: $(head -c 300 "$T/err")"; fi
fi
# the local tile with halo and R outputs per work-item: one (TY·R + 2)(TX + 2)
# tile, a barrier after the copy and one closing the work-group loop's body
f=bench/gpu/jacobi_tiled_r.lift
if gen $f; then
  expect_count $f '__shared__ __align__\(16\) float loc[0-9]+\[1156\];' 1 "the 34 × 34 tile (TX = 32, TY = 8, R = 4)"
  expect_count $f '__syncthreads\(\);' 2 "barriers"
  expect_count $f 'float priv[0-9]+\[18\];' 1 "the (R + 2) × 3 strip of the tile, private"
fi

# a top-level reduce: its full tiles read without the padding's check
check_reduce_tiles '__syncthreads\(\);' 19
# ... in one launch (dpia/last_group.c): the work-group that counts the last
# chunk (after a device-wide fence) reduces the partials, read through
# volatile pointers, and sets the counter back to 0
for f in bench/gpu/asum.lift bench/gpu/dot.lift tests/lift/filter_reduce.lift; do
  gen $f || continue
  expect_count $f '^extern "C" __global__ void k[0-9]+\(float \*__restrict__ out|^extern "C" __global__ void k[0-9]+\(int \*__restrict__ out' 1 "the kernel writing the result"
  expect_count $f '\(__threadfence\(\), atomicAdd\(&clift_chunks0\[0\], 1\)\)' 1 "a fenced count of finished chunks"
  expect_count $f 'clift_chunks0\[0\] = 0;' 1 "the counter set back by the last group"
  expect_count $f '\(\*\(volatile (float|int) \*\)&tmp[0-9]+\[' 1 "volatile reads of the partials"
done
# ... so that NVRTC issues a work-item's 64 loads of a full tile one after
# another, with no branch between them (with CLIFT_REDUCE_GUARD=1 each load
# has its own branch around it)
if [ -n "${nvrtc_ok:-}" ]; then
  f=bench/gpu/asum.lift
  for g in 0 1; do
    run=$(CLIFT_REDUCE_GUARD=$g "$CLIFT" compile -t cuda --ptx $f 2> "$T/err" |
          awk '/\.entry k0/{k=1} k&&/ld\.global/{n++; if(n>m)m=n} k&&/bra/{n=0} k&&/^}/{k=0} END{print m+0}')
    if { [ $g = 0 ] && [ "$run" -eq 64 ]; } || { [ $g = 1 ] && [ "$run" -eq 1 ]; } then ok
    else bad "$f (CLIFT_REDUCE_GUARD=$g): $run loads in a row without a branch in k0's PTX $(head -c 300 "$T/err")"; fi
  done
fi

f=tests/codegen/dot_par_seq.lift
if gen $f; then
  expect_count $f '^extern "C" __global__ void' 2 "kernels (parallel map, then the sequential sum)"
  expect_count $f '^/\* k1: one thread \*/' 1 "the sum runs on one thread"
  expect_count $f 'float \*__restrict__ tmp[0-9]+' 2 "the temporary is a global buffer of both kernels"
  expect_count $f '__syncthreads' 0 "barriers (the kernel boundary separates them)"
fi

# 3. running: a clear error without a device, the right result with one
out=$("$CLIFT" run -t cuda examples/dot.lift '[1, 2, 3]' '[4, 5, 6]' 2>&1); rc=$?
if [ $rc -eq 0 ]; then
  if [ "$out" = "[32]" ]; then ok; else bad "run -t cuda examples/dot.lift: got $out, expected [32]"; fi
elif [ $rc -eq 1 ] && grep -q "no CUDA device" <<<"$out"; then ok
else bad "run -t cuda without a device: exit $rc, expected 1 with 'no CUDA device': $out"; fi

# 4. clift compile -t cuda -o DIR: NAME.cu is what --print prints; NAME_host.cu
# (which includes NAME.cu) builds with nvcc for sm_90 without a GPU, and a C
# main calling NAME_run links against it; where a GPU exists (nvidia-smi -L), the
# program runs on fresh random inputs and agrees with `clift run -t interp`.
NVCC=${NVCC:-nvcc}
command -v "$NVCC" > /dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
if [ ! -x "$(command -v "$NVCC" 2>/dev/null)" ]; then
  echo "SKIP: clift compile -t cuda -o DIR: nvcc not found (CUDA toolkit)"
else
  gpu=0
  if nvidia-smi -L > /dev/null 2>&1; then gpu=1; else echo "SKIP: running the compiled CUDA libraries: no GPU (nvidia-smi -L fails)"; fi
  # The driver, as opencl_lib_test.sh's: argv = N seed spec… (f: N random floats
  # k/16, exact in float32 sums); writes input i to in_i.txt, prints the result.
  cat > "$T/main.c" <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
static unsigned long long state;
static float next_float(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  int k = (int)((state >> 33) % 64) - 32;
  return (float)(k >= 0 ? k + 1 : k) / 16.0f;
}
int main(int argc, char **argv) {
  long long n = atoll(argv[1]), result = RESULT;
  state = strtoull(argv[2], NULL, 10);
  void *buffers[8];
  buffers[0] = calloc((size_t)result + 1, sizeof(float));
  for (int i = 3; i < argc; i++) {
    char name[32];
    snprintf(name, sizeof name, "in_%d.txt", i - 2);
    FILE *f = fopen(name, "w");
    float *a = malloc(sizeof(float) * (size_t)n);
    fputs("[", f);
    for (long long j = 0; j < n; j++) { a[j] = next_float(); fprintf(f, "%s%.9g", j ? ", " : "", a[j]); }
    fputs("]\n", f);
    fclose(f);
    buffers[i - 2] = a;
  }
  int rc = ENTRY(buffers, &n);
  if (rc) { printf("rc %d\n", rc); return 0; }
  float *out = buffers[0];
  printf("[");
  for (long long j = 0; j < result; j++) printf("%s%.9g", j ? ", " : "", out[j]);
  printf("]\n");
  return 0;
}
EOF2
  same() {   # same A B: the two literals hold the same numbers (relative tolerance 1e-6)
    paste <(tr -d '[]<> \n' < "$1" | tr ',' '\n') <(tr -d '[]<> \n' < "$2" | tr ',' '\n') |
      awk -F'\t' '{ n++; d = $1 - $2; if (d < 0) d = -d; m = $2 < 0 ? -$2 : $2;
                    if ($1 == "" || $2 == "" || d > 1e-6 * (m > 1 ? m : 1)) bad++ }
                  END { exit (n == 0 || bad > 0) }'
  }
  # lib PROG NAME N RESULT SPEC… (RESULT: result floats, a C expression in n)
  lib() {
    local prog=$1 name=$2 n=$3 result=$4; shift 4
    local d=$T/lib_$name seed=$RANDOM$RANDOM
    mkdir -p "$d"
    if ! "$CLIFT" compile -t cuda -o "$d" "$prog" 2>"$d/err"; then bad "$prog: compile -t cuda -o: $(cat "$d/err")"; return; fi
    if [ -f "$d/$name.cu" ] && [ -f "$d/${name}_host.cu" ] && [ -f "$d/$name.h" ]; then ok; else bad "$prog: files missing: $(ls "$d")"; return; fi
    "$CLIFT" compile --print -t cuda "$prog" > "$d/print.cu" 2>/dev/null
    if cmp -s "$d/print.cu" "$d/$name.cu"; then ok; else bad "$prog: $name.cu differs from compile --print"; fi
    if ! (cd "$d" && "$NVCC" -O3 -arch=sm_90 -Xcompiler -Wall,-Wextra -c "${name}_host.cu" -o "${name}_host.o") > "$d/nvcc.err" 2>&1 \
       || grep -qi "warning" "$d/nvcc.err"; then
      bad "$prog: nvcc -c ${name}_host.cu: $(head -c 1500 "$d/nvcc.err")"; return
    fi
    ok
    if ! "$NVCC" -arch=sm_90 -I"$d" -DENTRY="${name}_run" -DRESULT="($result)" -include "$d/$name.h" \
         "$T/main.c" "$d/${name}_host.o" -o "$d/run" > "$d/link.err" 2>&1; then
      bad "$prog: a C main does not link with ${name}_host.o: $(head -c 1500 "$d/link.err")"; return
    fi
    ok
    [ $gpu -eq 1 ] || return
    (cd "$d" && ./run "$n" "$seed" "$@" > got.txt 2>run.err) || { bad "$prog: the program failed: $(cat "$d/run.err")"; return; }
    local ins=() i
    for ((i = 1; i <= $#; i++)); do ins+=("@$d/in_$i.txt"); done
    if ! "$CLIFT" run -t interp "$prog" "${ins[@]}" > "$d/want.txt" 2>"$d/err"; then bad "$prog: interp: $(cat "$d/err")"; return; fi
    if same "$d/got.txt" "$d/want.txt"; then ok
    else bad "$prog (N=$n, seed $seed): ${name}_run gave $(head -c 300 "$d/got.txt"), interp $(head -c 300 "$d/want.txt")"; fi
  }
  lib examples/dot.lift dot $((1 + RANDOM % 3000)) 1 f f
  lib tests/lift/dot_wrg.lift dot_wrg $((4096 * (1 + RANDOM % 3))) 'n / 2048' f f
  lib tests/lift/vector_scale.lift vector_scale $((1024 * (1 + RANDOM % 4))) n f
fi

# Issue 11 item 7: the top-level filter and scan in one pass (lib.sh)
check_single_pass '^extern "C" __global__' 'atomicAdd\(' '\(\*\(volatile long long \*\)&'
# cuda's look-back is warp-wide (lookback.c lb_look_back_warp): the first warp's
# 32 lanes read a status word each (the one volatile load), two votes find the
# nearest unpublished word and the nearest inclusive prefix, five shuffles sum
# the aggregates between; no window of words in one work-item's registers. The
# group's scan of its partials is by shuffles within each warp (3 barriers, not
# Hillis–Steele's 8). The tile is loaded into registers first, all of a work-item's loads before its
# stores to shared memory (a sequential loop of 9 over elements l + 256 j).
for f in tests/regress/lookback_filter.lift tests/regress/lookback_scan.lift tests/regress/lookback_scan_max.lift; do
  gen $f || continue
  expect_count $f '__ffs\(__ballot_sync\(0xffffffffu, ' 2 "warp votes of the look-back"
  expect_count $f '__shfl_down_sync\(0xffffffffu, ' 5 "shuffles summing the look-back's aggregates"
  expect_count $f 'window' 0 "a window of status words in one work-item"
  expect_count $f '__shfl_up_sync\(0xffffffffu, ' 5 "shuffles of the group's scan"
  expect_count $f 'priv[0-9]+\[i[0-9]+\] = .*xs\[tile[0-9]+ \* 3840 \+ lid[0-9]+ \+ i[0-9]+ \* 256\]' 1 "the tile's loads into registers"
done

# lookback.c's experiment switches (issue 11; bench/gpu/scan_2027.sh times them),
# read from the environment when the code is generated; each one's mark in the
# pass's text, and NVRTC compiles it. Unset, none of them shows.
lb_switch() {   # lb_switch "VAR=V …" FILE PATTERN N WHAT
  local vars=$1 f=$2 v; shift 2
  for v in $vars; do export "$v"; done
  if gen $f; then
    expect_count $f "$@"
    if [ "${nvrtc_ok:-}" ] && ! { "$CLIFT" compile -t cuda --ptx "$f" 2>"$T/err" | grep -q '\.entry k1'; }; then
      bad "$f with $vars: NVRTC: $(head -c 1000 "$T/err")"
    fi
  fi
  for v in $vars; do unset "${v%%=*}"; done
}
# The default is scan_2027.sh's `all` (since stop 27): the totals, the mask, the
# launch bounds, the pauses and the direct writes on; each switch below is checked
# alone, the others off ($OFF), as they were measured.
OFF="CLIFT_LB_TOTALS=0 CLIFT_LB_MASK=0 CLIFT_LB_MIN_BLOCKS=0 CLIFT_LB_DIRECT=0 CLIFT_LB_WAIT=0 CLIFT_LB_RETRY=0"
f=tests/regress/lookback_filter.lift
gen $f && expect_count $f '__syncthreads\(\);' 6 "barriers of the filter's pass (default: the warps' totals added by every work-item)"
gen $f && expect_count $f '(__launch_bounds__\(256, 6\)|__nanosleep\((1140|688)u\)|reg[0-9]+\[0\] \|)' 4 "marks of the default's switches (bounds, two pauses, the kept bits)"
lb_switch "$OFF" $f '__syncthreads\(\);' 8 "barriers of the filter's pass, every switch off"
lb_switch "$OFF" $f '(__launch_bounds__|__nanosleep|65536 <|reg[0-9]+\[0\] \|)' 0 "marks of the switches, every switch off"
# the pass's loops strided by the group's size by default (CLIFT_LB_LOOPS=1, cde41c4's
# code, the one timed on an H100: NVRTC gives it 40 registers where the pinned blocks of
# 73f6a3f got 99-110); CLIFT_LB_LOOPS=0 gives the pinned blocks
gen $f && expect_count $f 'for \(clift_index lid[0-9]+ = threadIdx\.x; lid[0-9]+ < (256|32); lid[0-9]+ \+= blockDim\.x\)' 6 "the pass's loops strided (default)"
lb_switch "$OFF CLIFT_LB_LOOPS=0" $f 'const clift_index lid[0-9]+ = threadIdx\.x; \(void\)' 8 "pinned blocks with CLIFT_LB_LOOPS=0"
lb_switch "$OFF CLIFT_LB_TOTALS=1" $f '__syncthreads\(\);' 6 "barriers with the warps' totals added by every work-item"
lb_switch "$OFF CLIFT_LB_TOTALS=1" tests/regress/lookback_scan.lift '__syncthreads\(\);' 6 "the scan's barriers with the totals"
lb_switch "$OFF CLIFT_LB_LOOPS=1" $f 'for \(clift_index lid[0-9]+ = threadIdx\.x; lid[0-9]+ < (256|32); lid[0-9]+ \+= blockDim\.x\)' 6 "the pass's loops strided"
lb_switch "$OFF CLIFT_LB_LOOPS=1" $f 'const clift_index lid[0-9]+ = threadIdx\.x; \(void\)' 0 "pinned blocks with the loops"
lb_switch "$OFF CLIFT_LB_MASK=1" $f '\(\(int\)\(\(unsigned\)reg[0-9]+\[0\] >> \(\(int\)\(i[0-9]+\) & 31\)\)\) & 1\) != 0' 1 "the compaction's test of the kept bit"
lb_switch "$OFF CLIFT_LB_BLOCK_TILE=1" $f '\? loc[0-9]+\[0\] : \(int\)\(wid[0-9]+\)\)' 1 "the tile from the block's index"
lb_switch "$OFF CLIFT_LB_DIRECT=256" $f 'if \(in_tile[0-9]+ < 257\)|out\[before[0-9]+ \+ at[0-9]+\] = ' 2 "the few kept elements written straight out"
lb_switch "$OFF CLIFT_LB_WAIT=1140 CLIFT_LB_RETRY=688" $f '__nanosleep\((1140|688)u\)' 2 "the look-back's pauses"
lb_switch "$OFF CLIFT_LB_MIN_BLOCKS=6" $f '__launch_bounds__\(256, 6\) k1\(' 1 "launch bounds on the pass"
lb_switch "$OFF CLIFT_LB_GROUP=128 CLIFT_LB_ITEMS=24" $f 'xs\[tile[0-9]+ \* 3072 \+ lid[0-9]+ \+ i[0-9]+ \* 128\]' 1 "loads of a tile of 128 × 24"
lb_switch "$OFF CLIFT_LB_GROUP=128 CLIFT_LB_ITEMS=24 CLIFT_LB_MIN_BLOCKS=8" $f '__launch_bounds__\(128, 8\) k1\(' 1 "launch bounds of a group of 128"

# integer min/max select by a mask (FINDINGS F36; opencl_test.sh checks the same)
f=tests/regress/f36_max_const_chain.lift
gen $f && expect_count $f 'clift_max<int>\(int a, int b\) \{ return max\(a, b\); \}' 1 "int's max through the prelude's mask"
expect_count $f '#define max\(a, b\) \(\(a\) \^ \(\(\(a\) \^ \(b\)\) & -\(\(a\) < \(b\)\)\)\)' 1 "max by a mask"

summary "cuda codegen"
