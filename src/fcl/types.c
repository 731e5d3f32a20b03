/* types.c — FCL's types, levels and kinds (seed 003 §5.3.1): construction,
   printing, the kind relation Δ ⊢ τ : κ (rules 5.1–5.12), unification of
   types and of levels, and instantiation of type schemes (rule 5.21). */
#include "fcl.h"
#include <string.h>

static int next_id;

FType *ftype_new(FTypeKind k, FType *a, FType *b, FLevel *lvl) {
  FType *t = NEW(FType);
  t->kind = k;
  t->a = a;
  t->b = b;
  t->lvl = lvl;
  t->vkind = FK_TYP;
  return t;
}

FType *ftype_var(FKind k, Loc loc) {
  FType *t = ftype_new(FY_VAR, NULL, NULL, NULL);
  t->vkind = k;
  t->id = ++next_id;
  t->loc = loc;
  return t;
}

FType *ftype_prune(FType *t) {
  while (t->kind == FY_VAR && t->link) t = t->link;
  return t;
}

FLevel *flevel_new(FLevelKind k, FLevel *inner, const char *name) {
  FLevel *l = NEW(FLevel);
  l->kind = k;
  l->inner = inner;
  l->name = name;
  l->id = ++next_id;
  return l;
}

FLevel *flevel_meta(Loc loc) {
  FLevel *l = flevel_new(FL_META, NULL, NULL);
  l->loc = loc;
  return l;
}

FLevel *flevel_prune(FLevel *l) {
  while (l->kind == FL_META && l->inner) l = l->inner;
  return l;
}

const char *fkind_name(FKind k) { return k == FK_BT ? "BT" : k == FK_GT ? "GT" : "TYP"; }

/* ---- printing: thread/block/grid for Z, 1+Z, 1+(1+Z); 1+1+δ otherwise ---- */
static void level_print(Buf *b, FLevel *l) {
  int succ = 0;
  for (l = flevel_prune(l); l->kind == FL_SUCC; l = flevel_prune(l->inner)) succ++;
  if (l->kind == FL_Z && succ <= 2) { buf_puts(b, succ == 0 ? "thread" : succ == 1 ? "block" : "grid"); return; }
  if (l->kind == FL_Z) succ -= 2;
  for (int i = 0; i < succ; i++) buf_puts(b, "1+");
  if (l->kind == FL_Z) buf_puts(b, "grid");
  else if (l->kind == FL_VAR) buf_puts(b, l->name);
  else buf_printf(b, "?l%d", l->id);
}

const char *flevel_str(FLevel *l) {
  Buf b = { 0 };
  level_print(&b, l);
  return buf_str(&b);
}

/* prec: 0 anywhere, 1 the left of an arrow, 2 Program's argument */
static void type_print(Buf *b, FType *t, int prec) {
  t = ftype_prune(t);
  switch (t->kind) {
  case FY_INT: buf_puts(b, "int"); break;
  case FY_DOUBLE: buf_puts(b, "double"); break;
  case FY_BOOL: buf_puts(b, "bool"); break;
  case FY_UNIT: buf_puts(b, "unit"); break;
  case FY_VAR:
    if (t->name) buf_puts(b, t->name);
    else buf_printf(b, "'_%d", t->id);
    break;
  case FY_PAIR:
    buf_putc(b, '(');
    type_print(b, t->a, 0);
    buf_puts(b, ", ");
    type_print(b, t->b, 0);
    buf_putc(b, ')');
    break;
  case FY_FUN:
    if (prec) buf_putc(b, '(');
    type_print(b, t->a, 1);
    buf_puts(b, " -> ");
    type_print(b, t->b, 0);
    if (prec) buf_putc(b, ')');
    break;
  case FY_PULL: case FY_PUSH:
    buf_putc(b, '[');
    type_print(b, t->a, 0);
    buf_putc(b, ']');
    if (t->kind == FY_PUSH) { buf_putc(b, '<'); level_print(b, t->lvl); buf_putc(b, '>'); }
    break;
  case FY_PROG:
    if (prec == 2) buf_putc(b, '(');
    buf_puts(b, "Program<");
    level_print(b, t->lvl);
    buf_puts(b, "> ");
    type_print(b, t->a, 2);
    if (prec == 2) buf_putc(b, ')');
    break;
  }
}

