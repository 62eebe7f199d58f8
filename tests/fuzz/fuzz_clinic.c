/*
 * fuzz_clinic.c — libFuzzer target over the library's in-memory entry point.
 *
 * Each input is the text of one C file.  It goes through clinic_new() /
 * clinic_process() / clinic_free() exactly as clinic/main.c would run it,
 * but with no file system: read_file is NULL, so every file destination
 * sees an absent file.  Whatever the input, the library must return 0 or
 * -1 (never crash, hang or leak) and, on error, leave a diagnostic.
 *
 * With CLINIC_FUZZ_IDEMPOTENT=1 in the environment, a successful run is
 * also fed its own output: the second run must succeed (our checksums
 * verify) and change nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clinic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int idempotent = -1;

static void check_idempotent(const char *text, size_t len)
{
    ClinicOptions options = {0};
    Clinic *c = clinic_new("fuzz.c", &options);
    int rc = clinic_process(c, text, len);
    if (rc != 0) {
        fprintf(stderr, "second run failed:\n%s", c->diagnostics.buf);
        abort();
    }
    if (c->output_len != len || memcmp(c->output, text, len) != 0) {
        fprintf(stderr, "second run changed its own output\n");
        abort();
    }
    clinic_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (idempotent < 0) {
        const char *e = getenv("CLINIC_FUZZ_IDEMPOTENT");
        idempotent = e && *e == '1';
    }
    ClinicOptions options = {0};
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
        check_idempotent(c->output, c->output_len);
    clinic_free(c);
    return 0;
}
