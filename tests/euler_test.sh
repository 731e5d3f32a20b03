#!/usr/bin/env bash
# euler_test.sh — the Project Euler examples (examples/euler) at the
# problems' real sizes where those are too slow for the interpreter: each
# is run with `clift run -t openmp` and its output compared with the real
# answer (computed independently in Python). The smaller sizes and the
# problems that are fast everywhere are test blocks in the program files
# (`clift test examples/euler/NNN.lift`).
# Usage: euler_test.sh [path/to/clift]    Ends with "N passed, N failed".
source "$(dirname "$0")/lib.sh" "$@"
TARGET=${EULER_TARGET:-openmp}

# check NNN EXPECTED INPUT…: run examples/euler/NNN.lift on $TARGET with the
# inputs, the output must be EXPECTED
check() {
  local f=examples/euler/$1.lift want=$2; shift 2
  local got
  got=$("$CLIFT" run -t "$TARGET" "$f" "$@" 2>&1)
  if [ "$got" = "$want" ]; then ok; echo "ok   $f $*: $got"
  else bad "$f $* [$TARGET]: got '$got', expected '$want'"; fi
}

check 010 '[142913828922]' 2000000
check 014 '(837799, 525, 0)' 1000000
check 014_while '(837799, 525, 0)' 1000000

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
