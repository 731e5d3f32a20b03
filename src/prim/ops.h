/* ops.h — the words a primitive contributes to the imperative program: the
   level a loop runs at, the address space a buffer lives in, the scalar
   operator an expression applies. A leaf: codegen and the runtimes see these
   (through dpia/kernel.h) and nothing of the AST or the primitive table. */
#ifndef CLIFT_OPS_H
#define CLIFT_OPS_H

/* Where a map/reduce runs (SPEC §4.2). LEVEL_LAZY: strategy-free `map`/`reduce`. */
typedef enum { LEVEL_NONE, LEVEL_LAZY, LEVEL_SEQ, LEVEL_GLB, LEVEL_WRG, LEVEL_LCL } PrimLevel;
typedef enum { SPACE_NONE, SPACE_GLOBAL, SPACE_LOCAL, SPACE_PRIVATE } AddrSpace;

typedef enum {
  OP_NONE, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_MIN, OP_MAX, OP_POW,
  OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_AND, OP_OR, OP_NOT,
  OP_I2F, OP_F2I, OP_I2D, OP_D2I, OP_F2D, OP_D2F, OP_I2L, OP_L2I,
  OP_SQRT, OP_EXP, OP_LOG, OP_SIN, OP_COS, OP_TAN, OP_ABS, OP_FLOOR, OP_CEIL,
  OP_ASIN, OP_ACOS, OP_ATAN, OP_SINH, OP_COSH, OP_TANH, OP_ASINH, OP_ACOSH, OP_ATANH,
  OP_FACTORIAL,    /* Γ(x+1) of a double (prim/special.h); a negative integer is reported at run time */
  OP_BINOMIAL,     /* APL's k!n of doubles (prim/special.h); a pole of Γ(n+1) is reported at run time */
  OP_BITAND, OP_BITOR, OP_BITXOR, OP_BITNOT,
  OP_SHL, OP_LSHR, OP_ASHR,   /* the count modulo the width (its low 5 or 6 bits), as OpenCL C defines it */
  OP_CHECK_INDEX,  /* generated code only: args[0] if in [0, args[1]), else report site args[2] and 0 */
  OP_CHECK_DIV,    /* generated code only: integer args[0] / args[1]; zero divisor: report site args[2], 0 */
  OP_CHECK_MOD,    /* generated code only: integer args[0] % args[1]; zero divisor: report site args[2], 0 */
  OP_CHECK_F2I,    /* generated code only: (int)args[0] of a float; outside the int range: report site args[1], 0 */
  OP_CHECK_D2I,    /* the same for a double */
  OP_CHECK_LENGTH  /* checkLength: args[0] when it equals args[1], else report site args[2] (both values) and args[0] */
} ScalarOp;

#endif
