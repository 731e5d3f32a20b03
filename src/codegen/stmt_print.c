/* stmt_print.c — statements of the kernel AST, printed once for every backend
   (see stmt_print.h for what a backend supplies). */
#include "stmt_print.h"
#include "../syntax/ast.h"
#include "../dpia/plan.h"
#include "../layout/layout.h"
#include "../prim/special.h"
#include <string.h>

void codegen_indent(StmtPrinter *p) { for (int i = 0; i < p->depth; i++) buf_puts(p->b, "  "); }

Type *codegen_element_type(Type *t) { return type_innermost(t); }

Nat *codegen_element_count(Type *t) { return layout_type_elements(t); }

static void print_body(StmtPrinter *p, KStmt *s) {
  p->depth++;
  codegen_stmt(p, s);
  p->depth--;
}

static void print_decl(StmtPrinter *p, KStmt *s) {
  if (s->buf) {   /* a private array (dpia_new), one per work-item */
    buf_printf(p->b, "%s %s[", p->style->type(codegen_element_type(s->type)), s->name);
    codegen_nat(p->b, codegen_element_count(s->type));
    buf_puts(p->b, "];\n");
    return;
  }
  buf_printf(p->b, "%s %s", p->style->type(s->type), s->name);
  if (s->init) { buf_puts(p->b, " = "); p->style->exp(p->b, s->init); }
  buf_puts(p->b, ";\n");
  /* a checkLength whose value nothing reads (APL's expand): the check is
     the point, the variable may be unused */
  if (s->init && s->init->kind == CE_OP && s->init->op == OP_CHECK_LENGTH) {
    codegen_indent(p);
    buf_printf(p->b, "(void)%s;\n", s->name);
  }
}

/* Does the '(' that starts t close at its last character? Then the
   parentheses are the expression's own and `while (…)` need not repeat them. */
static bool parens_close_at_end(const char *t) {
  int depth = 0;
  for (const char *c = t; *c; c++) {
    depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
    if (depth == 0) return c[1] == 0;
  }
  return false;
}

/* `KEYWORD (c) {` without doubled parentheses (clang warns on `((a == b))`). */
static void print_head(StmtPrinter *p, const char *keyword, CExp *cond) {
  Buf c = {0};
  p->style->exp(&c, cond);
  const char *t = buf_str(&c);
  size_t n = strlen(t);
  bool wrapped = n > 1 && t[0] == '(' && parens_close_at_end(t);
  buf_printf(p->b, "%s (%.*s) {\n", keyword, (int)(wrapped ? n - 2 : n), wrapped ? t + 1 : t);
}

void codegen_stmt(StmtPrinter *p, KStmt *s) {
  switch (s->kind) {
  case KS_BLOCK:
    for (int i = 0; i < s->n; i++) codegen_stmt(p, s->stmts[i]);
    return;
  case KS_DECL:
    codegen_indent(p);
    print_decl(p, s);
    return;
  case KS_COUNT: {   /* a size computed at run time, never below 0 */
    const char *t = p->style->type(type_scalar(TY_LONG));
    codegen_indent(p);
    buf_printf(p->b, "const %s %s_value = (%s)", t, s->var->name, t);
    p->style->exp(p->b, s->init);
    buf_puts(p->b, ";\n");
    codegen_indent(p);
    buf_printf(p->b, "const %s %s = %s_value > 0 ? %s_value : 0;\n", t, s->var->name, s->var->name, s->var->name);
    return;
  }
  case KS_ASSIGN:
    codegen_indent(p);
    if (p->style->special_assign && p->style->special_assign(p, s)) return;
    p->style->exp(p->b, s->lhs);
    buf_puts(p->b, " = ");
    p->style->exp(p->b, s->rhs);
    buf_puts(p->b, ";\n");
    return;
  case KS_FOR: {
    bool parallel = s->level != LEVEL_SEQ;
    p->style->loop_head(p, s);
    p->parallel_open += parallel;
    print_body(p, s->body);
    p->parallel_open -= parallel;
    codegen_indent(p);
    buf_puts(p->b, "}\n");
    return;
  }
  case KS_IF:
    codegen_indent(p);
    print_head(p, "if", s->cond);
    print_body(p, s->then_);
    if (s->else_ && s->else_->n > 0) {
      codegen_indent(p);
      buf_puts(p->b, "} else {\n");
      print_body(p, s->else_);
    }
    codegen_indent(p);
    buf_puts(p->b, "}\n");
    return;
  case KS_WHILE:   /* while (c) { … }, or the commands c needs first, then the test */
    codegen_indent(p);
    if (s->then_->n == 0) {
      print_head(p, "while", s->cond);
    } else {
      buf_puts(p->b, "while (true) {\n");
      print_body(p, s->then_);
      p->depth++;
      codegen_indent(p);
      buf_puts(p->b, "if (!");
      p->style->exp(p->b, s->cond);
      buf_puts(p->b, ") break;\n");
      p->depth--;
    }
    print_body(p, s->body);
    codegen_indent(p);
    buf_puts(p->b, "}\n");
    return;
  case KS_BARRIER:
    if (!p->style->barrier) return;   /* the CPU targets: one thread per work-group */
    codegen_indent(p);
    p->style->barrier(p, s);
    return;
  }
}

