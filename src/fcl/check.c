/* check.c — expression typing (seed 003 Figure 5.6, rules 5.13–5.22): Hindley–
   Milner inference over FCL's types, with level variables declared on `fun`/`let`
   (rule 5.22) and given, or inferred, at each use (rule 5.21; docs/fcl.md §2.4).
   A definition with a sig is checked against it: the sig's type variables are
   rigid (skolems) with the kinds their occurrences allow. */
#include "fcl.h"
#include <string.h>

typedef struct Env {
  const char *name;
  FScheme *scheme;   /* let/fun bound (rule 5.22) */
  FType *mono;       /* fn bound (rule 5.18) */
  struct Env *next;
} Env;

typedef struct LScope { const char *name; FLevel *lvl; struct LScope *next; } LScope;

typedef struct Ck {
  int depth;
  LScope *levels;
  FType **nums;      /* operands of overloaded operators: int unless fixed (docs/fcl.md §2.5) */
  int nnums, numcap;
} Ck;

static FType *infer(Ck *ck, Env *env, FExp *e);

static FType *fun_type(FType *a, FType *b) { return ftype_new(FY_FUN, a, b, NULL); }

/* a level written in the program, its variables resolved in the scope */
static FLevel *resolve_level(Ck *ck, FLevel *l, Loc loc) {
  switch (l->kind) {
  case FL_SUCC: { FLevel *in = resolve_level(ck, l->inner, loc); return in ? flevel_new(FL_SUCC, in, NULL) : NULL; }
  case FL_VAR:
    for (LScope *s = ck->levels; s; s = s->next) if (!strcmp(s->name, l->name)) return s->lvl;
    return diag_error(loc, "unknown level variable '%s'", l->name), NULL;
  default: return l;
  }
}

static void note_nums(Ck *ck, FType *t) {
  t = ftype_prune(t);
  if (t->kind == FY_VAR) { if (t->num) ARENA_PUSH(ck->nums, ck->nnums, ck->numcap, t); return; }
  if (t->a) note_nums(ck, t->a);
  if (t->b) note_nums(ck, t->b);
}

/* x<l…> (rule 5.21): a let/fun-bound scheme, a fn-bound variable or a built-in */
static FType *infer_var(Ck *ck, Env *env, FExp *e) {
  FScheme *s = NULL;
  if (e->slot >= 0)
    for (Env *v = env; v; v = v->next) {
      if (strcmp(v->name, e->name) != 0) continue;
      if (v->mono) {
        if (e->has_largs) return diag_error(e->loc, "%s is a parameter, not a level-polymorphic definition: it takes no level arguments", e->name), NULL;
        return v->mono;
      }
      s = v->scheme;
      break;
    }
  if (!s) {
    const FOp *op = strncmp(e->name, "__", 2) ? fcl_op_lookup(e->name) : NULL;
    if (!op) return diag_error(e->loc, "unknown name '%s'", e->name), NULL;
    s = fcl_op_scheme(op);
    for (int i = 0; fcl_op_at(i); i++) if (fcl_op_at(i) == op) e->slot = i + 1;
  } else e->slot = 0;
  FLevel **largs = NULL;
  if (e->has_largs) {
    if (e->nlargs != s->nlvars)
      return diag_error(e->loc, "%s takes %d level argument%s, %d given (rule 5.21)", e->name, s->nlvars,
                        s->nlvars == 1 ? "" : "s", e->nlargs), NULL;
    largs = NEW_ARRAY(FLevel *, e->nlargs);
    for (int i = 0; i < e->nlargs; i++) if (!(largs[i] = resolve_level(ck, e->largs[i], e->loc))) return NULL;
  } else {   /* inferred: unknowns that unification fixes (docs/fcl.md §2.4) */
    largs = NEW_ARRAY(FLevel *, s->nlvars ? s->nlvars : 1);
    for (int i = 0; i < s->nlvars; i++) largs[i] = flevel_meta(e->loc);
  }
  e->inst = largs;   /* what monomorphisation (mono.c) instantiates */
  e->ninst = s->nlvars;
  FType *t = fscheme_instantiate(s, largs, e->loc);
  note_nums(ck, t);
  return t;
}

/* the name at the head of an application spine, for messages */
static const char *head_name(FExp *e, int *argno) {
  *argno = 1;
  while (e->kind == FE_APP) { e = e->a; ++*argno; }
  return e->kind == FE_VAR ? e->name : NULL;
}

