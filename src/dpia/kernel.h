/* kernel.h — the imperative program every backend prints (DPIA after stages
   I–III): statements (declarations, assignments, loops tagged with the level
   they run at, conditionals, barriers) over scalar C-level expressions whose
   array accesses are already flattened to one simplified index (SPEC §5).
   Backends differ only in how they print loops, address spaces and vector
   accesses (STYLE: "backends share everything but printing"). */
#ifndef CLIFT_KERNEL_H
#define CLIFT_KERNEL_H
#include "../prim/ops.h"
#include "../types/type.h"

typedef struct Program Program;   /* src/syntax/ast.h: its sizes, parameters and result */

typedef struct CExp CExp;
typedef struct KStmt KStmt;

typedef enum {
  CE_LIT,      /* scalar literal of `type` (ival/fval) */
  CE_NAT,      /* the value of a nat (sizes, loop variables, index arithmetic) */
  CE_VAR,      /* a named scalar/vector variable (private) */
  CE_READ,     /* buf[index] (.field when field >= 0) */
  CE_VLOAD,    /* width consecutive scalars of buf from index, as a vector */
  CE_LANE,     /* lane `lane` (a nat) of vector args[0] */
  CE_OP,       /* scalar operator op on args[0..n-1] */
  CE_SELECT,   /* args[0] ? args[1] : args[2] */
  CE_NAT_LT,   /* nat a < nat b, as a bool */
  CE_VEC,      /* a vector built from its lanes args[0..n-1] */
  CE_ATOMIC_INC, /* buf[index] += 1 atomically (an int cell); the value before (lookback.c) */
  CE_STATUS,    /* a long: flag args[0] (an int) in the high 32 bits, the bits of the 4-byte
                   value args[1] (int or float) in the low ones: one store publishes both */
  CE_STATUS_FLAG,  /* the flag of status word args[0] */
  CE_STATUS_VALUE, /* the value (of `type`) of status word args[0] */
  CE_SHFL_UP,      /* args[0] of the lane `ival` below this one in its warp, its own below
                      lane 0 (cuda only: lookback.c's scan of the group's partials) */
  CE_SHFL_DOWN,    /* args[0] of the lane `ival` above this one in its warp, its own past
                      the last lane (cuda only: lookback.c's warp-wide look-back) */
  CE_WARP_FIRST,   /* an int: 1 + the lowest lane of the warp where the bool args[0] holds,
                      0 where none does (cuda's __ffs(__ballot_sync(…)); lookback.c) */
  CE_SLEEP         /* an int 0, once the work-item has slept about `ival` ns (cuda's
                      __nanosleep; nothing elsewhere): lookback.c's back-off */
} CExpKind;

typedef struct Buffer {
  const char *name;
  Type *type;          /* the array (or scalar) type it stores, row-major */
  Type *scalar;        /* its element type after flattening: a scalar, vector or tuple */
  Nat *count;          /* number of `scalar` elements */
  AddrSpace space;
  bool is_param;       /* program input or output (index 0) */
  int param_index;     /* buffers[param_index] in the entry function */
  /* A parameter or result that is a tuple holding arrays is stored field
     after field (layout/layout.c): its buffer (`split`) is never
     accessed itself; each field is a buffer of its own with `base` the
     parameter's buffer and `offset` its byte offset there. */
  bool split;
  struct Buffer *base;
  Nat *offset;
  /* A private buffer partitioned by mapLcl (dpia/privatise.c): the array
     `part_k` dimensions deeper than `type`, whose outer indices are the
     variables of mapLcl loops of dimensions part_dim over part_n elements,
     one work-item each: every work-item keeps only its own element. */
  int part_k; int part_dim[3]; long long part_n[3];
} Buffer;

