/*
 * everything315.c — the syntax the 3.14 and 3.15 dialects added that
 * everything.c and everything313.c cannot hold, in one module for make
 * portable: *args: tuple and *args: array, **kwds: dict, @deleter beside
 * @getter and @setter, uint8 to uint64, unicode_fs_encoded and
 * unicode_fs_decoded, Py_ssize_t(allow_negative=False), 3.15's bitwise
 * unsigned converters (PyLong_AsNativeBytes) and @disable fastcall.
 * Built from the 3.15 dialect's own output on CPython 3.15 (the oracle)
 * and from its portable output on 3.9 to 3.15 (and as abi3, its
 * hand-written code in the Limited API 3.10), it must answer
 * tests/portable/calls.py's calls the same way.
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"

typedef struct {
    PyObject_HEAD
    PyObject *label;       /* NULL when deleted */
} BoxObject;

static PyTypeObject *Box_Type;

#include "clinic/everything315.c.h"

/*[clinic input]
module everything315
class everything315.Box "BoxObject *" "Box_Type"
[clinic start generated code]*/

/*[clinic input]
@getter
everything315.Box.label
[clinic start generated code]*/
{
    if (self->label == NULL) {
        PyErr_SetString(PyExc_AttributeError, "label");
        return NULL;
    }
    Py_INCREF(self->label);
    return self->label;
}

/*[clinic input]
@setter
@deleter
everything315.Box.label
[clinic start generated code]*/
{
    if (value != NULL && !PyUnicode_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "label must be a str");
        return -1;
    }
    PyObject *old = self->label;
    Py_XINCREF(value);
    self->label = value;
    Py_XDECREF(old);
    return 0;
}

/*[clinic input]
@disable fastcall
everything315.Box.relabel
    label: unicode
    suffix: object = None
    *
    upper: bool = False

Set the label from the argument tuple (no fastcall) and return it.
[clinic start generated code]*/
{
    PyObject *s = suffix == Py_None ? (Py_INCREF(label), label)
                                    : PyUnicode_Concat(label, suffix);
    if (s == NULL) {
        return NULL;
    }
    if (upper) {
        PyObject *u = PyObject_CallMethod(s, "upper", NULL);
        Py_DECREF(s);
        if (u == NULL) {
            return NULL;
        }
        s = u;
    }
    PyObject *old = self->label;
    self->label = s;
    Py_XDECREF(old);
    Py_INCREF(s);
    return s;
}

/*[clinic input]
everything315.star_tuple
    a: object
    /
    *args: tuple
    b: int = 0

*args as a tuple, a keyword-only parameter after it.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(OOi)", a, args, b);
}

/*[clinic input]
everything315.star_array
    a: object
    *args: array
    key: object = None

*args as an array of the arguments, not a tuple.
[clinic start generated code]*/
{
    (void)module;
    PyObject *t = PyTuple_New(args_length);
    if (t == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < args_length; i++) {
        Py_INCREF(args[i]);
        if (PyTuple_SetItem(t, i, args[i]) < 0) {
            Py_DECREF(t);
            return NULL;
        }
    }
    return Py_BuildValue("(ONO)", a, t, key);
}

/*[clinic input]
everything315.star_kwds
    a: object
    b: int = 0
    /
    *args: tuple
    **kwds: dict

*args and **kwds: what was given beyond the named parameters.
[clinic start generated code]*/
{
    (void)module;
    if (kwds == NULL) {
        return Py_BuildValue("(OiOs)", a, b, args, NULL);
    }
    return Py_BuildValue("(OiOO)", a, b, args, kwds);
}

/*[clinic input]
everything315.only_kwds
    x: object = None
    /
    **kwds: dict

**kwds beside an optional positional-only parameter.
[clinic start generated code]*/
{
    (void)module;
    if (kwds == NULL) {
        return Py_BuildValue("(Os)", x, NULL);
    }
    return Py_BuildValue("(OO)", x, kwds);
}

