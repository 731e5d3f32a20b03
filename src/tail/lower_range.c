/* lower_range.c — the range of the elements of an int or double value, when
   compiling (docs/apl.md §3.2, replicate): known scalars, literals and static
   vectors, booleans (0 or 1), then interval arithmetic through the scalar
   operations (tables below: + - × ÷ ⌈ ⌊ | and the monadic ones, floor and
   ceil, i2d, exp ln sqrt sin cos tanh atan, pow of a non-negative base, ⎕INT32AND and the right shifts), the functions of each and
   zipWith, reductions and scans by + ⌈ ⌊, and the operations that only move
   or select elements (rotate, take, cat, compress, …). It bounds the length
   of a replicate by counts computed at run time: n counts of at most K give
   at most n·K items. Sound, not precise: an operation not listed has no
   range, and the first such operation is remembered (LVal.unranged_at) so
   that a refusal can name it.

   A range [lo, hi] has int endpoints within an int's range and says that
   every element is a number between them: for a double, a finite one
   (ranged doubles come only from finite literals, i2d and the operations
   below on ranged operands, and a division only by a range without 0, so
   no inf or NaN arises). Rounding keeps a double result within integral
   bounds of its exact value (rounding is monotone and integers of this size
   are exact), so the exact interval rules hold. */
#include "lower.h"
#include <math.h>
#include <string.h>

bool lower_range_of(LVal *v, long long *lo, long long *hi) {
  if (!v || v->fn) return false;
  if (v->known) { *lo = *hi = v->k; return true; }
  if (v->vals && v->rank == 1) {
    long long n = lval_ext(v, 0);
    *lo = *hi = 0;
    for (long long i = 0; i < n; i++) {
      if (i == 0 || v->vals[i] < *lo) *lo = v->vals[i];
      if (i == 0 || v->vals[i] > *hi) *hi = v->vals[i];
    }
    return n >= 0;
  }
  if (v->ranged) { *lo = v->lo; *hi = v->hi; return true; }
  if (v->base == TB_BOOL) { *lo = 0; *hi = 1; return true; }
  return false;
}

/* v's range [lo, hi] when both fit in an int */
static LVal *set(LVal *v, long long lo, long long hi) {
  if (lo >= INT32_MIN && hi <= INT32_MAX && lo <= hi) { v->ranged = true; v->lo = lo; v->hi = hi; }
  return v;
}

LVal *lower_range_double(LVal *v, double lo, double hi) {
  if (isfinite(lo) && isfinite(hi) && lo >= INT32_MIN && hi <= INT32_MAX) set(v, (long long)floor(lo), (long long)ceil(hi));
  return v;
}

static long long min2(long long a, long long b) { return a < b ? a : b; }
static long long max2(long long a, long long b) { return a > b ? a : b; }
static long long min4(long long a, long long b, long long c, long long d) { return min2(min2(a, b), min2(c, d)); }
static long long max4(long long a, long long b, long long c, long long d) { return max2(max2(a, b), max2(c, d)); }
static long long div_floor(long long a, long long b) { long long q = a / b; return q * b != a && (a < 0) != (b < 0) ? q - 1 : q; }
static long long div_ceil(long long a, long long b) { long long q = a / b; return q * b != a && (a < 0) == (b < 0) ? q + 1 : q; }

/* The arguments whose elements the result's are, for the operations that
   move or select elements (a bit per argument), or 0 */
static unsigned selecting(const char *op) {
  static const struct { const char *op; unsigned args; } rows[] = {
    { "rotate", 2 }, { "vrotate", 2 }, { "rotateV", 2 }, { "reverse", 1 }, { "vreverse", 1 }, { "reverseV", 1 },
    { "transp", 1 }, { "transp2", 2 }, { "drop", 2 }, { "dropV", 2 }, { "take", 6 }, { "takeV", 2 },
    { "reshape0", 2 }, { "reshape", 6 }, { "cat", 3 }, { "catV", 3 }, { "cons", 3 }, { "consV", 3 },
    { "snoc", 3 }, { "snocV", 3 }, { "compress", 2 }, { "replicate", 5 }, { "expand", 5 }, { "index", 2 },
    { "first", 3 }, { "firstV", 1 },
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) if (strcmp(rows[i].op, op) == 0) return rows[i].args;
  return 0;
}

/* ---- scalar operations: one row per TAIL name ---- */

