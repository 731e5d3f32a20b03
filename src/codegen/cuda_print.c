/* cuda_print.c — the `cuda` backend: a host plan (dpia/plan.h) printed as CUDA
   C++, one extern "C" __global__ function per plan kernel, compiled at run time
   with NVRTC (runtime/cuda_device.c). Mirrors opencl_print.c: parallel loops are
   grid-stride loops over blockIdx/threadIdx (mapGlb: the global thread id,
   mapWrg: the block, mapLcl: the thread in its block), so any launch size is
   correct; local temporaries are __shared__ arrays; barriers __syncthreads();
   vectors are CUDA's float4 … with lane access and arithmetic from the prelude
   (CUDA gives its vector types no operators). */
#include "stmt_print.h"
#include "../syntax/ast.h"   /* the program's sizes, parameters and result */
#include "../dpia/plan.h"
#include "../dpia/dpia.h"   /* dpia_single_pass_min_blocks */
#include <string.h>


/* min/max in index arithmetic mix long long and int: plain comparisons, as in
   the OpenCL prelude, selecting by a mask as there (ptxas fuses chains of 32-bit
   min/max into a VIMNMX3 that drops a negated operand: FINDINGS F36, the
   comment of opencl_print.c's prelude). The scalar operators min/max/abs are
   overloaded templates, int's by the mask (vector overloads below win over
   them). aref's range check sets the error cell every kernel receives
   (host-read). NVRTC has no <math.h>: NAN and INFINITY are spelled out. */
static const char *prelude =
  "/* index arithmetic: 32-bit when the runtime knows every size and buffer fits */\n"
  "#ifndef CLIFT_INDEX\n#define CLIFT_INDEX long long\n#endif\n"
  "typedef CLIFT_INDEX clift_index;\n"
  "#define min(a, b) ((a) ^ (((a) ^ (b)) & -((b) < (a))))\n"
  "#define max(a, b) ((a) ^ (((a) ^ (b)) & -((a) < (b))))\n"
  "#ifndef INFINITY\n#define INFINITY __int_as_float(0x7f800000)\n#endif\n"
  "#ifndef NAN\n#define NAN __int_as_float(0x7fffffff)\n#endif\n"
  "template <typename T> __device__ inline T clift_min(T a, T b) { return a < b ? a : b; }\n"
  "template <typename T> __device__ inline T clift_max(T a, T b) { return a > b ? a : b; }\n"
  "template <> __device__ inline int clift_min<int>(int a, int b) { return min(a, b); }\n"
  "template <> __device__ inline int clift_max<int>(int a, int b) { return max(a, b); }\n"
  "template <typename T> __device__ inline T clift_abs(T a) { return a < 0 ? -a : a; }\n"
  "template <> __device__ inline int clift_abs<int>(int a) { return a < 0 ? (int)(0u - (unsigned)a) : a; }\n"
  "template <> __device__ inline float clift_abs<float>(float a) { return fabsf(a); }\n"
  "template <> __device__ inline double clift_abs<double>(double a) { return fabs(a); }\n"
  "template <> __device__ inline long long clift_abs<long long>(long long a) { return a < 0 ? (long long)(0ull - (unsigned long long)a) : a; }\n"
  "\n";

/* A barrier whose conflicts are within warps (dpia/warp.c): the warp's when the
   block's warps are whole (work-item x is thread x % blockDim.x), else the block's;
   printed when a kernel uses it. */
static const char *warp_prelude =
  "#define clift_syncwarp() do { if ((blockDim.x & 31) == 0 && blockDim.y == 1 && blockDim.z == 1) __syncwarp(); else __syncthreads(); } while (0)\n";

/* A prefetch into L2 of a global address (dpia/prefetch.c): no value, no fault. */
static const char *prefetch_prelude =
  "#define clift_prefetch(a) asm volatile(\"prefetch.global.L2 [%0];\" :: \"l\"(a))\n";

/* Vectors (SPEC §4.3): lanes by index, element-wise operators and functions,
   a scalar operand broadcast. One CLIFT_VECTOR_* line per vector type used. */
