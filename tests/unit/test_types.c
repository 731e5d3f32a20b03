/* test_types.c — the type checker's rules (SPEC §3.3, §4, the nesting rule of
   §4.2, errors of §7), through the library calls `clift check` makes:
   driver_compile_text, then driver_program_type for a well-typed program, the
   first diagnostic (message and file:line:col) for an ill-typed one.

   Every program is the same frame around one body, so positions read off the
   body: the body is line 3 and starts at column 5; a refusal names the
   substring of the body whose first character the error points at. */
#include "check.h"
#include "cli/driver.h"
#include <string.h>

static const char *frame(const char *sizes, const char *types, const char *params, const char *body) {
  return arena_printf("(lift (%s) (%s)\n  (lambda (%s)\n    %s))\n", sizes, types, params, body);
}

/* a well-typed program prints `expected` (clift check's line) and leaves no diagnostic */
static void typed(int line, const char *sizes, const char *types, const char *params, const char *body,
                  const char *expected) {
  diag_reset();
  Program *p = driver_compile_text("t.lift", frame(sizes, types, params, body));
  const char *got = p ? driver_program_type(p) : diag_render();
  bool ok = p && !diag_has_error() && strcmp(got, expected) == 0;
  CHECK(ok, "line %d: %s\n  expected: %s\n  got:      %s", line, body, expected, got);
}

/* an ill-typed program is refused with a message containing `part`, at line 3,
   the column of the first character of `at` in the body */
static void refused(int line, const char *sizes, const char *types, const char *params, const char *body,
                    const char *part, const char *at) {
  diag_reset();
  Program *p = driver_compile_text("t.lift", frame(sizes, types, params, body));
  const char *where = strstr(body, at);
  const char *head = arena_printf("t.lift:3:%d: error: ", where ? 5 + (int)(where - body) : -1);
  const char *r = diag_render();
  bool ok = !p && where && strncmp(r, head, strlen(head)) == 0 && strstr(diag_message(), part);
  CHECK(ok, "line %d: %s\n  expected: %s…%s…\n  got:      %s", line, body, head, part, p ? driver_program_type(p) : r);
}

#define TYPED(...) typed(__LINE__, __VA_ARGS__)
#define REFUSED(...) refused(__LINE__, __VA_ARGS__)

#define F "(array-type float N)"
#define FN4 "(array-type float (* 4 N))"
#define FMN "(array-type (array-type float M) N)"
#define F4N "(array-type (array-type float 4) N)"
#define FI F " (array-type int N)"
#define X2 "(lambda (x) (* x 2.0f))"

/* maps at each level: (T1->T2) -> [T1]n -> [T2]n; the function's parameter
   gets the element type */
static void test_maps(void) {
  TYPED("N", F, "xs", "(map " X2 " xs)", "(N) [float]N -> [float]N");
  TYPED("N", F, "xs", "(mapSeq " X2 " xs)", "(N) [float]N -> [float]N");
  TYPED("N", F, "xs", "(mapGlb " X2 " xs)", "(N) [float]N -> [float]N");
  TYPED("N", F, "xs", "(mapGlb1 " X2 " xs)", "(N) [float]N -> [float]N");
  TYPED("N", F, "xs", "(mapSeq (lambda (x) (< x 2.0f)) xs)", "(N) [float]N -> [bool]N");
  TYPED("N", F, "xs", "(mapWrg (mapLcl " X2 ") (split #4 xs))", "(N) [float]N -> [[float]4](N / 4)");
  /* the element of a nested array is a row: its map sees [float]M */
  TYPED("N M", FMN, "xs", "(mapGlb (lambda (row) (reduceSeq 0.0f + row)) xs)", "(N M) [[float]M]N -> [[float]1]N");
  /* the to… wrappers are identities on types */
  TYPED("N", F4N, "xs", "(mapGlb (toLocal (mapSeq id)) xs)", "(N) [[float]4]N -> [[float]4]N");
  TYPED("N", F4N, "xs", "(mapGlb (toPrivate (mapSeq id)) xs)", "(N) [[float]4]N -> [[float]4]N");
  REFUSED("N", F, "xs", "(mapSeq (lambda (x) (+ x 1)) xs)", "'+' cannot combine float and int", "(+ x 1)");
  REFUSED("N", F, "xs", "(mapSeq 1.0f xs)", "expected a function of 1 argument here, found a value", "1.0f");
  REFUSED("N", F, "xs", "(mapSeq (lambda (x y) (+ x y)) xs)", "expected a function of 1 argument here, found one of 2",
          "(lambda");
  REFUSED("N", F, "xs", "(foo xs)", "unknown function 'foo'", "foo");
  REFUSED("N", F, "xs", "(mapSeq (lambda (x) (+ x y)) xs)", "unknown identifier 'y'", "y)");
}

