/* elab.c — APL AST to TAIL (docs/apl.md §2.4), bottom-up with concrete
   types: every node is typed as it is built (tail_check_node), and every dfn
   is elaborated again at each call with its arguments' types, so ranks are
   always known. Values bound by ← (and dfn arguments that are not variables)
   become `let`s of the current scope: the program's top level, or the body of
   a TAIL `fn` (a dfn under ¨ or ∘.). Errors are APL's (rank, length, domain,
   nested array) at the glyph that made the node. */
#include "elab.h"
#include <string.h>

/* ---- building typed TAIL ---- */

TExp *el_node(TExpKind kind, Loc loc, int n) {
  TExp *e = NEW(TExp);
  e->kind = kind; e->loc = loc; e->nkids = n;
  e->kids = NEW_ARRAY(TExp *, n);
  return e;
}

/* op(args…), typed; NULL + diag when TAIL refuses it (a bug of the
   elaborator unless the message is about the program) */
TExp *el_op(const char *name, Loc loc, int n, ...) {
  TExp *e = el_node(TE_OP, loc, n);
  e->op = tail_op_lookup(name);
  e->applied = true;
  if (!e->op) return diag_internal(loc, "APL elaboration: no TAIL operation '%s'", name), NULL;
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) e->kids[i] = va_arg(ap, TExp *);
  va_end(ap);
  for (int i = 0; i < n; i++) if (!e->kids[i]) return NULL;
  return tail_check_node(e) ? e : NULL;
}

/* an operation as a function value: addi in reduce(addi, 0, v) */
TExp *el_opval(const char *name, Loc loc) {
  TExp *e = el_node(TE_OP, loc, 0);
  e->op = tail_op_lookup(name);
  e->name = name;
  if (!e->op) return diag_internal(loc, "APL elaboration: no TAIL operation '%s'", name), NULL;
  return tail_check_node(e) ? e : NULL;
}

TExp *el_int(long long v, Loc loc) {
  TExp *e = el_node(TE_INT, loc, 0);
  e->ival = v;
  e->type = ttype_new(TT_S, TB_INT, v);
  return e;
}

TExp *el_bool(bool v, Loc loc) {
  TExp *e = el_node(TE_BOOL, loc, 0);
  e->ival = v;
  e->type = ttype_new(TT_S, TB_BOOL, v);
  return e;
}

TExp *el_double(double v, Loc loc) {
  TExp *e = el_node(TE_DOUBLE, loc, 0);
  e->dval = v;
  e->type = ttype_scalar(TB_DOUBLE);
  return e;
}

TExp *el_char(int cp, Loc loc) {
  TExp *e = el_node(TE_CHAR, loc, 0);
  e->ival = cp;
  e->type = ttype_scalar(TB_CHAR);
  return e;
}

TExp *el_var(const char *name, TType *t, Loc loc) {
  TExp *e = el_node(TE_VAR, loc, 0);
  e->name = name;
  e->type = t;
  return e;
}

/* [k₁,…,kₙ] of literals (typed by TAIL's rule for vectors) */
TExp *el_vec(Loc loc, int n, TExp **items) {
  TExp *e = el_node(TE_VEC, loc, n);
  for (int i = 0; i < n; i++) e->kids[i] = items[i];
  return tail_check_node(e) ? e : NULL;
}

/* a literal int vector, e.g. a shape or transp2's axes */
TExp *el_ints(Loc loc, int n, const long long *v) {
  TExp **items = NEW_ARRAY(TExp *, n);
  for (int i = 0; i < n; i++) items[i] = el_int(v[i], loc);
  return el_vec(loc, n, items);
}

/* fn x:t => body (body elaborated by the caller with x bound) */
TExp *el_fn(const char *x, TType *t, TExp *body, Loc loc) {
  TExp *e = el_node(TE_FN, loc, 1);
  e->name = x; e->ann = t; e->kids[0] = body;
  e->type = ttype_fun(t, body->type);
  return e;
}

int el_rank(TExp *e) { return ttype_rank(e->type); }
TBase el_base(TExp *e) { return e->type->base; }
bool el_is_literal(TExp *e) { return e->kind == TE_INT || e->kind == TE_BOOL || e->kind == TE_DOUBLE || e->kind == TE_CHAR; }

/* The length of a vector when its type says it (<κ>n, SV); -1 if not. */
long long el_length(TExp *e) {
  TType *t = e->type;
  return t->kind == TT_VEC ? t->n.c : t->kind == TT_SV ? 1 : -1;
}

const char *el_fresh(Elab *cx) { return arena_printf("v%d", cx->fresh++); }

