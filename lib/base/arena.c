/*
 * arena.c — bump allocator in chunks; see arena.h.
 */
#include "base/arena.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK (64 * 1024)
/* The strictest alignment of any type (on x86-64 16, where
   sizeof(max_align_t) is 32: rounding to that wasted 16 bytes in two
   allocations) */
#define ARENA_ALIGN (_Alignof(max_align_t))

typedef struct Chunk {
    struct Chunk *next;
    size_t size;
    size_t used;           /* but for the head chunk: see Arena.free */
    max_align_t data[];
} Chunk;

typedef struct Adopted {
    struct Adopted *next;
    void *block;
} Adopted;

typedef struct OnFree {
    struct OnFree *next;
    void (*fn)(void *context);
    void *context;
} OnFree;

struct Arena {
    Chunk *head;        /* where small allocations come from */
    /* head's free space, [free, limit): an allocation is a comparison
       and an addition (NULL, NULL before the first chunk) */
    char *free, *limit;
    size_t bytes;       /* handed out by the chunks but head */
    Adopted *adopted;   /* malloc'd blocks freed with the arena */
    OnFree *on_free;    /* arena_on_free()'s, newest first */
    void (*grow_hook)(void *context, size_t size);
    void *grow_context;
};

/* The head chunk's free bytes (0 before the first chunk: both NULL). */
static inline size_t room(const Arena *a)
{
    return (size_t)((uintptr_t)a->limit - (uintptr_t)a->free);
}

/* What c handed out. */
static size_t chunk_used(const Arena *a, const Chunk *c)
{
    return c == a->head ? (size_t)(a->free - (const char *)c->data) : c->used;
}

static void free_adopted(Arena *a)
{
    for (OnFree *f = a->on_free; f; f = f->next)
        f->fn(f->context);
    a->on_free = NULL;
    for (Adopted *d = a->adopted; d; d = d->next)
        free(d->block);
    a->adopted = NULL;   /* the lists themselves live in the chunks */
}

static _Thread_local OutOfMemoryHandler out_of_memory_handler;

OutOfMemoryHandler arena_set_out_of_memory(OutOfMemoryHandler handler)
{
    OutOfMemoryHandler old = out_of_memory_handler;
    out_of_memory_handler = handler;
    return old;
}

static void out_of_memory(void)
{
    OutOfMemoryHandler h = out_of_memory_handler;
    out_of_memory_handler.fn = NULL;   /* failing again in it: abort */
    if (h.fn)
        h.fn(h.context);
    fputs("clinic: out of memory\n", stderr);
    abort();
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t size)
{
    p = realloc(p, size ? size : 1);
    if (!p)
        out_of_memory();
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
    free_adopted(a);
    Chunk *c = a->head;
    while (c) {
        Chunk *next = c->next;
        ARENA_UNPOISON(c->data, c->size);
        free(c);
        c = next;
    }
    free(a);
}

void arena_reset(Arena *a)
{
    free_adopted(a);
    Chunk *keep = NULL, *c = a->head;
    while (c) {
        Chunk *next = c->next;
        if (!keep && c->size == ARENA_CHUNK) {
            keep = c;
        } else {
            ARENA_UNPOISON(c->data, c->size);
            free(c);
        }
        c = next;
    }
    a->head = keep;
    a->free = a->limit = NULL;
    a->grow_hook = NULL;   /* its owner lived in what was dropped */
    if (keep) {
        keep->next = NULL;
        keep->used = 0;
        a->free = (char *)keep->data;
        a->limit = a->free + keep->size;
        ARENA_POISON(keep->data, keep->size);
    }
    a->bytes = 0;
}

bool arena_owns(const Arena *a, const void *p)
{
    const char *q = p;
    for (const Chunk *c = a->head; c; c = c->next)
        if (q >= (const char *)c->data &&
            q < (const char *)c->data + chunk_used(a, c))
            return true;
    return false;
}

void arena_each_span(const Arena *a,
                     void (*fn)(void *context, const void *p, size_t n),
                     void *context)
{
    for (const Chunk *c = a->head; c; c = c->next)
        fn(context, c->data, chunk_used(a, c));
}

