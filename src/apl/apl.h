/* apl.h — the APL front-end (docs/apl.md §1, §2.4): the stages
     text ─apl_lex─▶ tokens ─apl_parse─▶ AST ─apl_elaborate─▶ TAIL (tail.h)
   after which TAIL's checker and lowering run as for a .tail file. Names get
   their role (function or value) while parsing, from their binding (Dyalog's
   rule); recursion is refused there; dfns are inlined by the elaborator at
   each call with the arguments' TAIL types. */
#ifndef CLIFT_APL_H
#define CLIFT_APL_H
#include "../tail/tail.h"

/* ---- tokens (lex.c) ---- */
typedef enum {
  AT_EOF, AT_SEP,          /* end of a statement: newline or ⋄ */
  AT_NUM, AT_STR, AT_NAME,
  AT_PRIM,                 /* a primitive function or operator glyph (cp) */
  AT_ASSIGN,               /* ← */
  AT_LPAREN, AT_RPAREN, AT_LBRACK, AT_RBRACK, AT_LBRACE, AT_RBRACE,
  AT_QUAD,                 /* ⎕ */
  AT_ALPHA, AT_OMEGA,      /* ⍺ ⍵ */
  AT_DEL,                  /* ∇ */
  AT_COLON, AT_SEMI,
  AT_ZILDE,                /* ⍬ */
  AT_AA, AT_WW             /* ⍺⍺ ⍵⍵: the operands of a dyadic operator */
} AplTokKind;

typedef struct AplToken {
  AplTokKind kind;
  Loc loc;                 /* col in code points */
  int cp;                  /* PRIM: the glyph's code point */
  const char *text;        /* NAME */
  bool is_int;             /* NUM */
  long long ival;
  double dval;
  int *cps; int ncps;      /* STR: the code points */
} AplToken;

/* The system functions of the bit operations (docs/apl.md §5, M6; apltail's
   names ⎕INT32AND …): lexed as AT_PRIM tokens whose cp is one of these
   private-use code points, so they are primitive scalar functions from the
   parser on. */
enum { APL_SYS_AND = 0xE000, APL_SYS_OR, APL_SYS_XOR, APL_SYS_SHL, APL_SYS_SHR, APL_SYS_SHAR, APL_SYS_NOT, APL_SYS_END };
/* "⎕INT32AND" … for such a cp, else NULL */
const char *apl_sys_name(int cp);

/* The whole text as tokens (ends with AT_EOF); NULL + diag on a bad character. */
AplToken *apl_lex(const char *file, const char *text, int *ntokens);

/* ---- the AST (parse.c) ---- */
typedef enum {
  /* values */
  AN_NUM,        /* a number */
  AN_STR,        /* 'abc': a char vector (one char: a scalar) */
  AN_STRAND,     /* kids: the items of a vector written by juxtaposition */
  AN_NAME,       /* a value name, ⍺ or ⍵ */
  AN_MONAD,      /* kids[0] function, kids[1] argument */
  AN_DYAD,       /* kids[0] function, kids[1] left, kids[2] right */
  AN_INDEX,      /* kids[0] array, kids[1] index */
  /* statements */
  AN_ASSIGN,     /* name ← kids[0] (a value or a function) */
  AN_OUTPUT,     /* ⎕← kids[0] */
  /* functions */
  AF_PRIM,       /* cp: a primitive function (also / ⌿ as compress) */
  AF_DFN,        /* kids: the statements of {…}; cp 1: it uses ⍺⍺ or ⍵⍵
                    (a dyadic operator) */
  AF_NAME,       /* a name bound to a function */
  AF_DERIVED,    /* cp: a monadic operator (/ ⌿ ¨) applied to kids[0];
                    ∘ (∘.f): the outer product of kids[0]; '.' (f.g): the
                    inner product of kids[0] and kids[1]; ⍣: kids[1] the
                    count; 0: the dyadic operator `name` (a dfn with ⍺⍺ ⍵⍵)
                    applied to kids[0] and kids[1] */
  AF_TRAIN       /* kids: (g h), an atop, or (f g h), a fork */
} AplKind;

typedef struct AplNode AplNode;
struct AplNode {
  AplKind kind;
  Loc loc;
  int cp;
  const char *name;
  bool is_int;
  long long ival;
  double dval;
  int *cps; int ncps;
  Loc start;     /* a strand item: where it starts (its '(' for a parenthesised one) */
  int nkids;
  AplNode **kids;
};

/* The program: its top-level statements. NULL + diag on a syntax error,
   an unknown name, recursion (∇ or a name used in its own definition). */
typedef struct AplProgram { int nstmts; AplNode **stmts; } AplProgram;
AplProgram *apl_parse(const char *file, const char *text);

/* ---- elaboration to TAIL (elab.c) ---- */
/* The TAIL program: a chain of lets whose printed values (the print
   operations) and final body are the outputs; *final says whether the body is
   an output (false when the last statement is an assignment or ⎕←). */
TExp *apl_elaborate(AplProgram *p, const char *file, bool *final);

/* The whole front end for a .apl file: parse, elaborate, then tail_compile. */
TExp *apl_to_tail(const char *file, const char *text, bool *final);
TailProgram *apl_compile_text(const char *file, const char *text);

/* Does the file name end in ".apl"? (the CLI dispatches on it) */
bool apl_is_file(const char *path);

#endif
