/* view.c — stage III (seed 004, Fig. 6): an element of a view or an acceptor is
   reached by threading an access path (indices, tuple fields) through the
   layout primitives down to a buffer, where it becomes one flattened index,
   simplified by the arithmetic module. Each layout primitive's path rule is a
   few lines here. */
#include "dpia.h"

Path path_prepend_index(Path p, Nat *i) {
  Path r = { p.n + 1, NEW_ARRAY(PathElem, p.n + 1) };
  r.e[0] = (PathElem){ i, -1 };
  for (int k = 0; k < p.n; k++) r.e[k + 1] = p.e[k];
  return r;
}

Path path_prepend_field(Path p, int field) {
  Path r = path_prepend_index(p, NULL);
  r.e[0].field = field;
  return r;
}

Path path_drop(Path p, int k) { return (Path){ p.n - k, p.e + k }; }

bool type_is_value(Type *t) { return type_is_scalar(t) || t->kind == TY_VECTOR || t->kind == TY_IDX; }

Nat *type_len(Type *t) { return t->kind == TY_EXISTS ? t->array->len : t->len; }

View *view_new(ViewKind kind, Type *type, int n) {
  View *v = NEW(View);
  v->kind = kind; v->type = type; v->n = n; v->kids = NEW_ARRAY(View *, n);
  return v;
}

View *view_scalar(CExp *e) { View *v = view_new(V_SCALAR, e->type, 0); v->scalar = e; return v; }
View *view_buf(Buffer *b) { View *v = view_new(V_BUF, b->type, 0); v->buf = b; return v; }

static View *view_idx_at(Tr *tr, View *v, Nat *i);

/* Path p with the field element after the first k indices removed: the path
   into field p.e[k].field of a structure of arrays. */
static Path soa_path(Path p, int k) {
  Path r = { p.n - 1, NEW_ARRAY(PathElem, p.n) };
  for (int j = 0, o = 0; j < p.n; j++) if (j != k) r.e[o++] = p.e[j];
  return r;
}

View *view_idx(Tr *tr, View *v, Nat *i) {
  View *r = view_idx_at(tr, v, i);
  Type *t = v->type->kind == TY_EXISTS ? v->type->array : v->type;
  if (r && t->kind == TY_ARRAY && t->index && r->kind != V_SCALAR) {   /* where a function applied to it binds i */
    View *c = NEW(View);
    *c = *r;
    c->pos = i;
    r = c;
  }
  return r;
}

static View *view_idx_at(Tr *tr, View *v, Nat *i) {
  Type *et = type_elem_at(v->type, i);
  if (v->kind == V_SOA) {   /* the row of every field: still a structure of arrays */
    View *r = view_new(v->k == 1 ? V_TUPLE : V_SOA, et, v->n);
    r->k = v->k - 1;
    for (int f = 0; f < v->n; f++) r->kids[f] = view_idx(tr, v->kids[f], i);
    if (v->len && v->len->type->kind == TY_ARRAY) r->len = view_idx(tr, v->len, i);   /* rows of {∃…}: row i's length */
    return r;
  }
  if (type_is_value(et)) return view_scalar(view_resolve(tr, v, path_prepend_index((Path){0, NULL}, i)));
  if (v->kind == V_MAP && et->kind == TY_EXISTS) {   /* a lazy map's element of dynamic length: computed here, with its length */
    Binding *saved = tr->env;
    tr->env = v->env;
    View *x = view_idx(tr, v->kids[0], i);
    View *fx = dpia_apply(tr, v->fn, &x);
    tr->env = saved;
    return fx;
  }
  View *r = view_new(V_IDX, et, 1);
  r->kids[0] = v; r->a = i;
  if (v->len && v->len->type->kind == TY_ARRAY) r->len = view_idx(tr, v->len, i);   /* an array of {∃…}: row i's length */
  return r;
}

View *view_proj(Tr *tr, View *v, int field) {
  if (v->kind == V_TUPLE) return v->kids[field];
  Type *ft = v->type->fields[field];
  if (type_is_value(ft)) return view_scalar(view_resolve(tr, v, path_prepend_field((Path){0, NULL}, field)));
  View *r = view_new(V_PROJ, ft, 1);
  r->kids[0] = v; r->k = field;
  return r;
}

