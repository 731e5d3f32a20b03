/* rules_map.c — DPIA rules of the function-taking primitives (seed 004,
   Fig. 5): maps become loops at their level (stage II: mapI → parfor/for),
   reductions a private accumulator and a sequential loop, toX chooses where a
   materialised result lives. */
#include "dpia.h"
#include "../prim/rules.h"

/* Strategy-free `map`/`reduce` get the default strategy (SPEC §4.2): the
   outermost map is parallel (mapGlb), everything inside a parallel or a
   sequential loop is sequential (a map inside a top-level reduceSeq runs in
   the reduction's one thread). */
static PrimLevel level_of(Tr *tr, const Prim *p) {
  if (p->level != LEVEL_LAZY) return p->level;
  return tr->par || tr->seq ? LEVEL_SEQ : LEVEL_GLB;
}

/* The acceptor for x such that writing x into it writes `body` (a pure layout
   of the parameter x) into `out`; NULL when body is anything else. This is
   DPIA's mapAcc: a lazy map of join/split/transpose/… is written by
   transforming the acceptor, never by a copy loop (seed 004, §5). Each
   layout's inverse is its row's dpia_inv. */
static Acc *invert_layout(Expr *body, int param, Acc *out) {
  if (body->kind == EX_VAR) return body->uid == param ? out : NULL;
  if (body->kind != EX_PRIM || !body->prim->dpia_inv) return NULL;
  Acc *a = body->prim->dpia_inv(body, out);
  return a ? invert_layout(body->kids[body->nkids - 1], param, a) : NULL;
}

/* A lazy map of a layout: element by element through a template whose hole
   stands for the element. */
Acc *inv_map(Expr *e, Acc *out) {
  if (e->kids[0]->kind != EX_LAMBDA) return NULL;
  Acc *a = acc_new(AC_MAP, e->kids[1]->type, out);
  Acc *hole = acc_new(AC_HOLE, e->type->elem, NULL);
  hole->map = a;
  Expr *lam = e->kids[0];
  return (a->tmpl = invert_layout(lam->kids[0], lam->params[0].uid, hole)) ? a : NULL;
}

/* A map over a position-dependent array of a few rows known at compile time
   ((partition #3 (case-split …)), seed 002 §6.2) is unrolled: one code
   section per row, each with the row's own sizes, so that the arithmetic
   module settles each section's bounds (no clamp left in the body of a
   peeled stencil). Only a sequential map, or a strategy-free one (the
   sections are no loop: the maps inside keep the level the default strategy
   gives them); unrolling a constant-count sequential loop keeps the
   strategy (SPEC §4.2). */
enum { UNROLLED_PARTS_MAX = 8 };

static bool unrolled_parts(Tr *tr, Expr *e, long long *parts) {
  Type *t = e->kids[1]->type;
  return t->kind == TY_ARRAY && t->index && nat_is_const(t->len, parts) && *parts <= UNROLLED_PARTS_MAX &&
         (e->prim->level == LEVEL_LAZY || level_of(tr, e->prim) == LEVEL_SEQ);
}

static bool acc_map_unrolled(Tr *tr, Expr *e, View *xs, long long parts, Acc *out) {
  for (long long k = 0; k < parts; k++) {
    View *x = view_idx(tr, xs, nat_const(k));
    if (!dpia_apply_acc(tr, e->kids[0], &x, acc_idx(out, nat_const(k)))) return false;
  }
  return true;
}

/* A lazy map of padConstant over a layout of its parameter, written into out:
   map (λx. padConstant l r c (L x)) xs, c not mentioning x (a padded local
   tile whose rows a mapLcl nest writes through L, bench/gpu/transpose_4.lift).
   The rows' borders get c in a loop over the rows at the level a copy has here
   (the work-items of a group share it at work-group level), then xs is written
   through the template "offset by l, then L⁻¹", as a lazy map of a layout is:
   no copy of xs. *done false: not of that form, nothing emitted. */
