/* opencl_print.c — the `opencl` backend: a host plan (dpia/plan.h) printed as
   OpenCL C 1.2, one __kernel per plan kernel. Parallel loops are grid-stride
   loops over get_global_id / get_group_id / get_local_id, so any launch size
   is correct; local temporaries are __local arrays of the kernel; vectors are
   float4 with vloadN / vstoreN. */
#include "stmt_print.h"
#include "../syntax/ast.h"   /* the program's sizes, parameters and result */
#include "../dpia/plan.h"
#include <string.h>


/* min/max in index arithmetic mix long and int, which the overloaded builtins
   refuse as ambiguous: they become plain comparisons. Integers select by a mask
   (a ^ ((a ^ b) & -(b < a))): NVIDIA's ptxas (CUDA 12/13, sm_90) fuses chains of
   32-bit min/max written as comparisons or builtins into a three-input VIMNMX3
   and drops a negated operand (max(r, 2 - i) over i < 8 gave 4; FINDINGS F36,
   bench/gpu/f36/mini2.cu); the mask's form is not fused. Reals keep
   a < b ? a : b (a NaN as C keeps it); integer vectors' comparisons give -1 lanes,
   hence clift_vmin. aref's range check sets the error cell every kernel
   receives (host-read). */
static const char *prelude =
  "/* index arithmetic: 32-bit when the host knows every size and buffer fits */\n"
  "#ifndef CLIFT_INDEX\n#define CLIFT_INDEX long\n#endif\n"
  "typedef CLIFT_INDEX clift_index;\n"
  "/* a work-item's sequential loop: not vectorised on a CPU device (the runtime's\n"
  "   -DCLIFT_NO_LOOP_VECTORIZE; PoCL 3.1's LLVM aborted selecting one's vector code) */\n"
  "#ifdef CLIFT_NO_LOOP_VECTORIZE\n#define CLIFT_SEQ_LOOP _Pragma(\"clang loop vectorize(disable)\")\n"
  "#else\n#define CLIFT_SEQ_LOOP\n#endif\n"
  "#undef min\n#undef max\n"
  "#define min(a, b) ((a) ^ (((a) ^ (b)) & -((b) < (a))))\n"
  "#define max(a, b) ((a) ^ (((a) ^ (b)) & -((a) < (b))))\n"
  "#define clift_fmin(a, b) ((a) < (b) ? (a) : (b))\n"
  "#define clift_fmax(a, b) ((a) > (b) ? (a) : (b))\n"
  "#define clift_vmin(a, b) ((a) ^ (((a) ^ (b)) & ((b) < (a))))\n"
  "#define clift_vmax(a, b) ((a) ^ (((a) ^ (b)) & ((a) < (b))))\n"
  "int clift_min_int(int a, int b) { return min(a, b); }\n"
  "int clift_max_int(int a, int b) { return max(a, b); }\n"
  "long clift_min_long(long a, long b) { return min(a, b); }\n"
  "long clift_max_long(long a, long b) { return max(a, b); }\n"
  "bool clift_min_bool(bool a, bool b) { return a && b; }\n"
  "bool clift_max_bool(bool a, bool b) { return a || b; }\n"
  "int clift_abs_int(int a) { return a < 0 ? (int)(0u - (uint)a) : a; }   /* abs of INT_MIN wraps, as in C: -a is undefined */\n"
  "long clift_abs_long(long a) { return a < 0 ? (long)(0ul - (ulong)a) : a; }\n"
  "\n";

/* The type of a buffer element or kernel argument: bool is one byte there (uchar),
   as in the host layout (docs/runtime.md §2). */
static const char *memory_type(Type *t) {
  return t->kind == TY_BOOL ? "uchar" : codegen_cltype(t);
}

static void declare_type(Buf *b, Type *t, Buf *seen) {
  if (t->kind == TY_ARRAY) { declare_type(b, t->elem, seen); return; }
  if (t->kind != TY_TUPLE) return;
  const char *name = codegen_cltype(t);
  if (strstr(buf_str(seen), arena_printf(" %s ", name))) return;
  buf_printf(seen, " %s ", name);
  for (int i = 0; i < t->n; i++) declare_type(b, t->fields[i], seen);
  buf_puts(b, "typedef struct {");
  for (int i = 0; i < t->n; i++) buf_printf(b, " %s f%d;", memory_type(t->fields[i]), i);
  buf_printf(b, " } %s;\n", name);
}