/*[clinic input]
everything315.unsigned_widths
    a: uint8 = 0
    b: uint16 = 0
    c: uint32 = 0
    d: uint64 = 0
    /
    e: uint8 = 0
    f: uint64 = 0

Unsigned integers of each width, each optional.

(Optional, so that each is given every value calls.py tries.)
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(IIIKIK)", (unsigned int)a, (unsigned int)b,
                         (unsigned int)c, (unsigned long long)d,
                         (unsigned int)e, (unsigned long long)f);
}

/*[clinic input]
everything315.bitwise_widths
    a: unsigned_char(bitwise=True) = 0
    b: unsigned_short(bitwise=True) = 0
    c: unsigned_int(bitwise=True) = 0
    d: unsigned_long(bitwise=True) = 0
    e: unsigned_long_long(bitwise=True) = 0
    /

Unsigned integers taken bitwise: too wide a value warns and is cut.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(IIIkK)", (unsigned int)a, (unsigned int)b, c, d, e);
}

/*[clinic input]
everything315.fs_names
    encoded: unicode_fs_encoded
    decoded: unicode_fs_decoded = NULL
    /

A file name encoded to bytes and one decoded to str.
[clinic start generated code]*/
{
    (void)module;
    if (decoded == NULL) {
        return Py_BuildValue("(Os)", encoded, NULL);
    }
    return Py_BuildValue("(OO)", encoded, decoded);
}

/*[clinic input]
everything315.non_negative
    n: Py_ssize_t(allow_negative=False)
    m: Py_ssize_t = -1

A size that may not be negative, and one that may.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(nn)", n, m);
}

static PyMethodDef box_methods[] = {
    EVERYTHING315_BOX_RELABEL_METHODDEF
    {NULL, NULL, 0, NULL}
};

static PyGetSetDef box_getset[] = {
    EVERYTHING315_BOX_LABEL_GETSETDEF
    {NULL, NULL, NULL, NULL, NULL}
};

static PyObject *
box_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (PyTuple_Size(args) != 0 || (kwargs && PyDict_Size(kwargs) != 0)) {
        PyErr_SetString(PyExc_TypeError, "Box() takes no arguments");
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    BoxObject *self = (BoxObject *)alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->label = PyUnicode_FromString("box");
    if (self->label == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void
box_dealloc(PyObject *op)
{
    PyTypeObject *type = Py_TYPE(op);
    Py_XDECREF(((BoxObject *)op)->label);
    freefunc release = (freefunc)PyType_GetSlot(type, Py_tp_free);
    release(op);
    Py_DECREF(type);
}

static PyType_Slot box_slots[] = {
    {Py_tp_new, (void *)box_new},
    {Py_tp_dealloc, (void *)box_dealloc},
    {Py_tp_methods, box_methods},
    {Py_tp_getset, box_getset},
    {0, NULL}
};

static PyType_Spec box_spec = {
    "everything315.Box", sizeof(BoxObject), 0, Py_TPFLAGS_DEFAULT, box_slots
};

static PyMethodDef everything315_methods[] = {
    EVERYTHING315_STAR_TUPLE_METHODDEF
    EVERYTHING315_STAR_ARRAY_METHODDEF
    EVERYTHING315_STAR_KWDS_METHODDEF
    EVERYTHING315_ONLY_KWDS_METHODDEF
    EVERYTHING315_UNSIGNED_WIDTHS_METHODDEF
    EVERYTHING315_BITWISE_WIDTHS_METHODDEF
    EVERYTHING315_FS_NAMES_METHODDEF
    EVERYTHING315_NON_NEGATIVE_METHODDEF
    {NULL, NULL, 0, NULL}
};

static int
everything315_exec(PyObject *m)
{
    Box_Type = (PyTypeObject *)PyType_FromSpec(&box_spec);
    if (Box_Type == NULL) {
        return -1;
    }
    Py_INCREF(Box_Type);
    if (PyModule_AddObject(m, "Box", (PyObject *)Box_Type) < 0) {
        Py_DECREF(Box_Type);
        return -1;
    }
    return 0;
}

static PyModuleDef_Slot everything315_slots[] = {
    {Py_mod_exec, (void *)everything315_exec},
    {0, NULL}
};

static struct PyModuleDef everything315_module = {
    PyModuleDef_HEAD_INIT, "everything315", NULL, 0, everything315_methods,
    everything315_slots, NULL, NULL, NULL
};

PyMODINIT_FUNC
PyInit_everything315(void)
{
    return PyModuleDef_Init(&everything315_module);
}
