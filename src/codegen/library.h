/* library.h — `clift compile -o DIR`: the files of a library that needs no
   clift at run time, printed from what the driver built (the generated source,
   and for the device targets the host plan): lib_c.c (c, openmp),
   lib_opencl.c, lib_cuda.c; lib_common.c holds what they share. */
#ifndef CLIFT_LIBRARY_H
#define CLIFT_LIBRARY_H
#include "../dpia/plan.h"
#include "../syntax/ast.h"

/* DIR/NAME.c (the source) and DIR/NAME.h (the entry's declaration and the
   convention for this program). Creates DIR. */
bool library_write_c(const char *c_source, Program *p, const char *dir, const char *name);
/* DIR/NAME.cl (the kernels), DIR/NAME_host.c (the host plan on the OpenCL API,
   linked with -lOpenCL) and DIR/NAME.h (int NAME_run(void **buffers, const
   long long *sizes), docs/runtime.md). `cl` is codegen_opencl(plan). */
/* A tuned configuration's launch sizes, applied by the generated host as
   --local-size/--global-size would be (launch_policy.h), and its description
   for the header (docs/tuning.md). */
typedef struct LibraryTuning { LaunchSizes launch; const char *note; } LibraryTuning;
/* tuned: NULL for the default launch sizes. */
bool library_write_opencl(Plan *plan, const char *cl, const char *dir, const char *name, const LibraryTuning *tuned);
/* DIR/NAME.cu (the kernels), DIR/NAME_host.cu (the host plan on the CUDA
   runtime API, #including NAME.cu: one nvcc -c builds both) and DIR/NAME.h.
   `cu` is codegen_cuda(plan). */
bool library_write_cuda(Plan *plan, const char *cu, const char *dir, const char *name, const LibraryTuning *tuned);

/* ---- shared by the writers (lib_common.c) ---- */
/* The host's device buffers, in k->bufs order (local ones and split tuple
   fields have none): print(b, index, bytes as C, host copy or "NULL", buffer). */
void library_buffers(Buf *b, Kernel *k, void (*print)(Buf *b, int i, const char *bytes, const char *host, Buffer *buf));
/* A device library's header ends with the guarded declaration of `entry`. */
void library_header_entry(Buf *h, const char *guard, const char *entry, Program *p, const char *base);
/* For a result holding dynamic-length arrays: a static inline BASE_result_lengths(buffers, sizes)
   returning where their lengths are (SPEC §3.4); nothing otherwise. */
void library_result_lengths(Buf *h, Program *p, const char *base);
/* Every parameter, the result and every scalar input of the plan have a layout. */
bool library_device_supported(Plan *pl);
/* DIR/NAME.KERNEL_EXT, DIR/NAME_host.HOST_EXT and DIR/NAME.h (`intro`, the
   convention of p, the declaration of `entry`); creates DIR. */
bool library_write_device(const char *dir, const char *name, const char *kernel_ext, const char *kernels,
                          const char *host_ext, const char *host, Program *p, const char *intro, const char *entry);
/* Every parameter and the result have a flat layout (else a refusal). */
bool library_supported(Program *p);
/* The header comment describing the sizes and buffers of p for `entry`. */
void library_describe_convention(Buf *b, Program *p, const char *entry);
const char *library_header_guard(const char *name);
/* The prefix of every exported symbol of the library NAME: NAME itself (a C
   identifier, made so by clift compile), or clift_NAME when NAME starts with a
   digit; NAME_run is the entry, so two programs link into one executable. */
const char *library_symbol_base(const char *name);

/* The launch policy (launch_policy.h) and the tuned sizes it applies, as C for a host file. */
const char *library_launch_source(const LibraryTuning *tuned);
/* The header's paragraph on a tuned configuration; "" when there is none. */
const char *library_tuning_note(const LibraryTuning *tuned);

/* Bytes of a buffer of type t, as a C expression over the size variables. */
const char *library_bytes_expr(Type *t);
/* Does n mention only the program's size variables (computable by the host)? */
bool library_only_sizes(Program *p, Nat *n);
/* Position of b in k's buffers (-1 if absent). */
int library_buffer_index(Kernel *k, Buffer *b);

/* The kernel's parallel loops as C arrays level[], dim[], count[] for the
   launch policy (dpia/launch_policy.h); returns how many. */
typedef struct PlanKernel PlanKernel;
int library_loop_arrays(Buf *b, Program *p, PlanKernel *pk);
/* The plan's steps as host code: each launch printed by `launch` (two-space
   indented lines), host loops as C for loops over `loop_type` variables named
   as the kernels' loop arguments, their bodies indented. */
void library_print_steps(Buf *b, Plan *pl, PlanStep *steps, int n, int depth, const char *loop_type,
                         void (*launch)(Buf *b, Plan *pl, PlanKernel *pk), void (*count)(Buf *b, Plan *pl, PlanStep *s));
/* `TYPE NAME = 0;` for every count the steps read back (declared at the top
   of the entry, so that no goto crosses an initialisation in C++). */
void library_declare_counts(Buf *b, PlanStep *steps, int n, const char *type);
/* A STEP_COUNT as host code: read the cell into `value_type value` with the
   API call `read_fmt` (its %d: the cell's index in mem[]), bind the count. */
void library_print_count(Buf *b, Plan *pl, PlanStep *s, const char *value_type, const char *read_fmt);

/* The host's refusal of sizes that a condition "d divides N" of the program
   excludes (the kernels' aligned vector accesses rely on them). */
void library_size_conditions(Buf *b, Program *p);

#endif
