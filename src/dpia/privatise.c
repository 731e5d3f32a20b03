/* privatise.c — accumulators of a work-group kept in registers (issue 14
   item 1). A reduceSeq at the work-group level (inside a mapWrg, outside any
   mapLcl) whose array accumulator the update partitions with mapLcl,

     reduceSeq init (λacc x. … (mapLcl1 (λp. (mapLcl (λq. g) (zip (get1 p) …))) (zip acc …))) xs

   belongs to the whole group, and fold (rules_map.c) keeps it in local
   memory. But when each mapLcl loop over the accumulator's k outer
   dimensions runs one iteration per work-item (the work-group's size in
   that dimension pinned to the dimension's length), work-item (l1, l0) only
   ever touches acc[l1][l0]: the accumulator becomes a private array of the
   inner type in each work-item, the k outer indices dropped, as local
   buffers drop the work-group index (Lift's private memory; seed 001).

   The analysis here only proposes the partition (k and the loops'
   dimensions, from the update's text). Every access to the buffer is then
   checked where it is resolved (dpia_partition_check, from view.c): its k
   outer indices must be the variables of enclosing mapLcl loops of those
   dimensions and lengths, which it pins. Any other access (a read of the
   whole accumulator by one work-item, a transposed read, a sequential loop
   over it) sets tr->priv_failed and the program is translated again
   without privatisation (program.c): the local-memory accumulator, slower
   but correct. Only the device targets privatise (GenOptions.privatise): on
   c and openmp the work-items of a group are iterations of one thread. */
#include "dpia.h"
#include "../prim/rules.h"

enum { PART_MAX_ITEMS = 256 };   /* the pinned work-group: at most the default maximum */

/* Is e the alias of x (field < 0: x itself; else (get field x))? */
static bool alias(Expr *e, int x, int field) {
  if (field < 0) return e->kind == EX_VAR && e->uid == x;
  return e->kind == EX_PRIM && e->prim->dpia_exp == exp_get && e->kids[e->nkids - 1]->kind == EX_VAR &&
         e->kids[e->nkids - 1]->uid == x && dpia_get_field(e) == field;
}

/* The partition the update's body proposes for the alias of x, of type t:
   nested mapLcl loops over it (or a zip holding it), through lets. */
static void propose(Expr *body, int x, int field, Type *t, Partition *part) {
  while (body->kind == EX_LET) body = body->kids[1];
  if (part->k == 3 || body->kind != EX_PRIM || body->prim->level != LEVEL_LCL || body->prim->dpia_acc != acc_map) return;
  Expr *lam = body->kids[0], *xs = body->kids[1];
  if (lam->kind != EX_LAMBDA || lam->nparams != 1 || t->kind != TY_ARRAY || t->index) return;
  long long n;
  if (!nat_is_const(t->len, &n) || n < 1) return;
  int d = body->prim->dim, at = -1;
  for (int j = 0; j < part->k; j++) if (part->dim[j] == d) return;
  if (!alias(xs, x, field)) {
    if (xs->kind != EX_PRIM || xs->prim->dpia_acc != acc_zip) return;
    for (int i = 0; i < xs->nkids && at < 0; i++) if (alias(xs->kids[i], x, field)) at = i;
    if (at < 0) return;
  }
  part->dim[part->k] = d; part->n[part->k] = n; part->k++;
  propose(lam->kids[0], lam->params[0].uid, at, t->elem, part);
}

/* The accumulator's type without its k outer dimensions. */
static Type *inner_type(Type *t, int k) {
  for (int j = 0; j < k; j++) t = t->elem;
  return t;
}

/* An array of scalars or vectors of constant size, at most 256 elements. */
static bool small(Type *t) {
  long long count = 1, n;
  for (; t->kind == TY_ARRAY; t = t->elem) {
    if (t->index || !nat_is_const(t->len, &n)) return false;
    count *= n;
  }
  return (type_is_scalar(t) || t->kind == TY_VECTOR) && count <= 256;
}

bool dpia_partition_of(Tr *tr, Expr *f, Type *t, Partition *part) {
  *part = (Partition){ 0 };
  if (!tr->gen || !tr->gen->privatise || f->kind != EX_LAMBDA || f->nparams != 2) return false;
  propose(f->kids[0], f->params[0].uid, -1, t, part);
  long long items = 1;
  for (int j = 0; j < part->k; j++) items *= part->n[j];
  return part->k > 0 && items <= PART_MAX_ITEMS && small(inner_type(t, part->k));
}

void dpia_new_partitioned(Tr *tr, Type *t, const Partition *part, View **view, Acc **acc) {
  Buffer *b = NEW(Buffer);
  b->name = dpia_fresh(tr, "reg");
  b->type = inner_type(t, part->k);
  b->space = SPACE_PRIVATE;
  b->part_k = part->k;
  for (int j = 0; j < part->k; j++) { b->part_dim[j] = part->dim[j]; b->part_n[j] = part->n[j]; }
  KStmt *d = NEW(KStmt);
  d->kind = KS_DECL; d->buf = b; d->name = b->name; d->type = b->type;
  kstmt_add(tr->block, d);
  *view = view_buf(b);
  (*view)->type = t;
  *acc = acc_buf(b);
  (*acc)->type = t;
}

/* out := v, both of type t partitioned as `part`: the k mapLcl loops (pinned,
   one iteration per work-item), each work-item copying its own element. */
bool dpia_assign_partitioned(Tr *tr, Acc *out, View *v, Type *t, const Partition *part) {
  KStmt *saved = tr->block;
  ParLoop *outer = tr->par, *loops = NEW_ARRAY(ParLoop, part->k);
  for (int j = 0; j < part->k; j++) {
    Nat *n = nat_const(part->n[j]);
    NatVar *i = nat_var_new(dpia_fresh(tr, "lid"), nat_const(0), nat_const(part->n[j] - 1));
    KStmt *body = kstmt_block(), *loop = kstmt_for(LEVEL_LCL, part->dim[j], i, n, body);
    loop->pinned = true;
    kstmt_add(tr->block, loop);
    tr->block = body;
    loops[j] = (ParLoop){ i, n, LEVEL_LCL, tr->par, part->dim[j], loop };
    tr->par = &loops[j];
    out = acc_idx(out, nat_var(i));
    v = view_idx(tr, v, nat_var(i));
    t = t->elem;
  }
  bool ok = dpia_assign(tr, out, v, t);
  tr->par = outer;
  tr->block = saved;
  return ok;
}

/* An access to partitioned buffer b along path p: its k outer indices must
   be the variables of enclosing mapLcl loops of b's dimensions and lengths,
   which are pinned. False (and tr->priv_failed): another access. */
bool dpia_partition_check(Tr *tr, Buffer *b, Path p) {
  bool ok = p.n >= b->part_k;
  for (int j = 0; ok && j < b->part_k; j++) {
    ok = false;
    if (p.e[j].field >= 0) break;
    for (ParLoop *l = tr->par; l && !ok; l = l->outer) {
      long long n;
      if (l->level != LEVEL_LCL || !l->loop || l->dim != b->part_dim[j] || !nat_is_const(l->count, &n) ||
          n != b->part_n[j] || !nat_equal(p.e[j].index, nat_var(l->var)))
        continue;
      l->loop->pinned = true;
      ok = true;
    }
  }
  if (!ok) tr->priv_failed = true;
  return ok;
}
