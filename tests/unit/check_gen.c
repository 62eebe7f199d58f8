/*
 * check_gen.c — the generator (gen.c, gen_templates.c, gen_groups.c) on
 * its own: option-group permutations (test_clinic.py's
 * ClinicGroupPermuterTest), Python set order, docstring quoting, and the
 * templates each calling convention chooses for hand-built functions.
 * Expected strings come from running the reference clinic.py.
 */
#include <check.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "drive/clinic.h"
#include "model/converters.h"
#include "generate/gen.h"
#include "generate/gen_int.h"
#include "generate/output.h"
#include "unit.h"

static Clinic *c;

static void setup(void) { c = clinic_new("test.c", NULL); }
static void teardown(void) { clinic_free(c); }

/* ---- building functions by hand ----------------------------------------- */

static Function *new_function(const char *full_name, FunctionKind kind,
                              Class *cls)
{
    Function *f = arena_new_of(c->arena, Function);
    const char *dot = strrchr(full_name, '.');
    Converter *sc;
    Parameter *self;
    const char *self_name = kind == FUNC_CLASS_METHOD ||
                                    kind == FUNC_METHOD_NEW
                                ? "type"
                                : (cls ? "self" : "module");

    f->full_name = full_name;
    f->name = dot ? dot + 1 : full_name;
    f->cls = cls;
    f->kind = kind;
    f->docstring = "";
    f->cpp_condition = "";
    f->return_converter = return_converter_create(c,
        return_converter_class_find(c, "object"), NULL, 0);
    f->capparameters = 16;
    f->parameters = arena_array_of(c->arena, Parameter *, 16);

    sc = converter_create(c, converter_class_find(c, "self"), self_name,
                          self_name, f, py_unspecified, NULL, 0);
    self = arena_new_of(c->arena, Parameter);
    self->name = self->key = self_name;
    self->kind = PARAM_POSITIONAL_ONLY;
    self->default_value = py_unspecified;
    self->function = f;
    self->converter = sc;
    self->docstring = "";
    f->parameters[f->nparameters++] = self;
    return f;
}

static Parameter *add_param(Function *f, const char *name,
                            const char *converter, ParamKind kind,
                            PyValue default_value, int group)
{
    Parameter *p = arena_new_of(c->arena, Parameter);
    p->name = p->key = name;
    p->kind = kind;
    p->default_value = default_value;
    p->function = f;
    p->docstring = "";
    p->group = group;
    p->converter = converter_create(c, converter_class_find(c, converter),
                                    name, name, f, default_value, NULL, 0);
    f->parameters[f->nparameters++] = p;
    return p;
}

static PyValue py_int(const char *digits)
{
    PyValue v = {0};
    v.kind = PY_INT;
    v.s = digits;
    v.len = strlen(digits);
    return v;
}

/* The ten templates, by field name. */
static StrMap templates_of(Function *f)
{
    const char *fields[ROUTER_NFIELDS];
    StrMap t = {0};
    gen_output_templates(c, f, fields);
    for (int i = 0; i < ROUTER_NFIELDS; i++)
        strmap_set(c->arena, &t, router_field_names[i], fields[i]);
    return t;
}

/* Runs fn(f) expecting clinic_fail(); returns the diagnostics. */
static const char *expect_failure(const char *(*fn)(Function *), Function *f)
{
    jmp_buf recover;
    c->recover = &recover;
    if (setjmp(recover)) {
        c->recover = NULL;
        return c->diagnostics.buf;
    }
    fn(f);
    c->recover = NULL;
    return NULL;
}

static const char *render(Function *f) { return gen_render_function(c, f); }

/* ---- permutations ---------------------------------------------------------- */

static GenItems items(const char **names, size_t n)
{
    GenItems g = {(const void **)names, n};
    return g;
}

static void check_permutations(GenItems *subsets, size_t n,
                               const char *const *expected, size_t nexpected)
{
    size_t i, j;
    ck_assert_uint_eq(n, nexpected);
    for (i = 0; i < n; i++) {
        StrBuf sb = STRBUF_INIT;
        for (j = 0; j < subsets[i].n; j++) {
            if (j)
                sb_addc(&sb, ' ');
            sb_adds(&sb, subsets[i].items[j]);
        }
        ck_assert_str_eq(sb.buf, expected[i]);
        sb_free(&sb);
    }
}

