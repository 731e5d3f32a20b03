/* compile.c — FCL onto clift's kernels (issue 15 M2, docs/fcl.md §6): a
   monomorphised program (mono.c), specialised to the shapes and scalar values
   of its inputs, is evaluated at compile time over symbolic values; what only
   the run can know (array elements, loop indices) becomes kernel code
   (dpia/kernel.h), which the plan (dpia/plan.c) cuts into device kernels.
     - every length is a compile-time constant; ints that index arrays carry
       their value as a nat when it is one (loop variables and + - * / % of
       them), so bounds are proved where the nat arithmetic can;
     - a pull array is a length and a way to compute element i (a buffer, a
       function, a map), as in the interpreter; an element is computed where
       it is indexed;
     - a push array is its writer, emitted through an acceptor (store into a
       buffer, map the value, move the index by interleave's function):
       push<thread|block|grid> a sequential, work-item (mapLcl) or
       work-group-wide (mapGlb) loop, interleave<thread> a mapLcl loop over
       the threads' programs, interleave<block> a mapWrg loop over the blocks'
       programs, seqfor a sequential loop over a private array;
     - force<grid> a global temporary written by top-level statements (the
       plan's kernel boundary), force<block> local memory (barriers by
       plan_insert_barriers), force<thread> a private array;
     - while/power/poweri: their conditions and counts are known at compile
       time (lengths), so the steps are unrolled over two buffers of the
       initial length (at grid level, each step its own kernels).
   What cannot be compiled so is refused (DIAG_UNSUPPORTED) before any code
   is generated. */
#include "compile.h"
#include "../util/switches.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_UNROLL = 4096, MAX_PRIVATE = 4096, MAX_DEPTH = 3000 };

typedef enum { CV_INT, CV_DOUBLE, CV_BOOL, CV_UNIT, CV_PAIR, CV_CLOSURE, CV_OP, CV_PULL, CV_PUSH, CV_PROG } CVKind;
typedef enum { P_BUF, P_GEN, P_MAP } PullKind;
typedef enum { W_PULL, W_INTERLEAVE, W_INTERLEAVE_SEQ, W_SEQFOR, W_MAP, W_MAPIX } PushKind;

typedef struct CVal CVal;
typedef struct CEnv { const char *name; CVal *v; struct CEnv *next; } CEnv;
typedef struct Store Store;

struct CVal {
  CVKind kind;
  bool dyn;                 /* INT, DOUBLE, BOOL: known at run time only (e) */
  long long i; double d;    /* static INT and BOOL (i), DOUBLE (d) */
  CExp *e; Nat *nat;        /* dynamic: the expression; an int's value as a nat, when known */
  CVal *x, *y;              /* PAIR; PULL: f, src; PUSH: f, sub-arrays / source; PROG: x */
  FExp *fn; CEnv *env;      /* CLOSURE */
  const FOp *op; CVal **args; int nargs; int lvl;   /* OP: so far, and its instance level */
  long long n;              /* PULL, PUSH: length */
  int sub;                  /* PullKind, PushKind */
  int level;                /* PUSH: the level of its writer */
  Store *st;                /* PULL P_BUF: where its elements are */
  Nat *off;                 /* P_BUF: element k at st->buf[off + k * stride] */
  int ndims; long long *dims;   /* P_BUF: the array's shape (dims[0] = n) */
  Type *elem;               /* P_BUF: the scalar or tuple stored */
  long long k;              /* INTERLEAVE: elements per sub-program; SEQFOR: iterations */
};

typedef struct Loop { NatVar *var; long long count; struct Loop *outer; } Loop;

/* A write through interleave's index function: its index (a nat of the loops
   around it) and those loops, innermost first; verified at compile time. */
typedef struct WSite { Nat *at; Loop *loops; Loc loc; struct WSite *next; } WSite;

/* A buffer and the slice of it a store writes: element i at base + i. */
struct Store {
  Buffer *buf;
  long long n;              /* its length: writes are checked against it */
  long long cap;            /* the elements allocated (while/power: the initial length) */
  Nat *base;
  Type *elem;               /* set by the first write */
  KStmt *decl;              /* a private array's declaration (its type set then) */
  Type *outer;              /* local buffers: the per-group dimensions around [elem]n */
  Nat **outer_counts; int nouter;
  bool is_out;              /* the program's result */
  Loop *made_in;            /* the loops around its creation: each of their iterations has a copy */
  WSite *sites;             /* writes whose index interleave computed */
  Store *flags;             /* seqfor: a private array of written flags */
  bool verify;
  struct Cx *pending;       /* local arrays: the buffer is chosen at the first write (store_type) */
  Loop *groups;             /* local arrays: the group loops around it (its copies) */
};


/* A local buffer of a block-level iteration's step (iterate): free again when
   the step ends, and then reused by a later local array of the same type in
   the same work-group loops (docs/fcl.md §6.2). */
typedef struct LocalBuf { Buffer *b; Loop *groups; struct LocalBuf *next; } LocalBuf;

typedef struct Cx {
  Kernel *k;
  LocalBuf *acquired;       /* every local buffer given to a store, newest first */
  LocalBuf *pool;           /* the free ones */
  KStmt *block;             /* where statements go */
  int level;                /* what runs here: 2 the host (grid), 1 a work-group, 0 a thread */
  Loop *groups;             /* the mapGlb/mapWrg loops around (local buffers' copies) */
  Loop *loops;              /* every loop around, innermost first */
  long long block_size;
  int fresh, depth;
  Value **args; int nargs;  /* the runtime's inputs: the array inputs' values, in parameter order */
} Cx;

typedef enum { A_STORE, A_MAP, A_MAPIX, A_MOVE } AccKind;
typedef struct Acc {
  AccKind kind;
  bool moved;               /* an interleave's index function is on the way to the store */
  Store *st;                /* STORE */
  CVal *f;                  /* MAP: f v; MAPIX: f i v; MOVE: the index f (g, i) */
  CVal *g;                  /* MOVE: the sub-program's number */
  struct Acc *inner;
} Acc;

static CVal *eval(Cx *cx, CEnv *env, FExp *e);
static CVal *apply(Cx *cx, CVal *f, CVal *arg, Loc loc);
static CVal *index_at(Cx *cx, CVal *arr, CVal *i, Loc loc);
static bool emit_push(Cx *cx, CVal *p, Acc *acc, Loc loc);

static const char *fresh(Cx *cx, const char *stem) { return arena_printf("%s%d", stem, cx->fresh++); }

static CVal *cv(CVKind k) { CVal *v = NEW(CVal); v->kind = k; return v; }
static CVal *cv_int(long long i) { CVal *v = cv(CV_INT); v->i = (int32_t)(uint32_t)i; return v; }
static CVal *cv_bool(bool b) { CVal *v = cv(CV_BOOL); v->i = b; return v; }
static CVal *cv_double(double d) { CVal *v = cv(CV_DOUBLE); v->d = d; return v; }
static CVal *cv_pair(CVal *a, CVal *b) { CVal *v = cv(CV_PAIR); v->x = a; v->y = b; return v; }
static CVal *cv_prog(CVal *x) { CVal *v = cv(CV_PROG); v->x = x; return v; }

static bool is_scalar(CVal *v) { return v->kind == CV_INT || v->kind == CV_DOUBLE || v->kind == CV_BOOL; }
static TypeKind scalar_kind(CVal *v) { return v->kind == CV_INT ? TY_INT : v->kind == CV_DOUBLE ? TY_DOUBLE : TY_BOOL; }

/* an int whose value fits a nat that nat arithmetic keeps exact (|v| < 2^31) */
static bool nat_fits(Nat *n) {
  long long lo, hi;
  return nat_is_const(nat_min_of(n), &lo) && nat_is_const(nat_max_of(n), &hi) && lo >= -2147483647LL && hi <= 2147483647LL;
}

static CVal *cv_dyn(CVKind k, CExp *e) { CVal *v = cv(k); v->dyn = true; v->e = e; return v; }

static CVal *cv_nat(Nat *n) {
  long long c;
  if (nat_is_const(n, &c)) return cv_int(c);
  CVal *v = cv_dyn(CV_INT, cexp_nat(n));
  v->nat = n;
  return v;
}

static CExp *lit(CVal *v) {
  CExp *e = cexp_lit_int(v->i);
  e->type = type_scalar(scalar_kind(v));
  if (v->kind == CV_DOUBLE) e->fval = v->d;
  return e;
}

static CExp *cexp_of(CVal *v) { return v->dyn ? v->e : lit(v); }

/* the value of an int as a nat, when it has one */
static Nat *nat_of(CVal *v) {
  if (v->kind != CV_INT) return NULL;
  if (!v->dyn) return nat_const(v->i);
  return v->nat;
}

static CExp *op2(ScalarOp op, Type *t, CExp *a, CExp *b) { return cexp_op(op, t, 2, (CExp *[]){ a, b }); }

static void emit(Cx *cx, KStmt *s) { kstmt_add(cx->block, s); }

/* a dynamic scalar worth a variable (read more than once, or computed) */
static CVal *named(Cx *cx, CVal *v) {
  if (v->kind == CV_PAIR) return cv_pair(named(cx, v->x), named(cx, v->y));
  if (!is_scalar(v) || !v->dyn || v->nat || v->e->kind == CE_VAR || v->e->kind == CE_LIT) return v;
  KStmt *d = NEW(KStmt);
  d->kind = KS_DECL; d->name = fresh(cx, "v"); d->type = v->e->type; d->init = v->e;
  emit(cx, d);
  return cv_dyn(v->kind, cexp_var(d->name, d->type));
}

static Type *type_of_val(CVal *v, Loc loc) {
  if (is_scalar(v)) return type_scalar(scalar_kind(v));
  if (v->kind == CV_PAIR && is_scalar(v->x) && is_scalar(v->y)) return type_tuple2(type_of_val(v->x, loc), type_of_val(v->y, loc));
  return diag_unsupported(loc, "an array of nested pairs (only scalars and pairs of scalars are stored)"), NULL;
}

/* ---- stores: global, local and private arrays ---- */

static Store *store_new(Cx *cx, int level, long long n, Loc loc) {
  Store *st = NEW(Store);
  st->n = n;
  st->cap = n;
  st->made_in = cx->loops;
  Buffer *b = NEW(Buffer);
  st->buf = b;
  st->base = nat_const(0);
  long long alloc = n > 0 ? n : 1;
  if (level == 0) {
    if (n > MAX_PRIVATE)
      return diag_unsupported(loc, "an array of %lld elements in one thread's private memory (at most %d)", n, MAX_PRIVATE), NULL;
    b->name = fresh(cx, "priv");
    b->space = SPACE_PRIVATE;
    KStmt *d = NEW(KStmt);
    d->kind = KS_DECL; d->buf = b; d->name = b->name;
    st->decl = d;
    emit(cx, d);
    return st;
  }
  b->name = fresh(cx, level == 1 ? "loc" : "tmp");
  b->space = level == 1 ? SPACE_LOCAL : SPACE_GLOBAL;
  if (level == 1) { st->pending = cx; st->groups = cx->groups; }   /* a free buffer, or b, at the first write */
  else kernel_add_buffer(cx->k, b);
  if (level == 1) {   /* one copy per work-group: indexed by the enclosing group loops (plan.c drops them) */
    int n_outer = 0;
    for (Loop *l = cx->groups; l; l = l->outer) n_outer++;
    st->nouter = n_outer;
    st->outer_counts = NEW_ARRAY(Nat *, n_outer ? n_outer : 1);
    Nat *base = nat_const(0);
    Loop **ls = NEW_ARRAY(Loop *, n_outer ? n_outer : 1);
    int j = n_outer;
    for (Loop *l = cx->groups; l; l = l->outer) ls[--j] = l;   /* outermost first */
    for (int i = 0; i < n_outer; i++) {
      st->outer_counts[i] = nat_const(ls[i]->count);
      base = nat_add(nat_mul(base, nat_const(ls[i]->count)), nat_var(ls[i]->var));
    }
    st->base = nat_mul(base, nat_const(alloc));
  }
  return st;
}

