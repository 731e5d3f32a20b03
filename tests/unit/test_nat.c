/* test_nat.c — the arithmetic module (SPEC §3.1): fixed laws, then randomized
   property laws checked against a reference evaluator written here, independent of
   nat_eval, over raw (unsimplified) trees built here, independent of the
   constructors. */
#include "arith/nat.h"
#include "check.h"
#include <string.h>

/* ---- a PRNG of our own (xorshift64*), fixed seed: runs are reproducible ---- */
#ifndef NAT_TEST_SEED   /* -DNAT_TEST_SEED=... -DNAT_TEST_SCALE=... for a longer soak */
#define NAT_TEST_SEED 0x2545F4914F6CDD1Dull
#endif
#ifndef NAT_TEST_SCALE
#define NAT_TEST_SCALE 1
#endif
static unsigned long long rng_state = NAT_TEST_SEED;
static long long rnd(long long n) {   /* uniform-ish in [0, n) */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (long long)((rng_state * 0x2545F4914F6CDD1Dull >> 11) % (unsigned long long)n);
}

/* ---- raw trees: Nat nodes made directly, no simplification ---- */
static Nat *raw(NatKind kind, int n, Nat *a, Nat *b, Nat *c, Nat *d) {
  Nat *e = NEW(Nat);
  Nat *args[4] = { a, b, c, d };
  e->kind = kind;
  e->n = n;
  e->args = NEW_ARRAY(Nat *, n);
  for (int i = 0; i < n; i++) e->args[i] = args[i];
  return e;
}
static Nat *rconst(long long v) { Nat *e = NEW(Nat); e->kind = NAT_CONST; e->value = v; return e; }
static Nat *rvar(NatVar *v) { Nat *e = NEW(Nat); e->kind = NAT_VAR; e->var = v; return e; }
static Nat *rbin(NatKind k, Nat *a, Nat *b) { return raw(k, 2, a, b, NULL, NULL); }
static Nat *rsub(Nat *a, Nat *b) { return rbin(NAT_ADD, a, rbin(NAT_MUL, rconst(-1), b)); }
static Nat *rsum(NatVar *k, Nat *from, Nat *to, Nat *body) {
  Nat *e = raw(NAT_SUM, 3, from, to, body, NULL);
  e->var = k;
  return e;
}

/* ---- reference evaluator: variables bound in a stack, Σ pushes its index ---- */
typedef struct Bind { NatVar *v; long long val; } Bind;
static Bind binds[64];
static int nbinds;

static void bind(NatVar *v, long long val) { binds[nbinds++] = (Bind){ v, val }; }
static bool ref_lookup(void *ctx, NatVar *v, long long *out) {
  (void)ctx;
  for (int i = nbinds - 1; i >= 0; i--)
    if (binds[i].v == v) { *out = binds[i].val; return true; }
  return false;
}

static long long fdiv(long long a, long long b) { long long q = a / b; return (a % b && ((a < 0) != (b < 0))) ? q - 1 : q; }
static long long fmod_(long long a, long long b) { return a - b * fdiv(a, b); }

static bool ref_eval(Nat *e, long long *out) {
  long long a, b, acc;
  switch (e->kind) {
  case NAT_CONST: *out = e->value; return true;
  case NAT_VAR: return ref_lookup(NULL, e->var, out);
  case NAT_ADD: case NAT_MUL:
    acc = e->kind == NAT_MUL;
    for (int i = 0; i < e->n; i++) {
      if (!ref_eval(e->args[i], &a)) return false;
      if (e->kind == NAT_ADD ? __builtin_add_overflow(acc, a, &acc) : __builtin_mul_overflow(acc, a, &acc)) return false;
    }
    *out = acc;
    return true;
  case NAT_SUM: {
    if (!ref_eval(e->args[0], &a) || !ref_eval(e->args[1], &b)) return false;
    long long sign = 1, s = 0, v;
    if (b < a) { long long t = a; a = b; b = t; sign = -1; }
    for (long long k = a; k < b; k++) {
      bind(e->var, k);
      bool ok = ref_eval(e->args[2], &v);
      nbinds--;
      if (!ok || __builtin_add_overflow(s, v, &s)) return false;
    }
    *out = sign * s;
    return true;
  }
  case NAT_IF:
    if (!ref_eval(e->args[0], &a) || !ref_eval(e->args[1], &b)) return false;
    return ref_eval(e->args[a < b ? 2 : 3], out);
  default: break;
  }
  if (!ref_eval(e->args[0], &a) || !ref_eval(e->args[1], &b)) return false;
  switch (e->kind) {
  case NAT_DIV: if (b == 0) return false; *out = fdiv(a, b); return true;
  case NAT_MOD: if (b == 0) return false; *out = fmod_(a, b); return true;
  case NAT_MIN: *out = a < b ? a : b; return true;
  case NAT_MAX: *out = a > b ? a : b; return true;
  case NAT_POW:
    if (b < 0) return false;
    acc = 1;
    for (long long i = 0; i < b; i++) if (__builtin_mul_overflow(acc, a, &acc)) return false;
    *out = acc;
    return true;
  default: return false;
  }
}

