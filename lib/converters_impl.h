/*
 * converters_impl.h — private to converters*.c: the built-in table rows
 * and the behaviour kind each row dispatches on.
 *
 * clinic.py expresses converter behaviour as Python subclasses overriding
 * converter_init / parse_arg / cleanup / post_parsing / render.  Here each
 * built-in row names a ConverterKind, and one switch per method reproduces
 * the subclass's override.  A class a Python block declares inherits the
 * kind of the built-in class it derives from; methods it defines in Python
 * arrive as ConverterMethods (converters.h) and are found first, walking
 * the class chain as Python's attribute lookup does.
 */
#ifndef CLINIC_CONVERTERS_IMPL_H
#define CLINIC_CONVERTERS_IMPL_H

#include "converters.h"

typedef enum ConverterKind {
    CK_BASE,                /* CConverter itself */
    CK_BOOL,
    CK_DEFINING_CLASS,
    CK_CHAR,
    CK_UNSIGNED_CHAR,       /* also byte_converter, its subclass */
    CK_SHORT,
    CK_UNSIGNED_SHORT,
    CK_INT,
    CK_UNSIGNED_INT,
    CK_LONG,
    CK_UNSIGNED_LONG,
    CK_LONG_LONG,
    CK_UNSIGNED_LONG_LONG,
    CK_PY_SSIZE_T,
    CK_SLICE_INDEX,
    CK_SIZE_T,
    CK_FILDES,
    CK_FLOAT,
    CK_DOUBLE,
    CK_PY_COMPLEX,
    CK_OBJECT,
    CK_STR,
    CK_PYBYTESOBJECT,
    CK_PYBYTEARRAYOBJECT,
    CK_UNICODE,
    CK_PY_UNICODE,
    CK_PY_BUFFER,
    CK_SELF,
} ConverterKind;

/* One keyword-only parameter of a converter_init signature. */
typedef struct InitParam {
    const char *name;
    PyValue default_value;
} InitParam;

#define MAX_INIT_PARAMS 3

/* A built-in converter class: the public ConverterClass plus what the
   Python class says in code rather than in attributes. */
typedef struct ConverterRow {
    ConverterClass cls;
    ConverterKind kind;
    /* The class whose converter_init this class uses (for TypeError
       messages, "unsigned_char_converter.converter_init()"), and its
       keyword-only parameters in declaration order. */
    const char *init_owner;
    InitParam params[MAX_INIT_PARAMS];
    int nparams;
    bool listed;            /* in `--converters` (CConverter is not) */
} ConverterRow;

typedef enum ReturnKind {
    RK_OBJECT,              /* CReturnConverter: render does nothing */
    RK_NONETYPE,
    RK_BOOL,
    RK_LONG,                /* long_return_converter and subclasses */
    RK_INIT,
    RK_DOUBLE,              /* double and float */
} ReturnKind;

typedef struct ReturnRow {
    ReturnConverterClass cls;
    ReturnKind kind;
    bool listed;
} ReturnRow;

/* A legacy format unit: a class plus functools.partial keywords. */
typedef struct LegacyEntry {
    const char *format_unit;
    const ConverterClass *cls;
    const ConverterArg *kwargs;
    size_t nkwargs;
} LegacyEntry;

/* converters_table.c */
extern const ConverterRow converter_rows[];
extern const size_t converter_nrows;
extern const ReturnRow return_rows[];
extern const size_t return_nrows;
extern const LegacyEntry legacy_entries[];
extern const size_t legacy_nentries;

/* The built-in row a class is, or derives from (never NULL for a class
   built from the table). */
const ConverterRow *converter_row_of(const ConverterClass *cls);
const ReturnRow *return_row_of(const ReturnConverterClass *cls);

/* The legacy entry with its partial keywords (NULL: none). */
const LegacyEntry *legacy_entry_find(const Clinic *c, const char *unit);

/* Methods a Python block installed on exactly this class (NULL: none),
   whether any class has some, and instance attributes for copies. */
const ConverterMethods *converter_methods_of(const Clinic *c,
                                             const ConverterClass *cls);
bool converter_has_methods(const Clinic *c);
const ReturnConverterMethods *
return_converter_methods_of(const Clinic *c, const ReturnConverterClass *cls);
void converter_copy_attrs(Clinic *c, const Converter *from, Converter *to);

/* The first method named by member in from's class chain, or NULL when
   the built-in behaviour of from's row applies. */
#define CONVERTER_METHOD(c, from, member, found)                           \
    do {                                                                   \
        (found) = NULL;                                                    \
        if (converter_has_methods(c))                                      \
            for (const ConverterClass *p_ = (from); p_ && !(found);        \
                 p_ = p_->base) {                                          \
                const ConverterMethods *m_ = converter_methods_of(c, p_);  \
                if (m_ && m_->member)                                      \
                    (found) = m_;                                          \
            }                                                              \
    } while (0)

/* repr() of a converter argument as clinic.py's Python would print it,
   with clinic's classes as "<class 'str'>" / "<class '__main__.buffer'>"
   and sets in the reference's definition order. */
const char *conv_repr(Arena *a, const Dialect *d, const PyValue *v);
/* A repr Python made of values holding clinic's own classes
   ("<class '__main__.buffer'>"), with those in the dialect's modules. */
const char *conv_in_dialect(Arena *a, const Dialect *d, const char *repr);
/* "<class 'int'>", for one PYT_ bit. */
const char *conv_class_repr(Arena *a, const Dialect *d, unsigned type_bit);
/* The bits in definition order, for messages and listings. */
extern const unsigned conv_type_order[];
extern const size_t conv_type_order_len;

#endif
