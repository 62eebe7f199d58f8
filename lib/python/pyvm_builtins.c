/*
 * pyvm_builtins.c — the builtins module: print, len, isinstance, the
 * type constructors (str, int, list, dict, ...), sorted, min, max, sum,
 * getattr/hasattr/setattr, super, type(name, bases, dict) and the rest
 * python blocks use, plus the built-in exception classes by name.
 *
 * Iterator-returning builtins (enumerate, zip, map, filter, reversed)
 * compute their values at once and return an iterator over them: python
 * blocks consume them whole, and no generator machinery is needed.
 */
#include "python/pyvm_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static PyValue none(void)
{
    return py_none;
}

static PyValue iterator_over(PyVM *vm, PyList *l)
{
    PyIter *it = vm_alloc_obj(vm, sizeof *it, OBJ_ITER, vm->types[T_ITERATOR]);
    it->seq = vm_obj(l);
    return vm_obj(it);
}

/* ---- output ------------------------------------------------------------ */

static PyValue b_print(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    const char *sep = " ", *end = "\n";
    size_t seplen = 1, endlen = 1;
    for (size_t k = 0; k < a->nkw; k++) {
        const char *name = a->kwnames[k];
        PyValue v = a->kwvalues[k];
        if (!strcmp(name, "sep") || !strcmp(name, "end")) {
            if (v.kind != PY_NONE && v.kind != PY_STR)
                vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                               "%s must be None or a string, not %s", name,
                               vm_type_name(vm, v)));
            if (v.kind == PY_STR) {
                if (name[0] == 's') {
                    sep = v.s;
                    seplen = v.len;
                } else {
                    end = v.s;
                    endlen = v.len;
                }
            }
        } else if (!strcmp(name, "flush")) {
            continue;
        } else if (!strcmp(name, "file")) {
            if (v.kind != PY_NONE)
                vm_raise_class(vm, vm->types[T_NOT_IMPLEMENTED_ERROR],
                               "clinic's Python prints only to the block's "
                               "output (print(..., file=None))");
        } else {
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "'%s' is an invalid keyword argument for print()",
                           name));
        }
    }
    for (size_t i = 0; i < a->nargs; i++) {
        if (i)
            vm_write(vm, sep, seplen);
        PyValue v = a->args[i];
        if (v.kind == PY_STR) {
            vm_write(vm, v.s, v.len);
        } else {
            const char *s = vm_str(vm, v);
            vm_write(vm, s, strlen(s));
        }
    }
    vm_write(vm, end, endlen);
    return none();
}

/* ---- type constructors ------------------------------------------------- */

static PyValue c_object(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    if (a->nargs || a->nkw)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], "object() takes no arguments");
    PyInstance *inst = vm_alloc_obj(vm, sizeof *inst, OBJ_INSTANCE,
                                    vm->types[T_OBJECT]);
    inst->dict = NULL;
    return vm_obj(inst);
}

static PyValue c_str(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(3);
    pyvm_bind(vm, a, "str", "object= encoding= errors=", v, NULL);
    /* (clinic's unspecified is a value too: str(unspecified)) */
    if (a->nargs == 0 && !vm_given(v[0]))
        return vm_make_str(vm, "", 0);
    if (vm_given(v[1]) || vm_given(v[2])) {
        if (v[0].kind != PY_BYTES)
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "decoding to str: need a bytes-like object, %s "
                           "found", vm_type_name(vm, v[0])));
        PyValue r = v[0];
        r.kind = PY_STR;
        return r;
    }
    const char *s = vm_str(vm, v[0]);
    return v[0].kind == PY_STR ? v[0] : vm_make_str(vm, s, strlen(s));
}

/* int(text, base): Python's rules for the text form. */
static PyValue int_from_text(PyVM *vm, PyValue sv, int64_t base)
{
    const char *s = sv.s;
    size_t n = sv.len;
    size_t i = 0;
    while (i < n && isspace((unsigned char)s[i]))
        i++;
    while (n > i && isspace((unsigned char)s[n - 1]))
        n--;
    bool negative = false;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        negative = s[i++] == '-';
    if (base == 0 || base == 16 || base == 8 || base == 2) {
        if (i + 1 < n && s[i] == '0') {
            char p = (char)(s[i + 1] | 0x20);
            int pb = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
            if (pb && (base == 0 || base == pb)) {
                base = pb;
                i += 2;
                if (i < n && s[i] == '_')
                    i++;
            }
        }
        if (base == 0) {
            base = 10;
            /* base 0: no leading zeros on a nonzero decimal */
            if (i + 1 < n && s[i] == '0') {
                bool zeros = true;
                for (size_t k = i; k < n; k++)
                    zeros &= s[k] == '0' || s[k] == '_';
                if (!zeros)
                    goto bad;
            }
        }
    }
    {
        /* the digits checked and counted first, so that the limit on
           decimal conversion refuses before any converting, as
           CPython's does; then converted in one go */
        bool last_underscore = true, junk = false;
        size_t ndigits = 0;
        vm_work(vm, n - i);
        Arena *scratch = vm_int_scratch(vm);
        char *digits = arena_alloc_uninit(scratch, n - i + 1);
        for (size_t k = i; k < n; k++) {
            char c = s[k];
            if (c == '_') {
                if (last_underscore)
                    goto bad;
                last_underscore = true;
                continue;
            }
            int d = isdigit((unsigned char)c) ? c - '0'
                  : isalpha((unsigned char)c) ? (c | 0x20) - 'a' + 10 : 99;
            if (d >= base) {
                /* CPython counts the digits before anything else is
                   wrong, and refuses too many of them first */
                junk = true;
                break;
            }
            last_underscore = false;
            digits[ndigits++] = c;
        }
        if (ndigits == 0 || last_underscore)
            goto bad;
        if (ndigits > 4300 && (base & (base - 1)))
            vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(vm->a,
                           "Exceeds the limit (4300 digits) for integer "
                           "string conversion: value has %zu digits; use "
                           "sys.set_int_max_str_digits() to increase the "
                           "limit", ndigits));
        if (junk)
            goto bad;
        if (base != 10)
            vm_int_convert_work(vm, (size_t)((double)ndigits *
                                             log10((double)base)) + 1, 1);
        char *value = pyint_from_digits(scratch, digits, ndigits, (int)base);
        return vm_int_value(vm, negative && strcmp(value, "0")
                                    ? pyint_negate(scratch, value) : value);
    }
