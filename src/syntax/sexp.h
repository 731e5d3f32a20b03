/* sexp.h — the S-expression reader: text to a tree of atoms and lists, each
   with its place. The parser (parse.c) gives the tree its meaning. */
#ifndef CLIFT_SEXP_H
#define CLIFT_SEXP_H
#include "../util/util.h"

typedef enum { SX_ATOM, SX_LIST, SX_HASH } SexpKind;   /* HASH: `#x`, kids[0] = x */
typedef struct Sexp Sexp;
struct Sexp {
  SexpKind kind;
  Loc loc;
  const char *text;      /* ATOM */
  int n;                 /* LIST/HASH */
  Sexp **kids;
};

/* Reads exactly one S-expression (comments and blanks around it allowed). */
Sexp *sexp_read(const char *file, const char *text);
bool sexp_is_atom(Sexp *s, const char *text);

#endif
