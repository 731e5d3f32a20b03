/* lookback.c — the top-level filter and scan in one pass on the device
   targets (SPEC §4.2; Merrill & Garland's single-pass scan with decoupled
   look-back). One kernel reads the input once, tile after tile:

     a work-group takes the next tile number from a counter (atomic), so it
       only ever waits for tiles that groups already running hold;
     it copies the tile (LB_TILE elements, any map before it fused in) into
       local memory, through registers (each work-item's loads all in flight
       at once); each work-item folds LB_ITEMS consecutive elements
       (filter: counts what the predicate keeps; scan: combines them);
     a scan of those LB_GROUP partials (cuda: by shuffles within each warp,
       then across the warps; elsewhere Hillis–Steele in local memory);
     the tile's aggregate is published (flag 1), the earlier tiles' status
       words are walked back over, adding aggregates until an inclusive
       prefix (flag 2), and the tile's own inclusive prefix is published:
       on cuda by the group's first warp, a word per lane and votes to find
       where to stop (lb_look_back_warp); elsewhere by one work-item, 8 words
       at a time (lb_look_back);
     filter: every work-item compacts its kept elements into a second local
       tile, which the group copies out from the tile's offset, through the
       map after the filter when there is one (coalesced writes);
     scan: every work-item rescans its elements from its start, in place,
       and the group copies the tile out.

   Before it, a small kernel clears the status words and the counter; after
   it, the filter's length is the last tile's inclusive prefix. A tile's flag
   and its 4-byte value are one 64-bit status word (CE_STATUS), written and
   read whole through volatile pointers: a reader sees both or neither, with
   no fence (OpenCL 1.2's mem_fence does not order stores as other
   work-groups see them; CUB publishes 4-byte values the same way).

   Forward progress: a group waits only for tiles with smaller numbers, taken
   by groups that had started; a device that runs a started work-group to
   completion (NVIDIA GPUs; PoCL, whose work-groups run on threads of their
   own or one after another) cannot deadlock. docs/design.md §11. */
#include "dpia.h"
#include "../layout/layout.h"
#include "lookback_config.h"
#include <stdlib.h>

/* CLIFT_LB_ITEMS and CLIFT_LB_WINDOW: other values for experiments, set when
   building (`make CC="cc -DCLIFT_LB_WINDOW=32"`; bench/gpu/session3_2026-11-27.sh).
   The window was 32 status words until 2026-11-27: the 32 longs of the work-item
   that walks back cost every work-item registers; at 8 the filter and the scan
   at 2^27 took half the time on an H100 (1.64 → 0.83 ms, 1.68 → 0.86 ms), with
   16 items per work-item or the warp-shuffle scan no faster. The window is
   the look-back of the targets without warp votes (opencl), and of cuda with
   a given work-group size (CLIFT_LB_ITEMS: util/switches.h) */
#ifndef CLIFT_LB_WINDOW
#define CLIFT_LB_WINDOW 8
#endif
/* CLIFT_LB_WARP=0: the window of one work-item on cuda too (the look-back
   before 2026-11-27's warp-wide one). CLIFT_LB_REGISTERS=0: the tile loaded
   and copied out by loops striding by the work-group's size, a load then a
   store each step (before the same change). Both 0 print the code of the
   commit before them: bench/gpu/lb_2026-11-27.sh times the builds. */
#ifndef CLIFT_LB_WARP
#define CLIFT_LB_WARP 1
#endif
/* CLIFT_LB_WARP_SCAN=0: with the warp-wide look-back, the group's scan of
   the partials by Hillis–Steele in local memory (8 barriers) instead of
   shuffles within each warp (3). */
#ifndef CLIFT_LB_WARP_SCAN
#define CLIFT_LB_WARP_SCAN 1
#endif
#ifndef CLIFT_LB_REGISTERS
#define CLIFT_LB_REGISTERS 1
#endif
/* The experiment switches (CLIFT_LB_GROUP, …): lookback_config.c. */

int dpia_single_pass_min_blocks(int *group) {
  lb_configure();
  *group = LB_GROUP;
  return lb_cfg.min_blocks;
}
enum { LB_LOCAL_MAX = 40 * 1024 };   /* bytes of local memory per group (CUDA's static limit is 48 KiB) */
enum { LB_GROUPS_MAX = 65536 };      /* the most groups a loop over tiles gets (launch_policy.h) */
enum { LB_SLEEP_TILES = 500 };       /* CLIFT_LB_WAIT/RETRY sleep from this many tiles (CUB's threshold of blocks) */
enum { FLAG_AGGREGATE = 1, FLAG_PREFIX = 2, LB_WINDOW = CLIFT_LB_WINDOW /* status words read at once */ };

/* What a scan combines: int counts for the filter, the scan's values. */
typedef struct LbOp {
  Type *t;
  CExp *neutral;
  Expr *f;             /* the scan's function; NULL: integer + */
} LbOp;

/* One pass over tiles, the state shared by its phases. */
typedef struct Lb {
  Tr *tr;
  LbOp op;
  Nat *n, *tiles;
  Buffer *status, *counter;        /* global: a status word per tile (long); the tile counter (int) */
  KStmt *top;                      /* the block around the pass */
  ParLoop wrg;                     /* the loop over tiles (a work-group each) */
  NatVar *tile;                    /* the tile's number, taken from the counter */
  Nat *from, *count;               /* its first element, its length */
  View *data; Acc *data_acc;       /* the tile in local memory */
  View *part; Acc *part_acc;       /* the work-items' partials, scanned in place: inclusive */
  View *prefix;                    /* the tiles before it, combined (local) */
  bool warp;                       /* the look-back by the 32 lanes of warp 0 (lb_look_back_warp) */
  NatVar *item;                    /* the variable of the last items() loop */
  View *mask; Acc *mask_acc;       /* CLIFT_LB_MASK: bit j of work-item l's int: the filter keeps
                                      its element j (a private int of each, partitioned) */
  View *tot;                       /* CLIFT_LB_TOTALS: the warps' totals (local); lb->part then holds
                                      each warp's own inclusive scan */
} Lb;

static CExp *int_lit(long long v) { return cexp_lit_int(v); }
static CExp *var(const char *name, Type *t) { return cexp_var(name, t); }
static Type *int_type(void) { return type_scalar(TY_INT); }

