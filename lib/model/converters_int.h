/*
 * converters_int.h — private to converters*.c: the built-in table rows
 * and the behaviour kind each row dispatches on.
 *
 * clinic.py expresses converter behaviour as Python subclasses overriding
 * converter_init / parse_arg / cleanup / post_parsing / render.  Here each
 * built-in row names a ConverterKind, and one switch per method reproduces
 * the subclass's override (the builtin_* functions below).  The methods
 * are dispatched by converters_py.c: a class a python block made may
 * override any of them in Python, and reaches these through super().
 */
#ifndef CLINIC_CONVERTERS_INT_H
#define CLINIC_CONVERTERS_INT_H

#include "model/converters.h"

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
    CK_VARPOS_TUPLE,        /* 3.14's *args: tuple */
    CK_VARPOS_ARRAY,        /* 3.14's *args: array */
    CK_VAR_KEYWORD_DICT,    /* 3.15's **kwds: dict */
    CK_UINT,                /* 3.14's uint8 ... uint64 */
    CK_UNICODE_FS,          /* 3.14's unicode_fs_encoded, _decoded */
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
    /* Not in 3.11's set: the class exists only in the dialects that add
       it (Dialect.converters_added). */
    bool added;
    /* A class attribute the class sets to False ("bitwise": 3.14's
       BaseUnsignedIntConverter), NULL: none. */
    const char *false_attribute;
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

/* The keyword-only parameters of row's converter_init in dialect d: the
   row's, then those the dialect and its bases add (DialectInitKeyword),
   into out; returns how many. */
int converter_init_params(const ConverterRow *row, const Dialect *d,
                          InitParam out[MAX_INIT_PARAMS]);

/* converters_table.c */
extern const ConverterRow converter_rows[];
/* Whether dialect d has the table's row (see ConverterRow.added). */
bool converter_row_in_dialect(const ConverterRow *row, const Dialect *d);
extern const size_t converter_nrows;
extern const ReturnRow return_rows[];
extern const size_t return_nrows;
extern const LegacyEntry legacy_entries[];
extern const size_t legacy_nentries;

/* Whether a python block's class of conv overrides CConverter's method
   name (converters_dispatch.c): a built-in may then take a shortcut
   through the built-in behaviour it would call. */
bool converter_overrides(Clinic *c, const Converter *conv, const char *name);

/* The built-in row a class is, or derives from (never NULL for a class
   built from the table). */
const ConverterRow *converter_row_of(const ConverterClass *cls);
const ReturnRow *return_row_of(const ReturnConverterClass *cls);

/* The c_ignored_default, c_init_default and default_type of a class in
   dialect d: a built-in class's as the dialect defines them
   (DialectClassDefaults), a python block's as it set or inherited them. */
void converter_class_defaults(const Dialect *d, const ConverterClass *cls,
                              const char **c_ignored_default,
                              const char **c_init_default,
                              unsigned *default_type);

/* The class a built-in class derives from in dialect d
   (Dialect.class_bases), else its own base. */
const ConverterClass *converter_base_in(const Dialect *d,
                                        const ConverterClass *cls);

/* The legacy entry with its partial keywords (NULL: none). */
const LegacyEntry *legacy_entry_find(const Clinic *c, const char *unit);

/* The file's interpreter state for python blocks (converters_py.c),
   kept in the registry; NULL until a python block needs it. */
typedef struct ConverterPython ConverterPython;
ConverterPython **converters_python_slot(const Clinic *c);

/* ---- the built-in behaviour of each method ------------------------------ */

/* What clinic.py's methods do, for the class of the given kind (the
   class that defines the method, as the dispatch found it).  The
   converter methods they call in turn go through the dispatch again,
   as self.method() does in Python. */

/* Fails when v, given for what, is a stand-in clinic did not compute:
   before converter_init tests it or a python block's code gets it. */
void converter_check_computed(Clinic *c, const char *what, const PyValue *v);

/* CConverter.__init__(self, name, py_name, function, default, **kwargs):
   the checks of the default and the c_default/py_default/annotation
   keywords, then self.converter_init(**kwargs). */
void builtin_cconverter_init(Clinic *c, Converter *conv, const char *name,
                             const char *py_name, Function *function,
                             PyValue default_value, const ConverterArg *args,
                             size_t nargs);
/* c_default_init() (3.14) of the class of the given kind, and through
   the dispatch (a python block's class may define its own). */
void builtin_c_default_init(Clinic *c, ConverterKind kind, Converter *conv);
void converter_call_c_default_init(Clinic *c, Converter *conv);
void builtin_converter_init(Clinic *c, const ConverterRow *row,
                            Converter *conv, const ConverterArg *args,
                            size_t nargs);
/* converter_init through the dispatch (converters_py.c), with clinic.py's
   LandMine on self.function while it runs. */
void converter_call_init(Clinic *c, Converter *conv, const ConverterArg *args,
                         size_t nargs);
