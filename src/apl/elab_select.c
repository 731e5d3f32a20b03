/* elab_select.c — selection in APL (docs/apl.md §2.4, §5 M6): compress and
   replicate (L/R, L⌿R), expand (L\R, L⍀R), indexing A[i], A[i;j;…] and
   monadic ⍪ (table), as TAIL. The first-axis forms are the last-axis ones
   under transp2. Counts and masks known when compiling are the lowering's
   static gathers; computed at run time, a compress mask is a filter (a
   vector), replicate's counts a scan and a search over a bound (a vector,
   counts with a range known when compiling), expand's mask a scan with a
   run-time length check (tail/lower_gather.c); of an array of rank ≥ 2, a
   selection by a mask or counts computed at run time is held with the
   selected axis first (the lowering's rows_first). Compress and replicate
   are let-bound (⌿ after its first axis is back in place): a run-time
   length is named there. */
#include "elab.h"
#include <string.h>

enum { G_REDUCE1 = 0x233F, G_SCAN1 = 0x2340 };

/* the permutation moving axis `axis` (0-based) of a rank-r array last (APL's
   dyadic ⍉: axis i goes to p[i]), or its inverse */
static TExp *move_axis(Elab *cx, TExp *x, int axis, bool back, Loc loc) {
  (void)cx;
  int r = el_rank(x);
  long long *p = NEW_ARRAY(long long, r);
  for (int i = 0; i < r; i++) {
    int to = i == axis ? r - 1 : i > axis ? i - 1 : i;   /* where axis i goes when `axis` moves last */
    if (back) p[to] = i + 1; else p[i] = to + 1;
  }
  return el_op("transp2", loc, 2, el_ints(loc, r, p), x);
}

/* L/R, L⌿R: compress (a boolean L), replicate (integer counts, negative:
   fills); L\R, L⍀R: expand (a boolean mask, fills where it is 0). A scalar L
   applies to every item of the axis; a scalar R is a one-item vector. */
TExp *el_select(Elab *cx, AplNode *f, TExp *l, TExp *a) {
  bool first = f->cp == G_REDUCE1 || f->cp == G_SCAN1, expand = f->cp == '\\' || f->cp == G_SCAN1;
  const char *g = el_glyph(f->cp);
  TBase bl = el_base(l);
  if (expand && bl != TB_BOOL) return diag_error(f->loc, "domain error: the left argument of %s must be booleans (0 or 1)", g), NULL;
  if (bl != TB_BOOL && bl != TB_INT) return diag_error(f->loc, "domain error: the left argument of %s must be integers", g), NULL;
  if (el_rank(l) > 1) return diag_error(f->loc, "rank error: the left argument of %s must be a scalar or a vector", g), NULL;
  if (el_rank(a) == 0) {
    TExp *one = el_int(1, f->loc);
    if (!(a = el_op("reshape0", f->loc, 2, el_vec(f->loc, 1, &one), a))) return NULL;
  }
  int r = el_rank(a), axis = first ? 0 : r - 1;
  if (el_rank(l) == 0) {   /* one count (or mask item) per item of the axis; for \ a one-item mask */
    if (!(a = el_atomic(cx, a))) return NULL;
    TExp *n = expand ? el_int(1, f->loc) : el_axis_length(a, axis, f->loc);
    if (!n || !(l = el_op("reshape0", f->loc, 2, el_vec(f->loc, 1, &n), l))) return NULL;
  }
  if (!expand && bl == TB_BOOL && r == 1) {
    long long nb = el_length(l), na = el_length(a);
    if (nb >= 0 && na >= 0 && nb != na)
      return diag_error(f->loc, "length error: %s of a mask of length %lld and a vector of length %lld", g, nb, na), NULL;
  }
  if (axis != r - 1 && !(a = move_axis(cx, a, axis, false, f->loc))) return NULL;
  TExp *res;
  if (expand) res = el_op("expand", f->loc, 3, el_fill(el_base(a), f->loc), l, a);
  else if (bl == TB_BOOL) res = el_op("compress", f->loc, 2, l, a);
  else res = el_op("replicate", f->loc, 3, el_fill(el_base(a), f->loc), l, a);
  if (res && axis != r - 1) res = move_axis(cx, res, axis, true, f->loc);
  /* a run-time length (compress by a mask, replicate by counts computed at
     run time) is named at the let; ⌿'s is the first axis again only after
     transp2 moves it back (the lowering, lower_gather.c, selects rows) */
  return expand ? res : el_bind(cx, res);
}

