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

/* The statements of one element: if (p x) { then }, where `then` is emitted
   by the caller into the returned block; NULL on error. */
static KStmt *if_kept(Tr *tr, Expr *p, View *x) {
  View *keep = dpia_apply(tr, p, &x);
  CExp *cond = keep ? view_resolve(tr, keep, (Path){0, NULL}) : NULL;
  if (!cond) return NULL;
  KStmt *s = NEW(KStmt);
  s->kind = KS_IF; s->cond = cond; s->then_ = kstmt_block(); s->else_ = kstmt_block();
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

/* Elements [from, from + count) of xs, kept ones written to data[at], at
   (a private int) counting up; with data NULL only counted. */
static bool compact(Tr *tr, Expr *p, View *xs, Type *elem, Nat *from, Nat *count, Acc *data, const char *at, Nat *bound,
                    bool disjoint) {
  if (!(xs = dpia_force(tr, xs, count))) return false;
  NatVar *i;
  KStmt *saved = tr->block;
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, count, &i);
  tr->seq++;
  View *x = view_idx(tr, xs, nat_add(from, nat_var(i)));
  KStmt *then = if_kept(tr, p, x);
  bool ok = then != NULL;
  if (ok) {
    tr->block = then;
    if (data) {
      NatVar *pos = nat_var_new(at, nat_const(0), nat_sub(bound, nat_const(1)));
      int mark = then->n;
      ok = dpia_assign(tr, acc_idx(data, nat_var(pos)), x, elem);
      for (int k = mark; disjoint && k < then->n; k++) dpia_mark_disjoint(then->stmts[k]);
    }
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
  return data && compact(tr, e->kids[0], xs, xt->elem, nat_const(0), xt->len, data, kept, xt->len, false) &&
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
  bool ok = compact(tr, e->kids[0], xs, xt->elem, from, count, NULL, kept, n, false) &&
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
  View *oc = ok ? view_idx(tr, offsets, nat_var(c)) : NULL;
  const char *at = oc ? declare_int(tr, "at", oc->scalar) : NULL;
  ok = at && compact(tr, e->kids[0], xs, xt->elem, from, count, data, at, n, true);
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
  *done = true;
  return xs && dpia_filter_single_pass(tr, f->kids[0], m->kids[0], xs, xt->elem, xt->len, out);
}

bool acc_filter(Tr *tr, Expr *e, Acc *out) {
  View *xs = dpia_exp(tr, e->kids[1]);
  if (!xs) return false;
  bool top = !tr->par && !tr->seq;
  Type *xt = e->kids[1]->type;
  if (top && (e->prim->level == LEVEL_GLB || e->prim->level == LEVEL_LAZY)) {
    if (tr->gen->single_pass && dpia_single_pass_fits(xt->elem, type_scalar(TY_INT), true))
      return dpia_filter_single_pass(tr, e->kids[0], NULL, xs, xt->elem, xt->len, out);
    return filter_parallel(tr, e, xs, out);
  }
  return filter_sequential(tr, e, xs, out);
}
