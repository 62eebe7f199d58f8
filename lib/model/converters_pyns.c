/*
 * converters_pyns.c — clinic.py's module namespace, as a python block
 * sees it: the converter classes (converters_py.c), unspecified, NULL and
 * unknown, fail and warn, the text helpers clinic.py's converters use
 * (ensure_legal_c_identifier, c_repr, rstrip_lines, normalize_snippet,
 * ...), add_c_converter and its relatives, and clinic.py's constants.
 */
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "model/converters_py_int.h"

/* ---- clinic.py's module namespace -------------------------------------- */

const char *const cpy_clinic_strings[CPY_CLINIC_NSTRINGS][2] = {
    { "version", "1" }, { "NO_VARARG", "PY_SSIZE_T_MAX" },
    { "CLINIC_PREFIX", "__clinic_" }, { "sig_end_marker", "--" },
    /* the kinds of a function, each its own name */
    { "INVALID", "INVALID" }, { "CALLABLE", "CALLABLE" },
    { "STATIC_METHOD", "STATIC_METHOD" }, { "CLASS_METHOD", "CLASS_METHOD" },
    { "METHOD_INIT", "METHOD_INIT" }, { "METHOD_NEW", "METHOD_NEW" },
};


/* " ".join(str(a) for a in args), and line_number=, for fail and warn. */
static const char *message_of(PyVM *vm, const PyArgs *a, int *line)
{
    ConverterPython *py = cpy_of_vm(vm);
    StrBuf sb = STRBUF_INIT;
    const char *text;
    *line = 0;
    for (size_t k = 0; k < a->nkw; k++) {
        if (!strcmp(a->kwnames[k], "line_number") &&
            a->kwvalues[k].kind == PY_INT)
            *line = atoi(a->kwvalues[k].s);
        else if (strcmp(a->kwnames[k], "filename") &&
                 strcmp(a->kwnames[k], "line_number"))
            pyvm_raise(vm, "TypeError", "fail() got an unexpected keyword "
                       "argument '%s'", a->kwnames[k]);
    }
    for (size_t i = 0; i < a->nargs; i++) {
        text = pyvm_to_str(vm, a->args[i]);
        if (i)
            sb_addc(&sb, ' ');
        sb_adds(&sb, text);
    }
    return sb_take(&sb, py->c->arena);
}

static PyValue ns_fail(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    int line;
    const char *msg = message_of(vm, a, &line);
    clinic_fail(cpy_of_vm(vm)->c, line, "%s", msg);
}

static PyValue ns_warn(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    int line;
    const char *msg = message_of(vm, a, &line);
    clinic_warn(cpy_of_vm(vm)->c, line, "%s", msg);
    return py_none;
}

static const char *str_arg(PyVM *vm, const PyArgs *a, const char *fname)
{
    PyValue v[1];
    pyvm_bind(vm, a, fname, "s", v, NULL);
    if (v[0].kind != PY_STR)
        pyvm_raise(vm, "TypeError", "%s() needs a str, not %s", fname,
                   cpy_other_type(cpy_of_vm(vm), v[0], "str"));
    return v[0].s;
}

static Arena *arena_of(PyVM *vm)
{
    return cpy_of_vm(vm)->c->arena;
}

static PyValue ns_ensure_legal_c_identifier(PyVM *vm, const PyArgs *a,
                                            void *data)
{
    (void)data;
    const char *s = str_arg(vm, a, "ensure_legal_c_identifier");
    const char *r = text_legal_c_identifier(arena_of(vm), s);
    if (!r)
        clinic_fail(cpy_of_vm(vm)->c, 0, "Illegal C identifier: %s", s);
    return pyvm_str(vm, r);
}

static PyValue ns_is_legal_c_identifier(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    const char *s = str_arg(vm, a, "is_legal_c_identifier");
    return text_legal_c_identifier(arena_of(vm), s) || text_is_c_keyword(s)
               ? pyvm_bool(true) : py_none;
}

static PyValue ns_is_legal_py_identifier(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return pyvm_bool(text_is_legal_py_identifier(
        str_arg(vm, a, "is_legal_py_identifier")));
}

