#!/usr/bin/env bash
# fcl_test.sh — the FCL front end (docs/fcl.md, issue 15 M1):
#   1. the examples of examples/fcl on the interpreter against tests/fcl/oracle.py
#      (plain Python, computed independently), at sizes that are not multiples
#      of the chunk, tile or block size, and N = 1;
#   2. `clift check` prints each definition's scheme (goldens tests/fcl/*.check),
#      `clift check --dump` the monomorphised program's (tests/fcl/*.mono);
#   3. every tests/fcl/err_*.fcl: exit 1, "file:line:col: error:" and a caret;
#   4. the examples compiled on every target against the oracle (cuda: PTX),
#      `clift test` on their test blocks, refusals (tests/fcl/unsupported_*.fcl);
#   5. no crash on any prefix of the examples, deep nesting an error;
#   6. clift bench of FCL programs, compile -o refused at the entry.
# Usage: fcl_test.sh path/to/clift    Prints "fcl: N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"

expect() {   # expect PROGRAM FILE ARGS…: the interpreter's output equals the oracle's
  local name=$1 file=$2; shift 2
  local want got
  want=$(python3 tests/fcl/oracle.py "$name" "$@") || { bad "oracle $name $*"; return; }
  got=$("$CLIFT" run -t interp "$file" "$@" 2>&1)
  if [ "$got" = "$want" ]; then ok; else bad "$file $(echo "$*" | cut -c1-60): got $(echo "$got" | head -c 300), want $(echo "$want" | head -c 300)"; fi
}
# N pseudo-random ints in [-50, 50] (seeded by N and FCL_TEST_SEED: reproducible, never all zeros)
list() { python3 -c "import sys, random; n=int(sys.argv[1]); r=random.Random(n * 7919 + int(sys.argv[2])); print('[' + ','.join(str(r.randint(-50, 50)) for i in range(n)) + ']')" "$1" "${FCL_TEST_SEED:-1}"; }

for n in 0 1 2 3 4 5 7 8 9 31 64 100; do expect reverse examples/fcl/reverse.fcl 4 "$(list $n)"; done
for n in 1 7 33 100; do expect reverse examples/fcl/reverse.fcl 32 "$(list $n)"; done
for shape in "1 1" "1 5" "5 1" "2 3" "3 2" "4 4" "5 7" "8 4" "9 10" "16 3"; do
  set -- $shape
  for t in 2 4; do expect transpose examples/fcl/transpose.fcl $t $1 $2 "$(list $(($1 * $2)))"; done
done
# #BlockSize is 256: chunks of 512; 3 grid steps above 512 * 512
for n in 0 1 2 3 255 511 512 513 1000 1024 5000; do expect reduce examples/fcl/reduce.fcl "$(list $n)"; done
list 300001 > "$T/big.txt"
want=$(python3 tests/fcl/oracle.py reduce @"$T/big.txt")
got=$("$CLIFT" run -t interp examples/fcl/reduce.fcl @"$T/big.txt" 2>&1)
if [ "$got" = "$want" ]; then ok; else bad "reduce of 300001: got $got, want $want"; fi
for shape in "1 1 1" "3 5 2" "4 4 4" "5 3 7"; do
  set -- $shape
  for t in 1 2 4; do expect matmul examples/fcl/matmul.fcl $t $1 $2 $3 "$(list $(($1 * $2)))" "$(list $(($2 * $3)))"; done
done
for n in 0 1 2 255 256 257 1000; do expect scan examples/fcl/scan.fcl "$(list $n)"; done
list 70001 > "$T/s.txt"   # three levels: 274 chunks of 256, in 2 groups
want=$(python3 tests/fcl/oracle.py scan @"$T/s.txt")
got=$("$CLIFT" run -t interp examples/fcl/scan.fcl @"$T/s.txt" 2>&1)
if [ "$got" = "$want" ]; then ok; else bad "scan of 70001 on interp"; fi
for wn in "1 1" "1 5" "3 6" "4 12" "5 5" "7 21" "10 30"; do
  set -- $wn
  expect folds examples/fcl/folds.fcl $1 "$(list $2)"
done

