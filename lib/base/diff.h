/*
 * diff.h — unified diffs for `clinic --diff`: what writing would change,
 * shown as "--- a/FILE" / "+++ b/FILE" hunks with three lines of context,
 * ready for `patch -p1` or `git apply`.
 */
#ifndef CLINIC_DIFF_H
#define CLINIC_DIFF_H

#include <stddef.h>

#include "base/strbuf.h"

/* Appends to out the diff turning old_text into new_text, headed
   "--- OLD_LABEL" and "+++ NEW_LABEL" (use "/dev/null" for a file that
   does not exist yet).  Appends nothing when the texts are equal. */
void diff_unified(StrBuf *out, const char *old_label, const char *old_text,
                  size_t old_len, const char *new_label,
                  const char *new_text, size_t new_len);

/* Appends prefix and name ("a/", "dir/x.c") as git writes a file's name
   in a diff, so that git apply and patch -p1 read it back: as it is, or,
   when it holds a control character, a '"', a '\\', DEL or any byte
   from 0x80 (git's core.quotePath), the whole in double quotes with C
   escapes (\t, \n, \", \\, \ooo).  The caller adds git's tab after
   the name on the ---/+++ lines of a name with a space in it. */
void diff_add_git_name(StrBuf *out, const char *prefix, const char *name);

#endif