/* The text helpers that take one str. */
static PyValue ns_text1(PyVM *vm, const PyArgs *a, void *data)
{
    const char *which = data;
    Arena *ar = arena_of(vm);
    const char *s = str_arg(vm, a, which);
    if (!strcmp(which, "rstrip_lines"))
        return pyvm_str(vm, text_rstrip_lines(ar, s));
    if (!strcmp(which, "c_repr"))
        return pyvm_str(vm, text_c_repr(ar, s));
    if (!strcmp(which, "quoted_for_c_string"))
        return pyvm_str(vm, text_quoted_for_c_string(ar, s));
    if (!strcmp(which, "format_escape"))
        return pyvm_str(vm, text_format_escape(ar, s));
    /* strip_leading_and_trailing_blank_lines */
    const char *r = text_rstrip(ar, s);
    while (*r) {
        const char *nl = strchr(r, '\n');
        size_t len = nl ? (size_t)(nl - r) : strlen(r);
        bool blank = true;
        for (size_t i = 0; i < len; i++)
            if (!strchr(" \t\f\v\r", r[i]))
                blank = false;
        if (!blank || !nl)
            break;
        r = nl + 1;
    }
    return pyvm_str(vm, r);
}

static PyValue ns_affix_lines(PyVM *vm, const PyArgs *a, void *data)
{
    const char *which = data;
    PyValue v[2];
    pyvm_bind(vm, a, which, !strcmp(which, "indent_all_lines") ? "s prefix"
                                                               : "s suffix",
              v, NULL);
    if (v[0].kind != PY_STR || v[1].kind != PY_STR)
        pyvm_raise(vm, "TypeError", "%s() needs str arguments", which);
    return pyvm_str(vm, !strcmp(which, "indent_all_lines")
                            ? text_indent_all_lines(arena_of(vm), v[0].s, v[1].s)
                            : text_suffix_all_lines(arena_of(vm), v[0].s, v[1].s));
}

static PyValue ns_normalize_snippet(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[2];
    pyvm_bind(vm, a, "normalize_snippet", "s * indent=", v, NULL);
    if (v[0].kind != PY_STR)
        pyvm_raise(vm, "TypeError", "normalize_snippet() needs a str");
    int indent = 0;
    if (cpy_given(v[1])) {
        if (v[1].kind != PY_INT)
            pyvm_raise(vm, "TypeError", "indent must be an int");
        indent = atoi(v[1].s);
    }
    return pyvm_str(vm, text_normalize_snippet(arena_of(vm), v[0].s, indent));
}

static PyValue ns_wrap_declarations(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[2];
    pyvm_bind(vm, a, "wrap_declarations", "text length=", v, NULL);
    if (v[0].kind != PY_STR)
        pyvm_raise(vm, "TypeError", "wrap_declarations() needs a str");
    int length = cpy_given(v[1]) && v[1].kind == PY_INT ? atoi(v[1].s) : 78;
    return pyvm_str(vm, text_wrap_declarations(arena_of(vm), v[0].s, length));
}

static PyValue ns_linear_format(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[1];
    PyObj *kw;
    pyvm_bind(vm, a, "linear_format", "s **", v, &kw);
    if (v[0].kind != PY_STR)
        pyvm_raise(vm, "TypeError", "linear_format() needs a str");
    StrMap m = { 0 };
    PyValue key, value;
    for (size_t i = 0; pyvm_dict_entry(kw, i, &key, &value); i++)
        strmap_set(arena_of(vm), &m, key.s, pyvm_to_str(vm, value));
    return pyvm_str(vm, text_linear_format(arena_of(vm), v[0].s, &m));
}

static PyValue ns_correct_name_for_self(PyVM *vm, const PyArgs *a, void *data)
{
    const char *which = data;
    PyValue v[1];
    pyvm_bind(vm, a, which, "f", v, NULL);
    Function *f = cpy_unwrap_function(cpy_of_vm(vm), v[0]);
    if (!f)
        pyvm_raise(vm, "AttributeError", "'NoneType' object has no attribute "
                   "'kind'");
    const char *type, *name;
    correct_name_for_self(f, &type, &name);
    if (!strcmp(which, "correct_name_for_self")) {
        PyValue pair[2] = { pyvm_str(vm, type), pyvm_str(vm, name) };
        return pyvm_tuple(vm, pair, 2);
    }
    /* required_type_for_self_for_parser */
    return f->kind == FUNC_CALLABLE ? py_none : pyvm_str(vm, type);
}

/* The converter class behind v (a class deriving from CConverter). */
static const ConverterClass *converter_class_of(ConverterPython *py, PyValue v)
{
    PyObj *cconverter = cpy_row_class(py, &converter_rows[0]);
    if (v.kind != PY_OBJECT ||
        !pyvm_is_subclass(pyvm_class_of(py->vm, v),
                          pyvm_builtin_class(py->vm, "type")) ||
        !pyvm_is_subclass(v.obj, cconverter))
        return NULL;
    return pyvm_class_data(v.obj);
}