struct CExp {
  CExpKind kind;
  Type *type;          /* scalar or vector type of the value */
  long long ival; double fval;
  Nat *nat, *nat2;     /* NAT, LANE (lane), READ/VLOAD (index), NAT_LT */
  const char *name;    /* VAR */
  Buffer *buf;         /* READ, VLOAD */
  int field;           /* READ: tuple field of an array-of-structs element, or -1 */
  int nsub; int *sub;  /* READ: fields of nested tuples below `field` (.f0.f1 …) */
  ScalarOp op;
  int n;
  CExp **args;
  /* READ (also as an ASSIGN's lhs): through a volatile pointer, so that every
     access reaches memory that other work-groups write (lookback.c) */
  bool is_volatile;
};

typedef enum { KS_BLOCK, KS_DECL, KS_ASSIGN, KS_FOR, KS_IF, KS_WHILE, KS_BARRIER, KS_COUNT } KStmtKind;
typedef struct KStmt KStmt;
/* Does s hold a loop that is not sequential (plan.c)? */
bool kstmt_has_parallel_loop(KStmt *s);

struct KStmt {
  KStmtKind kind;
  /* BLOCK; one_kernel: its parallel loops are independent (a stencil's peeled
     sections, peel.c): one device kernel, not one per statement (plan.c) */
  int n, cap; KStmt **stmts;
  bool one_kernel;
  /* BLOCK: printed in braces, so that its declarations are its own (a lazy
     map's element read again declares the same names: view.c, FINDINGS F47) */
  bool scope;
  /* DECL: a private variable (buf == NULL: scalar `name` of `type`, init optional)
     or a buffer (temporary array) */
  Buffer *buf; const char *name; Type *type; CExp *init;
  /* ASSIGN: lhs (a CE_READ, CE_VAR, CE_VLOAD or CE_LANE lvalue) = rhs */
  CExp *lhs, *rhs;
  /* FOR: for var in [0, count) at `level` (LEVEL_SEQ for mapSeq/reduceSeq loops);
     `host`: a sequential loop whose steps may be kernels of their own (iterate):
     at the top of a device program the host runs it around their launches */
  PrimLevel level; int dim; NatVar *var; Nat *count; KStmt *body; bool host;
  /* FOR at LEVEL_LCL: `pinned` when the work-group's size in `dim` must be
     `count` (one iteration per work-item: a partitioned private buffer,
     dpia/privatise.c; launch_policy.h level 3) */
  bool pinned;
  /* FOR at LEVEL_SEQ: `unroll` prints `#pragma unroll` before it on the
     device targets (--unroll, dpia/pipeline.c) */
  bool unroll;
  /* FOR at LEVEL_LCL: `unsized` when its count does not size the work-group
     (the borders of a padded local tile, a few elements that any work-group
     writes: rules_map.c); the launch policy ignores it (plan.c) */
  bool unsized;
  /* FOR at LEVEL_LCL: printed as a loop striding by the work-group's size
     even where the launch pins that size (codegen_lcl_form's forms otherwise):
     lookback.c's CLIFT_LB_LOOPS. With the pinned form, NVRTC (CUDA 13.0) gives
     the one pass 99-110 registers, with the loops 40 (docs/performance.md) */
  bool stride;
  /* FOR at LEVEL_LCL, the first statement of work-group loop `prefetch_wrg`:
     reads (copies, their indices at prefetch_next, the loop's next chunk) that
     cuda asks the L2 cache for at the top of the body (dpia/prefetch.c) */
  CExp **prefetch; int nprefetch; KStmt *prefetch_wrg; NatVar *prefetch_next;
  int prefetch_ahead;  /* chunks ahead: prefetch_next is the loop's variable + this × the groups (0: 1) */
  CExp **prefetched;   /* the reads themselves, at this chunk (the staged form, codegen/fixed_size.c) */
  /* FOR at LEVEL_GLB on the device targets: work-item g starts at iteration
     g - shift (those below 0 skip it), so that a peeled stencil's interior,
     which starts at position `shift`, has work-item x compute position x as
     the unpeeled loop does (--peel-aligned, peel.c); 0: g */
  long long shift;
  /* ASSIGN in a parallel loop: `disjoint` when its places differ between
     iterations by construction though its index does not show it (the
     parallel filter's writes from offsets a scan computed): race.c trusts it */
  bool disjoint;
  /* FOR at LEVEL_WRG: the one work-group of a top-level reduce's pass over
     the partials (lower.c, Expr.last_group; dpia/last_group.c) */
  bool last_group;
  /* IF */
  CExp *cond; KStmt *then_, *else_;
  /* WHILE (whileSeq): a loop of the current thread; each step runs then_ (the
     commands cond needs, often none), leaves unless cond holds, then runs body.
     then_ rather than a field of its own, so that every walk over
     body/then_/else_ sees those commands. `loc`: the whileSeq, for errors. */
  Loc loc;
  /* BARRIER: `dim` holds the memory fences, 1 local | 2 global, and 4
     (BARRIER_WARP, plan.h) when the threads of a warp are all it orders */
  /* COUNT: the size variable `var` := max(0, init), an int computed at run time
     (iterate's run-time count); later statements use it in their nats */
};

