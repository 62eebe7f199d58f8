/*
 * dialect.c — the dialects themselves: CPython 3.11's Argument Clinic and
 * 3.13's, each the list of its differences (see dialect.h).  Adding a
 * dialect (3.14, a portable target) is adding one more of these.
 */
#include "dialect.h"

#include <stdlib.h>
#include <string.h>

/* ---- CPython 3.11: Tools/clinic/clinic.py + cpp.py ------------------- */

static const char *const make_extensions_3_11[] = {".c", ".h", NULL};

static const Dialect dialect_3_11 = {
    .name = "3.11",
    .major = 3,
    .minor = 11,
    .reference = "CPython 3.11's Tools/clinic/clinic.py",
    .make_extensions = make_extensions_3_11,
    .syntax = 0,
};

/* ---- CPython 3.13: Tools/clinic/clinic.py + libclinic/ --------------- */

static const char *const make_extensions_3_13[] = {".c", ".cpp", ".h", NULL};

static const Dialect dialect_3_13 = {
    .name = "3.13",
    .major = 3,
    .minor = 13,
    .reference = "CPython 3.13's Tools/clinic (clinic.py and libclinic/)",
    .make_extensions = make_extensions_3_13,
    .syntax = SYNTAX_CRITICAL_SECTION | SYNTAX_GETSET | SYNTAX_TEXT_SIGNATURE |
              SYNTAX_DEPRECATION | SYNTAX_UNUSED,
};

/* ---- choosing one ---------------------------------------------------- */

const Dialect *const dialects[] = {&dialect_3_11, &dialect_3_13, NULL};

const Dialect *dialect_default(void)
{
    return &dialect_3_11;
}

const Dialect *dialect_find(const char *name)
{
    for (size_t i = 0; dialects[i]; i++)
        if (strcmp(dialects[i]->name, name) == 0)
            return dialects[i];
    return NULL;
}

const Dialect *dialect_for_version(int major, int minor)
{
    const Dialect *best = NULL;
    for (size_t i = 0; dialects[i]; i++) {
        const Dialect *d = dialects[i];
        if (d->major < major || (d->major == major && d->minor <= minor))
            best = d;
    }
    return best ? best : dialect_default();
}

/* The number after "#define NAME" at the start of a line, or -1. */
static int define_value(const char *text, size_t len, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < len; i++) {
        if (i && text[i - 1] != '\n')
            continue;
        const char *p = text + i, *end = text + len;
        if (*p != '#')
            continue;
        p++;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if ((size_t)(end - p) < 7 || strncmp(p, "define", 6) != 0)
            continue;
        p += 6;
        if (*p != ' ' && *p != '\t')
            continue;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if ((size_t)(end - p) <= n || strncmp(p, name, n) != 0 ||
            (p[n] != ' ' && p[n] != '\t'))
            continue;
        p += n;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p == end || *p < '0' || *p > '9')
            return -1;
        int value = 0;
        while (p < end && *p >= '0' && *p <= '9' && value < 1000)
            value = value * 10 + (*p++ - '0');
        return value;
    }
    return -1;
}

bool dialect_read_patchlevel(const char *text, size_t len, int *major,
                             int *minor)
{
    *major = define_value(text, len, "PY_MAJOR_VERSION");
    *minor = define_value(text, len, "PY_MINOR_VERSION");
    return *major >= 0 && *minor >= 0;
}

bool dialect_makes(const Dialect *d, const char *filename)
{
    size_t n = strlen(filename);
    for (const char *const *e = d->make_extensions; *e; e++) {
        size_t k = strlen(*e);
        if (n >= k && strcmp(filename + n - k, *e) == 0)
            return true;
    }
    return false;
}
