/* nat_build.c — nodes, the atom order and the canonical form: a sum of products of
   atoms with integer coefficients (SPEC §3.1, docs/arith.md). +, - and * are
   polynomial operations here; every other operator lives in its own file. */
#include "nat_internal.h"
#include <stdlib.h>
#include <string.h>

static int next_var_id = 1;

void nat_reset_var_ids(void) { next_var_id = 1; }

NatVar *nat_var_new(const char *name, Nat *lo, Nat *hi) {
  NatVar *v = NEW(NatVar);
  v->name = name;
  v->id = next_var_id++;
  v->lo = lo ? lo : nat_const(0);   /* nats: a missing lower bound is 0 */
  v->hi = hi;
  return v;
}

Nat *nat_node(NatKind kind, int n, Nat **args) {
  Nat *e = NEW(Nat);
  e->kind = kind;
  e->n = n;
  e->args = NEW_ARRAY(Nat *, n);
  if (n) memcpy(e->args, args, sizeof(Nat *) * (size_t)n);
  return e;
}

Nat *nat_node2(NatKind kind, Nat *a, Nat *b) {
  Nat *args[2] = { a, b };
  return nat_node(kind, 2, args);
}

Nat *nat_const(long long v) {
  Nat *e = NEW(Nat);
  e->kind = NAT_CONST;
  e->value = v;
  return e;
}

Nat *nat_var(NatVar *v) {
  Nat *e = NEW(Nat);
  e->kind = NAT_VAR;
  e->var = v;
  return e;
}

bool nat_is_const(Nat *e, long long *value) {
  if (e->kind != NAT_CONST) return false;
  if (value) *value = e->value;
  return true;
}

static int cmp_ll(long long a, long long b) { return (a > b) - (a < b); }

/* Kinds first (so variables come before compound atoms in a product), then
   contents; Σ atoms also by their bound variable. */
int nat_cmp(Nat *a, Nat *b) {
  if (a == b) return 0;
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  if (a->kind == NAT_CONST) return cmp_ll(a->value, b->value);
  if (a->kind == NAT_VAR) return cmp_ll(a->var->id, b->var->id);
  if (a->kind == NAT_SUM && a->var != b->var) return cmp_ll(a->var->id, b->var->id);
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (int i = 0; i < a->n; i++) {
    int c = nat_cmp(a->args[i], b->args[i]);
    if (c) return c;
  }
  return 0;
}

bool nat_same(Nat *a, Nat *b) { return nat_cmp(a, b) == 0; }

/* ---- integer helpers ---- */

long long nat_wrap_add(long long a, long long b) {
  return (long long)((unsigned long long)a + (unsigned long long)b);
}
long long nat_wrap_mul(long long a, long long b) {
  return (long long)((unsigned long long)a * (unsigned long long)b);
}

long long nat_floor_div(long long a, long long b) {
  if (b == -1) return nat_wrap_mul(a, -1);   /* LLONG_MIN / -1 would trap */
  long long q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) q--;
  return q;
}

