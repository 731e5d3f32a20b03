/* ops.c — FCL's built-ins in one table (seed 003 Figure 5.4, Figure 5.5 and
   docs/fcl.md §2.6): name, arity, type scheme in the sig syntax, and the rule
   the interpreter follows. In a scheme 'n is an int-or-double variable (the
   overloaded arithmetic of docs/fcl.md §2.5). */
#include "fcl.h"
#include <assert.h>
#include <stdint.h>
#include <string.h>

#define A(k) args[k]

static FValue *prog(FValue *v) { FValue *p = fval_new(FV_PROG); p->x = v; return p; }
static FValue *pull(FPullKind k, long long n, FValue *f, FValue *src) {
  FValue *a = fval_new(FV_PULL); a->sub = k; a->n = n; a->x = f; a->y = src; return a;
}
static FValue *pushv(FPushKind k, long long n) { FValue *p = fval_new(FV_PUSH); p->sub = k; p->n = n; return p; }

static FValue *op_fst(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return A(0)->x; }   /* 5.51 */
static FValue *op_snd(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return A(0)->y; }   /* 5.52 */
static FValue *op_length(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return fval_int(A(0)->n); }   /* 5.59, 5.64–5.67 */

static FValue *op_map(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return pull(PULL_MAP, A(1)->n, A(0), A(1)); }   /* 5.53 */

static FValue *op_generate(FEval *ev, FValue **args, Loc loc) {   /* 5.58 */
  (void)ev;
  if (A(0)->i < 0) return diag_error(loc, "generate: negative length %lld", A(0)->i), NULL;
  return pull(PULL_GEN, A(0)->i, A(1), NULL);
}

static FValue *op_index(FEval *ev, FValue **args, Loc loc) { return fcl_index(ev, A(0), A(1)->i, loc); }   /* 5.60, 5.61 */

static FValue *op_push(FEval *ev, FValue **args, Loc loc) {   /* 5.57 */
  (void)ev; (void)loc;
  FValue *p = pushv(PUSH_PULL, A(0)->n);
  p->x = A(0);
  return p;
}

static FValue *op_mappush(FEval *ev, FValue **args, Loc loc) {   /* 5.68–5.71 */
  (void)ev; (void)loc;
  FValue *p = pushv(PUSH_MAP, A(1)->n);
  p->x = A(0); p->y = A(1);
  return p;
}

static FValue *op_mappushix(FEval *ev, FValue **args, Loc loc) {
  FValue *p = op_mappush(ev, args, loc);
  p->sub = PUSH_MAPIX;
  return p;
}

static FValue *op_force(FEval *ev, FValue **args, Loc loc) {   /* 5.76–5.84 */
  FValue *m = fcl_force(ev, A(0), loc);
  return m ? prog(m) : NULL;
}

static FValue *op_return(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return prog(A(0)); }   /* 5.62 */
static FValue *op_bind(FEval *ev, FValue **args, Loc loc) { return fcl_apply(ev, A(1), A(0)->x, loc); }   /* 5.63 */

static FValue *op_interleave(FEval *ev, FValue **args, Loc loc) {   /* 5.54, 5.55 */
  (void)ev;
  if (A(0)->i < 0) return diag_error(loc, "interleave: negative sub-array length %lld", A(0)->i), NULL;
  FValue *p = pushv(PUSH_INTERLEAVE, A(0)->i * A(2)->n);
  p->i = A(0)->i; p->x = A(1); p->y = A(2);
  return prog(p);
}

static FValue *op_seqfor(FEval *ev, FValue **args, Loc loc) {   /* 5.56 (Figure 5.3's form: a size) */
  (void)ev;
  if (A(0)->i < 0) return diag_error(loc, "seqfor: negative length %lld", A(0)->i), NULL;
  FValue *p = pushv(PUSH_SEQFOR, A(0)->i);
  p->i = A(1)->i; p->x = A(2);
  return p;
}

static FValue *op_seqfor_init(FEval *ev, FValue **args, Loc loc) {   /* 5.56 (Figure 5.4's form) */
  (void)ev; (void)loc;
  FValue *p = pushv(PUSH_SEQFOR, A(0)->n);
  p->i = A(1)->i; p->x = A(2); p->y = A(0);
  return p;
}

static FValue *op_seqfor_read(FEval *ev, FValue **args, Loc loc) { return fcl_index(ev, A(0), A(1)->i, loc); }