/* the element type is known at the first write (or never: then int) */
static bool store_type(Store *st, Type *elem, Loc loc) {
  if (st->elem) {
    if (!type_equal(st->elem, elem)) return diag_internal(loc, "one array written with %s and %s", type_to_string(st->elem), type_to_string(elem));
    return true;
  }
  st->elem = elem;
  if (st->is_out) return true;
  Type *t = type_array(elem, nat_const(st->cap > 0 ? st->cap : 1));
  for (int i = st->nouter - 1; i >= 0; i--) t = type_array(t, st->outer_counts[i]);
  st->buf->type = t;
  if (st->decl) st->decl->type = t;
  if (st->pending) {   /* a local array: a free buffer of this type in these group loops, else its own */
    Cx *cx = st->pending;
    st->pending = NULL;
    LocalBuf **at = &cx->pool;
    while (*at && !((*at)->groups == st->groups && type_equal((*at)->b->type, t))) at = &(*at)->next;
    LocalBuf *lb = *at;
    if (lb) { *at = lb->next; st->buf = lb->b; }
    else { lb = NEW(LocalBuf); *lb = (LocalBuf){ st->buf, st->groups, NULL }; kernel_add_buffer(cx->k, st->buf); }
    lb->next = cx->acquired;
    cx->acquired = lb;
  }
  return true;
}

/* The end of a block-level step: the local buffers acquired since `mark` are
   free, but for the iteration's own two (keep), which stay acquired. */
static void release_since(Cx *cx, LocalBuf *mark, Buffer *keep0, Buffer *keep1) {
  LocalBuf *kept = mark;
  for (LocalBuf *lb = cx->acquired, *next; lb != mark; lb = next) {
    next = lb->next;
    if (lb->b == keep0 || lb->b == keep1) { lb->next = kept; kept = lb; }
    else { lb->next = cx->pool; cx->pool = lb; }
  }
  cx->acquired = kept;
}

static void store_finish(Store *st) { if (!st->elem) store_type(st, type_scalar(TY_INT), LOC_NONE); }

static CVal *read_elem(Store *st, Type *elem, Nat *at) {
  if (elem->kind == TY_TUPLE)
    return cv_pair(cv_dyn(elem->fields[0]->kind == TY_INT ? CV_INT : elem->fields[0]->kind == TY_DOUBLE ? CV_DOUBLE : CV_BOOL,
                          cexp_read(st->buf, at, 0, elem->fields[0])),
                   cv_dyn(elem->fields[1]->kind == TY_INT ? CV_INT : elem->fields[1]->kind == TY_DOUBLE ? CV_DOUBLE : CV_BOOL,
                          cexp_read(st->buf, at, 1, elem->fields[1])));
  return cv_dyn(elem->kind == TY_INT ? CV_INT : elem->kind == TY_DOUBLE ? CV_DOUBLE : CV_BOOL, cexp_read(st->buf, at, -1, elem));
}

static CVal *pull_of_store(Store *st, long long n) {
  CVal *v = cv(CV_PULL);
  v->sub = P_BUF; v->n = n; v->st = st; v->off = st->base;
  v->ndims = 1; v->dims = NEW_ARRAY(long long, 1); v->dims[0] = n;
  store_finish(st);
  v->elem = st->elem;
  return v;
}

/* an index checked against n at run time unless proved in range; NULL + diag */
static Nat *checked_index(Cx *cx, CVal *i, long long n, Loc loc) {
  Nat *at = nat_of(i);
  long long c;
  if (at && nat_is_const(nat_min_of(at), &c) && c >= 0 && nat_proves_lt(at, nat_const(n))) return at;
  CExp *idx = cexp_of(i);
  CExp *wide = cexp_op(OP_I2L, type_scalar(TY_LONG), 1, (CExp *[]){ idx });
  CExp *args[3] = { wide, cexp_nat(nat_const(n)), kernel_check_site(cx->k, loc, CHECK_FCL_INDEX) };
  args[1]->type = type_scalar(TY_LONG);
  KStmt *d = NEW(KStmt);
  d->kind = KS_DECL; d->name = fresh(cx, "ix"); d->type = type_scalar(TY_LONG);
  d->init = cexp_op(OP_CHECK_INDEX, d->type, 3, args);
  emit(cx, d);
  return nat_var(nat_var_new(d->name, nat_const(0), nat_const(n > 0 ? n - 1 : 0)));
}

static CExp *flag_check(Cx *cx, Store *flags, Nat *at, CVal *k, CheckKind kind, Loc loc) {
  /* check_index(flag ? 0 : -1 - k, 1): fails, reporting k, when the flag is not set */
  CExp *minus = op2(OP_SUB, type_scalar(TY_LONG), cexp_op(OP_I2L, type_scalar(TY_LONG), 1, (CExp *[]){ lit(cv_int(-1)) }),
                    cexp_op(OP_I2L, type_scalar(TY_LONG), 1, (CExp *[]){ cexp_of(k) }));
  CExp *zero = cexp_op(OP_I2L, type_scalar(TY_LONG), 1, (CExp *[]){ lit(cv_int(0)) });
  CExp *sel = NEW(CExp);
  *sel = (CExp){ .kind = CE_SELECT, .type = type_scalar(TY_LONG), .n = 3, .field = -1 };
  sel->args = NEW_ARRAY(CExp *, 3);
  sel->args[0] = cexp_read(flags->buf, at, -1, type_scalar(TY_BOOL)); sel->args[1] = zero; sel->args[2] = minus;
  CExp *one = cexp_nat(nat_const(1));
  one->type = type_scalar(TY_LONG);
  KStmt *d = NEW(KStmt);
  d->kind = KS_DECL; d->name = fresh(cx, "ok"); d->type = type_scalar(TY_LONG);
  d->init = cexp_op(OP_CHECK_INDEX, d->type, 3, (CExp *[]){ sel, one, kernel_check_site(cx->k, loc, kind) });
  emit(cx, d);
  return d->init;
}

static bool store_write(Cx *cx, Store *st, CVal *i, CVal *v, bool moved, Loc loc) {
  Type *t = type_of_val(v, loc);
  if (!t || !store_type(st, t, loc)) return false;
  if (moved && st->verify) {   /* interleave's index: verified at compile time (verify_store) */
    Nat *n = nat_of(i);
    if (!n) return diag_unsupported(loc, "interleave's index function computed from array elements (its writes are checked at compile time)");
    WSite *w = NEW(WSite);
    *w = (WSite){ n, cx->loops, loc, st->sites };
    st->sites = w;
  }
  Nat *at = checked_index(cx, i, st->n, loc);
  if (!at) return false;
  at = nat_add(st->base, at);
  if (t->kind == TY_TUPLE) {
    emit(cx, kstmt_assign(cexp_read(st->buf, at, 0, t->fields[0]), cexp_of(v->x)));
    emit(cx, kstmt_assign(cexp_read(st->buf, at, 1, t->fields[1]), cexp_of(v->y)));
  } else emit(cx, kstmt_assign(cexp_read(st->buf, at, -1, t), cexp_of(v)));
  if (st->flags) {
    CExp *tr = lit(cv_bool(true));
    emit(cx, kstmt_assign(cexp_read(st->flags->buf, nat_add(st->flags->base, nat_sub(at, st->base)), -1, type_scalar(TY_BOOL)), tr));
  }
  return true;
}

/* Interleave's writes (rules 5.84, 5.85): every index of the store written
   exactly once, in each copy of it. Their indices are nats of the loops
   around them: enumerated here, so that the compiled program never writes an
   index twice or leaves one unwritten (the interpreter reports both). */
typedef struct Binds { NatVar **vars; long long *vals; int n; } Binds;
static bool binds_lookup(void *ctx, NatVar *v, long long *value) {
  Binds *b = ctx;
  for (int i = 0; i < b->n; i++) if (b->vars[i] == v) { *value = b->vals[i]; return true; }
  return false;
}

enum { MAX_VERIFY = 1 << 28 };   /* 2^27-element case studies (bench/gpu/fcl_2027.sh) and a copy of each */

/* verify_store's evaluator: an index compiled once to postfix code over the
   loops' slots (nat_eval walks the tree and looks each variable up: 15 s for a
   2^27-element transpose). A site it cannot compile (Σ, if, pow, a variable
   of no loop), or a step that fails (division by zero, overflow), is left to
   nat_eval, which then reports as before. */
typedef struct NCode { unsigned char op; int n; long long v; } NCode;   /* op: 0 const, 1 slot v, 2 add n, 3 mul n, 4 div, 5 mod, 6 min, 7 max */
typedef struct NProg { NCode *c; int n, cap, depth, max; } NProg;

static bool ncode_of(Nat *e, NatVar **vars, int nvars, NProg *p) {
  NCode c = { 0, 0, 0 };
  switch (e->kind) {
  case NAT_CONST: c.v = e->value; break;
  case NAT_VAR: {
    int k = 0;
    while (k < nvars && vars[k] != e->var) k++;
    if (k == nvars) return false;
    c.op = 1; c.v = k;
    break;
  }
  case NAT_ADD: case NAT_MUL: case NAT_DIV: case NAT_MOD: case NAT_MIN: case NAT_MAX:
    for (int i = 0; i < e->n; i++) if (!ncode_of(e->args[i], vars, nvars, p)) return false;
    c.op = e->kind == NAT_ADD ? 2 : e->kind == NAT_MUL ? 3 : e->kind == NAT_DIV ? 4 : e->kind == NAT_MOD ? 5 : e->kind == NAT_MIN ? 6 : 7;
    c.n = e->n;
    if (c.op >= 4 && c.n != 2) return false;
    p->depth -= c.n;
    break;
  default: return false;
  }
  ARENA_PUSH(p->c, p->n, p->cap, c);
  if (++p->depth > p->max) p->max = p->depth;
  return true;
}

static bool ncode_run(const NProg *p, const long long *slots, long long *stack, long long *out) {
  int sp = 0;
  for (int i = 0; i < p->n; i++) {
    const NCode *c = &p->c[i];
    long long a, b, r;
    switch (c->op) {
    case 0: stack[sp++] = c->v; continue;
    case 1: stack[sp++] = slots[c->v]; continue;
    case 2: case 3:
      r = stack[sp - c->n];
      for (int j = sp - c->n + 1; j < sp; j++)
        if (c->op == 2 ? __builtin_add_overflow(r, stack[j], &r) : __builtin_mul_overflow(r, stack[j], &r)) return false;
      sp -= c->n;
      stack[sp++] = r;
      continue;
    default:
      b = stack[--sp]; a = stack[--sp];
      if (c->op == 4 || c->op == 5) {
        if (b == 0 || (b == -1 && a == LLONG_MIN)) return false;
        r = c->op == 4 ? a / b : a % b;
        if (c->op == 4 && a % b != 0 && ((a < 0) != (b < 0))) r--;
        if (c->op == 5 && r != 0 && ((r < 0) != (b < 0))) r += b;
      } else r = c->op == 6 ? (a < b ? a : b) : (a > b ? a : b);
      stack[sp++] = r;
    }
  }
  *out = stack[0];
  return true;
}

