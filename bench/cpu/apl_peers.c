/* apl_peers.c — hand-written C + OpenMP for the APL benchmark programs of
 * examples/apl/bench (issue 13 item 6, bench/cpu/apl.sh): one loop nest per
 * program, as a competent C programmer writes it from the same description,
 * `parallel for` on the outer loop, no intrinsics, no -ffast-math; compiled
 * with the flags clift's openmp target uses. Each computes what the APL
 * program computes, from its constants (nothing precomputed outside the timed
 * region), prints the same output lines, then "median MS (min MS, max MS) over
 * RUNS runs" after one warm-up.
 * Usage: apl_peers PROGRAM RUNS    PROGRAM: primes primes_int easter easter_int blackscholes sobol_pi sobol_pi_bits life hotspot */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one run prints (the checksum lines), kept from the last run. */
static char out[256];

static long floor_mod(long a, long m) { long r = a % m; return r < 0 ? r + m : r; }

/* primes: A = 2..N; a prime has exactly one divisor in A (itself) */
static void primes(void) {
  enum { N = 10000 };
  long count = 0, sum = 0;
  #pragma omp parallel for schedule(static) reduction(+:count, sum)
  for (long j = 2; j <= N; j++) {
    long divisors = 0;
    for (long i = 2; i <= N; i++) divisors += j % i == 0;
    if (divisors == 1) { count++; sum += j; }
  }
  snprintf(out, sizeof out, "%ld\n%ld\n", count, sum);
}

/* primes_int: the same in int, the APL program's 32-bit ints (clift's int);
   the row above keeps the long of the first version of this file */
static void primes_int(void) {
  enum { N = 10000 };
  int count = 0, sum = 0;
  #pragma omp parallel for schedule(static) reduction(+:count, sum)
  for (int j = 2; j <= N; j++) {
    int divisors = 0;
    for (int i = 2; i <= N; i++) divisors += j % i == 0;
    if (divisors == 1) { count++; sum += j; }
  }
  snprintf(out, sizeof out, "%d\n%d\n", count, sum);
}

static int floor_mod_int(int a, int m) { int r = a % m; return r < 0 ? r + m : r; }

/* easter_int: easter in int, the APL program's 32-bit ints: GCC vectorises
   this loop (8 lanes), not the long one */
static void easter_int(void) {
  enum { N = 900000 };
  int total = 0;
  #pragma omp parallel for schedule(static) reduction(+:total)
  for (int k = 1; k <= N; k++) {
    int y = 1 + (k - 1) % 3000;
    int g = 1 + y % 19, c = 1 + y / 100;
    int x = 3 * c / 4 - 12, z = (5 + 8 * c) / 25 - 5;
    int d = 5 * y / 4 - (x + 10);
    int e0 = floor_mod_int(11 * g + 20 + z - x, 30);
    int e = e0 + (e0 == 24 || (e0 == 25 && g > 11));
    int n0 = 44 - e, n1 = n0 + 30 * (n0 < 21);
    total += n1 + 7 - floor_mod_int(d + n1, 7);
  }
  snprintf(out, sizeof out, "%d\n", total);
}

/* easter: the day (in March) of Easter of years 1 + (k - 1) mod 3000, summed */
static void easter(void) {
  enum { N = 900000 };
  long total = 0;
  #pragma omp parallel for schedule(static) reduction(+:total)
  for (long k = 1; k <= N; k++) {
    long y = 1 + (k - 1) % 3000;
    long g = 1 + y % 19, c = 1 + y / 100;
    long x = 3 * c / 4 - 12, z = (5 + 8 * c) / 25 - 5;
    long d = 5 * y / 4 - (x + 10);
    long e0 = floor_mod(11 * g + 20 + z - x, 30);
    long e = e0 + (e0 == 24 || (e0 == 25 && g > 11));
    long n0 = 44 - e, n1 = n0 + 30 * (n0 < 21);
    total += n1 + 7 - floor_mod(d + n1, 7);
  }
  snprintf(out, sizeof out, "%ld\n", total);
}

