/* main.c — the `clift` command line (SPEC §7). Options come before the
   program file; every argument after it is an input. Only main decides exit
   statuses: 0 success, 1 a compile/run/test failure, 2 a usage error. */
#include "driver.h"
#include "testrun.h"
#include "bench.h"
#include "tune.h"
#include "tune_cache.h"
#include "gen_flags.h"
#include "usage.h"
#include "../util/switches.h"
#include "../codegen/library.h"
#include "../apl/apl.h"
#include "../fcl/fcl.h"
#include <time.h>
#include "../runtime/cuda.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The main usage, its target list printed from the table of targets. */
static void print_usage_main(FILE *f) {
  Buf t = {0};
  for (int i = 0; driver_target_at(i); i++) buf_printf(&t, "  %-7s %s\n", driver_target_at(i)->name, driver_target_at(i)->summary);
  fprintf(f, usage_main, buf_str(&t));
}

static int fail(void) {
  fputs(diag_render(), stderr);
  return 1;
}

static int usage_error(const char *usage, const char *fmt, const char *arg) {
  fputs("clift: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\n", stderr);
  fputs(usage, stderr);
  return 2;
}

static bool is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0; }

/* The TAIL of a .tail or .apl file (parsed, or elaborated from APL);
   *final: whether its body is an output. */
static TExp *read_tail(const char *path, bool *final) {
  char *text = util_read_file(path, NULL);
  *final = true;
  if (!text) return NULL;
  return apl_is_file(path) ? apl_to_tail(path, text, final) : tail_parse(path, text);
}

static bool is_tail_or_apl(const char *path) { return tail_is_file(path) || apl_is_file(path); }

/* A TAIL program as text (--emit-tail), its lowered core program (--dump,
   --emit-core), on stdout. */
static void print_tail_text(TExp *e) {
  Buf b = {0};
  tail_print(&b, e);
  printf("%s\n", buf_str(&b));
  fflush(stdout);
}
static void print_core_text(TailProgram *tp) {
  Buf b = {0};
  ast_print(&b, tp->core->body);
  printf("%s\n", buf_str(&b));
}

/* clift check prog.tail|prog.apl: the outputs' types, or (--emit-tail) the
   TAIL program, printed (for .tail, print∘parse is the identity). */
static int check_tail(const char *path, bool dump, bool emit) {
  bool final;
  TExp *e = read_tail(path, &final);
  if (!e) return fail();
  if (emit) print_tail_text(e);
  TailProgram *tp = tail_compile_outputs(e, path, final);
  if (!tp) return fail();
  if (!emit) printf("%s\n", tail_describe(tp));
  if (dump) print_core_text(tp);
  return 0;
}

/* clift apl --emit-tail|--emit-core prog.apl */
static int cmd_apl(int argc, char **argv) {
  bool tail = false, core = false;
  int i = 0;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (is_help(argv[i])) { fputs(usage_apl, stdout); return 0; }
    if (strcmp(argv[i], "--emit-tail") == 0) tail = true;
    else if (strcmp(argv[i], "--emit-core") == 0) core = true;
    else return usage_error(usage_apl, "unknown option '%s'", argv[i]);
  }
  if (argc - i != 1) return usage_error(usage_apl, "%s", "expected exactly one program file");
  if (!apl_is_file(argv[i])) return usage_error(usage_apl, "'%s' is not a .apl file", argv[i]);
  if (tail == core) return usage_error(usage_apl, "%s", "expected one of --emit-tail and --emit-core");
  bool final;
  TExp *e = read_tail(argv[i], &final);
  if (!e) return fail();
  if (tail) {
    print_tail_text(e);
    return 0;
  }
  TailProgram *tp = tail_compile_outputs(e, argv[i], final);
  if (!tp) return fail();
  print_core_text(tp);
  return 0;
}

static int cmd_check(int argc, char **argv) {
  bool dump = false, emit = false;
  int i = 0;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (is_help(argv[i])) { fputs(usage_check, stdout); return 0; }
    if (strcmp(argv[i], "--dump") == 0) dump = true;
    else if (strcmp(argv[i], "--emit-tail") == 0) emit = true;
    else return usage_error(usage_check, "unknown option '%s'", argv[i]);
  }
  if (argc - i != 1) return usage_error(usage_check, "%s", "expected exactly one program file");
  if (fcl_is_file(argv[i])) return fcl_cli_check(argv[i], dump);   /* --dump: the monomorphised program */
  if (is_tail_or_apl(argv[i])) return check_tail(argv[i], dump, emit);
  if (emit) return usage_error(usage_check, "%s", "--emit-tail needs a .tail or .apl program");
  Program *p = driver_compile(argv[i]);
  if (!p) return fail();
  printf("%s\n", driver_program_type(p));
  for (int k = 0; k < p->ntunables; k++) {   /* docs/tuning.md */
    Tunable *t = &p->tunables[k];
    printf("%s%s = %lld (candidates", k ? "; " : "tunable sizes: ", t->name, t->value);
    for (int c = 0; c < t->ncand; c++) printf(" %lld", t->cand[c]);
    printf(")%s", k + 1 == p->ntunables ? "\n" : "");
  }
  if (dump) {
    Buf b = {0};
    ast_print(&b, p->body);
    printf("%s\n", buf_str(&b));
  }
  return 0;
}

