/* opencl_device.c — the OpenCL implementation of the device interface
   (device.h) that plan_run.c runs host plans on: the device (the first GPU,
   else the first device, or --device K), kernels built from source, buffers,
   launches, profiling events for clift bench. */
#include "opencl.h"
#include "opencl_api.h"
#include "device.h"
#include "../util/switches.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A device is process-wide and never released, like the CPU targets' loaded
   objects: clift test runs hundreds of programs, and a context costs ~100 ms.
   One per --device index asked for (-1: the default choice). */
typedef struct Device {
  const OclApi *cl; cl_device_id id; cl_context ctx; cl_command_queue queue; char name[128];
  bool nvidia;   /* NVIDIA's OpenCL: inline PTX (the warp barriers, codegen/opencl_print.c) */
  cl_bitfield type;      /* CL_DEVICE_TYPE: CPU (PoCL) or GPU, asked once at open */
  cl_uint regs_per_cu;   /* NVIDIA's OpenCL: registers an SM (cl_nv_device_attribute_query); 0: unknown */
  /* NVIDIA's OpenCL: each built program's log (-cl-nv-verbose: ptxas's registers
     a kernel), and each kernel handle's registers, for the grid cap (resident) */
  OclKept kept;
  int index;
  cl_event *events; int nevents, cap;   /* timed launches since the last finish */
} Device;

enum { MAX_OPENED = 8 };

static void guard_install(void);   /* the crash guard, below */

static Device *device_open(int selected_device) {
  static Device opened[MAX_OPENED];
  static int nopened;
  for (int i = 0; i < nopened; i++) if (opened[i].index == selected_device) return &opened[i];
  if (nopened == MAX_OPENED) { diag_error(LOC_NONE, "more than %d OpenCL devices asked for in one process", MAX_OPENED); return NULL; }
  Device dev = { .index = selected_device };
  const OclApi *cl = opencl_api_load();
  if (!cl) return NULL;
  cl_platform_id platforms[8];
  cl_uint np = 0;
  if (cl->GetPlatformIDs(8, platforms, &np) != CL_SUCCESS || np == 0) {
    diag_error(LOC_NONE, "no OpenCL platform found (install pocl-opencl-icd)");
    return NULL;
  }
  /* SPEC §6: "PoCL on CPUs, NVIDIA on GPUs": the first GPU of any platform, else the first
     device; --device K picks the K-th device counting over all platforms in order */
  cl_uint nd = 0;
  if (selected_device >= 0) {
    int seen = 0;
    for (cl_uint p = 0; p < np && nd == 0; p++) {
      cl_device_id ids[16];
      cl_uint n = 0;
      if (cl->GetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, ids, &n) != CL_SUCCESS) continue;
      for (cl_uint i = 0; i < n && nd == 0; i++, seen++)
        if (seen == selected_device) { dev.id = ids[i]; nd = 1; }
    }
    if (nd == 0) { diag_error(LOC_NONE, "--device %d: there are only %d OpenCL devices", selected_device, seen); return NULL; }
  }
  for (cl_uint p = 0; p < np && nd == 0; p++)
    if (cl->GetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, &dev.id, &nd) != CL_SUCCESS) nd = 0;
  for (cl_uint p = 0; p < np && nd == 0; p++)
    if (cl->GetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, &dev.id, &nd) != CL_SUCCESS) nd = 0;
  if (nd == 0) { diag_error(LOC_NONE, "no OpenCL device found on %u platform(s)", np); return NULL; }
  cl_int err;
  dev.ctx = cl->CreateContext(NULL, 1, &dev.id, NULL, NULL, &err);
  if (err != CL_SUCCESS) { diag_error(LOC_NONE, "cannot create an OpenCL context: %s", opencl_error_name(err)); return NULL; }
  dev.queue = cl->CreateCommandQueue(dev.ctx, dev.id, CL_QUEUE_PROFILING_ENABLE, &err);   /* events time clift bench */
  if (err != CL_SUCCESS) { diag_error(LOC_NONE, "cannot create an OpenCL queue: %s", opencl_error_name(err)); return NULL; }
  cl->GetDeviceInfo(dev.id, CL_DEVICE_NAME, sizeof dev.name - 1, dev.name, NULL);
  char vendor[128] = { 0 };
  cl->GetDeviceInfo(dev.id, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
  dev.nvidia = strstr(vendor, "NVIDIA") != NULL;
  if (cl->GetDeviceInfo(dev.id, CL_DEVICE_TYPE, sizeof dev.type, &dev.type, NULL) != CL_SUCCESS) dev.type = 0;
  enum { CL_DEVICE_REGISTERS_PER_BLOCK_NV = 0x4002 };   /* cl_nv_device_attribute_query */
  if (dev.nvidia && cl->GetDeviceInfo(dev.id, CL_DEVICE_REGISTERS_PER_BLOCK_NV, sizeof dev.regs_per_cu, &dev.regs_per_cu, NULL) != CL_SUCCESS)
    dev.regs_per_cu = 0;
  dev.cl = cl;
  if (nopened == 0) guard_install();
  opened[nopened] = dev;
  return &opened[nopened++];
}

