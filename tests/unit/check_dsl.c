/*
 * check_dsl.c — the DSL parser (dsl*.c): declarations become the model
 * clinic.py builds, docstrings come out as format_docstring writes them,
 * and every rejected declaration fails with the reference's message at
 * the line of the problem.  Expected strings come from CPython 3.11's
 * clinic.py run on the same input (3.13's Tools/clinic for the 3.13
 * dialect's cases); the cases follow test_clinic.py's ClinicParserTest
 * with our own inputs.
 */
#include <check.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "scan/block.h"
#include "drive/clinic.h"
#include "model/converters.h"
#include "parse/dsl_int.h"
#include "model/model.h"
#include "unit.h"

/* ---- harness ----------------------------------------------------------- */

/* The Clinic of the running test; several blocks may share it. */
static Clinic *clinic;

static void setup(void)
{
    clinic = clinic_new("t.c", NULL);
}

static void teardown(void)
{
    clinic_free(clinic);
    clinic = NULL;
}

static const char *last_error;

/* Parses body as the contents of one clinic block whose first body line
   is line 2 (line 1 holds the start marker).  NULL when it fails; the
   diagnostic is then in last_error. */
static Function *parse_block_text(const char *body)
{
    jmp_buf recover;
    Block *b = arena_new_of(clinic->arena, Block);
    b->input = arena_printf(clinic->arena, "%s\n", body);
    b->dsl_name = "clinic";
    b->line = 1;
    b->body_line = 2;
    last_error = NULL;
    sb_reset(&clinic->diagnostics);
    clinic->recover = &recover;
    if (setjmp(recover)) {
        clinic->recover = NULL;
        last_error = clinic->diagnostics.buf;
        return NULL;
    }
    Function *f = dsl_parse(clinic, b);
    clinic->recover = NULL;
    return f;
}

static Function *parse_ok(const char *body)
{
    Function *f = parse_block_text(body);
    ck_assert_msg(last_error == NULL, "unexpected error: %s", last_error);
    return f;
}

/* The diagnostic, "t.c:LINE: error: MESSAGE\n". */
static const char *parse_error(const char *body)
{
    Function *f = parse_block_text(body);
    ck_assert_msg(f == NULL && last_error, "expected an error for:\n%s", body);
    return last_error;
}

#define ck_assert_error(body, expected) \
    ck_assert_str_eq(parse_error(body), expected)

static Parameter *param(Function *f, const char *key)
{
    for (size_t i = 0; i < f->nparameters; i++)
        if (!strcmp(f->parameters[i]->key, key))
            return f->parameters[i];
    ck_abort_msg("no parameter %s", key);
    return NULL;
}

#define M "module m\n"
#define K "module m\nclass m.C \"CObject *\" \"&C_Type\"\n"

/* ---- declarations ------------------------------------------------------ */

START_TEST(test_trivial)
{
    Function *f = parse_ok("module os\nos.access");
    ck_assert_str_eq(f->name, "access");
    ck_assert_str_eq(f->full_name, "os.access");
    ck_assert_str_eq(f->module->name, "os");
    ck_assert_ptr_null(f->cls);
    ck_assert_ptr_null(f->c_basename);
    ck_assert_int_eq(f->kind, FUNC_CALLABLE);
    ck_assert_int_eq(f->line, 3);
    /* the implicit self */
    ck_assert_uint_eq(f->nparameters, 1);
    ck_assert_str_eq(f->parameters[0]->name, "module");
    ck_assert(f->parameters[0]->converter->cls->is_self);
    ck_assert_int_eq(f->parameters[0]->kind, PARAM_POSITIONAL_ONLY);
    ck_assert_str_eq(f->return_converter->cls->class_name,
                     "CReturnConverter");
    ck_assert_uint_eq(clinic->nfunctions, 1);
    ck_assert_ptr_eq(clinic->functions[0], f);
}
END_TEST

START_TEST(test_ignore_line)
{
    Function *f = parse_ok("#\nmodule os\n   # a comment\nos.access");
    ck_assert_str_eq(f->name, "access");
}
END_TEST

START_TEST(test_param)
{
    Function *f = parse_ok("module os\nos.access\n   path: int");
    ck_assert_uint_eq(f->nparameters, 2);
    Parameter *p = param(f, "path");
    ck_assert_str_eq(p->name, "path");
    ck_assert_str_eq(p->converter->cls->class_name, "int_converter");
    ck_assert_int_eq(p->kind, PARAM_POSITIONAL_OR_KEYWORD);
    ck_assert_int_eq(p->default_value.kind, PY_UNSPECIFIED);
    ck_assert_ptr_eq(p->function, f);
}
END_TEST

START_TEST(test_param_default)
{
    Function *f = parse_ok("module os\nos.access\n"
                           "    follow_symlinks: bool = True");
    Parameter *p = param(f, "follow_symlinks");
    ck_assert_int_eq(p->default_value.kind, PY_BOOL);
    ck_assert(p->default_value.b);
    /* bool_converter turns the derived "Py_True" into "1" */
    ck_assert_str_eq(p->converter->c_default, "1");
    ck_assert_str_eq(p->converter->py_default, "True");
}
END_TEST

START_TEST(test_param_with_continuations)
{
    Function *f = parse_ok("module os\nos.access\n"
                           "    follow_symlinks: \\\n   bool \\\n   =\\\n"
                           "    True");
    Parameter *p = param(f, "follow_symlinks");
    ck_assert_int_eq(p->default_value.kind, PY_BOOL);
    ck_assert(p->default_value.b);
}
END_TEST

START_TEST(test_param_default_expression)
{
    Function *f = parse_ok("module os\nos.access\n"
                           "    follow_symlinks: int(c_default='MAXSIZE') = "
                           "sys.maxsize");
    Parameter *p = param(f, "follow_symlinks");
    ck_assert_str_eq(p->converter->c_default, "MAXSIZE");
    ck_assert_str_eq(p->converter->py_default, "sys.maxsize");
    ck_assert_int_ne(p->default_value.kind, PY_UNSPECIFIED);

    ck_assert_error("module os\nos.access\n"
                    "    follow_symlinks: int = sys.maxsize",
                    "t.c:4: error: When you specify a named constant "
                    "('sys.maxsize') as your default value,\n"
                    "you MUST specify a valid c_default.\n");
}
END_TEST

START_TEST(test_param_no_docstring)
{
    Function *f = parse_ok("\nmodule os\nos.access\n"
                           "    follow_symlinks: bool = True\n"
                           "    something_else: str = ''");
    ck_assert_uint_eq(f->nparameters, 3);
    Parameter *p = param(f, "something_else");
    ck_assert_str_eq(p->converter->cls->class_name, "str_converter");
    ck_assert_str_eq(p->converter->c_default, "\"\"");
    ck_assert_str_eq(p->converter->py_default, "''");
}
END_TEST