static int write_result(Value *v, Type *t, const char *out) {
  if (out) return value_write_npy(out, v, t) ? 0 : fail();
  return value_print_line(stdout, v) ? 0 : fail();
}

/* --local-size X[,Y[,Z]] / --global-size X[,Y[,Z]] (SPEC §6) */
static bool parse_size3(const char *text, size_t out[3]) {
  out[0] = out[1] = out[2] = 0;
  char *copy = arena_strdup(text), *save = NULL;
  int d = 0;
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    char *end;
    long long v = strtoll(t, &end, 10);
    if (d == 3 || *end || v < 1) return false;
    out[d++] = (size_t)v;
  }
  return d > 0;
}

/* The options of run and bench that become RunOptions, and the first
   launch-size option given (for the message when the target has no launches). */
typedef struct RunArgs {
  RunOptions o; const char *launch_given;
  TuneValues tunables;       /* --tunable NAME=V */
  bool no_tune_cache;        /* --no-tune-cache */
} RunArgs;

/* --tunable NAME=V into ra->tunables; false when malformed. */
static bool add_tunable(RunArgs *ra, const char *text) {
  const char *eq = strchr(text, '=');
  char *end;
  long long v = eq ? strtoll(eq + 1, &end, 10) : 0;
  if (!eq || eq == text || !eq[1] || *end || v < 1) return false;
  int n = ra->tunables.n;
  const char **names = NEW_ARRAY(const char *, n + 1);
  long long *values = NEW_ARRAY(long long, n + 1);
  for (int i = 0; i < n; i++) { names[i] = ra->tunables.names[i]; values[i] = ra->tunables.values[i]; }
  names[n] = arena_strndup(text, (size_t)(eq - text)); values[n] = v;
  ra->tunables = (TuneValues){ n + 1, names, values };
  return true;
}

/* The program file compiled with the --tunable values. */
static Program *compile_file(const char *path, const TuneValues *set) {
  char *text = util_read_file(path, NULL);
  return text ? driver_compile_tuned(path, text, set) : NULL;
}

/* run and bench on opencl/cuda: the tuning cache's configuration for these
   sizes on this device (docs/tuning.md), unless the command line sets one
   (--tunable, --local-size, --global-size, a schedule flag such as --unroll)
   or says --no-tune-cache. Its launch sizes and flags go into ra->o. Returns
   the program, compiled again when the cached tunables say so (*recompiled);
   NULL + diag on error. */
static Program *apply_tuned(const char *path, Program *p, NatBinding *sizes, const Target *t, RunArgs *ra, bool *recompiled) {
  *recompiled = false;
  TuneConfig c;
  if (!t->api || ra->no_tune_cache || ra->launch_given || ra->tunables.n || *gen_flag_schedule_text(&ra->o.gen)) return p;
  char *text = util_read_file(path, NULL);
  if (!text || !tune_cache_lookup(text, p, sizes, t, &ra->o, &c)) return p;
  ra->o.launch = c.launch;
  if (c.flags) gen_flag_apply_schedule_text(c.flags, &ra->o.gen);   /* checked when the entry was read */
  if (!c.tunables.n) return p;
  *recompiled = true;
  return driver_compile_tuned(path, text, &c.tunables);
}

/* A run option at argv[i] (consuming its value): 1 taken, 0 not one, -1
   malformed (argv[i] still the option, for the message). */
static int run_option(int argc, char **argv, int *i, RunArgs *ra) {
  const char *a = argv[*i];
  bool local = strcmp(a, "--local-size") == 0, global = strcmp(a, "--global-size") == 0;
  bool device = strcmp(a, "--device") == 0;
  if (gen_flag_apply(a, &ra->o.gen)) return 1;
  if (strcmp(a, "--no-tune-cache") == 0) { ra->no_tune_cache = true; return 1; }
  if (strcmp(a, "--tunable") == 0) {
    if (*i + 1 >= argc || !add_tunable(ra, argv[*i + 1])) return -1;
    ++*i;
    return 1;
  }
  if (!local && !global && !device) return 0;
  if (*i + 1 >= argc) return -1;
  const char *v = argv[*i + 1];
  if (device) {
    char *end;
    long k = strtol(v, &end, 10);
    if (!*v || *end || k < 0 || k > 1000000) return -1;
    ra->o.device = (int)k;
  } else {
    if (!parse_size3(v, local ? ra->o.launch.local : ra->o.launch.global)) return -1;
    if (!ra->launch_given) ra->launch_given = a;
  }
  ++*i;
  return 1;
}

