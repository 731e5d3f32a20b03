/* interp.h — the reference interpreter: the functional semantics of the typed
   program, the oracle every backend is checked against (SPEC §1). Low-level
   patterns mean the same as their high-level counterparts here. */
#ifndef CLIFT_INTERP_H
#define CLIFT_INTERP_H
#include "../prim/prim.h"
#include "../syntax/ast.h"
#include "../io/value.h"

struct Env { int uid; Value *value; Env *next; };

struct Interp {
  Program *prog;
  NatBinding *nats;      /* size variables, and position variables while inside a lambda */
};

/* Evaluate the program on inputs whose sizes were bound by the driver. */
Value *interp_run(Program *p, Value **inputs, NatBinding *sizes);

/* ---- for the rules ---- */
Value *interp_eval(Interp *it, Expr *e, Env *env);
/* Call a lambda on argument values; `position` binds the lambda's position
   variable (maps over position-dependent arrays) when it has one. */
Value *interp_call(Interp *it, Expr *lambda, Value **args, Env *env, long long position);
/* The value of a size expression under the current bindings; false + diag on error. */
bool interp_nat(Interp *it, Nat *n, Loc loc, long long *out);
/* An array of the given array type to fill element by element (value_set_elem):
   flat when its elements are scalars or regular arrays of scalars, else boxed. */
Value *interp_new_array(Interp *it, Type *type, int64_t n, Loc loc);
/* v, or NULL and its error when v holds an element of a lazy map that failed
   (eval_map): what a strategy stores, an accumulator and the result are read whole. */
Value *interp_demand(Value *v);
/* Evaluate an array argument. */
Value *interp_array(Interp *it, Expr *e, Env *env);

#endif