START_TEST(test_default_values)
{
    Function *f = parse_ok(M "m.f\n  a: int = -1\n  b: double = 1.5\n"
                           "  c: object = None\n  d: object = NULL\n"
                           "  e: Py_ssize_t(c_default=\"PY_SSIZE_T_MAX\") = "
                           "sys.maxsize\n  f: int(py_default=\"<x>\") = 0\n"
                           "  g: str = \"it's\"\n  h: object(c_default=\"X\") "
                           "= FOO\n  i: int(c_default=\"1+1\") = 1 + 1\n  /\n"
                           "\nDefaults.");
    ck_assert_str_eq(param(f, "a")->converter->c_default, "-1");
    ck_assert_str_eq(param(f, "b")->converter->c_default, "1.5");
    ck_assert_str_eq(param(f, "c")->converter->c_default, "Py_None");
    ck_assert_str_eq(param(f, "d")->converter->c_default, "NULL");
    ck_assert_int_eq(param(f, "d")->default_value.kind, PY_NULL);
    ck_assert_str_eq(param(f, "d")->converter->py_default,
                     "<unrepresentable>");
    ck_assert_str_eq(param(f, "f")->converter->py_default, "<x>");
    ck_assert_str_eq(param(f, "g")->converter->c_default, "\"it's\"");
    ck_assert_str_eq(param(f, "h")->converter->py_default, "FOO");
    ck_assert_int_eq(param(f, "h")->default_value.kind, PY_UNKNOWN);
    ck_assert_str_eq(param(f, "i")->converter->py_default, "1 + 1");
    ck_assert_int_eq(param(f, "i")->default_value.kind, PY_UNKNOWN);
    ck_assert_str_eq(f->docstring,
                     "f($module, a=-1, b=1.5, c=None, d=<unrepresentable>, "
                     "e=sys.maxsize,\n  f=<x>, g=\"it's\", h=FOO, i=1 + 1, /)"
                     "\n--\n\nDefaults.");
}
END_TEST

START_TEST(test_function_docstring)
{
    Function *f = parse_ok("\nmodule os\nos.stat as os_stat_fn\n\n"
                           "   path: str\n       Path to be examined\n\n"
                           "Perform a stat system call on the given path.");
    ck_assert_str_eq(f->docstring,
                     "stat($module, /, path)\n--\n\n"
                     "Perform a stat system call on the given path.\n\n"
                     "  path\n    Path to be examined");
    ck_assert_str_eq(param(f, "path")->docstring, "Path to be examined");
}
END_TEST

START_TEST(test_explicit_parameters_in_docstring)
{
    Function *f = parse_ok("\nmodule foo\nfoo.bar\n  x: int\n"
                           "     Documentation for x.\n  y: int\n\n"
                           "This is the documentation for foo.\n\n"
                           "Okay, we're done here.\n");
    ck_assert_str_eq(f->docstring,
                     "bar($module, /, x, y)\n--\n\n"
                     "This is the documentation for foo.\n\n"
                     "  x\n    Documentation for x.\n\n"
                     "Okay, we're done here.");
}
END_TEST

START_TEST(test_parameters_marker_indented)
{
    Function *f = parse_ok(M "m.f\n  a: int\n      Line one.\n\n"
                           "      Line three, after a blank.\n  b: int\n"
                           "      B doc.\n\nSummary.\n\n  {parameters}\n\n"
                           "Tail.");
    ck_assert_str_eq(f->docstring,
                     "f($module, /, a, b)\n--\n\nSummary.\n\n"
                     "    a\n      Line one.\n\n"
                     "      Line three, after a blank.\n"
                     "    b\n      B doc.\n\n\nTail.");
}
END_TEST

START_TEST(test_special_character_in_parameter_column)
{
    Function *f = parse_ok("\nmodule os\nos.stat\n    path: str\n"
                           "This/used to break Clinic!\n");
    ck_assert_str_eq(f->docstring,
                     "stat($module, /, path)\n--\n\nThis/used to break "
                     "Clinic!");
}
END_TEST

START_TEST(test_c_name_and_return_converter)
{
    Function *f = parse_ok("module os\nos.stat as os_stat_fn -> int");
    ck_assert_str_eq(f->c_basename, "os_stat_fn");
    ck_assert_str_eq(f->return_converter->cls->class_name,
                     "int_return_converter");
    ck_assert_str_eq(f->return_converter->type, "int");
}
END_TEST

START_TEST(test_star)
{
    Function *f = parse_ok("module os\nos.access\n    *\n"
                           "    follow_symlinks: bool = True");
    Parameter *p = param(f, "follow_symlinks");
    ck_assert_int_eq(p->kind, PARAM_KEYWORD_ONLY);
    ck_assert_int_eq(p->group, 0);
}
END_TEST

START_TEST(test_group)
{
    Function *f = parse_ok("module window\nwindow.border\n [\n ls : int\n ]\n"
                           " /\n");
    Parameter *p = param(f, "ls");
    ck_assert_int_eq(p->group, 1);
    ck_assert(f->docstring_only);
}
END_TEST

START_TEST(test_left_group)
{
    Function *f = parse_ok("\nmodule curses\ncurses.addch\n   [\n   y: int\n"
                           "     Y-coordinate.\n   x: int\n     X-coordinate.\n"
                           "   ]\n   ch: char\n     Character to add.\n   [\n"
                           "   attr: long\n     Attributes for the character.\n"
                           "   ]\n   /\n");
    static const struct { const char *name; int group; } expect[] = {
        {"y", -1}, {"x", -1}, {"ch", 0}, {"attr", 1},
    };
    for (size_t i = 0; i < 4; i++) {
        Parameter *p = param(f, expect[i].name);
        ck_assert_int_eq(p->group, expect[i].group);
        ck_assert_int_eq(p->kind, PARAM_POSITIONAL_ONLY);
    }
    ck_assert_str_eq(f->docstring,
                     "addch([y, x,] ch, [attr])\n\n\n"
                     "  y\n    Y-coordinate.\n  x\n    X-coordinate.\n"
                     "  ch\n    Character to add.\n"
                     "  attr\n    Attributes for the character.");
}
END_TEST

START_TEST(test_nested_groups)
{
    Function *f = parse_ok(
        "\nmodule curses\ncurses.imaginary\n   [\n   [\n   y1: int\n"
        "     Y-coordinate.\n   y2: int\n     Y-coordinate.\n   ]\n"
        "   x1: int\n     X-coordinate.\n   x2: int\n     X-coordinate.\n"
        "   ]\n   ch: char\n     Character to add.\n   [\n   attr1: long\n"
        "     Attributes for the character.\n   attr2: long\n"
        "     Attributes for the character.\n   attr3: long\n"
        "     Attributes for the character.\n   [\n   attr4: long\n"
        "     Attributes for the character.\n   attr5: long\n"
        "     Attributes for the character.\n   attr6: long\n"
        "     Attributes for the character.\n   ]\n   ]\n   /\n");
    static const struct { const char *name; int group; } expect[] = {
        {"y1", -2}, {"y2", -2}, {"x1", -1}, {"x2", -1}, {"ch", 0},
        {"attr1", 1}, {"attr2", 1}, {"attr3", 1},
        {"attr4", 2}, {"attr5", 2}, {"attr6", 2},
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        Parameter *p = param(f, expect[i].name);
        ck_assert_int_eq(p->group, expect[i].group);
        ck_assert_int_eq(p->kind, PARAM_POSITIONAL_ONLY);
    }
    ck_assert(text_startswith(
        f->docstring,
        "imaginary([[y1, y2,] x1, x2,] ch, [attr1, attr2, attr3, [attr4, "
        "attr5,\n          attr6]])\n\n\n  y1\n    Y-coordinate.\n"));
    ck_assert(text_endswith(f->docstring,
                            "  attr6\n    Attributes for the character."));
}
END_TEST

START_TEST(test_no_parameters)
{
    Function *f = parse_ok("\nmodule foo\nfoo.bar\n\nDocstring\n\n");
    ck_assert_str_eq(f->docstring, "bar($module, /)\n--\n\nDocstring");
    ck_assert_uint_eq(f->nparameters, 1);
}
END_TEST

START_TEST(test_init_with_no_parameters)
{
    Function *f = parse_ok("\nmodule foo\nclass foo.Bar \"unused\" "
                           "\"notneeded\"\nfoo.Bar.__init__\n\nDocstring\n\n");
    ck_assert_str_eq(f->docstring, "Bar()\n--\n\nDocstring");
    ck_assert_uint_eq(f->nparameters, 1);
    ck_assert_int_eq(f->kind, FUNC_METHOD_INIT);
    ck_assert_str_eq(f->return_converter->cls->name, "init");
    ck_assert_str_eq(f->cls->name, "Bar");
    ck_assert_str_eq(f->cls->typedef_, "unused");
    ck_assert_str_eq(f->cls->type_object, "notneeded");
}
END_TEST

