/* testrun.h — `clift test`: test blocks in program comments (SPEC §9). */
#ifndef CLIFT_TESTRUN_H
#define CLIFT_TESTRUN_H
#include "driver.h"
typedef struct TestOptions {
  bool verbose;     /* -v: passing blocks listed too */
  /* --strict: a target's refusal ("not supported on TARGET") fails the block
     unless the file names that target in a ';; refused:' line */
  bool strict;
  GenOptions gen;   /* how every compiled target translates the programs (--peel, …) */
} TestOptions;
int testrun_main(int nfiles, const char **files, const Target **targets, int ntargets, const TestOptions *o);
#endif
