/* plan.h — the host plan of the device targets (SPEC §6): the kernel body cut
   into device kernels at top level, with what each one needs from the host
   (its buffers, its per-work-group local memory, the loops that choose its
   launch size), and barriers where work-items of a group share memory.
   Backend-neutral: opencl prints it today, cuda will too. */
#ifndef CLIFT_PLAN_H
#define CLIFT_PLAN_H
#include "kernel.h"

typedef struct PlanKernel {
  const char *name;        /* k0, k1, … in launch order */
  KStmt *body;             /* a block of consecutive top-level statements */
  bool single;             /* no parallel loop: run by one work-item */
  int nbufs; Buffer **bufs;           /* global buffers it touches, kernel order */
  int nlocals; Buffer **locals;       /* local-memory buffers, one copy per work-group */
  Nat **local_counts;                 /* elements of each, per work-group (constant, or dynamic below) */
  /* per local: 0 for a constant count (declared in the kernel), else the bytes
     of an element of one sized at launch (Kernel.dynamic_locals): a kernel
     argument after the error cell, count × these bytes (a scalar or a vector
     of 2, 4, 8 or 16 lanes: the same size on host and device) */
  int *local_dynamic;
  int nloops; KStmt **loops;          /* its parallel loops: their counts size the launch */
  int nvars; NatVar **vars;           /* the host loops around it: their variables are arguments */
  /* per program size (Program.sizes), then per variable of `vars`: whether the
     kernel's text names it, set by the printer (codegen_mark_sizes); only those
     are its arguments, so that a program of many run-time lengths (counts read
     back) does not pass all of them to every later kernel (fuzz F7: code
     quadratic in the statements). NULL: all of them. */
  bool *sizes_used;
  /* > 0: the launch policy's work-group size for it (1-D; Kernel.local_versions):
     cuda prints its body twice, for a block of that size (its mapLcl loops in their
     fixed-size forms: constant steps, ifs) and for any other (codegen_kernel_body) */
  long long version_local;
  bool stage_reads;   /* Kernel.stage_reads: the fixed-size version reads one chunk ahead */
  bool stage_and_prefetch;   /* Kernel.stage_and_prefetch: … and asks L2 for the chunk after next */
  /* > 0 (Kernel.resident_waves; a kernel of work-group and mapLcl loops only):
     the launch gives it at most this many times the work-groups the device
     keeps resident at once (DeviceApi.resident; none: the policy's number),
     so that each group runs many chunks of its loop, and the staged or
     prefetched reads of the next chunk cover all but the first. Any number
     of groups is correct (grid-stride loops); --global-size overrides it. */
  int resident_waves;
} PlanKernel;

/* What the host does, in order: launch a kernel, run a host loop (an iterate
   at the top of the program) around steps of its own, or read back a count
   that a kernel computed (an iterate's run-time count) and bind it. */
typedef enum { STEP_LAUNCH, STEP_LOOP, STEP_COUNT } PlanStepKind;
typedef struct PlanStep {
  PlanStepKind kind;
  int kernel;                  /* LAUNCH: kernels[kernel] */
  KStmt *loop;                 /* LOOP: loop->var over [0, loop->count), around */
  int n; struct PlanStep *steps;
  NatVar *var; Buffer *cell;   /* COUNT: var := max(0, cell[0]), an int the last kernel wrote */
} PlanStep;

typedef struct Plan {
  Kernel *k;
  int n; PlanKernel *kernels;
  int nsteps; PlanStep *steps;
} Plan;

/* Split k's body: each top-level statement holding a parallel loop is one
   kernel; runs of other top-level statements are one single-work-item kernel;
   a host loop (KStmt.host) holding parallel loops becomes a loop step whose
   body is split the same way.
   Local buffers lose their work-group index; barriers are inserted.
   NULL + diag (DIAG_UNSUPPORTED: the driver names the target) for what the
   plan cannot express. */
Plan *plan_build(Kernel *k);
/* Whether the kernel takes size i (i < Program.nsizes) or variable i - nsizes of
   its `vars` as an argument (PlanKernel.sizes_used). */
