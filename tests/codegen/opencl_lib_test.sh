#!/usr/bin/env bash
# opencl_lib_test.sh — `clift compile -t opencl -o DIR` (SPEC §6, §7): the kernels
# (DIR/NAME.cl, what --print prints), the host plan (DIR/NAME_host.c) and the
# header (DIR/NAME.h) build with nothing but a C compiler and -lOpenCL, without
# warnings, and a small C main calling NAME_run on fresh random inputs gets what
# `clift run -t interp` gets on the same inputs (written as literal files). Also:
# an aref out of range makes NAME_run return 2.
# Skipped (with a message) where there is no OpenCL platform, header or loader.
# Usage: opencl_lib_test.sh path/to/clift    Prints "N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"
CC=${CC:-cc}

# The driver: argv = N seed spec…; a spec is f (N random floats k/16, k ≠ 0, so
# every sum is exact in float32 and the order of additions does not matter),
# v4 (a random float4) or i:K (the int K). It writes input i to in_i.txt as a
# literal, runs ENTRY and prints the result (RESULT floats) as a literal.
cat > "$T/main.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static unsigned long long state;
static float next_float(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  int k = (int)((state >> 33) % 64) - 32;
  return (float)(k >= 0 ? k + 1 : k) / 16.0f;
}
int main(int argc, char **argv) {
  long long n = atoll(argv[1]);
  state = strtoull(argv[2], NULL, 10);
  void *buffers[8];
  long long result = RESULT;
  buffers[0] = calloc((size_t)result + 1, sizeof(float));
  for (int i = 3; i < argc; i++) {
    char name[32];
    snprintf(name, sizeof name, "in_%d.txt", i - 2);
    FILE *f = fopen(name, "w");
    if (strcmp(argv[i], "f") == 0 || strcmp(argv[i], "v4") == 0) {
      long long m = argv[i][0] == 'f' ? n : 4;
      float *a = malloc(sizeof(float) * (size_t)m);
      fputs(argv[i][0] == 'f' ? "[" : "<", f);
      for (long long j = 0; j < m; j++) { a[j] = next_float(); fprintf(f, "%s%.9g", j ? ", " : "", a[j]); }
      fputs(argv[i][0] == 'f' ? "]\n" : ">\n", f);
      buffers[i - 2] = a;
    } else {
      int *k = malloc(sizeof(int));
      *k = atoi(argv[i] + 2);
      fprintf(f, "%d\n", *k);
      buffers[i - 2] = k;
    }
    fclose(f);
  }
  int rc = ENTRY(buffers, &n);
  if (rc) { printf("rc %d\n", rc); return 0; }
  float *out = buffers[0];
  printf("[");
  for (long long j = 0; j < result; j++) printf("%s%.9g", j ? ", " : "", out[j]);
  printf("]\n");
  return 0;
}
EOF

# Is there OpenCL to build against and to run on?
printf '#define CL_TARGET_OPENCL_VERSION 120\n#include <CL/cl.h>\nint main(void) { cl_uint n = 0; return clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0; }\n' > "$T/probe.c"
if ! $CC -std=c11 -o "$T/probe" "$T/probe.c" -lOpenCL 2>"$T/probe.err"; then
  echo "opencl library: skipped: cannot build against OpenCL (ocl-icd-opencl-dev, opencl-headers): $(head -c 300 "$T/probe.err")"
  echo "opencl library: 0 passed, 0 failed"
  exit 0
fi
if ! "$T/probe"; then
  echo "opencl library: skipped: no OpenCL platform (pocl-opencl-icd)"
  echo "opencl library: 0 passed, 0 failed"
  exit 0
fi

# same FILE A B: the two literals hold the same numbers (relative tolerance 1e-6)
same() {
  paste <(tr -d '[]<> \n' < "$2" | tr ',' '\n') <(tr -d '[]<> \n' < "$3" | tr ',' '\n') |
    awk -F'\t' '{ n++; d = $1 - $2; if (d < 0) d = -d; m = $2 < 0 ? -$2 : $2;
                  if ($1 == "" || $2 == "" || d > 1e-6 * (m > 1 ? m : 1)) bad++ }
                END { exit (n == 0 || bad > 0) }'
}

