/* testrun.c — `clift test` (SPEC §9): runs the test blocks written in program
   comments on every requested target and prints "N passed, N failed, N skipped".
   On interp each block also runs on the K-normalised program, which must agree. */
#include "testrun.h"
#include "driver.h"
#include "../runtime/cpu.h"
#include "../apl/apl.h"
#include "../fcl/fcl.h"
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

typedef struct TestBlock {
  const char *name;
  int line;
  int ninputs, cap_inputs;
  const char **inputs;
  const char *output, *error;   /* the last of each (a .lift block) */
  int noutputs, cap_outputs, nerrors, cap_errors;
  const char **outputs, **errors;   /* every one, in order (a .tail block: one per output line) */
  const char *random;      /* "N=10 M=7": fresh random inputs of these sizes, compared with interp */
  double tolerance;        /* 0: the default for the result's type */
} TestBlock;

typedef struct Tally { int passed, failed, skipped; } Tally;

/* A feature a target does not have yet (DIAG_UNSUPPORTED) is a skip, not a
   failure: the runner line still shows it, and the reason is printed. */

static const char *trim(const char *s, const char *e) {
  while (s < e && (*s == ' ' || *s == '\t')) s++;
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
  return arena_strndup(s, (size_t)(e - s));
}

/* The comment a test directive is written in, per kind of file (docs/apl.md
   §4): ";; key: value" in .lift, "(* key: value *)" on one line in .tail,
   "⍝ key: value" in .apl. */
typedef struct Leader { const char *open, *close; } Leader;
static const Leader lift_leader = { ";;", "" }, tail_leader = { "(*", "*)" }, apl_leader = { "⍝", "" }, fcl_leader = { "--", "" };

static const Leader *leader_of(const char *file) {
  return tail_is_file(file) ? &tail_leader : apl_is_file(file) ? &apl_leader : fcl_is_file(file) ? &fcl_leader : &lift_leader;
}

/* Collect the directive lines into blocks; *refused (may be NULL): the value of
   the file's 'refused:' lines, the targets expected to refuse it, joined by spaces. */
static int parse_blocks(const char *text, const Leader *lead, TestBlock **out, const char **refused) {
  if (refused) *refused = "";
  int n = 0, cap = 16;
  TestBlock *blocks = NEW_ARRAY(TestBlock, cap);
  int line = 1;
  for (const char *p = text; *p; line++) {
    const char *e = strchr(p, '\n');
    if (!e) e = p + strlen(p);
    const char *q = p;
    while (q < e && (*q == ' ' || *q == '\t')) q++;
    size_t lo = strlen(lead->open), lc = strlen(lead->close);
    const char *end = e;
    while (end > q && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) end--;
    bool closed = lc == 0 || ((size_t)(end - q) >= lo + lc && memcmp(end - lc, lead->close, lc) == 0);
    if ((size_t)(e - q) > lo && memcmp(q, lead->open, lo) == 0 && closed) {
      q += lo;
      end -= lc;
      while (q < end && *q == ' ') q++;
      const char *colon = memchr(q, ':', (size_t)(end - q));
      const char *key = colon ? trim(q, colon) : "";
      const char *val = colon ? trim(colon + 1, end) : "";
      if (strcmp(key, "test") == 0) {
        if (n == cap) {
          TestBlock *b = NEW_ARRAY(TestBlock, cap * 2);
          memcpy(b, blocks, sizeof(TestBlock) * (size_t)cap);
          blocks = b; cap *= 2;
        }
        blocks[n] = (TestBlock){ .name = val, .line = line };
        n++;
      } else if (n > 0 && strcmp(key, "input") == 0) {
        ARENA_PUSH(blocks[n - 1].inputs, blocks[n - 1].ninputs, blocks[n - 1].cap_inputs, val);
      } else if (n > 0 && strcmp(key, "output") == 0) {
        TestBlock *b = &blocks[n - 1];
        b->output = val;
        ARENA_PUSH(b->outputs, b->noutputs, b->cap_outputs, val);
      } else if (n > 0 && strcmp(key, "error") == 0) {
        TestBlock *b = &blocks[n - 1];
        b->error = val;
        ARENA_PUSH(b->errors, b->nerrors, b->cap_errors, val);
      } else if (n > 0 && strcmp(key, "random") == 0) {
        blocks[n - 1].random = val;
      } else if (n > 0 && strcmp(key, "tolerance") == 0) {
        blocks[n - 1].tolerance = atof(val);
      } else if (refused && strcmp(key, "refused") == 0) {
        *refused = arena_printf("%s %s", *refused, val);
      }
    }
    p = *e ? e + 1 : e;
  }
  *out = blocks;
  return n;
}

