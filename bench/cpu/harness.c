/* Benchmark harness: one clift-generated program against the hand-written
 * loops of baseline.c.  Build one binary per benchmark (bench/cpu/run.sh):
 *
 *   cc -O3 -march=native -fopenmp -std=c11 -DBENCH_<NAME> [-DPROG=\"label\"] \
 *      harness.c baseline.c <generated>.c -lm
 *
 * Inputs are random (fixed seed, never zero), the clift result is checked
 * against the baseline, then each is timed RUNS times (default 11) after 2
 * warm-ups, clift and hand-C alternating, with clock_gettime(CLOCK_MONOTONIC);
 * the median is printed.  Output, one line per comparison:
 *   RESULT <bench> <size> <clift ms> <hand ms> <ratio of medians>
 *          <median of per-run ratios> <max rel err> <program> <hand variant>
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void clift_run(void **buffers, const long long *sizes);

void base_scal(float *restrict y, float a, const float *restrict x, long n);
float base_asum(const float *restrict x, long n);
float base_dot(const float *restrict x, const float *restrict y, long n);
void base_gemv(float *restrict y, const float *restrict A, const float *restrict x, long m, long n);
void base_matmul_ijk(float *restrict C, const float *restrict A, const float *restrict B, long m, long k, long n);
void base_matmul_ikj(float *restrict C, const float *restrict A, const float *restrict B, long m, long k, long n);
long base_filter(float *restrict out, const float *restrict x, long n);
void base_scan(float *restrict out, const float *restrict x, long n);

#ifndef PROG
#define PROG "?"
#endif

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_u64(void) { /* xorshift64* */
  rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
  return rng * 0x2545F4914F6CDD1Dull;
}
/* uniform in [0.5, 1.5) (never zero), times a random sign when `sign` */
static float rnd(int sign) {
  float u = (float)((next_u64() >> 40) * (1.0 / 16777216.0)) + 0.5f;
  return (sign && (next_u64() >> 63)) ? -u : u;
}
static float *falloc(size_t n) {
  size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
  float *p = aligned_alloc(64, bytes);
  if (!p) { fprintf(stderr, "out of memory\n"); exit(1); }
  memset(p, 0, bytes);
  return p;
}
static float *frandom(size_t n, int sign) {
  float *p = falloc(n);
  for (size_t i = 0; i < n; i++) p[i] = rnd(sign);
  return p;
}
static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static double median(double *v, int n) {
  qsort(v, n, sizeof *v, cmpd);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
static double max_rel_err(const float *got, const float *want, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n; i++) {
    double d = fabs((double)got[i] - (double)want[i]);
    double s = fabs((double)want[i]);
    double e = d / (s > 1e-30 ? s : 1e-30);
    if (e > m) m = e;
  }
  return m;
}

static void **B;            /* clift buffers */
static long long S[3];      /* clift sizes */
static float *hand_out;     /* baseline output */
static size_t out_n;
static int runs = 11;

static void run_clift(void) { clift_run(B, S); }
static void (*run_hand)(void);

/* Check clift against each hand-written variant, then time them: each of the
 * `runs` rounds runs clift once and every variant once, back to back, so a
 * slow spell of the (shared) machine hits all of them.  Prints the ratio of
 * the medians and, more robust to drift, the median of the per-round ratios. */
