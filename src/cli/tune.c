/* tune.c — `clift tune` (tune.h, docs/tuning.md). The candidates are the
   codes (every combination of the tunable sizes' candidates, each with every
   subset of the searched schedule flags, gen_flags.h; a subset that generates
   the same code as an earlier one of its tunables is dropped) times the
   launch sizes (the default policy, then work-group shapes and, in one
   dimension, grid sizes in multiples of the device's compute units; only the
   default for a code whose work-group size is pinned). The default
   configuration is tried first; beyond --max-tries the rest is a seeded
   sample. Every candidate is
     1. compiled (once per code; a refusal skips the code),
     2. run at the check sizes and compared with the interpreter (a size that
        does not fit, e.g. a split that does not divide, skips it; a different
        result is a compiler bug, reported, never chosen),
     3. timed at the tuning sizes (median of --runs after a warm-up).
   Progress goes to stderr as it happens; the best configuration goes to the
   tuning cache and the ranking to stdout. */
#include "tune.h"
#include "tune_cache.h"
#include "gen_flags.h"
#include "bench.h"
#include "../runtime/device.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One code: an assignment of the tunable sizes and a set of schedule flags,
   generated once, launched with every launch candidate. The inputs and the
   interpreter's answer belong to the tunables (flags change only the
   schedule): kept at the first code of the same tunables, `base`. */
typedef struct Assignment {
  long long *values;            /* one per tunable, in declaration order */
  GenOptions gen;               /* the command line's options and this code's flags */
  int base;                     /* the code of these tunables without searched flags */
  Program *p;                   /* NULL: the tunables do not compile */
  Compiled *c;                  /* NULL: skipped, why says why */
  const char *why;
  bool pinned;                  /* a kernel's work-group size is fixed (privatise.c): default launch only */
  bool prepared;
  NatBinding *tsizes, *csizes;  /* the tuning and the check sizes, bound */
  Value **tin, **cin;           /* random inputs at both */
  Value *want;                  /* the interpreter's result at the check sizes */
} Assignment;

typedef struct Cand { int a; LaunchSizes launch; double ms; } Cand;

typedef struct Search {
  const TuneOptions *o;
  const char *path, *text;
  Program *p0;                  /* every tunable at its first candidate */
  GenOptions gen;               /* the command line's, for this device */
  int nassign; Assignment *assign;
  int ncombos;                  /* tunable assignments */
  int ncand; Cand *cand;
  int tried, timed, skipped, disagreed;
  int best;                     /* index into cand, -1 none */
  double t0;
  bool tty;
} Search;

static double seconds(const Search *s) { return (timing_now_ms() - s->t0) / 1e3; }

static TuneValues values_of(const Search *s, const Assignment *a) {
  TuneValues v = { s->p0->ntunables, NEW_ARRAY(const char *, s->p0->ntunables + 1), a->values };
  for (int i = 0; i < v.n; i++) v.names[i] = s->p0->tunables[i].name;
  return v;
}

static TuneConfig config_of(const Search *s, const Cand *c) {
  const Assignment *a = &s->assign[c->a];
  return (TuneConfig){ values_of(s, a), c->launch, c->ms, gen_flag_schedule_text(&a->gen) };
}

static const char *cand_text(const Search *s, const Cand *c) {
  TuneConfig k = config_of(s, c);
  return tune_config_text(&k);
}

static const char *take_error(void) {
  const char *m = arena_strdup(diag_message());
  diag_clear();
  return m;
}

/* ---- the search space ---- */

static bool has_pinned(KStmt *s) {
  if (!s) return false;
  if (s->kind == KS_FOR && s->level == LEVEL_LCL && s->pinned) return true;
  for (int i = 0; s->kind == KS_BLOCK && i < s->n; i++) if (has_pinned(s->stmts[i])) return true;
  return has_pinned(s->body) || has_pinned(s->then_) || has_pinned(s->else_);
}

static bool plan_pinned(const Plan *pl) {
  for (int k = 0; pl && k < pl->n; k++) if (has_pinned(pl->kernels[k].body)) return true;
  return false;
}

/* Compile and generate code a (its tunables compiled once, at its base). */
static void generate(Search *s, Assignment *a) {
  Assignment *b = &s->assign[a->base];
  if (a == b) {
    TuneValues v = values_of(s, a);
    if (!(a->p = driver_compile_tuned(s->path, s->text, &v))) { a->why = arena_printf("does not compile: %s", take_error()); return; }
  } else if (!(a->p = b->p)) { a->why = b->why; return; }
  if (!(a->c = driver_generate(a->p, s->o->target, &a->gen))) {   /* a->p kept: another code of it may generate */
    a->why = arena_printf("does not compile: %s", take_error());
    return;
  }
  a->pinned = plan_pinned(a->c->plan);
}

