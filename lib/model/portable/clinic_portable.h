/*
 * clinic_portable.h -- what the argument parsers that clinic writes with
 * --target portable call: CPython 3.11's argument-parsing helpers, written
 * again with the documented public C API of CPython 3.9 and later only, and
 * with the Limited C API only when the module defines Py_LIMITED_API
 * (0x030A0000 or later).  Where the API differs between versions, the
 * choice is made here, at compile time, by PY_VERSION_HEX.
 *
 * The parsers accept the same arguments and raise the same exceptions,
 * with the same messages, as CPython 3.11's own (Python/getargs.c and the
 * code Argument Clinic 3.11 writes), on every version.
 *
 * Each helper is named after the one of 3.11 it stands for: ClinicArg_X
 * for 3.11's private PyArg_X (with its leading underscore), ClinicTuple_X
 * for the PyTuple_X macro, and so on.
 *
 * clinic writes this file beside the code that includes it and rewrites
 * it when it changes; edit the clinic that writes it, not the file.
 * Everything here is static: nothing to link, no dependency on clinic.
 */
#ifndef CLINIC_PORTABLE_H
#define CLINIC_PORTABLE_H

#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <wchar.h>

/* The CPython whose Argument Clinic dialect the code including this was
   written in (clinic defines it before the #include): the helpers raise
   that version's messages, whatever CPython runs them. */
#ifndef CLINIC_PORTABLE_DIALECT
#  define CLINIC_PORTABLE_DIALECT 0x030B0000
#endif

#if PY_VERSION_HEX < 0x03090000
#  error "clinic --target portable: the generated code needs CPython 3.9 or later"
#endif
#if defined(Py_LIMITED_API) && Py_LIMITED_API + 0 < 0x030A0000
#  error "clinic --target portable: with Py_LIMITED_API, 0x030A0000 (3.10) or later is needed (METH_FASTCALL)"
#endif

/* ---- critical sections ------------------------------------------------ */

/* @critical_section locks an object on the free-threaded build, through
   the public API of 3.13 and later; before 3.13 (and under the Limited
   API, which has none) a GIL serialises the calls: nothing to do.  The
   definitions are pythoncapi_compat.h's, token for token, so that a module
   may include both. */
#if PY_VERSION_HEX < 0x030D0000 || defined(Py_LIMITED_API)
#  ifndef Py_BEGIN_CRITICAL_SECTION
#    define Py_BEGIN_CRITICAL_SECTION(op) {
#    define Py_END_CRITICAL_SECTION() }
#    define Py_BEGIN_CRITICAL_SECTION2(a, b) {
#    define Py_END_CRITICAL_SECTION2() }
#  endif
#endif

/* ---- the object macros, or the functions of the Limited API ---------- */

#if defined(Py_LIMITED_API)
#  define ClinicTuple_GET_SIZE(op) PyTuple_Size(op)
#  define ClinicTuple_GET_ITEM(op, i) PyTuple_GetItem((op), (i))
#  define ClinicTuple_SET_ITEM(op, i, v) ((void)PyTuple_SetItem((op), (i), (v)))
#  define ClinicDict_GET_SIZE(op) PyDict_Size(op)
#  define ClinicBytes_GET_SIZE(op) PyBytes_Size(op)
#  define ClinicBytes_AS_STRING(op) PyBytes_AsString(op)
#  define ClinicByteArray_GET_SIZE(op) PyByteArray_Size(op)
#  define ClinicByteArray_AS_STRING(op) PyByteArray_AsString(op)
#  define ClinicFloat_AS_DOUBLE(op) PyFloat_AsDouble(op)
#else
#  define ClinicTuple_GET_SIZE(op) PyTuple_GET_SIZE(op)
#  define ClinicTuple_GET_ITEM(op, i) PyTuple_GET_ITEM((op), (i))
#  define ClinicTuple_SET_ITEM(op, i, v) PyTuple_SET_ITEM((op), (i), (v))
#  define ClinicDict_GET_SIZE(op) PyDict_GET_SIZE(op)
#  define ClinicBytes_GET_SIZE(op) PyBytes_GET_SIZE(op)
#  define ClinicBytes_AS_STRING(op) PyBytes_AS_STRING(op)
#  define ClinicByteArray_GET_SIZE(op) PyByteArray_GET_SIZE(op)
#  define ClinicByteArray_AS_STRING(op) PyByteArray_AS_STRING(op)
#  define ClinicFloat_AS_DOUBLE(op) PyFloat_AS_DOUBLE(op)
#endif

/* Before 3.12 a str may not be "ready" (made by the deprecated
   Py_UNICODE APIs): the functions make it so, the macros assume it. */
#if defined(Py_LIMITED_API) || PY_VERSION_HEX < 0x030C0000
#  define ClinicUnicode_GET_LENGTH(op) PyUnicode_GetLength(op)
#  define ClinicUnicode_READ_CHAR(op, i) PyUnicode_ReadChar((op), (i))
#else
#  define ClinicUnicode_GET_LENGTH(op) PyUnicode_GET_LENGTH(op)
#  define ClinicUnicode_READ_CHAR(op, i) PyUnicode_READ_CHAR((op), (i))
#endif
#if !defined(Py_LIMITED_API) && PY_VERSION_HEX < 0x030C0000
#  define ClinicUnicode_READY(op) (PyUnicode_GetLength(op) < 0 ? -1 : 0)
#else
#  define ClinicUnicode_READY(op) 0
#endif

#if PY_VERSION_HEX >= 0x030A0000
#  define Clinic_NewRef(op) Py_NewRef(op)
#else
/* any object pointer, as Py_NewRef() takes it */
static inline PyObject *
clinic_new_ref(PyObject *op)
{
    Py_INCREF(op);
    return op;
}
#  define Clinic_NewRef(op) clinic_new_ref((PyObject *)(op))
#endif

/* A METH_FASTCALL, METH_KEYWORDS or METH_METHOD function in a PyMethodDef
   (through void (*)(void), which compilers accept without a warning). */
#define ClinicCFunction_CAST(func) ((PyCFunction)(void (*)(void))(func))

/* The tp_new and tp_init slots of a type, compared by __new__ and
   __init__ to see whether a subclass overrides them. */
#if defined(Py_LIMITED_API)
#  define ClinicType_TP_NEW(tp) PyType_GetSlot((PyTypeObject *)(tp), Py_tp_new)
#  define ClinicType_TP_INIT(tp) PyType_GetSlot((PyTypeObject *)(tp), Py_tp_init)
#else
#  define ClinicType_TP_NEW(tp) (((PyTypeObject *)(tp))->tp_new)
#  define ClinicType_TP_INIT(tp) (((PyTypeObject *)(tp))->tp_init)
#endif

/* ---- type names in messages ------------------------------------------ */

/* tp_name as a str (a new reference).  The Limited API has no tp_name: a
   static type's is "module.name" ("name" for builtins), rebuilt from
   __module__ and __name__, which CPython derives from it; a heap type's
   is its __name__, as for classes made by a class statement. */
static inline PyObject *
clinic_type_name(PyTypeObject *tp)
{
#if defined(Py_LIMITED_API)
    PyObject *name = PyObject_GetAttrString((PyObject *)tp, "__name__");
    if (name == NULL || (PyType_GetFlags(tp) & Py_TPFLAGS_HEAPTYPE)) {
        return name;
    }
    PyObject *module = PyObject_GetAttrString((PyObject *)tp, "__module__");
    if (module == NULL) {
        Py_DECREF(name);
        return NULL;
    }
    PyObject *full;
    if (PyUnicode_Check(module) &&
        PyUnicode_CompareWithASCIIString(module, "builtins") != 0) {
        full = PyUnicode_FromFormat("%U.%U", module, name);
    }
    else {
        full = Clinic_NewRef(name);
    }
    Py_DECREF(module);
    Py_DECREF(name);
    return full;
#else
    return PyUnicode_FromString(tp->tp_name);
#endif
}

/* What CPython's messages call an argument's type: "None", or tp_name. */
static inline PyObject *
clinic_arg_type_name(PyObject *arg)
{
    if (arg == Py_None) {
        return PyUnicode_FromString("None");
    }
    return clinic_type_name(Py_TYPE(arg));
}

/* ClinicType_NAME(tp): the const char * tp_name, as 3.11's code reads
   ((tp)->tp_name).  In the Limited API the text lives until the next
   call (it is used for one error message, right away). */
#if defined(Py_LIMITED_API)
static inline const char *
ClinicType_NAME(PyTypeObject *tp)
{
    static PyObject *last;
    PyObject *name = clinic_type_name(tp);
    if (name == NULL) {
        PyErr_Clear();
        return "?";
    }
    Py_XDECREF(last);
    last = name;
    const char *s = PyUnicode_AsUTF8AndSize(name, NULL);
    if (s == NULL) {
        PyErr_Clear();
        return "?";
    }
    return s;
}
#else
#  define ClinicType_NAME(tp) (((PyTypeObject *)(tp))->tp_name)
#endif

/* ---- integers and floats with 3.10's rules on 3.9 -------------------- */

/* From 3.10 on, PyLong_AsLong() and its kin accept __index__ only; 3.9's
   also took __int__ (a float, with a DeprecationWarning).  3.11's parsers
   refuse those, with PyNumber_Index()'s TypeError, and so do these. */
#if PY_VERSION_HEX < 0x030A0000
#  define CLINIC_INDEX_FIRST(ctype, call, obj)      \
    do {                                            \
        if (!PyLong_Check(obj)) {                   \
            PyObject *clinic_i = PyNumber_Index(obj); \
            if (clinic_i == NULL) {                 \
                return (ctype)-1;                   \
            }                                       \
            ctype clinic_r = call(clinic_i);        \
            Py_DECREF(clinic_i);                    \
            return clinic_r;                        \
        }                                           \
        return call(obj);                           \
    } while (0)

static inline long
ClinicLong_AsLong(PyObject *obj)
{
    CLINIC_INDEX_FIRST(long, PyLong_AsLong, obj);
}

static inline long long
ClinicLong_AsLongLong(PyObject *obj)
{
    CLINIC_INDEX_FIRST(long long, PyLong_AsLongLong, obj);
}

static inline unsigned long
ClinicLong_AsUnsignedLongMask(PyObject *obj)
{
    CLINIC_INDEX_FIRST(unsigned long, PyLong_AsUnsignedLongMask, obj);
}

static inline unsigned long long
ClinicLong_AsUnsignedLongLongMask(PyObject *obj)
{
    CLINIC_INDEX_FIRST(unsigned long long, PyLong_AsUnsignedLongLongMask, obj);
}

/* 3.10 also lets PyFloat_AsDouble() and PyComplex_AsCComplex() take an
   object with __index__ but no __float__. */
static inline int
clinic_index_only(PyObject *obj)
{
    PyNumberMethods *nb = Py_TYPE(obj)->tp_as_number;
    return !PyFloat_Check(obj) && (nb == NULL || nb->nb_float == NULL) &&
           PyIndex_Check(obj);
}

static inline double
ClinicFloat_AsDouble(PyObject *obj)
{
    /* 3.9's complex has an nb_float that refuses; 3.10's has none */
    PyNumberMethods *nb = Py_TYPE(obj)->tp_as_number;
    if (PyComplex_Check(obj) && nb != NULL &&
        nb->nb_float == PyComplex_Type.tp_as_number->nb_float) {
        PyErr_Format(PyExc_TypeError, "must be real number, not %.50s",
                     Py_TYPE(obj)->tp_name);
        return -1.0;
    }
    if (clinic_index_only(obj)) {
        PyObject *i = PyNumber_Index(obj);
        if (i == NULL) {
            return -1.0;
        }
        double d = PyLong_AsDouble(i);
        Py_DECREF(i);
        return d;
    }
    return PyFloat_AsDouble(obj);
}

