/* normalize.c — from the parsed tree to the core form every later stage sees:
   - `o` expanded and lambdas applied directly turned into `let`s (beta);
   - curried applications flattened, so every primitive is applied saturated
     (EX_PRIM) and every function argument of a primitive is a lambda of the
     arity the primitive table asks for (eta-expansion of `+`, `(mapSeq f)`, …);
   - function-valued `let`s inlined at their uses (functions are not data, SPEC §3.2);
   - every variable resolved to its binder's uid;
   - the 2-D layout primitives expanded into their 1-D compositions (SPEC §4.1).
   Function-valued things are kept as closures (raw tree + scope) and normalised
   afresh at each use, so every instance gets its own binders. */
#include "ast.h"
#include "../prim/prim.h"
#include <string.h>

typedef struct Scope Scope;
struct Scope {
  const char *name;
  int uid;            /* value binding */
  Expr *fn;           /* function binding: raw tree … */
  Scope *fn_scope;    /* … and the scope it was written in */
  Scope *next;
};

/* An argument waiting to be normalised in its own scope (or already done). */
typedef struct Thunk { Expr *e; Scope *sc; bool done; } Thunk;

static Expr *norm(Expr *e, Scope *sc);
static Expr *apply_fn(Expr *f, Scope *fsc, Thunk *args, int nargs, Loc loc);

static Scope *lookup(Scope *sc, const char *name) {
  for (; sc; sc = sc->next) if (strcmp(sc->name, name) == 0) return sc;
  return NULL;
}

static Scope *bind_value(Scope *sc, const char *name, int uid) {
  Scope *s = NEW(Scope);
  s->name = name; s->uid = uid; s->next = sc;
  return s;
}

static Scope *bind_fn(Scope *sc, const char *name, Expr *fn, Scope *fn_scope) {
  Scope *s = NEW(Scope);
  s->name = name; s->fn = fn; s->fn_scope = fn_scope; s->next = sc;
  return s;
}

static int prim_arity(const Prim *p) { return p->nargs == PRIM_VARIADIC ? 2 : p->nargs; }

static int fn_arity(Expr *f, Scope *sc);

/* min-lift writes (o f g xs): a composition whose last operand is data is
   applied to it. */
static bool composes_value(Expr *f, Scope *sc) {
  return f->nkids >= 2 && fn_arity(f->kids[f->nkids - 1], sc) == 0;
}

/* toGlobal/toLocal/toPrivate by name, not shadowed. */
static bool is_to_space(Expr *f, Scope *sc) {
  if (f->kind != EX_VAR || f->uid > 0 || (f->uid == 0 && lookup(sc, f->name))) return false;
  const Prim *p = prim_lookup(f->name);
  return p && p->space != SPACE_NONE;
}

/* How many more arguments f takes before it is a value; 0 for values. */
static int fn_arity(Expr *f, Scope *sc) {
  switch (f->kind) {
  case EX_LAMBDA: return f->nparams;
  case EX_COMPOSE: return composes_value(f, sc) ? 0 : 1;
  case EX_VAR: {
    if (f->uid > 0) return 0;
    Scope *b = f->uid == 0 ? lookup(sc, f->name) : NULL;
    if (b) return b->fn ? fn_arity(b->fn, b->fn_scope) : 0;
    const Prim *p = prim_lookup(f->name);
    return p ? prim_arity(p) : 0;
  }
  case EX_APPLY: {
    if (f->nkids == 2 && is_to_space(f->kids[0], sc)) return fn_arity(f->kids[1], sc);
    int a = fn_arity(f->kids[0], sc);
    return a > f->nkids - 1 ? a - (f->nkids - 1) : 0;
  }
  default: return 0;
  }
}

static Expr *var_ref(const char *name, int uid, Loc loc) {
  Expr *v = expr_new(EX_VAR, loc, 0);
  v->name = name; v->uid = uid;
  return v;
}

static Expr *force(Thunk *t) { return t->done ? t->e : norm(t->e, t->sc); }

