/* nat_internal.h — shared by the arith files only. The polynomial view of a canonical
   sum (docs/arith.md), the atom order, and overflow-safe integer helpers. */
#ifndef CLIFT_NAT_INTERNAL_H
#define CLIFT_NAT_INTERNAL_H
#include "nat.h"

/* coef * atoms[0] * ... * atoms[n-1]; atoms sorted by nat_cmp once normalised. */
typedef struct NatTerm { long long coef; int n; Nat **atoms; } NatTerm;
/* Σ terms; normalised: terms sorted (higher degree first), like terms merged,
   no zero coefficients, the constant term (n == 0) last. */
typedef struct NatPoly { int n; NatTerm *terms; } NatPoly;

Nat *nat_node(NatKind kind, int n, Nat **args);        /* raw node, no rewriting */
Nat *nat_node2(NatKind kind, Nat *a, Nat *b);
int nat_cmp(Nat *a, Nat *b);                           /* total order on trees */

NatPoly nat_poly_of(Nat *e);                           /* ADD/MUL multiplied out */
NatPoly nat_poly_normalize(NatPoly p);
NatPoly nat_poly_add(NatPoly a, NatPoly b);
NatPoly nat_poly_mul(NatPoly a, NatPoly b);
NatPoly nat_poly_scale(NatPoly a, long long c);
Nat *nat_poly_build(NatPoly p);                        /* normalises, then builds */
Nat *nat_term_build(NatTerm t);
/* q = t / d when d's atoms are a sub-multiset of t's and d.coef divides t.coef. */
bool nat_term_divide(NatTerm t, NatTerm d, NatTerm *q);

/* Floor semantics: a = b * floor_div(a, b) + floor_mod(a, b), the remainder has the
   sign of b (Python's // and %), unlike C's truncation. b must be nonzero. */
long long nat_floor_div(long long a, long long b);
long long nat_floor_mod(long long a, long long b);
long long nat_gcd(long long a, long long b);           /* of |a|, |b|; gcd(0,0) = 0 */
/* Coefficient arithmetic wraps instead of being undefined; the checked forms say
   whether the true result fits. */
long long nat_wrap_add(long long a, long long b);
long long nat_wrap_mul(long long a, long long b);
bool nat_checked_pow(long long base, long long e, long long *out);

/* Is e >= 0 at every point where it is defined (structure, then ranges)? */
bool nat_nonneg(Nat *e);

#endif
