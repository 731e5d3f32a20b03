/* rules_filter.c — DPIA rules of filterSeq, filterGlb and filter (SPEC §3.4,
   §4.2). Inside a thread (filterSeq anywhere, any filter inside a parallel or
   sequential loop) a filter compacts sequentially: a private counter is the
   index of the next kept element and becomes the length. filterGlb and
   `filter` at the top of a program run in parallel, in three steps over
   chunks of DPIA_CHUNK elements: count the kept elements of every chunk (a
   parallel loop), an exclusive scan of the counts (one thread; its total is
   the length), and every chunk writing its kept elements from its offset (a
   parallel loop). The predicate runs twice per element and the input is read
   twice: that is the c/openmp form. On opencl/cuda the top-level filter is
   one pass with decoupled look-back instead (lookback.c, docs/design.md §11). */
#include "dpia.h"
#include "../prim/rules.h"
#include <string.h>


static CExp *int_var(const char *name) { return cexp_var(name, type_scalar(TY_INT)); }

static const char *declare_int(Tr *tr, const char *base, CExp *init) {
  KStmt *d = NEW(KStmt);
  d->kind = KS_DECL; d->name = dpia_fresh(tr, base); d->type = type_scalar(TY_INT); d->init = init;
  kstmt_add(tr->block, d);
  return d->name;
}

static void increment(Tr *tr, const char *var) {
  kstmt_add(tr->block, kstmt_assign(int_var(var), cexp_op(OP_ADD, type_scalar(TY_INT), 2, (CExp *[]){ int_var(var), cexp_lit_int(1) })));
}

/* if (cond) { then }: the block `then` is returned for the caller's statements. */
static KStmt *if_kept(Tr *tr, CExp *cond) {
  KStmt *s = kstmt_if(cond, NULL, NULL);
  kstmt_add(tr->block, s);
  return s->then_;
}

void dpia_mark_disjoint(KStmt *s) {
  if (!s) return;
  s->disjoint = s->kind == KS_ASSIGN;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) dpia_mark_disjoint(s->stmts[i]);
  dpia_mark_disjoint(s->body);
  dpia_mark_disjoint(s->then_);
  dpia_mark_disjoint(s->else_);
}

/* May e be computed for an element the predicate drops? Not where it can
   report a run-time error or trap (checks, integer division, conversions to
   int, Γ), nor read a place other than by a read of a buffer, nor hold
   anything the CPU printers do not print as plain C (vectors, atomics). */
static bool unsafe_node(CExp *e, void *cx) {
  (void)cx;
  switch (e->kind) {
  case CE_LIT: case CE_NAT: case CE_VAR: case CE_READ: case CE_SELECT: case CE_NAT_LT: return false;
  case CE_OP:
    switch (e->op) {
    case OP_DIV: case OP_MOD: case OP_POW:
      return e->type->kind != TY_FLOAT && e->type->kind != TY_DOUBLE;
    case OP_F2I: case OP_D2I: case OP_FACTORIAL: case OP_BINOMIAL:
    case OP_CHECK_INDEX: case OP_CHECK_DIV: case OP_CHECK_MOD: case OP_CHECK_F2I: case OP_CHECK_D2I: case OP_CHECK_LENGTH:
      return true;
    default: return false;
    }
  default: return true;
  }
}

/* The leaves (scalars) of element x, `depth` fields down `fields`: none of them
   may report or trap (unsafe_node). An array inside: unknown, false. */
static bool leaves_total(Tr *tr, View *x, Type *t, PathElem *fields, int depth) {
  if (type_is_scalar(t)) {
    CExp *v = view_resolve(tr, x, (Path){ depth, fields });
    return v && !cexp_any_node(v, unsafe_node, NULL);
  }
  if (t->kind != TY_TUPLE || depth >= 8) return false;
  for (int f = 0; f < t->n; f++) {
    fields[depth] = (PathElem){ NULL, f };
    if (!leaves_total(tr, x, t->fields[f], fields, depth + 1)) return false;
  }
  return true;
}

