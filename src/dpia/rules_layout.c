/* rules_layout.c — DPIA rules of the data-layout primitives: they never copy.
   Read (C): a view node, resolved by its path rule in view.c. Written (A): the
   acceptor is transformed instead (split ↔ joinAcc, join ↔ splitAcc, …). */
#include "dpia.h"
#include "../prim/rules.h"

/* A view of kind k over the translated last argument (the array). */
static View *wrap(Tr *tr, Expr *e, ViewKind kind) {
  View *x = dpia_exp(tr, e->kids[e->nkids - 1]);
  if (!x) return NULL;
  View *v = view_new(kind, e->type, 1);
  v->kids[0] = x;
  return v;
}

static Nat *nat_arg(Expr *e, int i) { return e->kids[i]->nat; }

/* A(layout x)(out) = A(x)(inverse-layout acceptor of out): split ↦ joinAcc,
   join ↦ splitAcc, … (the primitive's dpia_inv builds it; mapAcc uses the
   same rules in rules_map.c). */
bool acc_layout(Tr *tr, Expr *e, Acc *out) {
  return dpia_acc(tr, e->kids[e->nkids - 1], exists_layout_acc(e->prim->dpia_inv(e, out), out));
}

View *exp_zip(Tr *tr, Expr *e) {
  View *v = view_new(V_ZIP, e->type, e->nkids);
  for (int i = 0; i < e->nkids; i++) if (!(v->kids[i] = dpia_exp(tr, e->kids[i]))) return NULL;
  return v;
}

bool acc_zip(Tr *tr, Expr *e, Acc *out) {
  for (int i = 0; i < e->nkids; i++) {
    Acc *field = acc_new(AC_ZIPFIELD, e->kids[i]->type, out);
    field->k = i;
    if (!dpia_acc(tr, e->kids[i], field)) return false;
  }
  return true;
}

View *exp_unzip(Tr *tr, Expr *e) {
  View *x = dpia_exp(tr, e->kids[0]);
  if (!x) return NULL;
  View *v = view_new(V_TUPLE, e->type, e->type->n);
  for (int f = 0; f < e->type->n; f++) {
    v->kids[f] = view_new(V_UNZIP, e->type->fields[f], 1);
    v->kids[f]->kids[0] = x; v->kids[f]->k = f;
  }
  return v;
}

int dpia_get_field(Expr *e) {
  long long k = e->prim->tuple_index;   /* get1/get2: the field; (get #k t): k - 1 */
  if (k == PRIM_FIELD_FROM_ARG) { nat_is_const(e->kids[0]->nat, &k); k--; }
  return (int)k;
}

View *exp_get(Tr *tr, Expr *e) {
  View *t = dpia_exp(tr, e->kids[e->nkids - 1]);
  return t ? view_proj(tr, t, dpia_get_field(e)) : NULL;
}

View *exp_tuple(Tr *tr, Expr *e) {
  View *v = view_new(V_TUPLE, e->type, e->nkids);
  for (int i = 0; i < e->nkids; i++) if (!(v->kids[i] = dpia_exp(tr, e->kids[i]))) return NULL;
  return v;
}

bool acc_tuple(Tr *tr, Expr *e, Acc *out) {
  for (int i = 0; i < e->nkids; i++) if (!dpia_acc(tr, e->kids[i], acc_proj(out, i))) return false;
  return true;
}

View *exp_split(Tr *tr, Expr *e) { View *v = wrap(tr, e, V_SPLIT); if (v) v->a = nat_arg(e, 0); return v; }
Acc *inv_split(Expr *e, Acc *out) {
  Acc *a = acc_new(AC_JOIN, e->kids[1]->type, out);
  a->a = nat_arg(e, 0);
  return a;
}

