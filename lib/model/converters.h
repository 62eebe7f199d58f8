/*
 * converters.h — the converter table and everything converters do.
 *
 * One table row per converter, legacy format unit and return converter
 * (CPython 3.11's clinic.py set).  The DSL parser creates instances with
 * converter_create(); the generator renders them.  Python blocks add
 * classes with converter_register_class().  `clinic --converters` prints
 * from the same table (converters_print).
 */
#ifndef CLINIC_CONVERTERS_H
#define CLINIC_CONVERTERS_H

#include "model/model.h"
#include "python/pyexpr.h"
#include "base/strbuf.h"

/* The interpreter of python blocks (python/pyvm.h), which only the files
   that run Python include. */
typedef struct PyVM PyVM;

/* Registry of the file being processed: built-ins (as the dialect has
   them) plus Python-block declarations.  Created by clinic_new(). */
ConverterRegistry *converters_new(Arena *a, const Dialect *d);

const ConverterClass *converter_class_find(const Clinic *c, const char *name);
const ConverterClass *legacy_converter_find(const Clinic *c,
                                            const char *format_unit);
const ReturnConverterClass *return_converter_class_find(const Clinic *c,
                                                        const char *name);
/* "did you mean 'NAME'?" for a misspelt converter, or NULL. */
const char *converter_suggestion(Clinic *c, bool returns, const char *name);
/* Register a class a Python block declared (also registers the legacy
   format unit, as clinic.py's metaclass does). */
void converter_register_class(Clinic *c, ConverterClass *cls);
void return_converter_register_class(Clinic *c, ReturnConverterClass *cls);
/* clinic.py's add_c_converter(f, name), add_c_return_converter and
   add_legacy_c_converter(format_unit, **kwargs): a name (format unit)
   for an existing class. */
void converter_register_name(Clinic *c, const char *name,
                             const ConverterClass *cls);
void return_converter_register_name(Clinic *c, const char *name,
                                    const ReturnConverterClass *cls);
void converter_register_legacy(Clinic *c, const char *format_unit,
                               const ConverterClass *cls,
                               const ConverterArg *kwargs, size_t nkwargs);
bool converter_has_legacy(const Clinic *c, const char *format_unit);
/* The classes the file's Python blocks declared, in declaration order
   (for the query modes): returns how many, *classes points at them. */
size_t converters_declared(const Clinic *c,
                           const ConverterClass *const **classes);
size_t return_converters_declared(const Clinic *c,
                                  const ReturnConverterClass *const **classes);

/* clinic.py's CConverter.__init__: checks the default against
   default_type, applies c_default/py_default/annotation, then the class's
   converter_init with the remaining keyword arguments (unknown keywords
   and illegal combinations fail as the reference does).  legacy_unit is
   the format unit when created from a legacy 'x' annotation (the
   functools.partial keyword arguments are applied), else NULL. */
Converter *converter_create(Clinic *c, const ConverterClass *cls,
                            const char *name, const char *py_name,
                            Function *function, PyValue default_value,
                            const ConverterArg *args, size_t nargs);
Converter *legacy_converter_create(Clinic *c, const char *format_unit,
                                   const char *name, const char *py_name,
                                   Function *function, PyValue default_value,
                                   const ConverterArg *args, size_t nargs);
/* Shallow copy (clinic.py's copy.copy), for cloning and render copies. */
Converter *converter_copy(Clinic *c, const Converter *conv);

ReturnConverter *return_converter_create(Clinic *c,
                                         const ReturnConverterClass *cls,
                                         const ConverterArg *args,
                                         size_t nargs);
/* The same for a function's return annotation: NULL when a ValueError
   escaped the class's __init__, which clinic.py reports as a badly
   formed annotation. */
ReturnConverter *return_converter_for_annotation(Clinic *c,
                                        const ReturnConverterClass *cls,
                                        const ConverterArg *args,
                                        size_t nargs);

/* The methods of CConverter the generator and the DSL call.  Each goes
   through one dispatch (converters_py.c): when a python block's class
   overrides the method, its Python code runs in the interpreter; else
   the built-in behaviour of the class that defines it does, in C.
   converter_is_optional is Parameter.is_optional (no dispatch). */
bool converter_is_optional(const Converter *conv);
/* repr() of the default as the signature shows it (py_default unset): a
   python block's object by its own repr, which may run its __repr__. */
