/* c_expr.c — scalar expressions in C syntax (shared by the C-family printers).
   The flavour selects the spelling where the languages differ: OpenCL C (type
   names int, long, float4; overloaded math builtins; vload; vector literals)
   and CUDA C++ (long long, float4 without operators: lanes and arithmetic go
   through helpers of the CUDA prelude, cuda_print.c). */
#include "codegen.h"
#include "../layout/layout.h"   /* layout_scalar_bytes */
#include "../syntax/ast.h"   /* the size conditions (codegen_assume_size_conditions) */
#include <math.h>
#include <stdio.h>
#include <string.h>

void codegen_nat(Buf *b, Nat *n) { nat_print_c(b, n); }

typedef enum { FL_C, FL_CL, FL_CUDA } Flavour;

static const char *type_name(Type *t, Flavour fl);

const char *codegen_ctype(Type *t) { return type_name(t, FL_C); }
const char *codegen_cltype(Type *t) { return type_name(t, FL_CL); }
const char *codegen_cudatype(Type *t) { return type_name(t, FL_CUDA); }

/* CUDA's built-in vector types (float4 …) where one exists and is not
   deprecated (CUDA 13 deprecates the 4-wide 64-bit ones); other widths are
   structs of the prelude named clift_float8 etc. */
bool codegen_cuda_builtin_vector(Type *t) {
  TypeKind e = t->elem->kind;
  return (e == TY_FLOAT || e == TY_INT) ? t->width <= 4 : e == TY_DOUBLE ? t->width <= 3 : false;
}

static const char *type_name(Type *t, Flavour fl) {
  if (fl == FL_CL && t->kind == TY_VECTOR) return arena_printf("%s%d", type_name(t->elem, fl), t->width);
  if (fl == FL_CUDA && t->kind == TY_VECTOR)
    return arena_printf("%s%s%d", codegen_cuda_builtin_vector(t) ? "" : "clift_", type_scalar_name(t->elem->kind), t->width);
  if (fl != FL_C && (t->kind == TY_INT || t->kind == TY_IDX)) return "int";
  if (fl != FL_C && t->kind == TY_LONG) return fl == FL_CL ? "long" : "long long";
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
    for (int i = 0; i < t->n; i++) buf_printf(&b, "_%s", type_name(t->fields[i], FL_C));
    return buf_str(&b);
  }
  default: return "void";
  }
}

/* A 64-bit literal with its suffix, so that arithmetic between literals is
   64-bit too (`100000L * 100000L`): L in C (LP64) and OpenCL, ll in CUDA.
   The most negative long has no literal: it is written as MIN + 1 - 1. */
static void print_long(Buf *b, long long v, Flavour fl) {
  const char *l = fl == FL_CUDA ? "ll" : "L";
  if (v == INT64_MIN) buf_printf(b, "(%lld%s - 1%s)", v + 1, l, l);
  else buf_printf(b, v < 0 ? "(%lld%s)" : "%lld%s", v, l);
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
  case OP_BITAND: return "&"; case OP_BITOR: return "|"; case OP_BITXOR: return "^";
  default: return NULL;
  }
}

/* The math library's function of each operator: C and CUDA add the f of
   float; OpenCL C's builtins are overloaded (and apply to vectors, with a
   scalar broadcast). c_print.c and cuda_print.c declare the vector forms of
   the same rows (codegen_libm_at). */
static const struct { ScalarOp op; const char *name; int arity; } libm[] = {
  { OP_POW, "pow", 2 }, { OP_MOD, "fmod", 2 }, { OP_SQRT, "sqrt", 1 }, { OP_EXP, "exp", 1 }, { OP_LOG, "log", 1 },
  { OP_SIN, "sin", 1 }, { OP_COS, "cos", 1 }, { OP_TAN, "tan", 1 }, { OP_FLOOR, "floor", 1 }, { OP_CEIL, "ceil", 1 },
  { OP_ASIN, "asin", 1 }, { OP_ACOS, "acos", 1 }, { OP_ATAN, "atan", 1 }, { OP_SINH, "sinh", 1 }, { OP_COSH, "cosh", 1 },
  { OP_TANH, "tanh", 1 }, { OP_ASINH, "asinh", 1 }, { OP_ACOSH, "acosh", 1 }, { OP_ATANH, "atanh", 1 },
};