static bool acc_map_pad_constant(Tr *tr, Expr *e, Acc *out, bool *done) {
  Expr *lam = e->kids[0], *pad = lam->kids[0];
  *done = false;
  if (pad->kind != EX_PRIM || pad->prim->dpia_acc != acc_pad_constant) return true;
  Expr *c = pad->kids[2];
  bool literal = c->kind == EX_INT || c->kind == EX_LONG || c->kind == EX_BOOL || c->kind == EX_FLOAT || c->kind == EX_DOUBLE;
  if (!literal && !(c->kind == EX_VAR && c->uid != lam->params[0].uid)) return true;
  Acc *m = acc_new(AC_MAP, e->kids[1]->type, out);
  Acc *hole = acc_new(AC_HOLE, e->type->elem, NULL);
  hole->map = m;
  Acc *inner = acc_new(AC_OFFSET, pad->kids[3]->type, hole);
  inner->a = pad->kids[0]->nat;
  if (!(m->tmpl = invert_layout(pad->kids[3], lam->params[0].uid, inner))) return true;
  *done = true;
  View *cv = dpia_exp(tr, c);
  if (!cv) return false;
  PrimLevel level = tr->par && tr->par->level == LEVEL_WRG ? LEVEL_LCL : tr->par || tr->seq ? LEVEL_SEQ : LEVEL_GLB;
  Nat *rows = type_len(e->type);
  NatVar *i;
  KStmt *saved = tr->block;
  tr->block = dpia_loop(tr, level, 0, rows, &i);
  if (level == LEVEL_LCL) saved->stmts[saved->n - 1]->unsized = true;   /* the data's loops size the work-group */
  ParLoop loop = { i, rows, level, tr->par, 0, saved->stmts[saved->n - 1] };
  if (level != LEVEL_SEQ) tr->par = &loop; else tr->seq++;
  bool ok = dpia_write_borders(tr, acc_idx(out, nat_var(i)), pad->kids[0]->nat, type_len(pad->kids[3]->type),
                               pad->kids[1]->nat, cv, c->type);
  if (level != LEVEL_SEQ) tr->par = loop.outer; else tr->seq--;
  tr->block = saved;
  return ok && dpia_acc(tr, e->kids[1], m);
}

bool acc_map(Tr *tr, Expr *e, Acc *out) {
  Expr *lam = e->kids[0];
  if (e->prim->level == LEVEL_LAZY && !lam->index) {
    Acc *hole = acc_new(AC_HOLE, lam->type, NULL);
    Acc *m = acc_new(AC_MAP, e->kids[1]->type, out);
    hole->map = m;
    if ((m->tmpl = invert_layout(lam->kids[0], lam->params[0].uid, hole))) return dpia_acc(tr, e->kids[1], m);
    bool padded, ok = acc_map_pad_constant(tr, e, out, &padded);
    if (padded) return ok;
  }
  View *xs = dpia_exp(tr, e->kids[1]);
  if (!xs) return false;
  long long parts;
  if (unrolled_parts(tr, e, &parts)) return acc_map_unrolled(tr, e, xs, parts, out);
  PrimLevel level = level_of(tr, e->prim);
  int dim = e->prim->dim;
  if (e == tr->grid_inner) {   /* the inner map of a 2-D nest: the grid's dimension 0 */
    tr->grid_inner = NULL;
    level = LEVEL_GLB; dim = 0;
  } else if (tr->k->prog->grid2d && e->prim->level == LEVEL_LAZY && level == LEVEL_GLB && !tr->par
             && lam->kind == EX_LAMBDA && lam->kids[0]->kind == EX_PRIM && lam->kids[0]->prim == e->prim) {
    tr->grid_inner = lam->kids[0];   /* Program.grid2d: mapGlb1 over mapGlb */
    dim = 1;
  }
  bool peeled, tiled;
  if (!dpia_map_tiles(tr, e, xs, level, dim, out, &tiled)) return false;
  if (!tiled && !dpia_map_tile_reads(tr, e, xs, level, dim, out, &tiled)) return false;
  if (tiled) return true;
  if (!dpia_peel(tr, e, xs, level, out, &peeled)) return false;
  if (peeled) return true;
  bool ok = dpia_map_range_dim(tr, e, xs, level, dim, nat_const(0), type_len(e->kids[1]->type), out);
  if (dim == 1 && e->prim->dim != 1) tr->grid_inner = NULL;   /* the inner map was not written as a loop */
  return ok;
}

