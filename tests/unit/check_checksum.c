/*
 * check_checksum.c — checksum_compute against the SHA-1 test vectors and
 * the 16-digit checksums clinic.py's compute_checksum() gives.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/checksum.h"
#include "unit.h"

static const char *sum(const char *text, int n)
{
    static char out[CHECKSUM_HEX_LEN + 1];
    checksum_compute(text, strlen(text), n, out);
    return out;
}

START_TEST(sha1_test_vectors)
{
    /* FIPS 180 / RFC 3174 */
    ck_assert_str_eq(sum("", 40), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    ck_assert_str_eq(sum("abc", 40),
                     "a9993e364706816aba3e25717850c26c9cd0d89d");
    ck_assert_str_eq(
        sum("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 40),
        "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    ck_assert_str_eq(sum("The quick brown fox jumps over the lazy dog", 40),
                     "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12");
}
END_TEST

START_TEST(million_a)
{
    size_t n = 1000000;
    char *a = malloc(n);
    memset(a, 'a', n);
    char out[CHECKSUM_HEX_LEN + 1];
    checksum_compute(a, n, CHECKSUM_HEX_LEN, out);
    ck_assert_str_eq(out, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
    free(a);
}
END_TEST

START_TEST(clinic_sixteen_digits)
{
    /* compute_checksum(s, 16) as clinic.py prints it in end markers */
    ck_assert_str_eq(sum("", 16), "da39a3ee5e6b4b0d");
    ck_assert_str_eq(sum("gen\n", 16), "c241544a10079080");
    ck_assert_str_eq(sum("module foo\n", 16), "bb0565424c99751c");
    ck_assert_str_eq(sum("out\n", 16), "9bc27bdc827962fd");
    /* text is hashed as UTF-8 */
    ck_assert_str_eq(sum("\xc3\xa9\n", 16), "6ee66ed9126aa6d0");
}
END_TEST

START_TEST(length_is_clamped)
{
    ck_assert_str_eq(sum("abc", 7), "a9993e3");
    ck_assert_str_eq(sum("abc", 100),
                     "a9993e364706816aba3e25717850c26c9cd0d89d");
    ck_assert_str_eq(sum("abc", 0), "");
    /* embedded NULs count: the length, not strlen, is hashed */
    char out[CHECKSUM_HEX_LEN + 1];
    checksum_compute("a\0b", 3, CHECKSUM_HEX_LEN, out);
    ck_assert_str_ne(out, sum("a", 40));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("checksum");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, sha1_test_vectors);
    tcase_add_test(tc, million_a);
    tcase_add_test(tc, clinic_sixteen_digits);
    tcase_add_test(tc, length_is_clamped);
    suite_add_tcase(s, tc);
    return unit_run(s);
}
