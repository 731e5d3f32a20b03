# lib.sh — sourced by the shell test scripts (tests/cli, tests/codegen):
#   source "$(dirname "$0")/../lib.sh" "$@"
# gives CLIFT (the compiler under test, absolute; default build/clift), the
# repository root as the working folder, a temporary folder $T removed on exit,
# the tally (ok, bad, summary NAME → "NAME: N passed, N failed" and the exit
# status), and checks on generated code (gen, expect_count).
set -u
CLIFT=${1:-build/clift}
CLIFT=$(cd "$(dirname "$CLIFT")" && pwd)/$(basename "$CLIFT")
cd "$(dirname "${BASH_SOURCE[0]}")/.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
summary() { echo "$1: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; }

# gen FILE [TARGET]: the generated code of FILE in $T/gen (TARGET defaults to
# $GEN_TARGET, else openmp); a compile error is a failure.
# GEN_FLAGS: compile options (--peel, --no-peel) for one call: GEN_FLAGS=--peel gen FILE
gen() {
  "$CLIFT" compile ${GEN_FLAGS:-} -t "${2:-${GEN_TARGET:-openmp}}" --print "$1" > "$T/gen" 2>"$T/err" && return 0
  bad "$1 does not compile: $(cat "$T/err")"
  return 1
}

# expect_count FILE PATTERN N WHAT: PATTERN (extended regex) occurs N times in
# the last generated code; on failure the code is shown.
expect_count() {
  local n; n=$(grep -oE -- "$2" "$T/gen" | wc -l)
  if [ "$n" -eq "$3" ]; then ok; else bad "$1: $4: expected $3, found $n"; cat "$T/gen"; fi
}