/* SPEC §4.2 nesting, per dimension: mapLcl_d only directly inside one mapWrg_d;
   no mapGlb_d/mapWrg_d inside a parallel map of dimension d; sequential
   patterns anywhere; a map in another map's array argument is not inside it.
   The error points at the inner map. */
static void test_nesting(void) {
  const char *glb = "invalid nesting (SPEC §4.2): mapGlb inside mapGlb of the same dimension 0";
  REFUSED("N", F, "xs", "(mapGlb (mapGlb " X2 ") (split #4 xs))", glb, "(mapGlb " X2);
  /* at any depth: through a sequential map */
  REFUSED("N", F, "xs", "(mapGlb (mapSeq (mapGlb " X2 ")) (split #2 (split #4 xs)))", glb, "(mapGlb " X2);
  REFUSED("N", F, "xs", "(mapWrg (mapWrg " X2 ") (split #4 xs))", "mapWrg inside mapWrg of the same dimension 0",
          "(mapWrg " X2);
  REFUSED("N", F, "xs", "(mapWrg (mapGlb " X2 ") (split #4 xs))", "mapGlb inside mapWrg of the same dimension 0",
          "(mapGlb");
  REFUSED("N M", FMN, "xs", "(mapGlb1 (mapGlb1 " X2 ") xs)", "mapGlb1 inside mapGlb1 of the same dimension 1",
          "(mapGlb1 " X2);
  REFUSED("N", F, "xs", "(mapLcl " X2 " xs)", "mapLcl (dimension 0) outside any mapWrg", "(mapLcl");
  REFUSED("N", F, "xs", "(mapWrg (mapLcl1 " X2 ") (split #4 xs))", "mapLcl1 (dimension 1) outside any mapWrg",
          "(mapLcl1");
  REFUSED("N", F, "xs", "(mapGlb (mapLcl " X2 ") (split #4 xs))",
          "mapLcl inside mapGlb of the same dimension 0; a mapLcl belongs directly inside one mapWrg", "(mapLcl");
  REFUSED("N", F, "xs", "(mapWrg (mapLcl (mapLcl " X2 ")) (split #2 (split #4 xs)))",
          "mapLcl inside mapLcl of the same dimension 0", "(mapLcl " X2);
  /* the same refusal from inside a lambda body, a `let` and a to… wrapper */
  REFUSED("N", F, "xs", "(mapGlb (lambda (r) (let s (mapSeq id r) (mapGlb id s))) (split #4 xs))", glb, "(mapGlb id");
  REFUSED("N", F4N, "xs", "(mapGlb (toLocal (mapGlb id)) xs)", glb, "(mapGlb id");
  /* accepted */
  TYPED("N M", FMN, "xs", "(mapGlb1 (mapGlb " X2 ") xs)", "(N M) [[float]M]N -> [[float]M]N");
  TYPED("N", F, "xs", "(mapSeq (mapGlb " X2 ") (split #4 xs))", "(N) [float]N -> [[float]4](N / 4)");
  TYPED("N", F, "xs", "(mapGlb " X2 " (mapGlb " X2 " xs))", "(N) [float]N -> [float]N");
  TYPED("N", F4N, "xs", "(mapWrg (lambda (row) (mapLcl id (mapLcl id row))) xs)", "(N) [[float]4]N -> [[float]4]N");
  TYPED("N M", FMN, "xs", "(mapWrg1 (mapWrg (mapLcl (mapLcl1 " X2 "))) (split #4 (mapSeq (split #4) xs)))",
        "(N M) [[float]M]N -> [[[[float]4](M / 4)]4](N / 4)");
}

