/* plan.c — the kernel body cut into device kernels (SPEC §6 "host plan"):
   every top-level statement holding a parallel loop is a kernel of its own
   (the kernel boundary is the global barrier between them); runs of other
   top-level statements (a sequential reduction after a parallel map) are one
   kernel run by a single work-item. Hoisted local temporaries become
   per-work-group arrays: their work-group index is dropped (SPEC §5). */
#include "plan.h"
#include "dpia.h"
#include "launch_policy.h"
#include "../layout/layout.h"
#include "../syntax/ast.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool is_parallel_loop(KStmt *s, void *cx) { (void)cx; return s->kind == KS_FOR && s->level != LEVEL_SEQ; }
bool kstmt_has_parallel_loop(KStmt *s) { return kstmt_any(s, is_parallel_loop, NULL); }

/* A whileSeq holding a parallel loop (an explicit mapGlb/mapWrg/mapLcl in
   its predicate or function): its work-items would each decide when the
   loop ends, and a barrier inside it would wait for those that left. The
   CPU targets run it; here it is refused. */
static KStmt *while_around_parallel(KStmt *s) {
  if (!s) return NULL;
  if (s->kind == KS_WHILE && (kstmt_has_parallel_loop(s->then_) || kstmt_has_parallel_loop(s->body))) return s;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) {
    KStmt *w = while_around_parallel(s->stmts[i]);
    if (w) return w;
  }
  KStmt *w = while_around_parallel(s->body);
  if (!w) w = while_around_parallel(s->then_);
  return w ? w : while_around_parallel(s->else_);
}

/* A host loop: a sequential loop holding kernels that the host runs around
   their launches, at the top of the program (or of another host loop's
   body): an iterate, or a reduceSeq/mapSeq that mark_host_loops found to
   need a global barrier between its steps. */
static bool host_loop(KStmt *s) {
  return s->kind == KS_FOR && s->level == LEVEL_SEQ && s->host && kstmt_has_parallel_loop(s->body);
}

/* What a kernel touches: buffers, private variables, parallel loops. */
typedef struct Uses {
  PlanKernel *pk;
  const char **vars; int nvars, capvars;
  int cap_loops;                          /* of pk->loops */
  int cap_bufs, cap_locals;               /* of pk->bufs, pk->locals */
} Uses;

static void use_buffer(Uses *u, Buffer *b) {
  if (b->space == SPACE_PRIVATE) return;   /* declared in the body (a private array) */
  PlanKernel *pk = u->pk;
  bool local = b->space == SPACE_LOCAL;
  Buffer **list = local ? pk->locals : pk->bufs;
  int n = local ? pk->nlocals : pk->nbufs;
  for (int i = 0; i < n; i++) if (list[i] == b) return;
  if (local) ARENA_PUSH(pk->locals, pk->nlocals, u->cap_locals, b);
  else ARENA_PUSH(pk->bufs, pk->nbufs, u->cap_bufs, b);
}

static void use_var(Uses *u, const char *name) {
  for (int i = 0; i < u->nvars; i++) if (strcmp(u->vars[i], name) == 0) return;
  if (u->nvars == u->capvars) {
    u->capvars = u->capvars ? 2 * u->capvars : 16;
    const char **v = NEW_ARRAY(const char *, u->capvars);
    if (u->nvars) memcpy(v, u->vars, sizeof(char *) * (size_t)u->nvars);
    u->vars = v;
  }
  u->vars[u->nvars++] = name;
}

static void uses_exp(Uses *u, CExp *e) {
  if (!e) return;
  if (e->buf) use_buffer(u, e->buf);
  if (e->kind == CE_VAR) use_var(u, e->name);
  for (int i = 0; i < e->n; i++) uses_exp(u, e->args[i]);
}

static void uses_stmt(Uses *u, KStmt *s) {
  if (!s) return;
  if (s->kind == KS_FOR && s->level != LEVEL_SEQ && !s->unsized) ARENA_PUSH(u->pk->loops, u->pk->nloops, u->cap_loops, s);
  for (int i = 0; i < s->n && s->kind == KS_BLOCK; i++) uses_stmt(u, s->stmts[i]);
  uses_exp(u, s->init); uses_exp(u, s->lhs); uses_exp(u, s->rhs); uses_exp(u, s->cond);
  uses_stmt(u, s->body); uses_stmt(u, s->then_); uses_stmt(u, s->else_);
}

/* --- local memory: drop the indices of the enclosing work-group/global loops --- */

typedef struct Outer { NatVar **vars; int n, cap; UtilMap done; } Outer;

