/* lower_ops.c — TAIL's array operations as clift primitives and views
   (docs/apl.md §3.2). Every extent is a nat; counts that fix an extent (drop's,
   iota's) must be static. `map^d f` is d nested maps (map_depth). */
#include "lower.h"
#include "../prim/special.h"   /* CLIFT_APL_INDEX_ERROR */
#include <string.h>

typedef Expr *(*RowFn)(LowerCtx *c, void *ctx, Expr *row, Loc loc);

/* f applied at depth d of a: (map (λr. … (map (λr'. f r') r) …) a) */
static Expr *map_depth(LowerCtx *c, int d, Expr *a, RowFn f, void *ctx, Loc loc) {
  if (d == 0) return f(c, ctx, a, loc);
  const char *r = lx_fresh(c, "r");
  return lx_app(loc, "map", 2, lx_lambda(loc, 1, &r, map_depth(c, d - 1, lx_var(r, loc), f, ctx, loc)), a);
}

static LVal *with_ext(LVal *v, LVal *from, int skip_last) {
  for (int i = 0; i < v->rank && i < from->rank - skip_last; i++) v->ext[i] = from->ext[i];
  return v;
}

static bool same_extents(TExp *e, LVal *a, LVal *b) {
  for (int i = 0; i < a->rank; i++)
    if (!nat_equal(a->ext[i], b->ext[i]))
      return diag_error(e->loc, "%s: the arguments' lengths differ on axis %d: %s and %s", e->op->name, i + 1,
                        nat_to_string(a->ext[i]), nat_to_string(b->ext[i]));
  return true;
}

/* ---- each, zipWith (scalar functions at every element) ---- */

static Expr *map_lambda(LowerCtx *c, void *lam, Expr *row, Loc loc) { (void)c; return lx_app(loc, "map", 2, (Expr *)lam, row); }

/* an element of x (a function's parameter), with the range of x's elements */
static LVal *elem_of(LVal *x) {
  LVal *v = lval_scalar(NULL, x->base);
  v->ranged = lower_range_of(x, &v->lo, &v->hi);
  if (!v->ranged) v->unranged_at = x->unranged_at;
  return v;
}

/* v with the range of f's result (each element of v is one) */
static LVal *range_from(LVal *v, LVal *f) {
  v->ranged = f->ranged; v->lo = f->lo; v->hi = f->hi; v->unranged_at = f->unranged_at;
  return v;
}

/* each(f, a) = map^r f a */
LVal *lower_each(LowerCtx *c, TExp *e, LVal **a) {
  LVal *x = a[1];
  LVal *elem = elem_of(x);
  if (x->rank == 0) return lower_apply(c, a[0], 1, &x, e->loc);
  LVal *f = lower_fn(c, a[0], 1, &elem, e->loc);
  if (!f) return NULL;
  LVal *v = with_ext(lval_new(map_depth(c, x->rank - 1, x->e, map_lambda, f->e, e->loc), f->base, x->rank), x, 0);
  v->rows_first = x->rows_first;   /* element-wise: as x is held */
  return range_from(v, f);
}

typedef struct ZipCtx { int rank; LVal *f; } ZipCtx;

/* (map (λt. f (get1 t) (get2 t)) (zip a b)) at the last level, rows of zips above */
static Expr *zip_level(LowerCtx *c, ZipCtx *z, int d, Expr *x, Expr *y, Loc loc) {
  const char *t = lx_fresh(c, "t");
  Expr *l = lx_app(loc, "get1", 1, lx_var(t, loc)), *r = lx_app(loc, "get2", 1, lx_var(t, loc));
  Expr *body;
  if (d < z->rank - 1) body = zip_level(c, z, d + 1, l, r, loc);
  else {
    body = expr_new(EX_APPLY, loc, 3);
    body->kids[0] = z->f->e; body->kids[1] = l; body->kids[2] = r;
  }
  return lx_app(loc, "map", 2, lx_lambda(loc, 1, &t, body), lx_app(loc, "zip", 2, x, y));
}

/* zipWith(f, a, b): equal extents (a "length" error at compile time, §3.1) */
LVal *lower_zipwith(LowerCtx *c, TExp *e, LVal **a) {
  LVal *x = a[1], *y = a[2];
  if (x->rank == 0) return lower_apply(c, a[0], 2, a + 1, e->loc);
  if (!same_extents(e, x, y)) return NULL;
  if (x->rows_first != y->rows_first) { x = lower_unfold(c, e, x); y = lower_unfold(c, e, y); }   /* else both as held */
  LVal *elems[2] = { elem_of(x), elem_of(y) };
  LVal *f = lower_fn(c, a[0], 2, elems, e->loc);
  if (!f) return NULL;
  ZipCtx z = { x->rank, f };
  LVal *v = with_ext(lval_new(zip_level(c, &z, 0, x->e, y->e, e->loc), f->base, x->rank), x, 0);
  v->rows_first = x->rows_first;
  return range_from(v, f);
}

/* ---- reduce along the last axis ---- */

typedef struct ReduceCtx { LVal *f, *init; bool assoc, private_row; long long m; } ReduceCtx;

/* Rows of at most this many elements that are themselves reductions are
   computed into private memory before they are reduced (reduce_row). */
enum { PRIVATE_ROW_MAX = 64 };

/* one row: (aref (reduce n f row) 0) for an associative f (APL's right fold
   equals the left one with an identity); else a right fold, sequential:
   (aref (reduceSeq n (λacc x. f x acc) (reversed row)) 0), seed 003 rule 3.37 */
