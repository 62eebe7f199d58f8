/*
 * cpp.c — the preprocessor monitor: a port of clinic's cpp.py Monitor.
 *
 * Every line the scanner reads goes through cpp_writeline(), which keeps a
 * stack of the #if / #ifdef / #ifndef / #elif / #else conditions in force,
 * so a function can be wrapped in "#if CONDITION" exactly as clinic.py does.
 * The port is deliberately literal, quirks included: cpp.py looks at
 * Python str.strip()/split() whitespace, still sees a '#' directive on a
 * line inside a multi-line comment (3.11's; 3.13's skips it), and refuses
 * a comment opener inside a comment.
 */
#include "scan/cpp.h"

#include <stdint.h>
#include <string.h>

typedef enum CppToken { CPP_IF, CPP_ELIF } CppToken;

typedef struct CppEntry {
    CppToken token;            /* "if" or "elif", as cpp.py stores it */
    const char *condition;
} CppEntry;

/* A growable arena buffer: old storage is simply abandoned on growth, so
   the total is bounded by twice the longest line. */
typedef struct Scratch {
    char *buf;
    size_t len, cap;
} Scratch;

struct CppMonitor {
    CppEntry *stack;
    size_t depth, cap;
    bool in_comment;
    bool has_continuation;
    Scratch continuation;      /* cpp.py's self.continuation */
    Scratch line;              /* the line being worked on */
};

/* ---- Python str whitespace on UTF-8 text ------------------------------- */

/* Length in bytes of the whitespace character at s (str.isspace()), or 0.
   Python decodes the file, so its strip() and split() also drop the
   Unicode spaces; for the ASCII ones this is \t\n\v\f\r, \x1c-\x1f and ' '. */
static size_t py_space_at_utf8(const char *s, const char *end)
{
    unsigned char b0 = (unsigned char)s[0];
    if (b0 < 0xc2 || end - s < 2)
        return 0;
    unsigned char b1 = (unsigned char)s[1];
    if (b0 == 0xc2)                                   /* U+0085, U+00A0 */
        return (b1 == 0x85 || b1 == 0xa0) ? 2 : 0;
    if (end - s < 3)
        return 0;
    unsigned char b2 = (unsigned char)s[2];
    if (b0 == 0xe1)                                   /* U+1680 */
        return (b1 == 0x9a && b2 == 0x80) ? 3 : 0;
    if (b0 == 0xe2 && b1 == 0x80)       /* U+2000-200A, 2028, 2029, 202F */
        return ((b2 >= 0x80 && b2 <= 0x8a) || b2 == 0xa8 || b2 == 0xa9 ||
                b2 == 0xaf) ? 3 : 0;
    if (b0 == 0xe2 && b1 == 0x81)                     /* U+205F */
        return b2 == 0x9f ? 3 : 0;
    if (b0 == 0xe3 && b1 == 0x80)                     /* U+3000 */
        return b2 == 0x80 ? 3 : 0;
    return 0;
}

/* \t\n\v\f\r (9-13), \x1c-\x1f and ' ' (32), as bits: one comparison
   settles the bytes above ' ', most of them. */
#define ASCII_SPACE_BITS                                                      \
    ((UINT64_C(0x1f) << 9) | (UINT64_C(0xf) << 0x1c) | (UINT64_C(1) << 32))

static bool is_ascii_space(unsigned char b)
{
    return b <= ' ' && (ASCII_SPACE_BITS >> b) & 1;
}

/* The ASCII test inline, the rest (rare in C) out of line. */
static inline size_t py_space_at(const char *s, const char *end)
{
    unsigned char b0 = (unsigned char)s[0];
    if (b0 < 0x80)
        return is_ascii_space(b0);
    return py_space_at_utf8(s, end);
}

/* Past the whitespace at s: ASCII in a tight loop, a wider space out of
   line. */
static inline const char *skip_space(const char *s, const char *end)
{
    for (;;) {
        while (s < end && is_ascii_space((unsigned char)*s))
            s++;
        size_t n;
        if (s == end || (unsigned char)*s < 0x80 ||
            (n = py_space_at_utf8(s, end)) == 0)
            return s;
        s += n;
    }
}

/* Past the characters at s up to the next whitespace (a field of
   str.split()). */
static inline const char *skip_field(const char *s, const char *end)
{
    for (;;) {
        while (s < end && (unsigned char)*s > ' ' && (unsigned char)*s < 0x80)
            s++;
        if (s == end || py_space_at(s, end) != 0)
            return s;
        s++;
    }
}

/* End of s with trailing whitespace removed (str.rstrip()), walking
   forwards: a byte >= 0x80 at the end may be part of a wider space. */
