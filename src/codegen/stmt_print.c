/* stmt_print.c — statements of the kernel AST, printed once for every backend
   (see stmt_print.h for what a backend supplies). */
#include "stmt_print.h"
#include "../syntax/ast.h"
#include "../dpia/plan.h"
#include "../layout/layout.h"
#include "../prim/special.h"
#include <ctype.h>
#include <string.h>

void codegen_indent(StmtPrinter *p) { for (int i = 0; i < p->depth; i++) buf_puts(p->b, "  "); }

Type *codegen_element_type(Type *t) { return type_innermost(t); }

Nat *codegen_element_count(Type *t) { return layout_type_elements(t); }

static void print_body(StmtPrinter *p, KStmt *s) {
  p->depth++;
  codegen_stmt(p, s);
  p->depth--;
}

static void print_decl(StmtPrinter *p, KStmt *s) {
  if (s->buf) {   /* a private array (dpia_new), one per work-item */
    buf_printf(p->b, "%s %s[", p->style->type(codegen_element_type(s->type)), s->name);
    codegen_nat(p->b, codegen_element_count(s->type));
    buf_puts(p->b, "];\n");
    return;
  }
  buf_printf(p->b, "%s %s", p->style->type(s->type), s->name);
  if (s->init) { buf_puts(p->b, " = "); p->style->exp(p->b, s->init); }
  buf_puts(p->b, ";\n");
  /* a checkLength whose value nothing reads (APL's expand): the check is
     the point, the variable may be unused */
  if (s->init && s->init->kind == CE_OP && s->init->op == OP_CHECK_LENGTH) {
    codegen_indent(p);
    buf_printf(p->b, "(void)%s;\n", s->name);
  }
}

/* Does the '(' that starts t close at its last character? Then the
   parentheses are the expression's own and `while (…)` need not repeat them. */
static bool parens_close_at_end(const char *t) {
  int depth = 0;
  for (const char *c = t; *c; c++) {
    depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
    if (depth == 0) return c[1] == 0;
  }
  return false;
}

/* `KEYWORD (c) {` without doubled parentheses (clang warns on `((a == b))`). */
static void print_head(StmtPrinter *p, const char *keyword, CExp *cond) {
  Buf c = {0};
  p->style->exp(&c, cond);
  const char *t = buf_str(&c);
  size_t n = strlen(t);
  bool wrapped = n > 1 && t[0] == '(' && parens_close_at_end(t);
  buf_printf(p->b, "%s (%.*s) {\n", keyword, (int)(wrapped ? n - 2 : n), wrapped ? t + 1 : t);
}

void codegen_stmt(StmtPrinter *p, KStmt *s) {
  switch (s->kind) {
  case KS_BLOCK:
    if (s->scope) { codegen_indent(p); buf_puts(p->b, "{\n"); p->depth++; }
    for (int i = 0; i < s->n; i++) codegen_stmt(p, s->stmts[i]);
    if (s->scope) { p->depth--; codegen_indent(p); buf_puts(p->b, "}\n"); }
    return;
  case KS_DECL:
    codegen_indent(p);
    print_decl(p, s);
    return;
  case KS_COUNT: {   /* a size computed at run time, never below 0 */
    const char *t = p->style->type(type_scalar(TY_LONG));
    codegen_indent(p);
    buf_printf(p->b, "const %s %s_value = (%s)", t, s->var->name, t);
    p->style->exp(p->b, s->init);
    buf_puts(p->b, ";\n");
    codegen_indent(p);
    buf_printf(p->b, "const %s %s = %s_value > 0 ? %s_value : 0;\n", t, s->var->name, s->var->name, s->var->name);
    /* no reader where every loop over it runs no iteration (a length bounded
       by 0, kstmt_never_runs): -Wall's unused variable otherwise */
    codegen_indent(p);
    buf_printf(p->b, "(void)%s;\n", s->var->name);
    return;
  }
  case KS_ASSIGN:
    codegen_indent(p);
    if (p->style->special_assign && p->style->special_assign(p, s)) return;
    p->style->exp(p->b, s->lhs);
    buf_puts(p->b, " = ");
    p->style->exp(p->b, s->rhs);
    buf_puts(p->b, ";\n");
    return;
  case KS_FOR: {
    /* a sequential loop of no iteration is not printed: its body indexes rows of
       extent 0 (xs[i1 % 0]), which the OpenCL and C compilers warn about */
    if (s->level == LEVEL_SEQ && kstmt_never_runs(s)) return;
    bool parallel = s->level != LEVEL_SEQ;
    p->style->loop_head(p, s);
    p->parallel_open += parallel;
    print_body(p, s->body);
    p->parallel_open -= parallel;
    codegen_indent(p);
    buf_puts(p->b, "}\n");
    return;
  }
  case KS_IF:
    codegen_indent(p);
    print_head(p, "if", s->cond);
    print_body(p, s->then_);
    if (s->else_ && s->else_->n > 0) {
      codegen_indent(p);
      buf_puts(p->b, "} else {\n");
      print_body(p, s->else_);
    }
    codegen_indent(p);
    buf_puts(p->b, "}\n");
    return;
  case KS_WHILE:   /* while (c) { … }, or the commands c needs first, then the test */
    codegen_indent(p);
    if (s->then_->n == 0) {
      print_head(p, "while", s->cond);
    } else {
      buf_puts(p->b, "while (true) {\n");
      print_body(p, s->then_);
      p->depth++;
      codegen_indent(p);
      buf_puts(p->b, "if (!");
      p->style->exp(p->b, s->cond);
      buf_puts(p->b, ") break;\n");
      p->depth--;
    }
    print_body(p, s->body);
    codegen_indent(p);
    buf_puts(p->b, "}\n");
    return;
  case KS_BARRIER:
    if (!p->style->barrier) return;   /* the CPU targets: one thread per work-group */
    codegen_indent(p);
    p->style->barrier(p, s);
    return;
  }
}

