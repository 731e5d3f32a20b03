/* elab_fn.c — APL functions applied, as TAIL (docs/apl.md §2.4): the scalar
   functions with their coercions and scalar extension, the other primitives
   of M2 (⍳ ≢ ⍴ ↓ , ⌽ / ⌿ ⊃), reduction with identity elements, ¨, ∘.f, and
   dfns inlined at each call. */
#include "elab.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
  G_TIMES = 0xD7, G_DIV = 0xF7, G_MAX = 0x2308, G_MIN = 0x230A, G_NE = 0x2260, G_LE = 0x2264, G_GE = 0x2265,
  G_AND = 0x2227, G_OR = 0x2228, G_NAND = 0x2372, G_NOR = 0x2371, G_IOTA = 0x2373, G_RHO = 0x2374,
  G_TALLY = 0x2262, G_DROP = 0x2193, G_TAKE = 0x2191, G_ROT = 0x233D, G_ROT1 = 0x2296, G_REDUCE1 = 0x233F,
  G_SCAN1 = 0x2340, G_EACH = 0xA8, G_JOT = 0x2218, G_FIRST = 0x2283, G_TRANSP = 0x2349, G_TABLE = 0x236A,
  G_STAR_LOG = 0x235F, G_POWER = 0x2363, G_CIRCLE = 0x25CB, G_RIGHT = 0x22A2, G_LEFT = 0x22A3, G_EPS = 0x220A
};

static TExp *transpose(Elab *cx, AplNode *f, TExp *l, TExp *x);

const char *el_glyph(int cp) {
  if (apl_sys_name(cp)) return apl_sys_name(cp);
  char s[5] = {0};
  if (cp < 0x80) s[0] = (char)cp;
  else if (cp < 0x800) { s[0] = (char)(0xC0 | cp >> 6); s[1] = (char)(0x80 | (cp & 0x3F)); }
  else { s[0] = (char)(0xE0 | cp >> 12); s[1] = (char)(0x80 | (cp >> 6 & 0x3F)); s[2] = (char)(0x80 | (cp & 0x3F)); }
  return arena_strndup(s, strlen(s));
}

/* ---- the scalar functions: per glyph, the TAIL op for each argument type ---- */

typedef enum { K_ARITH, K_DOUBLE, K_EQ, K_ORDER, K_LOGIC, K_INT } ScalarKind;
typedef struct ScalarFn {
  int cp;
  ScalarKind kind;
  const char *opi, *opd, *opb, *opc;   /* on int, double, bool, char arguments */
  int identity;                        /* for reduce: 0, 1, or ±2 for ⌈/⌊ (least/greatest), 9 none */
} ScalarFn;

static const ScalarFn scalars[] = {
  { '+', K_ARITH, "addi", "addd", NULL, NULL, 0 }, { '-', K_ARITH, "subi", "subd", NULL, NULL, 0 },
  { G_TIMES, K_ARITH, "muli", "muld", NULL, NULL, 1 }, { G_MAX, K_ARITH, "maxi", "maxd", NULL, NULL, -2 },
  { G_MIN, K_ARITH, "mini", "mind", NULL, NULL, 2 }, { '|', K_ARITH, "resi", "resd", NULL, NULL, 0 },
  { G_DIV, K_DOUBLE, NULL, "divd", NULL, NULL, 1 }, { '*', K_DOUBLE, NULL, "powd", NULL, NULL, 9 },
  { '=', K_EQ, "eqi", "eqd", "eqb", "eqc", 1 }, { G_NE, K_EQ, "neqi", "neqd", "xorb", "neqc", 0 },
  { '<', K_ORDER, "lti", "ltd", NULL, "ltc", 9 }, { G_LE, K_ORDER, "ltei", "lted", NULL, "ltec", 9 },
  { G_GE, K_ORDER, "gtei", "gted", NULL, "gtec", 9 }, { '>', K_ORDER, "gti", "gtd", NULL, "gtc", 9 },
  { G_AND, K_LOGIC, NULL, NULL, "andb", NULL, 1 }, { G_OR, K_LOGIC, NULL, NULL, "orb", NULL, 0 },
  { G_NAND, K_LOGIC, NULL, NULL, "nandb", NULL, 9 }, { G_NOR, K_LOGIC, NULL, NULL, "norb", NULL, 9 },
  { '!', K_DOUBLE, NULL, "binom", NULL, NULL, 1 },   /* k!n, on doubles (clift's binomial, prim/special.h) */
  /* the bit operations (apltail's system functions): 32-bit ints, the
     identity of ⎕INT32AND all ones */
  { APL_SYS_AND, K_INT, "andi", NULL, NULL, NULL, -1 }, { APL_SYS_OR, K_INT, "ori", NULL, NULL, NULL, 0 },
  { APL_SYS_XOR, K_INT, "xori", NULL, NULL, NULL, 0 }, { APL_SYS_SHL, K_INT, "shli", NULL, NULL, NULL, 9 },
  { APL_SYS_SHR, K_INT, "shri", NULL, NULL, NULL, 9 }, { APL_SYS_SHAR, K_INT, "shari", NULL, NULL, NULL, 9 },
};

static const ScalarFn *scalar_fn(AplNode *f) {
  if (f->kind != AF_PRIM) return NULL;
  for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) if (scalars[i].cp == f->cp) return &scalars[i];
  return NULL;
}

/* The TAIL op of s for arguments of bases a and b, and the base both are
   converted to; NULL + a domain error. */
static const char *scalar_op(const ScalarFn *s, Loc loc, TBase a, TBase b, TBase *arg) {
  bool num_a = a != TB_CHAR, num_b = b != TB_CHAR;
  const char *g = el_glyph(s->cp);
  switch (s->kind) {
  case K_ARITH: case K_DOUBLE:
    if (!num_a || !num_b) return diag_error(loc, "domain error: %s of characters", g), NULL;
    *arg = s->kind == K_DOUBLE ? TB_DOUBLE : el_join(a == TB_BOOL ? TB_INT : a, b == TB_BOOL ? TB_INT : b);
    return *arg == TB_INT ? s->opi : s->opd;
  case K_EQ: case K_ORDER:
    if (num_a != num_b) return diag_error(loc, "not supported yet: %s of a character and a number", g), NULL;
    if (!num_a) { *arg = TB_CHAR; return s->opc; }
    if (s->kind == K_EQ && a == TB_BOOL && b == TB_BOOL) { *arg = TB_BOOL; return s->opb; }
    *arg = el_join(a == TB_BOOL ? TB_INT : a, b == TB_BOOL ? TB_INT : b);
    return *arg == TB_INT ? s->opi : s->opd;
  case K_INT:
    if (a == TB_DOUBLE || b == TB_DOUBLE || !num_a || !num_b)
      return diag_error(loc, "domain error: %s needs integers, found %s and %s", g, tbase_name(a), tbase_name(b)), NULL;
    *arg = TB_INT;
    return s->opi;
  case K_LOGIC:
    if (a != TB_BOOL || b != TB_BOOL)
      return diag_error(loc, "domain error: %s needs booleans (0 or 1), found %s and %s", g, tbase_name(a), tbase_name(b)), NULL;
    *arg = TB_BOOL;
    return s->opb;
  }
  return NULL;
}

/* fn x:[κ]0 => body(x): body built by the caller from the variable */
static TExp *scalar_lambda(Elab *cx, TBase base, TExp *(*body)(void *ctx, TExp *x), void *ctx, Loc loc) {
  const char *x = el_fresh(cx);
  TType *t = ttype_scalar(base);
  TExp *b = body(ctx, el_var(x, t, loc));
  return b ? el_fn(x, t, b, loc) : NULL;
}

typedef struct Bin { const char *op; Loc loc; TExp *s; bool s_left; } Bin;

static TExp *bin_body(void *ctx, TExp *x) {
  Bin *b = ctx;
  TExp *s = el_copy(b->s);
  return b->s_left ? el_op(b->op, b->loc, 2, s, x) : el_op(b->op, b->loc, 2, x, s);
}

