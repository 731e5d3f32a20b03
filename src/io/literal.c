/* literal.c — value_parse: the input literal syntax of SPEC §7, read against the
   parameter's type (docs/values.md). Scalars `3`, `-2.5`, `1e-3`, `1.5f`, `inf`,
   `nan`, `true`; arrays `[a, b]`; tuples `(a, b)`; vectors `<a, b, c, d>`.
   The type drives the parse, so each error can say what was expected, what was
   found and where (a character offset into the text). */
#include "value.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct Parser {
  const char *text, *p, *what;
  /* One scratch stack of element pointers shared by every nesting level: an array
     pushes its elements, then copies them out exactly sized and pops. Amortised
     O(1) per element, so 10^6-element inputs stay linear. */
  Value **stack;
  size_t len, cap;
  /* Flat mode, for a regular array of scalars (value.h): each scalar is appended
     to `data` instead of becoming a Value, and each
     nesting depth records its length; an array whose length differs from the first
     one seen at its depth is ragged, and value_parse parses again boxed (the
     driver then reports the wrong length with its path). */
  bool flat, ragged;
  ValueKind leaf;
  unsigned char *data;   /* in the arena, sized by counting commas: no growing, no copy */
  size_t count, flat_cap;
  int depth;
  int64_t shape[33];
  bool seen[33];
  Value sentinel;   /* what flat mode returns for "parsed" */
} Parser;

/* A parsed scalar: a new Value, or appended to the flat buffer. */
static Value *scalar(Parser *P, Value v) {
  if (!P->flat) { Value *x = NEW(Value); *x = v; return x; }
  if (P->count == P->flat_cap) { P->ragged = true; return &P->sentinel; }   /* more scalars than counted: parse boxed */
  unsigned char *at = P->data + P->count++ * value_scalar_size(P->leaf);
  switch (v.kind) {
  case VAL_INT:    memcpy(at, &v.s.i, 4); break;
  case VAL_LONG:   memcpy(at, &v.s.l, 8); break;
  case VAL_FLOAT:  memcpy(at, &v.s.f, 4); break;
  case VAL_DOUBLE: memcpy(at, &v.s.d, 8); break;
  default:         *at = v.s.b ? 1 : 0; break;
  }
  return &P->sentinel;
}

static void push(Parser *P, Value *v) {
  if (P->len == P->cap) {
    size_t cap = P->cap ? P->cap * 2 : 1024;
    Value **s = NEW_ARRAY(Value *, cap);
    if (P->len) memcpy(s, P->stack, sizeof(Value *) * P->len);
    P->stack = s; P->cap = cap;
  }
  P->stack[P->len++] = v;
}

static void skip_space(Parser *P) { while (isspace((unsigned char)*P->p)) P->p++; }

static bool is_word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static bool word_at(const char *p, const char *w) {
  size_t n = strlen(w);
  return strncmp(p, w, n) == 0 && !is_word_char(p[n]);
}

/* Where: the offset, plus line and column when the text (an @file) has lines. */
static const char *where(Parser *P, const char *at) {
  long off = (long)(at - P->text);
  if (!memchr(P->text, '\n', (size_t)off)) return arena_printf("at offset %ld", off);
  int line = 1;
  const char *bol = P->text;
  for (const char *q = P->text; q < at; q++) if (*q == '\n') { line++; bol = q + 1; }
  return arena_printf("at offset %ld (line %d, column %ld)", off, line, (long)(at - bol) + 1);
}

/* A number token: [+-] digits [. digits] [e [+-] digits] [f], or [+-]inf/nan.
   Returns its end, or NULL when none starts at s; *is_float when it is not a
   plain integer (so an int parameter can reject it). */
