/*
 * diff.c — a unified diff of two texts, line by line: Myers' O(ND)
 * greedy algorithm on what remains after the common head and tail are
 * cut off (clinic's changes are small and local, so that is usually a
 * handful of lines).  Should the middle ever be too large to trace, it
 * is shown as one replacement: still a correct diff, just not minimal.
 */
#include "base/diff.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

#define CONTEXT 3
/* Most V entries we keep for the trace back (ints). */
#define TRACE_BUDGET ((size_t)1 << 25)

typedef struct Line {
    const char *s;
    size_t len;         /* with its '\n', if any */
    uint64_t hash;
} Line;

static Line *split_lines(const char *text, size_t len, size_t *count)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    if (len && text[len - 1] != '\n')
        n++;
    Line *lines = xmalloc((n ? n : 1) * sizeof *lines);
    size_t k = 0, start = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n' || i + 1 == len) {
            Line *l = &lines[k++];
            l->s = text + start;
            l->len = i + 1 - start;
            uint64_t h = 1469598103934665603ull;     /* FNV-1a */
            for (size_t j = 0; j < l->len; j++)
                h = (h ^ (unsigned char)l->s[j]) * 1099511628211ull;
            l->hash = h;
            start = i + 1;
        }
    }
    *count = n;
    return lines;
}

static int same(const Line *a, const Line *b)
{
    return a->hash == b->hash && a->len == b->len &&
           memcmp(a->s, b->s, a->len) == 0;
}

/* The edit script of a[0..n) -> b[0..m) as '=', '-', '+' ops, appended
   to ops (which has room for n + m). */
static size_t myers(const Line *a, size_t n, const Line *b, size_t m,
                    char *ops)
{
    size_t max = n + m;
    size_t width = 2 * max + 1;
    /* trace[d] holds V after step d, for k in [-d, d] */
    size_t budget_d = TRACE_BUDGET / (width ? width : 1);
    long *v = xcalloc(width, sizeof *v);
    long **trace = NULL;
    size_t ntrace = 0;
    long off = (long)max;
    long found_d = -1;

    for (long d = 0; d <= (long)max && (size_t)d <= budget_d; d++) {
        for (long k = -d; k <= d; k += 2) {
            long x;
            if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
                x = v[off + k + 1];
            else
                x = v[off + k - 1] + 1;
            long y = x - k;
            while (x < (long)n && y < (long)m && same(&a[x], &b[y])) {
                x++;
                y++;
            }
            v[off + k] = x;
            if (x >= (long)n && y >= (long)m) {
                found_d = d;
                break;
            }
        }
        trace = xrealloc(trace, (ntrace + 1) * sizeof *trace);
        trace[ntrace] = xmalloc(width * sizeof **trace);
        memcpy(trace[ntrace], v, width * sizeof *v);
        ntrace++;
        if (found_d >= 0)
            break;
    }

    size_t nops = 0;
    if (found_d < 0) {
        /* too far apart to trace: replace everything */
        for (size_t i = 0; i < n; i++)
            ops[nops++] = '-';
        for (size_t j = 0; j < m; j++)
            ops[nops++] = '+';
    } else {
        /* walk back from (n, m), collecting ops in reverse */
        char *rev = xmalloc(max + 1);
        size_t nrev = 0;
        long x = (long)n, y = (long)m;
        for (long d = found_d; d > 0; d--) {
            long *pv = trace[d - 1];
            long k = x - y;
            long pk = (k == -d || (k != d && pv[off + k - 1] < pv[off + k + 1]))
                          ? k + 1 : k - 1;
            long px = pv[off + pk], py = px - pk;
            while (x > px && y > py) {
                rev[nrev++] = '=';
                x--;
                y--;
            }
            rev[nrev++] = pk == k + 1 ? '+' : '-';
            x = px;
            y = py;
        }
        while (x > 0 && y > 0) {
            rev[nrev++] = '=';
            x--;
            y--;
        }
        while (nrev > 0)
            ops[nops++] = rev[--nrev];
        free(rev);
    }
    for (size_t i = 0; i < ntrace; i++)
        free(trace[i]);
    free(trace);
    free(v);
    return nops;
}

static void add_line(StrBuf *out, char mark, const Line *l)
{
    sb_addc(out, mark);
    sb_add(out, l->s, l->len);
    if (l->len == 0 || l->s[l->len - 1] != '\n')
        sb_adds(out, "\n\\ No newline at end of file\n");
}

