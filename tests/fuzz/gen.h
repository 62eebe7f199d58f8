/*
 * gen.h — a grammar-based generator of hostile C files (gen.c): python
 * blocks that call every native of clinic's interpreter with odd
 * arguments, converter subclasses with odd attributes, and clinic input
 * blocks with odd converter calls.
 *
 * A file is a function of its source of choices alone: a seed (make
 * check's deterministic run, gen_run.c) or the bytes of a libFuzzer input
 * (fuzz_blocks.c), so any failure reproduces from the seed or the bytes.
 */
#ifndef CLINIC_FUZZ_GEN_H
#define CLINIC_FUZZ_GEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Constructs left out (CLINIC_FUZZGEN_AVOID="deep,slow,..."), to look
   past a crash class already known while it is being fixed. */
enum {
    FZ_AVOID_DEEP = 1 << 0,      /* data nested deeper than 1,000 */
    FZ_AVOID_CYCLIC = 1 << 1,    /* lists and dicts that hold themselves */
    FZ_AVOID_HOSTS = 1 << 2,     /* Function(), Module(), ... made by hand */
    FZ_AVOID_NAME = 1 << 3,      /* self.name = ... in a converter */
    FZ_AVOID_STARSTAR = 1 << 4,  /* ** arguments in the DSL */
    FZ_AVOID_SLOW = 1 << 5,      /* big-int arithmetic, long searches */
};

/* Reads CLINIC_FUZZGEN_AVOID; returns the FZ_AVOID_* bits. */
unsigned fzgen_avoid_from_env(void);

/* The file for a seed, or for a libFuzzer input's bytes (a byte a
   choice; past the end, every choice is the first).  malloc'd, NUL
   terminated; *len is its length. */
char *fzgen_from_seed(uint64_t seed, unsigned avoid, size_t *len);
char *fzgen_from_bytes(const uint8_t *data, size_t size, unsigned avoid,
                       size_t *len);

/* The sweep: file k calls one native (k modulo their number) with a
   self it does not expect and, every other round, an odd int; then, a
   round each, with 60,000-deep tuples, lists, dicts and cyclic lists and
   dicts as self and argument.  NULL past the last, fzgen_sweep_size().
   The first fzgen_sweep_natives() files call every native once. */
size_t fzgen_sweep_size(void);
size_t fzgen_sweep_natives(void);
char *fzgen_sweep(size_t k, size_t *len);

/* The natives the generator calls, as the interpreter itself lists
   them (printed by gen_run --natives). */
void fzgen_print_catalogue(FILE *out);

#endif
