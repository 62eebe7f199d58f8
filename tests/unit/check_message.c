/*
 * check_message.c — the dialects' wording of errors (message.c): the
 * format's %s, %r (Python's repr), %N$s and %%, and clinic_failm()
 * reporting in the file's dialect.
 */
#include <check.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "drive/clinic.h"
#include "model/message.h"
#include "unit.h"

START_TEST(format_in_each_dialect)
{
    Clinic *c = unit_clinic("t.c", &dialect_3_11);
    ck_assert_str_eq(message_format(c, MSG_ILLEGAL_FUNCTION_NAME,
                                    MSG_ARGS("m.1f")),
                     "Illegal function name: m.1f");
    clinic_free(c);
    c = unit_clinic("t.c", &dialect_3_13);
    ck_assert_str_eq(message_format(c, MSG_ILLEGAL_FUNCTION_NAME,
                                    MSG_ARGS("m.1f")),
                     "Illegal function name: 'm.1f'");
    clinic_free(c);
}
END_TEST

START_TEST(format_repr_and_positions)
{
    Clinic *c = unit_clinic("t.c", &dialect_3_13);
    /* repr picks its quotes and escapes as Python does */
    ck_assert_str_eq(message_format(c, MSG_TAB_IN_DSL, MSG_ARGS("\ta: 'x'")),
                     "Tab characters are illegal in the Clinic DSL: "
                     "\"\\ta: 'x'\"");
    /* 3.13 names the fields from the missing one on (the second
       argument), 3.11 those up to it (the first) */
    ck_assert_str_eq(message_format(c, MSG_NO_PARENT, MSG_ARGS("a.b", "b.c")),
                     "Parent class or module 'b.c' does not exist.");
    clinic_free(c);
    c = unit_clinic("t.c", &dialect_3_11);
    ck_assert_str_eq(message_format(c, MSG_NO_PARENT, MSG_ARGS("a.b", "b.c")),
                     "Parent class or module a.b does not exist.");
    /* an argument the call did not give */
    ck_assert_str_eq(message_format(c, MSG_NOT_A_CONVERTER, MSG_ARGS("x")),
                     "x is not a valid ?converter");
    clinic_free(c);
}
END_TEST

START_TEST(fail_reports_and_jumps)
{
    Clinic *c = unit_clinic("t.c", &dialect_3_13);
    jmp_buf jb;
    c->recover = &jb;
    c->line = 7;
    if (setjmp(jb) == 0) {
        clinic_failm(c, 0, MSG_STAR_WITHOUT_PARAMETERS, MSG_ARGS("f", "*"));
        ck_abort_msg("clinic_failm returned");
    }
    ck_assert_str_eq(c->diagnostics.buf,
                     "t.c:7: error: Function 'f' specifies '*' without "
                     "following parameters.\n");
    ck_assert_int_eq(c->errors, 1);
    clinic_warnm(c, 3, MSG_NON_ASCII_DOCSTRING, MSG_ARGS("'\xc3\xa9'"));
    ck_assert_ptr_nonnull(strstr(c->diagnostics.buf,
        "t.c:3: warning: Non-ascii characters are not allowed in "
        "docstrings: '\xc3\xa9'\n"));
    clinic_free(c);
}
END_TEST

static Suite *message_suite(void)
{
    Suite *s = suite_create("message");
    TCase *tc = tcase_create("format");
    tcase_add_test(tc, format_in_each_dialect);
    tcase_add_test(tc, format_repr_and_positions);
    tcase_add_test(tc, fail_reports_and_jumps);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_run(message_suite());
}