bool dpia_map_range(Tr *tr, Expr *e, View *xs, PrimLevel level, Nat *from, Nat *count, Acc *out) {
  return dpia_map_range_dim(tr, e, xs, level, e->prim->dim, from, count, out);
}

bool dpia_map_range_dim(Tr *tr, Expr *e, View *xs, PrimLevel level, int dim, Nat *from, Nat *count, Acc *out) {
  if (level == LEVEL_SEQ && !(xs = dpia_force(tr, xs, count))) return false;
  NatVar *i;
  KStmt *saved = tr->block;
  tr->block = dpia_loop(tr, level, dim, count, &i);
  ParLoop loop = { i, count, level, tr->par, dim, saved->stmts[saved->n - 1] };
  if (level == LEVEL_WRG && e->last_group && !tr->par) loop.loop->last_group = true;
  if (level != LEVEL_SEQ) tr->par = &loop; else tr->seq++;
  Nat *at = nat_add(from, nat_var(i));
  View *x = dpia_arg_at(tr, e->kids[0], 0, xs, at);
  bool ok = dpia_apply_acc(tr, e->kids[0], &x, acc_idx(out, at));
  tr->par = loop.outer;
  if (level == LEVEL_SEQ) tr->seq--;
  tr->block = saved;
  return ok;
}

View *exp_map_lazy(Tr *tr, Expr *e) {
  View *xs = dpia_exp(tr, e->kids[1]);
  if (!xs) return NULL;
  View *v = view_new(V_MAP, e->type, 1);
  v->kids[0] = xs; v->fn = e->kids[0]; v->env = tr->env;
  return v;
}

/* Does e read the part of variable x that aliases the accumulator: all of x
   (field < 0), or its field `field` (x a tuple from a zip holding the
   accumulator)? (get k x) of another field does not count. */
static bool reads_alias(Expr *e, int x, int field) {
  if (e->kind == EX_VAR) return e->uid == x;
  if (field >= 0 && e->kind == EX_PRIM && e->prim->dpia_exp == exp_get && e->kids[e->nkids - 1]->kind == EX_VAR &&
      e->kids[e->nkids - 1]->uid == x)
    return dpia_get_field(e) == field;
  for (int i = 0; i < e->nkids; i++) if (reads_alias(e->kids[i], x, field)) return true;
  return false;
}

static bool is_alias(Expr *e, int x, int field) {
  if (field < 0) return e->kind == EX_VAR && e->uid == x;
  return e->kind == EX_PRIM && e->prim->dpia_exp == exp_get && e->kids[e->nkids - 1]->kind == EX_VAR &&
         e->kids[e->nkids - 1]->uid == x && dpia_get_field(e) == field;
}

/* Can `body` be written straight into the accumulator's storage, where x
   (field: its aliased part) holds the old value at the same place? Yes when
   body does not read the alias; when it is a scalar (one assignment, read
   before written); through lets that do not read it; and for a map, over the
   alias or a zip holding it, whose function does not read it otherwise and is
   itself element-wise in its parameter. */
