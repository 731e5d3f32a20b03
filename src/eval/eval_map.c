/* eval_map.c — interpreter rules of the function-taking primitives. All map
   variants (map, mapSeq, mapGlb, …) and reduce variants mean the same here.
   Memory (docs/design.md §9): each iteration runs between an arena mark and
   value_keep, which keeps the iteration's result and frees everything else it
   allocated, so a loop of 10^8 iterations needs the memory of one (whileSeq too). */
#include "interp.h"
#include "../prim/rules.h"

/* An array to be filled element by element: flat when the element type is a
   scalar or a regular array of scalars (a result of 10^7 floats costs 40 MB, not a
   boxed value each), else boxed. */
/* Does t hold a position-dependent array? Its rows differ in length: boxed. */
static bool holds_position(Type *t) {
  for (; t->kind == TY_ARRAY; t = t->elem) if (t->index) return true;
  return false;
}

Value *interp_new_array(Interp *it, Type *type, int64_t n, Loc loc) {
  ValueKind leaf;
  int rank;
  if (type->kind != TY_ARRAY || holds_position(type) || !value_flat_elem_type(type->elem, &leaf, &rank)) return value_array(n);
  Type *elem = type->elem;
  int64_t shape[1 + 32];
  if (rank > 32) return value_array(n);
  shape[0] = n;
  Type *t = elem;
  for (int d = 1; d <= rank; d++, t = t->elem) {
    long long len;
    if (!interp_nat(it, t->len, loc, &len)) return NULL;
    shape[d] = len;
  }
  return value_flat(leaf, rank + 1, shape);
}

static bool mismatch(Expr *e) {
  return diag_error(e->loc, "internal: '%s' produced a value that does not match its type", e->prim->name);
}

/* Store the result of iteration i; a flat array copies it, a boxed one keeps it
   (copied down to the iteration's mark). A result holding a failed element (a lazy
   map's, see eval_map) makes a flat array boxed: r is kept first, so that the
   boxed elements allocated after it are never released by this loop. */
static bool store(Value *out, int64_t i, Value *r, ArenaMark m, Expr *e) {
  if (!value_is_flat(out)) { out->elems[i] = value_keep(r, m); return true; }
  if (value_find_failed(r)) return value_set_elem(out, i, value_keep(r, m));
  bool ok = value_set_elem(out, i, r);
  arena_release(m);
  return ok || mismatch(e);
}

static bool holds_array(Type *t) {
  if (t->kind == TY_ARRAY) return true;
  for (int i = 0; t->kind == TY_TUPLE && i < t->n; i++) if (holds_array(t->fields[i])) return true;
  return false;
}

/* A lazy `map` computes only the elements its consumer reads (SPEC §4.1: fused
   into the consumer), so an element whose computation fails is an error only if
   it is read: it is kept as a VAL_FAILED value and raised then (interp_eval).
   Elements holding arrays fail at once (views of them are not tracked). The
   strategies (mapSeq, mapGlb, …) store every element they compute, so they read
   it whole (interp_demand), as the compiled code does. */
Value *eval_map(Interp *it, Expr *e, Env *env) {
  Value *xs = interp_array(it, e->kids[1], env);
  if (!xs) return NULL;
  Value *out = interp_new_array(it, e->type, xs->n, e->loc);
  bool strategy = e->prim->level != LEVEL_LAZY, lazy = !strategy && !holds_array(e->type->elem);
  for (int64_t i = 0; out && i < xs->n; i++) {
    ArenaMark m = arena_mark();
    Value *x = value_elem(xs, i);
    Value *r = interp_call(it, e->kids[0], &x, env, i);
    int aside;
    if (!r && lazy && (aside = diag_set_aside()) >= 0) r = value_failed(aside);
    if (strategy) r = interp_demand(r);
    if (!r || !store(out, i, r, m, e)) return NULL;
  }
  return out;
}

/* reduce and scan fold left: acc = f acc x (SPEC §4.1). A reduce keeps only the
   latest accumulator (released back to the mark before the loop); a scan keeps
   them all in its result. */