static const char *vector_prelude =
  "#define CLIFT_LANES(V, E) \\\n"
  "  __device__ inline E &clift_lane(V &v, long long i) { return reinterpret_cast<E *>(&v)[i]; } \\\n"
  "  __device__ inline E clift_lane(const V &v, long long i) { return reinterpret_cast<const E *>(&v)[i]; }\n"
  "#define CLIFT_VOP(V, E, W, OP) \\\n"
  "  __device__ inline V operator OP(V a, V b) { for (int i = 0; i < W; i++) clift_lane(a, i) = clift_lane(a, i) OP clift_lane(b, i); return a; } \\\n"
  "  __device__ inline V operator OP(V a, E b) { for (int i = 0; i < W; i++) clift_lane(a, i) = clift_lane(a, i) OP b; return a; } \\\n"
  "  __device__ inline V operator OP(E a, V b) { for (int i = 0; i < W; i++) clift_lane(b, i) = a OP clift_lane(b, i); return b; }\n"
  "#define CLIFT_VFN1(V, W, F) \\\n"
  "  __device__ inline V F(V a) { for (int i = 0; i < W; i++) clift_lane(a, i) = F(clift_lane(a, i)); return a; }\n"
  "#define CLIFT_VFN2(V, E, W, F) \\\n"
  "  __device__ inline V F(V a, V b) { for (int i = 0; i < W; i++) clift_lane(a, i) = F(clift_lane(a, i), clift_lane(b, i)); return a; } \\\n"
  "  __device__ inline V F(V a, E b) { for (int i = 0; i < W; i++) clift_lane(a, i) = F(clift_lane(a, i), b); return a; } \\\n"
  "  __device__ inline V F(E a, V b) { for (int i = 0; i < W; i++) clift_lane(b, i) = F(a, clift_lane(b, i)); return b; }\n"
  /* + - * of integer lanes wrap, as in the interpreter (c_expr.c print_wrapping) */
  "#define CLIFT_VOPW(V, E, W, OP) \\\n"
  "  __device__ inline V operator OP(V a, V b) { for (int i = 0; i < W; i++) clift_lane(a, i) = (E)((unsigned long long)clift_lane(a, i) OP (unsigned long long)clift_lane(b, i)); return a; } \\\n"
  "  __device__ inline V operator OP(V a, E b) { for (int i = 0; i < W; i++) clift_lane(a, i) = (E)((unsigned long long)clift_lane(a, i) OP (unsigned long long)b); return a; } \\\n"
  "  __device__ inline V operator OP(E a, V b) { for (int i = 0; i < W; i++) clift_lane(b, i) = (E)((unsigned long long)a OP (unsigned long long)clift_lane(b, i)); return b; }\n"
  "#define CLIFT_VECTOR_ANY(V, E, W) CLIFT_LANES(V, E) CLIFT_VOP(V, E, W, /) \\\n"
  "  CLIFT_VFN2(V, E, W, clift_min) CLIFT_VFN2(V, E, W, clift_max) CLIFT_VFN1(V, W, clift_abs)\n"
  "#define CLIFT_VECTOR(V, E, W) CLIFT_VECTOR_ANY(V, E, W) CLIFT_VOP(V, E, W, +) CLIFT_VOP(V, E, W, -) CLIFT_VOP(V, E, W, *)\n"
  "#define CLIFT_VECTOR_INT(V, E, W) CLIFT_VECTOR_ANY(V, E, W) \\\n"
  "  CLIFT_VOPW(V, E, W, +) CLIFT_VOPW(V, E, W, -) CLIFT_VOPW(V, E, W, *) CLIFT_VOP(V, E, W, %)\n";

/* CLIFT_VECTOR_REAL: the math library's functions (codegen_libm_at) on
   vectors; S is the C library's suffix, f for float, empty for double. */
static void vector_real_prelude(Buf *b) {
  buf_puts(b, "#define CLIFT_VECTOR_REAL(V, E, W, S) CLIFT_VECTOR(V, E, W)");
  const char *fn;
  int arity;
  for (int i = 0; (fn = codegen_libm_at(i, &arity)); i++)
    buf_printf(b, "%s CLIFT_VFN%d(V, %sW, %s##S)", i % 4 == 0 ? " \\\n " : "", arity, arity == 2 ? "E, " : "", fn);
  buf_puts(b, "\n\n");
}

static const char *memory_type(Type *t) { return codegen_cudatype(t); }

