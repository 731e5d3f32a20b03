/* cpu_marshal.c — values to flat buffers and back, driven by the type and the size
   bindings (layout: cpu_layout.c). Packing checks every array length against its
   type, so lengths that contradict the size variables are reported before any
   kernel runs (SPEC §8). */
#include "cpu_internal.h"
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

static bool pack_array(Type *t, Value *v, NatBinding *b, const char *what, const Path *p, unsigned char **at) {
  int64_t len;
  if (v->kind != VAL_ARRAY)
    return diag_error(LOC_NONE, "%s: expected an array (%s)", path_name(what, p), type_to_string(t));
  if (!cpu_eval_len(t->len, b, what, &len)) return false;
  if (v->n != len)
    return diag_error(LOC_NONE, "%s: the array has %lld elements, but its type %s says %lld",
                      path_name(what, p), (long long)v->n, type_to_string(t), (long long)len);
  for (int64_t i = 0; i < len; i++) {
    Path here = { i, p };
    NatBinding pos = { t->index, i, b };
    if (!pack_at(t->elem, v->elems[i], t->index ? &pos : b, what, &here, at)) return false;
  }
  return true;
}

static bool pack_at(Type *t, Value *v, NatBinding *b, const char *what, const Path *p, unsigned char **at) {
  if (!v) return diag_error(LOC_NONE, "%s: missing value", path_name(what, p));
  if (v->kind == VAL_RAW) {   /* already flat (clift bench): the size must agree */
    int64_t bytes;
    if (!cpu_type_bytes(t, b, what, &bytes)) return false;
    if (bytes != v->n) return diag_error(LOC_NONE, "%s: %lld bytes given, the type needs %lld", what, (long long)v->n, (long long)bytes);
    memcpy(*at, v->raw, (size_t)bytes);
    *at += bytes;
    return true;
  }
  if (t->kind == TY_ARRAY) return pack_array(t, v, b, what, p, at);
  if (t->kind == TY_VECTOR) {
    if (v->kind != VAL_VECTOR || v->n != t->width)
      return diag_error(LOC_NONE, "%s: expected a vector %s", path_name(what, p), type_to_string(t));
    size_t lane = cpu_scalar_bytes(t->elem->kind);
    for (int k = 0; k < t->width; k++, *at += lane)
      if (!pack_scalar(t->elem->kind, v->elems[k], what, p, *at)) return false;
    return true;
  }
  if (t->kind == TY_TUPLE) {
    if (v->kind != VAL_TUPLE || v->n != t->n)
      return diag_error(LOC_NONE, "%s: expected a tuple %s", path_name(what, p), type_to_string(t));
    size_t size;
    cpu_field_offset(t, 0, &size);
    for (int k = 0; k < t->n; k++) {
      unsigned char *field = *at + cpu_field_offset(t, k, NULL);
      if (!pack_at(t->fields[k], v->elems[k], b, what, p, &field)) return false;
    }
    *at += size;
    return true;
  }
  if (!cpu_scalar_bytes(t->kind)) return cpu_type_supported(t, what);
  if (!pack_scalar(t->kind, v, what, p, *at)) return false;
  *at += cpu_scalar_bytes(t->kind);
  return true;
}

bool cpu_pack(Type *t, Value *v, NatBinding *b, const char *what, unsigned char *buf) {
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

static Value *unpack_at(Type *t, NatBinding *b, const char *what, const unsigned char **at) {
  if (t->kind == TY_ARRAY) {
    int64_t len;
    if (!cpu_eval_len(t->len, b, what, &len)) return NULL;
    Value *v = value_array(len);
    for (int64_t i = 0; i < len; i++) {
      NatBinding pos = { t->index, i, b };
      if (!(v->elems[i] = unpack_at(t->elem, t->index ? &pos : b, what, at))) return NULL;
    }
    return v;
  }
  if (t->kind == TY_VECTOR) {
    Value *v = value_vector(t->width);
    for (int k = 0; k < t->width; k++, *at += cpu_scalar_bytes(t->elem->kind))
      v->elems[k] = unpack_scalar(t->elem->kind, *at);
    return v;
  }
  if (t->kind == TY_TUPLE) {
    Value *v = value_tuple(t->n);
    for (int k = 0; k < t->n; k++) {
      const unsigned char *field = *at + cpu_field_offset(t, k, NULL);
      if (!(v->elems[k] = unpack_at(t->fields[k], b, what, &field))) return NULL;
    }
    *at += cpu_tuple_field_bytes(t);
    return v;
  }
  if (!cpu_scalar_bytes(t->kind)) { cpu_type_supported(t, what); return NULL; }
  Value *v = unpack_scalar(t->kind, *at);
  *at += cpu_scalar_bytes(t->kind);
  return v;
}

Value *cpu_unpack(Type *t, NatBinding *b, const char *what, const unsigned char *buf) {
  const unsigned char *at = buf;
  return unpack_at(t, b, what, &at);
}
