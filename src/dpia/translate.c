/* translate.c — DPIA stages I and II (seed 004, Fig. 5 and §4.2): the
   acceptor-passing translation A(e)(out) and the continuation-passing
   translation C(e) (which emits into tr->block what must run before e can be
   read — the continuation is "the rest of the block" — and returns a view of
   e). Each primitive's rules are reached through the primitive table; a
   primitive without an acceptor rule is read with C and copied, and one
   without a continuation rule is materialised into a fresh temporary. */
#include "dpia.h"
#include <string.h>

/* A C identifier from a program name: other characters become '_'. */
const char *dpia_fresh(Tr *tr, const char *base) {
  char *s = arena_printf("%s%d", base, tr->counter++);
  for (char *p = s; *p; p++) if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) *p = '_';
  return (s[0] >= '0' && s[0] <= '9') || s[0] == '_' ? arena_printf("v%s", s) : s;
}

static View *lookup(Tr *tr, int uid) {
  for (Binding *b = tr->env; b; b = b->next) if (b->uid == uid) return b->view;
  return NULL;
}

static void bind(Tr *tr, int uid, View *v) {
  Binding *b = NEW(Binding);
  b->uid = uid; b->view = v; b->next = tr->env;
  tr->env = b;
}

static void emit(Tr *tr, KStmt *s) { kstmt_add(tr->block, s); }

/* Does evaluating e run a check that can report (SPEC §8)? Such an
   expression must not be evaluated on a path the program does not take. */
CExp *dpia_guarded(Tr *tr, CExp *cond, KStmt *blocks[2], CExp *vals[2], Type *t) {
  View *r; Acc *ra;
  dpia_new(tr, t, SPACE_PRIVATE, &r, &ra);
  KStmt *s = kstmt_if(cond, blocks[0], blocks[1]);
  for (int k = 0; k < 2; k++) kstmt_add(k ? s->else_ : s->then_, kstmt_assign(acc_resolve(tr, ra, (Path){0, NULL}), vals[k]));
  emit(tr, s);
  return r->scalar;
}

bool cexp_checks(CExp *e) {
  if (e->kind == CE_OP && (e->op == OP_CHECK_INDEX || e->op == OP_CHECK_DIV || e->op == OP_CHECK_MOD ||
                           e->op == OP_CHECK_F2I || e->op == OP_CHECK_D2I || e->op == OP_FACTORIAL || e->op == OP_CHECK_LENGTH ||
                           e->op == OP_BINOMIAL)) return true;
  for (int i = 0; i < e->n; i++) if (cexp_checks(e->args[i])) return true;
  return false;
}

KStmt *dpia_loop(Tr *tr, PrimLevel level, int dim, Nat *n, NatVar **var) {
  static const char *names[] = { "i", "i", "i", "gid", "wid", "lid" };
  const char *base = level == LEVEL_SEQ ? "i" : names[level];
  *var = nat_var_new(dpia_fresh(tr, base), nat_const(0), nat_sub(n, nat_const(1)));
  KStmt *body = kstmt_block();
  emit(tr, kstmt_for(level, dim, *var, n, body));
  return body;
}

/* A scalar value used more than once gets a private variable, so that it is
   computed once and the generated code reads like the program. */
static View *name_scalar(Tr *tr, CExp *e, const char *hint) {
  if (e->kind == CE_LIT || e->kind == CE_VAR || e->kind == CE_NAT) return view_scalar(e);
  KStmt *d = NEW(KStmt);
  d->kind = KS_DECL; d->name = dpia_fresh(tr, hint); d->type = e->type; d->init = e;
  emit(tr, d);
  return view_scalar(cexp_var(d->name, e->type));
}

CExp *dpia_scoped_value(Tr *tr, KStmt *inner, CExp *c) {
  if (c->kind == CE_LIT) { emit(tr, inner); return c; }   /* names nothing inside (a nat may name its counts) */
  KStmt *d = NEW(KStmt);
  d->kind = KS_DECL; d->name = dpia_fresh(tr, "elem"); d->type = c->type;
  emit(tr, d);
  CExp *var = cexp_var(d->name, c->type);
  kstmt_add(inner, kstmt_assign(var, c));
  emit(tr, inner);
  return var;
}