static void walk_exp(CExp *e, void (*fn)(Type *, void *), void *ctx) {
  if (!e) return;
  if (e->type) fn(e->type, ctx);
  for (int i = 0; i < e->n; i++) walk_exp(e->args[i], fn, ctx);
}

void codegen_walk_types(KStmt *s, void (*fn)(Type *, void *), void *ctx) {
  if (!s) return;
  if (s->type) fn(s->type, ctx);
  walk_exp(s->init, fn, ctx);
  walk_exp(s->lhs, fn, ctx);
  walk_exp(s->rhs, fn, ctx);
  walk_exp(s->cond, fn, ctx);
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) codegen_walk_types(s->stmts[i], fn, ctx);
  codegen_walk_types(s->body, fn, ctx);
  codegen_walk_types(s->then_, fn, ctx);
  codegen_walk_types(s->else_, fn, ctx);
}

LclForm codegen_lcl_form(StmtPrinter *p, KStmt *s, long long *count, long long *size) {
  if (s->level != LEVEL_LCL || s->dim < 0 || s->dim > 2 || !(*size = p->local_size[s->dim])) return LCL_RUNTIME;
  if (!nat_is_const(s->count, count)) return LCL_RUNTIME;
  if (*count == *size) return LCL_BLOCK;
  if (*count < *size) return LCL_IF;
  return *count % *size == 0 ? LCL_STEPS : LCL_STRIDE;
}

/* ---- a work-item's own elements kept in registers (the fixed-size version,
   docs/fcl.md §6.2 "own elements") ----
   In a block, mapLcl loop W writes local buf[lid] once, unconditionally, and a
   later mapLcl loop R of no more items reads buf[lid'] at its own index, with
   nothing between them writing buf and R not writing it: in the fixed-size forms
   (one iteration per thread, an if, or constant steps: item lid is thread
   lid % S at step lid / S in both) R's item reads what the same thread wrote at
   the same step, so W also keeps the value in a private array indexed by the step
   (registers once the constant steps are unrolled) and R reads that instead of
   local memory. The store stays: other items read buf. */
static bool fixed_steps(StmtPrinter *p, KStmt *s, long long *count, long long *steps) {
  long long size;
  if (s->kind != KS_FOR || s->level != LEVEL_LCL || s->dim != 0) return false;
  LclForm f = codegen_lcl_form(p, s, count, &size);
  *steps = f == LCL_STEPS ? *count / size : 1;
  return f == LCL_BLOCK || f == LCL_IF || f == LCL_STEPS;
}

/* the step variable the printed loop declares (cuda's and opencl's LCL_STEPS), 0 without */
static Nat *step_of(KStmt *loop, long long steps) {
  return steps == 1 ? nat_const(0) : nat_var(nat_var_new(arena_printf("%s_step", loop->var->name), nat_const(0), nat_const(steps - 1)));
}

