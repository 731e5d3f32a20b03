/* test_dpia.c — DPIA translation rules (SPEC §5, seed 004): a phrase in, the
   imperative program out. Each program is type-checked (driver_compile_text),
   translated (dpia_translate: strategy lowering, stages I–III) and printed
   (codegen_c; the device cases through plan_build and codegen_opencl). The
   expected texts were derived from the rules named in each case's comment:
     A(mapX f e)(out)  = C(e)(λx. parforX i. A(f x[i])(out[i]))   (stage II: a loop of level X)
     A(reduceSeq i f e)(out) = C(e)(λx. new acc. acc := i; for j. acc := f acc x[j]; out := acc)
     C(materialising e)(k)   = new tmp. A(e)(tmp); k(tmp)          (hoisted when global/local)
   layout primitives (zip, split, join, transpose, pad, slide, asVector) change
   the view or the acceptor, never copy; stage III flattens the access path to
   one index simplified with the loop variables' ranges. Names are deterministic:
   one counter per program, loops named after their level (i, gid, wid, lid). */
#include "check.h"
#include "stages.h"
#include "cli/driver.h"
#include "codegen/codegen.h"
#include "dpia/plan.h"
#include <string.h>

static const char *frame(const char *sizes, const char *types, const char *params, const char *body) {
  return arena_printf("(lift (%s) (%s)\n  (lambda (%s)\n    %s))\n", sizes, types, params, body);
}

/* does the line starting at s contain part? */
static bool line_has(const char *s, const char *part) {
  const char *p = strstr(s, part), *nl = strchr(s, '\n');
  return p && (!nl || p < nl);
}

static Kernel *translate(const char *sizes, const char *types, const char *params, const char *body) {
  diag_reset();
  Program *p = driver_compile_text("t.lift", frame(sizes, types, params, body));
  return p ? dpia_translate_lowered(p) : NULL;
}

/* The statements of clift_run: after the size and buffer declarations, without
   the closing brace; the diagnostic when translation failed. */
static const char *c_statements(const char *sizes, const char *types, const char *params, const char *body) {
  Kernel *k = translate(sizes, types, params, body);
  if (!k) return arena_printf("(no kernel: %s)", diag_message());
  const char *text = codegen_c(k, false);
  const char *s = strstr(text, "\nvoid clift_run(void **buffers, const long long *sizes) {\n");
  if (!s) return text;
  s = strchr(s + 1, '\n') + 1;
  while (line_has(s, "sizes[") || line_has(s, "(void)sizes;") || line_has(s, "buffers[")) s = strchr(s, '\n') + 1;
  const char *end = strstr(s, "\n}\n");
  return arena_printf("%.*s", end ? (int)(end - s + 1) : (int)strlen(s), s);
}

/* The OpenCL kernels (from the first "/\* k0"), as the driver generates them. */
static const char *cl_kernels(const char *sizes, const char *types, const char *params, const char *body) {
  const char *s = opencl_kernels_of(frame(sizes, types, params, body));
  size_t n = strlen(s);
  while (n > 1 && s[n - 1] == '\n' && s[n - 2] == '\n') n--;   /* one newline at the end */
  return arena_printf("%.*s", (int)n, s);
}

/* Does every line of `lines` (NULL-terminated) occur as a whole line of text,
   each after the previous one? */
static bool in_order(const char *text, const char **lines) {
  const char *at = text;
  for (int i = 0; lines[i]; i++) {
    size_t n = strlen(lines[i]);
    const char *p = at;
    while ((p = strstr(p, lines[i])) && !((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))) p++;
    if (!p) return false;
    at = p + n;
  }
  return true;
}

static int count(const char *text, const char *part) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, part)); p += strlen(part)) n++;
  return n;
}

static void exact(int line, const char *got, const char *expected, const char *what) {
  bool same = strcmp(got, expected) == 0;
  CHECK(same, "line %d, %s:\n--- expected\n%s--- got\n%s", line, what, expected, got);
}

static void ordered(int line, const char *got, const char *what, const char **lines) {
  bool found = in_order(got, lines);
  CHECK(found, "line %d, %s: lines missing or out of order in\n%s", line, what, got);
}

