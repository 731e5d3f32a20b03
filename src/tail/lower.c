/* lower.c — TAIL to the tree parse_program builds (docs/apl.md §1 "Hand-off",
   §3): EX_APPLY of primitive names, EX_LAMBDA, EX_LET, size literals and
   literals, each carrying the Loc of the TAIL node that made it. Literal
   vectors become hidden inputs (parameters of the core Program). Then the
   .lift stages (normalise, infer) run unchanged. */
#include "lower.h"
#include "../types/infer.h"
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* ---- tree builders ---- */

Expr *lx_var(const char *name, Loc loc) {
  Expr *e = expr_new(EX_VAR, loc, 0);
  e->name = name;
  return e;
}
Expr *lx_int(long long v, Loc loc) { Expr *e = expr_new(EX_INT, loc, 0); e->ival = v; return e; }
Expr *lx_double(double v, Loc loc) { Expr *e = expr_new(EX_DOUBLE, loc, 0); e->fval = v; return e; }
Expr *lx_bool(bool v, Loc loc) { Expr *e = expr_new(EX_BOOL, loc, 0); e->ival = v; return e; }
Expr *lx_nat(long long v, Loc loc) {
  Expr *e = expr_new(EX_NAT, loc, 0);
  e->nat = e->nat_written = nat_const(v);
  return e;
}

Expr *lx_app(Loc loc, const char *f, int n, ...) {
  Expr *e = expr_new(EX_APPLY, loc, n + 1);
  e->kids[0] = lx_var(f, loc);
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) e->kids[i + 1] = va_arg(ap, Expr *);
  va_end(ap);
  return e;
}

Expr *lx_lambda(Loc loc, int n, const char **names, Expr *body) {
  Expr *e = expr_new(EX_LAMBDA, loc, 1);
  e->nparams = n;
  e->params = NEW_ARRAY(Param, n);
  for (int i = 0; i < n; i++) e->params[i] = (Param){ names[i], 0, loc, NULL };
  e->kids[0] = body;
  return e;
}

Expr *lx_let(Loc loc, const char *name, Expr *value, Expr *body) {
  Expr *e = expr_new(EX_LET, loc, 2);
  e->name = name;
  e->kids[0] = value; e->kids[1] = body;
  return e;
}

Expr *lx_known(TBase base, long long k, Loc loc) { return base == TB_BOOL ? lx_bool(k != 0, loc) : lx_int(k, loc); }

/* TAIL names are letters, digits and '_': a quote makes a name no TAIL
   variable and no primitive has. */
const char *lx_fresh(LowerCtx *c, const char *stem) { return arena_printf("%s'%d", stem, ++c->fresh); }

/* A TAIL variable's clift name: itself, unless a primitive or keyword has it. */
static const char *var_name(const char *name) {
  static const char *const keywords[] = { "o", "lift", "lambda", "let", "if", "pack", "unpack", "true", "false" };
  bool taken = prim_lookup(name) != NULL;
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) taken |= strcmp(name, keywords[i]) == 0;
  return taken ? arena_printf("%s'", name) : name;
}

/* ---- values ---- */

LVal *lval_new(Expr *e, TBase base, int rank) {
  LVal *v = NEW(LVal);
  v->e = e; v->base = base; v->rank = rank;
  v->ext = NEW_ARRAY(Nat *, rank);
  return v;
}

LVal *lval_scalar(Expr *e, TBase base) { return lval_new(e, base, 0); }

long long lval_ext(LVal *v, int axis) {
  long long n = 0;
  return nat_is_const(v->ext[axis], &n) ? n : -1;
}

bool lower_static_ext(TExp *e, LVal *v, int axis, long long *n) {
  if ((*n = lval_ext(v, axis)) >= 0) return true;
  return diag_error(e->loc, "not supported yet: %s of an array whose length is known only at run time (a compress "
                    "or replicate result)", e->op ? e->op->name : "this operation");
}

LDyn *lower_dyn_of(LowerCtx *c, Nat *n) {
  for (LDyn *d = c->dyns; d; d = d->next) if (nat_mentions(n, d->var)) return d;
  return NULL;
}

