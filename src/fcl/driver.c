/* driver.c — the FCL stages one after another, for the command line and
   `clift test`: parse, check, then the interpreter (`-t interp`) or
   monomorphisation (mono.c), the compilation onto a kernel for the inputs'
   shapes (compile.c), the host plan (device targets), code generation and the
   run, each through the target's row of the target table (cli/driver.h). */
#include "compile.h"
#include "../cli/driver.h"
#include "../cli/bench.h"
#include "../dpia/plan.h"
#include "../runtime/device.h"
#include <stdio.h>
#include <string.h>

/* The program of text (NULL: the file could not be read), parsed and checked; NULL + diag */
static FProgram *checked(const char *file, const char *text) {
  FProgram *p = text ? fcl_parse(file, text) : NULL;
  return p && fcl_check(p) ? p : NULL;
}

static FProgram *load(const char *path) { return checked(path, util_read_file(path, NULL)); }

int fcl_cli_check(const char *path, bool mono) {
  FProgram *p = load(path);
  if (p && mono) p = fcl_monomorphise(p);
  if (!p) { fputs(diag_render(), stderr); return 1; }
  printf("%s\n", fcl_describe(p));
  return fflush(stdout) == 0 ? 0 : 1;
}

int fcl_cli_library(const char *path, const Target *t) {
  FProgram *p = load(path);
  if (p) {
    FDef *entry = fcl_entry_def(p);
    diag_unsupported(entry->loc, "a library (compile -o) of an FCL program: its lengths are int values it computes "
                                 "(generate n f, length xs / w) and are compiled as constants for the shapes of its inputs "
                                 "(docs/fcl.md §6.1, §6.7): use clift run, bench or compile --print with the inputs");
    diag_name_target(t->name);
  }
  fputs(diag_render(), stderr);
  return 1;
}

/* The program compiled for target t on these inputs (fc: its kernel and
   arguments, c: the plan and source); false + diag naming the target. */
static bool compile_for(FProgram *p, const Target *t, int ninputs, Value **in, FclCompiled **fc, Compiled *c) {
  FDef *entry = fcl_entry(p, ninputs);
  FProgram *mono = entry ? fcl_monomorphise(p) : NULL;
  *fc = mono ? fcl_compile(mono, entry, in, ninputs, FCL_DEFAULT_BLOCK_SIZE, t->api && t->api->resident) : NULL;
  if (!*fc) { diag_name_target(t->name); return false; }
  *c = (Compiled){ .target = t, .prog = (*fc)->prog, .lowered = (*fc)->prog, .kernel = (*fc)->kernel };
  if ((t->device && !(c->plan = plan_build(c->kernel))) || !(c->src = t->emit(c))) { diag_name_target(t->name); return false; }
  return true;
}

/* One run of the compiled program (o->timing: bench's timed runs, the result
   discarded), its result in the entry's shape. NULL + diag. */
static Value *run_compiled(FclCompiled *fc, Compiled *c, const RunOptions *o) {
  Value *flat = c->target->run(c, fc->args, NULL, o);
  if (!flat) { diag_name_target(c->target->name); return NULL; }
  return o->timing && o->timing->discard_result ? flat : fcl_result_value(fc, flat);
}

/* The program compiled for target t on these inputs: the generated source in
   *src (when asked), the result when run (NULL + diag). */
static Value *compile_run(FProgram *p, const Target *t, int ninputs, Value **in, const RunOptions *o, const char **src, bool run) {
  FclCompiled *fc;
  Compiled c;
  if (!compile_for(p, t, ninputs, in, &fc, &c)) return NULL;
  if (src) *src = c.src;
  if (!run) return value_tuple(0);
  RunOptions plain = o ? *o : run_options_default();
  plain.timing = NULL;
  return run_compiled(fc, &c, &plain);
}

/* What bench prints after the target: the inputs, scalars as literals and
   arrays as their lengths, "256 [16777216]". */
static const char *inputs_text(int ninputs, Value **in) {
  Buf b = { 0 };
  for (int i = 0; i < ninputs; i++) {
    buf_puts(&b, i ? " " : "");
    Value *v = in[i];
    if (v->kind != VAL_ARRAY) { value_print(&b, v); continue; }
    for (Value tmp; v && v->kind == VAL_ARRAY; v = v->n ? value_elem_at(v, 0, &tmp) : NULL) buf_printf(&b, "[%lld]", (long long)v->n);
  }
  return buf_str(&b);
}

int fcl_cli_bench(const char *path, const BenchOptions *o, int ninputs, const char **inputs) {
  FProgram *p = load(path);
  Value **in = p ? fcl_read_inputs(p, ninputs, inputs) : NULL;
  if (!in) return fputs(diag_render(), stderr), 1;
  const Target *t = o->target;
  RunTiming timing = { o->runs, NEW_ARRAY(double, o->runs), true };
  RunOptions timed = o->run;
  timed.timing = &timing;
  if (target_is_oracle(t)) {   /* the interpreter: a warm-up run, then the timed ones */
    bool ok = fcl_run_values(p, ninputs, in, FCL_DEFAULT_BLOCK_SIZE) != NULL;
    for (int k = 0; ok && k < o->runs; k++) {
      double t0 = timing_now_ms();
      ok = fcl_run_values(p, ninputs, in, FCL_DEFAULT_BLOCK_SIZE) != NULL;
      timing.ms[k] = timing_now_ms() - t0;
    }
    if (!ok) return fputs(diag_render(), stderr), 1;
  } else {
    FclCompiled *fc;
    Compiled c;
    if (!compile_for(p, t, ninputs, in, &fc, &c)) return fputs(diag_render(), stderr), 1;
    if (o->check) {   /* compiled once: the checked run and the timed ones run the same code */
      RunOptions plain = o->run;
      plain.timing = NULL;
      Value *want = fcl_run_values(p, ninputs, in, FCL_DEFAULT_BLOCK_SIZE);
      Value *got = want ? run_compiled(fc, &c, &plain) : NULL;
      if (!got || !bench_check_result(t, got, want, o->tolerance)) return fputs(diag_render(), stderr), 1;
    }
    if (!run_compiled(fc, &c, &timed)) return fputs(diag_render(), stderr), 1;
  }
  bench_report(path, t, inputs_text(ninputs, in), &timing);
  return fflush(stdout) == 0 ? 0 : 1;
}

