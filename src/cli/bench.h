/* bench.h — `clift bench`. */
#ifndef CLIFT_BENCH_H
#define CLIFT_BENCH_H
#include "../syntax/ast.h"

typedef struct BenchOptions {
  const char *target;
  int nsizes; const char **sizes;   /* "N=1024" */
  int runs;
  bool check;                       /* compare with interp first */
  double tolerance;
  uint64_t seed;
} BenchOptions;

bool bench_program(Program *p, BenchOptions *o);

#endif
