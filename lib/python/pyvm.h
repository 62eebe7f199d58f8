/*
 * pyvm.h — a small Python interpreter, for the code of "python" blocks.
 *
 * clinic.py exec()s a python block; the blocks CPython and extensions
 * write define converter classes with methods, helper functions and
 * loops that print.  This interpreter runs that language: statements are
 * parsed here (pyvm_parse.c) on top of pyexpr's expression grammar and
 * AST, values are pyexpr's PyValue with interpreter objects (lists,
 * dicts, sets, classes, instances, functions, ...) as PY_OBJECT, and
 * evaluation follows Python 3.11's semantics for what it supports.  What
 * it does not support (imports, with, try, generators, async) is refused
 * when the block is parsed, before anything runs.
 *
 * It knows nothing of clinic: a host (converters_py.c) fills the globals
 * with its names, writes native functions, and defines classes whose
 * instances carry a host pointer (PyHostOps), so that attributes of a
 * converter object read and write the C struct behind it.
 *
 * Errors are Python exceptions, raised with pyvm_raise() by longjmp to the
 * nearest protected call (as Lua's luaD_throw does); pyvm_run() and
 * pyvm_pcall() are protected and report the exception in pyvm_error().
 * Everything lives in the arena given to pyvm_new().
 */
#ifndef CLINIC_PYVM_H
#define CLINIC_PYVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "python/pyexpr.h"

typedef struct PyVM PyVM;
typedef struct PyProgram PyProgram;

/* ---- parsing ----------------------------------------------------------- */

/* Why a block cannot run: Python's SyntaxError or IndentationError
   (kind), or a construct the interpreter does not support (kind
   NULL; msg names it: "an import", "a 'try' statement", ...). */
typedef struct PyParseError {
    const char *kind;
    const char *msg;
    int line;            /* the file line */
} PyParseError;

/* Parses a module; first_line is the file line of src's first line. */
PyProgram *pyvm_parse(Arena *a, const char *src, int first_line,
                      PyParseError *err);

/* ---- running ----------------------------------------------------------- */

PyVM *pyvm_new(Arena *a);

/* The module globals (a dict) functions defined by the program see,
   and the builtins under them.  A host puts its names in the globals. */
PyObj *pyvm_globals(PyVM *vm);

/* exec(program, globals, locals): locals is a dict for the top level's
   names (NULL: the globals).  Returns false when an exception escaped;
   pyvm_error() describes it. */
bool pyvm_run(PyVM *vm, const PyProgram *prog, PyObj *locals);
/* The same with globals of its own (NULL: the module globals): what the
   functions the program defines see, and globals() returns. */
bool pyvm_exec(PyVM *vm, const PyProgram *prog, PyObj *globals,
               PyObj *locals);
/* A copy of the globals for one program to run in (pyvm_exec), as
   exec(program, dict(names)) has it: the host's names and values (those
   not yet made, pyvm_lazy_value, made on first use), no __name__ (the
   classes it defines stay of module "__main__", where Python's would
   be of "builtins"), and "__builtins__", as exec() adds it. */
PyObj *pyvm_globals_copy(PyVM *vm);

/* eval(e, globals, locals) of an expression pyexpr parsed: globals NULL
   is the interpreter's own, locals NULL the globals.  Its lambdas need
   their scopes first (pyvm_prepare_expr, once per tree).  Returns false
   when an exception escaped; pyvm_error() describes it. */
void pyvm_prepare_expr(Arena *a, const PyExpr *e);
bool pyvm_eval(PyVM *vm, const PyExpr *e, PyObj *globals, PyObj *locals,
               PyValue *out);

/* What print() wrote since the last call (NUL-terminated, arena). */
const char *pyvm_take_output(PyVM *vm, size_t *len);

/* The exception that ended the last failed protected call. */
typedef struct PyError {
    const char *type;     /* "NameError", or a class's qualified name */
    const char *message;  /* str(exception): "" when it has none */
    const char *text;     /* the traceback's last line: "NameError: name
                             'x' is not defined", "StopIteration" */
    int line;             /* file line of the statement that raised; 0
                             when it was raised calling into Python from
                             the host, before any statement ran */
    PyValue value;        /* the exception object */
} PyError;
const PyError *pyvm_error(const PyVM *vm);
/* repr() of that error's exception: "NameError(\"name 'x' is not
   defined\")". */
