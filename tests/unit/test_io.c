/* test_io.c — value literals, .npy files and value_close (SPEC §7, §8) on fresh
   random data. The seed comes from CLIFT_SEED or the clock and is reported on
   failure, so a failing run can be repeated. */
#include "check.h"
#include "io/value.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
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

/* Any finite float: random bits cover negatives, denormals and huge values. */
static float rnd_float(void) {
  for (;;) {
    uint32_t u = (uint32_t)rnd();
    float f; memcpy(&f, &u, 4);
    if (isfinite(f)) return f;
  }
}
static double rnd_double(void) {
  for (;;) {
    uint64_t u = rnd();
    double d; memcpy(&d, &u, 8);
    if (isfinite(d)) return d;
  }
}

/* ---- helpers ---- */
static Type *T_INT, *T_LONG, *T_FLOAT, *T_DOUBLE, *T_BOOL;
static Nat *N_, *M_, *K_;

static Type *arr(Type *e, Nat *n) { return type_array(e, n); }

static Value *rnd_scalar(TypeKind k) {
  switch (k) {
  case TY_INT:    return value_int((int32_t)(uint32_t)rnd());
  case TY_LONG:   return value_long((int64_t)rnd());
  case TY_FLOAT:  return value_float(rnd_float());
  case TY_DOUBLE: return value_double(rnd_double());
  default:        return value_bool(rnd() & 1);
  }
}

/* A random value of type t; arrays get 0..maxlen elements (ragged allowed when
   !regular, as the literal syntax does not care). */
static Value *rnd_value(Type *t, int maxlen, bool regular, const int64_t *shape) {
  switch (t->kind) {
  case TY_ARRAY: {
    int64_t n = regular ? shape[0] : rnd_range(0, maxlen);
    Value *v = value_array(n);
    for (int64_t i = 0; i < n; i++) v->elems[i] = rnd_value(t->elem, maxlen, regular, shape + 1);
    return v;
  }
  case TY_TUPLE: {
    Value *v = value_tuple(t->n);
    for (int i = 0; i < t->n; i++) v->elems[i] = rnd_value(t->fields[i], maxlen, regular, shape);
    return v;
  }
  case TY_VECTOR: {
    Value *v = value_vector(t->width);
    for (int i = 0; i < t->width; i++) v->elems[i] = rnd_scalar(t->elem->kind);
    return v;
  }
  default: return rnd_scalar(t->kind);
  }
}

/* Bit-exact equality (nan matches nan). */
static bool identical(Value *a, Value *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case VAL_INT:    return a->s.i == b->s.i;
  case VAL_LONG:   return a->s.l == b->s.l;
  case VAL_BOOL:   return a->s.b == b->s.b;
  case VAL_FLOAT:  return (isnan(a->s.f) && isnan(b->s.f)) || memcmp(&a->s.f, &b->s.f, 4) == 0;
  case VAL_DOUBLE: return (isnan(a->s.d) && isnan(b->s.d)) || memcmp(&a->s.d, &b->s.d, 8) == 0;
  default:
    if (a->n != b->n) return false;
    for (int64_t i = 0; i < a->n; i++) if (!identical(value_elem(a, i), value_elem(b, i))) return false;
    return true;
  }
}

static const char *show(Value *v) { Buf b = {0}; value_print(&b, v); return buf_str(&b); }

/* Print, parse back against t, compare bit-exactly. */
static bool round_trip(Value *v, Type *t) {
  const char *text = show(v);
  diag_clear();
  Value *back = value_parse(text, t, "input 1 (xs)");
  if (!back) { fprintf(stderr, "  parse failed: %s\n  text: %.200s\n", diag_message(), text); return false; }
  if (!identical(v, back)) { fprintf(stderr, "  differs: %.200s vs %.200s\n", text, show(back)); return false; }
  return true;
}

/* Parse expecting failure; true when the message contains every needle. */
static bool parse_fails(const char *text, Type *t, const char *what, const char *n1, const char *n2) {
  diag_clear();
  Value *v = value_parse(text, t, what);
  const char *m = diag_message();
  bool ok = !v && strstr(m, what) && (!n1 || strstr(m, n1)) && (!n2 || strstr(m, n2));
  if (!ok) fprintf(stderr, "  '%s' as %s: %s\n", text, type_to_string(t), v ? "(accepted)" : m);
  return ok;
}

static Value *parse_ok(const char *text, Type *t) {
  diag_clear();
  Value *v = value_parse(text, t, "input 1 (xs)");
  if (!v) fprintf(stderr, "  '%s': %s\n", text, diag_message());
  return v;
}

/* ---- literal tests ---- */

