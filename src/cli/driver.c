/* driver.c — the pipeline (SPEC §1):
     parse → normalise (`o`, saturation, eta) → infer types → [inputs]
     → lower strategy → DPIA translation → host plan (device targets)
     → code generation → run,
   and the table of targets, one row each, that every command indexes. */
#include "driver.h"
#include "../types/infer.h"
#include "../lower/lower.h"
#include "../codegen/codegen.h"
#include "../codegen/library.h"
#include "../runtime/cpu.h"
#include "../runtime/device.h"
#include "../runtime/opencl.h"
#include "../runtime/cuda.h"
#include <string.h>

Program *driver_compile_tuned(const char *path, const char *text, const TuneValues *set) {
  Program *p = parse_program(path, text, set);
  if (!p || !normalize_program(p) || !infer_program(p)) return NULL;
  return p;
}

Program *driver_compile_text(const char *path, const char *text) { return driver_compile_tuned(path, text, NULL); }

Program *driver_compile(const char *path) {
  char *text = util_read_file(path, NULL);
  return text ? driver_compile_text(path, text) : NULL;
}

const char *driver_program_type(Program *p) {
  Buf b = {0};
  buf_putc(&b, '(');
  for (int i = 0, n = 0; i < p->nsizes; i++)   /* the declared sizes (a value size is the checker's) */
    if (program_size_param(p, i) < 0) buf_printf(&b, "%s%s", n++ ? " " : "", p->sizes[i]->name);
  buf_puts(&b, ") ");
  for (int i = 0; i < p->nparams; i++) buf_printf(&b, "%s -> ", type_to_string(p->params[i].type));
  buf_puts(&b, type_to_string(p->result));
  return buf_str(&b);
}

/* ---- the targets ---- */

static bool always(void) { return true; }

static const char *emit_c(Compiled *c) { return codegen_c(c->kernel, false); }
static const char *emit_openmp(Compiled *c) { return codegen_c(c->kernel, true); }

static Value *run_interp(Compiled *c, Value **inputs, NatBinding *sizes, const RunOptions *o) {
  Value *r = interp_run(c->prog, inputs, sizes);
  for (int k = 0; r && o->timing && k < o->timing->runs; k++) {
    double t0 = timing_now_ms();
    r = interp_run(c->prog, inputs, sizes);
    o->timing->ms[k] = timing_now_ms() - t0;
  }
  return r;
}

static Value *run_c(Compiled *c, Value **inputs, NatBinding *sizes, const RunOptions *o) {
  return cpu_run_timed(c->src, c->prog, c->kernel, inputs, sizes, false, o->timing);
}

static Value *run_openmp(Compiled *c, Value **inputs, NatBinding *sizes, const RunOptions *o) {
  return cpu_run_timed(c->src, c->prog, c->kernel, inputs, sizes, true, o->timing);
}

static bool write_cpu(Compiled *c, const char *dir, const char *name) {
  return library_write_c(c->src, c->prog, dir, name);
}

static Value *run_opencl(Compiled *c, Value **inputs, NatBinding *sizes, const RunOptions *o) {
  return device_run(&opencl_device, c->plan, c->src, inputs, sizes, o);
}

static Value *run_cuda(Compiled *c, Value **inputs, NatBinding *sizes, const RunOptions *o) {
  return device_run(&cuda_device, c->plan, c->src, inputs, sizes, o);
}

static bool write_opencl(Compiled *c, const char *dir, const char *name) { return library_write_opencl(c->plan, c->src, dir, name, c->tuned); }
static bool write_cuda(Compiled *c, const char *dir, const char *name) { return library_write_cuda(c->plan, c->src, dir, name, c->tuned); }
static const char *emit_opencl(Compiled *c) { return codegen_opencl(c->plan); }
static const char *emit_cuda(Compiled *c) { return codegen_cuda(c->plan); }

static const Target targets[] = {
  { .name = "interp", .summary = "the reference interpreter",
    .available = always, .run = run_interp },
  { .name = "c", .summary = "sequential C, built with the system C compiler",
    .available = always, .emit = emit_c, .run = run_c, .write_library = write_cpu },
  { .name = "openmp", .summary = "C with OpenMP, built with the system C compiler (the default)",
    .available = always, .emit = emit_openmp, .run = run_openmp, .write_library = write_cpu },
  { .name = "opencl", .summary = "OpenCL C kernels (PoCL on CPUs, the vendor's platform on GPUs)", .device = true, .dynamic_locals = true, .api = &opencl_device,
    .available = opencl_available, .emit = emit_opencl, .run = run_opencl, .write_library = write_opencl },
  { .name = "cuda", .summary = "CUDA C++ kernels compiled with NVRTC, run on the CUDA driver", .device = true, .warp_shuffle = true, .dynamic_locals = true, .last_group = true, .api = &cuda_device,
    .available = cuda_available, .emit = emit_cuda, .run = run_cuda, .write_library = write_cuda },
};
enum { NTARGETS = sizeof targets / sizeof *targets };

