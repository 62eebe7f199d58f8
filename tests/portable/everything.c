/*
 * everything.c — every converter, return converter and calling
 * convention of the 3.11 DSL in one module, for make portable: built from
 * clinic's 3.11 output on CPython 3.11 (the oracle) and from its portable
 * output on 3.9 to 3.13 and as abi3, it must answer tests/portable/calls.py's
 * calls the same way.  Each function returns what it was given, so that a
 * converted value that differs shows.
 *
 * What the Limited API 3.10 lacks (Py_buffer, Py_complex, PyBytesObject,
 * PyByteArrayObject, reading a bytes-like object) is under #if, as a
 * module would have it; the abi3 build leaves it out.
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"

#if !defined(Py_LIMITED_API) || Py_LIMITED_API+0 >= 0x030B0000
#  define HAVE_BUFFER 1
#endif

static PyTypeObject *Thing_Type, *Pos_Type;

/* newref() is 3.10's */
static PyObject *
newref(PyObject *o)
{
    Py_INCREF(o);
    return o;
}

/* Converters written as a module would write them. */
static int
even_converter(PyObject *obj, void *ptr)
{
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred()) {
        return 0;
    }
    if (v % 2) {
        PyErr_SetString(PyExc_ValueError, "not even");
        return 0;
    }
    *(long *)ptr = v;
    return 1;
}

#include "clinic/everything.c.h"

/*[clinic input]
module everything
class everything.Thing "PyObject *" "Thing_Type"
class everything.Pos "PyObject *" "Pos_Type"
[clinic start generated code]*/

/*[python input]
class even_converter(CConverter):
    type = 'long'
    converter = 'even_converter'

class small_converter(int_converter):
    default = 3

class percent_converter(int_converter):
    # a converter with methods: its own parsing code, in CPython's
    # private words (3.11's _PyLong_AsInt), which the portable target
    # renames like the built-in converters' code
    def converter_init(self, *, cap=100):
        self.cap = cap

    def parse_arg(self, argname, displayname):
        return '''
            {paramname} = _PyLong_AsInt({argname});
            if ({paramname} == -1 && PyErr_Occurred()) {{{{
                goto exit;
            }}}}
            if ({paramname} < 0 || {paramname} > {cap}) {{{{
                PyErr_SetString(PyExc_ValueError, "not a percentage");
                goto exit;
            }}}}
            '''.format(argname=argname, paramname=self.parser_name,
                       cap=self.cap)
[python start generated code]*/

/* ---- integers ---------------------------------------------------------- */

/*[clinic input]
everything.ints

    a: byte
    b: byte(bitwise=True)
    c: unsigned_char
    d: short
    e: unsigned_short
    f: unsigned_short(bitwise=True)
    g: int
    h: unsigned_int
    i: unsigned_int(bitwise=True)
    j: long
    k: unsigned_long
    l: unsigned_long(bitwise=True)
    m: long_long
    n: unsigned_long_long
    o: unsigned_long_long(bitwise=True)
    p: size_t
    q: Py_ssize_t
    /

Integers, positional-only.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(iiiiiiiIIlkkLKKnn)", (int)a, (int)b, (int)c,
                         (int)d, (int)e, (int)f, g, h, i, j, k, l, m, n, o,
                         (Py_ssize_t)p, q);
}

/*[clinic input]
everything.ints_kw

    a: unsigned_short
    b: unsigned_int = 0
    *
    c: unsigned_long = 0
    d: unsigned_long_long = 0
    e: size_t = 0
    f: Py_ssize_t(accept={int, NoneType}) = 7
    g: slice_index = 5
    h: slice_index(accept={int}) = 6

Integers by keyword, their O& converters.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(IIkKnnnn)", (unsigned int)a, b, c, d,
                         (Py_ssize_t)e, f, g, h);
}

/* ---- other scalars ----------------------------------------------------- */

/*[clinic input]
everything.scalars

    a: bool
    b: bool(accept={int}) = False
    c: char = b'x'
    d: int(accept={str}) = 65
    e: float = 1.5
    f: double = 2.5
    g: fildes = 0
    h: even = 2
    i: small = 4
    j: long(c_default="-5") = -5

Truth values, characters, floating point and the rest.

File descriptors, and custom converters from a python block.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(iiciddilil)", a, b, c, d, (double)e, f, g, h, i, j);
}

/*[clinic input]
everything.percent

    p: percent
    q: percent(cap=50) = 10

Custom converters with their own parse_arg() from a python block.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(ii)", p, q);
}

#ifndef Py_LIMITED_API
/*[clinic input]
everything.complex

    z: Py_complex
    /

A complex number (not in the Limited API).
[clinic start generated code]*/
{
    (void)module;
    return PyComplex_FromCComplex(z);
}
#endif