const char *converter_default_repr(Clinic *c, const Converter *conv);
const char *converter_parser_name(Clinic *c, const Converter *conv);
const char *converter_length_name(Clinic *c, const Converter *conv);
void converter_pre_render(Clinic *c, Converter *conv);
/* Function.render_parameters: copies of f's parameters whose converters
   have had pre_render() (the self converter learns its type there), made
   at the first call and kept with f for the docstring and the code. */
Parameter **function_render_parameters(Clinic *c, Function *f);
void converter_render(Clinic *c, Converter *conv, Parameter *p,
                      RenderData *data);
void converter_parse_argument(Clinic *c, Converter *conv, StrList *list);
/* parse_arg(argname, displayname, limited_capi): the specialised parsing
   snippet, still to be .format()ed by the generator; NULL when the
   converter has none (the generator then falls back to a format string).
   displayname is as the dialect has it (gen_param_displayname).  The
   text is the snippet's code, without the indentation the reference's
   own string has around it (which normalize_snippet removes anyway); a
   Python super().parse_arg() gets that string as it is. */
const char *converter_parse_arg(Clinic *c, Converter *conv,
                                const char *argname, const char *displayname,
                                bool limited_capi);
/* parse_arg's snippet as the generator uses it: normalised at indent
   (text_normalize_snippet), or NULL when there is none.  Built-in
   converters write it so directly. */
const char *converter_parse_arg_code(Clinic *c, Converter *conv,
                                     const char *argname,
                                     const char *displayname,
                                     bool limited_capi, int indent);
/* The counts 3.14's parse_vararg() takes: the parameters before *args
   (positional-only ones, required ones, all), and how the function is
   called. */
typedef struct VarargCounts {
    int pos_only, min_pos, max_pos;
    bool fastcall, limited_capi;
} VarargCounts;
/* parse_vararg(): the code that fills *args's variables after the other
   parameters are parsed (a str.format template, not normalised).  Fails
   for a converter that is not a var-positional one. */
const char *converter_parse_vararg(Clinic *c, Converter *conv,
                                   const VarargCounts *counts);
/* 3.15's parse_var_keyword(): the code that fills **kwds's variable (a
   str.format template, not normalised).  Fails for a converter that is
   not a var-keyword one. */
const char *converter_parse_var_keyword(Clinic *c, Converter *conv);
/* use_converter(): the converter function is used (through 'O&'). */
void converter_use_converter(Clinic *c, Converter *conv);
const char *converter_simple_declaration(Clinic *c, const Converter *conv,
                                         bool by_reference, bool in_parser);
const char *converter_declaration(Clinic *c, const Converter *conv);
void converter_set_template_dict(Clinic *c, Converter *conv,
                                 StrMap *template_dict);
/* set_template_dict() of a converter whose class does not override it in
   Python: what it sets goes into *set (which may start empty), and true.
   False, with nothing done, when a Python method overrides it: that one
   needs the whole template_dict (converter_set_template_dict). */
bool converter_set_template_dict_builtin(Clinic *c, Converter *conv,
                                         StrMap *set);
/* clinic.py's correct_name_for_self(f): the default C type and
   signature name of f's self parameter ("PyObject *"/"module", ...). */
void correct_name_for_self(const Function *f, const char **type,
                           const char **name);
/* self_converter's parser_type. */
const char *self_converter_parser_type(Clinic *c, const Converter *conv);

void return_converter_render(Clinic *c, ReturnConverter *rc, Function *f,
                             RenderData *data);

/* CConverter.add_include(name, reason): an #include the converter's
   code needs, kept on the converter until the generator copies it to the
   file's list (gen_includes.c).  include_list_add appends to any list. */
void converter_add_include(Clinic *c, Converter *conv, const char *filename,
                           const char *reason);
void include_list_add(Arena *a, IncludeList *l, const char *filename,
                      const char *reason, const char *condition);
/* CConverter.get_includes(): add_include's list, or what a python
   block's override returns (its items' filename, reason, condition). */
const IncludeList *converter_get_includes(Clinic *c, Converter *conv);

/* `clinic --converters`: the reference's listing, from the table, as the
   dialect lists it. */
void converters_print(StrBuf *out, const Dialect *d);

/* ---- appended by the converters module ------------------------------ */

/* ConverterClass.attrs_set bits: which class attributes a Python block
   set (the others are inherited from base). */
