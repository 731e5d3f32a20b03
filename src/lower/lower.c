/* lower.c — the default strategy of a top-level `reduce init f xs` (SPEC
   §4.2: "a two-kernel tree reduction at top level"), written in the language
   itself so that every backend compiles it like any user strategy:

     partials = join (mapWrg (group-reduce) (split #C (padConstant #0 #P init xs)))
     result   = join (mapWrg (group-reduce) (split #G' (padConstant #0 #P' init partials)))

     group-reduce chunk =
       x0 = join (toLocal (mapLcl (λcol. reduceSeq init f col)) (transpose (split #L chunk)))
       x1 = join (toLocal (mapLcl (λpair. reduceSeq init f pair)) (split #2 x0))
       …  (log2 L halvings, each in local memory, a barrier between them)

   Each of the L work-items of a group first reduces a strided column of its
   chunk (neighbouring work-items read neighbouring elements), then the L
   results are combined pairwise in local memory. Padding with `init` makes any
   length a multiple of the chunk, which is why a parallel reduce needs `f`
   associative and `init` its neutral element (as in Lift). */
#include "lower.h"
#include "../prim/prim.h"
#include "../types/infer.h"

enum { LOCAL_SIZE = 256 };   /* C (lower_program's chunk) elements per work-group */

static Expr *prim(const char *name, int n, Expr **kids, Loc loc) {
  Expr *e = expr_new(EX_PRIM, loc, n);
  e->prim = prim_lookup(name);
  for (int i = 0; i < n; i++) e->kids[i] = kids[i];
  return e;
}

static Expr *size(Nat *n, Loc loc) { Expr *e = expr_new(EX_NAT, loc, 0); e->nat = n; return e; }

/* λv. body(v) with a fresh binder */
static Expr *lambda(const char *name, Expr *(*body)(Expr *v, void *ctx), void *ctx, Loc loc) {
  Expr *lam = expr_new(EX_LAMBDA, loc, 1);
  lam->nparams = 1;
  lam->params = NEW_ARRAY(Param, 1);
  lam->params[0] = (Param){ name, ast_fresh_uid(), loc, NULL };
  Expr *v = expr_new(EX_VAR, loc, 0);
  v->name = name; v->uid = lam->params[0].uid;
  lam->kids[0] = body(v, ctx);
  return lam;
}

typedef struct Reduce { Expr *init, *f; Loc loc; } Reduce;

static Expr *reduce_seq(Reduce *r, Expr *xs) { return prim("reduceSeq", 3, (Expr *[]){ r->init, r->f, xs }, r->loc); }
static Expr *row_reduce(Expr *row, void *r) { return reduce_seq(r, row); }
static Expr *map_local(Expr *rows, void *r) {
  Expr *fn = lambda("row", row_reduce, r, ((Reduce *)r)->loc);
  return prim("mapLcl", 2, (Expr *[]){ fn, rows }, ((Reduce *)r)->loc);
}

/* One step in local memory: join (toLocal (mapLcl g) xs), g reducing one row. */
static Expr *local_step(Reduce *r, Expr *rows) {
  Loc loc = r->loc;
  Expr *local = prim("toLocal", 2, (Expr *[]){ lambda("rows", map_local, r, loc), rows }, loc);
  return prim("join", 1, (Expr *[]){ local }, loc);
}

/* L values → one: pairwise halvings, a tree in local memory. */
static Expr *halvings(Reduce *r, Expr *x) {
  for (int n = LOCAL_SIZE; n > 1; n /= 2)
    x = local_step(r, prim("split", 2, (Expr *[]){ size(nat_const(2), r->loc), x }, r->loc));
  return x;
}

static Expr *group_reduce(Expr *chunk, void *ctx) {
  Reduce *r = ctx;
  Loc loc = r->loc;
  Expr *cols = prim("transpose", 1, (Expr *[]){ prim("split", 2, (Expr *[]){ size(nat_const(LOCAL_SIZE), loc), chunk }, loc) }, loc);
  return halvings(r, local_step(r, cols));
}

/* One level: [T]n padded to `padded` (a multiple of `chunk`) → one result per
   chunk. `full_tiles`: the chunks inside xs are read without the padding's
   check on the device targets (dpia/tiles.c). */