static const char *declare(Tr *tr, const char *base, Type *t, CExp *init) {
  KStmt *d = NEW(KStmt);
  d->kind = KS_DECL; d->name = dpia_fresh(tr, base); d->type = t; d->init = init;
  kstmt_add(tr->block, d);
  return d->name;
}

static void assign(Tr *tr, CExp *lhs, CExp *rhs, bool disjoint) {
  KStmt *s = kstmt_assign(lhs, rhs);
  s->disjoint = disjoint;
  kstmt_add(tr->block, s);
}


/* if (cond) { then } else { else }: sets *then and *els to the branches. */
static void branch(Tr *tr, CExp *cond, KStmt **then, KStmt **els) {
  KStmt *s = kstmt_if(cond, NULL, NULL);
  kstmt_add(tr->block, s);
  *then = s->then_;
  if (els) *els = s->else_;
}

/* A size variable bound to a value computed in the kernel (KS_COUNT). */
static NatVar *bind_count(Tr *tr, const char *base, CExp *value, Nat *hi) {
  KStmt *s = NEW(KStmt);
  s->kind = KS_COUNT;
  s->var = nat_var_new(dpia_fresh(tr, base), nat_const(0), hi);
  s->init = value;
  kstmt_add(tr->block, s);
  return s->var;
}

static CExp *cmp(ScalarOp op, CExp *a, CExp *b) { return cexp_op(op, type_scalar(TY_BOOL), 2, (CExp *[]){ a, b }); }

/* a ⊕ b, a value of op->t (f may emit commands into tr->block first). */
static CExp *combine(Tr *tr, LbOp *op, CExp *a, CExp *b) {
  if (!op->f) return cexp_op(OP_ADD, op->t, 2, (CExp *[]){ a, b });
  View *args[2] = { view_scalar(a), view_scalar(b) };
  View *r = dpia_apply(tr, op->f, args);
  return r ? view_resolve(tr, r, (Path){0, NULL}) : NULL;
}

static CExp *read(Tr *tr, View *v, Nat *i) { return view_resolve(tr, view_idx(tr, v, i), (Path){0, NULL}); }

/* A parallel loop of the pass at `level`; its body becomes tr->block and
   *loop tr->par (the caller restores both). */
static KStmt *par_loop(Tr *tr, PrimLevel level, Nat *count, NatVar **v, ParLoop *loop) {
  KStmt *around = tr->block;
  KStmt *body = dpia_loop(tr, level, 0, count, v);
  if (level == LEVEL_LCL && lb_cfg.loops) around->stmts[around->n - 1]->stride = true;
  *loop = (ParLoop){ *v, count, level, tr->par, 0, NULL };
  tr->block = body;
  tr->par = loop;
  return body;
}

/* mapLcl over one work-item: runs once per group (an `if` on the devices). */
static void one_item(Tr *tr, ParLoop *loop) {
  NatVar *z;
  par_loop(tr, LEVEL_LCL, nat_const(1), &z, loop);
}

/* Local memory the pass needs, in bytes, for elements of type elem
   (`tiles` copies of the tile); false when elem has no constant size. */
static bool local_bytes(Type *elem, Type *t, int tiles, long long *bytes) {
  long long e, v;
  if (!nat_is_const(layout_type_bytes_nat(elem), &e) || !nat_is_const(layout_type_bytes_nat(t), &v)) return false;
  *bytes = tiles * LB_TILE * e + 2 * LB_GROUP * v + 16;
  return true;
}

static void disjoint_from(KStmt *block, int mark);

/* Back to the group's level: the loop over tiles' body. */
static void at_group(Lb *lb, KStmt *group) { lb->tr->par = &lb->wrg; lb->tr->block = group; }

/* Elements k < count of the tile, work-item l taking l, l + LB_GROUP, … (a
   sequential loop of LB_ITEMS steps, which the device compilers unroll, where
   a loop striding by the group's size is not): the body, tr->block, under
   `if (k < count)`, tr->seq raised (the caller lowers it). */
static KStmt *strided(Lb *lb, Nat *count, Nat **k) {
  Tr *tr = lb->tr;
  ParLoop *loop = NEW(ParLoop);
  NatVar *l, *j;
  tr->seq++;
  if (CLIFT_LB_REGISTERS) {
    par_loop(tr, LEVEL_LCL, nat_const(LB_GROUP), &l, loop);
    tr->block = dpia_loop(tr, LEVEL_SEQ, 0, nat_const(LB_ITEMS), &j);
    *k = nat_add(nat_mul(nat_var(j), nat_const(LB_GROUP)), nat_var(l));
  } else {
    par_loop(tr, LEVEL_LCL, nat_const(LB_TILE), &l, loop);
    *k = nat_var(l);
  }
  KStmt *then;
  branch(tr, cexp_nat_lt(*k, count), &then, NULL);
  tr->block = then;
  return then;
}

/* The tile into local memory, elements of a scalar or vector type: work-item
   l loads elements l, l + LB_GROUP, … (coalesced) into registers, all of them
   before it stores any, so that its LB_ITEMS loads are in flight together
   (one memory latency a tile, where a load then a store each step waits for
   every load in turn: 9 latencies). Leaves tr at the group's level. */
static bool lb_load(Lb *lb, View *xs, Type *elem) {
  Tr *tr = lb->tr;
  KStmt *group = tr->block;
  ParLoop loop;
  NatVar *l, *j;
  KStmt *body = par_loop(tr, LEVEL_LCL, nat_const(LB_GROUP), &l, &loop);
  View *reg; Acc *reg_acc;
  dpia_new(tr, type_array(elem, nat_const(LB_ITEMS)), SPACE_PRIVATE, &reg, &reg_acc);
  bool ok = true;
  for (int store = 0; store < 2 && ok; store++) {
    tr->block = body;
    tr->block = dpia_loop(tr, LEVEL_SEQ, 0, nat_const(LB_ITEMS), &j);
    tr->seq++;
    Nat *e = nat_add(nat_mul(nat_var(j), nat_const(LB_GROUP)), nat_var(l));
    KStmt *then;
    branch(tr, cexp_nat_lt(e, lb->count), &then, NULL);
    tr->block = then;
    if (!store) ok = dpia_assign(tr, acc_idx(reg_acc, nat_var(j)), view_idx(tr, xs, nat_add(lb->from, e)), elem);
    else {
      ok = dpia_assign(tr, acc_idx(lb->data_acc, e), view_idx(tr, reg, nat_var(j)), elem);
      disjoint_from(then, 0);   /* element j·LB_GROUP + l: work-item l's own */
    }
    tr->seq--;
  }
  at_group(lb, group);
  return ok;
}