/* Every combination of the tunables' candidates, the first candidates first,
   each with every subset of the searched flags (none first), generated; a
   subset whose code is the same as an earlier one of its tunables (e.g.
   --pipeline with --double-buffer, which implies it), or that fails as an
   earlier one did, is dropped. */
static void enumerate_assignments(Search *s) {
  Program *p = s->p0;
  long long combos = 1;
  for (int i = 0; i < p->ntunables; i++) combos *= p->tunables[i].ncand;
  int subsets = 1 << s->o->nsearch;
  s->ncombos = (int)combos;
  s->assign = NEW_ARRAY(Assignment, combos * subsets);
  s->nassign = 0;
  for (long long k = 0; k < combos; k++) {
    long long rest = k;
    long long *values = NEW_ARRAY(long long, p->ntunables + 1);
    for (int i = p->ntunables - 1; i >= 0; i--) {
      values[i] = p->tunables[i].cand[rest % p->tunables[i].ncand];
      rest /= p->tunables[i].ncand;
    }
    int base = s->nassign;
    for (int m = 0; m < subsets; m++) {
      Assignment *a = &s->assign[s->nassign];
      *a = (Assignment){ .values = values, .gen = s->gen, .base = base };
      for (int f = 0; f < s->o->nsearch; f++) if (m >> f & 1) gen_flag_apply(s->o->search[f], &a->gen);
      generate(s, a);
      bool same = false;
      for (int j = base; j < s->nassign && !same; j++)
        same = a->c ? s->assign[j].c && strcmp(s->assign[j].c->src, a->c->src) == 0 : !s->assign[j].c;
      if (!same) s->nassign++;
    }
  }
}

/* The launch dimensions a plan uses: 1 + the largest dimension of a parallel loop. */
static int plan_dims(const Plan *pl) {
  int dims = 1;
  for (int k = 0; pl && k < pl->n; k++)
    for (int i = 0; i < pl->kernels[k].nloops; i++)
      if (pl->kernels[k].loops[i]->dim + 1 > dims) dims = pl->kernels[k].loops[i]->dim + 1;
  return dims;
}

/* The default first; in one dimension, work-groups of 32…1024 with the default
   grid or 2, 8 or 32 groups per compute unit; in two or three, shapes x × y of
   64 to 1024 work-items. */
static int launch_candidates(int dims, int compute_units, LaunchSizes *out) {
  int n = 0;
  out[n++] = (LaunchSizes){0};
  if (dims == 1) {
    static const int per_cu[] = { 0, 2, 8, 32 };
    for (size_t l = 32; l <= 1024; l *= 2)
      for (int g = 0; g < 4; g++)
        out[n++] = (LaunchSizes){ { l, 0, 0 }, { per_cu[g] ? l * (size_t)compute_units * (size_t)per_cu[g] : 0, 0, 0 } };
    return n;
  }
  for (size_t x = 8; x <= 64; x *= 2)
    for (size_t y = 1; y <= 32; y *= 2)
      if (x * y >= 64 && x * y <= 1024) out[n++] = (LaunchSizes){ { x, y, 1 }, { 0, 0, 0 } };
  return n;
}

/* Every code × its launches; beyond max_tries the default and a seeded
   sample, kept in code order (each code is compiled once). */
static void enumerate_candidates(Search *s, int compute_units) {
  LaunchSizes launches[64];
  long long all = 0;
  int *nl = NEW_ARRAY(int, s->nassign + 1);
  for (int a = 0; a < s->nassign; a++)
    all += nl[a] = s->assign[a].pinned ? 1 : launch_candidates(plan_dims(s->assign[a].c ? s->assign[a].c->plan : NULL), compute_units, launches);
  s->cand = NEW_ARRAY(Cand, all);
  long long k = 0;
  for (int a = 0; a < s->nassign; a++) {
    launch_candidates(plan_dims(s->assign[a].c ? s->assign[a].c->plan : NULL), compute_units, launches);
    for (int l = 0; l < nl[a]; l++) s->cand[k++] = (Cand){ a, launches[l], 0 };
  }
  s->ncand = (int)all;
  if (s->o->max_tries <= 0 || all <= s->o->max_tries) return;
  uint64_t r = s->o->seed | 1;
  for (int k = 1; k < s->o->max_tries; k++) {   /* a partial Fisher–Yates shuffle; the default stays first */
    r ^= r << 13; r ^= r >> 7; r ^= r << 17;
    long long j = k + (long long)(r % (uint64_t)(all - k));
    Cand t = s->cand[k]; s->cand[k] = s->cand[j]; s->cand[j] = t;
  }
  s->ncand = s->o->max_tries;
  for (int k = 2; k < s->ncand; k++)   /* insertion sort of the sample by code */
    for (int j = k; j > 1 && s->cand[j - 1].a > s->cand[j].a; j--) { Cand t = s->cand[j]; s->cand[j] = s->cand[j - 1]; s->cand[j - 1] = t; }
}