/* reduce: T2 -> (T2->T1->T2) -> [T1]n -> [T2]1; scan: … -> [T2]n */
static void test_reduce_scan(void) {
  TYPED("N", F, "xs", "(reduceSeq 0.0f + xs)", "(N) [float]N -> [float]1");
  TYPED("N", F, "xs", "(reduce 0.0f + xs)", "(N) [float]N -> [float]1");
  TYPED("N", F, "xs", "(reduceSeq (tuple 0.0f 0) (lambda (a x) (tuple (+ (get1 a) x) (+ (get2 a) 1))) xs)",
        "(N) [float]N -> [(float x int)]1");
  TYPED("N", F, "xs", "(scan 0.0f + xs)", "(N) [float]N -> [float]N");
  TYPED("N", F, "xs", "(scanSeq 0.0f max xs)", "(N) [float]N -> [float]N");
  /* the accumulator's type comes from init: `+` meets int and float */
  REFUSED("N", F, "xs", "(reduceSeq 0 + xs)", "'+' cannot combine int and float", "+ xs");
  REFUSED("N", F, "xs", "(scanSeq 0 + xs)", "'+' cannot combine int and float", "+ xs");
  REFUSED("N", F, "xs", "(reduceSeq 0.0f (lambda (a x) (< a x)) xs)",
          "'reduceSeq': the function returns bool but the accumulator (initial value) is float", "(lambda");
}

/* iterate #k: f : [T]n -> [T]n, the result [T]n */
static void test_iterate(void) {
  TYPED("N", F, "xs", "(iterate #3 (mapSeq " X2 ") xs)", "(N) [float]N -> [float]N");
  TYPED("N", F4N, "xs", "(iterate #2 (mapGlb (mapSeq id)) xs)", "(N) [[float]4]N -> [[float]4]N");
  /* join . split #2 has length (N/2)*2, which is not N for odd N */
  REFUSED("N", F, "xs", "(iterate #3 (o join (split #2)) xs)",
          "'iterate' needs a function from a type to itself, found [float]N -> [float]((N / 2) * 2)", "(o join");
  REFUSED("N", F, "xs", "(iterate #3 (o join (mapSeq (reduceSeq 0.0f +)) (split #2)) xs)",
          "found [float]N -> [float](N / 2)", "(o join");
  /* a count known at run time (SPEC §4.1): any int expression, nothing else */
  TYPED("N", F " int", "xs n", "(iterate (* n 2) (mapSeq " X2 ") xs)", "(N) [float]N -> int -> [float]N");
  REFUSED("N", F " float", "xs k", "(iterate k (mapSeq " X2 ") xs)",
          "'iterate' expects a count: a size literal (#4, #N) or an int, found float", "k (mapSeq");
}

/* whileSeq p f init: (T -> bool) -> (T -> T) -> T -> T, T scalars or a tuple
   of them; partial application like any primitive */
