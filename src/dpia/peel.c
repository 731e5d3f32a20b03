/* peel.c — stencil peeling (seed 002 §4.4 and §6.2; issue 12 item 8): a map
   over the windows of a padded array,

     map f (slide #s #1 (pad #l #r xs))        (or padConstant), xs : [T]n,

   is the rewrite  join (map (map f) (partition #3 (case-split l (n-s+1) r) ws))
   — found on the views, not the program text (follow), so through lets,
   lazy maps of layouts and transposes: the rows and, inside each row
   section, the columns of slide2D (pad2D …), whose desugaring hides the
   pattern from the program text —
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
   program compiles to the loops it names); on the device targets only where
   the cost rule below says it pays (--peel=all: everywhere). */
#include "dpia.h"
#include "../prim/rules.h"

/* Is e (the body of a lazy map's function, parameter `uid`) a layout of its
   parameter only (split, join, transpose, slide, pad, …, maps of those)?
   Such a function can be applied to see where its element's indices go
   without emitting anything. */
static bool pure_layout(Expr *e, int uid) {
  if (e->kind == EX_VAR) return e->uid == uid;
  if (e->kind != EX_PRIM) return false;
  PrimExpRule x = e->prim->dpia_exp;
  if (x == exp_map_lazy)
    return e->kids[0]->kind == EX_LAMBDA && pure_layout(e->kids[0]->kids[0], e->kids[0]->params[0].uid) &&
           pure_layout(e->kids[1], uid);
  if (x != exp_split && x != exp_join && x != exp_transpose && x != exp_slide && x != exp_pad) return false;
  for (int i = 0; i + 1 < e->nkids; i++) if (e->kids[i]->kind != EX_NAT) return false;
  return pure_layout(e->kids[e->nkids - 1], uid);
}

/* The element view of v at a fresh index, when v is a lazy map of a pure
   layout (NULL otherwise): what the indices after the first flow into. */
static View *element_of(Tr *tr, View *v) {
  Expr *fn = v->fn;
  if (fn->kind != EX_LAMBDA || fn->nparams != 1 || !pure_layout(fn->kids[0], fn->params[0].uid)) return NULL;
  KStmt *saved = tr->block;
  Binding *env = tr->env;
  tr->block = kstmt_block();   /* a pure layout emits nothing; a scratch block all the same */
  tr->env = v->env;
  NatVar *k = nat_var_new("k", nat_const(0), nat_sub(type_len(v->kids[0]->type), nat_const(1)));
  View *x = view_idx(tr, v->kids[0], nat_var(k));
  View *r = x ? dpia_apply(tr, fn, &x) : NULL;
  tr->block = saved;
  tr->env = env;
  return r;
}

/* Follow index `pos` of a path into v (seed 004's access paths, view.c)
   down to where it is used: with want_pad false, the first index of a
   slide with step 1 (a window's start: *s its size, then the pad below
   it); with want_pad true, the index of a pad or padConstant (*l its left
   padding, *n the length it pads). Anything else (a zip, a split of that
   index, a computed map): false, and no peeling — the sections would be
   correct whatever l, s and n are (dpia_peel), only not faster. */
static bool follow(Tr *tr, View *v, int pos, bool want_pad, Nat **l, Nat **s, Nat **n, int depth) {
  if (!v || depth > 64) return false;
  switch (v->kind) {
  case V_IDX: case V_PROJ: return follow(tr, v->kids[0], pos + 1, want_pad, l, s, n, depth + 1);
  case V_ONE: return pos > 0 && follow(tr, v->kids[0], pos - 1, want_pad, l, s, n, depth + 1);
  case V_MAP:
    if (pos == 0) return follow(tr, v->kids[0], 0, want_pad, l, s, n, depth + 1);
    return follow(tr, element_of(tr, v), pos - 1, want_pad, l, s, n, depth + 1);
  case V_TRANSPOSE: return follow(tr, v->kids[0], pos == 0 ? 1 : pos == 1 ? 0 : pos, want_pad, l, s, n, depth + 1);
  case V_SPLIT: return pos >= 2 && follow(tr, v->kids[0], pos - 1, want_pad, l, s, n, depth + 1);
  case V_JOIN: return pos >= 1 && follow(tr, v->kids[0], pos + 1, want_pad, l, s, n, depth + 1);
  case V_SLIDE: {
    long long step;
    if (pos == 0 && !want_pad && nat_is_const(v->b, &step) && step == 1) {
      *s = v->a;
      return follow(tr, v->kids[0], 0, true, l, s, n, depth + 1);
    }
    return pos >= 2 && follow(tr, v->kids[0], pos - 1, want_pad, l, s, n, depth + 1);
  }
  case V_PAD: case V_PADC:
    if (pos == 0) {
      if (!want_pad) return false;
      *l = v->a; *n = v->c;
      return true;
    }
    return follow(tr, v->kids[0], pos, want_pad, l, s, n, depth + 1);
  default: return false;
  }
}