for f in examples/fcl/*.fcl; do
  g=tests/fcl/$(basename "$f" .fcl).check
  [ -f "$g" ] || continue
  if "$CLIFT" check "$f" > "$T/got" 2>&1 && diff -u "$g" "$T/got" > "$T/diff"; then ok; else bad "check $f:"; cat "$T/diff"; fi
  m=tests/fcl/$(basename "$f" .fcl).mono   # the monomorphised program (docs/fcl.md §4)
  if "$CLIFT" check --dump "$f" > "$T/got" 2>&1 && diff -u "$m" "$T/got" > "$T/diff"; then ok; else bad "check --dump $f:"; cat "$T/diff"; fi
done

for f in tests/fcl/err_*.fcl; do
  "$CLIFT" check "$f" > "$T/out" 2>&1
  rc=$?
  first=$(head -n 1 "$T/out")
  want=$(sed -n 's/^-- error: //p' "$f" | head -n 1)
  if [ $rc -ne 1 ]; then bad "check $f: exit $rc, expected 1: $(cat "$T/out")"
  elif ! grep -qE "^$f:[0-9]+:[0-9]+: error: " <<<"$first"; then bad "check $f: no file:line:col error: $first"
  elif ! grep -qE '^ *\^$' "$T/out"; then bad "check $f: no caret: $(cat "$T/out")"
  elif [ -n "$want" ] && ! grep -qF -- "$want" <<<"$first"; then bad "check $f: expected '$want' in: $first"
  else ok; fi
done
for f in tests/fcl/run_err_*.fcl; do
  args=$(sed -n 's/^-- args: //p' "$f")
  want=$(sed -n 's/^-- error: //p' "$f")
  for t in interp c opencl; do   # compiled: the same error (docs/fcl.md §6)
    "$CLIFT" run -t $t "$f" $args > "$T/out" 2>&1
    rc=$?
    if [ $rc -eq 1 ] && grep -qF -- "$want" "$T/out" && ! grep -qE 'Sanitizer|runtime error' "$T/out"; then ok
    else bad "run -t $t $f: exit $rc: $(head -n 3 "$T/out")"; fi
  done
done

# 4. compiled (docs/fcl.md §6): every example on every CPU and OpenCL target
# against the oracle, sizes no multiple of the chunk, tile or block size, N = 1,
# and above 2^16; cuda's kernels compiled to PTX by NVRTC (no GPU here). opencl
# also with 4 chunks a work-group iteration for every chunk kernel and the staged
# reads ("opencl+cuda-defaults", stop 28's cuda defaults; the default now halves the
# batch of a chunk of more local memory, dpia/batch.c, checked below)
targets=$("$CLIFT" test --list-targets | grep -v '^interp$' | grep -v '^cuda$' | tr '\n' ' ')
extra=$(echo "$targets" | grep -qw opencl && echo opencl+cuda-defaults)
compiled() {   # compiled PROGRAM FILE ARGS…: every compiled target equals the oracle
  local name=$1 file=$2; shift 2
  local want got t
  want=$(python3 tests/fcl/oracle.py "$name" "$@") || { bad "oracle $name"; return; }
  for t in $targets $extra; do
    if [ $t = opencl+cuda-defaults ]; then got=$(CLIFT_FCL_BATCH=4 CLIFT_FCL_PREFETCH=reg "$CLIFT" run -t opencl "$file" "$@" 2>&1)
    else got=$("$CLIFT" run -t $t "$file" "$@" 2>&1); fi
    if [ "$got" = "$want" ]; then ok; else bad "-t $t $file $(echo "$*" | cut -c1-60): got $(echo "$got" | head -c 300), want $(echo "$want" | head -c 300)"; fi
  done
}
for n in 1 7 100; do compiled reverse examples/fcl/reverse.fcl 4 "$(list $n)"; done
list 70001 > "$T/r.txt"; compiled reverse examples/fcl/reverse.fcl 256 @"$T/r.txt"
for shape in "1 1" "5 7" "9 10"; do set -- $shape; compiled transpose examples/fcl/transpose.fcl 4 $1 $2 "$(list $(($1 * $2)))"; done
list 75000 > "$T/t.txt"; compiled transpose examples/fcl/transpose.fcl 16 300 250 @"$T/t.txt"
for n in 1 513 5000; do compiled reduce examples/fcl/reduce.fcl "$(list $n)"; done
compiled reduce examples/fcl/reduce.fcl @"$T/big.txt"
for wn in "1 1" "4 12" "7 21"; do set -- $wn; compiled folds examples/fcl/folds.fcl $1 "$(list $2)"; done
for shape in "1 1 1" "3 5 2" "9 7 10"; do
  set -- $shape; compiled matmul examples/fcl/matmul.fcl 4 $1 $2 $3 "$(list $(($1 * $2)))" "$(list $(($2 * $3)))"
done
for n in 1 257; do compiled scan examples/fcl/scan.fcl "$(list $n)"; done
compiled scan examples/fcl/scan.fcl @"$T/s.txt"
list 300001 > "$T/s3.txt"; compiled scan examples/fcl/scan.fcl @"$T/s3.txt"
list 5140 > "$T/a.txt"; list 5120 > "$T/b.txt"
compiled matmul examples/fcl/matmul.fcl 16 257 20 256 @"$T/a.txt" @"$T/b.txt"
if "$CLIFT" compile -t cuda --ptx examples/dot.lift > /dev/null 2>&1; then
  for args in "reverse.fcl 4 [1,2,3,4,5]" "transpose.fcl 2 3 5 $(list 15)" "reduce.fcl $(list 5000)" "folds.fcl 3 $(list 12)" "matmul.fcl 2 3 5 2 $(list 15) $(list 10)" "scan.fcl @$T/s.txt"; do
    set -- $args
    if "$CLIFT" compile -t cuda --ptx examples/fcl/$1 "${@:2}" > "$T/k.ptx" 2> "$T/err" && grep -q '\.entry k0' "$T/k.ptx"; then ok
    else bad "cuda --ptx $1: $(head -c 300 "$T/err")"; fi
  done
else echo "fcl: NVRTC not available here: cuda PTX checks skipped"; fi
# the programs' own test blocks (-- test:) on every target against the interpreter:
# the examples, and tests/fcl/compiled (scalars, writers, shapes of §6.4)
for d in examples/fcl tests/fcl/compiled; do
  "$CLIFT" test $d > "$T/out" 2>&1
  if [ $? -eq 0 ] && grep -qE '^[0-9]+ passed, 0 failed' "$T/out"; then ok; else bad "clift test $d: $(tail -n 5 "$T/out")"; fi
done
if "$CLIFT" compile -t cuda --ptx examples/dot.lift > /dev/null 2>&1; then
  for f in tests/fcl/compiled/*.fcl; do   # their first block's inputs
    mapfile -t ins < <(awk '/^-- test:/ { n++ } n == 1 && /^-- input: / { sub(/^-- input: /, ""); print }' "$f")
    if "$CLIFT" compile -t cuda --ptx "$f" "${ins[@]}" > "$T/k.ptx" 2> "$T/err" && grep -q '\.entry k0' "$T/k.ptx"; then ok
    else bad "cuda --ptx $f: $(head -c 300 "$T/err")"; fi
  done
fi
# refusals: before any C compiler runs, naming the target; compile -o at the
# entry (docs/fcl.md §6.7), with or without inputs, and no files written
for t in c opencl; do
  for args in "examples/fcl/reduce.fcl" "examples/fcl/reduce.fcl [1,2,3]"; do
    "$CLIFT" compile -t $t -o "$T/lib" $args > "$T/out" 2>&1
    if [ $? -eq 1 ] && grep -qE "^examples/fcl/reduce.fcl:68:5: error: not supported on $t: a library \(compile -o\) of an FCL program" "$T/out" \
       && grep -qE '^ +\^$' "$T/out" && [ ! -e "$T/lib" ]; then ok; else bad "compile -t $t -o $args: $(cat "$T/out")"; fi
  done
done

# 6. clift bench (docs/fcl.md §6.8): compiled once for the inputs' shapes,
# --check against the interpreter, then the timed runs; inputs as for run
# (literals, @file, file.npy), on every compiled target and the interpreter
python3 tests/fcl/npy.py 70001 "$T/b.npy" 3
small=$(python3 tests/fcl/npy.py 7 "$T/small.npy" 4 int --literal)
want=$(python3 tests/fcl/oracle.py reverse 4 "$small")
for t in interp c; do
  got=$("$CLIFT" run -t $t examples/fcl/reverse.fcl 4 "$T/small.npy" 2>&1)
  if [ "$got" = "$want" ]; then ok; else bad "run -t $t with a .npy input: got $got, want $want"; fi
done
line='median [0-9.]+ ms \(min [0-9.]+, max [0-9.]+\) over 3 runs$'
for t in $targets; do
  for args in "reduce.fcl|$T/b.npy|[70001]" "scan.fcl|@$T/s.txt|[70001]" "reverse.fcl|256 $T/b.npy|256 [70001]" \
              "transpose.fcl|16 300 250 @$T/t.txt|16 300 250 [75000]" "matmul.fcl|4 9 7 10 $(list 63) $(list 70)|4 9 7 10 [63] [70]"; do
    IFS='|' read -r f in shown <<<"$args"
    out=$("$CLIFT" bench -t $t --check --runs 3 examples/fcl/$f $in 2>&1); rc=$?
    if [ $rc -eq 0 ] && [ "$(sed -n 1p <<<"$out")" = "check: $t agrees with interp (tolerance 0.0001)" ] \
       && grep -qE "^bench examples/fcl/$f -t $t $(sed 's/[][]/\\&/g' <<<"$shown"): $line" <<<"$out"; then ok
    else bad "bench -t $t $f: exit $rc: $(head -c 300 <<<"$out")"; fi
  done
done
out=$("$CLIFT" bench -t interp --runs 3 examples/fcl/reduce.fcl '[1,2,3]' 2>&1)
if grep -qE "^bench examples/fcl/reduce.fcl -t interp \[3\]: $line" <<<"$out"; then ok; else bad "bench -t interp: $out"; fi
# GPU sizes compile in seconds: matmul of 1024² doubles in tiles of 16 (64 unrolled
# steps; their tiles' interleave checked once for all work-groups, docs/fcl.md §6.3;
# a minute when each work-group's copy was enumerated) in 4 shared arrays (in each of
# the kernel's two versions, unbatched: with CLIFT_FCL_BATCH=k, k times as many)
{ sed '/^sig main/,$d' examples/fcl/matmul.fcl
  echo "sig main : int -> int -> int -> int -> [double] -> [double] -> Program<grid> [double]<grid>"
  echo "fun main t hA wA wB A B = matmulTiled (fn a => fn b => a + b) (fn a => fn b => a * b) 0.0 t hA wA wB A B"; } > "$T/mmd.fcl"
python3 tests/fcl/npy.py 1048576 "$T/m.npy" 1 rawdouble
CLIFT_FCL_BATCH=0 timeout 30 "$CLIFT" compile -t opencl --print "$T/mmd.fcl" 16 1024 1024 1024 "$T/m.npy" "$T/m.npy" > "$T/mm.cl" 2>&1
if [ $? -eq 0 ] && [ "$(grep -c '^ *__local ' "$T/mm.cl")" -le 8 ]; then ok; else bad "matmul 1024² doubles: $(grep -c '^ *__local ' "$T/mm.cl") local arrays: $(head -c 300 "$T/mm.cl")"; fi
# uniform steps are one loop (docs/fcl.md §6.2): matmul's poweri over 2 and over 16
# tiles prints the same number of lines (unrolled: 205 and 821), at block level,
# and writers.fcl's power<thread> and poweri<grid> are loops too
L() { python3 -c "print('[' + ','.join(str(i % 7 - 3) for i in range($1)) + ']')"; }
for w in 8 64; do
  CLIFT_FCL_BATCH=0 "$CLIFT" compile -t opencl --print examples/fcl/matmul.fcl 4 8 $w 8 "$(L $((8 * w)))" "$(L $((8 * w)))" > "$T/mm$w.cl" 2>&1
done
# (the lines but `#pragma unroll`, which opencl prints before loops of up to 4 steps: F38)
if [ "$(grep -vc '#pragma unroll' "$T/mm8.cl")" = "$(grep -vc '#pragma unroll' "$T/mm64.cl")" ] && grep -q 'for (clift_index step[0-9]* = 0; step[0-9]* < 16;' "$T/mm64.cl"; then ok
else bad "matmul's steps not one loop: $(wc -l < "$T/mm8.cl") and $(wc -l < "$T/mm64.cl") lines"; fi
CLIFT_FCL_BATCH=0 "$CLIFT" compile -t opencl --print tests/fcl/compiled/writers.fcl '[5, -3, 8, 1, 9, 2, -6, 7]' > "$T/w.cl" 2>&1
if [ "$(grep -c 'for (clift_index step' "$T/w.cl")" = 2 ] && [ "$(grep -c 'const long step[0-9]*_arg' "$T/w.cl")" = 2 ]; then ok
else bad "writers.fcl: power<thread> and poweri<grid> not loops: $(grep -c 'step' "$T/w.cl")"; fi
# the generated code (docs/fcl.md §6.2): transposeTiled's tile padded to 33 columns and
# transposeAny one kernel at multiples of the tile; reverseAny one kernel at multiples
# of the chunk (two otherwise); sklansky's steps without run-time index checks. Each
# chunk kernel's fixed-size version is a kernel of its own on opencl (NAME_v256,
# `__kernel __attribute__((reqd_work_group_size(256, 1, 1)))`): `^__kernel void`
# counts the kernels of the plan
"$CLIFT" compile -t opencl --print examples/fcl/transpose.fcl 32 64 64 "$(L 4096)" > "$T/tr.cl" 2>&1
if [ "$(grep -c '^__kernel void' "$T/tr.cl")" = 1 ] && grep -q '__local int loc[0-9]*\[1056\]' "$T/tr.cl"; then ok
else bad "transpose 64 x 64 in tiles of 32: $(grep -E '^__kernel|__local' "$T/tr.cl" | head -c 300)"; fi
"$CLIFT" compile -t opencl --print examples/fcl/reverse.fcl 256 "$(L 512)" > "$T/rv.cl" 2>&1
"$CLIFT" compile -t opencl --print examples/fcl/reverse.fcl 256 "$(L 500)" > "$T/rv2.cl" 2>&1
if [ "$(grep -c '^__kernel void' "$T/rv.cl")" = 1 ] && [ "$(grep -c '^__kernel void' "$T/rv2.cl")" = 2 ]; then ok
else bad "reverseAny's kernels: $(grep -c '^__kernel void' "$T/rv.cl") and $(grep -c '^__kernel void' "$T/rv2.cl")"; fi
# warp barriers, fixed-size versions and the L2 prefetch are the default on cuda since
# an H100 checked them (src/fcl/compile.c); CLIFT_FCL_FAST=0 CLIFT_FCL_PREFETCH=0 gives
# every barrier the work-group's, no version, no prefetch
CLIFT_FCL_FAST=0 CLIFT_FCL_PREFETCH=0 "$CLIFT" compile -t cuda --print examples/fcl/reduce.fcl "$(L 5000)" > "$T/def.cu" 2>&1
if grep -q '^/\* k0: ' "$T/def.cu" && ! grep -q 'clift_syncwarp();\|__syncwarp();\|blockDim.x == 256\|clift_prefetch(&' "$T/def.cu"; then ok
else bad "FCL's cuda with CLIFT_FCL_FAST=0 CLIFT_FCL_PREFETCH=0 has warp barriers, fixed-size versions or prefetches"; fi
"$CLIFT" compile -t cuda --print examples/fcl/reduce.fcl "$(L 5000)" > "$T/dflt.cu" 2>&1
if grep -q 'clift_syncwarp();' "$T/dflt.cu" && grep -q 'blockDim.x == 256' "$T/dflt.cu" && grep -q 'clift_prefetch(&' "$T/dflt.cu"; then ok
else bad "FCL's default cuda lacks warp barriers, fixed-size versions or the prefetch"; fi
# since stop 28 also the staged reads (CLIFT_FCL_PREFETCH=reg), several chunks a
# work-group iteration (a tree's default: 8) and the grid cap: the default reduce of
# 5000 (10 chunks) loops over 2 batches and reads the next chunk into registers
if grep -q 'for (clift_index wid1_b = blockIdx.x; wid1_b < 2; wid1_b += gridDim.x) {' "$T/dflt.cu" && grep -q 'in1_stage0\[0\] = in1\[' "$T/dflt.cu"; then ok
else bad "FCL's default cuda lacks the batching or the staged reads: $(sed -n '/k0: /,/any other/p' "$T/dflt.cu" | head -c 400)"; fi
# the checks below take the prefetch's and the batching's switches themselves
export CLIFT_FCL_PREFETCH=0 CLIFT_FCL_BATCH=0
"$CLIFT" compile -t cuda --print examples/fcl/scan.fcl "$(L 7168)" > "$T/sc.cu" 2>&1   # 28 chunks: no padding to check
if [ "$(sed -n '/k0: /,/^}/p' "$T/sc.cu" | grep -c 'clift_check_index((long long)')" = 0 ] && grep -q '^/\* k0: ' "$T/sc.cu"; then ok
else bad "scan's chunk kernel has run-time index checks: $(grep -c 'clift_check_index((long long)' "$T/sc.cu")"; fi
# warp barriers (docs/fcl.md §6.2, dpia/warp.c): k0's barriers in order, W a
# warp's (clift_syncwarp) and F the work-group's: reduce's halvings from 32
# elements down and sklansky's steps on segments of up to 32 within warps;
# warp.fcl's second barrier the work-group's (the reads after it conflict
# within warps with the writes just before it, across warps with those two
# barriers back); CLIFT_FCL_NO_WARP=1 keeps every barrier the work-group's
kbars() { sed -n '/k0: /,/^}/p' "$1" | sed -nE 's/^ *(clift_syncwarp|__syncwarp)\(\);/W/p; s/^ *__syncthreads\(\);/F/p; s/^ *\} else \{   .. any other .*/|/p' | tr -d '\n'; }
"$CLIFT" compile -t cuda --print examples/fcl/reduce.fcl "$(L 5000)" > "$T/wr.cu" 2>&1
CLIFT_FCL_NO_WARP=1 "$CLIFT" compile -t cuda --print examples/fcl/reduce.fcl "$(L 5000)" > "$T/wr0.cu" 2>&1
"$CLIFT" compile -t cuda --print tests/fcl/compiled/warp.fcl "$(L 128)" > "$T/ww.cu" 2>&1
if [ "$(kbars "$T/wr.cu")" = "FFFWWWWWF|FFFWWWWWF" ] && [ "$(kbars "$T/sc.cu")" = "WWWWWFFFF|WWWWWFFFF" ] && [ "$(kbars "$T/ww.cu")" = "WFFF|WFFF" ] \
   && [ "$(kbars "$T/wr0.cu")" = "FFFFFFFFF|FFFFFFFFF" ] && grep -q '^#define clift_syncwarp() .*__syncwarp(); else __syncthreads();' "$T/wr.cu" \
   && [ "$(sed -n '/k0: /,/any other/p' "$T/wr.cu" | grep -c 'clift_syncwarp')" = 0 ]; then ok