static bool verify_store(Store *st, Loc loc) {
  if (!st->sites) return true;
  int nouter = 0;
  for (Loop *l = st->made_in; l; l = l->outer) nouter++;
  /* no index mentions the loops around the store (its copies): each copy is
     written alike, so one copy is enumerated (matmul's tiles: once, not once
     per work-group and step) */
  bool alike = true;
  for (WSite *w = st->sites; w && alike; w = w->next)
    for (Loop *l = st->made_in; l && alike; l = l->outer) alike = !nat_mentions(w->at, l->var);
  long long copies = 1;
  for (Loop *l = st->made_in; l && !alike; l = l->outer) copies *= l->count > 0 ? l->count : 1;
  long long cells = copies * st->n, total = 0;
  for (WSite *w = st->sites; w; w = w->next) {
    long long m = 1;
    int k = 0, n = 0;
    for (Loop *l = w->loops; l; l = l->outer) n++;
    for (Loop *l = w->loops; l; l = l->outer, k++) m *= alike && k >= n - nouter ? 1 : l->count;
    total += m;
  }
  if (cells > MAX_VERIFY || total > MAX_VERIFY)
    return diag_unsupported(loc, "interleave writing %lld elements (at most %d are checked at compile time)", total > cells ? total : cells, MAX_VERIFY);
  unsigned char *seen = NEW_ARRAY(unsigned char, cells / 8 + 1);   /* a bit per cell: 16 MB at 2^27, fewer cache misses */
  for (WSite *w = st->sites; w; w = w->next) {
    int n = 0;
    for (Loop *l = w->loops; l; l = l->outer) n++;
    Binds b = { NEW_ARRAY(NatVar *, n ? n : 1), NEW_ARRAY(long long, n ? n : 1), n };
    long long *count = NEW_ARRAY(long long, n ? n : 1);
    int k = 0;
    bool empty = false;
    for (Loop *l = w->loops; l; l = l->outer, k++) {
      b.vars[k] = l->var;
      count[k] = alike && k >= n - nouter ? 1 : l->count;   /* alike: the first copy only */
      empty |= l->count <= 0;
    }
    if (empty) continue;
    /* the loops around the store's creation are the last nouter of the site's (outermost last) */
    NProg code = { 0 };
    bool fast = ncode_of(w->at, b.vars, n, &code) && code.max <= 256;
    long long stack[256];
    /* idx = outer + inner: the terms of the innermost loop's variable alone
       tabulated once (a tile's offsets), the others computed when an outer
       variable changes; a term of both (or no loops) leaves the plain path */
    Nat *outer = nat_const(0), *inner = nat_const(0);
    bool split = n > 0 && count[0] <= (1 << 22);
    for (int t = 0; split && t < (w->at->kind == NAT_ADD ? w->at->n : 1); t++) {
      Nat *term = w->at->kind == NAT_ADD ? w->at->args[t] : w->at;
      bool in0 = nat_mentions(term, b.vars[0]), others = false;
      for (int v = 1; v < n; v++) others |= nat_mentions(term, b.vars[v]);
      if (in0 && others) split = false;
      else if (in0) inner = nat_add(inner, term);
      else outer = nat_add(outer, term);
    }
    long long *table = NULL, outer_val = 0;
    NProg ocode = { 0 };
    bool ofast = false;
    if (split) {
      table = NEW_ARRAY(long long, count[0]);
      for (long long v = 0; split && v < count[0]; v++) {
        b.vals[0] = v;
        split = nat_eval(inner, binds_lookup, &b, &table[v]);
      }
      b.vals[0] = 0;
      ofast = ncode_of(outer, b.vars, n, &ocode) && ocode.max <= 256;
    }
    for (;;) {
      long long idx, copy = 0;
      bool got = false;
      if (split) {
        if (b.vals[0] == 0 && !(ofast && ncode_run(&ocode, b.vals, stack, &outer_val)) && !nat_eval(outer, binds_lookup, &b, &outer_val))
          split = false;
        else got = !__builtin_add_overflow(outer_val, table[b.vals[0]], &idx);
      }
      if (!got && !(fast && ncode_run(&code, b.vals, stack, &idx)) && !nat_eval(w->at, binds_lookup, &b, &idx))
        return diag_internal(w->loc, "interleave: an index that cannot be evaluated");
      for (int j = n - 1; j >= n - nouter; j--) copy = copy * count[j] + b.vals[j];
      if (idx < 0 || idx >= st->n)
        return diag_error(w->loc, "interleave: an element is written to index %lld, outside the %lld elements (rule 5.85)", idx, st->n);
      long long cell = copy * st->n + idx;
      if (seen[cell >> 3] & (1u << (cell & 7))) return diag_error(w->loc, "interleave: index %lld is written twice", idx);
      seen[cell >> 3] |= (unsigned char)(1u << (cell & 7));
      int j = 0;
      while (j < n && ++b.vals[j] == count[j]) b.vals[j++] = 0;
      if (j == n) break;
    }
  }
  for (long long c = 0; c < cells; c++)
    if (!(seen[c >> 3] & (1u << (c & 7)))) return diag_error(loc, "interleave: index %lld of the result is never written", c % (st->n ? st->n : 1));
  return true;
}

/* ---- acceptors ---- */

static bool accept(Cx *cx, Acc *a, CVal *i, CVal *v, Loc loc) {
  switch (a->kind) {
  case A_STORE: return store_write(cx, a->st, i, v, a->moved, loc);
  case A_MAP: { CVal *w = apply(cx, a->f, v, loc); return w && accept(cx, a->inner, i, named(cx, w), loc); }
  case A_MAPIX: {
    CVal *g = apply(cx, a->f, i, loc), *w = g ? apply(cx, g, v, loc) : NULL;
    return w && accept(cx, a->inner, i, named(cx, w), loc);
  }
  case A_MOVE: {
    CVal *j = apply(cx, a->f, cv_pair(a->g, i), loc);
    return j && accept(cx, a->inner, named(cx, j), v, loc);
  }
  }
  return false;
}

static Acc *acc_new(AccKind k, CVal *f, CVal *g, Acc *inner) {
  Acc *a = NEW(Acc);
  *a = (Acc){ .kind = k, .f = f, .g = g, .inner = inner };
  return a;
}

/* every store at the end of a chain of acceptors (the writes it will get) */
static void mark_moved(Acc *a, bool moved) {
  for (; a; a = a->inner) {
    moved |= a->kind == A_MOVE;
    if (a->kind == A_STORE) { a->moved = moved; if (moved) a->st->verify = true; }
  }
}

/* ---- loops ---- */

static const char *level_name(int l) { return l == 0 ? "thread" : l == 1 ? "block" : l == 2 ? "grid" : arena_printf("%d+grid", l - 2); }

/* for i in [0, n) at `lvl`, its body emitted by fn with the index as a value */
typedef bool (*BodyFn)(Cx *cx, CVal *i, void *ctx);
static bool loop(Cx *cx, PrimLevel lvl, long long n, const char *stem, int body_level, BodyFn fn, void *ctx) {
  NatVar *var = nat_var_new(fresh(cx, stem), nat_const(0), nat_const(n > 0 ? n - 1 : 0));
  KStmt *body = kstmt_block(), *saved = cx->block;
  int saved_level = cx->level;
  Loop *saved_groups = cx->groups;
  Loop *saved_loops = cx->loops;
  Loop *l = NEW(Loop), *any = NEW(Loop);
  *l = (Loop){ var, n, cx->groups };
  *any = (Loop){ var, n, cx->loops };
  if (lvl == LEVEL_GLB || lvl == LEVEL_WRG) cx->groups = l;
  cx->loops = any;
  cx->block = body;
  cx->level = body_level;
  bool ok = fn(cx, cv_nat(nat_var(var)), ctx);
  cx->block = saved;
  cx->level = saved_level;
  cx->groups = saved_groups;
  cx->loops = saved_loops;
  if (ok && n > 0) emit(cx, kstmt_for(lvl, 0, var, nat_const(n), body));
  return ok;
}

/* ---- writers (push arrays) ---- */

typedef struct PullCtx { CVal *arr; Acc *acc; Loc loc; } PullCtx;
static bool pull_body(Cx *cx, CVal *i, void *c) {
  PullCtx *p = c;
  CVal *v = index_at(cx, p->arr, i, p->loc);
  return v && accept(cx, p->acc, i, named(cx, v), p->loc);
}

typedef struct SubCtx { CVal *push; Acc *acc; Loc loc; } SubCtx;
static bool sub_body(Cx *cx, CVal *g, void *c) {   /* interleave: sub-program g, its writer moved */
  SubCtx *s = c;
  CVal *prog = index_at(cx, s->push->y, g, s->loc);
  if (!prog) return false;
  CVal *q = prog->x;
  if (q->n != s->push->k)
    return diag_error(s->loc, "interleave: a sub-program has %lld element%s, not the %lld its first argument says", q->n,
                      q->n == 1 ? "" : "s", s->push->k);
  Acc *a = acc_new(A_MOVE, s->push->x, g, s->acc);
  mark_moved(a, false);
  return emit_push(cx, q, a, s->loc);
}

typedef struct SeqCtx { CVal *f; CVal *read; Store *st; Loc loc; } SeqCtx;
static bool seq_body(Cx *cx, CVal *i, void *c) {   /* seqfor: f read i = (p, u), u written to p */
  SeqCtx *s = c;
  CVal *g = apply(cx, s->f, s->read, s->loc), *r = g ? apply(cx, g, i, s->loc) : NULL;
  if (!r) return false;
  r = named(cx, r);
  return store_write(cx, s->st, r->x, r->y, false, s->loc);
}

/* seqfor (Figure 5.3's form, or seqforInit): a private array, the iterations
   a sequential loop over it, then its elements pushed into acc. elem: the
   array's element type, NULL: from its first write (the initial values', or
   the body's). */
static bool seqfor_emit(Cx *cx, CVal *p, Acc *acc, Type *elem, Loc loc) {
  Store *st = store_new(cx, 0, p->n, loc);
  if (!st || (elem && !store_type(st, elem, loc))) return false;
  CVal *read = cv(CV_OP);
  read->op = fcl_op_lookup("__seqfor_read");
  read->nargs = 1;
  read->args = NEW_ARRAY(CVal *, 2);
  read->lvl = -1;
  SeqCtx c = { p->x, NULL, st, loc };
  if (p->y) {   /* seqforInit: the initial values first */
    Acc *into = acc_new(A_STORE, NULL, NULL, NULL);
    into->st = st;
    if (!emit_push(cx, p->y, into, loc) || !verify_store(st, loc)) return false;
  } else {   /* Figure 5.3's form: which elements are written, checked as it runs */
    if (!(st->flags = store_new(cx, 0, p->n, loc)) || !store_type(st->flags, type_scalar(TY_BOOL), loc)) return false;
    NatVar *z = nat_var_new(fresh(cx, "i"), nat_const(0), nat_const(p->n > 0 ? p->n - 1 : 0));
    KStmt *zb = kstmt_block();
    kstmt_add(zb, kstmt_assign(cexp_read(st->flags->buf, nat_var(z), -1, type_scalar(TY_BOOL)), lit(cv_bool(false))));
    if (p->n > 0) emit(cx, kstmt_for(LEVEL_SEQ, 0, z, nat_const(p->n), zb));
  }
  read->args[0] = pull_of_store(st, p->n);
  c.read = read;
  if (!loop(cx, LEVEL_SEQ, p->k, "it", 0, seq_body, &c)) return false;
  if (st->flags) {   /* every element written */
    NatVar *z = nat_var_new(fresh(cx, "i"), nat_const(0), nat_const(p->n > 0 ? p->n - 1 : 0));
    KStmt *zb = kstmt_block(), *saved = cx->block;
    cx->block = zb;
    flag_check(cx, st->flags, nat_var(z), cv_nat(nat_var(z)), CHECK_SEQFOR_UNWRITTEN, loc);
    cx->block = saved;
    if (p->n > 0) emit(cx, kstmt_for(LEVEL_SEQ, 0, z, nat_const(p->n), zb));
  }
  st->flags = NULL;   /* the reads below are of a complete array */
  PullCtx out = { pull_of_store(st, p->n), acc, loc };
  return loop(cx, LEVEL_SEQ, p->n, "i", 0, pull_body, &out);
}

/* The element type of Figure 5.3's seqfor: the body reads the array (read 0)
   before the iteration's write is emitted, so the type cannot wait for that
   write. Iteration 0 cannot read (nothing is written yet: foldl and scanl
   take their `if i == 0` branch), so the body is applied to 0 here, its
   statements dropped, and the type of what it writes taken. NULL: none found
   (a failing body, left to the real emission: int by default). */