/* May every element of xs (n of elem) be computed whatever the predicate says?
   The one pass (lookback.c) computes them all into its tile, where the three
   steps compute an element the predicate does not read only when it is kept:
   an element that may report an error (a division by zero, an index out of
   range) would be reported for a dropped one (FINDINGS.md F44). Resolved into a
   block of its own, thrown away. */
static bool elements_total(Tr *tr, View *xs, Type *elem, Nat *n) {
  KStmt *saved = tr->block, *scratch = kstmt_block();
  tr->block = scratch;
  NatVar *i = nat_var_new("total_i", nat_const(0), nat_sub(n, nat_const(1)));
  View *x = view_idx(tr, xs, nat_var(i));
  PathElem fields[8];
  bool ok = x && leaves_total(tr, x, elem, fields, 0) && !kstmt_any_node(scratch, unsafe_node, NULL);
  tr->block = saved;
  return ok;
}

/* The kept element's store written without a branch (branch_free below):
   `keep = p(x); v = x; [if (at < end)] data[at] = v; at += keep`. A store of a
   dropped element lands on the place of the next kept one (or past the kept
   ones, inside the upper bound: at <= the element's index), which a later
   store overwrites; `end`, the chunk's last place + 1, keeps the parallel
   filter's chunks from writing into the next chunk's places. Half-kept random
   data made the branch of the if form mispredicted every other element
   (bench/cpu/filter.lift: 1.15x the hand-written OpenMP, whose scatter has the
   same branch). Only for a scalar whose computation is one assignment that
   cannot fail (unsafe_node); else the if form. */
static bool branch_free(Tr *tr, KStmt *store, CExp *cond, const char *at, const char *end, bool disjoint) {
  if (store->n != 1 || store->stmts[0]->kind != KS_ASSIGN || !type_is_scalar(store->stmts[0]->rhs->type) ||
      store->stmts[0]->lhs->kind != CE_READ || cexp_any_node(store->stmts[0]->rhs, unsafe_node, NULL))
    return false;
  KStmt *assign = store->stmts[0];
  Type *it = type_scalar(TY_INT);
  CExp *sel = NEW(CExp);
  *sel = (CExp){ .kind = CE_SELECT, .type = it, .n = 3, .field = -1 };
  sel->args = NEW_ARRAY(CExp *, 3);
  sel->args[0] = cond; sel->args[1] = cexp_lit_int(1); sel->args[2] = cexp_lit_int(0);
  const char *keep = declare_int(tr, "keep", sel);
  KStmt *v = NEW(KStmt);
  v->kind = KS_DECL; v->name = dpia_fresh(tr, "v"); v->type = assign->rhs->type; v->init = assign->rhs;
  kstmt_add(tr->block, v);
  assign->rhs = cexp_var(v->name, v->type);
  assign->disjoint = disjoint;
  if (end) {
    KStmt *g = kstmt_if(cexp_op(OP_LT, type_scalar(TY_BOOL), 2, (CExp *[]){ int_var(at), int_var(end) }), NULL, NULL);
    kstmt_add(g->then_, assign);
    kstmt_add(tr->block, g);
  } else kstmt_add(tr->block, assign);
  kstmt_add(tr->block, kstmt_assign(int_var(at), cexp_op(OP_ADD, it, 2, (CExp *[]){ int_var(at), int_var(keep) })));
  return true;
}

/* Elements [from, from + count) of xs, kept ones written to data[at], at
   (a private int) counting up; with data NULL only counted. `end` (NULL: none):
   the int past the last place this loop may write (branch_free). */
