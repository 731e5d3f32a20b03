/* parse.c — gives the S-expression tree its meaning (SPEC §2): the `lift`
   header (size variables, parameter types), types, nats and expressions. */
#include "ast.h"
#include "sexp.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* refs: the (getLength x) met in the size literal being read; allowed only
   there (in_expr), never in the lift header's types. */
typedef struct Parser { Program *prog; bool in_expr; NatRef *refs; int nrefs, refs_cap; } Parser;

static int uid_counter;
int ast_fresh_uid(void) { return ++uid_counter; }
void ast_reset_uids(void) { uid_counter = 0; }

Expr *expr_new(ExprKind kind, Loc loc, int nkids) {
  Expr *e = NEW(Expr);
  e->kind = kind; e->loc = loc; e->nkids = nkids;
  e->kids = NEW_ARRAY(Expr *, nkids);
  return e;
}

int program_size_param(const Program *p, int k) { return p->size_param ? p->size_param[k] : -1; }

NatVar *program_value_size(Program *p, int i) {
  for (int k = 0; k < p->nsizes; k++) if (program_size_param(p, k) == i) return p->sizes[k];
  /* a name no program or generated code uses (clift_ is the generated code's) */
  NatVar *v = nat_var_new(arena_printf("clift_value_%d", i), nat_const(1), NULL);
  NatVar **sizes = NEW_ARRAY(NatVar *, p->nsizes + 1);
  int *param = NEW_ARRAY(int, p->nsizes + 1);
  for (int k = 0; k < p->nsizes; k++) { sizes[k] = p->sizes[k]; param[k] = program_size_param(p, k); }
  sizes[p->nsizes] = v; param[p->nsizes] = i;
  p->sizes = sizes; p->size_param = param; p->nsizes++;
  return v;
}

static bool is_keyword(const char *s) {
  static const char *kw[] = { "o", "lift", "lambda", "let", "if", "pack", "unpack", NULL };
  for (int i = 0; kw[i]; i++) if (strcmp(s, kw[i]) == 0) return true;
  return false;
}

static bool is_ident(const char *s) { return s[0] && !isdigit((unsigned char)s[0]) && !is_keyword(s); }

/* Digits with an optional '-': an integer literal, whatever its size. */
static bool is_integer(const char *s) {
  const char *p = s;
  if (*p == '-') p++;
  if (!isdigit((unsigned char)*p)) return false;
  for (; *p; p++) if (!isdigit((unsigned char)*p)) return false;
  return true;
}

