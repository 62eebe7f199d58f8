/*
 * model.h — what a declaration means: modules, classes, functions,
 * parameters and the converter instances attached to them.
 *
 * The DSL parser (dsl.c) builds these; converters.c creates and renders
 * converter instances; the generator (gen*.c) turns a Function into
 * output fields.  The structs mirror clinic.py's Module, Class, Function,
 * Parameter, CConverter and CReturnConverter attribute for attribute, so
 * the reference can be read side by side.  All memory is the Clinic's
 * arena.
 */
#ifndef CLINIC_MODEL_H
#define CLINIC_MODEL_H

#include <stdbool.h>

#include "base/context.h"
#include "python/pyexpr.h"
#include "base/text.h"

typedef struct Parameter Parameter;
typedef struct Converter Converter;
typedef struct ConverterClass ConverterClass;
typedef struct ReturnConverter ReturnConverter;
typedef struct ReturnConverterClass ReturnConverterClass;
typedef struct RenderData RenderData;
typedef struct ConverterArg ConverterArg;

struct Module {
    const char *name;
    Module *parent;          /* NULL for a top-level module */
};

struct Class {
    const char *name;
    Module *module;
    Class *cls;              /* enclosing class, or NULL */
    const char *typedef_;    /* "TYPEDEF" of the class directive */
    const char *type_object; /* "TYPE_OBJECT" */
};

typedef enum FunctionKind {
    FUNC_CALLABLE,
    FUNC_STATIC_METHOD,
    FUNC_CLASS_METHOD,
    FUNC_METHOD_INIT,
    FUNC_METHOD_NEW,
    FUNC_GETTER,             /* @getter (3.13) */
    FUNC_SETTER,             /* @setter (3.13) */
} FunctionKind;

static inline bool function_kind_new_or_init(FunctionKind k)
{
    return k == FUNC_METHOD_INIT || k == FUNC_METHOD_NEW;
}

/* A Python version, as '[from 3.14]' names one; major 0: none. */
typedef struct PyVersion {
    int major, minor;
} PyVersion;

/* An #include a generated file needs (3.13's libclinic Include): the
   header, why (the comment beside it), and the #if it sits under (NULL:
   none). */
typedef struct Include {
    const char *filename;
    const char *reason;
    const char *condition;
} Include;

typedef struct IncludeList {
    Include *items;
    size_t len, cap;
} IncludeList;
/*
 * What the generator decided when it rendered a function (gen.c and
 * gen_templates.c fill it in), kept so that the query modes (--json,
 * --stats, ...) report exactly what clinic writes instead of working it
 * out again.
 */
typedef struct Rendering {
    bool done;                 /* the function was rendered */
    const char *c_basename;
    const char *docstring;     /* PyDoc_STRVAR's text, unescaped; NULL
                                  when none is written (__new__ or
                                  __init__ without a docstring) */
    const char *methoddef_flags;  /* the PyMethodDef's flags; NULL when
                                     there is none (__new__, __init__) */
    const char *convention;    /* the calling convention's METH_ flags,
                                  __new__/__init__ included */
    const char *parser;        /* how the arguments are parsed: the API
                                  called ("_PyArg_UnpackKeywords",
                                  "PyArg_ParseTuple", ...), "inline" or
                                  "none" (see gen_templates.c) */
    const char *impl_return_type;
    Parameter **parameters;    /* the rendered copies of the parameters
                                  (pre_render applied: self's C type) */
} Rendering;

struct Function {
    const char *name;
    const char *full_name;
    Module *module;
    Class *cls;              /* NULL for module-level functions */
    const char *c_basename;  /* NULL: derived from full_name */
    ReturnConverter *return_converter;
    const char *docstring;   /* "" when none */
    FunctionKind kind;
    bool coexist;
    bool docstring_only;     /* has optional groups: no text signature */
    Parameter **parameters;  /* in order; [0] is always self */
    size_t nparameters, capparameters;
    int line;                /* where the declaration starts, for errors */

