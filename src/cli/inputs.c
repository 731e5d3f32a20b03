/* inputs.c — reading the program's inputs and binding its size variables
   (SPEC §2, §7, §8): N is the length of the first array whose type mentions N;
   every other mention, and every run-time size condition the type checker
   left, is checked before anything runs, with a message naming the input. */
#include "driver.h"
#include <string.h>

typedef struct Binder {
  Program *prog;
  NatBinding *nats;
  const char **bound_by;     /* per size variable: the input that fixed it */
} Binder;

static bool lookup(void *ctx, NatVar *v, long long *value) {
  for (NatBinding *b = ((Binder *)ctx)->nats; b; b = b->next)
    if (b->var == v) { *value = b->value; return true; }
  return false;
}

static void bind(Binder *bd, NatVar *v, long long value) {
  NatBinding *b = NEW(NatBinding);
  b->var = v; b->value = value; b->next = bd->nats;
  bd->nats = b;
}

static int size_index(Program *p, NatVar *v) {
  for (int i = 0; i < p->nsizes; i++) if (p->sizes[i] == v) return i;
  return -1;
}

static const char *input_name(Program *p, int i) {
  return arena_printf("input %d (%s)", i + 1, p->params[i].name);
}

/* Find the one unbound size variable of `len`, if there is exactly one. */
static NatVar *single_unbound(Binder *bd, Nat *len) {
  int n, found = 0;
  NatVar **vars = nat_free_var_list(len, &n), *u = NULL;
  long long dummy;
  for (int i = 0; i < n; i++)
    if (size_index(bd->prog, vars[i]) >= 0 && !lookup(bd, vars[i], &dummy)) { u = vars[i]; found++; }
  return found == 1 ? u : NULL;
}

/* Bind an unbound size variable from an observed length: directly for `N`,
   by search for lengths such as (* 2 N) (sizes grow with their variables). */
static bool bind_from(Binder *bd, Nat *len, long long n, int input) {
  NatVar *v = single_unbound(bd, len);
  if (!v) return true;
  if (n == 0 && len->kind == NAT_VAR)   /* size variables are at least 1 (SPEC §3.1) */
    return diag_error(LOC_NONE, "%s: an empty array, but its length is the size variable %s, which is at least 1",
                      input_name(bd->prog, input), v->name);
  long long lo = 1, hi = 1LL << 40;
  while (lo < hi) {
    long long mid = lo + (hi - lo) / 2, val;
    bind(bd, v, mid);
    bool ok = nat_eval(len, lookup, bd, &val);
    bd->nats = bd->nats->next;
    /* a length that cannot be computed at mid overflowed 64 bits (N*(N+1)/2 at
       N = 2^39): too large, as lengths grow with their variables */
    if (!ok || val >= n) hi = mid; else lo = mid + 1;
  }
  bind(bd, v, lo);
  long long at_lo;
  if (!nat_eval(len, lookup, bd, &at_lo)) {   /* not computable (a division by zero): left unbound */
    bd->nats = bd->nats->next;
    return true;
  }
  bd->bound_by[size_index(bd->prog, v)] = input_name(bd->prog, input);
  long long got;
  if (len->kind != NAT_VAR && nat_eval(len, lookup, bd, &got) && got != n) {
    Buf b = {0};
    nat_print_c(&b, len);
    return diag_error(LOC_NONE, "%s: %lld elements, but no value of %s gives the length %s", input_name(bd->prog, input),
                      n, v->name, buf_str(&b));
  }
  return true;
}

static const char *describe_sizes(Binder *bd, Nat *len);

/* A position-dependent array read from .npy: its scalars row after row, a flat
   1-D value for a type of arrays of arrays (a literal is never flat there). */
static bool is_packed(Type *t, Value *v) {
  return t->kind == TY_ARRAY && value_npy_packed(t) && value_is_flat(v) && v->rank == 1;
}

/* The number of scalars of a value of type t: Σ over the positions of a
   position-dependent level (SPEC §3.5), in closed form where there is one. */
static Nat *packed_count(Type *t) {
  if (t->kind != TY_ARRAY) return nat_const(1);
  Nat *row = packed_count(t->elem);
  if (!t->index || !nat_mentions(row, t->index)) return nat_mul(t->len, row);
  NatVar *k = nat_var_new("k", nat_const(0), NULL);
  return nat_sum(k, nat_const(0), t->len, nat_subst(row, t->index, nat_var(k)));
}

