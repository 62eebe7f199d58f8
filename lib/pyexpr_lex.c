/*
 * pyexpr_lex.c — Python 3.11's tokenizer, for one line of source.
 *
 * clinic.py feeds its lines to ast.parse() framed as "def x(LINE): pass"
 * or "x = LINE", so we tokenize the framed line the same way: numbers
 * with Python's exact literal rules (underscores, prefixes, "leading
 * zeros" and "invalid decimal literal" errors), strings with every
 * prefix, operators, and bracket matching.  Errors found here are the
 * tokenizer's: Python reports them even when a parse error comes first,
 * and their SyntaxError.text has no trailing newline.
 */
#include "pyexpr_lex.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static bool is_ident_start(int c)
{
    return isalpha(c) || c == '_' || c >= 0x80;
}

static bool is_ident_char(int c)
{
    return isalnum(c) || c == '_' || c >= 0x80;
}

typedef struct Lexer {
    Arena *a;
    const char *src;
    size_t n, pos;
    LexResult *out;
    size_t cap;
    char brackets[200];
    size_t bracket_pos[200];
    int depth;
} Lexer;

static int peek(const Lexer *lx, size_t ahead)
{
    size_t i = lx->pos + ahead;
    return i < lx->n ? (unsigned char)lx->src[i] : -1;
}

/* Records a tokenizer error; newline_text says whether Python's
   SyntaxError.text keeps the line's newline for this kind of error. */
static bool lex_error(Lexer *lx, size_t offset, bool newline_text,
                      const char *msg)
{
    lx->out->error = true;
    lx->out->error_offset = offset;
    lx->out->error_msg = msg;
    lx->out->error_newline = newline_text;
    return false;
}

static void push(Lexer *lx, TokKind kind, size_t start, size_t end)
{
    LexResult *r = lx->out;
    if (r->ntoks == lx->cap) {
        size_t ncap = lx->cap ? lx->cap * 2 : 32;
        Token *nt = arena_array_of(lx->a, Token, ncap);
        if (r->ntoks)
            memcpy(nt, r->toks, r->ntoks * sizeof(Token));
        r->toks = nt;
        lx->cap = ncap;
    }
    Token *t = &r->toks[r->ntoks++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->start = start;
    t->end = end;
}

/* "invalid <kind> literal" unless the number is followed by one of the
   keywords that may legally follow it (Python only warns then). */
static bool verify_end_of_number(Lexer *lx, const char *kind)
{
    int c = peek(lx, 0);
    const char *rest = lx->src + lx->pos;
    size_t left = lx->n - lx->pos;
    /* Python only warns when a keyword that may follow a number in valid
       code comes next: "and", "else", "for", "or", "not" as whole words,
       and anything starting "if", "in" or "is". */
    static const char *const keywords[] = { "and", "else", "for", "or", "not" };
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
        size_t kl = strlen(keywords[i]);
        if (left >= kl && memcmp(rest, keywords[i], kl) == 0 &&
            !(left > kl && is_ident_char((unsigned char)rest[kl])))
            return true;
    }
    if (left >= 2 && rest[0] == 'i' && strchr("fns", rest[1]))
        return true;
    /* Python 3.11 lets a non-ASCII character end a number (the parser
       then reports "invalid syntax"). */
    if (c >= 0 && c < 0x80 && is_ident_char(c)) {
        char *msg = arena_printf(lx->a, "invalid %s literal", kind);
        return lex_error(lx, lx->pos, false, msg);
    }
    return true;
}

/* Digits with single underscores between them; c is the current char. */
static bool decimal_tail(Lexer *lx)
{
    for (;;) {
        while (isdigit(peek(lx, 0)))
            lx->pos++;
        if (peek(lx, 0) != '_')
            return true;
        lx->pos++;
        if (!isdigit(peek(lx, 0)))
            return lex_error(lx, lx->pos - 1, false, "invalid decimal literal");
    }
}