static const ReturnConverterClass *return_class_of(ConverterPython *py,
                                                   PyValue v)
{
    PyObj *base = cpy_return_row_class(py, &return_rows[0]);
    if (v.kind != PY_OBJECT ||
        !pyvm_is_subclass(pyvm_class_of(py->vm, v),
                          pyvm_builtin_class(py->vm, "type")) ||
        !pyvm_is_subclass(v.obj, base))
        return NULL;
    return pyvm_class_data(v.obj);
}

/* add_c_converter(f, name=None) and add_c_return_converter(f, name=None):
   f under name, or under its class name less the suffix. */
static PyValue ns_add_c_converter(PyVM *vm, const PyArgs *a, void *data)
{
    bool is_return = data != NULL;
    ConverterPython *py = cpy_of_vm(vm);
    PyValue v[2];
    pyvm_bind(vm, a, is_return ? "add_c_return_converter" : "add_c_converter",
              "f name=", v, NULL);
    const ConverterClass *cls = is_return ? NULL : converter_class_of(py, v[0]);
    const ReturnConverterClass *rcls = is_return ? return_class_of(py, v[0])
                                                 : NULL;
    if (!cls && !rcls)
        pyvm_raise(vm, "TypeError", "clinic registers only %sconverter "
                   "classes, not %s", is_return ? "return " : "",
                   pyvm_type_name(vm, v[0]));
    const char *name;
    if (cpy_given(v[1]) && pyvm_truthy(vm, v[1])) {
        name = cpy_need_str(py, v[1], "name");
    } else {
        const char *suffix = is_return ? "_return_converter" : "_converter";
        const char *cname = pyvm_class_name(v[0].obj);
        size_t n = strlen(cname), k = strlen(suffix);
        if (n < k || strcmp(cname + n - k, suffix))
            return v[0];
        name = arena_strndup(py->c->file_arena, cname, n - k);
    }
    if (is_return)
        return_converter_register_name(py->c, name, rcls);
    else
        converter_register_name(py->c, name, cls);
    return v[0];
}

static PyValue ns_add_default_legacy_c_converter(PyVM *vm, const PyArgs *a,
                                                 void *data)
{
    (void)data;
    ConverterPython *py = cpy_of_vm(vm);
    PyValue v[1];
    pyvm_bind(vm, a, "add_default_legacy_c_converter", "cls", v, NULL);
    const ConverterClass *cls = converter_class_of(py, v[0]);
    if (!cls)
        pyvm_raise(vm, "TypeError", "clinic registers only converter "
                   "classes, not %s", pyvm_type_name(vm, v[0]));
    const char *unit = cls->format_unit;
    if (unit && strcmp(unit, "O&") && unit[0] &&
        !converter_has_legacy(py->c, unit))
        converter_register_legacy(py->c, unit, cls, NULL, 0);
    return v[0];
}

/* add_legacy_c_converter(format_unit, **kwargs) returns the decorator
   that registers its class under format_unit with those keywords. */
typedef struct LegacyDecorator {
    const char *format_unit;
    ConverterArg *kwargs;
    size_t nkwargs;
} LegacyDecorator;

static PyValue legacy_decorator(PyVM *vm, const PyArgs *a, void *data)
{
    LegacyDecorator *d = data;
    ConverterPython *py = cpy_of_vm(vm);
    PyValue v[1];
    pyvm_bind(vm, a, "closure", "f", v, NULL);
    const ConverterClass *cls = converter_class_of(py, v[0]);
    if (!cls)
        pyvm_raise(vm, "TypeError", "clinic registers only converter "
                   "classes, not %s", pyvm_type_name(vm, v[0]));
    if (d->format_unit[0])
        converter_register_legacy(py->c, d->format_unit, cls, d->kwargs,
                                  d->nkwargs);
    return v[0];
}

static PyValue ns_add_legacy_c_converter(PyVM *vm, const PyArgs *a,
                                         void *data)
{
    (void)data;
    ConverterPython *py = cpy_of_vm(vm);
    PyValue v[1];
    PyObj *kw;
    pyvm_bind(vm, a, "add_legacy_c_converter", "format_unit **", v, &kw);
    /* the registry keeps what it registers for the whole file */
    LegacyDecorator *d = arena_new_of(py->c->file_arena, LegacyDecorator);
    d->format_unit = v[0].kind == PY_STR ? v[0].s : "";
    d->kwargs = cpy_args_of_dict(py, kw, &d->nkwargs);
    return pyvm_native(vm, "closure", legacy_decorator, d, false);
}

