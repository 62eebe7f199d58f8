/*
 * report.c — what one file's run prints, held until its turn.
 *
 * Files are worked on in parallel (pool.c), but everything they print
 * must come out as the sequential run prints it: each file's output is
 * kept here, in order, each piece marked for stdout or stderr, and
 * written when the file's turn comes.
 */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void report_add(Report *r, bool to_stderr, const char *s, size_t n)
{
    if (n == 0)
        return;
    if (r->n && r->to_stderr[r->n - 1] == to_stderr) {
        sb_add(&r->text, s, n);
        r->ends[r->n - 1] = r->text.len;
        return;
    }
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 4;
        r->ends = xrealloc(r->ends, r->cap * sizeof *r->ends);
        r->to_stderr = xrealloc(r->to_stderr, r->cap * sizeof *r->to_stderr);
    }
    sb_add(&r->text, s, n);
    r->ends[r->n] = r->text.len;
    r->to_stderr[r->n] = to_stderr;
    r->n++;
}

void report_adds(Report *r, bool to_stderr, const char *s)
{
    report_add(r, to_stderr, s, strlen(s));
}

void report_printf(Report *r, bool to_stderr, const char *fmt, ...)
{
    StrBuf sb = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sb_vaddf(&sb, fmt, ap);
    va_end(ap);
    report_add(r, to_stderr, sb.buf, sb.len);
    sb_free(&sb);
}

void report_error(Report *r, const char *path, const char *message)
{
    report_printf(r, true, "%s: error: %s\n", path, message);
}

void report_emit(const Report *r)
{
    size_t start = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (r->to_stderr[i]) {
            fflush(stdout);
            fwrite(r->text.buf + start, 1, r->ends[i] - start, stderr);
        } else {
            fwrite(r->text.buf + start, 1, r->ends[i] - start, stdout);
        }
        start = r->ends[i];
    }
}

void report_cut(Report *r, size_t start, size_t end)
{
    size_t n = end - start;
    memmove(r->text.buf + start, r->text.buf + end, r->text.len - end);
    r->text.len -= n;
    r->text.buf[r->text.len] = '\0';
    for (size_t i = 0; i < r->n; i++)
        if (r->ends[i] >= end)
            r->ends[i] -= n;
        else if (r->ends[i] > start)
            r->ends[i] = start;
}

void report_clear(Report *r)
{
    sb_free(&r->text);
    free(r->ends);
    free(r->to_stderr);
    memset(r, 0, sizeof *r);
}
