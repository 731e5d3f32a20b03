/* value.c — constructors and scalar accessors for run-time values (SPEC §7).
   Values live in the arena; the interpreter frees what its loop iterations no
   longer need with value_keep (arena mark and release). */
#include "value.h"
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Value *value_new(ValueKind kind) {
  Value *v = NEW(Value);
  v->kind = kind;
  return v;
}

Value *value_int(int32_t x)   { Value *v = value_new(VAL_INT);    v->s.i = x; return v; }
Value *value_long(int64_t x)  { Value *v = value_new(VAL_LONG);   v->s.l = x; return v; }
Value *value_float(float x)   { Value *v = value_new(VAL_FLOAT);  v->s.f = x; return v; }
Value *value_double(double x) { Value *v = value_new(VAL_DOUBLE); v->s.d = x; return v; }
Value *value_bool(bool x)     { Value *v = value_new(VAL_BOOL);   v->s.b = x; return v; }

/* Aggregates get their element slots up front; the caller fills them. */
static Value *value_aggregate(ValueKind kind, int64_t n) {
  Value *v = value_new(kind);
  v->n = n;
  v->elems = NEW_ARRAY(Value *, n);
  return v;
}

Value *value_array(int64_t n) { return value_aggregate(VAL_ARRAY, n); }
Value *value_tuple(int n)     { return value_aggregate(VAL_TUPLE, n); }
Value *value_vector(int n)    { return value_aggregate(VAL_VECTOR, n); }

Value *value_failed(int handle) {
  Value *v = NEW(Value);
  v->kind = VAL_FAILED; v->s.i = handle;
  return v;
}

Value *value_find_failed(Value *v) {
  if (!v || v->kind == VAL_FAILED) return v;
  if (value_is_flat(v) || v->kind == VAL_RAW || !v->elems) return NULL;
  for (int64_t i = 0; i < v->n; i++) {
    Value *f = value_find_failed(v->elems[i]);
    if (f) return f;
  }
  return NULL;
}

double value_as_double(Value *v) {
  switch (v->kind) {
  case VAL_INT:    return v->s.i;
  case VAL_LONG:   return (double)v->s.l;
  case VAL_FLOAT:  return v->s.f;
  case VAL_DOUBLE: return v->s.d;
  case VAL_BOOL:   return v->s.b;
  default: assert(!"value_as_double of an aggregate"); return 0;
  }
}

/* Converting an out-of-range float to an integer is undefined in C; saturate
   instead so a bad index computed by a program cannot crash the interpreter. */
static int64_t float_to_long(double d) {
  if (isnan(d)) return 0;
  if (d >= 9223372036854775807.0) return INT64_MAX;
  if (d <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)d;
}

int64_t value_as_long(Value *v) {
  switch (v->kind) {
  case VAL_INT:    return v->s.i;
  case VAL_LONG:   return v->s.l;
  case VAL_FLOAT:  return float_to_long(v->s.f);
  case VAL_DOUBLE: return float_to_long(v->s.d);
  case VAL_BOOL:   return v->s.b;
  default: assert(!"value_as_long of an aggregate"); return 0;
  }
}

/* ---- flat arrays (docs/values.md §5) ---- */

size_t value_scalar_size(ValueKind leaf) {
  switch (leaf) {
  case VAL_INT: case VAL_FLOAT: return 4;
  case VAL_LONG: case VAL_DOUBLE: return 8;
  case VAL_BOOL: return 1;
  default: assert(!"value_scalar_size of a non-scalar"); return 0;
  }
}

ValueKind value_kind_of_scalar(TypeKind k) {
  switch (k) {
  case TY_LONG: return VAL_LONG;
  case TY_FLOAT: return VAL_FLOAT;
  case TY_DOUBLE: return VAL_DOUBLE;
  case TY_BOOL: return VAL_BOOL;
  default: return VAL_INT;   /* int, idx */
  }
}

int64_t value_flat_row_scalars(const Value *v) {
  int64_t k = 1;
  for (int d = 1; d < v->rank; d++) k *= v->shape[d];
  return k;
}

Value *value_flat_over(ValueKind leaf, int rank, const int64_t *shape, unsigned char *data) {
  Value *v = value_new(VAL_ARRAY);
  int64_t *s = NEW_ARRAY(int64_t, rank);
  memcpy(s, shape, sizeof(int64_t) * (size_t)rank);
  v->leaf = leaf; v->rank = rank; v->shape = s; v->n = s[0]; v->raw = data;
  return v;
}

Value *value_flat(ValueKind leaf, int rank, const int64_t *shape) {
  int64_t count = 1;
  for (int d = 0; d < rank; d++) count *= shape[d];
  return value_flat_over(leaf, rank, shape, NEW_ARRAY(unsigned char, count * (int64_t)value_scalar_size(leaf)));
}