static void localise_exp(CExp *e, Outer *o, PlanKernel *pk) {
  if (!e) return;
  if (e->buf && e->buf->space == SPACE_LOCAL && o->n > 0 && !util_map_get(&o->done, e, false)) {
    /* the element's place less its row's start: an index within the row may
       itself name the outer loop's variable (a clamp at the length of row
       i of a triangle, F50), so the variables are not set to 0; once per
       node (the look-back's statements share some) */
    util_map_put(&o->done, e, false, e);
    PathElem *rows = NEW_ARRAY(PathElem, o->n);
    for (int i = 0; i < o->n; i++) rows[i] = (PathElem){ nat_var(o->vars[i]), -1 };
    Type *leaf;
    e->nat = nat_sub(e->nat, dpia_flat_offset_open(e->buf->type, (Path){ o->n, rows }, &leaf));
    for (int i = 0; i < pk->nlocals; i++)
      if (pk->locals[i] == e->buf && !pk->local_counts[i]) {   /* strip one array level per outer loop */
        Type *t = e->buf->type;
        for (int k = 0; k < o->n && t->kind == TY_ARRAY; k++) t = t->elem;
        Nat *count = nat_const(1);
        for (; t->kind == TY_ARRAY; t = t->elem) count = nat_mul(count, t->len);
        pk->local_counts[i] = count;
      }
  }
  for (int i = 0; i < e->n; i++) localise_exp(e->args[i], o, pk);
}

static void localise(KStmt *s, Outer *o, PlanKernel *pk) {
  if (!s) return;
  for (int i = 0; i < s->n && s->kind == KS_BLOCK; i++) localise(s->stmts[i], o, pk);
  localise_exp(s->init, o, pk); localise_exp(s->lhs, o, pk);
  localise_exp(s->rhs, o, pk); localise_exp(s->cond, o, pk);
  bool outer = s->kind == KS_FOR && (s->level == LEVEL_GLB || s->level == LEVEL_WRG);
  if (outer) ARENA_PUSH(o->vars, o->n, o->cap, s->var);
  localise(s->body, o, pk);
  if (outer) o->n--;
  localise(s->then_, o, pk); localise(s->else_, o, pk);
}

/* The bytes of an element of local memory sized at launch (PlanKernel.local_dynamic):
   a scalar or a vector whose size is the same on the host and every device (not a
   3-lane vector, not a tuple); 0: none. */
static int dynamic_elem_bytes(Type *t) {
  if (t->kind == TY_VECTOR && t->width == 3) return 0;
  if (!type_is_scalar(t) && t->kind != TY_VECTOR) return 0;
  long long bytes;
  return nat_is_const(layout_type_bytes_nat(t), &bytes) && bytes > 0 ? (int)bytes : 0;
}

/* Whether the host knows n when it launches the kernel: its variables are
   program sizes or the variables of the host loops and counts around it. */
static bool known_at_launch(Plan *pl, PlanKernel *pk, Nat *n) {
  return nat_vars_within(n, pl->k->prog->sizes, pl->k->prog->nsizes, pk->vars, pk->nvars);
}

static bool locals_sized(Plan *pl, PlanKernel *pk) {
  pk->local_counts = NEW_ARRAY(Nat *, pk->nlocals ? pk->nlocals : 1);
  pk->local_dynamic = NEW_ARRAY(int, pk->nlocals ? pk->nlocals : 1);
  Outer o = { NULL, 0, 0, {0} };
  localise(pk->body, &o, pk);
  /* a count that differs between work-groups (a row of a triangular array) is
     allocated at its upper bound, a constant or a size known at launch */
  for (int i = 0; i < pk->nlocals; i++) {
    int bytes = pl->k->dynamic_locals ? dynamic_elem_bytes(type_innermost(pk->locals[i]->type)) : 0;
    long long n;
    Nat *c = pk->local_counts[i];
    bool sized = false;
    for (int k = 0; c && k < 4 && !sized; k++) {
      if (nat_is_const(c, &n)) sized = true;
      else if (bytes && known_at_launch(pl, pk, c)) sized = true, pk->local_dynamic[i] = bytes;
      else c = nat_max_of(c);
    }
    if (!sized) return diag_unsupported(LOC_NONE, "local memory of non-constant size (%s)", pk->locals[i]->name);
    pk->local_counts[i] = c;
  }
  return true;
}

/* A private variable declared by one kernel cannot be read by another. */
static bool vars_stay(Plan *pl, Uses *uses) {
  for (int a = 0; a < pl->n; a++)
    for (int i = 0; i < pl->kernels[a].body->n; i++) {
      KStmt *d = pl->kernels[a].body->stmts[i];
      if (d->kind != KS_DECL || d->buf) continue;
      for (int b = 0; b < pl->n; b++)
        for (int j = 0; b != a && j < uses[b].nvars; j++)
          if (strcmp(uses[b].vars[j], d->name) == 0)
            return diag_internal(LOC_NONE, "a scalar (%s) computed by one kernel is read by another", d->name);
    }
  return true;
}

/* --- values shared between kernels: a private variable or array declared at
   top level by one kernel and read by a later one lives in global memory --- */

/* The names (CE_VAR) and buffers the statements of later kernel groups use,
   a hash set (UtilMap, each key its own value): one walk of the block in all,
   not one per declaration (fuzz F7: a program of thousands of statements spent
   most of its compile time here). */
static void use_add(UtilMap *u, const void *key, bool name) { util_map_put(u, key, name, (void *)key); }
static bool use_has(const UtilMap *u, const void *key, bool name) { return util_map_get(u, key, name) != NULL; }

static bool use_node(CExp *e, void *u) {
  if (e->buf) use_add(u, e->buf, false);
  if (e->kind == CE_VAR) use_add(u, e->name, true);
  return false;   /* every node */
}

