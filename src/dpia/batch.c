/* batch.c — a chunk loop's work-groups run k at a time (docs/fcl.md §6.2,
   "batched chunks"; CLIFT_FCL_BATCH=k, FCL's kernels). A work-group loop
   whose body is mapLcl loops and barriers (reduce's tree over a chunk of 512,
   scan's Sklansky steps) waits at each barrier with one chunk's work: two
   reads a work-item, then halvings that leave most warps idle. Work-group
   iterations are independent (mapWrg), so k of them, g = k·b + j for
   j < k, run as one iteration b of a loop of ⌈n / k⌉: the body's i-th mapLcl
   loop does the i-th loop's body of each of the k chunks, each chunk in
   local buffers of its own, and the barriers between are shared. Each
   work-item then has 2k reads in flight before the first barrier, and the
   barriers, the tests of the `if (threadIdx.x < 16)` forms and the loop's own
   work are paid once for k chunks. The barriers placed for one chunk (barrier.c,
   warp.c) stay right: copy j touches only its own local buffers and the places
   of its own group. When k does not divide n, the last iteration's missing
   chunks are skipped by a test on g, uniform in the block, inside each mapLcl
   loop (the barriers stay outside). After the barriers, before the prefetch
   (which then covers all k chunks' reads of the next iteration).
   The default k (Kernel.batch_local_cap) is halved while the k chunks' local
   memory passes the cap: each chunk's values are held at once, and a chunk of
   more local memory holds more in registers too. On an H100 (bench/gpu/
   session17/18_2026-11-27.sh, 2^27) reduce (2 KB a chunk) was fastest at 4
   (cuda 0.193 ms, NVIDIA's OpenCL 0.204; 2: 0.195 and 0.254) and scan (4 KB)
   at 2 (cuda 0.944 against 0.965, opencl 1.000 against 1.092, where NVIDIA's
   OpenCL gave 4 chunks 120 registers and 2 chunks 74); 3 was slower than
   both (scan 1.34). A tree (tree() below: reduce) gets twice the chunks under
   twice the cap: on NVIDIA's OpenCL reduce at 2^27 took 0.1949-0.1972 ms with 8
   chunks against 0.2037-0.2056 with 4 (bench/gpu/session22_2026-11-28.sh). */
#include "plan.h"
#include "../layout/layout.h"
#include <string.h>

typedef struct Rename { Buffer *from, *to; } Rename;
typedef struct RenameVar { const char *from, *to; } RenameVar;
typedef struct RenameNat { NatVar *from, *to; } RenameNat;
typedef struct Copy {
  NatVar *group; Nat *at;   /* the old group variable and k·b + j */
  int j;                    /* the copy; 0 keeps its names */
  PlanKernel *pk;
  Rename *a; int n, cap;    /* buffers already renamed */
  RenameVar *names; int nnames, capnames;   /* private scalars renamed */
  RenameNat *vars; int nvars, capvars;      /* and the nat variables naming them */
} Copy;

static Buffer *renamed(Copy *c, Buffer *from) {
  for (int i = 0; i < c->n; i++) if (c->a[i].from == from) return c->a[i].to;
  return NULL;
}

/* A buffer's copy j: a local array of its own, the same size, or a private one
   declared in the body (`declared`: at its declaration; one declared outside
   stays shared); global buffers stay. */
static Buffer *buffer_of(Copy *c, Buffer *b, bool declared) {
  if (!b || c->j == 0 || (b->space != SPACE_LOCAL && b->space != SPACE_PRIVATE)) return b;
  Buffer *to = renamed(c, b);
  if (to || (b->space == SPACE_PRIVATE && !declared)) return to ? to : b;
  to = NEW(Buffer);
  *to = *b;
  to->name = arena_printf("%s_%d", b->name, c->j);
  ARENA_PUSH(c->a, c->n, c->cap, ((Rename){ b, to }));
  if (b->space == SPACE_LOCAL) {
    PlanKernel *pk = c->pk;
    Buffer **locals = NEW_ARRAY(Buffer *, pk->nlocals + 1);
    Nat **counts = NEW_ARRAY(Nat *, pk->nlocals + 1);
    int *dynamic = NEW_ARRAY(int, pk->nlocals + 1);
    for (int i = 0; i < pk->nlocals; i++) {
      locals[i] = pk->locals[i];
      counts[i] = pk->local_counts[i];
      dynamic[i] = pk->local_dynamic[i];
      if (pk->locals[i] == b) counts[pk->nlocals] = pk->local_counts[i], dynamic[pk->nlocals] = pk->local_dynamic[i];
    }
    locals[pk->nlocals] = to;
    pk->locals = locals;
    pk->local_counts = counts;
    pk->local_dynamic = dynamic;
    pk->nlocals++;
  }
  return to;
}

