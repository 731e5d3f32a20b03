/* test_fcl.c — FCL's front end (src/fcl, docs/fcl.md): the built-in table,
   every kinding rule (5.1–5.12) and typing rule (5.13–5.22) of seed 003 §5.3.1
   accepted and violated, parser errors with their positions, the interpreter
   on small programs, and robustness (every prefix of a program is an error
   or a result; deep nesting is an error). */
#include "fcl/fcl.h"
#include "fcl/compile.h"
#include "dpia/plan.h"
#include "util/switches.h"
#include "check.h"
#include <stdlib.h>
#include <string.h>

/* Δ ⊢ τ : κ for a type in the sig syntax; false when it does not parse */
static bool kinds(const char *type, FKind k) {
  diag_clear();
  FScheme *s = fcl_parse_scheme("k.fcl", type);
  return s && ftype_has_kind(s->body, k, LOC_NONE);
}

/* the scheme of definition `name` of a program, or "error: …" */
static const char *scheme_of(const char *prog, const char *name) {
  diag_clear();
  FProgram *p = fcl_parse("t.fcl", prog);
  if (!p || !fcl_check(p)) return arena_printf("error: %s", diag_message());
  for (int i = 0; i < p->ndefs; i++)
    if (!strcmp(p->defs[i]->name, name)) return fscheme_str(p->defs[i]->scheme);
  return "no such definition";
}

/* the rendered error of a program (parse or check), "" when it checks */
static const char *error_of(const char *prog) {
  diag_clear();
  FProgram *p = fcl_parse("t.fcl", prog);
  if (p && fcl_check(p)) return "";
  return diag_render();
}

/* run main (or the last definition) on the inputs: the printed result or "error: …" */
static const char *run(const char *prog, int n, const char **inputs) {
  diag_clear();
  FProgram *p = fcl_parse("t.fcl", prog);
  if (!p || !fcl_check(p)) return arena_printf("error: %s", diag_message());
  Value *v = fcl_run(p, n, inputs, 4);
  if (!v) return arena_printf("error: %s", diag_message());
  Buf b = { 0 };
  value_print(&b, v);
  return buf_str(&b);
}

/* the monomorphised program (mono.c, §5.3.2): "name : scheme" per definition, or "error: …" */
static const char *mono_of(const char *prog) {
  diag_clear();
  FProgram *p = fcl_parse("t.fcl", prog);
  if (!p || !fcl_check(p)) return arena_printf("error: %s", diag_message());
  FProgram *m = fcl_monomorphise(p);
  return m ? fcl_describe(m) : arena_printf("error: %s", diag_message());
}

/* run main on the monomorphised program: the printed result or "error: …" */
static const char *run_mono(const char *prog, int n, const char **inputs) {
  diag_clear();
  FProgram *p = fcl_parse("t.fcl", prog);
  if (!p || !fcl_check(p)) return arena_printf("error: %s", diag_message());
  FProgram *m = fcl_monomorphise(p);
  Value *v = m ? fcl_run(m, n, inputs, 4) : NULL;
  if (!v) return arena_printf("error: %s", diag_message());
  Buf b = { 0 };
  value_print(&b, v);
  return buf_str(&b);
}

/* every built-in use in e has concrete levels, every use of a definition none */
static bool all_concrete(FExp *e) {
  if (!e) return true;
  if (e->kind == FE_VAR) {
    if (e->has_largs || e->nlargs) return false;
    for (int i = 0; i < e->ninst; i++) if (fcl_level_depth(e->inst[i]) < 0) return false;
    return e->slot > 0 || e->ninst == 0;
  }
  if (e->kind == FE_LET && e->nlargs) return false;
  return all_concrete(e->a) && all_concrete(e->b) && all_concrete(e->c);
}

/* the loops of a kernel body as text: G mapGlb, W mapWrg, L mapLcl, S sequential,
   nesting in parentheses ("W(L L)" : a work-group loop around two mapLcl loops) */
static void loops_of(Buf *b, KStmt *s) {
  if (!s) return;
  if (s->kind == KS_FOR) {
    buf_putc(b, s->level == LEVEL_GLB ? 'G' : s->level == LEVEL_WRG ? 'W' : s->level == LEVEL_LCL ? 'L' : 'S');
    Buf in = { 0 };
    loops_of(&in, s->body);
    if (in.len) buf_printf(b, "(%s)", buf_str(&in));
    buf_putc(b, ' ');
    return;
  }
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) loops_of(b, s->stmts[i]);
  loops_of(b, s->then_); loops_of(b, s->else_);
}