static bool has_kind(Nat *e, NatKind k) {
  if (e->kind == k) return true;
  for (int i = 0; i < e->n; i++) if (has_kind(e->args[i], k)) return true;
  return false;
}

static const char *c_of(Nat *e) { Buf b = { 0 }; nat_print_c(&b, e); return buf_str(&b); }

/* ---- the variables of the random laws ---- */
static NatVar *vN, *vM, *vI, *vJ, *vR, *vK, *vS;   /* vS: Σ index, [0, 4] */
static NatVar *pool[6];

static void setup_vars(void) {
  vN = nat_var_new("N", nat_const(1), NULL);
  vM = nat_var_new("M", nat_const(1), NULL);
  vI = nat_var_new("i", nat_const(0), nat_sub(nat_var(vN), nat_const(1)));
  vJ = nat_var_new("j", nat_const(0), nat_const(3));
  vR = nat_var_new("r", nat_const(2), nat_const(9));
  vK = nat_var_new("K", nat_const(0), nat_var(vM));
  vS = nat_var_new("s", nat_const(0), nat_const(4));
  NatVar *p[6] = { vN, vM, vI, vJ, vR, vK };
  memcpy(pool, p, sizeof p);
}

static void bind_random_point(void) {   /* in dependency order: i after N, K after M */
  nbinds = 0;
  long long n = 1 + rnd(12), m = 1 + rnd(12);
  bind(vN, n); bind(vM, m); bind(vI, rnd(n)); bind(vJ, rnd(4)); bind(vR, 2 + rnd(8));
  bind(vK, rnd(m + 1));
}

static Nat *divisor(void) {   /* never zero: a positive constant or var + 1 */
  if (rnd(2)) return rconst(1 + rnd(7));
  return rbin(NAT_ADD, rvar(pool[rnd(6)]), rconst(1));
}

static Nat *gen(int depth, bool in_sum) {
  int choice = depth <= 0 ? (int)rnd(3) : (int)rnd(15);
  switch (choice) {
  case 0: return rconst(rnd(10));
  case 1: case 2:
    if (in_sum && rnd(2)) return rvar(vS);
    return rvar(pool[rnd(6)]);
  case 3: return rbin(NAT_ADD, gen(depth - 1, in_sum), gen(depth - 1, in_sum));
  case 4: return rsub(gen(depth - 1, in_sum), gen(depth - 1, in_sum));
  case 5: return rbin(NAT_MUL, gen(depth - 1, in_sum), gen(depth - 1, in_sum));
  case 6: return rbin(NAT_DIV, gen(depth - 1, in_sum), divisor());
  case 7: return rbin(NAT_MOD, gen(depth - 1, in_sum), divisor());
  case 8: return rbin(NAT_POW, gen(depth - 2, in_sum), rconst(rnd(4)));
  case 9: return rbin(NAT_POW, rconst(2), rnd(2) ? rvar(rnd(2) ? vJ : vR) : rbin(NAT_ADD, rvar(vJ), rconst(rnd(3))));
  case 10: return rbin(NAT_MIN, gen(depth - 1, in_sum), gen(depth - 1, in_sum));
  case 11: return rbin(NAT_MAX, gen(depth - 1, in_sum), gen(depth - 1, in_sum));
  case 12: return raw(NAT_IF, 4, gen(depth - 2, in_sum), gen(depth - 2, in_sum),
                      gen(depth - 1, in_sum), gen(depth - 1, in_sum));
  case 13:
    if (in_sum) return gen(depth - 1, in_sum);
    return rsum(vS, rconst(rnd(2)), rnd(2) ? rconst(rnd(6)) : rbin(NAT_ADD, rvar(vJ), rconst(1)),
                gen(depth - 1, true));
  default: return rbin(NAT_MUL, rconst(rnd(5) - 1), gen(depth - 1, in_sum));
  }
}

/* ---------------------------------------------------------------------------- */