/* A sequential loop of at most this many steps, a constant, is printed with
   `#pragma unroll`: PoCL 3.1 aborts compiling a kernel where a loop of two steps
   (a work-group's reduceSeq of two elements) lies in a loop holding a barrier
   (ParallelRegion.cc:346, `exit != NULL`; difftest F38); unrolled by Clang first,
   the kernel compiles. 3 and more steps did not crash; 4 leaves a margin. */
enum { UNROLL_SHORT_LOOPS = 4 };

static bool short_loop(KStmt *s) {
  long long c;
  return nat_is_const(s->count, &c) && c <= UNROLL_SHORT_LOOPS;
}

/* Grid-stride loops: start at this work-item's id, step by the number of them. */
static void loop_head(StmtPrinter *p, KStmt *s) {
  const char *v = s->var->name;
  codegen_indent(p);
  if (s->level == LEVEL_SEQ) {
    if (s->unroll || short_loop(s)) { buf_puts(p->b, "#pragma unroll\n"); codegen_indent(p); }
    buf_puts(p->b, "CLIFT_SEQ_LOOP\n");   /* the prelude's: nothing, or no vectorisation on a CPU device */
    codegen_indent(p);
    buf_printf(p->b, "for (clift_index %s = 0; %s < ", v, v);
    codegen_nat(p->b, s->count);
    buf_printf(p->b, "; %s += 1) {\n", v);
    return;
  }
  long long c, n;
  switch (codegen_lcl_form(p, s, &c, &n)) {   /* a pinned work-group's size n (stmt_print.h) */
  case LCL_BLOCK: buf_printf(p->b, "{ const clift_index %s = get_local_id(%d); (void)%s;\n", v, s->dim, v); return;
  case LCL_IF: buf_printf(p->b, "if (get_local_id(%d) < %lld) { const clift_index %s = get_local_id(%d); (void)%s;\n", s->dim, c, v, s->dim, v); return;
  case LCL_STEPS:
    buf_printf(p->b, "for (clift_index %s_step = 0; %s_step < %lld; %s_step += 1) { const clift_index %s = get_local_id(%d) + %s_step * %lld; (void)%s;\n",
               v, v, c / n, v, v, s->dim, v, n, v);
    return;
  case LCL_STRIDE: buf_printf(p->b, "for (clift_index %s = get_local_id(%d); %s < %lld; %s += %lld) {\n", v, s->dim, v, c, v, n); return;
  case LCL_RUNTIME: break;
  }
  const char *id = s->level == LEVEL_GLB ? "global_id" : s->level == LEVEL_WRG ? "group_id" : "local_id";
  const char *size = s->level == LEVEL_GLB ? "global_size" : s->level == LEVEL_WRG ? "num_groups" : "local_size";
  if (nat_proves_le(s->count, nat_const(1))) {   /* at most one iteration in all (a peeled stencil's border): an if */
    buf_printf(p->b, "if ((clift_index)get_%s(%d) < ", id, s->dim);
    codegen_nat(p->b, s->count);
    buf_printf(p->b, ") { const clift_index %s = get_%s(%d);\n", v, id, s->dim);
    return;
  }
  if (s->level == LEVEL_GLB && s->shift)   /* KStmt.shift */
    buf_printf(p->b, "for (clift_index %s = (clift_index)get_%s(%d) - %lld", v, id, s->dim, s->shift);
  else
    buf_printf(p->b, "for (clift_index %s = get_%s(%d)", v, id, s->dim);
  buf_printf(p->b, "; %s < ", v);
  codegen_nat(p->b, s->count);
  buf_printf(p->b, "; %s += get_%s(%d)) {", v, size, s->dim);
  buf_printf(p->b, s->level == LEVEL_GLB && s->shift ? " if (%s < 0) continue;\n" : "\n", v);
}

