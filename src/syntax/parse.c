/* parse.c — gives the S-expression tree its meaning (SPEC §2): the `lift`
   header (size variables, parameter types), types, nats and expressions. */
#include "ast.h"
#include "sexp.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct Parser { Program *prog; } Parser;

static int uid_counter;
int ast_fresh_uid(void) { return ++uid_counter; }
void ast_reset_uids(void) { uid_counter = 0; }

Expr *expr_new(ExprKind kind, Loc loc, int nkids) {
  Expr *e = NEW(Expr);
  e->kind = kind; e->loc = loc; e->nkids = nkids;
  e->kids = NEW_ARRAY(Expr *, nkids);
  return e;
}

static bool is_keyword(const char *s) {
  static const char *kw[] = { "o", "lift", "lambda", "let", "if", "pack", "unpack", NULL };
  for (int i = 0; kw[i]; i++) if (strcmp(s, kw[i]) == 0) return true;
  return false;
}

static bool is_ident(const char *s) { return s[0] && !isdigit((unsigned char)s[0]) && !is_keyword(s); }

static bool parse_integer(const char *s, long long *out) {
  const char *p = s;
  if (*p == '-') p++;
  if (!isdigit((unsigned char)*p)) return false;
  for (; *p; p++) if (!isdigit((unsigned char)*p)) return false;
  errno = 0;
  *out = strtoll(s, NULL, 10);
  return errno == 0;
}

/* ---- nats ---- */

static NatVar *find_size(Parser *ps, const char *name) {
  for (int i = 0; i < ps->prog->nsizes; i++)
    if (strcmp(ps->prog->sizes[i]->name, name) == 0) return ps->prog->sizes[i];
  return NULL;
}

static Nat *parse_nat(Parser *ps, Sexp *s) {
  if (s->kind == SX_HASH) s = s->kids[0];
  if (s->kind == SX_ATOM) {
    long long v;
    if (parse_integer(s->text, &v)) {
      if (v < 0) { diag_error(s->loc, "expected a natural number, found %lld", v); return NULL; }
      return nat_const(v);
    }
    NatVar *var = find_size(ps, s->text);
    if (!var) { diag_error(s->loc, "unknown size variable '%s' (declare it in the lift header)", s->text); return NULL; }
    return nat_var(var);
  }
  if (s->kind != SX_LIST || s->n < 2 || s->kids[0]->kind != SX_ATOM) {
    diag_error(s->loc, "expected a size: a number, a size variable or (op size size)");
    return NULL;
  }
  const char *op = s->kids[0]->text;
  Nat *args[64];
  if (s->n - 1 > 64) { diag_error(s->loc, "too many operands"); return NULL; }
  for (int i = 1; i < s->n; i++) if (!(args[i - 1] = parse_nat(ps, s->kids[i]))) return NULL;
  int n = s->n - 1;
  bool variadic = strcmp(op, "+") == 0 || strcmp(op, "*") == 0;
  if (!variadic && n != 2) { diag_error(s->loc, "size operator '%s' expects 2 operands, found %d", op, n); return NULL; }
  Nat *r = args[0];
  for (int i = 1; i < n; i++) {
    if (strcmp(op, "+") == 0) r = nat_add(r, args[i]);
    else if (strcmp(op, "*") == 0) r = nat_mul(r, args[i]);
    else if (strcmp(op, "-") == 0) r = nat_sub(r, args[i]);
    else if (strcmp(op, "/") == 0) r = nat_div(r, args[i]);
    else if (strcmp(op, "%") == 0) r = nat_mod(r, args[i]);
    else if (strcmp(op, "pow") == 0) r = nat_pow(r, args[i]);
    else if (strcmp(op, "min") == 0) r = nat_min(r, args[i]);
    else if (strcmp(op, "max") == 0) r = nat_max(r, args[i]);
    else { diag_error(s->kids[0]->loc, "unknown size operator '%s' (expected + - * / %% pow min max)", op); return NULL; }
  }
  return r;
}

/* ---- types ---- */

