/* test_plan.c — the host plan (dpia/plan.c, barrier.c), hoisting (translate.c)
   and the host's launch counts (codegen/lib_common.c) on hand-built
   imperative programs larger than the fixed capacities these once had: every
   loop, access and variable counts, however many there are (issue 10). */
#include "check.h"
#include "dpia/dpia.h"
#include "dpia/plan.h"
#include "codegen/library.h"
#include "stages.h"
#include <string.h>

static Kernel *kernel(void) { return NEW(Kernel); }

static Buffer *buffer(Kernel *k, const char *name, Type *t, AddrSpace space) {
  Buffer *b = NEW(Buffer);
  b->name = name; b->type = t; b->space = space;
  kernel_add_buffer(k, b);
  return b;
}

static Type *f32(void) { return type_scalar(TY_FLOAT); }
static CExp *one(void) { CExp *c = cexp_lit_int(1); c->type = f32(); return c; }
static NatVar *var(const char *name, long long n) { return nat_var_new(name, nat_const(0), nat_const(n - 1)); }
static KStmt *loop(PrimLevel level, NatVar *v, long long n, KStmt *body) {
  return kstmt_for(level, 0, v, nat_const(n), body);
}
static KStmt *block1(KStmt *s) { KStmt *b = kstmt_block(); kstmt_add(b, s); return b; }

static int count_barriers(KStmt *s) {
  if (!s) return 0;
  int n = s->kind == KS_BARRIER;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) n += count_barriers(s->stmts[i]);
  return n + count_barriers(s->body) + count_barriers(s->then_) + count_barriers(s->else_);
}

/* A work-group of 65 mapLcl loops: the launch size sees all 66 parallel loops (64 were kept). */
static void test_many_loops(void) {
  Kernel *k = kernel();
  Buffer *out = buffer(k, "out", type_array(f32(), nat_const(4 * 64)), SPACE_GLOBAL);
  NatVar *wid = var("wid", 4);
  KStmt *group = kstmt_block();
  for (int j = 0; j < 65; j++) {
    NatVar *lid = var(arena_printf("lid%d", j), 64);
    Nat *at = nat_add(nat_mul(nat_var(wid), nat_const(64)), nat_var(lid));
    kstmt_add(group, loop(LEVEL_LCL, lid, 64, block1(kstmt_assign(cexp_read(out, at, -1, f32()), one()))));
  }
  k->body = block1(loop(LEVEL_WRG, wid, 4, group));
  diag_clear();
  Plan *pl = plan_build(k);
  CHECK(pl && pl->n == 1 && pl->kernels[0].nloops == 66, "66 parallel loops, got %d: %s",
        pl ? pl->kernels[0].nloops : -1, diag_message());
}

/* Local memory under 17 nested global loops: every one of their indices is
   dropped (16 were), and the per-work-group copy is one element. */
static void test_deep_local(void) {
  enum { DEEP = 17 };
  Kernel *k = kernel();
  Type *t = f32();
  for (int d = 0; d < DEEP; d++) t = type_array(t, nat_const(2));
  Buffer *loc = buffer(k, "loc", t, SPACE_LOCAL);
  NatVar *v[DEEP];
  Nat *at = nat_const(0);
  for (int d = 0; d < DEEP; d++) {
    v[d] = var(arena_printf("gid%d", d), 2);
    at = nat_add(nat_mul(at, nat_const(2)), nat_var(v[d]));
  }
  CExp *lhs = cexp_read(loc, at, -1, f32());
  KStmt *nest = block1(kstmt_assign(lhs, one()));
  for (int d = DEEP - 1; d >= 0; d--) nest = block1(loop(LEVEL_GLB, v[d], 2, nest));
  k->body = nest;
  diag_clear();
  Plan *pl = plan_build(k);
  long long n = -1, count = -1;
  CHECK(pl && pl->kernels[0].nlocals == 1 && nat_is_const(lhs->nat, &n) && n == 0 &&
        nat_is_const(pl->kernels[0].local_counts[0], &count) && count == 1,
        "loc indexed by %s, %lld per work-group: %s", nat_to_string(lhs->nat), count, diag_message());
}

/* A mapGlb inside a sequential loop whose 65 writes are each read back by the
   work-item that wrote them: a plan of one kernel (more than 64 accesses were
   refused as if steps read each other's results). */
