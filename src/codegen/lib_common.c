/* lib_common.c — what the library writers (lib_c.c, lib_opencl.c,
   lib_cuda.c) print alike: the buffer convention of a program, symbol names,
   buffer sizes as C expressions over the size variables, and where a buffer
   sits in the kernel's list. */
#include "library.h"
#include "codegen.h"
#include "../layout/layout.h"
#include <ctype.h>
#include <string.h>

const char *library_bytes_expr(Type *t) {
  if (layout_split_tuple(layout_soa(t)) || type_has_exists(t)) {
    Buf b = {0};
    buf_puts(&b, "(size_t)(");
    nat_print_c(&b, layout_type_bytes_nat(t));
    buf_puts(&b, ")");
    return buf_str(&b);
  }
  Type *e = codegen_element_type(t);
  Nat *count = layout_type_scalars(t);
  long long unit = (long long)layout_scalar_bytes(e->kind == TY_VECTOR ? e->elem->kind : e->kind);
  if (e->kind == TY_TUPLE) {   /* array of structs: elements times the struct's size */
    count = codegen_element_count(t);
    unit = (long long)layout_tuple_field_bytes(e);
  }
  Buf b = {0};
  buf_puts(&b, "(size_t)(");
  nat_print_c(&b, nat_mul(nat_const(unit), count));
  buf_puts(&b, ")");
  return buf_str(&b);
}

bool library_only_sizes(Program *p, Nat *n) { return nat_vars_within(n, p->sizes, p->nsizes, NULL, 0); }

int library_buffer_index(Kernel *k, Buffer *b) { return kernel_buffer_index(k, b); }

int library_loop_arrays(Buf *b, Program *p, PlanKernel *pk) {
  int n = pk->nloops;
  buf_puts(b, "    static const int level[] = {");
  for (int i = 0; i < n; i++) buf_printf(b, "%s%d", i ? ", " : " ", plan_level_code(pk->loops[i]));
  buf_puts(b, n ? " };\n    static const int dim[] = {" : " 0 };\n    static const int dim[] = { 0 };\n");
  for (int i = 0; i < n; i++) buf_printf(b, "%s%d", i ? ", " : " ", pk->loops[i]->dim);
  buf_puts(b, n ? " };\n    const long long count[] = {" : "    const long long count[] = { 0 };\n");
  for (int i = 0; i < n; i++) {   /* a count that depends on an outer loop: -1, any size will do */
    buf_puts(b, i ? ", " : " ");
    if (library_only_sizes(p, pk->loops[i]->count)) nat_print_c(b, pk->loops[i]->count);
    else buf_puts(b, "-1");
  }
  if (n) buf_puts(b, " };\n");
  return n;
}

static TypeKind innermost_scalar(Type *t) {
  while (t->kind == TY_ARRAY || t->kind == TY_VECTOR) t = t->elem;
  return t->kind;
}

/* One line of the buffer table: index, name, type, C element type and count. */
static void describe_buffer(Buf *b, int index, const char *name, Type *t) {
  if (type_has_exists(t)) {   /* SPEC §3.4: the elements at their upper bound, then the lengths */
    Buf bytes = {0}, off = {0}, n = {0};
    nat_print_c(&bytes, layout_type_bytes_nat(t));
    nat_print_c(&off, layout_lens_offset_nat(t));
    nat_print_c(&n, layout_type_scalars(type_exists_lens(t)));
    buf_printf(b, " *   buffers[%d]  %-10s %-20s %s bytes: the elements as %s (each dynamic-length\n"
                  " *               array at its upper bound), then at byte %s its run-time lengths,\n"
                  " *               int32_t[%s]; only the first `length` elements of each are the result\n",
               index, name, type_to_string(t), buf_str(&bytes), type_to_string(type_exists_upper(t)), buf_str(&off), buf_str(&n));
    return;
  }
  if (layout_soa_depth(t)) {   /* a structure of arrays: its fields' arrays one after another */
    Type *s = layout_soa(t);
    Buf bytes = {0};
    nat_print_c(&bytes, layout_type_bytes_nat(t));
    buf_printf(b, " *   buffers[%d]  %-10s %-20s %s bytes, laid out as %s (field after field)\n", index, name,
               type_to_string(t), buf_str(&bytes), type_to_string(s));
    return;
  }
  if (layout_split_tuple(t) || t->kind == TY_TUPLE) {   /* a byte count: fields or a struct */
    Buf bytes = {0};
    nat_print_c(&bytes, layout_type_bytes_nat(t));
    buf_printf(b, " *   buffers[%d]  %-10s %-20s %s bytes\n", index, name, type_to_string(t), buf_str(&bytes));
    return;
  }
  Buf count = {0};
  nat_print_c(&count, layout_type_scalars(t));
  buf_printf(b, " *   buffers[%d]  %-10s %-20s %s[%s]\n", index, name, type_to_string(t),
             layout_scalar_ctype(innermost_scalar(t)), buf_str(&count));
}

