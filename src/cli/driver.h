/* driver.h — the pipeline, stage after stage (STYLE: "the pipeline is visible
   in one place"), and the table of targets, shared by the CLI commands and the
   test runner. */
#ifndef CLIFT_DRIVER_H
#define CLIFT_DRIVER_H
#include "../eval/interp.h"
#include "../runtime/options.h"

/* text → AST → normalised AST → typed AST. NULL + diag on error. */
Program *driver_compile(const char *path);
Program *driver_compile_text(const char *path, const char *text);
/* The same with tunable sizes set (NULL: each its first candidate). */
Program *driver_compile_tuned(const char *path, const char *text, const TuneValues *set);
/* The program's type as `clift check` prints it: (N) [float]N -> [float]N */
const char *driver_program_type(Program *p);

/* Read the inputs (literal, @file, file.npy; relative paths from `base_dir`
   when not NULL), bind the size variables and check every length and every
   run-time size condition (SPEC §8). NULL + diag on error. */
Value **driver_read_inputs(Program *p, int n, const char **args, const char *base_dir, NatBinding **sizes);
/* Bind p's value sizes (Program.size_param: an int input's value, at least 1)
   from the inputs, in front of *sizes (driver_read_inputs does; clift bench
   after making its inputs). */
void driver_bind_value_sizes(const Program *p, Value **inputs, NatBinding **sizes);

/* What one target's pipeline produced: the lowered program, its kernel, the
   host plan (device targets) and the generated source. */
typedef struct Target Target;
typedef struct Compiled {
  const Target *target;
  Program *prog;           /* as checked */
  Program *lowered;        /* after strategy lowering (compiled targets) */
  Kernel *kernel;          /* DPIA's imperative program */
  Plan *plan;              /* device targets: the kernels and their launches */
  const char *src;         /* C, OpenCL C or CUDA C++ */
  const struct LibraryTuning *tuned;   /* clift compile: a tuned configuration for the library; NULL: none */
} Compiled;

/* One row per target (SPEC §6): what every command asks of a backend. */
struct Target {
  const char *name;
  const char *summary;     /* one line of `clift --help` */
  bool device;             /* kernels launched on a device: a host plan, launch sizes */
  bool warp_shuffle;       /* warp votes and shuffles in the generated code (cuda's __ballot_sync) */
  bool dynamic_locals;     /* local memory sized at launch (Kernel.dynamic_locals) */
  bool last_group;         /* a top-level reduce in one launch (Kernel.last_group) */
  const struct DeviceApi *api;   /* device targets: the GPU API (runtime/device.h) */
  bool (*available)(void); /* runnable on this machine */
  /* the generated source of c->kernel / c->plan; NULL: nothing is generated (interp) */
  const char *(*emit)(Compiled *c);
  Value *(*run)(Compiled *c, Value **inputs, NatBinding *sizes, const RunOptions *o);
  /* `clift compile -o DIR`: the library files; NULL: none (interp) */
  bool (*write_library)(Compiled *c, const char *dir, const char *name);
};

/* The reference interpreter, the oracle every other target is checked against:
   the one target that generates nothing. */
static inline bool target_is_oracle(const Target *t) { return !t->emit; }

/* The target named `name` (`auto`: the first of cuda, opencl, openmp that
   runs here, SPEC §8; a named target never falls back); NULL when unknown. */
const Target *driver_target(const char *name);
const Target *driver_target_at(int i);       /* the table in order; NULL after the last */
const char *driver_target_names(void);       /* "interp, c, openmp, opencl, cuda" */

/* parse → check (done) → lower → translate → plan → generate: the stages of
   SPEC §1 in order, for target t. NULL + diag on error; a refusal
   (DIAG_UNSUPPORTED) says "not supported on TARGET: why". */
Compiled *driver_generate(Program *p, const Target *t, const GenOptions *g);   /* g NULL: the defaults */
/* driver_generate, then run; o->timing: clift bench's timed repetitions. */
Value *driver_run(Program *p, const Target *t, Value **inputs, NatBinding *sizes, const RunOptions *o);

/* Back to the state of a fresh process between two programs run in one
   (the fuzzer's executions, `clift run --batch`): the arena released, the
   diagnostics, uid and size-variable counters reset. Device contexts, loaded
   libraries and compiled modules stay (process-wide, outside the arena). */
void driver_reset_process_state(void);

#endif
