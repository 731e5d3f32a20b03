/* peel.c — stencil peeling (seed 002 §4.4 and §6.2; issue 12 item 8): a map
   over the windows of a padded array,

     map f (slide #s #1 (pad #l #r xs))        (or padConstant), xs : [T]n,

   is the rewrite  join (map (map f) (partition #3 (case-split l (n-s+1) r) ws))
   of the paper: three code sections over the windows, the prologue (the l
   windows that reach the left padding), the body (the n-s+1 windows inside
   xs) and the epilogue (the r windows that reach the right padding). Each is
   a loop at the map's level over its own range, so the arithmetic module
   proves the pad's clamps or selects redundant in the body and drops them,
   and keeps only the one side that can fail in the prologue and epilogue
   (seed 002 Listing 11). When n < s - 1 the sections do not fit: the
   unpeeled loop runs instead, chosen at run time (at compile time when n is
   known). Strategy-free maps are peeled by default (they say nothing about
   their loops); explicit strategies only with --peel (SPEC §4.2: a low-level
   program compiles to the loops it names). */
#include "dpia.h"
#include "../prim/rules.h"

/* The window count of a padded array, when e is (slide #s #1 (pad… #l #r … xs)):
   l, r, s, and n the length of xs. */
static bool padded_windows(Expr *e, Nat **l, Nat **r, Nat **s, Nat **n) {
  long long step;
  if (e->kind != EX_PRIM || e->prim->dpia_exp != exp_slide || !nat_is_const(e->kids[1]->nat, &step) || step != 1)
    return false;
  Expr *p = e->kids[2];
  if (p->kind != EX_PRIM || (p->prim->dpia_exp != exp_pad && p->prim->dpia_exp != exp_pad_constant)) return false;
  Type *xs = p->kids[p->nkids - 1]->type;
  if (xs->kind != TY_ARRAY || xs->index) return false;
  *l = p->kids[0]->nat; *r = p->kids[1]->nat; *s = e->kids[0]->nat; *n = xs->len;
  long long cl, cr;
  return !(nat_is_const(*l, &cl) && nat_is_const(*r, &cr) && cl == 0 && cr == 0);   /* nothing padded: nothing to peel */
}

bool dpia_peel(Tr *tr, Expr *e, View *ws, PrimLevel level, Acc *out, bool *done) {
  *done = false;
  PeelMode mode = tr->gen ? tr->gen->peel : PEEL_AUTO;
  if (mode == PEEL_NEVER || (mode == PEEL_AUTO && e->prim->level != LEVEL_LAZY)) return true;
  if (level != LEVEL_GLB && level != LEVEL_SEQ) return true;   /* work-group levels: their barriers are per loop */
  Nat *l, *r, *s, *n;
  if (e->kids[0]->index || !padded_windows(e->kids[1], &l, &r, &s, &n)) return true;
  *done = true;
  Nat *body = nat_add(nat_sub(n, s), nat_const(1));   /* n - s + 1 windows lie inside xs */
  Nat *from[3] = { nat_const(0), l, nat_add(l, body) }, *count[3] = { l, body, r };
  Nat *all = type_len(e->kids[1]->type);
  if (nat_proves_lt(body, nat_const(0))) return dpia_map_range(tr, e, ws, level, nat_const(0), all, out);
  KStmt *saved = tr->block, *guard = NULL;
  if (!nat_proves_le(nat_const(0), body)) {   /* known only at run time: if (s - 1 < n + 1) sections else the whole */
    guard = NEW(KStmt);
    guard->kind = KS_IF;
    guard->cond = NEW(CExp);
    *guard->cond = (CExp){ .kind = CE_NAT_LT, .type = type_scalar(TY_BOOL), .nat = nat_sub(s, nat_const(1)),
                           .nat2 = nat_add(n, nat_const(1)), .field = -1 };
    guard->then_ = kstmt_block(); guard->else_ = kstmt_block();
    kstmt_add(tr->block, guard);
    tr->block = guard->else_;
    bool ok = dpia_map_range(tr, e, ws, level, nat_const(0), all, out);
    tr->block = guard->then_;
    if (!ok) { tr->block = saved; return false; }
  }
  bool ok = true;
  for (int k = 0; k < 3 && ok; k++) {
    long long c;
    if (nat_is_const(count[k], &c) && c == 0) continue;
    ok = dpia_map_range(tr, e, ws, level, from[k], count[k], out);
  }
  tr->block = saved;
  return ok;
}