static void walk_exp(CExp *e, void (*fn)(Type *, void *), void *ctx) {
  if (!e) return;
  if (e->type) fn(e->type, ctx);
  for (int i = 0; i < e->n; i++) walk_exp(e->args[i], fn, ctx);
}

void codegen_walk_types(KStmt *s, void (*fn)(Type *, void *), void *ctx) {
  if (!s) return;
  if (s->type) fn(s->type, ctx);
  walk_exp(s->init, fn, ctx);
  walk_exp(s->lhs, fn, ctx);
  walk_exp(s->rhs, fn, ctx);
  walk_exp(s->cond, fn, ctx);
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) codegen_walk_types(s->stmts[i], fn, ctx);
  codegen_walk_types(s->body, fn, ctx);
  codegen_walk_types(s->then_, fn, ctx);
  codegen_walk_types(s->else_, fn, ctx);
}

LclForm codegen_lcl_form(StmtPrinter *p, KStmt *s, long long *count, long long *size) {
  if (s->level != LEVEL_LCL || s->stride || s->dim < 0 || s->dim > 2 || !(*size = p->local_size[s->dim])) return LCL_RUNTIME;
  if (!nat_is_const(s->count, count)) return LCL_RUNTIME;
  if (*count == *size) return LCL_BLOCK;
  if (*count < *size) return LCL_IF;
  return *count % *size == 0 ? LCL_STEPS : LCL_STRIDE;
}

/* Bytes of local i sized at launch, rounded up to 16 (the next one's alignment):
   the host's sum of these is the launch's dynamic local memory (cuda). */
Nat *codegen_dynamic_local_bytes(PlanKernel *pk, int i) {
  Nat *bytes = nat_mul(pk->local_counts[i], nat_const(pk->local_dynamic[i]));
  return nat_mul(nat_div(nat_add(bytes, nat_const(15)), nat_const(16)), nat_const(16));
}

static void print_locals(Buf *b, PlanKernel *pk, const StmtStyle *style, const char *local_qualifier,
                         const char *local_suffix, const char *(*mem_type)(Type *t)) {
  Nat *offset = nat_const(0);
  bool first = true;
  for (int i = 0; i < pk->nlocals; i++) {
    if (pk->local_dynamic[i] && style->dynamic_local) {
      style->dynamic_local(b, pk, i, offset, first);
      offset = nat_add(offset, codegen_dynamic_local_bytes(pk, i));
      first = false;
    }
    if (pk->local_dynamic[i]) continue;   /* printed above, or a kernel argument (codegen_opencl's signature) */
    buf_printf(b, "  %s %s %s[", local_qualifier, mem_type(codegen_element_type(pk->locals[i]->type)), pk->locals[i]->name);
    codegen_nat(b, pk->local_counts[i]);
    buf_printf(b, "]%s;\n", local_suffix);
  }
}

