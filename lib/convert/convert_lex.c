/*
 * convert_lex.c — the C tokens of a file for --convert: identifiers,
 * numbers, string and character literals, punctuators and whole
 * preprocessor lines, each with its byte range and line, brackets paired.
 * Comments are skipped: the conversion keeps every byte it does not
 * replace, so they stay where they are.
 */
#include <ctype.h>
#include <string.h>

#include "convert/convert_int.h"

static const char *const two_char_ops[] = {
    "->", "++", "--", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", NULL
};

static void push(Conv *cv, size_t *cap, TokKind kind, size_t start,
                 size_t len, int line, int depth)
{
    if ((size_t)cv->ntoks == *cap) {
        size_t n = *cap ? 2 * *cap : 1024;
        Tok *t = arena_array_of(cv->c->arena, Tok, n);
        if (cv->ntoks)
            memcpy(t, cv->toks, (size_t)cv->ntoks * sizeof *t);
        cv->toks = t;
        *cap = n;
    }
    cv->toks[cv->ntoks++] = (Tok){kind, start, len, line, -1, depth};
}

typedef struct CondLevel {
    int depth, nstack, end_depth, end_nstack;
} CondLevel;

/* The directive's name: "if", "else", ... after the "#" and blanks. */
static bool directive_is(const char *p, size_t n, const char *name)
{
    size_t i = 1, len = strlen(name);
    while (i < n && (p[i] == ' ' || p[i] == '\t'))
        i++;
    return n - i >= len && !memcmp(p + i, name, len) &&
           (n - i == len || !isalnum((unsigned char)p[i + len]));
}

static void directive(const char *p, size_t n, void *levels, int *nlevels,
                      int *depth, int *nstack)
{
    CondLevel *cond = levels;
    if (directive_is(p, n, "if") || directive_is(p, n, "ifdef") ||
        directive_is(p, n, "ifndef")) {
        if (*nlevels < 64)
            cond[*nlevels] = (CondLevel){*depth, *nstack, -1, -1};
        (*nlevels)++;
    } else if (directive_is(p, n, "elif") || directive_is(p, n, "else") ||
               directive_is(p, n, "elifdef") || directive_is(p, n, "elifndef")) {
        if (*nlevels < 1 || *nlevels > 64)
            return;
        CondLevel *c = &cond[*nlevels - 1];
        if (c->end_depth < 0) {
            c->end_depth = *depth;
            c->end_nstack = *nstack;
        }
        *depth = c->depth;
        if (*nstack > c->nstack)
            *nstack = c->nstack;
    } else if (directive_is(p, n, "endif")) {
        if (*nlevels < 1)
            return;
        if (*nlevels <= 64) {
            CondLevel *c = &cond[*nlevels - 1];
            if (c->end_depth >= 0) {
                *depth = c->end_depth;
                if (*nstack > c->end_nstack)
                    *nstack = c->end_nstack;
            }
        }
        (*nlevels)--;
    }
}

