/* c_print.c — the `c` and `openmp` backends: the kernel as one C function. */
#include "stmt_print.h"
#include <ctype.h>
#include <string.h>


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

/* openmp (ctx points to true): the outermost parallel loop gets the pragma;
   every loop is a plain for. */
static void loop_head(StmtPrinter *p, KStmt *s) {
  if (*(const bool *)p->ctx && s->level != LEVEL_SEQ && p->parallel_open == 0) {
    codegen_indent(p);
    buf_puts(p->b, "#pragma omp parallel for schedule(static)\n");
  }
  codegen_indent(p);
  buf_printf(p->b, "for (int64_t %s = 0; %s < ", s->var->name, s->var->name);
  codegen_nat(p->b, s->count);
  buf_printf(p->b, "; %s += 1) {\n", s->var->name);
}

static const StmtStyle c_style = { codegen_ctype, codegen_cexp, loop_head, NULL, NULL };

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
    const char *t = codegen_ctype(codegen_element_type(buf->type));
    if (buf->is_param)
      buf_printf(b, "  %s%s *restrict %s = (%s%s *)buffers[%d];\n", buf->param_index ? "const " : "", t, buf->name,
                 buf->param_index ? "const " : "", t, buf->param_index);
    else {
      buf_printf(b, "  %s *restrict %s = malloc(sizeof(%s) * (size_t)(", t, buf->name, t);
      codegen_nat(b, codegen_element_count(buf->type));
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
  codegen_declare_types(k, declare_type, &b);
  buf_puts(&b, "\nvoid clift_run(void **buffers, const long long *sizes);\n\n");
  print_entry_head(&b, k);
  Buf body = {0};
  StmtPrinter p = { &body, 1, &c_style, 0, &openmp };
  codegen_stmt(&p, k->body);
  mark_unused(&b, k, buf_str(&body));
  buf_puts(&b, buf_str(&body));
  for (int i = 0; i < k->nbufs; i++) if (!k->bufs[i]->is_param) buf_printf(&b, "  free(%s);\n", k->bufs[i]->name);
  buf_puts(&b, "}\n");
  return buf_str(&b);
}
