#!/usr/bin/env bash
# dynamic_locals_cuda.sh — branch cuda-dynamic-locals (eleventh session): local memory
# sized at launch on cuda (one extern __shared__ array, each local a pointer at its
# offset; the launch's dynamic shared memory the sum; beyond 48 KiB the kernel opts in
# with cuFuncSetAttribute). Never run on a GPU when written. Checks, on one GPU:
#   1. tests/lift/local_dynamic*.lift on cuda against the interpreter (clift test);
#   2. rows of 20,000 floats (80 KB: the opt-in beyond 48 KiB) and of 100,000 (400 KB:
#      the clear error "needs … bytes of local memory a work-group"), against interp;
#   3. compute-sanitizer memcheck and racecheck of local_dynamic.lift at 3 × 700;
#   4. the library (clift compile -t cuda -o) of local_dynamic_row.lift built with nvcc
#      and run on 1,500 elements against the interpreter;
#   5. the differential tester's wrg groups on cuda and opencl (DIFF_S seconds).
# Usage (device): bash bench/gpu/dynamic_locals_cuda.sh
cd "$(dirname "$0")/../.." || exit 1
O=${OUT:-/tmp/dlc}; mkdir -p "$O"
make -s -j16 >&2 || { echo "build failed"; exit 1; }
C=build/clift
echo "1. $($C test -t cuda,opencl tests/lift/local_dynamic.lift tests/lift/local_dynamic_row.lift 2>&1 | tail -n 1)"
for m in 20000 100000; do
  python3 -c "import random; random.seed($m); print('[' + ', '.join('[' + ', '.join(str(random.randint(-8, 8) / 4) for _ in range($m)) + ']' for _ in range(3)) + ']')" > "$O/in_$m.txt"
  want=$($C run -t interp tests/lift/local_dynamic.lift @"$O/in_$m.txt" 2>&1 | md5sum)
  got=$($C run -t cuda tests/lift/local_dynamic.lift @"$O/in_$m.txt" 2>&1); rc=$?
  echo "2. rows of $m: exit $rc, $( [ "$(echo "$got" | md5sum)" = "$want" ] && echo "equal to interp" || echo "differs: $(echo "$got" | head -c 200)")"
done
python3 -c "import random; random.seed(7); print('[' + ', '.join('[' + ', '.join(str(random.randint(-8, 8) / 4) for _ in range(700)) + ']' for _ in range(3)) + ']')" > "$O/in_s.txt"
for tool in memcheck racecheck; do
  echo "3. $tool: $(compute-sanitizer --tool $tool $C run -t cuda tests/lift/local_dynamic.lift @"$O/in_s.txt" 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -n 1)"
done
L=$(mktemp -d)
$C compile -t cuda -o "$L" tests/lift/local_dynamic_row.lift && cat > "$L/main.cu" <<'CU'
#include <cstdio>
#include <cstdlib>
#include "local_dynamic_row.h"
int main() {
  long long n = 1500;
  float *in = (float *)malloc(sizeof(float) * n), *out = (float *)calloc(n, sizeof(float));
  FILE *f = fopen("in.txt", "w"); fputs("[", f);
  for (long long i = 0; i < n; i++) { in[i] = (float)((i * 7919) % 17 - 8) / 4; fprintf(f, "%s%g", i ? ", " : "", in[i]); }
  fputs("]\n", f); fclose(f);
  void *buffers[2] = { out, in };
  int rc = local_dynamic_row_run(buffers, &n);
  if (rc) { printf("rc %d\n", rc); return 0; }
  printf("["); for (long long i = 0; i < n; i++) printf("%s%g", i ? ", " : "", out[i]); printf("]\n");
}
CU
( cd "$L" && nvcc -O2 -o run main.cu local_dynamic_row_host.cu > nvcc.log 2>&1 && ./run > got.txt ) || echo "4. library: build or run failed: $(tail -c 300 "$L/nvcc.log")"
[ -f "$L/in.txt" ] && echo "4. library: $( [ "$($C run -t interp tests/lift/local_dynamic_row.lift @"$L/in.txt" | tr -d ' ')" = "$(tr -d ' ' < "$L/got.txt")" ] && echo "equal to interp" || echo "differs: $(head -c 200 "$L/got.txt")")"
python3 tests/difftest/difftest.py --seeds 4320000000:4330000000 --clift $C --targets c,opencl,cuda --only wrg,wrg_reduce \
  --jobs 12 --batch 16 --budget "${DIFF_S:-120}" --keep "$O/keep" > "$O/diff.txt" 2>&1
echo "5. $(grep -E '^per target|passed' "$O/diff.txt" | tr '\n' ' ')"
grep -A4 'refusals:' "$O/diff.txt" | head -n 6