#define EXACT(got, expected, what) exact(__LINE__, got, expected, what)
#define IN_ORDER(got, what, ...) ordered(__LINE__, got, what, (const char *[]){ __VA_ARGS__, NULL })

#define F "(array-type float N)"
#define FN4 "(array-type float (* 4 N))"
#define FMN "(array-type (array-type float M) N)"
#define X2 "(lambda (x) (* x 2.0f))"

static void test_maps(void) {
  /* the whole entry function once: out is buffers[0], inputs follow (kernel.h);
     mapSeq: one sequential loop over the length, element i of the input read
     through the view, written through out[i] */
  diag_reset();
  Program *p = driver_compile_text("t.lift", frame("N", F, "xs", "(mapSeq " X2 " xs)"));
  Kernel *k = p ? dpia_translate_lowered(p) : NULL;
  const char *text = k ? codegen_c(k, false) : "";
  const char *body = strstr(text, "\nvoid clift_run(void **buffers, const long long *sizes) {\n");
  EXACT(body ? body + 1 : text,
        "void clift_run(void **buffers, const long long *sizes) {\n"
        "  const int64_t N = sizes[0];\n"
        "  float *restrict out = (float *)buffers[0];\n"
        "  const float *restrict xs = (const float *)buffers[1];\n"
        "  for (int64_t i0 = 0; i0 < N; i0 += 1) {\n"
        "    out[i0] = (xs[i0] * 2.0f);\n"
        "  }\n"
        "}\n", "mapSeq, whole function");

  /* mapGlb: the same rule at the global level; the loop variable is gid
     (on c, a plain loop; SPEC §6) */
  EXACT(c_statements("N", F, "xs", "(mapGlb " X2 " xs)"),
        "  for (int64_t gid0 = 0; gid0 < N; gid0 += 1) {\n"
        "    out[gid0] = (xs[gid0] * 2.0f);\n"
        "  }\n", "mapGlb");

  /* a lazy map is a view (V_MAP): C(map g xs) reads element i as g xs[i], so
     it is fused into its consumer and nothing is stored */
  EXACT(c_statements("N", F, "xs", "(mapSeq " X2 " (map (lambda (x) (+ x 1.0f)) xs))"),
        "  for (int64_t i0 = 0; i0 < N; i0 += 1) {\n"
        "    out[i0] = ((xs[i0] + 1.0f) * 2.0f);\n"
        "  }\n", "lazy map fused");

  /* a strategy map as an argument materialises: C(mapSeq g xs)(k) = new tmp;
     A(mapSeq g xs)(tmp); k(tmp) — two loops, the second reading tmp */
  IN_ORDER(c_statements("N", F, "xs", "(mapSeq " X2 " (mapSeq (lambda (x) (+ x 1.0f)) xs))"),
           "materialised mapSeq",
           "  float *restrict tmp0 = malloc(sizeof(float) * (size_t)(N));",
           "  for (int64_t i1 = 0; i1 < N; i1 += 1) {", "    tmp0[i1] = (xs[i1] + 1.0f);", "  }",
           "  for (int64_t i2 = 0; i2 < N; i2 += 1) {", "    out[i2] = (tmp0[i2] * 2.0f);", "  }",
           "  free(tmp0);");

  /* nested maps: out[i] is a row, so the inner loop writes out[i][j], flattened
     row-major to M * i + j; the input row xs[i] likewise */
  EXACT(c_statements("N M", FMN, "xs", "(mapGlb (mapSeq " X2 ") xs)"),
        "  for (int64_t gid0 = 0; gid0 < N; gid0 += 1) {\n"
        "    for (int64_t i1 = 0; i1 < M; i1 += 1) {\n"
        "      out[M * gid0 + i1] = (xs[M * gid0 + i1] * 2.0f);\n"
        "    }\n"
        "  }\n", "nested maps");
}