static double cnd(double x) {
  double l = fabs(x), k = 1.0 / (1.0 + 0.2316419 * l);
  double w = 1.0 - (1.0 / sqrt(2.0 * 3.14159265358979323846)) * exp(-(l * l) / 2.0)
             * (k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429)))));
  return x < 0 ? 1.0 - w : w;
}

/* blackscholes: call prices for strikes 80 … 120, their mean */
static void blackscholes(void) {
  enum { N = 100000 };
  const double s = 100, r = 0.02, v = 0.3, t = 0.5;
  double total = 0;
  #pragma omp parallel for schedule(static) reduction(+:total)
  for (long k = 0; k < N; k++) {
    double x = 80 + 40 * ((double)k / N);
    double d1 = (log(s / x) + (r + v * v / 2) * t) / (v * sqrt(t)), d2 = d1 - v * sqrt(t);
    total += s * cnd(d1) - x * exp(-r * t) * cnd(d2);
  }
  snprintf(out, sizeof out, "%.17g\n", total / N);
}

/* sobol_pi: points (x_i, y_i), i = 1 … N, each coordinate the xor of the
   direction numbers v_k = m_k 2^(30-k) of the set bits k of i, over 2^30 */
static void sobol_pi(void) {
  enum { N = 10000, B = 14, D = 30 };
  static const long m2[B] = { 1, 3, 5, 15, 17, 51, 85, 255, 257, 771, 1285, 3855, 4369, 13107 };
  long v1[B], v2[B], inside = 0;
  for (int k = 0; k < B; k++) { v1[k] = 1L << (D - 1 - k); v2[k] = m2[k] << (D - 1 - k); }
  #pragma omp parallel for schedule(static) reduction(+:inside)
  for (long i = 1; i <= N; i++) {
    long a = 0, b = 0;
    for (int k = 0; k < B; k++) if (i >> k & 1) { a ^= v1[k]; b ^= v2[k]; }
    double x = (double)a / (1L << D), y = (double)b / (1L << D);
    inside += x * x + y * y <= 1;
  }
  snprintf(out, sizeof out, "%ld\n%.17g\n", inside, 4.0 * inside / N);
}

/* sobol_pi_bits: the same points computed as the APL program does, bit by bit:
   bit j of x_i is the xor over k of (bit k of i) ∧ (bit j of v_k), and
   x_i = Σ_j bit_j 2^-j — the algorithm, not the compiler, separates the two
   sobol rows (apl.sh shows both) */
static void sobol_pi_bits(void) {
  enum { N = 10000, B = 14, D = 30 };
  static const long m2[B] = { 1, 3, 5, 15, 17, 51, 85, 255, 257, 771, 1285, 3855, 4369, 13107 };
  unsigned char dirs1[B][D], dirs2[B][D];
  long inside = 0;
  for (int k = 0; k < B; k++)
    for (int j = 0; j < D; j++) {
      dirs1[k][j] = (1L << (D - 1 - k)) >> (D - 1 - j) & 1;
      dirs2[k][j] = (m2[k] << (D - 1 - k)) >> (D - 1 - j) & 1;
    }
  #pragma omp parallel for schedule(static) reduction(+:inside)
  for (long i = 1; i <= N; i++) {
    double x = 0, y = 0;
    for (int j = 0; j < D; j++) {
      int a = 0, b = 0;
      for (int k = 0; k < B; k++) { int bit = (int)(i >> k & 1); a ^= bit & dirs1[k][j]; b ^= bit & dirs2[k][j]; }
      x += a * ldexp(1.0, -(j + 1));
      y += b * ldexp(1.0, -(j + 1));
    }
    inside += x * x + y * y <= 1;
  }
  snprintf(out, sizeof out, "%ld\n%.17g\n", inside, 4.0 * inside / N);
}

