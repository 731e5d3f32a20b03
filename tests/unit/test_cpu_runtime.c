/* test_cpu_runtime.c — the host runtime of the c/openmp targets (SPEC §6, §8,
   docs/runtime.md): hand-written C files that follow the calling convention, run
   through cpu_run on fresh random inputs, every output element checked; the cache,
   compiler errors, missing symbols, refused types and bad lengths. The seed comes
   from CLIFT_SEED or the clock and is reported on failure. The cache goes to a
   temporary XDG_CACHE_HOME, so every run really compiles. */
#include "check.h"
#include "runtime/cpu.h"
#include "codegen/library.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- a small PRNG of our own (splitmix64) ---- */
static uint64_t rng_state;
static uint64_t rnd(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static int64_t rnd_range(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }
/* never zero, so an output left at zero by a broken run cannot pass */
static int64_t rnd_nonzero(int64_t mag) { int64_t v = rnd_range(1, mag); return rnd() & 1 ? v : -v; }
static float rnd_float(void) { return (float)rnd_nonzero(1000000) / 1024.0f; }
static double rnd_double(void) { return (double)rnd_nonzero(1000000000) / 4096.0; }

/* ---- building programs by hand ---- */
static Type *T_INT, *T_LONG, *T_FLOAT, *T_DOUBLE, *T_BOOL;
static NatVar *N, *M;

static Program *program(int nsizes, Type *result, int nparams, ...) {
  Program *p = NEW(Program);
  p->file = "test.lift";
  p->nsizes = nsizes;
  p->sizes = NEW_ARRAY(NatVar *, 2);
  p->sizes[0] = N; p->sizes[1] = M;
  p->nparams = nparams;
  p->params = NEW_ARRAY(Param, nparams);
  p->result = result;
  va_list ap; va_start(ap, nparams);
  for (int i = 0; i < nparams; i++) {
    p->params[i].name = va_arg(ap, const char *);
    p->params[i].type = va_arg(ap, Type *);
  }
  va_end(ap);
  return p;
}
static NatBinding *bind(NatVar *v, long long value, NatBinding *next) {
  NatBinding *b = NEW(NatBinding);
  b->var = v; b->value = value; b->next = next;
  return b;
}
static Type *arr(Type *elem, NatVar *v) { return type_array(elem, nat_var(v)); }
static Value *float_array(int64_t n) {
  Value *v = value_array(n);
  for (int64_t i = 0; i < n; i++) v->elems[i] = value_float(rnd_float());
  return v;
}
static bool has(const char *text, const char *part) { return strstr(text, part) != NULL; }

/* ---- runs ---- */
static const char *SCALE =
  "void clift_run(void **buffers, const long long *sizes) {\n"
  "  float *out = buffers[0];\n  const float *xs = buffers[1];\n"
  "  for (long long i = 0; i < sizes[0]; i++) out[i] = 2.0f * xs[i];\n}\n";

/* [([float]N x float)]N in its structure-of-arrays layout: out[i] = (i * xs, -xs[i]) */
static const char *SOA =
  "void clift_run(void **buffers, const long long *sizes) {\n"
  "  long long n = sizes[0], second = (4 * n * n + 63) / 64 * 64;\n"
  "  float *rows = buffers[0], *last = (float *)((char *)buffers[0] + second);\n  const float *xs = buffers[1];\n"
  "  for (long long i = 0; i < n; i++) { last[i] = -xs[i];\n"
  "    for (long long j = 0; j < n; j++) rows[i * n + j] = (float)i * xs[j]; }\n}\n";

static void test_scale(void) {
  Program *p = program(1, arr(T_FLOAT, N), 1, "xs", arr(T_FLOAT, N));
  int64_t n = rnd_range(1, 5000);
  Value *xs = float_array(n);
  Value *out = cpu_run(SCALE, p, (Value *[]){ xs }, bind(N, n, NULL), false);
  CHECK(out && out->kind == VAL_ARRAY && out->n == n, "scale: %s", diag_message());
  int bad = 0;
  for (int64_t i = 0; out && i < n; i++)
    bad += value_elem(out, i)->kind != VAL_FLOAT || value_elem(out, i)->s.f != 2.0f * value_elem(xs, i)->s.f;
  CHECK(out && bad == 0, "scale: %d of %lld elements wrong", bad, (long long)n);
}

static void test_transpose(void) {
  static const char *src =
    "void clift_run(void **buffers, const long long *sizes) {\n"
    "  float *out = buffers[0];\n  const float *m = buffers[1];\n"
    "  long long N = sizes[0], M = sizes[1];\n"
    "  for (long long j = 0; j < M; j++)\n    for (long long i = 0; i < N; i++)\n"
    "      out[j * N + i] = m[i * M + j];\n}\n";
  Program *p = program(2, arr(arr(T_FLOAT, N), M), 1, "m", arr(arr(T_FLOAT, M), N));
  int64_t n = rnd_range(1, 60), m = rnd_range(1, 60);
  Value *in = value_array(n);
  for (int64_t i = 0; i < n; i++) in->elems[i] = float_array(m);
  Value *out = cpu_run(src, p, (Value *[]){ in }, bind(N, n, bind(M, m, NULL)), false);
  CHECK(out && out->n == m, "transpose: %s", diag_message());
  int bad = 0;
  for (int64_t j = 0; out && j < m; j++) {
    bad += value_elem(out, j)->n != n;
    for (int64_t i = 0; i < n && value_elem(out, j)->n == n; i++)
      bad += value_elem(value_elem(out, j), i)->s.f != value_elem(value_elem(in, i), j)->s.f;
  }
  CHECK(out && bad == 0, "transpose %lldx%lld: %d wrong", (long long)n, (long long)m, bad);
}

/* A scalar input and a scalar (long) result: a * Σ xs, wrapping like int64. */
static void test_scalar_result(void) {
  static const char *src =
    "#include <stdint.h>\n"
    "void clift_run(void **buffers, const long long *sizes) {\n"
    "  const int64_t *xs = buffers[1];\n  int32_t a = *(const int32_t *)buffers[2];\n"
    "  uint64_t s = 0;\n  for (long long i = 0; i < sizes[0]; i++) s += (uint64_t)xs[i];\n"
    "  *(int64_t *)buffers[0] = (int64_t)(s * (uint64_t)(int64_t)a);\n}\n";
  Program *p = program(1, T_LONG, 2, "xs", arr(T_LONG, N), "a", T_INT);
  int64_t n = rnd_range(1, 3000);
  Value *xs = value_array(n);
  uint64_t sum = 0;
  for (int64_t i = 0; i < n; i++) { xs->elems[i] = value_long((int64_t)rnd() | 1); sum += (uint64_t)value_elem(xs, i)->s.l; }
  int32_t a = (int32_t)rnd_nonzero(100000);
  Value *out = cpu_run(src, p, (Value *[]){ xs, value_int(a) }, bind(N, n, NULL), false);
  CHECK(out && out->kind == VAL_LONG, "scalar result: %s", diag_message());
  CHECK(out && out->s.l == (int64_t)(sum * (uint64_t)(int64_t)a), "scalar result: got %lld",
        out ? (long long)out->s.l : 0LL);
}

/* No size variables at all; double in, double out. */
static void test_no_sizes(void) {
  static const char *src =
    "void clift_run(void **buffers, const long long *sizes) {\n  (void)sizes;\n"
    "  *(double *)buffers[0] = *(const double *)buffers[1] * *(const double *)buffers[2];\n}\n";
  Program *p = program(0, T_DOUBLE, 2, "a", T_DOUBLE, "b", T_DOUBLE);
  double a = rnd_double(), b = rnd_double();
  Value *out = cpu_run(src, p, (Value *[]){ value_double(a), value_double(b) }, NULL, false);
  CHECK(out && out->kind == VAL_DOUBLE && out->s.d == a * b, "no sizes: %s", diag_message());
}

static void test_bool_output(void) {
  static const char *src =
    "#include <stdint.h>\n"
    "void clift_run(void **buffers, const long long *sizes) {\n"
    "  uint8_t *out = buffers[0];\n  const double *xs = buffers[1];\n"
    "  for (long long i = 0; i < sizes[0]; i++) out[i] = xs[i] > 0;\n}\n";
  Program *p = program(1, arr(T_BOOL, N), 1, "xs", arr(T_DOUBLE, N));
  int64_t n = rnd_range(1, 2000);
  Value *xs = value_array(n);
  for (int64_t i = 0; i < n; i++) xs->elems[i] = value_double(rnd_double());
  Value *out = cpu_run(src, p, (Value *[]){ xs }, bind(N, n, NULL), false);
  CHECK(out && out->n == n, "bool output: %s", diag_message());
  int bad = 0;
  for (int64_t i = 0; out && i < n; i++)
    bad += value_elem(out, i)->kind != VAL_BOOL || value_elem(out, i)->s.b != (value_elem(xs, i)->s.d > 0);
  CHECK(out && bad == 0, "bool output: %d wrong", bad);
}

/* [float4]N: four consecutive floats per element. */
static void test_vectors(void) {
  static const char *src =
    "void clift_run(void **buffers, const long long *sizes) {\n"
    "  float *out = buffers[0];\n  const float *xs = buffers[1];\n"
    "  for (long long i = 0; i < sizes[0]; i++)\n"
    "    out[i] = ((xs[4*i] + xs[4*i+1]) + xs[4*i+2]) + xs[4*i+3];\n}\n";
  Program *p = program(1, arr(T_FLOAT, N), 1, "xs", arr(type_vector(T_FLOAT, 4), N));
  int64_t n = rnd_range(1, 1000);
  Value *xs = value_array(n);
  for (int64_t i = 0; i < n; i++) {
    xs->elems[i] = value_vector(4);
    for (int k = 0; k < 4; k++) xs->elems[i]->elems[k] = value_float(rnd_float());
  }
  Value *out = cpu_run(src, p, (Value *[]){ xs }, bind(N, n, NULL), false);
  CHECK(out && out->n == n, "vectors: %s", diag_message());
  int bad = 0;
  for (int64_t i = 0; out && i < n; i++) {
    Value **l = value_elem(xs, i)->elems;
    bad += value_elem(out, i)->s.f != ((l[0]->s.f + l[1]->s.f) + l[2]->s.f) + l[3]->s.f;
  }
  CHECK(out && bad == 0, "vectors: %d wrong", bad);
}

/* [i -> [float](i+1)]N: rows packed one after another, row i at i(i+1)/2. */
static void test_dep_array(void) {
  static const char *src =
    "void clift_run(void **buffers, const long long *sizes) {\n"
    "  float *out = buffers[0];\n  const float *tri = buffers[1];\n"
    "  for (long long i = 0; i < sizes[0]; i++) {\n    float s = 0;\n"
    "    for (long long j = 0; j <= i; j++) s += tri[i * (i + 1) / 2 + j];\n"
    "    out[i] = s;\n  }\n}\n";
  NatVar *iv = nat_var_new("i", nat_const(0), nat_sub(nat_var(N), nat_const(1)));
  Type *tri = type_dep_array(iv, type_array(T_FLOAT, nat_add(nat_var(iv), nat_const(1))), nat_var(N));
  Program *p = program(1, arr(T_FLOAT, N), 1, "tri", tri);
  int64_t n = rnd_range(1, 200);
  Value *in = value_array(n);
  for (int64_t i = 0; i < n; i++) in->elems[i] = float_array(i + 1);
  Value *out = cpu_run(src, p, (Value *[]){ in }, bind(N, n, NULL), false);
  CHECK(out && out->n == n, "dep array: %s", diag_message());
  int bad = 0;
  for (int64_t i = 0; out && i < n; i++) {
    float s = 0;
    for (int64_t j = 0; j <= i; j++) s += value_elem(value_elem(in, i), j)->s.f;
    bad += value_elem(out, i)->s.f != s;
  }
  CHECK(out && bad == 0, "dep array: %d wrong", bad);
}

static const char *OMP =
  "#ifndef _OPENMP\n#error built without -fopenmp\n#endif\n"
  "void clift_run(void **buffers, const long long *sizes) {\n"
  "  int *out = buffers[0];\n  const int *xs = buffers[1];\n"
  "  #pragma omp parallel for\n"
  "  for (long long i = 0; i < sizes[0]; i++) out[i] = 3 * xs[i] + 1;\n}\n";

static void test_openmp(void) {
  Program *p = program(1, arr(T_INT, N), 1, "xs", arr(T_INT, N));
  for (int run = 0; run < 2; run++) {   /* the second run reuses the loaded object */
    int64_t n = rnd_range(1000, 200000);
    Value *xs = value_array(n);
    for (int64_t i = 0; i < n; i++) xs->elems[i] = value_int((int32_t)rnd_nonzero(1000000));
    Value *out = cpu_run(OMP, p, (Value *[]){ xs }, bind(N, n, NULL), true);
    CHECK(out && out->n == n, "openmp: %s", diag_message());
    int bad = 0;
    for (int64_t i = 0; out && i < n; i++) bad += value_elem(out, i)->s.i != 3 * value_elem(xs, i)->s.i + 1;
    CHECK(out && bad == 0, "openmp run %d: %d wrong", run, bad);
  }
  diag_clear();   /* the same source without -fopenmp hits its #error */
  Value *out = cpu_run(OMP, p, (Value *[]){ float_array(3) }, bind(N, 3, NULL), false);
  CHECK(!out, "openmp source built without -fopenmp must fail");
}

/* ---- the cache ---- */
static void test_cache(const char *cache) {
  const char *a, *b, *c;
  struct stat s1, s2;
  diag_clear();
  CHECK(cpu_compile_shared(SCALE, false, LOC_NONE, &a), "cache: %s", diag_message());
  CHECK(stat(a, &s1) == 0, "cache: %s missing", a);
  CHECK(cpu_compile_shared(SCALE, false, LOC_NONE, &b) && !strcmp(a, b), "cache: paths differ %s %s", a, b);
  CHECK(stat(b, &s2) == 0 && s1.st_ino == s2.st_ino && s1.st_mtim.tv_nsec == s2.st_mtim.tv_nsec
        && s1.st_mtime == s2.st_mtime, "cache: second compile rebuilt %s", b);
  CHECK(cpu_compile_shared(SCALE, true, LOC_NONE, &c) && strcmp(a, c), "cache: -fopenmp must change the key");
  CHECK(!strncmp(a, arena_printf("%s/clift/", cache), strlen(cache) + 7), "cache: %s not under %s", a, cache);
  char *src = arena_strdup(a);
  strcpy(src + strlen(src) - 3, ".c");
  CHECK(access(src, R_OK) == 0, "cache: source %s not kept", src);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "ls '%s/clift' | grep -q -e tmp -e log", cache);
  CHECK(system(cmd) != 0, "cache: temporary files left in %s/clift", cache);
  /* the optional caches' files (cubins, NVIDIA build logs): KEY in 16 hex digits */
  const char *f = util_cache_file(0xabcull, "cubin");
  CHECK(f && !strcmp(f, arena_printf("%s/clift/0000000000000abc.cubin", cache)), "cache file: %s", f ? f : "(null)");
}