static const char *scan_number(const char *s, bool *is_float) {
  const char *p = s;
  *is_float = false;
  if (*p == '+' || *p == '-') p++;
  if ((*p == 'i' && word_at(p, "inf")) || (*p == 'n' && word_at(p, "nan"))) { *is_float = true; return p + 3; }
  const char *digits = p;
  while (isdigit((unsigned char)*p)) p++;
  bool whole = p > digits;
  if (*p == '.') {
    const char *frac = ++p;
    while (isdigit((unsigned char)*p)) p++;
    if (!whole && p == frac) return NULL;
    *is_float = true;
  } else if (!whole) {
    return NULL;
  }
  if (*p == 'e' || *p == 'E') {
    const char *e = p + 1;
    if (*e == '+' || *e == '-') e++;
    if (isdigit((unsigned char)*e)) {
      while (isdigit((unsigned char)*e)) e++;
      p = e; *is_float = true;
    }
  }
  if (*p == 'f' && !is_word_char(p[1])) { p++; *is_float = true; }
  return p;
}

/* The token at p for messages: a run of characters up to a space or delimiter. */
static const char *token_text(const char *p) {
  const char *e = p;
  if (strchr("[]()<>,", *e)) e++;
  else while (*e && !isspace((unsigned char)*e) && !strchr("[]()<>,", *e)) e++;
  if (e - p > 24) return arena_printf("%.24s...", p);
  return arena_strndup(p, (size_t)(e - p));
}

/* True when the number token ending at e is not glued to more text ("1.5x"). */
static bool number_ends_cleanly(const char *e) {
  return !is_word_char(*e) && *e != '.' && *e != '+' && *e != '-';
}

static const char *describe_found(const char *p) {
  bool is_float;
  const char *e;
  switch (*p) {
  case 0:   return "the end of the input";
  case '[': return "an array '['";
  case '(': return "a tuple '('";
  case '<': return "a vector '<'";
  default:
    e = scan_number(p, &is_float);
    if (e && number_ends_cleanly(e)) return arena_printf("a number '%s'", token_text(p));
    return arena_printf("'%s'", token_text(p));
  }
}

static const char *describe_type(Type *t) {
  switch (t->kind) {
  case TY_INT:    return "an int";
  case TY_LONG:   return "a long";
  case TY_FLOAT:  return "a float";
  case TY_DOUBLE: return "a double";
  case TY_BOOL:   return "a bool (true or false)";
  case TY_IDX:    return arena_printf("an index (%s, a non-negative int)", type_to_string(t));
  case TY_ARRAY:
    return arena_printf("an array of %s (%s)", type_to_string(t->elem), type_to_string(t));
  case TY_EXISTS:
    return arena_printf("an array of %s (%s)", type_to_string(t->array->elem), type_to_string(t));
  case TY_TUPLE:  return arena_printf("a tuple %s", type_to_string(t));
  case TY_VECTOR: return arena_printf("a vector %s (<a, b, ...>)", type_to_string(t));
  }
  return "a value";
}

static Value *expected(Parser *P, Type *t) {
  diag_error(LOC_NONE, "%s: expected %s, found %s %s", P->what, describe_type(t),
             describe_found(P->p), where(P, P->p));
  return NULL;
}

/* Copy a number token so strtod sees exactly it (no hex floats, no "infinity"). */
static const char *number_copy(const char *s, const char *e, char *small, size_t cap) {
  size_t n = (size_t)(e - s);
  if (n > 0 && e[-1] == 'f' && !(n >= 3 && strncmp(e - 3, "inf", 3) == 0)) n--;
  if (n < cap) { memcpy(small, s, n); small[n] = 0; return small; }
  return arena_strndup(s, n);
}

