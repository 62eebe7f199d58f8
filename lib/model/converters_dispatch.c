/*
 * converters_dispatch.c — the methods of the converter classes, and the
 * one dispatch every call of them goes through.
 *
 * Every method call, from the generator or from Python, goes through the
 * same lookup: the class's MRO finds either a Python function, which runs
 * in the interpreter, or a built-in, whose C (converters.c,
 * converters_render.c) runs with the kind of the class that defines it.
 * A converter whose class no python block made pays one test: its class
 * has no interpreter class, and the built-in runs at once.  The natives
 * below are the built-ins as Python sees them (super().parse_arg(...),
 * self.declare(data)); the tables say which of clinic.py's classes
 * define which method.
 *
 * A dialect with other converter classes (3.13's parse_arg with
 * limited_capi, format_code, ...) supplies its own tables of methods and
 * natives to the same machinery; the interpreter and the dispatch stay.
 */
#include <stdint.h>
#include <string.h>

#include "model/converters_py_int.h"

/* ---- the methods: a table, the natives Python calls, the dispatch C calls --- */

#define K(kind) (UINT64_C(1) << (kind))

/* A native bound to the class whose dict holds it. */
typedef struct Binding {
    const MethodDef *def;
    const ConverterRow *row;
    const ReturnRow *return_row;
    ConverterPython *py;
} Binding;

bool cpy_given(PyValue v)
{
    return pyvm_given(v);
}

const char *cpy_need_str(ConverterPython *py, PyValue v, const char *what)
{
    if (v.kind != PY_STR)
        pyvm_raise(py->vm, "TypeError", "%s must be a str, not %s", what,
                   cpy_other_type(py, v, "str"));
    return v.s;
}

static PyValue m_init(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[5];
    PyObj *kw;
    pyvm_bind(vm, a, "CConverter.__init__",
              "self name py_name function default= **", v, &kw);
    Converter *conv = cpy_unwrap_converter(py, v[0], "__init__");
    size_t n;
    ConverterArg *args = cpy_args_of_dict(py, kw, &n);
    builtin_cconverter_init(py->c, conv, cpy_need_str(py, v[1], "name"),
                            cpy_need_str(py, v[2], "py_name"),
                            cpy_unwrap_function(py, v[3]),
                            cpy_given(v[4]) ? pyvm_export(vm, v[4]) : py_unspecified,
                            args, n);
    return py_none;
}

static PyValue m_converter_init(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[1];
    PyObj *kw;
    pyvm_bind(vm, a, arena_printf(py->c->arena, "%s.converter_init",
                                  b->row->init_owner), "self **", v, &kw);
    Converter *conv = cpy_unwrap_converter(py, v[0], "converter_init");
    size_t n;
    ConverterArg *args = cpy_args_of_dict(py, kw, &n);
    builtin_converter_init(py->c, b->row, conv, args, n);
    return py_none;
}

static PyValue m_is_optional(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "is_optional", "self", v, NULL);
    return pyvm_bool(builtin_is_optional(cpy_unwrap_converter(b->py, v[0],
                                                          "is_optional")));
}

static PyValue m_c_default_init(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "c_default_init", "self", v, NULL);
    builtin_c_default_init(b->py->c, b->row->kind,
                           cpy_unwrap_converter(b->py, v[0],
                                                "c_default_init"));
    return py_none;
}

/* render(parameter, data) and its two halves. */
static PyValue m_render(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[3];
    pyvm_bind(vm, a, b->def->name, "self parameter data", v, NULL);
    Converter *conv = cpy_unwrap_converter(py, v[0], b->def->name);
    Parameter *p = cpy_unwrap_parameter(py, v[1]);
    RenderData *d = cpy_unwrap_data(py, v[2]);
    if (!strcmp(b->def->name, "_render_self"))
        builtin_render_self(py->c, conv, p, d);
    else if (!strcmp(b->def->name, "_render_non_self"))
        builtin_render_non_self(py->c, conv, p, d);
    else
        builtin_render(py->c, b->row->kind, conv, p, d);
    cpy_data_to_python(py, d);
    return py_none;
}

static PyValue m_length_name(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "length_name", "self", v, NULL);
    return cpy_str_or_none(b->py, builtin_length_name(b->py->c,
                       cpy_unwrap_converter(b->py, v[0], "length_name")));
}

static PyValue m_parse_argument(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[2];
    pyvm_bind(vm, a, "parse_argument", "self list", v, NULL);
    Converter *conv = cpy_unwrap_converter(py, v[0], "parse_argument");
    StrList l = { 0 };
    cpy_read_list(py, v[1], &l);
    builtin_parse_argument(py->c, conv, &l);
    cpy_fill_list(py, pyvm_as_list(v[1]), &l);
    return py_none;
}

static PyValue m_simple_declaration(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[3];
    pyvm_bind(vm, a, "simple_declaration", "self by_reference= * in_parser=",
              v, NULL);
    Converter *conv = cpy_unwrap_converter(b->py, v[0], "simple_declaration");
    return pyvm_str(vm, builtin_simple_declaration(b->py->c, conv,
                    cpy_given(v[1]) && pyvm_truthy(vm, v[1]),
                    cpy_given(v[2]) && pyvm_truthy(vm, v[2])));
}

static PyValue m_declaration(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[2];
    pyvm_bind(vm, a, "declaration", "self * in_parser=", v, NULL);
    return pyvm_str(vm, builtin_declaration(b->py->c,
                    cpy_unwrap_converter(b->py, v[0], "declaration")));
}

static PyValue m_snippet(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, b->def->name, "self", v, NULL);
    Converter *conv = cpy_unwrap_converter(b->py, v[0], b->def->name);
    return pyvm_str(vm, builtin_snippet(b->py->c, b->row->kind, conv,
                                        (ConverterSnippet)b->def->arg));
}

static PyValue m_pre_render(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "pre_render", "self", v, NULL);
    builtin_pre_render(b->py->c, b->row->kind,
                       cpy_unwrap_converter(b->py, v[0], "pre_render"));
    return py_none;
}

static PyValue m_parse_arg(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[3];
    pyvm_bind(vm, a, "parse_arg", "self argname displayname", v, NULL);
    Converter *conv = cpy_unwrap_converter(py, v[0], "parse_arg");
    return cpy_str_or_none(py, builtin_parse_arg(py->c, b->row->kind, conv,
                       cpy_need_str(py, v[1], "argname"),
                       cpy_need_str(py, v[2], "displayname"), false, true));
}

