/* check.c — TAIL's type system (docs/apl.md §2.3; seed 003, rules 3.1–3.26).
   Programs are closed, so every rank and length is an integer once an
   operation's arguments are known: an operation's scheme is instantiated with
   fresh variables that its arguments fix, left to right (rule 3.26, subtyping
   3.21 at argument positions only). */
#include "tail.h"
#include <string.h>

typedef struct Env { const char *name; TType *type; struct Env *next; } Env;

/* ---- one instance of a scheme: variables 1..8 ---- */
enum { NVARS = 9, NDEFER = 8 };
typedef struct Inst {
  TBase base[NVARS];          /* TB_NONE: unbound */
  bool set[NVARS];
  long long shape[NVARS];
  TShape defl[NDEFER], defr[NDEFER];   /* l = r, each side with two unknowns */
  int ndefer;
} Inst;

/* s with its bound variables replaced: constant c, unknown variables u[0..*nu-1] */
static long long shape_eval(Inst *I, TShape s, int *u, int *nu) {
  long long c = s.c;
  *nu = 0;
  int vars[2] = { s.v1, s.v2 };
  for (int i = 0; i < 2; i++) {
    if (!vars[i]) continue;
    if (I->set[vars[i]]) c += I->shape[vars[i]]; else u[(*nu)++] = vars[i];
  }
  return c;
}

/* a = b; ranks and lengths (nonneg) may not come out negative */
static bool shape_eq(Inst *I, TShape a, TShape b, bool nonneg) {
  int ua[2], ub[2], na, nb;
  long long ca = shape_eval(I, a, ua, &na), cb = shape_eval(I, b, ub, &nb);
  if (!na && !nb) return ca == cb;
  if ((na && nb) || na + nb > 1) {
    if (I->ndefer == NDEFER) return false;
    I->defl[I->ndefer] = a; I->defr[I->ndefer++] = b;
    return true;
  }
  int v = na ? ua[0] : ub[0];
  long long value = na ? cb - ca : ca - cb;
  if (nonneg && value < 0) return false;
  I->set[v] = true; I->shape[v] = value;
  return true;
}

/* The deferred equations, until none is left or none progresses. */
static bool solve_deferred(Inst *I) {
  for (int round = 0; I->ndefer && round < NDEFER; round++) {
    int n = I->ndefer;
    TShape l[NDEFER], r[NDEFER];
    memcpy(l, I->defl, sizeof l); memcpy(r, I->defr, sizeof r);
    I->ndefer = 0;
    for (int i = 0; i < n; i++) if (!shape_eq(I, l[i], r[i], true)) return false;
  }
  return I->ndefer == 0;
}

static TBase base_of(Inst *I, TType *t) { return t->bvar ? I->base[t->bvar] : t->base; }

static bool base_eq(Inst *I, TType *x, TType *y) {
  TBase bx = base_of(I, x), by = base_of(I, y);
  if (bx == TB_NONE && by == TB_NONE) return false;
  if (bx == TB_NONE) { I->base[x->bvar] = by; return true; }
  if (by == TB_NONE) { I->base[y->bvar] = bx; return true; }
  return bx == by;
}

/* lo ⊆ hi (rules 3.1–3.5), binding the instance's variables on either side. */
static bool sub(Inst *I, TType *lo, TType *hi) {
  if (lo->kind == TT_FUN || hi->kind == TT_FUN)
    return lo->kind == TT_FUN && hi->kind == TT_FUN && sub(I, hi->arg, lo->arg) && sub(I, lo->res, hi->res);
  if (!base_eq(I, lo, hi)) return false;
  TShape one = { 1, 0, 0 };
  switch (hi->kind) {
  case TT_ARRAY: {
    TShape rank = lo->kind == TT_ARRAY ? lo->n : (TShape){ lo->kind == TT_S ? 0 : 1, 0, 0 };
    return shape_eq(I, rank, hi->n, true);
  }
  case TT_VEC:
    if (lo->kind == TT_SV) return shape_eq(I, one, hi->n, true);
    return lo->kind == TT_VEC && shape_eq(I, lo->n, hi->n, true);
  case TT_S: case TT_SV: return lo->kind == hi->kind && shape_eq(I, lo->n, hi->n, false);
  case TT_FUN: return false;
  }
  return false;
}

/* t with the instance applied; `partial` leaves unknowns in place (messages),
   else NULL when one is left. */
static TType *subst(Inst *I, TType *t, bool partial) {
  TType *r = NEW(TType);
  *r = *t;
  if (t->kind == TT_FUN) {
    r->arg = subst(I, t->arg, partial); r->res = subst(I, t->res, partial);
    return r->arg && r->res ? r : NULL;
  }
  if (t->bvar && I->base[t->bvar] != TB_NONE) { r->base = I->base[t->bvar]; r->bvar = 0; }
  int u[2], nu;
  long long c = shape_eval(I, t->n, u, &nu);
  r->n = (TShape){ c, nu > 0 ? u[0] : 0, nu > 1 ? u[1] : 0 };
  if (!partial && (r->bvar || nu)) return NULL;
  return r;
}

