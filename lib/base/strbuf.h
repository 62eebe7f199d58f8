/*
 * strbuf.h — a growable byte string on the heap: the buffer text is
 * built in everywhere.  (The printer's output, printout.h, and the
 * destinations' buffers, route.h, are growable too, each shaped for its
 * one job: comparing with old text as it is written, appending pieces.)
 *
 * Invariants: buf is never NULL once initialised (STRBUF_INIT points at a
 * shared empty string until the first append), buf[len] == '\0' always,
 * and len counts bytes, so embedded NULs are allowed.  A StrBuf owns its
 * heap memory; sb_free() releases it, sb_detach() hands it to the caller,
 * sb_to_arena() copies it into an arena and resets the buffer for reuse,
 * sb_take() copies it into an arena and frees the buffer (the usual end
 * of a StrBuf's life).
 */
#ifndef CLINIC_STRBUF_H
#define CLINIC_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"

typedef struct StrBuf {
    char *buf;
    size_t len;
    size_t cap; /* 0 while buf points at the shared empty string */
} StrBuf;

extern char strbuf_empty[];
#define STRBUF_INIT { strbuf_empty, 0, 0 }

void sb_init(StrBuf *sb);
/* Frees the first-size buffers the calling thread keeps for its next
   StrBufs (strbuf.c): for a thread about to end. */
void sb_release_spares(void);
void sb_free(StrBuf *sb);
void sb_reset(StrBuf *sb);                 /* len = 0, keeps memory */
void sb_grow(StrBuf *sb, size_t extra);
char *sb_detach(StrBuf *sb, size_t *len);  /* caller frees; sb reset */
char *sb_to_arena(StrBuf *sb, Arena *a);   /* copy into arena; sb reset */
char *sb_take(StrBuf *sb, Arena *a);       /* copy into arena; sb freed */

void sb_add(StrBuf *sb, const char *data, size_t n);
void sb_adds(StrBuf *sb, const char *s);
/* One character: inline, for the loops that build text a character at
   a time; the slow path grows the buffer. */
void sb_addc_grow(StrBuf *sb, char c);
static inline void sb_addc(StrBuf *sb, char c)
{
    if (sb->len + 1 < sb->cap) {
        sb->buf[sb->len++] = c;
        sb->buf[sb->len] = '\0';
    } else {
        sb_addc_grow(sb, c);
    }
}
void sb_addsb(StrBuf *sb, const StrBuf *other);
void sb_addf(StrBuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sb_vaddf(StrBuf *sb, const char *fmt, va_list ap);

void sb_setlen(StrBuf *sb, size_t len);    /* truncate */

#endif