static Type *parse_type(Parser *ps, Sexp *s) {
  if (s->kind == SX_ATOM) {
    static const struct { const char *name; TypeKind kind; } scalars[] = {
      { "int", TY_INT }, { "long", TY_LONG }, { "float", TY_FLOAT },
      { "double", TY_DOUBLE }, { "bool", TY_BOOL } };
    for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++)
      if (strcmp(s->text, scalars[i].name) == 0) return type_scalar(scalars[i].kind);
    diag_error(s->loc, "unknown type '%s' (expected int, long, float, double, bool or (array-type …))", s->text);
    return NULL;
  }
  if (s->kind != SX_LIST || s->n == 0 || s->kids[0]->kind != SX_ATOM) {
    diag_error(s->loc, "expected a type");
    return NULL;
  }
  const char *head = s->kids[0]->text;
  if (strcmp(head, "array-type") == 0) {
    if (s->n != 3) { diag_error(s->loc, "expected (array-type ELEMENT-TYPE LENGTH)"); return NULL; }
    Type *elem = parse_type(ps, s->kids[1]);
    Nat *len = elem ? parse_nat(ps, s->kids[2]) : NULL;
    return len ? type_array(elem, len) : NULL;
  }
  if (strcmp(head, "dep-array-type") == 0) {
    if (s->n != 4 || s->kids[1]->kind != SX_LIST || s->kids[1]->n != 1 || s->kids[1]->kids[0]->kind != SX_ATOM) {
      diag_error(s->loc, "expected (dep-array-type (INDEX) ELEMENT-TYPE LENGTH)");
      return NULL;
    }
    Nat *len = parse_nat(ps, s->kids[3]);
    if (!len) return NULL;
    /* The index is in scope in the element type only, as a nat in [0, len-1]. */
    NatVar *index = nat_var_new(s->kids[1]->kids[0]->text, nat_const(0), nat_sub(len, nat_const(1)));
    Program *pr = ps->prog;
    NatVar **saved = pr->sizes;
    pr->sizes = NEW_ARRAY(NatVar *, pr->nsizes + 1);
    memcpy(pr->sizes, saved, sizeof(NatVar *) * (size_t)pr->nsizes);
    pr->sizes[pr->nsizes++] = index;
    Type *elem = parse_type(ps, s->kids[2]);
    pr->nsizes--;
    pr->sizes = saved;
    return elem ? type_dep_array(index, elem, len) : NULL;
  }
  if (strcmp(head, "tuple") == 0) {
    if (s->n < 3) { diag_error(s->loc, "expected (tuple TYPE TYPE …) with at least two fields"); return NULL; }
    Type **f = NEW_ARRAY(Type *, s->n - 1);
    for (int i = 1; i < s->n; i++) if (!(f[i - 1] = parse_type(ps, s->kids[i]))) return NULL;
    return type_tuple(s->n - 1, f);
  }
  if (strcmp(head, "vector-type") == 0) {
    long long w;
    if (s->n != 3) { diag_error(s->loc, "expected (vector-type SCALAR WIDTH)"); return NULL; }
    Type *elem = parse_type(ps, s->kids[1]);
    if (!elem) return NULL;
    if (!type_is_numeric(elem)) { diag_error(s->kids[1]->loc, "vector elements must be int, long, float or double"); return NULL; }
    if (s->kids[2]->kind != SX_ATOM || !parse_integer(s->kids[2]->text, &w) ||
        (w != 2 && w != 3 && w != 4 && w != 8 && w != 16)) {
      diag_error(s->kids[2]->loc, "vector width must be 2, 3, 4, 8 or 16");
      return NULL;
    }
    return type_vector(elem, (int)w);
  }
  diag_error(s->kids[0]->loc, "unknown type constructor '%s' (expected array-type, dep-array-type, tuple or vector-type)", head);
  return NULL;
}

/* ---- expressions ---- */

static Expr *parse_expr(Parser *ps, Sexp *s);

