/* lower_gather.c — TAIL's scan, and replicate, expand and compress with
   counts or a mask known when compiling, all on the last axis (docs/apl.md
   §3.2). A static selection is a gather: item j of each row is the row's item
   idx[j], or the fill where idx[j] < 0; idx is a hidden input. */
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

typedef struct ScanCtx { LVal *f; const char *op; long long m; } ScanCtx;

/* An associative op: (scan id f row). Any other function (APL's right
   fold of each prefix): item i = x₀ f (x₁ f (… f xᵢ)), computed as
   (aref (reduceSeq xᵢ (λacc j. if j < i then x[i-1-j] f acc else acc) (iota #(m-1))) 0),
   quadratic, with the index kept ≥ 0 in the branch not taken. */
static Expr *scan_row(LowerCtx *c, void *ctx, Expr *row, Loc loc) {
  ScanCtx *s = ctx;
  Expr *id = s->op ? identity(s->op, loc) : NULL;
  if (s->m == 0 || s->m == 1) return row;
  if (id) return lx_app(loc, "scan", 3, id, s->f->e, row);
  const char *r = lx_fresh(c, "row"), *i = lx_fresh(c, "i"), *acc = lx_fresh(c, "acc"), *j = lx_fresh(c, "j");
  Expr *at = lx_app(loc, "max", 2, lx_int(0, loc),
                    lx_app(loc, "-", 2, lx_app(loc, "-", 2, lx_var(i, loc), lx_int(1, loc)), lx_var(j, loc)));
  Expr *step = expr_new(EX_IF, loc, 3);
  step->kids[0] = lx_app(loc, "<", 2, lx_var(j, loc), lx_var(i, loc));
  step->kids[1] = call2(s->f, lx_app(loc, "aref", 2, lx_var(r, loc), at), lx_var(acc, loc), loc);
  step->kids[2] = lx_var(acc, loc);
  const char *names[2] = { acc, j };
  Expr *fold = lx_app(loc, "reduceSeq", 3, lx_app(loc, "aref", 2, lx_var(r, loc), lx_var(i, loc)), lx_lambda(loc, 2, names, step),
                      lx_app(loc, "iota", 1, lx_nat(s->m - 1, loc)));
  Expr *item = lx_app(loc, "aref", 2, fold, lx_int(0, loc));
  return lx_let(loc, r, row, lx_app(loc, "map", 2, lx_lambda(loc, 1, &i, item), lx_app(loc, "iota", 1, lx_nat(s->m, loc))));
}

LVal *lower_scan(LowerCtx *c, TExp *e, LVal **a) {
  LVal *x = a[1];
  if (x->rank == 0) return x;
  LVal *elems[2] = { lval_scalar(NULL, x->base), lval_scalar(NULL, x->base) };
  ScanCtx s = { lower_fn(c, a[0], 2, elems, e->loc), NULL, 0 };
  if (!s.f) return NULL;
  if (s.f->base != x->base)
    return diag_error(e->loc, "scan: the function gives %s for items of type %s", tbase_name(s.f->base), tbase_name(x->base)), NULL;
  if (a[0]->fn->kind == TE_OP && a[0]->fn->op->assoc) s.op = a[0]->fn->op->name;
  s.m = lval_ext(x, x->rank - 1);   /* -1: a run-time length, which only the tree scan takes */
  if ((!s.op || !identity(s.op, e->loc)) && !lower_static_ext(e, x, x->rank - 1, &s.m)) return NULL;
  LVal *v = lval_new(rows(c, x->rank - 1, x->e, scan_row, &s, e->loc), x->base, x->rank);
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

enum { GATHER_MAX = 1 << 24 };

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

/* replicate(d, c, a): item i repeated c[i] times, -c[i] fills for a negative count */
LVal *lower_replicate(LowerCtx *c, TExp *e, LVal **a) {
  LVal *d = a[0], *cs = a[1], *x = a[2];
  long long m, n, total = 0;
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
  return by_mask(c, e, a[0], a[1], a[2], true);
}

LVal *lower_compress_static(LowerCtx *c, TExp *e, LVal *mask, LVal *x) {
  return by_mask(c, e, lower_fill(x->base, e->loc), mask, x, false);
}
