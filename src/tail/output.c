/* output.c — what `clift run prog.tail` prints (docs/apl.md §4): the value
   from clift's Value and the TAIL type: ints %d, doubles %.17g (`-`, never
   `~`), booleans 0/1, chars as text, vectors [1, 2], higher ranks nested. */
#include "tail.h"
#include <math.h>
#include <stdio.h>

static void print_utf8(Buf *b, long long cp) {
  if (cp < 0 || cp > 0x10FFFF) cp = 0xFFFD;
  if (cp < 0x80) buf_putc(b, (char)cp);
  else if (cp < 0x800) { buf_putc(b, (char)(0xC0 | cp >> 6)); buf_putc(b, (char)(0x80 | (cp & 0x3F))); }
  else if (cp < 0x10000) {
    buf_putc(b, (char)(0xE0 | cp >> 12)); buf_putc(b, (char)(0x80 | (cp >> 6 & 0x3F))); buf_putc(b, (char)(0x80 | (cp & 0x3F)));
  } else {
    buf_putc(b, (char)(0xF0 | cp >> 18)); buf_putc(b, (char)(0x80 | (cp >> 12 & 0x3F)));
    buf_putc(b, (char)(0x80 | (cp >> 6 & 0x3F))); buf_putc(b, (char)(0x80 | (cp & 0x3F)));
  }
}

static void print_scalar(Buf *b, Value *v, TBase base) {
  switch (base) {
  case TB_DOUBLE: {
    double d = value_as_double(v);
    if (isnan(d)) buf_puts(b, "nan");
    else if (isinf(d)) buf_puts(b, d < 0 ? "-inf" : "inf");
    else buf_printf(b, "%.17g", d);
    return;
  }
  case TB_CHAR: print_utf8(b, value_as_long(v)); return;
  default: buf_printf(b, "%lld", (long long)value_as_long(v)); return;   /* int, bool as 0/1 */
  }
}

static void print_rank(Buf *b, Value *v, TBase base, int rank) {
  if (rank == 0) { print_scalar(b, v, base); return; }
  if (base == TB_CHAR && rank == 1) {   /* a char vector is text */
    for (int64_t i = 0; i < v->n; i++) { Value tmp; print_scalar(b, value_elem_at(v, i, &tmp), base); }
    return;
  }
  if (base == TB_CHAR) {                /* a char matrix: one row per line */
    for (int64_t i = 0; i < v->n; i++) {
      if (i) buf_putc(b, '\n');
      print_rank(b, value_elem(v, i), base, rank - 1);
    }
    return;
  }
  buf_putc(b, '[');
  for (int64_t i = 0; i < v->n; i++) {
    if (i) buf_puts(b, ", ");
    Value tmp;
    print_rank(b, rank == 1 ? value_elem_at(v, i, &tmp) : value_elem(v, i), base, rank - 1);
  }
  buf_putc(b, ']');
}

void tail_print_value(Buf *b, Value *v, TType *t) { print_rank(b, v, t->base, ttype_rank(t)); }

/* A dynamic output: its first `len` elements (the rest is padding). */
static void print_prefix(Buf *b, Value *v, int64_t len, TType *t) {
  Value cut = *v;
  if (len < 0 || len > v->n) len = v->n;
  if (value_is_flat(v)) {   /* a flat array's shape[0] is its length too */
    int64_t *shape = NEW_ARRAY(int64_t, v->rank);
    for (int i = 0; i < v->rank; i++) shape[i] = v->shape[i];
    shape[0] = len;
    cut.shape = shape;
  }
  cut.n = len;
  tail_print_value(b, &cut, t);
}

/* A transposed dynamic output (L/A, A of rank r ≥ 2, held as its len items
   along the last axis, each of A's other axes; lower_gather.c): printed in
   TAIL's order, as print_rank would, the item at (i₀, …, i_{r-2}, j) being
   v[j][i₀]…[i_{r-2}]; idx holds i₀ … up to `axis` */
static void print_held(Buf *b, Value *v, int64_t len, TailOutput *o, int axis, long long *idx) {
  int r = o->rank;
  TBase base = o->type->base;
  bool text = base == TB_CHAR;
  long long n = len;
  if (axis < r - 1) nat_is_const(o->ext[axis], &n);
  if (!text) buf_putc(b, '[');
  for (long long i = 0; i < n; i++) {
    if (i && !text) buf_puts(b, ", ");
    if (axis < r - 1) {
      if (i && text) buf_putc(b, '\n');
      idx[axis] = i;
      print_held(b, v, len, o, axis + 1, idx);
      continue;
    }
    Value *w = value_elem(v, i), tmp;
    for (int k = 0; k < r - 2; k++) w = value_elem(w, idx[k]);
    print_scalar(b, value_elem_at(w, idx[r - 2], &tmp), base);
  }
  if (!text) buf_putc(b, ']');
}

Type *tail_print_output(Buf *b, Value *v, TailProgram *tp, int k) {
  Type *t = tp->core->result;
  if (!tp->tuple) { tail_print_value(b, v, tp->outputs[0].type); return t; }
  int field = 0;
  for (int i = 0; i < k; i++) field += tp->outputs[i].dynamic ? 2 : 1;
  TailOutput *o = &tp->outputs[k];
  if (!o->dynamic) { tail_print_value(b, value_elem(v, field), o->type); return t->fields[field]; }
  if (o->transposed) {
    Value *held = value_elem(v, field + 1);
    int64_t len = value_as_long(value_elem(v, field));
    if (len < 0 || len > held->n) len = held->n;
    print_held(b, held, len, o, 0, NEW_ARRAY(long long, o->rank));
  }
  else print_prefix(b, value_elem(v, field + 1), value_as_long(value_elem(v, field)), o->type);
  return t->fields[field + 1];
}

void tail_print_outputs(Buf *b, Value *v, TailProgram *tp) {
  for (int i = 0; i < tp->noutputs; i++) {
    if (i) buf_putc(b, '\n');
    tail_print_output(b, v, tp, i);
  }
}

const char *tail_describe(TailProgram *tp) {
  Buf b = {0};
  for (int k = 0; k < tp->noutputs; k++) {
    TailOutput *o = &tp->outputs[k];
    if (k) buf_putc(&b, '\n');
    buf_puts(&b, ttype_to_string(o->type));
    for (int i = 0; i < o->rank; i++)
      buf_printf(&b, "%s%s%s", i ? "×" : " ", o->dynamic && i == (o->transposed ? o->rank - 1 : 0) ? "≤" : "",
                 nat_to_string(o->ext[i]));
  }
  return buf_str(&b);
}