/* ---- errors ---- */
static void test_errors(void) {
  Program *p = program(1, arr(T_FLOAT, N), 1, "xs", arr(T_FLOAT, N));
  Value *in[] = { float_array(4) };
  diag_clear();
  CHECK(!cpu_run("void clift_run(void **b, const long long *s) { int x = ; }\n", p, in, bind(N, 4, NULL), false)
        && has(diag_message(), "C compiler") && has(diag_message(), "error:") && has(diag_message(), "x =")
        && has(diag_render(), "internal error: the C compiler"),
        "compile error: %s", diag_message());
  diag_clear();
  CHECK(!cpu_run("void clift_other(void) {}\n", p, in, bind(N, 4, NULL), false)
        && has(diag_message(), "does not define clift_run") && has(diag_message(), "undefined symbol"),
        "missing symbol: %s", diag_message());
  diag_clear();
  const char *old = getenv("CC") ? arena_strdup(getenv("CC")) : NULL;
  setenv("CC", "/nonexistent/clift-cc", 1);
  CHECK(!cpu_run("/* fresh */\n", p, in, bind(N, 4, NULL), false)
        && has(diag_message(), "cannot run the C compiler '/nonexistent/clift-cc'"), "no cc: %s", diag_message());
  /* $CC may carry words; it is part of the cache key */
  static const char *needs_flag =
    "#ifndef CLIFT_TEST_FLAG\n#error CC words dropped\n#endif\n"
    "void clift_run(void **buffers, const long long *sizes) {\n"
    "  for (long long i = 0; i < sizes[0]; i++) ((float *)buffers[0])[i] = CLIFT_TEST_FLAG;\n}\n";
  setenv("CC", "cc -DCLIFT_TEST_FLAG=7", 1);
  diag_clear();
  Value *out = cpu_run(needs_flag, p, in, bind(N, 4, NULL), false);
  CHECK(out && out->n == 4 && value_elem(out, 3)->s.f == 7.0f, "CC with flags: %s", diag_message());
  if (old) setenv("CC", old, 1); else unsetenv("CC");
  diag_clear();
  CHECK(!cpu_run(needs_flag, p, in, bind(N, 4, NULL), false), "CC must be part of the cache key");
  diag_clear();
  CHECK(!cpu_run(SCALE, p, in, NULL, false) && has(diag_message(), "size variable N is not bound"),
        "unbound: %s", diag_message());
}

