/* tail.h — TAIL, the typed array IL of seed 003 chapter 3 (docs/apl.md §2):
   its AST, its types, the table of operations, and the stages
     text ─tail_parse─▶ TExp ─tail_check─▶ typed TExp ─tail_lower─▶ Program
   after which the .lift pipeline (normalise, infer, driver_generate) runs
   unchanged (docs/apl.md §1, "Hand-off"). */
#ifndef CLIFT_TAIL_H
#define CLIFT_TAIL_H
#include "../syntax/ast.h"
#include "../io/value.h"

/* ---- types (docs/apl.md §2.3) ---- */
typedef enum { TB_INT, TB_DOUBLE, TB_BOOL, TB_CHAR, TB_NONE } TBase;
typedef enum {
  TT_ARRAY,   /* [κ]r: rank r */
  TT_VEC,     /* <κ>n: a vector of length n */
  TT_S,       /* S(κ,n): the int/bool scalar n */
  TT_SV,      /* SV(κ,n): the one-element vector [n] */
  TT_FUN      /* arg -> res */
} TTypeKind;

/* A shape term c + v1 + v2: ranks, lengths and singleton values. v1, v2 name
   shape variables of an operation's scheme (1-based, 0 = none); in the types of
   a checked program both are 0 (docs/apl.md §2.3: ranks are integers). */
typedef struct TShape { long long c; int v1, v2; } TShape;

typedef struct TType TType;
struct TType {
  TTypeKind kind;
  TBase base;
  int bvar;          /* scheme only: base-type variable (1-based), 0 = base is given */
  TShape n;          /* rank, length or value */
  TType *arg, *res;  /* FUN */
};

TType *ttype_new(TTypeKind kind, TBase base, long long n);
TType *ttype_fun(TType *arg, TType *res);
TType *ttype_scalar(TBase base);                 /* [κ]0 */
const char *ttype_to_string(TType *t);           /* the syntax of §2.1 */
const char *tbase_name(TBase b);
/* Subtyping (rules 3.1–3.5) of ground types. */
bool ttype_sub(TType *lo, TType *hi);
/* The rank an array of type t has (FUN: -1). */
int ttype_rank(TType *t);
/* The least common supertype (the join of `if` branches); NULL when none. */
TType *ttype_join(TType *a, TType *b);

/* ---- expressions ---- */
typedef enum {
  TE_VAR, TE_INT, TE_DOUBLE, TE_BOOL, TE_CHAR,
  TE_VEC,     /* [kids…] */
  TE_OP,      /* op(kids…); nkids 0 and !applied: the operation as a value */
  TE_LET,     /* let name:ann = kids[0] in kids[1] */
  TE_FN,      /* fn name:ann => kids[0] */
  TE_IF       /* if kids[0] then kids[1] else kids[2] */
} TExpKind;

typedef struct TOp TOp;
typedef struct TExp TExp;
struct TExp {
  TExpKind kind;
  Loc loc;
  const char *name;   /* VAR, LET, FN */
  TType *ann;         /* LET, FN: the written type */
  long long ival;     /* INT, BOOL, CHAR (a code point) */
  double dval;        /* DOUBLE */
  const TOp *op;      /* OP */
  bool applied;       /* OP: written with parentheses */
  int nkids;
  TExp **kids;
  TType *type;        /* set by tail_check */
};

/* ---- the operations (ops.c): one row each ---- */
typedef struct LowerCtx LowerCtx;
typedef struct LVal LVal;
/* Lower op(args…) (lower_ops.c); NULL + diag. */
typedef LVal *(*TLowerFn)(LowerCtx *c, TExp *e, LVal **args);
struct TOp {
  const char *name;
  int arity;
  const char *scheme;    /* Figures 3.2–3.4, in the type syntax with variables a b… g h */
  const char *refined;   /* a more precise scheme tried first (apltail's refinements), or NULL */
  const char *prim;      /* scalar ops: the clift primitive (a name the .lift parser knows) */
  bool assoc;            /* binary scalar op that is associative (reduce may run as a tree) */
  TLowerFn lower;        /* NULL: not lowered yet (a clear error) */
  bool (*check)(TExp *e);  /* a static condition beyond the scheme (check.c), or NULL */
};
const TOp *tail_op_lookup(const char *name);
const TOp *tail_op_at(int i);          /* the table in order; NULL after the last */
/* The scheme of op parsed (scheme variables kept), cached. */
TType *tail_op_scheme(const TOp *op, bool refined);