enum { PRIVATE_ARRAY_MAX = 256 };   /* elements; larger private arrays are hoisted */

/* An array of scalars/vectors of constant total size: storable in private memory. */
static bool private_array(Type *t, long long *count) {
  *count = 1;
  for (; t->kind == TY_ARRAY; t = t->elem) {
    long long n;
    if (t->index || !nat_is_const(t->len, &n)) return false;
    *count *= n;
  }
  return (type_is_scalar(t) || t->kind == TY_VECTOR) && *count <= PRIVATE_ARRAY_MAX;
}

/* Does a tuple somewhere in t hold an array? Such tuples cannot be stored as
   structs; they are stored field by field (seed 004: a tuple of arrays is a
   tuple of views). */
static bool tuple_holds_array(Type *t) {
  if (t->kind == TY_ARRAY) return tuple_holds_array(t->elem);
  if (t->kind != TY_TUPLE) return false;
  for (int f = 0; f < t->n; f++)
    if (t->fields[f]->kind == TY_ARRAY || t->fields[f]->kind == TY_EXISTS || tuple_holds_array(t->fields[f])) return true;
  return false;
}

/* t with its `depth` outer array dimensions put around `inner`. */
static Type *rewrap(Type *t, int depth, Type *inner) {
  if (depth == 0) return inner;
  Type *r = type_array(rewrap(t->elem, depth - 1, inner), t->len);
  return r;
}

/* A temporary of tuples (under `depth` array dimensions) stored as one
   temporary per field: a structure of arrays. */
static void new_fields(Tr *tr, Type *t, int depth, Type *tuple, AddrSpace s, View **view, Acc **acc) {
  View *v = view_new(depth == 0 ? V_TUPLE : V_SOA, t, tuple->n);
  Acc *a = acc_soa(t, depth, tuple->n);
  v->k = depth;
  for (int f = 0; f < tuple->n; f++) dpia_new(tr, rewrap(t, depth, tuple->fields[f]), s, &v->kids[f], &a->kids[f]);
  *view = v; *acc = a;
}

void dpia_new(Tr *tr, Type *t, AddrSpace s, View **view, Acc **acc) {
  if (exists_in(t)) {   /* dynamic-length arrays: the data at its upper bound, and the lengths (exists.c) */
    View *lv; Acc *la;
    Type *up = exists_upper(t);
    if (!up) {   /* refused (no upper bound): a stand-in of the same shape keeps the translation going to its end */
      tr->refused = true;
      up = t->kind == TY_EXISTS ? type_subst(t->array, t->exvar, nat_const(1)) : type_array(type_scalar(TY_INT), nat_const(1));
    }
    dpia_new(tr, up, s, view, acc);
    dpia_new(tr, exists_lens(t), t->kind == TY_EXISTS ? SPACE_PRIVATE : s, &lv, &la);
    View *v = NEW(View); *v = **view; v->type = t; v->len = lv; *view = v;
    Acc *a = NEW(Acc); *a = **acc; a->type = t; a->len = la; *acc = a;
    return;
  }
  if (t->kind == TY_TUPLE) { new_fields(tr, t, 0, t, s, view, acc); return; }
  if (tuple_holds_array(t)) {
    int depth = 0;
    Type *inner = t;
    for (; inner->kind == TY_ARRAY && !inner->index; inner = inner->elem) depth++;
    if (inner->kind == TY_TUPLE) { new_fields(tr, t, depth, inner, s, view, acc); return; }
  }
  if (type_is_value(t) && (s == SPACE_PRIVATE || s == SPACE_NONE)) {
    KStmt *d = NEW(KStmt);
    d->kind = KS_DECL; d->name = dpia_fresh(tr, "acc"); d->type = t;
    emit(tr, d);
    *view = view_scalar(cexp_var(d->name, t));
    *acc = acc_new(AC_VAR, t, NULL);
    (*acc)->var = d->name;
    return;
  }
  long long count;
  if (s == SPACE_PRIVATE && private_array(t, &count)) {
    /* a small private array lives where it is declared, one per work-item
       (registers after unrolling), never hoisted */
    Buffer *b = NEW(Buffer);
    b->name = dpia_fresh(tr, "priv");
    b->type = t; b->space = SPACE_PRIVATE;
    KStmt *d = NEW(KStmt);
    d->kind = KS_DECL; d->buf = b; d->name = b->name; d->type = t;
    emit(tr, d);
    *view = view_buf(b);
    *acc = acc_buf(b);
    return;
  }
  /* Hoisting (SPEC §5): the temporary lives at the kernel boundary, one slice
     per iteration of each enclosing parallel loop (local memory: per work-group). */
  ParLoop **loops = NULL;
  int np = 0, cap = 0;
  Type *whole = t;
  for (ParLoop *p = tr->par; p; p = p->outer) {   /* innermost first; a slice whose size depends on the loop's index is packed */
    whole = type_mentions(whole, p->var) ? type_dep_array(p->var, whole, p->count) : type_array(whole, p->count);
    ARENA_PUSH(loops, np, cap, p);
  }
  /* allocated before the program runs: at its upper bound; hoisted private data in global memory too */
  Buffer *b = kernel_new_buffer(tr->k, dpia_fresh(tr, s == SPACE_LOCAL ? "loc" : "tmp"),
                                dpia_unplaced(tr, exists_bounded(tr, whole)), s == SPACE_LOCAL ? SPACE_LOCAL : SPACE_GLOBAL);
  View *v = view_buf(b);
  Acc *a = acc_buf(b);
  for (int j = np - 1; j >= 0; j--) { v = view_idx(tr, v, nat_var(loops[j]->var)); a = acc_idx(a, nat_var(loops[j]->var)); }
  *view = v; *acc = a;
}