static const char *rstrip_end_utf8(const char *s, const char *end)
{
    const char *last = s;      /* just past the last non-space character */
    while (s < end) {
        size_t n = py_space_at(s, end);
        if (n) {
            s += n;
        } else {
            s++;
            while (s < end && ((unsigned char)*s & 0xc0) == 0x80)
                s++;           /* rest of a multi-byte character */
            last = s;
        }
    }
    return last;
}

/* str.rstrip(): ASCII from the end, the UTF-8 walk only when needed. */
static inline const char *rstrip_end(const char *s, const char *end)
{
    while (end > s) {
        unsigned char b = (unsigned char)end[-1];
        if (b >= 0x80)
            return rstrip_end_utf8(s, end);
        if (!is_ascii_space(b))
            break;
        end--;
    }
    return end;
}

/* The first occurrence of a two-character needle in [s, end). */
static const char *find(const char *s, const char *end, const char *needle)
{
    while (s + 1 < end) {
        const char *p = memchr(s, needle[0], (size_t)(end - s - 1));
        if (!p)
            return NULL;
        if (p[1] == needle[1])
            return p;
        s = p + 1;
    }
    return NULL;
}

/* ---- scratch buffers --------------------------------------------------- */

static void scratch_reserve(Clinic *c, Scratch *sc, size_t need)
{
    if (need + 1 <= sc->cap)
        return;
    size_t cap = sc->cap ? sc->cap : 128;
    while (cap < need + 1)
        cap *= 2;
    char *buf = arena_alloc(c->arena, cap);
    if (sc->len)
        memcpy(buf, sc->buf, sc->len);
    sc->buf = buf;
    sc->cap = cap;
}

static void scratch_add(Clinic *c, Scratch *sc, const char *s, size_t n)
{
    scratch_reserve(c, sc, sc->len + n);
    memmove(sc->buf + sc->len, s, n);
    sc->len += n;
    sc->buf[sc->len] = '\0';
}

/* ---- the condition stack ----------------------------------------------- */

static const char *negate(Clinic *c, const char *condition)
{
    if (condition[0] == '!')
        return condition + 1;
    size_t n = strlen(condition);
    char *negated = arena_alloc(c->arena, n + 2);
    negated[0] = '!';
    memcpy(negated + 1, condition, n + 1);
    return negated;
}

static void push(Clinic *c, CppMonitor *m, CppToken token,
                 const char *condition)
{
    if (m->depth == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 8;
        CppEntry *stack = arena_array_of(c->arena, CppEntry, cap);
        if (m->depth)
            memcpy(stack, m->stack, m->depth * sizeof *stack);
        m->stack = stack;
        m->cap = cap;
    }
    m->stack[m->depth].token = token;
    m->stack[m->depth].condition = condition;
    m->depth++;
}

static CppEntry pop(Clinic *c, CppMonitor *m, const char *token, int lineno)
{
    if (m->depth == 0)
        clinic_fail(c, lineno, "#%s without matching #if / #ifdef / #ifndef!",
                    token);
    return m->stack[--m->depth];
}

/* cpp.py's is_a_simple_defined: ^defined\s*\(\s*[A-Za-z0-9_]+\s*\)$.
   The condition was rebuilt from split() fields, so ' ' is the only
   whitespace it can contain. */
static bool is_a_simple_defined(const char *s)
{
    if (strncmp(s, "defined", 7) != 0)
        return false;
    s += 7;
    while (*s == ' ')
        s++;
    if (*s++ != '(')
        return false;
    while (*s == ' ')
        s++;
    const char *name = s;
    while ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
           (*s >= '0' && *s <= '9') || *s == '_')
        s++;
    if (s == name)
        return false;
    while (*s == ' ')
        s++;
    return s[0] == ')' && s[1] == '\0';
}

/* ---- one directive ----------------------------------------------------- */

/* The directives the monitor follows (the others change nothing). */
typedef enum Conditional {
    NOT_CONDITIONAL, COND_IF, COND_IFDEF, COND_IFNDEF, COND_ELIF, COND_ELSE,
    COND_ENDIF,
} Conditional;

static const struct {
    const char *name;
    size_t len;
} conditionals[] = {
    [COND_IF] = {"if", 2}, [COND_IFDEF] = {"ifdef", 5},
    [COND_IFNDEF] = {"ifndef", 6}, [COND_ELIF] = {"elif", 4},
    [COND_ELSE] = {"else", 4}, [COND_ENDIF] = {"endif", 5},
};

/* Does s[0, n) lower to the lowercase word w (n bytes)?  Setting the bit
   0x20 lowers A-Z, and no other byte becomes a lowercase letter. */
static bool lowers_to(const char *s, const char *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((s[i] | 0x20) != w[i])
            return false;
    return true;
}

/* Which directive the token s[0, n) is, lowered as cpp.py lowers
   fields[0] (only ASCII letters lower to these). */
