/* infer_map.c — type rules of the function-taking primitives (SPEC §4.1–4.2). */
#include "infer.h"
#include "../prim/rules.h"

/* map f : [T1]n -> [T2]n; over [i -> T1]n the lambda sees i as a nat in
   [0, n-1] and the result is [i -> T2]n when T2 mentions it (SPEC §3.5). */
Type *infer_map(InferCx *cx, Expr *e) {
  Type *xs = infer_array_arg(cx, e->kids[1], e);
  if (!xs) return NULL;
  Type *elem = infer_elem_for(xs, e->kids[0]);
  NatVar *i = e->kids[0]->index;
  Type *out = infer_fn(cx, e->kids[0], 1, &elem);
  if (!out) return NULL;
  if (i && type_mentions(out, i)) return type_dep_array(i, out, xs->len);
  return type_array(out, xs->len);
}

/* Shared by reduce and scan: check f : T2 -> T1 -> T2. */
static Type *check_accumulator(InferCx *cx, Expr *e, Type *xs) {
  Type *init = infer_expr(cx, e->kids[0]);
  if (!init) return NULL;
  /* over [i -> T]n the function's element parameter sees the position i
     (SPEC §3.5), recorded as for map so that code generation can bind it */
  Type *params[2] = { init, infer_elem_for(xs, e->kids[1]) };
  Type *out = infer_fn(cx, e->kids[1], 2, params);
  if (!out) return NULL;
  if (!type_equal(out, init)) {
    diag_error(e->kids[1]->loc, "'%s': the function returns %s but the accumulator (initial value) is %s",
               e->prim->name, type_to_string(out), type_to_string(init));
    return NULL;
  }
  return init;
}

Type *infer_reduce(InferCx *cx, Expr *e) {
  Type *xs = infer_array_arg(cx, e->kids[2], e);
  Type *acc = xs ? check_accumulator(cx, e, xs) : NULL;
  return acc ? type_array(acc, nat_const(1)) : NULL;
}

Type *infer_scan(InferCx *cx, Expr *e) {
  Type *xs = infer_array_arg(cx, e->kids[2], e);
  Type *acc = xs ? check_accumulator(cx, e, xs) : NULL;
  return acc ? type_array(acc, xs->len) : NULL;
}

Type *infer_iterate(InferCx *cx, Expr *e) {
  if (e->kids[0]->kind != EX_NAT) {   /* a count known at run time (SPEC §4.1): an int */
    Type *n = infer_expr(cx, e->kids[0]);
    if (!n) return NULL;
    if (n->kind != TY_INT) {
      diag_error(e->kids[0]->loc, "'iterate' expects a count: a size literal (#4, #N) or an int, found %s", type_to_string(n));
      return NULL;
    }
  }
  Type *xs = infer_array_arg(cx, e->kids[2], e);
  Type *out = xs ? infer_fn(cx, e->kids[1], 1, &xs) : NULL;
  if (!out) return NULL;
  if (!type_equal(out, xs)) {
    diag_error(e->kids[1]->loc, "'iterate' needs a function from a type to itself, found %s -> %s",
               type_to_string(xs), type_to_string(out));
    return NULL;
  }
  return xs;
}

/* The state of a whileSeq lives in private variables of the thread that runs
   it: scalars and tuples of them. An array state is left out for now
   (docs/language.md §5): it would need iterate's two buffers and a copy out
   of the half the loop ended in, known only at run time. */
static bool loop_state(Type *t) {
  if (type_is_scalar(t)) return true;
  for (int i = 0; t->kind == TY_TUPLE && i < t->n; i++) if (!loop_state(t->fields[i])) return false;
  return t->kind == TY_TUPLE;
}

/* whileSeq p f init : (T -> bool) -> (T -> T) -> T -> T (SPEC §4.2) */
Type *infer_while(InferCx *cx, Expr *e) {
  Type *t = infer_expr(cx, e->kids[2]);
  if (!t) return NULL;
  if (!loop_state(t)) {
    diag_error(e->kids[2]->loc, "'%s': the state must be a scalar or a tuple of scalars, found %s "
               "(an array state is not supported; iterate loops over an array a counted number of times)",
               e->prim->name, type_to_string(t));
    return NULL;
  }
  Type *c = infer_fn(cx, e->kids[0], 1, &t);
  if (!c) return NULL;
  if (c->kind != TY_BOOL) {
    diag_error(e->kids[0]->loc, "'%s': the predicate must return bool, found %s", e->prim->name, type_to_string(c));
    return NULL;
  }
  Type *next = infer_fn(cx, e->kids[1], 1, &t);
  if (!next) return NULL;
  if (!type_equal(next, t)) {
    diag_error(e->kids[1]->loc, "'%s': the function returns %s but the state (initial value) is %s",
               e->prim->name, type_to_string(next), type_to_string(t));
    return NULL;
  }
  return t;
}

Type *infer_to(InferCx *cx, Expr *e) {
  Type *x = infer_expr(cx, e->kids[1]);
  return x ? infer_fn(cx, e->kids[0], 1, &x) : NULL;
}

Type *infer_id(InferCx *cx, Expr *e) { return infer_expr(cx, e->kids[0]); }

/* filter p xs : {∃X.[T]X} for xs : [T]n, p : T -> bool (SPEC §3.4); X lies in [0, n]. */
Type *infer_filter(InferCx *cx, Expr *e) {
  Type *xs = infer_array_arg(cx, e->kids[1], e);
  if (!xs) return NULL;
  if (xs->index) {
    diag_error(e->loc, "'%s' of a position-dependent array is not supported", e->prim->name);
    return NULL;
  }
  Type *p = infer_fn(cx, e->kids[0], 1, &xs->elem);
  if (!p) return NULL;
  if (p->kind != TY_BOOL) {
    diag_error(e->kids[0]->loc, "'%s': the predicate must return bool, found %s", e->prim->name, type_to_string(p));
    return NULL;
  }
  return infer_exists(cx, xs->elem, xs->len);
}
