/*
 * converters_py_int.h — converters as Python classes, shared by the three
 * files that make them (private to them):
 *
 *   converters_py.c        the object model: the file's interpreter state,
 *                          converters, functions, parameters, classes and
 *                          CRenderData as host objects, the converter
 *                          classes (built-in ones and a block's)
 *   converters_dispatch.c  the methods: the natives Python calls, and the
 *                          one dispatch every call from C goes through
 *   converters_pyns.c      clinic.py's module namespace: fail, warn, the
 *                          text helpers, add_c_converter, constants
 */
#ifndef CLINIC_CONVERTERS_PY_INT_H
#define CLINIC_CONVERTERS_PY_INT_H

#include <stdint.h>

#include "model/converters_int.h"
#include "python/pyvm.h"

/* A method of a built-in converter class: its native, and which of the
   built-in classes define it themselves (a bit per ConverterKind or
   ReturnKind), as clinic.py's class bodies do. */
typedef struct MethodDef {
    const char *name;
    PyNativeFn native;
    uint64_t kinds;
    bool property;             /* a property, not a method */
    int arg;                   /* what the native needs told (a snippet) */
} MethodDef;

/* A function of clinic.py's module namespace. */
typedef struct NamespaceDef {
    const char *name;
    PyNativeFn native;
    const char *data;
} NamespaceDef;

/* What one version of clinic.py gives python blocks, as data: the
   methods its converter classes define, its module's functions and
   constants, and the module its classes print in.  The interpreter,
   the object model and the dispatch are the same for every version; a
   dialect picks its flavour by version (cpy_flavour_of). */
typedef struct PyFlavour {
    const char *version;       /* the Dialect's name: "3.11" */
    const MethodDef *converter_methods;   /* each ends with a NULL name */
    const MethodDef *return_methods;
    const NamespaceDef *functions;
    size_t nfunctions;
    const char *const (*strings)[2];   /* name, value */
    size_t nstrings;
    const char *module;        /* where clinic.py's classes live */
    const char *root_module;   /* where CConverter lives */
    const char *return_module; /* where the return converters live */
    /* A block runs in clinic.py's module globals (3.11: its helpers and
       constants are there), or in libclinic's small parser namespace
       (3.13: the converter classes, buffer, unspecified, NoneType). */
    bool module_globals;
    /* parse_arg(self, argname, displayname, *, limited_capi) (3.13) */
    bool parse_arg_limited_capi;
    /* self.function inside converter_init is a LandMine that fails when
       used (3.11), or fails at once (3.13). */
    bool landmine;
    /* CConverter has unused and broken_limited_capi (3.13) */
    bool libclinic_attrs;
    /* CConverter has c_init_default and c_default_init (3.14) */
    bool c_init_default_attr;
    /* self_converter and defining_class_converter declare
       specified_type = None in the class (3.14) */
    bool specified_type_attr;
    /* the unsigned converters' converter_init keeps bitwise in the
       instance (3.15; before, only BaseUnsignedIntConverter's class
       attribute, False) */
    bool bitwise_instance_attr;
    /* Where eval(default) runs (3.13 on: DSLParser.parse_parameter, in
       libclinic.dsl_parser): that module's globals and the method's
       locals, NULL-terminated (NULL: 3.11's, clinic.py's module and
       state_parameter's locals). */
    const char *const *default_globals;
    const char *const *default_locals;
    /* blocks are compiled as libclinic's parser.py is, "from __future__
       import annotations": their annotations are kept as text (3.13) */
    bool future_annotations;
    /* The annotations libclinic's classes declare, as their
       __annotations__ show them (NULL: none, 3.11) */
    const struct ClassAnnotation *class_annotations;
} PyFlavour;

/* One name a class annotates: its text (libclinic's modules compile
   with "from __future__ import annotations"), or in the few modules
   without it the value: object, or str | None. */
typedef enum { ANN_TEXT, ANN_OBJECT, ANN_OPTIONAL_STR } AnnotationKind;
typedef struct ClassAnnotation {
    const char *class_name, *name, *text;
    AnnotationKind kind;
} ClassAnnotation;

/* Puts the flavour's annotations of class_name, if any, in its dict as
   __annotations__. */