/* ---- objects ----------------------------------------------------------- */

/*[clinic input]
everything.objects

    a: object
    b: object(subclass_of='&PyList_Type') = NULL
    c: object(subclass_of='&PyLong_Type') = NULL
    d: object(type='PyObject *') = None
    e: unicode = NULL
    /

Objects, of a type or not.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(OOOOO)", a, b ? b : Py_None, c ? c : Py_None, d,
                         e ? e : Py_None);
}

#ifndef Py_LIMITED_API
/*[clinic input]
everything.byte_objects

    a: PyBytesObject
    b: PyByteArrayObject
    /

bytes and bytearray by their C types (not in the Limited API).
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(OO)", a, b);
}
#endif

/* ---- strings ----------------------------------------------------------- */

/*[clinic input]
everything.strings

    a: str
    b: str(accept={str, NoneType}) = None
    c: str(encoding='utf-8') = None
    d: str(encoding='latin-1', accept={str, bytes, bytearray}) = None
    e: str(encoding='ascii', zeroes=True) = None
    /

str, as UTF-8 or encoded (these take the format-string parser).
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(szzzz#)", a, b, c, d, e, e ? e_length : 0);
}

#ifdef HAVE_BUFFER
/*[clinic input]
everything.byte_strings

    a: str(accept={robuffer})
    b: str(accept={str, robuffer}, zeroes=True)
    c: str(accept={robuffer}, zeroes=True)
    d: str(accept={str, robuffer, NoneType}, zeroes=True) = None
    /

Read-only bytes-like objects (the Limited API from 3.11).

A length is set only for an argument given: d's is read only then.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(yy#y#y#)", a, b, b_length, c, c_length, d,
                         d ? d_length : 0);
}

/*[clinic input]
everything.buffers

    a: Py_buffer
    b: Py_buffer(accept={str, buffer}) = None
    c: Py_buffer(accept={rwbuffer}) = None
    d: Py_buffer(accept={str, buffer, NoneType}) = None

Buffers: read-only, from str, writable, or None.

In the Limited API from 3.11.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(y#y#nO)", (const char *)a->buf, a->len,
                         b->buf ? (const char *)b->buf : "", b->len,
                         c->len, d->obj ? d->obj : Py_None);
}
#endif

/*[clinic input]
everything.wide

    a: Py_UNICODE
    b: Py_UNICODE(accept={str, NoneType}) = None
    c: Py_UNICODE(zeroes=True) = NULL
    d: Py_UNICODE(accept={str, NoneType}, zeroes=True) = None
    /

Py_UNICODE strings, which are wchar_t (3.12 removed Py_UNICODE).
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(NNNN)", PyUnicode_FromWideChar(a, -1),
                         b ? PyUnicode_FromWideChar(b, -1) : newref(Py_None),
                         c ? PyUnicode_FromWideChar(c, c_length) : newref(Py_None),
                         d ? PyUnicode_FromWideChar(d, d_length) : newref(Py_None));
}

/* ---- calling conventions ----------------------------------------------- */

/*[clinic input]
everything.noargs

No arguments (METH_NOARGS).
[clinic start generated code]*/
{
    (void)module;
    return PyUnicode_FromString("noargs");
}

/*[clinic input]
everything.one

    a: object
    /

One object (METH_O).
[clinic start generated code]*/
{
    (void)module;
    return newref(a);
}

/*[clinic input]
everything.one_int

    a: int
    /

One int (METH_O, converted).
[clinic start generated code]*/
{
    (void)module;
    return PyLong_FromLong(a);
}

/*[clinic input]
everything.keywords

    a: object
    /
    b: object
    *
    d: object
    e: object = None

Positional-only, either, keyword-only, required or not.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(OOOO)", a, b, d, e);
}

/*[clinic input]
everything.defaults

    a: object = None
    b: object = None

Nothing required.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(OO)", a, b);
}

/*[clinic input]
everything.varargs

    a: object
    *args: object
    b: int = 0

*args, and a parameter after it.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(OOi)", a, args, b);
}

/*[clinic input]
everything.only_varargs

    *args: object
    /

Nothing but *args.
[clinic start generated code]*/
{
    (void)module;
    return newref(args);
}