static void add_range(StrBuf *out, size_t start, size_t count)
{
    /* GNU diff: "start,count", count 1 left out, an empty range starts
       at the line before it */
    if (count == 1)
        sb_addf(out, "%zu", start + 1);
    else
        sb_addf(out, "%zu,%zu", count ? start + 1 : start, count);
}

static bool git_quotes(unsigned char ch)
{
    return ch < 0x20 || ch == '"' || ch == '\\' || ch >= 0x7f;
}

static void add_git_escaped(StrBuf *out, const char *s)
{
    static const char letters[] = "abtnvfr";   /* \a (7) to \r (13) */
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (!git_quotes(*p))
            sb_addc(out, (char)*p);
        else if (*p == '"' || *p == '\\')
            sb_addf(out, "\\%c", *p);
        else if (*p >= 7 && *p <= 13)
            sb_addf(out, "\\%c", letters[*p - 7]);
        else
            sb_addf(out, "\\%03o", *p);
    }
}

void diff_add_git_name(StrBuf *out, const char *prefix, const char *name)
{
    bool quoted = false;
    for (const char *p = prefix; *p && !quoted; p++)
        quoted = git_quotes((unsigned char)*p);
    for (const char *p = name; *p && !quoted; p++)
        quoted = git_quotes((unsigned char)*p);
    if (!quoted) {
        sb_adds(out, prefix);
        sb_adds(out, name);
        return;
    }
    sb_addc(out, '"');
    add_git_escaped(out, prefix);
    add_git_escaped(out, name);
    sb_addc(out, '"');
}

void diff_unified(StrBuf *out, const char *old_label, const char *old_text,
                  size_t old_len, const char *new_label,
                  const char *new_text, size_t new_len)
{
    if (old_len == new_len && memcmp(old_text, new_text, old_len) == 0)
        return;
    size_t n, m;
    Line *a = split_lines(old_text, old_len, &n);
    Line *b = split_lines(new_text, new_len, &m);

    size_t head = 0;
    while (head < n && head < m && same(&a[head], &b[head]))
        head++;
    size_t tail = 0;
    while (tail < n - head && tail < m - head &&
           same(&a[n - 1 - tail], &b[m - 1 - tail]))
        tail++;

    char *ops = xmalloc(n + m + 1);
    size_t nops = 0;
    memset(ops, '=', head);
    nops = head;
    nops += myers(a + head, n - head - tail, b + head, m - head - tail,
                  ops + nops);
    memset(ops + nops, '=', tail);
    nops += tail;

    sb_addf(out, "--- %s\n+++ %s\n", old_label, new_label);

    /* hunks: runs of changes less than 2 * CONTEXT equal lines apart */
    size_t i = 0, ai = 0, bi = 0;   /* position in ops, a and b */
    while (i < nops) {
        if (ops[i] == '=') {
            i++;
            ai++;
            bi++;
            continue;
        }
        size_t back = 0;
        while (back < CONTEXT && back < i && ops[i - 1 - back] == '=')
            back++;
        size_t start = i - back, hunk_a = ai - back, hunk_b = bi - back;
        /* find the end: the last change followed by more than
           2 * CONTEXT equal lines (or the end) */
        size_t end = i;
        for (size_t j = i; j < nops;) {
            if (ops[j] != '=') {
                end = ++j;
                continue;
            }
            size_t run = 0;
            while (j + run < nops && ops[j + run] == '=')
                run++;
            if (j + run >= nops || run > 2 * CONTEXT) {
                end += run < CONTEXT ? run : CONTEXT;
                break;
            }
            j += run;
        }
        size_t count_a = 0, count_b = 0;
        for (size_t j = start; j < end; j++) {
            count_a += ops[j] != '+';
            count_b += ops[j] != '-';
        }
        sb_adds(out, "@@ -");
        add_range(out, hunk_a, count_a);
        sb_adds(out, " +");
        add_range(out, hunk_b, count_b);
        sb_adds(out, " @@\n");
        size_t pa = hunk_a, pb = hunk_b;
        for (size_t j = start; j < end; j++) {
            if (ops[j] == '=') {
                add_line(out, ' ', &a[pa++]);
                pb++;
            } else if (ops[j] == '-') {
                add_line(out, '-', &a[pa++]);
            } else {
                add_line(out, '+', &b[pb++]);
            }
        }
        i = end;
        ai = pa;
        bi = pb;
    }
    free(ops);
    free(a);
    free(b);
}