const char *codegen_libm_at(int i, int *arity) {
  if (i < 0 || (size_t)i >= sizeof libm / sizeof libm[0]) return NULL;
  *arity = libm[i].arity;
  return libm[i].name;
}

static const char *libm_name(ScalarOp op) {
  for (size_t i = 0; i < sizeof libm / sizeof libm[0]; i++) if (libm[i].op == op) return libm[i].name;
  return NULL;
}

/* Functions by operator, for float / double / integers. OpenCL: integer abs
   goes through a helper because the builtin returns an unsigned type; min and
   max of reals are the prelude's a < b ? a : b on every target, NaN included
   (fmin/fmax would drop a NaN where C and the interpreter keep it); of integers,
   OpenCL's prelude selects by a mask (clift_min_int …, clift_vmin on vectors),
   because NVIDIA's ptxas miscompiles chains of 32-bit min/max (FINDINGS F36).
   CUDA: min/max/abs overloaded in its prelude (vectors too; int's by a mask).
   factorial and binomial: the checked helpers of every prelude (stmt_print.c),
   the site last. `vector`: an operand is a vector. */
static const char *op_function(ScalarOp op, Type *t, Flavour fl, bool vector) {
  bool f = t->kind == TY_FLOAT;
  if (op == OP_CHECK_INDEX) return "clift_check_index";   /* defined in each prelude */
  if (op == OP_CHECK_F2I || op == OP_CHECK_D2I) return op == OP_CHECK_F2I ? "clift_f2i" : "clift_d2i";
  if (op == OP_CHECK_DIV || op == OP_CHECK_MOD)
    return arena_printf("clift_%s_i%d", op == OP_CHECK_DIV ? "div" : "mod", t->kind == TY_LONG ? 64 : 32);
  if (op == OP_CHECK_LENGTH) return "clift_check_length";
  if (op == OP_FACTORIAL || op == OP_BINOMIAL) return op == OP_FACTORIAL ? "clift_factorial" : "clift_binomial";
  if (op == OP_ABS || op == OP_MIN || op == OP_MAX) {
    const char *name = op == OP_ABS ? "abs" : op == OP_MIN ? "min" : "max";
    if (fl == FL_CL && op == OP_ABS) return type_is_float(t) ? "fabs" : arena_printf("clift_abs_%s", type_name(t, true));
    if (fl == FL_CL && type_is_float(t)) return op == OP_MIN ? "clift_fmin" : "clift_fmax";
    if (fl == FL_CL) return vector ? arena_printf("clift_v%s", name) : arena_printf("clift_%s_%s", name, type_name(t, fl));
    if (fl == FL_CUDA) return arena_printf("clift_%s", name);
    return arena_printf("clift_%s_%s", name, codegen_ctype(t));
  }
  /* pow of scalars: the prelude's exact clift_pow (FINDINGS F29); vectors: the library's */
  if (op == OP_POW && t->kind != TY_VECTOR) return f ? "clift_powf" : "clift_pow";
  const char *name = libm_name(op);
  if (!name || fl == FL_CL || !f) return name;
  return arena_printf("%sf", name);
}

static const char *cast_type(ScalarOp op, Flavour fl) {
  switch (op) {
  case OP_I2F: case OP_D2F: return "float";
  case OP_I2D: case OP_F2D: return "double";
  case OP_F2I: case OP_D2I: case OP_L2I: return fl == FL_C ? "int32_t" : "int";
  case OP_I2L: return fl == FL_C ? "int64_t" : fl == FL_CL ? "long" : "long long";
  default: return NULL;
  }
}

/* OpenCL's float3 occupies 16 bytes; a global buffer of 3-lane vectors is
   packed (12 bytes, as on the host): it is a float buffer read and written
   with vload3/vstore3. */
bool codegen_cl_packed3(CExp *e) {
  return e->kind == CE_READ && e->field < 0 && e->type->kind == TY_VECTOR && e->type->width == 3 &&
         e->buf->space == SPACE_GLOBAL;
}

static void print_exp(Buf *b, CExp *e, Flavour fl);

static void print_args(Buf *b, CExp *e, Flavour fl) {
  for (int i = 0; i < e->n; i++) { if (i) buf_puts(b, ", "); print_exp(b, e->args[i], fl); }
}

/* Can e be evaluated whether or not the program asks for it: no read (an
   index guarded by the other operand), no check, no trapping integer division,
   no out-of-range conversion, and cheap (at most `*budget` nodes, no libm call)? */