bool opencl_available(void) {
  diag_clear();
  bool ok = device_open(-1) != NULL;
  diag_clear();
  return ok;
}

static bool check(cl_int err, const char *what) {
  return err == CL_SUCCESS || diag_error(LOC_NONE, "OpenCL: %s failed: %s", what, opencl_error_name(err));
}

/* The build log with ptxas's register counts. NVIDIA's driver keeps built
   programs in its own cache, and a program it finds there comes with an empty
   log (session20: the grid cap right in a program's first run only), so the log
   of a build that ran ptxas is kept in clift's cache (util_cache_dir, KEY.nvlog,
   the key of source, options, device and driver) and read back for the builds
   that did not. */
static char *saved_log(Device *d, const char *src, const char *options, char *log) {
  char driver[128] = { 0 };
  d->cl->GetDeviceInfo(d->id, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL);
  unsigned long long key = util_fnv1a(util_fnv1a(util_fnv1a(util_fnv1a(UTIL_FNV_BASIS, src), options), d->name), driver);
  const char *path = util_cache_file(key, "nvlog");
  if (!path) return log;
  if (strstr(log, "registers")) {
    if (!util_write_text(path, log)) diag_clear();   /* a cache not written costs only the next run's cap */
    return log;
  }
  if (access(path, R_OK) != 0) return log;
  size_t len;
  char *kept = util_read_file(path, &len);
  if (!kept) diag_clear();
  return kept ? kept : log;
}

/* A crash inside the OpenCL implementation becomes clift's internal error,
   exit status 1, naming what was being done. PoCL's LLVM aborted the whole
   process twice (FINDINGS F38, F52), compiling kernels in clBuildProgram or
   when they are first enqueued. The handlers for the crash signals are
   installed once, when the first device opens (a host loop launches kernels
   millions of times: installing them around every call cost ~3 µs a launch);
   guard_on/guard_off only mark the calls that build, create, launch and wait
   for kernels. Inside one, the handler writes the message from its parts
   (async-signal-safe) and exits. Outside, it puts the previous handler
   (ASan's, or the default) back and lets the signal reach it: a fault by
   returning (the instruction faults again), a signal sent by raising it again.
   CLIFT_OCL_CRASH_TEST=1 aborts inside the guard when building (the test
   suite's check, tests/cli/cli_test.sh). */
enum { GUARDED = 5 };
static const int guarded[GUARDED] = { SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE };
static struct sigaction saved_actions[GUARDED];
static volatile sig_atomic_t guard_active;
static const char *volatile guard_parts[3];   /* the device's name, what was done, the kernel's name */

static void guard_put(const char *s) {
  ssize_t w = write(2, s, strlen(s));
  (void)w;
}

static void guard_crash(int sig, siginfo_t *info, void *context) {
  (void)context;
  if (!guard_active) {
    for (int i = 0; i < GUARDED; i++) if (guarded[i] == sig) sigaction(sig, &saved_actions[i], NULL);
    if (info->si_code <= 0) raise(sig);   /* sent (SI_USER, SI_TKILL: abort()), not a fault */
    return;
  }
  guard_put("clift: internal error: the OpenCL implementation of ");
  guard_put(guard_parts[0]);
  guard_put(" crashed while ");
  guard_put(guard_parts[1]);
  guard_put(guard_parts[2]);
  guard_put("; this is a bug of that OpenCL compiler or driver that clift should avoid: please report it with the program\n");
  _exit(1);
}

