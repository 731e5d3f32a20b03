/* layout.c — sizes and offsets in the flat buffer layout of every compiled
   target (layout.h, docs/runtime.md §2). */
#include "layout.h"

bool layout_lookup(void *ctx, NatVar *v, long long *value) {
  for (NatBinding *b = ctx; b; b = b->next)
    if (b->var == v) { *value = b->value; return true; }
  return false;
}

size_t layout_scalar_bytes(TypeKind k) {
  switch (k) {
  case TY_INT: case TY_IDX: case TY_FLOAT: return 4;
  case TY_LONG: case TY_DOUBLE: return 8;
  case TY_BOOL: return 1;
  default: return 0;
  }
}

const char *layout_scalar_ctype(TypeKind k) {
  switch (k) {
  case TY_INT: case TY_IDX: return "int32_t";
  case TY_LONG: return "int64_t";
  case TY_FLOAT: return "float";
  case TY_DOUBLE: return "double";
  case TY_BOOL: return "uint8_t";
  default: return "?";
  }
}

bool layout_split_tuple(Type *t) {
  if (t->kind != TY_TUPLE) return false;
  for (int i = 0; i < t->n; i++)
    if (t->fields[i]->kind == TY_ARRAY || t->fields[i]->kind == TY_EXISTS || layout_split_tuple(t->fields[i])) return true;
  return false;
}

int layout_soa_depth(Type *t) {
  int depth = 0;
  for (; t->kind == TY_ARRAY && !t->index; t = t->elem) depth++;
  return depth > 0 && layout_split_tuple(t) ? depth : 0;
}

/* t's `depth` outer array levels around `inner`. */
static Type *rewrap(Type *t, int depth, Type *inner) {
  if (depth == 0) return inner;
  Type *r = type_array(rewrap(t->elem, depth - 1, inner), t->len);
  r->index = t->index;
  return r;
}

Type *layout_soa(Type *t) {
  int depth = layout_soa_depth(t);
  if (!depth) return t;
  Type *tuple = t;
  for (int d = 0; d < depth; d++) tuple = tuple->elem;
  Type **fields = NEW_ARRAY(Type *, tuple->n);
  for (int f = 0; f < tuple->n; f++) fields[f] = rewrap(t, depth, tuple->fields[f]);
  return type_tuple(tuple->n, fields);
}

static bool supported(Type *t, const char *what, bool in_array, bool in_tuple) {
  if (layout_soa_depth(t)) return supported(layout_soa(t), what, in_array, in_tuple);
  switch (t->kind) {
  case TY_TUPLE:
    if (layout_split_tuple(t) && in_array)   /* under a position-dependent or dynamic-length level */
      return diag_unsupported(LOC_NONE, "%s: arrays of tuples holding arrays (%s) inside position-dependent or "
                              "dynamic-length arrays, as inputs or results",
                              what, type_to_string(t));
    for (int i = 0; i < t->n; i++) if (!supported(t->fields[i], what, in_array, true)) return false;
    return true;
  case TY_EXISTS:   /* the data at its upper bound, its lengths after it (layout_lens_offset_nat) */
    if (!type_exists_upper(t) || in_tuple)
      return diag_unsupported(LOC_NONE, "%s: %s (%s)", what, in_tuple ? "a tuple holding dynamic-length arrays"
                              : "a dynamic-length array without an upper bound, or of dynamic-length arrays", type_to_string(t));
    return supported(t->array, what, in_array, in_tuple);
  case TY_ARRAY: case TY_VECTOR:
    if (t->kind == TY_ARRAY && t->index && type_has_exists(t->elem))   /* rows at offsets of their upper bounds: FINDINGS F48 */
      return diag_unsupported(LOC_NONE, "%s: a position-dependent array of dynamic-length arrays (%s)", what,
                              type_to_string(t));
    return supported(t->elem, what, true, in_tuple);
  default:
    return true;
  }
}

bool layout_type_supported(Type *t, const char *what) { return supported(t, what, false, false); }