else bad "warp barriers: reduce $(kbars "$T/wr.cu"), scan $(kbars "$T/sc.cu"), warp.fcl $(kbars "$T/ww.cu"), reduce without $(kbars "$T/wr0.cu")"; fi
# opencl prints the same warp barriers as macros (codegen/opencl_print.c): PTX's
# bar.warp.sync where the runtime defines CLIFT_NVIDIA_WARP (NVIDIA's OpenCL), the
# work-group's barrier elsewhere (PoCL runs them above); the generic kernel checks
# the group's warps when it runs (_any), the v256 one knows them whole
clbars() { sed -n "/^__kernel$2 void k0$3(/,/^}/p" "$1" | sed -nE 's/^ *clift_warp_barrier\(\);/W/p; s/^ *clift_warp_barrier_any\(\);/A/p; s/^ *barrier\(CLK_LOCAL_MEM_FENCE\);/F/p' | tr -d '\n'; }
"$CLIFT" compile -t opencl --print examples/fcl/reduce.fcl "$(L 5000)" > "$T/wr.cl" 2>&1
CLIFT_FCL_NO_WARP=1 "$CLIFT" compile -t opencl --print examples/fcl/reduce.fcl "$(L 5000)" > "$T/wr0.cl" 2>&1
v256=' __attribute__((reqd_work_group_size(256, 1, 1)))'
if [ "$(clbars "$T/wr.cl" "" "")" = FFFAAAAAF ] && [ "$(clbars "$T/wr.cl" "$v256" _v256)" = FFFWWWWWF ] \
   && [ "$(clbars "$T/wr0.cl" "" "")" = FFFFFFFFF ] && ! grep -q clift_warp "$T/wr0.cl" \
   && [ "$(sed -n '/^#ifdef CLIFT_NVIDIA_WARP$/,/^#endif$/p' "$T/wr.cl" | grep -c 'bar.warp.sync -1;\|#define clift_warp_barrier_any() barrier(CLK_LOCAL_MEM_FENCE)$\|#define clift_warp_barrier() barrier(CLK_LOCAL_MEM_FENCE)$')" = 3 ]; then ok