long long nat_floor_mod(long long a, long long b) {
  if (b == -1) return 0;
  long long r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

long long nat_gcd(long long a, long long b) {
  unsigned long long x = a < 0 ? 0ull - (unsigned long long)a : (unsigned long long)a;
  unsigned long long y = b < 0 ? 0ull - (unsigned long long)b : (unsigned long long)b;
  while (y) { unsigned long long t = x % y; x = y; y = t; }
  return (long long)x;
}

bool nat_checked_pow(long long base, long long e, long long *out) {
  if (e < 0) return false;
  long long r = 1;
  for (long long i = 0; i < e; i++) {
    if (base == 0 || base == 1) { r = base == 0 ? 0 : r; break; }
    if (base == -1) { r = (e % 2) ? -1 : 1; break; }
    if (__builtin_mul_overflow(r, base, &r)) return false;
  }
  *out = r;
  return true;
}

/* ---- polynomials ---- */

static NatPoly poly_single(long long coef, int n, Nat **atoms) {
  NatPoly p = { 1, NEW(NatTerm) };
  p.terms[0].coef = coef;
  p.terms[0].n = n;
  p.terms[0].atoms = atoms;
  return p;
}

NatPoly nat_poly_of(Nat *e) {
  switch (e->kind) {
  case NAT_CONST:
    if (e->value == 0) return (NatPoly){ 0, NULL };
    return poly_single(e->value, 0, NULL);
  case NAT_ADD: {
    NatPoly acc = { 0, NULL };
    for (int i = 0; i < e->n; i++) acc = nat_poly_add(acc, nat_poly_of(e->args[i]));
    return acc;
  }
  case NAT_MUL: {
    NatPoly acc = poly_single(1, 0, NULL);
    for (int i = 0; i < e->n; i++) acc = nat_poly_mul(acc, nat_poly_of(e->args[i]));
    return acc;
  }
  default: {
    Nat **atoms = NEW_ARRAY(Nat *, 1);
    atoms[0] = e;
    return poly_single(1, 1, atoms);
  }
  }
}

NatPoly nat_poly_add(NatPoly a, NatPoly b) {
  NatPoly p = { a.n + b.n, NEW_ARRAY(NatTerm, a.n + b.n) };
  for (int i = 0; i < a.n; i++) p.terms[i] = a.terms[i];
  for (int i = 0; i < b.n; i++) p.terms[a.n + i] = b.terms[i];
  return p;
}

NatPoly nat_poly_scale(NatPoly a, long long c) {
  NatPoly p = { a.n, NEW_ARRAY(NatTerm, a.n) };
  for (int i = 0; i < a.n; i++) {
    p.terms[i] = a.terms[i];
    p.terms[i].coef = nat_wrap_mul(a.terms[i].coef, c);
  }
  return p;
}

NatPoly nat_poly_mul(NatPoly a, NatPoly b) {
  NatPoly p = { a.n * b.n, NEW_ARRAY(NatTerm, a.n * b.n) };
  int k = 0;
  for (int i = 0; i < a.n; i++)
    for (int j = 0; j < b.n; j++) {
      NatTerm *x = &a.terms[i], *y = &b.terms[j];
      NatTerm *t = &p.terms[k++];
      t->coef = nat_wrap_mul(x->coef, y->coef);
      t->n = x->n + y->n;
      t->atoms = NEW_ARRAY(Nat *, t->n);
      for (int m = 0; m < x->n; m++) t->atoms[m] = x->atoms[m];
      for (int m = 0; m < y->n; m++) t->atoms[x->n + m] = y->atoms[m];
    }
  return p;
}

/* Graded lexicographic: a monomial order, so polynomial division terminates. */
static int term_cmp(const NatTerm *a, const NatTerm *b) {
  if (a->n != b->n) return a->n > b->n ? -1 : 1;
  for (int i = 0; i < a->n; i++) {
    int c = nat_cmp(a->atoms[i], b->atoms[i]);
    if (c) return c;
  }
  return 0;
}

static int term_qsort_cmp(const void *x, const void *y) { return term_cmp(x, y); }

static void sort_atoms(Nat **atoms, int n) {
  for (int i = 1; i < n; i++) {
    Nat *x = atoms[i];
    int j = i;
    for (; j > 0 && nat_cmp(atoms[j - 1], x) > 0; j--) atoms[j] = atoms[j - 1];
    atoms[j] = x;
  }
}

/* x^a * x^b = x^(a+b): adjacent after sorting, since atoms order by base first.
   Only merged when the result is again one atom, possibly with a coefficient. */
static void merge_powers(NatTerm *t) {
  for (int i = 0; i + 1 < t->n; i++) {
    Nat *a = t->atoms[i], *b = t->atoms[i + 1];
    if (a->kind != NAT_POW || b->kind != NAT_POW || !nat_same(a->args[0], b->args[0])) continue;
    Nat *m = nat_pow(a->args[0], nat_add(a->args[1], b->args[1]));
    long long c = 1;
    if (m->kind == NAT_MUL && m->n == 2 && nat_is_const(m->args[0], &c)) m = m->args[1];
    if (m->kind != NAT_POW) continue;
    t->coef = nat_wrap_mul(t->coef, c);
    t->atoms[i] = m;
    for (int j = i + 1; j + 1 < t->n; j++) t->atoms[j] = t->atoms[j + 1];
    t->n--;
    sort_atoms(t->atoms, t->n);
    i = -1;   /* the merged atom may meet another power of the same base */
  }
}

NatPoly nat_poly_normalize(NatPoly p) {
  NatTerm *t = NEW_ARRAY(NatTerm, p.n);
  int n = 0;
  for (int i = 0; i < p.n; i++) {
    if (p.terms[i].coef == 0) continue;
    t[n] = p.terms[i];
    t[n].atoms = NEW_ARRAY(Nat *, t[n].n);
    if (t[n].n) memcpy(t[n].atoms, p.terms[i].atoms, sizeof(Nat *) * (size_t)t[n].n);
    sort_atoms(t[n].atoms, t[n].n);
    merge_powers(&t[n]);
    n++;
  }
  if (n > 1) qsort(t, (size_t)n, sizeof *t, term_qsort_cmp);
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (m > 0 && term_cmp(&t[m - 1], &t[i]) == 0)
      t[m - 1].coef = nat_wrap_add(t[m - 1].coef, t[i].coef);
    else
      t[m++] = t[i];
    if (t[m - 1].coef == 0) m--;   /* like terms cancelled */
  }
  return (NatPoly){ m, t };
}

