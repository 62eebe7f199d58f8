/*
 * pyvm_heap.c — what the interpreter can free before its arena.
 *
 * The file's arena is not freed one by one, which bounds nothing but the
 * arena: a loop that makes and drops a 1,000-byte str per round would
 * fill the memory cap with dead text.  So what Python code makes while it
 * runs is malloc'd blocks here, freed by a mark-and-sweep collection when
 * nothing refers to them any more: every object but classes (lists,
 * dicts, sets, instances, functions, iterators, ...), the arrays of
 * values and tables they hold, the items of tuples, the scopes closures
 * keep, and text (of a str, bytes or int) of VM_BIG_MIN bytes or more.
 * Smaller text, classes, and what the host and the bootstrap make, stay
 * in the arena, where each statement can add only a little (the step and
 * work budgets bound their total); the arena is read by the collection,
 * so what they refer to stays.
 *
 * The collection is conservative, as Boehm's is: any word that points
 * into a block (its start, inside it, or just past its end) keeps it.
 * Words are read from the arena (the objects that stay, and the
 * temporaries), the C stack and registers of the run, and the blocks
 * kept, transitively; text blocks hold no pointers and are not read.  So
 * no pointer the interpreter holds, typed or not, is missed; a dead one
 * left in the arena keeps its block, which costs memory, never safety.
 *
 * The host (clinic) keeps pointers into values in memory the collection
 * does not read (its own structs, malloc'd arrays).  It never sees a
 * block that can be freed: only what a run allocates while Python code
 * runs can be freed, and every block becomes permanent (kept with the
 * arena) whenever control passes to the host: when the outermost run
 * returns or raises, and before a host native or a host class's hook is
 * called.  What a run allocates while the host runs inside it (a host
 * native calling back) goes to the arena.
 *
 * A collection runs when the blocks allocated since the last one pass
 * VM_COLLECT_EVERY bytes and what the last one read and kept (so that
 * collecting costs a bounded share of allocating), or when a cap is
 * reached; a file whose python blocks allocate less never collects.
 */
#include "python/pyvm_int.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* Under valgrind, the words the collection compares include bytes never
   written (padding, an arena's unused ends): what it finds there decides
   nothing but whether a block is kept, so its reports are turned off
   while it reads them. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define QUIET_BEGIN() VALGRIND_DISABLE_ERROR_REPORTING
#define QUIET_END() VALGRIND_ENABLE_ERROR_REPORTING
#endif
#endif
#ifndef QUIET_BEGIN
#define QUIET_BEGIN() ((void)0)
#define QUIET_END() ((void)0)
#endif

/* A block's header; its bytes follow, aligned for any type. */
typedef struct BigBlock {
    size_t size;               /* bytes asked for, past the header */
    bool text;                 /* holds no pointers: not read */
    bool marked;
    max_align_t data[];
} BigBlock;

struct VmHeap {
    BigBlock **blocks;         /* every block, oldest first */
    size_t n, cap;
    size_t permanent;          /* blocks[0..permanent) are kept until
                                  the arena goes */
    size_t bytes;              /* what the blocks hold now */
    size_t since;              /* allocated since the last collection */
    size_t scanned;            /* what the last collection read and kept:
                                  the next one waits until as much was
                                  allocated, so collecting costs a bounded
                                  share of the allocating */
    /* a collection's working state */
    BigBlock **sorted;         /* by address */
    size_t nsorted;
    uintptr_t lo, hi;          /* the span of all blocks */
    BigBlock **todo;           /* marked blocks not read yet */
    size_t ntodo, todo_cap;
};

#define BLOCK_OF(p) ((BigBlock *)((char *)(p) - offsetof(BigBlock, data)))

static void heap_free_all(void *vm_)
{
    PyVM *vm = vm_;
    VmHeap *h = vm->heap;
    if (!h)
        return;
    for (size_t i = 0; i < h->n; i++)
        free(h->blocks[i]);
    free(h->blocks);
    free(h->sorted);
    free(h->todo);
    free(h);
    vm->heap = NULL;
}

size_t vm_heap_bytes(const PyVM *vm)
{
    return (vm->heap ? vm->heap->bytes : 0) +
           (vm->int_scratch ? arena_bytes(vm->int_scratch) : 0);
}

void vm_heap_promote(PyVM *vm)
{
    if (vm->heap)
        vm->heap->permanent = vm->heap->n;
}

/* Whether a block made now may be freed by a collection: only while
   Python code runs, not the host (see above). */
static inline bool collectable_now(const PyVM *vm)
{
    return vm->handler && !vm->in_host;
}

static void *heap_alloc(PyVM *vm, size_t size, bool text)
{
    if (!vm->heap) {
        vm->heap = xcalloc(1, sizeof *vm->heap);
        arena_on_free(vm->a, heap_free_all, vm);
    }
    VmHeap *h = vm->heap;
    /* a unit a byte: what makes a buffer writes it at least once, and
       the memory cap no longer bounds how many a loop makes */
    vm_work(vm, size);
    if (h->since + size > VM_COLLECT_EVERY && h->since + size > h->scanned)
        vm_collect_garbage(vm);
    vm_reserve(vm, size);
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 256;
        h->blocks = xrealloc(h->blocks, h->cap * sizeof *h->blocks);
    }
    /* one byte past the end, so that a pointer just past the bytes is
       inside the block */
    BigBlock *b = xmalloc(sizeof *b + size + 1);
    b->size = size;
    b->text = text;
    b->marked = false;
    h->blocks[h->n++] = b;
    h->bytes += size;
    h->since += size;
    return b->data;
}

