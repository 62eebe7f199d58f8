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
 * keep, and text (of a str, bytes or int): of VM_BIG_MIN bytes or more
 * in a block of its own, smaller in a slot of a slab (see Slab) once the
 * arena has grown by VM_SMALL_SLOTS_AFTER while Python code ran (a loop;
 * before, a run makes little, and the arena is quicker).  Classes, the
 * first small text of a run, and what the host and the bootstrap make,
 * stay in the arena, where each statement can add only a little (the
 * step and work budgets bound their total); the arena is read by the
 * collection, so what they refer to stays.
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
   while it reads them, and the slots' mark bits, which such a word may
   have set, are then declared known (KNOWN). */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>) && __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>
#define QUIET_BEGIN() VALGRIND_DISABLE_ERROR_REPORTING
#define QUIET_END() VALGRIND_ENABLE_ERROR_REPORTING
#define KNOWN(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#endif
#endif
#ifndef QUIET_BEGIN
#define QUIET_BEGIN() ((void)0)
#define QUIET_END() ((void)0)
#define KNOWN(p, n) ((void)(p), (void)(n))
#endif

typedef struct Slab Slab;

/* A block's header; its bytes follow, aligned for any type. */
typedef struct BigBlock {
    size_t size;               /* bytes asked for, past the header */
    Slab *slab;                /* a slab's slots (below), or NULL */
    bool text;                 /* holds no pointers: not read */
    bool marked;
    max_align_t data[];
} BigBlock;

/* Small text: slabs of SLAB_BYTES cut in slots of one size (16 to 256
   bytes), each slot a text two bytes shorter (its NUL, and a byte so
   that a pointer just past the NUL is still inside).  The collection
   marks and frees slots, and frees a slab none of whose slots is in
   use.  A slot is permanent once a promotion has seen it in use: a
   promotion walks the slabs that handed out a slot since the one
   before (dirty), so it costs what was allocated in between. */
enum {
    SLAB_BYTES = 4096,
    SLAB_MIN_SLOT = 16,
    SLAB_CLASSES = 5,                          /* 16, 32, 64, 128, 256 */
    SLAB_WORDS = SLAB_BYTES / SLAB_MIN_SLOT / 64,
};

struct Slab {
    uint64_t used[SLAB_WORDS], permanent[SLAB_WORDS], marked[SLAB_WORDS];
    unsigned slot, nslots, nused;
    unsigned fresh;            /* slots from here on never handed out */
    unsigned cls;
    bool dirty;
    Slab *next_room;           /* on its class's list of slabs with room */
    bool has_room;
    BigBlock *block;
};

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
    /* small text */
    BigBlock **slabs;
    size_t nslabs, slabs_cap;
    Slab *room[SLAB_CLASSES];  /* slabs with a free slot */
    Slab **dirty;              /* slabs with slots not yet promoted */
    size_t ndirty, dirty_cap;
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
    for (size_t i = 0; i < h->nslabs; i++) {
        free(h->slabs[i]->slab);
        free(h->slabs[i]);
    }
    free(h->slabs);
    free(h->dirty);
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
    VmHeap *h = vm->heap;
    if (!h)
        return;
    h->permanent = h->n;
    for (size_t i = 0; i < h->ndirty; i++) {
        Slab *sl = h->dirty[i];
        for (unsigned k = 0; k < SLAB_WORDS; k++)
            sl->permanent[k] = sl->used[k];
        sl->dirty = false;
    }
    h->ndirty = 0;
}

/* Whether a block made now may be freed by a collection: only while
   Python code runs, not the host (see above). */
static inline bool collectable_now(const PyVM *vm)
{
    return vm->handler && !vm->in_host;
}

static VmHeap *heap_of(PyVM *vm)
{
    if (!vm->heap) {
        vm->heap = xcalloc(1, sizeof *vm->heap);
        arena_on_free(vm->a, heap_free_all, vm);
    }
    return vm->heap;
}

static void *heap_alloc(PyVM *vm, size_t size, bool text)
{
    VmHeap *h = heap_of(vm);
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
    b->slab = NULL;
    b->text = text;
    b->marked = false;
    h->blocks[h->n++] = b;
    h->bytes += size;
    h->since += size;
    return b->data;
}

/* A new slab of slots of class cls, on its list of slabs with room. */
static Slab *slab_new(PyVM *vm, unsigned cls)
{
    VmHeap *h = vm->heap;
    if (h->since + SLAB_BYTES > VM_COLLECT_EVERY &&
        h->since + SLAB_BYTES > h->scanned)
        vm_collect_garbage(vm);
    vm_reserve(vm, SLAB_BYTES);
    if (h->nslabs == h->slabs_cap) {
        h->slabs_cap = h->slabs_cap ? h->slabs_cap * 2 : 64;
        h->slabs = xrealloc(h->slabs, h->slabs_cap * sizeof *h->slabs);
    }
    BigBlock *b = xmalloc(sizeof *b + SLAB_BYTES);
    Slab *sl = xcalloc(1, sizeof *sl);
    b->size = SLAB_BYTES;
    b->slab = sl;
    b->text = true;
    b->marked = false;
    sl->block = b;
    sl->cls = cls;
    sl->slot = SLAB_MIN_SLOT << cls;
    sl->nslots = SLAB_BYTES / sl->slot;
    ARENA_POISON(b->data, SLAB_BYTES);
    h->slabs[h->nslabs++] = b;
    h->bytes += SLAB_BYTES;
    h->since += SLAB_BYTES;
    sl->has_room = true;
    sl->next_room = h->room[cls];
    h->room[cls] = sl;
    return sl;
}

