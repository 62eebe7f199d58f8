/*
 * check_arena.c — the arena: text grown piece by piece costs memory linear
 * in its length, and running out of memory goes to the calling thread's
 * handler (which the file driver uses to fail one file, not the run).
 */
#include <check.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "unit.h"

START_TEST(text_grows_linearly)
{
    Arena *a = arena_new();
    ArenaText t = {0};
    size_t before = arena_bytes(a);
    /* 100,000 one-byte pieces: printing old + piece anew each time would
       take 5 GB; doubling keeps it under 4 bytes a byte */
    for (int i = 0; i < 100000; i++)
        arena_text_add(a, &t, i % 2 ? "b" : "a", 1);
    ck_assert_uint_eq(t.len, 100000);
    ck_assert_uint_eq(strlen(t.text), 100000);
    ck_assert(!strncmp(t.text, "abab", 4));
    ck_assert_uint_le(arena_bytes(a) - before, 4 * 100000);
    arena_free(a);
}
END_TEST

START_TEST(text_starts_empty_and_terminated)
{
    Arena *a = arena_new();
    ArenaText t = {0};
    arena_text_adds(a, &t, "");
    ck_assert_ptr_nonnull(t.text);
    ck_assert_str_eq(t.text, "");
    arena_text_adds(a, &t, "one");
    arena_text_add(a, &t, ", two, three", 5);
    ck_assert_str_eq(t.text, "one, two");
    arena_free(a);
}
END_TEST

/* Under AddressSanitizer (make sanitize), an impossible allocation must
   come back as NULL, as malloc's does, rather than stop the test: ASan
   reads its defaults from this function when it is linked in. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

static jmp_buf recovered;
static int handled;

static void on_out_of_memory(void *context)
{
    handled = *(int *)context;
    longjmp(recovered, 1);
}

/* arena_printf writes into the free end of the current chunk: texts
   that fit, that straddle the chunk's end, and a fresh arena's first. */
START_TEST(printf_fills_chunks_and_spills_over)
{
    Arena *a = arena_new();
    ck_assert_str_eq(arena_printf(a, "%s-%d-%zu-%c%%", "x", -12, (size_t)34, 'y'),
                     "x--12-34-y%");
    char piece[1001];
    memset(piece, 'p', 1000);
    piece[1000] = '\0';
    for (int i = 0; i < 300; i++) {
        char *s = arena_printf(a, "%d:%s", i, piece);
        char *t = arena_printf(a, "%.*s|", 3, piece);
        char num[16];
        snprintf(num, sizeof num, "%d:", i);
        ck_assert(strncmp(s, num, strlen(num)) == 0);
        ck_assert_str_eq(strchr(s, ':') + 1, piece);
        ck_assert_str_eq(t, "ppp|");
    }
    arena_free(a);
}
END_TEST

/* A reset keeps one chunk and forgets everything else, adopted blocks
   freed (under ASan and valgrind a block not freed fails the run);
   arena_owns tells what came from the arena. */
START_TEST(reset_and_adopt)
{
    Arena *a = arena_new();
    char *s = arena_strdup(a, "kept?");
    ck_assert(arena_owns(a, s));
    char *mine = strdup("read from a file");
    arena_adopt(a, mine);
    ck_assert(!arena_owns(a, mine));   /* adopted, not handed out */
    for (int i = 0; i < 2000; i++)     /* several chunks */
        arena_printf(a, "%d %s", i, "................................");
    arena_reset(a);
    ck_assert(!arena_owns(a, s));
    char *t = arena_strdup(a, "after");
    ck_assert(arena_owns(a, t));
    ck_assert_str_eq(t, "after");
    arena_adopt(a, strdup("freed with the arena"));
    arena_free(a);
}
END_TEST

START_TEST(out_of_memory_goes_to_the_handler)
{
    int token = 42;
    handled = 0;
    OutOfMemoryHandler old =
        arena_set_out_of_memory((OutOfMemoryHandler){on_out_of_memory, &token});
    ck_assert_ptr_null(old.fn);
    if (setjmp(recovered) == 0) {
        void *p = xmalloc(SIZE_MAX / 2);   /* no machine has that much */
        free(p);
        ck_abort_msg("xmalloc returned instead of calling the handler");
    }
    ck_assert_int_eq(handled, 42);
    /* the handler is taken away when called: running out again inside it
       aborts instead of recursing */
    OutOfMemoryHandler now = arena_set_out_of_memory(old);
    ck_assert_ptr_null(now.fn);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("arena");
    TCase *tc = tcase_create("arena");
    tcase_add_test(tc, text_grows_linearly);
    tcase_add_test(tc, text_starts_empty_and_terminated);
    tcase_add_test(tc, printf_fills_chunks_and_spills_over);
    tcase_add_test(tc, reset_and_adopt);
    tcase_add_test(tc, out_of_memory_goes_to_the_handler);
    suite_add_tcase(s, tc);
    return unit_run(s);
}