static void test_fixed_laws(void) {
  NatVar *N = nat_var_new("N", nat_const(1), NULL), *M = nat_var_new("M", nat_const(1), NULL);
  NatVar *n = nat_var_new("n", nat_const(1), NULL);
  NatVar *i = nat_var_new("i", nat_const(0), nat_sub(nat_var(n), nat_const(1)));
  NatVar *j = nat_var_new("j", nat_const(0), nat_const(3));
  Nat *eN = nat_var(N), *eM = nat_var(M), *en = nat_var(n), *ei = nat_var(i), *ej = nat_var(j);

  Nat *e = nat_div(nat_mul(nat_const(2), eN), nat_const(2));
  CHECK(nat_same(e, eN) && nat_equal(e, eN), "2*N/2 = N, got %s", nat_to_string(e));
  e = nat_div(nat_mul(eN, eM), eM);
  CHECK(nat_same(e, eN) && nat_equal(e, eN), "(N*M)/M = N, got %s", nat_to_string(e));
  CHECK(!nat_equal(nat_add(eN, nat_const(1)), eN), "N+1 != N");
  /* join of a split: (i/k)*k + i%k = i, also under a common factor */
  e = nat_add(nat_mul(nat_div(ei, nat_const(128)), nat_const(128)), nat_mod(ei, nat_const(128)));
  CHECK(nat_same(e, ei), "(i/128)*128 + i%%128 = i, got %s", nat_to_string(e));
  e = nat_add(nat_mul(nat_mul(nat_div(ei, nat_const(4)), nat_const(12)), eM), nat_mul(nat_mul(nat_const(3), eM), nat_mod(ei, nat_const(4))));
  CHECK(nat_same(e, nat_mul(nat_mul(nat_const(3), eM), ei)), "12M(i/4) + 3M(i%%4) = 3Mi, got %s", nat_to_string(e));
  e = nat_add(nat_mul(nat_div(ei, nat_const(4)), nat_const(4)), nat_mod(ei, nat_const(8)));
  CHECK(!nat_same(e, ei) && !nat_equal(e, ei), "(i/4)*4 + i%%8 is not i, got %s", nat_to_string(e));
  CHECK(nat_equal(nat_add(eN, eM), nat_add(eM, eN)), "N+M = M+N");
  CHECK(nat_same(nat_sub(eN, eN), nat_const(0)), "N-N = 0");

  /* the offset of row r in [i -> [T](i+1)]n */
  NatVar *r = nat_var_new("r", nat_const(0), NULL);
  NatVar *k = nat_var_new("k", nat_const(0), nat_sub(nat_var(r), nat_const(1)));
  Nat *er = nat_var(r), *ek = nat_var(k);
  Nat *s = nat_sum(k, nat_const(0), er, nat_add(ek, nat_const(1)));
  Nat *h = nat_div(nat_mul(er, nat_add(er, nat_const(1))), nat_const(2));
  CHECK(nat_equal(s, h), "Σ(k+1) = r(r+1)/2, got %s", nat_to_string(s));
  CHECK(!has_kind(s, NAT_SUM), "no Σ left: %s", nat_to_string(s));
  CHECK(nat_same(s, h), "Σ(k+1) is r(r+1)/2 structurally: %s vs %s", nat_to_string(s), nat_to_string(h));
  CHECK(!strcmp(c_of(s), "(r + 1) * r / 2"), "print %s", c_of(s));

  Nat *four_i_j = nat_add(nat_mul(nat_const(4), ei), ej);
  e = nat_div(four_i_j, nat_const(4));
  CHECK(nat_same(e, ei), "(4i+j)/4 = i, got %s", nat_to_string(e));
  e = nat_mod(four_i_j, nat_const(4));
  CHECK(nat_same(e, ej), "(4i+j)%%4 = j, got %s", nat_to_string(e));
  e = nat_div(nat_add(four_i_j, nat_const(5)), nat_const(4));
  CHECK(nat_same(e, nat_add(ei, nat_const(1))) == false && nat_equal(e, nat_add(ei, nat_div(nat_add(ej, nat_const(5)), nat_const(4)))),
        "(4i+j+5)/4 = i + (j+5)/4: %s", nat_to_string(e));
  CHECK(nat_same(nat_div(eN, nat_const(1)), eN), "x/1 = x");
  CHECK(nat_same(nat_mod(eN, nat_const(1)), nat_const(0)), "x%%1 = 0");
  CHECK(nat_same(nat_div(nat_mul(eN, eM), eN), eM), "(x*y)/x = y");
  CHECK(nat_same(nat_div(nat_const(-7), nat_const(2)), nat_const(-4)), "floor(-7/2) = -4");
  CHECK(nat_same(nat_mod(nat_const(-7), nat_const(2)), nat_const(1)), "-7 mod 2 = 1");
  CHECK(nat_same(nat_pow(nat_const(3), nat_const(4)), nat_const(81)), "3^4 = 81");
  CHECK(nat_same(nat_div(nat_div(eN, nat_const(2)), nat_const(3)), nat_div(eN, nat_const(6))), "N/2/3 = N/6");
  Nat *two = nat_const(2);
  CHECK(nat_same(nat_mul(nat_pow(two, eN), nat_pow(two, eM)), nat_pow(two, nat_add(eN, eM))), "2^N * 2^M = 2^(N+M)");
  CHECK(nat_same(nat_mul(nat_pow(two, eN), nat_pow(two, eN)), nat_pow(two, nat_mul(two, eN))), "2^N * 2^N = 2^(2N)");
  CHECK(nat_same(nat_pow(two, nat_add(eN, nat_const(3))), nat_mul(nat_const(8), nat_pow(two, eN))), "2^(N+3) = 8 * 2^N");
  CHECK(nat_equal(nat_div(nat_pow(two, nat_add(eN, eM)), nat_pow(two, eM)), nat_pow(two, eN)), "2^(N+M) / 2^M = 2^N");
  CHECK(nat_same(nat_mod(nat_mul(nat_const(2), eN), nat_const(4)),
                 nat_mul(nat_const(2), nat_mod(eN, nat_const(2)))), "2N %% 4 = 2 (N %% 2)");

  CHECK(nat_proves_lt(ei, en), "i in [0,n-1] proves i < n");
  CHECK(nat_proves_le(ei, nat_sub(en, nat_const(1))), "i <= n-1");
  CHECK(!nat_proves_lt(ei, nat_sub(en, nat_const(1))), "i < n-1 is not provable");
  CHECK(nat_proves_lt(ej, nat_const(4)), "j in [0,3] proves j < 4");
  CHECK(!nat_proves_lt(ej, nat_const(3)), "j < 3 is not provable");
  CHECK(nat_proves_le(nat_const(1), eN), "1 <= N");
  CHECK(nat_same(nat_if_lt(ei, en, eN, eM), eN), "if i < n resolves to then");
  CHECK(nat_same(nat_if_lt(en, ei, eN, eM), eM), "if n < i resolves to else");
  CHECK(nat_if_lt(ei, nat_const(2), eN, eM)->kind == NAT_IF, "if i < 2 stays");
  CHECK(nat_same(nat_min(ei, en), ei), "min(i, n) = i");
  CHECK(nat_same(nat_max(ej, nat_const(3)), nat_const(3)), "max(j, 3) = 3");
  Nat *mx = nat_max_of(ei);
  CHECK(mx && nat_same(mx, nat_sub(en, nat_const(1))), "max_of(i) = n-1, got %s", mx ? nat_to_string(mx) : "NULL");
  CHECK(nat_max_of(eN) == NULL, "N is unbounded");
  CHECK(nat_same(nat_min_of(eN), nat_const(1)), "min_of(N) = 1");
  mx = nat_max_of(nat_mod(eN, nat_const(8)));
  CHECK(mx && nat_same(mx, nat_const(7)), "max_of(N %% 8) = 7");

  /* Σ_{k<n} 2^k = 2^n - 1 */
  NatVar *k2 = nat_var_new("k", nat_const(0), nat_sub(en, nat_const(1)));
  s = nat_sum(k2, nat_const(0), en, nat_pow(nat_const(2), nat_var(k2)));
  h = nat_sub(nat_pow(nat_const(2), en), nat_const(1));
  CHECK(nat_same(s, h) && nat_equal(s, h), "Σ 2^k = 2^n - 1, got %s", nat_to_string(s));
  CHECK(!strcmp(c_of(s), "(1 << n) - 1"), "print %s", c_of(s));

  /* case split: Σ_{k=0}^{n-1} (if k < 1 then a else b) = a + Σ_{k=1}^{n-1} b, n >= 1 */
  NatVar *A = nat_var_new("a", nat_const(0), NULL), *B = nat_var_new("b", nat_const(0), NULL);
  NatVar *k3 = nat_var_new("k", nat_const(0), nat_sub(en, nat_const(1)));
  Nat *cond = nat_if_lt(nat_var(k3), nat_const(1), nat_var(A), nat_var(B));
  CHECK(cond->kind == NAT_IF, "the case split stays an if");
  s = nat_sum(k3, nat_const(0), en, cond);
  h = nat_add(nat_var(A), nat_mul(nat_var(B), nat_sub(en, nat_const(1))));
  CHECK(nat_same(s, h), "peeled: %s", nat_to_string(s));
  /* seed 002's s_1: Σ_{k=0}^{i-1} s_0(k) with s_0(k) = 2 if k = 0 else 1 */
  NatVar *k4 = nat_var_new("k", nat_const(0), NULL);
  s = nat_sum(k4, nat_const(0), ei, nat_if_lt(nat_var(k4), nat_const(1), nat_const(2), nat_const(1)));
  CHECK(!has_kind(s, NAT_SUM) && nat_equal(s, nat_add(ei, nat_min(ei, nat_const(1)))), "s_1: %s", nat_to_string(s));
  /* k > 2 peels too */
  s = nat_sum(k4, nat_const(0), en, nat_if_lt(nat_const(2), nat_var(k4), nat_var(k4), nat_const(0)));
  CHECK(!has_kind(s, NAT_SUM), "peel c < k: %s", nat_to_string(s));
  /* no closed form: Σ k / 2 stays a Σ */
  s = nat_sum(k4, nat_const(0), en, nat_div(nat_var(k4), nat_const(2)));
  CHECK(s->kind == NAT_SUM, "Σ k/2 stays: %s", nat_to_string(s));
  CHECK(!nat_mentions(s, k4) && nat_mentions(s, n), "the Σ index is bound");

  /* printing */
  CHECK(!strcmp(c_of(nat_div(eN, nat_const(2))), "N / 2"), "%s", c_of(nat_div(eN, nat_const(2))));
  CHECK(!strcmp(c_of(nat_mul(nat_add(eN, nat_const(1)), eM)), "(N + 1) * M"), "%s", c_of(nat_mul(nat_add(eN, nat_const(1)), eM)));
  CHECK(!strcmp(c_of(four_i_j), "i * 4 + j"), "%s", c_of(four_i_j));
  CHECK(!strcmp(c_of(nat_sub(eN, nat_const(1))), "N - 1"), "%s", c_of(nat_sub(eN, nat_const(1))));
  CHECK(!strcmp(c_of(nat_sub(nat_const(1), eN)), "1 - N"), "%s", c_of(nat_sub(nat_const(1), eN)));
  CHECK(!strcmp(c_of(nat_sub(eN, nat_mul(nat_const(2), eM))), "N - M * 2"), "%s", c_of(nat_sub(eN, nat_mul(nat_const(2), eM))));
  CHECK(!strcmp(c_of(nat_div(nat_add(eN, nat_const(1)), nat_add(eM, nat_const(2)))), "(N + 1) / (M + 2)"), "%s",
        c_of(nat_div(nat_add(eN, nat_const(1)), nat_add(eM, nat_const(2)))));
  e = nat_mul(eM, nat_div(eN, nat_const(2)));
  CHECK(!strcmp(c_of(e), "M * (N / 2)"), "%s", c_of(e));
  CHECK(!strcmp(c_of(nat_pow(nat_const(2), ej)), "(1 << j)"), "%s", c_of(nat_pow(nat_const(2), ej)));
  CHECK(!strcmp(c_of(nat_pow(nat_const(2), nat_add(ej, en))), "(1 << (n + j))"), "%s", c_of(nat_pow(nat_const(2), nat_add(ej, en))));
  CHECK(!strcmp(c_of(nat_pow(eN, eM)), "clift_pow(N, M)"), "%s", c_of(nat_pow(eN, eM)));
  CHECK(!strcmp(c_of(rbin(NAT_POW, rbin(NAT_ADD, eN, rconst(1)), rconst(3))), "(N + 1) * (N + 1) * (N + 1)"), "%s",
        c_of(rbin(NAT_POW, rbin(NAT_ADD, eN, rconst(1)), rconst(3))));
  CHECK(!strcmp(c_of(nat_min(eN, eM)), "min(N, M)"), "%s", c_of(nat_min(eN, eM)));
  CHECK(!strcmp(c_of(nat_max(eN, nat_add(eM, nat_const(1)))), "max(N, M + 1)"), "%s", c_of(nat_max(eN, nat_add(eM, nat_const(1)))));
  CHECK(!strcmp(c_of(nat_if_lt(ei, nat_const(2), eN, eM)), "(i < 2 ? N : M)"), "%s", c_of(nat_if_lt(ei, nat_const(2), eN, eM)));
  CHECK(!strcmp(c_of(nat_mod(nat_add(ei, eN), nat_const(3))), "(N + i) % 3"), "%s", c_of(nat_mod(nat_add(ei, eN), nat_const(3))));
  e = nat_add(nat_mul(nat_mul(ei, eM), eN), nat_mul(ej, eN));
  CHECK(!strcmp(c_of(e), "(M * i + j) * N"), "%s", c_of(e));
  CHECK(!strcmp(nat_to_string(nat_add(eN, nat_mul(nat_const(2), eM))), "(+ N (* 2 M))"), "%s",
        nat_to_string(nat_add(eN, nat_mul(nat_const(2), eM))));
  CHECK(!strcmp(nat_to_string(nat_div(eN, nat_const(2))), "(/ N 2)"), "%s", nat_to_string(nat_div(eN, nat_const(2))));
  CHECK(!strcmp(nat_to_string(nat_sub(eN, nat_const(1))), "(+ N -1)"), "%s", nat_to_string(nat_sub(eN, nat_const(1))));

  /* evaluation, substitution, free variables */
  long long v;
  nbinds = 0;
  bind(N, 7);
  CHECK(nat_eval(nat_div(nat_sub(nat_const(0), eN), nat_const(2)), ref_lookup, NULL, &v) && v == -4, "floor(-7/2) = %lld", v);
  CHECK(!nat_eval(rbin(NAT_DIV, eN, rconst(0)), ref_lookup, NULL, &v), "division by zero fails");
  CHECK(!nat_eval(rbin(NAT_MOD, eN, rsub(eN, eN)), ref_lookup, NULL, &v), "mod by zero fails");
  CHECK(!nat_eval(eM, ref_lookup, NULL, &v), "unbound variable fails");
  e = nat_subst(nat_add(eN, nat_mul(eM, eM)), M, nat_add(eN, nat_const(1)));
  CHECK(nat_same(e, nat_add(nat_mul(eN, eN), nat_add(nat_mul(nat_const(3), eN), nat_const(1)))), "subst: %s", nat_to_string(e));
  NatVar *fv[4];
  CHECK(nat_free_vars(s, fv, 4) == 1 && fv[0] == n, "free vars of Σ");
  CHECK(nat_simplify(rbin(NAT_ADD, rbin(NAT_MUL, eN, rconst(2)), rsub(eN, eN)))->kind == NAT_MUL, "simplify raw");
}

