/*
 * check_printout.c — the printer's output compared with the text it
 * replaces: nothing is copied while it matches, the whole text is there
 * from the first difference on, and "unchanged" means the very same
 * text, no more, no less.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/printout.h"
#include "unit.h"

static const char old[] = "/*[clinic input]\nf\n[clinic start]*/\nbody\n";

START_TEST(same_text_in_pieces_is_unchanged_and_not_copied)
{
    PrintOut o;
    printout_init(&o, old, strlen(old));
    printout_adds(&o, "/*[clinic input]\n");
    printout_add(&o, old + o.len, 2);   /* a piece of the old text itself */
    printout_adds(&o, "[clinic start]*/\n");
    printout_adds(&o, "body\n");
    ck_assert(printout_unchanged(&o));
    ck_assert(!o.copied);
    ck_assert_uint_eq(o.text.cap, 0);   /* nothing allocated */
    ck_assert_ptr_eq(printout_at(&o, 3), old + 3);
    printout_free(&o);
}
END_TEST

START_TEST(difference_copies_the_matching_part_once)
{
    PrintOut o;
    printout_init(&o, old, strlen(old));
    printout_adds(&o, "/*[clinic input]\n");
    printout_adds(&o, "g\n");            /* differs */
    printout_adds(&o, "tail");
    ck_assert(!printout_unchanged(&o));
    ck_assert(o.copied);
    ck_assert_uint_eq(o.len, strlen("/*[clinic input]\ng\ntail"));
    ck_assert_str_eq(printout_at(&o, 0), "/*[clinic input]\ng\ntail");
    ck_assert_str_eq(printout_at(&o, 17), "g\ntail");
    printout_free(&o);
}
END_TEST

START_TEST(a_prefix_or_a_longer_text_is_a_change)
{
    PrintOut o;
    printout_init(&o, old, strlen(old));
    printout_add(&o, old, 10);
    ck_assert(!printout_unchanged(&o));   /* shorter */
    ck_assert(!o.copied);
    printout_free(&o);

    printout_init(&o, old, strlen(old));
    printout_adds(&o, old);
    ck_assert(printout_unchanged(&o));
    printout_adds(&o, "more");            /* past the end of the old text */
    ck_assert(!printout_unchanged(&o));
    ck_assert(o.copied);
    ck_assert_uint_eq(o.len, strlen(old) + 4);
    ck_assert(memcmp(printout_at(&o, 0), old, strlen(old)) == 0);
    ck_assert_str_eq(printout_at(&o, strlen(old)), "more");
    printout_free(&o);
}
END_TEST

START_TEST(parts_compare_where_they_stand)
{
    /* all the pieces match: nothing copied; one differs: the text up to
       it is copied once, then the rest written */
    PrintOut o;
    printout_init(&o, old, strlen(old));
    printout_add_parts(&o, (const char *const[]){"/*[", "clinic", " input]\n"},
                       (const size_t[]){3, 6, 8}, 3);
    ck_assert(!o.copied);
    ck_assert_uint_eq(o.len, 17);
    printout_add_parts(&o, (const char *const[]){"x", "[clinic", "!"},
                       (const size_t[]){1, 7, 1}, 3);
    ck_assert(o.copied);
    ck_assert_uint_eq(o.len, 26);
    ck_assert(memcmp(printout_at(&o, 0), old, 17) == 0);
    ck_assert(memcmp(printout_at(&o, 17), "x[clinic!", 9) == 0);
    printout_free(&o);
}
END_TEST

START_TEST(without_old_text_everything_is_written)
{
    PrintOut o;
    printout_init(&o, NULL, 0);
    printout_adds(&o, "");
    ck_assert(!printout_unchanged(&o));   /* no old text: always new */
    printout_adds(&o, "abc");
    ck_assert(o.copied);
    ck_assert_str_eq(printout_at(&o, 0), "abc");
    printout_free(&o);

    /* an empty old text and nothing written: unchanged */
    printout_init(&o, "", 0);
    ck_assert(printout_unchanged(&o));
    printout_free(&o);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("printout");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, same_text_in_pieces_is_unchanged_and_not_copied);
    tcase_add_test(tc, difference_copies_the_matching_part_once);
    tcase_add_test(tc, a_prefix_or_a_longer_text_is_a_change);
    tcase_add_test(tc, without_old_text_everything_is_written);
    tcase_add_test(tc, parts_compare_where_they_stand);
    suite_add_tcase(s, tc);
    return unit_run(s);
}