static void guard_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = guard_crash;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < GUARDED; i++) sigaction(guarded[i], &sa, &saved_actions[i]);
}

static void guard_on(const Device *d, const char *doing, const char *name) {
  guard_parts[0] = d->name;
  guard_parts[1] = doing;
  guard_parts[2] = name ? name : "";
  guard_active = 1;
}

static void guard_off(void) { guard_active = 0; }

static cl_program build_with(Device *d, const char *src, const char *options, char **log) {
  cl_int err;
  cl_program prog = d->cl->CreateProgramWithSource(d->ctx, 1, &src, NULL, &err);
  if (!check(err, "clCreateProgramWithSource")) return NULL;
  guard_on(d, "building the kernels", NULL);
  if (switch_value(SW_OCL_CRASH_TEST) == 1) raise(SIGABRT);
  bool built = d->cl->BuildProgram(prog, 1, &d->id, options, NULL, NULL) == CL_SUCCESS;
  guard_off();
  /* 2, 3: a crash outside the guard reaches the handler that was there before */
  if (switch_value(SW_OCL_CRASH_TEST) == 2) abort();
  if (switch_value(SW_OCL_CRASH_TEST) == 3) {   /* a fault: an unmapped address (not NULL: UBSan would stop first) */
    volatile uintptr_t unmapped = 16;
    *(volatile int *)unmapped = 0;
  }
  if (built && !d->regs_per_cu) return prog;
  size_t len = 0;
  d->cl->GetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
  *log = NEW_ARRAY(char, len + 1);
  d->cl->GetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, len, *log, NULL);
  if (built) {   /* a log not kept costs only the grid cap's register bound */
    opencl_keep(&d->kept, prog, saved_log(d, src, options, *log), 0);
    return prog;
  }
  d->cl->ReleaseProgram(prog);
  return NULL;
}

/* ptxas's registers of kernel `name` in an NVIDIA build log ("Compiling entry
   function 'NAME' for 'sm_90a'", then "Used 74 registers, …"); 0: not there. */
int opencl_log_registers(const char *log, const char *name) {
  const char *entry = "Compiling entry function '";
  size_t n = strlen(name);
  for (const char *p = log ? strstr(log, entry) : NULL; p; p = strstr(p + 1, entry)) {
    const char *q = p + strlen(entry);
    if (strncmp(q, name, n) != 0 || q[n] != '\'') continue;
    const char *next = strstr(q, entry), *used = strstr(q, "Used ");
    int regs = 0;
    if (used && (!next || used < next) && sscanf(used, "Used %d registers", &regs) == 1) return regs;
    return 0;
  }
  return 0;
}

/* Kernels the device's compiler rejects are an internal error at `where`,
   the program (SPEC §8), with the build log. On NVIDIA's OpenCL, warp
   barriers are PTX (CLIFT_NVIDIA_WARP, codegen/opencl_print.c) unless
   CLIFT_OCL_WARP=0; a driver that refuses the inline PTX gets the kernels
   again with work-group barriers. */