static void test_while(void) {
  TYPED("", "int", "n", "(whileSeq (lambda (x) (< x 100)) (lambda (x) (* x 2)) n)", "() int -> int");
  TYPED("", "int", "n", "(whileSeq (lambda (s) (> (get1 s) 1L)) (lambda (s) (tuple (/ (get1 s) 2L) (+ (get2 s) 1))) (tuple (i2l n) 0))",
        "() int -> (long x int)");
  TYPED("", "float", "x", "(get2 (whileSeq (o not get1) (lambda (s) (tuple true (get2 s))) (tuple false (tuple x 1.0))))",
        "() float -> (float x double)");
  TYPED("N", F, "xs", "(mapGlb (whileSeq (lambda (x) (< x 1.0f)) (* 2.0f)) xs)", "(N) [float]N -> [float]N");
  TYPED("N", F, "xs", "(mapGlb (whileSeq (> 1.0f) (+ 0.5f)) xs)", "(N) [float]N -> [float]N");
  REFUSED("N", F, "xs", "(whileSeq (lambda (ys) true) (mapSeq id) xs)",
          "'whileSeq': the state must be a scalar or a tuple of scalars, found [float]N", "xs)");
  REFUSED("N", F, "xs", "(whileSeq (lambda (s) true) id (tuple 1 xs))",
          "the state must be a scalar or a tuple of scalars, found (int x [float]N)", "(tuple 1");
  REFUSED("", "(vector-type float 4)", "v", "(whileSeq (lambda (s) true) id v)",
          "the state must be a scalar or a tuple of scalars, found float4", "v)");
  REFUSED("", "int", "n", "(whileSeq (lambda (x) x) (lambda (x) (+ x 1)) n)",
          "'whileSeq': the predicate must return bool, found int", "(lambda (x) x)");
  REFUSED("", "int", "n", "(whileSeq (lambda (x) (< x 9)) (lambda (x) (i2f x)) n)",
          "'whileSeq': the function returns float but the state (initial value) is int", "(lambda (x) (i2f");
  REFUSED("", "int", "n", "(whileSeq (lambda (x y) (< x y)) (lambda (x) x) n)", "expected a function of 1 argument", "(lambda (x y)");
  REFUSED("", "int", "n", "(whileSeq (lambda (x) (< x 9)) n)", "'whileSeq' expects 3 arguments, found 2", "(whileSeq");
}

/* zip: [T1]n -> [T2]n -> [T1 x T2]n; unzip; get1/get2/get #k; tuple */
static void test_tuples(void) {
  TYPED("N", FI, "xs ys", "(zip xs ys)", "(N) [float]N -> [int]N -> [(float x int)]N");
  TYPED("N", FI " " F, "xs ys zs", "(zip3 xs ys zs)", "(N) [float]N -> [int]N -> [float]N -> [(float x int x float)]N");
  TYPED("N", FI, "xs ys", "(unzip (zip xs ys))", "(N) [float]N -> [int]N -> ([float]N x [int]N)");
  TYPED("N", FI, "xs ys", "(mapSeq (lambda (p) (get2 p)) (zip xs ys))", "(N) [float]N -> [int]N -> [int]N");
  TYPED("N", FI, "xs ys", "(mapSeq (lambda (p) (get #1 p)) (zip xs ys))", "(N) [float]N -> [int]N -> [float]N");
  TYPED("N", FI, "xs ys", "(mapSeq (lambda (p) (tuple (get2 p) (get1 p))) (zip xs ys))",
        "(N) [float]N -> [int]N -> [(int x float)]N");
  TYPED("N", F " " F, "xs ys", "(tuple xs ys)", "(N) [float]N -> [float]N -> ([float]N x [float]N)");
  /* SPEC §7: a type error names both types */
  REFUSED("N M", F " (array-type int M)", "xs ys", "(zip xs ys)",
          "'zip' needs arrays of the same length, found [float]N and [int]M", "(zip");
  REFUSED("N", FI, "xs ys", "(mapSeq (lambda (p) (get #3 p)) (zip xs ys))",
          "'get' expects a tuple with at least 3 fields, found (float x int)", "(get");
  REFUSED("N", F, "xs", "(mapSeq (lambda (p) (get1 p)) xs)", "'get1' expects a tuple", "(get1");
  REFUSED("N", F, "xs", "(unzip xs)", "'unzip' expects an array of tuples, found [float]N", "(unzip");
}

/* split #m: [T](m*n) -> [[T]m]n (n = N/m when the length is not a product:
   divisibility is a run-time check); join; transpose */