static Expr *reduce_row(LowerCtx *c, void *ctx, Expr *row, Loc loc) {
  ReduceCtx *r = ctx;
  if (r->m == 0) return r->init->e;   /* an empty row: the identity (compiled targets refuse a reduce of [T]0) */
  if (r->private_row) {   /* (toPrivate (mapSeq (λx. x)) row): each element's reduction once, then the sum of them */
    const char *x = lx_fresh(c, "x");
    row = lx_app(loc, "toPrivate", 2, lx_app(loc, "mapSeq", 1, lx_lambda(loc, 1, &x, lx_var(x, loc))), row);
  }
  if (r->assoc) return lx_app(loc, "aref", 2, lx_app(loc, "reduce", 3, r->init->e, r->f->e, row), lx_int(0, loc));
  const char *acc = lx_fresh(c, "acc"), *x = lx_fresh(c, "x"), *i = lx_fresh(c, "i");
  Expr *call = expr_new(EX_APPLY, loc, 3);
  call->kids[0] = r->f->e; call->kids[1] = lx_var(x, loc); call->kids[2] = lx_var(acc, loc);
  const char *names[2] = { acc, x };
  Expr *rev = lx_app(loc, "map", 2,
                     lx_lambda(loc, 1, &i, lx_app(loc, "aref", 2, row, lx_app(loc, "-", 2, lx_int(r->m - 1, loc), lx_var(i, loc)))),
                     lx_app(loc, "iota", 1, lx_nat(r->m, loc)));
  return lx_app(loc, "aref", 2, lx_app(loc, "reduceSeq", 3, r->init->e, lx_lambda(loc, 2, names, call), rev), lx_int(0, loc));
}

LVal *lower_reduce(LowerCtx *c, TExp *e, LVal **a) {
  LVal *x = a[2];
  LVal *elems[2] = { lval_scalar(NULL, x->base), lval_scalar(NULL, x->base) };
  ReduceCtx r = { lower_fn(c, a[0], 2, elems, e->loc), a[1], false, false, lval_ext(x, x->rank - 1) };
  if (!r.f) return NULL;
  r.assoc = a[0]->fn->kind == TE_OP && a[0]->fn->op->assoc;
  if (r.m < 0 && !r.assoc) { lower_static_ext(e, x, x->rank - 1, &r.m); return NULL; }
  const char *name = a[0]->fn->kind == TE_OP ? a[0]->fn->op->name : "";
  bool foldable = !strcmp(name, "addi") || !strcmp(name, "muli") || !strcmp(name, "maxi") || !strcmp(name, "mini");
  if (x->rank == 1 && x->vals && r.init->known && foldable) {   /* a static vector (a shape): the value when compiling */
    long long k = r.init->k;
    for (long long i = 0; i < r.m; i++) {
      long long y = x->vals[i];
      k = name[0] == 'a' ? k + y : name[1] == 'u' ? k * y : name[1] == 'a' ? (k > y ? k : y) : (k < y ? k : y);
      if (k > INT32_MAX || k < INT32_MIN) { foldable = false; break; }
    }
    if (foldable) {
      LVal *v = lval_scalar(lx_int(k, e->loc), TB_INT);
      v->known = true; v->k = k;
      return v;
    }
  }
  /* a row of reductions (Sobol's (I≠.∧dirs ⍵)+.×2*-⍳D: 30 products a point):
     computed into private memory first, the row's reduction then reads it.
     Fused into the sum, GCC stopped vectorising the 30 products (the double
     sum is ordered: 1.85x slower on one core); in memory as a whole array,
     the GPU wrote and read 2.4 GB a coordinate (11.9 against 1.45 ms a
     product on an H100, bench/gpu/sobol_schedules.cu) */
  r.private_row = x->rank >= 2 && r.m > 0 && r.m <= PRIVATE_ROW_MAX && lower_reads_reductions(c, e->kids[2]);
  return with_ext(lval_new(map_depth(c, x->rank - 1, x->e, reduce_row, &r, e->loc), x->base, x->rank - 1), x, 1);
}

/* ---- cons, snoc, drop on the first axis ---- */

static LVal *pad(TExp *e, LVal *row, LVal *x, int before, int after) {
  for (int i = 1; i < x->rank; i++)
    if (!nat_equal(row->ext[i - 1], x->ext[i]))
      return diag_error(e->loc, "%s: the item's length %s differs from the array's %s on axis %d", e->op->name,
                        nat_to_string(row->ext[i - 1]), nat_to_string(x->ext[i]), i + 1), NULL;
  Expr *p = lx_app(e->loc, "padConstant", 4, lx_nat(before, e->loc), lx_nat(after, e->loc), row->e, x->e);
  LVal *v = with_ext(lval_new(p, x->base, x->rank), x, 0);
  v->ext[0] = nat_add(x->ext[0], nat_const(1));
  if (x->vals && row->known) {
    long long n = lval_ext(x, 0);
    v->vals = NEW_ARRAY(long long, n + 1);
    memcpy(v->vals + before, x->vals, sizeof(long long) * (size_t)n);
    v->vals[before ? 0 : n] = row->k;
  }
  return v;
}

LVal *lower_cons(LowerCtx *c, TExp *e, LVal **a) { (void)c; return pad(e, a[0], a[1], 1, 0); }
LVal *lower_snoc(LowerCtx *c, TExp *e, LVal **a) { (void)c; return pad(e, a[1], a[0], 0, 1); }

/* drop(m, a): (slice #s #len a); beyond the length it is empty (§2.3) */
LVal *lower_drop(LowerCtx *c, TExp *e, LVal **a) {
  (void)c;
  LVal *m = a[0], *x = a[1];
  if (!m->known) return diag_error(e->kids[0]->loc, "%s: the count must be known when compiling", e->op->name), NULL;
  long long n;
  if (!lower_static_ext(e, x, 0, &n)) return NULL;
  long long k = m->k < -n ? -n : m->k > n ? n : m->k;
  long long start = k > 0 ? k : 0, len = n - (k > 0 ? k : -k);
  Expr *s = lx_app(e->loc, "slice", 3, lx_nat(start, e->loc), lx_nat(len, e->loc), x->e);
  LVal *v = with_ext(lval_new(s, x->base, x->rank), x, 0);
  v->ext[0] = nat_const(len);
  if (x->vals) v->vals = x->vals + start;
  return v;
}

/* ---- rotate on the last axis: the aref form (§3.2; a concat view is §6) ---- */

typedef struct RotCtx { LVal *k; long long m; } RotCtx;