static void use_stmt(UtilMap *u, KStmt *s) { kstmt_any_node(s, use_node, u); }

/* Declarations turned into global buffers, by name: every read of one is
   rewritten in one walk of the block (one walk per declaration made the
   plan quadratic: a 268-line APL program took 3 s, fuzz finding F7). */
static bool var_to_buffer(CExp *e, void *renamed) {
  Buffer *b = e->kind == CE_VAR ? util_map_get(renamed, e->name, true) : NULL;
  if (b) { e->kind = CE_READ; e->buf = b; e->nat = nat_const(0); e->field = -1; e->name = NULL; }
  return false;   /* every node */
}

/* The declaration block->stmts[i] becomes a global buffer of k; a private
   variable's reads are added to `renamed`, rewritten by the caller. */
static void promote(Kernel *k, KStmt *block, int i, UtilMap *renamed) {
  KStmt *d = block->stmts[i];
  Buffer *b = d->buf;
  if (b) {
    b->space = SPACE_GLOBAL;
    kernel_add_buffer(k, b);
  } else {
    b = kernel_new_buffer(k, d->name, type_array(d->type, nat_const(1)), SPACE_GLOBAL);
    util_map_put(renamed, d->name, true, b);
  }
  KStmt *r = kstmt_block();
  if (d->init) kstmt_add(r, kstmt_assign(cexp_read(b, nat_const(0), -1, d->type), d->init));
  block->stmts[i] = r;
}

/* Which statements of a block share a kernel: the one rule of cut and
   share_between_kernels (F53 was the two disagreeing). A statement holding a
   parallel loop (a host loop too) is a group of its own; a sequential one
   joins the open sequential group or opens one; a count joins it and closes
   it (its cell is read back before what follows runs). True when s starts a
   group; *seq_open says whether the next sequential statement may join it. */
static bool starts_group(KStmt *s, bool *seq_open) {
  bool par = kstmt_has_parallel_loop(s), fresh = par || !*seq_open;
  *seq_open = !par && s->kind != KS_COUNT;
  return fresh;
}

/* Does a nat of the statement (an index, a loop count, a nat value) mention v? */
static bool node_mentions(CExp *e, void *v) { return e->nat && nat_mentions(e->nat, v); }
static bool stmt_mentions(KStmt *s, void *v) {
  return (s->kind == KS_FOR && nat_mentions(s->count, v)) || (s->kind == KS_COUNT && s->var == v) ||
         kstmt_any_node(s, node_mentions, v) || (s->kind == KS_FOR && kstmt_any(s->body, stmt_mentions, v));
}

/* A checked index (rules_layout.c exp_aref: `long ix = check(i, n)` and the
   nat variable ix) is read through nats, not as a variable, so promoting it
   to global memory would not reach its reads: a later group that indexes by
   it declares it again, the check with it, around its statement (difftest's
   TAIL generator: (aref (split #2 a) (- k 1)) read ix0 in a kernel that had
   not declared it, uncompilable on opencl and cuda). With the indices its
   own init reads, transitively (ix1 = ix0 % 46: the TAIL tester's seed 6392
   copied ix1 without ix0). The copies go in a scoped block around the
   statement, or an unscoped one around a declaration (a scope would hide it
   from the rest of its group), each index copied unscoped once per group. */
static bool index_decl(KStmt *d) { return d->kind == KS_DECL && !d->buf && d->var && d->init; }

static void redeclare_index_vars(KStmt *block, const int *group) {
  int n = block->n, nd = 0;
  if (n == 0) return;   /* an empty block (fuzz: memcpy from NULL stmts) */
  KStmt **orig = NEW_ARRAY(KStmt *, n);   /* a declaration wrapped below is still copied as itself */
  memcpy(orig, block->stmts, sizeof(KStmt *) * (size_t)n);
  int *decls = NEW_ARRAY(int, n), *given = NEW_ARRAY(int, n);   /* given: the group it was copied into unscoped, + 1 */
  bool *need = NEW_ARRAY(bool, n);
  for (int i = 0; i < n; i++) if (index_decl(orig[i])) decls[nd++] = i;
  for (int j = 0, below = 0; j < n; j++) {   /* decls[0 … below-1] lie before j */
    while (below < nd && decls[below] < j) below++;
    bool any = false;
    for (int x = below - 1; x >= 0; x--) {   /* latest first: a need found late adds the indices its init reads */
      int i = decls[x];
      KStmt *d = orig[i];
      need[i] = false;
      if (group[i] == group[j] || given[i] == group[j] + 1) continue;
      need[i] = kstmt_any(orig[j], stmt_mentions, d->var);
      for (int y = x + 1; y < below && !need[i]; y++)
        need[i] = need[decls[y]] && kstmt_any_node(orig[decls[y]], node_mentions, d->var);
      any |= need[i];
    }
    if (!any) continue;
    KStmt *wrap = kstmt_block();
    wrap->scope = block->stmts[j]->kind != KS_DECL;
    for (int x = 0; x < below; x++) {
      int i = decls[x];
      if (!need[i]) continue;
      KStmt *copy = NEW(KStmt);
      *copy = *orig[i];
      kstmt_add(wrap, copy);
      if (!wrap->scope) given[i] = group[j] + 1;
    }
    kstmt_add(wrap, block->stmts[j]);
    block->stmts[j] = wrap;
  }
}

