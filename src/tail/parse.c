/* parse.c — TAIL's textual syntax (docs/apl.md §2.1, the thesis's Figure 3.1)
   into TExp trees, and its types (also the operations' schemes, ops.c). */
#include "lex.h"
#include <string.h>

/* Deeper nesting is refused rather than risking the C stack (every later stage
   recurses over the tree, the lowered one several levels per TAIL level). */
enum { TAIL_MAX_DEPTH = 500 };

typedef struct Parser {
  Lexer lx;
  int depth;
  bool scheme;                 /* type variables allowed (schemes of ops.c) */
  const char *bvars[8], *svars[8];
  int nbvars, nsvars;
} Parser;

static bool next(Parser *ps) { return tail_lex_next(&ps->lx); }
static Token *cur(Parser *ps) { return &ps->lx.tok; }

static bool expect(Parser *ps, TokKind k, const char *where) {
  if (cur(ps)->kind != k)
    return diag_error(cur(ps)->loc, "expected %s %s, found %s", tail_token_name(k), where, tail_token_name(cur(ps)->kind));
  return next(ps);
}

/* ---- types ---- */

static const struct { const char *name; TBase base; } bases[] = {
  { "int", TB_INT }, { "double", TB_DOUBLE }, { "bool", TB_BOOL }, { "char", TB_CHAR },
};

static int var_index(const char **vars, int *n, const char *name) {
  for (int i = 0; i < *n; i++) if (strcmp(vars[i], name) == 0) return i + 1;
  if (*n == 8) return 0;
  vars[(*n)++] = name;
  return *n;
}

/* base ::= int | double | bool | char | (schemes) a variable */
static bool parse_base(Parser *ps, TBase *base, int *bvar) {
  Token *t = cur(ps);
  *bvar = 0;
  if (t->kind == TK_ID) {
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
      if (strcmp(t->text, bases[i].name) == 0) { *base = bases[i].base; return next(ps); }
    if (ps->scheme) { *base = TB_NONE; *bvar = var_index(ps->bvars, &ps->nbvars, t->text); return next(ps); }
  }
  return diag_error(t->loc, "expected a base type (int, double, bool or char), found %s", tail_token_name(t->kind));
}

/* shape ::= term {'+' term}, term ::= INT | (schemes) a variable */
static bool parse_shape(Parser *ps, TShape *s) {
  *s = (TShape){0};
  for (;;) {
    Token *t = cur(ps);
    if (t->kind == TK_INT) s->c += t->ival;
    else if (t->kind == TK_ID && ps->scheme) {
      int v = var_index(ps->svars, &ps->nsvars, t->text);
      if (s->v1) s->v2 = v; else s->v1 = v;
    } else return diag_error(t->loc, "expected a rank, length or value (an integer), found %s", tail_token_name(t->kind));
    if (!next(ps)) return false;
    if (cur(ps)->kind != TK_PLUS) return true;
    if (!next(ps)) return false;
  }
}

static TType *parse_type(Parser *ps);

static TType *parse_atype(Parser *ps) {
  Token *t = cur(ps);
  TType *r = NEW(TType);
  if (t->kind == TK_LBRACK || t->kind == TK_LT) {
    r->kind = t->kind == TK_LBRACK ? TT_ARRAY : TT_VEC;
    if (!next(ps) || !parse_base(ps, &r->base, &r->bvar)) return NULL;
    if (!expect(ps, r->kind == TT_ARRAY ? TK_RBRACK : TK_GT, "after the base type")) return NULL;
    return parse_shape(ps, &r->n) ? r : NULL;
  }
  if (t->kind == TK_ID && (strcmp(t->text, "S") == 0 || strcmp(t->text, "SV") == 0)) {
    r->kind = t->text[1] ? TT_SV : TT_S;
    if (!next(ps) || !expect(ps, TK_LPAREN, "after S/SV") || !parse_base(ps, &r->base, &r->bvar)) return NULL;
    if (!expect(ps, TK_COMMA, "in S(base,n)") || !parse_shape(ps, &r->n)) return NULL;
    return expect(ps, TK_RPAREN, "closing S(base,n)") ? r : NULL;
  }
  if (t->kind == TK_LPAREN) {
    if (!next(ps) || !(r = parse_type(ps))) return NULL;
    return expect(ps, TK_RPAREN, "closing the type") ? r : NULL;
  }
  r->kind = TT_ARRAY;   /* a bare base type: the scalar [κ]0 */
  return parse_base(ps, &r->base, &r->bvar) ? r : NULL;
}

static TType *parse_type(Parser *ps) {
  if (ps->depth >= TAIL_MAX_DEPTH) {
    diag_error(cur(ps)->loc, "types nested too deeply (more than %d levels)", TAIL_MAX_DEPTH);
    return NULL;
  }
  ps->depth++;
  TType *a = parse_atype(ps);
  ps->depth--;
  if (!a || cur(ps)->kind != TK_ARROW) return a;
  if (!next(ps)) return NULL;
  TType *b = parse_type(ps);
  return b ? ttype_fun(a, b) : NULL;
}

TType *tail_parse_type_text(const char *text, bool scheme) {
  Parser ps = { .scheme = scheme };
  tail_lex_init(&ps.lx, "<type>", text);
  if (!next(&ps)) return NULL;
  TType *t = parse_type(&ps);
  if (t && cur(&ps)->kind != TK_EOF) { diag_error(cur(&ps)->loc, "unexpected text after the type"); return NULL; }
  return t;
}

/* ---- expressions ---- */