/* L f R with scalar extension: op(L, R), each(fn x => op(s, x), R),
   zipWith(op, L, R); a rank or (statically) length error at f */
static TExp *scalar_dyadic(Elab *cx, const ScalarFn *s, Loc loc, TExp *l, TExp *r) {
  TBase arg;
  const char *op = scalar_op(s, loc, el_base(l), el_base(r), &arg);
  if (!op) return NULL;
  if (!tail_op_lookup(op)->lower)
    return diag_error(loc, "not supported yet: %s (TAIL's %s is not lowered)", el_glyph(s->cp), op), NULL;
  l = el_coerce(cx, l, arg); r = el_coerce(cx, r, arg);
  if (!l || !r) return NULL;
  int rl = el_rank(l), rr = el_rank(r);
  if (rl == 0 && rr == 0) return el_op(op, loc, 2, l, r);
  if (rl == 0 || rr == 0) {
    Bin b = { op, loc, el_atomic(cx, rl == 0 ? l : r), rl == 0 };
    if (!b.s) return NULL;
    TExp *f = scalar_lambda(cx, arg, bin_body, &b, loc);
    return f ? el_op("each", loc, 2, f, rl == 0 ? r : l) : NULL;
  }
  if (rl != rr)
    return diag_error(loc, "rank error: %s of arrays of ranks %d and %d (one must be a scalar or both of one rank)",
                      el_glyph(s->cp), rl, rr), NULL;
  long long nl = el_length(l), nr = el_length(r);
  if (nl >= 0 && nr >= 0 && nl != nr)
    return diag_error(loc, "length error: %s of vectors of lengths %lld and %lld", el_glyph(s->cp), nl, nr), NULL;
  return el_op("zipWith", loc, 3, el_opval(op, loc), l, r);
}

/* A one-argument TAIL op at every element. */
static TExp *pointwise(Elab *cx, const char *op, Loc loc, TExp *x) {
  (void)cx;
  return el_rank(x) == 0 ? el_op(op, loc, 1, x) : el_op("each", loc, 2, el_opval(op, loc), x);
}

static TExp *recip_body(void *ctx, TExp *x) { return el_op("divd", *(Loc *)ctx, 2, el_double(1.0, *(Loc *)ctx), x); }
static TExp *pi_times_body(void *ctx, TExp *x) { return el_op("muld", *(Loc *)ctx, 2, el_op("pi", *(Loc *)ctx, 0), x); }

/* monadic + - | ⌊ ⌈ ÷ ~ * ⍟ ○ !, ⎕INT32NOT */
static TExp *scalar_monadic(Elab *cx, AplNode *f, TExp *x) {
  TBase b = el_base(x);
  const char *g = el_glyph(f->cp);
  if (b == TB_CHAR) return diag_error(f->loc, "domain error: monadic %s of characters", g), NULL;
  if (f->cp == APL_SYS_NOT) {
    if (b == TB_DOUBLE) return diag_error(f->loc, "domain error: %s needs integers, found double", g), NULL;
    return (x = el_coerce(cx, x, TB_INT)) ? pointwise(cx, "noti", f->loc, x) : NULL;
  }
  if (apl_sys_name(f->cp)) return diag_error(f->loc, "%s needs a left argument (it is dyadic)", g), NULL;
  if (f->cp == '!') {   /* x! = Γ(x+1), on doubles (clift's factorial); a negative integer known now is refused now */
    long long *v, k;
    bool *known, yes = true;
    int n = 0;
    if (b == TB_INT && el_rank(x) == 0 && el_fold_int(cx, x, 0, &k)) { v = &k; known = &yes; n = 1; }
    else if (b != TB_INT || el_rank(x) != 1 || !el_fold_vec(cx, x, 0, &v, &known, &n)) n = 0;
    for (int i = 0; i < n; i++)
      if (known[i] && v[i] < 0)
        return diag_error(f->loc, "domain error: !¯%lld (the factorial of a negative integer)", -v[i]), NULL;
    if (!(x = el_coerce(cx, x, TB_DOUBLE))) return NULL;
    return pointwise(cx, "fact", f->loc, x);
  }
  if (f->cp == '~') {
    if (b != TB_BOOL) return diag_error(f->loc, "domain error: ~ needs booleans (0 or 1)"), NULL;
    return pointwise(cx, "notb", f->loc, x);
  }
  if (f->cp == '*' || f->cp == G_STAR_LOG || f->cp == G_CIRCLE) {   /* exp, ln, pi times: on doubles */
    if (!(x = el_coerce(cx, x, TB_DOUBLE))) return NULL;
    if (f->cp != G_CIRCLE) return pointwise(cx, f->cp == '*' ? "expd" : "ln", f->loc, x);
    if (el_rank(x) == 0) return pi_times_body(&f->loc, x);
    TExp *fn = scalar_lambda(cx, TB_DOUBLE, pi_times_body, &f->loc, f->loc);
    return fn ? el_op("each", f->loc, 2, fn, x) : NULL;
  }
  if (b == TB_BOOL && f->cp != G_DIV) { x = el_coerce(cx, x, TB_INT); b = TB_INT; }
  switch (f->cp) {
  case '+': return x;   /* conjugate: the identity on real numbers */
  case '-': return pointwise(cx, b == TB_INT ? "negi" : "negd", f->loc, x);
  case '|': return pointwise(cx, b == TB_INT ? "absi" : "absd", f->loc, x);
  case G_TIMES: return pointwise(cx, b == TB_INT ? "signi" : "signd", f->loc, x);   /* signum: an int */
  case G_MIN: case G_MAX: return b == TB_INT ? x : pointwise(cx, f->cp == G_MIN ? "floor" : "ceil", f->loc, x);
  case G_DIV: {
    x = el_coerce(cx, x, TB_DOUBLE);
    if (el_rank(x) == 0) return recip_body(&f->loc, x);
    TExp *fn = scalar_lambda(cx, TB_DOUBLE, recip_body, &f->loc, f->loc);
    return fn ? el_op("each", f->loc, 2, fn, x) : NULL;
  }
  default:
    return diag_error(f->loc, "not supported yet: monadic %s (docs/apl.md §5)", g), NULL;
  }
}

/* ---- other primitives ---- */

static TExp *int_scalar(Elab *cx, TExp *x, AplNode *f, const char *what) {
  if (el_rank(x) != 0) return diag_error(f->loc, "rank error: %s of %s needs a scalar, found rank %d", what, el_glyph(f->cp), el_rank(x)), NULL;
  if (el_base(x) != TB_INT && el_base(x) != TB_BOOL)
    return diag_error(f->loc, "domain error: %s of %s must be an integer, found %s", what, el_glyph(f->cp), tbase_name(el_base(x))), NULL;
  return el_coerce(cx, x, TB_INT);
}

/* the default (fill) element of a base type, for first */
TExp *el_fill(TBase b, Loc loc) {
  switch (b) {
  case TB_DOUBLE: return el_double(0, loc);
  case TB_BOOL: return el_bool(false, loc);
  case TB_CHAR: return el_char(' ', loc);
  default: return el_int(0, loc);
  }
}

static TExp *tally(Elab *cx, AplNode *f, TExp *x) {
  (void)cx;
  if (el_rank(x) == 0) return el_int(1, f->loc);
  if (el_length(x) >= 0) return el_int(el_length(x), f->loc);
  return el_op("first", f->loc, 2, el_int(0, f->loc), el_op("shape", f->loc, 1, x));
}

/* the scalar functions that have a monadic form here */
static bool scalar_monadic_glyph(int cp) {
  return cp == '+' || cp == '-' || cp == '|' || cp == G_TIMES || cp == G_MIN || cp == G_MAX || cp == G_DIV || cp == '~' || cp == '*' ||
         cp == G_STAR_LOG || cp == G_CIRCLE || cp == '!' || cp == APL_SYS_NOT;
}

/* ,x: the elements in row-major order, reshape0([×/⍴x], x); a scalar becomes
   a one-element vector */
