/* interp.c — the FCL interpreter, after the dynamic semantics of seed 003
   §5.3.3 (docs/fcl.md §3). Call by value; pull arrays are the thesis's
   [e0, …, en-1] of unevaluated elements, kept as a length and a way to compute
   element i (generate, map) or as stored values (forced, inputs); push arrays
   keep their writer (Push, Interleave, SeqFor, mapPush) until `force` runs it
   into a stored array. Levels are erased: the type checker has placed every
   Program at its level (rules 5.32–5.40), and the result of a well-typed
   program does not depend on which location runs which step. Errors
   (rules 5.61, 5.85, and the ones docs/fcl.md §3.3 adds) are diagnostics. */
#include "fcl.h"
#include <string.h>

enum { FCL_MAX_EVAL_DEPTH = 4000 };

struct FEnv { const char *name; FValue *v; FEnv *next; };

FValue *fval_new(FValueKind k) { FValue *v = NEW(FValue); v->kind = k; return v; }
FValue *fval_int(long long i) { FValue *v = fval_new(FV_INT); v->i = (int32_t)(uint32_t)i; return v; }
FValue *fval_double(double d) { FValue *v = fval_new(FV_DOUBLE); v->d = d; return v; }
FValue *fval_bool(bool b) { FValue *v = fval_new(FV_BOOL); v->b = b; return v; }

static FEnv *env_bind(FEnv *env, const char *name, FValue *v) {
  FEnv *e = NEW(FEnv);
  *e = (FEnv){ name, v, env };
  return e;
}

static FValue *env_lookup(FEnv *env, const char *name) {
  for (; env; env = env->next) if (!strcmp(env->name, name)) return env->v;
  return NULL;
}

static FValue *eval(FEval *ev, FEnv *env, FExp *e);

FValue *fcl_apply(FEval *ev, FValue *f, FValue *arg, Loc loc) {
  if (f->kind == FV_CLOSURE) {
    if (ev->depth >= FCL_MAX_EVAL_DEPTH) return diag_error(loc, "evaluation nested too deeply (more than %d calls)", FCL_MAX_EVAL_DEPTH), NULL;
    ev->depth++;
    FValue *r = eval(ev, env_bind(f->env, f->fn->name, arg), f->fn->a);   /* rule 5.50 */
    ev->depth--;
    return r;
  }
  if (f->kind != FV_OP) return diag_error(loc, "internal: applying a non-function"), NULL;
  FValue *g = fval_new(FV_OP);
  g->op = f->op;
  g->n = f->n + 1;
  g->elems = NEW_ARRAY(FValue *, g->n);
  for (int i = 0; i < f->n; i++) g->elems[i] = f->elems[i];
  g->elems[f->n] = arg;
  if (g->n < g->op->arity) return g;
  if (ev->depth >= FCL_MAX_EVAL_DEPTH) return diag_error(loc, "evaluation nested too deeply (more than %d calls)", FCL_MAX_EVAL_DEPTH), NULL;
  ev->depth++;
  FValue *r = g->op->eval(ev, g->elems, loc);
  ev->depth--;
  return r;
}

/* rules 5.60, 5.61: indexing is the one pull-array operation with a cost (a
   bounds check), and the only place an element is computed */
FValue *fcl_index(FEval *ev, FValue *arr, long long i, Loc loc) {
  if (i < 0 || i >= arr->n) return diag_error(loc, "index %lld out of bounds: the array has %lld element%s", i, arr->n, arr->n == 1 ? "" : "s"), NULL;
  switch (arr->sub) {
  case PULL_MANIFEST:
    if (!arr->elems[i]) return diag_error(loc, "seqfor: element %lld is read before it is written", i), NULL;
    return arr->elems[i];
  case PULL_GEN: return fcl_apply(ev, arr->x, fval_int(i), loc);
  default: {
    FValue *x = fcl_index(ev, arr->y, i, loc);
    return x ? fcl_apply(ev, arr->x, x, loc) : NULL;
  }
  }
}

static FValue *manifest(long long n) {
  FValue *a = fval_new(FV_PULL);
  a->sub = PULL_MANIFEST;
  a->n = n;
  a->elems = NEW_ARRAY(FValue *, n);
  return a;
}

/* Interleave / InterleaveSeq (rules 5.83, 5.84, 5.85): sub-program i's
   element j goes to index f (i, j); every index written exactly once */