static void test_refused_types(void) {
  /* arrays of tuples are arrays of C structs: a value of the wrong shape is named */
  Program *p = program(1, arr(T_FLOAT, N), 2, "xs", arr(T_FLOAT, N),
                       "ps", arr(type_tuple2(T_FLOAT, T_INT), N));
  diag_clear();
  CHECK(!cpu_run(SCALE, p, (Value *[]){ float_array(2), float_array(2) }, bind(N, 2, NULL), false)
        && has(diag_message(), "input 2 (ps) at [0]: expected a tuple (float x int)"),
        "tuple input of the wrong shape: %s", diag_message());
  /* an array of tuples holding arrays is the structure of its fields' arrays
     (layout_soa): [([float]N x float)]N as ([[float]N]N, [float]N), the second
     field from the first multiple of 64 bytes after the first (it was refused) */
  p = program(1, arr(type_tuple2(arr(T_FLOAT, N), T_FLOAT), N), 1, "xs", arr(T_FLOAT, N));
  int64_t n = rnd_range(2, 40);
  Value *xs = float_array(n);
  diag_clear();
  Value *out = cpu_run(SOA, p, (Value *[]){ xs }, bind(N, n, NULL), false);
  CHECK(out && out->kind == VAL_ARRAY && out->n == n, "array of tuples of arrays as the result: %s", diag_message());
  int bad = 0;
  for (int64_t i = 0; out && i < n; i++) {
    Value *t = value_elem(out, i), *row = t->kind == VAL_TUPLE ? value_elem(t, 0) : NULL;
    Value x;
    float xi = (float)value_as_double(value_elem_at(xs, i, &x));
    bad += !row || row->n != n || value_as_double(value_elem(t, 1)) != -xi;
    for (int64_t j = 0; row && j < n; j++)
      bad += value_as_double(value_elem(row, j)) != (float)i * (float)value_as_double(value_elem_at(xs, j, &x));
  }
  CHECK(bad == 0, "array of tuples of arrays: %d elements wrong", bad);
}