/* The counter and flags cleared (a kernel of its own), the loop over tiles
   opened, the tile's number taken, the tile copied into local memory.
   Leaves tr at the group's level; returns that block (NULL on error). */
static KStmt *lb_begin(Lb *lb, View *xs, Type *elem) {
  Tr *tr = lb->tr;
  lb->tiles = nat_div(nat_add(lb->n, nat_const(LB_TILE - 1)), nat_const(LB_TILE));
  Nat *cells = nat_add(lb->tiles, nat_const(1));
  View *v; Acc *a;
  dpia_new(tr, type_array(type_scalar(TY_LONG), cells), SPACE_GLOBAL, &v, &a);
  lb->status = v->buf;
  dpia_new(tr, type_array(int_type(), nat_const(1)), SPACE_GLOBAL, &v, &a);
  lb->counter = v->buf;
  if (!lb->status || !lb->counter) return diag_internal(LOC_NONE, "look-back buffers"), NULL;
  lb->top = tr->block;
  ParLoop clear, one, load;
  NatVar *i, *w, *k;
  par_loop(tr, LEVEL_GLB, cells, &i, &clear);
  CExp *zero = cexp_lit_int(0);
  zero->type = type_scalar(TY_LONG);
  assign(tr, cexp_read(lb->status, nat_var(i), -1, type_scalar(TY_LONG)), zero, false);
  KStmt *first;
  branch(tr, cexp_nat_lt(nat_var(i), nat_const(1)), &first, NULL);
  tr->block = first;
  assign(tr, cexp_read(lb->counter, nat_const(0), -1, int_type()), int_lit(0), true);
  tr->par = clear.outer;
  tr->block = lb->top;

  KStmt *group = par_loop(tr, LEVEL_WRG, lb->tiles, &w, &lb->wrg);
  View *idv; Acc *ida;
  dpia_new(tr, type_array(int_type(), nat_const(1)), SPACE_LOCAL, &idv, &ida);
  one_item(tr, &one);
  CExp *slot = acc_resolve(tr, acc_idx(ida, nat_const(0)), (Path){0, NULL});
  if (!slot) return NULL;
  /* CLIFT_LB_BLOCK_TILE: where the launch gives a group a tile (at most
     LB_GROUPS_MAX tiles, no number of work-items given), the tile is the
     group's index and the counter is not touched */
  bool by_block = lb_cfg.block_tile && lb->warp && !tr->gen->global_size_given;
  CExp *many = cexp_nat_lt(nat_const(LB_GROUPS_MAX), lb->tiles);
  if (by_block) {
    KStmt *then;
    branch(tr, many, &then, NULL);
    tr->block = then;
  }
  assign(tr, slot, cexp_atomic_inc(lb->counter, nat_const(0)), true);
  at_group(lb, group);
  CExp *id = read(tr, idv, nat_const(0));
  if (!id) return NULL;
  if (by_block) {
    CExp *sel = NEW(CExp);
    *sel = (CExp){ .kind = CE_SELECT, .type = int_type(), .n = 3, .field = -1 };
    sel->args = NEW_ARRAY(CExp *, 3);
    sel->args[0] = many; sel->args[1] = id; sel->args[2] = cexp_nat(nat_var(w));
    id = sel;
  }
  lb->tile = bind_count(tr, "tile", id, nat_sub(lb->tiles, nat_const(1)));
  lb->from = nat_mul(nat_var(lb->tile), nat_const(LB_TILE));
  lb->count = nat_min(nat_const(LB_TILE), nat_sub(lb->n, lb->from));
  dpia_new(tr, type_array(elem, nat_const(LB_TILE)), SPACE_LOCAL, &lb->data, &lb->data_acc);
  if (CLIFT_LB_REGISTERS && (type_is_scalar(elem) || elem->kind == TY_VECTOR)) return lb_load(lb, xs, elem) ? group : NULL;
  par_loop(tr, LEVEL_LCL, nat_const(LB_TILE), &k, &load);
  KStmt *then;
  branch(tr, cexp_nat_lt(nat_var(k), lb->count), &then, NULL);
  tr->block = then;
  bool ok = dpia_assign(tr, acc_idx(lb->data_acc, nat_var(k)), view_idx(tr, xs, nat_add(lb->from, nat_var(k))), elem);
  at_group(lb, group);
  return ok ? group : NULL;
}

/* A sequential loop over the LB_ITEMS elements of work-item l that the tile
   has: its body (tr->block, tr->seq raised: the caller lowers it) and the
   element's index in the tile. */
static KStmt *items(Lb *lb, NatVar *l, Nat **e) {
  Tr *tr = lb->tr;
  NatVar *j;
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, nat_const(LB_ITEMS), &j);
  tr->seq++;
  *e = nat_add(nat_mul(nat_var(l), nat_const(LB_ITEMS)), nat_var(j));
  lb->item = j;
  KStmt *then;
  branch(tr, cexp_nat_lt(*e, lb->count), &then, NULL);
  tr->block = then;
  return then;
}

/* Does the predicate keep x? Its commands go into tr->block. */
static CExp *kept(Tr *tr, Expr *p, View *x) {
  View *k = dpia_apply(tr, p, &x);
  return k ? view_resolve(tr, k, (Path){0, NULL}) : NULL;
}

/* Every work-item's partial over its elements (filter: how many p keeps;
   scan: the elements combined), then their inclusive scan across the group
   (Hillis–Steele in local memory, ping-pong; with an odd number of steps,
   LB_GROUP 128, the partials start in the other buffer, so that the result
   lands in lb->part). */
static bool warp_scan(Lb *lb, KStmt *group, KStmt *body, NatVar *l, const char *acc);

/* CLIFT_LB_MASK where the group's size is the pass's (a partitioned private
   int needs its loops pinned: not with a given work-group size) */
