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

#endif