static inline Py_complex
ClinicComplex_AsCComplex(PyObject *obj)
{
    Py_complex c = PyComplex_AsCComplex(obj);
    if (c.real == -1.0 && PyErr_Occurred() &&
        PyErr_ExceptionMatches(PyExc_TypeError) && clinic_index_only(obj)) {
        PyErr_Clear();
        c.real = ClinicFloat_AsDouble(obj);
        c.imag = 0.0;
    }
    return c;
}
#else
#  define ClinicLong_AsLong(obj) PyLong_AsLong(obj)
#  define ClinicLong_AsLongLong(obj) PyLong_AsLongLong(obj)
#  define ClinicLong_AsUnsignedLongMask(obj) PyLong_AsUnsignedLongMask(obj)
#  define ClinicLong_AsUnsignedLongLongMask(obj) PyLong_AsUnsignedLongLongMask(obj)
#  define ClinicFloat_AsDouble(obj) PyFloat_AsDouble(obj)
#  define ClinicComplex_AsCComplex(obj) PyComplex_AsCComplex(obj)
#endif

/* What 3.11's private PyLong_AsInt (underscored) does. */
static inline int
ClinicLong_AsInt(PyObject *obj)
{
    int overflow;
    long result;
#if PY_VERSION_HEX < 0x030A0000
    if (!PyLong_Check(obj)) {
        PyObject *i = PyNumber_Index(obj);
        if (i == NULL) {
            return -1;
        }
        int r = ClinicLong_AsInt(i);
        Py_DECREF(i);
        return r;
    }
#endif
    result = PyLong_AsLongAndOverflow(obj, &overflow);
    if (overflow || result > INT_MAX || result < INT_MIN) {
        PyErr_SetString(PyExc_OverflowError,
                        "Python int too large to convert to C int");
        return -1;
    }
    return (int)result;
}

/* ---- argument errors ------------------------------------------------- */

/* The wrong type of an argument: "f() argument 'x' must be str, not int". */
static inline void
ClinicArg_BadArgument(const char *fname, const char *displayname,
                      const char *expected, PyObject *arg)
{
#if defined(Py_LIMITED_API)
    PyObject *type = clinic_arg_type_name(arg);
    if (type != NULL) {
        PyErr_Format(PyExc_TypeError, "%.200s() %.200s must be %.50s, not %.50U",
                     fname, displayname, expected, type);
        Py_DECREF(type);
    }
#else
    PyErr_Format(PyExc_TypeError, "%.200s() %.200s must be %.50s, not %.50s",
                 fname, displayname, expected,
                 arg == Py_None ? "None" : Py_TYPE(arg)->tp_name);
#endif
}

static inline int
clinic_check_positional(const char *name, Py_ssize_t nargs,
                        Py_ssize_t min, Py_ssize_t max)
{
    if (nargs < min) {
        if (name != NULL) {
            PyErr_Format(PyExc_TypeError,
                         "%.200s expected %s%zd argument%s, got %zd",
                         name, (min == max ? "" : "at least "), min,
                         min == 1 ? "" : "s", nargs);
        }
        else {
            PyErr_Format(PyExc_TypeError,
                         "unpacked tuple should have %s%zd element%s,"
                         " but has %zd",
                         (min == max ? "" : "at least "), min,
                         min == 1 ? "" : "s", nargs);
        }
        return 0;
    }
    if (nargs == 0) {
        return 1;
    }
    if (nargs > max) {
        if (name != NULL) {
            PyErr_Format(PyExc_TypeError,
                         "%.200s expected %s%zd argument%s, got %zd",
                         name, (min == max ? "" : "at most "), max,
                         max == 1 ? "" : "s", nargs);
        }
        else {
            PyErr_Format(PyExc_TypeError,
                         "unpacked tuple should have %s%zd element%s,"
                         " but has %zd",
                         (min == max ? "" : "at most "), max,
                         max == 1 ? "" : "s", nargs);
        }
        return 0;
    }
    return 1;
}

/* The count of positional arguments, checked
   inline when it is right. */
#define ClinicArg_CheckPositional(name, nargs, min, max) \
    (((min) <= (nargs) && (nargs) <= (max)) ||           \
     clinic_check_positional((name), (nargs), (min), (max)))

static inline int
clinic_no_keywords(const char *funcname, PyObject *kwargs)
{
    if (!PyDict_CheckExact(kwargs)) {
        PyErr_BadInternalCall();
        return 0;
    }
    if (PyDict_Size(kwargs) == 0) {
        return 1;
    }
    PyErr_Format(PyExc_TypeError, "%.200s() takes no keyword arguments",
                 funcname);
    return 0;
}

static inline int
clinic_no_positional(const char *funcname, PyObject *args)
{
    if (!PyTuple_CheckExact(args)) {
        PyErr_BadInternalCall();
        return 0;
    }
    if (PyTuple_Size(args) == 0) {
        return 1;
    }
    PyErr_Format(PyExc_TypeError, "%.200s() takes no positional arguments",
                 funcname);
    return 0;
}

#define ClinicArg_NoKeywords(funcname, kwargs) \
    ((kwargs) == NULL || clinic_no_keywords((funcname), (kwargs)))
#define ClinicArg_NoPositional(funcname, args) \
    ((args) == NULL || clinic_no_positional((funcname), (args)))

/* ---- keyword arguments ----------------------------------------------- */

/* Whether the keyword `name` was passed, among a vectorcall's names (a
   tuple) or a call's keyword arguments (a dict): the test, and the
   errors, of PySequence_Contains and PyDict_Contains, which the parsers of
   3.13 and later call with an interned str of CPython's core (for a
   deprecated keyword parameter only). */
static inline int
ClinicArg_KeywordGiven(PyObject *keywords, const char *name)
{
    PyObject *key = PyUnicode_FromString(name);
    if (key == NULL) {
        return -1;
    }
    int given = PyTuple_Check(keywords) ? PySequence_Contains(keywords, key)
                                        : PyDict_Contains(keywords, key);
    Py_DECREF(key);
    return given;
}

/* What the parsers declare statically: the parameters' names ("" for the
   positional-only ones, then NULL) and the function's name or a format
   string "units:name" -- the first four fields of 3.11's private parser struct,
   in its order, so that the same initialisers fill it.  Nothing in it is
   ever changed: no state is shared between calls, threads or
   interpreters. */
typedef struct {
    const char *format;
    const char *const *keywords;
    const char *fname;
    const char *custom_msg;
} ClinicArg_Parser;

/* A new tuple of n items (new references), for the *args of 3.14 and
   later: private in 3.14, public as PyTuple_FromArray() from 3.15. */
static inline PyObject *
ClinicTuple_FromArray(PyObject *const *items, Py_ssize_t n)
{
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(items[i]);
        ClinicTuple_SET_ITEM(tuple, i, items[i]);
    }
    return tuple;
}

/* A tuple's items as an array, where the full API can reach them. */
#if !defined(Py_LIMITED_API)
#  define ClinicTuple_ITEMS(op) ((PyObject *const *)&PyTuple_GET_ITEM((op), 0))
#endif

/* The arguments of one call: positional ones (an array, or a tuple)
   and keyword ones (names and values of a vectorcall, or a dict). */
typedef struct {
    PyObject *const *args;
    PyObject *tuple;
    PyObject *kwargs;
    PyObject *kwnames;
    PyObject *const *kwvalues;
    Py_ssize_t nkwargs;
    Py_ssize_t next;            /* where the next keyword is looked for */
} clinic_call;

static inline PyObject *
clinic_arg(const clinic_call *call, Py_ssize_t i)
{
    return call->tuple ? PyTuple_GetItem(call->tuple, i) : call->args[i];
}

/* args: the positional arguments, or NULL and tuple holds them. */
static inline void
clinic_call_init(clinic_call *call, PyObject *const *args, PyObject *tuple,
                 Py_ssize_t nargs, PyObject *kwargs, PyObject *kwnames)
{
    call->args = args;
    call->tuple = tuple;
    call->kwargs = kwargs;
    call->kwnames = kwnames;
    call->kwvalues = NULL;
    call->nkwargs = 0;
    call->next = 0;
    if (kwargs != NULL) {
        call->nkwargs = ClinicDict_GET_SIZE(kwargs);
    }
    else if (kwnames != NULL) {
        call->nkwargs = ClinicTuple_GET_SIZE(kwnames);
        call->kwvalues = args + nargs;
    }
}

/* The keyword search runs for every keyword of every call: its small
   steps are inlined whatever the compiler would choose. */
#if defined(__GNUC__) || defined(__clang__)
#  define CLINIC_HOT_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#  define CLINIC_HOT_INLINE __forceinline
#else
#  define CLINIC_HOT_INLINE inline
#endif

/* Whether the n characters at data are the NUL-terminated name: name is
   read no further than its end. */
static CLINIC_HOT_INLINE int
clinic_chars_are(const char *data, Py_ssize_t n, const char *name)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (name[i] != data[i] || name[i] == '\0') {
            return 0;
        }
    }
    return name[n] == '\0';
}

/* Whether the str `key` is the ASCII name (no strlen: the first
   character that differs ends the comparison). */
static CLINIC_HOT_INLINE int
clinic_name_is(PyObject *key, const char *name)
{
#if defined(Py_LIMITED_API)
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(key, &size);
    if (utf8 == NULL) {
        PyErr_Clear();
        return 0;
    }
    return clinic_chars_are(utf8, size, name);
#else
    /* A call's keywords are the interpreter's strs: compact ASCII, their
       characters right after the object.  Any other str is compared the
       long way (only an ASCII one can equal a name). */
    if (!PyUnicode_IS_COMPACT_ASCII(key)) {
#  if PY_VERSION_HEX < 0x030C0000
        if (!PyUnicode_IS_READY(key)) {
            return PyUnicode_CompareWithASCIIString(key, name) == 0;
        }
#  endif
        if (PyUnicode_KIND(key) != PyUnicode_1BYTE_KIND) {
            return 0;
        }
        return clinic_chars_are((const char *)PyUnicode_DATA(key),
                                PyUnicode_GET_LENGTH(key), name);
    }
    /* (PyUnicode_DATA() of a compact ASCII str, without asking again) */
    return clinic_chars_are((const char *)((PyASCIIObject *)key + 1),
                            ((PyASCIIObject *)key)->length, name);
#endif
}

/* The value of the keyword argument `name` among a dict's, or NULL
   (borrowed; never an error: keys that are not str match nothing). */
static inline PyObject *
clinic_find_keyword_in_dict(PyObject *kwargs, const char *name)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(kwargs, &pos, &key, &value)) {
        if (PyUnicode_Check(key) && clinic_name_is(key, name)) {
            return value;
        }
    }
    return NULL;
}

/* The value of the keyword argument `name`, or NULL (borrowed; never an
   error).  A vectorcall's keywords mostly come in the parameters' order:
   the search starts after the last one found. */
static CLINIC_HOT_INLINE PyObject *
clinic_find_keyword(clinic_call *call, const char *name)
{
    if (call->kwargs != NULL) {
        return clinic_find_keyword_in_dict(call->kwargs, name);
    }
    Py_ssize_t n = call->nkwargs, j = call->next;
    for (Py_ssize_t k = 0; k < n; k++, j++) {
        if (j >= n) {
            j = 0;
        }
        if (clinic_name_is(ClinicTuple_GET_ITEM(call->kwnames, j), name)) {
            call->next = j + 1;
            return call->kwvalues[j];
        }
    }
    return NULL;
}

