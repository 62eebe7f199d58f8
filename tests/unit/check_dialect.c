/*
 * check_dialect.c — the dialects as data (dialect.c, dialect_3_11.c,
 * dialect_3_13.c): choosing one by name and by a tree's version, reading
 * Include/patchlevel.h, what --make walks, and the tables a dialect
 * inherits from its base (snippets, messages, converter types).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/dialect.h"
#include "unit.h"

START_TEST(find_by_name)
{
    ck_assert_ptr_eq(dialect_find("3.11"), &dialect_3_11);
    ck_assert_ptr_eq(dialect_find("3.13"), &dialect_3_13);
    ck_assert_ptr_eq(dialect_find("3.14"), &dialect_3_14);
    ck_assert_ptr_eq(dialect_find("3.15"), &dialect_3_15);
    ck_assert_ptr_null(dialect_find("3.12"));
    ck_assert_ptr_null(dialect_find(""));
    ck_assert_ptr_eq(dialect_default(), &dialect_3_11);
    /* the list is oldest first and ends with NULL */
    ck_assert_ptr_eq(dialects[0], &dialect_3_11);
    ck_assert_ptr_eq(dialects[1], &dialect_3_13);
    ck_assert_ptr_eq(dialects[2], &dialect_3_14);
    ck_assert_ptr_eq(dialects[3], &dialect_3_15);
    ck_assert_ptr_null(dialects[4]);
}
END_TEST

START_TEST(for_a_tree_version)
{
    ck_assert_ptr_eq(dialect_for_version(3, 11), &dialect_3_11);
    ck_assert_ptr_eq(dialect_for_version(3, 12), &dialect_3_11);
    ck_assert_ptr_eq(dialect_for_version(3, 13), &dialect_3_13);
    ck_assert_ptr_eq(dialect_for_version(3, 14), &dialect_3_14);
    ck_assert_ptr_eq(dialect_for_version(3, 15), &dialect_3_15);
    ck_assert_ptr_eq(dialect_for_version(3, 16), &dialect_3_15);
    ck_assert_ptr_eq(dialect_for_version(4, 0), &dialect_3_15);
    /* older than every dialect: the default */
    ck_assert_ptr_eq(dialect_for_version(3, 10), &dialect_3_11);
    ck_assert_ptr_eq(dialect_for_version(2, 7), &dialect_3_11);
}
END_TEST

START_TEST(read_patchlevel)
{
    static const char real[] =
        "/* Python version identification scheme. */\n"
        "#define PY_RELEASE_LEVEL_FINAL  0xF\n"
        "#define PY_MAJOR_VERSION        3\n"
        "#define PY_MINOR_VERSION        13\n"
        "#define PY_MICRO_VERSION        5\n";
    int major, minor;
    ck_assert(dialect_read_patchlevel(real, strlen(real), &major, &minor));
    ck_assert_int_eq(major, 3);
    ck_assert_int_eq(minor, 13);

    static const char spaced[] = "#  define\tPY_MINOR_VERSION 12 /* x */\n"
                                 "# define PY_MAJOR_VERSION 3\n";
    ck_assert(dialect_read_patchlevel(spaced, strlen(spaced), &major, &minor));
    ck_assert_int_eq(major, 3);
    ck_assert_int_eq(minor, 12);

    /* a name that only starts like it, a value that is no number, a
       missing one */
    static const char wrong[] = "#define PY_MAJOR_VERSIONS 3\n"
                                "#define PY_MINOR_VERSION x\n";
    ck_assert(!dialect_read_patchlevel(wrong, strlen(wrong), &major, &minor));
    static const char half[] = "#define PY_MAJOR_VERSION 3\n";
    ck_assert(!dialect_read_patchlevel(half, strlen(half), &major, &minor));
    /* not read past the length given */
    ck_assert(!dialect_read_patchlevel(real, 40, &major, &minor));
}
END_TEST

START_TEST(what_make_walks)
{
    ck_assert(dialect_makes(&dialect_3_11, "a.c"));
    ck_assert(dialect_makes(&dialect_3_11, "a.h"));
    ck_assert(!dialect_makes(&dialect_3_11, "a.cpp"));
    ck_assert(dialect_makes(&dialect_3_13, "a.cpp"));
    ck_assert(dialect_makes(&dialect_3_13, "transmogrify.h"));
    ck_assert(!dialect_makes(&dialect_3_13, "a.py"));
    ck_assert(!dialect_makes(&dialect_3_13, "c"));
}
END_TEST

START_TEST(snippets_are_inherited)
{
    const DialectSnippet *s311 = dialect_snippet(&dialect_3_11,
                                                 "bool_converter", "i", false);
    const DialectSnippet *s313 = dialect_snippet(&dialect_3_13,
                                                 "bool_converter", "i", false);
    ck_assert_ptr_nonnull(strstr(s311->text, "_PyLong_AsInt("));
    ck_assert_ptr_nonnull(strstr(s313->text, " PyLong_AsInt("));
    /* unchanged in 3.13: its base's */
    ck_assert_ptr_eq(dialect_snippet(&dialect_3_13, "bool_converter", "p",
                                     false),
                     dialect_snippet(&dialect_3_11, "bool_converter", "p",
                                     false));
    /* new in 3.13 */
    ck_assert_ptr_null(dialect_snippet(&dialect_3_11, "fildes_converter", "",
                                       false));
    ck_assert_ptr_nonnull(dialect_snippet(&dialect_3_13, "fildes_converter",
                                          "", false));
    /* written for one C API only */
    const DialectSnippet *full = dialect_snippet(&dialect_3_13,
                                                 "Py_ssize_t_converter", "n",
                                                 false);
    const DialectSnippet *limited = dialect_snippet(&dialect_3_13,
                                                    "Py_ssize_t_converter",
                                                    "n", true);
    ck_assert_ptr_nonnull(strstr(full->text, "_PyNumber_Index("));
    ck_assert_str_eq(full->include, "pycore_abstract.h");
    ck_assert_ptr_nonnull(strstr(limited->text, " PyNumber_Index("));
    ck_assert_ptr_null(limited->include);
    ck_assert_ptr_null(dialect_snippet(&dialect_3_11, "unsigned_int_converter",
                                       "limited", true));
    ck_assert_ptr_null(dialect_snippet(&dialect_3_13, "unsigned_int_converter",
                                       "limited", false));
    ck_assert_ptr_null(dialect_snippet(&dialect_3_13, "nope_converter", "i",
                                       false));
}
END_TEST