/* A block's statements in kernel groups (as plan_build cuts them); a
   declaration read by another group lives in global memory. Host loop
   bodies are blocks of their own. */
static void share_between_kernels(Kernel *k, KStmt *block) {
  int n = block->n, *group = NEW_ARRAY(int, n ? n : 1), g = -1;
  UtilMap renamed = { 0 };
  bool seq_open = false;
  for (int i = 0; i < n; i++) {
    if (starts_group(block->stmts[i], &seq_open)) g++;
    group[i] = g;
    if (host_loop(block->stmts[i])) share_between_kernels(k, block->stmts[i]->body);
  }
  /* first: the copies may read scalars of an earlier group (an index computed from
     a reduction's acc), which the promotions below then see (TAIL tester seed 158) */
  redeclare_index_vars(block, group);
  /* a declaration read by a later group (groups grow with the index): the uses
     of the groups after each one gathered from the end, the promotions made
     in order after (the buffers' order is the program's) */
  UtilMap later = { 0 };
  bool *shared = NEW_ARRAY(bool, n ? n : 1);
  for (int i = n - 1, added = n; i >= 0; i--) {
    while (added > 0 && group[added - 1] > group[i]) use_stmt(&later, block->stmts[--added]);
    KStmt *d = block->stmts[i];
    shared[i] = d->kind == KS_DECL && (d->buf ? use_has(&later, d->buf, false) : use_has(&later, d->name, true));
  }
  for (int i = 0; i < n; i++) if (shared[i]) promote(k, block, i, &renamed);
  if (renamed.n) kstmt_any_node(block, var_to_buffer, &renamed);
}

/* Accesses to global or local buffers inside a sequential loop, each with the
   innermost mapGlb loop around it (grid-stride: index value g of a mapGlb of
   dimension d always runs on work-item g mod the global size, whatever the
   loop's count). */
typedef struct GAccess { Buffer *buf; Nat *index; KStmt *glb; } GAccess;
typedef struct GAccesses { GAccess *a; int n, cap; } GAccesses;

static void gadd(GAccesses *as, Buffer *b, Nat *index, KStmt *glb) {
  if (!b || b->space == SPACE_PRIVATE) return;
  ARENA_PUSH(as->a, as->n, as->cap, ((GAccess){ b, index, glb }));
}

static void greads(GAccesses *r, CExp *e, KStmt *glb) {
  if (!e) return;
  if (e->kind == CE_READ || e->kind == CE_VLOAD) gadd(r, e->buf, e->nat, glb);
  for (int i = 0; i < e->n; i++) greads(r, e->args[i], glb);
}

static void gaccesses(KStmt *s, KStmt *glb, GAccesses *w, GAccesses *r) {
  if (!s) return;
  for (int i = 0; i < s->n && s->kind == KS_BLOCK; i++) gaccesses(s->stmts[i], glb, w, r);
  if (s->kind == KS_ASSIGN) {
    CExp *base = s->lhs;
    while (base->kind == CE_LANE) base = base->args[0];
    if (base->kind == CE_READ || base->kind == CE_VLOAD) gadd(w, base->buf, base->nat, glb);
  }
  greads(r, s->init, glb); greads(r, s->rhs, glb); greads(r, s->cond, glb);
  if (s->kind == KS_FOR && s->level == LEVEL_GLB) glb = s;
  else if (s->kind == KS_FOR && s->level != LEVEL_SEQ) glb = NULL;   /* work-groups: not tracked */
  gaccesses(s->body, glb, w, r); gaccesses(s->then_, glb, w, r); gaccesses(s->else_, glb, w, r);
}

/* The read is by the work-item that wrote, in every step. Every reading
   index value must be one the writer's loop has (difftest F43, the grid's F42:
   a mapGlb over M + 2 reading min(y, M - 1) of a row written by a mapGlb over
   M; renamed to the writer's variable, whose bound is M - 1, min(x, M - 1)
   simplified to x, and the mapSeq around them stayed in one kernel: items M and
   M + 1 read element M - 1 with no barrier after its writer, wrong on PoCL). */
static bool same_work_item(GAccess *w, GAccess *r) {
  if (!w->glb || !r->glb || w->glb->dim != r->glb->dim) return false;
  NatVar *wv = w->glb->var, *rv = r->glb->var;
  if (!wv->hi || !rv->hi || !nat_proves_le(rv->hi, wv->hi)) return false;
  return nat_same(nat_subst(r->index, rv, nat_var(wv)), w->index);
}

static bool contains_grid_loop(KStmt *s) {
  if (!s) return false;
  if (s->kind == KS_FOR && (s->level == LEVEL_GLB || s->level == LEVEL_WRG)) return true;
  for (int i = 0; i < s->n && s->kind == KS_BLOCK; i++) if (contains_grid_loop(s->stmts[i])) return true;
  return contains_grid_loop(s->body) || contains_grid_loop(s->then_) || contains_grid_loop(s->else_);
}