bad:
    vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(vm->a,
                   "invalid literal for int() with base %lld: %s",
                   (long long)base, vm_repr(vm, sv)));
}

static PyValue c_int(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "int", "x= base=", v, NULL);
    if (!vm_given(v[0]))
        return vm_make_int64(vm, 0);
    PyValue x = v[0];
    if (vm_given(v[1])) {
        int64_t base = vm_index(vm, v[1], "'base' must be an integer");
        if (x.kind != PY_STR)
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], "int() can't convert "
                           "non-string with explicit base");
        if (base != 0 && (base < 2 || base > 36))
            vm_raise_class(vm, vm->types[T_VALUE_ERROR], "int() base must be "
                           ">= 2 and <= 36, or 0");
        return int_from_text(vm, x, base);
    }
    switch (x.kind) {
    case PY_INT:
        return x;
    case PY_BOOL:
        return vm_make_int64(vm, x.b);
    case PY_FLOAT: {
        if (isnan(x.f))
            vm_raise_class(vm, vm->types[T_VALUE_ERROR],
                           "cannot convert float NaN to integer");
        if (isinf(x.f))
            vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR],
                           "cannot convert float infinity to integer");
        char *t = arena_printf(vm->a, "%.0f", trunc(x.f));
        return py_make_int(strcmp(t, "-0") ? t : "0");
    }
    case PY_STR:
        return int_from_text(vm, x, 10);
    default: {
        PyValue r;
        if (vm_call_special(vm, x, "__int__", NULL, 0, &r) ||
            vm_call_special(vm, x, "__index__", NULL, 0, &r))
            return r;
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "int() argument must be a string, a bytes-like object "
                       "or a real number, not '%s'", vm_type_name(vm, x)));
    }
    }
}

static PyValue c_float(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "float", "x=", v, NULL);
    PyValue x = v[0];
    if (!vm_given(x))
        return vm_make_float(0);
    switch (x.kind) {
    case PY_FLOAT:
        return x;
    case PY_BOOL:
        return vm_make_float(x.b);
    case PY_INT: {
        double d;
        if (!pyint_to_double(x.s, &d) || isinf(d))
            vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR],
                           "int too large to convert to float");
        return vm_make_float(d);
    }
    case PY_BYTES:
    case PY_STR: {
        char *t = arena_strdup(vm->a, x.s), *p = t, *end;
        while (isspace((unsigned char)*p))
            p++;
        size_t len = strlen(p);
        while (len && isspace((unsigned char)p[len - 1]))
            p[--len] = '\0';
        /* no hex floats, no "infinity" spellings C has and Python lacks */
        bool ok = len > 0 && !strpbrk(p, "xXpP");
        char *clean = arena_alloc(vm->a, len + 1), *c = clean;
        for (size_t k = 0; k < len; k++) {
            if (p[k] == '_') {
                if (k == 0 || k + 1 == len || !isdigit((unsigned char)p[k - 1]) ||
                    !isdigit((unsigned char)p[k + 1]))
                    ok = false;
                continue;
            }
            *c++ = p[k];
        }
        *c = '\0';
        errno = 0;
        double d = ok ? strtod(clean, &end) : 0;
        if (!ok || *end || end == clean)
            vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(vm->a,
                           "could not convert string to float: %s",
                           vm_repr(vm, x)));
        return vm_make_float(d);
    }
    default:
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "float() argument must be a string or a real number, "
                       "not '%s'", vm_type_name(vm, x)));
    }
}

static PyValue c_bool(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "bool", "x=", v, NULL);
    return pyvm_bool(vm_given(v[0]) && vm_truthy(vm, v[0]));
}

static PyValue c_list(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "list", "iterable=", v, NULL);
    PyList *l = vm_list_new(vm, 4);
    if (vm_given(v[0])) {
        size_t n;
        PyValue *items = vm_collect(vm, v[0], &n);
        for (size_t i = 0; i < n; i++)
            vm_list_append(vm, l, items[i]);
    }
    return vm_obj(l);
}

static PyValue c_tuple(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "tuple", "iterable=", v, NULL);
    if (!vm_given(v[0]))
        return vm_make_tuple(vm, NULL, 0);
    if (v[0].kind == PY_TUPLE)
        return v[0];
    size_t n;
    PyValue *items = vm_collect(vm, v[0], &n);
    return vm_make_tuple(vm, items, n);
}

/* dict.update's argument: a mapping or an iterable of pairs. */
void vm_dict_update(PyVM *vm, PyDict *d, PyValue src)
{
    if (vm_is_kind(src, OBJ_DICT)) {
        PyDict *s = (PyDict *)src.obj;
        for (size_t i = 0; i < s->len; i++)
            vm_dict_set(vm, d, s->keys[i], s->values[i]);
        return;
    }
    size_t n;
    PyValue *items = vm_collect(vm, src, &n);
    for (size_t i = 0; i < n; i++) {
        size_t k;
        PyValue *pair;
        if (items[i].kind == PY_STR || vm_is_kind(items[i], OBJ_DICT) ||
            !(items[i].kind == PY_TUPLE || vm_is_kind(items[i], OBJ_LIST)))
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "cannot convert dictionary update sequence element "
                           "#%zu to a sequence", i));
        pair = vm_collect(vm, items[i], &k);
        if (k != 2)
            vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(vm->a,
                           "dictionary update sequence element #%zu has length "
                           "%zu; 2 is required", i, k));
        vm_dict_set(vm, d, pair[0], pair[1]);
    }
}