static FValue *force_interleave(FEval *ev, FValue *p, Loc loc) {
  long long k = p->i, m = p->y->n;
  FValue *out = manifest(p->n);
  for (long long i = 0; i < m; i++) {
    FValue *prog = fcl_index(ev, p->y, i, loc);
    FValue *sub = prog ? fcl_force(ev, prog->x, loc) : NULL;
    if (!sub) return NULL;
    if (sub->n != k)
      return diag_error(loc, "interleave: sub-program %lld has %lld element%s, not the %lld its first argument says", i, sub->n,
                        sub->n == 1 ? "" : "s", k), NULL;
    for (long long j = 0; j < k; j++) {
      FValue *sh = fval_new(FV_PAIR);
      sh->x = fval_int(i);
      sh->y = fval_int(j);
      FValue *at = fcl_apply(ev, p->x, sh, loc);
      if (!at) return NULL;
      if (at->i < 0 || at->i >= p->n)
        return diag_error(loc, "interleave: element (%lld, %lld) is written to index %lld, outside the %lld elements (rule 5.85)", i, j,
                          at->i, p->n), NULL;
      if (out->elems[at->i])
        return diag_error(loc, "interleave: index %lld is written twice (the second time by element (%lld, %lld))", at->i, i, j), NULL;
      out->elems[at->i] = sub->elems[j];
    }
  }
  for (long long q = 0; q < p->n; q++)
    if (!out->elems[q]) return diag_error(loc, "interleave: index %lld of the result is never written", q), NULL;
  return out;
}

/* SeqFor (rules 5.78–5.80): the array (initial values, or none for seqfor's
   Figure 5.3 form), then each iteration i writes f read i = (p, u) to p */
static FValue *force_seqfor(FEval *ev, FValue *p, Loc loc) {
  FValue *arr = p->y ? fcl_force(ev, p->y, loc) : manifest(p->n);
  if (!arr) return NULL;
  if (p->y) {   /* a copy: the loop updates it in place */
    FValue *c = manifest(arr->n);
    memcpy(c->elems, arr->elems, sizeof(FValue *) * (size_t)arr->n);
    arr = c;
  }
  FValue *read = fval_new(FV_OP);
  read->op = fcl_op_lookup("__seqfor_read");
  read->n = 1;
  read->elems = NEW_ARRAY(FValue *, 1);
  read->elems[0] = arr;
  for (long long i = 0; i < p->i; i++) {
    FValue *g = fcl_apply(ev, p->x, read, loc);
    FValue *r = g ? fcl_apply(ev, g, fval_int(i), loc) : NULL;
    if (!r) return NULL;
    long long at = r->x->i;
    if (at < 0 || at >= arr->n)
      return diag_error(loc, "seqfor: iteration %lld writes index %lld, outside the %lld elements", i, at, arr->n), NULL;
    arr->elems[at] = r->y;
  }
  for (long long q = 0; q < arr->n; q++)
    if (!arr->elems[q]) return diag_error(loc, "seqfor: element %lld of the result is never written", q), NULL;
  return arr;
}

/* force (rules 5.76–5.84): run a push array's writer into a stored array */
FValue *fcl_force(FEval *ev, FValue *p, Loc loc) {
  if (ev->depth >= FCL_MAX_EVAL_DEPTH) return diag_error(loc, "evaluation nested too deeply (more than %d calls)", FCL_MAX_EVAL_DEPTH), NULL;
  ev->depth++;
  FValue *out = NULL;
  switch (p->sub) {
  case PUSH_PULL:
    out = manifest(p->n);
    for (long long i = 0; i < p->n; i++)
      if (!(out->elems[i] = fcl_index(ev, p->x, i, loc))) { out = NULL; break; }
    break;
  case PUSH_INTERLEAVE: out = force_interleave(ev, p, loc); break;
  case PUSH_SEQFOR: out = force_seqfor(ev, p, loc); break;
  case PUSH_MAP: case PUSH_MAPIX: {   /* rules 5.68–5.71: the map fused into the writer */
    FValue *in = fcl_force(ev, p->y, loc);
    if (!in) break;
    out = manifest(in->n);
    for (long long i = 0; i < in->n; i++) {
      FValue *f = p->sub == PUSH_MAPIX ? fcl_apply(ev, p->x, fval_int(i), loc) : p->x;
      if (!f || !(out->elems[i] = fcl_apply(ev, f, in->elems[i], loc))) { out = NULL; break; }
    }
    break;
  }
  }
  ev->depth--;
  return out;
}

