/* nat_range.c — range analysis (SPEC §3.1): symbolic lower/upper bounds of an
   expression from its variables' ranges, and the proofs a <= b, a < b built on them.
   A bound is NULL when infinite. Bounds are pointwise: lo(x) <= e(x) <= hi(x) at
   every point x where e is defined, so they may mention variables. */
#include "nat_internal.h"

typedef struct Bounds { Nat *lo, *hi; } Bounds;

/* A variable given explicit bounds: a Σ index ranges over [from, to-1]. */
typedef struct Override { NatVar *v; Nat *lo, *hi; const struct Override *next; } Override;

typedef struct RangeCtx {
  NatVar **elim; int nelim;   /* variables replaced by their ranges in this step */
  const Override *over;
} RangeCtx;

/* Proofs call constructors, which call proofs; this bounds the nesting. */
enum { PROOF_DEPTH_MAX = 2, PROOF_STEPS_MAX = 8 };
static int proof_depth;

static Bounds bounds_of(Nat *e, const RangeCtx *c);

static Nat *add_opt(Nat *a, Nat *b) { return a && b ? nat_add(a, b) : NULL; }

static Nat *max0(Nat *lo) {   /* a lower bound of a nonnegative quantity */
  long long v;
  if (!lo) return nat_const(0);
  if (nat_is_const(lo, &v)) return nat_const(v > 0 ? v : 0);
  return nat_max(lo, nat_const(0));
}

static Bounds var_bounds(Nat *e, const RangeCtx *c) {
  for (const Override *o = c->over; o; o = o->next)
    if (o->v == e->var) return (Bounds){ o->lo, o->hi };
  for (int i = 0; i < c->nelim; i++)
    if (c->elim[i] == e->var) return (Bounds){ e->var->lo, e->var->hi };
  return (Bounds){ e, e };
}

/* coef * atoms: interval product; exact monotonicity needs nonnegative factors. */
static Bounds term_bounds(NatTerm t, const RangeCtx *c) {
  Bounds b = { nat_const(1), nat_const(1) };
  if (t.n == 1) b = bounds_of(t.atoms[0], c);
  for (int i = 0; t.n > 1 && i < t.n; i++) {
    if (!nat_nonneg(t.atoms[i])) return (Bounds){ NULL, NULL };
    Bounds a = bounds_of(t.atoms[i], c);
    b.lo = nat_mul(b.lo, max0(a.lo));
    b.hi = b.hi && a.hi ? nat_mul(b.hi, a.hi) : NULL;
  }
  Nat *k = nat_const(t.coef);
  if (t.coef >= 0)
    return (Bounds){ b.lo ? nat_mul(k, b.lo) : NULL, b.hi ? nat_mul(k, b.hi) : NULL };
  return (Bounds){ b.hi ? nat_mul(k, b.hi) : NULL, b.lo ? nat_mul(k, b.lo) : NULL };
}

static Bounds div_bounds(Nat *e, const RangeCtx *c) {
  Bounds a = bounds_of(e->args[0], c), d = bounds_of(e->args[1], c);
  long long k;
  if (nat_is_const(e->args[1], &k) && k > 0)   /* floor(x/k) is monotone in x */
    return (Bounds){ a.lo ? nat_div(a.lo, e->args[1]) : NULL, a.hi ? nat_div(a.hi, e->args[1]) : NULL };
  if (!nat_nonneg(e->args[0]) || !nat_nonneg(e->args[1])) return (Bounds){ NULL, NULL };
  /* where defined the divisor is >= 1, so max(lo_d, 1) <= d <= hi_d */
  Nat *lo = d.hi ? nat_div(max0(a.lo), d.hi) : nat_const(0);
  Nat *hi = a.hi ? nat_div(a.hi, d.lo ? nat_max(d.lo, nat_const(1)) : nat_const(1)) : NULL;
  return (Bounds){ lo, hi };
}

static Bounds mod_bounds(Nat *e, const RangeCtx *c) {
  long long k;
  Nat *hi = NULL;
  if (nat_is_const(e->args[1], &k) && k < 0) return (Bounds){ nat_const(k + 1), nat_const(0) };
  if (nat_is_const(e->args[1], &k)) hi = nat_const(k - 1);
  else if (nat_nonneg(e->args[1])) {
    Bounds d = bounds_of(e->args[1], c);
    hi = d.hi ? nat_sub(d.hi, nat_const(1)) : NULL;
  } else return (Bounds){ NULL, NULL };
  if (nat_nonneg(e->args[0])) {   /* x mod k <= x for x >= 0 */
    Bounds a = bounds_of(e->args[0], c);
    if (a.hi) hi = hi ? nat_min(hi, a.hi) : a.hi;
  }
  return (Bounds){ nat_const(0), hi };
}