static const NamespaceDef functions_3_11[] = {
    { "fail", ns_fail, NULL },
    { "add_c_converter", ns_add_c_converter, NULL },
    { "add_c_return_converter", ns_add_c_converter, "return" },
    { "add_default_legacy_c_converter", ns_add_default_legacy_c_converter,
      NULL },
    { "add_legacy_c_converter", ns_add_legacy_c_converter, NULL },
    { "warn", ns_warn, NULL },
    { "ensure_legal_c_identifier", ns_ensure_legal_c_identifier, NULL },
    { "is_legal_c_identifier", ns_is_legal_c_identifier, NULL },
    { "is_legal_py_identifier", ns_is_legal_py_identifier, NULL },
    { "rstrip_lines", ns_text1, "rstrip_lines" },
    { "c_repr", ns_text1, "c_repr" },
    { "quoted_for_c_string", ns_text1, "quoted_for_c_string" },
    { "format_escape", ns_text1, "format_escape" },
    { "strip_leading_and_trailing_blank_lines", ns_text1,
      "strip_leading_and_trailing_blank_lines" },
    { "indent_all_lines", ns_affix_lines, "indent_all_lines" },
    { "suffix_all_lines", ns_affix_lines, "suffix_all_lines" },
    { "normalize_snippet", ns_normalize_snippet, NULL },
    { "wrap_declarations", ns_wrap_declarations, NULL },
    { "linear_format", ns_linear_format, NULL },
    { "correct_name_for_self", ns_correct_name_for_self,
      "correct_name_for_self" },
    { "required_type_for_self_for_parser", ns_correct_name_for_self,
      "required_type_for_self_for_parser" },
};

/* The values of the namespace made on first use (pyvm_lazy_value):
   the classes of the built-in converters (made from the static rows
   alone, the same whenever they are made: no row's default_type names a
   class of the namespace), the sets of names and type_checks.  A file's
   blocks use a few of them. */
enum {
    LAZY_PREFIXED_ARGS, LAZY_C_KEYWORDS, LAZY_TYPE_CHECKS,
    LAZY_ROWS   /* then the converter rows, then the return rows */
};
/* 3.11's module names (cpy_make_module_name) are from here on */
#define LAZY_MODULE_NAMES ((size_t)1 << 24)

static PyValue make_type_checks(PyVM *vm)
{
    PyObj *checks = pyvm_dict_new(vm);
    for (const TypeCheck *t = conv_type_checks; t->subclass_of; t++) {
        PyValue pair[2] = { pyvm_str(vm, t->typecheck),
                            pyvm_str(vm, t->typename_) };
        pyvm_dict_set_static(vm, checks, t->subclass_of,
                             pyvm_tuple(vm, pair, 2));
    }
    return pyvm_obj(checks);
}

static PyValue make_namespace_value(PyVM *vm, size_t which)
{
    static const char *const prefixed_args[] = { "args", NULL };
    ConverterPython *py = cpy_of_vm(vm);
    if (which >= LAZY_MODULE_NAMES)
        return cpy_make_module_name(vm, which - LAZY_MODULE_NAMES);
    switch (which) {
    case LAZY_PREFIXED_ARGS: return pyvm_str_set(vm, prefixed_args);
    case LAZY_C_KEYWORDS: return pyvm_str_set(vm, text_c_keywords);
    case LAZY_TYPE_CHECKS: return make_type_checks(vm);
    }
    which -= LAZY_ROWS;
    if (which < converter_nrows)
        return pyvm_obj(cpy_row_class(py, &converter_rows[which]));
    return pyvm_obj(cpy_return_row_class(py,
                                         &return_rows[which - converter_nrows]));
}

/* What a namespace's entries will be, in order, before they go in. */
typedef struct Entries {
    const char **names;
    PyValue *values;
    size_t n;
} Entries;

static void put(Entries *e, const char *name, PyValue value)
{
    e->names[e->n] = name;
    e->values[e->n++] = value;
}

/* The namespace's layout, per dialect (each has its own classes) and
   flavour: a handful of dialects, found by address. */
typedef struct NamespaceLayout {
    const Dialect *dialect;
    bool module_globals;
    PyDictLayout layout;
} NamespaceLayout;
static _Thread_local NamespaceLayout namespace_layouts[8];