const char *ftype_str(FType *t) {
  Buf b = { 0 };
  type_print(&b, t, 0);
  return buf_str(&b);
}

const char *fscheme_str(FScheme *s) {
  Buf b = { 0 };
  if (s->nlvars || s->ntvars) {
    buf_puts(&b, "forall ");
    if (s->nlvars) {
      buf_putc(&b, '<');
      for (int i = 0; i < s->nlvars; i++) buf_printf(&b, "%s%s", i ? ", " : "", s->lvars[i]->name);
      buf_puts(&b, s->ntvars ? "> " : ">");
    }
    for (int i = 0; i < s->ntvars; i++) {
      buf_printf(&b, "%s%s", i ? " " : "", s->tvars[i]->name);
      if (s->tvars[i]->vkind != FK_TYP) buf_printf(&b, ":%s", fkind_name(s->tvars[i]->vkind));
    }
    buf_puts(&b, ". ");
  }
  type_print(&b, s->body, 0);
  return buf_str(&b);
}

/* ---- kinds (rules 5.1–5.12) ---- */
static const char *kind_why;   /* why the last kind_ok failed */

static const char *kind_need(FKind k) {
  return k == FK_BT ? "a base type (BT: int, double, bool and pairs of them), as push array elements and if branches need"
                    : "a ground type (GT: no functions), as pull array elements and Program results need";
}

static bool kind_ok(FType *t, FKind k) {
  t = ftype_prune(t);
  switch (t->kind) {
  case FY_INT: case FY_DOUBLE: case FY_BOOL: return true;                         /* 5.1–5.3, 5.7, 5.8 */
  case FY_UNIT:                                                                   /* 5.4 */
    if (k != FK_BT) return true;
    kind_why = arena_printf("unit is not %s (rule 5.4)", kind_need(k));
    return false;
  case FY_VAR:                                                                    /* 5.5 */
    if (t->vkind <= k || t->num) return true;
    if (t->rigid && t->fixed) {
      kind_why = arena_printf("type variable %s has kind %s, not %s: it is not %s (rule 5.5)", t->name ? t->name : "'_",
                              fkind_name(t->vkind), fkind_name(k), kind_need(k));
      return false;
    }
    t->vkind = k;
    return true;
  case FY_PAIR: return kind_ok(t->a, k) && kind_ok(t->b, k);                      /* 5.6 */
  case FY_FUN:                                                                    /* 5.9 */
    if (k == FK_TYP) return kind_ok(t->a, FK_TYP) && kind_ok(t->b, FK_TYP);
    kind_why = arena_printf("the function type %s is not %s (rules 5.8–5.12)", ftype_str(t), kind_need(k));
    return false;
  case FY_PULL: case FY_PUSH: case FY_PROG:                                        /* 5.10–5.12 */
    if (k == FK_BT) {
      kind_why = arena_printf("%s is not %s (rules 5.10–5.12: arrays and programs are GT)", ftype_str(t), kind_need(k));
      return false;
    }
    return kind_ok(t->a, t->kind == FY_PUSH ? FK_BT : FK_GT);
  }
  return false;
}

const char *ftype_kind_why(FType *t, FKind k) { return kind_ok(t, k) ? NULL : kind_why; }

bool ftype_has_kind(FType *t, FKind k, Loc loc) {
  if (kind_ok(t, k)) return true;
  return diag_error(loc, "%s", kind_why);
}

/* ---- unification ---- */
static const char *unify_why;

static bool level_occurs(FLevel *m, FLevel *l) {
  for (l = flevel_prune(l); l->kind == FL_SUCC; l = flevel_prune(l->inner)) ;
  return l == m;
}

bool flevel_unify(FLevel *a, FLevel *b) {
  for (;;) {
    a = flevel_prune(a);
    b = flevel_prune(b);
    if (a == b) return true;
    if (a->kind == FL_META) { if (level_occurs(a, b)) return false; a->inner = b; return true; }
    if (b->kind == FL_META) { if (level_occurs(b, a)) return false; b->inner = a; return true; }
    if (a->kind != b->kind) return false;
    if (a->kind == FL_Z) return true;
    if (a->kind == FL_VAR) return strcmp(a->name, b->name) == 0;
    a = a->inner;
    b = b->inner;
  }
}