static bool lex_radix(Lexer *lx, const char *kind, int maxdigit)
{
    lx->pos += 2; /* "0x" */
    for (;;) {
        if (peek(lx, 0) == '_')
            lx->pos++;
        int c = peek(lx, 0);
        bool ok = maxdigit == 16 ? isxdigit(c) : (c >= '0' && c < '0' + maxdigit);
        if (!ok) {
            if (maxdigit < 10 && isdigit(c))
                return lex_error(lx, lx->pos, false,
                                 arena_printf(lx->a, "invalid digit '%c' in %s literal",
                                              c, kind));
            return lex_error(lx, lx->pos, false,
                             arena_printf(lx->a, "invalid %s literal", kind));
        }
        for (;;) {
            c = peek(lx, 0);
            ok = maxdigit == 16 ? isxdigit(c) : (c >= '0' && c < '0' + maxdigit);
            if (!ok)
                break;
            lx->pos++;
        }
        if (peek(lx, 0) != '_')
            break;
    }
    int c = peek(lx, 0);
    if (maxdigit < 10 && isdigit(c))
        return lex_error(lx, lx->pos, false,
                         arena_printf(lx->a, "invalid digit '%c' in %s literal", c, kind));
    return verify_end_of_number(lx, kind);
}

static bool lex_number(Lexer *lx)
{
    size_t start = lx->pos;
    int c = peek(lx, 0);
    bool fraction = false, exponent = false, imaginary = false;
    TokKind kind = T_NUMBER;

    if (c == '0' && (peek(lx, 1) == 'x' || peek(lx, 1) == 'X')) {
        if (!lex_radix(lx, "hexadecimal", 16))
            return false;
        goto done;
    }
    if (c == '0' && (peek(lx, 1) == 'o' || peek(lx, 1) == 'O')) {
        if (!lex_radix(lx, "octal", 8))
            return false;
        goto done;
    }
    if (c == '0' && (peek(lx, 1) == 'b' || peek(lx, 1) == 'B')) {
        if (!lex_radix(lx, "binary", 2))
            return false;
        goto done;
    }
    if (c == '0') {
        /* zeros, possibly an old-style octal (now an error) */
        bool nonzero = false;
        for (;;) {
            if (peek(lx, 0) == '_') {
                lx->pos++;
                if (!isdigit(peek(lx, 0)))
                    return lex_error(lx, lx->pos - 1, false, "invalid decimal literal");
            }
            if (peek(lx, 0) != '0')
                break;
            lx->pos++;
        }
        if (isdigit(peek(lx, 0))) {
            nonzero = true;
            if (!decimal_tail(lx))
                return false;
        }
        c = peek(lx, 0);
        if (c == '.') {
            lx->pos++;
            fraction = true;
        } else if (c == 'e' || c == 'E') {
            exponent = true;
        } else if (c == 'j' || c == 'J') {
            imaginary = true;
        } else if (nonzero) {
            return lex_error(lx, start, false,
                             "leading zeros in decimal integer literals are not "
                             "permitted; use an 0o prefix for octal integers");
        } else {
            if (!verify_end_of_number(lx, "decimal"))
                return false;
            goto done;
        }
    } else if (c == '.') {
        lx->pos++;
        fraction = true;
    } else {
        if (!decimal_tail(lx))
            return false;
        c = peek(lx, 0);
        if (c == '.') {
            lx->pos++;
            fraction = true;
        } else if (c == 'e' || c == 'E') {
            exponent = true;
        } else if (c == 'j' || c == 'J') {
            imaginary = true;
        }
    }
    if (fraction) {
        if (isdigit(peek(lx, 0)) && !decimal_tail(lx))
            return false;
        c = peek(lx, 0);
        if (c == 'e' || c == 'E')
            exponent = true;
        else if (c == 'j' || c == 'J')
            imaginary = true;
    }
    if (exponent) {
        size_t epos = lx->pos;
        lx->pos++;
        c = peek(lx, 0);
        if (c == '+' || c == '-') {
            lx->pos++;
            if (!isdigit(peek(lx, 0)))
                return lex_error(lx, lx->pos, false, "invalid decimal literal");
        } else if (!isdigit(c)) {
            /* "1else": the number ends before the 'e' */
            lx->pos = epos;
            if (!verify_end_of_number(lx, "decimal"))
                return false;
            goto done;
        }
        if (!decimal_tail(lx))
            return false;
        c = peek(lx, 0);
        if (c == 'j' || c == 'J')
            imaginary = true;
    }
    if (imaginary) {
        lx->pos++;
        if (!verify_end_of_number(lx, "imaginary"))
            return false;
    } else if (!verify_end_of_number(lx, "decimal")) {
        return false;
    }
done:
    push(lx, kind, start, lx->pos);
    return true;
}

