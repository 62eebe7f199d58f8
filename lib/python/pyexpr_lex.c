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
#include "python/pyexpr_lex.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

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
    size_t bracket_tok[200];      /* the opening bracket's token */
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

static void grow_tokens(Lexer *lx)
{
    LexResult *r = lx->out;
    size_t ncap = lx->cap * 2;
    Token *nt = arena_alloc_uninit(lx->a, ncap * sizeof(Token));
    memcpy(nt, r->toks, r->ntoks * sizeof(Token));
    r->toks = nt;
    lx->cap = ncap;
}

static inline Token *push(Lexer *lx, TokKind kind, size_t start, size_t end)
{
    LexResult *r = lx->out;
    if (r->ntoks == lx->cap)
        grow_tokens(lx);
    Token *t = &r->toks[r->ntoks++];
    *t = (Token){ .start = start, .end = end, .kind = (unsigned char)kind };
    return t;
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

static bool lex_bracket(Lexer *lx, char c)
{
    if (c == '(' || c == '[' || c == '{') {
        if (lx->depth >= (int)sizeof lx->brackets)
            return lex_error(lx, lx->pos, false, "too many nested parentheses");
        lx->bracket_pos[lx->depth] = lx->pos;
        lx->bracket_tok[lx->depth] = lx->out->ntoks;   /* pushed next */
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
    /* this closing bracket is pushed next */
    size_t closer = lx->out->ntoks;
    if (closer <= 0xFFFF)
        lx->out->toks[lx->bracket_tok[lx->depth]].match =
            (unsigned short)closer;
    return true;
}

/* Character classes for the dispatch of pylex and the identifier loop;
   the classes from CC_DIGIT on continue a name. */
enum {
    CC_OTHER,     /* an operator, or an error token */
    CC_SPACE,     /* ' ', '\t', '\f', '\r' */
    CC_QUOTE,
    CC_DIGIT,
    CC_NAME,      /* a letter or '_' */
    CC_PREFIX,    /* a letter that may start a string prefix: bBrRuUfF */
    CC_HIGH,      /* a byte >= 0x80 other than 0xC2: part of a name */
    CC_C2,        /* 0xC2: part of a name, unless it starts U+00A0 */
};

/* The class of each byte (O: other, S: space, N: name, P: string prefix
   letter, H: high byte, C: 0xC2, D: digit, Q: quote). */
#define O CC_OTHER
#define S CC_SPACE
#define N CC_NAME
#define P CC_PREFIX
#define H CC_HIGH
#define D CC_DIGIT
#define Q CC_QUOTE
#define C CC_C2
static const unsigned char char_class[256] = {
    O, O, O, O, O, O, O, O, O, S, O, O, S, S, O, O, /* 0x00 */
    O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, /* 0x10 */
    S, O, Q, O, O, O, O, Q, O, O, O, O, O, O, O, O, /* 0x20 */
    D, D, D, D, D, D, D, D, D, D, O, O, O, O, O, O, /* 0x30 */
    O, N, P, N, N, N, P, N, N, N, N, N, N, N, N, N, /* 0x40 */
    N, N, P, N, N, P, N, N, N, N, N, O, O, O, O, N, /* 0x50 */
    O, N, P, N, N, N, P, N, N, N, N, N, N, N, N, N, /* 0x60 */
    N, N, P, N, N, P, N, N, N, N, N, O, O, O, O, O, /* 0x70 */
    H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, /* 0x80 */
    H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, /* 0x90 */
    H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, /* 0xA0 */
    H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, /* 0xB0 */
    H, H, C, H, H, H, H, H, H, H, H, H, H, H, H, H, /* 0xC0 */
    H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, /* 0xD0 */
    H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, /* 0xE0 */
    H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, /* 0xF0 */
};
#undef O
#undef S
#undef N
#undef P
#undef H
#undef D
#undef Q
#undef C

/* The keyword a name spells, or TC_NONE. */
static unsigned char keyword_code(const char *s, size_t n)
{
#define KW(text, code) \
    if (n == sizeof text - 1 && memcmp(s, text, sizeof text - 1) == 0) \
        return code
    switch (s[0]) {
    case 'F': KW("False", KW_FALSE); break;
    case 'N': KW("None", KW_NONE); break;
    case 'T': KW("True", KW_TRUE); break;
    case 'a':
        KW("and", KW_AND); KW("as", KW_AS); KW("assert", KW_ASSERT);
        KW("async", KW_ASYNC); KW("await", KW_AWAIT);
        break;
    case 'b': KW("break", KW_BREAK); break;
    case 'c': KW("class", KW_CLASS); KW("continue", KW_CONTINUE); break;
    case 'd': KW("def", KW_DEF); KW("del", KW_DEL); break;
    case 'e':
        KW("elif", KW_ELIF); KW("else", KW_ELSE); KW("except", KW_EXCEPT);
        break;
    case 'f':
        KW("finally", KW_FINALLY); KW("for", KW_FOR); KW("from", KW_FROM);
        break;
    case 'g': KW("global", KW_GLOBAL); break;
    case 'i':
        KW("if", KW_IF); KW("import", KW_IMPORT); KW("in", KW_IN);
        KW("is", KW_IS);
        break;
    case 'l': KW("lambda", KW_LAMBDA); break;
    case 'n': KW("nonlocal", KW_NONLOCAL); KW("not", KW_NOT); break;
    case 'o': KW("or", KW_OR); break;
    case 'p': KW("pass", KW_PASS); break;
    case 'r': KW("raise", KW_RAISE); KW("return", KW_RETURN); break;
    case 't': KW("try", KW_TRY); break;
    case 'w': KW("while", KW_WHILE); KW("with", KW_WITH); break;
    case 'y': KW("yield", KW_YIELD); break;
    default: break;
    }
#undef KW
    return TC_NONE;
}

/* The operator at s (src[pos..], NUL-terminated): its length and code,
   the longest match as Python's tokenizer takes it; 0 when none starts
   here. */
static size_t operator_at(const char *s, unsigned char *code)
{
#define OP1(k) do { *code = (k); return 1; } while (0)
#define OP2(k) do { *code = (k); return 2; } while (0)
#define OP3(k) do { *code = (k); return 3; } while (0)
    switch (s[0]) {
    case '*':
        if (s[1] == '*') {
            if (s[2] == '=') OP3(OP_POWEQ);
            OP2(OP_POW);
        }
        if (s[1] == '=') OP2(OP_STAREQ);
        OP1(OP_STAR);
    case '/':
        if (s[1] == '/') {
            if (s[2] == '=') OP3(OP_FLOORDIVEQ);
            OP2(OP_FLOORDIV);
        }
        if (s[1] == '=') OP2(OP_SLASHEQ);
        OP1(OP_SLASH);
    case '>':
        if (s[1] == '>') {
            if (s[2] == '=') OP3(OP_RSHIFTEQ);
            OP2(OP_RSHIFT);
        }
        if (s[1] == '=') OP2(OP_GE);
        OP1(OP_GT);
    case '<':
        if (s[1] == '<') {
            if (s[2] == '=') OP3(OP_LSHIFTEQ);
            OP2(OP_LSHIFT);
        }
        if (s[1] == '=') OP2(OP_LE);
        OP1(OP_LT);
    case '.':
        if (s[1] == '.' && s[2] == '.') OP3(OP_ELLIPSIS);
        OP1(OP_DOT);
    case '-':
        if (s[1] == '>') OP2(OP_ARROW);
        if (s[1] == '=') OP2(OP_MINUSEQ);
        OP1(OP_MINUS);
    case ':':
        if (s[1] == '=') OP2(OP_WALRUS);
        OP1(OP_COLON);
    case '=':
        if (s[1] == '=') OP2(OP_EQ);
        OP1(OP_EQUAL);
    case '!':
        if (s[1] == '=') OP2(OP_NE);
        return 0;
    case '+':
        if (s[1] == '=') OP2(OP_PLUSEQ);
        OP1(OP_PLUS);
    case '%':
        if (s[1] == '=') OP2(OP_PERCENTEQ);
        OP1(OP_PERCENT);
    case '&':
        if (s[1] == '=') OP2(OP_AMPEQ);
        OP1(OP_AMP);
    case '|':
        if (s[1] == '=') OP2(OP_PIPEEQ);
        OP1(OP_PIPE);
    case '^':
        if (s[1] == '=') OP2(OP_CARETEQ);
        OP1(OP_CARET);
    case '@':
        if (s[1] == '=') OP2(OP_ATEQ);
        OP1(OP_AT);
    case '~': OP1(OP_TILDE);
    case '(': OP1(OP_LPAR);
    case ')': OP1(OP_RPAR);
    case '[': OP1(OP_LSQB);
    case ']': OP1(OP_RSQB);
    case '{': OP1(OP_LBRACE);
    case '}': OP1(OP_RBRACE);
    case ',': OP1(OP_COMMA);
    case ';': OP1(OP_SEMI);
    default:
        return 0;
    }
#undef OP1
#undef OP2
#undef OP3
}

bool pylex(Arena *a, const char *src, LexResult *out)
{
    /* the bracket stacks are not zeroed: only what was pushed is read */
    Lexer lx;
    lx.a = a;
    lx.src = src;
    lx.n = strlen(src);
    lx.pos = 0;
    lx.out = out;
    lx.depth = 0;
    memset(out, 0, sizeof *out);
    out->src = src;
    /* most lines have fewer tokens than a third of their bytes; push()
       doubles the array past that */
    lx.cap = lx.n / 3 + 8;
    out->toks = arena_alloc_uninit(a, lx.cap * sizeof(Token));
    while (lx.pos < lx.n) {
        int c = (unsigned char)src[lx.pos];
        switch (char_class[c]) {
        case CC_SPACE:
            lx.pos++;
            continue;
        case CC_DIGIT:
            if (!lex_number(&lx))
                return false;
            continue;
        case CC_QUOTE:
            if (!lex_string(&lx, lx.pos))
                return false;
            continue;
        case CC_PREFIX: {
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
        }
            /* fall through - a name */
        case CC_NAME:
        case CC_HIGH:
        case CC_C2: {
            /* letters, digits, '_' and bytes >= 0x80; the NUL at the end
               of src ends the scan */
            size_t start = lx.pos;
            for (;;) {
                unsigned char k = char_class[(unsigned char)src[lx.pos]];
                if (k >= CC_DIGIT && k <= CC_HIGH) {
                    lx.pos++;
                    continue;
                }
                if (k != CC_C2)
                    break;
                /* U+00A0 and friends are not identifier characters */
                if ((unsigned char)src[lx.pos + 1] == 0xA0)
                    return lex_error(&lx, lx.pos, false,
                                     "invalid non-printable character U+00A0");
                lx.pos++;
            }
            push(&lx, T_NAME, start, lx.pos)->code =
                keyword_code(src + start, lx.pos - start);
            continue;
        }
        default:
            break;
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
        if (c == '.' && char_class[(unsigned char)src[lx.pos + 1]] == CC_DIGIT) {
            if (!lex_number(&lx))
                return false;
            continue;
        }
        unsigned char code;
        size_t ol = operator_at(src + lx.pos, &code);
        if (ol) {
            if ((code == OP_LPAR || code == OP_RPAR || code == OP_LSQB ||
                 code == OP_RSQB || code == OP_LBRACE || code == OP_RBRACE) &&
                !lex_bracket(&lx, (char)c))
                return false;
            push(&lx, T_OP, lx.pos, lx.pos + ol)->code = code;
            lx.pos += ol;
        } else {
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
    if (t->kind != T_OP && t->kind != T_NAME)
        return false;
    /* a token holds no NUL: a shorter text differs at its end */
    const char *s = lr->src + t->start;
    size_t n = t->end - t->start;
    for (size_t i = 0; i < n; i++)
        if (s[i] != text[i])
            return false;
    return text[n] == '\0';
}

size_t tok_ascii_name_len(const char *s)
{
    unsigned char k = char_class[(unsigned char)s[0]];
    if (k != CC_NAME && k != CC_PREFIX)
        return 0;
    size_t n = 1;
    while ((unsigned)(char_class[(unsigned char)s[n]] - CC_DIGIT) <=
           CC_PREFIX - CC_DIGIT)
        n++;
    return n;
}

TokCode tok_keyword_of(const char *s, size_t n)
{
    return (TokCode)keyword_code(s, n);
}

TokCode tok_code_of(const char *text)
{
    unsigned char code = TC_NONE;
    size_t n = strlen(text);
    if (n && operator_at(text, &code) == n)
        return (TokCode)code;
    if (n && char_class[(unsigned char)text[0]] >= CC_NAME)
        return (TokCode)keyword_code(text, n);
    return TC_NONE;
}