/* Make a lambda of exactly `arity` parameters out of a function-valued tree. */
static Expr *norm_fn(Expr *f, Scope *sc, int arity) {
  if (f->kind == EX_LAMBDA && f->nparams == arity) {
    Expr *lam = expr_new(EX_LAMBDA, f->loc, 1);
    lam->nparams = arity;
    lam->params = NEW_ARRAY(Param, arity);
    Scope *inner = sc;
    for (int i = 0; i < arity; i++) {
      lam->params[i] = f->params[i];
      lam->params[i].uid = ast_fresh_uid();
      inner = bind_value(inner, f->params[i].name, lam->params[i].uid);
    }
    return (lam->kids[0] = norm(f->kids[0], inner)) ? lam : NULL;
  }
  int have = fn_arity(f, sc);
  if (have == 0 && f->kind == EX_VAR && f->uid == 0 && !lookup(sc, f->name) && !prim_lookup(f->name)) {
    diag_error(f->loc, "unknown function '%s'", f->name);
    return NULL;
  }
  if (have != arity) {
    if (have == 0) diag_error(f->loc, "expected a function of %d argument%s here, found a value", arity, arity == 1 ? "" : "s");
    else diag_error(f->loc, "expected a function of %d argument%s here, found one of %d", arity, arity == 1 ? "" : "s", have);
    return NULL;
  }
  /* Eta-expansion: (λ p1 … pk. f p1 … pk). */
  Expr *lam = expr_new(EX_LAMBDA, f->loc, 1);
  lam->nparams = arity;
  lam->params = NEW_ARRAY(Param, arity);
  Thunk *args = NEW_ARRAY(Thunk, arity);
  for (int i = 0; i < arity; i++) {
    const char *nm = arena_printf("x%d", i);
    lam->params[i] = (Param){ nm, ast_fresh_uid(), f->loc, NULL };
    args[i] = (Thunk){ var_ref(nm, lam->params[i].uid, f->loc), NULL, true };
  }
  return (lam->kids[0] = apply_fn(f, sc, args, arity, f->loc)) ? lam : NULL;
}

/* A size literal in scope sc: a copy whose (getLength x) name x's binder.
   x must be a value (the type checker then asks for an array). */
static Expr *resolve_nat(Expr *e, Scope *sc) {
  if (e->nrefs == 0) return e;
  Expr *r = expr_new(EX_NAT, e->loc, 0);
  *r = *e;
  r->refs = NEW_ARRAY(NatRef, e->nrefs);
  for (int i = 0; i < e->nrefs; i++) {
    NatRef ref = e->refs[i];
    Scope *b = lookup(sc, ref.name);
    if (!b) return diag_error(ref.loc, "getLength: unknown variable '%s'", ref.name), NULL;
    if (b->fn) return diag_error(ref.loc, "getLength: '%s' is a function, not an array", ref.name), NULL;
    ref.uid = b->uid;
    r->refs[i] = ref;
  }
  return r;
}

static Expr *nat_arg(Thunk *t, const Prim *p) {
  Expr *e = t->e;
  if (!t->done && e->kind == EX_INT && e->ival >= 0) {  /* a plain integer is accepted as a size */
    Expr *n = expr_new(EX_NAT, e->loc, 0);
    n->nat = nat_const(e->ival);
    return n;
  }
  if (!t->done && e->kind == EX_NAT && e->index) {
    diag_error(e->loc, "'%s' expects a size literal here (e.g. #4 or #N), found a nat function (only partition takes one)", p->name);
    return NULL;
  }
  if (!t->done && e->kind == EX_NAT) return resolve_nat(e, t->sc);
  diag_error(e->loc, "'%s' expects a size literal here (e.g. #4 or #N)", p->name);
  return NULL;
}

/* (nat-fn (i) n) or (case-split a b …), SPEC §2. */
static Expr *natfun_arg(Thunk *t, const Prim *p) {
  Expr *e = t->e;
  if (!t->done && e->kind == EX_NAT && e->index) return resolve_nat(e, t->sc);
  diag_error(e->loc, "'%s' expects a nat function here: (nat-fn (i) SIZE) or (case-split SIZE SIZE …)", p->name);
  return NULL;
}

