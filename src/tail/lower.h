/* lower.h — lowering TAIL to clift's parser-level AST (docs/apl.md §3),
   internal to src/tail: the lowered values and the tree builders. */
#ifndef CLIFT_TAIL_LOWER_H
#define CLIFT_TAIL_LOWER_H
#include "tail.h"

typedef struct LEnv LEnv;

/* A lowered TAIL value (§3.1): the clift expression, base type, rank and
   extents (nats), and a static value where one is known at compile time (int
   or bool scalars, int vectors). A function value is kept as TAIL and lowered
   at each use with its arguments' shapes (lower_fn). */
struct LVal {
  Expr *e;
  TBase base;
  int rank;
  Nat **ext;               /* rank extents, outermost first */
  bool known;              /* a static scalar: k */
  long long k;
  long long *vals;         /* a static int vector of ext[0] items, or NULL */
  bool reduces;            /* let-bound, not in memory, each element a reduction (lower_let) */
  bool ranged;             /* every element of an int value lies in [lo, hi] (lower_range.c) */
  long long lo, hi;
  Loc unranged_at;         /* no range: the first operation on the way that gave none (file NULL: unknown) */
  bool rows_first;         /* e holds the array with its last axis first (axes r-1, 0, …, r-2), ext in
                              TAIL's order: a run-time length on the last axis kept outermost in clift
                              (a run-time / or ⌿ of rank ≥ 2, its ⍉; lower_gather.c, lower_unfold) */
  TExp *fn;                /* a function value (TE_FN or an operation) … */
  LEnv *env;               /* … and the scope it was written in */
};

struct LEnv { const char *name; LVal *val; LEnv *next; };

/* A run-time length (a compress result's): a placeholder nat variable that
   stands for (getLength name) once the value is let-bound to `name`, and the
   bound (the length of what was compressed). */
typedef struct LDyn { NatVar *var; const char *name; Nat *bound; struct LDyn *next; } LDyn;

/* A printed value: the bound variable (or the final value) and its type. */
typedef struct LOut { LVal *v; TType *type; } LOut;

struct LowerCtx {
  const char *file;
  bool top;                /* lowering the top-level let chain (prints allowed) */
  bool final;              /* the body is an output */
  int nouts, cap_outs;
  LOut *outs;
  LDyn *dyns;
  int fresh;               /* names of lambda parameters: x'1, x'2, … */
  int fn_depth;            /* lowering the body of a function (lower_fn): no parallel loop of its own there */
  int nparams, cap_params;
  Param *params;           /* hidden inputs (literal vectors) */
  int nhidden, cap_hidden;
  const char **hidden;     /* their literals */
  LEnv *env;
};

/* ---- tree builders: the trees parse_program builds (lower.c) ---- */
Expr *lx_var(const char *name, Loc loc);
Expr *lx_int(long long v, Loc loc);
Expr *lx_double(double v, Loc loc);
Expr *lx_bool(bool v, Loc loc);
Expr *lx_nat(long long v, Loc loc);                          /* #v */
Expr *lx_app(Loc loc, const char *f, int n, ...);             /* (f args…) */
Expr *lx_lambda(Loc loc, int n, const char **names, Expr *body);
Expr *lx_let(Loc loc, const char *name, Expr *value, Expr *body);
const char *lx_fresh(LowerCtx *c, const char *stem);          /* a name no TAIL variable has */
Expr *lx_known(TBase base, long long k, Loc loc);             /* a static int or bool as a literal */

/* A size literal #n for an extent, (getLength x) for a run-time length;
   NULL + diag when a run-time length has no name yet. */
Expr *lx_nat_of(LowerCtx *c, Nat *n, Loc loc);
/* The run-time length placeholder in n, or NULL. */
LDyn *lower_dyn_of(LowerCtx *c, Nat *n);
/* An extent as an int expression at run time ((length x) for a dynamic one). */
Expr *lower_extent_expr(LowerCtx *c, Nat *n, Loc loc);

/* ---- values ---- */
LVal *lval_new(Expr *e, TBase base, int rank);
LVal *lval_scalar(Expr *e, TBase base);
long long lval_ext(LVal *v, int axis);   /* a constant extent, -1 for a run-time length */
/* The same, or false + diag ("not supported yet") for a run-time length. */
bool lower_static_ext(TExp *e, LVal *v, int axis, long long *n);
/* The value bound to a fresh variable (a let or lambda parameter): same shape, e = name. */
LVal *lval_named(LVal *v, const char *name, Loc loc);

