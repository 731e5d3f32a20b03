/* fuzz_compile.c — libFuzzer target over the whole compiler but the run:
     parse → normalise → infer types (clift check) → lower → DPIA → code
     generation for every code-generating target (c, openmp, opencl, cuda),
   and what `clift test` does before running: K-normalisation, and the reading
   of the inputs of the first test block (SPEC §9: literals → values, size
   variables bound and checked, values printed back).
   The input bytes are a program text. Only text is generated: no C or OpenCL
   compiler is invoked, nothing is loaded, no file is read (inputs @file and
   FILE.npy are left out). A compile error is a fine outcome
   (its report is rendered, as clift prints it); a crash, a sanitizer report, a
   leak or a hang is a finding. tests/fuzz/README.md says how to build and run.

   The same bytes then go through the APL and the TAIL front ends (parse →
   elaborate → TAIL check → lower → normalise → infer, the TAIL printer, the
   hidden inputs), and the program they make through code generation for every
   target, as `clift run prog.apl|prog.tail` does before it runs; and through
   FCL's (parse → check → what `clift check` prints → monomorphisation, and
   with the inputs of its first `-- test:` block, compilation for those shapes
   and code generation for every target, as `clift compile --print prog.fcl`).

   Every execution starts from the state of a fresh process: the arena and the
   diagnostics' source list are released, the uid and size-variable counters
   restart and the launch-size override (a CLI option, process-wide in
   dpia/plan.c) is cleared, so that an input found here reproduces alone. */
#include "cli/driver.h"
#include "dpia/plan.h"
#include "syntax/ast.h"
#include "arith/nat.h"
#include "tail/tail.h"
#include "apl/apl.h"
#include "fcl/fcl.h"
#include <stdint.h>
#include <string.h>

enum { MAX_INPUTS = 16 };



/* The `;; input:` lines (leader ";;", FCL's "--") of the first `;; test:`
   block, as `clift test` reads them; 0 when it has none or one names a file. */
static int first_block_inputs(const char *text, const char *leader, const char **inputs) {
  int n = 0, block = 0;
  for (const char *p = text; *p && block < 2;) {
    const char *e = strchr(p, '\n');
    if (!e) e = p + strlen(p);
    while (p < e && (*p == ' ' || *p == '\t')) p++;
    if (e - p > 2 && p[0] == leader[0] && p[1] == leader[1]) {
      const char *q = p + 2;
      while (q < e && *q == ' ') q++;
      if (e - q >= 5 && strncmp(q, "test:", 5) == 0) block++;
      else if (block == 1 && e - q >= 6 && strncmp(q, "input:", 6) == 0 && n < MAX_INPUTS) {
        for (q += 6; q < e && (*q == ' ' || *q == '\t'); q++) {}
        const char *v = q, *ve = e;
        while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t' || ve[-1] == '\r')) ve--;
        if (*v == '@' || (ve - v >= 4 && strncmp(ve - 4, ".npy", 4) == 0)) return 0;
        inputs[n++] = arena_strndup(v, (size_t)(ve - v));
      }
    }
    p = *e ? e + 1 : e;
  }
  return n;
}

static void read_inputs(Program *p, const char *text) {
  const char *args[MAX_INPUTS];
  int n = first_block_inputs(text, ";;", args);
  if (n == 0 || n != p->nparams) return;
  diag_clear();
  NatBinding *sizes = NULL;
  Value **values = driver_read_inputs(p, n, args, NULL, &sizes);
  if (!values) { (void)diag_render(); return; }
  Buf b = {0};
  for (int i = 0; i < n; i++) value_print(&b, values[i]);
}

/* Code generation for every target that generates code. */
static void generate_all(Program *p) {
  for (int i = 0; driver_target_at(i); i++) {
    if (target_is_oracle(driver_target_at(i))) continue;
    diag_clear();
    if (!driver_generate(p, driver_target_at(i), NULL)) (void)diag_render();
  }
}

/* The text as an APL program (apl) or a TAIL program. */
static void tail_front_end(const char *text, bool apl) {
  const char *file = apl ? "fuzz.apl" : "fuzz.tail";
  bool final = true;
  diag_clear();
  TExp *e = apl ? apl_to_tail(file, text, &final) : tail_parse(file, text);
  TailProgram *tp = e ? tail_compile_outputs(e, file, final) : NULL;
  if (!tp || !tail_inputs(tp)) { (void)diag_render(); return; }
  Buf b = {0};
  tail_print(&b, e);                 /* `clift apl --emit-tail` */
  (void)tail_describe(tp);           /* `clift check` */
  ast_print(&b, tp->core->body);     /* `--emit-core` */
  generate_all(tp->core);
}

/* The text as an FCL program: checked, described, monomorphised, and compiled
   for every target on its first test block's inputs. */
static void fcl_front_end(const char *text) {
  diag_clear();
  FProgram *p = fcl_parse("fuzz.fcl", text);
  if (!p || !fcl_check(p)) { (void)diag_render(); return; }
  (void)fcl_describe(p);             /* `clift check prog.fcl` */
  FProgram *m = fcl_monomorphise(p);
  if (!m) { (void)diag_render(); return; }
  (void)fcl_describe(m);             /* `clift check --mono` */
  const char *args[MAX_INPUTS];
  int n = first_block_inputs(text, "--", args);
  if (n == 0) return;
  for (int i = 0; driver_target_at(i); i++) {
    if (target_is_oracle(driver_target_at(i))) continue;
    diag_clear();
    if (!fcl_text_source("fuzz.fcl", text, driver_target_at(i), n, args)) (void)diag_render();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  driver_reset_process_state();
  char *text = arena_strndup((const char *)data, size);   /* NUL-terminated */
  Program *p = driver_compile_text("fuzz.lift", text);
  if (!p) {
    (void)diag_render();   /* the file:line:col report and its source line */
  } else {
    read_inputs(p, text);
    (void)driver_program_type(p);   /* what `clift check` prints */
    Buf b = {0};
    ast_print(&b, p->body);        /* `clift check --dump` */
    generate_all(p);
    /* last, so that the uids above are those of `clift compile` */
    ast_print(&b, knormalize(p->body));   /* the K-normalised program `clift test` also runs */
  }
  tail_front_end(text, true);
  tail_front_end(text, false);
  fcl_front_end(text);
  driver_reset_process_state();   /* nothing stays allocated between executions */
  return 0;
}
