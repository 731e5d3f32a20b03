/* lex.c — APL source as tokens (docs/apl.md §1): UTF-8 glyphs, names, numbers
   (`¯` negative, `1.75E6`, `1E¯3`), char literals `'…'` (`''` a quote), `⍝` to
   the end of the line, `⋄` and newline as statement ends; `-` and `−`
   (U+2212) are the same glyph. Columns count code points. */
#include "apl.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The glyphs of primitive functions and operators (SPEC §10's subset and the
   ones a program may write by mistake, refused later with a clear message). */
static const char *const glyphs =
  "+-×÷⌈⌊|*⍟○!<≤=≥>≠∧∨⍲⍱~⍳⍴≢,⍪↑↓⌽⊖⍉/⌿\\⍀¨∘.⍣⊃⊂∊⍋⍒⍷⍸⌷⊣⊢⍨⍤⍥⍕⍎∪∩≡⊥⊤⌹?";

enum { CP_MINUS = 0x2212, CP_MACRON = 0xAF };

typedef struct Lx { const char *file, *p; int line, col; } Lx;

/* The code point at s and its length in bytes (0: malformed UTF-8). */
static int decode(const char *s, int *len) {
  const unsigned char *u = (const unsigned char *)s;
  int n = u[0] < 0x80 ? 1 : u[0] >= 0xF8 ? 0 : u[0] >= 0xF0 ? 4 : u[0] >= 0xE0 ? 3 : u[0] >= 0xC0 ? 2 : 0;
  int cp = n == 1 ? u[0] : n == 2 ? u[0] & 0x1F : n == 3 ? u[0] & 0x0F : u[0] & 0x07;
  for (int i = 1; i < n; i++) {
    if ((u[i] & 0xC0) != 0x80) { n = 0; break; }
    cp = cp << 6 | (u[i] & 0x3F);
  }
  *len = n;
  return n ? cp : -1;
}

static int peek(Lx *lx, int *len) { return *lx->p ? decode(lx->p, len) : (*len = 0, 0); }

/* One code point on (a malformed byte counts as one). */
static void bump(Lx *lx) {
  int len;
  decode(lx->p, &len);
  if (*lx->p == '\n') { lx->line++; lx->col = 0; }
  lx->p += len > 0 ? len : 1;
  lx->col++;
}

static bool is_glyph(int cp) {
  for (const char *g = glyphs; *g;) {
    int len, c = decode(g, &len);
    if (c == cp) return true;
    g += len;
  }
  return false;
}

static bool is_digit_at(const char *p) { return isdigit((unsigned char)*p); }

/* A number: [¯] DIGITS [. DIGITS] [E [¯] DIGITS]; ¯ is the high minus. */
static bool lex_number(Lx *lx, AplToken *t) {
  Buf b = {0};
  int len;
  if (peek(lx, &len) == CP_MACRON) { buf_putc(&b, '-'); bump(lx); }
  if (!is_digit_at(lx->p) && !(lx->p[0] == '.' && is_digit_at(lx->p + 1)))
    return diag_error(t->loc, "'¯' must be followed by a number (use - for negation)");
  bool dbl = false;
  while (is_digit_at(lx->p)) { buf_putc(&b, *lx->p); bump(lx); }
  if (lx->p[0] == '.' && is_digit_at(lx->p + 1)) {
    dbl = true;
    buf_putc(&b, '.'); bump(lx);
    while (is_digit_at(lx->p)) { buf_putc(&b, *lx->p); bump(lx); }
  }
  if (*lx->p == 'E' || *lx->p == 'e') {
    const char *q = lx->p + 1;
    int l2 = 0;
    bool neg = *q && decode(q, &l2) == CP_MACRON;
    if (is_digit_at(neg ? q + l2 : q)) {
      dbl = true;
      buf_putc(&b, 'e'); bump(lx);
      if (neg) { buf_putc(&b, '-'); bump(lx); }
      while (is_digit_at(lx->p)) { buf_putc(&b, *lx->p); bump(lx); }
    }
  }
  if (isalpha((unsigned char)*lx->p) || *lx->p == '_')
    return diag_error(t->loc, "malformed number: '%s' followed by '%c'", buf_str(&b), *lx->p);
  t->kind = AT_NUM;
  errno = 0;
  t->dval = strtod(buf_str(&b), NULL);
  if (errno == ERANGE && isinf(t->dval)) return diag_error(t->loc, "the number %s is out of range", buf_str(&b));
  if (!dbl) {
    errno = 0;
    long long v = strtoll(buf_str(&b), NULL, 10);
    if (errno == ERANGE || v > INT32_MAX || v < INT32_MIN)
      return diag_error(t->loc, "the integer %s does not fit in 32 bits (APL ints are TAIL's int)", buf_str(&b));
    t->is_int = true;
    t->ival = v;
  }
  return true;
}

/* 'text' with '' for a quote: the code points */
static bool lex_string(Lx *lx, AplToken *t) {
  bump(lx);
  int n = 0, cap = 0;
  int *cps = NULL;
  for (;;) {
    int len, cp = peek(lx, &len);
    if (!*lx->p || *lx->p == '\n') return diag_error(t->loc, "unterminated string: a quote (') is missing on this line");
    if (cp < 0) return diag_error((Loc){ lx->file, lx->line, lx->col }, "malformed UTF-8 in a string");
    bump(lx);
    if (cp == '\'') {
      if (*lx->p != '\'') break;
      bump(lx);
    }
    ARENA_PUSH(cps, n, cap, cp);
  }
  t->kind = AT_STR;
  t->cps = cps; t->ncps = n;
  return true;
}

