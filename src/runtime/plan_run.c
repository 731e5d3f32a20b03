/* plan_run.c — one run of a host plan on a device (SPEC §6), for every GPU API
   (device.h): one device buffer per global program buffer, the plan's kernels
   launched in order with sizes chosen from their loop counts (grid-stride
   loops make any size correct) and the user's launch sizes, then the aref/
   division error cell and the result read back. Host-side values use the CPU
   targets' flat layout, which is also the device layout. */
#include "device.h"
#include "cpu_internal.h"
#include "check_report.h"
#include <stdlib.h>

/* 32-bit index arithmetic is safe when every size and every buffer is below
   2^30 bytes: flattened indices never exceed a buffer's element count, and the
   canonical index expressions stay within a small multiple of it. */
enum { INDEX32_LIMIT = 1 << 30 };

/* A plan kernel's device handle and the largest work-group it can run;
   `fixed` is its fixed-size version (DeviceApi.version_kernels) when the
   device builds one. Made once per run, released with the module. */
typedef struct KernelHandle {
  void *kern, *fixed;
  size_t max_local, fixed_max;
  bool fixed_tried;
} KernelHandle;

typedef struct Run {
  const DeviceApi *api; void *dev; const RunOptions *o;
  Plan *pl; Value **inputs; NatBinding *sizes;
  NatBinding *bound;       /* the host loops' variables, then the sizes */
  DevMem *mems;            /* per k->bufs[i]; 0 for local buffers and split tuple fields */
  DevMem error;            /* the error cell: CHECK_CELL_INTS ints (dpia/kernel.h) */
  long long *size_values;
  bool index32;            /* every size and buffer small enough for int indices */
  KernelHandle *kernels;   /* per plan kernel, made at its first launch */
} Run;

static const char *buffer_what(Buffer *b) {
  return b->param_index == 0 && b->is_param ? "the result" : b->is_param ? arena_printf("input %d (%s)", b->param_index, b->name) : b->name;
}

/* An input's buffer: its flat value as it is when it already has the layout,
   else packed into a temporary host copy. */
static bool input_buffer(Run *r, Buffer *b, int64_t bytes, const char *what, DevMem *out) {
  Value *in = r->inputs[b->param_index - 1];
  if (layout_flat_matches(b->type, in, r->sizes)) return r->api->alloc(r->dev, bytes, in->raw, 0, what, out);
  unsigned char *host = calloc(1, bytes > 0 ? (size_t)bytes : 1);
  if (!host) return diag_error(LOC_NONE, "%s: cannot allocate %lld bytes", what, (long long)bytes);
  bool ok = layout_pack(b->type, in, r->sizes, what, host) && r->api->alloc(r->dev, bytes, host, 0, what, out);
  free(host);
  return ok;
}

static bool buffers_create(Run *r) {
  Kernel *k = r->pl->k;
  for (int i = 0; i < k->nbufs; i++) {
    Buffer *b = k->bufs[i];
    if (b->space == SPACE_LOCAL || b->base) continue;   /* a split tuple's field: in its base's buffer */
    const char *what = buffer_what(b);
    /* the result's buffer holds its lengths too when they are dynamic (layout.h) */
    Type *t = b->is_param && b->param_index == 0 ? k->prog->result : b->type;
    int64_t bytes, clear_from = 0;   /* a dynamic-length result clears its lengths only (F34) */
    if (!layout_type_supported(t, what) || !layout_type_bytes(t, r->sizes, what, &bytes)
        || (type_has_exists(t) && !layout_lens_offset(t, r->sizes, what, &clear_from)))
      return false;
    if (bytes >= INDEX32_LIMIT) r->index32 = false;
    bool ok = b->is_param && b->param_index > 0 ? input_buffer(r, b, bytes, what, &r->mems[i])
                                                : r->api->alloc(r->dev, bytes, NULL, clear_from, what, &r->mems[i]);
    if (!ok) return false;
  }
  return true;
}

