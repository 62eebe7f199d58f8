/*
 * arena.c — bump allocator in chunks; see arena.h.
 */
#include "arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK (64 * 1024)
#define ARENA_ALIGN (sizeof(max_align_t))

typedef struct Chunk {
    struct Chunk *next;
    size_t size;
    size_t used;
    max_align_t data[];
} Chunk;

struct Arena {
    Chunk *head;
    size_t bytes;
};

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) {
        fputs("clinic: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fputs("clinic: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *xrealloc(void *p, size_t size)
{
    p = realloc(p, size ? size : 1);
    if (!p) {
        fputs("clinic: out of memory\n", stderr);
        abort();
    }
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

Arena *arena_new(void)
{
    return xcalloc(1, sizeof(Arena));
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    Chunk *c = a->head;
    while (c) {
        Chunk *next = c->next;
        free(c);
        c = next;
    }
    free(a);
}

void *arena_alloc(Arena *a, size_t size)
{
    size = (size + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
    if (size == 0)
        size = ARENA_ALIGN;
    Chunk *c = a->head;
    if (!c || c->size - c->used < size) {
        /* Big requests get a chunk of their own, placed behind the
           current one so the remaining space there is not wasted. */
        size_t want = size > ARENA_CHUNK / 4 ? size : ARENA_CHUNK;
        Chunk *n = xmalloc(sizeof(Chunk) + want);
        n->size = want;
        n->used = 0;
        if (c && want != ARENA_CHUNK) {
            n->next = c->next;
            c->next = n;
        } else {
            n->next = c;
            a->head = n;
        }
        c = n;
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    a->bytes += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(Arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_vprintf(Arena *a, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        n = 0;
    char *p = arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = arena_vprintf(a, fmt, ap);
    va_end(ap);
    return p;
}

size_t arena_bytes(const Arena *a)
{
    return a->bytes;
}
