/*
 * clinic.h — the library's public interface, the one header the command
 * (clinic/) includes.  Its entry point processes one input file entirely
 * in memory, text in, new text (plus any routed files) out, or an error
 * with nothing to write (drive/driver.c).  The context it works in, and
 * its error channel, are in base/context.h; the rest of what a command
 * needs comes in with the headers below: reading and committing files
 * (base/io.h), diffs (base/diff.h), choosing a dialect and a target, the
 * query modes, the converter listing and the marker test that lets a
 * command skip a file without a clinic block.
 */
#ifndef CLINIC_CLINIC_H
#define CLINIC_CLINIC_H

#include "base/checksum.h"
#include "base/context.h"
#include "base/dialect.h"
#include "base/diff.h"
#include "base/io.h"
#include "base/strbuf.h"
#include "model/converters.h"
#include "model/target.h"
#include "scan/block.h"
#include "drive/query.h"

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
/* When the text is unchanged, c->output is text itself (not a copy):
   text must outlive the use of c->output. */

#endif
