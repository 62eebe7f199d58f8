/*
 * check_query.c — the query modes (query*.c) on texts processed in
 * memory: the --list tree, members of the --json object (what the
 * generator decided, converters as declared, errors), the counts of
 * --stats, --docstring with its suggestions, and a run put together from
 * several files.  The golden outputs of whole files are in
 * fixtures/query/.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "drive/clinic.h"
#include "drive/query.h"
#include "unit.h"

/* The text of one query over one processed file (static storage). */
static char out[65536];
static int status;

static const char *describe(QueryMode mode, const char *name,
                            const char *text)
{
    Query q;
    QueryFile f;
    StrBuf sb = STRBUF_INIT, err = STRBUF_INIT;
    /* as clinic/job.c sets it for the query modes: what the generator
       decided is kept (Function.rendering) */
    ClinicOptions options = { .no_output = true };
    Clinic *c = clinic_new("t.c", &options);
    query_init(&q, mode, name);
    status = clinic_process(c, text, strlen(text));
    query_describe(&q, c, status, &f);
    clinic_free(c);           /* what a query keeps outlives the file */
    query_add(&q, &f, &sb);
    if (!query_end(&q, &sb, &err))
        status = 1;
    ck_assert_uint_lt(sb.len + err.len, sizeof out);
    strcpy(out, sb.buf);
    strcat(out, err.buf);
    sb_free(&sb);
    sb_free(&err);
    query_free(&q);
    return out;
}

static const char namespace_text[] =
    "/*[clinic input]\n"
    "module m\n"
    "class m.C \"CObject *\" \"&C_Type\"\n"
    "class Top \"TopObject *\" \"&Top_Type\"\n"
    "[clinic start generated code]*/\n"
    "/*[clinic input]\n"
    "m.C.meth\n"
    "    a: int\n"
    "    b: object = None\n"
    "    /\n"
    "Do it.\n"
    "[clinic start generated code]*/\n"
    "/*[clinic input]\n"
    "m.f\n"
    "    *\n"
    "    key: str(accept={str, NoneType}) = None\n"
    "Eff.\n"
    "[clinic start generated code]*/\n"
    "/*[clinic input]\n"
    "@classmethod\n"
    "Top.__new__\n"
    "    x: 'i'\n"
    "    /\n"
    "[clinic start generated code]*/\n";

/* ---- --list ----------------------------------------------------------------- */

START_TEST(list_nests_functions_classes_modules)
{
    /* at each level: functions, then classes, then modules (CPython's
       order), whatever the order of declaration */
    ck_assert_str_eq(describe(QUERY_LIST, NULL, namespace_text),
                     "t.c\n"
                     "  class Top\n"
                     "    Top(x, /)\n"
                     "  module m\n"
                     "    m.f($module, /, *, key=None)\n"
                     "    class m.C\n"
                     "      m.C.meth($self, a, b=None, /)\n");
    ck_assert_int_eq(status, 0);
}
END_TEST

START_TEST(list_leaves_out_files_declaring_nothing)
{
    ck_assert_str_eq(describe(QUERY_LIST, NULL,
                              "/*[clinic input]\n"
                              "[clinic start generated code]*/\n"), "");
}
END_TEST

/* ---- --json ------------------------------------------------------------------ */

static void assert_has(const char *text, const char *piece)
{
    if (!strstr(text, piece))
        ck_abort_msg("missing: %s\nin: %s", piece, text);
}

/* A "name    count" line of --stats. */
static void assert_row(const char *text, const char *name, long count)
{
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = strlen(name);
        if (!strncmp(line, name, n) && line[n] == ' ') {
            const char *p = line + n;
            while (*p == ' ')
                p++;
            ck_assert_msg(strtol(p, NULL, 10) == count && p < end,
                          "%s: %.*s", name, (int)(end - line), line);
            return;
        }
        line = end ? end + 1 : line + strlen(line);
    }
    ck_abort_msg("no line for %s in:\n%s", name, text);
}

START_TEST(json_reports_what_the_generator_decided)
{
    const char *j = describe(QUERY_JSON, NULL, namespace_text);
    assert_has(j, "\"version\": 1,");
    /* m.C.meth: positional-only with a default: METH_FASTCALL */
    assert_has(j, "\"full_name\": \"m.C.meth\",\n"
                  "          \"module\": \"m\",\n"
                  "          \"class\": \"m.C\",\n"
                  "          \"kind\": \"method\",\n"
                  "          \"c_basename\": \"m_C_meth\",");
    assert_has(j, "\"signature\": \"meth($self, a, b=None, /)\",");
    assert_has(j, "\"docstring\": \"meth($self, a, b=None, /)\\n--\\n\\n"
                  "Do it.\",");
    assert_has(j, "\"methoddef_flags\": \"METH_FASTCALL\",\n"
                  "          \"calling_convention\": \"METH_FASTCALL\",\n"
                  "          \"parser\": \"_PyArg_CheckPositional\",");
    /* __new__: no docstring and no PyMethodDef written */
    assert_has(j, "\"signature\": \"Top(x, /)\",\n"
                  "          \"text_signature\": true,\n"
                  "          \"docstring\": null,");
    assert_has(j, "\"methoddef_flags\": null,\n"
                  "          \"calling_convention\": \"METH_VARARGS\",");
}
END_TEST