    /* Preprocessor condition the block sits under (cpp.c), "" if none. */
    const char *cpp_condition;

    /* 3.13's decorators: @text_signature's text (NULL: none), and
       @critical_section with the objects it locks (none: self). */
    const char *forced_text_signature;
    bool critical_section;
    /* 3.14's @deleter: a setter that also deletes (clinic.py's
       SETTER_AND_DELETER), so it is called with NULL */
    bool deleter;
    /* 3.14's @disable fastcall: parsed from an argument tuple */
    bool disable_fastcall;
    const char **target_critical_section;
    size_t ntarget_critical_section;
    int block_line;          /* the line of its block's start marker */
    /* The text signature (dsl_docstring.c) as the docstring has it:
       "name($self, a, /)" wrapped before column 72, or for a function
       with optional groups the bracketed line its docstring starts with;
       set for __new__/__init__ without a docstring too, though none is
       written.  full_signature: the same with the full dotted name (the
       class's for __new__/__init__), on one line, as --list shows it. */
    const char *signature;
    const char *full_signature;
    /* Function.render_parameters, made once (function_render_parameters
       in converters.h) in the file's arena: the docstring and the code
       are written from the same copies, and each converter's pre_render
       runs once, as in clinic.py.  NULL: not made yet. */
    Parameter **render_parameters;
    Rendering rendering;
};

typedef enum ParamKind {
    PARAM_POSITIONAL_ONLY,
    PARAM_POSITIONAL_OR_KEYWORD,
    PARAM_VAR_POSITIONAL,
    PARAM_KEYWORD_ONLY,
    PARAM_VAR_KEYWORD,       /* 3.15's **kwds */
} ParamKind;

/* *args or **kwds (3.15's is_variable_length()). */
static inline bool param_kind_variable_length(ParamKind k)
{
    return k == PARAM_VAR_POSITIONAL || k == PARAM_VAR_KEYWORD;
}

/* A converter as the declaration names it: "name: int(accept={str})"
   gives "int" and its keyword arguments; a legacy "name: 'i'" gives the
   format unit.  Kept for the query modes. */
typedef struct ConverterCall {
    const char *name;
    bool legacy;
    const ConverterArg *args;
    size_t nargs;
} ConverterCall;

struct Parameter {
    const char *name;        /* Python name */
    const char *key;         /* key in clinic.py's parameters dict
                                ("name" or "name_as_cname") */
    ParamKind kind;
    PyValue default_value;   /* PY_UNSPECIFIED when required */
    Function *function;
    Converter *converter;
    const char *docstring;   /* "" when none */
    int group;               /* 0, or the option group (negative: left) */
    /* '* [from X.Y]' and '/ [from X.Y]' (3.13): from which version on the
       parameter stops being positional, or keyword */
    PyVersion deprecated_positional;
    PyVersion deprecated_keyword;
    ConverterCall annotation;  /* {NULL} for the self clinic inserts */
};

static inline bool param_is_optional(const Parameter *p)
{
    return !param_kind_variable_length(p->kind) &&
           p->default_value.kind != PY_UNSPECIFIED;
}

/*
 * A converter instance: CConverter's attributes.  Its class supplies the
 * defaults (copied in at creation) and the behaviour.
 */
struct Converter {
    const ConverterClass *cls;
    const char *name;          /* C name, made a legal C identifier */
    const char *py_name;
    Function *function;
    Parameter *parameter;      /* set when rendering */

    PyValue default_value;
    const char *type;          /* C type, "int", "PyObject *" */
    const char *c_default;     /* NULL: none */
    const char *py_default;    /* NULL: none */
    const char *c_ignored_default;
    const char *c_init_default;   /* 3.14: NULL or "": none */
    const char *converter;     /* C converter function for 'O&' */
    const char *format_unit;
    const char *encoding;
    const char *subclass_of;
    const char *signature_name;
    unsigned default_type;     /* PYT_ bits a default must have; 0: any */
    bool impl_by_reference;
    bool parse_by_reference;
    bool length;
    bool show_in_signature;
    bool unused;               /* unused=True (3.13): Py_UNUSED(name) */
    /* The #includes its snippets asked for (3.13's _includes); a copy
       shares the list with its original, as clinic.py's copy.copy does. */
    IncludeList *includes;

