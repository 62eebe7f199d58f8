/*
 * pyexpr_lex.h — the tokens of one line of Python (internal to pyexpr).
 */
#ifndef CLINIC_PYEXPR_LEX_H
#define CLINIC_PYEXPR_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

typedef enum TokKind {
    T_END, T_NEWLINE, T_NAME, T_NUMBER, T_STRING, T_OP, T_ERRORTOKEN,
} TokKind;

typedef struct Token {
    TokKind kind;
    size_t start, end;            /* offsets into the source */
    size_t body_start, body_end;  /* T_STRING: between the quotes */
    bool raw, bytes, u, fstring;  /* T_STRING prefix letters */
} Token;

typedef struct LexResult {
    const char *src;
    Token *toks;
    size_t ntoks;
    /* a tokenizer error (tokens are incomplete then) */
    bool error;
    size_t error_offset;
    const char *error_msg;
    bool error_newline;      /* SyntaxError.text keeps the newline */
    /* a bracket still open at the end (the parser's "was never closed") */
    bool unclosed;
    char unclosed_char;
    size_t unclosed_offset;
} LexResult;

/* Tokenizes src; false on a tokenizer error (described in *out). */
bool pylex(Arena *a, const char *src, LexResult *out);
/* Whether an operator or name token spells text. */
bool tok_is(const LexResult *lr, const Token *t, const char *text);

#endif
