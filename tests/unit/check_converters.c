/*
 * check_converters.c — the converter table against the reference.
 *
 * Every expected string in check_converters_cases.h was produced by
 * CPython 3.11's clinic.py itself: each converter (and legacy format
 * unit) built with the same arguments, rendered into CRenderData, its
 * declaration and parse_arg snippet printed; the errors clinic.py raises
 * for bad defaults and arguments; self and return converters.
 */
#include <check.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/converters.h"
#include "model/converters_int.h"
#include "python/pyvm.h"

typedef struct ConvCase {
    const char *name;
    bool legacy;
    const char *pyname;
    ParamKind kind;
    ConverterArg kwargs[6];
    size_t nkwargs;
    PyValue default_value;
    int group;
    const char *declaration;
    const char *render;
    const char *parse_arg;
} ConvCase;

typedef struct ErrCase {
    const char *name;
    bool legacy;
    ConverterArg kwargs[6];
    size_t nkwargs;
    PyValue default_value;
    const char *message;
} ErrCase;

typedef struct SelfCase {
    FunctionKind kind;
    int with_cls;          /* 0: module function; 1: &Type; 2: state->Type */
    const char *type_arg;  /* self(type=...) */
    const char *type;
    const char *signature_name;
    bool show_in_signature;
    const char *parser_type;
    const char *render;
    const char *template_dict;
} SelfCase;

typedef struct ReturnCase {
    const char *name;
    const char *type;
    const char *render;
} ReturnCase;

#include "check_converters_cases.h"
#include "unit.h"

/* parse_arg as Python code calling it sees it: the reference's string,
   indentation and all (the generator's call gets only the code). */
static const char *parse_arg_raw(Clinic *c, Converter *conv,
                                 const char *argname, const char *displayname)
{
    return builtin_parse_arg(c, converter_row_of(conv->cls)->kind, conv,
                             argname, displayname, false, true);
}

#define NELEMS(a) (sizeof (a) / sizeof (a)[0])

/* ---- fixtures ---------------------------------------------------------- */

/* A context for test.c in dialect (NULL: the default), its errors on
   line 1. */
static Clinic *new_clinic_in(const Dialect *dialect)
{
    Clinic *c = unit_clinic("test.c", dialect);
    c->line = 1;
    return c;
}

static Clinic *new_clinic(void)
{
    return new_clinic_in(NULL);
}

static Module test_module = { "m", NULL };

static Function *new_function(Clinic *c, FunctionKind kind, Class *cls)
{
    Function *f = arena_new_of(c->arena, Function);
    f->name = "f";
    f->full_name = "m.f";
    f->module = &test_module;
    f->cls = cls;
    f->kind = kind;
    f->docstring = "";
    return f;
}

static void add_list(StrBuf *sb, const char *name, const StrList *l)
{
    if (!l->len)
        return;
    sb_addf(sb, "%s=", name);
    for (size_t i = 0; i < l->len; i++) {
        if (i)
            sb_addc(sb, '|');
        sb_adds(sb, l->items[i]);
    }
    sb_addc(sb, '\n');
}

/* The same summary the generator script prints for a CRenderData. */
static const char *summarize(Clinic *c, const RenderData *d)
{
    StrBuf sb = STRBUF_INIT;
    add_list(&sb, "declarations", &d->declarations);
    add_list(&sb, "initializers", &d->initializers);
    add_list(&sb, "modifications", &d->modifications);
    add_list(&sb, "keywords", &d->keywords);
    add_list(&sb, "format_units", &d->format_units);
    add_list(&sb, "parse_arguments", &d->parse_arguments);
    add_list(&sb, "impl_parameters", &d->impl_parameters);
    add_list(&sb, "impl_arguments", &d->impl_arguments);
    add_list(&sb, "cleanup", &d->cleanup);
    add_list(&sb, "post_parsing", &d->post_parsing);
    char *s = sb_to_arena(&sb, c->arena);
    sb_free(&sb);
    return s;
}

static Converter *build(Clinic *c, const char *name, bool legacy,
                        const char *pyname, Function *f, PyValue def,
                        const ConverterArg *kwargs, size_t nkwargs)
{
    if (legacy) {
        ck_assert_ptr_nonnull(legacy_converter_find(c, name));
        return legacy_converter_create(c, name, pyname, pyname, f, def,
                                       kwargs, nkwargs);
    }
    const ConverterClass *cls = converter_class_find(c, name);
    ck_assert_msg(cls != NULL, "no converter %s", name);
    return converter_create(c, cls, pyname, pyname, f, def, kwargs, nkwargs);
}

/* ---- every converter against the reference ---------------------------- */

START_TEST(test_converter_cases)
{
    const ConvCase *t = &conv_cases[_i];
    Clinic *c = new_clinic();
    jmp_buf jb;
    c->recover = &jb;
    if (setjmp(jb))
        ck_abort_msg("case %d (%s): unexpected error: %s", _i, t->name,
                     c->diagnostics.buf);

    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    Converter *conv = build(c, t->name, t->legacy, t->pyname, f,
                            t->default_value, t->kwargs, t->nkwargs);
    Parameter p = { .name = t->pyname, .key = t->pyname, .kind = t->kind,
                    .default_value = t->default_value, .function = f,
                    .converter = conv, .docstring = "", .group = t->group };
    RenderData d = { .return_value = "return_value" };
    converter_render(c, conv, &p, &d);
    ck_assert_msg(strcmp(summarize(c, &d), t->render) == 0,
                  "case %d (%s) render:\n%s\nexpected:\n%s", _i, t->name,
                  summarize(c, &d), t->render);
    ck_assert_str_eq(converter_declaration(c, conv), t->declaration);

    const char *parse_arg =
        parse_arg_raw(c, conv, "arg", "\"argument 'a'\"");
    if (!t->parse_arg)
        ck_assert_msg(parse_arg == NULL, "case %d (%s): parse_arg %s", _i,
                      t->name, parse_arg);
    else
        ck_assert_msg(parse_arg && strcmp(parse_arg, t->parse_arg) == 0,
                      "case %d (%s) parse_arg:\n%s\nexpected:\n%s", _i,
                      t->name, parse_arg ? parse_arg : "(null)",
                      t->parse_arg);

    /* the generator's code, normalised as it is written, is the
       snippet normalised after it */
    for (int indent = 0; indent <= 8; indent += 4) {
        const char *text = converter_parse_arg(c, conv, "args[0]",
                                               "\"argument 'a'\"", false);
        const char *code = converter_parse_arg_code(
            c, conv, "args[0]", "\"argument 'a'\"", false, indent);
        if (!text)
            ck_assert_msg(code == NULL, "case %d (%s): code %s", _i, t->name,
                          code);
        else
            ck_assert_str_eq(code, text_normalize_snippet(c->arena, text,
                                                          indent));
    }
    clinic_free(c);
}
END_TEST

