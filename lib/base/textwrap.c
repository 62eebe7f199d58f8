/*
 * textwrap.c — Python's textwrap.wrap(), for the texts 3.13's clinic wraps
 * (the deprecation notes it adds to docstrings, the C string literals of
 * its warnings).  The chunks are TextWrapper's: runs of whitespace and
 * words, a word split after a hyphen where wordsep_re splits it
 * ("positional-" "only"); lines are filled greedily as _wrap_chunks
 * fills them, and words too long for a line are broken.  ASCII text:
 * clinic's messages are made of identifiers.
 */
#include "base/textwrap.h"

#include <string.h>

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' ||
           ch == '\f' || ch == '\r';
}

static bool is_word(char ch)    /* \w */
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '_';
}

static bool is_letter(char ch)  /* [^\d\W] */
{
    return is_word(ch) && !(ch >= '0' && ch <= '9');
}

static bool is_word_punct(char ch)  /* [\w!"'&.,?] */
{
    return is_word(ch) || (ch && strchr("!\"'&.,?", ch));
}

/* (?=-{2,}\w) at s + i */
static bool em_dash_ahead(const char *s, size_t n, size_t i)
{
    size_t k = i;
    while (k < n && s[k] == '-')
        k++;
    return k - i >= 2 && k < n && is_word(s[k]);
}

/* wordsep_re's hyphenated word: a chunk may end after the '-' at k - 1. */
static bool hyphen_break(const char *s, size_t n, size_t start, size_t k)
{
    if (k < start + 2 || s[k - 1] != '-')
        return false;
    bool behind = (k >= 3 && is_letter(s[k - 3]) && is_letter(s[k - 2])) ||
                  (k >= 4 && is_letter(s[k - 4]) && s[k - 3] == '-' &&
                   is_letter(s[k - 2]));
    bool ahead = k < n && is_letter(s[k]) &&
                 ((k + 1 < n && is_letter(s[k + 1])) ||
                  (k + 2 < n && s[k + 1] == '-' && is_letter(s[k + 2])));
    return behind && ahead;
}

/* The length of the chunk at s + i (wordsep_re, or with break_on_hyphens
   false wordsep_simple_re). */
static size_t chunk_length(const char *s, size_t n, size_t i, bool hyphens)
{
    size_t k = i;
    if (is_space(s[i])) {
        while (k < n && is_space(s[k]))
            k++;
        return k - i;
    }
    if (!hyphens) {
        while (k < n && !is_space(s[k]))
            k++;
        return k - i;
    }
    if (i > 0 && is_word_punct(s[i - 1]) && em_dash_ahead(s, n, i)) {
        while (k < n && s[k] == '-')
            k++;
        return k - i;
    }
    for (k = i + 1; k <= n; k++) {
        if (k < n && hyphen_break(s, n, i, k + 1) && !is_space(s[k - 1]))
            return k + 1 - i;
        if (k == n || is_space(s[k]))
            return k - i;
        if (is_word_punct(s[k - 1]) && em_dash_ahead(s, n, k))
            return k - i;
    }
    return n - i;
}

typedef struct Chunk {
    const char *s;
    size_t len;
} Chunk;

static bool blank(const Chunk *ch)
{
    for (size_t i = 0; i < ch->len; i++)
        if (!is_space(ch->s[i]))
            return false;
    return true;
}

size_t text_wrap(Arena *a, const char *text, const TextWrap *opts,
                 const char ***lines_out)
{
    size_t n = strlen(text);
    char *s = arena_strdup(a, text);
    if (opts->replace_whitespace)
        for (size_t i = 0; i < n; i++)
            if (is_space(s[i]))
                s[i] = ' ';

    /* the chunks, reversed, as _wrap_chunks wants them */
    Chunk *chunks = arena_array_of(a, Chunk, n + 1);
    size_t nchunks = 0;
    for (size_t i = 0; i < n;) {
        size_t len = chunk_length(s, n, i, opts->break_on_hyphens);
        chunks[nchunks].s = s + i;
        chunks[nchunks++].len = len;
        i += len;
    }
    for (size_t i = 0; i < nchunks / 2; i++) {
        Chunk t = chunks[i];
        chunks[i] = chunks[nchunks - 1 - i];
        chunks[nchunks - 1 - i] = t;
    }

    const char **lines = arena_array_of(a, const char *, n + 1);
    size_t nlines = 0;
    Chunk *line = arena_array_of(a, Chunk, n + 1);
    while (nchunks) {
        size_t nline = 0, cur_len = 0;
        const char *indent = nlines ? opts->subsequent_indent
                                    : opts->initial_indent;
        long width = opts->width - (long)strlen(indent);

        if (opts->drop_whitespace && blank(&chunks[nchunks - 1]) && nlines)
            nchunks--;
        while (nchunks) {
            size_t l = chunks[nchunks - 1].len;
            if ((long)(cur_len + l) > width)
                break;
            line[nline++] = chunks[--nchunks];
            cur_len += l;
        }
        if (nchunks && (long)chunks[nchunks - 1].len > width) {
            /* _handle_long_word, break_long_words */
            long space_left = width < 1 ? 1 : width - (long)cur_len;
            Chunk *ch = &chunks[nchunks - 1];
            size_t end = (size_t)space_left;
            if (opts->break_on_hyphens && (long)ch->len > space_left) {
                long hyphen = -1;
                for (long k = space_left - 1; k >= 0; k--)
                    if (ch->s[k] == '-') {
                        hyphen = k;
                        break;
                    }
                bool all_hyphens = true;
                for (long k = 0; k < hyphen; k++)
                    all_hyphens &= ch->s[k] == '-';
                if (hyphen > 0 && !all_hyphens)
                    end = (size_t)hyphen + 1;
            }
            line[nline].s = ch->s;
            line[nline++].len = end;
            ch->s += end;
            ch->len -= end;
        }
        if (opts->drop_whitespace && nline && blank(&line[nline - 1]))
            nline--;
        if (nline) {
            StrBuf sb = STRBUF_INIT;
            sb_adds(&sb, indent);
            for (size_t i = 0; i < nline; i++)
                sb_add(&sb, line[i].s, line[i].len);
            lines[nlines++] = sb_take(&sb, a);
        }
    }
    *lines_out = lines;
    return nlines;
}

const char *text_fill(Arena *a, const char *text, int width)
{
    TextWrap opts = TEXTWRAP_DEFAULTS;
    const char **lines;
    opts.width = width;
    size_t n = text_wrap(a, text, &opts, &lines);
    StrBuf sb = STRBUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_addc(&sb, '\n');
        sb_adds(&sb, lines[i]);
    }
    return sb_take(&sb, a);
}
