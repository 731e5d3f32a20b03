/* table.c — THE primitive table (SPEC §4). One row per primitive, each field
   named (prim.h says what they mean); aliases get their own row with the same
   rules. A field left out is 0/NULL/false: no rule, no property. */
#include "rules.h"
#include <string.h>

#define E ARG_EXP
#define N ARG_NAT
#define F1 ARG_FN1
#define F2 ARG_FN2

/* Rows that share everything but the fields given. */
#define STRATEGY_MAP(...) { .nargs = 2, .args = { F1, E }, .scheme = "(T1->T2) -> [T1]n -> [T2]n", \
                            .infer = infer_map, .eval = eval_map, .dpia_acc = acc_map, __VA_ARGS__ }
#define SCALAR_OP(...)    { .args = { E, E }, .eval = eval_scalar_op, .dpia_exp = exp_scalar_op, __VA_ARGS__ }
#define GET(...)          { .infer = infer_get, .eval = eval_get, .dpia_exp = exp_get, __VA_ARGS__ }

static const Prim table[] = {
  /* ---- algorithmic and strategy maps (SPEC §4.1, §4.2) ---- */
  { .name = "map", .positions = true, .nargs = 2, .args = { F1, E }, .scheme = "(T1->T2) -> [T1]n -> [T2]n",
    .infer = infer_map, .eval = eval_map, .dpia_acc = acc_map, .dpia_exp = exp_map_lazy, .dpia_inv = inv_map,
    .level = LEVEL_LAZY },
  STRATEGY_MAP(.name = "mapSeq", .positions = true, .level = LEVEL_SEQ),
  STRATEGY_MAP(.name = "mapGlb", .positions = true, .level = LEVEL_GLB, .dim = 0),
  STRATEGY_MAP(.name = "mapGlb1", .positions = true, .level = LEVEL_GLB, .dim = 1),
  STRATEGY_MAP(.name = "mapGlb2", .positions = true, .level = LEVEL_GLB, .dim = 2),
  STRATEGY_MAP(.name = "mapGlobal", .positions = true, .level = LEVEL_GLB, .dim = 0),
  STRATEGY_MAP(.name = "mapWrg", .positions = true, .level = LEVEL_WRG, .dim = 0),
  STRATEGY_MAP(.name = "mapWrg1", .positions = true, .level = LEVEL_WRG, .dim = 1),
  STRATEGY_MAP(.name = "mapWrg2", .positions = true, .level = LEVEL_WRG, .dim = 2),
  STRATEGY_MAP(.name = "mapWorkgroup", .positions = true, .level = LEVEL_WRG, .dim = 0),
  STRATEGY_MAP(.name = "mapLcl", .positions = true, .level = LEVEL_LCL, .dim = 0),
  STRATEGY_MAP(.name = "mapLcl1", .positions = true, .level = LEVEL_LCL, .dim = 1),
  STRATEGY_MAP(.name = "mapLcl2", .positions = true, .level = LEVEL_LCL, .dim = 2),
  STRATEGY_MAP(.name = "mapLocal", .positions = true, .level = LEVEL_LCL, .dim = 0),
  { .name = "reduce", .positions = true, .nargs = 3, .args = { E, F2, E }, .scheme = "T2 -> (T2->T1->T2) -> [T1]n -> [T2]1",
    .infer = infer_reduce, .eval = eval_reduce, .dpia_exp = exp_reduce, .level = LEVEL_LAZY, .tree_reduce = true },
  { .name = "reduceSeq", .positions = true, .nargs = 3, .args = { E, F2, E }, .scheme = "T2 -> (T2->T1->T2) -> [T1]n -> [T2]1",
    .infer = infer_reduce, .eval = eval_reduce, .dpia_exp = exp_reduce, .level = LEVEL_SEQ },
  { .name = "scan", .positions = true, .nargs = 3, .args = { E, F2, E }, .scheme = "T2 -> (T2->T1->T2) -> [T1]n -> [T2]n",
    .infer = infer_scan, .eval = eval_scan, .dpia_acc = acc_scan, .level = LEVEL_LAZY },
  { .name = "scanSeq", .positions = true, .nargs = 3, .args = { E, F2, E }, .scheme = "T2 -> (T2->T1->T2) -> [T1]n -> [T2]n",
    .infer = infer_scan, .eval = eval_scan, .dpia_acc = acc_scan, .level = LEVEL_SEQ },
  { .name = "iterate", .positions = true, .nargs = 3, .args = { ARG_COUNT, F1, E }, .scheme = "#k | int -> ([T]n->[T]n) -> [T]n -> [T]n",
    .infer = infer_iterate, .eval = eval_iterate, .dpia_acc = acc_iterate, .level = LEVEL_SEQ },
  /* dynamic-length arrays (SPEC §3.4): filterGlb and the strategy-free filter
     run in parallel at the top of a program, in a thread elsewhere (dpia/rules_filter.c) */
  { .name = "filterSeq", .nargs = 2, .args = { F1, E }, .scheme = "(T->bool) -> [T]n -> {∃X.[T]X}",
    .infer = infer_filter, .eval = eval_filter, .dpia_acc = acc_filter, .level = LEVEL_SEQ },
  { .name = "filterGlb", .nargs = 2, .args = { F1, E }, .scheme = "(T->bool) -> [T]n -> {∃X.[T]X}",
    .infer = infer_filter, .eval = eval_filter, .dpia_acc = acc_filter, .level = LEVEL_GLB },
  { .name = "filter", .nargs = 2, .args = { F1, E }, .scheme = "(T->bool) -> [T]n -> {∃X.[T]X}",
    .infer = infer_filter, .eval = eval_filter, .dpia_acc = acc_filter, .level = LEVEL_LAZY },
  { .name = "whileSeq", .nargs = 3, .args = { F1, F1, E }, .scheme = "(T->bool) -> (T->T) -> T -> T, T scalars",
    .infer = infer_while, .eval = eval_while, .dpia_exp = exp_while, .level = LEVEL_SEQ },
  { .name = "toGlobal", .nargs = 2, .args = { F1, E }, .scheme = "(T1->T2) -> T1 -> T2",
    .infer = infer_to, .eval = eval_to, .dpia_acc = acc_to, .dpia_exp = exp_to, .space = SPACE_GLOBAL },
  { .name = "toLocal", .nargs = 2, .args = { F1, E }, .scheme = "(T1->T2) -> T1 -> T2",
    .infer = infer_to, .eval = eval_to, .dpia_acc = acc_to, .dpia_exp = exp_to, .space = SPACE_LOCAL },
  { .name = "toPrivate", .nargs = 2, .args = { F1, E }, .scheme = "(T1->T2) -> T1 -> T2",
    .infer = infer_to, .eval = eval_to, .dpia_acc = acc_to, .dpia_exp = exp_to, .space = SPACE_PRIVATE },
  { .name = "id", .nargs = 1, .args = { E }, .scheme = "T -> T", .infer = infer_id, .eval = eval_id, .dpia_exp = exp_id },

  /* ---- data layout: views (SPEC §4.1) ---- */
  { .name = "zip", .positions = true, .nargs = 2, .args = { E, E }, .scheme = "[T1]n -> [T2]n -> [T1 x T2]n",
    .infer = infer_zip, .eval = eval_zip, .dpia_acc = acc_zip, .dpia_exp = exp_zip },
  { .name = "zip3", .positions = true, .nargs = 3, .args = { E, E, E }, .scheme = "[T1]n -> [T2]n -> [T3]n -> [T1 x T2 x T3]n",
    .infer = infer_zip, .eval = eval_zip, .dpia_acc = acc_zip, .dpia_exp = exp_zip },
  { .name = "unzip", .positions = true, .nargs = 1, .args = { E }, .scheme = "[T1 x T2]n -> [T1]n x [T2]n",
    .infer = infer_unzip, .eval = eval_unzip, .dpia_exp = exp_unzip },
  GET(.name = "get1", .nargs = 1, .args = { E }, .scheme = "(T1 x T2 …) -> T1", .tuple_index = 0),
  GET(.name = "fst", .nargs = 1, .args = { E }, .scheme = "(T1 x T2 …) -> T1", .tuple_index = 0),
  GET(.name = "get2", .nargs = 1, .args = { E }, .scheme = "(T1 x T2 …) -> T2", .tuple_index = 1),
  GET(.name = "snd", .nargs = 1, .args = { E }, .scheme = "(T1 x T2 …) -> T2", .tuple_index = 1),
  GET(.name = "get", .nargs = 2, .args = { N, E }, .scheme = "#k -> (T1 x … x Tn) -> Tk (k from 1)",
      .tuple_index = PRIM_FIELD_FROM_ARG),
  { .name = "tuple", .nargs = PRIM_VARIADIC, .args = { E }, .scheme = "T1 -> … -> Tn -> (T1 x … x Tn)",
    .infer = infer_tuple, .eval = eval_tuple, .dpia_acc = acc_tuple, .dpia_exp = exp_tuple },
  { .name = "split", .positions = true, .nargs = 2, .args = { N, E }, .scheme = "#m -> [T](m*n) -> [[T]m]n",
    .infer = infer_split, .eval = eval_split, .dpia_acc = acc_layout, .dpia_exp = exp_split, .dpia_inv = inv_split },
  { .name = "join", .positions = true, .nargs = 1, .args = { E }, .scheme = "[[T]m]n -> [T](m*n)",
    .infer = infer_join, .eval = eval_join, .dpia_acc = acc_layout, .dpia_exp = exp_join, .dpia_inv = inv_join },
  { .name = "transpose", .positions = true, .nargs = 1, .args = { E }, .scheme = "[[T]m]n -> [[T]n]m",
    .infer = infer_transpose, .eval = eval_transpose, .dpia_acc = acc_layout, .dpia_exp = exp_transpose,
    .dpia_inv = inv_transpose },
  { .name = "slide", .positions = true, .nargs = 3, .args = { N, N, E }, .scheme = "#s -> #st -> [T]n -> [[T]s]((n-s)/st+1)",
    .infer = infer_slide, .eval = eval_slide, .dpia_exp = exp_slide },
  { .name = "pad", .positions = true, .nargs = 3, .args = { N, N, E }, .scheme = "#l -> #r -> [T]n -> [T](l+n+r), clamped",
    .infer = infer_pad, .eval = eval_pad, .dpia_exp = exp_pad },
  { .name = "padConstant", .positions = true, .nargs = 4, .args = { N, N, E, E }, .scheme = "#l -> #r -> T -> [T]n -> [T](l+n+r)",
    .infer = infer_pad_constant, .eval = eval_pad_constant, .dpia_acc = acc_pad_constant, .dpia_exp = exp_pad_constant },
  { .name = "slide2D", .nargs = 3, .args = { N, N, E },
    .scheme = "#s -> #st -> [[T]m]n -> [[[[T]s]s]((m-s)/st+1)]((n-s)/st+1)",
    .desugar_2d = "slide", .desugar_2d_transpose = true },
  { .name = "pad2D", .nargs = 3, .args = { N, N, E }, .scheme = "#l -> #r -> [[T]m]n -> [[T](l+m+r)](l+n+r), clamped",
    .desugar_2d = "pad" },
  { .name = "iota", .nargs = 1, .args = { ARG_COUNT }, .scheme = "#n -> [int]n | int -> {∃X.[int]X}", .infer = infer_iota, .eval = eval_iota, .dpia_exp = exp_iota },
  { .name = "aref", .nargs = 2, .args = { E, E }, .scheme = "[T]n -> int -> T", .infer = infer_aref, .eval = eval_aref, .dpia_exp = exp_aref },
  { .name = "length", .positions = true, .nargs = 1, .args = { E }, .scheme = "[T]n -> int", .infer = infer_length, .eval = eval_length, .dpia_exp = exp_length },
  { .name = "getLength", .positions = true, .nargs = 1, .args = { E }, .scheme = "[T]n -> int", .infer = infer_length, .eval = eval_length, .dpia_exp = exp_length },
  /* seed 002 §4.4: a view */
  { .name = "partition", .nargs = 3, .args = { N, ARG_NATFN, E }, .scheme = "#n -> (nat -> nat) f -> [T](Σ_{i<n} f i) -> [i -> [T](f i)]n",
    .infer = infer_partition, .eval = eval_partition, .dpia_exp = exp_partition },
  { .name = "slice", .positions = true, .nargs = 3, .args = { N, N, E }, .scheme = "#start -> #len -> [T]n -> [T]len",
    .infer = infer_slice, .eval = eval_slice, .dpia_exp = exp_slice },
  { .name = "asVector", .nargs = 2, .args = { N, E }, .scheme = "#k -> [S](k*n) -> [S<k>]n",
    .infer = infer_as_vector, .eval = eval_as_vector, .dpia_acc = acc_layout, .dpia_exp = exp_as_vector,
    .dpia_inv = inv_as_vector },
  { .name = "asScalar", .nargs = 1, .args = { E }, .scheme = "[S<k>]n -> [S](k*n)",
    .infer = infer_as_scalar, .eval = eval_as_scalar, .dpia_acc = acc_layout, .dpia_exp = exp_as_scalar,
    .dpia_inv = inv_as_scalar },

  /* ---- scalar operations (SPEC §4.3); min-lift's int-only aliases +i -i *i /i mod =i ---- */
  SCALAR_OP(.name = "+", .nargs = 2, .scheme = "S -> S -> S", .infer = infer_arith, .op = OP_ADD),
  SCALAR_OP(.name = "+i", .nargs = 2, .scheme = "int -> int -> int", .infer = infer_arith, .op = OP_ADD, .int_only = true),
  SCALAR_OP(.name = "-", .nargs = 2, .scheme = "S -> S -> S", .infer = infer_arith, .op = OP_SUB),
  SCALAR_OP(.name = "-i", .nargs = 2, .scheme = "int -> int -> int", .infer = infer_arith, .op = OP_SUB, .int_only = true),
  SCALAR_OP(.name = "*", .nargs = 2, .scheme = "S -> S -> S", .infer = infer_arith, .op = OP_MUL),
  SCALAR_OP(.name = "*i", .nargs = 2, .scheme = "int -> int -> int", .infer = infer_arith, .op = OP_MUL, .int_only = true),
  SCALAR_OP(.name = "/", .nargs = 2, .scheme = "S -> S -> S", .infer = infer_arith, .op = OP_DIV),
  SCALAR_OP(.name = "/i", .nargs = 2, .scheme = "int -> int -> int", .infer = infer_arith, .op = OP_DIV, .int_only = true),
  SCALAR_OP(.name = "%", .nargs = 2, .scheme = "S -> S -> S", .infer = infer_arith, .op = OP_MOD),
  SCALAR_OP(.name = "mod", .nargs = 2, .scheme = "int -> int -> int", .infer = infer_arith, .op = OP_MOD, .int_only = true),
  SCALAR_OP(.name = "min", .nargs = 2, .scheme = "S -> S -> S", .infer = infer_arith, .op = OP_MIN),
  SCALAR_OP(.name = "max", .nargs = 2, .scheme = "S -> S -> S", .infer = infer_arith, .op = OP_MAX),
  SCALAR_OP(.name = "pow", .nargs = 2, .scheme = "F -> F -> F", .infer = infer_arith, .op = OP_POW),
  SCALAR_OP(.name = "<", .nargs = 2, .scheme = "S -> S -> bool", .infer = infer_compare, .op = OP_LT),
  SCALAR_OP(.name = "<=", .nargs = 2, .scheme = "S -> S -> bool", .infer = infer_compare, .op = OP_LE),
  SCALAR_OP(.name = ">", .nargs = 2, .scheme = "S -> S -> bool", .infer = infer_compare, .op = OP_GT),
  SCALAR_OP(.name = ">=", .nargs = 2, .scheme = "S -> S -> bool", .infer = infer_compare, .op = OP_GE),
  SCALAR_OP(.name = "=", .nargs = 2, .scheme = "S -> S -> bool", .infer = infer_compare, .op = OP_EQ),
  SCALAR_OP(.name = "=i", .nargs = 2, .scheme = "int -> int -> bool", .infer = infer_compare, .op = OP_EQ, .int_only = true),
  SCALAR_OP(.name = "!=", .nargs = 2, .scheme = "S -> S -> bool", .infer = infer_compare, .op = OP_NE),
  SCALAR_OP(.name = "and", .nargs = 2, .scheme = "bool -> bool -> bool", .infer = infer_logic, .op = OP_AND),
  SCALAR_OP(.name = "or", .nargs = 2, .scheme = "bool -> bool -> bool", .infer = infer_logic, .op = OP_OR),
  SCALAR_OP(.name = "not", .nargs = 1, .scheme = "bool -> bool", .infer = infer_logic, .op = OP_NOT),
  SCALAR_OP(.name = "i2f", .nargs = 1, .scheme = "int -> float", .infer = infer_cast, .op = OP_I2F),
  SCALAR_OP(.name = "f2i", .nargs = 1, .scheme = "float -> int", .infer = infer_cast, .op = OP_F2I),
  SCALAR_OP(.name = "i2d", .nargs = 1, .scheme = "int -> double", .infer = infer_cast, .op = OP_I2D),
  SCALAR_OP(.name = "d2i", .nargs = 1, .scheme = "double -> int", .infer = infer_cast, .op = OP_D2I),
  SCALAR_OP(.name = "f2d", .nargs = 1, .scheme = "float -> double", .infer = infer_cast, .op = OP_F2D),
  SCALAR_OP(.name = "d2f", .nargs = 1, .scheme = "double -> float", .infer = infer_cast, .op = OP_D2F),
  SCALAR_OP(.name = "i2l", .nargs = 1, .scheme = "int -> long", .infer = infer_cast, .op = OP_I2L),
  SCALAR_OP(.name = "l2i", .nargs = 1, .scheme = "long -> int", .infer = infer_cast, .op = OP_L2I),
  SCALAR_OP(.name = "sqrt", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_SQRT),
  SCALAR_OP(.name = "exp", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_EXP),
  SCALAR_OP(.name = "log", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_LOG),
  SCALAR_OP(.name = "sin", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_SIN),
  SCALAR_OP(.name = "cos", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_COS),
  SCALAR_OP(.name = "tan", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_TAN),
  SCALAR_OP(.name = "floor", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_FLOOR),
  SCALAR_OP(.name = "ceil", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_CEIL),
  SCALAR_OP(.name = "abs", .nargs = 1, .scheme = "S -> S", .infer = infer_math, .op = OP_ABS),
  SCALAR_OP(.name = "asin", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_ASIN),
  SCALAR_OP(.name = "acos", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_ACOS),
  SCALAR_OP(.name = "atan", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_ATAN),
  SCALAR_OP(.name = "sinh", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_SINH),
  SCALAR_OP(.name = "cosh", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_COSH),
  SCALAR_OP(.name = "tanh", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_TANH),
  SCALAR_OP(.name = "asinh", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_ASINH),
  SCALAR_OP(.name = "acosh", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_ACOSH),
  SCALAR_OP(.name = "atanh", .nargs = 1, .scheme = "F -> F", .infer = infer_math, .op = OP_ATANH),
  /* APL's ! (prim/special.h): exact products on integers, Γ elsewhere; a pole is a run-time error */
  SCALAR_OP(.name = "factorial", .nargs = 1, .scheme = "double -> double", .infer = infer_special, .op = OP_FACTORIAL),
  SCALAR_OP(.name = "binomial", .nargs = 2, .scheme = "double -> double -> double", .infer = infer_special, .op = OP_BINOMIAL),
  /* a length computed at run time that must equal another (APL's expand: the
     mask's ones and the items): the first, or a run-time "length error" */
  SCALAR_OP(.name = "checkLength", .nargs = 2, .scheme = "int -> int -> int", .infer = infer_check_length, .op = OP_CHECK_LENGTH),
  /* bitwise operations on int or long scalars; shift counts modulo the width */
  SCALAR_OP(.name = "bitand", .nargs = 2, .scheme = "I -> I -> I", .infer = infer_bits, .op = OP_BITAND),
  SCALAR_OP(.name = "bitor", .nargs = 2, .scheme = "I -> I -> I", .infer = infer_bits, .op = OP_BITOR),
  SCALAR_OP(.name = "bitxor", .nargs = 2, .scheme = "I -> I -> I", .infer = infer_bits, .op = OP_BITXOR),
  SCALAR_OP(.name = "bitnot", .nargs = 1, .scheme = "I -> I", .infer = infer_bits, .op = OP_BITNOT),
  SCALAR_OP(.name = "shl", .nargs = 2, .scheme = "I -> I -> I", .infer = infer_bits, .op = OP_SHL),
  SCALAR_OP(.name = "lshr", .nargs = 2, .scheme = "I -> I -> I", .infer = infer_bits, .op = OP_LSHR),
  SCALAR_OP(.name = "ashr", .nargs = 2, .scheme = "I -> I -> I", .infer = infer_bits, .op = OP_ASHR),
};

const Prim *prim_lookup(const char *name) {
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (strcmp(table[i].name, name) == 0) return &table[i];
  return NULL;
}

const Prim *prim_at(int i) {
  return i >= 0 && (size_t)i < sizeof table / sizeof *table ? &table[i] : NULL;
}
