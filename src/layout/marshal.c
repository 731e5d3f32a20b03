/* marshal.c — values to flat buffers and back, driven by the type and the size
   bindings (layout.c). Packing checks every array length against its type, so
   lengths that contradict the size variables are reported before any kernel
   runs (SPEC §8). */
#include "layout.h"
#include <string.h>

/* Where in the input we are, for error messages: "input 1 (m) at [2][0]".
   A chain on the stack, rendered only when something is wrong. */
typedef struct Path { int64_t index; const struct Path *up; } Path;

static void path_render(Buf *b, const Path *p) {
  if (!p) return;
  path_render(b, p->up);
  buf_printf(b, "[%lld]", (long long)p->index);
}

static const char *path_name(const char *what, const Path *p) {
  if (!p) return what;
  Buf b = {0};
  buf_printf(&b, "%s at ", what);
  path_render(&b, p);
  return buf_str(&b);
}

static bool is_int_value(Value *v) { return v->kind == VAL_INT || v->kind == VAL_LONG; }
static bool is_number_value(Value *v) { return is_int_value(v) || v->kind == VAL_FLOAT || v->kind == VAL_DOUBLE; }

static bool pack_scalar(TypeKind k, Value *v, const char *what, const Path *p, unsigned char *at) {
  bool ok = k == TY_BOOL ? v->kind == VAL_BOOL
          : k == TY_FLOAT || k == TY_DOUBLE ? is_number_value(v) : is_int_value(v);
  if (!ok)
    return diag_error(LOC_NONE, "%s: expected a value of type %s", path_name(what, p), type_scalar_name(k));
  int32_t i; int64_t l; float f; double d; uint8_t u;
  switch (k) {
  case TY_INT: case TY_IDX: i = (int32_t)value_as_long(v); memcpy(at, &i, 4); break;
  case TY_LONG: l = value_as_long(v); memcpy(at, &l, 8); break;
  /* a float value is stored as is, never through a double (keeps -0, nan bits) */
  case TY_FLOAT: f = v->kind == VAL_FLOAT ? v->s.f : (float)value_as_double(v); memcpy(at, &f, 4); break;
  case TY_DOUBLE: d = value_as_double(v); memcpy(at, &d, 8); break;
  default: u = v->s.b ? 1 : 0; memcpy(at, &u, 1); break;
  }
  return true;
}

static bool pack_at(Type *t, Value *v, NatBinding *b, const char *what, const Path *p, unsigned char **at);

/* A flat value (value.h) whose scalars are already the flat layout of type t:
   the same nesting of arrays without positions, the same lengths, the same scalar
   kind. Its buffer is then copied in one go, or passed as it is (cpu_run). */
bool layout_flat_matches(Type *t, Value *v, NatBinding *b) {
  if (!value_is_flat(v)) return false;
  for (int d = 0; d < v->rank; d++, t = t->elem) {
    long long len;
    if (t->kind != TY_ARRAY || t->index || !nat_eval(t->len, layout_lookup, b, &len) || len != v->shape[d]) return false;
  }
  return (type_is_scalar(t) || t->kind == TY_IDX) && value_kind_of_scalar(t->kind) == v->leaf;
}

/* Field f of every tuple of v, `depth` array levels of tuples: that field's array
   in the structure-of-arrays layout (layout_soa); NULL where v is not so shaped. */
static Value *soa_field(Value *v, int depth, int f) {
  if (depth == 0) return v->kind == VAL_TUPLE && f < v->n ? v->elems[f] : NULL;
  if (v->kind != VAL_ARRAY) return NULL;
  Value *r = value_array(v->n);
  for (int64_t i = 0; i < v->n; i++)
    if (!(r->elems[i] = soa_field(value_elem(v, i), depth - 1, f))) return NULL;
  return r;
}

/* The inverse: the arrays of the n fields zipped back into `depth` levels of tuples. */
static Value *soa_zip(Value **fields, int n, int depth) {
  if (depth == 0) {
    Value *t = value_tuple(n);
    for (int f = 0; f < n; f++) t->elems[f] = fields[f];
    return t;
  }
  Value *r = value_array(fields[0]->n);
  Value **row = NEW_ARRAY(Value *, n);
  for (int64_t i = 0; i < r->n; i++) {
    for (int f = 0; f < n; f++) row[f] = value_elem(fields[f], i);
    r->elems[i] = soa_zip(row, n, depth - 1);
  }
  return r;
}


static bool pack_soa(Type *t, Value *v, NatBinding *b, const char *what, const Path *p, unsigned char **at) {
  Type *s = layout_soa(t);
  Value *fields = value_tuple(s->n);
  for (int f = 0; f < s->n; f++)
    if (!(fields->elems[f] = soa_field(v, layout_soa_depth(t), f)))
      return diag_error(LOC_NONE, "%s: expected a value of type %s", path_name(what, p), type_to_string(t));
  return pack_at(s, fields, b, what, p, at);
}

