/* nat_divmod.c — floor division, modulo and powers (SPEC §3.1).
   The division rules all come from one identity: for integers q, r and b != 0,
   floor((q*b + r) / b) = q + floor(r / b) and (q*b + r) mod b = r mod b;
   then r/b = 0 and r mod b = r once ranges prove 0 <= r < b. */
#include "nat_internal.h"

static bool proves_below(Nat *r, Nat *b) {   /* 0 <= r < b */
  return nat_proves_le(nat_const(0), r) && nat_proves_lt(r, b);
}

/* a = q*b + r by multivariate division (graded-lex leading terms); terms whose
   leading monomial b's does not divide go to the remainder. */
static void poly_divide(NatPoly a, NatPoly b, NatPoly *q, NatPoly *r) {
  NatPoly rem = nat_poly_normalize(a), quo = { 0, NULL }, rest = { 0, NULL };
  b = nat_poly_normalize(b);
  NatTerm lead = b.terms[0];
  for (int iter = 0; rem.n > 0 && iter < 64; iter++) {
    NatTerm t = rem.terms[0], qt;
    NatPoly one = { 1, &t };
    if (nat_term_divide(t, lead, &qt)) {
      NatPoly qp = { 1, &qt };
      quo = nat_poly_add(quo, qp);
      rem = nat_poly_normalize(nat_poly_add(rem, nat_poly_scale(nat_poly_mul(qp, b), -1)));
    } else {
      rest = nat_poly_add(rest, one);
      rem = (NatPoly){ rem.n - 1, rem.terms + 1 };
    }
  }
  *q = quo;
  *r = nat_poly_add(rest, rem);
}

/* Split each coefficient c as k*floor(c/k) + floor_mod(c, k): the numerator left
   in an atom then has coefficients in [0, k), which makes the atom canonical and,
   for nonnegative atoms, keeps it nonnegative (so C's truncating `/` agrees). */
static void split_by_const(Nat *a, long long k, NatPoly *q, NatPoly *r) {
  NatPoly p = nat_poly_normalize(nat_poly_of(a));
  *q = (NatPoly){ 0, NEW_ARRAY(NatTerm, p.n) };
  *r = (NatPoly){ 0, NEW_ARRAY(NatTerm, p.n) };
  for (int i = 0; i < p.n; i++) {
    NatTerm t = p.terms[i];
    long long qc = nat_floor_div(t.coef, k), rc = nat_floor_mod(t.coef, k);
    if (qc) { q->terms[q->n] = t; q->terms[q->n++].coef = qc; }
    if (rc) { r->terms[r->n] = t; r->terms[r->n++].coef = rc; }
  }
}

/* Divide every coefficient of p (a fresh copy) by g, which divides them all. */
static NatPoly poly_exact_div(NatPoly p, long long g) {
  NatPoly c = nat_poly_scale(p, 1);
  for (int i = 0; i < c.n; i++) c.terms[i].coef /= g;
  return c;
}

static long long poly_gcd(NatPoly p, long long g) {
  for (int i = 0; i < p.n; i++) g = nat_gcd(g, p.terms[i].coef);
  return g;
}

static Nat *div_by_const(Nat *a, long long k) {
  long long k1;
  /* (x / k1) / k = x / (k1*k) for positive k1, k (floor of floor) */
  if (a->kind == NAT_DIV && nat_is_const(a->args[1], &k1) && k1 > 0 &&
      !__builtin_mul_overflow(k1, k, &k1))
    return nat_div(a->args[0], nat_const(k1));
  NatPoly q, r;
  split_by_const(a, k, &q, &r);
  Nat *quot = nat_poly_build(q);
  if (r.n == 0) return quot;
  long long g = poly_gcd(r, k);   /* floor(g*x / (g*m)) = floor(x / m) */
  if (g > 1) { r = poly_exact_div(r, g); k /= g; }
  Nat *rn = nat_poly_build(r), *kn = nat_const(k);
  if (k == 1) return nat_add(quot, rn);
  if (proves_below(rn, kn)) return quot;
  return nat_add(quot, nat_node2(NAT_DIV, rn, kn));
}