enum {
    CATTR_TYPE = 1u << 0,
    CATTR_C_DEFAULT = 1u << 1,
    CATTR_PY_DEFAULT = 1u << 2,
    CATTR_C_IGNORED_DEFAULT = 1u << 3,
    CATTR_CONVERTER = 1u << 4,
    CATTR_FORMAT_UNIT = 1u << 5,
    CATTR_ENCODING = 1u << 6,
    CATTR_SUBCLASS_OF = 1u << 7,
    CATTR_SIGNATURE_NAME = 1u << 8,
    CATTR_DEFAULT_TYPE = 1u << 9,
    CATTR_IMPL_BY_REFERENCE = 1u << 10,
    CATTR_PARSE_BY_REFERENCE = 1u << 11,
    CATTR_LENGTH = 1u << 12,
    CATTR_SHOW_IN_SIGNATURE = 1u << 13,
    CATTR_BROKEN_LIMITED_CAPI = 1u << 14,
    CATTR_DEFAULT = 1u << 15,
    CATTR_C_INIT_DEFAULT = 1u << 16,
};
/* ReturnConverterClass.attrs_set bits. */
enum {
    RATTR_TYPE = 1u << 0,
    RATTR_CAST = 1u << 1,
    RATTR_CONVERSION_FN = 1u << 2,
    RATTR_UNSIGNED_CAST = 1u << 3,
};

/* default_type bit for clinic.py's Null class: str_converter's
   default_type is (str, Null, NoneType).  Outside pyexpr's PYT_ range. */
#define PYT_NULL (1u << 24)
/* default_type () (3.14's self, defining_class, *args and **kwds): no
   default is allowed; Python sees an empty tuple.  0 is None (unset). */
#define PYT_NO_DEFAULT (1u << 25)

/* A class by its Python class name ("CConverter", "int_converter",
   "self_converter", "CReturnConverter", "long_return_converter", or one a
   Python block registered): the base of a class a Python block declares.
   NULL when unknown. */
const ConverterClass *converter_class_by_class_name(const Clinic *c,
                                                    const char *class_name);
const ReturnConverterClass *
return_converter_class_by_class_name(const Clinic *c, const char *class_name);

/* CReturnConverter.declare(data, name="_return_value"),
   err_occurred_if(expr, data) and err_occurred_if_null_pointer(variable,
   data), dispatched as the others. */
void return_converter_declare(Clinic *c, ReturnConverter *rc,
                              RenderData *data, const char *name);
void return_converter_err_occurred_if(Clinic *c, ReturnConverter *rc,
                                      const char *expr, RenderData *data);

/* ---- clinic.py's namespace, for python blocks (converters_py.c) ------- */

/* The file's interpreter, made on first use, with clinic.py's module
   namespace in its globals: every converter and return converter class
   by its Python name (subclassing one registers the subclass as
   clinic.py's metaclass does), unspecified, NULL, unknown, fail, warn
   and the text helpers clinic.py's converters use. */
PyVM *converters_python(Clinic *c);
/* Moves what the file's interpreter (if any) printed since the last
   python block's output was taken to c->printed. */
void converters_python_take_printed(Clinic *c);
/* The globals a python block runs in: NULL for clinic.py's module
   globals, where its top-level names go to a dict of their own (3.11:
   exec() inside a method), else a fresh copy of libclinic's parser
   namespace, where they go too and where the functions it defines look
   them up (3.13: exec(input, namespace)). */
PyObj *converters_python_block_globals(Clinic *c);
/* The dict a 3.11 block's top-level names go to: the locals of
   clinic.py's PythonParser.parse, which has self, block and s (stand-ins
   here) before the block runs. */
PyObj *converters_python_block_locals(Clinic *c);
/* Which namespace eval() sees: the one clinic.py evaluates converter
   arguments in (eval_ast_expr: clinic.py's module in 3.11, libclinic's
   parser namespace, the python blocks', from 3.13 on), or, for
   `eval(default)` inside DSLParser.state_parameter, clinic.py's module
   and that method's locals. */
typedef enum PyEvalScope { PY_SCOPE_GLOBALS, PY_SCOPE_STATE_PARAMETER } PyEvalScope;
/* eval() of a converter argument or a default as clinic.py evaluates
   it, by the file's interpreter.  Returns
   false and fills *exc (when not NULL) where Python raises. */
bool converters_eval(Clinic *c, const PyExpr *e, PyEvalScope scope,
                     PyValue *out, PyException *exc);
/* What the dialect's interpreter adds to the traceback line of the
   interpreter's last error (". Did you mean: 'NAME'?"), or "". */
const char *converters_python_suggestion(Clinic *c, PyVM *vm);
/* The line of the statement the file's python is running (a python
   block's, or a converter method's), 0 when none is. */
int converters_python_line(const Clinic *c);

#endif