void conv_lex(Conv *cv)
{
    const char *s = cv->text;
    size_t n = cv->len, i = 0, cap = 0;
    int line = 1, depth = 0;
    bool line_start = true;
    int stack[256], nstack = 0;
    /* #if/#else branches that each open a brace ("#ifdef X f(a) { #else
       f(b) { #endif") would leave the count one too high: each branch
       starts from where the #if was, and the first branch's end goes on */
    CondLevel cond[64];
    int ncond = 0;
    while (i < n) {
        char ch = s[i];
        if (ch == '\n') {
            line++;
            line_start = true;
            i++;
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\f' || ch == '\v') {
            i++;
            continue;
        }
        if (ch == '/' && i + 1 < n && s[i + 1] == '*') {
            size_t j = i + 2;
            while (j + 1 < n && !(s[j] == '*' && s[j + 1] == '/')) {
                if (s[j] == '\n')
                    line++;
                j++;
            }
            i = j + 2 <= n ? j + 2 : n;
            continue;
        }
        if (ch == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                i++;
            continue;
        }
        size_t start = i;
        int start_line = line;
        if (ch == '#' && line_start) {
            /* to the end of the line, continuations and comments in it */
            while (i < n && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
                    i += 2;
                    line++;
                } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
                    i += 2;
                    while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) {
                        if (s[i] == '\n')
                            line++;
                        i++;
                    }
                    i = i + 2 <= n ? i + 2 : n;
                } else {
                    i++;
                }
            }
            push(cv, &cap, TK_PP, start, i - start, start_line, depth);
            directive(s + start, i - start, cond, &ncond, &depth, &nstack);
            continue;
        }
        line_start = false;
        if (isalpha((unsigned char)ch) || ch == '_') {
            while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
                i++;
            /* L"..", u8".." prefixes belong to the literal */
            if (i < n && (s[i] == '"' || s[i] == '\'') && i - start <= 2) {
                ch = s[i];
            } else {
                push(cv, &cap, TK_IDENT, start, i - start, line, depth);
                continue;
            }
        }
        if (ch == '"' || ch == '\'') {
            char q = ch;
            while (i < n && s[i] != q)
                i++;
            i++;
            while (i < n && s[i] != q && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n) {
                    if (s[i + 1] == '\n')
                        line++;
                    i++;
                }
                i++;
            }
            if (i < n && s[i] == q)
                i++;
            push(cv, &cap, q == '"' ? TK_STRING : TK_CHAR, start, i - start,
                 start_line, depth);
            continue;
        }
        if (isdigit((unsigned char)ch) ||
            (ch == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
            while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '.' ||
                             s[i] == '_' ||
                             ((s[i] == '+' || s[i] == '-') &&
                              (s[i - 1] == 'e' || s[i - 1] == 'E' ||
                               s[i - 1] == 'p' || s[i - 1] == 'P'))))
                i++;
            push(cv, &cap, TK_NUMBER, start, i - start, line, depth);
            continue;
        }
        size_t oplen = 1;
        if (i + 2 < n && !strncmp(s + i, "...", 3))
            oplen = 3;
        else
            for (size_t k = 0; two_char_ops[k]; k++)
                if (i + 1 < n && s[i] == two_char_ops[k][0] &&
                    s[i + 1] == two_char_ops[k][1])
                    oplen = 2;
        if (ch == '}' && depth > 0)
            depth--;
        push(cv, &cap, TK_PUNCT, start, oplen, line, depth);
        int me = cv->ntoks - 1;
        if (oplen == 1 && (ch == '(' || ch == '[' || ch == '{')) {
            if (nstack < (int)(sizeof stack / sizeof *stack))
                stack[nstack++] = me;
            if (ch == '{')
                depth++;
        } else if (oplen == 1 && (ch == ')' || ch == ']' || ch == '}')) {
            char want = ch == ')' ? '(' : ch == ']' ? '[' : '{';
            if (nstack && s[cv->toks[stack[nstack - 1]].start] == want) {
                int open = stack[--nstack];
                cv->toks[open].match = me;
                cv->toks[me].match = open;
            }
        }
        i += oplen;
    }
}

bool ctok_is(const Conv *cv, int i, const char *s)
{
    if (i < 0 || i >= cv->ntoks)
        return false;
    const Tok *t = &cv->toks[i];
    return t->kind != TK_PP && strlen(s) == t->len &&
           !memcmp(cv->text + t->start, s, t->len);
}

bool ctok_ident(const Conv *cv, int i, const char *s)
{
    return ctok_is(cv, i, s) && cv->toks[i].kind == TK_IDENT;
}

int ctok_function_body(const Conv *cv, int i, const char *name)
{
    if (i + 1 >= cv->ntoks || cv->toks[i].depth != 0 ||
        !ctok_ident(cv, i, name) || !ctok_is(cv, i + 1, "(") ||
        cv->toks[i + 1].match < 0 ||
        !ctok_is(cv, cv->toks[i + 1].match + 1, "{"))
        return -1;
    return cv->toks[i + 1].match + 1;
}

bool ctok_block_names_pyarg(const Conv *cv, int open)
{
    for (int k = open + 1; k < cv->toks[open].match; k++)
        if (cv->toks[k].kind == TK_IDENT &&
            (!strncmp(cv->text + cv->toks[k].start, "PyArg_", 6) ||
             !strncmp(cv->text + cv->toks[k].start, "_PyArg_", 7)))
            return true;
    return false;
}