static bool compact(Tr *tr, Expr *p, View *xs, Type *elem, Nat *from, Nat *count, Acc *data, const char *at, Nat *bound,
                    bool disjoint, const char *end, bool *unbranched) {
  if (!(xs = dpia_force(tr, xs, count))) return false;
  NatVar *i;
  KStmt *saved = tr->block;
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, count, &i);
  tr->seq++;
  View *x = view_idx(tr, xs, nat_add(from, nat_var(i)));
  View *keep = dpia_apply(tr, p, &x);
  CExp *cond = keep ? view_resolve(tr, keep, (Path){0, NULL}) : NULL;
  bool ok = cond != NULL;
  if (ok && data) {
    KStmt *loop = tr->block, *store = kstmt_block();
    NatVar *pos = nat_var_new(at, nat_const(0), nat_sub(bound, nat_const(1)));
    tr->block = store;
    ok = dpia_assign(tr, acc_idx(data, nat_var(pos)), x, elem);
    tr->block = loop;
    bool flat = ok && branch_free(tr, store, cond, at, end, disjoint);
    if (unbranched) *unbranched = flat;
    if (ok && !flat) {
      kstmt_add(tr->block, kstmt_if(cond, store, NULL));
      for (int k = 0; disjoint && k < store->n; k++) dpia_mark_disjoint(store->stmts[k]);
      tr->block = store;
      increment(tr, at);
    }
  } else if (ok) {
    KStmt *then = if_kept(tr, cond);
    tr->block = then;
    increment(tr, at);
  }
  tr->seq--;
  tr->block = saved;
  return ok;
}

static bool filter_sequential(Tr *tr, Expr *e, View *xs, Acc *out) {
  Type *xt = e->kids[1]->type;
  const char *kept = declare_int(tr, "kept", cexp_lit_int(0));
  Acc *data = exists_accept(tr, out, xt->len);
  return data && compact(tr, e->kids[0], xs, xt->elem, nat_const(0), xt->len, data, kept, xt->len, false, NULL, NULL) &&
         exists_set_len(tr, out, int_var(kept));
}

Nat *dpia_chunks(Nat *n) { return nat_div(nat_add(n, nat_const(DPIA_CHUNK - 1)), nat_const(DPIA_CHUNK)); }

KStmt *dpia_chunk_loop(Tr *tr, Nat *n, NatVar **c, Nat **from, Nat **count, ParLoop *loop) {
  Nat *chunks = dpia_chunks(n);
  KStmt *body = dpia_loop(tr, LEVEL_GLB, 0, chunks, c);
  *loop = (ParLoop){ *c, chunks, LEVEL_GLB, tr->par, 0, NULL };
  *from = nat_mul(nat_var(*c), nat_const(DPIA_CHUNK));
  *count = nat_min(nat_const(DPIA_CHUNK), nat_sub(n, *from));
  return body;
}

static bool filter_parallel(Tr *tr, Expr *e, View *xs, Acc *out) {
  Type *xt = e->kids[1]->type, *it = type_scalar(TY_INT);
  Nat *n = xt->len, *chunks = dpia_chunks(n);
  View *counts, *offsets; Acc *counts_acc, *offsets_acc;
  dpia_new(tr, type_array(it, chunks), SPACE_GLOBAL, &counts, &counts_acc);
  dpia_new(tr, type_array(it, chunks), SPACE_GLOBAL, &offsets, &offsets_acc);
  Acc *data = exists_accept(tr, out, n);
  if (!data) return false;
  KStmt *top = tr->block;
  NatVar *c; Nat *from, *count; ParLoop loop;
  /* 1. every chunk counts what it keeps */
  tr->block = dpia_chunk_loop(tr, n, &c, &from, &count, &loop);
  tr->par = &loop;
  const char *kept = declare_int(tr, "kept", cexp_lit_int(0));
  bool ok = compact(tr, e->kids[0], xs, xt->elem, from, count, NULL, kept, n, false, NULL, NULL) &&
            dpia_assign(tr, acc_idx(counts_acc, nat_var(c)), view_scalar(int_var(kept)), it);
  tr->par = loop.outer;
  tr->block = top;
  /* 2. exclusive scan of the counts in one thread; the total is the length */
  const char *total = declare_int(tr, "total", cexp_lit_int(0));
  NatVar *k;
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, chunks, &k);
  tr->seq++;
  ok = ok && dpia_assign(tr, acc_idx(offsets_acc, nat_var(k)), view_scalar(int_var(total)), it);
  View *ck = view_idx(tr, counts, nat_var(k));
  kstmt_add(tr->block, kstmt_assign(int_var(total), cexp_op(OP_ADD, it, 2, (CExp *[]){ int_var(total), ck->scalar })));
  tr->seq--;
  tr->block = top;
  ok = ok && exists_set_len(tr, out, int_var(total));
  /* 3. every chunk writes its kept elements from its offset: the places of
     two chunks are disjoint by the scan (the race check is told so) */
  tr->block = dpia_chunk_loop(tr, n, &c, &from, &count, &loop);
  tr->par = &loop;
  View *oc = ok ? view_idx(tr, offsets, nat_var(c)) : NULL, *cc = oc ? view_idx(tr, counts, nat_var(c)) : NULL;
  const char *at = cc ? declare_int(tr, "at", oc->scalar) : NULL;
  const char *end = at ? declare_int(tr, "end", cexp_op(OP_ADD, it, 2, (CExp *[]){ int_var(at), cc->scalar })) : NULL;
  KStmt *chunk = tr->block;
  int end_at = chunk->n - 1;   /* its declaration, dropped when the if form needs no end */
  bool unbranched = false;
  ok = end && compact(tr, e->kids[0], xs, xt->elem, from, count, data, at, n, true, end, &unbranched);
  if (ok && !unbranched) {
    memmove(&chunk->stmts[end_at], &chunk->stmts[end_at + 1], sizeof(KStmt *) * (size_t)(chunk->n - end_at - 1));
    chunk->n--;
  }
  tr->par = loop.outer;
  tr->block = top;
  return ok;
}