static TExp *ravel(Elab *cx, AplNode *f, TExp *x) {
  int r = el_rank(x);
  if (r == 1) return x;
  TExp *n = r == 0 ? el_int(1, f->loc)
                   : el_op("reduce", f->loc, 3, el_opval("muli", f->loc), el_int(1, f->loc), el_op("shape", f->loc, 1, el_atomic(cx, x)));
  if (!n) return NULL;
  return el_op("reshape0", f->loc, 2, el_vec(f->loc, 1, &n), r == 0 ? x : el_copy(x));
}

static TExp *prim_monadic(Elab *cx, AplNode *f, TExp *x) {
  if (scalar_fn(f) || scalar_monadic_glyph(f->cp)) return scalar_monadic(cx, f, x);
  switch (f->cp) {
  case G_RIGHT: case G_LEFT: return x;
  case G_IOTA: {
    TExp *n = int_scalar(cx, x, f, "the argument");
    TExp *r = n ? el_op("iota", f->loc, 1, n) : NULL;
    long long k;
    /* a count computed at run time: a run-time length, named at the let (as
       compress's, elab_select.c) for ⍴ and ≢ to read (tail/lower_ops.c) */
    return r && !el_fold_int(cx, n, 0, &k) ? el_bind(cx, r) : r;
  }
  case G_TALLY: return tally(cx, f, x);
  case G_RHO: return el_rank(x) == 0 ? el_vec(f->loc, 0, NULL) : el_op("shape", f->loc, 1, x);
  case G_FIRST: return el_rank(x) == 0 ? x : el_op("first", f->loc, 2, el_fill(el_base(x), f->loc), x);
  case G_ROT: return el_rank(x) == 0 ? x : el_op(x->type->kind == TT_VEC ? "reverseV" : "reverse", f->loc, 1, x);
  case G_ROT1: return el_rank(x) == 0 ? x : el_op("vreverse", f->loc, 1, x);
  case G_TABLE: return el_table(cx, f, x);
  case ',': return ravel(cx, f, x);
  case G_TRANSP: return transpose(cx, f, NULL, x);
  default:
    return diag_error(f->loc, "not supported yet: monadic %s (docs/apl.md §5)", el_glyph(f->cp)), NULL;
  }
}

/* a , b: scalars and vectors (cons, snoc, cat) at the join of their bases */
static TExp *catenate(Elab *cx, AplNode *f, TExp *a, TExp *b) {
  TBase ba = el_base(a), bb = el_base(b);
  if ((ba == TB_CHAR) != (bb == TB_CHAR)) return diag_error(f->loc, "domain error: , of characters and numbers"), NULL;
  TBase j = el_join(ba, bb);
  a = el_coerce(cx, a, j); b = el_coerce(cx, b, j);
  if (!a || !b) return NULL;
  int ra = el_rank(a), rb = el_rank(b);
  if (ra == 0 && rb == 0) {
    TExp *items[2] = { a, b };
    return el_vec(f->loc, 2, items);
  }
  bool first = f->cp == G_TABLE;
  if (ra > 1 || rb > 1 || first) {
    int r = ra > rb ? ra : rb;
    if (ra != rb && (ra == 0 || rb == 0) && r > 1)
      return diag_error(f->loc, "not supported yet: %s of a scalar and an array of rank %d", el_glyph(f->cp), r), NULL;
    if (ra != rb && ra != r - 1 && rb != r - 1)
      return diag_error(f->loc, "rank error: %s of arrays of ranks %d and %d", el_glyph(f->cp), ra, rb), NULL;
    if (first) {   /* ⍪: the first axis, cons/snoc/cat through transp2 */
      if (ra != rb) return el_op(ra < rb ? "cons" : "snoc", f->loc, 2, a, b);
      if (r == 1) return el_op("cat", f->loc, 2, a, b);
      long long *to_last = NEW_ARRAY(long long, r), *to_first = NEW_ARRAY(long long, r);
      for (int i = 0; i < r; i++) { to_last[i] = i == 0 ? r : i; to_first[i] = i == r - 1 ? 1 : i + 2; }
      TExp *c = el_op("cat", f->loc, 2, el_op("transp2", f->loc, 2, el_ints(f->loc, r, to_last), a),
                      el_op("transp2", f->loc, 2, el_ints(f->loc, r, to_last), b));
      return c ? el_op("transp2", f->loc, 2, el_ints(f->loc, r, to_first), c) : NULL;
    }
    if (ra != rb) return diag_error(f->loc, "not supported yet: , of arrays of ranks %d and %d (the lower rank on the last axis)", ra, rb), NULL;
    return el_op("cat", f->loc, 2, a, b);
  }
  /* the …V forms where the vector's length is in its type, as apltail (Figure 3.1) */
  if (ra == 0) return el_op(b->type->kind == TT_VEC ? "consV" : "cons", f->loc, 2, a, b);
  if (rb == 0) return el_op(a->type->kind == TT_VEC ? "snocV" : "snoc", f->loc, 2, a, b);
  return el_op("cat", f->loc, 2, a, b);
}

static const ScalarFn not_equal = { G_NE, K_EQ, "neqi", "neqd", "xorb", "neqc", 0 };
static const ScalarFn divide = { G_DIV, K_DOUBLE, NULL, "divd", NULL, NULL, 1 };

/* L ⍟ R, the base-L logarithm of R: (⍟R)÷⍟L, with scalar extension */
static TExp *logarithm(Elab *cx, AplNode *f, TExp *l, TExp *r) {
  if (el_base(l) == TB_CHAR || el_base(r) == TB_CHAR) return diag_error(f->loc, "domain error: ⍟ of characters"), NULL;
  TExp *lr = el_coerce(cx, r, TB_DOUBLE), *ll = lr ? el_coerce(cx, l, TB_DOUBLE) : NULL;
  if (!ll || !(lr = pointwise(cx, "ln", f->loc, lr)) || !(ll = pointwise(cx, "ln", f->loc, ll))) return NULL;
  return scalar_dyadic(cx, &divide, f->loc, lr, ll);
}

/* (k₁ k₂ …)↑a, (k₁ k₂ …)↓a: one take/drop per axis, first axis first; axis
   i > 1 moved first by transp2 and back (the thesis's per-axis forms). A
   count of 0 for ↓ is no operation. */
static TExp *take_drop_axes(Elab *cx, AplNode *f, TExp *l, TExp *a) {
  bool take = f->cp == G_TAKE;
  if (el_base(l) != TB_INT && el_base(l) != TB_BOOL)
    return diag_error(f->loc, "domain error: the left argument of %s must be integers", el_glyph(f->cp)), NULL;
  long long n = el_length(l);
  int r = el_rank(a);
  if (n < 0) return diag_error(f->loc, "not supported yet: %s with a left argument whose length is not known when compiling", el_glyph(f->cp)), NULL;
  if (n > r || r == 0)
    return diag_error(f->loc, "rank error: %s with %lld counts for an array of rank %d", el_glyph(f->cp), n, r), NULL;
  bool lit = l->kind == TE_VEC;
  if (!lit && !(l = el_atomic(cx, el_coerce(cx, el_atomic(cx, l), TB_INT)))) return NULL;
  for (long long i = 0; i < n && a; i++) {
    TExp *k = lit ? l->kids[i] : el_op("first", f->loc, 2, el_int(0, f->loc), el_op("drop", f->loc, 2, el_int(i, f->loc), el_copy(l)));
    if (!k || (lit && k->kind == TE_BOOL && !(k = el_int(k->ival, k->loc)))) return NULL;
    if (lit && k->kind != TE_INT && !(k = el_coerce(cx, k, TB_INT))) return NULL;
    if (!take && k->kind == TE_INT && k->ival == 0) continue;
    long long *p = NULL;
    if (i > 0) {   /* axis i+1 first: swap axes 1 and i+1 (its own inverse) */
      p = NEW_ARRAY(long long, r);
      for (int j = 0; j < r; j++) p[j] = j + 1;
      p[0] = i + 1; p[i] = 1;
      a = el_op("transp2", f->loc, 2, el_ints(f->loc, r, p), a);
      if (!a) return NULL;
    }
    a = take ? el_op("take", f->loc, 3, k, el_fill(el_base(a), f->loc), a) : el_op("drop", f->loc, 2, k, a);
    if (a && p) a = el_op("transp2", f->loc, 2, el_ints(f->loc, r, p), a);
  }
  return a;
}