static bool eager_safe(CExp *e, int *budget) {
  if (--*budget < 0) return false;
  switch (e->kind) {
  case CE_LIT: case CE_NAT: case CE_VAR: case CE_NAT_LT: return true;
  case CE_SELECT: break;
  case CE_OP:
    switch (e->op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MIN: case OP_MAX: case OP_ABS:
    case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_EQ: case OP_NE: case OP_AND: case OP_OR: case OP_NOT:
    case OP_I2F: case OP_I2D: case OP_F2D: case OP_D2F: case OP_I2L: case OP_L2I: case OP_FLOOR: case OP_CEIL: break;
    case OP_DIV: case OP_MOD:   /* an int divisor other than a literal 0 or -1 may trap */
      if (!type_is_float(e->args[0]->type) && !(e->args[1]->kind == CE_LIT && e->args[1]->ival != 0 && e->args[1]->ival != -1))
        return false;
      break;
    default: return false;
    }
    break;
  default: return false;
  }
  for (int i = 0; i < e->n; i++) if (!eager_safe(e->args[i], budget)) return false;
  return true;
}

/* C: a && b and a || b of booleans as a & b and a | b when b is safe to
   evaluate eagerly: the same value without a branch, so that GCC if-converts
   and vectorises loops full of APL's residues and comparisons (easter: the
   sign fix-ups of | and the ∨ ∧ of its epact). */
static const char *eager_logic(CExp *e, Flavour fl) {
  int budget = 8;
  if (fl != FL_C || (e->op != OP_AND && e->op != OP_OR) || e->type->kind != TY_BOOL || e->n != 2) return NULL;
  if (e->args[0]->type->kind != TY_BOOL || e->args[1]->type->kind != TY_BOOL || !eager_safe(e->args[1], &budget)) return NULL;
  return e->op == OP_AND ? "&" : "|";
}

/* shl, lshr, ashr: the count modulo the width, as OpenCL C defines it (C
   and CUDA leave a count outside 0…width-1 undefined); shl and lshr on the
   unsigned type (a negative value shifted left is undefined in C) */
static void print_shift(Buf *b, CExp *e, Flavour fl) {
  static const char *const unsigned_name[3][2] = { { "uint32_t", "uint64_t" }, { "uint", "ulong" },
                                                   { "unsigned", "unsigned long long" } };
  bool wide = e->type->kind == TY_LONG;
  const char *u = e->op == OP_ASHR ? NULL : unsigned_name[fl][wide];
  buf_putc(b, '(');
  if (u) buf_printf(b, "(%s)((%s)", type_name(e->type, fl), u);
  print_exp(b, e->args[0], fl);
  buf_printf(b, " %s (", e->op == OP_SHL ? "<<" : ">>");
  print_exp(b, e->args[1], fl);
  buf_printf(b, " & %d))%s", wide ? 63 : 31, u ? ")" : "");
}

/* + - * of integers wrap (two's complement), as in the interpreter, on every
   target: computed on the unsigned type, where a signed overflow would be
   undefined (OpenCL C and CUDA have no -fwrapv, and PoCL folded (> (+ x 1) x)
   to true for INT_MAX; a compiled C library is built with the user's flags).
   C: casts (vectors through the prelude's unsigned typedef NAME_w, c_print.c);
   OpenCL: a conversion to uint/ulong per operand (a scalar operand of a vector
   is broadcast) and as_T back, exact; CUDA: casts on scalars, and the
   prelude's operators wrap on integer vectors (CLIFT_VOPW). */
static bool wrapping_op(CExp *e) {
  TypeKind k = type_scalar_of(e->type)->kind;
  return (e->op == OP_ADD || e->op == OP_SUB || e->op == OP_MUL) && e->n == 2 &&
         (k == TY_INT || k == TY_IDX || k == TY_LONG);
}

static const char *unsigned_of(Type *t, Flavour fl) {
  bool wide = type_scalar_of(t)->kind == TY_LONG;
  if (t->kind == TY_VECTOR && fl == FL_C) return arena_printf("%s_w", codegen_ctype(t));
  if (t->kind == TY_VECTOR) return arena_printf("%s%d", wide ? "ulong" : "uint", t->width);   /* OpenCL */
  return fl == FL_C ? (wide ? "uint64_t" : "uint32_t") : fl == FL_CL ? (wide ? "ulong" : "uint")
                    : (wide ? "unsigned long long" : "unsigned");
}