static void test_reductions(void) {
  /* reduceSeq: new acc (private); acc := init; for j: acc := f acc x[j];
     then out[0] := acc ([float]1) */
  EXACT(c_statements("N", F, "xs", "(reduceSeq 0.0f + xs)"),
        "  float acc0;\n"
        "  acc0 = 0.0f;\n"
        "  for (int64_t i1 = 0; i1 < N; i1 += 1) {\n"
        "    acc0 = (acc0 + xs[i1]);\n"
        "  }\n"
        "  out[0] = acc0;\n", "reduceSeq");

  /* scanSeq: the same accumulation, every step written to out[j] */
  EXACT(c_statements("N", F, "xs", "(scanSeq 0.0f + xs)"),
        "  float acc0;\n"
        "  acc0 = 0.0f;\n"
        "  for (int64_t i1 = 0; i1 < N; i1 += 1) {\n"
        "    acc0 = (acc0 + xs[i1]);\n"
        "    out[i1] = acc0;\n"
        "  }\n", "scanSeq");

  /* a reduction per row inside mapGlb: a private `new` stays where it is
     created (SPEC §5: not hoisted), so acc is declared inside the parallel loop */
  EXACT(c_statements("N M", FMN, "xs", "(mapGlb (lambda (row) (reduceSeq 0.0f + row)) xs)"),
        "  for (int64_t gid0 = 0; gid0 < N; gid0 += 1) {\n"
        "    float acc1;\n"
        "    acc1 = 0.0f;\n"
        "    for (int64_t i2 = 0; i2 < M; i2 += 1) {\n"
        "      acc1 = (acc1 + xs[M * gid0 + i2]);\n"
        "    }\n"
        "    out[gid0] = acc1;\n"
        "  }\n", "reduceSeq per row");
}

