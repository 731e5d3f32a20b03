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

/* The work-groups of `local` work-items one compute unit keeps resident (the
   grid cap, DeviceApi.resident): at most cap_items work-items (CLIFT_OCL_RESIDENT);
   on NVIDIA's OpenCL (regs_per_cu, CL_DEVICE_REGISTERS_PER_BLOCK_NV, > 0) also
   what the kernel's registers allow (kernel_regs > 0: ptxas's count, rounded up
   to 8 as the hardware allocates them). At least 1. */
size_t opencl_resident_groups(size_t cap_items, size_t local, unsigned regs_per_cu, int kernel_regs);
/* ptxas's registers of kernel `name` in NVIDIA's build log (-cl-nv-verbose); 0: none. */
int opencl_log_registers(const char *log, const char *name);

/* What an OpenCL device keeps from one program to the next, keyed by a program's
   or a kernel's handle: NVIDIA's build log of each program (-cl-nv-verbose) and
   the registers of each kernel, for the grid cap. malloc'd, never in the arena:
   clift test and clift run --batch release the arena after every program while
   the device stays open (the logs kept in the arena were overwritten by the next
   programs: SIGSEGV after ~250 of tests/regress on an H100, 2026-11-28). */
typedef struct OclKeptItem { const void *key; char *log; int regs; } OclKeptItem;
typedef struct OclKept { OclKeptItem *items; int n, cap; } OclKept;
/* Keeps a copy of `log` (NULL: none) and `regs` under `key`; false when out of memory. */
bool opencl_keep(OclKept *k, const void *key, const char *log, int regs);
/* The item kept under `key`, or NULL. */
const OclKeptItem *opencl_kept(const OclKept *k, const void *key);
/* Forgets `key` (its handle released: the driver may hand the address out again). */
void opencl_forget(OclKept *k, const void *key);

#endif
