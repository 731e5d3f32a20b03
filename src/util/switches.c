/* switches.c — the table of the experiment switches, and their one reader.
   Measurements that set these defaults are cited where the switches act
   (dpia/lookback_config.c, fcl/compile.c, dpia/tiles.c) and in docs/switches.md. */
#include "switches.h"
#include "util.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define RANGE(d, l, h) .kind = SWITCH_RANGE, .def = (d), .lo = (l), .hi = (h)
#define CHOICE(d, list) .kind = SWITCH_CHOICE, .def = (d), .choices = (list)
#define LB_AT "src/dpia/lookback.c"
#define FCL_AT "src/fcl/compile.c"

static const SwitchChoice lb_groups[] = { { "64", 64 }, { "128", 128 }, { "256", 256 }, { NULL, 0 } };
/* "1" is l2: the prefetch's name before the staged read existed (stop 27) */
static const SwitchChoice prefetches[] = { { "0", SW_PREFETCH_NONE }, { "l2", SW_PREFETCH_L2 }, { "1", SW_PREFETCH_L2 },
                                           { "reg", SW_PREFETCH_REG }, { "both", SW_PREFETCH_BOTH },
                                           { "auto", SW_PREFETCH_AUTO }, { NULL, 0 } };

const Switch switch_table[SWITCH_COUNT] = {
  [SW_LB_GROUP] = { "CLIFT_LB_GROUP", CHOICE(256, lb_groups), .used_in = LB_AT,
    .meaning = "work-items a group of the one pass with look-back (filter, scan)" },
  [SW_LB_ITEMS] = { "CLIFT_LB_ITEMS", RANGE(CLIFT_LB_ITEMS, 1, 32), .used_in = LB_AT,
    .meaning = "elements a work-item of the one pass (default: -DCLIFT_LB_ITEMS when built)" },
  [SW_LB_TOTALS] = { "CLIFT_LB_TOTALS", RANGE(1, 0, 1), .used_in = LB_AT,
    .meaning = "cuda: every work-item combines the warps' totals, 6 barriers a tile, not 8" },
  [SW_LB_MASK] = { "CLIFT_LB_MASK", RANGE(-1, -1, 1), .used_in = LB_AT,
    .meaning = "filter: the kept elements a bit each in a register; -1: 1 on cuda, 0 elsewhere" },
  [SW_LB_BLOCK_TILE] = { "CLIFT_LB_BLOCK_TILE", RANGE(0, 0, 1), .used_in = LB_AT,
    .meaning = "cuda: a group's tile is its index, no counter (relies on groups starting in order)" },
  [SW_LB_LOOPS] = { "CLIFT_LB_LOOPS", RANGE(1, 0, 1), .used_in = LB_AT,
    .meaning = "the pass's mapLcl loops as loops striding by the group (0: as blocks)" },
  [SW_LB_DIRECT] = { "CLIFT_LB_DIRECT", RANGE(-1, -1, 1 << 20), .used_in = LB_AT,
    .meaning = "filter: a tile keeping at most k elements writes them straight out; -1: 256 on cuda, 0 elsewhere" },
  [SW_LB_WAIT] = { "CLIFT_LB_WAIT", RANGE(1140, 0, 100000), .used_in = LB_AT,
    .meaning = "cuda, 500 tiles or more: ns the look-back's warp sleeps after publishing (0: none)" },
  [SW_LB_RETRY] = { "CLIFT_LB_RETRY", RANGE(688, 0, 100000), .used_in = LB_AT,
    .meaning = "cuda, 500 tiles or more: ns the warp sleeps before reading a word not yet published again (0: none)" },
  [SW_LB_MIN_BLOCKS] = { "CLIFT_LB_MIN_BLOCKS", RANGE(6, 0, 32), .used_in = LB_AT,
    .meaning = "cuda: __launch_bounds__(group, m) on the pass (0: none)" },
  [SW_FCL_FAST] = { "CLIFT_FCL_FAST", RANGE(1, 0, 1), .used_in = FCL_AT,
    .meaning = "warp barriers and fixed-size versions (0: neither)" },
  [SW_FCL_NO_WARP] = { "CLIFT_FCL_NO_WARP", RANGE(0, 0, 1), .used_in = FCL_AT,
    .meaning = "1: every barrier the work-group's" },
  [SW_FCL_NO_VERSION] = { "CLIFT_FCL_NO_VERSION", RANGE(0, 0, 1), .used_in = FCL_AT,
    .meaning = "1: no fixed-size version" },
  [SW_FCL_PREFETCH] = { "CLIFT_FCL_PREFETCH", CHOICE(SW_PREFETCH_AUTO, prefetches), .used_in = FCL_AT ", src/dpia/prefetch.c",
    .meaning = "the next chunk: 0 not prefetched, l2 (or 1) into L2, reg read into registers, both reg and L2 for the one after; auto: reg on cuda and opencl (the grid capped), l2 elsewhere" },
  [SW_FCL_BATCH] = { "CLIFT_FCL_BATCH", RANGE(-1, -1, 8), .used_in = FCL_AT ", src/dpia/batch.c",
    .meaning = "chunks a work-group iteration of a chunk kernel (0 or 1: one; -1: on cuda and opencl, the grid capped, 4 halved while the chunks pass 12 KiB of local memory, a tree (its steps shrinking) 8 under 24 KiB: reduce 8, scan 2 above 2^24; one elsewhere)" },
  [SW_FCL_GRID] = { "CLIFT_FCL_GRID", RANGE(-1, -1, 64), .used_in = FCL_AT ", src/dpia/plan.c, src/runtime/plan_run.c",
    .meaning = "cuda, opencl: a chunk kernel's blocks capped at w device-fulls (0: no cap; -1: 1 where a chunk passes 5 or more barriers, a tree's or a scan's, else none)" },
  [SW_FCL_UNROLL] = { "CLIFT_FCL_UNROLL", RANGE(0, 0, 1), .used_in = FCL_AT,
    .meaning = "1: power, poweri and while always unrolled, never one loop over uniform steps" },
  [SW_FCL_NO_PAD] = { "CLIFT_FCL_NO_PAD", RANGE(0, 0, 1), .used_in = FCL_AT,
    .meaning = "1: local arrays not padded by one element in 32 against bank conflicts" },
  [SW_REDUCE_GUARD] = { "CLIFT_REDUCE_GUARD", RANGE(0, 0, 1), .used_in = "src/dpia/tiles.c",
    .meaning = "device targets: every tile of a reduce checks its reads (the former form), not only the last" },
  [SW_REDUCE_ONE_LAUNCH] = { "CLIFT_REDUCE_ONE_LAUNCH", RANGE(1, 0, 1), .used_in = "src/dpia/last_group.c",
    .meaning = "cuda: a top-level reduce in one launch, the last work-group reducing the partials (0: two kernels, the former form)" },
  [SW_OCL_WARP] = { "CLIFT_OCL_WARP", RANGE(1, 0, 1), .used_in = "src/runtime/opencl_device.c, src/codegen/opencl_print.c",
    .meaning = "NVIDIA's OpenCL: a warp barrier (dpia/warp.c) as PTX bar.warp.sync (0: the work-group's barrier)" },
  [SW_OCL_RESIDENT] = { "CLIFT_OCL_RESIDENT", RANGE(2048, 32, 65536), .used_in = "src/runtime/opencl_device.c",
    .meaning = "opencl: at most this many work-items a compute unit is taken to keep resident (the grid cap's estimate: no occupancy query in OpenCL; on NVIDIA's OpenCL also bounded by the launched kernel's registers from the build log)" },
  [SW_OCL_CRASH_TEST] = { "CLIFT_OCL_CRASH_TEST", RANGE(0, 0, 3), .used_in = "src/runtime/opencl_device.c",
    .meaning = "for the test suite: 1 makes building OpenCL kernels abort (SIGABRT) inside the guard that turns a crash of the OpenCL implementation into an internal error; 2 aborts and 3 faults just after the build, outside the guard (the previous handler reports them)" },
};