static PyDictLayout *namespace_layout(const Dialect *d, bool module_globals)
{
    const size_t n = sizeof namespace_layouts / sizeof namespace_layouts[0];
    for (size_t i = 0; i < n; i++) {
        NamespaceLayout *l = &namespace_layouts[i];
        if (!l->dialect) {
            l->dialect = d;
            l->module_globals = module_globals;
        }
        if (l->dialect == d && l->module_globals == module_globals)
            return &l->layout;
    }
    return NULL;
}

/* clinic.py 3.11's module globals: every name of the module (the ones
   made above, and its imports, classes and functions, made when read),
   in its order, as globals() and dir() in a block show them.  Which
   entry of e goes where is the same for every file of a dialect: found
   once per thread. */
typedef struct ModuleOrder {
    const Dialect *dialect;
    size_t n;
    short from[512];    /* >= 0: e's entry; -1 - i: module_order[i] */
} ModuleOrder;
static _Thread_local ModuleOrder module_orders[4];

static Entries *in_module_order(ConverterPython *py, PyObj *g, Entries *e)
{
    size_t norder;
    const char *const *order = cpy_module_order(&norder);
    ModuleOrder *mo = NULL;
    for (size_t i = 0; i < sizeof module_orders / sizeof *module_orders; i++)
        if (!module_orders[i].dialect ||
            module_orders[i].dialect == py->c->dialect) {
            mo = &module_orders[i];
            break;
        }
    if (mo && mo->dialect == NULL && norder + e->n <= 512) {
        bool *used = xcalloc(e->n + 1, sizeof *used);
        mo->n = 0;
        for (size_t i = 0; i < norder; i++) {
            if (!strcmp(order[i], "__name__"))   /* the interpreter's own */
                continue;
            short from = -1;
            for (size_t k = 0; k < e->n && from < 0; k++)
                if (!used[k] && !strcmp(e->names[k], order[i]))
                    from = (short)k;
            if (from >= 0)
                used[from] = true;
            mo->from[mo->n++] = from >= 0 ? from : (short)(-1 - (int)i);
        }
        for (size_t k = 0; k < e->n; k++)   /* any the module lacks: last */
            if (!used[k])
                mo->from[mo->n++] = (short)k;
        free(used);
        mo->dialect = py->c->dialect;
    }
    if (!mo || mo->dialect != py->c->dialect)
        return e;   /* more dialects than kept: the entries as made */
    const char **names = xmalloc((mo->n + 1) * sizeof *names);
    PyValue *values = xmalloc((mo->n + 1) * sizeof *values);
    size_t n = 0;
    for (size_t i = 0; i < mo->n; i++) {
        short from = mo->from[i];
        if (from >= 0) {
            names[n] = e->names[from];
            values[n++] = e->values[from];
        } else {
            size_t lazy;
            if (!cpy_module_name_value(py, order[-1 - from], &lazy,
                                       &values[n]))
                continue;
            if (lazy != SIZE_MAX)
                values[n] = pyvm_lazy_value(py->vm, g, make_namespace_value,
                                            LAZY_MODULE_NAMES + lazy);
            names[n++] = order[-1 - from];
        }
    }
    free(e->names);
    free(e->values);
    e->names = names;
    e->values = values;
    e->n = n;
    return e;
}

