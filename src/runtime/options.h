/* options.h — how to run a compiled program, parsed once by the command line
   and passed down as data (never process globals: `clift test` runs many
   programs in one process, and each run gets exactly the options it is given). */
#ifndef CLIFT_OPTIONS_H
#define CLIFT_OPTIONS_H
#include "../dpia/plan.h"
#include "timing.h"

typedef struct RunOptions {
  LaunchSizes launch;    /* --local-size / --global-size (opencl, cuda); zeros: the defaults */
  int device;            /* --device K (opencl): the K-th device over all platforms; -1: the default */
  RunTiming *timing;     /* clift bench: timed repetitions after the first run; NULL: one run */
  GenOptions gen;        /* how the program is translated (--peel, --no-peel) */
} RunOptions;

/* No launch sizes, the default device, one run. */
static inline RunOptions run_options_default(void) { return (RunOptions){ .device = -1 }; }

#endif
