/*
 * fuzz_blocks.c — libFuzzer target over the generator of gen.c.
 *
 * The input is not a C file but the generator's choices, a byte each
 * (gen.c's pick()), so every input is a well-formed file of python blocks
 * and clinic input blocks and libFuzzer's mutations move between them:
 * the structure-aware half of the fuzzing, where fuzz_clinic.c's bytes
 * rarely get past the interpreter's parser.  The file then goes through
 * the library with fuzz_clinic.c's checks (fuzz_run.c).
 *
 * A crash's input is bytes: gen_run -b FILE prints the C file they make.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_run.h"
#include "gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned avoid;
    static int read_env;
    if (!read_env) {
        avoid = fzgen_avoid_from_env();
        read_env = 1;
    }
    size_t len;
    char *text = fzgen_from_bytes(data, size, avoid, &len);
    fuzz_run_text((const uint8_t *)text, len);
    free(text);
    return 0;
}
