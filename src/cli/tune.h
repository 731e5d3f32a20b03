/* tune.h — `clift tune` (issue 14, docs/tuning.md): search the launch sizes,
   the program's tunable sizes and the code-generation flags that are choices
   of schedule (gen_flags.h) on a device target, each candidate checked
   against the interpreter at a small size and timed at the given sizes; the
   best goes to the tuning cache (tune_cache.h). */
#ifndef CLIFT_TUNE_H
#define CLIFT_TUNE_H
#include "driver.h"

typedef struct TuneOptions {
  const Target *target;                /* opencl or cuda */
  int nsizes; const char **sizes;      /* --size N=V: where candidates are timed */
  int ncheck; const char **check;      /* --check-size N=V: where they are checked (default: halved) */
  int runs;                            /* timed runs per candidate (median) */
  int max_tries;                       /* candidates tried at most (a seeded sample beyond) */
  double time_limit;                   /* seconds; 0: none */
  double tolerance;                    /* relative, of the check */
  uint64_t seed;
  bool store;                          /* write the best to the cache */
  int nsearch; const char **search;    /* schedule flags searched, on and off (gen_flags.h; --tune-flags) */
  RunOptions run;                      /* device, translation options */
} TuneOptions;

/* Exit status: 0 a best configuration found (and stored), 1 an error, or a
   candidate that disagreed with the interpreter (a compiler bug: reported). */
int tune_program(const char *path, const TuneOptions *o);

#endif
