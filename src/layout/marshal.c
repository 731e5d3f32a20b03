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

/* The first n elements of array v (flat or boxed), sharing its storage. */
static Value *prefix(Value *v, int64_t n) {
  Value *r = NEW(Value);
  *r = *v;
  r->n = n;
  if (value_is_flat(v)) {
    int64_t *shape = NEW_ARRAY(int64_t, v->rank);
    for (int d = 0; d < v->rank; d++) shape[d] = v->shape[d];
    shape[0] = n;
    r->shape = shape;
  }
  return r;
}

/* v (of type t's upper bounds) cut to the lengths lens[*next …] (SPEC §3.4:
   only the actual elements are the result; rows of an array of them stay at
   the stride of their upper bound in memory). */
static Value *trim(Value *v, Type *t, const int32_t *lens, int64_t nlens, int64_t *next, const char *what) {
  if (t->kind == TY_EXISTS) {
    int32_t n = *next < nlens ? lens[*next] : -1;
    (*next)++;
    if (n < 0 || n > v->n) {
      diag_error(LOC_NONE, "%s: a length cell holds %d, outside 0..%lld", what, n, (long long)v->n);
      return NULL;
    }
    return prefix(v, n);
  }
  Value *out = value_array(v->n);
  for (int64_t i = 0; i < v->n; i++)
    if (!(out->elems[i] = trim(value_elem(v, i), t->elem, lens, nlens, next, what))) return NULL;
  return out;
}

static Value *unpack_exists(Type *t, NatBinding *b, const char *what, unsigned char *buf, bool in_place) {
  Type *u = type_exists_upper(t);
  int64_t off, bytes;
  if (!u || !layout_lens_offset(t, b, what, &off) || !layout_type_bytes(type_exists_lens(t), b, what, &bytes)) return NULL;
  Value *data = in_place ? layout_unpack_in_place(u, b, what, buf) : layout_unpack(u, b, what, buf);
  int64_t next = 0, nlens = bytes / (int64_t)sizeof(int32_t);
  int32_t *lens = NEW_ARRAY(int32_t, nlens > 0 ? nlens : 1);
  memcpy(lens, buf + off, (size_t)bytes);
  return data ? trim(data, t, lens, nlens, &next, what) : NULL;
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
