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

/* The CUDA C++ source of a host plan: one extern "C" __global__ function per
   plan kernel, with codegen_opencl's arguments (buffers, sizes as long long,
   scalar inputs, the error cell). Compiled at run time with NVRTC. */
const char *codegen_cuda(Plan *plan);

/* shared by the printers (and the library emitters) */
Type *codegen_element_type(Type *t);   /* the innermost non-array type */
Nat *codegen_element_count(Type *t);   /* the product of the array lengths */
/* The bytes of local i sized at launch (PlanKernel.local_dynamic), rounded up to 16:
   its share of a cuda launch's dynamic shared memory (the kernel's offsets,
   stmt_print.c; the library host's sum, lib_cuda.c; cuda_device.c sums alike). */
struct PlanKernel;
Nat *codegen_dynamic_local_bytes(struct PlanKernel *pk, int i);
void codegen_nat(Buf *b, Nat *n);
const char *codegen_ctype(Type *t);      /* float, int32_t, clift_float4, tuple structs */
/* The OpenCL C spelling: int, long, float4 (tuple structs keep their C names). */
const char *codegen_cltype(Type *t);
void codegen_cexp(Buf *b, CExp *e);      /* a scalar expression in C */
void codegen_clexp(Buf *b, CExp *e);     /* … in OpenCL C (vload, overloaded builtins) */
/* The CUDA C++ spelling: int, long long, float4 (built in) or clift_float8 (prelude). */
const char *codegen_cudatype(Type *t);
void codegen_cudaexp(Buf *b, CExp *e);   /* … in CUDA C++ (clift_lane, float4{…}) */
/* Row i of the math library's functions (sqrt, pow, asin, …): its C name
   (float: with f) and arity; NULL after the last. */
const char *codegen_libm_at(int i, int *arity);
bool codegen_cuda_builtin_vector(Type *t);      /* float4 is CUDA's, float8 the prelude's */
bool codegen_cuda_vector_aligned(CExp *vload);  /* one aligned vector access suffices */
bool codegen_cl_vector_aligned(CExp *vload);    /* the same on OpenCL: a pointer cast, not vloadN */
const char *codegen_cl_space(Buffer *b);       /* "__global" or "__local" */
/* Alignment proofs may use the program's size conditions ("split #128 divides
   N": N is a multiple of 128); set by each printer, NULL for none (c_expr.c). */
void codegen_assume_size_conditions(Program *p);
long long codegen_size_multiple(NatVar *size);  /* 1 when none is proven */
Nat *codegen_with_multiples(Nat *n);            /* each size v as (its multiple)·v */
void codegen_cuda_lane_access(Buf *b, CExp *vload, int lane);   /* buf[index + lane] */
bool codegen_cl_packed3(CExp *e);   /* a packed float3 element of a global buffer (OpenCL) */

#endif