static Value *parse_integer(Parser *P, TypeKind kind, Type *t, const char *s, const char *e) {
  char small[64];
  const char *tok = number_copy(s, e, small, sizeof small);
  errno = 0;
  long long x = strtoll(tok, NULL, 10);
  bool in_range = errno != ERANGE &&
                  (kind == TY_LONG || (x >= INT32_MIN && x <= INT32_MAX));
  if (!in_range) {
    diag_error(LOC_NONE, "%s: %s literal '%s' %s is out of range for %s", P->what,
               type_scalar_name(kind == TY_LONG ? TY_LONG : TY_INT), tok, where(P, s),
               type_to_string(t));
    return NULL;
  }
  if (t->kind == TY_IDX && x < 0) { P->p = s; return expected(P, t); }
  P->p = e;
  return kind == TY_LONG ? scalar(P, (Value){ .kind = VAL_LONG, .s.l = x })
                         : scalar(P, (Value){ .kind = VAL_INT, .s.i = (int32_t)x });
}

/* Floats go through strtof/strtod on the token itself, never via an integer, so
   `-0` keeps its sign and every %.9g / %.17g print reads back bit-exactly. */
static Value *parse_floating(Parser *P, TypeKind kind, const char *s, const char *e) {
  char small[64];
  const char *tok = number_copy(s, e, small, sizeof small);
  Value v;
  bool overflow;
  if (kind == TY_FLOAT) {
    float x = strtof(tok, NULL);
    overflow = isinf(x) && !strstr(tok, "inf");
    v = (Value){ .kind = VAL_FLOAT, .s.f = x };
  } else {
    double x = strtod(tok, NULL);
    overflow = isinf(x) && !strstr(tok, "inf");
    v = (Value){ .kind = VAL_DOUBLE, .s.d = x };
  }
  if (overflow) {
    diag_error(LOC_NONE, "%s: literal '%s' %s is out of range for %s (write inf if meant)",
               P->what, tok, where(P, s), type_scalar_name(kind));
    return NULL;
  }
  P->p = e;
  return scalar(P, v);
}

static Value *parse_scalar(Parser *P, Type *t) {
  TypeKind kind = t->kind == TY_IDX ? TY_INT : t->kind;
  const char *s = P->p;
  if (kind == TY_BOOL) {
    if (word_at(s, "true"))  { P->p += 4; return scalar(P, (Value){ .kind = VAL_BOOL, .s.b = true }); }
    if (word_at(s, "false")) { P->p += 5; return scalar(P, (Value){ .kind = VAL_BOOL, .s.b = false }); }
    return expected(P, t);
  }
  bool is_float;
  const char *e = scan_number(s, &is_float);
  if (e && !is_float && kind == TY_LONG && *e == 'L' && number_ends_cleanly(e + 1)) {   /* 5L, as in programs */
    Value *v = parse_integer(P, kind, t, s, e);
    if (v) P->p = e + 1;
    return v;
  }
  if (!e || !number_ends_cleanly(e)) return expected(P, t);
  if (kind == TY_FLOAT || kind == TY_DOUBLE) return parse_floating(P, kind, s, e);
  if (is_float) {
    diag_error(LOC_NONE, "%s: expected %s, found a float literal '%s' %s", P->what,
               describe_type(t), token_text(s), where(P, s));
    return NULL;
  }
  return parse_integer(P, kind, t, s, e);
}

static Value *parse_value(Parser *P, Type *t);

/* The element or field type at position i of an aggregate literal. */
typedef Type *(*ItemType)(Type *t, int64_t i);
static Type *array_item(Type *t, int64_t i) { (void)i; return t->elem; }
static Type *tuple_item(Type *t, int64_t i) { return t->fields[i]; }
static Type *vector_item(Type *t, int64_t i) { (void)i; return t->elem; }

/* A bracketed, comma-separated sequence. `count` is the exact number of items
   for tuples and vectors, -1 for arrays (their lengths are the driver's to check). */