static bool elementwise(Expr *body, int x, int field) {
  if (!reads_alias(body, x, field) || type_is_value(body->type)) return true;
  if (body->kind == EX_LET) return !reads_alias(body->kids[0], x, field) && elementwise(body->kids[1], x, field);
  /* a sequential reduction starting from the alias, under a join of its
     one-element result: fold copies its initial value into an accumulator of
     its own before anything is written (the register block of a tiled sgemm) */
  Expr *r = body->kind == EX_PRIM && body->prim->dpia_exp == exp_join ? body->kids[0] : body;
  if (r->kind == EX_PRIM && r->prim->dpia_exp == exp_reduce)
    return !reads_alias(r->kids[1], x, field) && !reads_alias(r->kids[2], x, field);
  if (body->kind != EX_PRIM || body->prim->dpia_acc != acc_map) return false;
  Expr *lam = body->kids[0], *xs = body->kids[1];
  if (lam->kind != EX_LAMBDA || reads_alias(lam, x, field)) return false;
  if (is_alias(xs, x, field)) return elementwise(lam->kids[0], lam->params[0].uid, -1);
  if (xs->kind != EX_PRIM || xs->prim->dpia_acc != acc_zip) return false;
  int at = -1;
  for (int i = 0; i < xs->nkids; i++) {
    if (is_alias(xs->kids[i], x, field)) { if (at >= 0) return false; at = i; }
    else if (reads_alias(xs->kids[i], x, field)) return false;
  }
  return at >= 0 && elementwise(lam->kids[0], lam->params[0].uid, at);
}

/* Can `acc := f acc x` write the accumulator while reading it? Only when every
   element is read just to write that same element (elementwise); otherwise
   (a tuple whose second field reads the first, a shift) the new value is
   computed into a temporary first. */
static bool updates_in_place(Expr *f, Type *t) {
  return type_is_value(t) || elementwise(f->kids[0], f->params[0].uid, -1);
}

/* One accumulator, one loop; `keep` receives every intermediate (scan). */
static View *fold(Tr *tr, Expr *e, Acc *keep) {
  View *init = dpia_exp(tr, e->kids[0]);
  View *xs = init ? dpia_exp(tr, e->kids[2]) : NULL;
  if (!xs) return NULL;
  Type *t = e->kids[0]->type;
  View *accv; Acc *acca;
  /* An array accumulator at work-group level (inside a mapWrg, outside any
     mapLcl) belongs to the whole group: its update's mapLcl partitions it
     between the work-items. It lives in local memory, initialised and
     updated by mapLcl loops (barriers where they are needed); issue 14 makes
     it registers. */
  bool group = tr->par && tr->par->level == LEVEL_WRG && t->kind == TY_ARRAY;
  Partition part;
  bool regs = group && !keep && dpia_partition_of(tr, e->kids[1], t, &part);   /* privatise.c */
  if (regs) dpia_new_partitioned(tr, t, &part, &accv, &acca);
  else dpia_new(tr, t, group ? SPACE_LOCAL : SPACE_PRIVATE, &accv, &acca);
  if (!(regs ? dpia_assign_partitioned(tr, acca, init, t, &part) :
        group ? dpia_assign_shared(tr, acca, init, t) : dpia_assign(tr, acca, init, t))) return NULL;
  if (!(xs = dpia_force(tr, xs, type_len(e->kids[2]->type)))) return NULL;
  NatVar *i;
  KStmt *saved = tr->block;
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, type_len(e->kids[2]->type), &i);
  View *args[2] = { accv, dpia_arg_at(tr, e->kids[1], 1, xs, nat_var(i)) };
  bool ok;
  tr->seq++;
  if (updates_in_place(e->kids[1], t)) {
    ok = dpia_apply_acc(tr, e->kids[1], args, acca);
  } else {
    View *nextv; Acc *nexta;
    if (regs) dpia_new_partitioned(tr, t, &part, &nextv, &nexta);
    else dpia_new(tr, t, group ? SPACE_LOCAL : SPACE_PRIVATE, &nextv, &nexta);
    ok = dpia_apply_acc(tr, e->kids[1], args, nexta) &&
         (regs ? dpia_assign_partitioned(tr, acca, nextv, t, &part) :
          group ? dpia_assign_shared(tr, acca, nextv, t) : dpia_assign(tr, acca, nextv, t));
  }
  ok = ok && (!keep || dpia_assign(tr, acc_idx(keep, nat_var(i)), accv, t));
  tr->seq--;
  tr->block = saved;
  if (ok && regs && tr->gen->priv_copy_out) {   /* its readers after the loop see local memory (privatise.c) */
    View *lv; Acc *la;
    dpia_new(tr, t, SPACE_LOCAL, &lv, &la);
    ok = dpia_assign_partitioned(tr, la, accv, t, &part);
    accv = lv;
  }
  return ok ? accv : NULL;
}

