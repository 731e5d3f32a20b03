/* test_barrier.c — barrier placement inside a work-group (SPEC §4.2: "mapLcl:
   barrier after, when its output is read by other threads"; dpia/barrier.c).
   First whole programs, their OpenCL kernels generated as the driver does
   (dpia_translate, plan_build, codegen_opencl), barriers counted and placed by
   the lines around them; then plan_insert_barriers on hand-built work-group
   bodies, where the fences and the positions are read off the statements. */
#include "check.h"
#include "stages.h"
#include "cli/driver.h"
#include "codegen/codegen.h"
#include "dpia/plan.h"
#include <string.h>

static const char *frame(const char *sizes, const char *types, const char *params, const char *body) {
  return arena_printf("(lift (%s) (%s)\n  (lambda (%s)\n    %s))\n", sizes, types, params, body);
}

static const char *opencl(const char *sizes, const char *types, const char *params, const char *body) {
  return opencl_kernels_of(frame(sizes, types, params, body));
}

static int count(const char *text, const char *part) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, part)); p += strlen(part)) n++;
  return n;
}

/* every line of `lines` (NULL-terminated) occurs as a whole line, each right
   after the previous one (consecutive lines) */
static bool consecutive(const char *text, const char **lines) {
  for (const char *p = text; (p = strstr(p, lines[0])); p++) {
    if (p != text && p[-1] != '\n') continue;
    const char *q = p;
    int i = 0;
    for (; lines[i]; i++) {
      size_t n = strlen(lines[i]);
      if (strncmp(q, lines[i], n) != 0 || q[n] != '\n') break;
      q += n + 1;
    }
    if (!lines[i]) return true;
  }
  return false;
}

static void expect_lines(int line, const char *text, const char *what, const char **lines) {
  bool found = consecutive(text, lines);
  CHECK(found, "line %d, %s: these lines are not consecutive in\n%s", line, what, text);
}
static void expect_count(int line, const char *text, const char *part, int n, const char *what) {
  int got = count(text, part);
  CHECK(got == n, "line %d, %s: %d × '%s', expected %d, in\n%s", line, what, got, part, n, text);
}
#define LINES(text, what, ...) expect_lines(__LINE__, text, what, (const char *[]){ __VA_ARGS__, NULL })
#define COUNT(text, part, n, what) expect_count(__LINE__, text, part, n, what)

#define F "(array-type float N)"
#define LOCAL_BARRIER "barrier(CLK_LOCAL_MEM_FENCE);"
#define GLOBAL_BARRIER "barrier(CLK_GLOBAL_MEM_FENCE);"

