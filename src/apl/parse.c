/* parse.c — APL statements and right-to-left expressions (docs/apl.md §1),
   resolving names as it goes: a name's role (function or value) is that of
   its binding (Dyalog's rule), so the parser keeps the names bound so far.
   Recursion (∇, or a name used inside its own definition) is refused at the
   use. Statements: `name ← e`, `⎕← e`, `e`; dfns `{…}` with locals; monadic
   operators `/ ⌿ ¨`, the outer product `∘.f`, compress `/`, indexing `A[i]`. */
#include "apl.h"
#include <string.h>

enum { APL_MAX_DEPTH = 200 };

typedef struct Name { const char *name; bool fn, op; struct Name *next; } Name;   /* op: a dyadic operator */

typedef struct Ps {
  AplToken *t;
  int i, n;
  Name *names;            /* visible bindings, innermost first */
  const char *defining;   /* the name being assigned (recursion check) */
  int dfns;               /* dfn nesting: ⍺ ⍵ allowed when > 0 */
  bool opuse;             /* the dfn being read uses ⍺⍺ or ⍵⍵ */
  int depth;
} Ps;

static AplToken *cur(Ps *ps) { return &ps->t[ps->i]; }
static AplToken *ahead(Ps *ps, int k) { return &ps->t[ps->i + k < ps->n ? ps->i + k : ps->n - 1]; }
static void next(Ps *ps) { if (ps->i < ps->n - 1) ps->i++; }

static AplNode *node(AplKind kind, Loc loc, int nkids) {
  AplNode *a = NEW(AplNode);
  a->kind = kind; a->loc = loc; a->nkids = nkids;
  a->kids = NEW_ARRAY(AplNode *, nkids);
  return a;
}

static const char *tok_name(AplToken *t) {
  switch (t->kind) {
  case AT_EOF: return "the end of the program";
  case AT_SEP: return "the end of the statement";
  case AT_NUM: return "a number";
  case AT_STR: return "a string";
  case AT_NAME: return arena_printf("'%s'", t->text);
  case AT_RPAREN: return "')'";
  case AT_RBRACK: return "']'";
  case AT_RBRACE: return "'}'";
  case AT_ASSIGN: return "'←'";
  default: return "this token";
  }
}

static bool is_end(AplToken *t) {
  return t->kind == AT_EOF || t->kind == AT_SEP || t->kind == AT_RPAREN || t->kind == AT_RBRACK || t->kind == AT_RBRACE ||
         t->kind == AT_SEMI || t->kind == AT_COLON;
}

static Name *lookup(Ps *ps, const char *name) {
  for (Name *b = ps->names; b; b = b->next) if (strcmp(b->name, name) == 0) return b;
  return NULL;
}

static void bind(Ps *ps, const char *name, bool fn) {
  Name *b = NEW(Name);
  *b = (Name){ name, fn, false, ps->names };
  ps->names = b;
}

/* monadic operators, and glyphs that are operators only */
static bool is_monadic_op(int cp) { return cp == '/' || cp == 0x233F || cp == '\\' || cp == 0x2340 || cp == 0xA8 || cp == 0x2368; }
static bool is_operator_only(int cp) { return cp == 0xA8 || cp == 0x2368 || cp == '.' || cp == 0x2363 || cp == 0x2364 || cp == 0x2365; }

static bool is_fn_paren(Ps *ps, int i, int depth);

/* functions outside the subset (SPEC §10: flat arrays, no evaluation of text) */
static const struct { int cp; const char *what; } excluded[] = {
  { 0x234E, "⍎ (execute)" }, { 0x2282, "⊂ (enclose: nested arrays)" },
};

/* The index after the matching close of the bracket at i (-1: none). */
static int skip_bracketed(Ps *ps, int i) {
  int level = 0;
  for (; i < ps->n; i++) {
    AplTokKind k = ps->t[i].kind;
    if (k == AT_LPAREN || k == AT_LBRACE || k == AT_LBRACK) level++;
    else if (k == AT_RPAREN || k == AT_RBRACE || k == AT_RBRACK) { if (--level == 0) return i + 1; }
    else if (k == AT_EOF) return -1;
  }
  return -1;
}

/* Lookahead without diagnostics: the index after a function (with its
   monadic operators) starting at token i, or -1 if none starts there. */
static bool is_op_name(Ps *ps, AplToken *t) {
  if (t->kind != AT_NAME) return false;
  Name *b = lookup(ps, t->text);
  return b && b->op;
}