static bool parallel_level(PrimLevel l) { return l == LEVEL_GLB || l == LEVEL_LAZY; }


/* (map f (filter p xs)) at the top, as the type checker writes it: a pack of
   an unpack of the filter whose body maps f over the unpacked array. In one
   pass f is applied as the kept elements are written (the CUB peer's
   TransformOutputIterator): no temporary, one read of xs. */
bool dpia_filter_then_map(Tr *tr, Expr *pack, Acc *out, bool *done) {
  *done = false;
  Expr *u = pack->kids[0];
  if (u->kind != EX_UNPACK || tr->par || tr->seq || !tr->gen->single_pass) return true;
  Expr *f = u->kids[0], *m = u->kids[1];
  if (f->kind != EX_PRIM || f->prim->dpia_acc != acc_filter || !parallel_level(f->prim->level)) return true;
  if (m->kind != EX_PRIM || m->prim->dpia_acc != acc_map || !parallel_level(m->prim->level)) return true;
  if (m->kids[1]->kind != EX_VAR || m->kids[1]->uid != u->uid || m->kids[0]->kind != EX_LAMBDA) return true;
  /* f applied as the kept elements are written cannot read the filtered array
     as a whole: it does not exist yet (difftest FINDINGS F30) */
  if (dpia_reads_var(m->kids[0], u->uid)) return true;
  Type *xt = f->kids[1]->type;
  if (!dpia_single_pass_fits(xt->elem, type_scalar(TY_INT), true)) return true;
  View *xs = dpia_exp(tr, f->kids[1]);
  if (xs && !elements_total(tr, xs, xt->elem, xt->len)) return true;
  *done = true;
  return xs && dpia_filter_single_pass(tr, f->kids[0], m->kids[0], xs, xt->elem, xt->len, out);
}

bool acc_filter(Tr *tr, Expr *e, Acc *out) {
  View *xs = dpia_exp(tr, e->kids[1]);
  if (!xs) return false;
  bool top = !tr->par && !tr->seq;
  Type *xt = e->kids[1]->type;
  if (top && (e->prim->level == LEVEL_GLB || e->prim->level == LEVEL_LAZY)) {
    if (tr->gen->single_pass && dpia_single_pass_fits(xt->elem, type_scalar(TY_INT), true) &&
        elements_total(tr, xs, xt->elem, xt->len))
      return dpia_filter_single_pass(tr, e->kids[0], NULL, xs, xt->elem, xt->len, out);
    return filter_parallel(tr, e, xs, out);
  }
  return filter_sequential(tr, e, xs, out);
}
