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

/* shared by the printers */
void codegen_nat(Buf *b, Nat *n);
const char *codegen_ctype(Type *t);      /* float, int32_t, clift_float4, tuple structs */
#endif