static bool assign_at(Tr *tr, Acc *out, View *v, Type *t, PrimLevel level);
bool dpia_acc(Tr *tr, Expr *e, Acc *out);

bool dpia_assign_at(Tr *tr, Acc *out, View *v, Type *t, PrimLevel level) { return assign_at(tr, out, v, t, level); }

bool dpia_assign(Tr *tr, Acc *out, View *v, Type *t) { return assign_at(tr, out, v, t, LEVEL_SEQ); }

bool dpia_assign_shared(Tr *tr, Acc *out, View *v, Type *t) { return assign_at(tr, out, v, t, LEVEL_LCL); }

/* out := v; an array's outermost loop runs at `level` (mapLcl: the work-items
   of a group share the copy), inner loops sequentially. */
static bool assign_at(Tr *tr, Acc *out, View *v, Type *t, PrimLevel level) {
  if (type_is_value(t)) {
    CExp *rhs = view_resolve(tr, v, (Path){0, NULL});
    CExp *lhs = rhs ? acc_resolve(tr, out, (Path){0, NULL}) : NULL;
    if (!lhs) return false;
    if (lhs->kind == CE_VEC) {   /* a vector whose lanes land apart (view.c, AC_ASVEC): lane by lane */
      CExp *v = name_scalar(tr, rhs, "vec")->scalar;
      for (int j = 0; j < lhs->n; j++) {
        CExp *lane = NEW(CExp);
        *lane = (CExp){ .kind = CE_LANE, .type = lhs->args[j]->type, .nat = nat_const(j), .n = 1, .field = -1 };
        lane->args = NEW_ARRAY(CExp *, 1);
        lane->args[0] = v;
        emit(tr, kstmt_assign(lhs->args[j], lane));
      }
      return true;
    }
    emit(tr, kstmt_assign(lhs, rhs));
    return true;
  }
  if (t->kind == TY_TUPLE) {
    for (int f = 0; f < t->n; f++)
      if (!dpia_assign(tr, acc_proj(out, f), view_proj(tr, v, f), t->fields[f])) return false;
    return true;
  }
  if (t->kind == TY_EXISTS) {   /* the run-time length, then the elements below it */
    View *data = exists_open(tr, v, nat_var_new("len", nat_const(0), t->exvar->hi));
    Acc *o = data ? exists_accept(tr, out, type_len(data->type)) : NULL;
    return o && exists_set_len(tr, out, cexp_nat(type_len(data->type))) && assign_at(tr, o, data, data->type, level);
  }
  if (t->kind != TY_ARRAY) return diag_error(LOC_NONE, "internal: cannot copy a value of type %s", type_to_string(t));
  long long n;
  if (nat_is_const(t->len, &n) && n == 1)   /* a [T]1 (a reduction's result) needs no loop */
    return dpia_assign(tr, acc_idx(out, nat_const(0)), view_idx(tr, v, nat_const(0)), type_elem_at(t, nat_const(0)));
  if (level == LEVEL_SEQ && !(v = dpia_force(tr, v, t->len))) return false;
  NatVar *i;
  KStmt *saved = tr->block;
  tr->block = dpia_loop(tr, level, 0, t->len, &i);
  /* what the copy computes per element (a fused map's work) runs inside it */
  ParLoop loop = { i, t->len, level, tr->par, 0, NULL };
  if (level != LEVEL_SEQ) tr->par = &loop; else tr->seq++;
  bool ok = dpia_assign(tr, acc_idx(out, nat_var(i)), view_idx(tr, v, nat_var(i)), type_elem_at(t, nat_var(i)));
  if (level != LEVEL_SEQ) tr->par = loop.outer; else tr->seq--;
  tr->block = saved;
  return ok;
}