Expr *lx_nat_of(LowerCtx *c, Nat *n, Loc loc) {
  Expr *e = expr_new(EX_NAT, loc, 0);
  e->nat = e->nat_written = n;
  int cap = 0;
  for (LDyn *d = c->dyns; d; d = d->next) {
    if (!nat_mentions(n, d->var)) continue;
    if (!d->name) return diag_internal(loc, "TAIL lowering: a run-time length with no name"), NULL;
    ARENA_PUSH(e->refs, e->nrefs, cap, ((NatRef){ d->name, 0, loc, d->var }));
  }
  return e;
}

Expr *lower_extent_expr(LowerCtx *c, Nat *n, Loc loc) {
  long long k;
  if (nat_is_const(n, &k)) return lx_int(k, loc);
  LDyn *d = lower_dyn_of(c, n);
  if (d && d->name && nat_same(n, nat_var(d->var))) return lx_app(loc, "length", 1, lx_var(d->name, loc));
  return diag_error(loc, "not supported yet: an extent computed from a run-time length"), NULL;
}

LVal *lval_named(LVal *v, const char *name, Loc loc) {
  LVal *r = NEW(LVal);
  *r = *v;
  r->e = lx_var(name, loc);
  return r;
}

static const TypeKind clift_scalar[] = { [TB_INT] = TY_INT, [TB_DOUBLE] = TY_DOUBLE, [TB_BOOL] = TY_BOOL, [TB_CHAR] = TY_INT };

/* A hidden input: a parameter of the core program with its literal. */
static LVal *hidden_input(LowerCtx *c, TBase base, int n, const char *literal, Loc loc) {
  const char *name = lx_fresh(c, "lit");
  Type *t = type_array(type_scalar(clift_scalar[base]), nat_const(n));
  ARENA_PUSH(c->params, c->nparams, c->cap_params, ((Param){ name, ast_fresh_uid(), loc, t }));
  ARENA_PUSH(c->hidden, c->nhidden, c->cap_hidden, literal);
  LVal *v = lval_new(lx_var(name, loc), base, 1);
  v->ext[0] = nat_const(n);
  return v;
}

LVal *lower_static_vector(LowerCtx *c, int n, const long long *vals, Loc loc) {
  Buf b = {0};
  buf_putc(&b, '[');
  for (int i = 0; i < n; i++) buf_printf(&b, "%s%lld", i ? ", " : "", vals[i]);
  buf_putc(&b, ']');
  LVal *v = hidden_input(c, TB_INT, n, buf_str(&b), loc);
  v->vals = NEW_ARRAY(long long, n);
  memcpy(v->vals, vals, sizeof(long long) * (size_t)n);
  return v;
}

static LVal *lower_exp(LowerCtx *c, TExp *e);

/* [e₁,…,eₙ] with computed items (APL's `(≢⍵),1`, ravel's shape): a static
   vector when every item is known when compiling, else
   (map (λi. if i = 0 then e₁ else if … eₙ) (iota #n)) */
static LVal *lower_vec_computed(LowerCtx *c, TExp *e) {
  int n = e->nkids;
  LVal **items = NEW_ARRAY(LVal *, n);
  long long *vals = NEW_ARRAY(long long, n);
  bool known = e->type->base == TB_INT;
  for (int i = 0; i < n; i++) {
    if (!(items[i] = lower_exp(c, e->kids[i]))) return NULL;
    if (items[i]->fn || items[i]->rank != 0) return diag_internal(e->kids[i]->loc, "TAIL lowering: a vector item that is not a scalar"), NULL;
    known &= items[i]->known;
    vals[i] = items[i]->k;
  }
  if (known) return lower_static_vector(c, n, vals, e->loc);
  Loc l = e->loc;
  const char *x = lx_fresh(c, "i");
  Expr *body = items[n - 1]->e;
  for (int k = n - 2; k >= 0; k--) {
    Expr *sel = expr_new(EX_IF, l, 3);
    sel->kids[0] = lx_app(l, "=", 2, lx_var(x, l), lx_int(k, l));
    sel->kids[1] = items[k]->e; sel->kids[2] = body;
    body = sel;
  }
  LVal *v = lval_new(lx_app(l, "map", 2, lx_lambda(l, 1, &x, body), lx_app(l, "iota", 1, lx_nat(n, l))), e->type->base, 1);
  v->ext[0] = nat_const(n);
  return v;
}