else bad "opencl warp barriers: reduce $(clbars "$T/wr.cl" "" "") and $(clbars "$T/wr.cl" "$v256" _v256), without $(clbars "$T/wr0.cl" "" "")"; fi
# fixed-size versions (docs/fcl.md §6.2, plan_version_local): reduce's k0 for
# blocks of 256 (ifs and constant steps, no block-stride loop) and for any other
# size; none with CLIFT_FCL_NO_VERSION=1
CLIFT_FCL_NO_VERSION=1 "$CLIFT" compile -t cuda --print examples/fcl/reduce.fcl "$(L 5000)" > "$T/nv.cu" 2>&1
if [ "$(sed -n '/k0: /,/any other/p' "$T/wr.cu" | grep -c 'if (blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1) {\|if (threadIdx.x < 128) {\|for (clift_index lid')" = 2 ] \
   && [ "$(kbars "$T/nv.cu")" = FFFWWWWWF ] && ! grep -q 'blockDim.x == ' "$T/nv.cu"; then ok
else bad "fixed-size versions: $(sed -n '/k0: /,/any other/p' "$T/wr.cu" | head -c 400)"; fi
# own elements in registers (docs/fcl.md §6.2, codegen/fixed_size.c): in scan's fixed-size
# chunk kernel each of the 8 loops writing local memory keeps its value, the next
# step reads it (both branches: 16 reads) instead of local memory; none in the
# other version; warp.fcl's c kept for d and the result, a for b (d reads a's other
# half, from local memory), d not kept (the result reads its other half only)
own() { sed -n '/k0: /,/any other/p' "$1" | grep -c "$2"; }
if [ "$(own "$T/sc.cu" '_own[0-9]*\[[^]]*\] = ')" = 8 ] && [ "$(own "$T/sc.cu" ' = loc[0-9]*_own[0-9]*\[[^]]*\];$')" = 24 ] \
   && [ "$(sed -n '/any other/,/^}/p' "$T/sc.cu" | grep -c '_own')" = 0 ] \
   && [ "$(own "$T/ww.cu" 'loc7_own[0-9]*\[0\]')" = 4 ] && [ "$(own "$T/ww.cu" 'loc1_own[0-9]*\[0\]')" = 3 ] \
   && [ "$(own "$T/ww.cu" 'loc10_own')" = 0 ]; then ok