void cpy_install_namespace(ConverterPython *py)
{
    PyVM *vm = py->vm;
    PyObj *g = pyvm_globals(vm);
    const PyFlavour *fl = py->flavour;
    /* the classes, the buffers, unspecified and NoneType; then the
       module's functions, strings, NULL, unknown, the three classes, the
       two sets, type_checks and the host classes */
    size_t count = converter_nrows + 2 * return_nrows + 3 + 2;
    if (fl->module_globals)
        count += fl->nfunctions + fl->nstrings + 2 + 3 + 2 + 1 + 6;
    Entries entries = { xmalloc(count * sizeof *entries.names),
                        xmalloc(count * sizeof *entries.values), 0 };
    Entries *e = &entries;
    /* the converters of the dialect: a class a newer one adds is no
       name in an older one's blocks, and a base registered under no
       converter name (BaseUnsignedIntConverter) none in any */
    for (size_t i = 0; i < converter_nrows; i++)
        if (converter_row_in_dialect(&converter_rows[i], py->c->dialect) &&
            (converter_rows[i].listed || !converter_rows[i].cls.base))
            put(e, converter_rows[i].cls.class_name,
                pyvm_lazy_value(vm, g, make_namespace_value, LAZY_ROWS + i));
    /* the return converters: clinic.py's module has every class;
       libclinic's namespace the registered ones, by name (3.13's object
       is CReturnConverter), and CReturnConverter */
    const Dialect *d = py->c->dialect;
    for (size_t i = 0; i < return_nrows; i++) {
        const ReturnConverterClass *rc = &return_rows[i].cls;
        if (!fl->module_globals && rc->base &&
            (!return_rows[i].listed ||
             dialect_lacks_return_converter(d, rc->name)))
            continue;
        put(e, rc->class_name,
            pyvm_lazy_value(vm, g, make_namespace_value,
                            LAZY_ROWS + converter_nrows + i));
    }
    for (const DialectAlias *al = d->return_converter_aliases;
         al && al->name && !fl->module_globals; al++)
        for (size_t i = 0; i < return_nrows; i++)
            if (!strcmp(return_rows[i].cls.class_name, al->class_name))
                put(e, al->registered_as,
                    pyvm_lazy_value(vm, g, make_namespace_value,
                                    LAZY_ROWS + converter_nrows + i));
    static const char *const buffers[] = { "buffer", "rwbuffer", "robuffer" };
    for (size_t i = 0; i < 3; i++)
        put(e, buffers[i], pyvm_obj(pyvm_class_new(vm, buffers[i], fl->module,
                                                   NULL, 0, NULL, NULL, NULL)));
    put(e, "unspecified", py_unspecified);
    put(e, "NoneType", pyvm_obj(pyvm_builtin_class(vm, "NoneType")));
    if (fl->module_globals) {
        for (size_t i = 0; i < fl->nfunctions; i++)
            put(e, fl->functions[i].name,
                pyvm_native(vm, fl->functions[i].name, fl->functions[i].native,
                            (void *)fl->functions[i].data, false));
        for (size_t i = 0; i < fl->nstrings; i++)
            put(e, fl->strings[i][0], pyvm_str(vm, fl->strings[i][1]));
        put(e, "NULL", py_null);
        put(e, "unknown", py_unknown);
        static const char *const classes[] = { "Null", "Unspecified",
                                               "Unknown" };
        for (size_t i = 0; i < 3; i++)
            put(e, classes[i], pyvm_obj(pyvm_builtin_class(vm, classes[i])));
        put(e, "CLINIC_PREFIXED_ARGS",
            pyvm_lazy_value(vm, g, make_namespace_value, LAZY_PREFIXED_ARGS));
        put(e, "c_keywords",
            pyvm_lazy_value(vm, g, make_namespace_value, LAZY_C_KEYWORDS));
        put(e, "type_checks",
            pyvm_lazy_value(vm, g, make_namespace_value, LAZY_TYPE_CHECKS));
        static const char *const hosts[] = { "Function", "Parameter", "Class",
                                             "Module", "CRenderData",
                                             "LandMine" };
        PyObj *made[6] = { py->cls_function, py->cls_parameter,
                           py->cls_class, py->cls_module, py->cls_renderdata,
                           py->cls_landmine };
        for (size_t i = 0; i < 6; i++)
            put(e, hosts[i], pyvm_obj(made[i]));
    }
    if (fl->module_globals)
        e = in_module_order(py, g, e);
    PyDictLayout *layout = namespace_layout(py->c->dialect, fl->module_globals);
    if (layout)
        pyvm_dict_fill_static(vm, g, layout, e->names, e->values, e->n);
    else   /* more dialects than the cache holds: filled name by name */
        for (size_t i = 0; i < e->n; i++)
            pyvm_dict_set_static(vm, g, e->names[i], e->values[i]);
    free(e->names);
    free(e->values);
}

/* libclinic.dsl_parser's globals and DSLParser.parse_parameter's locals
   where it evaluates a default (eval(default), eval(code) from 3.14),
   in order */
