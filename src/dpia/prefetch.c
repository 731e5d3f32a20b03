/* prefetch.c — the next chunk's global reads prefetched into the L2 cache
   (docs/fcl.md §6.2, "prefetch"; CLIFT_FCL_PREFETCH=1, cuda only). A work-group
   loop whose body begins with a mapLcl loop reading global memory (reduce's and
   scan's chunks: two or one element a work-item, then a tree or Sklansky's steps
   behind barriers) has that loop's reads in flight only at the start of each
   chunk; the steps after them wait at barriers with no memory request
   outstanding. Each such read, at the top of the mapLcl loop's body, also asks
   for the element the same work-item reads in the group's next chunk (the
   work-group loop's variable plus the number of groups), so that it arrives
   in L2 during this chunk's steps. A prefetch changes no value; it is emitted
   only where the next chunk's read is certain to be made, so its address is
   always inside the buffer: a read of a global buffer the kernel never writes,
   not under an if, a while or a select (a padded chunk's guarded reads), at an
   index of the two loops' variables and constants alone. */
#include "plan.h"

enum { PREFETCH_MAX = 16 };   /* reads prefetched per loop (two for each of up to 8 batched chunks, batch.c) */


/* Is every free variable of e the group's or the item's, and the group's among them? */
static bool of_loops(Nat *e, NatVar *wid, NatVar *lid) {
  int n;
  NatVar **vs = nat_free_var_list(e, &n);
  bool group = false;
  for (int i = 0; i < n; i++) {
    if (vs[i] == wid) group = true;
    else if (vs[i] != lid) return false;
  }
  return group;
}

typedef struct Pf { KStmt *root, *lcl; NatVar *wid, *next; } Pf;

/* The unconditional plain reads of e worth prefetching, added to pf->lcl. */
static void reads(Pf *pf, CExp *e) {
  if (!e) return;
  if (e->kind == CE_SELECT) { reads(pf, e->args[0]); return; }
  if (e->kind == CE_READ && e->buf && e->buf->space == SPACE_GLOBAL && !e->buf->base && !e->is_volatile
      && e->field < 0 && e->nsub == 0 && e->nat && of_loops(e->nat, pf->wid, pf->lcl->var)
      && pf->lcl->nprefetch < PREFETCH_MAX && !kstmt_writes(pf->root, e->buf)) {
    CExp *c = NEW(CExp);
    *c = *e;
    c->nat = nat_subst(e->nat, pf->wid, nat_var(pf->next));
    KStmt *l = pf->lcl;
    for (int i = 0; i < l->nprefetch; i++) if (l->prefetch[i]->buf == c->buf && nat_same(l->prefetch[i]->nat, c->nat)) return;
    CExp **grown = NEW_ARRAY(CExp *, l->nprefetch + 1), **from = NEW_ARRAY(CExp *, l->nprefetch + 1);
    for (int i = 0; i < l->nprefetch; i++) { grown[i] = l->prefetch[i]; from[i] = l->prefetched[i]; }
    grown[l->nprefetch] = c;
    from[l->nprefetch++] = e;
    l->prefetch = grown;
    l->prefetched = from;
    return;
  }
  for (int i = 0; i < e->n; i++) reads(pf, e->args[i]);
}

/* A work-group loop of dimension 0 over more than one chunk whose body begins
   with a mapLcl loop: that loop's straight-line reads. */
static void prefetch_loop(KStmt *root, KStmt *s) {
  if (s->kind != KS_FOR || s->level != LEVEL_WRG || s->dim != 0 || nat_proves_le(s->count, nat_const(1))) return;
  KStmt *body = s->body;
  if (!body || body->kind != KS_BLOCK || body->n == 0) return;
  KStmt *lcl = body->stmts[0];
  if (lcl->kind != KS_FOR || lcl->level != LEVEL_LCL || lcl->dim != 0 || !lcl->body || lcl->body->kind != KS_BLOCK) return;
  NatVar *next = nat_var_new(arena_printf("%s_next", s->var->name), nat_const(0), nat_sub(s->count, nat_const(1)));
  Pf pf = { root, lcl, s->var, next };
  for (int i = 0; i < lcl->body->n; i++) {
    KStmt *t = lcl->body->stmts[i];
    if (t->kind == KS_DECL) reads(&pf, t->init);
    else if (t->kind == KS_ASSIGN) reads(&pf, t->rhs);
  }
  if (lcl->nprefetch) { lcl->prefetch_wrg = s; lcl->prefetch_next = next; }
}

void plan_prefetch(KStmt *body) {
  for (int i = 0; body && body->kind == KS_BLOCK && i < body->n; i++) prefetch_loop(body, body->stmts[i]);
}