static void test_scalar_round_trips(void) {
  Type *types[] = { T_INT, T_LONG, T_FLOAT, T_DOUBLE, T_BOOL };
  for (int k = 0; k < 5; k++) {
    int ok = 0;
    for (int i = 0; i < 2000; i++) ok += round_trip(rnd_scalar(types[k]->kind), types[k]);
    CHECK(ok == 2000, "%s: %d/2000 round trips", type_to_string(types[k]), ok);
  }
  float fs[] = { 2.0f, -0.0f, 0.0f, 1e-45f, FLT_MIN, FLT_MAX, -FLT_MAX, 0.1f, 16777217.0f,
                 INFINITY, -INFINITY, NAN, 3.4028234e38f, -1e-40f };
  for (size_t i = 0; i < sizeof fs / sizeof *fs; i++)
    CHECK(round_trip(value_float(fs[i]), T_FLOAT), "float %a", (double)fs[i]);
  double ds[] = { 2.0, -0.0, 5e-324, DBL_MIN, DBL_MAX, -DBL_MAX, 0.1, 9007199254740993.0,
                  INFINITY, -INFINITY, NAN, 1e300, -123456789.125 };
  for (size_t i = 0; i < sizeof ds / sizeof *ds; i++)
    CHECK(round_trip(value_double(ds[i]), T_DOUBLE), "double %a", ds[i]);
  int32_t is[] = { INT32_MIN, INT32_MAX, 0, -1 };
  for (size_t i = 0; i < 4; i++) CHECK(round_trip(value_int(is[i]), T_INT), "int %d", is[i]);
  int64_t ls[] = { INT64_MIN, INT64_MAX, 0, -1 };
  for (size_t i = 0; i < 4; i++) CHECK(round_trip(value_long(ls[i]), T_LONG), "long %lld", (long long)ls[i]);
  CHECK(strcmp(show(value_float(2.0f)), "2") == 0, "2.0f prints as %s", show(value_float(2.0f)));
  CHECK(strcmp(show(value_double(-INFINITY)), "-inf") == 0, "-inf prints as %s", show(value_double(-INFINITY)));
  CHECK(strcmp(show(value_float(NAN)), "nan") == 0, "nan prints as %s", show(value_float(NAN)));
  CHECK(strcmp(show(value_double(0.1)), "0.10000000000000001") == 0, "%%.17g: %s", show(value_double(0.1)));
}

static void test_aggregate_round_trips(void) {
  Type *shapes[] = {
    arr(T_FLOAT, N_), arr(arr(T_DOUBLE, M_), N_), arr(arr(arr(T_INT, K_), M_), N_),
    arr(T_BOOL, N_), arr(arr(T_LONG, M_), N_),
    type_tuple2(T_FLOAT, arr(T_INT, N_)),
    arr(type_tuple2(T_DOUBLE, T_BOOL), N_),
    type_vector(T_FLOAT, 4), arr(type_vector(T_DOUBLE, 2), N_),
    arr(type_tuple2(type_vector(T_INT, 8), arr(T_FLOAT, M_)), N_),
  };
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
    int ok = 0;
    for (int i = 0; i < 100; i++) ok += round_trip(rnd_value(shapes[s], 7, false, NULL), shapes[s]);
    CHECK(ok == 100, "%s: %d/100 round trips", type_to_string(shapes[s]), ok);
  }
  /* existentials parse like arrays */
  NatVar *x = nat_var_new("X", nat_const(0), NULL);
  Type *ex = type_exists(x, arr(T_FLOAT, nat_var(x)));
  CHECK(round_trip(rnd_value(arr(T_FLOAT, N_), 9, false, NULL), ex), "exists round trip");
}

static void test_literal_forms(void) {
  Value *v = parse_ok(" [ 1 , -2.5,1e-3,\n 1.5f, -inf, nan, +4 ]\t", arr(T_FLOAT, N_));
  CHECK(v && v->n == 7, "7 elements");
  if (v && v->n == 7) {
    CHECK(value_elem(v, 0)->kind == VAL_FLOAT && value_elem(v, 0)->s.f == 1.0f, "int literal as float");
    CHECK(value_elem(v, 1)->s.f == -2.5f, "-2.5");
    CHECK(value_elem(v, 2)->s.f == 1e-3f, "1e-3 parses as the float nearest (not via double)");
    CHECK(value_elem(v, 3)->s.f == 1.5f, "1.5f");
    CHECK(isinf(value_elem(v, 4)->s.f) && value_elem(v, 4)->s.f < 0, "-inf");
    CHECK(isnan(value_elem(v, 5)->s.f), "nan");
    CHECK(value_elem(v, 6)->s.f == 4.0f, "+4");
  }
  v = parse_ok("[]", arr(T_INT, N_));
  CHECK(v && v->kind == VAL_ARRAY && v->n == 0, "empty array");
  v = parse_ok("[[], [1], [ ]]", arr(arr(T_INT, M_), N_));
  CHECK(v && v->n == 3 && value_elem(v, 0)->n == 0 && value_elem(v, 1)->n == 1 && value_elem(v, 2)->n == 0, "empty rows");
  v = parse_ok("-0", T_DOUBLE);
  CHECK(v && v->s.d == 0 && signbit(v->s.d), "-0 keeps its sign");
  v = parse_ok("(3, [true, false])", type_tuple2(T_LONG, arr(T_BOOL, N_)));
  CHECK(v && v->kind == VAL_TUPLE && value_elem(v, 0)->s.l == 3 && value_elem(value_elem(v, 1), 1)->s.b == false, "tuple");
  v = parse_ok("<1, 2.5, 3, 4>", type_vector(T_FLOAT, 4));
  CHECK(v && v->kind == VAL_VECTOR && v->n == 4 && value_elem(v, 1)->s.f == 2.5f, "vector");
  v = parse_ok("7", type_idx(N_));
  CHECK(v && v->kind == VAL_INT && v->s.i == 7, "idx is an int");
  v = parse_ok("-2147483648", T_INT);
  CHECK(v && v->s.i == INT32_MIN, "INT32_MIN");
  v = parse_ok("5", T_LONG);
  CHECK(v && v->kind == VAL_LONG && v->s.l == 5, "long");
}