static void test_layout(void) {
  /* zip is a view: element i of (zip xs ys) is the pair (xs[i], ys[i]), and
     get1/get2 pick a component without a copy */
  EXACT(c_statements("N", F " " F, "xs ys", "(mapSeq (lambda (p) (* (get1 p) (get2 p))) (zip xs ys))"),
        "  for (int64_t i0 = 0; i0 < N; i0 += 1) {\n"
        "    out[i0] = (xs[i0] * ys[i0]);\n"
        "  }\n", "zip view");

  /* a tuple written into an array of tuples: A(tuple a b)(out[i]) =
     A(a)(out[i].f0); A(b)(out[i].f1) */
  EXACT(c_statements("N", F " " F, "xs ys", "(mapSeq (lambda (p) (tuple (get2 p) (get1 p))) (zip xs ys))"),
        "  for (int64_t i0 = 0; i0 < N; i0 += 1) {\n"
        "    out[i0].f0 = ys[i0];\n"
        "    out[i0].f1 = xs[i0];\n"
        "  }\n", "tuple acceptor");

  /* split view: (split #4 xs)[r][c] = xs[4r + c]; join acceptor: out[r][c] is
     out[4r + c]; the loops run over N / 4 rows and 4 columns */
  EXACT(c_statements("N", F, "xs", "(join (mapGlb (mapSeq " X2 ") (split #4 xs)))"),
        "  for (int64_t gid0 = 0; gid0 < N / 4; gid0 += 1) {\n"
        "    for (int64_t i1 = 0; i1 < 4; i1 += 1) {\n"
        "      out[gid0 * 4 + i1] = (xs[gid0 * 4 + i1] * 2.0f);\n"
        "    }\n"
        "  }\n", "split/join");

  /* stage III: the join view reads xs[(i / 4) * 4 + i % 4]; with i in
     [0, 4N) that simplifies to xs[i] (SPEC §5: / and % vanish) */
  EXACT(c_statements("N", FN4, "xs", "(mapSeq id (join (split #4 xs)))"),
        "  for (int64_t i0 = 0; i0 < N * 4; i0 += 1) {\n"
        "    out[i0] = xs[i0];\n"
        "  }\n", "join of split simplified");

  /* transpose view: (transpose xs)[r][c] = xs[c][r] = xs[M * c + r], rows run
     over M and columns over N; out is [[float]N]M: out[N * r + c] */
  EXACT(c_statements("N M", FMN, "xs", "(mapGlb (mapSeq id) (transpose xs))"),
        "  for (int64_t gid0 = 0; gid0 < M; gid0 += 1) {\n"
        "    for (int64_t i1 = 0; i1 < N; i1 += 1) {\n"
        "      out[N * gid0 + i1] = xs[M * i1 + gid0];\n"
        "    }\n"
        "  }\n", "transpose view");

  /* transpose acceptor: A(transpose e)(out) writes e's [r][c] into out[c][r] */
  EXACT(c_statements("N M", FMN, "xs", "(transpose (mapGlb (mapSeq " X2 ") xs))"),
        "  for (int64_t gid0 = 0; gid0 < N; gid0 += 1) {\n"
        "    for (int64_t i1 = 0; i1 < M; i1 += 1) {\n"
        "      out[N * i1 + gid0] = (xs[M * gid0 + i1] * 2.0f);\n"
        "    }\n"
        "  }\n", "transpose acceptor");

  /* pad (clamp): element i of (pad #1 #1 xs) is xs[clamp(i - 1, 0, N - 1)],
     printed min(N - 1, max(1, i) - 1); the length is N + 2 */
  EXACT(c_statements("N", F, "xs", "(mapSeq id (pad #1 #1 xs))"),
        "  for (int64_t i0 = 0; i0 < N + 2; i0 += 1) {\n"
        "    out[i0] = xs[min(N - 1, max(1, i0) - 1)];\n"
        "  }\n", "pad view");

  /* slide view: window g, element j is x[g + j]; padConstant view: x[k] is the
     constant outside [1, N + 1), xs[k - 1] inside */
  EXACT(c_statements("N", F, "xs", "(mapGlb (lambda (w) (reduceSeq 0.0f + w)) (slide #3 #1 (padConstant #1 #1 0.0f xs)))"),
        "  for (int64_t gid0 = 0; gid0 < N; gid0 += 1) {\n"
        "    float acc1;\n"
        "    acc1 = 0.0f;\n"
        "    for (int64_t i2 = 0; i2 < 3; i2 += 1) {\n"
        "      acc1 = (acc1 + (((gid0 + i2 < 1) | !(gid0 + i2 < N + 1)) ? 0.0f : xs[max(1, gid0 + i2) - 1]));\n"
        "    }\n"
        "    out[gid0] = acc1;\n"
        "  }\n", "slide of padConstant");

  /* padConstant acceptor: the borders get the constant, the interior is an
     offset acceptor (out[i + 1]) */
  EXACT(c_statements("N", F, "xs", "(padConstant #1 #1 0.0f (mapGlb " X2 " xs))"),
        "  out[0] = 0.0f;\n"
        "  out[N + 1] = 0.0f;\n"
        "  for (int64_t gid0 = 0; gid0 < N; gid0 += 1) {\n"
        "    out[gid0 + 1] = (xs[gid0] * 2.0f);\n"
        "  }\n", "padConstant acceptor");

  /* asVector view and asScalar acceptor: element i is the 4 floats from 4i,
     read and written as one vector */
  EXACT(c_statements("N", FN4, "xs", "(asScalar (mapGlb (lambda (v) (* v 2.0f)) (asVector #4 xs)))"),
        "  for (int64_t gid0 = 0; gid0 < N; gid0 += 1) {\n"
        "    (*(clift_float4u *)&out[gid0 * 4]) = ((*(clift_float4u *)&xs[gid0 * 4]) * 2.0f);\n"
        "  }\n", "asVector/asScalar");
  IN_ORDER(cl_kernels("N", FN4, "xs", "(asScalar (mapGlb (lambda (v) (* v 2.0f)) (asVector #4 xs)))"),
           "asVector on opencl: one aligned float4 access each (the index a multiple of 4)",
           "  for (clift_index gid0 = get_global_id(0); gid0 < N; gid0 += get_global_size(0)) {",
           "    *(__global float4 *)&out[gid0 * 4] = ((*(__global const float4 *)&xs[gid0 * 4]) * 2.0f);");
}

