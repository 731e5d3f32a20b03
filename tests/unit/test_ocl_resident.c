/* test_ocl_resident.c — the grid cap's estimate of resident work-groups on
   OpenCL (runtime/opencl_device.c): CLIFT_OCL_RESIDENT's work-items a compute
   unit, and on NVIDIA's OpenCL what the kernel's registers allow, its count read
   from the build log (-cl-nv-verbose). The register counts are those ptxas
   reported for FCL's chunk kernels on an H100 (bench/gpu/session17). */
#include "check.h"
#include <string.h>
#include "runtime/opencl.h"

/* a log in the shape NVIDIA's OpenCL writes with -cl-nv-verbose */
static const char *LOG =
  "ptxas info    : 0 bytes gmem\n"
  "ptxas info    : Compiling entry function 'k0' for 'sm_90a'\n"
  "ptxas info    : Function properties for k0\n"
  "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 40 registers, used 1 barriers, 4112 bytes smem, 400 bytes cmem[0]\n"
  "ptxas info    : Compiling entry function 'k0_v256' for 'sm_90a'\n"
  "ptxas info    : Function properties for k0_v256\n"
  "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
  "ptxas info    : Used 74 registers, used 1 barriers, 8208 bytes smem, 400 bytes cmem[0]\n"
  "ptxas info    : Compiling entry function 'k1' for 'sm_90a'\n"
  "ptxas info    : Function properties for k1\n";

/* the device's tables outlive every program: a log kept while one program's
   arena was live is still there, unchanged, after the arena is released and
   reused by the next programs (clift test ran ~250 programs on NVIDIA's OpenCL,
   then died of SIGSEGV) */
static void kept_outlives_the_arena(void) {
  OclKept k = { 0 };
  int progs[40], kerns[40];
  for (int i = 0; i < 40; i++) {
    ArenaMark m = arena_mark();
    char *log = arena_printf("%sprogram %d", LOG, i);   /* the build log lives in the arena */
    CHECK(opencl_keep(&k, &progs[i], log, 0), "keep program %d", i);
    CHECK(opencl_keep(&k, &kerns[i], NULL, opencl_log_registers(log, "k0_v256") + i), "keep kernel %d", i);
    arena_release(m);
    memset(arena_alloc(1 << 16), 0x5a, 1 << 16);   /* the next program reuses the arena */
  }
  for (int i = 0; i < 40; i++) {
    const OclKeptItem *p = opencl_kept(&k, &progs[i]), *q = opencl_kept(&k, &kerns[i]);
    CHECK(p && p->log && opencl_log_registers(p->log, "k0") == 40 && strstr(p->log, arena_printf("program %d", i)),
          "program %d's log kept", i);
    CHECK(q && !q->log && q->regs == 74 + i, "kernel %d's registers kept: %d", i, q ? q->regs : -1);
  }
  for (int i = 0; i < 40; i += 2) opencl_forget(&k, &progs[i]);
  CHECK(!opencl_kept(&k, &progs[0]) && opencl_kept(&k, &progs[1]) && opencl_kept(&k, &kerns[0]), "forgotten alone");
  CHECK(k.n == 60, "60 items left: %d", k.n);
  CHECK(!opencl_kept(&k, &k), "an unknown handle");
}

int main(void) {
  kept_outlives_the_arena();
  /* the log: each kernel its own line, a prefix of another name not taken for it,
     a kernel whose count the log lacks, or absent, 0 */
  CHECK(opencl_log_registers(LOG, "k0") == 40, "k0: %d", opencl_log_registers(LOG, "k0"));
  CHECK(opencl_log_registers(LOG, "k0_v256") == 74, "k0_v256: %d", opencl_log_registers(LOG, "k0_v256"));
  CHECK(opencl_log_registers(LOG, "k1") == 0, "k1 has no count");
  CHECK(opencl_log_registers(LOG, "k2") == 0 && opencl_log_registers(NULL, "k0") == 0, "no entry, no log");
  CHECK(opencl_log_registers("", "k0") == 0, "an empty log (PoCL)");
  /* no register information (PoCL, another vendor, a kernel the log lacks):
     the work-items' cap alone */
  CHECK(opencl_resident_groups(2048, 256, 0, 74) == 8, "no registers an SM: 8 groups of 256");
  CHECK(opencl_resident_groups(2048, 256, 65536, 0) == 8, "no kernel count: 8 groups of 256");
  CHECK(opencl_resident_groups(2048, 100, 0, 0) == 20, "20 groups of 100");
  CHECK(opencl_resident_groups(2048, 4096, 0, 0) == 1, "at least one group");
  /* scan's chunk kernel at 2 chunks (74 registers: 3 groups of 256), at 4 (120: 2),
     reduce's at 4 (70: 3), at 1 (29: 8, the work-items' cap) */
  CHECK(opencl_resident_groups(2048, 256, 65536, 74) == 3, "74 registers: %zu groups", opencl_resident_groups(2048, 256, 65536, 74));
  CHECK(opencl_resident_groups(2048, 256, 65536, 120) == 2, "120 registers: 2 groups");
  CHECK(opencl_resident_groups(2048, 256, 65536, 70) == 3, "70 registers: 3 groups");
  CHECK(opencl_resident_groups(2048, 256, 65536, 29) == 8, "29 registers: 8 groups");
  /* the work-items' cap still applies below the registers' */
  CHECK(opencl_resident_groups(512, 256, 65536, 74) == 2, "CLIFT_OCL_RESIDENT=512: 2 groups");
  /* every count: the registers rounded up to 8, never more groups than fit */
  for (int r = 1; r <= 255; r++) {
    size_t fit = 65536 / ((size_t)(r + 7) / 8 * 8 * 256), want = fit > 8 ? 8 : fit > 0 ? fit : 1;
    CHECK(opencl_resident_groups(2048, 256, 65536, r) == want, "%d registers: %zu groups, want %zu", r,
          opencl_resident_groups(2048, 256, 65536, r), want);
  }
  return CHECK_DONE("ocl_resident");
}
