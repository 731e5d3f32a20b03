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

/* (f args…) as lx_app builds it: the arguments, or NULL */
static Expr **app_args(Expr *x, const char *f, int n) {
  bool is = x->kind == EX_APPLY && x->nkids == n + 1 && x->kids[0]->kind == EX_VAR && strcmp(x->kids[0]->name, f) == 0;
  return is ? x->kids + 1 : NULL;
}

/* A double literal with an integral value in 1..2^31-1 in magnitude. */
static bool int_literal(Expr *x, long long *v) {
  if (x->kind != EX_DOUBLE || !(fabs(x->fval) >= 1 && fabs(x->fval) < 2147483648.0) || x->fval != floor(x->fval)) return false;
  *v = (long long)x->fval;
  return true;
}

/* (i2d X) / d with d an int literal, |d| ≥ 2: X and d, else false */
static bool int_quotient(Expr *x, Expr **num, long long *d) {
  Expr **q = app_args(x, "/", 2), **i;
  if (!q || !(i = app_args(q[0], "i2d", 1)) || !int_literal(q[1], d) || *d == 1 || *d == -1) return false;
  *num = i[0];
  return true;
}

/* The floor (ceil) of the quotient n / d of ints of type `ty`, d a literal,
   |d| ≥ 2, in that type's truncating / and %:
   (let n' n (let q (/ n' d) (if (and (!= (% n' d) 0) (sign n' differs from d / is d's)) (-/+ q 1) q))) */
static Expr *int_round_div(LowerCtx *c, Loc l, bool up, Expr *n, long long d, bool lng) {
  const char *nv = lx_fresh(c, "n"), *qv = lx_fresh(c, "q");
  Expr *D = lng ? expr_new(EX_LONG, l, 0) : lx_int(d, l), *zero = lng ? expr_new(EX_LONG, l, 0) : lx_int(0, l);
  if (lng) { D->ival = d; zero->ival = 0; }
  /* floor: a non-zero remainder with n's sign opposite to d's; ceil: the same sign */
  bool toward_neg_n = (d > 0) != up;
  Expr *fix = expr_new(EX_IF, l, 3);
  fix->kids[0] = lx_app(l, "and", 2, lx_app(l, "!=", 2, lx_app(l, "%", 2, lx_var(nv, l), D), zero),
                        lx_app(l, toward_neg_n ? "<" : ">", 2, lx_var(nv, l), zero));
  Expr *one = lng ? expr_new(EX_LONG, l, 0) : lx_int(1, l);
  if (lng) one->ival = 1;
  fix->kids[1] = lx_app(l, up ? "+" : "-", 2, lx_var(qv, l), one);
  fix->kids[2] = lx_var(qv, l);
  return lx_let(l, nv, n, lx_let(l, qv, lx_app(l, "/", 2, lx_var(nv, l), D), fix));
}

/* floor, ceil: double -> int, (d2i (floor x)). APL's ⌊x÷d (⌈x÷d) of an int x
   and an integral literal d is the floor (ceiling) of an int quotient, done in
   ints: a double division costs more than the whole rest of an Easter date
   (docs/performance.md). Exact: x/d is at least 1/|x| ≥ 2^-31 (relative) away
   from any integer it is not equal to, so its rounding to double never crosses
   one; the result's magnitude is below 2^30, within d2i's range. k×x÷2^m with an
   integral k, |k| ≤ 2^21, is exact in doubles too (k·x has at most 52 bits), so
   its floor is that of the int quotient k·x / 2^m where k·x fits in an int
   (|x| ≤ 2^31/|k|, a test that GCC drops where it knows x's range); outside it
   the double form is kept, with d2i's error where the result leaves the ints. */
LVal *lower_round(LowerCtx *c, TExp *e, LVal **a) {
  Loc l = e->loc;
  bool up = strcmp(e->op->prim, "ceil") == 0;
  Expr *x = a[0]->e, *n, **m;
  long long d, k;
  if (int_quotient(x, &n, &d)) return lval_scalar(int_round_div(c, l, up, n, d, false), TB_INT);
  bool left = false;
  if ((m = app_args(x, "*", 2)) && (((left = int_literal(m[0], &k)) && int_quotient(m[1], &n, &d)) ||
                                    (int_literal(m[1], &k) && int_quotient(m[0], &n, &d))) &&
      d > 0 && (d & (d - 1)) == 0 && k >= -(1LL << 21) && k <= 1LL << 21) {
    const char *xv = lx_fresh(c, "x");
    long long fit = INT32_MAX / (k < 0 ? -k : k);
    Expr *prod = lx_app(l, "*", 2, lx_var(xv, l), lx_int(k, l));
    Expr *q = lx_app(l, "/", 2, lx_app(l, "i2d", 1, lx_var(xv, l)), lx_double((double)d, l));
    Expr *dbl = lx_app(l, "*", 2, left ? lx_double((double)k, l) : q, left ? q : lx_double((double)k, l));
    Expr *sel = expr_new(EX_IF, l, 3);
    sel->kids[0] = lx_app(l, "and", 2, lx_app(l, ">=", 2, lx_var(xv, l), lx_int(-fit, l)), lx_app(l, "<=", 2, lx_var(xv, l), lx_int(fit, l)));
    sel->kids[1] = int_round_div(c, l, up, prod, d, false);
    sel->kids[2] = lx_app(l, "d2i", 1, lx_app(l, e->op->prim, 1, dbl));
    return lval_scalar(lx_let(l, xv, n, sel), TB_INT);
  }
  return lval_scalar(lx_app(l, "d2i", 1, lx_app(l, e->op->prim, 1, x)), TB_INT);
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
