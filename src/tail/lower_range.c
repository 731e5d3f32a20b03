/* lower_range.c — the range of the elements of an int value, when compiling
   (docs/apl.md §3.2, replicate): known scalars and static vectors, booleans
   (0 or 1), then through the scalar operations, the functions of each and
   zipWith, reductions and scans by + ⌈ ⌊, and the operations that only move
   or select elements (rotate, take, cat, compress, …). It bounds the length
   of a replicate by counts computed at run time: n counts of at most K give
   at most n·K items. Sound, not precise: an operation not listed here has no
   range. */
#include "lower.h"
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

static long long min4(long long a, long long b, long long c, long long d) {
  long long m = a < b ? a : b, n = c < d ? c : d;
  return m < n ? m : n;
}
static long long max4(long long a, long long b, long long c, long long d) {
  long long m = a > b ? a : b, n = c > d ? c : d;
  return m > n ? m : n;
}

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

LVal *lower_ranged(TExp *e, LVal **a, LVal *v) {
  if (!v || v->fn || v->ranged || v->base == TB_DOUBLE || !e->op) return v;
  const char *op = e->op->name;
  long long lo, hi, lo2, hi2;
  unsigned sel = selecting(op);
  if (sel) {   /* the union of the arguments' ranges */
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
  if (e->op->arity == 1 && lower_range_of(a[0], &lo, &hi)) {
    if (!strcmp(op, "b2i")) return set(v, lo, hi);
    if (!strcmp(op, "negi")) return set(v, -hi, -lo);
    if (!strcmp(op, "absi")) return set(v, lo >= 0 ? lo : hi <= 0 ? -hi : 0, max4(lo, -lo, hi, -hi));
  }
  if (!strcmp(op, "signi") || !strcmp(op, "signd")) return set(v, -1, 1);
  if (!strcmp(op, "iota") && a[0]->known) return set(v, 1, a[0]->k > 1 ? a[0]->k : 1);
  if (e->op->arity == 2 && a[0]->rank == 0 && a[1]->rank == 0) {
    if (!strcmp(op, "resi") && a[0]->known && a[0]->k != 0)   /* x|y: between 0 and x, x excluded */
      return a[0]->k > 0 ? set(v, 0, a[0]->k - 1) : set(v, a[0]->k + 1, 0);
    if (!lower_range_of(a[0], &lo, &hi) || !lower_range_of(a[1], &lo2, &hi2)) return v;
    if (!strcmp(op, "addi")) return set(v, lo + lo2, hi + hi2);
    if (!strcmp(op, "subi")) return set(v, lo - hi2, hi - lo2);
    if (!strcmp(op, "muli")) return set(v, min4(lo * lo2, lo * hi2, hi * lo2, hi * hi2), max4(lo * lo2, lo * hi2, hi * lo2, hi * hi2));
    if (!strcmp(op, "maxi")) return set(v, lo > lo2 ? lo : lo2, hi > hi2 ? hi : hi2);
    if (!strcmp(op, "mini")) return set(v, lo < lo2 ? lo : lo2, hi < hi2 ? hi : hi2);
    return v;
  }
  /* reduce(f, init, x) and scan(f, x) by + ⌈ ⌊ over rows of m items */
  bool red = !strcmp(op, "reduce"), scan = !strcmp(op, "scan");
  if ((red || scan) && a[0]->fn && a[0]->fn->kind == TE_OP) {
    LVal *x = a[red ? 2 : 1];
    long long m = x->rank > 0 ? lval_ext(x, x->rank - 1) : 1;
    const char *f = a[0]->fn->op->name;
    if (m < 0 || m > INT32_MAX || !lower_range_of(x, &lo, &hi)) return v;
    if (red && !lower_range_of(a[1], &lo2, &hi2)) return v;
    if (!red) lo2 = hi2 = 0;
    bool max = !strcmp(f, "maxi");
    if (red && m == 0) return set(v, lo2, hi2);   /* the init alone */
    if (!red && (max || !strcmp(f, "mini"))) return set(v, lo, hi);
    if (max) return set(v, lo > lo2 ? lo : lo2, hi > hi2 ? hi : hi2);   /* max(init, m ≥ 1 items): ⌈/'s init is the least int */
    if (!strcmp(f, "mini")) return set(v, lo < lo2 ? lo : lo2, hi < hi2 ? hi : hi2);
    if (!strcmp(f, "addi"))   /* init plus m items (scan: a sum of 1 ≤ k ≤ m items) */
      return red ? set(v, lo2 + m * lo, hi2 + m * hi) : set(v, lo < 0 ? m * lo : lo, hi > 0 ? m * hi : hi);
  }
  return v;
}
