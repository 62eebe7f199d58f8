/*
 * crename.h — renaming identifiers in C code: each identifier found in a
 * table gets the table's new name, except inside string and character
 * literals and comments.  The portable target writes CPython 3.11's
 * parsers with the names of its own helpers in place of CPython's private
 * ones this way (dialect.h: Dialect.api_names).
 */
#ifndef CLINIC_CRENAME_H
#define CLINIC_CRENAME_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"

/* One identifier and its new name. */
typedef struct CRename {
    const char *from;
    const char *to;
} CRename;

/* A table of renames, sorted by `from` (strcmp order): crename_sorted()
   says whether it is. */
typedef struct CRenameTable {
    const CRename *entries;
    size_t n;
} CRenameTable;

bool crename_sorted(const CRenameTable *t);

/* The new name of identifier `name` (n bytes), or NULL. */
const char *crename_lookup(const CRenameTable *t, const char *name, size_t n);

/* text with the table's identifiers renamed.  Returns text itself when
   there was nothing to rename; *renamed (if not NULL) is set to whether
   anything was. */
const char *crename_text(Arena *a, const char *text, const CRenameTable *t,
                         bool *renamed);

#endif
