/* mono.c — monomorphisation (seed 003 §5.3.2, docs/fcl.md §4): every
   level-polymorphic definition (`fun f<δ…>`, `let x<δ…> =`) is copied once per
   tuple of concrete levels it is used at, the copy named `f<block>`; every use
   names its copy, and every built-in's instance levels (FExp.inst) become
   concrete (thread, block, grid, 1+grid …). Level variables and unknown levels
   are gone from the result, which is what the compilation onto kernels
   (compile.c) reads. Type variables stay polymorphic: the thesis monomorphises
   levels only, and the compiler takes the element types from the values.
   Copies of top-level definitions stand where their original stood, so a
   definition still sees only the ones above it; polymorphic definitions that
   no monomorphic one reaches are dropped. */
#include "fcl.h"
#include <string.h>

typedef struct LMap { FLevel *var; int depth; struct LMap *next; } LMap;

/* a concrete level as its depth (thread 0, block 1, grid 2, …); -1: not concrete */
static int level_depth(FLevel *l, LMap *m) {
  int succ = 0;
  for (l = flevel_prune(l); l->kind == FL_SUCC; l = flevel_prune(l->inner)) succ++;
  if (l->kind == FL_Z) return succ;
  if (l->kind == FL_VAR)
    for (; m; m = m->next)   /* a sig's variables are other objects of the same name */
      if (m->var == l || !strcmp(m->var->name, l->name)) return m->depth + succ;
  return -1;
}

static FLevel *level_of_depth(int d) {
  FLevel *l = flevel_new(FL_Z, NULL, NULL);
  while (d-- > 0) l = flevel_new(FL_SUCC, l, NULL);
  return l;
}

int fcl_level_depth(FLevel *l) { return level_depth(l, NULL); }

static const char *inst_name(const char *name, const int *depths, int n) {
  Buf b = { 0 };
  buf_printf(&b, "%s<", name);
  for (int i = 0; i < n; i++) buf_printf(&b, "%s%s", i ? "," : "", flevel_str(level_of_depth(depths[i])));
  buf_putc(&b, '>');
  return buf_str(&b);
}

/* one instance of a polymorphic definition or let: its levels and copy's name */
typedef struct Inst { int *depths; const char *name; struct Inst *next; } Inst;

typedef struct PolyLet { FExp *let; Inst *insts; } PolyLet;

typedef struct Scope {
  const char *name;
  PolyLet *poly;          /* a level-polymorphic let; NULL: a monomorphic binding */
  struct Scope *next;
} Scope;

typedef struct Mono {
  FProgram *p;
  int cur;                /* the definition being copied: it sees defs[0 .. cur-1] */
  Inst **insts;           /* per definition: the instances asked for */
  int *done;              /* per definition: how many of them are copied */
  bool failed;
} Mono;

static Inst *want(Inst **list, const char *name, int *depths, int n) {
  for (Inst *i = *list; i; i = i->next)
    if (!memcmp(i->depths, depths, sizeof(int) * (size_t)n)) return i;
  Inst *i = NEW(Inst);
  i->depths = depths;
  i->name = inst_name(name, depths, n);
  Inst **end = list;
  while (*end) end = &(*end)->next;
  *end = i;
  return i;
}

static int *depths_of(Mono *mo, FExp *e, LMap *m) {
  int *d = NEW_ARRAY(int, e->ninst ? e->ninst : 1);
  for (int i = 0; i < e->ninst; i++)
    if ((d[i] = level_depth(e->inst[i], m)) < 0) {
      if (!mo->failed) diag_error(e->loc, "the level of this use of %s is not determined: give it (%s<block>)", e->name, e->name);
      mo->failed = true;
      return NULL;
    }
  return d;
}

static FExp *copy(Mono *mo, FExp *e, LMap *m, Scope *sc);

static FExp *copy_var(Mono *mo, FExp *e, LMap *m, Scope *sc) {
  FExp *c = NEW(FExp);
  *c = *e;
  c->largs = NULL; c->nlargs = 0; c->has_largs = false;
  for (Scope *s = sc; s; s = s->next) {
    if (strcmp(s->name, e->name) != 0) continue;
    c->inst = NULL; c->ninst = 0;
    if (!s->poly) return c;
    int *d = depths_of(mo, e, m);
    if (d) c->name = want(&s->poly->insts, e->name, d, e->ninst)->name;
    return c;
  }
  if (e->slot == 0)   /* a top-level definition above the one being copied: the latest of that name */
    for (int k = mo->cur - 1; k >= 0; k--) {
      FDef *d = mo->p->defs[k];
      if (strcmp(d->name, e->name) != 0) continue;
      c->inst = NULL; c->ninst = 0;
      if (d->scheme->nlvars == 0) return c;
      int *dep = depths_of(mo, e, m);
      if (dep) c->name = want(&mo->insts[k], d->name, dep, e->ninst)->name;
      return c;
    }
  /* a built-in: its levels concrete */
  int *d = depths_of(mo, e, m);
  c->inst = NEW_ARRAY(FLevel *, e->ninst ? e->ninst : 1);
  for (int i = 0; d && i < e->ninst; i++) c->inst[i] = level_of_depth(d[i]);
  return c;
}

