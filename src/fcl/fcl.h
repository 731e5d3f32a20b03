/* fcl.h — FCL, the hierarchical push/pull GPU language of seed 003 chapter 5
   (docs/fcl.md): its tokens, AST, types and kinds, values, and the stages
     text ─fcl_lex─▶ tokens ─fcl_parse─▶ FProgram ─fcl_check─▶ typed FProgram
          ─fcl_run─▶ FValue (the interpreter of §5.3.3)
   Milestone 1 of issue 15: the front end and the interpreter; nothing here is
   compiled onto clift's kernels yet. */
#ifndef CLIFT_FCL_H
#define CLIFT_FCL_H
#include "../util/util.h"
#include "../io/value.h"

enum { FCL_MAX_DEPTH = 200 };          /* parser and checker nesting limit */
enum { FCL_DEFAULT_BLOCK_SIZE = 256 }; /* #BlockSize in the interpreter (docs/fcl.md §4) */

/* ---- tokens (lex.c) ---- */
typedef enum {
  FT_EOF, FT_ID, FT_TYVAR /* 'a */, FT_INT, FT_DOUBLE,
  FT_LPAREN, FT_RPAREN, FT_LBRACK, FT_RBRACK, FT_LBRACE, FT_RBRACE,
  FT_COMMA, FT_SEMI, FT_COLON, FT_DOT, FT_EQ, FT_ARROW /* -> */, FT_DARROW /* => */,
  FT_LARROW /* <- */, FT_PIPE /* |> */, FT_HASH_BLOCKSIZE /* #BlockSize */,
  FT_OP,      /* a scalar operator: + - * / % == != < <= > >= && || << >> (text) */
  /* keywords */
  FT_SIG, FT_FUN, FT_VAL, FT_FN, FT_LET, FT_IN, FT_END, FT_IF, FT_THEN, FT_ELSE,
  FT_DO, FT_FORALL, FT_TRUE, FT_FALSE
} FTokKind;

typedef struct FToken {
  FTokKind kind;
  Loc loc;
  const char *text;   /* ID, TYVAR (with its '), OP */
  long long ival;     /* INT */
  double dval;        /* DOUBLE */
} FToken;

/* The whole file as tokens, ending with FT_EOF; NULL + diag on a bad character. */
FToken *fcl_lex(const char *file, const char *text, int *ntok);
const char *fcl_token_name(FTokKind k);

/* ---- levels (§5.3: l ::= δ | Z | 1+l) ---- */
typedef enum { FL_Z, FL_SUCC, FL_VAR /* a declared level variable δ */, FL_META /* unknown */ } FLevelKind;
typedef struct FLevel FLevel;
struct FLevel {
  FLevelKind kind;
  FLevel *inner;      /* SUCC: l in 1+l; META: what it was unified with (NULL: unknown) */
  const char *name;   /* VAR: δ's name; parse trees: an unresolved name (kind FL_VAR) */
  int id;
  Loc loc;            /* META: the use that needs it (for "cannot determine") */
};

/* ---- types and kinds (§5.3.1) ---- */
typedef enum { FK_BT, FK_GT, FK_TYP } FKind;   /* BT ⊂ GT ⊂ TYP (rules 5.7, 5.8) */
typedef enum {
  FY_INT, FY_DOUBLE, FY_BOOL, FY_UNIT, FY_VAR,
  FY_PAIR, FY_FUN, FY_PULL /* [τ] */, FY_PUSH /* [bt]<l> */, FY_PROG /* Program<l> τ */
} FTypeKind;

typedef struct FType FType;
struct FType {
  FTypeKind kind;
  FType *a, *b;       /* PAIR, FUN: the two sides; PULL, PUSH, PROG: a = the element/result */
  FLevel *lvl;        /* PUSH, PROG */
  /* VAR: a unification variable, a sig's rigid variable, or (parse trees) a name */
  FType *link;        /* bound to (NULL: free) */
  FKind vkind;        /* the kind it must have (rule 5.5) */
  bool rigid;         /* a type variable of a sig (skolem) or of a generalised scheme */
  bool fixed;         /* rigid: its kind is final (a sig's unannotated variables take the
                         kind their definition needs, docs/fcl.md §2.2, then are fixed) */
  bool num;           /* an operand of an overloaded operator: int or double (§3.3) */
  const char *name;   /* 'a for sig variables */
  int id;
  Loc loc;
};

