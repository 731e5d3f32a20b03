/* exists.c — dynamic-length arrays in the DPIA translation (SPEC §3.4). A
   {∃X.[T]X} is stored at its upper bound (the length of what was filtered)
   with its run-time length beside it: a private int where one thread owns
   it, an array of ints for an array of them (one per row, rows at the stride
   of their upper bound). Views and acceptors carry the length (View.len,
   Acc.len). An unpack binds the rigid length of the type checker as a size
   variable of the generated code (KS_COUNT), so everything after it is
   ordinary code over [T]X'; on the device targets the host reads it back
   where the next kernel needs it (plan.c, STEP_COUNT). */
#include "dpia.h"

bool exists_in(Type *t) { return type_has_exists(t); }

Type *exists_upper(Type *t) {
  Type *u = type_exists_upper(t);
  if (!u)
    diag_unsupported(LOC_NONE, "a dynamic-length array whose length has no bound known before the program runs, "
                     "or that holds dynamic-length arrays (%s)", type_to_string(t));
  return u;
}

Type *exists_lens(Type *t) { return type_exists_lens(t); }

View *exists_open(Tr *tr, View *v, NatVar *rigid) {
  if (!v->len)
    return diag_unsupported(LOC_NONE, "a dynamic-length array passed through a layout (zip, split, …) of an array "
                            "of them"), NULL;
  CExp *len = view_resolve(tr, v->len, (Path){0, NULL});
  if (!len) return NULL;
  /* the rigid length's name in the generated code: unique there (the type
     checker's X1, X2 … could be any user's name) */
  rigid->name = dpia_fresh(tr, "len");
  ARENA_PUSH(tr->rigid, tr->nrigid, tr->rigid_cap, rigid);
  KStmt *s = NEW(KStmt);
  s->kind = KS_COUNT; s->var = rigid; s->init = len;
  kstmt_add(tr->block, s);
  View *r = NEW(View);
  *r = *v;
  r->type = type_subst(v->type->array, v->type->exvar, nat_var(rigid));
  r->len = NULL;
  return r;
}

Type *exists_bounded(Tr *tr, Type *t) {
  for (int i = tr->nrigid - 1; i >= 0; i--)
    if (type_mentions(t, tr->rigid[i])) {
      if (!tr->rigid[i]->hi) {   /* (iota n) with n computed at run time: no bound before the run */
        tr->refused = true;
        diag_unsupported(LOC_NONE, "a temporary whose size depends on the length of (iota n), n known only while "
                         "the program runs (%s); give iota a size literal (#N) or consume it in one thread (reduceSeq)",
                         type_to_string(t));
        t = type_subst(t, tr->rigid[i], nat_const(1));   /* a stand-in of the same shape: the translation ends, refused */
        continue;
      }
      t = type_subst(t, tr->rigid[i], tr->rigid[i]->hi);
    }
  return t;
}

Acc *exists_accept(Tr *tr, Acc *out, Nat *len) {
  (void)tr;
  if (out->type->kind != TY_EXISTS || !out->len)
    return diag_internal(LOC_NONE, "a dynamic-length array written where its length has no place"), NULL;
  Acc *r = NEW(Acc);
  *r = *out;
  r->type = type_array(out->type->array->elem, len);
  r->len = NULL;
  return r;
}

bool exists_set_len(Tr *tr, Acc *out, CExp *len) {
  CExp *lhs = acc_resolve(tr, out->len, (Path){0, NULL});
  if (!lhs) return false;
  kstmt_add(tr->block, kstmt_assign(lhs, len));
  return true;
}

View *exists_view(View *data, Type *t, CExp *len) {
  View *r = NEW(View);
  *r = *data;
  r->type = t;
  r->len = view_scalar(len);
  return r;
}

/* Layouts of arrays of dynamic-length arrays (join, split, transpose, slice of
   their rows): the lengths go through the same layout as the rows, so that a
   row reached through it still has its length. */
static bool remaps_rows(ViewKind k) { return k == V_SPLIT || k == V_JOIN || k == V_TRANSPOSE || k == V_SLICE; }

View *exists_layout_view(View *v) {
  if (!v || v->len || v->n != 1 || !v->kids[0] || !v->kids[0]->len || !remaps_rows(v->kind) || !exists_in(v->type)) return v;
  View *l = NEW(View);
  *l = *v;
  l->kids = NEW_ARRAY(View *, 1);
  l->kids[0] = v->kids[0]->len;
  l->type = exists_lens(v->type);
  v->len = l;
  return v;
}

Acc *exists_layout_acc(Acc *a, Acc *out) {
  if (!a || !out->len || !(a->kind == AC_SPLIT || a->kind == AC_JOIN || a->kind == AC_TRANSPOSE) || !exists_in(a->type)) return a;
  Acc *l = NEW(Acc);
  *l = *a;
  l->kid = out->len;
  l->type = exists_lens(a->type);
  a->len = l;
  return a;
}