static FExp *copy(Mono *mo, FExp *e, LMap *m, Scope *sc) {
  if (!e) return NULL;
  if (e->kind == FE_VAR) return copy_var(mo, e, m, sc);
  FExp *c = NEW(FExp);
  *c = *e;
  switch (e->kind) {
  case FE_FN: {
    Scope *s = NEW(Scope);
    *s = (Scope){ e->name, NULL, sc };
    c->a = copy(mo, e->a, m, s);
    return c;
  }
  case FE_LET: {
    c->largs = NULL; c->nlargs = 0;
    if (e->nlargs == 0) {
      Scope *s = NEW(Scope);
      *s = (Scope){ e->name, NULL, sc };
      c->a = copy(mo, e->a, m, sc);
      c->b = copy(mo, e->b, m, s);
      return c;
    }
    /* let x<δ…> = a in b: b first, collecting the instances of x it uses;
       then one monomorphic let per instance around it */
    PolyLet *pl = NEW(PolyLet);
    pl->let = e;
    Scope *s = NEW(Scope);
    *s = (Scope){ e->name, pl, sc };
    FExp *body = copy(mo, e->b, m, s);
    int n = 0;
    for (Inst *i = pl->insts; i; i = i->next) n++;
    Inst **all = NEW_ARRAY(Inst *, n ? n : 1);
    n = 0;
    for (Inst *i = pl->insts; i; i = i->next) all[n++] = i;
    for (int k = n - 1; k >= 0; k--) {
      LMap *mm = m;
      for (int j = 0; j < e->nlargs; j++) {
        LMap *x = NEW(LMap);
        *x = (LMap){ e->largs[j], all[k]->depths[j], mm };
        mm = x;
      }
      FExp *l = NEW(FExp);
      *l = *e;
      l->largs = NULL; l->nlargs = 0;
      l->name = all[k]->name;
      l->a = copy(mo, e->a, mm, sc);
      l->b = body;
      body = l;
    }
    return body;
  }
  default:
    c->a = copy(mo, e->a, m, sc);
    c->b = copy(mo, e->b, m, sc);
    c->c = copy(mo, e->c, m, sc);
    return c;
  }
}

/* a type with its level variables replaced (the copy's scheme, for printing) */
static FType *subst_type(FType *t, LMap *m) {
  t = ftype_prune(t);
  if (t->kind == FY_VAR) return t;
  FType *c = NEW(FType);
  *c = *t;
  if (t->a) c->a = subst_type(t->a, m);
  if (t->b) c->b = subst_type(t->b, m);
  if (t->lvl) {
    int d = level_depth(t->lvl, m);
    if (d >= 0) c->lvl = level_of_depth(d);
  }
  return c;
}

static FDef *copy_def(Mono *mo, int k, Inst *in) {
  FDef *d = mo->p->defs[k], *c = NEW(FDef);
  *c = *d;
  LMap *m = NULL;
  for (int i = 0; in && i < d->scheme->nlvars; i++) {
    LMap *x = NEW(LMap);
    *x = (LMap){ d->scheme->lvars[i], in->depths[i], m };
    m = x;
  }
  mo->cur = k;
  c->name = in ? in->name : d->name;
  c->lparams = NULL; c->nlparams = 0;
  c->sig = NULL;
  c->body = copy(mo, d->body, m, NULL);
  FScheme *s = NEW(FScheme);
  *s = *d->scheme;
  s->nlvars = 0; s->lvars = NULL;
  s->body = subst_type(d->scheme->body, m);
  c->scheme = s;
  return c;
}

FProgram *fcl_monomorphise(FProgram *p) {
  Mono mo = { .p = p, .insts = NEW_ARRAY(Inst *, p->ndefs), .done = NEW_ARRAY(int, p->ndefs) };
  FDef ***copies = NEW_ARRAY(FDef **, p->ndefs);
  int *ncopies = NEW_ARRAY(int, p->ndefs), *cap = NEW_ARRAY(int, p->ndefs);
  for (int k = 0; k < p->ndefs; k++)
    if (p->defs[k]->scheme->nlvars == 0) ARENA_PUSH(copies[k], ncopies[k], cap[k], copy_def(&mo, k, NULL));
  /* instances ask for instances of the definitions above them: from the
     bottom up, each definition's list is complete when it is reached */
  for (int k = p->ndefs - 1; k >= 0 && !mo.failed; k--) {
    if (p->defs[k]->scheme->nlvars == 0) continue;
    for (Inst *i = mo.insts[k]; i && !mo.failed; i = i->next) ARENA_PUSH(copies[k], ncopies[k], cap[k], copy_def(&mo, k, i));
  }
  if (mo.failed) return NULL;
  FProgram *out = NEW(FProgram);
  out->file = p->file;
  int n = 0;
  for (int k = 0; k < p->ndefs; k++) n += ncopies[k];
  out->defs = NEW_ARRAY(FDef *, n ? n : 1);
  for (int k = 0; k < p->ndefs; k++)
    for (int i = 0; i < ncopies[k]; i++) out->defs[out->ndefs++] = copies[k][i];
  return out;
}
