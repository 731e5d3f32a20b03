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
  ScalarOp op = e->prim->op;
  if ((op == OP_DIV || op == OP_MOD) && (e->type->kind == TY_INT || e->type->kind == TY_LONG) &&
      !(args[1]->kind == CE_LIT && args[1]->ival != 0 && args[1]->ival != -1)) {
    /* SPEC §8: a zero divisor is reported; -1 goes through the checked form
       too, which wraps the most negative value (in C it is undefined) */
    CExp *checked[3] = { args[0], args[1], kernel_check_site(tr->k, e->loc, op == OP_DIV ? CHECK_DIV : CHECK_MOD) };
    return view_scalar(cexp_op(op == OP_DIV ? OP_CHECK_DIV : OP_CHECK_MOD, e->type, 3, checked));
  }
  if ((op == OP_F2I || op == OP_D2I) && type_is_scalar(args[0]->type) && args[0]->kind != CE_LIT) {   /* SPEC §8 */
    CExp *checked[2] = { args[0], kernel_check_site(tr->k, e->loc, op == OP_F2I ? CHECK_F2I : CHECK_D2I) };
    return view_scalar(cexp_op(op == OP_F2I ? OP_CHECK_F2I : OP_CHECK_D2I, e->type, 2, checked));
  }
  if (op == OP_CHECK_LENGTH) {   /* both values reported (runtime/check_report.c) */
    CExp *checked[3] = { args[0], args[1], kernel_check_site(tr->k, e->loc, CHECK_LENGTH) };
    return view_scalar(cexp_op(op, e->type, 3, checked));
  }
  if (op == OP_FACTORIAL || op == OP_BINOMIAL) {   /* a domain error reported (prim/special.h): the site is an argument */
    CExp *checked[3] = { args[0], args[e->nkids - 1], NULL };
    checked[e->nkids] = kernel_check_site(tr->k, e->loc, op == OP_FACTORIAL ? CHECK_FACTORIAL : CHECK_BINOMIAL);
    return view_scalar(cexp_op(op, e->type, e->nkids + 1, checked));
  }
  return view_scalar(cexp_op(op, e->type, e->nkids, args));
}
