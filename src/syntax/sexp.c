/* sexp.c — S-expression reader. `;` comments run to end of line (min-lift). */
#include "sexp.h"
#include <ctype.h>
#include <string.h>

typedef struct Reader { const char *file, *p; int line, col, depth; } Reader;

/* Deeper nesting than this is rejected rather than risking the C stack. */
enum { SEXP_MAX_DEPTH = 2000 };

static Loc here(Reader *r) { return (Loc){ r->file, r->line, r->col }; }

static void advance(Reader *r) {
  if (*r->p == '\n') { r->line++; r->col = 1; } else r->col++;
  r->p++;
}

static void skip_blank(Reader *r) {
  for (;;) {
    if (isspace((unsigned char)*r->p)) advance(r);
    else if (*r->p == ';') while (*r->p && *r->p != '\n') advance(r);
    else return;
  }
}

static bool is_atom_char(char c) {
  return c && !isspace((unsigned char)c) && c != '(' && c != ')' && c != ';' && c != '#';
}

static Sexp *read_sexp(Reader *r);

static Sexp *read_list(Reader *r) {
  Sexp *s = NEW(Sexp);
  s->kind = SX_LIST; s->loc = here(r);
  advance(r);  /* ( */
  Sexp *items[256];
  Sexp **many = items;
  int cap = 256;
  for (;;) {
    skip_blank(r);
    if (*r->p == ')') { advance(r); break; }
    if (!*r->p) {
      diag_error(s->loc, "unexpected end of input: expected ')' to close this '(' (the file ends at line %d)",
                 r->line);
      return NULL;
    }
    Sexp *k = read_sexp(r);
    if (!k) return NULL;
    if (s->n == cap) {
      Sexp **bigger = NEW_ARRAY(Sexp *, cap * 2);
      memcpy(bigger, many, sizeof(Sexp *) * (size_t)cap);
      many = bigger; cap *= 2;
    }
    many[s->n++] = k;
  }
  s->kids = NEW_ARRAY(Sexp *, s->n);
  memcpy(s->kids, many, sizeof(Sexp *) * (size_t)s->n);
  return s;
}

static Sexp *read_sexp(Reader *r) {
  skip_blank(r);
  Loc loc = here(r);
  char c = *r->p;
  if (!c) { diag_error(loc, "unexpected end of input: expected an expression"); return NULL; }
  if (c == ')') { diag_error(loc, "unexpected ')': expected an expression"); return NULL; }
  if (c == '(') {
    if (r->depth >= SEXP_MAX_DEPTH) { diag_error(loc, "expressions nested too deeply (more than %d levels)", SEXP_MAX_DEPTH); return NULL; }
    r->depth++;
    Sexp *s = read_list(r);
    r->depth--;
    return s;
  }
  if (c == '#') {
    advance(r);
    if (!is_atom_char(*r->p) && *r->p != '(') {
      diag_error(here(r), "expected a size after '#' (e.g. #4, #N, #(* 2 N))");
      return NULL;
    }
    Sexp *s = NEW(Sexp);
    s->kind = SX_HASH; s->loc = loc; s->n = 1; s->kids = NEW_ARRAY(Sexp *, 1);
    s->kids[0] = read_sexp(r);
    return s->kids[0] ? s : NULL;
  }
  const char *start = r->p;
  while (is_atom_char(*r->p)) advance(r);
  Sexp *s = NEW(Sexp);
  s->kind = SX_ATOM; s->loc = loc;
  s->text = arena_strndup(start, (size_t)(r->p - start));
  return s;
}

Sexp *sexp_read(const char *file, const char *text) {
  Reader r = { file, text, 1, 1, 0 };
  Sexp *s = read_sexp(&r);
  if (!s) return NULL;
  skip_blank(&r);
  if (*r.p) {
    diag_error(here(&r), "expected end of input after the program, found '%c'", *r.p);
    return NULL;
  }
  return s;
}

bool sexp_is_atom(Sexp *s, const char *text) {
  return s && s->kind == SX_ATOM && strcmp(s->text, text) == 0;
}
