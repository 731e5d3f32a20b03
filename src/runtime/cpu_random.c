/* cpu_random.c — random inputs for `clift bench`, made directly in the flat
   layout (a 2^27-element input as a value tree would cost gigabytes): floats
   uniform in [-1, 1), ints in [0, 100), bools fair, from a seeded generator. */
#include "cpu_internal.h"
#include <string.h>

static uint64_t next(uint64_t *s) {   /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static double uniform(uint64_t *s) { return (double)(next(s) >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0; }

static Type *flat_scalar(Type *t) {
  while (t->kind == TY_ARRAY || t->kind == TY_VECTOR) t = t->elem;
  return t;
}

static void fill(TypeKind k, unsigned char *at, uint64_t *s) {
  float f; double d; int32_t i; int64_t l;
  switch (k) {
  case TY_FLOAT: f = (float)uniform(s); memcpy(at, &f, 4); break;
  case TY_DOUBLE: d = uniform(s); memcpy(at, &d, 8); break;
  case TY_INT: case TY_IDX: i = (int32_t)(next(s) % 100); memcpy(at, &i, 4); break;
  case TY_LONG: l = (int64_t)(next(s) % 100); memcpy(at, &l, 8); break;
  default: *at = (unsigned char)(next(s) & 1); break;
  }
}

Value *cpu_random_input(Type *t, NatBinding *sizes, uint64_t *seed, const char *what, bool as_tree) {
  Type *leaf = flat_scalar(t);
  if (!type_is_scalar(leaf)) {
    diag_error(LOC_NONE, "%s: random inputs of type %s are not supported", what, type_to_string(t));
    return NULL;
  }
  int64_t bytes;
  if (!layout_type_bytes(t, sizes, what, &bytes)) return NULL;
  size_t width = layout_scalar_bytes(leaf->kind);
  if (t->kind != TY_ARRAY) {   /* a scalar input stays a value */
    unsigned char buf[8];
    fill(leaf->kind, buf, seed);
    return layout_unpack(t, sizes, what, buf);
  }
  Value *v = NEW(Value);
  v->kind = VAL_RAW;
  v->n = bytes;
  if (!(v->raw = arena_try_alloc((size_t)bytes + 1))) {
    diag_error(LOC_NONE, "%s: out of memory: cannot allocate %lld bytes of random input", what, (long long)bytes);
    return NULL;
  }
  for (int64_t off = 0; off + (int64_t)width <= bytes; off += (int64_t)width) fill(leaf->kind, v->raw + off, seed);
  return as_tree ? layout_unpack(t, sizes, what, v->raw) : v;
}