/* power, poweri, while (rules 5.87–5.91): the initial push array is forced,
   then each step's push array; a step may not grow the array, as the
   implementation reuses the initial array's memory (§5.3.3) */
static FValue *step_result(FEval *ev, FValue *p, long long cap, const char *op, long long k, Loc loc) {
  FValue *m = p ? fcl_force(ev, p->x, loc) : NULL;
  if (m && m->n > cap)
    return diag_error(loc, "%s: step %lld makes %lld elements from %lld: the steps of %s may not grow the array (§5.3.3)", op, k, m->n,
                      cap, op), NULL;
  return m;
}

static FValue *iterate(FEval *ev, long long n, FValue *f, bool with_i, FValue *init, Loc loc, const char *op) {
  FValue *v = fcl_force(ev, init->x, loc);
  if (!v) return NULL;
  long long cap = v->n;
  for (long long k = 0; k < n; k++) {
    FValue *g = with_i ? fcl_apply(ev, f, fval_int(k), loc) : f;
    if (!g || !(v = step_result(ev, fcl_apply(ev, g, v, loc), cap, op, k, loc))) return NULL;
  }
  return prog(v);
}

static FValue *op_power(FEval *ev, FValue **args, Loc loc) { return iterate(ev, A(0)->i, A(1), false, A(2), loc, "power"); }
static FValue *op_poweri(FEval *ev, FValue **args, Loc loc) { return iterate(ev, A(0)->i, A(1), true, A(2), loc, "poweri"); }

static FValue *op_while(FEval *ev, FValue **args, Loc loc) {
  FValue *v = fcl_force(ev, A(2)->x, loc);
  if (!v) return NULL;
  long long cap = v->n;
  for (long long k = 0;; k++) {
    FValue *c = fcl_apply(ev, A(0), v, loc);
    if (!c) return NULL;
    if (!c->b) return prog(v);
    if (!(v = step_result(ev, fcl_apply(ev, A(1), v, loc), cap, "while", k, loc))) return NULL;
  }
}

/* ---- scalars (Figure 5.5): int is 32 bits and wraps; / and % truncate as in C ---- */
static int32_t wrap(long long x) { return (int32_t)(uint32_t)x; }

static FValue *arith(FValue **args, Loc loc, char op) {
  if (A(0)->kind == FV_DOUBLE) {
    double a = A(0)->d, b = A(1)->d;
    return fval_double(op == '+' ? a + b : op == '-' ? a - b : op == '*' ? a * b : a / b);
  }
  long long a = A(0)->i, b = A(1)->i;
  switch (op) {
  case '+': return fval_int(wrap(a + b));
  case '-': return fval_int(wrap(a - b));
  case '*': return fval_int(wrap((long long)((uint64_t)a * (uint64_t)b)));
  default:
    if (b == 0) return diag_error(loc, "division by zero"), NULL;
    if (a == INT32_MIN && b == -1) return fval_int(op == '/' ? INT32_MIN : 0);
    return fval_int(op == '/' ? a / b : a % b);
  }
}
static FValue *op_add(FEval *ev, FValue **args, Loc loc) { (void)ev; return arith(args, loc, '+'); }
static FValue *op_sub(FEval *ev, FValue **args, Loc loc) { (void)ev; return arith(args, loc, '-'); }
static FValue *op_mul(FEval *ev, FValue **args, Loc loc) { (void)ev; return arith(args, loc, '*'); }
static FValue *op_div(FEval *ev, FValue **args, Loc loc) { (void)ev; return arith(args, loc, '/'); }
static FValue *op_mod(FEval *ev, FValue **args, Loc loc) { (void)ev; return arith(args, loc, '%'); }

static FValue *op_shl(FEval *ev, FValue **args, Loc loc) {
  (void)ev;
  if (A(1)->i < 0 || A(1)->i > 31) return diag_error(loc, "shift by %lld (0 to 31 allowed)", A(1)->i), NULL;
  return fval_int(wrap((long long)((uint64_t)(uint32_t)A(0)->i << A(1)->i)));
}
static FValue *op_shr(FEval *ev, FValue **args, Loc loc) {
  (void)ev;
  if (A(1)->i < 0 || A(1)->i > 31) return diag_error(loc, "shift by %lld (0 to 31 allowed)", A(1)->i), NULL;
  return fval_int(A(0)->i >> A(1)->i);   /* arithmetic, as OpenCL's >> on int */
}

