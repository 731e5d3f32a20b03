#!/usr/bin/env bash
# tune_test.sh — tunable sizes and clift tune (issue 14, docs/tuning.md):
# the header syntax and its errors, --tunable on every target against the
# interpreter, and on the device targets here (PoCL in CI) a tiny search:
# progress, ranking, a cache entry, run/bench/compile using it (and not with
# --no-tune-cache), a malformed entry ignored, a candidate that cannot run at
# the check size skipped; the schedule flags (--pipeline, --double-buffer,
# --unroll) searched, recorded in the entry and applied by run/bench/compile.
# Usage: tune_test.sh path/to/clift    Prints "N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"
export CLIFT_TUNE_CACHE=$T/cache
prog() { printf '%s\n' "$2" > "$T/$1.lift"; echo "$T/$1.lift"; }

# ---- the syntax: (NAME k1 k2 …) in the size list ----
expect 0 '^\(N\) \[int\]N -> \[int\]1$' -- "$CLIFT" check tests/tune/chunks.lift
expect 0 'tunable sizes: TS = 4 \(candidates 4 8 3\)' -- "$CLIFT" check tests/tune/chunks.lift
body='((array-type int N)) (lambda (xs) (mapGlb (lambda (c) (reduceSeq 0 + c)) (split #TS xs))))'
expect 1 ':1:16: error: the tunable size TS lists 8 twice' -- "$CLIFT" check "$(prog dup "(lift (N (TS 8 8)) $body")"
expect 1 ':1:14: error: a candidate of the tunable size TS must be an integer between 1 and 2\^40' -- "$CLIFT" check "$(prog zero "(lift (N (TS 0 8)) $body")"
expect 1 ':1:14: error: a candidate of the tunable size TS must be an integer' -- "$CLIFT" check "$(prog flt "(lift (N (TS 4.0f)) $body")"
expect 1 ':1:10: error: size variable .N. declared twice' -- "$CLIFT" check "$(prog twice "(lift (N (N 4)) $body")"
expect 1 ':1:10: error: expected a size variable name, or a tunable size' -- "$CLIFT" check "$(prog nocand "(lift (N (TS)) $body")"
expect 1 "unknown size variable 'TS'" -- "$CLIFT" check "$(prog undeclared "(lift (N) $body")"
# a tunable is a constant: no input binds it, and it may size an input
expect 0 '^\(N\) \[int\]\(N \* 4\) -> ' -- "$CLIFT" check "$(prog intype "(lift (N (TS 4 8)) ((array-type int (* N TS))) (lambda (xs) (mapGlb (lambda (c) (reduceSeq 0 + c)) (split #TS xs))))")"

# ---- --tunable on every target, against the interpreter ----
in='[3, -1, 4, 1, -5, 9, 2, -6, 5, 3, -5, 8, 9, -7, 9, 3]'
for t in $("$CLIFT" test --list-targets); do
  for ts in 4 8 2 16; do   # 2 and 16 are not candidates: any value ≥ 1 may be set
    expect 0 '^\[32\]$' -- "$CLIFT" run -t "$t" --tunable TS=$ts tests/tune/chunks.lift "$in"
  done
  expect 1 'split #8 needs the length N = 4 to be a multiple of 8' -- "$CLIFT" run -t "$t" --tunable TS=8 tests/tune/chunks.lift '[1, 2, 3, 4]'
done
expect 1 'error: --tunable XX: the program has no tunable size XX \(it has TS\)' -- "$CLIFT" run --tunable XX=3 tests/tune/chunks.lift "$in"
expect 2 "'--tunable' expects NAME=VALUE" -- "$CLIFT" run --tunable TS=0 tests/tune/chunks.lift "$in"
expect 2 "'--tunable' expects NAME=VALUE" -- "$CLIFT" bench --tunable TS --size N=16 tests/tune/chunks.lift
expect 1 'the program has no tunable size TS \(it has none\)' -- "$CLIFT" run --tunable TS=4 tests/lift/twice.lift '[1]'

# ---- clift tune, on the device targets here ----
targets=$("$CLIFT" test --list-targets | grep -E '^opencl$')   # cuda: no GPU in CI
for t in $targets; do
  # launch and tunable sizes only (--tune-flags none: the flags are searched below)
  out=$("$CLIFT" tune -t "$t" --tune-flags none --size N=4096 --max-tries 9 --runs 2 tests/tune/chunks.lift 2>"$T/progress"); rc=$?
  if [ "$rc" -eq 0 ] && grep -qE '^best: [0-9.]+ ms \(TS=(4|8), local ' <<<"$out" && grep -q '^stored in ' <<<"$out"; then ok
  else bad "$t tune chunks.lift (exit $rc): $out $(cat "$T/progress")"; fi
  if grep -qE '^tune: 9/9 tried, best ' "$T/progress" && grep -qE 'tune: .* 9 candidates \(3 tunable assignments\)' "$T/progress"; then ok
  else bad "$t tune progress: $(cat "$T/progress")"; fi
  # every candidate tried was timed or skipped; TS = 3 cannot split 256 (the check size)
  if grep -qE '9 of 9 candidates tried .*; [0-9]+ timed, [0-9]+ skipped, 0 disagreed' <<<"$out"; then ok; else bad "$t tune counts: $out"; fi
  entry=$(sed -n 's/^stored in //p' <<<"$out")
  if [ -f "$entry" ] && grep -q "^key: clift .* | $t | .* | N=4096$" "$entry" && grep -qE '^tunable: TS (4|8)$' "$entry"; then ok
  else bad "$t cache entry $entry: $(cat "$entry" 2>&1)"; fi
  # run at the tuned size uses it, and agrees with the interpreter
  python3 -c "import random; r=random.Random(7); print([r.randint(-50, 50) for _ in range(4096)])" > "$T/xs.txt"
  want=$("$CLIFT" run -t interp tests/tune/chunks.lift @"$T/xs.txt")
  got=$("$CLIFT" run -t "$t" tests/tune/chunks.lift @"$T/xs.txt" 2>"$T/err")
  if [ "$got" = "$want" ] && grep -q "^clift: using tuned configuration from $entry (TS=" "$T/err"; then ok
  else bad "$t run with the cache: got $got, want $want; $(cat "$T/err")"; fi
  got=$("$CLIFT" run -t "$t" --no-tune-cache tests/tune/chunks.lift @"$T/xs.txt" 2>"$T/err")
  if [ "$got" = "$want" ] && ! grep -q "tuned" "$T/err"; then ok; else bad "$t --no-tune-cache: $got; $(cat "$T/err")"; fi
  # other sizes: no entry, nothing said
  got=$("$CLIFT" run -t "$t" tests/tune/chunks.lift "$in" 2>"$T/err")
  if [ "$got" = "[32]" ] && ! grep -q "tuned" "$T/err"; then ok; else bad "$t run at other sizes: $got; $(cat "$T/err")"; fi
  expect 0 'using tuned configuration from' -- "$CLIFT" bench -t "$t" --runs 2 --size N=4096 tests/tune/chunks.lift
  # compile --size: the library applies it and its header records it
  expect 0 'using tuned configuration' -- "$CLIFT" compile -t "$t" --size N=4096 -o "$T/lib" tests/tune/chunks.lift
  if grep -qE '^ \* Tuned configuration \(clift tune, docs/tuning.md\): TS=(4|8), local [0-9a-z,]+, global [0-9a-z,]+, from the tuning cache for N=4096\.$' "$T/lib/chunks.h" \
     && grep -q '^static const size_t clift_tuned_local\[3\] = ' "$T/lib/chunks_host.c"; then ok
  else bad "$t compile with the cache: $(head -12 "$T/lib/chunks.h")"; fi
  # a malformed entry: said, ignored, the run still right
  echo "key: broken" > "$entry"; echo "local: x" >> "$entry"
  got=$("$CLIFT" run -t "$t" tests/tune/chunks.lift @"$T/xs.txt" 2>"$T/err")
  if [ "$got" = "$want" ] && grep -q "ignoring the malformed tuning cache entry $entry" "$T/err"; then ok
  else bad "$t malformed entry: $got; $(cat "$T/err")"; fi
  # 2-D: work-group shapes x × y are searched; --no-store leaves the cache alone
  out=$("$CLIFT" tune -t "$t" --size N=64 --size M=64 --max-tries 6 --runs 2 --no-store tests/tune/tiles.lift 2>"$T/progress"); rc=$?
  if [ "$rc" -eq 0 ] && grep -q '^best: ' <<<"$out" && ! grep -q 'stored in' <<<"$out" && grep -qE 'local [0-9]+,[0-9]+,1' "$T/progress"; then ok
  else bad "$t tune tiles.lift (exit $rc): $out $(cat "$T/progress")"; fi
  # ---- the schedule flags: searched, recorded, applied (staged.lift: a copy → barrier → compute loop) ----
  sz=(--size G=16 --size S=9)
  out=$("$CLIFT" tune -t "$t" "${sz[@]}" --runs 2 tests/tune/staged.lift 2>"$T/progress"); rc=$?
  # 2 tunable values × 8 subsets of the flags, --pipeline --double-buffer the same code as --double-buffer: 12 codes,
  # pinned to 8 work-items (the default launch only)
  if [ "$rc" -eq 0 ] && grep -qE 'tune: .* 12 candidates \(2 tunable assignments; flags searched: --pipeline --double-buffer --unroll, 12 distinct codes; 12 with a pinned' "$T/progress"; then ok
  else bad "$t tune staged.lift (exit $rc): $out $(cat "$T/progress")"; fi
  n=0
  for f in "" "--pipeline, " "--double-buffer, " "--unroll, " "--pipeline --unroll, " "--double-buffer --unroll, "; do
    for r in 2 4; do grep -qF "  [R=$r, ${f}local default, global default] " "$T/progress" && n=$((n + 1)); done
  done
  if [ "$n" -eq 12 ] && grep -q '12 timed, 0 skipped, 0 disagreed' <<<"$out"; then ok; else bad "$t staged: $n of the 12 codes tried: $(cat "$T/progress")"; fi
  best=$(sed -nE 's/^best: [0-9.]+ ms \((.*), local default, global default\).*/\1/p' <<<"$out")   # R=2, --pipeline
  bflags=$(sed -nE 's/^R=[0-9]+(, )?//p' <<<"$best")
  entry=$(sed -n 's/^stored in //p' <<<"$out")
  eflags=$(sed -n 's/^flags: //p' "$entry" 2>/dev/null)
  if [ -n "$best" ] && [ "$eflags" = "$bflags" ] && grep -qE "^tunable: R ${best:2:1}$" "$entry"; then ok
  else bad "$t staged entry $entry (best '$best'): $(cat "$entry" 2>&1)"; fi
  # compile and run apply the entry's flags: the code is the best's, not the default's
  "$CLIFT" compile -t "$t" "${sz[@]}" --print tests/tune/staged.lift >"$T/tuned.cl" 2>"$T/err"
  "$CLIFT" compile -t "$t" --tunable R="${best:2:1}" $bflags --print tests/tune/staged.lift >"$T/want.cl"
  "$CLIFT" compile -t "$t" --tunable R="${best:2:1}" --print tests/tune/staged.lift >"$T/plain.cl"
  if cmp -s "$T/tuned.cl" "$T/want.cl" && { [ -z "$bflags" ] || ! cmp -s "$T/tuned.cl" "$T/plain.cl"; } \
     && grep -qF "using tuned configuration from $entry (R=${best:2:1}${bflags:+, $bflags}, local default" "$T/err"; then ok
  else bad "$t compile with the flags '$bflags' of the cache: $(cat "$T/err"); $(diff "$T/tuned.cl" "$T/want.cl" | head -5)"; fi
  python3 -c "import random; r=random.Random(3); print([[[round(r.uniform(-1, 1), 3) for _ in range(32)] for _ in range(9)] for _ in range(16)])" > "$T/st.txt"
  want=$("$CLIFT" run -t interp --tunable R="${best:2:1}" tests/tune/staged.lift @"$T/st.txt")
  got=$("$CLIFT" run -t "$t" tests/tune/staged.lift @"$T/st.txt" 2>"$T/err")
  if [ "$got" = "$want" ] && grep -qF "using tuned configuration from $entry (R=${best:2:1}${bflags:+, $bflags}," "$T/err"; then ok
  else bad "$t run staged with the cache: $(cat "$T/err")"; fi
  # a flag fixed on the command line is in every candidate and in the entry; --tune-flags none searches no other
  out=$("$CLIFT" tune -t "$t" "${sz[@]}" --runs 1 --tune-flags none --double-buffer --unroll tests/tune/staged.lift 2>"$T/progress"); rc=$?
  entry=$(sed -n 's/^stored in //p' <<<"$out")
  if [ "$rc" -eq 0 ] && grep -qE 'tune: .* 2 candidates \(2 tunable assignments; 2 with a pinned' "$T/progress" \
     && grep -qx 'flags: --double-buffer --unroll' "$entry"; then ok
  else bad "$t tune with fixed flags (exit $rc): $out $(cat "$T/progress") $(cat "$entry" 2>&1)"; fi
  "$CLIFT" compile -t "$t" "${sz[@]}" --print tests/tune/staged.lift >"$T/tuned.cl" 2>"$T/err"
  if grep -q '#pragma unroll' "$T/tuned.cl" && grep -qE '\bstage[0-9]+\b' "$T/tuned.cl" && grep -q 'double-buffer --unroll' "$T/err"; then ok
  else bad "$t compile: the cached --double-buffer --unroll not applied: $(cat "$T/err")"; fi
  "$CLIFT" compile -t "$t" "${sz[@]}" --no-tune-cache --print tests/tune/staged.lift >"$T/plain.cl" 2>"$T/err"
  # (fewer `#pragma unroll` than with --unroll: opencl marks loops of up to 4 steps
  # without it, F38)
  if [ "$(grep -c '#pragma unroll' "$T/plain.cl")" -lt "$(grep -c '#pragma unroll' "$T/tuned.cl")" ] \
     && ! grep -qE '\bstage[0-9]+\b' "$T/plain.cl"; then ok; else bad "$t compile --no-tune-cache: flags applied"; fi
  expect 0 'using tuned configuration from .*--double-buffer --unroll, local default' -- "$CLIFT" bench -t "$t" --runs 1 "${sz[@]}" tests/tune/staged.lift
  # a schedule flag on the command line is a configuration of its own: the cache is not read
  "$CLIFT" bench -t "$t" --runs 1 --pipeline "${sz[@]}" tests/tune/staged.lift >/dev/null 2>"$T/err"
  if ! grep -q 'tuned' "$T/err"; then ok; else bad "$t bench --pipeline read the cache: $(cat "$T/err")"; fi
  # --tune-flags: a subset; a flag that is not a schedule choice is a usage error
  "$CLIFT" tune -t "$t" "${sz[@]}" --runs 1 --no-store --tune-flags unroll,pipeline tests/tune/staged.lift >/dev/null 2>"$T/progress"
  if grep -qE '8 candidates \(2 tunable assignments; flags searched: --unroll --pipeline, 8 distinct codes' "$T/progress"; then ok
  else bad "$t --tune-flags unroll,pipeline: $(head -1 "$T/progress")"; fi
  expect 2 "--tune-flags expects 'none' or a comma-separated list of pipeline, double-buffer, unroll" -- "$CLIFT" tune -t "$t" "${sz[@]}" --tune-flags peel tests/tune/staged.lift
  # a flags line naming something else: malformed, ignored
  printf 'key: x\nflags: --peel\n' > "$entry"
  expect 0 'ignoring the malformed tuning cache entry' -- "$CLIFT" bench -t "$t" --runs 1 "${sz[@]}" tests/tune/staged.lift
  # nothing can be checked: an error, exit 1
  expect 1 'no candidate could be checked and timed' -- "$CLIFT" tune -t "$t" --size N=4096 --check-size N=7 --max-tries 3 --no-store tests/tune/chunks.lift
  expect 2 '--max-tries expects a count' -- "$CLIFT" tune -t "$t" --size N=64 --max-tries -1 tests/tune/chunks.lift
  expect 2 'expected -t opencl or -t cuda' -- "$CLIFT" tune --size N=64 tests/tune/chunks.lift
  expect 1 'no value for the size variable N' -- "$CLIFT" tune -t "$t" tests/tune/chunks.lift
done
[ -n "$targets" ] || echo "no OpenCL device here: clift tune not run"
# no GPU: a clear error, exit 1, nothing stored
if ! "$CLIFT" test --list-targets | grep -qx cuda; then
  expect 1 'error: no CUDA device' -- "$CLIFT" tune -t cuda --size N=64 tests/tune/chunks.lift
fi
summary "tunable sizes and clift tune"
