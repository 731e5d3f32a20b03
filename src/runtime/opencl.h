/* opencl.h — the host runtime of the `opencl` target (SPEC §6): the OpenCL
   API reached through the ICD loader (libOpenCL.so.1, loaded with dlopen, so
   clift builds and runs without OpenCL installed), the first GPU of any
   platform (else the first device), one buffer per program buffer, the plan's kernels launched
   in order. Same flat layout as the CPU targets (docs/runtime.md §2). */
#ifndef CLIFT_OPENCL_H
#define CLIFT_OPENCL_H
#include "../eval/interp.h"
#include "../dpia/plan.h"
#include "timing.h"

/* --device K: use the K-th OpenCL device (counting over the platforms in
   order) instead of the first GPU / first device. Call before the first run. */
void opencl_select_device(int index);

/* An OpenCL platform with a device exists here (the loader is loaded once). */
bool opencl_available(void);

/* Build `cl_source` (the plan's kernels), marshal the inputs, launch the plan,
   read the result back. NULL + diag (no platform, the build log on a failed
   build, unsupported types, lengths that disagree with the sizes). */
Value *opencl_run(Plan *plan, const char *cl_source, Value **inputs, NatBinding *sizes);

/* opencl_run, and with timing (clift bench): the plan launched timing->runs
   more times after the first, each run timed by the kernels' profiling events. */
Value *opencl_run_timed(Plan *plan, const char *cl_source, Value **inputs, NatBinding *sizes, RunTiming *timing);

/* `clift compile -t opencl -o DIR`: DIR/NAME.cl (the kernels), DIR/NAME_host.c
   (the host plan on the OpenCL API, linked with -lOpenCL) and DIR/NAME.h
   (int NAME_run(void **buffers, const long long *sizes), the convention of
   docs/runtime.md). Creates DIR. opencl_emit.c */
bool opencl_write_library(Program *p, const char *dir, const char *name);

#endif
