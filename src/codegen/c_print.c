/* c_print.c — the `c` and `openmp` backends: the kernel as one C function. */
#include "stmt_print.h"
#include "../syntax/ast.h"   /* the program's sizes, parameters and result */
#include <ctype.h>
#include <string.h>


/* The error cell int clift_error[5] (dpia/kernel.h: site, index, length),
   set by the first failing run-time check, read by the host after the call. */
static const char *prelude =
  "#include <stdbool.h>\n#include <stdint.h>\n#include <stdlib.h>\n#include <math.h>\n\n"
  "#define CLIFT_MINMAX(T) \\\n"
  "  static inline T clift_min_##T(T a, T b) { return a < b ? a : b; } \\\n"
  "  static inline T clift_max_##T(T a, T b) { return a > b ? a : b; }\n"
  "CLIFT_MINMAX(int32_t)\nCLIFT_MINMAX(int64_t)\nCLIFT_MINMAX(float)\nCLIFT_MINMAX(double)\n"
  /* abs(INT_MIN) wraps, as in the interpreter, without -fwrapv (a compiled library) */
  "static inline int32_t clift_abs_int32_t(int32_t a) { return a < 0 ? (int32_t)(0u - (uint32_t)a) : a; }\n"
  "static inline int64_t clift_abs_int64_t(int64_t a) { return a < 0 ? (int64_t)(0u - (uint64_t)a) : a; }\n"
  "static inline float clift_abs_float(float a) { return fabsf(a); }\n"   /* abs(-0.0) is 0, as the interpreter's */
  "static inline double clift_abs_double(double a) { return fabs(a); }\n"
  "static inline int64_t min(int64_t a, int64_t b) { return a < b ? a : b; }\n"
  "static inline int64_t max(int64_t a, int64_t b) { return a > b ? a : b; }\n"
  "int clift_error[5];\n";

/* openmp: GCC 12's predictive commoning moves the stores of a small, fully
   known loop nest below it, storing back the old value of every element an
   iteration this thread did not run would have written; another thread's
   element written in between is lost (F32, tests/difftest/FINDINGS.md: APL's
   dyadic transpose lost elements in pairs, one run in five, once the parallel
   loop stated its range). Off for the whole file; GCC only. */
static const char *no_store_motion =
  "#if defined(__GNUC__) && !defined(__clang__)\n"
  "#pragma GCC optimize(\"no-predictive-commoning\")\n"
  "#endif\n";

/* GCC 12.2 (Debian 12's) miscompiles, at -O3 with AVX2 where its cost model
   vectorizes (-march=znver3 here), a loop whose body sums an inner loop's
   conditional loads in groups of three: `acc += x < N ? a[x] : 1` over
   x = 3w + i, i < 3, stored to out[3w + l] (difftest F41: a work-group's
   reduce of a padded chunk of 3, wrong sums on c; clang, -O2, groups of 4 are
   right). The vectorized masked loads come from if-conversion; without it such
   loops stay scalar. Only files with a load under a condition (a select's arm,
   an if's branch; not a store, nor a load of an element the if's condition
   loads itself: a filter's scatter, 1.21-1.24x the hand C with the pragma) get it: without if-conversion the `a < 0 ? -a : a` of an
   unconditional loop stays a branch too (asum on openmp 1.17x the hand C, not
   1.00x; tests/regress/f41_gcc_masked_load_groups.lift). */
static const char *no_if_convert =
  "#if defined(__GNUC__) && !defined(__clang__)\n"
  "#pragma GCC optimize(\"no-tree-loop-if-convert\")\n"
  "#endif\n";

/* Vector typedefs (GCC vector extension, which broadcasts scalars as OpenCL
   does) and array-of-structs element types used anywhere in the kernel. */
