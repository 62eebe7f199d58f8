/*
 * converters_eval.c — converter arguments and defaults, evaluated by the
 * file's interpreter in the namespace clinic.py evaluates them in: the
 * python blocks' (eval_ast_expr: clinic.py's module in 3.11, libclinic's
 * parser namespace from 3.13 on), or for eval(default) in
 * DSLParser.state_parameter, clinic.py's module and that method's locals.
 * A plain literal, a class by its name, or a set or tuple of them is
 * read without the interpreter: most files need no other.
 */
#include <string.h>

#include "model/converters_py_int.h"

/* Names every dialect's namespaces give the same value. */
static const struct {
    const char *name;
    unsigned type_bit;
} plain_types[] = {
    { "object", PYT_OBJECT }, { "int", PYT_INT }, { "str", PYT_STR },
    { "bytes", PYT_BYTES }, { "bytearray", PYT_BYTEARRAY },
    { "float", PYT_FLOAT }, { "complex", PYT_COMPLEX }, { "bool", PYT_BOOL },
    { "NoneType", PYT_NONETYPE }, { "buffer", PYT_BUFFER },
    { "robuffer", PYT_ROBUFFER }, { "rwbuffer", PYT_RWBUFFER },
};

static bool plain_name(const char *id, bool module_names, PyValue *out)
{
    for (size_t i = 0; i < sizeof plain_types / sizeof *plain_types; i++)
        if (!strcmp(plain_types[i].name, id)) {
            memset(out, 0, sizeof *out);
            out->kind = PY_TYPE;
            out->types = plain_types[i].type_bit;
            return true;
        }
    if (!strcmp(id, "unspecified")) {
        *out = py_unspecified;
        return true;
    }
    /* clinic.py's module has NULL and unknown, libclinic's parser
       namespace not */
    if (module_names && !strcmp(id, "NULL")) {
        *out = py_null;
        return true;
    }
    if (module_names && !strcmp(id, "unknown")) {
        *out = py_unknown;
        return true;
    }
    return false;
}

/* A literal, a plain name, or a set or tuple of them: false for
   anything else. */
static bool eval_plain(Arena *a, const PyExpr *e, bool module_names,
                       PyValue *out)
{
    switch (e->kind) {
    case PX_CONST:
        *out = e->value;
        return true;
    case PX_NAME:
        return plain_name(e->id, module_names, out);
    case PX_UNARYOP:   /* -1, +2.5 */
        return e->left->kind == PX_CONST && pyexpr_literal_eval(a, e, out);
    case PX_SET:
    case PX_TUPLE: {
        PyValue *items = arena_array_of(a, PyValue, e->nitems + 1);
        for (size_t i = 0; i < e->nitems; i++)
            if (e->items[i]->kind == PX_STARRED ||
                !eval_plain(a, e->items[i], module_names, &items[i]))
                return false;
        memset(out, 0, sizeof *out);
        if (e->kind == PX_TUPLE) {
            out->kind = PY_TUPLE;
        } else {
            /* a set of classes; any other set is the interpreter's */
            for (size_t i = 0; i < e->nitems; i++) {
                if (items[i].kind != PY_TYPE)
                    return false;
                out->types |= items[i].types;
            }
            if (!e->nitems)
                return false;
            out->kind = PY_SET;
        }
        /* a set's insertion order decides its repr's order */
        out->items = items;
        out->nitems = e->nitems;
        return true;
    }
    default:
        return false;
    }
}

/* The name eval() looks up first in e, when it looks one up before
   anything else can happen (the leftmost operand of attributes,
   subscripts, calls, operators and comparisons), or NULL. */
static const char *first_name(const PyExpr *e)
{
    while (e->kind == PX_ATTRIBUTE || e->kind == PX_SUBSCRIPT ||
           e->kind == PX_CALL || e->kind == PX_BINOP ||
           e->kind == PX_COMPARE)
        e = e->left;
    return e->kind == PX_NAME ? e->id : NULL;
}

static bool name_error(Clinic *c, const char *name, PyException *exc)
{
    if (exc) {
        exc->type = "NameError";
        exc->message = arena_printf(c->arena, "name '%s' is not defined",
                                    name);
        exc->repr = arena_printf(c->arena, "NameError(%s)",
                                 py_repr_str(c->arena, exc->message,
                                             strlen(exc->message)));
    }
    return false;
}

static bool fail_with(PyVM *vm, PyException *exc)
{
    if (exc) {
        const PyError *err = pyvm_error(vm);
        exc->type = err->type;
        exc->message = err->message;
        exc->repr = pyvm_error_repr(vm);
    }
    return false;
}

bool converters_eval(Clinic *c, const PyExpr *e, PyEvalScope scope,
                     PyValue *out, PyException *exc)
{
    const PyFlavour *fl = cpy_flavour_of(c->dialect);
    bool module_names = fl->module_globals || scope == PY_SCOPE_STATE_PARAMETER;
    if (exc)
        memset(exc, 0, sizeof *exc);
    /* compile() refuses what the parser let through before anything runs */
    const char *syntax = pyexpr_compile_error(c->arena, e);
    if (syntax) {
        if (exc) {
            exc->type = "SyntaxError";
            exc->message = syntax;
            exc->repr = arena_printf(c->arena, "SyntaxError(%s)",
                                     py_repr_str(c->arena, syntax,
                                                 strlen(syntax)));
        }
        return false;
    }
    if (eval_plain(c->arena, e, module_names, out))
        return true;
    /* a C constant's name (MAX_WBITS, zlib.Z_FINISH | zlib.Z_SYNC): a
       NameError, known without the interpreter while no python block
       could have added a name */
    const char *first = first_name(e);
    if (first && !*converters_python_slot(c) &&
        !cpy_namespace_may_have(c, scope == PY_SCOPE_STATE_PARAMETER, first))
        return name_error(c, first, exc);
    ConverterPython *py = cpy_of(c);
    PyVM *vm = py->vm;
    PyObj *locals = NULL;
    PyObj *globals = NULL;
    if (scope == PY_SCOPE_STATE_PARAMETER && fl->default_globals) {
        if (!py->default_globals) {
            py->default_globals = cpy_default_globals(py);
            py->default_locals = cpy_default_locals(py);
        }
        globals = py->default_globals;
        locals = py->default_locals;
    } else if (scope == PY_SCOPE_STATE_PARAMETER) {
        if (!py->state_parameter_names)
            py->state_parameter_names = cpy_state_parameter_locals(py);
        locals = py->state_parameter_names;
    } else if (module_names) {
        if (!py->module_names) {
            py->module_names = pyvm_dict_new(vm);
            cpy_install_module_names(py, py->module_names);
        }
        locals = py->module_names;
    }
    pyvm_prepare_expr(c->arena, e);
    PyValue v;
    if (pyvm_eval(vm, e, globals, locals, &v) &&
        pyvm_export_value(vm, v, out))
        return true;
    return fail_with(vm, exc);
}
