/* lex.c — the tokens of FCL's concrete syntax (docs/fcl.md §1.1): names (with
   primes, as the thesis's arr'), type variables 'a, numbers, operators, and
   `--` comments to the end of the line. Columns count code points. */
#include "fcl.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *word; FTokKind kind; } keywords[] = {
  { "sig", FT_SIG }, { "fun", FT_FUN }, { "val", FT_VAL }, { "fn", FT_FN }, { "let", FT_LET },
  { "in", FT_IN }, { "end", FT_END }, { "if", FT_IF }, { "then", FT_THEN }, { "else", FT_ELSE },
  { "do", FT_DO }, { "forall", FT_FORALL }, { "true", FT_TRUE }, { "false", FT_FALSE },
};

static const struct { FTokKind kind; const char *name; } names[] = {
  { FT_EOF, "end of input" }, { FT_ID, "a name" }, { FT_TYVAR, "a type variable" }, { FT_INT, "an integer" },
  { FT_DOUBLE, "a double" }, { FT_LPAREN, "'('" }, { FT_RPAREN, "')'" }, { FT_LBRACK, "'['" },
  { FT_RBRACK, "']'" }, { FT_LBRACE, "'{'" }, { FT_RBRACE, "'}'" }, { FT_COMMA, "','" }, { FT_SEMI, "';'" },
  { FT_COLON, "':'" }, { FT_DOT, "'.'" }, { FT_EQ, "'='" }, { FT_ARROW, "'->'" }, { FT_DARROW, "'=>'" },
  { FT_LARROW, "'<-'" }, { FT_PIPE, "'|>'" }, { FT_HASH_BLOCKSIZE, "'#BlockSize'" }, { FT_OP, "an operator" },
  { FT_SIG, "'sig'" }, { FT_FUN, "'fun'" }, { FT_VAL, "'val'" }, { FT_FN, "'fn'" }, { FT_LET, "'let'" },
  { FT_IN, "'in'" }, { FT_END, "'end'" }, { FT_IF, "'if'" }, { FT_THEN, "'then'" }, { FT_ELSE, "'else'" },
  { FT_DO, "'do'" }, { FT_FORALL, "'forall'" }, { FT_TRUE, "'true'" }, { FT_FALSE, "'false'" },
};

const char *fcl_token_name(FTokKind k) {
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) if (names[i].kind == k) return names[i].name;
  return "a token";
}

/* longest first: "<-" before "<=" before "<" does not matter, but "<<" must
   come before "<" and "|>" before "|" */
static const struct { const char *text; FTokKind kind; } puncts[] = {
  { "|>", FT_PIPE }, { "->", FT_ARROW }, { "=>", FT_DARROW }, { "<-", FT_LARROW },
  { "==", FT_OP }, { "!=", FT_OP }, { "<=", FT_OP }, { ">=", FT_OP }, { "<<", FT_OP }, { ">>", FT_OP },
  { "&&", FT_OP }, { "||", FT_OP },
  { "(", FT_LPAREN }, { ")", FT_RPAREN }, { "[", FT_LBRACK }, { "]", FT_RBRACK }, { "{", FT_LBRACE },
  { "}", FT_RBRACE }, { ",", FT_COMMA }, { ";", FT_SEMI }, { ":", FT_COLON }, { ".", FT_DOT }, { "=", FT_EQ },
  { "<", FT_OP }, { ">", FT_OP }, { "+", FT_OP }, { "-", FT_OP }, { "*", FT_OP }, { "/", FT_OP }, { "%", FT_OP },
};

typedef struct Lex { const char *file, *p; int line, col; } Lex;

static void bump(Lex *lx) {
  if (*lx->p == '\n') { lx->line++; lx->col = 1; }
  else if (((unsigned char)*lx->p & 0xC0) != 0x80) lx->col++;
  lx->p++;
}

