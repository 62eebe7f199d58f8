/*
 * check_newlines.c — line endings and the byte order mark, through
 * clinic_process() in memory (textform.c and the driver in driver.c).
 *
 * The LF outputs below are what clinic.py (CPython 3.11) writes for the
 * same inputs.  clinic.py itself turns every line end into "\n"; we keep
 * the file's own, so each CRLF expectation is the LF one with every "\n"
 * made "\r\n", and its checksums are the LF text's (clinic.py, reading
 * our CRLF file with universal newlines, sees exactly its own output).
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drive/clinic.h"
#include "base/textform.h"
#include "unit.h"

/* ---- samples (expected outputs from clinic.py) ------------------------ */

static const char sample_in[] =
    "/* newlines */\n"
    "/*[clinic input]\n"
    "module m\n"
    "[clinic start generated code]*/\n"
    "\n"
    "/*[clinic input]\n"
    "m.spam\n"
    "\n"
    "    a: int\n"
    "    /\n"
    "\n"
    "Eat spam.\n"
    "[clinic start generated code]*/\n";

static const char sample_out[] =
    "/* newlines */\n"
    "/*[clinic input]\n"
    "module m\n"
    "[clinic start generated code]*/\n"
    "/*[clinic end generated code: output=da39a3ee5e6b4b0d "
    "input=ef9721c2ed7abe8d]*/\n"
    "\n"
    "/*[clinic input]\n"
    "m.spam\n"
    "\n"
    "    a: int\n"
    "    /\n"
    "\n"
    "Eat spam.\n"
    "[clinic start generated code]*/\n"
    "\n"
    "static PyObject *\n"
    "m_spam_impl(PyObject *module, int a)\n"
    "/*[clinic end generated code: output=037d11ad55d02f9e "
    "input=75f66b39a4a927fb]*/\n";

/* Routed to a file by the 'file' preset. */
static const char routed_in[] =
    "/*[clinic input]\n"
    "module m\n"
    "output preset file\n"
    "[clinic start generated code]*/\n"
    "\n"
    "/*[clinic input]\n"
    "m.ham\n"
    "[clinic start generated code]*/\n";

static const char routed_out[] =
    "/*[clinic input]\n"
    "module m\n"
    "output preset file\n"
    "[clinic start generated code]*/\n"
    "/*[clinic end generated code: output=da39a3ee5e6b4b0d "
    "input=ef277521ab58e60d]*/\n"
    "\n"
    "/*[clinic input]\n"
    "m.ham\n"
    "[clinic start generated code]*/\n"
    "\n"
    "static PyObject *\n"
    "m_ham_impl(PyObject *module)\n"
    "/*[clinic end generated code: output=95240cd96a98db93 "
    "input=48d16f9c39cacdf9]*/\n";

static const char routed_file[] =
    "/*[clinic input]\n"
    "preserve\n"
    "[clinic start generated code]*/\n"
    "\n"
    "PyDoc_STRVAR(m_ham__doc__,\n"
    "\"ham($module, /)\\n\"\n"
    "\"--\\n\"\n"
    "\"\\n\");\n"
    "\n"
    "#define M_HAM_METHODDEF    \\\n"
    "    {\"ham\", (PyCFunction)m_ham, METH_NOARGS, m_ham__doc__},\n"
    "\n"
    "static PyObject *\n"
    "m_ham_impl(PyObject *module);\n"
    "\n"
    "static PyObject *\n"
    "m_ham(PyObject *module, PyObject *Py_UNUSED(ignored))\n"
    "{\n"
    "    return m_ham_impl(module);\n"
    "}\n"
    "/*[clinic end generated code: output=985939f601afef58 "
    "input=a9049054013a1b77]*/\n";

#define BOM "\xef\xbb\xbf"

/* ---- helpers ------------------------------------------------------------ */

/* s with every "\n" replaced by nl; malloc'd. */
static char *with_newlines(const char *s, const char *nl)
{
    size_t n = 0, k = strlen(nl);
    for (const char *p = s; *p; p++)
        n += *p == '\n' ? k : 1;
    char *out = malloc(n + 1), *q = out;
    for (const char *p = s; *p; p++) {
        if (*p == '\n') {
            memcpy(q, nl, k);
            q += k;
        } else {
            *q++ = *p;
        }
    }
    *q = '\0';
    return out;
}

static char *concat(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *out = malloc(na + nb + 1);
    memcpy(out, a, na);
    memcpy(out + na, b, nb + 1);
    return out;
}

