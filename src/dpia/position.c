/* position.c — position-dependent arrays in the translation (SPEC §3.5, seed
   002): the element of [i -> T]n at position r has type T[r/i]; a function
   over such elements is translated once per place it is applied, its
   position variable replaced by the index it is applied at (so no code ever
   names i); temporaries whose size depends on an enclosing loop are stored
   packed ([i -> T]n) or at their largest size. Offsets are Σ in closed form
   (arith/nat_sum.c), computed where a path reaches a buffer (view.c). */
#include "dpia.h"
#include "../layout/layout.h"

bool dpia_dependent(Type *t) {
  if (!t) return false;
  switch (t->kind) {
  case TY_ARRAY: return t->index || dpia_dependent(t->elem);
  case TY_TUPLE:
    for (int i = 0; i < t->n; i++) if (dpia_dependent(t->fields[i])) return true;
    return false;
  case TY_EXISTS: return dpia_dependent(t->array);
  default: return false;
  }
}

/* A copy of e with the nat variable v replaced by `by` in every type and
   size literal (the binders keep their uids: each copy is translated in its
   own scope). */
static Expr *subst_expr(Expr *e, NatVar *v, Nat *by) {
  Expr *r = NEW(Expr);
  *r = *e;
  if (e->type) r->type = type_subst(e->type, v, by);
  if (e->nat) r->nat = nat_subst(e->nat, v, by);
  if (e->nparams) {
    r->params = NEW_ARRAY(Param, e->nparams);
    for (int i = 0; i < e->nparams; i++) {
      r->params[i] = e->params[i];
      if (e->params[i].type) r->params[i].type = type_subst(e->params[i].type, v, by);
    }
  }
  if (e->nkids) {
    r->kids = NEW_ARRAY(Expr *, e->nkids);
    for (int i = 0; i < e->nkids; i++) r->kids[i] = subst_expr(e->kids[i], v, by);
  }
  return r;
}

Expr *dpia_at_position(Expr *lam, View **args) {
  if (!lam->index) return lam;
  for (int k = 0; k < lam->nparams; k++)
    if (args[k] && args[k]->pos) {
      Expr *r = subst_expr(lam, lam->index, args[k]->pos);
      r->index = NULL;
      return r;
    }
  diag_unsupported(lam->loc, "a function over the rows of a position-dependent array applied where the row's "
                   "position is not known");
  return NULL;
}

/* Is v one of the program's size variables (bound before anything runs)? */
static bool size_variable(Tr *tr, NatVar *v) {
  Program *p = tr->k->prog;
  for (int i = 0; i < p->nsizes; i++) if (p->sizes[i] == v) return true;
  return false;
}

/* Does n mention a variable that nothing binds before the program runs:
   neither a size variable nor the position of one of the enclosing
   position-dependent levels of the type (an index of an enclosing sequential
   loop)? */
typedef struct Bound { NatVar *v; const struct Bound *up; } Bound;

static bool unplaced(Tr *tr, Nat *n, const Bound *bound) {
  int nv;
  NatVar **vars = nat_free_var_list(n, &nv);
  for (int j = 0; j < nv; j++) {
    const Bound *b = bound;
    while (b && b->v != vars[j]) b = b->up;
    if (!b && !size_variable(tr, vars[j])) return true;
  }
  return false;
}

/* Every such length at its largest over the ranges of its variables (the
   row of an upper triangle N - i is largest at i = 0, not at i's hi). */
static Type *at_largest(Tr *tr, Type *t, const Bound *bound) {
  if (t->kind == TY_TUPLE) {
    Type **f = NEW_ARRAY(Type *, t->n);
    for (int i = 0; i < t->n; i++) if (!(f[i] = at_largest(tr, t->fields[i], bound))) return NULL;
    return type_tuple(t->n, f);
  }
  if (t->kind != TY_ARRAY) return t;
  Nat *len = t->len;
  for (int k = 0; len && unplaced(tr, len, bound) && k < 16; k++) len = nat_max_of(len);   /* a max may name an outer index */
  if (!len || unplaced(tr, len, bound)) return NULL;
  Bound here = { t->index, bound };
  Type *elem = at_largest(tr, t->elem, t->index ? &here : bound);
  if (!elem) return NULL;
  return t->index && type_mentions(elem, t->index) ? type_dep_array(t->index, elem, len) : type_array(elem, len);
}

Type *dpia_unplaced(Tr *tr, Type *t) {
  Type *r = at_largest(tr, t, NULL);
  if (r) return r;
  tr->refused = true;
  diag_unsupported(LOC_NONE, "a temporary of type %s inside a sequential loop whose size has no upper bound before "
                   "the program runs", type_to_string(t));
  return t;
}