/* Every variable that sizes a rank or a length is bound to a value ≥ 0 (a
   variable may first be fixed by a singleton, which can be negative:
   drop(~1, v) does not fit dropV's S(int,g) -> <a>g+h -> <a>h). */
static bool lengths_nonneg(Inst *I, TType *t) {
  if (t->kind == TT_FUN) return lengths_nonneg(I, t->arg) && lengths_nonneg(I, t->res);
  if (t->kind != TT_ARRAY && t->kind != TT_VEC) return true;
  int vars[2] = { t->n.v1, t->n.v2 };
  for (int i = 0; i < 2; i++) if (vars[i] && I->set[vars[i]] && I->shape[vars[i]] < 0) return false;
  return true;
}

static void inst_init(Inst *I) {
  memset(I, 0, sizeof *I);
  for (int i = 0; i < NVARS; i++) I->base[i] = TB_NONE;
}

/* ---- expressions ---- */

static TType *check(Env *env, TExp *e);

static TType *fail_arg(TExp *e, int i, TType *got, TType *want) {
  TBase g = got->base, w = want->base;
  const char *hint = g == TB_INT && w == TB_DOUBLE ? " (TAIL converts no number implicitly: use i2d)"
                   : g == TB_BOOL && w == TB_INT ? " (TAIL converts no boolean implicitly: use b2i)" : "";
  int rg = ttype_rank(got), rw = want->n.v1 || want->kind == TT_FUN ? -1 : ttype_rank(want);
  const char *rank = rg >= 0 && rw >= 0 && rg != rw && g == w ? arena_printf(" (rank %d where rank %d is expected)", rg, rw) : "";
  if (want->kind == TT_ARRAY && want->n.v1 && rg >= 0 && rg < want->n.c && g == w)
    rank = arena_printf(" (rank %d where rank at least %lld is expected)", rg, want->n.c);
  diag_error(e->kids[i]->loc, "%s: argument %d has type %s where %s is expected%s%s", e->op->name, i + 1,
             ttype_to_string(got), ttype_to_string(want), rank, hint);
  return NULL;
}

/* The environment that says "the kids are typed already" (tail_check_node). */
static Env checked_env;
#define CHECKED (&checked_env)

/* op(args…): the refined scheme first (quietly), then the plain one (rule 3.26). */
static TType *check_op(Env *env, TExp *e) {
  const TOp *op = e->op;
  if (!e->applied) {   /* an operation as a value (eta-expanded): its scheme must be ground */
    TType *t = tail_op_scheme(op, false);
    if (!t) return NULL;
    Inst I;
    inst_init(&I);
    TType *g = op->arity == 0 ? NULL : subst(&I, t, false);
    if (!g)
      return diag_error(e->loc, "'%s' is used as a value: only scalar operations may be passed without arguments "
                        "(write %s(…))", op->name, op->name), NULL;
    return g;
  }
  if (e->nkids != op->arity)
    return diag_error(e->loc, "'%s' takes %d argument%s, given %d", op->name, op->arity, op->arity == 1 ? "" : "s",
                      e->nkids), NULL;
  TType **args = NEW_ARRAY(TType *, e->nkids);
  for (int i = 0; i < e->nkids; i++) if (!(args[i] = env == CHECKED ? e->kids[i]->type : check(env, e->kids[i]))) return NULL;
  int bad = -1;
  TType *want = NULL;
  for (int refined = op->refined ? 1 : 0; refined >= 0; refined--) {
    TType *t = tail_op_scheme(op, refined);
    if (!t) return NULL;
    Inst I;
    inst_init(&I);
    bad = -1;
    for (int i = 0; i < e->nkids && bad < 0; i++, t = t->res)
      if (!sub(&I, args[i], t->arg)) { bad = i; want = subst(&I, t->arg, true); }
    TType *r = bad < 0 && solve_deferred(&I) && lengths_nonneg(&I, tail_op_scheme(op, refined)) ? subst(&I, t, false) : NULL;
    if (r && (r->kind == TT_VEC || r->kind == TT_ARRAY) && r->n.c < 0) r = NULL;
    if (r) return !op->check || op->check(e) ? r : NULL;
  }
  if (bad >= 0) return fail_arg(e, bad, args[bad], want);
  return diag_error(e->loc, "%s: the arguments do not fix the shape of the result (lengths cannot be negative)",
                    op->name), NULL;
}