/* Processes text as "m.c"; fails the test on an error. */
static Clinic *process(const char *name, const char *text,
                       const ClinicOptions *options)
{
    ClinicOptions none = {0};
    Clinic *c = clinic_new(name, options ? options : &none);
    int rc = clinic_process(c, text, strlen(text));
    ck_assert_msg(rc == 0, "clinic_process failed: %s",
                  c->diagnostics.buf ? c->diagnostics.buf : "");
    return c;
}

static void assert_output(const Clinic *c, const char *want)
{
    ck_assert_uint_eq(c->output_len, strlen(want));
    ck_assert_msg(memcmp(c->output, want, c->output_len) == 0,
                  "output differs:\n%s", c->output);
}

/* The "output=... input=..." parts of every end marker, in order. */
static char *checksums(const char *text)
{
    static const char marker[] = "[clinic end generated code: ";
    size_t cap = strlen(text) + 1, n = 0;
    char *out = malloc(cap);
    for (const char *p = strstr(text, marker); p; p = strstr(p, marker)) {
        p += strlen(marker);
        const char *end = strchr(p, ']');
        memcpy(out + n, p, (size_t)(end - p));
        n += (size_t)(end - p);
        out[n++] = ';';
    }
    out[n] = '\0';
    return out;
}

/* ---- LF: what clinic.py writes ------------------------------------------ */

START_TEST(test_lf_as_reference)
{
    Clinic *c = process("m.c", sample_in, NULL);
    assert_output(c, sample_out);
    ck_assert_int_eq(c->form.newline, TEXT_NEWLINE_LF);
    ck_assert(!c->form.bom && !c->form.mixed);
    clinic_free(c);
}
END_TEST

/* ---- CRLF ---------------------------------------------------------------- */

START_TEST(test_crlf_kept)
{
    char *in = with_newlines(sample_in, "\r\n");
    char *want = with_newlines(sample_out, "\r\n");
    Clinic *c = process("m.c", in, NULL);
    ck_assert_int_eq(c->form.newline, TEXT_NEWLINE_CRLF);
    assert_output(c, want);
    /* the checksums are the LF text's, the ones clinic.py writes */
    char *ours = checksums(c->output), *theirs = checksums(sample_out);
    ck_assert_str_eq(ours, theirs);
    ck_assert_str_eq(ours, "output=da39a3ee5e6b4b0d input=ef9721c2ed7abe8d;"
                           "output=037d11ad55d02f9e input=75f66b39a4a927fb;");
    /* reading our output with universal newlines gives clinic.py's */
    char *lf = strdup(c->output);
    size_t n = textform_universal_newlines(lf, strlen(lf));
    ck_assert_uint_eq(n, strlen(sample_out));
    ck_assert_str_eq(lf, sample_out);
    free(lf);
    free(ours);
    free(theirs);
    clinic_free(c);
    free(in);
    free(want);
}
END_TEST

START_TEST(test_crlf_up_to_date_is_verified_and_unchanged)
{
    /* CRLF output whose checksums are those of the LF form verifies (with
       checksum verification on) and comes back byte for byte */
    char *in = with_newlines(sample_out, "\r\n");
    Clinic *c = process("m.c", in, NULL);
    assert_output(c, in);
    clinic_free(c);
    free(in);
}
END_TEST

START_TEST(test_crlf_tampered_output_rejected)
{
    char *in = with_newlines(sample_out, "\r\n");
    char *p = strstr(in, "int a)");
    p[4] = 'b';
    ClinicOptions o = {0};
    Clinic *c = clinic_new("m.c", &o);
    ck_assert_int_eq(clinic_process(c, in, strlen(in)), -1);
    ck_assert_ptr_nonnull(strstr(c->diagnostics.buf, "Checksum mismatch!"));
    ck_assert_ptr_nonnull(strstr(c->diagnostics.buf, "m.c:18: error:"));
    clinic_free(c);
    free(in);
}
END_TEST

START_TEST(test_crlf_no_final_newline)
{
    /* text after the last block without a final line break: still none */
    char *lf_in = concat(sample_in, "/* end */");
    char *lf_want = concat(sample_out, "/* end */");
    char *in = with_newlines(lf_in, "\r\n");
    char *want = with_newlines(lf_want, "\r\n");
    Clinic *c = process("m.c", lf_in, NULL);
    assert_output(c, lf_want);
    clinic_free(c);
    c = process("m.c", in, NULL);
    assert_output(c, want);
    ck_assert(c->output[c->output_len - 1] == '/');
    clinic_free(c);
    free(lf_in);
    free(lf_want);
    free(in);
    free(want);
}
END_TEST