/* A string literal whose prefix spans [start, lx->pos); lx->pos is at the
   opening quote. */
static bool lex_string(Lexer *lx, size_t start)
{
    char quote = lx->src[lx->pos];
    bool triple = peek(lx, 1) == quote && peek(lx, 2) == quote;
    size_t qlen = triple ? 3 : 1;
    size_t body = lx->pos + qlen;
    size_t i = body;
    for (;;) {
        if (i >= lx->n) {
            return lex_error(lx, start, false,
                             triple ? "unterminated triple-quoted string literal "
                                      "(detected at line 1)"
                                    : "unterminated string literal (detected at line 1)");
        }
        char c = lx->src[i];
        if (c == '\\') {
            i += 2;
            continue;
        }
        if (c == '\n' && !triple)
            return lex_error(lx, start, false,
                             "unterminated string literal (detected at line 1)");
        if (c == quote &&
            (!triple || (i + 2 < lx->n && lx->src[i + 1] == quote &&
                         lx->src[i + 2] == quote)))
            break;
        i++;
    }
    if (i > lx->n)
        i = lx->n;
    push(lx, T_STRING, start, i + qlen);
    Token *t = &lx->out->toks[lx->out->ntoks - 1];
    t->body_start = body;
    t->body_end = i;
    for (size_t k = start; k < lx->pos; k++) {
        switch (lx->src[k] | 0x20) {
        case 'r': t->raw = true; break;
        case 'b': t->bytes = true; break;
        case 'u': t->u = true; break;
        case 'f': t->fstring = true; break;
        }
    }
    lx->pos = i + qlen;
    return true;
}

static const char *const operators[] = {
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>",
    "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    "@=", "+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "(",
    ")", "[", "]", "{", "}", ",", ":", ";", ".", "=",
};

static bool lex_bracket(Lexer *lx, char c)
{
    if (strchr("([{", c)) {
        if (lx->depth >= (int)sizeof lx->brackets)
            return lex_error(lx, lx->pos, false, "too many nested parentheses");
        lx->bracket_pos[lx->depth] = lx->pos;
        lx->brackets[lx->depth++] = c;
        return true;
    }
    if (lx->depth == 0)
        return lex_error(lx, lx->pos, false, arena_printf(lx->a, "unmatched '%c'", c));
    char open = lx->brackets[lx->depth - 1];
    char want = open == '(' ? ')' : open == '[' ? ']' : '}';
    if (c != want)
        return lex_error(lx, lx->pos, false,
                         arena_printf(lx->a, "closing parenthesis '%c' does not match "
                                             "opening parenthesis '%c'", c, open));
    lx->depth--;
    return true;
}