/* SPEC §8: lengths that contradict the size variables, named by parameter. */
static void test_bad_inputs(void) {
  Program *p = program(1, arr(T_FLOAT, N), 2, "xs", arr(T_FLOAT, N), "ys", arr(T_FLOAT, N));
  diag_clear();
  CHECK(!cpu_run(SCALE, p, (Value *[]){ float_array(10), float_array(11) }, bind(N, 10, NULL), false)
        && has(diag_message(), "input 2 (ys)") && has(diag_message(), "11 elements") && has(diag_message(), "says 10"),
        "length: %s", diag_message());
  p = program(2, arr(T_FLOAT, N), 1, "m", arr(arr(T_FLOAT, M), N));
  Value *m = value_array(3);
  for (int i = 0; i < 3; i++) m->elems[i] = float_array(i == 2 ? 4 : 5);
  diag_clear();
  CHECK(!cpu_run(SCALE, p, (Value *[]){ m }, bind(N, 3, bind(M, 5, NULL)), false)
        && has(diag_message(), "input 1 (m) at [2]: the array has 4 elements"), "row: %s", diag_message());
  p = program(1, arr(T_FLOAT, N), 1, "flags", arr(T_BOOL, N));
  diag_clear();
  CHECK(!cpu_run(SCALE, p, (Value *[]){ float_array(2) }, bind(N, 2, NULL), false)
        && has(diag_message(), "input 1 (flags) at [0]: expected a value of type bool"), "kind: %s", diag_message());
}