static int skip_fn(Ps *ps, int i, int depth) {
  AplToken *t = &ps->t[i];
  int j = -1;
  if (t->kind == AT_AA || t->kind == AT_WW) j = i + 1;
  else if (t->kind == AT_PRIM) {
    if (t->cp == 0x2218) {
      if (i + 2 >= ps->n || ps->t[i + 1].kind != AT_PRIM || ps->t[i + 1].cp != '.') return -1;
      return skip_fn(ps, i + 2, depth);
    }
    if (is_operator_only(t->cp)) return -1;
    j = i + 1;
  } else if (t->kind == AT_NAME) {
    Name *b = lookup(ps, t->text);
    if (!b || !b->fn || b->op) return -1;
    j = i + 1;
  } else if (t->kind == AT_LBRACE) j = skip_bracketed(ps, i);
  else if (t->kind == AT_LPAREN && is_fn_paren(ps, i, depth + 1)) j = skip_bracketed(ps, i);
  for (;;) {
    if (j < 0 || j >= ps->n) break;
    if (is_op_name(ps, &ps->t[j]) || (ps->t[j].kind == AT_PRIM && ps->t[j].cp == '.')) {   /* f.g, f op g */
      if (j + 1 >= ps->n || depth > APL_MAX_DEPTH) return -1;
      int k = skip_fn(ps, j + 1, depth + 1);   /* the right operand and the operators after it */
      if (k < 0) return -1;
      j = k;
      continue;
    }
    if (ps->t[j].kind != AT_PRIM) break;
    if (is_monadic_op(ps->t[j].cp)) { j++; continue; }
    if (ps->t[j].cp != 0x2363 || j + 1 >= ps->n) break;
    AplToken *o = &ps->t[j + 1];   /* f⍣n: n a number, a value name or (…) */
    if (o->kind == AT_NUM) j += 2;
    else if (o->kind == AT_NAME) { Name *b = lookup(ps, o->text); if (!b || b->fn) break; j += 2; }
    else if (o->kind == AT_LPAREN) j = skip_bracketed(ps, j + 1);
    else break;
  }
  return j;
}

/* Is the '(' at i a function in parentheses: (f), a train (f g h)? */
static bool is_fn_paren(Ps *ps, int i, int depth) {
  if (depth > APL_MAX_DEPTH) return false;
  int j = i + 1;
  do {
    j = skip_fn(ps, j, depth);
    if (j < 0) return false;
  } while (ps->t[j].kind != AT_RPAREN);
  return true;
}

static bool is_fn_start(Ps *ps) {
  AplToken *t = cur(ps);
  if (t->kind == AT_PRIM) return !is_operator_only(t->cp) && !(t->cp == 0x2218 && ahead(ps, 1)->kind != AT_PRIM);
  if (t->kind == AT_LBRACE || t->kind == AT_DEL || t->kind == AT_AA || t->kind == AT_WW) return true;
  if (t->kind == AT_NAME) { Name *b = lookup(ps, t->text); return b && b->fn && !b->op; }
  if (t->kind == AT_LPAREN) return is_fn_paren(ps, ps->i, 0);
  return false;
}

static AplNode *parse_expr(Ps *ps);
static AplNode *parse_fn(Ps *ps);
static AplNode *parse_train(Ps *ps);
static AplNode *parse_atom(Ps *ps);
static bool parse_body(Ps *ps, AplNode ***stmts, int *n, bool top);

static bool enter(Ps *ps) {
  if (ps->depth >= APL_MAX_DEPTH)
    return diag_error(cur(ps)->loc, "the program is nested too deeply (more than %d levels)", APL_MAX_DEPTH);
  ps->depth++;
  return true;
}

static AplNode *unknown_name(Ps *ps, AplToken *t) {
  if (ps->defining && strcmp(ps->defining, t->text) == 0)
    diag_error(t->loc, "recursion: '%s' is used inside its own definition (recursion is not in the subset)", t->text);
  else diag_error(t->loc, "unknown name '%s'", t->text);
  return NULL;
}

