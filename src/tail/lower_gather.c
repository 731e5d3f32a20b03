/* lower_gather.c — TAIL's scan, and replicate, expand and compress with
   counts or a mask known when compiling, all on the last axis (docs/apl.md
   §3.2). A static selection is a gather: item j of each row is the row's item
   idx[j], or the fill where idx[j] < 0; idx is a hidden input. Computed at
   run time: expand; replicate of a vector; replicate and compress along the
   last axis of an array of rank ≥ 2 (APL's / and, under transp2, ⌿), held
   with that axis first. */
#include "lower.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef Expr *(*RowFn)(LowerCtx *c, void *ctx, Expr *row, Loc loc);

/* f applied at depth d of a (as lower_ops.c's map_depth) */
static Expr *rows(LowerCtx *c, int d, Expr *a, RowFn f, void *ctx, Loc loc) {
  if (d == 0) return f(c, ctx, a, loc);
  const char *r = lx_fresh(c, "r");
  return lx_app(loc, "map", 2, lx_lambda(loc, 1, &r, rows(c, d - 1, lx_var(r, loc), f, ctx, loc)), a);
}

static Expr *call2(LVal *f, Expr *x, Expr *y, Loc loc) {
  Expr *e = expr_new(EX_APPLY, loc, 3);
  e->kids[0] = f->e; e->kids[1] = x; e->kids[2] = y;
  return e;
}

LVal *lower_fill(TBase base, Loc loc) {
  long long k = base == TB_CHAR ? ' ' : 0;
  LVal *v = lval_scalar(base == TB_DOUBLE ? lx_double(0, loc) : lx_known(base, k, loc), base);
  v->known = base != TB_DOUBLE;
  v->k = k;
  return v;
}

/* ---- scan(f, a): APL's f\, item i of a row is f/ of its first i+1 items ---- */

/* The identity of an associative scalar op, as the scan's init (clift's scan
   is inclusive from init) */
static Expr *identity(const char *op, Loc loc) {
  static const struct { const char *op; int k; } ids[] = {
    { "addi", 0 }, { "muli", 1 }, { "mini", 2 }, { "maxi", -2 }, { "addd", 0 }, { "muld", 1 }, { "mind", 2 },
    { "maxd", -2 }, { "andb", 1 }, { "orb", 0 }, { "xorb", 0 }, { "eqb", 1 }, { "andi", -1 }, { "ori", 0 }, { "xori", 0 },
  };
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    if (strcmp(ids[i].op, op) != 0) continue;
    int k = ids[i].k;
    char t = op[strlen(op) - 1];
    if (t == 'b') return lx_bool(k == 1, loc);
    if (t == 'i') return lx_int(k == 2 ? INT32_MAX : k == -2 ? INT32_MIN : k, loc);
    if (k == 2 || k == -2) return lx_app(loc, "/", 2, lx_double(k / 2, loc), lx_double(0, loc));   /* ±inf */
    return lx_double(k, loc);
  }
  return NULL;
}

typedef struct ScanCtx { LVal *f; const char *op; long long m; TBase base; } ScanCtx;

static Expr *if_exp(Loc loc, Expr *cond, Expr *then_, Expr *else_) {
  Expr *e = expr_new(EX_IF, loc, 3);
  e->kids[0] = cond; e->kids[1] = then_; e->kids[2] = else_;
  return e;
}

/* An associative op: (scan id f row). Any other function (APL's right
   fold of each prefix): item i = x₀ f (x₁ f (… f xᵢ)), computed as
   (aref (reduceSeq 0 (λacc j. let v = row[max 0 (i-j)] in
                               if j == 0 then v else if j <= i then v f acc else acc) (iota #m)) 0),
   quadratic. The row is read at one place only: where it is itself such a scan
   (a lazy map), its element is computed there, so nested scans make code linear
   in the nesting (fuzz F6: two reads doubled the code at each level). */
