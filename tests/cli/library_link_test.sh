#!/usr/bin/env bash
# library_link_test.sh — `clift compile -o DIR` output is a library (SPEC §6):
# every exported symbol is prefixed with the program's name (made a C
# identifier: "2-twice.lift" gives clift_2_twice_…), so two compiled programs
# link into one executable. For c, openmp and opencl: compile examples/dot.lift
# and a copy of tests/lift/twice.lift named 2-twice.lift, check that the objects
# define no global symbol outside their prefix, link both (and an aref program,
# whose error cell must stay its own) into one C main that calls each and checks
# the results. opencl runs only where a platform exists; it links wherever the
# headers and loader are.
# Usage: library_link_test.sh path/to/clift    Prints "N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"
CC=${CC:-cc}

cp tests/lift/twice.lift "$T/2-twice.lift"
cp tests/lift/err_aref_range.lift "$T/aref.lift"

# The main: dot of [1,2,3]·[4,5,6] = 32, twice of [1,-2.5] = [2,-5], and the
# aref program with k = 7 out of range (its error cell set, dot's not).
# RUN_RC(call) turns each entry's result into 0 for success (opencl returns
# an int, c/openmp return void); AREF_FAILED is 1 when the aref call failed.
cat > "$T/main.c" <<'EOF'
#include <stdio.h>
#include "dot.h"
#include "2_twice.h"
#include "aref.h"
int main(void) {
  float xs[] = { 1, 2, 3 }, ys[] = { 4, 5, 6 }, dot = 0, tw[2] = { 0, 0 }, in[] = { 1, -2.5f }, out[3];
  long long n3 = 3, n2 = 2;
  void *b1[] = { &dot, xs, ys }, *b2[] = { tw, in };
  int k = 7;
  void *b3[] = { out, xs, &k };
  if (RUN_RC(dot_run(b1, &n3))) { puts("dot_run failed"); return 1; }
  if (RUN_RC(clift_2_twice_run(b2, &n2))) { puts("clift_2_twice_run failed"); return 1; }
  if (dot != 32 || tw[0] != 2 || tw[1] != -5) { printf("wrong: dot %g, twice [%g, %g]\n", dot, tw[0], tw[1]); return 1; }
  int rc = RUN_RC(aref_run(b3, &n3));
  if (!(AREF_FAILED)) { puts("aref_run: index 7 of 3 elements not reported"); return 1; }
  if (DOT_FAILED) { puts("dot's error cell was set by another program"); return 1; }
  (void)rc;
  puts("ok");
  return 0;
}
EOF

# exports OBJECT PREFIX: the object defines no global symbol outside PREFIX_
exports() {
  local stray
  stray=$(nm -g --defined-only "$1" 2>/dev/null | awk '{ print $3 }' | grep -v "^$2_" | tr '\n' ' ')
  if [ -z "$stray" ]; then ok; else bad "$1 exports symbols without the prefix $2_: $stray"; fi
}

# build TARGET: compile the three programs for TARGET into $T/TARGET
build() {
  local d=$T/$1 p
  for p in examples/dot.lift "$T/2-twice.lift" "$T/aref.lift"; do
    if ! "$CLIFT" compile -t "$1" -o "$d" "$p" 2>"$T/err"; then bad "compile -t $1 $p: $(cat "$T/err")"; return 1; fi
  done
  for p in dot 2_twice aref; do
    if ! grep -q "${p/2_twice/clift_2_twice}_run" "$d/$p.h"; then bad "$1: $p.h does not declare its prefixed entry"; return 1; fi
  done
  ok
}