/* e (an array of rank r) written to memory once: a mapGlb over its rows (at
   the top of the program, fn_depth 0). */
Expr *lower_materialise(LowerCtx *c, Expr *e, int r, Loc loc);
/* Does the TAIL expression e reduce (each element of its value a reduction)? */
bool lower_reduces(TExp *e);
/* Does reading an element of e compute a reduction: e reduces, or reads a
   let-bound array of reductions left in place (LVal.reduces)? */
bool lower_reads_reductions(LowerCtx *c, TExp *e);
/* … or call a math function (pow, exp, log, sqrt, trigonometry, division)? */
bool lower_costly(TExp *e);

/* Lower f applied to n arguments of the given shapes as a clift lambda: the
   body's value with e the lambda. */
LVal *lower_fn(LowerCtx *c, LVal *f, int n, LVal **args, Loc loc);
/* Apply f to argument values directly (a scalar op inline, else the lambda). */
LVal *lower_apply(LowerCtx *c, LVal *f, int n, LVal **args, Loc loc);

/* ---- operations (lower_ops.c, lower_scalar.c) ---- */
LVal *lower_binop(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_unop(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_neg(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_b2i(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_round(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_i2d(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_pi(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_each(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_zipwith(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_reduce(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_cons(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_snoc(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_drop(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_rotate(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_iota(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_shape(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_first(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_res(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_print(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_compress(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_reshape(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_transp2(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_take(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_vrotate(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_reverse(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_cat(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_index(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_power(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_sign(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_notbin(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_transp(LowerCtx *c, TExp *e, LVal **a);
/* lower_gather.c: scan, and the static gathers of replicate, expand and compress */
LVal *lower_scan(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_replicate(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_expand(LowerCtx *c, TExp *e, LVal **a);
LVal *lower_compress_static(LowerCtx *c, TExp *e, LVal *mask, LVal *x);
/* compress along the last axis of rank ≥ 2 by a mask computed at run time
   (APL's /, and ⌿ under transp2): the selection held with that axis first */
LVal *lower_compress_rows(LowerCtx *c, TExp *e, Expr *mask, LVal *x);
/* v in TAIL's order (a transposing view of a rows_first v, read where the
   run-time length is a name in scope), or v itself */
LVal *lower_unfold(LowerCtx *c, TExp *e, LVal *v);
/* v in TAIL's order with a run-time length on its last axis only (a / result
   read in TAIL's order: +\R, ⊖R, 1↓R): held again with that axis first
   (transposing views, rows_first), so that it can be bound; else v */
LVal *lower_hold(LowerCtx *c, TExp *e, LVal *v);
/* the fill element of a base type (0, 0.0, false; a blank for chars), known */
LVal *lower_fill(TBase base, Loc loc);
/* lower_range.c: the range of v's elements, when known (a known scalar, a
   static vector, booleans, v->ranged) */
bool lower_range_of(LVal *v, long long *lo, long long *hi);
/* rows (the items of y selected, a run-time count of at most `bound`) as the
   value of e: a vector, or the rows kept first (rank ≥ 2, rows_first); its
   length a run-time one (LDyn). lower_gather.c */
LVal *lower_with_rows(LowerCtx *c, TExp *e, Expr *rows, LVal *y, Nat *bound);
/* v, the value of e applied to a, with its elements' range where the
   operation gives one */
LVal *lower_ranged(TExp *e, LVal **a, LVal *v);
/* v with the range [floor(lo), ceil(hi)] (a double literal's), when finite and within an int's */
LVal *lower_range_double(LVal *v, double lo, double hi);
/* A static int vector as a value (a hidden input). */
/* The most items of a static int vector whose values the lowering keeps (to
   fold shapes and counts when compiling): a longer one (⍳50000000) keeps
   none, so the compiler's time and memory do not grow with a count the
   program names (found by the fuzzer: 400 MB and seconds for ⍳5e7). */
enum { LOWER_STATIC_MAX = 1 << 16 };
LVal *lower_static_vector(LowerCtx *c, int n, const long long *vals, Loc loc);

#endif