/* Law 1: nat_simplify preserves values (and nat_eval agrees with the reference). */
static void law_simplify_preserves_value(void) {
  int cases = 0, points = 0, bad = 0;
  while (cases < 12000 * NAT_TEST_SCALE) {
    ArenaMark mark = arena_mark();
    Nat *r = gen(4, false), *s = nat_simplify(r);
    cases++;
    for (int p = 0; p < 4; p++) {
      bind_random_point();
      long long want, got, got_raw;
      if (!ref_eval(r, &want)) continue;   /* overflow on this tree */
      points++;
      bool ok = nat_eval(s, ref_lookup, NULL, &got) && got == want &&
                nat_eval(r, ref_lookup, NULL, &got_raw) && got_raw == want;
      if (!ok && bad++ < 5)
        CHECK(ok, "simplify changed a value: raw %s = %lld, simplified %s", nat_to_string(r), want, nat_to_string(s));
    }
    arena_release(mark);
  }
  CHECK(bad == 0, "law 1: %d of %d points differ", bad, points);
  CHECK(points >= 30000, "law 1 evaluated only %d points", points);
  printf("law 1 (simplify preserves value): %d trees, %d points\n", cases, points);
}

/* Law 2: nat_min_of(e) <= e <= nat_max_of(e) pointwise. */
static void law_bounds_hold(void) {
  int cases = 0, points = 0, bad = 0, bounded = 0, undefined = 0;
  while (cases < 12000 * NAT_TEST_SCALE) {
    ArenaMark mark = arena_mark();
    Nat *e = nat_simplify(gen(4, false));
    Nat *lo = nat_min_of(e), *hi = nat_max_of(e);
    cases++;
    bounded += lo != NULL && hi != NULL;
    for (int p = 0; p < 4; p++) {
      bind_random_point();
      long long v, l, h;
      if (!ref_eval(e, &v)) continue;
      points++;
      bool ok = true;
      if (lo && ref_eval(lo, &l)) ok &= l <= v;
      else undefined += lo != NULL;
      if (hi && ref_eval(hi, &h)) ok &= v <= h;
      else undefined += hi != NULL;
      if (!ok && bad++ < 5)
        CHECK(ok, "bounds fail for %s = %lld: [%s, %s]", nat_to_string(e), v,
              lo ? nat_to_string(lo) : "-inf", hi ? nat_to_string(hi) : "inf");
    }
    arena_release(mark);
  }
  CHECK(bad == 0, "law 2: %d of %d points out of bounds", bad, points);
  CHECK(undefined < points / 100, "law 2: %d bounds could not be evaluated", undefined);
  CHECK(bounded > cases / 4, "law 2: only %d of %d expressions bounded both sides", bounded, cases);
  printf("law 2 (range bounds hold): %d expressions (%d bounded both sides), %d points\n", cases, bounded, points);
}