static Type *seqfor_probe(Cx *cx, CVal *p, Loc loc) {
  KStmt *saved = cx->block;
  cx->block = kstmt_block();
  Store *st = store_new(cx, 0, p->n, loc);
  CVal *read = cv(CV_OP);
  read->op = fcl_op_lookup("__seqfor_read");
  read->nargs = 1;
  read->args = NEW_ARRAY(CVal *, 2);
  read->lvl = -1;
  read->args[0] = st ? pull_of_store(st, p->n) : NULL;
  CVal *g = st ? apply(cx, p->x, read, loc) : NULL, *r = g ? apply(cx, g, cv_int(0), loc) : NULL;
  Type *t = r && r->kind == CV_PAIR ? type_of_val(r->y, loc) : NULL;
  cx->block = saved;
  if (!t) diag_clear();
  return t;
}

static bool seqfor_push(Cx *cx, CVal *p, Acc *acc, Loc loc) {
  if (cx->level != 0) return diag_unsupported(loc, "seqfor written by code at level %s", level_name(cx->level));
  return seqfor_emit(cx, p, acc, !p->y && p->k > 0 ? seqfor_probe(cx, p, loc) : NULL, loc);
}

static bool emit_push(Cx *cx, CVal *p, Acc *acc, Loc loc) {
  if (++cx->depth > MAX_DEPTH) return diag_error(loc, "evaluation nested too deeply (more than %d calls)", MAX_DEPTH);
  bool ok = false;
  switch (p->sub) {
  case W_PULL: {
    if (cx->level != p->level)
      return diag_unsupported(loc, "a push<%s> array written by code at level %s", level_name(p->level), level_name(cx->level));
    PullCtx c = { p->x, acc, loc };
    PrimLevel lvl = p->level == 0 ? LEVEL_SEQ : p->level == 1 ? LEVEL_LCL : LEVEL_GLB;
    ok = loop(cx, lvl, p->n, p->level == 0 ? "i" : p->level == 1 ? "lid" : "gid", 0, pull_body, &c);
    break;
  }
  case W_INTERLEAVE: {
    if (cx->level != p->level)
      return diag_unsupported(loc, "interleave<%s> written by code at level %s", level_name(p->level - 1), level_name(cx->level));
    if (p->level > 2) return diag_unsupported(loc, "interleave<%s>: a level above the grid", level_name(p->level - 1));
    SubCtx c = { p, acc, loc };
    ok = loop(cx, p->level == 1 ? LEVEL_LCL : LEVEL_WRG, p->y->n, p->level == 1 ? "tid" : "wid", p->level - 1, sub_body, &c);
    break;
  }
  case W_INTERLEAVE_SEQ: {
    if (cx->level != p->level)
      return diag_unsupported(loc, "interleaveSeq<%s> written by code at level %s", level_name(p->level), level_name(cx->level));
    SubCtx c = { p, acc, loc };
    if (p->level == 0) { ok = loop(cx, LEVEL_SEQ, p->y->n, "s", 0, sub_body, &c); break; }
    if (p->y->n > MAX_UNROLL) return diag_unsupported(loc, "interleaveSeq<%s> of more than %d programs", level_name(p->level), MAX_UNROLL);
    ok = true;   /* above the thread: unrolled, each program's statements in order */
    for (long long g = 0; ok && g < p->y->n; g++) ok = sub_body(cx, cv_int(g), &c);
    break;
  }
  case W_SEQFOR: ok = seqfor_push(cx, p, acc, loc); break;
  case W_MAP: ok = emit_push(cx, p->y, acc_new(A_MAP, p->x, NULL, acc), loc); break;
  case W_MAPIX: ok = emit_push(cx, p->y, acc_new(A_MAPIX, p->x, NULL, acc), loc); break;
  }
  cx->depth--;
  return ok;
}

/* force<l>: the writer into a new array of level l's memory */
static CVal *force_at(Cx *cx, CVal *p, int level, Loc loc) {
  if (cx->level != level)
    return diag_unsupported(loc, "force<%s> run by code at level %s", level_name(level), level_name(cx->level)), NULL;
  Store *st = store_new(cx, level, p->n, loc);
  if (!st) return NULL;
  Acc *a = acc_new(A_STORE, NULL, NULL, NULL);
  a->st = st;
  if (!emit_push(cx, p, a, loc) || !verify_store(st, loc)) return NULL;
  return pull_of_store(st, p->n);
}

/* ---- power/poweri as one loop over the steps (docs/fcl.md §6.2) ----
   Uniform steps (each keeps the initial length, and nothing in it needs the
   step's number at compile time) are one sequential loop over k in
   [0, count): one array of twice the initial length, step k reading half
   k % 2 and writing half (k + 1) % 2, so the code does not grow with the
   count (matmul's tiles). At grid level the loop is a host loop around the
   steps' kernels. Whether the steps are uniform is found by compiling the
   step once with k a loop variable: anything that needs k's value (a shift
   by k, a length computed from k) or a step that shrinks the array fails
   that compilation, which is then undone and the steps unrolled. */
enum { MIN_LOOP_STEPS = 2 };

typedef struct StepCtx {
  Store *both; long long cap; CVal *f; bool with_i; const char *op; Loc loc;
  bool nonuniform;
} StepCtx;

/* half `part` (a nat: 0 or 1) of the doubled array, as a store to write */
static Store *half_view(Cx *cx, Store *both, long long cap, Nat *part) {
  Store *v = NEW(Store);
  *v = *both;
  v->n = cap;
  v->base = nat_add(both->base, nat_mul(part, nat_const(cap)));
  v->sites = NULL;
  v->made_in = cx->loops;   /* a copy per step (and work-group): verify_store */
  return v;
}

/* the buffer a view chose at its first write, back into the doubled array */
static void half_back(Store *both, Store *v) {
  if (!v->elem) return;
  both->elem = v->elem;
  both->buf = v->buf;
  both->pending = NULL;
}

static CVal *half_pull(Store *both, long long cap, Nat *part) {
  CVal *v = pull_of_store(both, cap);
  v->off = nat_add(both->base, nat_mul(part, nat_const(cap)));
  return v;
}

static bool step_body(Cx *cx, CVal *k, void *c) {
  StepCtx *s = c;
  LocalBuf *mark = cx->acquired;
  Nat *kn = nat_of(k);
  CVal *cur = half_pull(s->both, s->cap, nat_mod(kn, nat_const(2)));
  CVal *g = s->with_i ? apply(cx, s->f, k, s->loc) : s->f;
  CVal *prog = g ? apply(cx, g, cur, s->loc) : NULL;
  if (!prog) return false;
  CVal *q = prog->x;
  if (q->n != s->cap) { s->nonuniform = true; return false; }
  Store *view = half_view(cx, s->both, s->cap, nat_mod(nat_add(kn, nat_const(1)), nat_const(2)));
  Acc *into = acc_new(A_STORE, NULL, NULL, NULL);
  into->st = view;
  bool ok = emit_push(cx, q, into, s->loc) && verify_store(view, s->loc);
  half_back(s->both, view);
  if (ok && cx->level == 1) release_since(cx, mark, s->both->buf, NULL);   /* the step's other local arrays are dead */
  return ok;
}

/* every local buffer's list links, to undo a failed attempt */
typedef struct PoolSnap { LocalBuf **node, **next; int n; LocalBuf *acquired, *pool; } PoolSnap;
static PoolSnap pool_snap(Cx *cx) {
  PoolSnap s = { NULL, NULL, 0, cx->acquired, cx->pool };
  int n = 0;
  for (LocalBuf *l = cx->acquired; l; l = l->next) n++;
  for (LocalBuf *l = cx->pool; l; l = l->next) n++;
  s.node = NEW_ARRAY(LocalBuf *, n ? n : 1);
  s.next = NEW_ARRAY(LocalBuf *, n ? n : 1);
  for (LocalBuf *l = cx->acquired; l; l = l->next) { s.node[s.n] = l; s.next[s.n++] = l->next; }
  for (LocalBuf *l = cx->pool; l; l = l->next) { s.node[s.n] = l; s.next[s.n++] = l->next; }
  return s;
}
static void pool_restore(Cx *cx, PoolSnap *s) {
  for (int i = 0; i < s->n; i++) s->node[i]->next = s->next[i];
  cx->acquired = s->acquired;
  cx->pool = s->pool;
}

/* NULL, with nothing emitted and no diagnostic, when the steps are not uniform */
static CVal *iterate_loop(Cx *cx, const char *op, int level, long long count, CVal *f, bool with_i, CVal *init, Loc loc) {
  CVal *p0 = init->x;
  long long cap = p0->n;
  if (count < MIN_LOOP_STEPS || cap <= 0 || (level == 0 && 2 * cap > MAX_PRIVATE)) return NULL;
  KStmt *saved = cx->block, *scratch = kstmt_block();
  int nbufs = cx->k->nbufs, nsites = cx->k->nsites, depth = cx->depth;
  PoolSnap snap = pool_snap(cx);
  cx->block = scratch;
  Store *both = store_new(cx, level, 2 * cap, loc);
  CVal *r = NULL;
  if (both) {
    Store *v0 = half_view(cx, both, cap, nat_const(0));
    Acc *a = acc_new(A_STORE, NULL, NULL, NULL);
    a->st = v0;
    bool ok = emit_push(cx, p0, a, loc) && verify_store(v0, loc);
    half_back(both, v0);
    StepCtx c = { both, cap, f, with_i, op, loc, false };
    if (ok && loop(cx, LEVEL_SEQ, count, "step", level, step_body, &c)) {
      KStmt *l = scratch->stmts[scratch->n - 1];
      if (level == 2) l->host = true;   /* each step's kernels launched by the host */
      r = cv_prog(half_pull(both, cap, nat_const(count % 2)));
    }
  }
  cx->block = saved;
  if (!r) {   /* not uniform: undone, the steps are unrolled */
    cx->k->nbufs = nbufs;
    cx->k->nsites = nsites;
    cx->depth = depth;
    pool_restore(cx, &snap);
    diag_clear();
    return NULL;
  }
  for (int i = 0; i < scratch->n; i++) emit(cx, scratch->stmts[i]);
  return r;
}

/* Is step k, making n elements, the iteration's last? power: k = count - 1;
   while: its condition, on lengths only, false for an array of n elements
   (evaluated on a stand-in, its statements dropped; a condition that reads
   elements says no, and is refused at the next step as before). */
static bool last_step(Cx *cx, CVal *cond, long long count, long long k, long long n) {
  if (!cond) return k + 1 >= count;
  KStmt *saved = cx->block;
  int nsites = cx->k->nsites, depth = cx->depth;
  cx->block = kstmt_block();
  Store *st = NEW(Store);
  st->buf = NEW(Buffer);
  st->buf->name = "stand_in"; st->buf->space = SPACE_GLOBAL;
  st->n = st->cap = n; st->base = nat_const(0); st->elem = type_scalar(TY_INT);
  st->buf->type = type_array(st->elem, nat_const(n > 0 ? n : 1));
  CVal *c = apply(cx, cond, pull_of_store(st, n), LOC_NONE);
  cx->block = saved;
  cx->k->nsites = nsites;
  cx->depth = depth;
  diag_clear();
  return c && c->kind == CV_BOOL && !c->dyn && !c->i;
}

/* power, poweri, while: one loop over the steps where they are uniform, else
   the steps unrolled over two arrays of the initial length */