/* 3.13: parse_arg(self, argname, displayname, *, limited_capi) */
static PyValue m_parse_arg_limited(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[4];
    pyvm_bind(vm, a, "parse_arg", "self argname displayname * limited_capi",
              v, NULL);
    Converter *conv = cpy_unwrap_converter(py, v[0], "parse_arg");
    return cpy_str_or_none(py, builtin_parse_arg(py->c, b->row->kind, conv,
                       cpy_need_str(py, v[1], "argname"),
                       cpy_need_str(py, v[2], "displayname"),
                       pyvm_truthy(vm, v[3]), true));
}

/* fmt with "{name}" replaced by what; a TypeError when the caller gave
   nothing (or nothing true) for it. */
static const char *fill_bad_argument(PyVM *vm, const char *fmt,
                                     const char *name, PyValue what)
{
    ConverterPython *py = pyvm_host(vm);
    const char *braced = arena_printf(py->c->arena, "{%s}", name);
    if (!strstr(fmt, braced))
        return fmt;
    if (!cpy_given(what) || !pyvm_truthy(vm, what))
        pyvm_raise(vm, "TypeError", "required '%s' argument", name);
    return text_replace(py->c->arena, fmt, braced,
                        cpy_need_str(py, what, name));
}

/* 3.13: format_code(self, fmt, *, argname, bad_argument=None,
   bad_argument2=None, **kwargs): fmt.format(argname=argname,
   paramname=self.parser_name, **kwargs) after the bad_arguments. */
static PyValue m_format_code(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[5];
    PyObj *kw;
    pyvm_bind(vm, a, "format_code",
              "self fmt * argname bad_argument= bad_argument2= **", v, &kw);
    Converter *conv = cpy_unwrap_converter(py, v[0], "format_code");
    const char *fmt = cpy_need_str(py, v[1], "fmt");
    fmt = fill_bad_argument(vm, fmt, "bad_argument", v[3]);
    fmt = fill_bad_argument(vm, fmt, "bad_argument2", v[4]);

    size_t n = 2;
    PyValue key, value;
    for (size_t i = 0; pyvm_dict_entry(kw, i, &key, &value); i++)
        n++;
    const char **names = arena_array_of(py->c->arena, const char *, n);
    PyValue *values = arena_array_of(py->c->arena, PyValue, n);
    names[0] = "argname";
    values[0] = v[2];
    names[1] = "paramname";
    values[1] = pyvm_str(vm, converter_parser_name(py->c, conv));
    n = 2;
    for (size_t i = 0; pyvm_dict_entry(kw, i, &key, &value); i++) {
        names[n] = key.s;
        values[n++] = value;
    }
    PyArgs fa = { NULL, 0, names, values, n };
    return pyvm_call(vm, pyvm_getattr(vm, pyvm_str(vm, fmt), "format"), &fa);
}

/* 3.13: bad_argument(self, displayname, expected, *, limited_capi,
   expected_literal=True) */
static PyValue m_bad_argument(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[5];
    pyvm_bind(vm, a, "bad_argument",
              "self displayname expected * limited_capi expected_literal=",
              v, NULL);
    Converter *conv = cpy_unwrap_converter(py, v[0], "bad_argument");
    bool literal = !cpy_given(v[4]) || pyvm_truthy(vm, v[4]);
    return pyvm_str(vm, builtin_bad_argument(py->c, conv,
                    cpy_need_str(py, v[1], "displayname"),
                    cpy_need_str(py, v[2], "expected"), !literal,
                    pyvm_truthy(vm, v[3])));
}

static PyValue m_use_converter(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "use_converter", "self", v, NULL);
    builtin_use_converter(b->py->c, b->row->kind,
                          cpy_unwrap_converter(b->py, v[0], "use_converter"));
    return py_none;
}

/* 3.13: add_include(self, name, reason, *, condition=None) */
static PyValue m_add_include(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[4];
    pyvm_bind(vm, a, "add_include", "self name reason * condition=", v, NULL);
    Converter *conv = cpy_unwrap_converter(py, v[0], "add_include");
    /* shared with the copies made for rendering: see converter_add_include */
    if (!conv->includes)
        conv->includes = arena_new_of(py->c->file_arena, IncludeList);
    include_list_add(py->c->file_arena, conv->includes,
                     cpy_need_str(py, v[1], "name"),
                     cpy_need_str(py, v[2], "reason"),
                     cpy_given(v[3]) && v[3].kind != PY_NONE
                         ? cpy_need_str(py, v[3], "condition") : NULL);
    return py_none;
}

/* libclinic.codegen.Include's fields, in the dataclass's order */
static const char *const include_fields[] = { "filename", "reason",
                                              "condition" };

/* libclinic.codegen.Include's repr, a dataclass's */
static PyValue include_repr(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[1];
    pyvm_bind(vm, a, "__repr__", "self", v, NULL);
    PyObj *d = pyvm_instance_dict(v[0]);
    StrBuf sb = STRBUF_INIT;
    sb_adds(&sb, "Include(");
    for (size_t i = 0; i < 3; i++) {
        PyValue f = py_none;
        if (d)
            pyvm_dict_get(vm, d, include_fields[i], &f);
        sb_addf(&sb, "%s%s=%s", i ? ", " : "", include_fields[i],
                pyvm_repr(vm, f));
    }
    sb_addc(&sb, ')');
    PyValue r = pyvm_str(vm, sb.buf);
    sb_free(&sb);
    return r;
}

/* Include(filename, reason, condition), the dataclass's __init__ */
static PyValue include_init(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[4];
    pyvm_bind(vm, a, "__init__", "self filename reason condition", v, NULL);
    PyObj *d = pyvm_instance_dict(v[0]);
    for (size_t i = 0; d && i < 3; i++)
        pyvm_dict_set(vm, d, include_fields[i], v[i + 1]);
    return py_none;
}

static PyValue include_object(ConverterPython *py, const Include *in)
{
    PyVM *vm = py->vm;
    if (!py->cls_include) {
        PyObj *dict = pyvm_dict_new(vm);
        pyvm_dict_set_static(vm, dict, "__init__",
                             pyvm_native(vm, "__init__", include_init, NULL,
                                         true));
        pyvm_dict_set_static(vm, dict, "__repr__",
                             pyvm_native(vm, "__repr__", include_repr, NULL,
                                         true));
        py->cls_include = pyvm_class_new(vm, "Include", "libclinic.codegen",
                                         NULL, 0, dict, NULL, NULL);
    }
    PyObj *d = pyvm_dict_new(vm);
    pyvm_dict_set(vm, d, "filename", pyvm_str(vm, in->filename));
    pyvm_dict_set(vm, d, "reason", pyvm_str(vm, in->reason));
    pyvm_dict_set(vm, d, "condition", in->condition
                                          ? pyvm_str(vm, in->condition)
                                          : py_none);
    return pyvm_obj(pyvm_instance_new(vm, py->cls_include, NULL, d));
}

