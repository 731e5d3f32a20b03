/* c_print.c — the `c` and `openmp` backends: the kernel as one C function. */
#include "codegen.h"
#include <ctype.h>
#include <string.h>

void codegen_cexp(Buf *b, CExp *e);

typedef struct Printer { Buf *b; bool openmp; int depth; int par_open; } Printer;

static void indent(Printer *p) { for (int i = 0; i < p->depth; i++) buf_puts(p->b, "  "); }

static const char *prelude =
  "#include <stdbool.h>\n#include <stdint.h>\n#include <stdlib.h>\n#include <math.h>\n\n"
  "#define CLIFT_MINMAX(T) \\\n"
  "  static inline T clift_min_##T(T a, T b) { return a < b ? a : b; } \\\n"
  "  static inline T clift_max_##T(T a, T b) { return a > b ? a : b; } \\\n"
  "  static inline T clift_abs_##T(T a) { return a < 0 ? -a : a; }\n"
  "CLIFT_MINMAX(int32_t)\nCLIFT_MINMAX(int64_t)\nCLIFT_MINMAX(float)\nCLIFT_MINMAX(double)\n"
  "static inline int64_t min(int64_t a, int64_t b) { return a < b ? a : b; }\n"
  "static inline int64_t max(int64_t a, int64_t b) { return a > b ? a : b; }\n"
  "/* set when an aref index is out of range; read by the host after the call */\n"
  "int clift_error;\n"
  "static inline int64_t clift_check_index(int64_t i, int64_t n) {\n"
  "  if (i < 0 || i >= n) { clift_error = 1; return 0; }\n"
  "  return i;\n"
  "}\n\n";

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
    int bytes = t->width * (t->elem->kind == TY_DOUBLE || t->elem->kind == TY_LONG ? 8 : 4);
    buf_printf(b, "typedef %s %s __attribute__((vector_size(%d)));\n", s, name, bytes);
    buf_printf(b, "typedef %s %su __attribute__((vector_size(%d), aligned(%d)));\n", s, name, bytes, bytes / t->width);
    return;
  }
  for (int i = 0; i < t->n; i++) declare_type(b, t->fields[i], seen);
  buf_puts(b, "typedef struct {");
  for (int i = 0; i < t->n; i++) buf_printf(b, " %s f%d;", codegen_ctype(t->fields[i]), i);
  buf_printf(b, " } %s;\n", name);
}

/* Every vector and tuple type the kernel's statements mention. */
static void declare_cexp_types(Buf *b, CExp *e, Buf *seen) {
  if (!e) return;
  if (e->type) declare_type(b, e->type, seen);
  for (int i = 0; i < e->n; i++) declare_cexp_types(b, e->args[i], seen);
}

static void declare_stmt_types(Buf *b, KStmt *s, Buf *seen) {
  if (!s) return;
  if (s->type) declare_type(b, s->type, seen);
  declare_cexp_types(b, s->init, seen);
  declare_cexp_types(b, s->lhs, seen);
  declare_cexp_types(b, s->rhs, seen);
  declare_cexp_types(b, s->cond, seen);
  for (int i = 0; i < s->n; i++) declare_stmt_types(b, s->stmts[i], seen);
  declare_stmt_types(b, s->body, seen);
  declare_stmt_types(b, s->then_, seen);
  declare_stmt_types(b, s->else_, seen);
}

static Type *element_type(Type *t) { while (t->kind == TY_ARRAY) t = t->elem; return t; }

static Nat *element_count(Type *t) {
  Nat *n = nat_const(1);
  for (; t->kind == TY_ARRAY; t = t->elem) n = nat_mul(n, t->len);
  return n;
}

static void print_stmt(Printer *p, KStmt *s);

static void print_block(Printer *p, KStmt *s) {
  for (int i = 0; i < s->n; i++) print_stmt(p, s->stmts[i]);
}

