/* kernel.c — constructors of the imperative kernel AST. */
#include "kernel.h"
#include <string.h>

CExp *cexp_lit_int(long long v) {
  CExp *e = NEW(CExp);
  e->kind = CE_LIT; e->type = type_scalar(TY_INT); e->ival = v; e->field = -1;
  return e;
}

CExp *cexp_nat(Nat *n) {
  CExp *e = NEW(CExp);
  e->kind = CE_NAT; e->type = type_scalar(TY_INT); e->nat = n; e->field = -1;
  return e;
}

CExp *cexp_var(const char *name, Type *t) {
  CExp *e = NEW(CExp);
  e->kind = CE_VAR; e->type = t; e->name = name; e->field = -1;
  return e;
}

CExp *cexp_op(ScalarOp op, Type *t, int n, CExp **args) {
  CExp *e = NEW(CExp);
  e->kind = CE_OP; e->type = t; e->op = op; e->n = n; e->field = -1;
  e->args = NEW_ARRAY(CExp *, n);
  for (int i = 0; i < n; i++) e->args[i] = args[i];
  return e;
}

CExp *cexp_read(Buffer *b, Nat *index, int field, Type *t) {
  CExp *e = NEW(CExp);
  e->kind = CE_READ; e->type = t; e->buf = b; e->nat = index; e->field = field;
  return e;
}

CExp *cexp_nat_lt(Nat *a, Nat *b) {
  CExp *e = NEW(CExp);
  *e = (CExp){ .kind = CE_NAT_LT, .type = type_scalar(TY_BOOL), .nat = a, .nat2 = b, .field = -1 };
  return e;
}

CExp *cexp_read_volatile(Buffer *b, Nat *index, Type *t) {
  CExp *e = cexp_read(b, index, -1, t);
  e->is_volatile = true;
  return e;
}

CExp *cexp_atomic_inc(Buffer *b, Nat *index) {
  CExp *e = NEW(CExp);
  e->kind = CE_ATOMIC_INC; e->type = type_scalar(TY_INT); e->buf = b; e->nat = index; e->field = -1;
  return e;
}

static CExp *status_op(CExpKind kind, Type *t, int n, CExp *a, CExp *b) {
  CExp *e = NEW(CExp);
  e->kind = kind; e->type = t; e->field = -1; e->n = n;
  e->args = NEW_ARRAY(CExp *, 2);
  e->args[0] = a; e->args[1] = b;
  return e;
}
CExp *cexp_status(CExp *flag, CExp *value) { return status_op(CE_STATUS, type_scalar(TY_LONG), 2, flag, value); }
CExp *cexp_status_flag(CExp *word) { return status_op(CE_STATUS_FLAG, type_scalar(TY_INT), 1, word, NULL); }
CExp *cexp_status_value(CExp *word, Type *t) { return status_op(CE_STATUS_VALUE, t, 1, word, NULL); }

CExp *cexp_shfl_up(CExp *x, int delta) {
  CExp *e = status_op(CE_SHFL_UP, x->type, 1, x, NULL);
  e->ival = delta;
  return e;
}
CExp *cexp_shfl_down(CExp *x, int delta) {
  CExp *e = status_op(CE_SHFL_DOWN, x->type, 1, x, NULL);
  e->ival = delta;
  return e;
}
CExp *cexp_warp_first(CExp *cond) { return status_op(CE_WARP_FIRST, type_scalar(TY_INT), 1, cond, NULL); }
CExp *cexp_sleep(long long ns) {
  CExp *e = status_op(CE_SLEEP, type_scalar(TY_INT), 0, NULL, NULL);
  e->ival = ns;
  return e;
}

KStmt *kstmt_block(void) {
  KStmt *s = NEW(KStmt);
  s->kind = KS_BLOCK;
  return s;
}

void kstmt_add(KStmt *b, KStmt *s) {
  ARENA_PUSH(b->stmts, b->n, b->cap, s);
}

KStmt *kstmt_assign(CExp *lhs, CExp *rhs) {
  KStmt *s = NEW(KStmt);
  s->kind = KS_ASSIGN; s->lhs = lhs; s->rhs = rhs;
  return s;
}

