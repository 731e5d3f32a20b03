/* infer_layout.c — type rules of the data-layout primitives (SPEC §4.1). */
#include "infer.h"
#include "../prim/rules.h"

/* Position-dependent arrays (SPEC §3.5): does t's element depend on its position? */
static bool depends(Type *t) { return t->kind == TY_ARRAY && t->index && type_mentions(t->elem, t->index); }

/* [v -> elem]len, or [elem]len when elem does not mention v. */
static Type *array_at(NatVar *v, Type *elem, Nat *len) {
  return type_mentions(elem, v) ? type_dep_array(v, elem, len) : type_array(elem, len);
}

/* A fresh position variable in [0, len-1]. */
static NatVar *position(const char *name, Nat *len) { return nat_var_new(name, nat_const(0), nat_sub(len, nat_const(1))); }

/* The element of xs at position `at` (a nat): T[i := at] for [i -> T]n. */

/* Rows of rows of xs, as split and slide make them: window w holds the
   elements at w*step + l, l < size, so over [i -> T]n it is
   [w -> [l -> T(w*step + l)]size]count. */
static Type *windows(Type *xs, Nat *size, Nat *step, Nat *count) {
  if (!depends(xs)) return type_array(type_array(xs->elem, size), count);
  NatVar *w = position("w", count), *l = position("l", size);
  Type *inner = array_at(l, type_elem_at(xs, nat_add(nat_mul(nat_var(w), step), nat_var(l))), size);
  return array_at(w, inner, count);
}

static Type *need_array_of_arrays(Expr *e, Type *t) {
  if (t->elem->kind != TY_ARRAY) {
    diag_error(e->kids[e->nkids - 1]->loc, "'%s' expects an array of arrays, found %s", e->prim->name, type_to_string(t));
    return NULL;
  }
  return t->elem;
}

Type *infer_zip(InferCx *cx, Expr *e) {
  Type **f = NEW_ARRAY(Type *, e->nkids);
  for (int i = 0; i < e->nkids; i++) {
    Type *t = infer_array_arg(cx, e->kids[i], e);
    if (!t) return NULL;
    if (i > 0 && !nat_equal(t->len, f[0]->len)) {
      diag_error(e->loc, "'%s' needs arrays of the same length, found %s and %s",
                 e->prim->name, type_to_string(f[0]), type_to_string(t));
      return NULL;
    }
    f[i] = t;
  }
  /* position-dependent arrays (SPEC §3.5): one position variable for the
     zipped element, every array's own replaced by it */
  NatVar *pos = NULL;
  for (int i = 0; i < e->nkids && !pos; i++)
    if (f[i]->index) pos = nat_var_new(f[i]->index->name, nat_const(0), nat_sub(f[0]->len, nat_const(1)));
  Type **elems = NEW_ARRAY(Type *, e->nkids);
  for (int i = 0; i < e->nkids; i++)
    elems[i] = f[i]->index ? type_subst(f[i]->elem, f[i]->index, nat_var(pos)) : f[i]->elem;
  Type *tuple = type_tuple(e->nkids, elems);
  if (pos && type_mentions(tuple, pos)) return type_dep_array(pos, tuple, f[0]->len);
  return type_array(tuple, f[0]->len);
}

Type *infer_unzip(InferCx *cx, Expr *e) {
  Type *t = infer_array_arg(cx, e->kids[0], e);
  if (!t) return NULL;
  if (t->elem->kind != TY_TUPLE) {
    diag_error(e->loc, "'unzip' expects an array of tuples, found %s", type_to_string(t));
    return NULL;
  }
  Type **f = NEW_ARRAY(Type *, t->elem->n);
  for (int i = 0; i < t->elem->n; i++)   /* over [i -> (A x B)]n: [i -> A]n and [i -> B]n */
    f[i] = t->index ? array_at(t->index, t->elem->fields[i], t->len) : type_array(t->elem->fields[i], t->len);
  return type_tuple(t->elem->n, f);
}

Type *infer_get(InferCx *cx, Expr *e) {
  Expr *arg = e->kids[e->nkids - 1];
  Type *t = infer_expr(cx, arg);
  if (!t) return NULL;
  long long k = e->prim->tuple_index;
  if (k == PRIM_FIELD_FROM_ARG) {
    if (!nat_is_const(e->kids[0]->nat, &k) || k < 1) {
      diag_error(e->kids[0]->loc, "'get' expects a constant field number from 1");
      return NULL;
    }
    k--;
  }
  if (t->kind != TY_TUPLE || k >= t->n) {
    diag_error(e->loc, "'%s' expects a tuple with at least %lld fields, found %s", e->prim->name, k + 1, type_to_string(t));
    return NULL;
  }
  return t->fields[k];
}

