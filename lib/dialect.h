/*
 * dialect.h — the Argument Clinic versions clinic reproduces, as data.
 *
 * A dialect is one CPython version's Argument Clinic (3.11's clinic.py,
 * 3.13's libclinic): the same pipeline, told apart by a small set of named
 * differences, all in dialect.c — the syntax it accepts (decorators and
 * markers), what it writes differently (the keyword parser's declaration,
 * converter snippets, the #include header of routed files, the Limited C
 * API), the names it renames, and its error wordings.  A file's dialect is
 * chosen once, when its Clinic context is made (ClinicOptions.dialect);
 * the stages read these fields, never the dialect's name.
 */
#ifndef CLINIC_DIALECT_H
#define CLINIC_DIALECT_H

#include <stdbool.h>
#include <stddef.h>

/* One converter's specialised parsing snippet (CConverter.parse_arg) in a
   dialect: the template for a converter class and format unit, in the
   reference's own text (see converters_render.c for the fields). */
typedef struct DialectSnippet {
    const char *converter;     /* class name: "int_converter" */
    const char *format_unit;   /* "i"; "" for any */
    const char *text;
} DialectSnippet;

/* Decorators and markers of the DSL beyond 3.11's (bits of
   Dialect.syntax). */
enum {
    SYNTAX_CRITICAL_SECTION = 1u << 0,   /* @critical_section [a [b]] */
    SYNTAX_GETSET = 1u << 1,             /* @getter, @setter */
    SYNTAX_TEXT_SIGNATURE = 1u << 2,     /* @text_signature "(...)" */
    SYNTAX_DEPRECATION = 1u << 3,        /* '* [from X.Y]', '/ [from X.Y]' */
    SYNTAX_UNUSED = 1u << 4,             /* converter(unused=True) */
};

typedef struct Dialect {
    const char *name;          /* "3.11": what --dialect takes */
    int major, minor;          /* the CPython version it reproduces */
    const char *reference;     /* what it reproduces, for --help */
    /* what --make walks: file name endings, NULL-terminated */
    const char *const *make_extensions;
    unsigned syntax;           /* SYNTAX_ bits */
} Dialect;

/* Every dialect, oldest first, NULL-terminated. */
extern const Dialect *const dialects[];

/* The dialect a file gets when nothing says otherwise: 3.11. */
const Dialect *dialect_default(void);

/* By name ("3.13"); NULL when there is no such dialect. */
const Dialect *dialect_find(const char *name);

/* The dialect for a CPython tree of version major.minor: the newest
   dialect not newer than the tree (3.12 gets 3.11, 3.14 gets 3.13), or
   the default for trees older than every dialect. */
const Dialect *dialect_for_version(int major, int minor);

/* PY_MAJOR_VERSION and PY_MINOR_VERSION from the text of a CPython
   Include/patchlevel.h.  Returns false when they are not both there. */
bool dialect_read_patchlevel(const char *text, size_t len, int *major,
                             int *minor);

/* Whether the dialect --make walks a file of this name. */
bool dialect_makes(const Dialect *d, const char *filename);

#endif