static Nat *random_poly_in(NatVar *k, NatVar *outer) {
  Nat *body = nat_const(0), *ek = nat_var(k);
  for (int d = 0; d <= 3; d++) {
    Nat *term = nat_mul(nat_const(rnd(7) - 3), nat_pow(ek, nat_const(d)));
    if (rnd(3) == 0) term = nat_mul(term, nat_var(outer));
    body = nat_add(body, term);
  }
  if (rnd(3) == 0) body = nat_add(body, nat_mul(nat_const(rnd(3) + 1), nat_pow(nat_const(2 + rnd(2)), ek)));
  return body;
}

/* Law 3: Σ closed forms equal explicit summation. */
static void law_sum_closed_forms(void) {
  NatVar *A = nat_var_new("A", nat_const(0), nat_const(5)), *Bv = nat_var_new("B", nat_const(0), nat_const(6));
  int cases = 0, points = 0, bad = 0, left = 0;
  while (cases < 12000 * NAT_TEST_SCALE) {
    ArenaMark mark = arena_mark();
    Nat *from = rnd(3) == 0 ? nat_const(rnd(4)) : nat_add(nat_var(A), nat_const(rnd(2)));
    Nat *to = nat_add(from, rnd(2) ? nat_const(rnd(7)) : nat_var(Bv));
    NatVar *k = nat_var_new("k", from, nat_sub(to, nat_const(1)));
    Nat *body = random_poly_in(k, vN);
    if (rnd(3) == 0) {   /* a case split to peel */
      Nat *c = rnd(2) ? nat_const(rnd(6)) : nat_add(nat_var(A), nat_const(rnd(3)));
      Nat *t = random_poly_in(k, vN), *f = random_poly_in(k, vN);
      body = nat_add(body, rnd(2) ? nat_if_lt(nat_var(k), c, t, f) : nat_if_lt(c, nat_var(k), t, f));
    }
    Nat *s = nat_sum(k, from, to, body);
    cases++;
    if (has_kind(s, NAT_SUM) && left++ < 3) CHECK(false, "Σ left in %s", nat_to_string(s));
    for (int p = 0; p < 3; p++) {
      nbinds = 0;
      bind(vN, 1 + rnd(6)); bind(A, rnd(6)); bind(Bv, rnd(7));
      long long f0, t0, want = 0, v, got;
      bool ok = ref_eval(from, &f0) && ref_eval(to, &t0);
      for (long long x = f0; ok && x < t0; x++) {
        bind(k, x);
        ok = ref_eval(body, &v);
        nbinds--;
        want += v;
      }
      if (!ok) continue;
      points++;
      if ((!ref_eval(s, &got) || got != want) && bad++ < 5)
        CHECK(false, "Σ_{k=%s}^{%s-1} %s: closed form %s gives %lld, want %lld", nat_to_string(from),
              nat_to_string(to), nat_to_string(body), nat_to_string(s), got, want);
    }
    arena_release(mark);
  }
  CHECK(bad == 0 && left == 0, "law 3: %d wrong points, %d Σ left", bad, left);
  printf("law 3 (Σ closed forms): %d sums, %d points\n", cases, points);
}

