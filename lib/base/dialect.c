/*
 * dialect.c — choosing a dialect (by name, or by a CPython tree's
 * version), and looking up its tables.  The dialects themselves are in
 * dialect_3_11.c, dialect_3_13.c, dialect_3_14.c and dialect_3_15.c, one
 * file each: adding one is adding a file and a line to the list below.
 */
#include "base/dialect.h"

#include <stdlib.h>
#include <string.h>

/* ---- choosing one ---------------------------------------------------- */

const Dialect *const dialects[] = {&dialect_3_11, &dialect_3_13, &dialect_3_14,
                                   &dialect_3_15, NULL};

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

const DialectSnippet *dialect_snippet(const Dialect *d, const char *converter,
                                      const char *variant, bool limited)
{
    unsigned char skip = limited ? SNIPPET_FULL_API : SNIPPET_LIMITED_API;
    /* asked for each parameter: the first bytes (and the variant's
       second, which tells most format units apart) rule out nearly every
       entry before a comparison */
    char c0 = converter[0], v0 = variant[0], v1 = v0 ? variant[1] : 0;
    for (; d; d = d->base)
        for (size_t i = 0; i < d->nsnippets; i++) {
            const DialectSnippet *s = &d->snippets[i];
            if (s->variant[0] != v0 || (v0 && s->variant[1] != v1) ||
                s->converter[0] != c0 || s->api == skip)
                continue;
            if (strcmp(s->converter, converter) == 0 &&
                strcmp(s->variant, variant) == 0)
                return s;
        }
    return NULL;
}

const char *dialect_converter_type(const Dialect *d, const char *converter)
{
    for (; d; d = d->base)
        for (const DialectConverterType *t = d->converter_types;
             t && t->converter; t++)
            if (strcmp(t->converter, converter) == 0)
                return t->type;
    return NULL;
}

const char *dialect_keyword_text(const Dialect *d, size_t offset)
{
    for (; d; d = d->base)
        if (d->keyword_parser) {
            const char *text = *(const char *const *)(const void *)(
                (const char *)d->keyword_parser + offset);
            if (text)
                return text;
        }
    return NULL;
}

const void *dialect_inherited(const Dialect *d, size_t offset)
{
    for (; d; d = d->base) {
        const void *p = *(const void *const *)(const void *)(
            (const char *)d + offset);
        if (p)
            return p;
    }
    return NULL;
}

bool dialect_adds_converter(const Dialect *d, const char *class_name)
{
    for (; d; d = d->base)
        for (const char *const *p = d->converters_added; p && *p; p++)
            if (strcmp(*p, class_name) == 0)
                return true;
    return false;
}

const char *dialect_class_base(const Dialect *d, const char *class_name)
{
    for (; d; d = d->base)
        for (const DialectClassBase *b = d->class_bases; b && b->converter;
             b++)
            if (strcmp(b->converter, class_name) == 0)
                return b->base;
    return NULL;
}

bool dialect_lacks_return_converter(const Dialect *d, const char *name)
{
    for (const char *const *p = d->return_converters_lacking; p && *p; p++)
        if (strcmp(*p, name) == 0)
            return true;
    return false;
}

const char *dialect_message(const Dialect *d, DialectMessage id)
{
    for (; d; d = d->base)
        if (d->messages && d->messages[id])
            return d->messages[id];
    return "";
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
