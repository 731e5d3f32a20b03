/* check_report.c — see check_report.h. */
#include "check_report.h"
#include "../prim/special.h"
#include <string.h>

static long long value_at(const int32_t *cell, int k) {
  return (long long)(((uint64_t)(uint32_t)cell[k + 1] << 32) | (uint32_t)cell[k]);
}

bool check_report(const Kernel *k, const int32_t cell[CHECK_CELL_INTS]) {
  int s = cell[0];
  if (s == 0) return true;
  if (s == -1 && k && cell[1] >= 0 && cell[1] < k->nbufs)   /* c_print.c: a temporary's malloc failed */
    return diag_error(LOC_NONE, "out of host memory: cannot allocate the temporary %s (%s)", k->bufs[cell[1]]->name,
                      type_to_string(k->bufs[cell[1]]->type));
  if (!k || s < 1 || s > k->nsites) return diag_error(LOC_NONE, "internal error: the generated code reported an unknown check %d", s);
  CheckSite *site = &k->sites[s - 1];
  switch (site->kind) {
  case CHECK_AREF:
    return diag_error(site->loc, "aref: index %lld out of range for an array of length %lld",
                      value_at(cell, 1), value_at(cell, 3));
  case CHECK_DIV: return diag_error(site->loc, "integer division by zero");
  case CHECK_IOTA:
    if (value_at(cell, 1) >= 0)   /* an int expression that wrapped around (dpia/rules_layout.c exp_iota) */
      return diag_error(site->loc, "iota: the length %lld is beyond its bound %lld (its int arithmetic wrapped around)",
                        value_at(cell, 1), value_at(cell, 3) - 1);
    return diag_error(site->loc, "iota: the length %lld is negative", value_at(cell, 1));
  case CHECK_MOD: return diag_error(site->loc, "integer modulo by zero");
  case CHECK_APL_INDEX:
    return diag_error(site->loc, CLIFT_APL_INDEX_ERROR, value_at(cell, 1) + 1, value_at(cell, 3));
  case CHECK_FCL_INDEX: {
    long long n = value_at(cell, 3);
    return diag_error(site->loc, "index %lld out of bounds: the array has %lld element%s", value_at(cell, 1), n, n == 1 ? "" : "s");
  }
  case CHECK_LENGTH: {
    long long want = value_at(cell, 3);
    return diag_error(site->loc, CLIFT_LENGTH_ERROR, value_at(cell, 1), want, want == 1 ? "is" : "are");
  }
  case CHECK_SEQFOR_READ: return diag_error(site->loc, "seqfor: element %lld is read before it is written", -1 - value_at(cell, 1));
  case CHECK_SEQFOR_UNWRITTEN:
    return diag_error(site->loc, "seqfor: element %lld of the result is never written", -1 - value_at(cell, 1));
  case CHECK_F2I: case CHECK_D2I: {   /* the value's bits (as the interpreter says it) */
    uint64_t bits = (uint64_t)value_at(cell, 1);
    double v;
    if (site->kind == CHECK_F2I) { uint32_t u = (uint32_t)bits; float f; memcpy(&f, &u, 4); v = f; }
    else memcpy(&v, &bits, 8);
    return diag_error(site->loc, "'%s': %g does not fit in an int", site->kind == CHECK_F2I ? "f2i" : "d2i", v);
  }
  case CHECK_FACTORIAL: case CHECK_BINOMIAL: {   /* the arguments' bits (stmt_print.c) */
    uint64_t a = (uint64_t)value_at(cell, 1), b = (uint64_t)value_at(cell, 3);
    double x, y;
    memcpy(&x, &a, 8); memcpy(&y, &b, 8);
    return site->kind == CHECK_FACTORIAL ? diag_error(site->loc, CLIFT_FACTORIAL_ERROR, x)
                                         : diag_error(site->loc, CLIFT_BINOMIAL_ERROR, x, y);
  }
  }
  return false;
}

const char *check_site_text(const Kernel *k, int s) {
  CheckSite *site = &k->sites[s - 1];
  const char *what = site->kind == CHECK_AREF ? "aref: index out of range"
                   : site->kind == CHECK_FCL_INDEX ? "index out of bounds"
                   : site->kind == CHECK_APL_INDEX ? "index error"
                   : site->kind == CHECK_DIV ? "integer division by zero"
                   : site->kind == CHECK_MOD ? "integer modulo by zero"
                   : site->kind == CHECK_IOTA ? "iota: a negative length, or one beyond its bound"
                   : site->kind == CHECK_FACTORIAL ? "domain error: factorial of a negative integer"
                   : site->kind == CHECK_BINOMIAL ? "domain error: binomial at a pole of Γ(n+1)"
                   : site->kind == CHECK_LENGTH ? "length error"
                   : site->kind == CHECK_SEQFOR_READ ? "seqfor: an element read before it is written"
                   : site->kind == CHECK_SEQFOR_UNWRITTEN ? "seqfor: an element of the result never written"
                   : "a float to int conversion out of range";
  return arena_printf("%s:%d:%d: error: %s", site->loc.file ? site->loc.file : "?", site->loc.line, site->loc.col, what);
}
