/* nvrtc_cubin.c — SRC.cu to OUT.cubin with NVRTC for sm_90, the options
   clift's runtime passes (runtime/cuda_compile.c), so that the registers
   bench/gpu/cubin_regs.py reads are those of the code clift runs. No GPU needed.
   cc nvrtc_cubin.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lnvrtc */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: nvrtc_cubin SRC.cu OUT.cubin\n"); return 2; }
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *src = malloc(n + 1);
  src[fread(src, 1, n, f)] = 0;
  fclose(f);
  nvrtcProgram prog;
  const char *options[] = { "--gpu-architecture=sm_90", "--std=c++17" };
  if (nvrtcCreateProgram(&prog, src, "clift.cu", 0, NULL, NULL) || nvrtcCompileProgram(prog, 2, options)) {
    size_t len = 0;
    nvrtcGetProgramLogSize(prog, &len);
    char *log = malloc(len + 1);
    nvrtcGetProgramLog(prog, log);
    fprintf(stderr, "NVRTC failed:\n%s\n", log);
    return 1;
  }
  size_t size;
  nvrtcGetCUBINSize(prog, &size);
  char *image = malloc(size);
  nvrtcGetCUBIN(prog, image);
  FILE *o = fopen(argv[2], "wb");
  if (!o || fwrite(image, 1, size, o) != size) { perror(argv[2]); return 1; }
  fclose(o);
  return 0;
}