Type *infer_tuple(InferCx *cx, Expr *e) {
  Type **f = NEW_ARRAY(Type *, e->nkids);
  for (int i = 0; i < e->nkids; i++) if (!(f[i] = infer_expr(cx, e->kids[i]))) return NULL;
  return type_tuple(e->nkids, f);
}

Type *infer_split(InferCx *cx, Expr *e) {
  Nat *m = infer_nat_arg(e->kids[0]);
  Type *t = infer_array_arg(cx, e->kids[1], e);
  if (!t) return NULL;
  long long mv;
  if (nat_is_const(m, &mv) && mv == 0) { diag_error(e->kids[0]->loc, "'split' by 0"); return NULL; }
  if (!infer_require(cx, CHECK_DIVIDES, t->len, m, e, arena_printf("split #%s", nat_to_string(m)))) return NULL;
  return windows(t, m, m, nat_div(t->len, m));
}

Type *infer_join(InferCx *cx, Expr *e) {
  Type *t = infer_array_arg(cx, e->kids[0], e);
  Type *row = t ? need_array_of_arrays(e, t) : NULL;
  if (!row) return NULL;
  if (depends(t)) {   /* [i -> [T](f i)]n : [T](Σ_{i<n} f i), in closed form where there is one (SPEC §3.5) */
    if (type_mentions(row->elem, t->index) || depends(row)) {
      diag_error(e->loc, "'join' of rows whose elements depend on the position (%s) is not supported", type_to_string(t));
      return NULL;
    }
    NatVar *k = nat_var_new("k", nat_const(0), NULL);
    return type_array(row->elem, nat_sum(k, nat_const(0), t->len, nat_subst(row->len, t->index, nat_var(k))));
  }
  if (depends(row)) {   /* [[j -> T(j)]m]n : element p is T(p % m) */
    Nat *len = nat_mul(t->len, row->len);
    NatVar *p = position("p", len);
    return array_at(p, type_elem_at(row, nat_mod(nat_var(p), row->len)), len);
  }
  return type_array(row->elem, nat_mul(t->len, row->len));
}

Type *infer_transpose(InferCx *cx, Expr *e) {
  Type *t = infer_array_arg(cx, e->kids[0], e);
  Type *row = t ? need_array_of_arrays(e, t) : NULL;
  if (!row) return NULL;
  if (depends(t) || depends(row)) {   /* rows of different lengths have no columns */
    diag_error(e->loc, "'transpose' of a position-dependent array is not supported: %s%s", type_to_string(t),
               depends(t) ? " has rows whose type depends on their position" : " has rows that are position-dependent");
    return NULL;
  }
  return type_array(type_array(row->elem, t->len), row->len);
}

Type *infer_slide(InferCx *cx, Expr *e) {
  Nat *s = infer_nat_arg(e->kids[0]), *st = infer_nat_arg(e->kids[1]);
  Type *t = infer_array_arg(cx, e->kids[2], e);
  if (!t) return NULL;
  long long v;
  if (nat_is_const(s, &v) && v == 0) { diag_error(e->kids[0]->loc, "'slide' needs a window of at least 1"); return NULL; }
  if (nat_is_const(st, &v) && v == 0) { diag_error(e->kids[1]->loc, "'slide' needs a step of at least 1"); return NULL; }
  if (!infer_require(cx, CHECK_LE, s, t->len, e, "slide (window larger than the array)")) return NULL;
  return windows(t, s, st, nat_add(nat_div(nat_sub(t->len, s), st), nat_const(1)));
}

Type *infer_pad(InferCx *cx, Expr *e) {
  Type *t = infer_array_arg(cx, e->kids[2], e);
  if (!t) return NULL;
  Nat *l = infer_nat_arg(e->kids[0]), *len = nat_add(nat_add(l, t->len), infer_nat_arg(e->kids[1]));
  if (!depends(t)) return type_array(t->elem, len);
  /* [j -> T(clamp(j - l))]: element j repeats the edge's */
  NatVar *j = position("j", len);
  Nat *at = nat_min(nat_max(nat_sub(nat_var(j), l), nat_const(0)), nat_sub(t->len, nat_const(1)));
  return array_at(j, type_elem_at(t, at), len);
}

Type *infer_pad_constant(InferCx *cx, Expr *e) {
  Type *c = infer_expr(cx, e->kids[2]);
  Type *t = c ? infer_array_arg(cx, e->kids[3], e) : NULL;
  if (!t) return NULL;
  if (depends(t)) {
    diag_error(e->loc, "'padConstant' of a position-dependent array is not supported: the padding value "
               "cannot have the type of every element of %s", type_to_string(t));
    return NULL;
  }
  if (!type_equal(c, t->elem)) {
    diag_error(e->kids[2]->loc, "'padConstant': the padding value is %s but the elements are %s",
               type_to_string(c), type_to_string(t->elem));
    return NULL;
  }
  return type_array(t->elem, nat_add(nat_add(infer_nat_arg(e->kids[0]), t->len), infer_nat_arg(e->kids[1])));
}

