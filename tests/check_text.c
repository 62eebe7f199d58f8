/*
 * check_text.c — the text helpers against outputs of clinic.py's own
 * helpers (expected strings were produced by running them).
 */
#include <check.h>
#include <stdlib.h>

#include "text.h"

static Arena *arena;

static void setup(void) { arena = arena_new(); }
static void teardown(void) { arena_free(arena); }

START_TEST(wrap_declarations_matches_reference)
{
    ck_assert_str_eq(text_wrap_declarations(arena,
        "static PyObject *\nfoo_impl(PyObject *module, Py_buffer *data, int level, PyObject *something_long, Py_ssize_t other_param)", 78),
        "static PyObject *\nfoo_impl(PyObject *module, Py_buffer *data, int level,\n         PyObject *something_long, Py_ssize_t other_param)");
    ck_assert_str_eq(text_wrap_declarations(arena,
        "static int\nx_impl(PyObject *module, int a)", 78),
        "static int\nx_impl(PyObject *module, int a)");
    ck_assert_str_eq(text_wrap_declarations(arena,
        "static PyObject *\nverylongname_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_impl(PyObject *module, int a, int b)", 78),
        "static PyObject *\nverylongname_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_impl(PyObject *module,\n    int a, int b)");
}
END_TEST

START_TEST(normalize_snippet_dedents_and_indents)
{
    ck_assert_str_eq(text_normalize_snippet(arena,
        "\n            if (!{converter}({argname}, &{paramname})) {{{{\n"
        "                goto exit;\n            }}}}\n            ", 4),
        "    if (!{converter}({argname}, &{paramname})) {{{{\n"
        "        goto exit;\n    }}}}");
    ck_assert_str_eq(text_normalize_snippet(arena, "\n\n  a\n\n    b\n  ", 0),
                     "a\n\n  b");
}
END_TEST

START_TEST(linear_format_indents_and_drops_empty)
{
    StrMap m = {0};
    strmap_set(arena, &m, "x", "l1\nl2  \n\nl3");
    strmap_set(arena, &m, "y", "");
    ck_assert_str_eq(text_linear_format(arena, "a\n    {x}\nb\n{y}\nc {w}\n", &m),
                     "a\n    l1\n    l2\n\n    l3\nb\nc {w}\n");
}
END_TEST

/* applies is true exactly when linear_format would change the text:
   only the first "{...}" of a line counts, as in linear_format. */
START_TEST(linear_format_applies_when_it_changes)
{
    StrMap m = {0};
    strmap_set(arena, &m, "x", "X");
    const char *templates[] = {
        "", "plain\n", "a {w}\n{y}\n", "{w} {x}\n", "a\n  {x}\n",
        "{w}\n\n{x}", "a {x", "{x}", "}{x}\n{",
    };
    for (size_t i = 0; i < sizeof templates / sizeof *templates; i++) {
        const char *t = templates[i];
        bool changes = strcmp(text_linear_format(arena, t, &m), t) != 0;
        ck_assert_msg(text_linear_format_applies(t, &m) == changes, "%s", t);
    }
    ck_assert(!text_linear_format_applies("{w} {x}\n", &m));
    ck_assert(text_linear_format_applies("{w}\n\n{x}", &m));
}
END_TEST

START_TEST(prefix_and_suffix_lines)
{
    ck_assert_str_eq(text_indent_all_lines(arena, "a\nb\n", "> "), "> a\n> b\n");
    ck_assert_str_eq(text_suffix_all_lines(arena, "a\n\nb", " <"), "a <\n <\nb <");
}
END_TEST

START_TEST(format_map_fields_and_escapes)
{
    StrMap m = {0};
    const char *missing;
    strmap_set(arena, &m, "name", "zlib.compress");
    ck_assert_str_eq(text_format_map(arena, "{{x}} {name}!", &m, &missing),
                     "{x} zlib.compress!");
    ck_assert_ptr_null(text_format_map(arena, "{nope}", &m, &missing));
    ck_assert_str_eq(missing, "nope");
    ck_assert_ptr_null(text_format_map(arena, "a } b", &m, &missing));
}
END_TEST

START_TEST(identifiers_and_quoting)
{
    ck_assert_str_eq(text_legal_c_identifier(arena, "int"), "int_value");
    ck_assert_str_eq(text_legal_c_identifier(arena, "data"), "data");
    ck_assert_ptr_null(text_legal_c_identifier(arena, "1x"));
    ck_assert(text_is_legal_py_identifier("a.b_c.d1"));
    ck_assert(!text_is_legal_py_identifier("a..b"));
    ck_assert_str_eq(text_quoted_for_c_string(arena, "a\\b\"c'd"),
                     "a\\\\b\\\"c\\'d");
    ck_assert_str_eq(text_dedent(arena, "  a\n \n    b"), "a\n\n  b");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("text");
    TCase *tc = tcase_create("helpers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, wrap_declarations_matches_reference);
    tcase_add_test(tc, normalize_snippet_dedents_and_indents);
    tcase_add_test(tc, linear_format_indents_and_drops_empty);
    tcase_add_test(tc, linear_format_applies_when_it_changes);
    tcase_add_test(tc, prefix_and_suffix_lines);
    tcase_add_test(tc, format_map_fields_and_escapes);
    tcase_add_test(tc, identifiers_and_quoting);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
