/* stages.h — the compiled targets' first stages, as the driver runs them
   (cli/driver.c): strategy lowering, then DPIA translation. */
#ifndef CLIFT_TEST_STAGES_H
#define CLIFT_TEST_STAGES_H
#include "lower/lower.h"
#include "dpia/kernel.h"

static inline Kernel *dpia_translate_lowered(Program *p) {
  Program *lowered = lower_program(p);
  return lowered ? dpia_translate(lowered) : NULL;
}

#endif
