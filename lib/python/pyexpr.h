/*
 * pyexpr.h — the Python expressions Argument Clinic reads, without Python.
 *
 * clinic.py hands parameter lines, defaults and converter arguments to
 * Python's own ast/eval.  We parse the same grammar here into a small
 * AST, evaluate literals (ast.literal_eval), and print values exactly as
 * Python's repr() would, because signatures must show defaults as Python
 * prints them.  Everything else eval() does, the interpreter does
 * (pyvm.h: pyvm_eval), in the namespace clinic.py gives it (the model's
 * converters_eval).
 */
#ifndef CLINIC_PYEXPR_H
#define CLINIC_PYEXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"

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
    PY_OBJECT,        /* appended: an object of the interpreter (pyvm.h):
                         a list, dict, set, class, instance, function, ...;
                         obj points at it */
} PyKind;

/* Classes clinic's namespace knows by name (bits for PY_TYPE / PY_SET). */
enum {
    PYT_OBJECT = 1u << 0, PYT_INT = 1u << 1, PYT_STR = 1u << 2,
    PYT_BYTES = 1u << 3, PYT_BYTEARRAY = 1u << 4, PYT_FLOAT = 1u << 5,
    PYT_COMPLEX = 1u << 6, PYT_BOOL = 1u << 7, PYT_NONETYPE = 1u << 8,
    PYT_BUFFER = 1u << 9, PYT_ROBUFFER = 1u << 10, PYT_RWBUFFER = 1u << 11,
};

typedef struct PyValue PyValue;
typedef struct PyObj PyObj;     /* pyvm_int.h */
struct PyValue {
    PyKind kind;
    bool b;              /* PY_BOOL */
    bool uncomputed;     /* an opaque value whose s is a stand-in
                            ("<clinic>"): an object of clinic.py's the
                            interpreter does not model (pyvm_stand_in), so
                            it is neither tested nor written out */
    const char *s;       /* PY_INT: decimal digits with optional '-' (any
                            size); PY_STR: UTF-8 text; PY_BYTES: bytes */
    size_t len;          /* length of s */
    double f;            /* PY_FLOAT; PY_COMPLEX: real part */
    double imag;         /* PY_COMPLEX */
    unsigned types;      /* PY_TYPE: one bit; PY_SET: the members' bits */
    PyValue *items;      /* PY_TUPLE */
    size_t nitems;
    /* An object Python has but PyValue cannot model (a list, a dict, a
       function, a module, Ellipsis, ...) is PY_UNKNOWN with type_name set
       ("list", "module", ...) and s/len holding its repr.  Plain clinic
       `unknown` has type_name == NULL.  See py_is_opaque().  Opaque
       lists and sets of literals keep their items (a dict: nitems keys,
       then nitems values).  A repr that Python would print with an
       address, or that we did not compute, is a placeholder ("<object>"). */
    const char *type_name;
    PyObj *obj;          /* PY_OBJECT */
};

extern const PyValue py_unspecified, py_unknown, py_null, py_none;

/* repr() as Python 3.11 prints it: shortest round-trip floats, quote
   choice and escapes for str and bytes, sets in a stable order. */
char *py_repr(Arena *a, const PyValue *v);
/* repr(frozenset(v)) for a PY_SET of classes: Python may lay the copy
   out anew, in another order than the set's. */
char *py_frozenset_repr(Arena *a, const PyValue *v);
/* hash() of the class a PYT_ bit names, as the reference interpreter
   computes it (from its address): what orders sets of classes. */
size_t py_class_hash(unsigned bit);
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
    /* appended: rarer nodes ast.parse also produces */
    PX_JOINEDSTR, PX_FORMATTEDVALUE, PX_NAMEDEXPR, PX_SLICE, PX_YIELD,
    PX_YIELDFROM, PX_AWAIT,
} PyExprKind;

typedef struct PyExpr PyExpr;
typedef struct PyKeyword {
    const char *arg;
    PyExpr *value;
    size_t start, end;    /* appended: byte offsets of "arg=value" */
} PyKeyword;
typedef struct PyComprehension PyComprehension;
typedef struct PyArguments PyArguments;

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
    /* appended fields */
    PyExpr *test;         /* PX_IFEXP test (left=body, right=orelse);
                             PX_SLICE step (left=lower, right=upper);
                             PX_FORMATTEDVALUE format_spec (left=value) */
    const char **ops;     /* PX_COMPARE: one op per comparator (items) */
    PyComprehension *generators;   /* comprehensions; PX_DICTCOMP: left=key,
                                      right=value; others: left=elt */
    size_t ngenerators;
    PyArguments *args;    /* PX_LAMBDA (left = body) */
    const char *const_kind;  /* PX_CONST: "u" for u'' strings, else NULL */
    bool store;           /* ctx=Store() (assignment/comprehension targets) */
    int conversion;       /* PX_FORMATTEDVALUE: -1, 's', 'r', 'a' */
    size_t start, end;    /* byte offsets of the node in the parsed line */
    void *vm_data;        /* the interpreter's (pyvm_parse.c): a lambda's
                             scope and code */
    /* PX_JOINEDSTR: items are the parts; PX_DICT: items[i] NULL for **x;
       PX_NAMEDEXPR: left=target, right=value; PX_YIELD/PX_YIELDFROM/
       PX_AWAIT/PX_STARRED: left=value (PX_YIELD: may be NULL). */
};

