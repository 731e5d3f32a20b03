/* test_race.c — the data-race check (SPEC §3.6) on hand-built imperative
   programs: a parallel loop may write only its own slice of the acceptor it
   was given, or variables it declares itself. */
#include "check.h"
#include "dpia/kernel.h"
#include <string.h>

static bool race_check(KStmt *body) { return dpia_race_check(body, LOC_NONE); }

static Buffer *buffer(const char *name, Nat *n) {
  Buffer *b = NEW(Buffer);
  b->name = name;
  b->type = type_array(type_scalar(TY_FLOAT), n);
  b->space = SPACE_GLOBAL;
  return b;
}

static CExp *one(void) { CExp *c = cexp_lit_int(1); c->type = type_scalar(TY_FLOAT); return c; }

/* parfor i < N { BODY } with BODY's single assignment lhs = 1.0f */
static KStmt *parfor_writing(PrimLevel level, NatVar *i, CExp *lhs, KStmt *decl) {
  KStmt *body = kstmt_block();
  if (decl) kstmt_add(body, decl);
  kstmt_add(body, kstmt_assign(lhs, one()));
  KStmt *prog = kstmt_block();
  kstmt_add(prog, kstmt_for(level, 0, i, nat_add(i->hi, nat_const(1)), body));
  return prog;
}