void *vm_plain_alloc(PyVM *vm, size_t size)
{
    if (size < VM_BIG_MIN || !collectable_now(vm))
        return arena_alloc_uninit(vm->a, size);
    return heap_alloc(vm, size, true);
}

char *vm_strndup(PyVM *vm, const char *s, size_t n)
{
    char *p = vm_text_alloc(vm, n);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void *vm_items_uninit(PyVM *vm, size_t size)
{
    if (!collectable_now(vm))
        return arena_alloc_uninit(vm->a, size);
    return heap_alloc(vm, size, false);
}

void *vm_items_alloc(PyVM *vm, size_t size)
{
    if (!collectable_now(vm))
        return arena_alloc(vm->a, size);
    return memset(heap_alloc(vm, size, false), 0, size);
}

static void int_scratch_free(void *vm_)
{
    PyVM *vm = vm_;
    arena_free(vm->int_scratch);
    vm->int_scratch = NULL;
}

Arena *vm_int_scratch_new(PyVM *vm)
{
    Arena *a = arena_new();
    arena_set_grow_hook(a, vm_arena_growing, vm);
    arena_on_free(vm->a, int_scratch_free, vm);
    return a;
}

void vm_int_scratch_reset(PyVM *vm)
{
    arena_reset(vm->int_scratch);
    arena_set_grow_hook(vm->int_scratch, vm_arena_growing, vm);
}

void *vm_alloc_container(PyVM *vm, size_t size, ObjKind kind, PyClass *type)
{
    PyObj *o = vm_items_alloc(vm, size);
    o->kind = kind;
    o->type = type;
    return o;
}

void vm_host_enter(PyVM *vm)
{
    vm_heap_promote(vm);
    vm->in_host++;
}

void vm_host_leave(PyVM *vm)
{
    vm->in_host--;
}

/* ---- the collection ---------------------------------------------------- */

static int by_address(const void *x, const void *y)
{
    uintptr_t a = (uintptr_t)*(BigBlock *const *)x;
    uintptr_t b = (uintptr_t)*(BigBlock *const *)y;
    return a < b ? -1 : a > b;
}

static void push(VmHeap *h, BigBlock *b)
{
    if (h->ntodo == h->todo_cap) {
        h->todo_cap = h->todo_cap ? h->todo_cap * 2 : 256;
        h->todo = xrealloc(h->todo, h->todo_cap * sizeof *h->todo);
    }
    h->todo[h->ntodo++] = b;
}

/* Marks the block w points into, if any. */
static inline void mark_word(VmHeap *h, uintptr_t w)
{
    if (w < h->lo || w >= h->hi)
        return;
    size_t lo = 0, hi = h->nsorted;
    while (lo < hi) {                  /* the last block starting <= w */
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)h->sorted[mid] <= w)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return;
    BigBlock *b = h->sorted[lo - 1];
    if (w > (uintptr_t)b->data + b->size || b->marked)
        return;
    b->marked = true;
    if (!b->text)
        push(h, b);
}

