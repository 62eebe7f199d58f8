/*
 * check_json.c — the JSON writer: layout (nesting, empty containers,
 * pieces written at a depth) and strings that are valid UTF-8 JSON
 * whatever their bytes.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "unit.h"

static char result[4096];

static const char *quoted(const char *s, size_t len)
{
    StrBuf out = STRBUF_INIT;
    json_add_quoted(&out, s, len);
    strcpy(result, out.buf);
    sb_free(&out);
    return result;
}

#define Q(s) quoted((s), sizeof(s) - 1)

START_TEST(nesting_and_empty_containers)
{
    StrBuf out = STRBUF_INIT;
    JsonWriter w;
    json_init(&w, &out, 0);
    json_begin_object(&w);
    json_key(&w, "a");
    json_int(&w, -3);
    json_key(&w, "list");
    json_begin_array(&w);
    json_bool(&w, true);
    json_null(&w);
    json_string(&w, NULL);
    json_begin_object(&w);
    json_end_object(&w);
    json_begin_array(&w);
    json_end_array(&w);
    json_end_array(&w);
    json_key(&w, "n");
    json_number(&w, "1.5e+100");
    json_end_object(&w);
    ck_assert_str_eq(out.buf,
                     "{\n"
                     "  \"a\": -3,\n"
                     "  \"list\": [\n"
                     "    true,\n"
                     "    null,\n"
                     "    null,\n"
                     "    {},\n"
                     "    []\n"
                     "  ],\n"
                     "  \"n\": 1.5e+100\n"
                     "}");
    sb_free(&out);
}
END_TEST

START_TEST(a_piece_at_a_depth)
{
    /* written apart, it reads as if it had been written in place */
    StrBuf out = STRBUF_INIT;
    JsonWriter w;
    json_init(&w, &out, 2);
    json_begin_object(&w);
    json_key(&w, "k");
    json_string(&w, "v");
    json_end_object(&w);
    ck_assert_str_eq(out.buf, "{\n      \"k\": \"v\"\n    }");
    sb_free(&out);
}
END_TEST

START_TEST(deep_indentation_and_integers)
{
    StrBuf out = STRBUF_INIT;
    JsonWriter w;
    json_init(&w, &out, 40);   /* deeper than one append of spaces */
    json_begin_array(&w);
    json_int(&w, 0);
    json_int(&w, -9223372036854775807LL - 1);
    json_int(&w, 9223372036854775807LL);
    json_end_array(&w);
    char want[512], *p = want;
    p += sprintf(p, "[");
    const char *items[] = {"0,", "-9223372036854775808,",
                           "9223372036854775807"};
    for (int i = 0; i < 3; i++)
        p += sprintf(p, "\n%82s%s", "", items[i]);
    sprintf(p, "\n%80s]", "");
    ck_assert_str_eq(out.buf, want);
    sb_free(&out);
}
END_TEST

START_TEST(escapes)
{
    ck_assert_str_eq(Q("a\"b\\c/d"), "\"a\\\"b\\\\c/d\"");
    ck_assert_str_eq(Q("\n\t\r\b\f"), "\"\\n\\t\\r\\b\\f\"");
    ck_assert_str_eq(Q("\x01\x1f\x7f"), "\"\\u0001\\u001f\x7f\"");
    ck_assert_str_eq(Q("nul\0byte"), "\"nul\\u0000byte\"");
}
END_TEST

START_TEST(utf8_kept_as_it_is)
{
    ck_assert_str_eq(Q("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
    ck_assert_str_eq(Q("\xe2\x82\xac"), "\"\xe2\x82\xac\"");          /* U+20AC */
    ck_assert_str_eq(Q("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\""); /* U+1F600 */
    ck_assert_str_eq(Q("\xef\xbf\xbf"), "\"\xef\xbf\xbf\"");          /* U+FFFF */
    ck_assert_str_eq(Q("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\""); /* U+10FFFF */
}
END_TEST

START_TEST(lone_surrogates_escaped)
{
    /* Python's '\ud800', as clinic keeps it (UTF-8 of the surrogate) */
    ck_assert_str_eq(Q("a\xed\xa0\x80z"), "\"a\\ud800z\"");
    ck_assert_str_eq(Q("\xed\xbf\xbf"), "\"\\udfff\"");
    /* U+D7FF is no surrogate */
    ck_assert_str_eq(Q("\xed\x9f\xbf"), "\"\xed\x9f\xbf\"");
}
END_TEST

START_TEST(ill_formed_bytes_replaced)
{
    ck_assert_str_eq(Q("\xff"), "\"\\ufffd\"");
    ck_assert_str_eq(Q("\xc0\x80"), "\"\\ufffd\\ufffd\"");      /* overlong */
    ck_assert_str_eq(Q("\xe0\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\"");
    ck_assert_str_eq(Q("\xf4\x90\x80\x80"),                     /* > U+10FFFF */
                     "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
    ck_assert_str_eq(Q("ab\xe2\x82"), "\"ab\\ufffd\\ufffd\"");  /* cut short */
    ck_assert_str_eq(Q("\x80x"), "\"\\ufffdx\"");               /* stray */
}
END_TEST

static Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, nesting_and_empty_containers);
    tcase_add_test(tc, a_piece_at_a_depth);
    tcase_add_test(tc, deep_indentation_and_integers);
    tcase_add_test(tc, escapes);
    tcase_add_test(tc, utf8_kept_as_it_is);
    tcase_add_test(tc, lone_surrogates_escaped);
    tcase_add_test(tc, ill_formed_bytes_replaced);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_run(json_suite());
}