/* Row-major flattening of a buffer access; the last field selects a member of
   an array-of-structs element. */
static CExp *buffer_access(Tr *tr, Buffer *b, Path p) {
  Nat *flat = nat_const(0);
  Type *t = b->type;
  int field = -1, nsub = 0, *sub = NEW_ARRAY(int, p.n + 1), k = 0;
  if (b->part_k) {   /* one work-item's element: the mapLcl indices dropped (privatise.c) */
    dpia_partition_check(tr, b, p);
    k = p.n < b->part_k ? p.n : b->part_k;
  }
  if (dpia_dependent(t)) {   /* packed rows: Σ of the rows before (position.c) */
    while (k < p.n && p.e[k].field < 0) k++;
    flat = dpia_flat_offset(tr, t, (Path){ k, p.e }, &t);
  }
  for (; k < p.n; k++) {
    if (p.e[k].field >= 0) {   /* nested tuples: .f1.f0 … */
      if (field < 0) field = p.e[k].field; else sub[nsub++] = p.e[k].field;
      t = t->fields[p.e[k].field];
      continue;
    }
    /* more indices than the buffer has array levels: only after a refusal,
       whose stand-in types need not fit every access (exists.c), F51 */
    if (t->kind != TY_ARRAY) {
      if (!tr->refused) diag_internal(LOC_NONE, "an access to %s with more indices than its type %s has levels", b->name, type_to_string(b->type));
      return NULL;
    }
    flat = nat_add(nat_mul(flat, t->len), p.e[k].index);
    t = t->elem;
  }
  CExp *e = cexp_read(b, flat, field, t);
  e->nsub = nsub; e->sub = sub;
  return e;
}

/* asVector: lanes k*i … k*i+k-1 of the inner view; one vector load when they
   are consecutive elements of one buffer, else a vector built lane by lane. */
/* The vector of w lanes (reads or lvalues): one vector access (CE_VLOAD) when
   they are consecutive scalars of one buffer, else the lanes (CE_VEC). */
static CExp *vector_of_lanes(CExp **lanes, int w) {
  bool contiguous = lanes[0]->kind == CE_READ && lanes[0]->field < 0;
  for (int j = 1; contiguous && j < w; j++)
    contiguous = lanes[j]->kind == CE_READ && lanes[j]->buf == lanes[0]->buf && lanes[j]->field < 0 &&
                 nat_equal(lanes[j]->nat, nat_add(lanes[0]->nat, nat_const(j)));
  CExp *e = NEW(CExp);
  e->type = type_vector(lanes[0]->type, w);
  e->field = -1;
  if (contiguous) { e->kind = CE_VLOAD; e->buf = lanes[0]->buf; e->nat = lanes[0]->nat; return e; }
  e->kind = CE_VEC; e->n = w; e->args = lanes;
  return e;
}

static CExp *resolve_as_vector(Tr *tr, View *v, Path p) {
  int w = v->k;
  Nat *base = nat_mul(nat_const(w), p.e[0].index);
  CExp **lanes = NEW_ARRAY(CExp *, w);
  for (int j = 0; j < w; j++)
    if (!(lanes[j] = view_resolve(tr, v->kids[0], path_prepend_index(path_drop(p, 1), nat_add(base, nat_const(j))))))
      return NULL;
  return vector_of_lanes(lanes, w);
}

/* Lane j of a vector load from consecutive scalars is the scalar at j. */
static CExp *lane_of_load(CExp *load, Nat *j) { return cexp_read(load->buf, nat_add(load->nat, j), -1, load->type->elem); }