/* --check-size, else every --size halved while above 256 and even (4096 → 256). */
static const char **check_sizes(const TuneOptions *o, int *n) {
  if (o->ncheck) { *n = o->ncheck; return o->check; }
  const char **out = NEW_ARRAY(const char *, o->nsizes + 1);
  for (int i = 0; i < o->nsizes; i++) {
    const char *eq = strchr(o->sizes[i], '=');
    long long v = eq ? strtoll(eq + 1, NULL, 10) : 0;
    while (v > 256 && v % 2 == 0) v /= 2;
    out[i] = eq && v > 0 ? arena_printf("%.*s=%lld", (int)(eq - o->sizes[i]), o->sizes[i], v) : o->sizes[i];
  }
  *n = o->nsizes;
  return out;
}

/* ---- one code's inputs and the interpreter's answer (its base's) ---- */

static void prepare(Search *s, Assignment *a) {
  if (a->prepared || !a->p) return;
  a->prepared = true;
  Assignment *b = &s->assign[a->base];
  if (b != a) {
    prepare(s, b);
    a->tsizes = b->tsizes; a->csizes = b->csizes; a->tin = b->tin; a->cin = b->cin; a->want = b->want;
    if (!a->want) { a->c = NULL; a->why = b->why; }
    return;
  }
  int nc;
  const char **cs = check_sizes(s->o, &nc);
  uint64_t seed = s->o->seed;
  RunOptions plain = run_options_default();
  if (!bench_bind_sizes(a->p, s->o->nsizes, s->o->sizes, &a->tsizes) || !bench_bind_sizes(a->p, nc, cs, &a->csizes)
      || !(a->cin = bench_random_inputs(a->p, &a->csizes, &seed, true)) || !(a->tin = bench_random_inputs(a->p, &a->tsizes, &seed, false))
      || !(a->want = driver_run(a->p, driver_target("interp"), a->cin, a->csizes, &plain))) {
    a->c = NULL;
    a->why = arena_printf("not applicable: %s", take_error());
  }
}

/* ---- one candidate ---- */

static void progress(Search *s, const Cand *c, const char *what) {
  double t = seconds(s), left = s->tried ? t / s->tried * (s->ncand - s->tried) : 0;
  if (s->o->time_limit > 0 && left > s->o->time_limit - t) left = s->o->time_limit - t;
  Buf b = {0};
  buf_printf(&b, "tune: %d/%d tried", s->tried, s->ncand);
  if (s->best >= 0) buf_printf(&b, ", best %.4f ms (%s)", s->cand[s->best].ms, cand_text(s, &s->cand[s->best]));
  buf_printf(&b, ", ~%.0f s left", left > 0 ? left : 0);
  if (s->tty) fprintf(stderr, "\r\033[K%s", buf_str(&b));
  else fprintf(stderr, "%s\n  [%s] %s\n", buf_str(&b), cand_text(s, c), what);
  fflush(stderr);
}

/* Check, then time; c->ms < 0 when it was not timed. */
static void try_candidate(Search *s, Cand *c) {
  Assignment *a = &s->assign[c->a];
  if (a->c) prepare(s, a);
  s->tried++;
  c->ms = -1;
  const char *what;
  RunOptions ro = s->o->run;
  ro.launch = c->launch;
  Value *got = a->c ? s->o->target->run(a->c, a->cin, a->csizes, &ro) : NULL;
  Buf why = {0};
  RunTiming t = { s->o->runs, NEW_ARRAY(double, s->o->runs), true };
  if (!a->c) {
    what = a->why;
    s->skipped++;
  } else if (!got) {
    what = arena_printf("skipped: %s", take_error());   /* e.g. a work-group larger than the device allows */
    s->skipped++;
  } else if (!value_close(got, a->want, s->o->tolerance, &why)) {
    what = arena_printf("DISAGREES with the interpreter at the check sizes: %s", buf_str(&why));
    s->disagreed++;
    if (s->tty) fputc('\n', stderr);   /* a compiler bug: always said, on its own line */
    fprintf(stderr, "clift tune: [%s] %s\n", cand_text(s, c), what);
  } else if (ro.timing = &t, !s->o->target->run(a->c, a->tin, a->tsizes, &ro)) {
    what = arena_printf("skipped at the tuning sizes: %s", take_error());
    s->skipped++;
  } else {
    bench_sort_times(&t);
    c->ms = t.ms[t.runs / 2];
    s->timed++;
    if (s->best < 0 || c->ms < s->cand[s->best].ms) s->best = (int)(c - s->cand);
    what = arena_printf("%.4f ms", c->ms);
  }
  progress(s, c, what);
}

