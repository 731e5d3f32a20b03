#!/usr/bin/env bash
# filter_lib_test.sh — a result of dynamic length through `clift compile`
# (SPEC §3.4, §6): the generated library writes the kept elements at the
# start of buffers[0] and the run-time length at the offset its header
# documents (layout_lens_offset: the data's bytes rounded up to 64). A C main
# calls NAME_run on fresh random inputs and prints the first `length`
# elements (where the header's NAME_result_lengths says the lengths are);
# they must be what `clift run -t interp` prints. c (sequential
# compaction of a row per element of the result: filter_rows) and opencl (the
# parallel filter's kernels and the host reading the length back: filter_top).
# Usage: filter_lib_test.sh path/to/clift    Prints "N passed, N failed".
source "$(dirname "$0")/../lib.sh" "$@"
CC=${CC:-cc}

# argv: N M seed threshold; inputs N*M random floats in [-1, 1) and the threshold.
# ROWS rows of length M (1 row: a {∃X.[float]X} of upper bound N*M).
cat > "$T/main.c" <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
int main(int argc, char **argv) {
  long long n = atoll(argv[1]), m = atoll(argv[2]);
  unsigned long long s = strtoull(argv[3], NULL, 10);
  float t = (float)atof(argv[4]);
  long long sizes[2] = { n, m }, total = ROWS > 1 ? n * m : n;
  float *xs = malloc(sizeof(float) * (size_t)total);
  FILE *f = fopen("xs.txt", "w");
  fputs(ROWS > 1 ? "[[" : "[", f);
  for (long long i = 0; i < total; i++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    xs[i] = (float)((int)((s >> 33) % 64) - 32) / 32.0f;
    fprintf(f, "%s%.9g", i == 0 ? "" : ROWS > 1 && i % m == 0 ? "], [" : ", ", xs[i]);
  }
  fputs(ROWS > 1 ? "]]\n" : "]\n", f);
  fclose(f);
  size_t data = sizeof(float) * (size_t)total, off = (data + 63) / 64 * 64;
  unsigned char *out = calloc(off + sizeof(int32_t) * (size_t)(ROWS > 1 ? n : 1), 1);
  void *buffers[3] = { out, xs, &t };
  if (RUN) { printf("rc\n"); return 0; }
  const int32_t *len = LENGTHS(buffers, sizes);
  if ((const unsigned char *)len != out + off) { printf("lengths at %td, expected %zu\n", (const unsigned char *)len - out, off); return 0; }
  float *el = (float *)out;
  printf(ROWS > 1 ? "[" : "");
  for (long long r = 0; r < (ROWS > 1 ? n : 1); r++) {
    printf("%s[", r ? ", " : "");
    for (int32_t j = 0; j < len[r]; j++) printf("%s%.9g", j ? ", " : "", el[r * (ROWS > 1 ? m : 0) + j]);
    printf("]");
  }
  printf(ROWS > 1 ? "]\n" : "\n");
  return 0;
}
EOF2

# check TARGET PROG NAME ROWS N M: build the library and the main, run, compare with interp
check() {
  local target=$1 prog=$2 name=$3 rows=$4 n=$5 m=$6 d=$T/$1 seed=$RANDOM$RANDOM libs= run
  mkdir -p "$d"
  if ! "$CLIFT" compile -t "$target" -o "$d" "$prog" 2>"$d/err"; then bad "$prog: compile -t $target: $(cat "$d/err")"; return; fi
  case $target in
    opencl) libs="$d/${name}_host.c -lOpenCL"; run="${name}_run(buffers, sizes)" ;;
    *) libs="$d/$name.c"; run="(${name}_run(buffers, sizes), ${name}_error[0])" ;;
  esac
  if ! $CC -std=c11 -O1 -I"$d" -DROWS="$rows" -DRUN="$run" -DLENGTHS="${name}_result_lengths" -include "$d/$name.h" -o "$d/run" "$T/main.c" $libs 2>"$d/cc.err"; then
    bad "$prog ($target): the library does not build: $(head -c 1000 "$d/cc.err")"; return
  fi
  local t; t=$(awk -v r="$RANDOM" 'BEGIN { printf "%.3f", r / 16384 - 1 }')
  (cd "$d" && ./run "$n" "$m" "$seed" "$t" > got.txt 2>run.err) || { bad "$prog ($target): the program failed: $(cat "$d/run.err")"; return; }
  if ! "$CLIFT" run -t interp "$prog" "@$d/xs.txt" "$t" > "$d/want.txt" 2>"$d/err"; then bad "$prog: interp: $(cat "$d/err")"; return; fi
  if [ "$(tr -d ' ' < "$d/got.txt")" = "$(tr -d ' ' < "$d/want.txt")" ]; then ok
  else bad "$prog ($target, N=$n M=$m seed $seed t=$t): got $(head -c 300 "$d/got.txt"), interp $(head -c 300 "$d/want.txt")"; fi
}

check c tests/lift/filter_rows.lift filter_rows 2 $((2 + RANDOM % 20)) $((1 + RANDOM % 40))
check openmp tests/lift/filter_top.lift filter_top 1 $((1 + RANDOM % 5000)) 1
if "$CLIFT" test --list-targets | grep -qx opencl; then
  check opencl tests/lift/filter_top.lift filter_top 1 $((1 + RANDOM % 5000)) 1
  check opencl tests/lift/filter_rows.lift filter_rows 2 $((2 + RANDOM % 20)) $((1 + RANDOM % 40))
else
  echo "filter library: opencl skipped: no OpenCL platform"
fi
summary "filter library"