static FValue *eval_app(FEval *ev, FEnv *env, FExp *e) {
  /* && and || look at their right operand only when needed */
  if (e->a->kind == FE_APP && e->a->a->kind == FE_VAR && e->a->a->slot > 0 &&
      (!strcmp(e->a->a->name, "&&") || !strcmp(e->a->a->name, "||"))) {
    FValue *l = eval(ev, env, e->a->b);
    if (!l) return NULL;
    if (l->b == (e->a->a->name[0] == '|')) return l;
    return eval(ev, env, e->b);
  }
  FValue *f = eval(ev, env, e->a);
  FValue *x = f ? eval(ev, env, e->b) : NULL;
  return x ? fcl_apply(ev, f, x, e->loc) : NULL;
}

static FValue *eval(FEval *ev, FEnv *env, FExp *e) {
  if (ev->depth >= FCL_MAX_EVAL_DEPTH) return diag_error(e->loc, "evaluation nested too deeply (more than %d calls)", FCL_MAX_EVAL_DEPTH), NULL;
  ev->depth++;
  FValue *v = NULL;
  switch (e->kind) {
  case FE_INT: v = fval_int(e->ival); break;
  case FE_DOUBLE: v = fval_double(e->dval); break;
  case FE_BOOL: v = fval_bool(e->ival != 0); break;
  case FE_UNIT: v = fval_new(FV_UNIT); break;
  case FE_BLOCKSIZE: v = fval_int(ev->block_size); break;
  case FE_VAR:
    if (e->slot > 0) { v = fval_new(FV_OP); v->op = fcl_op_at(e->slot - 1); }
    else if (!(v = env_lookup(env, e->name))) diag_error(e->loc, "internal: unbound '%s' after checking", e->name);
    break;
  case FE_PAIR: {
    FValue *a = eval(ev, env, e->a), *b = a ? eval(ev, env, e->b) : NULL;
    if (b) { v = fval_new(FV_PAIR); v->x = a; v->y = b; }
    break;
  }
  case FE_FN: v = fval_new(FV_CLOSURE); v->fn = e; v->env = env; break;
  case FE_APP: v = eval_app(ev, env, e); break;
  case FE_LET: {
    FValue *a = eval(ev, env, e->a);
    if (a) v = eval(ev, env_bind(env, e->name, a), e->b);
    break;
  }
  case FE_IF: {   /* rules 5.74, 5.75 */
    FValue *c = eval(ev, env, e->a);
    if (c) v = eval(ev, env, c->b ? e->b : e->c);
    break;
  }
  }
  ev->depth--;
  return v;
}

/* ---- running a program: inputs in, a clift Value out ---- */

/* the clift type of an input of FCL type t (NULL + diag: not an input type) */
static Type *input_type(FType *t, int k, Loc loc) {
  t = ftype_prune(t);
  switch (t->kind) {
  case FY_INT: return type_scalar(TY_INT);
  case FY_DOUBLE: return type_scalar(TY_DOUBLE);
  case FY_BOOL: return type_scalar(TY_BOOL);
  case FY_PAIR: {
    Type *a = input_type(t->a, k, loc), *b = a ? input_type(t->b, k, loc) : NULL;
    return b ? type_tuple2(a, b) : NULL;
  }
  case FY_PULL: {
    Type *e = input_type(t->a, k, loc);
    return e ? type_array(e, nat_var(nat_var_new(arena_printf("n%d", k), nat_const(0), NULL))) : NULL;
  }
  default:
    return diag_error(loc, "parameter %d of the entry has type %s: inputs are int, double, bool, pairs and pull arrays of them", k + 1,
                      ftype_str(t)), NULL;
  }
}

static FValue *from_value(Value *v) {
  switch (v->kind) {
  case VAL_INT: return fval_int(v->s.i);
  case VAL_DOUBLE: return fval_double(v->s.d);
  case VAL_BOOL: return fval_bool(v->s.b);
  case VAL_TUPLE: {
    FValue *p = fval_new(FV_PAIR);
    p->x = from_value(v->elems[0]);
    p->y = from_value(v->elems[1]);
    return p;
  }
  default: {
    FValue *a = manifest(v->n);
    for (int64_t i = 0; i < v->n; i++) a->elems[i] = from_value(value_elem(v, i));
    return a;
  }
  }
}