/* Law 4: nat_equal is reflexive and agrees with evaluation. */
static void law_equal_agrees(void) {
  int cases = 0, differing = 0, bad = 0;
  while (cases < 10000 * NAT_TEST_SCALE) {
    ArenaMark mark = arena_mark();
    Nat *r1 = gen(3, false), *e1 = nat_simplify(r1), *e2 = nat_simplify(gen(3, false));
    cases++;
    bool ok = nat_equal(e1, e1) && nat_equal(r1, e1) && !nat_equal(e1, nat_add(e1, nat_const(1)));
    if (!ok && bad++ < 5) CHECK(ok, "reflexivity / N+1 for %s", nat_to_string(e1));
    bool differ = false;
    for (int p = 0; p < 8 && !differ; p++) {
      bind_random_point();
      long long x, y;
      differ = ref_eval(e1, &x) && ref_eval(e2, &y) && x != y;
    }
    if (differ) {
      differing++;
      if (nat_equal(e1, e2) && bad++ < 5)
        CHECK(false, "nat_equal(%s, %s) but they differ", nat_to_string(e1), nat_to_string(e2));
    }
    arena_release(mark);
  }
  CHECK(bad == 0, "law 4: %d failures", bad);
  printf("law 4 (equality): %d pairs, %d differing pairs\n", cases, differing);
}

