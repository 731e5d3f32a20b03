/* elab_fold.c — static evaluation of small int vectors and scalars while
   elaborating (docs/apl.md §5, M5): a vector's items as far as they are known
   (⍉'s axes, ⍴'s shape, replicate's counts, ○'s function number): its length
   (from ranks, types, literals) and each item, an int literal or unknown.
   Variables are followed to their let in the current scope. */
#include "elab.h"
#include <stdlib.h>
#include <string.h>

enum { FOLD_DEPTH = 100, FOLD_MAX = 4096 };

static TExp *let_value(Elab *cx, const char *name) {
  for (int i = cx->scope->n - 1; i >= 0; i--)
    if (strcmp(cx->scope->lets[i]->name, name) == 0) return cx->scope->lets[i]->kids[0];
  return NULL;
}

/* the value of an int or bool scalar, if known */
bool el_fold_int(Elab *cx, TExp *e, int depth, long long *out) {
  if (!e || depth > FOLD_DEPTH) return false;
  if (e->type && e->type->kind == TT_S && (e->type->base == TB_INT || e->type->base == TB_BOOL) && !e->type->n.v1 && !e->type->n.v2) {
    *out = e->type->n.c;
    return true;
  }
  if (e->kind == TE_INT || e->kind == TE_BOOL) { *out = e->ival; return true; }
  if (e->kind == TE_VAR) { TExp *x = let_value(cx, e->name); return x && el_fold_int(cx, x, depth + 1, out); }
  if (e->kind != TE_OP || !e->op) return false;
  const char *o = e->op->name;
  long long a, b;
  if ((!strcmp(o, "first") || !strcmp(o, "firstV")) && e->nkids >= 1) {
    long long *vs; bool *ks; int n;
    if (!el_fold_vec(cx, e->kids[e->nkids - 1], depth + 1, &vs, &ks, &n)) return false;
    if (n > 0) { *out = vs[0]; return ks[0]; }
    return e->nkids == 2 && el_fold_int(cx, e->kids[0], depth + 1, out);
  }
  if (!strcmp(o, "b2i") && e->nkids == 1) return el_fold_int(cx, e->kids[0], depth + 1, out);
  if (!strcmp(o, "negi") && e->nkids == 1 && el_fold_int(cx, e->kids[0], depth + 1, &a)) { *out = -a; return true; }
  if (e->nkids == 2 && (!strcmp(o, "addi") || !strcmp(o, "subi") || !strcmp(o, "muli")) &&
      el_fold_int(cx, e->kids[0], depth + 1, &a) && el_fold_int(cx, e->kids[1], depth + 1, &b) &&
      llabs(a) < (1LL << 30) && llabs(b) < (1LL << 30)) {
    *out = o[0] == 'a' ? a + b : o[0] == 's' ? a - b : a * b;
    return true;
  }
  if (!strcmp(o, "reduce") && e->nkids == 3 && e->kids[0]->op && el_fold_int(cx, e->kids[1], depth + 1, &a)) {
    /* +/ ×/ of a vector known when compiling (so (⍳+/2 3)⍴x has a static shape) */
    const char *f = e->kids[0]->op->name;
    long long *vs; bool *ks; int n;
    if ((strcmp(f, "addi") && strcmp(f, "muli")) || !el_fold_vec(cx, e->kids[2], depth + 1, &vs, &ks, &n)) return false;
    for (int i = 0; i < n; i++) {
      if (!ks[i]) return false;
      a = f[0] == 'a' ? a + vs[i] : a * vs[i];
      if (llabs(a) >= (1LL << 30)) return false;
    }
    *out = a;
    return true;
  }
  return false;
}

void el_fold_new(int n, long long **v, bool **known) {
  *v = NEW_ARRAY(long long, n > 0 ? n : 1);
  *known = NEW_ARRAY(bool, n > 0 ? n : 1);
}