    /* Arguments particular to some converters (str, Py_buffer, int, ...),
       kept for parse_arg/cleanup. */
    unsigned accept;           /* PYT_ bits of accept={...} */
    bool bitwise;              /* bitwise=True (python blocks read it) */
    bool zeroes;
    bool non_negative;         /* Py_ssize_t(allow_negative=False) (3.15) */
    const char *self_type;     /* self_converter: type= */

    /* The instance as a python block's code sees it (converters_py.c):
       the interpreter object, made on first use, and its attributes
       beyond the ones above (an interpreter dict; NULL while none).
       initializing is true inside converter_init, where self.function
       is clinic.py's LandMine. */
    PyObj *object;
    PyObj *attrs;
    bool initializing;
};

/* One keyword argument given to a converter: name(kw=value, ...). */
struct ConverterArg {
    const char *name;
    PyValue value;
};

/*
 * A converter class: one row of the converter table, or a class a
 * Python block declared.  Behaviour hooks that are NULL are inherited
 * from base (and finally from CConverter's defaults in converters.c).
 */
struct ConverterClass {
    const char *name;          /* registry key: "int", "Py_buffer" */
    const char *class_name;    /* "int_converter", for messages */
    const ConverterClass *base;
    bool is_self;              /* self_converter or a subclass */
    bool is_defining_class;    /* defining_class_converter or a subclass */

    /* Class attributes: defaults for new instances. */
    PyValue default_value;     /* `default`: unspecified but in classes
                                  python blocks make */
    const char *type;
    const char *c_default;
    const char *py_default;
    const char *c_ignored_default;
    const char *c_init_default;   /* 3.14 */
    const char *converter;
    const char *format_unit;
    const char *encoding;
    const char *subclass_of;
    const char *signature_name;
    unsigned default_type;
    bool impl_by_reference;
    bool parse_by_reference;
    bool length;
    bool show_in_signature;
    bool broken_limited_capi;  /* its code needs more than the Limited C API */
    /* Which of the above a Python block set, for inheritance. */
    unsigned attrs_set;
    /* The interpreter's class, for a class a python block made (its
       methods may be Python code); NULL for the built-in classes.
       invalid: why its class attributes cannot be used, if they cannot
       (reported when the class is used, as clinic.py would fail then). */
    PyObj *pyclass;
    const char *invalid;
};

/* CRenderData: the pieces render_function collects. */
struct RenderData {
    StrList declarations;
    StrList initializers;
    StrList modifications;
    StrList keywords;
    StrList format_units;
    StrList parse_arguments;
    StrList impl_parameters;
    StrList impl_arguments;
    StrList return_conversion;
    StrList cleanup;
    StrList post_parsing;
    StrList lock;              /* 3.13's critical sections */
    StrList unlock;
    const char *return_value;  /* "return_value" */
};

struct ReturnConverter {
    const ReturnConverterClass *cls;
    const char *type;          /* "PyObject *", "int", ... */
    const char *py_default;
    const char *unsigned_cast; /* "(unsigned long)", ... */
    const char *cast;
    const char *conversion_fn;
    PyObj *object, *attrs;     /* as Converter's */
};

struct ReturnConverterClass {
    const char *name;          /* "int", "NoneType", "init" */
    const char *class_name;    /* "int_return_converter" */
    const ReturnConverterClass *base;
    const char *type;
    const char *cast;
    const char *conversion_fn;
    const char *unsigned_cast;
    unsigned attrs_set;
    PyObj *pyclass;            /* as ConverterClass's */
};

/* A special method clinic does not convert ("__getitem__", "__len__":
   the type's slot wrapper is the method); special_methods.c. */
bool model_unsupported_special_method(const char *name);

#endif