/* Equality by sampling sets every free variable, however many there are (a
   point of at most 64 variables left the 65th unset: no point evaluated, and
   min(X, Y) + max(X, Y) = X + Y was denied). */
static void test_equal_many_vars(void) {
  Nat *x = nat_const(0), *y = nat_var(nat_var_new("y64", nat_const(1), NULL));
  for (int k = 0; k < 64; k++) x = nat_add(x, nat_var(nat_var_new(arena_printf("x%d", k), nat_const(1), NULL)));
  int n = nat_free_vars(nat_add(x, y), NULL, 0);
  CHECK(n == 65, "65 free variables, got %d", n);
  CHECK(nat_equal(nat_add(nat_min(x, y), nat_max(x, y)), nat_add(x, y)), "min + max = sum over 65 variables");
  CHECK(!nat_equal(nat_add(nat_min(x, y), nat_max(x, y)), nat_add(x, nat_mul(y, nat_const(2)))),
        "min + max != x + 2y over 65 variables");
}

static bool binding_lookup(void *ctx, NatVar *v, long long *value) {
  for (NatBinding *b = ctx; b; b = b->next) if (b->var == v) { *value = b->value; return true; }
  return false;
}

/* Position-dependent arrays (SPEC §3.5, seed 002): the row offsets of an upper
   triangle and the Σ of a partition's case split, in closed form. */
