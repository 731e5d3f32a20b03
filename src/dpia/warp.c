/* warp.c — barriers a warp suffices for (docs/fcl.md §6.2, "warp barriers").
   A work-group barrier (barrier.c) orders every access before it against
   every access after it. When each pair of conflicting local-memory accesses
   it orders (the same element, one of them a write) is made by work-items of
   one warp, a barrier among the warp's 32 threads is enough: reduce's halving
   steps from 32 elements down (the tree's last five of nine barriers) and
   Sklansky's first steps (segments of up to 32 elements). CUDA prints such a
   barrier as __syncwarp(), which orders the shared memory of the threads that
   take part (CUDA C++ Programming Guide, "Warp synchronization"), where the
   block's warps are whole (blockDim.x a multiple of 32, a 1-D block), and as
   __syncthreads() otherwise; OpenCL C 1.2 has no warps: opencl prints a macro,
   PTX's bar.warp.sync on NVIDIA's OpenCL and the local barrier elsewhere
   (codegen/opencl_print.c), and the CPU targets print no barrier at all.

   Work-item x of a mapLcl loop of dimension 0 is thread x mod blockDim.x
   (every form cuda_print.c prints: block-stride loops, one iteration per
   thread, `if (threadIdx.x < n)`), so items x and y with x / 32 == y / 32
   run in one warp whenever blockDim.x is a multiple of 32. The check
   enumerates each access's items (loop counts and indices are constants in
   FCL kernels) and keeps a barrier whole unless, for every conflicting pair,
   the two items share x / 32. Anything it cannot enumerate keeps the barrier:
   an index with another variable (a step's, a sequential loop's), an access
   outside a mapLcl loop or under two of them, vector accesses, a kernel with
   mapLcl loops of another dimension.

   A warp barrier orders only its own warp, so the accesses checked before a
   barrier are all those since the last whole barrier of the block (through
   the warp barriers between): each pair of statements with no whole barrier
   between them is checked where the later one's segment begins. In a loop's
   body, the barrier that ends it stays whole (it orders one iteration against
   the next), and a loop whose body does not end with a barrier is left as it
   is (its iterations would be ordered only by barriers in the middle). The
   barriers around a statement that holds barriers of its own are decided on
   all its accesses. */
#include "plan.h"

enum { WARP = 32, ENUM_MAX = 1 << 16 };   /* the items and elements an access may enumerate */

typedef struct WAccess { Buffer *buf; Nat *index; KStmt *lcl; bool write, known; } WAccess;
typedef struct WAccesses { WAccess *a; int n, cap; } WAccesses;

static void add(WAccesses *as, Buffer *b, Nat *index, KStmt *lcl, int nlcl, bool write, bool plain) {
  if (!b || b->space != SPACE_LOCAL) return;
  long long c;
  bool known = plain && nlcl == 1 && lcl->dim == 0 && nat_is_const(lcl->count, &c) && c <= ENUM_MAX;
  ARENA_PUSH(as->a, as->n, as->cap, ((WAccess){ b, index, lcl, write, known }));
}

static void exp_accesses(WAccesses *as, CExp *e, KStmt *lcl, int nlcl) {
  if (!e) return;
  if ((e->kind == CE_READ || e->kind == CE_VLOAD || e->kind == CE_ATOMIC_INC) && e->buf)
    add(as, e->buf, e->nat, lcl, nlcl, e->kind == CE_ATOMIC_INC, e->kind == CE_READ);
  for (int i = 0; i < e->n; i++) exp_accesses(as, e->args[i], lcl, nlcl);
}

/* Every local access of s; lcl the innermost mapLcl loop around, nlcl how many. */
static void accesses(WAccesses *as, KStmt *s, KStmt *lcl, int nlcl) {
  if (!s) return;
  switch (s->kind) {
  case KS_BLOCK: for (int i = 0; i < s->n; i++) accesses(as, s->stmts[i], lcl, nlcl); return;
  case KS_DECL: case KS_COUNT: exp_accesses(as, s->init, lcl, nlcl); return;
  case KS_ASSIGN: {
    CExp *base = s->lhs;
    while (base->kind == CE_LANE) base = base->args[0];
    if ((base->kind == CE_READ || base->kind == CE_VLOAD) && base->buf)
      add(as, base->buf, base->nat, lcl, nlcl, true, base == s->lhs && base->kind == CE_READ);
    if (base != s->lhs || base->kind != CE_READ) exp_accesses(as, s->lhs, lcl, nlcl);   /* lanes' and vectors' indices */
    exp_accesses(as, s->rhs, lcl, nlcl);
    return;
  }
  case KS_FOR:
    if (s->level == LEVEL_LCL) accesses(as, s->body, s, nlcl + 1);
    else accesses(as, s->body, lcl, nlcl);
    return;
  case KS_IF: case KS_WHILE:
    exp_accesses(as, s->cond, lcl, nlcl);
    accesses(as, s->then_, lcl, nlcl);
    accesses(as, s->else_, lcl, nlcl);
    accesses(as, s->body, lcl, nlcl);
    return;
  case KS_BARRIER: return;
  }
}