static bool lb_uses_mask(Lb *lb, Expr *p) {
  return p && lb_mask_for(lb->tr->gen) && LB_ITEMS <= 32 && lb->tr->gen && !lb->tr->gen->no_privatise;
}

/* The mapLcl loop just opened in `around` (loop) runs one work-item an
   iteration: a partitioned private buffer may be used inside it. */
static void pin(KStmt *around, ParLoop *loop) {
  loop->loop = around->stmts[around->n - 1];
  loop->loop->pinned = true;
}

static bool lb_partials(Lb *lb, KStmt *group, Expr *p) {
  Tr *tr = lb->tr;
  Type *t = lb->op.t;
  View *other; Acc *other_acc;
  dpia_new(tr, type_array(t, nat_const(LB_GROUP)), SPACE_LOCAL, &lb->part, &lb->part_acc);
  dpia_new(tr, type_array(t, nat_const(LB_GROUP)), SPACE_LOCAL, &other, &other_acc);
  ParLoop loop;
  NatVar *l;
  KStmt *around = tr->block;
  if (lb_uses_mask(lb, p)) {
    Partition part = { 1, { 0 }, { LB_GROUP } };
    dpia_new_partitioned(tr, type_array(int_type(), nat_const(LB_GROUP)), &part, &lb->mask, &lb->mask_acc);
  }
  KStmt *body = par_loop(tr, LEVEL_LCL, nat_const(LB_GROUP), &l, &loop);
  if (lb->warp) around->stmts[around->n - 1]->pinned = true;   /* groups of LB_GROUP: warp 0 has its 32 lanes */
  CExp *mask = NULL;
  if (lb->mask) {
    pin(around, &loop);
    if (!(mask = acc_resolve(tr, acc_idx(lb->mask_acc, nat_var(l)), (Path){0, NULL}))) return false;
    assign(tr, mask, int_lit(0), false);
  }
  const char *acc = declare(tr, "part", t, lb->op.neutral);
  Nat *e;
  items(lb, l, &e);
  View *x = view_idx(tr, lb->data, e);
  CExp *c = p ? kept(tr, p, x) : combine(tr, &lb->op, var(acc, t), view_resolve(tr, x, (Path){0, NULL}));
  if (!c) return false;
  if (p) {
    KStmt *then;
    branch(tr, c, &then, NULL);
    tr->block = then;
    c = combine(tr, &lb->op, var(acc, t), int_lit(1));
    if (mask) {   /* mask |= 1 << j */
      CExp *bit = cexp_op(OP_SHL, int_type(), 2, (CExp *[]){ int_lit(1), cexp_nat(nat_var(lb->item)) });
      assign(tr, mask, cexp_op(OP_BITOR, int_type(), 2, (CExp *[]){ mask, bit }), false);
    }
  }
  assign(tr, var(acc, t), c, false);
  tr->seq--;
  tr->block = body;
  if (lb->warp && CLIFT_LB_WARP_SCAN) return warp_scan(lb, group, body, l, acc);
  int steps = 0;
  for (int d = 1; d < LB_GROUP; d *= 2) steps++;
  View *src = lb->part, *dst = other;
  Acc *src_acc = lb->part_acc, *dst_acc = other_acc;
  if (steps % 2) { src = other; dst = lb->part; src_acc = other_acc; dst_acc = lb->part_acc; }
  CExp *slot = acc_resolve(tr, acc_idx(src_acc, nat_var(l)), (Path){0, NULL});
  if (!slot) return false;
  assign(tr, slot, var(acc, t), false);
  at_group(lb, group);
  for (int d = 1; d < LB_GROUP; d *= 2) {
    body = par_loop(tr, LEVEL_LCL, nat_const(LB_GROUP), &l, &loop);
    CExp *to = acc_resolve(tr, acc_idx(dst_acc, nat_var(l)), (Path){0, NULL});
    CExp *mine = read(tr, src, nat_var(l));
    KStmt *then, *els;
    branch(tr, cexp_nat_lt(nat_const(d - 1), nat_var(l)), &then, &els);
    tr->block = then;
    CExp *before = read(tr, src, nat_sub(nat_var(l), nat_const(d)));
    CExp *sum = to && mine && before ? combine(tr, &lb->op, before, mine) : NULL;
    if (!sum) return false;
    assign(tr, to, sum, false);
    tr->block = els;
    assign(tr, to, mine, false);
    at_group(lb, group);
    View *tv = src; src = dst; dst = tv;
    Acc *ta = src_acc; src_acc = dst_acc; dst_acc = ta;
  }
  if (src != lb->part) return diag_internal(LOC_NONE, "look-back: the group scan ended in the other buffer"), false;
  return true;
}

/* The group's scan where lb->warp (the group pinned to LB_GROUP, warps of
   32): work-item l's partial `acc` scanned within its warp by
   shuffles (inside l's loop `body`), stored in lb->part[l], the warp's total
   in a local array; one work-item scans the 8 totals; every work-item past
   the first warp combines its warp's offset in. */
