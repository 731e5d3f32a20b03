/* test_tail.c — TAIL's table and types (src/tail, docs/apl.md §2): every
   scheme of the table parses and has the row's arity, ground subtyping
   (rules 3.1–3.5) and joins, and the checker on small programs. */
#include "tail/tail.h"
#include "check.h"
#include <string.h>

static TType *ty(const char *text) { return tail_parse_type_text(text, false); }

static int arity(TType *t) {
  int n = 0;
  for (; t->kind == TT_FUN; t = t->res) n++;
  return n;
}

/* the type tail_check gives a program, or "error: …" */
static const char *type_of(const char *text) {
  diag_clear();
  TExp *e = tail_parse("t.tail", text);
  if (!e || !tail_check(e)) return arena_printf("error: %s", diag_message());
  return ttype_to_string(e->type);
}

int main(void) {
  for (int i = 0; tail_op_at(i); i++) {
    const TOp *op = tail_op_at(i);
    TType *t = tail_op_scheme(op, false);
    CHECK(t && arity(t) == op->arity, "%s: scheme '%s' (arity %d)", op->name, op->scheme, op->arity);
    if (op->refined) {
      TType *r = tail_op_scheme(op, true);
      CHECK(r && arity(r) == op->arity, "%s: refined scheme '%s'", op->name, op->refined);
    }
    CHECK(tail_op_lookup(op->name) == op, "%s: found by name", op->name);
  }
  CHECK(ttype_sub(ty("<int>3"), ty("[int]1")), "rule 3.3");
  CHECK(!ttype_sub(ty("<int>3"), ty("[int]2")), "<int>3 is not a [int]2");
  CHECK(ttype_sub(ty("SV(int,4)"), ty("<int>1")), "rule 3.4");
  CHECK(ttype_sub(ty("SV(int,4)"), ty("[int]1")), "rules 3.4, 3.3, 3.2");
  CHECK(ttype_sub(ty("S(bool,1)"), ty("[bool]0")), "rule 3.5");
  CHECK(!ttype_sub(ty("S(int,1)"), ty("[double]0")), "no implicit i2d");
  CHECK(!ttype_sub(ty("S(int,1)"), ty("S(int,2)")), "singletons differ");
  CHECK(ttype_sub(ty("[int]0 -> S(int,3)"), ty("S(int,3) -> [int]0")), "functions: contravariant argument");
  CHECK(strcmp(ttype_to_string(ttype_join(ty("S(int,1)"), ty("S(int,2)"))), "[int]0") == 0, "S(1) ⊔ S(2) = [int]0");
  CHECK(strcmp(ttype_to_string(ttype_join(ty("<int>2"), ty("<int>3"))), "[int]1") == 0, "<int>2 ⊔ <int>3");
  CHECK(ttype_join(ty("[int]1"), ty("[double]1")) == NULL, "no join across base types");
  CHECK(strcmp(ttype_to_string(ty("S(int,~1)")), "S(int,~1)") == 0, "negatives print with ~");

  static const struct { const char *prog, *type; } progs[] = {
    { "consV(0,[1,2,3])", "<int>4" },
    { "drop(1,[1,2,3])", "<int>2" },
    { "drop(~1,[1,2,3])", "[int]1" },
    { "drop(5,[1,2])", "[int]1" },
    { "each(i2d,[1,2])", "<double>2" },
    { "reduce(addd,0.0,each(i2d,[1,2]))", "[double]0" },
    { "shapeV([1,2])", "SV(int,2)" },
    { "firstV(shapeV([1,2]))", "S(int,2)" },
    { "iota(3)", "<int>3" },
    { "iota(reduce(addi,0,[1]))", "[int]1" },
    { "[tt]", "SV(bool,1)" },
    { "zipWith(addi,[1],[2,3])", "[int]1" },   /* lengths are the lowering's (a "length" error there) */
    { "reshape0([2,3],[1,2,3,4,5,6])", "[int]2" },
    { "transp2([2,1],reshape0([2,3],[1,2,3,4,5,6]))", "[int]2" },
    { "cat(reshape0([2,2],[1,2,3,4]),reshape0([2,2],[1,2,3,4]))", "[int]2" },
    { "catV([1],[2,3])", "<int>3" },
    { "if tt then 1 else 2", "[int]0" },
    { "power(fn a:[int]1 => a,3,[1,2])", "[int]1" },
    { "reduce(addi,0,5)", "error: reduce: argument 3 has type S(int,5) where [int]g+1 is expected (rank 0 where rank at least 1 is expected)" },
    { "each(addi,[1])", "error: each: argument 1 has type [int]0 -> [int]0 -> [int]0 where [int]0 -> [b]0 is expected" },
    { "cat([1,2],5)", "error: cat: argument 2 has type S(int,5) where [int]1 is expected (rank 0 where rank 1 is expected)" },
    { "dropV(3,[1,2])", "error: dropV: argument 2 has type <int>2 where <int>h+3 is expected" },
    { "dropV(~1,[1,2])", "error: dropV: the arguments do not fix the shape of the result (lengths cannot be negative)" },
    { "if 1 then 1 else 2", "error: the condition of 'if' has type S(int,1) where [bool]0 is expected" },
    { "fn x:[int]0 => x", "error: the program's value is a function ([int]0 -> [int]0), not an array" },
    /* M6: scan keeps the type; compress, replicate and expand take a vector
       of counts or a mask for an array of any rank (the last axis) */
    { "scan(addi,[1,2,3])", "[int]1" },
    { "scan(subd,reshape0([2,2],[1.0,2.0,3.0,4.0]))", "[double]2" },
    { "scan(lti,[1,2])", "error: scan: argument 1 has type [int]0 -> [int]0 -> [bool]0 where [int]0 -> [int]0 -> [int]0 is expected" },
    { "replicate(0,[2,1],reshape0([2,2],[1,2,3,4]))", "[int]2" },
    { "expand(0.0,[tt,ff],[1.5])", "[double]1" },
    { "compress([tt,ff],reshape0([2,2],[1,2,3,4]))", "[int]2" },
    { "replicate(0,reshape0([1,2],[1,2]),[1,2])", "error: replicate: argument 2 has type [int]2 where [int]1 is expected (rank 2 where rank 1 is expected)" },
    { "expand(0,[1,0],[1])", "error: expand: argument 2 has type <int>2 where [bool]1 is expected" },
    { "each(signd,[~1.5,2.0])", "<int>2" },
    { "zipWith(nandb,[tt],[ff])", "<bool>1" },
    { "transp(reshape0([2,3],iota(6)))", "[int]2" },
    { "takeV(4,[1,2])", "<int>4" },
  };
  for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
    const char *got = type_of(progs[i].prog);
    CHECK(strcmp(got, progs[i].type) == 0, "%s: got %s, expected %s", progs[i].prog, got, progs[i].type);
  }
  return CHECK_DONE("tail");
}
