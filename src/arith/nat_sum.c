/* nat_sum.c — closed forms for Σ_{k=from}^{to-1} body (SPEC §3.1; seed 002 §5,
   rules (1)-(7)). Rule (4) is built in: Σ_{from}^{to-1} f = F(to) - F(from) with
   F(m) = Σ_{k=0}^{m-1} f(k); so the forms are the signed sums, and Σ with to < from
   is -Σ_{k=to}^{from-1} (nat_eval follows the same convention).
   The body is split over + (rule 6) and k-free factors pulled out (rule 5); each
   term's part in k is a power of k (Faulhaber; rules 1, 2), c^k (rule 3), or an
   `if` comparing k with a k-free bound, which is peeled (rule 7). Every closed
   part is put over one common denominator, so r*(r+1)/2 comes out exactly as
   nat_div(r*(r+1), 2) does. Anything else stays a NAT_SUM atom. */
#include "nat_internal.h"

/* F_d(m) = Σ_{k=0}^{m-1} k^d = (Σ_i coef[i] m^i) / den */
static const struct { long long den; long long coef[7]; } faulhaber[] = {
  { 1,  { 0, 1 } },
  { 2,  { 0, -1, 1 } },
  { 6,  { 0, 1, -3, 2 } },
  { 4,  { 0, 0, 1, -2, 1 } },
  { 30, { 0, -1, 0, 10, -15, 6 } },
  { 12, { 0, 0, -1, 0, 5, -6, 2 } },
};
enum { FAULHABER_MAX = 5 };

static Nat *faulhaber_num(int d, Nat *m) {
  Nat *acc = nat_const(0);
  for (int i = 6; i >= 0; i--) acc = nat_add(nat_mul(acc, m), nat_const(faulhaber[d].coef[i]));
  return acc;
}

/* A closed part: num / den, den > 0 and dividing num exactly. */
typedef struct Closed { Nat *num; long long den; } Closed;

static bool is_index(Nat *e, NatVar *k) { return e->kind == NAT_VAR && e->var == k; }

static bool closed_term(NatVar *k, Nat *from, Nat *to, Nat **inside, int n, Closed *out) {
  bool powers_of_k = n <= FAULHABER_MAX;
  for (int i = 0; i < n && powers_of_k; i++) powers_of_k = is_index(inside[i], k);
  if (powers_of_k) {
    *out = (Closed){ nat_sub(faulhaber_num(n, to), faulhaber_num(n, from)), faulhaber[n].den };
    return true;
  }
  long long c;
  if (n == 1 && inside[0]->kind == NAT_POW && nat_is_const(inside[0]->args[0], &c) && c >= 2 &&
      is_index(inside[0]->args[1], k)) {   /* Σ c^k = (c^to - c^from) / (c - 1) */
    Nat *base = inside[0]->args[0];
    *out = (Closed){ nat_sub(nat_pow(base, to), nat_pow(base, from)), c - 1 };
    return true;
  }
  return false;
}

static Nat *product(Nat **atoms, int n) {
  Nat *acc = nat_const(1);
  for (int i = 0; i < n; i++) acc = nat_mul(acc, atoms[i]);
  return acc;
}

/* An `if a < b` whose a - b = ±k + d with d free of k: returns ±1 and the first
   index where the condition flips (c for k < c, c = d+1 for k > d), else 0. */
static int linear_condition(Nat *cond, NatVar *k, Nat **split_at) {
  if (cond->kind != NAT_IF) return 0;
  NatPoly p = nat_poly_normalize(nat_poly_of(nat_sub(cond->args[0], cond->args[1])));
  int sign = 0;
  NatPoly rest = { 0, NEW_ARRAY(NatTerm, p.n) };
  for (int i = 0; i < p.n; i++) {
    NatTerm t = p.terms[i];
    if (t.n == 1 && is_index(t.atoms[0], k) && (t.coef == 1 || t.coef == -1) && !sign)
      sign = (int)t.coef;
    else if (nat_mentions(nat_term_build(t), k)) return 0;
    else rest.terms[rest.n++] = t;
  }
  Nat *d = nat_poly_build(rest);
  *split_at = sign > 0 ? nat_sub(nat_const(0), d) : nat_add(d, nat_const(1));
  return sign;
}

/* Rule (7), generalised: [from, to) splits at s = min(max(c, from), to) into the part
   where the condition holds and the part where it does not. Needs from <= to. */
static Nat *peel(NatVar *k, Nat *from, Nat *to, Nat **inside, int n) {
  for (int i = 0; i < n; i++) {
    Nat *c;
    int sign = linear_condition(inside[i], k, &c);
    if (!sign) continue;
    if (!nat_proves_le(from, to)) return NULL;
    Nat *s = nat_min(nat_max(c, from), to);
    Nat *saved = inside[i];
    Nat **with = NEW_ARRAY(Nat *, n);
    for (int j = 0; j < n; j++) with[j] = inside[j];
    with[i] = saved->args[2];
    Nat *then_body = product(with, n);
    with[i] = saved->args[3];
    Nat *else_body = product(with, n);
    Nat *below = sign > 0 ? then_body : else_body, *above = sign > 0 ? else_body : then_body;
    return nat_add(nat_sum(k, from, s, below), nat_sum(k, s, to, above));
  }
  return NULL;
}

static long long lcm(long long a, long long b) { return a / nat_gcd(a, b) * b; }

Nat *nat_sum(NatVar *k, Nat *from, Nat *to, Nat *body) {
  if (!nat_mentions(body, k)) return nat_mul(body, nat_sub(to, from));
  NatPoly p = nat_poly_normalize(nat_poly_of(body));
  Closed total = { nat_const(0), 1 };
  Nat *rest = nat_const(0);
  for (int t = 0; t < p.n; t++) {
    NatTerm term = p.terms[t];
    Nat *outside = nat_const(term.coef);
    Nat **inside = NEW_ARRAY(Nat *, term.n);
    int n = 0;
    for (int i = 0; i < term.n; i++) {
      if (nat_mentions(term.atoms[i], k)) inside[n++] = term.atoms[i];
      else outside = nat_mul(outside, term.atoms[i]);
    }
    Closed part;
    Nat *peeled;
    if (closed_term(k, from, to, inside, n, &part)) {
      long long den = lcm(total.den, part.den);
      total.num = nat_add(nat_mul(total.num, nat_const(den / total.den)),
                          nat_mul(outside, nat_mul(part.num, nat_const(den / part.den))));
      total.den = den;
    } else if ((peeled = peel(k, from, to, inside, n))) {
      rest = nat_add(rest, nat_mul(outside, peeled));
    } else {
      Nat *args[3] = { from, to, product(inside, n) };
      Nat *atom = nat_node(NAT_SUM, 3, args);
      atom->var = k;
      rest = nat_add(rest, nat_mul(outside, atom));
    }
  }
  return nat_add(nat_div(total.num, nat_const(total.den)), rest);
}