static void *build(void *dev, const char *src, bool index32, Loc where) {
  Device *d = dev;
  /* float / and sqrt correctly rounded where the device can (as C, CUDA and
     the interpreter): NVIDIA's OpenCL defaults to faster, less exact ones */
  cl_device_fp_config fp = 0;
  d->cl->GetDeviceInfo(d->id, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL);
  /* a CPU device (PoCL): no vectorisation of a work-item's sequential loops
     (CLIFT_SEQ_LOOP, codegen/opencl_print.c; FINDINGS F52: PoCL 3.1's LLVM
     aborted the process selecting instructions for one) */
  bool cpu = (d->type & CL_DEVICE_TYPE_CPU) != 0;
  /* -w: no warning of the OpenCL compiler reaches the user's stderr (PoCL printed
     "2 warnings generated." for a program's own (!= k k) or a constant && operand;
     the code is clift's, not the user's; the random tester fails a run that prints).
     NVIDIA's OpenCL keeps ptxas's register lines under -w (H200, with
     CUDA_CACHE_DISABLE=1: bench/gpu/nv_verbose_w.c; a cached build has none) */
  const char *options = arena_printf("-w %s%s%s%s", index32 ? "-DCLIFT_INDEX=int " : "", cpu ? "-DCLIFT_NO_LOOP_VECTORIZE " : "",
                                     fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT ? "-cl-fp32-correctly-rounded-divide-sqrt" : "",
                                     d->regs_per_cu ? " -cl-nv-verbose" : "");   /* the registers, for resident */
  char *log = NULL;
  bool ptx = d->nvidia && switch_value(SW_OCL_WARP) && strstr(src, "CLIFT_NVIDIA_WARP");
  cl_program prog = ptx ? build_with(d, src, arena_printf("-DCLIFT_NVIDIA_WARP %s", options), &log) : NULL;
  if (prog) return prog;
  if ((prog = build_with(d, src, options, &log))) {
    if (ptx)
      fprintf(stderr, "clift: note: the OpenCL compiler of %s refused the PTX warp barriers (CLIFT_OCL_WARP); "
              "work-group barriers used instead\n", d->name);
    return prog;
  }
  if (log) diag_internal(where, "the OpenCL compiler of %s rejected the generated kernels:\n%.3000s", d->name, log);
  return NULL;
}

static void *open_device(const RunOptions *o) { return device_open(o->device); }

static void unload(void *dev, void *module) {
  Device *d = dev;
  opencl_forget(&d->kept, module);
  d->cl->ReleaseProgram(module);
}

/* OpenCL refuses empty buffers: at least 64 bytes, a short host copy padded. A
   buffer cleared only from clear_from on is created empty and its tail written. */
static bool alloc(void *dev, int64_t bytes, const void *host, int64_t clear_from, const char *what, DevMem *out) {
  Device *d = dev;
  size_t size = bytes > 64 ? (size_t)bytes : 64, from = host ? 0 : (size_t)clear_from;
  bool as_is = host && bytes >= 64;   /* a full host buffer is copied as it is */
  void *init = as_is ? NULL : calloc(1, size - from);
  if (!init && !as_is) return diag_error(LOC_NONE, "%s: cannot allocate %lld bytes", what, (long long)bytes);
  if (init && host) memcpy(init, host, (size_t)bytes);
  cl_int err;
  cl_mem m = d->cl->CreateBuffer(d->ctx, CL_MEM_READ_WRITE | (from ? 0 : CL_MEM_COPY_HOST_PTR), size,
                                 from ? NULL : init ? init : (void *)host, &err);
  if (err == CL_SUCCESS && from && (err = d->cl->EnqueueWriteBuffer(d->queue, m, 1, from, size - from, init, 0, NULL, NULL)))
    d->cl->ReleaseMemObject(m);
  free(init);
  if (!check(err, arena_printf("allocating %s (%lld bytes)", what, (long long)bytes))) return false;
  *out = (DevMem)(uintptr_t)m;
  return true;
}

static cl_mem mem_of(DevMem m) { return (cl_mem)(uintptr_t)m; }

static bool download(void *dev, DevMem m, size_t offset, void *host, size_t bytes, const char *what) {
  Device *d = dev;
  guard_on(d, "running the kernels before reading ", what);
  cl_int err = d->cl->EnqueueReadBuffer(d->queue, mem_of(m), 1, offset, bytes, host, 0, NULL, NULL);
  guard_off();
  return check(err, arena_printf("reading %s", what));
}

static void free_mem(void *dev, DevMem m) { ((Device *)dev)->cl->ReleaseMemObject(mem_of(m)); }