/* #n, or a non-negative integer (what nat_arg takes). */
static bool is_size_literal(Thunk *t) {
  return !t->done && ((t->e->kind == EX_NAT && !t->e->index) || (t->e->kind == EX_INT && t->e->ival >= 0));
}

/* A 2-D form is a composition of its 1-D primitive p1 = p->desugar_2d
   (SPEC §4.1), e.g.
     slide2D s st = map transpose ∘ slide s st ∘ map (slide s st)
     pad2D l r    = pad l r ∘ map (pad l r)                                   */
static Expr *expand_2d(const Prim *p, Thunk *args, Loc loc) {
  if (args[0].done || args[1].done) return NULL;
  Expr *xs = force(&args[2]);
  if (!xs) return NULL;
  int u = ast_fresh_uid();
  const char *prim1 = p->desugar_2d;
#define PRIMV(nm) var_ref(nm, -1, loc)
  Expr *row = expr_new(EX_APPLY, loc, 3);            /* (prim1 a b) as a function */
  row->kids[0] = PRIMV(prim1); row->kids[1] = args[0].e; row->kids[2] = args[1].e;
  Expr *inner = expr_new(EX_APPLY, loc, 3);          /* (map row xs) */
  inner->kids[0] = PRIMV("map"); inner->kids[1] = row; inner->kids[2] = var_ref("xs", u, loc);
  Expr *outer = expr_new(EX_APPLY, loc, 4);          /* (prim1 a b inner) */
  outer->kids[0] = PRIMV(prim1); outer->kids[1] = args[0].e; outer->kids[2] = args[1].e; outer->kids[3] = inner;
  Expr *body = outer;
  if (p->desugar_2d_transpose) {                     /* (map transpose outer) */
    body = expr_new(EX_APPLY, loc, 3);
    body->kids[0] = PRIMV("map"); body->kids[1] = PRIMV("transpose"); body->kids[2] = outer;
  }
#undef PRIMV
  Expr *let = expr_new(EX_LET, loc, 2);
  let->name = "xs"; let->uid = u; let->kids[0] = xs;
  return (let->kids[1] = norm(body, NULL)) ? let : NULL;
}

/* min-lift writes (toGlobal e) around a value: the output of e's outermost
   primitive goes to that address space, i.e. (toGlobal (f a… x)) means
   (toGlobal (λv. f a… v) x); anything else is (toGlobal id e). */
static Expr *apply_space_to_value(const Prim *p, Thunk *arg, Loc loc) {
  Expr *v = force(arg);
  if (!v) return NULL;
  Expr *lam = expr_new(EX_LAMBDA, loc, 1);
  lam->nparams = 1;
  lam->params = NEW_ARRAY(Param, 1);
  lam->params[0] = (Param){ "v", ast_fresh_uid(), loc, NULL };
  Expr *ref = var_ref("v", lam->params[0].uid, loc);
  Expr *last = v;
  const Prim *q = v->kind == EX_PRIM ? v->prim : NULL;
  if (q && q->nargs > 0 && q->args[q->nargs - 1] == ARG_EXP) {
    Expr *body = expr_new(EX_PRIM, v->loc, v->nkids);
    *body = *v;
    body->kids = NEW_ARRAY(Expr *, v->nkids);
    for (int i = 0; i < v->nkids; i++) body->kids[i] = v->kids[i];
    last = v->kids[v->nkids - 1];
    body->kids[v->nkids - 1] = ref;
    lam->kids[0] = body;
  } else {
    Expr *id = expr_new(EX_PRIM, loc, 1);
    id->prim = prim_lookup("id");
    id->kids[0] = ref;
    lam->kids[0] = id;
  }
  Expr *e = expr_new(EX_PRIM, loc, 2);
  e->prim = p;
  e->kids[0] = lam;
  e->kids[1] = last;
  return e;
}