static PyValue c_dict(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    if (a->nargs > 1)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "dict expected at most 1 argument, got %zu", a->nargs));
    PyDict *d = vm_dict_new(vm);
    if (a->nargs)
        vm_dict_update(vm, d, a->args[0]);
    for (size_t k = 0; k < a->nkw; k++)
        vm_dict_set_str(vm, d, a->kwnames[k], a->kwvalues[k]);
    return vm_obj(d);
}

static PyValue make_set(PyVM *vm, const PyArgs *a, bool frozen)
{
    ARGS(1);
    pyvm_bind(vm, a, frozen ? "frozenset" : "set", "iterable=", v, NULL);
    PySet *s = vm_set_new(vm, frozen);
    if (!vm_given(v[0]))
        return vm_obj(s);
    if (vm_is_kind(v[0], OBJ_SET)) {
        vm_set_merge(vm, s, (PySet *)v[0].obj);
        return vm_obj(s);
    }
    size_t n;
    PyValue *items = vm_collect(vm, v[0], &n);
    for (size_t i = 0; i < n; i++)
        vm_set_add(vm, s, items[i]);
    return vm_obj(s);
}

static PyValue c_set(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return make_set(vm, a, false);
}

static PyValue c_frozenset(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return make_set(vm, a, true);
}

static PyValue c_range(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    if (a->nkw)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], "range() takes no keyword "
                       "arguments");
    if (a->nargs == 0 || a->nargs > 3)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       a->nargs ? "range expected at most 3 arguments, got %zu"
                                : "range expected at least 1 argument, got %zu",
                       a->nargs));
    PyRange *r = vm_alloc_obj(vm, sizeof *r, OBJ_RANGE, vm->types[T_RANGE]);
    int64_t x[3];
    for (size_t i = 0; i < a->nargs; i++) {
        if (!vm_as_int64(a->args[i], &x[i])) {
            if (a->args[i].kind == PY_INT)
                vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR], "Python int "
                               "too large to convert to C ssize_t");
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "'%s' object cannot be interpreted as an integer",
                           vm_type_name(vm, a->args[i])));
        }
    }
    r->step = 1;
    if (a->nargs == 1) {
        r->stop = x[0];
    } else {
        r->start = x[0];
        r->stop = x[1];
        if (a->nargs == 3)
            r->step = x[2];
    }
    if (r->step == 0)
        vm_raise_class(vm, vm->types[T_VALUE_ERROR], "range() arg 3 must not "
                       "be zero");
    return vm_obj(r);
}

static PyValue c_type(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    if (a->nargs == 1 && a->nkw == 0)
        return vm_obj(vm_type_of(vm, a->args[0]));
    if (a->nargs != 3)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR],
                       "type() takes 1 or 3 arguments");
    PyValue name = a->args[0], bases = a->args[1], dict = a->args[2];
    if (name.kind != PY_STR)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "type.__new__() argument 1 must be str, not %s",
                       vm_type_name(vm, name)));
    if (bases.kind != PY_TUPLE)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "type.__new__() argument 2 must be tuple, not %s",
                       vm_type_name(vm, bases)));
    if (!vm_is_kind(dict, OBJ_DICT))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "type.__new__() argument 3 must be dict, not %s",
                       vm_type_name(vm, dict)));
    PyDict *d = vm_dict_copy(vm, (PyDict *)dict.obj);
    if (!vm_dict_find_str(d, "__module__")) {
        /* the calling code's globals' __name__; without one (3.13's
           blocks) CPython's class has no __module__ at all, which prints
           as a class of builtins does */
        PyValue *mod = vm_dict_find_str(vm_scope_now(vm)->globals,
                                        "__name__");
        vm_dict_set_str(vm, d, "__module__",
                        mod ? *mod : vm_make_str(vm, "builtins", 8));
    }
    return vm_make_class(vm, name.s, bases.items, bases.nitems, d);
}

static PyValue c_wrapper(PyVM *vm, const PyArgs *a, void *data)
{
    PyClass *cls = data;
    if (a->nargs != 1 || a->nkw)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "%s expected 1 argument, got %zu", cls->name, a->nargs));
    PyWrapper *w = vm_alloc_obj(vm, sizeof *w, OBJ_WRAPPER, cls);
    w->func = a->args[0];
    return vm_obj(w);
}

static PyValue c_super(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    if (a->nargs == 0)
        return vm_super_here(vm);
    PyClass *cls = vm_as_class(a->args[0]);
    if (!cls)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "super() argument 1 must be a type, not %s",
                       vm_type_name(vm, a->args[0])));
    if (a->nargs != 2)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], "clinic's Python needs "
                       "super() or super(type, obj)");
    PyValue obj = a->args[1];
    PyClass *ot = vm_as_class(obj) ? vm_as_class(obj) : vm_type_of(vm, obj);
    if (!vm_is_subclass(ot, cls))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], "super(type, obj): obj "
                       "must be an instance or subtype of type");
    PySuper *s = vm_alloc_obj(vm, sizeof *s, OBJ_SUPER, vm->types[T_SUPER]);
    s->cls = cls;
    s->self = obj;
    return vm_obj(s);
}

/* ---- functions --------------------------------------------------------- */

static PyValue b_len(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    if (a->nargs != 1 && !a->nkw)   /* a METH_O builtin's words */
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "len() takes exactly one argument (%zu given)",
                       a->nargs));
    pyvm_bind(vm, a, "len", "obj", v, NULL);
    return vm_make_int64(vm, vm_len(vm, v[0]));
}

static bool class_check(PyVM *vm, PyValue v, PyClass *cls, bool subclass)
{
    return subclass ? vm_is_subclass(vm_as_class(v), cls)
                    : vm_isinstance(vm, v, cls);
}