/* Z⍉x with a repeated axis (a diagonal; APL's dyadic ⍉): the result has an
   axis k for each of 1…q (q the largest item of Z, every one of them used),
   as long as the shortest axis i of x with Z[i] = k; its item (j_1, …, j_q)
   is x[j_Z[1]; …; j_Z[r]]. Built in TAIL as reshape0(lengths, each(fn l =>
   index(j_Z[r], … index(j_Z[1], x)), iota(Π lengths))), j_k from the item's
   place l in row-major order by divi and resi (so every rank and every q is
   the same construction; 1 1⍉M is M's diagonal). */
typedef struct Diag { const long long *z; int r, q; TExp *x, **len; Loc loc; } Diag;

static TExp *diag_body(void *ctx, TExp *l) {
  Diag *d = ctx;
  Loc loc = d->loc;
  TExp *place = el_op("subi", loc, 2, l, el_int(1, loc));   /* 0-based */
  TExp **j = NEW_ARRAY(TExp *, d->q);
  for (int k = d->q - 1; k >= 0; k--) {   /* j_k = (place div Π_{m>k} len_m) mod len_k, then 1-based */
    TExp *p = el_copy(place);
    for (int m = k + 1; m < d->q; m++) p = el_op("divi", loc, 2, p, el_copy(d->len[m]));
    j[k] = el_op("addi", loc, 2, el_op("resi", loc, 2, el_copy(d->len[k]), p), el_int(1, loc));
  }
  TExp *item = el_copy(d->x);
  for (int i = 0; i < d->r && item; i++) item = el_op("index", loc, 2, el_copy(j[d->z[i] - 1]), item);
  return item;
}

static TExp *diagonal(Elab *cx, AplNode *f, TExp *x, const long long *z, int r) {
  Loc loc = f->loc;
  int q = 0;
  for (int i = 0; i < r; i++) if (z[i] > q) q = (int)z[i];
  bool *used = NEW_ARRAY(bool, q + 1);
  for (int i = 0; i < r; i++) used[z[i]] = true;
  for (int k = 1; k <= q; k++)
    if (!used[k]) return diag_error(loc, "domain error: the left argument of ⍉ must hold every axis from 1 to its largest (%d), and %d is missing", q, k), NULL;
  if (!(x = el_atomic(cx, x))) return NULL;
  Diag d = { z, r, q, x, NEW_ARRAY(TExp *, q), loc };
  for (int i = 0; i < r; i++) {
    TExp *a = el_axis_length(x, i, loc);
    int k = (int)z[i] - 1;
    if (!a || !(d.len[k] = d.len[k] ? el_op("mini", loc, 2, d.len[k], a) : a)) return NULL;
  }
  TExp *total = NULL;
  for (int k = 0; k < q; k++) {
    if (!(d.len[k] = el_atomic(cx, d.len[k]))) return NULL;
    total = total ? el_op("muli", loc, 2, total, el_copy(d.len[k])) : el_copy(d.len[k]);
  }
  TExp *fn = scalar_lambda(cx, TB_INT, diag_body, &d, loc);
  TExp *items = fn ? el_op("each", loc, 2, fn, el_op("iota", loc, 1, total)) : NULL;
  if (!items || q == 1) return items;
  TExp **shape = NEW_ARRAY(TExp *, q);
  for (int k = 0; k < q; k++) shape[k] = el_copy(d.len[k]);
  return el_op("reshape0", loc, 2, el_vec(loc, q, shape), items);
}

/* ⍉x reverses the axes; Z⍉x moves axis i of x to axis Z[i] (APL's dyadic ⍉,
   TAIL's transp2), Z known when compiling; a repeated axis: a diagonal */
static TExp *transpose(Elab *cx, AplNode *f, TExp *l, TExp *x) {
  int r = el_rank(x);
  long long *p = NEW_ARRAY(long long, r > 0 ? r : 1);
  if (!l) {
    if (r <= 1) return x;
    for (int i = 0; i < r; i++) p[i] = r - i;
    return el_op("transp2", f->loc, 2, el_ints(f->loc, r, p), x);
  }
  if (el_base(l) != TB_INT && el_base(l) != TB_BOOL) return diag_error(f->loc, "domain error: the left argument of ⍉ must be integers"), NULL;
  if (el_rank(l) > 1) return diag_error(f->loc, "rank error: the left argument of ⍉ must be a vector"), NULL;
  long long *v; bool *known; int n;
  if (el_rank(l) == 0) {
    n = 1;
    el_fold_new(1, &v, &known);
    known[0] = el_fold_int(cx, l, 0, &v[0]);
  } else if (!el_fold_vec(cx, l, 0, &v, &known, &n)) n = -1;
  for (int i = 0; i < n; i++) if (!known[i]) n = -1;
  if (n < 0) return diag_error(f->loc, "not supported yet: the left argument of ⍉ must be known when compiling"), NULL;
  if (n != r) return diag_error(f->loc, "length error: ⍉ with %d axes for an array of rank %d", n, r), NULL;
  bool *seen = NEW_ARRAY(bool, r > 0 ? r : 1), repeated = false;
  for (int i = 0; i < r; i++) {
    if (v[i] < 1 || v[i] > r) return diag_error(f->loc, "domain error: ⍉ axis %lld of an array of rank %d", v[i], r), NULL;
    repeated |= seen[v[i] - 1];
    seen[v[i] - 1] = true;
    p[i] = v[i];
  }
  if (repeated) return diagonal(cx, f, x, v, r);
  if (r <= 1) return x;
  return el_op("transp2", f->loc, 2, el_ints(f->loc, r, p), x);
}

/* k○x, the circle function k, k one int known when compiling: the real
   ones are built (0 √(1-x²), ±1 ±2 ±3 sin cos tan and their inverses, 4
   √(1+x²), ¯4 (x+1)×√((x-1)÷(x+1)), ±5 ±6 ±7 sinh cosh tanh and their
   inverses, 9 ¯9 ¯10 x, 10 |x|; outside the real domain NaN, where APL would
   give a complex number); the complex ones are refused (docs/apl.md §5, M6) */
typedef struct Circle { long long k; Loc loc; } Circle;

/* k = ¯12 … 12: its name, the TAIL op of a plain function (else NULL: built
   by circle_body), and whether it needs complex numbers */
static const struct { const char *name, *op; bool complex; } circles[25] = {
  { "*0J1×x", NULL, true }, { "0J1×x", NULL, true }, { "conjugate", NULL, false }, { "x", NULL, false },
  { "-√(¯1-x²)", NULL, true }, { "arctanh", "atanh", false }, { "arccosh", "acosh", false }, { "arcsinh", "asinh", false },
  { "(x+1)×√((x-1)÷(x+1))", NULL, false }, { "arctan", "atan", false }, { "arccos", "acos", false },
  { "arcsin", "asin", false }, { "√(1-x²)", NULL, false }, { "sin", "sin", false }, { "cos", "cos", false },
  { "tan", "tan", false }, { "√(1+x²)", NULL, false }, { "sinh", "sinh", false }, { "cosh", "cosh", false },
  { "tanh", "tanh", false }, { "√(¯1-x²)", NULL, true }, { "real part", NULL, false }, { "magnitude", NULL, false },
  { "imaginary part", NULL, true }, { "phase", NULL, true },
};