static int64_t round_up(int64_t n) { return (n + LAYOUT_SPLIT_ALIGN - 1) / LAYOUT_SPLIT_ALIGN * LAYOUT_SPLIT_ALIGN; }

bool layout_split_offset(Type *t, int field, NatBinding *b, const char *what, int64_t *off) {
  int64_t o = 0;
  for (int k = 0; k < field; k++) {
    int64_t bytes;
    if (!layout_type_bytes(t->fields[k], b, what, &bytes)) return false;
    o = round_up(o + bytes);
  }
  *off = o;
  return true;
}

Nat *layout_split_offset_nat(Type *t, int field) {
  Nat *o = nat_const(0);
  for (int k = 0; k < field; k++)
    o = nat_mul(nat_div(nat_add(nat_add(o, layout_type_bytes_nat(t->fields[k])), nat_const(LAYOUT_SPLIT_ALIGN - 1)),
                        nat_const(LAYOUT_SPLIT_ALIGN)), nat_const(LAYOUT_SPLIT_ALIGN));
  return o;
}

/* A type holding dynamic-length arrays: its data (at the upper bounds), then,
   from the next multiple of LAYOUT_SPLIT_ALIGN bytes, its lengths as int32. */
Nat *layout_lens_offset_nat(Type *t) {
  Nat *data = layout_type_bytes_nat(type_exists_upper(t)), *a = nat_const(LAYOUT_SPLIT_ALIGN);
  return nat_mul(nat_div(nat_add(data, nat_const(LAYOUT_SPLIT_ALIGN - 1)), a), a);
}

Nat *layout_type_bytes_nat(Type *t) {
  if (type_has_exists(t)) return nat_add(layout_lens_offset_nat(t), layout_type_bytes_nat(type_exists_lens(t)));
  if (layout_soa_depth(t)) return layout_type_bytes_nat(layout_soa(t));
  switch (t->kind) {
  case TY_ARRAY:
    if (t->index) return nat_sum(t->index, nat_const(0), t->len, layout_type_bytes_nat(t->elem));   /* packed rows */
    return nat_mul(t->len, layout_type_bytes_nat(t->elem));
  case TY_VECTOR: return nat_const((long long)layout_scalar_bytes(t->elem->kind) * t->width);
  case TY_TUPLE:
    if (layout_split_tuple(t)) return nat_add(layout_split_offset_nat(t, t->n - 1), layout_type_bytes_nat(t->fields[t->n - 1]));
    return nat_const((long long)layout_tuple_field_bytes(t));
  default: return nat_const((long long)layout_scalar_bytes(t->kind));
  }
}

bool layout_eval_len(Nat *len, NatBinding *b, const char *what, int64_t *out) {
  long long n;
  if (!nat_eval(len, layout_lookup, b, &n))
    return diag_error(LOC_NONE, "%s: cannot evaluate the length %s", what, nat_to_string(len));
  if (n < 0)
    return diag_error(LOC_NONE, "%s: the length %s is negative (%lld)", what, nat_to_string(len), n);
  *out = n;
  return true;
}

static bool too_big(const char *what) {
  return diag_error(LOC_NONE, "%s: the buffer size overflows 64 bits", what);
}

/* A position-dependent array: the rows may differ in size, so sum them. */
static bool dep_array_bytes(Type *t, int64_t len, NatBinding *b, const char *what, int64_t *out) {
  int64_t total = 0;
  for (int64_t i = 0; i < len; i++) {
    NatBinding pos = { t->index, i, b };
    int64_t row;
    if (!layout_type_bytes(t->elem, &pos, what, &row)) return false;
    if (__builtin_add_overflow(total, row, &total)) return too_big(what);
  }
  *out = total;
  return true;
}

/* Tuples are C structs (array of structs), laid out as the C compiler does:
   each field at its natural alignment, the whole rounded up to the largest. */