typedef enum {
  R_NONE, R_SAME, R_NEG, R_ABS, R_SIGN, R_NOT, R_MATH,                /* unary */
  R_ADD, R_SUB, R_MUL, R_DIV, R_QUOT, R_MIN, R_MAX, R_RES, R_AND, R_SHR, R_SHAR, R_POW   /* binary */
} RangeRule;

static RangeRule scalar_rule(const char *op) {
  static const struct { const char *op; RangeRule rule; } rows[] = {
    { "b2i", R_SAME }, { "i2d", R_SAME }, { "floor", R_SAME }, { "ceil", R_SAME }, { "negi", R_NEG }, { "negd", R_NEG },
    { "absi", R_ABS }, { "absd", R_ABS }, { "signi", R_SIGN }, { "signd", R_SIGN }, { "noti", R_NOT },
    { "expd", R_MATH }, { "ln", R_MATH }, { "sqrt", R_MATH }, { "sin", R_MATH }, { "cos", R_MATH }, { "tanh", R_MATH },
    { "atan", R_MATH }, { "fact", R_MATH },
    { "addi", R_ADD }, { "addd", R_ADD }, { "subi", R_SUB }, { "subd", R_SUB }, { "muli", R_MUL }, { "muld", R_MUL },
    { "divd", R_DIV }, { "divi", R_QUOT }, { "mini", R_MIN }, { "mind", R_MIN }, { "maxi", R_MAX }, { "maxd", R_MAX },
    { "resi", R_RES }, { "resd", R_RES }, { "powd", R_POW }, { "andi", R_AND }, { "shri", R_SHR }, { "shari", R_SHAR },
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) if (strcmp(rows[i].op, op) == 0) return rows[i].rule;
  return R_NONE;
}

/* The monotone math functions of doubles on their domain from `from` (libm
   need not round correctly: one more on each side), and the bounded ones
   (of a finite argument: a ranged one) */
static LVal *math_fn(LVal *v, const char *op, long long lo, long long hi) {
  static const struct { const char *op; double (*f)(double); double from; } mono[] = {
    { "expd", exp, -INFINITY }, { "ln", log, 1e-300 }, { "sqrt", sqrt, 0 },
  };
  static const struct { const char *op; long long lo, hi; } bounded[] = {
    { "sin", -1, 1 }, { "cos", -1, 1 }, { "tanh", -1, 1 }, { "atan", -2, 2 },
  };
  for (size_t i = 0; i < sizeof mono / sizeof mono[0]; i++)
    if (!strcmp(mono[i].op, op))
      return lo >= mono[i].from ? lower_range_double(v, mono[i].f((double)lo) - 1, mono[i].f((double)hi) + 1) : v;
  for (size_t i = 0; i < sizeof bounded / sizeof bounded[0]; i++)
    if (!strcmp(bounded[i].op, op)) return set(v, bounded[i].lo, bounded[i].hi);
  /* x! = Γ(x+1) of x ≥ 0: increasing from x = 1 (from 1), between 0.88 and 1 on
     [0, 1]; one more on each side (libm) */
  if (!strcmp(op, "fact") && lo >= 0)
    return lower_range_double(v, lo >= 1 ? tgamma((double)lo + 1) - 1 : 0, fmax(tgamma((double)hi + 1), 1) + 1);
  return v;
}

static LVal *unary(LVal *v, RangeRule rule, LVal *x, const char *op) {
  long long lo, hi;
  if (rule == R_SIGN) return set(v, -1, 1);
  if (!lower_range_of(x, &lo, &hi)) return v;
  if (rule == R_MATH) return math_fn(v, op, lo, hi);
  switch (rule) {
  case R_SAME: return set(v, lo, hi);   /* floor and ceil of a value between integers stay between them */
  case R_NEG: return set(v, -hi, -lo);
  case R_ABS: return set(v, lo >= 0 ? lo : hi <= 0 ? -hi : 0, max4(lo, -lo, hi, -hi));
  case R_NOT: return set(v, ~hi, ~lo);
  default: return v;
  }
}

/* x|y (APL's floor residue): between 0 and x, x excluded, and y where x = 0;
   not above y for x > 0, y ≥ 0. Doubles, y - x×floor(y÷x) (lower_res), need
   a ranged y (an inf or NaN y gives NaN) and may round to x itself or just
   past 0 on the other side: one more on each side. */