START_TEST(test_crlf_end_marker_last_bytes)
{
    /* the end marker as the very last bytes: clinic.py's printer ends it
       with a line break, so the rewritten file has one (CRLF here) */
    char *lf_in = strdup(sample_out);
    lf_in[strlen(lf_in) - 1] = '\0';
    Clinic *c = process("m.c", lf_in, NULL);
    assert_output(c, sample_out);
    clinic_free(c);
    char *in = with_newlines(lf_in, "\r\n");
    char *want = with_newlines(sample_out, "\r\n");
    c = process("m.c", in, NULL);
    assert_output(c, want);
    clinic_free(c);
    free(lf_in);
    free(in);
    free(want);
}
END_TEST

START_TEST(test_cr_only)
{
    char *in = with_newlines(sample_in, "\r");
    char *want = with_newlines(sample_out, "\r");
    Clinic *c = process("m.c", in, NULL);
    ck_assert_int_eq(c->form.newline, TEXT_NEWLINE_CR);
    assert_output(c, want);
    clinic_free(c);
    free(in);
    free(want);
}
END_TEST

/* ---- mixed line endings ------------------------------------------------- */

START_TEST(test_mixed_takes_dominant_style)
{
    /* mostly CRLF, the first line LF: the result is all CRLF */
    char *crlf = with_newlines(sample_in, "\r\n");
    char *in = concat("/* lf */\n", crlf);
    char *lf_want = concat("/* lf */\n", sample_out);
    char *want = with_newlines(lf_want, "\r\n");
    Clinic *c = process("m.c", in, NULL);
    ck_assert(c->form.mixed);
    ck_assert_int_eq(c->form.newline, TEXT_NEWLINE_CRLF);
    assert_output(c, want);
    clinic_free(c);
    free(crlf);
    free(in);
    free(lf_want);
    free(want);
}
END_TEST

START_TEST(test_mixed_tie_goes_to_lf)
{
    static const char in[] = "/* a */\r\n/* b */\n";
    Clinic *c = process("m.c", in, NULL);
    ck_assert(c->form.mixed);
    ck_assert_int_eq(c->form.newline, TEXT_NEWLINE_LF);
    assert_output(c, in);   /* no marker at all: untouched */
    clinic_free(c);
}
END_TEST

START_TEST(test_mixed_up_to_date_keeps_every_byte)
{
    /* nothing to regenerate: the bytes come back as they were, minority
       line ends included */
    char *crlf = with_newlines(sample_out, "\r\n");
    char *in = concat("/* lf */\n", crlf);
    Clinic *c = process("m.c", in, NULL);
    ck_assert(c->form.mixed);
    assert_output(c, in);
    clinic_free(c);
    free(crlf);
    free(in);
}
END_TEST

/* ---- byte order mark ------------------------------------------------------ */

START_TEST(test_bom_kept)
{
    char *in = concat(BOM, sample_in);
    char *want = concat(BOM, sample_out);
    Clinic *c = process("m.c", in, NULL);
    ck_assert(c->form.bom);
    assert_output(c, want);
    clinic_free(c);
    /* up to date: unchanged */
    c = process("m.c", want, NULL);
    assert_output(c, want);
    clinic_free(c);
    free(in);
    free(want);
}
END_TEST

START_TEST(test_bom_with_crlf)
{
    char *crlf_in = with_newlines(sample_in, "\r\n");
    char *crlf_out = with_newlines(sample_out, "\r\n");
    char *in = concat(BOM, crlf_in);
    char *want = concat(BOM, crlf_out);
    Clinic *c = process("m.c", in, NULL);
    assert_output(c, want);
    clinic_free(c);
    free(crlf_in);
    free(crlf_out);
    free(in);
    free(want);
}
END_TEST

START_TEST(test_bom_before_start_line)
{
    /* clinic.py keeps the BOM as part of the first line and so misses a
       start line right after it; we see the block and keep the BOM */
    char *in = concat(BOM, sample_in + strlen("/* newlines */\n"));
    char *want = concat(BOM, sample_out + strlen("/* newlines */\n"));
    Clinic *c = process("m.c", in, NULL);
    assert_output(c, want);
    clinic_free(c);
    free(in);
    free(want);
}
END_TEST

/* ---- routed files ----------------------------------------------------------- */

typedef struct OneFile {
    const char *text;   /* NULL: absent */
} OneFile;

static int read_one(void *userdata, const char *path, char **data,
                    size_t *len)
{
    const OneFile *f = userdata;
    (void)path;
    if (!f->text) {
        errno = ENOENT;
        return -1;
    }
    *data = strdup(f->text);
    *len = strlen(f->text);
    return 0;
}