else bad "own elements: scan $(own "$T/sc.cu" '_own[0-9]*\[[^]]*\] = ') kept, $(own "$T/sc.cu" ' = loc[0-9]*_own[0-9]*\[[^]]*\];$') read; warp.fcl $(own "$T/ww.cu" '_own')"; fi
# CLIFT_FCL_PREFETCH=1 (docs/fcl.md §6.2, dpia/prefetch.c): the chunk loop's first
# mapLcl loop prefetches the next chunk's unconditional reads (reduce of 5000: the
# first of its two reads, the second is a padded chunk's guarded one), nothing
# without the switch; its PTX compiles
CLIFT_FCL_PREFETCH=1 "$CLIFT" compile -t cuda --print examples/fcl/reduce.fcl "$(L 5000)" > "$T/pf.cu" 2>&1
if [ "$(sed -n '/k0: /,/^}/p' "$T/pf.cu" | grep -c 'clift_prefetch(&in1\[lid3 + wid1_next \* 512\]); }$')" = 2 ] \
   && [ "$(grep -c 'clift_prefetch(&' "$T/pf.cu")" = 2 ] && ! grep -q 'clift_prefetch' "$T/wr.cu"; then ok
else bad "prefetch: $(grep 'clift_prefetch(&' "$T/pf.cu" | head -c 300)"; fi
# CLIFT_FCL_PREFETCH=reg: in the fixed-size version the same reads made one chunk
# ahead into registers (the first chunk's before the loop), the L2 prefetch in the
# other; no local memory in the PTX
CLIFT_FCL_PREFETCH=reg "$CLIFT" compile -t cuda --print examples/fcl/reduce.fcl "$(L 5000)" > "$T/rg.cu" 2>&1
if [ "$(own "$T/rg.cu" 'in1_stage0\[0\] = in1\[lid3 + ')" = 2 ] && [ "$(own "$T/rg.cu" 'in1_stage1')" = 0 ] \
   && [ "$(own "$T/rg.cu" 'int in1_cur0 = in1_stage0\[0\];')" = 1 ] && [ "$(sed -n '/any other/,/^}/p' "$T/rg.cu" | grep -c 'clift_prefetch(&')" = 1 ]; then ok
