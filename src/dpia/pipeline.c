/* pipeline.c — register-staged prefetch of a work-group's sequential loop
   (software pipelining, docs/design.md §14). A sequential loop of a
   work-group body that copies global memory into local memory, waits at a
   barrier and computes from the copy,

     for i in [0, n):  P(i)   (mapLcl copies: local[…] = global[f(i)])
                       barrier
                       Q(i)   (the compute, reading local; a barrier at its end)

   exposes the latency of P's global reads at every step: nothing else of
   the work-group runs until they arrive. Each global read of P becomes a
   read of a private staging array, filled one step ahead:

     L(0)                        (the reads of step 0 into the stage, when n > 0)
     for i in [0, n):  P'(i)     (local[…] = stage[…])
                       barrier
                       if (i + 1 < n) L(i + 1)
                       Q(i)

   so that step i + 1's reads are in flight during step i's compute. L has
   P's loops (fresh variables) and only the reads. Correct because:
   - every read moved is of a global buffer that the kernel never writes (its
     value is the same one step earlier), at an index that depends only on
     loop variables and sizes (a nat), and is done unconditionally by P at
     every step (no if, while or count above it in P): L(i + 1) reads what
     P(i + 1) would have read, and only when step i + 1 exists;
   - the stage is private: each work-item fills and reads its own (P' before
     L in program order), so no barrier and no race is added (barrier.c and
     race.c never see private buffers as shared);
   - P's loops above a moved read run a known number of iterations per
     work-item: mapLcl loops of at most the pinned work-group size of their
     dimension (one iteration per work-item, docs/design.md §13), sequential
     loops of a constant count; the stage holds one element per iteration
     of those sequential loops (registers after unrolling).
   Device targets only (plan.c): c and openmp run a work-group's items as
   iterations of one thread, where nothing is to be hidden. */
#include "plan.h"
#include "../layout/layout.h"

enum { STAGE_MAX_SCALARS = 64,      /* per loop: the staged values, in scalars */
       LOCAL_MAX_BYTES = 48 * 1024 }; /* a kernel's local memory after double buffering (CUDA's static limit) */

/* A loop of P above a staged read, and its copy in L: `count` iterations per
   work-item (1: a mapLcl loop, one iteration per work-item, or none). */
typedef struct Frame { NatVar *from, *to; long long count; } Frame;

typedef struct Pipe {
  KStmt *root;               /* the kernel's body: the writes to check */
  long long size[3];         /* the pinned work-group size, 0 where none */
  NatVar *step;              /* the loop's variable i */
  Nat *next;                 /* what i becomes in L: a placeholder, 0 or i + 1 later */
  Frame frames[16]; int nframes;
  KStmt *stages;             /* declarations of the staging arrays */
  int scalars;               /* staged so far, in scalars */
  int *counter;
} Pipe;

void plan_pinned_sizes(KStmt *s, long long size[3]) {
  if (!s) return;
  long long c;
  if (s->kind == KS_FOR && s->level == LEVEL_LCL && s->pinned && s->dim >= 0 && s->dim < 3 && nat_is_const(s->count, &c))
    size[s->dim] = c;
  if (s->kind == KS_FOR || s->kind == KS_WHILE) plan_pinned_sizes(s->body, size);
  if (s->kind == KS_IF || s->kind == KS_WHILE) { plan_pinned_sizes(s->then_, size); plan_pinned_sizes(s->else_, size); }
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) plan_pinned_sizes(s->stmts[i], size);
}


static bool has_atomic(CExp *e) {
  if (!e) return false;
  if (e->kind == CE_ATOMIC_INC) return true;
  for (int i = 0; i < e->n; i++) if (has_atomic(e->args[i])) return true;
  return false;
}

bool plan_has_atomic(KStmt *s) {
  if (!s) return false;
  if ((s->kind == KS_ASSIGN && (has_atomic(s->lhs) || has_atomic(s->rhs))) ||
      ((s->kind == KS_DECL || s->kind == KS_COUNT) && has_atomic(s->init)) || (s->kind == KS_IF && has_atomic(s->cond)))
    return true;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) if (plan_has_atomic(s->stmts[i])) return true;
  return plan_has_atomic(s->body) || plan_has_atomic(s->then_) || plan_has_atomic(s->else_);
}

