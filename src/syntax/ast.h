/* ast.h — the program tree produced by the parser and refined by the
   normaliser (`o` expanded, applications saturated) and the type checker. */
#ifndef CLIFT_AST_H
#define CLIFT_AST_H
#include "../types/type.h"

typedef struct Prim Prim;   /* src/prim/prim.h */

typedef enum {
  EX_VAR,       /* name, uid */
  EX_INT, EX_LONG, EX_FLOAT, EX_DOUBLE, EX_BOOL,   /* ival / fval literals (EX_LONG: `5L`) */
  EX_NAT,       /* #nat: a size literal (nat) */
  EX_LAMBDA,    /* params[0..nparams-1], kids[0] = body */
  EX_LET,       /* name/uid bound to kids[0] in kids[1] */
  EX_IF,        /* kids[0] ? kids[1] : kids[2] */
  EX_PACK,      /* kids[0], an UNPACK whose body's type mentions its rigid length:
                   that length hidden again, {∃X. …} (SPEC §3.4) */
  EX_UNPACK,    /* name/uid bound to the unpacked kids[0] (a {∃X.[T]X}) in kids[1],
                   as [T]rigid; inserted by the type checker (types/exists.c) */
  EX_COMPOSE,   /* (o kids...) — gone after normalisation */
  EX_APPLY,     /* kids[0] applied to kids[1..] — gone after normalisation */
  EX_PRIM       /* saturated primitive: prim applied to kids[0..nkids-1] */
} ExprKind;

typedef struct Expr Expr;
/* A length named in a size literal by (getLength x) (SPEC §2, §3.5): a placeholder
   variable in the nat as written, replaced by x's length by the type checker. */
typedef struct NatRef { const char *name; int uid; Loc loc; NatVar *var; } NatRef;
typedef struct Param { const char *name; int uid; Loc loc; Type *type; } Param;

struct Expr {
  ExprKind kind;
  Loc loc;
  Type *type;            /* set by the type checker */
  const char *name;      /* VAR, LET, UNPACK */
  int uid;               /* binder identity: VAR refers to LET/UNPACK/Param of the same uid */
  long long ival;        /* INT, LONG, BOOL */
  double fval;           /* FLOAT, DOUBLE */
  Nat *nat;              /* NAT (after type checking: every getLength replaced by its length) */
  Nat *nat_written;      /* NAT: as written, the placeholders of refs in it */
  int nrefs;             /* NAT: the (getLength x) it names, resolved to x's uid by the normaliser */
  NatRef *refs;
  int nparams;           /* LAMBDA */
  Param *params;
  int nkids;
  Expr **kids;
  const Prim *prim;      /* PRIM */
  NatVar *index;         /* LAMBDA over a position-dependent array: its position variable;
                            NAT: a nat function (natfun, SPEC §2) of this variable, `nat` its body */
  int nparts;            /* NAT, a (case-split a b …): the number of parts; 0 for (nat-fn (i) …) */
  NatVar *rigid;         /* UNPACK: the fresh rigid length of the unpacked array (set by the type checker) */
  signed char unpacks;   /* dpia_has_unpack's answer for this subtree: 0 not yet asked, 1 no, 2 yes */
  bool full_tiles;       /* PRIM: the mapWrg of a top-level reduce's first pass (lower.c): on the device
                            targets its tiles inside the input are read unchecked (dpia/tiles.c) */
  bool last_group;       /* PRIM: the mapWrg of its pass over the partials, one work-group (dpia/last_group.c) */
  bool apl_index;        /* APPLY, then PRIM aref: TAIL's index(i, a) lowered as (aref a (- i 1)): an index
                            out of range is reported as APL's, i 1-based (⎕IO = 1), on every target */
};

/* A run-time size condition the type checker could not settle statically,
   checked once the size variables are bound (SPEC §8): lhs % rhs == 0, lhs <= rhs,
   or rhs >= 0 (a size literal such as #(- N 4)). */
typedef enum { CHECK_DIVIDES, CHECK_LE, CHECK_NONNEG /* 0 <= rhs */ } SizeCheckKind;
typedef struct SizeCheck {
  SizeCheckKind kind;
  Nat *lhs, *rhs;
  Loc loc;
  const char *what;      /* "split #4", … */
  struct SizeCheck *next;
} SizeCheck;

/* A tunable size, `(TS 16 32 64)` in the lift header's size list
   (docs/language.md, Tunable sizes): a compile-time constant, the first
   candidate unless the command line or the tuning cache sets it; `clift tune`
   searches the candidates. */
typedef struct Tunable {
  const char *name;
  Loc loc;
  int ncand;
  long long *cand;       /* the candidates, each ≥ 1, distinct, as written */
  long long value;       /* the value this compilation uses */
} Tunable;

/* Values for tunable sizes (--tunable TS=32, the tuning cache): NAME=VALUE
   pairs; a name the program does not declare is an error. */
typedef struct TuneValues { int n; const char **names; long long *values; } TuneValues;

typedef struct Program {
  const char *file;
  Loc loc;
  int nsizes;
  NatVar **sizes;        /* (N M …), each N ∈ [1, ∞) */
  /* per size: -1 for one the header declares, else the index of the int input
     whose value, at least 1, it is (a value size, made by the type checker for
     (iota n) of an input n: the bound of its length, known before the run;
     docs/language.md §3, "Dynamic-length arrays"). NULL: every size declared. program_size_param. */
  int *size_param;
  int ntunables;
  Tunable *tunables;     /* (TS 16 32 64) in the size list */
  /* The front end asks for 2-D grids: a strategy-free top-level map whose
     body is directly another map runs as mapGlb1 over mapGlb (dpia/rules_map.c
     acc_map) instead of mapGlb over mapSeq. Set by the TAIL lowering, whose
     rank-2 element-wise maps (APL stencils) are such nests. */
  bool grid2d;
  int nparams;
  Param *params;         /* names from the lambda, types from the lift header */
  Expr *body;
  Type *result;          /* set by the type checker */
  SizeCheck *checks;     /* set by the type checker */
  int next_uid;
} Program;

/* Program.size_param[k], or -1 */
int program_size_param(const Program *p, int k);
/* The value size of int input i (Program.size_param), made on first use. */
NatVar *program_value_size(Program *p, int i);

Expr *expr_new(ExprKind kind, Loc loc, int nkids);
int ast_fresh_uid(void);
/* Restart the uids at 1: only between unrelated programs whose ASTs are gone
   (the fuzzer, tests/fuzz), so that one input always compiles the same way. */
void ast_reset_uids(void);
/* Debug/inspection printing as an S-expression (`clift check --dump`). */
void ast_print(Buf *b, Expr *e);

/* ---- passes (src/syntax) ---- */
/* NULL + diag on error; `set` (NULL: none) gives tunable sizes their values */
Program *parse_program(const char *file, const char *text, const TuneValues *set);
bool normalize_program(Program *p);   /* expand `o`, saturate, eta-expand fn args */
Expr *knormalize(Expr *e);            /* let-bind every argument that is an application */

#endif
