/* cuda_api.c — the CUDA driver API and NVRTC entry points, looked up at run
   time (as opencl_api.c does for OpenCL): clift has no link dependency on
   CUDA, and a machine without a GPU gets a clear error (or, for `clift test`,
   no cuda target) instead of a loader failure at start-up. */
#include "cuda_api.h"
#include "../util/util.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* The outcome of one library's loading, process-wide (not the arena: it
   outlives every compilation). */
typedef struct Loaded { int state; char why[240]; } Loaded;   /* state: 0 not tried, 1 ok, -1 failed */

/* Open the first library of `libs` that loads, then fill `slots` from `names`;
   a name "a|b" tries a, then b (versioned symbols: cuMemAlloc_v2 is what the
   headers' cuMemAlloc means). */
static bool load(Loaded *l, const char *const *libs, const char *const *names, size_t n, void **slots,
                 const char *missing) {
  if (l->state) return l->state == 1 || diag_error(LOC_NONE, "%s", l->why);
  void *h = NULL;
  for (int i = 0; libs[i] && !h; i++) h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    l->state = -1;
    snprintf(l->why, sizeof l->why, "%s", missing);
    return diag_error(LOC_NONE, "%s", l->why);
  }
  for (size_t i = 0; i < n; i++) {
    char alt[64];
    snprintf(alt, sizeof alt, "%s", names[i]);
    slots[i] = NULL;
    for (char *a = strtok(alt, "|"); a && !slots[i]; a = strtok(NULL, "|")) slots[i] = dlsym(h, a);
    if (!slots[i]) {
      l->state = -1;
      snprintf(l->why, sizeof l->why, "%s: %s has no %s", missing, libs[0], names[i]);
      return diag_error(LOC_NONE, "%s", l->why);
    }
  }
  l->state = 1;
  return true;
}

const CudaApi *cuda_api_load(void) {
  static CudaApi api;
  static Loaded loaded;
  static const char *const libs[] = { "libcuda.so.1", "libcuda.so", NULL };
  static const char *const names[] = { "cuInit", "cuDeviceGetCount", "cuDeviceGet", "cuDeviceGetName",
    "cuDeviceGetAttribute", "cuDevicePrimaryCtxRetain", "cuCtxSetCurrent", "cuCtxSynchronize",
    "cuMemAlloc_v2", "cuMemFree_v2", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2", "cuMemsetD8_v2",
    "cuModuleLoadData", "cuModuleUnload", "cuModuleGetFunction", "cuFuncGetAttribute", "cuLaunchKernel",
    "cuEventCreate", "cuEventRecord", "cuEventSynchronize", "cuEventElapsedTime_v2|cuEventElapsedTime",
    "cuEventDestroy_v2", "cuGetErrorName", "cuDriverGetVersion",
    "cuOccupancyMaxActiveBlocksPerMultiprocessor", "cuFuncSetAttribute" };
  _Static_assert(sizeof(CudaApi) == sizeof names / sizeof names[0] * sizeof(void *), "one name per entry point");
  return load(&loaded, libs, names, sizeof names / sizeof names[0], (void **)&api,
              "no CUDA device (libcuda.so.1 not found: no NVIDIA driver on this machine)") ? &api : NULL;
}

const NvrtcApi *nvrtc_api_load(void) {
  static NvrtcApi api;
  static Loaded loaded;
  static const char *const libs[] = { "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
    "/usr/local/cuda/lib64/libnvrtc.so", "/usr/local/cuda/lib/libnvrtc.so", NULL };
  static const char *const names[] = { "nvrtcVersion", "nvrtcCreateProgram", "nvrtcCompileProgram",
    "nvrtcGetProgramLogSize", "nvrtcGetProgramLog", "nvrtcGetPTXSize", "nvrtcGetPTX", "nvrtcGetCUBINSize",
    "nvrtcGetCUBIN", "nvrtcDestroyProgram", "nvrtcGetErrorString" };
  _Static_assert(sizeof(NvrtcApi) == sizeof names / sizeof names[0] * sizeof(void *), "one name per entry point");
  return load(&loaded, libs, names, sizeof names / sizeof names[0], (void **)&api,
              "cannot compile CUDA kernels: libnvrtc.so not found (install the CUDA toolkit's NVRTC)") ? &api : NULL;
}

const char *cuda_error_name(CUresult err) {
  const CudaApi *cu = cuda_api_load();
  const char *name = NULL;
  if (cu && cu->GetErrorName(err, &name) == CUDA_SUCCESS && name) return arena_printf("%s (%d)", name, err);
  return arena_printf("CUDA error %d", err);
}