/* compile main of a program for the inputs: its loops, and the plan's kernel
   count; compiled_locals: the kernel's local buffers */
static int compiled_locals;
static Plan *compiled_plan;
static long long compiled_block = 4;   /* #BlockSize */
static const char *compiled(const char *prog, int n, const char **inputs, int *kernels) {
  diag_clear();
  FProgram *p = fcl_parse("t.fcl", prog);
  if (!p || !fcl_check(p)) return arena_printf("error: %s", diag_message());
  Value **in = fcl_read_inputs(p, n, inputs);
  FDef *entry = in ? fcl_entry(p, n) : NULL;
  FProgram *m = entry ? fcl_monomorphise(p) : NULL;
  FclCompiled *c = m ? fcl_compile(m, entry, in, n, compiled_block, false) : NULL;
  Plan *pl = c ? plan_build(c->kernel) : NULL;
  if (!pl) return arena_printf("error: %s", diag_message());
  *kernels = pl->n;
  compiled_plan = pl;
  compiled_locals = 0;
  for (int i = 0; i < c->kernel->nbufs; i++) compiled_locals += c->kernel->bufs[i]->space == SPACE_LOCAL;
  Buf b = { 0 };
  loops_of(&b, c->kernel->body);
  return buf_str(&b);
}

#define SCHEME(prog, name, want) do { const char *got_ = scheme_of(prog, name); \
    CHECK(!strcmp(got_, want), "%s: got '%s', want '%s'", prog, got_, want); } while (0)
#define FAILS(prog, part) do { const char *got_ = scheme_of(prog, "x"); \
    CHECK(!strncmp(got_, "error: ", 7) && strstr(got_, part), "%s: got '%s', want an error with '%s'", prog, got_, part); } while (0)

static int arrows(FType *t) {
  int n = 0;
  for (t = ftype_prune(t); t->kind == FY_FUN; t = ftype_prune(t->b)) n++;
  return n;
}

static const char *reduce_prog =
  "sig zipWith : forall 'a 'b 'c. ('a -> 'b -> 'c) -> ['a] -> ['b] -> ['c]\n"
  "fun zipWith f a1 a2 = generate (min (length a1) (length a2)) (fn ix => f (index a1 ix) (index a2 ix))\n"
  "sig step : forall <lvl> 'a. ('a -> 'a -> 'a) -> ['a] -> Program<lvl> ['a]<lvl>\n"
  "fun step<lvl> f arr =\n"
  "  let half = length arr / 2\n"
  "      x = (generate half (fn i => index arr i), generate half (fn i => index arr (half + i)))\n"
  "  in return<lvl> (push<lvl> (zipWith f (fst x) (snd x)))\n"
  "sig reduce : forall <lvl> 'a. ('a -> 'a -> 'a) -> ['a] -> Program<lvl> ['a]<lvl>\n"
  "fun reduce<lvl> f arr =\n"
  "  do<lvl> { a <- while<lvl> (fn a => 1 != length a) (step<lvl> f) (step<lvl> f arr)\n"
  "          ; return<lvl> (push<lvl> a) }\n"
  "sig main : [int] -> Program<grid> [int]<grid>\n"
  "fun main xs = interleave<block> 1 (fn sh => fst sh) (generate 1 (fn b => reduce<block> (fn a => fn b => a + b) xs))\n";