/* A new instance of cls with its class attributes (not initialised). */
Converter *converter_alloc(Clinic *c, const ConverterClass *cls);

typedef enum ConverterSnippet {
    SNIPPET_INITIALIZE, SNIPPET_MODIFY, SNIPPET_POST_PARSING, SNIPPET_CLEANUP,
} ConverterSnippet;

const char *builtin_snippet(Clinic *c, ConverterKind kind,
                            const Converter *conv, ConverterSnippet which);
const char *converter_snippet(Clinic *c, Converter *conv,
                              ConverterSnippet which);
bool builtin_is_optional(const Converter *conv);
bool converter_call_is_optional(Clinic *c, Converter *conv);
void builtin_render(Clinic *c, ConverterKind kind, Converter *conv,
                    Parameter *p, RenderData *data);
void builtin_render_self(Clinic *c, Converter *conv, Parameter *p,
                         RenderData *data);
void builtin_render_non_self(Clinic *c, Converter *conv, Parameter *p,
                             RenderData *data);
void converter_render_self(Clinic *c, Converter *conv, Parameter *p,
                           RenderData *data);
void converter_render_non_self(Clinic *c, Converter *conv, Parameter *p,
                               RenderData *data);
const char *builtin_length_name(Clinic *c, const Converter *conv);
void builtin_parse_argument(Clinic *c, Converter *conv, StrList *list);
const char *builtin_simple_declaration(Clinic *c, const Converter *conv,
                                       bool by_reference, bool in_parser);
const char *builtin_declaration(Clinic *c, const Converter *conv);
void builtin_pre_render(Clinic *c, ConverterKind kind, Converter *conv);
/* raw: the snippet as the reference's string has it, indentation and
   all (what Python code calling it sees), not only its code. */
const char *builtin_parse_arg(Clinic *c, ConverterKind kind, Converter *conv,
                              const char *argname, const char *displayname,
                              bool limited_capi, bool raw);
/* builtin_parse_arg's code normalised at indent (normalize_snippet). */
const char *builtin_parse_arg_code(Clinic *c, ConverterKind kind,
                                   Converter *conv, const char *argname,
                                   const char *displayname, bool limited_capi,
                                   int indent);
/* 3.13's CConverter.bad_argument(displayname, expected, *, limited_capi,
   expected_literal) (expected_expr: not expected_literal), and
   use_converter() of the class of the given kind. */
const char *builtin_bad_argument(Clinic *c, Converter *conv,
                                 const char *displayname, const char *expected,
                                 bool expected_expr, bool limited);
void builtin_use_converter(Clinic *c, ConverterKind kind, Converter *conv);
void builtin_set_template_dict(Clinic *c, ConverterKind kind, Converter *conv,
                               StrMap *template_dict);
const char *builtin_parser_name(Clinic *c, const Converter *conv);
const char *builtin_parser_type(Clinic *c, const Converter *conv);

/* Return converters: CReturnConverter.__init__ (py_default, then
   return_converter_init), and the built-in methods. */
ReturnConverter *return_converter_alloc(Clinic *c,
                                        const ReturnConverterClass *cls);
void builtin_return_converter_init(Clinic *c, ReturnConverter *rc,
                                   const ConverterArg *args, size_t nargs);
void builtin_return_render(Clinic *c, ReturnKind kind, ReturnConverter *rc,
                           Function *f, RenderData *data);
void builtin_declare(Clinic *c, ReturnConverter *rc, RenderData *data,
                     const char *name);
void builtin_err_occurred_if(Clinic *c, const char *expr, RenderData *data);
void builtin_err_occurred_if_null_pointer(Clinic *c, const char *variable,
                                          RenderData *data);

/* converters_py.c: the copy's own view and attributes (copy.copy). */
void converter_copy_python(Clinic *c, Converter *copy);

/* repr() of a converter argument as clinic.py's Python would print it,
   with clinic's classes as "<class 'str'>" / "<class '__main__.buffer'>"
   and sets in the reference's definition order. */
const char *conv_repr(Arena *a, const Dialect *d, const PyValue *v);
/* A repr Python made of values holding clinic's own classes
   ("<class '__main__.buffer'>"), with those in the dialect's modules. */
const char *conv_in_dialect(Arena *a, const Dialect *d, const char *repr);
/* The bits in definition order, for messages and listings. */
extern const unsigned conv_type_order[];
extern const size_t conv_type_order_len;
/* The same bits (as many) in the order default_type tuples have them. */
extern const unsigned conv_default_type_order[];

/* clinic.py's type_checks: subclass_of values with a cheaper exact check
   than PyObject_TypeCheck (converters_render.c; ends with NULLs). */
typedef struct TypeCheck {
    const char *subclass_of, *typecheck, *typename_;
} TypeCheck;
extern const TypeCheck conv_type_checks[];

#endif