/* Arguments in the kernel printers' order (codegen_opencl, codegen_cuda):
   buffers, sizes (64-bit), scalar inputs, the error cell, the local memory
   sized at launch (PlanKernel.local_dynamic; at least 16 bytes: OpenCL
   refuses an empty one). */
static DevArg *kernel_args(Run *r, PlanKernel *pk, int *nargs) {
  Kernel *k = r->pl->k;
  DevArg *args = NEW_ARRAY(DevArg, pk->nbufs + k->prog->nsizes + pk->nvars + k->nscalars + 1 + pk->nlocals);
  int a = 0;
  for (int i = 0; i < pk->nbufs; i++)
    args[a++] = (DevArg){ .size = sizeof(DevMem), .value = &r->mems[kernel_buffer_index(k, pk->bufs[i])], .buffer = true };
  for (int i = 0; i < k->prog->nsizes; i++)   /* the sizes it takes (PlanKernel.sizes_used) */
    if (plan_kernel_takes_size(pk, i)) args[a++] = (DevArg){ .size = sizeof(long long), .value = &r->size_values[i] };
  for (int i = 0; i < pk->nvars; i++) {   /* the host loops' variables and counts it takes */
    if (!plan_kernel_takes_size(pk, k->prog->nsizes + i)) continue;
    long long *v = NEW(long long);
    if (!layout_lookup(r->bound, pk->vars[i], v)) { diag_internal(LOC_NONE, "host loop variable %s is not bound", pk->vars[i]->name); return NULL; }
    args[a++] = (DevArg){ .size = sizeof(long long), .value = v };
  }
  for (int i = 0; i < k->nscalars; i++) {
    Type *t = k->scalar_types[i];
    const char *what = arena_printf("input %d (%s)", k->scalar_params[i], k->scalar_names[i]);
    int64_t bytes;
    if (!layout_type_bytes(t, r->sizes, what, &bytes)) return NULL;
    unsigned char *v = NEW_ARRAY(unsigned char, (size_t)bytes + 16);
    if (!layout_pack(t, r->inputs[k->scalar_params[i] - 1], r->sizes, what, v)) return NULL;
    args[a++] = (DevArg){ .size = (size_t)bytes, .value = v, .vec3 = t->kind == TY_VECTOR && t->width == 3 };
  }
  args[a++] = (DevArg){ .size = sizeof(DevMem), .value = &r->error, .buffer = true };
  for (int i = 0; i < pk->nlocals; i++) {
    long long count;
    if (!pk->local_dynamic[i]) continue;
    if (!nat_eval(pk->local_counts[i], layout_lookup, r->bound, &count))
      return diag_internal(LOC_NONE, "the size of local memory %s cannot be evaluated", pk->locals[i]->name), NULL;
    if (count > (long long)(SIZE_MAX / 2) / pk->local_dynamic[i])
      return diag_error(LOC_NONE, "kernel %s: local memory %s of %lld elements is too large", pk->name, pk->locals[i]->name, count), NULL;
    size_t bytes = (size_t)(count > 0 ? count : 0) * (size_t)pk->local_dynamic[i];
    args[a++] = (DevArg){ .size = bytes > 16 ? bytes : 16, .local = true };
  }
  *nargs = a;
  return args;
}

static KernelHandle *kernel_handle(Run *r, void *module, PlanKernel *pk) {
  KernelHandle *h = &r->kernels[pk - r->pl->kernels];
  if (!h->kern) h->kern = r->api->kernel(r->dev, module, pk->name, &h->max_local);
  return h->kern ? h : NULL;
}

