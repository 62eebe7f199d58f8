/*
 * check_crename.c — renaming identifiers in C code: whole identifiers
 * only, never inside literals or comments, the text itself when nothing
 * changes.
 */
#include <check.h>
#include <stdlib.h>

#include "model/crename.h"
#include "unit.h"

static Arena *arena;

static void setup(void) { arena = arena_new(); }
static void teardown(void) { arena_free(arena); }

static const CRename entries[] = {
    {"PyTuple_GET_SIZE", "ClinicTuple_GET_SIZE"},
    {"_PyArg_BadArgument", "ClinicArg_BadArgument"},
    {"_PyArg_Parser", "ClinicArg_Parser"},
    {"_PyNumber_Index", "PyNumber_Index"},
};
static const CRenameTable table = {entries, sizeof entries / sizeof entries[0]};

START_TEST(table_is_sorted_and_looked_up)
{
    ck_assert(crename_sorted(&table));
    ck_assert_str_eq(crename_lookup(&table, "_PyArg_Parser", 13),
                     "ClinicArg_Parser");
    /* a prefix of a name, or a name with more after it, is not it */
    ck_assert_ptr_null(crename_lookup(&table, "_PyArg_Parse", 12));
    ck_assert_ptr_null(crename_lookup(&table, "_PyArg_ParserX", 14));
    static const CRename unsorted[] = {{"b", "x"}, {"a", "y"}};
    const CRenameTable bad = {unsorted, 2};
    ck_assert(!crename_sorted(&bad));
}
END_TEST

START_TEST(whole_identifiers_are_renamed)
{
    bool renamed = false;
    ck_assert_str_eq(
        crename_text(arena,
                     "static _PyArg_Parser _parser;\n"
                     "n = PyTuple_GET_SIZE(kwnames) + xPyTuple_GET_SIZE(y)"
                     " + PyTuple_GET_SIZE_2(z);\n"
                     "iobj = _PyNumber_Index(arg);\n",
                     &table, &renamed),
        "static ClinicArg_Parser _parser;\n"
        "n = ClinicTuple_GET_SIZE(kwnames) + xPyTuple_GET_SIZE(y)"
        " + PyTuple_GET_SIZE_2(z);\n"
        "iobj = PyNumber_Index(arg);\n");
    ck_assert(renamed);
}
END_TEST

START_TEST(literals_and_comments_are_left_alone)
{
    const char *text =
        "_PyArg_BadArgument(\"f\", \"argument '_PyArg_Parser'\", \"\\\"PyTuple_GET_SIZE\", arg);\n"
        "c = '\\'';  /* _PyArg_Parser */ d = 1; // PyTuple_GET_SIZE\n"
        "x = 0x1F_PyArg_Parser;\n";
    bool renamed = false;
    ck_assert_str_eq(
        crename_text(arena, text, &table, &renamed),
        "ClinicArg_BadArgument(\"f\", \"argument '_PyArg_Parser'\", \"\\\"PyTuple_GET_SIZE\", arg);\n"
        "c = '\\'';  /* _PyArg_Parser */ d = 1; // PyTuple_GET_SIZE\n"
        "x = 0x1F_PyArg_Parser;\n");
    ck_assert(renamed);
}
END_TEST

START_TEST(nothing_to_rename_gives_the_text_back)
{
    const char *text = "PyObject *return_value = NULL; /* unterminated";
    bool renamed = true;
    ck_assert_ptr_eq(crename_text(arena, text, &table, &renamed), text);
    ck_assert(!renamed);
    const char *open = "x = \"PyTuple_GET_SIZE\nPyTuple_GET_SIZE";
    ck_assert_str_eq(crename_text(arena, open, &table, NULL),
                     "x = \"PyTuple_GET_SIZE\nClinicTuple_GET_SIZE");
}
END_TEST

static Suite *crename_suite(void)
{
    Suite *s = suite_create("crename");
    TCase *tc = tcase_create("crename");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, table_is_sorted_and_looked_up);
    tcase_add_test(tc, whole_identifiers_are_renamed);
    tcase_add_test(tc, literals_and_comments_are_left_alone);
    tcase_add_test(tc, nothing_to_rename_gives_the_text_back);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_run(crename_suite());
}