static Value *to_value(FEval *ev, FValue *v, Loc loc) {
  switch (v->kind) {
  case FV_INT: return value_int((int32_t)v->i);
  case FV_DOUBLE: return value_double(v->d);
  case FV_BOOL: return value_bool(v->b);
  case FV_UNIT: return value_tuple(0);
  case FV_PAIR: {
    Value *t = value_tuple(2);
    if (!(t->elems[0] = to_value(ev, v->x, loc)) || !(t->elems[1] = to_value(ev, v->y, loc))) return NULL;
    return t;
  }
  case FV_PROG: return to_value(ev, v->x, loc);
  case FV_PUSH: { FValue *m = fcl_force(ev, v, loc); return m ? to_value(ev, m, loc) : NULL; }
  case FV_PULL: {
    Value *a = value_array(v->n);
    for (long long i = 0; i < v->n; i++) {
      FValue *x = fcl_index(ev, v, i, loc);
      if (!x || !(a->elems[i] = to_value(ev, x, loc))) return NULL;
    }
    return a;
  }
  default: return diag_error(loc, "the result is a function: nothing to print"), NULL;
  }
}

FDef *fcl_entry_def(FProgram *p) {
  for (int i = 0; i < p->ndefs; i++) if (!strcmp(p->defs[i]->name, "main")) return p->defs[i];
  return p->defs[p->ndefs - 1];
}

FDef *fcl_entry(FProgram *p, int ninputs) {
  FDef *d = fcl_entry_def(p);
  FScheme *s = d->scheme;
  if (s->ntvars || s->nlvars)
    return diag_error(d->loc, "the entry %s is polymorphic (%s): give it a sig with concrete types and levels", d->name, fscheme_str(s)), NULL;
  FType *t = ftype_prune(s->body);
  int nparams = 0;
  for (FType *q = t; q->kind == FY_FUN; q = ftype_prune(q->b)) nparams++;
  if (ninputs != nparams)
    return diag_error(LOC_NONE, "%s takes %d input%s (%s), %d given", d->name, nparams, nparams == 1 ? "" : "s", ftype_str(t), ninputs), NULL;
  FType *res = t;
  for (int i = 0; i < nparams; i++) res = ftype_prune(res->b);
  if (res->kind == FY_PROG) {
    FLevel *l = flevel_prune(res->lvl);
    int succ = 0;
    for (; l->kind == FL_SUCC; l = flevel_prune(l->inner)) succ++;
    if (l->kind != FL_Z || succ != 2)
      return diag_error(d->loc, "%s returns %s: a program run from the host is a Program<grid> (§5.3.3)", d->name, ftype_str(res)), NULL;
  }
  return d;
}

Value **fcl_read_inputs(FProgram *p, int ninputs, const char **inputs) {
  FDef *d = fcl_entry(p, ninputs);
  if (!d) return NULL;
  Value **in = NEW_ARRAY(Value *, ninputs ? ninputs : 1);
  FType *q = ftype_prune(d->scheme->body);
  for (int i = 0; i < ninputs; i++, q = ftype_prune(q->b)) {
    Type *it = input_type(q->a, i, d->loc);
    const char *what = arena_printf("input %d", i + 1);
    size_t len = strlen(inputs[i]);   /* as a .lift program's inputs: literal, @file, file.npy */
    bool npy = inputs[i][0] != '@' && len > 4 && strcmp(inputs[i] + len - 4, ".npy") == 0;
    in[i] = !it ? NULL : npy ? value_read_npy(inputs[i], it, what)
          : inputs[i][0] == '@' ? value_parse_file(inputs[i] + 1, it, what) : value_parse(inputs[i], it, what);
    if (!in[i]) return NULL;
  }
  return in;
}

Value *fcl_run_values(FProgram *p, int ninputs, Value **inputs, long long block_size) {
  FDef *d = fcl_entry(p, ninputs);
  if (!d) return NULL;
  FEval ev = { .block_size = block_size };
  FEnv *env = NULL;
  for (int i = 0; i < p->ndefs; i++) {
    FValue *v = eval(&ev, env, p->defs[i]->body);
    if (!v) return NULL;
    env = env_bind(env, p->defs[i]->name, v);
    if (p->defs[i] == d) break;
  }
  FValue *f = env_lookup(env, d->name);
  for (int i = 0; i < ninputs; i++)
    if (!(f = fcl_apply(&ev, f, from_value(inputs[i]), d->loc))) return NULL;
  return to_value(&ev, f, d->loc);
}

Value *fcl_run(FProgram *p, int ninputs, const char **inputs, long long block_size) {
  Value **in = fcl_read_inputs(p, ninputs, inputs);
  return in ? fcl_run_values(p, ninputs, in, block_size) : NULL;
}