static bool pack_array(Type *t, Value *v, NatBinding *b, const char *what, const Path *p, unsigned char **at) {
  int64_t len;
  if (v->kind != VAL_ARRAY)
    return diag_error(LOC_NONE, "%s: expected an array (%s)", path_name(what, p), type_to_string(t));
  if (layout_flat_matches(t, v, b)) {
    size_t bytes = (size_t)(v->n * value_flat_row_scalars(v)) * value_scalar_size(v->leaf);
    memcpy(*at, v->raw, bytes);
    *at += bytes;
    return true;
  }
  if (!layout_eval_len(t->len, b, what, &len)) return false;
  if (v->n != len)
    return diag_error(LOC_NONE, "%s: the array has %lld elements, but its type %s says %lld",
                      path_name(what, p), (long long)v->n, type_to_string(t), (long long)len);
  for (int64_t i = 0; i < len; i++) {
    Path here = { i, p };
    NatBinding pos = { t->index, i, b };
    Value tmp;
    if (!pack_at(t->elem, value_elem_at(v, i, &tmp), t->index ? &pos : b, what, &here, at)) return false;
  }
  return true;
}

static bool pack_at(Type *t, Value *v, NatBinding *b, const char *what, const Path *p, unsigned char **at) {
  if (!v) return diag_error(LOC_NONE, "%s: missing value", path_name(what, p));
  if (v->kind == VAL_RAW) {   /* already flat (clift bench): the size must agree */
    int64_t bytes;
    if (!layout_type_bytes(t, b, what, &bytes)) return false;
    if (bytes != v->n) return diag_error(LOC_NONE, "%s: %lld bytes given, the type needs %lld", what, (long long)v->n, (long long)bytes);
    memcpy(*at, v->raw, (size_t)bytes);
    *at += bytes;
    return true;
  }
  if (layout_soa_depth(t)) return pack_soa(t, v, b, what, p, at);
  if (t->kind == TY_ARRAY) return pack_array(t, v, b, what, p, at);
  if (t->kind == TY_VECTOR) {
    if (v->kind != VAL_VECTOR || v->n != t->width)
      return diag_error(LOC_NONE, "%s: expected a vector %s", path_name(what, p), type_to_string(t));
    size_t lane = layout_scalar_bytes(t->elem->kind);
    for (int k = 0; k < t->width; k++, *at += lane)
      if (!pack_scalar(t->elem->kind, v->elems[k], what, p, *at)) return false;
    return true;
  }
  if (t->kind == TY_TUPLE && layout_split_tuple(t)) {
    if (v->kind != VAL_TUPLE || v->n != t->n)
      return diag_error(LOC_NONE, "%s: expected a tuple %s", path_name(what, p), type_to_string(t));
    int64_t off, bytes;
    for (int k = 0; k < t->n; k++) {
      if (!layout_split_offset(t, k, b, what, &off)) return false;
      unsigned char *field = *at + off;
      if (!pack_at(t->fields[k], v->elems[k], b, what, p, &field)) return false;
    }
    if (!layout_type_bytes(t, b, what, &bytes)) return false;
    *at += bytes;
    return true;
  }
  if (t->kind == TY_TUPLE) {
    if (v->kind != VAL_TUPLE || v->n != t->n)
      return diag_error(LOC_NONE, "%s: expected a tuple %s", path_name(what, p), type_to_string(t));
    size_t size;
    layout_field_offset(t, 0, &size);
    for (int k = 0; k < t->n; k++) {
      unsigned char *field = *at + layout_field_offset(t, k, NULL);
      if (!pack_at(t->fields[k], v->elems[k], b, what, p, &field)) return false;
    }
    *at += size;
    return true;
  }
  if (!layout_scalar_bytes(t->kind)) return layout_type_supported(t, what);
  if (!pack_scalar(t->kind, v, what, p, *at)) return false;
  *at += layout_scalar_bytes(t->kind);
  return true;
}

bool layout_pack(Type *t, Value *v, NatBinding *b, const char *what, unsigned char *buf) {
  unsigned char *at = buf;
  return pack_at(t, v, b, what, NULL, &at);
}

static Value *unpack_scalar(TypeKind k, const unsigned char *at) {
  int32_t i; int64_t l; float f; double d;
  switch (k) {
  case TY_INT: case TY_IDX: memcpy(&i, at, 4); return value_int(i);
  case TY_LONG: memcpy(&l, at, 8); return value_long(l);
  case TY_FLOAT: memcpy(&f, at, 4); return value_float(f);
  case TY_DOUBLE: memcpy(&d, at, 8); return value_double(d);
  default: return value_bool(*at != 0);
  }
}