Nat *nat_div(Nat *a, Nat *b) {
  long long x, y;
  if (nat_is_const(b, &y)) {
    if (y == 0) return nat_node2(NAT_DIV, a, b);   /* undefined: kept, eval fails */
    if (nat_is_const(a, &x)) return nat_const(nat_floor_div(x, y));
    if (y == 1) return a;
    if (y == -1) return nat_sub(nat_const(0), a);
    if (y > 0) return div_by_const(a, y);
    return nat_node2(NAT_DIV, a, b);
  }
  if (nat_same(a, b)) return nat_const(1);   /* (x*y)/y = x, with x = 1 */
  NatPoly q, r;
  poly_divide(nat_poly_of(a), nat_poly_of(b), &q, &r);
  Nat *quot = nat_poly_build(q), *rn = nat_poly_build(r);
  if (r.n == 0) return quot;
  if (proves_below(rn, b)) return quot;
  return nat_add(quot, nat_node2(NAT_DIV, rn, b));
}

static Nat *mod_by_const(Nat *a, long long k) {
  long long k1;
  /* (x mod k1) mod k = x mod k when k divides k1 */
  if (a->kind == NAT_MOD && nat_is_const(a->args[1], &k1) && k1 > 0 && k1 % k == 0)
    return nat_mod(a->args[0], nat_const(k));
  NatPoly q, r;
  split_by_const(a, k, &q, &r);
  if (r.n == 0) return nat_const(0);
  long long g = poly_gcd(r, k);   /* (g*x) mod (g*m) = g * (x mod m) */
  if (g > 1) return nat_mul(nat_const(g), nat_mod(nat_poly_build(poly_exact_div(r, g)), nat_const(k / g)));
  Nat *rn = nat_poly_build(r), *kn = nat_const(k);
  if (proves_below(rn, kn)) return rn;
  return nat_node2(NAT_MOD, rn, kn);
}

Nat *nat_mod(Nat *a, Nat *b) {
  long long x, y;
  if (nat_is_const(b, &y)) {
    if (y == 0) return nat_node2(NAT_MOD, a, b);
    if (nat_is_const(a, &x)) return nat_const(nat_floor_mod(x, y));
    if (y == 1 || y == -1) return nat_const(0);
    if (y > 0) return mod_by_const(a, y);
    return nat_node2(NAT_MOD, a, b);
  }
  if (nat_same(a, b)) return nat_const(0);
  NatPoly q, r;
  poly_divide(nat_poly_of(a), nat_poly_of(b), &q, &r);
  if (r.n == 0) return nat_const(0);
  Nat *rn = nat_poly_build(r);
  if (proves_below(rn, b)) return rn;
  return nat_node2(NAT_MOD, rn, b);
}

/* Expanding a power multiplies terms out; beyond this many terms an atom is kinder. */
enum { POW_EXPAND_MAX_EXP = 16, POW_EXPAND_MAX_TERMS = 256 };

static Nat *pow_expand(Nat *a, long long e) {
  NatPoly base = nat_poly_normalize(nat_poly_of(a)), acc = nat_poly_of(nat_const(1));
  for (long long i = 0; i < e; i++) {
    acc = nat_poly_normalize(nat_poly_mul(acc, base));
    if (acc.n > POW_EXPAND_MAX_TERMS) return nat_node2(NAT_POW, a, nat_const(e));
  }
  return nat_poly_build(acc);
}

Nat *nat_pow(Nat *a, Nat *b) {
  long long x, e;
  if (nat_is_const(b, &e)) {
    if (e == 0) return nat_const(1);   /* 0^0 = 1 */
    if (e < 0) return nat_node2(NAT_POW, a, b);   /* not a nat: eval fails */
    if (nat_is_const(a, &x)) {
      long long v;
      return nat_checked_pow(x, e, &v) ? nat_const(v) : nat_node2(NAT_POW, a, b);
    }
    if (e == 1) return a;
    if (e <= POW_EXPAND_MAX_EXP) return pow_expand(a, e);
    return nat_node2(NAT_POW, a, b);
  }
  if (nat_is_const(a, &x)) {
    if (x == 1) return nat_const(1);
    if (x == 0 && nat_proves_le(nat_const(1), b)) return nat_const(0);
    /* c^(e + d) = c^d * c^e: the constant part of the exponent becomes a
       coefficient, so 2^(k+1) and 2 * 2^k meet in one canonical form. */
    NatPoly p = nat_poly_normalize(nat_poly_of(b));
    long long d = p.n ? p.terms[p.n - 1].coef : 0, cd;
    if (p.n && p.terms[p.n - 1].n == 0 && d > 0 && x != 0 && nat_checked_pow(x, d, &cd)) {
      Nat *rest = nat_sub(b, nat_const(d));
      if (nat_nonneg(rest))   /* else c^rest may be undefined where c^b is not */
        return nat_mul(nat_const(cd), nat_pow(a, rest));
    }
  }
  return nat_node2(NAT_POW, a, b);
}