static bool is_count(KStmt *s, void *cx) { (void)cx; return s->kind == KS_COUNT; }
static bool has_count(KStmt *s) { return kstmt_any(s, is_count, NULL); }

static bool movable(Pipe *pp, CExp *e) {
  if ((e->kind != CE_READ && e->kind != CE_VLOAD) || !e->buf || e->is_volatile) return false;
  if (e->buf->space != SPACE_GLOBAL || !e->type || e->type->kind == TY_TUPLE) return false;
  if (!nat_mentions(e->nat, pp->step) || kstmt_writes(pp->root, e->buf)) return false;
  int scalars = e->type->kind == TY_VECTOR ? (int)e->type->width : 1;
  long long elems = 1;
  for (int f = 0; f < pp->nframes; f++) elems *= pp->frames[f].count;
  return pp->scalars + scalars * elems <= STAGE_MAX_SCALARS;
}

/* e with its movable global reads replaced by stage reads; their loads
   appended to `loads` (in L's variables). */
static CExp *stage_exp(Pipe *pp, CExp *e, KStmt *loads) {
  if (!e) return e;
  if (movable(pp, e)) {
    long long elems = 1;
    Nat *idx = nat_const(0), *idx2 = nat_const(0);   /* in P's variables, in L's */
    for (int f = 0; f < pp->nframes; f++) {
      elems *= pp->frames[f].count;
      if (pp->frames[f].count == 1) continue;
      idx = nat_add(nat_mul(idx, nat_const(pp->frames[f].count)), nat_var(pp->frames[f].from));
      idx2 = nat_add(nat_mul(idx2, nat_const(pp->frames[f].count)), nat_var(pp->frames[f].to));
    }
    Buffer *b = NEW(Buffer);
    b->name = arena_printf("stage%d", (*pp->counter)++);
    b->type = type_array(e->type, nat_const(elems));
    b->space = SPACE_PRIVATE;
    KStmt *d = NEW(KStmt);
    d->kind = KS_DECL; d->buf = b; d->name = b->name; d->type = b->type;
    kstmt_add(pp->stages, d);
    CExp *load = NEW(CExp);
    *load = *e;
    Nat *at = nat_subst(e->nat, pp->step, pp->next);
    for (int f = 0; f < pp->nframes; f++) at = nat_subst(at, pp->frames[f].from, nat_var(pp->frames[f].to));
    load->nat = at;
    kstmt_add(loads, kstmt_assign(cexp_read(b, idx2, -1, e->type), load));
    pp->scalars += (e->type->kind == TY_VECTOR ? (int)e->type->width : 1) * (int)elems;
    return cexp_read(b, idx, -1, e->type);
  }
  if (e->n == 0) return e;
  CExp *c = NULL;
  for (int i = 0; i < e->n; i++) {
    CExp *a = stage_exp(pp, e->args[i], loads);
    if (a == e->args[i]) continue;
    if (!c) { c = NEW(CExp); *c = *e; c->args = NEW_ARRAY(CExp *, e->n); for (int j = 0; j < e->n; j++) c->args[j] = e->args[j]; }
    c->args[i] = a;
  }
  return c ? c : e;
}

static CExp *exp_subst(CExp *e, NatVar *v, Nat *by) {
  if (!e) return e;
  CExp *c = NEW(CExp);
  *c = *e;
  if (e->nat) c->nat = nat_subst(e->nat, v, by);
  if (e->nat2) c->nat2 = nat_subst(e->nat2, v, by);
  if (e->n) {
    c->args = NEW_ARRAY(CExp *, e->n);
    for (int i = 0; i < e->n; i++) c->args[i] = exp_subst(e->args[i], v, by);
  }
  return c;
}