static bool parallel_under_sequential(KStmt *s) {
  if (!s) return false;
  if (s->kind == KS_FOR && s->level == LEVEL_SEQ && contains_grid_loop(s->body)) {
    GAccesses w = {0}, r = {0};
    gaccesses(s->body, NULL, &w, &r);
    for (int i = 0; i < w.n; i++)
      for (int j = 0; j < r.n; j++)
        if (w.a[i].buf == r.a[j].buf && !same_work_item(&w.a[i], &r.a[j])) return true;
    return false;
  }
  if (s->kind == KS_FOR && s->level != LEVEL_SEQ) return false;   /* inside a grid loop: its own work-item */
  for (int i = 0; i < s->n && s->kind == KS_BLOCK; i++) if (parallel_under_sequential(s->stmts[i])) return true;
  return parallel_under_sequential(s->body) || parallel_under_sequential(s->then_) || parallel_under_sequential(s->else_);
}

/* Statements the kernels of a block can be cut from (at most one kernel each). */
static int count_statements(KStmt *block) {
  int n = 0;
  for (int i = 0; i < block->n; i++) n += host_loop(block->stmts[i]) ? count_statements(block->stmts[i]->body) : 1;
  return n;
}

typedef struct Loops { NatVar **vars; int n, cap; } Loops;

static int new_kernel(Plan *pl, bool single, Loops *around) {
  PlanKernel *pk = &pl->kernels[pl->n];
  pk->name = arena_printf("k%d", pl->n);
  pk->body = kstmt_block();
  pk->single = single;
  pk->nvars = around->n;
  pk->vars = NEW_ARRAY(NatVar *, around->n);
  for (int i = 0; i < around->n; i++) pk->vars[i] = around->vars[i];
  return pl->n++;
}

/* The steps of one block: kernels cut as plan_build says, host loops as loop
   steps around the steps of their bodies. */
static void cut(Plan *pl, KStmt *block, Loops *around, PlanStep **steps, int *nsteps) {
  int cap = 0, seq = -1, entry = around->n;   /* seq: the open sequential group's kernel */
  bool open = false;
  for (int i = 0; i < block->n; i++) {
    KStmt *s = block->stmts[i];
    bool fresh = starts_group(s, &open);
    if (host_loop(s)) {
      PlanStep loop = { .kind = STEP_LOOP, .loop = s };
      ARENA_PUSH(around->vars, around->n, around->cap, s->var);
      cut(pl, s->body, around, &loop.steps, &loop.n);
      around->n--;
      ARENA_PUSH(*steps, *nsteps, cap, loop);
      seq = -1;
      continue;
    }
    int kk = fresh ? new_kernel(pl, !kstmt_has_parallel_loop(s), around) : seq;
    if (fresh) ARENA_PUSH(*steps, *nsteps, cap, ((PlanStep){ .kind = STEP_LAUNCH, .kernel = kk }));
    seq = open ? kk : -1;
    if (s->kind == KS_COUNT) {   /* computed by a kernel into a cell, read back, then a size */
      Buffer *cell = kernel_new_buffer(pl->k, arena_printf("%s_cell", s->var->name),
                                       type_array(type_scalar(TY_INT), nat_const(1)), SPACE_GLOBAL);
      kstmt_add(pl->kernels[kk].body, kstmt_assign(cexp_read(cell, nat_const(0), -1, type_scalar(TY_INT)), s->init));
      ARENA_PUSH(*steps, *nsteps, cap, ((PlanStep){ .kind = STEP_COUNT, .var = s->var, .cell = cell }));
      ARENA_PUSH(around->vars, around->n, around->cap, s->var);   /* an argument of the kernels after it */
      continue;
    }
    kstmt_add(pl->kernels[kk].body, s);
  }
  around->n = entry;   /* counts bound in this block end with it */
}

/* Marks, once, the sequential loops of a block (the program's top, or a host
   loop's body) whose steps read what other work-items wrote in earlier steps
   as host loops; false when such a loop stands where the host cannot run it
   (under an if, inside another kernel's loop). */
static bool mark_host_loops(KStmt *block) {
  for (int i = 0; i < block->n; i++) {
    KStmt *s = block->stmts[i];
    bool loop = s->kind == KS_FOR && s->level == LEVEL_SEQ && kstmt_has_parallel_loop(s->body);
    if (loop && (s->host || parallel_under_sequential(s))) {
      s->host = true;
      if (!mark_host_loops(s->body)) return false;
    } else if (parallel_under_sequential(s)) {
      return false;
    }
  }
  return true;
}

/* An `if` at the top of a device program (or of a host loop's body) whose
   branches hold parallel loops cannot be one kernel: the kernels inside need
   global barriers between them. Its condition is computed once into a
   variable, and every statement of a branch is guarded by it: each becomes a
   kernel of its own as usual, launched always and doing nothing when its
   guard is false. A branch's declarations move out of the guard (assigned
   under it), its counts count 0 when the guard is false. */
static CExp *bool_op(ScalarOp op, int n, CExp *a, CExp *b) {
  return cexp_op(op, type_scalar(TY_BOOL), n, (CExp *[]){ a, b });
}

