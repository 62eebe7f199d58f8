/*
 * check_target.c — unit tests of the targets (target.c) and of what the
 * portable target changes in a whole run (output.c, driver.c): the names
 * renamed, the header included and written, the default untouched.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drive/clinic.h"
#include "model/target.h"
#include "unit.h"

extern const char portable_header_text[];

static Arena *arena;

static void setup(void)
{
    arena = arena_new();
}

static void teardown(void)
{
    arena_free(arena);
}

/* One file through clinic with the target given (NULL: the default). */
static Clinic *process(const char *filename, const char *text,
                       const Target *t)
{
    ClinicOptions o = {0};
    o.target = t;
    Clinic *c = clinic_new(filename, &o);
    int rc = clinic_process(c, text, strlen(text));
    ck_assert_msg(rc == 0, "%s", c->diagnostics.len ? c->diagnostics.buf
                                                    : "");
    return c;
}

/* The text of the file clinic wrote at path, or NULL. */
static const char *file_text(const Clinic *c, const char *path)
{
    for (size_t i = 0; i < c->nfiles; i++)
        if (!strcmp(c->files[i].path, path))
            return c->files[i].text;
    return NULL;
}

START_TEST(targets_are_found_by_name)
{
    ck_assert_str_eq(target_default()->name, "3.11");
    ck_assert_ptr_eq(target_find("3.11"), target_default());
    ck_assert_str_eq(target_find("portable")->name, "portable");
    ck_assert_ptr_null(target_find("3.13"));
    ck_assert_ptr_null(target_find(""));
    for (size_t i = 0; targets[i]; i++)
        ck_assert(crename_sorted(&targets[i]->api_names));
}
END_TEST

START_TEST(the_default_changes_nothing)
{
    const char *text = "_PyArg_CheckPositional(\"f\", nargs, 1, 1)";
    bool uses = true;
    ck_assert_ptr_eq(target_rewrite(arena, target_default(), text, &uses),
                     text);
    ck_assert(!uses);
}
END_TEST

START_TEST(portable_renames_and_rewrites)
{
    const Target *t = target_find("portable");
    bool uses = false;
    ck_assert_str_eq(
        target_rewrite(arena, t, "if (!_PyArg_CheckPositional(\"f\", "
                       "PyTuple_GET_SIZE(args), 1, 1)) /* _PyArg_X */",
                       &uses),
        "if (!ClinicArg_CheckPositional(\"f\", "
        "ClinicTuple_GET_SIZE(args), 1, 1)) /* _PyArg_X */");
    ck_assert(uses);
    /* public API in place of private: no helper needed */
    ck_assert_str_eq(target_rewrite(arena, t, "PyMem_FREE(p); "
                                    "const Py_UNICODE *s;", &uses),
                     "PyMem_Free(p); const wchar_t *s;");
    ck_assert(!uses);
    ck_assert_str_eq(
        target_rewrite(arena, t, "fastargs = _PyArg_UnpackKeywords("
                       "_PyTuple_CAST(args)->ob_item, nargs, kwargs, NULL, "
                       "&_parser, 1, 1, 0, argsbuf);", &uses),
        "fastargs = ClinicArg_UnpackKeywordsFromTuple(args, nargs, kwargs, "
        "NULL, &_parser, 1, 1, 0, argsbuf);");
    ck_assert_str_eq(
        target_rewrite(arena, t, "Py_buffer b = {NULL, NULL};", &uses),
        "Py_buffer b = {0};");
}
END_TEST

START_TEST(slots_are_read_through_macros)
{
    const Target *t = target_find("portable");
    bool uses;
    ck_assert_str_eq(
        target_rewrite(arena, t, "if ((type == T ||\n         "
                       "type->tp_init == T->tp_init) &&", &uses),
        "if ((type == T ||\n         "
        "ClinicType_TP_INIT(type) == ClinicType_TP_INIT(T)) &&");
    ck_assert_str_eq(
        target_rewrite(arena, t, "Py_TYPE(self)->tp_new == "
                       "Obj_Type.tp_new", &uses),
        "ClinicType_TP_NEW(Py_TYPE(self)) == ClinicType_TP_NEW(&Obj_Type)");
    /* a longer name, or no member access, is left alone */
    ck_assert_str_eq(target_rewrite(arena, t, "x->tp_newer tp_new", &uses),
                     "x->tp_newer tp_new");
}
END_TEST

START_TEST(limited_api_line_is_found)
{
    /* 3.13's regex: spaces only, at least one before the name */
    const char *text = "#include \"Python.h\"\n"
                       "#\tdefine Py_LIMITED_API 1\n"
                       "#ifdef Py_LIMITED_API\n"
                       "  #  define   Py_LIMITED_API 0x030A0000\n";
    ck_assert_int_eq(target_limited_api_line(text, strlen(text)), 4);
    ck_assert_int_eq(target_limited_api_line(text, 60), 0);
    const char *bare = "#define Py_LIMITED_API";
    ck_assert_int_eq(target_limited_api_line(bare, strlen(bare)), 1);
    const char *glued = "#definePy_LIMITED_API\n";
    ck_assert_int_eq(target_limited_api_line(glued, strlen(glued)), 0);
}
END_TEST