static FType *infer_app(Ck *ck, Env *env, FExp *e) {
  FType *tf = infer(ck, env, e->a);
  if (!tf) return NULL;
  FType *ta = infer(ck, env, e->b);
  if (!ta) return NULL;
  FType *p = ftype_prune(tf);
  if (p->kind == FY_VAR && !p->rigid) {
    FType *f = fun_type(ftype_var(FK_TYP, e->loc), ftype_var(FK_TYP, e->loc));
    if (!ftype_unify(p, f, e->a->loc, "an applied expression")) return NULL;
    p = f;
  }
  if (p->kind != FY_FUN)
    return diag_error(e->a->loc, "this expression has type %s, not a function type: it cannot be applied (rule 5.19)", ftype_str(p)), NULL;
  int argno;
  const char *name = head_name(e->a, &argno);
  const char *what = name ? arena_printf("argument %d of %s", argno, name) : "the argument";
  if (!ftype_unify(p->a, ta, e->b->loc, what)) return NULL;
  return p->b;
}

/* free unification variables of a type (for generalisation) */
static void free_vars(FType *t, FType ***out, int *n, int *cap) {
  t = ftype_prune(t);
  if (t->kind == FY_VAR) {
    if (t->rigid) return;
    for (int i = 0; i < *n; i++) if ((*out)[i] == t) return;
    ARENA_PUSH(*out, *n, *cap, t);
    return;
  }
  if (t->a) free_vars(t->a, out, n, cap);
  if (t->b) free_vars(t->b, out, n, cap);
}

static bool free_in_env(Env *env, FType *v) {
  for (; env; env = env->next) {
    FType **fv = NULL;
    int n = 0, cap = 0;
    if (env->mono) free_vars(env->mono, &fv, &n, &cap);
    else if (env->scheme) free_vars(env->scheme->body, &fv, &n, &cap);
    for (int i = 0; i < n; i++) if (fv[i] == v) return true;
  }
  return false;
}

/* rule 5.22's σ = ∀δ⃗ α⃗. τ': the type variables not free in Γ (and not
   operands of an overloaded operator), the declared level variables */
static FScheme *generalise(Env *env, FType *t, FLevel **lparams, int nl) {
  FScheme *s = NEW(FScheme);
  s->body = t;
  s->lvars = lparams;
  s->nlvars = nl;
  FType **fv = NULL;
  int n = 0, cap = 0;
  free_vars(t, &fv, &n, &cap);
  int k = 0;
  s->tvars = NEW_ARRAY(FType *, n);
  for (int i = 0; i < n; i++) {
    if (fv[i]->num || free_in_env(env, fv[i])) continue;
    fv[i]->rigid = fv[i]->fixed = true;
    fv[i]->name = arena_printf("'%c%s", 'a' + k % 26, k >= 26 ? arena_printf("%d", k / 26) : "");
    s->tvars[k++] = fv[i];
  }
  s->ntvars = k;
  return s;
}

static bool declare_levels(Ck *ck, FLevel **ls, int n, Loc loc) {
  for (int i = 0; i < n; i++) {
    for (LScope *s = ck->levels; s; s = s->next)
      if (!strcmp(s->name, ls[i]->name)) return diag_error(loc, "level variable '%s' is already in scope (rule 5.22)", ls[i]->name);
    LScope *s = NEW(LScope);
    *s = (LScope){ ls[i]->name, ls[i], ck->levels };
    ck->levels = s;
  }
  return true;
}

static FType *infer_let(Ck *ck, Env *env, FExp *e) {
  LScope *saved = ck->levels;
  if (!declare_levels(ck, e->largs, e->nlargs, e->loc)) return NULL;
  FType *t1 = infer(ck, env, e->a);
  ck->levels = saved;
  if (!t1) return NULL;
  Env *bound = NEW(Env);
  *bound = (Env){ e->name, generalise(env, t1, e->largs, e->nlargs), NULL, env };
  return infer(ck, bound, e->b);
}

static FType *infer(Ck *ck, Env *env, FExp *e) {
  if (ck->depth >= FCL_MAX_DEPTH * 4) return diag_error(e->loc, "the program is nested too deeply"), NULL;
  ck->depth++;
  FType *t = NULL;
  switch (e->kind) {
  case FE_INT: case FE_BLOCKSIZE: t = ftype_new(FY_INT, NULL, NULL, NULL); break;   /* 5.13 */
  case FE_DOUBLE: t = ftype_new(FY_DOUBLE, NULL, NULL, NULL); break;                /* 5.14 */
  case FE_BOOL: t = ftype_new(FY_BOOL, NULL, NULL, NULL); break;                    /* 5.15 */
  case FE_UNIT: t = ftype_new(FY_UNIT, NULL, NULL, NULL); break;                    /* 5.16 */
  case FE_PAIR: {                                                                   /* 5.17 */
    FType *a = infer(ck, env, e->a), *b = a ? infer(ck, env, e->b) : NULL;
    if (b) t = ftype_new(FY_PAIR, a, b, NULL);
    break;
  }
  case FE_FN: {                                                                     /* 5.18 */
    FType *x = ftype_var(FK_TYP, e->loc);
    Env *bound = NEW(Env);
    *bound = (Env){ e->name, NULL, x, env };
    FType *r = infer(ck, bound, e->a);
    if (r) t = fun_type(x, r);
    break;
  }
  case FE_APP: t = infer_app(ck, env, e); break;                                    /* 5.19 */
  case FE_IF: {                                                                     /* 5.20 */
    FType *c = infer(ck, env, e->a);
    if (!c || !ftype_unify(ftype_new(FY_BOOL, NULL, NULL, NULL), c, e->a->loc, "the condition of if")) break;
    FType *a = infer(ck, env, e->b), *b = a ? infer(ck, env, e->c) : NULL;
    if (!b || !ftype_unify(a, b, e->c->loc, "the else branch")) break;
    const char *why = ftype_kind_why(a, FK_BT);
    if (why) { diag_error(e->loc, "the branches of if … then … else have type %s: %s (rule 5.20)", ftype_str(a), why); break; }
    t = a;
    break;
  }
  case FE_VAR: t = infer_var(ck, env, e); break;                                    /* 5.21 */
  case FE_LET: t = infer_let(ck, env, e); break;                                    /* 5.22 */
  }
  ck->depth--;
  e->type = t;
  return t;
}