char *ctok_str(const Conv *cv, int i)
{
    return arena_strndup(cv->c->arena, cv->text + cv->toks[i].start,
                         cv->toks[i].len);
}

char *ctok_join(const Conv *cv, int from, int to)
{
    StrBuf sb = STRBUF_INIT;
    for (int i = from; i < to; i++) {
        if (i > from)
            sb_addc(&sb, ' ');
        sb_add(&sb, cv->text + cv->toks[i].start, cv->toks[i].len);
    }
    return sb_take(&sb, cv->c->arena);
}

char *ctok_strings(const Conv *cv, int i, int *end)
{
    if (i >= cv->ntoks || cv->toks[i].kind != TK_STRING ||
        cv->text[cv->toks[i].start] != '"')
        return NULL;
    StrBuf sb = STRBUF_INIT;
    for (; i < cv->ntoks && cv->toks[i].kind == TK_STRING; i++) {
        const char *p = cv->text + cv->toks[i].start + 1;
        const char *e = cv->text + cv->toks[i].start + cv->toks[i].len - 1;
        if (p > e + 1 || p[-1] != '"') {
            sb_free(&sb);
            return NULL;
        }
        for (; p < e; p++) {
            if (*p != '\\') {
                sb_addc(&sb, *p);
                continue;
            }
            p++;
            switch (*p) {
            case 'n': sb_addc(&sb, '\n'); break;
            case 't': sb_addc(&sb, '\t'); break;
            case '\\': sb_addc(&sb, '\\'); break;
            case '"': sb_addc(&sb, '"'); break;
            case '\'': sb_addc(&sb, '\''); break;
            case '\n': break;
            default:
                sb_free(&sb);
                return NULL;
            }
        }
    }
    *end = i;
    return sb_take(&sb, cv->c->arena);
}

size_t ctok_split(const Conv *cv, int from, int to, int *fields, int *ends,
                 size_t max)
{
    size_t n = 0;
    int start = from;
    for (int i = from; i <= to; i++) {
        if (i == to || ctok_is(cv, i, ",")) {
            if (n < max) {
                fields[n] = start;
                ends[n] = i;
            }
            n++;
            start = i + 1;
            continue;
        }
        if (cv->toks[i].match > i && cv->toks[i].kind == TK_PUNCT)
            i = cv->toks[i].match < to ? cv->toks[i].match : to - 1;
    }
    /* a trailing comma makes no empty last field */
    if (n && n <= max && fields[n - 1] == ends[n - 1] && n > 1)
        n--;
    return n;
}

int ctok_count_ident(const Conv *cv, const char *name)
{
    int count = 0;
    size_t len = strlen(name);
    for (int i = 0; i < cv->ntoks; i++) {
        const Tok *t = &cv->toks[i];
        if (t->kind == TK_IDENT && t->len == len &&
            !memcmp(cv->text + t->start, name, len)) {
            /* a member ("s->name", "s.name") is of a name space of its
               own */
            if (!(i > 0 && (ctok_is(cv, i - 1, "->") || ctok_is(cv, i - 1, "."))))
                count++;
        }
        else if (t->kind == TK_PP) {
            /* a macro may name it too */
            const char *b = cv->text + t->start, *e = b + t->len;
            for (const char *p = b; p + len <= e; p++) {
                if (memcmp(p, name, len))
                    continue;
                bool before = p > b &&
                              (isalnum((unsigned char)p[-1]) || p[-1] == '_');
                bool after = p + len < e &&
                             (isalnum((unsigned char)p[len]) || p[len] == '_');
                if (!before && !after)
                    count++;
            }
        }
    }
    return count;
}

const char *ctok_define(const Conv *cv, int i, size_t *len)
{
    if (cv->toks[i].kind != TK_PP)
        return NULL;
    const char *p = cv->text + cv->toks[i].start + 1;
    const char *end = cv->text + cv->toks[i].start + cv->toks[i].len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (end - p < 7 || memcmp(p, "define", 6) || (p[6] != ' ' && p[6] != '\t'))
        return NULL;
    p += 6;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    const char *name = p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
        p++;
    if (p == name)
        return NULL;
    *len = (size_t)(p - name);
    return name;
}
