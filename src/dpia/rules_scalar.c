/* rules_scalar.c — DPIA rule of scalar operators: their operands are read
   (resolved to scalars) and combined into one C-level expression. */
#include "dpia.h"
#include "../prim/rules.h"

View *exp_scalar_op(Tr *tr, Expr *e) {
  CExp *args[2];
  for (int i = 0; i < e->nkids; i++) {
    View *v = dpia_exp(tr, e->kids[i]);
    if (!v) return NULL;
    args[i] = view_resolve(tr, v, (Path){0, NULL});
    if (!args[i]) return NULL;
  }
  return view_scalar(cexp_op(e->prim->op, e->type, e->nkids, args));
}