static Value *parse_sequence(Parser *P, Type *t, Type *shown, ValueKind kind, char open,
                             char close, int64_t count, ItemType item) {
  if (*P->p != open) return expected(P, shown);
  const char *start = P->p++;
  size_t base = P->len;
  skip_space(P);
  int64_t n = 0;
  int depth = P->depth++;
  if (*P->p != close) {
    for (;;) {
      if (count >= 0 && n == count) {
        diag_error(LOC_NONE, "%s: %s has %lld %s, found more %s", P->what, describe_type(shown),
                   (long long)count, kind == VAL_TUPLE ? "fields" : "lanes", where(P, P->p));
        return NULL;
      }
      Value *v = parse_value(P, item(t, n));
      if (!v) return NULL;
      if (!P->flat) push(P, v);
      n++;
      skip_space(P);
      if (*P->p == close) break;
      if (*P->p != ',') {
        diag_error(LOC_NONE, "%s: expected ',' or '%c' after item %lld of %s (opened %s), found %s %s",
                   P->what, close, (long long)n, describe_type(shown), where(P, start),
                   describe_found(P->p), where(P, P->p));
        return NULL;
      }
      P->p++;
      skip_space(P);
    }
  }
  if (count >= 0 && n != count) {
    diag_error(LOC_NONE, "%s: expected %s with %lld %s, found %lld %s", P->what,
               describe_type(shown), (long long)count, kind == VAL_TUPLE ? "fields" : "lanes",
               (long long)n, where(P, start));
    return NULL;
  }
  P->p++;
  P->depth = depth;
  if (P->flat) {
    if (!P->seen[depth]) { P->seen[depth] = true; P->shape[depth] = n; }
    else if (P->shape[depth] != n) P->ragged = true;
    return &P->sentinel;
  }
  Value *v = kind == VAL_ARRAY ? value_array(n) : kind == VAL_TUPLE ? value_tuple((int)n)
                                                                    : value_vector((int)n);
  if (n) memcpy(v->elems, P->stack + base, sizeof(Value *) * (size_t)n);
  P->len = base;
  return v;
}

static Value *parse_value(Parser *P, Type *t) {
  skip_space(P);
  switch (t->kind) {
  case TY_ARRAY:  return parse_sequence(P, t, t, VAL_ARRAY, '[', ']', -1, array_item);
  case TY_EXISTS: return parse_sequence(P, t->array, t, VAL_ARRAY, '[', ']', -1, array_item);
  case TY_TUPLE:  return parse_sequence(P, t, t, VAL_TUPLE, '(', ')', t->n, tuple_item);
  case TY_VECTOR: return parse_sequence(P, t, t, VAL_VECTOR, '<', '>', t->width, vector_item);
  default:        return parse_scalar(P, t);
  }
}

/* Whether values of type t are parsed flat: arrays (no positions) of scalars. */
static bool flat_type(Type *t, ValueKind *leaf, int *rank) {
  *rank = 0;
  for (;; (*rank)++) {
    if (t->kind == TY_EXISTS) t = t->array;
    if (t->kind != TY_ARRAY) break;
    if (t->index) return false;
    t = t->elem;
  }
  if (*rank == 0 || *rank > 32 || (!type_is_scalar(t) && t->kind != TY_IDX)) return false;
  *leaf = value_kind_of_scalar(t->kind);
  return true;
}

static Value *parse_all(Parser *P, Type *type) {
  Value *v = parse_value(P, type);
  if (!v) return NULL;
  skip_space(P);
  if (*P->p) {
    diag_error(LOC_NONE, "%s: unexpected '%s' after the value %s", P->what, token_text(P->p),
               where(P, P->p));
    return NULL;
  }
  return v;
}

/* The flat value of a flat-mode parse (shape: depths never reached, under an
   empty array, have length 0). */
static Value *flat_value(Parser *P, int rank) {
  for (int d = 0; d < rank; d++) if (!P->seen[d]) P->shape[d] = 0;
  return value_flat_over(P->leaf, rank, P->shape, P->data);
}

/* An array of n scalars has n - 1 commas between them, so commas + 1 bounds the
   scalars of any nesting: the flat buffer is allocated once, exactly enough. */