/* (let r row (map (λi. (aref r (% (+ i k') m))) (iota #m))), k' = k mod m ≥ 0 */
static Expr *rotate_row(LowerCtx *c, void *ctx, Expr *row, Loc loc) {
  RotCtx *r = ctx;
  if (r->m == 0) return row;
  const char *name = lx_fresh(c, "row"), *i = lx_fresh(c, "i");
  Expr *shift = r->k->known ? lx_int(((r->k->k % r->m) + r->m) % r->m, loc)
                            : lx_app(loc, "+", 2, lx_app(loc, "%", 2, r->k->e, lx_int(r->m, loc)), lx_int(r->m, loc));
  Expr *at = lx_app(loc, "%", 2, lx_app(loc, "+", 2, lx_var(i, loc), shift), lx_int(r->m, loc));
  Expr *gen = lx_app(loc, "map", 2, lx_lambda(loc, 1, &i, lx_app(loc, "aref", 2, lx_var(name, loc), at)),
                     lx_app(loc, "iota", 1, lx_nat(r->m, loc)));
  return lx_let(loc, name, row, gen);
}

LVal *lower_rotate(LowerCtx *c, TExp *e, LVal **a) {
  LVal *x = a[1];
  if (x->rank == 0) return x;
  RotCtx r = { a[0], 0 };
  if (!lower_static_ext(e, x, x->rank - 1, &r.m)) return NULL;
  return with_ext(lval_new(map_depth(c, x->rank - 1, x->e, rotate_row, &r, e->loc), x->base, x->rank), x, 0);
}

/* ---- static shape operations ---- */

enum { IOTA_MAX = 1 << 24 };   /* items of a run-time iota's storage (64 MB of ints) */

/* iota(n), n computed at run time with a range [lo, hi] (lower_range.c):
   (map (λi. i + 1) (iota (min n hi))), a run-time length of at most hi, which
   clift's checker reads off the min (types/infer_layout.c value_bound); a
   negative n is iota's run-time error at the ⍳ */
static LVal *iota_runtime(LowerCtx *c, TExp *e, LVal *n) {
  long long lo, hi;
  Loc l = e->loc;
  if (!lower_range_of(n, &lo, &hi)) {
    Loc at = n->unranged_at.file ? n->unranged_at : e->kids[0]->loc;
    return diag_error(e->kids[0]->loc, "not supported yet: %s of a count computed at run time whose size is not bounded "
                      "when compiling: no range is known for the value computed at %d:%d (docs/apl.md §5)",
                      e->op->name, at.line, at.col), NULL;
  }
  if (hi < 0) hi = 0;
  if (hi > IOTA_MAX)
    return diag_error(e->kids[0]->loc, "not supported yet: %s of a count computed at run time of up to %lld (at most %d)",
                      e->op->name, hi, IOTA_MAX), NULL;
  const char *i = lx_fresh(c, "i");
  Expr *g = lx_app(l, "map", 2, lx_lambda(l, 1, &i, lx_app(l, "+", 2, lx_var(i, l), lx_int(1, l))),
                   lx_app(l, "iota", 1, lx_app(l, "min", 2, n->e, lx_int(hi, l))));
  return lower_with_rows(c, e, g, lval_new(NULL, TB_INT, 1), nat_const(hi));
}

/* iota(n), n static: (map (λi. i + 1) (iota #n)), 1-based (rule 3.34) */
LVal *lower_iota(LowerCtx *c, TExp *e, LVal **a) {
  if (!a[0]->known) return iota_runtime(c, e, a[0]);
  long long n = a[0]->k;
  if (n < 0) return diag_error(e->kids[0]->loc, "%s: negative count %lld", e->op->name, n), NULL;
  const char *i = lx_fresh(c, "i");
  Expr *g = lx_app(e->loc, "map", 2, lx_lambda(e->loc, 1, &i, lx_app(e->loc, "+", 2, lx_var(i, e->loc), lx_int(1, e->loc))),
                   lx_app(e->loc, "iota", 1, lx_nat(n, e->loc)));
  LVal *v = lval_new(g, TB_INT, 1);
  v->ext[0] = nat_const(n);
  if (n <= LOWER_STATIC_MAX) {
    v->vals = NEW_ARRAY(long long, n);
    for (long long k = 0; k < n; k++) v->vals[k] = k + 1;
  }
  return v;
}

/* shape(a): the extents, static; with a run-time length, computed:
   (map (λi. if i = 0 then n₁ else …) (iota #r)) */
LVal *lower_shape(LowerCtx *c, TExp *e, LVal **a) {
  LVal *x = a[0];
  long long *vals = NEW_ARRAY(long long, x->rank);
  bool known = true;
  for (int i = 0; i < x->rank; i++) known &= nat_is_const(x->ext[i], &vals[i]);
  if (known) return lower_static_vector(c, x->rank, vals, e->loc);
  const char *i = lx_fresh(c, "i");
  Expr *body = NULL;
  for (int k = x->rank - 1; k >= 0; k--) {
    Expr *n = lower_extent_expr(c, x->ext[k], e->loc);
    if (!n) return NULL;
    if (!body) { body = n; continue; }
    Expr *sel = expr_new(EX_IF, e->loc, 3);
    sel->kids[0] = lx_app(e->loc, "=", 2, lx_var(i, e->loc), lx_int(k, e->loc));
    sel->kids[1] = n; sel->kids[2] = body;
    body = sel;
  }
  LVal *v = lval_new(lx_app(e->loc, "map", 2, lx_lambda(e->loc, 1, &i, body), lx_app(e->loc, "iota", 1, lx_nat(x->rank, e->loc))),
                     TB_INT, 1);
  v->ext[0] = nat_const(x->rank);
  /* the lengths: the static ones, and 0 to its bound for a run-time one
     (a count ≢R of a compress result R is at most what was compressed) */
  long long lo = 0, hi = 0, bottom, top;
  bool ranged = true;
  for (int a = 0; a < x->rank && ranged; a++) {
    LDyn *d = lower_dyn_of(c, x->ext[a]);
    if (d) { bottom = 0; ranged = nat_is_const(d->bound, &top); }
    else { ranged = nat_is_const(x->ext[a], &top); bottom = top; }
    if (a == 0 || bottom < lo) lo = bottom;
    if (a == 0 || top > hi) hi = top;
  }
  if (ranged && hi <= INT32_MAX) { v->ranged = true; v->lo = lo; v->hi = hi; }
  return v;
}