static void test_many_accesses_under_seq(void) {
  Kernel *k = kernel();
  Buffer *out = buffer(k, "out", type_array(f32(), nat_const(1024)), SPACE_GLOBAL);
  NatVar *gid = var("gid", 1024), *s = var("s", 3);
  KStmt *body = kstmt_block();
  for (int j = 0; j < 65; j++)
    kstmt_add(body, kstmt_assign(cexp_read(out, nat_var(gid), -1, f32()), cexp_read(out, nat_var(gid), -1, f32())));
  k->body = block1(loop(LEVEL_SEQ, s, 3, block1(loop(LEVEL_GLB, gid, 1024, body))));
  diag_clear();
  CHECK(plan_build(k) != NULL, "65 own accesses under a sequential loop: %s", diag_message());
}

/* A work-group writes loc[lid], then 65 mapLcl loops read it back, each
   work-item its own element: no barrier (more than 64 reads put one in). */
static void test_many_reads_no_barrier(void) {
  Kernel *k = kernel();
  Buffer *out = buffer(k, "out", type_array(f32(), nat_const(4 * 64)), SPACE_GLOBAL);
  Buffer *loc = buffer(k, "loc", type_array(type_array(f32(), nat_const(64)), nat_const(4)), SPACE_LOCAL);
  NatVar *wid = var("wid", 4), *lid = var("lid", 64);
  Nat *mine = nat_add(nat_mul(nat_var(wid), nat_const(64)), nat_var(lid));
  KStmt *group = block1(loop(LEVEL_LCL, lid, 64, block1(kstmt_assign(cexp_read(loc, mine, -1, f32()), one()))));
  for (int j = 0; j < 65; j++) {
    NatVar *r = var(arena_printf("lid%d", j), 64);
    Nat *at = nat_add(nat_mul(nat_var(wid), nat_const(64)), nat_var(r));
    kstmt_add(group, loop(LEVEL_LCL, r, 64, block1(kstmt_assign(cexp_read(out, at, -1, f32()),
                                                                cexp_read(loc, at, -1, f32())))));
  }
  k->body = block1(loop(LEVEL_WRG, wid, 4, group));
  diag_clear();
  Plan *pl = plan_build(k);
  CHECK(pl && count_barriers(pl->kernels[0].body) == 0, "barriers: %d: %s",
        pl ? count_barriers(pl->kernels[0].body) : -1, diag_message());
}

/* A temporary hoisted out of 65 enclosing parallel loops gets one slice per
   iteration of every one of them (64 were kept). */
static void test_hoist_deep(void) {
  enum { DEEP = 65 };
  Kernel *k = kernel();
  ParLoop loops[DEEP];
  Tr tr = { .k = k, .block = kstmt_block() };
  for (int d = 0; d < DEEP; d++) {
    loops[d] = (ParLoop){ var(arena_printf("gid%d", d), 2), nat_const(2), LEVEL_GLB, tr.par, 0, NULL };
    tr.par = &loops[d];
  }
  View *view; Acc *acc;
  dpia_new(&tr, f32(), SPACE_GLOBAL, &view, &acc);
  int depth = 0;
  Buffer *b = k->nbufs ? k->bufs[k->nbufs - 1] : NULL;
  for (Type *t = b ? b->type : f32(); t->kind == TY_ARRAY; t = t->elem) depth++;
  CHECK(k->nbufs == 1 && depth == DEEP, "hoisted through %d of %d loops", depth, DEEP);
}

/* A loop count over 33 size variables is computed by the host (32 were looked at). */
static void test_host_count_many_sizes(void) {
  Program *p = NEW(Program);
  p->nsizes = 33;
  p->sizes = NEW_ARRAY(NatVar *, p->nsizes);
  Nat *n = nat_const(0);
  for (int k = 0; k < p->nsizes; k++) {
    p->sizes[k] = nat_var_new(arena_printf("N%d", k), nat_const(1), NULL);
    n = nat_add(n, nat_var(p->sizes[k]));
  }
  CHECK(library_only_sizes(p, n), "a count over 33 sizes: %s", nat_to_string(n));
  NatVar *i = var("i", 4);
  CHECK(!library_only_sizes(p, nat_add(n, nat_var(i))), "a count over 33 sizes and a loop variable");
}

static bool no_sizes(void *ctx, NatVar *v, long long *value) { (void)ctx; (void)v; (void)value; return false; }

/* privatise.c's pinned loops (launch_policy.h level 3): the work-group is
   exactly 16 x 16 although a loop in dimension 1 counts 64; a given local
   size that differs is refused, naming the shape. */