/* The rows of a packed value, once the sizes are bound: a level whose
   elements are regular arrays of scalars (or scalars) is a flat view of the
   packed scalars; a position-dependent level boxes its rows. */
static Value *unpack(Binder *bd, Type *t, Value *packed, int64_t *at, int input) {
  if (t->kind != TY_ARRAY) return value_elem(packed, (*at)++);
  long long n;
  if (!nat_eval(t->len, lookup, bd, &n) || n < 0) {
    diag_error(LOC_NONE, "%s: cannot determine the size %s from the inputs", input_name(bd->prog, input), nat_to_string(t->len));
    return NULL;
  }
  ValueKind leaf;
  int rank;
  if (!(t->index && type_mentions(t->elem, t->index)) && value_flat_elem_type(t->elem, &leaf, &rank) && leaf == packed->leaf) {
    int64_t *shape = NEW_ARRAY(int64_t, rank + 1), cells = n;
    shape[0] = n;
    Type *e = t->elem;
    for (int d = 1; d <= rank; d++, e = e->elem) {
      long long len;
      if (!nat_eval(e->len, lookup, bd, &len) || len < 0) return unpack(bd, e, packed, at, input);   /* reports it */
      cells *= shape[d] = len;
    }
    Value *v = value_flat_over(leaf, rank + 1, shape, packed->raw + (size_t)*at * value_scalar_size(leaf));
    *at += cells;
    return v;
  }
  Value *v = value_array(n);
  for (long long k = 0; k < n; k++) {
    if (t->index) bind(bd, t->index, k);
    v->elems[k] = unpack(bd, t->elem, packed, at, input);
    if (t->index) bd->nats = bd->nats->next;
    if (!v->elems[k]) return NULL;
  }
  return v;
}

/* A packed input must hold exactly Σ scalars at the bound sizes. */
static Value *unpack_input(Binder *bd, Type *t, Value *v, int input) {
  long long want;
  Nat *count = packed_count(t);
  if (!nat_eval(count, lookup, bd, &want))
    return diag_error(LOC_NONE, "%s: cannot determine the size %s from the inputs", input_name(bd->prog, input),
                      nat_to_string(count)), NULL;
  if (v->n != want)
    return diag_error(LOC_NONE, "%s: the .npy holds %lld packed elements, but %s needs %s = %lld%s",
                      input_name(bd->prog, input), (long long)v->n, type_to_string(t), nat_to_string(count), want,
                      describe_sizes(bd, count)), NULL;
  int64_t at = 0;
  return unpack(bd, t, v, &at, input);
}

static bool bind_sizes(Binder *bd, Type *t, Value *v, int input) {
  if (t->kind == TY_EXISTS) t = t->array;
  if (v && is_packed(t, v)) return bind_from(bd, packed_count(t), v->n, input);
  if (t->kind == TY_TUPLE && v && v->kind == VAL_TUPLE && v->n == t->n) {   /* the arrays inside a tuple */
    for (int k = 0; k < t->n; k++) if (!bind_sizes(bd, t->fields[k], v->elems[k], input)) return false;
    return true;
  }
  if (t->kind != TY_ARRAY || !v || v->kind != VAL_ARRAY) return true;
  if (!bind_from(bd, t->len, v->n, input)) return false;
  Value tmp;
  return v->n == 0 || bind_sizes(bd, t->elem, value_elem_at(v, 0, &tmp), input);
}

static const char *describe_sizes(Binder *bd, Nat *len) {
  int n;
  NatVar **vars = nat_free_var_list(len, &n);
  Buf b = {0};
  for (int i = 0; i < n; i++) {
    long long val;
    int k = size_index(bd->prog, vars[i]);
    if (k < 0 || !lookup(bd, vars[i], &val)) continue;
    buf_printf(&b, "%s%s = %lld from %s", b.len ? ", " : " (", vars[i]->name, val, bd->bound_by[k]);
  }
  if (b.len) buf_putc(&b, ')');
  return buf_str(&b);
}

static bool type_has_index(Type *t) {
  for (; t->kind == TY_ARRAY; t = t->elem) if (t->index) return true;
  return false;
}

/* Every array length in the value must match its type under the bindings. */
static bool holds_array(Type *t) {
  if (t->kind == TY_ARRAY || t->kind == TY_EXISTS) return true;
  for (int k = 0; t->kind == TY_TUPLE && k < t->n; k++) if (holds_array(t->fields[k])) return true;
  return false;
}

