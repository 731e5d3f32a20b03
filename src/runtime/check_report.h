/* check_report.h — the error cell of generated code (dpia/kernel.h) read back
   by every runtime and turned into the positioned message of SPEC §8. */
#ifndef CLIFT_CHECK_REPORT_H
#define CLIFT_CHECK_REPORT_H
#include "../dpia/kernel.h"

/* true when no check failed; else false + diag at the failing site's position. */
bool check_report(const Kernel *k, const int32_t cell[CHECK_CELL_INTS]);
/* The message of site s (1-based) without values, for generated host files. */
const char *check_site_text(const Kernel *k, int s);

#endif