START_TEST(test_method_kinds)
{
    Function *f = parse_ok(K "@staticmethod\nm.C.s\n  a: int\n  /\n\nStatic.");
    ck_assert_int_eq(f->kind, FUNC_STATIC_METHOD);
    ck_assert_str_eq(f->parameters[0]->name, "null");
    ck_assert_str_eq(f->docstring, "s(a, /)\n--\n\nStatic.");

    f = parse_ok("@classmethod\nm.C.__new__\n  a: int\n  b: int = 0\n\nNew.");
    ck_assert_int_eq(f->kind, FUNC_METHOD_NEW);
    ck_assert_str_eq(f->parameters[0]->name, "type");
    ck_assert_str_eq(f->docstring, "C(a, b=0)\n--\n\nNew.");

    f = parse_ok("m.C.__init__\n  a: int\n  *\n  b: int = 0\n\nInit.");
    ck_assert_str_eq(f->docstring, "C(a, *, b=0)\n--\n\nInit.");

    /* no docstring for __new__ / __init__: none at all */
    f = parse_ok("m.C.__init__\n  a: int\n");
    ck_assert_str_eq(f->docstring, "");

    f = parse_ok("@coexist\nm.C.__contains__\n  key: object\n  /\n\nC.");
    ck_assert(f->coexist);
    ck_assert_str_eq(f->parameters[0]->name, "self");
    ck_assert_str_eq(f->parameters[0]->converter->self_type, "CObject *");
    ck_assert_str_eq(f->docstring, "__contains__($self, key, /)\n--\n\nC.");
}
END_TEST

START_TEST(test_self_and_defining_class)
{
    Function *f = parse_ok(M "m.f\n  self: self(type=\"Foo *\")\n"
                           "  cls: defining_class\n  a as b: int\n  /\n\n"
                           "Self.");
    ck_assert_uint_eq(f->nparameters, 3);
    ck_assert_str_eq(f->parameters[0]->key, "self");
    ck_assert_int_eq(f->parameters[0]->kind, PARAM_POSITIONAL_ONLY);
    ck_assert(f->parameters[1]->converter->cls->is_defining_class);
    Parameter *b = param(f, "a_as_b");
    ck_assert_str_eq(b->name, "a");
    ck_assert_str_eq(b->converter->name, "b");
    ck_assert_str_eq(b->converter->py_name, "a");
    ck_assert_str_eq(f->docstring, "f($module, a, /)\n--\n\nSelf.");
}
END_TEST

START_TEST(test_vararg_and_wrapping)
{
    Function *f = parse_ok(M "m.f\n  first_argument_with_long_name: int\n"
                           "  second_argument_with_long_name: int\n"
                           "  *args: object\n  *\n"
                           "  third_argument: object = None\n"
                           "  keyword_only_argument_number_one: int = 0\n\n"
                           "Wrapping.");
    Parameter *args = param(f, "args");
    ck_assert_int_eq(args->kind, PARAM_VAR_POSITIONAL);
    ck_assert_int_eq(args->default_value.kind, PY_NULL);
    ck_assert_str_eq(args->converter->c_default, "NULL");
    ck_assert_str_eq(f->docstring,
                     "f($module, /, first_argument_with_long_name,\n"
                     "  second_argument_with_long_name, *args, *, "
                     "third_argument=None,\n"
                     "  keyword_only_argument_number_one=0)\n--\n\n"
                     "Wrapping.");
}
END_TEST

START_TEST(test_slash_after_defaults)
{
    Function *f = parse_ok(M "m.f\n  a: int\n  b: int = 1\n  /\n  c: int = 2"
                           "\n\nMixed.");
    ck_assert_int_eq(param(f, "b")->kind, PARAM_POSITIONAL_ONLY);
    ck_assert_int_eq(param(f, "c")->kind, PARAM_POSITIONAL_OR_KEYWORD);
    ck_assert_str_eq(f->docstring,
                     "f($module, a, b=1, /, c=2)\n--\n\nMixed.");
}
END_TEST

START_TEST(test_function_not_at_column_0)
{
    Function *f = parse_ok("\n  module foo\n  foo.bar\n    x: int\n"
                           "      Nested docstring here, goeth.\n    *\n"
                           "    y: str\n  Not at column 0!\n");
    ck_assert_str_eq(f->docstring,
                     "bar($module, /, x, *, y)\n--\n\nNot at column 0!\n\n"
                     "  x\n    Nested docstring here, goeth.");
}
END_TEST

START_TEST(test_legacy_converters)
{
    Function *f = parse_ok("module os\nos.access\n   path: \"s\"");
    ck_assert_str_eq(param(f, "path")->converter->cls->class_name,
                     "str_converter");
}
END_TEST

START_TEST(test_docstring_blank_summary)
{
    /* only parameter docs: the empty summary line stays */
    Function *f = parse_ok(M "m.f\n  a: int\n    No summary issues.\n\n\n");
    ck_assert_str_eq(f->docstring,
                     "f($module, /, a)\n--\n\n\n\n  a\n    No summary "
                     "issues.");
}
END_TEST

START_TEST(test_cloning)
{
    parse_ok(K "m.C.f as cf\n  a: int\n    A doc.\n  b: int = 2\n  /\n\n"
             "Original.");
    Function *orig = clinic->functions[0];
    Function *g = parse_ok("m.C.g as cg = m.C.f\n\nClone.");
    ck_assert_str_eq(g->docstring,
                     "g($self, a, b=2, /)\n--\n\nClone.\n\n  a\n    A doc.");
    ck_assert_str_eq(g->full_name, "m.C.g");
    ck_assert_str_eq(g->c_basename, "cg");
    ck_assert_str_eq(g->cls->name, "C");
    ck_assert_ptr_eq(g->return_converter, orig->return_converter);
    for (size_t i = 0; i < g->nparameters; i++) {
        ck_assert_ptr_eq(g->parameters[i]->function, g);
        ck_assert_ptr_eq(g->parameters[i]->converter->function, g);
        ck_assert_ptr_ne(g->parameters[i], orig->parameters[i]);
    }
    Function *h = parse_ok("m.h = m.C.f\n\nClone 2.");
    ck_assert_str_eq(h->docstring,
                     "h($module, a, b=2, /)\n--\n\nClone 2.\n\n  a\n"
                     "    A doc.");
    ck_assert_ptr_null(h->cls);
    ck_assert_ptr_null(h->c_basename);
    ck_assert_uint_eq(clinic->nfunctions, 3);
}
END_TEST

START_TEST(test_module_redeclared)
{
    /* clinic.py files modules under their full name and lets a second
       'module' replace the first, classes and all */
    ck_assert_error(K "module m\nm.C.f",
                    "t.c:5: error: Parent class or module m.C does not "
                    "exist.\n");
    /* a dotted module is filed under its dotted name */
    ck_assert_error("module a\nmodule a.b\na.b.f",
                    "t.c:4: error: Parent class or module a.b does not "
                    "exist.\n");
}
END_TEST

START_TEST(test_nested_classes)
{
    Function *f = parse_ok(K "class m.C.D \"DObject *\" \"&D_Type\"\n"
                           "m.C.D.f\n\nDoc.");
    ck_assert_str_eq(f->cls->name, "D");
    ck_assert_str_eq(f->cls->cls->name, "C");
    ck_assert_str_eq(f->cls->module->name, "m");
    ck_assert_str_eq(f->parameters[0]->converter->self_type, "DObject *");
}
END_TEST