/* Row i of a lazy map whose function needs commands (a mapSeq, a reduction: it
   is materialised) is computed again at every access of one of its elements:
   a sequential loop over the row's M elements did M·M work (difftest seed
   80004443, a filter copying rows of (map (lambda (r) (mapSeq g r)) xs): cubic,
   a timeout). A sequential loop about to read every element of v forces it
   first: each such row is computed once, here, and the loop reads the result.
   The application is tried into a block of its own and kept only if it emitted
   commands (a row of views stays lazy, as before); when the loop may run no
   iteration the commands run only if it runs one (an unread element computes
   nothing, SPEC §4.1, FINDINGS F26). Other views are forced through. */
static View *force(Tr *tr, View *v, CExp *runs);

static View *force_row(Tr *tr, View *v, CExp *runs) {
  View *m = v->kids[0];
  KStmt *saved = tr->block, *scratch = kstmt_block();
  Binding *env = tr->env;
  int counter = tr->counter;
  tr->block = scratch;
  tr->env = m->env;
  View *x = view_idx(tr, force(tr, m->kids[0], runs), v->a);
  View *fx = x ? dpia_apply(tr, m->fn, &x) : NULL;
  tr->env = env;
  tr->block = saved;
  if (!fx) return NULL;
  if (scratch->n == 0) { tr->counter = counter; return v; }
  if (runs) {
    emit(tr, kstmt_if(runs, scratch, NULL));
  } else {
    emit(tr, scratch);
  }
  if (v->pos && !fx->pos) { View *c = NEW(View); *c = *fx; c->pos = v->pos; fx = c; }
  return fx;
}

static View *force(Tr *tr, View *v, CExp *runs) {
  if (!v || v->kind == V_SCALAR || v->kind == V_BUF || v->kind == V_IOTA) return v;
  if (v->kind == V_IDX && v->kids[0]->kind == V_MAP && v->kids[0]->type->kind == TY_ARRAY &&
      !type_is_value(v->type)) return force_row(tr, v, runs);
  View *c = NULL;
  for (int k = 0; k < v->n; k++) {
    View *f = force(tr, v->kids[k], runs);
    if (!f) return NULL;
    if (f == v->kids[k]) continue;
    if (!c) { c = NEW(View); *c = *v; c->kids = NEW_ARRAY(View *, v->n); memcpy(c->kids, v->kids, sizeof(View *) * (size_t)v->n); }
    c->kids[k] = f;
  }
  return c ? c : v;
}

View *dpia_force(Tr *tr, View *v, Nat *count) {
  return force(tr, v, nat_proves_lt(nat_const(0), count) ? NULL : cexp_nat_lt(nat_const(0), count));
}

static Binding *bind_params(Tr *tr, Expr *lam, View **args) {
  Binding *saved = tr->env;
  for (int i = 0; i < lam->nparams; i++) bind(tr, lam->params[i].uid, args[i]);
  return saved;
}

View *dpia_apply(Tr *tr, Expr *lam, View **args) {
  if (!(lam = dpia_at_position(lam, args))) return NULL;
  Binding *saved = bind_params(tr, lam, args);
  View *r = dpia_exp(tr, lam->kids[0]);
  tr->env = saved;
  return r;
}