/* ---- residue (APL's |, a floor modulo): resi(x, y) = x|y ---- */

/* int: (let r (% y x) (if (and (!= r 0) (!= (< r 0) (< x 0))) (+ r x) r)), and
   y when x = 0 (APL); double: y - x×floor(y÷x), y when x = 0 */
LVal *lower_res(LowerCtx *c, TExp *e, LVal **a) {
  Loc l = e->loc;
  bool dbl = a[0]->base == TB_DOUBLE;
  if (!dbl && a[0]->known && a[1]->known) {
    long long x = a[0]->k, y = a[1]->k, r = x == 0 ? y : y % x;
    if (x != 0 && r != 0 && (r < 0) != (x < 0)) r += x;
    LVal *v = lval_scalar(lx_int(r, l), TB_INT);
    v->known = true; v->k = r;
    return v;
  }
  const char *x = lx_fresh(c, "x"), *y = lx_fresh(c, "y"), *r = lx_fresh(c, "r");
  Expr *X = lx_var(x, l), *Y = lx_var(y, l), *zero = dbl ? lx_double(0, l) : lx_int(0, l);
  Expr *mod;
  if (dbl) mod = lx_app(l, "-", 2, Y, lx_app(l, "*", 2, X, lx_app(l, "floor", 1, lx_app(l, "/", 2, lx_var(y, l), lx_var(x, l)))));
  else {
    Expr *R = lx_var(r, l);
    Expr *fix = expr_new(EX_IF, l, 3);
    fix->kids[0] = lx_app(l, "and", 2, lx_app(l, "!=", 2, R, lx_int(0, l)),
                          lx_app(l, "!=", 2, lx_app(l, "<", 2, lx_var(r, l), lx_int(0, l)), lx_app(l, "<", 2, lx_var(x, l), lx_int(0, l))));
    fix->kids[1] = lx_app(l, "+", 2, lx_var(r, l), lx_var(x, l));
    fix->kids[2] = lx_var(r, l);
    mod = lx_let(l, r, lx_app(l, "%", 2, lx_var(y, l), lx_var(x, l)), fix);
  }
  Expr *sel = expr_new(EX_IF, l, 3);
  sel->kids[0] = lx_app(l, "=", 2, lx_var(x, l), zero);
  sel->kids[1] = lx_var(y, l);
  sel->kids[2] = mod;
  return lval_scalar(lx_let(l, x, a[0]->e, lx_let(l, y, a[1]->e, sel)), a[0]->base);
}

/* prArr…/prScl… outside the top-level let chain (lower_let takes those) */
LVal *lower_print(LowerCtx *c, TExp *e, LVal **a) {
  (void)c; (void)a;
  return diag_error(e->loc, "not supported yet: %s (output) other than as a statement of the program", e->op->name), NULL;
}

/* ---- compress(b, a), rank 1: (map get1 (filter get2 (zip a b))); rank ≥ 2: lower_gather.c ---- */

/* The result's length is a run-time length (LDyn) named where it is let-bound. */
LVal *lower_compress(LowerCtx *c, TExp *e, LVal **a) {
  LVal *b = a[0], *x = a[1];
  if (b->vals && x->rank >= 1) return lower_compress_static(c, e, b, x);   /* a mask known when compiling: a gather */
  LDyn *of = x->rank >= 1 ? lower_dyn_of(c, x->ext[x->rank - 1]) : NULL;
  if (of && (x->rank != 1 || !of->name))
    return diag_error(e->loc, "not supported yet: compress of an array whose length is known only at run time"), NULL;
  if (x->rank == 1 && !same_extents(e, b, x)) return NULL;
  if (x->rank > 1 && lower_dyn_of(c, b->ext[0]))
    return diag_error(e->loc, "not supported yet: compress by a mask whose length is known only at run time (a compress "
                      "or replicate result)"), NULL;
  if (x->rank > 1 && !nat_equal(b->ext[0], x->ext[x->rank - 1]))
    return diag_error(e->loc, "length error: compress: a mask of length %s for an axis of length %s",
                      nat_to_string(b->ext[0]), nat_to_string(x->ext[x->rank - 1])), NULL;
  Loc l = e->loc;
  /* clift's filter on c/openmp runs its predicate twice (count, then write)
     and writes the mask with the kept items: a mask of reductions (primes'
     1=+⌿0=A∘.|A) is computed once, into memory, instead */
  Expr *mask = c->fn_depth == 0 && lower_reduces(e->kids[0]) ? lower_materialise(c, b->e, 1, l) : b->e;
  if (x->rank != 1) return lower_compress_rows(c, e, mask, x);
  const char *t = lx_fresh(c, "t"), *u = lx_fresh(c, "t");
  Expr *keep = lx_lambda(l, 1, &t, lx_app(l, "get2", 1, lx_var(t, l)));
  Expr *item = lx_lambda(l, 1, &u, lx_app(l, "get1", 1, lx_var(u, l)));
  Expr *f = lx_app(l, "map", 2, item, lx_app(l, "filter", 2, keep, lx_app(l, "zip", 2, x->e, mask)));
  LDyn *d = NEW(LDyn);
  Nat *bound = of ? of->bound : x->ext[0];   /* a compress result's: at most what it was compressed from */
  *d = (LDyn){ nat_var_new(arena_printf("(getLength %s)", "compress"), nat_const(0), bound), NULL, bound, c->dyns };
  c->dyns = d;
  LVal *v = lval_new(f, x->base, 1);
  v->ext[0] = nat_var(d->var);
  return v;
}

/* ---- reshape(δ, d, a), reshape0(δ, a): δ static ---- */

