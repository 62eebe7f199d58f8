/*
 * strbuf.c — see strbuf.h.
 */
#include "base/strbuf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char strbuf_empty[1];

/* Most StrBufs live for one function and never outgrow their first
   buffer, whose malloc and free cost more than the text written in it:
   a few such buffers are kept for the thread's next StrBufs. */
#define FIRST_CAP 256
#define SPARES 16

static _Thread_local struct {
    char *bufs[SPARES];
    int n;
} spares;

void sb_release_spares(void)
{
    while (spares.n > 0)
        free(spares.bufs[--spares.n]);
}

void sb_init(StrBuf *sb)
{
    sb->buf = strbuf_empty;
    sb->len = sb->cap = 0;
}

void sb_free(StrBuf *sb)
{
    if (sb->cap == FIRST_CAP && spares.n < SPARES)
        spares.bufs[spares.n++] = sb->buf;
    else if (sb->cap)
        free(sb->buf);
    sb_init(sb);
}

void sb_reset(StrBuf *sb)
{
    sb->len = 0;
    if (sb->cap)
        sb->buf[0] = '\0';
}

void sb_grow(StrBuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : FIRST_CAP;
    while (cap < need)
        cap = cap * 2;
    if (sb->cap) {
        sb->buf = xrealloc(sb->buf, cap);
    } else {
        sb->buf = cap == FIRST_CAP && spares.n > 0 ? spares.bufs[--spares.n]
                                                   : xmalloc(cap);
        sb->buf[0] = '\0';
    }
    sb->cap = cap;
}

char *sb_detach(StrBuf *sb, size_t *len)
{
    sb_grow(sb, 0);
    char *p = sb->buf;
    if (len)
        *len = sb->len;
    sb_init(sb);
    return p;
}

char *sb_to_arena(StrBuf *sb, Arena *a)
{
    char *p = arena_strndup(a, sb->buf, sb->len);
    sb_reset(sb);
    return p;
}

char *sb_take(StrBuf *sb, Arena *a)
{
    char *p = arena_strndup(a, sb->buf, sb->len);
    sb_free(sb);
    return p;
}

void sb_add(StrBuf *sb, const char *data, size_t n)
{
    if (n == 0)
        return;
    sb_grow(sb, n);
    memmove(sb->buf + sb->len, data, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
}

void sb_adds(StrBuf *sb, const char *s)
{
    sb_add(sb, s, strlen(s));
}

void sb_addc_grow(StrBuf *sb, char c)
{
    sb_add(sb, &c, 1);
}

void sb_addsb(StrBuf *sb, const StrBuf *other)
{
    sb_add(sb, other->buf, other->len);
}

void sb_vaddf(StrBuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n <= 0)
        return;
    sb_grow(sb, (size_t)n);
    vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void sb_addf(StrBuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vaddf(sb, fmt, ap);
    va_end(ap);
}

void sb_setlen(StrBuf *sb, size_t len)
{
    if (len >= sb->len)
        return;
    sb->len = len;
    sb->buf[len] = '\0';
}