CExp *view_resolve(Tr *tr, View *v, Path p) {
  Nat *i = p.n > 0 ? p.e[0].index : NULL;
  Path rest = p.n > 0 ? path_drop(p, 1) : p;
  switch (v->kind) {
  case V_SCALAR: return v->scalar;
  case V_BUF: return buffer_access(tr, v->buf, p);
  case V_IDX: return view_resolve(tr, v->kids[0], path_prepend_index(p, v->a));
  case V_PROJ: return view_resolve(tr, v->kids[0], path_prepend_field(p, v->k));
  case V_TUPLE: return view_resolve(tr, v->kids[p.e[0].field], rest);
  case V_SOA: return view_resolve(tr, v->kids[p.e[v->k].field], soa_path(p, v->k));
  case V_ONE: return view_resolve(tr, v->kids[0], rest);
  case V_UNZIP: return view_resolve(tr, v->kids[0], path_prepend_index(path_prepend_field(rest, v->k), i));
  case V_SPLIT:   /* [i][j] of split m xs = xs[i*m + j]; of a partition, xs[Σ_{k<i} (length of row k) + j] */
    return view_resolve(tr, v->kids[0], path_prepend_index(path_drop(p, 2), nat_add(v->a ? nat_mul(i, v->a) : dpia_row_start(tr, v->type, i),
                                                                                   p.e[1].index)));
  case V_JOIN: {  /* [k] of join xs = xs[k/m][k%m] */
    if (!v->a) return dpia_packed_read(tr, v, i, rest);
    Path q = path_prepend_index(rest, nat_mod(i, v->a));
    return view_resolve(tr, v->kids[0], path_prepend_index(q, nat_div(i, v->a)));
  }
  case V_TRANSPOSE: {
    Path q = path_prepend_index(path_drop(p, 2), i);
    return view_resolve(tr, v->kids[0], path_prepend_index(q, p.e[1].index));
  }
  case V_ZIP: return view_resolve(tr, v->kids[p.e[1].field], path_prepend_index(path_drop(p, 2), i));
  case V_SLIDE:
    return view_resolve(tr, v->kids[0], path_prepend_index(path_drop(p, 2), nat_add(nat_mul(i, v->b), p.e[1].index)));
  case V_SLICE: return view_resolve(tr, v->kids[0], path_prepend_index(rest, nat_add(i, v->a)));
  case V_IOTA: return cexp_nat(i);
  case V_PAD: {   /* clamp(i - l, 0, n - 1), written so that it stays a nat */
    Nat *j = nat_sub(nat_max(i, v->a), v->a);
    return view_resolve(tr, v->kids[0], path_prepend_index(rest, nat_min(j, nat_sub(v->c, nat_const(1)))));
  }
  case V_PADC: {
    /* inside: i - l is a nat whenever this branch is taken */
    Path inner = path_prepend_index(rest, nat_sub(nat_max(i, v->a), v->a));
    /* the ranges of i (a peeled section's, seed 002 §5.3) may settle either side */
    bool left_ok = nat_proves_le(v->a, i), right_ok = nat_proves_lt(i, nat_add(v->a, v->c));
    if (left_ok && right_ok) return view_resolve(tr, v->kids[0], inner);
    if (nat_proves_lt(i, v->a) || nat_proves_le(nat_add(v->a, v->c), i)) return view_resolve(tr, v->kids[1], rest);
    CExp *sel = NEW(CExp);
    sel->kind = CE_SELECT; sel->n = 3; sel->args = NEW_ARRAY(CExp *, 3); sel->field = -1;
    CExp *lo = cexp_nat_lt(i, v->a), *hi = cexp_nat_lt(i, nat_add(v->a, v->c));
    CExp *args[2] = { lo, cexp_op(OP_NOT, type_scalar(TY_BOOL), 1, &hi) };
    sel->args[0] = left_ok ? args[1] : right_ok ? lo : cexp_op(OP_OR, type_scalar(TY_BOOL), 2, args);
    /* the inner element is computed only inside (a fused reduction, a checked
       aref): an element that needs commands gets an if statement, here; one
       that is an expression with checks stays a select, whose arm C computes
       only when taken, and only where the element is used (an unread element
       of a lazy map is no error, docs/language.md §8; FINDINGS F26) */
    KStmt *saved = tr->block, *blocks[2] = { kstmt_block(), kstmt_block() };
    tr->block = blocks[0];
    sel->args[1] = view_resolve(tr, v->kids[1], rest);
    tr->block = blocks[1];
    sel->args[2] = view_resolve(tr, v->kids[0], inner);
    tr->block = saved;
    if (!sel->args[1] || !sel->args[2]) return NULL;
    sel->type = sel->args[1]->type;
    if (blocks[0]->n || blocks[1]->n) return dpia_guarded(tr, sel->args[0], blocks, sel->args + 1, sel->type);
    return sel;
  }
  case V_ASVEC: return resolve_as_vector(tr, v, p);
  case V_ASSCALAR: {
    CExp *vec = view_resolve(tr, v->kids[0], path_prepend_index(rest, nat_div(i, nat_const(v->k))));
    if (!vec) return NULL;
    if (vec->kind == CE_VLOAD) return lane_of_load(vec, nat_mod(i, nat_const(v->k)));
    CExp *e = NEW(CExp);
    *e = (CExp){ .kind = CE_LANE, .type = vec->type->elem, .nat = nat_mod(i, nat_const(v->k)), .n = 1, .field = -1 };
    e->args = NEW_ARRAY(CExp *, 1);
    e->args[0] = vec;
    return e;
  }
  case V_MAP: {
    /* lazy map, fused into its consumer: f is translated here, at the access.
       An f that opens a dynamic-length array (an unpack: its length a named
       count, exists.c) is translated in a block of its own inside loops, the
       value copied out: reading the element again (a tuple's other field, a
       second index) opens it again under the same names (FINDINGS F47). */
    Binding *saved = tr->env;
    tr->env = v->env;
    KStmt *outer = tr->block, *inner = NULL;
    if ((tr->par || tr->seq) && dpia_has_unpack(v->fn)) {
      inner = kstmt_block();
      inner->scope = true;
      tr->block = inner;
    }
    View *x = view_idx(tr, v->kids[0], i);
    View *fx = x ? dpia_apply(tr, v->fn, &x) : NULL;
    CExp *c = fx ? view_resolve(tr, fx, rest) : NULL;
    tr->env = saved;
    tr->block = outer;
    if (inner && c) c = dpia_scoped_value(tr, inner, c);
    return c;
  }
  }
  return NULL;
}