static CVal *iterate(Cx *cx, const char *op, int level, long long count, CVal *cond, CVal *f, bool with_i, CVal *init, Loc loc) {
  if (cx->level != level)
    return diag_unsupported(loc, "%s<%s> run by code at level %s", op, level_name(level), level_name(cx->level)), NULL;
  if (!cond && !switch_value(SW_FCL_UNROLL)) {   /* CLIFT_FCL_UNROLL=1: always unrolled (to compare the two) */
    CVal *r = iterate_loop(cx, op, level, count, f, with_i, init, loc);
    if (r) return r;
  }
  CVal *p0 = init->x;
  long long cap = p0->n;
  Store *bufs[2] = { store_new(cx, level, cap, loc), NULL };
  if (!bufs[0]) return NULL;
  Acc *a = acc_new(A_STORE, NULL, NULL, NULL);
  a->st = bufs[0];
  if (!emit_push(cx, p0, a, loc) || !verify_store(bufs[0], loc)) return NULL;
  CVal *cur = pull_of_store(bufs[0], cap);
  int which = 0;
  for (long long k = 0;; k++) {
    LocalBuf *mark = cx->acquired;
    if (cond) {
      CVal *c = apply(cx, cond, cur, loc);
      if (!c) return NULL;
      if (c->dyn)
        return diag_unsupported(loc, "a while whose condition reads the array's elements (the condition must be known from lengths)"), NULL;
      if (!c->i) break;
    } else if (k >= count) break;
    if (k >= MAX_UNROLL) return diag_unsupported(loc, "%s of more than %d steps", op, MAX_UNROLL), NULL;
    CVal *g = with_i ? apply(cx, f, cv_int(k), loc) : f;
    long long given = cur->n;
    CVal *prog = g ? apply(cx, g, cur, loc) : NULL;
    if (!prog) return NULL;
    CVal *q = prog->x;
    if (cond && q->n == given)   /* the same length again: the same condition, the same step, forever */
      return diag_error(loc, "%s<%s> never ends: step %lld keeps the %lld elements it was given, and the condition, which reads "
                             "lengths only, holds for them", op, level_name(level), k, given), NULL;
    if (q->n > cap)
      return diag_error(loc, "%s: step %lld makes %lld elements from %lld: the steps of %s may not grow the array (§5.3.3)", op, k, q->n, cap,
                        op), NULL;
    if (level == 1 && q->sub == W_PULL && q->level == 1 && last_step(cx, cond, count, k, q->n)) {
      /* the last block step's elements computed where they are used, not
         stored to local memory and read back: the iteration's result is the
         step's pull array (sklansky's last step writes the scan's global
         array directly); the step's local arrays stay acquired, as it reads them */
      cur = q->x;
      break;
    }
    if (level == 2 && q->n < cap && last_step(cx, cond, count, k, q->n)) {
      /* the last grid step into an array of its own length: the result may
         then be that array (result_is_temp; reduce's sum: no kernel copying it out) */
      Store *fin = store_new(cx, 2, q->n, loc);
      Acc *into = acc_new(A_STORE, NULL, NULL, NULL);
      if (!fin) return NULL;
      into->st = fin;
      if (!emit_push(cx, q, into, loc) || !verify_store(fin, loc)) return NULL;
      cur = pull_of_store(fin, q->n);
      continue;
    }
    which = 1 - which;
    if (!bufs[which] && !(bufs[which] = store_new(cx, level, cap, loc))) return NULL;
    Store *view = NEW(Store);
    *view = *bufs[which];
    view->n = q->n;
    view->sites = NULL;   /* this step's writes only */
    Acc *into = acc_new(A_STORE, NULL, NULL, NULL);
    into->st = view;
    if (!emit_push(cx, q, into, loc) || !verify_store(view, loc)) return NULL;
    CVal *next = pull_of_store(view, q->n);
    bufs[which]->elem = view->elem;
    bufs[which]->buf = view->buf;   /* chosen at its first write */
    bufs[which]->pending = NULL;
    cur = next;
    if (level == 1) release_since(cx, mark, bufs[0]->buf, bufs[1]->buf);   /* the step's other local arrays are dead */
  }
  return cv_prog(cur);
}

/* ---- scalars (Figure 5.5) ---- */

static FValue *fval_of(CVal *v) {
  switch (v->kind) {
  case CV_INT: return fval_int(v->i);
  case CV_DOUBLE: return fval_double(v->d);
  case CV_BOOL: return fval_bool(v->i != 0);
  default: { FValue *p = fval_new(FV_PAIR); p->x = fval_of(v->x); p->y = fval_of(v->y); return p; }
  }
}

static CVal *cval_of(FValue *v) {
  switch (v->kind) {
  case FV_INT: return cv_int(v->i);
  case FV_DOUBLE: return cv_double(v->d);
  case FV_BOOL: return cv_bool(v->b);
  default: return cv_pair(cval_of(v->x), cval_of(v->y));
  }
}

static bool all_static(CVal *v) {
  if (v->kind == CV_PAIR) return all_static(v->x) && all_static(v->y);
  return is_scalar(v) && !v->dyn;
}

static CVal *equal_dyn(CVal *a, CVal *b, bool eq) {
  if (a->kind == CV_PAIR) {
    CVal *x = equal_dyn(a->x, b->x, true), *y = equal_dyn(a->y, b->y, true);
    CExp *both = op2(OP_AND, type_scalar(TY_BOOL), cexp_of(x), cexp_of(y));
    return cv_dyn(CV_BOOL, eq ? both : cexp_op(OP_NOT, type_scalar(TY_BOOL), 1, (CExp *[]){ both }));
  }
  return cv_dyn(CV_BOOL, op2(eq ? OP_EQ : OP_NE, type_scalar(TY_BOOL), cexp_of(a), cexp_of(b)));
}

/* a - b, where b = x % c and x is a or one of its terms: (a - x) + c * (x / c),
   whose bounds the nats prove (sklansky's i - i % (2 * half) + half - 1, an
   index in range: no run-time check); x >= 0 here (nat % is made only of
   non-negative ints), so floor and truncation agree */
static Nat *sub_mod(Nat *a, Nat *b) {
  if (b->kind != NAT_MOD) return nat_sub(a, b);
  Nat *x = b->args[0], *c = b->args[1], *rest = NULL;
  if (nat_same(a, x)) rest = nat_const(0);
  else if (a->kind == NAT_ADD)
    for (int i = 0; i < a->n && !rest; i++)
      if (nat_same(a->args[i], x)) {
        rest = nat_const(0);
        for (int j = 0; j < a->n; j++) if (j != i) rest = nat_add(rest, a->args[j]);
      }
  return rest ? nat_add(rest, nat_mul(c, nat_div(x, c))) : nat_sub(a, b);
}

/* a comparison of two ints that the nats decide: 1 true, 0 false, -1 unknown */
static int decide_lt(Nat *a, Nat *b) {
  if (!a || !b) return -1;
  if (nat_proves_lt(a, b)) return 1;
  if (nat_proves_le(b, a)) return 0;
  return -1;
}

static CVal *scalar_op(Cx *cx, const char *name, CVal **a, Loc loc) {
  bool two = strcmp(name, "not") && strcmp(name, "neg") && strcmp(name, "i2d") && strcmp(name, "d2i");
  bool stat = all_static(a[0]) && (!two || all_static(a[1]));
  bool divides = !strcmp(name, "/") || !strcmp(name, "%");
  if (stat && !(divides && a[1]->kind == CV_INT && a[1]->i == 0) &&
      !(!strcmp(name, "d2i") && !(a[0]->d > -2147483649.0 && a[0]->d < 2147483648.0))) {
    FValue *args[2] = { fval_of(a[0]), two ? fval_of(a[1]) : NULL };
    FEval ev = { .block_size = cx->block_size };
    FValue *r = fcl_op_lookup(name)->eval(&ev, args, loc);
    return r ? cval_of(r) : NULL;
  }
  Type *ti = type_scalar(TY_INT), *tb = type_scalar(TY_BOOL), *td = type_scalar(TY_DOUBLE);
  CVKind k = a[0]->kind;
  Type *t = k == CV_DOUBLE ? td : ti;
  Nat *na = nat_of(a[0]), *nb = two ? nat_of(a[1]) : NULL;
  if (!strcmp(name, "==") || !strcmp(name, "!=")) {
    bool eq = name[0] == '=';
    if (na && nb) {
      int lt = decide_lt(na, nb), gt = decide_lt(nb, na);
      if (lt == 1 || gt == 1) return cv_bool(!eq);
      if (lt == 0 && gt == 0) return cv_bool(eq);
    }
    return equal_dyn(a[0], a[1], eq);
  }
  static const struct { const char *name; ScalarOp op; } ops[] = {
    { "+", OP_ADD }, { "-", OP_SUB }, { "*", OP_MUL }, { "/", OP_DIV }, { "%", OP_MOD }, { "<", OP_LT }, { "<=", OP_LE },
    { ">", OP_GT }, { ">=", OP_GE }, { "&&", OP_AND }, { "||", OP_OR }, { "min", OP_MIN }, { "max", OP_MAX } };
  for (size_t j = 0; j < sizeof ops / sizeof *ops; j++) {
    if (strcmp(ops[j].name, name) != 0) continue;
    ScalarOp op = ops[j].op;
    if (op >= OP_LT && op <= OP_GE) {   /* decided by the nats where they can */
      int r = op == OP_LT ? decide_lt(na, nb) : op == OP_GT ? decide_lt(nb, na) : op == OP_LE ? decide_lt(nb, na) : decide_lt(na, nb);
      if (r >= 0) return cv_bool(op == OP_LT || op == OP_GT ? r == 1 : r == 0);
      return cv_dyn(CV_BOOL, op2(op, tb, cexp_of(a[0]), cexp_of(a[1])));
    }
    if (op == OP_MIN || op == OP_MAX) {   /* as the interpreter (ops.c), NaN included */
      CVal *x = named(cx, a[0]), *y = named(cx, a[1]);
      CExp *sel = NEW(CExp);
      *sel = (CExp){ .kind = CE_SELECT, .type = t, .n = 3, .field = -1 };
      sel->args = NEW_ARRAY(CExp *, 3);
      sel->args[0] = op == OP_MIN ? op2(OP_LT, tb, cexp_of(y), cexp_of(x)) : op2(OP_LT, tb, cexp_of(x), cexp_of(y));
      sel->args[1] = cexp_of(y); sel->args[2] = cexp_of(x);
      if (k == CV_INT && na && nb) {   /* a nat where one side is known to be the smaller */
        int lt = decide_lt(nb, na);
        if (lt >= 0) return op == OP_MIN ? (lt ? a[1] : a[0]) : (decide_lt(na, nb) == 1 ? a[1] : decide_lt(na, nb) == 0 ? a[0] : cv_dyn(k, sel));
      }
      return cv_dyn(k, sel);
    }
    if (op == OP_AND || op == OP_OR) return cv_dyn(CV_BOOL, op2(op, tb, cexp_of(a[0]), cexp_of(a[1])));
    if (k == CV_INT && na && nb && (op == OP_ADD || op == OP_SUB || op == OP_MUL)) {
      Nat *r = op == OP_ADD ? nat_add(na, nb) : op == OP_SUB ? sub_mod(na, nb) : nat_mul(na, nb);
      if (nat_fits(r)) return cv_nat(r);
    }
    long long c, lo;
    if (k == CV_INT && na && nb && (op == OP_DIV || op == OP_MOD) && nat_is_const(nb, &c) && c > 0 &&
        nat_is_const(nat_min_of(na), &lo) && lo >= 0) {   /* truncation is floor on naturals */
      Nat *r = op == OP_DIV ? nat_div(na, nb) : nat_mod(na, nb);
      if (nat_fits(r)) return cv_nat(r);
    }
    if (k == CV_INT && (op == OP_DIV || op == OP_MOD)) {
      CExp *args[3] = { cexp_of(a[0]), cexp_of(a[1]), kernel_check_site(cx->k, loc, op == OP_DIV ? CHECK_DIV : CHECK_MOD) };
      return cv_dyn(CV_INT, cexp_op(op == OP_DIV ? OP_CHECK_DIV : OP_CHECK_MOD, ti, 3, args));
    }
    return cv_dyn(k, op2(op, t, cexp_of(a[0]), cexp_of(a[1])));
  }
  if (!strcmp(name, "not")) return cv_dyn(CV_BOOL, cexp_op(OP_NOT, tb, 1, (CExp *[]){ cexp_of(a[0]) }));
  if (!strcmp(name, "neg")) {
    if (k == CV_INT && na) { Nat *r = nat_sub(nat_const(0), na); if (nat_fits(r)) return cv_nat(r); }
    if (k == CV_DOUBLE) return cv_dyn(k, op2(OP_MUL, td, cexp_of(cv_double(-1.0)), cexp_of(a[0])));   /* -0.0 as the interpreter */
    return cv_dyn(k, op2(OP_SUB, ti, lit(cv_int(0)), cexp_of(a[0])));
  }
  if (!strcmp(name, "i2d")) return cv_dyn(CV_DOUBLE, cexp_op(OP_I2D, td, 1, (CExp *[]){ cexp_of(a[0]) }));
  if (!strcmp(name, "d2i")) {
    CExp *args[2] = { cexp_of(a[0]), kernel_check_site(cx->k, loc, CHECK_D2I) };
    return cv_dyn(CV_INT, cexp_op(OP_CHECK_D2I, ti, 2, args));
  }
  return diag_unsupported(loc, "%s on values known only at run time", name), NULL;
}