/* {stmts}: the body sees ⍺ ⍵ and its own locals */
static AplNode *parse_dfn(Ps *ps) {
  AplNode *f = node(AF_DFN, cur(ps)->loc, 0);
  next(ps);
  Name *saved = ps->names;
  bool saved_opuse = ps->opuse;
  ps->opuse = false;
  ps->dfns++;
  bool ok = parse_body(ps, &f->kids, &f->nkids, false);
  ps->dfns--;
  ps->names = saved;
  f->cp = ps->opuse;
  ps->opuse = saved_opuse || ps->opuse;
  if (!ok) return NULL;
  if (cur(ps)->kind != AT_RBRACE) return diag_error(cur(ps)->loc, "expected '}' closing the function at %d:%d, found %s", f->loc.line, f->loc.col, tok_name(cur(ps))), NULL;
  if (f->nkids == 0) return diag_error(f->loc, "an empty function {}"), NULL;
  next(ps);
  return f;
}

/* a function without operators: a primitive, {…}, a function name, ∘.f */
static AplNode *parse_fn_atom(Ps *ps) {
  AplToken *t = cur(ps);
  switch (t->kind) {
  case AT_DEL:
    return diag_error(t->loc, "recursion: ∇ (a function calling itself) is not in the subset"), NULL;
  case AT_LBRACE: return parse_dfn(ps);
  case AT_AA: case AT_WW: {
    if (!ps->dfns) return diag_error(t->loc, "%s outside a function", t->kind == AT_AA ? "⍺⍺" : "⍵⍵"), NULL;
    ps->opuse = true;
    AplNode *f = node(AF_NAME, t->loc, 0);
    f->name = t->kind == AT_AA ? "⍺⍺" : "⍵⍵";
    next(ps);
    return f;
  }
  case AT_LPAREN: {   /* (f), (g h), (f g h): is_fn_start said it is a function */
    Loc open = t->loc;
    next(ps);
    AplNode *f = parse_train(ps);
    if (!f) return NULL;
    if (cur(ps)->kind != AT_RPAREN)
      return diag_error(cur(ps)->loc, "expected ')' closing the function at %d:%d, found %s", open.line, open.col,
                        tok_name(cur(ps))), NULL;
    next(ps);
    return f;
  }
  case AT_NAME: {
    Name *b = lookup(ps, t->text);
    if (!b) return unknown_name(ps, t);
    if (!b->fn) return diag_error(t->loc, "'%s' is a value, not a function", t->text), NULL;
    if (b->op) return diag_error(t->loc, "the operator '%s' needs a function on its left", t->text), NULL;
    AplNode *f = node(AF_NAME, t->loc, 0);
    f->name = t->text;
    next(ps);
    return f;
  }
  case AT_PRIM:
    if (t->cp == 0x2218 && ahead(ps, 1)->kind == AT_PRIM && ahead(ps, 1)->cp == '.') {   /* ∘.f */
      AplNode *f = node(AF_DERIVED, t->loc, 1);
      f->cp = 0x2218;
      next(ps); next(ps);
      if (cur(ps)->kind == AT_PRIM && is_monadic_op(cur(ps)->cp) && !(cur(ps)->cp == '/' || cur(ps)->cp == 0x233F))
        return diag_error(cur(ps)->loc, "∘. needs a function on its right"), NULL;
      return (f->kids[0] = parse_fn_atom(ps)) ? f : NULL;
    }
    if (is_operator_only(t->cp)) return diag_error(t->loc, "an operator needs a function on its left"), NULL;
    for (size_t i = 0; i < sizeof excluded / sizeof excluded[0]; i++)
      if (excluded[i].cp == t->cp) return diag_error(t->loc, "%s is not in the subset", excluded[i].what), NULL;
    AplNode *f = node(AF_PRIM, t->loc, 0);
    f->cp = t->cp;
    next(ps);
    return f;
  default:
    return diag_error(t->loc, "expected a function, found %s", tok_name(t)), NULL;
  }
}

/* fn_atom {operator}: monadic operators, ⍣n, f.g and f op g (a dyadic
   operator written as a dfn with ⍺⍺ ⍵⍵), left to right; the right operand of
   . and of a dyadic operator is a function with its own operators (`+.×¨` is
   not in the subset) */