bool dpia_apply_acc(Tr *tr, Expr *lam, View **args, Acc *out) {
  if (!(lam = dpia_at_position(lam, args))) return false;
  Binding *saved = bind_params(tr, lam, args);
  bool ok = dpia_acc(tr, lam->kids[0], out);
  tr->env = saved;
  return ok;
}

bool dpia_has_unpack(Expr *e) {
  if (!e) return false;
  if (!e->unpacks) {
    bool any = e->kind == EX_UNPACK;
    for (int i = 0; i < e->nkids && !any; i++) any = dpia_has_unpack(e->kids[i]);
    e->unpacks = any ? 2 : 1;
  }
  return e->unpacks == 2;
}

bool dpia_reads_var(Expr *e, int uid) {
  if (e->kind == EX_VAR) return e->uid == uid;
  for (int i = 0; i < e->nkids; i++) if (e->kids[i] && dpia_reads_var(e->kids[i], uid)) return true;
  return false;
}

View *dpia_arg_at(Tr *tr, Expr *lam, int param, View *xs, Nat *at) {
  Type *et = type_elem_at(xs->type, at);
  if (lam->kind == EX_LAMBDA && param < lam->nparams && type_is_value(et) && et->kind != TY_TUPLE
      && !dpia_reads_var(lam->kids[0], lam->params[param].uid)) {
    CExp *zero = cexp_lit_int(0);
    zero->type = et;
    return view_scalar(zero);
  }
  return view_idx(tr, xs, at);
}

static View *materialise(Tr *tr, Expr *e, AddrSpace s) {
  View *v; Acc *a;
  dpia_new(tr, e->type, s, &v, &a);
  return dpia_acc(tr, e, a) ? v : NULL;
}

/* let x = v: x names v's view (a scalar gets a private variable); the caller
   restores the environment after the body. */
static bool bind_let(Tr *tr, Expr *e) {
  View *v = dpia_exp(tr, e->kids[0]);
  if (v && e->kind == EX_UNPACK) v = exists_open(tr, v, e->rigid);   /* SPEC §3.4: [T]X' from here on */
  if (!v) return false;
  if (v->kind == V_SCALAR) v = name_scalar(tr, v->scalar, e->name);
  bind(tr, e->uid, v);
  return true;
}

static View *exp_at(Tr *tr, Expr *e);
static bool acc_at(Tr *tr, Expr *e, Acc *out);

/* dpia_exp and dpia_acc translate e with it as the place of a refusal that
   has none of its own (diag_context; an expression made by a pass keeps the
   enclosing one's place); they return the place to put back. */
static Loc enter(Expr *e) {
  Loc was = diag_context(e->loc);
  if (!e->loc.file) diag_context(was);
  return was;
}

View *dpia_exp(Tr *tr, Expr *e) {
  Loc was = enter(e);
  View *v = exp_at(tr, e);
  diag_context(was);
  return v;
}

bool dpia_acc(Tr *tr, Expr *e, Acc *out) {
  Loc was = enter(e);
  bool ok = acc_at(tr, e, out);
  diag_context(was);
  return ok;
}

