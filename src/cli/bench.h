/* bench.h — `clift bench`. */
#ifndef CLIFT_BENCH_H
#define CLIFT_BENCH_H
#include "driver.h"

typedef struct BenchOptions {
  const Target *target;
  int nsizes; const char **sizes;   /* "N=1024" */
  int runs;
  bool check;                       /* compare with interp first */
  double tolerance;
  uint64_t seed;
  RunOptions run;                   /* launch sizes, device; timing is bench's own */
} BenchOptions;

bool bench_program(Program *p, BenchOptions *o);

/* The --size NAME=VALUE options bound to the program's size variables (each
   must be given, each must name one); false + diag otherwise. */
bool bench_bind_sizes(Program *p, int nsizes, const char **given, NatBinding **out);
/* "N=4096 M=512": the bound sizes in the program's order. */
const char *bench_sizes_text(Program *p, NatBinding *sizes);
/* The timed runs in increasing order: median t->ms[runs / 2], min [0], max [runs - 1]. */
void bench_sort_times(RunTiming *t);
/* Fresh random inputs of the program's parameter types at these sizes;
   trees: as value trees too (what the interpreter reads). NULL + diag. */
Value **bench_random_inputs(Program *p, NatBinding **sizes, uint64_t *seed, bool trees);   /* binds value sizes */

/* --check, for every front end: the target's result against the
   interpreter's within the relative tolerance, "check: T agrees with interp"
   printed; false + diag ("check failed: …") otherwise. */
bool bench_check_result(const Target *t, Value *got, Value *want, double tolerance);
/* The result line, for every front end: "bench FILE -t T[ WHAT]: median M ms
   (min A, max B) over K runs", the times sorted first. */
void bench_report(const char *file, const Target *t, const char *what, RunTiming *timing);

#endif
