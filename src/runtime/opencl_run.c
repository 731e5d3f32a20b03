/* opencl_run.c — one run of an opencl program (SPEC §6): the device (the
   first GPU, else the first device; opened once per process), one device buffer
   per global program buffer, the plan's kernels launched in order with sizes
   chosen from their loop counts (grid-stride loops make any size correct),
   the result read back. Host-side values use the CPU targets' flat layout. */
#include "opencl.h"
#include "opencl_api.h"
#include "cpu_internal.h"
#include "check_report.h"
#include <stdlib.h>
#include <string.h>

/* The device is process-wide and never released, like the CPU targets' loaded
   objects: clift test runs hundreds of programs, and a context costs ~100 ms. */
typedef struct Device { const OclApi *cl; cl_device_id id; cl_context ctx; cl_command_queue queue; char name[128]; } Device;

static int selected_device = -1;   /* --device; -1: the default choice */

void opencl_select_device(int index) { selected_device = index; }

static Device *device_open(void) {
  static Device dev;
  static bool opened;
  if (opened) return &dev;
  const OclApi *cl = opencl_api_load();
  if (!cl) return NULL;
  cl_platform_id platforms[8];
  cl_uint np = 0;
  if (cl->GetPlatformIDs(8, platforms, &np) != CL_SUCCESS || np == 0) {
    diag_error(LOC_NONE, "no OpenCL platform found (install pocl-opencl-icd)");
    return NULL;
  }
  /* SPEC §6: "PoCL on CPUs, NVIDIA on GPUs": the first GPU of any platform, else the first
     device; --device K picks the K-th device counting over all platforms in order */
  cl_uint nd = 0;
  if (selected_device >= 0) {
    int seen = 0;
    for (cl_uint p = 0; p < np && nd == 0; p++) {
      cl_device_id ids[16];
      cl_uint n = 0;
      if (cl->GetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, ids, &n) != CL_SUCCESS) continue;
      for (cl_uint i = 0; i < n && nd == 0; i++, seen++)
        if (seen == selected_device) { dev.id = ids[i]; nd = 1; }
    }
    if (nd == 0) { diag_error(LOC_NONE, "--device %d: there are only %d OpenCL devices", selected_device, seen); return NULL; }
  }
  for (cl_uint p = 0; p < np && nd == 0; p++)
    if (cl->GetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, &dev.id, &nd) != CL_SUCCESS) nd = 0;
  for (cl_uint p = 0; p < np && nd == 0; p++)
    if (cl->GetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, &dev.id, &nd) != CL_SUCCESS) nd = 0;
  if (nd == 0) { diag_error(LOC_NONE, "no OpenCL device found on %u platform(s)", np); return NULL; }
  cl_int err;
  dev.ctx = cl->CreateContext(NULL, 1, &dev.id, NULL, NULL, &err);
  if (err != CL_SUCCESS) { diag_error(LOC_NONE, "cannot create an OpenCL context: %s", opencl_error_name(err)); return NULL; }
  dev.queue = cl->CreateCommandQueue(dev.ctx, dev.id, CL_QUEUE_PROFILING_ENABLE, &err);   /* events time clift bench */
  if (err != CL_SUCCESS) { diag_error(LOC_NONE, "cannot create an OpenCL queue: %s", opencl_error_name(err)); return NULL; }
  cl->GetDeviceInfo(dev.id, CL_DEVICE_NAME, sizeof dev.name - 1, dev.name, NULL);
  dev.cl = cl;
  opened = true;
  return &dev;
}

bool opencl_available(void) {
  diag_clear();
  bool ok = device_open() != NULL;
  diag_clear();
  return ok;
}

static bool check(cl_int err, const char *what) {
  return err == CL_SUCCESS || diag_error(LOC_NONE, "OpenCL: %s failed: %s", what, opencl_error_name(err));
}

/* 32-bit index arithmetic is safe when every size and buffer is below 2^30
   bytes (as on the cuda target): the kernels are built with CLIFT_INDEX=int. */
enum { INDEX32_LIMIT = 1 << 30 };

/* Kernels the device's compiler rejects are an internal error at `where`,
   the program (SPEC §8), with the build log. */
static cl_program build(Device *d, const char *src, bool index32, Loc where) {
  cl_int err;
  cl_program prog = d->cl->CreateProgramWithSource(d->ctx, 1, &src, NULL, &err);
  if (!check(err, "clCreateProgramWithSource")) return NULL;
  /* float / and sqrt correctly rounded where the device can (as C, CUDA and
     the interpreter): NVIDIA's OpenCL defaults to faster, less exact ones */
  cl_device_fp_config fp = 0;
  d->cl->GetDeviceInfo(d->id, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL);
  const char *options = arena_printf("%s%s", index32 ? "-DCLIFT_INDEX=int " : "",
                                     fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT ? "-cl-fp32-correctly-rounded-divide-sqrt" : "");
  if (d->cl->BuildProgram(prog, 1, &d->id, options, NULL, NULL) == CL_SUCCESS) return prog;
  size_t len = 0;
  d->cl->GetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
  char *log = NEW_ARRAY(char, len + 1);
  d->cl->GetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, len, log, NULL);
  d->cl->ReleaseProgram(prog);
  diag_internal(where, "the OpenCL compiler of %s rejected the generated kernels:\n%.3000s", d->name, log);
  return NULL;
}