/* text one of the values key accepts: *value */
static bool switch_accepts(const Switch *s, const char *text, int *value) {
  if (s->kind == SWITCH_CHOICE) {
    for (const SwitchChoice *c = s->choices; c->name; c++)
      if (strcmp(c->name, text) == 0) return *value = c->value, true;
    return false;
  }
  char *end;
  errno = 0;
  long x = strtol(text, &end, 10);
  if (errno || end == text || *end || x < s->lo || x > s->hi) return false;
  *value = (int)x;
  return true;
}

int switch_parse(SwitchKey key, const char *text, FILE *warn) {
  const Switch *s = &switch_table[key];
  int value;
  if (!text || !*text) return s->def;
  if (switch_accepts(s, text, &value)) return value;
  if (warn)
    fprintf(warn, "clift: warning: ignoring %s=%s (accepted: %s); using the default, %s\n", s->name, text,
            switch_accepted_text(key), switch_value_text(key, s->def));
  return s->def;
}

static int switch_values[SWITCH_COUNT];
static bool switch_read[SWITCH_COUNT];

int switch_value(SwitchKey key) {
  if (!switch_read[key]) {
    switch_values[key] = switch_parse(key, getenv(switch_table[key].name), stderr);
    switch_read[key] = true;
  }
  return switch_values[key];
}

void switches_reset(void) { memset(switch_read, 0, sizeof switch_read); }

const char *switch_value_text(SwitchKey key, int value) {
  const Switch *s = &switch_table[key];
  if (s->kind == SWITCH_CHOICE)
    for (const SwitchChoice *c = s->choices; c->name; c++)
      if (c->value == value) return c->name;
  return arena_printf("%d", value);
}

const char *switch_accepted_text(SwitchKey key) {
  const Switch *s = &switch_table[key];
  if (s->kind == SWITCH_RANGE) return arena_printf("%d..%d", s->lo, s->hi);
  Buf b = {0};
  for (const SwitchChoice *c = s->choices; c->name; c++) buf_printf(&b, "%s%s", c == s->choices ? "" : "|", c->name);
  return buf_str(&b);
}

void switches_print(FILE *f) {
  fprintf(f, "%-21s %-5s %-7s %-16s %s\n", "switch", "value", "default", "accepted", "meaning [where]");
  for (int k = 0; k < SWITCH_COUNT; k++) {
    const Switch *s = &switch_table[k];
    fprintf(f, "%-21s %-5s %-7s %-16s %s [%s]\n", s->name, switch_value_text(k, switch_value(k)),
            switch_value_text(k, s->def), switch_accepted_text(k), s->meaning, s->used_in);
  }
}
