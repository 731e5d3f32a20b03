/* last_group.c — a top-level reduce in one launch on cuda: the pass over the
   partials (one work-group, lower.c's second level) runs in the kernel of
   the first pass, in the work-group that finishes its last chunk.

     for each chunk w of the first pass (work-groups, grid-stride):
       … the chunk's partial, written to partials[w] …
       barrier
       one work-item: last[w] = (fence; atomically counter += 1, its value before) == chunks - 1;
                      if so, counter = 0 (ready for the next launch)
       barrier
       if (last[w]) the second pass (its work-group 0), reading the partials
                    through volatile pointers

   The fence (__threadfence) before the count makes a group's partial visible
   to every group that sees its count (CUDA's documented pattern for a
   reduction in one launch); the volatile reads reach memory past the SM's L1.
   Only the group that counts the last chunk passes the test, after every
   chunk's partial is written, so the second pass reads them all; its
   work-group may run other chunks before (the grid-stride loop), never after.
   An empty input is one chunk of padding (its partial init). The counter is a temporary buffer (zeroed when allocated), set back to 0
   by the last group. What it saves: the second launch and its gap, a few
   microseconds, which for a 2^24-element sum on an H200 is a tenth of the time
   (docs/performance.md). Off on opencl: OpenCL 1.2's mem_fence orders memory
   only as the work-group itself sees it (lookback.c). */
#include "plan.h"
#include "dpia.h"
#include "../util/switches.h"

/* The second pass's place in the first one: its work-group variable is
   `from`; in local memory (whose row is the first pass's work-group,
   plan.c localise_exp) it becomes the first pass's variable, elsewhere 0. */
typedef struct Move { NatVar *from, *wrg; KStmt *writer; UtilMap done; } Move;

static bool move_node(CExp *e, void *cx) {
  Move *m = cx;
  if (util_map_get(&m->done, e, false)) return false;
  util_map_put(&m->done, e, false, e);
  bool local = e->buf && e->buf->space == SPACE_LOCAL && (e->kind == CE_READ || e->kind == CE_VLOAD);
  Nat *by = local ? nat_var(m->wrg) : nat_const(0);
  if (e->nat) e->nat = nat_subst(e->nat, m->from, by);
  if (e->nat2) e->nat2 = nat_subst(e->nat2, m->from, nat_const(0));
  /* what the first pass wrote, read where other groups wrote it */
  if (e->kind == CE_READ && e->buf && e->buf->space == SPACE_GLOBAL && kstmt_writes(m->writer, e->buf)) e->is_volatile = true;
  return false;   /* every node */
}

static bool move_counts(KStmt *s, void *cx) {
  Move *m = cx;
  if (s->kind == KS_FOR && s->count) s->count = nat_subst(s->count, m->from, nat_const(0));
  return false;
}

static KStmt *stmt(KStmtKind kind) {
  KStmt *s = NEW(KStmt);
  s->kind = kind;
  return s;
}

static KStmt *barrier(void) {
  KStmt *b = stmt(KS_BARRIER);
  b->dim = 3;   /* local and global memory */
  return b;
}

/* first: the first pass's work-group loop; second: the second pass's (one
   work-group). The epilogue goes at the end of first's body. */
static void fuse(Kernel *k, KStmt *first, KStmt *second, int n) {
  Type *it = type_scalar(TY_INT), *bt = type_scalar(TY_BOOL);
  NatVar *w = first->var;
  /* no chunk (a filtered array that keeps nothing): one, all padding, so
     that a group passes the test and writes init */
  first->count = nat_max(first->count, nat_const(1));
  Buffer *counter = kernel_new_buffer(k, arena_printf("clift_chunks%d", n), type_array(it, nat_const(1)), SPACE_GLOBAL);
  Buffer *last = kernel_new_buffer(k, arena_printf("clift_last%d", n), type_array(type_array(bt, nat_const(1)), first->count), SPACE_LOCAL);
  CExp *flag = cexp_read(last, nat_var(w), -1, bt);   /* row w of the local buffer (plan.c localise_exp) */

  NatVar *one = nat_var_new(arena_printf("clift_lid%d", n), nat_const(0), nat_const(0));
  KStmt *item = kstmt_for(LEVEL_LCL, 0, one, nat_const(1), kstmt_block());
  CExp *count = cexp_atomic_inc(counter, nat_const(0));
  count->ival = 1;   /* a device-wide fence before it (c_expr.c) */
  KStmt *before = stmt(KS_DECL);
  before->name = arena_printf("clift_done%d", n); before->type = it; before->init = count;
  kstmt_add(item->body, before);
  CExp *total = cexp_nat(nat_sub(first->count, nat_const(1)));
  total->type = it;
  CExp *is_last = cexp_op(OP_EQ, bt, 2, (CExp *[]){ cexp_var(before->name, it), total });
  kstmt_add(item->body, kstmt_assign(flag, is_last));
  KStmt *reset = kstmt_if(is_last, NULL, NULL);
  kstmt_add(reset->then_, kstmt_assign(cexp_read(counter, nat_const(0), -1, it), cexp_lit_int(0)));
  kstmt_add(item->body, reset);

  Move m = { second->var, w, first, {0} };
  kstmt_any_node(second->body, move_node, &m);
  kstmt_any(second->body, move_counts, &m);
  KStmt *run = kstmt_if(cexp_read(last, nat_var(w), -1, bt), second->body, NULL);

  KStmt *body = first->body;
  kstmt_add(body, barrier());
  kstmt_add(body, item);
  kstmt_add(body, barrier());
  kstmt_add(body, run);
}

/* A vector load of what the first pass wrote: no volatile form to read it
   past L1 with (CE_VLOAD), so such a pass stays a kernel of its own. */
typedef struct Vec { KStmt *writer; } Vec;

static bool vector_read(CExp *e, void *cx) {
  return e->kind == CE_VLOAD && e->buf && kstmt_writes(((Vec *)cx)->writer, e->buf);
}

static bool one_group(KStmt *s) {
  long long n;
  return s->kind == KS_FOR && s->level == LEVEL_WRG && s->last_group && s->dim == 0 && nat_is_const(s->count, &n) && n == 1;
}

void plan_fuse_last_group(Kernel *k) {
  if (!switch_value(SW_REDUCE_ONE_LAUNCH)) return;
  KStmt *b = k->body;
  int fused = 0;
  for (int i = 0; i + 1 < b->n; i++) {
    KStmt *first = b->stmts[i], *second = b->stmts[i + 1];
    if (!one_group(second) || first->kind != KS_FOR || first->level != LEVEL_WRG || first->dim != 0 || first->body->kind != KS_BLOCK)
      continue;
    Vec v = { first };
    if (kstmt_any_node(second->body, vector_read, &v)) continue;
    fuse(k, first, second, fused++);
    for (int j = i + 1; j + 1 < b->n; j++) b->stmts[j] = b->stmts[j + 1];
    b->n--;
  }
}
