/*
 * convert_summary.c — the summary line clinic wants a docstring to open
 * with, made as a CPython developer makes it when converting by hand: a
 * first paragraph of more lines than one gives its first sentence as the
 * summary line, a blank line, then the rest of the text as written.
 *
 * The first sentence ends at the first "." that
 *   - stands outside brackets ( [ {,
 *   - is followed by a blank or a newline, or ends the paragraph,
 *   - ends a word that is no abbreviation: a word with a "." of its own
 *     ("e.g.", "a.k.a.", "str.join.") or one of "etc", "vs", "cf", and
 *   - is followed by a word that begins with no lowercase letter;
 * with none, the whole paragraph is the sentence.  Its lines become one,
 * each line break with the blanks around it one space.  Refused (why):
 * a sentence that runs over an indented line (the indent says the lines
 * are laid out: a table, an example), or whose one line would be wider
 * than SUMMARY_MAX columns or the dialect's summary width (3.15's, an
 * error there; a summary line the docstring has is held to that too).
 */
#include <string.h>

#include "base/strbuf.h"
#include "convert/convert_int.h"

#define SUMMARY_MAX 100

static bool is_abbreviation(const char *word, size_t n)
{
    static const char *const abbreviations[] = {"etc", "vs", "cf", NULL};
    if (memchr(word, '.', n))
        return true;
    for (size_t k = 0; abbreviations[k]; k++)
        if (strlen(abbreviations[k]) == n && !memcmp(word, abbreviations[k], n))
            return true;
    return false;
}

/* The end of the first sentence of the paragraph [p, end): past its
   "."; end when the paragraph is one sentence. */
static const char *sentence_end(const char *p, const char *end)
{
    int depth = 0;
    for (const char *s = p; s < end; s++) {
        if (*s == '(' || *s == '[' || *s == '{')
            depth++;
        else if ((*s == ')' || *s == ']' || *s == '}') && depth > 0)
            depth--;
        if (*s != '.' || depth || s == p)
            continue;
        const char *after = s + 1;
        if (after < end && *after != ' ' && *after != '\n')
            continue;
        const char *w = s;
        while (w > p && w[-1] != ' ' && w[-1] != '\n')
            w--;
        if (w == s || is_abbreviation(w, (size_t)(s - w)))
            continue;
        while (after < end && (*after == ' ' || *after == '\n'))
            after++;
        if (after < end && *after >= 'a' && *after <= 'z')
            continue;
        return s + 1;
    }
    return end;
}

/* The columns of the line [s, end): its code points, as Python's len(). */
static size_t columns(const char *s, const char *end)
{
    size_t n = 0;
    for (; s < end; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static const char *too_wide(Arena *a, unsigned width)
{
    return arena_printf(a, "the docstring's summary line would be wider "
                        "than %u columns", width);
}

const char *docstring_with_summary(Arena *a, const char *doc, unsigned width,
                                   const char **why)
{
    const char *para_end = strstr(doc, "\n\n");
    if (!para_end)
        para_end = doc + strlen(doc);
    const char *nl = memchr(doc, '\n', (size_t)(para_end - doc));
    if (!nl) {
        /* a summary line already */
        if (width && columns(doc, para_end) > width) {
            *why = too_wide(a, width);
            return NULL;
        }
        return doc;
    }
    if (!width)
        width = SUMMARY_MAX;
    const char *stop = sentence_end(doc, para_end);
    StrBuf sb = STRBUF_INIT;
    for (const char *s = doc; s < stop; s++) {
        if (*s != '\n') {
            sb_addc(&sb, *s);
            continue;
        }
        if (s[1] == ' ' || s[1] == '\t') {
            sb_free(&sb);
            *why = "the docstring's first sentence runs over an indented "
                   "line, which it would have to join into its summary line";
            return NULL;
        }
        while (sb.len && sb.buf[sb.len - 1] == ' ')
            sb.len--;
        sb_addc(&sb, ' ');
    }
    if (columns(sb.buf, sb.buf + sb.len) > width) {
        sb_free(&sb);
        *why = too_wide(a, width);
        return NULL;
    }
    /* the rest of the paragraph, from the word after the sentence */
    const char *rest = stop;
    while (rest < para_end && (*rest == ' ' || *rest == '\n'))
        rest++;
    if (rest < para_end)
        sb_addf(&sb, "\n\n%s", rest);
    else
        sb_adds(&sb, para_end);
    return sb_take(&sb, a);
}