else bad "staged reads: $(sed -n '/k0: /,/any other/p' "$T/rg.cu" | head -c 600)"; fi
if "$CLIFT" compile -t cuda --ptx examples/dot.lift > /dev/null 2>&1; then
  if CLIFT_FCL_PREFETCH=1 "$CLIFT" compile -t cuda --ptx examples/fcl/scan.fcl "$(L 7168)" > "$T/pf.ptx" 2> "$T/err" && grep -q 'prefetch.global.L2' "$T/pf.ptx"; then ok
  else bad "prefetch PTX: $(head -c 300 "$T/err")"; fi
  if CLIFT_FCL_PREFETCH=reg "$CLIFT" compile -t cuda --ptx examples/fcl/scan.fcl "$(L 7168)" > "$T/rg.ptx" 2> "$T/err" && grep -q '\.entry k0' "$T/rg.ptx" \
     && ! grep -q 'ld\.local\|st\.local' "$T/rg.ptx"; then ok
  else bad "staged PTX: $(head -c 300 "$T/err") $(grep -c 'ld\.local' "$T/rg.ptx")"; fi
fi
unset CLIFT_FCL_PREFETCH CLIFT_FCL_BATCH
# batched groups (CLIFT_FCL_BATCH=k, dpia/batch.c; the default k = 4 since stop 28): reduce and scan on opencl
# against the oracle where 3 does not divide the chunks (the last batch's guards)
# and at one chunk; reduce of 5000 (10 chunks) with k = 4 on cuda: a loop over 3
# batches, local arrays of each chunk's own, chunks 10 and 11 skipped in the last
# (a test in each of the 9 mapLcl loops of both versions), each chunk's own element
# kept in registers where no test skips it (loc2_1, loc2's copy for chunk 1: its 4
# writes); the PTX with the batching, both prefetches and the grid cap, no local memory
for p in "reduce 1" "reduce 513" "reduce 5000" "reduce 70001" "scan 257" "scan 1000" "scan 70001"; do
  set -- $p
  list $2 > "$T/bt.txt"
  want=$(python3 tests/fcl/oracle.py $1 @"$T/bt.txt")
  got=$(CLIFT_FCL_BATCH=3 "$CLIFT" run -t opencl examples/fcl/$1.fcl @"$T/bt.txt" 2>&1)
  if [ "$got" = "$want" ]; then ok; else bad "CLIFT_FCL_BATCH=3 $1 of $2 on opencl: got $(echo "$got" | head -c 200)"; fi