/* A run-time check in generated code (SPEC §8): an aref's range, an integer
   division's divisor. The first failing check writes its site number (1-based
   index into Kernel.sites) and two values (the index and the length) into the
   error cell, int32 cell[5] = { site, lo(a), hi(a), lo(b), hi(b) }; the host
   turns that into the positioned message (runtime/check_report.c). */
/* CHECK_SEQFOR_READ / _UNWRITTEN (FCL's seqfor, fcl/compile.c): an index check
   of -1 - k against 1 that fails for element k */
typedef enum { CHECK_AREF = 1, CHECK_DIV, CHECK_MOD, CHECK_F2I, CHECK_D2I, CHECK_IOTA, CHECK_FACTORIAL, CHECK_BINOMIAL,
               CHECK_SEQFOR_READ, CHECK_SEQFOR_UNWRITTEN,
               CHECK_FCL_INDEX /* FCL's index (rule 5.61), worded as its interpreter */,
               CHECK_APL_INDEX /* TAIL's index(i, a): the aref of i - 1, reported 1-based */,
               CHECK_LENGTH /* checkLength: the two lengths */ } CheckKind;
typedef struct CheckSite { Loc loc; CheckKind kind; } CheckSite;
enum { CHECK_CELL_INTS = 5 };

/* A whole program: the entry's buffers, the hoisted temporaries, the body. */
typedef struct Kernel {
  Program *prog;
  int nbufs; Buffer **bufs;          /* params: [0] output, [1..] inputs; then temporaries */
  int capbufs;                       /* of bufs (ARENA_PUSH) */
  int nscalars; const char **scalar_names; Type **scalar_types; int *scalar_params;  /* scalar inputs */
  KStmt *body;
  int nsites; CheckSite *sites;      /* run-time checks, site k + 1 = sites[k] */
  /* decisions of the translation the reader should see (a stencil left
     unpeeled by the cost rule, peel.c): comment lines at the top of the code */
  int nnotes; const char **notes;
  bool pipeline, double_buffer, unroll;   /* GenOptions' (dpia/pipeline.c, device targets) */
  bool warp_barriers;   /* barriers a warp suffices for print as warp barriers (dpia/warp.c; FCL) */
  bool prefetch;        /* the next chunk's reads prefetched into L2 on cuda (dpia/prefetch.c; FCL, opt-in) */
  bool stage_reads;     /* … and, in a fixed-size version, read into registers one chunk ahead (codegen/fixed_size.c) */
  bool stage_and_prefetch;   /* … staged, and the chunk after next asked of L2 (CLIFT_FCL_PREFETCH=both) */
  bool local_versions;  /* cuda: a kernel's body also for its default block size (plan_version_local; FCL) */
  int batch_groups;     /* > 1: a chunk loop runs this many work-groups' bodies in one (dpia/batch.c; FCL) */
  long long batch_local_cap;   /* > 0: batch_groups halved while the chunks' local memory passes these bytes (the default's rule) */
  /* local memory whose size is known only at launch (toLocal of a row of N
     elements) passed as a kernel argument sized by the host (opencl: a __local
     pointer set with clSetKernelArg(size, NULL), plan.c locals_sized); false:
     refused, "local memory of non-constant size" (cuda, not yet run on a GPU) */
  bool dynamic_locals;
  /* a top-level reduce's pass over the partials run by the work-group that
     finishes the first pass's last chunk, in its kernel (dpia/last_group.c): cuda */
  bool last_group;
  int resident_waves;   /* > 0: a chunk kernel's blocks capped at this many device-fulls (PlanKernel; FCL); -1: 1 for chunk kernels passing several barriers a chunk, 0 for the others (plan.c chunk_barriers) */
} Kernel;