typedef struct FScheme {
  int nlvars, ntvars;
  FLevel **lvars;     /* FL_VAR, in the order of the <…> list */
  FType **tvars;      /* rigid FY_VAR */
  FType *body;
} FScheme;

FType *ftype_new(FTypeKind k, FType *a, FType *b, FLevel *lvl);
FType *ftype_var(FKind k, Loc loc);           /* a fresh unification variable */
FType *ftype_prune(FType *t);                 /* follow links */
FLevel *flevel_new(FLevelKind k, FLevel *inner, const char *name);
FLevel *flevel_meta(Loc loc);
FLevel *flevel_prune(FLevel *l);
const char *ftype_str(FType *t);
const char *flevel_str(FLevel *l);
const char *fscheme_str(FScheme *s);
const char *fkind_name(FKind k);
/* Unify (false + diag at loc on a mismatch: "what: expected A, found B"). */
bool ftype_unify(FType *want, FType *got, Loc loc, const char *what);
bool flevel_unify(FLevel *a, FLevel *b);
/* Δ ⊢ τ : κ (rules 5.1–5.12): false + diag at loc when τ does not have kind k;
   unification variables in τ are narrowed to the kind they need. */
bool ftype_has_kind(FType *t, FKind k, Loc loc);
const char *ftype_kind_why(FType *t, FKind k);   /* NULL when t : k, else why not */
FType *fscheme_instantiate(FScheme *s, FLevel **largs, Loc loc);

/* ---- expressions ---- */
typedef enum {
  FE_INT, FE_DOUBLE, FE_BOOL, FE_UNIT, FE_BLOCKSIZE,
  FE_VAR,     /* x<l…> */
  FE_PAIR, FE_FN, FE_APP, FE_LET, FE_IF
} FExpKind;

typedef struct FExp FExp;
struct FExp {
  FExpKind kind;
  Loc loc;
  long long ival;
  double dval;
  const char *name;     /* VAR; FN: the parameter; LET: the bound name */
  FLevel **largs;       /* VAR: level arguments; LET: level parameters (FL_VAR) */
  int nlargs;
  bool has_largs;       /* VAR: <…> was written (else all are inferred) */
  FExp *a, *b, *c;      /* PAIR a b; FN body a; APP a b; LET a (bound) b (body); IF a b c */
  FType *type;          /* after checking */
  int slot;             /* VAR: the built-in's row + 1, or 0 */
  FLevel **inst;        /* VAR, after checking: the levels its scheme was instantiated
                           with (given or inferred), one per level variable */
  int ninst;
};

typedef struct FDef {
  const char *name;
  Loc loc;
  FLevel **lparams;     /* declared <δ…> (FL_VAR) */
  int nlparams;
  FExp *body;           /* fun f x y = e: fn x => fn y => e */
  FScheme *sig;         /* the sig, if one was given */
  Loc sig_loc;
  FScheme *scheme;      /* after checking */
} FDef;

typedef struct FProgram {
  const char *file;
  FDef **defs;
  int ndefs;
} FProgram;

FProgram *fcl_parse(const char *file, const char *text);
bool fcl_is_file(const char *path);
/* Parse a type scheme in the sig syntax ("forall <l> 'a. ['a] -> ['a]<l>");
   the kinds of its variables follow from where they occur (docs/fcl.md §2.2). */
FScheme *fcl_parse_scheme(const char *file, const char *text);

/* ---- checking (check.c) ---- */
bool fcl_check(FProgram *p);
/* "name : scheme" per definition, one per line */
const char *fcl_describe(FProgram *p);

/* ---- monomorphisation (mono.c, §5.3.2) ---- */
/* A checked program with every level-polymorphic definition copied per level
   instance (named f<block>) and every level concrete; NULL + diag. */
FProgram *fcl_monomorphise(FProgram *p);
/* thread 0, block 1, grid 2, …; -1 for a level that is not concrete */
int fcl_level_depth(FLevel *l);

/* ---- the built-ins (ops.c: one table, Figure 5.4 and 5.5) ---- */
typedef struct FValue FValue;
typedef struct FEval FEval;
typedef FValue *(*FOpEval)(FEval *ev, FValue **args, Loc loc);
typedef struct FOp {
  const char *name;
  int arity;
  const char *scheme;   /* in the sig syntax; 'n is an int-or-double variable */
  FOpEval eval;
  const char *rule;     /* the thesis's rule or figure */
} FOp;
const FOp *fcl_op_at(int i);
const FOp *fcl_op_lookup(const char *name);
FScheme *fcl_op_scheme(const FOp *op);

