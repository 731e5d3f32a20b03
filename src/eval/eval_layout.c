/* eval_layout.c — interpreter rules of the data-layout primitives. Values are
   immutable, so views share element values instead of copying them; on a flat
   array (value.h) split, join and slice are views of the same scalars, and pad,
   slide and transpose copy scalars rather than make a boxed value each. */
#include "interp.h"
#include "../prim/rules.h"
#include "../prim/special.h"   /* CLIFT_APL_INDEX_ERROR */
#include <string.h>

/* Flat-array helpers: a flat value over xs's scalars with a new shape. */
static size_t row_bytes(Value *xs) {
  return (size_t)value_flat_row_scalars(xs) * value_scalar_size(xs->leaf);
}
static Value *flat_view(Value *xs, int rank, const int64_t *shape, unsigned char *at) {
  return value_flat_over(xs->leaf, rank, shape, at);
}
/* The shape of xs with its outer extent replaced by `outer` (and `extra` inserted
   after it when extra > 0): what split, slide, pad and slice make. */
static int64_t *reshape(Value *xs, int64_t outer, int64_t extra) {
  int64_t *s = NEW_ARRAY(int64_t, xs->rank + 1);
  int r = 0;
  s[r++] = outer;
  if (extra > 0) s[r++] = extra;
  for (int d = 1; d < xs->rank; d++) s[r++] = xs->shape[d];
  return s;
}

static bool nat_arg(Interp *it, Expr *e, long long *v) { return interp_nat(it, e->nat, e->loc, v); }

Value *eval_zip(Interp *it, Expr *e, Env *env) {
  Value *arrs[3] = { NULL, NULL, NULL };
  for (int i = 0; i < e->nkids; i++) if (!(arrs[i] = interp_array(it, e->kids[i], env))) return NULL;
  for (int i = 1; i < e->nkids; i++)
    if (arrs[i]->n != arrs[0]->n) {
      diag_error(e->loc, "'%s': arrays of lengths %lld and %lld", e->prim->name, (long long)arrs[0]->n, (long long)arrs[i]->n);
      return NULL;
    }
  Value *out = value_array(arrs[0]->n);
  for (int64_t j = 0; j < out->n; j++) {
    Value *t = value_tuple(e->nkids);
    for (int i = 0; i < e->nkids; i++) t->elems[i] = value_elem(arrs[i], j);
    out->elems[j] = t;
  }
  return out;
}

Value *eval_unzip(Interp *it, Expr *e, Env *env) {
  Value *xs = interp_array(it, e->kids[0], env);
  if (!xs) return NULL;
  int fields = e->type->n;
  Value *out = value_tuple(fields);
  for (int f = 0; f < fields; f++) {
    if (!(out->elems[f] = interp_new_array(it, e->type->fields[f], xs->n, e->loc))) return NULL;
    for (int64_t j = 0; j < xs->n; j++) {
      Value *x = value_elem(xs, j);   /* a failed tuple fails in every field */
      value_set_elem(out->elems[f], j, x->kind == VAL_FAILED ? x : x->elems[f]);
    }
  }
  return out;
}

Value *eval_get(Interp *it, Expr *e, Env *env) {
  long long k = e->prim->tuple_index;
  if (k == PRIM_FIELD_FROM_ARG) { nat_is_const(e->kids[0]->nat, &k); k--; }
  Value *t = interp_eval(it, e->kids[e->nkids - 1], env);
  return t ? t->elems[k] : NULL;
}

Value *eval_tuple(Interp *it, Expr *e, Env *env) {
  Value *t = value_tuple(e->nkids);
  for (int i = 0; i < e->nkids; i++) if (!(t->elems[i] = interp_eval(it, e->kids[i], env))) return NULL;
  return t;
}

Value *eval_split(Interp *it, Expr *e, Env *env) {
  long long m;
  Value *xs = nat_arg(it, e->kids[0], &m) ? interp_array(it, e->kids[1], env) : NULL;
  if (!xs) return NULL;
  if (m <= 0 || xs->n % m != 0) {
    diag_error(e->loc, "split #%lld does not divide the length %lld", m, (long long)xs->n);
    return NULL;
  }
  if (value_is_flat(xs)) return flat_view(xs, xs->rank + 1, reshape(xs, xs->n / m, m), xs->raw);
  Value *out = value_array(xs->n / m);
  for (int64_t i = 0; i < out->n; i++) {
    out->elems[i] = value_array(m);
    for (int64_t j = 0; j < m; j++) out->elems[i]->elems[j] = xs->elems[i * m + j];
  }
  return out;
}

