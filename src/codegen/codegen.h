/* codegen.h — printing the kernel AST as source text. The backends differ only
   in how loops of each level, address spaces, barriers and vector accesses
   are printed (STYLE). */
#ifndef CLIFT_CODEGEN_H
#define CLIFT_CODEGEN_H
#include "../dpia/kernel.h"

/* One C file defining `void clift_run(void **buffers, const long long *sizes)`
   (the convention of docs/runtime.md). openmp: the outermost parallel loop
   gets `#pragma omp parallel for`; otherwise every loop is sequential. */
const char *codegen_c(Kernel *k, bool openmp);

/* The OpenCL C source of a host plan (dpia/plan.h): one __kernel per plan
   kernel, named as in the plan; arguments: its global buffers, then every size
   variable (long) and scalar input, the aref error cell (int). */
typedef struct Plan Plan;
const char *codegen_opencl(Plan *plan);

/* shared by the printers */
void codegen_nat(Buf *b, Nat *n);
const char *codegen_ctype(Type *t);      /* float, int32_t, clift_float4, tuple structs */
/* The OpenCL C spelling: int, long, float4 (tuple structs keep their C names). */
const char *codegen_cltype(Type *t);
void codegen_cexp(Buf *b, CExp *e);      /* a scalar expression in C */
void codegen_clexp(Buf *b, CExp *e);     /* … in OpenCL C (vload, overloaded builtins) */
#endif