START_TEST(test_top_level_function)
{
    Function *f = parse_ok("f\n  a: int\n\nDoc.");
    ck_assert_ptr_eq(f->module, clinic->root);
    ck_assert_str_eq(f->docstring, "f($module, /, a)\n--\n\nDoc.");
}
END_TEST

/* ---- errors (test_clinic.py's cases and the rest of DSLParser's) ------- */

START_TEST(test_param_default_parameters_out_of_order)
{
    ck_assert_error("\nmodule os\nos.access\n    follow_symlinks: bool = True"
                    "\n    something_else: str",
                    "t.c:6: error: Can't have a parameter without a default "
                    "('something_else')\nafter a parameter with a default!\n");
}
END_TEST

START_TEST(test_disallowed_grouping)
{
    ck_assert_error("\nmodule foo\nfoo.two_top_groups_on_left\n    [\n"
                    "    group1 : int\n    ]\n    [\n    group2 : int\n    ]\n"
                    "    param: int\n",
                    "t.c:8: error: Function two_top_groups_on_left has an "
                    "unsupported group configuration. (Unexpected state "
                    "2.b)\n");
    ck_assert_error(M "m.f\n    param: int\n    [\n    group1 : int\n    ]\n"
                    "    [\n    group2 : int\n    ]",
                    "t.c:8: error: Function f has an unsupported group "
                    "configuration. (Unexpected state 6.b)\n");
    ck_assert_error(M "m.f\n    param: int\n    [\n    [\n    group1 : int\n"
                    "    ]\n    group2 : int\n    ]",
                    "t.c:9: error: Function f has an unsupported group "
                    "configuration. (Unexpected state 6.a)\n");
    ck_assert_error(M "m.f\n    [\n    group2 : int\n    [\n    group1 : int\n"
                    "    ]\n    ]\n    param: int",
                    "t.c:6: error: Function f has an unsupported group "
                    "configuration. (Unexpected state 2.b)\n");
    ck_assert_error(M "m.f\n    [\n    [\n    ]\n    group2 : int\n    ]\n"
                    "    param: int",
                    "t.c:6: error: Function f has an empty group.\n"
                    "All groups must contain at least one parameter.\n");
    ck_assert_error(M "m.f\n    param: int\n    [\n    [\n    ]\n"
                    "    group2 : int\n    ]",
                    "t.c:7: error: Function f has an empty group.\n"
                    "All groups must contain at least one parameter.\n");
    ck_assert_error(M "m.f\n    a: int = 1\n    [\n    b: int\n    ]",
                    "t.c:5: error: Function f has an unsupported group "
                    "configuration. (Unexpected state 4.b)\n");
    ck_assert_error(M "m.f\n    [\n    a: int\n    /",
                    "t.c:6: error: Function f has an unsupported group "
                    "configuration. (Unexpected state 2.d)\n");
    ck_assert_error(M "m.f\n    a: int\n    ]",
                    "t.c:5: error: Function f has a ] without a matching "
                    "[.\n");
    ck_assert_error(M "m.f\n    [\n    a: int\n\nDocstring.",
                    "t.c:7: error: Function f has a ] without a matching "
                    "[.\n");
}
END_TEST

START_TEST(test_illegal_declaration_lines)
{
    ck_assert_error("\nmodule foo\nfoo.bar => int\n    /\n",
                    "t.c:4: error: Illegal function name: foo.bar => int\n");
    ck_assert_error("\nmodule foo\nfoo.bar as 935\n    /\n",
                    "t.c:4: error: Illegal C basename: 935\n");
    ck_assert_error(M "m.f -> int(",
                    "t.c:3: error: Badly-formed annotation for m.f:  int(\n");
    ck_assert_error(M "m.f -> 'i'",
                    "t.c:3: error: Legacy converter 'i' not allowed as a "
                    "return converter\n");
    ck_assert_error(M "m.f -> unicorn",
                    "t.c:3: error: No available return converter called "
                    "'unicorn'\n");
    ck_assert_error(K "m.C.__add__",
                    "t.c:4: error: __add__ is a special method and cannot be "
                    "converted to Argument Clinic!  (Yet.)\n");
    ck_assert_error(K "m.C.__new__",
                    "t.c:4: error: __new__ must be a class method!\n");
    ck_assert_error(M "m.__init__",
                    "t.c:3: error: __init__ must be a normal method, not a "
                    "class or static method!\n");
    ck_assert_error(M "m.X.f",
                    "t.c:3: error: Parent class or module m.X does not "
                    "exist.\n");
}
END_TEST

START_TEST(test_directive_errors)
{
    ck_assert_error("module",
                    "t.c:2: error: DSLParser.directive_module() missing 1 "
                    "required positional argument: 'name'\n");
    ck_assert_error("module a b",
                    "t.c:2: error: DSLParser.directive_module() takes 2 "
                    "positional arguments but 3 were given\n");
    ck_assert_error("class",
                    "t.c:2: error: DSLParser.directive_class() missing 3 "
                    "required positional arguments: 'name', 'typedef', and "
                    "'type_object'\n");
    ck_assert_error(M "class m.C",
                    "t.c:3: error: DSLParser.directive_class() missing 2 "
                    "required positional arguments: 'typedef' and "
                    "'type_object'\n");
    ck_assert_error(M "class m.C x",
                    "t.c:3: error: DSLParser.directive_class() missing 1 "
                    "required positional argument: 'type_object'\n");
    ck_assert_error(M "class m.C a b c",
                    "t.c:3: error: DSLParser.directive_class() takes 4 "
                    "positional arguments but 5 were given\n");
    ck_assert_error("@classmethod x",
                    "t.c:2: error: DSLParser.at_classmethod() takes 1 "
                    "positional argument but 2 were given\n");
    ck_assert_error(K "class m.C \"T\" \"t\"",
                    "t.c:4: error: Already defined class 'C'!\n");
    ck_assert_error("class C \"T\" \"t\"\nmodule C",
                    "t.c:3: error: Already defined module 'C'!\n");
    ck_assert_error(K "module m.C.x",
                    "t.c:4: error: Can't nest a module inside a class!\n");
    ck_assert_error("@classmethod\n@staticmethod\nf",
                    "t.c:3: error: Can't set @staticmethod, function is not "
                    "a normal callable\n");
    ck_assert_error("@staticmethod\n@classmethod\nf",
                    "t.c:3: error: Can't set @classmethod, function is not "
                    "a normal callable\n");
    ck_assert_error("@coexist\n@coexist\nf",
                    "t.c:3: error: Called @coexist twice!\n");
    ck_assert_error("module 'm",
                    "t.c:2: error: No closing quotation\n");
}
END_TEST

START_TEST(test_clone_errors)
{
    ck_assert_error(K "m.C.g = m.C.f",
                    "t.c:4: error: Couldn't find existing function "
                    "'m.C.f'!\n");
    parse_ok(M "m.f\n\nDoc.");
    ck_assert_error("@classmethod\nm.g = m.f",
                    "t.c:3: error: 'kind' of function and cloned function "
                    "don't match!  (@classmethod/@staticmethod/@coexist)\n");
}
END_TEST

