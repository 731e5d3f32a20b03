/* program.c — a typed program becomes one kernel: the entry's buffers (output
   first, then the inputs), scalar inputs as named values, and the body
   A(program body)(output), followed by the race check. */
#include "dpia.h"
#include "../layout/layout.h"   /* the flat layout: where a split tuple's fields are */
#include <ctype.h>
#include <string.h>

static bool c_identifier_ok(const char *s) {
  static const char *reserved[] = { "out", "buffers", "sizes", "int", "long", "float", "double", "char",
    "for", "if", "else", "while", "do", "return", "void", "const", "static", "restrict", "bool", "main",
    "min", "max", "abs", NULL };
  if (!isalpha((unsigned char)s[0]) && s[0] != '_') return false;
  for (const char *p = s; *p; p++) if (!isalnum((unsigned char)*p) && *p != '_') return false;
  for (int i = 0; reserved[i]; i++) if (strcmp(s, reserved[i]) == 0) return false;
  return strncmp(s, "clift_", 6) != 0;
}

static const char *param_name(Program *p, int i) {
  const char *n = p->params[i].name;
  return c_identifier_ok(n) ? n : arena_printf("in%d", i + 1);
}

/* Buffers hold arrays of scalars, vectors or tuples of those (C structs); a
   tuple holding arrays is split into one buffer per field (layout/layout.c), and
   an array of them is the split tuple of its fields' arrays (layout_soa), but not
   under a position-dependent level. */
static bool storable(Type *t, bool in_array) {
  if (layout_soa_depth(t)) return storable(layout_soa(t), in_array);
  if (t->kind == TY_ARRAY) return storable(t->elem, true);
  if (t->kind == TY_TUPLE) {
    if (in_array && layout_split_tuple(t)) return false;
    for (int i = 0; i < t->n; i++) if (!storable(t->fields[i], in_array) || exists_in(t->fields[i])) return false;
  }
  return t->kind != TY_EXISTS || storable(t->array, in_array);
}

static bool exists_in_tuple(Type *t) {
  if (t->kind == TY_ARRAY) return exists_in_tuple(t->elem);
  for (int i = 0; t->kind == TY_TUPLE && i < t->n; i++)
    if (exists_in(t->fields[i]) || exists_in_tuple(t->fields[i])) return true;
  return false;
}



static Buffer *add_buffer(Kernel *k, const char *name, Type *t, int index) {
  Buffer *b = kernel_new_buffer(k, name, t, SPACE_GLOBAL);
  b->is_param = true; b->param_index = index;
  return b;
}

/* A parameter or result of type t in buffer `base` at byte offset `offset`:
   a split tuple is a tuple of its fields' buffers (views and acceptors), an array
   of them (depth > 0) the structure of its fields' arrays, as a temporary's
   (dpia_new, translate.c). */
static void param_storage(Kernel *k, Buffer *base, const char *name, Type *t, Nat *offset, View **view, Acc **acc) {
  int depth = layout_soa_depth(t);
  Type *s = layout_soa(t);
  if (!layout_split_tuple(s)) {
    Buffer *b = base;
    if (offset) {
      b = add_buffer(k, name, t, base->param_index);
      b->base = base; b->offset = offset;
    }
    *view = view_buf(b);
    *acc = acc_buf(b);
    return;
  }
  base->split = base->split || !offset;
  View *v = view_new(depth ? V_SOA : V_TUPLE, t, s->n);
  Acc *a = acc_soa(t, depth, s->n);
  v->k = depth;
  for (int f = 0; f < s->n; f++) {
    Nat *at = nat_add(offset ? offset : nat_const(0), layout_split_offset_nat(s, f));
    param_storage(k, base, arena_printf("%s_f%d", name, f), s->fields[f], at, &v->kids[f], &a->kids[f]);
  }
  *view = v; *acc = a;
}

static Kernel *translate(Program *p, const GenOptions *g, bool *priv_failed);

/* With privatisation (privatise.c), a partitioned accumulator accessed any
   other way makes the whole translation start again: with the accumulator
   copied into local memory after its loop (a reader outside the partition,
   such as the work-group's result written by every work-item), then without
   privatisation. */