/* The convention of one program (docs/runtime.md §1–2), shared by every
   `clift compile` header: the size variables in order, each buffer's name, type,
   C element type and element count as a C expression over the sizes. */
void library_describe_convention(Buf *b, Program *p, const char *entry) {
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

const char *library_symbol_base(const char *name) {
  return arena_printf("%s%s", name[0] >= '0' && name[0] <= '9' ? "clift_" : "", name);
}

const char *library_header_guard(const char *name) {
  char *g = arena_printf("CLIFT_%s_H", name);
  for (char *s = g; *s; s++) *s = isalnum((unsigned char)*s) ? (char)toupper((unsigned char)*s) : '_';
  return g;
}

bool library_supported(Program *p) {
  for (int k = 0; k < p->nsizes; k++)   /* docs/language.md §3, "Dynamic-length arrays" */
    if (program_size_param(p, k) >= 0)
      return diag_unsupported(p->params[program_size_param(p, k)].loc, "a library (compile -o) of a program whose iota "
                              "takes its length from the int input %s: the length's bound is that input's value, which "
                              "the library's sizes do not carry; use clift run", p->params[program_size_param(p, k)].name);
  for (int i = 0; i < p->nparams; i++)
    if (!layout_type_supported(p->params[i].type, arena_printf("input %d (%s)", i + 1, p->params[i].name)))
      return false;
  return layout_type_supported(p->result, "the result");
}


/* `text` with 2 * depth more spaces at the start of every non-empty line. */
static void indent_into(Buf *b, const char *text, int depth) {
  for (const char *line = text; *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    if (len) buf_printf(b, "%*s%.*s", 2 * depth, "", (int)len, line);
    if (end) buf_putc(b, '\n');
    line += len + (end ? 1 : 0);
  }
}

void library_print_steps(Buf *b, Plan *pl, PlanStep *steps, int n, int depth, const char *loop_type,
                         void (*launch)(Buf *b, Plan *pl, PlanKernel *pk), void (*count)(Buf *b, Plan *pl, PlanStep *s)) {
  for (int i = 0; i < n; i++) {
    PlanStep *s = &steps[i];
    Buf one = {0};
    if (s->kind != STEP_LOOP) {
      if (s->kind == STEP_LAUNCH) launch(&one, pl, &pl->kernels[s->kernel]);
      else count(&one, pl, s);
      indent_into(b, buf_str(&one), depth);
      continue;
    }
    const char *v = s->loop->var->name;
    nat_print_c(&one, s->loop->count);
    buf_printf(b, "%*s  /* a host loop (iterate): the kernels of its body, once per step */\n", 2 * depth, "");
    buf_printf(b, "%*s  for (%s %s = 0; %s < %s; %s++) {\n", 2 * depth, "", loop_type, v, v, buf_str(&one), v);
    library_print_steps(b, pl, s->steps, s->n, depth + 1, loop_type, launch, count);
    buf_printf(b, "%*s  }\n", 2 * depth, "");
  }
}

void library_result_lengths(Buf *h, Program *p, const char *base) {
  if (!type_has_exists(p->result)) return;
  Buf off = {0}, n = {0};
  nat_print_c(&off, layout_lens_offset_nat(p->result));
  nat_print_c(&n, layout_type_scalars(type_exists_lens(p->result)));
  buf_printf(h, "/* The run-time lengths of the result's dynamic-length arrays (%s of them, in\n"
                "   row order), after its elements in buffers[0]: only the first length[k]\n"
                "   elements of each are the result. */\n"
                "static inline const int32_t *%s_result_lengths(void *const *buffers, const long long *sizes) {\n",
             buf_str(&n), base);
  for (int k = 0; k < p->nsizes; k++)
    buf_printf(h, "  const long long %s = sizes[%d];\n  (void)%s;\n", p->sizes[k]->name, k, p->sizes[k]->name);
  if (!p->nsizes) buf_puts(h, "  (void)sizes;\n");
  buf_printf(h, "  return (const int32_t *)((const char *)buffers[0] + (%s));\n}\n\n", buf_str(&off));
}

void library_header_entry(Buf *h, const char *guard, const char *entry, Program *p, const char *base) {
  buf_printf(h, "#ifndef %s\n#define %s\n#include <stdint.h>\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
             "int %s(void **buffers, const long long *sizes);\n\n", guard, guard, entry);
  library_result_lengths(h, p, base);
  buf_puts(h, "#ifdef __cplusplus\n}\n#endif\n#endif\n");
}

bool library_device_supported(Plan *pl) {
  Kernel *k = pl->k;
  if (!library_supported(k->prog)) return false;
  for (int i = 0; i < k->nscalars; i++)   /* scalar inputs: their size is known here */
    if (!layout_type_supported(k->scalar_types[i], k->scalar_names[i])) return false;
  return true;
}

bool library_write_device(const char *dir, const char *name, const char *kernel_ext, const char *kernels,
                          const char *host_ext, const char *host, Program *p, const char *intro, const char *entry) {
  Buf h = {0};
  buf_puts(&h, intro);
  library_describe_convention(&h, p, entry);
  library_header_entry(&h, library_header_guard(name), entry, p, library_symbol_base(name));
  const char *header = buf_str(&h);
  return util_make_dirs(dir)
      && util_write_text(util_path_in(dir, arena_printf("%s.%s", name, kernel_ext)), kernels)
      && util_write_text(util_path_in(dir, arena_printf("%s_host.%s", name, host_ext)), host)
      && util_write_text(util_path_in(dir, arena_printf("%s.h", name)), header);
}

void library_buffers(Buf *b, Kernel *k, void (*print)(Buf *b, int i, const char *bytes, const char *host, Buffer *buf)) {
  for (int i = 0; i < k->nbufs; i++) {
    Buffer *buf = k->bufs[i];
    if (buf->space == SPACE_LOCAL || buf->base) continue;   /* a split tuple's field: in its base's buffer */
    bool in = buf->is_param && buf->param_index > 0;
    print(b, i, i == 0 ? "result_bytes" : library_bytes_expr(buf->type), in ? arena_printf("buffers[%d]", buf->param_index) : "NULL", buf);
  }
}

void library_declare_counts(Buf *b, PlanStep *steps, int n, const char *type) {
  for (int i = 0; i < n; i++) {
    if (steps[i].kind == STEP_COUNT) buf_printf(b, "  %s %s = 0;   /* an iterate count, read back */\n", type, steps[i].var->name);
    if (steps[i].kind == STEP_LOOP) library_declare_counts(b, steps[i].steps, steps[i].n, type);
  }
}

void library_print_count(Buf *b, Plan *pl, PlanStep *s, const char *value_type, const char *read_fmt) {
  const char *v = s->var->name;
  buf_printf(b, "  /* %s: an iterate count computed by the kernel before, read back */\n  {\n    %s value = 0;\n    if (check(",
             v, value_type);
  buf_printf(b, read_fmt, kernel_buffer_index(pl->k, s->cell));
  buf_printf(b, ", \"reading %s\")) goto done;\n    %s = value > 0 ? value : 0;\n  }\n\n", v, v);
}

const char *library_launch_source(const LibraryTuning *tuned) {
  static const LaunchSizes none;
  const LaunchSizes *l = tuned ? &tuned->launch : &none;
  return arena_printf("%s\n/* launch sizes from clift tune (zeros: the policy above), applied as --local-size and\n"
                      "   --global-size are */\n"
                      "static const size_t clift_tuned_local[3] = { %zu, %zu, %zu }, clift_tuned_global[3] = { %zu, %zu, %zu };\n",
                      plan_launch_policy_source(), l->local[0], l->local[1], l->local[2], l->global[0], l->global[1], l->global[2]);
}

const char *library_tuning_note(const LibraryTuning *tuned) {
  if (!tuned || !tuned->note) return "";
  return arena_printf(" * Tuned configuration (clift tune, docs/tuning.md): %s.\n *\n", tuned->note);
}

/* The size conditions the CUDA and OpenCL kernels rely on (codegen_with_multiples: a float4
   access is aligned because split #128 divides N): refused before any launch,
   as the driver refuses them (cli/inputs.c), rather than a misaligned access. */
void library_size_conditions(Buf *b, Program *p) {
  for (SizeCheck *c = p->checks; c; c = c->next) {
    long long d;
    if (c->kind != CHECK_DIVIDES || c->lhs->kind != NAT_VAR || !nat_is_const(c->rhs, &d) || d <= 1) continue;
    if (!library_only_sizes(p, c->lhs)) continue;
    bool seen = false;   /* the same condition from another split */
    for (SizeCheck *e = p->checks; e != c && !seen; e = e->next)
      seen = e->kind == CHECK_DIVIDES && nat_equal(e->lhs, c->lhs) && nat_equal(e->rhs, c->rhs);
    if (seen) continue;
    const char *v = c->lhs->var->name;
    buf_printf(b, "  if (%s %% %lld != 0) {\n"
               "    fprintf(stderr, \"%%s: %s = %%lld: %s needs a multiple of %lld\\n\", PROGRAM, %s);\n"
               "    return 1;\n"
               "  }\n", v, d, v, c->what, d, v);
  }
}