static void test_programs(void) {
  /* a toLocal mapLcl whose result other work-items read (windows of 2 over
     the local copy: item l reads l and l + 1): a barrier right after the
     writing loop, before the reading loop, and one closing the work-group
     loop body (the next grid-stride iteration overwrites loc while slower
     items may still read it) */
  const char *t = opencl("N", F, "xs",
                         "(join (mapWrg (lambda (c) (mapLcl (lambda (w) (reduceSeq 0.0f + w))"
                         " (slide #2 #1 (toLocal (mapLcl (lambda (x) (* x 2.0f))) c)))) (split #4 xs)))");
  COUNT(t, "barrier(", 2, "neighbours in local memory");
  COUNT(t, LOCAL_BARRIER, 2, "neighbours in local memory: local fences");
  LINES(t, "barrier after the writer",
        "      loc1[lid2] = (xs[wid0 * 4 + lid2] * 2.0f);", "    }", "    " LOCAL_BARRIER,
        "    for (clift_index lid3 = get_local_id(0); lid3 < 3; lid3 += get_local_size(0)) {");
  LINES(t, "barrier closing the work-group body",
        "      out[wid0 * 3 + lid3] = acc4;", "    }", "    " LOCAL_BARRIER, "  }", "}");

  /* a toLocal of a mapSeq at work-group level, read through a mapLcl: one
     work-item writes the tile (every work-item writing the same places was a
     race, F38's kernel; dpia/rules_map.c exp_to), a barrier orders its writes
     before the group's reads, and one closes the work-group loop body (the
     next chunk's writes wait for the slower items' reads); none inside the
     sequential writer */
  t = opencl("N", F, "xs",
             "(join (mapWrg (lambda (c) (mapLcl (lambda (x) (* x 2.0f)) ((toLocal (mapSeq (lambda (x) (+ x 1.0f)))) c)))"
             " (split #64 xs)))");
  COUNT(t, "barrier(", 2, "local memory written by one work-item");
  COUNT(t, "if ((clift_index)get_local_id(0) < 1) {", 1, "the one work-item writing the tile");
  LINES(t, "a barrier after the one work-item's writes",
        "      }", "    }", "    " LOCAL_BARRIER, "    for (clift_index lid4 = get_local_id(0); lid4 < 64; lid4 += get_local_size(0)) {");
  LINES(t, "barrier closing the work-group body",
        "      out[wid0 * 64 + lid4] = (loc1[lid4] * 2.0f);", "    }", "    " LOCAL_BARRIER, "  }", "}");

  /* each item reads back only the element it wrote (same index, its own lid):
     no barrier (tests/lift/local_same_item.lift) */
  t = opencl("N", F, "xs",
             "(join (mapWrg (lambda (c) (mapLcl (lambda (x) (* x 2.0f)) (toLocal (mapLcl (lambda (x) (+ x 1.0f))) c)))"
             " (split #4 xs)))");
  COUNT(t, "__local float loc1[4] __attribute__((aligned(16)));", 1, "same item: the local buffer");
  COUNT(t, "barrier(", 0, "same item");

  /* the same sharing through a global temporary (toGlobal): global fences */
  t = opencl("N", F, "xs",
             "(join (mapWrg (lambda (c) (mapLcl (lambda (w) (reduceSeq 0.0f + w))"
             " (slide #2 #1 (toGlobal (mapLcl (lambda (x) (* x 2.0f))) c)))) (split #4 xs)))");
  COUNT(t, GLOBAL_BARRIER, 2, "neighbours in global memory");
  COUNT(t, LOCAL_BARRIER, 0, "neighbours in global memory: no local fence");
  LINES(t, "global barrier after the writer",
        "      tmp1[wid0 * 4 + lid2] = (xs[wid0 * 4 + lid2] * 2.0f);", "    }", "    " GLOBAL_BARRIER);

  /* a sequential loop inside the work-group: the write and the neighbour read
     happen in every step, so both barriers go inside the loop body (between
     them, and at the end of the step before the next one overwrites loc);
     the work-group body then ends with that loop and needs none of its own */
  t = opencl("N", "(array-type (array-type float 4) N)", "xs",
             "(mapWrg (lambda (blk) (mapSeq (lambda (row) (join (mapLcl (lambda (w) (reduceSeq 0.0f + w))"
             " (slide #2 #1 (toLocal (mapLcl (lambda (x) (* x 2.0f))) row))))) blk)) (split #2 xs))");
  COUNT(t, "barrier(", 2, "sequential loop");
  LINES(t, "barrier inside the sequential loop, after the writer",
        "      for (clift_index lid3 = get_local_id(0); lid3 < 4; lid3 += get_local_size(0)) {",
        "        loc2[lid3] = (xs[wid0 * 8 + i1 * 4 + lid3] * 2.0f);", "      }", "      " LOCAL_BARRIER);
  LINES(t, "barrier at the end of the sequential loop's body",
        "        out[wid0 * 6 + i1 * 3 + lid4] = acc5;", "      }", "      " LOCAL_BARRIER, "    }", "  }", "}");

  /* a whileSeq at work-group level whose test reads the group's local array
     at other items' elements: a barrier after the mapLcl that wrote it (the
     reads are in the loop's test), and one closing the work-group loop's body */
  t = opencl("N", "(array-type float (* 4 N))", "xs",
             "(mapWrg (lambda (blk) (let sq (toLocal (mapLcl (lambda (x) (* x x))) blk)"
             " (whileSeq (lambda (i) (if (< i 4) (< (aref sq (- 3 i)) 50.0f) false)) (+ 1) 0))) (split #4 xs))");
  COUNT(t, "barrier(", 2, "whileSeq reading local memory");
  /* the barrier goes right before the first statement that reads (barrier.c): after
     the loop state's declaration, before the loop */
  LINES(t, "barrier between the writer and the loop",
        "      loc1[lid2] = (xs[wid0 * 4 + lid2] * xs[wid0 * 4 + lid2]);", "    }",
        "    int acc3;", "    acc3 = 0;", "    " LOCAL_BARRIER, "    while (true) {");

  /* global ids only: the kernel boundary separates the writer from the reader
     (two kernels), no barrier */
  t = opencl("N", F, "xs", "(mapGlb (lambda (x) (* x 2.0f)) (toGlobal (mapGlb (lambda (x) (+ x 1.0f))) xs))");
  COUNT(t, "__kernel void", 2, "two mapGlb: two kernels");
  COUNT(t, "barrier(", 0, "two mapGlb");

  /* a barrier is never put inside a mapLcl loop (not every item arrives):
     here each item stages its own row in a global temporary */
  t = opencl("N", F, "xs",
             "(join (mapWrg (lambda (blk) (mapLcl (lambda (row) (reduceSeq 0.0f + ((toGlobal (mapSeq (lambda (x) (* x 2.0f))))"
             " row))) blk)) (split #2 (split #4 xs))))");
  const char *lcl = strstr(t, "    for (clift_index lid1");
  const char *lcl_end = lcl ? strstr(lcl, "\n    }\n") : NULL;
  CHECK(lcl && lcl_end && !memmem(lcl, (size_t)(lcl_end - lcl), "barrier(", 8), "barrier inside mapLcl:\n%s", t);

  /* the tree reduction of a top-level reduce (docs/design.md §7): nine mapLcl
     steps per work-group, each reading its neighbours' results, so a barrier
     closes every one of them (eight between steps, one closing the body),
     in each of the two kernels */
  t = opencl("N", F, "xs", "(reduce 0.0f + xs)");
  /* the last step has one work-item: printed as an if (opencl_print.c) */
  int lid_loops = count(t, "for (clift_index lid") + count(t, "if ((clift_index)get_local_id(0) < 1) {"),
      barriers = count(t, "    }\n    " LOCAL_BARRIER "\n");
  COUNT(t, "__kernel void", 2, "tree reduction: kernels");
  CHECK(lid_loops == 18 && barriers == 18 && count(t, "barrier(") == 18,
        "tree reduction: %d mapLcl loops, %d barriers after one:\n%s", lid_loops, barriers, t);
}