static inline const char *
clinic_fname(const ClinicArg_Parser *parser)
{
    return parser->fname == NULL ? "function" : parser->fname;
}

static inline const char *
clinic_fparens(const ClinicArg_Parser *parser)
{
    return parser->fname == NULL ? "" : "()";
}

/* How many of the parameters are positional-only, and how many there
   are. */
static inline void
clinic_count_keywords(const ClinicArg_Parser *parser, int *posonly, int *len)
{
    const char *const *keywords = parser->keywords;
    int i;
    for (i = 0; keywords[i] && !*keywords[i]; i++) {
    }
    *posonly = i;
    for (; keywords[i]; i++) {
    }
    *len = i;
}

/* 3.11's error_unexpected_keyword_arg(): a keyword argument that names no
   parameter (the positional-only ones have no name). */
static inline void
clinic_unexpected_keyword(const clinic_call *call,
                          const ClinicArg_Parser *parser, int posonly)
{
    Py_ssize_t j = 0;
    for (;;) {
        PyObject *keyword;
        if (call->kwargs != NULL) {
            if (!PyDict_Next(call->kwargs, &j, &keyword, NULL)) {
                break;
            }
        }
        else {
            if (j >= call->nkwargs) {
                break;
            }
            keyword = ClinicTuple_GET_ITEM(call->kwnames, j);
            j++;
        }
        if (!PyUnicode_Check(keyword)) {
            PyErr_SetString(PyExc_TypeError, "keywords must be strings");
            return;
        }
        int match = 0;
        for (const char *const *k = parser->keywords + posonly; *k; k++) {
            int r = PyUnicode_CompareWithASCIIString(keyword, *k);
            if (r == -1 && PyErr_Occurred()) {
                return;
            }
            if (r == 0) {
                match = 1;
                break;
            }
        }
        if (!match) {
#if CLINIC_PORTABLE_DIALECT >= 0x030D0000
            PyErr_Format(PyExc_TypeError,
                         "%.200s%s got an unexpected keyword argument '%S'",
                         parser->fname == NULL ? "this function" : parser->fname,
                         clinic_fparens(parser), keyword);
#else
            PyErr_Format(PyExc_TypeError,
                         "'%S' is an invalid keyword argument for %.200s%s",
                         keyword,
                         parser->fname == NULL ? "this function" : parser->fname,
                         clinic_fparens(parser));
#endif
            return;
        }
    }
    PyErr_Format(PyExc_TypeError, "invalid keyword argument for %.200s%s",
                 parser->fname == NULL ? "this function" : parser->fname,
                 clinic_fparens(parser));
}

/* 3.11's keyword unpacking, when the fast path does not apply:
   the arguments in parameter order into buf (NULL for those not given),
   or NULL with an exception set. */
static inline PyObject *const *
clinic_unpack_keywords(PyObject *const *args, PyObject *tuple,
                       Py_ssize_t nargs, PyObject *kwargs, PyObject *kwnames,
                       const ClinicArg_Parser *parser,
                       int minpos, int maxpos, int minkw, int varpos,
                       PyObject **buf)
{
    clinic_call call;
    int i, posonly, maxargs;
    int reqlimit = minkw ? maxpos + minkw : minpos;
    PyObject *current_arg;

    if (parser == NULL || (kwnames != NULL && !PyTuple_Check(kwnames))) {
        PyErr_BadInternalCall();
        return NULL;
    }
    clinic_call_init(&call, args, tuple, nargs, kwargs, kwnames);
    clinic_count_keywords(parser, &posonly, &maxargs);
    int minposonly = posonly < minpos ? posonly : minpos;
    Py_ssize_t nkwargs = call.nkwargs;

    if (nkwargs == 0 && minkw == 0 && minpos <= nargs &&
        (varpos || nargs <= maxpos) && call.tuple == NULL && args != NULL) {
        return args;
    }
    if (!varpos && nargs + nkwargs > maxargs) {
        /* "keyword" when there are no positional arguments: bpo-31229 */
        PyErr_Format(PyExc_TypeError,
                     "%.200s%s takes at most %d %sargument%s (%zd given)",
                     clinic_fname(parser), clinic_fparens(parser), maxargs,
                     (nargs == 0) ? "keyword " : "",
                     (maxargs == 1) ? "" : "s", nargs + nkwargs);
        return NULL;
    }
    if (!varpos && nargs > maxpos) {
        if (maxpos == 0) {
            PyErr_Format(PyExc_TypeError,
                         "%.200s%s takes no positional arguments",
                         clinic_fname(parser), clinic_fparens(parser));
        }
        else {
            PyErr_Format(PyExc_TypeError,
                         "%.200s%s takes %s %d positional argument%s (%zd given)",
                         clinic_fname(parser), clinic_fparens(parser),
                         (minpos < maxpos) ? "at most" : "exactly", maxpos,
                         (maxpos == 1) ? "" : "s", nargs);
        }
        return NULL;
    }
    if (nargs < minposonly) {
        PyErr_Format(PyExc_TypeError,
                     "%.200s%s takes %s %d positional argument%s (%zd given)",
                     clinic_fname(parser), clinic_fparens(parser),
                     minposonly < maxpos ? "at least" : "exactly", minposonly,
                     minposonly == 1 ? "" : "s", nargs);
        return NULL;
    }

    if (varpos && nargs > maxpos) {
        nargs = maxpos;         /* the rest are *args' */
    }
    for (i = 0; i < nargs; i++) {
        buf[i] = clinic_arg(&call, i);
    }
    /* the keyword arguments, in parameter order */
    for (i = (int)nargs > posonly ? (int)nargs : posonly; i < maxargs; i++) {
        if (nkwargs) {
            current_arg = clinic_find_keyword(&call, parser->keywords[i]);
        }
        else if (i >= reqlimit) {
            break;
        }
        else {
            current_arg = NULL;
        }
        buf[i] = current_arg;
        if (current_arg) {
            --nkwargs;
        }
        else if (i < minpos || (maxpos <= i && i < reqlimit)) {
            PyErr_Format(PyExc_TypeError,
                         "%.200s%s missing required argument '%s' (pos %d)",
                         clinic_fname(parser), clinic_fparens(parser),
                         parser->keywords[i], i + 1);
            return NULL;
        }
    }

    if (nkwargs > 0) {
        /* an argument given by name and by position */
        for (i = posonly; i < nargs; i++) {
            if (clinic_find_keyword(&call, parser->keywords[i])) {
                PyErr_Format(PyExc_TypeError,
                             "argument for %.200s%s given by name ('%s') "
                             "and position (%d)",
                             clinic_fname(parser), clinic_fparens(parser),
                             parser->keywords[i], i + 1);
                return NULL;
            }
        }
        clinic_unexpected_keyword(&call, parser, posonly);
        return NULL;
    }
    return buf;
}

/* 3.14 and later pass one more argument before buf, varpos: whether
   the function takes *args (the positional arguments past maxpos, which
   the parser then takes from args itself).  The helpers take both forms,
   told apart by their number of arguments. */
#define CLINIC_EXPAND(x) x
#define CLINIC_BY_ARITY(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, form, ...) \
    form

/* The arguments of a call in parameter order;
   when they are all positional, and as many as may be, that is args
   itself, found inline. */
#define clinic_unpack_keywords_10(args, nargs, kwargs, kwnames, parser,    \
                                  minpos, maxpos, minkw, varpos, buf)       \
    (((minkw) == 0 && (kwargs) == NULL && (kwnames) == NULL &&              \
      (minpos) <= (nargs) && ((varpos) || (nargs) <= (maxpos)) &&           \
      (args) != NULL)                                                       \
         ? (args)                                                           \
         : clinic_unpack_keywords((args), NULL, (nargs), (kwargs),          \
                                  (kwnames), (parser), (minpos), (maxpos),  \
                                  (minkw), (varpos), (buf)))
#define clinic_unpack_keywords_9(args, nargs, kwargs, kwnames, parser,     \
                                 minpos, maxpos, minkw, buf)                \
    clinic_unpack_keywords_10(args, nargs, kwargs, kwnames, parser,        \
                              minpos, maxpos, minkw, 0, buf)
#define ClinicArg_UnpackKeywords(...)                                       \
    CLINIC_EXPAND(CLINIC_BY_ARITY(__VA_ARGS__, clinic_unpack_keywords_10,   \
                                  clinic_unpack_keywords_9, ~)(__VA_ARGS__))

/* The same for __new__ and __init__, whose positional arguments are a
   tuple (3.11 passes its items: the Limited API has no way to them). */
#if defined(Py_LIMITED_API)
#  define clinic_unpack_tuple_keywords_10(args, nargs, kwargs, kwnames,    \
                                          parser, minpos, maxpos, minkw,   \
                                          varpos, buf)                     \
    clinic_unpack_keywords(NULL, (args), (nargs), (kwargs), (kwnames),     \
                           (parser), (minpos), (maxpos), (minkw), (varpos),\
                           (buf))
#else
#  define clinic_unpack_tuple_keywords_10(args, nargs, kwargs, kwnames,    \
                                          parser, minpos, maxpos, minkw,   \
                                          varpos, buf)                     \
    clinic_unpack_keywords_10(ClinicTuple_ITEMS(args), (nargs), (kwargs),  \
                              (kwnames), (parser), (minpos), (maxpos),     \
                              (minkw), (varpos), (buf))
#endif
#define clinic_unpack_tuple_keywords_9(args, nargs, kwargs, kwnames,       \
                                       parser, minpos, maxpos, minkw, buf) \
    clinic_unpack_tuple_keywords_10(args, nargs, kwargs, kwnames, parser,  \
                                    minpos, maxpos, minkw, 0, buf)
#define ClinicArg_UnpackKeywordsFromTuple(...)                              \
    CLINIC_EXPAND(CLINIC_BY_ARITY(__VA_ARGS__,                              \
                                  clinic_unpack_tuple_keywords_10,          \
                                  clinic_unpack_tuple_keywords_9, ~)        \
                  (__VA_ARGS__))

/* The same for a function with *args,
   whose tuple (a new reference) goes to buf[vararg]. */
