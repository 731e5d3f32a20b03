/* tune_cache.h — the tuning cache (issue 14, docs/tuning.md): the best
   configuration `clift tune` found for a program, one small text file per key
   (program text, sizes, target, device, driver, clift build), which `run`,
   `bench` and `compile` read on the device targets. */
#ifndef CLIFT_TUNE_CACHE_H
#define CLIFT_TUNE_CACHE_H
#include "driver.h"
#include "../runtime/device.h"

/* One configuration: values of the tunable sizes, the code-generation flags
   that are choices of schedule (gen_flags.h; "--double-buffer --unroll", ""
   or NULL: none), launch sizes (zeros: the default policy), and the time it
   took when it was tuned. */
typedef struct TuneConfig {
  TuneValues tunables;
  LaunchSizes launch;
  double ms;
  const char *flags;
} TuneConfig;

/* The key of (program text, sizes text, target, device) for this clift build;
   NULL + diag when the device cannot be opened. */
const char *tune_cache_key(const char *program_text, const char *sizes_text, const Target *t, const RunOptions *o);

/* The cache folder: $CLIFT_TUNE_CACHE, else $XDG_CACHE_HOME/clift/tune, else
   $HOME/.cache/clift/tune. */
const char *tune_cache_dir(void);

/* The entry of `key`: true and *c, *path when there is one; a malformed
   entry is reported on stderr and ignored. */
bool tune_cache_load(const char *key, TuneConfig *c, const char **path);

/* Write (replace) the entry of `key`, atomically; *path: where. */
bool tune_cache_store(const char *key, const TuneConfig *c, const char *program_path, const char **path);

/* "TS=32 WPT=4, --unroll, local 128, global default": for messages and headers. */
const char *tune_config_text(const TuneConfig *c);

/* run, bench, compile on a device target: the cached configuration for this
   program, its text and sizes, when there is one and the user set none of it
   (no --tunable, --local-size, --global-size; not --no-tune-cache). Prints
   "clift: using tuned configuration from PATH (…)" on stderr. */
bool tune_cache_lookup(const char *program_text, Program *p, NatBinding *sizes, const Target *t,
                       const RunOptions *o, TuneConfig *c);

#endif