static void declare_type(Buf *b, Type *t, Buf *seen) {
  if (t->kind == TY_ARRAY) { declare_type(b, t->elem, seen); return; }
  const char *name = codegen_ctype(t);
  if (t->kind != TY_VECTOR && t->kind != TY_TUPLE) return;
  if (strstr(buf_str(seen), arena_printf(" %s ", name))) return;
  buf_printf(seen, " %s ", name);
  if (t->kind == TY_VECTOR) {
    const char *s = codegen_ctype(t->elem);
    /* GCC vectors have power-of-two lanes: a 3-lane vector is a 4-lane one
       whose last lane is unused, loaded and stored lane by lane */
    int lanes = t->width == 3 ? 4 : t->width;
    int bytes = lanes * (t->elem->kind == TY_DOUBLE || t->elem->kind == TY_LONG ? 8 : 4);
    buf_printf(b, "typedef %s %s __attribute__((vector_size(%d)));\n", s, name, bytes);
    buf_printf(b, "typedef %s %su __attribute__((vector_size(%d), aligned(%d)));\n", s, name, bytes, bytes / lanes);
    if (t->elem->kind == TY_INT || t->elem->kind == TY_LONG)   /* + - * wrap through it (c_expr.c print_wrapping) */
      buf_printf(b, "typedef u%s %s_w __attribute__((vector_size(%d)));\n", s, name, bytes);
    /* math on vectors, lane by lane (SPEC §4.3; the C library has none) */
    bool fp = t->elem->kind == TY_FLOAT || t->elem->kind == TY_DOUBLE;
    const char *suffix = t->elem->kind == TY_FLOAT ? "f" : "";
    buf_printf(b, "static inline %s clift_vabs_%s(%s a) { for (int i = 0; i < %d; i++) a[i] = a[i] < 0 ? -a[i] : a[i]; return a; }\n",
               name, name, name, t->width);
    buf_printf(b, "static inline %s clift_vmin_%s(%s a, %s b) { for (int i = 0; i < %d; i++) a[i] = a[i] < b[i] ? a[i] : b[i]; return a; }\n",
               name, name, name, name, t->width);
    buf_printf(b, "static inline %s clift_vmax_%s(%s a, %s b) { for (int i = 0; i < %d; i++) a[i] = a[i] > b[i] ? a[i] : b[i]; return a; }\n",
               name, name, name, name, t->width);
    const char *fn;
    int arity;
    for (int i = 0; fp && (fn = codegen_libm_at(i, &arity)); i++) {
      if (arity == 1)
        buf_printf(b, "static inline %s clift_v%s_%s(%s a) { for (int i = 0; i < %d; i++) a[i] = %s%s(a[i]); return a; }\n",
                   name, fn, name, name, t->width, fn, suffix);
      else
        buf_printf(b, "static inline %s clift_v%s_%s(%s a, %s b) { for (int i = 0; i < %d; i++) a[i] = %s%s(a[i], b[i]); return a; }\n",
                   name, fn, name, name, name, t->width, fn, suffix);
    }
    return;
  }
  for (int i = 0; i < t->n; i++) declare_type(b, t->fields[i], seen);
  buf_puts(b, "typedef struct {");
  for (int i = 0; i < t->n; i++) buf_printf(b, " %s f%d;", codegen_ctype(t->fields[i]), i);
  buf_printf(b, " } %s;\n", name);
}

/* openmp (ctx points to true): the outermost parallel loop gets the pragma;
   every loop is a plain for. The parallel loop's body states the variable's
   range: GCC outlines it into a function whose bounds come from the thread
   number, and without the range it cannot tell that an index built from it is
   non-negative (APL's residues of such an index keep their sign fix-ups and
   the loop stays scalar: easter 6.1 ms against 3.7 ms). */
static void loop_head(StmtPrinter *p, KStmt *s) {
  bool pragma = *(const bool *)p->ctx && s->level != LEVEL_SEQ && p->parallel_open == 0;
  if (pragma) {
    codegen_indent(p);
    buf_puts(p->b, "#pragma omp parallel for schedule(static)\n");
  }
  codegen_indent(p);
  buf_printf(p->b, "for (int64_t %s = 0; %s < ", s->var->name, s->var->name);
  codegen_nat(p->b, s->count);
  buf_printf(p->b, "; %s += 1) {\n", s->var->name);
  if (!pragma) return;
  codegen_indent(p);
  buf_printf(p->b, "  if (%s < 0 || %s >= ", s->var->name, s->var->name);
  codegen_nat(p->b, s->count);
  buf_puts(p->b, ") __builtin_unreachable();\n");
}

/* A 3-lane vector store writes its three lanes (the register holds four). */
static bool store3(StmtPrinter *p, KStmt *s) {
  if (s->lhs->kind != CE_VLOAD || s->lhs->type->width != 3) return false;
  buf_printf(p->b, "{ %s v_ = ", codegen_ctype(s->lhs->type));
  codegen_cexp(p->b, s->rhs);
  buf_puts(p->b, ";");
  for (int j = 0; j < 3; j++) {
    buf_putc(p->b, ' ');
    codegen_cuda_lane_access(p->b, s->lhs, j);
    buf_printf(p->b, " = v_[%d];", j);
  }
  buf_puts(p->b, " }\n");
  return true;
}

static const StmtStyle c_style = { codegen_ctype, codegen_cexp, loop_head, store3, NULL, NULL, NULL, NULL, NULL };

