/* test_switches.c — the table of experiment switches (util/switches.c): every
   row named and in its own range, and the one reader: a value out of range or
   not a number warns once, naming the variable, the value and the range, and
   gives the default; a choice switch reads its names. */
#include "check.h"
#include "util/switches.h"
#include "util/util.h"
#include <stdlib.h>
#include <string.h>

static bool has(const char *s, const char *part) { return s && strstr(s, part); }

/* the default: one of the values accepted */
static bool default_accepted(const Switch *s) {
  if (s->kind == SWITCH_RANGE) return s->lo <= s->def && s->def <= s->hi;
  for (const SwitchChoice *c = s->choices; c && c->name; c++)
    if (c->value == s->def) return true;
  return false;
}

static void test_table(void) {
  for (int k = 0; k < SWITCH_COUNT; k++) {
    const Switch *s = &switch_table[k];
    CHECK(s->name && strncmp(s->name, "CLIFT_", 6) == 0, "switch %d is named %s", k, s->name ? s->name : "(null)");
    CHECK(s->meaning && *s->meaning && s->used_in && has(s->used_in, "src/"), "%s: a meaning and a place", s->name);
    CHECK(default_accepted(s), "%s: default %d outside what it accepts", s->name, s->def);
    CHECK(s->kind == SWITCH_RANGE || s->choices, "%s: a choice switch without choices", s->name);
    for (int j = 0; j < k; j++) CHECK(strcmp(s->name, switch_table[j].name) != 0, "%s twice", s->name);
  }
}

/* text read as key's value, its warnings in *warned (arena) */
static int parse(SwitchKey key, const char *text, const char **warned) {
  FILE *f = tmpfile();
  int v = switch_parse(key, text, f);
  char buf[512] = "";
  rewind(f);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  *warned = arena_strdup(buf);
  return v;
}

static void test_range(void) {
  const char *w;
  CHECK(parse(SW_FCL_BATCH, NULL, &w) == -1 && !*w, "unset: the default (-1: the target's), silently");
  CHECK(parse(SW_FCL_BATCH, "", &w) == -1 && !*w, "empty: the default, silently");
  CHECK(parse(SW_FCL_BATCH, "2", &w) == 2 && !*w, "in range");
  CHECK(parse(SW_FCL_BATCH, "0", &w) == 0 && !*w, "0 in range");
  CHECK(parse(SW_FCL_BATCH, "9", &w) == -1, "out of range: the default");
  CHECK(has(w, "CLIFT_FCL_BATCH") && has(w, "9") && has(w, "-1..8") && has(w, "warning"), "the warning: %s", w);
  CHECK(!strchr(w, '\n') || !strchr(w, '\n')[1], "one line: %s", w);
  CHECK(parse(SW_LB_ITEMS, "8x", &w) == CLIFT_LB_ITEMS && has(w, "CLIFT_LB_ITEMS=8x") && has(w, "1..32"), "not a number: %s", w);
  CHECK(parse(SW_LB_WAIT, "99999999999999999999", &w) == 1140 && has(w, "0..100000"), "overflow: %s", w);
  CHECK(parse(SW_LB_MASK, "-1", &w) == -1 && !*w, "-1: the target's default");
  CHECK(parse(SW_REDUCE_GUARD, "1", &w) == 1 && parse(SW_REDUCE_GUARD, "2", &w) == 0 && has(w, "0..1"), "a flag");
}

static void test_choice(void) {
  const char *w;
  CHECK(parse(SW_FCL_PREFETCH, NULL, &w) == SW_PREFETCH_AUTO && !*w, "default auto (reg on cuda, l2 elsewhere)");
  CHECK(parse(SW_FCL_PREFETCH, "0", &w) == SW_PREFETCH_NONE && !*w, "0");
  CHECK(parse(SW_FCL_PREFETCH, "l2", &w) == SW_PREFETCH_L2 && !*w, "l2");
  CHECK(parse(SW_FCL_PREFETCH, "1", &w) == SW_PREFETCH_L2 && !*w, "1, l2's former name");
  CHECK(parse(SW_FCL_PREFETCH, "both", &w) == SW_PREFETCH_BOTH && !*w, "both");
  CHECK(parse(SW_FCL_PREFETCH, "reg", &w) == SW_PREFETCH_REG && !*w, "reg");
  CHECK(parse(SW_FCL_PREFETCH, "Both", &w) == SW_PREFETCH_AUTO && has(w, "CLIFT_FCL_PREFETCH=Both")
        && has(w, "0|l2|1|reg|both|auto"), "not a name: %s", w);
  CHECK(parse(SW_LB_GROUP, "128", &w) == 128 && parse(SW_LB_GROUP, "100", &w) == 256 && has(w, "64|128|256"), "group: %s", w);
  CHECK(strcmp(switch_value_text(SW_FCL_PREFETCH, SW_PREFETCH_BOTH), "both") == 0, "a choice printed by its name");
  CHECK(strcmp(switch_value_text(SW_FCL_GRID, 3), "3") == 0, "an integer printed");
}

/* switch_value: the environment, read once */
static void test_environment(void) {
  setenv("CLIFT_FCL_GRID", "65", 1);
  CHECK(switch_value(SW_FCL_GRID) == -1, "out of range from the environment: the default");
  setenv("CLIFT_FCL_GRID", "3", 1);
  CHECK(switch_value(SW_FCL_GRID) == -1, "read once");
  switches_reset();
  CHECK(switch_value(SW_FCL_GRID) == 3, "read again after switches_reset");
  setenv("CLIFT_LB_MIN_BLOCKS", "2", 1);
  CHECK(switch_value(SW_LB_MIN_BLOCKS) == 2, "in range from the environment");
}

int main(void) {
  test_table();
  test_range();
  test_choice();
  test_environment();
  return CHECK_DONE("switches");
}
