/* prim.h — the one table that describes every primitive (STYLE: "one table
   describes the primitives"). A row says, field by field, the name, the
   argument kinds (which the normaliser uses to saturate and eta-expand), the
   type scheme as text, pointers to the primitive's rules in each stage, and
   the properties the stages ask about (level, dimension, tuple field, address
   space, scalar operator, …). No stage decides anything by a primitive's name:
   adding a primitive means adding one row and its rules (docs/design.md §10).
   The table does not need the AST's layout: rules take an Expr, which only
   their own files (prim/rules.h) open. */
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
  ARG_COUNT,    /* a size literal #n, or an int expression: a count known at run time */
  ARG_FN1,      /* a function of one argument */
  ARG_FN2,      /* a function of two arguments */
  ARG_NATFN     /* a nat function: (nat-fn (i) n) or (case-split a b …) (partition) */
} PrimArg;

enum {
  PRIM_MAX_ARGS = 4,
  PRIM_VARIADIC = -1,        /* nargs: any number (≥ 1) of ARG_EXP */
  PRIM_FIELD_FROM_ARG = -1   /* tuple_index: the field is the size argument #k, counted from 1 */
};

typedef Type *(*PrimInferRule)(InferCx *cx, Expr *e);
typedef Value *(*PrimEvalRule)(Interp *it, Expr *e, Env *env);
typedef bool (*PrimAccRule)(Tr *tr, Expr *e, Acc *out);   /* DPIA A(e)(out) */
typedef View *(*PrimExpRule)(Tr *tr, Expr *e);            /* DPIA C(e) */
/* A layout of its last argument x: the acceptor that writing x into writes e
   into out (DPIA's acceptor of the inverse layout: join ↦ split, …). */
typedef Acc *(*PrimInvRule)(Expr *e, Acc *out);

struct Prim {
  const char *name;
  int nargs;                     /* PRIM_VARIADIC: any number (≥ 1) of ARG_EXP */
  PrimArg args[PRIM_MAX_ARGS];
  const char *scheme;            /* the type as SPEC §4 gives it; documentation only, no code reads it */

  /* ---- rules, one per stage; NULL where the stage has none ---- */
  PrimInferRule infer;           /* src/types/infer_*.c */
  PrimEvalRule eval;             /* src/eval/eval_*.c */
  PrimAccRule dpia_acc;          /* src/dpia/rules_*.c; NULL: read with C, then copy */
  PrimExpRule dpia_exp;          /* NULL: materialise with A into a temporary */
  PrimInvRule dpia_inv;          /* layouts only: mapAcc writes (map (λx. e) xs) through it (rules_map.c) */

  /* ---- properties the stages read ---- */
  PrimLevel level;               /* map/reduce/scan/iterate: where it runs */
  int dim;                       /* parallel maps: the dimension 0..2 (mapGlb1: 1) */
  int tuple_index;               /* get1/get2: the field from 0; PRIM_FIELD_FROM_ARG: (get #k t) */
  AddrSpace space;               /* toGlobal/toLocal/toPrivate */
  ScalarOp op;                   /* scalar operators */
  bool int_only;                 /* min-lift's +i *i /i mod =i …: the operands are int */
  /* It takes position-dependent arrays ([i -> T]n, SPEC §3.5) and keeps
     their positions in its type (maps, reductions, zip, join, split, slide,
     pad, slice, unzip; transpose and padConstant refuse them with their own
     message). Every other primitive refuses one in the type checker
     (infer_array_arg) rather than give a type with the position free. */
  bool positions;
  bool tree_reduce;              /* strategy-free reduce: top level becomes a tree of kernels (lower.c) */
  /* A 2-D form the normaliser expands (SPEC §4.1): the 1-D primitive named
     here applied to every row, then to the outer dimension, then, when
     desugar_2d_transpose, `map transpose` to bring the window dimensions
     together. Such a row has no rules: no later stage sees it. */
  const char *desugar_2d;
  bool desugar_2d_transpose;
};

const Prim *prim_lookup(const char *name);
/* May (reduce init f xs) / (scan init f xs) run as a tree? f one associative
   primitive of its two parameters, init its neutral element (monoid.c). */
bool prim_is_monoid(Expr *f, Expr *init);
/* Iterate over the table (for --help and docs): NULL after the last row. */
const Prim *prim_at(int i);

#endif