/* life: a 40×40 torus, 20000 generations */
static void life(void) {
  enum { R = 40, C = 40, K = 20000 };
  static unsigned char g[2][R][C];
  long first = 0, last = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      long a = i + 1, b = j + 1;
      g[0][i][j] = 400 > (31 * a * a + 17 * b * b + 7 * a * b) % 1009;
      first += g[0][i][j];
    }
  #pragma omp parallel
  for (int s = 0; s < K; s++) {
    unsigned char (*src)[C] = g[s & 1], (*dst)[C] = g[(s + 1) & 1];
    #pragma omp for schedule(static)
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) {
        int n = 0;
        for (int di = -1; di <= 1; di++)
          for (int dj = -1; dj <= 1; dj++)
            if (di || dj) n += src[(i + di + R) % R][(j + dj + C) % C];
        dst[i][j] = n == 3 || (src[i][j] && n == 2);
      }
  }
  for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) last += g[K & 1][i][j];
  snprintf(out, sizeof out, "%ld\n%ld\n", first, last);
}

/* hotspot: Rodinia's 512×512 thermal step, 360 times, borders repeated */
static void hotspot(void) {
  enum { R = 512, C = 512, K = 360 };
  const double chip_h = 0.016, chip_w = 0.016, t_chip = 0.0005, k_si = 100, spec_heat = 1.75e6, factor = 0.5,
               max_pd = 3e6, precision = 0.001, amb = 80;
  const double gh = chip_h / R, gw = chip_w / C, cap = factor * spec_heat * t_chip * gw * gh;
  const double rx = gw / (2 * k_si * t_chip * gh), ry = gh / (2 * k_si * t_chip * gw), rz = t_chip / (k_si * gh * gw);
  const double step = precision / (max_pd / (factor * t_chip * spec_heat)), sc = step / cap;
  static double t[2][R][C], p[R][C];
  #pragma omp parallel for schedule(static)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      t[0][i][j] = 320 + 0.25 * ((3 * (i + 1) + 7 * (j + 1)) % 41);
      p[i][j] = 0.01 * ((long)(i + 1) * (j + 1) % 17);
    }
  #pragma omp parallel
  for (int s = 0; s < K; s++) {
    double (*src)[C] = t[s & 1], (*dst)[C] = t[(s + 1) & 1];
    #pragma omp for schedule(static)
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) {
        double v = src[i][j];
        double n = src[i > 0 ? i - 1 : 0][j], so = src[i < R - 1 ? i + 1 : R - 1][j];
        double w = src[i][j > 0 ? j - 1 : 0], e = src[i][j < C - 1 ? j + 1 : C - 1];
        dst[i][j] = v + sc * (p[i][j] + (n + so - 2 * v) / ry + (e + w - 2 * v) / rx + (amb - v) / rz);
      }
  }
  double total = 0;
  for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) total += t[K & 1][i][j];
  snprintf(out, sizeof out, "%.17g\n", total);
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  static const struct { const char *name; void (*run)(void); } programs[] = {
    { "primes", primes }, { "primes_int", primes_int }, { "easter", easter }, { "easter_int", easter_int },
    { "blackscholes", blackscholes },
    { "sobol_pi", sobol_pi }, { "sobol_pi_bits", sobol_pi_bits }, { "life", life }, { "hotspot", hotspot },
  };
  int runs = argc > 2 ? atoi(argv[2]) : 10;
  for (size_t k = 0; argc > 1 && runs > 0 && runs <= 1000 && k < sizeof programs / sizeof *programs; k++) {
    if (strcmp(argv[1], programs[k].name) != 0) continue;
    double *ms = malloc(sizeof(double) * (size_t)runs);
    programs[k].run();   /* warm-up */
    for (int r = 0; r < runs; r++) {
      double t0 = omp_get_wtime();
      programs[k].run();
      ms[r] = (omp_get_wtime() - t0) * 1e3;
    }
    qsort(ms, (size_t)runs, sizeof(double), by_value);
    printf("%smedian %.4f ms (min %.4f, max %.4f) over %d runs\n", out, ms[runs / 2], ms[0], ms[runs - 1], runs);
    free(ms);
    return 0;
  }
  fprintf(stderr, "usage: apl_peers primes|primes_int|easter|easter_int|blackscholes|sobol_pi|sobol_pi_bits|life|hotspot [RUNS 1..1000]\n");
  return 2;
}