static void test_split_join(void) {
  TYPED("N", F, "xs", "(split #4 xs)", "(N) [float]N -> [[float]4](N / 4)");
  TYPED("N", FN4, "xs", "(split #4 xs)", "(N) [float](N * 4) -> [[float]4]N");
  TYPED("N", F, "xs", "(join (split #4 xs))", "(N) [float]N -> [float]((N / 4) * 4)");
  TYPED("N", FN4, "xs", "(join (split #4 xs))", "(N) [float](N * 4) -> [float](N * 4)");
  TYPED("N M", FMN, "xs", "(join xs)", "(N M) [[float]M]N -> [float](N * M)");
  TYPED("N M", FMN, "xs", "(transpose xs)", "(N M) [[float]M]N -> [[float]N]M");
  TYPED("N M", FMN, "xs", "(transpose (transpose xs))", "(N M) [[float]M]N -> [[float]M]N");
  REFUSED("N", F, "xs", "(join xs)", "'join' expects an array of arrays, found [float]N", "xs)");
  REFUSED("N", F, "xs", "(transpose xs)", "'transpose' expects an array of arrays, found [float]N", "xs)");
  REFUSED("N", F, "xs", "(split #0 xs)", "'split' by 0", "#0");
  /* SPEC §2: (+ nat nat+), (* nat nat+): one operand was taken as the operand itself */
  REFUSED("N", F, "xs", "(split #(* 4) xs)", "size operator '*' expects at least 2 operands, found 1", "(* 4)");
  REFUSED("N", F, "xs", "(split #(+ N) xs)", "size operator '+' expects at least 2 operands, found 1", "(+ N)");
  REFUSED("N", F, "xs", "(split #(- N) xs)", "size operator '-' expects 2 operands, found 1", "(- N)");
  REFUSED("N", F, "xs", "(split #(foo N 2) xs)", "unknown size operator 'foo'", "foo");
  /* constants folded past 2^63 wrapped ("the length -2 is negative for every size") */
  REFUSED("N", F, "xs", "(split #(* 9223372036854775807 2) xs)", "the size (* …) is beyond 64 bits", "(* 9223372036854775807");
  REFUSED("N", F, "xs", "(split #(pow 3 40) xs)", "the size (pow …) is beyond 64 bits", "(pow 3 40)");
  REFUSED("N", F, "xs", "(split #(+ 9223372036854775807 1) xs)", "the size (+ …) is beyond 64 bits", "(+ 9223372036854775807");
  TYPED("N", FN4, "xs", "(split #(* 2 2 1) xs)", "(N) [float](N * 4) -> [[float]4]N");
}

/* slide #s #st: [T]n -> [[T]s]((n-s)/st+1); pad, padConstant: l+n+r; slice */
static void test_slide_pad_slice(void) {
  TYPED("N", F, "xs", "(slide #3 #1 xs)", "(N) [float]N -> [[float]3](N - 2)");
  /* (N-3)/2+1 = (N-1)/2, printed as (N+1)/2 - 1 */
  TYPED("N", F, "xs", "(slide #3 #2 xs)", "(N) [float]N -> [[float]3]((N + 1) / 2 - 1)");
  TYPED("N", F, "xs", "(pad #1 #2 xs)", "(N) [float]N -> [float](N + 3)");
  TYPED("N", F, "xs", "(padConstant #1 #2 0.0f xs)", "(N) [float]N -> [float](N + 3)");
  /* a 3-point stencil: slide of the padded array has N windows again */
  TYPED("N", F, "xs", "(slide #3 #1 (pad #1 #1 xs))", "(N) [float]N -> [[float]3]N");
  TYPED("N", F, "xs", "(slice #1 #2 xs)", "(N) [float]N -> [float]2");
  TYPED("N", F, "xs", "(slice #1 #(- N 1) xs)", "(N) [float]N -> [float](N - 1)");
  TYPED("", "(array-type float 8)", "xs", "(slice #4 #4 xs)", "() [float]8 -> [float]4");
  REFUSED("N", F, "xs", "(slide #0 #1 xs)", "'slide' needs a window of at least 1", "#0");
  REFUSED("N", F, "xs", "(slide #3 #0 xs)", "'slide' needs a step of at least 1", "#0");
  REFUSED("N", F, "xs", "(padConstant #1 #2 0 xs)", "'padConstant': the padding value is int but the elements are float",
          "0 xs");
  REFUSED("", "(array-type float 8)", "xs", "(slice #4 #8 xs)", "slice (beyond the end of the array): needs 12 <= 8",
          "(slice");
}