static Conditional conditional_of(const char *s, size_t n)
{
    switch (n) {
    case 2:
        return lowers_to(s, "if", 2) ? COND_IF : NOT_CONDITIONAL;
    case 4:
        return lowers_to(s, "elif", 4)   ? COND_ELIF
               : lowers_to(s, "else", 4) ? COND_ELSE
                                         : NOT_CONDITIONAL;
    case 5:
        return lowers_to(s, "ifdef", 5)   ? COND_IFDEF
               : lowers_to(s, "endif", 5) ? COND_ENDIF
                                          : NOT_CONDITIONAL;
    case 6:
        return lowers_to(s, "ifndef", 6) ? COND_IFNDEF : NOT_CONDITIONAL;
    default:
        return NOT_CONDITIONAL;
    }
}

/* The directive's arguments as cpp.py has them, ' '.join(fields[1:]), in
   arena memory with room for `before` bytes before them and `after`
   after them (and the NUL): the fields and the single spaces between
   them take no more room than the text they come from. */
static char *join_arguments(Clinic *c, const char *s, const char *end,
                            size_t before, size_t after, size_t *len,
                            int *nargs)
{
    char *joined = (char *)arena_alloc(c->arena, before + (size_t)(end - s) +
                                                     after + 1) + before;
    char *p = joined;
    *nargs = 0;
    for (;;) {
        s = skip_space(s, end);
        if (s >= end)
            break;
        const char *field = s;
        s = skip_field(s, end);
        if (p > joined)
            *p++ = ' ';
        memcpy(p, field, (size_t)(s - field));
        p += s - field;
        ++*nargs;
    }
    *p = '\0';
    *len = (size_t)(p - joined);
    return joined;
}

static void directive(Clinic *c, CppMonitor *m, const char *s,
                      const char *end, int lineno)
{
    s = skip_space(s, end);
    if (s == end)   /* cpp.py: `assert line`, so clinic.py stops here */
        clinic_fail(c, lineno, "Empty preprocessor directive!");
    /* #include, #define and the like change nothing: most directives
       are left here, before anything is copied */
    const char *token_end = skip_field(s, end);
    Conditional kind = conditional_of(s, (size_t)(token_end - s));
    const char *token = conditionals[kind].name;
    size_t len;
    int nargs;
    char *condition;

    switch (kind) {
    case NOT_CONDITIONAL:
        return;
    case COND_IF:
    case COND_ELIF:
        condition = join_arguments(c, token_end, end, 1, 1, &len, &nargs);
        if (len == 0)
            clinic_fail(c, lineno, "Invalid format for #%s line: no argument!",
                        token);
        if (!is_a_simple_defined(condition)) {   /* "(" + condition + ")" */
            condition[len] = ')';
            condition[len + 1] = '\0';
            *--condition = '(';
        }
        if (kind == COND_ELIF) {
            CppEntry previous = pop(c, m, token, lineno);
            push(c, m, previous.token, negate(c, previous.condition));
        }
        push(c, m, kind == COND_ELIF ? CPP_ELIF : CPP_IF, condition);
        break;
    case COND_IFDEF:
    case COND_IFNDEF:
        /* room for "!defined(" before and ")" after */
        condition = join_arguments(c, token_end, end, 9, 1, &len, &nargs);
        if (len == 0)
            clinic_fail(c, lineno, "Invalid format for #%s line: no argument!",
                        token);
        if (nargs != 1)
            clinic_fail(c, lineno, "Invalid format for #%s line: should "
                        "be exactly one argument!", token);
        condition[len] = ')';
        condition[len + 1] = '\0';
        condition -= 8;
        memcpy(condition, "defined(", 8);
        if (kind == COND_IFNDEF)
            *--condition = '!';
        push(c, m, CPP_IF, condition);
        break;
    case COND_ELSE: {
        CppEntry previous = pop(c, m, token, lineno);
        push(c, m, previous.token, negate(c, previous.condition));
        break;
    }
    case COND_ENDIF:
        while (pop(c, m, token, lineno).token != CPP_IF)
            ;
        break;
    }
}

/* ---- public interface -------------------------------------------------- */

CppMonitor *cpp_new(Clinic *c)
{
    return arena_new_of(c->arena, CppMonitor);
}

bool cpp_wants_any_line(const CppMonitor *m)
{
    return m->has_continuation;
}

/* A line that is no directive can change nothing but whether a comment
   is open at its end (or fail on an opener inside one): its comments are
   followed where they are, not cut out of a copy of the line as they are
   for a directive.  Cutting one out leaves what precedes it, where no
   opener is, a space, and what follows it: the next opener is the first
   one after the closer. */
