/* parse.c — FCL's concrete syntax (docs/fcl.md §1) into FExp trees: sig/fun/val
   definitions, fn, let … in [end], if, do<l> { x <- e ; … }, |>, pairs, level
   arguments f<block>, #BlockSize and the scalar operators. The do-notation and
   the operators are sugar: `x <- e ; s` is bind<l> e (fn x => s), `a + b` is
   (+) a b. Nesting is limited (FCL_MAX_DEPTH): an error, never a stack overflow. */
#include "fcl.h"
#include <string.h>

typedef struct Parser {
  FToken *t;
  int pos, n, depth;
  const char **lscope;   /* the level variables in scope (names) */
  int nlscope, lcap;
} Parser;

static FToken *cur(Parser *ps) { return &ps->t[ps->pos]; }
static FToken *peek(Parser *ps, int k) { return &ps->t[ps->pos + k < ps->n ? ps->pos + k : ps->n - 1]; }
static bool at(Parser *ps, FTokKind k) { return cur(ps)->kind == k; }
static bool at_op(Parser *ps, const char *op) { return at(ps, FT_OP) && strcmp(cur(ps)->text, op) == 0; }
static void advance(Parser *ps) { if (ps->pos < ps->n - 1) ps->pos++; }

static const char *describe(FToken *t) {
  if (t->kind == FT_ID || t->kind == FT_TYVAR || t->kind == FT_OP) return arena_printf("'%s'", t->text);
  return fcl_token_name(t->kind);
}

static bool expect(Parser *ps, FTokKind k, const char *where) {
  if (at(ps, k)) { advance(ps); return true; }
  return diag_error(cur(ps)->loc, "expected %s %s, found %s", fcl_token_name(k), where, describe(cur(ps)));
}
static bool expect_op(Parser *ps, const char *op, const char *where) {
  if (at_op(ps, op)) { advance(ps); return true; }
  return diag_error(cur(ps)->loc, "expected '%s' %s, found %s", op, where, describe(cur(ps)));
}

static bool enter(Parser *ps) {
  if (ps->depth >= FCL_MAX_DEPTH)
    return diag_error(cur(ps)->loc, "the program is nested too deeply (more than %d levels)", FCL_MAX_DEPTH);
  ps->depth++;
  return true;
}

static FExp *mk(FExpKind k, Loc loc) {
  FExp *e = NEW(FExp);
  e->kind = k;
  e->loc = loc;
  return e;
}
static FExp *mk_var(const char *name, Loc loc) { FExp *e = mk(FE_VAR, loc); e->name = name; return e; }
/* a name the sugar introduces (bind, neg, the operators): always the built-in */
static FExp *mk_builtin(const char *name, Loc loc) { FExp *e = mk_var(name, loc); e->slot = -1; return e; }
static FExp *mk_app(FExp *f, FExp *x, Loc loc) { FExp *e = mk(FE_APP, loc); e->a = f; e->b = x; return e; }
static FExp *mk_fn(const char *x, FExp *body, Loc loc) { FExp *e = mk(FE_FN, loc); e->name = x; e->a = body; return e; }

/* ---- levels: Z | thread | block | grid | 1 + l | δ | ( l ) ---- */
static bool level_in_scope(Parser *ps, const char *name) {
  for (int i = ps->nlscope - 1; i >= 0; i--) if (strcmp(ps->lscope[i], name) == 0) return true;
  return false;
}