/* Add a note (once: a section translated several times repeats it). */
void kernel_note(Kernel *k, const char *note);

/* Append a buffer to k->bufs (parameters, temporaries, shared values). */
void kernel_add_buffer(Kernel *k, Buffer *b);
/* A new buffer of k (a temporary: no parameter, its scalar and count filled later). */
Buffer *kernel_new_buffer(Kernel *k, const char *name, Type *type, AddrSpace space);
/* Where the memory of b is in k->bufs: its own index, or its base's for a
   field of a split tuple (runtimes create one device buffer per index). */
int kernel_buffer_index(const Kernel *k, const Buffer *b);

/* Register a run-time check; returns its site number (≥ 1) as a literal. */
CExp *kernel_check_site(Kernel *k, Loc loc, CheckKind kind);

/* constructors */
CExp *cexp_lit_int(long long v);
CExp *cexp_nat(Nat *n);
CExp *cexp_var(const char *name, Type *t);
CExp *cexp_op(ScalarOp op, Type *t, int n, CExp **args);
CExp *cexp_read(Buffer *b, Nat *index, int field, Type *t);
CExp *cexp_read_volatile(Buffer *b, Nat *index, Type *t);
CExp *cexp_nat_lt(Nat *a, Nat *b);   /* a < b, a bool */
CExp *cexp_atomic_inc(Buffer *b, Nat *index);   /* an int: the cell's value before; ival 1: a device-wide fence first */
CExp *cexp_status(CExp *flag, CExp *value);      /* CE_STATUS */
CExp *cexp_status_flag(CExp *word);
CExp *cexp_status_value(CExp *word, Type *t);
CExp *cexp_shfl_up(CExp *x, int delta);
CExp *cexp_shfl_down(CExp *x, int delta);
CExp *cexp_warp_first(CExp *cond);
CExp *cexp_sleep(long long ns);
/* Bounds lo ≤ e ≤ hi of an int or long expression of literals, nats (loop
   variables, sizes) and + - * / % min max casts and selects, where every step
   provably stays within its type's range; false when unknown. */
bool cexp_bounds(CExp *e, Nat **lo, Nat **hi);
/* A loop of no iteration (its count provably 0: rows of extent 0): it writes nothing. */
bool kstmt_never_runs(const KStmt *s);
/* Does s write buffer b (or another field of its parameter: the same base), loops
   of no iteration aside? */
bool kstmt_writes(KStmt *s, Buffer *b);
/* The one walk of a statement tree (kernel.c): s, a block's statements in
   order, then body, then_ and else_, depth first; true as soon as fn says so
   (a visit whose fn always returns false sees every statement). */
bool kstmt_any(KStmt *s, bool (*fn)(KStmt *s, void *cx), void *cx);
/* The same over every node of every expression (init, lhs, rhs, cond) of
   those statements, each node before its arguments. */