static TExp *circle_body(void *ctx, TExp *x) {
  Circle *c = ctx;
  Loc l = c->loc;
  if (circles[c->k + 12].op) return el_op(circles[c->k + 12].op, l, 1, x);
  switch (c->k) {
  case 0: case 4:
    return el_op("sqrt", l, 1, el_op(c->k ? "addd" : "subd", l, 2, el_double(1, l), el_op("muld", l, 2, x, el_copy(x))));
  case -4: {   /* (x+1)×√((x-1)÷(x+1)): ±√(x²-1), the sign of x (APL's definition) */
    TExp *up = el_op("addd", l, 2, el_copy(x), el_double(1, l));
    TExp *q = el_op("divd", l, 2, el_op("subd", l, 2, el_copy(x), el_double(1, l)), el_copy(up));
    return el_op("muld", l, 2, up, el_op("sqrt", l, 1, q));
  }
  case 10: return el_op("absd", l, 1, x);
  default: return x;   /* 9, ¯9, ¯10 of a real number */
  }
}

static TExp *circle(Elab *cx, AplNode *f, TExp *l, TExp *x) {
  Circle c = { 0, f->loc };
  if (el_base(l) != TB_INT && el_base(l) != TB_BOOL) return diag_error(f->loc, "domain error: the left argument of ○ must be an integer"), NULL;
  if (el_rank(l) != 0 || !el_fold_int(cx, l, 0, &c.k))
    return diag_error(f->loc, "not supported yet: ○ with a left argument that is not one number known when compiling"), NULL;
  if (c.k < -12 || c.k > 12) return diag_error(f->loc, "domain error: %lld○ is not a circle function", c.k), NULL;
  const char *name = circles[c.k + 12].name, *k = arena_printf("%s%lld", c.k < 0 ? "¯" : "", c.k < 0 ? -c.k : c.k);
  if (circles[c.k + 12].complex) return diag_error(f->loc, "%s○ (%s) needs complex numbers, which are not in the subset", k, name), NULL;
  if (el_base(x) == TB_CHAR) return diag_error(f->loc, "domain error: ○ of characters"), NULL;
  if (!(x = el_atomic(cx, el_coerce(cx, x, TB_DOUBLE)))) return NULL;
  if (el_rank(x) == 0) return circle_body(&c, x);
  TExp *fn = scalar_lambda(cx, TB_DOUBLE, circle_body, &c, f->loc);
  return fn ? el_op("each", f->loc, 2, fn, x) : NULL;
}

/* A∊B (membership): each(fn x => ∨/x=,B, A), booleans of A's shape (A a
   scalar or an array of any rank, its lengths known or not); A~B (without):
   (~A∊B)/A, a compress by a mask (el_select), A a scalar or a vector (APL's
   rank error otherwise). */
typedef struct Member { Elab *cx; Loc loc; TExp *b; const ScalarFn *eq; } Member;

static TExp *member_body(void *ctx, TExp *x) {
  Member *m = ctx;
  TExp *eq = scalar_dyadic(m->cx, m->eq, m->loc, x, el_copy(m->b));
  return eq ? el_op("reduce", m->loc, 3, el_opval("orb", m->loc), el_bool(false, m->loc), eq) : NULL;
}

static TExp *member(Elab *cx, AplNode *f, TExp *a, TExp *b) {
  Loc loc = f->loc;
  int ra = el_rank(a);
  if (ra > 1 && f->cp == '~') return diag_error(loc, "rank error: the left argument of ~ must be a scalar or a vector, not of rank %d", ra), NULL;
  AplNode eq_node = { .kind = AF_PRIM, .loc = loc, .cp = '=' };
  const ScalarFn *eq = scalar_fn(&eq_node);
  TBase arg;
  if (!scalar_op(eq, loc, el_base(a), el_base(b), &arg)) return NULL;
  if (el_rank(b) == 0) b = el_vec(loc, 1, &b);
  else if (el_rank(b) > 1) b = ravel(cx, f, b);
  Member m = { cx, loc, b ? el_atomic(cx, el_coerce(cx, b, arg)) : NULL, eq };
  TExp *ac = m.b ? el_coerce(cx, a, arg) : NULL;
  if (!ac) return NULL;
  if (ra == 0) return member_body(&m, ac);
  TExp *fn = scalar_lambda(cx, arg, member_body, &m, loc);
  TExp *mask = fn ? el_op("each", loc, 2, fn, ac) : NULL;
  if (!mask || f->cp != '~') return mask;
  AplNode slash = { .kind = AF_PRIM, .loc = loc, .cp = '/' };
  mask = el_op("each", loc, 2, el_opval("notb", loc), mask);
  return mask ? el_select(cx, &slash, mask, a) : NULL;
}

static TExp *prim_dyadic(Elab *cx, AplNode *f, TExp *l, TExp *r) {
  const ScalarFn *s = scalar_fn(f);
  if (s && f->cp == '|' && l->kind == TE_INT && l->ival == 2 && (el_base(r) == TB_INT || el_base(r) == TB_BOOL)) {
    /* 2|n of integers is 0 or 1: booleans, so ∧ ∨ (≠.∧) accept it as APL does */
    TExp *m = scalar_dyadic(cx, s, f->loc, l, r);
    return m ? scalar_dyadic(cx, &not_equal, f->loc, m, el_int(0, f->loc)) : NULL;
  }
  if (s) return scalar_dyadic(cx, s, f->loc, l, r);
  switch (f->cp) {
  case G_RIGHT: return r;
  case G_LEFT: return l;
  case G_STAR_LOG: return logarithm(cx, f, l, r);
  case G_TRANSP: return transpose(cx, f, l, r);
  case G_DROP: case G_TAKE:
    if (el_rank(l) == 1) return take_drop_axes(cx, f, l, r);
    /* fall through */
  case G_ROT: case G_ROT1: {
    TExp *k = int_scalar(cx, l, f, "the left argument");
    if (!k) return NULL;
    if (el_rank(r) == 0) return diag_error(f->loc, "not supported yet: %s of a scalar", el_glyph(f->cp)), NULL;
    if (f->cp == G_TAKE) return el_op("take", f->loc, 3, k, el_fill(el_base(r), f->loc), r);
    if (f->cp == G_ROT && r->type->kind == TT_VEC) return el_op("rotateV", f->loc, 2, k, r);
    if (f->cp == G_ROT1) return el_op("vrotate", f->loc, 2, k, r);
    return el_op(f->cp == G_DROP ? "drop" : "rotate", f->loc, 2, k, r);
  }
  case ',': case G_TABLE: return catenate(cx, f, l, r);
  case '/': case G_REDUCE1: case '\\': case G_SCAN1: return el_select(cx, f, l, r);
  case G_CIRCLE: return circle(cx, f, l, r);
  case G_EPS: case '~': return member(cx, f, l, r);
  case G_RHO: {
    if (el_base(l) != TB_INT && el_base(l) != TB_BOOL) return diag_error(f->loc, "domain error: the shape of ⍴ must be integers"), NULL;
    if (el_rank(l) == 0) {
      TExp *one = el_coerce(cx, l, TB_INT);
      l = one ? el_vec(l->loc, 1, &one) : NULL;
    } else l = el_coerce(cx, l, TB_INT);
    if (!l) return NULL;
    if (el_rank(l) != 1) return diag_error(f->loc, "rank error: the shape of ⍴ must be a vector"), NULL;
    long long *v; bool *known; int n;
    if (l->type->kind != TT_VEC && el_fold_vec(cx, l, 0, &v, &known, &n)) {
      /* a shape whose length is known when compiling (`(¯1↓⍴A),⍴B`): its
         items as a vector, so the result's rank is known (<int>n) */
      TExp **items = NEW_ARRAY(TExp *, n > 0 ? n : 1);
      if (!(l = el_atomic(cx, l))) return NULL;
      for (int i = 0; i < n; i++) {
        TExp *d = i == 0 ? el_copy(l) : el_op("drop", f->loc, 2, el_int(i, f->loc), el_copy(l));
        items[i] = known[i] ? el_int(v[i], f->loc) : d ? el_op("first", f->loc, 2, el_int(0, f->loc), d) : NULL;
        if (!items[i]) return NULL;
      }
      l = el_vec(f->loc, n, items);
    } else if (l->type->kind == TT_ARRAY)
      return diag_error(f->loc, "the shape of ⍴ must be known when compiling (its length is the rank of the result), and "
                        "this one is computed at run time"), NULL;
    return el_op("reshape0", f->loc, 2, l, r);
  }
  default:
    return diag_error(f->loc, "not supported yet: dyadic %s (docs/apl.md §5)", el_glyph(f->cp)), NULL;
  }
}