static void skip_space(Lex *lx) {
  for (;;) {
    while (*lx->p && isspace((unsigned char)*lx->p)) bump(lx);
    if (lx->p[0] != '-' || lx->p[1] != '-') return;
    while (*lx->p && *lx->p != '\n') bump(lx);
  }
}

static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '\''; }

/* A number: digits, then optionally .digits and an exponent (a double). */
static bool lex_number(Lex *lx, FToken *t) {
  const char *s = lx->p;
  bool dbl = false;
  while (isdigit((unsigned char)*lx->p)) bump(lx);
  if (lx->p[0] == '.' && isdigit((unsigned char)lx->p[1])) {
    dbl = true;
    bump(lx);
    while (isdigit((unsigned char)*lx->p)) bump(lx);
  }
  if ((*lx->p == 'e' || *lx->p == 'E') &&
      (isdigit((unsigned char)lx->p[1]) || ((lx->p[1] == '-' || lx->p[1] == '+') && isdigit((unsigned char)lx->p[2])))) {
    dbl = true;
    bump(lx); bump(lx);
    while (isdigit((unsigned char)*lx->p)) bump(lx);
  }
  char *text = arena_strndup(s, (size_t)(lx->p - s));
  errno = 0;
  if (dbl) { t->kind = FT_DOUBLE; t->dval = strtod(text, NULL); }
  else {
    t->kind = FT_INT;
    t->ival = strtoll(text, NULL, 10);
    if (errno == ERANGE || t->ival > 2147483647LL)
      return diag_error(t->loc, "integer literal %s does not fit in an int (32 bits)", text);
  }
  if (is_name_char(*lx->p)) return diag_error(t->loc, "a number followed by '%c'", *lx->p);
  return true;
}

FToken *fcl_lex(const char *file, const char *text, int *ntok) {
  Lex lx = { file, text, 1, 1 };
  FToken *toks = NULL;
  int n = 0, cap = 0;
  for (;;) {
    skip_space(&lx);
    FToken t = { .loc = { file, lx.line, lx.col } };
    const char *s = lx.p;
    if (!*s) { t.kind = FT_EOF; ARENA_PUSH(toks, n, cap, t); break; }
    if (isalpha((unsigned char)*s) || *s == '_') {
      while (is_name_char(*lx.p)) bump(&lx);
      t.kind = FT_ID;
      t.text = arena_strndup(s, (size_t)(lx.p - s));
      for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
        if (strcmp(t.text, keywords[k].word) == 0) t.kind = keywords[k].kind;
    } else if (*s == '\'' && (isalpha((unsigned char)s[1]) || s[1] == '_')) {
      bump(&lx);
      while (is_name_char(*lx.p)) bump(&lx);
      t.kind = FT_TYVAR;
      t.text = arena_strndup(s, (size_t)(lx.p - s));
    } else if (isdigit((unsigned char)*s)) {
      if (!lex_number(&lx, &t)) return NULL;
    } else if (*s == '#') {
      bump(&lx);
      while (is_name_char(*lx.p)) bump(&lx);
      if (lx.p - s != 10 || strncmp(s, "#BlockSize", 10) != 0)
        return diag_error(t.loc, "unknown '%.*s' (the only # name is #BlockSize)", (int)(lx.p - s), s), NULL;
      t.kind = FT_HASH_BLOCKSIZE;
    } else {
      size_t k = 0;
      for (; k < sizeof puncts / sizeof puncts[0]; k++)
        if (strncmp(s, puncts[k].text, strlen(puncts[k].text)) == 0) break;
      if (k == sizeof puncts / sizeof puncts[0]) {
        if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f) diag_error(t.loc, "unexpected character '%c'", *s);
        else diag_error(t.loc, "unexpected byte 0x%02x", (unsigned char)*s);
        return NULL;
      }
      for (size_t m = strlen(puncts[k].text); m > 0; m--) bump(&lx);
      t.kind = puncts[k].kind;
      t.text = puncts[k].text;
    }
    ARENA_PUSH(toks, n, cap, t);
  }
  *ntok = n;
  return toks;
}
