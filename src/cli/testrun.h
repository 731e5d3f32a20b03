/* testrun.h — `clift test`: test blocks in program comments (SPEC §9). */
#ifndef CLIFT_TESTRUN_H
#define CLIFT_TESTRUN_H
#include "driver.h"
/* gen: how every compiled target translates the programs (--peel, --no-peel). */
int testrun_main(int nfiles, const char **files, const Target **targets, int ntargets, bool verbose,
                 const GenOptions *gen);
#endif
