/* knormal.c — K-normalisation (seed 000, §4): every argument of a primitive
   that is itself an application of array (or tuple) type is bound by a `let` first, so that the
   existential pack/unpack rules (Fig. 20) see every intermediate array as a
   named value. Evaluation order is unchanged: arguments were evaluated left to
   right before the call, and the lets run in that order. */
#include "ast.h"
#include "../prim/prim.h"

static Expr *wrap(Expr *lets, Expr **hole, Expr *body) {
  if (!lets) return body;
  *hole = body;
  return lets;
}

Expr *knormalize(Expr *e) {
  switch (e->kind) {
  case EX_LAMBDA: case EX_LET: case EX_UNPACK: case EX_IF: case EX_PACK: {
    Expr *r = expr_new(e->kind, e->loc, e->nkids);
    *r = *e;
    r->kids = NEW_ARRAY(Expr *, e->nkids);
    for (int i = 0; i < e->nkids; i++) r->kids[i] = knormalize(e->kids[i]);
    return r;
  }
  case EX_PRIM: {
    Expr *r = expr_new(EX_PRIM, e->loc, e->nkids);
    *r = *e;
    r->kids = NEW_ARRAY(Expr *, e->nkids);
    Expr *lets = NULL, **hole = &lets;
    for (int i = 0; i < e->nkids; i++) {
      Expr *k = knormalize(e->kids[i]);
      /* only arrays: a scalar argument stays where it is, so that the
         operators that evaluate an operand only when needed (`and`, `or`,
         `if`-like selections) keep doing so */
      Type *t = e->kids[i]->type;
      bool array = t && (t->kind == TY_ARRAY || t->kind == TY_EXISTS || t->kind == TY_TUPLE);
      if (e->kids[i]->kind == EX_PRIM && array) {
        Expr *let = expr_new(EX_LET, k->loc, 2);
        let->uid = ast_fresh_uid();
        let->name = arena_printf("k%d", let->uid);
        let->kids[0] = k;
        let->type = e->type;   /* types carry over: the pass runs after inference */
        Expr *v = expr_new(EX_VAR, k->loc, 0);
        v->name = let->name; v->uid = let->uid; v->type = k->type;
        k = v;
        *hole = let;
        hole = &let->kids[1];
      }
      r->kids[i] = k;
    }
    return wrap(lets, hole, r);
  }
  default:
    return e;
  }
}