/* quiet: no diagnostic (trying whether `<` starts level arguments) */
static FLevel *parse_level(Parser *ps, bool quiet) {
  FToken *t = cur(ps);
  if (ps->depth >= FCL_MAX_DEPTH) return quiet ? NULL : (enter(ps), NULL);
  if (t->kind == FT_INT && t->ival == 1 && peek(ps, 1)->kind == FT_OP && strcmp(peek(ps, 1)->text, "+") == 0) {
    advance(ps); advance(ps);
    ps->depth++;
    FLevel *in = parse_level(ps, quiet);
    ps->depth--;
    return in ? flevel_new(FL_SUCC, in, NULL) : NULL;
  }
  if (t->kind == FT_LPAREN) {
    advance(ps);
    ps->depth++;
    FLevel *l = parse_level(ps, quiet);
    ps->depth--;
    if (!l) return NULL;
    if (!at(ps, FT_RPAREN)) return quiet ? NULL : (expect(ps, FT_RPAREN, "after a level"), NULL);
    advance(ps);
    return l;
  }
  if (t->kind == FT_ID) {
    const char *s = t->text;
    FLevel *l = NULL;
    if (strcmp(s, "Z") == 0 || strcmp(s, "thread") == 0) l = flevel_new(FL_Z, NULL, NULL);
    else if (strcmp(s, "block") == 0) l = flevel_new(FL_SUCC, flevel_new(FL_Z, NULL, NULL), NULL);
    else if (strcmp(s, "grid") == 0) l = flevel_new(FL_SUCC, flevel_new(FL_SUCC, flevel_new(FL_Z, NULL, NULL), NULL), NULL);
    else if (level_in_scope(ps, s)) l = flevel_new(FL_VAR, NULL, s);
    else if (quiet) return NULL;
    else return diag_error(t->loc, "unknown level '%s' (levels: thread, block, grid, Z, 1+l, or a level variable declared in <…>)", s), NULL;
    advance(ps);
    return l;
  }
  if (!quiet) diag_error(t->loc, "expected a level (thread, block, grid, Z, 1+l or a level variable), found %s", describe(t));
  return NULL;
}

/* `<` level {, level} `>` at the current token (an OP "<"). quiet: restore
   the position and return false when the tokens are not level arguments. */
static bool parse_level_args(Parser *ps, bool quiet, FLevel ***out, int *nout) {
  int save = ps->pos;
  FLevel **ls = NULL;
  int n = 0, cap = 0;
  advance(ps);   /* < */
  for (;;) {
    FLevel *l = parse_level(ps, quiet);
    if (!l) { if (quiet) ps->pos = save; return false; }
    ARENA_PUSH(ls, n, cap, l);
    if (at(ps, FT_COMMA)) { advance(ps); continue; }
    if (at_op(ps, ">")) { advance(ps); break; }
    if (quiet) { ps->pos = save; return false; }
    return expect_op(ps, ">", "after the level arguments");
  }
  *out = ls;
  *nout = n;
  return true;
}

/* `<` δ {,? δ} `>`: declared level parameters, added to the scope */
static bool parse_level_params(Parser *ps, FLevel ***out, int *nout) {
  FLevel **ls = NULL;
  int n = 0, cap = 0;
  advance(ps);   /* < */
  while (!at_op(ps, ">")) {
    if (!at(ps, FT_ID)) return diag_error(cur(ps)->loc, "expected a level variable, found %s", describe(cur(ps)));
    const char *s = cur(ps)->text;
    if (!strcmp(s, "Z") || !strcmp(s, "thread") || !strcmp(s, "block") || !strcmp(s, "grid"))
      return diag_error(cur(ps)->loc, "'%s' is a level, not a level variable", s);
    ARENA_PUSH(ls, n, cap, flevel_new(FL_VAR, NULL, s));
    ARENA_PUSH(ps->lscope, ps->nlscope, ps->lcap, s);
    advance(ps);
    if (at(ps, FT_COMMA)) advance(ps);
  }
  advance(ps);
  *out = ls;
  *nout = n;
  return true;
}

/* ---- types (§5.3.1; docs/fcl.md §2.1) ---- */
typedef struct TyScope { const char **names; FType **vars; int n, ncap, vcap; bool implicit; } TyScope;