static void print_wrapping(Buf *b, CExp *e, Flavour fl) {
  bool cuda_vector = fl == FL_CUDA && e->type->kind == TY_VECTOR;
  if (!cuda_vector) buf_printf(b, fl == FL_CL ? "as_%s(" : "(%s)(", type_name(e->type, fl));
  else buf_putc(b, '(');
  for (int i = 0; i < 2; i++) {
    CExp *a = e->args[i];
    if (i) buf_printf(b, " %s ", op_symbol(e->op));
    if (cuda_vector) { print_exp(b, a, fl); continue; }
    if (fl == FL_CL && a->type->kind == TY_VECTOR) buf_printf(b, "as_%s(", unsigned_of(a->type, fl));
    else buf_printf(b, "(%s)(", unsigned_of(a->type, fl));
    print_exp(b, a, fl);
    buf_putc(b, ')');
  }
  buf_putc(b, ')');
}

static void print_op(Buf *b, CExp *e, Flavour fl) {
  if (wrapping_op(e)) { print_wrapping(b, e, fl); return; }
  const char *sym = op_symbol(e->op);
  Type *operand = e->args[0]->type;
  if (e->op == OP_MOD && !type_is_float(operand)) sym = "%";
  if (eager_logic(e, fl)) sym = eager_logic(e, fl);
  if (sym && e->n == 2) {
    buf_putc(b, '(');
    print_exp(b, e->args[0], fl);
    buf_printf(b, " %s ", sym);
    print_exp(b, e->args[1], fl);
    buf_putc(b, ')');
    return;
  }
  if (e->op == OP_NOT || e->op == OP_BITNOT) { buf_puts(b, e->op == OP_NOT ? "!" : "~"); print_exp(b, e->args[0], fl); return; }
  if (e->op == OP_SHL || e->op == OP_LSHR || e->op == OP_ASHR) { print_shift(b, e, fl); return; }
  const char *cast = cast_type(e->op, fl);
  if (cast) { buf_printf(b, "(%s)", cast); print_exp(b, e->args[0], fl); return; }
  if (fl == FL_C && e->type->kind == TY_VECTOR) {   /* c_print.c defines clift_v<op>_<type> per vector type */
    const char *f = op_function(e->op, type_scalar(TY_DOUBLE), fl, true);
    const char *name = e->op == OP_ABS ? "abs" : e->op == OP_MIN ? "min" : e->op == OP_MAX ? "max" : f;
    buf_printf(b, "clift_v%s_%s(", name, codegen_ctype(e->type));
    for (int i = 0; i < e->n; i++) {   /* a scalar operand is broadcast */
      if (i) buf_puts(b, ", ");
      bool scalar = e->args[i]->type->kind != TY_VECTOR;
      if (scalar) buf_printf(b, "((%s){0} + ", codegen_ctype(e->type));
      print_exp(b, e->args[i], fl);
      if (scalar) buf_putc(b, ')');
    }
    buf_putc(b, ')');
    return;
  }
  buf_printf(b, "%s(", op_function(e->op, type_scalar_of(operand), fl, e->type->kind == TY_VECTOR));
  print_args(b, e, fl);
  buf_putc(b, ')');
}

static void print_access(Buf *b, CExp *e) {
  buf_printf(b, "%s[", e->buf->name);
  codegen_nat(b, e->nat);
  buf_putc(b, ']');
  if (e->field >= 0) buf_printf(b, ".f%d", e->field);
  for (int k = 0; k < e->nsub; k++) buf_printf(b, ".f%d", e->sub[k]);
}

/* CUDA: a vector access through a pointer cast needs the vector type's
   alignment; CUDA's float2/float4 … are aligned to their size, so the index
   must be a multiple of the width (asVector gives exactly that; device and
   __shared__ buffers are aligned). float3 and the prelude's structs need no more
   than their lanes' alignment. */
bool codegen_cuda_vector_aligned(CExp *e) {
  long long r;
  if (!codegen_cuda_builtin_vector(e->type) || e->type->width == 3) return true;
  return nat_is_const(nat_mod(codegen_with_multiples(e->nat), nat_const(e->type->width)), &r) && r == 0;
}

