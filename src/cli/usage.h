/* usage.h — the help texts of the clift command line (usage.c). */
#ifndef CLIFT_USAGE_H
#define CLIFT_USAGE_H

extern const char *const usage_main;
extern const char *const usage_check;
extern const char *const usage_apl;
extern const char *const usage_switches;
extern const char *const usage_run;
extern const char *const usage_test;
extern const char *const usage_compile;
extern const char *const usage_tune;
extern const char *const usage_bench;

#endif