/* The shape of a regular array of scalars of type t, as a flat value has it;
   false when t is something else (tuples, vectors, positions). */
static bool flat_shape(Type *t, NatBinding *b, const char *what, int64_t *shape, int *rank, ValueKind *leaf) {
  *rank = 0;
  for (; t->kind == TY_ARRAY; t = t->elem) {
    if (t->index || *rank == 32 || !layout_eval_len(t->len, b, what, &shape[(*rank)++])) return false;
  }
  if (*rank == 0 || (!type_is_scalar(t) && t->kind != TY_IDX)) return false;
  *leaf = value_kind_of_scalar(t->kind);
  return true;
}

static Value *unpack_at(Type *t, NatBinding *b, const char *what, const unsigned char **at) {
  if (layout_soa_depth(t)) {
    Value *fields = unpack_at(layout_soa(t), b, what, at);
    return fields ? soa_zip(fields->elems, fields->n, layout_soa_depth(t)) : NULL;
  }
  if (t->kind == TY_ARRAY) {
    int64_t len, shape[32];
    int rank;
    ValueKind leaf;
    if (flat_shape(t, b, what, shape, &rank, &leaf)) {   /* a regular array of scalars: flat */
      Value *v = value_flat(leaf, rank, shape);
      size_t bytes = (size_t)(v->n * value_flat_row_scalars(v)) * value_scalar_size(leaf);
      memcpy(v->raw, *at, bytes);
      *at += bytes;
      return v;
    }
    if (diag_has_error() || !layout_eval_len(t->len, b, what, &len)) return NULL;
    Value *v = value_array(len);
    for (int64_t i = 0; i < len; i++) {
      NatBinding pos = { t->index, i, b };
      if (!(v->elems[i] = unpack_at(t->elem, t->index ? &pos : b, what, at))) return NULL;
    }
    return v;
  }
  if (t->kind == TY_VECTOR) {
    Value *v = value_vector(t->width);
    for (int k = 0; k < t->width; k++, *at += layout_scalar_bytes(t->elem->kind))
      v->elems[k] = unpack_scalar(t->elem->kind, *at);
    return v;
  }
  if (t->kind == TY_TUPLE && layout_split_tuple(t)) {
    Value *v = value_tuple(t->n);
    int64_t off, bytes;
    for (int k = 0; k < t->n; k++) {
      if (!layout_split_offset(t, k, b, what, &off)) return NULL;
      const unsigned char *field = *at + off;
      if (!(v->elems[k] = unpack_at(t->fields[k], b, what, &field))) return NULL;
    }
    if (!layout_type_bytes(t, b, what, &bytes)) return NULL;
    *at += bytes;
    return v;
  }
  if (t->kind == TY_TUPLE) {
    Value *v = value_tuple(t->n);
    for (int k = 0; k < t->n; k++) {
      const unsigned char *field = *at + layout_field_offset(t, k, NULL);
      if (!(v->elems[k] = unpack_at(t->fields[k], b, what, &field))) return NULL;
    }
    *at += layout_tuple_field_bytes(t);
    return v;
  }
  if (!layout_scalar_bytes(t->kind)) { layout_type_supported(t, what); return NULL; }
  Value *v = unpack_scalar(t->kind, *at);
  *at += layout_scalar_bytes(t->kind);
  return v;
}

/* The kept part of a result holding dynamic-length arrays (SPEC §3.4): its data
   lie at the upper bounds (rows of an array of them at the stride of their upper
   bound), its lengths after them. Only the elements below each length are read,
   so a result costs what it keeps, not its bound (F34: 6 GB of values for an
   empty result). With out == NULL nothing is read: *extent grows to the end of
   the last kept byte (what a device must copy back). */
typedef struct Kept { const int32_t *lens; int64_t nlens, next; bool in_place; } Kept;

/* The kept array `kept` at buf + at: *extent grows to its end; its value read into
   *out (in place or copied, as k says) unless out is NULL. */
static bool kept_read(Type *kept, NatBinding *b, const char *what, unsigned char *buf, int64_t at, const Kept *k,
                      Value **out, int64_t *extent) {
  int64_t bytes;
  if (!layout_type_bytes(kept, b, what, &bytes)) return false;
  if (at + bytes > *extent) *extent = at + bytes;
  if (!out) return true;
  *out = k->in_place ? layout_unpack_in_place(kept, b, what, buf + at) : layout_unpack(kept, b, what, buf + at);
  return *out != NULL;
}