static const char *const dsl_parser_globals_3_13[] = {
    "__name__", "__doc__", "__package__", "__loader__", "__spec__",
    "__file__", "__cached__", "__builtins__", "__annotations__",
    "annotations", "ast", "enum", "inspect", "pprint", "re", "shlex", "sys",
    "Callable", "FunctionType", "NoneType", "TYPE_CHECKING", "Any",
    "NamedTuple", "libclinic", "ClinicError", "VersionTuple", "fail", "warn",
    "unspecified", "unknown", NULL, "Module", "Class", "Function",
    "Parameter", "FunctionKind", "CALLABLE", "STATIC_METHOD", "CLASS_METHOD",
    "METHOD_INIT", "METHOD_NEW", "GETTER", "SETTER", "converters",
    "legacy_converters", "self_converter", "defining_class_converter",
    "correct_name_for_self", "CReturnConverter", "return_converters",
    "int_return_converter", "create_parser_namespace",
    "unsupported_special_methods", "StateKeeper", "ConverterArgs",
    "ParamState", "FunctionNames", "eval_ast_expr", "IndentStack",
    "DSLParser", NULL,
};
static const char *const dsl_parser_globals_3_14[] = {
    "__name__", "__doc__", "__package__", "__loader__", "__spec__",
    "__file__", "__cached__", "__builtins__", "__annotations__",
    "annotations", "ast", "enum", "inspect", "pprint", "re", "shlex", "sys",
    "Callable", "FunctionType", "TYPE_CHECKING", "Any", "NamedTuple",
    "libclinic", "ClinicError", "VersionTuple", "fail", "warn", "unspecified",
    "unknown", NULL, "Module", "Class", "Function", "Parameter",
    "FunctionKind", "CALLABLE", "STATIC_METHOD", "CLASS_METHOD",
    "METHOD_INIT", "METHOD_NEW", "ACCESSORS", "SETTERS", "converters",
    "legacy_converters", "self_converter", "defining_class_converter",
    "correct_name_for_self", "CReturnConverter", "return_converters",
    "int_return_converter", "create_parser_namespace",
    "unsupported_special_methods", "StateKeeper", "ConverterArgs",
    "ParamState", "FunctionNames", "eval_ast_expr", "IndentStack",
    "DSLParser", NULL,
};
static const char *const parse_parameter_locals_3_13[] = {
    "self", "line", "c_name", "name", "have_as_token", "trailing", "base",
    "equals", "default", "module", "ast_input", "function", "function_args",
    "is_vararg", "parameter", "parameter_name", "legacy", "kwargs", "bad",
    NULL,
};
static const char *const parse_parameter_locals_3_14[] = {
    "self", "line", "c_name", "m", "ast_input", "module", "function",
    "function_args", "is_vararg", "parameter", "parameter_name", "name",
    "legacy", "kwargs", "has_c_default", "expr", "default", "bad", "code",
    NULL,
};
static const char *const parse_parameter_locals_3_15[] = {
    "self", "line", "c_name", "m", "ast_input", "module", "function",
    "function_args", "is_vararg", "is_var_keyword", "parameter",
    "parameter_name", "name", "legacy", "kwargs", "has_c_default", "expr",
    "default", "bad", "code", NULL,
};

/* What libclinic's classes annotate: CConverter's attributes (as text),
   CReturnConverter's default and self_converter's type (evaluated, in
   modules without the future import); 3.14 adds c_init_default and
   specified_type. */
static const ClassAnnotation class_annotations_3_13[] = {
    { "CConverter", "name", "str", ANN_TEXT },
    { "CConverter", "py_name", "str", ANN_TEXT },
    { "CConverter", "type", "str | None", ANN_TEXT },
    { "CConverter", "default", "object", ANN_TEXT },
    { "CConverter", "default_type", "bltns.type[object] | tuple[bltns.type[object], ...] | None", ANN_TEXT },
    { "CConverter", "c_default", "str | None", ANN_TEXT },
    { "CConverter", "py_default", "str | None", ANN_TEXT },
    { "CConverter", "c_ignored_default", "str", ANN_TEXT },
    { "CConverter", "converter", "str | None", ANN_TEXT },
    { "CConverter", "encoding", "str | None", ANN_TEXT },
    { "CConverter", "subclass_of", "str | None", ANN_TEXT },
    { "CConverter", "signature_name", "str | None", ANN_TEXT },
    { "CConverter", "broken_limited_capi", "bool", ANN_TEXT },
    { "CReturnConverter", "default", NULL, ANN_OBJECT },
    { "self_converter", "type", NULL, ANN_OPTIONAL_STR },
    { NULL, NULL, NULL, ANN_TEXT },
};
static const ClassAnnotation class_annotations_3_14[] = {
    { "CConverter", "name", "str", ANN_TEXT },
    { "CConverter", "py_name", "str", ANN_TEXT },
    { "CConverter", "type", "str | None", ANN_TEXT },
    { "CConverter", "default", "object", ANN_TEXT },
    { "CConverter", "default_type", "bltns.type[object] | tuple[bltns.type[object], ...]", ANN_TEXT },
    { "CConverter", "c_default", "str | None", ANN_TEXT },
    { "CConverter", "py_default", "str | None", ANN_TEXT },
    { "CConverter", "c_init_default", "str", ANN_TEXT },
    { "CConverter", "c_ignored_default", "str", ANN_TEXT },
    { "CConverter", "converter", "str | None", ANN_TEXT },
    { "CConverter", "encoding", "str | None", ANN_TEXT },
    { "CConverter", "subclass_of", "str | None", ANN_TEXT },
    { "CConverter", "signature_name", "str | None", ANN_TEXT },
    { "CConverter", "broken_limited_capi", "bool", ANN_TEXT },
    { "CReturnConverter", "default", NULL, ANN_OBJECT },
    { "defining_class_converter", "specified_type", NULL, ANN_OPTIONAL_STR },
    { "self_converter", "type", NULL, ANN_OPTIONAL_STR },
    { "self_converter", "specified_type", NULL, ANN_OPTIONAL_STR },
    { NULL, NULL, NULL, ANN_TEXT },
};