/* ---- values (interp.c; §5.3.3) ---- */
typedef enum {
  FV_INT, FV_DOUBLE, FV_BOOL, FV_UNIT, FV_PAIR,
  FV_CLOSURE, FV_OP,          /* a built-in applied to fewer arguments than its arity */
  FV_PULL,                    /* [e0, …, en-1]: a length and a way to compute element i */
  FV_PUSH,                    /* Push, Interleave, InterleaveSeq, SeqFor, mapPush (below) */
  FV_PROG                     /* Program<l> v */
} FValueKind;

typedef enum { PULL_MANIFEST, PULL_GEN /* f i */, PULL_MAP /* f (src i) */ } FPullKind;
typedef enum { PUSH_PULL, PUSH_INTERLEAVE, PUSH_SEQFOR, PUSH_MAP, PUSH_MAPIX } FPushKind;

typedef struct FEnv FEnv;
struct FValue {
  FValueKind kind;
  long long i; double d; bool b;
  FValue *x, *y;              /* PAIR; PULL: f, src; PUSH: see interp.c; PROG: x */
  FValue **elems;             /* PULL_MANIFEST; OP: the arguments so far */
  long long n;                /* PULL, PUSH: length; OP: arguments so far */
  int sub;                    /* PULL: FPullKind; PUSH: FPushKind */
  const FOp *op;              /* OP */
  FExp *fn;                   /* CLOSURE: the fn */
  FEnv *env;                  /* CLOSURE */
  FValue *z, *w;              /* PUSH: more parts */
};

struct FEval {
  long long block_size;      /* #BlockSize */
  int depth;                 /* nested calls, against stack overflow */
};

FValue *fcl_apply(FEval *ev, FValue *f, FValue *arg, Loc loc);
FValue *fcl_index(FEval *ev, FValue *arr, long long i, Loc loc);
FValue *fcl_force(FEval *ev, FValue *push, Loc loc);   /* a manifest pull array */
FValue *fval_int(long long i);
FValue *fval_double(double d);
FValue *fval_bool(bool b);
FValue *fval_new(FValueKind k);

/* Run: the entry (main, else the last definition) applied to the inputs (clift's
   literal syntax); the result as a clift Value for printing. NULL + diag. */
Value *fcl_run(FProgram *p, int ninputs, const char **inputs, long long block_size);
/* The same in steps: the entry (main, else the last definition; NULL + diag
   when it cannot run on ninputs inputs), its inputs read, and the run. */
FDef *fcl_entry(FProgram *p, int ninputs);
FDef *fcl_entry_def(FProgram *p);   /* main, else the last definition, unchecked */
Value **fcl_read_inputs(FProgram *p, int ninputs, const char **inputs);
Value *fcl_run_values(FProgram *p, int ninputs, Value **inputs, long long block_size);
/* The whole CLI paths (main.c; driver.c): parse, check, describe (mono: the
   monomorphised program) / run on the interpreter or compile for the inputs'
   shapes and run on a target, print. */
struct Target;
struct RunOptions;
int fcl_cli_check(const char *path, bool mono);
int fcl_cli_run(const char *path, const struct Target *t, const struct RunOptions *o, int ninputs, const char **inputs,
                const char *out);
/* `clift compile -o DIR prog.fcl`: refused (docs/fcl.md §6.7), at the entry:
   "not supported on TARGET: a library …", exit 1. */
int fcl_cli_library(const char *path, const struct Target *t);
/* clift bench prog.fcl inputs…: compiled once for the inputs' shapes, --check
   against the interpreter, a warm-up and o->runs timed runs (cli/bench.c's
   check and report); the exit status. */
struct BenchOptions;
int fcl_cli_bench(const char *path, const struct BenchOptions *o, int ninputs, const char **inputs);
/* clift compile --print|--ptx prog.fcl inputs…: the generated source; NULL + diag */
const char *fcl_cli_source(const char *path, const struct Target *t, int ninputs, const char **inputs);
/* the same of a program's text (no file read: the fuzzer, tests/fuzz) */
const char *fcl_text_source(const char *file, const char *text, const struct Target *t, int ninputs, const char **inputs);
/* clift test: one block on one target; NULL when it passes, else why
   (diag_kind() == DIAG_UNSUPPORTED: a refusal) */
const char *fcl_test_block(const char *file, int ninputs, const char **inputs, const char *output, const char *error,
                           const struct Target *t);

#endif