static Expr *apply_prim(const Prim *p, Thunk *args, int nargs, Loc loc) {
  if (p->space != SPACE_NONE && nargs == 1 && (args[0].done || fn_arity(args[0].e, args[0].sc) == 0))
    return apply_space_to_value(p, &args[0], loc);
  int want = p->nargs == PRIM_VARIADIC ? nargs : p->nargs;
  if (nargs < want || nargs == 0) {
    diag_error(loc, "'%s' expects %d argument%s, found %d", p->name, want, want == 1 ? "" : "s", nargs);
    return NULL;
  }
  if (nargs > want) {
    diag_error(loc, "'%s' expects %d argument%s, found %d (its result is not a function)", p->name, want, want == 1 ? "" : "s", nargs);
    return NULL;
  }
  Expr *e = expr_new(EX_PRIM, loc, nargs);
  e->prim = p;
  for (int i = 0; i < nargs; i++) {
    PrimArg kind = p->nargs == PRIM_VARIADIC ? ARG_EXP : p->args[i];
    if (kind == ARG_NAT || (kind == ARG_COUNT && is_size_literal(&args[i]))) e->kids[i] = nat_arg(&args[i], p);
    else if (kind == ARG_NATFN) e->kids[i] = natfun_arg(&args[i], p);
    else if (kind == ARG_EXP || kind == ARG_COUNT) e->kids[i] = force(&args[i]);
    else if (args[i].done) { diag_error(args[i].e->loc, "'%s' expects a function here", p->name); return NULL; }
    else e->kids[i] = norm_fn(args[i].e, args[i].sc, kind == ARG_FN1 ? 1 : 2);
    if (!e->kids[i]) return NULL;
  }
  return e;
}

/* Apply the function-valued tree f (written in scope fsc) to args. */
static Expr *apply_fn(Expr *f, Scope *fsc, Thunk *args, int nargs, Loc loc) {
  if (nargs == 0) return norm(f, fsc);
  switch (f->kind) {
  case EX_LAMBDA: {
    /* Beta: ((λ x… . body) a…) = let x = a in body; functions bind as closures. */
    int k = f->nparams < nargs ? f->nparams : nargs;
    if (k < f->nparams) {
      diag_error(loc, "this function takes %d argument%s but is given %d", f->nparams, f->nparams == 1 ? "" : "s", nargs);
      return NULL;
    }
    Scope *inner = fsc;
    Expr **lets = NEW_ARRAY(Expr *, k);
    for (int i = 0; i < k; i++) {
      Thunk *a = &args[i];
      if (!a->done && fn_arity(a->e, a->sc) > 0) { inner = bind_fn(inner, f->params[i].name, a->e, a->sc); lets[i] = NULL; continue; }
      Expr *v = force(a);
      if (!v) return NULL;
      lets[i] = expr_new(EX_LET, f->params[i].loc, 2);
      lets[i]->name = f->params[i].name;
      lets[i]->uid = ast_fresh_uid();
      lets[i]->kids[0] = v;
      inner = bind_value(inner, f->params[i].name, lets[i]->uid);
    }
    Expr *body = apply_fn(f->kids[0], inner, args + k, nargs - k, loc);
    if (!body) return NULL;
    for (int i = k - 1; i >= 0; i--) if (lets[i]) { lets[i]->kids[1] = body; body = lets[i]; }
    return body;
  }
  case EX_COMPOSE: {
    /* (o f1 … fn) x = f1 (… (fn x)) */
    Thunk cur = args[0];
    for (int i = f->nkids - 1; i >= 0; i--) {
      Expr *r = apply_fn(f->kids[i], fsc, &cur, 1, loc);
      if (!r) return NULL;
      cur = (Thunk){ r, NULL, true };
    }
    if (nargs == 1) return cur.e;
    diag_error(loc, "a composition takes one argument, found %d", nargs);
    return NULL;
  }
  case EX_APPLY: {
    /* Flatten ((g a) b) to (g a b). */
    int n = f->nkids - 1 + nargs;
    Thunk *all = NEW_ARRAY(Thunk, n);
    for (int i = 1; i < f->nkids; i++) all[i - 1] = (Thunk){ f->kids[i], fsc, false };
    memcpy(all + f->nkids - 1, args, sizeof(Thunk) * (size_t)nargs);
    return apply_fn(f->kids[0], fsc, all, n, loc);
  }
  case EX_VAR: {
    Scope *b = f->uid == 0 ? lookup(fsc, f->name) : NULL;
    if (b && b->fn) return apply_fn(b->fn, b->fn_scope, args, nargs, loc);
    if (b || f->uid > 0) { diag_error(f->loc, "'%s' is a value, not a function", f->name); return NULL; }
    const Prim *p = prim_lookup(f->name);
    if (!p) { diag_error(f->loc, "unknown function '%s'", f->name); return NULL; }
    if (p->desugar_2d) {
      if (nargs != p->nargs) { diag_error(loc, "'%s' expects %d arguments, found %d", p->name, p->nargs, nargs); return NULL; }
      Expr *r = expand_2d(p, args, loc);
      if (!r && !diag_has_error()) diag_error(loc, "'%s' expects two size literals and an array", p->name);
      return r;
    }
    return apply_prim(p, args, nargs, loc);
  }
  default:
    diag_error(f->loc, "this expression is not a function but is applied to arguments");
    return NULL;
  }
}