static const char source[] =
    "#include \"Python.h\"\n"
    "/*[clinic input]\n"
    "module m\n"
    "m.f\n"
    "    a: int\n"
    "    b: object = None\n"
    "[clinic start generated code]*/\n";

START_TEST(portable_output_includes_its_header_written_beside)
{
    /* 3.11 sends the parser to clinic/m.c.h: the header goes there */
    Clinic *c = process("dir/m.c", source, target_find("portable"));
    const char *h = file_text(c, "dir/clinic/m.c.h");
    ck_assert_ptr_nonnull(h);
    ck_assert_ptr_nonnull(strstr(h, "ClinicArg_UnpackKeywords("));
    ck_assert_ptr_nonnull(strstr(h, "ClinicLong_AsInt("));
    ck_assert_ptr_null(strstr(h, "_Py"));
    /* once, before the first generated line that needs it */
    const char *include = strstr(h, "#include \"clinic_portable.h\"\n\n");
    ck_assert_ptr_nonnull(include);
    ck_assert_ptr_null(strstr(include + 1, "#include \"clinic_portable.h\""));
    ck_assert(include < strstr(h, "ClinicCFunction_CAST"));
    ck_assert_str_eq(file_text(c, "dir/clinic/clinic_portable.h"),
                     portable_header_text);
    /* the .c file's own part (the impl's definition) needs nothing */
    ck_assert_ptr_null(strstr(c->output, "clinic_portable.h"));
    ck_assert_uint_eq(c->nfiles, 2);
    clinic_free(c);
}
END_TEST

/* 3.13's syntax through the portable target: public API only, the
   critical sections kept (the header makes them nothing before 3.13), the
   dialect told to the header, the same tables as for 3.11; a deprecated
   keyword of a format-string parser (m.h, forced by its str parameter) is
   found by name, not by the core's interned str, and no #error stops the
   build on the release a deprecation names. */
START_TEST(portable_rewrites_the_3_13_dialect)
{
    static const char source313[] =
        "/*[clinic input]\nmodule m\nclass m.T \"PyObject *\" \"T\"\n"
        "[clinic start generated code]*/\n"
        "/*[clinic input]\n@critical_section\nm.T.f\n    a: int\n"
        "    b: object = None\n    / [from 3.99]\n    *\n    c: int = 0\n"
        "[clinic start generated code]*/\n"
        "/*[clinic input]\n@critical_section a b\nm.g\n    a: object\n"
        "    b: object\n    /\n[clinic start generated code]*/\n"
        "/*[clinic input]\nm.h\n    a: object\n    b: object = None\n"
        "    / [from 3.99]\n    *\n"
        "    d: str(accept={str, robuffer}, zeroes=True) = \"\"\n"
        "[clinic start generated code]*/\n"
        "/*[clinic input]\n@critical_section\n@getter\nm.T.x\n"
        "[clinic start generated code]*/\n"
        "/*[clinic input]\n@setter\nm.T.x\n"
        "[clinic start generated code]*/\n";
    ClinicOptions o = {0};
    o.target = target_find("portable");
    o.dialect = dialect_find("3.13");
    ck_assert_ptr_nonnull(o.dialect);
    Clinic *c = clinic_new("m.c", &o);
    int rc = clinic_process(c, source313, strlen(source313));
    ck_assert_msg(rc == 0, "%s", c->diagnostics.len ? c->diagnostics.buf : "");
    const char *h = file_text(c, "./clinic/m.c.h");
    ck_assert_ptr_nonnull(h);
    ck_assert_ptr_null(strstr(h, "_Py"));
    ck_assert_ptr_null(strstr(h, "pycore_"));
    ck_assert_ptr_null(strstr(h, "Py_BUILD_CORE"));
    ck_assert_ptr_null(strstr(h, ".kwtuple"));
    /* the runtime warning stays; the build on 3.99 does not stop */
    ck_assert_ptr_nonnull(strstr(h, "PyExc_DeprecationWarning"));
    ck_assert_ptr_null(strstr(h, "PY_VERSION_HEX"));
    ck_assert_ptr_nonnull(strstr(h, "#define CLINIC_PORTABLE_DIALECT 0x030D0000\n"
                                    "#include \"clinic_portable.h\"\n"));
    ck_assert_ptr_nonnull(strstr(h, "Py_BEGIN_CRITICAL_SECTION(self);"));
    ck_assert_ptr_nonnull(strstr(h, "Py_BEGIN_CRITICAL_SECTION2(a, b);"));
    ck_assert_ptr_nonnull(strstr(h, "ClinicArg_KeywordGiven(kwnames, \"b\")"));
    ck_assert_ptr_nonnull(strstr(h, "ClinicLong_AsInt("));
    ck_assert_ptr_nonnull(strstr(h, "ClinicArg_UnpackKeywords("));
    ck_assert_ptr_nonnull(strstr(h, "M_T_X_GETSETDEF {\"x\", (getter)m_T_x_get, "
                                    "(setter)m_T_x_set, m_T_x_DOCSTR, NULL},"));
    clinic_free(c);
}
END_TEST

