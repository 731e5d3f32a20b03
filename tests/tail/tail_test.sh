#!/usr/bin/env bash
# tail_test.sh — TAIL's text and its errors (docs/apl.md §5, M1), beyond the
# test blocks that `clift test tests/tail` runs on every target:
#   1. print(parse(x)) = x for every tests/tail/*.tail (x without its comments),
#      via `clift check --emit-tail`;
#   2. every tests/tail/err_*.tail: exit 1 and a "file:line:col: error:" first
#      line with a caret, on `check` and on `run`;
#   3. no crash (exit 0 or 1, no sanitizer report) on any prefix of signal.tail.
# Usage: tail_test.sh path/to/clift    Prints "tail: N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"

for f in tests/tail/*.tail; do
  perl -0pe 's/\(\*.*?\*\)\s*//gs' "$f" > "$T/want"
  if ! "$CLIFT" check --emit-tail "$f" > "$T/got" 2>"$T/err" && [[ $f != tests/tail/err_* ]]; then
    bad "$f: check fails: $(cat "$T/err")"; continue
  fi
  if diff -u "$T/want" "$T/got" > "$T/diff"; then ok; else bad "$f: print(parse(x)) differs from x:"; cat "$T/diff"; fi
done

for f in tests/tail/err_*.tail; do
  for cmd in check run; do
    "$CLIFT" $cmd "$f" > "$T/out" 2>&1
    rc=$?
    first=$(head -n 1 "$T/out")
    if [ $rc -ne 1 ]; then bad "$cmd $f: exit $rc, expected 1: $(cat "$T/out")"
    elif ! grep -qE "^$f:[0-9]+:[0-9]+: error: " <<<"$first"; then bad "$cmd $f: no file:line:col error: $first"
    elif ! grep -qE '^ *\^$' "$T/out"; then bad "$cmd $f: no caret: $(cat "$T/out")"
    elif grep -qE 'Sanitizer|runtime error' "$T/out"; then bad "$cmd $f: sanitizer report: $(cat "$T/out")"
    else ok; fi
  done
done

# deep nesting and binary junk: an error, never a crash
printf '%*s' 100000 '' | tr ' ' '(' > "$T/deep.tail"
"$CLIFT" check "$T/deep.tail" > "$T/out" 2>&1
if [ $? -eq 1 ] && grep -q "nested too deeply" "$T/out"; then ok; else bad "deep nesting: $(head -n 3 "$T/out")"; fi
{ for i in $(seq 299); do printf 'each(negi,'; done; printf '[1]'; for i in $(seq 299); do printf ')'; done; } > "$T/deep_ok.tail"
if [ "$("$CLIFT" run -t interp "$T/deep_ok.tail" 2>&1)" = "[-1]" ]; then ok; else bad "299 nested each: $("$CLIFT" run -t interp "$T/deep_ok.tail" 2>&1 | head -n 3)"; fi
head -c 4096 /dev/urandom > "$T/junk.tail"
"$CLIFT" check "$T/junk.tail" > "$T/out" 2>&1
if [ $? -eq 1 ] && ! grep -qE 'Sanitizer|runtime error' "$T/out"; then ok; else bad "junk: $(head -n 3 "$T/out")"; fi

crashes=0
text=$(cat tests/tail/signal.tail)
for ((i = 0; i < ${#text}; i += 3)); do
  printf '%s' "${text:0:i}" > "$T/prefix.tail"
  "$CLIFT" check "$T/prefix.tail" > "$T/out" 2>&1
  rc=$?
  if { [ $rc -ne 0 ] && [ $rc -ne 1 ]; } || grep -qE 'Sanitizer|runtime error|internal error' "$T/out"; then
    crashes=$((crashes + 1)); echo "  crash (exit $rc) on prefix $i of signal.tail: $(head -n 3 "$T/out")"
  fi
done
if [ $crashes -eq 0 ]; then ok; else bad "$crashes crashes on prefixes of signal.tail"; fi

summary tail