static int run_option_error(const char *usage, const char *option) {
  return usage_error(usage, strcmp(option, "--device") == 0 ? "'%s' expects a device number (0, 1, …)"
                            : strcmp(option, "--tunable") == 0 ? "'%s' expects NAME=VALUE with VALUE ≥ 1, e.g. TS=32"
                                                               : "'%s' expects sizes like 64 or 32,8", option);
}

/* -t NAME: the target, or a usage error (2) with the targets that exist. */
static const Target *target_or_usage(const char *usage, const char *name, int *rc) {
  const Target *t = driver_target(name);
  if (t) return t;
  const char *why = strcmp(name, "auto") == 0 ? "no target available for -t auto" : "unknown target '%s'";
  fprintf(stderr, "clift: ");
  fprintf(stderr, why, name);
  fprintf(stderr, " (targets: %s, auto)\n%s", driver_target_names(), usage);
  *rc = 2;
  return NULL;
}

/* Launch sizes mean something only where kernels are launched (SPEC §6); on
   the other targets they would be ignored silently, so they are refused. */
static int launch_target_error(const char *usage, const RunArgs *ra, const char *asked, const Target *t) {
  if (!ra->launch_given || t->device) return 0;
  const char *chosen = strcmp(asked, "auto") == 0 ? " (chosen by -t auto: no cuda or opencl here)" : "";
  fprintf(stderr, "clift: %s applies to the opencl and cuda targets only; target '%s'%s has no launch sizes\n%s",
          ra->launch_given, t->name, chosen, usage);
  return 2;
}

/* clift run prog.tail: no inputs (its literals are the hidden inputs); the
   output printed as docs/apl.md §4 says. */
static int run_tail(const char *path, int ninputs, const Target *t, const RunOptions *o, const char *out) {
  if (ninputs) {
    fprintf(stderr, "clift: %s program takes no inputs (%d given)\n%s", apl_is_file(path) ? "an APL" : "a TAIL", ninputs, usage_run);
    return 2;
  }
  bool final;
  TExp *e = read_tail(path, &final);
  TailProgram *tp = e ? tail_compile_outputs(e, path, final) : NULL;
  Value **in = tp ? tail_inputs(tp) : NULL;
  Value *r = in ? driver_run(tp->core, t, in, NULL, o) : NULL;
  if (!r) return fail();
  if (out) return value_write_npy(out, r, tp->core->result) ? 0 : fail();
  Buf b = {0};
  tail_print_outputs(&b, r, tp);
  printf("%s\n", buf_str(&b));
  return fflush(stdout) == 0 ? 0 : 1;
}

static int cmd_run(int argc, char **argv);

/* clift run --batch FILE: one `clift run` a line of FILE, its arguments
   separated by tabs, in this process: a device context, NVRTC and the OpenCL
   compiler are set up once (a process costs ~0.5 s of driver time on an H100,
   serialised between processes: bench/gpu/runrate_probe.sh). Item k's output
   and errors go to FILE.k.out and FILE.k.err; stdout gets "k STATUS" once item k
   is done. The random differential tester's device runs use it. */
static int run_batch(const char *file) {
  FILE *f = fopen(file, "rb");
  if (!f) return usage_error(usage_run, "cannot read the batch file '%s'", file);
  size_t cap = 1 << 16, len = 0, got;
  char *text = malloc(cap);   /* not the arena: it is released between items */
  while (text && (got = fread(text + len, 1, cap - len - 1, f)) > 0)
    if ((len += got) + 1 == cap) text = realloc(text, cap *= 2);
  fclose(f);
  if (!text) { fputs("error: out of memory reading the batch file\n", stderr); return 1; }
  text[len] = 0;
  size_t plen = strlen(file) + 32;
  char *out_path = malloc(plen), *err_path = malloc(plen);
  char **args = malloc(sizeof *args * (len / 2 + 2));
  int k = 0;
  for (char *line = text, *next; line && *line; line = next, k++) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    int n = 0;
    for (char *a = line, *tab; a; a = tab) {
      if ((tab = strchr(a, '\t'))) *tab++ = 0;
      if (*a) args[n++] = a;
    }
    args[n] = NULL;
    snprintf(out_path, plen, "%s.%d.out", file, k);
    snprintf(err_path, plen, "%s.%d.err", file, k);
    fflush(stdout); fflush(stderr);
    int saved_out = dup(1), saved_err = dup(2);
    FILE *o = fopen(out_path, "w"), *e = fopen(err_path, "w");
    int rc = 1;
    if (o && e && saved_out >= 0 && saved_err >= 0) {
      dup2(fileno(o), 1); dup2(fileno(e), 2);
      rc = n ? cmd_run(n, args) : usage_error(usage_run, "%s", "an empty batch item");
      fflush(stdout); fflush(stderr);
      dup2(saved_out, 1); dup2(saved_err, 2);
    }
    if (o) fclose(o);
    if (e) fclose(e);
    if (saved_out >= 0) close(saved_out);
    if (saved_err >= 0) close(saved_err);
    printf("%d %d\n", k, rc);
    fflush(stdout);
    driver_reset_process_state();
  }
  free(args); free(out_path); free(err_path); free(text);
  return 0;
}

