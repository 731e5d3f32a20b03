/* rules_map.c — DPIA rules of the function-taking primitives (seed 004,
   Fig. 5): maps become loops at their level (stage II: mapI → parfor/for),
   reductions a private accumulator and a sequential loop, toX chooses where a
   materialised result lives. */
#include "dpia.h"
#include "../prim/rules.h"
#include <string.h>

/* Strategy-free `map`/`reduce` get the default strategy (SPEC §4.2): the
   outermost map is parallel (mapGlb), everything inside a parallel or a
   sequential loop is sequential (a map inside a top-level reduceSeq runs in
   the reduction's one thread). */
static PrimLevel level_of(Tr *tr, const Prim *p) {
  if (p->level != LEVEL_LAZY) return p->level;
  return tr->par || tr->seq ? LEVEL_SEQ : LEVEL_GLB;
}

static bool no_position(Expr *lam) {
  if (!lam->index) return true;
  return diag_error(lam->loc, "position-dependent arrays are not supported by the code generators yet (use -t interp)");
}

/* The acceptor for x such that writing x into it writes `body` (a pure layout
   of the parameter x) into `out`; NULL when body is anything else. This is
   DPIA's mapAcc: a lazy map of join/split/transpose/… is written by
   transforming the acceptor, never by a copy loop (seed 004, §5). */
static Acc *invert_layout(Expr *body, int param, Acc *out) {
  if (body->kind == EX_VAR) return body->uid == param ? out : NULL;
  if (body->kind != EX_PRIM) return NULL;
  const char *n = body->prim->name;
  Expr *x = body->kids[body->nkids - 1];
  Acc *a = NULL;
  if (!strcmp(n, "join")) { a = acc_new(AC_SPLIT, x->type, out); a->a = type_len(x->type->elem); }
  else if (!strcmp(n, "split")) { a = acc_new(AC_JOIN, x->type, out); a->a = body->kids[0]->nat; }
  else if (!strcmp(n, "transpose")) a = acc_new(AC_TRANSPOSE, x->type, out);
  else if (!strcmp(n, "asScalar")) { a = acc_new(AC_ASVEC, x->type, out); a->k = x->type->elem->width; }
  else if (!strcmp(n, "asVector")) { a = acc_new(AC_ASSCALAR, x->type, out); a->k = body->type->elem->width; }
  else if (!strcmp(n, "map") && body->kids[0]->kind == EX_LAMBDA) {
    a = acc_new(AC_MAP, x->type, out);
    Acc *hole = acc_new(AC_HOLE, body->type->elem, NULL);
    hole->map = a;
    if (!(a->tmpl = invert_layout(body->kids[0]->kids[0], body->kids[0]->params[0].uid, hole))) return NULL;
  }
  return a ? invert_layout(x, param, a) : NULL;
}

bool acc_map(Tr *tr, Expr *e, Acc *out) {
  Expr *lam = e->kids[0];
  if (e->prim->level == LEVEL_LAZY && !lam->index) {
    Acc *hole = acc_new(AC_HOLE, lam->type, NULL);
    Acc *m = acc_new(AC_MAP, e->kids[1]->type, out);
    hole->map = m;
    if ((m->tmpl = invert_layout(lam->kids[0], lam->params[0].uid, hole))) return dpia_acc(tr, e->kids[1], m);
  }
  View *xs = dpia_exp(tr, e->kids[1]);
  if (!xs || !no_position(lam)) return false;
  PrimLevel level = level_of(tr, e->prim);
  NatVar *i;
  KStmt *saved = tr->block;
  tr->block = dpia_loop(tr, level, e->prim->dim, type_len(e->kids[1]->type), &i);
  ParLoop loop = { i, type_len(e->kids[1]->type), level, tr->par };
  if (level != LEVEL_SEQ) tr->par = &loop; else tr->seq++;
  View *x = view_idx(tr, xs, nat_var(i));
  bool ok = dpia_apply_acc(tr, lam, &x, acc_idx(out, nat_var(i)));
  tr->par = loop.outer;
  if (level == LEVEL_SEQ) tr->seq--;
  tr->block = saved;
  return ok;
}

View *exp_map_lazy(Tr *tr, Expr *e) {
  View *xs = dpia_exp(tr, e->kids[1]);
  if (!xs || !no_position(e->kids[0])) return NULL;
  View *v = view_new(V_MAP, e->type, 1);
  v->kids[0] = xs; v->fn = e->kids[0]; v->env = tr->env;
  return v;
}

static bool mentions(Expr *e, int uid) {
  if (e->kind == EX_VAR) return e->uid == uid;
  for (int i = 0; i < e->nkids; i++) if (mentions(e->kids[i], uid)) return true;
  return false;
}