/* 3.13: get_includes(self), the list add_include made */
static PyValue m_get_includes(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "get_includes", "self", v, NULL);
    Converter *conv = cpy_unwrap_converter(b->py, v[0], "get_includes");
    PyObj *list = pyvm_list_new(vm);
    for (size_t i = 0; conv->includes && i < conv->includes->len; i++)
        pyvm_list_append(vm, list,
                         include_object(b->py, &conv->includes->items[i]));
    return pyvm_obj(list);
}

static PyValue m_set_template_dict(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[2];
    pyvm_bind(vm, a, "set_template_dict", "self template_dict", v, NULL);
    Converter *conv = cpy_unwrap_converter(py, v[0], "set_template_dict");
    PyObj *dict = pyvm_as_dict(v[1]);
    if (!dict)
        pyvm_raise(vm, "TypeError", "template_dict must be a dict");
    StrMap m = { 0 };
    cpy_strmap_from_python(py, v[1], &m);
    builtin_set_template_dict(py->c, b->row->kind, conv, &m);
    for (size_t i = 0; i < m.len; i++)
        pyvm_dict_set(vm, dict, m.keys[i], pyvm_str(vm, m.values[i]));
    return py_none;
}

static PyValue m_parser_name(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "parser_name", "self", v, NULL);
    return pyvm_str(vm, builtin_parser_name(b->py->c,
                    cpy_unwrap_converter(b->py, v[0], "parser_name")));
}

static PyValue m_parser_type(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "parser_type", "self", v, NULL);
    return cpy_str_or_none(b->py, builtin_parser_type(b->py->c,
                       cpy_unwrap_converter(b->py, v[0], "parser_type")));
}

/* use_pyobject_self(self, func) (3.14): whether the self parameter is
   a plain PyObject *, by its type (else the function's default) and its
   type= */
static PyValue m_use_pyobject_self(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[2];
    pyvm_bind(vm, a, "use_pyobject_self", "self func", v, NULL);
    Converter *conv = cpy_unwrap_converter(b->py, v[0], "use_pyobject_self");
    const char *type = conv->type, *name;
    if (!type) {
        Function *f = cpy_unwrap_function(b->py, v[1]);
        if (!f)
            pyvm_raise(vm, "AttributeError", "'NoneType' object has no "
                       "attribute 'kind'");
        correct_name_for_self(f, &type, &name);
    }
    bool plain = !strcmp(type, "PyObject *") &&
                 (!conv->self_type || !strcmp(conv->self_type, "PyObject *"));
    return pyvm_bool(plain);
}

/* Which built-in classes define each of CConverter's methods, as
   clinic.py's class bodies do: the methods both versions have alike,
   then each version's own. */
#define METHODS_OF_BOTH \
    { "__init__", m_init, K(CK_BASE), false, 0 }, \
    { "converter_init", m_converter_init, \
      K(CK_BASE) | K(CK_BOOL) | K(CK_DEFINING_CLASS) | K(CK_CHAR) | \
      K(CK_UNSIGNED_CHAR) | K(CK_UNSIGNED_SHORT) | K(CK_INT) | \
      K(CK_UNSIGNED_INT) | K(CK_UNSIGNED_LONG) | K(CK_UNSIGNED_LONG_LONG) | \
      K(CK_PY_SSIZE_T) | K(CK_SLICE_INDEX) | K(CK_OBJECT) | K(CK_STR) | \
      K(CK_PY_UNICODE) | K(CK_PY_BUFFER) | K(CK_SELF), false, 0 }, \
    { "is_optional", m_is_optional, K(CK_BASE), false, 0 }, \
    { "_render_self", m_render, K(CK_BASE), false, 0 }, \
    { "_render_non_self", m_render, K(CK_BASE), false, 0 }, \
    { "render", m_render, K(CK_BASE) | K(CK_DEFINING_CLASS) | K(CK_SELF), \
      false, 0 }, \
    { "length_name", m_length_name, K(CK_BASE), false, 0 }, \
    { "parse_argument", m_parse_argument, K(CK_BASE), false, 0 }, \
    { "simple_declaration", m_simple_declaration, K(CK_BASE), false, 0 }, \
    { "declaration", m_declaration, K(CK_BASE), false, 0 }, \
    { "initialize", m_snippet, K(CK_BASE), false, SNIPPET_INITIALIZE }, \
    { "modify", m_snippet, K(CK_BASE), false, SNIPPET_MODIFY }, \
    { "post_parsing", m_snippet, K(CK_BASE) | K(CK_STR), false, \
      SNIPPET_POST_PARSING }, \
    { "cleanup", m_snippet, K(CK_BASE) | K(CK_PY_UNICODE) | K(CK_PY_BUFFER) | \
      K(CK_VARPOS_TUPLE) | K(CK_VAR_KEYWORD_DICT) | K(CK_UNICODE_FS), \
      false, SNIPPET_CLEANUP }, \
    { "pre_render", m_pre_render, K(CK_BASE) | K(CK_SELF), false, 0 }, \
    { "set_template_dict", m_set_template_dict, \
      K(CK_BASE) | K(CK_DEFINING_CLASS) | K(CK_SELF), false, 0 }, \
    { "parser_name", m_parser_name, K(CK_BASE), true, 0 }, \
    { "parser_type", m_parser_type, K(CK_SELF), true, 0 }

#define PARSE_ARG_KINDS \
    (K(CK_BASE) | K(CK_BOOL) | K(CK_CHAR) | K(CK_UNSIGNED_CHAR) | \
     K(CK_SHORT) | K(CK_UNSIGNED_SHORT) | K(CK_INT) | K(CK_UNSIGNED_INT) | \
     K(CK_LONG) | K(CK_UNSIGNED_LONG) | K(CK_LONG_LONG) | \
     K(CK_UNSIGNED_LONG_LONG) | K(CK_PY_SSIZE_T) | K(CK_SIZE_T) | \
     K(CK_FLOAT) | K(CK_DOUBLE) | K(CK_PY_COMPLEX) | K(CK_STR) | \
     K(CK_PYBYTESOBJECT) | K(CK_PYBYTEARRAYOBJECT) | K(CK_UNICODE) | \
     K(CK_PY_UNICODE) | K(CK_PY_BUFFER) | K(CK_UINT))

