/* check.h — minimal unit-test harness for the C unit tests. Each CHECK counts;
   CHECK_DONE prints the runner line "N passed, N failed" and sets the exit status. */
#ifndef CLIFT_CHECK_H
#define CLIFT_CHECK_H
#include <stdio.h>
static int check_passed, check_failed;
#define CHECK(cond, ...) do { \
    if (cond) check_passed++; \
    else { check_failed++; fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
           fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)
#define CHECK_DONE(name) ( printf("%s: %d passed, %d failed\n", (name), check_passed, check_failed), \
                           check_failed ? 1 : 0 )
#endif