static bool flat_buffer(Parser *P) {
  size_t commas = 0;
  for (const char *q = P->text; (q = strchr(q, ',')); q++) commas++;
  size_t bytes = (commas + 1) * value_scalar_size(P->leaf);
  if (!(P->data = arena_try_alloc(bytes)))
    return diag_error(LOC_NONE, "%s: out of memory: cannot allocate %zu bytes for the parsed values", P->what, bytes);
  P->flat_cap = commas + 1;
  return true;
}

Value *value_parse(const char *text, Type *type, const char *what) {
  Parser P = { .text = text, .p = text, .what = what ? what : "input" };
  int rank;
  if (flat_type(type, &P.leaf, &rank)) {
    P.flat = true;
    ArenaMark before = arena_mark();
    if (!flat_buffer(&P)) return NULL;
    Value *v = parse_all(&P, type);
    if (v && !P.ragged) return flat_value(&P, rank);
    if (!v) return NULL;
    arena_release(before);
    P = (Parser){ .text = text, .p = text, .what = P.what };   /* ragged: boxed, so the driver can say where */
  }
  return parse_all(&P, type);
}

/* ---- @file literals: a flat array read in chunks ----
   An input file of 10^7 numbers as text is several times the size of its
   values, so value_parse_file does not hold the text: a regular file whose type
   is flat is read twice in 1 MiB chunks, once to count commas (the buffer's
   size, as in flat_buffer), once to parse. This streaming parser only succeeds
   or gives up: on anything unusual — a syntax error, a ragged array, a number
   out of range, a token longer than the lookahead, a file that is not regular —
   the whole text is read and value_parse runs, so every error message is the
   one value_parse gives. */

enum { STREAM_CHUNK = 1 << 20, STREAM_LOOKAHEAD = 256 };

typedef struct Stream {
  FILE *f;
  char *buf;            /* buf[at..len) is unread, buf[len] == 0 */
  size_t len, at;
  bool eof;             /* end of file, or a NUL byte (where the text would end) */
} Stream;

/* At least STREAM_LOOKAHEAD unread bytes, or all that is left. */
static bool stream_fill(Stream *S) {
  if (S->eof || S->len - S->at >= STREAM_LOOKAHEAD) return true;
  memmove(S->buf, S->buf + S->at, S->len - S->at);
  S->len -= S->at;
  S->at = 0;
  while (!S->eof && S->len < STREAM_LOOKAHEAD) {
    size_t n = fread(S->buf + S->len, 1, STREAM_CHUNK - S->len, S->f);
    char *nul = memchr(S->buf + S->len, 0, n);
    S->len = nul ? (size_t)(nul - S->buf) : S->len + n;
    if (nul || n == 0) S->eof = true;
  }
  S->buf[S->len] = 0;
  return !ferror(S->f);
}

static char stream_peek(Stream *S) { return stream_fill(S) ? S->buf[S->at] : 0; }

static bool stream_space(Stream *S) {
  while (isspace((unsigned char)stream_peek(S))) S->at++;
  return !ferror(S->f);
}

/* One scalar of kind k (TY_IDX: a non-negative int) — exactly what parse_scalar
   accepts, or false. */
static bool stream_scalar(Parser *P, Stream *S, TypeKind k) {
  if (!stream_fill(S)) return false;
  const char *s = S->buf + S->at, *e;
  Value v = { .kind = value_kind_of_scalar(k) };
  if (k == TY_BOOL) {
    if (word_at(s, "true")) v.s.b = true, e = s + 4;
    else if (word_at(s, "false")) v.s.b = false, e = s + 5;
    else return false;
  } else {
    bool is_float;
    char tok[64];
    if (!(e = scan_number(s, &is_float)) || !number_ends_cleanly(e) || (size_t)(e - s) >= sizeof tok) return false;
    number_copy(s, e, tok, sizeof tok);
    errno = 0;
    if (k == TY_FLOAT || k == TY_DOUBLE) {
      if (k == TY_FLOAT) v.s.f = strtof(tok, NULL); else v.s.d = strtod(tok, NULL);
      if ((k == TY_FLOAT ? isinf(v.s.f) : isinf(v.s.d)) && !strstr(tok, "inf")) return false;
    } else {
      long long x = strtoll(tok, NULL, 10);
      if (is_float || errno == ERANGE || (k != TY_LONG && (x < (k == TY_IDX ? 0 : INT32_MIN) || x > INT32_MAX)))
        return false;
      if (k == TY_LONG) v.s.l = x; else v.s.i = (int32_t)x;
    }
  }
  S->at += (size_t)(e - s);
  return scalar(P, v) != NULL;
}