/* ---- the built-ins ---- */

static bool static_int(CVal *v, const char *what, Loc loc, long long *out) {
  if (v->kind != CV_INT || v->dyn)
    return diag_unsupported(loc, "%s computed from array elements (lengths and counts must be known from the inputs' shapes)", what);
  *out = v->i;
  return true;
}

static CVal *pull_new(PullKind k, long long n, CVal *f, CVal *src) {
  CVal *v = cv(CV_PULL); v->sub = k; v->n = n; v->x = f; v->y = src; return v;
}
static CVal *push_new(PushKind k, long long n, int level) {
  CVal *v = cv(CV_PUSH); v->sub = k; v->n = n; v->level = level; return v;
}

static CVal *builtin(Cx *cx, const FOp *op, CVal **A, int lvl, Loc loc) {
  const char *n = op->name;
  long long c = 0;
  if ((!strcmp(n, "fst") || !strcmp(n, "snd")) && A[0]->kind != CV_PAIR)   /* the types exclude it: never silent */
    return diag_internal(loc, "%s of a value that is no pair", n), NULL;
  if (!strcmp(n, "fst")) return A[0]->x;
  if (!strcmp(n, "snd")) return A[0]->y;
  if (!strcmp(n, "length") || !strcmp(n, "lengthPush")) return cv_int(A[0]->n);
  if (!strcmp(n, "map")) return pull_new(P_MAP, A[1]->n, A[0], A[1]);
  if (!strcmp(n, "generate")) {
    if (!static_int(A[0], "a generate's length", loc, &c)) return NULL;
    if (c < 0) return diag_error(loc, "generate: negative length %lld", c), NULL;
    return pull_new(P_GEN, c, A[1], NULL);
  }
  if (!strcmp(n, "index") || !strcmp(n, "__seqfor_read")) return index_at(cx, A[0], A[1], loc);
  if (!strcmp(n, "push")) { CVal *p = push_new(W_PULL, A[0]->n, lvl); p->x = A[0]; return p; }
  if (!strcmp(n, "mapPush") || !strcmp(n, "mapPushIx")) {
    CVal *p = push_new(n[7] ? W_MAPIX : W_MAP, A[1]->n, A[1]->level);
    p->x = A[0]; p->y = A[1];
    return p;
  }
  if (!strcmp(n, "force")) { CVal *m = force_at(cx, A[0], lvl, loc); return m ? cv_prog(m) : NULL; }
  if (!strcmp(n, "return")) return cv_prog(A[0]);
  if (!strcmp(n, "bind")) return apply(cx, A[1], A[0]->x, loc);
  if (!strcmp(n, "interleave") || !strcmp(n, "interleaveSeq")) {
    if (!static_int(A[0], "interleave's sub-array length", loc, &c)) return NULL;
    if (c < 0) return diag_error(loc, "interleave: negative sub-array length %lld", c), NULL;
    CVal *p = push_new(n[10] ? W_INTERLEAVE_SEQ : W_INTERLEAVE, c * A[2]->n, n[10] ? lvl : lvl + 1);
    p->k = c; p->x = A[1]; p->y = A[2];
    return cv_prog(p);
  }
  if (!strcmp(n, "power") || !strcmp(n, "poweri")) {
    if (!static_int(A[0], "power's count", loc, &c)) return NULL;
    return iterate(cx, n, lvl, c, NULL, A[1], n[5] == 'i', A[2], loc);
  }
  if (!strcmp(n, "while")) return iterate(cx, n, lvl, 0, A[0], A[1], false, A[2], loc);
  if (!strcmp(n, "seqfor") || !strcmp(n, "seqforInit")) {
    long long m = 0;
    bool init = n[6] != 0;
    if (!init && !static_int(A[0], "seqfor's length", loc, &c)) return NULL;
    if (!static_int(A[1], "seqfor's number of iterations", loc, &m)) return NULL;
    if (!init && c < 0) return diag_error(loc, "seqfor: negative length %lld", c), NULL;
    CVal *p = push_new(W_SEQFOR, init ? A[0]->n : c, 0);
    p->k = m > 0 ? m : 0; p->x = A[2]; p->y = init ? A[0] : NULL;
    return p;
  }
  return scalar_op(cx, n, A, loc);
}

/* ---- evaluation ---- */

static CVal *index_at(Cx *cx, CVal *arr, CVal *i, Loc loc) {
  switch (arr->sub) {
  case P_GEN: return apply(cx, arr->x, i, loc);
  case P_MAP: { CVal *x = index_at(cx, arr->y, i, loc); return x ? apply(cx, arr->x, named(cx, x), loc) : NULL; }
  default: {
    Nat *at = checked_index(cx, i, arr->n, loc);
    if (!at) return NULL;
    long long stride = 1;
    for (int d = 1; d < arr->ndims; d++) stride *= arr->dims[d];
    Nat *off = nat_add(arr->off, nat_mul(at, nat_const(stride)));
    if (arr->ndims == 1 && arr->st->flags) flag_check(cx, arr->st->flags, nat_add(arr->st->flags->base, at), i, CHECK_SEQFOR_READ, loc);
    if (arr->ndims == 1) return read_elem(arr->st, arr->elem, off);
    CVal *v = cv(CV_PULL);
    *v = *arr;
    v->off = off; v->ndims = arr->ndims - 1; v->dims = arr->dims + 1; v->n = v->dims[0];
    return v;
  }
  }
}

static CVal *apply(Cx *cx, CVal *f, CVal *arg, Loc loc) {
  if (++cx->depth > MAX_DEPTH) return diag_error(loc, "evaluation nested too deeply (more than %d calls)", MAX_DEPTH), NULL;
  CVal *r = NULL;
  if (f->kind == CV_CLOSURE) {
    CEnv *b = NEW(CEnv);
    *b = (CEnv){ f->fn->name, named(cx, arg), f->env };
    r = eval(cx, b, f->fn->a);
  } else if (f->kind == CV_OP) {
    CVal *g = cv(CV_OP);
    *g = *f;
    g->args = NEW_ARRAY(CVal *, f->nargs + 1);
    for (int i = 0; i < f->nargs; i++) g->args[i] = f->args[i];
    g->args[g->nargs++] = arg;
    r = g->nargs < g->op->arity ? g : builtin(cx, g->op, g->args, g->lvl, loc);
  } else diag_internal(loc, "applying a non-function (%d)", f->kind);
  cx->depth--;
  return r;
}

/* if c then a else b with c known only at run time: each branch in its own
   block (an index or a division there is checked only when it runs) */
static bool declare_result(Cx *cx, CVal *proto, CVal **out, Loc loc) {
  if (proto->kind == CV_PAIR) {
    CVal *x, *y;
    if (!declare_result(cx, proto->x, &x, loc) || !declare_result(cx, proto->y, &y, loc)) return false;
    *out = cv_pair(x, y);
    return true;
  }
  if (!is_scalar(proto)) return diag_internal(loc, "an if whose branches are not base types");
  KStmt *d = NEW(KStmt);
  d->kind = KS_DECL; d->name = fresh(cx, "r"); d->type = type_scalar(scalar_kind(proto));
  emit(cx, d);
  *out = cv_dyn(proto->kind, cexp_var(d->name, d->type));
  return true;
}

static void assign_result(Cx *cx, CVal *to, CVal *v) {
  if (to->kind == CV_PAIR) { assign_result(cx, to->x, v->x); assign_result(cx, to->y, v->y); return; }
  emit(cx, kstmt_assign(to->e, cexp_of(v)));
}

static CVal *eval_branch(Cx *cx, CEnv *env, FExp *e, KStmt *block) {
  KStmt *saved = cx->block;
  cx->block = block;
  CVal *v = eval(cx, env, e);
  cx->block = saved;
  return v;
}

/* `if x == k then a else b`, x a variable whose value is a loop's nat with k
   at one end of its range: a sees x as k, b as a variable of the range
   without k (a declaration at the top of b), so that indices there are
   proved in range (foldl's `index array (i - 1)` when i != 0: no run-time
   check). Anything else: NULL, both branches see env. */
typedef struct Refined { CEnv *then_env, *else_env; KStmt *else_decl; } Refined;
static bool refine_eq(Cx *cx, CEnv *env, FExp *cond, Refined *r) {
  if (cond->kind != FE_APP || cond->a->kind != FE_APP || cond->a->a->kind != FE_VAR || cond->a->a->slot <= 0 ||
      strcmp(cond->a->a->name, "==") != 0)
    return false;
  FExp *x = cond->a->b, *k = cond->b;
  if (x->kind != FE_VAR || x->slot > 0 || k->kind != FE_INT) return false;
  CVal *xv = NULL;
  for (CEnv *b = env; b; b = b->next) if (!strcmp(b->name, x->name)) { xv = b->v; break; }
  long long lo, hi;
  if (!xv || xv->kind != CV_INT || !xv->dyn || !xv->nat || xv->nat->kind != NAT_VAR ||
      !nat_is_const(nat_min_of(xv->nat), &lo) || !nat_is_const(nat_max_of(xv->nat), &hi) || lo >= hi || (k->ival != lo && k->ival != hi))
    return false;
  NatVar *v = nat_var_new(fresh(cx, "r"), nat_const(k->ival == lo ? lo + 1 : lo), nat_const(k->ival == lo ? hi : hi - 1));
  KStmt *d = NEW(KStmt);
  d->kind = KS_DECL; d->name = v->name; d->type = type_scalar(TY_INT); d->init = cexp_of(xv);
  r->else_decl = d;
  r->then_env = NEW(CEnv);
  *r->then_env = (CEnv){ x->name, cv_int(k->ival), env };
  r->else_env = NEW(CEnv);
  *r->else_env = (CEnv){ x->name, cv_nat(nat_var(v)), env };
  return true;
}

static CVal *eval_if(Cx *cx, CEnv *env, CVal *c, FExp *a, FExp *b, bool is_or, Loc loc, Refined *rf) {
  KStmt *s = kstmt_if(cexp_of(c), NULL, NULL);
  CVal *va, *vb;
  if (b && rf) {
    kstmt_add(s->else_, rf->else_decl);
    va = eval_branch(cx, rf->then_env, a, s->then_);
    vb = va ? eval_branch(cx, rf->else_env, b, s->else_) : NULL;
  } else if (b) {
    va = eval_branch(cx, env, a, s->then_);
    vb = va ? eval_branch(cx, env, b, s->else_) : NULL;
  } else {   /* && (is_or false): c && a; ||: c || a */
    va = eval_branch(cx, env, a, is_or ? s->else_ : s->then_);
    vb = is_or ? cv_bool(true) : cv_bool(false);
    if (is_or) { CVal *t = va; va = vb; vb = t; }
  }
  if (!va || !vb) return NULL;
  CVal *r;
  if (!declare_result(cx, va, &r, loc)) return NULL;
  KStmt *saved = cx->block;
  cx->block = s->then_; assign_result(cx, r, va);
  cx->block = s->else_; assign_result(cx, r, vb);
  cx->block = saved;
  emit(cx, s);
  return r;
}