/* A copy of s with v replaced by `by`. */
static KStmt *stmt_subst(KStmt *s, NatVar *v, Nat *by) {
  if (!s) return s;
  KStmt *c = NEW(KStmt);
  *c = *s;
  if (s->kind == KS_BLOCK) {
    c->n = c->cap = 0; c->stmts = NULL;
    for (int i = 0; i < s->n; i++) kstmt_add(c, stmt_subst(s->stmts[i], v, by));
  }
  c->lhs = exp_subst(s->lhs, v, by); c->rhs = exp_subst(s->rhs, v, by);
  c->init = exp_subst(s->init, v, by); c->cond = exp_subst(s->cond, v, by);
  if (s->count) c->count = nat_subst(s->count, v, by);
  c->body = stmt_subst(s->body, v, by);
  c->then_ = stmt_subst(s->then_, v, by);
  c->else_ = stmt_subst(s->else_, v, by);
  return c;
}

static void stage_stmt(Pipe *pp, KStmt *s, KStmt *loads);

/* A mapLcl loop of count = k · size (the pinned size), printed as k steps of
   lid = local id + step · size: the same as a sequential loop over the step
   around a mapLcl loop of one iteration per work-item, which it becomes when
   a read below it is staged, so that the stage's index is the step (a
   constant once nvcc unrolls it, a register rather than a stack array). */
static void stage_steps(Pipe *pp, KStmt *s, long long count, long long size, KStmt *loads) {
  KStmt saved = *s;
  NatVar *step = nat_var_new(arena_printf("%s_s", s->var->name), nat_const(0), nat_const(count / size - 1));
  NatVar *t = nat_var_new(arena_printf("%s_t", s->var->name), nat_const(0), nat_const(size - 1));
  KStmt *inner = stmt_subst(s->body, s->var, nat_add(nat_var(t), nat_mul(nat_const(size), nat_var(step))));
  KStmt *lcl = kstmt_for(LEVEL_LCL, s->dim, t, nat_const(size), inner), *block = kstmt_block();
  lcl->pinned = s->pinned; lcl->unsized = s->unsized;
  kstmt_add(block, lcl);
  s->level = LEVEL_SEQ; s->dim = -1; s->var = step; s->count = nat_const(count / size); s->body = block;
  s->pinned = s->unsized = false;
  int before = loads->n;
  stage_stmt(pp, s, loads);
  if (loads->n == before) *s = saved;   /* nothing staged: as it was */
}

/* P's statement s rewritten in place to read the stage; its loads (L's part)
   appended to `loads`. Only below blocks, declarations, assignments and
   loops of a known count per work-item. */
static void stage_stmt(Pipe *pp, KStmt *s, KStmt *loads) {
  switch (s->kind) {
  case KS_BLOCK:
    for (int i = 0; i < s->n; i++) stage_stmt(pp, s->stmts[i], loads);
    return;
  case KS_DECL:
    if (!s->buf) s->init = stage_exp(pp, s->init, loads);
    return;
  case KS_ASSIGN:
    s->rhs = stage_exp(pp, s->rhs, loads);
    return;
  case KS_FOR: {
    long long count;
    if (s->host || pp->nframes == 16 || !nat_is_const(s->count, &count) || count < 1) return;
    if (s->level == LEVEL_LCL) {   /* as codegen_lcl_form prints it for the pinned size */
      long long size = s->dim >= 0 && s->dim <= 2 ? pp->size[s->dim] : 0;
      if (!size || (count > size && count % size)) return;
      if (count > size) { stage_steps(pp, s, count, size, loads); return; }
      count = 1;   /* one iteration per work-item (or none) */
    } else if (s->level != LEVEL_SEQ) return;
    NatVar *v = nat_var_new(arena_printf("%s_n", s->var->name), s->var->lo, s->var->hi);
    KStmt *body = kstmt_block(), *loop = kstmt_for(s->level, s->dim, v, s->count, body);
    loop->pinned = s->pinned; loop->unsized = s->unsized;
    pp->frames[pp->nframes++] = (Frame){ s->var, v, count };
    stage_stmt(pp, s->body, body);
    pp->nframes--;
    if (body->n) kstmt_add(loads, loop);
    return;
  }
  default:   /* if, while, count, barrier: their reads stay where they are */
    return;
  }
}