/* [e₁,…,eₙ] of literals: a hidden input (§3.1). */
static LVal *lower_vec(LowerCtx *c, TExp *e) {
  Buf b = {0};
  long long *vals = NEW_ARRAY(long long, e->nkids);
  buf_putc(&b, '[');
  for (int i = 0; i < e->nkids; i++) {
    TExp *k = e->kids[i];
    if (i) buf_puts(&b, ", ");
    switch (k->kind) {
    case TE_INT: case TE_CHAR: buf_printf(&b, "%lld", k->ival); vals[i] = k->ival; break;
    case TE_BOOL: buf_puts(&b, k->ival ? "true" : "false"); vals[i] = k->ival; break;
    case TE_DOUBLE:
      if (!isfinite(k->dval)) return diag_error(k->loc, "not supported yet: an infinite double inside a vector literal"), NULL;
      buf_printf(&b, "%.17g", k->dval);
      break;
    default:
      return lower_vec_computed(c, e);
    }
  }
  buf_putc(&b, ']');
  LVal *v = hidden_input(c, e->type->base, e->nkids, buf_str(&b), e->loc);
  if (e->type->base == TB_INT || e->type->base == TB_BOOL) v->vals = vals;   /* counts, masks, shapes */
  else if (e->type->base == TB_DOUBLE && e->nkids > 0) {   /* the range of its items */
    double lo = e->kids[0]->dval, hi = lo;
    for (int i = 1; i < e->nkids; i++) { lo = fmin(lo, e->kids[i]->dval); hi = fmax(hi, e->kids[i]->dval); }
    lower_range_double(v, lo, hi);
  }
  return v;
}


static LVal *lower_op(LowerCtx *c, TExp *e) {
  if (!e->applied) {   /* a function value, lowered where it is applied */
    LVal *f = NEW(LVal);
    f->fn = e; f->env = c->env;
    return f;
  }
  if (!e->op->lower)
    return diag_error(e->loc, "not supported yet: the TAIL operation '%s' is not lowered to clift (docs/apl.md §5)",
                      e->op->name), NULL;
  LVal **args = NEW_ARRAY(LVal *, e->nkids);
  for (int i = 0; i < e->nkids; i++) if (!(args[i] = lower_exp(c, e->kids[i]))) return NULL;
  /* a value kept with its last axis first is read in TAIL's order, except by
     the operations that take it as it is (transp2, each, zipWith) */
  if (e->op->lower != lower_transp2 && e->op->lower != lower_transp && e->op->lower != lower_each && e->op->lower != lower_zipwith)
    for (int i = 0; i < e->nkids; i++) if (!(args[i] = lower_unfold(c, e, args[i]))) return NULL;
  return lower_ranged(e, args, e->op->lower(c, e, args));
}

static LVal *lower_top(LowerCtx *c, TExp *e);

/* Is `name` (of rank `rank`) the array of a reshape0 to a higher rank in e:
   replicated along new axes, as inner and outer products do (§3.3)? */
static bool broadcast_use(TExp *e, const char *name, int rank) {
  if (!e) return false;
  if ((e->kind == TE_LET || e->kind == TE_FN) && strcmp(e->name, name) == 0)   /* shadowed below */
    return e->kind == TE_LET && broadcast_use(e->kids[0], name, rank);
  if (e->kind == TE_OP && e->applied && e->nkids == 2 && strcmp(e->op->name, "reshape0") == 0
      && e->kids[1]->kind == TE_VAR && strcmp(e->kids[1]->name, name) == 0 && e->type && ttype_rank(e->type) > rank)
    return true;
  for (int i = 0; i < e->nkids; i++) if (broadcast_use(e->kids[i], name, rank)) return true;
  return false;
}

/* How many times the elements of `name` are read in e (shadowing respected;
   shape(name) reads none: Sobol's `X +.× v` reshapes v to shape(X)'s rows, and
   X, 10^7 × 30 reductions, was written to memory as if it were read twice). */
static int uses(TExp *e, const char *name) {
  if (!e) return 0;
  if (e->kind == TE_VAR) return strcmp(e->name, name) == 0;
  if (e->kind == TE_OP && e->op->lower == lower_shape) return 0;
  if ((e->kind == TE_LET || e->kind == TE_FN) && strcmp(e->name, name) == 0)
    return e->kind == TE_LET ? uses(e->kids[0], name) : 0;
  int n = 0;
  for (int i = 0; i < e->nkids; i++) n += uses(e->kids[i], name);
  return n;
}

/* Does e reduce (each element of its value is a reduction)? */
bool lower_reduces(TExp *e) {
  if (!e) return false;
  if (e->kind == TE_OP && strcmp(e->op->name, "reduce") == 0) return true;
  for (int i = 0; i < e->nkids; i++) if (lower_reduces(e->kids[i])) return true;
  return false;
}