static CExp *lhs_base(KStmt *s) {
  CExp *base = s->lhs;
  while (base->kind == CE_LANE) base = base->args[0];
  return base;
}

static int writes_of(KStmt *s, Buffer *b) {
  if (!s) return 0;
  if (s->kind == KS_ASSIGN) return lhs_base(s)->buf == b;
  int n = writes_of(s->body, b) + writes_of(s->then_, b) + writes_of(s->else_, b);
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) n += writes_of(s->stmts[i], b);
  return n;
}

static bool reads_own(CExp *e, Buffer *b, Nat *own) {
  if (!e) return false;
  if (e->kind == CE_READ && e->buf == b && e->field < 0 && e->nsub == 0 && nat_same(e->nat, own)) return true;
  for (int i = 0; i < e->n; i++) if (reads_own(e->args[i], b, own)) return true;
  return false;
}

static bool stmt_reads_own(KStmt *s, Buffer *b, Nat *own) {
  if (!s) return false;
  if (reads_own(s->init, b, own) || reads_own(s->rhs, b, own) || reads_own(s->cond, b, own)) return true;
  if (s->lhs && s->lhs->kind != CE_VAR && s->lhs->n && reads_own(s->lhs, b, own)) return true;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) if (stmt_reads_own(s->stmts[i], b, own)) return true;
  return stmt_reads_own(s->body, b, own) || stmt_reads_own(s->then_, b, own) || stmt_reads_own(s->else_, b, own);
}

/* e with the own-element reads of b replaced by `by` (copies where it changes) */
static CExp *subst_own(CExp *e, Buffer *b, Nat *own, CExp *by) {
  if (!e) return e;
  if (e->kind == CE_READ && e->buf == b && e->field < 0 && e->nsub == 0 && nat_same(e->nat, own)) return by;
  CExp *c = NULL;
  for (int i = 0; i < e->n; i++) {
    CExp *a = subst_own(e->args[i], b, own, by);
    if (a == e->args[i]) continue;
    if (!c) {
      c = NEW(CExp);
      *c = *e;
      c->args = NEW_ARRAY(CExp *, e->n);
      for (int k = 0; k < e->n; k++) c->args[k] = e->args[k];
    }
    c->args[i] = a;
  }
  return c ? c : e;
}

static KStmt *subst_stmt(KStmt *s, Buffer *b, Nat *own, CExp *by) {
  if (!s) return s;
  KStmt *c = NEW(KStmt);
  *c = *s;
  c->init = subst_own(s->init, b, own, by);
  c->rhs = subst_own(s->rhs, b, own, by);
  c->cond = subst_own(s->cond, b, own, by);
  if (s->kind == KS_BLOCK) {
    c->stmts = NEW_ARRAY(KStmt *, s->n);
    for (int i = 0; i < s->n; i++) c->stmts[i] = subst_stmt(s->stmts[i], b, own, by);
    c->cap = s->n;
  }
  c->body = subst_stmt(s->body, b, own, by);
  c->then_ = subst_stmt(s->then_, b, own, by);
  c->else_ = subst_stmt(s->else_, b, own, by);
  return c;
}

/* The top-level statement of w's body writing buf[w's variable], local, the only write
   of buf in w: its index in the body, or -1. */
static int own_write(KStmt *w) {
  KStmt *body = w->body;
  for (int i = 0; body && body->kind == KS_BLOCK && i < body->n; i++) {
    KStmt *s = body->stmts[i];
    if (s->kind != KS_ASSIGN || s->lhs->kind != CE_READ) continue;
    Buffer *b = s->lhs->buf;
    if (b && b->space == SPACE_LOCAL && s->lhs->field < 0 && s->lhs->nsub == 0 && nat_same(s->lhs->nat, nat_var(w->var))
        && writes_of(body, b) == 1)
      return i;
  }
  return -1;
}