/* ---- the report ---- */

static int by_cand_ms(const void *x, const void *y) {
  const Cand *a = x, *b = y;
  if ((a->ms < 0) != (b->ms < 0)) return a->ms < 0 ? 1 : -1;
  return (a->ms > b->ms) - (a->ms < b->ms);
}

static int report(Search *s, const char *sizes_text, bool stopped) {
  if (s->tty) fputc('\n', stderr);
  double default_ms = s->cand[0].ms;   /* the default configuration is tried first */
  Cand best = { .a = -1, .ms = -1 };
  if (s->best >= 0) best = s->cand[s->best];
  printf("tuned %s -t %s %s: %d of %d candidates tried in %.1f s%s; %d timed, %d skipped, %d disagreed\n",
         s->path, s->o->target->name, sizes_text, s->tried, s->ncand, seconds(s), stopped ? " (time limit)" : "",
         s->timed, s->skipped, s->disagreed);
  int shown = s->tried;
  qsort(s->cand, (size_t)shown, sizeof(Cand), by_cand_ms);
  for (int k = 0; k < shown && k < 5 && s->cand[k].ms >= 0; k++)
    printf("  %2d. %.4f ms  %s\n", k + 1, s->cand[k].ms, cand_text(s, &s->cand[k]));
  if (best.a < 0) {
    diag_error(LOC_NONE, "clift tune: no candidate could be checked and timed (see the reasons above; --check-size sets where candidates are checked)");
    return 1;
  }
  TuneConfig bc = config_of(s, &best);
  printf("best: %.4f ms (%s)", best.ms, tune_config_text(&bc));
  if (default_ms > 0) printf(", %.2fx the default configuration's %.4f ms", default_ms / best.ms, default_ms);
  printf("\n");
  if (s->o->store) {
    const char *key = tune_cache_key(s->text, sizes_text, s->o->target, &s->o->run), *path;
    if (!key || !tune_cache_store(key, &bc, s->path, &path)) return 1;
    printf("stored in %s\n", path);
  }
  if (s->disagreed) {
    diag_error(LOC_NONE, "clift tune: %d candidate%s disagreed with the interpreter: a compiler bug, please report it "
               "with the configurations printed above", s->disagreed, s->disagreed == 1 ? "" : "s");
    return 1;
  }
  return 0;
}

int tune_program(const char *path, const TuneOptions *o) {
  Search s = { .o = o, .path = path, .best = -1, .t0 = timing_now_ms(), .tty = isatty(2), .gen = o->run.gen };
  if (!(s.text = util_read_file(path, NULL)) || !(s.p0 = driver_compile_tuned(path, s.text, NULL))) return 1;
  NatBinding *sizes;
  DeviceInfo dev;
  if (!bench_bind_sizes(s.p0, o->nsizes, o->sizes, &sizes) || !device_describe(o->target->api, &o->run, &dev)) return 1;
  s.gen.cpu_device = !dev.gpu && strcmp(o->target->name, "opencl") == 0;   /* the code run generates here (driver_run) */
  const char *sizes_text = bench_sizes_text(s.p0, sizes);
  enumerate_assignments(&s);
  enumerate_candidates(&s, dev.compute_units);
  int pinned = 0;
  for (int a = 0; a < s.nassign; a++) pinned += s.assign[a].pinned;
  Buf what = {0};
  buf_printf(&what, "%d tunable assignment%s", s.ncombos, s.ncombos == 1 ? "" : "s");
  if (o->nsearch) {
    buf_puts(&what, "; flags searched:");
    for (int f = 0; f < o->nsearch; f++) buf_printf(&what, " %s", o->search[f]);
    buf_printf(&what, ", %d distinct code%s", s.nassign, s.nassign == 1 ? "" : "s");
  }
  if (pinned) buf_printf(&what, "; %d with a pinned work-group size, default launch only", pinned);
  fprintf(stderr, "tune: %s on %s (%s), %d candidates (%s), timed at %s\n", path, dev.name, o->target->name, s.ncand,
          buf_str(&what), sizes_text);
  bool stopped = false;
  for (int k = 0; k < s.ncand && !stopped; k++) {
    try_candidate(&s, &s.cand[k]);
    stopped = o->time_limit > 0 && seconds(&s) > o->time_limit && k + 1 < s.ncand;
  }
  return report(&s, sizes_text, stopped);
}