START_TEST(permute_range)
{
    const char *start[] = {"start"}, *stop[] = {"stop"}, *step[] = {"step"};
    GenItems left = items(start, 1), req = items(stop, 1), right = items(step, 1);
    GenItems *out;
    size_t n = gen_permute_optional_groups(c->arena, &left, 1, &req, &right,
                                           1, &out);
    const char *const expected[] = {"stop", "start stop", "start stop step"};
    check_permutations(out, n, expected, 3);
}
END_TEST

START_TEST(permute_add_window)
{
    const char *xy[] = {"x", "y"}, *ch[] = {"ch"}, *attr[] = {"attr"};
    GenItems left = items(xy, 2), req = items(ch, 1), right = items(attr, 1);
    GenItems *out;
    size_t n = gen_permute_optional_groups(c->arena, &left, 1, &req, &right,
                                           1, &out);
    const char *const expected[] = {"ch", "ch attr", "x y ch", "x y ch attr"};
    check_permutations(out, n, expected, 4);
}
END_TEST

START_TEST(permute_ludicrous)
{
    const char *a[] = {"a1", "a2", "a3"}, *b[] = {"b1", "b2"}, *c1[] = {"c1"};
    const char *d[] = {"d1", "d2"}, *e[] = {"e1", "e2", "e3"};
    GenItems left[2] = {items(a, 3), items(b, 2)};
    GenItems right[2] = {items(d, 2), items(e, 3)};
    GenItems req = items(c1, 1);
    GenItems *out;
    size_t n = gen_permute_optional_groups(c->arena, left, 2, &req, right, 2,
                                           &out);
    const char *const expected[] = {
        "c1",
        "b1 b2 c1",
        "b1 b2 c1 d1 d2",
        "a1 a2 a3 b1 b2 c1",
        "a1 a2 a3 b1 b2 c1 d1 d2",
        "a1 a2 a3 b1 b2 c1 d1 d2 e1 e2 e3",
    };
    check_permutations(out, n, expected, 6);
}
END_TEST

START_TEST(permute_right_only)
{
    const char *a[] = {"a"}, *b[] = {"b"}, *cc[] = {"c"};
    GenItems right[3] = {items(a, 1), items(b, 1), items(cc, 1)};
    GenItems req = {NULL, 0};
    GenItems *out;
    size_t n = gen_permute_optional_groups(c->arena, NULL, 0, &req, right, 3,
                                           &out);
    const char *const expected[] = {"", "a", "a b", "a b c"};
    check_permutations(out, n, expected, 4);
}
END_TEST

START_TEST(permute_left_without_required_is_refused)
{
    const char *a[] = {"a"};
    GenItems left = items(a, 1), req = {NULL, 0};
    GenItems *out;
    ck_assert_uint_eq(gen_permute_optional_groups(c->arena, &left, 1, &req,
                                                  NULL, 0, &out), 0);
    ck_assert_ptr_null(out);
}
END_TEST

/* ---- Python set order --------------------------------------------------------- */

static void check_set_order(const long *in, size_t n, const long *expected,
                            size_t nexpected)
{
    long out[32];
    Arena *a = arena_new();
    size_t i, got = gen_pyset_int_order(a, in, n, out);
    arena_free(a);
    ck_assert_uint_eq(got, nexpected);
    for (i = 0; i < got; i++)
        ck_assert_int_eq(out[i], expected[i]);
}