START_TEST(messages_are_inherited)
{
    /* the messages of the newer dialects' new errors come last, from
       MSG_SUMMARY_TOO_LONG (3.15) on */
    for (int id = 0; id < MSG_COUNT; id++) {
        if (id < MSG_SUMMARY_TOO_LONG) {
            ck_assert_msg(*dialect_message(&dialect_3_11, id),
                          "3.11 has no text for message %d", id);
            ck_assert_msg(*dialect_message(&dialect_3_13, id),
                          "3.13 has no text for message %d", id);
        }
        ck_assert_msg(*dialect_message(&dialect_3_15, id),
                      "3.15 has no text for message %d", id);
    }
    ck_assert_str_eq(dialect_message(&dialect_3_14, MSG_CHECKSUM_MISMATCH),
                     dialect_message(&dialect_3_13, MSG_CHECKSUM_MISMATCH));
    ck_assert_str_eq(dialect_message(&dialect_3_13, MSG_GROUP_STATE_A),
                     dialect_message(&dialect_3_11, MSG_GROUP_STATE_A));
    ck_assert_str_ne(dialect_message(&dialect_3_13, MSG_CHECKSUM_MISMATCH),
                     dialect_message(&dialect_3_11, MSG_CHECKSUM_MISMATCH));
}
END_TEST

START_TEST(converters_of_a_dialect)
{
    ck_assert_ptr_null(dialect_converter_type(&dialect_3_11,
                                              "Py_UNICODE_converter"));
    ck_assert_str_eq(dialect_converter_type(&dialect_3_13,
                                            "Py_UNICODE_converter"),
                     "const wchar_t *");
    ck_assert_ptr_null(dialect_converter_type(&dialect_3_13, "int_converter"));
    ck_assert(!dialect_lacks_return_converter(&dialect_3_11, "NoneType"));
    ck_assert(dialect_lacks_return_converter(&dialect_3_13, "NoneType"));
    ck_assert(dialect_lacks_return_converter(&dialect_3_13, "init"));
    ck_assert(!dialect_lacks_return_converter(&dialect_3_13, "int"));
}
END_TEST

/* The converters a dialect adds exist from it on: *args's in 3.14 (and
   so in 3.15), **kwds's in 3.15 only, none of them before. */
START_TEST(converters_added_by_a_dialect)
{
    static const char *const of_3_14[] = {
        "varpos_tuple_converter", "varpos_array_converter", "uint8_converter",
        "uint64_converter", "unicode_fs_encoded_converter",
    };
    for (size_t i = 0; i < sizeof of_3_14 / sizeof *of_3_14; i++) {
        ck_assert(!dialect_adds_converter(&dialect_3_11, of_3_14[i]));
        ck_assert(!dialect_adds_converter(&dialect_3_13, of_3_14[i]));
        ck_assert(dialect_adds_converter(&dialect_3_14, of_3_14[i]));
        ck_assert(dialect_adds_converter(&dialect_3_15, of_3_14[i]));
    }
    ck_assert(!dialect_adds_converter(&dialect_3_14,
                                      "var_keyword_dict_converter"));
    ck_assert(dialect_adds_converter(&dialect_3_15,
                                     "var_keyword_dict_converter"));
    ck_assert(!dialect_adds_converter(&dialect_3_15, "int_converter"));
    /* and how 3.14 and 3.15 make *args's tuple */
    ck_assert_str_eq(DIALECT_INHERITED(&dialect_3_14, varpos_tuple_from_array),
                     "_PyTuple_FromArray");
    ck_assert_str_eq(DIALECT_INHERITED(&dialect_3_14, varpos_tuple_include),
                     "pycore_tuple.h");
    ck_assert_str_eq(DIALECT_INHERITED(&dialect_3_15, varpos_tuple_from_array),
                     "PyTuple_FromArray");
    ck_assert_str_eq(DIALECT_INHERITED(&dialect_3_15, varpos_tuple_include), "");
    ck_assert_ptr_null(DIALECT_INHERITED(&dialect_3_13, varpos_tuple_from_array));
}
END_TEST

static Suite *dialect_suite(void)
{
    Suite *s = suite_create("dialect");
    TCase *tc = tcase_create("tables");
    tcase_add_test(tc, find_by_name);
    tcase_add_test(tc, for_a_tree_version);
    tcase_add_test(tc, read_patchlevel);
    tcase_add_test(tc, what_make_walks);
    tcase_add_test(tc, snippets_are_inherited);
    tcase_add_test(tc, messages_are_inherited);
    tcase_add_test(tc, converters_of_a_dialect);
    tcase_add_test(tc, converters_added_by_a_dialect);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_run(dialect_suite());
}