static void scope_add(TyScope *sc, const char *name, FType *v) {
  int n = sc->n;
  ARENA_PUSH(sc->names, n, sc->ncap, name);
  ARENA_PUSH(sc->vars, sc->n, sc->vcap, v);
}

static FType *parse_type(Parser *ps, TyScope *sc);

static FType *tyvar_named(Parser *ps, TyScope *sc, FToken *t) {
  for (int i = 0; i < sc->n; i++) if (strcmp(sc->names[i], t->text) == 0) return sc->vars[i];
  if (!sc->implicit) return diag_error(t->loc, "unknown type variable %s", t->text), NULL;
  FType *v = ftype_var(FK_TYP, t->loc);
  v->name = t->text;
  scope_add(sc, t->text, v);
  (void)ps;
  return v;
}

static bool is_level_open(Parser *ps) { return at_op(ps, "<"); }

static FType *parse_atype(Parser *ps, TyScope *sc) {
  FToken *t = cur(ps);
  FType *r = NULL;
  if (!enter(ps)) return NULL;
  if (t->kind == FT_TYVAR) { advance(ps); r = tyvar_named(ps, sc, t); }
  else if (t->kind == FT_ID) {
    advance(ps);
    if (!strcmp(t->text, "int")) r = ftype_new(FY_INT, NULL, NULL, NULL);
    else if (!strcmp(t->text, "double")) r = ftype_new(FY_DOUBLE, NULL, NULL, NULL);
    else if (!strcmp(t->text, "bool")) r = ftype_new(FY_BOOL, NULL, NULL, NULL);
    else if (!strcmp(t->text, "unit")) r = ftype_new(FY_UNIT, NULL, NULL, NULL);
    else if (!strcmp(t->text, "Program")) {
      FLevel **ls; int n;
      if (!is_level_open(ps)) { diag_error(cur(ps)->loc, "expected '<' level '>' after Program, found %s", describe(cur(ps))); goto out; }
      if (!parse_level_args(ps, false, &ls, &n)) goto out;
      if (n != 1) { diag_error(t->loc, "Program takes one level, not %d", n); goto out; }
      FType *res = parse_atype(ps, sc);
      if (res) r = ftype_new(FY_PROG, res, NULL, ls[0]);
    } else diag_error(t->loc, "unknown type '%s' (types: int, double, bool, unit, 'a, (t, t), t -> t, [t], [t]<l>, Program<l> t)", t->text);
  } else if (t->kind == FT_LPAREN) {
    advance(ps);
    if (at(ps, FT_RPAREN)) { advance(ps); r = ftype_new(FY_UNIT, NULL, NULL, NULL); goto out; }
    FType *a = parse_type(ps, sc);
    if (!a) goto out;
    if (at(ps, FT_COMMA)) {
      advance(ps);
      FType *b = parse_type(ps, sc);
      if (!b) goto out;
      if (at(ps, FT_COMMA)) { diag_error(cur(ps)->loc, "FCL tuples are pairs: write (a, (b, c))"); goto out; }
      a = ftype_new(FY_PAIR, a, b, NULL);
    }
    if (expect(ps, FT_RPAREN, "to close the type")) r = a;
  } else if (t->kind == FT_LBRACK) {
    advance(ps);
    FType *e = parse_type(ps, sc);
    if (!e || !expect(ps, FT_RBRACK, "to close the array type")) goto out;
    if (is_level_open(ps)) {
      FLevel **ls; int n;
      if (!parse_level_args(ps, false, &ls, &n)) goto out;
      if (n != 1) { diag_error(t->loc, "a push array type takes one level, not %d", n); goto out; }
      r = ftype_new(FY_PUSH, e, NULL, ls[0]);
    } else r = ftype_new(FY_PULL, e, NULL, NULL);
  } else diag_error(t->loc, "expected a type, found %s", describe(t));
out:
  ps->depth--;
  return r;
}

