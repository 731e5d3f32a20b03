/* stmt_print.h — the one statement printer of the kernel AST. Backends share
   it and supply only what differs (STYLE: "backends share everything but
   printing" loops, address spaces, barriers and vector accesses): how a type
   and an expression are spelled, the head of a loop of each level, vector
   stores, barriers. */
#ifndef CLIFT_STMT_PRINT_H
#define CLIFT_STMT_PRINT_H
#include "codegen.h"

typedef struct StmtPrinter StmtPrinter;
typedef struct PlanKernel PlanKernel;

typedef struct StmtStyle {
  const char *(*type)(Type *t);                      /* private variables */
  void (*exp)(Buf *b, CExp *e);                      /* expressions */
  /* `for (… var …) {` for a loop of s->level; the body and `}` follow */
  void (*loop_head)(StmtPrinter *p, KStmt *s);
  /* a store the plain `lhs = rhs;` cannot express (vector stores); false: plain */
  bool (*special_assign)(StmtPrinter *p, KStmt *s);
  void (*barrier)(StmtPrinter *p, KStmt *s);         /* NULL: barriers print nothing */
  /* a test that the work-group is PlanKernel.version_local × 1 × 1 (%lld: the
     size); NULL: no fixed-size version */
  const char *version_test;
  /* the work-group's index in dimension 0 and their number, as clift_index
     expressions (the staged reads of the fixed-size version, fixed_size.c) */
  const char *group_id, *groups;
  /* local memory sized at launch (PlanKernel.local_dynamic) in the body, local i
     at `offset` bytes of the work-group's dynamic memory (cuda: a pointer into
     the extern __shared__ array; `first`: declare the array); NULL: a kernel
     parameter (opencl's __local argument, printed with the signature) */
  void (*dynamic_local)(Buf *b, PlanKernel *pk, int i, Nat *offset, bool first);
} StmtStyle;

struct StmtPrinter {
  Buf *b;
  int depth;
  const StmtStyle *style;
  int parallel_open;     /* parallel loops around the statement being printed */
  const void *ctx;       /* the backend's own settings */
  /* the work-group's size in dimension d where the launch fixes it (a kernel
     with pinned mapLcl loops, dpia/privatise.c: clift_launch_pinned refuses
     any other size), 0 where it is known only at run time */
  long long local_size[3];
};

/* A mapLcl loop's head when its count c and the work-group's size s in its
   dimension are both known (codegen_lcl_form): c = s, one iteration per
   work-item, a plain block; c < s, an if; s divides c, a loop of c/s steps
   (a constant count: the device compiler unrolls it and puts every step's
   loads in flight together, where `lid += blockDim` hides that each work-item
   has exactly c/s); otherwise a loop with the constant stride s. */
typedef enum { LCL_RUNTIME, LCL_BLOCK, LCL_IF, LCL_STEPS, LCL_STRIDE } LclForm;
LclForm codegen_lcl_form(StmtPrinter *p, KStmt *s, long long *count, long long *size);

void codegen_indent(StmtPrinter *p);
void codegen_stmt(StmtPrinter *p, KStmt *s);

/* The body of a device kernel: its local arrays (`local_qualifier T name[n]local_suffix;`,
   T spelled by mem_type), its statements, the closing brace. */
typedef struct PlanKernel PlanKernel;
void codegen_kernel_body(Buf *b, PlanKernel *pk, const StmtStyle *style, const char *local_qualifier,
                         const char *local_suffix, const char *(*mem_type)(Type *t));
/* The same with only the fixed-size version's statements (PlanKernel.version_local
   set): a kernel of its own for that size (opencl: PoCL does not run kernels whose
   barriers lie under the version's `if`; the runtime launches NAME_vSIZE for a
   work-group of that size, DeviceApi.version_kernels). */
void codegen_kernel_fixed_body(Buf *b, PlanKernel *pk, const StmtStyle *style, const char *local_qualifier,
                               const char *local_suffix, const char *(*mem_type)(Type *t));
/* The fixed-size version's body (fixed_size.c): p->local_size[0] set, reads staged
   (PlanKernel.stage_reads) and a work-item's own local elements kept in registers;
   counter numbers the private arrays it declares. */
KStmt *codegen_fixed_size_body(StmtPrinter *p, PlanKernel *pk, int *counter);
/* A device kernel's 64-bit parameters: every size, then the variable of each
   host loop around it (`TYPE NAME_arg`, after `sep`; returns the separator
   for what follows); and the same as clift_index locals at the body's top. */
typedef struct Plan Plan;
/* Whether `word` occurs in `text` as a whole identifier. */
bool codegen_mentions_word(const char *text, const char *word);
/* PlanKernel.sizes_used from the kernel's printed text (its body and the
   lines after its size locals): the sizes it names are its size arguments. */
void codegen_mark_sizes(Plan *pl, PlanKernel *pk, const char *text);
const char *codegen_size_params(Buf *b, Plan *pl, PlanKernel *pk, const char *type, const char *sep);
void codegen_size_locals(Buf *b, Plan *pl, PlanKernel *pk);
/* A split tuple's fields of a device kernel: pointers at their offsets in the
   parameter's buffer (NAME_base), `space` the address space ("__global " or
   ""), `restrict_kw` the backend's restrict, elem_type the pointee's type. */
void codegen_split_fields(Buf *b, PlanKernel *pk, const char *space, const char *restrict_kw,
                          const char *(*elem_type)(Buffer *buf));
/* Declares every type the kernel's buffers, scalar inputs and statements use,
   through the backend's declare(types, type, seen). */
void codegen_declare_types(Kernel *k, void (*declare)(Buf *b, Type *t, Buf *seen), Buf *types);

/* Calls fn on every type the statements mention (for typedefs). */
void codegen_walk_types(KStmt *s, void (*fn)(Type *t, void *ctx), void *ctx);

/* The run-time checks of generated code (dpia/kernel.h, SPEC §8): range check
   of aref, integer division and modulo that report a zero divisor (and do not
   trap on MIN / -1), all writing the first failure into the error cell
   `clift_error` (a global array in C, a kernel parameter on the devices). */
typedef enum { CHECKS_C, CHECKS_OPENCL, CHECKS_CUDA } ChecksFlavour;
void codegen_checks_prelude(Buf *b, ChecksFlavour fl);
/* The translation's notes (Kernel.notes), one comment line each. */
void codegen_notes(Buf *b, const Kernel *k);

#endif
