#!/usr/bin/env bash
# apl_test.sh — the APL front-end beyond the test blocks that `clift test`
# runs on every target (docs/apl.md §5, M2):
#   1. `clift apl --emit-tail` of each program with a golden file in
#      tests/apl/golden/ prints that file (signal.tail: Figure 3.1 up to
#      variable numbering, cons/rotate for consV/rotateV), and the golden file
#      run as TAIL prints what the APL program prints;
#   2. every error program (tests/apl/err_*.apl, the M2 ones of
#      examples/apl/errors): exit 1 on check and run, a first line
#      "file:line:col: error:", and the caret under column col counted in
#      code points;
#   3. no crash (exit 0 or 1, no sanitizer report, no internal error) on
#      prefixes of the examples and of tests/apl programs (M2–M6: train,
#      take_drop, …, scan, replicate, expand, index_matrix, circle; M6's
#      rest: circle_arc, factorial, bits; replicate_runtime, expand_runtime,
#      replicate_runtime_matrix, replicate_runtime_last), deep nesting (parentheses, trains, index brackets), binary junk;
#   4. usage errors of `clift apl` exit 2, and so do `clift compile` and
#      `clift bench` of an APL program (not yet: docs/apl.md §6);
#   5. the lowered clift program of A +.× B has no % (M5).
# Usage: apl_test.sh path/to/clift    Prints "apl: N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"

for g in tests/apl/golden/*.tail; do
  name=$(basename "$g" .tail)
  src=tests/apl/$name.apl
  [ -f "$src" ] || src=examples/apl/$name.apl
  if "$CLIFT" apl --emit-tail "$src" > "$T/got" 2>"$T/err" && diff -u "$g" "$T/got" > "$T/diff"; then ok
  else bad "$src: --emit-tail differs from $g: $(cat "$T/err" "$T/diff")"; fi
  "$CLIFT" run -t interp "$src" > "$T/apl" 2>&1
  cp "$g" "$T/$name.tail"
  "$CLIFT" run -t interp "$T/$name.tail" > "$T/tail" 2>&1
  if diff -u "$T/apl" "$T/tail" > "$T/diff"; then ok; else bad "$g run as TAIL prints other lines than $src:"; cat "$T/diff"; fi
done

# signal.apl's TAIL is the thesis's Figure 3.1 (tests/tail/signal.tail) up to the
# numbering of variables and i2d of an int literal, which the elaborator folds
norm() { perl -0pe 's/\(\*.*?\*\)\s*//gs; s/i2d\((~?\d+)\)/$1.0/g; my %m; my $k = 0; s/\bv\d+\b/$m{$&} \/\/= "w" . $k++/ge' "$1"; }
if diff -u <(norm tests/tail/signal.tail) <(norm tests/apl/golden/signal.tail) > "$T/diff"; then ok
else bad "signal.apl's TAIL is not Figure 3.1's:"; cat "$T/diff"; fi

errors="tests/apl/err_*.apl examples/apl/errors/length.apl examples/apl/errors/nested_each.apl
  examples/apl/errors/nested_strand.apl examples/apl/errors/rank.apl examples/apl/errors/recursion_del.apl
  examples/apl/errors/recursion_named.apl examples/apl/errors/power_shape.apl examples/apl/errors/power_rank.apl
  examples/apl/errors/rank_index.apl"
for f in $errors; do
  for cmd in check run; do
    "$CLIFT" $cmd "$f" > "$T/out" 2>&1
    rc=$?
    first=$(head -n 1 "$T/out")
    col=$(sed -nE "s|^$f:[0-9]+:([0-9]+): error: .*|\1|p" <<<"$first")
    caret=$(sed -n 3p "$T/out" | perl -CSD -ne 'chomp; print index($_, "^") - 2 + 1')
    if [ $rc -ne 1 ]; then bad "$cmd $f: exit $rc, expected 1: $(cat "$T/out")"
    elif [ -z "$col" ]; then bad "$cmd $f: no file:line:col error: $first"
    elif grep -qE 'Sanitizer|runtime error|internal error' "$T/out"; then bad "$cmd $f: $(cat "$T/out")"
    elif [ "$caret" != "$col" ]; then bad "$cmd $f: caret at code point $caret, expected $col: $(cat "$T/out")"
    else ok; fi
  done