static void *kernel(void *dev, void *module, const char *name, size_t *max_local) {
  Device *d = dev;
  cl_int err;
  guard_on(d, "creating kernel ", name);
  cl_kernel kern = d->cl->CreateKernel(module, name, &err);
  guard_off();
  if (!check(err, arena_printf("clCreateKernel(%s)", name))) return NULL;
  *max_local = 1;
  d->cl->GetKernelWorkGroupInfo(kern, d->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof *max_local, max_local, NULL);
  const OclKeptItem *built = opencl_kept(&d->kept, module);
  int regs = built ? opencl_log_registers(built->log, name) : 0;
  if (regs > 0) opencl_keep(&d->kept, kern, NULL, regs);   /* not kept: no register bound */
  return kern;
}

static bool launch(void *dev, void *kern, const char *name, int dims, size_t local[3], size_t groups[3],
                   int nargs, const DevArg *args, bool timed) {
  Device *d = dev;
  bool sized_here = false;
  for (int a = 0; a < nargs; a++) {
    if (args[a].local) {   /* a __local pointer: its size, no value */
      if (!check(d->cl->SetKernelArg(kern, (cl_uint)a, args[a].size, NULL), "clSetKernelArg")) return false;
      sized_here = true;
      continue;
    }
    cl_mem m = args[a].buffer ? mem_of(*(const DevMem *)args[a].value) : NULL;
    const void *value = args[a].buffer ? (const void *)&m : args[a].value;
    size_t size = args[a].buffer ? sizeof m : args[a].size;
    unsigned char padded[32] = { 0 };   /* a float3/int3 argument is passed as 4 lanes (sizeof(cl_float3) == 16) */
    if (args[a].vec3 && size <= 24) {
      memcpy(padded, value, size);
      value = padded; size = size / 3 * 4;
    }
    if (!check(d->cl->SetKernelArg(kern, (cl_uint)a, size, value), "clSetKernelArg")) return false;
  }
  /* a work-group's local memory sized at launch, with the kernel's own, against
     the device's: a clear error rather than a failed launch (CL_OUT_OF_RESOURCES) */
  cl_ulong used = 0, have = 0;
  if (sized_here && d->cl->GetKernelWorkGroupInfo(kern, d->id, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used, NULL) == CL_SUCCESS
      && d->cl->GetDeviceInfo(d->id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof have, &have, NULL) == CL_SUCCESS && have > 0 && used > have)
    return diag_error(LOC_NONE, "kernel %s needs %llu bytes of local memory a work-group; %s has %llu", name,
                      (unsigned long long)used, d->name, (unsigned long long)have);
  size_t global[3];
  for (int k = 0; k < 3; k++) global[k] = local[k] * groups[k];
  if (timed && d->nevents == d->cap) {   /* malloc'd: the device outlives every arena */
    int cap = d->cap ? 2 * d->cap : 16;
    cl_event *grown = realloc(d->events, sizeof *grown * (size_t)cap);
    if (!grown) return diag_error(LOC_NONE, "cannot allocate %d OpenCL events", cap);
    d->events = grown; d->cap = cap;
  }
  cl_event *event = timed ? &d->events[d->nevents] : NULL;
  guard_on(d, "launching kernel ", name);
  cl_int launched = d->cl->EnqueueNDRangeKernel(d->queue, kern, (cl_uint)dims, NULL, global, local, 0, NULL, event);
  guard_off();
  bool ok = check(launched, arena_printf("launching %s", name));
  if (ok && timed) d->nevents++;
  return ok;
}

static void release_kernel(void *dev, void *kern) {
  Device *d = dev;
  opencl_forget(&d->kept, kern);
  d->cl->ReleaseKernel(kern);
}