Value *eval_join(Interp *it, Expr *e, Env *env) {
  Value *xs = interp_array(it, e->kids[0], env);
  if (!xs) return NULL;
  if (value_is_flat(xs) && xs->rank >= 2) {
    int64_t *s = reshape(xs, xs->n * xs->shape[1], 0);
    memmove(s + 1, s + 2, sizeof(int64_t) * (size_t)(xs->rank - 2));
    return flat_view(xs, xs->rank - 1, s, xs->raw);
  }
  int64_t total = 0;
  for (int64_t i = 0; i < xs->n; i++) total += xs->elems[i]->n;
  Value *out = value_array(total);
  int64_t k = 0;
  for (int64_t i = 0; i < xs->n; i++) {
    Value *row = xs->elems[i];
    for (int64_t j = 0; j < row->n; j++) out->elems[k++] = value_elem(row, j);
  }
  return out;
}

Value *eval_transpose(Interp *it, Expr *e, Env *env) {
  Value *xs = interp_array(it, e->kids[0], env);
  if (!xs) return NULL;
  long long m;
  /* the row length comes from the type, so an empty outer array still works */
  if (!interp_nat(it, e->type->len, e->loc, &m)) return NULL;
  if (value_is_flat(xs) && xs->rank >= 2) {
    int64_t *s = reshape(xs, m, 0);
    s[1] = xs->n;
    Value *out = value_flat(xs->leaf, xs->rank, s);
    size_t cell = row_bytes(xs) / (size_t)(xs->shape[1] ? xs->shape[1] : 1);
    for (int64_t j = 0; j < m; j++)
      for (int64_t i = 0; i < xs->n; i++)
        memcpy(out->raw + (size_t)(j * xs->n + i) * cell, xs->raw + (size_t)(i * m + j) * cell, cell);
    return out;
  }
  Value *out = value_array(m);
  for (int64_t j = 0; j < m; j++) {
    out->elems[j] = value_array(xs->n);
    for (int64_t i = 0; i < xs->n; i++) out->elems[j]->elems[i] = value_elem(xs->elems[i], j);
  }
  return out;
}

Value *eval_slide(Interp *it, Expr *e, Env *env) {
  long long s, st;
  if (!nat_arg(it, e->kids[0], &s) || !nat_arg(it, e->kids[1], &st)) return NULL;
  Value *xs = interp_array(it, e->kids[2], env);
  if (!xs) return NULL;
  if (s > xs->n) { diag_error(e->loc, "slide window %lld is larger than the array (%lld)", s, (long long)xs->n); return NULL; }
  if (value_is_flat(xs)) {
    Value *out = value_flat(xs->leaf, xs->rank + 1, reshape(xs, (xs->n - s) / st + 1, s));
    size_t row = row_bytes(xs);
    for (int64_t w = 0; w < out->n; w++) memcpy(out->raw + (size_t)(w * s) * row, xs->raw + (size_t)(w * st) * row, (size_t)s * row);
    return out;
  }
  Value *out = value_array((xs->n - s) / st + 1);
  for (int64_t w = 0; w < out->n; w++) {
    out->elems[w] = value_array(s);
    for (int64_t j = 0; j < s; j++) out->elems[w]->elems[j] = xs->elems[w * st + j];
  }
  return out;
}

/* pad: indices outside the array read the nearest edge (clamp);
   padConstant: they read c. */
static Value *pad(Interp *it, Expr *e, Env *env, Value *c, Expr *arr) {
  long long l, r;
  if (!nat_arg(it, e->kids[0], &l) || !nat_arg(it, e->kids[1], &r)) return NULL;
  Value *xs = interp_array(it, arr, env);
  if (!xs) return NULL;
  if (xs->n == 0 && !c) { diag_error(e->loc, "pad of an empty array"); return NULL; }
  bool flat = value_is_flat(xs);
  Value *out = flat ? value_flat(xs->leaf, xs->rank, reshape(xs, l + xs->n + r, 0)) : value_array(l + xs->n + r);
  size_t row = flat ? row_bytes(xs) : 0;
  for (int64_t i = 0; i < out->n; i++) {
    int64_t j = i - l;
    if (c && (j < 0 || j >= xs->n)) {
      if (!value_set_elem(out, i, c)) { diag_error(e->loc, "internal: padConstant's value does not match the array"); return NULL; }
      continue;
    }
    j = j < 0 ? 0 : j >= xs->n ? xs->n - 1 : j;
    if (flat) memcpy(out->raw + (size_t)i * row, xs->raw + (size_t)j * row, row);
    else out->elems[i] = xs->elems[j];
  }
  return out;
}

Value *eval_pad(Interp *it, Expr *e, Env *env) { return pad(it, e, env, NULL, e->kids[2]); }
Value *eval_pad_constant(Interp *it, Expr *e, Env *env) {
  Value *c = interp_eval(it, e->kids[2], env);
  return c ? pad(it, e, env, c, e->kids[3]) : NULL;
}

Value *eval_iota(Interp *it, Expr *e, Env *env) {
  long long n;
  if (e->kids[0]->kind == EX_NAT) {
    if (!nat_arg(it, e->kids[0], &n)) return NULL;
  } else {   /* a length known at run time (SPEC §4.1): negative is an error */
    Value *v = interp_demand(interp_eval(it, e->kids[0], env));
    if (!v) return NULL;
    if ((n = v->s.i) < 0) return diag_error(e->loc, "iota: the length %lld is negative", n), NULL;
  }
  int64_t shape[1] = { n };
  Value *out = value_flat(VAL_INT, 1, shape);
  for (int64_t i = 0; i < n; i++) { int32_t x = (int32_t)i; memcpy(out->raw + 4 * i, &x, 4); }
  return out;
}

