/* emit_common.c — what the library emitters of the device targets
   (opencl_emit.c, cuda_emit.c) print alike: buffer sizes as C expressions over
   the size variables, and where a buffer sits in the kernel's list. */
#include "emit_common.h"
#include "cpu_internal.h"
#include "../codegen/codegen.h"
#include "../dpia/plan.h"

const char *emit_bytes_expr(Type *t) {
  if (cpu_split_tuple(t)) {
    Buf b = {0};
    buf_puts(&b, "(size_t)(");
    nat_print_c(&b, cpu_type_bytes_nat(t));
    buf_puts(&b, ")");
    return buf_str(&b);
  }
  Type *e = codegen_element_type(t);
  Nat *count = cpu_type_scalars(t);
  long long unit = (long long)cpu_scalar_bytes(e->kind == TY_VECTOR ? e->elem->kind : e->kind);
  if (e->kind == TY_TUPLE) {   /* array of structs: elements times the struct's size */
    count = codegen_element_count(t);
    unit = (long long)cpu_tuple_field_bytes(e);
  }
  Buf b = {0};
  buf_puts(&b, "(size_t)(");
  nat_print_c(&b, nat_mul(nat_const(unit), count));
  buf_puts(&b, ")");
  return buf_str(&b);
}

bool emit_only_sizes(Program *p, Nat *n) {
  int nv;
  NatVar **vars = nat_free_var_list(n, &nv);
  for (int i = 0; i < nv; i++) {
    bool size = false;
    for (int k = 0; k < p->nsizes; k++) size |= vars[i] == p->sizes[k];
    if (!size) return false;
  }
  return true;
}

int emit_buffer_index(Kernel *k, Buffer *b) { return kernel_buffer_index(k, b); }

int emit_loop_arrays(Buf *b, Program *p, PlanKernel *pk) {
  int n = pk->nloops;
  buf_puts(b, "    static const int level[] = {");
  for (int i = 0; i < n; i++) buf_printf(b, "%s%d", i ? ", " : " ", plan_level_code(pk->loops[i]->level));
  buf_puts(b, n ? " };\n    static const int dim[] = {" : " 0 };\n    static const int dim[] = { 0 };\n");
  for (int i = 0; i < n; i++) buf_printf(b, "%s%d", i ? ", " : " ", pk->loops[i]->dim);
  buf_puts(b, n ? " };\n    const long long count[] = {" : "    const long long count[] = { 0 };\n");
  for (int i = 0; i < n; i++) {   /* a count that depends on an outer loop: -1, any size will do */
    buf_puts(b, i ? ", " : " ");
    if (emit_only_sizes(p, pk->loops[i]->count)) nat_print_c(b, pk->loops[i]->count);
    else buf_puts(b, "-1");
  }
  if (n) buf_puts(b, " };\n");
  return n;
}
