/* _nativebytes -- clinic_portable.h's PyLong_AsNativeBytes() for CPythons
 * before 3.13 (clinic_long_as_native_bytes), callable from Python, and on
 * 3.13 and later CPython's own beside it, so that tests/portable/
 * nativebytes.py can hold the one to the other's documented contract.
 *
 *   fallback(obj, n, flags)  -> (returned size, the n bytes written)
 *   cpython(obj, n, flags)   the same of PyLong_AsNativeBytes (3.13+)
 *
 * Built with -I the directory where clinic wrote clinic_portable.h.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define CLINIC_PORTABLE_DIALECT 0x030F0000
#define CLINIC_NATIVE_BYTES_FALLBACK
#include "clinic_portable.h"

typedef Py_ssize_t (*as_native_bytes_fn)(PyObject *, void *, Py_ssize_t, int);

static PyObject *
call(PyObject *args, as_native_bytes_fn fn)
{
    PyObject *obj;
    Py_ssize_t n;
    int flags;
    if (!PyArg_ParseTuple(args, "Oni", &obj, &n, &flags)) {
        return NULL;
    }
    if (n < 0 || n > 1024) {
        PyErr_SetString(PyExc_ValueError, "n: 0 to 1024");
        return NULL;
    }
    unsigned char buffer[1024];
    /* bytes the function must overwrite */
    memset(buffer, 0xA5, sizeof buffer);
    Py_ssize_t size = fn(obj, buffer, n, flags);
    if (size < 0) {
        return NULL;
    }
    return Py_BuildValue("ny#", size, (const char *)buffer, n);
}

static PyObject *
fallback(PyObject *module, PyObject *args)
{
    (void)module;
    return call(args, clinic_long_as_native_bytes);
}

#if PY_VERSION_HEX >= 0x030D0000 && !defined(Py_LIMITED_API)
static PyObject *
cpython(PyObject *module, PyObject *args)
{
    (void)module;
    return call(args, PyLong_AsNativeBytes);
}
#endif

static PyMethodDef methods[] = {
    {"fallback", fallback, METH_VARARGS, NULL},
#if PY_VERSION_HEX >= 0x030D0000 && !defined(Py_LIMITED_API)
    {"cpython", cpython, METH_VARARGS, NULL},
#endif
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot slots[] = {
#ifdef Py_mod_gil
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_nativebytes", NULL, 0, methods, slots,
    NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__nativebytes(void)
{
    return PyModuleDef_Init(&module);
}