done
CLIFT_FCL_BATCH=4 "$CLIFT" compile -t cuda --print examples/fcl/reduce.fcl "$(L 5000)" > "$T/bt.cu" 2>&1
if [ "$(grep -c 'for (clift_index wid1_b = blockIdx.x; wid1_b < 3; wid1_b += gridDim.x) {' "$T/bt.cu")" = 2 ] \
   && [ "$(sed -n '/k0: /,/^}/p' "$T/bt.cu" | grep -c '__shared__ __align__(16) int loc[0-9]*_[123]\[256\];')" = 6 ] \
   && [ "$(grep -c 'if (wid1_b \* 4 + 3 < 10) {' "$T/bt.cu")" = 18 ] && [ "$(own "$T/bt.cu" 'int loc2_1_own[0-9]*\[1\];')" = 4 ]; then ok
else bad "CLIFT_FCL_BATCH=4: $(sed -n '/k0: /,/any other/p' "$T/bt.cu" | head -c 600)"; fi
# the default batch: 4 chunks halved while their local memory passes 12 KiB, a tree's
# twice that under twice the cap (dpia/batch.c): above 2^24 (scan's chunks of 512)
# reduce's 2 KB chunks 8 at a time (a tree: on NVIDIA's OpenCL 4% faster than 4),
# scan's 4 KB chunks 2 (on an H100 8% faster on NVIDIA's OpenCL, 2% on cuda, than 4);
# below, scan's 2 KB chunks 4 at a time; on both device targets
python3 tests/fcl/npy.py 33554433 "$T/bd.npy" 3 raw > /dev/null
list 70001 > "$T/bd.txt"
for p in "reduce 8 bd.npy" "scan 2 bd.npy" "scan 4 @bd.txt"; do
  set -- $p
  for t in cuda opencl; do
    in=${3/bd/$T/bd}
    "$CLIFT" compile -t $t --print examples/fcl/$1.fcl "$in" > "$T/bd.default" 2>&1
    CLIFT_FCL_BATCH=$2 "$CLIFT" compile -t $t --print examples/fcl/$1.fcl "$in" > "$T/bd.k" 2>&1
    if grep -q '_b = ' "$T/bd.k" && cmp -s "$T/bd.default" "$T/bd.k"; then ok; else bad "default batch of $1 ($3) on $t is not $2"; fi
  done
done
if "$CLIFT" compile -t cuda --ptx examples/dot.lift > /dev/null 2>&1; then
  python3 tests/fcl/npy.py 69632 "$T/bt.npy" 3 > /dev/null   # whole chunks: unguarded reads to prefetch
  for p in reduce scan; do
    if CLIFT_FCL_BATCH=4 CLIFT_FCL_PREFETCH=both CLIFT_FCL_GRID=1 "$CLIFT" compile -t cuda --ptx examples/fcl/$p.fcl "$T/bt.npy" > "$T/bt.ptx" 2> "$T/err" \
       && grep -q '\.entry k0' "$T/bt.ptx" && grep -q 'prefetch.global.L2' "$T/bt.ptx" && ! grep -q 'ld\.local\|st\.local' "$T/bt.ptx"; then ok
    else bad "batched PTX of $p: $(head -c 300 "$T/err") $(grep -c 'ld\.local' "$T/bt.ptx")"; fi
  done
fi
# foldl's `index array (i - 1)` under `i != 0` proved in range (docs/fcl.md §6.2):
# matmul's dot product and folds.fcl without run-time index checks (two in matmul before)
"$CLIFT" compile -t cuda --print examples/fcl/matmul.fcl 4 8 8 8 "$(L 64)" "$(L 64)" > "$T/mmk.cu" 2>&1
"$CLIFT" compile -t cuda --print examples/fcl/folds.fcl 3 "$(L 12)" > "$T/fo.cu" 2>&1
if grep -q '^/\* k0: ' "$T/mmk.cu" && grep -q '^/\* k0: ' "$T/fo.cu" && ! grep -q 'clift_check_index((long long)(int)' "$T/mmk.cu" "$T/fo.cu"; then ok
else bad "index checks left in matmul or folds: $(grep -c 'clift_check_index((long long)(int)' "$T/mmk.cu" "$T/fo.cu" | tr '\n' ' ')"; fi
# clift run -o out.npy of a compiled FCL result (bench/gpu/fcl_2027.sh checks the 2^27
# results so), a scalar as one element; reduce's last grid step writes the output
# (three kernels at 300001 elements: two halvings and the last)
python3 tests/fcl/npy.py 300001 "$T/o.npy" 5 > /dev/null
for p in "reverse|256 $T/o.npy" "reduce|$T/o.npy" "scan|$T/o.npy"; do
  IFS='|' read -r name args <<<"$p"
  rm -f "$T/got.npy"
  "$CLIFT" run -t c -o "$T/got.npy" examples/fcl/$name.fcl $args > "$T/out" 2>&1
  if [ $? -eq 0 ] && python3 bench/gpu/fcl_check.py $name "$T/got.npy" $args > "$T/chk" 2>&1; then ok
  else bad "run -o $name: $(head -c 300 "$T/out") $(head -c 300 "$T/chk")"; fi