static bool check_lengths(Binder *bd, Type *t, Value *v, int input, const char *path) {
  if (t->kind == TY_EXISTS) t = t->array;
  if (t->kind == TY_TUPLE && v->kind == VAL_TUPLE && v->n == t->n) {
    for (int k = 0; k < t->n; k++)
      if (holds_array(t->fields[k]) &&
          !check_lengths(bd, t->fields[k], v->elems[k], input, arena_printf("%s field %d", path[0] ? path : "the tuple", k + 1)))
        return false;
    return true;
  }
  if (t->kind != TY_ARRAY) return true;
  long long want;
  if (!nat_eval(t->len, lookup, bd, &want))
    return diag_error(LOC_NONE, "%s: cannot determine the size %s from the inputs", input_name(bd->prog, input), nat_to_string(t->len));
  if (v->n != want)
    return diag_error(LOC_NONE, "%s: %s has %lld elements but its type %s needs %lld%s",
                      input_name(bd->prog, input), path[0] ? path : "the array", (long long)v->n,
                      type_to_string(t), want, describe_sizes(bd, t->len));
  if (!holds_array(t->elem)) return true;
  /* the rows of a flat array all have one shape: for a type without positions
     (no i -> …) checking one row checks them all, and 10^7 rows cost nothing */
  int64_t rows = value_is_flat(v) && !type_has_index(t) && v->n ? 1 : v->n;
  for (int64_t i = 0; i < rows; i++) {
    Value tmp;
    if (t->index) bind(bd, t->index, i);
    bool ok = check_lengths(bd, t->elem, value_elem_at(v, i, &tmp), input, arena_printf("%s[%lld]", path[0] ? path : "row", (long long)i));
    if (t->index) bd->nats = bd->nats->next;
    if (!ok) return false;
  }
  return true;
}

static Value *read_one(Program *p, int i, const char *arg, const char *base_dir) {
  const char *what = input_name(p, i);
  Type *t = p->params[i].type;
  size_t len = strlen(arg);
  bool is_file = arg[0] == '@' || (len > 4 && strcmp(arg + len - 4, ".npy") == 0);
  const char *path = arg[0] == '@' ? arg + 1 : arg;
  if (is_file && base_dir && path[0] != '/') path = arena_printf("%s/%s", base_dir, path);
  if (arg[0] != '@' && is_file) return value_read_npy(path, t, what);
  if (arg[0] == '@') return value_parse_file(path, t, what);
  return value_parse(arg, t, what);
}

/* One condition under the bindings; `at` names the positions it was taken at. */
static bool check_one(Binder *bd, SizeCheck *c, const char *at) {
  long long l, r;
  if (!nat_eval(c->lhs, lookup, bd, &l) || !nat_eval(c->rhs, lookup, bd, &r)) return true;
  bool ok = c->kind == CHECK_DIVIDES ? r != 0 && l % r == 0 : l <= r;
  if (ok) return true;
  const char *sizes = describe_sizes(bd, c->kind == CHECK_NONNEG ? c->rhs : c->kind == CHECK_DIVIDES ? c->lhs : nat_add(c->lhs, c->rhs));
  if (at[0]) sizes = sizes[0] ? arena_printf(" (at %s;%s", at, sizes + 2) : arena_printf(" (at %s)", at);
  if (c->kind == CHECK_NONNEG) return diag_error(c->loc, "%s is negative: %lld%s", c->what, r, sizes);
  if (c->kind == CHECK_DIVIDES)
    return diag_error(c->loc, "%s needs the length %s = %lld to be a multiple of %lld%s", c->what, nat_to_string(c->lhs), l, r, sizes);
  return diag_error(c->loc, "%s: needs %s <= %s, but %lld > %lld%s", c->what, nat_to_string(c->lhs), nat_to_string(c->rhs), l, r, sizes);
}

enum { POSITION_BUDGET = 1 << 20 };

/* A condition that mentions positions (the i of a row of [i -> T]n, the index
   of a nat-fn) must hold at each of them: they are enumerated over their
   ranges, a position whose range mentions another after it, at most
   POSITION_BUDGET points in all (beyond that the check is left to the run). */