Value *eval_aref(Interp *it, Expr *e, Env *env) {
  Value *xs = interp_array(it, e->kids[0], env);
  Value *i = xs ? interp_eval(it, e->kids[1], env) : NULL;
  if (!i) return NULL;
  int64_t k = value_as_long(i);
  if (k < 0 || k >= xs->n) {
    /* the generated code's words (runtime/check_report.c): one message on every target (SPEC §8) */
    if (e->apl_index) diag_error(e->loc, CLIFT_APL_INDEX_ERROR, (long long)k + 1, (long long)xs->n);
    else diag_error(e->loc, "aref: index %lld out of range for an array of length %lld", (long long)k, (long long)xs->n);
    return NULL;
  }
  return value_elem(xs, k);
}

Value *eval_length(Interp *it, Expr *e, Env *env) {
  Value *xs = interp_array(it, e->kids[0], env);
  return xs ? value_int((int32_t)xs->n) : NULL;
}

Value *eval_slice(Interp *it, Expr *e, Env *env) {
  long long start, len;
  if (!nat_arg(it, e->kids[0], &start) || !nat_arg(it, e->kids[1], &len)) return NULL;
  Value *xs = interp_array(it, e->kids[2], env);
  if (!xs) return NULL;
  if (start + len > xs->n) { diag_error(e->loc, "slice %lld..%lld beyond the array's end (%lld)", start, start + len, (long long)xs->n); return NULL; }
  if (value_is_flat(xs)) return flat_view(xs, xs->rank, reshape(xs, len, 0), xs->raw + (size_t)start * row_bytes(xs));
  Value *out = value_array(len);
  for (int64_t i = 0; i < len; i++) out->elems[i] = xs->elems[start + i];
  return out;
}

Value *eval_as_vector(Interp *it, Expr *e, Env *env) {
  long long k;
  Value *xs = nat_arg(it, e->kids[0], &k) ? interp_array(it, e->kids[1], env) : NULL;
  if (!xs) return NULL;
  if (xs->n % k != 0) { diag_error(e->loc, "asVector #%lld does not divide the length %lld", k, (long long)xs->n); return NULL; }
  Value *out = value_array(xs->n / k);
  for (int64_t i = 0; i < out->n; i++) {
    Value *v = value_vector((int)k);
    for (int64_t j = 0; j < k; j++) {
      v->elems[j] = value_elem(xs, i * k + j);
      if (v->elems[j]->kind == VAL_FAILED) { v = v->elems[j]; break; }   /* a failed lane fails the vector */
    }
    out->elems[i] = v;
  }
  return out;
}

Value *eval_as_scalar(Interp *it, Expr *e, Env *env) {
  Value *xs = interp_array(it, e->kids[0], env);
  if (!xs) return NULL;
  int w = e->kids[0]->type->elem->width;
  Value *out = interp_new_array(it, e->type, xs->n * w, e->loc);
  for (int64_t i = 0; out && i < xs->n; i++)
    for (int j = 0; j < w; j++)
      value_set_elem(out, i * w + j, xs->elems[i]->kind == VAL_FAILED ? xs->elems[i] : xs->elems[i]->elems[j]);
  return out;
}

/* partition #n F xs: part k holds the F(k) elements after those of the parts
   before it (SPEC §3.5). The sizes were checked before the program ran
   (CHECK_NONNEG, and their sum is the length); checked again here. */
Value *eval_partition(Interp *it, Expr *e, Env *env) {
  long long n;
  Value *xs = nat_arg(it, e->kids[0], &n) ? interp_array(it, e->kids[2], env) : NULL;
  if (!xs) return NULL;
  Expr *f = e->kids[1];
  Value *out = value_array(n);
  int64_t at = 0;
  for (long long k = 0; k < n; k++) {
    NatBinding *saved = it->nats, pos = { f->index, k, it->nats };
    it->nats = &pos;
    long long size;
    bool ok = interp_nat(it, f->nat, f->loc, &size);
    it->nats = saved;
    if (!ok) return NULL;
    if (size < 0 || at + size > xs->n) {
      diag_error(e->loc, "partition: part %lld of size %lld does not fit the array of %lld elements", k, size, (long long)xs->n);
      return NULL;
    }
    if (value_is_flat(xs)) out->elems[k] = flat_view(xs, xs->rank, reshape(xs, size, 0), xs->raw + (size_t)at * row_bytes(xs));
    else {
      out->elems[k] = value_array(size);
      for (int64_t j = 0; j < size; j++) out->elems[k]->elems[j] = xs->elems[at + j];
    }
    at += size;
  }
  return out;
}