typedef struct RepCtx { Expr *a; int k; Nat **lead; } RepCtx;

/* ⍴a a suffix of δ (the replication of ∘. and f.g): map^k (λ_. a) over the
   leading extents, a view with no % (docs/apl.md §3.2) */
static Expr *replicate(LowerCtx *c, RepCtx *r, int d, Loc loc) {
  if (d == r->k) return r->a;
  const char *i = lx_fresh(c, "i");
  return lx_app(loc, "map", 2, lx_lambda(loc, 1, &i, replicate(c, r, d + 1, loc)), lx_app(loc, "iota", 1, lx_nat_of(c, r->lead[d], loc)));
}

/* Any other reshape: the source's elements in row-major order, cyclically
   (rule 3.39), then split into the new extents:
   (split #δₙ … (map (λi. aref (join … a) (% i #size)) (iota #m))), all fill
   (reshape's d, else 0) when a is empty. */
static LVal *reshape_general(LowerCtx *c, TExp *e, LVal *s, LVal *d, LVal *x, int n) {
  Loc l = e->loc;
  long long size = 1, m = 1;
  for (int i = 0; i < x->rank; i++) {
    long long k;
    if (!lower_static_ext(e, x, i, &k)) return NULL;
    if (__builtin_mul_overflow(size, k, &size) || size > INT32_MAX)
      return diag_error(l, "reshape: the argument's elements do not fit in an int"), NULL;
  }
  /* checked at every factor: the product of large extents overflows a long long
     (fuzz finding of the soak of f4ae0e0, tests/apl/err_reshape_huge.apl) */
  for (int i = 0; i < n; i++)
    if (__builtin_mul_overflow(m, s->vals[i], &m) || m > INT32_MAX)
      return diag_error(l, "reshape: the result's elements do not fit in an int"), NULL;
  LVal *r = lval_new(NULL, x->base, n);
  for (int k = 0; k < n; k++) r->ext[k] = nat_const(s->vals[k]);
  if (m == 0) {   /* an extent 0 (past the first, split #0 would be asked for): maps of the fill over the extents */
    r->e = e->op->arity == 3 ? d->e : lower_fill(x->base, l)->e;
    for (int k = n - 1; k >= 0; k--) {
      const char *j = lx_fresh(c, "i");
      r->e = lx_app(l, "map", 2, lx_lambda(l, 1, &j, r->e), lx_app(l, "iota", 1, lx_nat(s->vals[k], l)));
    }
    return r;
  }
  Expr *flat = x->e;
  for (int i = 1; i < x->rank; i++) flat = lx_app(l, "join", 1, flat);
  const char *i = lx_fresh(c, "i"), *src = lx_fresh(c, "src");
  Expr *item;
  if (x->rank == 0) item = lx_var(src, l);
  else if (size == 0) item = e->op->arity == 3 ? d->e : lower_fill(x->base, l)->e;
  else item = lx_app(l, "aref", 2, lx_var(src, l), size == m ? lx_var(i, l) : lx_app(l, "%", 2, lx_var(i, l), lx_int(size, l)));
  /* the shape [] (rank 0): the first element itself, not a vector of one
     (fuzz finding of the soak of a30b792: reshape0([],iota(6)) crashed every
     operation on it, tests/tail/reshape_rank0.tail) */
  Expr *v = n == 0 ? lx_let(l, src, flat, lx_let(l, i, lx_int(0, l), item))
                   : lx_let(l, src, flat, lx_app(l, "map", 2, lx_lambda(l, 1, &i, item), lx_app(l, "iota", 1, lx_nat(m, l))));
  for (int k = n - 1; k >= 1; k--) v = lx_app(l, "split", 2, lx_nat(s->vals[k], l), v);
  r->e = v;
  return r;
}

LVal *lower_reshape(LowerCtx *c, TExp *e, LVal **a) {
  LVal *s = a[0], *x = a[e->op->arity - 1];
  int n = (int)lval_ext(s, 0);
  if (!s->vals || n < 0) return diag_error(e->kids[0]->loc, "reshape: the shape must be known when compiling"), NULL;
  for (int i = 0; i < n; i++)
    if (s->vals[i] < 0) return diag_error(e->kids[0]->loc, "reshape: a negative extent %lld", s->vals[i]), NULL;
  int k = n - x->rank;
  bool suffix = k >= 0;
  for (int i = 0; suffix && i < x->rank; i++) suffix = nat_equal(x->ext[i], nat_const(s->vals[k + i]));
  if (!suffix) return reshape_general(c, e, s, a[0 + (e->op->arity == 3)], x, n);
  /* a computed array replicated along new axes (an operand of an outer or
     inner product written inline, sobol's 2*D-⍳B) is computed once, not once
     per copy, when its elements are costly (as lower_let does for a named one) */
  const char *rows = NULL;
  if (k > 0 && x->rank > 0 && c->fn_depth == 0 && x->e->kind != EX_VAR && !lower_dyn_of(c, x->ext[0]) &&
      lower_costly(e->kids[e->op->arity - 1]))
    rows = lx_fresh(c, "rows");
  RepCtx r = { rows ? lx_var(rows, e->loc) : x->e, k, NEW_ARRAY(Nat *, k) };
  for (int i = 0; i < k; i++) r.lead[i] = nat_const(s->vals[i]);
  Expr *rep = replicate(c, &r, 0, e->loc);
  if (rows) rep = lx_let(e->loc, rows, lower_materialise(c, x->e, x->rank, e->loc), rep);
  LVal *v = lval_new(rep, x->base, n);
  for (int i = 0; i < n; i++) v->ext[i] = i < k ? r.lead[i] : x->ext[i - k];
  if (n == 1 && x->rank == 0 && x->known && s->vals[0] <= LOWER_STATIC_MAX) {   /* n⍴k: a static vector (APL's 3/v) */
    v->vals = NEW_ARRAY(long long, s->vals[0] > 0 ? s->vals[0] : 1);
    for (long long i = 0; i < s->vals[0]; i++) v->vals[i] = x->k;
  }
  return v;
}