static int cmd_run(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[0], "--batch") == 0) return run_batch(argv[1]);
  const char *asked = "openmp", *out = NULL;
  RunArgs ra = { .o = run_options_default() };
  int i = 0, rc = 0;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (is_help(argv[i])) { fputs(usage_run, stdout); return 0; }
    int taken = run_option(argc, argv, &i, &ra);
    if (taken < 0) return run_option_error(usage_run, argv[i]);
    if (taken > 0) continue;
    if ((strcmp(argv[i], "-t") == 0 || strcmp(argv[i], "-o") == 0) && i + 1 < argc) {
      if (argv[i][1] == 't') asked = argv[++i]; else out = argv[++i];
    } else return usage_error(usage_run, "unknown or incomplete option '%s'", argv[i]);
  }
  if (i >= argc) return usage_error(usage_run, "%s", "expected a program file");
  const Target *t = target_or_usage(usage_run, asked, &rc);
  if (!t) return rc;
  if (launch_target_error(usage_run, &ra, asked, t)) return 2;
  if (fcl_is_file(argv[i])) return fcl_cli_run(argv[i], t, &ra.o, argc - i - 1, (const char **)argv + i + 1, out);
  if (is_tail_or_apl(argv[i])) return run_tail(argv[i], argc - i - 1, t, &ra.o, out);
  Program *p = compile_file(argv[i], &ra.tunables);
  if (!p) return fail();
  NatBinding *sizes = NULL;
  const char **inputs = (const char **)argv + i + 1;
  Value **in = driver_read_inputs(p, argc - i - 1, inputs, NULL, &sizes);
  bool again;
  if (in && (p = apply_tuned(argv[i], p, sizes, t, &ra, &again)) && again)   /* other tunables: other types */
    in = driver_read_inputs(p, argc - i - 1, inputs, NULL, &sizes);
  Value *r = p && in ? driver_run(p, t, in, sizes, &ra.o) : NULL;
  return r ? write_result(r, p->result, out) : fail();
}