void cpy_add_class_annotations(ConverterPython *py, PyObj *dict,
                               const char *class_name);

/* clinic.py 3.11's and 3.13's (converters_pyns.c), from the tables of
   converters_dispatch.c and converters_pyns.c */
extern const PyFlavour cpy_flavour_3_11;
extern const PyFlavour cpy_flavour_3_13;
extern const PyFlavour cpy_flavour_3_14;
extern const PyFlavour cpy_flavour_3_15;
extern const MethodDef cpy_converter_methods_3_11[];
extern const MethodDef cpy_converter_methods_3_13[];
extern const MethodDef cpy_converter_methods_3_14[];
extern const MethodDef cpy_return_methods_3_11[];
/* The flavour of the dialect (3.11's for one without its own). */
const PyFlavour *cpy_flavour_of(const Dialect *d);

/* A pointer to its host object (functions, parameters, ...). */
typedef struct HostEntry {
    const void *ptr;
    PyObj *obj;
} HostEntry;

struct ConverterPython {
    Clinic *c;
    PyVM *vm;
    const PyFlavour *flavour;
    PyObj **row_class;          /* converter_rows' classes, made on use */
    PyObj **return_row_class;   /* return_rows' classes */
    PyObj *cls_function, *cls_parameter, *cls_class, *cls_module;
    PyObj *cls_renderdata, *cls_landmine;
    PyObj *cls_include;         /* libclinic.codegen.Include, made on use */
    PyObj *landmine;
    HostEntry *hosts;           /* open addressing, a power of two */
    size_t nhosts, caphosts;
    size_t nhosts_kept;   /* after the last forget_scratch_hosts(): none
                             added since when nhosts is still that */
    /* What eval() sees beyond the python blocks' globals, made when
       first needed: the rest of clinic.py's module (3.11's arguments),
       and that with DSLParser.state_parameter's locals (defaults) */
    PyObj *module_names, *state_parameter_names;
    PyObj *default_globals, *default_locals;   /* 3.13 on, made on use */
    PyObj *module_class;        /* the class of their modules */
    /* Making a return converter for an annotation: a ValueError escaping
       it is caught (value_error set), as clinic.py's DSL catches it. */
    bool catch_value_error, value_error;
};

/* converters_py.c: the state, made on first use */
ConverterPython *cpy_of(Clinic *c);
ConverterPython *cpy_of_vm(PyVM *vm);

/* values across the boundary */
PyValue cpy_str_or_none(ConverterPython *py, const char *s);
/* An exception escaping Python code C called: clinic.py's parse loop
   reports any exception as "Exception raised during parsing". */
CLINIC_NORETURN void cpy_python_error(ConverterPython *py);
/* The same for an exception clinic raises itself (text: "Type: message"). */
CLINIC_NORETURN void cpy_fail_exception(Clinic *c, const char *text);
/* A method's result where clinic.py uses it as a str; None is NULL when
   none_ok, "" where clinic.py only tests it. */
const char *cpy_result_str(ConverterPython *py, PyValue v, bool none_ok,
                           const char *method);
void cpy_kwargs_of(ConverterPython *py, const ConverterArg *args,
                   size_t nargs, const char ***names, PyValue **values);
ConverterArg *cpy_args_of_dict(ConverterPython *py, PyObj *dict, size_t *n);

/* CRenderData, lists and template dicts: Python objects refreshed from
   C (to_python), and C refreshed from them (from_python, unwrap_data),
   whenever control crosses. */
PyValue cpy_data_to_python(ConverterPython *py, RenderData *data);
/* cpy_data_to_python and its way back around a call of Python
   code: data is the generator's, on its stack while it renders one
   function, so its object is backed by it only during such calls (lent
   keeps what the object had, for nested calls); one a block keeps
   raises RuntimeError afterwards instead of writing to a dead frame. */
PyValue cpy_data_lend(ConverterPython *py, RenderData *data, void **lent);
void cpy_data_end(ConverterPython *py, PyValue w, RenderData *data,
                  void *lent);