static void test_literal_errors(void) {
  Type *fN = arr(T_FLOAT, N_);
  const char *ys = "input 2 (ys)";
  CHECK(parse_fails("abc", T_FLOAT, ys, "expected a float, found 'abc' at offset 0", NULL), "abc");
  CHECK(parse_fails("[1.5, abc]", fN, ys, "expected a float", "'abc' at offset 6"), "abc in array");
  CHECK(parse_fails("1.5", T_INT, ys, "expected an int", "float literal '1.5'"), "float for int");
  CHECK(parse_fails("[1, 2e3]", arr(T_LONG, N_), ys, "float literal '2e3' at offset 4", NULL), "exp for long");
  CHECK(parse_fails("3000000000", T_INT, ys, "out of range", "offset 0"), "int range");
  CHECK(parse_fails("-2147483649", T_INT, ys, "out of range", NULL), "int range low");
  CHECK(parse_fails("9223372036854775808", T_LONG, ys, "out of range", NULL), "long range");
  CHECK(parse_fails("1e39", T_FLOAT, ys, "out of range for float", NULL), "float range");
  CHECK(parse_fails("[1, 2] x", fN, ys, "unexpected 'x'", "offset 7"), "trailing garbage");
  CHECK(parse_fails("3", fN, ys, "expected an array of float ([float]N), found a number '3'", NULL), "depth: scalar for array");
  CHECK(parse_fails("[[1]]", fN, ys, "expected a float, found an array", "offset 1"), "depth: array for scalar");
  CHECK(parse_fails("[1, 2]", arr(arr(T_FLOAT, M_), N_), ys, "expected an array of float ([float]M), found a number '1'", NULL), "depth 2");
  CHECK(parse_fails("[1 2]", fN, ys, "expected ',' or ']'", "offset 3"), "missing comma");
  CHECK(parse_fails("[1, 2", fN, ys, "the end of the input", "offset 5"), "unclosed");
  CHECK(parse_fails("[1, 2,]", fN, ys, "expected a float, found ']'", NULL), "trailing comma");
  CHECK(parse_fails("", T_DOUBLE, ys, "expected a double, found the end of the input at offset 0", NULL), "empty");
  CHECK(parse_fails("1.5x", T_FLOAT, ys, "'1.5x'", NULL), "glued garbage");
  CHECK(parse_fails("0x10", T_INT, ys, "'0x10'", NULL), "no hex");
  CHECK(parse_fails("infinity", T_FLOAT, ys, "'infinity'", NULL), "only inf");
  CHECK(parse_fails("1", T_BOOL, ys, "expected a bool (true or false), found a number '1'", NULL), "bool");
  CHECK(parse_fails("truex", T_BOOL, ys, "'truex'", NULL), "bool word");
  CHECK(parse_fails("(1, 2, 3)", type_tuple2(T_INT, T_INT), ys, "has 2 fields", "offset 7"), "tuple too long");
  CHECK(parse_fails("(1)", type_tuple2(T_INT, T_INT), ys, "with 2 fields, found 1", NULL), "tuple too short");
  CHECK(parse_fails("<1, 2, 3>", type_vector(T_FLOAT, 4), ys, "with 4 lanes, found 3", NULL), "vector width");
  CHECK(parse_fails("[1, 2]", type_vector(T_FLOAT, 4), ys, "expected a vector float4", "found an array"), "vector syntax");
  CHECK(parse_fails("-1", type_idx(N_), ys, "expected an index", NULL), "negative idx");
  CHECK(parse_fails("[1,\n 2,\n x]", fN, ys, "'x' at offset 9 (line 3, column 2)", NULL), "line and column");
  CHECK(parse_fails("nan", T_INT, ys, "float literal 'nan'", NULL), "nan for int");
}