/* Tuple structs, and vector types with their operators, before first use. */
static void declare_type(Buf *b, Type *t, Buf *seen) {
  if (t->kind == TY_ARRAY) { declare_type(b, t->elem, seen); return; }
  if (t->kind != TY_TUPLE && t->kind != TY_VECTOR) return;
  const char *name = codegen_cudatype(t);
  if (strstr(buf_str(seen), arena_printf(" %s ", name))) return;
  buf_printf(seen, " %s ", name);
  if (t->kind == TY_VECTOR) {
    const char *e = codegen_cudatype(t->elem);
    if (!codegen_cuda_builtin_vector(t)) buf_printf(b, "struct %s { %s lane[%d]; };\n", name, e, t->width);
    if (type_is_float(t->elem))
      buf_printf(b, "CLIFT_VECTOR_REAL(%s, %s, %d, %s)\n", name, e, t->width, t->elem->kind == TY_FLOAT ? "f" : "");
    else
      buf_printf(b, "CLIFT_VECTOR%s(%s, %s, %d)\n", t->elem->kind == TY_BOOL ? "" : "_INT", name, e, t->width);
    return;
  }
  for (int i = 0; i < t->n; i++) declare_type(b, t->fields[i], seen);
  buf_puts(b, "typedef struct {");
  for (int i = 0; i < t->n; i++) buf_printf(b, " %s f%d;", memory_type(t->fields[i]), i);
  buf_printf(b, " } %s;\n", name);
}


/* dpia/prefetch.c: at the top of the loop's body, the reads of the work-group
   loop's next chunk asked of the L2 cache when that chunk exists */
static void prefetches(StmtPrinter *p, KStmt *s) {
  if (!s->nprefetch) return;
  KStmt *w = s->prefetch_wrg;
  p->depth++;
  codegen_indent(p);
  if (s->prefetch_ahead > 1)   /* the staged reads' chunk after next (codegen/fixed_size.c) */
    buf_printf(p->b, "const clift_index %s = %s + %d * (clift_index)gridDim.x;\n", s->prefetch_next->name, w->var->name, s->prefetch_ahead);
  else
    buf_printf(p->b, "const clift_index %s = %s + gridDim.x;\n", s->prefetch_next->name, w->var->name);
  codegen_indent(p);
  buf_printf(p->b, "if (%s < ", s->prefetch_next->name);
  codegen_nat(p->b, w->count);
  buf_puts(p->b, ") {");
  for (int i = 0; i < s->nprefetch; i++) {
    buf_puts(p->b, " clift_prefetch(&");
    codegen_cudaexp(p->b, s->prefetch[i]);
    buf_puts(p->b, ");");
  }
  buf_puts(p->b, " }\n");
  p->depth--;
}

static void loop_head_only(StmtPrinter *p, KStmt *s);

static void loop_head(StmtPrinter *p, KStmt *s) {
  loop_head_only(p, s);
  prefetches(p, s);
}

/* Grid-stride loops: start at this thread's id at the loop's level, step by
   the number of them (dimension 0, 1, 2: x, y, z). */
