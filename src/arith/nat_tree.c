/* nat_tree.c — whole-tree walks: re-canonicalising a raw tree, substitution,
   variable occurrence. Σ binds its index, so walks stop at the bound variable. */
#include "nat_internal.h"

/* Raw ADD/MUL/MIN/MAX nodes may have any number of arguments; fold them pairwise. */
static Nat *fold(Nat *e, Nat *(*op)(Nat *, Nat *), Nat *(*walk)(Nat *, void *), void *ctx) {
  if (e->n == 0) return nat_const(op == nat_mul ? 1 : 0);
  Nat *acc = walk(e->args[0], ctx);
  for (int i = 1; i < e->n; i++) acc = op(acc, walk(e->args[i], ctx));
  return acc;
}

/* Rebuild e bottom-up through the constructors; walk maps each child. */
static Nat *rebuild(Nat *e, Nat *(*walk)(Nat *, void *), void *ctx) {
  switch (e->kind) {
  case NAT_CONST: case NAT_VAR: return e;
  case NAT_ADD: return fold(e, nat_add, walk, ctx);
  case NAT_MUL: return fold(e, nat_mul, walk, ctx);
  case NAT_MIN: return fold(e, nat_min, walk, ctx);
  case NAT_MAX: return fold(e, nat_max, walk, ctx);
  case NAT_DIV: return nat_div(walk(e->args[0], ctx), walk(e->args[1], ctx));
  case NAT_MOD: return nat_mod(walk(e->args[0], ctx), walk(e->args[1], ctx));
  case NAT_POW: return nat_pow(walk(e->args[0], ctx), walk(e->args[1], ctx));
  case NAT_SUM:
    return nat_sum(e->var, walk(e->args[0], ctx), walk(e->args[1], ctx), walk(e->args[2], ctx));
  case NAT_IF:
    return nat_if_lt(walk(e->args[0], ctx), walk(e->args[1], ctx),
                     walk(e->args[2], ctx), walk(e->args[3], ctx));
  }
  return e;
}

static Nat *simplify_walk(Nat *e, void *ctx) { return rebuild(e, simplify_walk, ctx); }

Nat *nat_simplify(Nat *e) { return simplify_walk(e, NULL); }

typedef struct Subst { NatVar *v; Nat *by; } Subst;

static Nat *subst_walk(Nat *e, void *ctx) {
  Subst *s = ctx;
  if (e->kind == NAT_VAR) return e->var == s->v ? s->by : e;
  if (e->kind == NAT_SUM && e->var == s->v)   /* v is rebound: only the bounds see it */
    return nat_sum(e->var, subst_walk(e->args[0], ctx), subst_walk(e->args[1], ctx), e->args[2]);
  return rebuild(e, subst_walk, ctx);
}

Nat *nat_subst(Nat *e, NatVar *v, Nat *by) {
  Subst s = { v, by };
  return subst_walk(e, &s);
}

bool nat_mentions(Nat *e, NatVar *v) {
  if (e->kind == NAT_VAR) return e->var == v;
  int n = (e->kind == NAT_SUM && e->var == v) ? 2 : e->n;
  for (int i = 0; i < n; i++)
    if (nat_mentions(e->args[i], v)) return true;
  return false;
}

typedef struct VarSet { NatVar **v; int n, cap; } VarSet;

static void collect(Nat *e, VarSet *s, NatVar **bound, int nbound) {
  if (e->kind == NAT_VAR) {
    for (int i = 0; i < nbound; i++) if (bound[i] == e->var) return;
    for (int i = 0; i < s->n; i++) if (s->v[i] == e->var) return;
    ARENA_PUSH(s->v, s->n, s->cap, e->var);
    return;
  }
  if (e->kind == NAT_SUM) {
    collect(e->args[0], s, bound, nbound);
    collect(e->args[1], s, bound, nbound);
    NatVar **inner = NEW_ARRAY(NatVar *, nbound + 1);
    for (int i = 0; i < nbound; i++) inner[i] = bound[i];
    inner[nbound] = e->var;
    collect(e->args[2], s, inner, nbound + 1);
    return;
  }
  for (int i = 0; i < e->n; i++) collect(e->args[i], s, bound, nbound);
}

int nat_free_vars(Nat *e, NatVar **out, int cap) {
  VarSet s = { NULL, 0, 0 };
  collect(e, &s, NULL, 0);
  for (int i = 0; i < s.n && i < cap; i++) out[i] = s.v[i];
  return s.n;
}

NatVar **nat_free_var_list(Nat *e, int *n) {
  VarSet s = { NULL, 0, 0 };
  collect(e, &s, NULL, 0);
  *n = s.n;
  return s.v;
}

bool nat_vars_within(Nat *e, NatVar *const *a, int na, NatVar *const *b, int nb) {
  int nv;
  NatVar **vs = nat_free_var_list(e, &nv);
  for (int i = 0; i < nv; i++) {
    bool found = false;
    for (int j = 0; j < na && !found; j++) found = a[j] == vs[i];
    for (int j = 0; j < nb && !found; j++) found = b[j] == vs[i];
    if (!found) return false;
  }
  return true;
}