START_TEST(test_routed_file_crlf)
{
    char *in = with_newlines(routed_in, "\r\n");
    char *want = with_newlines(routed_out, "\r\n");
    char *want_file = with_newlines(routed_file, "\r\n");
    Clinic *c = process("m.c", in, NULL);
    assert_output(c, want);
    ck_assert_uint_eq(c->nfiles, 1);
    ck_assert_ptr_nonnull(strstr(c->files[0].path, "clinic/m.c.h"));
    ck_assert_uint_eq(c->files[0].len, strlen(want_file));
    ck_assert_str_eq(c->files[0].text, want_file);
    ck_assert(c->files[0].changed);
    clinic_free(c);
    free(in);
    free(want);
    free(want_file);
}
END_TEST

START_TEST(test_routed_file_no_bom_lf)
{
    char *in = concat(BOM, routed_in);
    Clinic *c = process("m.c", in, NULL);
    ck_assert_uint_eq(c->nfiles, 1);
    ck_assert_str_eq(c->files[0].text, routed_file);
    clinic_free(c);
    free(in);
}
END_TEST

START_TEST(test_routed_file_existing_verified)
{
    /* an existing CRLF routed file is verified through its LF text; an
       up-to-date one (in either line ending) is left alone */
    char *in = with_newlines(routed_out, "\r\n");
    char *file_crlf = with_newlines(routed_file, "\r\n");
    OneFile f = { file_crlf };
    ClinicOptions o = {0};
    o.read_file = read_one;
    o.read_userdata = &f;
    Clinic *c = process("m.c", in, &o);
    assert_output(c, in);
    ck_assert_uint_eq(c->nfiles, 1);
    ck_assert(!c->files[0].changed);
    clinic_free(c);

    f.text = routed_file;   /* LF on disk, CRLF input: still unchanged */
    c = process("m.c", in, &o);
    ck_assert(!c->files[0].changed);
    clinic_free(c);

    /* tampered CRLF routed file: refused, as clinic.py refuses it */
    char *tampered = strdup(file_crlf);
    tampered[strlen(tampered) / 2] = '#';
    f.text = tampered;
    Clinic *c2 = clinic_new("m.c", &o);
    ck_assert_int_eq(clinic_process(c2, in, strlen(in)), -1);
    ck_assert_ptr_nonnull(strstr(c2->diagnostics.buf, "Checksum mismatch"));
    clinic_free(c2);
    free(tampered);
    free(in);
    free(file_crlf);
}
END_TEST

/* ---- textform on its own ---------------------------------------------------- */

START_TEST(test_textform_round_trip)
{
    Arena *a = arena_new();
    TextForm form;
    size_t n, m;
    char *lf = textform_read(a, BOM "a\r\nb\r\nc", 10, &form, &n);
    ck_assert(form.bom && !form.mixed);
    ck_assert_int_eq(form.newline, TEXT_NEWLINE_CRLF);
    ck_assert_uint_eq(n, 5);
    ck_assert_str_eq(lf, "a\nb\nc");
    char *back = textform_write(a, &form, lf, n, &m);
    ck_assert_uint_eq(m, 10);
    ck_assert_str_eq(back, BOM "a\r\nb\r\nc");

    lf = textform_read(a, "x\ry\r\nz\r", 7, &form, &n);
    ck_assert(form.mixed && !form.bom);
    ck_assert_int_eq(form.newline, TEXT_NEWLINE_CR);
    ck_assert_str_eq(lf, "x\ny\nz\n");

    lf = textform_read(a, "", 0, &form, &n);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(form.newline, TEXT_NEWLINE_LF);
    arena_free(a);
}
END_TEST

static Suite *newlines_suite(void)
{
    Suite *s = suite_create("newlines");
    TCase *t = tcase_create("newlines");
    tcase_add_test(t, test_lf_as_reference);
    tcase_add_test(t, test_crlf_kept);
    tcase_add_test(t, test_crlf_up_to_date_is_verified_and_unchanged);
    tcase_add_test(t, test_crlf_tampered_output_rejected);
    tcase_add_test(t, test_crlf_no_final_newline);
    tcase_add_test(t, test_crlf_end_marker_last_bytes);
    tcase_add_test(t, test_cr_only);
    tcase_add_test(t, test_mixed_takes_dominant_style);
    tcase_add_test(t, test_mixed_tie_goes_to_lf);
    tcase_add_test(t, test_mixed_up_to_date_keeps_every_byte);
    tcase_add_test(t, test_bom_kept);
    tcase_add_test(t, test_bom_with_crlf);
    tcase_add_test(t, test_bom_before_start_line);
    tcase_add_test(t, test_routed_file_crlf);
    tcase_add_test(t, test_routed_file_no_bom_lf);
    tcase_add_test(t, test_routed_file_existing_verified);
    tcase_add_test(t, test_textform_round_trip);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return unit_run(newlines_suite());
}