START_TEST(test_parameter_errors)
{
    ck_assert_error(M "m.f\n    a",
                    "t.c:4: error: Annotations must be either a name, a "
                    "function call, or a string.\n");
    ck_assert_error(M "m.f\n    a: int)",
                    "t.c:4: error: Function f has an invalid parameter "
                    "declaration:\n\ta: int)\n");
    ck_assert_error(M "m.f\n    a: int, b: int",
                    "t.c:4: error: Function f has an invalid parameter "
                    "declaration (comma?):\n\ta: int, b: int\n");
    ck_assert_error(M "m.f\n    a: int(x=1) = 2 = 3",
                    "t.c:4: error: Function f has an invalid parameter "
                    "declaration (default value?):\n\ta: int(x=1) = 2 = 3\n");
    ck_assert_error(M "m.f\n    **kw: object",
                    "t.c:4: error: Function f has an invalid parameter "
                    "declaration (**kwargs?):\n\t**kw: object\n");
    ck_assert_error(M "m.f\n    *args: object = 1",
                    "t.c:4: error: Vararg can't take a default value!\n");
    ck_assert_error(M "m.f\n    a: int(py_default='1')",
                    "t.c:4: error: You can't specify py_default without "
                    "specifying a default value!\n");
    ck_assert_error(M "m.f\n    a: unicorn",
                    "t.c:4: error: unicorn is not a valid converter\n"
                    "t.c:4: note: did you mean 'unicode'?\n");
    ck_assert_error(M "m.f\n    a: 'Q'",
                    "t.c:4: error: Q is not a valid legacy converter\n");
    ck_assert_error(M "m.f\n    a: int\n    a: int",
                    "t.c:5: error: You can't have two parameters named "
                    "'a'!\n");
    ck_assert_error(M "m.f\n    module: int",
                    "t.c:4: error: Parameter 'module' requires a custom C "
                    "name\n");
    parse_ok(M "m.f\n    module as mod: int\n\nDoc.");
}
END_TEST

/* Every form a converter call can take: positional arguments are never
   looked at (clinic.py reads only the keywords), a "**mapping" fails
   where 3.11's clinic.py calls the converter, a repeated keyword is
   Python's SyntaxError. */
START_TEST(test_converter_call_forms)
{
    static const char *const ignored[] = {
        "a: int(*[])", "a: int(*())", "a: int(1, 2)", "a: int(undefined)",
        "a: int(*x)", "a: int(accept={int}, *[])",
    };
    for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++) {
        Function *f = parse_ok(arena_printf(clinic->arena, M "m.f%zu\n    %s",
                                            i, ignored[i]));
        ck_assert_str_eq(param(f, "a")->converter->cls->name, "int");
    }
    static const char *const splats[] = {
        "a: int(**{})", "a: int(bitwise=True, **{})", "a: int(**dict(a=1))",
        "a: int(**{'a': 1})", "a: int(**{1: 2})", "a: int(**{}, **{})",
        "a: int(**{}, accept={int})",
    };
    for (size_t i = 0; i < sizeof splats / sizeof *splats; i++)
        ck_assert_error(arena_printf(clinic->arena, M "m.f\n    %s",
                                     splats[i]),
                        "t.c:4: error: Exception raised during parsing:\n"
                        "TypeError: keywords must be strings\n");
    ck_assert_error(M "m.f -> int(**{})\n    a: int",
                    "t.c:3: error: Exception raised during parsing:\n"
                    "TypeError: keywords must be strings\n");
    /* what clinic.py checks first still comes first */
    ck_assert_error(M "m.f\n    a: int(**x)",
                    "t.c:4: error: Exception raised during parsing:\n"
                    "NameError: name 'x' is not defined\n");
    ck_assert_error(M "m.f\n    a: nosuch(**{})",
                    "t.c:4: error: nosuch is not a valid converter\n");
    ck_assert_error(M "m.f\n    a: int(py_default='1', **{})",
                    "t.c:4: error: You can't specify py_default without "
                    "specifying a default value!\n");
    ck_assert_error(M "m.f\n    a: 'i'(**{})",
                    "t.c:4: error: Exception raised during parsing:\n"
                    "AttributeError: 'Constant' object has no attribute "
                    "'id'\n");
    ck_assert_error(M "m.f -> nosuch(**{})\n    a: int",
                    "t.c:3: error: No available return converter called "
                    "'nosuch'\n");

    ck_assert_error(M "m.f\n    a: unsigned_int(bitwise=True, bitwise=False)",
                    "t.c:4: error: Exception raised during parsing:\n"
                    "SyntaxError: keyword argument repeated: bitwise\n");
    ck_assert_error(M "m.f -> int(py_default='a', py_default='b')\n    a: int",
                    "t.c:3: error: Exception raised during parsing:\n"
                    "SyntaxError: keyword argument repeated: py_default\n");
    /* before any value is evaluated, as Python compiles before it runs */
    ck_assert_error(M "m.f\n    a: int(x=undefined, x=1)",
                    "t.c:4: error: Exception raised during parsing:\n"
                    "SyntaxError: keyword argument repeated: x\n");
    /* each value is compiled: a repeat or a yield anywhere in it */
    ck_assert_error(M "m.f\n    a: int(c_default=dict(a=1, a=2)) = 1",
                    "t.c:4: error: Exception raised during parsing:\n"
                    "SyntaxError: keyword argument repeated: a\n");
    ck_assert_error(M "m.f\n    a: int(c_default=1 if 1 else (yield)) = 1",
                    "t.c:4: error: Exception raised during parsing:\n"
                    "SyntaxError: 'yield' outside function\n");
    /* a ** and a repeat of a named one: the repeat is the SyntaxError */
    ck_assert_error(M "m.f\n    a: int(**{}, x=1, **{}, x=2)",
                    "t.c:4: error: Exception raised during parsing:\n"
                    "SyntaxError: keyword argument repeated: x\n");
}
END_TEST

/* Converter arguments are computed by the file's interpreter: a str
   written into the C code is the one Python computes. */
START_TEST(test_converter_values)
{
    Function *f = parse_ok(M "m.f\n    a: int(c_default='0' * 1000001) = 1");
    const char *c_default = param(f, "a")->converter->c_default;
    ck_assert_uint_eq(strlen(c_default), 1000001);
    ck_assert(strspn(c_default, "0") == 1000001);
    f = parse_ok(M "m.g\n    a: object(subclass_of='&' + 'X' * 3 + '_Type')");
    ck_assert_str_eq(param(f, "a")->converter->subclass_of, "&XXX_Type");
    f = parse_ok(M "m.g\n    a: object(subclass_of='&%s_Type' % 'Y')");
    ck_assert_str_eq(param(f, "a")->converter->subclass_of, "&Y_Type");
    f = parse_ok(M "m.g\n    a: int(c_default=[x for x in 'ab'][0]) = 1");
    ck_assert_str_eq(param(f, "a")->converter->c_default, "a");
    /* what it does not run */
    ck_assert_error(M "m.f\n    a: str(encoding=open('x').read())",
                    "t.c:4: error: Exception raised during parsing:\n"
                    "RuntimeError: clinic does not run open()\n");
    ck_assert_error(M "m.f -> int(py_default=open('x'))\n    a: int",
                    "t.c:3: error: Exception raised during parsing:\n"
                    "RuntimeError: clinic does not run open()\n");
    ck_assert_error(M "m.f\n    a: object(subclass_of='x' * 2**40)",
                    "t.c:4: error: Exception raised during parsing:\n"
                    "MemoryError: string too long\n");
    ck_assert_error(M "m.f\n    a: int(c_default=10**5000) = 1",
                    "t.c:4: error: c_default must be a str, not int\n");
    ck_assert_error(M "m.f\n    a: int(py_default=(1,)) = 1",
                    "t.c:4: error: py_default must be a str, not tuple\n");
    ck_assert_error(M "m.f\n    a: object(type=len)",
                    "t.c:4: error: type must be a str, not "
                    "builtin_function_or_method\n");
    /* clinic.py's objects the interpreter does not model are stand-ins,
       never written out nor tested */
    ck_assert_error(M "m.f\n    a: int(c_default=clinic.name) = 1",
                    "t.c:4: error: cannot write out the value given for "
                    "c_default: clinic did not compute it\n"
                    "t.c:4: note: clinic's Python stands in for the objects "
                    "of clinic.py it does not model (clinic, its converters "
                    "dicts, state_parameter's locals)\n");
    ck_assert(strstr(parse_error(M "m.f\n    a: unsigned_int(bitwise=converters)"),
                     "error: cannot use the dict given for bitwise: clinic "
                     "did not compute it\n"));
}
END_TEST