START_TEST(set_order_matches_cpython)
{
    /* list({x for x in seq}) as CPython 3.11 prints it */
    static const long s1[] = {-2, -2, -1, 0, 1, 2, 2}, e1[] = {0, 1, 2, -1, -2};
    static const long s2[] = {-1, -2}, e2[] = {-1, -2};
    static const long s3[] = {-2, -1}, e3[] = {-2, -1};
    static const long s4[] = {-1, 0, 1}, e4[] = {0, 1, -1};
    static const long s5[] = {-3, -2, -1, 0, 1, 2, 3},
                      e5[] = {0, 1, 2, 3, -1, -3, -2};
    static const long s6[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -2, -3, -4, -5},
                      e6[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, -2, -5, -4, -3, -1};
    static const long s7[] = {5, -5, 3, -3, 1, -1, 0},
                      e7[] = {0, 1, 3, 5, -5, -3, -1};
    static const long s8[] = {-8, 0, 8, 16, -16}, e8[] = {0, 8, -16, 16, -8};
    check_set_order(s1, 7, e1, 5);
    check_set_order(s2, 2, e2, 2);
    check_set_order(s3, 2, e3, 2);
    check_set_order(s4, 3, e4, 3);
    check_set_order(s5, 7, e5, 7);
    check_set_order(s6, 14, e6, 14);
    check_set_order(s7, 7, e7, 7);
    check_set_order(s8, 5, e8, 5);
}
END_TEST

/* ---- small pieces --------------------------------------------------------------- */

START_TEST(group_variable_names)
{
    ck_assert_str_eq(gen_group_to_variable_name(c, -2), "group_left_2");
    ck_assert_str_eq(gen_group_to_variable_name(c, 1), "group_right_1");
}
END_TEST

START_TEST(docstring_as_c_string)
{
    Function f = {0};
    f.docstring = "f($module, /)\n--\n\nSay \"hi\" to 'x'\\n.";
    ck_assert_str_eq(gen_docstring_for_c_string(c, &f),
        "\"f($module, /)\\n\"\n"
        "\"--\\n\"\n"
        "\"\\n\"\n"
        "\"Say \\\"hi\\\" to \\'x\\'\\\\n.\"");
    /* Only a signature: the blank line __text_signature__ expects. */
    f.docstring = "f($module, /)\n--";
    ck_assert_str_eq(gen_docstring_for_c_string(c, &f),
                     "\"f($module, /)\\n\"\n\"--\\n\"\n\"\\n\"");
    f.docstring = "";
    ck_assert_str_eq(gen_docstring_for_c_string(c, &f), "\"\"");
    ck_assert_uint_eq(c->diagnostics.len, 0);
}
END_TEST

START_TEST(docstring_non_ascii_warns)
{
    Function f = {0};
    f.docstring = "caf\xc3\xa9";
    ck_assert_str_eq(gen_docstring_for_c_string(c, &f), "\"caf\xc3\xa9\"");
    ck_assert_ptr_nonnull(strstr(c->diagnostics.buf,
                                 "Non-ascii character appear in docstring."));
}
END_TEST

START_TEST(display_names)
{
    Parameter p = {0};
    p.name = "x";
    p.kind = PARAM_POSITIONAL_ONLY;
    ck_assert_str_eq(gen_param_displayname(c, &p, 0), "\"argument\"");
    ck_assert_str_eq(gen_param_displayname(c, &p, 3), "\"argument 3\"");
    p.kind = PARAM_KEYWORD_ONLY;
    ck_assert_str_eq(gen_param_displayname(c, &p, 3), "\"argument 'x'\"");
}
END_TEST

START_TEST(methoddef_flags)
{
    Function f = {0};
    f.kind = FUNC_CALLABLE;
    ck_assert_str_eq(gen_methoddef_flags(c, &f), "");
    f.kind = FUNC_CLASS_METHOD;
    f.coexist = true;
    ck_assert_str_eq(gen_methoddef_flags(c, &f), "METH_CLASS|METH_COEXIST");
    f.kind = FUNC_STATIC_METHOD;
    f.coexist = false;
    ck_assert_str_eq(gen_methoddef_flags(c, &f), "METH_STATIC");
    f.kind = FUNC_METHOD_NEW;
    f.coexist = true;
    ck_assert_str_eq(gen_methoddef_flags(c, &f), "");
}
END_TEST

/* ---- calling conventions ---------------------------------------------------------- */