/* ---- double buffering: one barrier per step instead of two ----
   With the stage filled during Q, the barrier at the end of the body only
   keeps P'(i + 1)'s local writes from overwriting what slower work-items'
   Q(i) still reads. Each local buffer that P writes becomes two halves,
   step i using half i mod 2, and that barrier goes (one after the loop
   instead): P'(i + 1) writes half (i + 1) mod 2, which Q(i - 1) read, and
   every work-item finished Q(i - 1) before it reached step i's barrier,
   which the writer passed. Only when Q writes no local memory and has no
   barrier of its own, the end barrier fences local memory alone, and the
   buffers are touched nowhere else in the kernel. */


static int local_index(PlanKernel *pk, Buffer *b) {
  for (int i = 0; b && i < pk->nlocals; i++) if (pk->locals[i] == b) return i;
  return -1;
}

typedef struct Halves {
  PlanKernel *pk; bool *in_p; int accesses, writes;
  bool local_write, barrier;
  NatVar *step; bool varying;   /* a local write or loop count of P that depends on the step, or a guarded write */
} Halves;

static void exp_accesses(Halves *h, CExp *e, bool *mark) {
  if (!e) return;
  int li = (e->kind == CE_READ || e->kind == CE_VLOAD) ? local_index(h->pk, e->buf) : -1;
  if (li >= 0 && mark && mark[li]) h->accesses++;
  for (int i = 0; i < e->n; i++) exp_accesses(h, e->args[i], mark);
}

/* Count s's accesses to the marked local buffers; note its local writes
   (into `p`'s marks when p) and barriers. */
static void accesses(Halves *h, KStmt *s, bool *mark, bool *p, bool guarded) {
  if (!s) return;
  switch (s->kind) {
  case KS_ASSIGN: {
    CExp *base = s->lhs;
    while (base->kind == CE_LANE) base = base->args[0];
    int li = (base->kind == CE_READ || base->kind == CE_VLOAD) ? local_index(h->pk, base->buf) : -1;
    if (li >= 0) {
      if (!p) h->local_write = true;
      else { p[li] = true; h->varying |= guarded || nat_mentions(base->nat, h->step); }
      if (mark && mark[li]) h->writes++;
    }
    exp_accesses(h, s->lhs, mark);
    exp_accesses(h, s->rhs, mark);
    return;
  }
  case KS_DECL: case KS_COUNT: exp_accesses(h, s->init, mark); return;
  case KS_BARRIER: h->barrier = true; return;
  default:
    if (s->kind == KS_FOR && p) h->varying |= nat_mentions(s->count, h->step);
    guarded |= s->kind == KS_IF || s->kind == KS_WHILE;
    for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) accesses(h, s->stmts[i], mark, p, guarded);
    exp_accesses(h, s->cond, mark);
    accesses(h, s->body, mark, p, guarded);
    accesses(h, s->then_, mark, p, guarded);
    accesses(h, s->else_, mark, p, guarded);
  }
}

/* e with half·count added to the index of each access to a marked buffer
   (a copy: expressions may be shared). */
static CExp *exp_offset(PlanKernel *pk, CExp *e, bool *mark, Nat *half) {
  if (!e) return e;
  CExp *c = NEW(CExp);
  *c = *e;
  int li = (e->kind == CE_READ || e->kind == CE_VLOAD) ? local_index(pk, e->buf) : -1;
  if (li >= 0 && mark[li]) c->nat = nat_add(e->nat, nat_mul(half, pk->local_counts[li]));
  if (e->n) {
    c->args = NEW_ARRAY(CExp *, e->n);
    for (int i = 0; i < e->n; i++) c->args[i] = exp_offset(pk, e->args[i], mark, half);
  }
  return c;
}