/* A bound of int e known before the run, or NULL: an upper bound of e's value
   wherever e's int arithmetic does not wrap, from the bounds of its parts. An
   int input n is bounded by its value size max(n, 1) (Program.size_param), a
   literal by itself; x + y, x − c, k × x, max, min, x / k and x % k (c, k
   literals ≥ 0, k > 0 for / and %) by the bounds of x and y; (length xs) by
   xs's length (its rigid lengths by their bounds, infer_exists). Where e's
   arithmetic wraps (n − 1 of INT_MIN) its value may pass the bound: (iota e)
   checks its length against the bound where it is computed (dpia/rules_layout.c
   exp_iota: a run-time error, never a buffer overrun). Not x × y nor x − y: a
   product of two negative values, or a difference, can pass any bound made of
   their bounds with no wrapping at all. */
static Nat *value_bound(InferCx *cx, Expr *e) {
  Program *p = cx->prog;
  if (e->kind == EX_INT) return nat_const(e->ival > 0 ? e->ival : 0);
  if (e->kind == EX_VAR) {
    for (int i = 0; i < p->nparams; i++)
      if (p->params[i].uid == e->uid && p->params[i].type->kind == TY_INT) return nat_var(program_value_size(p, i));
    return NULL;
  }
  if (e->kind != EX_PRIM) return NULL;
  if (e->prim->infer == infer_length && e->nkids == 1 && e->kids[0]->type && e->kids[0]->type->kind == TY_ARRAY)
    return e->kids[0]->type->len;
  if (e->nkids != 2 || !e->prim->op) return NULL;
  Expr *a = e->kids[0], *b = e->kids[1];
  bool lit_b = b->kind == EX_INT && b->ival >= 0 && b->ival <= INT32_MAX, lit_a = a->kind == EX_INT && a->ival >= 0 && a->ival <= INT32_MAX;
  switch (e->prim->op) {
  case OP_ADD: case OP_MAX: {
    Nat *x = value_bound(cx, a), *y = x ? value_bound(cx, b) : NULL;
    return !y ? NULL : e->prim->op == OP_ADD ? nat_add(x, y) : nat_max(x, y);
  }
  case OP_MIN: {   /* the smaller of the bounds known: (min e c) is how a bound is stated */
    Nat *x = value_bound(cx, a), *y = value_bound(cx, b);
    return x && y ? nat_min(x, y) : x ? x : y;
  }
  case OP_SUB: return lit_b ? value_bound(cx, a) : NULL;
  case OP_MUL: {
    Nat *x = lit_a ? value_bound(cx, b) : lit_b ? value_bound(cx, a) : NULL;
    return x ? nat_mul(nat_const(lit_a ? a->ival : b->ival), x) : NULL;
  }
  case OP_DIV: return lit_b && b->ival > 0 ? value_bound(cx, a) : NULL;
  case OP_MOD: return lit_b && b->ival > 0 ? nat_const(b->ival - 1) : NULL;
  default: return NULL;
  }
}

/* (iota #n) : [int]n; (iota e), e an int known at run time : {∃X.[int]X}
   (SPEC §4.1), bounded before the run where e is made of int inputs
   (value_bound), else with no upper bound known before the program runs. */
Type *infer_iota(InferCx *cx, Expr *e) {
  if (e->kids[0]->kind == EX_NAT) return type_array(type_scalar(TY_INT), infer_nat_arg(e->kids[0]));
  Type *n = infer_expr(cx, e->kids[0]);
  if (!n) return NULL;
  if (n->kind != TY_INT) {
    diag_error(e->kids[0]->loc, "'iota' expects a length: a size literal (#4, #N) or an int, found %s", type_to_string(n));
    return NULL;
  }
  return infer_exists(cx, type_scalar(TY_INT), value_bound(cx, e->kids[0]));
}

Type *infer_aref(InferCx *cx, Expr *e) {
  Type *t = infer_array_arg(cx, e->kids[0], e);
  Type *i = t ? infer_expr(cx, e->kids[1]) : NULL;
  if (!i) return NULL;
  if (i->kind != TY_INT && i->kind != TY_IDX && i->kind != TY_LONG) {
    diag_error(e->kids[1]->loc, "'aref' expects an int index, found %s", type_to_string(i));
    return NULL;
  }
  if (t->index) { diag_error(e->loc, "'aref' on a position-dependent array is not supported yet"); return NULL; }
  /* a constant index out of range for every size is refused here, on every
     target; one in range for some sizes is checked at run time (SPEC §8) */
  Expr *k = e->kids[1];
  if (k->kind == EX_INT && (k->ival < 0 || nat_proves_le(t->len, nat_const(k->ival)))) {
    diag_error(k->loc, "aref: index %lld is out of range for every length of the array (%s)", k->ival, nat_to_string(t->len));
    return NULL;
  }
  return t->elem;
}

