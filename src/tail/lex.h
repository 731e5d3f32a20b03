/* lex.h — tokens of the TAIL text (docs/apl.md §2.1), internal to src/tail. */
#ifndef CLIFT_TAIL_LEX_H
#define CLIFT_TAIL_LEX_H
#include "tail.h"

typedef enum {
  TK_EOF, TK_ID, TK_INT, TK_DOUBLE, TK_CHAR,
  TK_LPAREN, TK_RPAREN, TK_LBRACK, TK_RBRACK, TK_LT, TK_GT,
  TK_COMMA, TK_COLON, TK_EQ, TK_PLUS, TK_ARROW /* -> */, TK_DARROW /* => */,
  /* keywords (a table in lex.c) */
  TK_LET, TK_IN, TK_FN, TK_IF, TK_THEN, TK_ELSE, TK_TT, TK_FF
} TokKind;

typedef struct Token {
  TokKind kind;
  Loc loc;
  const char *text;   /* ID: the name */
  long long ival;     /* INT, CHAR */
  double dval;        /* DOUBLE */
} Token;

typedef struct Lexer {
  const char *file, *text, *p;
  int line, col;
  Token tok;          /* the current token */
  bool failed;        /* a diag was recorded */
} Lexer;

void tail_lex_init(Lexer *lx, const char *file, const char *text);
bool tail_lex_next(Lexer *lx);      /* advance; false + diag on a bad character */
const char *tail_token_name(TokKind k);

#endif