/* an index: an int scalar or array (booleans converted) */
static TExp *index_value(Elab *cx, AplNode *a, AplNode *ix) {
  TExp *i = el_value(cx, ix);
  if (!i) return NULL;
  if (el_base(i) != TB_INT && el_base(i) != TB_BOOL)
    return diag_error(a->loc, "domain error: an index must be an integer, found %s", tbase_name(el_base(i))), NULL;
  return el_coerce(cx, i, TB_INT);
}

/* V[i], V[I] (a vector); A[i;j;…] with one scalar or elided index per axis:
   index(i, A) on the first axis, another axis k brought first by transp2
   (the axes after the ones indexed keep their order), last axis first */
TExp *el_index(Elab *cx, AplNode *a) {
  TExp *x = el_value(cx, a->kids[0]);
  int n = a->nkids - 1;
  if (!x) return NULL;
  if (n == 1 && !a->kids[1]) return x;   /* A[]: all of A */
  if (n == 1 && el_rank(x) != 1)
    return diag_error(a->loc, "rank error: [ ] with one index needs a vector, and this array has rank %d", el_rank(x)), NULL;
  if (n != el_rank(x))
    return diag_error(a->loc, "rank error: [ ] with %d indices for an array of rank %d (one per axis)", n, el_rank(x)), NULL;
  if (n == 1) {
    TExp *i = index_value(cx, a, a->kids[1]);
    if (!i) return NULL;
    if (el_rank(i) == 0) return el_op("index", a->loc, 2, i, x);
    /* V[I]: each(fn v:[int]0 => index(v, V), I), V bound once */
    if (!(x = el_atomic(cx, x))) return NULL;
    const char *v = el_fresh(cx);
    TExp *body = el_op("index", a->loc, 2, el_var(v, ttype_scalar(TB_INT), a->loc), el_copy(x));
    return body ? el_op("each", a->loc, 2, el_fn(v, ttype_scalar(TB_INT), body, a->loc), i) : NULL;
  }
  TExp **is = NEW_ARRAY(TExp *, n);
  for (int k = n - 1; k >= 0; k--) {   /* right to left, as APL */
    if (!a->kids[k + 1]) continue;
    if (!(is[k] = index_value(cx, a, a->kids[k + 1]))) return NULL;
    if (el_rank(is[k]) != 0)
      return diag_error(a->kids[k + 1]->loc, "not supported yet: an array index with ';' (one scalar or nothing per axis)"), NULL;
  }
  for (int k = n - 1; k >= 0 && x; k--) {
    if (!is[k]) continue;
    if (k > 0) {   /* axis k first: k → 1, the axes before it one later */
      int r = el_rank(x);
      long long *p = NEW_ARRAY(long long, r);
      for (int i = 0; i < r; i++) p[i] = i == k ? 1 : i < k ? i + 2 : i + 1;
      if (!(x = el_op("transp2", a->loc, 2, el_ints(a->loc, r, p), x))) return NULL;
    }
    x = el_op("index", is[k]->loc, 2, is[k], x);
  }
  return x;
}

/* ⍪x: a matrix of the first axis by the product of the others (a scalar 1 1,
   a vector n 1) */
TExp *el_table(Elab *cx, AplNode *f, TExp *x) {
  int r = el_rank(x);
  if (r == 2) return x;
  TExp *dims[2];
  if (r == 0) dims[0] = dims[1] = el_int(1, f->loc);
  else {
    if (!(x = el_atomic(cx, x)) || !(dims[0] = el_axis_length(x, 0, f->loc))) return NULL;
    dims[1] = r == 1 ? el_int(1, f->loc)
                     : el_op("reduce", f->loc, 3, el_opval("muli", f->loc), el_int(1, f->loc),
                             el_op("drop", f->loc, 2, el_int(1, f->loc), el_op("shape", f->loc, 1, el_copy(x))));
    if (!dims[1]) return NULL;
  }
  TExp *shape = el_vec(f->loc, 2, dims);
  return shape ? el_op("reshape0", f->loc, 2, shape, r == 0 ? x : el_copy(x)) : NULL;
}