const char *pyvm_error_repr(PyVM *vm);
/* The name Python 3.11's interpreter adds to that error's traceback line
   as ". Did you mean: 'NAME'?" (a NameError of a lookup), or NULL.
   Computed when asked: only a report of the error needs it. */
const char *pyvm_error_suggestion(PyVM *vm);

/* The file line of the statement running now; 0 when nothing runs (for
   a host reporting what stopped it from outside: memory running out). */
int pyvm_line_running(const PyVM *vm);

/* Stops a runaway program: more steps (statements, calls, loop rounds)
   than this raise RuntimeError.  Default 2,000,000. */
void pyvm_set_step_limit(PyVM *vm, long steps);
/* And one that makes natives work hard (big ints, strings, sorting,
   iterating): the interpreter's life (a file's) may do this much work,
   in units of roughly a nanosecond (see vm_work in pyvm_int.h), then
   RuntimeError.  Default 2,000,000,000 (a few seconds). */
void pyvm_set_work_limit(PyVM *vm, uint64_t units);
/* And one that fills memory: an interpreter that would grow the arena by
   more than this (over its life: a file's blocks together) raises
   MemoryError.  Default 512 MiB.  All interpreters of the process also
   share one pool (see vm_reserve in pyvm_call.c). */
void pyvm_set_memory_limit(PyVM *vm, size_t bytes);

/* ---- values and objects, for hosts ------------------------------------- */

/* The order a Python set iterates the keys added to it in this order
   (setobject.c's table, the one the interpreter's sets are), for keys
   that are numbers (small ints, classes by their PYT_ bit) with the
   hashes Python gives them.  out gets the indices of the members' first
   occurrences, in table order; with frozen, in the order frozenset() of
   that set lays them out anew.  Returns the number of members. */
size_t pyset_order(Arena *a, const int64_t *keys, const int64_t *hashes,
                   size_t n, bool frozen, size_t *out);


/* The host's own state, for callbacks that get only the interpreter. */
/* x | y of classes and None: a types.UnionType, as type.__or__ makes. */
PyValue pyvm_union(PyVM *vm, PyValue x, PyValue y);

/* Annotations kept as their text, as under "from __future__ import
   annotations" (libclinic compiles blocks so); else evaluated. */
void pyvm_set_annotations_as_strings(PyVM *vm, bool as_strings);
void pyvm_set_host(PyVM *vm, void *host);
void *pyvm_host(const PyVM *vm);

PyValue pyvm_str(PyVM *vm, const char *s);      /* a copy of s */
PyValue pyvm_int(PyVM *vm, long long i);
PyValue pyvm_bool(bool b);
PyValue pyvm_obj(PyObj *o);                     /* PY_OBJECT */
PyValue pyvm_tuple(PyVM *vm, const PyValue *items, size_t n);
/* property(fget), and the getter of a property (false: not one). */
PyValue pyvm_property(PyVM *vm, PyValue fget);
bool pyvm_property_fget(PyVM *vm, PyValue v, PyValue *fget);

PyObj *pyvm_dict_new(PyVM *vm);
void pyvm_dict_set(PyVM *vm, PyObj *dict, const char *key, PyValue v);
/* pyvm_dict_set for a key that outlives the dict (a string literal, a
   name in a static table): kept as it is, not copied. */
void pyvm_dict_set_static(PyVM *vm, PyObj *dict, const char *key, PyValue v);
bool pyvm_dict_get(PyVM *vm, PyObj *dict, const char *key, PyValue *out);
PyObj *pyvm_dict_copy(PyVM *vm, PyObj *dict);
/* The i-th live entry of a dict (false past the end). */
bool pyvm_dict_entry(PyObj *dict, size_t i, PyValue *key, PyValue *value);

PyObj *pyvm_list_new(PyVM *vm);
/* set(words) for a NULL-terminated list of str, as set() makes it from
   a list of them (without a call into the interpreter). */
PyValue pyvm_str_set(PyVM *vm, const char *const *words);
/* A value of a dict made only when the dict is first read there: the
   entry (key, a static name) is in its place now, as pyvm_dict_set_static
   would put it, and make(vm, which) is called for its value when a
   lookup finds it or pyvm_dict_entry reaches it.  For a namespace most
   of whose values (classes) no block uses.  The dict must stay out of
   Python's hands (no Python code may hold it as an object: its values
   are read through these C paths only), one make per dict, and make
   must not change the dict. */