bool el_fold_vec(Elab *cx, TExp *e, int depth, long long **v, bool **known, int *n) {
  if (!e || depth > FOLD_DEPTH || !e->type || ttype_rank(e->type) != 1) return false;
  if (e->kind == TE_VEC) {
    *n = e->nkids;
    el_fold_new(*n, v, known);
    for (int i = 0; i < *n; i++) (*known)[i] = el_fold_int(cx, e->kids[i], depth + 1, &(*v)[i]);
    return true;
  }
  if (e->kind == TE_VAR) {
    TExp *x = let_value(cx, e->name);
    if (x && el_fold_vec(cx, x, depth + 1, v, known, n)) return true;
    /* a long vector is not folded: its items were n unknowns, n·9 bytes (fuzz F9:
       !0,x of x←⍳50000000 took 440 MB a line, tests/apl/apl_test.sh) */
    if (e->type->kind != TT_VEC || e->type->n.c > FOLD_MAX) return false;
    *n = (int)e->type->n.c;
    el_fold_new(*n, v, known);
    return true;
  }
  if (e->kind != TE_OP || !e->op) return false;
  const char *o = e->op->name;
  long long k;
  long long *av, *bv; bool *ak, *bk; int an, bn;
  if ((!strcmp(o, "shape") || !strcmp(o, "shapeV")) && e->nkids == 1) {
    TExp *x = e->kids[0];
    int r = el_rank(x);
    *n = r;
    el_fold_new(r, v, known);
    if (r == 1 && el_fold_vec(cx, x, depth + 1, &av, &ak, &an)) { (*v)[0] = an; (*known)[0] = true; }
    else if (r == 1 && el_length(x) >= 0) { (*v)[0] = el_length(x); (*known)[0] = true; }
    return true;
  }
  if ((!strcmp(o, "iota") || !strcmp(o, "iotaV")) && e->nkids == 1) {
    if (!el_fold_int(cx, e->kids[0], depth + 1, &k) || k < 0 || k > FOLD_MAX) return false;
    *n = (int)k;
    el_fold_new(*n, v, known);
    for (int i = 0; i < *n; i++) { (*v)[i] = i + 1; (*known)[i] = true; }
    return true;
  }
  if ((!strcmp(o, "drop") || !strcmp(o, "dropV") || !strcmp(o, "take") || !strcmp(o, "rotate") || !strcmp(o, "rotateV")) &&
      e->nkids >= 2) {
    if (!el_fold_int(cx, e->kids[0], depth + 1, &k) || !el_fold_vec(cx, e->kids[e->nkids - 1], depth + 1, &av, &ak, &an)) return false;
    if (llabs(k) > FOLD_MAX) return false;
    if (o[0] == 'r') {
      *n = an;
      el_fold_new(an, v, known);
      for (int i = 0; i < an; i++) { int j = (int)(((i + k) % an + an) % an); (*v)[i] = av[j]; (*known)[i] = ak[j]; }
      return true;
    }
    if (o[0] == 'd') {
      int m = llabs(k) >= an ? 0 : an - (int)llabs(k), off = k > 0 ? (int)k : 0;
      *n = m;
      el_fold_new(m, v, known);
      for (int i = 0; i < m; i++) { (*v)[i] = av[off + i]; (*known)[i] = ak[off + i]; }
      return true;
    }
    long long fillv = 0;   /* take: overtaking fills */
    bool fillk = e->nkids == 3 && el_fold_int(cx, e->kids[1], depth + 1, &fillv);
    int m = (int)llabs(k), off = k >= 0 ? 0 : an - m;
    *n = m;
    el_fold_new(m, v, known);
    for (int i = 0; i < m; i++) {
      int j = off + i;
      if (j >= 0 && j < an) { (*v)[i] = av[j]; (*known)[i] = ak[j]; }
      else { (*v)[i] = fillv; (*known)[i] = fillk; }
    }
    return true;
  }
  if ((!strcmp(o, "cat") || !strcmp(o, "cons") || !strcmp(o, "consV") || !strcmp(o, "snoc") || !strcmp(o, "snocV")) &&
      e->nkids == 2) {
    bool a_scalar = o[2] == 'n' && o[0] == 'c', b_scalar = o[0] == 's';   /* cons: x first; snoc: x last */
    if (a_scalar) { an = 1; el_fold_new(1, &av, &ak); ak[0] = el_fold_int(cx, e->kids[0], depth + 1, &av[0]); }
    else if (!el_fold_vec(cx, e->kids[0], depth + 1, &av, &ak, &an)) return false;
    if (b_scalar) { bn = 1; el_fold_new(1, &bv, &bk); bk[0] = el_fold_int(cx, e->kids[1], depth + 1, &bv[0]); }
    else if (!el_fold_vec(cx, e->kids[1], depth + 1, &bv, &bk, &bn)) return false;
    if (an + bn > FOLD_MAX) return false;
    *n = an + bn;
    el_fold_new(*n, v, known);
    for (int i = 0; i < an; i++) { (*v)[i] = av[i]; (*known)[i] = ak[i]; }
    for (int i = 0; i < bn; i++) { (*v)[an + i] = bv[i]; (*known)[an + i] = bk[i]; }
    return true;
  }
  if ((!strcmp(o, "reverse") || !strcmp(o, "reverseV")) && e->nkids == 1) {
    if (!el_fold_vec(cx, e->kids[0], depth + 1, &av, &ak, &an)) return false;
    *n = an;
    el_fold_new(an, v, known);
    for (int i = 0; i < an; i++) { (*v)[i] = av[an - 1 - i]; (*known)[i] = ak[an - 1 - i]; }
    return true;
  }
  return false;
}

