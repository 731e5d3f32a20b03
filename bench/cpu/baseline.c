/* Hand-written C loops for the five CPU benchmarks (bench/cpu/run.sh).
 * Straightforward loops as a competent C programmer writes them: OpenMP
 * `parallel for` on the same outer loops as the clift strategies,
 * `reduction(+:...)` where natural.  No BLAS, no intrinsics, no -ffast-math.
 * Compiled with exactly the same flags as the clift-generated code. */
#include <math.h>
#include <stddef.h>
#include <omp.h>

void base_scal(float *restrict y, float a, const float *restrict x, long n) {
  #pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++) y[i] = a * x[i];
}

float base_asum(const float *restrict x, long n) {
  float s = 0.0f;
  #pragma omp parallel for schedule(static) reduction(+:s)
  for (long i = 0; i < n; i++) s += fabsf(x[i]);
  return s;
}

float base_dot(const float *restrict x, const float *restrict y, long n) {
  float s = 0.0f;
  #pragma omp parallel for schedule(static) reduction(+:s)
  for (long i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

/* y[M] = A[M][N] x[N] */
void base_gemv(float *restrict y, const float *restrict A, const float *restrict x,
               long m, long n) {
  #pragma omp parallel for schedule(static)
  for (long i = 0; i < m; i++) {
    float s = 0.0f;
    for (long j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

/* C[M][N] = A[M][K] B[K][N], the textbook i-j-k order (dot of a row of A
 * with a column of B): the same loop nest as the naive clift strategy. */
void base_matmul_ijk(float *restrict C, const float *restrict A, const float *restrict B,
                     long m, long k, long n) {
  #pragma omp parallel for schedule(static)
  for (long i = 0; i < m; i++)
    for (long j = 0; j < n; j++) {
      float s = 0.0f;
      for (long p = 0; p < k; p++) s += A[i * k + p] * B[p * n + j];
      C[i * n + j] = s;
    }
}

/* The same product in i-k-j order, what a performance-aware C programmer
 * writes: the inner loop streams a row of B and a row of C (unit stride,
 * vectorisable without reassociation). */
void base_matmul_ikj(float *restrict C, const float *restrict A, const float *restrict B,
                     long m, long k, long n) {
  #pragma omp parallel for schedule(static)
  for (long i = 0; i < m; i++) {
    float *restrict c = C + i * n;
    for (long j = 0; j < n; j++) c[j] = 0.0f;
    for (long p = 0; p < k; p++) {
      const float aip = A[i * k + p];
      const float *restrict b = B + p * n;
      for (long j = 0; j < n; j++) c[j] += aip * b[j];
    }
  }
}

/* out = 2x for the x > 1 of x, in order; returns how many. Each thread
 * counts its contiguous block, one thread scans the counts, each thread
 * writes its block from its offset (the usual two-pass parallel filter). */
long base_filter(float *restrict out, const float *restrict x, long n) {
  enum { MAXT = 256 };
  long offs[MAXT + 1] = { 0 };
  int nt = 1;
  #pragma omp parallel
  {
    int t = omp_get_thread_num(), T = omp_get_num_threads();
    if (T > MAXT) T = MAXT;
    long lo = n * t / T, hi = n * (t + 1) / T, c = 0;
    if (t < T) for (long i = lo; i < hi; i++) c += x[i] > 1.0f;
    if (t < T) offs[t + 1] = c;
    #pragma omp barrier
    #pragma omp single
    { nt = T; for (int k = 0; k < T; k++) offs[k + 1] += offs[k]; }
    long o = t < T ? offs[t] : 0;
    if (t < T) for (long i = lo; i < hi; i++) if (x[i] > 1.0f) out[o++] = 2.0f * x[i];
  }
  return offs[nt];
}

/* inclusive prefix sum: per-thread block sums, a scan of them, each block
 * scanned from its start */
void base_scan(float *restrict out, const float *restrict x, long n) {
  enum { MAXT = 256 };
  float start[MAXT + 1] = { 0 };
  #pragma omp parallel
  {
    int t = omp_get_thread_num(), T = omp_get_num_threads();
    if (T > MAXT) T = MAXT;
    long lo = n * t / T, hi = n * (t + 1) / T;
    float s = 0.0f;
    if (t < T) for (long i = lo; i < hi; i++) s += x[i];
    if (t < T) start[t + 1] = s;
    #pragma omp barrier
    #pragma omp single
    for (int k = 0; k < T; k++) start[k + 1] += start[k];
    float a = t < T ? start[t] : 0.0f;
    if (t < T) for (long i = lo; i < hi; i++) { a += x[i]; out[i] = a; }
  }
}