/* The fixed-size version of a kernel when the launch's work-group is its size. */
static void *kernel_version(Run *r, void *module, PlanKernel *pk, KernelHandle *h, int dims, const size_t local[3]) {
  if (dims < 1 || !r->api->version_kernels || !pk->version_local || local[0] != (size_t)pk->version_local
      || (dims >= 2 && local[1] != 1) || (dims >= 3 && local[2] != 1))
    return NULL;   /* DeviceApi.version_kernels */
  if (!h->fixed_tried) {
    h->fixed_tried = true;
    h->fixed = r->api->kernel(r->dev, module, arena_printf("%s_v%lld", pk->name, pk->version_local), &h->fixed_max);
  }
  return h->fixed && h->fixed_max >= local[0] ? h->fixed : NULL;
}

static bool launch(Run *r, void *module, PlanKernel *pk, bool timed) {
  size_t local[3], groups[3];
  KernelHandle *h = kernel_handle(r, module, pk);
  if (!h) return false;
  int nargs = 0, dims = plan_launch_size(pk, layout_lookup, r->bound, h->max_local, &r->o->launch, local, groups);
  /* the kernel launched: its fixed-size version where there is one (whose
     registers the residency depends on, opencl_device.c) */
  void *fixed = kernel_version(r, module, pk, h, dims, local);
  if (dims == 1 && pk->resident_waves > 0 && r->api->resident && !r->o->launch.global[0]) {
    size_t most = r->api->resident(r->dev, fixed ? fixed : h->kern, local[0]) * (size_t)pk->resident_waves;
    if (most > 0 && groups[0] > most) groups[0] = most;   /* PlanKernel.resident_waves */
  }
  DevArg *args = dims < 0 ? NULL : kernel_args(r, pk, &nargs);
  return args && r->api->launch(r->dev, fixed ? fixed : h->kern, pk->name, dims, local, groups, nargs, args, timed);
}

static void kernels_release(Run *r) {
  for (int i = 0; i < r->pl->n; i++) {
    if (r->kernels[i].kern) r->api->release_kernel(r->dev, r->kernels[i].kern);
    if (r->kernels[i].fixed) r->api->release_kernel(r->dev, r->kernels[i].fixed);
  }
}

static bool run_steps(Run *r, void *module, PlanStep *steps, int n, bool timed);

/* A host loop: its variable bound to 0, 1, … around its steps. */
static bool run_loop(Run *r, void *module, PlanStep *s, bool timed) {
  long long count;
  if (!nat_eval(s->loop->count, layout_lookup, r->bound, &count))
    return diag_internal(LOC_NONE, "the count of host loop %s cannot be evaluated", s->loop->var->name);
  NatBinding it = { s->loop->var, 0, r->bound };
  r->bound = &it;
  bool ok = true;
  for (it.value = 0; ok && it.value < count; it.value++) ok = run_steps(r, module, s->steps, s->n, timed);
  r->bound = it.next;
  return ok;
}

/* A count a kernel wrote into its cell, read back and bound (never below 0)
   until the end of the steps it was read in. */
static bool read_count(Run *r, PlanStep *s) {
  int32_t v = 0;
  if (!r->api->download(r->dev, r->mems[kernel_buffer_index(r->pl->k, s->cell)], 0, &v, sizeof v, "an iterate count"))
    return false;
  NatBinding *b = NEW(NatBinding);
  *b = (NatBinding){ s->var, v > 0 ? v : 0, r->bound };
  r->bound = b;
  return true;
}

/* Steps in order: launches, counts read back, and host loops binding their
   variable around their own steps. */
static bool run_steps(Run *r, void *module, PlanStep *steps, int n, bool timed) {
  NatBinding *entry = r->bound;
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    PlanStep *s = &steps[i];
    if (s->kind == STEP_LAUNCH) ok = launch(r, module, &r->pl->kernels[s->kernel], timed);
    else if (s->kind == STEP_COUNT) ok = read_count(r, s);
    else ok = run_loop(r, module, s, timed);
  }
  r->bound = entry;
  return ok;
}