START_TEST(test_default_errors)
{
    /* the default as written, not clinic.py's 'x = ' wrapper around it */
    ck_assert_error(M "m.f\n    a: int = 1 +",
                    "t.c:4: error: Syntax error: '1 +'\n"
                    "t.c:4: note: a default value is a Python expression (a "
                    "literal, NULL, or a name given with c_default=)\n");
    ck_assert_error(M "m.f\n    a: int = 09",
                    "t.c:4: error: Syntax error: '09'\n"
                    "t.c:4: note: a default value is a Python expression (a "
                    "literal, NULL, or a name given with c_default=)\n");
    ck_assert_error(M "m.f\n    a: int = -",
                    "t.c:4: error: Syntax error: '-'\n"
                    "t.c:4: note: a default value is a Python expression (a "
                    "literal, NULL, or a name given with c_default=)\n");
    /* did you mean */
    ck_assert_error(M "m.f\n    a: itn",
                    "t.c:4: error: itn is not a valid converter\n"
                    "t.c:4: note: did you mean 'int'?\n");
    ck_assert_error(M "m.f\n    a: bool = true",
                    "t.c:4: error: When you specify a named constant ('true') "
                    "as your default value,\nyou MUST specify a valid "
                    "c_default.\nt.c:4: note: did you mean 'True'?\n");
    ck_assert_error(M "m.f\n    a: object = null",
                    "t.c:4: error: When you specify a named constant ('null') "
                    "as your default value,\nyou MUST specify a valid "
                    "c_default.\nt.c:4: note: did you mean 'NULL'?\n");
    ck_assert_error(M "m.f\n    a: unsigned_int(bitwse=True)",
                    "t.c:4: error: Exception raised during parsing:\n"
                    "TypeError: unsigned_int_converter.converter_init() got an "
                    "unexpected keyword argument 'bitwse'\n"
                    "t.c:4: note: did you mean 'bitwise'?\n");
    ck_assert_error(M "m.f -> itn\n    a: int",
                    "t.c:3: error: No available return converter called "
                    "'itn'\nt.c:3: note: did you mean 'int'?\n");
    ck_assert_error(M "m.f\n    a: frobnicate",
                    "t.c:4: error: frobnicate is not a valid converter\n");
    ck_assert_error(M "m.f\n    a: int = f(1)",
                    "t.c:4: error: Unsupported expression as default value: "
                    "'f(1)'\n");
    ck_assert_error(M "m.f\n    a: object = ()",
                    "t.c:4: error: Unsupported expression as default value: "
                    "'()'\n");
    ck_assert_error(M "m.f\n    a: int = 1 + 2",
                    "t.c:4: error: When you specify an expression ('1 + 2') "
                    "as your default value,\nyou MUST specify a valid "
                    "c_default.BinOp(left=Constant(value=1), op=Add(), "
                    "right=Constant(value=2))\n");
    ck_assert_error(M "m.f\n    a: bool = not True",
                    "t.c:4: error: When you specify an expression "
                    "('not True') as your default value,\nyou MUST specify a "
                    "valid c_default.UnaryOp(op=Not(), "
                    "operand=Constant(value=True))\n");
    ck_assert_error(M "m.f\n    a: int = FOO",
                    "t.c:4: error: When you specify a named constant ('FOO') "
                    "as your default value,\nyou MUST specify a valid "
                    "c_default.\n");
    ck_assert_error(M "m.f\n    a: int(c_default='x') = unspecified",
                    "t.c:4: error: 'unspecified' is not a legal default "
                    "value!\n");
    ck_assert_error(M "m.f\n    a: int(c_default='x') = f().y",
                    "t.c:4: error: Unsupported default value 'f().y' (looked "
                    "like a Python constant)\n");
    ck_assert_error(M "m.f\n    a: int(c_default='x') = 1/0",
                    "t.c:4: error: Malformed expression given as default "
                    "value\n'1/0' caused ZeroDivisionError('division by "
                    "zero')\n");
}
END_TEST

START_TEST(test_self_placement_errors)
{
    ck_assert_error(M "m.f\n    a: int\n    self: self",
                    "t.c:5: error: A 'self' parameter, if specified, must be "
                    "the very first thing in the parameter block.\n");
    ck_assert_error(M "m.f\n    [\n    self: self\n    ]",
                    "t.c:5: error: A 'self' parameter cannot be marked "
                    "optional.\n");
    ck_assert_error(M "m.f\n    self: self = None",
                    "t.c:4: error: A 'self' parameter cannot be marked "
                    "optional.\n");
    ck_assert_error(K "m.C.f\n    a: int\n    cls: defining_class",
                    "t.c:6: error: A 'defining_class' parameter, if "
                    "specified, must either be the first thing in the "
                    "parameter block, or come just after 'self'.\n");
    ck_assert_error(K "m.C.f\n    cls: defining_class = None",
                    "t.c:5: error: A 'defining_class' parameter cannot be "
                    "marked optional.\n");
}
END_TEST

START_TEST(test_special_symbol_errors)
{
    ck_assert_error("\nmodule foo\nfoo.bar\n    *\n    *\n",
                    "t.c:6: error: Function bar uses '*' more than once.\n");
    ck_assert_error("\nmodule foo\nfoo.bar\n    *\n",
                    "t.c:5: error: Function bar specifies '*' without any "
                    "parameters afterwards.\n");
    ck_assert_error("\nmodule foo\nfoo.bar\n    *\nDocstring here.\n",
                    "t.c:5: error: Function bar specifies '*' without any "
                    "parameters afterwards.\n");
    ck_assert_error("\nmodule foo\nfoo.bar\n    this: int\n    *\n",
                    "t.c:6: error: Function bar specifies '*' without any "
                    "parameters afterwards.\n");
    ck_assert_error("\nmodule foo\nfoo.bar\n    this: int\n    *\n"
                    "Docstring.\n",
                    "t.c:6: error: Function bar specifies '*' without any "
                    "parameters afterwards.\n");
    ck_assert_error("\nmodule foo\nfoo.bar\n    /\n    /\n",
                    "t.c:5: error: Function bar has an unsupported group "
                    "configuration. (Unexpected state 0.d)\n");
    ck_assert_error(M "m.f\n    a: int\n    /\n    /",
                    "t.c:6: error: Function f uses '/' more than once.\n");
    ck_assert_error("\nmodule foo\nfoo.bar\n   x: int\n   y: int\n   *\n"
                    "   z: int\n   /\n",
                    "t.c:9: error: Function bar mixes keyword-only and "
                    "positional-only parameters, which is unsupported.\n");
    /* '/' leaves *args as it is; clinic.py then trips an assertion */
    ck_assert_error(M "m.f\n  *args: object\n  a: int\n  /\n\nDoc.",
                    "t.c:3: error: Exception raised during parsing:\n"
                    "AssertionError: positional-only parameter 'a' follows "
                    "one that is not\n");
}
END_TEST

START_TEST(test_docstring_errors)
{
    ck_assert_error(M "m.f\n\nFirst line\nsecond line",
                    "t.c:6: error: Docstring for m.f does not have a summary "
                    "line!\nEvery non-blank function docstring must start "
                    "with\na single line summary followed by an empty "
                    "line.\n");
    ck_assert_error(M "m.f\n    a: int\n\nSummary.\n\n{parameters}\n"
                    "{parameters}",
                    "t.c:6: error: You may not specify {parameters} more "
                    "than once in a docstring!\n");
    ck_assert_error(M "m.f\n    a: int\n\nSummary.\n\n{parameters} and more",
                    "t.c:6: error: Text found after {parameters} block "
                    "marker!  It must be on a line by itself.\n");
    ck_assert_error(M "m.f\n    a: int\n\nSummary.\n\nsee {parameters}",
                    "t.c:6: error: Non-whitespace characters found before "
                    "{parameters} block marker!  It must be on a line by "
                    "itself.\n");
}
END_TEST