const MethodDef cpy_converter_methods_3_11[] = {
    METHODS_OF_BOTH,
    { "parse_arg", m_parse_arg, PARSE_ARG_KINDS, false, 0 },
    { NULL, NULL, 0, false, 0 },
};

/* 3.13's libclinic: parse_arg takes limited_capi (and fildes and
   slice_index have their own); the helpers its parse_args share. */
const MethodDef cpy_converter_methods_3_13[] = {
    METHODS_OF_BOTH,
    { "parse_arg", m_parse_arg_limited,
      PARSE_ARG_KINDS | K(CK_FILDES) | K(CK_SLICE_INDEX), false, 0 },
    { "format_code", m_format_code, K(CK_BASE), false, 0 },
    { "bad_argument", m_bad_argument, K(CK_BASE), false, 0 },
    { "use_converter", m_use_converter,
      K(CK_BASE) | K(CK_PY_SSIZE_T) | K(CK_FILDES) | K(CK_SIZE_T) |
      K(CK_UNSIGNED_INT) | K(CK_UNSIGNED_LONG) | K(CK_UNSIGNED_LONG_LONG) |
      K(CK_UNSIGNED_SHORT) | K(CK_UINT), false, 0 },
    { "add_include", m_add_include, K(CK_BASE), false, 0 },
    { "get_includes", m_get_includes, K(CK_BASE), false, 0 },
    { NULL, NULL, 0, false, 0 },
};
/* 3.14's: 3.13's, and c_default_init, which computes the C default
   from the default (FIX_CONVERTER_C_DEFAULT). */
/* 3.14's: use_converter of the unsigned integers is their base's
   (BaseUnsignedIntConverter, of kind CK_UINT), and self_converter has
   use_pyobject_self. */
const MethodDef cpy_converter_methods_3_14[] = {
    METHODS_OF_BOTH,
    { "parse_arg", m_parse_arg_limited,
      PARSE_ARG_KINDS | K(CK_FILDES) | K(CK_SLICE_INDEX), false, 0 },
    { "format_code", m_format_code, K(CK_BASE), false, 0 },
    { "bad_argument", m_bad_argument, K(CK_BASE), false, 0 },
    { "use_converter", m_use_converter,
      K(CK_BASE) | K(CK_PY_SSIZE_T) | K(CK_FILDES) | K(CK_UINT), false, 0 },
    { "use_pyobject_self", m_use_pyobject_self, K(CK_SELF), false, 0 },
    { "add_include", m_add_include, K(CK_BASE), false, 0 },
    { "get_includes", m_get_includes, K(CK_BASE), false, 0 },
    { "c_default_init", m_c_default_init,
      K(CK_BASE) | K(CK_BOOL) | K(CK_CHAR) | K(CK_INT) | K(CK_OBJECT) |
      K(CK_STR) | K(CK_PY_BUFFER), false, 0 },
    { NULL, NULL, 0, false, 0 },
};
#undef METHODS_OF_BOTH
#undef PARSE_ARG_KINDS


/* ---- the return converters' methods ------------------------------------ */

static void return_converter_call_init(ConverterPython *py, Clinic *c,
                                       ReturnConverter *rc,
                                       const ConverterArg *args, size_t nargs);

static PyValue rm_init(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[1];
    PyObj *kw;
    pyvm_bind(vm, a, "CReturnConverter.__init__", "self **", v, &kw);
    ReturnConverter *rc = cpy_unwrap_return_converter(py, v[0], "__init__");
    size_t n;
    ConverterArg *args = cpy_args_of_dict(py, kw, &n);
    return_converter_call_init(py, py->c, rc, args, n);
    return py_none;
}

static PyValue rm_return_converter_init(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[1];
    pyvm_bind(vm, a, "CReturnConverter.return_converter_init", "self", v,
              NULL);
    return py_none;
}

static PyValue rm_declare(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[3];
    pyvm_bind(vm, a, "declare", "self data name=", v, NULL);
    ReturnConverter *rc = cpy_unwrap_return_converter(py, v[0], "declare");
    RenderData *d = cpy_unwrap_data(py, v[1]);
    builtin_declare(py->c, rc, d, cpy_given(v[2]) ? cpy_need_str(py, v[2], "name")
                                              : NULL);
    cpy_data_to_python(py, d);
    return py_none;
}

static PyValue rm_err_occurred_if(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    bool null_pointer = b->def->arg;
    PyValue v[3];
    pyvm_bind(vm, a, b->def->name, null_pointer ? "self variable data"
                                                : "self expr data", v, NULL);
    cpy_unwrap_return_converter(py, v[0], b->def->name);
    const char *text = pyvm_to_str(vm, v[1]);
    RenderData *d = cpy_unwrap_data(py, v[2]);
    if (null_pointer)
        builtin_err_occurred_if_null_pointer(py->c, text, d);
    else
        builtin_err_occurred_if(py->c, text, d);
    cpy_data_to_python(py, d);
    return py_none;
}

static PyValue rm_render(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[3];
    pyvm_bind(vm, a, "render", "self function data", v, NULL);
    ReturnConverter *rc = cpy_unwrap_return_converter(py, v[0], "render");
    Function *f = cpy_unwrap_function(py, v[1]);
    RenderData *d = cpy_unwrap_data(py, v[2]);
    builtin_return_render(py->c, b->return_row->kind, rc, f, d);
    cpy_data_to_python(py, d);
    return py_none;
}

#define RK(kind) (UINT64_C(1) << (kind))

const MethodDef cpy_return_methods_3_11[] = {
    { "__init__", rm_init, RK(RK_OBJECT), false, 0 },
    { "return_converter_init", rm_return_converter_init, RK(RK_OBJECT), false,
      0 },
    { "declare", rm_declare, RK(RK_OBJECT), false, 0 },
    { "err_occurred_if", rm_err_occurred_if, RK(RK_OBJECT), false, 0 },
    { "err_occurred_if_null_pointer", rm_err_occurred_if, RK(RK_OBJECT),
      false, 1 },
    { "render", rm_render,
      RK(RK_OBJECT) | RK(RK_NONETYPE) | RK(RK_BOOL) | RK(RK_LONG) |
      RK(RK_INIT) | RK(RK_DOUBLE), false, 0 },
    { NULL, NULL, 0, false, 0 },
};