/* ---- hand-built work-group bodies ---- */
static Buffer *buffer(const char *name, AddrSpace space) {
  Buffer *b = NEW(Buffer);
  b->name = name;
  b->type = type_array(type_scalar(TY_FLOAT), nat_const(4));
  b->space = space;
  return b;
}
static CExp *at(Buffer *b, Nat *i) { return cexp_read(b, i, -1, type_scalar(TY_FLOAT)); }
/* mapLcl (dimension dim) over 4 items: lhs = rhs */
static KStmt *lcl_loop(NatVar *v, int dim, CExp *lhs, CExp *rhs) {
  KStmt *body = kstmt_block();
  kstmt_add(body, kstmt_assign(lhs, rhs));
  return kstmt_for(LEVEL_LCL, dim, v, nat_const(4), body);
}
static KStmt *block2(KStmt *a, KStmt *b) {
  KStmt *s = kstmt_block();
  kstmt_add(s, a);
  kstmt_add(s, b);
  return s;
}
static int barriers_in(KStmt *s) {
  if (!s) return 0;
  if (s->kind == KS_BARRIER) return 1;
  int n = barriers_in(s->body) + barriers_in(s->then_) + barriers_in(s->else_);
  if (s->kind == KS_BLOCK) for (int i = 0; i < s->n; i++) n += barriers_in(s->stmts[i]);
  return n;
}
/* the statement kinds of a block, one letter each: L a mapLcl loop, S a
   sequential loop, B a barrier (with its fences 1 local, 2 global, 3 both) */
static const char *shape(KStmt *block) {
  Buf b = {0};
  for (int i = 0; i < block->n; i++) {
    KStmt *s = block->stmts[i];
    if (s->kind == KS_BARRIER) buf_printf(&b, "B%d ", s->dim);
    else if (s->kind == KS_FOR) buf_puts(&b, s->level == LEVEL_LCL ? "L " : "S ");
    else buf_puts(&b, "? ");
  }
  return buf_str(&b);
}
#define SHAPE(block, expected, what) do { const char *s_ = shape(block); \
    CHECK(strcmp(s_, expected) == 0, "%s: %s, expected %s", what, s_, expected); } while (0)

