/* compile.h — FCL onto clift's kernels (compile.c, docs/fcl.md §6): internal
   to src/fcl, between compile.c and driver.c. */
#ifndef CLIFT_FCL_COMPILE_H
#define CLIFT_FCL_COMPILE_H
#include "fcl.h"
#include "../dpia/kernel.h"
#include "../syntax/ast.h"
#include "../layout/layout.h"

typedef struct FclCompiled {
  Kernel *kernel;
  Program *prog;         /* the array inputs as parameters, the result's clift type */
  FType *result_type;    /* the entry's result, for fcl_result_value */
  int nleaves;
  Value **args;          /* the runtime's inputs (the array inputs), in parameter order */
} FclCompiled;

/* The entry of a monomorphised program applied to its inputs (parsed for the
   entry's types), as one kernel over constant sizes. grid_cap: the target's runtime
   caps a chunk kernel's grid at the device's resident blocks (cuda), which the
   batched chunks need to pay (docs/fcl.md §6.2). NULL + diag (DIAG_UNSUPPORTED: the
   driver names the target). */
FclCompiled *fcl_compile(FProgram *mono, FDef *entry, Value **inputs, int ninputs, long long block_size, bool grid_cap);
/* The runtime's result (one array, or a tuple of arrays) in the entry's shape. */
Value *fcl_result_value(FclCompiled *c, Value *flat);

#endif
