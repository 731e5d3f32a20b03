/* device.h — the one plan executor of the device targets and the small
   interface it runs on. plan_run.c does everything a run of a host plan needs
   (inputs packed into the flat layout, one device buffer per global program
   buffer, the kernels launched in order with sizes from their loop counts and
   the user's RunOptions, the error cell and the result read back, timing);
   a GPU API implements only the calls below: OpenCL in opencl_device.c, CUDA
   in cuda_device.c. */
#ifndef CLIFT_DEVICE_H
#define CLIFT_DEVICE_H
#include "../layout/layout.h"
#include "options.h"

typedef uint64_t DevMem;       /* a device buffer: a cl_mem or a CUdeviceptr */

/* One kernel argument: `size` bytes at `value`; a buffer's value is a DevMem;
   vec3: a 3-lane vector (12 bytes here; OpenCL's float3 argument is 16);
   local: `size` bytes of a work-group's local memory, no value (OpenCL's __local
   pointer argument; PlanKernel.local_dynamic). */
typedef struct DevArg { size_t size; const void *value; bool buffer, vec3, local; } DevArg;

/* What identifies a device for the tuning cache (clift tune), and its size;
   gpu: a GPU (OpenCL's device type; CUDA's always): peel.c's cost rule is a GPU's. */
typedef struct DeviceInfo { char name[128], driver[64]; int compute_units; bool gpu; } DeviceInfo;

typedef struct DeviceApi {
  const char *name;            /* "OpenCL", "CUDA": in messages */
  /* The device the options ask for, opened once per process and kept (a
     context costs ~100 ms and `clift test` runs hundreds of programs). */
  void *(*open)(const RunOptions *o);
  /* The kernels of `src` compiled; a rejection is an internal error at `where`
     (SPEC §8) with the compiler's log. index32: every size and buffer is below
     2^30 bytes, so the kernels may use int indices (CLIFT_INDEX). */
  void *(*build)(void *dev, const char *src, bool index32, Loc where);
  void (*unload)(void *dev, void *module);
  /* A buffer of `bytes` (at least 64), copied from `host`, or when it is NULL
     zeroed from byte `clear_from` on (a result of dynamic length clears only its
     lengths: its upper bound may be far larger than what it keeps, F34). */
  bool (*alloc)(void *dev, int64_t bytes, const void *host, int64_t clear_from, const char *what, DevMem *out);
  /* `bytes` of buffer m from byte `offset` into host. */
  bool (*download)(void *dev, DevMem m, size_t offset, void *host, size_t bytes, const char *what);
  void (*free)(void *dev, DevMem m);
  /* The kernel `name` of a module and the largest work-group it can run. */
  void *(*kernel)(void *dev, void *module, const char *name, size_t *max_local);
  /* Launch (queued, in order); `timed`: counted by the next finish. */
  bool (*launch)(void *dev, void *kernel, const char *name, int dims, size_t local[3], size_t groups[3],
                 int nargs, const DevArg *args, bool timed);
  void (*release_kernel)(void *dev, void *kernel);
  /* How many work-groups of `local` work-items the device runs at once (CUDA:
     its SMs times the kernel's occupancy; OpenCL: an estimate from its compute
     units), 0 when unknown; NULL: never known (PlanKernel.resident_waves). */
  size_t (*resident)(void *dev, void *kernel, size_t local);
  /* The module holds each PlanKernel.version_local's fixed-size body as a kernel
     of its own, NAME_vSIZE, launched for work-groups of SIZE × 1 × 1 (opencl) */
  bool version_kernels;
  /* Wait for everything queued; *ms (when not NULL): the device time of the
     timed launches since the last finish. */
  bool (*finish)(void *dev, double *ms);
  void (*describe)(void *dev, DeviceInfo *out);
} DeviceApi;

extern const DeviceApi opencl_device, cuda_device;

/* The device the options select, described; false + diag when it cannot be opened. */
static inline bool device_describe(const DeviceApi *api, const RunOptions *o, DeviceInfo *out) {
  void *dev = api->open(o);
  if (dev) api->describe(dev, out);
  return dev != NULL;
}

/* Build `src` (the plan's kernels) on the device, run the plan on the inputs,
   read the result back; o->timing: timing->runs more timed runs of the plan.
   NULL + diag on error. */
Value *device_run(const DeviceApi *api, Plan *pl, const char *src, Value **inputs, NatBinding *sizes,
                  const RunOptions *o);

#endif