static Expr *level(Reduce *r, Expr *xs, Nat *n, Nat *padded, Nat *chunk, bool full_tiles) {
  Loc loc = r->loc;
  Nat *pad = nat_sub(padded, n);
  long long p;
  if (!nat_is_const(pad, &p) || p != 0)
    xs = prim("padConstant", 4, (Expr *[]){ size(nat_const(0), loc), size(pad, loc), r->init, xs }, loc);
  Expr *chunks = prim("split", 2, (Expr *[]){ size(chunk, loc), xs }, loc);
  Expr *groups = prim("mapWrg", 2, (Expr *[]){ lambda("chunk", group_reduce, r, loc), chunks }, loc);
  groups->full_tiles = full_tiles;
  return prim("join", 1, (Expr *[]){ groups }, loc);
}

/* Can the host size the partials of a tree over n? Not when n is the length
   of an (iota k) with k computed at run time (a rigid length with no upper
   bound, types/exists.c): such a reduce stays sequential. */
static bool bounded(Nat *n, Program *p) {
  int nv;
  NatVar **vars = nat_free_var_list(n, &nv);
  for (int i = 0; i < nv; i++) {
    bool size = false;
    for (int k = 0; k < p->nsizes; k++) size |= vars[i] == p->sizes[k];
    if (!size && !vars[i]->hi) return false;
  }
  return true;
}

static bool lowerable(Expr *e, Program *p) {
  if (e->kind != EX_PRIM || !e->prim->tree_reduce) return false;
  Type *acc = e->kids[0]->type, *xs = e->kids[2]->type;
  /* empty, or of a length bounded by 0 (a filter of an empty array): init, sequentially */
  if (xs->kind == TY_ARRAY && nat_proves_le(xs->len, nat_const(0))) return false;
  return xs->kind == TY_ARRAY && !xs->index && type_equal(acc, xs->elem) && prim_is_monoid(e->kids[1], e->kids[0]) &&
         (type_is_scalar(acc) || acc->kind == TY_VECTOR) && bounded(xs->len, p);
}

static Expr *tree_reduce(Expr *e, int chunk_size) {
  Reduce r = { e->kids[0], e->kids[1], e->loc };
  Reduce *rp = NEW(Reduce);
  *rp = r;
  Nat *n = e->kids[2]->type->len;
  Nat *chunk = nat_const(chunk_size);
  Nat *groups = nat_div(nat_add(n, nat_sub(chunk, nat_const(1))), chunk);
  Expr *partials = level(rp, e->kids[2], n, nat_mul(groups, chunk), chunk, true);
  /* the partials, padded to a multiple of L, are one chunk for one group
     (one tile, its one copy checked: the pass is short and latency-bound) */
  Nat *last = nat_mul(nat_div(nat_add(groups, nat_const(LOCAL_SIZE - 1)), nat_const(LOCAL_SIZE)), nat_const(LOCAL_SIZE));
  Expr *result = level(rp, partials, groups, last, last, false);
  result->kids[0]->last_group = true;   /* join (mapWrg …): may run in the first pass's kernel (dpia/last_group.c) */
  return result;
}

/* Rewrite top-level reduces; copy-on-write so that p's tree stays intact. */
/* A `reduce` that is the whole body of a mapWrg function runs on the
   work-group: its work-items share it (strided columns, then the pairwise tree
   in local memory), padded with init to a multiple of the group size. */
static Expr *work_group_body(Expr *wrg, Program *prog) {
  Expr *lam = wrg->kids[0], *red = lam->kids[0];
  /* over the rows of a position-dependent array a length that depends on
     the row's position would make the padding a size of that position, which
     re-typing renames: such a reduce stays the work-group's sequential one (a
     work-item per group); a length free of the position (the 256 partials of
     trmv_upper_wrg.lift) gets the tree */
  if (!lowerable(red, prog) || (lam->index && type_mentions(red->kids[2]->type, lam->index))) return wrg;
  Reduce *r = NEW(Reduce);
  *r = (Reduce){ red->kids[0], red->kids[1], red->loc };
  Nat *n = red->kids[2]->type->len, *l = nat_const(LOCAL_SIZE);
  Nat *pad = nat_sub(nat_mul(nat_div(nat_add(n, nat_const(LOCAL_SIZE - 1)), l), l), n);
  Expr *xs = red->kids[2];
  long long p;
  if (!nat_is_const(pad, &p) || p != 0)
    xs = prim("padConstant", 4, (Expr *[]){ size(nat_const(0), red->loc), size(pad, red->loc), r->init, xs }, red->loc);
  Expr *lam2 = expr_new(EX_LAMBDA, lam->loc, 1);
  Expr **kids = lam2->kids;
  *lam2 = *lam;
  lam2->kids = kids;
  long long len;
  /* exactly L values (the partials of trmv_upper_wrg.lift): no strided step */
  lam2->kids[0] = nat_is_const(n, &len) && len == LOCAL_SIZE ? halvings(r, xs) : group_reduce(xs, r);
  Expr *copy = prim(wrg->prim->name, 2, (Expr *[]){ lam2, wrg->kids[1] }, wrg->loc);
  copy->prim = wrg->prim;
  return copy;
}