/* size bytes (rounded) from a new chunk. */
static __attribute__((noinline)) void *arena_grow(Arena *a, size_t size)
{
    Chunk *c = a->head;
    bool big = size > ARENA_CHUNK / 4;
    size_t want = big ? size : ARENA_CHUNK;
    if (a->grow_hook)
        a->grow_hook(a->grow_context, want);   /* may not return */
    Chunk *n = xmalloc(sizeof(Chunk) + want);
    n->size = want;
    if (c && big) {
        /* a chunk of its own, placed behind the current one so the
           space left there is not wasted */
        n->used = size;
        n->next = c->next;
        c->next = n;
        a->bytes += size;
    } else {
        if (c) {
            c->used = chunk_used(a, c);
            a->bytes += c->used;
        }
        n->used = 0;
        n->next = c;
        a->head = n;
        a->free = (char *)n->data + size;
        a->limit = (char *)n->data + want;
    }
    ARENA_UNPOISON(n->data, size);
    return n->data;
}

/* Uninitialised memory: for strings, which are written in full at once.
   Inline (with the rare new chunk out of line): every string of a run
   comes through here. */
static inline void *arena_alloc_raw(Arena *a, size_t size)
{
    size = (size + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
    if (size == 0)
        size = ARENA_ALIGN;
    if (room(a) < size)
        return arena_grow(a, size);
    void *p = a->free;
    a->free += size;
    ARENA_UNPOISON(p, size);
    return p;
}

void arena_adopt(Arena *a, void *block)
{
    Adopted *d = arena_alloc_raw(a, sizeof *d);
    d->block = block;
    d->next = a->adopted;
    a->adopted = d;
}

void arena_set_grow_hook(Arena *a, void (*fn)(void *context, size_t size),
                         void *context)
{
    a->grow_hook = fn;
    a->grow_context = context;
}

void (*arena_grow_hook_of(const Arena *a, void **context))(void *, size_t)
{
    *context = a->grow_context;
    return a->grow_hook;
}

void arena_on_free(Arena *a, void (*fn)(void *context), void *context)
{
    OnFree *f = arena_alloc_raw(a, sizeof *f);
    f->fn = fn;
    f->context = context;
    f->next = a->on_free;
    a->on_free = f;
}

void *arena_alloc_uninit(Arena *a, size_t size)
{
    return arena_alloc_raw(a, size);
}

void *arena_alloc(Arena *a, size_t size)
{
    void *p = arena_alloc_raw(a, size);
    memset(p, 0, size);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc_raw(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_concat(Arena *a, const char *const *pieces)
{
    enum { MEASURED = 12 };   /* lengths kept from the first look */
    size_t lens[MEASURED], n = 0, total = 0;
    for (; pieces[n]; n++)
        total += lens[n < MEASURED ? n : 0] = strlen(pieces[n]);
    char *out = arena_alloc_raw(a, total + 1), *o = out;
    for (size_t i = 0; i < n; i++) {
        size_t len = i < MEASURED ? lens[i] : strlen(pieces[i]);
        memcpy(o, pieces[i], len);
        o += len;
    }
    *o = '\0';
    return out;
}

char *arena_strdup(Arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

void arena_text_add(Arena *a, ArenaText *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 64;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *grown = arena_alloc_raw(a, cap);
        if (t->len)
            memcpy(grown, t->text, t->len);
        t->text = grown;
        t->cap = cap;
    }
    memcpy(t->text + t->len, s, n);
    t->len += n;
    t->text[t->len] = '\0';
}

void arena_text_adds(Arena *a, ArenaText *t, const char *s)
{
    arena_text_add(a, t, s, strlen(s));
}

/* ---- printf without stdio for the formats clinic uses most ----------

   The generator and the DSL build much of their text with arena_printf;
   vsnprintf twice (measure, then write) was an eighth of the run.  Formats
   made only of literal text, %s, %.*s, %d, %ld, %zu, %c and %% are done
   here; any other conversion goes to vsnprintf, unchanged. */

/* Decimal digits of v into buf (at least 21 bytes), backwards; returns
   the start. */
static char *format_unsigned(char *end, unsigned long long v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

static char *format_signed(char *end, long long v)
{
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v
                                 : (unsigned long long)v;
    char *p = format_unsigned(end, u);
    if (v < 0)
        *--p = '-';
    return p;
}

/* One pass of a simple format: writes what fits in out's cap bytes
   (none when cap is 0) and sets *len to the whole length, without the
   NUL, which the caller adds.  False, at once, for a format that is not
   simple (what it wrote is to be ignored): the check and the formatting
   are one pass. */
static bool simple_vformat(char *out, size_t cap, const char *fmt, va_list ap,
                           size_t *len_out)
{
    size_t n = 0;
    char num[24];
    for (const char *p = fmt; *p; p++) {
        const char *piece;
        size_t len;
        if (*p != '%') {
            const char *next = strchr(p, '%');
            len = next ? (size_t)(next - p) : strlen(p);
            if (n + len <= cap)
                memcpy(out + n, p, len);
            n += len;
            p += len - 1;
            continue;
        }
        p++;
        switch (*p) {
        case 's':
            piece = va_arg(ap, const char *);
            if (!piece)
                piece = "(null)";
            len = strlen(piece);
            break;
        case '.': {                         /* %.*s */
            if (p[1] != '*' || p[2] != 's')
                return false;
            int max = va_arg(ap, int);
            piece = va_arg(ap, const char *);
            if (!piece)
                piece = "(null)";
            len = max < 0 ? strlen(piece) : strnlen(piece, (size_t)max);
            p += 2;
            break;
        }
        case 'd':
            piece = format_signed(num + sizeof num, va_arg(ap, int));
            len = (size_t)(num + sizeof num - piece);
            break;
        case 'l':                           /* %ld */
            if (p[1] != 'd')
                return false;
            piece = format_signed(num + sizeof num, va_arg(ap, long));
            len = (size_t)(num + sizeof num - piece);
            p++;
            break;
        case 'z':                           /* %zu */
            if (p[1] != 'u')
                return false;
            piece = format_unsigned(num + sizeof num, va_arg(ap, size_t));
            len = (size_t)(num + sizeof num - piece);
            p++;
            break;
        case 'c':
            num[0] = (char)va_arg(ap, int);
            piece = num;
            len = 1;
            break;
        case '%':
            piece = "%";
            len = 1;
            break;
        default:
            return false;
        }
        if (n + len <= cap)
            memcpy(out + n, piece, len);
        n += len;
    }
    *len_out = n;
    return true;
}

char *arena_vprintf(Arena *a, const char *fmt, va_list ap)
{
    /* Written straight into the free end of the current chunk; only a
       text longer than what is left there is formatted twice. */
    static char nowhere[1];
    size_t left = room(a), n;
    char *p = a->free ? a->free : nowhere;
    va_list ap2;
    va_copy(ap2, ap);
    ARENA_UNPOISON(p, left);
    bool simple = simple_vformat(p, left, fmt, ap2, &n);
    va_end(ap2);
    if (simple && n < left) {
        /* left is a multiple of ARENA_ALIGN, so the rounded size still
           fits */
        size_t size = (n + 1 + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
        a->free += size;
        ARENA_POISON(p + size, left - size);
        p[n] = '\0';
        return p;
    }
    ARENA_POISON(p, left);
    if (simple) {
        p = arena_alloc_raw(a, n + 1);
        simple_vformat(p, n + 1, fmt, ap, &n);
        p[n] = '\0';
        return p;
    }
    /* any other conversion: vsnprintf's */
    va_copy(ap2, ap);
    int len = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (len < 0)
        len = 0;
    p = arena_alloc(a, (size_t)len + 1);
    vsnprintf(p, (size_t)len + 1, fmt, ap);
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
    return a->bytes + (a->head ? chunk_used(a, a->head) : 0);
}