/* ---- acceptors ---- */

Acc *acc_new(AccKind kind, Type *type, Acc *kid) {
  Acc *a = NEW(Acc);
  a->kind = kind; a->type = type; a->kid = kid;
  return a;
}

Acc *acc_buf(Buffer *b) { Acc *a = acc_new(AC_BUF, b->type, NULL); a->buf = b; return a; }
Acc *acc_soa(Type *type, int depth, int n) {
  Acc *a = acc_new(AC_SOA, type, NULL);
  a->k = depth; a->n = n; a->kids = NEW_ARRAY(Acc *, n);
  return a;
}

Acc *acc_idx(Acc *a, Nat *i) {
  if (a->kind == AC_SOA && a->k > 0) {
    Acc *r = acc_soa(type_elem_at(a->type, i), a->k - 1, a->n);
    for (int f = 0; f < a->n; f++) r->kids[f] = acc_idx(a->kids[f], i);
    if (a->len && a->len->type->kind == TY_ARRAY) r->len = acc_idx(a->len, i);   /* rows of {∃…}: row i's length */
    return r;
  }
  Acc *r = acc_new(AC_IDX, type_elem_at(a->type, i), a);
  r->a = i;
  if (a->len && a->len->type->kind == TY_ARRAY) r->len = acc_idx(a->len, i);
  return r;
}

Acc *acc_proj(Acc *a, int field) {
  if (a->kind == AC_SOA && a->k == 0) return a->kids[field];
  Acc *r = acc_new(AC_PROJ, a->type->fields[field], a);
  r->k = field;
  return r;
}

