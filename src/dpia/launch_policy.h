/* launch_policy.h — the default launch sizes of a device kernel (SPEC §6:
   grid-stride loops make any size correct, so these are only defaults), as ONE
   piece of C that clift both compiles (plan_launch_size, plan.c) and prints
   into the host files of `clift compile -t opencl` (plan_launch_policy_c), so
   the two can never disagree.

   From the kernel's parallel loops (level 0 global, 1 work-group, 2 local;
   dimension; iteration count, -1 when it depends on an outer loop): per
   dimension, a mapLcl count (rounded down to a power of two, ≤ 256: a padded
   row of 33 gives 32) is the work-group size and a mapWrg count (≤ 65536) the
   number of groups; mapGlb alone gets groups of up to 64 covering up to 2^20
   work-items. The work-group is then halved, largest dimension first and the
   contiguous dimension 0 last on ties, until it has at most min(max_local, 256)
   work-items: 64×64 → 16×16 for a 2-D mapGlb, 32×32 → 16×16 for a transpose
   tile. (Measured on an H200: 16×16 beat 64×4 and 32×8 for the register-blocked
   sgemm by 14% and for the tiled transpose by 4%; jacobi was unchanged.) Returns the number of dimensions;
   no loops (a single-work-item kernel) gives 1 × 1.

   clift_launch_override then applies given sizes (--local-size/--global-size,
   or a tuned configuration; zeros: keep the default) dimension by dimension,
   in the dimensions the kernel's loops use only (a dimension none uses stays
   1 × 1: its work-items would all run the same iterations, racing on what each
   keeps in memory; difftest FINDINGS F21); the dimensions left alone are then
   halved, largest first, until the work-group fits max_local. -1: the given
   sizes alone are too large.

   Level 3 is a mapLcl loop whose work-group size is pinned to its count
   (one iteration per work-item: an accumulator kept in registers,
   dpia/privatise.c): clift_launch_size gives that dimension exactly the
   count and never halves it; clift_launch_pinned then tells whether the
   final sizes (after any override) still have it, and fit max_local. */
#ifndef CLIFT_LAUNCH_POLICY_H
#define CLIFT_LAUNCH_POLICY_H
#include <stddef.h>

#define PLAN_LAUNCH_POLICY \
static int clift_launch_size(int n, const int *level, const int *dim, const long long *count, \
                             size_t max_local, size_t local[3], size_t groups[3]) { \
  long long glb[3] = {0, 0, 0}, wrg[3] = {0, 0, 0}, lcl[3] = {0, 0, 0}, pin[3] = {0, 0, 0}; \
  int dims = 1; \
  for (int i = 0; i < n; i++) { \
    long long c = count[i] < 0 ? 64 : count[i]; \
    long long *slot = level[i] == 0 ? glb : level[i] == 1 ? wrg : lcl; \
    int d = dim[i] >= 0 && dim[i] < 3 ? dim[i] : 0; \
    if (c > slot[d]) slot[d] = c; \
    if (level[i] == 3 && c > pin[d]) pin[d] = c; \
    if (d + 1 > dims) dims = d + 1; \
  } \
  for (int d = 0; d < 3; d++) { \
    long long l = 1; \
    if (lcl[d]) { \
      while (l * 2 <= lcl[d] && l * 2 <= 256) l *= 2; \
    } else if (glb[d]) { \
      l = glb[d] < 64 ? glb[d] : 64; \
    } \
    local[d] = (size_t)(pin[d] ? pin[d] : l); \
  } \
  if (max_local < 1) max_local = 1; \
  if (max_local > 256) max_local = 256; \
  while (local[0] * local[1] * local[2] > max_local) { \
    int big = -1; \
    for (int d = 2; d >= 0; d--) \
      if (!pin[d] && local[d] > 1 && (big < 0 || local[d] > local[big])) big = d; \
    if (big < 0) break; \
    local[big] = (local[big] + 1) / 2; \
  } \
  /* groups after the work-group shape is final, so that a mapGlb still covers \
     up to 2^20 work-items per dimension */ \
  for (int d = 0; d < 3; d++) { \
    long long g = 1, l = (long long)local[d]; \
    if (lcl[d] || (!glb[d] && wrg[d])) { \
      g = wrg[d] ? (wrg[d] < 65536 ? wrg[d] : 65536) : 1; \
    } else if (glb[d]) { \
      long long all = glb[d] < (1 << 20) ? glb[d] : (1 << 20); \
      g = (all + l - 1) / l; \
    } \
    groups[d] = (size_t)(g > 0 ? g : 1); \
  } \
  return dims; \
} \
static int clift_launch_override(int n, const int *dim, int dims, size_t max_local, const size_t *given_local, \
                                 const size_t *given_global, size_t local[3], size_t groups[3]) { \
  int used[3] = {0, 0, 0}; \
  size_t global[3], fixed = 1; \
  if (n == 0) return dims; \
  for (int i = 0; i < n; i++) if (dim[i] >= 0 && dim[i] < 3) used[dim[i]] = 1; \
  for (int d = 0; d < 3; d++) { \
    global[d] = local[d] * groups[d]; \
    if (!used[d]) continue; \
    if (given_local[d]) { local[d] = given_local[d]; fixed *= local[d]; } \
    if (given_global[d]) global[d] = given_global[d]; \
    if ((given_local[d] || given_global[d]) && d + 1 > dims) dims = d + 1; \
  } \
  if (max_local < 1) max_local = 1; \
  if (fixed > max_local) return -1; \
  while (local[0] * local[1] * local[2] > max_local) { \
    int big = -1; \
    for (int d = 0; d < 3; d++) \
      if (!given_local[d] && local[d] > 1 && (big < 0 || local[d] > local[big])) big = d; \
    local[big] = (local[big] + 1) / 2; \
  } \
  for (int d = 0; d < 3; d++) { \
    groups[d] = (global[d] + local[d] - 1) / local[d]; \
    if (groups[d] == 0) groups[d] = 1; \
  } \
  return dims; \
}

/* Do the final sizes keep every pinned loop's dimension at its count
   (level 3), within max_local? 0 yes, -1 no. */
#define PLAN_LAUNCH_PINNED \
static int clift_launch_pinned(int n, const int *level, const int *dim, const long long *count, \
                               size_t max_local, const size_t local[3]) { \
  for (int i = 0; i < n; i++) \
    if (level[i] == 3 && dim[i] >= 0 && dim[i] < 3 && (long long)local[dim[i]] != count[i]) return -1; \
  return local[0] * local[1] * local[2] > max_local ? -1 : 0; \
}

#endif
