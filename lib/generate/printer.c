/*
 * printer.c — the last stage: a block back into text, its start and
 * end markers around the input and the output, the end marker carrying
 * the SHA-1 checksums that let the next run recognise both.
 */
#include <string.h>

#include "base/checksum.h"
#include "base/text.h"
#include "generate/printer.h"

/* block_check_output() of the output (len bytes) of block b. */
static void check_output(Clinic *c, const Block *b, const char *output,
                         size_t len)
{
    /* a lone surrogate from a string escape ("\\ud800") cannot be
       written as UTF-8: clinic.py fails on it when it hashes the output */
    size_t at;
    unsigned cp;
    if (b->dsl_name && text_find_surrogate(output, len, &at, &cp))
        clinic_fail(c, b->line, "'utf-8' codec can't encode character "
                    "'\\u%04x' in position %zu: surrogates not allowed", cp,
                    at);
}

void block_check_output(Clinic *c, const Block *b)
{
    const char *output = b->output ? b->output : "";
    check_output(c, b, output, b->dsl_name ? block_output_len(b) : 0);
}

/* Appends the n strings parts[] (lens[] bytes each) to out. */
static void print_line(PrintOut *out, const char *const *parts,
                       const size_t *lens, size_t n)
{
    printout_add_parts(out, parts, lens, n);
}

/* The lengths of the string literals in a list of parts. */
#define LIT(literal) (sizeof(literal) - 1)

void block_print(Clinic *c, PrintOut *out, const Block *b)
{
    size_t input_len = b->input_len ? b->input_len : strlen(b->input);
    if (!b->dsl_name) {
        printout_add(out, b->input, input_len);
        return;
    }
    /* the markers are pasted, not formatted: this runs for every block,
       each string measured once */
    const char *output = b->output ? b->output : "";
    const char *name = b->dsl_name;
    size_t name_len = strlen(name), output_len = block_output_len(b);
    print_line(out, (const char *const[]){"/*[", name, " input]\n"},
               (const size_t[]){LIT("/*["), name_len, LIT(" input]\n")}, 3);
    printout_add(out, b->input, input_len);
    print_line(out,
               (const char *const[]){"[", name, " start generated code]*/\n"},
               (const size_t[]){LIT("["), name_len,
                                LIT(" start generated code]*/\n")},
               3);

    check_output(c, b, output, output_len);
    /* the checksum covers the output as written: with its final "\n" */
    size_t start = out->len;
    printout_add(out, output, output_len);
    if (output_len && output[output_len - 1] != '\n')
        printout_add(out, "\n", 1);

    char output_sum[CHECKSUM_MARKER_LEN + 1];
    char input_sum[CHECKSUM_MARKER_LEN + 1];
    output_len = out->len - start;
    const char *written = printout_at(out, start);
    if (b->verified_output && b->verified_len == output_len &&
        (b->verified_output == written ||
         memcmp(b->verified_output, written, output_len) == 0)) {
        /* the same text */
        memcpy(output_sum, b->verified_sum, CHECKSUM_MARKER_LEN);
        output_sum[CHECKSUM_MARKER_LEN] = '\0';
    } else {
        checksum_compute(written, output_len, CHECKSUM_MARKER_LEN, output_sum);
    }
    checksum_compute(b->input, input_len, CHECKSUM_MARKER_LEN, input_sum);
    print_line(out,
               (const char *const[]){"/*[", name,
                                     " end generated code: output=",
                                     output_sum, " input=", input_sum,
                                     "]*/\n"},
               (const size_t[]){LIT("/*["), name_len,
                                LIT(" end generated code: output="),
                                CHECKSUM_MARKER_LEN, LIT(" input="),
                                CHECKSUM_MARKER_LEN, LIT("]*/\n")},
               7);
}

#undef LIT