/* The first n elements of u, an array laid out at its (upper-bound) length. A
   plain array's prefix is its first n rows; an array of tuples holding arrays is
   the structure of its fields' arrays at u's length, so its prefix is the first
   n rows of every field's array, each where the upper bound puts it, zipped back
   (F35: a prefix of n elements has its own, different, field offsets) — and a
   field that is itself such an array (nested tuples: F37) is cut the same way. */
static bool kept_prefix(Type *u, int32_t n, NatBinding *b, const char *what, unsigned char *buf, int64_t off, Kept *k,
                        Value **out, int64_t *extent) {
  if (!layout_soa_depth(u)) {
    Type *kept = type_array(u->elem, nat_const(n));
    kept->index = u->index;
    return kept_read(kept, b, what, buf, off, k, out, extent);
  }
  Type *s = layout_soa(u);
  Value **fields = NEW_ARRAY(Value *, s->n);
  for (int f = 0; f < s->n; f++) {
    int64_t at;
    if (!layout_split_offset(s, f, b, what, &at) ||
        !kept_prefix(s->fields[f], n, b, what, buf, off + at, k, out ? &fields[f] : NULL, extent))
      return false;
  }
  if (out) *out = soa_zip(fields, s->n, layout_soa_depth(u));
  return true;
}

static bool kept_walk(Type *t, NatBinding *b, const char *what, unsigned char *buf, int64_t off, Kept *k,
                      Value **out, int64_t *extent) {
  if (t->kind == TY_EXISTS) {
    Type *u = type_exists_upper(t);
    int64_t hi;
    int32_t n = k->next < k->nlens ? k->lens[k->next] : -1;
    k->next++;
    if (!u || !layout_eval_len(u->len, b, what, &hi)) return false;
    if (n < 0 || n > hi)
      return diag_error(LOC_NONE, "%s: a length cell holds %d, outside 0..%lld", what, n, (long long)hi);
    return kept_prefix(u, n, b, what, buf, off, k, out, extent);
  }
  int64_t len, stride = 0;
  if (!layout_eval_len(t->len, b, what, &len)) return false;
  Type *row = type_exists_upper(t->elem);
  if (!row || (!t->index && !layout_type_bytes(row, b, what, &stride))) return false;
  Value *v = out ? value_array(len) : NULL;
  for (int64_t i = 0; i < len; i++) {
    NatBinding pos = { t->index, i, b };
    NatBinding *at = t->index ? &pos : b;
    if (t->index && !layout_type_bytes(row, at, what, &stride)) return false;
    if (!kept_walk(t->elem, at, what, buf, off, k, v ? &v->elems[i] : NULL, extent)) return false;
    off += stride;
  }
  if (out) *out = v;
  return true;
}

static bool kept_lens(Type *t, NatBinding *b, const char *what, const unsigned char *buf, Kept *k) {
  int64_t off, bytes;
  if (!type_exists_upper(t) || !layout_lens_offset(t, b, what, &off) || !layout_type_bytes(type_exists_lens(t), b, what, &bytes))
    return false;
  k->nlens = bytes / (int64_t)sizeof(int32_t);
  int32_t *lens = NEW_ARRAY(int32_t, k->nlens > 0 ? k->nlens : 1);
  memcpy(lens, buf + off, (size_t)bytes);
  k->lens = lens;
  return true;
}

static Value *unpack_exists(Type *t, NatBinding *b, const char *what, unsigned char *buf, bool in_place) {
  Kept k = { .in_place = in_place };
  Value *v = NULL;
  int64_t extent = 0;
  return kept_lens(t, b, what, buf, &k) && kept_walk(t, b, what, buf, 0, &k, &v, &extent) ? v : NULL;
}

bool layout_kept_bytes(Type *t, NatBinding *b, const char *what, const unsigned char *buf, int64_t *extent) {
  Kept k = {0};
  *extent = 0;
  return kept_lens(t, b, what, buf, &k) && kept_walk(t, b, what, (unsigned char *)buf, 0, &k, NULL, extent);
}

Value *layout_unpack(Type *t, NatBinding *b, const char *what, const unsigned char *buf) {
  if (type_has_exists(t)) return unpack_exists(t, b, what, (unsigned char *)buf, false);
  const unsigned char *at = buf;
  return unpack_at(t, b, what, &at);
}

Value *layout_unpack_in_place(Type *t, NatBinding *b, const char *what, unsigned char *buf) {
  if (type_has_exists(t)) return unpack_exists(t, b, what, buf, true);
  int64_t shape[32];
  int rank;
  ValueKind leaf;
  if (flat_shape(t, b, what, shape, &rank, &leaf)) return value_flat_over(leaf, rank, shape, buf);
  return diag_has_error() ? NULL : layout_unpack(t, b, what, buf);
}
