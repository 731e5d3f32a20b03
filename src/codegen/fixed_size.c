/* fixed_size.c — the body of a kernel's fixed-size version (docs/fcl.md §6.2,
   "fixed-size versions"; codegen_kernel_body prints it for blockDim.x =
   PlanKernel.version_local): print-time rewrites that hold only where each
   mapLcl loop has its fixed-size form, item lid being thread lid % S at step
   lid / S in every loop. The other version is printed from the plan's body,
   unchanged: these copy what they change. */
#include "stmt_print.h"
#include "../dpia/plan.h"

/* ---- a work-item's own elements kept in registers (the fixed-size version,
   docs/fcl.md §6.2 "own elements") ----
   In a block, mapLcl loop W writes local buf[lid] once, unconditionally, and a
   later mapLcl loop R of no more items reads buf[lid'] at its own index, with
   nothing between them writing buf and R not writing it: in the fixed-size forms
   (one iteration per thread, an if, or constant steps: item lid is thread
   lid % S at step lid / S in both) R's item reads what the same thread wrote at
   the same step, so W also keeps the value in a private array indexed by the step
   (registers once the constant steps are unrolled) and R reads that instead of
   local memory. The store stays: other items read buf. */
static bool fixed_steps(StmtPrinter *p, KStmt *s, long long *count, long long *steps) {
  long long size;
  if (s->kind != KS_FOR || s->level != LEVEL_LCL || s->dim != 0) return false;
  LclForm f = codegen_lcl_form(p, s, count, &size);
  *steps = f == LCL_STEPS ? *count / size : 1;
  return f == LCL_BLOCK || f == LCL_IF || f == LCL_STEPS;
}

/* the step variable the printed loop declares (cuda's and opencl's LCL_STEPS), 0 without */
static Nat *step_of(KStmt *loop, long long steps) {
  return steps == 1 ? nat_const(0) : nat_var(nat_var_new(arena_printf("%s_step", loop->var->name), nat_const(0), nat_const(steps - 1)));
}

static CExp *lhs_base(KStmt *s) {
  CExp *base = s->lhs;
  while (base->kind == CE_LANE) base = base->args[0];
  return base;
}

static int writes_of(KStmt *s, Buffer *b) {
  if (!s) return 0;
  if (s->kind == KS_ASSIGN) return lhs_base(s)->buf == b;
  int n = writes_of(s->body, b) + writes_of(s->then_, b) + writes_of(s->else_, b);
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) n += writes_of(s->stmts[i], b);
  return n;
}

static bool reads_own(CExp *e, Buffer *b, Nat *own) {
  if (!e) return false;
  if (e->kind == CE_READ && e->buf == b && e->field < 0 && e->nsub == 0 && nat_same(e->nat, own)) return true;
  for (int i = 0; i < e->n; i++) if (reads_own(e->args[i], b, own)) return true;
  return false;
}

static bool stmt_reads_own(KStmt *s, Buffer *b, Nat *own) {
  if (!s) return false;
  if (reads_own(s->init, b, own) || reads_own(s->rhs, b, own) || reads_own(s->cond, b, own)) return true;
  if (s->lhs && s->lhs->kind != CE_VAR && s->lhs->n && reads_own(s->lhs, b, own)) return true;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) if (stmt_reads_own(s->stmts[i], b, own)) return true;
  return stmt_reads_own(s->body, b, own) || stmt_reads_own(s->then_, b, own) || stmt_reads_own(s->else_, b, own);
}

/* e with the own-element reads of b replaced by `by` (copies where it changes) */
static CExp *subst_own(CExp *e, Buffer *b, Nat *own, CExp *by) {
  if (!e) return e;
  if (e->kind == CE_READ && e->buf == b && e->field < 0 && e->nsub == 0 && nat_same(e->nat, own)) return by;
  CExp *c = NULL;
  for (int i = 0; i < e->n; i++) {
    CExp *a = subst_own(e->args[i], b, own, by);
    if (a == e->args[i]) continue;
    if (!c) {
      c = NEW(CExp);
      *c = *e;
      c->args = NEW_ARRAY(CExp *, e->n);
      for (int k = 0; k < e->n; k++) c->args[k] = e->args[k];
    }
    c->args[i] = a;
  }
  return c ? c : e;
}

static KStmt *subst_stmt(KStmt *s, Buffer *b, Nat *own, CExp *by) {
  if (!s) return s;
  KStmt *c = NEW(KStmt);
  *c = *s;
  c->init = subst_own(s->init, b, own, by);
  c->rhs = subst_own(s->rhs, b, own, by);
  c->cond = subst_own(s->cond, b, own, by);
  if (s->kind == KS_BLOCK) {
    c->stmts = NEW_ARRAY(KStmt *, s->n);
    for (int i = 0; i < s->n; i++) c->stmts[i] = subst_stmt(s->stmts[i], b, own, by);
    c->cap = s->n;
  }
  c->body = subst_stmt(s->body, b, own, by);
  c->then_ = subst_stmt(s->then_, b, own, by);
  c->else_ = subst_stmt(s->else_, b, own, by);
  return c;
}