static FType *parse_type(Parser *ps, TyScope *sc) {
  if (!enter(ps)) return NULL;
  FType *a = parse_atype(ps, sc);
  if (a && at(ps, FT_ARROW)) {
    advance(ps);
    FType *b = parse_type(ps, sc);
    a = b ? ftype_new(FY_FUN, a, b, NULL) : NULL;
  }
  ps->depth--;
  return a;
}

static bool parse_kind(Parser *ps, FKind *k) {
  const char *s = at(ps, FT_ID) ? cur(ps)->text : "";
  if (!strcmp(s, "BT")) *k = FK_BT;
  else if (!strcmp(s, "GT")) *k = FK_GT;
  else if (!strcmp(s, "TYP")) *k = FK_TYP;
  else return diag_error(cur(ps)->loc, "expected a kind (BT, GT or TYP), found %s", describe(cur(ps)));
  advance(ps);
  return true;
}

/* forall <δ…> 'a[:κ] … . τ — variables not listed are quantified implicitly
   (the thesis's dotp mentions 'c and 'd without listing them). The kinds of
   unannotated variables are the largest their occurrences allow (rules
   5.10–5.12: inside [·] GT, inside [·]<l> BT). */
static FScheme *parse_scheme(Parser *ps) {
  FScheme *s = NEW(FScheme);
  TyScope sc = { .implicit = true };
  int lscope_mark = ps->nlscope;
  bool *annotated = NULL;
  int nann = 0, anncap = 0;
  if (at(ps, FT_FORALL)) {
    advance(ps);
    if (is_level_open(ps)) {
      if (!parse_level_params(ps, &s->lvars, &s->nlvars)) return NULL;
    }
    while (at(ps, FT_TYVAR)) {
      FToken *t = cur(ps);
      for (int i = 0; i < sc.n; i++)
        if (!strcmp(sc.names[i], t->text)) return diag_error(t->loc, "type variable %s listed twice", t->text), NULL;
      FType *v = ftype_var(FK_TYP, t->loc);
      v->name = t->text;
      advance(ps);
      bool ann = false;
      if (at(ps, FT_COLON)) { advance(ps); if (!parse_kind(ps, &v->vkind)) return NULL; ann = true; }
      scope_add(&sc, t->text, v);
      ARENA_PUSH(annotated, nann, anncap, ann);
      if (at(ps, FT_COMMA)) advance(ps);
    }
    if (!expect(ps, FT_DOT, "after the quantified variables")) return NULL;
  }
  int nlisted = sc.n;
  for (int i = 0; i < nlisted; i++) sc.vars[i]->rigid = sc.vars[i]->fixed = annotated[i];
  Loc loc = cur(ps)->loc;
  s->body = parse_type(ps, &sc);
  if (!s->body || !ftype_has_kind(s->body, FK_TYP, loc)) return NULL;
  for (int i = 0; i < sc.n; i++) sc.vars[i]->rigid = true;   /* kinds still open (fixed after the definition) */
  /* the level names of the scheme become its FL_VAR objects */
  ps->nlscope = lscope_mark;
  s->ntvars = sc.n;
  s->tvars = sc.vars;
  return s;
}

/* ---- expressions ---- */
static FExp *parse_expr(Parser *ps);

/* The start of the next binding of a `let`, which ends the application before
   it (the thesis writes `let i = n / rows  j = n % rows in …`): x = …, x<δ> = …,
   or, first on its line, f x y = … (docs/fcl.md §1.3) */
static bool at_binding_start(Parser *ps) {
  if (!at(ps, FT_ID)) return false;
  int k = 1;
  if (peek(ps, k)->kind == FT_OP && !strcmp(peek(ps, k)->text, "<")) {
    while (peek(ps, k)->kind != FT_EOF && !(peek(ps, k)->kind == FT_OP && !strcmp(peek(ps, k)->text, ">"))) k++;
    k++;
  }
  if (peek(ps, k)->kind == FT_EQ) return true;
  bool line_start = ps->pos == 0 || ps->t[ps->pos - 1].loc.line < cur(ps)->loc.line;
  if (!line_start) return false;
  while (peek(ps, k)->kind == FT_ID) k++;
  return peek(ps, k)->kind == FT_EQ;
}