START_TEST(the_directive_wins_over_the_option)
{
    StrBuf sb = STRBUF_INIT;
    sb_adds(&sb, "/*[clinic input]\ntarget 3.11\n"
                 "[clinic start generated code]*/\n");
    sb_adds(&sb, source);
    Clinic *c = process("m.c", sb.buf, target_find("portable"));
    const char *h = file_text(c, "./clinic/m.c.h");
    ck_assert_ptr_nonnull(h);
    ck_assert_ptr_null(strstr(h, "clinic_portable.h"));
    ck_assert_ptr_nonnull(strstr(h, "_PyArg_UnpackKeywords("));
    ck_assert_uint_eq(c->nfiles, 1);
    clinic_free(c);
    sb_free(&sb);
}
END_TEST

START_TEST(no_helper_no_header)
{
    Clinic *c = process("m.c", "/*[clinic input]\nmodule m\nm.f\n"
                        "    a: object\n    /\n"
                        "[clinic start generated code]*/\n",
                        target_find("portable"));
    ck_assert_ptr_null(strstr(file_text(c, "./clinic/m.c.h"),
                              "clinic_portable.h"));
    ck_assert_uint_eq(c->nfiles, 1);
    clinic_free(c);
}
END_TEST

/* What the header's path holds, for the library's reader: a text, or
   NULL for a symlink (ELOOP, as clinic/job.c's reader says it). */
static const char *header_on_disk;

static int read_header(void *userdata, const char *path, char **data,
                       size_t *len)
{
    (void)userdata;
    if (!strstr(path, "clinic_portable.h")) {
        errno = ENOENT;
        return -1;
    }
    if (!header_on_disk) {
        errno = ELOOP;
        return -1;
    }
    *len = strlen(header_on_disk);
    *data = malloc(*len + 1);
    memcpy(*data, header_on_disk, *len + 1);
    return 0;
}

/* The error of a portable run over the header on disk, or NULL. */
static const char *header_error(const char *on_disk, bool force,
                                bool *changed)
{
    static char message[1024];
    header_on_disk = on_disk;
    ClinicOptions o = {0};
    o.target = target_find("portable");
    o.read_file = read_header;
    o.force = force;
    Clinic *c = clinic_new("m.c", &o);
    const char *error = NULL;
    *changed = false;
    if (clinic_process(c, source, strlen(source)) < 0) {
        snprintf(message, sizeof message, "%s", c->diagnostics.buf);
        error = message;
    } else {
        for (size_t i = 0; i < c->nfiles; i++)
            if (strstr(c->files[i].path, "clinic_portable.h"))
                *changed = c->files[i].changed;
    }
    clinic_free(c);
    return error;
}

START_TEST(header_written_only_over_its_own)
{
    const Target *t = target_find("portable");
    size_t mark = strlen(t->header_mark);
    ck_assert_int_eq(strncmp(t->header_text, t->header_mark, mark), 0);
    bool changed;
    /* clinic's, current or older: rewritten when it differs */
    ck_assert_ptr_null(header_error(portable_header_text, false, &changed));
    ck_assert(!changed);
    char *older = malloc(mark + 64);
    sprintf(older, "%s * an older version */\n", t->header_mark);
    ck_assert_ptr_null(header_error(older, false, &changed));
    ck_assert(changed);
    free(older);
    /* the user's: refused, unless -f */
    const char *e = header_error("/* mine */\n", false, &changed);
    ck_assert_ptr_nonnull(e);
    ck_assert_ptr_nonnull(strstr(e, "m.c:"));
    ck_assert_ptr_nonnull(strstr(e, "exists and is not the header clinic "
                                    "writes"));
    ck_assert_ptr_null(header_error("/* mine */\n", true, &changed));
    ck_assert(changed);
    /* a symlink: refused, even with -f */
    e = header_error(NULL, true, &changed);
    ck_assert_ptr_nonnull(e);
    ck_assert_ptr_nonnull(strstr(e, "is a symbolic link"));
}
END_TEST

static Suite *target_suite(void)
{
    Suite *s = suite_create("target");
    TCase *tc = tcase_create("target");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, targets_are_found_by_name);
    tcase_add_test(tc, the_default_changes_nothing);
    tcase_add_test(tc, portable_renames_and_rewrites);
    tcase_add_test(tc, slots_are_read_through_macros);
    tcase_add_test(tc, limited_api_line_is_found);
    tcase_add_test(tc, portable_output_includes_its_header_written_beside);
    tcase_add_test(tc, portable_rewrites_the_3_13_dialect);
    tcase_add_test(tc, the_directive_wins_over_the_option);
    tcase_add_test(tc, no_helper_no_header);
    tcase_add_test(tc, header_written_only_over_its_own);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_run(target_suite());
}
