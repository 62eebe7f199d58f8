/*
 * pyexpr.h — the Python expressions Argument Clinic reads, without Python.
 *
 * clinic.py hands parameter lines, defaults and converter arguments to
 * Python's own ast/eval.  We parse the same grammar subset here into a
 * small AST, evaluate literals (ast.literal_eval), evaluate converter
 * arguments against clinic's namespace (str, int, NoneType, buffer, ...),
 * and print values exactly as Python's repr() would, because signatures
 * must show defaults as Python prints them.
 */
#ifndef CLINIC_PYEXPR_H
#define CLINIC_PYEXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

/* ---- values ---------------------------------------------------------- */

typedef enum PyKind {
    PY_UNSPECIFIED,   /* clinic's `unspecified`: no default given */
    PY_UNKNOWN,       /* clinic's `unknown`: valid at run time only */
    PY_NULL,          /* clinic's `NULL` sentinel (repr "<Null>") */
    PY_NONE,
    PY_BOOL,
    PY_INT,
    PY_FLOAT,
    PY_COMPLEX,
    PY_STR,
    PY_BYTES,
    PY_TYPE,          /* a class from clinic's namespace: str, int, ... */
    PY_SET,           /* a set literal of PY_TYPE values (accept={...}) */
    PY_TUPLE,
} PyKind;

/* Classes clinic's namespace knows by name (bits for PY_TYPE / PY_SET). */
enum {
    PYT_OBJECT = 1u << 0, PYT_INT = 1u << 1, PYT_STR = 1u << 2,
    PYT_BYTES = 1u << 3, PYT_BYTEARRAY = 1u << 4, PYT_FLOAT = 1u << 5,
    PYT_COMPLEX = 1u << 6, PYT_BOOL = 1u << 7, PYT_NONETYPE = 1u << 8,
    PYT_BUFFER = 1u << 9, PYT_ROBUFFER = 1u << 10, PYT_RWBUFFER = 1u << 11,
};

typedef struct PyValue PyValue;
struct PyValue {
    PyKind kind;
    bool b;              /* PY_BOOL */
    const char *s;       /* PY_INT: decimal digits with optional '-' (any
                            size); PY_STR: UTF-8 text; PY_BYTES: bytes */
    size_t len;          /* length of s */
    double f;            /* PY_FLOAT; PY_COMPLEX: real part */
    double imag;         /* PY_COMPLEX */
    unsigned types;      /* PY_TYPE: one bit; PY_SET: the members' bits */
    PyValue *items;      /* PY_TUPLE */
    size_t nitems;
};

extern const PyValue py_unspecified, py_unknown, py_null, py_none;

/* repr() as Python 3.11 prints it: shortest round-trip floats, quote
   choice and escapes for str and bytes, sets in a stable order. */
char *py_repr(Arena *a, const PyValue *v);
/* Python truthiness and ==, for the few places clinic.py relies on them. */
bool py_truthy(const PyValue *v);
bool py_equal(const PyValue *x, const PyValue *y);
/* Name of a PYT_ bit ("str", "NoneType", ...). */
const char *py_type_name(unsigned type_bit);
/* Python type name of a value ("int", "str", "NoneType", ...). */
const char *py_value_type_name(const PyValue *v);

/* ---- syntax ---------------------------------------------------------- */

typedef enum PyExprKind {
    PX_CONST, PX_NAME, PX_ATTRIBUTE, PX_CALL, PX_UNARYOP, PX_BINOP,
    PX_BOOLOP, PX_COMPARE, PX_IFEXP, PX_LAMBDA, PX_SUBSCRIPT, PX_STARRED,
    PX_TUPLE, PX_LIST, PX_SET, PX_DICT, PX_LISTCOMP, PX_SETCOMP,
    PX_DICTCOMP, PX_GENEXP,
} PyExprKind;

typedef struct PyExpr PyExpr;
typedef struct PyKeyword { const char *arg; PyExpr *value; } PyKeyword;

struct PyExpr {
    PyExprKind kind;
    PyValue value;        /* PX_CONST */
    const char *id;       /* PX_NAME id; PX_ATTRIBUTE attr */
    const char *op;       /* operator as Python's ast names it: "USub", "Add" */
    PyExpr *left, *right; /* operands; PX_ATTRIBUTE/PX_CALL/PX_SUBSCRIPT: left
                             is the value/func; PX_UNARYOP: left is operand */
    PyExpr **items;       /* elements, call positional args, dict keys */
    PyExpr **values;      /* dict values */
    size_t nitems;
    PyKeyword *keywords;  /* PX_CALL */
    size_t nkeywords;
    const char *source;   /* the source text of this node */
};

/* Why parsing failed: Python would raise SyntaxError.  text is the line
   Python reports (SyntaxError.text) where that matters for messages. */
typedef struct PySyntaxError {
    const char *msg;
    const char *text;
} PySyntaxError;

/* Parses one expression (the whole string).  NULL on a syntax error. */
PyExpr *pyexpr_parse(Arena *a, const char *src, PySyntaxError *err);

/* One parameter as clinic.py reads it from "def x(LINE): pass". */
typedef struct PyParamDecl {
    int nargs;            /* plain parameters found (clinic wants 1) */
    bool has_default;     /* "x=1" inside: clinic refuses */
    bool has_kwarg;       /* "**x" */
    bool is_vararg;       /* "*x" */
    const char *name;
    PyExpr *annotation;   /* NULL when there is none */
} PyParamDecl;

/* Parses the text between the parentheses of "def x(TEXT): pass".
   Returns false where Python would raise SyntaxError. */
bool pyexpr_parse_params(Arena *a, const char *text, PyParamDecl *out,
                         PySyntaxError *err);

/* ast.literal_eval: false (Python's ValueError) for anything else. */
bool pyexpr_literal_eval(Arena *a, const PyExpr *e, PyValue *out);

/* eval() in clinic.py's globals, enough for converter arguments and
   defaults: literals, the namespace's classes, sets, unary and binary
   arithmetic.  Returns false and sets *error (Python's exception repr,
   e.g. "NameError(\"name 'x' is not defined\")") when Python would raise. */
bool pyexpr_eval(Arena *a, const PyExpr *e, PyValue *out, const char **error);

/* ast.dump(e) as Python 3.11 prints it (it appears in one error message). */
char *pyexpr_dump(Arena *a, const PyExpr *e);

#endif