/* An integer literal's value; false when it is not one or does not fit in 64 bits. */
static bool parse_integer(const char *s, long long *out) {
  if (!is_integer(s)) return false;
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

static const Tunable *find_tunable(const Program *p, const char *name) {
  for (int i = 0; i < p->ntunables; i++)
    if (strcmp(p->tunables[i].name, name) == 0) return &p->tunables[i];
  return NULL;
}

/* (getLength x): a placeholder variable standing for x's length, one per name
   in a size literal; the type checker replaces it (SPEC §3.5). */
static Nat *parse_get_length(Parser *ps, Sexp *s) {
  if (s->n != 2 || s->kids[1]->kind != SX_ATOM || !is_ident(s->kids[1]->text)) {
    diag_error(s->loc, "expected (getLength NAME), NAME an array variable in scope");
    return NULL;
  }
  if (!ps->in_expr) {
    diag_error(s->loc, "(getLength %s) may only appear in a size literal #(…) inside the program, "
               "where %s is a variable in scope", s->kids[1]->text, s->kids[1]->text);
    return NULL;
  }
  const char *name = s->kids[1]->text;
  for (int i = 0; i < ps->nrefs; i++) if (strcmp(ps->refs[i].name, name) == 0) return nat_var(ps->refs[i].var);
  if (ps->nrefs == ps->refs_cap) {
    ps->refs_cap = ps->refs_cap ? 2 * ps->refs_cap : 4;
    NatRef *r = NEW_ARRAY(NatRef, ps->refs_cap);
    for (int i = 0; i < ps->nrefs; i++) r[i] = ps->refs[i];
    ps->refs = r;
  }
  NatVar *v = nat_var_new(arena_printf("(getLength %s)", name), nat_const(0), NULL);
  ps->refs[ps->nrefs++] = (NatRef){ name, 0, s->kids[1]->loc, v };
  return nat_var(v);
}

/* Parse a nat with `v` in scope as a size variable (the index of a
   dep-array-type or of a nat-fn). */
static Nat *parse_nat(Parser *ps, Sexp *s);
static Nat *parse_nat_with(Parser *ps, Sexp *s, NatVar *v) {
  Program *pr = ps->prog;
  NatVar **saved = pr->sizes;
  pr->sizes = NEW_ARRAY(NatVar *, pr->nsizes + 1);
  memcpy(pr->sizes, saved, sizeof(NatVar *) * (size_t)pr->nsizes);
  pr->sizes[pr->nsizes++] = v;
  Nat *n = parse_nat(ps, s);
  pr->nsizes--;
  pr->sizes = saved;
  return n;
}

static bool add_over(long long a, long long b) { long long c; return __builtin_add_overflow(a, b, &c); }
static bool sub_over(long long a, long long b) { long long c; return __builtin_sub_overflow(a, b, &c); }
static bool mul_over(long long a, long long b) { long long c; return __builtin_mul_overflow(a, b, &c); }
static bool pow_over(long long a, long long b) {   /* |a| ≥ 2 passes 2^63 within 63 steps */
  bool over = false;
  for (long long e = 0, p = 1; (a < -1 || a > 1) && e < b && !over; e++) over = __builtin_mul_overflow(p, a, &p);
  return over;
}

static Nat *parse_nat(Parser *ps, Sexp *s) {
  if (s->kind == SX_HASH) s = s->kids[0];
  if (s->kind == SX_ATOM) {
    long long v;
    if (is_integer(s->text)) {
      if (!parse_integer(s->text, &v)) { diag_error(s->loc, "size %s is too large (at most %lld)", s->text, (long long)INT64_MAX); return NULL; }
      if (v < 0) { diag_error(s->loc, "expected a natural number, found %lld", v); return NULL; }
      return nat_const(v);
    }
    NatVar *var = find_size(ps, s->text);
    const Tunable *tv = var ? NULL : find_tunable(ps->prog, s->text);
    if (tv) return nat_const(tv->value);   /* a compile-time constant */
    if (!var) { diag_error(s->loc, "unknown size variable '%s' (declare it in the lift header)", s->text); return NULL; }
    return nat_var(var);
  }
  if (s->kind != SX_LIST || s->n < 2 || s->kids[0]->kind != SX_ATOM) {
    diag_error(s->loc, "expected a size: a number, a size variable or (op size size)");
    return NULL;
  }
  const char *op = s->kids[0]->text;
  if (strcmp(op, "getLength") == 0) return parse_get_length(ps, s);
  /* SPEC §2: (+ nat nat+) and (* nat nat+), the others two operands; `over`: do two
     constants fold past 64 bits (nat_build.c wraps them)? */
  static const struct { const char *name; Nat *(*fn)(Nat *, Nat *); bool variadic; bool (*over)(long long, long long); } ops[] = {
    { "+", nat_add, true, add_over }, { "*", nat_mul, true, mul_over }, { "-", nat_sub, false, sub_over },
    { "/", nat_div, false, NULL }, { "%", nat_mod, false, NULL }, { "pow", nat_pow, false, pow_over },
    { "min", nat_min, false, NULL }, { "max", nat_max, false, NULL },
  };
  int k = 0, nops = (int)(sizeof ops / sizeof ops[0]);
  while (k < nops && strcmp(ops[k].name, op) != 0) k++;
  if (k == nops) { diag_error(s->kids[0]->loc, "unknown size operator '%s' (expected + - * / %% pow min max getLength)", op); return NULL; }
  int n = s->n - 1;
  if (ops[k].variadic ? n < 2 : n != 2) {
    diag_error(s->loc, "size operator '%s' expects %s2 operands, found %d", op, ops[k].variadic ? "at least " : "", n);
    return NULL;
  }
  Nat *args[64];
  if (n > 64) { diag_error(s->loc, "too many operands"); return NULL; }
  for (int i = 0; i < n; i++) if (!(args[i] = parse_nat(ps, s->kids[i + 1]))) return NULL;
  Nat *r = args[0];
  for (int i = 1; i < n; i++) {
    long long a, b;
    if (ops[k].over && nat_is_const(r, &a) && nat_is_const(args[i], &b) && ops[k].over(a, b)) {
      diag_error(s->loc, "the size (%s …) is beyond 64 bits", op);
      return NULL;
    }
    r = ops[k].fn(r, args[i]);
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
  if (is_integer(t)) {   /* int literals are 32-bit; a long one ends in L (docs/language.md §4) */
    bool fits_long = parse_integer(t, &v);
    if (!fits_long || v > INT32_MAX || v < INT32_MIN) {
      diag_error(s->loc, "integer literal %s does not fit in an int (%d to %d)%s%s%s", t, INT32_MIN, INT32_MAX,
                 fits_long ? "; a long literal ends in L: " : "", fits_long ? t : "", fits_long ? "L" : "");
      return NULL;
    }
    Expr *e = expr_new(EX_INT, s->loc, 0);
    e->ival = v;
    return e;
  }
  size_t len = strlen(t);
  if (len > 1 && t[len - 1] == 'L') {
    char *digits = arena_strndup(t, len - 1);
    if (is_integer(digits)) {
      if (!parse_integer(digits, &v)) {
        diag_error(s->loc, "long literal %s does not fit in a long (%lld to %lld)", t, (long long)INT64_MIN, (long long)INT64_MAX);
        return NULL;
      }
      Expr *e = expr_new(EX_LONG, s->loc, 0);
      e->ival = v;
      return e;
    }
  }
  if (isdigit((unsigned char)t[0]) || (t[0] == '-' && (isdigit((unsigned char)t[1]) || t[1] == '.')) || (t[0] == '.' && isdigit((unsigned char)t[1]))) {
    char *end;
    errno = 0;
    double d = strtod(t, &end);
    bool is_float = *end == 'f' && end[1] == 0;
    if (end == t || (*end && !is_float)) {
      diag_error(s->loc, "malformed number '%s' (expected e.g. 3, 5L, 1.5, 1.5f, -2.5f)", t);
      return NULL;
    }
    /* from FLT_MAX + half an ulp on, a float rounds to inf; too small rounds to 0 */
    if (is_float ? fabs(d) >= 0x1.ffffffp+127 : errno == ERANGE && isinf(d)) {
      diag_error(s->loc, "%s literal %s is out of range (a %s is at most ±%s)", is_float ? "float" : "double", t,
                 is_float ? "float" : "double", is_float ? "3.40282347e+38" : "1.7976931348623157e+308");
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

/* A size literal's nat, with the (getLength x) it names. */
static Expr *size_literal(Parser *ps, Sexp *s, Expr *e, NatVar *bound) {
  ps->nrefs = ps->refs_cap = 0;
  ps->refs = NULL;
  e->nat = bound ? parse_nat_with(ps, s, bound) : parse_nat(ps, s);
  e->nat_written = e->nat;
  e->nrefs = ps->nrefs;
  e->refs = ps->refs;
  ps->nrefs = ps->refs_cap = 0;
  ps->refs = NULL;
  return e->nat ? e : NULL;
}

/* natfun ::= (nat-fn (IDENT) nat) | (case-split nat nat+) (SPEC §2): a NAT
   expression whose `index` is the function's variable. A case split is the
   nat `if` that picks part k's size at k (nat_if_lt), so Σ over it peels. */
static Expr *parse_natfun(Parser *ps, Sexp *s) {
  Expr *e = expr_new(EX_NAT, s->loc, 0);
  if (strcmp(s->kids[0]->text, "nat-fn") == 0) {
    if (s->n != 3 || s->kids[1]->kind != SX_LIST || s->kids[1]->n != 1 || s->kids[1]->kids[0]->kind != SX_ATOM ||
        !is_ident(s->kids[1]->kids[0]->text)) {
      diag_error(s->loc, "expected (nat-fn (INDEX) SIZE)");
      return NULL;
    }
    e->index = nat_var_new(s->kids[1]->kids[0]->text, nat_const(0), NULL);
    return size_literal(ps, s->kids[2], e, e->index);
  }
  if (s->n < 3) { diag_error(s->loc, "expected (case-split SIZE SIZE …) with at least two parts"); return NULL; }
  e->index = nat_var_new("k", nat_const(0), NULL);
  e->nparts = s->n - 1;
  ps->nrefs = ps->refs_cap = 0;
  ps->refs = NULL;
  Nat **parts = NEW_ARRAY(Nat *, e->nparts);
  for (int i = 0; i < e->nparts; i++) if (!(parts[i] = parse_nat(ps, s->kids[i + 1]))) return NULL;
  Nat *f = parts[e->nparts - 1];
  for (int i = e->nparts - 2; i >= 0; i--) f = nat_if_lt(nat_var(e->index), nat_const(i + 1), parts[i], f);
  e->nat = e->nat_written = f;
  e->nrefs = ps->nrefs;
  e->refs = ps->refs;
  ps->nrefs = ps->refs_cap = 0;
  ps->refs = NULL;
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
  if (strcmp(kw, "nat-fn") == 0 || strcmp(kw, "case-split") == 0) return parse_natfun(ps, s);
  if (strcmp(kw, "lift") == 0) { diag_error(head->loc, "'lift' may only appear at the top of a program"); return NULL; }
  return parse_kids(ps, expr_new(EX_APPLY, s->loc, s->n), s->kids, s->n);
}

static Expr *parse_expr(Parser *ps, Sexp *s) {
  if (s->kind == SX_HASH) return size_literal(ps, s, expr_new(EX_NAT, s->loc, 0), NULL);
  if (s->kind == SX_ATOM) return parse_atom(ps, s);
  return parse_form(ps, s);
}

/* ---- size variables bound by the inputs ---- */

typedef struct Lengths { Nat **len; int *input; int n, cap; } Lengths;

/* Every array length in an input type, outer to inner. */
static void collect_lengths(Lengths *L, Type *t, int input) {
  if (t->kind == TY_EXISTS) { collect_lengths(L, t->array, input); return; }
  if (t->kind == TY_TUPLE) { for (int i = 0; i < t->n; i++) collect_lengths(L, t->fields[i], input); return; }
  if (t->kind != TY_ARRAY) return;
  if (L->n == L->cap) {
    L->cap = L->cap ? 2 * L->cap : 16;
    Nat **len = NEW_ARRAY(Nat *, L->cap);
    int *in = NEW_ARRAY(int, L->cap);
    for (int i = 0; i < L->n; i++) { len[i] = L->len[i]; in[i] = L->input[i]; }
    L->len = len; L->input = in;
  }
  L->len[L->n] = t->len; L->input[L->n++] = input;
  collect_lengths(L, t->elem, input);
}

/* The size variable of p that `len` alone would fix, given those already bound:
   its one unbound size variable, when it mentions nothing else unknown (such as
   the position of a dep-array); -1 if none. */
static int fixes(Program *p, Nat *len, const bool *bound) {
  int nv, found = -1;
  NatVar **vars = nat_free_var_list(len, &nv);
  for (int i = 0; i < nv; i++) {
    int k = 0;
    while (k < p->nsizes && p->sizes[k] != vars[i]) k++;
    if (k == p->nsizes || (!bound[k] && found >= 0)) return -1;
    if (!bound[k]) found = k;
  }
  return found;
}

static bool mentions(Nat *len, NatVar *v) {
  int nv;
  NatVar **vars = nat_free_var_list(len, &nv);
  for (int i = 0; i < nv; i++) if (vars[i] == v) return true;
  return false;
}

/* SPEC §2: size variables are bound from the inputs, each as the length of an
   input (or of its rows) whose other sizes are known, pass after pass as
   src/cli/inputs.c does it. One that no input can give is an error at its
   declaration, or at the input type that mentions it. */
static bool check_sizes_bound(Program *p, Sexp **declared, Sexp *types) {
  Lengths L = { NULL, NULL, 0, 0 };
  for (int i = 0; i < p->nparams; i++) collect_lengths(&L, p->params[i].type, i);
  bool *bound = NEW_ARRAY(bool, p->nsizes + 1);
  for (bool changed = true; changed; ) {
    changed = false;
    for (int j = 0; j < L.n; j++) {
      int k = fixes(p, L.len[j], bound);
      if (k >= 0) { bound[k] = true; changed = true; }
    }
  }
  for (int k = 0; k < p->nsizes; k++) {
    if (bound[k]) continue;
    NatVar *v = p->sizes[k];
    for (int j = 0; j < L.n; j++)
      if (mentions(L.len[j], v))
        return diag_error(types->kids[L.input[j]]->loc, "the size variable %s cannot be bound from the inputs: "
                          "no input has a length with %s as its only unknown size (input %d (%s) has the length %s)",
                          v->name, v->name, L.input[j] + 1, p->params[L.input[j]].name, nat_to_string(L.len[j]));
    return diag_error(declared[k]->loc, "the size variable %s is not the length of any input, so its value "
                      "cannot be known (size variables are bound from the inputs' lengths)", v->name);
  }
  return true;
}

/* (NAME k1 k2 …): a tunable size, distinct candidates ≥ 1; its value is the
   first until set_tunables says otherwise. */
static bool parse_tunable(Sexp *s, Tunable *t) {
  *t = (Tunable){ s->kids[0]->text, s->kids[0]->loc, 0, NEW_ARRAY(long long, s->n), 0 };
  for (int i = 1; i < s->n; i++) {
    long long v;
    Sexp *c = s->kids[i];
    if (c->kind != SX_ATOM || !parse_integer(c->text, &v) || v < 1 || v > (1LL << 40))
      return diag_error(c->loc, "a candidate of the tunable size %s must be an integer between 1 and 2^40", t->name);
    for (int j = 0; j < t->ncand; j++)
      if (t->cand[j] == v) return diag_error(c->loc, "the tunable size %s lists %lld twice", t->name, v);
    t->cand[t->ncand++] = v;
  }
  t->value = t->cand[0];
  return true;
}

/* Values from the command line or the tuning cache: each names a tunable of
   the program; any value ≥ 1 is allowed (the candidates are what clift tune
   searches). */
static bool set_tunables(Program *p, const TuneValues *set) {
  for (int i = 0; set && i < set->n; i++) {
    Tunable *t = (Tunable *)find_tunable(p, set->names[i]);
    if (!t) {
      Buf names = {0};
      for (int k = 0; k < p->ntunables; k++) buf_printf(&names, "%s%s", k ? ", " : "", p->tunables[k].name);
      return diag_error(p->loc, "--tunable %s: the program has no tunable size %s (%s%s)", set->names[i], set->names[i],
                        p->ntunables ? "it has " : "it has none", buf_str(&names));
    }
    if (set->values[i] < 1 || set->values[i] > (1LL << 40))
      return diag_error(p->loc, "--tunable %s=%lld: expected an integer between 1 and 2^40", set->names[i], set->values[i]);
    t->value = set->values[i];
  }
  return true;
}

/* (lift (SIZEVAR*) (type*) (lambda (IDENT*) expr)); a SIZEVAR may be a
   tunable size (NAME k1 k2 …). */
Program *parse_program(const char *file, const char *text, const TuneValues *set) {
  diag_add_source(file, text);
  Sexp *s = sexp_read(file, text);
  if (!s) return NULL;
  Program *p = NEW(Program);
  Parser ps = { .prog = p };
  p->file = file; p->loc = s->loc;
  if (s->kind != SX_LIST || s->n != 4 || !sexp_is_atom(s->kids[0], "lift")) {
    diag_error(s->loc, "expected a program (lift (SIZES…) (TYPES…) (lambda (PARAMS…) BODY))");
    return NULL;
  }
  Sexp *sizes = s->kids[1], *types = s->kids[2], *fn = s->kids[3];
  if (sizes->kind != SX_LIST) { diag_error(sizes->loc, "expected a list of size variables, e.g. (N M) or ()"); return NULL; }
  p->sizes = NEW_ARRAY(NatVar *, sizes->n);
  p->tunables = NEW_ARRAY(Tunable, sizes->n);
  Sexp **declared = NEW_ARRAY(Sexp *, sizes->n + 1);   /* each size variable's declaration */
  for (int i = 0; i < sizes->n; i++) {
    Sexp *k = sizes->kids[i];
    const char *name = k->kind == SX_LIST && k->n > 0 ? k->kids[0]->text : k->text;
    if (k->kind == SX_LIST ? k->n < 2 || k->kids[0]->kind != SX_ATOM || !is_ident(name) : k->kind != SX_ATOM || !is_ident(name)) {
      diag_error(k->loc, "expected a size variable name, or a tunable size (NAME CANDIDATE…) such as (TS 16 32 64)");
      return NULL;
    }
    if (find_size(&ps, name) || find_tunable(p, name)) { diag_error(k->loc, "size variable '%s' declared twice", name); return NULL; }
    if (k->kind == SX_ATOM) {
      declared[p->nsizes] = k;
      p->sizes[p->nsizes++] = nat_var_new(name, nat_const(1), NULL);
    } else if (!parse_tunable(k, &p->tunables[p->ntunables++])) return NULL;
  }
  if (!set_tunables(p, set)) return NULL;
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
  if (!check_sizes_bound(p, declared, types)) return NULL;
  ps.in_expr = true;
  p->body = parse_expr(&ps, fn->kids[2]);
  return p->body ? p : NULL;
}