bool lower_reads_reductions(LowerCtx *c, TExp *e) {
  if (!e) return false;
  if (e->kind == TE_OP && e->op->lower == lower_shape) return false;
  if (e->kind == TE_OP && strcmp(e->op->name, "reduce") == 0) return true;
  if (e->kind == TE_VAR) {
    for (LEnv *b = c->env; b; b = b->next)
      if (strcmp(b->name, e->name) == 0) return !b->val->fn && b->val->reduces;
    return false;
  }
  for (int i = 0; i < e->nkids; i++) if (lower_reads_reductions(c, e->kids[i])) return true;
  return false;
}

/* Does computing an element of e call a math function or reduce (more than a
   few instructions: worth memory rather than recomputing per use)? */
bool lower_costly(TExp *e) {
  static const char *const costly[] = { "reduce", "powd", "expd", "ln", "sqrt", "sin", "cos", "tan", "divd" };
  if (!e) return false;
  for (size_t k = 0; e->kind == TE_OP && k < sizeof costly / sizeof costly[0]; k++)
    if (strcmp(e->op->name, costly[k]) == 0) return true;
  for (int i = 0; i < e->nkids; i++) if (lower_costly(e->kids[i])) return true;
  return false;
}

/* e (an array of rank r) written to memory: a mapGlb over its rows, mapSeq
   below (at the top of the program: a kernel, or a parallel loop, of its own). */
Expr *lower_materialise(LowerCtx *c, Expr *e, int r, Loc loc) {
  const char *x = lx_fresh(c, "m");
  Expr *id = lx_lambda(loc, 1, &x, lx_var(x, loc));   /* the identity on an element of rank 0, … */
  for (int d = 1; d < r; d++) {                        /* … then of rank d */
    const char *y = lx_fresh(c, "m");
    id = lx_lambda(loc, 1, &y, lx_app(loc, "mapSeq", 2, id, lx_var(y, loc)));
  }
  return lx_app(loc, "mapGlb", 2, id, e);
}

/* A value that is bound, or is the program's, has a run-time length only
   outermost in clift (SPEC §3.4: {∃X.[[T]M]X}): on its first axis, or on its
   last where it is held with that axis first (rows_first: L/M, and what
   reads it into TAIL's order, +\R, held again by lower_hold); inside an
   expression a transposing view is read where it is (+⌿ of a ⌿ result, +/ of
   a / result, lower_unfold). A run-time length on a middle axis (1 3 2⍉ of a
   / result of rank 3) is refused. */
static int outer_axis(LVal *v) { return v->rows_first ? v->rank - 1 : 0; }

static bool outermost_only(LowerCtx *c, LVal *v, Loc loc) {
  for (int i = 0; i < v->rank; i++)
    if (i != outer_axis(v) && lower_dyn_of(c, v->ext[i]))
      return diag_error(loc, "not supported yet: an array of rank %d with a run-time length on axis %d, neither its "
                        "first nor its last (clift's run-time lengths are outermost only, SPEC §3.4, and only a run-time "
                        "last axis is held first; docs/apl.md §3.2)", v->rank, i + 1);
  return true;
}

/* let x = v in body. On the top-level chain, let x = prArr…(v) records x as
   an output (§4); a run-time length bound here gets x's name. */
static LVal *lower_let(LowerCtx *c, TExp *e) {
  bool top = c->top;
  TExp *val = e->kids[0];
  bool print = top && val->kind == TE_OP && val->applied && tail_op_is_print(val->op);
  c->top = false;
  LVal *v = lower_exp(c, print ? val->kids[0] : val);
  c->top = top;
  if (!(v = lower_hold(c, e, v))) return NULL;
  LEnv *saved = c->env, *b = NEW(LEnv);
  const char *name = var_name(e->name);
  if (!v->fn && v->rank > 0) {
    LDyn *d = lower_dyn_of(c, v->ext[outer_axis(v)]);
    if (d && !d->name) d->name = name;
    if (!outermost_only(c, v, val->loc)) return NULL;
    /* an array the program replicates (an operand of an inner or outer
       product), or reductions read more than once, are computed once, not
       once per use (docs/apl.md §3.3) */
    if (top && !d && v->e->kind != EX_VAR
        && (broadcast_use(e->kids[1], e->name, v->rank) || (lower_reduces(val) && uses(e->kids[1], e->name) > 1)))
      v->e = lower_materialise(c, v->e, v->rank, e->loc);
    else if (lower_reduces(val))
      v->reduces = true;   /* computed where it is read: a reduce over its rows keeps each row private (lower_ops.c) */
  }
  *b = (LEnv){ e->name, v->fn ? v : lval_named(v, name, e->loc), saved };
  if (print) ARENA_PUSH(c->outs, c->nouts, c->cap_outs, ((LOut){ b->val, val->kids[0]->type }));
  c->env = b;
  LVal *body = top ? lower_top(c, e->kids[1]) : lower_exp(c, e->kids[1]);
  c->env = saved;
  if (!body || v->fn) return body;   /* a function is inlined at its uses */
  LVal *r = NEW(LVal);
  *r = *body;
  r->e = lx_let(e->loc, name, v->e, body->e);
  return r;
}

