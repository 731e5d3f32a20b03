/* test_apl.c — the APL elaborator (src/apl, docs/apl.md §2.4, §5 M6): the
   TAIL that small programs become, and the errors of what the subset
   refuses, with their positions. */
#include "apl/apl.h"
#include "check.h"
#include <string.h>

/* the TAIL of an APL text, or "error at line:col: message" */
static const char *tail_of(const char *apl) {
  diag_reset();
  bool final;
  TExp *e = apl_to_tail("t.apl", apl, &final);
  if (!e) {
    const char *r = diag_render();
    const char *at = strstr(r, "t.apl:");
    int line = 0, col = 0;
    if (at) sscanf(at, "t.apl:%d:%d", &line, &col);
    return arena_printf("error at %d:%d: %s", line, col, diag_message());
  }
  Buf b = {0};
  tail_print(&b, e);
  return buf_str(&b);
}

int main(void) {
  static const struct { const char *apl, *has; } cases[] = {
    /* scans: a primitive as its op, a comparison of booleans and a dfn as functions, ⍀ through transp2 */
    { "+\\3 1 4", "scan(addi,[3,1,4])" },
    { "+\\1 0 1", "scan(addi,[1,0,1])" },   /* booleans widened to ints */
    { "≠\\1 0 1", "scan(xorb,[tt,ff,tt])" },
    { "<\\1 0 1", "scan(fn " },
    { "{⍺-⍵}\\3 1 4", "scan(fn " },
    { "+⍀2 2⍴⍳4", "transp2([2,1],scan(addi,transp2([2,1]," },
    /* replicate, compress and expand on the last axis; ⌿ ⍀ through transp2 */
    { "2 0 1/5 6 7", "replicate(0,[2,0,1],[5,6,7])" },
    { "1 0 1/5 6 7", "compress([tt,ff,tt],[5,6,7])" },
    { "1 0 1\\5 6", "expand(0,[tt,ff,tt],[5,6])" },
    { "1 0 1\\'ab'", "expand(' ',[tt,ff,tt]," },
    { "3/5 6", "replicate(0,reshape0([2],3),v0)" },
    /* ⌿ let-bound after moving the first axis back (a run-time length is named there, outermost) */
    { "1 2⌿2 2⍴⍳4", "= transp2([2,1],replicate(0,[1,2],transp2([2,1]," },
    { "1 0⌿2 2⍴⍳4", "= transp2([2,1],compress([tt,ff],transp2([2,1]," },
    /* indexing: the last index first, an axis brought first by transp2 */
    { "M←2 3⍴⍳6 ⋄ M[2;3]", "index(2,index(3,transp2([2,1],v0)))" },
    { "M←2 3⍴⍳6 ⋄ M[;3]", "index(3,transp2([2,1],v" },
    { "M←2 3⍴⍳6 ⋄ M[2;]", "index(2,v" },
    /* monadic ⍪ ×, dyadic ○, ⍲ ⍱ */
    { "⍪1 2 3", "reshape0([3,1],v0)" },
    { "×¯2 3", "each(signi,[~2,3])" },
    { "1○0.5", "sin(0.5)" },
    { "0○0.5", "sqrt(subd(1.0,muld(0.5,0.5)))" },
    { "1 0⍲1 1", "zipWith(nandb,[tt,ff],[tt,tt])" },
    { "1 0⍱1 1", "zipWith(norb,[tt,ff],[tt,tt])" },
    /* refusals, at the glyph */
    { "V←⍳3\nV[1]←2", "error at 2:5: indexed assignment A[i]← is not in the subset" },
    { "⍎'1'", "error at 1:1: ⍎ (execute) is not in the subset" },
    { "f←{⍵:1}\nf 1", "error at 1:5: guards ':' in dfns are not in the subset" },
    { "V←(⍳3)>1\n(⍳+/V)⍴5", "error at 2:7: the shape of ⍴ must be known when compiling" },
    /* (M6 rest) the arc and hyperbolic ○, !, the bit operations */
    { "¯1○0.5", "asin(0.5)" },
    { "7○0.5", "tanh(0.5)" },
    { "¯4○2", "muld(addd(2.0,1.0),sqrt(divd(subd(2.0,1.0),addd(2.0,1.0))))" },
    { "!3", "fact(3.0)" },
    { "2!5 6", "each(fn v0:[double]0 => binom(2.0,v0),[5.0,6.0])" },
    { "!/2 5", "reduce(binom,1.0,[2.0,5.0])" },
    { "5 ⎕INT32AND 3", "andi(5,3)" },
    { "⎕INT32XOR/1 2 3", "reduce(xori,0,[1,2,3])" },
    { "⎕INT32AND/1 2 3", "reduce(andi,~1,[1,2,3])" },
    { "1 ⎕INT32SHL 1 0", "each(fn v0:[int]0 => shli(1,v0),[1,0])" },
    { "⎕INT32NOT 1 0", "each(noti,[1,0])" },
    { "x←⎕INT32SHAR ⋄ 8 x 1", "shari(8,1)" },
    { "13○0.5", "error at 1:3: domain error: 13○ is not a circle function" },
    { "!2 ¯1", "error at 1:1: domain error: !¯1 (the factorial of a negative integer)" },
    { "2.5 ⎕INT32OR 3", "error at 1:5: domain error: ⎕INT32OR needs integers, found double and int" },
    { "⎕INT32OR 1", "error at 1:1: ⎕INT32OR needs a left argument" },
    { "⎕INT32NOT 0.5", "error at 1:1: domain error: ⎕INT32NOT needs integers, found double" },
    { "⎕FOO 1", "error at 1:1: not supported yet: the system name ⎕FOO" },
    { "11○0.5", "error at 1:3: 11○ (imaginary part) needs complex numbers" },
    { "2 3○0.5", "error at 1:4: not supported yet: ○ with a left argument that is not one number" },
    { "2 1\\5 6", "error at 1:4: domain error: the left argument of \\ must be booleans" },
    { "M←2 3⍴⍳6 ⋄ M[1 2;1]", "error at 1:14: not supported yet: an array index with ';'" },
    { "M←2 3⍴⍳6 ⋄ M[1]", "error at 1:13: rank error: [ ] with one index needs a vector" },
    { "M←2 3⍴⍳6 ⋄ M[1;2;3]", "error at 1:13: rank error: [ ] with 3 indices for an array of rank 2" },
    { "+\\1 2 ⋄ 1+\\2", "error at 1:11: \\ with a left argument" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *got = tail_of(cases[i].apl);
    CHECK(strstr(got, cases[i].has) != NULL, "%s: got %s, expected it to contain %s", cases[i].apl, got, cases[i].has);
  }
  /* the whole program through the lowering: a length error of replicate is found there */
  diag_reset();
  CHECK(apl_compile_text("t.apl", "2 0/5 6 7") == NULL && strstr(diag_message(), "length error: replicate"), "replicate's counts: %s",
        diag_message());
  diag_reset();
  CHECK(apl_compile_text("t.apl", "1 0 1\\5 6 7") == NULL && strstr(diag_message(), "the mask has 2 ones for an axis of length 3"),
        "expand's mask: %s", diag_message());
  /* replicate by run-time counts: the result's bound, n·K for counts of
     magnitude at most K (lower_range.c), or a refusal where no K is known */
  static const struct { const char *apl; long long bound; } bounds[] = {
    { "V←5 6 7\n(1+V>5)/V", 6 },              /* 1…2 */
    { "V←5 6 7\n(V-6)/V", 3 },                /* ¯1…1 */
    { "V←5 6 7\n(3|V×2)/V", 6 },              /* 0…2 */
    { "V←5 6 7\n(+\\V>5)/V", 9 },            /* prefix sums of 3 booleans: 0…3 */
    { "V←5 6 7\n(-V>5)/V", 3 },               /* ¯1…0 */
    { "M←3 4⍴⍳12\n(+/M>5)/1 2 3", 12 },       /* sums of 4 booleans */
    { "M←3 4⍴⍳12\n(1+M[;1]>5)⌿M", 6 },        /* rows: 3 counts of 1…2 (each of 4 items) */
    { "M←3 4⍴⍳12\n(1-2×M[;1]>5)⌿M", 3 },      /* ¯1…1 (1 - 2·(0…1)): magnitudes of at most 1 */
    { "M←3 4⍴⍳12\n(M[;1]>5)⌿M", 3 },          /* compress: at most the 3 rows */
    { "M←4 3⍴⍳12\n(1+M[1;]>1)/M", 6 },        /* /: 3 counts of 1…2 for each of 4 rows, held transposed */
    { "M←4 3⍴⍳12\n(M[1;]>1)/M", 3 },          /* /, a mask */
    { "V←5 6 7\n(⌊V÷2)/V", 12 },              /* 5…7 ÷ 2 as doubles: 2…4 (whole bounds of 2.5…3.5) */
    { "V←5 6 7\n(⌊V÷¯2)/V", 12 },             /* ¯4…¯2: magnitudes of at most 4 */
    { "V←5 6 7\n(0⌈3⌊⌊!V)/V", 9 },            /* ⌊ by 3 of a value with no range (an int's), then ⌈ 0 */
    { "V←5 6 7\n(V|⌊!V)/V", 18 },             /* | by 5…7: 0…6 */
    { "V←5 6 7\n(⌊2*V)/V", 387 },            /* 2*5…7, one more each side: 31…129 */
    { "V←5 6 7\n(⌊*V)/V", 3294 },           /* exp of 5…7, one more each side: 147…1098 */
    { "V←5 6 7\n(⌊1.5|V÷4)/V", 6 },           /* | of doubles by 1.5: ¯1…2 (rounding may pass either end) */
    { "V←5 6 7\nC←(V>5)/V\n(≢C)/V", 9 },      /* ≢ of a compress result: 0 to its bound 3 */
    { "V←3 8 1 9 7 2\nC←(V>2)/V\n(C<9)/C", 6 },         /* compress of a compress result: its bound */
    { "V←3 8 1 9 7 2\nC←(V>2)/V\n(1+C>7)/C", 12 },      /* replicate of it: its bound 6 times 1…2 */
    { "V←5 6 7\n(⌊!V-4)/V", 21 },             /* ! of 1…3: Γ(2)…Γ(4), one more each side: 0…7 */
    { "V←5 6 7\n(⌊!V÷4)/V", 9 },              /* ! of 1…2 (whole bounds of 1.25…1.75): 0…3 */
    { "V←5 6 7\n(×/V-4)/V", 81 },             /* a product of 3 items of 1…3: 0…27, for each of 3 */
    { "V←5 6 7\n(×\\V-4)/V", 81 },            /* prefix products: the same bound */
    { "V←5 6 7\n(|×/4-V)/V", 81 },            /* of ¯3…¯1: ¯27…27, then | */
  };
  for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
    diag_reset();
    TailProgram *tp = apl_compile_text("t.apl", bounds[i].apl);
    long long b = -1;
    TailOutput *o = tp && tp->noutputs == 1 ? &tp->outputs[0] : NULL;
    int at = o && o->transposed ? o->rank - 1 : 0, other = 1 - at;   /* the run-time length's axis, in TAIL's order */
    bool slash = o && o->rank >= 2 && strchr(bounds[i].apl, '/');   /* / of a matrix: held transposed */
    bool ok = o && o->dynamic && o->transposed == slash && nat_is_const(o->ext[at], &b);
    long long m = 4;   /* the other axis of a matrix keeps its static length */
    if (ok && o->rank == 2) ok = nat_is_const(o->ext[other], &m) && m == 4;
    CHECK(ok && b == bounds[i].bound, "%s: bound %lld, expected %lld (%s)", bounds[i].apl, b, bounds[i].bound,
          tp ? "" : diag_message());
  }
  diag_reset();
  CHECK(apl_compile_text("t.apl", "V←5 6 7\n(⌊2!V)/V") == NULL && strstr(diag_message(), "not bounded when compiling")
        && strstr(diag_message(), "the value computed at 2:4"), "unbounded counts: %s", diag_message());
  diag_reset();
  {   /* / of rank 3 printed: held transposed, its bound 3·2 on the last axis */
    TailProgram *tp = apl_compile_text("t.apl", "A←2 2 3⍴⍳12\n(1+A[1;1;]>5)/A");
    long long b = -1;
    CHECK(tp && tp->noutputs == 1 && tp->outputs[0].rank == 3 && tp->outputs[0].transposed && tp->outputs[0].dynamic
          && nat_is_const(tp->outputs[0].ext[2], &b) && b == 6, "/ of rank 3 printed: %s", tp ? "" : diag_message());
  }
  diag_reset();
  {   /* a / result scanned and bound: held again with its run-time axis first (lower_hold) */
    TailProgram *tp = apl_compile_text("t.apl", "M←2 3⍴⍳6\nR←(M[1;]>5)/M\nS←+\\R\nS");
    CHECK(tp && tp->noutputs == 1 && tp->outputs[0].transposed && tp->outputs[0].dynamic, "a / result scanned, bound: %s",
          tp ? "" : diag_message());
  }
  diag_reset();
  CHECK(apl_compile_text("t.apl", "A←2 2 3⍴⍳12\nR←(A[1;1;]>5)/A\nS←1 3 2⍉R\n+/+/S") == NULL
        && strstr(diag_message(), "a run-time length on axis 2, neither"), "a run-time middle axis, bound: %s", diag_message());
  diag_reset();
  CHECK(apl_compile_text("t.apl", "M←2 3⍴⍳6 ⋄ M[1;4]") == NULL && strstr(diag_message(), "index error: 4"), "an index: %s",
        diag_message());
  return CHECK_DONE("apl");
}
