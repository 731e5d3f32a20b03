/* c_expr.c — scalar expressions in C syntax (shared by the C-family printers). */
#include "codegen.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void codegen_nat(Buf *b, Nat *n) { nat_print_c(b, n); }

const char *codegen_ctype(Type *t) {
  switch (t->kind) {
  case TY_INT: case TY_IDX: return "int32_t";
  case TY_LONG: return "int64_t";
  case TY_FLOAT: return "float";
  case TY_DOUBLE: return "double";
  case TY_BOOL: return "bool";
  case TY_VECTOR: return arena_printf("clift_%s%d", t->elem->kind == TY_INT ? "int" : t->elem->kind == TY_LONG ? "long" : type_scalar_name(t->elem->kind), t->width);
  case TY_TUPLE: {
    Buf b = {0};
    buf_puts(&b, "clift_tuple");
    for (int i = 0; i < t->n; i++) buf_printf(&b, "_%s", codegen_ctype(t->fields[i]));
    return buf_str(&b);
  }
  default: return "void";
  }
}

static void print_float(Buf *b, double v, bool single) {
  if (isnan(v)) { buf_puts(b, single ? "NAN" : "(double)NAN"); return; }
  if (isinf(v)) { buf_printf(b, "%s%s", v < 0 ? "-" : "", single ? "INFINITY" : "(double)INFINITY"); return; }
  char tmp[64];
  snprintf(tmp, sizeof tmp, single ? "%.9g" : "%.17g", v);
  bool has_point = strpbrk(tmp, ".e") != NULL;
  buf_printf(b, "%s%s%s%s", v < 0 ? "(" : "", tmp, has_point ? "" : ".0", single ? "f" : "");
  if (v < 0) buf_putc(b, ')');
}

static const char *op_symbol(ScalarOp op) {
  switch (op) {
  case OP_ADD: return "+"; case OP_SUB: return "-"; case OP_MUL: return "*"; case OP_DIV: return "/";
  case OP_LT: return "<"; case OP_LE: return "<="; case OP_GT: return ">"; case OP_GE: return ">=";
  case OP_EQ: return "=="; case OP_NE: return "!="; case OP_AND: return "&&"; case OP_OR: return "||";
  default: return NULL;
  }
}

/* Functions by operator, for float / double / integers. */
static const char *op_function(ScalarOp op, Type *t) {
  bool f = t->kind == TY_FLOAT, d = t->kind == TY_DOUBLE;
  switch (op) {
  case OP_MOD: return f ? "fmodf" : d ? "fmod" : NULL;
  case OP_POW: return f ? "powf" : "pow";
  case OP_SQRT: return f ? "sqrtf" : "sqrt";
  case OP_EXP: return f ? "expf" : "exp";
  case OP_LOG: return f ? "logf" : "log";
  case OP_SIN: return f ? "sinf" : "sin";
  case OP_COS: return f ? "cosf" : "cos";
  case OP_TAN: return f ? "tanf" : "tan";
  case OP_FLOOR: return f ? "floorf" : "floor";
  case OP_CEIL: return f ? "ceilf" : "ceil";
  case OP_ABS: return arena_printf("clift_abs_%s", codegen_ctype(t));
  case OP_MIN: return arena_printf("clift_min_%s", codegen_ctype(t));
  case OP_MAX: return arena_printf("clift_max_%s", codegen_ctype(t));
  default: return NULL;
  }
}

static const char *cast_type(ScalarOp op) {
  switch (op) {
  case OP_I2F: case OP_D2F: return "float";
  case OP_I2D: case OP_F2D: return "double";
  case OP_F2I: case OP_D2I: case OP_L2I: return "int32_t";
  case OP_I2L: return "int64_t";
  default: return NULL;
  }
}

void codegen_cexp(Buf *b, CExp *e);

static void print_args(Buf *b, CExp *e) {
  for (int i = 0; i < e->n; i++) { if (i) buf_puts(b, ", "); codegen_cexp(b, e->args[i]); }
}

static void print_op(Buf *b, CExp *e) {
  const char *sym = op_symbol(e->op);
  Type *operand = e->args[0]->type;
  if (e->op == OP_MOD && !type_is_float(operand)) sym = "%";
  if (sym && e->n == 2) {
    buf_putc(b, '(');
    codegen_cexp(b, e->args[0]);
    buf_printf(b, " %s ", sym);
    codegen_cexp(b, e->args[1]);
    buf_putc(b, ')');
    return;
  }
  if (e->op == OP_NOT) { buf_puts(b, "!"); codegen_cexp(b, e->args[0]); return; }
  const char *cast = cast_type(e->op);
  if (cast) { buf_printf(b, "(%s)", cast); codegen_cexp(b, e->args[0]); return; }
  buf_printf(b, "%s(", op_function(e->op, type_scalar_of(operand)));
  print_args(b, e);
  buf_putc(b, ')');
}

static void print_access(Buf *b, CExp *e) {
  buf_printf(b, "%s[", e->buf->name);
  codegen_nat(b, e->nat);
  buf_putc(b, ']');
  if (e->field >= 0) buf_printf(b, ".f%d", e->field);
}

void codegen_cexp(Buf *b, CExp *e) {
  switch (e->kind) {
  case CE_LIT:
    if (e->type->kind == TY_FLOAT || e->type->kind == TY_DOUBLE) print_float(b, e->fval, e->type->kind == TY_FLOAT);
    else if (e->type->kind == TY_BOOL) buf_puts(b, e->ival ? "true" : "false");
    else buf_printf(b, e->ival < 0 ? "(%lld)" : "%lld", e->ival);
    break;
  case CE_NAT:
    buf_printf(b, "(%s)(", codegen_ctype(e->type));
    codegen_nat(b, e->nat);
    buf_putc(b, ')');
    break;
  case CE_VAR: buf_puts(b, e->name); break;
  case CE_READ: print_access(b, e); break;
  case CE_VLOAD:
    buf_printf(b, "(*(%su *)&", codegen_ctype(e->type));
    print_access(b, e);
    buf_putc(b, ')');
    break;
  case CE_LANE:
    buf_putc(b, '(');
    codegen_cexp(b, e->args[0]);
    buf_puts(b, ")[");
    codegen_nat(b, e->nat);
    buf_putc(b, ']');
    break;
  case CE_OP: print_op(b, e); break;
  case CE_SELECT:
    buf_putc(b, '(');
    codegen_cexp(b, e->args[0]);
    buf_puts(b, " ? ");
    codegen_cexp(b, e->args[1]);
    buf_puts(b, " : ");
    codegen_cexp(b, e->args[2]);
    buf_putc(b, ')');
    break;
  case CE_NAT_LT:
    buf_putc(b, '(');
    codegen_nat(b, e->nat);
    buf_puts(b, " < ");
    codegen_nat(b, e->nat2);
    buf_putc(b, ')');
    break;
  case CE_VEC:
    buf_printf(b, "(%s){", codegen_ctype(e->type));
    print_args(b, e);
    buf_putc(b, '}');
    break;
  }
}