/* The bound variable of a Σ over the rows of t: a name of its own, since a
   Σ with no closed form prints as a loop over it (nat_print.c). */
static NatVar *sum_var(Type *t) {
  NatVar *r = nat_var_new("r", nat_const(0), nat_sub(t->len, nat_const(1)));
  r->name = arena_printf("r%d", r->id);
  return r;
}

/* Offset, in flattened elements, of the element at path p (indices only,
   as many as t has array levels) of a buffer of type t: Σ of the sizes of
   the rows before it at every position-dependent level, the row-major
   product elsewhere. */
/* Does e hold a Σ the arithmetic could not close? */
static bool open_sum(Nat *e) {
  if (e->kind == NAT_SUM) return true;
  for (int i = 0; i < e->n; i++) if (open_sum(e->args[i])) return true;
  return false;
}

/* SPEC §3.5: generated code computes no offset with a loop. */
static Nat *closed(Tr *tr, Nat *off, Type *t) {
  if (!open_sum(off) || tr->refused) return off;
  tr->refused = true;
  diag_unsupported(LOC_NONE, "the offsets of the rows of %s have no closed form (%s)", type_to_string(t), nat_to_string(off));
  return off;
}

Nat *dpia_flat_offset(Tr *tr, Type *t, Path p, Type **leaf) {
  return closed(tr, dpia_flat_offset_open(t, p, leaf), t);
}

Nat *dpia_flat_offset_open(Type *t, Path p, Type **leaf) {
  Nat *off = nat_const(0);
  for (int k = 0; k < p.n && t->kind == TY_ARRAY; k++) {
    Nat *i = p.e[k].index;
    if (t->index) {   /* a fresh bound variable: i may mention t's own */
      NatVar *r = sum_var(t);
      off = nat_add(off, nat_sum(r, nat_const(0), i, layout_type_elements(type_subst(t->elem, t->index, nat_var(r)))));
    } else {
      off = nat_add(off, nat_mul(i, layout_type_elements(t->elem)));
    }
    t = type_elem_at(t, i);
  }
  *leaf = t;
  return off;
}

Nat *dpia_row_start(Tr *tr, Type *t, Nat *i) {
  NatVar *r = sum_var(t);
  return closed(tr, nat_sum(r, nat_const(0), i, type_len(type_subst(t->elem, t->index, nat_var(r)))), t);
}

/* Are t's elements, below its arrays, stored in one buffer (values, or
   tuples of values as structs)? */
static bool flat_leaf(Type *t) {
  while (t->kind == TY_ARRAY && !t->index) t = t->elem;
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->n; i++) if (!type_is_value(t->fields[i]) && t->fields[i]->kind != TY_TUPLE) return false;
    for (int i = 0; i < t->n; i++) if (t->fields[i]->kind == TY_TUPLE && !flat_leaf(t->fields[i])) return false;
    return true;
  }
  return type_is_value(t);
}

/* Is v the rows of one buffer, stored packed and contiguous (the buffer or
   rows of it)? */
static bool packed_in_buffer(View *v) {
  while (v->kind == V_IDX) v = v->kids[0];
  return v->kind == V_BUF && !v->buf->split;
}

View *dpia_join_packed(Tr *tr, Expr *e) {
  Type *t = e->kids[0]->type;
  View *xs = dpia_exp(tr, e->kids[0]);
  if (!xs) return NULL;
  Type *row = type_elem_at(t, nat_const(0));
  if (row->kind != TY_ARRAY || !flat_leaf(row->elem)) {
    diag_unsupported(e->loc, "join of a position-dependent array whose rows hold %s", type_to_string(row->elem));
    return NULL;
  }
  if (!packed_in_buffer(xs)) {   /* a lazy map, a zip, …: its rows computed into a packed temporary first */
    View *v; Acc *a;
    dpia_new(tr, t, SPACE_NONE, &v, &a);
    if (!dpia_assign(tr, a, xs, t)) return NULL;
    xs = v;
  }
  View *j = view_new(V_JOIN, e->type, 1);
  j->kids[0] = xs;
  return j;
}

/* [k] of the packed rows: the first row's first element's place, k
   elements (of the rows' element type) further. */
CExp *dpia_packed_read(Tr *tr, View *join, Nat *k, Path rest) {
  Path first = path_prepend_index(path_prepend_index(rest, nat_const(0)), nat_const(0));
  CExp *e = view_resolve(tr, join->kids[0], first);
  if (!e) return NULL;
  if (e->kind != CE_READ) return diag_internal(LOC_NONE, "join of packed rows read as %d", e->kind), NULL;
  CExp *r = NEW(CExp);
  *r = *e;
  r->nat = nat_add(e->nat, nat_mul(k, layout_type_elements(join->type->elem)));
  return r;
}
