/* timing.h — what `clift bench` asks of a runtime: after one warm-up run,
   repeat the computation `runs` times and time each (device work only: no
   compilation, no transfers of inputs), optionally without reading the result
   back (large outputs would cost more than the kernel). */
#ifndef CLIFT_TIMING_H
#define CLIFT_TIMING_H
#include <stdbool.h>
#include <time.h>

typedef struct RunTiming {
  int runs;              /* timed repetitions after the warm-up */
  double *ms;            /* runs entries, filled by the runtime */
  bool discard_result;   /* return a placeholder instead of the result */
} RunTiming;

static inline double timing_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

#endif
