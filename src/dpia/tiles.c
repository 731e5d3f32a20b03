/* tiles.c — the first pass of a top-level reduce (lower.c) with the tiles
   inside the input read unchecked, on the device targets:

     mapWrg (group-reduce) (split #C (padConstant #0 #P init xs)),  xs : [T]n

   reads element k of the padded array as (k < n ? xs[k] : init) (view.c,
   V_PADC), in every tile, though only the last one, n / C, can reach the
   padding. Behind that check NVRTC issues a work-item's loads one at a time,
   each after the one before is used (asum 2^24 at 88–89% of copy bandwidth
   on an H100; dot, two loads a check, at 99%). So in the tile's body the map
   that reads the input (the mapLcl over the work-items' strided columns) is
   written twice,

     for wid:  if (wid < n / C)  for lid: … xs[k] …            (wid's range narrowed:
               else              for lid: … k < n ? xs[k] : init    every check proved)
               barrier; the pairwise tree in local memory, once

   The condition is the same for every work-item of a group and no barrier is
   inside either copy (PoCL 3.1 corrupts its heap running a loop whose if and
   else both hold barriers, so the tile's whole body is not copied). The loops,
   the work-groups and work-items their iterations run on, and the order in
   which each work-item reads and combines its elements are those of the one
   copy: asum and sum give the same bits (ints are exact anyway); where the
   element is a product (dot), the compilers now contract it and the addition
   into an fma, no select being between them. Device targets only (c/openmp
   keep one copy, as their CPUs gain nothing from it). CLIFT_REDUCE_GUARD=1 in
   the environment of the clift that generates the code gives the former
   form, every read checked, for comparison (bench/gpu/asum_2027.sh). */
#include "dpia.h"
#include "../util/switches.h"

static bool guard_every_tile(void) { return switch_value(SW_REDUCE_GUARD); }

/* xs = split #C (padConstant #0 #P c ys): *chunk = C, *padded the pad. */
static bool padded_tiles(View *xs, Nat **chunk, View **padded) {
  long long left;
  if (!xs || xs->kind != V_SPLIT || !xs->a) return false;
  View *p = xs->kids[0];
  if (!p || p->kind != V_PADC || !nat_is_const(p->a, &left) || left != 0) return false;
  *chunk = xs->a;
  *padded = p;
  return true;
}

bool dpia_map_tiles(Tr *tr, Expr *e, View *xs, PrimLevel level, int dim, Acc *out, bool *done) {
  *done = false;
  Nat *chunk;
  View *padded;
  if (!e->full_tiles || level != LEVEL_WRG || !tr->gen || !tr->gen->device || guard_every_tile() ||
      !padded_tiles(xs, &chunk, &padded))
    return true;
  Nat *count = type_len(e->kids[1]->type), *full = nat_div(padded->c, chunk);
  if (nat_proves_le(count, full) || nat_proves_le(full, nat_const(0))) return true;   /* one form only */
  /* the copy pays only where the arithmetic module proves a full tile inside
     (not for a filter's run-time length, whose range it cannot relate) */
  NatVar *t = nat_var_new("t", nat_const(0), nat_sub(full, nat_const(1)));
  if (!nat_proves_le(nat_mul(nat_add(nat_var(t), nat_const(1)), chunk), padded->c)) return true;
  *done = true;
  NatVar *wid;
  KStmt *saved = tr->block;
  tr->block = dpia_loop(tr, level, dim, count, &wid);
  ParLoop loop = { wid, count, level, tr->par, dim, saved->stmts[saved->n - 1] };
  TileReads tile = { wid, full, padded }, *outer = tr->tile;
  tr->par = &loop;
  tr->tile = &tile;
  View *x = view_idx(tr, xs, nat_var(wid));
  bool ok = x && dpia_apply_acc(tr, e->kids[0], &x, acc_idx(out, nat_var(wid)));
  tr->tile = outer;
  tr->par = loop.outer;
  tr->block = saved;
  return ok;
}

static bool holds(View *v, View *target, int depth) {
  if (!v || depth > 64) return false;
  if (v == target) return true;
  for (int i = 0; i < v->n; i++) if (holds(v->kids[i], target, depth + 1)) return true;
  return false;
}

bool dpia_map_tile_reads(Tr *tr, Expr *e, View *xs, PrimLevel level, int dim, Acc *out, bool *done) {
  *done = false;
  TileReads *tile = tr->tile;
  if (!tile || !holds(xs, tile->padded, 0)) return true;
  *done = true;
  KStmt *saved = tr->block, *branch = kstmt_if(cexp_nat_lt(nat_var(tile->wid), tile->full), NULL, NULL);
  kstmt_add(saved, branch);
  tr->tile = NULL;   /* the maps inside: one copy each */
  /* in the first copy wid < n / C: the range the arithmetic module proves the
     checks with (the nats it builds there keep what it proved; the second
     copy and everything after see the whole range again) */
  Nat *hi = tile->wid->hi;
  tile->wid->hi = nat_sub(tile->full, nat_const(1));
  tr->block = branch->then_;
  Nat *all = type_len(e->kids[1]->type);
  bool ok = dpia_map_range_dim(tr, e, xs, level, dim, nat_const(0), all, out);
  tile->wid->hi = hi;
  tr->block = branch->else_;
  ok = ok && dpia_map_range_dim(tr, e, xs, level, dim, nat_const(0), all, out);
  tr->block = saved;
  tr->tile = tile;
  return ok;
}