# the c and openmp libraries: void entries, error cells NAME_error
for target in c openmp; do
  build "$target" || continue
  d=$T/$target
  flags="-std=c11 -O1 -Wall -Wextra -Werror"
  [ "$target" = openmp ] && flags="$flags -fopenmp"
  objs=()
  for p in dot 2_twice aref; do
    if ! $CC $flags -c -o "$d/$p.o" "$d/$p.c" 2>"$T/cc.err"; then bad "$target: $p.c does not compile: $(head -c 800 "$T/cc.err")"; continue 2; fi
    objs+=("$d/$p.o")
  done
  exports "$d/dot.o" dot
  exports "$d/2_twice.o" clift_2_twice
  exports "$d/aref.o" aref
  if grep -q 'extern int aref_error\[' "$d/aref.h"; then   # the error cell: int NAME_error[K]
    failed='aref_error[0] != 0' dotfailed='dot_error[0] != 0'
  elif grep -q 'extern int aref_error;' "$d/aref.h"; then
    failed='aref_error != 0' dotfailed='dot_error != 0'
  else   # the error cell changed form: check the call and the link only
    failed=1 dotfailed=0
  fi
  if $CC $flags -I"$d" -D'RUN_RC(call)=((call), 0)' -D"AREF_FAILED=$failed" -D"DOT_FAILED=$dotfailed" \
       -o "$d/both" "$T/main.c" "${objs[@]}" -lm 2>"$T/cc.err"; then ok
  else bad "$target: the two libraries do not link into one executable: $(head -c 1500 "$T/cc.err")"; continue; fi
  got=$("$d/both" 2>&1)
  if [ "$got" = ok ]; then ok; else bad "$target: the linked executable: $got"; fi
done

# the opencl host files: int entries (2: an index out of range)
printf '#define CL_TARGET_OPENCL_VERSION 120\n#include <CL/cl.h>\nint main(void) { cl_uint n = 0; return clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0; }\n' > "$T/probe.c"
if ! $CC -std=c11 -o "$T/probe" "$T/probe.c" -lOpenCL 2>/dev/null; then
  echo "opencl: skipped: cannot build against OpenCL (headers or loader missing)"
elif build opencl; then
  d=$T/opencl
  objs=()
  for p in dot 2_twice aref; do
    if ! $CC -std=c11 -O1 -Wall -Wextra -Werror -I"$d" -c -o "$d/$p.o" "$d/${p}_host.c" 2>"$T/cc.err"; then
      bad "opencl: ${p}_host.c does not compile: $(head -c 800 "$T/cc.err")"; continue
    fi
    objs+=("$d/$p.o")
  done
  exports "$d/dot.o" dot
  exports "$d/2_twice.o" clift_2_twice
  exports "$d/aref.o" aref
  if $CC -std=c11 -I"$d" -D'RUN_RC(call)=(call)' -D'AREF_FAILED=rc == 2' -D'DOT_FAILED=0' \
       -o "$d/both" "$T/main.c" "${objs[@]}" -lOpenCL 2>"$T/cc.err"; then ok
  else bad "opencl: the two host files do not link into one executable: $(head -c 1500 "$T/cc.err")"; fi
  if [ -x "$d/both" ] && "$T/probe"; then
    got=$("$d/both" 2>&1)
    if [ "$(tail -n 1 <<<"$got")" = ok ]; then ok; else bad "opencl: the linked executable: $got"; fi
  else
    echo "opencl: linked, not run: no OpenCL platform"
  fi
fi

# F59: a C library wraps + - * of ints without -fwrapv (the user's flags): with
# the signed `x + 1 > x`, gcc -O2 folded the comparison to true for INT_MAX
printf '%s\n' '(lift (N) ((array-type int N)) (lambda (xs) (mapGlb (lambda (x) (if (> (+ x 1) x) (* x 3) 7)) xs)))' > "$T/wrap.lift"
cat > "$T/wrap_main.c" <<'EOF'
#include <stdio.h>
#include "wrap.h"
int main(void) {
  int xs[] = { 2147483647, 5, -2147483647 - 1, 1000000000 }, out[4];
  long long n = 4;
  void *b[] = { out, xs };
  wrap_run(b, &n);
  printf("%d %d %d %d\n", out[0], out[1], out[2], out[3]);
  return 0;
}
EOF
if "$CLIFT" compile -t c -o "$T/wrap" "$T/wrap.lift" 2>"$T/cc.err" &&
   $CC -std=c11 -O2 -Wall -Wextra -Werror -I"$T/wrap" -o "$T/wrap/run" "$T/wrap_main.c" "$T/wrap/wrap.c" -lm 2>>"$T/cc.err"; then
  got=$("$T/wrap/run" 2>&1)
  if [ "$got" = "7 15 -2147483648 -1294967296" ]; then ok
  else bad "c library without -fwrapv: $got, expected 7 15 -2147483648 -1294967296"; fi
else bad "c library without -fwrapv does not build: $(head -c 800 "$T/cc.err")"; fi

summary "compiled libraries link together"
