/* opencl_api.c — the OpenCL entry points, looked up in the ICD loader at run
   time: clift has no link dependency on OpenCL, and a machine without it gets
   a clear error (or, for `clift test`, no opencl target) instead of a loader
   failure at start-up. */
#include "opencl_api.h"
#include "../util/util.h"
#include <dlfcn.h>
#include <stdio.h>

const OclApi *opencl_api_load(void) {
  static OclApi api;
  static int state;   /* 0 not tried, 1 loaded, -1 failed: the loader is process-wide */
  static char why[160];   /* not the arena: it outlives every compilation */
  if (state == 1) return &api;
  if (state == -1) { diag_error(LOC_NONE, "%s", why); return NULL; }
  void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) h = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    state = -1;
    snprintf(why, sizeof why, "no OpenCL platform found (install pocl-opencl-icd): cannot load libOpenCL.so.1");
    diag_error(LOC_NONE, "%s", why);
    return NULL;
  }
  static const char *names[] = { "clGetPlatformIDs", "clGetPlatformInfo", "clGetDeviceIDs", "clGetDeviceInfo",
    "clCreateContext", "clCreateCommandQueue", "clCreateProgramWithSource", "clBuildProgram",
    "clGetProgramBuildInfo", "clCreateKernel", "clGetKernelWorkGroupInfo", "clSetKernelArg", "clCreateBuffer",
    "clEnqueueNDRangeKernel", "clEnqueueReadBuffer", "clEnqueueWriteBuffer", "clFinish", "clReleaseMemObject", "clReleaseKernel",
    "clReleaseProgram", "clGetEventProfilingInfo", "clReleaseEvent" };
  void **slots = (void **)&api;   /* OclApi is exactly these pointers, in this order */
  _Static_assert(sizeof(OclApi) == sizeof names / sizeof names[0] * sizeof(void *), "one name per entry point");
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    slots[i] = dlsym(h, names[i]);
    if (!slots[i]) {
      state = -1;
      snprintf(why, sizeof why, "the OpenCL loader has no %s", names[i]);
      diag_error(LOC_NONE, "%s", why);
      return NULL;
    }
  }
  state = 1;
  return &api;
}

const char *opencl_error_name(cl_int err) {
  switch (err) {
  case -1: return "CL_DEVICE_NOT_FOUND (-1)";
  case -4: return "CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)";
  case -5: return "CL_OUT_OF_RESOURCES (-5)";
  case -6: return "CL_OUT_OF_HOST_MEMORY (-6)";
  case -11: return "CL_BUILD_PROGRAM_FAILURE (-11)";
  case -30: return "CL_INVALID_VALUE (-30)";
  case -46: return "CL_INVALID_KERNEL_NAME (-46)";
  case -48: return "CL_INVALID_KERNEL (-48)";
  case -49: return "CL_INVALID_ARG_INDEX (-49)";
  case -50: return "CL_INVALID_ARG_VALUE (-50)";
  case -51: return "CL_INVALID_ARG_SIZE (-51)";
  case -52: return "CL_INVALID_KERNEL_ARGS (-52)";
  case -54: return "CL_INVALID_WORK_GROUP_SIZE (-54)";
  case -55: return "CL_INVALID_WORK_ITEM_SIZE (-55)";
  case -61: return "CL_INVALID_BUFFER_SIZE (-61)";
  case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (-1001)";
  default: return arena_printf("OpenCL error %d", err);
  }
}