static CVal *eval_app(Cx *cx, CEnv *env, FExp *e) {
  if (e->a->kind == FE_APP && e->a->a->kind == FE_VAR && e->a->a->slot > 0 &&
      (!strcmp(e->a->a->name, "&&") || !strcmp(e->a->a->name, "||"))) {
    bool is_or = e->a->a->name[0] == '|';
    CVal *l = eval(cx, env, e->a->b);
    if (!l) return NULL;
    if (!l->dyn) return l->i == is_or ? l : eval(cx, env, e->b);
    return eval_if(cx, env, named(cx, l), e->b, NULL, is_or, e->loc, NULL);
  }
  CVal *f = eval(cx, env, e->a);
  CVal *x = f ? eval(cx, env, e->b) : NULL;
  return x ? apply(cx, f, x, e->loc) : NULL;
}

static CVal *eval(Cx *cx, CEnv *env, FExp *e) {
  if (++cx->depth > MAX_DEPTH) return diag_error(e->loc, "evaluation nested too deeply (more than %d calls)", MAX_DEPTH), NULL;
  CVal *v = NULL;
  switch (e->kind) {
  case FE_INT: v = cv_int(e->ival); break;
  case FE_DOUBLE: v = cv_double(e->dval); break;
  case FE_BOOL: v = cv_bool(e->ival != 0); break;
  case FE_UNIT: v = cv(CV_UNIT); break;
  case FE_BLOCKSIZE: v = cv_int(cx->block_size); break;
  case FE_VAR:
    if (e->slot > 0) {
      v = cv(CV_OP);
      v->op = fcl_op_at(e->slot - 1);
      v->lvl = e->ninst ? fcl_level_depth(e->inst[0]) : -1;
      if (e->ninst && v->lvl < 0) { diag_internal(e->loc, "a level left after monomorphisation"); v = NULL; }
    } else {
      for (CEnv *b = env; b; b = b->next) if (!strcmp(b->name, e->name)) { v = b->v; break; }
      if (!v) diag_internal(e->loc, "unbound '%s' after checking", e->name);
    }
    break;
  case FE_PAIR: {
    CVal *a = eval(cx, env, e->a), *b = a ? eval(cx, env, e->b) : NULL;
    if (b) v = cv_pair(a, b);
    break;
  }
  case FE_FN: v = cv(CV_CLOSURE); v->fn = e; v->env = env; break;
  case FE_APP: v = eval_app(cx, env, e); break;
  case FE_LET: {
    CVal *a = eval(cx, env, e->a);
    if (!a) break;
    CEnv *b = NEW(CEnv);
    *b = (CEnv){ e->name, named(cx, a), env };
    v = eval(cx, b, e->b);
    break;
  }
  case FE_IF: {
    CVal *c = eval(cx, env, e->a);
    if (!c) break;
    Refined rf;
    v = !c->dyn ? eval(cx, env, c->i ? e->b : e->c)
                : eval_if(cx, env, named(cx, c), e->b, e->c, false, e->loc, refine_eq(cx, env, e->a, &rf) ? &rf : NULL);
    break;
  }
  }
  cx->depth--;
  return v;
}

/* ---- the program: inputs, the result, the kernel ---- */

static Type *clift_type(FType *t) {
  t = ftype_prune(t);
  switch (t->kind) {
  case FY_INT: return type_scalar(TY_INT);
  case FY_DOUBLE: return type_scalar(TY_DOUBLE);
  case FY_BOOL: return type_scalar(TY_BOOL);
  case FY_PAIR: { Type *a = clift_type(t->a), *b = a ? clift_type(t->b) : NULL; return b ? type_tuple2(a, b) : NULL; }
  default: return NULL;
  }
}

/* an input as a value: scalars and pairs known now, arrays in buffers */
static CVal *input_value(Cx *cx, FType *t, Value *v, Program *p, int index, Loc loc) {
  t = ftype_prune(t);
  switch (t->kind) {
  case FY_INT: return cv_int(v->s.i);
  case FY_DOUBLE: return cv_double(v->s.d);
  case FY_BOOL: return cv_bool(v->s.b);
  case FY_PAIR: {
    if (!clift_type(t)) return diag_unsupported(loc, "an input pair holding arrays (%s)", ftype_str(t)), NULL;
    CVal *a = input_value(cx, t->a, v->elems[0], p, index, loc);
    CVal *b = a ? input_value(cx, t->b, v->elems[1], p, index, loc) : NULL;
    return b ? cv_pair(a, b) : NULL;
  }
  case FY_PULL: {
    int nd = 0;
    FType *el = t;
    long long dims[64];
    Value *x = v;
    for (; el->kind == FY_PULL; el = ftype_prune(el->a)) {
      if (nd == 64) return diag_unsupported(loc, "an input of more than 64 dimensions"), NULL;
      dims[nd++] = x ? x->n : 0;
      x = x && x->n > 0 ? value_elem(x, 0) : NULL;
    }
    Type *elem = clift_type(el);
    if (!elem || (elem->kind == TY_TUPLE && (elem->fields[0]->kind == TY_TUPLE || elem->fields[1]->kind == TY_TUPLE)))
      return diag_unsupported(loc, "an input array of %s (arrays of scalars and of pairs of scalars are)", ftype_str(el)), NULL;
    Type *ct = elem;
    for (int d = nd - 1; d >= 0; d--) ct = type_array(ct, nat_const(dims[d]));
    Buffer *b = NEW(Buffer);
    b->name = arena_printf("in%d", index + 1);
    b->type = ct; b->space = SPACE_GLOBAL; b->is_param = true; b->param_index = p->nparams + 1;
    kernel_add_buffer(cx->k, b);
    p->params[p->nparams++] = (Param){ .name = b->name, .type = ct, .loc = loc };
    cx->args[cx->nargs++] = v;
    Store *st = NEW(Store);
    st->buf = b; st->n = st->cap = dims[0]; st->base = nat_const(0); st->elem = elem;
    CVal *a = cv(CV_PULL);
    a->sub = P_BUF; a->n = dims[0]; a->st = st; a->off = nat_const(0); a->elem = elem;
    a->ndims = nd; a->dims = NEW_ARRAY(long long, nd);
    memcpy(a->dims, dims, sizeof(long long) * (size_t)nd);
    return a;
  }
  default: return diag_error(loc, "an input of type %s", ftype_str(t)), NULL;
  }
}

/* The result's leaves (arrays and scalars, pairs flattened, in order), each
   stored as an array: one buffer, or a tuple of them (split, layout.c). */
typedef struct Leaf { CVal *v; FType *t; bool scalar; Store *st; } Leaf;
typedef struct Leaves { Leaf *a; int n, cap; } Leaves;

static bool leaves_of(CVal *v, FType *t, Leaves *ls, Loc loc) {
  t = ftype_prune(t);
  if (t->kind == FY_PROG) { if (v->kind != CV_PROG) return diag_internal(loc, "a Program result that is none"); return leaves_of(v->x, t->a, ls, loc); }
  if (t->kind == FY_PAIR && !clift_type(t)) return leaves_of(v->x, t->a, ls, loc) && leaves_of(v->y, t->b, ls, loc);
  if (t->kind == FY_PAIR && v->kind == CV_PAIR && (!is_scalar(v->x) || !is_scalar(v->y)))
    return leaves_of(v->x, t->a, ls, loc) && leaves_of(v->y, t->b, ls, loc);
  if (t->kind == FY_UNIT) return diag_unsupported(loc, "a result of type unit");
  if (t->kind == FY_FUN) return diag_error(loc, "the result is a function: nothing to print");
  ARENA_PUSH(ls->a, ls->n, ls->cap, ((Leaf){ v, t, t->kind != FY_PULL && t->kind != FY_PUSH, NULL }));
  return true;
}

static Type *leaf_type(Leaf *l) {
  FType *t = l->scalar ? l->t : ftype_prune(ftype_prune(l->t)->a);
  if (!l->scalar && ftype_prune(t)->kind == FY_PULL) return NULL;
  Type *e = clift_type(t);
  return e ? type_array(e, nat_const(l->scalar ? 1 : l->v->n)) : NULL;
}

/* ---- the result as a copy of a global temporary (docs/fcl.md §6.2) ----
   A result whose element i is element i of a global array a force<grid> wrote,
   of the same length (reverseAny's and transposeAny's crop when the length is
   a multiple of the chunk or tile: `generate n (fn i => index padded i)`), is
   no second pass: the temporary is the output buffer itself. */
static void rebuf_exp(CExp *e, Buffer *from, Buffer *to) {
  if (!e) return;
  if (e->buf == from) e->buf = to;
  for (int i = 0; i < e->n; i++) rebuf_exp(e->args[i], from, to);
}
static void rebuf_stmt(KStmt *s, Buffer *from, Buffer *to) {
  if (!s) return;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) rebuf_stmt(s->stmts[i], from, to);
  rebuf_exp(s->init, from, to); rebuf_exp(s->lhs, from, to); rebuf_exp(s->rhs, from, to); rebuf_exp(s->cond, from, to);
  rebuf_stmt(s->body, from, to); rebuf_stmt(s->then_, from, to); rebuf_stmt(s->else_, from, to);
}

static void rename_temp(Cx *cx, Buffer *b, Buffer *out) {
  rebuf_stmt(cx->k->body, b, out);
  int j = 0;
  for (int k = 0; k < cx->k->nbufs; k++) if (cx->k->bufs[k] != b) cx->k->bufs[j++] = cx->k->bufs[k];
  cx->k->nbufs = j;
}

static bool result_is_temp(Cx *cx, Leaf *l, CVal *v) {
  Buffer *out = l->st->buf;
  if (v->kind != CV_PUSH || v->sub != W_PULL || v->level != 2 || !out->is_param || out->split || out->base) return false;
  KStmt *saved = cx->block;
  int nsites = cx->k->nsites, depth = cx->depth;
  cx->block = kstmt_block();
  NatVar *i = nat_var_new(fresh(cx, "gid"), nat_const(0), nat_const(v->n > 0 ? v->n - 1 : 0));
  CVal *x = index_at(cx, v->x, cv_nat(nat_var(i)), LOC_NONE);
  bool empty = cx->block->n == 0;
  cx->block = saved;
  cx->k->nsites = nsites;
  cx->depth = depth;
  diag_clear();
  if (!x || !empty || !is_scalar(x) || !x->dyn || x->e->kind != CE_READ || x->e->field != -1) return false;
  Buffer *b = x->e->buf;
  long long n;
  if (!b || b->space != SPACE_GLOBAL || b->is_param || b->base || !b->type || b->type->kind != TY_ARRAY ||
      !nat_is_const(b->type->len, &n) || n != v->n || !type_equal(b->type, out->type) || !nat_same(x->e->nat, nat_var(i)))
    return false;
  rename_temp(cx, b, out);
  return true;
}

/* a scalar result read from the one element of a global temporary (reduce's
   sum after its last grid step): that temporary is the output */
static bool scalar_is_temp(Cx *cx, Leaf *l) {
  CVal *v = l->v;
  Buffer *out = l->st->buf, *b;
  long long n;
  if (!is_scalar(v) || !v->dyn || v->e->kind != CE_READ || v->e->field != -1 || !out->is_param || out->split || out->base) return false;
  b = v->e->buf;
  if (!b || b->space != SPACE_GLOBAL || b->is_param || b->base || !b->type || b->type->kind != TY_ARRAY ||
      !nat_is_const(b->type->len, &n) || n != 1 || !type_equal(b->type, out->type) || !nat_is_const(v->e->nat, &n) || n != 0)
    return false;
  rename_temp(cx, b, out);
  return true;
}