View *exp_reduce(Tr *tr, Expr *e) {
  View *acc = fold(tr, e, NULL);
  if (!acc) return NULL;
  View *one = view_new(V_ONE, e->type, 1);
  one->kids[0] = acc;
  return one;
}

/* acc := f acc x, a value (scalar or vector). */
static bool fold_step(Tr *tr, Expr *f, View *acc, Acc *acc_out, View *x, Type *t) {
  View *args[2] = { acc, x };
  View *r = dpia_apply(tr, f, args);
  return r && dpia_assign(tr, acc_out, r, t);
}

/* One chunk folded from `start`, every intermediate into keep (or none). */
static bool fold_chunk(Tr *tr, Expr *e, View *xs, Nat *from, Nat *count, View *start, View **accv, Acc *keep) {
  Type *t = e->kids[0]->type;
  Acc *acca;
  dpia_new(tr, t, SPACE_PRIVATE, accv, &acca);
  if (!dpia_assign(tr, acca, start, t)) return false;
  NatVar *j;
  KStmt *saved = tr->block;
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, count, &j);
  tr->seq++;
  Nat *at = nat_add(from, nat_var(j));
  bool ok = fold_step(tr, e->kids[1], *accv, acca, dpia_arg_at(tr, e->kids[1], 1, xs, at), t) &&
            (!keep || dpia_assign(tr, acc_idx(keep, at), *accv, t));
  tr->seq--;
  tr->block = saved;
  return ok;
}

/* The strategy-free scan of values at the top of a program, in parallel (as
   the tree reduction, f associative and init its neutral element): every
   chunk folds its elements from init; one thread scans those partials into
   each chunk's starting value; every chunk scans its elements from there.
   Three parallel-or-single steps whatever n (docs/design.md §11). */
static bool scan_parallel(Tr *tr, Expr *e, Acc *out) {
  View *init = dpia_exp(tr, e->kids[0]);
  View *xs = init ? dpia_exp(tr, e->kids[2]) : NULL;
  if (!xs) return false;
  Type *t = e->kids[0]->type;
  Nat *n = type_len(e->kids[2]->type), *chunks = dpia_chunks(n);
  View *partials, *starts; Acc *partials_acc, *starts_acc;
  dpia_new(tr, type_array(t, chunks), SPACE_GLOBAL, &partials, &partials_acc);
  dpia_new(tr, type_array(t, chunks), SPACE_GLOBAL, &starts, &starts_acc);
  KStmt *top = tr->block;
  NatVar *c; Nat *from, *count; ParLoop loop;
  View *acc;
  tr->block = dpia_chunk_loop(tr, n, &c, &from, &count, &loop);
  tr->par = &loop;
  bool ok = fold_chunk(tr, e, xs, from, count, init, &acc, NULL) && dpia_assign(tr, acc_idx(partials_acc, nat_var(c)), acc, t);
  tr->par = loop.outer;
  tr->block = top;
  NatVar *k;
  View *run; Acc *run_acc;
  dpia_new(tr, t, SPACE_PRIVATE, &run, &run_acc);
  ok = ok && dpia_assign(tr, run_acc, init, t);
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, chunks, &k);
  tr->seq++;
  ok = ok && dpia_assign(tr, acc_idx(starts_acc, nat_var(k)), run, t) &&
       fold_step(tr, e->kids[1], run, run_acc, view_idx(tr, partials, nat_var(k)), t);
  tr->seq--;
  tr->block = top;
  tr->block = dpia_chunk_loop(tr, n, &c, &from, &count, &loop);
  tr->par = &loop;
  ok = ok && fold_chunk(tr, e, xs, from, count, view_idx(tr, starts, nat_var(c)), &acc, out);
  tr->par = loop.outer;
  tr->block = top;
  return ok;
}