/* ---- transp2(p, a): axis i of a becomes axis p[i] (APL), static p ---- */

static Expr *transpose_row(LowerCtx *c, void *ctx, Expr *row, Loc loc) { (void)c; (void)ctx; return lx_app(loc, "transpose", 1, row); }

/* p sorted by adjacent swaps; swapping axes d, d+1 is map^d transpose (views) */
/* Is p (transp2's axes, 1-based) [r, 1, …, r-1], the first axis last (back:
   [2, …, r, 1], the last axis first)? */
static bool is_move(const long long *p, int r, bool back) {
  if (r < 2) return false;
  for (int i = 0; i < r; i++)
    if (p[i] != (back ? (i == r - 1 ? 1 : i + 2) : (i == 0 ? r : i))) return false;
  return true;
}

/* A run-time length on the first axis moved last, or on the last axis moved
   first (a ⌿ or / result, its ⍉): the same clift value, rows_first toggled,
   only the extents move. In clift a transposed existential would be packed
   as {∃X.[[T]X]M} where it is bound, which SPEC §3.4 does not allow. */
static LVal *transp2_flag(LVal *x, const long long *p, bool rows_first) {
  LVal *res = lval_new(x->e, x->base, x->rank);
  for (int i = 0; i < x->rank; i++) res->ext[p[i] - 1] = x->ext[i];
  res->rows_first = rows_first;
  return res;
}

/* x's axes permuted by p as transposing views: the axis at d goes to p[d]-1 */
static LVal *transpose_views(LowerCtx *c, TExp *e, LVal *x, const long long *p) {
  int r = x->rank;
  int *target = NEW_ARRAY(int, r);   /* target[d]: where the axis now at d goes */
  Nat **ext = NEW_ARRAY(Nat *, r);
  for (int i = 0; i < r; i++) { target[i] = (int)p[i] - 1; ext[i] = x->ext[i]; }
  Expr *v = x->e;
  for (bool swapped = true; swapped;) {
    swapped = false;
    for (int d = 0; d + 1 < r; d++) {
      if (target[d] <= target[d + 1]) continue;
      v = map_depth(c, d, v, transpose_row, NULL, e->loc);
      int t = target[d]; target[d] = target[d + 1]; target[d + 1] = t;
      Nat *n = ext[d]; ext[d] = ext[d + 1]; ext[d + 1] = n;
      swapped = true;
    }
  }
  LVal *res = lval_new(v, x->base, r);
  for (int i = 0; i < r; i++) res->ext[i] = ext[i];
  return res;
}

LVal *lower_unfold(LowerCtx *c, TExp *e, LVal *v) {
  if (!v || v->fn || !v->rows_first) return v;
  int r = v->rank;
  LVal held = *v;   /* v as e holds it: the last axis first */
  held.rows_first = false;
  held.ext = NEW_ARRAY(Nat *, r);
  long long *p = NEW_ARRAY(long long, r);
  for (int i = 0; i < r; i++) { held.ext[i] = v->ext[i == 0 ? r - 1 : i - 1]; p[i] = i == 0 ? r : i; }
  LVal *u = transpose_views(c, e, &held, p);
  u->ranged = v->ranged; u->lo = v->lo; u->hi = v->hi; u->unranged_at = v->unranged_at;
  return u;
}

LVal *lower_hold(LowerCtx *c, TExp *e, LVal *v) {
  if (!v || v->fn || v->rows_first || v->rank < 2 || !lower_dyn_of(c, v->ext[v->rank - 1])) return v;
  int r = v->rank;
  for (int i = 0; i < r - 1; i++) if (lower_dyn_of(c, v->ext[i])) return v;
  long long *p = NEW_ARRAY(long long, r);   /* axis d to d+1, the last to the first (1-based) */
  for (int i = 0; i < r; i++) p[i] = i == r - 1 ? 1 : i + 2;
  LVal *u = transpose_views(c, e, v, p);
  u->ext = v->ext;   /* TAIL's order, e with the last axis first */
  u->rows_first = true;
  u->ranged = v->ranged; u->lo = v->lo; u->hi = v->hi; u->unranged_at = v->unranged_at;
  u->reduces = v->reduces;
  return u;
}

LVal *lower_transp2(LowerCtx *c, TExp *e, LVal **a) {
  LVal *p = a[0], *x = a[1];
  int r = x->rank;
  if (!p->vals) return diag_error(e->kids[0]->loc, "transp2: the axes must be known when compiling"), NULL;
  if (x->rows_first && is_move(p->vals, r, true)) return transp2_flag(x, p->vals, false);
  if (!x->rows_first && is_move(p->vals, r, false) && lower_dyn_of(c, x->ext[0])) return transp2_flag(x, p->vals, true);
  return transpose_views(c, e, lower_unfold(c, e, x), p->vals);
}

/* transp(a): the axes reversed, transp2([r, …, 1], a) */
LVal *lower_transp(LowerCtx *c, TExp *e, LVal **a) {
  LVal *x = a[0], p = { 0 };
  if (x->rank <= 1) return x;
  p.rank = 1;
  p.vals = NEW_ARRAY(long long, x->rank);
  for (int i = 0; i < x->rank; i++) p.vals[i] = x->rank - i;
  LVal *args[2] = { &p, x };
  return lower_transp2(c, e, args);
}

/* first(d, a), firstV(a): the first item, or d when a is empty (rule 3.46) */
LVal *lower_first(LowerCtx *c, TExp *e, LVal **a) {
  (void)c;
  LVal *d = e->op->arity == 2 ? a[0] : NULL, *x = a[e->op->arity - 1];
  long long n = 1;
  if (x->rank && !lower_static_ext(e, x, 0, &n)) return NULL;
  if (x->rank > 1) return diag_error(e->loc, "not supported yet: %s of an array of rank %d", e->op->name, x->rank), NULL;
  if (n == 0) {
    if (!d) return diag_error(e->loc, "%s of an empty vector", e->op->name), NULL;
    return d;
  }
  if (x->rank == 0) return x;
  LVal *v = lval_scalar(lx_app(e->loc, "aref", 2, x->e, lx_int(0, e->loc)), x->base);
  if (x->vals) { v->known = true; v->k = x->vals[0]; v->e = lx_known(x->base, v->k, e->loc); }
  return v;
}