static int compare(FValue *a, FValue *b) {
  switch (a->kind) {
  case FV_DOUBLE: return (a->d > b->d) - (a->d < b->d);
  case FV_BOOL: return (int)a->b - (int)b->b;
  case FV_PAIR: { int c = compare(a->x, b->x); return c ? c : compare(a->y, b->y); }
  default: return (a->i > b->i) - (a->i < b->i);
  }
}
static bool equal(FValue *a, FValue *b) {
  if (a->kind == FV_DOUBLE) return a->d == b->d;   /* NaN ≠ NaN */
  if (a->kind == FV_PAIR) return equal(a->x, b->x) && equal(a->y, b->y);
  return compare(a, b) == 0;
}
static FValue *op_eq(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return fval_bool(equal(A(0), A(1))); }
static FValue *op_ne(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return fval_bool(!equal(A(0), A(1))); }
static bool less(FValue *a, FValue *b) { return a->kind == FV_DOUBLE ? a->d < b->d : a->i < b->i; }
static FValue *op_lt(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return fval_bool(less(A(0), A(1))); }
static FValue *op_le(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return fval_bool(!less(A(1), A(0)) && (A(0)->kind != FV_DOUBLE || A(0)->d == A(0)->d) && (A(1)->kind != FV_DOUBLE || A(1)->d == A(1)->d)); }
static FValue *op_gt(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return fval_bool(less(A(1), A(0))); }
static FValue *op_ge(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return fval_bool(!less(A(0), A(1)) && (A(0)->kind != FV_DOUBLE || A(0)->d == A(0)->d) && (A(1)->kind != FV_DOUBLE || A(1)->d == A(1)->d)); }
static FValue *op_and(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return fval_bool(A(0)->b && A(1)->b); }
static FValue *op_or(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return fval_bool(A(0)->b || A(1)->b); }
static FValue *op_not(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return fval_bool(!A(0)->b); }
static FValue *op_neg(FEval *ev, FValue **args, Loc loc) {
  (void)ev; (void)loc;
  return A(0)->kind == FV_DOUBLE ? fval_double(-A(0)->d) : fval_int(wrap(-A(0)->i));
}
static FValue *op_min(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return less(A(1), A(0)) ? A(1) : A(0); }
static FValue *op_max(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return less(A(0), A(1)) ? A(1) : A(0); }
static FValue *op_i2d(FEval *ev, FValue **args, Loc loc) { (void)ev; (void)loc; return fval_double((double)A(0)->i); }
static FValue *op_d2i(FEval *ev, FValue **args, Loc loc) {
  (void)ev;
  double d = A(0)->d;
  if (!(d > -2147483649.0 && d < 2147483648.0)) return diag_error(loc, "d2i: %g does not fit in an int", d), NULL;
  return fval_int((long long)d);
}