static void test_staging_and_iterate(void) {
  /* a reduceSeq over rows into a join acceptor of [float]1 rows: tmp[i * 1 + 0]
     is tmp[i]; the mapSeq over the result materialises it (N / 2 floats) */
  IN_ORDER(c_statements("N", F, "xs", "(mapSeq " X2 " (join (mapSeq (reduceSeq 0.0f +) (split #2 xs))))"),
           "reduceSeq rows then mapSeq",
           "  float *restrict tmp0 = malloc(sizeof(float) * (size_t)(N / 2));",
           "  for (int64_t i1 = 0; i1 < N / 2; i1 += 1) {", "    float acc2;",
           "      acc2 = (acc2 + xs[i1 * 2 + i3]);", "    tmp0[i1] = acc2;", "  }",
           "  for (int64_t i4 = 0; i4 < N / 2; i4 += 1) {", "    out[i4] = (tmp0[i4] * 2.0f);");

  /* toLocal inside mapWrg: the local `new` is hoisted out of the work-group
     loop (SPEC §5), its size multiplied by the N / 4 iterations, each indexing
     its own slice wid * 4 + lid; the mapLcl reads it back */
  const char *wl = "(join (mapWrg (lambda (row) (mapLcl " X2 " (toLocal (mapLcl id) row))) (split #4 xs)))";
  const char *c = c_statements("N", F, "xs", wl);
  IN_ORDER(c, "toLocal in mapWrg (c)",
           "  float *restrict loc1 = malloc(sizeof(float) * (size_t)((N / 4) * 4));",
           "  for (int64_t wid0 = 0; wid0 < N / 4; wid0 += 1) {",
           "    for (int64_t lid2 = 0; lid2 < 4; lid2 += 1) {", "      loc1[wid0 * 4 + lid2] = xs[wid0 * 4 + lid2];",
           "    }",
           "    for (int64_t lid3 = 0; lid3 < 4; lid3 += 1) {", "      out[wid0 * 4 + lid3] = (loc1[wid0 * 4 + lid3] * 2.0f);");
  /* on the device a local buffer is per work-group: the plan drops the
     work-group index (dpia/plan.h), leaving loc[lid] */
  EXACT(cl_kernels("N", F, "xs", wl),
        "/* k0: parallel */\n"
        "__kernel void k0(__global float *restrict out, __global const float *restrict xs, const long N_arg, "
        "__global int *clift_error) {\n"
        "  const clift_index N = (clift_index)N_arg;\n"
        "  __local float loc1[4] __attribute__((aligned(16)));\n"
        "  for (clift_index wid0 = get_group_id(0); wid0 < N / 4; wid0 += get_num_groups(0)) {\n"
        "    for (clift_index lid2 = get_local_id(0); lid2 < 4; lid2 += get_local_size(0)) {\n"
        "      loc1[lid2] = xs[wid0 * 4 + lid2];\n"
        "    }\n"
        "    for (clift_index lid3 = get_local_id(0); lid3 < 4; lid3 += get_local_size(0)) {\n"
        "      out[wid0 * 4 + lid3] = (loc1[lid3] * 2.0f);\n"
        "    }\n"
        "  }\n"
        "}\n", "toLocal in mapWrg (opencl)");

  /* iterate #k f xs (SPEC §4.1) is a loop over two buffers: the halves of one
     temporary [T]2; xs copied into half 0, step i reads half i % 2 and writes
     half (i + 1) % 2, half k % 2 copied out. One copy of f whatever k; at the
     top of the program the copies are parallel (the default strategy). */
  const char *it = c_statements("N", F, "xs", "(iterate #3 (mapSeq " X2 ") xs)");
  IN_ORDER(it, "iterate #3",
           "  float *restrict tmp0 = malloc(sizeof(float) * (size_t)(N * 2));",
           "    tmp0[gid1] = xs[gid1];",
           "  for (int64_t i2 = 0; i2 < 3; i2 += 1) {",
           "      tmp0[N * ((i2 + 1) % 2) + i3] = (tmp0[N * (i2 % 2) + i3] * 2.0f);",
           "    out[gid4] = tmp0[N + gid4];");
  CHECK(count(it, "for (") == 4 && count(it, "malloc(") == 1 && count(it, "* 2.0f") == 1,
        "iterate #3: copy in, loop, f once, copy out, one temporary:\n%s", it);
  /* iterate #4: the same code but for the count and the half copied out */
  it = c_statements("N", F, "xs", "(iterate #4 (mapSeq " X2 ") xs)");
  IN_ORDER(it, "iterate #4",
           "    tmp0[gid1] = xs[gid1];", "  for (int64_t i2 = 0; i2 < 4; i2 += 1) {",
           "      tmp0[N * ((i2 + 1) % 2) + i3] = (tmp0[N * (i2 % 2) + i3] * 2.0f);",
           "    out[gid4] = tmp0[gid4];");
  CHECK(count(it, "for (") == 4 && count(it, "malloc(") == 1, "iterate #4: 4 loops, 1 temporary:\n%s", it);
  /* iterate #1000: code size independent of the count */
  const char *big = c_statements("N", F, "xs", "(iterate #1000 (mapSeq " X2 ") xs)");
  CHECK(count(big, "for (") == 4 && strlen(big) < strlen(it) + 8, "iterate #1000: the same size as #4:\n%s", big);
}

