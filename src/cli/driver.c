/* driver.c — the pipeline:
     parse → normalise (`o`, saturation, eta) → infer types → [inputs] → run. */
#include "driver.h"
#include "../types/infer.h"
#include "../lower/lower.h"
#include "../codegen/codegen.h"
#include "../runtime/cpu.h"
#include "../runtime/opencl.h"
#include "../runtime/cuda.h"
#include "../dpia/plan.h"
#include <string.h>

Program *driver_compile_text(const char *path, const char *text) {
  Program *p = parse_program(path, text);
  if (!p || !normalize_program(p) || !infer_program(p)) return NULL;
  return p;
}

Program *driver_compile(const char *path) {
  char *text = util_read_file(path, NULL);
  return text ? driver_compile_text(path, text) : NULL;
}

const char *driver_program_type(Program *p) {
  Buf b = {0};
  buf_putc(&b, '(');
  for (int i = 0; i < p->nsizes; i++) buf_printf(&b, "%s%s", i ? " " : "", p->sizes[i]->name);
  buf_puts(&b, ") ");
  for (int i = 0; i < p->nparams; i++) buf_printf(&b, "%s -> ", type_to_string(p->params[i].type));
  buf_puts(&b, type_to_string(p->result));
  return buf_str(&b);
}

static const char *targets[] = { "interp", "c", "openmp", "opencl", "cuda", NULL };

bool driver_target_known(const char *target) {
  for (int i = 0; targets[i]; i++) if (strcmp(targets[i], target) == 0) return true;
  return false;
}

/* A known target that can run here: opencl needs an OpenCL platform, cuda a CUDA device. */
/* SPEC §8: a target falls back only when the user asked for `auto`: the first of
   cuda, opencl, openmp that can run here. */
const char *driver_resolve_target(const char *target) {
  if (strcmp(target, "auto") != 0) return target;
  if (driver_target_available("cuda")) return "cuda";
  if (driver_target_available("opencl")) return "opencl";
  return "openmp";
}

bool driver_target_available(const char *target) {
  if (strcmp(target, "opencl") == 0) return opencl_available();
  if (strcmp(target, "cuda") == 0) return cuda_available();
  return driver_target_known(target);
}

static bool is_device(const char *target) { return strcmp(target, "opencl") == 0 || strcmp(target, "cuda") == 0; }

/* typed AST → lower strategy + DPIA stages I–III (dpia_translate) → kernel
   → [host plan (device targets) →] C / OpenCL C / CUDA text. *plan_out gets
   the plan of a device target. */
static const char *generate(Program *p, const char *target, Plan **plan_out, Kernel **kernel_out) {
  Kernel *k = dpia_translate(p, target);
  if (!k) return NULL;
  if (kernel_out) *kernel_out = k;
  if (!is_device(target)) return codegen_c(k, strcmp(target, "openmp") == 0);
  Plan *plan = plan_build(k, target);
  if (plan_out) *plan_out = plan;
  return !plan ? NULL : strcmp(target, "cuda") == 0 ? codegen_cuda(plan) : codegen_opencl(plan);
}

const char *driver_generate(Program *p, const char *target) { return generate(p, target, NULL, NULL); }

Value *driver_run(Program *p, const char *target, Value **inputs, NatBinding *sizes) {
  return driver_run_timed(p, target, inputs, sizes, NULL);
}

static Value *interp_timed(Program *p, Value **inputs, NatBinding *sizes, RunTiming *timing) {
  Value *r = interp_run(p, inputs, sizes);
  for (int k = 0; r && timing && k < timing->runs; k++) {
    double t0 = timing_now_ms();
    r = interp_run(p, inputs, sizes);
    timing->ms[k] = timing_now_ms() - t0;
  }
  return r;
}

Value *driver_run_timed(Program *p, const char *target, Value **inputs, NatBinding *sizes, RunTiming *timing) {
  if (strcmp(target, "interp") == 0) return interp_timed(p, inputs, sizes, timing);
  if (!driver_target_known(target)) {
    diag_error(LOC_NONE, "unknown target '%s' (available: interp, c, openmp, opencl, cuda)", target);
    return NULL;
  }
  Plan *plan = NULL;
  Kernel *k = NULL;
  const char *src = generate(p, target, &plan, &k);
  if (src && strcmp(target, "opencl") == 0) return opencl_run_timed(plan, src, inputs, sizes, timing);
  if (src && strcmp(target, "cuda") == 0) return cuda_run_timed(plan, src, inputs, sizes, timing);
  return src ? cpu_run_timed(src, p, k, inputs, sizes, strcmp(target, "openmp") == 0, timing) : NULL;
}