static bool starts_atom(Parser *ps) {
  switch (cur(ps)->kind) {
  case FT_ID: return !at_binding_start(ps);
  case FT_INT: case FT_DOUBLE: case FT_TRUE: case FT_FALSE: case FT_LPAREN: case FT_HASH_BLOCKSIZE: return true;
  default: return false;
  }
}

static FExp *parse_atom(Parser *ps) {
  FToken *t = cur(ps);
  FExp *e = NULL;
  switch (t->kind) {
  case FT_INT: e = mk(FE_INT, t->loc); e->ival = t->ival; advance(ps); return e;
  case FT_DOUBLE: e = mk(FE_DOUBLE, t->loc); e->dval = t->dval; advance(ps); return e;
  case FT_TRUE: case FT_FALSE: e = mk(FE_BOOL, t->loc); e->ival = t->kind == FT_TRUE; advance(ps); return e;
  case FT_HASH_BLOCKSIZE: advance(ps); return mk(FE_BLOCKSIZE, t->loc);
  case FT_ID:
    advance(ps);
    e = mk_var(t->text, t->loc);
    if (at_op(ps, "<") && parse_level_args(ps, true, &e->largs, &e->nlargs)) e->has_largs = true;
    else if (at_op(ps, "<") && cur(ps)->loc.line == t->loc.line && cur(ps)->loc.col == t->loc.col + (int)strlen(t->text) &&
             peek(ps, 1)->kind == FT_ID && peek(ps, 2)->kind == FT_OP && !strcmp(peek(ps, 2)->text, ">")) {
      /* f<x> written without spaces: meant as a level argument (docs/fcl.md §1.2) */
      advance(ps);
      return parse_level(ps, false), NULL;
    }
    return e;
  case FT_LPAREN: {
    advance(ps);
    if (at(ps, FT_RPAREN)) { advance(ps); return mk(FE_UNIT, t->loc); }
    if (at(ps, FT_OP) && peek(ps, 1)->kind == FT_RPAREN) {   /* (+): the operator as a function */
      e = mk_builtin(cur(ps)->text, cur(ps)->loc);
      advance(ps); advance(ps);
      return e;
    }
    if (!enter(ps)) return NULL;
    FExp *a = parse_expr(ps);
    if (a && at(ps, FT_COMMA)) {
      advance(ps);
      FExp *b = parse_expr(ps);
      if (!b) a = NULL;
      else if (at(ps, FT_COMMA)) { diag_error(cur(ps)->loc, "FCL tuples are pairs: write (a, (b, c))"); a = NULL; }
      else { FExp *p = mk(FE_PAIR, t->loc); p->a = a; p->b = b; a = p; }
    }
    ps->depth--;
    if (!a || !expect(ps, FT_RPAREN, "to close '('")) return NULL;
    return a;
  }
  default:
    diag_error(t->loc, "expected an expression, found %s", describe(t));
    return NULL;
  }
}

static FExp *parse_prefix_form(Parser *ps);

/* application: atom atom* (the keyword forms fn/let/if/do may end it) */
static FExp *parse_app(Parser *ps) {
  if (at(ps, FT_FN) || at(ps, FT_LET) || at(ps, FT_IF) || at(ps, FT_DO)) return parse_prefix_form(ps);
  if (at_op(ps, "-")) {   /* unary minus: neg e */
    Loc loc = cur(ps)->loc;
    advance(ps);
    if (!enter(ps)) return NULL;
    FExp *x = parse_app(ps);
    ps->depth--;
    return x ? mk_app(mk_builtin("neg", loc), x, loc) : NULL;
  }
  FExp *f = parse_atom(ps);
  while (f && starts_atom(ps)) {
    FExp *x = parse_atom(ps);
    f = x ? mk_app(f, x, f->loc) : NULL;
  }
  if (f && (at(ps, FT_FN) || at(ps, FT_LET) || at(ps, FT_IF) || at(ps, FT_DO))) {
    FExp *x = parse_prefix_form(ps);
    f = x ? mk_app(f, x, f->loc) : NULL;
  }
  return f;
}