void cpy_add_class_annotations(ConverterPython *py, PyObj *dict,
                               const char *class_name)
{
    const ClassAnnotation *t = py->flavour->class_annotations;
    PyVM *vm = py->vm;
    PyObj *ann = NULL;
    for (; t && t->class_name; t++) {
        if (strcmp(t->class_name, class_name))
            continue;
        if (!ann)
            ann = pyvm_dict_new(vm);
        PyValue v = t->kind == ANN_TEXT ? pyvm_str(vm, t->text)
                  : t->kind == ANN_OBJECT
                      ? pyvm_obj(pyvm_builtin_class(vm, "object"))
                      : pyvm_union(vm, pyvm_obj(pyvm_builtin_class(vm, "str")),
                                   py_none);
        pyvm_dict_set(vm, ann, t->name, v);
    }
    if (ann)
        pyvm_dict_set_static(vm, dict, "__annotations__", pyvm_obj(ann));
}

#define COUNT(t) (sizeof (t) / sizeof (t)[0])

const PyFlavour cpy_flavour_3_11 = {
    "3.11",
    cpy_converter_methods_3_11, cpy_return_methods_3_11,
    functions_3_11, COUNT(functions_3_11),
    cpy_clinic_strings, CPY_CLINIC_NSTRINGS,
    "__main__",   /* clinic.py runs as a script */
    "__main__", "__main__",
    true, false, true, false, false, false, false,
    NULL, NULL, false, NULL,
};

/* libclinic's parser namespace holds no functions or constants. */
const PyFlavour cpy_flavour_3_13 = {
    "3.13",
    cpy_converter_methods_3_13, cpy_return_methods_3_11,
    NULL, 0, NULL, 0,
    "libclinic.converters", "libclinic.converter", "libclinic.return_converters",
    false, true, false, true, false, false, false,
    dsl_parser_globals_3_13, parse_parameter_locals_3_13, true,
    class_annotations_3_13,
};

/* 3.14's: the converter computes its C default (c_init_default, the
   c_default_init method). */
const PyFlavour cpy_flavour_3_14 = {
    "3.14",
    cpy_converter_methods_3_14, cpy_return_methods_3_11,
    NULL, 0, NULL, 0,
    "libclinic.converters", "libclinic.converter", "libclinic.return_converters",
    false, true, false, true, true, true, false,
    dsl_parser_globals_3_14, parse_parameter_locals_3_14, true,
    class_annotations_3_14,
};

/* 3.15's: the unsigned converters keep bitwise in the instance. */
const PyFlavour cpy_flavour_3_15 = {
    "3.15",
    cpy_converter_methods_3_14, cpy_return_methods_3_11,
    NULL, 0, NULL, 0,
    "libclinic.converters", "libclinic.converter", "libclinic.return_converters",
    false, true, false, true, true, true, true,
    dsl_parser_globals_3_14, parse_parameter_locals_3_15, true,
    class_annotations_3_14,
};

const PyFlavour *cpy_flavour_of(const Dialect *d)
{
    static const PyFlavour *const flavours[] = { &cpy_flavour_3_11,
                                                 &cpy_flavour_3_13,
                                                 &cpy_flavour_3_14,
                                                 &cpy_flavour_3_15 };
    /* a dialect without a flavour of its own has its base's (3.15's
       python blocks see 3.14's API) */
    for (; d; d = d->base)
        for (size_t i = 0; i < COUNT(flavours); i++)
            if (strcmp(flavours[i]->version, d->name) == 0)
                return flavours[i];
    return &cpy_flavour_3_11;
}