done

crashes=0
for src in examples/apl/signal.apl examples/apl/primes.apl examples/apl/easter.apl examples/apl/blackscholes.apl tests/apl/train.apl \
           examples/apl/life.apl examples/apl/hotspot.apl tests/apl/take_drop.apl tests/apl/catenate.apl \
           examples/apl/dot.apl examples/apl/sobol_pi.apl tests/apl/operator.apl tests/apl/inner.apl \
           tests/apl/scan.apl tests/apl/replicate.apl tests/apl/expand.apl tests/apl/index_matrix.apl tests/apl/circle.apl \
           tests/apl/circle_arc.apl tests/apl/factorial.apl tests/apl/bits.apl \
           tests/apl/replicate_runtime.apl tests/apl/expand_runtime.apl tests/apl/replicate_runtime_matrix.apl \
           tests/apl/replicate_runtime_last.apl; do
  step=2
  case $src in *easter*|*blackscholes*|*life*|*hotspot*|*take_drop*|*catenate*|*dot*|*sobol*|*operator*|*inner*|*scan*|*replicate*|*expand*|*index_matrix*|*circle*|*factorial*|*bits*|*_runtime*) step=5;; esac
  prefix_crashes "$src" "$step" apl 2>&1; crashes=$((crashes + $?))
done
if [ $crashes -eq 0 ]; then ok; else bad "$crashes crashes on prefixes of the programs above"; fi

{ printf 'M←2 2⍴⍳4\n'; for i in $(seq 3000); do printf 'M['; done; for i in $(seq 3000); do printf '1;1]'; done; printf '\n'; } > "$T/brackets.apl"
"$CLIFT" check "$T/brackets.apl" > "$T/out" 2>&1
if [ $? -eq 1 ] && grep -q "nested too deeply" "$T/out" && ! grep -qE 'Sanitizer|runtime error|internal error' "$T/out"; then ok
else bad "3000 nested index brackets: $(head -n 3 "$T/out")"; fi
printf '%*s' 100000 '' | tr ' ' '(' > "$T/deep.apl"
"$CLIFT" check "$T/deep.apl" > "$T/out" 2>&1
if [ $? -eq 1 ] && grep -q "nested too deeply" "$T/out"; then ok; else bad "deep parentheses: $(head -n 3 "$T/out")"; fi
printf '%*s' 100000 '' | tr ' ' '(' > "$T/deep.apl"; printf '+/)' >> "$T/deep.apl"
"$CLIFT" check "$T/deep.apl" > "$T/out" 2>&1
if [ $? -eq 1 ] && ! grep -qE 'Sanitizer|runtime error|internal error' "$T/out"; then ok; else bad "deep function parentheses: $(head -n 3 "$T/out")"; fi
{ printf 'x ← '; for i in $(seq 3000); do printf -- '-+'; done; printf '÷\nx 2\n'; } > "$T/train.apl"
"$CLIFT" run -t interp "$T/train.apl" > "$T/out" 2>&1
rc=$?
if { [ $rc -eq 0 ] || [ $rc -eq 1 ]; } && ! grep -qE 'Sanitizer|runtime error|internal error' "$T/out"; then ok; else bad "a train of 6001 functions: exit $rc $(head -n 3 "$T/out")"; fi
{ printf 'f ← {⍵+1}\n'; for i in $(seq 150); do printf 'f '; done; printf '0\n'; } > "$T/calls.apl"
if [ "$("$CLIFT" run -t interp "$T/calls.apl" 2>&1)" = "150" ]; then ok; else bad "150 nested calls: $("$CLIFT" run -t interp "$T/calls.apl" 2>&1 | head -n 3)"; fi
head -c 4096 /dev/urandom > "$T/junk.apl"
"$CLIFT" run "$T/junk.apl" > "$T/out" 2>&1
if [ $? -eq 1 ] && ! grep -qE 'Sanitizer|runtime error' "$T/out"; then ok; else bad "junk: $(head -n 3 "$T/out")"; fi
printf '⍝ only a comment\n' > "$T/empty.apl"
"$CLIFT" run "$T/empty.apl" > "$T/out" 2>&1
if [ $? -eq 1 ] && grep -q "no statements" "$T/out"; then ok; else bad "empty program: $(cat "$T/out")"; fi