bool pylex(Arena *a, const char *src, LexResult *out)
{
    Lexer lx = { .a = a, .src = src, .n = strlen(src), .out = out };
    memset(out, 0, sizeof *out);
    out->src = src;
    while (lx.pos < lx.n) {
        int c = peek(&lx, 0);
        if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
            lx.pos++;
            continue;
        }
        if (c == '#') {
            while (lx.pos < lx.n && src[lx.pos] != '\n')
                lx.pos++;
            continue;
        }
        if (c == '\n') {
            if (lx.depth == 0)
                push(&lx, T_NEWLINE, lx.pos, lx.pos + 1);
            lx.pos++;
            continue;
        }
        if (c == '\\') {
            if (peek(&lx, 1) == '\n') {
                lx.pos += 2;
                continue;
            }
            if (peek(&lx, 1) < 0)
                return lex_error(&lx, lx.pos, true, "unexpected EOF while parsing");
            return lex_error(&lx, lx.pos, true,
                             "unexpected character after line continuation character");
        }
        if (isdigit(c) || (c == '.' && isdigit(peek(&lx, 1)))) {
            if (!lex_number(&lx))
                return false;
            continue;
        }
        if (is_ident_start(c)) {
            size_t start = lx.pos;
            /* string prefixes: b, r, u, f and the legal pairs */
            bool saw_b = false, saw_r = false, saw_u = false, saw_f = false;
            for (;;) {
                int d = peek(&lx, 0) | 0x20;
                if (!(saw_b || saw_u || saw_f) && d == 'b')
                    saw_b = true;
                else if (!(saw_b || saw_u || saw_r || saw_f) && d == 'u')
                    saw_u = true;
                else if (!(saw_r || saw_u) && d == 'r')
                    saw_r = true;
                else if (!(saw_f || saw_b || saw_u) && d == 'f')
                    saw_f = true;
                else
                    break;
                lx.pos++;
                if (peek(&lx, 0) == '"' || peek(&lx, 0) == '\'')
                    break;
            }
            if (lx.pos > start && (peek(&lx, 0) == '"' || peek(&lx, 0) == '\'')) {
                if (!lex_string(&lx, start))
                    return false;
                continue;
            }
            lx.pos = start;
            while (lx.pos < lx.n && is_ident_char((unsigned char)src[lx.pos])) {
                /* U+00A0 and friends are not identifier characters */
                if ((unsigned char)src[lx.pos] == 0xC2 && lx.pos + 1 < lx.n &&
                    (unsigned char)src[lx.pos + 1] == 0xA0)
                    return lex_error(&lx, lx.pos, false,
                                     "invalid non-printable character U+00A0");
                lx.pos++;
            }
            push(&lx, T_NAME, start, lx.pos);
            continue;
        }
        if (c == '"' || c == '\'') {
            if (!lex_string(&lx, lx.pos))
                return false;
            continue;
        }
        bool matched = false;
        for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++) {
            if (operators[i][0] != c)
                continue;   /* cheap: most operators start otherwise */
            size_t ol = strlen(operators[i]);
            if (lx.n - lx.pos >= ol && memcmp(src + lx.pos, operators[i], ol) == 0) {
                if (ol == 1 && strchr("()[]{}", c) && !lex_bracket(&lx, (char)c))
                    return false;
                push(&lx, T_OP, lx.pos, lx.pos + ol);
                lx.pos += ol;
                matched = true;
                break;
            }
        }
        if (!matched) {
            /* '$', '?', '!', '`': the parser reports "invalid syntax" */
            push(&lx, T_ERRORTOKEN, lx.pos, lx.pos + 1);
            lx.pos++;
        }
    }
    out->unclosed = lx.depth > 0;
    if (lx.depth > 0) {
        out->unclosed_char = lx.brackets[lx.depth - 1];
        out->unclosed_offset = lx.bracket_pos[lx.depth - 1];
    }
    push(&lx, T_END, lx.n, lx.n);
    return true;
}

bool tok_is(const LexResult *lr, const Token *t, const char *text)
{
    /* the parser asks this of every token at every level: the first
       character settles most questions without a strlen */
    if (t->kind != T_OP && t->kind != T_NAME)
        return false;
    if (t->end == t->start)
        return text[0] == '\0';
    if (lr->src[t->start] != text[0])
        return false;
    size_t n = strlen(text);
    return t->end - t->start == n &&
           memcmp(lr->src + t->start, text, n) == 0;
}
