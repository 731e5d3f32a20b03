/* eval_scalar.c — interpreter rules of the scalar operators, with C semantics
   (int division truncates, ints wrap) so that the backends' generated C agrees.
   Vectors apply the operator lane by lane, broadcasting a scalar operand. */
#include "interp.h"
#include "../prim/rules.h"
#include <math.h>

#define CLIFT_Q static
#include "../prim/special.h"
CLIFT_SPECIAL_FNS

static Value *make(TypeKind k, double d, int64_t l, bool b) {
  switch (k) {
  case TY_FLOAT: return value_float((float)d);
  case TY_DOUBLE: return value_double(d);
  case TY_INT: return value_int((int32_t)(uint32_t)l);
  case TY_LONG: return value_long(l);
  default: return value_bool(b);
  }
}

static double fop(ScalarOp op, double a, double b, bool is_float) {
  switch (op) {
  case OP_ADD: return a + b;
  case OP_SUB: return a - b;
  case OP_MUL: return a * b;
  case OP_DIV: return a / b;
  case OP_MOD: return is_float ? fmodf((float)a, (float)b) : fmod(a, b);
  case OP_MIN: return a < b ? a : b;
  case OP_MAX: return a > b ? a : b;
  case OP_POW: return is_float ? powf((float)a, (float)b) : pow(a, b);
  case OP_SQRT: return is_float ? sqrtf((float)a) : sqrt(a);
  case OP_EXP: return is_float ? expf((float)a) : exp(a);
  case OP_LOG: return is_float ? logf((float)a) : log(a);
  case OP_SIN: return is_float ? sinf((float)a) : sin(a);
  case OP_COS: return is_float ? cosf((float)a) : cos(a);
  case OP_TAN: return is_float ? tanf((float)a) : tan(a);
  case OP_ASIN: return is_float ? asinf((float)a) : asin(a);
  case OP_ACOS: return is_float ? acosf((float)a) : acos(a);
  case OP_ATAN: return is_float ? atanf((float)a) : atan(a);
  case OP_SINH: return is_float ? sinhf((float)a) : sinh(a);
  case OP_COSH: return is_float ? coshf((float)a) : cosh(a);
  case OP_TANH: return is_float ? tanhf((float)a) : tanh(a);
  case OP_ASINH: return is_float ? asinhf((float)a) : asinh(a);
  case OP_ACOSH: return is_float ? acoshf((float)a) : acosh(a);
  case OP_ATANH: return is_float ? atanhf((float)a) : atanh(a);
  case OP_ABS: return fabs(a);
  case OP_FLOOR: return floor(a);
  case OP_CEIL: return ceil(a);
  default: return 0;
  }
}

/* Integer arithmetic in unsigned 64-bit so overflow wraps instead of being UB. */
static bool iop(ScalarOp op, int64_t a, int64_t b, bool is_int, int64_t *r) {
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  switch (op) {
  case OP_ADD: *r = (int64_t)(ua + ub); break;
  case OP_SUB: *r = (int64_t)(ua - ub); break;
  case OP_MUL: *r = (int64_t)(ua * ub); break;
  case OP_DIV: case OP_MOD:
    if (b == 0) return false;
    if (b == -1) { *r = op == OP_DIV ? (int64_t)(0 - ua) : 0; break; }
    *r = op == OP_DIV ? a / b : a % b;
    break;
  case OP_MIN: *r = a < b ? a : b; break;
  case OP_MAX: *r = a > b ? a : b; break;
  case OP_ABS: *r = a < 0 ? (int64_t)(0 - ua) : a; break;
  case OP_BITAND: *r = a & b; break;
  case OP_BITOR: *r = a | b; break;
  case OP_BITXOR: *r = a ^ b; break;
  case OP_BITNOT: *r = ~a; break;
  /* the count modulo the width, as in the generated code (c_expr.c) */
  case OP_SHL: *r = (int64_t)(ua << (ub & (is_int ? 31 : 63))); break;
  case OP_LSHR: *r = is_int ? (int64_t)((uint32_t)ua >> (ub & 31)) : (int64_t)(ua >> (ub & 63)); break;
  case OP_ASHR: *r = is_int ? (int64_t)((int32_t)(uint32_t)ua >> (ub & 31)) : a >> (ub & 63); break;
  default: *r = 0;
  }
  if (is_int) *r = (int32_t)(uint32_t)(uint64_t)*r;
  return true;
}