static bool isinstance_of(PyVM *vm, PyValue v, PyValue classes, bool subclass,
                          const char *fname)
{
    PyClass *cls = vm_as_class(classes);
    if (cls)
        return class_check(vm, v, cls, subclass);
    if (classes.kind == PY_TUPLE) {
        bool found = false;
        vm_enter(vm, subclass ? " in __subclasscheck__"
                              : " in __instancecheck__");
        for (size_t i = 0; i < classes.nitems && !found; i++)
            found = isinstance_of(vm, v, classes.items[i], subclass, fname);
        vm_leave(vm);
        return found;
    }
    if (classes.kind == PY_TYPE || classes.kind == PY_SET)
        return isinstance_of(vm, v, pyvm_import(vm, classes), subclass, fname);
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                   "%s() arg 2 must be a type, a tuple of types, or a union",
                   fname));
}

static PyValue b_isinstance(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "isinstance", "obj class_or_tuple", v, NULL);
    return pyvm_bool(isinstance_of(vm, v[0], v[1], false, "isinstance"));
}

static PyValue b_issubclass(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "issubclass", "cls class_or_tuple", v, NULL);
    if (!vm_as_class(v[0]))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR],
                       "issubclass() arg 1 must be a class");
    return pyvm_bool(isinstance_of(vm, v[0], v[1], true, "issubclass"));
}

static PyValue str_value(PyVM *vm, const char *s)
{
    return vm_make_str(vm, s, strlen(s));
}

static PyValue b_repr(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "repr", "obj", v, NULL);
    return str_value(vm, vm_repr(vm, v[0]));
}

static PyValue b_ascii(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "ascii", "obj", v, NULL);
    return str_value(vm, vm_ascii(vm, v[0]));
}

static PyValue b_format(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "format", "value format_spec=", v, NULL);
    if (vm_given(v[1]) && v[1].kind != PY_STR)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "format() argument 2 must be str, not %s",
                       vm_type_name(vm, v[1])));
    return str_value(vm, vm_format(vm, v[0], vm_given(v[1]) ? v[1].s : ""));
}

static PyValue base_repr(PyVM *vm, const PyArgs *a, const char *fname,
                         int base, const char *prefix)
{
    ARGS(1);
    pyvm_bind(vm, a, fname, "number", v, NULL);
    if (v[0].kind != PY_INT && v[0].kind != PY_BOOL)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "'%s' object cannot be interpreted as an integer",
                       vm_type_name(vm, v[0])));
    const char *text = v[0].kind == PY_BOOL ? (v[0].b ? "1" : "0") : v[0].s;
    bool negative = text[0] == '-';
    const char *digits = vm_int_to_base(vm, text + negative, base);
    size_t nd = strlen(digits), np = strlen(prefix);
    char *s = vm_text_alloc(vm, negative + np + nd);
    s[0] = '-';
    memcpy(s + negative, prefix, np);
    memcpy(s + negative + np, digits, nd + 1);
    return vm_make_str(vm, s, negative + np + nd);
}

static PyValue b_hex(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return base_repr(vm, a, "hex", 16, "0x");
}

static PyValue b_oct(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return base_repr(vm, a, "oct", 8, "0o");
}

static PyValue b_bin(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return base_repr(vm, a, "bin", 2, "0b");
}

static PyValue b_ord(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "ord", "c", v, NULL);
    if (v[0].kind != PY_STR && v[0].kind != PY_BYTES)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "ord() expected string of length 1, but %s found",
                       vm_type_name(vm, v[0])));
    size_t n = v[0].kind == PY_STR ? vm_str_len(v[0].s, v[0].len) : v[0].len;
    if (n != 1)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "ord() expected a character, but string of length %zu "
                       "found", n));
    uint32_t cp = (unsigned char)v[0].s[0];
    if (v[0].kind == PY_STR)
        utf8_decode((const unsigned char *)v[0].s, v[0].len, &cp);
    return vm_make_int64(vm, cp);
}

static PyValue b_chr(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "chr", "i", v, NULL);
    int64_t i = vm_index(vm, v[0], "an integer is required (got type str)");
    if (i < 0 || i > 0x10ffff)
        vm_raise_class(vm, vm->types[T_VALUE_ERROR],
                       "chr() arg not in range(0x110000)");
    StrBuf sb = STRBUF_INIT;
    utf8_encode(&sb, (uint32_t)i);
    PyValue r = vm_make_str(vm, sb.buf, sb.len);
    sb_free(&sb);
    return r;
}

static PyValue b_abs(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "abs", "x", v, NULL);
    PyValue x = v[0];
    if (x.kind == PY_INT || x.kind == PY_BOOL) {
        const char *t = x.kind == PY_BOOL ? (x.b ? "1" : "0") : x.s;
        return py_make_int(t[0] == '-' ? t + 1 : t);
    }
    if (x.kind == PY_FLOAT)
        return vm_make_float(fabs(x.f));
    if (x.kind == PY_COMPLEX)
        return vm_make_float(hypot(x.f, x.imag));
    PyValue r;
    if (vm_call_special(vm, x, "__abs__", NULL, 0, &r))
        return r;
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                   "bad operand type for abs(): '%s'", vm_type_name(vm, x)));
}