START_TEST(test_error_cases)
{
    const ErrCase *t = &err_cases[_i];
    Clinic *c = new_clinic();
    jmp_buf jb;
    c->recover = &jb;
    if (setjmp(jb) == 0) {
        Function *f = new_function(c, FUNC_CALLABLE, NULL);
        build(c, t->name, t->legacy, "a", f, t->default_value, t->kwargs,
              t->nkwargs);
        ck_abort_msg("case %d (%s): no error, expected %s", _i, t->name,
                     t->message);
    }
    ck_assert_msg(strstr(c->diagnostics.buf, t->message) != NULL,
                  "case %d (%s): got\n%s\nexpected\n%s", _i, t->name,
                  c->diagnostics.buf, t->message);
    ck_assert_int_eq(c->errors, 1);
    clinic_free(c);
}
END_TEST

/* ---- self and defining_class ------------------------------------------ */

START_TEST(test_self_cases)
{
    const SelfCase *t = &self_cases[_i];
    Clinic *c = new_clinic();
    jmp_buf jb;
    c->recover = &jb;
    if (setjmp(jb))
        ck_abort_msg("self case %d: %s", _i, c->diagnostics.buf);

    Class cls = { .name = "C", .module = &test_module,
                  .typedef_ = "CObject *",
                  .type_object = t->with_cls == 1 ? "&C_Type"
                                                  : "state->C_Type" };
    Function *f = new_function(c, t->kind, t->with_cls ? &cls : NULL);
    ConverterArg arg = { "type", py_none };
    if (t->type_arg) {
        arg.value.kind = PY_STR;
        arg.value.s = t->type_arg;
        arg.value.len = strlen(t->type_arg);
    }
    const ConverterClass *self_cls = converter_class_find(c, "self");
    ck_assert(self_cls->is_self);
    Converter *conv = converter_create(c, self_cls, "self", "self", f,
                                       py_unspecified, &arg, 1);
    converter_pre_render(c, conv);
    ck_assert_str_eq(conv->type, t->type);
    ck_assert_str_eq(conv->signature_name, t->signature_name);
    ck_assert_int_eq(conv->show_in_signature, t->show_in_signature);
    ck_assert_str_eq(self_converter_parser_type(c, conv), t->parser_type);

    Parameter p = { .name = "self", .key = "self",
                    .kind = PARAM_POSITIONAL_ONLY,
                    .default_value = py_unspecified, .function = f,
                    .converter = conv, .docstring = "" };
    RenderData d = { .return_value = "return_value" };
    converter_render(c, conv, &p, &d);
    ck_assert_str_eq(summarize(c, &d), t->render);

    StrMap td = { 0 };
    converter_set_template_dict(c, conv, &td);
    StrBuf sb = STRBUF_INIT;
    for (size_t i = 0; i < td.len; i++)
        sb_addf(&sb, "%s=%s\n", td.keys[i], td.values[i]);
    ck_assert_str_eq(sb.buf, t->template_dict);
    sb_free(&sb);
    clinic_free(c);
}
END_TEST

START_TEST(test_defining_class)
{
    Clinic *c = new_clinic();
    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    const ConverterClass *cls = converter_class_find(c, "defining_class");
    ck_assert(cls->is_defining_class);
    Converter *conv = converter_create(c, cls, "cls", "cls", f,
                                       py_unspecified, NULL, 0);
    ck_assert(!conv->show_in_signature);
    Parameter p = { .name = "cls", .key = "cls",
                    .kind = PARAM_POSITIONAL_OR_KEYWORD,
                    .default_value = py_unspecified, .function = f,
                    .converter = conv, .docstring = "" };
    RenderData d = { .return_value = "return_value" };
    converter_render(c, conv, &p, &d);
    /* only _render_self: no declaration, keyword or format unit */
    ck_assert_str_eq(summarize(c, &d),
                     "impl_parameters=PyTypeObject *cls\n"
                     "impl_arguments=cls\n");
    StrMap td = { 0 };
    converter_set_template_dict(c, conv, &td);
    ck_assert_str_eq(strmap_get(&td, "defining_class_name"), "cls");
    clinic_free(c);
}
END_TEST

/* ---- return converters ------------------------------------------------ */

START_TEST(test_return_cases)
{
    const ReturnCase *t = &return_cases[_i];
    Clinic *c = new_clinic();
    const ReturnConverterClass *cls = return_converter_class_find(c, t->name);
    ck_assert_msg(cls != NULL, "no return converter %s", t->name);
    ReturnConverter *rc = return_converter_create(c, cls, NULL, 0);
    ck_assert_str_eq(rc->type, t->type);
    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    RenderData d = { .return_value = "return_value" };
    return_converter_render(c, rc, f, &d);
    StrBuf sb = STRBUF_INIT;
    sb_adds(&sb, "declarations=");
    sb_adds(&sb, strlist_join(c->arena, &d.declarations, "|"));
    sb_adds(&sb, "\nreturn_conversion=");
    sb_adds(&sb, strlist_join(c->arena, &d.return_conversion, "|"));
    sb_addf(&sb, "\nreturn_value=%s\n", d.return_value);
    ck_assert_str_eq(sb.buf, t->render);
    sb_free(&sb);
    clinic_free(c);
}
END_TEST

START_TEST(test_return_converter_bad_keyword)
{
    Clinic *c = new_clinic();
    jmp_buf jb;
    c->recover = &jb;
    if (setjmp(jb) == 0) {
        ConverterArg args[] = {
            { "bogus", { .kind = PY_INT, .s = "3", .len = 1 } } };
        return_converter_create(c, return_converter_class_find(c, "int"),
                                args, 1);
        ck_abort_msg("no error");
    }
    ck_assert_ptr_nonnull(strstr(c->diagnostics.buf,
        "int_return_converter(bogus=3)\n"
        "CReturnConverter.return_converter_init() got an unexpected "
        "keyword argument 'bogus'"));
    clinic_free(c);
}
END_TEST