static KStmt *own_elements(StmtPrinter *p, KStmt *s, int *counter);

static KStmt *block_of(KStmt *s) {
  KStmt *b = kstmt_block();
  kstmt_add(b, s);
  return b;
}

/* Block b's statements with the own elements forwarded (a copy). */
static KStmt *own_elements_block(StmtPrinter *p, KStmt *b, int *counter) {
  KStmt *out = kstmt_block();
  KStmt **st = NEW_ARRAY(KStmt *, b->n);
  for (int i = 0; i < b->n; i++) st[i] = own_elements(p, b->stmts[i], counter);
  for (int i = 0; i < b->n; i++) {
    long long c1, n1, c2, n2;
    int at = fixed_steps(p, st[i], &c1, &n1) ? own_write(st[i]) : -1;
    if (at < 0) { kstmt_add(out, st[i]); continue; }
    KStmt *w = st[i], *wr = w->body->stmts[at];
    Buffer *buf = wr->lhs->buf;
    Buffer *keep = NEW(Buffer);
    keep->name = arena_printf("%s_own%d", buf->name, (*counter)++);
    keep->type = type_array(wr->lhs->type, nat_const(n1));
    keep->space = SPACE_PRIVATE;
    bool any = false;
    for (int j = i + 1; j < b->n && !writes_of(st[j], buf); j++) {
      Nat *own = st[j]->kind == KS_FOR ? nat_var(st[j]->var) : NULL;
      if (!own || !fixed_steps(p, st[j], &c2, &n2) || c2 > c1 || !stmt_reads_own(st[j]->body, buf, own)) continue;
      KStmt *r = NEW(KStmt);
      *r = *st[j];
      r->body = subst_stmt(st[j]->body, buf, own, cexp_read(keep, step_of(st[j], n2), -1, wr->lhs->type));
      st[j] = r;
      any = true;
    }
    if (!any) { kstmt_add(out, w); continue; }
    KStmt *decl = kstmt_block();
    decl->kind = KS_DECL; decl->buf = keep; decl->name = keep->name; decl->type = keep->type;
    kstmt_add(out, decl);
    CExp *slot = cexp_read(keep, step_of(w, n1), -1, wr->lhs->type);
    KStmt *body = kstmt_block();
    for (int k = 0; k < w->body->n; k++) {
      if (k != at) { kstmt_add(body, w->body->stmts[k]); continue; }
      kstmt_add(body, kstmt_assign(slot, wr->rhs));
      kstmt_add(body, kstmt_assign(wr->lhs, slot));
    }
    KStmt *nw = NEW(KStmt);
    *nw = *w;
    nw->body = body;
    kstmt_add(out, nw);
  }
  return out;
}

static KStmt *own_elements(StmtPrinter *p, KStmt *s, int *counter) {
  if (s->kind == KS_BLOCK) return own_elements_block(p, s, counter);
  if ((s->kind == KS_FOR && s->level != LEVEL_LCL && s->level != LEVEL_GLB) || s->kind == KS_IF) {
    KStmt *c = NEW(KStmt);
    *c = *s;
    if (s->body) c->body = own_elements(p, s->body, counter);
    if (s->then_) c->then_ = own_elements(p, s->then_, counter);
    if (s->else_) c->else_ = own_elements(p, s->else_, counter);
    return c;
  }
  return s;
}

/* ---- reads one chunk ahead (the fixed-size version with CLIFT_FCL_PREFETCH=reg,
   docs/fcl.md §6.2 "prefetch") ----
   The reads dpia/prefetch.c chose in a work-group loop's first mapLcl loop L
   (unconditional, of buffers the kernel never writes, at indices of the group's
   and the item's variables) are made one chunk ahead into private stages: the
   first chunk's before the loop, and at the top of L's body the current value
   taken from the stage and the next chunk's read issued into it, so that it is in
   flight during this chunk's steps. L's fixed-size form gives each thread the same
   items at every chunk (item lid at step lid / S), so stage[step] is that item's. */