void codegen_kernel_fixed_body(Buf *b, PlanKernel *pk, const StmtStyle *style, const char *local_qualifier,
                               const char *local_suffix, const char *(*mem_type)(Type *t)) {
  print_locals(b, pk, style, local_qualifier, local_suffix, mem_type);
  StmtPrinter p = { b, 1, style, 0, NULL, { 0, 0, 0 } };
  plan_pinned_sizes(pk->body, p.local_size);
  p.local_size[0] = pk->version_local;
  int counter = 0;
  codegen_stmt(&p, codegen_fixed_size_body(&p, pk, &counter));
  buf_puts(b, "}\n\n");
}

void codegen_kernel_body(Buf *b, PlanKernel *pk, const StmtStyle *style, const char *local_qualifier,
                         const char *local_suffix, const char *(*mem_type)(Type *t)) {
  print_locals(b, pk, style, local_qualifier, local_suffix, mem_type);
  StmtPrinter p = { b, 1, style, 0, NULL, { 0, 0, 0 } };
  plan_pinned_sizes(pk->body, p.local_size);
  if (pk->version_local && style->version_test && !p.local_size[0]) {   /* plan_version_local */
    buf_puts(b, "  if (");
    buf_printf(b, style->version_test, pk->version_local);
    buf_puts(b, ") {   /* the default block size: fixed-size loops */\n");
    p.depth = 2;
    p.local_size[0] = pk->version_local;
    int counter = 0;
    codegen_stmt(&p, codegen_fixed_size_body(&p, pk, &counter));
    buf_puts(b, "  } else {   /* any other */\n");
    p.local_size[0] = 0;
    codegen_stmt(&p, pk->body);
    buf_puts(b, "  }\n");
  } else {
    codegen_stmt(&p, pk->body);
  }
  buf_puts(b, "}\n\n");
}

typedef struct Declarer { void (*declare)(Buf *, Type *, Buf *); Buf *types, *seen; } Declarer;
static void declare_one(Type *t, void *ctx) { Declarer *d = ctx; d->declare(d->types, t, d->seen); }

void codegen_declare_types(Kernel *k, void (*declare)(Buf *, Type *, Buf *), Buf *types) {
  Buf seen = {0};
  Declarer d = { declare, types, &seen };
  for (int i = 0; i < k->nbufs; i++) if (!k->bufs[i]->split) declare(types, k->bufs[i]->type, &seen);
  for (int i = 0; i < k->nscalars; i++) declare(types, k->scalar_types[i], &seen);
  codegen_walk_types(k->body, declare_one, &d);
}

/* factorial and binomial (prim/special.h, the interpreter's own code as
   text, one function a line, CLIFT_Q replaced by the flavour's qualifier so
   that no line looks like an export to lib_c.c), and their checked forms: a
   domain error puts the arguments' bits into the cell */
#define CLIFT_STR(...) #__VA_ARGS__
#define CLIFT_XSTR(...) CLIFT_STR(__VA_ARGS__)
static void special_prelude(Buf *b, const char *q, const char *cell, const char *dbits) {
  static const char text[] = CLIFT_XSTR(CLIFT_SPECIAL_FNS), mark[] = "CLIFT_Q ";
  for (const char *p = strstr(text, mark); p;) {   /* each function on a line of its own, its qualifier q */
    p += strlen(mark);
    const char *next = strstr(p, mark);
    size_t n = next ? (size_t)(next - p) : strlen(p);
    while (n > 0 && p[n - 1] == ' ') n--;
    buf_printf(b, "%s%.*s\n", q, (int)n, p);
    p = next;
  }
  buf_printf(b, "%sdouble clift_factorial_in(double x, int site, %se) {\n"
             "  int bad = 0;\n  double r = clift_factorial_of(x, &bad);\n"
             "  if (bad) clift_fail(e, site, %s(x), 0);\n  return r;\n}\n", q, cell, dbits);
  buf_printf(b, "%sdouble clift_binomial_in(double k, double n, int site, %se) {\n"
             "  int bad = 0;\n  double r = clift_binomial_of(k, n, &bad);\n"
             "  if (bad) clift_fail(e, site, %s(k), %s(n));\n  return r;\n}\n", q, cell, dbits, dbits);
}

void codegen_notes(Buf *b, const Kernel *k) {
  for (int i = 0; i < k->nnotes; i++) buf_printf(b, "/* %s */\n", k->notes[i]);
}

