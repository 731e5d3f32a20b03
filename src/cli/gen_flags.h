/* gen_flags.h — the code-generation flags every command takes (run, test,
   compile, bench, tune): one table (gen_flags.c), so that the commands cannot
   disagree, and so that flags travel as data: `clift tune` searches the rows
   marked as choices of schedule, and the tuning cache stores the chosen ones
   by their names (docs/tuning.md). */
#ifndef CLIFT_GEN_FLAGS_H
#define CLIFT_GEN_FLAGS_H
#include "../runtime/options.h"

/* Set the flag named `name` ("--unroll") in *g; false when it is not one. */
bool gen_flag_apply(const char *name, GenOptions *g);

/* Is the flag `name` set in *g? (false for an unknown name) */
bool gen_flag_is_set(const char *name, const GenOptions *g);

/* The flags that are choices of schedule (searched by clift tune), in table
   order: the k-th, NULL after the last. */
const char *gen_flag_schedule_at(int k);

/* "--pipeline", "pipeline" → "--pipeline" when it names a schedule flag; NULL
   otherwise. */
const char *gen_flag_schedule_named(const char *name);

/* The schedule flags set in *g, space-separated in table order ("" when none). */
const char *gen_flag_schedule_text(const GenOptions *g);

/* Apply a list written by gen_flag_schedule_text; false (g partly set) when a
   word is not a schedule flag. */
bool gen_flag_apply_schedule_text(const char *text, GenOptions *g);

#endif