CExp *acc_resolve(Tr *tr, Acc *a, Path p) {
  Nat *i = p.n > 0 ? p.e[0].index : NULL;
  Path rest = p.n > 0 ? path_drop(p, 1) : p;
  switch (a->kind) {
  case AC_BUF: return buffer_access(tr, a->buf, p);
  case AC_VAR: return cexp_var(a->var, a->type);
  case AC_SOA: return acc_resolve(tr, a->kids[p.e[a->k].field], soa_path(p, a->k));
  case AC_IDX: return acc_resolve(tr, a->kid, path_prepend_index(p, a->a));
  case AC_PROJ: return acc_resolve(tr, a->kid, path_prepend_field(p, a->k));
  case AC_SPLIT:  /* [i][j] → [i*m + j]; rows of different lengths: [Σ_{k<i} (length of row k) + j] */
    return acc_resolve(tr, a->kid, path_prepend_index(path_drop(p, 2), nat_add(a->a ? nat_mul(i, a->a) : dpia_row_start(tr, a->type, i),
                                                                                 p.e[1].index)));
  case AC_JOIN: { /* [k] → [k/m][k%m] */
    Path q = path_prepend_index(rest, nat_mod(i, a->a));
    return acc_resolve(tr, a->kid, path_prepend_index(q, nat_div(i, a->a)));
  }
  case AC_TRANSPOSE: {
    Path q = path_prepend_index(path_drop(p, 2), i);
    return acc_resolve(tr, a->kid, path_prepend_index(q, p.e[1].index));
  }
  case AC_ZIPFIELD: return acc_resolve(tr, a->kid, path_prepend_index(path_prepend_field(rest, a->k), i));
  case AC_OFFSET: return acc_resolve(tr, a->kid, path_prepend_index(rest, nat_add(i, a->a)));
  case AC_MAP: {   /* [i] goes through the template, its hole standing for kid[i] */
    Nat *saved = a->current;
    a->current = i;
    CExp *e = acc_resolve(tr, a->tmpl, rest);
    a->current = saved;
    return e;
  }
  case AC_HOLE: return acc_resolve(tr, a->map->kid, path_prepend_index(p, a->map->current));
  case AC_ASVEC: {  /* a vector written at [i] lands in scalars k*i … k*i+k-1 */
    if (a->kid->kind == AC_ASSCALAR && a->kid->k == a->k)   /* asVector of asScalar: the vector itself */
      return acc_resolve(tr, a->kid->kid, p);
    /* one vector store when the lanes are consecutive scalars of one buffer;
       else (behind a zip, a transpose) a CE_VEC of the lanes' lvalues, which
       dpia_assign writes lane by lane */
    CExp **lanes = NEW_ARRAY(CExp *, a->k);
    Nat *base = nat_mul(nat_const(a->k), i);
    for (int j = 0; j < a->k; j++)
      if (!(lanes[j] = acc_resolve(tr, a->kid, path_prepend_index(rest, nat_add(base, nat_const(j)))))) return NULL;
    return vector_of_lanes(lanes, a->k);
  }
  case AC_ASSCALAR: {
    if (a->kid->kind == AC_ASVEC && a->kid->k == a->k)   /* asScalar of asVector: the scalar itself */
      return acc_resolve(tr, a->kid->kid, p);
    CExp *vec = acc_resolve(tr, a->kid, path_prepend_index(rest, nat_div(i, nat_const(a->k))));
    if (!vec) return NULL;
    if (vec->kind == CE_VEC) {   /* lanes that land apart: the lane's own lvalue */
      long long lane;
      if (nat_is_const(nat_mod(i, nat_const(a->k)), &lane)) return vec->args[lane];
      diag_unsupported(LOC_NONE, "asScalar written through a vector whose lanes are not consecutive, "
                       "at a lane known only at run time");
      return NULL;
    }
    if (vec->kind == CE_VLOAD) return lane_of_load(vec, nat_mod(i, nat_const(a->k)));   /* an lvalue everywhere */
    CExp *e = NEW(CExp);
    *e = (CExp){ .kind = CE_LANE, .type = vec->type->elem, .nat = nat_mod(i, nat_const(a->k)), .n = 1, .field = -1 };
    e->args = NEW_ARRAY(CExp *, 1);
    e->args[0] = vec;
    return e;
  }
  }
  return NULL;
}