/* ---- M4: first-axis forms, take with fill, cat, index, power ---- */

/* the fill d replicated into a row of x (the extents after the first):
   map^(r-1) (λ_. d) over iota of each, a view */
static Expr *fill_row(LowerCtx *c, LVal *d, LVal *x, Loc loc) {
  RepCtx r = { d->e, x->rank - 1, x->ext + 1 };
  return replicate(c, &r, 0, loc);
}

/* take(m, d, a) on the first axis, m static: a slice when |m| ≤ n, else
   padConstant with rows of d at the end (m > 0) or in front (m < 0) */
LVal *lower_take(LowerCtx *c, TExp *e, LVal **a) {
  LVal *m = a[0], *x = a[e->op->arity - 1];
  LVal *d = e->op->arity == 3 ? a[1] : lower_fill(x->base, e->loc);   /* takeV: the base type's fill */
  if (!m->known) return diag_error(e->kids[0]->loc, "%s: the count must be known when compiling", e->op->name), NULL;
  if (x->rank == 0) return diag_error(e->loc, "not supported yet: %s of a scalar", e->op->name), NULL;
  long long n;
  if (!lower_static_ext(e, x, 0, &n)) return NULL;
  long long k = m->k < 0 ? -m->k : m->k;
  if (k > INT32_MAX) return diag_error(e->kids[0]->loc, "%s: the count %lld does not fit in an int", e->op->name, m->k), NULL;
  Loc l = e->loc;
  Expr *r;
  if (k <= n) r = lx_app(l, "slice", 3, lx_nat(m->k >= 0 ? 0 : n - k, l), lx_nat(k, l), x->e);
  else r = lx_app(l, "padConstant", 4, lx_nat(m->k >= 0 ? 0 : k - n, l), lx_nat(m->k >= 0 ? k - n : 0, l), fill_row(c, d, x, l), x->e);
  LVal *v = with_ext(lval_new(r, x->base, x->rank), x, 0);
  v->ext[0] = nat_const(k);
  if (x->vals && (k <= n || d->known) && k <= LOWER_STATIC_MAX) {
    v->vals = NEW_ARRAY(long long, k);
    for (long long i = 0; i < k; i++) {
      long long j = m->k >= 0 ? i : n - k + i;
      v->vals[i] = j >= 0 && j < n ? x->vals[j] : d->k;
    }
  }
  return v;
}

/* vrotate(k, a): rotate on the first axis (APL's ⊖), the aref form of rotate's rows */
LVal *lower_vrotate(LowerCtx *c, TExp *e, LVal **a) {
  LVal *x = a[1];
  if (x->rank == 0) return x;
  RotCtx r = { a[0], 0 };
  if (!lower_static_ext(e, x, 0, &r.m)) return NULL;
  return with_ext(lval_new(rotate_row(c, &r, x->e, e->loc), x->base, x->rank), x, 0);
}

/* (let r row (map (λi. aref r (m-1-i)) (iota #m))) */
static Expr *reverse_row(LowerCtx *c, void *ctx, Expr *row, Loc loc) {
  long long m = *(long long *)ctx;
  if (m == 0) return row;
  const char *name = lx_fresh(c, "row"), *i = lx_fresh(c, "i");
  Expr *at = lx_app(loc, "-", 2, lx_int(m - 1, loc), lx_var(i, loc));
  return lx_let(loc, name, row, lx_app(loc, "map", 2, lx_lambda(loc, 1, &i, lx_app(loc, "aref", 2, lx_var(name, loc), at)),
                                        lx_app(loc, "iota", 1, lx_nat(m, loc))));
}

/* reverse (last axis, ⌽), vreverse (first axis, ⊖) */
LVal *lower_reverse(LowerCtx *c, TExp *e, LVal **a) {
  LVal *x = a[0];
  if (x->rank == 0) return x;
  bool first = strcmp(e->op->name, "vreverse") == 0;
  int axis = first ? 0 : x->rank - 1;
  long long m;
  if (!lower_static_ext(e, x, axis, &m)) return NULL;
  Expr *r = first ? reverse_row(c, &m, x->e, e->loc) : map_depth(c, x->rank - 1, x->e, reverse_row, &m, e->loc);
  LVal *v = with_ext(lval_new(r, x->base, x->rank), x, 0);
  if (x->vals) {
    v->vals = NEW_ARRAY(long long, m);
    for (long long i = 0; i < m; i++) v->vals[i] = x->vals[m - 1 - i];
  }
  return v;
}

typedef struct CatCtx { int rank; long long n, m; } CatCtx;

/* the last level: (map (λi. if i < n then A[i] else B[i-n]) (iota #(n+m)));
   above it, rows of a zip */
static Expr *cat_level(LowerCtx *c, CatCtx *k, int d, Expr *x, Expr *y, Loc loc) {
  if (d < k->rank - 1) {
    const char *t = lx_fresh(c, "t");
    Expr *body = cat_level(c, k, d + 1, lx_app(loc, "get1", 1, lx_var(t, loc)), lx_app(loc, "get2", 1, lx_var(t, loc)), loc);
    return lx_app(loc, "map", 2, lx_lambda(loc, 1, &t, body), lx_app(loc, "zip", 2, x, y));
  }
  const char *a = lx_fresh(c, "a"), *b = lx_fresh(c, "b"), *i = lx_fresh(c, "i");
  Expr *sel = expr_new(EX_IF, loc, 3);
  sel->kids[0] = lx_app(loc, "<", 2, lx_var(i, loc), lx_int(k->n, loc));
  sel->kids[1] = lx_app(loc, "aref", 2, lx_var(a, loc), lx_var(i, loc));
  sel->kids[2] = lx_app(loc, "aref", 2, lx_var(b, loc), lx_app(loc, "-", 2, lx_var(i, loc), lx_int(k->n, loc)));
  Expr *gen = lx_app(loc, "map", 2, lx_lambda(loc, 1, &i, sel), lx_app(loc, "iota", 1, lx_nat(k->n + k->m, loc)));
  return lx_let(loc, a, x, lx_let(loc, b, y, gen));
}