static void follow_comments(Clinic *c, CppMonitor *m, const char *s,
                            const char *end, int lineno)
{
    const char *open;
    while ((open = find(s, end, "/*")) != NULL) {
        if (m->in_comment)
            clinic_fail(c, lineno, "Nested block comment!");
        const char *close = find(open + 2, end, "*/");
        if (!close) {   /* the comment continues past the end of the line */
            m->in_comment = true;
            return;
        }
        s = close + 2;
    }
}

void cpp_writeline(Clinic *c, CppMonitor *m, const char *text, int lineno)
{
    cpp_writeline_n(c, m, text, strlen(text), lineno);
}

/* Every step below is bounded by end: the line needs no NUL after it. */
void cpp_writeline_n(Clinic *c, CppMonitor *m, const char *text, size_t len,
                     int lineno)
{
    const char *end = text + len;
    const char *s = skip_space(text, end);
    bool own_copy = false;     /* s points into m->line, which we may edit */
    end = rstrip_end(s, end);

    if (m->has_continuation && s < end && end[-1] == '\\') {
        /* continued again: the continuation becomes
           (self.continuation + line)[:-1].rstrip() + " ", which is the
           continuation (a stripped line and a space) with this line's
           part added, if it has one, and a space */
        const char *cut = rstrip_end(s, end - 1);
        if (cut > s) {
            scratch_add(c, &m->continuation, s, (size_t)(cut - s));
            scratch_add(c, &m->continuation, " ", 1);
        }
        return;
    }
    if (m->has_continuation) {
        /* line = self.continuation + line */
        Scratch *cont = &m->continuation;
        m->line.len = 0;
        scratch_add(c, &m->line, cont->buf, cont->len);
        scratch_add(c, &m->line, s, (size_t)(end - s));
        m->has_continuation = false;
        own_copy = true;
        s = m->line.buf;
        end = s + m->line.len;
    }

    if (s == end)
        return;

    if (end[-1] == '\\') {
        /* self.continuation = line[:-1].rstrip() + " " */
        const char *cut = rstrip_end(s, end - 1);
        Scratch *cont = &m->continuation;
        cont->len = 0;
        scratch_add(c, cont, s, (size_t)(cut - s));
        scratch_add(c, cont, " ", 1);
        m->has_continuation = true;
        return;
    }

    if (m->in_comment) {
        const char *close = find(s, end, "*/");
        if (close) {
            s = close + 2;
            m->in_comment = false;
        }
    }

    /* Is it a directive?  What follows can only make its first character
       a space (a comment cut out at its start) or take the line away
       ("//" at its start): one that does not start with '#' now never
       will. */
    if (s == end || *s != '#') {
        follow_comments(c, m, s, end, lineno);
        return;
    }

    for (;;) {
        const char *open = find(s, end, "/*");
        if (!open)
            break;
        if (m->in_comment)
            clinic_fail(c, lineno, "Nested block comment!");
        const char *close = find(open + 2, end, "*/");
        if (!close) {
            /* the comment continues past the end of the line */
            m->in_comment = true;
            end = rstrip_end(s, open);
            break;
        }
        /* line = before.rstrip() + ' ' + after.lstrip(), edited in place
           in our own copy of the line (it only gets shorter) */
        size_t open_at = (size_t)(open - s), close_at = (size_t)(close - s);
        if (!own_copy) {
            own_copy = true;
            m->line.len = 0;
            scratch_add(c, &m->line, s, (size_t)(end - s));
            s = m->line.buf;
            end = s + m->line.len;
        }
        char *out = (char *)rstrip_end(s, s + open_at);
        const char *after = skip_space(s + close_at + 2, end);
        *out++ = ' ';
        memmove(out, after, (size_t)(end - after));
        end = out + (end - after);
    }

    const char *line_comment = find(s, end, "//");
    if (line_comment)
        end = rstrip_end(s, line_comment);

    if (s == end || *s != '#')
        return;
    if (m->in_comment && (c->dialect->fixes & FIX_CPP_SKIPS_COMMENTED))
        return;
    directive(c, m, s + 1, end, lineno);
}

const char *cpp_condition(Clinic *c, CppMonitor *m)
{
    if (m->depth == 0)
        return "";
    if (m->depth == 1)
        return m->stack[0].condition;
    StrBuf sb = STRBUF_INIT;
    for (size_t i = 0; i < m->depth; i++) {
        if (i)
            sb_adds(&sb, " && ");
        sb_adds(&sb, m->stack[i].condition);
    }
    return sb_take(&sb, c->arena);
}

/* cpp.py's Monitor.close() fails on an unterminated #if, but clinic.py
   never calls it: a file ending inside a conditional is accepted.  We do
   the same, so this only exists to mark the end of the file. */
void cpp_close(Clinic *c, CppMonitor *m)
{
    (void)c;
    (void)m;
}