void codegen_checks_prelude(Buf *b, ChecksFlavour fl) {
  static const struct { const char *q, *cell, *i32, *i64, *u32, *u64, *cas, *fbits, *dbits, *dbitsfn, *dguard, *powf; } f[] = {
    [CHECKS_C] = { "static inline ", "int *", "int32_t", "int64_t", "uint32_t", "uint64_t",
                   "__sync_bool_compare_and_swap(e, 0, site)",
                   "clift_float_bits(x)", "clift_double_bits(x)", "clift_double_bits", NULL, "powf" },
    [CHECKS_OPENCL] = { "", "__global int *", "int", "long", "uint", "ulong", "atomic_cmpxchg(e, 0, site) == 0",
                        "(long)as_uint(x)", "as_long(x)", "as_long", "cl_khr_fp64", "pow" },
    [CHECKS_CUDA] = { "__device__ inline ", "int *", "int", "long long", "unsigned", "unsigned long long",
                      "atomicCAS(e, 0, site) == 0",
                      "(long long)(unsigned)__float_as_int(x)", "__double_as_longlong(x)", "__double_as_longlong", NULL, "powf" },
  };
  const char *q = f[fl].q, *cell = f[fl].cell, *l = f[fl].i64;
  buf_printf(b, "%svoid clift_fail(%se, int site, %s a, %s n) {\n"
             "  if (%s) { e[1] = (int)(a & 0xffffffff); e[2] = (int)(a >> 32); e[3] = (int)(n & 0xffffffff); e[4] = (int)(n >> 32); }\n"
             "}\n", q, cell, l, l, f[fl].cas);
  buf_printf(b, "%s%s clift_check_index_in(%s i, %s n, int site, %se) {\n"
             "  if (i < 0 || i >= n) { clift_fail(e, site, i, n); return 0; }\n  return i;\n}\n", q, l, l, l, cell);
  buf_printf(b, "%s%s clift_check_length_in(%s a, %s n, int site, %se) {\n"
             "  if (a != n) clift_fail(e, site, a, n);\n  return (%s)a;\n}\n", q, f[fl].i32, l, l, cell, f[fl].i32);
  for (int w = 0; w < 2; w++) {
    const char *t = w ? l : f[fl].i32, *u = w ? f[fl].u64 : f[fl].u32;
    int bits = w ? 64 : 32;
    buf_printf(b, "%s%s clift_div_i%d_in(%s a, %s b, int site, %se) {\n"
               "  if (b == 0) { clift_fail(e, site, 0, 0); return 0; }\n"
               "  return b == -1 ? (%s)(0 - (%s)a) : a / b;\n}\n", q, t, bits, t, t, cell, t, u);
    buf_printf(b, "%s%s clift_mod_i%d_in(%s a, %s b, int site, %se) {\n"
               "  if (b == 0) { clift_fail(e, site, 0, 0); return 0; }\n"
               "  return b == -1 ? 0 : a %% b;\n}\n", q, t, bits, t, t, cell);
  }
  /* f2i/d2i outside the int range (NaN too): the value's bits go into the cell */
  if (fl == CHECKS_C)
    buf_puts(b, "static inline int64_t clift_float_bits(float x) { union { float f; uint32_t u; } c = { x }; return (int64_t)c.u; }\n"
                "static inline int64_t clift_double_bits(double x) { union { double d; uint64_t u; } c = { x }; return (int64_t)c.u; }\n");
  buf_printf(b, "%s%s clift_f2i_in(float x, int site, %se) {\n"
             "  if (!(x >= -2147483648.0f && x < 2147483648.0f)) { clift_fail(e, site, %s, 0); return 0; }\n"
             "  return (%s)x;\n}\n", q, f[fl].i32, cell, f[fl].fbits, f[fl].i32);
  if (f[fl].dguard) buf_printf(b, "#ifdef %s\n", f[fl].dguard);
  buf_printf(b, "%s%s clift_d2i_in(double x, int site, %se) {\n"
             "  if (!(x > -2147483649.0 && x < 2147483648.0)) { clift_fail(e, site, %s, 0); return 0; }\n"
             "  return (%s)x;\n}\n", q, f[fl].i32, cell, f[fl].dbits, f[fl].i32);
  special_prelude(b, q, cell, f[fl].dbitsfn);
  if (f[fl].dguard) buf_puts(b, "#endif\n");
  /* x to the power y (APL's *, pow): exact where x and y are integers and so
     is the result, below 2^24 for float and 2^53 for double, by repeated
     squaring (every intermediate is an exact integer no larger than the
     result), as glibc's pow gives on the CPU; a device's pow may miss such a
     power by an ulp, and floor then drops a whole unit (FINDINGS F29).
     Anything else: the library's pow. */
  for (int w = 0; w < 2; w++) {
    const char *t = w ? "double" : "float", *name = w ? "clift_pow" : "clift_powf", *lib = w ? "pow" : f[fl].powf;
    if (w && f[fl].dguard) buf_printf(b, "#ifdef %s\n", f[fl].dguard);
    buf_printf(b, "%s%s %s(%s x, %s y) {\n"
               "  if (y == floor(y) && x == floor(x) && fabs(y) <= 64) {\n"
               "    %s r = 1, p = x;\n"
               "    %s n = (%s)fabs(y);\n"
               "    while (n) { if (n & 1) r *= p; n >>= 1; if (n) p *= p; }\n"
               "    if (fabs(r) < %s) return y < 0 ? 1 / r : r;\n"
               "  }\n"
               "  return %s(x, y);\n}\n", q, t, name, t, t, t, l, l, w ? "9007199254740992.0" : "16777216.0f", lib);
    if (w && f[fl].dguard) buf_puts(b, "#endif\n");
  }
  buf_puts(b, "#define clift_factorial(x, site) clift_factorial_in(x, site, clift_error)\n"
              "#define clift_binomial(k, n, site) clift_binomial_in(k, n, site, clift_error)\n");
  buf_puts(b, "#define clift_f2i(x, site) clift_f2i_in(x, site, clift_error)\n"
              "#define clift_d2i(x, site) clift_d2i_in(x, site, clift_error)\n");
  buf_puts(b, "#define clift_check_index(i, n, site) clift_check_index_in(i, n, site, clift_error)\n"
              "#define clift_check_length(a, n, site) clift_check_length_in(a, n, site, clift_error)\n"
              "#define clift_div_i32(a, b, site) clift_div_i32_in(a, b, site, clift_error)\n"
              "#define clift_mod_i32(a, b, site) clift_mod_i32_in(a, b, site, clift_error)\n"
              "#define clift_div_i64(a, b, site) clift_div_i64_in(a, b, site, clift_error)\n"
              "#define clift_mod_i64(a, b, site) clift_mod_i64_in(a, b, site, clift_error)\n\n");
}