/* ---- the dispatch ------------------------------------------------------ */

/* The binding behind a value found on a class, when it is one of the
   built-in methods above (directly, or as a property's getter). */
static const Binding *binding_of(ConverterPython *py, PyValue v)
{
    PyValue fget;
    if (pyvm_property_fget(py->vm, v, &fget))
        v = fget;
    void *data;
    PyNativeFn fn = pyvm_native_fn(v, &data);
    if (!fn)
        return NULL;
    for (const MethodDef *m = py->flavour->converter_methods; m->name; m++)
        if (m->native == fn)
            return data;
    for (const MethodDef *m = py->flavour->return_methods; m->name; m++)
        if (m->native == fn)
            return data;
    return NULL;
}

/* What a block's class has for method name: an override (true; *fn is
   the Python value), or one of the built-in natives (false; *b is its
   binding, NULL when the class is not a block's). */
static bool lookup_override(Clinic *c, PyObj *pyclass, const char *name,
                            ConverterPython **pyp, PyValue *fn,
                            const Binding **b)
{
    *b = NULL;
    if (!pyclass)
        return false;
    ConverterPython *py = cpy_of(c);
    *pyp = py;
    PyValue v;
    if (!pyvm_class_lookup(pyclass, name, &v, NULL))
        return false;
    *b = binding_of(py, v);
    if (*b)
        return false;
    *fn = v;
    return true;
}

/* converter_row_of(cls), asked at every dispatch: a class of the table
   is its own row, found by address arithmetic here (the call and the walk
   up the bases are for the classes python blocks made). */
static inline const ConverterRow *row_of(const ConverterClass *cls)
{
    uintptr_t at = (uintptr_t)cls,
              first = (uintptr_t)&converter_rows[0].cls;
    if (at >= first && at - first < converter_nrows * sizeof *converter_rows &&
        (at - first) % sizeof *converter_rows == 0)
        return &converter_rows[(at - first) / sizeof *converter_rows];
    return converter_row_of(cls);
}

/* How an instance of cls answers method name: a Python override (true;
   *fn is what the class has), or the built-in of the class *row that
   defines it (false).  A class no python block made has no override:
   that costs one test. */
static inline bool find_override(Clinic *c, const ConverterClass *cls,
                                 const char *name, ConverterPython **pyp,
                                 PyValue *fn, const ConverterRow **row)
{
    const Binding *b;
    *row = row_of(cls);
    if (!cls->pyclass)
        return false;
    if (lookup_override(c, cls->pyclass, name, pyp, fn, &b))
        return true;
    if (b)
        *row = b->row;
    return false;
}

static inline bool find_return_override(Clinic *c,
                                        const ReturnConverterClass *cls,
                                        const char *name, ConverterPython **pyp,
                                        PyValue *fn, const ReturnRow **row)
{
    const Binding *b;
    *row = return_row_of(cls);
    if (!cls->pyclass)
        return false;
    if (lookup_override(c, cls->pyclass, name, pyp, fn, &b))
        return true;
    if (b)
        *row = b->return_row;
    return false;
}

/* Whether the exception of the failed call is a ValueError the caller
   catches (then it is noted, and the call returns None). */
static bool caught_value_error(ConverterPython *py)
{
    if (!py->catch_value_error)
        return false;
    const PyError *e = pyvm_error(py->vm);
    if (!pyvm_is_subclass(pyvm_class_of(py->vm, e->value),
                          pyvm_builtin_class(py->vm, "ValueError")))
        return false;
    py->value_error = true;
    return true;
}

/* Calls a Python override on self; a property's getter, and for a
   property of CConverter's a plain value, are what the attribute is. */
static PyValue call_override(ConverterPython *py, PyValue fn, PyValue self,
                             const PyValue *args, size_t nargs,
                             const char *const *kwnames,
                             const PyValue *kwvalues, size_t nkw,
                             bool property)
{
    PyValue fget, result;
    if (pyvm_property_fget(py->vm, fn, &fget)) {
        fn = fget;
        nargs = nkw = 0;
    } else if (property) {
        return fn;
    }
    PyArgs a = { args, nargs, kwnames, kwvalues, nkw };
    if (!pyvm_pcall_method(py->vm, fn, self, &a, &result)) {
        if (caught_value_error(py))
            return py_none;
        cpy_python_error(py);
    }
    return result;
}

static PyValue call0(ConverterPython *py, PyValue fn, const Converter *conv)
{
    return call_override(py, fn, cpy_converter_object(py, conv), NULL, 0, NULL,
                         NULL, 0, false);
}

/* The DSL's keyword arguments, before a python block's method gets them. */
static void check_computed_args(Clinic *c, const ConverterArg *args,
                                size_t nargs)
{
    for (size_t i = 0; i < nargs; i++)
        converter_check_computed(c, args[i].name, &args[i].value);
}

Converter *converter_create(Clinic *c, const ConverterClass *cls,
                            const char *name, const char *py_name,
                            Function *function, PyValue default_value,
                            const ConverterArg *args, size_t nargs)
{
    Converter *conv = converter_alloc(c, cls);
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, cls, "__init__", &py, &fn, &row)) {
        builtin_cconverter_init(c, conv, name, py_name, function,
                                default_value, args, nargs);
        return conv;
    }
    const char **names;
    PyValue *values;
    check_computed_args(c, args, nargs);
    converter_check_computed(c, "the default", &default_value);
    cpy_kwargs_of(py, args, nargs, &names, &values);
    PyValue pos[4] = { pyvm_str(py->vm, name), pyvm_str(py->vm, py_name),
                       cpy_function_object(py, function),
                       pyvm_import(py->vm, default_value) };
    call_override(py, fn, cpy_converter_object(py, conv), pos, 4, names, values,
                  nargs, false);
    return conv;
}

void converter_call_init(Clinic *c, Converter *conv, const ConverterArg *args,
                         size_t nargs)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    conv->initializing = true;
    if (!find_override(c, conv->cls, "converter_init", &py, &fn, &row)) {
        builtin_converter_init(c, row, conv, args, nargs);
    } else {
        const char **names;
        PyValue *values;
        check_computed_args(c, args, nargs);
        cpy_kwargs_of(py, args, nargs, &names, &values);
        /* 3.14 sets self.default after converter_init: a block's
           converter_init sees it unspecified */
        PyValue given = conv->default_value;
        if (c->dialect->fixes & FIX_DEFAULT_TYPE_AFTER_INIT)
            conv->default_value = py_unspecified;
        call_override(py, fn, cpy_converter_object(py, conv), NULL, 0, names,
                      values, nargs, false);
        if (given.kind != PY_UNSPECIFIED)   /* as 3.14 assigns it after */
            conv->default_value = given;
    }
    conv->initializing = false;
}