static void stmt_offset(PlanKernel *pk, KStmt *s, bool *mark, Nat *half) {
  if (!s) return;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) stmt_offset(pk, s->stmts[i], mark, half);
  s->lhs = exp_offset(pk, s->lhs, mark, half);
  s->rhs = exp_offset(pk, s->rhs, mark, half);
  s->init = exp_offset(pk, s->init, mark, half);
  s->cond = exp_offset(pk, s->cond, mark, half);
  stmt_offset(pk, s->body, mark, half);
  stmt_offset(pk, s->then_, mark, half);
  stmt_offset(pk, s->else_, mark, half);
}

static KStmt *barrier_local(void) {
  KStmt *b = kstmt_block();
  b->kind = KS_BARRIER; b->dim = 1;
  return b;
}

/* Loop s after pipelining: P' = body[0, bar), the barrier, L, Q, the end
   barrier. Besides Q writing no local memory: P writes the halved buffers at
   the same places at every step (no index or loop count depending on the
   step, no write under a condition) and never reads them, so that what Q(i)
   reads of them is what P(i) wrote, in either form (a tile, not a value
   carried across steps). */
static bool double_buffer(PlanKernel *pk, KStmt *s, int bar) {
  KStmt *body = s->body;
  KStmt *last = body->stmts[body->n - 1];
  if (last->kind != KS_BARRIER || last->dim != 1 || body->n - 1 <= bar + 1) return false;
  bool *in_p = NEW_ARRAY(bool, pk->nlocals);
  Halves h = { .pk = pk, .in_p = in_p, .step = s->var };
  for (int i = 0; i < bar; i++) accesses(&h, body->stmts[i], NULL, in_p, false);
  if (h.local_write || h.barrier || h.varying) return false;
  for (int i = bar + 1; i < body->n - 1; i++) accesses(&h, body->stmts[i], NULL, NULL, false);
  if (h.local_write || h.barrier) return false;
  bool any = false;
  for (int i = 0; i < pk->nlocals; i++) any |= in_p[i];
  if (!any) return false;
  h.accesses = h.writes = 0;
  for (int i = 0; i < bar; i++) accesses(&h, body->stmts[i], in_p, NULL, false);
  if (h.accesses != h.writes) return false;   /* P reads them */
  h.accesses = 0;
  accesses(&h, body, in_p, NULL, false);
  int inside = h.accesses;
  h.accesses = 0;
  accesses(&h, pk->body, in_p, NULL, false);
  if (h.accesses != inside) return false;   /* touched outside the loop too */
  long long bytes = 0;
  for (int i = 0; i < pk->nlocals; i++) {
    Type *e = type_innermost(pk->locals[i]->type);
    long long n, each = e->kind == TY_VECTOR ? e->width * (long long)layout_scalar_bytes(e->elem->kind)
                      : type_is_scalar(e) ? (long long)layout_scalar_bytes(e->kind) : 0;
    if (!each || !nat_is_const(pk->local_counts[i], &n)) return false;
    bytes += (in_p[i] ? 2 : 1) * n * each;
  }
  if (bytes > LOCAL_MAX_BYTES) return false;
  stmt_offset(pk, body, in_p, nat_mod(nat_var(s->var), nat_const(2)));
  for (int i = 0; i < pk->nlocals; i++)
    if (in_p[i]) pk->local_counts[i] = nat_mul(nat_const(2), pk->local_counts[i]);
  body->n--;
  return true;
}

/* A copy of L (loops, blocks, stage[…] = global[…]) with v replaced by `by`
   in the reads' indices. */
static KStmt *with_step(KStmt *l, NatVar *v, Nat *by) {
  KStmt *c = NEW(KStmt);
  *c = *l;
  if (l->kind == KS_ASSIGN) {
    c->rhs = NEW(CExp);
    *c->rhs = *l->rhs;
    c->rhs->nat = nat_subst(l->rhs->nat, v, by);
    return c;
  }
  if (l->kind == KS_FOR) { c->body = with_step(l->body, v, by); return c; }
  c->n = c->cap = 0; c->stmts = NULL;
  for (int i = 0; i < l->n; i++) kstmt_add(c, with_step(l->stmts[i], v, by));
  return c;
}