Nat *nat_term_build(NatTerm t) {
  if (t.n == 0) return nat_const(t.coef);
  if (t.coef == 1 && t.n == 1) return t.atoms[0];
  int k = t.coef != 1, n = t.n + k;
  Nat **args = NEW_ARRAY(Nat *, n);
  if (k) args[0] = nat_const(t.coef);
  for (int i = 0; i < t.n; i++) args[k + i] = t.atoms[i];
  return nat_node(NAT_MUL, n, args);
}

/* Term t without its atom at position skip. */
static NatTerm term_without(NatTerm t, int skip) {
  NatTerm r = { t.coef, 0, NEW_ARRAY(Nat *, t.n) };
  for (int i = 0; i < t.n; i++) if (i != skip) r.atoms[r.n++] = t.atoms[i];
  return r;
}

static bool same_atoms(NatTerm a, NatTerm b) {
  if (a.n != b.n) return false;
  for (int i = 0; i < a.n; i++) if (!nat_same(a.atoms[i], b.atoms[i])) return false;
  return true;
}

/* Floor division and modulo recombine: c*k*(x/k)*A + c*(x%k)*A = c*x*A. Access
   paths produce this pair whenever a join meets a split of the same size
   (index (i/k)*k + i%k), and it must vanish for generated code to read i. */
static bool recombine_divmod(NatPoly p, NatPoly *out) {
  for (int i = 0; i < p.n; i++)
    for (int a = 0; a < p.terms[i].n; a++) {
      Nat *d = p.terms[i].atoms[a];
      long long k;
      if (d->kind != NAT_DIV || !nat_is_const(d->args[1], &k) || k <= 0 || p.terms[i].coef % k) continue;
      NatTerm rest = term_without(p.terms[i], a);
      rest.coef = p.terms[i].coef / k;
      for (int j = 0; j < p.n; j++)
        for (int b = 0; j != i && b < p.terms[j].n; b++) {
          Nat *m = p.terms[j].atoms[b];
          if (m->kind != NAT_MOD || !nat_same(m->args[0], d->args[0]) || !nat_same(m->args[1], d->args[1])) continue;
          NatTerm other = term_without(p.terms[j], b);
          if (other.coef != rest.coef || !same_atoms(rest, other)) continue;
          NatPoly q = { 0, NEW_ARRAY(NatTerm, p.n) };
          for (int t = 0; t < p.n; t++) if (t != i && t != j) q.terms[q.n++] = p.terms[t];
          *out = nat_poly_add(q, nat_poly_mul(nat_poly_of(d->args[0]), (NatPoly){ 1, &rest }));
          return true;
        }
    }
  return false;
}

Nat *nat_poly_build(NatPoly p) {
  p = nat_poly_normalize(p);
  NatPoly q;
  while (recombine_divmod(p, &q)) p = nat_poly_normalize(q);
  if (p.n == 0) return nat_const(0);
  if (p.n == 1) return nat_term_build(p.terms[0]);
  Nat **args = NEW_ARRAY(Nat *, p.n);
  for (int i = 0; i < p.n; i++) args[i] = nat_term_build(p.terms[i]);
  return nat_node(NAT_ADD, p.n, args);
}

bool nat_term_divide(NatTerm t, NatTerm d, NatTerm *q) {
  if (d.coef == 0 || t.coef % d.coef != 0 || d.n > t.n) return false;
  Nat **rest = NEW_ARRAY(Nat *, t.n);
  int i = 0, j = 0, r = 0;
  while (i < t.n) {   /* both atom lists sorted: a merge walk */
    int c = j < d.n ? nat_cmp(t.atoms[i], d.atoms[j]) : -1;
    if (c == 0) { i++; j++; }
    else if (c < 0) rest[r++] = t.atoms[i++];
    else return false;   /* d has an atom t lacks */
  }
  if (j < d.n) return false;
  q->coef = t.coef / d.coef;
  q->n = r;
  q->atoms = rest;
  return true;
}

/* ---- +, -, * ---- */

Nat *nat_add(Nat *a, Nat *b) {
  long long x, y;
  if (nat_is_const(a, &x) && nat_is_const(b, &y)) return nat_const(nat_wrap_add(x, y));
  return nat_poly_build(nat_poly_add(nat_poly_of(a), nat_poly_of(b)));
}

Nat *nat_sub(Nat *a, Nat *b) {
  return nat_poly_build(nat_poly_add(nat_poly_of(a), nat_poly_scale(nat_poly_of(b), -1)));
}

Nat *nat_mul(Nat *a, Nat *b) {
  long long x, y;
  if (nat_is_const(a, &x) && nat_is_const(b, &y)) return nat_const(nat_wrap_mul(x, y));
  return nat_poly_build(nat_poly_mul(nat_poly_of(a), nat_poly_of(b)));
}