static TExp *texp_new(TExpKind kind, Loc loc, int nkids) {
  TExp *e = NEW(TExp);
  e->kind = kind; e->loc = loc; e->nkids = nkids;
  e->kids = NEW_ARRAY(TExp *, nkids);
  return e;
}

static TExp *parse_exp(Parser *ps);

/* '(' [exp {',' exp}] ')' or '[' … ']': the items, pushed on e */
static TExp *parse_list(Parser *ps, TExp *e, TokKind close) {
  int cap = 0;
  e->nkids = 0; e->kids = NULL;
  if (!next(ps)) return NULL;
  if (cur(ps)->kind == close) return next(ps) ? e : NULL;
  for (;;) {
    TExp *k = parse_exp(ps);
    if (!k) return NULL;
    ARENA_PUSH(e->kids, e->nkids, cap, k);
    if (cur(ps)->kind == close) return next(ps) ? e : NULL;
    if (!expect(ps, TK_COMMA, close == TK_RPAREN ? "between arguments" : "between vector items")) return NULL;
  }
}

/* let ID ':' type '=' exp 'in' exp  |  fn ID ':' type '=>' exp */
static TExp *parse_binder(Parser *ps, TExpKind kind) {
  TExp *e = texp_new(kind, cur(ps)->loc, kind == TE_LET ? 2 : 1);
  if (!next(ps)) return NULL;
  if (cur(ps)->kind != TK_ID) { diag_error(cur(ps)->loc, "expected a variable name after '%s'", kind == TE_LET ? "let" : "fn"); return NULL; }
  e->name = cur(ps)->text;
  if (!next(ps) || !expect(ps, TK_COLON, "and a type after the variable") || !(e->ann = parse_type(ps))) return NULL;
  if (!expect(ps, kind == TE_LET ? TK_EQ : TK_DARROW, "after the type") || !(e->kids[0] = parse_exp(ps))) return NULL;
  if (kind == TE_FN) return e;
  if (!expect(ps, TK_IN, "after the bound expression")) return NULL;
  return (e->kids[1] = parse_exp(ps)) ? e : NULL;
}

static TExp *parse_if(Parser *ps) {
  TExp *e = texp_new(TE_IF, cur(ps)->loc, 3);
  if (!next(ps) || !(e->kids[0] = parse_exp(ps)) || !expect(ps, TK_THEN, "after the condition")) return NULL;
  if (!(e->kids[1] = parse_exp(ps)) || !expect(ps, TK_ELSE, "after the 'then' branch")) return NULL;
  return (e->kids[2] = parse_exp(ps)) ? e : NULL;
}

/* ID: a variable, an operation as a value, or op(args…) */
static TExp *parse_name(Parser *ps) {
  Token t = *cur(ps);
  if (!next(ps)) return NULL;
  const TOp *op = tail_op_lookup(t.text);
  if (cur(ps)->kind == TK_LPAREN) {
    if (!op) { diag_error(t.loc, "unknown operation '%s'", t.text); return NULL; }
    TExp *e = texp_new(TE_OP, t.loc, 0);
    e->op = op; e->applied = true;
    return parse_list(ps, e, TK_RPAREN);
  }
  TExp *e = texp_new(op ? TE_OP : TE_VAR, t.loc, 0);
  e->op = op;
  e->name = t.text;
  return e;
}

static TExp *parse_exp_at(Parser *ps);

static TExp *parse_exp(Parser *ps) {
  if (ps->depth >= TAIL_MAX_DEPTH) {
    diag_error(cur(ps)->loc, "expressions nested too deeply (more than %d levels)", TAIL_MAX_DEPTH);
    return NULL;
  }
  ps->depth++;
  TExp *e = parse_exp_at(ps);
  ps->depth--;
  return e;
}

static TExp *parse_exp_at(Parser *ps) {
  Token *t = cur(ps);
  TExp *e;
  switch (t->kind) {
  case TK_LET: return parse_binder(ps, TE_LET);
  case TK_FN: return parse_binder(ps, TE_FN);
  case TK_IF: return parse_if(ps);
  case TK_ID: return parse_name(ps);
  case TK_LBRACK: return parse_list(ps, texp_new(TE_VEC, t->loc, 0), TK_RBRACK);
  case TK_LPAREN:
    if (!next(ps) || !(e = parse_exp(ps))) return NULL;
    return expect(ps, TK_RPAREN, "closing the parenthesis") ? e : NULL;
  case TK_INT: case TK_CHAR: case TK_TT: case TK_FF:
    e = texp_new(t->kind == TK_INT ? TE_INT : t->kind == TK_CHAR ? TE_CHAR : TE_BOOL, t->loc, 0);
    e->ival = t->kind == TK_TT ? 1 : t->kind == TK_FF ? 0 : t->ival;
    return next(ps) ? e : NULL;
  case TK_DOUBLE:
    e = texp_new(TE_DOUBLE, t->loc, 0);
    e->dval = t->dval;
    return next(ps) ? e : NULL;
  default:
    diag_error(t->loc, "expected an expression, found %s", tail_token_name(t->kind));
    return NULL;
  }
}

TExp *tail_parse(const char *file, const char *text) {
  diag_add_source(file, text);
  Parser ps = {0};
  tail_lex_init(&ps.lx, file, text);
  if (!next(&ps)) return NULL;
  TExp *e = parse_exp(&ps);
  if (!e) return NULL;
  if (cur(&ps)->kind != TK_EOF) {
    diag_error(cur(&ps)->loc, "expected the end of the program, found %s", tail_token_name(cur(&ps)->kind));
    return NULL;
  }
  return e;
}
