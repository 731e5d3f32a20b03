/* cuda_run.c — one run of a cuda program (SPEC §6), as opencl_run.c: device 0
   in its primary context (opened once per process), one device buffer per
   global program buffer, the plan's kernels launched in order with sizes
   chosen from their loop counts (grid-stride loops make any size correct), the
   result and the aref error cell read back. Host-side values use the CPU
   targets' flat layout, which is also the device layout. */
#include "cuda.h"
#include "cuda_api.h"
#include "cpu_internal.h"
#include "check_report.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Process-wide and never released, like the OpenCL device: clift test runs
   hundreds of programs. */
typedef struct Device {
  const CudaApi *cu; CUdevice id; CUcontext ctx;
  char name[128], arch[16];        /* "NVIDIA H100 80GB HBM3", "sm_90" */
  int max_grid_y, max_block_z;
} Device;

static bool check(CUresult rc, const char *what) {
  return rc == CUDA_SUCCESS || diag_error(LOC_NONE, "CUDA: %s failed: %s", what, cuda_error_name(rc));
}

static Device *device_open(void) {
  static Device dev;
  static bool opened;
  if (opened) return &dev;
  const CudaApi *cu = cuda_api_load();
  if (!cu) return NULL;
  CUresult rc = cu->Init(0);
  if (rc != CUDA_SUCCESS) { diag_error(LOC_NONE, "no CUDA device (cuInit failed: %s)", cuda_error_name(rc)); return NULL; }
  int n = 0;
  if (cu->DeviceGetCount(&n) != CUDA_SUCCESS || n == 0) { diag_error(LOC_NONE, "no CUDA device (the driver reports none)"); return NULL; }
  int major = 0, minor = 0;
  if (!check(cu->DeviceGet(&dev.id, 0), "cuDeviceGet")
      || !check(cu->DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev.id), "cuDeviceGetAttribute")
      || !check(cu->DeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev.id), "cuDeviceGetAttribute")
      || !check(cu->DeviceGetAttribute(&dev.max_grid_y, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, dev.id), "cuDeviceGetAttribute")
      || !check(cu->DeviceGetAttribute(&dev.max_block_z, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, dev.id), "cuDeviceGetAttribute")
      || !check(cu->DevicePrimaryCtxRetain(&dev.ctx, dev.id), "cuDevicePrimaryCtxRetain"))
    return NULL;
  cu->DeviceGetName(dev.name, sizeof dev.name - 1, dev.id);
  snprintf(dev.arch, sizeof dev.arch, "sm_%d%d", major, minor);
  dev.cu = cu;
  opened = true;
  return &dev;
}

bool cuda_available(void) {
  diag_clear();
  bool ok = device_open() != NULL;
  diag_clear();
  return ok;
}

/* A device buffer of `bytes` (at least 64: cuMemAlloc refuses 0), copied from
   host memory, or zero-filled when host is NULL. */
static bool buffer_new(Device *d, int64_t bytes, const void *host, const char *what, CUdeviceptr *out) {
  size_t size = bytes > 64 ? (size_t)bytes : 64;
  if (!check(d->cu->MemAlloc(out, size), arena_printf("allocating %s (%lld bytes)", what, (long long)bytes))) {
    *out = 0;
    return false;
  }
  if (host) return check(d->cu->MemcpyHtoD(*out, host, (size_t)bytes), arena_printf("copying %s", what));
  return check(d->cu->MemsetD8(*out, 0, size), arena_printf("clearing %s", what));
}

typedef struct Run {
  Device *d; Plan *pl; Value **inputs; NatBinding *sizes;
  CUdeviceptr *mems;       /* per k->bufs[i]; 0 for local buffers */
  CUdeviceptr error;       /* the error cell: CHECK_CELL_INTS ints (dpia/kernel.h) */
  long long *size_values;
  bool index32;            /* every size and buffer small enough for int indices */
} Run;

static const char *buffer_what(Buffer *b) {
  return b->param_index == 0 && b->is_param ? "the result" : b->is_param ? arena_printf("input %d (%s)", b->param_index, b->name) : b->name;
}

/* 32-bit index arithmetic is safe when every size and every buffer is below
   2^31 bytes: flattened indices never exceed a buffer's element count, and the
   canonical index expressions stay within a small multiple of it. */