static Expr *scan_row(LowerCtx *c, void *ctx, Expr *row, Loc loc) {
  ScanCtx *s = ctx;
  Expr *id = s->op ? identity(s->op, loc) : NULL;
  if (s->m == 0 || s->m == 1) return row;
  if (id) return lx_app(loc, "scan", 3, id, s->f->e, row);
  const char *r = lx_fresh(c, "row"), *i = lx_fresh(c, "i"), *acc = lx_fresh(c, "acc"), *j = lx_fresh(c, "j"),
             *v = lx_fresh(c, "v");
  Expr *at = lx_app(loc, "max", 2, lx_int(0, loc), lx_app(loc, "-", 2, lx_var(i, loc), lx_var(j, loc)));
  Expr *step = if_exp(loc, lx_app(loc, "=", 2, lx_var(j, loc), lx_int(0, loc)), lx_var(v, loc),
                      if_exp(loc, lx_app(loc, "<=", 2, lx_var(j, loc), lx_var(i, loc)),
                             call2(s->f, lx_var(v, loc), lx_var(acc, loc), loc), lx_var(acc, loc)));
  const char *names[2] = { acc, j };
  Expr *body = lx_let(loc, v, lx_app(loc, "aref", 2, lx_var(r, loc), at), step);
  Expr *fold = lx_app(loc, "reduceSeq", 3, lower_fill(s->base, loc)->e, lx_lambda(loc, 2, names, body),
                      lx_app(loc, "iota", 1, lx_nat(s->m, loc)));
  Expr *item = lx_app(loc, "aref", 2, fold, lx_int(0, loc));
  return lx_let(loc, r, row, lx_app(loc, "map", 2, lx_lambda(loc, 1, &i, item), lx_app(loc, "iota", 1, lx_nat(s->m, loc))));
}

LVal *lower_scan(LowerCtx *c, TExp *e, LVal **a) {
  LVal *x = a[1];
  if (x->rank == 0) return x;
  LVal *elems[2] = { lval_scalar(NULL, x->base), lval_scalar(NULL, x->base) };
  ScanCtx s = { lower_fn(c, a[0], 2, elems, e->loc), NULL, 0, x->base };
  if (!s.f) return NULL;
  if (s.f->base != x->base)
    return diag_error(e->loc, "scan: the function gives %s for items of type %s", tbase_name(s.f->base), tbase_name(x->base)), NULL;
  if (a[0]->fn->kind == TE_OP && a[0]->fn->op->assoc) s.op = a[0]->fn->op->name;
  s.m = lval_ext(x, x->rank - 1);   /* -1: a run-time length, which only the tree scan takes */
  bool folds = !s.op || !identity(s.op, e->loc);   /* scan_row's right fold of each prefix */
  if (folds && !lower_static_ext(e, x, x->rank - 1, &s.m)) return NULL;
  /* the folds read each item of a row at m places, where a lazy row's item is
     computed again: nested, n^levels work on the compiled targets (fuzz F6:
     -\ eight times over ⍳40 ran past 120 s on c). At the top of the program the
     argument is written to memory first (the interpreter stores it too); inside
     a function (fn_depth > 0) it stays lazy */
  Expr *arg = x->e;
  if (folds && s.m > 1 && c->fn_depth == 0 && arg->kind != EX_VAR) arg = lower_materialise(c, arg, x->rank, e->loc);
  LVal *v = lval_new(rows(c, x->rank - 1, arg, scan_row, &s, e->loc), x->base, x->rank);
  for (int i = 0; i < x->rank; i++) v->ext[i] = x->ext[i];
  return v;
}

/* ---- static gathers ---- */

typedef struct GatherCtx { Expr *idx; LVal *fill; long long n; bool fills; } GatherCtx;

/* (let r row (map (λj. let k = idx[j] in if k < 0 then d else r[max(k,0)]) (iota #n))) */
static Expr *gather_row(LowerCtx *c, void *ctx, Expr *row, Loc loc) {
  GatherCtx *g = ctx;
  const char *r = lx_fresh(c, "row"), *j = lx_fresh(c, "j"), *k = lx_fresh(c, "k");
  Expr *item;
  if (!g->idx) item = g->fill->e;   /* every item a fill */
  else {
    Expr *at = lx_app(loc, "aref", 2, lx_var(r, loc), g->fills ? lx_app(loc, "max", 2, lx_var(k, loc), lx_int(0, loc)) : lx_var(k, loc));
    if (g->fills) {
      Expr *sel = expr_new(EX_IF, loc, 3);
      sel->kids[0] = lx_app(loc, "<", 2, lx_var(k, loc), lx_int(0, loc));
      sel->kids[1] = g->fill->e; sel->kids[2] = at;
      at = sel;
    }
    item = lx_let(loc, k, lx_app(loc, "aref", 2, g->idx, lx_var(j, loc)), at);
  }
  return lx_let(loc, r, row, lx_app(loc, "map", 2, lx_lambda(loc, 1, &j, item), lx_app(loc, "iota", 1, lx_nat(g->n, loc))));
}

