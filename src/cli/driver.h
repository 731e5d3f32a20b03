/* driver.h — the pipeline, stage after stage (STYLE: "the pipeline is visible
   in one place"), shared by the CLI commands and the test runner. */
#ifndef CLIFT_DRIVER_H
#define CLIFT_DRIVER_H
#include "../eval/interp.h"
#include "../runtime/timing.h"

/* text → AST → normalised AST → typed AST. NULL + diag on error. */
Program *driver_compile(const char *path);
Program *driver_compile_text(const char *path, const char *text);
/* The program's type as `clift check` prints it: (N) [float]N -> [float]N */
const char *driver_program_type(Program *p);

/* Read the inputs (literal, @file, file.npy; relative paths from `base_dir`
   when not NULL), bind the size variables and check every length and every
   run-time size condition (SPEC §8). NULL + diag on error. */
Value **driver_read_inputs(Program *p, int n, const char **args, const char *base_dir, NatBinding **sizes);

/* Targets that exist on this machine, and running a program on one. */
bool driver_target_known(const char *target);
bool driver_target_available(const char *target);   /* known, and runnable here */
/* `auto` → the first of cuda, opencl, openmp available here; others unchanged. */
const char *driver_resolve_target(const char *target);
/* The generated source for a compiled target (c, openmp: C; opencl: the kernels). */
const char *driver_generate(Program *p, const char *target);
Value *driver_run(Program *p, const char *target, Value **inputs, NatBinding *sizes);
/* driver_run, then `timing->runs` more timed runs (clift bench; runtime/timing.h). */
Value *driver_run_timed(Program *p, const char *target, Value **inputs, NatBinding *sizes, RunTiming *timing);

#endif