static const char *name_of(Copy *c, const char *name) {
  if (c->j == 0 || !name) return name;
  for (int i = c->nnames - 1; i >= 0; i--) if (!strcmp(c->names[i].from, name)) return c->names[i].to;
  return name;
}

/* e at k·b + j, a variable that names a renamed scalar (an index computed
   once, `in1[ix6]`) renamed with it */
static Nat *copy_nat(Copy *c, Nat *e) {
  if (!e) return NULL;
  e = nat_subst(e, c->group, c->at);
  int n;
  NatVar **vs = c->j ? nat_free_var_list(e, &n) : NULL;
  for (int i = 0; vs && i < n; i++) {
    const char *to = name_of(c, vs[i]->name);
    if (to == vs[i]->name) continue;
    NatVar *v = NULL;
    for (int k = 0; k < c->nvars; k++) if (c->vars[k].from == vs[i]) v = c->vars[k].to;
    if (!v) {
      v = nat_var_new(to, vs[i]->lo, vs[i]->hi);
      ARENA_PUSH(c->vars, c->nvars, c->capvars, ((RenameNat){ vs[i], v }));
    }
    e = nat_subst(e, vs[i], nat_var(v));
  }
  return e;
}

static CExp *copy_exp(Copy *c, CExp *e) {
  if (!e) return NULL;
  CExp *x = NEW(CExp);
  *x = *e;
  x->nat = copy_nat(c, e->nat);
  x->nat2 = copy_nat(c, e->nat2);
  x->buf = buffer_of(c, e->buf, false);
  if (e->kind == CE_VAR) x->name = name_of(c, e->name);
  if (e->n) {
    x->args = NEW_ARRAY(CExp *, e->n);
    for (int i = 0; i < e->n; i++) x->args[i] = copy_exp(c, e->args[i]);
  }
  return x;
}

/* Copy j of s: the group variable at k·b + j, its own local and private
   buffers, its private scalars renamed (NAME_j) so that the k copies can
   share one C scope. */
static KStmt *copy_stmt(Copy *c, KStmt *s) {
  if (!s) return NULL;
  KStmt *x = NEW(KStmt);
  *x = *s;
  if (s->kind == KS_BLOCK) {
    x->stmts = NEW_ARRAY(KStmt *, s->n ? s->n : 1);
    x->cap = s->n;
    for (int i = 0; i < s->n; i++) x->stmts[i] = copy_stmt(c, s->stmts[i]);
  }
  if (s->kind == KS_DECL && s->buf) { x->buf = buffer_of(c, s->buf, true); x->name = x->buf->name; }
  else if (s->kind == KS_DECL && c->j > 0) {
    x->name = arena_printf("%s_%d", s->name, c->j);
    ARENA_PUSH(c->names, c->nnames, c->capnames, ((RenameVar){ s->name, x->name }));
  }
  x->init = copy_exp(c, s->init); x->lhs = copy_exp(c, s->lhs);
  x->rhs = copy_exp(c, s->rhs); x->cond = copy_exp(c, s->cond);
  x->count = copy_nat(c, s->count);
  x->body = copy_stmt(c, s->body);
  x->then_ = copy_stmt(c, s->then_);
  x->else_ = copy_stmt(c, s->else_);
  return x;
}

static bool is_volatile(CExp *e, void *cx) { (void)cx; return e->is_volatile; }

/* A work-group loop of dimension 0 over a constant n ≥ 2 groups whose body is
   mapLcl loops of dimension 0 and barriers, with no atomics or volatile
   accesses (the one pass's tiles talk to each other). */
