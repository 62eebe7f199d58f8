/*
 * fuzz_run.c — one input through the library with the fuzzers' checks.
 *
 * Shared by the two libFuzzer targets (fuzz_clinic.c: bytes are the C
 * file; fuzz_blocks.c: bytes are choices of the generator in gen.c) and
 * by gen_run.c, the deterministic run of make check: the text goes
 * through clinic_new() / clinic_process() / clinic_free() once in each
 * dialect, with no file system, and anything but 0 or -1 with a
 * diagnostic, a routed file that is the input, or ill-formed UTF-8 in
 * --json aborts (see fuzz_clinic.c for the model of names).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drive/clinic.h"
#include "fuzz_run.h"
#include "base/io.h"
#include "drive/query.h"

static int idempotent = -1;

#define INPUT "src/fuzz.c"

/* The model's canonical name of path, into out. */
static void model_path(const char *path, char *out, size_t size)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s",
             strncmp(path, "/abs/", 5) == 0 ? path + 5 : path);
    const char *parts[512];
    size_t n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, "/", &save); tok && n < 512;
         tok = strtok_r(NULL, "/", &save)) {
        if (!strcmp(tok, "."))
            continue;
        if (!strcmp(tok, "..")) {
            if (n)
                n--;
            continue;
        }
        parts[n] = n == 0 && !strcmp(tok, "alias") ? "src" : tok;
        n++;
    }
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", i ? "/" : "", parts[i]);
    }
    if (!strcmp(out, "src/link.c"))
        snprintf(out, size, "%s", INPUT);
}

static bool model_same_file(void *userdata, const char *a, const char *b)
{
    (void)userdata;
    char x[4096], y[4096];
    model_path(a, x, sizeof x);
    model_path(b, y, sizeof y);
    return !strcmp(x, y);
}

/* After a successful run: no routed file is the input, none two. */
static void check_routed_files(const Clinic *c)
{
    for (size_t i = 0; i < c->nfiles; i++) {
        if (model_same_file(NULL, c->files[i].path, INPUT)) {
            fprintf(stderr, "routed file %s is the input\n",
                    c->files[i].path);
            abort();
        }
        for (size_t k = i + 1; k < c->nfiles; k++)
            if (model_same_file(NULL, c->files[i].path, c->files[k].path)) {
                fprintf(stderr, "routed files %s and %s are one file\n",
                        c->files[i].path, c->files[k].path);
                abort();
            }
    }
}

/* One run over text; returns the context (caller frees) and sets *ok. */
static Clinic *run_once(const Dialect *d, const char *text, size_t len,
                        bool *ok)
{
    ClinicOptions options = {0};
    options.dialect = d;
    options.same_file = model_same_file;
    Clinic *c = clinic_new(INPUT, &options);
    *ok = clinic_process(c, text, len) == 0;
    return c;
}

static void check_idempotent(const Dialect *d, const char *text, size_t len)
{
    bool ok2, ok3;
    Clinic *c2 = run_once(d, text, len, &ok2);
    if (ok2) {
        Clinic *c3 = run_once(d, c2->output, c2->output_len, &ok3);
        if (!ok3) {
            fprintf(stderr, "third run failed:\n%s", c3->diagnostics.buf);
            abort();
        }
        if (c3->output_len != c2->output_len ||
            memcmp(c3->output, c2->output, c2->output_len) != 0) {
            fprintf(stderr, "third run changed the second run's output\n");
            abort();
        }
        clinic_free(c3);
    }
    clinic_free(c2);
}

/* The query modes over the processed file: nothing may crash, and the
   JSON document must be valid UTF-8. */
static void check_queries(Clinic *c, int rc)
{
    static const QueryMode modes[] = {QUERY_JSON, QUERY_LIST, QUERY_STATS,
                                      QUERY_DOCSTRING};
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        Query q;
        QueryFile f;
        StrBuf out = STRBUF_INIT, err = STRBUF_INIT;
        char why[128];
        query_init(&q, modes[i], "fuzz.f");
        query_describe(&q, c, rc, &f);
        query_add(&q, &f, &out);
        query_end(&q, &out, &err);
        if (modes[i] == QUERY_JSON &&
            !io_check_utf8(out.buf, out.len, why, sizeof why)) {
            fprintf(stderr, "--json wrote ill-formed UTF-8: %s\n", why);
            abort();
        }
        sb_free(&out);
        sb_free(&err);
        query_free(&q);
    }
}


static void fuzz_one(const Dialect *d, const uint8_t *data, size_t size)
{
    ClinicOptions options = {0};
    options.dialect = d;
    options.same_file = model_same_file;
    Clinic *c = clinic_new(INPUT, &options);
    int rc = clinic_process(c, (const char *)data, size);
    if (rc != 0 && rc != -1)
        abort();
    if (rc == -1 && c->diagnostics.len == 0) {
        fprintf(stderr, "clinic_process failed without a diagnostic\n");
        abort();
    }
    if (rc == 0 && c->output == NULL && size > 0 && c->output_len != 0)
        abort();
    if (rc == 0)
        check_routed_files(c);
    check_queries(c, rc);
    if (rc == 0 && idempotent && c->output)
        check_idempotent(d, c->output, c->output_len);
    clinic_free(c);
}

void fuzz_run_text(const uint8_t *data, size_t size)
{
    if (idempotent < 0) {
        const char *e = getenv("CLINIC_FUZZ_IDEMPOTENT");
        idempotent = e && *e == '1';
    }
    for (size_t i = 0; dialects[i]; i++)
        fuzz_one(dialects[i], data, size);
}