static double default_tolerance(Type *t) {
  for (;;) {
    if (t->kind == TY_ARRAY || t->kind == TY_VECTOR) t = t->elem;
    else if (t->kind == TY_EXISTS) t = t->array;
    else if (t->kind == TY_TUPLE) t = t->fields[0];
    else break;
  }
  return t->kind == TY_DOUBLE ? 1e-12 : 1e-5;
}

static const char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? arena_strndup(path, (size_t)(slash - path)) : ".";
}

/* The seed of the random blocks: fresh each run (the time), or CLIFT_TEST_SEED
   to reproduce a failure; a failure prints it. */
static uint64_t random_seed(void) {
  static uint64_t seed;
  if (!seed) {
    const char *env = getenv("CLIFT_TEST_SEED");
    seed = env && *env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) * 2654435761u;
    if (!seed) seed = 1;
  }
  return seed;
}

/* Bind "N=10 M=7" to the program's size variables. */
static bool random_sizes(Program *p, const char *text, NatBinding **out) {
  NatBinding *b = NULL;
  for (int k = 0; k < p->nsizes; k++) {
    if (program_size_param(p, k) >= 0) continue;   /* a value size: bound from its input once made */
    const char *name = p->sizes[k]->name;
    size_t len = strlen(name);
    long long v = -1;
    for (const char *s = text; (s = strstr(s, name)); s += len)
      if ((s == text || s[-1] == ' ') && s[len] == '=') { v = atoll(s + len + 1); break; }
    if (v < 1) return diag_error(LOC_NONE, "'random:' gives no positive value for the size variable %s", name);
    NatBinding *n = NEW(NatBinding);
    n->var = p->sizes[k]; n->value = v; n->next = b;
    b = n;
  }
  *out = b;
  return true;
}

/* A random block: fresh random inputs of the given sizes; the target's result
   must agree with the interpreter's on the same inputs. */
static const char *run_random_block(Program *p, TestBlock *tb, const Target *target, const GenOptions *gen) {
  RunOptions plain = run_options_default();
  plain.gen = *gen;
  diag_clear();
  NatBinding *sizes = NULL;
  if (!random_sizes(p, tb->random, &sizes)) return arena_printf("bad 'random:' line: %s", diag_render());
  uint64_t seed = random_seed();
  Value **in = NEW_ARRAY(Value *, p->nparams);
  for (int i = 0; i < p->nparams; i++)
    if (!(in[i] = cpu_random_input(p->params[i].type, sizes, &seed, p->params[i].name, true)))
      return arena_printf("random inputs: %s", diag_render());
  driver_bind_value_sizes(p, in, &sizes);
  Value *want = driver_run(p, driver_target("interp"), in, sizes, &plain);
  if (!want) return tb->error && strstr(diag_render(), tb->error) ? NULL : arena_printf("interp: %s", diag_render());
  if (target_is_oracle(target)) return NULL;
  Value *got = driver_run(p, target, in, sizes, &plain);
  if (!got) return arena_printf("unexpected error (CLIFT_TEST_SEED=%llu): %s", (unsigned long long)random_seed(), diag_render());
  Buf why = {0};
  double tol = tb->tolerance > 0 ? tb->tolerance : default_tolerance(p->result);
  if (value_close(got, want, tol, &why)) return NULL;
  return arena_printf("differs from interp (CLIFT_TEST_SEED=%llu): %s", (unsigned long long)random_seed(), buf_str(&why));
}

/* Run one block on one program form; returns NULL on success, else why. */
static const char *run_block(const char *file, Program *p, TestBlock *tb, const Target *target, const GenOptions *gen) {
  RunOptions plain = run_options_default();
  plain.gen = *gen;
  if (tb->random && (tb->output || tb->ninputs))   /* one would be ignored: a check that cannot fail */
    return "a block has 'random:' and also 'input:'/'output:' lines; give each its own ';; test:' block";
  if (tb->random) return run_random_block(p, tb, target, gen);
  diag_clear();
  NatBinding *sizes = NULL;
  Value **in = driver_read_inputs(p, tb->ninputs, tb->inputs, dir_of(file), &sizes);
  Value *got = in ? driver_run(p, target, in, sizes, &plain) : NULL;
  if (tb->error) {
    if (got) return arena_printf("expected an error containing '%s', but it ran", tb->error);
    const char *msg = diag_render();
    return strstr(msg, tb->error) ? NULL : arena_printf("expected an error containing '%s', got: %s", tb->error, msg);
  }
  if (!got) return arena_printf("unexpected error: %s", diag_render());
  diag_clear();
  Value *want = value_parse(tb->output, p->result, "expected output");
  if (!want) return arena_printf("bad 'output:' line: %s", diag_render());
  Buf why = {0};
  double tol = tb->tolerance > 0 ? tb->tolerance : default_tolerance(p->result);
  if (value_close(got, want, tol, &why)) return NULL;
  Buf shown = {0};
  value_print(&shown, got);
  const char *g = buf_str(&shown);
  return arena_printf("%s; got %.300s%s", buf_str(&why), g, strlen(g) > 300 ? "…" : "");
}