enum { INDEX32_LIMIT = 1 << 30 };

static bool buffers_create(Run *r) {
  Kernel *k = r->pl->k;
  for (int i = 0; i < k->nbufs; i++) {
    Buffer *b = k->bufs[i];
    if (b->space == SPACE_LOCAL || b->base) continue;   /* a split tuple's field: in its base's buffer */
    const char *what = buffer_what(b);
    int64_t bytes;
    if (!cpu_type_supported(b->type, what) || !cpu_type_bytes(b->type, r->sizes, what, &bytes)) return false;
    if (bytes >= INDEX32_LIMIT) r->index32 = false;
    if (!(b->is_param && b->param_index > 0)) {
      if (!buffer_new(r->d, bytes, NULL, what, &r->mems[i])) return false;
      continue;
    }
    unsigned char *host = calloc(1, bytes > 0 ? (size_t)bytes : 1);
    if (!host) return diag_error(LOC_NONE, "%s: cannot allocate %lld bytes", what, (long long)bytes);
    bool ok = cpu_pack(b->type, r->inputs[b->param_index - 1], r->sizes, what, host)
              && buffer_new(r->d, bytes, host, what, &r->mems[i]);
    free(host);
    if (!ok) return false;
  }
  return true;
}

/* Parameters in codegen_cuda's order: buffers, sizes (long long), scalar
   inputs, the error cell; cuLaunchKernel takes a pointer to each. */
static void **kernel_params(Run *r, PlanKernel *pk) {
  Kernel *k = r->pl->k;
  void **params = NEW_ARRAY(void *, pk->nbufs + k->prog->nsizes + k->nscalars + 1);
  int a = 0;
  for (int i = 0; i < pk->nbufs; i++) params[a++] = &r->mems[kernel_buffer_index(k, pk->bufs[i])];
  for (int i = 0; i < k->prog->nsizes; i++) params[a++] = &r->size_values[i];
  for (int i = 0; i < k->nscalars; i++) {
    Type *t = k->scalar_types[i];
    const char *what = arena_printf("input %d (%s)", k->scalar_params[i], k->scalar_names[i]);
    int64_t bytes;
    if (!cpu_type_bytes(t, r->sizes, what, &bytes)) return NULL;
    unsigned char *v = NEW_ARRAY(unsigned char, (size_t)bytes + 16);
    if (!cpu_pack(t, r->inputs[k->scalar_params[i] - 1], r->sizes, what, v)) return NULL;
    params[a++] = v;
  }
  params[a] = &r->error;
  return params;
}

static bool launch(Run *r, CUmodule mod, PlanKernel *pk) {
  const CudaApi *cu = r->d->cu;
  CUfunction f;
  if (!check(cu->ModuleGetFunction(&f, mod, pk->name), arena_printf("cuModuleGetFunction(%s)", pk->name))) return false;
  int max_threads = 1;
  if (!check(cu->FuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f), "cuFuncGetAttribute")) return false;
  size_t local[3], groups[3];
  if (plan_launch_size(pk, cpu_lookup, r->sizes, (size_t)max_threads, local, groups) < 0) return false;
  /* the device's limits on y/z (x is 2^31-1): fewer blocks or threads only
     means more trips round the grid-stride loops */
  for (int d = 1; d < 3; d++) if (groups[d] > (size_t)r->d->max_grid_y) groups[d] = (size_t)r->d->max_grid_y;
  if (local[2] > (size_t)r->d->max_block_z) local[2] = (size_t)r->d->max_block_z;
  void **params = kernel_params(r, pk);
  return params && check(cu->LaunchKernel(f, (unsigned)groups[0], (unsigned)groups[1], (unsigned)groups[2],
                                          (unsigned)local[0], (unsigned)local[1], (unsigned)local[2], 0, NULL, params, NULL),
                         arena_printf("launching %s", pk->name));
}

