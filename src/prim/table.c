/* table.c — THE primitive table (SPEC §4). One row per primitive (aliases get
   their own row with the same rules). Columns: name, arity, argument kinds,
   type scheme, type rule, interpreter rule, level/dimension, address space,
   scalar operator, DPIA acceptor rule, DPIA continuation rule. */
#include "rules.h"
#include <string.h>

#define E ARG_EXP
#define N ARG_NAT
#define F1 ARG_FN1
#define F2 ARG_FN2
#define MAPROW(nm, lvl, d) { nm, 2, { F1, E }, "(T1->T2) -> [T1]n -> [T2]n", infer_map, eval_map, lvl, d, SPACE_NONE, OP_NONE, acc_map, lvl == LEVEL_LAZY ? exp_map_lazy : NULL }
#define OPROW(nm, n, sch, rule, op) { nm, n, { E, E }, sch, rule, eval_scalar_op, LEVEL_NONE, 0, SPACE_NONE, op, NULL, exp_scalar_op }

static const Prim table[] = {
  /* ---- algorithmic and strategy maps (SPEC §4.1, §4.2) ---- */
  MAPROW("map", LEVEL_LAZY, 0),
  MAPROW("mapSeq", LEVEL_SEQ, 0),
  MAPROW("mapGlb", LEVEL_GLB, 0), MAPROW("mapGlb1", LEVEL_GLB, 1), MAPROW("mapGlb2", LEVEL_GLB, 2),
  MAPROW("mapGlobal", LEVEL_GLB, 0),
  MAPROW("mapWrg", LEVEL_WRG, 0), MAPROW("mapWrg1", LEVEL_WRG, 1), MAPROW("mapWrg2", LEVEL_WRG, 2),
  MAPROW("mapWorkgroup", LEVEL_WRG, 0),
  MAPROW("mapLcl", LEVEL_LCL, 0), MAPROW("mapLcl1", LEVEL_LCL, 1), MAPROW("mapLcl2", LEVEL_LCL, 2),
  MAPROW("mapLocal", LEVEL_LCL, 0),
  { "reduce", 3, { E, F2, E }, "T2 -> (T2->T1->T2) -> [T1]n -> [T2]1", infer_reduce, eval_reduce, LEVEL_LAZY, 0, SPACE_NONE, OP_NONE, NULL, exp_reduce },
  { "reduceSeq", 3, { E, F2, E }, "T2 -> (T2->T1->T2) -> [T1]n -> [T2]1", infer_reduce, eval_reduce, LEVEL_SEQ, 0, SPACE_NONE, OP_NONE, NULL, exp_reduce },
  { "scan", 3, { E, F2, E }, "T2 -> (T2->T1->T2) -> [T1]n -> [T2]n", infer_scan, eval_scan, LEVEL_LAZY, 0, SPACE_NONE, OP_NONE, acc_scan, NULL },
  { "scanSeq", 3, { E, F2, E }, "T2 -> (T2->T1->T2) -> [T1]n -> [T2]n", infer_scan, eval_scan, LEVEL_SEQ, 0, SPACE_NONE, OP_NONE, acc_scan, NULL },
  { "iterate", 3, { N, F1, E }, "#k -> ([T]n->[T]n) -> [T]n -> [T]n", infer_iterate, eval_iterate, LEVEL_SEQ, 0, SPACE_NONE, OP_NONE, acc_iterate, NULL },
  { "toGlobal", 2, { F1, E }, "(T1->T2) -> T1 -> T2", infer_to, eval_to, LEVEL_NONE, 0, SPACE_GLOBAL, OP_NONE, acc_to, exp_to },
  { "toLocal", 2, { F1, E }, "(T1->T2) -> T1 -> T2", infer_to, eval_to, LEVEL_NONE, 0, SPACE_LOCAL, OP_NONE, acc_to, exp_to },
  { "toPrivate", 2, { F1, E }, "(T1->T2) -> T1 -> T2", infer_to, eval_to, LEVEL_NONE, 0, SPACE_PRIVATE, OP_NONE, acc_to, exp_to },
  { "id", 1, { E }, "T -> T", infer_id, eval_id, LEVEL_NONE, 0, SPACE_NONE, OP_NONE, NULL, exp_id },

  /* ---- data layout: views (SPEC §4.1) ---- */
  { "zip", 2, { E, E }, "[T1]n -> [T2]n -> [T1 x T2]n", infer_zip, eval_zip, 0, 0, 0, 0, acc_zip, exp_zip },
  { "zip3", 3, { E, E, E }, "[T1]n -> [T2]n -> [T3]n -> [T1 x T2 x T3]n", infer_zip, eval_zip, 0, 0, 0, 0, acc_zip, exp_zip },
  { "unzip", 1, { E }, "[T1 x T2]n -> [T1]n x [T2]n", infer_unzip, eval_unzip, 0, 0, 0, 0, NULL, exp_unzip },
  { "get1", 1, { E }, "(T1 x T2 …) -> T1", infer_get, eval_get, 0, 0, 0, 0, NULL, exp_get },
  { "fst", 1, { E }, "(T1 x T2 …) -> T1", infer_get, eval_get, 0, 0, 0, 0, NULL, exp_get },
  { "get2", 1, { E }, "(T1 x T2 …) -> T2", infer_get, eval_get, 0, 1, 0, 0, NULL, exp_get },
  { "snd", 1, { E }, "(T1 x T2 …) -> T2", infer_get, eval_get, 0, 1, 0, 0, NULL, exp_get },
  { "get", 2, { N, E }, "#k -> (T1 x … x Tn) -> Tk (k from 1)", infer_get, eval_get, 0, -1, 0, 0, NULL, exp_get },
  { "tuple", PRIM_VARIADIC, { E }, "T1 -> … -> Tn -> (T1 x … x Tn)", infer_tuple, eval_tuple, 0, 0, 0, 0, acc_tuple, exp_tuple },
  { "split", 2, { N, E }, "#m -> [T](m*n) -> [[T]m]n", infer_split, eval_split, 0, 0, 0, 0, acc_split, exp_split },
  { "join", 1, { E }, "[[T]m]n -> [T](m*n)", infer_join, eval_join, 0, 0, 0, 0, acc_join, exp_join },
  { "transpose", 1, { E }, "[[T]m]n -> [[T]n]m", infer_transpose, eval_transpose, 0, 0, 0, 0, acc_transpose, exp_transpose },
  { "slide", 3, { N, N, E }, "#s -> #st -> [T]n -> [[T]s]((n-s)/st+1)", infer_slide, eval_slide, 0, 0, 0, 0, NULL, exp_slide },
  { "pad", 3, { N, N, E }, "#l -> #r -> [T]n -> [T](l+n+r), clamped", infer_pad, eval_pad, 0, 0, 0, 0, NULL, exp_pad },
  { "padConstant", 4, { N, N, E, E }, "#l -> #r -> T -> [T]n -> [T](l+n+r)", infer_pad_constant, eval_pad_constant, 0, 0, 0, 0, acc_pad_constant, exp_pad_constant },
  { "iota", 1, { N }, "#n -> [int]n", infer_iota, eval_iota, 0, 0, 0, 0, NULL, exp_iota },
  { "aref", 2, { E, E }, "[T]n -> int -> T", infer_aref, eval_aref, 0, 0, 0, 0, NULL, exp_aref },
  { "length", 1, { E }, "[T]n -> int", infer_length, eval_length, 0, 0, 0, 0, NULL, exp_length },
  { "getLength", 1, { E }, "[T]n -> int", infer_length, eval_length, 0, 0, 0, 0, NULL, exp_length },
  { "slice", 3, { N, N, E }, "#start -> #len -> [T]n -> [T]len", infer_slice, eval_slice, 0, 0, 0, 0, NULL, exp_slice },
  { "asVector", 2, { N, E }, "#k -> [S](k*n) -> [S<k>]n", infer_as_vector, eval_as_vector, 0, 0, 0, 0, acc_as_vector, exp_as_vector },
  { "asScalar", 1, { E }, "[S<k>]n -> [S](k*n)", infer_as_scalar, eval_as_scalar, 0, 0, 0, 0, acc_as_scalar, exp_as_scalar },

  /* ---- scalar operations (SPEC §4.3); min-lift aliases +i *i /i =i mod ---- */
  OPROW("+", 2, "S -> S -> S", infer_arith, OP_ADD), OPROW("+i", 2, "int -> int -> int", infer_arith, OP_ADD),
  OPROW("-", 2, "S -> S -> S", infer_arith, OP_SUB), OPROW("-i", 2, "int -> int -> int", infer_arith, OP_SUB),
  OPROW("*", 2, "S -> S -> S", infer_arith, OP_MUL), OPROW("*i", 2, "int -> int -> int", infer_arith, OP_MUL),
  OPROW("/", 2, "S -> S -> S", infer_arith, OP_DIV), OPROW("/i", 2, "int -> int -> int", infer_arith, OP_DIV),
  OPROW("%", 2, "S -> S -> S", infer_arith, OP_MOD), OPROW("mod", 2, "int -> int -> int", infer_arith, OP_MOD),
  OPROW("min", 2, "S -> S -> S", infer_arith, OP_MIN), OPROW("max", 2, "S -> S -> S", infer_arith, OP_MAX),
  OPROW("pow", 2, "F -> F -> F", infer_arith, OP_POW),
  OPROW("<", 2, "S -> S -> bool", infer_compare, OP_LT), OPROW("<=", 2, "S -> S -> bool", infer_compare, OP_LE),
  OPROW(">", 2, "S -> S -> bool", infer_compare, OP_GT), OPROW(">=", 2, "S -> S -> bool", infer_compare, OP_GE),
  OPROW("=", 2, "S -> S -> bool", infer_compare, OP_EQ), OPROW("=i", 2, "int -> int -> bool", infer_compare, OP_EQ),
  OPROW("!=", 2, "S -> S -> bool", infer_compare, OP_NE),
  OPROW("and", 2, "bool -> bool -> bool", infer_logic, OP_AND), OPROW("or", 2, "bool -> bool -> bool", infer_logic, OP_OR),
  OPROW("not", 1, "bool -> bool", infer_logic, OP_NOT),
  OPROW("i2f", 1, "int -> float", infer_cast, OP_I2F), OPROW("f2i", 1, "float -> int", infer_cast, OP_F2I),
  OPROW("i2d", 1, "int -> double", infer_cast, OP_I2D), OPROW("d2i", 1, "double -> int", infer_cast, OP_D2I),
  OPROW("f2d", 1, "float -> double", infer_cast, OP_F2D), OPROW("d2f", 1, "double -> float", infer_cast, OP_D2F),
  OPROW("i2l", 1, "int -> long", infer_cast, OP_I2L), OPROW("l2i", 1, "long -> int", infer_cast, OP_L2I),
  OPROW("sqrt", 1, "F -> F", infer_math, OP_SQRT), OPROW("exp", 1, "F -> F", infer_math, OP_EXP),
  OPROW("log", 1, "F -> F", infer_math, OP_LOG), OPROW("sin", 1, "F -> F", infer_math, OP_SIN),
  OPROW("cos", 1, "F -> F", infer_math, OP_COS), OPROW("tan", 1, "F -> F", infer_math, OP_TAN),
  OPROW("floor", 1, "F -> F", infer_math, OP_FLOOR), OPROW("ceil", 1, "F -> F", infer_math, OP_CEIL),
  OPROW("abs", 1, "S -> S", infer_math, OP_ABS),
};

const Prim *prim_lookup(const char *name) {
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (strcmp(table[i].name, name) == 0) return &table[i];
  return NULL;
}

const Prim *prim_at(int i) {
  return i >= 0 && (size_t)i < sizeof table / sizeof *table ? &table[i] : NULL;
}