/* asVector #k: [S](k*n) -> [S<k>]n (k in 2, 3, 4, 8, 16); asScalar back */
static void test_vectors(void) {
  TYPED("N", F, "xs", "(asVector #4 xs)", "(N) [float]N -> [float4](N / 4)");
  TYPED("N", FN4, "xs", "(asVector #4 xs)", "(N) [float](N * 4) -> [float4]N");
  TYPED("N", FN4, "xs", "(asScalar (asVector #4 xs))", "(N) [float](N * 4) -> [float](N * 4)");
  TYPED("N", FN4, "xs", "(asVector #3 xs)", "(N) [float](N * 4) -> [float3](N + N / 3)");
  TYPED("N", "(array-type int (* 4 N))", "xs", "(asVector #4 xs)", "(N) [int](N * 4) -> [int4]N");
  TYPED("N", "(array-type (vector-type float 4) N)", "xs", "(asScalar xs)", "(N) [float4]N -> [float](N * 4)");
  /* vector arithmetic inside a map, a scalar broadcast */
  TYPED("N", FN4, "xs", "(mapSeq " X2 " (asVector #4 xs))", "(N) [float](N * 4) -> [float4]N");
  REFUSED("N", F, "xs", "(asScalar xs)", "'asScalar' expects an array of vectors, found [float]N", "(asScalar");
  REFUSED("N", F4N, "xs", "(asVector #4 xs)", "'asVector' expects an array of numbers, found [[float]4]N", "(asVector");
  REFUSED("N", FN4, "xs", "(asVector #5 xs)", "'asVector' width must be 2, 3, 4, 8 or 16", "#5");
}

/* SPEC §4.3: operators overloaded per scalar type, no implicit conversion;
   comparisons give bool; casts have fixed types; math on float/double */
static void test_scalars(void) {
  TYPED("", "float float", "x y", "(+ x y)", "() float -> float -> float");
  TYPED("", "int int", "x y", "(mod x y)", "() int -> int -> int");
  TYPED("", "long long", "x y", "(* x y)", "() long -> long -> long");
  TYPED("", "double double", "x y", "(< x y)", "() double -> double -> bool");
  TYPED("", "int int", "x y", "(=i x y)", "() int -> int -> bool");
  TYPED("", "bool bool", "x y", "(and x y)", "() bool -> bool -> bool");
  TYPED("", "int", "x", "(i2f x)", "() int -> float");
  TYPED("", "float", "x", "(f2d x)", "() float -> double");
  TYPED("", "double", "x", "(d2i x)", "() double -> int");
  TYPED("", "int", "x", "(i2l x)", "() int -> long");
  /* long literals: 5L, -5L; no implicit widening of an int literal */
  TYPED("", "long", "x", "(+ x 5L)", "() long -> long");
  TYPED("", "int", "x", "(l2i (* -3000000000L (i2l x)))", "() int -> int");
  REFUSED("", "long", "x", "(+ x 5)", "'+' cannot combine long and int", "(+");
  REFUSED("", "long", "x", "(+ x 9223372036854775808L)", "long literal 9223372036854775808L does not fit in a long", "9223");
  TYPED("", "float", "x", "(sqrt x)", "() float -> float");
  TYPED("", "float float", "x y", "(pow x y)", "() float -> float -> float");
  TYPED("", "float bool", "x b", "(if b x 1.0f)", "() float -> bool -> float");
  TYPED("", "(vector-type float 4)", "v", "(* v 3.0f)", "() float4 -> float4");
  TYPED("", "(vector-type float 4) (vector-type float 4)", "v w", "(+ v w)", "() float4 -> float4 -> float4");
  REFUSED("", "int float", "x y", "(+ x y)", "'+' cannot combine int and float (no implicit conversion", "(+");
  REFUSED("", "float float", "x y", "(+i x y)", "'+i' cannot combine float and float", "(+i");
  REFUSED("", "(vector-type float 4)", "v", "(* v 3)", "'*' cannot combine float4 and int", "(*");
  REFUSED("", "int int", "x y", "(and x y)", "'and' expects bool operands, found int and int", "(and");
  REFUSED("", "float", "x", "(not x)", "'not' expects bool operands, found float", "(not");
  REFUSED("", "float", "x", "(i2f x)", "'i2f' expects int, found float", "(i2f");
  REFUSED("", "int", "x", "(sqrt x)", "'sqrt' expects float or double (use i2f to convert), found int", "(sqrt");
  REFUSED("", "float bool", "x b", "(if b x 1)", "the branches of 'if' have different types: float and int", "(if");
  REFUSED("", "float int", "x b", "(if b x 1.0f)", "the condition of 'if' must be bool, found int", "b x");
}