START_TEST(json_converters_as_declared)
{
    const char *j = describe(QUERY_JSON, NULL, namespace_text);
    /* a set of classes as the declaration writes it */
    assert_has(j, "\"name\": \"str\",\n"
                  "                \"legacy\": null,\n"
                  "                \"args\": {\n"
                  "                  \"accept\": {\n"
                  "                    \"python\": \"{str, NoneType}\"\n");
    /* a legacy format unit: its converter, and the unit as given */
    assert_has(j, "\"name\": \"int\",\n"
                  "                \"legacy\": \"i\",");
    assert_has(j, "\"kind\": \"keyword_only\",");
    assert_has(j, "\"default\": {\n"
                  "                \"python\": \"None\",\n"
                  "                \"c\": \"Py_None\"\n");
    assert_has(j, "\"special\": \"self\",");
}
END_TEST

START_TEST(json_docstring_only_signature)
{
    const char *j = describe(QUERY_JSON, NULL,
        "/*[clinic input]\n"
        "module m\n"
        "m.draw\n"
        "    [\n"
        "    y: int\n"
        "    ]\n"
        "    ch: object\n"
        "    /\n"
        "Draw.\n"
        "[clinic start generated code]*/\n");
    assert_has(j, "\"signature\": \"draw([y,] ch)\",\n"
                  "          \"text_signature\": false,\n"
                  "          \"docstring\": \"draw([y,] ch)\\nDraw.\",");
    assert_has(j, "\"parser\": \"PyArg_ParseTuple\",");
    assert_has(j, "\"group\": -1,");
}
END_TEST

START_TEST(json_file_with_an_error)
{
    const char *j = describe(QUERY_JSON, NULL,
        "/*[clinic input]\n"
        "module m\n"
        "m.f\n"
        "    a: nope\n"
        "[clinic start generated code]*/\n");
    ck_assert_int_ne(status, 0);
    assert_has(j, "\"error\": {\n"
                  "        \"line\": 4,\n"
                  "        \"message\": \"nope is not a valid converter\"\n"
                  "      },\n"
                  "      \"outputs\": [],");
    assert_has(j, "\"files_with_errors\": 1,");
}
END_TEST

START_TEST(json_error_without_a_line)
{
    Query q;
    QueryFile f;
    StrBuf sb = STRBUF_INIT;
    query_init(&q, QUERY_JSON, NULL);
    query_describe_error(&q, "x.c", -1, "No such file or directory", &f);
    query_add(&q, &f, &sb);
    assert_has(sb.buf, "{\n  \"version\": 1,\n");
    assert_has(sb.buf, "\"path\": \"x.c\",\n"
                       "      \"error\": {\n"
                       "        \"line\": null,\n");
    sb_free(&sb);
    query_free(&q);
}
END_TEST

START_TEST(json_strings_stay_valid_utf8)
{
    /* the library takes any bytes: the document stays valid UTF-8 (the
       writer's escapes, lone surrogates too, are in check_json.c) */
    const char *j = describe(QUERY_JSON, NULL,
        "/*[clinic input]\n"
        "module m\n"
        "m.f\n"
        "Caf\xc3\xa9 \xff.\n"
        "[clinic start generated code]*/\n");
    assert_has(j, "Caf\xc3\xa9 \\ufffd.");
    /* a lone surrogate a Python string gave (where it reaches no output,
       which cannot hold it): its escape */
    j = describe(QUERY_JSON, NULL,
        "/*[python input]\n"
        "class x_converter(CConverter):\n"
        "    type = 'int'\n"
        "    c_ignored_default = '\\ud800'\n"
        "[python start generated code]*/\n");
    assert_has(j, "\"c_ignored_default\": \"\\ud800\"");
}
END_TEST

START_TEST(same_errors_as_a_run_that_writes)
{
    /* a lone surrogate that reaches the output fails the file in every
       mode, printed or not */
    const char *j = describe(QUERY_JSON, NULL,
        "/*[clinic input]\n"
        "output preset block\n"
        "module m\n"
        "m.f\n"
        "    a: int(c_default=\"\\ud800\") = 0\n"
        "Eff.\n"
        "[clinic start generated code]*/\n");
    ck_assert_int_ne(status, 0);
    assert_has(j, "surrogates not allowed");
}
END_TEST

/* ---- --stats ------------------------------------------------------------------ */

START_TEST(stats_count_what_callers_pass)
{
    const char *s = describe(QUERY_STATS, NULL, namespace_text);
    /* self is not a parameter a caller passes */
    assert_row(s, "  all", 4);
    assert_row(s, "  positional_only", 3);
    assert_row(s, "  keyword_only", 1);
    assert_row(s, "  with a default", 2);
    assert_row(s, "functions", 3);
    assert_row(s, "  __new__", 1);
    assert_row(s, "  METH_FASTCALL|METH_KEYWORDS", 1);
    assert_row(s, "  _PyArg_CheckPositional", 2);
    assert_has(s, "\nconverters:\n  int ");   /* the most used first */
}
END_TEST