static bool check_positions(Binder *bd, SizeCheck *c, NatVar **vars, int n, const char *at, long long *budget) {
  long long dummy;
  int k = -1;
  for (int i = 0; i < n && k < 0; i++) {
    if (lookup(bd, vars[i], &dummy)) continue;
    long long lo, hi;
    if (vars[i]->hi && nat_eval(vars[i]->hi, lookup, bd, &hi) && (!vars[i]->lo || nat_eval(vars[i]->lo, lookup, bd, &lo))) k = i;
  }
  bool unbound = false;
  for (int i = 0; i < n; i++) if (!lookup(bd, vars[i], &dummy)) unbound = true;
  if (!unbound) return --*budget < 0 || check_one(bd, c, at);
  if (k < 0) return true;   /* a position with no known range: left to the run */
  long long lo = 0, hi;
  if (vars[k]->lo) nat_eval(vars[k]->lo, lookup, bd, &lo);
  nat_eval(vars[k]->hi, lookup, bd, &hi);
  for (long long v = lo; v <= hi && *budget >= 0; v++) {
    bind(bd, vars[k], v);
    bool ok = check_positions(bd, c, vars, n, arena_printf("%s%s%s = %lld", at, at[0] ? ", " : "", vars[k]->name, v), budget);
    bd->nats = bd->nats->next;
    if (!ok) return false;
  }
  return true;
}

static bool check_conditions(Binder *bd) {
  for (SizeCheck *c = bd->prog->checks; c; c = c->next) {
    int nl, nr;
    NatVar **l = nat_free_var_list(c->lhs, &nl), **r = nat_free_var_list(c->rhs, &nr);
    NatVar **vars = NEW_ARRAY(NatVar *, nl + nr + 1);
    int n = 0;
    for (int i = 0; i < nl + nr; i++) {
      NatVar *v = i < nl ? l[i] : r[i - nl];
      bool seen = false;
      for (int j = 0; j < n; j++) seen |= vars[j] == v;
      if (!seen) vars[n++] = v;
    }
    long long budget = POSITION_BUDGET;
    if (!check_positions(bd, c, vars, n, "", &budget)) return false;
  }
  return true;
}

void driver_bind_value_sizes(const Program *p, Value **inputs, NatBinding **sizes) {
  for (int k = 0; k < p->nsizes; k++) {
    int i = program_size_param(p, k);
    if (i < 0 || !inputs[i]) continue;
    int32_t v = inputs[i]->kind == VAL_INT ? inputs[i]->s.i : 1;
    if (inputs[i]->kind == VAL_RAW && inputs[i]->n == (int64_t)sizeof v) memcpy(&v, inputs[i]->raw, sizeof v);
    NatBinding *b = NEW(NatBinding);
    *b = (NatBinding){ p->sizes[k], v > 1 ? v : 1, *sizes };
    *sizes = b;
  }
}

Value **driver_read_inputs(Program *p, int n, const char **args, const char *base_dir, NatBinding **sizes) {
  if (n != p->nparams) {
    Buf b = {0};
    buf_printf(&b, "expected %d input%s (", p->nparams, p->nparams == 1 ? "" : "s");
    for (int i = 0; i < p->nparams; i++)
      buf_printf(&b, "%s%s : %s", i ? ", " : "", p->params[i].name, type_to_string(p->params[i].type));
    buf_printf(&b, "), found %d", n);
    diag_error(LOC_NONE, "%s", buf_str(&b));
    return NULL;
  }
  Value **vals = NEW_ARRAY(Value *, n);
  for (int i = 0; i < n; i++) if (!(vals[i] = read_one(p, i, args[i], base_dir))) return NULL;
  Binder bd = { p, NULL, NEW_ARRAY(const char *, p->nsizes) };
  /* passes until nothing new is bound: (+ N M) is solved once a later input fixed M */
  for (int pass = 0; pass <= p->nsizes; pass++) {
    NatBinding *before = bd.nats;
    for (int i = 0; i < n; i++) if (!bind_sizes(&bd, p->params[i].type, vals[i], i)) return NULL;
    if (bd.nats == before) break;
  }
  for (int i = 0; i < n; i++)
    if (is_packed(p->params[i].type, vals[i]) && !(vals[i] = unpack_input(&bd, p->params[i].type, vals[i], i))) return NULL;
  for (int i = 0; i < n; i++) if (!check_lengths(&bd, p->params[i].type, vals[i], i, "")) return NULL;
  driver_bind_value_sizes(p, vals, &bd.nats);   /* before the conditions, which may name them */
  if (!check_conditions(&bd)) return NULL;
  *sizes = bd.nats;
  return vals;
}