START_TEST(noargs_template)
{
    Function *f = new_function("demo.ping", FUNC_CALLABLE, NULL);
    StrMap t = templates_of(f);
    ck_assert_str_eq(strmap_get(&t, "methoddef_define"),
        "\n#define {methoddef_name}    \\\n"
        "    {{\"{name}\", (PyCFunction){c_basename}, METH_NOARGS, "
        "{c_basename}__doc__}},\n");
    ck_assert_str_eq(strmap_get(&t, "parser_definition"),
        "\nstatic PyObject *\n"
        "{c_basename}({self_type}{self_name}, PyObject *Py_UNUSED(ignored))\n"
        "{{\n"
        "    return {c_basename}_impl({impl_arguments});\n"
        "}}\n");
    ck_assert_str_eq(strmap_get(&t, "cpp_if"), "");
    ck_assert_str_eq(strmap_get(&t, "methoddef_ifndef"), "");
}
END_TEST

START_TEST(meth_o_object_calls_impl_directly)
{
    Function *f = new_function("demo.echo", FUNC_CALLABLE, NULL);
    StrMap t;
    add_param(f, "obj", "object", PARAM_POSITIONAL_ONLY, py_unspecified, 0);
    t = templates_of(f);
    ck_assert_str_eq(strmap_get(&t, "parser_definition"), "");
    ck_assert_str_eq(strmap_get(&t, "parser_prototype"), "");
    ck_assert_str_eq(strmap_get(&t, "impl_prototype"), "");
    ck_assert_str_eq(strmap_get(&t, "impl_definition"),
                     "\nstatic PyObject *\n{c_basename}({impl_parameters})\n");
    ck_assert_ptr_nonnull(strstr(strmap_get(&t, "methoddef_define"),
                                 "(PyCFunction){c_basename}, METH_O,"));
}
END_TEST

START_TEST(meth_o_renames_arg)
{
    Function *f = new_function("demo.take", FUNC_CALLABLE, NULL);
    StrMap t;
    add_param(f, "arg", "int", PARAM_POSITIONAL_ONLY, py_unspecified, 0);
    t = templates_of(f);
    ck_assert_ptr_nonnull(strstr(strmap_get(&t, "parser_definition"),
                                 "PyObject *arg_)\n"));
    ck_assert_ptr_nonnull(strstr(strmap_get(&t, "parser_definition"),
                                 "arg = _PyLong_AsInt(arg_);"));
}
END_TEST

START_TEST(positional_only_skip_optional)
{
    Function *f = new_function("demo.opt", FUNC_CALLABLE, NULL);
    StrMap t;
    const char *def;
    add_param(f, "a", "object", PARAM_POSITIONAL_ONLY, py_unspecified, 0);
    add_param(f, "b", "int", PARAM_POSITIONAL_ONLY, py_int("0"), 0);
    t = templates_of(f);
    def = strmap_get(&t, "parser_definition");
    ck_assert_ptr_nonnull(strstr(def,
        "    if (!_PyArg_CheckPositional(\"{name}\", nargs, 1, 2)) {{\n"
        "        goto exit;\n"
        "    }}\n"
        "    a = args[0];\n"
        "    if (nargs < 2) {{\n"
        "        goto skip_optional;\n"
        "    }}\n"));
    ck_assert_ptr_nonnull(strstr(def, "skip_optional:\n"));
    ck_assert_ptr_nonnull(strstr(strmap_get(&t, "methoddef_define"),
                                 "_PyCFunction_CAST({c_basename}), METH_FASTCALL,"));
}
END_TEST

START_TEST(keywords_noptargs)
{
    Function *f = new_function("demo.kw", FUNC_CALLABLE, NULL);
    StrMap t;
    const char *def;
    add_param(f, "a", "object", PARAM_POSITIONAL_OR_KEYWORD, py_unspecified, 0);
    add_param(f, "b", "object", PARAM_KEYWORD_ONLY, py_none, 0);
    t = templates_of(f);
    def = strmap_get(&t, "parser_definition");
    ck_assert_ptr_nonnull(strstr(def,
        "    static const char * const _keywords[] = {{{keywords_c} NULL}};\n"
        "    static _PyArg_Parser _parser = {{NULL, _keywords, \"{name}\", 0}};\n"
        "    PyObject *argsbuf[2];\n"
        "    Py_ssize_t noptargs = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0) - 1;\n"));
    ck_assert_ptr_nonnull(strstr(def,
        "    args = _PyArg_UnpackKeywords(args, nargs, NULL, kwnames, &_parser, 1, 1, 0, argsbuf);\n"));
    ck_assert_ptr_nonnull(strstr(def,
        "    if (!noptargs) {{\n"
        "        goto skip_optional_kwonly;\n"
        "    }}\n"
        "    b = args[1];\n"
        "skip_optional_kwonly:\n"));
}
END_TEST