/* ---- --docstring ------------------------------------------------------------------ */

START_TEST(docstring_found)
{
    ck_assert_str_eq(describe(QUERY_DOCSTRING, "m.C.meth", namespace_text),
                     "meth($self, a, b=None, /)\n--\n\nDo it.\n");
    ck_assert_int_eq(status, 0);
}
END_TEST

START_TEST(docstring_not_found_suggests)
{
    ck_assert_str_eq(describe(QUERY_DOCSTRING, "meth", namespace_text),
                     "clinic: error: no function is named 'meth'; did you "
                     "mean 'm.C.meth'?\n");
    ck_assert_int_eq(status, 1);
    ck_assert_str_eq(describe(QUERY_DOCSTRING, "m.C.mehh", namespace_text),
                     "clinic: error: no function is named 'm.C.mehh'; did "
                     "you mean 'm.C.meth'?\n");
    ck_assert_str_eq(describe(QUERY_DOCSTRING, "zzzzzzzz", namespace_text),
                     "clinic: error: no function is named 'zzzzzzzz'\n");
}
END_TEST

START_TEST(suggestions_closest_first)
{
    char *names[] = {"a.open", "io.open", "os.open", "os.opens", "os.close",
                     "os.open"};
    const char *got[5];
    size_t n = query_suggest("open", names, 6, got, 5);
    ck_assert_uint_eq(n, 3);   /* each name once; "os.opens" is too far */
    ck_assert_str_eq(got[0], "a.open");
    ck_assert_str_eq(got[1], "io.open");
    ck_assert_str_eq(got[2], "os.open");
    /* "io.open" is three edits away, "os.opens" two */
    n = query_suggest("os.opem", names, 6, got, 5);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(got[0], "os.open");
    ck_assert_str_eq(got[1], "os.opens");
    /* two letters swapped are one edit, as Python's suggestions count
       them: "os.oepn" is nearer "os.open" than "os.opens" */
    n = query_suggest("os.oepn", names, 6, got, 5);
    ck_assert_uint_ge(n, 1);
    ck_assert_str_eq(got[0], "os.open");
}
END_TEST

/* ---- a run of several files ------------------------------------------------------------ */

START_TEST(run_of_two_files_is_one_document)
{
    Query q;
    StrBuf sb = STRBUF_INIT, err = STRBUF_INIT;
    query_init(&q, QUERY_JSON, NULL);
    for (int i = 0; i < 2; i++) {
        QueryFile f;
        Clinic *c = clinic_new(i ? "b.c" : "a.c", NULL);
        int rc = clinic_process(c, namespace_text, strlen(namespace_text));
        query_describe(&q, c, rc, &f);
        clinic_free(c);
        query_add(&q, &f, &sb);
    }
    ck_assert(query_end(&q, &sb, &err));
    assert_has(sb.buf, "\"path\": \"a.c\",");
    assert_has(sb.buf, "    },\n    {\n      \"path\": \"b.c\",");
    assert_has(sb.buf, "  ],\n  \"stats\": {\n    \"files\": 2,");
    assert_has(sb.buf, "\"functions\": 6,");
    ck_assert(sb.buf[sb.len - 2] == '}' && sb.buf[sb.len - 1] == '\n');
    sb_free(&sb);
    sb_free(&err);
    query_free(&q);
}
END_TEST

START_TEST(empty_run_is_a_document)
{
    Query q;
    StrBuf sb = STRBUF_INIT, err = STRBUF_INIT;
    query_init(&q, QUERY_JSON, NULL);
    ck_assert(query_end(&q, &sb, &err));
    assert_has(sb.buf, "\"files\": [],\n  \"stats\": {");
    sb_free(&sb);
    sb_free(&err);
    query_free(&q);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("query");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, list_nests_functions_classes_modules);
    tcase_add_test(tc, list_leaves_out_files_declaring_nothing);
    tcase_add_test(tc, json_reports_what_the_generator_decided);
    tcase_add_test(tc, json_converters_as_declared);
    tcase_add_test(tc, json_docstring_only_signature);
    tcase_add_test(tc, json_file_with_an_error);
    tcase_add_test(tc, json_error_without_a_line);
    tcase_add_test(tc, json_strings_stay_valid_utf8);
    tcase_add_test(tc, same_errors_as_a_run_that_writes);
    tcase_add_test(tc, stats_count_what_callers_pass);
    tcase_add_test(tc, docstring_found);
    tcase_add_test(tc, docstring_not_found_suggests);
    tcase_add_test(tc, suggestions_closest_first);
    tcase_add_test(tc, run_of_two_files_is_one_document);
    tcase_add_test(tc, empty_run_is_a_document);
    suite_add_tcase(s, tc);
    return unit_run(s);
}
