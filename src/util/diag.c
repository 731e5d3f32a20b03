/* diag.c — one diagnostics module: every stage reports (location, message) here;
   main decides how to print and which exit status to use. */
#include "util.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

const Loc LOC_NONE = { NULL, 0, 0 };

typedef struct Source { const char *file, *text; struct Source *next; } Source;
static Source *sources;
static bool has_error;
static Loc err_loc;
static char err_msg[4096];

void diag_add_source(const char *file, const char *text) {
  Source *s = malloc(sizeof *s);  /* outlives arena resets; kept for the process */
  if (!s) return;
  /* copies: the caller's strings may live in an arena that is released */
  s->file = strdup(file); s->text = strdup(text); s->next = sources;
  if (!s->file || !s->text) { free((char *)s->file); free((char *)s->text); free(s); return; }
  sources = s;
}

bool diag_error(Loc loc, const char *fmt, ...) {
  if (has_error) return false;
  has_error = true;
  err_loc = loc;
  va_list ap; va_start(ap, fmt);
  vsnprintf(err_msg, sizeof err_msg, fmt, ap);
  va_end(ap);
  return false;
}

bool diag_has_error(void) { return has_error; }
const char *diag_message(void) { return has_error ? err_msg : ""; }
void diag_clear(void) { has_error = false; err_msg[0] = 0; err_loc = LOC_NONE; }

void diag_reset(void) {
  diag_clear();
  while (sources) {
    Source *next = sources->next;
    free((char *)sources->file); free((char *)sources->text); free(sources);
    sources = next;
  }
}

static const char *source_line(const char *file, int line, int *len) {
  for (Source *s = sources; s; s = s->next) {
    if (strcmp(s->file, file) != 0) continue;
    const char *p = s->text;
    for (int l = 1; l < line && *p; p++) if (*p == '\n') l++;
    const char *e = p;
    while (*e && *e != '\n') e++;
    *len = (int)(e - p);
    return p;
  }
  return NULL;
}

const char *diag_render(void) {
  if (!has_error) return "";
  Buf b = {0};
  if (!err_loc.file) { buf_printf(&b, "error: %s\n", err_msg); return buf_str(&b); }
  buf_printf(&b, "%s:%d:%d: error: %s\n", err_loc.file, err_loc.line, err_loc.col, err_msg);
  int len = 0;
  const char *text = source_line(err_loc.file, err_loc.line, &len);
  if (text) {
    buf_printf(&b, "  %.*s\n  ", len, text);
    for (int i = 1; i < err_loc.col && i <= len; i++) buf_putc(&b, text[i - 1] == '\t' ? '\t' : ' ');
    buf_puts(&b, "^\n");
  }
  return buf_str(&b);
}