static Expr *norm(Expr *e, Scope *sc) {
  switch (e->kind) {
  case EX_INT: case EX_LONG: case EX_FLOAT: case EX_DOUBLE: case EX_BOOL:
    return e;
  case EX_NAT:
    if (e->index) {
      diag_error(e->loc, "a nat function (nat-fn, case-split) is not a value: it is an argument of partition");
      return NULL;
    }
    return resolve_nat(e, sc);
  case EX_VAR: {
    if (e->uid > 0) return e;   /* already resolved (built by this pass) */
    Scope *b = lookup(sc, e->name);
    if (b && !b->fn) return var_ref(e->name, b->uid, e->loc);
    if (b || prim_lookup(e->name)) {
      diag_error(e->loc, "'%s' is a function and needs its arguments here (functions are not data)", e->name);
      return NULL;
    }
    diag_error(e->loc, "unknown identifier '%s'", e->name);
    return NULL;
  }
  case EX_COMPOSE:
    if (composes_value(e, sc)) {
      Expr *fns = expr_new(EX_COMPOSE, e->loc, e->nkids - 1);
      for (int i = 0; i < e->nkids - 1; i++) fns->kids[i] = e->kids[i];
      Thunk x = { e->kids[e->nkids - 1], sc, false };
      return apply_fn(fns, sc, &x, 1, e->loc);
    }
    /* fall through */
  case EX_LAMBDA:
    diag_error(e->loc, "a function cannot be used as a value here (functions are not data)");
    return NULL;
  case EX_LET: case EX_UNPACK: {
    if (e->kind == EX_LET && fn_arity(e->kids[0], sc) > 0)
      return norm(e->kids[1], bind_fn(sc, e->name, e->kids[0], sc));
    Expr *r = expr_new(e->kind, e->loc, 2);
    r->name = e->name; r->uid = ast_fresh_uid();
    if (!(r->kids[0] = norm(e->kids[0], sc))) return NULL;
    return (r->kids[1] = norm(e->kids[1], bind_value(sc, e->name, r->uid))) ? r : NULL;
  }
  case EX_IF: case EX_PACK: {
    Expr *r = expr_new(e->kind, e->loc, e->nkids);
    for (int i = 0; i < e->nkids; i++) if (!(r->kids[i] = norm(e->kids[i], sc))) return NULL;
    return r;
  }
  case EX_APPLY: {
    Thunk *args = NEW_ARRAY(Thunk, e->nkids - 1);
    for (int i = 1; i < e->nkids; i++) args[i - 1] = (Thunk){ e->kids[i], sc, false };
    Expr *r = apply_fn(e->kids[0], sc, args, e->nkids - 1, e->loc);
    if (r && e->apl_index && r->kind == EX_PRIM) r->apl_index = true;   /* the aref TAIL's index made */
    return r;
  }
  case EX_PRIM:
    return e;
  }
  return e;
}

bool normalize_program(Program *p) {
  Scope *sc = NULL;
  for (int i = 0; i < p->nparams; i++) sc = bind_value(sc, p->params[i].name, p->params[i].uid);
  Expr *body = norm(p->body, sc);
  if (!body) return false;
  p->body = body;
  return true;
}