static inline PyObject *const *
clinic_unpack_keywords_vararg(PyObject *const *args, PyObject *tuple,
                              Py_ssize_t nargs, PyObject *kwargs,
                              PyObject *kwnames,
                              const ClinicArg_Parser *parser,
                              int minpos, int maxpos, int minkw,
                              int vararg, PyObject **buf)
{
    clinic_call call;
    Py_ssize_t varargssize;
    int i, posonly, maxargs;
    int reqlimit = minkw ? maxpos + minkw : minpos;
    PyObject *current_arg;

    if (parser == NULL || (kwnames != NULL && !PyTuple_Check(kwnames))) {
        PyErr_BadInternalCall();
        return NULL;
    }
    clinic_call_init(&call, args, tuple, nargs, kwargs, kwnames);
    clinic_count_keywords(parser, &posonly, &maxargs);
    int minposonly = posonly < minpos ? posonly : minpos;
    Py_ssize_t nkwargs = call.nkwargs;

    if (nargs < minposonly) {
        PyErr_Format(PyExc_TypeError,
                     "%.200s%s takes %s %d positional argument%s (%zd given)",
                     clinic_fname(parser), clinic_fparens(parser),
                     minposonly < maxpos ? "at least" : "exactly", minposonly,
                     minposonly == 1 ? "" : "s", nargs);
        return NULL;
    }

    varargssize = nargs - maxpos;
    if (varargssize < 0) {
        varargssize = 0;
    }
    buf[vararg] = PyTuple_New(varargssize);
    if (!buf[vararg]) {
        return NULL;
    }
    for (i = 0; i < nargs; i++) {
        PyObject *arg = clinic_arg(&call, i);
        if (i >= vararg) {
            ClinicTuple_SET_ITEM(buf[vararg], i - vararg, Clinic_NewRef(arg));
        }
        else {
            buf[i] = arg;
        }
    }

    for (i = ((int)nargs > posonly ? (int)nargs : posonly) - (int)varargssize;
         i < maxargs; i++) {
        if (nkwargs) {
            current_arg = clinic_find_keyword(&call, parser->keywords[i]);
        }
        else {
            current_arg = NULL;
        }
        /* buf[vararg] holds the tuple; the parameters after *args follow
           it.  (3.11 put them one place lower when fewer than vararg
           arguments were positional, over the tuple: the tuple leaked and
           a borrowed keyword value was released as if it were *args.) */
        buf[i < vararg ? i : i + 1] = current_arg;
        if (current_arg) {
            --nkwargs;
        }
        else if (i < minpos || (maxpos <= i && i < reqlimit)) {
            PyErr_Format(PyExc_TypeError,
                         "%.200s%s missing required argument '%s' (pos %d)",
                         clinic_fname(parser), clinic_fparens(parser),
                         parser->keywords[i], i + 1);
            goto exit;
        }
    }
    if (nkwargs > 0) {
        clinic_unexpected_keyword(&call, parser, posonly);
        goto exit;
    }
    return buf;

exit:
    Py_XDECREF(buf[vararg]);
    return NULL;
}

#define ClinicArg_UnpackKeywordsWithVararg(args, nargs, kwargs, kwnames,    \
                                           parser, minpos, maxpos, minkw,   \
                                           vararg, buf)                     \
    clinic_unpack_keywords_vararg((args), NULL, (nargs), (kwargs),          \
                                  (kwnames), (parser), (minpos), (maxpos),  \
                                  (minkw), (vararg), (buf))
#define ClinicArg_UnpackKeywordsWithVarargFromTuple(args, nargs, kwargs,    \
                                                    kwnames, parser, minpos,\
                                                    maxpos, minkw, vararg,  \
                                                    buf)                    \
    clinic_unpack_keywords_vararg(NULL, (args), (nargs), (kwargs),          \
                                  (kwnames), (parser), (minpos), (maxpos),  \
                                  (minkw), (vararg), (buf))

/* ---- the converter functions of 3.11's O& converters ----------------- */

/* The sign of an int, for the "value must be positive" check. */
static inline int
clinic_long_is_negative(PyObject *obj)
{
    PyObject *zero = PyLong_FromLong(0);
    if (zero == NULL) {
        return -1;
    }
    int r = PyObject_RichCompareBool(obj, zero, Py_LT);
    Py_DECREF(zero);
    return r;
}

/* PyLong_AsUnsignedLong() with 3.11's converters' ValueError for a
   negative int: returns 1, or 0 with an exception set. */
static inline int
clinic_unsigned_long(PyObject *obj, unsigned long *value)
{
    if (PyLong_Check(obj)) {
        int neg = clinic_long_is_negative(obj);
        if (neg) {
            if (neg > 0) {
                PyErr_SetString(PyExc_ValueError, "value must be positive");
            }
            return 0;
        }
    }
    *value = PyLong_AsUnsignedLong(obj);
    return !(*value == (unsigned long)-1 && PyErr_Occurred());
}

/* 3.14's unicode_fs_decoded: PyUnicode_FSDecoder() before 3.12 took any
   buffer, with a DeprecationWarning; from 3.12 on only str, bytes and
   os.PathLike, as PyOS_FSPath() checks first.  (A NULL argument is the
   cleanup call of a Py_CLEANUP_SUPPORTED converter.) */
static inline int
ClinicUnicode_FSDecoder(PyObject *arg, void *addr)
{
#if PY_VERSION_HEX < 0x030C0000
    if (arg != NULL) {
        PyObject *path = PyOS_FSPath(arg);
        if (path == NULL) {
            return 0;
        }
        int r = PyUnicode_FSDecoder(path, addr);
        Py_DECREF(path);
        return r;
    }
#endif
    return PyUnicode_FSDecoder(arg, addr);
}

/* 3.15's bitwise unsigned converters call PyLong_AsNativeBytes(), public
   from 3.13 and in the Limited API from 3.14.  Before, it is
   clinic_long_as_native_bytes(), which keeps the documented contract of
   3.13's: every flag (-1 as NATIVE_ENDIAN | UNSIGNED_BUFFER, the byte
   order, a zero sign bit left out with UNSIGNED_BUFFER, ValueError for a
   negative value with REJECT_NEGATIVE, __index__ only with ALLOW_INDEX,
   else TypeError), all n bytes written in two's complement, and the size
   the value needs returned: n or less when it was copied whole, more
   when it was truncated (never 0).  3.13's own may return a larger size
   (8 for a small int), as its documentation allows.  Defining
   CLINIC_NATIVE_BYTES_FALLBACK compiles it on any version, so that a
   test can set it beside 3.13's. */
#if (!defined(Py_LIMITED_API) && PY_VERSION_HEX >= 0x030D0000) || \
    (defined(Py_LIMITED_API) && Py_LIMITED_API + 0 >= 0x030E0000)
#  define ClinicLong_AsNativeBytes PyLong_AsNativeBytes
#else
#  define ClinicLong_AsNativeBytes clinic_long_as_native_bytes
#  define CLINIC_NATIVE_BYTES_FALLBACK
#endif
#ifndef Py_ASNATIVEBYTES_NATIVE_ENDIAN
#  define Py_ASNATIVEBYTES_DEFAULTS (-1)
#  define Py_ASNATIVEBYTES_BIG_ENDIAN 0
#  define Py_ASNATIVEBYTES_LITTLE_ENDIAN 1
#  define Py_ASNATIVEBYTES_NATIVE_ENDIAN 3
#  define Py_ASNATIVEBYTES_UNSIGNED_BUFFER 4
#  define Py_ASNATIVEBYTES_REJECT_NEGATIVE 8
#  define Py_ASNATIVEBYTES_ALLOW_INDEX 16
#endif
#ifdef CLINIC_NATIVE_BYTES_FALLBACK
/* "module.qualname" as 3.13's %T prints a type: tp_name for a static
   type, the module left out for builtins and __main__ (a new
   reference) */
static inline PyObject *
clinic_type_qualified_name(PyTypeObject *tp)
{
    if (!(PyType_GetFlags(tp) & Py_TPFLAGS_HEAPTYPE)) {
        return clinic_type_name(tp);
    }
    PyObject *qualname = PyObject_GetAttrString((PyObject *)tp, "__qualname__");
    if (qualname == NULL) {
        return NULL;
    }
    PyObject *module = PyObject_GetAttrString((PyObject *)tp, "__module__");
    if (module == NULL) {
        PyErr_Clear();
        return qualname;
    }
    PyObject *full;
    if (PyUnicode_Check(module) &&
        PyUnicode_CompareWithASCIIString(module, "builtins") != 0 &&
        PyUnicode_CompareWithASCIIString(module, "__main__") != 0) {
        full = PyUnicode_FromFormat("%U.%U", module, qualname);
    }
    else {
        full = Clinic_NewRef(qualname);
    }
    Py_DECREF(module);
    Py_DECREF(qualname);
    return full;
}

/* The bytes a two's complement value needs: bit_length(v) bits, or of
   ~v for a negative v, plus a sign bit unless the buffer is unsigned and
   v is not negative.  Returns -1 with an exception set. */
static inline Py_ssize_t
clinic_long_bytes_needed(PyObject *v, int negative, int unsigned_buffer)
{
    PyObject *magnitude = negative ? PyNumber_Invert(v) : Clinic_NewRef(v);
    if (magnitude == NULL) {
        return -1;
    }
    PyObject *bits = PyObject_CallMethod(magnitude, "bit_length", NULL);
    Py_DECREF(magnitude);
    if (bits == NULL) {
        return -1;
    }
    Py_ssize_t nbits = PyLong_AsSsize_t(bits);
    Py_DECREF(bits);
    if (nbits < 0) {
        return -1;
    }
    if (negative || !unsigned_buffer) {
        nbits++;
    }
    return nbits <= 8 ? 1 : (nbits + 7) / 8;
}

static inline Py_ssize_t
clinic_long_as_native_bytes(PyObject *obj, void *buffer, Py_ssize_t n, int flags)
{
    if (obj == NULL || n < 0) {
        PyErr_BadInternalCall();
        return -1;
    }
    const union { unsigned short one; unsigned char first; } native = {1};
    int little = flags == -1 || (flags & 2) ? native.first : (flags & 1);
    int unsigned_buffer = flags == -1 || (flags & Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    PyObject *v;
    if (PyLong_Check(obj)) {
        v = Clinic_NewRef(obj);
    }
    else if (flags != -1 && (flags & Py_ASNATIVEBYTES_ALLOW_INDEX)) {
        v = PyNumber_Index(obj);
        if (v == NULL) {
            return -1;
        }
    }
    else {
        PyObject *type = clinic_type_qualified_name(Py_TYPE(obj));
        if (type != NULL) {
            PyErr_Format(PyExc_TypeError, "expect int, got %U", type);
            Py_DECREF(type);
        }
        return -1;
    }
    int negative = clinic_long_is_negative(v);
    if (negative > 0 && flags != -1 && (flags & Py_ASNATIVEBYTES_REJECT_NEGATIVE)) {
        PyErr_SetString(PyExc_ValueError, "Cannot convert negative int");
        negative = -1;
    }
    Py_ssize_t needed = negative < 0 ? -1 :
        clinic_long_bytes_needed(v, negative, unsigned_buffer);
    /* the low n bytes, 8 at a time, least significant first; shifting a
       negative value right fills it with ones, its sign */
    PyObject *rest = needed < 0 ? NULL : Clinic_NewRef(v);
    for (Py_ssize_t done = 0; rest != NULL && done < n; done += 8) {
        unsigned long long chunk = PyLong_AsUnsignedLongLongMask(rest);
        if (chunk == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_CLEAR(rest);
            break;
        }
        for (Py_ssize_t i = done; i < n && i < done + 8; i++, chunk >>= 8) {
            ((unsigned char *)buffer)[little ? i : n - 1 - i] = (unsigned char)chunk;
        }
        if (done + 8 < n) {
            PyObject *shift = PyLong_FromLong(64);
            PyObject *next = shift ? PyNumber_Rshift(rest, shift) : NULL;
            Py_XDECREF(shift);
            Py_DECREF(rest);
            rest = next;
        }
    }
    Py_DECREF(v);
    if (rest == NULL) {
        return -1;
    }
    Py_DECREF(rest);
    return needed;
}
#endif

/* 3.14's uint8 to uint64 converters, and from the 3.14 dialect on the
   older unsigned ones, as CPython 3.14 and 3.15 answer (their messages,
   not 3.11's): an int or an object with __index__, a
   negative one a ValueError, one too wide an OverflowError naming the
   type.  Returns 1, or 0 with an exception set. */
static inline int
clinic_uint_of_width(PyObject *obj, unsigned long long max, const char *type,
                     unsigned long long *value)
{
    PyObject *index = PyNumber_Index(obj);
    if (index == NULL) {
        return 0;
    }
    int neg = clinic_long_is_negative(index);
    if (neg) {
        if (neg > 0) {
            PyErr_SetString(PyExc_ValueError, "Cannot convert negative int");
        }
        Py_DECREF(index);
        return 0;
    }
    unsigned long long uval = PyLong_AsUnsignedLongLong(index);
    Py_DECREF(index);
    if (uval == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
            return 0;
        }
        PyErr_Clear();
        uval = max, max = 0;    /* reported below */
    }
    if (uval > max) {
        PyErr_Format(PyExc_OverflowError, "Python int too large for C %s", type);
        return 0;
    }
    *value = uval;
    return 1;
}