# check PROG NAME N RESULT SPEC… (RESULT: the number of result floats, a C expression in n) : compile, build, run, compare with interp
check() {
  local prog=$1 name=$2 n=$3 result=$4; shift 4
  local d=$T/$name seed=$RANDOM$RANDOM
  mkdir -p "$d"
  if ! "$CLIFT" compile -t opencl -o "$d" "$prog" 2>"$d/err"; then bad "$prog: compile -t opencl: $(cat "$d/err")"; return; fi
  if [ -f "$d/$name.cl" ] && [ -f "$d/$name.h" ] && [ -f "$d/${name}_host.c" ]; then ok; else bad "$prog: files missing: $(ls "$d")"; return; fi
  "$CLIFT" compile --print -t opencl "$prog" > "$d/print.cl" 2>/dev/null
  if cmp -s "$d/print.cl" "$d/$name.cl"; then ok; else bad "$prog: $name.cl differs from compile --print"; fi
  if ! $CC -std=c11 -O1 -Wall -Wextra -Werror -I"$d" -DENTRY="${name}_run" -DRESULT="($result)" -include "$d/$name.h" \
       -o "$d/run" "$T/main.c" "$d/${name}_host.c" -lOpenCL 2>"$d/cc.err"; then
    bad "$prog: the generated host does not build cleanly: $(head -c 1500 "$d/cc.err")"; return
  fi
  ok
  (cd "$d" && ./run "$n" "$seed" "$@" > got.txt 2>run.err) || { bad "$prog: the program failed: $(cat "$d/run.err")"; return; }
  local ins=() i
  for ((i = 1; i <= $#; i++)); do ins+=("@$d/in_$i.txt"); done
  if ! "$CLIFT" run -t interp "$prog" "${ins[@]}" > "$d/want.txt" 2>"$d/err"; then bad "$prog: interp: $(cat "$d/err")"; return; fi
  if same "$prog" "$d/got.txt" "$d/want.txt"; then ok
  else bad "$prog (N=$n, seed $seed): ${name}_run gave $(head -c 300 "$d/got.txt"), interp $(head -c 300 "$d/want.txt")"; fi
}

check tests/lift/dot_wrg.lift dot_wrg $((4096 * (1 + RANDOM % 3))) 'n / 2048' f f
check tests/lift/vector_scale.lift vector_scale $((1024 * (1 + RANDOM % 4))) n f
check examples/dot.lift dot $((1 + RANDOM % 3000)) 1 f f
check tests/lift/dot_vec4_wrg_scalar.lift dot_vec4_wrg_scalar $((32768 * (1 + RANDOM % 2))) 'n / 2048' f f v4
check tests/lift/wrg_toglobal_lcl.lift wrg_toglobal_lcl $((8 * (1 + RANDOM % 50))) n f
check tests/lift/local_dynamic_row.lift local_dynamic_row $((1 + RANDOM % 3000)) n f   # a __local argument sized by the host

# aref out of range: the entry returns 2 (and nothing is compared)
d=$T/aref; mkdir -p "$d"
if "$CLIFT" compile -t opencl -o "$d" tests/lift/err_aref_range.lift 2>"$d/err" &&
   $CC -std=c11 -I"$d" -DENTRY=err_aref_range_run -DRESULT=n -include "$d/err_aref_range.h" -o "$d/run" \
       "$T/main.c" "$d/err_aref_range_host.c" -lOpenCL 2>"$d/cc.err"; then
  got=$(cd "$d" && ./run 5 1 f i:5 2>/dev/null)
  if [ "$got" = "rc 2" ]; then ok; else bad "err_aref_range: expected rc 2, got '$got'"; fi
  got=$(cd "$d" && ./run 5 1 f i:4 2>/dev/null)
  case $got in "rc "*) bad "err_aref_range: in range, got '$got'";; *) ok;; esac
else
  bad "err_aref_range: $(cat "$d/err" "$d/cc.err" 2>/dev/null | head -c 1000)"
fi

summary "opencl library"
