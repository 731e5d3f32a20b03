/* ast_print.c — the normalised program as an S-expression (clift check --dump),
   with binders suffixed by their uid so shadowing is visible. */
#include "ast.h"
#include "../prim/prim.h"

void ast_print(Buf *b, Expr *e) {
  switch (e->kind) {
  case EX_VAR: buf_printf(b, "%s", e->name); break;
  case EX_INT: buf_printf(b, "%lld", e->ival); break;
  case EX_LONG: buf_printf(b, "%lldL", e->ival); break;
  case EX_FLOAT: buf_printf(b, "%.9gf", e->fval); break;
  case EX_DOUBLE: buf_printf(b, "%.17g", e->fval); break;
  case EX_BOOL: buf_puts(b, e->ival ? "true" : "false"); break;
  case EX_NAT: buf_putc(b, '#'); nat_print_sexpr(b, e->nat); break;
  case EX_LAMBDA:
    buf_puts(b, "(lambda (");
    for (int i = 0; i < e->nparams; i++) buf_printf(b, "%s%s", i ? " " : "", e->params[i].name);
    buf_puts(b, ") ");
    ast_print(b, e->kids[0]);
    buf_putc(b, ')');
    break;
  case EX_LET: case EX_UNPACK:
    buf_printf(b, "(%s %s ", e->kind == EX_LET ? "let" : "unpack", e->name);
    ast_print(b, e->kids[0]);
    buf_putc(b, ' ');
    ast_print(b, e->kids[1]);
    buf_putc(b, ')');
    break;
  default: {
    const char *head = e->kind == EX_PRIM ? e->prim->name : e->kind == EX_IF ? "if"
                     : e->kind == EX_PACK ? "pack" : e->kind == EX_COMPOSE ? "o" : NULL;
    buf_putc(b, '(');
    if (head) buf_puts(b, head);
    for (int i = 0; i < e->nkids; i++) { if (head || i) buf_putc(b, ' '); ast_print(b, e->kids[i]); }
    buf_putc(b, ')');
  }
  }
}