/* 10^6 elements: linear time, and every value lands where it should. */
static void test_large_literal(void) {
  enum { BIG = 1000000 };
  Buf b = {0};
  buf_putc(&b, '[');
  float *want = malloc(sizeof(float) * BIG);
  char s[32];
  for (int i = 0; i < BIG; i++) {
    want[i] = (float)rnd_range(-1000000, 1000000) / 64.0f;
    snprintf(s, sizeof s, i ? ", %.9g" : "%.9g", (double)want[i]);
    buf_puts(&b, s);
  }
  buf_putc(&b, ']');
  clock_t t0 = clock();
  Value *v = parse_ok(buf_str(&b), arr(T_FLOAT, N_));
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  bool same = v && v->n == BIG;
  for (int i = 0; same && i < BIG; i++) same = value_elem(v, i)->s.f == want[i];
  CHECK(same, "10^6-element literal parsed exactly");
  CHECK(secs < 5.0, "10^6-element literal took %.2fs", secs);
  t0 = clock();
  Buf out = {0};
  if (v) value_print(&out, v);
  secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  CHECK(secs < 5.0, "printing 10^6 elements took %.2fs", secs);
  free(want);
}

/* ---- npy ---- */

static const char *tmp_path(const char *tag) {
  static int counter;
  return arena_printf("/tmp/clift_test_io_%ld_%d_%s.npy", (long)getpid(), counter++, tag);
}

static void test_npy_round_trips(void) {
  Type *scalars[] = { T_FLOAT, T_DOUBLE, T_INT, T_LONG, T_BOOL };
  Nat *lens[] = { N_, M_, K_ };
  for (int s = 0; s < 5; s++) {
    for (int dims = 0; dims <= 3; dims++) {
      Type *t = scalars[s];
      for (int d = dims - 1; d >= 0; d--) t = arr(t, lens[d]);
      int64_t shape[3];
      for (int d = 0; d < dims; d++) shape[d] = rnd_range(1, dims == 1 ? 300 : 12);
      if (dims >= 2 && rnd() % 4 == 0) shape[dims - 1] = 0;  /* empty rows now and then */
      Value *v = rnd_value(t, 0, true, shape);
      const char *path = tmp_path("rt");
      diag_clear();
      bool wrote = value_write_npy(path, v, t);
      CHECK(wrote, "write %s: %s", type_to_string(t), diag_message());
      Value *back = value_read_npy(path, t, "input 1 (xs)");
      CHECK(back && identical(v, back), "npy round trip %s: %s", type_to_string(t), diag_message());
      size_t len;
      unsigned char *bytes = (unsigned char *)util_read_file(path, &len);
      if (bytes && len >= 10) {
        size_t hlen = bytes[8] | (size_t)bytes[9] << 8;
        CHECK(memcmp(bytes, "\x93NUMPY\x01\x00", 8) == 0, "v1.0 magic");
        CHECK((10 + hlen) % 64 == 0 && bytes[10 + hlen - 1] == '\n', "header padded to 64, ends in newline");
      }
      CHECK(access(arena_printf("%s.tmp.%ld", path, (long)getpid()), F_OK) != 0, "no temp file left");
      remove(path);
    }
  }
  /* vectors: a last dimension of the vector's width */
  Type *t = arr(type_vector(T_FLOAT, 4), N_);
  int64_t shape[1] = { 33 };
  Value *v = rnd_value(t, 0, true, shape);
  const char *path = tmp_path("vec");
  diag_clear();
  CHECK(value_write_npy(path, v, t), "write float4 array: %s", diag_message());
  Value *back = value_read_npy(path, t, "input 1 (xs)");
  CHECK(back && identical(v, back), "float4 array round trip: %s", diag_message());
  diag_clear();
  CHECK(!value_read_npy(path, arr(type_vector(T_FLOAT, 8), N_), "input 3 (vs)") &&
        strstr(diag_message(), "8-wide vectors"), "vector width mismatch: %s", diag_message());
  remove(path);
}