static void scalar_load(Value *out, ValueKind leaf, const unsigned char *p) {
  out->kind = leaf;
  switch (leaf) {
  case VAL_INT:    memcpy(&out->s.i, p, 4); break;
  case VAL_LONG:   memcpy(&out->s.l, p, 8); break;
  case VAL_FLOAT:  memcpy(&out->s.f, p, 4); break;
  case VAL_DOUBLE: memcpy(&out->s.d, p, 8); break;
  default:         out->s.b = *p != 0; break;
  }
}

static void scalar_store(unsigned char *p, const Value *x) {
  uint8_t u;
  switch (x->kind) {
  case VAL_INT:    memcpy(p, &x->s.i, 4); break;
  case VAL_LONG:   memcpy(p, &x->s.l, 8); break;
  case VAL_FLOAT:  memcpy(p, &x->s.f, 4); break;
  case VAL_DOUBLE: memcpy(p, &x->s.d, 8); break;
  default:         u = x->s.b ? 1 : 0; *p = u; break;
  }
}

Value *value_elem_at(Value *v, int64_t i, Value *tmp) {
  if (!value_is_flat(v)) return v->elems[i];
  int64_t row = value_flat_row_scalars(v);
  unsigned char *p = v->raw + (size_t)(i * row) * value_scalar_size(v->leaf);
  *tmp = (Value){ .kind = VAL_ARRAY };
  if (v->rank == 1) { scalar_load(tmp, v->leaf, p); return tmp; }
  tmp->leaf = v->leaf; tmp->rank = v->rank - 1; tmp->shape = v->shape + 1;
  tmp->n = v->shape[1]; tmp->raw = p;
  return tmp;
}

Value *value_elem(Value *v, int64_t i) {
  if (!value_is_flat(v)) return v->elems[i];
  Value *x = value_new(VAL_ARRAY);
  return value_elem_at(v, i, x);
}

/* Copy the scalars of x (a scalar, or an array of the row's shape in either
   representation) to p; false on a kind or shape mismatch. */
static bool store_row(unsigned char *p, ValueKind leaf, int rank, const int64_t *shape, Value *x) {
  size_t size = value_scalar_size(leaf);
  if (rank == 0) {
    if (x->kind != leaf) return false;
    scalar_store(p, x);
    return true;
  }
  if (x->kind != VAL_ARRAY || x->n != shape[0]) return false;
  if (value_is_flat(x)) {
    if (x->leaf != leaf || x->rank != rank) return false;
    int64_t count = 1;
    for (int d = 0; d < rank; d++) { if (x->shape[d] != shape[d]) return false; count *= shape[d]; }
    memcpy(p, x->raw, (size_t)count * size);
    return true;
  }
  int64_t row = 1;
  for (int d = 1; d < rank; d++) row *= shape[d];
  for (int64_t i = 0; i < x->n; i++)
    if (!store_row(p + (size_t)(i * row) * size, leaf, rank - 1, shape + 1, x->elems[i])) return false;
  return true;
}

/* A flat array made boxed in place, so that it can hold a VAL_FAILED element. */
static void unflatten(Value *a) {
  Value **elems = NEW_ARRAY(Value *, a->n > 0 ? a->n : 1);
  for (int64_t j = 0; j < a->n; j++) elems[j] = value_elem(a, j);
  a->elems = elems; a->rank = 0; a->raw = NULL; a->shape = NULL;
}

bool value_set_elem(Value *a, int64_t i, Value *x) {
  if (value_is_flat(a) && value_find_failed(x)) unflatten(a);
  if (!value_is_flat(a)) { a->elems[i] = x; return true; }
  int64_t row = value_flat_row_scalars(a);
  return store_row(a->raw + (size_t)(i * row) * value_scalar_size(a->leaf), a->leaf, a->rank - 1,
                   a->shape + 1, x);
}

bool value_flat_elem_type(Type *elem, ValueKind *leaf, int *rank) {
  *rank = 0;
  for (Type *t = elem;; t = t->elem) {
    if (t->kind == TY_ARRAY && !t->index) { (*rank)++; continue; }
    if (!type_is_scalar(t) && t->kind != TY_IDX) return false;
    *leaf = value_kind_of_scalar(t->kind);
    return true;
  }
}

/* ---- value_keep: copy the live part down to the mark ----
   Pass 1 copies every node, element list, shape and flat buffer of v that lies
   after the mark into a side buffer, with references between copied parts stored
   as tagged offsets (the top bit set, see tag()). Pass 2
   releases the arena to the mark, copies the side buffer back in one block and
   turns the offsets into addresses. Parts before the mark are shared, never
   copied: a value made before the mark cannot point to one made after it, since
   values are immutable once their loop iteration has built them. A part reachable
   twice is copied once (the original is overwritten with a VAL_MOVED forward). */