/* The top-level statements of w's body from `from` on writing buf[w's variable],
   local, the only write of buf in w: the first one's index in the body, or -1
   (a batched loop, dpia/batch.c, has one for each of its chunks). */
static int own_write(KStmt *w, int from) {
  KStmt *body = w->body;
  for (int i = from; body && body->kind == KS_BLOCK && i < body->n; i++) {
    KStmt *s = body->stmts[i];
    if (s->kind != KS_ASSIGN || s->lhs->kind != CE_READ) continue;
    Buffer *b = s->lhs->buf;
    if (b && b->space == SPACE_LOCAL && s->lhs->field < 0 && s->lhs->nsub == 0 && nat_same(s->lhs->nat, nat_var(w->var))
        && writes_of(body, b) == 1)
      return i;
  }
  return -1;
}

static KStmt *own_elements(StmtPrinter *p, KStmt *s, int *counter);

static KStmt *block_of(KStmt *s) {
  KStmt *b = kstmt_block();
  kstmt_add(b, s);
  return b;
}

/* st[i] (a fixed-size loop of n1 steps) with its own write at `at` also kept in a
   private array, declared into out, and the later loops st[j] reading it
   rewritten; st[i] unchanged when none reads it. */
static KStmt *keep_own(StmtPrinter *p, KStmt **st, int n, int i, int at, long long c1, long long n1, KStmt *out, int *counter) {
  long long c2, n2;
  KStmt *w = st[i], *wr = w->body->stmts[at];
  Buffer *buf = wr->lhs->buf;
  Buffer *keep = NEW(Buffer);
  keep->name = arena_printf("%s_own%d", buf->name, (*counter)++);
  keep->type = type_array(wr->lhs->type, nat_const(n1));
  keep->space = SPACE_PRIVATE;
  bool any = false;
  for (int j = i + 1; j < n && !writes_of(st[j], buf); j++) {
    Nat *own = st[j]->kind == KS_FOR ? nat_var(st[j]->var) : NULL;
    if (!own || !fixed_steps(p, st[j], &c2, &n2) || c2 > c1 || !stmt_reads_own(st[j]->body, buf, own)) continue;
    KStmt *r = NEW(KStmt);
    *r = *st[j];
    r->body = subst_stmt(st[j]->body, buf, own, cexp_read(keep, step_of(st[j], n2), -1, wr->lhs->type));
    st[j] = r;
    any = true;
  }
  if (!any) return w;
  KStmt *decl = kstmt_block();
  decl->kind = KS_DECL; decl->buf = keep; decl->name = keep->name; decl->type = keep->type;
  kstmt_add(out, decl);
  CExp *slot = cexp_read(keep, step_of(w, n1), -1, wr->lhs->type);
  KStmt *body = kstmt_block();
  for (int k = 0; k < w->body->n; k++) {
    if (k != at) { kstmt_add(body, w->body->stmts[k]); continue; }
    kstmt_add(body, kstmt_assign(slot, wr->rhs));
    kstmt_add(body, kstmt_assign(wr->lhs, slot));
  }
  KStmt *nw = NEW(KStmt);
  *nw = *w;
  nw->body = body;
  return nw;
}

/* Block b's statements with the own elements forwarded (a copy). */
static KStmt *own_elements_block(StmtPrinter *p, KStmt *b, int *counter) {
  KStmt *out = kstmt_block();
  KStmt **st = NEW_ARRAY(KStmt *, b->n);
  for (int i = 0; i < b->n; i++) st[i] = own_elements(p, b->stmts[i], counter);
  for (int i = 0; i < b->n; i++) {
    long long c1, n1;
    if (fixed_steps(p, st[i], &c1, &n1))
      for (int at = own_write(st[i], 0); at >= 0; ) {
        KStmt *w = keep_own(p, st, b->n, i, at, c1, n1, out, counter);
        at = own_write(w, at + (w != st[i]) + 1);   /* a kept write is two statements */
        st[i] = w;
      }
    kstmt_add(out, st[i]);
  }
  return out;
}

static KStmt *own_elements(StmtPrinter *p, KStmt *s, int *counter) {
  if (s->kind == KS_BLOCK) return own_elements_block(p, s, counter);
  if ((s->kind == KS_FOR && s->level != LEVEL_LCL && s->level != LEVEL_GLB) || s->kind == KS_IF) {
    KStmt *c = NEW(KStmt);
    *c = *s;
    if (s->body) c->body = own_elements(p, s->body, counter);
    if (s->then_) c->then_ = own_elements(p, s->then_, counter);
    if (s->else_) c->else_ = own_elements(p, s->else_, counter);
    return c;
  }
  return s;
}