static Value *binary(Expr *e, ScalarOp op, Value *a, Value *b) {
  if (a->kind == VAL_VECTOR || b->kind == VAL_VECTOR) {
    int64_t w = a->kind == VAL_VECTOR ? a->n : b->n;
    Value *out = value_vector((int)w);
    for (int64_t i = 0; i < w; i++) {
      Value *x = a->kind == VAL_VECTOR ? a->elems[i] : a, *y = b->kind == VAL_VECTOR ? b->elems[i] : b;
      if (!(out->elems[i] = binary(e, op, x, y))) return NULL;
    }
    return out;
  }
  TypeKind k = a->kind == VAL_INT ? TY_INT : a->kind == VAL_LONG ? TY_LONG : a->kind == VAL_FLOAT ? TY_FLOAT
             : a->kind == VAL_DOUBLE ? TY_DOUBLE : TY_BOOL;
  bool is_fp = k == TY_FLOAT || k == TY_DOUBLE;
  switch (op) {
  case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_EQ: case OP_NE: {
    double x = value_as_double(a), y = value_as_double(b);
    if (!is_fp) { int64_t p = value_as_long(a), q = value_as_long(b); x = (double)(p > q) - (double)(p < q); y = 0; }
    bool r = op == OP_LT ? x < y : op == OP_LE ? x <= y : op == OP_GT ? x > y
           : op == OP_GE ? x >= y : op == OP_EQ ? x == y : x != y;
    return value_bool(r);
  }
  case OP_AND: return value_bool(a->s.b && b->s.b);
  case OP_CHECK_LENGTH:
    if (value_as_long(a) != value_as_long(b)) {
      diag_error(e->loc, CLIFT_LENGTH_ERROR, (long long)value_as_long(a), (long long)value_as_long(b), value_as_long(b) == 1 ? "is" : "are");
      return NULL;
    }
    return value_int((int32_t)value_as_long(a));
  case OP_OR: return value_bool(a->s.b || b->s.b);
  case OP_BINOMIAL: {
    int bad = 0;
    double r = clift_binomial_of(a->s.d, b->s.d, &bad);
    if (bad) { diag_error(e->loc, CLIFT_BINOMIAL_ERROR, a->s.d, b->s.d); return NULL; }
    return value_double(r);
  }
  default: break;
  }
  if (is_fp) return make(k, fop(op, value_as_double(a), value_as_double(b), k == TY_FLOAT), 0, false);
  int64_t r;
  if (!iop(op, value_as_long(a), value_as_long(b), k == TY_INT, &r)) {
    diag_error(e->loc, op == OP_MOD ? "integer modulo by zero" : "integer division by zero");
    return NULL;
  }
  return make(k, 0, r, false);
}

static Value *unary(Expr *e, ScalarOp op, Value *a) {
  if (a->kind == VAL_VECTOR) {
    Value *out = value_vector((int)a->n);
    for (int64_t i = 0; i < a->n; i++) if (!(out->elems[i] = unary(e, op, a->elems[i]))) return NULL;
    return out;
  }
  switch (op) {
  case OP_NOT: return value_bool(!a->s.b);
  case OP_I2F: return value_float((float)a->s.i);
  case OP_I2D: return value_double((double)a->s.i);
  case OP_F2D: return value_double((double)a->s.f);
  case OP_D2F: return value_float((float)a->s.d);
  case OP_I2L: return value_long(a->s.i);
  case OP_L2I: return value_int((int32_t)(uint32_t)(uint64_t)a->s.l);
  case OP_FACTORIAL: {
    int bad = 0;
    double r = clift_factorial_of(a->s.d, &bad);
    if (bad) { diag_error(e->loc, CLIFT_FACTORIAL_ERROR, a->s.d); return NULL; }
    return value_double(r);
  }
  case OP_F2I: case OP_D2I: {
    double d = op == OP_F2I ? a->s.f : a->s.d;
    if (!(d > -2147483649.0 && d < 2147483648.0)) { diag_error(e->loc, "'%s': %g does not fit in an int", e->prim->name, d); return NULL; }
    return value_int((int32_t)d);
  }
  default: break;
  }
  if (a->kind == VAL_FLOAT || a->kind == VAL_DOUBLE)
    return make(a->kind == VAL_FLOAT ? TY_FLOAT : TY_DOUBLE, fop(op, value_as_double(a), 0, a->kind == VAL_FLOAT), 0, false);
  int64_t r;
  iop(op, value_as_long(a), 0, a->kind == VAL_INT, &r);
  return make(a->kind == VAL_INT ? TY_INT : TY_LONG, 0, r, false);
}

Value *eval_scalar_op(Interp *it, Expr *e, Env *env) {
  Value *a = interp_eval(it, e->kids[0], env);
  if (!a) return NULL;
  if (e->nkids == 1) return unary(e, e->prim->op, a);
  /* `and`/`or` short-circuit, as in C */
  if (e->prim->op == OP_AND && !a->s.b) return value_bool(false);
  if (e->prim->op == OP_OR && a->s.b) return value_bool(true);
  Value *b = interp_eval(it, e->kids[1], env);
  return b ? binary(e, e->prim->op, a, b) : NULL;
}