static KStmt *decl_of(Buffer *b) {
  KStmt *d = kstmt_block();
  d->kind = KS_DECL; d->buf = b; d->name = b->name; d->type = b->type;
  return d;
}

static KStmt *if_then(CExp *cond, KStmt *then_) {
  KStmt *g = kstmt_block();
  g->kind = KS_IF; g->cond = cond; g->then_ = then_; g->else_ = kstmt_block();
  return g;
}

static KStmt *staged_loop(StmtPrinter *p, KStmt *w, KStmt *out) {
  KStmt *l = w->body->stmts[0];
  long long count, steps;
  if (!l->nprefetch || !fixed_steps(p, l, &count, &steps) || steps > 4) return w;
  NatVar *first = nat_var_new(arena_printf("(clift_index)blockIdx.x"), nat_const(0), nat_sub(w->count, nat_const(1)));
  KStmt *fill = kstmt_block(), *body = kstmt_block();
  KStmt *next = kstmt_block();
  next->kind = KS_DECL; next->name = l->prefetch_next->name; next->type = type_scalar(TY_LONG);
  next->init = cexp_var(arena_printf("%s + gridDim.x", w->var->name), type_scalar(TY_LONG));
  kstmt_add(body, next);
  KStmt *ahead = kstmt_block(), *rest = l->body;
  for (int k = 0; k < l->nprefetch; k++) {
    CExp *r = l->prefetched[k];
    Buffer *st = NEW(Buffer);
    st->name = arena_printf("%s_stage%d", r->buf->name, k);
    st->type = type_array(r->type, nat_const(steps));
    st->space = SPACE_PRIVATE;
    kstmt_add(out, decl_of(st));
    CExp *slot = cexp_read(st, step_of(l, steps), -1, r->type);
    CExp *at_first = NEW(CExp);
    *at_first = *r;
    at_first->nat = nat_subst(r->nat, w->var, nat_var(first));
    kstmt_add(fill, kstmt_assign(slot, at_first));
    const char *cur = arena_printf("%s_cur%d", r->buf->name, k);
    KStmt *d = kstmt_block();
    d->kind = KS_DECL; d->name = cur; d->type = r->type; d->init = slot;
    kstmt_add(body, d);
    kstmt_add(ahead, kstmt_assign(slot, l->prefetch[k]));
    rest = subst_stmt(rest, r->buf, r->nat, cexp_var(cur, r->type));
  }
  kstmt_add(body, if_then(cexp_nat_lt(nat_var(l->prefetch_next), w->count), ahead));
  for (int i = 0; i < rest->n; i++) kstmt_add(body, rest->stmts[i]);
  KStmt *lf = NEW(KStmt), *ln = NEW(KStmt);
  *lf = *l; lf->nprefetch = 0; lf->body = fill;
  *ln = *l; ln->nprefetch = 0; ln->body = body;
  kstmt_add(out, if_then(cexp_nat_lt(nat_var(first), w->count), block_of(lf)));
  KStmt *wb = kstmt_block();
  kstmt_add(wb, ln);
  for (int i = 1; i < w->body->n; i++) kstmt_add(wb, w->body->stmts[i]);
  KStmt *nw = NEW(KStmt);
  *nw = *w;
  nw->body = wb;
  return nw;
}

/* The fixed-size version's body: reads staged (pk->stage_reads), own elements kept. */
static KStmt *fixed_size_body(StmtPrinter *p, PlanKernel *pk, int *counter) {
  KStmt *body = pk->body;
  if (pk->stage_reads) {
    KStmt *out = kstmt_block();
    for (int i = 0; i < body->n; i++) {
      KStmt *s = body->stmts[i];
      bool chunks = s->kind == KS_FOR && s->level == LEVEL_WRG && s->body && s->body->kind == KS_BLOCK && s->body->n
                    && s->body->stmts[0]->kind == KS_FOR && s->body->stmts[0]->prefetch_wrg == s;
      kstmt_add(out, chunks ? staged_loop(p, s, out) : s);
    }
    body = out;
  }
  return own_elements(p, body, counter);
}