START_TEST(test_return_converter_py_default)
{
    Clinic *c = new_clinic();
    ConverterArg args[] = {
        { "py_default", { .kind = PY_STR, .s = "None", .len = 4 } } };
    ReturnConverter *rc = return_converter_create(
        c, return_converter_class_find(c, "object"), args, 1);
    ck_assert_str_eq(rc->py_default, "None");
    ck_assert_str_eq(rc->type, "PyObject *");
    clinic_free(c);
}
END_TEST

/* ---- the registry ----------------------------------------------------- */

START_TEST(test_registry_contents)
{
    Clinic *c = new_clinic();
    static const char *const names[] = {
        "bool", "char", "unsigned_char", "byte", "short", "unsigned_short",
        "int", "unsigned_int", "long", "unsigned_long", "long_long",
        "unsigned_long_long", "Py_ssize_t", "slice_index", "size_t",
        "fildes", "float", "double", "Py_complex", "object", "str",
        "PyBytesObject", "PyByteArrayObject", "unicode", "Py_UNICODE",
        "Py_buffer", "self", "defining_class",
    };
    for (size_t i = 0; i < NELEMS(names); i++)
        ck_assert_msg(converter_class_find(c, names[i]) != NULL, "%s",
                      names[i]);
    ck_assert_ptr_null(converter_class_find(c, "CConverter"));
    ck_assert_ptr_nonnull(converter_class_by_class_name(c, "CConverter"));
    ck_assert_ptr_eq(converter_class_by_class_name(c, "int_converter"),
                     converter_class_find(c, "int"));

    static const char *const units[] = {
        "B", "C", "D", "L", "O", "S", "U", "Y", "Z", "Z#", "b", "c", "d",
        "f", "h", "i", "l", "p", "s", "s#", "s*", "u", "u#", "w*", "y",
        "y#", "y*", "z", "z#", "z*",
    };
    for (size_t i = 0; i < NELEMS(units); i++)
        ck_assert_msg(legacy_converter_find(c, units[i]) != NULL, "%s",
                      units[i]);
    /* not registered: their classes' format unit is 'O&' or set later */
    static const char *const absent[] = { "H", "I", "k", "K", "n", "es",
                                          "et", "O&", "O!", "" };
    for (size_t i = 0; i < NELEMS(absent); i++)
        ck_assert_ptr_null(legacy_converter_find(c, absent[i]));

    static const char *const returns[] = {
        "object", "NoneType", "bool", "long", "int", "init",
        "unsigned_long", "unsigned_int", "Py_ssize_t", "size_t", "double",
        "float",
    };
    for (size_t i = 0; i < NELEMS(returns); i++)
        ck_assert_msg(return_converter_class_find(c, returns[i]) != NULL,
                      "%s", returns[i]);
    ck_assert_ptr_null(return_converter_class_find(c, "str"));
    clinic_free(c);
}
END_TEST

/* A class a Python block declares, as the pyblock module builds it:
       class Py_ssize_t_ish_converter(int_converter):
           type = 'Py_ssize_t'
           format_unit = 'n'                                              */
START_TEST(test_register_python_class)
{
    Clinic *c = new_clinic();
    ConverterClass *cls = arena_new_of(c->arena, ConverterClass);
    cls->class_name = "ssize_ish_converter";
    cls->base = converter_class_by_class_name(c, "int_converter");
    cls->type = "Py_ssize_t";
    cls->format_unit = "n";
    cls->attrs_set = CATTR_TYPE | CATTR_FORMAT_UNIT;
    converter_register_class(c, cls);

    ck_assert_ptr_eq(converter_class_find(c, "ssize_ish"), cls);
    ck_assert_str_eq(cls->name, "ssize_ish");
    ck_assert_str_eq(cls->c_ignored_default, "0");   /* inherited */
    ck_assert_uint_eq(cls->default_type, PYT_INT);
    /* the metaclass registered the new format unit */
    ck_assert_ptr_eq(legacy_converter_find(c, "n"), cls);

    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    Converter *conv = converter_create(c, cls, "x", "x", f, py_unspecified,
                                       NULL, 0);
    ck_assert_str_eq(conv->type, "Py_ssize_t");
    ck_assert_str_eq(conv->format_unit, "n");
    /* int_converter.parse_arg knows only 'i' and 'C'; CConverter's
       knows nothing of 'n' */
    ck_assert_ptr_null(parse_arg_raw(c, conv, "arg", "\"x\""));

    /* a subclass that does not set format_unit keeps the base's legacy
       registration untouched */
    ConverterClass *sub = arena_new_of(c->arena, ConverterClass);
    sub->class_name = "sub_converter";
    sub->base = cls;
    converter_register_class(c, sub);
    ck_assert_ptr_eq(legacy_converter_find(c, "n"), cls);
    ck_assert_str_eq(sub->type, "Py_ssize_t");
    ck_assert_ptr_eq(converter_class_by_class_name(c, "sub_converter"), sub);

    /* a CConverter subclass with a converter function */
    ConverterClass *o = arena_new_of(c->arena, ConverterClass);
    o->class_name = "path_t_converter";
    o->base = converter_class_by_class_name(c, "CConverter");
    o->type = "path_t";
    o->converter = "path_converter";
    o->impl_by_reference = true;
    o->attrs_set = CATTR_TYPE | CATTR_CONVERTER | CATTR_IMPL_BY_REFERENCE;
    converter_register_class(c, o);
    Converter *pc = converter_create(c, o, "path", "path", f,
                                     py_unspecified, NULL, 0);
    ck_assert_str_eq(pc->format_unit, "O&");
    ck_assert_str_eq(parse_arg_raw(c, pc, "args[0]", "\"argument 1\""),
                     "\n"
                     "                if (!path_converter(args[0], &path)) {{\n"
                     "                    goto exit;\n"
                     "                }}\n"
                     "                ");
    ck_assert_str_eq(converter_simple_declaration(c, pc, true, false),
                     "path_t *path");
    ck_assert_str_eq(converter_declaration(c, pc), "path_t path;");

    /* a return converter class */
    ReturnConverterClass *rcls = arena_new_of(c->arena, ReturnConverterClass);
    rcls->class_name = "pid_t_return_converter";
    rcls->base = return_converter_class_by_class_name(c,
                                                      "long_return_converter");
    rcls->type = "pid_t";
    rcls->conversion_fn = "PyLong_FromPid";
    rcls->attrs_set = RATTR_TYPE | RATTR_CONVERSION_FN;
    return_converter_register_class(c, rcls);
    ck_assert_ptr_eq(return_converter_class_find(c, "pid_t"), rcls);
    ReturnConverter *rc = return_converter_create(c, rcls, NULL, 0);
    RenderData d = { .return_value = "return_value" };
    return_converter_render(c, rc, f, &d);
    ck_assert_str_eq(strlist_join(c->arena, &d.declarations, "|"),
                     "pid_t _return_value;");
    ck_assert_str_eq(strlist_join(c->arena, &d.return_conversion, "|"),
                     "if ((_return_value == -1) && PyErr_Occurred()) {\n"
                     "    goto exit;\n}\n|"
                     "return_value = PyLong_FromPid(_return_value);\n");
    clinic_free(c);
}
END_TEST

