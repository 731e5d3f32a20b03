/* infer.h — the type checker (SPEC §3.3). After normalisation every lambda is a
   primitive's function argument whose parameter types follow from the other
   arguments, so checking is bidirectional: arguments first, then each lambda
   checked against the parameter types its primitive gives it. Array lengths
   are compared with nat_equal; conditions that need the actual sizes become
   run-time SizeChecks. The primitives' rules live in infer_*.c. */
#ifndef CLIFT_INFER_H
#define CLIFT_INFER_H
#include "../prim/prim.h"
#include "../syntax/ast.h"

typedef struct TypeEnv { int uid; Type *type; struct TypeEnv *next; } TypeEnv;
typedef struct PendingOpen PendingOpen;   /* exists.c */

struct InferCx {
  Program *prog;
  TypeEnv *env;
  /* dynamic-length arrays (exists.c): the rigid lengths made so far, and the
     arguments of the primitive being checked that were unpacked */
  NatVar **rigid; int nrigid, nrigid_used, rigid_cap;
  PendingOpen *pending;
};

/* Type-check a normalised program: sets every e->type, p->result, p->checks. */
bool infer_program(Program *p);

/* SPEC §4.2: parallel maps nested validly (nesting.c); error at the inner map. */
bool infer_check_nesting(Program *p);

/* ---- for the rules ---- */
Type *infer_expr(InferCx *cx, Expr *e);
/* Check a lambda against parameter types; returns the body's type. */
Type *infer_fn(InferCx *cx, Expr *lambda, int n, Type **params);
/* Type of an array argument, or an error naming the primitive and what was found. */
Type *infer_array_arg(InferCx *cx, Expr *e, Expr *app);
/* The nat of a size-literal argument. */
Nat *infer_nat_arg(Expr *e);
void infer_bind(InferCx *cx, int uid, Type *type);

/* ---- dynamic-length arrays (exists.c, SPEC §3.4) ---- */
/* {∃X.[elem]X} with X in [0, the largest value of len]. */
Type *infer_exists(InferCx *cx, Type *elem, Nat *len);
/* A let whose value has type `bound` (a {∃…}) or an explicit unpack (bound
   NULL): the body with the variable opened; packed when the body mentions it. */
Type *infer_unpack(InferCx *cx, Expr *e, Type *bound);
Type *infer_pack(InferCx *cx, Expr *e);
/* A primitive's argument of type t = {∃…}: replaced by a variable of the
   opened type, which is returned; infer_close wraps the application. */
Type *infer_open_arg(InferCx *cx, Expr *app, Expr *arg, Type *t);
Type *infer_close(InferCx *cx, Expr *e, PendingOpen *mark, Type *t);
/* A function's parameters of type {∃…} are unpacked around its body. */
void infer_open_params(InferCx *cx, Expr *lam);
/* Does n mention a rigid length (known only at run time)? *which: the first. */
bool infer_mentions_rigid(InferCx *cx, Nat *n, NatVar **which);
/* lhs % rhs == 0 (CHECK_DIVIDES) or lhs <= rhs (CHECK_LE): proven now, refuted
   now (error), or left for run time. */
bool infer_require(InferCx *cx, SizeCheckKind kind, Nat *lhs, Nat *rhs, Expr *app, const char *what);
/* The element type of xs at position i: for [i -> T]n, T with i replaced by a
   fresh variable in [0, n-1] (written to *index); for [T]n, T. */
Type *infer_elem_at(Type *array, NatVar **index);
Type *infer_elem_for(Type *array, Expr *fn);

#endif