static KStmt *guarded(KStmt *s, CExp *g) {
  if (!g) return s;
  KStmt *i = kstmt_if(g, NULL, NULL);
  kstmt_add(i->then_, s);
  return i;
}

/* Does e read only sizes and literals: one value for every work-item, known
   to the host before any kernel runs (a peeled stencil's guard, peel.c)? */
static bool sizes_only(CExp *e) {
  if (e->kind != CE_LIT && e->kind != CE_NAT && e->kind != CE_NAT_LT && e->kind != CE_OP) return false;
  if (e->kind == CE_OP && e->op >= OP_CHECK_INDEX) return false;   /* a reporting check */
  for (int i = 0; i < e->n; i++) if (!sizes_only(e->args[i])) return false;
  return true;
}

/* A branch that is one kernel by itself: nothing, one parallel loop, or one
   block of independent parallel loops (KStmt.one_kernel). */
static bool one_kernel_branch(KStmt *b) {
  if (!b || b->n == 0) return true;
  if (b->n != 1) return false;
  KStmt *s = b->stmts[0];
  if (s->kind == KS_BLOCK && !s->one_kernel) return one_kernel_branch(s);
  return (s->kind == KS_FOR && s->level != LEVEL_SEQ) || (s->kind == KS_BLOCK && s->one_kernel);
}

static bool distribute(KStmt *out, KStmt *s, CExp *g, int *counter) {
  if (s->kind == KS_BLOCK && !s->one_kernel) {
    for (int i = 0; i < s->n; i++) if (!distribute(out, s->stmts[i], g, counter)) return false;
    return true;
  }
  /* if (sizes) kernel else kernel: one kernel, the condition tested in it
     (the same in every work-item: barriers inside stay uniform), instead of a
     flag kernel and two kernels launched always */
  if (s->kind == KS_IF && sizes_only(s->cond) && one_kernel_branch(s->then_) && one_kernel_branch(s->else_)) {
    kstmt_add(out, guarded(s, g));
    return true;
  }
  if (s->kind == KS_IF && (kstmt_has_parallel_loop(s->then_) || kstmt_has_parallel_loop(s->else_))) {
    KStmt *d = NEW(KStmt);
    d->kind = KS_DECL; d->name = arena_printf("clift_if%d", (*counter)++); d->type = type_scalar(TY_BOOL);
    CExp *no = cexp_lit_int(0);
    no->type = d->type;
    d->init = s->cond;
    if (g) {
      CExp *sel = NEW(CExp);
      *sel = (CExp){ .kind = CE_SELECT, .type = d->type, .n = 3, .field = -1 };
      sel->args = NEW_ARRAY(CExp *, 3);
      sel->args[0] = g; sel->args[1] = s->cond; sel->args[2] = no;
      d->init = sel;
    }
    kstmt_add(out, d);
    CExp *c = cexp_var(d->name, d->type), *nc = bool_op(OP_NOT, 1, c, NULL);
    return distribute(out, s->then_, c, counter) &&
           (!s->else_ || distribute(out, s->else_, g ? bool_op(OP_AND, 2, g, nc) : nc, counter));
  }
  if (!g) { kstmt_add(out, s); return true; }
  if (s->kind == KS_DECL && !s->buf && s->init) {   /* declared outside, assigned under the guard */
    KStmt *d = NEW(KStmt);
    *d = *s;
    d->init = NULL;
    kstmt_add(out, d);
    kstmt_add(out, guarded(kstmt_assign(cexp_var(s->name, s->type), s->init), g));
    return true;
  }
  if (s->kind == KS_DECL) { kstmt_add(out, s); return true; }
  if (s->kind == KS_COUNT) {
    KStmt *c = NEW(KStmt);
    *c = *s;
    CExp *sel = NEW(CExp);
    *sel = (CExp){ .kind = CE_SELECT, .type = s->init->type, .n = 3, .field = -1 };
    sel->args = NEW_ARRAY(CExp *, 3);
    sel->args[0] = g; sel->args[1] = s->init; sel->args[2] = cexp_lit_int(0);
    c->init = sel;
    kstmt_add(out, c);
    return true;
  }
  if (s->kind == KS_FOR && s->level == LEVEL_SEQ && kstmt_has_parallel_loop(s->body)) {
    /* a host loop under the guard: its steps run, each statement of its body
       guarded (kernels doing nothing when the guard is false) */
    KStmt *l = NEW(KStmt);
    *l = *s;
    l->body = kstmt_block();
    if (!distribute(l->body, s->body, g, counter)) return false;
    kstmt_add(out, l);
    return true;
  }
  kstmt_add(out, guarded(s, g));
  return true;
}

static bool distribute_ifs(KStmt *block, int *counter) {
  KStmt *out = kstmt_block();
  for (int i = 0; i < block->n; i++) {
    KStmt *s = block->stmts[i];
    if (!distribute(out, s, NULL, counter)) return false;
    if (s->kind == KS_FOR && s->level == LEVEL_SEQ && kstmt_has_parallel_loop(s->body) && !distribute_ifs(s->body, counter))
      return false;
  }
  block->n = out->n; block->cap = out->cap; block->stmts = out->stmts;
  return true;
}

