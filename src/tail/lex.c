/* lex.c — the tokens of TAIL's textual syntax (docs/apl.md §2.1): names,
   numbers with `~` or `-` for negatives (`~inf` too), chars, punctuation, and
   `(* … *)` comments (nested). Columns count code points. */
#include "lex.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *word; TokKind kind; } keywords[] = {
  { "let", TK_LET }, { "in", TK_IN }, { "fn", TK_FN }, { "if", TK_IF },
  { "then", TK_THEN }, { "else", TK_ELSE }, { "tt", TK_TT }, { "ff", TK_FF },
};

static const struct { TokKind kind; const char *name; } names[] = {
  { TK_EOF, "end of input" }, { TK_ID, "a name" }, { TK_INT, "an integer" }, { TK_DOUBLE, "a double" },
  { TK_CHAR, "a character" }, { TK_LPAREN, "'('" }, { TK_RPAREN, "')'" }, { TK_LBRACK, "'['" },
  { TK_RBRACK, "']'" }, { TK_LT, "'<'" }, { TK_GT, "'>'" }, { TK_COMMA, "','" }, { TK_COLON, "':'" },
  { TK_EQ, "'='" }, { TK_PLUS, "'+'" }, { TK_ARROW, "'->'" }, { TK_DARROW, "'=>'" }, { TK_LET, "'let'" },
  { TK_IN, "'in'" }, { TK_FN, "'fn'" }, { TK_IF, "'if'" }, { TK_THEN, "'then'" }, { TK_ELSE, "'else'" },
  { TK_TT, "'tt'" }, { TK_FF, "'ff'" },
};

const char *tail_token_name(TokKind k) {
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) if (names[i].kind == k) return names[i].name;
  return "a token";
}

static const struct { char c; TokKind kind; } punct[] = {
  { '(', TK_LPAREN }, { ')', TK_RPAREN }, { '[', TK_LBRACK }, { ']', TK_RBRACK }, { '<', TK_LT },
  { '>', TK_GT }, { ',', TK_COMMA }, { ':', TK_COLON }, { '+', TK_PLUS },
};

void tail_lex_init(Lexer *lx, const char *file, const char *text) {
  *lx = (Lexer){ .file = file, .text = text, .p = text, .line = 1, .col = 1 };
}

/* One byte on; a UTF-8 continuation byte does not count as a column. */
static void bump(Lexer *lx) {
  if (*lx->p == '\n') { lx->line++; lx->col = 1; }
  else if (((unsigned char)*lx->p & 0xC0) != 0x80) lx->col++;
  lx->p++;
}

static bool skip_space(Lexer *lx) {
  for (;;) {
    while (*lx->p && isspace((unsigned char)*lx->p)) bump(lx);
    if (lx->p[0] != '(' || lx->p[1] != '*') return true;
    Loc start = { lx->file, lx->line, lx->col };
    int depth = 0;
    do {
      if (!*lx->p) return diag_error(start, "unterminated comment: '(*' without '*)'");
      if (lx->p[0] == '(' && lx->p[1] == '*') { depth++; bump(lx); }
      else if (lx->p[0] == '*' && lx->p[1] == ')') { depth--; bump(lx); }
      bump(lx);
    } while (depth > 0);
  }
}