START_TEST(init_without_arguments_checks_both)
{
    Class *cls = arena_new_of(c->arena, Class);
    Function *f;
    StrMap t;
    const char *def;
    cls->name = "Thing";
    f = new_function("demo.Thing.__init__", FUNC_METHOD_INIT, cls);
    f->return_converter = return_converter_create(c,
        return_converter_class_find(c, "init"), NULL, 0);
    t = templates_of(f);
    def = strmap_get(&t, "parser_definition");
    ck_assert_str_eq(strmap_get(&t, "methoddef_define"), "");
    ck_assert_str_eq(strmap_get(&t, "docstring_definition"), "");
    ck_assert_ptr_nonnull(strstr(def,
        "static int\n"
        "{c_basename}({self_type}{self_name}, PyObject *args, PyObject *kwargs)\n"
        "{{\n"
        "    int return_value = -1;\n"
        "    {declarations}\n"
        "    {initializers}\n"
        "\n"
        "    if ({self_type_check}!_PyArg_NoPositional(\"{name}\", args)) {{\n"
        "        goto exit;\n"
        "    }}\n"
        "    if ({self_type_check}!_PyArg_NoKeywords(\"{name}\", kwargs)) {{\n"));
}
END_TEST

START_TEST(cpp_condition_and_ifndef_once)
{
    Function *f = new_function("demo.foo", FUNC_CALLABLE, NULL);
    StrMap t;
    f->cpp_condition = "defined(HAVE_FOO)";
    t = templates_of(f);
    ck_assert_str_eq(strmap_get(&t, "cpp_if"), "\n#if defined(HAVE_FOO)\n");
    ck_assert_str_eq(strmap_get(&t, "cpp_endif"),
                     "\n#endif /* defined(HAVE_FOO) */\n");
    ck_assert_str_eq(strmap_get(&t, "methoddef_ifndef"),
        "\n#ifndef {methoddef_name}\n"
        "    #define {methoddef_name}\n"
        "#endif /* !defined({methoddef_name}) */\n");
    /* The same function again (say, under #else): no second #ifndef. */
    t = templates_of(f);
    ck_assert_str_eq(strmap_get(&t, "methoddef_ifndef"), "");
    ck_assert_str_eq(strmap_get(&t, "cpp_if"), "\n#if defined(HAVE_FOO)\n");
}
END_TEST

START_TEST(render_returns_block_output)
{
    Function *f = new_function("demo.echo", FUNC_CALLABLE, NULL);
    add_param(f, "obj", "object", PARAM_POSITIONAL_ONLY, py_unspecified, 0);
    /* Default routing: only impl_definition goes to the block. */
    ck_assert_str_eq(gen_render_function(c, f),
                     "\nstatic PyObject *\ndemo_echo(PyObject *module, PyObject *obj)\n");
    ck_assert_str_eq(gen_render_function(c, NULL), "");
}
END_TEST

START_TEST(render_wraps_long_impl)
{
    Function *f = new_function("demo.long_function_name", FUNC_CALLABLE, NULL);
    add_param(f, "first_parameter", "object", PARAM_POSITIONAL_ONLY,
              py_unspecified, 0);
    add_param(f, "second_parameter", "object", PARAM_POSITIONAL_ONLY,
              py_unspecified, 0);
    add_param(f, "third_parameter", "object", PARAM_POSITIONAL_ONLY,
              py_unspecified, 0);
    ck_assert_str_eq(gen_render_function(c, f),
        "\nstatic PyObject *\n"
        "demo_long_function_name_impl(PyObject *module, PyObject *first_parameter,\n"
        "                             PyObject *second_parameter,\n"
        "                             PyObject *third_parameter)\n");
}
END_TEST

