/* cpu.h — the host runtime of the `c` and `openmp` targets (SPEC §6): compile the
   generated C file into a shared object (cached), load it, marshal the inputs into
   flat buffers, call `clift_run`, and read the result back. docs/runtime.md has the
   calling convention and the buffer layout. */
#ifndef CLIFT_CPU_H
#define CLIFT_CPU_H
#include "../layout/layout.h"
#include "../syntax/ast.h"
#include "timing.h"

/* The entry point every generated C file defines:
   buffers[0] = output, buffers[1 + i] = input i; sizes[k] = value of p->sizes[k]. */
typedef void (*CpuEntry)(void **buffers, const long long *sizes);

/* Compile, load and run `c_source` on `inputs` (size variables bound in `sizes`).
   Returns the result as a Value, or NULL + diag (unsupported types, lengths that
   disagree with the sizes, compiler errors with the compiler's output, load errors). */
Value *cpu_run(const char *c_source, Program *p, Value **inputs, NatBinding *sizes, bool openmp);

/* Compile `c_source` into a shared object in the cache directory, unless one built
   from the same source, flags and compiler is already there. *so_path receives its
   path (arena). false + diag with the compiler's output on failure: an
   internal error at `where` (the program) when the compiler rejects the code. */
bool cpu_compile_shared(const char *c_source, bool openmp, Loc where, const char **so_path);

/* dlopen the shared object and find `clift_run`. false + diag on failure. */
bool cpu_load(const char *so_path, CpuEntry *entry);

struct Kernel;   /* dpia/kernel.h: its run-time check sites name a failure's position */
/* cpu_run, and with timing (clift bench): the entry called timing->runs more
   times after the first, each call timed. */
Value *cpu_run_timed(const char *c_source, Program *p, const struct Kernel *k, Value **inputs, NatBinding *sizes, bool openmp,
                     RunTiming *timing);
/* A random input of type t (arrays of scalars or vectors) for clift bench:
   already flat (VAL_RAW), or as a value tree (as_tree) for the interpreter. */
Value *cpu_random_input(Type *t, NatBinding *sizes, uint64_t *seed, const char *what, bool as_tree);

#endif
