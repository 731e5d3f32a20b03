/* prim.h — the one table that describes every primitive (STYLE: "one table
   describes the primitives"). A row gives the name, the argument kinds (which
   the normaliser uses to saturate and eta-expand), the type scheme as text, and
   pointers to the primitive's rules in each stage. Adding a primitive means
   adding one row and its rules. The levels, address spaces and scalar
   operators are in the leaf header ops.h; the table names the AST's types
   without opening them (prim/rules.h, for the rules' files, does). */
#ifndef CLIFT_PRIM_H
#define CLIFT_PRIM_H
#include "ops.h"
#include <stdbool.h>

typedef struct Prim Prim;
typedef struct Expr Expr;           /* src/syntax/ast.h */
typedef struct Type Type;           /* src/types/type.h */
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