START_TEST(groups_need_positional_only)
{
    Function *f = new_function("demo.g", FUNC_CALLABLE, NULL);
    const char *diag;
    add_param(f, "a", "int", PARAM_POSITIONAL_ONLY, py_unspecified, 1);
    add_param(f, "b", "int", PARAM_POSITIONAL_OR_KEYWORD, py_unspecified, 0);
    diag = expect_failure(render, f);
    ck_assert_ptr_nonnull(diag);
    ck_assert_ptr_nonnull(strstr(diag,
        "You cannot use optional groups ('[' and ']')\n"
        "unless all parameters are positional-only ('/')."));
}
END_TEST

START_TEST(option_group_switch)
{
    Function *f = new_function("demo.window.addch", FUNC_CALLABLE, NULL);
    add_param(f, "y", "int", PARAM_POSITIONAL_ONLY, py_unspecified, -1);
    add_param(f, "x", "int", PARAM_POSITIONAL_ONLY, py_unspecified, -1);
    add_param(f, "ch", "object", PARAM_POSITIONAL_ONLY, py_unspecified, 0);
    add_param(f, "attr", "long", PARAM_POSITIONAL_ONLY, py_unspecified, 1);
    ck_assert_str_eq(gen_option_group_parsing(c, f),
        "switch (PyTuple_GET_SIZE(args)) {{\n"
        "    case 1:\n"
        "        if (!PyArg_ParseTuple(args, \"O:addch\", &ch)) {{\n"
        "            goto exit;\n"
        "        }}\n"
        "        break;\n"
        "    case 2:\n"
        "        if (!PyArg_ParseTuple(args, \"Ol:addch\", &ch, &attr)) {{\n"
        "            goto exit;\n"
        "        }}\n"
        "        group_right_1 = 1;\n"
        "        break;\n"
        "    case 3:\n"
        "        if (!PyArg_ParseTuple(args, \"iiO:addch\", &y, &x, &ch)) {{\n"
        "            goto exit;\n"
        "        }}\n"
        "        group_left_1 = 1;\n"
        "        break;\n"
        "    case 4:\n"
        "        if (!PyArg_ParseTuple(args, \"iiOl:addch\", &y, &x, &ch, &attr)) {{\n"
        "            goto exit;\n"
        "        }}\n"
        "        group_right_1 = 1;\n"
        "        group_left_1 = 1;\n"
        "        break;\n"
        "    default:\n"
        "        PyErr_SetString(PyExc_TypeError, \"demo.window.addch requires 1 to 4 arguments\");\n"
        "        goto exit;\n"
        "}}");
}
END_TEST

START_TEST(render_requires_self)
{
    Function *f = new_function("demo.noself", FUNC_CALLABLE, NULL);
    const char *diag;
    f->nparameters = 0;
    diag = expect_failure(render, f);
    ck_assert_ptr_nonnull(diag);
    ck_assert_ptr_nonnull(strstr(diag, "No self parameter in 'demo.noself'!"));
}
END_TEST

START_TEST(too_many_varargs)
{
    Function *f = new_function("demo.va", FUNC_CALLABLE, NULL);
    const char *diag;
    add_param(f, "a", "object", PARAM_VAR_POSITIONAL, py_unspecified, 0);
    add_param(f, "b", "object", PARAM_VAR_POSITIONAL, py_unspecified, 0);
    diag = expect_failure(render, f);
    ck_assert_ptr_nonnull(diag);
    ck_assert_ptr_nonnull(strstr(diag, "Too many var args"));
}
END_TEST


/* ---- 3.13: the #includes of routed files, the keyword tuple's names ---- */

static void setup_3_13(void)
{
    ClinicOptions o = {0};
    o.dialect = &dialect_3_13;
    c = clinic_new("test.c", &o);
}