static void test_launch_pinned(void) {
  Kernel *k = kernel();
  Buffer *out = buffer(k, "out", type_array(f32(), nat_const(4 * 64 * 16)), SPACE_GLOBAL);
  NatVar *wid = var("wid", 4), *l1 = var("l1", 16), *l0 = var("l0", 16), *wide = var("wide", 64), *c = var("c", 16);
  Nat *at = nat_add(nat_mul(nat_var(wid), nat_const(1024)), nat_add(nat_mul(nat_var(l1), nat_const(16)), nat_var(l0)));
  KStmt *inner = kstmt_for(LEVEL_LCL, 0, l0, nat_const(16), block1(kstmt_assign(cexp_read(out, at, -1, f32()), one())));
  KStmt *outer = kstmt_for(LEVEL_LCL, 1, l1, nat_const(16), block1(inner));
  inner->pinned = outer->pinned = true;
  Nat *at2 = nat_add(nat_mul(nat_var(wid), nat_const(1024)), nat_add(nat_mul(nat_var(wide), nat_const(16)), nat_var(c)));
  KStmt *other = kstmt_for(LEVEL_LCL, 1, wide, nat_const(64),
                           block1(kstmt_for(LEVEL_LCL, 0, c, nat_const(16), block1(kstmt_assign(cexp_read(out, at2, -1, f32()), one())))));
  KStmt *group = kstmt_block();
  kstmt_add(group, other);
  kstmt_add(group, outer);
  k->body = block1(loop(LEVEL_WRG, wid, 4, group));
  diag_clear();
  Plan *pl = plan_build(k);
  CHECK(pl && pl->n == 1, "one kernel: %s", diag_message());
  if (!pl) return;
  size_t local[3], groups[3];
  int dims = plan_launch_size(&pl->kernels[0], no_sizes, NULL, 1024, NULL, local, groups);
  CHECK(dims == 2 && local[0] == 16 && local[1] == 16 && local[2] == 1, "pinned 16 x 16, got %d: %zu x %zu x %zu",
        dims, local[0], local[1], local[2]);
  LaunchSizes given = { { 8, 8, 0 }, { 0, 0, 0 } };
  diag_clear();
  dims = plan_launch_size(&pl->kernels[0], no_sizes, NULL, 1024, &given, local, groups);
  CHECK(dims < 0 && strstr(diag_message(), "16 x 16") && strstr(diag_message(), "--local-size"),
        "a given 8 x 8 refused naming 16 x 16: %d, %s", dims, diag_message());
  diag_clear();
  dims = plan_launch_size(&pl->kernels[0], no_sizes, NULL, 128, NULL, local, groups);
  CHECK(dims < 0 && strstr(diag_message(), "allows fewer"), "a device of 128 work-items refused: %d, %s", dims, diag_message());
  diag_clear();
}

/* Two mapLcl loops write two local buffers, a third statement reads both at
   other work-items' places: one barrier, right before the reader (not one
   after each writer); writes to a private buffer need none. */
static void test_barrier_before_reader(void) {
  Kernel *k = kernel();
  Buffer *out = buffer(k, "out", type_array(f32(), nat_const(4 * 64)), SPACE_GLOBAL);
  Buffer *a = buffer(k, "la", type_array(f32(), nat_const(64)), SPACE_LOCAL);
  Buffer *b = buffer(k, "lb", type_array(f32(), nat_const(64)), SPACE_LOCAL);
  Buffer *p = NEW(Buffer);
  p->name = "reg"; p->type = type_array(f32(), nat_const(4)); p->space = SPACE_PRIVATE;
  NatVar *wid = var("wid", 4), *l1 = var("l1", 64), *l2 = var("l2", 64), *l3 = var("l3", 64), *l4 = var("l4", 64);
  KStmt *group = kstmt_block();
  kstmt_add(group, loop(LEVEL_LCL, l1, 64, block1(kstmt_assign(cexp_read(a, nat_var(l1), -1, f32()), one()))));
  kstmt_add(group, loop(LEVEL_LCL, l2, 64, block1(kstmt_assign(cexp_read(b, nat_var(l2), -1, f32()), one()))));
  kstmt_add(group, loop(LEVEL_LCL, l4, 64, block1(kstmt_assign(cexp_read(p, nat_const(0), -1, f32()), one()))));
  Nat *other = nat_sub(nat_const(63), nat_var(l3));
  CExp *sum[2] = { cexp_read(a, other, -1, f32()), cexp_read(b, other, -1, f32()) };
  Nat *at = nat_add(nat_mul(nat_var(wid), nat_const(64)), nat_var(l3));
  kstmt_add(group, loop(LEVEL_LCL, l3, 64, block1(kstmt_assign(cexp_read(out, at, -1, f32()),
                                                                cexp_op(OP_ADD, f32(), 2, sum)))));
  k->body = block1(loop(LEVEL_WRG, wid, 4, group));
  diag_clear();
  Plan *pl = plan_build(k);
  /* two: right before the reader, and the work-group loop's own at its end
     (the next group's writes must wait for this group's reads) */
  CHECK(pl && count_barriers(pl->kernels[0].body) == 2, "two barriers, got %d: %s",
        pl ? count_barriers(pl->kernels[0].body) : -1, diag_message());
  if (!pl) return;
  KStmt *body = pl->kernels[0].body;
  while (body->kind == KS_BLOCK && body->n == 1) body = body->stmts[0];
  KStmt *g = body->kind == KS_FOR ? body->body : body;
  CHECK(g->kind == KS_BLOCK && g->n == 6 && g->stmts[2]->kind != KS_BARRIER && g->stmts[3]->kind == KS_BARRIER &&
        g->stmts[5]->kind == KS_BARRIER, "the barrier right before the reader, not after the writers: %d statements", g->n);
}