/* ---- clift compile -t c: the library works with nothing but a C compiler ---- */
static void test_library(const char *tmp) {
  Program *p = program(1, arr(T_FLOAT, N), 1, "xs", arr(T_FLOAT, N));
  const char *dir = arena_printf("%s/lib/out", tmp);
  diag_clear();
  CHECK(library_write_c(SCALE, p, dir, "scale"), "library: %s", diag_message());
  char *h = util_read_file(arena_printf("%s/scale.h", dir), NULL);
  char *c = util_read_file(arena_printf("%s/scale.c", dir), NULL);
  /* the source unchanged but for its exported symbol: clift_run is scale_run */
  CHECK(c && !strncmp(c, "void scale_run(", 15) && !strcmp(c + 15, SCALE + 15) && !has(c, "clift_run"),
        "library: scale.c is not the source with scale_run:\n%s", c ? c : "(missing)");
  CHECK(h && has(h, "void scale_run(void **buffers, const long long *sizes);") && has(h, "sizes[0] = N")
        && has(h, "buffers[1]  xs") && has(h, "float[N]") && has(h, "#ifndef CLIFT_SCALE_H"),
        "library header:\n%s", h ? h : "(missing)");
  static const char *main_c =
    "#include \"scale.h\"\n#include <stdlib.h>\n"
    "int main(void) {\n  float xs[5] = {1, 2, 3, 4, 5}, out[5];\n  long long n = 5;\n"
    "  void *b[] = { out, xs };\n  scale_run(b, &n);\n"
    "  for (int i = 0; i < 5; i++) if (out[i] != 2 * xs[i]) return 1;\n  return 0;\n}\n";
  FILE *f = fopen(arena_printf("%s/main.c", dir), "w");
  if (f) { fputs(main_c, f); fclose(f); }
  const char *cmd = arena_printf("cd '%s' && cc -std=c11 -Wall -Werror -o main main.c scale.c 2>&1 && ./main", dir);
  CHECK(system(cmd) == 0, "library: %s failed", cmd);
}

