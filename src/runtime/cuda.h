/* cuda.h — the host runtime of the `cuda` target (SPEC §6): the CUDA driver API
   (libcuda.so.1) and NVRTC (libnvrtc.so), both loaded with dlopen so clift
   builds and runs without CUDA installed; device 0 in its primary context,
   kernels compiled at run time for the device's architecture (sm_90 on
   Hopper), one device buffer per program buffer, the plan's kernels launched
   in order. Same flat layout as the CPU targets (docs/runtime.md §2). */
#ifndef CLIFT_CUDA_H
#define CLIFT_CUDA_H
#include "../util/util.h"

/* A CUDA device exists here (the driver is loaded and initialised once). */
bool cuda_available(void);

/* Running a plan: device_run(&cuda_device, …) (device.h, cuda_device.c). */

/* NVRTC alone, no device needed: the PTX of `cu_source` for a virtual
   architecture such as "compute_90". NULL + diag with the compile log (an
   internal error at `where`, the program, when NVRTC rejects the code). */
const char *cuda_compile_ptx(const char *cu_source, const char *arch, Loc where);

#endif
