/* cpu_internal.h — shared by the files of src/runtime that run the c and
   openmp targets (cpu_compile.c, cpu_run.c, cpu_random.c). The flat buffer
   layout is src/layout; the `clift compile` writers are src/codegen/lib_*.c. */
#ifndef CLIFT_CPU_INTERNAL_H
#define CLIFT_CPU_INTERNAL_H
#include "cpu.h"
#include "../layout/layout.h"

#endif
