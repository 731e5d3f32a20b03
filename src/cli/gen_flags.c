/* gen_flags.c — the table of code-generation flags (gen_flags.h). A row is a
   flag's name, the field of GenOptions it sets and to what, and whether it is
   a choice of schedule that clift tune searches (docs/tuning.md §2): one that
   changes only where loads, barriers and loop bodies are placed, never what
   is computed or what the device must guarantee, and whose speed depends on
   the program and the device (sgemm_tiled_v4: --pipeline alone slower,
   --double-buffer --unroll 1.16× faster on an H100; docs/performance.md).
   Not searched: the peel modes (a cost rule measured on the device picks
   them; --peel-aligned is for measuring), --no-single-pass (it assumes less
   of the device, not a faster schedule), --no-privatise (the launch search
   reaches it: a tried work-group size turns privatisation off). */
#include "gen_flags.h"
#include "../util/util.h"
#include <string.h>

typedef enum { F_PEEL, F_PEEL_ALIGNED, F_NO_SINGLE_PASS, F_NO_PRIVATISE, F_PIPELINE, F_DOUBLE_BUFFER, F_UNROLL } GenField;

static const struct { const char *name; GenField field; PeelMode peel; bool schedule; } gen_flags[] = {
  { "--peel", F_PEEL, PEEL_ALWAYS, false },
  { "--peel=all", F_PEEL, PEEL_ALL, false },
  { "--no-peel", F_PEEL, PEEL_NEVER, false },
  { "--peel-aligned", F_PEEL_ALIGNED, 0, false },
  { "--no-single-pass", F_NO_SINGLE_PASS, 0, false },
  { "--no-privatise", F_NO_PRIVATISE, 0, false },
  { "--pipeline", F_PIPELINE, 0, true },
  { "--double-buffer", F_DOUBLE_BUFFER, 0, true },
  { "--unroll", F_UNROLL, 0, true },
};
enum { NFLAGS = sizeof gen_flags / sizeof gen_flags[0] };

static int flag_index(const char *name) {
  for (int k = 0; k < NFLAGS; k++) if (strcmp(name, gen_flags[k].name) == 0) return k;
  return -1;
}

/* The bool field of a row (NULL for the peel mode). */
static bool *bool_field(GenField f, GenOptions *g) {
  switch (f) {
  case F_PEEL_ALIGNED: return &g->peel_aligned;
  case F_NO_SINGLE_PASS: return &g->no_single_pass;
  case F_NO_PRIVATISE: return &g->no_privatise;
  case F_PIPELINE: return &g->pipeline;
  case F_DOUBLE_BUFFER: return &g->double_buffer;
  case F_UNROLL: return &g->unroll;
  case F_PEEL: return NULL;
  }
  return NULL;
}

bool gen_flag_apply(const char *name, GenOptions *g) {
  int k = flag_index(name);
  if (k < 0) return false;
  bool *b = bool_field(gen_flags[k].field, g);
  if (b) *b = true;
  else g->peel = gen_flags[k].peel;
  return true;
}

bool gen_flag_is_set(const char *name, const GenOptions *g) {
  int k = flag_index(name);
  if (k < 0) return false;
  GenOptions copy = *g;
  bool *b = bool_field(gen_flags[k].field, &copy);
  return b ? *b : g->peel == gen_flags[k].peel;
}

const char *gen_flag_schedule_at(int k) {
  for (int i = 0; i < NFLAGS; i++)
    if (gen_flags[i].schedule && k-- == 0) return gen_flags[i].name;
  return NULL;
}

const char *gen_flag_schedule_named(const char *name) {
  for (int i = 0; i < NFLAGS; i++)
    if (gen_flags[i].schedule && (strcmp(name, gen_flags[i].name) == 0 || strcmp(name, gen_flags[i].name + 2) == 0))
      return gen_flags[i].name;
  return NULL;
}

const char *gen_flag_schedule_text(const GenOptions *g) {
  Buf b = {0};
  for (int k = 0; gen_flag_schedule_at(k); k++)
    if (gen_flag_is_set(gen_flag_schedule_at(k), g)) buf_printf(&b, "%s%s", b.len ? " " : "", gen_flag_schedule_at(k));
  return buf_str(&b);
}

bool gen_flag_apply_schedule_text(const char *text, GenOptions *g) {
  char *copy = arena_strdup(text), *save = NULL;
  for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    const char *name = gen_flag_schedule_named(w);
    if (!name || strcmp(name, w) != 0) return false;
    gen_flag_apply(name, g);
  }
  return true;
}
