/* nat_print.c — nats as C expressions (minimal parentheses) and as S-expressions.
   C's `/` and `%` truncate while nats floor; they agree on the nonnegative operands
   of valid programs (canonical numerators over a constant have coefficients in
   [0, k), docs/arith.md). */
#include "nat_internal.h"
#include <limits.h>

/* C precedence levels we produce: a + b, a * b (also / and %), and atoms. */
enum { PREC_NONE, PREC_ADD, PREC_MUL, PREC_ATOM };

static void print_c(Buf *b, Nat *e, int prec);

static void print_const(Buf *b, long long v, int prec) {
  bool paren = v < 0 && prec > PREC_ADD;
  if (paren) buf_putc(b, '(');
  buf_printf(b, "%lld%s", v, v > INT_MAX || v < INT_MIN ? "LL" : "");
  if (paren) buf_putc(b, ')');
}

/* -t as a term, when t's coefficient is negative; else NULL. */
static Nat *negated(Nat *t) {
  long long c;
  if (nat_is_const(t, &c)) return c < 0 ? nat_const(nat_wrap_mul(c, -1)) : NULL;
  if (t->kind != NAT_MUL || !nat_is_const(t->args[0], &c) || c >= 0) return NULL;
  Nat **args = NEW_ARRAY(Nat *, t->n);
  for (int i = 0; i < t->n; i++) args[i] = t->args[i];
  args[0] = nat_const(nat_wrap_mul(c, -1));
  if (c == -1) return t->n == 2 ? args[1] : nat_node(NAT_MUL, t->n - 1, args + 1);
  return nat_node(NAT_MUL, t->n, args);
}

/* An atom present in every (non-constant) term of a sum, and the sum divided by
   it: printing (N + 1) * M rather than N * M + M. */
static Nat *common_factor(Nat *e, Nat **rest) {
  NatPoly p = nat_poly_normalize(nat_poly_of(e));
  if (p.n < 2) return NULL;
  NatPoly q = { p.n, NEW_ARRAY(NatTerm, p.n) };
  for (int i = p.terms[0].n - 1; i >= 0; i--) {
    NatTerm d = { 1, 1, &p.terms[0].atoms[i] };
    bool all = true;
    for (int t = 0; t < p.n && all; t++) all = nat_term_divide(p.terms[t], d, &q.terms[t]);
    if (all) { *rest = nat_poly_build(q); return p.terms[0].atoms[i]; }
  }
  return NULL;
}

static void print_add(Buf *b, Nat *e, int prec) {
  Nat *rest, *f = common_factor(e, &rest);
  if (f) {
    bool paren = prec > PREC_MUL;
    if (paren) buf_putc(b, '(');
    print_c(b, rest, PREC_ATOM);
    buf_puts(b, " * ");
    print_c(b, f, PREC_ATOM);
    if (paren) buf_putc(b, ')');
    return;
  }
  bool paren = prec > PREC_ADD, first = true;
  if (paren) buf_putc(b, '(');
  for (int pass = 0; pass < 2; pass++)   /* positive terms first: N - 1, not -1 + N */
    for (int i = 0; i < e->n; i++) {
      Nat *neg = negated(e->args[i]);
      if ((pass == 0) != (neg == NULL)) continue;
      if (neg) buf_puts(b, first ? "-" : " - ");
      else if (!first) buf_puts(b, " + ");
      print_c(b, neg ? neg : e->args[i], neg ? PREC_MUL : PREC_ADD);
      first = false;
    }
  if (paren) buf_putc(b, ')');
}

/* Coefficients go last (i * 4); a / or % factor gets parentheses since
   `M * x / y` would mean (M * x) / y. */
static void print_mul(Buf *b, Nat *e, int prec) {
  long long c;
  Nat *neg = negated(e);
  bool paren = prec > PREC_MUL, first = true;
  if (paren) buf_putc(b, '(');
  if (neg) {   /* -N * 2 rather than N * (-2) */
    buf_putc(b, '-');
    print_c(b, neg, PREC_MUL);
    if (paren) buf_putc(b, ')');
    return;
  }
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < e->n; i++) {
      Nat *f = e->args[i];
      if (nat_is_const(f, &c) != (pass == 1)) continue;
      if (!first) buf_puts(b, " * ");
      bool divmod = (f->kind == NAT_DIV || f->kind == NAT_MOD) && e->n > 1;
      print_c(b, f, divmod ? PREC_ATOM : PREC_MUL);
      first = false;
    }
  if (paren) buf_putc(b, ')');
}

static void print_binary(Buf *b, Nat *e, const char *op, int prec) {
  bool paren = prec > PREC_MUL;
  if (paren) buf_putc(b, '(');
  print_c(b, e->args[0], PREC_MUL);   /* left-associative: a * b / c is (a * b) / c */
  buf_printf(b, " %s ", op);
  print_c(b, e->args[1], PREC_ATOM);
  if (paren) buf_putc(b, ')');
}