START_TEST(test_indentation_errors)
{
    ck_assert_error(M "m.f\n\ta: int",
                    "t.c:4: error: Tab characters are illegal in the Clinic "
                    "DSL.\n\t'\\ta: int'\n");
    ck_assert_error("  module m\n  m.f\n      a: int\n    b: int",
                    "t.c:5: error: Illegal outdent.\n");
    ck_assert_error(M "m.f\n    a: int\n        Doc for a.\n      more",
                    "t.c:6: error: Illegal outdent.\n");
    ck_assert_error("  module m\n  m.f\n    a: int\n\n  Summary.\n\n more",
                    "t.c:8: error: Cannot dedent, line does not start with "
                    "the previous margin:\n");
}
END_TEST

/* ---- whole blocks through clinic_process ------------------------------- */

static const char *process(const char *text)
{
    Clinic *c = clinic_new("t.c", NULL);
    int rc = clinic_process(c, text, strlen(text));
    const char *r = rc ? arena_strdup(clinic->arena, c->diagnostics.buf)
                       : arena_strndup(clinic->arena, c->output,
                                       c->output_len);
    clinic_free(c);
    return r;
}

START_TEST(test_directives_in_block_output)
{
    /* printout's text comes before the function's rendering; shlex
       quoting joins words */
    const char *out = process(
        "/*[clinic input]\nprintout \"a  b\" c\\ d 'e\"f'\n"
        "[clinic start generated code]*/\n");
    ck_assert_str_eq(out,
                     "/*[clinic input]\nprintout \"a  b\" c\\ d 'e\"f'\n"
                     "[clinic start generated code]*/\na  b c d e\"f\n"
                     "/*[clinic end generated code: output=c9542790b32fa309 "
                     "input=3376a2735015dc41]*/\n");
}
END_TEST

START_TEST(test_preserve)
{
    const char *text =
        "/*[clinic input]\npreserve\n[clinic start generated code]*/\n"
        "kept\n/*[clinic end generated code: output=fdb98803262dfdeb "
        "input=a9049054013a1b77]*/\n";
    ck_assert_str_eq(process(text), text);
    ck_assert_str_eq(
        process("/*[clinic input]\npreserve\nmodule m\nm.f\n\nDoc.\n"
                "[clinic start generated code]*/\nkept\n"
                "/*[clinic end generated code: output=fdb98803262dfdeb "
                "input=a9049054013a1b77]*/\n"),
        "t.c:2: error: 'preserve' only works for blocks that don't produce "
        "any output!\n");
    /* dumping an empty buffer is output all the same (clinic.py checks
       its list of output pieces, not their text) */
    ck_assert_str_eq(
        process("/*[clinic input]\npreserve\ndump buffer\n"
                "[clinic start generated code]*/\nkept\n"
                "/*[clinic end generated code: output=fdb98803262dfdeb "
                "input=a9049054013a1b77]*/\n"),
        "t.c:2: error: 'preserve' only works for blocks that don't produce "
        "any output!\n");
}
END_TEST

/* ---- test_clinic.py's other classes, as far as they touch us ---------- */

/* ClinicLinearFormatTest: the {parameters} substitution of docstrings is
   linear_format. */
static const char *linear(const char *template, const char *value)
{
    StrMap map = {0};
    if (value)
        strmap_set(clinic->arena, &map, "name", value);
    return text_linear_format(clinic->arena, template, &map);
}

START_TEST(test_linear_format)
{
    ck_assert_str_eq(linear("", NULL), "");
    ck_assert_str_eq(linear("\n", NULL), "\n");
    ck_assert_str_eq(linear("\n  abc\n  ", NULL), "\n  abc\n  ");
    ck_assert_str_eq(linear("\n  abc\n  {name}\n  def\n  ", ""),
                     "\n  abc\n  def\n  ");
    ck_assert_str_eq(linear("\n  abc\n  {name}\n  def\n  ", "GARGLE"),
                     "\n  abc\n  GARGLE\n  def\n  ");
    ck_assert_str_eq(linear("\n  abc\n  {name}\n  def\n  ",
                            "bingle\nbungle\n"),
                     "\n  abc\n  bingle\n  bungle\n\n  def\n  ");
}
END_TEST

/* ClinicBlockParserTest / ClinicWholeFileTest: text without clinic
   blocks comes back as it was, even an old-style "[clinic]" marker at
   the very end without a newline. */
START_TEST(test_verbatim_round_trip)
{
    const char *t1 = "\n    verbatim text here\n    lah dee dah\n";
    ck_assert_str_eq(process(t1), t1);
    const char *t2 = "/*[clinic]\nfoo\n[clinic]*/";
    ck_assert_str_eq(process(t2), t2);
}
END_TEST


/* ---- the 3.13 dialect ---------------------------------------------------- */

static void setup_3_13(void)
{
    ClinicOptions o = {0};
    o.dialect = &dialect_3_13;
    clinic = clinic_new("t.c", &o);
}

static const char module_and_class[] =
    "module m\n"
    "class m.C \"CObject *\" \"&C_Type\"";

/* Declares the module and class in a block of their own. */
static void declare_module_and_class(void)
{
    ck_assert_ptr_null(parse_ok(module_and_class));
}

START_TEST(test_critical_section)
{
    declare_module_and_class();
    Function *f = parse_ok("@critical_section\nm.C.f");
    ck_assert(f->critical_section);
    ck_assert_uint_eq(f->ntarget_critical_section, 0);
    f = parse_ok("@critical_section a b\nm.g\n    a: object\n    b: object");
    ck_assert(f->critical_section);
    ck_assert_uint_eq(f->ntarget_critical_section, 2);
    ck_assert_str_eq(f->target_critical_section[0], "a");
    ck_assert_str_eq(f->target_critical_section[1], "b");
    ck_assert_str_eq(parse_error("@critical_section a b c\nm.h"),
                     "t.c:2: error: Up to 2 critical section variables are "
                     "supported\n");
}
END_TEST

START_TEST(test_getter_and_setter)
{
    declare_module_and_class();
    Function *f = parse_ok("@getter\nm.C.x\n\nThe x.");
    ck_assert_int_eq(f->kind, FUNC_GETTER);
    /* no signature: the docstring is the text alone */
    ck_assert_str_eq(f->docstring, "The x.");
    f = parse_ok("@setter\nm.C.x");
    ck_assert_int_eq(f->kind, FUNC_SETTER);
    ck_assert_str_eq(f->return_converter->type, "int");
    ck_assert_str_eq(parse_error("@getter\n@setter\nm.C.y"),
                     "t.c:3: error: Cannot apply both @getter and @setter to "
                     "the same function!\n");
    ck_assert_str_eq(parse_error("@getter\nm.y"),
                     "t.c:3: error: @getter and @setter must be methods\n");
    ck_assert_str_eq(parse_error("@setter\nm.C.y\n    v: object"),
                     "t.c:4: error: @setter methods cannot define "
                     "parameters\n");
}
END_TEST

START_TEST(test_text_signature)
{
    declare_module_and_class();
    Function *f = parse_ok("@text_signature \"($module, x)\"\nm.f\n"
                           "    x: object\n    /\n\nF.");
    ck_assert_str_eq(f->forced_text_signature, "($module, x)");
    ck_assert_str_eq(f->docstring, "f($module, x)\n--\n\nF.");
    ck_assert_str_eq(parse_error("@text_signature \"(x)\"\n"
                                 "@text_signature \"(y)\"\nm.g"),
                     "t.c:3: error: Called @text_signature twice!\n");
}
END_TEST