int main(void) {
  const char *env = getenv("CLIFT_SEED");
  uint64_t seed = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
  rng_state = seed;
  char tmp[] = "/tmp/clift-test-cpu-XXXXXX";
  if (!mkdtemp(tmp)) { perror("mkdtemp"); return 1; }
  setenv("XDG_CACHE_HOME", tmp, 1);
  T_INT = type_scalar(TY_INT); T_LONG = type_scalar(TY_LONG); T_FLOAT = type_scalar(TY_FLOAT);
  T_DOUBLE = type_scalar(TY_DOUBLE); T_BOOL = type_scalar(TY_BOOL);
  N = nat_var_new("N", nat_const(1), NULL);
  M = nat_var_new("M", nat_const(1), NULL);
  test_scale();
  test_transpose();
  test_scalar_result();
  test_no_sizes();
  test_bool_output();
  test_vectors();
  test_dep_array();
  test_openmp();
  test_cache(tmp);
  test_errors();
  test_refused_types();
  test_bad_inputs();
  test_library(tmp);
  if (check_failed) fprintf(stderr, "test_cpu_runtime: seed %llu (rerun with CLIFT_SEED=%llu)\n",
                            (unsigned long long)seed, (unsigned long long)seed);
  else system(arena_printf("rm -rf '%s'", tmp));
  return CHECK_DONE("cpu_runtime");
}