static PyValue b_round(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "round", "number ndigits=", v, NULL);
    PyValue x = v[0];
    bool nd = vm_given(v[1]) && v[1].kind != PY_NONE;
    int64_t n = nd ? vm_index(vm, v[1], "'float' object cannot be "
                                         "interpreted as an integer") : 0;
    if (x.kind == PY_INT || x.kind == PY_BOOL) {
        if (x.kind == PY_BOOL)
            x = vm_make_int64(vm, x.b);
        if (!nd || n >= 0)
            return x;
        uint64_t places = (uint64_t)0 - (uint64_t)n;
        /* |x| < 10**digits <= 10**(places - 1): half of 10**places is
           more, so x rounds to 0 (and 10**places is never computed) */
        const char *digits = x.s + (x.s[0] == '-');
        if (strlen(digits) < places)
            return vm_make_int64(vm, 0);
        return vm_int_round_tens(vm, x.s, places);
    }
    if (x.kind != PY_FLOAT)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "type %s doesn't define __round__ method",
                       vm_type_name(vm, x)));
    if (!nd) {
        if (isnan(x.f))
            vm_raise_class(vm, vm->types[T_VALUE_ERROR],
                           "cannot convert float NaN to integer");
        if (isinf(x.f))
            vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR],
                           "cannot convert float infinity to integer");
        char *t = arena_printf(vm->a, "%.0f", nearbyint(x.f));
        return py_make_int(strcmp(t, "-0") ? t : "0");
    }
    if (!isfinite(x.f) || n > 320)
        return x;
    if (n < -320)
        return vm_make_float(copysign(0.0, x.f));
    if (n >= 0) {
        char *t = arena_printf(vm->a, "%.*f", (int)n, x.f);
        return vm_make_float(strtod(t, NULL));
    }
    /* to tens, hundreds, ...: as many significant digits as are left,
       correctly rounded (half to even) as Python's dtoa does */
    if (x.f == 0)
        return x;
    char *e = arena_printf(vm->a, "%.40e", x.f);
    int decpt = atoi(strchr(e, 'e') + 1) + 1;
    int64_t sig = decpt + n;
    if (sig > 0) {
        char *t = arena_printf(vm->a, "%.*e", (int)sig - 1, x.f);
        return vm_make_float(strtod(t, NULL));
    }
    if (sig < 0)
        return vm_make_float(copysign(0.0, x.f));
    /* below one unit: up to it only past the half (a tie goes to 0) */
    const char *digits = e[0] == '-' ? e + 1 : e;
    bool above = digits[0] > '5';
    if (digits[0] == '5')
        for (const char *d = digits + 2; *d && *d != 'e'; d++)
            if (*d != '0')
                above = true;
    double unit = strtod(arena_printf(vm->a, "1e%lld", (long long)-n), NULL);
    return vm_make_float(above ? copysign(unit, x.f) : copysign(0.0, x.f));
}

static PyValue b_divmod(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "divmod", "x y", v, NULL);
    PyValue pair[2] = { vm_binop(vm, "FloorDiv", v[0], v[1]),
                        vm_binop(vm, "Mod", v[0], v[1]) };
    return vm_make_tuple(vm, pair, 2);
}

static PyValue b_pow(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(3);
    pyvm_bind(vm, a, "pow", "base exp mod=", v, NULL);
    if (!vm_given(v[2]) || v[2].kind == PY_NONE)
        return vm_binop(vm, "Pow", v[0], v[1]);
    if ((v[0].kind != PY_INT && v[0].kind != PY_BOOL) ||
        (v[1].kind != PY_INT && v[1].kind != PY_BOOL) ||
        (v[2].kind != PY_INT && v[2].kind != PY_BOOL))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], "pow() 3rd argument not "
                       "allowed unless all arguments are integers");
    PyValue base = vm_binop(vm, "Mod", v[0], v[2]), result = vm_make_int64(vm, 1);
    PyValue e = v[1];
    if (e.kind == PY_INT && e.s[0] == '-')
        vm_raise_class(vm, vm->types[T_VALUE_ERROR], "clinic's Python has no "
                       "modular inverse (pow with a negative exponent)");
    if (!strcmp(vm_unaryop(vm, "UAdd", v[2]).s, "0"))
        vm_raise_class(vm, vm->types[T_VALUE_ERROR], "pow() 3rd argument "
                       "cannot be 0");
    while (vm_truthy(vm, e)) {
        if (vm_truthy(vm, vm_binop(vm, "BitAnd", e, vm_make_int64(vm, 1))))
            result = vm_binop(vm, "Mod", vm_binop(vm, "Mult", result, base), v[2]);
        e = vm_binop(vm, "RShift", e, vm_make_int64(vm, 1));
        base = vm_binop(vm, "Mod", vm_binop(vm, "Mult", base, base), v[2]);
    }
    return vm_binop(vm, "Mod", result, v[2]);
}

static PyValue b_hash(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "hash", "obj", v, NULL);
    return vm_make_int64(vm, vm_hash(vm, v[0]));
}

static PyValue b_id(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "id", "obj", v, NULL);
    return vm_make_int64(vm, v[0].kind == PY_OBJECT
                                 ? (int64_t)(uintptr_t)v[0].obj
                                 : vm_hash(vm, v[0]));
}

static PyValue b_callable(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "callable", "obj", v, NULL);
    PyValue call;
    bool c = v[0].kind == PY_OBJECT &&
             (v[0].obj->kind == OBJ_FUNCTION || v[0].obj->kind == OBJ_NATIVE ||
              v[0].obj->kind == OBJ_METHOD || v[0].obj->kind == OBJ_CLASS ||
              (v[0].obj->kind == OBJ_INSTANCE &&
               vm_lookup(v[0].obj->type, "__call__", &call, NULL)));
    return pyvm_bool(c);
}

static const char *attr_name(PyVM *vm, PyValue v)
{
    if (v.kind != PY_STR)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "attribute name must be string, not '%s'",
                       vm_type_name(vm, v)));
    return v.s;
}

typedef struct GetAttr {
    PyValue obj;
    const char *name;
    PyValue out;
} GetAttr;

static void protected_getattr(PyVM *vm, void *ctx)
{
    GetAttr *g = ctx;
    g->out = vm_getattr(vm, g->obj, g->name);
}

/* getattr that reports AttributeError as false and lets others fly. */
static bool try_getattr(PyVM *vm, PyValue obj, const char *name, PyValue *out)
{
    GetAttr g = { obj, name, py_none };
    if (vm_protect(vm, protected_getattr, &g)) {
        *out = g.out;
        return true;
    }
    if (vm_exception_matches(vm, vm->types[T_ATTRIBUTE_ERROR]))
        return false;
    vm_throw(vm, vm->error.value);
}

