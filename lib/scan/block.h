/*
 * block.h — the scanner of clinic blocks (clinic.py's BlockParser; its
 * BlockPrinter is generate/printer.h).
 *
 * The scanner splits a file into verbatim text and blocks
 * (start line: slash-star "[NAME input]"; stop line: "[NAME start
 * generated code]" star-slash; output; end marker),
 * finds each block's existing output and verifies its checksum.  It knows
 * nothing about the DSL.  Verbatim lines are fed to the cpp monitor so a
 * block knows the preprocessor condition it sits under.
 */
#ifndef CLINIC_BLOCK_H
#define CLINIC_BLOCK_H

#include <stdbool.h>
#include <stddef.h>

#include "base/context.h"
#include "base/printout.h"
#include "base/strbuf.h"

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
    /* A directive (dump, printout, output print) added to output, even
       "": clinic.py's block.output list is then non-empty, so 'preserve'
       refuses the block. */
    bool output_appended;

    /* The existing output as read, when its checksum was verified (where
       it is in the file's text: verified_len bytes, not NUL-terminated),
       and its full SHA-1 digest: the printer reuses the digest when the
       new output is the same text. */
    const char *verified_output;
    size_t verified_len;
    char verified_sum[CHECKSUM_HEX_LEN + 1];
    /* A checksum mismatch (clinic.py's message and the end marker's
       line), for the caller to report with where the text starts to
       differ; NULL: none. */
    const char *checksum_error;
    int checksum_error_line;

    /* Text not copied out of the file (BlockScan.borrow).  The length of
       verbatim text, whose input then points into the file's text and is
       not NUL-terminated; 0: input is a C string (and "" when empty). */
    size_t input_len;
    /* The existing output where it is in the file's text (borrowed_len
       bytes, not NUL-terminated), and output is this very pointer until
       someone replaces it; NULL: output, when set, is a C string.  Read
       the output's length with block_output_len(). */
    const char *borrowed_output;
    size_t borrowed_len;
};

typedef struct BlockParser BlockParser;

/* How a text is scanned.  A checksum mismatch never fails the scan: it
   is left in the block (checksum_error) for the caller to report with
   where the text starts to differ. */
typedef struct BlockScan {
    bool verify;          /* check existing checksums (false with -f) */
    bool no_nul;          /* the caller found the text free of NUL bytes:
                             not searched again (else a NUL fails) */
    size_t plain_len;     /* the text's first plain_len bytes hold no line
                             break but "\n" (no byte 0x0b-0x1f, none >=
                             0x80): not searched for one (0: not known) */
    bool borrow;          /* text is not copied out: a verbatim block's
                             input and a clinic block's existing output
                             point into it (see Block.input_len and
                             Block.borrowed_output), for a caller that
                             reads them only through block_output_len(),
                             block_print() and block_check_output(); a
                             block with a checksum_error gets a copy of
                             its output, a C string, for the note */
} BlockScan;

/* text[len] is '\0': the scanner reads it, and verbatim text that runs to
   the end of the file is handed out as a pointer into text (which must
   outlive the blocks). */
BlockParser *block_parser_new(Clinic *c, const char *text, size_t len,
                              const BlockScan *how);
/* The length of b->output (0 when there is none). */
size_t block_output_len(const Block *b);
/* The number of lines the parser has read: once it has returned false,
   the number of lines in the file, counted as it went. */
int block_parser_lines_read(const BlockParser *bp);
/* The note for a checksum mismatch: where the generated code found (old,
   ending at the end marker on marker_line) starts to differ from what
   clinic writes now (fresh), said of what ("m.f's"). */
const char *block_mismatch_note(Clinic *c, const char *what, const char *old,
                                const char *fresh, int marker_line);
/* Next block in file order; false at the end.  Errors: clinic_fail. */
bool block_parser_next(BlockParser *bp, Block *out);


/* clinic.py's parse_file language check: NULL when filename has a
   C-family extension (c cc cpp cxx h hh hpp hxx), else the reference's
   message ("Can't extract file type for file 'x'" / "Can't identify file
   type for file 'x.py'"), in a's memory.  Python files are not offered. */
const char *block_language_error(Arena *a, const char *filename);
/* block_language_error(filename) == NULL, without an arena for the
   message. */
bool block_language_ok(const char *filename);

/* parse_file's quick exit: true when a start marker (slash-star
   "[NAME input]") appears anywhere in the text, not necessarily on a
   line of its own.  Files without one are left alone entirely. */
bool block_has_start_marker(const char *text, size_t len);

#endif
