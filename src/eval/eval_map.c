/* eval_map.c — interpreter rules of the function-taking primitives. All map
   variants (map, mapSeq, mapGlb, …) and reduce variants mean the same here. */
#include "interp.h"
#include "../prim/rules.h"

Value *eval_map(Interp *it, Expr *e, Env *env) {
  Value *xs = interp_array(it, e->kids[1], env);
  if (!xs) return NULL;
  Value *out = value_array(xs->n);
  for (int64_t i = 0; i < xs->n; i++)
    if (!(out->elems[i] = interp_call(it, e->kids[0], &xs->elems[i], env, i))) return NULL;
  return out;
}

/* reduce and scan fold left: acc = f acc x (SPEC §4.1). */
static Value *fold(Interp *it, Expr *e, Env *env, bool keep_all) {
  Value *acc = interp_eval(it, e->kids[0], env);
  Value *xs = acc ? interp_array(it, e->kids[2], env) : NULL;
  if (!xs) return NULL;
  Value *out = value_array(keep_all ? xs->n : 1);
  for (int64_t i = 0; i < xs->n; i++) {
    Value *args[2] = { acc, xs->elems[i] };
    if (!(acc = interp_call(it, e->kids[1], args, env, i))) return NULL;
    if (keep_all) out->elems[i] = acc;
  }
  if (!keep_all) out->elems[0] = acc;
  return out;
}

Value *eval_reduce(Interp *it, Expr *e, Env *env) { return fold(it, e, env, false); }
Value *eval_scan(Interp *it, Expr *e, Env *env) { return fold(it, e, env, true); }

Value *eval_iterate(Interp *it, Expr *e, Env *env) {
  long long k;
  if (!interp_nat(it, e->kids[0]->nat, e->loc, &k)) return NULL;
  Value *x = interp_eval(it, e->kids[2], env);
  for (long long i = 0; x && i < k; i++) x = interp_call(it, e->kids[1], &x, env, 0);
  return x;
}

Value *eval_to(Interp *it, Expr *e, Env *env) {
  Value *x = interp_eval(it, e->kids[1], env);
  return x ? interp_call(it, e->kids[0], &x, env, 0) : NULL;
}

Value *eval_id(Interp *it, Expr *e, Env *env) { return interp_eval(it, e->kids[0], env); }