static bool warp_scan(Lb *lb, KStmt *group, KStmt *body, NatVar *l, const char *acc) {
  Tr *tr = lb->tr;
  Type *t = lb->op.t;
  enum { WARP = 32 };
  int warps = LB_GROUP / WARP;
  Nat *lane = nat_mod(nat_var(l), nat_const(WARP)), *warp = nat_div(nat_var(l), nat_const(WARP));
  View *tot; Acc *tot_acc;
  ParLoop *inside = tr->par;
  tr->par = &lb->wrg;   /* one array per group, not per work-item */
  dpia_new(tr, type_array(t, nat_const(warps)), SPACE_LOCAL, &tot, &tot_acc);
  tr->par = inside;
  tr->block = body;
  for (int d = 1; d < WARP; d *= 2) {
    const char *up = declare(tr, "up", t, cexp_shfl_up(var(acc, t), d));
    KStmt *then;
    branch(tr, cexp_nat_lt(nat_const(d - 1), lane), &then, NULL);
    tr->block = then;
    CExp *c = combine(tr, &lb->op, var(up, t), var(acc, t));
    if (!c) return false;
    assign(tr, var(acc, t), c, false);
    tr->block = body;
  }
  CExp *slot = acc_resolve(tr, acc_idx(lb->part_acc, nat_var(l)), (Path){0, NULL});
  if (!slot) return false;
  assign(tr, slot, var(acc, t), false);
  KStmt *last;
  branch(tr, cexp_nat_lt(nat_const(WARP - 2), lane), &last, NULL);
  tr->block = last;
  CExp *wslot = acc_resolve(tr, acc_idx(tot_acc, warp), (Path){0, NULL});
  if (!wslot) return false;
  assign(tr, wslot, var(acc, t), false);
  at_group(lb, group);
  if (lb_cfg.totals) { lb->tot = tot; return true; }   /* lb_aggregate, lb_before read them */
  ParLoop one;
  one_item(tr, &one);
  NatVar *w;
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, nat_const(warps - 1), &w);
  tr->seq++;
  Nat *next = nat_add(nat_var(w), nat_const(1));
  CExp *to = acc_resolve(tr, acc_idx(tot_acc, next), (Path){0, NULL});
  CExp *sum = combine(tr, &lb->op, read(tr, tot, nat_var(w)), read(tr, tot, next));
  if (!to || !sum) return false;
  assign(tr, to, sum, true);   /* by the group's one work-item */
  tr->seq--;
  at_group(lb, group);
  ParLoop loop;
  NatVar *k;
  par_loop(tr, LEVEL_LCL, nat_const(LB_GROUP), &k, &loop);
  KStmt *then;
  branch(tr, cexp_nat_lt(nat_const(WARP - 1), nat_var(k)), &then, NULL);
  tr->block = then;
  CExp *mine = acc_resolve(tr, acc_idx(lb->part_acc, nat_var(k)), (Path){0, NULL});
  CExp *add = combine(tr, &lb->op, read(tr, tot, nat_sub(nat_div(nat_var(k), nat_const(WARP)), nat_const(1))),
                      read(tr, lb->part, nat_var(k)));
  if (!mine || !add) return false;
  assign(tr, mine, add, false);
  at_group(lb, group);
  return true;
}

/* The tile's aggregate: the last partial, or with CLIFT_LB_TOTALS the warps'
   totals combined in order (NULL on error). */
static CExp *lb_aggregate(Lb *lb) {
  if (!lb->tot) return read(lb->tr, lb->part, nat_const(LB_GROUP - 1));
  CExp *agg = read(lb->tr, lb->tot, nat_const(0));
  for (int w = 1; agg && w < LB_GROUP / 32; w++) {
    CExp *next = read(lb->tr, lb->tot, nat_const(w));
    agg = next ? combine(lb->tr, &lb->op, agg, next) : NULL;
  }
  return agg;
}

/* Inside work-item l's loop: a variable holding `from` combined with the
   partials of the work-items before l (the group's scan, exclusive): the
   partial before l's, or with CLIFT_LB_TOTALS the totals of the warps before
   l's, in order, then the partial before l's in its warp. NULL on error. */
static const char *lb_before(Lb *lb, CExp *from, NatVar *l) {
  Tr *tr = lb->tr;
  Type *t = lb->op.t;
  const char *run = declare(tr, "run", t, from);
  KStmt *body = tr->block, *then;
  Nat *first = nat_const(0);   /* the first work-item whose partial is after lb->part's start */
  if (lb->tot) {
    Nat *warp = nat_div(nat_var(l), nat_const(32));
    NatVar *w;
    tr->block = dpia_loop(tr, LEVEL_SEQ, 0, nat_const(LB_GROUP / 32 - 1), &w);
    tr->seq++;
    branch(tr, cexp_nat_lt(nat_var(w), warp), &then, NULL);
    tr->block = then;
    CExp *c = combine(tr, &lb->op, var(run, t), read(tr, lb->tot, nat_var(w)));
    if (!c) return NULL;
    assign(tr, var(run, t), c, false);
    tr->seq--;
    tr->block = body;
    first = nat_mul(warp, nat_const(32));
  }
  branch(tr, cexp_nat_lt(first, nat_var(l)), &then, NULL);
  tr->block = then;
  CExp *before = read(tr, lb->part, nat_sub(nat_var(l), nat_const(1)));
  CExp *c = before ? combine(tr, &lb->op, var(run, t), before) : NULL;
  if (!c) return NULL;
  assign(tr, var(run, t), c, false);
  tr->block = body;
  return run;
}

/* status[t] := (flag, value), one 64-bit store */
static void publish(Lb *lb, Nat *t, int flag, CExp *value) {
  assign(lb->tr, cexp_read_volatile(lb->status, t, type_scalar(TY_LONG)), cexp_status(int_lit(flag), value), true);
}

/* One work-item of the group publishes the tile's aggregate, walks back over
   the earlier tiles' status words until an inclusive prefix, publishes its
   own inclusive prefix and leaves the exclusive one in local memory
   (lb->prefix). The walk reads LB_WINDOW words at once (independent loads:
   one memory latency per window), then combines them in order from the
   nearest: an aggregate is added and the walk goes on, an inclusive prefix is
   added and ends it, a tile not yet published (flag 0) ends the window, which
   is read again from there. */