Type *infer_length(InferCx *cx, Expr *e) {
  return infer_array_arg(cx, e->kids[0], e) ? type_scalar(TY_INT) : NULL;
}

Type *infer_slice(InferCx *cx, Expr *e) {
  Nat *start = infer_nat_arg(e->kids[0]), *len = infer_nat_arg(e->kids[1]);
  Type *t = infer_array_arg(cx, e->kids[2], e);
  if (!t) return NULL;
  if (!infer_require(cx, CHECK_LE, nat_add(start, len), t->len, e, "slice (beyond the end of the array)")) return NULL;
  if (!depends(t)) return type_array(t->elem, len);
  NatVar *j = position("j", len);   /* [j -> T(start + j)]len */
  return array_at(j, type_elem_at(t, nat_add(start, nat_var(j))), len);
}

Type *infer_as_vector(InferCx *cx, Expr *e) {
  Nat *k = infer_nat_arg(e->kids[0]);
  Type *t = infer_array_arg(cx, e->kids[1], e);
  if (!t) return NULL;
  long long w;
  if (!nat_is_const(k, &w) || (w != 2 && w != 3 && w != 4 && w != 8 && w != 16)) {
    diag_error(e->kids[0]->loc, "'asVector' width must be 2, 3, 4, 8 or 16");
    return NULL;
  }
  if (!type_is_numeric(t->elem)) {
    diag_error(e->loc, "'asVector' expects an array of numbers, found %s", type_to_string(t));
    return NULL;
  }
  if (!infer_require(cx, CHECK_DIVIDES, t->len, k, e, arena_printf("asVector #%lld", w))) return NULL;
  return type_array(type_vector(t->elem, (int)w), nat_div(t->len, k));
}

Type *infer_as_scalar(InferCx *cx, Expr *e) {
  Type *t = infer_array_arg(cx, e->kids[0], e);
  if (!t) return NULL;
  if (t->elem->kind != TY_VECTOR) {
    diag_error(e->loc, "'asScalar' expects an array of vectors, found %s", type_to_string(t));
    return NULL;
  }
  return type_array(t->elem->elem, nat_mul(t->len, nat_const(t->elem->width)));
}

/* (partition #n F xs) : [i -> [T](F i)]n for xs : [T](Σ_{i<n} F i) (SPEC §3.5;
   seed 002 §4.4). The sum must equal the length symbolically (nat_equal); a
   case split has exactly n parts; a part's size must not be negative once the
   sizes are bound (CHECK_NONNEG, every position of a nat-fn: inputs.c). */
Type *infer_partition(InferCx *cx, Expr *e) {
  Nat *n = infer_nat_arg(e->kids[0]);
  Expr *f = e->kids[1];
  Type *t = infer_array_arg(cx, e->kids[2], e);
  if (!t) return NULL;
  if (depends(t)) {
    diag_error(e->loc, "'partition' of a position-dependent array is not supported (%s)", type_to_string(t));
    return NULL;
  }
  long long parts;
  if (f->nparts && (!nat_is_const(n, &parts) || parts != f->nparts)) {
    diag_error(e->kids[0]->loc, "'partition': the case split has %d parts, but #%s parts are asked for",
               f->nparts, nat_to_string(n));
    return NULL;
  }
  NatVar *i = position(f->index->name, n), *k = nat_var_new("k", nat_const(0), NULL);
  Nat *size = nat_subst(f->nat, f->index, nat_var(i));
  Nat *total = nat_sum(k, nat_const(0), n, nat_subst(f->nat, f->index, nat_var(k)));
  if (!nat_equal(total, t->len)) {
    diag_error(e->loc, "'partition': the parts add up to %s, but the array has %s elements (%s)",
               nat_to_string(total), nat_to_string(t->len), type_to_string(t));
    return NULL;
  }
  for (int p = 0; p < (f->nparts ? f->nparts : 1); p++) {
    Nat *part = f->nparts ? nat_subst(f->nat, f->index, nat_const(p)) : size;
    const char *what = f->nparts ? arena_printf("partition: the size %s of part %d", nat_to_string(part), p + 1)
                                 : arena_printf("partition: the size %s of part %s", nat_to_string(part), i->name);
    if (!infer_require(cx, CHECK_NONNEG, nat_const(0), part, f, what)) return NULL;
  }
  /* a partition stays [i -> …]n even when its parts are all alike: the
     compiled targets have no rule for it yet and refuse what is dependent */
  return type_dep_array(i, type_array(t->elem, size), n);
}