/* ---- operators ---- */

/* f\ and f⍀ (the first axis: transp2 moves it last): scan(f, x), f a
   primitive whose result has its arguments' type (booleans widened for
   arithmetic; a comparison of booleans elaborated as a function of booleans)
   or a dfn or train of that kind */
static TExp *function_value(Elab *cx, AplNode *f, EBind *fenv, TBase ba, TBase bb, bool dyadic, Loc loc, const char *why);
static TExp *scan(Elab *cx, AplNode *d, EBind *fenv, TExp *x) {
  AplNode *f = d->kids[0];
  if (el_rank(x) == 0) return x;
  const ScalarFn *s = scalar_fn(f);
  TBase b = el_base(x), arg = b;
  TExp *fn = NULL;
  if (s && !(s->kind == K_ORDER && b == TB_BOOL)) {
    const char *op = scalar_op(s, f->loc, b, b, &arg);
    if (!op || !(x = el_coerce(cx, x, arg)) || !(fn = el_opval(op, f->loc))) return NULL;
    if (fn->type->res->res->base != arg)
      return diag_error(d->loc, "not supported yet: %s\\ of %s (the result's type is not the arguments')", el_glyph(s->cp),
                        tbase_name(arg)), NULL;
  } else {
    if (!(fn = function_value(cx, f, fenv, b, b, true, d->loc, "applied by \\"))) return NULL;
    if (fn->type->res->res->base != b)
      return diag_error(d->loc, "not supported yet: a scan whose function gives %s for arguments of type %s",
                        tbase_name(fn->type->res->res->base), tbase_name(b)), NULL;
  }
  int r = el_rank(x);
  if (d->cp != G_SCAN1 || r == 1) return el_op("scan", d->loc, 2, fn, x);
  long long *p = NEW_ARRAY(long long, r), *q = NEW_ARRAY(long long, r);
  for (int i = 0; i < r; i++) { p[i] = i == 0 ? r : i; q[i] = i == r - 1 ? 1 : i + 2; }   /* axis 1 last, and back */
  TExp *t = el_op("transp2", d->loc, 2, el_ints(d->loc, r, p), x);
  TExp *sc = t ? el_op("scan", d->loc, 2, fn, t) : NULL;
  return sc ? el_op("transp2", d->loc, 2, el_ints(d->loc, r, q), sc) : NULL;
}

/* f/ and f⌿ (the first axis: transp2 moves it last): reduce(op, identity, x) */
static TExp *reduce(Elab *cx, AplNode *d, TExp *x) {
  AplNode *f = d->kids[0];
  const ScalarFn *s = scalar_fn(f);
  if (!s || s->identity == 9)
    return diag_error(d->loc, "not supported yet: reduction with a function that has no identity element (docs/apl.md §5)"), NULL;
  if (el_rank(x) == 0) return x;
  TBase arg;
  const char *op = scalar_op(s, f->loc, el_base(x), el_base(x), &arg);
  if (!op) return NULL;
  if (s->kind == K_EQ && arg != TB_BOOL)
    return diag_error(d->loc, "not supported yet: %s/ of numbers (a comparison's result is boolean)", el_glyph(s->cp)), NULL;
  if (!(x = el_coerce(cx, x, arg))) return NULL;
  int r = el_rank(x);
  if (d->cp == G_REDUCE1 && r > 1) {   /* axis 1 becomes the last: [r, 1, 2, …, r-1] */
    long long *p = NEW_ARRAY(long long, r);
    p[0] = r;
    for (int i = 1; i < r; i++) p[i] = i;
    if (!(x = el_op("transp2", d->loc, 2, el_ints(d->loc, r, p), x))) return NULL;
  }
  TExp *id;
  int k = s->identity;
  if (arg == TB_BOOL) id = el_bool(k == 1, d->loc);
  else if (arg == TB_INT) id = el_int(k == -2 ? INT32_MIN : k == 2 ? INT32_MAX : k, d->loc);
  else id = el_double(k == -2 ? -INFINITY : k == 2 ? INFINITY : k, d->loc);
  return el_op("reduce", d->loc, 3, el_opval(op, d->loc), id, x);
}

/* fn a => [fn b =>] f applied: the body in a scope of its own */
static TExp *function_value(Elab *cx, AplNode *f, EBind *fenv, TBase ba, TBase bb, bool dyadic, Loc loc, const char *why) {
  LetScope inner = {0}, *saved = cx->scope;
  cx->scope = &inner;
  const char *a = el_fresh(cx), *b = dyadic ? el_fresh(cx) : NULL;
  TType *ta = ttype_scalar(ba), *tb = ttype_scalar(bb);
  TExp *body = dyadic ? el_apply(cx, f, fenv, el_var(a, ta, loc), el_var(b, tb, loc)) : el_apply(cx, f, fenv, NULL, el_var(a, ta, loc));
  cx->scope = saved;
  if (!body) return NULL;
  if (el_rank(body) != 0)
    return diag_error(loc, "nested array: the function %s returns an array of rank %d, not a scalar (nested arrays are "
                      "not in the subset)", why, el_rank(body)), NULL;
  body = el_close(&inner, body);
  if (dyadic) body = el_fn(b, tb, body, loc);
  return el_fn(a, ta, body, loc);
}

/* fn x => s f x (s_left) or fn x => x f s: s atomic, bound outside */
static TExp *function_fixed(Elab *cx, AplNode *f, EBind *fenv, TExp *s, bool s_left, TBase bx, Loc loc) {
  LetScope inner = {0}, *saved = cx->scope;
  cx->scope = &inner;
  const char *a = el_fresh(cx);
  TType *ta = ttype_scalar(bx);
  TExp *x = el_var(a, ta, loc);
  TExp *body = el_apply(cx, f, fenv, s_left ? el_copy(s) : x, s_left ? x : el_copy(s));
  cx->scope = saved;
  if (!body) return NULL;
  if (el_rank(body) != 0)
    return diag_error(loc, "nested array: the function applied by ¨ returns an array of rank %d, not a scalar (nested "
                      "arrays are not in the subset)", el_rank(body)), NULL;
  return el_fn(a, ta, el_close(&inner, body), loc);
}

/* L f¨ R: zipWith of the function on arrays of one rank, each with a scalar
   side fixed; a rank or (statically) length error at ¨ */
static TExp *each2(Elab *cx, AplNode *d, EBind *fenv, TExp *l, TExp *r) {
  AplNode *f = d->kids[0];
  int rl = el_rank(l), rr = el_rank(r);
  if (rl == 0 && rr == 0) {
    TExp *v = el_apply(cx, f, fenv, l, r);
    if (v && el_rank(v) != 0) return diag_error(d->loc, "nested array: the function applied by ¨ returns an array of rank %d", el_rank(v)), NULL;
    return v;
  }
  if (rl == 0 || rr == 0) {
    TExp *sc = el_atomic(cx, rl == 0 ? l : r), *a = rl == 0 ? r : l;
    TExp *fn = sc ? function_fixed(cx, f, fenv, sc, rl == 0, el_base(a), d->loc) : NULL;
    return fn ? el_op("each", d->loc, 2, fn, a) : NULL;
  }
  if (rl != rr) return diag_error(d->loc, "rank error: ¨ of arrays of ranks %d and %d", rl, rr), NULL;
  long long nl = el_length(l), nr = el_length(r);
  if (nl >= 0 && nr >= 0 && nl != nr) return diag_error(d->loc, "length error: ¨ of vectors of lengths %lld and %lld", nl, nr), NULL;
  TExp *fn = function_value(cx, f, fenv, el_base(l), el_base(r), true, d->loc, "applied by ¨");
  return fn ? el_op("zipWith", d->loc, 3, fn, l, r) : NULL;
}