/* Does the file's 'refused:' list name target? */
static bool expects_refusal(const char *refused, const Target *target) {
  size_t len = strlen(target->name);
  for (const char *p = refused; (p = strstr(p, target->name)); p += len)
    if ((p == refused || p[-1] == ' ' || p[-1] == ',') && (p[len] == 0 || p[len] == ' ' || p[len] == ',')) return true;
  return false;
}

/* The file being tested: its options, and the targets its 'refused:' lines name. */
typedef struct FileRun { const TestOptions *o; const char *refused; } FileRun;

static void report(Tally *t, const char *file, TestBlock *tb, const Target *target, const char *why, bool unsupported,
                   const FileRun *fr) {
  if (!why) {
    t->passed++;
    if (fr->o->verbose) printf("PASS %s:%d [%s] %s\n", file, tb->line, target->name, tb->name);
    return;
  }
  if (unsupported && !target_is_oracle(target) && fr->o->strict && !expects_refusal(fr->refused, target))
    why = arena_printf("refused, and the file does not expect it (';; refused: %s' if it is meant): %s", target->name, why);
  else if (unsupported && !target_is_oracle(target)) {
    t->skipped++;
    printf("SKIP %s:%d [%s] %s\n     %s\n", file, tb->line, target->name, tb->name, why);
    return;
  }
  t->failed++;
  printf("FAIL %s:%d [%s] %s\n     %s\n", file, tb->line, target->name, tb->name, why);
}

/* ---- .tail files (docs/apl.md §4): no inputs; every output line compared ---- */

/* Each expected error line must be in the diagnostic. */
static const char *match_errors(TestBlock *tb, const char *msg) {
  for (int i = 0; i < tb->nerrors; i++)
    if (!strstr(msg, tb->errors[i])) return arena_printf("expected an error containing '%s', got: %s", tb->errors[i], msg);
  return NULL;
}

/* Printed lines against expected ones: as literals within the tolerance when
   both read as literals of the output's type, else as exact text. */
static const char *compare_line(const char *got, const char *want, Type *t, double tol) {
  Value *g = value_parse(got, t, "printed"), *w = g ? value_parse(want, t, "expected") : NULL;
  diag_clear();
  Buf why = {0};
  if (g && w ? value_close(g, w, tol, &why) : strcmp(got, want) == 0) return NULL;
  return arena_printf("printed %.300s, expected %.300s%s%s", got, want, why.len ? ": " : "", buf_str(&why));
}

static const char *run_tail_block(TailProgram *tp, TestBlock *tb, const Target *target, const GenOptions *gen) {
  if (tb->ninputs || tb->random) return "an APL or TAIL program has no parameters: 'input:' and 'random:' do not apply";
  if (!tb->noutputs && !tb->nerrors) return "the block has no 'output:' or 'error:' line";
  RunOptions plain = run_options_default();
  plain.gen = *gen;
  diag_clear();
  Value **in = tail_inputs(tp);
  Value *got = in ? driver_run(tp->core, target, in, NULL, &plain) : NULL;
  if (tb->nerrors) return got ? "expected an error, but it ran" : match_errors(tb, diag_render());
  if (!got) return arena_printf("unexpected error: %s", diag_render());
  int nlines = 0, cap = 0, tcap = 0, ntypes = 0;
  const char **lines = NULL;   /* the printed lines (a char matrix prints one per row) */
  Type **types = NULL;         /* the clift type of each line's output */
  for (int k = 0; k < tp->noutputs; k++) {
    Buf b = {0};
    Type *t = tail_print_output(&b, got, tp, k);
    for (const char *p = buf_str(&b), *nl; ; p = nl + 1) {
      nl = strchr(p, '\n');
      ARENA_PUSH(lines, nlines, cap, nl ? arena_strndup(p, (size_t)(nl - p)) : p);
      ARENA_PUSH(types, ntypes, tcap, t);
      if (!nl) break;
    }
  }
  if (nlines != tb->noutputs) return arena_printf("printed %d line%s, expected %d", nlines, nlines == 1 ? "" : "s", tb->noutputs);
  for (int i = 0; i < nlines; i++) {
    double tol = tb->tolerance > 0 ? tb->tolerance : default_tolerance(types[i]);
    const char *why = compare_line(lines[i], tb->outputs[i], types[i], tol);
    if (why) return nlines == 1 ? why : arena_printf("line %d: %s", i + 1, why);
  }
  return NULL;
}