/* Whether e names the binder `uid` (a variable, a length in a size) or the
   position variable `index`. */
static bool names(Expr *e, int uid, NatVar *index) {
  if (!e) return false;
  if (e->kind == EX_VAR && e->uid == uid) return true;
  for (int i = 0; i < e->nrefs; i++) if (e->refs[i].uid == uid) return true;
  if (index && ((e->nat && nat_mentions(e->nat, index)) || (e->type && type_mentions(e->type, index)))) return true;
  for (int i = 0; i < e->nkids; i++) if (names(e->kids[i], uid, index)) return true;
  return false;
}

static bool is_prim(Expr *e, const char *name) { return e->kind == EX_PRIM && e->prim == prim_lookup(name); }

/* (join (map (λr. (map g r)) xs)), xs position-dependent and g free of r and of
   its position: (map g (join xs)). The join of a triangle's rows of a lazy map
   is no view (an element's row has no closed form), so it was written whole to
   a temporary, every element's checks run even for those nobody reads (F46);
   the join of xs itself is its flat storage, and g applies where an element is
   read. Not for at most 8 rows known when compiling (unrolled sections, issue 12:
   no temporary there). */
static Expr *join_of_row_maps(Expr *e) {
  if (!is_prim(e, "join") || e->nkids != 1) return e;
  Expr *m = e->kids[0];
  if (!is_prim(m, "map") || m->nkids != 2 || m->kids[0]->kind != EX_LAMBDA) return e;
  Expr *lam = m->kids[0], *xs = m->kids[1], *inner = lam->kids[0];
  if (lam->nparams != 1 || !xs->type || xs->type->kind != TY_ARRAY || !xs->type->index) return e;
  long long rows;   /* at most 8 rows known when compiling: unrolled into sections, each its own view (dpia/position.c) */
  if (nat_is_const(xs->type->len, &rows) && rows <= 8) return e;
  if (!is_prim(inner, "map") || inner->nkids != 2) return e;
  Expr *g = inner->kids[0], *row = inner->kids[1];
  if (row->kind != EX_VAR || row->uid != lam->params[0].uid || names(g, lam->params[0].uid, lam->index)) return e;
  Expr *joined = prim("join", 1, (Expr *[]){ xs }, e->loc);
  return prim("map", 2, (Expr *[]){ g, joined }, e->loc);
}

static Expr *lower_expr(Expr *e, Program *p, int chunk) {
  if (lowerable(e, p)) return tree_reduce(e, chunk);
  Expr *j = join_of_row_maps(e);
  if (j != e) return lower_expr(j, p, chunk);
  if (e->kind == EX_PRIM && e->prim->level == LEVEL_WRG && e->kids[0]->kind == EX_LAMBDA) {
    Expr *w = work_group_body(e, p);
    if (w != e) {
      Expr *arr = lower_expr(w->kids[1], p, chunk);
      w->kids[1] = arr;
      return w;
    }
  }
  if (e->kind != EX_PRIM && e->kind != EX_LET && e->kind != EX_IF && e->kind != EX_UNPACK && e->kind != EX_PACK) return e;
  Expr *copy = NULL;
  for (int i = 0; i < e->nkids; i++) {
    if (e->kids[i]->kind == EX_LAMBDA) continue;   /* inside a function: a per-thread reduce */
    Expr *k = lower_expr(e->kids[i], p, chunk);
    if (k == e->kids[i]) continue;
    if (!copy) {
      copy = expr_new(e->kind, e->loc, e->nkids);
      Expr **kids = copy->kids;
      *copy = *e;
      copy->kids = kids;
      for (int j = 0; j < e->nkids; j++) copy->kids[j] = e->kids[j];
    }
    copy->kids[i] = k;
  }
  return copy ? copy : e;
}

Program *lower_program(Program *p, int chunk) {
  Expr *body = lower_expr(p->body, p, chunk);
  if (body == p->body) return p;
  Program *q = NEW(Program);
  *q = *p;
  q->body = body;
  q->checks = NULL;
  return infer_program(q) ? q : NULL;
}