/* Can `acc := f acc x` write the accumulator while reading it? Yes for a
   scalar (one assignment), for an f that does not read acc, and for an
   element-wise update: a map whose function does not read acc, over acc or a
   zip holding acc, so that element j is read only to write element j.
   Otherwise (a tuple whose second field reads the first, a shift) the new
   value is computed into a temporary first. */
static bool updates_in_place(Expr *f, Type *t) {
  int acc = f->params[0].uid;
  Expr *body = f->kids[0];
  if (type_is_value(t) || !mentions(body, acc)) return true;
  if (body->kind != EX_PRIM || body->prim->dpia_acc != acc_map || mentions(body->kids[0], acc)) return false;
  Expr *xs = body->kids[1];
  if (xs->kind == EX_VAR) return true;
  if (xs->kind != EX_PRIM || xs->prim->dpia_acc != acc_zip) return false;
  for (int i = 0; i < xs->nkids; i++)
    if (xs->kids[i]->kind != EX_VAR && mentions(xs->kids[i], acc)) return false;
  return true;
}

/* One accumulator, one loop; `keep` receives every intermediate (scan). */
static View *fold(Tr *tr, Expr *e, Acc *keep) {
  View *init = dpia_exp(tr, e->kids[0]);
  View *xs = init ? dpia_exp(tr, e->kids[2]) : NULL;
  if (!xs) return NULL;
  Type *t = e->kids[0]->type;
  View *accv; Acc *acca;
  dpia_new(tr, t, SPACE_PRIVATE, &accv, &acca);
  if (!dpia_assign(tr, acca, init, t)) return NULL;
  NatVar *i;
  KStmt *saved = tr->block;
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, type_len(e->kids[2]->type), &i);
  View *args[2] = { accv, view_idx(tr, xs, nat_var(i)) };
  bool ok;
  tr->seq++;
  if (updates_in_place(e->kids[1], t)) {
    ok = dpia_apply_acc(tr, e->kids[1], args, acca);
  } else {
    View *nextv; Acc *nexta;
    dpia_new(tr, t, SPACE_PRIVATE, &nextv, &nexta);
    ok = dpia_apply_acc(tr, e->kids[1], args, nexta) && dpia_assign(tr, acca, nextv, t);
  }
  ok = ok && (!keep || dpia_assign(tr, acc_idx(keep, nat_var(i)), accv, t));
  tr->seq--;
  tr->block = saved;
  return ok ? accv : NULL;
}

View *exp_reduce(Tr *tr, Expr *e) {
  View *acc = fold(tr, e, NULL);
  if (!acc) return NULL;
  View *one = view_new(V_ONE, e->type, 1);
  one->kids[0] = acc;
  return one;
}

bool acc_scan(Tr *tr, Expr *e, Acc *out) { return fold(tr, e, out) != NULL; }

bool acc_to(Tr *tr, Expr *e, Acc *out) {
  View *x = dpia_exp(tr, e->kids[1]);
  return x && dpia_apply_acc(tr, e->kids[0], &x, out);
}

View *exp_to(Tr *tr, Expr *e) {
  View *x = dpia_exp(tr, e->kids[1]);
  if (!x) return NULL;
  View *v; Acc *a;
  dpia_new(tr, e->type, e->prim->space, &v, &a);
  return dpia_apply_acc(tr, e->kids[0], &x, a) ? v : NULL;
}

View *exp_id(Tr *tr, Expr *e) { return dpia_exp(tr, e->kids[0]); }

/* iterate #k f: double buffering between two temporaries; the last step
   writes straight into the acceptor. */
bool acc_iterate(Tr *tr, Expr *e, Acc *out) {
  long long k;
  if (!nat_is_const(e->kids[0]->nat, &k)) return diag_error(e->loc, "iterate needs a constant count for code generation");
  View *cur = dpia_exp(tr, e->kids[2]);
  if (!cur) return false;
  if (k == 0) return dpia_assign(tr, out, cur, e->type);
  View *tv[2] = { NULL, NULL }; Acc *ta[2] = { NULL, NULL };
  for (long long r = 0; r < k; r++) {
    if (r == k - 1) return dpia_apply_acc(tr, e->kids[1], &cur, out);
    int b = (int)(r % 2);
    if (!tv[b]) dpia_new(tr, e->type, SPACE_GLOBAL, &tv[b], &ta[b]);
    if (!dpia_apply_acc(tr, e->kids[1], &cur, ta[b])) return false;
    cur = tv[b];
  }
  return true;
}