static LVal *lower_exp(LowerCtx *c, TExp *e) {
  switch (e->kind) {
  case TE_INT: case TE_BOOL: case TE_CHAR: {
    TBase base = e->kind == TE_INT ? TB_INT : e->kind == TE_BOOL ? TB_BOOL : TB_CHAR;
    LVal *v = lval_scalar(base == TB_BOOL ? lx_bool(e->ival, e->loc) : lx_int(e->ival, e->loc), base);
    v->known = true; v->k = e->ival;
    return v;
  }
  case TE_DOUBLE:   /* clift has no inf literal: ±1.0 / 0.0 (IEEE on every target) */
    if (isinf(e->dval))
      return lval_scalar(lx_app(e->loc, "/", 2, lx_double(e->dval < 0 ? -1.0 : 1.0, e->loc), lx_double(0.0, e->loc)), TB_DOUBLE);
    return lower_range_double(lval_scalar(lx_double(e->dval, e->loc), TB_DOUBLE), e->dval, e->dval);
  case TE_VEC: return lower_vec(c, e);
  case TE_OP: return lower_op(c, e);
  case TE_VAR:   /* a fresh node per use: no subtree is shared in the clift tree */
    for (LEnv *b = c->env; b; b = b->next)
      if (strcmp(b->name, e->name) == 0) return b->val->fn ? b->val : lval_named(b->val, b->val->e->name, e->loc);
    return diag_internal(e->loc, "TAIL lowering: unbound variable '%s' after checking", e->name), NULL;
  case TE_LET: return lower_let(c, e);
  case TE_FN: {
    LVal *f = NEW(LVal);
    f->fn = e; f->env = c->env;
    return f;
  }
  case TE_IF:
    return diag_error(e->loc, "not supported yet: 'if' in TAIL (docs/apl.md §5)"), NULL;
  }
  return NULL;
}

/* ---- the outputs (docs/apl.md §4) ---- */

static Expr *fill_of(TBase base, Loc loc) {
  return base == TB_DOUBLE ? lx_double(0, loc) : base == TB_BOOL ? lx_bool(false, loc) : lx_int(0, loc);
}

/* The printed values and the final one as the program's result: the value
   itself for one static output, else a tuple with two fields per dynamic
   output: (length x) and x padded to its bound. */
static LVal *lower_outputs(LowerCtx *c, Loc loc) {
  if (c->nouts == 0) return diag_error(loc, "the program prints nothing (no ⎕← and no final value)"), NULL;
  int nfields = 0;
  Expr **fields = NEW_ARRAY(Expr *, 2 * c->nouts);
  bool dynamic = false;
  for (int i = 0; i < c->nouts; i++) {
    LVal *v = c->outs[i].v;
    Expr *x = v->e->kind == EX_VAR ? lx_var(v->e->name, loc) : v->e;
    LDyn *d = v->rank > 0 ? lower_dyn_of(c, v->ext[outer_axis(v)]) : NULL;
    if (!d) { fields[nfields++] = x; continue; }
    if (!d->name) return diag_internal(loc, "TAIL lowering: an unnamed run-time length in an output"), NULL;
    dynamic = true;
    Expr *pad = lx_nat_of(c, nat_sub(d->bound, v->ext[outer_axis(v)]), loc), *fill = fill_of(v->base, loc);
    if (!pad) return NULL;
    for (int a = v->rank - 1; a >= 1; a--) {   /* a matrix's rows (⌿'s result): padded with rows of fills */
      const char *i = lx_fresh(c, "i");
      Expr *n = lx_nat_of(c, v->ext[v->rows_first ? a - 1 : a], loc);
      if (!n) return NULL;
      fill = lx_app(loc, "map", 2, lx_lambda(loc, 1, &i, fill), lx_app(loc, "iota", 1, n));
    }
    fields[nfields++] = lx_app(loc, "length", 1, lx_var(d->name, loc));
    fields[nfields++] = lx_app(loc, "padConstant", 4, lx_nat(0, loc), pad, fill, x);
  }
  if (c->nouts == 1 && !dynamic) return c->outs[0].v;
  Expr *t = expr_new(EX_APPLY, loc, nfields + 1);
  t->kids[0] = lx_var("tuple", loc);
  for (int i = 0; i < nfields; i++) t->kids[i + 1] = fields[i];
  return lval_new(t, TB_INT, 0);
}