static Expr *parse_atom(Parser *ps, Sexp *s) {
  (void)ps;
  const char *t = s->text;
  long long v;
  if (parse_integer(t, &v)) {
    if (v > 2147483647LL || v < -2147483648LL) { diag_error(s->loc, "integer literal %s does not fit in an int", t); return NULL; }
    Expr *e = expr_new(EX_INT, s->loc, 0);
    e->ival = v;
    return e;
  }
  if (isdigit((unsigned char)t[0]) || (t[0] == '-' && (isdigit((unsigned char)t[1]) || t[1] == '.')) || (t[0] == '.' && isdigit((unsigned char)t[1]))) {
    char *end;
    errno = 0;
    double d = strtod(t, &end);
    bool is_float = *end == 'f' && end[1] == 0;
    if (end == t || (*end && !is_float)) {
      diag_error(s->loc, "malformed number '%s' (expected e.g. 3, 1.5, 1.5f, -2.5f)", t);
      return NULL;
    }
    Expr *e = expr_new(is_float ? EX_FLOAT : EX_DOUBLE, s->loc, 0);
    e->fval = is_float ? (double)(float)d : d;
    return e;
  }
  if (strcmp(t, "true") == 0 || strcmp(t, "false") == 0) {
    Expr *e = expr_new(EX_BOOL, s->loc, 0);
    e->ival = t[0] == 't';
    return e;
  }
  if (is_keyword(t)) { diag_error(s->loc, "'%s' is a keyword and must start a form like (%s …)", t, t); return NULL; }
  Expr *e = expr_new(EX_VAR, s->loc, 0);
  e->name = t;
  return e;
}

static bool parse_params(Sexp *list, Param **out, int *n) {
  if (list->kind != SX_LIST || list->n == 0) {
    diag_error(list->loc, "expected a parameter list like (x y)");
    return false;
  }
  *n = list->n;
  *out = NEW_ARRAY(Param, list->n);
  for (int i = 0; i < list->n; i++) {
    Sexp *k = list->kids[i];
    if (k->kind != SX_ATOM || !is_ident(k->text)) { diag_error(k->loc, "expected a parameter name"); return false; }
    (*out)[i] = (Param){ k->text, 0, k->loc, NULL };
  }
  return true;
}

static Expr *parse_kids(Parser *ps, Expr *e, Sexp **kids, int n) {
  for (int i = 0; i < n; i++) if (!(e->kids[i] = parse_expr(ps, kids[i]))) return NULL;
  return e;
}

static Expr *parse_form(Parser *ps, Sexp *s) {
  if (s->n == 0) { diag_error(s->loc, "empty application '()': expected a function and its arguments"); return NULL; }
  Sexp *head = s->kids[0];
  const char *kw = head->kind == SX_ATOM ? head->text : "";
  if (strcmp(kw, "lambda") == 0) {
    if (s->n != 3) { diag_error(s->loc, "expected (lambda (PARAMS…) BODY)"); return NULL; }
    Expr *e = expr_new(EX_LAMBDA, s->loc, 1);
    if (!parse_params(s->kids[1], &e->params, &e->nparams)) return NULL;
    return parse_kids(ps, e, s->kids + 2, 1);
  }
  if (strcmp(kw, "let") == 0 || strcmp(kw, "unpack") == 0) {
    if (s->n != 4 || s->kids[1]->kind != SX_ATOM || !is_ident(s->kids[1]->text)) {
      diag_error(s->loc, "expected (%s NAME VALUE BODY)", kw);
      return NULL;
    }
    Expr *e = expr_new(kw[0] == 'l' ? EX_LET : EX_UNPACK, s->loc, 2);
    e->name = s->kids[1]->text;
    return parse_kids(ps, e, s->kids + 2, 2);
  }
  if (strcmp(kw, "if") == 0) {
    if (s->n != 4) { diag_error(s->loc, "expected (if CONDITION THEN ELSE)"); return NULL; }
    return parse_kids(ps, expr_new(EX_IF, s->loc, 3), s->kids + 1, 3);
  }
  if (strcmp(kw, "pack") == 0) {
    if (s->n != 2) { diag_error(s->loc, "expected (pack EXPR)"); return NULL; }
    return parse_kids(ps, expr_new(EX_PACK, s->loc, 1), s->kids + 1, 1);
  }
  if (strcmp(kw, "o") == 0) {
    if (s->n < 2) { diag_error(s->loc, "expected (o F G …) with at least one function"); return NULL; }
    return parse_kids(ps, expr_new(EX_COMPOSE, s->loc, s->n - 1), s->kids + 1, s->n - 1);
  }
  if (strcmp(kw, "lift") == 0) { diag_error(head->loc, "'lift' may only appear at the top of a program"); return NULL; }
  return parse_kids(ps, expr_new(EX_APPLY, s->loc, s->n), s->kids, s->n);
}