/* ---- instance behaviour ------------------------------------------------ */

START_TEST(test_names_and_copy)
{
    Clinic *c = new_clinic();
    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    ConverterArg z[] = { { "zeroes", { .kind = PY_BOOL, .b = true } },
                         { "accept", { .kind = PY_SET,
                                       .types = PYT_ROBUFFER } } };
    Converter *conv = converter_create(c, converter_class_find(c, "str"),
                                       "args", "args", f, py_unspecified,
                                       z, 2);
    ck_assert_str_eq(conv->format_unit, "y#");
    ck_assert_str_eq(converter_parser_name(c, conv), "__clinic_args");
    ck_assert_str_eq(converter_length_name(c, conv), "__clinic_args_length");
    ck_assert_str_eq(converter_simple_declaration(c, conv, false, true),
                     "const char *__clinic_args");
    ck_assert_str_eq(converter_simple_declaration(c, conv, false, false),
                     "const char *args");
    ck_assert(!converter_is_optional(conv));

    /* C keywords become legal identifiers */
    Converter *kw = converter_create(c, converter_class_find(c, "int"),
                                     "default", "default", f,
                                     py_unspecified, NULL, 0);
    ck_assert_str_eq(kw->name, "default_value");
    ck_assert_str_eq(kw->py_name, "default");
    ck_assert_ptr_null(converter_length_name(c, kw));

    Converter *copy = converter_copy(c, conv);
    ck_assert_ptr_ne(copy, conv);
    ck_assert_str_eq(copy->format_unit, "y#");
    copy->name = "other";
    ck_assert_str_eq(conv->name, "args");
    clinic_free(c);
}
END_TEST

/* bool_converter's c_default: 3.11 writes 1 or 0 for any default, 3.13
   keeps a c_default= given (only Py_True and Py_False become 1 and 0). */
START_TEST(test_bool_c_default_per_dialect)
{
    static const struct {
        const Dialect *d;
        const char *given, *expected;
    } cases[] = {
        { &dialect_3_11, "-2", "1" },
        { &dialect_3_11, "Py_True", "1" },
        { &dialect_3_13, "-2", "-2" },
        { &dialect_3_13, "FLAG", "FLAG" },
        { &dialect_3_13, "Py_True", "1" },
        { &dialect_3_13, "Py_False", "1" },
    };
    for (size_t i = 0; i < NELEMS(cases); i++) {
        Clinic *c = new_clinic();
        c->dialect = cases[i].d;
        Function *f = new_function(c, FUNC_CALLABLE, NULL);
        ConverterArg arg = { "c_default", { .kind = PY_STR,
                                            .s = cases[i].given,
                                            .len = strlen(cases[i].given) } };
        PyValue yes = { .kind = PY_BOOL, .b = true };
        Converter *conv = converter_create(c, converter_class_find(c, "bool"),
                                           "x", "x", f, yes, &arg, 1);
        ck_assert_msg(strcmp(conv->c_default, cases[i].expected) == 0,
                      "%s, c_default=%s: %s, expected %s", cases[i].d->name,
                      cases[i].given, conv->c_default, cases[i].expected);
        clinic_free(c);
    }
    /* 3.13 leaves an unknown default as it is */
    Clinic *c = new_clinic();
    c->dialect = &dialect_3_13;
    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    Converter *conv = converter_create(c, converter_class_find(c, "bool"),
                                       "x", "x", f, py_unknown, NULL, 0);
    ck_assert_int_eq(conv->default_value.kind, PY_UNKNOWN);
    clinic_free(c);
}
END_TEST

/* The rows a dialect adds are in its registry and in no older one's;
   3.15's Py_ssize_t takes allow_negative. */
START_TEST(test_converters_per_dialect)
{
    static const struct {
        const char *name;
        const Dialect *first;
    } added[] = {
        { "varpos_tuple", &dialect_3_14 }, { "varpos_array", &dialect_3_14 },
        { "uint32", &dialect_3_14 }, { "unicode_fs_decoded", &dialect_3_14 },
        { "var_keyword_dict", &dialect_3_15 },
    };
    const Dialect *order[] = { &dialect_3_11, &dialect_3_13, &dialect_3_14,
                               &dialect_3_15 };
    for (size_t i = 0; i < NELEMS(added); i++) {
        bool there = false;
        for (size_t k = 0; k < NELEMS(order); k++) {
            there |= order[k] == added[i].first;
            Clinic *c = new_clinic_in(order[k]);
            ck_assert_msg((converter_class_find(c, added[i].name) != NULL) ==
                              there,
                          "%s in %s", added[i].name, order[k]->name);
            clinic_free(c);
        }
    }

    Clinic *c = new_clinic_in(&dialect_3_15);
    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    ConverterArg no = { "allow_negative", { .kind = PY_BOOL, .b = false } };
    Converter *conv = converter_create(c, converter_class_find(c, "Py_ssize_t"),
                                       "x", "x", f, py_unspecified, &no, 1);
    ck_assert(conv->non_negative);
    ck_assert_str_eq(conv->format_unit, "n");
    conv = converter_create(c, converter_class_find(c, "Py_ssize_t"), "y", "y",
                            f, py_unspecified, NULL, 0);
    ck_assert(!conv->non_negative);
    clinic_free(c);
}
END_TEST