static bool lb_look_back(Lb *lb, KStmt *group) {
  Tr *tr = lb->tr;
  Type *t = lb->op.t, *it = int_type(), *lt = type_scalar(TY_LONG);
  Acc *pre_acc;
  dpia_new(tr, type_array(t, nat_const(1)), SPACE_LOCAL, &lb->prefix, &pre_acc);
  ParLoop one;
  one_item(tr, &one);
  CExp *agg_read = lb_aggregate(lb);
  CExp *pre_slot = acc_resolve(tr, acc_idx(pre_acc, nat_const(0)), (Path){0, NULL});
  if (!agg_read || !pre_slot) return false;
  const char *agg = declare(tr, "aggregate", t, agg_read);
  Nat *me = nat_var(lb->tile);
  KStmt *first, *later;
  branch(tr, cexp_nat_lt(me, nat_const(1)), &first, &later);
  tr->block = first;   /* tile 0: its aggregate is its inclusive prefix */
  publish(lb, me, FLAG_PREFIX, var(agg, t));
  assign(tr, pre_slot, lb->op.neutral, true);
  tr->block = later;
  publish(lb, me, FLAG_AGGREGATE, var(agg, t));
  const char *prefix = declare(tr, "prefix", t, lb->op.neutral);
  const char *jn = declare(tr, "back", it, cexp_nat(nat_sub(me, nat_const(1))));
  const char *done = declare(tr, "done", it, int_lit(0));
  Nat *j = nat_var(nat_var_new(jn, nat_const(0), nat_sub(lb->tiles, nat_const(1))));
  KStmt *w = NEW(KStmt), *in_later = tr->block;
  w->kind = KS_WHILE; w->then_ = kstmt_block(); w->body = kstmt_block();
  w->cond = cmp(OP_EQ, var(done, it), int_lit(0));
  kstmt_add(tr->block, w);
  tr->block = w->body;
  tr->seq++;
  /* the window: words back, back - 1, … (index clamped at tile 0, which a
     walk never passes: tile 0's word is an inclusive prefix or not there yet) */
  Buffer *win = NEW(Buffer);
  win->name = dpia_fresh(tr, "window");
  win->type = type_array(lt, nat_const(LB_WINDOW)); win->space = SPACE_PRIVATE;
  KStmt *d = NEW(KStmt);
  d->kind = KS_DECL; d->buf = win; d->name = win->name; d->type = win->type;
  kstmt_add(tr->block, d);
  NatVar *k;
  KStmt *loop_body = tr->block;
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, nat_const(LB_WINDOW), &k);
  assign(tr, cexp_read(win, nat_var(k), -1, lt),
         cexp_read_volatile(lb->status, nat_max(nat_sub(j, nat_var(k)), nat_const(0)), lt), false);
  tr->block = loop_body;
  const char *stop = declare(tr, "stop", it, int_lit(0));
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, nat_const(LB_WINDOW), &k);
  KStmt *open, *seen, *full;
  branch(tr, cmp(OP_EQ, var(stop, it), int_lit(0)), &open, NULL);
  tr->block = open;
  CExp *word = cexp_read(win, nat_var(k), -1, lt);
  const char *flag = declare(tr, "flag", it, cexp_status_flag(word));
  branch(tr, cmp(OP_EQ, var(flag, it), int_lit(0)), &full, &seen);
  tr->block = full;   /* not published yet: read this window again from here */
  assign(tr, var(stop, it), int_lit(1), false);
  tr->block = seen;
  CExp *c = combine(tr, &lb->op, cexp_status_value(word, t), var(prefix, t));
  if (!c) return false;
  assign(tr, var(prefix, t), c, false);
  assign(tr, var(jn, it), cexp_op(OP_SUB, it, 2, (CExp *[]){ var(jn, it), int_lit(1) }), false);
  branch(tr, cmp(OP_EQ, var(flag, it), int_lit(FLAG_PREFIX)), &full, NULL);
  tr->block = full;
  assign(tr, var(done, it), int_lit(1), false);
  assign(tr, var(stop, it), int_lit(1), false);
  tr->seq--;
  tr->block = in_later;
  c = combine(tr, &lb->op, var(prefix, t), var(agg, t));
  if (!c) return false;
  publish(lb, me, FLAG_PREFIX, c);
  assign(tr, pre_slot, var(prefix, t), true);
  at_group(lb, group);
  return true;
}

/* The look-back by the 32 lanes of the group's first warp (cuda: votes and
   shuffles; the work-group pinned to LB_GROUP so that the loop over 32 is one
   warp, one lane each). Each round, lane k reads the status word of tile
   back - k (one memory latency for 32 words); two votes find the nearest
   lane whose tile is unpublished (z) and the nearest inclusive prefix (p);
   the lanes before z are combined (a reduction by shuffles, older ⊕ newer),
   and the walk ends when p comes before z, else goes on from z (or 32 back).
   Only lane 0's reduction is the sum; it publishes. Every lane gets the same
   votes, so the loop's condition is the same in the whole warp. */