static const struct { const char *op; int prec; } binops[] = {
  { "||", 1 }, { "&&", 2 },
  { "==", 3 }, { "!=", 3 }, { "<", 3 }, { "<=", 3 }, { ">", 3 }, { ">=", 3 },
  { "<<", 4 }, { ">>", 4 }, { "+", 5 }, { "-", 5 }, { "*", 6 }, { "/", 6 }, { "%", 6 },
};

static int binop_prec(Parser *ps) {
  if (at(ps, FT_PIPE)) return 0;
  if (!at(ps, FT_OP)) return -1;
  for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++)
    if (!strcmp(cur(ps)->text, binops[i].op)) return binops[i].prec;
  return -1;
}

/* precedence climbing, every operator left associative; e |> f is f e */
static FExp *parse_binary(Parser *ps, int min_prec) {
  if (!enter(ps)) return NULL;
  FExp *lhs = parse_app(ps);
  int p;
  while (lhs && (p = binop_prec(ps)) >= min_prec) {
    FToken *op = cur(ps);
    advance(ps);
    FExp *rhs = parse_binary(ps, p + 1);
    if (!rhs) { lhs = NULL; break; }
    if (op->kind == FT_PIPE) lhs = mk_app(rhs, lhs, op->loc);
    else lhs = mk_app(mk_app(mk_builtin(op->text, op->loc), lhs, op->loc), rhs, op->loc);
  }
  ps->depth--;
  return lhs;
}

/* a binding: x [<δ…>] params* = e  (params: fn sugar) */
static FExp *parse_binding(Parser *ps, FExp *let) {
  FToken *name = cur(ps);
  if (!expect(ps, FT_ID, "to name a binding")) return NULL;
  let->name = name->text;
  let->loc = name->loc;
  int mark = ps->nlscope;
  if (at_op(ps, "<") && !parse_level_params(ps, &let->largs, &let->nlargs)) return NULL;
  FToken **params = NULL;
  int np = 0, cap = 0;
  while (at(ps, FT_ID)) { ARENA_PUSH(params, np, cap, cur(ps)); advance(ps); }
  if (!expect(ps, FT_EQ, "in a binding")) return NULL;
  FExp *body = parse_expr(ps);
  ps->nlscope = mark;
  if (!body) return NULL;
  for (int i = np - 1; i >= 0; i--) body = mk_fn(params[i]->text, body, params[i]->loc);
  let->ival = np;
  return body;
}

