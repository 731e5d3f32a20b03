/* fuzz_compile.c — libFuzzer target over the whole compiler but the run:
     parse → normalise → infer types (clift check) → lower → DPIA → code
     generation for every code-generating target (c, openmp, opencl, cuda).
   The input bytes are a program text. Only text is generated: no C or OpenCL
   compiler is invoked and nothing is loaded. A compile error is a fine outcome
   (its report is rendered, as clift prints it); a crash, a sanitizer report, a
   leak or a hang is a finding. tests/fuzz/README.md says how to build and run.

   Every execution starts from the state of a fresh process: the arena and the
   diagnostics' source list are released, the uid and size-variable counters
   restart and the launch-size override (a CLI option, process-wide in
   dpia/plan.c) is cleared, so that an input found here reproduces alone. */
#include "cli/driver.h"
#include "dpia/plan.h"
#include "syntax/ast.h"
#include "arith/nat.h"
#include <stdint.h>
#include <string.h>

static const char *targets[] = { "c", "openmp", "opencl", "cuda" };

static void reset_process_state(void) {
  static const size_t none[3] = { 0, 0, 0 };
  arena_free_all();
  diag_reset();
  ast_reset_uids();
  nat_reset_var_ids();
  plan_set_launch_override(none, none);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  reset_process_state();
  char *text = arena_strndup((const char *)data, size);   /* NUL-terminated */
  Program *p = driver_compile_text("fuzz.lift", text);
  if (!p) {
    (void)diag_render();   /* the file:line:col report and its source line */
  } else {
    (void)driver_program_type(p);   /* what `clift check` prints */
    Buf b = {0};
    ast_print(&b, p->body);        /* `clift check --dump` */
    for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
      diag_clear();
      if (!driver_generate(p, targets[i])) (void)diag_render();
    }
  }
  reset_process_state();   /* nothing stays allocated between executions */
  return 0;
}
