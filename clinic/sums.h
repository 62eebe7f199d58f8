/*
 * sums.h — sums.c's entry points beyond cli.h's.
 */
#ifndef CLINIC_SUMS_H
#define CLINIC_SUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "cli.h"

/* job_note_text, told whether raw holds a "\r" (known to a caller that
   looked for one). */
void job_note_text_cr(Job *job, const char *path, const struct stat *st,
                      const char *raw, size_t len, bool has_cr);

#endif