START_TEST(test_legacy_partial_overridden)
{
    Clinic *c = new_clinic();
    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    /* 'z' is str(accept={str, NoneType}); a call keyword replaces the
       partial's, as functools.partial merges them */
    ConverterArg args[] = { { "accept", { .kind = PY_SET,
                                          .types = PYT_STR } } };
    Converter *conv = legacy_converter_create(c, "z", "a", "a", f,
                                              py_unspecified, args, 1);
    ck_assert_str_eq(conv->format_unit, "s");
    clinic_free(c);
}
END_TEST

START_TEST(test_py_unicode_cleanup)
{
    Clinic *c = new_clinic();
    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    Converter *conv = converter_create(c, converter_class_find(c, "Py_UNICODE"),
                                       "u", "u", f, py_unspecified, NULL, 0);
    Parameter p = { .name = "u", .key = "u",
                    .kind = PARAM_POSITIONAL_ONLY,
                    .default_value = py_unspecified, .function = f,
                    .converter = conv, .docstring = "" };
    RenderData d = { .return_value = "return_value" };
    converter_render(c, conv, &p, &d);
    ck_assert_str_eq(strlist_join(c->arena, &d.cleanup, "|"),
                     "/* Cleanup for u */\n"
                     "#if !USE_UNICODE_WCHAR_CACHE\n"
                     "PyMem_Free((void *)u);\n"
                     "#endif /* USE_UNICODE_WCHAR_CACHE */\n");
    ck_assert_str_eq(strlist_join(c->arena, &d.keywords, "|"), "");
    ck_assert_uint_eq(d.keywords.len, 1);
    clinic_free(c);
}
END_TEST

/* Several parameters into one CRenderData: '|' and '$' appear once, where
   the first optional and first keyword-only parameters start. */
START_TEST(test_render_several_parameters)
{
    Clinic *c = new_clinic();
    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    PyValue none = py_none, yes = { .kind = PY_BOOL, .b = true };
#define STR(x) { .kind = PY_STR, .s = x, .len = sizeof x - 1 }
    ConverterArg b_args[] = {
        { "accept", { .kind = PY_SET, .types = PYT_STR | PYT_NONETYPE } },
        { "c_default", STR("Py_None") }, { "py_default", STR("None") } };
    ConverterArg c_args[] = { { "c_default", STR("Py_True") },
                              { "py_default", STR("True") } };
    ConverterArg d_args[] = { { "c_default", STR("Py_None") },
                              { "py_default", STR("None") } };
    ConverterArg e_args[] = { { "encoding", STR("utf-8") },
                              { "c_default", STR("Py_None") },
                              { "py_default", STR("None") } };
#undef STR
    struct {
        const char *name, *cls;
        ParamKind kind;
        PyValue def;
        const ConverterArg *args;
        size_t nargs;
    } specs[] = {
        { "a", "int", PARAM_POSITIONAL_ONLY, py_unspecified, NULL, 0 },
        { "b", "str", PARAM_POSITIONAL_OR_KEYWORD, none, b_args, 3 },
        { "c", "bool", PARAM_KEYWORD_ONLY, yes, c_args, 2 },
        { "d", "Py_buffer", PARAM_KEYWORD_ONLY, none, d_args, 2 },
        { "e", "str", PARAM_KEYWORD_ONLY, none, e_args, 3 },
    };
    RenderData d = { .return_value = "return_value" };
    for (size_t i = 0; i < NELEMS(specs); i++) {
        Converter *conv = converter_create(
            c, converter_class_find(c, specs[i].cls), specs[i].name,
            specs[i].name, f, specs[i].def, specs[i].args, specs[i].nargs);
        Parameter *p = arena_new_of(c->arena, Parameter);
        p->name = p->key = specs[i].name;
        p->kind = specs[i].kind;
        p->default_value = specs[i].def;
        p->function = f;
        p->converter = conv;
        p->docstring = "";
        converter_render(c, conv, p, &d);
    }
    ck_assert_str_eq(summarize(c, &d),
        "declarations=int a;|const char *b = NULL;|int c = 1;"
        "|Py_buffer d = {NULL, NULL};|char *e = NULL;\n"
        "keywords=|b|c|d|e\n"
        "format_units=i|||z|$|p|y*|es\n"
        "parse_arguments=&a|&b|&c|&d|\"utf-8\"|&e\n"
        "impl_parameters=int a|const char *b|int c|Py_buffer *d|char *e\n"
        "impl_arguments=a|b|c|&d|e\n"
        "cleanup=/* Cleanup for d */\nif (d.obj) {\n"
        "   PyBuffer_Release(&d);\n}\n\n"
        "post_parsing=/* Post parse cleanup for e */\nPyMem_FREE(e);\n\n");
    clinic_free(c);
}
END_TEST

/* ---- classes a python block defines, with methods ---------------------- */

/* Runs python block code in the file's interpreter (as pyblock.c does). */
static void run_python(Clinic *c, const char *src)
{
    PyParseError err;
    PyProgram *prog = pyvm_parse(c->arena, src, 1, &err);
    ck_assert_msg(prog != NULL, "line %d: %s", err.line, err.msg);
    PyVM *vm = converters_python(c);
    ck_assert_msg(pyvm_run(vm, prog, pyvm_dict_new(vm)), "%s",
                  pyvm_error(vm)->text);
}

static const char *render_one(Clinic *c, Converter *conv, Function *f)
{
    Parameter *p = arena_new_of(c->arena, Parameter);
    p->name = p->key = "s";
    p->kind = PARAM_POSITIONAL_ONLY;
    p->default_value = py_unspecified;
    p->function = f;
    p->converter = conv;
    p->docstring = "";
    RenderData d = { .return_value = "return_value" };
    converter_render(c, conv, p, &d);
    return summarize(c, &d);
}

