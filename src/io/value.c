/* value.c — constructors and scalar accessors for run-time values (SPEC §7).
   Values live in the arena like everything else; nothing is freed. */
#include "value.h"
#include <assert.h>
#include <math.h>

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
