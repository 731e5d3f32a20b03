/* nat_eval.c — evaluation at a point. Floor division and modulo (docs/arith.md);
   false on division by zero, a negative exponent, an unbound variable, a Σ over
   more than NAT_EVAL_SUM_MAX indices, or a result that does not fit in 64 bits —
   so callers (nat_equal's sampling) never see a wrapped value. */
#include "nat_internal.h"
#include <limits.h>

enum { NAT_EVAL_SUM_MAX = 1 << 20 };

/* Σ indices bound during evaluation, innermost first. */
typedef struct Env { NatVar *v; long long value; const struct Env *next; } Env;

typedef struct Eval { NatLookup lookup; void *ctx; } Eval;

static bool ev(Nat *e, const Env *env, const Eval *x, long long *out);

static bool ev_pow(long long a, long long b, long long *out) { return nat_checked_pow(a, b, out); }

static bool ev_sum(Nat *e, const Env *env, const Eval *x, long long *out) {
  long long from, to, acc = 0, v;
  if (!ev(e->args[0], env, x, &from) || !ev(e->args[1], env, x, &to)) return false;
  bool negative = to < from;   /* signed convention: Σ_{a}^{b-1} = -Σ_{b}^{a-1} */
  if (negative) { long long t = from; from = to; to = t; }
  if (to - from > NAT_EVAL_SUM_MAX) return false;
  for (long long k = from; k < to; k++) {
    Env inner = { e->var, k, env };
    if (!ev(e->args[2], &inner, x, &v) || __builtin_add_overflow(acc, v, &acc)) return false;
  }
  if (negative && acc == LLONG_MIN) return false;
  *out = negative ? -acc : acc;
  return true;
}

static bool ev(Nat *e, const Env *env, const Eval *x, long long *out) {
  long long a, b;
  switch (e->kind) {
  case NAT_CONST: *out = e->value; return true;
  case NAT_VAR:
    for (const Env *p = env; p; p = p->next)
      if (p->v == e->var) { *out = p->value; return true; }
    return x->lookup && x->lookup(x->ctx, e->var, out);
  case NAT_ADD: case NAT_MUL: {
    long long acc = e->kind == NAT_MUL;
    for (int i = 0; i < e->n; i++) {
      if (!ev(e->args[i], env, x, &a)) return false;
      bool over = e->kind == NAT_ADD ? __builtin_add_overflow(acc, a, &acc)
                                     : __builtin_mul_overflow(acc, a, &acc);
      if (over) return false;
    }
    *out = acc;
    return true;
  }
  case NAT_SUM: return ev_sum(e, env, x, out);
  case NAT_IF:   /* lazy: the branch not taken may be undefined */
    if (!ev(e->args[0], env, x, &a) || !ev(e->args[1], env, x, &b)) return false;
    return ev(e->args[a < b ? 2 : 3], env, x, out);
  default: break;
  }
  if (!ev(e->args[0], env, x, &a) || !ev(e->args[1], env, x, &b)) return false;
  switch (e->kind) {
  case NAT_DIV:
    if (b == 0 || (b == -1 && a == LLONG_MIN)) return false;
    *out = nat_floor_div(a, b);
    return true;
  case NAT_MOD:
    if (b == 0) return false;
    *out = nat_floor_mod(a, b);
    return true;
  case NAT_POW: return ev_pow(a, b, out);
  case NAT_MIN: *out = a < b ? a : b; return true;
  case NAT_MAX: *out = a > b ? a : b; return true;
  default: return false;
  }
}

bool nat_eval(Nat *e, NatLookup lookup, void *ctx, long long *value) {
  Eval x = { lookup, ctx };
  long long v;
  if (!ev(e, NULL, &x, &v)) return false;
  *value = v;
  return true;
}