static bool stream_value(Parser *P, Stream *S, int depth, int rank, TypeKind k) {
  if (!stream_space(S)) return false;
  if (depth == rank) return stream_scalar(P, S, k);
  if (stream_peek(S) != '[') return false;
  S->at++;
  int64_t n = 0;
  if (!stream_space(S)) return false;
  if (stream_peek(S) != ']') {
    for (;;) {
      if (!stream_value(P, S, depth + 1, rank, k)) return false;
      n++;
      if (!stream_space(S)) return false;
      char c = stream_peek(S);
      if (c == ']') break;
      if (c != ',') return false;
      S->at++;
    }
  }
  S->at++;
  if (!P->seen[depth]) { P->seen[depth] = true; P->shape[depth] = n; }
  return P->shape[depth] == n && !P->ragged;
}

/* Commas up to the end of the text (a NUL or the end of file). */
static bool stream_count_commas(FILE *f, char *buf, size_t *commas) {
  size_t n;
  *commas = 0;
  while ((n = fread(buf, 1, STREAM_CHUNK, f)) > 0) {
    char *nul = memchr(buf, 0, n);
    if (nul) n = (size_t)(nul - buf);
    for (char *q = buf; (q = memchr(q, ',', n - (size_t)(q - buf))); q++) (*commas)++;
    if (nul) break;
  }
  return !ferror(f) && fseek(f, 0, SEEK_SET) == 0;
}

/* The flat value in the file, or NULL (no diagnostic) to say "use value_parse". */
static Value *stream_flat(Parser *P, const char *path, Type *type, int rank) {
  Type *leaf = type;
  for (int d = 0; d < rank; d++) leaf = (leaf->kind == TY_EXISTS ? leaf->array : leaf)->elem;
  struct stat st;
  Stream S = { fopen(path, "rb"), malloc(STREAM_CHUNK + 1), 0, 0, false };
  Value *v = NULL;
  size_t commas;
  if (S.f && S.buf && fstat(fileno(S.f), &st) == 0 && S_ISREG(st.st_mode) && stream_count_commas(S.f, S.buf, &commas)) {
    size_t bytes = (commas + 1) * value_scalar_size(P->leaf);
    P->flat_cap = commas + 1;
    if ((P->data = arena_try_alloc(bytes)) && stream_value(P, &S, 0, rank, leaf->kind) && stream_space(&S)
        && stream_peek(&S) == 0 && !P->ragged)
      v = flat_value(P, rank);
  }
  if (S.f) fclose(S.f);
  free(S.buf);
  return v;
}

Value *value_parse_file(const char *path, Type *type, const char *what) {
  Parser P = { .what = what ? what : "input", .flat = true };
  int rank;
  if (flat_type(type, &P.leaf, &rank)) {
    ArenaMark before = arena_mark();
    Value *v = stream_flat(&P, path, type, rank);
    if (v) return v;
    arena_release(before);
  }
  char *text = util_read_file(path, NULL);
  if (!text) {   /* "input 1 (xs): cannot open 'x.txt': reason" */
    const char *why = arena_strdup(diag_message());
    diag_clear();
    diag_error(LOC_NONE, "%s: %s", P.what, why);
    return NULL;
  }
  return value_parse(text, type, P.what);
}