/* Work-group loops and mapLcl loops only, at least one of the first (PlanKernel.resident_waves). */
static bool chunk_kernel(PlanKernel *pk) {
  bool wrg = false;
  for (int i = 0; i < pk->nloops; i++) {
    if (pk->loops[i]->level == LEVEL_GLB) return false;
    wrg |= pk->loops[i]->level == LEVEL_WRG;
  }
  return wrg;
}

/* Barriers a work-group passes once a chunk: those outside sequential loops
   (a tree's or a scan's steps; a tiled loop's barriers are its steps' own).
   Kernel.resident_waves -1 (CLIFT_FCL_GRID's default) caps the grid of a chunk
   kernel passing TREE_BARRIERS or more: measured on an H100 (2026-11-27,
   bench/gpu/fcl_attrib_2028.sh), the cap made reduce (9 a chunk) 0.80x as long
   and reverse (0), transpose (2) and matmul (3) 1.08-1.12x as long as without */
enum { TREE_BARRIERS = 5 };
static int chunk_barriers(KStmt *s) {
  if (!s) return 0;
  switch (s->kind) {
  case KS_BARRIER: return 1;
  case KS_BLOCK: { int n = 0; for (int i = 0; i < s->n; i++) n += chunk_barriers(s->stmts[i]); return n; }
  case KS_FOR: return s->level == LEVEL_SEQ ? 0 : chunk_barriers(s->body);
  case KS_IF: { int a = chunk_barriers(s->then_), b = chunk_barriers(s->else_); return a > b ? a : b; }
  default: return 0;
  }
}

bool plan_kernel_takes_size(const PlanKernel *pk, int i) { return !pk->sizes_used || pk->sizes_used[i]; }

Plan *plan_build(Kernel *k) {
  Plan *pl = NEW(Plan);
  pl->k = k;
  int counter = 0;
  plan_split_sections(k->body);
  if (!distribute_ifs(k->body, &counter)) return NULL;
  KStmt *w = while_around_parallel(k->body);
  if (w)
    return diag_unsupported(w->loc, "a parallel map (mapGlb, mapWrg, mapLcl) inside whileSeq: its work-items would "
                            "each decide when the loop ends"), NULL;
  if (!mark_host_loops(k->body))
    return diag_unsupported(LOC_NONE, "a mapGlb or mapWrg inside a sequential loop "
                            "(reduceSeq, mapSeq) whose steps read what earlier steps wrote needs a host loop over "
                            "kernel launches"), NULL;
  if (k->last_group) plan_fuse_last_group(k);
  share_between_kernels(k, k->body);
  int most = count_statements(k->body);
  pl->kernels = NEW_ARRAY(PlanKernel, most ? most : 1);
  Loops around = { NULL, 0, 0 };
  cut(pl, k->body, &around, &pl->steps, &pl->nsteps);
  Uses *uses = NEW_ARRAY(Uses, pl->n ? pl->n : 1);
  for (int i = 0; i < pl->n; i++) {
    PlanKernel *pk = &pl->kernels[i];
    uses[i].pk = pk;
    uses_stmt(&uses[i], pk->body);
    /* kernel parameters in the entry's order: output, inputs, temporaries */
    Buffer **ordered = NEW_ARRAY(Buffer *, pk->nbufs);
    int n = 0;
    for (int b = 0; b < k->nbufs; b++)
      for (int j = 0; j < pk->nbufs; j++) if (pk->bufs[j] == k->bufs[b]) { ordered[n++] = k->bufs[b]; break; }
    pk->bufs = ordered;
    if (!locals_sized(pl, pk)) return NULL;
    plan_insert_barriers(pk->body);
    int waves = k->resident_waves >= 0 ? k->resident_waves : chunk_barriers(pk->body) >= TREE_BARRIERS;
    if (k->pipeline || k->double_buffer) plan_pipeline(pk, k->double_buffer);
    if (k->unroll) plan_unroll(pk->body);
    if (k->warp_barriers) plan_warp_barriers(pk->body);
    if (k->batch_groups > 1) plan_batch_groups(pk, k->batch_groups, k->batch_local_cap);
    if (k->prefetch) plan_prefetch(pk->body);
    if (k->local_versions) plan_version_local(pk);
    pk->stage_reads = k->stage_reads;
    pk->stage_and_prefetch = k->stage_and_prefetch;
    if (waves > 0 && chunk_kernel(pk)) pk->resident_waves = waves;
  }
  return vars_stay(pl, uses) ? pl : NULL;
}

/* One source for the default launch sizes: compiled here, printed into the
   host files of `clift compile -t opencl` (launch_policy.h). */
PLAN_LAUNCH_POLICY
PLAN_LAUNCH_PINNED

/* The user's --local-size/--global-size replace the defaults (launch_policy.h);
   a work-group the user's sizes alone make too large is an error (-1). */