/* The program's size conditions hold whenever its kernels run: the driver checks
   them when it binds the sizes (cli/inputs.c), the compiled library's host before
   its first launch (lib_common.c library_size_conditions). So a size N that
   `split #128` divides is a multiple of 128, and an index N·r + 4c of a float4 is
   a multiple of 4: one 16-byte access instead of four (asVector of the rows of
   an N×N matrix). The conditions of the program being printed, set by the
   printers; NULL: none assumed. */
static SizeCheck *assumed;

void codegen_assume_size_conditions(Program *p) { assumed = p ? p->checks : NULL; }

/* The multiple of size variable v that the conditions prove: the least common
   multiple of every d in a condition "d divides v" (1: none). */
long long codegen_size_multiple(NatVar *v) {
  long long m = 1, d;
  for (SizeCheck *c = assumed; c; c = c->next) {
    if (c->kind != CHECK_DIVIDES || c->lhs->kind != NAT_VAR || c->lhs->var != v) continue;
    if (!nat_is_const(c->rhs, &d) || d <= 1 || d > (1LL << 20)) continue;
    long long a = m, b = d;
    while (b) { long long t = a % b; a = b; b = t; }
    if (m / a > (1LL << 20) / d) continue;   /* keep the product small: a hint, not a bound */
    m = m / a * d;
  }
  return m;
}

/* n with every size variable v written m·v, m its proven multiple: a form in
   which nat_mod sees the divisibility (only for alignment, never printed). */
Nat *codegen_with_multiples(Nat *n) {
  int nv;
  NatVar **vars = nat_free_var_list(n, &nv);
  for (int i = 0; i < nv; i++) {
    long long m = codegen_size_multiple(vars[i]);
    if (m > 1) n = nat_subst(n, vars[i], nat_mul(nat_const(m), nat_var(vars[i])));
  }
  return n;
}

/* Lane j of a vector access: buf[index + j]. */
void codegen_cuda_lane_access(Buf *b, CExp *e, int j) {
  buf_printf(b, "%s[", e->buf->name);
  codegen_nat(b, nat_add(e->nat, nat_const(j)));
  buf_putc(b, ']');
}

/* OpenCL: a vector of at most 16 bytes in a global or local buffer (global
   buffers are aligned by the runtime, local arrays declared aligned(16),
   opencl_print.c) at an index that is a multiple of its width, proven as for
   CUDA: one access through a pointer cast. vloadN/vstoreN take any alignment, but
   NVIDIA's compiler splits them into lane accesses where it cannot prove it
   (sgemm_tiled_v4's tile loads: 0.63 of cuBLAS on OpenCL, 0.88 on CUDA). */
bool codegen_cl_vector_aligned(CExp *e) {
  long long r;
  int w = e->type->width;
  if ((w != 2 && w != 4) || layout_scalar_bytes(e->type->elem->kind) * (size_t)w > 16) return false;
  if (!e->buf || (e->buf->space != SPACE_GLOBAL && e->buf->space != SPACE_LOCAL)) return false;
  return nat_is_const(nat_mod(codegen_with_multiples(e->nat), nat_const(w)), &r) && r == 0;
}

const char *codegen_cl_space(Buffer *b) { return b->space == SPACE_LOCAL ? "__local" : "__global"; }

/* A vector load: OpenCL's vloadN (any alignment, any address space) unless
   aligned; in C an unaligned vector type read through the address; in CUDA one
   vector load when aligned, else the vector built from its lanes. */
static void print_vload(Buf *b, CExp *e, Flavour fl) {
  if (fl == FL_CL && codegen_cl_vector_aligned(e)) {
    buf_printf(b, "(*(%s const %s *)&", codegen_cl_space(e->buf), type_name(e->type, fl));
    print_access(b, e);
    buf_putc(b, ')');
    return;
  }
  if (fl == FL_CL) {
    buf_printf(b, "vload%d(0, &", e->type->width);
    print_access(b, e);
    buf_putc(b, ')');
    return;
  }
  if ((fl == FL_CUDA && !codegen_cuda_vector_aligned(e)) || (fl == FL_C && e->type->width == 3)) {   /* C: c_print.c */
    buf_printf(b, fl == FL_C ? "(%s){" : "%s{", type_name(e->type, fl));
    for (int j = 0; j < e->type->width; j++) { if (j) buf_puts(b, ", "); codegen_cuda_lane_access(b, e, j); }
    buf_putc(b, '}');
    return;
  }
  if (fl == FL_CUDA) buf_printf(b, "(*(const %s *)&", type_name(e->type, fl));
  else buf_printf(b, "(*(%su *)&", codegen_ctype(e->type));
  print_access(b, e);
  buf_putc(b, ')');
}