static void test_npy_write_errors(void) {
  Type *t = arr(arr(T_FLOAT, M_), N_);
  Value *v = parse_ok("[[1, 2], [3]]", t);
  const char *path = tmp_path("ragged");
  diag_clear();
  CHECK(v && !value_write_npy(path, v, t) && strstr(diag_message(), "ragged"), "ragged: %s", diag_message());
  CHECK(access(path, F_OK) != 0, "no output file for a ragged value");
  Type *tt = type_tuple2(T_FLOAT, T_INT);
  diag_clear();
  CHECK(!value_write_npy(path, parse_ok("(1, 2)", tt), tt) && strstr(diag_message(), "arrays of scalars"),
        "tuple: %s", diag_message());
  /* a position-dependent (triangular) array is no regular ndarray: it is written
     packed, its scalars row after row in one dimension, and read back so (the
     driver gives the rows their lengths, src/cli/inputs.c) */
  NatVar *i = nat_var_new("i", nat_const(0), NULL);
  Type *tri = type_dep_array(i, arr(T_FLOAT, nat_var(i)), N_);
  diag_clear();
  CHECK(value_write_npy(path, parse_ok("[[], [1], [2, 3.5]]", tri), tri), "dep array write: %s", diag_message());
  Value *packed = value_read_npy(path, tri, "input 1 (tri)");
  Buf pb = {0};
  if (packed) value_print(&pb, packed);
  CHECK(packed && value_is_flat(packed) && packed->rank == 1 && !strcmp(buf_str(&pb), "[1, 2, 3.5]"),
        "dep array read back packed: %s", packed ? buf_str(&pb) : diag_message());
  unlink(path);
  Type *tri_t = type_dep_array(i, arr(tt, nat_var(i)), N_);
  diag_clear();
  CHECK(!value_read_npy(path, tri_t, "input 1 (tri)") && strstr(diag_message(), "regular arrays"),
        "dep array of tuples read: %s", diag_message());
  CHECK(!value_write_npy("/nonexistent_dir_clift/x.npy", parse_ok("[1]", arr(T_FLOAT, N_)), arr(T_FLOAT, N_)) &&
        strstr(diag_message(), "cannot write"), "unwritable: %s", diag_message());
  /* A wrongly typed value (int elements for a float array) is refused, not reinterpreted. */
  diag_clear();
  CHECK(!value_write_npy(path, parse_ok("[1, 2]", arr(T_INT, N_)), arr(T_FLOAT, N_)), "kind mismatch refused");
  CHECK(access(path, F_OK) != 0, "still no output file");
}

/* Hand-made .npy: magic, version, header dict, then raw bytes. */
static const char *write_raw(const char *magic, int major, const char *dict, const void *data, size_t n) {
  const char *path = tmp_path("raw");
  FILE *f = fopen(path, "wb");
  size_t dl = strlen(dict);
  fwrite(magic, 1, 6, f);
  fputc(major, f); fputc(0, f);
  fputc((int)(dl & 0xff), f); fputc((int)((dl >> 8) & 0xff), f);
  if (major >= 2) { fputc(0, f); fputc(0, f); }
  fwrite(dict, 1, dl, f);
  if (n) fwrite(data, 1, n, f);
  fclose(f);
  return path;
}

static bool npy_fails(const char *path, Type *t, const char *n1, const char *n2) {
  diag_clear();
  Value *v = value_read_npy(path, t, "input 1 (xs)");
  const char *m = diag_message();
  bool ok = !v && strstr(m, "input 1 (xs)") && strstr(m, n1) && (!n2 || strstr(m, n2));
  if (!ok) fprintf(stderr, "  npy %s: %s\n", path, v ? "(accepted)" : m);
  remove(path);
  return ok;
}

static void test_npy_handmade(void) {
  Type *fN = arr(T_FLOAT, N_);
  const char *M = "\x93NUMPY";
  unsigned char f3[12];   /* 1.5, -2, 3 as little-endian float32 */
  float vals[3] = { 1.5f, -2.0f, 3.0f };
  for (int i = 0; i < 3; i++) {
    uint32_t u; memcpy(&u, &vals[i], 4);
    for (int k = 0; k < 4; k++) f3[4 * i + k] = (unsigned char)(u >> (8 * k));
  }
  const char *good = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\n";
  for (int major = 1; major <= 3; major++) {
    const char *p = write_raw(M, major, good, f3, 12);
    diag_clear();
    Value *v = value_read_npy(p, fN, "input 1 (xs)");
    CHECK(v && v->n == 3 && value_elem(v, 0)->s.f == 1.5f && value_elem(v, 1)->s.f == -2.0f && value_elem(v, 2)->s.f == 3.0f,
          "hand-made v%d.0 read: %s", major, diag_message());
    remove(p);
  }
  CHECK(npy_fails(write_raw(M, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", f3, 12), fN,
                  ".npy has dtype float64 but the parameter is [float]N", NULL), "wrong dtype");
  CHECK(npy_fails(write_raw(M, 1, good, f3, 12), arr(T_INT, N_), "dtype float32 but the parameter is [int]N", "int32"),
        "wrong dtype for int");
  CHECK(npy_fails(write_raw(M, 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }", f3, 12), fN,
                  "big-endian", NULL), "big-endian");
  CHECK(npy_fails(write_raw(M, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }", f3, 3), fN,
                  "dtype '|u1'", NULL), "unsupported dtype");
  CHECK(npy_fails(write_raw(M, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }", f3, 12), fN,
                  "Fortran order", NULL), "fortran order");
  CHECK(npy_fails(write_raw(M, 1, good, f3, 10), fN, "truncated", "needs 12"), "truncated data");
  CHECK(npy_fails(write_raw(M, 1, good, f3, 12), arr(arr(T_FLOAT, M_), N_), "1 dimension, shape (3,)", "needs 2"),
        "too few dimensions");
  CHECK(npy_fails(write_raw(M, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }", f3, 12), fN,
                  "2 dimensions, shape (1, 3)", NULL), "too many dimensions");
  CHECK(npy_fails(write_raw(M, 1, good, f3, 12), T_FLOAT, "shape (3,)", "needs 0"), "array for scalar");
  CHECK(npy_fails(write_raw("\x93NUMPX", 1, good, f3, 12), fN, "not a .npy file", NULL), "bad magic");
  CHECK(npy_fails(write_raw(M, 7, good, f3, 12), fN, "version 7.0", NULL), "bad version");
  CHECK(npy_fails(write_raw(M, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,", f3, 12), fN,
                  "malformed .npy header", NULL), "malformed header");
  CHECK(npy_fails(write_raw(M, 1, "{'descr': '<f4', 'shape': (3,), }", f3, 12), fN, "'fortran_order'", NULL),
        "missing key");
  CHECK(npy_fails(write_raw(M, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000, 0), }", f3, 0),
                  arr(arr(T_FLOAT, M_), N_), "too large", NULL), "hostile empty shape");
  CHECK(npy_fails(write_raw(M, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904,), }", f3, 12),
                  fN, "too large", NULL), "overflowing shape");
  {
    const char *p = tmp_path("short");
    FILE *f = fopen(p, "wb"); fwrite("\x93NUMPY\x01\x00\xff\x00{", 1, 11, f); fclose(f);
    CHECK(npy_fails(p, fN, "truncated inside its .npy header", NULL), "truncated header");
  }
  CHECK(npy_fails("/tmp/clift_no_such_file_xyz.npy", fN, "cannot open '/tmp/clift_no_such_file_xyz.npy'", NULL),
        "missing file");
  /* 0-d bool and an empty array read fine */
  unsigned char one = 1;
  const char *p = write_raw(M, 1, "{'descr': '|b1', 'fortran_order': False, 'shape': (), }", &one, 1);
  diag_clear();
  Value *v = value_read_npy(p, T_BOOL, "input 1 (b)");
  CHECK(v && v->kind == VAL_BOOL && v->s.b, "0-d bool: %s", diag_message());
  remove(p);
  p = write_raw(M, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }", NULL, 0);
  diag_clear();
  v = value_read_npy(p, fN, "input 1 (xs)");
  CHECK(v && v->kind == VAL_ARRAY && v->n == 0, "empty array: %s", diag_message());
  remove(p);
}

