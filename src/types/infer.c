/* infer.c — the type checker's core: variables, literals, let, if, lambdas,
   and dispatch to the primitive table's type rules. */
#include "infer.h"
#include <string.h>

static Type *lookup(InferCx *cx, int uid) {
  for (TypeEnv *t = cx->env; t; t = t->next) if (t->uid == uid) return t->type;
  return NULL;
}

void infer_bind(InferCx *cx, int uid, Type *type) {
  TypeEnv *t = NEW(TypeEnv);
  t->uid = uid; t->type = type; t->next = cx->env;
  cx->env = t;
}

Type *infer_fn(InferCx *cx, Expr *lam, int n, Type **params) {
  if (lam->kind != EX_LAMBDA || lam->nparams != n) {
    diag_error(lam->loc, "expected a function of %d argument%s", n, n == 1 ? "" : "s");
    return NULL;
  }
  TypeEnv *saved = cx->env;
  for (int i = 0; i < n; i++) {
    lam->params[i].type = params[i];
    infer_bind(cx, lam->params[i].uid, params[i]);
  }
  infer_open_params(cx, lam);
  Type *body = infer_expr(cx, lam->kids[0]);
  cx->env = saved;
  lam->type = body;
  return body;
}

Type *infer_array_arg(InferCx *cx, Expr *e, Expr *app) {
  Type *t = infer_expr(cx, e);
  if (!t) return NULL;
  if (t->kind == TY_EXISTS) return infer_open_arg(cx, app, e, t);
  if (t->kind != TY_ARRAY) {
    diag_error(e->loc, "'%s' expects an array here, found %s", app->prim->name, type_to_string(t));
    return NULL;
  }
  if (t->index && !app->prim->positions) {
    diag_error(e->loc, "'%s' of a position-dependent array (%s) is not supported: its rows differ in length "
               "(map over the rows, or join them first)", app->prim->name, type_to_string(t));
    return NULL;
  }
  return t;
}

Nat *infer_nat_arg(Expr *e) { return e->nat; }

Type *infer_elem_at(Type *array, NatVar **index) {
  if (!array->index) { if (index) *index = NULL; return array->elem; }
  NatVar *i = nat_var_new(array->index->name, nat_const(0), nat_sub(array->len, nat_const(1)));
  if (index) *index = i;
  return type_subst(array->elem, array->index, nat_var(i));
}

/* The element of `array` as fn's parameter sees it, fn->index its position.
   A function typed before over an array of the same length keeps its
   position variable: lower.c re-types a copy of the program whose size
   literals are shared with the original and mention that variable, so a
   fresh one would leave the original's sizes naming a variable that no
   function binds. */
Type *infer_elem_for(Type *array, Expr *fn) {
  NatVar *old = fn->index;
  if (array->index && old && old->hi && nat_equal(old->hi, nat_sub(array->len, nat_const(1))))
    return type_subst(array->elem, array->index, nat_var(old));
  return infer_elem_at(array, &fn->index);
}

bool infer_require(InferCx *cx, SizeCheckKind kind, Nat *lhs, Nat *rhs, Expr *app, const char *what) {
  long long v;
  Nat *cond = kind == CHECK_DIVIDES ? nat_mod(lhs, rhs) : NULL;
  if (kind == CHECK_DIVIDES && nat_is_const(cond, &v)) {
    if (v == 0) return true;
    return diag_error(app->loc, "%s: %s does not divide the length %s", what, nat_to_string(rhs), nat_to_string(lhs));
  }
  if (kind == CHECK_NONNEG) {
    if (nat_proves_le(nat_const(0), rhs)) return true;
    if (nat_proves_lt(rhs, nat_const(0)))
      return diag_error(app->loc, "%s is negative for every size", what);
  }
  if (kind == CHECK_LE) {
    if (nat_proves_le(lhs, rhs)) return true;
    if (nat_proves_lt(rhs, lhs))
      return diag_error(app->loc, "%s: needs %s <= %s, which never holds", what, nat_to_string(lhs), nat_to_string(rhs));
  }
  NatVar *rigid;
  if (infer_mentions_rigid(cx, lhs, &rigid) || infer_mentions_rigid(cx, rhs, &rigid)) {
    /* a run-time length cannot be checked before the program runs: the
       condition must hold for every length (SPEC §3.1: at every sample point) */
    if (kind == CHECK_DIVIDES && nat_equal(cond, nat_const(0))) return true;
    if (kind == CHECK_NONNEG && nat_equal(nat_max(rhs, nat_const(0)), rhs)) return true;
    if (kind == CHECK_LE && nat_equal(nat_max(lhs, rhs), rhs)) return true;
    return diag_error(app->loc, "%s: the condition depends on the length %s of a filtered array, known only "
                      "while the program runs; this check is not supported yet", what, rigid->name);
  }
  SizeCheck *c = NEW(SizeCheck);
  *c = (SizeCheck){ kind, lhs, rhs, app->loc, what, cx->prog->checks };
  cx->prog->checks = c;
  return true;
}

/* A size literal's (getLength x) replaced by the length of x's type (SPEC §3.5):
   e->nat from e->nat_written, afresh at every check (lower.c re-types a copy). */
