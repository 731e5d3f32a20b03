/* print.c — value_print (the literal syntax value_parse reads back, SPEC §7) and
   value_close (tolerant comparison for `clift test` and the unit tests). */
#include "value.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <errno.h>

/* Output goes to a Sink: a Buf (value_print) or a file through a fixed 64 KiB
   buffer (value_print_line), so printing 10^7 elements never holds the text. */
enum { SINK_BUFFER = 1 << 16 };
typedef struct Sink { Buf *b; FILE *f; bool failed; size_t len; char *data; } Sink;

static void flush(Sink *o) {
  if (o->f && o->len && fwrite(o->data, 1, o->len, o->f) != o->len) o->failed = true;
  o->len = 0;
}

/* Append bytes directly: buf_printf formats twice per call, which dominates when
   printing a 10^6-element result. A Buf grows by doubling like Buf itself. */
static void put(Sink *o, const char *s, size_t n) {
  if (o->f) {
    if (o->len + n > SINK_BUFFER) flush(o);
    if (n > SINK_BUFFER) { if (fwrite(s, 1, n, o->f) != n) o->failed = true; return; }
    memcpy(o->data + o->len, s, n);
    o->len += n;
    return;
  }
  Buf *b = o->b;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    while (cap < b->len + n + 1) cap *= 2;
    char *d = arena_alloc(cap);
    if (b->len) memcpy(d, b->data, b->len);
    b->data = d; b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}
static void put_str(Sink *o, const char *s) { put(o, s, strlen(s)); }

/* %.9g / %.17g are the shortest fixed precisions that make every float / double
   round-trip; inf and nan are spelled out because printf may write "-nan". */
static void print_floating(Sink *o, double x, int digits) {
  if (isnan(x)) { put_str(o, "nan"); return; }
  if (isinf(x)) { put_str(o, x < 0 ? "-inf" : "inf"); return; }
  char s[40];
  int n = snprintf(s, sizeof s, "%.*g", digits, x);
  put(o, s, (size_t)n);
}

static void print_value(Sink *o, Value *v);

static void print_items(Sink *o, Value *v, const char *open, const char *close) {
  put(o, open, 1);
  for (int64_t i = 0; i < v->n; i++) {
    Value tmp;
    if (i) put(o, ", ", 2);
    print_value(o, value_elem_at(v, i, &tmp));
  }
  put(o, close, 1);
}

static void print_value(Sink *o, Value *v) {
  char s[24];
  switch (v->kind) {
  case VAL_INT:    put(o, s, (size_t)snprintf(s, sizeof s, "%d", (int)v->s.i)); break;
  case VAL_LONG:   put(o, s, (size_t)snprintf(s, sizeof s, "%lld", (long long)v->s.l)); break;
  case VAL_FLOAT:  print_floating(o, v->s.f, 9); break;
  case VAL_DOUBLE: print_floating(o, v->s.d, 17); break;
  case VAL_BOOL:   put_str(o, v->s.b ? "true" : "false"); break;
  case VAL_ARRAY:  print_items(o, v, "[", "]"); break;
  case VAL_TUPLE:  print_items(o, v, "(", ")"); break;
  case VAL_VECTOR: print_items(o, v, "<", ">"); break;
  case VAL_RAW:    put(o, s, (size_t)snprintf(s, sizeof s, "<%lld bytes>", (long long)v->n)); break;
  case VAL_MOVED:  break;   /* never seen outside value_keep */
  case VAL_FAILED: break;   /* raised before printing (interp_run) */
  }
}

void value_print(Buf *b, Value *v) {
  Sink o = { .b = b };
  print_value(&o, v);
}

bool value_print_line(FILE *f, Value *v) {
  Sink o = { .f = f, .data = malloc(SINK_BUFFER) };
  if (!o.data) return diag_error(LOC_NONE, "out of memory: cannot allocate %d bytes to print the result", SINK_BUFFER);
  print_value(&o, v);
  put(&o, "\n", 1);
  flush(&o);
  free(o.data);
  if (fflush(f) != 0) o.failed = true;
  return !o.failed || diag_error(LOC_NONE, "cannot write the result: %s", strerror(errno));
}