static int cmd_compile(int argc, char **argv) {
  const char *asked = "openmp", *dir = NULL;
  bool print = false, ptx = false;
  GenOptions gen = { .peel = PEEL_AUTO };
  RunArgs ra = { .o = run_options_default() };
  const char **sizes_given = NEW_ARRAY(const char *, argc + 1);
  int nsizes = 0, i = 0, rc = 0;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (is_help(argv[i])) { fputs(usage_compile, stdout); return 0; }
    if (strcmp(argv[i], "--print") == 0) { print = true; continue; }
    if (strcmp(argv[i], "--tunable") == 0 || strcmp(argv[i], "--no-tune-cache") == 0 || strcmp(argv[i], "--device") == 0) {
      if (run_option(argc, argv, &i, &ra) < 0) return run_option_error(usage_compile, argv[i]);
      continue;
    }
    if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) { sizes_given[nsizes++] = argv[++i]; continue; }
    if (gen_flag_apply(argv[i], &gen)) continue;
    if (strcmp(argv[i], "--ptx") == 0) { ptx = true; continue; }
    if ((strcmp(argv[i], "-t") == 0 || strcmp(argv[i], "-o") == 0) && i + 1 < argc) {
      if (argv[i][1] == 't') asked = argv[++i]; else dir = argv[++i];
    } else return usage_error(usage_compile, "unknown or incomplete option '%s'", argv[i]);
  }
  bool fcl = i < argc && fcl_is_file(argv[i]);   /* compiled for the shapes of the inputs that follow it */
  if (!fcl && argc - i != 1) return usage_error(usage_compile, "%s", "expected exactly one program file");
  const Target *t = target_or_usage(usage_compile, asked, &rc);
  if (!t) return rc;
  if (!t->write_library)
    return usage_error(usage_compile, "target '%s' cannot be compiled to files (c, openmp, opencl, cuda)", t->name);
  if (ptx && t != driver_target("cuda")) return usage_error(usage_compile, "%s", "--ptx needs -t cuda");
  if (!dir && !print && !ptx) return usage_error(usage_compile, "%s", "expected -o DIR (or --print)");
  if (fcl && !(print || ptx)) return fcl_cli_library(argv[i], t);   /* refused: sizes are the inputs' (docs/fcl.md §6.7) */
  if (fcl) {   /* the generated code for these inputs, to read (docs/fcl.md §6) */
    const char *src = fcl_cli_source(argv[i], t, argc - i - 1, (const char **)argv + i + 1);
    if (src && ptx) src = cuda_compile_ptx(src, "compute_90", LOC_NONE);
    if (!src) return fail();
    fputs(src, stdout);
    return 0;
  }
  if (is_tail_or_apl(argv[i]) && (print || ptx)) {   /* the generated code, to read (docs/apl.md §6), or its PTX */
    bool final;
    TExp *e = read_tail(argv[i], &final);
    TailProgram *tp = e ? tail_compile_outputs(e, argv[i], final) : NULL;
    Compiled *c = tp ? driver_generate(tp->core, t, &gen) : NULL;
    const char *src = c ? c->src : NULL;
    if (src && ptx) src = cuda_compile_ptx(src, "compute_90", tp->core->loc);
    if (!src) return fail();
    fputs(src, stdout);
    return 0;
  }
  if (is_tail_or_apl(argv[i]))   /* their literals are hidden inputs: a library would need them passed in */
    return usage_error(usage_compile, "%s", "APL and TAIL programs cannot be compiled to files yet (docs/apl.md §6); use clift run or clift compile --print");
  Program *p = compile_file(argv[i], &ra.tunables);
  LibraryTuning tuned = {0};
  const char *where = "";
  if (p && nsizes) {   /* the tuning cache's configuration for these sizes */
    NatBinding *sizes;
    bool again;
    if (!bench_bind_sizes(p, nsizes, sizes_given, &sizes)) return fail();
    ra.o.gen = gen;
    Program *q = apply_tuned(argv[i], p, sizes, t, &ra, &again);
    bool flags = strcmp(gen_flag_schedule_text(&gen), gen_flag_schedule_text(&ra.o.gen)) != 0;
    gen = ra.o.gen;
    if (q != p || flags || ra.o.launch.local[0] || ra.o.launch.global[0]) where = arena_printf(", from the tuning cache for %s", bench_sizes_text(p, sizes));
    tuned.launch = ra.o.launch;
    p = q;
  }
  if (p && (p->ntunables || *where)) {   /* the header records the configuration */
    TuneConfig cfg = { { p->ntunables, NEW_ARRAY(const char *, p->ntunables + 1), NEW_ARRAY(long long, p->ntunables + 1) }, tuned.launch, 0,
                       gen_flag_schedule_text(&gen) };
    for (int k = 0; k < p->ntunables; k++) { cfg.tunables.names[k] = p->tunables[k].name; cfg.tunables.values[k] = p->tunables[k].value; }
    tuned.note = arena_printf("%s%s", tune_config_text(&cfg), where);
  }
  if (tuned.launch.local[0] || tuned.launch.local[1] || tuned.launch.local[2])
    gen.no_privatise = gen.local_size_given = true;   /* a tuned work-group */
  Compiled *c = p ? driver_generate(p, t, &gen) : NULL;
  if (c) c->tuned = &tuned;
  const char *src = c ? c->src : NULL;
  if (src && ptx) src = cuda_compile_ptx(src, "compute_90", p->loc);   /* Hopper, as the GPU machines */
  if (!src) return fail();
  if (print || ptx) { fputs(src, stdout); return 0; }
  const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
  char *name = arena_strdup(base);
  if (strlen(name) > 5 && strcmp(name + strlen(name) - 5, ".lift") == 0) name[strlen(name) - 5] = 0;
  for (char *c = name; *c; c++) if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9'))) *c = '_';
  diag_context(p->loc);   /* a refusal of the library's types: the program's place */
  if (t->write_library(c, dir, name)) return 0;
  diag_name_target(t->name);   /* a refusal: "not supported on TARGET: why" */
  return fail();
}

/* clift bench prog.apl|prog.tail (issue 13 item 6): the front end and code
   generation timed once (cold: the C or device compiler excluded), then the
   computation as for .lift programs, on the program's own literals (hidden
   inputs, uploaded before the timed runs); the output printed once, so that a
   benchmark's checksum can be compared. */
