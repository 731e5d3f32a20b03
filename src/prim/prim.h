/* prim.h — the one table that describes every primitive (STYLE: "one table
   describes the primitives"). A row gives the name, the argument kinds (which
   the normaliser uses to saturate and eta-expand), the type scheme as text, and
   pointers to the primitive's rules in each stage. Adding a primitive means
   adding one row and its rules. */
#ifndef CLIFT_PRIM_H
#define CLIFT_PRIM_H
#include "../syntax/ast.h"

typedef struct InferCx InferCx;     /* src/types/infer.h */
typedef struct Interp Interp;       /* src/eval/interp.h */
typedef struct Env Env;
typedef struct Value Value;
typedef struct Tr Tr;               /* src/dpia/dpia.h */
typedef struct View View;
typedef struct Acc Acc;

typedef enum {
  ARG_EXP,      /* an expression */
  ARG_NAT,      /* a size literal #n (a plain integer is accepted too) */
  ARG_FN1,      /* a function of one argument */
  ARG_FN2       /* a function of two arguments */
} PrimArg;

/* Where a map/reduce runs (SPEC §4.2). LEVEL_LAZY: strategy-free `map`/`reduce`. */
typedef enum { LEVEL_NONE, LEVEL_LAZY, LEVEL_SEQ, LEVEL_GLB, LEVEL_WRG, LEVEL_LCL } PrimLevel;
typedef enum { SPACE_NONE, SPACE_GLOBAL, SPACE_LOCAL, SPACE_PRIVATE } AddrSpace;

typedef enum {
  OP_NONE, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_MIN, OP_MAX, OP_POW,
  OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_AND, OP_OR, OP_NOT,
  OP_I2F, OP_F2I, OP_I2D, OP_D2I, OP_F2D, OP_D2F, OP_I2L, OP_L2I,
  OP_SQRT, OP_EXP, OP_LOG, OP_SIN, OP_COS, OP_TAN, OP_ABS, OP_FLOOR, OP_CEIL,
  OP_CHECK_INDEX,  /* generated code only: args[0] if in [0, args[1]), else report site args[2] and 0 */
  OP_CHECK_DIV,    /* generated code only: integer args[0] / args[1]; zero divisor: report site args[2], 0 */
  OP_CHECK_MOD,    /* generated code only: integer args[0] % args[1]; zero divisor: report site args[2], 0 */
  OP_CHECK_F2I,    /* generated code only: (int)args[0] of a float; outside the int range: report site args[1], 0 */
  OP_CHECK_D2I     /* the same for a double */
} ScalarOp;

enum { PRIM_MAX_ARGS = 4, PRIM_VARIADIC = -1 };

typedef Type *(*PrimInferRule)(InferCx *cx, Expr *e);
typedef Value *(*PrimEvalRule)(Interp *it, Expr *e, Env *env);
typedef bool (*PrimAccRule)(Tr *tr, Expr *e, Acc *out);   /* DPIA A(e)(out) */
typedef View *(*PrimExpRule)(Tr *tr, Expr *e);            /* DPIA C(e) */

struct Prim {
  const char *name;
  int nargs;                     /* PRIM_VARIADIC: any number (≥ 1) of ARG_EXP */
  PrimArg args[PRIM_MAX_ARGS];
  const char *scheme;            /* the type, as documented in SPEC §4 */
  PrimInferRule infer;           /* src/types/infer_*.c */
  PrimEvalRule eval;             /* src/eval/eval_*.c */
  PrimLevel level;               /* map/reduce/filter variants */
  int dim;                       /* 0..2 for mapGlb1 etc. */
  AddrSpace space;               /* toGlobal/toLocal/toPrivate */
  ScalarOp op;                   /* scalar operators */
  PrimAccRule dpia_acc;          /* src/dpia/rules_*.c; NULL: read with C, then copy */
  PrimExpRule dpia_exp;          /* NULL: materialise with A into a temporary */
};

const Prim *prim_lookup(const char *name);
/* Iterate over the table (for --help and docs): NULL after the last row. */
const Prim *prim_at(int i);

#endif