void codegen_kernel_body(Buf *b, PlanKernel *pk, const StmtStyle *style, const char *local_qualifier,
                         const char *(*mem_type)(Type *t)) {
  for (int i = 0; i < pk->nlocals; i++) {
    buf_printf(b, "  %s %s %s[", local_qualifier, mem_type(codegen_element_type(pk->locals[i]->type)), pk->locals[i]->name);
    codegen_nat(b, pk->local_counts[i]);
    buf_puts(b, "];\n");
  }
  StmtPrinter p = { b, 1, style, 0, NULL, { 0, 0, 0 } };
  plan_pinned_sizes(pk->body, p.local_size);
  if (pk->version_local && style->version_test && !p.local_size[0]) {   /* plan_version_local */
    buf_puts(b, "  if (");
    buf_printf(b, style->version_test, pk->version_local);
    buf_puts(b, ") {   /* the default block size: fixed-size loops */\n");
    p.depth = 2;
    p.local_size[0] = pk->version_local;
    int counter = 0;
    codegen_stmt(&p, fixed_size_body(&p, pk, &counter));
    buf_puts(b, "  } else {   /* any other */\n");
    p.local_size[0] = 0;
    codegen_stmt(&p, pk->body);
    buf_puts(b, "  }\n");
  } else {
    codegen_stmt(&p, pk->body);
  }
  buf_puts(b, "}\n\n");
}

typedef struct Declarer { void (*declare)(Buf *, Type *, Buf *); Buf *types, *seen; } Declarer;
static void declare_one(Type *t, void *ctx) { Declarer *d = ctx; d->declare(d->types, t, d->seen); }

void codegen_declare_types(Kernel *k, void (*declare)(Buf *, Type *, Buf *), Buf *types) {
  Buf seen = {0};
  Declarer d = { declare, types, &seen };
  for (int i = 0; i < k->nbufs; i++) if (!k->bufs[i]->split) declare(types, k->bufs[i]->type, &seen);
  for (int i = 0; i < k->nscalars; i++) declare(types, k->scalar_types[i], &seen);
  codegen_walk_types(k->body, declare_one, &d);
}

/* factorial and binomial (prim/special.h, the interpreter's own code as
   text, one function a line, CLIFT_Q replaced by the flavour's qualifier so
   that no line looks like an export to lib_c.c), and their checked forms: a
   domain error puts the arguments' bits into the cell */
#define CLIFT_STR(...) #__VA_ARGS__
#define CLIFT_XSTR(...) CLIFT_STR(__VA_ARGS__)
static void special_prelude(Buf *b, const char *q, const char *cell, const char *dbits) {
  static const char text[] = CLIFT_XSTR(CLIFT_SPECIAL_FNS), mark[] = "CLIFT_Q ";
  for (const char *p = strstr(text, mark); p;) {   /* each function on a line of its own, its qualifier q */
    p += strlen(mark);
    const char *next = strstr(p, mark);
    size_t n = next ? (size_t)(next - p) : strlen(p);
    while (n > 0 && p[n - 1] == ' ') n--;
    buf_printf(b, "%s%.*s\n", q, (int)n, p);
    p = next;
  }
  buf_printf(b, "%sdouble clift_factorial_in(double x, int site, %se) {\n"
             "  int bad = 0;\n  double r = clift_factorial_of(x, &bad);\n"
             "  if (bad) clift_fail(e, site, %s(x), 0);\n  return r;\n}\n", q, cell, dbits);
  buf_printf(b, "%sdouble clift_binomial_in(double k, double n, int site, %se) {\n"
             "  int bad = 0;\n  double r = clift_binomial_of(k, n, &bad);\n"
             "  if (bad) clift_fail(e, site, %s(k), %s(n));\n  return r;\n}\n", q, cell, dbits, dbits);
}

void codegen_notes(Buf *b, const Kernel *k) {
  for (int i = 0; i < k->nnotes; i++) buf_printf(b, "/* %s */\n", k->notes[i]);
}

