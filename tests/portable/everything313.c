/*
 * everything313.c — the syntax of the 3.13 dialect and later that
 * everything.c (the 3.11 DSL) cannot hold, in one module for make
 * portable: @critical_section (none, one and two objects, on methods, a
 * getter and a setter), @getter and @setter, deprecation markers of
 * positional and keyword use, unused=True and @text_signature.  Built from
 * the 3.13 dialect's own output on CPython 3.13 (the oracle) and from its
 * portable output on 3.9 to 3.13 and as abi3, it must answer
 * tests/portable/calls.py's calls the same way; tests/portable/ft_stress.py
 * calls Counter's methods from 8 threads on a free-threaded CPython.
 *
 * Counter's counts are read, then written, around a call into the
 * interpreter, so that two threads in one method at once lose an update:
 * only the critical sections keep them whole on a free-threaded build.
 * The deprecations take effect in 3.99 so that the module builds on every
 * CPython (the generated code stops the build from that version on).
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"

typedef struct {
    PyObject_HEAD
    PyObject *items;       /* a list: what append() added, pop() left */
    long appended;
    long popped;
    long total;            /* the sum of what update() was given */
} CounterObject;

static PyTypeObject *Counter_Type;

#include "clinic/everything313.c.h"

/*[clinic input]
module everything313
class everything313.Counter "CounterObject *" "Counter_Type"
[clinic start generated code]*/

/* A read-modify-write that a second thread can interleave with: the
   count is read, the interpreter called, then the count written. */
static int
bump(long *count, long by)
{
    long seen = *count;
    PyObject *boxed = PyLong_FromLong(seen);
    if (boxed == NULL) {
        return -1;
    }
    Py_DECREF(boxed);
    *count = seen + by;
    return 0;
}

