/* opencl.h — the host runtime of the `opencl` target (SPEC §6): the OpenCL
   API reached through the ICD loader (libOpenCL.so.1, loaded with dlopen, so
   clift builds and runs without OpenCL installed), the first GPU of any
   platform (else the first device), one buffer per program buffer, the plan's kernels launched
   in order. Same flat layout as the CPU targets (docs/runtime.md §2). */
#ifndef CLIFT_OPENCL_H
#define CLIFT_OPENCL_H
#include "../util/util.h"

/* An OpenCL platform with a device exists here (the loader is loaded once). */
bool opencl_available(void);

/* Running a plan: device_run(&opencl_device, …) (device.h, opencl_device.c);
   RunOptions.device picks the K-th device over all platforms. */

#endif