/* ---- value_close ---- */

enum { CLOSE_MAX_DEPTH = 64 };

typedef struct Compare {
  double tol;
  Buf *why;
  /* Where we are, rendered as "[3][1]" / ".1" only when a mismatch needs it. */
  int depth;
  int64_t at[CLOSE_MAX_DEPTH];
  bool field[CLOSE_MAX_DEPTH];   /* a tuple field rather than an index */
  long long bad;     /* mismatches found; only the first is explained */
} Compare;

static bool is_floating(Value *v) { return v->kind == VAL_FLOAT || v->kind == VAL_DOUBLE; }

/* Relative tolerance, with the same tol as an absolute bound so values near zero
   (where relative error is meaningless) still compare. nan matches nan. */
static bool floats_close(double g, double w, double tol) {
  if (isnan(g) || isnan(w)) return isnan(g) && isnan(w);
  if (g == w) return true;                 /* also equal infinities */
  if (isinf(g) || isinf(w)) return false;  /* tol * inf would excuse anything */
  double diff = fabs(g - w);
  return diff <= tol * fmax(fabs(g), fabs(w)) || diff <= tol;
}

static bool scalars_equal(Value *g, Value *w, double tol) {
  if (is_floating(g)) return floats_close(value_as_double(g), value_as_double(w), tol);
  if (g->kind == VAL_BOOL) return g->s.b == w->s.b;
  return value_as_long(g) == value_as_long(w);
}

static const char *kind_name(Value *v) {
  static const char *names[] = { "an int", "a long", "a float", "a double", "a bool",
                                 "an array", "a tuple", "a vector", "bytes", "a moved value" };
  return names[v->kind];
}

/* Explain the first mismatch ("element [3][1]: got 2.5, expected 2.75"). */
static void mismatch(Compare *C, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mismatch(Compare *C, const char *fmt, ...) {
  if (C->bad++ || !C->why) return;
  if (C->depth) {
    buf_puts(C->why, "element ");
    for (int i = 0; i < C->depth && i < CLOSE_MAX_DEPTH; i++)
      buf_printf(C->why, C->field[i] ? ".%lld" : "[%lld]", (long long)C->at[i]);
    buf_puts(C->why, ": ");
  }
  va_list ap; va_start(ap, fmt); buf_vprintf(C->why, fmt, ap); va_end(ap);
}

static void compare(Compare *C, Value *g, Value *w) {
  if (g->kind != w->kind) {
    mismatch(C, "got %s, expected %s", kind_name(g), kind_name(w));
    return;
  }
  if (g->kind <= VAL_BOOL) {
    if (scalars_equal(g, w, C->tol)) return;
    Buf gs = {0}, ws = {0};
    value_print(&gs, g); value_print(&ws, w);
    mismatch(C, "got %s, expected %s", buf_str(&gs), buf_str(&ws));
    return;
  }
  if (g->n != w->n) {
    mismatch(C, "length %lld, expected %lld", (long long)g->n, (long long)w->n);
    return;
  }
  int d = C->depth++;
  for (int64_t i = 0; i < g->n; i++) {
    Value gt, wt;
    if (d < CLOSE_MAX_DEPTH) { C->at[d] = i; C->field[d] = g->kind == VAL_TUPLE; }
    compare(C, value_elem_at(g, i, &gt), value_elem_at(w, i, &wt));
  }
  C->depth--;
}

bool value_close(Value *got, Value *want, double tol, Buf *why) {
  Compare C = { .tol = tol, .why = why };
  compare(&C, got, want);
  if (C.bad > 1 && why) buf_printf(why, " (%lld mismatches in all)", C.bad);
  return C.bad == 0;
}