/* _struct.c's and cmathmodule.c's classes, and super() into a built-in. */
START_TEST(test_python_block_methods)
{
    Clinic *c = new_clinic();
    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    run_python(c,
        "class cache_struct_converter(CConverter):\n"
        "    type = 'PyStructObject *'\n"
        "    converter = 'cache_struct_converter'\n"
        "    c_default = \"NULL\"\n"
        "    def parse_arg(self, argname, displayname):\n"
        "        return \"\"\"\n"
        "            if (!{converter}(module, {argname}, &{paramname})) {{{{\n"
        "                goto exit;\n"
        "            }}}}\n"
        "            \"\"\".format(argname=argname, paramname=self.name,\n"
        "                       converter=self.converter)\n"
        "    def cleanup(self):\n"
        "        return \"Py_XDECREF(%s);\\n\" % self.name\n"
        "class Py_complex_protected_converter(Py_complex_converter):\n"
        "    def modify(self):\n"
        "        return 'errno = 0;'\n"
        "class myint_converter(int_converter):\n"
        "    def parse_arg(self, argname, displayname):\n"
        "        return '/* mine */' + super().parse_arg(argname, displayname)\n"
        "class sub_converter(myint_converter):\n"
        "    pass\n");
    Converter *conv = converter_create(c, converter_class_find(c,
                                       "cache_struct"), "s", "s", f,
                                       py_unspecified, NULL, 0);
    ck_assert_str_eq(render_one(c, conv, f),
        "declarations=PyStructObject *s = NULL;\n"
        "keywords=\n"
        "format_units=O&\n"
        "parse_arguments=cache_struct_converter|&s\n"
        "impl_parameters=PyStructObject *s\n"
        "impl_arguments=s\n"
        "cleanup=/* Cleanup for s */\nPy_XDECREF(s);\n\n");
    ck_assert_str_eq(converter_parse_arg(c, conv, "arg", "\"x\"", false),
        "\n            if (!cache_struct_converter(module, arg, &s)) {{\n"
        "                goto exit;\n            }}\n            ");

    conv = converter_create(c, converter_class_find(c, "Py_complex_protected"),
                            "s", "s", f, py_unspecified, NULL, 0);
    ck_assert_str_eq(render_one(c, conv, f),
        "declarations=Py_complex s;\n"
        "modifications=/* modifications for s */\nerrno = 0;\n"
        "keywords=\n"
        "format_units=D\n"
        "parse_arguments=&s\n"
        "impl_parameters=Py_complex s\n"
        "impl_arguments=s\n");
    ck_assert_str_eq(parse_arg_raw(c, conv, "arg", "\"x\""),
        "\n                s = PyComplex_AsCComplex(arg);\n"
        "                if (PyErr_Occurred()) {{\n"
        "                    goto exit;\n                }}\n"
        "                ");

    conv = converter_create(c, converter_class_find(c, "myint"), "s", "s", f,
                            py_unspecified, NULL, 0);
    ck_assert_str_eq(converter_parse_arg(c, conv, "arg", "\"x\"", false),
        "/* mine */\n                s = _PyLong_AsInt(arg);\n"
        "                if (s == -1 && PyErr_Occurred()) {{\n"
        "                    goto exit;\n                }}\n"
        "                ");
    /* a subclass of it inherits the method */
    conv = converter_create(c, converter_class_find(c, "sub"), "s", "s", f,
                            py_unspecified, NULL, 0);
    ck_assert(strncmp(converter_parse_arg(c, conv, "arg", "\"x\"", false),
                      "/* mine */", 10) == 0);
    clinic_free(c);
}
END_TEST

/* A file of the 3.13 dialect: its converter table and its flavour of
   the python block namespace. */
static Clinic *new_clinic_3_13(void)
{
    return new_clinic_in(&dialect_3_13);
}

static bool has_include(const Converter *conv, const char *filename,
                        const char *condition)
{
    for (size_t i = 0; conv->includes && i < conv->includes->len; i++) {
        const Include *inc = &conv->includes->items[i];
        if (!strcmp(inc->filename, filename) &&
            (condition ? inc->condition && !strcmp(inc->condition, condition)
                       : !inc->condition))
            return true;
    }
    return false;
}

/* 3.13's CConverter methods a block calls: parse_arg gets limited_capi,
   format_code fills {bad_argument} and the parser's name, bad_argument
   words the TypeError for the full or the Limited C API, add_include and
   use_converter note #includes. */
START_TEST(test_python_block_methods_3_13)
{
    Clinic *c = new_clinic_3_13();
    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    run_python(c,
        "class pid_converter(CConverter):\n"
        "    type = 'pid_t'\n"
        "    def parse_arg(self, argname, displayname, *, limited_capi):\n"
        "        self.add_include('pid.h', 'f()', condition='HAVE_PID')\n"
        "        return self.format_code(\n"
        "            'if (!PyLong_Check({argname})) {{{{\\n'\n"
        "            '    {bad_argument}\\n'\n"
        "            '}}}}\\n'\n"
        "            '{paramname} = f({argname});\\n',\n"
        "            argname=argname,\n"
        "            bad_argument=self.bad_argument(displayname, 'int',\n"
        "                                           limited_capi=limited_capi))\n"
        "class which_converter(CConverter):\n"
        "    def parse_arg(self, argname, displayname, *, limited_capi):\n"
        "        return 'limited' if limited_capi else 'full'\n"
        "class lacking_converter(CConverter):\n"
        "    def parse_arg(self, argname, displayname, *, limited_capi):\n"
        "        return self.format_code('{bad_argument}', argname=argname)\n");
    /* "args" is one of the parser's names: format_code's {paramname} is
       the parser's name for it */
    Converter *conv = converter_create(c, converter_class_find(c, "pid"),
                                       "args", "args", f, py_unspecified,
                                       NULL, 0);
    ck_assert_str_eq(converter_parse_arg(c, conv, "arg", "argument 1", false),
        "if (!PyLong_Check(arg)) {{\n"
        "    _PyArg_BadArgument(\"{name}\", \"argument 1\", \"int\", arg);\n"
        "}}\n"
        "__clinic_args = f(arg);\n");
    ck_assert(has_include(conv, "pid.h", "HAVE_PID"));
    ck_assert(has_include(conv, "pycore_modsupport.h", NULL));
    conv = converter_create(c, converter_class_find(c, "pid"), "x", "x", f,
                            py_unspecified, NULL, 0);
    ck_assert_str_eq(converter_parse_arg(c, conv, "arg", "argument 1", true),
        "if (!PyLong_Check(arg)) {{\n"
        "    PyErr_Format(PyExc_TypeError, \"{name}() argument 1 must be "
        "int, not %T\", arg);\n"
        "}}\n"
        "x = f(arg);\n");
    ck_assert(!has_include(conv, "pycore_modsupport.h", NULL));

    conv = converter_create(c, converter_class_find(c, "which"), "x", "x", f,
                            py_unspecified, NULL, 0);
    ck_assert_str_eq(converter_parse_arg(c, conv, "a", "b", true), "limited");
    ck_assert_str_eq(converter_parse_arg(c, conv, "a", "b", false), "full");

    /* the built-in use_converter of unsigned_short with its converter */
    ConverterArg bitwise = { "bitwise", { .kind = PY_BOOL, .b = false } };
    conv = converter_create(c, converter_class_find(c, "unsigned_short"),
                            "x", "x", f, py_unspecified, &bitwise, 1);
    converter_use_converter(c, conv);
    ck_assert(has_include(conv, "pycore_long.h", NULL));

    /* format_code without the bad_argument its text asks for */
    jmp_buf jb;
    c->recover = &jb;
    if (setjmp(jb) == 0) {
        conv = converter_create(c, converter_class_find(c, "lacking"), "x",
                                "x", f, py_unspecified, NULL, 0);
        converter_parse_arg(c, conv, "a", "b", false);
        ck_abort_msg("no error");
    }
    ck_assert_ptr_nonnull(strstr(c->diagnostics.buf,
                                 "TypeError: required 'bad_argument' "
                                 "argument"));
    clinic_free(c);
}
END_TEST

