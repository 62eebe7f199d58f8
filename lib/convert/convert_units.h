/*
 * convert_units.h — the format units --convert knows (convert_units.c).
 */
#ifndef CLINIC_CONVERT_UNITS_H
#define CLINIC_CONVERT_UNITS_H

#include <stddef.h>

/* What a variable's initialiser may be, as the parameter's default. */
typedef enum DefaultKind {
    DEF_NONE,        /* no default is taken: the unit is refused optional */
    DEF_INT,         /* an integer literal, maybe negative */
    DEF_FLOAT,       /* an integer or floating literal */
    DEF_BOOL,        /* 0 or 1 */
    DEF_CHAR,        /* a plain character literal: b'x' */
    DEF_STR,         /* NULL, or a plain string literal */
    DEF_STR_NONE,    /* NULL (None), or a plain string literal */
    DEF_NULL,        /* NULL only */
    DEF_BUFFER,      /* {NULL, NULL} and the like: None */
    DEF_OBJECT,      /* NULL, or Py_None: None */
    DEF_ANY,         /* O&: NULL, Py_None or an integer literal */
} DefaultKind;

typedef struct FormatUnit {
    const char *unit;          /* "s#", "O!", "es" */
    const char *converter;     /* the DSL converter */
    const char *type;          /* the C type of the variable; NULL: any */
    const char *also_type;     /* other spellings of it, "|" between
                                  them; or NULL */
    DefaultKind defaults;
    int nargs;                 /* the C arguments it takes */
} FormatUnit;

/* The unit at *fmt (moving past it), or NULL when it is none of the
   table's. */
const FormatUnit *unit_next(const char **fmt);

#endif
