/* opencl_print.c — the `opencl` backend: a host plan (dpia/plan.h) printed as
   OpenCL C 1.2, one __kernel per plan kernel. Parallel loops are grid-stride
   loops over get_global_id / get_group_id / get_local_id, so any launch size
   is correct; local temporaries are __local arrays of the kernel; vectors are
   float4 with vloadN / vstoreN. */
#include "codegen.h"
#include "../dpia/plan.h"
#include <string.h>

typedef struct Printer { Buf *b; int depth; } Printer;

static void indent(Printer *p) { for (int i = 0; i < p->depth; i++) buf_puts(p->b, "  "); }

/* min/max in index arithmetic mix long and int, which the overloaded builtins
   refuse as ambiguous: they become plain comparisons (element-wise on vectors).
   aref's range check sets the error cell every kernel receives (host-read). */
static const char *prelude =
  "#undef min\n#undef max\n"
  "#define min(a, b) ((a) < (b) ? (a) : (b))\n"
  "#define max(a, b) ((a) > (b) ? (a) : (b))\n"
  "int clift_abs_int(int a) { return a < 0 ? -a : a; }\n"
  "long clift_abs_long(long a) { return a < 0 ? -a : a; }\n"
  "long clift_check_index_in(long i, long n, __global int *error) {\n"
  "  if (i < 0 || i >= n) { *error = 1; return 0; }\n"
  "  return i;\n"
  "}\n"
  "#define clift_check_index(i, n) clift_check_index_in(i, n, clift_error)\n\n";

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

static void declare_exp_types(Buf *b, CExp *e, Buf *seen) {
  if (!e) return;
  if (e->type) declare_type(b, e->type, seen);
  for (int i = 0; i < e->n; i++) declare_exp_types(b, e->args[i], seen);
}

static void declare_stmt_types(Buf *b, KStmt *s, Buf *seen) {
  if (!s) return;
  if (s->type) declare_type(b, s->type, seen);
  declare_exp_types(b, s->init, seen); declare_exp_types(b, s->lhs, seen);
  declare_exp_types(b, s->rhs, seen); declare_exp_types(b, s->cond, seen);
  for (int i = 0; i < s->n && s->kind == KS_BLOCK; i++) declare_stmt_types(b, s->stmts[i], seen);
  declare_stmt_types(b, s->body, seen); declare_stmt_types(b, s->then_, seen); declare_stmt_types(b, s->else_, seen);
}

static Type *element_type(Type *t) { while (t->kind == TY_ARRAY) t = t->elem; return t; }

static void print_stmt(Printer *p, KStmt *s);

static void print_block(Printer *p, KStmt *s) {
  for (int i = 0; i < s->n; i++) print_stmt(p, s->stmts[i]);
}

/* Grid-stride loops: start at this work-item's id, step by the number of them. */
static void print_for(Printer *p, KStmt *s) {
  const char *v = s->var->name;
  indent(p);
  if (s->level == LEVEL_SEQ) {
    buf_printf(p->b, "for (long %s = 0; %s < ", v, v);
  } else {
    const char *id = s->level == LEVEL_GLB ? "global_id" : s->level == LEVEL_WRG ? "group_id" : "local_id";
    const char *size = s->level == LEVEL_GLB ? "global_size" : s->level == LEVEL_WRG ? "num_groups" : "local_size";
    buf_printf(p->b, "for (long %s = get_%s(%d); %s < ", v, id, s->dim, v);
    codegen_nat(p->b, s->count);
    buf_printf(p->b, "; %s += get_%s(%d)) {\n", v, size, s->dim);
  }
  if (s->level == LEVEL_SEQ) { codegen_nat(p->b, s->count); buf_printf(p->b, "; %s += 1) {\n", v); }
  p->depth++;
  print_block(p, s->body);
  p->depth--;
  indent(p);
  buf_puts(p->b, "}\n");
}

static void print_assign(Printer *p, KStmt *s) {
  indent(p);
  if (s->lhs->kind == CE_VLOAD) {   /* vstoreN(value, 0, address) */
    buf_printf(p->b, "vstore%d(", s->lhs->type->width);
    codegen_clexp(p->b, s->rhs);
    buf_printf(p->b, ", 0, &%s[", s->lhs->buf->name);
    codegen_nat(p->b, s->lhs->nat);
    buf_puts(p->b, "]);\n");
    return;
  }
  codegen_clexp(p->b, s->lhs);
  buf_puts(p->b, " = ");
  codegen_clexp(p->b, s->rhs);
  buf_puts(p->b, ";\n");
}

