/* cuda_api.h — the few CUDA driver API and NVRTC types, constants and entry
   points the cuda runtime uses, declared here so that building clift needs no
   CUDA headers or libraries; the functions are looked up at run time in
   libcuda.so.1 and libnvrtc.so (cuda_api.c). Signatures and values are those
   of the CUDA Driver API reference (docs.nvidia.com/cuda/cuda-driver-api:
   "Data types", "Device Management", "Memory Management", "Execution Control",
   "Event Management") and of the NVRTC reference (docs.nvidia.com/cuda/nvrtc),
   which are ABI. */
#ifndef CLIFT_CUDA_API_H
#define CLIFT_CUDA_API_H
#include <stddef.h>
#include "../util/util.h"

typedef int CUresult;                      /* CUDA_SUCCESS is 0 */
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;    /* a device address (64-bit) */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

#define CUDA_SUCCESS 0
#define CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK 1
#define CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z 4
#define CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y 6
#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK 0
#define CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES 1
#define CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES 8
#define CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN 97

/* One function pointer per entry point, filled by cuda_api_load, in the order
   of its name table. */
typedef struct CudaApi {
  CUresult (*Init)(unsigned flags);
  CUresult (*DeviceGetCount)(int *count);
  CUresult (*DeviceGet)(CUdevice *dev, int ordinal);
  CUresult (*DeviceGetName)(char *name, int len, CUdevice dev);
  CUresult (*DeviceGetAttribute)(int *value, int attribute, CUdevice dev);
  CUresult (*DevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
  CUresult (*CtxSetCurrent)(CUcontext ctx);
  CUresult (*CtxSynchronize)(void);
  CUresult (*MemAlloc)(CUdeviceptr *p, size_t bytes);
  CUresult (*MemFree)(CUdeviceptr p);
  CUresult (*MemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
  CUresult (*MemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
  CUresult (*MemsetD8)(CUdeviceptr dst, unsigned char value, size_t n);
  CUresult (*ModuleLoadData)(CUmodule *m, const void *image);
  CUresult (*ModuleUnload)(CUmodule m);
  CUresult (*ModuleGetFunction)(CUfunction *f, CUmodule m, const char *name);
  CUresult (*FuncGetAttribute)(int *value, int attribute, CUfunction f);
  CUresult (*LaunchKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                           unsigned bz, unsigned shared_bytes, CUstream s, void **params, void **extra);
  CUresult (*EventCreate)(CUevent *e, unsigned flags);
  CUresult (*EventRecord)(CUevent e, CUstream s);
  CUresult (*EventSynchronize)(CUevent e);
  CUresult (*EventElapsedTime)(float *ms, CUevent start, CUevent end);
  CUresult (*EventDestroy)(CUevent e);
  CUresult (*GetErrorName)(CUresult err, const char **name);
  CUresult (*DriverGetVersion)(int *version);
  CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *blocks, CUfunction f, int block_size, size_t dynamic_smem);
  CUresult (*FuncSetAttribute)(CUfunction f, int attribute, int value);
} CudaApi;

typedef int nvrtcResult;                   /* NVRTC_SUCCESS is 0 */
typedef struct _nvrtcProgram *nvrtcProgram;

typedef struct NvrtcApi {
  nvrtcResult (*Version)(int *major, int *minor);
  nvrtcResult (*CreateProgram)(nvrtcProgram *p, const char *src, const char *name, int nheaders,
                               const char *const *headers, const char *const *include_names);
  nvrtcResult (*CompileProgram)(nvrtcProgram p, int noptions, const char *const *options);
  nvrtcResult (*GetProgramLogSize)(nvrtcProgram p, size_t *size);
  nvrtcResult (*GetProgramLog)(nvrtcProgram p, char *log);
  nvrtcResult (*GetPTXSize)(nvrtcProgram p, size_t *size);
  nvrtcResult (*GetPTX)(nvrtcProgram p, char *ptx);
  nvrtcResult (*GetCUBINSize)(nvrtcProgram p, size_t *size);
  nvrtcResult (*GetCUBIN)(nvrtcProgram p, char *cubin);
  nvrtcResult (*DestroyProgram)(nvrtcProgram *p);
  const char *(*GetErrorString)(nvrtcResult r);
} NvrtcApi;

/* dlopen libcuda.so.1 / libnvrtc.so and look every entry point up (once per
   process). NULL + diag: "no CUDA device (libcuda.so.1 not found …)". */
const CudaApi *cuda_api_load(void);
const NvrtcApi *nvrtc_api_load(void);
/* "CUDA_ERROR_OUT_OF_MEMORY (2)" for an error code. */
const char *cuda_error_name(CUresult err);

/* cuda_compile.c: `source` compiled by NVRTC for `arch` ("sm_90": a cubin,
   "compute_90": PTX) and loaded into the current context; modules are kept per
   process, keyed by source and architecture. NULL + diag (the NVRTC log, an
   internal error at `where`, the program). */
CUmodule cuda_module_load(const CudaApi *cu, const char *source, const char *arch, Loc where);

#endif