START_TEST(includes_header_sorted)
{
    static const char cond[] =
        "#if defined(Py_BUILD_CORE) && !defined(Py_BUILD_CORE_MODULE)";
    ck_assert_str_eq(gen_includes_header(c), "");
    gen_add_include(c, "pycore_modsupport.h", "_PyArg_UnpackKeywords()",
                    NULL);
    gen_add_include(c, "pycore_runtime.h", "_Py_ID()", cond);
    gen_add_include(c, "pycore_gc.h", "PyGC_Head", cond);
    /* the first reason stays */
    gen_add_include(c, "pycore_modsupport.h", "_PyArg_BadArgument()", NULL);
    gen_add_include(c, "pycore_abstract.h", "_PyNumber_Index()", NULL);
    ck_assert_str_eq(gen_includes_header(c),
        "\n"
        "#if defined(Py_BUILD_CORE) && !defined(Py_BUILD_CORE_MODULE)\n"
        "#  include \"pycore_gc.h\"          // PyGC_Head\n"
        "#  include \"pycore_runtime.h\"     // _Py_ID()\n"
        "#endif\n"
        "#include \"pycore_abstract.h\"      // _PyNumber_Index()\n"
        "#include \"pycore_modsupport.h\"    // _PyArg_UnpackKeywords()\n");
    /* an unconditional one replaces a conditional one */
    gen_add_include(c, "pycore_runtime.h", "_Py_ID()", NULL);
    ck_assert_ptr_nonnull(strstr(gen_includes_header(c),
        "#endif\n#include \"pycore_abstract.h\"      // _PyNumber_Index()\n"
        "#include \"pycore_modsupport.h\"    // _PyArg_UnpackKeywords()\n"
        "#include \"pycore_runtime.h\"       // _Py_ID()\n"));
}
END_TEST

/* 3.11 records them too, but prints none. */
START_TEST(includes_not_printed_by_3_11)
{
    gen_add_include(c, "pycore_modsupport.h", "_PyArg_UnpackKeywords()",
                    NULL);
    ck_assert_str_eq(gen_includes_header(c), "");
}
END_TEST

START_TEST(keyword_tuple_names)
{
    ck_assert_str_eq(gen_c_id(c, "a"), "_Py_LATIN1_CHR('a')");
    ck_assert_str_eq(gen_c_id(c, "_"), "_Py_LATIN1_CHR(95)");
    ck_assert_str_eq(gen_c_id(c, "key"), "&_Py_ID(key)");
}
END_TEST

static Suite *gen_suite(void)
{
    Suite *s = suite_create("gen");
    TCase *tc = tcase_create("pieces");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, permute_range);
    tcase_add_test(tc, permute_add_window);
    tcase_add_test(tc, permute_ludicrous);
    tcase_add_test(tc, permute_right_only);
    tcase_add_test(tc, permute_left_without_required_is_refused);
    tcase_add_test(tc, set_order_matches_cpython);
    tcase_add_test(tc, group_variable_names);
    tcase_add_test(tc, docstring_as_c_string);
    tcase_add_test(tc, docstring_non_ascii_warns);
    tcase_add_test(tc, display_names);
    tcase_add_test(tc, methoddef_flags);
    tcase_add_test(tc, includes_not_printed_by_3_11);
    suite_add_tcase(s, tc);

    tc = tcase_create("3.13");
    tcase_add_checked_fixture(tc, setup_3_13, teardown);
    tcase_add_test(tc, includes_header_sorted);
    tcase_add_test(tc, keyword_tuple_names);
    suite_add_tcase(s, tc);

    tc = tcase_create("conventions");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, noargs_template);
    tcase_add_test(tc, meth_o_object_calls_impl_directly);
    tcase_add_test(tc, meth_o_renames_arg);
    tcase_add_test(tc, positional_only_skip_optional);
    tcase_add_test(tc, keywords_noptargs);
    tcase_add_test(tc, init_without_arguments_checks_both);
    tcase_add_test(tc, cpp_condition_and_ifndef_once);
    tcase_add_test(tc, render_returns_block_output);
    tcase_add_test(tc, render_wraps_long_impl);
    tcase_add_test(tc, groups_need_positional_only);
    tcase_add_test(tc, render_requires_self);
    tcase_add_test(tc, too_many_varargs);
    tcase_add_test(tc, option_group_switch);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_run(gen_suite());
}