static int bench_tail(const char *path, BenchOptions *o) {
  double t0 = timing_now_ms();
  bool final;
  TExp *e = read_tail(path, &final);
  TailProgram *tp = e ? tail_compile_outputs(e, path, final) : NULL;
  Value **in = tp ? tail_inputs(tp) : NULL;
  Compiled *c = in ? driver_generate(tp->core, o->target, &o->run.gen) : NULL;
  if (!c) return fail();
  double front = timing_now_ms() - t0;
  RunTiming t = { o->runs, NEW_ARRAY(double, o->runs), false };
  RunOptions timed = o->run;
  timed.timing = &t;
  Value *r = o->target->run(c, in, NULL, &timed);
  if (!r) { diag_name_target(o->target->name); return fail(); }
  bench_sort_times(&t);
  Buf b = {0};
  tail_print_outputs(&b, r, tp);
  printf("%s\nbench %s -t %s: front end and code generation %.1f ms; median %.4f ms (min %.4f, max %.4f) over %d runs\n",
         buf_str(&b), path, o->target->name, front, t.ms[t.runs / 2], t.ms[0], t.ms[t.runs - 1], t.runs);
  return 0;
}

static int cmd_bench(int argc, char **argv) {
  BenchOptions o = { NULL, 0, NEW_ARRAY(const char *, argc + 1), 10, false, 1e-4, (uint64_t)time(NULL), run_options_default() };
  RunArgs ra = { .o = run_options_default() };
  const char *asked = "openmp";
  int i = 0, rc = 0;
  bool seeded = false;   /* --seed: only programs with random inputs (size variables) take one */
  for (; i < argc && argv[i][0] == '-'; i++) {
    const char *a = argv[i];
    if (is_help(a)) { fputs(usage_bench, stdout); return 0; }
    if (strcmp(a, "--check") == 0) { o.check = true; continue; }
    int taken = run_option(argc, argv, &i, &ra);
    if (taken < 0) return run_option_error(usage_bench, a);
    if (taken > 0) continue;
    if (i + 1 >= argc) return usage_error(usage_bench, "incomplete option '%s'", a);
    const char *v = argv[++i];
    if (strcmp(a, "-t") == 0) asked = v;
    else if (strcmp(a, "--size") == 0) o.sizes[o.nsizes++] = v;
    else if (strcmp(a, "--runs") == 0) o.runs = atoi(v);
    else if (strcmp(a, "--tolerance") == 0) o.tolerance = atof(v);
    else if (strcmp(a, "--seed") == 0) { o.seed = strtoull(v, NULL, 0); seeded = true; }
    else return usage_error(usage_bench, "unknown option '%s'", a);
  }
  bool fcl = i < argc && fcl_is_file(argv[i]);   /* compiled for the shapes of the inputs that follow it */
  if (!fcl && argc - i != 1) return usage_error(usage_bench, "%s", "expected exactly one program file");
  if (o.runs < 1 || o.runs > 100000) return usage_error(usage_bench, "%s", "--runs must be between 1 and 100000");
  if (!(o.target = target_or_usage(usage_bench, asked, &rc))) return rc;
  if (launch_target_error(usage_bench, &ra, asked, o.target)) return 2;
  if (fcl) {
    if (o.nsizes || ra.tunables.n) return usage_error(usage_bench, "%s", "FCL programs have no size variables or tunables (their sizes are their inputs')");
    if (seeded) return usage_error(usage_bench, "%s", "--seed: an FCL program's inputs are given, not random");
    o.run = ra.o;
    return fcl_cli_bench(argv[i], &o, argc - i - 1, (const char **)argv + i + 1);
  }
  if (is_tail_or_apl(argv[i])) {
    if (o.nsizes || ra.tunables.n) return usage_error(usage_bench, "%s", "APL and TAIL programs have no sizes or tunables (their sizes are in the program)");
    if (seeded) return usage_error(usage_bench, "%s", "--seed: APL and TAIL programs have no random inputs (their values are in the program)");
    if (o.check) return usage_error(usage_bench, "%s", "--check: not for APL and TAIL programs (clift test checks them on every target against the interpreter)");
    o.run = ra.o;
    return bench_tail(argv[i], &o);
  }
  Program *p = compile_file(argv[i], &ra.tunables);
  NatBinding *sizes;
  bool again;
  if (p && bench_bind_sizes(p, o.nsizes, o.sizes, &sizes)) p = apply_tuned(argv[i], p, sizes, o.target, &ra, &again);
  o.run = ra.o;
  return p && !diag_has_error() && bench_program(p, &o) ? 0 : fail();
}