static void print_exp(Buf *b, CExp *e, Flavour fl);

/* The look-back's status words (lookback.c): a 64-bit word, the flag in the
   high half, the 4-byte value's bits in the low one (a float through its
   bits: as_uint/as_float, __float_as_uint/__uint_as_float, a union in C). */
static void print_status(Buf *b, CExp *e, Flavour fl) {
  static const char *u64[] = { "uint64_t", "ulong", "unsigned long long" }, *u32[] = { "uint32_t", "uint", "unsigned" };
  static const char *to_bits[] = { "((union { float f; uint32_t u; }){ .f = ", "as_uint((", "__float_as_uint((" };
  static const char *to_bits_end[] = { " }).u", "))", "))" };
  static const char *from_bits[] = { "((union { uint32_t u; float f; }){ .u = (uint32_t)(", "as_float((uint)(",
                                      "__uint_as_float((unsigned)(" };
  static const char *from_bits_end[] = { ") }).f", "))", "))" };
  bool is_float = (e->kind == CE_STATUS ? e->args[1]->type : e->type)->kind == TY_FLOAT;
  switch (e->kind) {
  case CE_STATUS:
    buf_printf(b, "(%s)(((%s)(%s)(", type_name(e->type, fl), u64[fl], u32[fl]);
    print_exp(b, e->args[0], fl);
    buf_printf(b, ") << 32) | (%s)", u64[fl]);
    if (is_float) { buf_puts(b, to_bits[fl]); print_exp(b, e->args[1], fl); buf_puts(b, to_bits_end[fl]); }
    else { buf_printf(b, "(%s)(", u32[fl]); print_exp(b, e->args[1], fl); buf_putc(b, ')'); }
    buf_putc(b, ')');
    break;
  case CE_STATUS_FLAG:
    buf_printf(b, "((%s)((", type_name(e->type, fl));
    print_exp(b, e->args[0], fl);
    buf_puts(b, ") >> 32))");
    break;
  default:   /* CE_STATUS_VALUE */
    if (is_float) { buf_puts(b, from_bits[fl]); print_exp(b, e->args[0], fl); buf_puts(b, from_bits_end[fl]); }
    else { buf_printf(b, "((%s)(%s)(", type_name(e->type, fl), u32[fl]); print_exp(b, e->args[0], fl); buf_puts(b, "))"); }
    break;
  }
}