#define CLINIC_UINT_CONVERTER(NAME, TYPE, MAX)                          \
static inline int                                                       \
ClinicLong_##NAME##_Converter(PyObject *obj, void *ptr)                 \
{                                                                       \
    unsigned long long uval;                                            \
    if (!clinic_uint_of_width(obj, (MAX), #TYPE, &uval)) {              \
        return 0;                                                       \
    }                                                                   \
    *(TYPE *)ptr = (TYPE)uval;                                          \
    return 1;                                                           \
}
CLINIC_UINT_CONVERTER(UInt8, uint8_t, UINT8_MAX)
CLINIC_UINT_CONVERTER(UInt16, uint16_t, UINT16_MAX)
CLINIC_UINT_CONVERTER(UInt32, uint32_t, UINT32_MAX)
CLINIC_UINT_CONVERTER(UInt64, uint64_t, UINT64_MAX)

#if CLINIC_PORTABLE_DIALECT >= 0x030E0000
CLINIC_UINT_CONVERTER(UnsignedShort, unsigned short, USHRT_MAX)
CLINIC_UINT_CONVERTER(UnsignedInt, unsigned int, UINT_MAX)
CLINIC_UINT_CONVERTER(UnsignedLong, unsigned long, ULONG_MAX)
CLINIC_UINT_CONVERTER(UnsignedLongLong, unsigned long long, ULLONG_MAX)
CLINIC_UINT_CONVERTER(Size_t, size_t, SIZE_MAX)
#else
/* before the 3.14 dialect: an unsigned long in range, 3.11's messages */
#define CLINIC_NARROW_UNSIGNED_CONVERTER(NAME, TYPE, MAX)               \
static inline int                                                       \
ClinicLong_##NAME##_Converter(PyObject *obj, void *ptr)                 \
{                                                                       \
    unsigned long uval;                                                 \
    if (!clinic_unsigned_long(obj, &uval)) {                            \
        return 0;                                                       \
    }                                                                   \
    if (uval > (MAX)) {                                                 \
        PyErr_SetString(PyExc_OverflowError,                            \
                        "Python int too large for C " #TYPE);           \
        return 0;                                                       \
    }                                                                   \
    *(TYPE *)ptr = (TYPE)uval;                                          \
    return 1;                                                           \
}
CLINIC_NARROW_UNSIGNED_CONVERTER(UnsignedShort, unsigned short, USHRT_MAX)
CLINIC_NARROW_UNSIGNED_CONVERTER(UnsignedInt, unsigned int, UINT_MAX)

static inline int
ClinicLong_UnsignedLong_Converter(PyObject *obj, void *ptr)
{
    unsigned long uval;
    if (!clinic_unsigned_long(obj, &uval)) {
        return 0;
    }
    *(unsigned long *)ptr = uval;
    return 1;
}

static inline int
ClinicLong_UnsignedLongLong_Converter(PyObject *obj, void *ptr)
{
    if (PyLong_Check(obj)) {
        int neg = clinic_long_is_negative(obj);
        if (neg) {
            if (neg > 0) {
                PyErr_SetString(PyExc_ValueError, "value must be positive");
            }
            return 0;
        }
    }
    unsigned long long uval = PyLong_AsUnsignedLongLong(obj);
    if (uval == (unsigned long long)-1 && PyErr_Occurred()) {
        return 0;
    }
    *(unsigned long long *)ptr = uval;
    return 1;
}

static inline int
ClinicLong_Size_t_Converter(PyObject *obj, void *ptr)
{
    if (PyLong_Check(obj)) {
        int neg = clinic_long_is_negative(obj);
        if (neg) {
            if (neg > 0) {
                PyErr_SetString(PyExc_ValueError, "value must be positive");
            }
            return 0;
        }
    }
    size_t uval = PyLong_AsSize_t(obj);
    if (uval == (size_t)-1 && PyErr_Occurred()) {
        return 0;
    }
    *(size_t *)ptr = uval;
    return 1;
}
#endif

/* A file descriptor as 3.13's PyObject_AsFileDescriptor() reads it, the
   call 3.13's parsers make: a bool is used, with a RuntimeWarning. */
static inline int
ClinicObject_AsFileDescriptor(PyObject *o)
{
#if PY_VERSION_HEX < 0x030D0000
    if (PyBool_Check(o) &&
        PyErr_WarnEx(PyExc_RuntimeWarning,
                     "bool is used as a file descriptor", 1) < 0) {
        return -1;
    }
#endif
    return PyObject_AsFileDescriptor(o);
}

/* A file descriptor: an int, or an object with fileno(). */
static inline int
ClinicLong_FileDescriptor_Converter(PyObject *o, void *ptr)
{
    int fd = PyObject_AsFileDescriptor(o);
    if (fd == -1) {
        return 0;
    }
    *(int *)ptr = fd;
    return 1;
}

/* Slice indices: an int, an object with __index__, or (the first) None. */
static inline int
ClinicEval_SliceIndex(PyObject *v, Py_ssize_t *pi)
{
    if (v != Py_None) {
        Py_ssize_t x;
        if (PyIndex_Check(v)) {
            x = PyNumber_AsSsize_t(v, NULL);
            if (x == -1 && PyErr_Occurred()) {
                return 0;
            }
        }
        else {
            /* (3.15's words leave None out) */
            PyErr_SetString(PyExc_TypeError,
#if CLINIC_PORTABLE_DIALECT >= 0x030F0000
                            "slice indices must be integers or "
                            "have an __index__ method");
#else
                            "slice indices must be integers or "
                            "None or have an __index__ method");
#endif
            return 0;
        }
        *pi = x;
    }
    return 1;
}

static inline int
ClinicEval_SliceIndexNotNone(PyObject *v, Py_ssize_t *pi)
{
    Py_ssize_t x;
    if (PyIndex_Check(v)) {
        x = PyNumber_AsSsize_t(v, NULL);
        if (x == -1 && PyErr_Occurred()) {
            return 0;
        }
    }
    else {
        PyErr_SetString(PyExc_TypeError,
                        "slice indices must be integers or "
                        "have an __index__ method");
        return 0;
    }
    *pi = x;
    return 1;
}

/* A Py_ssize_t, or None to leave the default. */
static inline int
Clinic_convert_optional_to_ssize_t(PyObject *obj, void *result)
{
    Py_ssize_t limit;
    if (obj == Py_None) {
        return 1;
    }
    else if (PyIndex_Check(obj)) {
        limit = PyNumber_AsSsize_t(obj, PyExc_OverflowError);
        if (limit == -1 && PyErr_Occurred()) {
            return 0;
        }
    }
    else {
#if defined(Py_LIMITED_API)
        PyObject *type = clinic_type_name(Py_TYPE(obj));
        if (type != NULL) {
            PyErr_Format(PyExc_TypeError,
                         "argument should be integer or None, not '%.200U'",
                         type);
            Py_DECREF(type);
        }
#else
        PyErr_Format(PyExc_TypeError,
                     "argument should be integer or None, not '%.200s'",
                     Py_TYPE(obj)->tp_name);
#endif
        return 0;
    }
    *((Py_ssize_t *)result) = limit;
    return 1;
}

/* Py_UNICODE (wchar_t) strings, and the same allowing None: a
   wchar_t string of a str, to be given back with PyMem_Free(). */
static inline int
ClinicUnicode_WideCharString_Converter(PyObject *obj, void *ptr)
{
    wchar_t **p = (wchar_t **)ptr;
    if (obj == NULL) {
        PyMem_Free(*p);
        *p = NULL;
        return 1;
    }
    if (PyUnicode_Check(obj)) {
        *p = PyUnicode_AsWideCharString(obj, NULL);
        if (*p == NULL) {
            return 0;
        }
        return Py_CLEANUP_SUPPORTED;
    }
#if defined(Py_LIMITED_API)
    PyObject *type = clinic_type_name(Py_TYPE(obj));
    if (type != NULL) {
        PyErr_Format(PyExc_TypeError, "argument must be str, not %.50U", type);
        Py_DECREF(type);
    }
#else
    PyErr_Format(PyExc_TypeError, "argument must be str, not %.50s",
                 Py_TYPE(obj)->tp_name);
#endif
    return 0;
}

static inline int
ClinicUnicode_WideCharString_Opt_Converter(PyObject *obj, void *ptr)
{
    wchar_t **p = (wchar_t **)ptr;
    if (obj == NULL) {
        PyMem_Free(*p);
        *p = NULL;
        return 1;
    }
    if (obj == Py_None) {
        *p = NULL;
        return 1;
    }
    if (PyUnicode_Check(obj)) {
        *p = PyUnicode_AsWideCharString(obj, NULL);
        if (*p == NULL) {
            return 0;
        }
        return Py_CLEANUP_SUPPORTED;
    }
#if defined(Py_LIMITED_API)
    PyObject *type = clinic_type_name(Py_TYPE(obj));
    if (type != NULL) {
        PyErr_Format(PyExc_TypeError, "argument must be str or None, not %.50U",
                     type);
        Py_DECREF(type);
    }
#else
    PyErr_Format(PyExc_TypeError, "argument must be str or None, not %.50s",
                 Py_TYPE(obj)->tp_name);
#endif
    return 0;
}

/* ---- format strings: 3.11's getargs for the converters clinic writes
        no inline code for ------------------------------------------------ */

/* What to undo when a later argument fails: buffers to release, memory to
   free, O& converters to call back with NULL. */
typedef struct {
    void *item;
    int (*destructor)(PyObject *, void *);
} clinic_cleanup;

#define CLINIC_STATIC_CLEANUPS 8

typedef struct {
    clinic_cleanup *entries;
    int first_available;
    int malloced;
    clinic_cleanup static_entries[CLINIC_STATIC_CLEANUPS];
} clinic_freelist;

static inline int
clinic_freelist_init(clinic_freelist *fl, int max)
{
    fl->entries = fl->static_entries;
    fl->first_available = 0;
    fl->malloced = 0;
    if (max > CLINIC_STATIC_CLEANUPS) {
        fl->entries = (clinic_cleanup *)PyMem_Malloc(sizeof(clinic_cleanup) *
                                                     (size_t)max);
        if (fl->entries == NULL) {
            PyErr_NoMemory();
            return 0;
        }
        fl->malloced = 1;
    }
    return 1;
}

static inline int
clinic_cleanup_ptr(PyObject *self, void *ptr)
{
    void **pptr = (void **)ptr;
    (void)self;
    PyMem_Free(*pptr);
    *pptr = NULL;
    return 0;
}

#if !defined(Py_LIMITED_API) || Py_LIMITED_API + 0 >= 0x030B0000
static inline int
clinic_cleanup_buffer(PyObject *self, void *ptr)
{
    (void)self;
    if (ptr) {
        PyBuffer_Release((Py_buffer *)ptr);
    }
    return 0;
}
#endif

static inline void
clinic_add_cleanup(clinic_freelist *fl, void *ptr,
                   int (*destructor)(PyObject *, void *))
{
    fl->entries[fl->first_available].item = ptr;
    fl->entries[fl->first_available].destructor = destructor;
    fl->first_available++;
}

static inline int
clinic_clean_return(int retval, clinic_freelist *fl)
{
    if (retval == 0) {
        for (int i = 0; i < fl->first_available; i++) {
            fl->entries[i].destructor(NULL, fl->entries[i].item);
        }
    }
    if (fl->malloced) {
        PyMem_Free(fl->entries);
    }
    return retval;
}

/* converterr(): "must be EXPECTED, not TYPE" into msgbuf, or EXPECTED as
   it is when it starts with '(' (an error already set, or a bug). */
static inline const char *
clinic_converterr(const char *expected, PyObject *arg, char *msgbuf,
                  size_t bufsize)
{
    if (expected[0] == '(') {
        PyOS_snprintf(msgbuf, bufsize, "%.100s", expected);
        return msgbuf;
    }
    PyObject *type = clinic_arg_type_name(arg);
    const char *name = type ? PyUnicode_AsUTF8AndSize(type, NULL) : NULL;
    if (name == NULL) {
        PyErr_Clear();
        name = "?";
    }
    PyOS_snprintf(msgbuf, bufsize, "must be %.50s, not %.50s", expected, name);
    Py_XDECREF(type);
    return msgbuf;
}

/* seterror(): "f() argument 2 must be ..." unless an error is set. */
static inline void
clinic_seterror(Py_ssize_t iarg, const char *msg, const char *fname,
                const char *message)
{
    char buf[512];
    char *p = buf;
    if (PyErr_Occurred()) {
        return;
    }
    if (message == NULL) {
        if (fname != NULL) {
            PyOS_snprintf(p, sizeof(buf), "%.200s() ", fname);
            p += strlen(p);
        }
        if (iarg != 0) {
            PyOS_snprintf(p, sizeof(buf) - (size_t)(p - buf), "argument %zd",
                          iarg);
        }
        else {
            PyOS_snprintf(p, sizeof(buf) - (size_t)(p - buf), "argument");
        }
        p += strlen(p);
        PyOS_snprintf(p, sizeof(buf) - (size_t)(p - buf), " %.256s", msg);
        message = buf;
    }
    PyErr_SetString(msg[0] == '(' ? PyExc_SystemError : PyExc_TypeError,
                    message);
}

#if !defined(Py_LIMITED_API) || Py_LIMITED_API + 0 >= 0x030B0000
/* getbuffer(): a C-contiguous buffer of arg. */
static inline int
clinic_getbuffer(PyObject *arg, Py_buffer *view, const char **errmsg)
{
    if (PyObject_GetBuffer(arg, view, PyBUF_SIMPLE) != 0) {
        *errmsg = "bytes-like object";
        return -1;
    }
    if (!PyBuffer_IsContiguous(view, 'C')) {
        PyBuffer_Release(view);
        *errmsg = "contiguous buffer";
        return -1;
    }
    return 0;
}

/* Whether arg's type releases its buffers: one that does has no
   read-only bytes to lend past the call. */
static inline int
clinic_releases_buffer(PyObject *arg)
{
#if defined(Py_LIMITED_API)
    return PyType_GetSlot(Py_TYPE(arg), Py_bf_releasebuffer) != NULL;
#else
    PyBufferProcs *pb = Py_TYPE(arg)->tp_as_buffer;
    return pb != NULL && pb->bf_releasebuffer != NULL;
#endif
}

/* convertbuffer(): the bytes of a read-only bytes-like object. */
static inline Py_ssize_t
clinic_convertbuffer(PyObject *arg, const void **p, const char **errmsg)
{
    Py_buffer view;
    *errmsg = NULL;
    *p = NULL;
    if (clinic_releases_buffer(arg)) {
        *errmsg = "read-only bytes-like object";
        return -1;
    }
    if (clinic_getbuffer(arg, &view, errmsg) < 0) {
        return -1;
    }
    Py_ssize_t count = view.len;
    *p = view.buf;
    PyBuffer_Release(&view);
    return count;
}
#  define CLINIC_HAVE_BUFFER 1
#endif

#define CLINIC_CONV_UNICODE "(unicode conversion error)"

/* convertsimple(): one argument by its format unit; NULL, or the message
   of the TypeError to raise. */
static inline const char *
clinic_convertsimple(PyObject *arg, const char **p_format, va_list *p_va,
                     char *msgbuf, size_t bufsize, clinic_freelist *freelist)
{
    const char *format = *p_format;
    char c = *format++;

    switch (c) {
    case 'b': {
        char *p = va_arg(*p_va, char *);
        long ival = ClinicLong_AsLong(arg);
        if (ival == -1 && PyErr_Occurred()) {
            return msgbuf;
        }
        else if (ival < 0) {
            PyErr_SetString(PyExc_OverflowError,
                            "unsigned byte integer is less than minimum");
            return msgbuf;
        }
        else if (ival > UCHAR_MAX) {
            PyErr_SetString(PyExc_OverflowError,
                            "unsigned byte integer is greater than maximum");
            return msgbuf;
        }
        *p = (char)(unsigned char)ival;
        break;
    }
    case 'B': {
        char *p = va_arg(*p_va, char *);
        unsigned long ival = ClinicLong_AsUnsignedLongMask(arg);
        if (ival == (unsigned long)-1 && PyErr_Occurred()) {
            return msgbuf;
        }
        *p = (char)(unsigned char)ival;
        break;
    }
    case 'h': {
        short *p = va_arg(*p_va, short *);
        long ival = ClinicLong_AsLong(arg);
        if (ival == -1 && PyErr_Occurred()) {
            return msgbuf;
        }
        else if (ival < SHRT_MIN) {
            PyErr_SetString(PyExc_OverflowError,
                            "signed short integer is less than minimum");
            return msgbuf;
        }
        else if (ival > SHRT_MAX) {
            PyErr_SetString(PyExc_OverflowError,
                            "signed short integer is greater than maximum");
            return msgbuf;
        }
        *p = (short)ival;
        break;
    }
    case 'H': {
        unsigned short *p = va_arg(*p_va, unsigned short *);
        unsigned long ival = ClinicLong_AsUnsignedLongMask(arg);
        if (ival == (unsigned long)-1 && PyErr_Occurred()) {
            return msgbuf;
        }
        *p = (unsigned short)ival;
        break;
    }
    case 'i': {
        int *p = va_arg(*p_va, int *);
        long ival = ClinicLong_AsLong(arg);
        if (ival == -1 && PyErr_Occurred()) {
            return msgbuf;
        }
        else if (ival > INT_MAX) {
            PyErr_SetString(PyExc_OverflowError,
                            "signed integer is greater than maximum");
            return msgbuf;
        }
        else if (ival < INT_MIN) {
            PyErr_SetString(PyExc_OverflowError,
                            "signed integer is less than minimum");
            return msgbuf;
        }
        *p = (int)ival;
        break;
    }
    case 'I': {
        unsigned int *p = va_arg(*p_va, unsigned int *);
        unsigned long ival = ClinicLong_AsUnsignedLongMask(arg);
        if (ival == (unsigned long)-1 && PyErr_Occurred()) {
            return msgbuf;
        }
        *p = (unsigned int)ival;
        break;
    }
    case 'n': {
        Py_ssize_t *p = va_arg(*p_va, Py_ssize_t *);
        Py_ssize_t ival = -1;
        PyObject *iobj = PyNumber_Index(arg);
        if (iobj != NULL) {
            ival = PyLong_AsSsize_t(iobj);
            Py_DECREF(iobj);
        }
        if (ival == -1 && PyErr_Occurred()) {
            return msgbuf;
        }
        *p = ival;
        break;
    }
    case 'l': {
        long *p = va_arg(*p_va, long *);
        long ival = ClinicLong_AsLong(arg);
        if (ival == -1 && PyErr_Occurred()) {
            return msgbuf;
        }
        *p = ival;
        break;
    }
    case 'k': {
        unsigned long *p = va_arg(*p_va, unsigned long *);
        if (!PyLong_Check(arg)) {
            return clinic_converterr("int", arg, msgbuf, bufsize);
        }
        *p = PyLong_AsUnsignedLongMask(arg);
        break;
    }
    case 'L': {
        long long *p = va_arg(*p_va, long long *);
        long long ival = ClinicLong_AsLongLong(arg);
        if (ival == (long long)-1 && PyErr_Occurred()) {
            return msgbuf;
        }
        *p = ival;
        break;
    }
    case 'K': {
        unsigned long long *p = va_arg(*p_va, unsigned long long *);
        if (!PyLong_Check(arg)) {
            return clinic_converterr("int", arg, msgbuf, bufsize);
        }
        *p = PyLong_AsUnsignedLongLongMask(arg);
        break;
    }
    case 'f': {
        float *p = va_arg(*p_va, float *);
        double dval = ClinicFloat_AsDouble(arg);
        if (dval == -1.0 && PyErr_Occurred()) {
            return msgbuf;
        }
        *p = (float)dval;
        break;
    }
    case 'd': {
        double *p = va_arg(*p_va, double *);
        double dval = ClinicFloat_AsDouble(arg);
        if (dval == -1.0 && PyErr_Occurred()) {
            return msgbuf;
        }
        *p = dval;
        break;
    }
#if !defined(Py_LIMITED_API)
    case 'D': {
        Py_complex *p = va_arg(*p_va, Py_complex *);
        Py_complex cval = ClinicComplex_AsCComplex(arg);
        if (PyErr_Occurred()) {
            return msgbuf;
        }
        *p = cval;
        break;
    }
#endif
    case 'c': {
        char *p = va_arg(*p_va, char *);
        if (PyBytes_Check(arg) && PyBytes_Size(arg) == 1) {
            *p = ClinicBytes_AS_STRING(arg)[0];
        }
        else if (PyByteArray_Check(arg) && PyByteArray_Size(arg) == 1) {
            *p = ClinicByteArray_AS_STRING(arg)[0];
        }
        else {
            return clinic_converterr("a byte string of length 1", arg, msgbuf,
                                     bufsize);
        }
        break;
    }
    case 'C': {
        int *p = va_arg(*p_va, int *);
        if (!PyUnicode_Check(arg)) {
            return clinic_converterr("a unicode character", arg, msgbuf,
                                     bufsize);
        }
        Py_ssize_t len = PyUnicode_GetLength(arg);
        if (len < 0) {
            return msgbuf;
        }
        if (len != 1) {
            return clinic_converterr("a unicode character", arg, msgbuf,
                                     bufsize);
        }
        *p = (int)PyUnicode_ReadChar(arg, 0);
        break;
    }
    case 'p': {
        int *p = va_arg(*p_va, int *);
        int val = PyObject_IsTrue(arg);
        if (val < 0) {
            return msgbuf;
        }
        *p = val > 0;
        break;
    }
#if defined(CLINIC_HAVE_BUFFER)
    case 'y': {
        void **p = (void **)va_arg(*p_va, char **);
        const char *buf;
        if (*format == '*') {
            if (clinic_getbuffer(arg, (Py_buffer *)p, &buf) < 0) {
                return clinic_converterr(buf, arg, msgbuf, bufsize);
            }
            format++;
            clinic_add_cleanup(freelist, p, clinic_cleanup_buffer);
            break;
        }
        Py_ssize_t count = clinic_convertbuffer(arg, (const void **)p, &buf);
        if (count < 0) {
            return clinic_converterr(buf, arg, msgbuf, bufsize);
        }
        if (*format == '#') {
            Py_ssize_t *psize = va_arg(*p_va, Py_ssize_t *);
            *psize = count;
            format++;
        }
        else if (strlen((const char *)*p) != (size_t)count) {
            PyErr_SetString(PyExc_ValueError, "embedded null byte");
            return msgbuf;
        }
        break;
    }
#endif
    case 's':
    case 'z': {
        const char *sarg;
        Py_ssize_t len;
        if (*format == '*') {
#if defined(CLINIC_HAVE_BUFFER)
            Py_buffer *p = va_arg(*p_va, Py_buffer *);
            if (c == 'z' && arg == Py_None) {
                PyBuffer_FillInfo(p, NULL, NULL, 0, 1, 0);
            }
            else if (PyUnicode_Check(arg)) {
                sarg = PyUnicode_AsUTF8AndSize(arg, &len);
                if (sarg == NULL) {
                    return clinic_converterr(CLINIC_CONV_UNICODE, arg, msgbuf,
                                             bufsize);
                }
                PyBuffer_FillInfo(p, arg, (void *)sarg, len, 1, 0);
            }
            else {
                const char *buf;
                if (clinic_getbuffer(arg, p, &buf) < 0) {
                    return clinic_converterr(buf, arg, msgbuf, bufsize);
                }
            }
            clinic_add_cleanup(freelist, p, clinic_cleanup_buffer);
            format++;
#else
            return clinic_converterr("(Py_buffer needs the Limited API 3.11)",
                                     arg, msgbuf, bufsize);
#endif
        }
        else if (*format == '#') {
            const void **p = (const void **)va_arg(*p_va, const char **);
            Py_ssize_t *psize = va_arg(*p_va, Py_ssize_t *);
            if (c == 'z' && arg == Py_None) {
                *p = NULL;
                *psize = 0;
            }
            else if (PyUnicode_Check(arg)) {
                sarg = PyUnicode_AsUTF8AndSize(arg, &len);
                if (sarg == NULL) {
                    return clinic_converterr(CLINIC_CONV_UNICODE, arg, msgbuf,
                                             bufsize);
                }
                *p = sarg;
                *psize = len;
            }
            else {
#if defined(CLINIC_HAVE_BUFFER)
                const char *buf;
                Py_ssize_t count = clinic_convertbuffer(arg, p, &buf);
                if (count < 0) {
                    return clinic_converterr(buf, arg, msgbuf, bufsize);
                }
                *psize = count;
#else
                return clinic_converterr(c == 'z' ? "str or None" : "str",
                                         arg, msgbuf, bufsize);
#endif
            }
            format++;
        }
        else {
            const char **p = va_arg(*p_va, const char **);
            if (c == 'z' && arg == Py_None) {
                *p = NULL;
            }
            else if (PyUnicode_Check(arg)) {
                sarg = PyUnicode_AsUTF8AndSize(arg, &len);
                if (sarg == NULL) {
                    return clinic_converterr(CLINIC_CONV_UNICODE, arg, msgbuf,
                                             bufsize);
                }
                if (strlen(sarg) != (size_t)len) {
                    PyErr_SetString(PyExc_ValueError,
                                    "embedded null character");
                    return msgbuf;
                }
                *p = sarg;
            }
            else {
                return clinic_converterr(c == 'z' ? "str or None" : "str",
                                         arg, msgbuf, bufsize);
            }
        }
        break;
    }
    case 'u':
    case 'Z': {
        /* Py_UNICODE is wchar_t; the string is allocated, and freed by the
           parser's cleanup (3.11 lent one cached in the str) */
        wchar_t **p = va_arg(*p_va, wchar_t **);
        Py_ssize_t *psize = NULL;
        if (*format == '#') {
            psize = va_arg(*p_va, Py_ssize_t *);
            format++;
        }
        if (PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                             "getargs: The '%c' format is deprecated. "
                             "Use 'U' instead.", c)) {
            return msgbuf;
        }
        if (c == 'Z' && arg == Py_None) {
            *p = NULL;
            if (psize) {
                *psize = 0;
            }
        }
        else if (PyUnicode_Check(arg)) {
            Py_ssize_t len;
            *p = PyUnicode_AsWideCharString(arg, &len);
            if (*p == NULL) {
                return msgbuf;
            }
            clinic_add_cleanup(freelist, p, clinic_cleanup_ptr);
            if (psize) {
                *psize = len;
            }
            else if (wcslen(*p) != (size_t)len) {
                PyErr_SetString(PyExc_ValueError, "embedded null character");
                return msgbuf;
            }
        }
        else {
            return clinic_converterr(c == 'Z' ? "str or None" : "str", arg,
                                     msgbuf, bufsize);
        }
        break;
    }
    case 'e': {
        const char *encoding = va_arg(*p_va, const char *);
        int recode_strings;
        PyObject *s;
        Py_ssize_t size;
        const char *ptr;
        if (encoding == NULL) {
            encoding = "utf-8";
        }
        if (*format == 's') {
            recode_strings = 1;
        }
        else if (*format == 't') {
            recode_strings = 0;
        }
        else {
            return clinic_converterr("(unknown parser marker combination)",
                                     arg, msgbuf, bufsize);
        }
        char **buffer = va_arg(*p_va, char **);
        format++;
        if (buffer == NULL) {
            return clinic_converterr("(buffer is NULL)", arg, msgbuf, bufsize);
        }
        if (!recode_strings &&
            (PyBytes_Check(arg) || PyByteArray_Check(arg))) {
            s = Clinic_NewRef(arg);
            if (PyBytes_Check(arg)) {
                size = PyBytes_Size(s);
                ptr = PyBytes_AsString(s);
            }
            else {
                size = PyByteArray_Size(s);
                ptr = PyByteArray_AsString(s);
            }
        }
        else if (PyUnicode_Check(arg)) {
            s = PyUnicode_AsEncodedString(arg, encoding, NULL);
            if (s == NULL) {
                return clinic_converterr("(encoding failed)", arg, msgbuf,
                                         bufsize);
            }
            size = PyBytes_Size(s);
            ptr = PyBytes_AsString(s);
            if (ptr == NULL) {
                ptr = "";
            }
        }
        else {
            return clinic_converterr(recode_strings ? "str"
                                                    : "str, bytes or bytearray",
                                     arg, msgbuf, bufsize);
        }
        if (*format == '#') {
            Py_ssize_t *psize = va_arg(*p_va, Py_ssize_t *);
            format++;
            if (psize == NULL) {
                Py_DECREF(s);
                return clinic_converterr("(buffer_len is NULL)", arg, msgbuf,
                                         bufsize);
            }
            if (*buffer == NULL) {
                *buffer = (char *)PyMem_Malloc((size_t)size + 1);
                if (*buffer == NULL) {
                    Py_DECREF(s);
                    PyErr_NoMemory();
                    return msgbuf;
                }
                clinic_add_cleanup(freelist, buffer, clinic_cleanup_ptr);
            }
            else if (size + 1 > *psize) {
                Py_DECREF(s);
                PyErr_Format(PyExc_ValueError,
                             "encoded string too long "
                             "(%zd, maximum length %zd)",
                             size, (Py_ssize_t)(*psize - 1));
                return msgbuf;
            }
            memcpy(*buffer, ptr, (size_t)size + 1);
            *psize = size;
        }
        else {
            if ((Py_ssize_t)strlen(ptr) != size) {
                Py_DECREF(s);
                return clinic_converterr("encoded string without null bytes",
                                         arg, msgbuf, bufsize);
            }
            *buffer = (char *)PyMem_Malloc((size_t)size + 1);
            if (*buffer == NULL) {
                Py_DECREF(s);
                PyErr_NoMemory();
                return msgbuf;
            }
            clinic_add_cleanup(freelist, buffer, clinic_cleanup_ptr);
            memcpy(*buffer, ptr, (size_t)size + 1);
        }
        Py_DECREF(s);
        break;
    }
    case 'S': {
        PyObject **p = va_arg(*p_va, PyObject **);
        if (!PyBytes_Check(arg)) {
            return clinic_converterr("bytes", arg, msgbuf, bufsize);
        }
        *p = arg;
        break;
    }
    case 'Y': {
        PyObject **p = va_arg(*p_va, PyObject **);
        if (!PyByteArray_Check(arg)) {
            return clinic_converterr("bytearray", arg, msgbuf, bufsize);
        }
        *p = arg;
        break;
    }
    case 'U': {
        PyObject **p = va_arg(*p_va, PyObject **);
        if (!PyUnicode_Check(arg)) {
            return clinic_converterr("str", arg, msgbuf, bufsize);
        }
        if (ClinicUnicode_READY(arg) == -1) {
            return msgbuf;
        }
        *p = arg;
        break;
    }
    case 'O': {
        if (*format == '!') {
            PyTypeObject *type = va_arg(*p_va, PyTypeObject *);
            PyObject **p = va_arg(*p_va, PyObject **);
            format++;
            if (!PyObject_TypeCheck(arg, type)) {
                return clinic_converterr(ClinicType_NAME(type), arg, msgbuf,
                                         bufsize);
            }
            *p = arg;
        }
        else if (*format == '&') {
            typedef int (*converter)(PyObject *, void *);
            converter convert = va_arg(*p_va, converter);
            void *addr = va_arg(*p_va, void *);
            int res;
            format++;
            if (!(res = (*convert)(arg, addr))) {
                return clinic_converterr("(unspecified)", arg, msgbuf,
                                         bufsize);
            }
            if (res == Py_CLEANUP_SUPPORTED) {
                clinic_add_cleanup(freelist, addr, convert);
            }
        }
        else {
            PyObject **p = va_arg(*p_va, PyObject **);
            *p = arg;
        }
        break;
    }
#if defined(CLINIC_HAVE_BUFFER)
    case 'w': {
        void **p = va_arg(*p_va, void **);
        if (*format != '*') {
            return clinic_converterr("(invalid use of 'w' format character)",
                                     arg, msgbuf, bufsize);
        }
        format++;
        if (PyObject_GetBuffer(arg, (Py_buffer *)p, PyBUF_WRITABLE) < 0) {
            PyErr_Clear();
            return clinic_converterr("read-write bytes-like object", arg,
                                     msgbuf, bufsize);
        }
        if (!PyBuffer_IsContiguous((Py_buffer *)p, 'C')) {
            PyBuffer_Release((Py_buffer *)p);
            return clinic_converterr("contiguous buffer", arg, msgbuf,
                                     bufsize);
        }
        clinic_add_cleanup(freelist, p, clinic_cleanup_buffer);
        break;
    }
#endif
    default:
        return clinic_converterr("(impossible<bad format char>)", arg, msgbuf,
                                 bufsize);
    }
    *p_format = format;
    return NULL;
}

