/*
 * check_diff.c — `clinic --diff` output: hunks as GNU `diff -u` prints
 * them (expected texts produced by diff -u on the same inputs).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/diff.h"
#include "unit.h"

static char *udiff(const char *a_label, const char *a, const char *b)
{
    static char result[8192];
    StrBuf out = STRBUF_INIT;
    diff_unified(&out, a_label, a, strlen(a), "b/f.c", b, strlen(b));
    strcpy(result, out.buf);
    sb_free(&out);
    return result;
}

START_TEST(equal_texts_give_nothing)
{
    ck_assert_str_eq(udiff("a/f.c", "x\ny\n", "x\ny\n"), "");
    ck_assert_str_eq(udiff("a/f.c", "", ""), "");
}
END_TEST

START_TEST(context_and_missing_newline)
{
    ck_assert_str_eq(
        udiff("a/f.c", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n",
              "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl"),
        "--- a/f.c\n+++ b/f.c\n"
        "@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n"
        "@@ -9,3 +9,4 @@\n i\n j\n k\n+l\n\\ No newline at end of file\n");
}
END_TEST

/* git's quoting, as git diff prints these names */
static char *git_name(const char *name)
{
    static char result[256];
    StrBuf out = STRBUF_INIT;
    diff_add_git_name(&out, "a/", name);
    strcpy(result, out.buf);
    sb_free(&out);
    return result;
}

START_TEST(names_quoted_as_git_quotes_them)
{
    ck_assert_str_eq(git_name("d/x.c"), "a/d/x.c");
    ck_assert_str_eq(git_name("sp ace.c"), "a/sp ace.c");
    ck_assert_str_eq(git_name("ta\tb.c"), "\"a/ta\\tb.c\"");
    ck_assert_str_eq(git_name("new\nline.c"), "\"a/new\\nline.c\"");
    ck_assert_str_eq(git_name("qu\"ote.c"), "\"a/qu\\\"ote.c\"");
    ck_assert_str_eq(git_name("back\\slash.c"), "\"a/back\\\\slash.c\"");
    ck_assert_str_eq(git_name("caf\303\251.c"), "\"a/caf\\303\\251.c\"");
    ck_assert_str_eq(git_name("bad\377.c"), "\"a/bad\\377.c\"");
    ck_assert_str_eq(git_name("ctl\001\a\v.c"), "\"a/ctl\\001\\a\\v.c\"");
    ck_assert_str_eq(git_name("del\177.c"), "\"a/del\\177.c\"");
    ck_assert_str_eq(git_name("sp ace\".c"), "\"a/sp ace\\\".c\"");
}
END_TEST

START_TEST(new_file)
{
    ck_assert_str_eq(udiff("/dev/null", "", "x\n"),
                     "--- /dev/null\n+++ b/f.c\n@@ -0,0 +1 @@\n+x\n");
}
END_TEST

START_TEST(hunks_split_and_merged)
{
    const char *old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n"
                      "16\n17\n18\n19\n20\n";
    ck_assert_str_eq(
        udiff("a/f.c", old,
              "1\ntwo\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n"
              "16\n17\neighteen\n19\n20\n"),
        "--- a/f.c\n+++ b/f.c\n"
        "@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"
        "@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+eighteen\n 19\n 20\n");
    /* changes 6 lines apart share a hunk */
    ck_assert_str_eq(
        udiff("a/f.c", old,
              "1\ntwo\n3\n4\n5\n6\n7\n8\nnine\n10\n11\n12\n13\n14\n15\n"
              "16\n17\n18\n19\n20\n"),
        "--- a/f.c\n+++ b/f.c\n"
        "@@ -1,12 +1,12 @@\n 1\n-2\n+two\n 3\n 4\n 5\n 6\n 7\n 8\n-9\n"
        "+nine\n 10\n 11\n 12\n");
}
END_TEST

START_TEST(insertions_and_deletions)
{
    ck_assert_str_eq(udiff("a/f.c", "a\nb\nc\n", "a\nc\n"),
                     "--- a/f.c\n+++ b/f.c\n@@ -1,3 +1,2 @@\n a\n-b\n c\n");
    ck_assert_str_eq(udiff("a/f.c", "a\n", ""),
                     "--- a/f.c\n+++ b/f.c\n@@ -1 +0,0 @@\n-a\n");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("diff");
    TCase *tc = tcase_create("unified");
    tcase_add_test(tc, equal_texts_give_nothing);
    tcase_add_test(tc, context_and_missing_newline);
    tcase_add_test(tc, new_file);
    tcase_add_test(tc, names_quoted_as_git_quotes_them);
    tcase_add_test(tc, hunks_split_and_merged);
    tcase_add_test(tc, insertions_and_deletions);
    suite_add_tcase(s, tc);
    return unit_run(s);
}
