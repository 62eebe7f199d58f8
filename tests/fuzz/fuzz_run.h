/*
 * fuzz_run.h — one C file's text through the library, as the fuzzers
 * check it (fuzz_run.c).  Aborts on anything the library must not do.
 */
#ifndef CLINIC_FUZZ_RUN_H
#define CLINIC_FUZZ_RUN_H

#include <stddef.h>
#include <stdint.h>

void fuzz_run_text(const uint8_t *data, size_t size);

#endif