int main(void) {
  /* the table: every scheme parses, with as many arrows as the arity */
  for (int i = 0; fcl_op_at(i); i++) {
    const FOp *op = fcl_op_at(i);
    FScheme *s = fcl_op_scheme(op);
    CHECK(s && arrows(s->body) == op->arity, "%s: scheme '%s' (arity %d)", op->name, op->scheme, op->arity);
    CHECK(fcl_op_lookup(op->name) == op, "%s: found by name", op->name);
  }

  /* kinds, rules 5.1–5.12: each accepted, and violated where it can be */
  CHECK(kinds("int", FK_BT), "5.1");
  CHECK(kinds("double", FK_BT), "5.2");
  CHECK(kinds("bool", FK_BT), "5.3");
  CHECK(kinds("unit", FK_GT), "5.4");
  CHECK(!kinds("unit", FK_BT), "5.4 gives GT, not BT");
  CHECK(kinds("forall 'a:BT. 'a", FK_BT), "5.5");
  CHECK(!kinds("forall 'a:GT. 'a", FK_BT), "5.5: Δ('a) = GT");
  CHECK(kinds("(int, bool)", FK_BT), "5.6 at BT");
  CHECK(kinds("(int, [int])", FK_GT), "5.6 at GT");
  CHECK(!kinds("(int, [int])", FK_BT), "5.6: [int] is not BT");
  CHECK(kinds("double", FK_GT), "5.7");
  CHECK(!kinds("int -> int", FK_GT), "5.7/5.8: a function is not GT");
  CHECK(kinds("[int]", FK_TYP), "5.8");
  CHECK(kinds("(int -> [int]) -> Program<grid> int", FK_TYP), "5.9");
  CHECK(!kinds("forall 'a:GT. 'a -> [int]<block>", FK_GT), "5.9 gives TYP only");
  CHECK(kinds("[[(int, double)]]", FK_GT), "5.10");
  CHECK(!kinds("[int -> int]", FK_TYP), "5.10: a function in a pull array");
  CHECK(strstr(diag_message(), "not a ground type"), "5.10 message: %s", diag_message());
  CHECK(kinds("[(int, bool)]<block>", FK_GT), "5.11");
  CHECK(!kinds("[[int]]<block>", FK_TYP), "5.11: a pull array in a push array");
  CHECK(strstr(diag_message(), "not a base type"), "5.11 message: %s", diag_message());
  CHECK(!kinds("[int]<block>", FK_BT), "5.11 gives GT, not BT");
  CHECK(kinds("Program<1+grid> [int]<thread>", FK_GT), "5.12");
  CHECK(!kinds("Program<grid> (int -> int)", FK_TYP), "5.12: a function in a Program");
  CHECK(!kinds("Program<grid> [int]", FK_BT), "5.12 gives GT, not BT");
  CHECK(!kinds("forall <l> 'a. Program<k> 'a", FK_TYP), "an undeclared level variable");

  /* typing, rules 5.13–5.22 */
  SCHEME("val x = 3", "x", "int");                                            /* 5.13 */
  SCHEME("val x = 2.5e1", "x", "double");                                     /* 5.14 */
  SCHEME("val x = false", "x", "bool");                                       /* 5.15 */
  SCHEME("val x = ()", "x", "unit");                                          /* 5.16 */
  SCHEME("val x = (1, (true, 2.0))", "x", "(int, (bool, double))");          /* 5.17 */
  FAILS("val x = fst 3", "argument 1 of fst: expected ('");
  SCHEME("fun x y = y", "x", "forall 'a. 'a -> 'a");                          /* 5.18 */
  SCHEME("val x = fn y => (y, 1.0)", "x", "forall 'a. 'a -> ('a, double)");
  FAILS("fun x y = y y", "would contain itself");
  SCHEME("val x = (fn y => y + 1) 2", "x", "int");                            /* 5.19 */
  FAILS("val x = 3 4", "not a function type");
  FAILS("val x = (fn y => y + 1) true", "the argument: expected int, found bool");
  SCHEME("fun x b = if b then 1.5 else 2.5", "x", "bool -> double");          /* 5.20 */
  FAILS("val x = if 1 then 2 else 3", "the condition of if: expected bool, found int");
  FAILS("val x = if true then 2 else false", "the else branch: expected int, found bool");
  FAILS("fun x b a = if b then a else generate 1 (fn i => 0)", "rule 5.20");
  SCHEME("fun f<l> a = push<l> a\nval x = f<block> (generate 2 (fn i => i))", "x", "[int]<block>");   /* 5.21 */
  SCHEME("val x = push (generate 2 (fn i => 1.0)) |> force<grid>", "x", "Program<grid> [double]");
  FAILS("fun f<l> a = push<l> a\nval x = f<block, grid> (generate 2 (fn i => i))", "takes 1 level argument, 2 given");
  FAILS("fun x y = y<block>", "takes no level arguments");
  FAILS("val x = nothing", "unknown name 'nothing'");
  FAILS("val x = __seqfor_read", "unknown name");
  SCHEME("val x = let id = fn y => y in (id 1, id true)", "x", "(int, bool)");   /* 5.22 */
  SCHEME("fun x a = let p<l> = fn u => return<l> (push<l> u) in (p<block> a, p<grid> a)", "x",
         "forall 'a:BT. ['a] -> (Program<block> ['a]<block>, Program<grid> ['a]<grid>)");
  FAILS("fun x g = (g 1, g true)", "argument 1 of g: expected int, found bool");
  FAILS("fun x<l> a = let p<l> = fn u => push<l> u in p<l> a", "already in scope (rule 5.22)");
  FAILS("fun x a = let y = push a in (force<block> y, force<grid> y)", "level");

  /* the three errors the issue names */
  FAILS("sig x : [int] -> int\nfun x a = index (push<block> a) 0", "found [int]<block>");
  FAILS("sig g : [int] -> Program<grid> [int]<grid>\nfun g a = return<grid> (push<grid> a)\n"
        "sig x : [int] -> Program<block> [int]<block>\nfun x a = do<block> { b <- g a ; return<block> b }", "level block is not level grid");
  FAILS("val x = generate 2 (fn i => fn j => i + j)", "not a ground type");

  /* sigs: rigid variables, kinds from the definition, level parameters */
  FAILS("sig x : forall 'a. 'a -> 'a\nfun x y = y + 1", "needs int or double, not 'a");
  SCHEME("sig x : forall 'a. 'a -> ['a]<thread>\nfun x y = push<thread> (generate 1 (fn i => y))", "x",
         "forall 'a:BT. 'a -> ['a]<thread>");
  FAILS("sig x : forall <l> 'a. ['a] -> ['a]<l>\nfun x a = push a", "has 1 level variable, the definition declares 0");
  FAILS("sig x : forall 'a:GT. ['a] -> ['a]<block>\nfun x a = push<block> a", "has kind GT, not BT");
  SCHEME("fun x a b = a + b", "x", "int -> int -> int");   /* overloaded operators default to int */
  SCHEME("fun x a = a + 1.0", "x", "double -> double");
  FAILS("fun x a = a + true", "needs int or double, not bool");
  FAILS("fun x<l> a = push a\nval y = x (generate 1 (fn i => i))", "not determined");

  /* parser errors with their positions */
  CHECK(strstr(error_of("fun f x = if x else 1"), "t.fcl:1:16: error: expected 'then'"), "%s", error_of("fun f x = if x else 1"));
  CHECK(strstr(error_of("fun f x =\n  (x, 1"), "t.fcl:2:8: error: expected ')'"), "%s", error_of("fun f x =\n  (x, 1"));
  CHECK(strstr(error_of("val x = 1\n)"), "t.fcl:2:1: error: expected 'sig', 'fun' or 'val'"), "%s", error_of("val x = 1\n)"));
  CHECK(strstr(error_of("val x = 99999999999"), "t.fcl:1:9: error: integer literal"), "%s", error_of("val x = 99999999999"));
  CHECK(strstr(error_of("sig f : int\n"), "t.fcl:1:5: error: sig f is not followed"), "%s", error_of("sig f : int\n"));
  CHECK(strstr(error_of("val x = do<block> { y <- return<block> 1 }"), "ends with an expression"), "do without a final expression");
  CHECK(strstr(error_of("val x = #Block"), "t.fcl:1:9: error: unknown '#Block'"), "%s", error_of("val x = #Block"));
  CHECK(strstr(error_of("val f x = x"), "val f takes no parameters"), "val with parameters");
  CHECK(strstr(error_of("fun f x = x\nfun f y = y"), "t.fcl:2:5: error: f is defined twice"), "%s", error_of("fun f x = x\nfun f y = y"));
  CHECK(strstr(error_of("sig f : Program<blk> int\nfun f = 1"), "unknown level 'blk'"), "%s", error_of("sig f : Program<blk> int\nfun f = 1"));
  CHECK(strstr(error_of("sig f : ['a]<block> -> (int, int, int)\nfun f = 1"), "tuples are pairs"), "triples");
  CHECK(strstr(error_of("-- only a comment\n"), "defines nothing"), "an empty program");

  /* the interpreter */
  const char *in1[] = { "[3, 1, 4, 1, 5, 9, 2, 6]" };
  CHECK(!strcmp(run(reduce_prog, 1, in1), "[31]"), "reduce: %s", run(reduce_prog, 1, in1));
  const char *in2[] = { "[1, 2, 3]" };
  CHECK(!strcmp(run("sig main : [int] -> [int]<grid>\nfun main xs = mapPushIx (fn i => fn x => x * i) (push<grid> xs)", 1, in2), "[0, 2, 6]"),
        "mapPushIx: %s", run("sig main : [int] -> [int]<grid>\nfun main xs = mapPushIx (fn i => fn x => x * i) (push<grid> xs)", 1, in2));
  CHECK(!strcmp(run("sig main : [int] -> Program<grid> [int]\n"
                    "fun main xs = power<grid> 3 (fn a => return<grid> (push<grid> (map (fn x => x * 2) a))) (return<grid> (push<grid> xs))", 1, in2),
                "[8, 16, 24]"), "power");
  CHECK(!strcmp(run("sig main : [int] -> Program<grid> [int]\n"
                    "fun main xs = poweri<grid> 2 (fn i => fn a => return<grid> (push<grid> (map (fn x => x + i) a))) (return<grid> (push<grid> xs))", 1, in2),
                "[2, 3, 4]"), "poweri");
  CHECK(!strcmp(run("val main = seqforInit (push<thread> (generate 3 (fn i => i))) 3 (fn r => fn i => (i, r i * 10)) |> mapPush (fn x => x + 1)", 0, NULL),
                "[1, 11, 21]"), "seqforInit and mapPush: %s",
        run("val main = seqforInit (push<thread> (generate 3 (fn i => i))) 3 (fn r => fn i => (i, r i * 10)) |> mapPush (fn x => x + 1)", 0, NULL));
  CHECK(!strcmp(run("val main = (lengthPush (push<block> (generate 5 (fn i => i))), (#BlockSize, (7 / -2, (7 % -2, (1 << 4, -8 >> 1)))))", 0, NULL),
                "(5, (4, (-3, (1, (16, -4)))))"), "scalars: %s",
        run("val main = (lengthPush (push<block> (generate 5 (fn i => i))), (#BlockSize, (7 / -2, (7 % -2, (1 << 4, -8 >> 1)))))", 0, NULL));
  CHECK(!strcmp(run("val main = (false && index (generate 0 (fn i => true)) 0, (i2d 3 / 2.0, (d2i 2.7, not (1 < 2))))", 0, NULL), "(false, (1.5, (2, false)))"),
        "&& short-circuits: %s", run("val main = (false && index (generate 0 (fn i => true)) 0, (i2d 3 / 2.0, (d2i 2.7, not (1 < 2))))", 0, NULL));
  CHECK(strstr(run("val main = seqfor 2 1 (fn r => fn i => (0, r 1 + 1))", 0, NULL), "read before it is written"), "seqfor reads: %s",
        run("val main = seqfor 2 1 (fn r => fn i => (0, r 1 + 1))", 0, NULL));
  CHECK(strstr(run("val main = seqfor 2 1 (fn r => fn i => (0, 1))", 0, NULL), "never written"), "seqfor leaves a hole");
  CHECK(strstr(run("val main = index (generate 2 (fn i => i)) (0 - 1)", 0, NULL), "index -1 out of bounds"), "rule 5.61");
  CHECK(!strcmp(run("val main = let xs = generate 2 (fn i => index (generate 0 (fn j => j)) 5) in length xs", 0, NULL), "2"),
        "elements are computed only when indexed");

  /* monomorphisation (§5.3.2, rules 5.23–5.31): one copy per level instance */
  {
    const char *m = mono_of(reduce_prog);
    CHECK(!strcmp(m, "zipWith : forall 'a:GT 'b:GT 'c:GT. ('a -> 'b -> 'c) -> ['a] -> ['b] -> ['c]\n"
                     "step<block> : forall 'a:BT. ('a -> 'a -> 'a) -> ['a] -> Program<block> ['a]<block>\n"
                     "reduce<block> : forall 'a:BT. ('a -> 'a -> 'a) -> ['a] -> Program<block> ['a]<block>\n"
                     "main : [int] -> Program<grid> [int]<grid>"), "mono of reduce: %s", m);
    diag_clear();
    FProgram *p = fcl_parse("t.fcl", reduce_prog);
    FProgram *mp = p && fcl_check(p) ? fcl_monomorphise(p) : NULL;
    CHECK(mp != NULL, "mono of reduce");
    for (int i = 0; mp && i < mp->ndefs; i++) CHECK(all_concrete(mp->defs[i]->body), "%s has a level left", mp->defs[i]->name);
    const char *in7[] = { "[1, 2, 3, 4, 5, 6, 7, 8]" };
    CHECK(!strcmp(run_mono(reduce_prog, 1, in7), "[36]"), "mono reduce runs: %s", run_mono(reduce_prog, 1, in7));
    /* two instances of one definition, an unused polymorphic one dropped, inferred levels */
    const char *two =
      "sig id : forall <l> 'a. ['a] -> Program<l> ['a]<l>\n"
      "fun id<l> a = return<l> (push<l> a)\n"
      "sig unused : forall <l>. int -> Program<l> int\n"
      "fun unused<l> x = return<l> x\n"
      "sig cat : forall <l> 'a. int -> [Program<l> ['a]<l>] -> Program<1+l> ['a]<1+l>\n"
      "fun cat<l> n arr = interleave<l> n (fn sh => fst sh * n + snd sh) arr\n"
      "sig main : [int] -> Program<grid> [int]<grid>\n"
      "fun main xs = generate 2 (fn b => cat 2 (generate 2 (fn t => id<thread> (generate 2 (fn j => index xs (b * 4 + t * 2 + j)))))) |> cat<block> 4\n";
    m = mono_of(two);
    CHECK(!strcmp(m, "id<thread> : forall 'a:BT. ['a] -> Program<thread> ['a]<thread>\n"
                     "cat<block> : forall 'a:BT. int -> [Program<block> ['a]<block>] -> Program<grid> ['a]<grid>\n"
                     "cat<thread> : forall 'a:BT. int -> [Program<thread> ['a]<thread>] -> Program<block> ['a]<block>\n"
                     "main : [int] -> Program<grid> [int]<grid>"), "mono of two instances: %s", m);
    const char *in8[] = { "[1, 2, 3, 4, 5, 6, 7, 8]" };
    CHECK(!strcmp(run_mono(two, 1, in8), "[1, 2, 3, 4, 5, 6, 7, 8]"), "two instances run: %s", run_mono(two, 1, in8));
    /* a level-polymorphic let: one binding per instance */
    const char *plet =
      "sig main : [int] -> Program<grid> [int]<grid>\n"
      "fun main xs = let p<l> = fn a => return<l> (push<l> a)\n"
      "                  q = p<thread> xs\n"
      "              in interleave<block> (length xs) (fn sh => snd sh) (generate 1 (fn b => interleave<thread> (length xs) (fn sh => snd sh) (generate 1 (fn t => p<thread> xs))))\n";
    m = mono_of(plet);
    CHECK(!strcmp(m, "main : [int] -> Program<grid> [int]<grid>"), "mono of a let: %s", m);
    diag_clear();
    p = fcl_parse("t.fcl", plet);
    mp = p && fcl_check(p) ? fcl_monomorphise(p) : NULL;
    CHECK(mp && all_concrete(mp->defs[0]->body), "the let's levels are concrete");
    const char *in3[] = { "[4, 5, 6]" };
    CHECK(!strcmp(run_mono(plet, 1, in3), "[4, 5, 6]"), "mono let runs: %s", run_mono(plet, 1, in3));
  }

  /* compilation onto kernels (compile.c, docs/fcl.md §6.2): the loops each construct
     becomes, without the batching of chunks (CLIFT_FCL_BATCH=0; the default since
     stop 28 runs 4 work-groups' bodies in one, checked after the block) */
  {
    int k = 0;
    const char *in8[] = { "[1, 2, 3, 4, 5, 6, 7, 8]" };
    setenv("CLIFT_FCL_BATCH", "0", 1);
    switches_reset();   /* read again (util/switches.c reads them once) */
    /* reduce<block> in one work-group (#BlockSize 4 here): the initial step, then while's
       steps 4 -> 2 unrolled, the last (2 -> 1) computed in the push into the result
       (docs/fcl.md §6.2): one kernel */
    const char *got = compiled(reduce_prog, 1, in8, &k);
    CHECK(!strcmp(got, "W(L L L ) ") && k == 1, "reduce: %s, %d kernels", got, k);
    /* force<grid> is a kernel boundary; interleave<thread> in a block; seqfor a sequential loop */
    const char *prog =
      "sig main : [int] -> Program<grid> [int]<grid>\n"
      "fun main xs = do<grid> { a <- force<grid> (push<grid> (map (fn x => x + 1) xs))\n"
      "  ; interleave<block> 4 (fn sh => fst sh * 4 + snd sh) (generate 2 (fn g => interleave<thread> 2 (fn sh => fst sh * 2 + snd sh)\n"
      "      (generate 2 (fn t => return<thread> (seqfor 2 2 (fn read => fn i => (i, index a (g * 4 + t * 2 + i))))))))\n"
      "  }\n";
    got = compiled(prog, 1, in8, &k);
    CHECK(!strcmp(got, "G W(L(S S S S ) ) ") && k == 2, "force and interleave: %s, %d kernels", got, k);
    /* a grid-level while: each step its own kernel */
    const char *grid_while =
      "sig main : [int] -> Program<grid> [int]\n"
      "fun main xs = while<grid> (fn a => length a > 2) (fn a => return<grid> (push<grid> (generate (length a / 2) (fn i => index a (2 * i)))))\n"
      "  (return<grid> (push<grid> xs))\n";
    got = compiled(grid_while, 1, in8, &k);
    CHECK(!strcmp(got, "G G G ") && k == 3, "grid while (the initial array, two steps, the last into the result: docs/fcl.md §6.2): %s, %d kernels",
          got, k);
    /* interleave writing an index twice: found at compile time */
    const char *twice =
      "sig main : [int] -> Program<grid> [int]<grid>\n"
      "fun main xs = interleave<block> 2 (fn sh => snd sh) (generate 1 (fn g => interleave<thread> 1 (fn sh => 0) (generate 2 (fn i => return<thread> (push<thread> (generate 1 (fn j => i)))))))\n";
    got = compiled(twice, 1, in8, &k);
    CHECK(strstr(got, "index 0 is written twice") != NULL, "interleave twice: %s", got);
    /* a block-level poweri whose steps force: the steps' local arrays are reused
       (two for the iteration, one for every step's force), not one per step */
    const char *steps =
      "sig main : [int] -> Program<grid> [int]<grid>\n"
      "fun main xs = interleave<block> 4 (fn sh => fst sh * 4 + snd sh) (generate 2 (fn g => do<block>\n"
      "  { r <- poweri<block> 6 (fn i => fn a => do<block> { t <- force<block> (push<block> (map (fn x => x + i) a))\n"
      "                                                    ; return<block> (push<block> (map (fn x => x * 2) t)) })\n"
      "                 (return<block> (push<block> (generate 4 (fn j => index xs (g * 4 + j)))))\n"
      "  ; return<block> (push<block> r) }))\n";
    setenv("CLIFT_FCL_UNROLL", "1", 1);   /* unrolled (docs/fcl.md §6.2) */
    switches_reset();
    got = compiled(steps, 1, in8, &k);
    unsetenv("CLIFT_FCL_UNROLL");
    switches_reset();
    CHECK(!strcmp(got, "W(L L L L L L L L L L L L L ) ") && k == 1 && compiled_locals == 3, "poweri's local arrays: %s, %d kernels, %d local buffers",
          got, k, compiled_locals);
    /* the same steps are uniform: one loop over them (the initial array, then a
       sequential loop of the force and the step's result), over a doubled array
       and the step's own */
    got = compiled(steps, 1, in8, &k);
    CHECK(!strcmp(got, "W(L S(L L ) L ) ") && k == 1 && compiled_locals == 2, "poweri as a loop: %s, %d kernels, %d local buffers",
          got, k, compiled_locals);
    /* a while on the data: refused */
    const char *data_while =
      "sig main : [int] -> Program<grid> [int]\n"
      "fun main xs = while<grid> (fn a => index a 0 > 1) (fn a => return<grid> (push<grid> a)) (return<grid> (push<grid> xs))\n";
    got = compiled(data_while, 1, in8, &k);
    CHECK(strstr(got, "condition reads the array's elements") != NULL && diag_kind() == DIAG_UNSUPPORTED, "data while: %s", got);
    /* CLIFT_FCL_BATCH=4 (the default where the grid is capped, cuda: tests/fcl/fcl_test.sh)
       runs 4 work-groups' bodies in one work-group iteration (dpia/batch.c): the
       interleave's 4 sequential loops a work-item, 4 times; without the cap (here) the
       default is one */
    setenv("CLIFT_FCL_BATCH", "4", 1);
    switches_reset();
    got = compiled(prog, 1, in8, &k);
    CHECK(!strcmp(got, "G W(L(S S S S S S S S S S S S S S S S ) ) ") && k == 2, "force and interleave, batched: %s, %d kernels", got, k);
    unsetenv("CLIFT_FCL_BATCH");
    switches_reset();
    got = compiled(prog, 1, in8, &k);
    CHECK(!strcmp(got, "G W(L(S S S S ) ) ") && k == 2, "force and interleave, no grid cap: %s, %d kernels", got, k);
  }

  /* the grid cap per kernel (CLIFT_FCL_GRID=-1, the default; dpia/plan.c chunk_barriers):
     a chunk kernel passing 5+ barriers a chunk outside sequential loops gets
     resident_waves 1, the others 0. Both of reduce's kernels (the partials, then the last block) pass 9 a chunk (a tree of 256), the
     transpose's 2 (a tile's load and store): each kernel's waves, in plan order */
  {
    int k = 0;
    Buf xs = { 0 };
    buf_printf(&xs, "[");
    for (int i = 0; i < 1 << 16; i++) buf_printf(&xs, "%s%d", i ? ", " : "", i % 7 - 3);
    buf_printf(&xs, "]");
    const char *reduce_in[] = { buf_str(&xs) };
    const char *transpose_in[] = { "32", "256", "256", buf_str(&xs) };
    struct { const char *file; int n; const char **in; const char *want; } cases[] = {
      { "examples/fcl/reduce.fcl", 1, reduce_in, "1 1 " },
      { "examples/fcl/transpose.fcl", 4, transpose_in, "0 " },
    };
    compiled_block = 256;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
      char *src = util_read_file(cases[c].file, NULL);
      CHECK(src != NULL, "%s: cannot read (run from the repository root)", cases[c].file);
      if (!src) continue;
      const char *got = compiled(src, cases[c].n, cases[c].in, &k);
      Buf waves = { 0 };
      for (int i = 0; strncmp(got, "error", 5) && i < compiled_plan->n; i++)
        buf_printf(&waves, "%d ", compiled_plan->kernels[i].resident_waves);
      CHECK(!strcmp(buf_str(&waves), cases[c].want), "%s: waves '%s', want '%s' (%s)", cases[c].file, buf_str(&waves),
            cases[c].want, got);
    }
    compiled_block = 4;
  }

  /* every prefix: an error or a result, never a crash */
  size_t len = strlen(reduce_prog);
  int prefixes = 0;
  for (size_t i = 0; i <= len; i++) {
    char *text = arena_strndup(reduce_prog, i);
    diag_clear();
    FProgram *p = fcl_parse("p.fcl", text);
    bool ok = p && fcl_check(p);
    if (ok) fcl_run(p, 1, in1, 4);
    if (ok) fcl_monomorphise(p);
    prefixes++;
  }
  CHECK(prefixes == (int)len + 1, "prefixes");

  /* deep nesting: errors, not stack overflows */
  Buf deep = { 0 };
  buf_puts(&deep, "val x = ");
  for (int i = 0; i < 100000; i++) buf_putc(&deep, '(');
  CHECK(strstr(error_of(buf_str(&deep)), "nested too deeply"), "deep parentheses");
  Buf deept = { 0 };
  buf_puts(&deept, "sig x : ");
  for (int i = 0; i < 100000; i++) buf_putc(&deept, '[');
  CHECK(strstr(error_of(buf_str(&deept)), "nested too deeply"), "deep types");
  Buf deepf = { 0 };
  buf_puts(&deepf, "val x = ");
  for (int i = 0; i < 50000; i++) buf_puts(&deepf, "fn a => ");
  buf_puts(&deepf, "1");
  CHECK(strstr(error_of(buf_str(&deepf)), "nested too deeply"), "deep fn");
  Buf sum = { 0 };
  buf_puts(&sum, "val x = 1");
  for (int i = 0; i < 50000; i++) buf_puts(&sum, " + 1");
  CHECK(strstr(error_of(buf_str(&sum)), "nested too deeply"), "a long sum");
  CHECK(strstr(run("sig main : int -> Program<grid> [int]\n"
                   "fun main n = while<grid> (fn a => true) (fn a => return<grid> (push<grid> (map (fn x => x) a))) (return<grid> (push<grid> (generate 1 (fn i => i))))",
                   0, NULL), "takes 1 input"), "a run with missing inputs");

  return CHECK_DONE("fcl");
}