static AplNode *parse_fn(Ps *ps) {
  if (!enter(ps)) return NULL;
  AplNode *f = parse_fn_atom(ps);
  while (f && (cur(ps)->kind == AT_PRIM || is_op_name(ps, cur(ps)))) {
    if (cur(ps)->kind == AT_NAME || cur(ps)->cp == '.') {
      AplNode *d = node(AF_DERIVED, cur(ps)->loc, 2);
      d->cp = cur(ps)->kind == AT_NAME ? 0 : '.';
      d->name = cur(ps)->kind == AT_NAME ? cur(ps)->text : NULL;
      d->kids[0] = f;
      next(ps);
      if (!is_fn_start(ps)) {
        diag_error(cur(ps)->loc, "%s needs a function on its right, found %s", d->cp ? "." : "the operator", tok_name(cur(ps)));
        f = NULL;
        break;
      }
      if (!(d->kids[1] = parse_fn_atom(ps))) { f = NULL; break; }
      f = d;
      continue;
    }
    int cp = cur(ps)->cp;
    if (cp == 0x2363) {   /* f⍣n: the right operand is one value atom (a number, a name, (…)) */
      AplNode *d = node(AF_DERIVED, cur(ps)->loc, 2);
      d->cp = cp; d->kids[0] = f;
      next(ps);
      AplToken *o = cur(ps);
      if (o->kind != AT_NUM && o->kind != AT_NAME && o->kind != AT_LPAREN && o->kind != AT_ALPHA && o->kind != AT_OMEGA) {
        diag_error(o->loc, "⍣ needs a count (a value) on its right, found %s", tok_name(o));
        f = NULL;
        break;
      }
      if (o->kind == AT_NAME && lookup(ps, o->text) && lookup(ps, o->text)->fn) {
        diag_error(o->loc, "not supported yet: ⍣ with a function on its right (f⍣g: only a count)");
        f = NULL;
        break;
      }
      if (!(d->kids[1] = parse_atom(ps))) { f = NULL; break; }
      f = d;
      continue;
    }
    if (cp == 0x2364 || cp == 0x2365) {
      diag_error(cur(ps)->loc, "not supported yet: the operator '%s' (docs/apl.md §5)", cp == 0x2364 ? "⍤" : "⍥");
      f = NULL;
      break;
    }
    if (!is_monadic_op(cp)) break;
    AplNode *d = node(AF_DERIVED, cur(ps)->loc, 1);
    d->cp = cp; d->kids[0] = f;
    next(ps);
    f = d;
  }
  ps->depth--;
  return f;
}

/* f₁ f₂ … fₙ up to the end of the expression: a train, read from the right
   as forks (f g h) with an atop (g h) at the left end when n is even (Dyalog);
   one function is itself. A value inside a train (`1+⊢`) is refused. */
static AplNode *parse_train(Ps *ps) {
  if (!enter(ps)) return NULL;
  int n = 0, cap = 0;
  AplNode **fs = NULL;
  Loc loc = cur(ps)->loc;
  do {
    AplNode *f = parse_fn(ps);
    if (!f) { ps->depth--; return NULL; }
    ARENA_PUSH(fs, n, cap, f);
  } while (is_fn_start(ps));
  ps->depth--;
  if (!is_end(cur(ps))) {
    AplToken *t = cur(ps);
    if (t->kind == AT_PRIM) return diag_error(t->loc, "an operator needs a function on its left"), NULL;
    return diag_error(t->loc, "not supported yet: a value inside a train (only functions: (f g h), (g h))"), NULL;
  }
  if (n == 1) return fs[0];
  AplNode *t;
  int i;
  if (n % 2 == 1) {
    t = node(AF_TRAIN, fs[n - 3]->loc, 3);
    t->kids[0] = fs[n - 3]; t->kids[1] = fs[n - 2]; t->kids[2] = fs[n - 1];
    i = n - 3;
  } else {
    t = node(AF_TRAIN, fs[n - 2]->loc, 2);
    t->kids[0] = fs[n - 2]; t->kids[1] = fs[n - 1];
    i = n - 2;
  }
  while (i >= 2) {
    AplNode *f = node(AF_TRAIN, fs[i - 2]->loc, 3);
    f->kids[0] = fs[i - 2]; f->kids[1] = fs[i - 1]; f->kids[2] = t;
    t = f; i -= 2;
  }
  (void)loc;
  return t;
}