/* Local memory whose count is not a constant (plan.c locals_sized): allocated at
   the first of the count and its upper bounds that is a constant, or, where the
   target takes it (Kernel.dynamic_locals: opencl), known at launch; else refused. */
static Plan *plan_of(const char *text, bool dynamic) {
  diag_reset();
  Program *p = driver_compile_text("t.lift", text);
  Kernel *k = p ? dpia_translate_lowered(p) : NULL;
  if (!k) return NULL;
  k->dynamic_locals = dynamic;
  return plan_build(k);
}

static void test_dynamic_locals(void) {
  const char *row =   /* a row of M in local memory: M at launch */
    "(lift (N M) ((array-type (array-type float M) N)) (lambda (m) (mapWrg (lambda (row) "
    "(mapLcl (lambda (x) (* x 2.0f)) (toLocal (mapLcl (lambda (x) (+ x 1.0f))) row))) m)))";
  Plan *pl = plan_of(row, false);
  CHECK(!pl && strstr(diag_message(), "local memory of non-constant size"), "row of M, not taken: refused: %s", diag_message());
  pl = plan_of(row, true);
  CHECK(pl && pl->kernels[0].nlocals == 1 && pl->kernels[0].local_dynamic[0] == 4 &&
        !strcmp(nat_to_string(pl->kernels[0].local_counts[0]), "M"), "row of M: 4-byte elements, M of them: %s",
        pl ? nat_to_string(pl->kernels[0].local_counts[0]) : diag_message());
  const char *tri =   /* row i of a triangle has i + 1 elements: N at launch (i < N) */
    "(lift (N) ((dep-array-type (i) (array-type float (+ i 1)) N)) (lambda (a) (mapWrg (lambda (row) "
    "(mapLcl (lambda (x) (* x 2.0f)) (toLocal (mapLcl (lambda (x) (+ x 1.0f))) row))) a)))";
  pl = plan_of(tri, true);
  CHECK(pl && pl->kernels[0].local_dynamic[0] == 4 && !strcmp(nat_to_string(pl->kernels[0].local_counts[0]), "N"),
        "triangle's rows: N elements: %s", pl ? nat_to_string(pl->kernels[0].local_counts[0]) : diag_message());
  CHECK(!plan_of(tri, false), "triangle's rows, not taken: refused");
  const char *tri8 =   /* at most 8 rows: the largest has 8 elements, a constant on every target */
    "(lift () ((dep-array-type (i) (array-type float (+ i 1)) 8)) (lambda (a) (mapWrg (lambda (row) "
    "(mapLcl (lambda (x) (* x 2.0f)) (toLocal (mapLcl (lambda (x) (+ x 1.0f))) row))) a)))";
  pl = plan_of(tri8, false);
  long long n = 0;
  CHECK(pl && pl->kernels[0].local_dynamic[0] == 0 && nat_is_const(pl->kernels[0].local_counts[0], &n) && n == 8,
        "8 rows of a triangle: 8 elements declared: %s", pl ? nat_to_string(pl->kernels[0].local_counts[0]) : diag_message());
}

int main(void) {
  test_many_loops();
  test_deep_local();
  test_many_accesses_under_seq();
  test_many_reads_no_barrier();
  test_hoist_deep();
  test_host_count_many_sizes();
  test_launch_pinned();
  test_barrier_before_reader();
  test_dynamic_locals();
  return CHECK_DONE("plan");
}