/* do<l> { s ; … ; e }: statements x <- e, let x = e, e */
static FExp *parse_stmts(Parser *ps, FLevel **lvl, int nl) {
  if (!enter(ps)) return NULL;
  FExp *r = NULL;
  while (at(ps, FT_SEMI)) advance(ps);   /* the thesis's leading `; x <- e` style */
  FToken *t = cur(ps);
  if (at(ps, FT_LET)) {
    advance(ps);
    FExp *let = mk(FE_LET, t->loc);
    if (!(let->a = parse_binding(ps, let))) goto out;
    if (at(ps, FT_IN)) {    /* an ordinary let expression as a statement */
      advance(ps);
      if (!(let->b = parse_expr(ps))) goto out;
      if (at(ps, FT_END)) advance(ps);
      r = let;   /* then `; rest` as for any expression statement, below */
    } else {
      if (!expect(ps, FT_SEMI, "after a let in a do block")) goto out;
      if (!(let->b = parse_stmts(ps, lvl, nl))) goto out;
      r = let;
      goto out;
    }
  } else if (at(ps, FT_ID) && peek(ps, 1)->kind == FT_LARROW) {
    const char *x = t->text;
    advance(ps); advance(ps);
    FExp *m = parse_expr(ps);
    if (!m) goto out;
    if (!at(ps, FT_SEMI)) { diag_error(cur(ps)->loc, "a do block ends with an expression, not with '%s <- …'", x); goto out; }
    advance(ps);
    FExp *rest = parse_stmts(ps, lvl, nl);
    if (!rest) goto out;
    FExp *bind = mk_builtin("bind", t->loc);
    bind->largs = lvl; bind->nlargs = nl; bind->has_largs = lvl != NULL;
    r = mk_app(mk_app(bind, m, m->loc), mk_fn(x, rest, t->loc), t->loc);
    goto out;
  } else if (!(r = parse_expr(ps))) goto out;
  if (at(ps, FT_SEMI)) {
    advance(ps);
    while (at(ps, FT_SEMI)) advance(ps);
    if (at(ps, FT_RBRACE)) goto out;   /* a trailing ';' */
    FExp *rest = parse_stmts(ps, lvl, nl);
    if (!rest) { r = NULL; goto out; }
    FExp *bind = mk_builtin("bind", r->loc);
    bind->largs = lvl; bind->nlargs = nl; bind->has_largs = lvl != NULL;
    r = mk_app(mk_app(bind, r, r->loc), mk_fn("_", rest, r->loc), r->loc);
  }
out:
  ps->depth--;
  return r;
}

static FExp *parse_prefix_form(Parser *ps) {
  FToken *t = cur(ps);
  if (!enter(ps)) return NULL;
  FExp *e = NULL;
  advance(ps);
  switch (t->kind) {
  case FT_FN: {
    FToken *x = cur(ps);
    if (!expect(ps, FT_ID, "after 'fn'") || !expect(ps, FT_DARROW, "after the parameter of 'fn'")) break;
    FExp *body = parse_expr(ps);
    if (body) e = mk_fn(x->text, body, t->loc);
    break;
  }
  case FT_LET: {
    /* let b1 b2 … in e [end] is let b1 in let b2 in … e */
    FExp *first = NULL, *last = NULL;
    do {
      FExp *let = mk(FE_LET, t->loc);
      if (!(let->a = parse_binding(ps, let))) { first = NULL; break; }
      if (last) last->b = let; else first = let;
      last = let;
      if (at(ps, FT_SEMI)) advance(ps);
    } while (!at(ps, FT_IN) && at(ps, FT_ID));
    if (!first || !expect(ps, FT_IN, "after the bindings of 'let'")) break;
    if (!(last->b = parse_expr(ps))) break;
    if (at(ps, FT_END)) advance(ps);
    e = first;
    break;
  }
  case FT_IF: {
    FExp *c = parse_expr(ps), *a = NULL, *b = NULL;
    if (!c || !expect(ps, FT_THEN, "after the condition of 'if'")) break;
    if (!(a = parse_expr(ps)) || !expect(ps, FT_ELSE, "in 'if … then … else'")) break;
    if (!(b = parse_expr(ps))) break;
    e = mk(FE_IF, t->loc);
    e->a = c; e->b = a; e->c = b;
    break;
  }
  case FT_DO: {
    FLevel **ls = NULL;
    int nl = 0;
    if (at_op(ps, "<")) {
      if (!parse_level_args(ps, false, &ls, &nl)) break;
      if (nl != 1) { diag_error(t->loc, "do takes one level, not %d", nl); break; }
    }
    if (!expect(ps, FT_LBRACE, "after 'do'")) break;
    FExp *body = parse_stmts(ps, ls, nl);
    if (body && expect(ps, FT_RBRACE, "to close the do block")) e = body;
    break;
  }
  default: break;
  }
  ps->depth--;
  return e;
}