/* let v:τ = value, in the current scope; the variable */
TExp *el_bind(Elab *cx, TExp *value) {
  if (!value) return NULL;
  TExp *let = el_node(TE_LET, value->loc, 2);
  let->name = el_fresh(cx);
  let->ann = value->type;
  let->kids[0] = value;
  ARENA_PUSH(cx->scope->lets, cx->scope->n, cx->scope->cap, let);
  return el_var(let->name, value->type, value->loc);
}

/* a variable or literal as it is, anything else bound first (used twice) */
TExp *el_atomic(Elab *cx, TExp *e) {
  if (!e) return NULL;
  return e->kind == TE_VAR || el_is_literal(e) ? e : el_bind(cx, e);
}

/* A fresh node for another use of an atomic expression. */
TExp *el_copy(TExp *e) {
  TExp *c = NEW(TExp);
  *c = *e;
  return c;
}

/* body wrapped in the scope's lets, innermost last */
TExp *el_close(LetScope *s, TExp *body) {
  for (int i = s->n - 1; i >= 0; i--) {
    TExp *let = s->lets[i];
    let->kids[1] = body;
    let->type = body->type;
    body = let;
  }
  return body;
}

/* ---- coercions (bool ⊂ int ⊂ double) ---- */

TBase el_join(TBase a, TBase b) {
  if (a == b) return a;
  if (a == TB_DOUBLE || b == TB_DOUBLE) return TB_DOUBLE;
  return TB_INT;   /* int and bool (char never meets a number here) */
}

static TExp *convert1(Elab *cx, TExp *e, const char *op) {
  if (el_rank(e) == 0) return el_op(op, e->loc, 1, e);
  (void)cx;
  return el_op("each", e->loc, 2, el_opval(op, e->loc), e);
}

/* e with its elements of base `to`: literals converted here, else b2i/i2d */
TExp *el_coerce(Elab *cx, TExp *e, TBase to) {
  if (!e) return NULL;
  TBase from = el_base(e);
  if (from == to) return e;
  if (from == TB_CHAR || to == TB_CHAR || to == TB_BOOL || (from == TB_DOUBLE))
    return diag_internal(e->loc, "APL elaboration: no coercion from %s to %s", tbase_name(from), tbase_name(to)), NULL;
  if (e->kind == TE_BOOL || e->kind == TE_INT) return to == TB_INT ? el_int(e->ival, e->loc) : el_double((double)e->ival, e->loc);
  if (e->kind == TE_VEC) {
    TExp **items = NEW_ARRAY(TExp *, e->nkids);
    for (int i = 0; i < e->nkids; i++) items[i] = el_coerce(cx, e->kids[i], to);
    return el_vec(e->loc, e->nkids, items);
  }
  if (from == TB_BOOL) e = convert1(cx, e, "b2i");
  return to == TB_DOUBLE ? convert1(cx, e, "i2d") : e;
}

/* ---- the program ---- */



TExp *apl_elaborate(AplProgram *p, const char *file, bool *final) {
  LetScope top = {0};
  Elab cx = { .file = file, .scope = &top };
  EBind *env = NULL;
  TExp *last = NULL;
  if (!el_stmts(&cx, p->nstmts, p->stmts, &env, &last, true)) return NULL;
  AplNode *end = p->stmts[p->nstmts - 1];
  *final = end->kind != AN_ASSIGN && end->kind != AN_OUTPUT;
  if (!last) return diag_error(end->loc, "the program computes nothing"), NULL;
  return el_close(&top, last);
}

EBind *el_lookup(EBind *env, const char *name) {
  for (EBind *b = env; b; b = b->next) if (strcmp(b->name, name) == 0) return b;
  return NULL;
}

EBind *el_bind_name(EBind *env, const char *name, TExp *val, AplNode *fn, EBind *fenv) {
  EBind *b = NEW(EBind);
  *b = (EBind){ name, val, fn, fenv, env };
  return b;
}

/* The statements of the program or of a dfn: assignments extend *env; *last
   is the last statement's value (an assignment's or ⎕←'s value too). */
