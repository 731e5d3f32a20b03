/* cpu_emit.c — `clift compile -t c|openmp -o DIR`: the generated C file plus a header
   that declares the entry and documents, for this program, which buffer is which
   (SPEC §6: "usable as a library"). The output needs nothing from clift at run time. */
#include "cpu_internal.h"
#include <ctype.h>
#include <string.h>

static TypeKind innermost_scalar(Type *t) {
  while (t->kind == TY_ARRAY || t->kind == TY_VECTOR) t = t->elem;
  return t->kind;
}

/* One line of the buffer table: index, name, type, C element type and count. */
static void describe_buffer(Buf *b, int index, const char *name, Type *t) {
  if (cpu_split_tuple(t) || t->kind == TY_TUPLE) {   /* a byte count: fields or a struct */
    Buf bytes = {0};
    nat_print_c(&bytes, cpu_type_bytes_nat(t));
    buf_printf(b, " *   buffers[%d]  %-10s %-20s %s bytes\n", index, name, type_to_string(t), buf_str(&bytes));
    return;
  }
  Buf count = {0};
  nat_print_c(&count, cpu_type_scalars(t));
  buf_printf(b, " *   buffers[%d]  %-10s %-20s %s[%s]\n", index, name, type_to_string(t),
             cpu_scalar_ctype(innermost_scalar(t)), buf_str(&count));
}

/* The convention of one program (docs/runtime.md §1–2), shared by every
   `clift compile` header: the size variables in order, each buffer's name, type,
   C element type and element count as a C expression over the sizes. */
void cpu_describe_convention(Buf *b, Program *p, const char *entry) {
  buf_puts(b, " * sizes (long long, one per size variable, in this order):\n");
  for (int k = 0; k < p->nsizes; k++)
    buf_printf(b, " *   sizes[%d] = %s\n", k, p->sizes[k]->name);
  if (!p->nsizes) buf_puts(b, " *   (none; pass NULL)\n");
  buf_puts(b, " *\n * buffers (allocated by the caller, flat; 64-byte alignment recommended):\n");
  describe_buffer(b, 0, "(result)", p->result);
  for (int i = 0; i < p->nparams; i++)
    describe_buffer(b, i + 1, p->params[i].name, p->params[i].type);
  buf_printf(b, " *\n * Layout: arrays of arrays row-major; position-dependent arrays packed row\n"
                " * after row; vectors (float4 …) as consecutive scalars; a scalar input is a\n"
                " * pointer to one element; bool is uint8_t (0 or 1), int int32_t, long int64_t;\n"
                " * a tuple holding arrays: its fields one after another, each at a multiple\n"
                " * of 64 bytes from the tuple's start; other tuples: C structs.\n"
                " * buffers[0] is written by %s; the inputs are only read.\n */\n", entry);
}

const char *cpu_symbol_base(const char *name) {
  return arena_printf("%s%s", name[0] >= '0' && name[0] <= '9' ? "clift_" : "", name);
}

/* ---- exported symbols: clift_X becomes NAME_X ----
   The generated C defines its entry and its error cell as clift_run and
   clift_error (the names the c/openmp runtime looks up with dlsym); a library
   renames every symbol with external linkage, found as the code generator
   writes them: a line at column 0, not static/typedef/extern, declaring a
   clift_… name followed by '(', ';', '=' or '['. */

enum { MAX_EXPORTS = 16 };
typedef struct Exports { const char *name[MAX_EXPORTS]; const char *decl[MAX_EXPORTS]; int n; } Exports;

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }
static bool starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* The clift_… name declared by the line at `line` (length len), or NULL; *decl
   its declaration for a header (a prototype, or an extern variable). */
static const char *exported_name(const char *line, int len, const char **decl) {
  if (!isalpha((unsigned char)line[0]) || starts_with(line, "static") || starts_with(line, "typedef")
      || starts_with(line, "extern")) return NULL;
  for (int i = 0; i + 6 <= len; i++) {
    if (strncmp(line + i, "clift_", 6) != 0 || (i > 0 && ident_char(line[i - 1]))) continue;
    int e = i + 6;
    while (e < len && ident_char(line[e])) e++;
    int f = e;
    while (f < len && line[f] == ' ') f++;
    if (f == len || !strchr("(;=[", line[f])) continue;
    int end = f;   /* a function: up to its last ')'; a variable: up to ';' or '=' */
    if (line[f] == '(') { for (int j = f; j < len; j++) if (line[j] == ')') end = j + 1; }
    else while (end < len && line[end] != ';' && line[end] != '=') end++;
    while (end > 0 && line[end - 1] == ' ') end--;
    *decl = arena_printf("%s%.*s;", line[f] == '(' ? "" : "extern ", end, line);
    return arena_printf("%.*s", e - i, line + i);
  }
  return NULL;
}

