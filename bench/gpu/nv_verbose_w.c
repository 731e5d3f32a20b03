/* nv_verbose_w.c — does NVIDIA's OpenCL still print ptxas's register lines
   ("Used N registers") in the build log when -w is given beside
   -cl-nv-verbose? clift's runtime builds with both (opencl_device.c) and reads
   the registers for its grid cap. Prints the log's register lines per option set.
   Run with CUDA_CACHE_DISABLE=1: a build the driver's compute cache serves runs
   no ptxas and logs no registers (which first looked like -w dropping them).
   H200, 2026-11-28: "Used 8 registers" under both option sets.
   Build: cc -std=c11 -o nvw nv_verbose_w.c -lOpenCL */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

static const char *src = "__kernel void k(__global float *x) { int i = get_global_id(0); float unused; x[i] = x[i] * 2.0f; }\n";

int main(void) {
  cl_platform_id p[8]; cl_uint np = 0;
  if (clGetPlatformIDs(8, p, &np) != CL_SUCCESS || np == 0) { puts("no platform"); return 1; }
  const char *opts[] = { "-cl-nv-verbose", "-w -cl-nv-verbose" };
  for (cl_uint i = 0; i < np; i++) {
    cl_device_id d; char name[256] = "";
    if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS) continue;
    clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, NULL);
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, NULL);
    for (int o = 0; o < 2; o++) {
      cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, NULL);
      cl_int rc = clBuildProgram(pr, 1, &d, opts[o], NULL, NULL);
      static char log[1 << 16]; size_t n = 0;
      clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, &n);
      log[n < sizeof log ? n : sizeof log - 1] = 0;
      const char *u = strstr(log, "Used ");
      printf("%s, options '%s': build %d, register line: %.60s\n", name, opts[o], rc, u ? u : "(none)");
      clReleaseProgram(pr);
    }
    clReleaseContext(c);
  }
  return 0;
}