#define MAXV 2
static void report_n(const char *bench, const char *size, int nv, const char *variant[],
                     void (*hand[])(void), double tol) {
  float *clift_out = B[0];
  double err[MAXV];
  for (int v = 0; v < nv; v++) {
    memset(clift_out, 0, out_n * sizeof(float));
    memset(hand_out, 0, out_n * sizeof(float));
    run_clift();
    hand[v]();
    err[v] = max_rel_err(clift_out, hand_out, out_n);
    if (!(err[v] <= tol)) {
      fprintf(stderr, "%s: MISMATCH clift vs hand-C (%s), max relative error %.3g > %.3g\n",
              bench, variant[v], err[v], tol);
      exit(1);
    }
  }
  for (int w = 0; w < 2; w++) { run_clift(); for (int v = 0; v < nv; v++) hand[v](); }
  double *tc = malloc(runs * sizeof *tc), *th[MAXV], *pr[MAXV];
  for (int v = 0; v < nv; v++) { th[v] = malloc(runs * sizeof(double)); pr[v] = malloc(runs * sizeof(double)); }
  for (int r = 0; r < runs; r++) {
    double t0 = now_ms(); run_clift(); tc[r] = now_ms() - t0;
    for (int v = 0; v < nv; v++) {
      double t1 = now_ms(); hand[v](); th[v][r] = now_ms() - t1;
      pr[v][r] = tc[r] / th[v][r];
    }
  }
  double mc = median(tc, runs);
  for (int v = 0; v < nv; v++) {
    double mh = median(th[v], runs);
    printf("RESULT %s %s %.3f %.3f %.3f %.3f %.2e %s %s\n", bench, size, mc, mh, mc / mh,
           median(pr[v], runs), err[v], PROG, variant[v]);
    free(th[v]); free(pr[v]);
  }
  fflush(stdout);
  free(tc);
}
static void report(const char *bench, const char *size, const char *variant, double tol) {
  const char *vs[1] = {variant};
  void (*hs[1])(void) = {run_hand};
  report_n(bench, size, 1, vs, hs, tol);
}

/* ------------------------------------------------------------------------ */
/* Only one benchmark is compiled in per binary; the others' helpers go unused. */
#pragma GCC diagnostic ignored "-Wunused-function"
static float *X, *Y, *Mat, *MA, *MB, alpha;
static long n1, m1, k1;

static void h_scal(void) { base_scal(hand_out, alpha, X, n1); }
static void h_asum(void) { hand_out[0] = base_asum(X, n1); }
static void h_dot(void) { hand_out[0] = base_dot(X, Y, n1); }
static void h_gemv(void) { base_gemv(hand_out, Mat, X, m1, n1); }
static void h_mm_ijk(void) { base_matmul_ijk(hand_out, MA, MB, m1, k1, n1); }
static void h_mm_ikj(void) { base_matmul_ikj(hand_out, MA, MB, m1, k1, n1); }
static long kept;
static void h_filter(void) { kept = base_filter(hand_out, X, n1); }
static void h_scan(void) { base_scan(hand_out, X, n1); }

static double dsum_abs(const float *x, long n) {
  double s = 0; for (long i = 0; i < n; i++) s += fabs(x[i]); return s;
}
static double ddot(const float *x, const float *y, long n) {
  double s = 0; for (long i = 0; i < n; i++) s += (double)x[i] * y[i]; return s;
}