/* The plan, then wait for it; with `ms`, its device time. */
static bool launch_all(Run *r, void *module, double *ms) {
  bool ok = run_steps(r, module, r->pl->steps, r->pl->nsteps, ms != NULL);
  return r->api->finish(r->dev, ms) && ok;
}

static Value *read_result(Run *r) {
  Program *p = r->pl->k->prog;
  int32_t cell[CHECK_CELL_INTS] = { 0 };
  if (!r->api->download(r->dev, r->error, 0, cell, sizeof cell, "the error cell") || !check_report(r->pl->k, cell)) return NULL;
  int64_t bytes, lens = 0;
  if (!layout_type_bytes(p->result, r->sizes, "the result", &bytes)) return NULL;
  /* read into the arena: a regular array of scalars becomes the result over it */
  unsigned char *host = arena_try_alloc(bytes > 0 ? (size_t)bytes : 1);
  if (!host) { diag_error(LOC_NONE, "the result: cannot allocate %lld bytes", (long long)bytes); return NULL; }
  /* a result of dynamic length: its lengths first, then only the bytes it keeps (F34) */
  if (type_has_exists(p->result)
      && (!layout_lens_offset(p->result, r->sizes, "the result", &lens)
          || !r->api->download(r->dev, r->mems[0], (size_t)lens, host + lens, (size_t)(bytes - lens), "the result's lengths")
          || !layout_kept_bytes(p->result, r->sizes, "the result", host, &bytes)))
    return NULL;
  if (bytes > 0 && !r->api->download(r->dev, r->mems[0], 0, host, (size_t)bytes, "the result")) return NULL;
  return layout_unpack_in_place(p->result, r->sizes, "the result", host);
}

static bool bind_sizes(Run *r) {
  Program *p = r->pl->k->prog;
  for (int k = 0; k < p->nsizes; k++) {
    if (!layout_lookup(r->sizes, p->sizes[k], &r->size_values[k]))
      return diag_error(LOC_NONE, "size variable %s is not bound", p->sizes[k]->name);
    if (r->size_values[k] >= INDEX32_LIMIT) r->index32 = false;
  }
  for (int i = 0; i < p->nparams; i++)
    if (!r->inputs[i]) return diag_error(LOC_NONE, "input %d (%s): missing", i + 1, p->params[i].name);
  return true;
}

Value *device_run(const DeviceApi *api, Plan *pl, const char *src, Value **inputs, NatBinding *sizes,
                  const RunOptions *o) {
  Program *p = pl->k->prog;
  void *dev = api->open(o);
  if (!dev) return NULL;
  Run r = { .api = api, .dev = dev, .o = o, .pl = pl, .inputs = inputs, .sizes = sizes, .bound = sizes,
            .mems = NEW_ARRAY(DevMem, pl->k->nbufs), .size_values = NEW_ARRAY(long long, p->nsizes), .index32 = true,
            .kernels = NEW_ARRAY(KernelHandle, pl->n) };
  Value *result = NULL;
  void *module = NULL;
  RunTiming *timing = o->timing;
  if (bind_sizes(&r) && layout_type_supported(p->result, "the result") && buffers_create(&r)
      && api->alloc(dev, sizeof(int32_t) * CHECK_CELL_INTS, NULL, 0, "the error cell", &r.error)
      && (module = api->build(dev, src, r.index32, p->loc))) {
    bool ok = launch_all(&r, module, NULL);
    for (int k = 0; ok && timing && k < timing->runs; k++) ok = launch_all(&r, module, &timing->ms[k]);
    if (ok) result = timing && timing->discard_result ? value_bool(true) : read_result(&r);
  }
  if (!result) api->finish(dev, NULL);   /* drain what an error left queued before freeing */
  for (int i = 0; i < pl->k->nbufs; i++) if (r.mems[i]) api->free(dev, r.mems[i]);
  if (r.error) api->free(dev, r.error);
  kernels_release(&r);
  if (module) api->unload(dev, module);
  return result;
}
