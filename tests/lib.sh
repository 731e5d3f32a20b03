# lib.sh — sourced by the shell test scripts (tests/cli, tests/codegen):
#   source "$(dirname "$0")/../lib.sh" "$@"
# gives CLIFT (the compiler under test, absolute; default build/clift), the
# repository root as the working folder, a temporary folder $T removed on exit,
# the tally (ok, bad, summary NAME → "NAME: N passed, N failed" and the exit
# status), expect STATUS PATTERN -- COMMAND (exit status and output), and checks
# on generated code (gen, expect_count).
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

# expect STATUS PATTERN -- command…   (PATTERN is matched against stdout+stderr)
expect() {
  local want=$1 pat=$2; shift 3
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" -ne "$want" ]; then bad "$* → exit $rc, expected $want: $out"; return; fi
  if [ -n "$pat" ] && ! grep -qE -- "$pat" <<<"$out"; then bad "$* → output lacks /$pat/: $out"; return; fi
  ok
}

# prefix_crashes FILE STEP EXT ARGS…: every STEP-th prefix of FILE, written to
# $T/prefix.EXT, run with `clift run -t interp $T/prefix.EXT ARGS…`; each run
# that exits other than 0 or 1, or reports a sanitizer error or an internal
# error, is printed; prints nothing else and returns the count of them
# (bash counts code points here in a UTF-8 locale, bytes in C).
prefix_crashes() {
  local file=$1 step=$2 ext=$3; shift 3
  local text n=0 i rc
  text=$(cat "$file")
  for ((i = 0; i < ${#text}; i += step)); do
    printf '%s' "${text:0:i}" > "$T/prefix.$ext"
    "$CLIFT" run -t interp "$T/prefix.$ext" "$@" > "$T/prefix.out" 2>&1
    rc=$?
    if { [ $rc -ne 0 ] && [ $rc -ne 1 ]; } || grep -qE 'Sanitizer|runtime error|internal error' "$T/prefix.out"; then
      n=$((n + 1)); echo "  crash (exit $rc) on prefix $i of $file: $(head -n 3 "$T/prefix.out")" >&2
    fi
  done
  return $((n > 255 ? 255 : n))
}

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

# check_single_pass KERNEL ATOMIC STATUS: the top-level filter and scan in one
# pass on a device target (GEN_TARGET; issue 11 item 7, dpia/lookback.c):
# three kernels (clear the status words, the pass, the length; the scan has
# no length), the input read in one of them, tile numbers from an atomic
# counter, each tile's flag and value published in one 64-bit status word and
# read whole through a volatile pointer (3 stores: tile 0's prefix, a tile's
# aggregate, then its prefix; 1 load in the look-back's window), no fence. The
# patterns are the target's spelling of a kernel's head, of the atomic, and of
# a volatile access to a status word.
check_single_pass() {
  local f
  for f in tests/regress/lookback_filter.lift tests/regress/lookback_filter_map.lift tests/regress/lookback_scan.lift; do
    gen $f || continue
    expect_count $f "$1" $([ $f = tests/regress/lookback_scan.lift ] && echo 2 || echo 3) "kernels (clear, pass, length)"
    expect_count $f 'xs\[' 1 "reads of the input"
    expect_count $f "$2" 1 "atomic tile counters"
    expect_count $f "$3" 4 "volatile accesses of status words"
    expect_count $f 'fence' 0 "fences"
  done
}

# check_reduce_tiles BARRIER: a top-level reduce's first pass on a device target
# (GEN_TARGET; lower.c, dpia/tiles.c): the work-items' strided reads of a tile
# entirely inside the input are without the padding's check, in a branch every
# work-item of the group takes alike; only the copy for the last tile checks
# (one select); the branch holds no barrier, so the barriers are those of one
# copy (8 in each kernel's tree, one closing each work-group loop's body;
# cuda, where the pass over the partials runs in the first pass's kernel
# (dpia/last_group.c): 8 in each tree, one closing the loop's body, two around
# the count of finished chunks). CLIFT_REDUCE_GUARD=1 (the former form, for
# comparison): one copy, every read checked. BARRIER is the target's barrier,
# COUNT (default 18) their number.
check_reduce_tiles() {
  local f
  for f in bench/gpu/asum.lift bench/gpu/dot.lift bench/gpu/sum.lift; do
    gen $f || continue
    expect_count $f 'if \(wid[0-9]+ < N / 16384\) \{' 1 "the full tiles' branch"
    expect_count $f 'xs\[' 2 "reads of the input (the full tiles' copy, the last tile's)"
    expect_count $f '< N\) \? 0\.0f' 1 "checked reads (the last tile's copy)"
    expect_count $f "$1" "${2:-18}" "barriers"
    CLIFT_REDUCE_GUARD=1 gen $f || continue
    expect_count $f 'if \(wid' 0 "a branch with CLIFT_REDUCE_GUARD=1"
    expect_count $f 'xs\[' 1 "reads of the input with CLIFT_REDUCE_GUARD=1"
    expect_count $f '< N\) \? 0\.0f' 1 "checked reads with CLIFT_REDUCE_GUARD=1"
    expect_count $f "$1" "${2:-18}" "barriers with CLIFT_REDUCE_GUARD=1"
  done
}