/* whileSeq p f init (SPEC §4.2): the state in private variables (a tuple: one
   per field), one KS_WHILE: `while (c) { f }`, or, when computing c takes
   commands, `while (true) { …; if (!c) break; f }`. A scalar state is updated
   in place; a tuple's new fields go through temporaries first (gcd: the new
   first field is the old second). At the top of a device program the loop
   runs in a kernel of one work-item; a parallel map inside it is refused
   there, at the whileSeq. */
static void test_while(void) {
  const char *doubling = "(whileSeq (lambda (x) (< x 100)) (lambda (x) (* x 2)) n)";
  EXACT(c_statements("", "int", "n", doubling),
        "  int32_t acc0;\n"
        "  acc0 = n;\n"
        "  while (acc0 < 100) {\n"
        "    acc0 = (int32_t)((uint32_t)(acc0) * (uint32_t)(2));\n"   /* ints wrap (F59) */
        "  }\n"
        "  out[0] = acc0;\n", "whileSeq, scalar state");
  EXACT(c_statements("", "int int", "a b",
                     "(whileSeq (lambda (s) (!= (get2 s) 0)) (lambda (s) (tuple (get2 s) (% (get1 s) (get2 s)))) (tuple a b))"),
        "  int32_t acc0;\n"
        "  int32_t acc1;\n"
        "  acc0 = a;\n"
        "  acc1 = b;\n"
        "  while (acc1 != 0) {\n"
        "    int32_t acc2;\n"
        "    int32_t acc3;\n"
        "    acc2 = acc1;\n"
        "    acc3 = clift_mod_i32(acc0, acc1, 1);\n"
        "    acc0 = acc2;\n"
        "    acc1 = acc3;\n"
        "  }\n"
        "  out[0].f0 = acc0;\n"
        "  out[0].f1 = acc1;\n", "whileSeq, tuple state (gcd)");
  IN_ORDER(c_statements("N", "(array-type int N)", "xs",
                        "(whileSeq (lambda (k) (< (aref (reduceSeq 0 + (mapSeq (* k) xs)) 0) 100)) (+ 1) 0)"),
           "whileSeq, a reduction in the predicate",
           "  acc0 = 0;", "  while (true) {", "      tmp1[i2] = (int32_t)((uint32_t)(acc0) * (uint32_t)(xs[i2]));", "    acc3 = 0;",
           "      acc3 = (int32_t)((uint32_t)(acc3) + (uint32_t)(tmp1[i4]));", "    if (!(acc3 < 100)) break;",
           "    acc0 = (int32_t)((uint32_t)(1) + (uint32_t)(acc0));", "  }",
           "  out[0] = acc0;");
  EXACT(cl_kernels("", "int", "n", doubling),
        "/* k0: one work-item */\n"
        "__kernel void k0(__global int *restrict out, const int n, __global int *clift_error) {\n"
        "  int acc0;\n"
        "  acc0 = n;\n"
        "  while (acc0 < 100) {\n"
        "    acc0 = as_int((uint)(acc0) * (uint)(2));\n"
        "  }\n"
        "  out[0] = acc0;\n"
        "}\n", "whileSeq at the top (opencl)");
  const char *glb = cl_kernels("N", F, "xs",
                               "(whileSeq (lambda (a) (< a 100.0f)) (lambda (a) (aref (reduceSeq 0.0f + (mapGlb (* a) xs)) 0)) 1.0f)");
  const char *r = diag_render();
  CHECK(strstr(glb, "(no kernel: a parallel map (mapGlb, mapWrg, mapLcl) inside whileSeq") && diag_kind() == DIAG_UNSUPPORTED &&
        strncmp(r, "t.lift:3:5: error: ", 19) == 0, "a mapGlb inside whileSeq on the device: %s / %s", glb, r);
}

int main(void) {
  test_maps();
  test_reductions();
  test_layout();
  test_staging_and_iterate();
  test_while();
  return CHECK_DONE("dpia");
}