static void print_entry_head(Buf *b, Kernel *k) {
  Program *prog = k->prog;
  buf_puts(b, "void clift_run(void **buffers, const long long *sizes) {\n");
  for (int i = 0; i < prog->nsizes; i++) buf_printf(b, "  const int64_t %s = sizes[%d];\n", prog->sizes[i]->name, i);
  if (prog->nsizes == 0) buf_puts(b, "  (void)sizes;\n");
  for (int i = 0; i < k->nscalars; i++)
    buf_printf(b, "  const %s %s = *(const %s *)buffers[%d];\n", codegen_ctype(k->scalar_types[i]),
               k->scalar_names[i], codegen_ctype(k->scalar_types[i]), k->scalar_params[i]);
  for (int i = 0; i < k->nbufs; i++) {
    Buffer *buf = k->bufs[i];
    if (buf->split) continue;   /* only its fields' buffers are accessed */
    const char *t = codegen_ctype(codegen_element_type(buf->type));
    const char *c = buf->param_index ? "const " : "";
    if (buf->base) {   /* a field of a split tuple: at its offset in the parameter's buffer */
      buf_printf(b, "  %s%s *restrict %s = (%s%s *)((%schar *)buffers[%d] + ", c, t, buf->name, c, t, c, buf->param_index);
      codegen_nat(b, buf->offset);
      buf_puts(b, ");\n");
    } else if (buf->is_param) {
      buf_printf(b, "  %s%s *restrict %s = (%s%s *)buffers[%d];\n", c, t, buf->name, c, t, buf->param_index);
      /* a result with an extent 0 is never written (its loops of no iteration are not printed) */
      if (buf->param_index == 0 && !kstmt_writes(k->body, buf)) buf_printf(b, "  (void)%s;\n", buf->name);
    } else {
      buf_printf(b, "  %s *restrict %s = malloc(sizeof(%s) * (size_t)(", t, buf->name, t);
      codegen_nat(b, codegen_element_count(buf->type));
      buf_puts(b, "));\n");
    }
  }
  /* out of memory: the error cell says which temporary (check_report.c), the
     first one in order, and nothing runs; one test each and one list of frees,
     so the code stays linear in the temporaries (fuzz F7: a check per temporary
     freeing them all made 77 MB of C for a 400-line APL program) */
  int ntmp = 0;
  for (int i = 0; i < k->nbufs; i++) ntmp += !k->bufs[i]->is_param;
  if (ntmp == 0) return;
  buf_puts(b, "  int clift_no_memory = -1;\n");
  for (int i = k->nbufs - 1; i >= 0; i--)
    if (!k->bufs[i]->is_param) buf_printf(b, "  if (!%s) clift_no_memory = %d;\n", k->bufs[i]->name, i);
  buf_puts(b, "  if (clift_no_memory >= 0) {\n    clift_error[0] = -1; clift_error[1] = clift_no_memory;\n");
  for (int j = 0; j < k->nbufs; j++) if (!k->bufs[j]->is_param) buf_printf(b, "    free(%s);\n", k->bufs[j]->name);
  buf_puts(b, "    return;\n  }\n");
}

/* Sizes and inputs the body never reads are marked, so the generated code
   compiles without warnings under -Wall -Wextra. */
static void mark_unused(Buf *b, Kernel *k, const char *body) {
  Program *prog = k->prog;
  for (int i = 0; i < prog->nsizes; i++)
    if (!codegen_mentions_word(body, prog->sizes[i]->name)) buf_printf(b, "  (void)%s;\n", prog->sizes[i]->name);
  for (int i = 0; i < k->nscalars; i++)
    if (!codegen_mentions_word(body, k->scalar_names[i])) buf_printf(b, "  (void)%s;\n", k->scalar_names[i]);
  for (int i = 1; i < k->nbufs; i++)
    if (k->bufs[i]->is_param && !k->bufs[i]->split && !codegen_mentions_word(body, k->bufs[i]->name))
      buf_printf(b, "  (void)%s;\n", k->bufs[i]->name);
}

/* A 4-lane stand-in for a 3-lane vector (declare_type) does not match the
   packed host layout of a [float3]n parameter or result. */
static bool uses_width3(Type *t) {
  if (!t) return false;
  if (t->kind == TY_VECTOR) return t->width == 3;
  if (t->kind == TY_ARRAY || t->kind == TY_EXISTS) return uses_width3(t->kind == TY_ARRAY ? t->elem : t->array);
  for (int i = 0; t->kind == TY_TUPLE && i < t->n; i++) if (uses_width3(t->fields[i])) return true;
  return false;
}

/* Loads an if's condition makes unconditionally (the `xs[i]` of `if (xs[i] * 2
   > 2) out[k] = xs[i] * 2`): the branch's loads of the same element need no
   masked load, the compiler reuses the value (a filter's scatter). */