Kernel *dpia_translate(Program *p, const GenOptions *g) {
  bool priv_failed = false;
  Kernel *k = translate(p, g, &priv_failed);
  if (!priv_failed) return k;
  GenOptions retry = *g;
  retry.priv_copy_out = true;
  k = translate(p, &retry, &priv_failed);
  if (!priv_failed) return k;
  retry.privatise = false;
  return translate(p, &retry, &priv_failed);
}

static Kernel *translate(Program *p, const GenOptions *g, bool *priv_failed) {
  static const GenOptions defaults = { .peel = PEEL_AUTO };
  for (int i = 0; i < p->nsizes; i++)
    if (program_size_param(p, i) < 0 && !c_identifier_ok(p->sizes[i]->name)) {   /* a value size's is clift_… */
      diag_error(p->loc, "size variable '%s' cannot be used in generated code: rename it to a C identifier", p->sizes[i]->name);
      return NULL;
    }
  for (int i = 0; i <= p->nparams; i++) {
    Type *t = i < p->nparams ? p->params[i].type : p->result;
    if (!storable(t, false)) {
      diag_unsupported(p->loc, "a %s holding %s (%s %s)", i < p->nparams ? "parameter" : "result",
                 exists_in_tuple(t) ? "a tuple of dynamic-length arrays" : "an array of tuples of arrays",
                 i < p->nparams ? p->params[i].name : "of type", type_to_string(t));
      return NULL;
    }
    /* what the runtime would refuse before a run (layout.c), refused before code is
       printed: `compile --print` never shows code for a layout no target stores (F48) */
    if (!layout_type_supported(t, i < p->nparams ? arena_printf("input %d (%s)", i + 1, p->params[i].name) : "the result"))
      return NULL;
  }
  Kernel *k = NEW(Kernel);
  k->prog = p;
  k->bufs = NULL;
  k->pipeline = g && g->pipeline;
  k->double_buffer = g && g->double_buffer;
  k->unroll = g && g->unroll;
  k->scalar_names = NEW_ARRAY(const char *, p->nparams);
  k->scalar_types = NEW_ARRAY(Type *, p->nparams);
  k->scalar_params = NEW_ARRAY(int, p->nparams);
  Tr tr = { .k = k, .block = kstmt_block(), .gen = g ? g : &defaults };
  k->body = tr.block;
  View *out_view; Acc *out_acc;   /* the result is only written */
  Type *res = exists_upper(p->result);
  if (!res) return NULL;
  Buffer *out = add_buffer(k, "out", res, 0);
  param_storage(k, out, "out", res, NULL, &out_view, &out_acc);
  if (res != p->result) {   /* its lengths after the data (layout.c): a buffer of their own at that offset */
    Type *lens = exists_lens(p->result);
    Buffer *lb = add_buffer(k, "out_len", lens->kind == TY_ARRAY ? lens : type_array(lens, nat_const(1)), 0);
    lb->base = out; lb->offset = layout_lens_offset_nat(p->result);
    Acc *a = NEW(Acc);
    *a = *out_acc;
    a->type = p->result;
    a->len = lens->kind == TY_ARRAY ? acc_buf(lb) : acc_idx(acc_buf(lb), nat_const(0));
    out_acc = a;
  }
  for (int i = 0; i < p->nparams; i++) {
    Type *t = p->params[i].type;
    View *v;
    if (type_is_value(t)) {
      k->scalar_names[k->nscalars] = param_name(p, i);
      k->scalar_types[k->nscalars] = t;
      k->scalar_params[k->nscalars++] = i + 1;
      v = view_scalar(cexp_var(param_name(p, i), t));
    } else {
      Acc *unused;
      param_storage(k, add_buffer(k, param_name(p, i), t, i + 1), param_name(p, i), t, NULL, &v, &unused);
    }
    Binding *b = NEW(Binding);
    b->uid = p->params[i].uid; b->view = v; b->next = tr.env;
    tr.env = b;
  }
  bool ok = dpia_acc(&tr, p->body, out_acc);
  *priv_failed = tr.priv_failed;
  if (!ok || tr.refused || tr.priv_failed) return NULL;
  return dpia_race_check(k->body, p->loc) ? k : NULL;
}
