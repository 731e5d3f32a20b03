/* c_expr.c — scalar expressions in C syntax (shared by the C-family printers).
   `cl` selects the OpenCL C spelling where it differs from C: type names (int,
   long, float4), overloaded math builtins, vload/vector literals. */
#include "codegen.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void codegen_nat(Buf *b, Nat *n) { nat_print_c(b, n); }

static const char *type_name(Type *t, bool cl);

const char *codegen_ctype(Type *t) { return type_name(t, false); }
const char *codegen_cltype(Type *t) { return type_name(t, true); }

static const char *type_name(Type *t, bool cl) {
  if (cl && t->kind == TY_VECTOR) return arena_printf("%s%d", type_name(t->elem, true), t->width);
  if (cl && (t->kind == TY_INT || t->kind == TY_IDX)) return "int";
  if (cl && t->kind == TY_LONG) return "long";
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
    for (int i = 0; i < t->n; i++) buf_printf(&b, "_%s", type_name(t->fields[i], false));
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

/* OpenCL C: the math builtins are overloaded (and apply to vectors, with a
   scalar broadcast); integer abs goes through a helper because the builtin
   returns an unsigned type. */
static const char *cl_function(ScalarOp op, Type *t) {
  bool fl = type_is_float(t);
  switch (op) {
  case OP_MOD: return "fmod";
  case OP_POW: return "pow";
  case OP_SQRT: return "sqrt";
  case OP_EXP: return "exp";
  case OP_LOG: return "log";
  case OP_SIN: return "sin";
  case OP_COS: return "cos";
  case OP_TAN: return "tan";
  case OP_FLOOR: return "floor";
  case OP_CEIL: return "ceil";
  case OP_ABS: return fl ? "fabs" : arena_printf("clift_abs_%s", type_name(t, true));
  case OP_MIN: return fl ? "fmin" : "min";
  case OP_MAX: return fl ? "fmax" : "max";
  default: return NULL;
  }
}

/* Functions by operator, for float / double / integers. */
static const char *op_function(ScalarOp op, Type *t, bool cl) {
  bool f = t->kind == TY_FLOAT, d = t->kind == TY_DOUBLE;
  if (op == OP_CHECK_INDEX) return "clift_check_index";   /* defined in each prelude */
  if (cl) return cl_function(op, t);
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

static const char *cast_type(ScalarOp op, bool cl) {
  switch (op) {
  case OP_I2F: case OP_D2F: return "float";
  case OP_I2D: case OP_F2D: return "double";
  case OP_F2I: case OP_D2I: case OP_L2I: return cl ? "int" : "int32_t";
  case OP_I2L: return cl ? "long" : "int64_t";
  default: return NULL;
  }
}

static void print_exp(Buf *b, CExp *e, bool cl);

static void print_args(Buf *b, CExp *e, bool cl) {
  for (int i = 0; i < e->n; i++) { if (i) buf_puts(b, ", "); print_exp(b, e->args[i], cl); }
}

static void print_op(Buf *b, CExp *e, bool cl) {
  const char *sym = op_symbol(e->op);
  Type *operand = e->args[0]->type;
  if (e->op == OP_MOD && !type_is_float(operand)) sym = "%";
  if (sym && e->n == 2) {
    buf_putc(b, '(');
    print_exp(b, e->args[0], cl);
    buf_printf(b, " %s ", sym);
    print_exp(b, e->args[1], cl);
    buf_putc(b, ')');
    return;
  }
  if (e->op == OP_NOT) { buf_puts(b, "!"); print_exp(b, e->args[0], cl); return; }
  const char *cast = cast_type(e->op, cl);
  if (cast) { buf_printf(b, "(%s)", cast); print_exp(b, e->args[0], cl); return; }
  buf_printf(b, "%s(", op_function(e->op, type_scalar_of(operand), cl));
  print_args(b, e, cl);
  buf_putc(b, ')');
}

static void print_access(Buf *b, CExp *e) {
  buf_printf(b, "%s[", e->buf->name);
  codegen_nat(b, e->nat);
  buf_putc(b, ']');
  if (e->field >= 0) buf_printf(b, ".f%d", e->field);
}

/* A vector load: OpenCL's vloadN (any alignment, any address space); in C an
   unaligned vector type read through the address. */
static void print_vload(Buf *b, CExp *e, bool cl) {
  if (cl) {
    buf_printf(b, "vload%d(0, &", e->type->width);
    print_access(b, e);
    buf_putc(b, ')');
    return;
  }
  buf_printf(b, "(*(%su *)&", codegen_ctype(e->type));
  print_access(b, e);
  buf_putc(b, ')');
}

static void print_exp(Buf *b, CExp *e, bool cl) {
  switch (e->kind) {
  case CE_LIT:
    if (e->type->kind == TY_FLOAT || e->type->kind == TY_DOUBLE) print_float(b, e->fval, e->type->kind == TY_FLOAT);
    else if (e->type->kind == TY_BOOL) buf_puts(b, e->ival ? "true" : "false");
    else buf_printf(b, e->ival < 0 ? "(%lld)" : "%lld", e->ival);
    break;
  case CE_NAT:
    buf_printf(b, "(%s)(", type_name(e->type, cl));
    codegen_nat(b, e->nat);
    buf_putc(b, ')');
    break;
  case CE_VAR: buf_puts(b, e->name); break;
  case CE_READ: print_access(b, e); break;
  case CE_VLOAD: print_vload(b, e, cl); break;
  case CE_LANE:
    buf_putc(b, '(');
    print_exp(b, e->args[0], cl);
    buf_puts(b, ")[");
    codegen_nat(b, e->nat);
    buf_putc(b, ']');
    break;
  case CE_OP: print_op(b, e, cl); break;
  case CE_SELECT:
    buf_putc(b, '(');
    print_exp(b, e->args[0], cl);
    buf_puts(b, " ? ");
    print_exp(b, e->args[1], cl);
    buf_puts(b, " : ");
    print_exp(b, e->args[2], cl);
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
    buf_printf(b, cl ? "(%s)(" : "(%s){", type_name(e->type, cl));
    print_args(b, e, cl);
    buf_putc(b, cl ? ')' : '}');
    break;
  }
}

void codegen_cexp(Buf *b, CExp *e) { print_exp(b, e, false); }
void codegen_clexp(Buf *b, CExp *e) { print_exp(b, e, true); }
