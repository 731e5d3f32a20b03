/* nesting.c — the valid nesting of parallel maps (SPEC §4.2), checked on the
   typed program so that every target, interp included, refuses the same
   programs. For a map M at level glb, wrg or lcl in dimension d, let P be the
   parallel maps of dimension d whose function encloses M:
     mapGlb_d, mapWrg_d: P is empty;
     mapLcl_d:           P is exactly one mapWrg_d.
   Sequential patterns (mapSeq, reduceSeq, …) may appear anywhere; maps of
   other dimensions do not count. The error points at the inner map. */
#include "infer.h"

typedef struct Enclosing { const Expr *map; const struct Enclosing *outer; } Enclosing;

static bool is_parallel(const Expr *e) {
  return e->kind == EX_PRIM && (e->prim->level == LEVEL_GLB || e->prim->level == LEVEL_WRG || e->prim->level == LEVEL_LCL);
}

static const char *level_name(PrimLevel l) { return l == LEVEL_GLB ? "mapGlb" : l == LEVEL_WRG ? "mapWrg" : "mapLcl"; }

static bool check(const Expr *e, const Enclosing *outer) {
  if (!e) return true;
  Enclosing here = { e, outer };
  if (is_parallel(e)) {
    int d = e->prim->dim, wrg = 0, other = 0;
    const Expr *first = NULL;
    for (const Enclosing *o = outer; o; o = o->outer)
      if (o->map->prim->dim == d) {
        if (!first) first = o->map;
        if (o->map->prim->level == LEVEL_WRG) wrg++; else other++;
      }
    PrimLevel l = e->prim->level;
    bool ok = l == LEVEL_LCL ? wrg == 1 && other == 0 : !first;
    if (!ok && first)
      return diag_error(e->loc, "invalid nesting (SPEC §4.2): %s inside %s of the same dimension %d%s",
                        e->prim->name, first->prim->name, d,
                        l == LEVEL_LCL ? "; a mapLcl belongs directly inside one mapWrg" : "");
    if (!ok)
      return diag_error(e->loc, "invalid nesting (SPEC §4.2): %s (dimension %d) outside any %s; "
                        "a mapLcl belongs inside a mapWrg of the same dimension", e->prim->name, d, level_name(LEVEL_WRG));
  }
  for (int i = 0; i < e->nkids; i++) {
    /* the function argument of a parallel map runs inside it */
    bool inside = is_parallel(e) && i == 0 && e->kids[i]->kind == EX_LAMBDA;
    if (!check(e->kids[i], inside ? &here : outer)) return false;
  }
  return true;
}

bool infer_check_nesting(Program *p) { return check(p->body, NULL); }