/* Reads memory the sanitizers and valgrind see as out of bounds or not
   written (the stack's red zones, an arena's free end): what is there is
   only compared, never used. */
CLINIC_NO_SANITIZE_ADDRESS
static void mark_span(void *h_, const void *p, size_t n)
{
    VmHeap *h = h_;
    uintptr_t start = ((uintptr_t)p + sizeof(void *) - 1)
                      & ~(uintptr_t)(sizeof(void *) - 1);
    uintptr_t end = (uintptr_t)p + n;
    for (uintptr_t q = start; q + sizeof(void *) <= end; q += sizeof(void *))
        mark_word(h, *(const uintptr_t *)q);
}

static CLINIC_NOINLINE void mark_stack(PyVM *vm, VmHeap *h)
{
    jmp_buf regs;                      /* callee-saved registers, spilled */
    setjmp(regs);
    mark_span(h, regs, sizeof regs);
    uintptr_t here = CLINIC_STACK_ADDRESS();
    if (vm->stack_base > here)
        mark_span(h, (const void *)here, vm->stack_base - here);
}

/* Whether this build keeps some frames off the stack (ASan's fake stacks
   for use-after-return): then the stack does not show every pointer, and
   nothing is collected. */
static bool frames_off_stack(void)
{
#ifdef ARENA_ASAN
    return __asan_get_current_fake_stack() != NULL;
#else
    return false;
#endif
}

void vm_collect_garbage(PyVM *vm)
{
    VmHeap *h = vm->heap;
    if (!h || h->n == h->permanent || !collectable_now(vm) ||
        frames_off_stack())
        return;
    h->since = 0;
    h->sorted = xrealloc(h->sorted, h->n * sizeof *h->sorted);
    memcpy(h->sorted, h->blocks, h->n * sizeof *h->sorted);
    h->nsorted = h->n;
    qsort(h->sorted, h->n, sizeof *h->sorted, by_address);
    BigBlock *last = h->sorted[h->n - 1];
    h->lo = (uintptr_t)h->sorted[0];
    h->hi = (uintptr_t)last->data + last->size + 1;
    /* the roots: the blocks kept anyway, the arena, the temporaries, the
       stack */
    QUIET_BEGIN();
    for (size_t i = 0; i < h->permanent; i++)
        if (!h->blocks[i]->text)
            push(h, h->blocks[i]);
    arena_each_span(vm->a, mark_span, h);   /* the temporaries too */
    mark_stack(vm, h);
    while (h->ntodo) {
        BigBlock *b = h->todo[--h->ntodo];
        mark_span(h, b->data, b->size);
    }
    QUIET_END();
    /* the sweep, keeping the order */
    size_t out = h->permanent;
    for (size_t i = h->permanent; i < h->n; i++) {
        BigBlock *b = h->blocks[i];
        if (b->marked) {
            b->marked = false;
            h->blocks[out++] = b;
        } else {
            h->bytes -= b->size;
            free(b);
        }
    }
    for (size_t i = 0; i < h->permanent; i++)
        h->blocks[i]->marked = false;
    h->n = out;
    h->scanned = h->bytes + arena_bytes(vm->a);
}
