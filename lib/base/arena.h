/*
 * arena.h — per-run allocation.
 *
 * Everything clinic builds while processing one file (blocks, the model,
 * rendered text) comes from one Arena and is released with one
 * arena_free(), so error recovery by longjmp never leaks.  Allocation
 * failure goes to a per-thread handler (see xmalloc), so one file that
 * needs more memory than there is fails alone.
 */
#ifndef CLINIC_ARENA_H
#define CLINIC_ARENA_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct Arena Arena;

/* Under AddressSanitizer, memory handed back (an arena's reset, the VM's
   temporaries) is poisoned, so a pointer kept past it fails the tests;
   elsewhere these cost nothing. */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define ARENA_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define ARENA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define ARENA_POISON(p, n) ((void)(p), (void)(n))
#define ARENA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

Arena *arena_new(void);
void arena_free(Arena *a);

/* Drops everything allocated from a, keeping one chunk for what comes
   next: for scratch arenas that hold one step's intermediate text. */
void arena_reset(Arena *a);

/* Hands a malloc'd block to the arena, which frees it with everything
   else (arena_free, arena_reset): a buffer read from a file is kept as it
   is instead of being copied in. */
void arena_adopt(Arena *a, void *block);

/* Calls fn(context) when a is freed or reset, before its memory goes
   (the last registered first): for what accounts for memory in the
   arena elsewhere (the interpreter's share of the run's memory). */
void arena_on_free(Arena *a, void (*fn)(void *context), void *context);

/* Calls fn(context, size) before a takes size more bytes from malloc
   (a new chunk, or a big block grown): the only times it grows, so a
   user of the arena can cap it there, by not returning (a longjmp) to
   refuse.  NULL: none; arena_reset() removes it. */
void arena_set_grow_hook(Arena *a, void (*fn)(void *context, size_t size),
                         void *context);

/* Calls fn(context, start, size) for each span of memory a handed out
   (the chunks' used parts): for a collector that looks for pointers in
   it.  The spans may hold bytes never written. */
void arena_each_span(const Arena *a,
                     void (*fn)(void *context, const void *p, size_t n),
                     void *context);

/* The grow hook set now (NULL: none), and its context in *context: for
   a user that sets its own for a while and chains to it. */
void (*arena_grow_hook_of(const Arena *a, void **context))(void *, size_t);

/* Whether p points into memory a handed out. */
bool arena_owns(const Arena *a, const void *p);

/* Zeroed memory, aligned for any type. */
void *arena_alloc(Arena *a, size_t size);
#define arena_new_of(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define arena_array_of(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (n)))

char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *arena_vprintf(Arena *a, const char *fmt, va_list ap);

/* The NULL-terminated pieces, end to end, in one allocation: what
   arena_printf("%s%s...") makes, without reading a format, for text put
   together from a few pieces (templates, declarations). */
char *arena_concat(Arena *a, const char *const *pieces);
#define arena_concat_of(a, ...) \
    arena_concat((a), (const char *const[]){__VA_ARGS__, NULL})

/* Like arena_alloc, but the memory is not zeroed
   (for buffers that are written before they are read). */
void *arena_alloc_uninit(Arena *a, size_t size);
#define arena_array_uninit(a, T, n) \
    ((T *)arena_alloc_uninit((a), sizeof(T) * (n)))


/* Text grown piece by piece in an arena: capacity doubles, so n bytes
   appended in any number of pieces take less than 4n bytes of arena (the
   outgrown copies are not freed, but they sum to less than the last one),
   where printing old text + piece anew at each piece takes n * pieces.
   text is NUL-terminated once anything was added; zero-initialise. */
typedef struct ArenaText {
    char *text;
    size_t len, cap;
} ArenaText;

void arena_text_add(Arena *a, ArenaText *t, const char *s, size_t n);
void arena_text_adds(Arena *a, ArenaText *t, const char *s);

/* Total bytes handed out (for the memory figures of `make bench`). */
size_t arena_bytes(const Arena *a);

/* malloc that never returns NULL.  When memory runs out, the calling
   thread's handler is called, which must not return (the file driver's
   longjmps out of the file being processed, which then fails alone);
   without one, or when memory runs out again inside the handler, clinic
   prints "clinic: out of memory" and aborts. */
typedef struct OutOfMemoryHandler {
    void (*fn)(void *context);
    void *context;
} OutOfMemoryHandler;

/* Sets the calling thread's handler ({NULL, NULL}: none); returns the
   one it replaces. */
OutOfMemoryHandler arena_set_out_of_memory(OutOfMemoryHandler handler);

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

#endif