const Target *driver_target_at(int i) { return i >= 0 && i < NTARGETS ? &targets[i] : NULL; }

const char *driver_target_names(void) {
  Buf b = {0};
  for (int i = 0; i < NTARGETS; i++) buf_printf(&b, "%s%s", i ? ", " : "", targets[i].name);
  return buf_str(&b);
}

/* SPEC §8: a target falls back only when the user asked for `auto`: the first
   of cuda, opencl, openmp that can run here. */
const Target *driver_target(const char *name) {
  static const char *auto_order[] = { "cuda", "opencl", "openmp" };
  bool is_auto = strcmp(name, "auto") == 0;
  for (int a = 0; a < (is_auto ? 3 : 1); a++)
    for (int i = 0; i < NTARGETS; i++)
      if (strcmp(targets[i].name, is_auto ? auto_order[a] : name) == 0 && (!is_auto || targets[i].available()))
        return &targets[i];
  return NULL;
}

/* ---- the stages ---- */

Compiled *driver_generate(Program *p, const Target *t, const GenOptions *g) {
  Compiled *c = NEW(Compiled);
  c->target = t;
  c->prog = p;
  if (!t->emit) return c;                                        /* interp runs the typed program */
  Loc was = diag_context(p->loc);   /* a refusal without a place of its own: the program's */
  GenOptions gen = g ? *g : (GenOptions){ .peel = PEEL_AUTO };
  gen.single_pass = t->device && !gen.no_single_pass;   /* dpia/lookback.c */
  gen.privatise = t->device && !gen.no_privatise;   /* dpia/privatise.c: a work-group's accumulators in registers */
  gen.warp_shuffle = t->warp_shuffle;
  gen.device = t->device;   /* dpia/peel.c: the device cost rule */
  bool ok = (c->lowered = lower_program(p, t->device ? LOWER_CHUNK_DEVICE : LOWER_CHUNK_CPU))   /* lower strategy (a re-typed copy) */
         && (c->kernel = dpia_translate(c->lowered, &gen))             /* DPIA: acceptors and continuations */
         && (!t->device || (c->kernel->dynamic_locals = t->dynamic_locals, c->kernel->last_group = t->last_group, c->plan = plan_build(c->kernel)))   /* host plan: kernels and launches */
         && (c->src = t->emit(c));                               /* C, OpenCL C or CUDA C++ */
  diag_context(was);
  if (ok) return c;
  diag_name_target(t->name);   /* a refusal: "not supported on TARGET: why" */
  return NULL;
}

Value *driver_run(Program *p, const Target *t, Value **inputs, NatBinding *sizes, const RunOptions *o) {
  GenOptions gen = o->gen;
  /* a given work-group size: any must be correct, so no pinned work-group (privatise.c) */
  gen.local_size_given |= o->launch.local[0] || o->launch.local[1] || o->launch.local[2];
  gen.no_privatise |= gen.local_size_given;
  gen.global_size_given |= o->launch.global[0] || o->launch.global[1] || o->launch.global[2];
  /* an OpenCL device that is not a GPU (PoCL): no GPU cost rule for peeling
     (dpia/peel.c). The device is opened once per process and kept; a failure
     here is left for the run to report. */
  if (t->api && strcmp(t->name, "opencl") == 0) {
    void *dev = t->api->open(o);
    DeviceInfo info;
    if (dev) t->api->describe(dev, &info);
    else diag_clear();
    gen.cpu_device = dev && !info.gpu;
  }
  Compiled *c = driver_generate(p, t, &gen);
  Loc was = diag_context(p->loc);   /* a layout the run refuses (layout.c): the program's place */
  Value *r = c ? t->run(c, inputs, sizes, o) : NULL;
  diag_context(was);
  if (!r) diag_name_target(t->name);
  return r;
}

void driver_reset_process_state(void) {
  arena_free_all();
  diag_reset();
  ast_reset_uids();
  nat_reset_var_ids();
}