/* f¨ x: a scalar function as it is (pervasive), else each(fn, x) */
static TExp *each(Elab *cx, AplNode *d, EBind *fenv, TExp *l, TExp *x) {
  AplNode *f = d->kids[0];
  if (l && f->kind == AF_PRIM && scalar_fn(f)) return el_apply(cx, f, fenv, l, x);
  if (l) return each2(cx, d, fenv, l, x);
  if (f->kind == AF_PRIM && (scalar_fn(f) || scalar_monadic_glyph(f->cp))) return el_apply(cx, f, fenv, NULL, x);
  if (el_rank(x) == 0) {
    TExp *r = el_apply(cx, f, fenv, NULL, x);
    if (r && el_rank(r) != 0) return diag_error(d->loc, "nested array: the function applied by ¨ returns an array of rank %d", el_rank(r)), NULL;
    return r;
  }
  TExp *fn = function_value(cx, f, fenv, el_base(x), TB_NONE, false, d->loc, "applied by ¨");
  return fn ? el_op("each", d->loc, 2, fn, x) : NULL;
}

/* A ∘.f B: zipWith(f, transp2(ZA, reshape0((⍴B),⍴A, A)), reshape0((⍴A),⍴B, B)),
   ZA moving A's axes first; the replication docs/apl.md §3.3 lowers to views */
static TExp *outer(Elab *cx, AplNode *d, EBind *fenv, TExp *a, TExp *b) {
  AplNode *f = d->kids[0];
  if (!a) return diag_error(d->loc, "∘.%s needs a left argument", f->kind == AF_PRIM ? el_glyph(f->cp) : "f"), NULL;
  int ra = el_rank(a), rb = el_rank(b), r = ra + rb;
  if (ra == 0 || rb == 0) return diag_error(d->loc, "not supported yet: ∘. with a scalar argument"), NULL;
  const ScalarFn *s = scalar_fn(f);
  TExp *fn;
  if (s) {
    TBase arg;
    const char *op = scalar_op(s, f->loc, el_base(a), el_base(b), &arg);
    if (!op) return NULL;
    if (!(a = el_coerce(cx, a, arg)) || !(b = el_coerce(cx, b, arg)) || !(fn = el_opval(op, f->loc))) return NULL;
  } else if (!(fn = function_value(cx, f, fenv, el_base(a), el_base(b), true, d->loc, "applied by ∘."))) return NULL;
  if ((el_rank(a) > 1 || el_length(a) < 0) && !(a = el_atomic(cx, a))) return NULL;
  if ((el_rank(b) > 1 || el_length(b) < 0) && !(b = el_atomic(cx, b))) return NULL;
  Loc loc = d->loc;
  TExp **wa = NEW_ARRAY(TExp *, r), **wb = NEW_ARRAY(TExp *, r);
  long long *za = NEW_ARRAY(long long, r);
  for (int i = 0; i < r; i++) {
    wa[i] = i < rb ? el_axis_length(b, i, loc) : el_axis_length(a, i - rb, loc);
    wb[i] = i < ra ? el_axis_length(a, i, loc) : el_axis_length(b, i - ra, loc);
    if (!wa[i] || !wb[i]) return NULL;
    za[i] = i < rb ? ra + i + 1 : i - rb + 1;
  }
  TExp *ta = el_op("transp2", loc, 2, el_ints(loc, r, za), el_op("reshape0", loc, 2, el_vec(loc, r, wa), el_copy(a)));
  TExp *tb = el_op("reshape0", loc, 2, el_vec(loc, r, wb), el_copy(b));
  return ta && tb ? el_op("zipWith", loc, 3, fn, ta, tb) : NULL;
}

/* the length of axis k (0-based) of x, atomic: first(0, drop(k, shape(x))) */
TExp *el_axis_length(TExp *x, int k, Loc loc) {
  if (el_rank(x) == 1 && el_length(x) >= 0) return el_int(el_length(x), loc);
  TExp *s = el_op("shape", loc, 1, el_copy(x));
  if (s && k > 0) s = el_op("drop", loc, 2, el_int(k, loc), s);
  return s ? el_op("first", loc, 2, el_int(0, loc), s) : NULL;
}

static TExp *inner(Elab *cx, AplNode *d, TExp *a, TExp *b) {
  AplNode *f = d->kids[0], *g = d->kids[1];
  if (!a) return diag_error(d->loc, "f.g needs a left argument (A f.g B)"), NULL;
  const ScalarFn *sf = scalar_fn(f), *sg = scalar_fn(g);
  if (!sf || !sg || sf->identity == 9)
    return diag_error(d->loc, "not supported yet: f.g with functions other than the scalar primitives (f with an identity element)"), NULL;
  int ra = el_rank(a), rb = el_rank(b);
  if (ra == 0 || rb == 0) return diag_error(d->loc, "not supported yet: f.g with a scalar argument"), NULL;
  TBase arg;
  const char *gop = scalar_op(sg, g->loc, el_base(a), el_base(b), &arg);
  if (!gop || !(a = el_atomic(cx, el_coerce(cx, a, arg))) || !(b = el_atomic(cx, el_coerce(cx, b, arg)))) return NULL;
  if (ra == 1 && rb == 1) {
    long long na = el_length(a), nb = el_length(b);
    if (na >= 0 && nb >= 0 && na != nb) return diag_error(d->loc, "length error: f.g of vectors of lengths %lld and %lld", na, nb), NULL;
  }
  int r = ra + rb - 1;
  long long *za = NEW_ARRAY(long long, r), *zb = NEW_ARRAY(long long, r);
  bool ida = true, idb = true;
  for (int i = 1; i <= r; i++) {   /* axis i of the replicated array goes to za[i-1] (APL's dyadic ⍉) */
    za[i - 1] = i <= rb - 1 ? ra - 1 + i : i == r ? r : i - (rb - 1);
    zb[i - 1] = i <= ra - 1 ? i : i == ra ? r : i - 1;
    ida = ida && za[i - 1] == i;
    idb = idb && zb[i - 1] == i;
  }
  Loc loc = d->loc;
  TExp **wa = NEW_ARRAY(TExp *, r), **wb = NEW_ARRAY(TExp *, r);
  for (int i = 0; i < r; i++) {
    wa[i] = i < rb - 1 ? el_axis_length(b, i + 1, loc) : el_axis_length(a, i - (rb - 1), loc);
    wb[i] = i < ra - 1 ? el_axis_length(a, i, loc) : el_axis_length(b, i - (ra - 1), loc);
    if (!wa[i] || !wb[i]) return NULL;
  }
  TExp *ta = rb > 1 ? el_op("reshape0", loc, 2, el_vec(loc, r, wa), el_copy(a)) : el_copy(a);
  TExp *tb = ra > 1 ? el_op("reshape0", loc, 2, el_vec(loc, r, wb), el_copy(b)) : el_copy(b);
  if (ta && !ida) ta = el_op("transp2", loc, 2, el_ints(loc, r, za), ta);
  if (tb && !idb) tb = el_op("transp2", loc, 2, el_ints(loc, r, zb), tb);
  TExp *z = ta && tb ? el_op("zipWith", loc, 3, el_opval(gop, g->loc), ta, tb) : NULL;
  if (!z) return NULL;
  TBase zb_base = sg->kind == K_EQ || sg->kind == K_ORDER || sg->kind == K_LOGIC ? TB_BOOL : arg, farg;
  const char *fop = scalar_op(sf, f->loc, zb_base, zb_base, &farg);
  if (!fop) return NULL;
  if (sf->kind == K_EQ && farg != TB_BOOL)
    return diag_error(d->loc, "not supported yet: %s. on numbers (a comparison's result is boolean)", el_glyph(sf->cp)), NULL;
  if (!(z = el_coerce(cx, z, farg))) return NULL;
  int k = sf->identity;
  TExp *id = farg == TB_BOOL ? el_bool(k == 1, loc)
           : farg == TB_INT ? el_int(k == -2 ? INT32_MIN : k == 2 ? INT32_MAX : k, loc)
                            : el_double(k == -2 ? -INFINITY : k == 2 ? INFINITY : k, loc);
  return el_op("reduce", loc, 3, el_opval(fop, f->loc), id, z);
}

