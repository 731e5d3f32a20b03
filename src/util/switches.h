/* switches.h — the compiler's experiment switches: environment variables of
   the clift that generates the code, which change that code to compare
   variants without rebuilding clift (docs/switches.md). One table
   (switches.c) describes them; one function reads them. `clift switches`
   lists them. */
#ifndef CLIFT_SWITCHES_H
#define CLIFT_SWITCHES_H
#include <stdbool.h>
#include <stdio.h>

typedef enum SwitchKey {
  /* the one pass with look-back of filter and scan (dpia/lookback.c) */
  SW_LB_GROUP, SW_LB_ITEMS, SW_LB_TOTALS, SW_LB_MASK, SW_LB_BLOCK_TILE, SW_LB_LOOPS,
  SW_LB_DIRECT, SW_LB_WAIT, SW_LB_RETRY, SW_LB_MIN_BLOCKS,
  /* FCL's compiled kernels (fcl/compile.c) */
  SW_FCL_FAST, SW_FCL_NO_WARP, SW_FCL_NO_VERSION, SW_FCL_PREFETCH, SW_FCL_BATCH,
  SW_FCL_GRID, SW_FCL_UNROLL, SW_FCL_NO_PAD,
  /* a top-level reduce's tiles (dpia/tiles.c) */
  SW_REDUCE_GUARD, SW_REDUCE_ONE_LAUNCH,
  SW_OCL_WARP, SW_OCL_RESIDENT, SW_OCL_CRASH_TEST,
  SWITCH_COUNT
} SwitchKey;

/* The values of CLIFT_FCL_PREFETCH (auto: reg where the target caps a chunk
   kernel's grid, cuda; l2 elsewhere) */
enum { SW_PREFETCH_AUTO = -1, SW_PREFETCH_NONE, SW_PREFETCH_L2, SW_PREFETCH_REG, SW_PREFETCH_BOTH };

#ifndef CLIFT_LB_ITEMS
#define CLIFT_LB_ITEMS 15   /* CLIFT_LB_ITEMS's default; `make CC="cc -DCLIFT_LB_ITEMS=16"` changes it */
#endif

typedef enum { SWITCH_RANGE, SWITCH_CHOICE } SwitchKind;
typedef struct SwitchChoice { const char *name; int value; } SwitchChoice;
typedef struct Switch {
  const char *name;                /* the environment variable */
  SwitchKind kind;
  int def;                         /* the value when unset, empty or not accepted */
  int lo, hi;                      /* SWITCH_RANGE: the integers accepted */
  const SwitchChoice *choices;     /* SWITCH_CHOICE: the names accepted, up to a NULL name */
  const char *meaning, *used_in;   /* one line each */
} Switch;
extern const Switch switch_table[SWITCH_COUNT];

/* text as key's value: unset (NULL) or empty gives the default; a value the
   switch does not accept gives one warning on warn (the variable, the value,
   what it accepts) and the default. */
int switch_parse(SwitchKey key, const char *text, FILE *warn);
/* key's value from the environment, read (and warned about) once */
int switch_value(SwitchKey key);
/* forget the values read: the next switch_value reads the environment again
   (for a test that changes it within one process) */
void switches_reset(void);
/* value as the switch's accepted text spells it (a choice's name), and what it
   accepts ("0..8", "0|l2|reg|both"): arena strings */
const char *switch_value_text(SwitchKey key, int value);
const char *switch_accepted_text(SwitchKey key);
/* every switch: name, value in effect, default, accepted values, meaning */
void switches_print(FILE *f);

#endif
