/* plan_nests.c — a peeled stencil's sections as loop nests of their own on
   the device targets (issue 12 item 10). peel.c writes a 2-D stencil as row
   sections, each holding the column sections (KStmt.one_kernel blocks):

     for r in rows { if (gx < 1) left; for c in cols interior; if (gx < 1) right }

   A grid-stride loop runs about once per work-item, yet the device compilers
   hoist what its body computes for the border sections (their clamps and
   addresses, invariant in r) out of it and speculate it for every work-item:
   the interior of 3×3 ran 98 instructions per element where the unpeeled
   kernel runs 92 (sm_90 SASS). Here a parallel loop around independent
   sections is split into one loop per section (loop fission: the sections
   write disjoint windows and read only the input, peel.c), a test of the
   sizes leaves the loop (unswitching), and a section of a constant count (a
   border) goes outside a loop of a counted one (interchange: parallel loops
   of different dimensions, independent iterations):

     if (gx < 1) for r in rows left;  for r in rows for c in cols interior;  if (gx < 1) for r in rows right

   The interior is then the unpeeled kernel's perfect nest without its clamps
   (84 instructions per element; the borders' threads pay only a test each). */
#include "plan.h"

enum { NESTS_DEPTH_MAX = 16 };

static bool exp_mentions(CExp *e, NatVar *v) {
  if (!e) return false;
  if ((e->nat && nat_mentions(e->nat, v)) || (e->nat2 && nat_mentions(e->nat2, v))) return true;
  for (int i = 0; i < e->n; i++) if (exp_mentions(e->args[i], v)) return true;
  return false;
}

/* A value the same in every work-item and iteration of f: literals and nats
   of the sizes (a peeled stencil's guard), not of f's variable. */
static bool invariant_in(CExp *e, KStmt *f) {
  if (e->kind != CE_LIT && e->kind != CE_NAT && e->kind != CE_NAT_LT && e->kind != CE_OP) return false;
  if (e->kind == CE_OP && e->op >= OP_CHECK_INDEX) return false;   /* a reporting check */
  for (int i = 0; i < e->n; i++) if (!invariant_in(e->args[i], f)) return false;
  return !exp_mentions(e, f->var);
}

/* The one statement of a block (through plain blocks of one), or b itself. */
static KStmt *only(KStmt *b) {
  while (b && b->kind == KS_BLOCK && !b->one_kernel && b->n == 1) b = b->stmts[0];
  return b;
}

static bool grid_loop(KStmt *s) { return s && s->kind == KS_FOR && s->level == LEVEL_GLB; }

/* Work-groups' loops or barriers inside: their work-items wait for each
   other, so the loops around them stay as written. */
static bool shared_in(KStmt *s) {
  if (!s) return false;
  if (s->kind == KS_BARRIER || (s->kind == KS_FOR && s->level != LEVEL_SEQ && s->level != LEVEL_GLB)) return true;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) if (shared_in(s->stmts[i])) return true;
  return shared_in(s->body) || shared_in(s->then_) || shared_in(s->else_);
}

/* A one-kernel block of grid loops only (no declaration between them that a
   later one reads): the sections, each one loop. */
static bool sections_block(KStmt *s) {
  if (!s || s->kind != KS_BLOCK || !s->one_kernel) return false;
  for (int i = 0; i < s->n; i++) if (!grid_loop(s->stmts[i])) return false;
  return true;
}

static KStmt *with_body(KStmt *loop, KStmt *body) {
  KStmt *f = NEW(KStmt);
  *f = *loop;
  f->body = kstmt_block();
  if (body) kstmt_add(f->body, body);
  return f;
}

/* g (inside f) goes outside: a border section (constant count) of another
   dimension, around a loop over a counted range. */
static bool goes_outside(KStmt *f, KStmt *g) {
  return grid_loop(g) && g->dim != f->dim && !nat_mentions(g->count, f->var) && nat_is_const(g->count, NULL)
         && !nat_is_const(f->count, NULL);
}

static KStmt *split_loop(KStmt *f, int depth);

static KStmt *split_branch(KStmt *f, KStmt *branch, int depth) {
  KStmt *b = kstmt_block();
  if (branch && branch->n > 0) kstmt_add(b, split_loop(with_body(f, branch), depth + 1));
  return b;
}

/* f, a grid loop over a counted range: its nests, or f itself when its body
   is none of the shapes above. */
static KStmt *split_loop(KStmt *f, int depth) {
  KStmt *s = only(f->body);
  /* a border section (a constant count: a few rows) stays whole: the
     interior's work-items leave it after one test */
  if (depth > NESTS_DEPTH_MAX || !grid_loop(f) || !s || nat_is_const(f->count, NULL) || shared_in(f->body)) return f;
  if (s->kind == KS_IF && invariant_in(s->cond, f)) {
    KStmt *i = NEW(KStmt);
    *i = *s;
    i->then_ = split_branch(f, s->then_, depth);
    i->else_ = split_branch(f, s->else_, depth);
    return i;
  }
  if (sections_block(s)) {
    KStmt *b = kstmt_block();
    b->one_kernel = true;
    for (int k = 0; k < s->n; k++) kstmt_add(b, split_loop(with_body(f, s->stmts[k]), depth + 1));
    return b;
  }
  if (goes_outside(f, s)) return with_body(s, split_loop(with_body(f, s->body), depth + 1));
  if (grid_loop(s)) {
    KStmt *inner = split_loop(s, depth + 1);
    if (inner != s) return split_loop(with_body(f, inner), depth + 1);
  }
  return f;
}

/* Every grid loop of a one-kernel block, through the whole body. */
void plan_split_sections(KStmt *s) {
  if (!s) return;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) {
    if (s->one_kernel && grid_loop(s->stmts[i])) s->stmts[i] = split_loop(s->stmts[i], 0);
    plan_split_sections(s->stmts[i]);
  }
  plan_split_sections(s->body);
  plan_split_sections(s->then_);
  plan_split_sections(s->else_);
}