/* size bytes (at most VM_BIG_MIN - 1) in a slot. */
static CLINIC_NOINLINE void *small_alloc(PyVM *vm, size_t size)
{
    /* the class whose slots hold size bytes and one more */
    static const unsigned char class_of[VM_BIG_MIN / SLAB_MIN_SLOT] = {
        0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4,
    };
    VmHeap *h = heap_of(vm);
    unsigned cls = class_of[size / SLAB_MIN_SLOT];
    Slab *sl = h->room[cls];
    if (!sl)
        sl = slab_new(vm, cls);
    unsigned k, bit;
    if (sl->fresh < sl->nslots) {
        k = sl->fresh / 64;
        bit = sl->fresh++ % 64;
    } else {
        k = 0;
        while (!~sl->used[k])
            k++;
        bit = clinic_lowest_bit64(~sl->used[k]);
    }
    sl->used[k] |= (uint64_t)1 << bit;
    if (++sl->nused == sl->nslots) {
        h->room[cls] = sl->next_room;
        sl->has_room = false;
    }
    if (!sl->dirty) {
        sl->dirty = true;
        if (h->ndirty == h->dirty_cap) {
            h->dirty_cap = h->dirty_cap ? h->dirty_cap * 2 : 64;
            h->dirty = xrealloc(h->dirty, h->dirty_cap * sizeof *h->dirty);
        }
        h->dirty[h->ndirty++] = sl;
    }
    char *p = (char *)sl->block->data + (size_t)(k * 64 + bit) * sl->slot;
    ARENA_UNPOISON(p, sl->slot);
    return p;
}

void *vm_plain_alloc(PyVM *vm, size_t size)
{
    if (size < VM_BIG_MIN && vm->run_arena_growth < VM_SMALL_SLOTS_AFTER)
        return arena_alloc_uninit(vm->a, size);
    if (!collectable_now(vm))
        return arena_alloc_uninit(vm->a, size);
    if (size < VM_BIG_MIN)
        return small_alloc(vm, size);
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
    if (b->slab) {
        /* a slot in use: marked (not read: slabs hold text) */
        Slab *sl = b->slab;
        size_t slot = (w - (uintptr_t)b->data) / sl->slot;
        if (w < (uintptr_t)b->data || slot >= sl->nslots)
            return;
        uint64_t bit = (uint64_t)1 << (slot % 64);
        if (sl->used[slot / 64] & bit)
            sl->marked[slot / 64] |= bit;
        return;
    }
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

/* Frees the slots in use that are neither marked nor permanent, and the
   slabs left with none in use; rebuilds the lists of slabs with room
   and of dirty slabs. */
static void sweep_slabs(VmHeap *h)
{
    for (unsigned c = 0; c < SLAB_CLASSES; c++)
        h->room[c] = NULL;
    size_t out = 0;
    for (size_t i = 0; i < h->nslabs; i++) {
        BigBlock *b = h->slabs[i];
        Slab *sl = b->slab;
        for (unsigned k = 0; k < SLAB_WORDS; k++) {
            uint64_t dead = sl->used[k] & ~sl->permanent[k] & ~sl->marked[k];
            sl->marked[k] = 0;
            if (!dead)
                continue;
            sl->used[k] &= ~dead;
            for (unsigned bit = 0; bit < 64; bit++)
                if ((dead >> bit) & 1) {
                    sl->nused--;
                    ARENA_POISON((char *)b->data +
                                 (size_t)(k * 64 + bit) * sl->slot, sl->slot);
                }
        }
        if (sl->nused == 0) {
            h->bytes -= SLAB_BYTES;
            ARENA_UNPOISON(b->data, SLAB_BYTES);
            free(sl);
            free(b);
            continue;
        }
        h->slabs[out++] = b;
        sl->has_room = sl->nused < sl->nslots;
        if (sl->has_room) {
            sl->next_room = h->room[sl->cls];
            h->room[sl->cls] = sl;
        }
    }
    h->nslabs = out;
    size_t nd = 0;
    for (size_t i = 0; i < h->nslabs; i++) {
        Slab *sl = h->slabs[i]->slab;
        if (sl->dirty)
            h->dirty[nd++] = sl;
    }
    h->ndirty = nd;
}

void vm_collect_garbage(PyVM *vm)
{
    VmHeap *h = vm->heap;
    if (!h || (h->n == h->permanent && !h->nslabs) || !collectable_now(vm) ||
        frames_off_stack())
        return;
    h->since = 0;
    size_t nsorted = h->n + h->nslabs;
    h->sorted = xrealloc(h->sorted, nsorted * sizeof *h->sorted);
    if (h->n)
        memcpy(h->sorted, h->blocks, h->n * sizeof *h->sorted);
    if (h->nslabs)
        memcpy(h->sorted + h->n, h->slabs, h->nslabs * sizeof *h->sorted);
    h->nsorted = nsorted;
    qsort(h->sorted, nsorted, sizeof *h->sorted, by_address);
    BigBlock *last = h->sorted[nsorted - 1];
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
    for (size_t i = 0; i < h->nslabs; i++)
        KNOWN(h->slabs[i]->slab->marked, sizeof h->slabs[i]->slab->marked);
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
    sweep_slabs(h);
    h->scanned = h->bytes + arena_bytes(vm->a);
}