/* aref: [T]n -> int -> T; length/getLength: [T]n -> int; iota #n: [int]n */
static void test_aref_length_iota(void) {
  TYPED("N", F " int", "xs i", "(aref xs i)", "(N) [float]N -> int -> float");
  TYPED("N", F, "xs", "(length xs)", "(N) [float]N -> int");
  TYPED("N", F, "xs", "(getLength xs)", "(N) [float]N -> int");
  TYPED("", "", "", "(iota #8)", "() [int]8");
  TYPED("N", F, "xs", "(iota #(+ N 1))", "(N) [float]N -> [int](N + 1)");
  TYPED("N", F, "xs", "(mapSeq (lambda (i) (aref xs i)) (iota #N))", "(N) [float]N -> [float]N");
  TYPED("N", F, "xs", "(mapSeq (lambda (i) (* (i2f i) 2.0f)) (iota #N))", "(N) [float]N -> [float]N");
  REFUSED("N", F " float", "xs i", "(aref xs i)", "'aref' expects an int index, found float", "i)");
  REFUSED("", "float int", "xs i", "(aref xs i)", "'aref' expects an array here, found float", "xs i");
  REFUSED("", "float", "xs", "(length xs)", "'length' expects an array here, found float", "xs)");
}

/* SPEC §2: a size variable is bound from an input's length; one that is no
   input's length is refused at its declaration (line 1, column 8: `N` of `(N)`) */
static void test_size_variables(void) {
  diag_reset();
  Program *p = driver_compile_text("t.lift", frame("N", "float int", "xs i", "(aref xs i)"));
  const char *r = diag_render();
  CHECK(!p && strncmp(r, "t.lift:1:8: error: the size variable N is not the length of any input", 69) == 0,
        "unbound size variable: %s", r);
}

/* Position-dependent arrays (SPEC §3.5): getLength in sizes, partition with
   nat-fn and case-split, the layouts that keep or refuse the position. */
