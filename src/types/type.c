/* type.c — construction, equality and printing of data types (SPEC §3.2). */
#include "type.h"
#include <string.h>

Type *type_scalar(TypeKind k) {
  static Type scalars[TY_BOOL + 1];
  scalars[k].kind = k;
  return &scalars[k];
}

Type *type_array(Type *elem, Nat *len) {
  Type *t = NEW(Type);
  t->kind = TY_ARRAY; t->elem = elem; t->len = len;
  return t;
}

Type *type_dep_array(NatVar *index, Type *elem, Nat *len) {
  Type *t = type_array(elem, len);
  t->index = index;
  return t;
}

Type *type_tuple(int n, Type **fields) {
  Type *t = NEW(Type);
  t->kind = TY_TUPLE; t->n = n; t->fields = NEW_ARRAY(Type *, n);
  memcpy(t->fields, fields, sizeof(Type *) * (size_t)n);
  return t;
}

Type *type_tuple2(Type *a, Type *b) { Type *f[2] = { a, b }; return type_tuple(2, f); }

Type *type_vector(Type *elem, int width) {
  Type *t = NEW(Type);
  t->kind = TY_VECTOR; t->elem = elem; t->width = width;
  return t;
}

Type *type_idx(Nat *bound) {
  Type *t = NEW(Type);
  t->kind = TY_IDX; t->len = bound;
  return t;
}

Type *type_exists(NatVar *exvar, Type *array) {
  Type *t = NEW(Type);
  t->kind = TY_EXISTS; t->exvar = exvar; t->array = array;
  return t;
}

bool type_is_scalar(Type *t) { return t->kind <= TY_BOOL; }
bool type_is_numeric(Type *t) { return t->kind <= TY_DOUBLE; }
bool type_is_float(Type *t) {
  Type *s = type_scalar_of(t);
  return s->kind == TY_FLOAT || s->kind == TY_DOUBLE;
}
Type *type_scalar_of(Type *t) { return t->kind == TY_VECTOR ? t->elem : t; }

bool type_equal(Type *a, Type *b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case TY_ARRAY:
    if (!nat_equal(a->len, b->len)) return false;
    /* [i -> T]n vs [j -> U]n: compare with the position variables identified. */
    if (a->index && b->index)
      return type_equal(a->elem, type_subst(b->elem, b->index, nat_var(a->index)));
    if (a->index) return !type_mentions(a->elem, a->index) && type_equal(a->elem, b->elem);
    if (b->index) return !type_mentions(b->elem, b->index) && type_equal(a->elem, b->elem);
    return type_equal(a->elem, b->elem);
  case TY_TUPLE:
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; i++)
      if (!type_equal(a->fields[i], b->fields[i])) return false;
    return true;
  case TY_VECTOR: return a->width == b->width && type_equal(a->elem, b->elem);
  case TY_IDX: return nat_equal(a->len, b->len);
  case TY_EXISTS:
    /* Two existentials are equal when their bodies agree after renaming the hidden length. */
    return type_equal(a->array, type_subst(b->array, b->exvar, nat_var(a->exvar)));
  default: return true;
  }
}

Type *type_subst(Type *t, NatVar *v, Nat *by) {
  Type *r;
  switch (t->kind) {
  case TY_ARRAY:
    r = type_array(type_subst(t->elem, v, by), nat_subst(t->len, v, by));
    r->index = t->index;
    return r;
  case TY_TUPLE: {
    Type **f = NEW_ARRAY(Type *, t->n);
    for (int i = 0; i < t->n; i++) f[i] = type_subst(t->fields[i], v, by);
    return type_tuple(t->n, f);
  }
  case TY_VECTOR: return t;
  case TY_IDX: return type_idx(nat_subst(t->len, v, by));
  case TY_EXISTS: return type_exists(t->exvar, type_subst(t->array, v, by));
  default: return t;
  }
}

Type *type_elem_at(Type *t, Nat *i) {
  if (t->kind == TY_EXISTS) t = t->array;
  return t->index && i ? type_subst(t->elem, t->index, i) : t->elem;
}

bool type_mentions(Type *t, NatVar *v) {
  switch (t->kind) {
  case TY_ARRAY: return nat_mentions(t->len, v) || type_mentions(t->elem, v);
  case TY_TUPLE:
    for (int i = 0; i < t->n; i++) if (type_mentions(t->fields[i], v)) return true;
    return false;
  case TY_IDX: return nat_mentions(t->len, v);
  case TY_EXISTS: return type_mentions(t->array, v);
  default: return false;
  }
}

Type *type_innermost(Type *t) {
  while (t->kind == TY_ARRAY) t = t->elem;
  return t;
}

bool type_has_exists(Type *t) { return type_innermost(t)->kind == TY_EXISTS; }

Type *type_exists_upper(Type *t) {
  if (t->kind == TY_ARRAY) {
    Type *e = type_exists_upper(t->elem);
    if (!e || e == t->elem) return e ? t : NULL;
    Type *r = type_array(e, t->len);
    r->index = t->index;
    return r;
  }
  if (t->kind != TY_EXISTS) return t;
  if (!t->exvar->hi || type_has_exists(t->array->elem)) return NULL;
  return type_subst(t->array, t->exvar, t->exvar->hi);
}

Type *type_exists_lens(Type *t) {
  return t->kind == TY_ARRAY ? type_array(type_exists_lens(t->elem), t->len) : type_scalar(TY_INT);
}

const char *type_scalar_name(TypeKind k) {
  switch (k) {
  case TY_INT: return "int";
  case TY_LONG: return "long";
  case TY_FLOAT: return "float";
  case TY_DOUBLE: return "double";
  case TY_BOOL: return "bool";
  default: return "?";
  }
}

/* Lengths print in C infix form, parenthesised unless atomic: [[float]4](N / 4). */
static void print_len(Buf *b, Nat *n) {
  /* an `if` prints parenthesised already: [float](k < 1 ? 1 : N - 1) */
  if (n->kind == NAT_CONST || n->kind == NAT_VAR || n->kind == NAT_IF) { nat_print_c(b, n); return; }
  buf_putc(b, '(');
  nat_print_c(b, n);
  buf_putc(b, ')');
}

static void type_print(Buf *b, Type *t) {
  switch (t->kind) {
  case TY_ARRAY:
    buf_putc(b, '[');
    if (t->index) buf_printf(b, "%s -> ", t->index->name);
    type_print(b, t->elem);
    buf_putc(b, ']');
    print_len(b, t->len);
    break;
  case TY_TUPLE:
    buf_putc(b, '(');
    for (int i = 0; i < t->n; i++) { if (i) buf_puts(b, " x "); type_print(b, t->fields[i]); }
    buf_putc(b, ')');
    break;
  case TY_VECTOR: buf_printf(b, "%s%d", type_scalar_name(t->elem->kind), t->width); break;
  case TY_IDX: buf_puts(b, "idx("); print_len(b, t->len); buf_putc(b, ')'); break;
  case TY_EXISTS:
    buf_printf(b, "{∃%s. ", t->exvar->name);
    type_print(b, t->array);
    buf_putc(b, '}');
    break;
  default: buf_puts(b, type_scalar_name(t->kind));
  }
}

const char *type_to_string(Type *t) {
  Buf b = {0};
  type_print(&b, t);
  return buf_str(&b);
}