static void print_pow(Buf *b, Nat *e, int prec) {
  long long base, n;
  if (nat_is_const(e->args[0], &base) && base == 2) {
    buf_puts(b, "(1 << ");
    print_c(b, e->args[1], PREC_ATOM);
    buf_putc(b, ')');
  } else if (nat_is_const(e->args[1], &n) && n >= 1 && n <= 16) {   /* helper-free */
    bool paren = prec > PREC_MUL && n > 1;
    if (paren) buf_putc(b, '(');
    for (long long i = 0; i < n; i++) {
      if (i) buf_puts(b, " * ");
      print_c(b, e->args[0], PREC_MUL + 1);
    }
    if (paren) buf_putc(b, ')');
  } else {
    buf_puts(b, "clift_pow(");
    print_c(b, e->args[0], PREC_NONE);
    buf_puts(b, ", ");
    print_c(b, e->args[1], PREC_NONE);
    buf_putc(b, ')');
  }
}

static void print_call(Buf *b, const char *f, Nat *e) {
  buf_printf(b, "%s(", f);
  for (int i = 0; i < e->n; i++) {
    if (i) buf_puts(b, ", ");
    print_c(b, e->args[i], PREC_NONE);
  }
  buf_putc(b, ')');
}

static void print_c(Buf *b, Nat *e, int prec) {
  switch (e->kind) {
  case NAT_CONST: print_const(b, e->value, prec); return;
  case NAT_VAR: buf_puts(b, e->var->name); return;
  case NAT_ADD: print_add(b, e, prec); return;
  case NAT_MUL: print_mul(b, e, prec); return;
  case NAT_DIV: print_binary(b, e, "/", prec); return;
  case NAT_MOD: print_binary(b, e, "%", prec); return;
  case NAT_POW: print_pow(b, e, prec); return;
  case NAT_MIN: print_call(b, "min", e); return;
  case NAT_MAX: print_call(b, "max", e); return;
  case NAT_IF:
    buf_putc(b, '(');
    print_c(b, e->args[0], PREC_ADD);
    buf_puts(b, " < ");
    print_c(b, e->args[1], PREC_ADD);
    buf_puts(b, " ? ");
    print_c(b, e->args[2], PREC_ADD);
    buf_puts(b, " : ");
    print_c(b, e->args[3], PREC_ADD);
    buf_putc(b, ')');
    return;
  case NAT_SUM:   /* no closed form: a GNU statement expression, still one expression */
    buf_printf(b, "({ long long sum_%s = 0; for (long long %s = ", e->var->name, e->var->name);
    print_c(b, e->args[0], PREC_NONE);
    buf_printf(b, "; %s < ", e->var->name);
    print_c(b, e->args[1], PREC_ADD);
    buf_printf(b, "; %s++) sum_%s += ", e->var->name, e->var->name);
    print_c(b, e->args[2], PREC_ADD);
    buf_printf(b, "; sum_%s; })", e->var->name);
    return;
  }
}

void nat_print_c(Buf *b, Nat *e) { print_c(b, e, PREC_NONE); }

static const char *sexpr_op(NatKind k) {
  switch (k) {
  case NAT_ADD: return "+";
  case NAT_MUL: return "*";
  case NAT_DIV: return "/";
  case NAT_MOD: return "%";
  case NAT_POW: return "pow";
  case NAT_MIN: return "min";
  case NAT_MAX: return "max";
  default: return "?";
  }
}

void nat_print_sexpr(Buf *b, Nat *e) {
  switch (e->kind) {
  case NAT_CONST: buf_printf(b, "%lld", e->value); return;
  case NAT_VAR: buf_puts(b, e->var->name); return;
  case NAT_SUM:
    buf_printf(b, "(sum %s ", e->var->name);
    break;
  case NAT_IF:
    buf_puts(b, "(if (< ");
    nat_print_sexpr(b, e->args[0]);
    buf_putc(b, ' ');
    nat_print_sexpr(b, e->args[1]);
    buf_puts(b, ") ");
    nat_print_sexpr(b, e->args[2]);
    buf_putc(b, ' ');
    nat_print_sexpr(b, e->args[3]);
    buf_putc(b, ')');
    return;
  default:
    buf_printf(b, "(%s ", sexpr_op(e->kind));
    break;
  }
  for (int i = 0; i < e->n; i++) {
    if (i) buf_putc(b, ' ');
    nat_print_sexpr(b, e->args[i]);
  }
  buf_putc(b, ')');
}

const char *nat_to_string(Nat *e) {
  Buf b = { 0 };
  nat_print_sexpr(&b, e);
  return buf_str(&b);
}
