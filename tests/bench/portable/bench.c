/*
 * bench.c -- the micro-benchmark of the portable target (tests/bench/portable/run.sh).
 *
 * One signature, f(a: int, b: object, c: double = 0.0), parsed three ways:
 *   bench.f    by clinic (built once from 3.11's output, once from the
 *              portable target's: the module is the same either way)
 *   bench.pos  the same parameters positional-only (METH_FASTCALL)
 *   bench.ptak by hand, with PyArg_ParseTupleAndKeywords, the way an
 *              extension without clinic parses it
 *   bench.noop takes anything and parses nothing: the cost of the call
 *              alone, which calls.py takes away to get the parsing's
 * Each returns None: the time measured is the call and its parsing.
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"

#include "clinic/bench.c.h"

/*[clinic input]
module bench
[clinic start generated code]*/

/*[clinic input]
bench.f

    a: int
    b: object
    c: double = 0.0

Parse a, b and c, and return None.
[clinic start generated code]*/
{
    (void)module;
    (void)a;
    (void)b;
    (void)c;
    Py_RETURN_NONE;
}

/*[clinic input]
bench.pos

    a: int
    b: object
    c: double = 0.0
    /

The same, positional-only.
[clinic start generated code]*/
{
    (void)module;
    (void)a;
    (void)b;
    (void)c;
    Py_RETURN_NONE;
}

static PyObject *
bench_ptak(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"a", "b", "c", NULL};
    int a;
    PyObject *b;
    double c = 0.0;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iO|d:ptak", kwlist,
                                     &a, &b, &c)) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
bench_noop(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
           PyObject *kwnames)
{
    (void)module;
    (void)args;
    (void)nargs;
    (void)kwnames;
    Py_RETURN_NONE;
}

static PyMethodDef bench_methods[] = {
    BENCH_F_METHODDEF
    BENCH_POS_METHODDEF
    {"ptak", (PyCFunction)(void (*)(void))bench_ptak,
     METH_VARARGS | METH_KEYWORDS, "The same, by PyArg_ParseTupleAndKeywords."},
    {"noop", (PyCFunction)(void (*)(void))bench_noop,
     METH_FASTCALL | METH_KEYWORDS, "Parse nothing."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef bench_module = {
    PyModuleDef_HEAD_INIT, "bench", NULL, 0, bench_methods,
    NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC
PyInit_bench(void)
{
    return PyModule_Create(&bench_module);
}