bool acc_scan(Tr *tr, Expr *e, Acc *out) {
  Type *xs = e->kids[2]->type;
  if (e->prim->level == LEVEL_LAZY && !tr->par && !tr->seq && type_is_value(e->kids[0]->type) &&
      prim_is_monoid(e->kids[1], e->kids[0]) &&
      xs->kind == TY_ARRAY && !xs->index && type_equal(e->kids[0]->type, xs->elem)) {
    if (tr->gen->single_pass && dpia_single_pass_fits(xs->elem, xs->elem, false)) {
      View *init = dpia_exp(tr, e->kids[0]);
      View *v = init ? dpia_exp(tr, e->kids[2]) : NULL;
      return v && dpia_scan_single_pass(tr, e->kids[1], init, v, xs->elem, xs->len, out);
    }
    return scan_parallel(tr, e, out);
  }
  return fold(tr, e, out) != NULL;
}

/* whileSeq p f init (SPEC §4.2): the state in private variables (a tuple:
   one per field), a KS_WHILE whose test runs p's commands each step. f
   writes the state in place when it is a scalar; a tuple's new value goes
   through a temporary first, since a field may read another field's old
   value (a swap). Everything inside runs in this thread (tr->seq): the
   default strategy of a map or reduce in p or f is sequential. */
View *exp_while(Tr *tr, Expr *e) {
  View *init = dpia_exp(tr, e->kids[2]);
  if (!init) return NULL;
  Type *t = e->type;
  View *x; Acc *xa;
  dpia_new(tr, t, SPACE_PRIVATE, &x, &xa);
  if (!dpia_assign(tr, xa, init, t)) return NULL;
  KStmt *w = NEW(KStmt), *saved = tr->block;
  w->kind = KS_WHILE; w->then_ = kstmt_block(); w->body = kstmt_block(); w->loc = e->loc;
  kstmt_add(tr->block, w);
  tr->seq++;
  tr->block = w->then_;
  View *c = dpia_apply(tr, e->kids[0], &x);
  w->cond = c ? view_resolve(tr, c, (Path){0, NULL}) : NULL;
  tr->block = w->body;
  bool ok = w->cond != NULL;
  if (ok && type_is_value(t)) {
    ok = dpia_apply_acc(tr, e->kids[1], &x, xa);
  } else if (ok) {
    View *next; Acc *nexta;
    dpia_new(tr, t, SPACE_PRIVATE, &next, &nexta);
    ok = dpia_apply_acc(tr, e->kids[1], &x, nexta) && dpia_assign(tr, xa, next, t);
  }
  tr->seq--;
  tr->block = saved;
  return ok ? x : NULL;
}

bool acc_to(Tr *tr, Expr *e, Acc *out) {
  View *x = dpia_exp(tr, e->kids[1]);
  return x && dpia_apply_acc(tr, e->kids[0], &x, out);
}

/* toLocal at work-group level, outside any mapLcl, of sequential code: every
   work-item of the group would compute it and write the same local places, a
   race by OpenCL's and CUDA's rules (difftest F38's kernel). One work-item
   writes it instead (a mapLcl over one item, which the barrier pass orders
   before the group's reads); code holding its own parallel loops is kept. */
static bool by_one_item(Tr *tr, KStmt *code) {
  if (code->n == 0 || kstmt_has_parallel_loop(code)) return false;   /* barriers come later (barrier.c) */
  NatVar *z;
  KStmt *saved = tr->block;
  KStmt *body = dpia_loop(tr, LEVEL_LCL, 0, nat_const(1), &z);
  KStmt *loop = saved->stmts[saved->n - 1];
  loop->unsized = true;   /* it does not size the work-group */
  for (int i = 0; i < code->n; i++) kstmt_add(body, code->stmts[i]);
  tr->block = saved;
  return true;
}