static const FOp ops[] = {
  /* Figure 5.4 */
  { "fst", 1, "forall 'a 'b. ('a, 'b) -> 'a", op_fst, "5.51" },
  { "snd", 1, "forall 'a 'b. ('a, 'b) -> 'b", op_snd, "5.52" },
  { "length", 1, "forall 'a. ['a] -> int", op_length, "5.59" },
  { "lengthPush", 1, "forall <l> 'a. ['a]<l> -> int", op_length, "5.64-5.67" },
  { "map", 2, "forall 'a 'b. ('a -> 'b) -> ['a] -> ['b]", op_map, "5.53" },
  { "mapPush", 2, "forall <l> 'a 'b. ('a -> 'b) -> ['a]<l> -> ['b]<l>", op_mappush, "5.68-5.71" },
  { "mapPushIx", 2, "forall <l> 'a 'b. (int -> 'a -> 'b) -> ['a]<l> -> ['b]<l>", op_mappushix, "§5.4.2" },
  { "generate", 2, "forall 'a. int -> (int -> 'a) -> ['a]", op_generate, "5.58" },
  { "index", 2, "forall 'a. ['a] -> int -> 'a", op_index, "5.60, 5.61" },
  { "push", 1, "forall <l> 'a. ['a] -> ['a]<l>", op_push, "5.57" },
  { "force", 1, "forall <l> 'a. ['a]<l> -> Program<l> ['a]", op_force, "5.76-5.84" },
  { "return", 1, "forall <l> 'a. 'a -> Program<l> 'a", op_return, "5.62" },
  { "bind", 2, "forall <l> 'a 'b. Program<l> 'a -> ('a -> Program<l> 'b) -> Program<l> 'b", op_bind, "5.63" },
  { "interleave", 3, "forall <l> 'a. int -> ((int, int) -> int) -> [Program<l> ['a]<l>] -> Program<1+l> ['a]<1+l>",
    op_interleave, "5.54, 5.83, 5.84" },
  { "interleaveSeq", 3, "forall <l> 'a. int -> ((int, int) -> int) -> [Program<l> ['a]<l>] -> Program<l> ['a]<l>",
    op_interleave, "5.55" },
  { "power", 3, "forall <l> 'a. int -> (['a] -> Program<l> ['a]<l>) -> Program<l> ['a]<l> -> Program<l> ['a]", op_power,
    "5.87, 5.88" },
  { "poweri", 3, "forall <l> 'a. int -> (int -> ['a] -> Program<l> ['a]<l>) -> Program<l> ['a]<l> -> Program<l> ['a]",
    op_poweri, "5.87, 5.88" },
  { "while", 3, "forall <l> 'a. (['a] -> bool) -> (['a] -> Program<l> ['a]<l>) -> Program<l> ['a]<l> -> Program<l> ['a]",
    op_while, "5.89-5.91" },
  { "seqfor", 3, "forall 'a. int -> int -> ((int -> 'a) -> int -> (int, 'a)) -> ['a]<thread>", op_seqfor, "5.56, 5.78-5.80" },
  { "seqforInit", 3, "forall 'a. ['a]<thread> -> int -> ((int -> 'a) -> int -> (int, 'a)) -> ['a]<thread>", op_seqfor_init,
    "5.56, 5.78-5.80" },
  /* Figure 5.5 and docs/fcl.md §2.5 */
  { "+", 2, "'n -> 'n -> 'n", op_add, "5.72" },
  { "-", 2, "'n -> 'n -> 'n", op_sub, "5.72" },
  { "*", 2, "'n -> 'n -> 'n", op_mul, "5.73" },
  { "/", 2, "'n -> 'n -> 'n", op_div, "5.72" },
  { "%", 2, "int -> int -> int", op_mod, "5.72" },
  { "<<", 2, "int -> int -> int", op_shl, "5.72" },
  { ">>", 2, "int -> int -> int", op_shr, "5.72" },
  { "==", 2, "forall 'a:BT. 'a -> 'a -> bool", op_eq, "5.72" },
  { "!=", 2, "forall 'a:BT. 'a -> 'a -> bool", op_ne, "5.72" },
  { "<", 2, "'n -> 'n -> bool", op_lt, "5.72" },
  { "<=", 2, "'n -> 'n -> bool", op_le, "5.72" },
  { ">", 2, "'n -> 'n -> bool", op_gt, "5.72" },
  { ">=", 2, "'n -> 'n -> bool", op_ge, "5.72" },
  { "&&", 2, "bool -> bool -> bool", op_and, "5.72" },
  { "||", 2, "bool -> bool -> bool", op_or, "5.72" },
  { "not", 1, "bool -> bool", op_not, "5.72" },
  { "neg", 1, "'n -> 'n", op_neg, "5.72" },
  { "min", 2, "'n -> 'n -> 'n", op_min, "5.72" },
  { "max", 2, "'n -> 'n -> 'n", op_max, "5.72" },
  { "i2d", 1, "int -> double", op_i2d, "5.72" },
  { "d2i", 1, "double -> int", op_d2i, "5.72" },
  /* internal: the read function seqfor passes to its body (rule 5.79) */
  { "__seqfor_read", 2, "forall 'a. ['a] -> int -> 'a", op_seqfor_read, "5.79" },
};
enum { NOPS = sizeof ops / sizeof ops[0] };

const FOp *fcl_op_at(int i) { return i >= 0 && i < NOPS ? &ops[i] : NULL; }

const FOp *fcl_op_lookup(const char *name) {
  for (int i = 0; i < NOPS; i++) if (!strcmp(ops[i].name, name)) return &ops[i];
  return NULL;
}

/* parsed at each use (not cached: the arena may be released between programs) */
FScheme *fcl_op_scheme(const FOp *op) {
  FScheme *s = fcl_parse_scheme("<built-in>", op->scheme);
  assert(s && "a scheme of the table does not parse");
  for (int k = 0; k < s->ntvars; k++) if (!strcmp(s->tvars[k]->name, "'n")) s->tvars[k]->num = true;
  return s;
}