View *exp_join(Tr *tr, Expr *e) {
  if (e->kids[0]->type->index) return dpia_join_packed(tr, e);   /* rows of different lengths (position.c) */
  View *v = wrap(tr, e, V_JOIN);
  if (v) v->a = type_len(e->kids[0]->type->elem);
  return v;
}
Acc *inv_join(Expr *e, Acc *out) {
  Acc *a = acc_new(AC_SPLIT, e->kids[0]->type, out);
  a->a = e->kids[0]->type->index ? NULL : type_len(e->kids[0]->type->elem);   /* NULL: row i starts at Σ_{k<i} (view.c) */
  return a;
}

/* (partition #n F xs) : [i -> [T](F i)]n, seed 002 §5.4: a split whose rows
   differ, row r from Σ_{k<r} F(k) (a = NULL: the row starts come from the
   type, view.c). Written only through a copy (no inverse: an element of xs
   would need the row holding it). */
View *exp_partition(Tr *tr, Expr *e) { return wrap(tr, e, V_SPLIT); }

View *exp_transpose(Tr *tr, Expr *e) { return wrap(tr, e, V_TRANSPOSE); }
Acc *inv_transpose(Expr *e, Acc *out) { return acc_new(AC_TRANSPOSE, e->kids[0]->type, out); }

View *exp_slide(Tr *tr, Expr *e) {
  View *v = wrap(tr, e, V_SLIDE);
  if (v) { v->a = nat_arg(e, 0); v->b = nat_arg(e, 1); }
  return v;
}

View *exp_pad(Tr *tr, Expr *e) {
  View *v = wrap(tr, e, V_PAD);
  if (v) { v->a = nat_arg(e, 0); v->c = type_len(e->kids[2]->type); }
  return v;
}

View *exp_pad_constant(Tr *tr, Expr *e) {
  View *c = dpia_exp(tr, e->kids[2]);
  View *v = c ? wrap(tr, e, V_PADC) : NULL;
  if (!v) return NULL;
  View **kids = NEW_ARRAY(View *, 2);
  kids[0] = v->kids[0]; kids[1] = c;
  v->kids = kids; v->n = 2;
  v->a = nat_arg(e, 0); v->c = type_len(e->kids[3]->type);
  return v;
}

/* Writing padConstant l r c x: the border gets c (a loop of l and one of r
   elements, in the current thread), the interior is x written through an
   offset acceptor: no copy of x. */
static bool write_border(Tr *tr, Acc *out, Nat *from, Nat *count, View *c, Type *t) {
  long long n;
  if (nat_is_const(count, &n) && n == 0) return true;
  if (nat_is_const(count, &n) && n == 1) return dpia_assign(tr, acc_idx(out, from), c, t);
  NatVar *i;
  KStmt *saved = tr->block;
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, count, &i);
  bool ok = dpia_assign(tr, acc_idx(out, nat_add(from, nat_var(i))), c, t);
  tr->block = saved;
  return ok;
}

/* Both borders of one padConstant l r c of an inner length n, written into out. */
bool dpia_write_borders(Tr *tr, Acc *out, Nat *l, Nat *n, Nat *r, View *c, Type *t) {
  return write_border(tr, out, nat_const(0), l, c, t) && write_border(tr, out, nat_add(l, n), r, c, t);
}

bool acc_pad_constant(Tr *tr, Expr *e, Acc *out) {
  View *c = dpia_exp(tr, e->kids[2]);
  if (!c) return false;
  Nat *l = nat_arg(e, 0), *r = nat_arg(e, 1), *n = type_len(e->kids[3]->type);
  Type *t = e->kids[2]->type;
  if (!dpia_write_borders(tr, out, l, n, r, c, t)) return false;
  Acc *inner = acc_new(AC_OFFSET, e->kids[3]->type, out);
  inner->a = l;
  return dpia_acc(tr, e->kids[3], inner);
}

/* (iota e) with e an int known at run time: a view of length e, checked where
   it is computed: not negative, and within the bound its type has (an int
   expression that wrapped around may pass it; types/infer_layout.c
   value_bound): the check of an index e in [0, bound + 1), else [0, e + 1). */