/* x's rows gathered by idx (n items; -1 the fill) */
static LVal *gather(LowerCtx *c, TExp *e, LVal *fill, LVal *x, long long n, const long long *idx) {
  GatherCtx g = { NULL, fill, n, false };
  bool any = false;
  for (long long j = 0; j < n; j++) { g.fills |= idx[j] < 0; any |= idx[j] >= 0; }
  if (any) g.idx = lower_static_vector(c, (int)n, idx, e->loc)->e;
  LVal *v = lval_new(rows(c, x->rank - 1, x->e, gather_row, &g, e->loc), x->base, x->rank);
  for (int i = 0; i < x->rank; i++) v->ext[i] = x->ext[i];
  v->ext[x->rank - 1] = nat_const(n);
  if (x->rank == 1 && x->vals && (!g.fills || fill->known)) {
    v->vals = NEW_ARRAY(long long, n > 0 ? n : 1);
    for (long long j = 0; j < n; j++) v->vals[j] = idx[j] < 0 ? fill->k : x->vals[idx[j]];
  }
  return v;
}

enum { GATHER_MAX = 1 << 20 };   /* a static gather's index vector is a literal: 1M entries take ~0.17 s to compile (fuzz F5: 11M took 1.9 s and 390 MB) */

/* The counts (or mask) a[k], known when compiling, and the last axis's
   length m; a "length error" unless one count per item (or one item, which
   every count selects: APL's extension of a singleton); expand's mask has
   its own length (per_item false) */
static bool static_counts(TExp *e, int k, LVal *counts, LVal *x, bool per_item, long long *m, long long *n) {
  if (!counts->vals) return diag_error(e->kids[k]->loc, "%s: the %s must be known when compiling", e->op->name,
                                       strcmp(e->op->name, "replicate") ? "mask" : "counts");
  if (!lower_static_ext(e, x, x->rank - 1, m)) return false;
  *n = lval_ext(counts, 0);
  if (per_item && *n != *m && *m != 1)
    return diag_error(e->loc, "length error: %s: %lld %s for an axis of length %lld", e->op->name, *n,
                      strcmp(e->op->name, "replicate") ? "mask items" : "counts", *m);
  return true;
}

/* ---- replicate and expand by counts or a mask computed at run time ---- */

static Expr *if3(Loc loc, Expr *c, Expr *t, Expr *f) {
  Expr *e = expr_new(EX_IF, loc, 3);
  e->kids[0] = c; e->kids[1] = t; e->kids[2] = f;
  return e;
}

/* x's last axis of static length m, counts or a mask of n items */
static bool runtime_shape(TExp *e, LVal *counts, LVal *x, long long *m, long long *n) {
  return lower_static_ext(e, x, x->rank - 1, m) && lower_static_ext(e, counts, 0, n);
}

/* (let s (scan 0 + counts) …): the inclusive sums of the counts (of their
   magnitudes, abs; of a mask's ones, b2i), computed once */
static Expr *sums(LowerCtx *c, Expr *counts, const char *conv, Loc loc) {
  const char *v = lx_fresh(c, "v"), *add[2] = { lx_fresh(c, "a"), lx_fresh(c, "b") };
  Expr *plus = lx_lambda(loc, 2, add, lx_app(loc, "+", 2, lx_var(add[0], loc), lx_var(add[1], loc)));
  if (conv) {
    Expr *item = !strcmp(conv, "b2i") ? if3(loc, lx_var(v, loc), lx_int(1, loc), lx_int(0, loc)) : lx_app(loc, conv, 1, lx_var(v, loc));
    counts = lx_app(loc, "map", 2, lx_lambda(loc, 1, &v, item), counts);
  }
  return lx_app(loc, "scan", 3, lx_int(0, loc), plus, counts);
}

/* The first k in [0, n) with s[k] > j (s ascending, s[n-1] > j): a binary
   search in one thread, (get1 (whileSeq (λt. lo < hi) (λt. …) (tuple 0 last))),
   last = n-1 */