/* ---- value_close ---- */

static bool close_says(const char *g, const char *w, Type *t, double tol, const char *expect) {
  Value *gv = parse_ok(g, t), *wv = parse_ok(w, t);
  Buf why = {0};
  bool r = gv && wv && value_close(gv, wv, tol, &why);
  if (!expect) {
    if (!r) fprintf(stderr, "  %s vs %s: %s\n", g, w, buf_str(&why));
    return r;
  }
  if (r || !strstr(buf_str(&why), expect)) { fprintf(stderr, "  %s vs %s: '%s'\n", g, w, buf_str(&why)); return false; }
  return true;
}

static void test_close(void) {
  Type *fN = arr(T_FLOAT, N_), *dN = arr(T_DOUBLE, N_), *fMN = arr(arr(T_FLOAT, M_), N_);
  CHECK(close_says("[1, 2.5, 3]", "[1, 2.5, 3]", fN, 0, NULL), "equal");
  CHECK(close_says("[1000.001]", "[1000]", dN, 1e-5, NULL), "relative within");
  CHECK(close_says("[1000.1]", "[1000]", dN, 1e-5, "element [0]: got 1000.1, expected 1000"), "relative outside");
  CHECK(close_says("[1, 2.5]", "[1, 2.75]", fN, 1e-6, "element [1]: got 2.5, expected 2.75"), "mismatch message");
  CHECK(close_says("[[1,2],[3,4],[5,6],[7,8.5]]", "[[1,2],[3,4],[5,6],[7,8.25]]", fMN, 1e-6, "element [3][1]: got 8.5, expected 8.25"), "nested path");
  CHECK(close_says("[1, 2, 3]", "[1, 2, 3, 4]", fN, 1e-6, "length 3, expected 4"), "length");
  CHECK(close_says("[[1], [2, 3]]", "[[1], [2]]", fMN, 1e-6, "element [1]: length 2, expected 1"), "inner length");
  CHECK(close_says("[1e-9, -3e-8]", "[0, 0]", dN, 1e-6, NULL), "absolute near zero");
  CHECK(close_says("[1e-3]", "[0]", dN, 1e-6, "got 0.001"), "not near enough zero");
  CHECK(close_says("[nan, inf, -inf]", "[nan, inf, -inf]", fN, 1e-6, NULL), "nan, inf");
  CHECK(close_says("[inf]", "[-inf]", fN, 1e-6, "got inf, expected -inf"), "opposite infinities");
  CHECK(close_says("[nan]", "[1]", fN, 1e-6, "got nan, expected 1"), "nan vs number");
  CHECK(close_says("[1, 2, 3]", "[1, 2, 4]", arr(T_INT, N_), 0.5, "element [2]: got 3, expected 4"), "ints exact");
  CHECK(close_says("true", "false", T_BOOL, 0, "got true, expected false"), "bools");
  CHECK(close_says("5", "6", T_LONG, 0, "got 5, expected 6"), "top-level scalar has no element prefix");
  CHECK(close_says("[(1, 2)]", "[(1, 3)]", arr(type_tuple2(T_INT, T_FLOAT), N_), 1e-6, "element [0].1: got 2, expected 3"), "tuple path");
  CHECK(close_says("[1, 5, 9]", "[2, 5, 8]", fN, 1e-6, "(2 mismatches in all)"), "mismatch count");
  Buf why = {0};
  CHECK(!value_close(value_int(1), value_float(1), 0, &why) && strstr(buf_str(&why), "got an int, expected a float"),
        "kind mismatch: %s", buf_str(&why));
  /* random arrays: a relative perturbation below tol is close, above is not */
  int ok = 0;
  for (int i = 0; i < 200; i++) {
    int64_t n = rnd_range(1, 50);
    Value *w = value_array(n), *g = value_array(n), *h = value_array(n);
    for (int64_t k = 0; k < n; k++) {
      double x = (double)rnd_range(-1000000, 1000000) / 7.0 + 0.5;
      w->elems[k] = value_double(x);
      g->elems[k] = value_double(x * (1 + 1e-7));
      h->elems[k] = value_double(k == n / 2 ? x * (1 + 1e-4) + 1e-3 : x);
    }
    ok += value_close(g, w, 1e-6, NULL) && !value_close(h, w, 1e-6, NULL);
  }
  CHECK(ok == 200, "random tolerance cases %d/200", ok);
}