/* Wait; the timed kernels' execution times from their profiling events. */
static bool finish(void *dev, double *ms) {
  Device *d = dev;
  guard_on(d, "running the kernels", NULL);
  cl_int done = d->cl->Finish(d->queue);
  guard_off();
  bool ok = check(done, "clFinish");
  if (ms) *ms = 0;
  for (int i = 0; i < d->nevents; i++) {
    unsigned long long start = 0, end = 0;
    d->cl->GetEventProfilingInfo(d->events[i], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    d->cl->GetEventProfilingInfo(d->events[i], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    if (ms) *ms += (double)(end - start) / 1e6;
    d->cl->ReleaseEvent(d->events[i]);
  }
  d->nevents = 0;
  return ok;
}

/* An estimate of the work-groups of `local` work-items the device keeps
   resident (DeviceApi.resident; OpenCL has no occupancy query): its compute
   units times opencl_resident_groups, which takes at most CLIFT_OCL_RESIDENT
   work-items a unit (2048, the most an SM of NVIDIA's GPUs since Volta holds)
   and, on NVIDIA's OpenCL, what the kernel's registers allow (ptxas's count
   from the build log: CL_KERNEL_WORK_GROUP_SIZE tells nothing of a kernel with
   a required work-group size, the v256 versions; session20 took it for 1 group
   an SM and made reduce 1.9x slower). Too high an
   estimate costs each group's first chunk unprefetched and an uneven last wave
   (FCL's scan on an H100: 1.000 ms at 8 groups of 256 an SM, 0.972 at 3, what
   its 74 registers allow; bench/gpu/session19_2026-11-27.sh); any number of
   groups is correct. */
size_t opencl_resident_groups(size_t cap_items, size_t local, unsigned regs_per_cu, int kernel_regs) {
  if (local < 1) return 1;
  size_t groups = cap_items / local;
  if (regs_per_cu > 0 && kernel_regs > 0) {
    size_t r8 = ((size_t)kernel_regs + 7) / 8 * 8;   /* as the hardware allocates them */
    size_t by_regs = regs_per_cu / (r8 * local);
    if (by_regs < groups) groups = by_regs;
  }
  return groups > 0 ? groups : 1;
}

static size_t resident(void *dev, void *kern, size_t local) {
  Device *d = dev;
  cl_uint cus = 0;
  int regs = 0;
  if (local < 1 || d->cl->GetDeviceInfo(d->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL) != CL_SUCCESS || cus < 1) return 0;
  const OclKeptItem *k = opencl_kept(&d->kept, kern);
  if (k) regs = k->regs;
  return (size_t)cus * opencl_resident_groups((size_t)switch_value(SW_OCL_RESIDENT), local, d->regs_per_cu, regs);
}

/* For the tuning cache: the device's and the driver's names, its compute units. */
static void describe(void *dev, DeviceInfo *out) {
  Device *d = dev;
  cl_uint cus = 0;
  *out = (DeviceInfo){ .compute_units = 1 };
  snprintf(out->name, sizeof out->name, "%s", d->name);
  d->cl->GetDeviceInfo(d->id, CL_DRIVER_VERSION, sizeof out->driver - 1, out->driver, NULL);
  if (d->cl->GetDeviceInfo(d->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL) == CL_SUCCESS && cus > 0)
    out->compute_units = (int)cus;
  out->gpu = (d->type & CL_DEVICE_TYPE_GPU) != 0;
}

const DeviceApi opencl_device = {
  .name = "OpenCL", .open = open_device, .build = build, .unload = unload, .alloc = alloc,
  .download = download, .free = free_mem, .kernel = kernel, .launch = launch,
  .release_kernel = release_kernel, .resident = resident, .finish = finish, .describe = describe, .version_kernels = true,
};

/* The device's tables (opencl.h), malloc'd: a device outlives every program's arena. */
bool opencl_keep(OclKept *k, const void *key, const char *log, int regs) {
  char *copy = log ? strdup(log) : NULL;
  if (log && !copy) return false;
  if (k->n == k->cap) {
    int cap = k->cap ? 2 * k->cap : 16;
    OclKeptItem *grown = realloc(k->items, sizeof *grown * (size_t)cap);
    if (!grown) { free(copy); return false; }
    k->items = grown; k->cap = cap;
  }
  k->items[k->n++] = (OclKeptItem){ key, copy, regs };
  return true;
}

const OclKeptItem *opencl_kept(const OclKept *k, const void *key) {
  for (int i = 0; i < k->n; i++) if (k->items[i].key == key) return &k->items[i];
  return NULL;
}

void opencl_forget(OclKept *k, const void *key) {
  for (int i = 0; i < k->n; i++)
    if (k->items[i].key == key) { free(k->items[i].log); k->items[i] = k->items[--k->n]; return; }
}