# a count the program names does not size the compiler's work: ⍳ of 10^9 and an
# overtake of 10^9 are checked in well under 20 s (the lowering kept
# every value of a static ⍳: 8 GB and a minute here; found by the fuzzer with ⍳5e7)
printf 'N ← 1000000000\n+/ 1+97|7×⍳N\n' > "$T/big_iota.apl"
printf '+/ 1000000000↑⍳3\n' > "$T/big_take.apl"
for f in big_iota big_take; do
  timeout 20 "$CLIFT" check "$T/$f.apl" > "$T/out" 2>&1
  rc=$?
  if [ $rc -eq 0 ] || { [ $rc -eq 1 ] && ! grep -qE 'Sanitizer|runtime error|internal error|out of memory' "$T/out"; }; then ok
  else bad "clift check $f.apl: exit $rc $(head -n 3 "$T/out")"; fi
done

# 5. A +.× B (M5, docs/apl.md §3.3): the replication is views (map over iota,
#    transpose), no % in the lowered clift program (`clift compile` of an APL
#    program is a usage error, so the core is checked rather than the C); the
#    check sees the % of a cyclic reshape (3 2⍴⍳5).
printf 'A ← 3 2⍴⍳6\nB ← 2 3⍴⍳6\n⎕← A +.× B\nA +.× 1 2\n' > "$T/ip.apl"
printf 'A ← 3 2⍴⍳5\nA +.× 1 2\n' > "$T/ip_cyclic.apl"
"$CLIFT" apl --emit-core "$T/ip.apl" > "$T/core" 2>&1
if [ $? -eq 0 ] && ! grep -q '%' "$T/core" && grep -q '(transpose' "$T/core"; then ok; else bad "A +.× B: a % or no transpose view in the core: $(cat "$T/core")"; fi
"$CLIFT" apl --emit-core "$T/ip_cyclic.apl" > "$T/core" 2>&1
if grep -q '%' "$T/core"; then ok; else bad "the % check does not see a cyclic reshape: $(cat "$T/core")"; fi

for args in "apl" "apl --emit-tail" "apl --bogus examples/apl/signal.apl" "apl examples/apl/signal.apl" \
    "apl --emit-tail tests/tail/signal.tail" "compile -t c -o $T/lib examples/apl/signal.apl" "bench --size N=3 examples/apl/primes.apl" \
    "bench --seed 7 examples/apl/signal.apl" "bench --check examples/apl/signal.apl"; do
  "$CLIFT" $args > "$T/out" 2>&1
  if [ $? -eq 2 ]; then ok; else bad "clift $args: expected exit 2: $(head -n 3 "$T/out")"; fi
done
"$CLIFT" run examples/apl/signal.apl 1 > "$T/out" 2>&1
if [ $? -eq 2 ] && grep -q "takes no inputs" "$T/out"; then ok; else bad "inputs to an APL program: $(cat "$T/out")"; fi

