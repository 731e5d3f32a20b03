/* barrier.c — barriers inside a work-group (SPEC §4.2: "mapLcl: barrier after,
   when its output is read by other threads"). A statement of a work-group body
   whose mapLcl loops write memory is followed by a barrier when a later
   statement of the same body reads that memory at an index the same work-item
   may not have written (and, the other way round, a statement reading memory
   that a later mapLcl overwrites at an index another work-item may read): the read is not in a mapLcl loop of the same dimension,
   or its index, with the reader's loop variable renamed to the writer's, is not
   the written index. A sequential or work-group loop whose body both writes and reads
   such memory also gets a barrier at the end of its body (the next iteration
   overwrites what slower work-items still read); so does one whose body reads
   local memory that every work-item writes outside any mapLcl (toLocal of a
   mapSeq at work-group level). Barriers go only where every
   work-item of the group arrives: never inside a mapLcl or mapGlb loop. */
#include "plan.h"

typedef struct Access { Buffer *buf; Nat *index; NatVar *lcl; int dim; } Access;
typedef struct Accesses { Access *a; int n, cap; } Accesses;

static void add(Accesses *as, Buffer *b, Nat *index, KStmt *lcl) {
  if (b && b->space == SPACE_PRIVATE) return;   /* each work-item's own: never shared (privatise.c's registers too) */
  ARENA_PUSH(as->a, as->n, as->cap, ((Access){ b, index, lcl ? lcl->var : NULL, lcl ? lcl->dim : -1 }));
}

static void reads_exp(Accesses *as, CExp *e, KStmt *lcl) {
  if (!e) return;
  if ((e->kind == CE_READ || e->kind == CE_VLOAD) && e->buf) add(as, e->buf, e->nat, lcl);
  for (int i = 0; i < e->n; i++) reads_exp(as, e->args[i], lcl);
}

/* Reads (writes when `writes`) of buffers in s; lcl is the innermost mapLcl loop.
   Only writes inside a mapLcl loop count: other writes are by every work-item. */
static void collect(Accesses *as, KStmt *s, KStmt *lcl, bool writes) {
  if (!s) return;
  switch (s->kind) {
  case KS_BLOCK: for (int i = 0; i < s->n; i++) collect(as, s->stmts[i], lcl, writes); return;
  case KS_DECL: case KS_COUNT: if (!writes) reads_exp(as, s->init, lcl); return;
  case KS_ASSIGN: {
    CExp *base = s->lhs;
    while (base->kind == CE_LANE) base = base->args[0];
    if (writes && lcl && (base->kind == CE_READ || base->kind == CE_VLOAD)) add(as, base->buf, base->nat, lcl);
    if (!writes) reads_exp(as, s->rhs, lcl);
    return;
  }
  case KS_FOR: collect(as, s->body, s->level == LEVEL_LCL ? s : lcl, writes); return;
  case KS_IF: case KS_WHILE:
    if (!writes) reads_exp(as, s->cond, lcl);
    collect(as, s->then_, lcl, writes);
    collect(as, s->else_, lcl, writes);
    collect(as, s->body, lcl, writes);
    return;
  case KS_BARRIER: return;
  }
}

/* The read is by the work-item that wrote: same mapLcl dimension and, renamed,
   the same index, an index that names the writer's loop variable (a constant
   index, written by one item, is read by every item that reads it). */
static bool same_item(Access *w, Access *r) {
  if (!w->lcl || !r->lcl || w->dim != r->dim || !nat_mentions(w->index, w->lcl)) return false;
  /* every reading item wrote: a reader loop longer than the writer's has items
     that wrote nothing (difftest F42: a mapLcl over 5 items reading min(2, x) of
     a tile written by 3; renamed to the writer's variable, whose bound is 3,
     min(2, x) simplified to x, and no barrier was placed) */
  if (!w->lcl->hi || !r->lcl->hi || !nat_proves_le(r->lcl->hi, w->lcl->hi)) return false;
  return nat_same(nat_subst(r->index, r->lcl, nat_var(w->lcl)), w->index);
}

/* Fence flags (KS_BARRIER's dim: 1 local, 2 global) the reads need after the writes; 0: none. */
static int fences(Accesses *w, Accesses *r) {
  int f = 0;
  for (int i = 0; i < r->n; i++)
    for (int j = 0; j < w->n; j++)
      if (w->a[j].buf == r->a[i].buf && !same_item(&w->a[j], &r->a[i]))
        f |= w->a[j].buf->space == SPACE_LOCAL ? 1 : 2;
  return f;
}

static KStmt *barrier(int fence) {
  KStmt *b = kstmt_block();
  b->kind = KS_BARRIER; b->dim = fence;
  return b;
}

