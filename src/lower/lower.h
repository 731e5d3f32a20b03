/* lower.h — strategy lowering (SPEC §1 "lower strategy", §4.2): strategy-free
   patterns whose default is more than "a loop at the current level" are
   rewritten into explicit low-level patterns before DPIA translation. */
#ifndef CLIFT_LOWER_H
#define CLIFT_LOWER_H
#include "../syntax/ast.h"

/* A copy of p in which every top-level `reduce` (not inside a function
   argument) is the two-kernel tree reduction: work-groups reduce chunks into
   partial results through local memory, then one work-group reduces the
   partials; and a `reduce` that is the whole body of a mapWrg function is
   shared by the work-group's items the same way (one work-group level).
   Re-typed; p itself is unchanged. NULL + diag on error.
   chunk: the elements a work-group of the first level reduces (a multiple of
   256): LOWER_CHUNK_DEVICE on GPUs, LOWER_CHUNK_CPU on c/openmp, where a
   work-group is one iteration of the parallel loop and a few large ones split
   unevenly over the threads (10^5 elements: 7 groups of 16384, 4 and 3 on two
   threads; Black-Scholes took 1.34-1.48x the hand-written C on 2 threads). */
enum { LOWER_CHUNK_DEVICE = 16384, LOWER_CHUNK_CPU = 1024 };
Program *lower_program(Program *p, int chunk);

#endif