/* Pipeline the loop s (statement `at` of block `parent`); true when done. */
static bool pipeline_loop(PlanKernel *pk, bool dbuf, const long long size[3], KStmt *parent, int at, int *counter) {
  KStmt *root = pk->body;
  KStmt *s = parent->stmts[at], *body = s->body;
  if (s->kind != KS_FOR || s->level != LEVEL_SEQ || s->host || !body || body->kind != KS_BLOCK) return false;
  int bar = -1;
  for (int i = 0; i < body->n && bar < 0; i++) if (body->stmts[i]->kind == KS_BARRIER) bar = i;
  if (bar <= 0 || plan_has_atomic(root) || has_count(body)) return false;
  NatVar *j = nat_var_new("next", nat_const(0), s->count);   /* the step L reads for */
  Pipe pp = { root, { size[0], size[1], size[2] }, s->var, nat_var(j), { { 0 } }, 0, kstmt_block(), 0, counter };
  KStmt *loads = kstmt_block();
  for (int i = 0; i < bar; i++) stage_stmt(&pp, body->stmts[i], loads);
  if (!loads->n) return false;
  /* L(0) before the loop, L(i + 1) in it: L was built with the placeholder j */
  KStmt *pre = kstmt_block();
  for (int i = 0; i < pp.stages->n; i++) kstmt_add(pre, pp.stages->stmts[i]);
  KStmt *loads0 = with_step(loads, j, nat_const(0));
  if (nat_proves_lt(nat_const(0), s->count)) kstmt_add(pre, loads0);
  else kstmt_add(pre, kstmt_if(cexp_nat_lt(nat_const(0), s->count), loads0, NULL));
  kstmt_add(pre, s);
  KStmt *guard = kstmt_if(cexp_nat_lt(nat_add(nat_var(s->var), nat_const(1)), s->count),
                         with_step(loads, j, nat_add(nat_var(s->var), nat_const(1))), NULL);
  KStmt *nb = kstmt_block();
  for (int i = 0; i <= bar; i++) kstmt_add(nb, body->stmts[i]);
  kstmt_add(nb, guard);
  for (int i = bar + 1; i < body->n; i++) kstmt_add(nb, body->stmts[i]);
  s->body = nb;
  parent->stmts[at] = pre;
  if (dbuf && double_buffer(pk, s, bar)) kstmt_add(pre, barrier_local());
  return true;
}

static void walk(PlanKernel *pk, bool dbuf, const long long size[3], KStmt *s, int *counter) {
  if (!s) return;
  if (s->kind == KS_BLOCK) {
    for (int i = 0; i < s->n; i++) {
      walk(pk, dbuf, size, s->stmts[i], counter);
      pipeline_loop(pk, dbuf, size, s, i, counter);
    }
    return;
  }
  if (s->kind == KS_FOR || s->kind == KS_WHILE) walk(pk, dbuf, size, s->body, counter);
  if (s->kind == KS_IF || s->kind == KS_WHILE) { walk(pk, dbuf, size, s->then_, counter); walk(pk, dbuf, size, s->else_, counter); }
}

void plan_pipeline(PlanKernel *pk, bool double_buffer) {
  long long size[3] = { 0, 0, 0 };
  plan_pinned_sizes(pk->body, size);
  if (!size[0] && !size[1] && !size[2]) return;
  int counter = 0;
  walk(pk, double_buffer, size, pk->body, &counter);
}

void plan_unroll(KStmt *s) {
  if (!s) return;
  long long n;
  if (s->kind == KS_FOR && s->level == LEVEL_SEQ && !s->host && nat_is_const(s->count, &n) && n >= 2 && n <= 32) s->unroll = true;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) plan_unroll(s->stmts[i]);
  plan_unroll(s->body);
  plan_unroll(s->then_);
  plan_unroll(s->else_);
}