/* The device cost rule (issue 12 item 10, docs/performance.md "the device
   cost rule"): on opencl and cuda a dimension is peeled only when its window is at
   least PEEL_DEVICE_MIN_WINDOW wide. What the interior saves per point is
   its clamps, a fixed few integer instructions per tap of the dimension
   (3×3 on sm_90: 92 → 84 SASS instructions per point, 5×5: 182 → 161);
   what the sections cost does not shrink with the window: the work-items'
   tests of the borders, a kernel of nine nests, and the interior's
   work-items shifted by the left padding, so that a warp's stores straddle
   one more 32-byte sector. At 3×3 the kernel is limited by memory, not by
   its instructions, so the saving does not show: measured on an H100, 4096²,
   peeled 3×3 took 1.05× the unpeeled time, 5×5 0.90×, 9×9 0.95×, 17×17
   0.30×. So windows of 5 and more are peeled, narrower ones are left as
   written, with a note in the generated code; --peel=all peels them all.
   It is a GPU's rule: the CPU targets, and an opencl run on a device that
   is not a GPU (PoCL: the peeled 3×3 at 1024² there took 0.6× the unpeeled
   time), peel every window. Compiled without a device (clift compile),
   opencl is taken for a GPU. A window of unknown width is peeled. */
enum { PEEL_DEVICE_MIN_WINDOW = 5 };

static bool pays_on_device(Tr *tr, Expr *e, Nat *s, PeelMode mode) {
  long long w;
  if (mode == PEEL_ALL || !tr->gen || !tr->gen->device || tr->gen->cpu_device || !nat_is_const(s, &w) ||
      w >= PEEL_DEVICE_MIN_WINDOW)
    return true;
  kernel_note(tr->k, arena_printf("%s:%d:%d: a stencil's dimension with a window of %lld not peeled on this target: "
                                  "the device cost rule peels windows of %d and more (--peel=all peels it)",
                                  e->loc.file ? e->loc.file : "?", e->loc.line, e->loc.col, w,
                                  PEEL_DEVICE_MIN_WINDOW));
  return false;
}

bool dpia_peel(Tr *tr, Expr *e, View *ws, PrimLevel level, Acc *out, bool *done) {
  *done = false;
  PeelMode mode = tr->gen ? tr->gen->peel : PEEL_AUTO;
  if (mode == PEEL_NEVER || (mode == PEEL_AUTO && e->prim->level != LEVEL_LAZY)) return true;
  if (level != LEVEL_GLB && level != LEVEL_SEQ) return true;   /* work-group levels: their barriers are per loop */
  Nat *l, *s, *n;
  long long cl;
  if (e->kids[0]->index || !follow(tr, ws, 0, false, &l, &s, &n, 0) || (nat_is_const(l, &cl) && cl == 0 &&
      nat_proves_le(type_len(e->kids[1]->type), nat_add(nat_sub(n, s), nat_const(1)))))
    return true;   /* not windows of a padded array, or nothing padded */
  if (!pays_on_device(tr, e, s, mode)) return true;
  *done = true;
  /* [0, l), [l, l + n - s + 1) (the windows inside xs), the rest: whatever l,
     s and n, three consecutive ranges that cover the windows when they fit */
  Nat *all = type_len(e->kids[1]->type);
  Nat *body = nat_add(nat_sub(n, s), nat_const(1));
  Nat *from[3] = { nat_const(0), l, nat_add(l, body) }, *count[3] = { l, body, nat_sub(all, nat_add(l, body)) };
  if (nat_proves_lt(body, nat_const(0)) || nat_proves_lt(count[2], nat_const(0)))
    return dpia_map_range(tr, e, ws, level, nat_const(0), all, out);
  KStmt *saved = tr->block, *guard = NULL;
  if (!nat_proves_le(nat_const(0), body) || !nat_proves_le(nat_const(0), count[2])) {
    /* known only at run time: if (s - 1 < n + 1 && l + n - s + 1 < all + 1) sections, else the whole */
    CExp *fits[2] = { cexp_nat_lt(nat_sub(s, nat_const(1)), nat_add(n, nat_const(1))),
                      cexp_nat_lt(nat_add(l, body), nat_add(all, nat_const(1))) };
    guard = kstmt_if(nat_proves_le(nat_const(0), count[2]) ? fits[0] : cexp_op(OP_AND, type_scalar(TY_BOOL), 2, fits), NULL, NULL);
    kstmt_add(tr->block, guard);
    tr->block = guard->else_;
    bool ok = dpia_map_range(tr, e, ws, level, nat_const(0), all, out);
    tr->block = guard->then_;
    if (!ok) { tr->block = saved; return false; }
  }
  /* the sections write disjoint windows of out and read only xs: one kernel
     on the device targets when they are parallel loops */
  KStmt *sections = kstmt_block();
  sections->one_kernel = level == LEVEL_GLB;
  kstmt_add(tr->block, sections);
  tr->block = sections;
  bool ok = true;
  for (int k = 0; k < 3 && ok; k++) {
    long long c;
    if (nat_is_const(count[k], &c) && c == 0) continue;
    ok = dpia_map_range(tr, e, ws, level, from[k], count[k], out);
    KStmt *f = sections->stmts[sections->n - 1];
    if (k == 1 && tr->gen && tr->gen->peel_aligned && f->kind == KS_FOR && f->level == LEVEL_GLB)
      nat_is_const(from[1], &f->shift);   /* the interior starts at l: work-item l computes window l */
  }
  tr->block = saved;
  return ok;
}
