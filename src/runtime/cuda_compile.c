/* cuda_compile.c — CUDA C++ to device code with NVRTC (SPEC §6: "kernels
   compiled at run time with NVRTC"): a cubin for the device's own
   architecture (no PTX JIT in the driver, so a driver older than the toolkit
   still loads it), or PTX for `clift compile -t cuda --ptx`. On failure the
   NVRTC log is the error. Loaded modules are cached for the process: `clift
   test` runs each program on many inputs. */
#include "cuda.h"
#include "cuda_api.h"
#include <string.h>

/* The device code of `source`, `*size` bytes in the arena. Code that NVRTC
   rejects is an internal error at `where`, the program (SPEC §8). */
static const char *nvrtc_compile(const char *source, const char *arch, Loc where, size_t *size) {
  const NvrtcApi *rtc = nvrtc_api_load();
  if (!rtc) return NULL;
  nvrtcProgram prog;
  nvrtcResult rc = rtc->CreateProgram(&prog, source, "clift.cu", 0, NULL, NULL);
  if (rc != 0) { diag_error(LOC_NONE, "NVRTC: cannot create a program: %s", rtc->GetErrorString(rc)); return NULL; }
  const char *options[] = { arena_printf("--gpu-architecture=%s", arch), "--std=c++17" };
  rc = rtc->CompileProgram(prog, 2, options);
  if (rc != 0) {
    size_t len = 0;
    rtc->GetProgramLogSize(prog, &len);
    char *log = NEW_ARRAY(char, len + 1);
    if (len) rtc->GetProgramLog(prog, log);
    rtc->DestroyProgram(&prog);
    diag_internal(where, "NVRTC rejected the generated CUDA kernels (%s, %s):\n%.3000s", arch, rtc->GetErrorString(rc), log);
    return NULL;
  }
  bool cubin = strncmp(arch, "sm_", 3) == 0;
  rc = cubin ? rtc->GetCUBINSize(prog, size) : rtc->GetPTXSize(prog, size);
  char *image = NEW_ARRAY(char, *size + 1);
  if (rc == 0) rc = cubin ? rtc->GetCUBIN(prog, image) : rtc->GetPTX(prog, image);
  rtc->DestroyProgram(&prog);
  if (rc != 0) { diag_error(LOC_NONE, "NVRTC: cannot read the compiled code: %s", rtc->GetErrorString(rc)); return NULL; }
  return image;
}

const char *cuda_compile_ptx(const char *source, const char *arch, Loc where) {
  size_t size;
  return nvrtc_compile(source, arch, where, &size);
}

/* 64-bit FNV-1a of source and architecture (as the CPU targets' cache key). */
static unsigned long long module_key(const char *source, const char *arch) {
  unsigned long long h = 14695981039346656037ull;
  for (const char *s = source; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  for (const char *s = arch; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

CUmodule cuda_module_load(const CudaApi *cu, const char *source, const char *arch, Loc where) {
  enum { SLOTS = 64 };
  static struct { unsigned long long key; CUmodule module; } cache[SLOTS];
  static int next;   /* round robin: an evicted module is unloaded */
  unsigned long long key = module_key(source, arch);
  for (int i = 0; i < SLOTS; i++) if (cache[i].module && cache[i].key == key) return cache[i].module;
  size_t size;
  const char *image = nvrtc_compile(source, arch, where, &size);
  if (!image) return NULL;
  CUmodule m;
  CUresult rc = cu->ModuleLoadData(&m, image);
  if (rc != CUDA_SUCCESS) { diag_error(LOC_NONE, "cannot load the compiled CUDA kernels: %s", cuda_error_name(rc)); return NULL; }
  if (cache[next].module) cu->ModuleUnload(cache[next].module);
  cache[next].key = key; cache[next].module = m;
  next = (next + 1) % SLOTS;
  return m;
}