static void print_for(Printer *p, KStmt *s) {
  bool pragma = p->openmp && s->level != LEVEL_SEQ && p->par_open == 0;
  if (pragma) { indent(p); buf_puts(p->b, "#pragma omp parallel for schedule(static)\n"); }
  indent(p);
  buf_printf(p->b, "for (int64_t %s = 0; %s < ", s->var->name, s->var->name);
  codegen_nat(p->b, s->count);
  buf_printf(p->b, "; %s += 1) {\n", s->var->name);
  p->depth++;
  if (s->level != LEVEL_SEQ) p->par_open++;
  print_block(p, s->body);
  if (s->level != LEVEL_SEQ) p->par_open--;
  p->depth--;
  indent(p);
  buf_puts(p->b, "}\n");
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
      buf_printf(p->b, "%s %s[", codegen_ctype(e), s->name);
      codegen_nat(p->b, n);
      buf_puts(p->b, "];\n");
      return;
    }
    buf_printf(p->b, "%s %s", codegen_ctype(s->type), s->name);
    if (s->init) { buf_puts(p->b, " = "); codegen_cexp(p->b, s->init); }
    buf_puts(p->b, ";\n");
    return;
  case KS_ASSIGN:
    indent(p);
    codegen_cexp(p->b, s->lhs);
    buf_puts(p->b, " = ");
    codegen_cexp(p->b, s->rhs);
    buf_puts(p->b, ";\n");
    return;
  case KS_FOR: print_for(p, s); return;
  case KS_IF:
    indent(p);
    buf_puts(p->b, "if (");
    codegen_cexp(p->b, s->cond);
    buf_puts(p->b, ") {\n");
    p->depth++; print_block(p, s->then_); p->depth--;
    indent(p); buf_puts(p->b, "} else {\n");
    p->depth++; print_block(p, s->else_); p->depth--;
    indent(p); buf_puts(p->b, "}\n");
    return;
  case KS_BARRIER: return;   /* one thread per work-group on the CPU: nothing to wait for */
  }
}

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
    const char *t = codegen_ctype(element_type(buf->type));
    if (buf->is_param)
      buf_printf(b, "  %s%s *restrict %s = (%s%s *)buffers[%d];\n", buf->param_index ? "const " : "", t, buf->name,
                 buf->param_index ? "const " : "", t, buf->param_index);
    else {
      buf_printf(b, "  %s *restrict %s = malloc(sizeof(%s) * (size_t)(", t, buf->name, t);
      codegen_nat(b, element_count(buf->type));
      buf_printf(b, "));\n  if (!%s) abort();   /* out of memory */\n", buf->name);
    }
  }
}

static bool mentions_word(const char *text, const char *word) {
  size_t n = strlen(word);
  for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
    bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
    bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
    if (left && right) return true;
  }
  return false;
}

/* Sizes and inputs the body never reads are marked, so the generated code
   compiles without warnings under -Wall -Wextra. */
static void mark_unused(Buf *b, Kernel *k, const char *body) {
  Program *prog = k->prog;
  for (int i = 0; i < prog->nsizes; i++)
    if (!mentions_word(body, prog->sizes[i]->name)) buf_printf(b, "  (void)%s;\n", prog->sizes[i]->name);
  for (int i = 0; i < k->nscalars; i++)
    if (!mentions_word(body, k->scalar_names[i])) buf_printf(b, "  (void)%s;\n", k->scalar_names[i]);
  for (int i = 1; i < k->nbufs; i++)
    if (k->bufs[i]->is_param && !mentions_word(body, k->bufs[i]->name)) buf_printf(b, "  (void)%s;\n", k->bufs[i]->name);
}

const char *codegen_c(Kernel *k, bool openmp) {
  Buf b = {0};
  buf_printf(&b, "/* generated by clift (%s target) from %s */\n", openmp ? "openmp" : "c", k->prog->file);
  buf_puts(&b, prelude);
  Buf seen = {0};
  for (int i = 0; i < k->nbufs; i++) declare_type(&b, k->bufs[i]->type, &seen);
  for (int i = 0; i < k->nscalars; i++) declare_type(&b, k->scalar_types[i], &seen);
  declare_stmt_types(&b, k->body, &seen);
  buf_puts(&b, "\nvoid clift_run(void **buffers, const long long *sizes);\n\n");
  print_entry_head(&b, k);
  Buf body = {0};
  Printer p = { &body, openmp, 1, 0 };
  print_block(&p, k->body);
  mark_unused(&b, k, buf_str(&body));
  buf_puts(&b, buf_str(&body));
  for (int i = 0; i < k->nbufs; i++) if (!k->bufs[i]->is_param) buf_printf(&b, "  free(%s);\n", k->bufs[i]->name);
  buf_puts(&b, "}\n");
  return buf_str(&b);
}