static void test_hand_built(void) {
  NatVar *w = nat_var_new("lidw", nat_const(0), nat_const(3)), *r = nat_var_new("lidr", nat_const(0), nat_const(3));
  Buffer *loc = buffer("loc", SPACE_LOCAL), *glob = buffer("glob", SPACE_GLOBAL), *out = buffer("out", SPACE_GLOBAL);
  Buffer *in = buffer("in", SPACE_GLOBAL);
  Nat *wi = nat_var(w), *ri = nat_var(r), *mirror = nat_sub(nat_const(3), nat_var(r));

  /* read after write at the reader's own index (its loop variable renamed
     to the writer's, the same index): no barrier */
  KStmt *b = block2(lcl_loop(w, 0, at(loc, wi), at(in, wi)), lcl_loop(r, 0, at(out, ri), at(loc, ri)));
  plan_insert_barriers(b);
  SHAPE(b, "L L ", "read own element");

  /* read after write at 3 - lid: another item's element, a local fence between */
  b = block2(lcl_loop(w, 0, at(loc, wi), at(in, wi)), lcl_loop(r, 0, at(out, ri), at(loc, mirror)));
  plan_insert_barriers(b);
  SHAPE(b, "L B1 L ", "read after write, other item");

  /* the same through global memory: a global fence */
  b = block2(lcl_loop(w, 0, at(glob, wi), at(in, wi)), lcl_loop(r, 0, at(out, ri), at(glob, mirror)));
  plan_insert_barriers(b);
  SHAPE(b, "L B2 L ", "read after write, global");

  /* write after read: a later mapLcl overwrites what another item still reads */
  b = block2(lcl_loop(r, 0, at(out, ri), at(loc, mirror)), lcl_loop(w, 0, at(loc, wi), at(in, wi)));
  plan_insert_barriers(b);
  SHAPE(b, "L B1 L ", "write after read");

  /* the same index but a loop of another dimension: other work-items */
  b = block2(lcl_loop(w, 0, at(loc, wi), at(in, wi)), lcl_loop(r, 1, at(out, ri), at(loc, ri)));
  plan_insert_barriers(b);
  SHAPE(b, "L B1 L ", "other dimension");

  /* one item writes loc[0] (a mapLcl of one iteration), every item then reads
     loc[0]: the same constant index, but not the same work-item (the
     one-pass scan's tile prefix; it had no barrier and the scan was wrong on
     an H100, compute-sanitizer racecheck) */
  NatVar *one = nat_var_new("lidone", nat_const(0), nat_const(0));
  KStmt *single = kstmt_block();
  kstmt_add(single, kstmt_assign(at(loc, nat_const(0)), at(in, nat_const(0))));
  b = block2(kstmt_for(LEVEL_LCL, 0, one, nat_const(1), single), lcl_loop(r, 0, at(out, ri), at(loc, nat_const(0))));
  plan_insert_barriers(b);
  SHAPE(b, "L B1 L ", "one item writes a constant index, every item reads it");

  /* a writer whose result nobody reads: no barrier */
  b = block2(lcl_loop(w, 0, at(loc, wi), at(in, wi)), lcl_loop(r, 0, at(out, ri), at(in, mirror)));
  plan_insert_barriers(b);
  SHAPE(b, "L L ", "unread local");

  /* a sequential loop around a sharing writer and reader: a barrier between
     them and one at the end of each step; none after the loop */
  NatVar *i = nat_var_new("i", nat_const(0), nat_const(7));
  KStmt *seq = kstmt_for(LEVEL_SEQ, 0, i, nat_const(8),
                         block2(lcl_loop(w, 0, at(loc, wi), at(in, wi)), lcl_loop(r, 0, at(out, ri), at(loc, mirror))));
  b = kstmt_block();
  kstmt_add(b, seq);
  plan_insert_barriers(b);
  SHAPE(b, "S ", "sequential loop: outside");
  SHAPE(seq->body, "L B1 L B1 ", "sequential loop: its body");

  /* inside a mapLcl loop: never a barrier, whatever it shares */
  KStmt *inner = kstmt_for(LEVEL_SEQ, 0, i, nat_const(8),
                           block2(kstmt_assign(at(loc, nat_var(i)), at(in, wi)), kstmt_assign(at(out, wi), at(loc, nat_sub(nat_const(3), wi)))));
  KStmt *body = kstmt_block();
  kstmt_add(body, inner);
  b = kstmt_block();
  kstmt_add(b, kstmt_for(LEVEL_LCL, 0, w, nat_const(4), body));
  plan_insert_barriers(b);
  CHECK(barriers_in(b->stmts[0]) == 0, "barrier inside a mapLcl loop: %d", barriers_in(b->stmts[0]));
}

