/* stages.h — the compiled targets' first stages, as the driver runs them
   (cli/driver.c): strategy lowering, then DPIA translation. */
#ifndef CLIFT_TEST_STAGES_H
#define CLIFT_TEST_STAGES_H
#include "lower/lower.h"
#include "dpia/kernel.h"
#include "dpia/plan.h"
#include "cli/driver.h"
#include "codegen/codegen.h"
#include <string.h>

static inline Kernel *dpia_translate_lowered(Program *p) {
  Program *lowered = lower_program(p, LOWER_CHUNK_DEVICE);
  return lowered ? dpia_translate(lowered, NULL) : NULL;
}

/* The OpenCL kernels of a program text (from the first "/\* k0", as the
   driver generates them), or "(no kernel: why)". */
static inline const char *opencl_kernels_of(const char *text) {
  diag_reset();
  Program *p = driver_compile_text("t.lift", text);
  Kernel *k = p ? dpia_translate_lowered(p) : NULL;
  Plan *plan = k ? plan_build(k) : NULL;
  const char *cl = plan ? codegen_opencl(plan) : NULL;
  if (!cl) return arena_printf("(no kernel: %s)", diag_message());
  const char *s = strstr(cl, "/* k0");
  return s ? s : cl;
}

#endif
