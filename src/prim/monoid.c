/* monoid.c — which reductions and scans may run as a tree (SPEC §4.1 `reduce`,
   `scan`): the parallel forms apply f to partial results and start every chunk
   from init, so they equal the sequential fold only when f is associative (it
   combines partials as it combines elements) and init its neutral element.
   clift cannot decide that of any function; it recognises the monoids it knows
   (the table below) and leaves every other reduce or scan sequential, which is
   always right (docs/design.md §7). Found by the differential tester:
   `(reduce 0.0f (lambda (a x) (+ a (* x x))) xs)` squared the partial sums and
   `(reduce 2.75f + xs)` added 2.75 once per chunk (FINDINGS F27). */
#include "prim.h"
#include "../syntax/ast.h"
#include "../types/type.h"

/* The neutral element an operator needs of init, if any. */
typedef enum { NEUTRAL_ZERO, NEUTRAL_ONE, NEUTRAL_ANY /* idempotent: init may repeat */ } Neutral;
static const struct { ScalarOp op; Neutral neutral; } monoids[] = {
  { OP_ADD, NEUTRAL_ZERO }, { OP_MUL, NEUTRAL_ONE },
  { OP_MIN, NEUTRAL_ANY }, { OP_MAX, NEUTRAL_ANY }, { OP_AND, NEUTRAL_ANY }, { OP_OR, NEUTRAL_ANY },
  { OP_BITAND, NEUTRAL_ANY }, { OP_BITOR, NEUTRAL_ANY }, { OP_BITXOR, NEUTRAL_ZERO },
};

static bool is_var(Expr *e, int uid) { return e->kind == EX_VAR && e->uid == uid; }

/* A literal of value v (an int, long, float or double literal). */
static bool literal_is(Expr *e, double v) {
  if (e->kind == EX_INT || e->kind == EX_LONG) return (double)e->ival == v;
  if (e->kind == EX_FLOAT || e->kind == EX_DOUBLE) return e->fval == v;
  return false;
}

bool prim_is_monoid(Expr *f, Expr *init) {
  if (f->kind != EX_LAMBDA || f->nparams != 2) return false;
  Expr *b = f->kids[0];
  if (b->kind != EX_PRIM || b->nkids != 2 || b->prim->op == OP_NONE) return false;
  int a = f->params[0].uid, x = f->params[1].uid;
  /* (op acc x), or (op x acc): every operator of the table is commutative */
  if (!((is_var(b->kids[0], a) && is_var(b->kids[1], x)) || (is_var(b->kids[0], x) && is_var(b->kids[1], a))))
    return false;
  for (size_t i = 0; i < sizeof monoids / sizeof monoids[0]; i++) {
    if (monoids[i].op != b->prim->op) continue;
    switch (monoids[i].neutral) {
    case NEUTRAL_ANY: return true;
    case NEUTRAL_ZERO: return literal_is(init, 0);
    case NEUTRAL_ONE: return literal_is(init, 1);
    }
  }
  return false;
}