typedef PyValue (*PyLazyFn)(PyVM *vm, size_t which);
/* The placeholder of a value made on first use, to put in a dict with
   pyvm_dict_fill_static. */
PyValue pyvm_lazy_value(PyVM *vm, PyObj *dict, PyLazyFn make, size_t which);

/* Filling a dict with static names in a fixed order, as
   pyvm_dict_set_static one by one after pyvm_dict_reserve would: the
   hashes and the index, the same every time, are kept in *layout (the
   caller's, per thread) once made, and copied instead of hashing and
   probing every name again.  The dict must hold the same entries every
   time it is filled (it is checked by their number). */
#define PYVM_LAYOUT_MAX 256
#define PYVM_LAYOUT_INDEX 512
typedef struct PyDictLayout {
    bool made;
    size_t len, cap, index_size;
    int64_t hashes[PYVM_LAYOUT_MAX];
    int32_t index[PYVM_LAYOUT_INDEX];
} PyDictLayout;
void pyvm_dict_fill_static(PyVM *vm, PyObj *dict, PyDictLayout *layout,
                           const char *const *names, const PyValue *values,
                           size_t n);
void pyvm_list_append(PyVM *vm, PyObj *list, PyValue v);
void pyvm_list_clear(PyObj *list);
size_t pyvm_list_len(const PyObj *list);
PyValue pyvm_list_item(const PyObj *list, size_t i);
/* v's list, or NULL when v is not a list. */
PyObj *pyvm_as_list(PyValue v);
PyObj *pyvm_as_dict(PyValue v);

/* str(v) and repr(v) as Python prints them; they may run __str__ and
   __repr__ methods, so they may raise. */
const char *pyvm_to_str(PyVM *vm, PyValue v);
const char *pyvm_repr(PyVM *vm, PyValue v);
bool pyvm_truthy(PyVM *vm, PyValue v);
const char *pyvm_type_name(PyVM *vm, PyValue v);

/* clinic's values in and out: clinic's PY_TYPE and PY_SET (classes it
   knows by a bit) become the interpreter's classes and sets, and back. */
PyValue pyvm_import(PyVM *vm, PyValue v);
PyValue pyvm_export(PyVM *vm, PyValue v);

/* An object of the host's the interpreter does not model: an instance
   of a class named type_name whose attributes are stand-ins too;
   exported, clinic's uncomputed value (PyValue.uncomputed) that
   stand_in names. */
PyValue pyvm_stand_in(PyVM *vm, const char *type_name, const char *stand_in);
/* pyvm_export all the way down, protected: a list, set or dict becomes
   clinic's opaque value of its type with its repr and its items, a
   stand-in clinic's uncomputed value.  False when an exception escaped
   (a __repr__ of a python block's raised). */
bool pyvm_export_value(PyVM *vm, PyValue v, PyValue *out);
/* The builtins under the globals. */
PyObj *pyvm_builtins(PyVM *vm);

/* ---- native functions and host classes --------------------------------- */

/* The arguments of a call: positional, then keyword names and values. */
typedef struct PyArgs {
    const PyValue *args;
    size_t nargs;
    const char *const *kwnames;
    const PyValue *kwvalues;
    size_t nkw;
} PyArgs;

typedef PyValue (*PyNativeFn)(PyVM *vm, const PyArgs *a, void *data);

/* A function written in C.  A method (is_method) binds self as its first
   argument when found on a class through an instance, as Python's
   methods do; otherwise it is a plain function (print, fail, ...). */
PyValue pyvm_native(PyVM *vm, const char *name, PyNativeFn fn, void *data,
                    bool is_method);
/* The native behind v (and its data), or NULL when v is not one. */
PyNativeFn pyvm_native_fn(PyValue v, void **data);

/* unspecified and unknown become the two members of an enum.Enum
   Sentinels of the given module, as libclinic has them from 3.13 on:
   repr <Unspecified>, str Sentinels.unspecified, .name and .value,
   Sentinels.unknown, Sentinels('unknown').  Before, they are of classes
   Unspecified and Unknown of their own. */
void pyvm_sentinels_enum(PyVM *vm, const char *module);

/* What pyvm_bind leaves for an optional argument not given: a
   PY_UNSPECIFIED apart from clinic's `unspecified` (its b set), so that
   a call given `unspecified` (getattr(x, 'n', unspecified)) has it. */
extern const PyValue pyvm_absent;
static inline bool pyvm_given(PyValue v)
{
    return !(v.kind == PY_UNSPECIFIED && v.b);
}

