/* types.c — TAIL types (docs/apl.md §2.3): construction, printing in the
   syntax of §2.1, and subtyping of ground types (rules 3.1–3.5). */
#include "tail.h"
#include <string.h>

TType *ttype_new(TTypeKind kind, TBase base, long long n) {
  TType *t = NEW(TType);
  t->kind = kind; t->base = base; t->n.c = n;
  return t;
}

TType *ttype_fun(TType *arg, TType *res) {
  TType *t = NEW(TType);
  t->kind = TT_FUN; t->base = TB_NONE; t->arg = arg; t->res = res;
  return t;
}

TType *ttype_scalar(TBase base) { return ttype_new(TT_ARRAY, base, 0); }

static const char *const base_names[] = { "int", "double", "bool", "char", "?" };
const char *tbase_name(TBase b) { return base_names[b]; }

/* negatives with '~', as the thesis prints them */
static void print_shape(Buf *b, TShape s) {
  static const char *const vars = "ghijkl";
  bool any = false;
  if (s.v1) { buf_printf(b, "%c", vars[(s.v1 - 1) % 6]); any = true; }
  if (s.v2) { buf_printf(b, "+%c", vars[(s.v2 - 1) % 6]); any = true; }
  if (any && s.c == 0) return;
  if (any) buf_putc(b, '+');
  if (s.c < 0) buf_printf(b, "~%lld", -s.c); else buf_printf(b, "%lld", s.c);
}

static void print_base(Buf *b, TType *t) {
  if (t->bvar) buf_printf(b, "%c", "abcdef"[(t->bvar - 1) % 6]);
  else buf_puts(b, tbase_name(t->base));
}

static void print_type(Buf *b, TType *t) {
  switch (t->kind) {
  case TT_ARRAY: buf_putc(b, '['); print_base(b, t); buf_putc(b, ']'); print_shape(b, t->n); return;
  case TT_VEC: buf_putc(b, '<'); print_base(b, t); buf_putc(b, '>'); print_shape(b, t->n); return;
  case TT_S: case TT_SV:
    buf_puts(b, t->kind == TT_S ? "S(" : "SV("); print_base(b, t); buf_putc(b, ','); print_shape(b, t->n);
    buf_putc(b, ')');
    return;
  case TT_FUN:
    if (t->arg->kind == TT_FUN) { buf_putc(b, '('); print_type(b, t->arg); buf_putc(b, ')'); }
    else print_type(b, t->arg);
    buf_puts(b, " -> ");
    print_type(b, t->res);
    return;
  }
}

const char *ttype_to_string(TType *t) {
  Buf b = {0};
  print_type(&b, t);
  return buf_str(&b);
}

int ttype_rank(TType *t) {
  switch (t->kind) {
  case TT_ARRAY: return (int)t->n.c;
  case TT_VEC: case TT_SV: return 1;
  case TT_S: return 0;
  case TT_FUN: return -1;
  }
  return -1;
}

/* lo ⊆ hi: <κ>n ⊆ [κ]1, SV_κ(n) ⊆ <κ>1, S_κ(n) ⊆ [κ]0, reflexive, transitive;
   functions contravariant in the argument. */
bool ttype_sub(TType *lo, TType *hi) {
  if (lo->kind == TT_FUN || hi->kind == TT_FUN)
    return lo->kind == TT_FUN && hi->kind == TT_FUN && ttype_sub(hi->arg, lo->arg) && ttype_sub(lo->res, hi->res);
  if (lo->base != hi->base) return false;
  switch (hi->kind) {
  case TT_ARRAY: return ttype_rank(lo) == hi->n.c;
  case TT_VEC: return (lo->kind == TT_VEC && lo->n.c == hi->n.c) || (lo->kind == TT_SV && hi->n.c == 1);
  case TT_S: case TT_SV: return lo->kind == hi->kind && lo->n.c == hi->n.c;
  case TT_FUN: return false;
  }
  return false;
}

/* The least supertype of both: one of them, or [κ]r of their common rank. */
TType *ttype_join(TType *a, TType *b) {
  if (ttype_sub(a, b)) return b;
  if (ttype_sub(b, a)) return a;
  if (a->kind == TT_FUN || b->kind == TT_FUN || a->base != b->base) return NULL;
  if (a->kind == TT_SV && b->kind == TT_SV) return ttype_new(TT_VEC, a->base, 1);
  if (ttype_rank(a) != ttype_rank(b)) return NULL;
  return ttype_new(TT_ARRAY, a->base, ttype_rank(a));
}
