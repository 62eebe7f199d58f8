/*
 * check_text.c — the text helpers against outputs of clinic.py's own
 * helpers (expected strings were produced by running them).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compiler.h"
#include "base/text.h"
#include "unit.h"

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

/* Lines written as wrap_declarations writes them come back as they are;
   the others are rewritten (expected strings from clinic.py's). */
START_TEST(wrap_declarations_keeps_what_it_would_write)
{
    static const char *const cases[][2] = {
        {"f(a, b)", "f(a, b)"}, {"f(a,b)", "f(a, b)"}, {"f(a , b)", "f(a, b)"},
        {"f( a, b)", "f(a, b)"}, {"f(a, b )", "f(a, b)"}, {"f(a, b) ", "f(a, b)"},
        {"f(a,  b)", "f(a, b)"}, {"f(a, )", "f(a)"}, {"f(, b)", "f(, b)"},
        {"f(a,\tb)", "f(a, b)"}, {"f(a, b, c)\ng(x, y)\n", "f(a, b, c)\ng(x, y)\n"},
        {"f(a, b) /* c */", "f(a, b) /* c */"}, {"int f(void)", "int f(void)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        ck_assert_str_eq(text_wrap_declarations(arena, cases[i][0], 78),
                         cases[i][1]);
    /* "x" * n + "(a, bbb)" fits in 78 up to n = 69 */
    for (int n = 66; n <= 72; n++) {
        char line[100], wrapped[200];
        snprintf(line, sizeof line, "%.*s(a, bbb)", n,
                 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
        snprintf(wrapped, sizeof wrapped, "%.*s(a,\n%*sbbb)", n, line, n + 1, "");
        ck_assert_str_eq(text_wrap_declarations(arena, line, 78),
                         n <= 69 ? line : wrapped);
    }
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

/* if_any gives the template itself exactly when linear_format would not
   change it (no value here equals its field), and linear_format's text
   otherwise: only the first "{...}" of a line counts.  Both ways of
   finding the lines are tried: a map of one key is searched for "{key}",
   a larger one line by line. */
START_TEST(linear_format_if_any_when_it_changes)
{
    StrMap one = {0}, two = {0};
    strmap_set(arena, &one, "x", "X");
    strmap_set(arena, &two, "x", "X");
    strmap_set(arena, &two, "z", "Z");
    const StrMap *maps[] = { &one, &two };
    const char *templates[] = {
        "", "plain\n", "a {w}\n{y}\n", "{w} {x}\n", "a\n  {x}\n",
        "{w}\n\n{x}", "a {x", "{x}", "}{x}\n{", "{{x}}\n{x}\n",
        "  {x}\n{x} tail\n{w}{x}\n\t{x}", "{x\n{x}", "{z}\n{x}\n",
    };
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < sizeof templates / sizeof *templates; i++) {
            const char *t = templates[i];
            const char *full = text_linear_format(arena, t, maps[k]);
            const char *lazy = text_linear_format_if_any(arena, t, maps[k]);
            bool changes = strcmp(full, t) != 0;
            ck_assert_msg((lazy == t) == !changes, "%zu: %s", k, t);
            ck_assert_str_eq(lazy, full);
        }
    ck_assert_str_eq(text_linear_format(arena, "{{x}}\n{x}\n", &one),
                     "{{x}}\nX\n");
    ck_assert_str_eq(text_linear_format(arena, "{w}{x}\n\t{x}", &one),
                     "{w}{x}\n\tX");
    ck_assert_str_eq(text_linear_format(arena, "{z}\n{x}\n", &two),
                     "Z\nX\n");
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
    ck_assert_str_eq(missing, "");
    /* a conversion or spec ends the name and is not used */
    ck_assert_str_eq(text_format_map(arena, "{name!r} {{}} {name:>20}", &m,
                                     &missing),
                     "zlib.compress {} zlib.compress");
    ck_assert_ptr_null(text_format_map(arena, "{name!r", &m, &missing));
    ck_assert_ptr_null(text_format_map(arena, "{", &m, &missing));
    ck_assert_ptr_null(text_format_map(arena, "x}", &m, &missing));
    ck_assert_str_eq(text_format_map(arena, "{{", &m, &missing), "{");
    /* long runs, looked at 16 bytes at a time */
    ck_assert_str_eq(text_format_map(arena,
        "0123456789abcdef0123456789abcdef{name}0123456789abcdef0123456789{{x", &m,
        &missing),
        "0123456789abcdef0123456789abcdefzlib.compress0123456789abcdef0123456789{x");
    ck_assert_ptr_null(text_format_map(arena,
        "0123456789abcdef0123456789abcdef{no_such_field_at_all_here}", &m,
        &missing));
    ck_assert_str_eq(missing, "no_such_field_at_all_here");
}
END_TEST

/* render_function's passes one by one, as gen.c makes them when
   text_render_template declines: NULL where format_map fails. */
static const char *passes_one_by_one(const char *t, const StrMap *blocks,
                                     const StrMap *map)
{
    t = text_linear_format_if_any(arena, t, blocks);
    if (strstr(t, "{exit_label}")) {
        StrMap exit_map = {0};
        strmap_set(arena, &exit_map, "exit_label",
                   strstr(t, "goto exit;") ? "exit:" : "");
        t = text_linear_format(arena, t, &exit_map);
    }
    return text_format_map(arena, t, map, NULL);
}

/* The passes in one give what they give one by one, or decline (NULL):
   values put in by the block pass are formatted after it (escaped ones
   lose a brace, others have their fields filled), the exit label
   depends on the text after the block pass, a marker alone on the last
   line takes the last "\n" with it, an empty value drops its line. */
START_TEST(render_template_as_the_passes_one_by_one)
{
    StrMap blocks = {0}, map = {0};
    strmap_set(arena, &blocks, "decls", "int x = {{0}};\nchar *s;  ");
    strmap_set(arena, &blocks, "cleanup", "");
    strmap_set(arena, &blocks, "lock", "LOCK({self_name});\n\n  \nnext;");
    strmap_set(arena, &blocks, "jumps", "if (x) {{\n    goto exit;\n}}");
    strmap_set(arena, &map, "decls", "D");
    strmap_set(arena, &map, "cleanup", "C");
    strmap_set(arena, &map, "lock", "L");
    strmap_set(arena, &map, "jumps", "J");
    strmap_set(arena, &map, "self_name", "module");
    strmap_set(arena, &map, "name", "f");
    static const char *const fine[] = {
        "", "plain\n", "{name}", "{{{name}}}\n",
        "f({name})\n{{\n    {decls}\n    {lock}\n    {cleanup}\n}}\n",
        "a\n{decls}", "a\n{cleanup}", "{cleanup}", "{cleanup}\n", "a\n\t{decls}\n",
        "{{ {name}\n",
        "    goto exit;\n{exit_label}\n  {exit_label}\nend",
        "nothing jumps\n  {exit_label}\nend\n",
        "nothing jumps\n{exit_label}",
        "{jumps}\n{exit_label}",
        "  {jumps}\n  {exit_label}\n  return {name};\n",
    };
    TextBlockFields fields = text_block_fields(&blocks);
    for (size_t i = 0; i < sizeof fine / sizeof *fine; i++) {
        const char *one = text_render_template(arena, fine[i], &fields, &map);
        const char *expected = passes_one_by_one(fine[i], &blocks, &map);
        ck_assert_msg(one && expected && strcmp(one, expected) == 0,
                      "template %zu: \"%s\" for \"%s\"", i,
                      one ? one : "(declined)", expected);
    }
    /* no brace: the template itself */
    static const char plain[] = "static PyObject *\nno_fields_here(void)\n";
    ck_assert_ptr_eq(text_render_template(arena, plain, &fields, &map), plain);
    /* declined: what needs the passes one by one (a block field not
       alone on its line, first there or not, among them) */
    static const char *const declined[] = {
        "{nope}", "a } b", "{name!r}", "{name", "x{decls}\n", "x {{ {decls}\n",
        "{exit_label} is not alone",
        "    {decls} trailing\n", "{x {name}\n",
    };
    for (size_t i = 0; i < sizeof declined / sizeof *declined; i++)
        ck_assert_msg(!text_render_template(arena, declined[i], &fields, &map),
                      "template %zu not declined", i);
    /* a value that leaves a field open across its line */
    StrMap open_value = {0};
    strmap_set(arena, &open_value, "decls", "{name\n}");
    TextBlockFields open_fields = text_block_fields(&open_value);
    ck_assert_ptr_null(text_render_template(arena, "{decls}", &open_fields,
                                            &map));
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
    /* long enough to be looked at 16 bytes at a time */
    ck_assert_str_eq(text_quoted_for_c_string(arena,
        "0123456789abcdef0123456789abcdef\"0123456789abcdef0123'x\\"),
        "0123456789abcdef0123456789abcdef\\\"0123456789abcdef0123\\'x\\\\");
    ck_assert(text_is_ascii("0123456789abcdef0123456789abcdef", 32));
    ck_assert(!text_is_ascii("0123456789abcdef01234\xc3\xa9", 23));
    ck_assert(!text_is_ascii("0123456789abcde\xc3\xa9", 17));
    ck_assert(!text_is_ascii("\xc3\xa9", 2));
    ck_assert(text_is_ascii("", 0));
}
END_TEST

START_TEST(join_and_escape)
{
    StrList l = {0};
    ck_assert_str_eq(strlist_join(arena, &l, ", "), "");
    for (int i = 0; i < 20; i++)
        strlist_push(arena, &l, i % 2 ? "ab" : "");
    ck_assert_str_eq(strlist_join(arena, &l, "-"),
                     "-ab--ab--ab--ab--ab--ab--ab--ab--ab--ab");
    ck_assert_str_eq(text_format_escape(arena, ""), "");
    ck_assert_str_eq(text_format_escape(arena, "{}"), "{{}}");
    ck_assert_str_eq(text_format_escape_n(arena, "{a}  \n", 3), "{{a}}");
    ck_assert_str_eq(text_format_escape(arena,
        "if (x) {\n    goto exit;\n} /* a long enough line */ {x}"),
        "if (x) {{\n    goto exit;\n}} /* a long enough line */ {{x}}");
}
END_TEST

/* shlex.split() in POSIX mode: each case as Python 3.11's shlex splits
   it, or its ValueError's message */
START_TEST(shlex_split_as_python)
{
    static const struct {
        const char *in;
        const char *words[4];
        const char *error;
    } cases[] = {
        {"a b", {"a", "b"}, NULL},
        {" \"x y\" z ", {"x y", "z"}, NULL},
        {"a\\ b", {"a b"}, NULL},
        {"\"a\\\"b\\\\c\\d\"", {"a\"b\\c\\d"}, NULL},
        {"'a\\b'", {"a\\b"}, NULL},
        {"output=a\tinput=b\r\n", {"output=a", "input=b"}, NULL},
        {"", {NULL}, NULL},
        {"x \"\\", {NULL}, "No escaped character"},
        {"x \"unclosed", {NULL}, "No closing quotation"},
        {"x \\", {NULL}, "No escaped character"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char **words, *error;
        int n = text_shlex_split(arena, cases[i].in, &words, &error);
        if (cases[i].error) {
            ck_assert_int_eq(n, -1);
            ck_assert_str_eq(error, cases[i].error);
            continue;
        }
        int want = 0;
        while (want < 4 && cases[i].words[want])
            want++;
        ck_assert_int_eq(n, want);
        for (int k = 0; k < n; k++)
            ck_assert_str_eq(words[k], cases[i].words[k]);
    }
}
END_TEST

/* Python 3.11's "Did you mean" distance: case 1, other edits 2, no
   transposition; the first of the closest; nothing from 750 names. */
START_TEST(suggestion_distance_is_pythons)
{
    ck_assert_uint_eq(text_suggestion_distance("Print", 5, "print", 5, 99), 1);
    ck_assert_uint_eq(text_suggestion_distance("abc", 3, "abd", 3, 99), 2);
    ck_assert_uint_eq(text_suggestion_distance("ab", 2, "ba", 2, 99), 4);
    ck_assert_uint_eq(text_suggestion_distance("lenn", 4, "len", 3, 99), 2);
    ck_assert_uint_eq(text_suggestion_distance("abcdef", 6, "uvwxyz", 6, 3), 4);
    const char *names[] = { "gamma", "alpha", "gammb", "print" };
    ck_assert_str_eq(text_suggestion("gammx", names, 4), "gamma");
    ck_assert_ptr_null(text_suggestion("zzzzz", names, 4));
    ck_assert_ptr_null(text_suggestion("gamma", names, 1));
    const char *many[750];
    for (size_t i = 0; i < 750; i++)
        many[i] = "gamma";
    ck_assert_ptr_null(text_suggestion("gammx", many, 750));
    ck_assert_str_eq(text_suggestion("gammx", many, 749), "gamma");
}
END_TEST

/* compiler.h's bit scans and stack address: the builtins, or in the
   CLINIC_NO_SIMD build (make simd) the portable C. */
START_TEST(compiler_bit_scans)
{
    ck_assert_uint_eq(clinic_lowest_bit64(1), 0);
    ck_assert_uint_eq(clinic_lowest_bit64(UINT64_C(0x8000000000000000)), 63);
    ck_assert_uint_eq(clinic_lowest_bit64(UINT64_C(0x0000010000000100)), 8);
    ck_assert_uint_eq(clinic_lowest_bit(0x80000000u), 31);
    ck_assert_uint_eq(clinic_lowest_bit(0x60u), 5);
    ck_assert_uint_eq(clinic_highest_bit(1), 0);
    ck_assert_uint_eq(clinic_highest_bit(0x60u), 6);
    ck_assert_uint_eq(clinic_highest_bit(0xffffffffu), 31);
    /* the stack address is this frame's: near a local of it */
    volatile char local = 0;
    uintptr_t here = CLINIC_STACK_ADDRESS(), at = (uintptr_t)&local;
    ck_assert_uint_lt(here > at ? here - at : at - here, 65536);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("text");
    TCase *tc = tcase_create("helpers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, wrap_declarations_matches_reference);
    tcase_add_test(tc, suggestion_distance_is_pythons);
    tcase_add_test(tc, wrap_declarations_keeps_what_it_would_write);
    tcase_add_test(tc, normalize_snippet_dedents_and_indents);
    tcase_add_test(tc, linear_format_indents_and_drops_empty);
    tcase_add_test(tc, linear_format_if_any_when_it_changes);
    tcase_add_test(tc, prefix_and_suffix_lines);
    tcase_add_test(tc, format_map_fields_and_escapes);
    tcase_add_test(tc, render_template_as_the_passes_one_by_one);
    tcase_add_test(tc, identifiers_and_quoting);
    tcase_add_test(tc, join_and_escape);
    tcase_add_test(tc, shlex_split_as_python);
    tcase_add_test(tc, compiler_bit_scans);
    suite_add_tcase(s, tc);
    return unit_run(s);
}
