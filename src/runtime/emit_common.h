/* emit_common.h — shared by the device targets' library emitters. */
#ifndef CLIFT_EMIT_COMMON_H
#define CLIFT_EMIT_COMMON_H
#include "../dpia/kernel.h"

/* Bytes of a buffer of type t, as a C expression over the size variables. */
const char *emit_bytes_expr(Type *t);
/* Does n mention only the program's size variables (computable by the host)? */
bool emit_only_sizes(Program *p, Nat *n);
/* Position of b in k's buffers (-1 if absent). */
int emit_buffer_index(Kernel *k, Buffer *b);

/* The kernel's parallel loops as C arrays level[], dim[], count[] for the
   launch policy (dpia/launch_policy.h); returns how many. */
typedef struct PlanKernel PlanKernel;
int emit_loop_arrays(Buf *b, Program *p, PlanKernel *pk);

#endif
