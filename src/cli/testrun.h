/* testrun.h — `clift test`: test blocks in program comments (SPEC §9). */
#ifndef CLIFT_TESTRUN_H
#define CLIFT_TESTRUN_H
#include "driver.h"
int testrun_main(int nfiles, const char **files, const Target **targets, int ntargets, bool verbose);
#endif