static const struct { int cp; AplTokKind kind; } punct[] = {
  { '(', AT_LPAREN }, { ')', AT_RPAREN }, { '[', AT_LBRACK }, { ']', AT_RBRACK }, { '{', AT_LBRACE },
  { '}', AT_RBRACE }, { 0x2190, AT_ASSIGN }, { 0x22C4, AT_SEP }, { 0x2395, AT_QUAD }, { 0x237A, AT_ALPHA },
  { 0x2375, AT_OMEGA }, { 0x2207, AT_DEL }, { ':', AT_COLON }, { ';', AT_SEMI }, { '\n', AT_SEP }, { 0x236C, AT_ZILDE },
};

static const char *const sys_names[APL_SYS_END - APL_SYS_AND] = {
  "INT32AND", "INT32OR", "INT32XOR", "INT32SHL", "INT32SHR", "INT32SHAR", "INT32NOT",
};

const char *apl_sys_name(int cp) {
  return cp >= APL_SYS_AND && cp < APL_SYS_END ? arena_printf("⎕%s", sys_names[cp - APL_SYS_AND]) : NULL;
}

/* ⎕NAME: a system function of the table, an AT_PRIM token; ⎕ alone (⎕←) is AT_QUAD */
static bool lex_quad(Lx *lx, AplToken *t) {
  bump(lx);
  const char *p = lx->p;
  while (isalnum((unsigned char)*lx->p)) bump(lx);
  if (lx->p == p) { t->kind = AT_QUAD; return true; }
  for (int i = 0; i < APL_SYS_END - APL_SYS_AND; i++)
    if (strlen(sys_names[i]) == (size_t)(lx->p - p) && strncmp(sys_names[i], p, (size_t)(lx->p - p)) == 0) {
      t->kind = AT_PRIM; t->cp = APL_SYS_AND + i;
      return true;
    }
  return diag_error(t->loc, "not supported yet: the system name ⎕%.*s (the subset has ⎕← and the bit operations "
                    "⎕INT32AND ⎕INT32OR ⎕INT32XOR ⎕INT32SHL ⎕INT32SHR ⎕INT32SHAR ⎕INT32NOT)", (int)(lx->p - p), p);
}

/* One token at lx->p (spaces and comments skipped by the caller). */
static bool lex_one(Lx *lx, AplToken *t) {
  int len, cp = peek(lx, &len);
  if (cp < 0) return diag_error(t->loc, "malformed UTF-8 (byte 0x%02x)", (unsigned char)*lx->p);
  const char *p = lx->p;
  if (isdigit((unsigned char)*p) || cp == CP_MACRON || (p[0] == '.' && is_digit_at(p + 1))) return lex_number(lx, t);
  if (cp == '\'') return lex_string(lx, t);
  if (isalpha((unsigned char)*p) || *p == '_' || cp == 0x2206 || cp == 0x2359) {   /* also ∆ ⍙ */
    for (;;) {
      int l2, c = peek(lx, &l2);
      if (!(c < 0x80 ? isalnum(c) || c == '_' : c == 0x2206 || c == 0x2359)) break;
      bump(lx);
    }
    t->kind = AT_NAME;
    t->text = arena_strndup(p, (size_t)(lx->p - p));
    return true;
  }
  if (cp == 0x237A || cp == 0x2375) {   /* ⍺⍺ ⍵⍵ */
    int l2;
    if (decode(p + len, &l2) == cp) {
      t->kind = cp == 0x237A ? AT_AA : AT_WW;
      bump(lx); bump(lx);
      return true;
    }
  }
  if (cp == 0x2395) return lex_quad(lx, t);
  for (size_t i = 0; i < sizeof punct / sizeof punct[0]; i++)
    if (punct[i].cp == cp) { t->kind = punct[i].kind; bump(lx); return true; }
  if (cp == CP_MINUS) cp = '-';
  if (is_glyph(cp)) { t->kind = AT_PRIM; t->cp = cp; bump(lx); return true; }
  if (cp >= 0x20 && cp < 0x7F) return diag_error(t->loc, "unknown glyph '%c'", cp);
  return diag_error(t->loc, "unknown glyph '%.*s' (U+%04X)", len, p, cp);
}

AplToken *apl_lex(const char *file, const char *text, int *ntokens) {
  Lx lx = { file, text, 1, 1 };
  int n = 0, cap = 0;
  AplToken *toks = NULL;
  for (;;) {
    for (;;) {   /* blanks and ⍝ comments (the newline ending one is a token) */
      int len, cp = peek(&lx, &len);
      if (*lx.p == ' ' || *lx.p == '\t' || *lx.p == '\r') bump(&lx);
      else if (cp == 0x235D) { while (*lx.p && *lx.p != '\n') bump(&lx); }
      else break;
    }
    AplToken t = { .loc = { file, lx.line, lx.col } };
    if (!*lx.p) { t.kind = AT_EOF; ARENA_PUSH(toks, n, cap, t); break; }
    if (!lex_one(&lx, &t)) return NULL;
    ARENA_PUSH(toks, n, cap, t);
  }
  *ntokens = n;
  return toks;
}

bool apl_is_file(const char *path) {
  size_t n = strlen(path);
  return n > 4 && strcmp(path + n - 4, ".apl") == 0;
}