/*[clinic input]
everything.groups

    [
    a: int
    b: int
    ]
    c: object
    [
    d: int
    ]
    /

Optional groups (METH_VARARGS, PyArg_ParseTuple).
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(iiiOii)", group_left_1, a, b, c, group_right_1, d);
}

/*[clinic input]
@staticmethod
everything.Thing.static

    x: int = 0

A static method.
[clinic start generated code]*/
{
    return PyLong_FromLong(x);
}

/*[clinic input]
@classmethod
everything.Thing.klass

    x: int = 0

A class method.
[clinic start generated code]*/
{
    return Py_BuildValue("(Oi)", type, x);
}

/*[clinic input]
everything.Thing.method

    cls: defining_class
    x: object = None
    /

The defining class (METH_METHOD).
[clinic start generated code]*/
{
    return Py_BuildValue("(OOO)", self, cls, x);
}

/*[clinic input]
everything.Thing.kwmethod

    cls: defining_class
    x: object
    *
    y: int = 1

The defining class, with keywords.
[clinic start generated code]*/
{
    (void)self;
    return Py_BuildValue("(OOi)", cls, x, y);
}

/*[clinic input]
@classmethod
everything.Thing.__new__ as thing_new

    value: object = None
    *
    scale: int = 1

A thing: __new__ with keywords.
[clinic start generated code]*/
{
    PyObject *self = PyType_GenericNew(type, NULL, NULL);
    (void)value;
    (void)scale;
    return self;
}

/*[clinic input]
everything.Thing.__init__ as thing_init

    value: object = None
    *
    scale: int = 1

[clinic start generated code]*/
{
    (void)self;
    (void)value;
    if (scale < 0) {
        PyErr_SetString(PyExc_ValueError, "negative scale");
        return -1;
    }
    return 0;
}

/*[clinic input]
@classmethod
everything.Pos.__new__ as pos_new

    value: object
    /

__new__ without keywords: the subclass check.
[clinic start generated code]*/
{
    (void)value;
    return PyType_GenericNew(type, NULL, NULL);
}

/*[clinic input]
everything.Pos.__init__ as pos_init

    value: object
    /

[clinic start generated code]*/
{
    (void)self;
    (void)value;
    return 0;
}

/* ---- return converters ------------------------------------------------- */

/*[clinic input]
everything.ret_bool -> bool

    x: int
    fail: bool = False
    /

[clinic start generated code]*/
{
    (void)module;
    if (fail) {
        PyErr_SetString(PyExc_ValueError, "failed");
        return -1;
    }
    return x;
}

/*[clinic input]
everything.ret_int -> int
    x: int
    fail: bool = False
    /
[clinic start generated code]*/
{
    (void)module;
    if (fail) {
        PyErr_SetString(PyExc_ValueError, "failed");
        return -1;
    }
    return x;
}

/*[clinic input]
everything.ret_long -> long
    x: long
    fail: bool = False
    /
[clinic start generated code]*/
{
    (void)module;
    if (fail) {
        PyErr_SetString(PyExc_ValueError, "failed");
        return -1;
    }
    return x;
}

/*[clinic input]
everything.ret_ssize -> Py_ssize_t
    x: Py_ssize_t
    fail: bool = False
    /
[clinic start generated code]*/
{
    (void)module;
    if (fail) {
        PyErr_SetString(PyExc_ValueError, "failed");
        return -1;
    }
    return x;
}

/*[clinic input]
everything.ret_size -> size_t
    x: size_t
    fail: bool = False
    /
[clinic start generated code]*/
{
    (void)module;
    if (fail) {
        PyErr_SetString(PyExc_ValueError, "failed");
        return (size_t)-1;
    }
    return x;
}

/*[clinic input]
everything.ret_uint -> unsigned_int
    x: unsigned_int(bitwise=True)
    fail: bool = False
    /
[clinic start generated code]*/
{
    (void)module;
    if (fail) {
        PyErr_SetString(PyExc_ValueError, "failed");
        return (unsigned int)-1;
    }
    return x;
}

/*[clinic input]
everything.ret_ulong -> unsigned_long
    x: unsigned_long(bitwise=True)
    fail: bool = False
    /
[clinic start generated code]*/
{
    (void)module;
    if (fail) {
        PyErr_SetString(PyExc_ValueError, "failed");
        return (unsigned long)-1;
    }
    return x;
}