/* ---- flat arrays and value_keep (docs/values.md §5, docs/design.md §9) ---- */

static void test_flat_literals(void) {
  Type *m = arr(arr(T_FLOAT, M_), N_);
  Value *v = parse_ok("[[1, 2, 3], [4, 5, 6]]", m);
  CHECK(v && value_is_flat(v) && v->rank == 2 && v->shape[0] == 2 && v->shape[1] == 3, "a regular literal parses flat");
  Value tmp;
  CHECK(v && value_elem_at(value_elem(v, 1), 2, &tmp)->s.f == 6.0f, "element [1][2] of a flat array");
  CHECK(v && strcmp(show(v), "[[1, 2, 3], [4, 5, 6]]") == 0, "a flat array prints as before: %s", v ? show(v) : "");
  v = parse_ok("[[1, 2, 3], [4, 5]]", m);
  CHECK(v && !value_is_flat(v) && value_elem(v, 1)->n == 2, "a ragged literal is kept boxed (the driver reports it)");
  v = parse_ok("[]", m);
  CHECK(v && v->n == 0 && strcmp(show(v), "[]") == 0, "an empty array");
  parse_fails("[[1, 2], [3, x]]", m, "input 1 (xs)", "expected a float, found 'x' at offset 13", NULL);
  /* a boxed value and its flat twin write the same .npy */
  Value *b = value_array(2);
  for (int i = 0; i < 2; i++) { b->elems[i] = value_array(3); for (int j = 0; j < 3; j++) b->elems[i]->elems[j] = value_float((float)(3 * i + j + 1)); }
  Value *f = parse_ok("[[1, 2, 3], [4, 5, 6]]", m);
  const char *pb = tmp_path("boxed"), *pf = tmp_path("flat");
  CHECK(value_write_npy(pb, b, m) && value_write_npy(pf, f, m), "writing: %s", diag_message());
  size_t lb = 0, lf = 0;
  char *db = util_read_file(pb, &lb), *df = util_read_file(pf, &lf);
  CHECK(db && df && lb == lf && memcmp(db, df, lb) == 0, "boxed and flat write identical .npy files");
  Value *back = value_read_npy(pf, m, "input 1 (xs)");
  CHECK(back && value_is_flat(back) && identical(back, b), "a .npy file reads back as a flat array");
  remove(pb); remove(pf);
  /* value_print_line writes what value_print does, and a newline */
  FILE *tf = tmpfile();
  CHECK(tf && value_print_line(tf, f), "value_print_line");
  char text[64] = {0};
  if (tf) { rewind(tf); size_t n = fread(text, 1, sizeof text - 1, tf); text[n] = 0; fclose(tf); }
  CHECK(strcmp(text, arena_printf("%s\n", show(f))) == 0, "value_print_line: '%s'", text);
  FILE *full = fopen("/dev/full", "w");
  diag_clear();
  CHECK(!full || (!value_print_line(full, f) && strstr(diag_message(), "cannot write the result")),
        "a full device is an error: %s", diag_message());
  if (full) fclose(full);
}