static bool batchable(KStmt *s, long long *n) {
  if (s->kind != KS_FOR || s->level != LEVEL_WRG || s->dim != 0 || !nat_is_const(s->count, n) || *n < 2) return false;
  if (!s->body || s->body->kind != KS_BLOCK || plan_has_atomic(s) || kstmt_any_node(s, is_volatile, NULL)) return false;
  for (int i = 0; i < s->body->n; i++) {
    KStmt *t = s->body->stmts[i];
    if (t->kind == KS_BARRIER) continue;
    if (t->kind != KS_FOR || t->level != LEVEL_LCL || t->dim != 0 || t->pinned || t->unsized) return false;
  }
  return true;
}

static void batch_loop(PlanKernel *pk, KStmt *s, long long n, int k) {
  long long batches = (n + k - 1) / k;
  NatVar *b = nat_var_new(arena_printf("%s_b", s->var->name), nat_const(0), nat_const(batches - 1));
  Copy *copies = NEW_ARRAY(Copy, k);
  for (int j = 0; j < k; j++)
    copies[j] = (Copy){ .group = s->var, .at = nat_add(nat_mul(nat_const(k), nat_var(b)), nat_const(j)), .j = j, .pk = pk };
  KStmt *body = s->body;
  for (int i = 0; i < body->n; i++) {
    KStmt *l = body->stmts[i];
    if (l->kind != KS_FOR) continue;
    KStmt *fused = kstmt_block();
    for (int j = 0; j < k; j++) {
      KStmt *one = copy_stmt(&copies[j], l->body);
      /* the last iteration has n - k·(batches - 1) chunks */
      if (j < n - (long long)k * (batches - 1)) {
        if (one->kind != KS_BLOCK) kstmt_add(fused, one);
        for (int t = 0; one->kind == KS_BLOCK && t < one->n; t++) kstmt_add(fused, one->stmts[t]);
        continue;
      }
      kstmt_add(fused, kstmt_if(cexp_nat_lt(copies[j].at, nat_const(n)), one, NULL));
    }
    l->body = fused;   /* the same loop (PlanKernel.loops holds it) */
  }
  s->var = b;
  s->count = nat_const(batches);
}

/* Bytes of local memory the kernel declares (its sizes are constants here:
   plan.c's locals_sized). */
static long long local_bytes(PlanKernel *pk) {
  long long sum = 0, n, e;
  for (int i = 0; i < pk->nlocals; i++)
    if (nat_is_const(pk->local_counts[i], &n) && nat_is_const(layout_type_bytes_nat(type_innermost(pk->locals[i]->type)), &e))
      sum += n * e;
  return sum;
}

/* A tree: a batchable work-group loop whose mapLcl loops shrink to a quarter of
   the first's count or less (reduce's 256, 128, …, 1; scan's Sklansky steps keep
   theirs). */
static bool tree(PlanKernel *pk) {
  long long n, first = 0, last = 0;
  for (int i = 0; pk->body && pk->body->kind == KS_BLOCK && i < pk->body->n; i++) {
    KStmt *s = pk->body->stmts[i];
    if (!batchable(s, &n)) continue;
    for (int j = 0; j < s->body->n; j++)
      if (s->body->stmts[j]->kind == KS_FOR && nat_is_const(s->body->stmts[j]->count, &n)) {
        if (!first) first = n;
        last = n;
      }
    return first > 0 && last * 4 <= first;
  }
  return false;
}

void plan_batch_groups(PlanKernel *pk, int k, long long local_cap) {
  long long n;
  /* the default's rule: a tree's later steps leave most warps idle, which more
     chunks in flight fill: twice the chunks, under twice the cap (reduce 8) */
  if (local_cap > 0 && tree(pk)) { k *= 2; local_cap *= 2; }
  if (local_cap > 0)
    for (long long bytes = local_bytes(pk); k > 1 && k * bytes > local_cap;) k /= 2;
  if (k < 2) return;
  for (int i = 0; pk->body && pk->body->kind == KS_BLOCK && i < pk->body->n; i++)
    if (batchable(pk->body->stmts[i], &n)) batch_loop(pk, pk->body->stmts[i], n, k);
}