/* a value atom: number, string, name, ⍺, ⍵, ⍬, (expr); then any [index] */
static AplNode *parse_atom(Ps *ps) {
  AplToken *t = cur(ps);
  AplNode *a = NULL;
  switch (t->kind) {
  case AT_NUM:
    a = node(AN_NUM, t->loc, 0);
    a->is_int = t->is_int; a->ival = t->ival; a->dval = t->dval;
    next(ps);
    break;
  case AT_STR:
    a = node(AN_STR, t->loc, 0);
    a->cps = t->cps; a->ncps = t->ncps;
    next(ps);
    break;
  case AT_ZILDE:   /* ⍬: an empty strand */
    a = node(AN_STRAND, t->loc, 0);
    next(ps);
    break;
  case AT_ALPHA: case AT_OMEGA:
    if (!ps->dfns) return diag_error(t->loc, "%s outside a function", t->kind == AT_ALPHA ? "⍺" : "⍵"), NULL;
    a = node(AN_NAME, t->loc, 0);
    a->name = t->kind == AT_ALPHA ? "⍺" : "⍵";
    next(ps);
    break;
  case AT_NAME: {
    Name *b = lookup(ps, t->text);
    if (!b) return unknown_name(ps, t);
    a = node(AN_NAME, t->loc, 0);
    a->name = t->text;
    next(ps);
    break;
  }
  case AT_LPAREN: {
    Loc open = t->loc;
    next(ps);
    if (!enter(ps)) return NULL;
    a = parse_expr(ps);
    ps->depth--;
    if (!a) return NULL;
    if (cur(ps)->kind != AT_RPAREN)
      return diag_error(cur(ps)->loc, "expected ')' closing the parenthesis at %d:%d, found %s", open.line, open.col,
                        tok_name(cur(ps))), NULL;
    next(ps);
    break;
  }
  default:
    return diag_error(t->loc, "expected a value, found %s", tok_name(t)), NULL;
  }
  while (cur(ps)->kind == AT_LBRACK) {   /* A[i], A[i;j;…]: kids[1…] one per axis, NULL where elided */
    AplNode *ix = node(AN_INDEX, cur(ps)->loc, 1);
    Loc open = cur(ps)->loc;
    int cap = 1;
    ix->kids[0] = a;
    next(ps);
    if (!enter(ps)) return NULL;
    for (;;) {
      bool elided = cur(ps)->kind == AT_SEMI || cur(ps)->kind == AT_RBRACK;
      AplNode *k = elided ? NULL : parse_expr(ps);
      if (!elided && !k) { ps->depth--; return NULL; }
      ARENA_PUSH(ix->kids, ix->nkids, cap, k);
      if (cur(ps)->kind != AT_SEMI) break;
      next(ps);
    }
    ps->depth--;
    if (cur(ps)->kind != AT_RBRACK)
      return diag_error(cur(ps)->loc, "expected ']' closing the index at %d:%d, found %s", open.line, open.col, tok_name(cur(ps))), NULL;
    next(ps);
    a = ix;
  }
  return a;
}

static bool starts_value(Ps *ps) {
  AplToken *t = cur(ps);
  switch (t->kind) {
  case AT_NUM: case AT_STR: case AT_ALPHA: case AT_OMEGA: case AT_ZILDE: return true;
  case AT_LPAREN: return !is_fn_paren(ps, ps->i, 0);
  case AT_NAME: { Name *b = lookup(ps, t->text); return !b || !b->fn; }
  default: return false;
  }
}

/* atom {atom}: one atom, or a strand of several (a vector) */
static AplNode *parse_strand(Ps *ps) {
  Loc loc = cur(ps)->loc;
  int n = 0, cap = 0;
  AplNode **items = NULL;
  do {
    Loc start = cur(ps)->loc;
    AplNode *a = parse_atom(ps);
    if (!a) return NULL;
    a->start = start;
    ARENA_PUSH(items, n, cap, a);
  } while (starts_value(ps));
  if (n == 1) return items[0];
  AplNode *s = node(AN_STRAND, loc, 0);
  s->kids = items; s->nkids = n;
  return s;
}

/* expr ::= fn expr | strand [fn expr], right to left */
static AplNode *parse_expr(Ps *ps) {
  if (!enter(ps)) return NULL;
  AplNode *r = NULL;
  if (is_fn_start(ps)) {
    AplNode *f = parse_fn(ps), *x = f ? parse_expr(ps) : NULL;
    if (x) { r = node(AN_MONAD, f->loc, 2); r->kids[0] = f; r->kids[1] = x; }
  } else {
    AplNode *left = parse_strand(ps);
    if (left && is_end(cur(ps))) r = left;
    else if (left && cur(ps)->kind == AT_ASSIGN && left->kind == AN_INDEX)
      diag_error(cur(ps)->loc, "indexed assignment A[i]← is not in the subset (TAIL has no update of an array)");
    else if (left && cur(ps)->kind == AT_ASSIGN)
      diag_error(cur(ps)->loc, "not supported yet: assignment inside an expression (assign at the start of a statement)");
    else if (left && !is_fn_start(ps)) {
      AplToken *t = cur(ps);
      diag_error(t->loc, t->kind == AT_PRIM ? "expected a function after the value, found an operator"
                                            : "expected a function after the value, found %s", tok_name(t));
    } else if (left) {
      AplNode *f = parse_fn(ps), *x = f ? parse_expr(ps) : NULL;
      if (x) { r = node(AN_DYAD, f->loc, 3); r->kids[0] = f; r->kids[1] = left; r->kids[2] = x; }
    }
  }
  ps->depth--;
  return r;
}