static void find_exports(const char *src, Exports *x) {
  for (const char *line = src; *line; ) {
    const char *nl = strchr(line, '\n');
    int len = nl ? (int)(nl - line) : (int)strlen(line);
    const char *decl, *name = exported_name(line, len, &decl);
    bool seen = false;
    for (int i = 0; name && i < x->n; i++) seen |= strcmp(x->name[i], name) == 0;
    if (name && !seen && x->n < MAX_EXPORTS) { x->name[x->n] = name; x->decl[x->n++] = decl; }
    line += len + (nl ? 1 : 0);
  }
}

/* `text` with every whole-word clift_X of x renamed BASE_X. */
static const char *rename_exports(const char *text, Exports *x, const char *base) {
  Buf b = {0};
  for (const char *s = text; *s; ) {
    int k = -1;
    if (starts_with(s, "clift_") && (s == text || !ident_char(s[-1])))
      for (int i = 0; i < x->n && k < 0; i++) {
        size_t n = strlen(x->name[i]);
        if (strncmp(s, x->name[i], n) == 0 && !ident_char(s[n])) k = i;
      }
    if (k < 0) { buf_putc(&b, *s++); continue; }
    buf_printf(&b, "%s_%s", base, x->name[k] + 6);
    s += strlen(x->name[k]);
  }
  return buf_str(&b);
}

static void describe_program(Buf *b, Program *p, const char *name, Exports *x) {
  const char *base = cpu_symbol_base(name), *entry = arena_printf("%s_run", base);
  buf_printf(b, "/* %s.h — generated by clift from %s; compile %s.c with any C11 compiler\n"
             " * (cc -O3 -std=c11 -c %s.c; add -fopenmp when it was built for openmp).\n *\n",
             name, p->file ? p->file : "a program", name, name);
  buf_printf(b, " * %s(buffers, sizes) computes the program once.\n", entry);
  for (int i = 0; i < x->n; i++)
    if (strcmp(x->name[i], "clift_error") == 0)
      buf_printf(b, " * %s_error is the error cell: its first int becomes non-zero when a run-time\n"
                 " * check of the generated code fails during a call (an index out of range, an\n"
                 " * integer division by zero); zero it before a call.\n", base);
  buf_printf(b, " * Every exported symbol starts with %s_, so several programs link together.\n *\n", base);
  cpu_describe_convention(b, p, entry);
}

const char *cpu_header_guard(const char *name) {
  char *g = arena_printf("CLIFT_%s_H", name);
  for (char *s = g; *s; s++) *s = isalnum((unsigned char)*s) ? (char)toupper((unsigned char)*s) : '_';
  return g;
}

bool cpu_library_supported(Program *p) {
  for (int i = 0; i < p->nparams; i++)
    if (!cpu_type_supported(p->params[i].type, arena_printf("input %d (%s)", i + 1, p->params[i].name)))
      return false;
  return cpu_type_supported(p->result, "the result");
}

bool cpu_write_library(const char *c_source, Program *p, const char *dir, const char *name) {
  if (!cpu_library_supported(p) || !cpu_make_dirs(dir)) return false;
  Exports x = { .n = 0 };
  find_exports(c_source, &x);
  const char *base = cpu_symbol_base(name);
  c_source = rename_exports(c_source, &x, base);
  Buf h = {0};
  describe_program(&h, p, name, &x);
  const char *guard = cpu_header_guard(name);
  buf_printf(&h, "#ifndef %s\n#define %s\n#include <stdint.h>\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n", guard, guard);
  for (int i = 0; i < x.n; i++) buf_printf(&h, "%s\n", rename_exports(x.decl[i], &x, base));
  buf_puts(&h, "\n#ifdef __cplusplus\n}\n#endif\n#endif\n");
  const char *text = buf_str(&h);
  return cpu_write_file_atomic(cpu_path_in(dir, arena_printf("%s.c", name)), c_source, strlen(c_source))
      && cpu_write_file_atomic(cpu_path_in(dir, arena_printf("%s.h", name)), text, strlen(text));
}