static void test_position_dependent_sums(void) {
  NatVar *n = nat_var_new("N", nat_const(1), NULL);
  NatVar *r = nat_var_new("r", nat_const(0), nat_var(n));
  NatVar *k = nat_var_new("k", nat_const(0), NULL);
  Nat *eN = nat_var(n), *er = nat_var(r), *ek = nat_var(k);
  /* upper triangle [i -> [T](N - i)]N: row r starts at Σ_{k<r}(N-k) = r*N - r*(r-1)/2 */
  Nat *s = nat_sum(k, nat_const(0), er, nat_sub(eN, ek));
  Nat *h = nat_sub(nat_mul(er, eN), nat_div(nat_mul(er, nat_sub(er, nat_const(1))), nat_const(2)));
  CHECK(!has_kind(s, NAT_SUM), "upper offset has a closed form: %s", nat_to_string(s));
  CHECK(nat_equal(s, h), "Σ_{k<r}(N-k) = r*N - r*(r-1)/2, got %s", nat_to_string(s));
  /* (two canonical forms: r*N - r*r + (r*r + r)/2 and r*N + r - (r*r + r)/2; the
     floor divisions do not merge, so equality is checked at points too) */
  for (long long nv = 1; nv <= 9; nv++)
    for (long long rv = 0; rv <= nv; rv++) {
      NatBinding bn = { n, nv, NULL }, br = { r, rv, &bn };
      long long got, want = rv * nv - rv * (rv - 1) / 2;
      CHECK(nat_eval(s, binding_lookup, &br, &got) && got == want, "offset of row %lld at N = %lld: %lld, want %lld", rv, nv, got, want);
    }
  /* its join: Σ_{k<N}(N-k) = N(N+1)/2 */
  s = nat_sum(k, nat_const(0), eN, nat_sub(eN, ek));
  h = nat_div(nat_mul(eN, nat_add(eN, nat_const(1))), nat_const(2));
  CHECK(!has_kind(s, NAT_SUM) && nat_same(s, h), "Σ_{k<N}(N-k) = N(N+1)/2, got %s", nat_to_string(s));
  /* (case-split 1 (- N 2) 1): Σ over the three parts is N again, exactly */
  Nat *cs = nat_if_lt(ek, nat_const(1), nat_const(1),
                      nat_if_lt(ek, nat_const(2), nat_sub(eN, nat_const(2)), nat_const(1)));
  s = nat_sum(k, nat_const(0), nat_const(3), cs);
  CHECK(nat_same(s, eN), "Σ of (case-split 1 (- N 2) 1) = N, got %s", nat_to_string(s));
  /* symbolic borders: (case-split l (- N (+ l r)) r) */
  NatVar *L = nat_var_new("l", nat_const(0), NULL), *R = nat_var_new("rr", nat_const(0), NULL);
  cs = nat_if_lt(ek, nat_const(1), nat_var(L),
                 nat_if_lt(ek, nat_const(2), nat_sub(eN, nat_add(nat_var(L), nat_var(R))), nat_var(R)));
  s = nat_sum(k, nat_const(0), nat_const(3), cs);
  CHECK(nat_same(s, eN), "Σ of (case-split l (- N (+ l r)) r) = N, got %s", nat_to_string(s));
  /* a part's offset: Σ_{k<2} of the split is 1 + (N - 2) = N - 1 */
  s = nat_sum(k, nat_const(0), nat_const(2), nat_if_lt(ek, nat_const(1), nat_const(1),
                      nat_if_lt(ek, nat_const(2), nat_sub(eN, nat_const(2)), nat_const(1))));
  CHECK(nat_same(s, nat_sub(eN, nat_const(1))), "offset of the last part: %s", nat_to_string(s));
  /* a nat-fn partition into a triangle: Σ_{k<N}(k+1) = N(N+1)/2 */
  s = nat_sum(k, nat_const(0), eN, nat_add(ek, nat_const(1)));
  CHECK(nat_same(s, h), "Σ_{k<N}(k+1) = N(N+1)/2, got %s", nat_to_string(s));
}

/* a - k·⌊a/k⌋ = a mod k lies in [0, k-1] (k > 0): the full tiles of a
   top-level reduce, tiles [0, N/C), lie inside the input (dpia/tiles.c) */
static void test_floor_remainder(void) {
  Nat *eN = nat_var(vN), *C = nat_const(16384), *full = nat_div(eN, C);
  Nat *rem = nat_sub(eN, nat_mul(C, full));
  CHECK(nat_proves_le(nat_const(0), rem), "0 <= N - 16384 (N / 16384)");
  CHECK(!nat_proves_lt(nat_const(0), rem), "0 < N - 16384 (N / 16384) is not provable");
  Nat *mx = nat_max_of(rem);
  CHECK(mx && nat_same(mx, nat_const(16383)), "max_of(N - 16384 (N / 16384)) = 16383, got %s",
        mx ? nat_to_string(mx) : "NULL");
  NatVar *wid = nat_var_new("wid", nat_const(0), nat_sub(full, nat_const(1)));
  NatVar *lid = nat_var_new("lid", nat_const(0), nat_const(255)), *i = nat_var_new("i", nat_const(0), nat_const(63));
  Nat *at = nat_add(nat_add(nat_mul(nat_var(wid), C), nat_var(lid)), nat_mul(nat_var(i), nat_const(256)));
  CHECK(nat_proves_lt(at, eN), "wid in [0, N/16384 - 1] proves wid*16384 + lid + 256 i < N");
  CHECK(!nat_proves_lt(nat_add(at, nat_const(1)), eN), "... + 1 < N is not provable");
  /* a length L <= N known only at run time (a filter's): L - 16384·⌊L/16384⌋ >= 0,
     though the terms alone give -16384·⌊N/16384⌋ */
  NatVar *L = nat_var_new("L", nat_const(0), eN);
  Nat *eL = nat_var(L);
  CHECK(nat_proves_le(nat_mul(C, nat_div(eL, C)), eL), "16384 (L / 16384) <= L, L in [0, N]");
  /* 2N - 2·4·⌊N/4⌋ = 2 (N mod 4) <= 6; with M beside it */
  Nat *two = nat_add(nat_sub(nat_mul(nat_const(2), eN), nat_mul(nat_const(8), nat_div(eN, nat_const(4)))), nat_var(vM));
  CHECK(nat_proves_le(nat_var(vM), two), "M <= M + 2N - 8 (N / 4)");
}

int main(void) {
  setup_vars();
  test_floor_remainder();
  test_equal_many_vars();
  test_fixed_laws();
  test_position_dependent_sums();
  law_simplify_preserves_value();
  law_bounds_hold();
  law_sum_closed_forms();
  law_equal_agrees();
  return CHECK_DONE("nat");
}