static void loop_head_only(StmtPrinter *p, KStmt *s) {
  const char *v = s->var->name;
  const char xyz = "xyz"[s->dim >= 0 && s->dim < 3 ? s->dim : 0];
  codegen_indent(p);
  long long c, n;
  switch (codegen_lcl_form(p, s, &c, &n)) {   /* a pinned work-group's size n (stmt_print.h) */
  case LCL_BLOCK: buf_printf(p->b, "{ const clift_index %s = threadIdx.%c; (void)%s;\n", v, xyz, v); return;
  case LCL_IF: buf_printf(p->b, "if (threadIdx.%c < %lld) { const clift_index %s = threadIdx.%c; (void)%s;\n", xyz, c, v, xyz, v); return;
  case LCL_STEPS:
    buf_printf(p->b, "for (clift_index %s_step = 0; %s_step < %lld; %s_step += 1) { const clift_index %s = threadIdx.%c + %s_step * %lld; (void)%s;\n",
               v, v, c / n, v, v, xyz, v, n, v);
    return;
  case LCL_STRIDE: buf_printf(p->b, "for (clift_index %s = threadIdx.%c; %s < %lld; %s += %lld) {\n", v, xyz, v, c, v, n); return;
  case LCL_RUNTIME: break;
  }
  if (s->level != LEVEL_SEQ && nat_proves_le(s->count, nat_const(1))) {   /* at most one iteration in all: an if */
    const char *id = s->level == LEVEL_GLB ? arena_printf("(clift_index)blockIdx.%c * blockDim.%c + threadIdx.%c", xyz, xyz, xyz)
                                           : arena_printf("(clift_index)%s.%c", s->level == LEVEL_WRG ? "blockIdx" : "threadIdx", xyz);
    buf_printf(p->b, "if (%s < ", id);
    codegen_nat(p->b, s->count);
    buf_printf(p->b, ") { const clift_index %s = %s;\n", v, id);
    return;
  }
  if (s->unroll) { buf_puts(p->b, "#pragma unroll\n"); codegen_indent(p); }
  switch (s->level) {
  case LEVEL_SEQ: buf_printf(p->b, "for (clift_index %s = 0; %s < ", v, v); break;
  case LEVEL_GLB:
    buf_printf(p->b, "for (clift_index %s = (clift_index)blockIdx.%c * blockDim.%c + threadIdx.%c", v, xyz, xyz, xyz);
    if (s->shift) buf_printf(p->b, " - %lld", s->shift);   /* KStmt.shift */
    buf_printf(p->b, "; %s < ", v);
    break;
  case LEVEL_WRG: buf_printf(p->b, "for (clift_index %s = blockIdx.%c; %s < ", v, xyz, v); break;
  default: buf_printf(p->b, "for (clift_index %s = threadIdx.%c; %s < ", v, xyz, v); break;
  }
  codegen_nat(p->b, s->count);
  switch (s->level) {
  case LEVEL_SEQ: buf_printf(p->b, "; %s += 1) {\n", v); break;
  case LEVEL_GLB:
    buf_printf(p->b, "; %s += (clift_index)gridDim.%c * blockDim.%c) {", v, xyz, xyz);
    buf_printf(p->b, s->shift ? " if (%s < 0) continue;\n" : "\n", v);
    break;
  case LEVEL_WRG: buf_printf(p->b, "; %s += gridDim.%c) {\n", v, xyz); break;
  default: buf_printf(p->b, "; %s += blockDim.%c) {\n", v, xyz); break;
  }
}

/* A vector store: one aligned store, else lane by lane from a copy. */
static bool vector_store(StmtPrinter *p, KStmt *s) {
  if (s->lhs->kind != CE_VLOAD) return false;
  const char *t = codegen_cudatype(s->lhs->type);
  if (codegen_cuda_vector_aligned(s->lhs)) {
    buf_printf(p->b, "*(%s *)&%s[", t, s->lhs->buf->name);
    codegen_nat(p->b, s->lhs->nat);
    buf_puts(p->b, "] = ");
    codegen_cudaexp(p->b, s->rhs);
    buf_puts(p->b, ";\n");
    return true;
  }
  buf_printf(p->b, "{\n");
  p->depth++;
  codegen_indent(p);
  buf_printf(p->b, "const %s clift_v = ", t);
  codegen_cudaexp(p->b, s->rhs);
  buf_puts(p->b, ";\n");
  for (int j = 0; j < s->lhs->type->width; j++) {
    codegen_indent(p);
    codegen_cuda_lane_access(p->b, s->lhs, j);
    buf_printf(p->b, " = clift_lane(clift_v, %d);\n", j);
  }
  p->depth--;
  codegen_indent(p);
  buf_puts(p->b, "}\n");
  return true;
}

/* orders both shared and global memory among the block's threads; a warp
   barrier (dpia/warp.c) among the warp's, where the block's warps are whole */
static void barrier(StmtPrinter *p, KStmt *s) {
  const char *warp = p->local_size[0] > 0 && p->local_size[0] % 32 == 0 ? "__syncwarp();\n" : "clift_syncwarp();\n";
  buf_puts(p->b, s->dim & BARRIER_WARP ? warp : "__syncthreads();\n");
}

/* Local memory sized at launch: one extern __shared__ array for the block (the
   launch's dynamic shared memory, the sum of codegen_dynamic_local_bytes), each
   local a pointer at its offset (multiples of 16: float4 accesses stay aligned). */