/* ---- reads one chunk ahead (the fixed-size version with CLIFT_FCL_PREFETCH=reg,
   docs/fcl.md §6.2 "prefetch") ----
   The reads dpia/prefetch.c chose in a work-group loop's first mapLcl loop L
   (unconditional, of buffers the kernel never writes, at indices of the group's
   and the item's variables) are made one chunk ahead into private stages: the
   first chunk's before the loop, and at the top of L's body the current value
   taken from the stage and the next chunk's read issued into it, so that it is in
   flight during this chunk's steps. L's fixed-size form gives each thread the same
   items at every chunk (item lid at step lid / S), so stage[step] is that item's.
   With CLIFT_FCL_PREFETCH=both, L also asks L2 for the chunk after next (its
   reads at the group's variable + 2 × the groups), which no register holds. */
static KStmt *decl_of(Buffer *b) {
  KStmt *d = kstmt_block();
  d->kind = KS_DECL; d->buf = b; d->name = b->name; d->type = b->type;
  return d;
}

static KStmt *staged_loop(StmtPrinter *p, KStmt *w, KStmt *out, bool l2_too, int *counter) {
  KStmt *l = w->body->stmts[0];
  long long count, steps;
  if (!l->nprefetch || !fixed_steps(p, l, &count, &steps) || steps > 4) return w;
  NatVar *first = nat_var_new(p->style->group_id, nat_const(0), nat_sub(w->count, nat_const(1)));
  KStmt *fill = kstmt_block(), *body = kstmt_block();
  KStmt *next = kstmt_block();
  next->kind = KS_DECL; next->name = l->prefetch_next->name; next->type = type_scalar(TY_LONG);
  next->init = cexp_var(arena_printf("%s + %s", w->var->name, p->style->groups), type_scalar(TY_LONG));
  kstmt_add(body, next);
  KStmt *ahead = kstmt_block(), *rest = l->body;
  for (int k = 0; k < l->nprefetch; k++) {
    CExp *r = l->prefetched[k];
    Buffer *st = NEW(Buffer);
    st->name = arena_printf("%s_stage%d", r->buf->name, (*counter)++);
    st->type = type_array(r->type, nat_const(steps));
    st->space = SPACE_PRIVATE;
    kstmt_add(out, decl_of(st));
    CExp *slot = cexp_read(st, step_of(l, steps), -1, r->type);
    CExp *at_first = NEW(CExp);
    *at_first = *r;
    at_first->nat = nat_subst(r->nat, w->var, nat_var(first));
    kstmt_add(fill, kstmt_assign(slot, at_first));
    const char *cur = arena_printf("%s_cur%d", r->buf->name, *counter - 1);
    KStmt *d = kstmt_block();
    d->kind = KS_DECL; d->name = cur; d->type = r->type; d->init = slot;
    kstmt_add(body, d);
    kstmt_add(ahead, kstmt_assign(slot, l->prefetch[k]));
    rest = subst_stmt(rest, r->buf, r->nat, cexp_var(cur, r->type));
  }
  kstmt_add(body, kstmt_if(cexp_nat_lt(nat_var(l->prefetch_next), w->count), ahead, NULL));
  for (int i = 0; i < rest->n; i++) kstmt_add(body, rest->stmts[i]);
  KStmt *lf = NEW(KStmt), *ln = NEW(KStmt);
  *lf = *l; lf->nprefetch = 0; lf->body = fill;
  *ln = *l; ln->nprefetch = 0; ln->body = body;
  if (l2_too) {   /* CLIFT_FCL_PREFETCH=both: the chunk after next asked of L2 as well */
    NatVar *after = nat_var_new(arena_printf("%s_after", w->var->name), nat_const(0), nat_sub(w->count, nat_const(1)));
    ln->prefetch = NEW_ARRAY(CExp *, l->nprefetch);
    for (int k = 0; k < l->nprefetch; k++) {
      CExp *c = NEW(CExp);
      *c = *l->prefetched[k];
      c->nat = nat_subst(c->nat, w->var, nat_var(after));
      ln->prefetch[k] = c;
    }
    ln->nprefetch = l->nprefetch;
    ln->prefetch_next = after;
    ln->prefetch_ahead = 2;
  }
  kstmt_add(out, kstmt_if(cexp_nat_lt(nat_var(first), w->count), block_of(lf), NULL));
  KStmt *wb = kstmt_block();
  kstmt_add(wb, ln);
  for (int i = 1; i < w->body->n; i++) kstmt_add(wb, w->body->stmts[i]);
  KStmt *nw = NEW(KStmt);
  *nw = *w;
  nw->body = wb;
  return nw;
}

KStmt *codegen_fixed_size_body(StmtPrinter *p, PlanKernel *pk, int *counter) {
  KStmt *body = pk->body;
  if (pk->stage_reads) {
    KStmt *out = kstmt_block();
    for (int i = 0; i < body->n; i++) {
      KStmt *s = body->stmts[i];
      bool chunks = s->kind == KS_FOR && s->level == LEVEL_WRG && s->body && s->body->kind == KS_BLOCK && s->body->n
                    && s->body->stmts[0]->kind == KS_FOR && s->body->stmts[0]->prefetch_wrg == s;
      kstmt_add(out, chunks ? staged_loop(p, s, out, pk->stage_and_prefetch, counter) : s);
    }
    body = out;
  }
  return own_elements(p, body, counter);
}