/* ---- warp barriers (dpia/warp.c): a barrier whose conflicts are all
   between items x, y of one warp (x / 32 == y / 32) gets BARRIER_WARP ---- */
static KStmt *lcl64(NatVar *v, int dim, CExp *lhs, CExp *rhs) {
  KStmt *body = kstmt_block();
  kstmt_add(body, kstmt_assign(lhs, rhs));
  return kstmt_for(LEVEL_LCL, dim, v, nat_const(64), body);
}
static KStmt *block3(KStmt *a, KStmt *b, KStmt *c) {
  KStmt *s = block2(a, b);
  kstmt_add(s, c);
  return s;
}

static void test_warp(void) {
  NatVar *w = nat_var_new("lidw", nat_const(0), nat_const(63)), *r = nat_var_new("lidr", nat_const(0), nat_const(63));
  NatVar *q = nat_var_new("lidq", nat_const(0), nat_const(63));
  Buffer *x = buffer("x", SPACE_LOCAL), *y = buffer("y", SPACE_LOCAL), *in = buffer("in", SPACE_GLOBAL), *out = buffer("out", SPACE_GLOBAL);
  Nat *pair = nat_mul(nat_div(nat_var(r), nat_const(2)), nat_const(2));            /* (l / 2) * 2: its warp */
  Nat *other = nat_mod(nat_add(nat_var(r), nat_const(32)), nat_const(64));        /* (l + 32) % 64: the other warp */

  /* a reader of the first of each pair: within warps */
  KStmt *b = block2(lcl64(w, 0, at(x, nat_var(w)), at(in, nat_var(w))), lcl64(r, 0, at(out, nat_var(r)), at(x, pair)));
  plan_insert_barriers(b);
  plan_warp_barriers(b);
  SHAPE(b, "L B5 L ", "pairs: a warp's barrier");

  /* a reader of the other half: across warps */
  b = block2(lcl64(w, 0, at(x, nat_var(w)), at(in, nat_var(w))), lcl64(r, 0, at(out, nat_var(r)), at(x, other)));
  plan_insert_barriers(b);
  plan_warp_barriers(b);
  SHAPE(b, "L B1 L ", "the other half: the work-group's barrier");

  /* a writes x, b reads x's pairs into y (a warp's barrier), c reads y's
     pairs and x's other half: the barrier before c orders a's writes too,
     two barriers back, across warps, so it stays the work-group's */
  KStmt *cb = kstmt_block();
  kstmt_add(cb, kstmt_assign(at(out, nat_var(q)),
                             cexp_op(OP_ADD, type_scalar(TY_FLOAT), 2, (CExp *[]){ at(y, nat_mul(nat_div(nat_var(q), nat_const(2)), nat_const(2))),
                                                                                  at(x, nat_mod(nat_add(nat_var(q), nat_const(32)), nat_const(64))) })));
  b = block3(lcl64(w, 0, at(x, nat_var(w)), at(in, nat_var(w))), lcl64(r, 0, at(y, nat_var(r)), at(x, pair)),
             kstmt_for(LEVEL_LCL, 0, q, nat_const(64), cb));
  plan_insert_barriers(b);
  plan_warp_barriers(b);
  SHAPE(b, "L B5 L B1 L ", "a conflict two barriers back");

  /* a sequential loop's body: the barrier that ends it stays the work-group's */
  NatVar *i = nat_var_new("i", nat_const(0), nat_const(7));
  KStmt *seq = kstmt_for(LEVEL_SEQ, 0, i, nat_const(8),
                         block2(lcl64(w, 0, at(x, nat_var(w)), at(in, nat_var(w))), lcl64(r, 0, at(out, nat_var(r)), at(x, pair))));
  b = kstmt_block();
  kstmt_add(b, seq);
  plan_insert_barriers(b);
  plan_warp_barriers(b);
  SHAPE(seq->body, "L B5 L B1 ", "sequential loop: its body");

  /* the pairs read by a loop of dimension 1: no warp barriers in the kernel */
  b = block2(lcl64(w, 1, at(x, nat_var(w)), at(in, nat_var(w))), lcl64(r, 1, at(out, nat_var(r)), at(x, pair)));
  plan_insert_barriers(b);
  plan_warp_barriers(b);
  SHAPE(b, "L B1 L ", "dimension 1");
}

int main(void) {
  test_programs();
  test_hand_built();
  test_warp();
  return CHECK_DONE("barrier");
}