KStmt *kstmt_if(CExp *cond, KStmt *then_, KStmt *else_) {
  KStmt *s = NEW(KStmt);
  s->kind = KS_IF; s->cond = cond;
  s->then_ = then_ ? then_ : kstmt_block(); s->else_ = else_ ? else_ : kstmt_block();
  return s;
}

KStmt *kstmt_for(PrimLevel level, int dim, NatVar *var, Nat *count, KStmt *body) {
  KStmt *s = NEW(KStmt);
  s->kind = KS_FOR; s->level = level; s->dim = dim; s->var = var; s->count = count; s->body = body;
  return s;
}

CExp *kernel_check_site(Kernel *k, Loc loc, CheckKind kind) {
  CheckSite *sites = NEW_ARRAY(CheckSite, k->nsites + 1);
  for (int i = 0; i < k->nsites; i++) sites[i] = k->sites[i];
  sites[k->nsites++] = (CheckSite){ loc, kind };
  k->sites = sites;
  return cexp_lit_int(k->nsites);
}

void kernel_note(Kernel *k, const char *note) {
  for (int i = 0; i < k->nnotes; i++) if (strcmp(k->notes[i], note) == 0) return;
  const char **notes = NEW_ARRAY(const char *, k->nnotes + 1);
  for (int i = 0; i < k->nnotes; i++) notes[i] = k->notes[i];
  notes[k->nnotes++] = note;
  k->notes = notes;
}

int kernel_buffer_index(const Kernel *k, const Buffer *b) {
  if (b->base) b = b->base;
  for (int i = 0; i < k->nbufs; i++) if (k->bufs[i] == b) return i;
  return -1;
}

/* grown in place (a copy per buffer made plans of thousands of temporaries
   quadratic in memory, fuzz F7) */
void kernel_add_buffer(Kernel *k, Buffer *b) { ARENA_PUSH(k->bufs, k->nbufs, k->capbufs, b); }

Buffer *kernel_new_buffer(Kernel *k, const char *name, Type *type, AddrSpace space) {
  Buffer *b = NEW(Buffer);
  b->name = name; b->type = type; b->space = space;
  kernel_add_buffer(k, b);
  return b;
}

/* ---- bounds of an index expression ---- */

/* [lo, hi] within the range of e's type: int arithmetic wraps (-fwrapv) outside it. */
static bool fits_type(Type *t, Nat *lo, Nat *hi) {
  if (t->kind == TY_LONG) return true;   /* nat bounds of the expressions below stay far inside */
  return t->kind == TY_INT && nat_proves_le(nat_const(INT32_MIN), lo) && nat_proves_le(hi, nat_const(INT32_MAX));
}