int main(void) {
  NatVar *n = nat_var_new("N", nat_const(1), NULL);
  NatVar *i = nat_var_new("gid", nat_const(0), nat_sub(nat_var(n), nat_const(1)));
  Buffer *out = buffer("out", nat_var(n));

  /* out[gid] = …: each iteration its own element */
  diag_clear();
  CHECK(race_check(parfor_writing(LEVEL_GLB, i, cexp_read(out, nat_var(i), -1, type_scalar(TY_FLOAT)), NULL)),
        "own slice: %s", diag_message());

  /* out[0] = … in every iteration: a race */
  diag_clear();
  CHECK(!race_check(parfor_writing(LEVEL_GLB, i, cexp_read(out, nat_const(0), -1, type_scalar(TY_FLOAT)), NULL))
        && strstr(diag_message(), "data race") && strstr(diag_message(), "out[0]"),
        "shared element: %s", diag_message());
  /* … reported at the program's place (file:line:col), like every error */
  diag_clear();
  Loc prog = { "p.lift", 2, 3 };
  CHECK(!dpia_race_check(parfor_writing(LEVEL_GLB, i, cexp_read(out, nat_const(0), -1, type_scalar(TY_FLOAT)), NULL), prog)
        && strstr(diag_render(), "p.lift:2:3: error: data race"), "race position: %s", diag_render());

  /* the same write in a sequential loop is fine */
  diag_clear();
  CHECK(race_check(parfor_writing(LEVEL_SEQ, i, cexp_read(out, nat_const(0), -1, type_scalar(TY_FLOAT)), NULL)),
        "sequential loop: %s", diag_message());

  /* a variable declared outside the parallel loop */
  diag_clear();
  CHECK(!race_check(parfor_writing(LEVEL_LCL, i, cexp_var("acc", type_scalar(TY_FLOAT)), NULL))
        && strstr(diag_message(), "data race") && strstr(diag_message(), "'acc'"),
        "outer variable: %s", diag_message());

  /* … and one declared inside it */
  KStmt *decl = NEW(KStmt);
  decl->kind = KS_DECL; decl->name = "acc"; decl->type = type_scalar(TY_FLOAT);
  diag_clear();
  CHECK(race_check(parfor_writing(LEVEL_WRG, i, cexp_var("acc", type_scalar(TY_FLOAT)), decl)),
        "private variable: %s", diag_message());

  /* a whileSeq's loop inside a parallel loop: its test and its body are
     checked like any statement there (a variable declared outside the
     parallel loop is shared), its own declarations are private */
  for (int outside = 0; outside < 2; outside++) {
    KStmt *w = NEW(KStmt), *wbody = kstmt_block(), *wdecl = NEW(KStmt);
    wdecl->kind = KS_DECL; wdecl->name = "next"; wdecl->type = type_scalar(TY_FLOAT);
    kstmt_add(wbody, wdecl);
    kstmt_add(wbody, kstmt_assign(cexp_var("next", type_scalar(TY_FLOAT)), one()));
    kstmt_add(wbody, kstmt_assign(cexp_var("x", type_scalar(TY_FLOAT)), cexp_var("next", type_scalar(TY_FLOAT))));
    w->kind = KS_WHILE; w->then_ = kstmt_block(); w->body = wbody; w->cond = cexp_var("c", type_scalar(TY_BOOL));
    KStmt *xdecl = NEW(KStmt), *pbody = kstmt_block(), *prog = kstmt_block();
    xdecl->kind = KS_DECL; xdecl->name = "x"; xdecl->type = type_scalar(TY_FLOAT);
    if (outside) kstmt_add(prog, xdecl); else kstmt_add(pbody, xdecl);
    kstmt_add(pbody, w);
    kstmt_add(prog, kstmt_for(LEVEL_GLB, 0, i, nat_var(n), pbody));
    diag_clear();
    bool ok = race_check(prog);
    if (outside) CHECK(!ok && strstr(diag_message(), "'x'"), "whileSeq state outside the parallel loop: %s", diag_message());
    else CHECK(ok, "whileSeq state inside the parallel loop: %s", diag_message());
  }

  /* nested: the inner parallel loop must also index by its own variable */
  NatVar *j = nat_var_new("lid", nat_const(0), nat_const(63));
  Buffer *tmp = buffer("tmp", nat_mul(nat_var(n), nat_const(64)));
  KStmt *inner = parfor_writing(LEVEL_LCL, j, cexp_read(tmp, nat_var(i), -1, type_scalar(TY_FLOAT)), NULL);
  KStmt *outer = kstmt_block();
  kstmt_add(outer, kstmt_for(LEVEL_WRG, 0, i, nat_var(n), inner));
  diag_clear();
  CHECK(!race_check(outer) && strstr(diag_message(), "lid"), "inner loop ignores lid: %s", diag_message());
  inner = parfor_writing(LEVEL_LCL, j, cexp_read(tmp, nat_add(nat_mul(nat_var(i), nat_const(64)), nat_var(j)), -1,
                                                 type_scalar(TY_FLOAT)), NULL);
  outer = kstmt_block();
  kstmt_add(outer, kstmt_for(LEVEL_WRG, 0, i, nat_var(n), inner));
  diag_clear();
  CHECK(race_check(outer), "nested slices: %s", diag_message());

  /* a private array declared inside the parallel loop is per work-item … */
  Buffer *priv = buffer("priv", nat_const(8));
  priv->space = SPACE_PRIVATE;
  KStmt *pdecl = NEW(KStmt);
  pdecl->kind = KS_DECL; pdecl->buf = priv; pdecl->name = "priv"; pdecl->type = priv->type;
  diag_clear();
  CHECK(race_check(parfor_writing(LEVEL_GLB, i, cexp_read(priv, nat_const(3), -1, type_scalar(TY_FLOAT)), pdecl)),
        "private array inside: %s", diag_message());
  /* … but declared outside it, it is shared by every iteration */
  KStmt *shared = kstmt_block();
  kstmt_add(shared, pdecl);
  KStmt *loop = parfor_writing(LEVEL_GLB, i, cexp_read(priv, nat_const(3), -1, type_scalar(TY_FLOAT)), NULL);
  kstmt_add(shared, loop);
  diag_clear();
  CHECK(!race_check(shared) && strstr(diag_message(), "priv[3]"), "private array outside: %s", diag_message());

  /* 33 nested parallel loops (the check followed 32): the innermost writes
     the same element in all its iterations */
  enum { DEEP = 33 };
  NatVar *v[DEEP];
  Nat *all = nat_const(0), *outer32 = nat_const(0);
  for (int d = 0; d < DEEP; d++) {
    v[d] = nat_var_new(arena_printf("gid%d", d), nat_const(0), nat_const(1));
    all = nat_add(nat_mul(all, nat_const(2)), nat_var(v[d]));
    if (d < DEEP - 1) outer32 = nat_add(nat_mul(outer32, nat_const(2)), nat_var(v[d]));
  }
  Buffer *big = buffer("big", nat_const(1LL << DEEP));
  for (int k = 0; k < 2; k++) {
    KStmt *nest = kstmt_block();
    kstmt_add(nest, kstmt_assign(cexp_read(big, k ? all : outer32, -1, type_scalar(TY_FLOAT)), one()));
    for (int d = DEEP - 1; d >= 0; d--) {
      KStmt *b = kstmt_block();
      kstmt_add(b, kstmt_for(LEVEL_GLB, 0, v[d], nat_const(2), nest));
      nest = b;
    }
    diag_clear();
    bool ok = race_check(nest);
    if (k) CHECK(ok, "33 nested loops, own slice: %s", diag_message());
    else CHECK(!ok && strstr(diag_message(), "gid32"), "33rd nested loop ignored: %s", diag_message());
  }

  /* 256 declarations in scope (the check kept 256), then a loop writing the
     variable it declares itself */
  KStmt *many = kstmt_block();
  for (int d = 0; d < 256; d++) {
    KStmt *sd = NEW(KStmt);
    sd->kind = KS_DECL; sd->name = arena_printf("s%d", d); sd->type = type_scalar(TY_FLOAT);
    kstmt_add(many, sd);
  }
  kstmt_add(many, parfor_writing(LEVEL_GLB, i, cexp_var("acc", type_scalar(TY_FLOAT)), decl));
  diag_clear();
  CHECK(race_check(many), "private variable after 256 declarations: %s", diag_message());

  return CHECK_DONE("race");
}
