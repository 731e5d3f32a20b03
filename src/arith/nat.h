/* nat.h — symbolic natural-number arithmetic (SPEC §3.1).
   Sizes of arrays are Nat expressions over size variables and loop indices.
   All nodes live in the arena and are immutable; constructors return simplified
   (canonical) expressions, so structural equality of canonical forms is cheap.
   Constructors expect canonical arguments; nat_simplify canonicalises a raw tree.
   Design notes (canonical form, floor semantics, Σ, ranges, sampling): docs/arith.md. */
#ifndef CLIFT_NAT_H
#define CLIFT_NAT_H
#include "../util/util.h"

typedef struct Nat Nat;

/* A variable: a size variable (N ∈ [1, ∞)), a loop index (i ∈ [0, n-1]),
   or a Σ-bound index. lo/hi are inclusive bounds; hi == NULL means unbounded. */
typedef struct NatVar {
  const char *name;
  int id;            /* unique, gives atoms a stable sort order */
  Nat *lo, *hi;
} NatVar;

typedef enum {
  NAT_CONST, NAT_VAR,
  NAT_ADD,   /* args[0..n-1] summed */
  NAT_MUL,   /* args[0..n-1] multiplied */
  NAT_DIV,   /* floor(args[0] / args[1]) */
  NAT_MOD,   /* args[0] mod args[1] */
  NAT_POW,   /* args[0] ^ args[1] */
  NAT_MIN, NAT_MAX,
  NAT_SUM,   /* Σ_{var = args[0]}^{args[1]-1} args[2] */
  NAT_IF     /* if args[0] < args[1] then args[2] else args[3] */
} NatKind;

struct Nat {
  NatKind kind;
  long long value;   /* NAT_CONST */
  NatVar *var;       /* NAT_VAR; the bound index of NAT_SUM */
  int n;             /* number of args */
  Nat **args;
};

/* ---- construction (each returns a simplified expression) ---- */
NatVar *nat_var_new(const char *name, Nat *lo, Nat *hi);
/* Restart the variable ids at 1: only once every NatVar is gone (the arena
   released between unrelated programs, as the fuzzer does). */
void nat_reset_var_ids(void);
Nat *nat_const(long long v);
Nat *nat_var(NatVar *v);
Nat *nat_add(Nat *a, Nat *b);
Nat *nat_sub(Nat *a, Nat *b);
Nat *nat_mul(Nat *a, Nat *b);
Nat *nat_div(Nat *a, Nat *b);   /* floor division */
Nat *nat_mod(Nat *a, Nat *b);
Nat *nat_pow(Nat *a, Nat *b);
Nat *nat_min(Nat *a, Nat *b);
Nat *nat_max(Nat *a, Nat *b);
/* Σ_{k=from}^{to-1} body, closed form when one exists (SPEC §3.1 list). */
Nat *nat_sum(NatVar *k, Nat *from, Nat *to, Nat *body);
/* if a < b then t else e; resolved by range analysis when possible. */
Nat *nat_if_lt(Nat *a, Nat *b, Nat *t, Nat *e);

/* ---- analysis ---- */
Nat *nat_simplify(Nat *e);                 /* canonical form of any (possibly raw) tree */
Nat *nat_subst(Nat *e, NatVar *v, Nat *by); /* replace v by `by`, re-simplified */
bool nat_is_const(Nat *e, long long *value); /* true when e is a constant */
/* Structural equality of two trees (for canonical forms: the cheap half of nat_equal). */
bool nat_same(Nat *a, Nat *b);
/* Range analysis: symbolic lower/upper bound of e given its variables' ranges.
   nat_max_of returns NULL when e is unbounded above (nat_min_of likewise when e,
   not a nat, is unbounded below, e.g. -N). Bounds may mention variables. */
Nat *nat_min_of(Nat *e);
Nat *nat_max_of(Nat *e);
/* Provably a <= b / a < b (by ranges); false means "not proven". */
bool nat_proves_le(Nat *a, Nat *b);
bool nat_proves_lt(Nat *a, Nat *b);
/* SPEC §3.1 equality: canonical forms equal, else agreement at many sample points
   inside the variables' ranges. */
bool nat_equal(Nat *a, Nat *b);
/* Does e mention variable v? */
bool nat_mentions(Nat *e, NatVar *v);
/* Collect the distinct free variables of e (Σ-bound ones excluded) into out;
   returns the count (at most cap are written). */
int nat_free_vars(Nat *e, NatVar **out, int cap);
/* All of them, in an arena array of *n (NULL when there are none). */
NatVar **nat_free_var_list(Nat *e, int *n);
/* Is every free variable of e one of a[0..na) or b[0..nb) (b may be NULL)? */
bool nat_vars_within(Nat *e, NatVar *const *a, int na, NatVar *const *b, int nb);

/* ---- evaluation: values for variables by lookup function ---- */
typedef bool (*NatLookup)(void *ctx, NatVar *v, long long *value);
/* Size variables bound to values (a program's sizes, the interpreter's
   position variables): a list, read with layout_lookup as a NatLookup. */
typedef struct NatBinding { NatVar *var; long long value; struct NatBinding *next; } NatBinding;
/* false on division by zero, an unbound variable, a negative exponent, or a result
   outside 64 bits (no message is recorded; *value is left alone). */
bool nat_eval(Nat *e, NatLookup lookup, void *ctx, long long *value);

/* ---- printing ---- */
void nat_print_c(Buf *b, Nat *e);        /* C expression, minimal parentheses */
void nat_print_sexpr(Buf *b, Nat *e);    /* (+ N (* 2 M)) */
const char *nat_to_string(Nat *e);       /* S-expression form, in the arena; atoms as names */

#endif
