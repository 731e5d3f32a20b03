/* ocl_ptx.c — SRC.cl built by the first GPU's OpenCL with OPTIONS, its program
   binary written to OUT (PTX on NVIDIA's OpenCL), so that `ptxas -arch=sm_90 -v
   OUT` shows the registers of the kernels clift's opencl target runs. Pass the
   options clift's runtime passes (runtime/opencl_device.c build): e.g.
   "-DCLIFT_INDEX=int -DCLIFT_NVIDIA_WARP -cl-fp32-correctly-rounded-divide-sqrt".
   The few OpenCL 1.2 entry points are looked up in libOpenCL.so.1 (no headers).
   cc ocl_ptx.c -o ocl_ptx -ldl;  ./ocl_ptx SRC.cl OUT.ptx "OPTIONS" */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef void *cl_id;
enum { DEVICE_TYPE_GPU = 1 << 2, PROGRAM_BINARY_SIZES = 0x1165, PROGRAM_BINARIES = 0x1166, PROGRAM_BUILD_LOG = 0x1183 };

#define API(ret, name, args) typedef ret (*name##_t) args; static name##_t name
API(cl_int, clGetPlatformIDs, (cl_uint, cl_id *, cl_uint *));
API(cl_int, clGetDeviceIDs, (cl_id, uint64_t, cl_uint, cl_id *, cl_uint *));
API(cl_id, clCreateContext, (const intptr_t *, cl_uint, const cl_id *, void *, void *, cl_int *));
API(cl_id, clCreateProgramWithSource, (cl_id, cl_uint, const char **, const size_t *, cl_int *));
API(cl_int, clBuildProgram, (cl_id, cl_uint, const cl_id *, const char *, void *, void *));
API(cl_int, clGetProgramBuildInfo, (cl_id, cl_id, cl_uint, size_t, void *, size_t *));
API(cl_int, clGetProgramInfo, (cl_id, cl_uint, size_t, void *, size_t *));

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: ocl_ptx SRC.cl OUT \"OPTIONS\"\n"); return 2; }
  void *lib = dlopen("libOpenCL.so.1", RTLD_NOW);
  if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 1; }
#define LOAD(name) if (!(name = (name##_t)dlsym(lib, #name))) { fprintf(stderr, "no %s\n", #name); return 1; }
  LOAD(clGetPlatformIDs) LOAD(clGetDeviceIDs) LOAD(clCreateContext) LOAD(clCreateProgramWithSource)
  LOAD(clBuildProgram) LOAD(clGetProgramBuildInfo) LOAD(clGetProgramInfo)
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *src = malloc((size_t)n + 1);
  src[fread(src, 1, (size_t)n, f)] = 0;
  fclose(f);
  cl_id platforms[8], dev = NULL;
  cl_uint np = 0, nd = 0;
  clGetPlatformIDs(8, platforms, &np);
  for (cl_uint i = 0; i < np && !dev; i++)
    if (clGetDeviceIDs(platforms[i], DEVICE_TYPE_GPU, 1, &dev, &nd) != 0) dev = NULL;
  if (!dev) { fprintf(stderr, "no OpenCL GPU\n"); return 1; }
  cl_int err = 0;
  cl_id ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  const char *text = src;
  cl_id prog = ctx ? clCreateProgramWithSource(ctx, 1, &text, NULL, &err) : NULL;
  if (!prog || clBuildProgram(prog, 1, &dev, argv[3], NULL, NULL) != 0) {
    static char log[1 << 16];
    if (prog) clGetProgramBuildInfo(prog, dev, PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "build failed (%d):\n%s\n", err, log);
    return 1;
  }
  static char log[1 << 16];   /* -cl-nv-verbose: ptxas's registers of each kernel */
  if (clGetProgramBuildInfo(prog, dev, PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL) == 0 && log[0]) fprintf(stderr, "%s\n", log);
  size_t size = 0;
  clGetProgramInfo(prog, PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
  unsigned char *bin = malloc(size + 1);
  clGetProgramInfo(prog, PROGRAM_BINARIES, sizeof bin, &bin, NULL);
  FILE *out = fopen(argv[2], "wb");
  while (size > 0 && bin[size - 1] == 0) size--;   /* PTX text: its NUL off, for ptxas */
  if (!out || fwrite(bin, 1, size, out) != size) { perror(argv[2]); return 1; }
  fclose(out);
  return 0;
}
