/* special.h — the scalar operations `factorial` and `binomial` (APL's ! on
   doubles, docs/apl.md §5 M6), written once: the interpreter compiles
   CLIFT_SPECIAL_FNS (eval/eval_scalar.c) and the C, OpenCL and CUDA preludes
   print the same text as a string (codegen/stmt_print.c), so every target
   computes the same values. The text therefore uses no macro (it would be
   expanded into the string: no NAN, INFINITY, bool) and no `//`; CLIFT_Q is
   the functions' qualifier, defined by the includer (`static`) or replaced
   in the generated prelude (`static inline`, `__device__ inline`, nothing).

   Definitions (ISO APL, Dyalog): x! is Γ(x+1), a product on the integers
   (exact up to 22!, within 170 roundings up to 170!, then ∞); a negative
   integer is a domain error. k!n is Γ(n+1) ÷ Γ(k+1) × Γ(n−k+1), on integers
   the table of ISO 13751 by the signs of k, n and n−k (k≥0 n≥0: C(n,k), 0
   when k>n; k≥0 n<0: (−1)^k × C(k−n−1, k); k<0 n<0 n≥k: (−1)^(n−k) ×
   C(−k−1, −n−1); otherwise 0), computed as a product of binomials (exact
   below 2^53); elsewhere the Γ quotient, 0 where a pole of the denominator
   meets a finite numerator, a domain error where n is a negative integer and
   k is not. A domain error returns 0 and sets *bad. */
#ifndef CLIFT_SPECIAL_H
#define CLIFT_SPECIAL_H

#define CLIFT_LENGTH_ERROR "length error: %lld where %lld %s needed"
/* TAIL's index(i, a) at run time, as the lowering says it when i is a constant (tail/lower_ops.c) */
#define CLIFT_APL_INDEX_ERROR "index error: %lld is not an index of an array of length %lld (⎕IO = 1)"
#define CLIFT_FACTORIAL_ERROR "domain error: factorial of the negative integer %g"
#define CLIFT_BINOMIAL_ERROR "domain error: binomial %g!%g: n is a negative integer and k is not an integer (a pole of Γ(n+1))"

#define CLIFT_SPECIAL_FNS \
CLIFT_Q double clift_binomial_count(double k, double n) { \
  /* C(n, k), 0 <= k <= n integers: the product over i = 1 … m of (n-m+i)/i, m = min(k, n-k); \
     every partial product is a binomial; C(n, m) >= 2^m, so m > 1100 is beyond the doubles */ \
  double m = k < n - k ? k : n - k, r = 1.0, i; \
  if (m > 1100.0) return 1.0 / 0.0; \
  for (i = 1.0; i <= m; i += 1.0) r = r * (n - m + i) / i; \
  return r; \
} \
CLIFT_Q double clift_factorial_of(double x, int *bad) { \
  double r = 1.0, i; \
  if (x != x) return x; \
  if (x != floor(x)) return tgamma(x + 1.0); \
  if (x < 0.0) { *bad = 1; return 0.0; } \
  if (x > 170.0) return 1.0 / 0.0; \
  for (i = 2.0; i <= x; i += 1.0) r *= i; \
  return r; \
} \
CLIFT_Q double clift_binomial_of(double k, double n, int *bad) { \
  double d = n - k; \
  int ik = k == floor(k), in = n == floor(n), id = d == floor(d); \
  if (k != k || n != n) return k + n; \
  if (ik && in) { \
    if (k >= 0.0 && n >= 0.0) return d < 0.0 ? 0.0 : clift_binomial_count(k, n); \
    if (k >= 0.0) return (fmod(k, 2.0) == 0.0 ? 1.0 : -1.0) * clift_binomial_count(k, k - n - 1.0); \
    if (n >= 0.0 || d < 0.0) return 0.0; \
    return (fmod(d, 2.0) == 0.0 ? 1.0 : -1.0) * clift_binomial_count(-n - 1.0, -k - 1.0); \
  } \
  if (in && n < 0.0) { *bad = 1; return 0.0; } \
  if ((ik && k < 0.0) || (id && d < 0.0)) return 0.0; \
  return tgamma(n + 1.0) / (tgamma(k + 1.0) * tgamma(d + 1.0)); \
}

#endif