static void print_stmt(Printer *p, KStmt *s) {
  switch (s->kind) {
  case KS_BLOCK: print_block(p, s); return;
  case KS_DECL:
    indent(p);
    if (s->buf) {   /* a private array (dpia_new), one per work-item */
      Type *e = s->type;
      Nat *n = nat_const(1);
      for (; e->kind == TY_ARRAY; e = e->elem) n = nat_mul(n, e->len);
      buf_printf(p->b, "%s %s[", codegen_cltype(e), s->name);
      codegen_nat(p->b, n);
      buf_puts(p->b, "];\n");
      return;
    }
    buf_printf(p->b, "%s %s", codegen_cltype(s->type), s->name);
    if (s->init) { buf_puts(p->b, " = "); codegen_clexp(p->b, s->init); }
    buf_puts(p->b, ";\n");
    return;
  case KS_ASSIGN: print_assign(p, s); return;
  case KS_FOR: print_for(p, s); return;
  case KS_IF:
    indent(p);
    buf_puts(p->b, "if (");
    codegen_clexp(p->b, s->cond);
    buf_puts(p->b, ") {\n");
    p->depth++; print_block(p, s->then_); p->depth--;
    if (s->else_) {
      indent(p); buf_puts(p->b, "} else {\n");
      p->depth++; print_block(p, s->else_); p->depth--;
    }
    indent(p); buf_puts(p->b, "}\n");
    return;
  case KS_BARRIER:
    indent(p);
    buf_printf(p->b, "barrier(%s%s%s);\n", s->dim & 1 ? "CLK_LOCAL_MEM_FENCE" : "",
               s->dim == 3 ? " | " : "", s->dim & 2 ? "CLK_GLOBAL_MEM_FENCE" : "");
    return;
  }
}

/* Parameters: the global buffers it touches, every size and scalar input, the error cell. */
static void print_signature(Buf *b, Plan *pl, PlanKernel *pk) {
  Kernel *k = pl->k;
  buf_printf(b, "__kernel void %s(", pk->name);
  const char *sep = "";
  for (int i = 0; i < pk->nbufs; i++, sep = ", ") {
    Buffer *buf = pk->bufs[i];
    bool in = buf->is_param && buf->param_index > 0;
    buf_printf(b, "%s__global %s%s *restrict %s", sep, in ? "const " : "", memory_type(element_type(buf->type)), buf->name);
  }
  for (int i = 0; i < k->prog->nsizes; i++, sep = ", ") buf_printf(b, "%sconst long %s", sep, k->prog->sizes[i]->name);
  for (int i = 0; i < k->nscalars; i++, sep = ", ")
    buf_printf(b, "%sconst %s %s", sep, memory_type(k->scalar_types[i]), k->scalar_names[i]);
  buf_printf(b, "%s__global int *clift_error) {\n", sep);
}

static void print_kernel(Buf *b, Plan *pl, PlanKernel *pk) {
  buf_printf(b, "/* %s: %s */\n", pk->name, pk->single ? "one work-item" : "parallel");
  print_signature(b, pl, pk);
  for (int i = 0; i < pk->nlocals; i++) {
    buf_printf(b, "  __local %s %s[", memory_type(element_type(pk->locals[i]->type)), pk->locals[i]->name);
    codegen_nat(b, pk->local_counts[i]);
    buf_puts(b, "];\n");
  }
  Printer p = { b, 1 };
  print_block(&p, pk->body);
  buf_puts(b, "}\n\n");
}

const char *codegen_opencl(Plan *pl) {
  Buf body = {0}, types = {0}, seen = {0};
  Kernel *k = pl->k;
  for (int i = 0; i < k->nbufs; i++) declare_type(&types, k->bufs[i]->type, &seen);
  for (int i = 0; i < k->nscalars; i++) declare_type(&types, k->scalar_types[i], &seen);
  declare_stmt_types(&types, k->body, &seen);
  for (int i = 0; i < pl->n; i++) print_kernel(&body, pl, &pl->kernels[i]);
  Buf b = {0};
  buf_printf(&b, "/* generated by clift (opencl target) from %s */\n", k->prog->file);
  /* fp64 is an extension in OpenCL 1.2: enabled only where the program needs it */
  if (strstr(buf_str(&body), "double") || strstr(buf_str(&types), "double"))
    buf_puts(&b, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  buf_puts(&b, prelude);
  if (buf_str(&types)[0]) buf_printf(&b, "%s\n", buf_str(&types));
  buf_puts(&b, buf_str(&body));
  return buf_str(&b);
}
