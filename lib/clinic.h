/*
 * clinic.h — the library's entry point: one call processes one input
 * file entirely in memory, text in, new text (plus any routed files) out,
 * or an error with nothing to write.  The context it works in, and its
 * error channel, are in context.h.
 */
#ifndef CLINIC_CLINIC_H
#define CLINIC_CLINIC_H

#include "context.h"

/* A block of the file: its dsl name ("clinic", "python", ...), the line
   of its start marker, and the function it declares (clinic blocks). */
typedef struct ClinicBlock {
    const char *dsl_name;
    int line;
    Function *function;
} ClinicBlock;

/* Creates a context for one file.  filename is used for messages, for the
   language check (C-family extensions only) and for {path} templates. */
Clinic *clinic_new(const char *filename, const ClinicOptions *options);
void clinic_free(Clinic *c);

/* Processes the bytes of a file.  Returns 0 on success (c->output,
   c->files filled) or -1 after an error (c->diagnostics says why; nothing
   must be written).  text may have LF, CRLF, CR or mixed line endings and
   a UTF-8 BOM: see textform.h and clinic_process() for what is kept. */
int clinic_process(Clinic *c, const char *text, size_t len);

#endif
