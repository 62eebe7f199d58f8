/*
 * block.h — the scanner and printer of clinic blocks (clinic.py's
 * BlockParser and BlockPrinter).
 *
 * The scanner splits a file into verbatim text and blocks
 * ("/*[NAME input]" ... "[NAME start generated code]*/" ... end marker),
 * finds each block's existing output and verifies its checksum.  It knows
 * nothing about the DSL.  Verbatim lines are fed to the cpp monitor so a
 * block knows the preprocessor condition it sits under.
 */
#ifndef CLINIC_BLOCK_H
#define CLINIC_BLOCK_H

#include <stdbool.h>
#include <stddef.h>

#include "clinic.h"
#include "strbuf.h"

typedef struct Block Block;
struct Block {
    const char *input;      /* verbatim text, or the block's body (with
                               indent removed), '\n'-terminated lines */
    const char *dsl_name;   /* NULL for verbatim text */
    const char *output;     /* existing output (NULL: none / verbatim);
                               the DSL replaces it with the new output */
    const char *indent;     /* indentation removed from the body */
    const char *preindent;
    int line;               /* 1-based line of the start marker (or of the
                               first verbatim line) */
    int body_line;          /* 1-based line of the first body line */
    bool preserve_output;   /* the 'preserve' directive was given */
};

typedef struct BlockParser BlockParser;

/* verify: check existing checksums (false with -f). */
BlockParser *block_parser_new(Clinic *c, const char *text, size_t len,
                              bool verify);
/* Next block in file order; false at the end.  Errors: clinic_fail. */
bool block_parser_next(BlockParser *bp, Block *out);

/* BlockPrinter.print_block: writes the block with its new output and the
   end marker with fresh checksums. */
void block_print(Clinic *c, StrBuf *out, const Block *b);

#endif