static bool resolve_lengths(InferCx *cx, Expr *e) {
  if (e->nrefs == 0) return true;
  Nat *n = e->nat_written;
  for (int i = 0; i < e->nrefs; i++) {
    NatRef *r = &e->refs[i];
    Type *t = lookup(cx, r->uid);
    if (!t) return diag_error(r->loc, "internal: unbound variable '%s'", r->name);
    if (t->kind == TY_EXISTS) t = t->array;
    if (t->kind != TY_ARRAY)
      return diag_error(r->loc, "getLength: '%s' is not an array, it is %s", r->name, type_to_string(t));
    n = nat_subst(n, r->var, t->len);
  }
  e->nat = n;
  return true;
}

static Type *infer_let(InferCx *cx, Expr *e) {
  if (e->kind == EX_UNPACK) return infer_unpack(cx, e, NULL);
  Type *bound = infer_expr(cx, e->kids[0]);
  if (!bound) return NULL;
  if (bound->kind == TY_EXISTS) return infer_unpack(cx, e, bound);
  TypeEnv *saved = cx->env;
  infer_bind(cx, e->uid, bound);
  Type *body = infer_expr(cx, e->kids[1]);
  cx->env = saved;
  return body;
}

static Type *infer_if(InferCx *cx, Expr *e) {
  Type *c = infer_expr(cx, e->kids[0]);
  if (!c) return NULL;
  if (c->kind != TY_BOOL) { diag_error(e->kids[0]->loc, "the condition of 'if' must be bool, found %s", type_to_string(c)); return NULL; }
  Type *a = infer_expr(cx, e->kids[1]);
  Type *b = a ? infer_expr(cx, e->kids[2]) : NULL;
  if (!b) return NULL;
  if (!type_equal(a, b)) {
    diag_error(e->loc, "the branches of 'if' have different types: %s and %s", type_to_string(a), type_to_string(b));
    return NULL;
  }
  return a;
}

Type *infer_expr(InferCx *cx, Expr *e) {
  Type *t = NULL;
  switch (e->kind) {
  case EX_VAR:
    t = lookup(cx, e->uid);
    if (!t) diag_error(e->loc, "internal: unbound variable '%s'", e->name);
    break;
  case EX_INT: t = type_scalar(TY_INT); break;
  case EX_LONG: t = type_scalar(TY_LONG); break;
  case EX_FLOAT: t = type_scalar(TY_FLOAT); break;
  case EX_DOUBLE: t = type_scalar(TY_DOUBLE); break;
  case EX_BOOL: t = type_scalar(TY_BOOL); break;
  case EX_NAT:   /* a size used as a value */
    if (e->index) { diag_error(e->loc, "a nat function (nat-fn, case-split) is not a value: it is an argument of partition"); break; }
    if (resolve_lengths(cx, e)) t = type_scalar(TY_INT);
    break;
  case EX_LET: case EX_UNPACK: t = infer_let(cx, e); break;
  case EX_IF: t = infer_if(cx, e); break;
  case EX_PRIM:
    for (int i = 0; i < e->nkids; i++) if (e->kids[i]->kind == EX_NAT && !resolve_lengths(cx, e->kids[i])) return NULL;
    /* a size literal must not be negative once the sizes are bound (SPEC §8);
       a nat function's parts are partition's to check */
    for (int i = 0; i < e->nkids; i++)
      if (e->kids[i]->kind == EX_NAT && !e->kids[i]->index &&
          !infer_require(cx, CHECK_NONNEG, nat_const(0), e->kids[i]->nat, e->kids[i], arena_printf("size %s", nat_to_string(e->kids[i]->nat))))
        return NULL;
    {
      PendingOpen *mark = cx->pending;
      t = infer_close(cx, e, mark, e->prim->infer(cx, e));
    }
    break;
  case EX_PACK: t = infer_pack(cx, e); break;
  default:
    diag_error(e->loc, "internal: unexpected expression after normalisation");
  }
  e->type = t;
  return t;
}

/* A length in the lift header that is negative for every size. */
static bool lengths_possible(Type *t, Loc loc) {
  if (t->kind == TY_ARRAY) {
    if (nat_proves_lt(t->len, nat_const(0)))
      return diag_error(loc, "the length %s is negative for every size", nat_to_string(t->len));
    return lengths_possible(t->elem, loc);
  }
  for (int i = 0; t->kind == TY_TUPLE && i < t->n; i++) if (!lengths_possible(t->fields[i], loc)) return false;
  return true;
}

bool infer_program(Program *p) {
  InferCx cx = { .prog = p };
  for (int i = 0; i < p->nparams; i++) if (!lengths_possible(p->params[i].type, p->params[i].loc)) return false;
  for (int i = 0; i < p->nparams; i++) infer_bind(&cx, p->params[i].uid, p->params[i].type);
  p->result = infer_expr(&cx, p->body);
  /* checks were collected innermost-last; report them in source order */
  SizeCheck *ordered = NULL;
  while (p->checks) { SizeCheck *c = p->checks; p->checks = c->next; c->next = ordered; ordered = c; }
  p->checks = ordered;
  return p->result != NULL && infer_check_nesting(p);
}