/* The body of the top-level let chain: the final value (an output unless
   c->final is false), then the outputs. A final value of run-time length is
   let-bound first, for its name. */
static LVal *lower_top(LowerCtx *c, TExp *e) {
  if (e->kind == TE_LET) return lower_let(c, e);
  c->top = false;
  LVal *v = lower_hold(c, e, lower_exp(c, e));
  if (!v) return NULL;
  if (v->fn) return diag_error(e->loc, "the program's value is a function"), NULL;
  if (!outermost_only(c, v, e->loc)) return NULL;
  const char *bound = NULL;
  Expr *value = v->e;
  if (c->final) {
    LDyn *d = v->rank > 0 ? lower_dyn_of(c, v->ext[outer_axis(v)]) : NULL;
    if (d && !d->name) {
      bound = d->name = lx_fresh(c, "out");
      v = lval_named(v, bound, e->loc);
    }
    ARENA_PUSH(c->outs, c->nouts, c->cap_outs, ((LOut){ v, e->type }));
  }
  LVal *r = lower_outputs(c, e->loc);
  if (!r || !bound) return r;
  LVal *w = NEW(LVal);
  *w = *r;
  w->e = lx_let(e->loc, bound, value, r->e);
  return w;
}

/* ---- functions, inlined at each use with their arguments' shapes ---- */

LVal *lower_apply(LowerCtx *c, LVal *f, int n, LVal **args, Loc loc) {
  TExp *fe = f->fn;
  if (fe->kind == TE_OP) {   /* an operation as a value: applied inline */
    TExp call = *fe;   /* op(x₁,…,xₙ) at the use, for the rule's positions */
    call.applied = true; call.nkids = n; call.loc = loc;
    call.kids = NEW_ARRAY(TExp *, n);
    for (int i = 0; i < n; i++) { call.kids[i] = NEW(TExp); call.kids[i]->kind = TE_VAR; call.kids[i]->loc = loc; }
    if (!fe->op->lower)
      return diag_error(fe->loc, "not supported yet: the TAIL operation '%s' is not lowered to clift", fe->op->name), NULL;
    LVal **in = NEW_ARRAY(LVal *, n);   /* read in TAIL's order, as lower_op's */
    for (int i = 0; i < n; i++) if (!(in[i] = lower_unfold(c, &call, args[i]))) return NULL;
    return lower_ranged(&call, in, fe->op->lower(c, &call, in));
  }
  /* fn x => body: x bound to the argument, through a clift let unless it is a
     variable already (a curried fn takes its arguments one at a time) */
  LVal *arg = args[0];
  const char *let = arg->fn || arg->e->kind == EX_VAR ? NULL : lx_fresh(c, fe->name);
  LEnv *saved = c->env, *b = NEW(LEnv);
  *b = (LEnv){ fe->name, let ? lval_named(arg, let, loc) : arg, f->env };
  c->env = b;
  LVal *r = lower_exp(c, fe->kids[0]);
  if (r && n > 1) r = r->fn ? lower_apply(c, r, n - 1, args + 1, loc)
                            : (diag_internal(loc, "TAIL lowering: too many arguments"), NULL);
  c->env = saved;
  if (!r || !let) return r;
  LVal *v = NEW(LVal);
  *v = *r;
  v->e = lx_let(loc, let, arg->e, r->e);
  return v;
}