static Expr *search(LowerCtx *c, const char *s, Expr *j, Expr *last, Loc loc) {
  const char *t = lx_fresh(c, "t"), *u = lx_fresh(c, "t"), *mid = lx_fresh(c, "mid");
  Expr *more = lx_lambda(loc, 1, &t, lx_app(loc, "<", 2, lx_app(loc, "get1", 1, lx_var(t, loc)), lx_app(loc, "get2", 1, lx_var(t, loc))));
  Expr *half = lx_app(loc, "/", 2, lx_app(loc, "+", 2, lx_app(loc, "get1", 1, lx_var(u, loc)), lx_app(loc, "get2", 1, lx_var(u, loc))),
                      lx_int(2, loc));
  Expr *step = if3(loc, lx_app(loc, ">", 2, lx_app(loc, "aref", 2, lx_var(s, loc), lx_var(mid, loc)), j),
                   lx_app(loc, "tuple", 2, lx_app(loc, "get1", 1, lx_var(u, loc)), lx_var(mid, loc)),
                   lx_app(loc, "tuple", 2, lx_app(loc, "+", 2, lx_var(mid, loc), lx_int(1, loc)), lx_app(loc, "get2", 1, lx_var(u, loc))));
  Expr *next = lx_lambda(loc, 1, &u, lx_let(loc, mid, half, step));
  return lx_app(loc, "get1", 1, lx_app(loc, "whileSeq", 3, more, next, lx_app(loc, "tuple", 2, lx_int(0, loc), last)));
}

/* ---- the rows of an array of rank r ≥ 2 (APL's ⌿ and /) ----
   A selection by a mask or counts computed at run time has a run-time
   length. Of a vector it is outermost. Along the last axis of A (rank ≥ 2)
   it is selected as rows of A's last axis moved first (a transposing view),
   and kept so: the clift value has the run-time length outermost
   ({∃X.[[T]M]X}, SPEC §3.4) and the TAIL value is its transpose
   (LVal.rows_first): APL's / of a matrix, {∃X.[[T]X]N} as TAIL sees it, held
   as its transpose; el_select's ⌿, transp2(back, op(…, transp2(fwd, A))),
   the transp2 back only clears the flag (lower_ops.c transp2_flag), so
   ⌿'s rows are A's rows, selected directly. Readers other than transp2 and the
   element-wise each, zipWith read the value through a transposing view
   (lower_unfold), inside the let that names the run-time length. */

/* x with its last axis first, as transposing views (TAIL's order) */
static LVal *move_first(LowerCtx *c, TExp *e, LVal *x) {
  int r = x->rank;
  LVal p = { 0 };
  p.rank = 1;
  p.vals = NEW_ARRAY(long long, r);
  for (int i = 0; i < r; i++) p.vals[i] = i == r - 1 ? 1 : i + 2;
  LVal *args[2] = { &p, x };
  return lower_unfold(c, e, lower_transp2(c, e, args));
}

/* The items of x's last axis as the items to select: a vector's, or the rows
   of x's last axis moved first (rank ≥ 2), each of static shape */
static LVal *selected(LowerCtx *c, TExp *e, LVal *x) {
  if (x->rank == 1) return x;
  LVal *y = move_first(c, e, x);
  for (int i = 1; y && i < y->rank; i++)
    if (lower_dyn_of(c, y->ext[i]))
      return diag_error(e->loc, "not supported yet: %s of an array whose length is known only at run time (a compress "
                        "or replicate result)", e->op->name), NULL;
  return y;
}

/* row k of y, or a row of fills where neg: map^(r-1) (λi…. if neg then d else y[k][i…]) */
static Expr *row_at(LowerCtx *c, LVal *y, Expr *k, Expr *neg, LVal *d, Loc l) {
  Expr *row = lx_app(l, "aref", 2, y->e, k);
  if (!neg) return row;
  int r = y->rank - 1;
  const char **is = NEW_ARRAY(const char *, r > 0 ? r : 1);
  Expr *item = row;
  for (int a = 0; a < r; a++) item = lx_app(l, "aref", 2, item, lx_var(is[a] = lx_fresh(c, "i"), l));
  item = if3(l, neg, d->e, item);
  for (int a = r - 1; a >= 0; a--)
    item = lx_app(l, "map", 2, lx_lambda(l, 1, &is[a], item), lx_app(l, "iota", 1, lx_nat_of(c, y->ext[a + 1], l)));
  return item;
}

