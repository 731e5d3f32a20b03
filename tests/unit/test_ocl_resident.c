/* test_ocl_resident.c — the grid cap's estimate of resident work-groups on
   OpenCL (runtime/opencl_device.c, opencl_resident_groups): CLIFT_OCL_RESIDENT's
   work-items a compute unit, and on NVIDIA's OpenCL what the kernel's registers
   allow, read back from its largest work-group. The register counts are those
   ptxas reported for FCL's chunk kernels on an H100 (bench/gpu/session17). */
#include "check.h"
#include "runtime/opencl.h"

/* CL_KERNEL_WORK_GROUP_SIZE of a kernel of r registers on an SM of 65536 */
static size_t kernel_max(unsigned r) {
  unsigned r8 = (r + 7) / 8 * 8;
  size_t max = 32 * (65536 / (32 * r8));
  return max > 1024 ? 1024 : max;
}

int main(void) {
  /* no register information (PoCL, another vendor): the work-items' cap alone */
  CHECK(opencl_resident_groups(2048, 256, 0, 1024, 4096) == 8, "2048 work-items: 8 groups of 256");
  CHECK(opencl_resident_groups(2048, 100, 0, 1024, 4096) == 20, "20 groups of 100");
  CHECK(opencl_resident_groups(2048, 4096, 0, 4096, 4096) == 1, "at least one group");
  /* the largest group is the device's: registers not limiting, nothing learnt */
  CHECK(opencl_resident_groups(2048, 256, 65536, 1024, 1024) == 8, "at most 64 registers: 8 groups");
  /* scan's chunk kernel at 2 chunks (74 registers: 3 groups), at 4 (120: 2),
     reduce's at 4 (70: 3) */
  CHECK(kernel_max(74) == 800 && kernel_max(120) == 544 && kernel_max(70) == 896, "the model of the driver's answer");
  CHECK(opencl_resident_groups(2048, 256, 65536, kernel_max(74), 1024) == 3, "74 registers: %zu groups",
        opencl_resident_groups(2048, 256, 65536, kernel_max(74), 1024));
  CHECK(opencl_resident_groups(2048, 256, 65536, kernel_max(120), 1024) == 2, "120 registers: 2 groups");
  CHECK(opencl_resident_groups(2048, 256, 65536, kernel_max(70), 1024) == 3, "70 registers: 3 groups");
  /* the work-items' cap still applies below the registers' */
  CHECK(opencl_resident_groups(512, 256, 65536, kernel_max(74), 1024) == 2, "CLIFT_OCL_RESIDENT=512: 2 groups");
  /* every register count from 65 to 255: the estimate never above the truth */
  for (unsigned r = 65; r <= 255; r++) {
    size_t truth = 65536 / ((r + 7) / 8 * 8 * 256);
    size_t got = opencl_resident_groups(2048, 256, 65536, kernel_max(r), 1024);
    CHECK(got == (truth > 0 ? truth : 1), "%u registers: %zu groups, %zu fit", r, got, truth);
  }
  return CHECK_DONE("ocl_resident");
}