static Expr *parse_expr(Parser *ps, Sexp *s) {
  if (s->kind == SX_HASH) {
    Expr *e = expr_new(EX_NAT, s->loc, 0);
    e->nat = parse_nat(ps, s);
    return e->nat ? e : NULL;
  }
  if (s->kind == SX_ATOM) return parse_atom(ps, s);
  return parse_form(ps, s);
}

/* (lift (SIZEVAR*) (type*) (lambda (IDENT*) expr)) */
Program *parse_program(const char *file, const char *text) {
  diag_add_source(file, text);
  Sexp *s = sexp_read(file, text);
  if (!s) return NULL;
  Program *p = NEW(Program);
  Parser ps = { p };
  p->file = file; p->loc = s->loc;
  if (s->kind != SX_LIST || s->n != 4 || !sexp_is_atom(s->kids[0], "lift")) {
    diag_error(s->loc, "expected a program (lift (SIZES…) (TYPES…) (lambda (PARAMS…) BODY))");
    return NULL;
  }
  Sexp *sizes = s->kids[1], *types = s->kids[2], *fn = s->kids[3];
  if (sizes->kind != SX_LIST) { diag_error(sizes->loc, "expected a list of size variables, e.g. (N M) or ()"); return NULL; }
  p->sizes = NEW_ARRAY(NatVar *, sizes->n);
  for (int i = 0; i < sizes->n; i++) {
    Sexp *k = sizes->kids[i];
    if (k->kind != SX_ATOM || !is_ident(k->text)) { diag_error(k->loc, "expected a size variable name"); return NULL; }
    if (find_size(&ps, k->text)) { diag_error(k->loc, "size variable '%s' declared twice", k->text); return NULL; }
    p->sizes[p->nsizes++] = nat_var_new(k->text, nat_const(1), NULL);
  }
  if (types->kind != SX_LIST) { diag_error(types->loc, "expected a list of parameter types"); return NULL; }
  if (fn->kind != SX_LIST || fn->n != 3 || !sexp_is_atom(fn->kids[0], "lambda")) {
    diag_error(fn->loc, "expected (lambda (PARAMS…) BODY) as the program's body");
    return NULL;
  }
  Sexp *names = fn->kids[1];
  if (names->kind != SX_LIST) { diag_error(names->loc, "expected a parameter list"); return NULL; }
  if (names->n != types->n) {
    diag_error(names->loc, "the lambda has %d parameter%s but the lift header gives %d type%s",
               names->n, names->n == 1 ? "" : "s", types->n, types->n == 1 ? "" : "s");
    return NULL;
  }
  p->nparams = types->n;
  p->params = NEW_ARRAY(Param, types->n);
  for (int i = 0; i < types->n; i++) {
    Sexp *k = names->kids[i];
    if (k->kind != SX_ATOM || !is_ident(k->text)) { diag_error(k->loc, "expected a parameter name"); return NULL; }
    Type *t = parse_type(&ps, types->kids[i]);
    if (!t) return NULL;
    p->params[i] = (Param){ k->text, ast_fresh_uid(), k->loc, t };
  }
  p->body = parse_expr(&ps, fn->kids[2]);
  return p->body ? p : NULL;
}