static PyValue b_getattr(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(3);
    pyvm_bind(vm, a, "getattr", "object name default=", v, NULL);
    const char *name = attr_name(vm, v[1]);
    if (!vm_given(v[2]))
        return vm_getattr(vm, v[0], name);
    PyValue out;
    return try_getattr(vm, v[0], name, &out) ? out : v[2];
}

static PyValue b_hasattr(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "hasattr", "obj name", v, NULL);
    PyValue out;
    return pyvm_bool(try_getattr(vm, v[0], attr_name(vm, v[1]), &out));
}

static PyValue b_setattr(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(3);
    pyvm_bind(vm, a, "setattr", "obj name value", v, NULL);
    vm_setattr(vm, v[0], attr_name(vm, v[1]), v[2]);
    return none();
}

static PyValue b_delattr(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "delattr", "obj name", v, NULL);
    vm_delattr(vm, v[0], attr_name(vm, v[1]));
    return none();
}

static PyValue b_vars(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "vars", "object", v, NULL);
    PyValue d;
    if (!vm_getattr_opt(vm, v[0], "__dict__", &d))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], "vars() argument must "
                       "have __dict__ attribute");
    return d;
}

/* The names of a dict of variables, sorted, as a list. */
static PyValue sorted_names(PyVM *vm, const char **names, size_t n)
{
    PyList *list = vm_list_new(vm, n);
    for (size_t i = 0; i < n; i++)
        vm_list_append(vm, list, vm_make_str(vm, names[i], strlen(names[i])));
    return vm_obj(list);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* dir(): the names of the running scope; dir(obj): its attributes,
   where clinic's interpreter knows them all. */
static PyValue b_dir(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "dir", "object=", v, NULL);
    if (a->nargs == 0) {
        const PyDict *vars = vm_scope_now(vm)->vars;
        const char **names = arena_array_of(vm->a, const char *,
                                            vars->len + 1);
        size_t n = 0;
        for (size_t i = 0; i < vars->len; i++)
            if (vars->keys[i].kind == PY_STR)
                names[n++] = vars->keys[i].s;
        qsort(names, n, sizeof *names, by_name);
        return sorted_names(vm, names, n);
    }
    /* Enum's own __dir__, of a member and of the class */
    static const char *const member_dir[] = {
        "__class__", "__doc__", "__eq__", "__hash__", "__module__", "name",
        "value",
    };
    static const char *const class_dir[] = {
        "__class__", "__contains__", "__doc__", "__getitem__",
        "__init_subclass__", "__iter__", "__len__", "__members__",
        "__module__", "__name__", "__qualname__", "unknown", "unspecified",
    };
    PyValue members;
    if (vm_sentinel_member(vm, v[0]))
        return sorted_names(vm, (const char **)member_dir,
                            sizeof member_dir / sizeof *member_dir);
    if (vm_enum_members(vm, v[0], &members))
        return sorted_names(vm, (const char **)class_dir,
                            sizeof class_dir / sizeof *class_dir);
    size_t n;
    const char **names = vm_dir_names(vm, v[0], &n);
    if (!names)
        vm_raise_class(vm, vm->types[T_NOT_IMPLEMENTED_ERROR], arena_printf(
                       vm->a, "clinic's interpreter does not know every "
                       "attribute of a '%s' object: dir() of it is not "
                       "supported", vm_type_name(vm, v[0])));
    return sorted_names(vm, names, n);
}

/* globals(): the dict the running code's globals are. */
static PyValue b_globals(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    pyvm_bind(vm, a, "globals", "", NULL, NULL);
    PyDict *g = vm_scope_now(vm)->globals;
    vm_dict_make_all(g);   /* Python code holds it now */
    return vm_obj(g);
}

static PyValue b_iter(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "iter", "object", v, NULL);
    return vm_iter(vm, v[0]);
}

static PyValue b_next(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "next", "iterator default=", v, NULL);
    PyValue out, nx;
    if (!vm_is_kind(v[0], OBJ_ITER) &&
        !vm_lookup(vm_type_of(vm, v[0]), "__next__", &nx, NULL))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "'%s' object is not an iterator", vm_type_name(vm, v[0])));
    if (vm_next(vm, v[0], &out))
        return out;
    if (vm_given(v[1]))
        return v[1];
    vm_throw(vm, vm_new_exception(vm, vm->types[T_STOP_ITERATION], NULL, 0));
}

static PyValue b_sorted(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    if (a->nargs != 1)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "sorted expected 1 argument, got %zu", a->nargs));
    PyArgs rest = { NULL, 0, a->kwnames, a->kwvalues, a->nkw };
    ARGS(2);
    pyvm_bind(vm, &rest, "sort", "* key= reverse=", v, NULL);
    size_t n;
    PyValue *items = vm_collect(vm, a->args[0], &n);
    PyValue *copy = arena_array_of(vm->a, PyValue, n + 1);
    memcpy(copy, items, n * sizeof *copy);
    return vm_sorted(vm, copy, n, vm_given(v[0]) ? v[0] : py_none,
                     vm_given(v[1]) && vm_truthy(vm, v[1]));
}

static PyValue b_reversed(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "reversed", "sequence", v, NULL);
    PyValue s = v[0];
    if (!(s.kind == PY_STR || s.kind == PY_TUPLE || vm_is_kind(s, OBJ_LIST) ||
          vm_is_kind(s, OBJ_RANGE) || vm_is_kind(s, OBJ_DICT) ||
          vm_is_kind(s, OBJ_DICTVIEW)))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "'%s' object is not reversible", vm_type_name(vm, s)));
    size_t n;
    PyValue *items = vm_collect(vm, s, &n);
    PyList *l = vm_list_new(vm, n + 1);
    for (size_t i = n; i-- > 0;)
        vm_list_append(vm, l, items[i]);
    return iterator_over(vm, l);
}