/* rows (the items of y selected, a run-time count of at most `bound`) as the
   value of e: a vector, or the rows kept first (rank ≥ 2, rows_first) */
LVal *lower_with_rows(LowerCtx *c, TExp *e, Expr *rows, LVal *y, Nat *bound) {
  LDyn *dyn = NEW(LDyn);
  *dyn = (LDyn){ nat_var_new(arena_printf("(getLength %s)", e->op->name), nat_const(0), bound), NULL, bound, c->dyns };
  c->dyns = dyn;
  LVal *v = lval_new(rows, y->base, y->rank);
  v->ext[0] = nat_var(dyn->var);
  if (y->rank == 1) return v;
  for (int i = 0; i < y->rank; i++) v->ext[i] = i == y->rank - 1 ? nat_var(dyn->var) : y->ext[i + 1];   /* the first axis last, … */
  v->rows_first = true;   /* … e with it first (lower_unfold reads it in TAIL's order) */
  return v;
}

/* replicate(d, c, a), c computed at run time (a vector a, or the rows of A's
   last axis moved first): with s the sums of |c|, the result has s[n-1]
   items, item j is a[k] (the fill d where c[k] < 0) for the first k with
   s[k] > j. Its length is known only at run time, at most n·K for counts of
   magnitude at most K (lower_range.c): the items are (map item (filter (λj.
   j < s[n-1]) (iota #(n·K)))), a run-time length as compress's (LDyn), bound
   n·K. A vector of run-time length (a compress or replicate result) with
   counts of that length: n its run-time length, at most its bound N, the
   result at most N·K. */
static LVal *replicate_runtime(LowerCtx *c, TExp *e, LVal *d, LVal *cs, LVal *x) {
  Loc l = e->loc;
  long long m, n, lo, hi;
  LDyn *dyn = x->rank == 1 ? lower_dyn_of(c, x->ext[0]) : NULL;
  Expr *len = NULL;   /* (length x) for a run-time n */
  if (dyn) {
    if (!dyn->name || !nat_equal(cs->ext[0], x->ext[0]) || !nat_is_const(dyn->bound, &n))
      return diag_error(e->loc, "not supported yet: replicate of an array whose length is known only at run time by counts "
                        "of another length"), NULL;
    if (!(len = lower_extent_expr(c, x->ext[0], l))) return NULL;
    m = n;
  } else if (!runtime_shape(e, cs, x, &m, &n)) return NULL;
  if (n != m && m != 1)
    return diag_error(e->loc, "length error: replicate: %lld counts for an axis of length %lld", n, m), NULL;
  if (n == 0) return gather(c, e, d, x, 0, NULL);
  if (!lower_range_of(cs, &lo, &hi)) {
    Loc at = cs->unranged_at.file ? cs->unranged_at : e->kids[1]->loc;
    return diag_error(e->kids[1]->loc, "not supported yet: replicate by counts computed at run time whose size is not "
                      "bounded when compiling: no range is known for the value computed at %d:%d (the result needs a "
                      "bound: counts made of booleans, literals, lengths, + - × ÷ * ⌈ ⌊ | and monadic * ⍟ ⌊ ⌈ !, +/ ×/ ⌈/ "
                      "⌊/ +\\ ×\\ on them have one; docs/apl.md §5)", at.line, at.col), NULL;
  }
  long long k = hi > -lo ? hi : -lo, bound = n * k;
  LVal *y = selected(c, e, x);
  if (!y) return NULL;
  if (bound == 0) return gather(c, e, d, x, 0, NULL);   /* every count 0 */
  if (bound > GATHER_MAX)
    return diag_error(e->loc, "not supported yet: %s to as many as %lld items (%lld counts of up to %lld; at most %d)", e->op->name,
                      bound, n, k, GATHER_MAX), NULL;
  const char *cv = lx_fresh(c, "counts"), *s = lx_fresh(c, "sums"), *total = lx_fresh(c, "total"), *j = lx_fresh(c, "j"),
             *kv = lx_fresh(c, "k"), *i = lx_fresh(c, "j");
  Expr *neg = lo < 0 ? lx_app(l, "<", 2, lx_app(l, "aref", 2, lx_var(cv, l), lx_var(kv, l)), lx_int(0, l)) : NULL;
  Expr *item = row_at(c, y, m == 1 ? lx_int(0, l) : lx_var(kv, l), neg, d, l);
  if (!item) return NULL;
  Expr *last = len ? lx_app(l, "-", 2, len, lx_int(1, l)) : lx_int(n - 1, l);
  Expr *at = lx_lambda(l, 1, &j, lx_let(l, kv, search(c, s, lx_var(j, l), last, l), item));
  Expr *keep = lx_lambda(l, 1, &i, lx_app(l, "<", 2, lx_var(i, l), lx_var(total, l)));
  Expr *r = lx_app(l, "map", 2, at, lx_app(l, "filter", 2, keep, lx_app(l, "iota", 1, lx_nat(bound, l))));
  Expr *sum = lx_app(l, "aref", 2, lx_var(s, l), len ? lx_app(l, "max", 2, lx_int(0, l), lx_app(l, "-", 2, lower_extent_expr(c, x->ext[0], l), lx_int(1, l))) : lx_int(n - 1, l));
  if (len) sum = if3(l, lx_app(l, ">", 2, lower_extent_expr(c, x->ext[0], l), lx_int(0, l)), sum, lx_int(0, l));   /* no counts: 0 */
  r = lx_let(l, total, sum, r);
  r = lx_let(l, s, sums(c, lx_var(cv, l), lo < 0 ? "abs" : NULL, l), r);
  r = lx_let(l, cv, cs->e, r);
  return lower_with_rows(c, e, r, y, nat_const(bound));
}

