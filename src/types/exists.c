/* exists.c — dynamic-length arrays in the type checker (SPEC §3.4, seed 000
   Fig. 20). A value of type {∃X.[T]X} is never used as it is: wherever it is
   bound (let, a function's parameter) or passed to a primitive as an array,
   it is unpacked — an EX_UNPACK node binds it as [T]X' with a fresh rigid
   length X' that equals no other length — and the unpack is packed back
   (EX_PACK, {∃X. …}) when the type of what it scopes mentions X'. Passing an
   application to a primitive is K-normalisation's `let`: the unpack wraps the
   whole application. The nodes are written into the tree, so every later stage
   (interpreter, lowering, DPIA) sees explicit unpacks and packs; checking the
   tree again (after lowering) finds them and makes fresh rigid lengths. */
#include "infer.h"

/* A primitive's array argument unpacked, waiting for the application to be
   wrapped in its unpack (infer_close). */
struct PendingOpen {
  Expr *arg;                /* the {∃…}-typed argument, moved into the unpack */
  int uid; const char *name;
  NatVar *rigid;
  PendingOpen *next;
};

static NatVar *fresh_rigid(InferCx *cx, Nat *hi) {
  NatVar *v = nat_var_new(arena_printf("X%d", ++cx->nrigid), nat_const(0), hi);
  ARENA_PUSH(cx->rigid, cx->nrigid_used, cx->rigid_cap, v);
  return v;
}

bool infer_mentions_rigid(InferCx *cx, Nat *n, NatVar **which) {
  for (int i = 0; i < cx->nrigid_used; i++)
    if (n && nat_mentions(n, cx->rigid[i])) { if (which) *which = cx->rigid[i]; return true; }
  return false;
}

/* The opened type of ex; *rigid a fresh rigid length, or the one an unpack
   already has (checking the program again after lowering: the sizes that
   lowering wrote mention it). */
static Type *opened(InferCx *cx, Type *ex, NatVar **rigid) {
  if (*rigid) ARENA_PUSH(cx->rigid, cx->nrigid_used, cx->rigid_cap, *rigid);
  else *rigid = fresh_rigid(cx, ex->exvar->hi);
  return type_subst(ex->array, ex->exvar, nat_var(*rigid));
}

/* An upper bound of a length as the host can evaluate it: every rigid length
   replaced by its own bound (lengths grow with them), then any other variable
   that is not a size of the program (the position i of a row of [i -> [T](N - i)]N:
   FINDINGS F54) by its range (nat_max_of: N). NULL: none known. */
static Nat *upper_bound(InferCx *cx, Nat *len) {
  for (int i = cx->nrigid_used - 1; len && i >= 0; i--)
    if (nat_mentions(len, cx->rigid[i])) len = cx->rigid[i]->hi ? nat_subst(len, cx->rigid[i], cx->rigid[i]->hi) : NULL;
  Program *p = cx->prog;
  if (len && !nat_vars_within(len, p->sizes, p->nsizes, NULL, 0)) len = nat_max_of(len);
  return len && nat_vars_within(len, p->sizes, p->nsizes, NULL, 0) ? len : NULL;
}

Type *infer_exists(InferCx *cx, Type *elem, Nat *len) {
  NatVar *x = nat_var_new("X", nat_const(0), len ? upper_bound(cx, len) : NULL);
  return type_exists(x, type_array(elem, nat_var(x)));
}

/* t with `rigid` hidden again: [T]L with L mentioning it becomes {∃X.[T]X}
   (X standing for L, bounded as L is); t itself when it does not mention it. */
static Type *pack(InferCx *cx, Type *t, NatVar *rigid, Loc loc) {
  if (!type_mentions(t, rigid)) return t;
  if (t->kind != TY_ARRAY || t->index || type_mentions(t->elem, rigid)) {
    diag_error(loc, "the dynamic length %s of a filtered array ends up inside %s: only the outermost length of an "
               "array may be dynamic ({∃X.[T]X}, SPEC §3.4)", rigid->name, type_to_string(t));
    return NULL;
  }
  return infer_exists(cx, t->elem, t->len);
}

/* The body of unpack e, with its variable bound to `bound` opened (bound:
   already inferred, or NULL). */