bool plan_kernel_takes_size(const PlanKernel *pk, int i);
/* A peeled stencil's sections (one-kernel blocks) as loop nests of their
   own: a grid loop around them split into one loop per section, a border
   section outside (plan_nests.c). Called by plan_build. */
void plan_split_sections(KStmt *body);

/* SPEC §6: --local-size / --global-size replace the defaults (grid-stride
   loops make any size correct); 0 in a dimension keeps the default there. */
typedef struct LaunchSizes { size_t local[3], global[3]; } LaunchSizes;

/* Launch sizes for a kernel, its loop counts evaluated with `lookup` (sizes
   bound): the defaults, then the user's `given` sizes (NULL: none);
   work-items per group and number of groups per dimension; returns the
   number of dimensions, or -1 with a diagnostic when the user's --local-size
   exceeds max_local. A single-work-item kernel gets 1 × 1. */
int plan_launch_size(PlanKernel *pk, NatLookup lookup, void *ctx, size_t max_local, const LaunchSizes *given,
                     size_t local[3], size_t groups[3]);
/* The same policy as C source, for generated host files: a function
   `static int clift_launch_size(int n, const int *level, const int *dim,
   const long long *count, size_t max_local, size_t local[3], size_t groups[3])`
   taking the loops' levels (plan_level_code), dimensions and counts (-1: depends
   on an outer loop). launch_policy.h */
const char *plan_launch_policy_source(void);
int plan_level_code(const KStmt *loop);   /* 0 global, 1 work-group, 2 local, 3 local pinned to its count */
const char *plan_pinned_shape(int n, const int *level, const int *dim, const long long *count);

/* Barriers (SPEC §4.2): after a statement whose mapLcl loops write memory that
   a later statement of the same work-group body reads. barrier.c */
void plan_insert_barriers(KStmt *body);
/* A barrier whose conflicting accesses are all within warps (warp.c): its
   KS_BARRIER dim has BARRIER_WARP besides the local fence; cuda prints
   __syncwarp() where the block's warps are whole. Kernel.warp_barriers (FCL). */
enum { BARRIER_WARP = 4 };
void plan_warp_barriers(KStmt *body);
/* Kernel.last_group: a top-level reduce's one-group pass over the partials
   moved into the first pass's kernel (dpia/last_group.c). */
void plan_fuse_last_group(Kernel *k);
/* Kernel.batch_groups: a work-group loop of mapLcl loops and barriers runs k
   of its iterations in one, each in local buffers of its own, sharing the
   barriers (after the barriers; PlanKernel.loops stay its loops); local_cap
   > 0: k halved while k times the kernel's local memory passes it. batch.c */
void plan_batch_groups(PlanKernel *pk, int k, long long local_cap);
/* Kernel.prefetch: a work-group loop's first mapLcl loop also asks L2 for the
   reads of the group's next chunk (KStmt.prefetch; printed by cuda only). prefetch.c */
void plan_prefetch(KStmt *body);
/* Kernel.local_versions: pk->version_local when its mapLcl loops are all of
   dimension 0, unpinned, of constant counts. plan.c */
void plan_version_local(PlanKernel *pk);
/* Register-staged prefetch (pipeline.c): a work-group's sequential loop whose
   body reads global memory into local memory before a barrier reads the next
   step's values into private stages during the compute; with double_buffer,
   also two halves of its local tiles, one barrier per step. After the barriers. */
void plan_pipeline(PlanKernel *pk, bool double_buffer);
/* The work-group size that the pinned mapLcl loops of s fix, per dimension
   (0 where none; launch_policy.h level 3). */
void plan_pinned_sizes(KStmt *s, long long size[3]);
/* Does s take a number from a counter (CE_ATOMIC_INC: the one pass's tile)? */
bool plan_has_atomic(KStmt *s);
/* --unroll: marks the sequential loops of a constant count from 2 to 32 steps
   (KStmt.unroll; pipeline.c). */
void plan_unroll(KStmt *s);

#endif
