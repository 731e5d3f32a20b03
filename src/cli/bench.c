/* bench.c — `clift bench` (SPEC §7): time a program on fresh random inputs of
   the given sizes: one warm-up run, then --runs timed runs of the device work
   (compilation and input transfers excluded); prints the median, min and max.
   --check first compares the target's result with the interpreter's on the
   same inputs. */
#include "bench.h"
#include "driver.h"
#include "../runtime/cpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void bench_sort_times(RunTiming *t) { qsort(t->ms, (size_t)t->runs, sizeof(double), by_value); }

bool bench_bind_sizes(Program *p, int nsizes, const char **given, NatBinding **out) {
  BenchOptions one = { .nsizes = nsizes, .sizes = given }, *o = &one;
  for (int i = 0; i < o->nsizes; i++) {   /* every --size names one of the program's size variables */
    const char *eq = strchr(o->sizes[i], '=');
    if (!eq || eq == o->sizes[i]) return diag_error(LOC_NONE, "--size %s: expected NAME=VALUE, e.g. N=1024", o->sizes[i]);
    int k = 0;
    while (k < p->nsizes && !(strlen(p->sizes[k]->name) == (size_t)(eq - o->sizes[i])
                              && strncmp(p->sizes[k]->name, o->sizes[i], (size_t)(eq - o->sizes[i])) == 0)) k++;
    if (k < p->nsizes) continue;
    Buf names = {0};
    for (k = 0; k < p->nsizes; k++) buf_printf(&names, "%s%s", k ? ", " : "", p->sizes[k]->name);
    return diag_error(LOC_NONE, "--size %s: the program has no size variable %.*s (%s%s)", o->sizes[i],
                      (int)(eq - o->sizes[i]), o->sizes[i], p->nsizes ? "it has " : "it has none", buf_str(&names));
  }
  NatBinding *b = NULL;
  for (int k = 0; k < p->nsizes; k++) {
    if (program_size_param(p, k) >= 0) continue;   /* a value size: bench_random_inputs binds it */
    const char *name = p->sizes[k]->name;
    long long v = -1;
    for (int i = 0; i < o->nsizes; i++)
      if (strncmp(o->sizes[i], name, strlen(name)) == 0 && o->sizes[i][strlen(name)] == '=') {
        char *end;
        v = strtoll(o->sizes[i] + strlen(name) + 1, &end, 0);
        if (*end || v < 1) return diag_error(LOC_NONE, "--size %s: expected a positive integer", o->sizes[i]);
      }
    if (v < 1) return diag_error(LOC_NONE, "no value for the size variable %s: give --size %s=VALUE", name, name);
    NatBinding *n = NEW(NatBinding);
    n->var = p->sizes[k]; n->value = v; n->next = b;
    b = n;
  }
  *out = b;
  return true;
}

Value **bench_random_inputs(Program *p, NatBinding **sizes, uint64_t *seed, bool trees) {
  Value **inputs = NEW_ARRAY(Value *, p->nparams);
  for (int i = 0; i < p->nparams; i++) {
    const char *what = arena_printf("input %d (%s)", i + 1, p->params[i].name);
    if (!(inputs[i] = cpu_random_input(p->params[i].type, *sizes, seed, what, trees))) return NULL;
  }
  driver_bind_value_sizes(p, inputs, sizes);
  return inputs;
}

const char *bench_sizes_text(Program *p, NatBinding *sizes) {
  Buf t = {0};
  for (int k = 0; k < p->nsizes; k++)
    for (NatBinding *n = sizes; n && program_size_param(p, k) < 0; n = n->next)   /* the declared sizes */
      if (n->var == p->sizes[k]) buf_printf(&t, "%s%s=%lld", t.len ? " " : "", n->var->name, n->value);
  return buf_str(&t);
}

bool bench_check_result(const Target *t, Value *got, Value *want, double tolerance) {
  Buf why = {0};
  if (!value_close(got, want, tolerance, &why))
    return diag_error(LOC_NONE, "check failed: %s differs from interp: %s", t->name, buf_str(&why));
  printf("check: %s agrees with interp (tolerance %g)\n", t->name, tolerance);
  return true;
}

void bench_report(const char *file, const Target *t, const char *what, RunTiming *timing) {
  bench_sort_times(timing);
  printf("bench %s -t %s%s%s: median %.4f ms (min %.4f, max %.4f) over %d runs\n", file, t->name, *what ? " " : "", what,
         timing->ms[timing->runs / 2], timing->ms[0], timing->ms[timing->runs - 1], timing->runs);
}

static bool check_against_interp(Program *p, BenchOptions *o, Value **inputs, NatBinding *sizes) {
  RunOptions plain = run_options_default();
  Value *want = driver_run(p, driver_target("interp"), inputs, sizes, &plain);
  Value *got = want ? driver_run(p, o->target, inputs, sizes, &o->run) : NULL;
  return got && bench_check_result(o->target, got, want, o->tolerance);
}

bool bench_program(Program *p, BenchOptions *o) {
  NatBinding *sizes = NULL;
  if (!bench_bind_sizes(p, o->nsizes, o->sizes, &sizes)) return false;
  bool trees = o->check || target_is_oracle(o->target);   /* the interpreter reads value trees */
  uint64_t seed = o->seed;
  Value **inputs = bench_random_inputs(p, &sizes, &seed, trees);
  if (!inputs) return false;
  if (o->check && !check_against_interp(p, o, inputs, sizes)) return false;
  RunTiming t = { o->runs, NEW_ARRAY(double, o->runs), true };
  RunOptions timed = o->run;
  timed.timing = &t;
  if (!driver_run(p, o->target, inputs, sizes, &timed)) return false;
  bench_report(p->file, o->target, bench_sizes_text(p, sizes), &t);
  return true;
}