static void dynamic_local(Buf *b, PlanKernel *pk, int i, Nat *offset, bool first) {
  if (first) buf_puts(b, "  extern __shared__ __align__(16) unsigned char clift_dynamic_shared[];\n");
  const char *t = memory_type(codegen_element_type(pk->locals[i]->type));
  buf_printf(b, "  %s *__restrict__ %s = (%s *)(clift_dynamic_shared + ", t, pk->locals[i]->name, t);
  codegen_nat(b, offset);
  buf_puts(b, ");\n");
}

static const StmtStyle cuda_style = { codegen_cudatype, codegen_cudaexp, loop_head, vector_store, barrier,
                                      "blockDim.x == %lld && blockDim.y == 1 && blockDim.z == 1",
                                      "(clift_index)blockIdx.x", "(clift_index)gridDim.x", dynamic_local };

/* Parameters: the global buffers it touches (inputs const), every size, the
   variables of the host loops around it, every scalar input, the error cell;
   the host passes them in this order. */
static void print_signature(Buf *b, Plan *pl, PlanKernel *pk) {
  Kernel *k = pl->k;
  buf_puts(b, "extern \"C\" __global__ void ");
  int group, blocks = dpia_single_pass_min_blocks(&group);
  long long pinned[3] = { 0, 0, 0 };
  plan_pinned_sizes(pk->body, pinned);
  if (blocks > 0 && pinned[0] == group && plan_has_atomic(pk->body))   /* the one pass, its group pinned */
    buf_printf(b, "__launch_bounds__(%d, %d) ", group, blocks);
  buf_printf(b, "%s(", pk->name);
  const char *sep = "";
  for (int i = 0; i < pk->nbufs; i++, sep = ", ") {
    Buffer *buf = pk->bufs[i];
    bool in = buf->is_param && buf->param_index > 0;
    if (buf->base) { buf_printf(b, "%s%schar *%s_base", sep, in ? "const " : "", buf->name); continue; }
    buf_printf(b, "%s%s%s *__restrict__ %s", sep, in ? "const " : "", memory_type(codegen_element_type(buf->type)), buf->name);
  }
  sep = codegen_size_params(b, pl, pk, "const long long", sep);
  for (int i = 0; i < k->nscalars; i++, sep = ", ")
    buf_printf(b, "%sconst %s %s", sep, memory_type(k->scalar_types[i]), k->scalar_names[i]);
  buf_printf(b, "%sint *clift_error) {\n", sep);
  codegen_size_locals(b, pl, pk);
}

/* A split tuple's field's pointee (codegen_split_fields). */
static const char *field_type(Buffer *buf) { return memory_type(codegen_element_type(buf->type)); }

/* The body first: the sizes it names are the kernel's size parameters. */
static void print_kernel(Buf *b, Plan *pl, PlanKernel *pk) {
  Buf rest = {0};
  codegen_split_fields(&rest, pk, "", "__restrict__", field_type);
  codegen_kernel_body(&rest, pk, &cuda_style, "__shared__ __align__(16)", "", memory_type);   /* aligned for float4 accesses */
  codegen_mark_sizes(pl, pk, buf_str(&rest));
  buf_printf(b, "/* %s: %s */\n", pk->name, pk->single ? "one thread" : "parallel");
  print_signature(b, pl, pk);
  buf_puts(b, buf_str(&rest));
}

const char *codegen_cuda(Plan *pl) {
  Buf body = {0}, types = {0};
  Kernel *k = pl->k;
  codegen_declare_types(k, declare_type, &types);
  codegen_assume_size_conditions(k->prog);
  for (int i = 0; i < pl->n; i++) print_kernel(&body, pl, &pl->kernels[i]);
  codegen_assume_size_conditions(NULL);
  Buf b = {0};
  buf_printf(&b, "/* generated by clift (cuda target) from %s */\n", k->prog->file);
  codegen_notes(&b, k);
  buf_puts(&b, prelude);
  if (strstr(buf_str(&body), "clift_syncwarp()")) buf_puts(&b, warp_prelude);
  if (strstr(buf_str(&body), "clift_prefetch(")) buf_puts(&b, prefetch_prelude);
  codegen_checks_prelude(&b, CHECKS_CUDA);
  if (strstr(buf_str(&types), "CLIFT_VECTOR")) { buf_puts(&b, vector_prelude); vector_real_prelude(&b); }
  if (buf_str(&types)[0]) buf_printf(&b, "%s\n", buf_str(&types));
  buf_puts(&b, buf_str(&body));
  return buf_str(&b);
}