/* cat(a, b), catV: the last axis; the other extents must agree */
LVal *lower_cat(LowerCtx *c, TExp *e, LVal **a) {
  LVal *x = a[0], *y = a[1];
  int r = x->rank;
  for (int i = 0; i + 1 < r; i++)
    if (!nat_equal(x->ext[i], y->ext[i]))
      return diag_error(e->loc, "%s: the arguments' lengths differ on axis %d: %s and %s", e->op->name, i + 1,
                        nat_to_string(x->ext[i]), nat_to_string(y->ext[i])), NULL;
  CatCtx k = { r, 0, 0 };
  if (!lower_static_ext(e, x, r - 1, &k.n) || !lower_static_ext(e, y, r - 1, &k.m)) return NULL;
  LVal *v = with_ext(lval_new(cat_level(c, &k, 0, x->e, y->e, e->loc), x->base, r), x, 0);
  v->ext[r - 1] = nat_const(k.n + k.m);
  if (r == 1 && x->vals && y->vals) {
    v->vals = NEW_ARRAY(long long, k.n + k.m);
    memcpy(v->vals, x->vals, sizeof(long long) * (size_t)k.n);
    memcpy(v->vals + k.n, y->vals, sizeof(long long) * (size_t)k.m);
  }
  return v;
}

/* index(i, a): the item i (1-based) on the first axis: (aref a (- i 1)); the
   run-time check of aref reports an index out of range at i's position. A
   constant i out of range for every length a may have (a compress result of at
   most n items) is the same index error here, as clift refuses such an aref. */
LVal *lower_index(LowerCtx *c, TExp *e, LVal **a) {
  (void)c;
  LVal *i = a[0], *x = a[1];
  long long n = lval_ext(x, 0);
  if (i->known && (i->k < 1 || nat_proves_le(x->ext[0], nat_const(i->k - 1)))) {
    if (n >= 0) return diag_error(e->kids[0]->loc, CLIFT_APL_INDEX_ERROR, i->k, n), NULL;
    Nat *hi = nat_max_of(x->ext[0]);
    return diag_error(e->kids[0]->loc, "index error: %lld is not an index of an array of length %s (⎕IO = 1)", i->k,
                      hi ? arena_printf("at most %s", nat_to_string(hi)) : "known only at run time"), NULL;
  }
  Expr *at = i->known ? lx_int(i->k - 1, e->loc) : lx_app(e->loc, "-", 2, i->e, lx_int(1, e->loc));
  Expr *aref = lx_app(e->kids[0]->loc, "aref", 2, x->e, at);   /* an error at i, as a constant i's */
  aref->apl_index = true;   /* an index out of range at run time is APL's index error, i as written */
  LVal *v = lval_new(aref, x->base, x->rank - 1);
  for (int k = 1; k < x->rank; k++) v->ext[k - 1] = x->ext[k];
  if (i->known && x->vals) { v->known = true; v->k = x->vals[i->k - 1]; v->e = lx_known(x->base, v->k, e->loc); }
  return v;
}

/* power(f, n, a): (iterate #n f a), or (iterate n f a) for a count computed at
   run time; f lowered at a's extents must give them back (clift's iterate keeps
   the type): else "must keep its argument's shape" at the operation (APL's ⍣).
   A scalar a is iterated as an array of one: (aref (iterate n (λv. (map f v))
   [a]) 0) (clift's iterate needs an array). */
LVal *lower_power(LowerCtx *c, TExp *e, LVal **a) {
  LVal *n = a[1], *x = a[2];
  if (n->known && n->k < 0)
    return diag_error(e->kids[1]->loc, "not supported yet: power with a negative count %lld (APL's inverse, f⍣¯1)", n->k), NULL;
  for (int i = 0; i < x->rank; i++)
    if (lower_dyn_of(c, x->ext[i]))
      return diag_error(e->loc, "not supported yet: power of an array whose length is known only at run time"), NULL;
  /* the parameter is every iterate, not x: x's range would bound a
     replicate of later iterates wrongly (lower_range.c) */
  LVal *param = NEW(LVal);
  *param = *x;
  param->ranged = false; param->vals = NULL; param->known = false;
  param->unranged_at = e->loc;
  LVal *f = lower_fn(c, a[0], 1, &param, e->loc);
  if (!f) return NULL;
  if (f->rank != x->rank || f->base != x->base)
    return diag_error(e->loc, "power: the function must keep its argument's shape and type: [%s]%d becomes [%s]%d",
                      tbase_name(x->base), x->rank, tbase_name(f->base), f->rank), NULL;
  for (int i = 0; i < x->rank; i++)
    if (!nat_equal(f->ext[i], x->ext[i]))
      return diag_error(e->loc, "power: the function must keep its argument's shape: the length %s of axis %d becomes %s",
                        nat_to_string(x->ext[i]), i + 1, nat_to_string(f->ext[i])), NULL;
  Expr *count = n->known ? lx_nat(n->k, e->loc) : n->e;
  if (x->rank == 0) {
    Loc l = e->loc;
    const char *j = lx_fresh(c, "j"), *v = lx_fresh(c, "v");
    Expr *one = lx_app(l, "map", 2, lx_lambda(l, 1, &j, x->e), lx_app(l, "iota", 1, lx_nat(1, l)));
    Expr *step = lx_lambda(l, 1, &v, lx_app(l, "map", 2, f->e, lx_var(v, l)));
    return lval_new(lx_app(l, "aref", 2, lx_app(l, "iterate", 3, count, step, one), lx_int(0, l)), x->base, 0);
  }
  return with_ext(lval_new(lx_app(e->loc, "iterate", 3, count, f->e, x->e), x->base, x->rank), x, 0);
}