static PyValue b_enumerate(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "enumerate", "iterable start=", v, NULL);
    PyValue i = vm_given(v[1]) ? v[1] : vm_make_int64(vm, 0);
    if (i.kind != PY_INT && i.kind != PY_BOOL)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "'%s' object cannot be interpreted as an integer",
                       vm_type_name(vm, i)));
    size_t n;
    PyValue *items = vm_collect(vm, v[0], &n);
    PyList *l = vm_list_new(vm, n + 1);
    for (size_t k = 0; k < n; k++) {
        PyValue pair[2] = { i, items[k] };
        vm_list_append(vm, l, vm_make_tuple(vm, pair, 2));
        i = vm_binop(vm, "Add", i, vm_make_int64(vm, 1));
    }
    return iterator_over(vm, l);
}

static PyValue b_zip(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    bool strict = false;
    for (size_t k = 0; k < a->nkw; k++) {
        if (strcmp(a->kwnames[k], "strict"))
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "zip() got an unexpected keyword argument '%s'",
                           a->kwnames[k]));
        strict = vm_truthy(vm, a->kwvalues[k]);
    }
    PyValue **cols = arena_array_of(vm->a, PyValue *, a->nargs + 1);
    size_t *lens = arena_array_of(vm->a, size_t, a->nargs + 1);
    size_t n = a->nargs ? SIZE_MAX : 0;
    for (size_t i = 0; i < a->nargs; i++) {
        cols[i] = vm_collect(vm, a->args[i], &lens[i]);
        if (lens[i] < n)
            n = lens[i];
    }
    if (strict)
        for (size_t i = 1; i < a->nargs; i++)
            if (lens[i] != lens[0])
                vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(vm->a,
                               "zip() argument %zu is %s than argument%s%s",
                               i + 1, lens[i] < lens[0] ? "shorter" : "longer",
                               i == 1 ? " 1" : "s 1-",
                               i == 1 ? "" : arena_printf(vm->a, "%zu", i)));
    PyList *l = vm_list_new(vm, n + 1);
    PyValue *row = arena_array_of(vm->a, PyValue, a->nargs + 1);
    for (size_t k = 0; k < n; k++) {
        for (size_t i = 0; i < a->nargs; i++)
            row[i] = cols[i][k];
        vm_list_append(vm, l, vm_make_tuple(vm, row, a->nargs));
    }
    return iterator_over(vm, l);
}

static PyValue b_map(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    if (a->nargs < 2)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR],
                       "map() must have at least two arguments.");
    size_t ncols = a->nargs - 1, n = SIZE_MAX;
    PyValue **cols = arena_array_of(vm->a, PyValue *, ncols);
    for (size_t i = 0; i < ncols; i++) {
        size_t len;
        cols[i] = vm_collect(vm, a->args[i + 1], &len);
        if (len < n)
            n = len;
    }
    PyList *l = vm_list_new(vm, n + 1);
    PyValue *row = arena_array_of(vm->a, PyValue, ncols);
    for (size_t k = 0; k < n; k++) {
        for (size_t i = 0; i < ncols; i++)
            row[i] = cols[i][k];
        vm_list_append(vm, l, vm_call(vm, a->args[0], row, ncols, NULL, NULL, 0));
    }
    return iterator_over(vm, l);
}

static PyValue b_filter(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "filter", "function iterable", v, NULL);
    size_t n;
    PyValue *items = vm_collect(vm, v[1], &n);
    PyList *l = vm_list_new(vm, n + 1);
    for (size_t k = 0; k < n; k++) {
        PyValue keep = v[0].kind == PY_NONE ? items[k]
                                            : vm_call1(vm, v[0], items[k]);
        if (vm_truthy(vm, keep))
            vm_list_append(vm, l, items[k]);
    }
    return iterator_over(vm, l);
}

static PyValue b_any_all(PyVM *vm, const PyArgs *a, bool want_any)
{
    ARGS(1);
    pyvm_bind(vm, a, want_any ? "any" : "all", "iterable", v, NULL);
    PyValue it = vm_iter(vm, v[0]), item;
    while (vm_next(vm, it, &item))
        if (vm_truthy(vm, item) == want_any)
            return pyvm_bool(want_any);
    return pyvm_bool(!want_any);
}

static PyValue b_any(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return b_any_all(vm, a, true);
}

static PyValue b_all(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return b_any_all(vm, a, false);
}

static PyValue b_sum(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "sum", "iterable start=", v, NULL);
    PyValue total = vm_given(v[1]) ? v[1] : vm_make_int64(vm, 0);
    if (total.kind == PY_STR)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], "sum() can't sum strings "
                       "[use ''.join(seq) instead]");
    PyValue it = vm_iter(vm, v[0]), item;
    while (vm_next(vm, it, &item)) {
        vm_work(vm, WORK_STEP);   /* an addition is a statement's work */
        total = vm_binop(vm, "Add", total, item);
    }
    return total;
}

