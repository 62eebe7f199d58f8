/*
 * sums.h — what sums.c remembers for the run beyond checksums: the
 * routed files a job found verified and unchanged (see sums.c).
 */
#ifndef CLINIC_SUMS_H
#define CLINIC_SUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "cli.h"

/* The text every destination file that clinic verified holds, and
   rewrites as it is, begins with: one 'preserve' block. */
#define SUMS_PRESERVE_START \
    "/*[clinic input]\npreserve\n[clinic start generated code]*/\n"

/* Notes that the job's run verified the routed file path (read by the
   job, its identity noted) as one 'preserve' block whose checksums hold,
   under dialect, and printed it back byte for byte as text. */
void sums_note_verified(const Job *job, const char *path, const char *text,
                        size_t len, const Dialect *dialect);
/* Is text (len bytes, from the file whose fstat is st) the very text of
   such a file, verified under dialect?  The note is used up. */
bool sums_take_verified(const struct stat *st, const char *text, size_t len,
                        const Dialect *dialect);

/* job_note_text, told whether raw holds a "\r" (known to a caller that
   looked for one). */
void job_note_text_cr(Job *job, const char *path, const struct stat *st,
                      const char *raw, size_t len, bool has_cr);

#endif