void codegen_checks_prelude(Buf *b, ChecksFlavour fl) {
  static const struct { const char *q, *cell, *i32, *i64, *u32, *u64, *cas, *fbits, *dbits, *dbitsfn, *dguard, *powf; } f[] = {
    [CHECKS_C] = { "static inline ", "int *", "int32_t", "int64_t", "uint32_t", "uint64_t",
                   "__sync_bool_compare_and_swap(e, 0, site)",
                   "clift_float_bits(x)", "clift_double_bits(x)", "clift_double_bits", NULL, "powf" },
    [CHECKS_OPENCL] = { "", "__global int *", "int", "long", "uint", "ulong", "atomic_cmpxchg(e, 0, site) == 0",
                        "(long)as_uint(x)", "as_long(x)", "as_long", "cl_khr_fp64", "pow" },
    [CHECKS_CUDA] = { "__device__ inline ", "int *", "int", "long long", "unsigned", "unsigned long long",
                      "atomicCAS(e, 0, site) == 0",
                      "(long long)(unsigned)__float_as_int(x)", "__double_as_longlong(x)", "__double_as_longlong", NULL, "powf" },
  };
  const char *q = f[fl].q, *cell = f[fl].cell, *l = f[fl].i64;
  buf_printf(b, "%svoid clift_fail(%se, int site, %s a, %s n) {\n"
             "  if (%s) { e[1] = (int)(a & 0xffffffff); e[2] = (int)(a >> 32); e[3] = (int)(n & 0xffffffff); e[4] = (int)(n >> 32); }\n"
             "}\n", q, cell, l, l, f[fl].cas);
  buf_printf(b, "%s%s clift_check_index_in(%s i, %s n, int site, %se) {\n"
             "  if (i < 0 || i >= n) { clift_fail(e, site, i, n); return 0; }\n  return i;\n}\n", q, l, l, l, cell);
  buf_printf(b, "%s%s clift_check_length_in(%s a, %s n, int site, %se) {\n"
             "  if (a != n) clift_fail(e, site, a, n);\n  return (%s)a;\n}\n", q, f[fl].i32, l, l, cell, f[fl].i32);
  for (int w = 0; w < 2; w++) {
    const char *t = w ? l : f[fl].i32, *u = w ? f[fl].u64 : f[fl].u32;
    int bits = w ? 64 : 32;
    buf_printf(b, "%s%s clift_div_i%d_in(%s a, %s b, int site, %se) {\n"
               "  if (b == 0) { clift_fail(e, site, 0, 0); return 0; }\n"
               "  return b == -1 ? (%s)(0 - (%s)a) : a / b;\n}\n", q, t, bits, t, t, cell, t, u);
    buf_printf(b, "%s%s clift_mod_i%d_in(%s a, %s b, int site, %se) {\n"
               "  if (b == 0) { clift_fail(e, site, 0, 0); return 0; }\n"
               "  return b == -1 ? 0 : a %% b;\n}\n", q, t, bits, t, t, cell);
  }
  /* f2i/d2i outside the int range (NaN too): the value's bits go into the cell */
  if (fl == CHECKS_C)
    buf_puts(b, "static inline int64_t clift_float_bits(float x) { union { float f; uint32_t u; } c = { x }; return (int64_t)c.u; }\n"
                "static inline int64_t clift_double_bits(double x) { union { double d; uint64_t u; } c = { x }; return (int64_t)c.u; }\n");
  buf_printf(b, "%s%s clift_f2i_in(float x, int site, %se) {\n"
             "  if (!(x >= -2147483648.0f && x < 2147483648.0f)) { clift_fail(e, site, %s, 0); return 0; }\n"
             "  return (%s)x;\n}\n", q, f[fl].i32, cell, f[fl].fbits, f[fl].i32);
  if (f[fl].dguard) buf_printf(b, "#ifdef %s\n", f[fl].dguard);
  buf_printf(b, "%s%s clift_d2i_in(double x, int site, %se) {\n"
             "  if (!(x > -2147483649.0 && x < 2147483648.0)) { clift_fail(e, site, %s, 0); return 0; }\n"
             "  return (%s)x;\n}\n", q, f[fl].i32, cell, f[fl].dbits, f[fl].i32);
  special_prelude(b, q, cell, f[fl].dbitsfn);
  if (f[fl].dguard) buf_puts(b, "#endif\n");
  /* x to the power y (APL's *, pow): exact where x and y are integers and so
     is the result, below 2^24 for float and 2^53 for double, by repeated
     squaring (every intermediate is an exact integer no larger than the
     result), as glibc's pow gives on the CPU; a device's pow may miss such a
     power by an ulp, and floor then drops a whole unit (FINDINGS F29).
     Anything else: the library's pow. */
  for (int w = 0; w < 2; w++) {
    const char *t = w ? "double" : "float", *name = w ? "clift_pow" : "clift_powf", *lib = w ? "pow" : f[fl].powf;
    if (w && f[fl].dguard) buf_printf(b, "#ifdef %s\n", f[fl].dguard);
    buf_printf(b, "%s%s %s(%s x, %s y) {\n"
               "  if (y == floor(y) && x == floor(x) && fabs(y) <= 64) {\n"
               "    %s r = 1, p = x;\n"
               "    %s n = (%s)fabs(y);\n"
               "    while (n) { if (n & 1) r *= p; n >>= 1; if (n) p *= p; }\n"
               "    if (fabs(r) < %s) return y < 0 ? 1 / r : r;\n"
               "  }\n"
               "  return %s(x, y);\n}\n", q, t, name, t, t, t, l, l, w ? "9007199254740992.0" : "16777216.0f", lib);
    if (w && f[fl].dguard) buf_puts(b, "#endif\n");
  }
  buf_puts(b, "#define clift_factorial(x, site) clift_factorial_in(x, site, clift_error)\n"
              "#define clift_binomial(k, n, site) clift_binomial_in(k, n, site, clift_error)\n");
  buf_puts(b, "#define clift_f2i(x, site) clift_f2i_in(x, site, clift_error)\n"
              "#define clift_d2i(x, site) clift_d2i_in(x, site, clift_error)\n");
  buf_puts(b, "#define clift_check_index(i, n, site) clift_check_index_in(i, n, site, clift_error)\n"
              "#define clift_check_length(a, n, site) clift_check_length_in(a, n, site, clift_error)\n"
              "#define clift_div_i32(a, b, site) clift_div_i32_in(a, b, site, clift_error)\n"
              "#define clift_mod_i32(a, b, site) clift_mod_i32_in(a, b, site, clift_error)\n"
              "#define clift_div_i64(a, b, site) clift_div_i64_in(a, b, site, clift_error)\n"
              "#define clift_mod_i64(a, b, site) clift_mod_i64_in(a, b, site, clift_error)\n\n");
}

/* The sizes, then the variables of the host loops around the kernel. */
static int size_count(Plan *pl, PlanKernel *pk) { return pl->k->prog->nsizes + pk->nvars; }
static const char *size_name(Plan *pl, PlanKernel *pk, int i) {
  int n = pl->k->prog->nsizes;
  return i < n ? pl->k->prog->sizes[i]->name : pk->vars[i - n]->name;
}

const char *codegen_size_params(Buf *b, Plan *pl, PlanKernel *pk, const char *type, const char *sep) {
  for (int i = 0; i < size_count(pl, pk); i++, sep = ", ") buf_printf(b, "%s%s %s_arg", sep, type, size_name(pl, pk, i));
  return sep;
}

void codegen_size_locals(Buf *b, Plan *pl, PlanKernel *pk) {
  for (int i = 0; i < size_count(pl, pk); i++)   /* in the index type */
    buf_printf(b, "  const clift_index %s = (clift_index)%s_arg;\n", size_name(pl, pk, i), size_name(pl, pk, i));
}