/* ---- stages ---- */
/* Parse the textual syntax of docs/apl.md §2.1. NULL + diag on error. */
TExp *tail_parse(const char *file, const char *text);
/* Parse a type; `scheme` allows variables (a b for base types, g h for shapes). */
TType *tail_parse_type_text(const char *text, bool scheme);
/* Print as tail_parse reads it: print∘parse is the identity on printed text. */
void tail_print(Buf *b, TExp *e);
/* Type-check (§2.3); sets every node's type. false + diag (file:line:col). */
bool tail_check(TExp *e);
/* The type of one operation or vector whose kids are typed already (the APL
   elaborator builds TAIL bottom-up with it); sets e->type. NULL + diag. */
TType *tail_check_node(TExp *e);
/* Is op one of the print operations (prArrI … prSclC: APL's ⎕←)? */
bool tail_op_is_print(const TOp *op);
/* transp2's axes: a literal permutation of 1..rank (docs/apl.md §2.3). */
bool tail_check_permutation(TExp *e);

/* One printed value (docs/apl.md §4): its TAIL type and extents; a dynamic
   one (a compress result) is two fields of the core result, its length and
   its elements padded to the bound ext[0]; a transposed one (a matrix with a
   run-time number of columns: L/M) is held with its columns first, padded to
   the bound ext[1], and printed by rows. */
typedef struct TailOutput { TType *type; int rank; Nat **ext; bool dynamic, transposed; } TailOutput;

/* The lowered program: a clift Program whose parameters are the hidden inputs
   (literal vectors), their values as literals, and what the outputs are: the
   values of the top-level print operations in order, then the program's value
   (unless `final` was false). The core result is the one output's value when
   there is one static output (tuple false), else a tuple of the fields. */
typedef struct TailProgram {
  TExp *tail;
  Program *core;        /* parsed-level tree, then normalised and typed */
  int nhidden;
  const char **hidden;  /* the literal of each parameter of core */
  TType *type;          /* the TAIL type of the output */
  int rank;             /* its rank and extents */
  Nat **ext;
  int noutputs;
  TailOutput *outputs;
  bool tuple;
} TailProgram;
TailProgram *tail_lower(TExp *e, const char *file, bool final);

/* The whole front end for a .tail file: parse, check, lower, normalise, infer. */
TailProgram *tail_compile_text(const char *file, const char *text);
TailProgram *tail_compile(TExp *e, const char *file);   /* from check on */
/* The same with `final` (false: the body is not printed, APL's last statement
   being an assignment or ⎕←). */
TailProgram *tail_compile_outputs(TExp *e, const char *file, bool final);
/* The hidden inputs as values for driver_run. */
Value **tail_inputs(TailProgram *tp);
/* One output line (docs/apl.md §4): ints %d, doubles %.17g, booleans 0/1,
   chars as text, vectors [1, 2], higher ranks nested. */
void tail_print_value(Buf *b, Value *v, TType *t);
/* Output k of the program's result (one or more lines); returns the clift
   type of what it printed (a tuple field's), to read expected lines with. */
Type *tail_print_output(Buf *b, Value *v, TailProgram *tp, int k);
/* Every output of the program's result, one or more lines each. */
void tail_print_outputs(Buf *b, Value *v, TailProgram *tp);
/* `clift check`: the outputs' TAIL types and extents, e.g. "[double]1 14",
   one line each. */
const char *tail_describe(TailProgram *tp);

/* Does the file name end in ".tail"? (the CLI dispatches on it) */
bool tail_is_file(const char *path);

#endif