static bool lb_look_back_warp(Lb *lb, KStmt *group) {
  enum { WARP = 32 };
  Tr *tr = lb->tr;
  Type *t = lb->op.t, *it = int_type(), *lt = type_scalar(TY_LONG);
  Acc *pre_acc;
  dpia_new(tr, type_array(t, nat_const(1)), SPACE_LOCAL, &lb->prefix, &pre_acc);
  ParLoop lanes;
  NatVar *lane;
  par_loop(tr, LEVEL_LCL, nat_const(WARP), &lane, &lanes);
  CExp *agg_read = lb_aggregate(lb);
  CExp *pre_slot = acc_resolve(tr, acc_idx(pre_acc, nat_const(0)), (Path){0, NULL});
  if (!agg_read || !pre_slot) return false;
  const char *agg = declare(tr, "aggregate", t, agg_read);
  Nat *me = nat_var(lb->tile);
  CExp *lane0 = cexp_nat_lt(nat_var(lane), nat_const(1));
  KStmt *first, *later, *then;
  branch(tr, cexp_nat_lt(me, nat_const(1)), &first, &later);
  tr->block = first;   /* tile 0: its aggregate is its inclusive prefix */
  branch(tr, lane0, &then, NULL);
  tr->block = then;
  publish(lb, me, FLAG_PREFIX, var(agg, t));
  assign(tr, pre_slot, lb->op.neutral, true);
  tr->block = later;
  branch(tr, lane0, &then, NULL);
  tr->block = then;
  publish(lb, me, FLAG_AGGREGATE, var(agg, t));
  tr->block = later;
  CExp *busy = cexp_nat_lt(nat_const(LB_SLEEP_TILES - 1), lb->tiles);   /* a large grid: sleep, don't spin */
  if (lb_cfg.wait) {
    branch(tr, busy, &then, NULL);
    tr->block = then;
    declare(tr, "pause", it, cexp_sleep(lb_cfg.wait));
    tr->block = later;
  }
  const char *prefix = declare(tr, "prefix", t, lb->op.neutral);
  const char *jn = declare(tr, "back", it, cexp_nat(nat_sub(me, nat_const(1))));
  const char *done = declare(tr, "done", it, int_lit(0));
  Nat *j = nat_var(nat_var_new(jn, nat_const(0), nat_sub(lb->tiles, nat_const(1))));
  KStmt *w = NEW(KStmt);
  w->kind = KS_WHILE; w->then_ = kstmt_block(); w->body = kstmt_block();
  w->cond = cmp(OP_EQ, var(done, it), int_lit(0));
  kstmt_add(tr->block, w);
  tr->block = w->body;
  tr->seq++;
  /* tile back - lane, clamped at tile 0, which a walk never passes (its word
     is an inclusive prefix or not there yet) */
  const char *word = declare(tr, "word", lt,
                             cexp_read_volatile(lb->status, nat_max(nat_sub(j, nat_var(lane)), nat_const(0)), lt));
  const char *flag = declare(tr, "flag", it, cexp_status_flag(var(word, lt)));
  const char *z = declare(tr, "unpublished", it, cexp_warp_first(cmp(OP_EQ, var(flag, it), int_lit(0))));
  const char *p = declare(tr, "inclusive", it, cexp_warp_first(cmp(OP_EQ, var(flag, it), int_lit(FLAG_PREFIX))));
  /* the lanes to combine: those before the first unpublished word, up to and
     with the first inclusive prefix among them (which ends the walk) */
  CExp *before_z = cexp_op(OP_SUB, it, 2, (CExp *[]){ var(z, it), int_lit(1) });
  CExp *sel = NEW(CExp);
  *sel = (CExp){ .kind = CE_SELECT, .type = it, .n = 3, .field = -1 };
  sel->args = NEW_ARRAY(CExp *, 3);
  sel->args[0] = cmp(OP_EQ, var(z, it), int_lit(0)); sel->args[1] = int_lit(WARP); sel->args[2] = before_z;
  const char *take = declare(tr, "take", it, sel);
  KStmt *loop_body = tr->block, *ends;
  branch(tr, cmp(OP_LT, int_lit(0), var(p, it)), &then, NULL);
  tr->block = then;
  branch(tr, cmp(OP_LE, var(p, it), var(take, it)), &ends, NULL);
  tr->block = ends;
  assign(tr, var(take, it), var(p, it), false);
  assign(tr, var(done, it), int_lit(1), false);
  tr->block = loop_body;
  const char *v = declare(tr, "value", t, lb->op.neutral);
  Nat *taken = nat_var(nat_var_new(take, nat_const(0), nat_const(WARP)));
  branch(tr, cexp_nat_lt(nat_var(lane), taken), &then, NULL);
  tr->block = then;
  assign(tr, var(v, t), cexp_status_value(var(word, lt), t), false);
  tr->block = loop_body;
  for (int d = 1; d < WARP; d *= 2) {   /* lane 0 ends with lanes 0..31 combined, the oldest first */
    const char *older = declare(tr, "older", t, cexp_shfl_down(var(v, t), d));
    CExp *c = combine(tr, &lb->op, var(older, t), var(v, t));
    if (!c) return false;
    assign(tr, var(v, t), c, false);
  }
  CExp *c = combine(tr, &lb->op, var(v, t), var(prefix, t));
  if (!c) return false;
  assign(tr, var(prefix, t), c, false);
  assign(tr, var(jn, it), cexp_op(OP_SUB, it, 2, (CExp *[]){ var(jn, it), var(take, it) }), false);
  if (lb_cfg.retry) {   /* the walk goes on from a word not yet published: sleep before reading it again */
    KStmt *again, *big;
    CExp *both = cexp_op(OP_AND, type_scalar(TY_BOOL), 2,
                         (CExp *[]){ cmp(OP_EQ, var(done, it), int_lit(0)), cmp(OP_LT, int_lit(0), var(z, it)) });
    branch(tr, both, &again, NULL);
    tr->block = again;
    branch(tr, busy, &big, NULL);
    tr->block = big;
    declare(tr, "pause", it, cexp_sleep(lb_cfg.retry));
    tr->block = loop_body;
  }
  tr->seq--;
  tr->block = later;
  branch(tr, lane0, &then, NULL);
  tr->block = then;
  c = combine(tr, &lb->op, var(prefix, t), var(agg, t));
  if (!c) return false;
  publish(lb, me, FLAG_PREFIX, c);
  assign(tr, pre_slot, var(prefix, t), true);
  at_group(lb, group);
  return true;
}

/* The warp-wide look-back where the target has warp votes and the work-group
   may be pinned (no size given); the window of one work-item otherwise. */
static bool look_back(Lb *lb, KStmt *group) { return lb->warp ? lb_look_back_warp(lb, group) : lb_look_back(lb, group); }
static bool warp_ok(Tr *tr) { return CLIFT_LB_WARP && tr->gen && tr->gen->warp_shuffle && !tr->gen->local_size_given; }

static void lb_end(Lb *lb) { lb->tr->par = lb->wrg.outer; lb->tr->block = lb->top; }

/* Every statement added to `block` from `mark` on writes a place of its own
   (an offset the scan computed): the race check is told so. */
static void disjoint_from(KStmt *block, int mark) {
  for (int k = mark; k < block->n; k++) dpia_mark_disjoint(block->stmts[k]);
}

bool dpia_single_pass_fits(Type *elem, Type *t, bool filter) {
  long long bytes;
  lb_configure();
  /* a 4-byte value, so that it shares a 64-bit status word with its flag */
  return (t->kind == TY_INT || t->kind == TY_FLOAT) && local_bytes(elem, t, filter ? 2 : 1, &bytes) &&
         bytes <= LB_LOCAL_MAX;
}

/* The filter's kept elements out (in `group`, a block at the group's level):
   every work-item's into a second local tile from its offset there, then the
   group copies them out from the tile's offset, coalesced; `direct`
   (CLIFT_LB_DIRECT, few kept): every work-item writes its own straight to
   their places, no second tile and no barrier before the copy. */
