/* cuda_device.c — the CUDA implementation of the device interface (device.h)
   that plan_run.c runs host plans on: device 0 in its primary context,
   kernels compiled with NVRTC for its architecture, buffers, launches on the
   default stream, events for clift bench. */
#include "cuda.h"
#include "cuda_api.h"
#include "device.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Process-wide and never released, like the OpenCL device: clift test runs
   hundreds of programs. */
typedef struct Device {
  const CudaApi *cu; CUdevice id; CUcontext ctx;
  char name[128], arch[16];        /* "NVIDIA H100 80GB HBM3", "sm_90" */
  int max_grid_y, max_block_z;
  CUevent start, stop;             /* around the timed launches since the last finish */
  bool timing;
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

static void *open_device(const RunOptions *o) {
  (void)o;   /* --device is an OpenCL option; cuda runs on device 0 */
  Device *d = device_open();
  return d && check(d->cu->CtxSetCurrent(d->ctx), "cuCtxSetCurrent") ? d : NULL;
}

static void *build(void *dev, const char *src, bool index32, Loc where) {
  Device *d = dev;
  CUmodule mod = cuda_module_load(d->cu, index32 ? arena_printf("#define CLIFT_INDEX int\n%s", src) : src, d->arch, where);
  return mod;
}

/* Modules stay in cuda_module_load's cache (a rerun of the same kernels skips NVRTC). */
static void unload(void *dev, void *module) { (void)dev; (void)module; }

/* cuMemAlloc refuses 0 bytes: at least 64. */
static bool alloc(void *dev, int64_t bytes, const void *host, int64_t clear_from, const char *what, DevMem *out) {
  Device *d = dev;
  size_t size = bytes > 64 ? (size_t)bytes : 64;
  CUdeviceptr m = 0;
  if (!check(d->cu->MemAlloc(&m, size), arena_printf("allocating %s (%lld bytes)", what, (long long)bytes))) return false;
  *out = m;
  if (host) return check(d->cu->MemcpyHtoD(m, host, (size_t)bytes), arena_printf("copying %s", what));
  return check(d->cu->MemsetD8(m + (size_t)clear_from, 0, size - (size_t)clear_from), arena_printf("clearing %s", what));
}

static bool download(void *dev, DevMem m, size_t offset, void *host, size_t bytes, const char *what) {
  return check(((Device *)dev)->cu->MemcpyDtoH(host, m + offset, bytes), arena_printf("reading %s", what));
}

static void free_mem(void *dev, DevMem m) { ((Device *)dev)->cu->MemFree(m); }

static void *kernel(void *dev, void *module, const char *name, size_t *max_local) {
  Device *d = dev;
  CUfunction f;
  int max_threads = 1;
  if (!check(d->cu->ModuleGetFunction(&f, module, name), arena_printf("cuModuleGetFunction(%s)", name))
      || !check(d->cu->FuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f), "cuFuncGetAttribute"))
    return NULL;
  *max_local = (size_t)max_threads;
  return f;
}

/* A launch with `bytes` of dynamic shared memory: beyond 48 KiB a kernel must
   opt in (cuFuncSetAttribute); beyond the device's opt-in limit, less the
   kernel's static shared memory, a clear error rather than a failed launch. */
static bool dynamic_shared(Device *d, void *kern, const char *name, size_t bytes) {
  int most = 0, fixed = 0;
  if (!check(d->cu->DeviceGetAttribute(&most, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, d->id), "cuDeviceGetAttribute")
      || !check(d->cu->FuncGetAttribute(&fixed, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kern), "cuFuncGetAttribute"))
    return false;
  if (bytes + (size_t)fixed > (size_t)most)
    return diag_error(LOC_NONE, "kernel %s needs %zu bytes of local memory a work-group; %s has %d", name,
                      bytes + (size_t)fixed, d->name, most);
  return bytes <= 48 * 1024 ||
         check(d->cu->FuncSetAttribute(kern, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)bytes), "cuFuncSetAttribute");
}