static PyValue min_max(PyVM *vm, const PyArgs *a, bool want_max)
{
    const char *fname = want_max ? "max" : "min";
    PyValue key = py_none, dflt = pyvm_absent;
    for (size_t k = 0; k < a->nkw; k++) {
        if (!strcmp(a->kwnames[k], "key"))
            key = a->kwvalues[k];
        else if (!strcmp(a->kwnames[k], "default"))
            dflt = a->kwvalues[k];
        else
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "%s() got an unexpected keyword argument '%s'",
                           fname, a->kwnames[k]));
    }
    if (a->nargs == 0)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "%s expected at least 1 argument, got 0", fname));
    size_t n;
    PyValue *items;
    if (a->nargs == 1) {
        items = vm_collect(vm, a->args[0], &n);
    } else {
        if (vm_given(dflt))
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "Cannot specify a default for %s() with multiple "
                           "positional arguments", fname));
        items = (PyValue *)a->args;
        n = a->nargs;
    }
    if (n == 0) {
        if (vm_given(dflt))
            return dflt;
        vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(vm->a,
                       "%s() arg is an empty sequence", fname));
    }
    PyValue best = items[0];
    PyValue best_key = key.kind == PY_NONE ? best : vm_call1(vm, key, best);
    for (size_t i = 1; i < n; i++) {
        PyValue k = key.kind == PY_NONE ? items[i] : vm_call1(vm, key, items[i]);
        if (want_max ? vm_compare(vm, "Gt", k, best_key) : vm_lt(vm, k, best_key)) {
            best = items[i];
            best_key = k;
        }
    }
    return best;
}

static PyValue b_min(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return min_max(vm, a, false);
}

static PyValue b_max(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return min_max(vm, a, true);
}

/* ---- installing -------------------------------------------------------- */

static const NativeDef builtin_functions[] = {
    { "print", b_print }, { "len", b_len }, { "isinstance", b_isinstance },
    { "issubclass", b_issubclass }, { "repr", b_repr }, { "ascii", b_ascii },
    { "format", b_format }, { "hex", b_hex }, { "oct", b_oct }, { "bin", b_bin },
    { "ord", b_ord }, { "chr", b_chr }, { "abs", b_abs }, { "round", b_round },
    { "divmod", b_divmod }, { "pow", b_pow }, { "hash", b_hash }, { "id", b_id },
    { "callable", b_callable }, { "getattr", b_getattr },
    { "hasattr", b_hasattr }, { "setattr", b_setattr },
    { "delattr", b_delattr }, { "vars", b_vars }, { "iter", b_iter },
    { "next", b_next }, { "sorted", b_sorted }, { "reversed", b_reversed },
    { "enumerate", b_enumerate }, { "zip", b_zip }, { "map", b_map },
    { "filter", b_filter }, { "any", b_any }, { "all", b_all }, { "sum", b_sum },
    { "min", b_min }, { "max", b_max }, { "dir", b_dir },
    { "globals", b_globals },
};

static const struct {
    int type;
    PyNativeFn construct;
} constructors[] = {
    { T_OBJECT, c_object }, { T_STR, c_str }, { T_INT, c_int },
    { T_FLOAT, c_float }, { T_BOOL, c_bool }, { T_LIST, c_list },
    { T_TUPLE, c_tuple }, { T_DICT, c_dict }, { T_SET, c_set },
    { T_FROZENSET, c_frozenset }, { T_RANGE, c_range }, { T_TYPE, c_type },
    { T_SUPER, c_super }, { T_PROPERTY, c_wrapper },
    { T_STATICMETHOD, c_wrapper }, { T_CLASSMETHOD, c_wrapper },
};

/* The builtins dict is laid out the same in every interpreter (fixed
   names in a fixed order, into an empty dict): its hashes and index are
   kept per thread once made and copied into the next interpreter's. */
#define NFUNCTIONS (sizeof builtin_functions / sizeof builtin_functions[0])
static _Thread_local PyDictLayout builtins_layout;

/* the classes by name: everything but the internal ones */
static const int named[] = {
    T_OBJECT, T_TYPE, T_INT, T_BOOL, T_FLOAT, T_COMPLEX, T_STR, T_BYTES,
    T_BYTEARRAY, T_TUPLE, T_LIST, T_DICT, T_SET, T_FROZENSET, T_RANGE,
    T_PROPERTY, T_STATICMETHOD, T_CLASSMETHOD, T_SUPER, T_SLICE,
};
#define NNAMED (sizeof named / sizeof named[0])
/* the functions, the classes, Ellipsis and __name__, in this order */
#define NBUILTINS (NFUNCTIONS + NNAMED + (T_COUNT - T_BASE_EXCEPTION) + 2)

/* The i-th entry of the builtins dict. */
static void builtin_entry(PyVM *vm, size_t i, PyNative *natives,
                          const char **name, PyValue *value)
{
    if (i < NFUNCTIONS) {
        *name = builtin_functions[i].name;
        *value = vm_obj(&natives[i]);
        return;
    }
    i -= NFUNCTIONS;
    PyClass *cls = i < NNAMED ? vm->types[named[i]]
                 : i - NNAMED < (size_t)(T_COUNT - T_BASE_EXCEPTION)
                     ? vm->types[T_BASE_EXCEPTION + (int)(i - NNAMED)]
                     : NULL;
    if (cls) {
        *name = cls->name;
        *value = vm_obj(cls);
    } else if (i == NNAMED + (T_COUNT - T_BASE_EXCEPTION)) {
        *name = "Ellipsis";
        *value = py_make_opaque("ellipsis", "Ellipsis");
    } else {
        *name = "__name__";
        *value = vm_make_str(vm, "builtins", 8);
    }
}

void vm_install_builtins(PyVM *vm)
{
    for (size_t i = 0; i < sizeof constructors / sizeof constructors[0]; i++)
        vm->types[constructors[i].type]->construct = constructors[i].construct;
    PyNative *natives = arena_array_of(vm->a, PyNative, NFUNCTIONS);
    for (size_t i = 0; i < NFUNCTIONS; i++) {
        natives[i].ob.kind = OBJ_NATIVE;
        natives[i].ob.type = vm->types[T_BUILTIN];
        natives[i].name = builtin_functions[i].name;
        natives[i].fn = builtin_functions[i].fn;
    }
    const char *names[NBUILTINS];
    PyValue values[NBUILTINS];
    for (size_t i = 0; i < NBUILTINS; i++)
        builtin_entry(vm, i, natives, &names[i], &values[i]);
    pyvm_dict_fill_static(vm, &vm->builtins->ob, &builtins_layout, names,
                          values, NBUILTINS);
}
