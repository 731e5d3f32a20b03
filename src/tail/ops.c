/* ops.c — the table of TAIL operations (docs/apl.md §2.2): name, arity, type
   scheme of Figures 3.2–3.4 written in the type syntax (variables a b for base
   types, g h for ranks and lengths), an optional refined scheme (apltail's
   precise results on refined arguments), the clift scalar primitive, and the
   lowering rule. Adding an operation is one row. */
#include "lower.h"
#include <string.h>

#define II "int -> int -> int"
#define DD "double -> double -> double"
#define IB "int -> int -> bool"
#define DB "double -> double -> bool"
#define CB "char -> char -> bool"
#define BB "bool -> bool -> bool"
#define BIN(n, s, p, a) { n, 2, s, NULL, p, a, lower_binop, NULL }
#define UN(n, s, p) { n, 1, s, NULL, p, false, lower_unop, NULL }
#define PR(n, s) { n, 1, s, NULL, NULL, false, lower_print, NULL }
#define TODO(n, k, s, r) { n, k, s, r, NULL, false, NULL, NULL }

static const TOp ops[] = {
  /* scalar operations */
  BIN("addi", II, "+", true), BIN("subi", II, "-", false), BIN("muli", II, "*", true),
  BIN("divi", II, "/", false), BIN("mini", II, "min", true), BIN("maxi", II, "max", true),
  { "resi", 2, II, NULL, "%", false, lower_res, NULL },
  BIN("addd", DD, "+", true), BIN("subd", DD, "-", false), BIN("muld", DD, "*", true),
  BIN("divd", DD, "/", false), BIN("mind", DD, "min", true), BIN("maxd", DD, "max", true),
  BIN("powd", DD, "pow", false), { "resd", 2, DD, NULL, "%", false, lower_res, NULL },
  { "negi", 1, "int -> int", NULL, "-", false, lower_neg, NULL }, { "negd", 1, "double -> double", NULL, "-", false, lower_neg, NULL },
  UN("absi", "int -> int", "abs"), UN("absd", "double -> double", "abs"),
  { "signi", 1, "int -> int", NULL, NULL, false, lower_sign, NULL }, { "signd", 1, "double -> int", NULL, NULL, false, lower_sign, NULL },
  UN("expd", "double -> double", "exp"), UN("ln", "double -> double", "log"), UN("sqrt", "double -> double", "sqrt"),
  UN("sin", "double -> double", "sin"), UN("cos", "double -> double", "cos"), UN("tan", "double -> double", "tan"),
  { "floor", 1, "double -> int", NULL, "floor", false, lower_round, NULL },
  { "ceil", 1, "double -> int", NULL, "ceil", false, lower_round, NULL },
  BIN("lti", IB, "<", false), BIN("ltei", IB, "<=", false), BIN("eqi", IB, "=", false),
  BIN("neqi", IB, "!=", false), BIN("gti", IB, ">", false), BIN("gtei", IB, ">=", false),
  BIN("ltd", DB, "<", false), BIN("lted", DB, "<=", false), BIN("eqd", DB, "=", false),
  BIN("neqd", DB, "!=", false), BIN("gtd", DB, ">", false), BIN("gted", DB, ">=", false),
  BIN("ltc", CB, "<", false), BIN("ltec", CB, "<=", false), BIN("eqc", CB, "=", false),
  BIN("neqc", CB, "!=", false), BIN("gtc", CB, ">", false), BIN("gtec", CB, ">=", false),
  BIN("andb", BB, "and", true), BIN("orb", BB, "or", true), BIN("xorb", BB, "!=", true),
  BIN("eqb", BB, "=", true), { "nandb", 2, BB, NULL, "and", false, lower_notbin, NULL },
  { "norb", 2, BB, NULL, "or", false, lower_notbin, NULL },
  UN("notb", "bool -> bool", "not"),
  /* apltail's arc and hyperbolic functions; asinh acosh atanh ours (APL's ¯5 ¯6 ¯7○) */
  UN("asin", "double -> double", "asin"), UN("acos", "double -> double", "acos"), UN("atan", "double -> double", "atan"),
  UN("sinh", "double -> double", "sinh"), UN("cosh", "double -> double", "cosh"), UN("tanh", "double -> double", "tanh"),
  UN("asinh", "double -> double", "asinh"), UN("acosh", "double -> double", "acosh"), UN("atanh", "double -> double", "atanh"),
  /* APL's ! (ours: apltail has none): x! = Γ(x+1), k!n the binomial (clift's factorial, binomial) */
  UN("fact", "double -> double", "factorial"), BIN("binom", DD, "binomial", false),
  /* the bit operations of apltail (§3.5.2; APL's ⎕INT32AND …): shri logical, shari arithmetic */
  BIN("andi", II, "bitand", true), BIN("ori", II, "bitor", true), BIN("xori", II, "bitxor", true),
  BIN("shli", II, "shl", false), BIN("shri", II, "lshr", false), BIN("shari", II, "ashr", false),
  UN("noti", "int -> int", "bitnot"),
  { "i2d", 1, "int -> double", NULL, "i2d", false, lower_i2d, NULL },
  { "b2i", 1, "bool -> int", "S(bool,g) -> S(int,g)", NULL, false, lower_b2i, NULL },
  { "pi", 0, "double", NULL, NULL, false, lower_pi, NULL },
  { "zilde", 0, "<int>0", NULL, NULL, false, NULL, NULL },
  /* Figure 3.2 */
  { "iota", 1, "int -> [int]1", "S(int,g) -> <int>g", NULL, false, lower_iota, NULL },
  { "each", 2, "(a -> b) -> [a]g -> [b]g", "(a -> b) -> <a>g -> <b>g", NULL, false, lower_each, NULL },
  { "zipWith", 3, "(a -> b -> c) -> [a]g -> [b]g -> [c]g", "(a -> b -> c) -> <a>g -> <b>g -> <c>g", NULL, false,
    lower_zipwith, NULL },
  { "reduce", 3, "(a -> a -> a) -> a -> [a]1+g -> [a]g", NULL, NULL, false, lower_reduce, NULL },
  { "scan", 2, "(a -> a -> a) -> [a]g -> [a]g", NULL, NULL, false, lower_scan, NULL },
  /* compress, replicate, expand act on the last axis: the mask or counts are
     a vector (the thesis's [bool]g would be a mask of the array's rank); the
     array is of rank ≥ 1, as drop's: of a scalar, the result would be a vector
     where the type says a scalar (APL's 1 0 1/5 reshapes 5 first; fuzz finding
     of the soak of a30b792, tests/tail/err_compress_scalar.tail) */
  { "compress", 2, "[bool]1 -> [a]g+1 -> [a]g+1", NULL, NULL, false, lower_compress, NULL },
  { "replicate", 3, "a -> [int]1 -> [a]g+1 -> [a]g+1", NULL, NULL, false, lower_replicate, NULL },
  { "expand", 3, "a -> [bool]1 -> [a]g+1 -> [a]g+1", NULL, NULL, false, lower_expand, NULL },
  { "shape", 1, "[a]g -> <int>g", "<a>g -> SV(int,g)", NULL, false, lower_shape, NULL },
  { "reshape0", 2, "<int>h -> [a]g -> [a]h", NULL, NULL, false, lower_reshape, NULL },
  { "reshape", 3, "<int>h -> a -> [a]g -> [a]h", NULL, NULL, false, lower_reshape, NULL },
  { "reverse", 1, "[a]g -> [a]g", "<a>g -> <a>g", NULL, false, lower_reverse, NULL },
  { "vreverse", 1, "[a]g -> [a]g", "<a>g -> <a>g", NULL, false, lower_reverse, NULL },
  { "rotate", 2, "int -> [a]g -> [a]g", "int -> <a>g -> <a>g", NULL, false, lower_rotate, NULL },
  { "vrotate", 2, "int -> [a]g -> [a]g", "int -> <a>g -> <a>g", NULL, false, lower_vrotate, NULL },
  { "transp", 1, "[a]g -> [a]g", NULL, NULL, false, lower_transp, NULL },
  { "transp2", 2, "<int>g -> [a]g -> [a]g", NULL, NULL, false, lower_transp2, tail_check_permutation },
  { "take", 3, "int -> a -> [a]g -> [a]g", NULL, NULL, false, lower_take, NULL },
  { "drop", 2, "int -> [a]g+1 -> [a]g+1", "S(int,g) -> <a>g+h -> <a>h", NULL, false, lower_drop, NULL },
  { "first", 2, "a -> [a]g -> a", "a -> SV(a,g) -> S(a,g)", NULL, false, lower_first, NULL },
  { "cat", 2, "[a]g+1 -> [a]g+1 -> [a]g+1", "<a>g -> <a>h -> <a>g+h", NULL, false, lower_cat, NULL },
  { "cons", 2, "[a]g -> [a]g+1 -> [a]g+1", "a -> <a>g -> <a>1+g", NULL, false, lower_cons, NULL },
  { "snoc", 2, "[a]g+1 -> [a]g -> [a]g+1", "<a>g -> a -> <a>1+g", NULL, false, lower_snoc, NULL },
  /* Figure 3.3 */
  { "shapeV", 1, "<a>g -> SV(int,g)", NULL, NULL, false, lower_shape, NULL },
  { "takeV", 2, "S(int,g) -> [a]1 -> <a>g", NULL, NULL, false, lower_take, NULL },
  { "dropV", 2, "S(int,g) -> <a>g+h -> <a>h", NULL, NULL, false, lower_drop, NULL },
  { "consV", 2, "a -> <a>g -> <a>1+g", NULL, NULL, false, lower_cons, NULL },
  { "snocV", 2, "<a>g -> a -> <a>1+g", NULL, NULL, false, lower_snoc, NULL },
  { "catV", 2, "<a>g -> <a>h -> <a>g+h", NULL, NULL, false, lower_cat, NULL },
  { "firstV", 1, "SV(a,g) -> S(a,g)", NULL, NULL, false, lower_first, NULL },
  { "iotaV", 1, "S(int,g) -> <int>g", NULL, NULL, false, lower_iota, NULL },
  { "rotateV", 2, "int -> <a>g -> <a>g", NULL, NULL, false, lower_rotate, NULL },
  { "reverseV", 1, "<a>g -> <a>g", NULL, NULL, false, lower_reverse, NULL },
  /* Figure 3.4 (the store-free part) */
  { "index", 2, "int -> [a]g+1 -> [a]g", NULL, NULL, false, lower_index, NULL },
  { "power", 3, "([a]g -> [a]g) -> int -> [a]g -> [a]g", NULL, NULL, false, lower_power, NULL },
  /* printing (apltail's names): APL's ⎕←, the value unchanged; lowered only as
     the bound value of a top-level let (an output of the program, §4) */
  PR("prArrI", "[int]g -> [int]g"), PR("prArrD", "[double]g -> [double]g"),
  PR("prArrB", "[bool]g -> [bool]g"), PR("prArrC", "[char]g -> [char]g"),
  PR("prSclI", "int -> int"), PR("prSclD", "double -> double"),
  PR("prSclB", "bool -> bool"), PR("prSclC", "char -> char"),
};
enum { NOPS = sizeof ops / sizeof ops[0] };

bool tail_op_is_print(const TOp *op) { return op && op->lower == lower_print; }

const TOp *tail_op_at(int i) { return i >= 0 && i < NOPS ? &ops[i] : NULL; }

const TOp *tail_op_lookup(const char *name) {
  for (int i = 0; i < NOPS; i++) if (strcmp(ops[i].name, name) == 0) return &ops[i];
  return NULL;
}

/* Parsed at each use (a few tokens; the arena is released between files, so
   nothing is cached); a malformed row is a bug of this table. */
TType *tail_op_scheme(const TOp *op, bool refined) {
  TType *t = tail_parse_type_text(refined ? op->refined : op->scheme, true);
  if (!t) diag_internal(LOC_NONE, "TAIL scheme of '%s' does not parse", op->name);
  return t;
}