static PyValue native_repr(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return pyvm_str(vm, pyvm_repr(vm, a->args[0]));
}

const char *converter_default_repr(Clinic *c, const Converter *conv)
{
    const PyValue *v = &conv->default_value;
    if (py_is_uncomputed(v))
        clinic_fail(c, 0, "cannot write out the default of %s: clinic does "
                    "not know its repr", conv->name);
    if (v->kind != PY_OBJECT)
        return py_repr(c->arena, v);
    /* an exception in __repr__ is one in clinic.py's format_docstring;
       the object is the native's one argument, as self */
    ConverterPython *py = cpy_of(c);
    PyValue fn = pyvm_native(py->vm, "repr", native_repr, NULL, false);
    PyArgs none = { NULL, 0, NULL, NULL, 0 };
    PyValue result;
    if (!pyvm_pcall_method(py->vm, fn, *v, &none, &result))
        cpy_python_error(py);
    return result.s;
}

void converter_call_c_default_init(Clinic *c, Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "c_default_init", &py, &fn, &row))
        builtin_c_default_init(c, row->kind, conv);
    else
        call0(py, fn, conv);
}

bool converter_call_is_optional(Clinic *c, Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "is_optional", &py, &fn, &row))
        return builtin_is_optional(conv);
    return pyvm_truthy(py->vm, call0(py, fn, conv));
}

/* An attribute clinic.py's code uses as a str, left None by a python
   block (converter_init, or a class without it): clinic.py fails there
   with a TypeError or an AttributeError, and so do we, rather than write
   a declaration without its type. */
static void need_str_attr(Clinic *c, const Converter *conv, const char *value,
                     const char *attr)
{
    if (!value)
        cpy_fail_exception(c, arena_printf(c->arena, "TypeError: %s.%s is "
                           "None where clinic.py needs a str",
                           conv->cls->class_name, attr));
}

/* render, _render_self and _render_non_self */
static void dispatch_render(Clinic *c, const char *name, Converter *conv,
                            Parameter *p, RenderData *data)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, name, &py, &fn, &row)) {
        /* clinic.py's self_converter has a render of its own */
        bool self = row->kind == CK_SELF;
        if (name[0] == 'r') {
            builtin_render(c, row->kind, conv, p, data);
        } else if (!strcmp(name, "_render_self")) {
            if (!self)   /* simple_declaration() */
                need_str_attr(c, conv, conv->type, "type");
            builtin_render_self(c, conv, p, data);
        } else {
            if (!self) {   /* declaration(), then "".join(format_units) */
                need_str_attr(c, conv, conv->type, "type");
                need_str_attr(c, conv, conv->format_unit, "format_unit");
            }
            builtin_render_non_self(c, conv, p, data);
        }
        return;
    }
    void *lent;
    PyValue w = cpy_data_lend(py, data, &lent);
    PyValue args[2] = { cpy_parameter_object(py, p), w };
    call_override(py, fn, cpy_converter_object(py, conv), args, 2, NULL, NULL, 0,
                  false);
    cpy_data_end(py, w, data, lent);
}

void converter_render(Clinic *c, Converter *conv, Parameter *p,
                      RenderData *data)
{
    dispatch_render(c, "render", conv, p, data);
}

void converter_render_self(Clinic *c, Converter *conv, Parameter *p,
                           RenderData *data)
{
    dispatch_render(c, "_render_self", conv, p, data);
}

void converter_render_non_self(Clinic *c, Converter *conv, Parameter *p,
                               RenderData *data)
{
    dispatch_render(c, "_render_non_self", conv, p, data);
}

const char *converter_length_name(Clinic *c, const Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "length_name", &py, &fn, &row))
        return builtin_length_name(c, conv);
    return cpy_result_str(py, call0(py, fn, conv), true, "length_name");
}

void converter_parse_argument(Clinic *c, Converter *conv, StrList *list)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "parse_argument", &py, &fn, &row)) {
        builtin_parse_argument(c, conv, list);
        return;
    }
    PyValue l = cpy_strlist_to_python(py, list);
    call_override(py, fn, cpy_converter_object(py, conv), &l, 1, NULL, NULL, 0,
                  false);
    cpy_read_list(py, l, list);
}

bool converter_overrides(Clinic *c, const Converter *conv, const char *name)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    return find_override(c, conv->cls, name, &py, &fn, &row);
}

const char *converter_simple_declaration(Clinic *c, const Converter *conv,
                                         bool by_reference, bool in_parser)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "simple_declaration", &py, &fn, &row))
        return builtin_simple_declaration(c, conv, by_reference, in_parser);
    PyValue pos = pyvm_bool(by_reference), kw = pyvm_bool(in_parser);
    const char *kwname = "in_parser";
    return cpy_result_str(py, call_override(py, fn, cpy_converter_object(py, conv),
                                        &pos, 1, &kwname, &kw, 1, false),
                      false, "simple_declaration");
}

const char *converter_declaration(Clinic *c, const Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "declaration", &py, &fn, &row))
        return builtin_declaration(c, conv);
    PyValue kw = pyvm_bool(true);
    const char *kwname = "in_parser";
    return cpy_result_str(py, call_override(py, fn, cpy_converter_object(py, conv),
                                        NULL, 0, &kwname, &kw, 1, false),
                      false, "declaration");
}

static const char *const snippet_names[] = {
    [SNIPPET_INITIALIZE] = "initialize", [SNIPPET_MODIFY] = "modify",
    [SNIPPET_POST_PARSING] = "post_parsing", [SNIPPET_CLEANUP] = "cleanup",
};

const char *converter_snippet(Clinic *c, Converter *conv,
                              ConverterSnippet which)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, snippet_names[which], &py, &fn, &row))
        return builtin_snippet(c, row->kind, conv, which);
    const char *s = cpy_result_str(py, call0(py, fn, conv), true,
                               snippet_names[which]);
    return s ? s : "";
}

/* (include.filename, include.reason, include.condition), as the
   generator reads them; run protected (any object may be given) */