static Value *read_result(Run *r) {
  Program *p = r->pl->k->prog;
  int32_t cell[CHECK_CELL_INTS] = { 0 };
  if (!check(r->d->cu->MemcpyDtoH(cell, r->error, sizeof cell), "reading the error cell")) return NULL;
  if (!check_report(r->pl->k, cell)) return NULL;
  int64_t bytes;
  if (!cpu_type_bytes(p->result, r->sizes, "the result", &bytes)) return NULL;
  unsigned char *host = calloc(1, bytes > 0 ? (size_t)bytes : 1);
  if (!host) { diag_error(LOC_NONE, "the result: cannot allocate %lld bytes", (long long)bytes); return NULL; }
  Value *v = NULL;
  if (bytes == 0 || check(r->d->cu->MemcpyDtoH(host, r->mems[0], (size_t)bytes), "reading the result"))
    v = cpu_unpack(p->result, r->sizes, "the result", host);
  free(host);
  return v;
}

/* The plan's kernels in order on the default stream, then wait for them;
   with `ms`, the device time between events recorded around the launches. */
static bool launch_all(Run *r, CUmodule mod, double *ms) {
  const CudaApi *cu = r->d->cu;
  CUevent ev[2] = { NULL, NULL };
  bool ok = !ms || (check(cu->EventCreate(&ev[0], 0), "cuEventCreate") && check(cu->EventCreate(&ev[1], 0), "cuEventCreate")
                    && check(cu->EventRecord(ev[0], NULL), "cuEventRecord"));
  for (int i = 0; i < r->pl->n && ok; i++) ok = launch(r, mod, &r->pl->kernels[i]);
  if (ok && ms) {
    float elapsed = 0;
    ok = check(cu->EventRecord(ev[1], NULL), "cuEventRecord") && check(cu->EventSynchronize(ev[1]), "running the kernels")
         && check(cu->EventElapsedTime(&elapsed, ev[0], ev[1]), "cuEventElapsedTime");
    *ms = elapsed;
  }
  for (int i = 0; i < 2; i++) if (ev[i]) cu->EventDestroy(ev[i]);
  return ok && check(cu->CtxSynchronize(), "running the kernels");
}

Value *cuda_run(Plan *pl, const char *cu_source, Value **inputs, NatBinding *sizes) {
  return cuda_run_timed(pl, cu_source, inputs, sizes, NULL);
}

Value *cuda_run_timed(Plan *pl, const char *cu_source, Value **inputs, NatBinding *sizes, RunTiming *timing) {
  Program *p = pl->k->prog;
  Device *d = device_open();
  if (!d || !check(d->cu->CtxSetCurrent(d->ctx), "cuCtxSetCurrent")) return NULL;
  Run r = { .d = d, .pl = pl, .inputs = inputs, .sizes = sizes, .mems = NEW_ARRAY(CUdeviceptr, pl->k->nbufs),
            .size_values = NEW_ARRAY(long long, p->nsizes ? p->nsizes : 1), .index32 = true };
  for (int k = 0; k < p->nsizes; k++) {
    if (!cpu_lookup(sizes, p->sizes[k], &r.size_values[k])) {
      diag_error(LOC_NONE, "size variable %s is not bound", p->sizes[k]->name);
      return NULL;
    }
    if (r.size_values[k] >= INDEX32_LIMIT) r.index32 = false;
  }
  for (int i = 0; i < p->nparams; i++)
    if (!inputs[i]) { diag_error(LOC_NONE, "input %d (%s): missing", i + 1, p->params[i].name); return NULL; }
  Value *result = NULL;
  CUmodule mod = NULL;
  if (cpu_type_supported(p->result, "the result") && buffers_create(&r)
      && buffer_new(d, sizeof(int) * CHECK_CELL_INTS, NULL, "the error cell", &r.error) && (mod = cuda_module_load(d->cu, r.index32 ? arena_printf("#define CLIFT_INDEX int\n%s", cu_source) : cu_source, d->arch, p->loc))) {
    bool ok = launch_all(&r, mod, NULL);
    for (int k = 0; ok && timing && k < timing->runs; k++) ok = launch_all(&r, mod, &timing->ms[k]);
    if (ok) result = timing && timing->discard_result ? value_bool(true) : read_result(&r);
  }
  d->cu->CtxSynchronize();
  for (int i = 0; i < pl->k->nbufs; i++) if (r.mems[i]) d->cu->MemFree(r.mems[i]);
  if (r.error) d->cu->MemFree(r.error);
  return result;
}