/* Binds a native's arguments as a def with this signature would, raising
   TypeError as Python does.  spec lists the parameter names: "name"
   required, "name=" optional (left as pyvm_absent when not given),
   "*" starts the keyword-only ones, "**" at the end collects unknown
   keywords into *kwargs (a dict; NULL to refuse them).  Example:
   "self in_parser= * by_reference=".  out gets one value per name. */
void pyvm_bind(PyVM *vm, const PyArgs *a, const char *fname,
               const char *spec, PyValue *out, PyObj **kwargs);

/* A class whose instances carry a host pointer.  getattr/setattr run
   before the instance dict (return false to fall through to the normal
   lookup); class_created is a metaclass __init__, called for every class
   created with this class among its bases (class statement or type()).
   Subclasses inherit their nearest base's ops. */
typedef struct PyHostOps {
    bool (*getattr)(PyVM *vm, PyObj *self, const char *name, PyValue *out);
    bool (*setattr)(PyVM *vm, PyObj *self, const char *name, PyValue v);
    void (*class_created)(PyVM *vm, PyObj *cls);
} PyHostOps;

/* A new class (dict: its attributes, may be NULL; module as __module__
   shows it, "builtins" hides it in reprs).  host/data: see above;
   pyvm_class_data() finds data on the class or its nearest base. */
PyObj *pyvm_class_new(PyVM *vm, const char *name, const char *module,
                      PyObj *const *bases, size_t nbases, PyObj *dict,
                      const PyHostOps *host, void *data);
void *pyvm_class_data(const PyObj *cls);
void pyvm_class_set_data(PyObj *cls, void *data);
const char *pyvm_class_name(const PyObj *cls);
/* Looks name up along the class's MRO (no binding); the class that
   defines it in *owner when owner is not NULL. */
bool pyvm_class_lookup(const PyObj *cls, const char *name, PyValue *out,
                       PyObj **owner);
/* The class of v, and whether cls derives from base. */
PyObj *pyvm_class_of(PyVM *vm, PyValue v);
bool pyvm_is_subclass(const PyObj *cls, const PyObj *base);
/* Built-in classes by name ("object", "str", "Exception", ...). */
PyObj *pyvm_builtin_class(PyVM *vm, const char *name);
/* The name and module a class prints with (static strings): the
   host's own classes among the built-in ones (Null) as the host's
   Python defines them.  pyvm_builtin_class still finds it by its first
   name. */
void pyvm_class_rename(PyObj *cls, const char *name, const char *module);

/* An instance of a host class carrying host; dict holds its attributes
   beyond the host's (NULL: a new one). */
PyObj *pyvm_instance_new(PyVM *vm, PyObj *cls, void *host, PyObj *dict);
void *pyvm_instance_host(PyValue v);
/* v's host pointer when it is of the kind ops stands for (v's class
   has these ops): NULL for anything else, such as an object whose class
   derives from two host classes and whose host is the other one's.  A
   python block cannot make instances of a host class (TypeError). */
void *pyvm_instance_host_of(PyValue v, const PyHostOps *ops);
/* Sets o's host pointer and returns the one it had.  NULL: the host's
   object is gone, and reading or writing a host attribute of o raises
   RuntimeError (a python block may keep o longer than the host keeps
   what it stands for). */
void *pyvm_instance_set_host(PyObj *o, void *host);
bool pyvm_instance_gone(PyValue v);
PyObj *pyvm_instance_dict(PyValue v);

/* ---- calling, attributes, raising -------------------------------------- */

/* Calls fn; raises on error (use inside natives and protected calls). */
PyValue pyvm_call(PyVM *vm, PyValue fn, const PyArgs *a);
/* Calls fn with self prepended to the arguments (a method found with
   pyvm_class_lookup), protected. */
bool pyvm_pcall_method(PyVM *vm, PyValue fn, PyValue self, const PyArgs *a,
                       PyValue *result);

PyValue pyvm_getattr(PyVM *vm, PyValue obj, const char *name);

/* Py_EnterRecursiveCall and Py_LeaveRecursiveCall, for a host function
   that recurses into the values it is given: RecursionError ("maximum
   recursion depth exceeded" and where) past the interpreter's limit. */
void pyvm_enter(PyVM *vm, const char *where);
void pyvm_leave(PyVM *vm);

/* Raises exception type (a built-in exception's name) with a message. */
_Noreturn void pyvm_raise(PyVM *vm, const char *type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