/* vstoreN(value, 0, address); a packed float3 element: vstore3(value, index, buffer) */
static bool vector_store(StmtPrinter *p, KStmt *s) {
  if (codegen_cl_packed3(s->lhs)) {
    buf_puts(p->b, "vstore3(");
    codegen_clexp(p->b, s->rhs);
    buf_puts(p->b, ", ");
    codegen_nat(p->b, s->lhs->nat);
    buf_printf(p->b, ", %s);\n", s->lhs->buf->name);
    return true;
  }
  if (s->lhs->kind != CE_VLOAD) return false;
  if (codegen_cl_vector_aligned(s->lhs)) {
    buf_printf(p->b, "*(%s %s *)&%s[", codegen_cl_space(s->lhs->buf), codegen_cltype(s->lhs->type), s->lhs->buf->name);
    codegen_nat(p->b, s->lhs->nat);
    buf_puts(p->b, "] = ");
    codegen_clexp(p->b, s->rhs);
    buf_puts(p->b, ";\n");
    return true;
  }
  buf_printf(p->b, "vstore%d(", s->lhs->type->width);
  codegen_clexp(p->b, s->rhs);
  buf_printf(p->b, ", 0, &%s[", s->lhs->buf->name);
  codegen_nat(p->b, s->lhs->nat);
  buf_puts(p->b, "]);\n");
  return true;
}

/* A barrier whose conflicts are within warps (dpia/warp.c): OpenCL 1.2 has no
   warps, so it stays the work-group's barrier, except on NVIDIA's OpenCL, whose
   compiler takes inline PTX: the runtime builds with -DCLIFT_NVIDIA_WARP there
   (runtime/opencl_device.c, CLIFT_OCL_WARP) and the barrier is PTX's
   bar.warp.sync of the whole warp (what CUDA's __syncwarp() is; it orders the
   shared memory of the threads taking part), where the group's warps are
   whole: a fixed size that is a multiple of 32, else checked when it runs
   (the test is the same for every work-item of the group). */
static const char *warp_prelude =
  "#ifdef CLIFT_NVIDIA_WARP\n"
  "#define clift_warp_barrier() __asm volatile (\"bar.warp.sync -1;\" ::: \"memory\")\n"
  "#define clift_warp_barrier_any() do { if ((get_local_size(0) & 31) == 0 && get_local_size(1) == 1 && get_local_size(2) == 1) "
  "clift_warp_barrier(); else barrier(CLK_LOCAL_MEM_FENCE); } while (0)\n"
  "#else\n"
  "#define clift_warp_barrier() barrier(CLK_LOCAL_MEM_FENCE)\n"
  "#define clift_warp_barrier_any() barrier(CLK_LOCAL_MEM_FENCE)\n"
  "#endif\n";

static void barrier(StmtPrinter *p, KStmt *s) {
  if (s->dim & BARRIER_WARP) {
    buf_puts(p->b, p->local_size[0] > 0 && p->local_size[0] % 32 == 0 ? "clift_warp_barrier();\n" : "clift_warp_barrier_any();\n");
    return;
  }
  buf_printf(p->b, "barrier(%s%s%s);\n", s->dim & 1 ? "CLK_LOCAL_MEM_FENCE" : "",
             s->dim == 3 ? " | " : "", s->dim & 2 ? "CLK_GLOBAL_MEM_FENCE" : "");
}

/* No version test: the fixed-size version (fixed_size.c, PlanKernel.version_local)
   is a kernel of its own (print_kernel), as PoCL 3.1 hangs running kernels whose
   barriers lie in both arms of the version's `if`. */
static const StmtStyle opencl_style = { codegen_cltype, codegen_clexp, loop_head, vector_store, barrier, NULL,
                                        "(clift_index)get_group_id(0)", "(clift_index)get_num_groups(0)", NULL };

/* A global buffer's element type: a packed float3 is a float buffer read
   with vload3/vstore3 (c_expr.c). */
static const char *global_type(Buffer *buf) {
  Type *et = codegen_element_type(buf->type);
  if (et->kind == TY_VECTOR && et->width == 3) et = et->elem;
  return memory_type(et);
}

/* Parameters: the global buffers it touches, every size, the variables of the
   host loops around it, every scalar input, the error cell, then its local
   memory sized at launch (PlanKernel.local_dynamic: clSetKernelArg with a size
   and no value; the runtime, library_opencl's host file). */