/* compress(b, A), b computed at run time, A of rank ≥ 2: with y the rows of
   A's last axis moved first, (map (λk. y[k]) (filter (λk. b[k]) (iota #n))),
   at most n rows, kept first (a vector is lower_ops.c's filter of a zip) */
LVal *lower_compress_rows(LowerCtx *c, TExp *e, Expr *mask, LVal *x) {
  Loc l = e->loc;
  LVal *y = selected(c, e, x);
  if (!y) return NULL;
  if (lower_dyn_of(c, y->ext[0]))
    return diag_error(e->loc, "not supported yet: compress of an array whose length is known only at run time"), NULL;
  const char *bv = lx_fresh(c, "mask"), *j = lx_fresh(c, "j"), *k = lx_fresh(c, "k");
  Expr *keep = lx_lambda(l, 1, &j, lx_app(l, "aref", 2, lx_var(bv, l), lx_var(j, l)));
  Expr *r = lx_app(l, "map", 2, lx_lambda(l, 1, &k, row_at(c, y, lx_var(k, l), NULL, NULL, l)),
                   lx_app(l, "filter", 2, keep, lx_app(l, "iota", 1, lx_nat_of(c, y->ext[0], l))));
  return lower_with_rows(c, e, lx_let(l, bv, mask, r), y, y->ext[0]);
}

/* expand(d, b, a), b computed at run time: with s the running count of b's
   ones, item j is a[s[j]-1] where b[j], else d; the ones must be as many as
   a's items (or a has one item, which every one takes): clift's checkLength,
   a run-time "length error" at the \ otherwise. */
typedef struct ExpandCtx { const char *mask, *sums; LVal *fill; long long m, n; } ExpandCtx;

/* one row: (let r row (map (λj. if mask[j] then r[min(sums[j], m) - 1] else d) (iota #n))),
   the index clamped into the row: where the ones are too many, the length
   check, not an index check, reports it */
static Expr *expand_row(LowerCtx *c, void *ctx, Expr *row, Loc l) {
  ExpandCtx *x = ctx;
  const char *r = lx_fresh(c, "row"), *j = lx_fresh(c, "j");
  Expr *at = x->m == 1 ? lx_int(0, l)
                       : lx_app(l, "-", 2, lx_app(l, "min", 2, lx_app(l, "aref", 2, lx_var(x->sums, l), lx_var(j, l)), lx_int(x->m, l)),
                                lx_int(1, l));
  Expr *item = if3(l, lx_app(l, "aref", 2, lx_var(x->mask, l), lx_var(j, l)), lx_app(l, "aref", 2, lx_var(r, l), at), x->fill->e);
  return lx_let(l, r, row, lx_app(l, "map", 2, lx_lambda(l, 1, &j, item), lx_app(l, "iota", 1, lx_nat(x->n, l))));
}

