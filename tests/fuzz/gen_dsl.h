/*
 * gen_dsl.h — a generator of well-formed and nearly well-formed clinic
 * input blocks in the syntax of 3.14 and 3.15 (gen_dsl.c), for the
 * differential run against the reference clinic.py (differential.py):
 * one function a file, with the corners declarations rarely use —
 * continuation lines, comments in parameter lines, odd indentation,
 * defaults with quotes and escapes, *args: tuple, **kwds: dict,
 * deprecation markers, uint8 ... uint64, @getter/@setter/@deleter,
 * docstrings around the 3.15 width limits.
 *
 * A file is a function of its seed alone, so a mismatch reproduces from
 * its seed.
 */
#ifndef CLINIC_FUZZ_GEN_DSL_H
#define CLINIC_FUZZ_GEN_DSL_H

#include <stddef.h>
#include <stdint.h>

/* The file for a seed.  malloc'd, NUL terminated; *len is its length. */
char *fzdsl_from_seed(uint64_t seed, size_t *len);

#endif
