/*
 * textform.h — a file's line endings and byte order mark.
 *
 * clinic.py reads files in text mode (universal newlines, a BOM is just
 * a character of the first line) and writes "\n" line ends.  We keep a
 * file's own form instead: the driver reads the form and the LF text
 * with textform_read(), the whole pipeline (scanner, checksums, printer)
 * sees only "\n", and textform_write() puts the form back on the way
 * out.  Checksums are therefore those of the LF text, which is what
 * clinic.py computes on the same file.
 */
#ifndef CLINIC_TEXTFORM_H
#define CLINIC_TEXTFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"

typedef enum TextNewline {
    TEXT_NEWLINE_LF,     /* "\n" (also: no line break at all) */
    TEXT_NEWLINE_CRLF,   /* "\r\n" */
    TEXT_NEWLINE_CR      /* "\r" alone (classic Mac OS) */
} TextNewline;

typedef struct TextForm {
    TextNewline newline;  /* the style clinic writes: the file's most
                             common line break; ties go to LF, then CRLF */
    bool mixed;           /* more than one style of line break */
    bool bom;             /* starts with a UTF-8 BOM (EF BB BF) */
} TextForm;

/* The form of raw, and raw as clinic processes it: the BOM removed and
   every "\r\n" and lone "\r" made "\n" (Python's universal newlines).
   Returns NUL-terminated arena memory; *lf_len is its length. */
char *textform_read(Arena *a, const char *raw, size_t len, TextForm *form,
                    size_t *lf_len);
/* The same, for raw followed by a NUL: text already in LF form is not
   copied (the result points into raw, which must outlive it). */
const char *textform_read_shared(Arena *a, const char *raw, size_t len,
                                 TextForm *form, size_t *lf_len);

/* textform_read_shared for raw (NUL-terminated) known to hold no "\r":
   only the BOM is looked for. */
const char *textform_read_lf(const char *raw, size_t len, TextForm *form,
                             size_t *lf_len);

/* The inverse: LF text (no "\r" in it) written in form: every "\n"
   becomes form->newline, and the BOM goes back in front.  A missing
   final line break stays missing. */
char *textform_write(Arena *a, const TextForm *form, const char *lf,
                     size_t len, size_t *out_len);

/* Universal newlines in place ("\r\n" and "\r" become "\n"); returns the
   new length and NUL-terminates when it shrank. */
size_t textform_universal_newlines(char *data, size_t len);

#endif