static void test_tail_file(Tally *t, const char *file, const char *text, TestBlock *blocks, int n,
                           const Target **targets, int ntargets, const FileRun *fr) {
  TailProgram *tp = apl_is_file(file) ? apl_compile_text(file, text) : tail_compile_text(file, text);
  const char *compile_error = tp ? NULL : diag_render();
  for (int i = 0; i < n; i++)
    for (int k = 0; k < ntargets; k++) {
      TestBlock *tb = &blocks[i];
      const char *why;
      bool unsupported = false;
      if (!tp) why = tb->nerrors ? match_errors(tb, compile_error) : arena_printf("compile error: %s", compile_error);
      else {
        why = run_tail_block(tp, tb, targets[k], &fr->o->gen);
        unsupported = why && diag_kind() == DIAG_UNSUPPORTED;
      }
      report(t, file, tb, targets[k], why, unsupported, fr);
    }
}

static void test_file(Tally *t, const char *file, const Target **targets, int ntargets, const TestOptions *o) {
  ArenaMark mark = arena_mark();
  diag_clear();
  char *text = util_read_file(file, NULL);
  if (!text) { t->failed++; printf("FAIL %s: %s", file, diag_render()); arena_release(mark); return; }
  TestBlock *blocks;
  FileRun fr = { o, "" };
  const GenOptions *gen = &o->gen;
  int n = parse_blocks(text, leader_of(file), &blocks, &fr.refused);
  if (n == 0) { t->skipped++; printf("SKIP %s: no test blocks\n", file); arena_release(mark); return; }
  if (fcl_is_file(file)) {   /* docs/fcl.md §6: each target against the interpreter */
    for (int i = 0; i < n; i++)
      for (int k = 0; k < ntargets; k++) {
        TestBlock *tb = &blocks[i];
        const char *why = tb->random ? "'random:' is not supported for FCL programs" :
                          fcl_test_block(file, tb->ninputs, tb->inputs, tb->output, tb->error, targets[k]);
        report(t, file, tb, targets[k], why, why && diag_kind() == DIAG_UNSUPPORTED, &fr);
      }
    arena_release(mark);
    return;
  }
  if (tail_is_file(file) || apl_is_file(file)) {
    test_tail_file(t, file, text, blocks, n, targets, ntargets, &fr);
    arena_release(mark);
    return;
  }
  Program *p = driver_compile_text(file, text);
  const char *compile_error = p ? NULL : diag_render();
  Program *pk = NULL;
  if (p) {   /* the same program, K-normalised (syntax/knormal.c) */
    pk = NEW(Program);
    *pk = *p;
    pk->body = knormalize(p->body);
  }
  for (int i = 0; i < n; i++) {
    TestBlock *tb = &blocks[i];
    for (int k = 0; k < ntargets; k++) {
      const char *why;
      bool unsupported = false;
      if (!p) {
        why = tb->error && strstr(compile_error, tb->error) ? NULL
            : arena_printf("compile error: %s", compile_error);
      } else {
        why = run_block(file, p, tb, targets[k], gen);
        unsupported = why && diag_kind() == DIAG_UNSUPPORTED;   /* the refusal is still the recorded error */
        if (!why && target_is_oracle(targets[k]) && !tb->error) {
          const char *whyk = run_block(file, pk, tb, targets[k], gen);
          if (whyk) why = arena_printf("K-normalised program disagrees: %s", whyk);
        }
      }
      report(t, file, tb, targets[k], why, unsupported, &fr);
    }
  }
  arena_release(mark);
}

/* Count the blocks of a file (for skipping them on a missing target). */
static int count_blocks(const char *file) {
  ArenaMark mark = arena_mark();
  char *text = util_read_file(file, NULL);
  TestBlock *blocks;
  int n = text ? parse_blocks(text, leader_of(file), &blocks, NULL) : 0;
  diag_clear();
  arena_release(mark);
  return n;
}

int testrun_main(int nfiles, const char **files, const Target **targets, int ntargets, const TestOptions *o) {
  Tally t = {0};
  /* a target asked for but not runnable here (no OpenCL platform, no CUDA
     device) skips its blocks, as SPEC §9 runs "every target available" */
  const Target **usable = NEW_ARRAY(const Target *, ntargets);
  int nusable = 0;
  for (int k = 0; k < ntargets; k++) {
    if (targets[k]->available()) { usable[nusable++] = targets[k]; continue; }
    int blocks = 0;
    for (int i = 0; i < nfiles; i++) blocks += count_blocks(files[i]);
    printf("SKIP [%s] not available on this machine: %d test blocks skipped\n", targets[k]->name, blocks);
    t.skipped += blocks;
  }
  for (int i = 0; i < nfiles; i++) test_file(&t, files[i], usable, nusable, o);
  printf("%d passed, %d failed, %d skipped\n", t.passed, t.failed, t.skipped);
  return t.failed ? 1 : 0;
}