/* A device buffer of `bytes` (at least 64: OpenCL refuses empty ones), copied
   from host memory, or zero-filled when host is NULL. */
static cl_mem buffer_new(Device *d, int64_t bytes, const void *host, const char *what) {
  size_t size = bytes > 64 ? (size_t)bytes : 64;
  void *init = host && bytes >= 64 ? NULL : calloc(1, size);   /* a full host buffer is copied as it is */
  if (!init && !(host && bytes >= 64)) {
    diag_error(LOC_NONE, "%s: cannot allocate %lld bytes", what, (long long)bytes);
    return NULL;
  }
  if (init && host) memcpy(init, host, (size_t)bytes);
  cl_int err;
  cl_mem m = d->cl->CreateBuffer(d->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, init ? init : (void *)host, &err);
  free(init);
  if (!check(err, arena_printf("allocating %s (%lld bytes)", what, (long long)bytes))) return NULL;
  return m;
}

typedef struct Run {
  Device *d; Plan *pl; Value **inputs; NatBinding *sizes;
  cl_mem *mems;            /* per k->bufs[i]; NULL for local buffers */
  cl_mem error;            /* one int, set by a failed aref range check */
  cl_long *size_values;
  bool index32;            /* every size and buffer small enough for int indices */
} Run;

static const char *buffer_what(Buffer *b) {
  return b->param_index == 0 && b->is_param ? "the result" : b->is_param ? arena_printf("input %d (%s)", b->param_index, b->name) : b->name;
}

static bool buffers_create(Run *r) {
  Kernel *k = r->pl->k;
  for (int i = 0; i < k->nbufs; i++) {
    Buffer *b = k->bufs[i];
    if (b->space == SPACE_LOCAL || b->base) continue;   /* a split tuple's field: in its base's buffer */
    const char *what = buffer_what(b);
    int64_t bytes;
    if (!cpu_type_supported(b->type, what) || !cpu_type_bytes(b->type, r->sizes, what, &bytes)) return false;
    if (bytes >= INDEX32_LIMIT) r->index32 = false;
    unsigned char *host = NULL;
    Value *in = b->is_param && b->param_index > 0 ? r->inputs[b->param_index - 1] : NULL;
    if (in && cpu_flat_matches(b->type, in, r->sizes)) {   /* already the layout: no packing */
      r->mems[i] = buffer_new(r->d, bytes, in->raw, what);
    } else if (in) {
      if (!(host = calloc(1, bytes > 0 ? (size_t)bytes : 1)))
        return diag_error(LOC_NONE, "%s: cannot allocate %lld bytes", what, (long long)bytes);
      bool ok = cpu_pack(b->type, r->inputs[b->param_index - 1], r->sizes, what, host);
      if (ok) r->mems[i] = buffer_new(r->d, bytes, host, what);
      free(host);
      if (!ok) return false;
    } else {
      r->mems[i] = buffer_new(r->d, bytes, NULL, what);
    }
    if (!r->mems[i]) return false;
  }
  return true;
}

/* Arguments in codegen_opencl's order: buffers, sizes (long), scalar inputs, error cell. */
static bool set_args(Run *r, PlanKernel *pk, cl_kernel kern) {
  Kernel *k = r->pl->k;
  const OclApi *cl = r->d->cl;
  cl_uint a = 0;
  for (int i = 0; i < pk->nbufs; i++, a++)
    if (!check(cl->SetKernelArg(kern, a, sizeof(cl_mem), &r->mems[kernel_buffer_index(k, pk->bufs[i])]), "clSetKernelArg")) return false;
  for (int i = 0; i < k->prog->nsizes; i++, a++)
    if (!check(cl->SetKernelArg(kern, a, sizeof(cl_long), &r->size_values[i]), "clSetKernelArg")) return false;
  for (int i = 0; i < k->nscalars; i++, a++) {
    Type *t = k->scalar_types[i];
    const char *what = arena_printf("input %d (%s)", k->scalar_params[i], k->scalar_names[i]);
    int64_t bytes;
    if (!cpu_type_bytes(t, r->sizes, what, &bytes)) return false;
    unsigned char *v = NEW_ARRAY(unsigned char, (size_t)bytes + 16);
    if (!cpu_pack(t, r->inputs[k->scalar_params[i] - 1], r->sizes, what, v)) return false;
    if (!check(cl->SetKernelArg(kern, a, (size_t)bytes, v), "clSetKernelArg")) return false;
  }
  return check(cl->SetKernelArg(kern, a, sizeof(cl_mem), &r->error), "clSetKernelArg");
}

