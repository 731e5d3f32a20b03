/* program.c — a typed program becomes one kernel: the entry's buffers (output
   first, then the inputs), scalar inputs as named values, and the body
   A(program body)(output), followed by the race check. */
#include "dpia.h"
#include "../lower/lower.h"
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
   tuple holding arrays has no such layout. */
static bool storable(Type *t) {
  if (t->kind == TY_ARRAY) return storable(t->elem);
  if (t->kind == TY_TUPLE)
    for (int i = 0; i < t->n; i++)
      if (t->fields[i]->kind == TY_ARRAY || t->fields[i]->kind == TY_EXISTS || !storable(t->fields[i])) return false;
  return t->kind != TY_EXISTS;
}

static Buffer *add_buffer(Kernel *k, const char *name, Type *t, int index) {
  Buffer *b = NEW(Buffer);
  b->name = name; b->type = t; b->space = SPACE_GLOBAL; b->is_param = true; b->param_index = index;
  k->bufs[k->nbufs++] = b;
  return b;
}

Kernel *dpia_translate(Program *p, const char *target) {
  /* default strategies first (SPEC §1: "lower strategy"), on a re-typed copy */
  if (!(p = lower_program(p))) return NULL;
  for (int i = 0; i < p->nsizes; i++)
    if (!c_identifier_ok(p->sizes[i]->name)) {
      diag_error(p->loc, "size variable '%s' cannot be used in generated code: rename it to a C identifier", p->sizes[i]->name);
      return NULL;
    }
  for (int i = 0; i <= p->nparams; i++) {
    Type *t = i < p->nparams ? p->params[i].type : p->result;
    if (!storable(t)) {
      diag_error(p->loc, "not supported on %s: a %s holding a tuple of arrays (%s %s)", target,
                 i < p->nparams ? "parameter" : "result", i < p->nparams ? p->params[i].name : "of type",
                 i < p->nparams ? type_to_string(t) : type_to_string(t));
      return NULL;
    }
  }
  Kernel *k = NEW(Kernel);
  k->prog = p;
  k->bufs = NEW_ARRAY(Buffer *, p->nparams + 1);
  k->scalar_names = NEW_ARRAY(const char *, p->nparams);
  k->scalar_types = NEW_ARRAY(Type *, p->nparams);
  k->scalar_params = NEW_ARRAY(int, p->nparams);
  Tr tr = { .k = k, .block = kstmt_block(), .target = target };
  k->body = tr.block;
  Buffer *out = add_buffer(k, "out", p->result, 0);
  for (int i = 0; i < p->nparams; i++) {
    Type *t = p->params[i].type;
    View *v;
    if (type_is_value(t)) {
      k->scalar_names[k->nscalars] = param_name(p, i);
      k->scalar_types[k->nscalars] = t;
      k->scalar_params[k->nscalars++] = i + 1;
      v = view_scalar(cexp_var(param_name(p, i), t));
    } else {
      v = view_buf(add_buffer(k, param_name(p, i), t, i + 1));
    }
    Binding *b = NEW(Binding);
    b->uid = p->params[i].uid; b->view = v; b->next = tr.env;
    tr.env = b;
  }
  if (!dpia_acc(&tr, p->body, acc_buf(out))) return NULL;
  return dpia_race_check(k->body) ? k : NULL;
}
