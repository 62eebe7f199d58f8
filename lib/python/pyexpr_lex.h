/*
 * pyexpr_lex.h — the tokens of one line of Python (internal to pyexpr).
 */
#ifndef CLINIC_PYEXPR_LEX_H
#define CLINIC_PYEXPR_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"

typedef enum TokKind {
    T_END, T_NEWLINE, T_NAME, T_NUMBER, T_STRING, T_OP, T_ERRORTOKEN,
} TokKind;

/* What an operator or keyword token spells, set by the lexer so that the
   parser's "is this token ','" is one integer compare: every T_OP token
   has an OP_ code, a T_NAME token a KW_ code when it is a keyword (else
   TC_NONE, as have all other tokens). */
typedef enum TokCode {
    TC_NONE,
    OP_POWEQ, OP_FLOORDIVEQ, OP_RSHIFTEQ, OP_LSHIFTEQ, OP_ELLIPSIS,
    OP_ARROW, OP_WALRUS, OP_POW, OP_FLOORDIV, OP_LSHIFT, OP_RSHIFT,
    OP_LE, OP_GE, OP_EQ, OP_NE, OP_PLUSEQ, OP_MINUSEQ, OP_STAREQ,
    OP_SLASHEQ, OP_PERCENTEQ, OP_AMPEQ, OP_PIPEEQ, OP_CARETEQ, OP_ATEQ,
    OP_PLUS, OP_MINUS, OP_STAR, OP_SLASH, OP_PERCENT, OP_AT, OP_AMP,
    OP_PIPE, OP_CARET, OP_TILDE, OP_LT, OP_GT, OP_LPAR, OP_RPAR, OP_LSQB,
    OP_RSQB, OP_LBRACE, OP_RBRACE, OP_COMMA, OP_COLON, OP_SEMI, OP_DOT,
    OP_EQUAL,
    KW_FALSE, KW_NONE, KW_TRUE, KW_AND, KW_AS, KW_ASSERT, KW_ASYNC,
    KW_AWAIT, KW_BREAK, KW_CLASS, KW_CONTINUE, KW_DEF, KW_DEL, KW_ELIF,
    KW_ELSE, KW_EXCEPT, KW_FINALLY, KW_FOR, KW_FROM, KW_GLOBAL, KW_IF,
    KW_IMPORT, KW_IN, KW_IS, KW_LAMBDA, KW_NONLOCAL, KW_NOT, KW_OR,
    KW_PASS, KW_RAISE, KW_RETURN, KW_TRY, KW_WHILE, KW_WITH, KW_YIELD,
    TC_COUNT
} TokCode;

#define TC_FIRST_KEYWORD KW_FALSE

typedef struct Token {
    size_t start, end;            /* offsets into the source */
    size_t body_start, body_end;  /* T_STRING: between the quotes */
    unsigned char kind;           /* a TokKind */
    unsigned char code;           /* a TokCode */
    bool raw, bytes, u, fstring;  /* T_STRING prefix letters */
    /* an opening bracket: the index of the token that closes it, 0 when
       none does or the index does not fit (so that the parser can look
       past a bracketed run of tokens) */
    unsigned short match;
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
/* The TokCode of an operator or keyword's spelling; TC_NONE for any other
   text. */
TokCode tok_code_of(const char *text);
/* The length of the ASCII name (letters, digits, '_', no digit first)
   at the start of s, 0 when none starts there. */
size_t tok_ascii_name_len(const char *s);
/* The keyword the n bytes at s spell (KW_ code), or TC_NONE. */
TokCode tok_keyword_of(const char *s, size_t n);

#endif