static int apply_override(PlanKernel *pk, int n, const int *dim, int dims, size_t max_local, const LaunchSizes *given,
                          size_t local[3], size_t groups[3]) {
  if (pk->single || !given) return dims;   /* one work-item kernels stay 1 x 1 */
  int r = clift_launch_override(n, dim, dims, max_local, given->local, given->global, local, groups);
  if (r < 0) {
    size_t fixed = 1;
    for (int d = 0; d < 3; d++) if (given->local[d]) fixed *= given->local[d];
    diag_error(LOC_NONE, "--local-size gives kernel %s work-groups of %zu work-items; this device allows at most %zu",
               pk->name, fixed, max_local < 1 ? 1 : max_local);
  }
  return r;
}

int plan_launch_size(PlanKernel *pk, NatLookup lookup, void *ctx, size_t max_local, const LaunchSizes *given,
                     size_t local[3], size_t groups[3]) {
  int n = pk->nloops, *level = NEW_ARRAY(int, n + 1), *dim = NEW_ARRAY(int, n + 1);
  long long *count = NEW_ARRAY(long long, n + 1);
  for (int i = 0; i < n; i++) {
    KStmt *s = pk->loops[i];
    level[i] = plan_level_code(s);
    dim[i] = s->dim;
    if (!nat_eval(s->count, lookup, ctx, &count[i])) count[i] = -1;   /* depends on an outer loop */
  }
  int dims = clift_launch_size(n, level, dim, count, max_local, local, groups);
  dims = apply_override(pk, n, dim, dims, max_local, given, local, groups);
  if (dims >= 0 && clift_launch_pinned(n, level, dim, count, max_local, local) < 0) {
    diag_error(LOC_NONE, "kernel %s keeps a work-group's accumulator in registers and needs work-groups of %s "
               "work-items (one per element of its mapLcl loops); %s", pk->name, plan_pinned_shape(n, level, dim, count),
               given && (given->local[0] || given->local[1] || given->local[2]) ? "--local-size or the tuned sizes give others"
                                                                              : "this device allows fewer");
    return -1;
  }
  return dims;
}

/* The default work-group size (launch_policy.h, at most 256, which every GPU
   allows) of a kernel whose mapLcl loops are all of dimension 0, unpinned, of
   constant counts, when it is a multiple of 32: the block size its fixed-size
   version is printed for. The version is taken only when the launch gives
   that size (a run-time test), so any --local-size stays correct. */
void plan_version_local(PlanKernel *pk) {
  bool lcl = false;
  long long c;
  if (pk->single) return;
  for (int i = 0; i < pk->nloops; i++) {
    KStmt *s = pk->loops[i];
    if (s->level == LEVEL_GLB || !nat_is_const(s->count, &c)) return;
    if (s->level == LEVEL_LCL && (s->dim != 0 || s->pinned)) return;
    lcl |= s->level == LEVEL_LCL;
  }
  size_t local[3], groups[3];
  if (!lcl || plan_launch_size(pk, NULL, NULL, 256, NULL, local, groups) < 0) return;
  if (local[1] == 1 && local[2] == 1 && local[0] >= 32 && local[0] % 32 == 0) pk->version_local = (long long)local[0];
}

/* "16 x 16": the pinned work-group of launch_policy.h's level-3 loops. */
const char *plan_pinned_shape(int n, const int *level, const int *dim, const long long *count) {
  long long shape[3] = {1, 1, 1};
  int dims = 1;
  for (int i = 0; i < n; i++)
    if (level[i] == 3 && dim[i] >= 0 && dim[i] < 3) { shape[dim[i]] = count[i]; if (dim[i] + 1 > dims) dims = dim[i] + 1; }
  return dims == 1 ? arena_printf("%lld", shape[0]) : dims == 2 ? arena_printf("%lld x %lld", shape[0], shape[1])
                   : arena_printf("%lld x %lld x %lld", shape[0], shape[1], shape[2]);
}

int plan_level_code(const KStmt *loop) {
  return loop->level == LEVEL_GLB ? 0 : loop->level == LEVEL_WRG ? 1 : loop->pinned ? 3 : 2;
}

#define PLAN_STRINGIFY_(...) #__VA_ARGS__
#define PLAN_STRINGIFY(...) PLAN_STRINGIFY_(__VA_ARGS__)

/* The macro's text comes out of the preprocessor on one line: one statement
   per line again, indented by braces, so the generated host file is readable. */
const char *plan_launch_policy_source(void) {
  const char *s = PLAN_STRINGIFY(PLAN_LAUNCH_POLICY PLAN_LAUNCH_PINNED);
  Buf b = {0};
  int depth = 0, parens = 0;
  bool line_start = true;
  for (; *s; s++) {
    if (line_start && *s == ' ') continue;
    bool init_open = *s == '{' && s[1] == '0', init_close = *s == '}' && s[-1] == '0';   /* {0, 0, 0} */
    if (*s == '}' && !init_close) depth--;
    if (line_start) for (int i = 0; i < depth; i++) buf_puts(&b, "  ");
    line_start = false;
    buf_putc(&b, *s);
    parens += *s == '(' ? 1 : *s == ')' ? -1 : 0;
    if (*s == '{' && !init_open) depth++;
    if ((*s == '{' && !init_open) || (*s == ';' && parens == 0)
        || (*s == '}' && !init_close && strncmp(s + 1, " else", 5) != 0)) {
      buf_putc(&b, '\n');
      line_start = true;
    }
  }
  return buf_str(&b);
}
