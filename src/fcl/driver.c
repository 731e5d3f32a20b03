/* driver.c — the FCL stages one after another, for the command line:
   `clift check prog.fcl` and `clift run -t interp prog.fcl inputs…`. */
#include "fcl.h"
#include <stdio.h>
#include <string.h>

static FProgram *load(const char *path) {
  char *text = util_read_file(path, NULL);
  FProgram *p = text ? fcl_parse(path, text) : NULL;
  return p && fcl_check(p) ? p : NULL;
}

int fcl_cli_check(const char *path) {
  FProgram *p = load(path);
  if (!p) { fputs(diag_render(), stderr); return 1; }
  printf("%s\n", fcl_describe(p));
  return fflush(stdout) == 0 ? 0 : 1;
}

int fcl_cli_unsupported(const char *target) {
  fprintf(stderr, "clift: not supported yet on %s: FCL programs run on the interpreter only (issue 15 M2); use -t interp\n", target);
  return 1;
}

int fcl_cli_run(const char *path, const char *target, int ninputs, const char **inputs, const char *out) {
  if (strcmp(target, "interp") != 0) return fcl_cli_unsupported(target);
  if (out) { fprintf(stderr, "clift: -o is not supported yet for FCL programs (issue 15 M2)\n"); return 1; }
  FProgram *p = load(path);
  Value *v = p ? fcl_run(p, ninputs, inputs, FCL_DEFAULT_BLOCK_SIZE) : NULL;
  if (!v || !value_print_line(stdout, v)) { fputs(diag_render(), stderr); return 1; }
  return 0;
}