bool el_stmts(Elab *cx, int n, AplNode **stmts, EBind **env, TExp **last, bool top) {
  for (int i = 0; i < n; i++) {
    AplNode *s = stmts[i];
    cx->env = *env;
    if (s->kind == AN_ASSIGN) {
      AplNode *v = s->kids[0];
      if (v->kind >= AF_PRIM) {   /* a function: kept as APL, inlined at each call */
        *env = el_bind_name(*env, s->name, NULL, v, *env);
        *last = NULL;
        continue;
      }
      TExp *x = el_value(cx, v);
      if (!x) return false;
      TExp *var = x->kind == TE_VAR || el_is_literal(x) ? x : el_bind(cx, x);
      *env = el_bind_name(*env, s->name, var, NULL, NULL);
      *last = var;
      continue;
    }
    if (s->kind == AN_OUTPUT) {
      TExp *x = el_value(cx, s->kids[0]);
      if (!x) return false;
      static const char *const pr[2][4] = { { "prArrI", "prArrD", "prArrB", "prArrC" }, { "prSclI", "prSclD", "prSclB", "prSclC" } };
      TExp *p = el_op(pr[el_rank(x) == 0][el_base(x)], s->loc, 1, x);
      if (!p) return false;
      *last = el_bind(cx, p);
      continue;
    }
    TExp *x = el_value(cx, s);
    if (!x) return false;
    /* a top-level expression that is not the last is computed and dropped
       (it has no effect); bound so that it is type-checked and lowered */
    *last = top && i < n - 1 ? el_bind(cx, x) : x;
  }
  return true;
}

/* ---- values ---- */

static TExp *elab_number(AplNode *a) {
  if (!a->is_int) return el_double(a->dval, a->loc);
  return a->ival == 0 || a->ival == 1 ? el_bool(a->ival, a->loc) : el_int(a->ival, a->loc);
}

/* a strand: a literal vector of the items' join (bool ⊂ int ⊂ double) */
static TExp *elab_strand(Elab *cx, AplNode *a) {
  TExp **items = NEW_ARRAY(TExp *, a->nkids);
  TBase join = TB_BOOL;
  for (int i = 0; i < a->nkids; i++) {
    if (!(items[i] = el_value(cx, a->kids[i]))) return NULL;
    if (el_rank(items[i]) != 0)
      return diag_error(a->kids[i]->start, "nested array: item %d of the strand is not a scalar (nested arrays are not in "
                        "the subset)", i + 1), NULL;
  }
  bool chars = false, numbers = false;
  for (int i = 0; i < a->nkids; i++) {
    if (!el_is_literal(items[i]))
      return diag_error(a->kids[i]->loc, "not supported yet: a strand item that is not a literal (docs/apl.md §6)"), NULL;
    TBase b = el_base(items[i]);
    if (b == TB_CHAR) chars = true; else numbers = true;
    if (chars && numbers) return diag_error(a->kids[i]->loc, "domain error: a strand mixes characters and numbers"), NULL;
    join = i == 0 ? b : el_join(join, b);
  }
  for (int i = 0; i < a->nkids; i++) if (!(items[i] = el_coerce(cx, items[i], join))) return NULL;
  return el_vec(a->loc, a->nkids, items);
}

static TExp *elab_string(AplNode *a) {
  if (a->ncps == 1) return el_char(a->cps[0], a->loc);
  if (a->ncps == 0) return diag_error(a->loc, "not supported yet: the empty string ''"), NULL;
  TExp **items = NEW_ARRAY(TExp *, a->ncps);
  for (int i = 0; i < a->ncps; i++) items[i] = el_char(a->cps[i], a->loc);
  return el_vec(a->loc, a->ncps, items);
}

TExp *el_value(Elab *cx, AplNode *a) {
  if (cx->depth > 400) return diag_error(a->loc, "the program is nested too deeply"), NULL;
  cx->depth++;
  TExp *r = NULL;
  switch (a->kind) {
  case AN_NUM: r = elab_number(a); break;
  case AN_STR: r = elab_string(a); break;
  case AN_STRAND: r = elab_strand(cx, a); break;
  case AN_NAME: {
    EBind *b = el_lookup(cx->env, a->name);
    if (!b) { diag_error(a->loc, "unknown name '%s'", a->name); break; }
    if (!b->val) { diag_error(a->loc, "'%s' is a function, not a value", a->name); break; }
    r = el_copy(b->val);
    r->loc = a->loc;
    break;
  }
  case AN_MONAD: case AN_DYAD: {
    bool dyad = a->kind == AN_DYAD;
    TExp *right = el_value(cx, a->kids[dyad ? 2 : 1]);
    TExp *left = right && dyad ? el_value(cx, a->kids[1]) : NULL;   /* right to left, as APL */
    if (right && (!dyad || left)) r = el_apply(cx, a->kids[0], cx->env, left, right);
    break;
  }
  case AN_INDEX: r = el_index(cx, a); break;
  default:
    diag_internal(a->loc, "APL elaboration: a statement where a value is expected");
  }
  cx->depth--;
  return r;
}

TExp *apl_to_tail(const char *file, const char *text, bool *final) {
  AplProgram *p = apl_parse(file, text);
  return p ? apl_elaborate(p, file, final) : NULL;
}

TailProgram *apl_compile_text(const char *file, const char *text) {
  bool final;
  TExp *e = apl_to_tail(file, text, &final);
  return e ? tail_compile_outputs(e, file, final) : NULL;
}