static bool launch(Run *r, cl_program prog, PlanKernel *pk, cl_event *event) {
  const OclApi *cl = r->d->cl;
  cl_int err;
  cl_kernel kern = cl->CreateKernel(prog, pk->name, &err);
  if (!check(err, arena_printf("clCreateKernel(%s)", pk->name))) return false;
  size_t max_local = 1;
  cl->GetKernelWorkGroupInfo(kern, r->d->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_local, &max_local, NULL);
  size_t local[3], groups[3], global[3];
  int dims = plan_launch_size(pk, cpu_lookup, r->sizes, max_local, local, groups);
  if (dims < 0) { cl->ReleaseKernel(kern); return false; }
  for (int d = 0; d < 3; d++) global[d] = local[d] * groups[d];
  bool ok = set_args(r, pk, kern)
         && check(cl->EnqueueNDRangeKernel(r->d->queue, kern, (cl_uint)dims, NULL, global, local, 0, NULL, event),
                  arena_printf("launching %s", pk->name));
  cl->ReleaseKernel(kern);
  return ok;
}

static Value *read_result(Run *r) {
  Program *p = r->pl->k->prog;
  int32_t cell[CHECK_CELL_INTS] = { 0 };
  if (!check(r->d->cl->EnqueueReadBuffer(r->d->queue, r->error, 1, 0, sizeof cell, cell, 0, NULL, NULL),
             "reading the error cell"))
    return NULL;
  if (!check_report(r->pl->k, cell)) return NULL;
  int64_t bytes;
  if (!cpu_type_bytes(p->result, r->sizes, "the result", &bytes)) return NULL;
  /* read into the arena: a regular array of scalars becomes the result over it */
  unsigned char *host = arena_try_alloc(bytes > 0 ? (size_t)bytes : 1);
  if (!host) { diag_error(LOC_NONE, "the result: cannot allocate %lld bytes", (long long)bytes); return NULL; }
  if (bytes == 0 || check(r->d->cl->EnqueueReadBuffer(r->d->queue, r->mems[0], 1, 0, (size_t)bytes, host, 0, NULL, NULL),
                          "reading the result"))
    return cpu_unpack_in_place(p->result, r->sizes, "the result", host);
  return NULL;
}

Value *opencl_run(Plan *pl, const char *cl_source, Value **inputs, NatBinding *sizes) {
  return opencl_run_timed(pl, cl_source, inputs, sizes, NULL);
}

/* The plan's kernels, in order, then wait for them; with `ms`, the sum of
   the kernels' execution times from their profiling events. */
static bool launch_all(Run *r, cl_program prog, double *ms) {
  const OclApi *cl = r->d->cl;
  cl_event *events = NEW_ARRAY(cl_event, r->pl->n);
  bool ok = true;
  for (int i = 0; i < r->pl->n && ok; i++) ok = launch(r, prog, &r->pl->kernels[i], ms ? &events[i] : NULL);
  ok = ok && check(cl->Finish(r->d->queue), "clFinish");
  if (ms) *ms = 0;
  for (int i = 0; ms && i < r->pl->n; i++) {
    if (!events[i]) continue;
    unsigned long long start = 0, end = 0;
    cl->GetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    cl->GetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    *ms += (double)(end - start) / 1e6;
    cl->ReleaseEvent(events[i]);
  }
  return ok;
}

Value *opencl_run_timed(Plan *pl, const char *cl_source, Value **inputs, NatBinding *sizes, RunTiming *timing) {
  Program *p = pl->k->prog;
  Device *d = device_open();
  if (!d) return NULL;
  Run r = { .d = d, .pl = pl, .inputs = inputs, .sizes = sizes, .mems = NEW_ARRAY(cl_mem, pl->k->nbufs),
            .size_values = NEW_ARRAY(cl_long, p->nsizes), .index32 = true };
  for (int k = 0; k < p->nsizes; k++) {
    long long v;
    if (!cpu_lookup(sizes, p->sizes[k], &v)) { diag_error(LOC_NONE, "size variable %s is not bound", p->sizes[k]->name); return NULL; }
    r.size_values[k] = v;
    if (v >= INDEX32_LIMIT) r.index32 = false;
  }
  for (int i = 0; i < p->nparams; i++)
    if (!inputs[i]) { diag_error(LOC_NONE, "input %d (%s): missing", i + 1, p->params[i].name); return NULL; }
  Value *result = NULL;
  cl_program prog = NULL;
  if (cpu_type_supported(p->result, "the result") && buffers_create(&r)
      && (r.error = buffer_new(d, sizeof(cl_int) * CHECK_CELL_INTS, NULL, "the error cell")) && (prog = build(d, cl_source, r.index32, p->loc))) {
    bool ok = launch_all(&r, prog, NULL);
    for (int k = 0; ok && timing && k < timing->runs; k++) ok = launch_all(&r, prog, &timing->ms[k]);
    if (ok) result = timing && timing->discard_result ? value_bool(true) : read_result(&r);
  }
  d->cl->Finish(d->queue);
  for (int i = 0; i < pl->k->nbufs; i++) if (r.mems[i]) d->cl->ReleaseMemObject(r.mems[i]);
  if (r.error) d->cl->ReleaseMemObject(r.error);
  if (prog) d->cl->ReleaseProgram(prog);
  return result;
}