static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* DIGITS ['.' DIGITS] [('e'|'E') ['~'|'-'] DIGITS], negative when `neg`. */
static bool lex_number(Lexer *lx, bool neg) {
  Token *t = &lx->tok;
  Buf b = {0};
  if (neg) buf_putc(&b, '-');
  bool is_double = false;
  while (isdigit((unsigned char)*lx->p)) { buf_putc(&b, *lx->p); bump(lx); }
  if (lx->p[0] == '.' && isdigit((unsigned char)lx->p[1])) {
    is_double = true;
    buf_putc(&b, '.'); bump(lx);
    while (isdigit((unsigned char)*lx->p)) { buf_putc(&b, *lx->p); bump(lx); }
  }
  if ((*lx->p == 'e' || *lx->p == 'E') &&
      (isdigit((unsigned char)lx->p[1]) || ((lx->p[1] == '~' || lx->p[1] == '-') && isdigit((unsigned char)lx->p[2])))) {
    is_double = true;
    buf_putc(&b, 'e'); bump(lx);
    if (*lx->p == '~' || *lx->p == '-') { buf_putc(&b, '-'); bump(lx); }
    while (isdigit((unsigned char)*lx->p)) { buf_putc(&b, *lx->p); bump(lx); }
  }
  if (is_name_char(*lx->p)) return diag_error(t->loc, "malformed number: '%s' followed by '%c'", buf_str(&b), *lx->p);
  errno = 0;
  if (is_double) {
    t->kind = TK_DOUBLE;
    t->dval = strtod(buf_str(&b), NULL);
    if (errno == ERANGE && isinf(t->dval)) return diag_error(t->loc, "double %s is out of range", buf_str(&b));
    return true;
  }
  t->kind = TK_INT;
  t->ival = strtoll(buf_str(&b), NULL, 10);
  if (errno == ERANGE || t->ival > INT32_MAX || t->ival < INT32_MIN)
    return diag_error(t->loc, "integer %s does not fit in 32 bits (TAIL's int)", buf_str(&b));
  return true;
}

/* One UTF-8 code point between quotes. */
static bool lex_char(Lexer *lx) {
  Token *t = &lx->tok;
  bump(lx);
  const unsigned char *s = (const unsigned char *)lx->p;
  int len = s[0] < 0x80 ? 1 : s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
  long long cp = len == 1 ? s[0] : len == 2 ? s[0] & 0x1F : len == 3 ? s[0] & 0x0F : s[0] & 0x07;
  for (int i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) { len = 0; break; }
    cp = cp << 6 | (s[i] & 0x3F);
  }
  if (len == 0 || !s[0] || s[0] == '\n') return diag_error(t->loc, "malformed character literal");
  for (int i = 0; i < len; i++) bump(lx);
  if (*lx->p != '\'') return diag_error(t->loc, "a character literal is one character between quotes: 'a'");
  bump(lx);
  t->kind = TK_CHAR;
  t->ival = cp;
  return true;
}

bool tail_lex_next(Lexer *lx) {
  if (!skip_space(lx)) return !(lx->failed = true);
  Token *t = &lx->tok;
  *t = (Token){ .loc = { lx->file, lx->line, lx->col } };
  const char *p = lx->p;
  bool ok = true;
  if (!*p) t->kind = TK_EOF;
  else if ((p[0] == '~' || p[0] == '-') && isdigit((unsigned char)p[1])) { bump(lx); ok = lex_number(lx, true); }
  else if (isdigit((unsigned char)p[0])) ok = lex_number(lx, false);
  else if ((p[0] == '~' || p[0] == '-') && strncmp(p + 1, "inf", 3) == 0 && !is_name_char(p[4])) {
    for (int i = 0; i < 4; i++) bump(lx);
    t->kind = TK_DOUBLE; t->dval = -INFINITY;
  } else if (p[0] == '-' && p[1] == '>') { bump(lx); bump(lx); t->kind = TK_ARROW; }
  else if (p[0] == '=' && p[1] == '>') { bump(lx); bump(lx); t->kind = TK_DARROW; }
  else if (p[0] == '=') { bump(lx); t->kind = TK_EQ; }
  else if (p[0] == '\'') ok = lex_char(lx);
  else if (isalpha((unsigned char)p[0]) || p[0] == '_') {
    while (is_name_char(*lx->p)) bump(lx);
    t->text = arena_strndup(p, (size_t)(lx->p - p));
    t->kind = TK_ID;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
      if (strcmp(t->text, keywords[i].word) == 0) t->kind = keywords[i].kind;
    if (strcmp(t->text, "inf") == 0) { t->kind = TK_DOUBLE; t->dval = INFINITY; }
  } else {
    t->kind = TK_EOF;
    for (size_t i = 0; i < sizeof punct / sizeof punct[0]; i++)
      if (punct[i].c == p[0]) { t->kind = punct[i].kind; bump(lx); }
    if (t->kind == TK_EOF) {
      const unsigned char c = (unsigned char)p[0];
      ok = c >= 0x20 && c < 0x7F ? diag_error(t->loc, "unexpected character '%c'", c)
                                  : diag_error(t->loc, "unexpected character (byte 0x%02x)", c);
    }
  }
  if (!ok) lx->failed = true;
  return ok;
}