/* value_parse_file: the same values and messages as value_parse of the text */
static void test_parse_file(void) {
  Type *m = arr(arr(T_INT, M_), N_);
  const char *path = arena_printf("/tmp/clift_test_io_%ld.txt", (long)getpid());
  const char *texts[] = { "[[1, 2], [3, 4]]\n", "[[1, 2],\n [3, 4], [5]]", "[[1, 2],\n [3, x]]", "[[1, 2], [3, 4]] 5",
                          "[]", " [ [ -7 ] ] ", "[[1, 2.5]]", "[[99999999999]]" };
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    FILE *f = fopen(path, "w");
    if (!f) continue;
    fputs(texts[i], f);
    fclose(f);
    diag_clear();
    Value *want = value_parse(texts[i], m, "input 1 (xs)");
    const char *want_msg = arena_strdup(diag_message());
    diag_clear();
    Value *got = value_parse_file(path, m, "input 1 (xs)");
    CHECK(!want == !got && strcmp(want_msg, diag_message()) == 0 && (!got || identical(got, want)),
          "'%s': value_parse_file gives '%s', value_parse '%s'", texts[i], diag_message(), want_msg);
  }
  /* a large flat file: the values, flat */
  FILE *f = fopen(path, "w");
  for (int i = 0; f && i < 300000; i++) fprintf(f, i ? ",%d" : "[%d", i % 1000 - 500);
  if (f) { fputs("]", f); fclose(f); }
  Value *v = value_parse_file(path, arr(T_INT, N_), "input 1 (xs)");
  Value tmp;
  CHECK(v && value_is_flat(v) && v->n == 300000 && value_elem_at(v, 299999, &tmp)->s.i == 499, "300000 ints from a file");
  diag_clear();
  CHECK(!value_parse_file("/nonexistent/x.txt", m, "input 2 (ys)") &&
        strstr(diag_message(), "input 2 (ys): cannot open '/nonexistent/x.txt'"), "%s", diag_message());
  remove(path);
}

static void test_keep(void) {
  /* a loop keeping one accumulator uses the memory of one iteration */
  ArenaMark loop = arena_mark();
  Value *old = value_float(1.0f);
  Value *acc = value_float(0.0f);
  ArenaMark inner = arena_mark();
  for (int i = 0; i < 100000; i++) {
    (void)arena_alloc(256);   /* garbage of the iteration */
    Value *t = value_tuple(2);
    t->elems[0] = old;        /* made before the loop: shared, not copied */
    t->elems[1] = value_float(acc->kind == VAL_TUPLE ? acc->elems[1]->s.f + 1 : 1);
    acc = value_keep(t, inner);
  }
  ArenaMark after = arena_mark();
  CHECK(after.block == inner.block && after.used - inner.used < 1024, "memory after 10^5 iterations: %zu bytes",
        after.block == inner.block ? after.used - inner.used : (size_t)-1);
  CHECK(acc->elems[0] == old && acc->elems[1]->s.f == 100000.0f, "the kept value is intact and shares old parts");
  /* a part reachable twice is copied once; flat arrays and views are copied */
  ArenaMark m = arena_mark();
  Value *x = value_float(7.0f);
  Value *f = parse_ok("[[1, 2], [3, 4]]", arr(arr(T_FLOAT, M_), N_));
  Value *t = value_tuple(3);
  t->elems[0] = x; t->elems[1] = x; t->elems[2] = value_elem(f, 1);
  (void)arena_alloc(100000);
  Value *k = value_keep(t, m);
  ArenaMark end = arena_mark();
  CHECK(k->elems[0] == k->elems[1] && k->elems[0]->s.f == 7.0f, "sharing kept");
  CHECK(strcmp(show(k), "(7, 7, [3, 4])") == 0, "flat view kept: %s", show(k));
  CHECK(end.block != m.block || end.used - m.used < 512, "only the kept value remains: %zu bytes", end.used - m.used);
  arena_release(loop);
}

int main(void) {
  const char *env = getenv("CLIFT_SEED");
  uint64_t seed = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
  rng_state = seed;
  T_INT = type_scalar(TY_INT); T_LONG = type_scalar(TY_LONG); T_FLOAT = type_scalar(TY_FLOAT);
  T_DOUBLE = type_scalar(TY_DOUBLE); T_BOOL = type_scalar(TY_BOOL);
  N_ = nat_var(nat_var_new("N", nat_const(1), NULL));
  M_ = nat_var(nat_var_new("M", nat_const(1), NULL));
  K_ = nat_var(nat_var_new("K", nat_const(1), NULL));
  test_scalar_round_trips();
  test_aggregate_round_trips();
  test_literal_forms();
  test_literal_errors();
  test_large_literal();
  test_npy_round_trips();
  test_npy_write_errors();
  test_npy_handmade();
  test_close();
  test_flat_literals();
  test_keep();
  test_parse_file();
  if (check_failed) fprintf(stderr, "test_io: seed %llu (rerun with CLIFT_SEED=%llu)\n",
                            (unsigned long long)seed, (unsigned long long)seed);
  return CHECK_DONE("io");
}