static LVal *residue(LVal *v, bool dbl, bool xr, long long lo, long long hi, bool yr, long long lo2, long long hi2) {
  if (!xr || (dbl && !yr)) return v;
  long long top = hi > 0 ? hi - 1 : 0, bottom = lo < 0 ? lo + 1 : 0;
  if (dbl) { top = (hi > 0 ? hi : 0) + (lo < 0); bottom = (lo < 0 ? lo : 0) - (hi > 0); }
  if (lo > 0 && yr && lo2 >= 0) top = min2(top, hi2);
  if (lo <= 0 && hi >= 0) {   /* x may be 0: y itself */
    if (!yr) return v;
    top = max2(top, hi2); bottom = min2(bottom, lo2);
  }
  return set(v, bottom, top);
}

static LVal *binary(LVal *v, RangeRule rule, LVal *x, LVal *y) {
  long long lo, hi, lo2, hi2;
  bool xr = lower_range_of(x, &lo, &hi), yr = lower_range_of(y, &lo2, &hi2);
  if (rule == R_RES) return residue(v, x->base == TB_DOUBLE, xr, lo, hi, yr, lo2, hi2);
  if (rule == R_AND) {   /* x AND y with y ≥ 0 lies in [0, y] (and the other way round) */
    if (yr && lo2 >= 0) return set(v, 0, xr && lo >= 0 ? min2(hi, hi2) : hi2);
    return xr && lo >= 0 ? set(v, 0, hi) : v;
  }
  if ((rule == R_SHR || rule == R_SHAR) && y->known) {   /* the count modulo 32 (lower_scalar.c) */
    int k = (int)(y->k & 31);
    if (rule == R_SHAR && xr) return set(v, lo >> k, hi >> k);
    if (rule == R_SHR) return k == 0 ? (xr ? set(v, lo, hi) : v) : xr && lo >= 0 ? set(v, lo >> k, hi >> k) : set(v, 0, (1LL << (32 - k)) - 1);
  }
  /* ⌈ and ⌊ of ints: a side with no range has an int's */
  if ((rule == R_MIN || rule == R_MAX) && x->base != TB_DOUBLE && (xr || yr)) {
    if (!xr) { lo = INT32_MIN; hi = INT32_MAX; xr = true; }
    if (!yr) { lo2 = INT32_MIN; hi2 = INT32_MAX; yr = true; }
  }
  if (!xr || !yr) return v;
  switch (rule) {
  case R_ADD: return set(v, lo + lo2, hi + hi2);
  case R_SUB: return set(v, lo - hi2, hi - lo2);
  case R_MUL: return set(v, min4(lo * lo2, lo * hi2, hi * lo2, hi * hi2), max4(lo * lo2, lo * hi2, hi * lo2, hi * hi2));
  case R_MIN: return set(v, min2(lo, lo2), min2(hi, hi2));
  case R_MAX: return set(v, max2(lo, lo2), max2(hi, hi2));
  case R_POW:   /* x*y, x ≥ 0 (not 0 with y ≤ 0): monotone in each, the extremes at the corners (one more each side, libm) */
    if (lo < 0 || (lo == 0 && lo2 <= 0)) return v;
    return lower_range_double(v, fmin(fmin(pow(lo, lo2), pow(lo, hi2)), fmin(pow(hi, lo2), pow(hi, hi2))) - 1,
                              fmax(fmax(pow(lo, lo2), pow(lo, hi2)), fmax(pow(hi, lo2), pow(hi, hi2))) + 1);
  case R_DIV: case R_QUOT:   /* by a divisor of one sign: the extremes are at the corners */
    if (lo2 <= 0 && hi2 >= 0) return v;
    if (rule == R_QUOT)   /* C's truncation, monotone in the exact quotient */
      return set(v, min4(lo / lo2, lo / hi2, hi / lo2, hi / hi2), max4(lo / lo2, lo / hi2, hi / lo2, hi / hi2));
    return set(v, min4(div_floor(lo, lo2), div_floor(lo, hi2), div_floor(hi, lo2), div_floor(hi, hi2)),
               max4(div_ceil(lo, lo2), div_ceil(lo, hi2), div_ceil(hi, lo2), div_ceil(hi, hi2)));
  default: return v;
  }
}

/* ---- reduce(f, init, x) and scan(f, x) by + ⌈ ⌊ over rows of m items ---- */