static void print_signature(Buf *b, Plan *pl, PlanKernel *pk, bool fixed) {
  Kernel *k = pl->k;
  if (fixed) buf_printf(b, "__kernel __attribute__((reqd_work_group_size(%lld, 1, 1))) void %s_v%lld(", pk->version_local, pk->name, pk->version_local);
  else buf_printf(b, "__kernel void %s(", pk->name);
  const char *sep = "";
  for (int i = 0; i < pk->nbufs; i++, sep = ", ") {
    Buffer *buf = pk->bufs[i];
    bool in = buf->is_param && buf->param_index > 0;
    if (buf->base) { buf_printf(b, "%s__global %schar *%s_base", sep, in ? "const " : "", buf->name); continue; }
    buf_printf(b, "%s__global %s%s *restrict %s", sep, in ? "const " : "", global_type(buf), buf->name);
  }
  sep = codegen_size_params(b, pl, pk, "const long", sep);
  for (int i = 0; i < k->nscalars; i++, sep = ", ")
    buf_printf(b, "%sconst %s %s", sep, memory_type(k->scalar_types[i]), k->scalar_names[i]);
  buf_printf(b, "%s__global int *clift_error", sep);
  for (int i = 0; i < pk->nlocals; i++)
    if (pk->local_dynamic[i])
      buf_printf(b, ", __local %s *restrict %s", memory_type(codegen_element_type(pk->locals[i]->type)), pk->locals[i]->name);
  buf_puts(b, ") {\n");
  codegen_size_locals(b, pl, pk);
}

/* The bodies first: the sizes they name are the kernels' size parameters
   (the same for both versions: the runtime passes one list to either). */
static void print_kernel(Buf *b, Plan *pl, PlanKernel *pk) {
  Buf rest = {0}, fixed = {0};
  codegen_split_fields(&rest, pk, "__global ", "restrict", global_type);
  /* aligned like CUDA's __shared__ arrays: an aligned vector access is one access (c_expr.c) */
  codegen_kernel_body(&rest, pk, &opencl_style, "__local", " __attribute__((aligned(16)))", memory_type);
  if (pk->version_local) {
    codegen_split_fields(&fixed, pk, "__global ", "restrict", global_type);
    codegen_kernel_fixed_body(&fixed, pk, &opencl_style, "__local", " __attribute__((aligned(16)))", memory_type);
  }
  codegen_mark_sizes(pl, pk, arena_printf("%s%s", buf_str(&rest), buf_str(&fixed)));
  buf_printf(b, "/* %s: %s */\n", pk->name, pk->single ? "one work-item" : "parallel");
  print_signature(b, pl, pk, false);
  buf_puts(b, buf_str(&rest));
  if (!pk->version_local) return;
  buf_printf(b, "/* %s_v%lld: %s for work-groups of %lld (codegen/fixed_size.c) */\n", pk->name, pk->version_local, pk->name,
             pk->version_local);
  print_signature(b, pl, pk, true);
  buf_puts(b, buf_str(&fixed));
}

const char *codegen_opencl(Plan *pl) {
  Buf body = {0}, types = {0};
  Kernel *k = pl->k;
  codegen_declare_types(k, declare_type, &types);
  codegen_assume_size_conditions(k->prog);   /* aligned vector accesses (c_expr.c) */
  for (int i = 0; i < pl->n; i++) print_kernel(&body, pl, &pl->kernels[i]);
  codegen_assume_size_conditions(NULL);
  Buf b = {0};
  buf_printf(&b, "/* generated by clift (opencl target) from %s */\n", k->prog->file);
  codegen_notes(&b, k);
  /* fp64 is an extension in OpenCL 1.2: enabled only where the program needs it */
  if (strstr(buf_str(&body), "double") || strstr(buf_str(&types), "double"))
    buf_puts(&b, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  buf_puts(&b, prelude);
  if (strstr(buf_str(&body), "clift_warp_barrier")) buf_puts(&b, warp_prelude);
  codegen_checks_prelude(&b, CHECKS_OPENCL);
  if (buf_str(&types)[0]) buf_printf(&b, "%s\n", buf_str(&types));
  buf_puts(&b, buf_str(&body));
  return buf_str(&b);
}