static Bounds pow_bounds(Nat *e, const RangeCtx *c) {
  if (!nat_nonneg(e->args[0]) || !nat_nonneg(e->args[1])) return (Bounds){ NULL, NULL };
  Bounds a = bounds_of(e->args[0], c), x = bounds_of(e->args[1], c);
  Nat *la = max0(a.lo), *lx = max0(x.lo);
  if (nat_proves_le(nat_const(1), la))   /* base >= 1: monotone in both */
    return (Bounds){ nat_pow(la, lx), a.hi && x.hi ? nat_pow(a.hi, x.hi) : NULL };
  return (Bounds){ nat_const(0), a.hi && x.hi ? nat_pow(nat_max(a.hi, nat_const(1)), x.hi) : NULL };
}

static Nat *min_opt(Nat *a, Nat *b) { return a && b ? nat_min(a, b) : NULL; }
static Nat *max_opt(Nat *a, Nat *b) { return a && b ? nat_max(a, b) : NULL; }

/* Σ_{k=from}^{to-1} f(k) lies in [(to-from) * lo_f, (to-from) * hi_f] when
   from <= to, with lo_f/hi_f bounds of f over k in [from, to-1]. */
static Bounds sum_bounds(Nat *e, const RangeCtx *c) {
  Nat *from = e->args[0], *to = e->args[1], *count = nat_sub(to, from);
  if (!nat_proves_le(from, to)) return (Bounds){ NULL, NULL };
  Override o = { e->var, from, nat_sub(to, nat_const(1)), c->over };
  RangeCtx inner = { c->elim, c->nelim, &o };
  Bounds f = bounds_of(e->args[2], &inner);
  Nat *lo = f.lo ? nat_mul(count, f.lo) : NULL;
  if (!lo && nat_nonneg(e->args[2])) lo = nat_const(0);
  return (Bounds){ lo, f.hi ? nat_mul(count, f.hi) : NULL };
}

/* A sum holding -c·k·⌊a/k⌋ (k > 0, c > 0) is rest + c·(a mod k) with
   rest = sum + c·k·⌊a/k⌋ - c·a, and 0 <= a mod k <= k - 1 for any integer a:
   bounds where the terms alone give none or a weaker one (N - 16384·⌊N/16384⌋,
   what is left of the input after the full tiles of a top-level reduce,
   dpia/tiles.c). */
static bool remainder_bounds(NatPoly p, const RangeCtx *c, Bounds *out) {
  long long k;
  for (int i = 0; i < p.n; i++) {
    NatTerm t = p.terms[i];
    Nat *q = t.n == 1 ? t.atoms[0] : NULL;
    if (!q || q->kind != NAT_DIV || !nat_is_const(q->args[1], &k) || k <= 0 || t.coef >= 0 || t.coef % k) continue;
    Nat *times = nat_const(-t.coef / k);
    NatPoly others = { 0, NEW_ARRAY(NatTerm, p.n) };
    for (int j = 0; j < p.n; j++) if (j != i) others.terms[others.n++] = p.terms[j];
    Bounds r = bounds_of(nat_sub(nat_poly_build(others), nat_mul(times, q->args[0])), c);
    *out = (Bounds){ r.lo, r.hi ? nat_add(r.hi, nat_mul(times, nat_const(k - 1))) : NULL };
    return true;
  }
  return false;
}

static Bounds bounds_of(Nat *e, const RangeCtx *c) {
  switch (e->kind) {
  case NAT_CONST: return (Bounds){ e, e };
  case NAT_VAR: return var_bounds(e, c);
  case NAT_ADD: case NAT_MUL: {
    NatPoly p = nat_poly_normalize(nat_poly_of(e));
    Bounds b = { nat_const(0), nat_const(0) }, r;
    for (int i = 0; i < p.n; i++) {
      Bounds t = term_bounds(p.terms[i], c);
      b.lo = add_opt(b.lo, t.lo);
      b.hi = add_opt(b.hi, t.hi);
    }
    long long v;
    if ((!b.lo || !b.hi || !nat_is_const(b.lo, &v) || !nat_is_const(b.hi, &v)) && remainder_bounds(p, c, &r)) {
      /* the remainder's where the terms give none, or where it is a constant
         and theirs is not (a filter's length L <= N: L - 16384·⌊L/16384⌋ >= 0,
         where the terms give -16384·⌊N/16384⌋) */
      if (r.lo && (!b.lo || (nat_is_const(r.lo, &v) && !nat_is_const(b.lo, &v)))) b.lo = r.lo;
      if (r.hi && (!b.hi || (nat_is_const(r.hi, &v) && !nat_is_const(b.hi, &v)))) b.hi = r.hi;
    }
    return b;
  }
  case NAT_DIV: return div_bounds(e, c);
  case NAT_MOD: return mod_bounds(e, c);
  case NAT_POW: return pow_bounds(e, c);
  case NAT_MIN: case NAT_MAX: {
    Bounds a = bounds_of(e->args[0], c), b = bounds_of(e->args[1], c);
    if (e->kind == NAT_MIN)
      return (Bounds){ min_opt(a.lo, b.lo), !a.hi ? b.hi : !b.hi ? a.hi : nat_min(a.hi, b.hi) };
    return (Bounds){ !a.lo ? b.lo : !b.lo ? a.lo : nat_max(a.lo, b.lo), max_opt(a.hi, b.hi) };
  }
  case NAT_SUM: return sum_bounds(e, c);
  case NAT_IF: {
    Bounds t = bounds_of(e->args[2], c), f = bounds_of(e->args[3], c);
    return (Bounds){ min_opt(t.lo, f.lo), max_opt(t.hi, f.hi) };
  }
  }
  return (Bounds){ NULL, NULL };
}