static View *exp_at(Tr *tr, Expr *e) {
  switch (e->kind) {
  case EX_VAR: {
    View *v = lookup(tr, e->uid);
    if (!v) diag_error(e->loc, "internal: no view for '%s'", e->name);
    return v;
  }
  case EX_INT: return view_scalar(cexp_lit_int(e->ival));
  case EX_LONG: { CExp *c = cexp_lit_int(e->ival); c->type = type_scalar(TY_LONG); return view_scalar(c); }
  case EX_BOOL: { CExp *c = cexp_lit_int(e->ival); c->type = type_scalar(TY_BOOL); return view_scalar(c); }
  case EX_FLOAT: case EX_DOUBLE: {
    CExp *c = cexp_lit_int(0);
    c->type = type_scalar(e->kind == EX_FLOAT ? TY_FLOAT : TY_DOUBLE); c->fval = e->fval;
    return view_scalar(c);
  }
  case EX_NAT: return view_scalar(cexp_nat(e->nat));
  case EX_LET: case EX_UNPACK: {
    Binding *saved = tr->env;
    View *r = bind_let(tr, e) ? dpia_exp(tr, e->kids[1]) : NULL;
    tr->env = saved;
    return r;
  }
  case EX_PACK: {   /* [T]L, L mentioning the unpack's rigid length: L is the run-time length */
    View *v = dpia_exp(tr, e->kids[0]);
    return v ? exists_view(v, e->type, cexp_nat(e->kids[0]->type->len)) : NULL;
  }
  case EX_IF:
    if (type_is_value(e->type)) {
      View *c = dpia_exp(tr, e->kids[0]);
      if (!c) return NULL;
      /* each arm's commands (a checked aref, a reduction) run only when the arm is taken */
      KStmt *saved = tr->block, *blocks[2];
      View *arms[2];
      for (int k = 0; k < 2; k++) {
        tr->block = blocks[k] = kstmt_block();
        arms[k] = dpia_exp(tr, e->kids[1 + k]);
        if (arms[k] && arms[k]->kind != V_SCALAR) arms[k] = view_scalar(view_resolve(tr, arms[k], (Path){0, NULL}));
        if (!arms[k] || !arms[k]->scalar) { tr->block = saved; return NULL; }
      }
      tr->block = saved;
      /* arms that need commands get an if statement here; arms that are
         expressions (with checks or not) stay a select, which computes only
         the arm taken and only where the value is used: an element of a lazy
         map that nothing reads runs none of its checks (FINDINGS F26, F28) */
      if (blocks[0]->n || blocks[1]->n)
        return view_scalar(dpia_guarded(tr, c->scalar, blocks, (CExp *[]){ arms[0]->scalar, arms[1]->scalar }, e->type));
      View *a = arms[0], *b = arms[1];
      CExp *s = NEW(CExp);
      *s = (CExp){ .kind = CE_SELECT, .type = e->type, .n = 3, .field = -1 };
      s->args = NEW_ARRAY(CExp *, 3);
      s->args[0] = c->scalar; s->args[1] = a->scalar; s->args[2] = b->scalar;
      return view_scalar(s);
    }
    return materialise(tr, e, SPACE_NONE);
  case EX_PRIM:
    if (e->prim->dpia_exp) return exists_layout_view(e->prim->dpia_exp(tr, e));
    return materialise(tr, e, SPACE_NONE);
  default:
    diag_error(e->loc, "internal: no translation for this expression");
    return NULL;
  }
}

static bool acc_at(Tr *tr, Expr *e, Acc *out) {
  switch (e->kind) {
  case EX_LET: case EX_UNPACK: {
    Binding *saved = tr->env;
    bool ok = bind_let(tr, e) && dpia_acc(tr, e->kids[1], out);
    tr->env = saved;
    return ok;
  }
  case EX_PACK: {   /* the data through the unpack; its length once the unpack has bound it */
    bool fused, ok = dpia_filter_then_map(tr, e, out, &fused);
    if (fused) return ok;
    Nat *len = e->kids[0]->type->len;
    Acc *data = exists_accept(tr, out, len);
    return data && dpia_acc(tr, e->kids[0], data) && exists_set_len(tr, out, cexp_nat(len));
  }
  case EX_IF:
    if (!type_is_value(e->type)) {
      View *c = dpia_exp(tr, e->kids[0]);
      if (!c) return false;
      KStmt *s = kstmt_if(c->scalar, NULL, NULL), *saved = tr->block;
      emit(tr, s);
      tr->block = s->then_;
      bool ok = dpia_acc(tr, e->kids[1], out);
      tr->block = s->else_;
      ok = ok && dpia_acc(tr, e->kids[2], out);
      tr->block = saved;
      return ok;
    }
    break;
  case EX_PRIM:
    if (e->prim->dpia_acc) return e->prim->dpia_acc(tr, e, out);
    if (!e->prim->dpia_exp)   /* neither rule: reading it would materialise it, which writes it, … */
      return diag_unsupported(e->loc, "'%s' (no translation yet)", e->prim->name);
    break;
  default:
    break;
  }
  View *v = dpia_exp(tr, e);
  /* a copy outside every loop is the program's outermost map: parallel, as
     the default strategy makes it (SPEC §4.2) */
  return v && assign_at(tr, out, v, e->type, tr->par || tr->seq ? LEVEL_SEQ : LEVEL_GLB);
}