/* skipitem(): past one format unit, and past its va_list arguments. */
static inline void
clinic_skipitem(const char **p_format, va_list *p_va)
{
    const char *format = *p_format;
    char c = *format++;
    switch (c) {
    case 'e':
        (void)va_arg(*p_va, const char *);
        (void)va_arg(*p_va, char **);
        format++;                           /* 's' or 't' */
        if (*format == '#') {
            (void)va_arg(*p_va, Py_ssize_t *);
            format++;
        }
        break;
    case 'O':
        if (*format == '!') {
            (void)va_arg(*p_va, PyTypeObject *);
            (void)va_arg(*p_va, PyObject **);
            format++;
        }
        else if (*format == '&') {
            (void)va_arg(*p_va, int (*)(PyObject *, void *));
            (void)va_arg(*p_va, void *);
            format++;
        }
        else {
            (void)va_arg(*p_va, void *);
        }
        break;
    default:
        (void)va_arg(*p_va, void *);
        if (*format == '#') {
            (void)va_arg(*p_va, Py_ssize_t *);
            format++;
        }
        else if (*format == '*') {
            format++;
        }
        break;
    }
    *p_format = format;
}

/* The end of a format string's units, and its ":name" or ";message". */
static inline void
clinic_format_tail(const char *format, int *min, int *max,
                   const char **fname, const char **message)
{
    *min = -1;
    *max = 0;
    *fname = NULL;
    *message = NULL;
    for (;;) {
        int c = *format++;
        if (c == '\0') {
            break;
        }
        if (c == ':') {
            *fname = format;
            break;
        }
        if (c == ';') {
            *message = format;
            break;
        }
        if (c == '|') {
            *min = *max;
        }
        else if (((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) &&
                 c != 'e') {
            (*max)++;
        }
    }
    if (*min < 0) {
        *min = *max;
    }
}

/* vgetargs1_impl(): positional arguments by a format string; compat is
   PyArg_Parse()'s one argument. */
static inline int
clinic_vgetargs1(PyObject *compat_arg, PyObject *const *stack, Py_ssize_t nargs,
                 const char *format, va_list *p_va, int compat)
{
    char msgbuf[256];
    int min, max;
    const char *fname, *message, *msg;
    clinic_freelist freelist;
    clinic_format_tail(format, &min, &max, &fname, &message);
    if (!clinic_freelist_init(&freelist, max)) {
        return 0;
    }
    if (compat) {
        if (max == 0) {
            if (compat_arg == NULL) {
                return clinic_clean_return(1, &freelist);
            }
            PyErr_Format(PyExc_TypeError, "%.200s%s takes no arguments",
                         fname == NULL ? "function" : fname,
                         fname == NULL ? "" : "()");
            return clinic_clean_return(0, &freelist);
        }
        else if (min == 1 && max == 1) {
            if (compat_arg == NULL) {
                PyErr_Format(PyExc_TypeError,
                             "%.200s%s takes at least one argument",
                             fname == NULL ? "function" : fname,
                             fname == NULL ? "" : "()");
                return clinic_clean_return(0, &freelist);
            }
            msg = clinic_convertsimple(compat_arg, &format, p_va, msgbuf,
                                       sizeof(msgbuf), &freelist);
            if (msg == NULL) {
                return clinic_clean_return(1, &freelist);
            }
            clinic_seterror(0, msg, fname, message);
            return clinic_clean_return(0, &freelist);
        }
        PyErr_SetString(PyExc_SystemError,
                        "old style getargs format uses new features");
        return clinic_clean_return(0, &freelist);
    }
    if (nargs < min || max < nargs) {
        if (message == NULL) {
            PyErr_Format(PyExc_TypeError,
                         "%.150s%s takes %s %d argument%s (%zd given)",
                         fname == NULL ? "function" : fname,
                         fname == NULL ? "" : "()",
                         min == max ? "exactly"
                                    : nargs < min ? "at least" : "at most",
                         nargs < min ? min : max,
                         (nargs < min ? min : max) == 1 ? "" : "s", nargs);
        }
        else {
            PyErr_SetString(PyExc_TypeError, message);
        }
        return clinic_clean_return(0, &freelist);
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        if (*format == '|') {
            format++;
        }
        msg = clinic_convertsimple(stack[i], &format, p_va, msgbuf,
                                   sizeof(msgbuf), &freelist);
        if (msg) {
            clinic_seterror(i + 1, msg, fname, message);
            return clinic_clean_return(0, &freelist);
        }
    }
    return clinic_clean_return(1, &freelist);
}

/* PyArg_Parse(): METH_O's one argument by a format string. */
static inline int
ClinicArg_Parse(PyObject *arg, const char *format, ...)
{
    va_list va;
    va_start(va, format);
    int r = clinic_vgetargs1(arg, NULL, 0, format, &va, 1);
    va_end(va);
    return r;
}

/* Positional arguments by a format string. */
static inline int
ClinicArg_ParseStack(PyObject *const *args, Py_ssize_t nargs,
                     const char *format, ...)
{
    va_list va;
    va_start(va, format);
    int r = clinic_vgetargs1(NULL, args, nargs, format, &va, 0);
    va_end(va);
    return r;
}

/* PyArg_ParseTuple(), as the option groups' parsers call it: the items of
   the tuple by a format string. */
static inline int
ClinicArg_ParseTuple(PyObject *args, const char *format, ...)
{
    va_list va;
    int r;
    va_start(va, format);
    if (!PyTuple_Check(args)) {
        PyErr_SetString(PyExc_SystemError,
                        "new style getargs format but argument is not a tuple");
        r = 0;
    }
    else {
        Py_ssize_t nargs = PyTuple_Size(args);
#if defined(Py_LIMITED_API)
        PyObject *small[8];
        PyObject **stack = small;
        if (nargs > 8) {
            stack = (PyObject **)PyMem_Malloc(sizeof(PyObject *) * (size_t)nargs);
        }
        if (stack == NULL) {
            PyErr_NoMemory();
            r = 0;
        }
        else {
            for (Py_ssize_t i = 0; i < nargs; i++) {
                stack[i] = PyTuple_GetItem(args, i);
            }
            r = clinic_vgetargs1(NULL, stack, nargs, format, &va, 0);
            if (stack != small) {
                PyMem_Free(stack);
            }
        }
#else
        r = clinic_vgetargs1(NULL, ClinicTuple_ITEMS(args), nargs, format, &va,
                             0);
#endif
    }
    va_end(va);
    return r;
}

/* vgetargskeywordsfast_impl(): positional and keyword arguments by the
   parser's format string, converted as they are found. */
static inline int
clinic_vgetargskeywordsfast(PyObject *const *args, PyObject *tuple,
                            Py_ssize_t nargs, PyObject *kwargs,
                            PyObject *kwnames,
                            const ClinicArg_Parser *parser, va_list *p_va)
{
    char msgbuf[512];
    const char *msg;
    PyObject *current_arg;
    clinic_call call;
    clinic_freelist freelist;
    int i, pos, len, min, max;
    const char *format = parser->format;
    const char *fname, *custom_msg;

    if (kwnames != NULL && !PyTuple_Check(kwnames)) {
        PyErr_BadInternalCall();
        return 0;
    }
    clinic_call_init(&call, args, tuple, nargs, kwargs, kwnames);
    clinic_count_keywords(parser, &pos, &len);
    /* parser_init(): where the optional and keyword-only ones start */
    fname = strchr(format, ':');
    custom_msg = NULL;
    if (fname) {
        fname++;
    }
    else {
        custom_msg = strchr(format, ';');
        if (custom_msg) {
            custom_msg++;
        }
    }
    min = max = INT_MAX;
    {
        const char *f = format;
        for (i = 0; i < len; i++) {
            if (*f == '|') {
                min = i;
                f++;
            }
            if (*f == '$') {
                max = i;
                f++;
            }
            /* one unit: a letter ("es" and "et": two), and its modifier */
            if (*f == 'e') {
                f++;
            }
            if (*f) {
                f++;
            }
            if (*f == '#' || *f == '*' || *f == '!' || *f == '&') {
                f++;
            }
        }
    }
    if (min > len) {
        min = len;
    }
    if (max > len) {
        max = len;
    }
    if (!clinic_freelist_init(&freelist, len)) {
        return 0;
    }
    Py_ssize_t nkwargs = call.nkwargs;

    if (nargs + nkwargs > len) {
        PyErr_Format(PyExc_TypeError,
                     "%.200s%s takes at most %d %sargument%s (%zd given)",
                     fname == NULL ? "function" : fname,
                     fname == NULL ? "" : "()", len,
                     (nargs == 0) ? "keyword " : "", (len == 1) ? "" : "s",
                     nargs + nkwargs);
        return clinic_clean_return(0, &freelist);
    }
    if (max < nargs) {
        if (max == 0) {
            PyErr_Format(PyExc_TypeError,
                         "%.200s%s takes no positional arguments",
                         fname == NULL ? "function" : fname,
                         fname == NULL ? "" : "()");
        }
        else {
            PyErr_Format(PyExc_TypeError,
                         "%.200s%s takes %s %d positional argument%s (%zd given)",
                         fname == NULL ? "function" : fname,
                         fname == NULL ? "" : "()",
                         (min < max) ? "at most" : "exactly", max,
                         max == 1 ? "" : "s", nargs);
        }
        return clinic_clean_return(0, &freelist);
    }

    for (i = 0; i < len; i++) {
        if (*format == '|') {
            format++;
        }
        if (*format == '$') {
            format++;
        }
        if (i < nargs) {
            current_arg = clinic_arg(&call, i);
        }
        else if (nkwargs && i >= pos) {
            current_arg = clinic_find_keyword(&call, parser->keywords[i]);
            if (current_arg) {
                --nkwargs;
            }
        }
        else {
            current_arg = NULL;
        }

        if (current_arg) {
            msg = clinic_convertsimple(current_arg, &format, p_va, msgbuf,
                                       sizeof(msgbuf), &freelist);
            if (msg) {
                clinic_seterror(i + 1, msg, fname, custom_msg);
                return clinic_clean_return(0, &freelist);
            }
            continue;
        }

        if (i < min) {
            if (i < pos) {
                int m = pos < min ? pos : min;
                PyErr_Format(PyExc_TypeError,
                             "%.200s%s takes %s %d positional argument%s"
                             " (%zd given)",
                             fname == NULL ? "function" : fname,
                             fname == NULL ? "" : "()",
                             m < max ? "at least" : "exactly", m,
                             m == 1 ? "" : "s", nargs);
            }
            else {
                PyErr_Format(PyExc_TypeError,
                             "%.200s%s missing required argument '%s' (pos %d)",
                             fname == NULL ? "function" : fname,
                             fname == NULL ? "" : "()", parser->keywords[i],
                             i + 1);
            }
            return clinic_clean_return(0, &freelist);
        }
        if (!nkwargs) {
            return clinic_clean_return(1, &freelist);
        }
        clinic_skipitem(&format, p_va);
    }

    if (nkwargs > 0) {
        for (i = pos; i < nargs; i++) {
            if (clinic_find_keyword(&call, parser->keywords[i])) {
                PyErr_Format(PyExc_TypeError,
                             "argument for %.200s%s given by name ('%s') "
                             "and position (%d)",
                             fname == NULL ? "function" : fname,
                             fname == NULL ? "" : "()", parser->keywords[i],
                             i + 1);
                return clinic_clean_return(0, &freelist);
            }
        }
        ClinicArg_Parser named = *parser;
        named.fname = fname;
        clinic_unexpected_keyword(&call, &named, pos);
        return clinic_clean_return(0, &freelist);
    }
    return clinic_clean_return(1, &freelist);
}

/* A vectorcall's arguments by the
   parser's format string. */
static inline int
ClinicArg_ParseStackAndKeywords(PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames, ClinicArg_Parser *parser,
                                ...)
{
    va_list va;
    va_start(va, parser);
    int r = clinic_vgetargskeywordsfast(args, NULL, nargs, NULL, kwnames,
                                        parser, &va);
    va_end(va);
    return r;
}

/* __new__'s and __init__'s arguments by the parser's format string. */
static inline int
ClinicArg_ParseTupleAndKeywordsFast(PyObject *args, PyObject *kwargs,
                                    ClinicArg_Parser *parser, ...)
{
    va_list va;
    int r;
    va_start(va, parser);
    if (args == NULL || !PyTuple_Check(args) ||
        (kwargs != NULL && !PyDict_Check(kwargs))) {
        PyErr_BadInternalCall();
        r = 0;
    }
    else {
        r = clinic_vgetargskeywordsfast(NULL, args, PyTuple_Size(args),
                                        kwargs, NULL, parser, &va);
    }
    va_end(va);
    return r;
}

#endif /* CLINIC_PORTABLE_H */