typedef struct Item { NatVar *var; long long value; } Item;

static bool lookup_item(void *ctx, NatVar *v, long long *value) {
  Item *it = ctx;
  if (v != it->var) return false;
  *value = it->value;
  return true;
}

/* Element of a's buffer that item x accesses; false when not a constant of x. */
static bool element_of(WAccess *a, long long x, long long *e) {
  Item it = { a->lcl->var, x };
  return nat_eval(a->index, lookup_item, &it, e);
}

/* Are all conflicts between a and b (same buffer, one a write) between items
   of one warp? warp[e]: the warp (x / 32) of a's items at element e, -1 none,
   -2 several. */
static bool same_warp(WAccess *a, WAccess *b) {
  long long na, nb, top = -1;
  if (!a->known || !b->known) return false;
  nat_is_const(a->lcl->count, &na);
  nat_is_const(b->lcl->count, &nb);
  long long *elem = NEW_ARRAY(long long, na);
  for (long long x = 0; x < na; x++) {
    if (!element_of(a, x, &elem[x]) || elem[x] < 0 || elem[x] > ENUM_MAX) return false;
    if (elem[x] > top) top = elem[x];
  }
  long long *warp = NEW_ARRAY(long long, top + 1);
  for (long long e = 0; e <= top; e++) warp[e] = -1;
  for (long long x = 0; x < na; x++) {
    long long *w = &warp[elem[x]];
    *w = *w == -1 || *w == x / WARP ? x / WARP : -2;
  }
  for (long long y = 0, e; y < nb; y++) {
    if (!element_of(b, y, &e) || e < 0) return false;
    if (e <= top && warp[e] != -1 && warp[e] != y / WARP) return false;
  }
  return true;
}

/* Is every conflict between the accesses before and those after within a warp? */
static bool warp_suffices(WAccesses *before, WAccesses *after) {
  for (int i = 0; i < before->n; i++)
    for (int j = 0; j < after->n; j++) {
      WAccess *a = &before->a[i], *b = &after->a[j];
      if (a->buf != b->buf || (!a->write && !b->write)) continue;
      if (!same_warp(a, b)) return false;
    }
  return true;
}

static bool ends_with_barrier(KStmt *block) {
  return block && block->kind == KS_BLOCK && block->n && block->stmts[block->n - 1]->kind == KS_BARRIER;
}

static void block_barriers(KStmt *block, bool loop_body);

static void stmt_barriers(KStmt *s) {
  if (s->kind == KS_IF) {
    block_barriers(s->then_, false);
    if (s->else_) block_barriers(s->else_, false);
  } else if (s->kind == KS_FOR && s->level != LEVEL_LCL && s->level != LEVEL_GLB && ends_with_barrier(s->body)) {
    block_barriers(s->body, true);
  }
}

/* Greedily, first to last: barrier k is a warp's when the accesses since the
   last whole barrier and those up to the next barrier conflict within warps. */
static void block_barriers(KStmt *block, bool loop_body) {
  if (!block || block->kind != KS_BLOCK) return;
  WAccesses since = { 0 };
  for (int i = 0; i < block->n; i++) {
    KStmt *s = block->stmts[i];
    if (s->kind != KS_BARRIER) {
      stmt_barriers(s);
      accesses(&since, s, NULL, 0);
      continue;
    }
    if (s->dim != 1 || (loop_body && i == block->n - 1)) { since = (WAccesses){ 0 }; continue; }
    WAccesses next = { 0 };
    for (int j = i + 1; j < block->n && block->stmts[j]->kind != KS_BARRIER; j++) accesses(&next, block->stmts[j], NULL, 0);
    if (warp_suffices(&since, &next)) s->dim |= BARRIER_WARP;
    else since = (WAccesses){ 0 };
  }
}

/* Does the kernel have mapLcl loops of a dimension other than 0? */
static bool other_dims(KStmt *s) {
  if (!s) return false;
  if (s->kind == KS_FOR && s->level == LEVEL_LCL && s->dim != 0) return true;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) if (other_dims(s->stmts[i])) return true;
  return other_dims(s->body) || other_dims(s->then_) || other_dims(s->else_);
}

void plan_warp_barriers(KStmt *body) {
  if (!other_dims(body)) block_barriers(body, false);
}