static Type *unpack_body(InferCx *cx, Expr *e, Type *bound) {
  if (!bound && !(bound = infer_expr(cx, e->kids[0]))) return NULL;
  if (bound->kind != TY_EXISTS) {
    diag_error(e->loc, "unpack expects a dynamic-length array {∃X.[T]X}, found %s", type_to_string(bound));
    return NULL;
  }
  TypeEnv *saved = cx->env;
  infer_bind(cx, e->uid, opened(cx, bound, &e->rigid));
  Type *body = infer_expr(cx, e->kids[1]);
  cx->env = saved;
  if (body) e->kids[1]->type = body;
  return body;
}

/* e (an unpack) becomes pack(unpack …) when its body's type mentions the rigid length. */
static Type *pack_in_place(InferCx *cx, Expr *e, Type *body) {
  if (!body || !type_mentions(body, e->rigid)) return body;
  Type *t = pack(cx, body, e->rigid, e->loc);
  if (!t) return NULL;
  Expr *u = expr_new(EX_UNPACK, e->loc, 0);
  *u = *e;
  u->type = body;
  e->kind = EX_PACK;
  e->nkids = 1;
  e->kids = NEW_ARRAY(Expr *, 1);
  e->kids[0] = u;
  e->rigid = NULL;
  return t;
}

Type *infer_unpack(InferCx *cx, Expr *e, Type *bound) {
  e->kind = EX_UNPACK;   /* a let of a {∃…} value is an unpack */
  return pack_in_place(cx, e, unpack_body(cx, e, bound));
}

Type *infer_pack(InferCx *cx, Expr *e) {
  Expr *u = e->kids[0];
  if (u->kind != EX_UNPACK) {
    diag_error(e->loc, "'pack' is written by the compiler (SPEC §3.4): leave it out");
    return NULL;
  }
  Type *body = unpack_body(cx, u, NULL);
  if (!body) return NULL;
  u->type = body;
  return pack(cx, body, u->rigid, e->loc);
}

Type *infer_open_arg(InferCx *cx, Expr *app, Expr *arg, Type *t) {
  int at = -1;
  for (int i = 0; i < app->nkids; i++) if (app->kids[i] == arg) at = i;
  if (at < 0) { diag_error(arg->loc, "internal: unpacking an argument that is not the primitive's"); return NULL; }
  PendingOpen *p = NEW(PendingOpen);   /* zeroed: a fresh rigid length */
  p->arg = arg;
  p->uid = ast_fresh_uid();
  p->name = arena_printf("k%d", p->uid);
  Type *o = opened(cx, t, &p->rigid);
  p->next = cx->pending;
  cx->pending = p;
  Expr *v = expr_new(EX_VAR, arg->loc, 0);
  v->name = p->name; v->uid = p->uid; v->type = o;
  app->kids[at] = v;
  return o;
}

Type *infer_close(InferCx *cx, Expr *e, PendingOpen *mark, Type *t) {
  if (cx->pending == mark || !t) { cx->pending = mark; return t; }
  Expr *cur = expr_new(EX_PRIM, e->loc, 0);
  *cur = *e;
  cur->type = t;
  for (PendingOpen *p = cx->pending; p != mark; p = p->next) {   /* newest first: the first argument ends outermost */
    Expr *u = expr_new(EX_UNPACK, e->loc, 2);
    u->uid = p->uid; u->name = p->name; u->rigid = p->rigid;
    u->kids[0] = p->arg; u->kids[1] = cur;
    u->type = t;
    cur = u;
    if (type_mentions(t, p->rigid)) {
      if (!(t = pack(cx, t, p->rigid, e->loc))) { cx->pending = mark; return NULL; }
      Expr *k = expr_new(EX_PACK, e->loc, 1);
      k->kids[0] = u;
      k->type = t;
      cur = k;
    }
  }
  cx->pending = mark;
  *e = *cur;
  return t;
}

void infer_open_params(InferCx *cx, Expr *lam) {
  (void)cx;
  for (int i = lam->nparams - 1; i >= 0; i--) {
    Param *p = &lam->params[i];
    if (!p->type || p->type->kind != TY_EXISTS) continue;
    Expr *b = lam->kids[0];
    if (b->kind == EX_PACK) b = b->kids[0];
    if (b->kind == EX_UNPACK && b->uid == p->uid && b->kids[0]->kind == EX_VAR && b->kids[0]->uid == p->uid) continue;
    Expr *u = expr_new(EX_UNPACK, lam->kids[0]->loc, 2);
    u->uid = p->uid; u->name = p->name;
    Expr *v = expr_new(EX_VAR, p->loc, 0);
    v->uid = p->uid; v->name = p->name;
    u->kids[0] = v; u->kids[1] = lam->kids[0];
    lam->kids[0] = u;
  }
}