static bool launch(void *dev, void *kern, const char *name, int dims, size_t local[3], size_t groups[3],
                   int nargs, const DevArg *args, bool timed) {
  (void)dims;
  Device *d = dev;
  const CudaApi *cu = d->cu;
  if (timed && !d->timing) {
    if (!d->start && (!check(cu->EventCreate(&d->start, 0), "cuEventCreate") || !check(cu->EventCreate(&d->stop, 0), "cuEventCreate")))
      return false;
    if (!check(cu->EventRecord(d->start, NULL), "cuEventRecord")) return false;
    d->timing = true;
  }
  /* the device's limits on y/z (x is 2^31-1): fewer blocks or threads only
     means more trips round the grid-stride loops */
  for (int k = 1; k < 3; k++) if (groups[k] > (size_t)d->max_grid_y) groups[k] = (size_t)d->max_grid_y;
  if (local[2] > (size_t)d->max_block_z) local[2] = (size_t)d->max_block_z;
  void **params = NEW_ARRAY(void *, nargs);   /* cuLaunchKernel takes a pointer to each argument */
  int np = 0;
  size_t shared = 0;   /* local memory sized at launch: the dynamic shared memory, 16-byte pieces (cuda_print.c) */
  for (int a = 0; a < nargs; a++)
    if (args[a].local) shared += (args[a].size + 15) / 16 * 16;
    else params[np++] = (void *)args[a].value;
  if (shared > 0 && !dynamic_shared(d, kern, name, shared)) return false;
  return check(cu->LaunchKernel(kern, (unsigned)groups[0], (unsigned)groups[1], (unsigned)groups[2],
                                (unsigned)local[0], (unsigned)local[1], (unsigned)local[2], (unsigned)shared, NULL, params, NULL),
               arena_printf("launching %s", name));
}

static void release_kernel(void *dev, void *kern) { (void)dev; (void)kern; }   /* functions belong to the module */

/* Wait; the device time between events recorded around the timed launches. */
static bool finish(void *dev, double *ms) {
  Device *d = dev;
  const CudaApi *cu = d->cu;
  bool ok = true;
  if (ms) *ms = 0;
  if (d->timing) {
    float elapsed = 0;
    ok = check(cu->EventRecord(d->stop, NULL), "cuEventRecord") && check(cu->EventSynchronize(d->stop), "running the kernels")
         && check(cu->EventElapsedTime(&elapsed, d->start, d->stop), "cuEventElapsedTime");
    if (ms) *ms = elapsed;
    d->timing = false;
  }
  return check(cu->CtxSynchronize(), "running the kernels") && ok;
}

/* The SMs times the blocks of `local` threads one SM keeps resident (the
   kernel's registers and static shared memory): a grid of that many blocks
   is one wave. */
static size_t resident(void *dev, void *kern, size_t local) {
  Device *d = dev;
  int sms = 0, blocks = 0;
  if (d->cu->DeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d->id) != CUDA_SUCCESS
      || d->cu->OccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kern, (int)local, 0) != CUDA_SUCCESS || sms < 1 || blocks < 1)
    return 0;
  return (size_t)sms * (size_t)blocks;
}

/* For the tuning cache: the device's name, the driver's version, the SMs. */
static void describe(void *dev, DeviceInfo *out) {
  Device *d = dev;
  int version = 0, sms = 0;
  *out = (DeviceInfo){ .compute_units = 1, .gpu = true };
  snprintf(out->name, sizeof out->name, "%s", d->name);
  if (d->cu->DriverGetVersion(&version) == CUDA_SUCCESS)
    snprintf(out->driver, sizeof out->driver, "CUDA %d.%d", version / 1000, version % 1000 / 10);
  if (d->cu->DeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d->id) == CUDA_SUCCESS && sms > 0)
    out->compute_units = sms;
}

const DeviceApi cuda_device = {
  .name = "CUDA", .open = open_device, .build = build, .unload = unload, .alloc = alloc,
  .download = download, .free = free_mem, .kernel = kernel, .launch = launch,
  .release_kernel = release_kernel, .resident = resident, .finish = finish, .describe = describe,
};