/* "pipeline, double-buffer, unroll": the schedule flags, for messages. */
static const char *schedule_names(void) {
  Buf b = {0};
  for (int k = 0; gen_flag_schedule_at(k); k++) buf_printf(&b, "%s%s", k ? ", " : "", gen_flag_schedule_at(k) + 2);
  return buf_str(&b);
}

/* --tune-flags LIST into o->search: the schedule flags clift tune tries on and
   off (default, list NULL: every one of gen_flags.c's; "none": none); a flag
   the command line sets is on in every candidate, not searched. False when
   the list names something else. */
static bool tune_flags_search(const char *list, const GenOptions *fixed, TuneOptions *o) {
  o->search = NEW_ARRAY(const char *, 16);
  o->nsearch = 0;
  if (list && strcmp(list, "none") == 0) return true;
  const char *all[16];
  int n = 0;
  if (!list) for (int k = 0; gen_flag_schedule_at(k) && n < 16; k++) all[n++] = gen_flag_schedule_at(k);
  else {
    char *copy = arena_strdup(list), *save = NULL;
    for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save))
      if (n == 16 || !(all[n++] = gen_flag_schedule_named(w))) return false;
    if (!n) return false;
  }
  for (int k = 0; k < n; k++) {
    bool seen = gen_flag_is_set(all[k], fixed);
    for (int j = 0; j < o->nsearch; j++) seen |= strcmp(o->search[j], all[k]) == 0;
    if (!seen) o->search[o->nsearch++] = all[k];
  }
  return true;
}

static int cmd_tune(int argc, char **argv) {
  TuneOptions o = { .sizes = NEW_ARRAY(const char *, argc + 1), .check = NEW_ARRAY(const char *, argc + 1), .runs = 5,
                    .max_tries = 200, .tolerance = 1e-4, .seed = 1, .store = true };
  RunArgs ra = { .o = run_options_default() };
  const char *asked = NULL, *flags = NULL;
  int i = 0, rc = 0;
  for (; i < argc && argv[i][0] == '-'; i++) {
    const char *a = argv[i];
    if (is_help(a)) { fputs(usage_tune, stdout); return 0; }
    if (strcmp(a, "--no-store") == 0) { o.store = false; continue; }
    int taken = strcmp(a, "--local-size") && strcmp(a, "--global-size") && strcmp(a, "--tunable") && strcmp(a, "--no-tune-cache")
                ? run_option(argc, argv, &i, &ra) : 0;   /* what tune searches is not an option here */
    if (taken < 0) return run_option_error(usage_tune, a);
    if (taken > 0) continue;
    if (i + 1 >= argc) return usage_error(usage_tune, "unknown or incomplete option '%s'", a);
    const char *v = argv[++i];
    char *end = NULL;
    if (strcmp(a, "-t") == 0) asked = v;
    else if (strcmp(a, "--size") == 0) o.sizes[o.nsizes++] = v;
    else if (strcmp(a, "--check-size") == 0) o.check[o.ncheck++] = v;
    else if (strcmp(a, "--runs") == 0) { o.runs = (int)strtol(v, &end, 10); if (*end || o.runs < 1 || o.runs > 1000) return usage_error(usage_tune, "%s", "--runs must be between 1 and 1000"); }
    else if (strcmp(a, "--max-tries") == 0) { o.max_tries = (int)strtol(v, &end, 10); if (*end || o.max_tries < 0) return usage_error(usage_tune, "%s", "--max-tries expects a count ≥ 0"); }
    else if (strcmp(a, "--time-limit") == 0) { o.time_limit = strtod(v, &end); if (*end || o.time_limit <= 0) return usage_error(usage_tune, "%s", "--time-limit expects seconds > 0"); }
    else if (strcmp(a, "--tolerance") == 0) { o.tolerance = strtod(v, &end); if (*end || o.tolerance < 0) return usage_error(usage_tune, "%s", "--tolerance expects a number ≥ 0"); }
    else if (strcmp(a, "--seed") == 0) o.seed = strtoull(v, NULL, 0);
    else if (strcmp(a, "--tune-flags") == 0) flags = v;
    else return usage_error(usage_tune, "unknown option '%s'", a);
  }
  if (argc - i != 1) return usage_error(usage_tune, "%s", "expected exactly one program file");
  if (!tune_flags_search(flags, &ra.o.gen, &o)) return usage_error(usage_tune, "--tune-flags expects 'none' or a comma-separated list of %s", schedule_names());
  if (!asked) return usage_error(usage_tune, "%s", "expected -t opencl or -t cuda");
  if (!(o.target = target_or_usage(usage_tune, asked, &rc))) return rc;
  if (!o.target->api) return usage_error(usage_tune, "target '%s' has no launch sizes to tune: use -t opencl or -t cuda", o.target->name);
  if (is_tail_or_apl(argv[i]) || fcl_is_file(argv[i]))
    return usage_error(usage_tune, "%s", "APL, TAIL and FCL programs cannot be tuned (only .lift programs have tunable sizes)");
  o.run = ra.o;
  return tune_program(argv[i], &o) == 0 ? 0 : fail();
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Expand directories into their *.lift, *.tail and *.apl files, sorted. */
static int collect(const char *path, const char ***files, int n, int *cap) {
  DIR *d = opendir(path);
  if (!d) {
    if (n == *cap) { *cap *= 2; const char **f = NEW_ARRAY(const char *, *cap); memcpy(f, *files, sizeof(char *) * (size_t)n); *files = f; }
    (*files)[n++] = path;
    return n;
  }
  int first = n;
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t len = strlen(de->d_name);
    if (len < 5 || ((len < 6 || strcmp(de->d_name + len - 5, ".lift") != 0) && !is_tail_or_apl(de->d_name) && !fcl_is_file(de->d_name))) continue;
    if (n == *cap) { *cap *= 2; const char **f = NEW_ARRAY(const char *, *cap); memcpy(f, *files, sizeof(char *) * (size_t)n); *files = f; }
    (*files)[n++] = arena_printf("%s/%s", path, de->d_name);
  }
  closedir(d);
  qsort(*files + first, (size_t)(n - first), sizeof(char *), by_name);
  return n;
}

