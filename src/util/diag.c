/* diag.c — one diagnostics module: every stage reports (location, message) here;
   main decides how to print and which exit status to use. */
#include "util.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

const Loc LOC_NONE = { NULL, 0, 0 };

typedef struct Source { const char *file, *text; struct Source *next; } Source;
static Source *sources;
static bool has_error, internal;
static DiagKind kind;
static Loc err_loc;
static Loc context;   /* diag_context: where a refusal without a place of its own is reported */
static char err_msg[4096];

void diag_add_source(const char *file, const char *text) {
  Source *s = malloc(sizeof *s);  /* outlives arena resets; kept for the process */
  if (!s) return;
  /* copies: the caller's strings may live in an arena that is released */
  s->file = strdup(file); s->text = strdup(text); s->next = sources;
  if (!s->file || !s->text) { free((char *)s->file); free((char *)s->text); free(s); return; }
  sources = s;
}

static bool record(Loc loc, DiagKind k, const char *fmt, va_list ap) {
  if (has_error) return false;
  has_error = true;
  kind = k;
  internal = k == DIAG_INTERNAL;
  err_loc = loc.file || k != DIAG_UNSUPPORTED ? loc : context;
  vsnprintf(err_msg, sizeof err_msg, fmt, ap);
  return false;
}

bool diag_error(Loc loc, const char *fmt, ...) {
  va_list ap; va_start(ap, fmt);
  record(loc, DIAG_ERROR, fmt, ap);
  va_end(ap);
  return false;
}

bool diag_unsupported(Loc loc, const char *fmt, ...) {
  va_list ap; va_start(ap, fmt);
  record(loc, DIAG_UNSUPPORTED, fmt, ap);
  va_end(ap);
  return false;
}

Loc diag_context(Loc loc) {
  Loc was = context;
  context = loc;
  return was;
}

void diag_name_target(const char *target) {
  if (!has_error || kind != DIAG_UNSUPPORTED || strncmp(err_msg, "not supported on ", 17) == 0) return;
  char reason[sizeof err_msg];
  memcpy(reason, err_msg, sizeof reason);
  int n = snprintf(err_msg, sizeof err_msg, "not supported on %s: ", target);
  if (n > 0 && (size_t)n < sizeof err_msg) snprintf(err_msg + n, sizeof err_msg - (size_t)n, "%.*s", (int)(sizeof err_msg - (size_t)n - 1), reason);
}

DiagKind diag_kind(void) { return has_error ? kind : DIAG_NONE; }

bool diag_internal(Loc loc, const char *fmt, ...) {
  va_list ap; va_start(ap, fmt);
  record(loc, DIAG_INTERNAL, fmt, ap);
  va_end(ap);
  return false;
}

bool diag_has_error(void) { return has_error; }
const char *diag_message(void) { return has_error ? err_msg : ""; }
void diag_clear(void) { has_error = internal = false; kind = DIAG_NONE; err_msg[0] = 0; err_loc = LOC_NONE; }

/* Errors set aside, kept for the process (a program's lazy maps fail at a few
   places, and equal errors share one entry). */
typedef struct { Loc loc; char *msg; } Aside;
static Aside *aside;
static int naside, aside_cap;

int diag_set_aside(void) {
  if (!has_error || internal) return -1;
  int k = 0;
  while (k < naside && !(aside[k].loc.file == err_loc.file && aside[k].loc.line == err_loc.line
                         && aside[k].loc.col == err_loc.col && strcmp(aside[k].msg, err_msg) == 0))
    k++;
  if (k == naside) {
    if (naside == aside_cap) {
      int cap = aside_cap ? 2 * aside_cap : 16;
      Aside *grown = realloc(aside, sizeof *aside * (size_t)cap);
      if (!grown) return -1;
      aside = grown; aside_cap = cap;
    }
    char *msg = strdup(err_msg);
    if (!msg) return -1;
    aside[naside++] = (Aside){ err_loc, msg };
  }
  diag_clear();
  return k;
}

bool diag_raise(int handle) {
  if (handle < 0 || handle >= naside) return diag_internal(LOC_NONE, "an error set aside was lost");
  return diag_error(aside[handle].loc, "%s", aside[handle].msg);
}

void diag_reset(void) {
  diag_clear();
  for (int k = 0; k < naside; k++) free(aside[k].msg);
  free(aside); aside = NULL; naside = aside_cap = 0;
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

/* A UTF-8 continuation byte: not the start of a character. */
static bool continuation(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

enum { LINE_WINDOW = 100 };   /* bytes of a long source line shown around the caret */

/* The source line and a caret under column `col`; a line longer than
   LINE_WINDOW is cut to a window around the caret, each cut marked by "…"
   (one column wide, so the caret stays aligned). */
/* col counts code points (APL and TAIL sources; the same as bytes for the
   ASCII of .lift files): the caret goes after col - 1 of them. */
static void render_source(Buf *b, const char *text, int len, int col) {
  int caret = 0;
  for (int k = 1; caret < len && k < col; k++) {
    caret++;
    while (caret < len && continuation(text[caret])) caret++;
  }
  int from = 0, to = len;
  if (len > LINE_WINDOW + LINE_WINDOW / 5) {
    from = caret - LINE_WINDOW / 2;
    if (from < 0) from = 0;
    to = from + LINE_WINDOW;
    if (to > len) { to = len; from = len - LINE_WINDOW; }
    while (from > 0 && continuation(text[from])) from--;
    while (to < len && continuation(text[to])) to++;
  }
  buf_printf(b, "  %s%.*s%s\n  %s", from > 0 ? "…" : "", to - from, text + from,
             to < len ? "…" : "", from > 0 ? " " : "");
  for (int i = from; i < caret; i++)
    if (!continuation(text[i])) buf_putc(b, text[i] == '\t' ? '\t' : ' ');
  buf_puts(b, "^\n");
}

/* "file:line:col: ", "file: " (a place known only to the file) or "". */
static void render_place(Buf *b) {
  if (!err_loc.file) return;
  if (err_loc.line > 0) buf_printf(b, "%s:%d:%d: ", err_loc.file, err_loc.line, err_loc.col);
  else buf_printf(b, "%s: ", err_loc.file);
}

const char *diag_render(void) {
  if (!has_error) return "";
  Buf b = {0};
  render_place(&b);
  if (internal) {   /* SPEC §8: generated code that a downstream compiler rejects */
    size_t n = strlen(err_msg);
    while (n > 0 && err_msg[n - 1] == '\n') n--;   /* compiler logs end in newlines */
    buf_printf(&b, "internal error: %.*s\n", (int)n, err_msg);
    buf_puts(&b, "This is a bug in clift, not in the program: please report it with the program.\n");
    return buf_str(&b);
  }
  buf_printf(&b, "error: %s\n", err_msg);
  int len = 0;
  const char *text = err_loc.file && err_loc.line > 0 ? source_line(err_loc.file, err_loc.line, &len) : NULL;
  if (text) render_source(&b, text, len, err_loc.col);
  return buf_str(&b);
}
