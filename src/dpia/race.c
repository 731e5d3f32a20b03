/* race.c — the data-race check of SPEC §3.6 on the imperative program: inside
   a parallel loop, every write must go either to a variable the loop body
   declares itself, or to memory indexed by the loop's own variable (the slice
   of the acceptor the loop was given). Anything else is shared between
   iterations: a compile-time error, never silent. DPIA's translation
   guarantees this by construction; the check keeps it true as rules grow. */
#include "kernel.h"
#include <string.h>

typedef struct RaceLoop { NatVar *var; int decl_base; KStmt *s; } RaceLoop;   /* decl_base: ndecl when it began */
typedef struct RaceCx {
  RaceLoop *par; int npar, cap_par;          /* enclosing parallel loops */
  const char **decl; int ndecl, cap_decl;    /* private variables in scope */
  Loc where;                                 /* the program: where a race is reported */
} RaceCx;

static const char *lvalue_name(CExp *e) {
  while (e->kind == CE_LANE) e = e->args[0];
  return e->kind == CE_VAR ? e->name : e->buf ? e->buf->name : "?";
}

/* Was `name` declared after parallel loop `level` began? */
static bool declared_since(RaceCx *cx, const char *name, int level) {
  for (int i = cx->par[level].decl_base; i < cx->ndecl; i++) if (strcmp(cx->decl[i], name) == 0) return true;
  return false;
}

/* Does the written place depend on v: its index, or the lane of a vector it
   writes (asVector of a work-group's elements: out[wid] lane lid)? */
static bool place_mentions(CExp *lhs, NatVar *v) {
  for (; lhs->kind == CE_LANE; lhs = lhs->args[0])
    if (nat_mentions(lhs->nat, v)) return true;
  return lhs->nat && nat_mentions(lhs->nat, v);
}

/* A pinned mapLcl loop of a partitioned private buffer's dimensions: its one
   iteration per work-item writes that work-item's own copy (privatise.c). */
static bool partition_loop(Buffer *b, KStmt *loop) {
  if (!b || !b->part_k || !loop->pinned) return false;
  for (int j = 0; j < b->part_k; j++) if (b->part_dim[j] == loop->dim) return true;
  return false;
}

static bool check_write(RaceCx *cx, CExp *lhs) {
  if (cx->npar == 0) return true;
  CExp *base = lhs;
  while (base->kind == CE_LANE) base = base->args[0];
  if (base->kind == CE_VAR) {
    for (int i = cx->par[cx->npar - 1].decl_base; i < cx->ndecl; i++)
      if (strcmp(cx->decl[i], base->name) == 0) return true;
    return diag_error(cx->where, "data race: a parallel loop (%s) writes to '%s', declared outside it",
                      cx->par[cx->npar - 1].var->name, base->name);
  }
  /* A private array declared inside parallel loop l has one copy per iteration
     of loops 0..l; only the loops entered after its declaration share it. */
  int from = 0;
  if (base->buf && base->buf->space == SPACE_PRIVATE)
    for (int l = cx->npar - 1; l >= 0; l--)
      if (declared_since(cx, base->buf->name, l)) { from = l + 1; break; }
  for (int p = from; p < cx->npar; p++)
    if (!place_mentions(lhs, cx->par[p].var) && !partition_loop(base->buf, cx->par[p].s))
      return diag_error(cx->where, "data race: every iteration of the parallel loop over %s writes to %s[%s]",
                        cx->par[p].var->name, lvalue_name(lhs), nat_to_string(base->nat));
  return true;
}

static bool check(RaceCx *cx, KStmt *s) {
  switch (s->kind) {
  case KS_BLOCK: {
    int saved = cx->ndecl;
    for (int i = 0; i < s->n; i++) if (!check(cx, s->stmts[i])) return false;
    cx->ndecl = saved;
    return true;
  }
  case KS_DECL:
    ARENA_PUSH(cx->decl, cx->ndecl, cx->cap_decl, s->name);   /* scalars and private arrays */
    return true;
  case KS_ASSIGN: return s->disjoint || check_write(cx, s->lhs);
  case KS_IF: return check(cx, s->then_) && (!s->else_ || check(cx, s->else_));
  case KS_WHILE: return check(cx, s->then_) && check(cx, s->body);   /* sequential: no variable of its own */
  case KS_FOR: {
    /* a loop of no iteration writes nothing: an array with an extent 0 has
       its outer index multiplied by 0 (out[i1] for [[float]0]N), no race */
    if (kstmt_never_runs(s)) return true;
    /* a parallel loop of at most one iteration has no two to race (exp_to's
       mapLcl over one work-item) */
    bool par = s->level != LEVEL_SEQ && !nat_proves_le(s->count, nat_const(1));
    if (par) ARENA_PUSH(cx->par, cx->npar, cx->cap_par, ((RaceLoop){ s->var, cx->ndecl, s }));
    bool ok = check(cx, s->body);
    if (par) cx->npar--;
    return ok;
  }
  case KS_BARRIER: case KS_COUNT: return true;   /* a count writes no memory */
  }
  return true;
}

bool dpia_race_check(KStmt *body, Loc where) {
  RaceCx cx;
  memset(&cx, 0, sizeof cx);
  cx.where = where;
  return check(&cx, body);
}