typedef struct Side { unsigned char *data; size_t len, cap; } Side;
static Side side;

static size_t side_alloc(size_t size) {
  size = (size + 15) & ~(size_t)15;
  if (side.len + size > side.cap) {
    size_t cap = side.cap ? side.cap * 2 : 4096;
    while (cap < side.len + size) cap *= 2;
    unsigned char *d = realloc(side.data, cap);
    if (!d) { fprintf(stderr, "error: out of memory: cannot allocate %zu bytes for the interpreter's values\n", cap); exit(1); }
    side.data = d; side.cap = cap;
  }
  size_t off = side.len;
  side.len += size;
  return off;
}

/* An offset is tagged by the top bit, which no user-space address has: a flat
   view's scalars may start at an odd address (a slice #1 of a bool array), so
   the low bit of a shared pointer is no tag (the TAIL random tester: iterate of
   (slice #1 #2 a) of bools crashed the interpreter). */
#define TAG_BIT ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))
static uintptr_t tag(size_t off) { return (uintptr_t)off | TAG_BIT; }
static bool tagged(uintptr_t r) { return (r & TAG_BIT) != 0; }

static uintptr_t copy_bytes(ArenaMark m, const void *p, size_t bytes) {
  if (!p || !arena_since(m, p)) return (uintptr_t)p;
  size_t off = side_alloc(bytes ? bytes : 1);
  memcpy(side.data + off, p, bytes);
  return tag(off);
}

static uintptr_t copy_value(ArenaMark m, Value *v) {
  if (!v || !arena_since(m, v)) return (uintptr_t)v;
  if (v->kind == VAL_MOVED) return (uintptr_t)v->elems;
  Value c = *v;
  uintptr_t elems = (uintptr_t)c.elems, raw = (uintptr_t)c.raw, shape = (uintptr_t)c.shape;
  if (value_is_flat(&c)) {
    int64_t count = c.n * value_flat_row_scalars(&c);
    raw = copy_bytes(m, c.raw, (size_t)count * value_scalar_size(c.leaf));
    shape = copy_bytes(m, c.shape, sizeof(int64_t) * (size_t)c.rank);
  } else if (c.kind == VAL_RAW) {
    raw = copy_bytes(m, c.raw, (size_t)c.n + 1);
  } else if (c.elems && arena_since(m, c.elems)) {
    size_t off = side_alloc(sizeof(uintptr_t) * (size_t)(c.n > 0 ? c.n : 1));
    for (int64_t i = 0; i < c.n; i++) {
      uintptr_t r = copy_value(m, c.elems[i]);
      memcpy(side.data + off + sizeof(uintptr_t) * (size_t)i, &r, sizeof r);
    }
    elems = tag(off);
  }
  c.elems = (Value **)elems; c.raw = (unsigned char *)raw; c.shape = (const int64_t *)shape;
  size_t off = side_alloc(sizeof(Value));
  memcpy(side.data + off, &c, sizeof c);
  v->kind = VAL_MOVED;
  v->elems = (Value **)tag(off);
  return tag(off);
}

static void *untag(unsigned char *base, uintptr_t r) { return tagged(r) ? base + (r & ~TAG_BIT) : (void *)r; }

static void relocate(unsigned char *base, Value *v) {
  bool boxed = !value_is_flat(v) && v->kind != VAL_RAW;
  uintptr_t elems = (uintptr_t)v->elems;
  v->raw = untag(base, (uintptr_t)v->raw);
  v->shape = untag(base, (uintptr_t)v->shape);
  v->elems = untag(base, elems);
  if (!boxed || !tagged(elems)) return;
  for (int64_t i = 0; i < v->n; i++) {
    uintptr_t r = (uintptr_t)v->elems[i];
    if (!tagged(r)) continue;
    v->elems[i] = untag(base, r);
    relocate(base, v->elems[i]);
  }
}

Value *value_keep(Value *v, ArenaMark mark) {
  if (v && v->kind <= VAL_BOOL && arena_since(mark, v)) {   /* a scalar: the common case */
    Value s = *v;
    arena_release(mark);
    Value *r = arena_try_alloc(sizeof s);
    if (!r) { fprintf(stderr, "error: out of memory: cannot allocate %zu bytes for the interpreter's values\n", sizeof s); exit(1); }
    *r = s;
    return r;
  }
  side.len = 0;
  uintptr_t root = copy_value(mark, v);
  arena_release(mark);
  if (!tagged(root)) return (Value *)root;
  unsigned char *base = arena_try_alloc(side.len);
  if (!base) { fprintf(stderr, "error: out of memory: cannot allocate %zu bytes for the interpreter's values\n", side.len); exit(1); }
  memcpy(base, side.data, side.len);
  Value *r = untag(base, root);
  relocate(base, r);
  return r;
}