static bool lb_compact(Lb *lb, KStmt *group, Expr *p, Expr *post, Type *elem, Acc *data, NatVar *before,
                       NatVar *in_tile, bool direct) {
  Tr *tr = lb->tr;
  /* every work-item's kept elements into a second tile, from its offset there */
  View *packed = NULL; Acc *packed_acc = NULL;
  ParLoop loop;
  NatVar *l;
  at_group(lb, group);
  if (!direct) dpia_new(tr, type_array(elem, nat_const(LB_TILE)), SPACE_LOCAL, &packed, &packed_acc);
  KStmt *around = tr->block;
  KStmt *body = par_loop(tr, LEVEL_LCL, nat_const(LB_GROUP), &l, &loop);
  if (lb->mask) pin(around, &loop);
  const char *at;
  KStmt *then;
  if (lb->tot) {
    if (!(at = lb_before(lb, int_lit(0), l))) return false;
  } else {
    at = declare(tr, "at", int_type(), int_lit(0));
    branch(tr, cexp_nat_lt(nat_const(0), nat_var(l)), &then, NULL);
    tr->block = then;
    CExp *start = read(tr, lb->part, nat_sub(nat_var(l), nat_const(1)));
    if (!start) return false;
    assign(tr, var(at, int_type()), start, false);
    tr->block = body;
  }
  Nat *e;
  items(lb, l, &e);
  View *x = view_idx(tr, lb->data, e);
  CExp *c;
  if (lb->mask) {   /* bit j of the work-item's mask: kept, without reading the element */
    CExp *m = read(tr, lb->mask, nat_var(l));
    if (!m) return false;
    CExp *shifted = cexp_op(OP_LSHR, int_type(), 2, (CExp *[]){ m, cexp_nat(nat_var(lb->item)) });
    c = cmp(OP_NE, cexp_op(OP_BITAND, int_type(), 2, (CExp *[]){ shifted, int_lit(1) }), int_lit(0));
  } else c = kept(tr, p, x);
  if (!c) return false;
  branch(tr, c, &then, NULL);
  tr->block = then;
  Nat *slot = nat_var(nat_var_new(at, nat_const(0), nat_const(LB_TILE - 1)));
  if (direct) {
    Acc *out = acc_idx(data, nat_add(nat_var(before), slot));
    if (!(post ? dpia_apply_acc(tr, post, &x, out) : dpia_assign(tr, out, x, elem))) return false;
  } else if (!dpia_assign(tr, acc_idx(packed_acc, slot), x, elem)) return false;
  disjoint_from(then, 0);
  assign(tr, var(at, int_type()), cexp_op(OP_ADD, int_type(), 2, (CExp *[]){ var(at, int_type()), int_lit(1) }), false);
  tr->seq--;
  at_group(lb, group);
  if (direct) return true;
  /* the group copies them out from the tile's offset: coalesced */
  Nat *k;
  then = strided(lb, nat_var(in_tile), &k);
  View *y = view_idx(tr, packed, k);
  Acc *dst = acc_idx(data, nat_add(nat_var(before), k));
  bool ok = post ? dpia_apply_acc(tr, post, &y, dst) : dpia_assign(tr, dst, y, elem);
  disjoint_from(then, 0);
  tr->seq--;
  at_group(lb, group);
  return ok;
}

bool dpia_filter_single_pass(Tr *tr, Expr *p, Expr *post, View *xs, Type *elem, Nat *n, Acc *out) {
  lb_configure();
  Acc *data = exists_accept(tr, out, n);
  if (!data) return false;
  Lb lb = { .tr = tr, .op = { int_type(), int_lit(0), NULL }, .n = n, .warp = warp_ok(tr) };
  KStmt *group = lb_begin(&lb, xs, elem);
  if (!group || !lb_partials(&lb, group, p) || !look_back(&lb, group)) return false;
  CExp *pv = read(tr, lb.prefix, nat_const(0)), *kv = lb_aggregate(&lb);
  if (!pv || !kv) return false;
  NatVar *before = bind_count(tr, "before", pv, n);
  NatVar *in_tile = bind_count(tr, "in_tile", kv, nat_const(LB_TILE));
  bool ok;
  int direct = lb_direct_for(tr->gen);
  if (direct) {   /* few kept: each work-item writes its own straight out */
    KStmt *few, *many;
    branch(tr, cexp_nat_lt(nat_var(in_tile), nat_const(direct + 1LL)), &few, &many);
    ok = lb_compact(&lb, few, p, post, elem, data, before, in_tile, true) &&
         lb_compact(&lb, many, p, post, elem, data, before, in_tile, false);
  } else ok = lb_compact(&lb, group, p, post, elem, data, before, in_tile, false);
  lb_end(&lb);
  if (!ok) return false;
  /* the length: the last tile's inclusive prefix (none: 0) */
  CExp *last = cexp_status_value(cexp_read(lb.status, nat_sub(lb.tiles, nat_const(1)), -1, type_scalar(TY_LONG)), int_type());
  CExp *len = NEW(CExp);
  *len = (CExp){ .kind = CE_SELECT, .type = int_type(), .n = 3, .field = -1 };
  len->args = NEW_ARRAY(CExp *, 3);
  len->args[0] = cexp_nat_lt(nat_const(0), n); len->args[1] = last; len->args[2] = int_lit(0);
  return exists_set_len(tr, out, len);
}

bool dpia_scan_single_pass(Tr *tr, Expr *f, View *init, View *xs, Type *t, Nat *n, Acc *out) {
  lb_configure();
  CExp *neutral = view_resolve(tr, init, (Path){0, NULL});
  if (!neutral) return false;
  Lb lb = { .tr = tr, .op = { t, neutral, f }, .n = n, .warp = warp_ok(tr) };
  KStmt *group = lb_begin(&lb, xs, t);
  if (!group || !lb_partials(&lb, group, NULL) || !look_back(&lb, group)) return false;
  /* every work-item rescans its elements in place from its start */
  ParLoop loop;
  NatVar *l;
  par_loop(tr, LEVEL_LCL, nat_const(LB_GROUP), &l, &loop);
  CExp *pv = read(tr, lb.prefix, nat_const(0));
  const char *acc = pv ? lb_before(&lb, pv, l) : NULL;
  if (!acc) return false;
  KStmt *then;
  CExp *c;
  Nat *e;
  items(&lb, l, &e);
  CExp *x = read(tr, lb.data, e);
  c = x ? combine(tr, &lb.op, var(acc, t), x) : NULL;
  CExp *slot = acc_resolve(tr, acc_idx(lb.data_acc, e), (Path){0, NULL});
  if (!c || !slot) return false;
  assign(tr, var(acc, t), c, false);
  assign(tr, slot, var(acc, t), false);
  tr->seq--;
  at_group(&lb, group);
  /* the group copies the tile out: coalesced */
  Nat *k;
  then = strided(&lb, lb.count, &k);
  bool ok = dpia_assign(tr, acc_idx(out, nat_add(lb.from, k)), view_idx(tr, lb.data, k), t);
  disjoint_from(then, 0);
  tr->seq--;
  lb_end(&lb);
  return ok;
}