static PyValue read_include(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[1];
    pyvm_bind(vm, a, "read_include", "include", v, NULL);
    PyValue fields[3] = { pyvm_getattr(vm, v[0], "filename"),
                          pyvm_getattr(vm, v[0], "reason"),
                          pyvm_getattr(vm, v[0], "condition") };
    return pyvm_tuple(vm, fields, 3);
}

const IncludeList *converter_get_includes(Clinic *c, Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "get_includes", &py, &fn, &row))
        return conv->includes;
    PyValue r = call0(py, fn, conv);
    /* what the generator reads of each: filename, reason, condition */
    IncludeList *l = arena_new_of(c->arena, IncludeList);
    PyObj *list = pyvm_as_list(r);
    size_t n = list ? pyvm_list_len(list) : r.kind == PY_TUPLE ? r.nitems : 0;
    if (!list && r.kind != PY_TUPLE)
        cpy_fail_exception(c, arena_printf(c->arena, "TypeError: '%s' object "
                           "is not iterable", pyvm_type_name(py->vm, r)));
    PyValue reader = pyvm_native(py->vm, "read_include", read_include, NULL,
                                 false);
    for (size_t i = 0; i < n; i++) {
        PyValue in = list ? pyvm_list_item(list, i) : r.items[i], f;
        PyArgs none = { NULL, 0, NULL, NULL, 0 };
        if (!pyvm_pcall_method(py->vm, reader, in, &none, &f))
            cpy_python_error(py);
        include_list_add(c->arena, l,
                         cpy_need_str(py, f.items[0], "filename"),
                         cpy_need_str(py, f.items[1], "reason"),
                         f.items[2].kind == PY_NONE
                             ? NULL : cpy_need_str(py, f.items[2],
                                                   "condition"));
    }
    return l;
}

void converter_pre_render(Clinic *c, Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "pre_render", &py, &fn, &row))
        builtin_pre_render(c, row->kind, conv);
    else
        call0(py, fn, conv);
    /* every part of the output names the variable: clinic.py's
       _render_self fails on it first ("" + None) */
    need_str_attr(c, conv, conv->name, "name");
}

const char *converter_parse_arg(Clinic *c, Converter *conv,
                                const char *argname, const char *displayname,
                                bool limited_capi)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "parse_arg", &py, &fn, &row))
        return builtin_parse_arg(c, row->kind, conv, argname, displayname,
                                 limited_capi, false);
    PyValue args[2] = { pyvm_str(py->vm, argname),
                        pyvm_str(py->vm, displayname) };
    const char *kwname = "limited_capi";
    PyValue kw = pyvm_bool(limited_capi);
    size_t nkw = py->flavour->parse_arg_limited_capi ? 1 : 0;
    return cpy_result_str(py, call_override(py, fn, cpy_converter_object(py, conv),
                                        args, 2, &kwname, &kw, nkw, false),
                      true, "parse_arg");
}

const char *converter_parse_arg_code(Clinic *c, Converter *conv,
                                     const char *argname,
                                     const char *displayname,
                                     bool limited_capi, int indent)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "parse_arg", &py, &fn, &row))
        return builtin_parse_arg_code(c, row->kind, conv, argname,
                                      displayname, limited_capi, indent);
    const char *s = converter_parse_arg(c, conv, argname, displayname,
                                        limited_capi);
    return s ? text_normalize_snippet(c->arena, s, indent) : NULL;
}

/* Only 3.13's classes have use_converter; 3.11's parse_arg calls none. */
void converter_use_converter(Clinic *c, Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "use_converter", &py, &fn, &row) ||
        !py->flavour->parse_arg_limited_capi)
        builtin_use_converter(c, row->kind, conv);
    else
        call0(py, fn, conv);
}

bool converter_set_template_dict_builtin(Clinic *c, Converter *conv,
                                         StrMap *set)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (find_override(c, conv->cls, "set_template_dict", &py, &fn, &row))
        return false;
    builtin_set_template_dict(c, row->kind, conv, set);
    return true;
}

void converter_set_template_dict(Clinic *c, Converter *conv,
                                 StrMap *template_dict)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "set_template_dict", &py, &fn, &row)) {
        builtin_set_template_dict(c, row->kind, conv, template_dict);
        return;
    }
    PyValue d = cpy_strmap_to_python(py, template_dict);
    call_override(py, fn, cpy_converter_object(py, conv), &d, 1, NULL, NULL, 0,
                  false);
    cpy_strmap_from_python(py, d, template_dict);
}

const char *converter_parser_name(Clinic *c, const Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "parser_name", &py, &fn, &row))
        return builtin_parser_name(c, conv);
    return cpy_result_str(py, call_override(py, fn, cpy_converter_object(py, conv),
                                        NULL, 0, NULL, NULL, 0, true),
                      false, "parser_name");
}

const char *self_converter_parser_type(Clinic *c, const Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "parser_type", &py, &fn, &row))
        return builtin_parser_type(c, conv);
    return cpy_result_str(py, call_override(py, fn, cpy_converter_object(py, conv),
                                        NULL, 0, NULL, NULL, 0, true),
                      true, "parser_type");
}

/* CReturnConverter.__init__'s body: py_default, then
   return_converter_init(**kwargs), whose TypeError clinic.py turns into
   sys.exit(class(kwargs)\nmessage). */
static void return_converter_call_init(ConverterPython *py, Clinic *c,
                                       ReturnConverter *rc,
                                       const ConverterArg *args, size_t nargs)
{
    PyValue fn;
    const ReturnRow *row;
    if (!find_return_override(c, rc->cls, "return_converter_init", &py, &fn,
                              &row)) {
        builtin_return_converter_init(c, rc, args, nargs);
        return;
    }
    ConverterArg *rest = arena_array_of(c->arena, ConverterArg, nargs + 1);
    size_t nrest = 0;
    for (size_t i = 0; i < nargs; i++) {
        if (!strcmp(args[i].name, "py_default"))
            rc->py_default = args[i].value.kind == PY_STR ? args[i].value.s
                                                          : NULL;
        else
            rest[nrest++] = args[i];
    }
    const char **names;
    PyValue *values;
    check_computed_args(c, rest, nrest);
    cpy_kwargs_of(py, rest, nrest, &names, &values);
    PyArgs a = { NULL, 0, names, values, nrest };
    PyValue result;
    if (pyvm_pcall_method(py->vm, fn, cpy_return_converter_object(py, rc), &a,
                          &result))
        return;
    if (caught_value_error(py))
        return;
    const PyError *e = pyvm_error(py->vm);
    if (strcmp(e->type, "TypeError"))
        cpy_python_error(py);
    StrBuf shown = STRBUF_INIT;
    for (size_t i = 0; i < nrest; i++)
        sb_addf(&shown, "%s%s=%s", i ? ", " : "", rest[i].name,
                conv_repr(c->arena, c->dialect, &rest[i].value));
    clinic_fail(c, 0, "%s(%s)\n%s", rc->cls->class_name,
                sb_take(&shown, c->arena), e->message);
}