LVal *lower_fn(LowerCtx *c, LVal *f, int n, LVal **args, Loc loc) {
  const char **names = NEW_ARRAY(const char *, n);
  LVal **params = NEW_ARRAY(LVal *, n);
  for (int i = 0; i < n; i++) {
    names[i] = lx_fresh(c, "x");
    params[i] = lval_named(args[i], names[i], loc);
    if (!params[i]->ranged && !args[i]->fn) params[i]->ranged = lower_range_of(args[i], &params[i]->lo, &params[i]->hi);
    params[i]->known = false; params[i]->vals = NULL;
  }
  c->fn_depth++;
  LVal *body = lower_apply(c, f, n, params, loc);
  c->fn_depth--;
  if (!body) return NULL;
  if (body->fn) return diag_error(loc, "not supported yet: a function that returns a function"), NULL;
  LVal *r = NEW(LVal);
  *r = *body;
  /* a body known when compiling (`fn x => 2`: a constant count) keeps its value as a range */
  if (!r->ranged) r->ranged = lower_range_of(body, &r->lo, &r->hi);
  r->known = false; r->vals = NULL;
  r->e = lx_lambda(loc, n, names, body->e);
  return r;
}

/* ---- the program ---- */

TailProgram *tail_lower(TExp *e, const char *file, bool final) {
  LowerCtx c = { .file = file, .top = true, .final = final };
  LVal *v = lower_top(&c, e);
  if (!v) return NULL;
  Program *p = NEW(Program);
  p->file = file; p->loc = e->loc;
  p->sizes = NEW_ARRAY(NatVar *, 0);
  p->nparams = c.nparams; p->params = c.params ? c.params : NEW_ARRAY(Param, 0);
  p->body = v->e;
  TailProgram *tp = NEW(TailProgram);
  tp->tail = e; tp->core = p;
  p->grid2d = true;   /* rank-2 element-wise maps on a 2-D grid (docs/apl.md §3.2) */
  tp->nhidden = c.nhidden; tp->hidden = c.hidden;
  tp->type = e->type; tp->rank = v->rank; tp->ext = v->ext;
  tp->noutputs = c.nouts;
  tp->outputs = NEW_ARRAY(TailOutput, c.nouts);
  for (int i = 0; i < c.nouts; i++) {
    LVal *o = c.outs[i].v;
    int outer = o->rank > 0 ? outer_axis(o) : 0;
    LDyn *d = o->rank > 0 ? lower_dyn_of(&c, o->ext[outer]) : NULL;
    tp->outputs[i] = (TailOutput){ c.outs[i].type, o->rank, o->ext, d != NULL, o->rows_first };
    if (d) {   /* the bound in place of the run-time length, the other extents static */
      tp->outputs[i].ext = NEW_ARRAY(Nat *, o->rank);
      for (int a = 0; a < o->rank; a++) tp->outputs[i].ext[a] = a == outer ? d->bound : o->ext[a];
    }
    tp->tuple |= d != NULL;
  }
  tp->tuple |= c.nouts > 1;
  if (c.nouts == 1) { tp->type = c.outs[0].type; tp->rank = tp->outputs[0].rank; tp->ext = tp->outputs[0].ext; }
  return tp;
}

TailProgram *tail_compile_text(const char *file, const char *text) {
  TExp *e = tail_parse(file, text);
  return e ? tail_compile(e, file) : NULL;
}

TailProgram *tail_compile(TExp *e, const char *file) { return tail_compile_outputs(e, file, true); }

TailProgram *tail_compile_outputs(TExp *e, const char *file, bool final) {
  if (!tail_check(e)) return NULL;
  TailProgram *tp = tail_lower(e, file, final);
  if (!tp) return NULL;
  /* the lowering builds well-typed clift; an error here is a bug of it */
  if (!normalize_program(tp->core) || !infer_program(tp->core)) {
    if (diag_kind() == DIAG_ERROR) {
      const char *msg = arena_strdup(diag_message());   /* diag_clear empties the buffer it points into */
      diag_clear();
      diag_internal(e->loc, "TAIL lowering produced a clift program that does not check: %s", msg);
    }
    return NULL;
  }
  return tp;
}

Value **tail_inputs(TailProgram *tp) {
  Value **in = NEW_ARRAY(Value *, tp->nhidden);
  for (int i = 0; i < tp->nhidden; i++)
    if (!(in[i] = value_parse(tp->hidden[i], tp->core->params[i].type, "TAIL literal"))) return NULL;
  return in;
}

bool tail_is_file(const char *path) {
  size_t n = strlen(path);
  return n > 5 && strcmp(path + n - 5, ".tail") == 0;
}