/* ---- definitions ---- */

/* operands of overloaded operators that nothing fixed are int (docs/fcl.md §2.5) */
static void default_nums(Ck *ck) {
  for (int i = 0; i < ck->nnums; i++) {
    FType *v = ftype_prune(ck->nums[i]);
    if (v->kind == FY_VAR && !v->rigid) v->link = ftype_new(FY_INT, NULL, NULL, NULL);
  }
  ck->nnums = 0;
}

/* an unknown level left in a type (NULL: none) */
static FLevel *unknown_level(FType *t) {
  t = ftype_prune(t);
  if (t->lvl) {
    FLevel *l = flevel_prune(t->lvl);
    while (l->kind == FL_SUCC) l = flevel_prune(l->inner);
    if (l->kind == FL_META) return l;
  }
  FLevel *m = t->a ? unknown_level(t->a) : NULL;
  return m ? m : t->b ? unknown_level(t->b) : NULL;
}

/* fun f<δ…> x… = e against its sig: the parameters take the sig's argument
   types (so errors point into the body), the body its result type */
static bool check_against_sig(Ck *ck, Env *env, FDef *d) {
  FScheme *s = d->sig;
  if (d->nlparams != s->nlvars)
    return diag_error(d->loc, "the sig of %s has %d level variable%s, the definition declares %d (fun %s<…> …)", d->name,
                      s->nlvars, s->nlvars == 1 ? "" : "s", d->nlparams, d->name);
  for (int i = 0; i < d->nlparams; i++) {
    LScope *sc = NEW(LScope);
    *sc = (LScope){ d->lparams[i]->name, s->lvars[i], ck->levels };
    ck->levels = sc;
  }
  FExp *body = d->body;
  FType *want = s->body;
  Env *local = env;
  while (body->kind == FE_FN && ftype_prune(want)->kind == FY_FUN) {
    Env *bound = NEW(Env);
    *bound = (Env){ body->name, NULL, ftype_prune(want)->a, local };
    local = bound;
    body->type = want;
    body = body->a;
    want = ftype_prune(want)->b;
  }
  if (body->kind == FE_FN && body != d->body)
    return diag_error(body->loc, "%s has more parameters than the arguments of its sig's type", d->name);
  FType *t = infer(ck, local, body);
  if (!t || !ftype_unify(want, t, body->loc, arena_printf("the result of %s (its sig)", d->name))) return false;
  default_nums(ck);
  for (int i = 0; i < s->ntvars; i++) s->tvars[i]->fixed = true;
  d->scheme = s;
  return true;
}

bool fcl_check(FProgram *p) {
  Ck ck = { 0 };
  Env *env = NULL;
  for (int i = 0; i < p->ndefs; i++) {
    FDef *d = p->defs[i];
    ck.levels = NULL;
    ck.nnums = 0;
    if (d->sig) {
      if (!check_against_sig(&ck, env, d)) return false;
    } else {
      if (!declare_levels(&ck, d->lparams, d->nlparams, d->loc)) return false;
      FType *t = infer(&ck, env, d->body);
      if (!t) return false;
      default_nums(&ck);
      FLevel *m = unknown_level(t);
      if (m)
        return diag_error(m->loc, "the level of this use is not determined by the type of %s: give it (f<block>) or declare a level variable (fun %s<l> …)",
                          d->name, d->name);
      d->scheme = generalise(env, t, d->lparams, d->nlparams);
    }
    Env *bound = NEW(Env);
    *bound = (Env){ d->name, d->scheme, NULL, env };
    env = bound;
  }
  return true;
}

const char *fcl_describe(FProgram *p) {
  Buf b = { 0 };
  for (int i = 0; i < p->ndefs; i++)
    buf_printf(&b, "%s%s : %s", i ? "\n" : "", p->defs[i]->name, fscheme_str(p->defs[i]->scheme));
  return buf_str(&b);
}