/*[clinic input]
@critical_section
everything313.Counter.append
    item: object
    /

Append item to the items and count it.
[clinic start generated code]*/
{
    if (PyList_Append(self->items, item) < 0 || bump(&self->appended, 1) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/*[clinic input]
@critical_section
everything313.Counter.pop

Remove and return the last item, and count it; None when there is none.
[clinic start generated code]*/
{
    Py_ssize_t n = PyList_Size(self->items);
    if (n <= 0) {
        Py_RETURN_NONE;
    }
    PyObject *last = PyList_GetItem(self->items, n - 1);
    if (last == NULL) {         /* (unlocked, another thread popped) */
        return NULL;
    }
    Py_INCREF(last);
    if (PyList_SetSlice(self->items, n - 1, n, NULL) < 0 ||
        bump(&self->popped, 1) < 0) {
        Py_DECREF(last);
        return NULL;
    }
    return last;
}

/*[clinic input]
@critical_section
everything313.Counter.update
    n: long
    /
    *
    times: int = 1

Add n to the total, times times.
[clinic start generated code]*/
{
    for (int i = 0; i < times; i++) {
        if (bump(&self->total, n) < 0) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

/*[clinic input]
@critical_section
everything313.Counter.state

The items, appended, popped and total.
[clinic start generated code]*/
{
    return Py_BuildValue("(Olll)", self->items, self->appended, self->popped,
                         self->total);
}

/*[clinic input]
@critical_section
@getter
everything313.Counter.total
[clinic start generated code]*/
{
    return PyLong_FromLong(self->total);
}

/*[clinic input]
@critical_section
@setter
everything313.Counter.total
[clinic start generated code]*/
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete total");
        return -1;
    }
    long total = PyLong_AsLong(value);
    if (total == -1 && PyErr_Occurred()) {
        return -1;
    }
    self->total = total;
    return 0;
}

/*[clinic input]
@getter
everything313.Counter.appended
[clinic start generated code]*/
{
    return PyLong_FromLong(self->appended);
}

/*[clinic input]
@critical_section items
everything313.extend
    items: object(subclass_of='&PyList_Type')
    more: object
    /

Append the items of more to the list items, under the list's lock.
[clinic start generated code]*/
{
    (void)module;
    Py_ssize_t n = PyList_Size(items);
    if (PyList_SetSlice(items, n, n, more) < 0) {
        return NULL;
    }
    return PyLong_FromSsize_t(PyList_Size(items));
}

/*[clinic input]
@critical_section a b
everything313.swap_first
    a: object(subclass_of='&PyList_Type')
    b: object(subclass_of='&PyList_Type')
    /

Swap the first items of two lists, both locked.
[clinic start generated code]*/
{
    (void)module;
    if (PyList_Size(a) < 1 || PyList_Size(b) < 1) {
        PyErr_SetString(PyExc_IndexError, "an empty list");
        return NULL;
    }
    PyObject *x = PyList_GetItem(a, 0), *y = PyList_GetItem(b, 0);
    Py_INCREF(x);
    Py_INCREF(y);
    PyList_SetItem(a, 0, y);
    PyList_SetItem(b, 0, x);
    Py_RETURN_NONE;
}

/*[clinic input]
everything313.depr_positional
    a: object
    /
    b: object = None
    * [from 3.99]
    c: object = None
    d: object = None

Passing c or d positionally is deprecated.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(OOOO)", a, b, c, d);
}

/*[clinic input]
everything313.depr_keyword
    a: object
    b: object = None
    / [from 3.99]
    c: object = None

Passing a or b by keyword is deprecated.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(OOO)", a, b, c);
}

/*[clinic input]
everything313.depr_keyword_required
    a: object
    b: object
    / [from 3.99]
    *
    c: int = 0

Passing a or b by keyword is deprecated.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(OOi)", a, b, c);
}

/*[clinic input]
everything313.ignores
    a: object
    b: object(unused=True) = None
    c: int(unused=True) = 0

Return a; b and c are accepted and ignored.
[clinic start generated code]*/
{
    (void)module;
    Py_INCREF(a);
    return a;
}

/*[clinic input]
@text_signature "($module, a, b=2)"
everything313.signed
    a: int
    b: int(c_default="2") = 2

Return (a, b), with a signature written by hand.
[clinic start generated code]*/
{
    (void)module;
    return Py_BuildValue("(ii)", a, b);
}

static PyMethodDef counter_methods[] = {
    EVERYTHING313_COUNTER_APPEND_METHODDEF
    EVERYTHING313_COUNTER_POP_METHODDEF
    EVERYTHING313_COUNTER_UPDATE_METHODDEF
    EVERYTHING313_COUNTER_STATE_METHODDEF
    {NULL, NULL, 0, NULL}
};

static PyGetSetDef counter_getset[] = {
    EVERYTHING313_COUNTER_TOTAL_GETSETDEF
    EVERYTHING313_COUNTER_APPENDED_GETSETDEF
    {NULL, NULL, NULL, NULL, NULL}
};

static PyObject *
counter_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (PyTuple_Size(args) != 0 || (kwargs && PyDict_Size(kwargs) != 0)) {
        PyErr_SetString(PyExc_TypeError, "Counter() takes no arguments");
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    CounterObject *self = (CounterObject *)alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->items = PyList_New(0);
    if (self->items == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void
counter_dealloc(PyObject *op)
{
    PyTypeObject *type = Py_TYPE(op);
    Py_XDECREF(((CounterObject *)op)->items);
    freefunc release = (freefunc)PyType_GetSlot(type, Py_tp_free);
    release(op);
    Py_DECREF(type);
}

static PyType_Slot counter_slots[] = {
    {Py_tp_new, (void *)counter_new},
    {Py_tp_dealloc, (void *)counter_dealloc},
    {Py_tp_methods, counter_methods},
    {Py_tp_getset, counter_getset},
    {0, NULL}
};

static PyType_Spec counter_spec = {
    "everything313.Counter", sizeof(CounterObject), 0, Py_TPFLAGS_DEFAULT,
    counter_slots
};

static PyMethodDef everything313_methods[] = {
    EVERYTHING313_EXTEND_METHODDEF
    EVERYTHING313_SWAP_FIRST_METHODDEF
    EVERYTHING313_DEPR_POSITIONAL_METHODDEF
    EVERYTHING313_DEPR_KEYWORD_METHODDEF
    EVERYTHING313_DEPR_KEYWORD_REQUIRED_METHODDEF
    EVERYTHING313_IGNORES_METHODDEF
    EVERYTHING313_SIGNED_METHODDEF
    {NULL, NULL, 0, NULL}
};

static int
everything313_exec(PyObject *m)
{
    Counter_Type = (PyTypeObject *)PyType_FromSpec(&counter_spec);
    if (Counter_Type == NULL) {
        return -1;
    }
    Py_INCREF(Counter_Type);
    if (PyModule_AddObject(m, "Counter", (PyObject *)Counter_Type) < 0) {
        Py_DECREF(Counter_Type);
        return -1;
    }
    return 0;
}

static PyModuleDef_Slot everything313_slots[] = {
    {Py_mod_exec, (void *)everything313_exec},
#if defined(Py_mod_gil)
    /* the methods that share state lock it: the module needs no GIL */
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL}
};

static struct PyModuleDef everything313_module = {
    PyModuleDef_HEAD_INIT, "everything313", NULL, 0, everything313_methods,
    everything313_slots, NULL, NULL, NULL
};

PyMODINIT_FUNC
PyInit_everything313(void)
{
    return PyModuleDef_Init(&everything313_module);
}