struct PyComprehension {
    PyExpr *target, *iter;
    PyExpr **ifs;
    size_t nifs;
    bool is_async;
};

typedef struct PyArg { const char *arg; PyExpr *annotation; } PyArg;

/* ast.arguments: of a lambda, or of "def x(...)". */
struct PyArguments {
    PyArg *posonlyargs; size_t nposonlyargs;
    PyArg *args; size_t nargs;
    PyArg *vararg;                    /* NULL when absent */
    PyArg *kwonlyargs; size_t nkwonlyargs;
    PyExpr **kw_defaults;             /* nkwonlyargs entries, NULL = none */
    PyArg *kwarg;                     /* NULL when absent */
    PyExpr **defaults; size_t ndefaults;
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
    PyExpr *default_expr; /* the first parameter's default; NULL: none */
    size_t default_start, default_end;  /* its place in the text
                                           (pyexpr_parse_param_line) */
} PyParamDecl;

/* Parses the text between the parentheses of "def x(TEXT): pass".
   Returns false where Python would raise SyntaxError. */
bool pyexpr_parse_params(Arena *a, const char *text, PyParamDecl *out,
                         PySyntaxError *err);
/* The same for "def x(TEXT\n): pass", as 3.14 reads a parameter line:
   a '#' comment may end TEXT, and the default's place is kept. */
bool pyexpr_parse_param_line(Arena *a, const char *text, PyParamDecl *out);

/* ast.literal_eval: false (Python's ValueError) for anything else. */
bool pyexpr_literal_eval(Arena *a, const PyExpr *e, PyValue *out);

/* An exception eval() raised (the interpreter's, pyvm_error, as clinic
   reports it). */
typedef struct PyException {
    const char *type;     /* its class: "NameError", "KeyError" */
    const char *message;  /* str() of it: "name 'x' is not defined";
                             "" when it was raised without arguments */
    const char *repr;     /* repr() of it, as clinic prints it:
                             "NameError(\"name 'x' is not defined\")" */
} PyException;

/* ast.dump(e) as Python 3.11 prints it (it appears in one error message). */
char *pyexpr_dump(Arena *a, const PyExpr *e);

/* ---- appended by the pyexpr owner ------------------------------------ */

/* An object PyValue cannot model (PY_UNKNOWN with a type_name). */
bool py_is_opaque(const PyValue *v);
/* Whether v, or an item inside it (a tuple's, a list's, a dict's), is a
   stand-in for what the interpreter does not model. */
bool py_is_uncomputed(const PyValue *v);

/* The default value as state_parameter parses it: ast.parse("x = TEXT").
   Returns body[0].value, NULL with *err on SyntaxError (err->text is
   SyntaxError.text, which clinic prints as "Syntax error: " + repr). */
PyExpr *pyexpr_parse_default(Arena *a, const char *text, PySyntaxError *err);

/* The return annotation of "def x() -> TEXT: pass" (NULL on SyntaxError). */
PyExpr *pyexpr_parse_returns(Arena *a, const char *text, PySyntaxError *err);

/* The whole ast.arguments of "def x(TEXT): pass" (NULL on SyntaxError);
   pyexpr_parse_params() summarises it the way state_parameter reads it. */
PyArguments *pyexpr_parse_arguments(Arena *a, const char *text,
                                    PySyntaxError *err);

/* Calls visit(node, ctx) on e and every expression below it (as
   ast.NodeVisitor would reach them) until visit returns true; returns
   whether any did.  For DetectBadNodes-style checks. */
bool pyexpr_any(const PyExpr *e, bool (*visit)(const PyExpr *, void *),
                void *ctx);

/* compile(text, ..., 'eval') as DSLParser.state_parameter's eval() of a
   default given with c_default does it: Python compiles the *string*
   in 'eval' mode, so forms only a statement allows ("*a", "1; 2",
   "yield x") and compile-time errors ("'yield' outside function",
   "keyword argument repeated") raise SyntaxError, whose repr has its
   location tuple.  NULL with that SyntaxError in *exc. */
PyExpr *pyexpr_compile_source(Arena *a, const char *text, PyException *exc);

/* The SyntaxError message the compiler would give for an expression the
   parser accepted ("'yield' outside function", "keyword argument
   repeated: a"), or NULL: eval() of a parsed tree compiles it first. */
const char *pyexpr_compile_error(Arena *a, const PyExpr *e);

/* The last line of a traceback for an exception (as
   traceback.format_exception_only prints it): "NameError: name 'x' is
   not defined", "MemoryError", "KeyError: 'k'". */
char *pyexpr_exception_line(Arena *a, const PyException *exc);

/* repr() of a Python str given as UTF-8 (what "{!r}" of a str prints). */
char *py_repr_str(Arena *a, const char *s, size_t len);

#endif