# an operand of an inner product is computed once, not once per use (tail/lower.c
# `materialise`): sobol_pi.apl's 2*-⍳D and 2*D-⍳B vectors and its bit matrices
# are powers computed in loops of their own; computed where the product reads
# them, the generated C had 24 calls of pow, in the products' innermost loops
# (counted in the entry function: the prelude defines clift_pow, FINDINGS F29)
"$CLIFT" compile --print -t c examples/apl/sobol_pi.apl > "$T/sobol.c" 2>&1
n=$(sed -n '/^void clift_run(void/,$p' "$T/sobol.c" | grep -c "pow(")
if [ "$n" -le 8 ] && [ "$n" -ge 1 ]; then ok; else bad "sobol_pi.apl: $n calls of pow in the generated C (at most 8 expected)"; fi
# and the results stay right: the products of an outer product's materialised operands
if out=$("$CLIFT" run -t openmp examples/apl/sobol_pi.apl 2>&1) && [ "$out" = "$(sed -n 's/^⍝ output: *//p' examples/apl/sobol_pi.apl | tr '\n' '\n')" ]; then ok
else bad "sobol_pi.apl on openmp: $out"; fi
"$CLIFT" compile --print examples/apl/sobol_pi.apl > /dev/null 2>&1 && ok || bad "clift compile --print of an APL program"
"$CLIFT" compile -o "$T/lib" examples/apl/sobol_pi.apl > "$T/out" 2>&1
if [ $? -eq 2 ] && grep -q "cannot be compiled to files yet" "$T/out"; then ok; else bad "clift compile -o of an APL program: $(cat "$T/out")"; fi

# rank-2 element-wise maps run on a 2-D grid (Program.grid2d, dpia/rules_map.c): the
# HotSpot step is mapGlb1 over rows and mapGlb over columns, not one work-item per row
"$CLIFT" compile --print -t opencl examples/apl/hotspot.apl > "$T/hot.cl" 2>&1
n=$(grep -c "get_global_id(1)" "$T/hot.cl")
if [ "$n" -ge 1 ]; then ok; else bad "hotspot.apl: no kernel uses dimension 1 of the grid: $(grep -m3 get_global_id "$T/hot.cl")"; fi

# programs of many statements compile to code linear in them (fuzz F7: a 268-line
# mutant of replicate_runtime.apl took 3 s to compile for cuda and 12 s under ASan;
# 16 copies of its statements gave 77 MB of C, cc was killed): 4 and 8 copies of
# replicate_runtime.apl's statements, the generated code of 8 at most 2.4 times
# that of 4 (it was 3.6-3.9 times: an out-of-memory test per temporary freeing all
# of them), and 8 copies' results on c and opencl the interpreter's
body=$(sed -n '/^x ← /,/^≢R$/p' tests/apl/replicate_runtime.apl)
for k in 4 8; do for i in $(seq $k); do echo "$body"; done > "$T/many$k.apl"; done
for t in c opencl; do
  c4=$("$CLIFT" compile --print -t $t "$T/many4.apl" 2>&1 | wc -c); c8=$("$CLIFT" compile --print -t $t "$T/many8.apl" 2>&1 | wc -c)
  if [ "$c4" -gt 10000 ] && [ $((c8 * 10)) -le $((c4 * 24)) ]; then ok; else bad "$t code of 4 and 8 copies of the statements: $c4 and $c8 bytes"; fi
done
"$CLIFT" run -t interp "$T/many8.apl" > "$T/many.want" 2>&1
for t in c opencl; do
  if "$CLIFT" run -t $t "$T/many8.apl" > "$T/many.got" 2>&1 && [ "$(wc -l < "$T/many.want")" -ge 100 ] && cmp -s "$T/many.want" "$T/many.got"; then ok
  else bad "8 copies of the statements on $t: $(diff "$T/many.want" "$T/many.got" | head -n 4)"; fi
done

# a long vector named by a let is not folded item by item while elaborating (fuzz
# F9: `x←⍳50000000 ⋄ +/!0,x` looked for a negative factorial among 50M unknown
# items, 440 MB a line; 2.2 GB for five lines of a mutant of signal.apl): five such
# lines elaborate in less than 100 MB
for i in 1 2 3 4 5; do echo "x ← ⍳50000000"; echo "+/!0,x"; done > "$T/longfold.apl"
/usr/bin/time -f %M -o "$T/rss" "$CLIFT" apl --emit-tail "$T/longfold.apl" > /dev/null 2>&1; rss=$(tail -n 1 "$T/rss")
if [ "${rss:-999999}" -lt 100000 ]; then ok; else bad "elaborating !0,x of a named ⍳50000000 five times: ${rss} KB (F9)"; fi

summary apl