static bool emit_leaf(Cx *cx, Leaf *l, Loc loc) {
  Acc *a = acc_new(A_STORE, NULL, NULL, NULL);
  a->st = l->st;
  if (l->scalar && scalar_is_temp(cx, l)) return true;
  if (l->scalar) return store_write(cx, l->st, cv_int(0), named(cx, l->v), false, loc);
  CVal *v = l->v;
  if (v->kind == CV_PULL) { CVal *p = push_new(W_PULL, v->n, 2); p->x = v; v = p; }
  if (v->level != 2) return diag_unsupported(loc, "a result written by a push<%s> array (a program's result is a push<grid>)", level_name(v->level));
  if (result_is_temp(cx, l, v)) return true;
  return emit_push(cx, v, a, loc) && verify_store(l->st, loc);
}

/* ---- local tiles padded against bank conflicts (docs/fcl.md §6.2) ----
   A local array that neighbouring work-items access a multiple of 8 elements
   apart (transposeTiled's tile read by columns: 32 apart, every work-item of
   a warp in one bank) is stored with one element of padding after every 32:
   element x at x + x / 32, the classic 33-column tile. Its elements per
   work-group must be a multiple of 32, so that the group's copies stay
   apart (g * n + r is stored at g * (n + n / 32) + r + r / 32). */
typedef struct PadBuf { Buffer *b; bool pad; } PadBuf;
typedef struct PadScan { PadBuf *a; int n, cap; } PadScan;

static int pad_slot(PadScan *ps, Buffer *b) {
  for (int i = 0; i < ps->n; i++) if (ps->a[i].b == b) return i;
  ARENA_PUSH(ps->a, ps->n, ps->cap, ((PadBuf){ b, false }));
  return ps->n - 1;
}

typedef struct PadAt { NatVar *lcl; long long at; } PadAt;
static bool pad_lookup(void *ctx, NatVar *v, long long *value) {
  PadAt *p = ctx;
  *value = v == p->lcl ? p->at : 0;
  return true;
}

static void pad_exp(PadScan *ps, CExp *e, NatVar *lcl, bool rewrite) {
  if (!e) return;
  if ((e->kind == CE_READ || e->kind == CE_VLOAD) && e->buf && e->buf->space == SPACE_LOCAL && e->nat) {
    int k = pad_slot(ps, e->buf);
    if (rewrite) { if (ps->a[k].pad) e->nat = nat_add(e->nat, nat_div(e->nat, nat_const(32))); }
    else if (lcl) {
      PadAt a0 = { lcl, 0 }, a1 = { lcl, 1 };
      long long x0, x1;
      if (nat_eval(e->nat, pad_lookup, &a0, &x0) && nat_eval(e->nat, pad_lookup, &a1, &x1) && x1 != x0 && (x1 - x0) % 8 == 0)
        ps->a[k].pad = true;
    }
  }
  for (int i = 0; i < e->n; i++) pad_exp(ps, e->args[i], lcl, rewrite);
}

static void pad_stmt(PadScan *ps, KStmt *s, NatVar *lcl, bool rewrite) {
  if (!s) return;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) pad_stmt(ps, s->stmts[i], lcl, rewrite);
  pad_exp(ps, s->init, lcl, rewrite); pad_exp(ps, s->lhs, lcl, rewrite);
  pad_exp(ps, s->rhs, lcl, rewrite); pad_exp(ps, s->cond, lcl, rewrite);
  NatVar *inner = s->kind == KS_FOR && s->level == LEVEL_LCL ? s->var : lcl;
  pad_stmt(ps, s->body, inner, rewrite);
  pad_stmt(ps, s->then_, lcl, rewrite); pad_stmt(ps, s->else_, lcl, rewrite);
}

static Type *padded_type(Type *t, int outer) {
  if (outer > 0) return type_array(padded_type(t->elem, outer - 1), t->len);
  long long n;
  if (t->kind != TY_ARRAY || !nat_is_const(t->len, &n) || n % 32 != 0 || n < 64) return NULL;
  return type_array(t->elem, nat_const(n + n / 32));
}

static void pad_locals(Kernel *k) {
  if (switch_value(SW_FCL_NO_PAD)) return;
  PadScan ps = { 0 };
  pad_stmt(&ps, k->body, NULL, false);
  for (int i = 0; i < ps.n; i++) {
    if (!ps.a[i].pad) continue;
    Buffer *b = ps.a[i].b;
    int outer = 0;
    for (Type *t = b->type; t->kind == TY_ARRAY && t->elem->kind == TY_ARRAY; t = t->elem) outer++;
    Type *t = padded_type(b->type, outer);
    if (t) b->type = t; else ps.a[i].pad = false;
  }
  pad_stmt(&ps, k->body, NULL, true);
}

FclCompiled *fcl_compile(FProgram *mono, FDef *entry, Value **inputs, int ninputs, long long block_size, bool grid_cap) {
  Kernel *k = NEW(Kernel);
  Program *p = NEW(Program);
  p->file = mono->file; p->loc = entry->loc;
  p->params = NEW_ARRAY(Param, ninputs ? ninputs : 1);
  k->prog = p;
  k->body = kstmt_block();
  /* Warp barriers, fixed-size versions (stop 27), the register-staged read of the
     next chunk, a chunk kernel's blocks capped at one device-full and 4 chunks a
     work-group iteration (stop 28, where grid_cap) are the default: checked on an H100
     (bench/gpu/fcl_2027b.sh, fcl_2027c.sh, 2026-11-27: NumPy at 2^20, 2^20 + 1000
     and 2^27, other local sizes, racecheck, memcheck and synccheck clean; reduce
     1.05x and scan 2.16x CUB, from 1.23x and 2.15x; docs/fcl.md §6.2).
     Switches, to compare: CLIFT_FCL_FAST=0 turns the barriers and versions off,
     CLIFT_FCL_NO_WARP=1 every barrier the work-group's, CLIFT_FCL_NO_VERSION=1 no
     fixed-size version; CLIFT_FCL_PREFETCH=0 no prefetch, =l2 the L2 prefetch of
     the next chunk instead of the staged read (stop 27's default), =both the
     staged read and the L2 prefetch of the chunk after next; CLIFT_FCL_BATCH=k
     (2 to 8) k chunks a work-group iteration (dpia/batch.c), 0 or 1 one;
     CLIFT_FCL_GRID=w a chunk kernel's blocks capped at w device-fulls (cuda:
     PlanKernel.resident_waves, 1 to 64), 0 no cap. The staged reads and the
     batching are the default only where the grid is capped (grid_cap: cuda, and
     opencl since the seventh session, its residency estimated from the compute
     units; the switches' "auto" and -1): without the cap the batched reduce was
     slower than stop 27's code (1.33x CUB, not 1.23x). NVIDIA's OpenCL, timed
     with them (bench/gpu/session8_2026-11-27.sh): reverse, transpose, reduce as
     fast as cuda, scan 1.07x its unbatched, uncapped code. The cap applies to
     chunk kernels of 5+ barriers a chunk (CLIFT_FCL_GRID=-1, dpia/plan.c).
     Their table: util/switches.c. */
  bool fast = switch_value(SW_FCL_FAST);
  int prefetch = switch_value(SW_FCL_PREFETCH), batch = switch_value(SW_FCL_BATCH);
  if (prefetch == SW_PREFETCH_AUTO) prefetch = grid_cap ? SW_PREFETCH_REG : SW_PREFETCH_L2;
  /* the default: 4 chunks, halved while they pass 12 KiB of local memory
     (scan 2), a tree 8 under 24 KiB (reduce 8; dpia/batch.c) */
  if (batch < 0) { batch = grid_cap ? 4 : 0; k->batch_local_cap = 12 * 1024; }
  k->warp_barriers = fast && !switch_value(SW_FCL_NO_WARP);
  k->prefetch = prefetch != SW_PREFETCH_NONE;
  k->stage_and_prefetch = prefetch == SW_PREFETCH_BOTH;
  k->stage_reads = prefetch == SW_PREFETCH_BOTH || prefetch == SW_PREFETCH_REG;
  k->local_versions = fast && !switch_value(SW_FCL_NO_VERSION);
  k->batch_groups = batch >= 2 ? batch : 0;
  k->resident_waves = switch_value(SW_FCL_GRID);
  k->scalar_names = NEW_ARRAY(const char *, 1);
  k->scalar_types = NEW_ARRAY(Type *, 1);
  k->scalar_params = NEW_ARRAY(int, 1);
  Buffer *out = NEW(Buffer);
  out->name = "out"; out->space = SPACE_GLOBAL; out->is_param = true; out->param_index = 0;
  kernel_add_buffer(k, out);
  Cx cx = { .k = k, .block = k->body, .level = 2, .block_size = block_size,
            .args = NEW_ARRAY(Value *, ninputs ? ninputs : 1) };
  /* the definitions in order, as the interpreter does */
  CEnv *env = NULL;
  FDef *d = NULL;
  for (int i = 0; i < mono->ndefs; i++) {
    d = mono->defs[i];
    CVal *v = eval(&cx, env, d->body);
    if (!v) return NULL;
    CEnv *b = NEW(CEnv);
    *b = (CEnv){ d->name, v, env };
    env = b;
    if (!strcmp(d->name, entry->name)) break;
  }
  CVal *f = env->v;
  FType *t = ftype_prune(d->scheme->body);
  for (int i = 0; i < ninputs; i++, t = ftype_prune(t->b)) {
    CVal *in = input_value(&cx, t->a, inputs[i], p, i, d->loc);
    if (!in || !(f = apply(&cx, f, in, d->loc))) return NULL;
  }
  Leaves ls = { 0 };
  if (!leaves_of(f, t, &ls, d->loc)) return NULL;
  if (ls.n == 0) return diag_unsupported(d->loc, "a result with no arrays or scalars"), NULL;
  Type **fields = NEW_ARRAY(Type *, ls.n);
  for (int i = 0; i < ls.n; i++)
    if (!(fields[i] = leaf_type(&ls.a[i])))
      return diag_unsupported(d->loc, "a result of type %s (arrays of scalars or pairs of scalars, and scalars, are)", ftype_str(ls.a[i].t)), NULL;
  p->result = ls.n == 1 ? fields[0] : type_tuple(ls.n, fields);
  out->type = p->result;
  if (ls.n > 1) out->split = true;
  for (int i = 0; i < ls.n; i++) {
    Store *st = NEW(Store);
    st->n = st->cap = ls.a[i].scalar ? 1 : ls.a[i].v->n;
    st->base = nat_const(0);
    st->is_out = true;
    st->elem = fields[i]->elem;
    if (ls.n == 1) st->buf = out;
    else {
      Buffer *b = NEW(Buffer);
      b->name = arena_printf("out_f%d", i); b->type = fields[i]; b->space = SPACE_GLOBAL;
      b->is_param = true; b->param_index = 0; b->base = out; b->offset = layout_split_offset_nat(p->result, i);
      kernel_add_buffer(k, b);
      st->buf = b;
    }
    ls.a[i].st = st;
    if (!emit_leaf(&cx, &ls.a[i], d->loc)) return NULL;
  }
  pad_locals(k);
  FclCompiled *c = NEW(FclCompiled);
  c->kernel = k;
  c->prog = p;
  c->result_type = t;
  c->nleaves = ls.n;
  c->args = cx.args;
  return c;
}

/* the runtime's flat result back in the entry's shape */
static Value *shape(FType *t, Value *flat, int nleaves, int *at) {
  t = ftype_prune(t);
  if (t->kind == FY_PROG) return shape(t->a, flat, nleaves, at);
  if (t->kind == FY_PAIR && !clift_type(t)) {
    Value *v = value_tuple(2);
    v->elems[0] = shape(t->a, flat, nleaves, at);
    v->elems[1] = shape(t->b, flat, nleaves, at);
    return v;
  }
  Value *leaf = nleaves == 1 ? flat : flat->elems[*at];
  ++*at;
  if (t->kind != FY_PULL && t->kind != FY_PUSH) return value_elem(leaf, 0);
  return leaf;
}

Value *fcl_result_value(FclCompiled *c, Value *flat) {
  int at = 0;
  return shape(c->result_type, flat, c->nleaves, &at);
}