bool cexp_bounds(CExp *e, Nat **lo, Nat **hi) {
  Nat *l[2] = {0}, *h[2] = {0};
  if (e->kind == CE_LIT) {
    if (e->type->kind != TY_INT && e->type->kind != TY_LONG) return false;
    *lo = *hi = nat_const(e->ival);
    return true;
  }
  if (e->kind == CE_NAT) {
    *lo = nat_min_of(e->nat); *hi = nat_max_of(e->nat);
    return *lo && *hi && fits_type(e->type, *lo, *hi);
  }
  if (e->kind == CE_SELECT) {
    if (!cexp_bounds(e->args[1], &l[0], &h[0]) || !cexp_bounds(e->args[2], &l[1], &h[1])) return false;
    *lo = nat_min(l[0], l[1]); *hi = nat_max(h[0], h[1]);
    return true;
  }
  bool checked = e->kind == CE_OP && (e->op == OP_CHECK_DIV || e->op == OP_CHECK_MOD);   /* (a, b, site) */
  if (e->kind != CE_OP || e->n < 1 || e->n > (checked ? 3 : 2)) return false;
  for (int i = 0; i < e->n && i < 2; i++) if (!cexp_bounds(e->args[i], &l[i], &h[i])) return false;
  long long c;
  switch (e->op) {
  case OP_I2L: *lo = l[0]; *hi = h[0]; return true;
  case OP_L2I: *lo = l[0]; *hi = h[0]; break;
  case OP_ADD: *lo = nat_add(l[0], l[1]); *hi = nat_add(h[0], h[1]); break;
  case OP_SUB: *lo = nat_sub(l[0], h[1]); *hi = nat_sub(h[0], l[1]); break;
  case OP_MIN: *lo = nat_min(l[0], l[1]); *hi = nat_min(h[0], h[1]); break;
  case OP_MAX: *lo = nat_max(l[0], l[1]); *hi = nat_max(h[0], h[1]); break;
  case OP_MUL:   /* by a constant ≥ 0 */
    if (nat_is_const(l[1], &c) && nat_same(l[1], h[1]) && c >= 0) { *lo = nat_mul(l[0], l[1]); *hi = nat_mul(h[0], l[1]); break; }
    if (nat_is_const(l[0], &c) && nat_same(l[0], h[0]) && c >= 0) { *lo = nat_mul(l[1], l[0]); *hi = nat_mul(h[1], l[0]); break; }
    return false;
  case OP_DIV: case OP_MOD: case OP_CHECK_DIV: case OP_CHECK_MOD:
    /* C's / and % of a dividend ≥ 0 by a divisor ≥ 1: [lo/d, hi/d], [0, min(hi, d-1)] */
    if (!nat_proves_le(nat_const(0), l[0]) || !nat_proves_le(nat_const(1), l[1])) return false;
    if (e->op == OP_MOD || e->op == OP_CHECK_MOD) { *lo = nat_const(0); *hi = nat_min(h[0], nat_sub(h[1], nat_const(1))); }
    else if (nat_is_const(l[1], &c) && nat_same(l[1], h[1])) { *lo = nat_div(l[0], l[1]); *hi = nat_div(h[0], l[1]); }
    else return false;
    break;
  default: return false;
  }
  return fits_type(e->type, *lo, *hi);
}

static Buffer *buffer_root(Buffer *b) { return b->base ? b->base : b; }

bool kstmt_any(KStmt *s, bool (*fn)(KStmt *s, void *cx), void *cx) {
  if (!s) return false;
  if (fn(s, cx)) return true;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) if (kstmt_any(s->stmts[i], fn, cx)) return true;
  return kstmt_any(s->body, fn, cx) || kstmt_any(s->then_, fn, cx) || kstmt_any(s->else_, fn, cx);
}

bool cexp_any_node(CExp *e, bool (*fn)(CExp *e, void *cx), void *cx) {
  if (!e) return false;
  if (fn(e, cx)) return true;
  for (int i = 0; i < e->n; i++) if (cexp_any_node(e->args[i], fn, cx)) return true;
  return false;
}

typedef struct NodeVisit { bool (*fn)(CExp *e, void *cx); void *cx; } NodeVisit;

static bool stmt_nodes(KStmt *s, void *cx) {
  NodeVisit *v = cx;
  return cexp_any_node(s->init, v->fn, v->cx) || cexp_any_node(s->lhs, v->fn, v->cx) ||
         cexp_any_node(s->rhs, v->fn, v->cx) || cexp_any_node(s->cond, v->fn, v->cx);
}

bool kstmt_any_node(KStmt *s, bool (*fn)(CExp *e, void *cx), void *cx) {
  NodeVisit v = { fn, cx };
  return kstmt_any(s, stmt_nodes, &v);
}

bool kstmt_never_runs(const KStmt *s) { return s->kind == KS_FOR && nat_proves_le(s->count, nat_const(0)); }

bool kstmt_writes(KStmt *s, Buffer *b) {
  if (!s || kstmt_never_runs(s)) return false;
  if (s->kind == KS_ASSIGN) {
    CExp *base = s->lhs;
    while (base->kind == CE_LANE) base = base->args[0];
    return base->buf && buffer_root(base->buf) == buffer_root(b);
  }
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) if (kstmt_writes(s->stmts[i], b)) return true;
  return kstmt_writes(s->body, b) || kstmt_writes(s->then_, b) || kstmt_writes(s->else_, b);
}