ReturnConverter *return_converter_create(Clinic *c,
                                         const ReturnConverterClass *cls,
                                         const ConverterArg *args,
                                         size_t nargs)
{
    ReturnConverter *rc = return_converter_alloc(c, cls);
    ConverterPython *py = NULL;
    PyValue fn;
    const ReturnRow *row;
    if (!find_return_override(c, cls, "__init__", &py, &fn, &row)) {
        return_converter_call_init(py, c, rc, args, nargs);
        return rc;
    }
    const char **names;
    PyValue *values;
    check_computed_args(c, args, nargs);
    cpy_kwargs_of(py, args, nargs, &names, &values);
    call_override(py, fn, cpy_return_converter_object(py, rc), NULL, 0, names,
                  values, nargs, false);
    return rc;
}

ReturnConverter *return_converter_for_annotation(Clinic *c,
                                        const ReturnConverterClass *cls,
                                        const ConverterArg *args,
                                        size_t nargs)
{
    if (!cls->pyclass)   /* the built-in classes raise no ValueError */
        return return_converter_create(c, cls, args, nargs);
    ConverterPython *py = cpy_of(c);
    bool outer = py->catch_value_error;
    py->catch_value_error = true;
    py->value_error = false;
    ReturnConverter *rc = return_converter_create(c, cls, args, nargs);
    py->catch_value_error = outer;
    return py->value_error ? NULL : rc;
}

/* need_str_attr for a return converter. */
static void need_return_str(Clinic *c, const ReturnConverter *rc,
                            const char *value, const char *attr)
{
    if (!value)
        cpy_fail_exception(c, arena_printf(c->arena, "TypeError: %s.%s is "
                           "None where clinic.py needs a str",
                           rc->cls->class_name, attr));
}

void return_converter_render(Clinic *c, ReturnConverter *rc, Function *f,
                             RenderData *data)
{
    ConverterPython *py;
    PyValue fn;
    const ReturnRow *row;
    /* the impl's return type (clinic.py would write "static None") */
    need_return_str(c, rc, rc->type, "type");
    if (!find_return_override(c, rc->cls, "render", &py, &fn, &row)) {
        /* what the built-in renders join or format into the C code */
        if (row->kind == RK_LONG) {
            need_return_str(c, rc, rc->conversion_fn, "conversion_fn");
            need_return_str(c, rc, rc->unsigned_cast, "unsigned_cast");
        }
        if (row->kind == RK_LONG || row->kind == RK_DOUBLE)
            need_return_str(c, rc, rc->cast, "cast");
        builtin_return_render(c, row->kind, rc, f, data);
        return;
    }
    void *lent;
    PyValue w = cpy_data_lend(py, data, &lent);
    PyValue args[2] = { cpy_function_object(py, f), w };
    call_override(py, fn, cpy_return_converter_object(py, rc), args, 2, NULL,
                  NULL, 0, false);
    cpy_data_end(py, w, data, lent);
}

void return_converter_declare(Clinic *c, ReturnConverter *rc,
                              RenderData *data, const char *name)
{
    ConverterPython *py;
    PyValue fn;
    const ReturnRow *row;
    if (!find_return_override(c, rc->cls, "declare", &py, &fn, &row)) {
        builtin_declare(c, rc, data, name);
        return;
    }
    void *lent;
    PyValue w = cpy_data_lend(py, data, &lent);
    PyValue args[2] = { w, pyvm_str(py->vm, name ? name : "_return_value") };
    call_override(py, fn, cpy_return_converter_object(py, rc), args, 2, NULL,
                  NULL, 0, false);
    cpy_data_end(py, w, data, lent);
}

static void dispatch_err_occurred(Clinic *c, ReturnConverter *rc,
                                  const char *name, const char *text,
                                  RenderData *data)
{
    ConverterPython *py;
    PyValue fn;
    const ReturnRow *row;
    if (!find_return_override(c, rc->cls, name, &py, &fn, &row)) {
        if (strstr(name, "null_pointer"))
            builtin_err_occurred_if_null_pointer(c, text, data);
        else
            builtin_err_occurred_if(c, text, data);
        return;
    }
    void *lent;
    PyValue w = cpy_data_lend(py, data, &lent);
    PyValue args[2] = { pyvm_str(py->vm, text), w };
    call_override(py, fn, cpy_return_converter_object(py, rc), args, 2, NULL,
                  NULL, 0, false);
    cpy_data_end(py, w, data, lent);
}

void return_converter_err_occurred_if(Clinic *c, ReturnConverter *rc,
                                      const char *expr, RenderData *data)
{
    dispatch_err_occurred(c, rc, "err_occurred_if", expr, data);
}

static void add_method(ConverterPython *py, PyObj *dict, const MethodDef *m,
                       const ConverterRow *row, const ReturnRow *return_row)
{
    /* the class outlives the step that made it (a scratch one: a class
       first used while a function renders) */
    Binding *b = arena_new_of(py->c->file_arena, Binding);
    b->def = m;
    b->row = row;
    b->return_row = return_row;
    b->py = py;
    PyValue fn = pyvm_native(py->vm, m->name, m->native, b, true);
    pyvm_dict_set(py->vm, dict, m->name,
                  m->property ? pyvm_property(py->vm, fn) : fn);
}

/* The methods clinic.py's class of this row defines itself (those its
   base row's class does not), into the class's dict. */
void cpy_add_methods(ConverterPython *py, PyObj *dict, const ConverterRow *row,
                     const ConverterRow *base)
{
    for (const MethodDef *m = py->flavour->converter_methods; m->name; m++)
        if ((m->kinds & K(row->kind)) && (!base || base->kind != row->kind))
            add_method(py, dict, m, row, NULL);
}

void cpy_add_return_methods(ConverterPython *py, PyObj *dict,
                            const ReturnRow *row, const ReturnRow *base)
{
    for (const MethodDef *m = py->flavour->return_methods; m->name; m++)
        if ((m->kinds & RK(row->kind)) && (!base || base->kind != row->kind))
            add_method(py, dict, m, NULL, row);
}