size_t layout_align_of(Type *t) {
  if (t->kind == TY_VECTOR) return layout_scalar_bytes(t->elem->kind) * (size_t)t->width;
  if (t->kind != TY_TUPLE) return layout_scalar_bytes(t->kind);
  size_t a = 1;
  for (int i = 0; i < t->n; i++) if (layout_align_of(t->fields[i]) > a) a = layout_align_of(t->fields[i]);
  return a;
}

size_t layout_field_offset(Type *t, int field, size_t *size) {
  size_t off = 0;
  for (int i = 0; i <= field && i < t->n; i++) {
    size_t a = layout_align_of(t->fields[i]);
    off = (off + a - 1) / a * a;
    if (i < field) off += layout_tuple_field_bytes(t->fields[i]);
  }
  if (size) {
    size_t a = layout_align_of(t), end = layout_field_offset(t, t->n - 1, NULL) + layout_tuple_field_bytes(t->fields[t->n - 1]);
    *size = (end + a - 1) / a * a;
  }
  return off;
}

size_t layout_tuple_field_bytes(Type *t) {
  size_t size;
  if (t->kind == TY_TUPLE) { layout_field_offset(t, 0, &size); return size; }
  return t->kind == TY_VECTOR ? layout_align_of(t) : layout_scalar_bytes(t->kind);
}

bool layout_lens_offset(Type *t, NatBinding *b, const char *what, int64_t *out) {
  Type *u = type_exists_upper(t);
  if (!u) return layout_type_supported(t, what);
  int64_t data;
  if (!layout_type_bytes(u, b, what, &data)) return false;
  *out = round_up(data);
  return true;
}

bool layout_type_bytes(Type *t, NatBinding *b, const char *what, int64_t *out) {
  int64_t len, elem;
  if (type_has_exists(t)) {
    int64_t off, lens;
    if (!layout_lens_offset(t, b, what, &off) || !layout_type_bytes(type_exists_lens(t), b, what, &lens)) return false;
    if (__builtin_add_overflow(off, lens, out)) return too_big(what);
    return true;
  }
  switch (t->kind) {
  case TY_TUPLE:
    if (!layout_type_supported(t, what)) return false;
    if (layout_split_tuple(t)) {   /* fields one after another, each LAYOUT_SPLIT_ALIGN-aligned */
      int64_t off, last;
      if (!layout_split_offset(t, t->n - 1, b, what, &off) || !layout_type_bytes(t->fields[t->n - 1], b, what, &last)) return false;
      *out = off + last;
      return true;
    }
    *out = (int64_t)layout_tuple_field_bytes(t);
    return true;
  case TY_VECTOR:
    *out = (int64_t)layout_scalar_bytes(t->elem->kind) * t->width;
    return true;
  case TY_ARRAY:
    if (layout_soa_depth(t)) return layout_type_bytes(layout_soa(t), b, what, out);
    if (!layout_eval_len(t->len, b, what, &len)) return false;
    if (t->index) return dep_array_bytes(t, len, b, what, out);
    if (!layout_type_bytes(t->elem, b, what, &elem)) return false;
    if (__builtin_mul_overflow(len, elem, out)) return too_big(what);
    return true;
  default:
    if (!layout_scalar_bytes(t->kind)) return layout_type_supported(t, what);
    *out = (int64_t)layout_scalar_bytes(t->kind);
    return true;
  }
}

Nat *layout_type_elements(Type *t) {
  if (t->kind != TY_ARRAY) return nat_const(1);
  if (t->index) return nat_sum(t->index, nat_const(0), t->len, layout_type_elements(t->elem));
  return nat_mul(t->len, layout_type_elements(t->elem));
}

Nat *layout_type_scalars(Type *t) {
  switch (t->kind) {
  case TY_VECTOR: return nat_const(t->width);
  case TY_ARRAY:
    if (t->index) return nat_sum(t->index, nat_const(0), t->len, layout_type_scalars(t->elem));
    return nat_mul(t->len, layout_type_scalars(t->elem));
  default: return nat_const(1);
  }
}