View *exp_to(Tr *tr, Expr *e) {
  View *x = dpia_exp(tr, e->kids[1]);
  if (!x) return NULL;
  View *v; Acc *a;
  dpia_new(tr, e->type, e->prim->space, &v, &a);
  if (e->prim->space != SPACE_LOCAL || !tr->par || tr->par->level != LEVEL_WRG)
    return dpia_apply_acc(tr, e->kids[0], &x, a) ? v : NULL;
  KStmt *saved = tr->block, *code = kstmt_block();
  tr->block = code;
  bool ok = dpia_apply_acc(tr, e->kids[0], &x, a);
  tr->block = saved;
  if (!ok) return NULL;
  if (!by_one_item(tr, code))
    for (int i = 0; i < code->n; i++) kstmt_add(tr->block, code->stmts[i]);
  return v;
}

View *exp_id(Tr *tr, Expr *e) { return dpia_exp(tr, e->kids[0]); }

/* A count known at run time: a size variable bound by a KS_COUNT statement
   to max(0, n) (SPEC §4.1: `(iterate n f xs)`, n an int). */
static Nat *run_time_count(Tr *tr, Expr *n) {
  View *v = dpia_exp(tr, n);
  if (!v) return NULL;
  KStmt *s = NEW(KStmt);
  s->kind = KS_COUNT;
  s->var = nat_var_new(dpia_fresh(tr, "count"), nat_const(0), NULL);
  s->init = v->scalar;
  kstmt_add(tr->block, s);
  return nat_var(s->var);
}

/* iterate #k f xs (SPEC §4.1): a loop over two buffers, one copy of f
   whatever k. The two halves of one temporary [T]2 take turns: xs is copied
   into half 0, step `it` reads half it % 2 and writes half (it + 1) % 2, and
   half k % 2 is copied into the acceptor. The copies run at the level a copy
   has here: parallel at the top of the program, shared by the work-items of
   a work-group, sequential in a thread. On the device targets the loop, at
   the top of the program, is run by the host around the kernels of f's body
   (plan.c); nothing in f changes level because it is inside the loop. */
bool acc_iterate(Tr *tr, Expr *e, Acc *out) {
  Nat *k = e->kids[0]->kind == EX_NAT ? e->kids[0]->nat : run_time_count(tr, e->kids[0]);
  View *xs = k ? dpia_exp(tr, e->kids[2]) : NULL;
  if (!xs) return false;
  long long steps;
  if (nat_is_const(k, &steps) && steps == 0) return dpia_assign(tr, out, xs, e->type);
  PrimLevel copy = tr->par && tr->par->level == LEVEL_WRG ? LEVEL_LCL : tr->par || tr->seq ? LEVEL_SEQ : LEVEL_GLB;
  View *halves; Acc *halves_acc;
  dpia_new(tr, type_array(e->type, nat_const(2)), SPACE_GLOBAL, &halves, &halves_acc);
  if (!dpia_assign_at(tr, acc_idx(halves_acc, nat_const(0)), xs, e->type, copy)) return false;
  NatVar *it;
  KStmt *saved = tr->block;
  tr->block = dpia_loop(tr, LEVEL_SEQ, 0, k, &it);
  saved->stmts[saved->n - 1]->host = true;
  Nat *from = nat_mod(nat_var(it), nat_const(2)), *to = nat_mod(nat_add(nat_var(it), nat_const(1)), nat_const(2));
  View *cur = view_idx(tr, halves, from);
  bool ok = dpia_apply_acc(tr, e->kids[1], &cur, acc_idx(halves_acc, to));
  tr->block = saved;
  return ok && dpia_assign_at(tr, out, view_idx(tr, halves, nat_mod(k, nat_const(2))), e->type, copy);
}