/* 3.13 runs a block in libclinic's parser namespace: the converter
   classes, buffer, unspecified and NoneType, but none of 3.11's module
   globals (fail, NULL, c_repr, ...); its CConverter has the attributes
   3.11's lacks. */
START_TEST(test_python_namespace_3_13)
{
    Clinic *c = new_clinic_3_13();
    PyVM *vm = converters_python(c);
    PyParseError err;
    PyProgram *ok = pyvm_parse(c->arena,
        "x = (CConverter, CReturnConverter, int_converter, buffer,\n"
        "     unspecified, NoneType, long_return_converter)\n"
        "assert CConverter.broken_limited_capi is False\n", 1, &err);
    ck_assert_ptr_nonnull(ok);
    ck_assert(pyvm_run(vm, ok, pyvm_dict_new(vm)));
    static const char *const absent[] = { "fail", "NULL", "c_repr",
                                          "add_c_converter" };
    for (size_t i = 0; i < NELEMS(absent); i++) {
        const char *src = arena_printf(c->arena, "%s\n", absent[i]);
        PyProgram *prog = pyvm_parse(c->arena, src, 1, &err);
        ck_assert_ptr_nonnull(prog);
        ck_assert_msg(!pyvm_run(vm, prog, pyvm_dict_new(vm)), "%s",
                      absent[i]);
        ck_assert_str_eq(pyvm_error(vm)->type, "NameError");
    }
    clinic_free(c);

    /* 3.11's CConverter has no broken_limited_capi */
    c = new_clinic();
    vm = converters_python(c);
    PyProgram *attr = pyvm_parse(c->arena, "CConverter.broken_limited_capi\n",
                                 1, &err);
    ck_assert_ptr_nonnull(attr);
    ck_assert(!pyvm_run(vm, attr, pyvm_dict_new(vm)));
    ck_assert_str_eq(pyvm_error(vm)->type, "AttributeError");
    clinic_free(c);
}
END_TEST

/* posixmodule.c's path_t: converter_init keeps keyword arguments on self,
   pre_render reads them after render's copy; self.function is there. */
START_TEST(test_python_block_instance_attrs)
{
    Clinic *c = new_clinic();
    Function *f = new_function(c, FUNC_CALLABLE, NULL);
    run_python(c,
        "class path_t_converter(CConverter):\n"
        "    type = 'path_t'\n"
        "    impl_by_reference = True\n"
        "    converter = 'path_converter'\n"
        "    def converter_init(self, *, allow_fd=False, nullable=False):\n"
        "        if self.default not in (unspecified, None):\n"
        "            fail(\"Can't specify a default to the path_t converter!\")\n"
        "        self.nullable = nullable\n"
        "        self.allow_fd = allow_fd\n"
        "    def pre_render(self):\n"
        "        def strify(value):\n"
        "            if isinstance(value, str):\n"
        "                return value\n"
        "            return str(int(bool(value)))\n"
        "        self.c_default = 'PATH_T_INITIALIZE(\"{}\", \"{}\", {}, {})'.format(\n"
        "            self.function.name, self.name, strify(self.nullable),\n"
        "            strify(self.allow_fd))\n");
    ConverterArg args[] = { { "nullable", { .kind = PY_BOOL, .b = true } } };
    Converter *conv = converter_create(c, converter_class_find(c, "path_t"),
                                       "path", "path", f, py_unspecified,
                                       args, 1);
    ck_assert_ptr_eq(conv->function, f);
    Converter *copy = converter_copy(c, conv);
    converter_pre_render(c, copy);
    ck_assert_str_eq(converter_declaration(c, copy),
                     "path_t path = PATH_T_INITIALIZE(\"f\", \"path\", 1, 0);");
    /* the original is untouched: the copy has its own attributes */
    ck_assert_ptr_null(conv->c_default);
    clinic_free(c);
}
END_TEST

/* winreg.c's HKEY_return_converter: render calls the built-in declare
   and err_occurred_if_null_pointer, and appends to data's lists. */