static int cmd_test(int argc, char **argv) {
  const Target **targets = NEW_ARRAY(const Target *, argc + 8);
  int ntargets = 0, i = 0;
  for (int k = 0; driver_target_at(k); k++)   /* default: every target available here */
    if (driver_target_at(k)->available()) targets[ntargets++] = driver_target_at(k);
  TestOptions o = { .gen = { .peel = PEEL_AUTO } };
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (is_help(argv[i])) { fputs(usage_test, stdout); return 0; }
    if (strcmp(argv[i], "-v") == 0) { o.verbose = true; continue; }
    if (strcmp(argv[i], "--strict") == 0) { o.strict = true; continue; }
    if (gen_flag_apply(argv[i], &o.gen)) continue;
    if (strcmp(argv[i], "--list-targets") == 0) {   /* the default targets, for scripts */
      for (int k = 0; k < ntargets; k++) printf("%s\n", targets[k]->name);
      return 0;
    }
    if (strcmp(argv[i], "-t") != 0 || i + 1 >= argc) return usage_error(usage_test, "unknown or incomplete option '%s'", argv[i]);
    ntargets = 0;
    char *list = arena_strdup(argv[++i]);
    targets = NEW_ARRAY(const Target *, strlen(list) + 1);
    int rc = 0;
    for (char *t = strtok(list, ","); t; t = strtok(NULL, ","))
      if (!(targets[ntargets++] = target_or_usage(usage_test, t, &rc))) return rc;
  }
  int cap = 64, n = 0;
  const char **files = NEW_ARRAY(const char *, cap);
  if (i == argc) { n = collect("tests/lift", &files, n, &cap); n = collect("examples", &files, n, &cap); }
  for (; i < argc; i++) n = collect(argv[i], &files, n, &cap);
  return testrun_main(n, files, targets, ntargets, &o);
}

/* clift switches (util/switches.c's table) */
static int cmd_switches(int argc, char **argv) {
  if (argc == 1 && is_help(argv[0])) { fputs(usage_switches, stdout); return 0; }
  if (argc > 0) return usage_error(usage_switches, "unexpected argument '%s'", argv[0]);
  switches_print(stdout);
  return 0;
}

/* The commands, by name (usage_main describes them) */
static const struct { const char *name; int (*run)(int argc, char **argv); } commands[] = {
  { "check", cmd_check }, { "run", cmd_run }, { "test", cmd_test }, { "compile", cmd_compile },
  { "bench", cmd_bench }, { "tune", cmd_tune }, { "apl", cmd_apl }, { "switches", cmd_switches },
};

int main(int argc, char **argv) {
  if (argc < 2 || is_help(argv[1])) { print_usage_main(argc < 2 ? stderr : stdout); return argc < 2 ? 2 : 0; }
  const char *cmd = argv[1];
  size_t i = 0, n = sizeof commands / sizeof commands[0];
  while (i < n && strcmp(cmd, commands[i].name) != 0) i++;
  int rc = 2;
  if (i < n) rc = commands[i].run(argc - 2, argv + 2);
  else {
    fprintf(stderr, "clift: unknown command '%s'\n", cmd);
    print_usage_main(stderr);
  }
  arena_free_all();
  return rc;
}