static LVal *expand_runtime(LowerCtx *c, TExp *e, LVal *d, LVal *b, LVal *x) {
  Loc l = e->loc;
  long long m, n;
  if (!runtime_shape(e, b, x, &m, &n)) return NULL;
  if (n == 0) {
    if (m > 1) return diag_error(e->loc, "length error: expand: the mask has no items for an axis of length %lld", m), NULL;
    return gather(c, e, d, x, 0, NULL);
  }
  const char *bv = lx_fresh(c, "mask"), *s = lx_fresh(c, "sums"), *ok = lx_fresh(c, "ones");
  ExpandCtx k = { bv, s, d, m, n };
  Expr *r = rows(c, x->rank - 1, x->e, expand_row, &k, l);
  if (m != 1) r = lx_let(l, ok, lx_app(l, "checkLength", 2, lx_app(l, "aref", 2, lx_var(s, l), lx_int(n - 1, l)), lx_int(m, l)), r);
  r = lx_let(l, s, sums(c, lx_var(bv, l), "b2i", l), r);
  r = lx_let(l, bv, b->e, r);
  LVal *v = lval_new(r, x->base, x->rank);
  for (int i = 0; i < x->rank; i++) v->ext[i] = x->ext[i];
  v->ext[x->rank - 1] = nat_const(n);
  return v;
}

/* replicate(d, c, a): item i repeated c[i] times, -c[i] fills for a negative count */
LVal *lower_replicate(LowerCtx *c, TExp *e, LVal **a) {
  LVal *d = a[0], *cs = a[1], *x = a[2];
  long long m, n, total = 0;
  if (!cs->vals && cs->rank == 1) return replicate_runtime(c, e, d, cs, x);
  if (!static_counts(e, 1, cs, x, true, &m, &n)) return NULL;
  for (long long i = 0; i < n; i++) total += llabs(cs->vals[i]);
  if (total > GATHER_MAX) return diag_error(e->loc, "not supported yet: %s to %lld items (at most %d)", e->op->name, total, GATHER_MAX), NULL;
  long long *idx = NEW_ARRAY(long long, total > 0 ? total : 1), j = 0;
  for (long long i = 0; i < n; i++)
    for (long long k = 0; k < llabs(cs->vals[i]); k++) idx[j++] = cs->vals[i] < 0 ? -1 : m == 1 ? 0 : i;
  return gather(c, e, d, x, total, idx);
}

/* the items where mask[j], in order; others dropped (expand: the fill) */
static LVal *by_mask(LowerCtx *c, TExp *e, LVal *fill, LVal *mask, LVal *x, bool expand) {
  long long m, n, ones = 0;
  if (!static_counts(e, expand ? 1 : 0, mask, x, !expand, &m, &n)) return NULL;
  if (expand) {   /* the mask's ones take the items in order: as many as the axis has */
    for (long long j = 0; j < n; j++) ones += mask->vals[j] != 0;
    if (ones != m && m != 1)
      return diag_error(e->loc, "length error: expand: the mask has %lld ones for an axis of length %lld", ones, m), NULL;
  }
  long long *idx = NEW_ARRAY(long long, n > 0 ? n : 1), k = 0, seen = 0;
  for (long long j = 0; j < n; j++) {
    if (mask->vals[j]) idx[k++] = expand ? (m == 1 ? 0 : seen++) : (m == 1 ? 0 : j);
    else if (expand) idx[k++] = -1;
  }
  return gather(c, e, fill, x, k, idx);
}

/* expand(d, b, a): item j is the next item of a where b[j], else d (APL's \) */
LVal *lower_expand(LowerCtx *c, TExp *e, LVal **a) {
  if (!a[1]->vals && a[1]->rank == 1) return expand_runtime(c, e, a[0], a[1], a[2]);
  return by_mask(c, e, a[0], a[1], a[2], true);
}

LVal *lower_compress_static(LowerCtx *c, TExp *e, LVal *mask, LVal *x) {
  return by_mask(c, e, lower_fill(x->base, e->loc), mask, x, false);
}
