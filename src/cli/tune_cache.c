/* tune_cache.c — the tuning cache (tune_cache.h, docs/tuning.md). An entry is
   a text file named after a 64-bit FNV-1a hash of its key, holding the key
   itself (a hash collision is a miss, never a wrong configuration):

     # clift tuning cache entry, written by clift tune
     key: clift 0.1 build 8391024/1764177000 | opencl | pthread-… | 6.0 | program 9f3c… | N=4096
     program: bench/gpu/sgemm.lift
     tunable: TS 32
     flags: --double-buffer --unroll
     local: 128 1 1
     global: 0 0 0
     ms: 0.412

   The flags line (the schedule flags of gen_flags.c, by name) is there when
   the configuration sets some. The build identity (the size and modification time of the clift binary)
   changes with every rebuild, so a new compiler never reuses an old one's
   choice. */
#include "tune_cache.h"
#include "bench.h"
#include "gen_flags.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CLIFT_VERSION "0.1"

static uint64_t fnv1a(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) { h ^= (unsigned char)*s; h *= 1099511628211ULL; }
  return h;
}


static const char *build_identity(void) {
  struct stat st;
  if (stat("/proc/self/exe", &st) != 0) return "build unknown";
  return arena_printf("build %lld/%lld", (long long)st.st_size, (long long)st.st_mtime);
}

const char *tune_cache_key(const char *program_text, const char *sizes_text, const Target *t, const RunOptions *o) {
  DeviceInfo dev;
  if (!t->api || !device_describe(t->api, o, &dev)) return NULL;
  return arena_printf("clift %s %s | %s | %s | %s | program %016llx | %s", CLIFT_VERSION, build_identity(), t->name,
                      dev.name, dev.driver, (unsigned long long)fnv1a(program_text), sizes_text);
}

const char *tune_cache_dir(void) {
  const char *d = getenv("CLIFT_TUNE_CACHE");
  if (d && *d) return d;
  d = getenv("XDG_CACHE_HOME");
  if (d && *d) return util_path_in(d, "clift/tune");
  d = getenv("HOME");
  return util_path_in(d && *d ? d : "/tmp", ".cache/clift/tune");
}

static const char *entry_path(const char *key) {
  return util_path_in(tune_cache_dir(), arena_printf("%016llx.tune", (unsigned long long)fnv1a(key)));
}

const char *tune_config_text(const TuneConfig *c) {
  Buf b = {0};
  for (int i = 0; i < c->tunables.n; i++) buf_printf(&b, "%s%s=%lld", i ? " " : "", c->tunables.names[i], c->tunables.values[i]);
  if (c->flags && *c->flags) buf_printf(&b, "%s%s", b.len ? ", " : "", c->flags);
  const char *what[2] = { "local", "global" };
  const size_t *sz[2] = { c->launch.local, c->launch.global };
  for (int k = 0; k < 2; k++) {
    buf_printf(&b, "%s%s ", b.len ? ", " : "", what[k]);
    if (!sz[k][0]) { buf_puts(&b, "default"); continue; }
    for (int d = 0; d < 3 && sz[k][d]; d++) buf_printf(&b, "%s%zu", d ? "," : "", sz[k][d]);
  }
  return buf_str(&b);
}

/* One "name: value" line of an entry into *c; false when malformed. */
static bool read_line(char *line, TuneConfig *c, const char *key, bool *key_seen) {
  char *colon = strchr(line, ':');
  if (!colon || colon[1] != ' ') return false;
  *colon = 0;
  const char *name = line, *value = colon + 2;
  if (strcmp(name, "key") == 0) { *key_seen = strcmp(value, key) == 0; return true; }
  if (strcmp(name, "program") == 0) return true;
  if (strcmp(name, "flags") == 0) {   /* schedule flags of gen_flags.c only */
    GenOptions g = {0};
    c->flags = arena_strdup(value);
    return gen_flag_apply_schedule_text(value, &g);
  }
  if (strcmp(name, "ms") == 0) return sscanf(value, "%lf", &c->ms) == 1;
  if (strcmp(name, "local") == 0 || strcmp(name, "global") == 0) {
    size_t *s = name[0] == 'l' ? c->launch.local : c->launch.global;
    return sscanf(value, "%zu %zu %zu", &s[0], &s[1], &s[2]) == 3;
  }
  if (strcmp(name, "tunable") == 0) {
    char tname[256];
    long long v;
    if (sscanf(value, "%255s %lld", tname, &v) != 2 || v < 1) return false;
    int n = c->tunables.n;
    const char **names = NEW_ARRAY(const char *, n + 1);
    long long *values = NEW_ARRAY(long long, n + 1);
    for (int i = 0; i < n; i++) { names[i] = c->tunables.names[i]; values[i] = c->tunables.values[i]; }
    names[n] = arena_strdup(tname); values[n] = v;
    c->tunables = (TuneValues){ n + 1, names, values };
    return true;
  }
  return false;
}

bool tune_cache_load(const char *key, TuneConfig *c, const char **path) {
  *path = entry_path(key);
  FILE *f = fopen(*path, "r");
  if (!f) return false;
  *c = (TuneConfig){0};
  char line[4096];
  bool ok = true, key_seen = false;
  while (ok && fgets(line, sizeof line, f)) {
    size_t len = strlen(line);
    if (len && line[len - 1] == '\n') line[--len] = 0;
    if (line[0] == '#' || !line[0]) continue;
    ok = read_line(line, c, key, &key_seen);
  }
  fclose(f);
  if (!ok) fprintf(stderr, "clift: ignoring the malformed tuning cache entry %s\n", *path);
  return ok && key_seen;
}

bool tune_cache_store(const char *key, const TuneConfig *c, const char *program_path, const char **path) {
  const char *dir = tune_cache_dir();
  int err = util_make_dirs_errno(dir);
  if (err) return diag_error(LOC_NONE, "cannot create the tuning cache folder %s: %s", dir, strerror(err));
  Buf b = {0};
  buf_printf(&b, "# clift tuning cache entry, written by clift tune\nkey: %s\nprogram: %s\n", key, program_path);
  for (int i = 0; i < c->tunables.n; i++) buf_printf(&b, "tunable: %s %lld\n", c->tunables.names[i], c->tunables.values[i]);
  if (c->flags && *c->flags) buf_printf(&b, "flags: %s\n", c->flags);
  buf_printf(&b, "local: %zu %zu %zu\nglobal: %zu %zu %zu\nms: %.6g\n", c->launch.local[0], c->launch.local[1],
             c->launch.local[2], c->launch.global[0], c->launch.global[1], c->launch.global[2], c->ms);
  *path = entry_path(key);
  return util_write_text(*path, buf_str(&b));   /* a temporary file renamed into place */
}

bool tune_cache_lookup(const char *program_text, Program *p, NatBinding *sizes, const Target *t,
                       const RunOptions *o, TuneConfig *c) {
  if (!t->api) return false;
  const char *key = tune_cache_key(program_text, bench_sizes_text(p, sizes), t, o), *path;
  if (!key) diag_clear();   /* no device here: no cached configuration, and the run says why */
  if (!key || !tune_cache_load(key, c, &path)) return false;
  fprintf(stderr, "clift: using tuned configuration from %s (%s)\n", path, tune_config_text(c));
  return true;
}