#define TRI "(dep-array-type (i) (array-type float (+ i 1)) N)"
#define UPPER "(dep-array-type (i) (array-type float (- N i)) N)"
#define DOT "(reduceSeq 0.0f (lambda (a p) (+ a (* (get1 p) (get2 p)))))"
static void test_position_dependent(void) {
  /* seed 002's Listings 4 and 5, written as SPEC §3.5 shows them */
  TYPED("N", TRI " " F, "m v", "(map (lambda (row) (" DOT " (zip row (slice #0 #(getLength row) v)))) m)",
        "(N) [i -> [float](i + 1)]N -> [float]N -> [[float]1]N");
  TYPED("N", TRI " " F, "m v", "(mapWrg (lambda (row) (zip (padConstant #0 #(- N (getLength row)) 0.0f row) v)) m)",
        "(N) [i -> [float](i + 1)]N -> [float]N -> [[(float x float)]N]N");
  /* getLength of the row in a reduce over the rows, and as a value */
  TYPED("N", TRI " " F, "m v", "(reduceSeq 0.0f (lambda (a row) (+ a (aref (slice #0 #(getLength row) v) 0))) m)",
        "(N) [i -> [float](i + 1)]N -> [float]N -> [float]1");
  TYPED("N", TRI, "m", "(map (lambda (row) #(getLength row)) m)", "(N) [i -> [float](i + 1)]N -> [int]N");
  TYPED("N", TRI, "m", "(map (lambda (row) (iota #(getLength row))) m)", "(N) [i -> [float](i + 1)]N -> [i -> [int](i + 1)]N");
  REFUSED("N", TRI, "m", "(map (lambda (row) (iota #(getLength rows))) m)", "getLength: unknown variable 'rows'", "rows");
  REFUSED("N", TRI " float", "m x", "(map (lambda (row) (iota #(getLength x))) m)", "getLength: 'x' is not an array, it is float", "x)))");
  diag_reset();
  Program *p = driver_compile_text("t.lift", frame("N", "(array-type float (getLength xs))", "xs", "xs"));
  CHECK(!p && strstr(diag_message(), "may only appear in a size literal"), "getLength in the header: %s", diag_render());
  /* upper triangles */
  TYPED("N", UPPER, "m", "(join m)", "(N) [i -> [float](N - i)]N -> [float]((N + 1) * N / 2)");
  TYPED("N", UPPER " " F, "m v", "(map (lambda (row) (" DOT " (zip row (slice #(- N (getLength row)) #(getLength row) v)))) m)",
        "(N) [i -> [float](N - i)]N -> [float]N -> [[float]1]N");
  /* partition */
  TYPED("N", F, "xs", "(partition #3 (case-split 1 (- N 2) 1) xs)",
        "(N) [float]N -> [k -> [float](k < 1 ? 1 : (k < 2 ? N - 2 : 1))]3");
  TYPED("N", F, "xs", "(join (partition #3 (case-split 1 (- N 2) 1) xs))", "(N) [float]N -> [float]N");
  TYPED("", "(array-type float 10)", "xs", "(partition #4 (nat-fn (i) (+ i 1)) xs)",
        "() [float]10 -> [i -> [float](i + 1)]4");
  TYPED("N", "(array-type float (/ (* N (+ N 1)) 2))", "xs", "(join (partition #N (nat-fn (i) (+ i 1)) xs))",
        "(N) [float]((N + 1) * N / 2) -> [float]((N + 1) * N / 2)");
  REFUSED("N", F, "xs", "(partition #3 (case-split 1 (- N 3) 1) xs)",
          "'partition': the parts add up to (+ N -1), but the array has N elements", "(partition");
  REFUSED("N", F, "xs", "(partition #2 (case-split 1 (- N 2) 1) xs)", "the case split has 3 parts, but #2", "#2");
  REFUSED("N", F, "xs", "(partition #3 #N xs)", "'partition' expects a nat function here", "#N xs");
  REFUSED("N", F, "xs", "(split (nat-fn (i) 2) xs)", "found a nat function (only partition takes one)", "(nat-fn");
  REFUSED("N", F, "xs", "(partition #3 (case-split 1 (- N 2)) xs)", "the case split has 2 parts", "#3");
  /* layouts over ragged arrays keep the position, or refuse clearly */
  TYPED("N", TRI, "m", "(slice #1 #2 m)", "(N) [i -> [float](i + 1)]N -> [j -> [float](j + 2)]2");
  TYPED("N", TRI, "m", "(split #2 m)", "(N) [i -> [float](i + 1)]N -> [w -> [l -> [float](w * 2 + l + 1)]2](N / 2)");
  TYPED("N", "(dep-array-type (i) (array-type float (* 2 (+ i 1))) N)", "m", "(map (split #2) m)",
        "(N) [i -> [float](i * 2 + 2)]N -> [i -> [[float]2](i + 1)]N");
  TYPED("N", TRI, "m", "(unzip (zip m m))", "(N) [i -> [float](i + 1)]N -> ([i -> [float](i + 1)]N x [i -> [float](i + 1)]N)");
  TYPED("N", TRI " " F, "m v", "(map (lambda (p) (get2 p)) (zip m v))", "(N) [i -> [float](i + 1)]N -> [float]N -> [float]N");
  TYPED("N", TRI, "m", "(map (map (map (lambda (x) (* x 2.0f)))) (map (split #1) m))",
        "(N) [i -> [float](i + 1)]N -> [i -> [[float]1](i + 1)]N");
  REFUSED("N", TRI, "m", "(transpose m)", "'transpose' of a position-dependent array is not supported: [i -> [float](i + 1)]N", "(transpose");
  REFUSED("N", TRI, "m", "(padConstant #1 #1 0.0f m)", "'padConstant' of a position-dependent array", "(padConstant");
}

int main(void) {
  test_maps();
  test_nesting();
  test_reduce_scan();
  test_iterate();
  test_while();
  test_tuples();
  test_split_join();
  test_slide_pad_slice();
  test_vectors();
  test_scalars();
  test_aref_length_iota();
  test_size_variables();
  test_position_dependent();
  return CHECK_DONE("types");
}
