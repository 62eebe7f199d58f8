/*
 * fuzz_clinic.c — libFuzzer target over the library's in-memory entry point.
 *
 * Each input is the text of one C file.  It goes through clinic_new() /
 * clinic_process() / clinic_free() exactly as clinic/main.c would run it,
 * once in each dialect (3.11's Argument Clinic, 3.13's),
 * but with no file system: read_file is NULL, so every file destination
 * sees an absent file.  Whatever the input, the library must return 0 or
 * -1 (never crash, hang or leak) and, on error, leave a diagnostic.
 *
 * With CLINIC_FUZZ_IDEMPOTENT=1 in the environment, a successful run's
 * output is fed back in twice: when the second run succeeds, the third
 * must succeed too and change nothing.  (The second run itself may still
 * change things: clinic.py is not idempotent on damaged input either, e.g.
 * a block without a stop line swallows the rest of the file once, then
 * gets one.)
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clinic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int idempotent = -1;

/* One run over text; returns the context (caller frees) and sets *ok. */
static Clinic *run_once(const Dialect *d, const char *text, size_t len,
                        bool *ok)
{
    ClinicOptions options = {0};
    options.dialect = d;
    Clinic *c = clinic_new("fuzz.c", &options);
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

static void fuzz_one(const Dialect *d, const uint8_t *data, size_t size)
{
    ClinicOptions options = {0};
    options.dialect = d;
    Clinic *c = clinic_new("fuzz.c", &options);
    int rc = clinic_process(c, (const char *)data, size);
    if (rc != 0 && rc != -1)
        abort();
    if (rc == -1 && c->diagnostics.len == 0) {
        fprintf(stderr, "clinic_process failed without a diagnostic\n");
        abort();
    }
    if (rc == 0 && c->output == NULL && size > 0 && c->output_len != 0)
        abort();
    if (rc == 0 && idempotent && c->output)
        check_idempotent(d, c->output, c->output_len);
    clinic_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (idempotent < 0) {
        const char *e = getenv("CLINIC_FUZZ_IDEMPOTENT");
        idempotent = e && *e == '1';
    }
    for (size_t i = 0; dialects[i]; i++)
        fuzz_one(dialects[i], data, size);
    return 0;
}
