/* lower_scalar.c — TAIL's scalar operations as clift scalar primitives
   (docs/apl.md §3.2, first rows). The primitive's name is the table's `prim`
   (ops.c); int results of static operands are folded, so counts such as
   drop(addi(1,1), …) stay static. */
#include "lower.h"
#include <math.h>
#include <string.h>

/* The base type of op's result: the end of its (ground) scheme. */
static TBase result_base(const TOp *op) {
  TType *t = tail_op_scheme(op, false);
  if (!t) return TB_INT;
  while (t->kind == TT_FUN) t = t->res;
  return t->base;
}

static LVal *scalar(TExp *e, Expr *x) { return lval_scalar(x, result_base(e->op)); }

/* static folding of int arithmetic on known operands */
static bool fold(const char *prim, long long a, long long b, long long *r) {
  static const char *const folded[] = { "+", "-", "*", "min", "max" };
  int k = -1;
  for (int i = 0; i < 5; i++) if (strcmp(prim, folded[i]) == 0) k = i;
  switch (k) {
  case 0: *r = a + b; break;
  case 1: *r = a - b; break;
  case 2: *r = a * b; break;
  case 3: *r = a < b ? a : b; break;
  case 4: *r = a > b ? a : b; break;
  default: return false;
  }
  return *r >= INT32_MIN && *r <= INT32_MAX;
}

LVal *lower_binop(LowerCtx *c, TExp *e, LVal **a) {
  (void)c;
  LVal *v = scalar(e, lx_app(e->loc, e->op->prim, 2, a[0]->e, a[1]->e));
  long long r;
  if (a[0]->known && a[1]->known && v->base == TB_INT && fold(e->op->prim, a[0]->k, a[1]->k, &r)) {
    v->known = true; v->k = r;
    v->e = lx_int(r, e->loc);
  }
  return v;
}

LVal *lower_unop(LowerCtx *c, TExp *e, LVal **a) {
  (void)c;
  return scalar(e, lx_app(e->loc, e->op->prim, 1, a[0]->e));
}

/* negi, negd: 0 - x */
LVal *lower_neg(LowerCtx *c, TExp *e, LVal **a) {
  (void)c;
  bool dbl = a[0]->base == TB_DOUBLE;
  LVal *v = scalar(e, lx_app(e->loc, "-", 2, dbl ? lx_double(0, e->loc) : lx_int(0, e->loc), a[0]->e));
  if (a[0]->known && !dbl && a[0]->k != INT32_MIN) { v->known = true; v->k = -a[0]->k; v->e = lx_int(v->k, e->loc); }
  return v;
}

/* b2i: (if b 1 0) */
LVal *lower_b2i(LowerCtx *c, TExp *e, LVal **a) {
  (void)c;
  Expr *x = expr_new(EX_IF, e->loc, 3);
  x->kids[0] = a[0]->e; x->kids[1] = lx_int(1, e->loc); x->kids[2] = lx_int(0, e->loc);
  LVal *v = lval_scalar(x, TB_INT);
  if (a[0]->known) { v->known = true; v->k = a[0]->k; v->e = lx_int(v->k, e->loc); }
  return v;
}

/* floor, ceil: double -> int */
LVal *lower_round(LowerCtx *c, TExp *e, LVal **a) {
  (void)c;
  return lval_scalar(lx_app(e->loc, "d2i", 1, lx_app(e->loc, e->op->prim, 1, a[0]->e)), TB_INT);
}

LVal *lower_i2d(LowerCtx *c, TExp *e, LVal **a) {
  (void)c;
  if (a[0]->known) return lval_scalar(lx_double((double)a[0]->k, e->loc), TB_DOUBLE);
  return lval_scalar(lx_app(e->loc, "i2d", 1, a[0]->e), TB_DOUBLE);
}

LVal *lower_pi(LowerCtx *c, TExp *e, LVal **a) {
  (void)c; (void)a;
  return lval_scalar(lx_double(M_PI, e->loc), TB_DOUBLE);
}

/* signi, signd: (if (> x 0) 1 (if (< x 0) -1 0)), an int */
LVal *lower_sign(LowerCtx *c, TExp *e, LVal **a) {
  Loc l = e->loc;
  bool dbl = a[0]->base == TB_DOUBLE;
  if (a[0]->known && !dbl) {
    LVal *v = lval_scalar(lx_int(a[0]->k > 0 ? 1 : a[0]->k < 0 ? -1 : 0, l), TB_INT);
    v->known = true; v->k = a[0]->k > 0 ? 1 : a[0]->k < 0 ? -1 : 0;
    return v;
  }
  const char *x = lx_fresh(c, "x");
  Expr *zero = dbl ? lx_double(0, l) : lx_int(0, l);
  Expr *neg = expr_new(EX_IF, l, 3), *sel = expr_new(EX_IF, l, 3);
  neg->kids[0] = lx_app(l, "<", 2, lx_var(x, l), zero);
  neg->kids[1] = lx_int(-1, l); neg->kids[2] = lx_int(0, l);
  sel->kids[0] = lx_app(l, ">", 2, lx_var(x, l), dbl ? lx_double(0, l) : lx_int(0, l));
  sel->kids[1] = lx_int(1, l); sel->kids[2] = neg;
  return lval_scalar(lx_let(l, x, a[0]->e, sel), TB_INT);
}

/* nandb, norb: (not (and x y)), (not (or x y)); the row's prim is the inner op */
LVal *lower_notbin(LowerCtx *c, TExp *e, LVal **a) {
  (void)c;
  return lval_scalar(lx_app(e->loc, "not", 1, lx_app(e->loc, e->op->prim, 2, a[0]->e, a[1]->e)), TB_BOOL);
}