/* name ← value or function: the role comes from the right-hand side */
static AplNode *parse_assign(Ps *ps) {
  AplToken *name = cur(ps);
  AplNode *s = node(AN_ASSIGN, name->loc, 1);
  s->name = name->text;
  next(ps); next(ps);
  const char *saved = ps->defining;
  ps->defining = lookup(ps, name->text) ? NULL : name->text;
  AplNode *v = NULL;
  bool fn = false;
  if (is_fn_start(ps)) {
    /* functions up to the end of the statement: a function or a train;
       else an expression starting with a function (`-⍳N`) */
    int j = ps->i, k;
    while ((k = skip_fn(ps, j, 0)) >= 0) j = k;
    if (j > ps->i && is_end(&ps->t[j])) { v = parse_train(ps); fn = v != NULL; }
    else v = parse_expr(ps);
  } else v = parse_expr(ps);
  ps->defining = saved;
  if (!v) return NULL;
  s->kids[0] = v;
  bind(ps, s->name, fn);
  if (fn && v->kind == AF_DFN && v->cp) ps->names->op = true;
  return s;
}

static AplNode *parse_stmt(Ps *ps, bool top) {
  AplToken *t = cur(ps);
  if (t->kind == AT_NAME && ahead(ps, 1)->kind == AT_ASSIGN) return parse_assign(ps);
  if (t->kind == AT_QUAD) {
    if (ahead(ps, 1)->kind != AT_ASSIGN) return diag_error(t->loc, "not supported yet: ⎕ other than ⎕←"), NULL;
    if (!top) return diag_error(t->loc, "not supported yet: ⎕← (output) inside a function"), NULL;
    AplNode *s = node(AN_OUTPUT, t->loc, 1);
    next(ps); next(ps);
    return (s->kids[0] = parse_expr(ps)) ? s : NULL;
  }
  return parse_expr(ps);
}

/* statements up to EOF (top) or '}' */
static bool parse_body(Ps *ps, AplNode ***stmts, int *n, bool top) {
  int cap = 0;
  *n = 0; *stmts = NULL;
  for (;;) {
    while (cur(ps)->kind == AT_SEP) next(ps);
    AplToken *t = cur(ps);
    if (t->kind == AT_EOF || (!top && t->kind == AT_RBRACE)) return true;
    if (top && t->kind == AT_RBRACE) return diag_error(t->loc, "'}' without a matching '{'");
    AplNode *s = parse_stmt(ps, top);
    if (!s) return false;
    ARENA_PUSH(*stmts, *n, cap, s);
    t = cur(ps);
    if (t->kind == AT_COLON) return diag_error(t->loc, "guards ':' in dfns are not in the subset");
    if (t->kind == AT_RPAREN) return diag_error(t->loc, "')' without a matching '('");
    if (t->kind == AT_RBRACK) return diag_error(t->loc, "']' without a matching '['");
    if (t->kind == AT_SEMI) return diag_error(t->loc, "unexpected ';'");
    if (t->kind != AT_SEP && t->kind != AT_EOF && !(t->kind == AT_RBRACE && !top))
      return diag_error(t->loc, "expected the end of the statement, found %s", tok_name(t));
  }
}

AplProgram *apl_parse(const char *file, const char *text) {
  diag_add_source(file, text);
  int n;
  AplToken *toks = apl_lex(file, text, &n);
  if (!toks) return NULL;
  Ps ps = { .t = toks, .n = n };
  AplProgram *p = NEW(AplProgram);
  if (!parse_body(&ps, &p->stmts, &p->nstmts, true)) return NULL;
  if (p->nstmts == 0) return diag_error((Loc){ file, 1, 1 }, "the program has no statements"), NULL;
  return p;
}