int fcl_cli_run(const char *path, const Target *t, const RunOptions *o, int ninputs, const char **inputs, const char *out) {
  FProgram *p = load(path);
  Value **in = p ? fcl_read_inputs(p, ninputs, inputs) : NULL;
  if (out) {   /* -o out.npy: a compiled program's one result (an array, or a scalar as one element) */
    if (target_is_oracle(t)) { fprintf(stderr, "clift: run -o of an FCL program needs a compiled target (-t c, openmp, opencl, cuda)\n"); return 2; }
    FclCompiled *fc;
    Compiled c;
    if (!in || !compile_for(p, t, ninputs, in, &fc, &c)) { fputs(diag_render(), stderr); return 1; }
    if (fc->nleaves != 1) { fprintf(stderr, "clift: run -o of an FCL program whose result is a pair: print it instead\n"); return 1; }
    RunOptions plain = *o;
    plain.timing = NULL;
    Value *flat = c.target->run(&c, fc->args, NULL, &plain);
    if (!flat) { diag_name_target(t->name); fputs(diag_render(), stderr); return 1; }
    if (!value_write_npy(out, flat, fc->prog->result)) { fputs(diag_render(), stderr); return 1; }
    return 0;
  }
  Value *v = !in ? NULL : target_is_oracle(t) ? fcl_run_values(p, ninputs, in, FCL_DEFAULT_BLOCK_SIZE)
                        : compile_run(p, t, ninputs, in, o, NULL, true);
  if (!v || !value_print_line(stdout, v)) { fputs(diag_render(), stderr); return 1; }
  return 0;
}

/* p (checked) compiled for target t on the inputs: the generated source; NULL + diag */
static const char *source_of(FProgram *p, const Target *t, int ninputs, const char **inputs) {
  Value **in = p ? fcl_read_inputs(p, ninputs, inputs) : NULL;
  const char *src = NULL;
  if (!in || !compile_run(p, t, ninputs, in, NULL, &src, false)) return NULL;
  return src;
}

const char *fcl_cli_source(const char *path, const Target *t, int ninputs, const char **inputs) {
  return source_of(load(path), t, ninputs, inputs);
}

const char *fcl_text_source(const char *file, const char *text, const Target *t, int ninputs, const char **inputs) {
  return source_of(checked(file, text), t, ninputs, inputs);
}

/* One `-- test:` block on target t: the interpreter's result against the
   block's output (as printed, spaces aside), a compiled target's against the
   interpreter's; an error block: the error on every target. NULL: passed. */
static const char *squeeze(const char *s) {
  Buf b = { 0 };
  for (; *s; s++) if (*s != ' ') buf_putc(&b, *s);
  return buf_str(&b);
}

const char *fcl_test_block(const char *file, int ninputs, const char **inputs, const char *output, const char *error,
                           const Target *t) {
  diag_clear();
  FProgram *p = load(file);
  Value **in = p ? fcl_read_inputs(p, ninputs, inputs) : NULL;
  Value *want = in ? fcl_run_values(p, ninputs, in, FCL_DEFAULT_BLOCK_SIZE) : NULL;
  if (error) {
    if (want) {
      if (!target_is_oracle(t) && !compile_run(p, t, ninputs, in, NULL, NULL, true) && strstr(diag_render(), error)) return NULL;
      return arena_printf("expected an error containing '%s', but it ran", error);
    }
    if (!strstr(diag_render(), error)) return arena_printf("expected an error containing '%s', got: %s", error, diag_render());
    if (!in || target_is_oracle(t)) return NULL;
    diag_clear();   /* the compiled program fails the same way */
    if (compile_run(p, t, ninputs, in, NULL, NULL, true)) return arena_printf("expected an error containing '%s', but it ran", error);
    return strstr(diag_render(), error) ? NULL : arena_printf("expected an error containing '%s', got: %s", error, diag_render());
  }
  if (!want) return arena_printf("interp: %s", diag_render());
  Buf shown = { 0 };
  value_print(&shown, want);
  if (output && strcmp(squeeze(buf_str(&shown)), squeeze(output)) != 0)
    return arena_printf("interp printed %.300s, expected %.300s", buf_str(&shown), output);
  if (target_is_oracle(t)) return NULL;
  diag_clear();
  Value *got = compile_run(p, t, ninputs, in, NULL, NULL, true);
  if (!got) return arena_printf("unexpected error: %s", diag_render());
  Buf why = { 0 };
  if (value_close(got, want, 1e-12, &why)) return NULL;
  Buf g = { 0 };
  value_print(&g, got);
  return arena_printf("differs from interp: %s; got %.300s", buf_str(&why), buf_str(&g));
}
