/*
 * arena.h — per-run allocation.
 *
 * Everything clinic builds while processing one file (blocks, the model,
 * rendered text) comes from one Arena and is released with one
 * arena_free(), so error recovery by longjmp never leaks.  Allocation
 * failure aborts: there is nothing sensible to do without memory.
 */
#ifndef CLINIC_ARENA_H
#define CLINIC_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct Arena Arena;

Arena *arena_new(void);
void arena_free(Arena *a);

/* Zeroed memory, aligned for any type. */
void *arena_alloc(Arena *a, size_t size);
#define arena_new_of(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define arena_array_of(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (n)))

char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *arena_vprintf(Arena *a, const char *fmt, va_list ap);

/* Appended for speed: like arena_alloc, but the memory is not zeroed
   (for buffers that are written before they are read). */
void *arena_alloc_uninit(Arena *a, size_t size);

/* Total bytes handed out (for the memory figures of `make bench`). */
size_t arena_bytes(const Arena *a);

/* malloc that never returns NULL (aborts with a message instead). */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

#endif
