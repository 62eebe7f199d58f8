/*
 * fuzz_clinic.c — libFuzzer target over the library's in-memory entry point.
 *
 * Each input is the text of one C file, src/fuzz.c.  It goes through
 * clinic_new() / clinic_process() / clinic_free() exactly as clinic/job.c
 * would run it, once in each dialect (3.11's Argument Clinic, 3.13's),
 * but with no file system: read_file is NULL, so every file
 * destination sees an absent file.  Whatever the input, the library must
 * return 0 or -1 (never crash, hang or leak) and, on error, leave a
 * diagnostic.
 *
 * Names are checked against a small model of a file system with aliases
 * (the same_file callback): "/abs/" is the current directory, "alias/" a
 * symlink to "src/", "src/link.c" a symlink to the input, and "." and ".."
 * mean what they do.  A successful run must never route output to the
 * input, nor two destinations to one file, under any spelling a template
 * ({path}, {dirname}/../src/{basename}, ...) can produce.
 *
 * Each run is also described as the query modes would (--json, --list,
 * --stats, --docstring): the JSON must be valid UTF-8 whatever the input.
 *
 * With CLINIC_FUZZ_IDEMPOTENT=1 in the environment, a successful run's
 * output is fed back in twice: when the second run succeeds, the third
 * must succeed too and change nothing.  (The second run itself may still
 * change things: clinic.py is not idempotent on damaged input either, e.g.
 * a block without a stop line swallows the rest of the file once, then
 * gets one.)
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_run_text(data, size);
    return 0;
}