static bool occurs(FType *v, FType *t) {
  t = ftype_prune(t);
  if (t == v) return true;
  return (t->a && occurs(v, t->a)) || (t->b && occurs(v, t->b));
}

static bool bind_var(FType *v, FType *t) {
  if (occurs(v, t)) { unify_why = "a type would contain itself"; return false; }
  FType *p = ftype_prune(t);
  if (v->num) {
    if (p->kind == FY_VAR && !p->rigid) p->num = true;
    else if (p->kind != FY_INT && p->kind != FY_DOUBLE) {
      unify_why = arena_printf("the operator needs int or double, not %s", ftype_str(p));
      return false;
    }
  }
  if (p->kind == FY_VAR && !p->fixed && v->vkind < p->vkind) p->vkind = v->vkind;
  else if (!kind_ok(p, v->vkind)) { unify_why = kind_why; return false; }
  v->link = t;
  return true;
}

static bool unify_rec(FType *a, FType *b, int depth) {
  a = ftype_prune(a);
  b = ftype_prune(b);
  if (a == b) return true;
  if (depth > 10000) { unify_why = "types nested too deeply"; return false; }
  if (a->kind == FY_VAR && !a->rigid) return bind_var(a, b);
  if (b->kind == FY_VAR && !b->rigid) return bind_var(b, a);
  if (a->kind != b->kind || a->kind == FY_VAR) return false;
  switch (a->kind) {
  case FY_PAIR: case FY_FUN: return unify_rec(a->a, b->a, depth + 1) && unify_rec(a->b, b->b, depth + 1);
  case FY_PULL: return unify_rec(a->a, b->a, depth + 1);
  case FY_PUSH: case FY_PROG:
    if (!flevel_unify(a->lvl, b->lvl)) {
      unify_why = arena_printf("level %s is not level %s", flevel_str(a->lvl), flevel_str(b->lvl));
      return false;
    }
    return unify_rec(a->a, b->a, depth + 1);
  default: return true;
  }
}

bool ftype_unify(FType *want, FType *got, Loc loc, const char *what) {
  unify_why = NULL;
  const char *w = ftype_str(want), *g = ftype_str(got);   /* before unification binds anything */
  if (unify_rec(want, got, 0)) return true;
  if (unify_why) return diag_error(loc, "%s: expected %s, found %s: %s", what, w, g, unify_why);
  return diag_error(loc, "%s: expected %s, found %s", what, w, g);
}

/* ---- instantiation (rule 5.21): fresh variables for the scheme's type
   variables, the given levels (or fresh unknown levels) for its level variables ---- */
typedef struct Inst { FScheme *s; FType **tv; FLevel **lv; } Inst;

static FLevel *inst_level(Inst *in, FLevel *l) {
  l = flevel_prune(l);
  switch (l->kind) {
  case FL_SUCC: return flevel_new(FL_SUCC, inst_level(in, l->inner), NULL);
  case FL_VAR:
    for (int i = 0; i < in->s->nlvars; i++) if (!strcmp(in->s->lvars[i]->name, l->name)) return in->lv[i];
    return l;
  default: return l;
  }
}

static FType *inst_type(Inst *in, FType *t) {
  t = ftype_prune(t);
  switch (t->kind) {
  case FY_VAR:
    for (int i = 0; i < in->s->ntvars; i++) if (in->s->tvars[i] == t) return in->tv[i];
    return t;
  case FY_INT: case FY_DOUBLE: case FY_BOOL: case FY_UNIT: return t;
  default: {
    FType *r = ftype_new(t->kind, t->a ? inst_type(in, t->a) : NULL, t->b ? inst_type(in, t->b) : NULL,
                         t->lvl ? inst_level(in, t->lvl) : NULL);
    return r;
  }
  }
}

FType *fscheme_instantiate(FScheme *s, FLevel **largs, Loc loc) {
  Inst in = { s, NEW_ARRAY(FType *, s->ntvars), NEW_ARRAY(FLevel *, s->nlvars) };
  for (int i = 0; i < s->ntvars; i++) {
    in.tv[i] = ftype_var(s->tvars[i]->vkind, loc);
    in.tv[i]->num = s->tvars[i]->num;
  }
  for (int i = 0; i < s->nlvars; i++) in.lv[i] = largs ? largs[i] : flevel_meta(loc);
  return inst_type(&in, s->body);
}