int main(int argc, char **argv) {
  if (argc > 1) runs = atoi(argv[1]);
  if (runs < 10) runs = 10;
  char size[64];
#if defined(BENCH_SCAL)
  n1 = 1L << 24;
  alpha = rnd(1); X = frandom(n1, 1);
  out_n = n1; hand_out = falloc(out_n);
  static void *b[3]; b[0] = falloc(out_n); b[1] = &alpha; b[2] = X; B = b;
  S[0] = n1; run_hand = h_scal;
  snprintf(size, sizeof size, "N=2^24");
  report("scal", size, "loop", 1e-6);
#elif defined(BENCH_ASUM) || defined(BENCH_DOT)
  n1 = 1L << 24;
#if defined(BENCH_ASUM)
  X = frandom(n1, 1);   /* signed: asum takes the magnitudes */
#else
  X = frandom(n1, 0);   /* positive: no cancellation, relative errors mean something */
#endif
  out_n = 1; hand_out = falloc(1);
  static void *b[3]; b[0] = falloc(1); b[1] = X; B = b;
  S[0] = n1;
  snprintf(size, sizeof size, "N=2^24");
#if defined(BENCH_ASUM)
  run_hand = h_asum;
  double ref = dsum_abs(X, n1);
  const char *bench = "asum";
#else
  Y = frandom(n1, 0);
  b[2] = Y;
  run_hand = h_dot;
  double ref = ddot(X, Y, n1);
  const char *bench = "dot";
#endif
  run_clift(); run_hand();
  fprintf(stderr, "%s: vs double reference: clift rel err %.2e, hand-C rel err %.2e\n",
          bench, fabs(((float *)B[0])[0] - ref) / fabs(ref), fabs(hand_out[0] - ref) / fabs(ref));
  report(bench, size, "reduction(+)", 1e-3);
#elif defined(BENCH_GEMV)
  m1 = 4096; n1 = 4096;
  Mat = frandom(m1 * n1, 0); X = frandom(n1, 0);
  out_n = m1; hand_out = falloc(out_n);
  static void *b[3]; b[0] = falloc(out_n); b[1] = Mat; b[2] = X; B = b;
  S[0] = n1; S[1] = m1;   /* (N M): N columns, M rows */
  run_hand = h_gemv;
  snprintf(size, sizeof size, "4096x4096");
  report("gemv", size, "loop", 1e-4);
#elif defined(BENCH_MATMUL) || defined(BENCH_MATMUL_IKJ)
  m1 = k1 = n1 = 1024;
  MA = frandom(m1 * k1, 0); MB = frandom(k1 * n1, 0);
  out_n = m1 * n1; hand_out = falloc(out_n);
  static void *b[3]; b[0] = falloc(out_n); b[1] = MA; b[2] = MB; B = b;
  S[0] = m1; S[1] = k1; S[2] = n1;
  snprintf(size, sizeof size, "1024x1024");
#ifdef BENCH_MATMUL_IKJ
  run_hand = h_mm_ikj; report("matmul", size, "i-k-j", 1e-4);
#else  /* the naive strategy is also compared with the same naive loop nest */
  const char *vs[2] = {"i-j-k", "i-k-j"};
  void (*hs[2])(void) = {h_mm_ijk, h_mm_ikj};
  report_n("matmul", size, 2, vs, hs, 1e-4);
#endif
#elif defined(BENCH_FILTER)
  /* the result: the kept elements at the start of a buffer of N floats, the
     length after them (clift_result_lengths); compared with base_filter's,
     the tails zeroed by report_n before each check, and the lengths here */
  n1 = 1L << 24;
  X = frandom(n1, 0);   /* [0.5, 1.5): about half above 1 */
  out_n = n1; hand_out = falloc(out_n);
  size_t off = (n1 * sizeof(float) + 63) / 64 * 64;
  static void *b[2]; b[0] = falloc(off / sizeof(float) + 16); b[1] = X; B = b;
  S[0] = n1; run_hand = h_filter;
  run_clift(); h_filter();
  long got = *(const int32_t *)((const char *)B[0] + off);
  if (got != kept) { fprintf(stderr, "filter: MISMATCH clift kept %ld, hand-C %ld\n", got, kept); return 1; }
  snprintf(size, sizeof size, "N=2^24");
  report("filter", size, "count+scan+scatter", 0);
#elif defined(BENCH_SCAN)
  n1 = 1L << 24;
  X = frandom(n1, 0);   /* positive: no cancellation */
  out_n = n1; hand_out = falloc(out_n);
  static void *b[2]; b[0] = falloc(out_n); b[1] = X; B = b;
  S[0] = n1; run_hand = h_scan;
  snprintf(size, sizeof size, "N=2^24");
  report("scan", size, "sum+scan+scan", 1e-3);
#else
#error "define one of BENCH_SCAL BENCH_ASUM BENCH_DOT BENCH_GEMV BENCH_MATMUL BENCH_MATMUL_IKJ BENCH_FILTER BENCH_SCAN"
#endif
  return 0;
}