bool kstmt_any_node(KStmt *s, bool (*fn)(CExp *e, void *cx), void *cx);
bool cexp_any_node(CExp *e, bool (*fn)(CExp *e, void *cx), void *cx);
KStmt *kstmt_block(void);
void kstmt_add(KStmt *block, KStmt *s);
KStmt *kstmt_assign(CExp *lhs, CExp *rhs);
/* if (cond) then_ else else_; a NULL branch is a new empty block. */
KStmt *kstmt_if(CExp *cond, KStmt *then_, KStmt *else_);
KStmt *kstmt_for(PrimLevel level, int dim, NatVar *var, Nat *count, KStmt *body);

/* How to translate (options as data, parsed once by the command line). */
typedef enum {
  PEEL_AUTO,     /* strategy-free stencils `map f (slide (pad …))` are peeled (the default strategy) */
  PEEL_ALWAYS,   /* --peel: explicit strategies (mapGlb, mapSeq) over such windows too */
  PEEL_NEVER,    /* --no-peel */
  PEEL_ALL       /* --peel=all: as --peel, whatever the device cost rule says (peel.c) */
} PeelMode;
typedef struct GenOptions {
  PeelMode peel;
  /* the device targets (opencl, cuda): a stencil's dimension is peeled only
     where the GPU cost rule says it can win (peel.c, docs/performance.md) */
  bool device;
  /* the device an opencl run opened is not a GPU (PoCL on the CPU): the GPU
     cost rule does not apply (driver_run) */
  bool cpu_device;
  /* --peel-aligned (for measuring): a peeled interior's work-items at the
     positions the unpeeled loop gives them (KStmt.shift) */
  bool peel_aligned;
  /* the top-level filter and scan in one pass with decoupled look-back
     between work-groups (dpia/lookback.c): set by the driver for the device
     targets, whose started work-groups run to completion */
  bool single_pass;
  /* --no-single-pass: the three steps on the device targets too (a device
     that does not run a started work-group to completion) */
  bool no_single_pass;
  /* accumulators of a work-group partitioned by mapLcl kept in each
     work-item's registers (dpia/privatise.c): set for the device targets */
  bool privatise;
  /* --no-privatise, or a work-group size given (--local-size, a tuned one):
     the accumulators in local memory, any work-group size */
  bool no_privatise;
  /* internal (program.c's second try): a privatised accumulator is copied
     into local memory after its loop, for readers outside its partition */
  bool priv_copy_out;
  /* the target has warp votes and shuffles over warps of 32 (cuda): the
     warp-wide look-back of the one pass (lookback.c) */
  bool warp_shuffle;
  /* a work-group size given (--local-size, a tuned one): every kernel must be
     right at any size, so none pins its work-group (lookback.c) */
  bool local_size_given;
  /* a number of work-items given (--global-size): the groups may not cover
     every tile of the one pass (lookback.c's CLIFT_LB_BLOCK_TILE) */
  bool global_size_given;
  /* --pipeline: a work-group's sequential copy → barrier → compute loop
     prefetches the next step's global values into registers during the
     compute (dpia/pipeline.c); off by default (docs/performance.md: alone it
     made sgemm_tiled_v4 K=8 slower, with --unroll faster) */
  bool pipeline;
  /* --double-buffer: the prefetching loop's local tiles in two halves, one
     barrier per step instead of two (dpia/pipeline.c) */
  bool double_buffer;
  /* --unroll: `#pragma unroll` on the device targets' sequential loops of a
     constant count of at most 32 steps (dpia/pipeline.c) */
  bool unroll;
} GenOptions;

/* DPIA stages I–III: a lowered, typed program (lower/lower.h) → kernel.
   NULL + diag on error (DIAG_UNSUPPORTED for what no compiled target can run
   yet: the driver names the target). g NULL: the defaults. */
Kernel *dpia_translate(Program *p, const GenOptions *g);
/* SPEC §3.6: a parallel loop may write only through the acceptor it was given
   (the output slice indexed by its own variable) or to memory it declares. */
bool dpia_race_check(KStmt *body, Loc where);   /* where: the program, for the message */

#endif