static void print_exp(Buf *b, CExp *e, Flavour fl) {
  switch (e->kind) {
  case CE_LIT:
    if (e->type->kind == TY_FLOAT || e->type->kind == TY_DOUBLE) print_float(b, e->fval, e->type->kind == TY_FLOAT);
    else if (e->type->kind == TY_BOOL) buf_puts(b, e->ival ? "true" : "false");
    else if (e->type->kind == TY_LONG) print_long(b, e->ival, fl);
    else if (e->ival == -2147483648LL) buf_puts(b, "(-2147483647 - 1)");   /* -2147483648 reads as a long (max's neutral element) */
    else buf_printf(b, e->ival < 0 ? "(%lld)" : "%lld", e->ival);
    break;
  case CE_NAT:
    buf_printf(b, "(%s)(", type_name(e->type, fl));
    codegen_nat(b, e->nat);
    buf_putc(b, ')');
    break;
  case CE_VAR: buf_puts(b, e->name); break;
  case CE_ATOMIC_INC:
    if (e->ival && fl == FL_CUDA) buf_puts(b, "(__threadfence(), ");   /* dpia/last_group.c */
    buf_puts(b, fl == FL_CL ? "atomic_inc(&" : fl == FL_CUDA ? "atomicAdd(&" : "__atomic_fetch_add(&");
    print_access(b, e);
    buf_puts(b, fl == FL_CL ? ")" : fl == FL_CUDA ? ", 1)" : ", 1, __ATOMIC_SEQ_CST)");
    if (e->ival && fl == FL_CUDA) buf_putc(b, ')');
    break;
  case CE_STATUS: case CE_STATUS_FLAG: case CE_STATUS_VALUE: print_status(b, e, fl); break;
  case CE_SHFL_UP: case CE_SHFL_DOWN:   /* generated for cuda only (GenOptions.warp_shuffle) */
    buf_puts(b, e->kind == CE_SHFL_UP ? "__shfl_up_sync(0xffffffffu, " : "__shfl_down_sync(0xffffffffu, ");
    print_exp(b, e->args[0], fl);
    buf_printf(b, ", %lld)", e->ival);
    break;
  case CE_SLEEP:   /* a pause on cuda (sm_70 and later), none elsewhere */
    if (fl == FL_CUDA) buf_printf(b, "(__nanosleep(%lldu), 0)", e->ival);
    else buf_putc(b, '0');
    break;
  case CE_WARP_FIRST:   /* cuda only, as CE_SHFL_DOWN */
    buf_puts(b, "__ffs(__ballot_sync(0xffffffffu, ");
    print_exp(b, e->args[0], fl);
    buf_puts(b, "))");
    break;
  case CE_READ:
    if (e->is_volatile) {   /* *(volatile T *)&buf[i]: a read or store that always reaches memory */
      buf_printf(b, "(*(volatile %s%s *)&", fl == FL_CL ? "__global " : "", type_name(e->type, fl));
      print_access(b, e);
      buf_putc(b, ')');
    } else if (fl == FL_CL && codegen_cl_packed3(e)) {
      buf_puts(b, "vload3(");
      codegen_nat(b, e->nat);
      buf_printf(b, ", %s)", e->buf->name);
    } else print_access(b, e);
    break;
  case CE_VLOAD: print_vload(b, e, fl); break;
  case CE_LANE:   /* CUDA vectors have no [], the prelude's clift_lane does it */
    if (fl == FL_CL && e->args[0]->kind == CE_READ &&
        (e->args[0]->buf->space == SPACE_GLOBAL || e->args[0]->buf->space == SPACE_LOCAL)) {
      /* a lane of a vector in shared memory is one scalar access: work-items
         writing different lanes of one float4 must not read-modify-write the
         whole vector (NVIDIA's OpenCL does, and loses lanes; FINDINGS F9, F11) */
      CExp *v = e->args[0];
      const char *space = v->buf->space == SPACE_GLOBAL ? "__global" : "__local";
      if (v->field >= 0 || v->nsub > 0) {   /* a vector field of a tuple: through its address */
        buf_printf(b, "((%s %s *)&", space, type_name(v->type->elem, fl));
        print_access(b, v);
        buf_puts(b, ")[");
        codegen_nat(b, e->nat);
        buf_putc(b, ']');
        break;
      }
      if (codegen_cl_packed3(v)) buf_printf(b, "%s[", v->buf->name);
      else buf_printf(b, "((%s %s *)%s)[", space, type_name(v->type->elem, fl), v->buf->name);
      codegen_nat(b, nat_add(nat_mul(v->nat, nat_const(v->type->width)), e->nat));
      buf_putc(b, ']');
      break;
    }
    buf_puts(b, fl == FL_CUDA ? "clift_lane(" : "(");
    print_exp(b, e->args[0], fl);
    buf_puts(b, fl == FL_CUDA ? ", " : ")[");
    codegen_nat(b, e->nat);
    buf_putc(b, fl == FL_CUDA ? ')' : ']');
    break;
  case CE_OP: print_op(b, e, fl); break;
  case CE_SELECT:
    buf_putc(b, '(');
    print_exp(b, e->args[0], fl);
    buf_puts(b, " ? ");
    print_exp(b, e->args[1], fl);
    buf_puts(b, " : ");
    print_exp(b, e->args[2], fl);
    buf_putc(b, ')');
    break;
  case CE_NAT_LT:
    buf_putc(b, '(');
    codegen_nat(b, e->nat);
    buf_puts(b, " < ");
    codegen_nat(b, e->nat2);
    buf_putc(b, ')');
    break;
  case CE_VEC:   /* (float4)(…) in OpenCL C, a compound literal in C, float4{…} in C++ */
    buf_printf(b, fl == FL_CL ? "(%s)(" : fl == FL_C ? "(%s){" : "%s{", type_name(e->type, fl));
    print_args(b, e, fl);
    buf_putc(b, fl == FL_CL ? ')' : '}');
    break;
  }
}

void codegen_cexp(Buf *b, CExp *e) { print_exp(b, e, FL_C); }
void codegen_clexp(Buf *b, CExp *e) { print_exp(b, e, FL_CL); }
void codegen_cudaexp(Buf *b, CExp *e) { print_exp(b, e, FL_CUDA); }
