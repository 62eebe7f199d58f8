/*
 * check_textwrap.c — textwrap.c against Python's textwrap.wrap() (the
 * expected lines were produced by running it on the same text).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/textwrap.h"
#include "unit.h"

static Arena *arena;

static void setup(void) { arena = arena_new(); }
static void teardown(void) { arena_free(arena); }

/* Wraps text and checks the lines against want (NULL-terminated). */
static void check_wrap(const char *text, const TextWrap *opts,
                       const char *const *want)
{
    const char **lines;
    size_t n = text_wrap(arena, text, opts, &lines);
    size_t k = 0;
    while (want[k])
        k++;
    ck_assert_msg(n == k, "%zu lines, not %zu, for %s", n, k, text);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(lines[i], want[i]);
}

static const char deprecation[] =
    "Passing keyword argument 'authorizer_callback' to "
    "_sqlite3.Connection.set_authorizer() is deprecated. Parameter "
    "'authorizer_callback' will become positional-only in Python 3.15.";

START_TEST(fill_the_docstring_note)
{
    char note[sizeof deprecation + 8];
    snprintf(note, sizeof note, "Note: %s", deprecation);
    ck_assert_str_eq(text_fill(arena, note, 70),
        "Note: Passing keyword argument 'authorizer_callback' to\n"
        "_sqlite3.Connection.set_authorizer() is deprecated. Parameter\n"
        "'authorizer_callback' will become positional-only in Python 3.15.");
}
END_TEST

START_TEST(wrap_keeping_whitespace)
{
    TextWrap opts = {64, "", "", false, false, false};
    static const char *const want[] = {
        "Passing keyword argument 'authorizer_callback' to ",
        "_sqlite3.Connection.set_authorizer() is deprecated. Parameter ",
        "'authorizer_callback' will become positional-only in Python ",
        "3.15.", NULL,
    };
    check_wrap(deprecation, &opts, want);
}
END_TEST

START_TEST(wrap_after_hyphens)
{
    TextWrap opts = TEXTWRAP_DEFAULTS;
    opts.width = 15;
    static const char *const want[] = {
        "aaaaaaaaaa-", "bbbbbbbbbb-", "cccccccccc word", "positional-only",
        "keyword-only x", NULL,
    };
    check_wrap("aaaaaaaaaa-bbbbbbbbbb-cccccccccc word positional-only "
               "keyword-only x", &opts, want);
}
END_TEST

START_TEST(wrap_breaks_long_words)
{
    TextWrap opts = TEXTWRAP_DEFAULTS;
    opts.width = 12;
    static const char *const want[] = {
        "averyveryver", "yverylongwor", "dwithouthyph", "ens and-",
        "some-more-", "words-here", NULL,
    };
    check_wrap("averyveryveryverylongwordwithouthyphens "
               "and-some-more-words-here", &opts, want);
}
END_TEST

START_TEST(wrap_whitespace)
{
    TextWrap opts = TEXTWRAP_DEFAULTS;
    opts.width = 10;
    static const char *const dropped[] = {"  leading", "and", "multiple",
                                          "spaces", NULL};
    check_wrap("  leading and   multiple   spaces  ", &opts, dropped);
    opts.drop_whitespace = false;
    static const char *const kept[] = {"  leading ", "and   ", "multiple",
                                       "   spaces", "  ", NULL};
    check_wrap("  leading and   multiple   spaces  ", &opts, kept);
}
END_TEST

START_TEST(wrap_em_dashes)
{
    TextWrap opts = TEXTWRAP_DEFAULTS;
    opts.width = 8;
    static const char *const want[] = {"em--dash", "and a--b", "text", NULL};
    check_wrap("em--dash and a--b text", &opts, want);
}
END_TEST

static Suite *textwrap_suite(void)
{
    Suite *s = suite_create("textwrap");
    TCase *tc = tcase_create("python");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, fill_the_docstring_note);
    tcase_add_test(tc, wrap_keeping_whitespace);
    tcase_add_test(tc, wrap_after_hyphens);
    tcase_add_test(tc, wrap_breaks_long_words);
    tcase_add_test(tc, wrap_whitespace);
    tcase_add_test(tc, wrap_em_dashes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_run(textwrap_suite());
}