START_TEST(test_deprecation_markers)
{
    declare_module_and_class();
    Function *f = parse_ok("m.f\n"
                           "    a: object\n"
                           "    / [from 3.14]\n"
                           "    b: object\n"
                           "    * [from 3.15]\n"
                           "    c: object = None\n\nF.");
    ck_assert_int_eq(param(f, "a")->kind, PARAM_POSITIONAL_OR_KEYWORD);
    ck_assert_int_eq(param(f, "a")->deprecated_keyword.major, 3);
    ck_assert_int_eq(param(f, "a")->deprecated_keyword.minor, 14);
    ck_assert_int_eq(param(f, "b")->deprecated_keyword.major, 0);
    ck_assert_int_eq(param(f, "c")->deprecated_positional.minor, 15);
    ck_assert_str_eq(parse_error("m.g\n    a: object\n    * [from 3]\n"
                                 "    b: object"),
                     "t.c:4: error: Function 'g': expected format "
                     "'[from major.minor]' where 'major' and 'minor' are "
                     "integers; got '3'\n");
    ck_assert_str_eq(parse_error("m.h\n    a: object\n    *\n    b: object\n"
                                 "    /"),
                     "t.c:6: error: Function 'h': '/' must precede '*'\n");
}
END_TEST

START_TEST(test_unused_and_varargs)
{
    declare_module_and_class();
    Function *f = parse_ok("m.f\n    a: object(unused=True)\n"
                           "    *args: object\n    b: object = None");
    ck_assert(param(f, "a")->converter->unused);
    ck_assert_int_eq(param(f, "args")->kind, PARAM_VAR_POSITIONAL);
    /* after *args, keyword-only */
    ck_assert_int_eq(param(f, "b")->kind, PARAM_KEYWORD_ONLY);
}
END_TEST

/* 3.13's parse_converter refuses a "**mapping" where it stands, and a
   callee that is not a name. */
START_TEST(test_converter_call_forms_3_13)
{
    declare_module_and_class();
    ck_assert_error("m.f\n    a: int(**{})",
                    "t.c:3: error: Cannot use a kwarg splat in a "
                    "function-call annotation\n");
    ck_assert_error("m.f -> int(**{})\n    a: int",
                    "t.c:2: error: Cannot use a kwarg splat in a "
                    "function-call annotation\n");
    /* before the converter's name is looked up and before a later
       keyword is evaluated, after an earlier one */
    ck_assert_error("m.f\n    a: nosuch(**{}, a=undefined)",
                    "t.c:3: error: Cannot use a kwarg splat in a "
                    "function-call annotation\n");
    ck_assert_error("m.f\n    a: int(a=undefined, **{})",
                    "t.c:3: error: Exception raised during parsing:\n"
                    "NameError: name 'undefined' is not defined\n");
    ck_assert_error("m.f\n    a: int(bitwise=1, bitwise=1)",
                    "t.c:3: error: Exception raised during parsing:\n"
                    "SyntaxError: keyword argument repeated: bitwise\n");
    ck_assert_error("m.f\n    a: 'i'(**{})",
                    "t.c:3: error: Annotations must be either a name, a "
                    "function call, or a string.\n");
    ck_assert_error("m.f\n    a: x.y()",
                    "t.c:3: error: Annotations must be either a name, a "
                    "function call, or a string.\n");
}
END_TEST

/* The same lines in the 3.11 dialect: not its syntax. */
START_TEST(test_3_13_syntax_in_3_11)
{
    ck_assert_ptr_null(parse_ok(module_and_class));
    ck_assert_str_eq(parse_error("@critical_section\nm.C.f"),
                     "t.c:2: error: Illegal function name: "
                     "@critical_section\n");
    ck_assert_str_eq(parse_error("m.f\n    a: object\n    * [from 3.14]\n"
                                 "    b: object"),
                     "t.c:4: error: Function f has an invalid parameter "
                     "declaration:\n\t* [from 3.14]\n");
    Function *f = parse_ok("m.g\n    a: object\n    *args: object\n"
                           "    b: object = None");
    ck_assert_int_eq(param(f, "b")->kind, PARAM_POSITIONAL_OR_KEYWORD);
}
END_TEST

static Suite *dsl_suite(void)
{
    Suite *s = suite_create("dsl");
    TCase *tc = tcase_create("declarations");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_trivial);
    tcase_add_test(tc, test_ignore_line);
    tcase_add_test(tc, test_param);
    tcase_add_test(tc, test_param_default);
    tcase_add_test(tc, test_param_with_continuations);
    tcase_add_test(tc, test_param_default_expression);
    tcase_add_test(tc, test_param_no_docstring);
    tcase_add_test(tc, test_default_values);
    tcase_add_test(tc, test_function_docstring);
    tcase_add_test(tc, test_explicit_parameters_in_docstring);
    tcase_add_test(tc, test_parameters_marker_indented);
    tcase_add_test(tc, test_special_character_in_parameter_column);
    tcase_add_test(tc, test_c_name_and_return_converter);
    tcase_add_test(tc, test_star);
    tcase_add_test(tc, test_group);
    tcase_add_test(tc, test_left_group);
    tcase_add_test(tc, test_nested_groups);
    tcase_add_test(tc, test_no_parameters);
    tcase_add_test(tc, test_init_with_no_parameters);
    tcase_add_test(tc, test_method_kinds);
    tcase_add_test(tc, test_self_and_defining_class);
    tcase_add_test(tc, test_vararg_and_wrapping);
    tcase_add_test(tc, test_slash_after_defaults);
    tcase_add_test(tc, test_function_not_at_column_0);
    tcase_add_test(tc, test_legacy_converters);
    tcase_add_test(tc, test_docstring_blank_summary);
    tcase_add_test(tc, test_cloning);
    tcase_add_test(tc, test_module_redeclared);
    tcase_add_test(tc, test_nested_classes);
    tcase_add_test(tc, test_top_level_function);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_param_default_parameters_out_of_order);
    tcase_add_test(tc, test_disallowed_grouping);
    tcase_add_test(tc, test_illegal_declaration_lines);
    tcase_add_test(tc, test_directive_errors);
    tcase_add_test(tc, test_clone_errors);
    tcase_add_test(tc, test_parameter_errors);
    tcase_add_test(tc, test_converter_call_forms);
    tcase_add_test(tc, test_converter_values);
    tcase_add_test(tc, test_default_errors);
    tcase_add_test(tc, test_self_placement_errors);
    tcase_add_test(tc, test_special_symbol_errors);
    tcase_add_test(tc, test_docstring_errors);
    tcase_add_test(tc, test_indentation_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("dialect 3.13");
    tcase_add_checked_fixture(tc, setup_3_13, teardown);
    tcase_add_test(tc, test_critical_section);
    tcase_add_test(tc, test_getter_and_setter);
    tcase_add_test(tc, test_text_signature);
    tcase_add_test(tc, test_deprecation_markers);
    tcase_add_test(tc, test_unused_and_varargs);
    tcase_add_test(tc, test_converter_call_forms_3_13);
    suite_add_tcase(s, tc);

    tc = tcase_create("3.13's syntax in 3.11");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_3_13_syntax_in_3_11);
    suite_add_tcase(s, tc);

    tc = tcase_create("blocks");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_directives_in_block_output);
    tcase_add_test(tc, test_preserve);
    tcase_add_test(tc, test_linear_format);
    tcase_add_test(tc, test_verbatim_round_trip);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_run(dsl_suite());
}
