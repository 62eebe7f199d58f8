/*
 * crename.c — identifiers renamed in C code, literals and comments left
 * alone (see crename.h).  One pass over the text: a small scanner that
 * knows where strings, characters and comments start and end, and looks
 * every identifier up by binary search.
 */
#include "model/crename.h"

#include <string.h>

#include "base/strbuf.h"

static bool is_ident_start(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool is_ident_char(char ch)
{
    return is_ident_start(ch) || (ch >= '0' && ch <= '9');
}

bool crename_sorted(const CRenameTable *t)
{
    for (size_t i = 1; i < t->n; i++)
        if (strcmp(t->entries[i - 1].from, t->entries[i].from) >= 0)
            return false;
    return true;
}

/* strcmp of a NUL-terminated string with n bytes of name */
static int compare_name(const char *s, const char *name, size_t n)
{
    int r = strncmp(s, name, n);
    if (r)
        return r;
    return s[n] ? 1 : 0;
}

const char *crename_lookup(const CRenameTable *t, const char *name, size_t n)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = compare_name(t->entries[mid].from, name, n);
        if (r == 0)
            return t->entries[mid].to;
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Past a literal that opens with `quote` at s (a backslash escapes the
   next byte; an unterminated literal ends at the end of its line). */
static const char *skip_literal(const char *s, char quote)
{
    s++;
    while (*s && *s != quote && *s != '\n') {
        if (*s == '\\' && s[1])
            s++;
        s++;
    }
    return *s == quote ? s + 1 : s;
}

/* Past the comment at s, if one starts there; else s. */
static const char *skip_comment(const char *s)
{
    if (s[0] == '/' && s[1] == '*') {
        const char *end = strstr(s + 2, "*/");
        return end ? end + 2 : s + strlen(s);
    }
    if (s[0] == '/' && s[1] == '/') {
        const char *end = strchr(s, '\n');
        return end ? end : s + strlen(s);
    }
    return s;
}

const char *crename_text(Arena *a, const char *text, const CRenameTable *t,
                         bool *renamed)
{
    StrBuf sb = STRBUF_INIT;
    const char *copied = text;     /* text before this is in sb */
    const char *s = text;
    bool any = false;
    while (*s) {
        const char *after = skip_comment(s);
        if (after != s) {
            s = after;
        } else if (*s == '"' || *s == '\'') {
            s = skip_literal(s, *s);
        } else if (is_ident_start(*s) && (s == text || !is_ident_char(s[-1]))) {
            const char *start = s;
            while (is_ident_char(*s))
                s++;
            const char *to = crename_lookup(t, start, (size_t)(s - start));
            if (to) {
                sb_add(&sb, copied, (size_t)(start - copied));
                sb_adds(&sb, to);
                copied = s;
                any = true;
            }
        } else {
            s++;
        }
    }
    if (renamed)
        *renamed = any;
    if (!any) {
        sb_free(&sb);
        return text;
    }
    sb_adds(&sb, copied);
    return sb_take(&sb, a);
}