static Value *fold(Interp *it, Expr *e, Env *env, bool keep_all) {
  Value *acc = interp_demand(interp_eval(it, e->kids[0], env));
  Value *xs = acc ? interp_array(it, e->kids[2], env) : NULL;
  if (!xs) return NULL;
  Value *out = interp_new_array(it, e->type, keep_all ? xs->n : 1, e->loc);
  if (!out) return NULL;
  ArenaMark loop = arena_mark();
  for (int64_t i = 0; i < xs->n; i++) {
    ArenaMark m = arena_mark();
    Value *args[2] = { acc, value_elem(xs, i) };
    if (!(acc = interp_demand(interp_call(it, e->kids[1], args, env, i)))) return NULL;   /* stored whole */
    if (keep_all && !value_is_flat(out)) {    /* every accumulator stays, as an element */
      out->elems[i] = acc = value_keep(acc, m);
      continue;
    }
    if (keep_all && !value_set_elem(out, i, acc)) return mismatch(e), NULL;   /* a copy stays */
    acc = value_keep(acc, loop);              /* only the latest accumulator is live */
  }
  if (!keep_all && !store(out, 0, acc, arena_mark(), e)) return NULL;
  return out;
}

Value *eval_reduce(Interp *it, Expr *e, Env *env) { return fold(it, e, env, false); }
Value *eval_scan(Interp *it, Expr *e, Env *env) { return fold(it, e, env, true); }

/* A count below 0 applies f no time, as 0 (docs/language.md). iterate
   stores its state, so it reads its initial value whole, as the compiled
   targets do (FINDINGS F31): an element that fails is an error even when f
   never reads it. */
Value *eval_iterate(Interp *it, Expr *e, Env *env) {
  long long k;
  if (e->kids[0]->kind == EX_NAT) {
    if (!interp_nat(it, e->kids[0]->nat, e->loc, &k)) return NULL;
  } else {
    Value *n = interp_demand(interp_eval(it, e->kids[0], env));
    if (!n) return NULL;
    k = n->s.i;
  }
  Value *x = interp_demand(interp_eval(it, e->kids[2], env));
  ArenaMark loop = arena_mark();
  for (long long i = 0; x && i < k; i++)
    if ((x = interp_demand(interp_call(it, e->kids[1], &x, env, 0)))) x = value_keep(x, loop);
  return x;
}

/* x = init; while (p x) x = f x. Only the latest state is live (kept at the
   mark before the loop); the predicate's value is read, then released. */
Value *eval_while(Interp *it, Expr *e, Env *env) {
  Value *x = interp_demand(interp_eval(it, e->kids[2], env));
  ArenaMark loop = arena_mark();
  while (x) {
    ArenaMark test = arena_mark();
    Value *c = interp_demand(interp_call(it, e->kids[0], &x, env, 0));
    if (!c) return NULL;
    bool again = c->s.b;
    arena_release(test);
    if (!again) break;
    if ((x = interp_demand(interp_call(it, e->kids[1], &x, env, 0)))) x = value_keep(x, loop);
  }
  return x;
}

Value *eval_to(Interp *it, Expr *e, Env *env) {
  Value *x = interp_eval(it, e->kids[1], env);
  return x ? interp_demand(interp_call(it, e->kids[0], &x, env, 0)) : NULL;   /* stored in its space */
}

Value *eval_id(Interp *it, Expr *e, Env *env) { return interp_eval(it, e->kids[0], env); }

/* filter p xs: the elements for which p holds, in order (SPEC §3.4). */
Value *eval_filter(Interp *it, Expr *e, Env *env) {
  Value *xs = interp_array(it, e->kids[1], env);
  if (!xs) return NULL;
  bool *keep = NEW_ARRAY(bool, xs->n > 0 ? xs->n : 1);
  int64_t kept = 0;
  for (int64_t i = 0; i < xs->n; i++) {
    ArenaMark m = arena_mark();
    Value *x = value_elem(xs, i);
    Value *r = interp_demand(interp_call(it, e->kids[0], &x, env, 0));
    if (!r) return NULL;
    kept += keep[i] = r->s.b;
    arena_release(m);
  }
  /* a filter stores the elements it keeps, so it reads them (as the compiled
     code does): a kept element of a lazy map whose computation failed is an
     error here (FINDINGS F28) */
  Value *out = interp_new_array(it, e->type->array, kept, e->loc);
  for (int64_t i = 0, j = 0; out && i < xs->n; i++) {
    if (!keep[i]) continue;
    Value *x = interp_demand(value_elem(xs, i));
    if (!x) return NULL;
    if (!value_set_elem(out, j++, x)) return mismatch(e), NULL;
  }
  return out;
}