/*[clinic input]
everything.ret_double -> double
    x: double
    fail: bool = False
    /
[clinic start generated code]*/
{
    (void)module;
    if (fail) {
        PyErr_SetString(PyExc_ValueError, "failed");
        return -1.0;
    }
    return x;
}

/*[clinic input]
everything.ret_float -> float
    x: float
    fail: bool = False
    /
[clinic start generated code]*/
{
    (void)module;
    if (fail) {
        PyErr_SetString(PyExc_ValueError, "failed");
        return -1.0f;
    }
    return x;
}

/*[clinic input]
everything.ret_none -> NoneType
    fail: bool = False
    /
[clinic start generated code]*/
{
    (void)module;
    if (fail) {
        PyErr_SetString(PyExc_ValueError, "failed");
        return NULL;
    }
    return newref(Py_None);
}

/* ---- the module -------------------------------------------------------- */

static PyMethodDef thing_methods[] = {
    EVERYTHING_THING_STATIC_METHODDEF
    EVERYTHING_THING_KLASS_METHODDEF
    EVERYTHING_THING_METHOD_METHODDEF
    EVERYTHING_THING_KWMETHOD_METHODDEF
    {NULL, NULL, 0, NULL}
};

static PyType_Slot thing_slots[] = {
    {Py_tp_new, (void *)thing_new},
    {Py_tp_init, (void *)thing_init},
    {Py_tp_methods, thing_methods},
    {0, NULL}
};

static PyType_Spec thing_spec = {
    "everything.Thing", 0, 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    thing_slots
};

static PyType_Slot pos_slots[] = {
    {Py_tp_new, (void *)pos_new},
    {Py_tp_init, (void *)pos_init},
    {0, NULL}
};

static PyType_Spec pos_spec = {
    "everything.Pos", 0, 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    pos_slots
};

static PyMethodDef everything_methods[] = {
    EVERYTHING_INTS_METHODDEF
    EVERYTHING_INTS_KW_METHODDEF
    EVERYTHING_SCALARS_METHODDEF
    EVERYTHING_PERCENT_METHODDEF
    EVERYTHING_COMPLEX_METHODDEF
    EVERYTHING_OBJECTS_METHODDEF
    EVERYTHING_BYTE_OBJECTS_METHODDEF
    EVERYTHING_STRINGS_METHODDEF
    EVERYTHING_BYTE_STRINGS_METHODDEF
    EVERYTHING_BUFFERS_METHODDEF
    EVERYTHING_WIDE_METHODDEF
    EVERYTHING_NOARGS_METHODDEF
    EVERYTHING_ONE_METHODDEF
    EVERYTHING_ONE_INT_METHODDEF
    EVERYTHING_KEYWORDS_METHODDEF
    EVERYTHING_DEFAULTS_METHODDEF
    EVERYTHING_VARARGS_METHODDEF
    EVERYTHING_ONLY_VARARGS_METHODDEF
    EVERYTHING_GROUPS_METHODDEF
    EVERYTHING_RET_BOOL_METHODDEF
    EVERYTHING_RET_INT_METHODDEF
    EVERYTHING_RET_LONG_METHODDEF
    EVERYTHING_RET_SSIZE_METHODDEF
    EVERYTHING_RET_SIZE_METHODDEF
    EVERYTHING_RET_UINT_METHODDEF
    EVERYTHING_RET_ULONG_METHODDEF
    EVERYTHING_RET_DOUBLE_METHODDEF
    EVERYTHING_RET_FLOAT_METHODDEF
    EVERYTHING_RET_NONE_METHODDEF
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef everything_module = {
    PyModuleDef_HEAD_INIT, "everything", NULL, 0, everything_methods,
    NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC
PyInit_everything(void)
{
    PyObject *m = PyModule_Create(&everything_module);
    if (m == NULL) {
        return NULL;
    }
    Thing_Type = (PyTypeObject *)PyType_FromSpec(&thing_spec);
    Pos_Type = (PyTypeObject *)PyType_FromSpec(&pos_spec);
    if (Thing_Type == NULL || Pos_Type == NULL ||
        PyModule_AddObject(m, "Thing", newref((PyObject *)Thing_Type)) < 0 ||
        PyModule_AddObject(m, "Pos", newref((PyObject *)Pos_Type)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