/* [e₁,…,eₙ] (rules 3.19, 3.22, 3.23): <κ>n, or SV(κ,v) for one singleton */
static TType *check_vec(Env *env, TExp *e) {
  TType *first = NULL;
  for (int i = 0; i < e->nkids; i++) {
    TType *t = env == CHECKED ? e->kids[i]->type : check(env, e->kids[i]);
    if (!t) return NULL;
    if (ttype_rank(t) != 0 || (first && t->base != first->base))
      return diag_error(e->kids[i]->loc, "vector items must be scalars of one base type: item %d has type %s%s%s", i + 1,
                        ttype_to_string(t), first ? ", item 1 " : "", first ? ttype_to_string(first) : ""), NULL;
    if (!first) first = t;
  }
  if (e->nkids == 1 && first->kind == TT_S) return ttype_new(TT_SV, first->base, first->n.c);
  return ttype_new(TT_VEC, first ? first->base : TB_INT, e->nkids);
}

static bool check_annotation(TExp *e) {
  TType *t = e->ann;
  while (t->kind == TT_FUN) t = t->res;
  if ((t->kind == TT_ARRAY || t->kind == TT_VEC) && t->n.c < 0)
    return diag_error(e->loc, "%s: a rank or length cannot be negative", ttype_to_string(e->ann));
  return true;
}

static TType *check(Env *env, TExp *e) {
  TType *t = NULL;
  switch (e->kind) {
  case TE_INT: t = ttype_new(TT_S, TB_INT, e->ival); break;
  case TE_BOOL: t = ttype_new(TT_S, TB_BOOL, e->ival); break;
  case TE_DOUBLE: t = ttype_scalar(TB_DOUBLE); break;
  case TE_CHAR: t = ttype_scalar(TB_CHAR); break;
  case TE_VEC: t = check_vec(env, e); break;
  case TE_OP: t = check_op(env, e); break;
  case TE_VAR:
    for (Env *b = env; b; b = b->next) if (strcmp(b->name, e->name) == 0) { t = b->type; break; }
    if (!t) diag_error(e->loc, "unknown variable '%s'", e->name);
    break;
  case TE_LET: case TE_FN: {
    if (!check_annotation(e)) return NULL;
    Env *inner = NEW(Env);
    *inner = (Env){ e->name, e->ann, env };
    if (e->kind == TE_FN) {
      TType *body = check(inner, e->kids[0]);
      t = body ? ttype_fun(e->ann, body) : NULL;
      break;
    }
    TType *v = check(env, e->kids[0]);
    if (!v) return NULL;
    if (!ttype_sub(v, e->ann))
      return diag_error(e->kids[0]->loc, "let %s: the value has type %s, which is not a subtype of the annotation %s",
                        e->name, ttype_to_string(v), ttype_to_string(e->ann)), NULL;
    t = check(inner, e->kids[1]);
    break;
  }
  case TE_IF: {
    TType *c = check(env, e->kids[0]), *a = c ? check(env, e->kids[1]) : NULL, *b = a ? check(env, e->kids[2]) : NULL;
    if (!b) return NULL;
    if (!ttype_sub(c, ttype_scalar(TB_BOOL)))
      return diag_error(e->kids[0]->loc, "the condition of 'if' has type %s where [bool]0 is expected", ttype_to_string(c)), NULL;
    if (!(t = ttype_join(a, b)))
      diag_error(e->loc, "the branches of 'if' have types %s and %s, which have no common supertype", ttype_to_string(a),
                 ttype_to_string(b));
    break;
  }
  }
  return e->type = t;
}

bool tail_check(TExp *e) {
  TType *t = check(NULL, e);
  if (t && t->kind == TT_FUN) return diag_error(e->loc, "the program's value is a function (%s), not an array", ttype_to_string(t));
  return t != NULL;
}

TType *tail_check_node(TExp *e) {
  if (e->kind != TE_OP && e->kind != TE_VEC) return diag_internal(e->loc, "tail_check_node: not an operation"), NULL;
  return e->type = e->kind == TE_OP ? check_op(CHECKED, e) : check_vec(CHECKED, e);
}

/* transp2(p, a): p a literal vector holding each of 1..rank(a) once. */
bool tail_check_permutation(TExp *e) {
  TExp *p = e->kids[0];
  int r = ttype_rank(e->kids[1]->type);
  if (p->kind != TE_VEC) return diag_error(p->loc, "transp2: the axes must be written as a vector of integers, e.g. [2,1]");
  bool *seen = NEW_ARRAY(bool, r + 1);
  for (int i = 0; i < p->nkids; i++) {
    TExp *k = p->kids[i];
    bool ok = k->kind == TE_INT && k->ival >= 1 && k->ival <= r && !seen[k->ival];
    if (!ok) {
      Buf b = {0};
      tail_print(&b, p);
      return diag_error(k->loc, "transp2: %s is not a permutation of the axes 1..%d (item %d)", buf_str(&b), r, i + 1);
    }
    seen[k->ival] = true;
  }
  return true;
}