View *exp_iota(Tr *tr, Expr *e) {
  View *v = view_new(V_IOTA, e->type, 0);
  if (e->kids[0]->kind == EX_NAT) return v;
  View *n = dpia_exp(tr, e->kids[0]);
  if (!n) return NULL;
  CExp *wide = cexp_op(OP_I2L, type_scalar(TY_LONG), 1, &n->scalar);
  Nat *hi = e->type->kind == TY_EXISTS ? e->type->exvar->hi : NULL;
  CExp *end = hi ? cexp_nat(nat_add(hi, nat_const(1))) : cexp_op(OP_ADD, type_scalar(TY_LONG), 2, (CExp *[]){ wide, cexp_lit_int(1) });
  if (hi) end->type = type_scalar(TY_LONG);
  CExp *args[3] = { n->scalar, end, kernel_check_site(tr->k, e->loc, CHECK_IOTA) };
  v->len = view_scalar(cexp_op(OP_CHECK_INDEX, type_scalar(TY_LONG), 3, args));
  return v;
}

View *exp_length(Tr *tr, Expr *e) {
  (void)tr;
  return view_scalar(cexp_nat(type_len(e->kids[0]->type)));
}

View *exp_slice(Tr *tr, Expr *e) { View *v = wrap(tr, e, V_SLICE); if (v) v->a = nat_arg(e, 0); return v; }

/* A run-time index becomes a nat variable named after the private variable
   holding it, with the array's index range. */
View *exp_aref(Tr *tr, Expr *e) {
  View *xs = dpia_exp(tr, e->kids[0]);
  if (!xs) return NULL;
  Nat *n = type_len(e->kids[0]->type);
  if (e->kids[1]->kind == EX_INT) {   /* a constant index in range for every size: no run-time test */
    Nat *c = nat_const(e->kids[1]->ival);
    if (e->kids[1]->ival >= 0 && nat_proves_lt(c, n)) return view_idx(tr, xs, c);
  }
  View *i = dpia_exp(tr, e->kids[1]);
  if (!i) return NULL;
  KStmt *d = NEW(KStmt);
  d->kind = KS_DECL; d->name = dpia_fresh(tr, "ix"); d->type = type_scalar(TY_LONG);
  Nat *lo, *hi;
  if (cexp_bounds(i->scalar, &lo, &hi) && nat_proves_le(nat_const(0), lo) && nat_proves_lt(hi, n))
    d->init = cexp_op(OP_I2L, d->type, 1, &i->scalar);   /* in range by its bounds: APL's rotations, (i + k) % n */
  else {
    CExp *args[3] = { i->scalar, cexp_nat(n), kernel_check_site(tr->k, e->loc, e->apl_index ? CHECK_APL_INDEX : CHECK_AREF) };
    d->init = cexp_op(OP_CHECK_INDEX, d->type, 3, args);   /* SPEC §4.1: out of range is an error */
  }
  kstmt_add(tr->block, d);
  NatVar *v = nat_var_new(d->name, nat_const(0), nat_sub(n, nat_const(1)));
  d->var = v;   /* the nat it defines: a later kernel that indexes by it declares it again (plan.c) */
  return view_idx(tr, xs, nat_var(v));
}

View *exp_as_vector(Tr *tr, Expr *e) {
  View *v = wrap(tr, e, V_ASVEC);
  if (v) v->k = e->type->elem->width;
  return v;
}
Acc *inv_as_vector(Expr *e, Acc *out) {
  Acc *a = acc_new(AC_ASSCALAR, e->kids[1]->type, out);
  a->k = e->type->elem->width;
  return a;
}

View *exp_as_scalar(Tr *tr, Expr *e) {
  View *v = wrap(tr, e, V_ASSCALAR);
  if (v) v->k = e->kids[0]->type->elem->width;
  return v;
}
Acc *inv_as_scalar(Expr *e, Acc *out) {
  Acc *a = acc_new(AC_ASVEC, e->kids[0]->type, out);
  a->k = e->kids[0]->type->elem->width;
  return a;
}