START_TEST(test_python_block_return_render)
{
    Clinic *c = new_clinic();
    run_python(c,
        "class HKEY_return_converter(CReturnConverter):\n"
        "    type = 'HKEY'\n"
        "    def render(self, function, data):\n"
        "        self.declare(data)\n"
        "        self.err_occurred_if_null_pointer(\"_return_value\", data)\n"
        "        data.return_conversion.append(\n"
        "            'return_value = PyHKEY_FromHKEY(_return_value);\\n')\n"
        "class dev_t_return_converter(unsigned_long_return_converter):\n"
        "    type = 'dev_t'\n"
        "    conversion_fn = '_PyLong_FromDev'\n"
        "    unsigned_cast = '(dev_t)'\n");
    ReturnConverter *rc = return_converter_create(
        c, return_converter_class_find(c, "HKEY"), NULL, 0);
    RenderData d = { .return_value = "return_value" };
    return_converter_render(c, rc, new_function(c, FUNC_CALLABLE, NULL), &d);
    ck_assert_str_eq(strlist_join(c->arena, &d.declarations, "|"),
                     "HKEY _return_value;");
    ck_assert_str_eq(d.return_value, "_return_value");
    ck_assert_str_eq(strlist_join(c->arena, &d.return_conversion, "|"),
                     "if (_return_value == NULL) {\n    goto exit;\n}\n|"
                     "return_value = PyHKEY_FromHKEY(_return_value);\n");
    /* a subclass of a built-in keeps the built-in render */
    rc = return_converter_create(c, return_converter_class_find(c, "dev_t"),
                                 NULL, 0);
    RenderData e = { .return_value = "return_value" };
    return_converter_render(c, rc, new_function(c, FUNC_CALLABLE, NULL), &e);
    ck_assert_str_eq(strlist_join(c->arena, &e.return_conversion, "|"),
                     "if ((_return_value == (dev_t)-1) && PyErr_Occurred()) "
                     "{\n    goto exit;\n}\n|"
                     "return_value = _PyLong_FromDev(_return_value);\n");
    clinic_free(c);
}
END_TEST

/* ---- `clinic --converters` -------------------------------------------- */

/* The reference's listing, with slice_index's set in definition order
   rather than Python's hash order. */
static const char expected_listing[] =
    "\n"
    "Legacy converters:\n"
    "    B C D L O S U Y Z Z#\n"
    "    b c d f h i l p s s# s* u u# w* y y# y* z z# z*\n"
    "\n"
    "Converters:\n"
    "    bool(accept={<class 'object'>})\n"
    "    byte(bitwise=False)\n"
    "    char()\n"
    "    defining_class(type=None)\n"
    "    double()\n"
    "    fildes()\n"
    "    float()\n"
    "    int(accept={<class 'int'>}, type=None)\n"
    "    long()\n"
    "    long_long()\n"
    "    object(converter=None, type=None, subclass_of=None)\n"
    "    Py_buffer(accept={<class '__main__.buffer'>})\n"
    "    Py_complex()\n"
    "    Py_ssize_t(accept={<class 'int'>})\n"
    "    Py_UNICODE(accept={<class 'str'>}, zeroes=False)\n"
    "    PyByteArrayObject()\n"
    "    PyBytesObject()\n"
    "    self(type=None)\n"
    "    short()\n"
    "    size_t()\n"
    "    slice_index(accept={<class 'int'>, <class 'NoneType'>})\n"
    "    str(accept={<class 'str'>}, encoding=None, zeroes=False)\n"
    "    unicode()\n"
    "    unsigned_char(bitwise=False)\n"
    "    unsigned_int(bitwise=False)\n"
    "    unsigned_long(bitwise=False)\n"
    "    unsigned_long_long(bitwise=False)\n"
    "    unsigned_short(bitwise=False)\n"
    "\n"
    "Return converters:\n"
    "    bool()\n"
    "    double()\n"
    "    float()\n"
    "    init()\n"
    "    int()\n"
    "    long()\n"
    "    NoneType()\n"
    "    Py_ssize_t()\n"
    "    size_t()\n"
    "    unsigned_int()\n"
    "    unsigned_long()\n"
    "\n"
    "All converters also accept (c_default=None, py_default=None, "
    "annotation=None).\n"
    "All return converters also accept (py_default=None).\n";

START_TEST(test_converters_print)
{
    StrBuf sb = STRBUF_INIT;
    converters_print(&sb, dialect_default());
    ck_assert_str_eq(sb.buf, expected_listing);
    sb_free(&sb);
}
END_TEST

/* 3.13 lists its own return converters and names its buffer classes by
   their module, libclinic.converters. */
START_TEST(test_converters_print_3_13)
{
    StrBuf sb = STRBUF_INIT;
    converters_print(&sb, &dialect_3_13);
    ck_assert_ptr_nonnull(strstr(sb.buf,
        "    Py_buffer(accept={<class 'libclinic.converters.buffer'>})\n"));
    ck_assert_ptr_nonnull(strstr(sb.buf, "    long()\n    object()\n"
                                         "    Py_ssize_t()\n"));
    ck_assert_ptr_null(strstr(sb.buf, "    init()\n"));
    ck_assert_ptr_null(strstr(sb.buf, "NoneType()"));
    ck_assert_ptr_null(strstr(sb.buf, "__main__"));
    sb_free(&sb);
}
END_TEST

static Suite *converters_suite(void)
{
    Suite *s = suite_create("converters");
    TCase *tc = tcase_create("reference");
    tcase_add_loop_test(tc, test_converter_cases, 0, (int)NELEMS(conv_cases));
    tcase_add_loop_test(tc, test_error_cases, 0, (int)NELEMS(err_cases));
    tcase_add_loop_test(tc, test_self_cases, 0, (int)NELEMS(self_cases));
    tcase_add_loop_test(tc, test_return_cases, 0, (int)NELEMS(return_cases));
    tcase_add_test(tc, test_defining_class);
    tcase_add_test(tc, test_return_converter_bad_keyword);
    tcase_add_test(tc, test_return_converter_py_default);
    tcase_add_test(tc, test_converters_print);
    tcase_add_test(tc, test_converters_print_3_13);
    suite_add_tcase(s, tc);

    TCase *tr = tcase_create("registry");
    tcase_add_test(tr, test_registry_contents);
    tcase_add_test(tr, test_register_python_class);
    tcase_add_test(tr, test_names_and_copy);
    tcase_add_test(tr, test_bool_c_default_per_dialect);
    tcase_add_test(tr, test_converters_per_dialect);
    tcase_add_test(tr, test_legacy_partial_overridden);
    tcase_add_test(tr, test_py_unicode_cleanup);
    tcase_add_test(tr, test_render_several_parameters);
    tcase_add_test(tr, test_python_block_methods);
    tcase_add_test(tr, test_python_block_methods_3_13);
    tcase_add_test(tr, test_python_namespace_3_13);
    tcase_add_test(tr, test_python_block_instance_attrs);
    tcase_add_test(tr, test_python_block_return_render);
    suite_add_tcase(s, tr);
    return s;
}

int main(void)
{
    return unit_run(converters_suite());
}