typedef struct Loaded { CExp *reads[16]; int n; } Loaded;

static void unconditional_loads(Loaded *l, CExp *e) {
  if (!e || e->kind == CE_SELECT) return;   /* a select's arms are conditional */
  if (e->kind == CE_READ && e->buf && l->n < 16) l->reads[l->n++] = e;
  for (int i = 0; i < e->n; i++) unconditional_loads(l, e->args[i]);
}

static bool loaded(const Loaded *l, CExp *e) {
  for (int i = 0; l && i < l->n; i++)
    if (l->reads[i]->buf == e->buf && e->kind == CE_READ && nat_same(l->reads[i]->nat, e->nat)) return true;
  return false;
}

static bool exp_loads_under_condition(CExp *e, bool cond, const Loaded *l) {
  if (!e) return false;
  if (cond && (e->kind == CE_READ || e->kind == CE_VLOAD) && !loaded(l, e)) return true;
  for (int i = 0; i < e->n; i++)
    if (exp_loads_under_condition(e->args[i], cond || (e->kind == CE_SELECT && i > 0), l)) return true;
  return false;
}

/* The loads of an assignment's place: the expressions in its indices and
   lanes, not the place itself (a store: F41 is the loads' masking; conditional
   stores kept if-conversion through every soak before it). */
static bool place_loads_under_condition(CExp *lhs, bool cond, const Loaded *l) {
  if (!lhs) return false;
  if (lhs->kind != CE_READ && lhs->kind != CE_VLOAD && lhs->kind != CE_LANE) return exp_loads_under_condition(lhs, cond, l);
  for (int i = 0; i < lhs->n; i++)
    if (i == 0 && lhs->kind == CE_LANE ? place_loads_under_condition(lhs->args[0], cond, l)
                                        : exp_loads_under_condition(lhs->args[i], cond, l)) return true;
  return false;
}

/* A load under a condition: in a select's arm or an if's branch, unless the
   if's condition loads the same element (no_if_convert). */
static bool loads_under_condition(KStmt *s, bool cond, const Loaded *l) {
  if (!s) return false;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) if (loads_under_condition(s->stmts[i], cond, l)) return true;
  if (s->kind == KS_IF) {
    Loaded mine = { .n = 0 };
    if (!cond) unconditional_loads(&mine, s->cond);   /* under an outer condition they are conditional themselves */
    return exp_loads_under_condition(s->cond, cond, l) || loads_under_condition(s->then_, true, &mine)
           || loads_under_condition(s->else_, true, &mine);
  }
  return exp_loads_under_condition(s->init, cond, l) || place_loads_under_condition(s->lhs, cond, l) ||
         exp_loads_under_condition(s->rhs, cond, l) || exp_loads_under_condition(s->cond, cond, l) ||
         loads_under_condition(s->body, cond, l) || loads_under_condition(s->then_, cond, l) ||
         loads_under_condition(s->else_, cond, l);
}

const char *codegen_c(Kernel *k, bool openmp) {
  bool w3 = uses_width3(k->prog->result);
  for (int i = 0; i < k->prog->nparams; i++) w3 = w3 || uses_width3(k->prog->params[i].type);
  if (w3) {
    diag_unsupported(k->prog->loc, "parameters or results of 3-lane vectors (float3); "
                     "use opencl or cuda, or pass floats and asVector #3");
    return NULL;
  }
  Buf b = {0};
  buf_printf(&b, "/* generated by clift (%s target) from %s */\n", openmp ? "openmp" : "c", k->prog->file);
  codegen_notes(&b, k);
  if (openmp) buf_puts(&b, no_store_motion);
  if (loads_under_condition(k->body, false, NULL)) buf_puts(&b, no_if_convert);
  buf_puts(&b, prelude);
  codegen_checks_prelude(&b, CHECKS_C);
  codegen_declare_types(k, declare_type, &b);
  buf_puts(&b, "\nvoid clift_run(void **buffers, const long long *sizes);\n\n");
  print_entry_head(&b, k);
  Buf body = {0};
  StmtPrinter p = { &body, 1, &c_style, 0, &openmp, { 0, 0, 0 } };   /* C: one thread per work-group, no sizes */
  codegen_stmt(&p, k->body);
  mark_unused(&b, k, buf_str(&body));
  buf_puts(&b, buf_str(&body));
  for (int i = 0; i < k->nbufs; i++) if (!k->bufs[i]->is_param) buf_printf(&b, "  free(%s);\n", k->bufs[i]->name);
  buf_puts(&b, "}\n");
  return buf_str(&b);
}