bool codegen_mentions_word(const char *text, const char *word) {
  size_t n = strlen(word);
  for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
    bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
    bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
    if (left && right) return true;
  }
  return false;
}

void codegen_mark_sizes(Plan *pl, PlanKernel *pk, const char *text) {
  Program *p = pl->k->prog;
  pk->sizes_used = NEW_ARRAY(bool, p->nsizes + pk->nvars);
  for (int i = 0; i < p->nsizes + pk->nvars; i++)
    pk->sizes_used[i] = codegen_mentions_word(text, i < p->nsizes ? p->sizes[i]->name : pk->vars[i - p->nsizes]->name);
}

/* The sizes, then the variables of the host loops and counts around the
   kernel, those it takes (codegen_mark_sizes); NULL for the others. */
static int size_count(Plan *pl, PlanKernel *pk) { return pl->k->prog->nsizes + pk->nvars; }
static const char *size_name(Plan *pl, PlanKernel *pk, int i) {
  int n = pl->k->prog->nsizes;
  if (!plan_kernel_takes_size(pk, i)) return NULL;
  return i < n ? pl->k->prog->sizes[i]->name : pk->vars[i - n]->name;
}

const char *codegen_size_params(Buf *b, Plan *pl, PlanKernel *pk, const char *type, const char *sep) {
  for (int i = 0; i < size_count(pl, pk); i++)
    if (size_name(pl, pk, i)) { buf_printf(b, "%s%s %s_arg", sep, type, size_name(pl, pk, i)); sep = ", "; }
  return sep;
}

void codegen_split_fields(Buf *b, PlanKernel *pk, const char *space, const char *restrict_kw,
                          const char *(*elem_type)(Buffer *buf)) {
  for (int i = 0; i < pk->nbufs; i++) {
    Buffer *buf = pk->bufs[i];
    if (!buf->base) continue;
    const char *c = buf->is_param && buf->param_index > 0 ? "const " : "", *t = elem_type(buf);
    buf_printf(b, "  %s%s%s *%s %s = (%s%s%s *)(%s_base + ", space, c, t, restrict_kw, buf->name, space, c, t, buf->name);
    codegen_nat(b, buf->offset);
    buf_puts(b, ");\n");
  }
}

void codegen_size_locals(Buf *b, Plan *pl, PlanKernel *pk) {
  for (int i = 0; i < size_count(pl, pk); i++)   /* in the index type */
    if (size_name(pl, pk, i))
      buf_printf(b, "  const clift_index %s = (clift_index)%s_arg;\n", size_name(pl, pk, i), size_name(pl, pk, i));
}
