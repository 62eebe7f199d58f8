/*
 * printout.h — the text the block printer writes, compared with the text
 * it replaces as it is written.
 *
 * Most runs change nothing: every block prints as it was.  So the new
 * text is not put together while it matches the old one; only how far it
 * matches is kept, and at the first difference the matching part is
 * copied once and the rest appended.  An unchanged file is then neither
 * copied nor compared a second time, and its output takes no memory.
 */
#ifndef CLINIC_PRINTOUT_H
#define CLINIC_PRINTOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"

typedef struct PrintOut {
    const char *old;   /* the text being replaced; NULL: none */
    size_t old_len;
    size_t len;        /* bytes written so far */
    bool copied;       /* from the first difference on: text holds all */
    StrBuf text;
} PrintOut;

/* No old text: everything written is new. */
#define PRINTOUT_INIT { NULL, 0, 0, false, STRBUF_INIT }

void printout_init(PrintOut *o, const char *old, size_t old_len);
void printout_free(PrintOut *o);

void printout_add(PrintOut *o, const char *s, size_t n);
void printout_adds(PrintOut *o, const char *s);
/* printout_add of the n pieces parts[] (lens[] bytes each), one after
   the other: while the old text matches, compared where they stand,
   never pasted together. */
void printout_add_parts(PrintOut *o, const char *const *parts,
                        const size_t *lens, size_t n);

/* The bytes written from offset on (o->len - offset of them; "" when
   nothing was written without an old text). */
const char *printout_at(const PrintOut *o, size_t offset);

/* Whether what was written is the old text itself. */
bool printout_unchanged(const PrintOut *o);

#endif