static void scan(KStmt *block);

/* Does the block end with a barrier of at least these fences — directly, or
   as the last statement of a loop it ends with? (After such a loop every
   work-item of the group has passed that barrier: a loop running no
   iteration touched no shared memory.) */
static bool ends_with_barrier(KStmt *block, int f) {
  if (!block || block->n == 0) return false;
  KStmt *last = block->stmts[block->n - 1];
  if (last->kind == KS_BARRIER) return (last->dim & f) == f;
  return last->kind == KS_FOR && last->level != LEVEL_LCL && last->level != LEVEL_GLB && ends_with_barrier(last->body, f);
}

/* The local buffers s writes outside any mapLcl loop (every work-item writes
   them, e.g. toLocal of a mapSeq at work-group level). */
static void local_writes_by_all(Accesses *as, KStmt *s, bool in_lcl) {
  if (!s) return;
  if (s->kind == KS_ASSIGN) {
    CExp *base = s->lhs;
    while (base->kind == CE_LANE) base = base->args[0];
    if (!in_lcl && (base->kind == CE_READ || base->kind == CE_VLOAD) && base->buf && base->buf->space == SPACE_LOCAL)
      add(as, base->buf, base->nat, NULL);
    return;
  }
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) local_writes_by_all(as, s->stmts[i], in_lcl);
  bool lcl = in_lcl || (s->kind == KS_FOR && s->level == LEVEL_LCL);
  local_writes_by_all(as, s->body, lcl);
  local_writes_by_all(as, s->then_, lcl);
  local_writes_by_all(as, s->else_, lcl);
}

static void scan_stmt(KStmt *s) {
  if (s->kind == KS_IF) {   /* a condition the whole work-group agrees on (a guard, a work-group's value) */
    scan(s->then_);
    if (s->else_) scan(s->else_);
    return;
  }
  if (s->kind != KS_FOR || s->level == LEVEL_LCL || s->level == LEVEL_GLB) return;
  scan(s->body);
  Accesses w = {0}, r = {0};
  collect(&w, s->body, NULL, true);
  collect(&r, s->body, NULL, false);
  int f = w.n ? fences(&w, &r) : 0;
  /* local memory that every work-item writes and reads at each step (the
     work-group loop's next chunk) while slower ones may still read the last step's */
  Accesses all = {0};
  local_writes_by_all(&all, s->body, false);
  for (int i = 0; i < all.n && !(f & 1); i++)
    for (int j = 0; j < r.n; j++) if (r.a[j].buf == all.a[i].buf) { f |= 1; break; }
  if (f && !ends_with_barrier(s->body, f)) kstmt_add(s->body, barrier(f));
}

/* Append b's accesses to a. */
static void merge(Accesses *a, const Accesses *b) {
  for (int i = 0; i < b->n; i++) ARENA_PUSH(a->a, a->n, a->cap, b->a[i]);
}

/* A statement whose accesses a later statement of the block conflicts with
   (read after write: the later one reads what s's mapLcl loops wrote; write
   after read: its mapLcl loops overwrite what s still reads) leaves them
   pending; the barrier goes right before the first statement that conflicts
   with a pending access, so that independent statements in between (the two
   tile loads of a tiled sgemm) share one barrier. */
static void scan(KStmt *block) {
  KStmt *old = kstmt_block();
  *old = *block;
  block->n = block->cap = 0; block->stmts = NULL;
  Accesses pw = {0}, pr = {0};   /* pending: since the last barrier, conflicting with something later */
  for (int i = 0; i < old->n; i++) {
    KStmt *s = old->stmts[i];
    scan_stmt(s);
    Accesses w = {0}, r = {0};
    collect(&w, s, NULL, true);
    collect(&r, s, NULL, false);
    int now = (pw.n && r.n ? fences(&pw, &r) : 0) | (pr.n && w.n ? fences(&w, &pr) : 0);
    if (now) { kstmt_add(block, barrier(now)); pw = (Accesses){0}; pr = (Accesses){0}; }
    kstmt_add(block, s);
    if (s->kind == KS_BARRIER) { pw = (Accesses){0}; pr = (Accesses){0}; continue; }
    Accesses later_w = {0}, later_r = {0};
    for (int j = i + 1; j < old->n; j++) {
      if (w.n) collect(&later_r, old->stmts[j], NULL, false);
      if (r.n) collect(&later_w, old->stmts[j], NULL, true);
    }
    if ((w.n ? fences(&w, &later_r) : 0) | (r.n && later_w.n ? fences(&later_w, &r) : 0)) { merge(&pw, &w); merge(&pr, &r); }
  }
}

void plan_insert_barriers(KStmt *body) { scan(body); }