/* (f⍣n) x: power(fn v:[κ]r => f v, n, x), TAIL's power, clift's iterate. The
   function is elaborated at x's base and rank; a result of another rank is
   refused here, one of other extents by the lowering, both "must keep its
   argument's shape" at ⍣. A result of a wider base (booleans to ints, ints to
   doubles) converts x first. */
static TExp *power(Elab *cx, AplNode *d, EBind *fenv, TExp *l, TExp *x) {
  if (l) return diag_error(d->loc, "not supported yet: ⍣ with a left argument (x f⍣n y)"), NULL;
  EBind *saved_env = cx->env;
  cx->env = fenv;
  TExp *n = el_value(cx, d->kids[1]);
  cx->env = saved_env;
  if (!n || !(n = int_scalar(cx, n, d, "the count"))) return NULL;
  int r = el_rank(x);
  for (int attempt = 0; attempt < 3; attempt++) {
    TBase b = el_base(x);
    LetScope inner = {0}, *saved = cx->scope;
    cx->scope = &inner;
    const char *v = el_fresh(cx);
    TType *t = r == 0 ? ttype_scalar(b) : ttype_new(TT_ARRAY, b, r);
    TExp *body = el_apply(cx, d->kids[0], fenv, NULL, el_var(v, t, d->loc));
    cx->scope = saved;
    if (!body) return NULL;
    if (el_rank(body) != r)
      return diag_error(d->loc, "⍣: the function must keep its argument's shape (TAIL's power is (τ → τ) → int → τ → τ): "
                        "an array of rank %d becomes one of rank %d", r, el_rank(body)), NULL;
    TBase rb = el_base(body);
    if (rb != b) {
      TBase j = (b == TB_CHAR) == (rb == TB_CHAR) ? el_join(b, rb) : TB_NONE;
      if (j != rb || attempt == 2)
        return diag_error(d->loc, "⍣: the function must keep its argument's type: %s becomes %s", tbase_name(b), tbase_name(rb)), NULL;
      if (!(x = el_coerce(cx, x, rb))) return NULL;
      continue;
    }
    TExp *fn = el_fn(v, t, el_close(&inner, body), d->loc);
    return el_op("power", d->loc, 3, fn, n, x);
  }
  return NULL;
}

/* ---- trains: (f g h) ⍵ is (f ⍵) g (h ⍵), (g h) ⍵ is g (h ⍵); dyadic
   likewise with ⍺ on the left of f and h ---- */

static TExp *apply_train(Elab *cx, AplNode *t, EBind *fenv, TExp *l, TExp *r) {
  if (cx->depth > 200) return diag_error(t->loc, "functions nested too deeply (more than 200 calls)"), NULL;
  cx->depth++;
  TExp *res = NULL;
  if (t->nkids == 2) {
    TExp *x = el_apply(cx, t->kids[1], fenv, l, r);
    res = x ? el_apply(cx, t->kids[0], fenv, NULL, x) : NULL;
  } else {
    bool dyadic = l != NULL;
    r = el_atomic(cx, r);
    l = dyadic ? el_atomic(cx, l) : NULL;
    TExp *right = r && (!dyadic || l) ? el_apply(cx, t->kids[2], fenv, l, r) : NULL;
    TExp *left = right ? el_apply(cx, t->kids[0], fenv, l ? el_copy(l) : NULL, el_copy(r)) : NULL;
    res = left ? el_apply(cx, t->kids[1], fenv, left, right) : NULL;
  }
  cx->depth--;
  return res;
}

/* ---- dfns: inlined, ⍺ and ⍵ bound to the arguments ---- */

static TExp *apply_dfn(Elab *cx, AplNode *f, EBind *fenv, TExp *l, TExp *r) {
  if (cx->depth > 200) return diag_error(f->loc, "functions nested too deeply (more than 200 calls)"), NULL;
  cx->depth++;
  EBind *env = fenv, *saved = cx->env;
  if (l) env = el_bind_name(env, "⍺", el_atomic(cx, l), NULL, NULL);
  env = el_bind_name(env, "⍵", el_atomic(cx, r), NULL, NULL);
  TExp *last = NULL;
  bool ok = el_stmts(cx, f->nkids, f->kids, &env, &last, false);
  cx->env = saved;
  cx->depth--;
  if (!ok) return NULL;
  if (!last) return diag_error(f->loc, "the function's last statement assigns a function: it has no value"), NULL;
  return last;
}

TExp *el_apply(Elab *cx, AplNode *f, EBind *fenv, TExp *l, TExp *r) {
  switch (f->kind) {
  case AF_PRIM: return l ? prim_dyadic(cx, f, l, r) : prim_monadic(cx, f, r);
  case AF_DFN: return apply_dfn(cx, f, fenv, l, r);
  case AF_TRAIN: return apply_train(cx, f, fenv, l, r);
  case AF_NAME: {
    EBind *b = el_lookup(fenv, f->name);
    if ((!b || !b->fn) && f->name[0] != '\0' && (!strcmp(f->name, "⍺⍺") || !strcmp(f->name, "⍵⍵")))
      return diag_error(f->loc, "%s in a function that is not applied as an operator (name it: op ← {…}, then f op g)", f->name), NULL;
    if (!b || !b->fn) return diag_error(f->loc, "unknown function '%s'", f->name), NULL;
    return el_apply(cx, b->fn, b->fenv, l, r);
  }
  case AF_DERIVED: {
    /* operands that name primitives (⍺⍺ bound to +) are the primitives */
    AplNode *d = NEW(AplNode);
    *d = *f;
    d->kids = NEW_ARRAY(AplNode *, f->nkids);
    for (int i = 0; i < f->nkids; i++) {
      AplNode *k = f->kids[i];
      EBind *env = fenv;
      for (int hops = 0; k->kind == AF_NAME && hops < 1000; hops++) {
        EBind *b = el_lookup(env, k->name);
        if (!b || !b->fn) break;
        k = b->fn; env = b->fenv;
      }
      d->kids[i] = k->kind == AF_PRIM ? k : f->kids[i];
    }
    f = d;
    switch (f->cp) {
    case 0: {   /* a dyadic operator: its dfn with ⍺⍺ ⍵⍵ bound to the operands */
      EBind *b = el_lookup(fenv, f->name);
      if (!b || !b->fn || b->fn->kind != AF_DFN) return diag_error(f->loc, "unknown operator '%s'", f->name), NULL;
      EBind *env = el_bind_name(b->fenv, "⍺⍺", NULL, f->kids[0], fenv);
      env = el_bind_name(env, "⍵⍵", NULL, f->kids[1], fenv);
      return apply_dfn(cx, b->fn, env, l, r);
    }
    case '/': case G_REDUCE1:
      if (l) return diag_error(f->loc, "not supported yet: n-wise reduction (a left argument to f%s)", el_glyph(f->cp)), NULL;
      return reduce(cx, f, r);
    case G_EACH: return each(cx, f, fenv, l, r);
    case '\\': case G_SCAN1:
      if (l) return diag_error(f->loc, "%s with a left argument: the derived function is monadic", el_glyph(f->cp)), NULL;
      return scan(cx, f, fenv, r);
    case G_JOT: return outer(cx, f, fenv, l, r);
    case '.': return inner(cx, f, l, r);
    case G_POWER: return power(cx, f, fenv, l, r);
    default:
      return diag_error(f->loc, "not supported yet: the operator %s (docs/apl.md §5)", el_glyph(f->cp)), NULL;
    }
  }
  default:
    return diag_internal(f->loc, "APL elaboration: a value where a function is expected"), NULL;
  }
}
