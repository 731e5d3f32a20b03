/* cuda_compile.c — CUDA C++ to device code with NVRTC (SPEC §6: "kernels
   compiled at run time with NVRTC"): a cubin for the device's own
   architecture (no PTX JIT in the driver, so a driver older than the toolkit
   still loads it), or PTX for `clift compile -t cuda --ptx`. On failure the
   NVRTC log is the error. Loaded modules are cached for the process (`clift
   test` runs each program on many inputs), cubins on disk beside the CPU
   targets' shared objects (docs/runtime.md §3): NVRTC takes seconds for a
   program of a hundred kernels (an APL program of 240 lines: 1,288 kernels,
   37 s), and a second run of the same program skips it. */
#include "cuda.h"
#include "cuda_api.h"
#include <string.h>
#include <unistd.h>

#define NVRTC_STD "--std=c++17"

/* The device code of `source`, `*size` bytes in the arena. Code that NVRTC
   rejects is an internal error at `where`, the program (SPEC §8). */
static const char *nvrtc_compile(const char *source, const char *arch, Loc where, size_t *size) {
  const NvrtcApi *rtc = nvrtc_api_load();
  if (!rtc) return NULL;
  nvrtcProgram prog;
  nvrtcResult rc = rtc->CreateProgram(&prog, source, "clift.cu", 0, NULL, NULL);
  if (rc != 0) { diag_error(LOC_NONE, "NVRTC: cannot create a program: %s", rtc->GetErrorString(rc)); return NULL; }
  const char *options[] = { arena_printf("--gpu-architecture=%s", arch), NVRTC_STD };
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

/* The cache key: source, architecture, options and NVRTC's version. */
static unsigned long long module_key(const char *source, const char *arch) {
  const NvrtcApi *rtc = nvrtc_api_load();
  int major = 0, minor = 0;
  if (rtc) rtc->Version(&major, &minor);
  return util_fnv1a(util_fnv1a(util_fnv1a(util_fnv1a(UTIL_FNV_BASIS, source), arch), NVRTC_STD),
                    arena_printf("nvrtc %d.%d", major, minor));
}

/* The cubin of `source` from the disk cache, else NVRTC's (then kept there;
   a cache that cannot be written costs only the next run's time). */
static const char *cubin(const char *source, const char *arch, unsigned long long key, Loc where) {
  size_t size;
  const char *path = util_cache_file(key, "cubin");   /* NULL: compile every time */
  if (path && access(path, R_OK) == 0) {
    const char *image = util_read_file(path, &size);
    if (image && size > 0) return image;
    diag_clear();
  }
  const char *image = nvrtc_compile(source, arch, where, &size);
  if (image && path) {
    const void *parts[] = { image };
    if (!util_write_file(path, 1, parts, &size)) diag_clear();
  }
  return image;
}

CUmodule cuda_module_load(const CudaApi *cu, const char *source, const char *arch, Loc where) {
  enum { SLOTS = 64 };
  static struct { unsigned long long key; CUmodule module; } cache[SLOTS];
  static int next;   /* round robin: an evicted module is unloaded */
  unsigned long long key = module_key(source, arch);
  for (int i = 0; i < SLOTS; i++) if (cache[i].module && cache[i].key == key) return cache[i].module;
  const char *image = cubin(source, arch, key, where);
  if (!image) return NULL;
  CUmodule m;
  CUresult rc = cu->ModuleLoadData(&m, image);
  if (rc != CUDA_SUCCESS) { diag_error(LOC_NONE, "cannot load the compiled CUDA kernels: %s", cuda_error_name(rc)); return NULL; }
  if (cache[next].module) cu->ModuleUnload(cache[next].module);
  cache[next].key = key; cache[next].module = m;
  next = (next + 1) % SLOTS;
  return m;
}