static bool mentioned_by_range(NatVar *v, NatVar *w) {
  return nat_mentions(w->lo, v) || (w->hi && nat_mentions(w->hi, v));
}

/* One step replaces the innermost variables: those no other free variable's range
   mentions (i in [0, n-1] goes before n, so n - i - 1 gets the bound 0). */
static Bounds one_step(Nat *e) {
  int n = nat_free_vars(e, NULL, 0);
  NatVar **vars = NEW_ARRAY(NatVar *, n), **elim = NEW_ARRAY(NatVar *, n);
  nat_free_vars(e, vars, n);
  int m = 0;
  for (int i = 0; i < n; i++) {
    bool inner = true;
    for (int j = 0; j < n && inner; j++)
      if (j != i && mentioned_by_range(vars[i], vars[j])) inner = false;
    if (inner) elim[m++] = vars[i];
  }
  RangeCtx c = { m ? elim : vars, m ? m : n, NULL };   /* cyclic ranges: all at once */
  return bounds_of(e, &c);
}

Nat *nat_min_of(Nat *e) { return one_step(e).lo; }
Nat *nat_max_of(Nat *e) { return one_step(e).hi; }

/* 0 <= d, by lowering d step by step until a constant appears. */
static bool proves_nonneg(Nat *d) {
  if (proof_depth >= PROOF_DEPTH_MAX) return false;
  proof_depth++;
  bool ok = false;
  for (int step = 0; step < PROOF_STEPS_MAX; step++) {
    long long v;
    if (nat_is_const(d, &v)) { ok = v >= 0; break; }
    Nat *m = nat_min_of(d);
    if (!m || nat_same(m, d)) break;
    d = m;
  }
  proof_depth--;
  return ok;
}

/* min(x, y) <= b when either is; a <= max(x, y) when a is below either (the
   bounds of a peeled Σ, nat_sum.c); else by ranges. */
bool nat_proves_le(Nat *a, Nat *b) {
  if (a->kind == NAT_MIN && (nat_proves_le(a->args[0], b) || nat_proves_le(a->args[1], b))) return true;
  if (b->kind == NAT_MAX && (nat_proves_le(a, b->args[0]) || nat_proves_le(a, b->args[1]))) return true;
  return proves_nonneg(nat_sub(b, a));
}
bool nat_proves_lt(Nat *a, Nat *b) { return proves_nonneg(nat_sub(b, nat_add(a, nat_const(1)))); }

/* Structural facts first (variables are nats; div, mod, pow of nats are nats),
   ranges only when the structure does not settle it. */
bool nat_nonneg(Nat *e) {
  switch (e->kind) {
  case NAT_CONST: return e->value >= 0;
  case NAT_VAR: return true;
  case NAT_DIV: case NAT_POW: return nat_nonneg(e->args[0]) && nat_nonneg(e->args[1]);
  case NAT_MOD: return nat_nonneg(e->args[1]);
  case NAT_MIN: return nat_nonneg(e->args[0]) && nat_nonneg(e->args[1]);
  case NAT_MAX: return nat_nonneg(e->args[0]) || nat_nonneg(e->args[1]);
  case NAT_IF: return nat_nonneg(e->args[2]) && nat_nonneg(e->args[3]);
  case NAT_SUM: return nat_nonneg(e->args[2]) && nat_proves_le(e->args[0], e->args[1]);
  case NAT_ADD: case NAT_MUL: {
    NatPoly p = nat_poly_of(e);
    bool all = true;
    for (int i = 0; i < p.n && all; i++) {
      all = p.terms[i].coef >= 0;
      for (int j = 0; j < p.terms[i].n && all; j++) all = nat_nonneg(p.terms[i].atoms[j]);
    }
    return all || proves_nonneg(e);
  }
  }
  return false;
}