RenderData *cpy_unwrap_data(ConverterPython *py, PyValue v);
void cpy_fill_list(ConverterPython *py, PyObj *list, const StrList *from);
void cpy_read_list(ConverterPython *py, PyValue v, StrList *to);
PyValue cpy_strlist_to_python(ConverterPython *py, const StrList *l);
PyValue cpy_strmap_to_python(ConverterPython *py, const StrMap *m);
void cpy_strmap_from_python(ConverterPython *py, PyValue v, StrMap *m);

/* host objects, one per C object */
PyValue cpy_converter_object(ConverterPython *py, const Converter *conv);
PyValue cpy_return_converter_object(ConverterPython *py,
                                    ReturnConverter *rc);
PyValue cpy_function_object(ConverterPython *py, const Function *f);
PyValue cpy_parameter_object(ConverterPython *py, const Parameter *p);
Converter *cpy_unwrap_converter(ConverterPython *py, PyValue self,
                                const char *method);
ReturnConverter *cpy_unwrap_return_converter(ConverterPython *py,
                                             PyValue self,
                                             const char *method);
/* The type of v, as a message that wants a `want` (clinic's class or a
   built-in one: "Parameter", "str") and got v names it: "an object of the
   python block's class Parameter" when the names are the same ("clinic
   needs a Parameter, not Parameter" would not tell), "a Parameter whose C
   object is gone" for one clinic took back (pyvm_instance_gone). */
const char *cpy_other_type(ConverterPython *py, PyValue v, const char *want);
Function *cpy_unwrap_function(ConverterPython *py, PyValue v);
Parameter *cpy_unwrap_parameter(ConverterPython *py, PyValue v);

/* the classes of the built-in converters, made on use */
PyObj *cpy_row_class(ConverterPython *py, const ConverterRow *row);
PyObj *cpy_return_row_class(ConverterPython *py, const ReturnRow *row);

/* converters_dispatch.c: the methods a built-in class defines */
void cpy_add_methods(ConverterPython *py, PyObj *dict, const ConverterRow *row,
                     const ConverterRow *base);
void cpy_add_return_methods(ConverterPython *py, PyObj *dict,
                            const ReturnRow *row, const ReturnRow *base);
bool cpy_given(PyValue v);     /* an optional native argument was given */
const char *cpy_need_str(ConverterPython *py, PyValue v, const char *what);

/* converters_pyns.c */
void cpy_install_namespace(ConverterPython *py);
/* clinic.py's (3.11's) str constants at module level, name and value */
#define CPY_CLINIC_NSTRINGS 10
extern const char *const cpy_clinic_strings[CPY_CLINIC_NSTRINGS][2];

/* converters_pynames.c: the rest of clinic.py's module namespace (its
   imports, classes, functions, the builtins, stand-ins for its objects)
   into dict, where neither it nor the interpreter's globals and builtins
   have such a name yet; that and state_parameter's locals in a new
   dict.  Both are eval()'s locals: looked up before the globals, which
   they do not shadow, but not seen by a comprehension or lambda inside
   the expression.  3.11's globals hold the module's names already
   (cpy_install_namespace), as clinic.py's do; 3.13's defaults see them
   as locals only (in clinic.py, dsl_parser's own globals). */
void cpy_install_module_names(ConverterPython *py, PyObj *dict);
/* clinic.py 3.11's module globals, by name in the module's order; and
   the value of one a python block's globals lack: *out, or (*lazy not
   SIZE_MAX) what cpy_make_module_name(lazy) makes when it is read;
   false for a name it does not know. */
const char *const *cpy_module_order(size_t *n);
bool cpy_module_name_value(ConverterPython *py, const char *name,
                           size_t *lazy, PyValue *out);
PyValue cpy_make_module_name(PyVM *vm, size_t lazy);
PyObj *cpy_state_parameter_locals(ConverterPython *py);
/* The flavour's default_globals and default_locals as dicts: what the
   python blocks' namespace has by that name (unspecified, NoneType,
   self_converter, ...), modules, NULL and unknown, stand-ins for the
   rest. */
PyObj *cpy_default_globals(ConverterPython *py);
PyObj *cpy_default_locals(ConverterPython *py);
/* Whether a namespace eval() sees may have name: false only where it
   has not (a named constant of C's: NameError), so that clinic can tell
   without making the file's interpreter. */
bool cpy_namespace_may_have(const Clinic *c, bool state_parameter,
                            const char *name);

#endif
