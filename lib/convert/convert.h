/*
 * convert.h — clinic --convert: hand-written PyArg_Parse* functions turned
 * into Argument Clinic declarations.  A stage beside the DSL parser: it
 * reads C (method tables, the functions they register, their parse calls
 * and the declarations with initialisers), writes [clinic input] blocks in
 * their place, and hands the text to the normal pipeline.  What it cannot
 * convert faithfully it leaves byte for byte, with a note saying why.
 */
#ifndef CLINIC_CONVERT_H
#define CLINIC_CONVERT_H

#include <stddef.h>

#include "base/context.h"

/* Why a function was left as it was; CONVERT_NREASONS counts them. */
typedef enum ConvertRefusal {
    REFUSE_TWO_PARSE_CALLS,     /* two parse calls, or one that depends on
                                   the argument count */
    REFUSE_ARGS_USED,           /* args/kwds used besides the parse call */
    REFUSE_EFFECTS_BEFORE,      /* code with effects before the parse */
    REFUSE_FORMAT_UNIT,         /* a format unit with no converter */
    REFUSE_UNINITIALISED,       /* an optional variable with no initialiser */
    REFUSE_HIDDEN_CALL,         /* no visible parse call: a macro or a
                                   helper parses, or the format is not a
                                   string literal */
    REFUSE_SHAPE,               /* the definition, the parse statement or
                                   the table entry is not of a form read
                                   faithfully */
    REFUSE_TYPE,                /* a variable's C type is not the
                                   converter's */
    REFUSE_DEFAULT,             /* an initialiser that is no Python
                                   literal */
    REFUSE_REFERENCED,          /* the function (or its names) used
                                   elsewhere */
    REFUSE_DOCSTRING,           /* a docstring clinic cannot take as is */
    REFUSE_OWNER,               /* no module or type known for the table */
    REFUSE_FLAGS,               /* METH_ flags clinic does not write */
    REFUSE_ELSEWHERE,           /* the function is not defined in the
                                   file */
    REFUSE_PARSE_FORM,          /* a parse function of another form than
                                   the tuple forms: a fastcall (stack)
                                   form, PyArg_Parse, a va_list form,
                                   clinic's own helpers */
    CONVERT_NREASONS
} ConvertRefusal;

typedef struct ConvertStats {
    size_t converted;
    size_t refused[CONVERT_NREASONS];
} ConvertStats;

/* A short name for the reason, as in the notes and the summary. */
const char *convert_reason_name(ConvertRefusal why);

/* Converts the functions of the LF text (len bytes) that can be:
   returns the new text (in c's arena, NUL-terminated; *out_len its
   length), or text itself when nothing was converted.  A refused
   function gets a "FILE:LINE: note: ..." line in c->diagnostics, and
   the file a summary note.  c->options.convert_only names the functions
   to take (Python names, dotted or not); none: all of them. */
const char *convert_text(Clinic *c, const char *text, size_t len,
                         size_t *out_len, ConvertStats *stats);

#endif