static LVal *folded(LVal *v, TExp *e, LVal **a, bool red) {
  LVal *x = a[red ? 2 : 1];
  long long m = x->rank > 0 ? lval_ext(x, x->rank - 1) : 1, lo, hi, lo2 = 0, hi2 = 0;
  RangeRule f = scalar_rule(a[0]->fn->op->name);
  if (m < 0 || m > INT32_MAX || !lower_range_of(x, &lo, &hi)) return v;
  bool ident = red && (f == R_MIN || f == R_MAX) && e->nkids == 3 && e->kids[1]->kind == TE_DOUBLE && isinf(e->kids[1]->dval);
  if (red && !ident && !lower_range_of(a[1], &lo2, &hi2)) return v;
  if (red && m == 0) return ident ? v : set(v, lo2, hi2);   /* the init alone */
  if (f == R_MUL) {   /* a product of 1 ≤ k ≤ m items, times the init: within ±B^m·|init| (B ≥ 1) */
    long long b = max2(max4(lo, -lo, hi, -hi), 1), p = 1, c = red ? max4(lo2, -lo2, hi2, -hi2) : 1;
    for (long long k = 0; k < m; k++) if ((p *= b) > INT32_MAX) return v;
    if (c > INT32_MAX / p) return v;
    return lo >= 0 && (!red || lo2 >= 0) ? set(v, 0, c * p) : set(v, -c * p, c * p);
  }
  if (!red || ident) {   /* ±inf, ⌈/ and ⌊/ of doubles' identity: the items alone */
    if (f == R_MIN || f == R_MAX) return set(v, lo, hi);
    if (f == R_ADD) return set(v, lo < 0 ? m * lo : lo, hi > 0 ? m * hi : hi);   /* a sum of 1 ≤ k ≤ m items */
    return v;
  }
  if (f == R_MAX) return set(v, max2(lo, lo2), max2(hi, hi2));   /* max(init, m ≥ 1 items) */
  if (f == R_MIN) return set(v, min2(lo, lo2), min2(hi, hi2));
  if (f == R_ADD) return set(v, lo2 + m * lo, hi2 + m * hi);
  return v;
}

/* The first operation on the way to v with no range: v's own, unless an
   operand already lacks one (a double or int operand that has no range) */
static LVal *unranged(LVal *v, TExp *e, LVal **a) {
  if (v->ranged || v->known || v->vals || v->unranged_at.file || (v->base != TB_INT && v->base != TB_DOUBLE)) return v;
  long long lo, hi;
  unsigned sel = selecting(e->op->name);
  for (int i = 0; i < e->op->arity && i < e->nkids; i++)
    if ((!sel || (sel & (1u << i))) && a[i] && !a[i]->fn && a[i]->unranged_at.file && !lower_range_of(a[i], &lo, &hi)) { v->unranged_at = a[i]->unranged_at; return v; }
  v->unranged_at = e->loc;
  return v;
}

static LVal *ranged(TExp *e, LVal **a, LVal *v) {
  if (v->ranged || v->known || (v->vals && v->rank == 1)) return v;
  const char *op = e->op->name;
  unsigned sel = selecting(op);
  if (sel) {   /* the union of the arguments' ranges */
    long long lo = 0, hi = 0, lo2, hi2;
    bool any = false;
    for (int i = 0; i < e->op->arity; i++) {
      if (!(sel & (1u << i))) continue;
      if (!lower_range_of(a[i], &lo2, &hi2)) return v;
      if (!any || lo2 < lo) lo = lo2;
      if (!any || hi2 > hi) hi = hi2;
      any = true;
    }
    return any ? set(v, lo, hi) : v;
  }
  if (!strcmp(op, "iota") && a[0]->known) return set(v, 1, a[0]->k > 1 ? a[0]->k : 1);
  RangeRule rule = scalar_rule(op);
  if (rule != R_NONE && e->op->arity == 1 && a[0]->rank == 0) return unary(v, rule, a[0], op);
  if (rule != R_NONE && e->op->arity == 2 && a[0]->rank == 0 && a[1]->rank == 0) return binary(v, rule, a[0], a[1]);
  bool red = !strcmp(op, "reduce");
  if ((red || !strcmp(op, "scan")) && a[0]->fn && a[0]->fn->kind == TE_OP) return folded(v, e, a, red);
  return v;
}

LVal *lower_ranged(TExp *e, LVal **a, LVal *v) {
  if (!v || v->fn || !e->op) return v;
  return unranged(ranged(e, a, v), e, a);
}