static FExp *parse_expr(Parser *ps) { return parse_binary(ps, 0); }

/* ---- definitions ---- */
static FDef *find_def(FProgram *p, const char *name) {
  for (int i = 0; i < p->ndefs; i++) if (!strcmp(p->defs[i]->name, name)) return p->defs[i];
  return NULL;
}

static bool parse_def(Parser *ps, FProgram *p, int *cap, FScheme **pending, FToken **pending_name) {
  FToken *t = cur(ps);
  advance(ps);
  FToken *name = cur(ps);
  if (!expect(ps, FT_ID, t->kind == FT_SIG ? "after 'sig'" : t->kind == FT_FUN ? "after 'fun'" : "after 'val'")) return false;
  if (t->kind == FT_SIG) {
    if (*pending) return diag_error((*pending_name)->loc, "sig %s is not followed by its fun", (*pending_name)->text);
    if (!expect(ps, FT_COLON, "after the name in 'sig'")) return false;
    FScheme *s = parse_scheme(ps);
    if (!s) return false;
    *pending = s;
    *pending_name = name;
    return true;
  }
  if (find_def(p, name->text)) return diag_error(name->loc, "%s is defined twice", name->text);
  FDef *d = NEW(FDef);
  d->name = name->text;
  d->loc = name->loc;
  if (*pending) {
    if (strcmp((*pending_name)->text, name->text) != 0)
      return diag_error((*pending_name)->loc, "sig %s is followed by the definition of %s", (*pending_name)->text, name->text);
    d->sig = *pending;
    d->sig_loc = (*pending_name)->loc;
    *pending = NULL;
  }
  FExp let = { 0 };
  ps->pos--;   /* back to the name: a definition is a binding */
  d->body = parse_binding(ps, &let);
  if (!d->body) return false;
  d->lparams = let.largs;
  d->nlparams = let.nlargs;
  if (t->kind == FT_VAL && let.ival > 0) return diag_error(name->loc, "val %s takes no parameters (write fun %s …)", d->name, d->name);
  ARENA_PUSH(p->defs, p->ndefs, *cap, d);
  return true;
}

FProgram *fcl_parse(const char *file, const char *text) {
  diag_add_source(file, text);
  int n;
  FToken *toks = fcl_lex(file, text, &n);
  if (!toks) return NULL;
  Parser ps = { .t = toks, .n = n };
  FProgram *p = NEW(FProgram);
  p->file = file;
  int cap = 0;
  FScheme *pending = NULL;
  FToken *pending_name = NULL;
  while (!at(&ps, FT_EOF)) {
    if (!at(&ps, FT_SIG) && !at(&ps, FT_FUN) && !at(&ps, FT_VAL))
      return diag_error(cur(&ps)->loc, "expected 'sig', 'fun' or 'val', found %s", describe(cur(&ps))), NULL;
    if (!parse_def(&ps, p, &cap, &pending, &pending_name)) return NULL;
  }
  if (pending) return diag_error(pending_name->loc, "sig %s is not followed by its fun", pending_name->text), NULL;
  if (p->ndefs == 0) return diag_error((Loc){ file, 1, 1 }, "the program defines nothing (fun NAME … = …)"), NULL;
  return p;
}

FScheme *fcl_parse_scheme(const char *file, const char *text) {
  int n;
  FToken *toks = fcl_lex(file, text, &n);
  if (!toks) return NULL;
  Parser ps = { .t = toks, .n = n };
  FScheme *s = parse_scheme(&ps);
  if (s && !at(&ps, FT_EOF)) return diag_error(cur(&ps)->loc, "unexpected %s after the type", describe(cur(&ps))), NULL;
  return s;
}

bool fcl_is_file(const char *path) {
  size_t n = strlen(path);
  return n > 4 && strcmp(path + n - 4, ".fcl") == 0;
}
