/* infer_scalar.c — type rules of scalar operators (SPEC §4.3): overloaded by
   type, no implicit conversions; on vectors element-wise, with a scalar of the
   element type broadcast (as in OpenCL C). */
#include "infer.h"
#include "../prim/rules.h"

static bool infer_operands(InferCx *cx, Expr *e, Type **a, Type **b) {
  *a = infer_expr(cx, e->kids[0]);
  *b = *a && e->nkids > 1 ? infer_expr(cx, e->kids[1]) : *a;
  return *a && *b;
}

Type *infer_arith(InferCx *cx, Expr *e) {
  Type *a, *b;
  if (!infer_operands(cx, e, &a, &b)) return NULL;
  Type *sa = type_scalar_of(a), *sb = type_scalar_of(b);
  bool ok = type_is_numeric(sa) && type_equal(sa, sb) &&
            (type_equal(a, b) || a->kind != TY_VECTOR || b->kind != TY_VECTOR);
  if (ok && e->prim->int_only && a->kind != TY_INT) ok = false;
  if (ok && e->prim->op == OP_POW && !type_is_float(a)) ok = false;
  if (!ok) {
    diag_error(e->loc, "'%s' cannot combine %s and %s%s", e->prim->name, type_to_string(a), type_to_string(b),
               type_equal(sa, sb) || !type_is_numeric(sa) || !type_is_numeric(sb) ? "" : " (no implicit conversion: use i2f, f2d, …)");
    return NULL;
  }
  return a->kind == TY_VECTOR ? a : b;
}

Type *infer_compare(InferCx *cx, Expr *e) {
  Type *a, *b;
  if (!infer_operands(cx, e, &a, &b)) return NULL;
  bool eq = e->prim->op == OP_EQ || e->prim->op == OP_NE;
  if (!type_is_scalar(a) || !type_equal(a, b) || (!eq && a->kind == TY_BOOL) ||
      (e->prim->int_only && a->kind != TY_INT)) {
    diag_error(e->loc, "'%s' cannot compare %s and %s", e->prim->name, type_to_string(a), type_to_string(b));
    return NULL;
  }
  return type_scalar(TY_BOOL);
}

Type *infer_logic(InferCx *cx, Expr *e) {
  Type *a, *b;
  if (!infer_operands(cx, e, &a, &b)) return NULL;
  if (a->kind != TY_BOOL || b->kind != TY_BOOL) {
    diag_error(e->loc, "'%s' expects bool operands, found %s%s%s", e->prim->name, type_to_string(a),
               e->nkids > 1 ? " and " : "", e->nkids > 1 ? type_to_string(b) : "");
    return NULL;
  }
  return a;
}

Type *infer_cast(InferCx *cx, Expr *e) {
  static const struct { ScalarOp op; TypeKind from, to; } casts[] = {
    { OP_I2F, TY_INT, TY_FLOAT }, { OP_F2I, TY_FLOAT, TY_INT }, { OP_I2D, TY_INT, TY_DOUBLE },
    { OP_D2I, TY_DOUBLE, TY_INT }, { OP_F2D, TY_FLOAT, TY_DOUBLE }, { OP_D2F, TY_DOUBLE, TY_FLOAT },
    { OP_I2L, TY_INT, TY_LONG }, { OP_L2I, TY_LONG, TY_INT } };
  Type *a = infer_expr(cx, e->kids[0]);
  if (!a) return NULL;
  for (size_t i = 0; i < sizeof casts / sizeof *casts; i++) {
    if (casts[i].op != e->prim->op) continue;
    if (a->kind != casts[i].from && !(casts[i].from == TY_INT && a->kind == TY_IDX)) {
      diag_error(e->loc, "'%s' expects %s, found %s", e->prim->name, type_scalar_name(casts[i].from), type_to_string(a));
      return NULL;
    }
    return type_scalar(casts[i].to);
  }
  diag_error(e->loc, "internal: unknown cast");
  return NULL;
}

Type *infer_math(InferCx *cx, Expr *e) {
  Type *a = infer_expr(cx, e->kids[0]);
  if (!a) return NULL;
  bool ok = e->prim->op == OP_ABS ? type_is_numeric(type_scalar_of(a)) : type_is_float(a);
  if (!ok) {
    diag_error(e->loc, "'%s' expects %s, found %s", e->prim->name,
               e->prim->op == OP_ABS ? "a number" : "float or double (use i2f to convert)", type_to_string(a));
    return NULL;
  }
  return a;
}

/* factorial, binomial (APL's !, prim/special.h): double scalars; the
   generated code's helper is written for double only */
Type *infer_special(InferCx *cx, Expr *e) {
  Type *a, *b;
  if (!infer_operands(cx, e, &a, &b)) return NULL;
  if (a->kind != TY_DOUBLE || b->kind != TY_DOUBLE) {
    diag_error(e->loc, "'%s' expects double%s, found %s%s%s", e->prim->name, e->nkids > 1 ? " operands" : "",
               type_to_string(a), e->nkids > 1 ? " and " : "", e->nkids > 1 ? type_to_string(b) : "");
    return NULL;
  }
  return a;
}

/* checkLength n m: two ints (an idx is one), the first returned */
Type *infer_check_length(InferCx *cx, Expr *e) {
  Type *a, *b;
  if (!infer_operands(cx, e, &a, &b)) return NULL;
  if ((a->kind != TY_INT && a->kind != TY_IDX) || (b->kind != TY_INT && b->kind != TY_IDX)) {
    diag_error(e->loc, "'checkLength' expects int operands, found %s and %s", type_to_string(a), type_to_string(b));
    return NULL;
  }
  return type_scalar(TY_INT);
}

/* bitand bitor bitxor bitnot shl lshr ashr: int or long scalars of one type
   (an idx is an int); not vectors, which CUDA's prelude gives no bitwise
   operators */
static TypeKind bits_kind(Type *t) { return t->kind == TY_IDX ? TY_INT : t->kind; }

Type *infer_bits(InferCx *cx, Expr *e) {
  Type *a, *b;
  if (!infer_operands(cx, e, &a, &b)) return NULL;
  TypeKind k = bits_kind(a);
  if ((k != TY_INT && k != TY_LONG) || bits_kind(b) != k) {
    diag_error(e->loc, "'%s' expects int or long operands of one type, found %s%s%s", e->prim->name, type_to_string(a),
               e->nkids > 1 ? " and " : "", e->nkids > 1 ? type_to_string(b) : "");
    return NULL;
  }
  return type_scalar(k);
}
