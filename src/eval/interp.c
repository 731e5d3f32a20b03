/* interp.c — the interpreter's core: variables, literals, let, if, calls, and
   dispatch to the primitive table's interpreter rules (eval_*.c). */
#include "interp.h"

static bool lookup_nat(void *ctx, NatVar *v, long long *value) {
  for (NatBinding *b = ((Interp *)ctx)->nats; b; b = b->next)
    if (b->var == v) { *value = b->value; return true; }
  return false;
}

bool interp_nat(Interp *it, Nat *n, Loc loc, long long *out) {
  if (nat_eval(n, lookup_nat, it, out)) return true;
  return diag_error(loc, "cannot evaluate the size %s (division by zero or unbound size)", nat_to_string(n));
}

static Env *bind(Env *env, int uid, Value *v) {
  Env *b = NEW(Env);
  b->uid = uid; b->value = v; b->next = env;
  return b;
}

/* Bindings live on the C stack: a value never holds an environment (there are no
   closures among values), so a binding dies with the call that made it. */
Value *interp_call(Interp *it, Expr *lam, Value **args, Env *env, long long position) {
  enum { FEW = 8 };
  Env few[FEW];
  Env *frames = lam->nparams <= FEW ? few : NEW_ARRAY(Env, lam->nparams);
  for (int i = 0; i < lam->nparams; i++) {
    frames[i] = (Env){ lam->params[i].uid, args[i], env };
    env = &frames[i];
  }
  NatBinding *saved = it->nats, pos = { lam->index, position, it->nats };
  if (lam->index) it->nats = &pos;
  Value *r = interp_eval(it, lam->kids[0], env);
  it->nats = saved;
  return r;
}

Value *interp_array(Interp *it, Expr *e, Env *env) {
  Value *v = interp_eval(it, e, env);
  if (v && v->kind != VAL_ARRAY) { diag_error(e->loc, "internal: expected an array value"); return NULL; }
  return v;
}

static Value *eval(Interp *it, Expr *e, Env *env) {
  switch (e->kind) {
  case EX_VAR:
    for (Env *b = env; b; b = b->next) if (b->uid == e->uid) return b->value;
    diag_error(e->loc, "internal: unbound variable '%s'", e->name);
    return NULL;
  case EX_INT: return value_int((int32_t)e->ival);
  case EX_LONG: return value_long((int64_t)e->ival);
  case EX_FLOAT: return value_float((float)e->fval);
  case EX_DOUBLE: return value_double(e->fval);
  case EX_BOOL: return value_bool(e->ival != 0);
  case EX_NAT: {
    long long v;
    return interp_nat(it, e->nat, e->loc, &v) ? value_int((int32_t)v) : NULL;
  }
  case EX_LET: {
    Value *v = interp_eval(it, e->kids[0], env);
    Env b = { e->uid, v, env };
    return v ? interp_eval(it, e->kids[1], &b) : NULL;
  }
  case EX_UNPACK: {   /* SPEC §3.4: the rigid length is the array's actual length in the body */
    Value *v = interp_eval(it, e->kids[0], env);
    if (!v) return NULL;
    Env b = { e->uid, v, env };
    NatBinding *saved = it->nats, len = { e->rigid, v->n, it->nats };
    if (e->rigid) it->nats = &len;
    Value *r = interp_eval(it, e->kids[1], &b);
    it->nats = saved;
    return r;
  }
  case EX_IF: {
    Value *c = interp_eval(it, e->kids[0], env);
    return c ? interp_eval(it, e->kids[c->s.b ? 1 : 2], env) : NULL;
  }
  case EX_PACK: return interp_eval(it, e->kids[0], env);
  case EX_PRIM: return e->prim->eval(it, e, env);
  default:
    diag_error(e->loc, "internal: cannot evaluate this expression");
    return NULL;
  }
}

/* Reading an element of a lazy map that failed raises its error here: a variable
   bound to it, or a primitive returning it (aref, get1, …), is a read. */
Value *interp_eval(Interp *it, Expr *e, Env *env) {
  Value *v = eval(it, e, env);
  if (v && v->kind == VAL_FAILED) { diag_raise(v->s.i); return NULL; }
  return v;
}

Value *interp_demand(Value *v) {
  Value *failed = value_find_failed(v);
  if (failed) { diag_raise(failed->s.i); return NULL; }
  return v;
}

Value *interp_run(Program *p, Value **inputs, NatBinding *sizes) {
  Interp it = { p, sizes };
  Env *env = NULL;
  for (int i = 0; i < p->nparams; i++) env = bind(env, p->params[i].uid, inputs[i]);
  return interp_demand(interp_eval(&it, p->body, env));   /* the result is read whole */
}
