/* print.c — TAIL in the textual syntax tail_parse reads (docs/apl.md §2.1):
   one `let` per line, `fn` bodies inline, negatives with `~`, doubles in the
   shortest form that reads back exactly, with `.0` when integral. */
#include "tail.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_double(Buf *b, double d) {
  if (isinf(d)) { buf_puts(b, d < 0 ? "~inf" : "inf"); return; }
  char s[40];
  for (int digits = 15; digits <= 17; digits++) {
    snprintf(s, sizeof s, "%.*g", digits, fabs(d));
    if (strtod(s, NULL) == fabs(d)) break;
  }
  if (d < 0 || (d == 0 && signbit(d))) buf_putc(b, '~');
  for (const char *p = s; *p; p++) if (*p != '+') buf_putc(b, *p);
  if (!strpbrk(s, ".en")) buf_puts(b, ".0");
}

static void put_utf8(Buf *b, long long cp) {
  if (cp < 0x80) { buf_putc(b, (char)cp); return; }
  if (cp < 0x800) { buf_putc(b, (char)(0xC0 | cp >> 6)); }
  else {
    if (cp < 0x10000) buf_putc(b, (char)(0xE0 | cp >> 12));
    else { buf_putc(b, (char)(0xF0 | cp >> 18)); buf_putc(b, (char)(0x80 | (cp >> 12 & 0x3F))); }
    buf_putc(b, (char)(0x80 | (cp >> 6 & 0x3F)));
  }
  buf_putc(b, (char)(0x80 | (cp & 0x3F)));
}

static void print_list(Buf *b, TExp *e, char open, char close) {
  buf_putc(b, open);
  for (int i = 0; i < e->nkids; i++) {
    if (i) buf_putc(b, ',');
    tail_print(b, e->kids[i]);
  }
  buf_putc(b, close);
}

void tail_print(Buf *b, TExp *e) {
  switch (e->kind) {
  case TE_VAR: buf_puts(b, e->name); return;
  case TE_INT: if (e->ival < 0) buf_printf(b, "~%lld", -e->ival); else buf_printf(b, "%lld", e->ival); return;
  case TE_BOOL: buf_puts(b, e->ival ? "tt" : "ff"); return;
  case TE_CHAR: buf_putc(b, '\''); put_utf8(b, e->ival); buf_putc(b, '\''); return;
  case TE_DOUBLE: print_double(b, e->dval); return;
  case TE_VEC: print_list(b, e, '[', ']'); return;
  case TE_OP:
    buf_puts(b, e->op->name);
    if (e->applied) print_list(b, e, '(', ')');
    return;
  case TE_LET:
    buf_printf(b, "let %s:%s = ", e->name, ttype_to_string(e->ann));
    tail_print(b, e->kids[0]);
    buf_puts(b, " in\n");
    tail_print(b, e->kids[1]);
    return;
  case TE_FN:
    buf_printf(b, "fn %s:%s => ", e->name, ttype_to_string(e->ann));
    tail_print(b, e->kids[0]);
    return;
  case TE_IF:
    buf_puts(b, "if ");
    tail_print(b, e->kids[0]);
    buf_puts(b, " then ");
    tail_print(b, e->kids[1]);
    buf_puts(b, " else ");
    tail_print(b, e->kids[2]);
    return;
  }
}
