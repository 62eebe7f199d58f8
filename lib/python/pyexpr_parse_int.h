/*
 * pyexpr_parse_int.h — the parser's state, shared by pyexpr.c (the grammar)
 * and pyexpr_string.c (string and f-string literals).  Internal to pyexpr.
 */
#ifndef CLINIC_PYEXPR_PARSE_INT_H
#define CLINIC_PYEXPR_PARSE_INT_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "python/pyexpr.h"
#include "python/pyexpr_lex.h"
#include "base/strbuf.h"

typedef struct Parser {
    Arena *a;
    LexResult lx;
    size_t pos;
    jmp_buf fail;
    const char *msg;
    size_t err_offset, err_end;
    bool err_at_end;
    int depth;            /* nesting of unary operators, lambdas, ... */
    /* f-string buffers in use, released if a syntax error unwinds */
    StrBuf *held[32];
    int nheld;
} Parser;

/* A growable array of expressions. */
typedef struct ExprList {
    PyExpr **items;
    size_t n, cap;
} ExprList;

/* Raises SyntaxError(msg) at the current token: longjmps to p->fail. */
_Noreturn void px_syntax_error(Parser *p, const char *msg);
const Token *px_tok(const Parser *p);
/* A new node; px_finish() records its source span up to the last token. */
PyExpr *px_node(Parser *p, PyExprKind kind, size_t start_tok);
PyExpr *px_finish(Parser *p, PyExpr *e, size_t start_tok);
void px_list_push(Parser *p, ExprList *l, PyExpr *e);
/* Frees the f-string buffers still held when a syntax error unwinds. */
void px_release_held(Parser *p);
PyExpr *px_parse_star_expressions(Parser *p);

/* One or more adjacent string literals at the current token (a Constant,
   or a JoinedStr when any is an f-string). */
PyExpr *px_string_literals(Parser *p);

/* The grammar's entry points, for the statement parser (pyvm_parse.c):
   token tests, one expression ("expression", "named_expression"), the
   targets of a for loop, marking assignment targets (SyntaxError when an
   expression cannot be one), and a def's or lambda's parameters. */
bool px_at(const Parser *p, const char *text);
bool px_accept(Parser *p, const char *text);
void px_expect(Parser *p, const char *text);
bool px_at_name(const Parser *p);
const char *px_take_name(Parser *p);
PyExpr *px_parse_expression(Parser *p);
PyExpr *px_parse_named_expression(Parser *p);
PyExpr *px_parse_for_targets(Parser *p);
void px_set_store(Parser *p, PyExpr *e);
PyArguments *px_parse_parameters(Parser *p, bool annotations,
                                 const char *closer);

#endif