done
"$CLIFT" compile -t opencl --print examples/fcl/reduce.fcl "$T/o.npy" > "$T/rd.cl" 2>&1
if [ "$(grep -c '^__kernel void' "$T/rd.cl")" = 3 ] && [ "$(grep -c '^__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void k[0-2]_v256(' "$T/rd.cl")" = 3 ]; then ok
else bad "reduce of 300001: $(grep -c '^__kernel void' "$T/rd.cl") kernels and $(grep -c '_v256(' "$T/rd.cl") fixed-size ones, not 3 and 3"; fi
# the runtime launches the fixed-size kernels for work-groups of 256 (plan_run.c,
# DeviceApi.version_kernels) and the others for any other size: reduce and scan
# against the oracle at 256 (the default), 64 and 100 work-items
list 70001 > "$T/vk.txt"
for p in reduce scan; do
  want=$(python3 tests/fcl/oracle.py $p @"$T/vk.txt")
  for ls in "" 64 100; do
    got=$("$CLIFT" run -t opencl ${ls:+--local-size $ls} examples/fcl/$p.fcl @"$T/vk.txt" 2>&1)
    if [ "$got" = "$want" ]; then ok; else bad "$p of 70001 on opencl${ls:+ --local-size $ls}: $(echo "$got" | head -c 200)"; fi
  done
done
# its errors: the program's (positioned, exit 1), usage (exit 2)
"$CLIFT" bench -t c examples/fcl/reduce.fcl > "$T/out" 2>&1
if [ $? -eq 1 ] && grep -q "main takes 1 input (\[int\] -> Program<grid> int), 0 given" "$T/out"; then ok; else bad "bench without inputs: $(cat "$T/out")"; fi
"$CLIFT" bench -t c --size N=4 examples/fcl/reduce.fcl '[1]' > "$T/out" 2>&1
if [ $? -eq 2 ] && grep -q "FCL programs have no size variables" "$T/out"; then ok; else bad "bench --size: $(cat "$T/out")"; fi
"$CLIFT" bench -t c --seed 7 examples/fcl/reduce.fcl '[1]' > "$T/out" 2>&1
if [ $? -eq 2 ] && grep -q -- "--seed: an FCL program's inputs are given" "$T/out"; then ok; else bad "bench --seed (accepted and unused before): $(cat "$T/out")"; fi
for t in c opencl; do
  "$CLIFT" bench -t $t --runs 2 tests/fcl/unsupported_shift.fcl $(sed -n 's/^-- args: //p' tests/fcl/unsupported_shift.fcl) > "$T/out" 2>&1
  if [ $? -eq 1 ] && grep -q "^tests/fcl/unsupported_shift.fcl:6:56: error: not supported on $t: << on values" "$T/out" && ! grep -q "^bench" "$T/out"; then ok
  else bad "bench -t $t of a refusal: $(cat "$T/out")"; fi
  "$CLIFT" bench -t $t --check --runs 2 tests/fcl/run_err_div.fcl $(sed -n 's/^-- args: //p' tests/fcl/run_err_div.fcl) > "$T/out" 2>&1
  if [ $? -eq 1 ] && grep -qF -- "$(sed -n 's/^-- error: //p' tests/fcl/run_err_div.fcl)" "$T/out" && ! grep -q "^bench" "$T/out"; then ok
  else bad "bench -t $t of a run-time error: $(cat "$T/out")"; fi
done
for f in tests/fcl/compile_err_*.fcl; do   # errors found when compiling (the interpreter would run forever)
  args=$(sed -n 's/^-- args: //p' "$f")
  want=$(sed -n 's/^-- error: //p' "$f")
  for t in c opencl; do
    timeout 20 "$CLIFT" run -t $t "$f" $args > "$T/out" 2>&1
    rc=$?
    if [ $rc -eq 1 ] && grep -qE "^$f:[0-9]+:[0-9]+: error: " "$T/out" && grep -qF -- "$want" "$T/out"; then ok
    else bad "run -t $t $f: exit $rc: $(head -n 3 "$T/out")"; fi
  done
done
for f in tests/fcl/unsupported_*.fcl; do
  args=$(sed -n 's/^-- args: //p' "$f")
  want=$(sed -n 's/^-- unsupported: //p' "$f")
  for t in c opencl; do
    "$CLIFT" run -t $t "$f" $args > "$T/out" 2>&1
    rc=$?
    if [ $rc -eq 1 ] && grep -qF -- "not supported on $t: $want" "$T/out"; then ok
    else bad "run -t $t $f: exit $rc: $(head -n 3 "$T/out")"; fi
  done
done

printf '%*s' 100000 '' | tr ' ' '(' | sed 's/^/val x = /' > "$T/deep.fcl"
"$CLIFT" check "$T/deep.fcl" > "$T/out" 2>&1
if [ $? -eq 1 ] && grep -q "nested too deeply" "$T/out"; then ok; else bad "deep nesting: $(head -n 3 "$T/out")"; fi
{ printf 'val x = '; for i in $(seq 5000); do printf '1 + '; done; echo 1; } > "$T/long.fcl"
"$CLIFT" run -t interp "$T/long.fcl" > "$T/out" 2>&1
if [ $? -le 1 ] && ! grep -qE 'Sanitizer|runtime error' "$T/out"; then ok; else bad "a long sum: $(head -n 3 "$T/out")"; fi
head -c 4096 /dev/urandom > "$T/junk.fcl"
"$CLIFT" check "$T/junk.fcl" > "$T/out" 2>&1
if [ $? -eq 1 ] && ! grep -qE 'Sanitizer|runtime error' "$T/out"; then ok; else bad "junk: $(head -n 3 "$T/out")"; fi

crashes=0
for f in examples/fcl/*.fcl; do
  prefix_crashes "$f" "${PREFIX_STEP:-7}" fcl 3 '[1,2,3]' 2>&1; crashes=$((crashes + $?))
done
if [ $crashes -eq 0 ]; then ok; else bad "$crashes prefixes of the examples crash"; fi

summary fcl
