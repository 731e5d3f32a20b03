/* elab.h — internal to src/apl: the elaborator's context and its TAIL
   builders (elab.c), and the application of APL functions (elab_fn.c). */
#ifndef CLIFT_APL_ELAB_H
#define CLIFT_APL_ELAB_H
#include "apl.h"
#include <stdarg.h>

/* The lets of one scope (the program, or one TAIL fn body), in order. */
typedef struct LetScope { int n, cap; TExp **lets; } LetScope;

/* A name's binding: a value (a typed TAIL variable or literal), or a
   function (its APL node and the bindings it was written among). */
typedef struct EBind {
  const char *name;
  TExp *val;
  AplNode *fn;
  struct EBind *fenv;
  struct EBind *next;
} EBind;

typedef struct Elab {
  const char *file;
  int fresh;          /* v0, v1, … */
  int depth;          /* nesting of values and dfn calls */
  LetScope *scope;
  EBind *env;         /* the bindings visible at the node elaborated */
} Elab;

/* typed TAIL (elab.c) */
TExp *el_node(TExpKind kind, Loc loc, int n);
TExp *el_op(const char *name, Loc loc, int n, ...);
TExp *el_opval(const char *name, Loc loc);
TExp *el_int(long long v, Loc loc);
TExp *el_bool(bool v, Loc loc);
TExp *el_double(double v, Loc loc);
TExp *el_char(int cp, Loc loc);
TExp *el_var(const char *name, TType *t, Loc loc);
TExp *el_vec(Loc loc, int n, TExp **items);
TExp *el_ints(Loc loc, int n, const long long *v);
TExp *el_fn(const char *x, TType *t, TExp *body, Loc loc);
int el_rank(TExp *e);
TBase el_base(TExp *e);
bool el_is_literal(TExp *e);
long long el_length(TExp *e);
const char *el_fresh(Elab *cx);
TExp *el_bind(Elab *cx, TExp *value);
TExp *el_atomic(Elab *cx, TExp *e);
TExp *el_copy(TExp *e);
TExp *el_close(LetScope *s, TExp *body);
TBase el_join(TBase a, TBase b);
TExp *el_coerce(Elab *cx, TExp *e, TBase to);
EBind *el_lookup(EBind *env, const char *name);
EBind *el_bind_name(EBind *env, const char *name, TExp *val, AplNode *fn, EBind *fenv);
TExp *el_value(Elab *cx, AplNode *a);
/* The statements of the program (top) or of a dfn; see elab.c. */
bool el_stmts(Elab *cx, int n, AplNode **stmts, EBind **env, TExp **last, bool top);

/* Static evaluation (elab_fold.c): an int or bool scalar's value, a small int
   vector's length and the items known (depth: 0 at the call) */
bool el_fold_int(Elab *cx, TExp *e, int depth, long long *out);
bool el_fold_vec(Elab *cx, TExp *e, int depth, long long **v, bool **known, int *n);
void el_fold_new(int n, long long **v, bool **known);

/* helpers of elab_fn.c: a glyph as text, a base type's fill element, the
   length of axis k (0-based) of an atomic x as an int scalar */
const char *el_glyph(int cp);
TExp *el_fill(TBase b, Loc loc);
TExp *el_axis_length(TExp *x, int k, Loc loc);

/* elab_select.c: L/R L⌿R (compress, replicate), L\R L⍀R (expand); A[i;j…];
   monadic ⍪ */
TExp *el_select(Elab *cx, AplNode *f, TExp *l, TExp *a);
TExp *el_index(Elab *cx, AplNode *a);
TExp *el_table(Elab *cx, AplNode *f, TExp *x);

/* f applied to right (and left, NULL when monadic); f's names resolve in fenv
   (elab_fn.c) */
TExp *el_apply(Elab *cx, AplNode *f, EBind *fenv, TExp *left, TExp *right);

#endif
