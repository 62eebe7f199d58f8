/*
 * check_pyblock.c — unit tests of "python" blocks (pyblock.c): blocks run
 * in the file's interpreter with clinic.py's namespace, as clinic.py's
 * exec() runs them: converter classes register as they are made, print()
 * is the block's output, and constructs the interpreter does not run,
 * syntax errors and exceptions are errors naming them, at their line.
 */
#include <check.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "scan/block.h"
#include "drive/clinic.h"
#include "model/converters.h"
#include "model/model.h"
#include "parse/pyblock.h"
#include "unit.h"

/* Runs one python block whose body starts on file line body_line.
   Returns its output, or NULL after an error (see c->diagnostics). */
static const char *run_block(Clinic *c, const char *input, int body_line)
{
    Block *b = arena_new_of(c->arena, Block);
    b->input = arena_strdup(c->arena, input);
    b->dsl_name = "python";
    b->line = body_line - 1;
    b->body_line = body_line;
    b->indent = b->preindent = "";
    jmp_buf recover;
    c->recover = &recover;
    if (setjmp(recover)) {
        c->recover = NULL;
        return NULL;
    }
    pyblock_parse_block(c, b);
    c->recover = NULL;
    ck_assert_ptr_nonnull(b->output);
    return b->output;
}

/* Checks that the block fails on line `line` with a message containing
   `needle`. */
static void check_error(const char *input, int line, const char *needle)
{
    Clinic *c = unit_clinic("demo.c", NULL);
    ck_assert_msg(run_block(c, input, 10) == NULL, "no error for:\n%s",
                  input);
    char *prefix = arena_printf(c->arena, "demo.c:%d: error: ", line);
    ck_assert_msg(!strncmp(c->diagnostics.buf, prefix, strlen(prefix)),
                  "expected an error at line %d, got: %s", line,
                  c->diagnostics.buf);
    ck_assert_msg(strstr(c->diagnostics.buf, needle) != NULL,
                  "expected \"%s\" in: %s", needle, c->diagnostics.buf);
    clinic_free(c);
}

/* ---- declarations -------------------------------------------------------- */

START_TEST(test_converter_class_registered)
{
    Clinic *c = unit_clinic("demo.c", NULL);
    const char *out = run_block(c,
        "class HANDLE_converter(CConverter):\n"
        "    \"\"\"A HANDLE.\"\"\"\n"
        "    type = 'HANDLE'\n"
        "    converter = \"handle_converter\"  # the C function\n"
        "    c_default = c_ignored_default = 'INVALID_HANDLE_VALUE'\n"
        "\n"
        "    impl_by_reference = True\n"
        "    parse_by_reference = False\n"
        "    subclass_of = None\n", 10);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "");
    const ConverterClass *cls = converter_class_find(c, "HANDLE");
    ck_assert_ptr_nonnull(cls);
    ck_assert_str_eq(cls->class_name, "HANDLE_converter");
    ck_assert_ptr_eq(cls->base, converter_class_by_class_name(c, "CConverter"));
    ck_assert_ptr_nonnull(cls->pyclass);
    ck_assert_str_eq(cls->type, "HANDLE");
    ck_assert_str_eq(cls->converter, "handle_converter");
    ck_assert_str_eq(cls->c_default, "INVALID_HANDLE_VALUE");
    ck_assert_str_eq(cls->c_ignored_default, "INVALID_HANDLE_VALUE");
    ck_assert(cls->impl_by_reference);
    ck_assert(!cls->parse_by_reference);
    ck_assert_ptr_null(cls->subclass_of);
    /* not set: inherited from CConverter */
    ck_assert_str_eq(cls->format_unit, "O&");
    ck_assert(cls->show_in_signature);
    clinic_free(c);
}
END_TEST

START_TEST(test_subclass_within_block)
{
    Clinic *c = unit_clinic("demo.c", NULL);
    ck_assert_ptr_nonnull(run_block(c,
        "class path_confname_converter(CConverter):\n"
        "    type=\"int\"\n"
        "    converter=\"conv_path_confname\"\n"
        "\n"
        "class confstr_confname_converter(path_confname_converter):\n"
        "    converter='conv_confstr_confname'\n"
        "class idtype_t_converter(int_converter): type = 'idtype_t'\n", 1));
    const ConverterClass *parent = converter_class_find(c, "path_confname");
    const ConverterClass *child = converter_class_find(c, "confstr_confname");
    ck_assert_ptr_nonnull(parent);
    ck_assert_ptr_nonnull(child);
    ck_assert_ptr_eq(child->base, parent);
    ck_assert_str_eq(child->type, "int");
    ck_assert_str_eq(child->converter, "conv_confstr_confname");
    const ConverterClass *idtype = converter_class_find(c, "idtype_t");
    ck_assert_ptr_nonnull(idtype);
    ck_assert_ptr_eq(idtype->base, converter_class_find(c, "int"));
    ck_assert_str_eq(idtype->type, "idtype_t");
    ck_assert_str_eq(idtype->format_unit, "i");
    clinic_free(c);
}
END_TEST

START_TEST(test_return_converter_class_registered)
{
    Clinic *c = unit_clinic("demo.c", NULL);
    ck_assert_ptr_nonnull(run_block(c,
        "class dev_t_return_converter(unsigned_long_return_converter):\n"
        "    type = 'dev_t'\n"
        "    conversion_fn = '_PyLong_FromDev'\n"
        "    unsigned_cast = '(dev_t)'\n", 1));
    const ReturnConverterClass *rc = return_converter_class_find(c, "dev_t");
    ck_assert_ptr_nonnull(rc);
    ck_assert_str_eq(rc->class_name, "dev_t_return_converter");
    ck_assert_ptr_eq(rc->base, return_converter_class_find(c, "unsigned_long"));
    ck_assert_str_eq(rc->type, "dev_t");
    ck_assert_str_eq(rc->conversion_fn, "_PyLong_FromDev");
    ck_assert_str_eq(rc->unsigned_cast, "(dev_t)");
    clinic_free(c);
}
END_TEST

/* add_c_converter only registers names ending in _converter; a class
   without a converter base is an ordinary Python class. */
START_TEST(test_names_without_suffix_and_plain_classes)
{
    Clinic *c = unit_clinic("demo.c", NULL);
    ck_assert_ptr_nonnull(run_block(c,
        "class Helper(CConverter):\n"
        "    type = 'helper_t'\n"
        "class plain_converter:\n"
        "    type = 'plain_t'\n"
        "class other_converter(object):\n"
        "    anything = 'goes'\n", 1));
    ck_assert_ptr_null(converter_class_find(c, "Helper"));
    ck_assert_ptr_null(converter_class_find(c, "plain"));
    ck_assert_ptr_null(converter_class_find(c, "other"));
    ck_assert_ptr_nonnull(converter_class_by_class_name(c, "Helper"));
    clinic_free(c);
}
END_TEST

START_TEST(test_attribute_values)
{
    Clinic *c = unit_clinic("demo.c", NULL);
    ck_assert_ptr_nonnull(run_block(c,
        "class v_converter(CConverter):\n"
        "    type = 'const ' \"char *\"\n"
        "    format_unit = r'\\d'\n"
        "    encoding = '''utf-8'''\n"
        "    default_type = (str, NoneType)\n"
        "    length = 1\n"
        "    show_in_signature = None\n"
        "    unused_by_clinic = [1, 2]\n"
        "    pass\n"
        "class w_converter(CConverter):\n"
        "    type = 'int' + ' *'\n"
        "    default = None\n", 1));
    const ConverterClass *v = converter_class_find(c, "v");
    ck_assert_ptr_nonnull(v);
    ck_assert_str_eq(v->type, "const char *");
    ck_assert_str_eq(v->format_unit, "\\d");
    ck_assert_str_eq(v->encoding, "utf-8");
    ck_assert_uint_eq(v->default_type, PYT_STR | PYT_NONETYPE);
    ck_assert(v->length);
    ck_assert(!v->show_in_signature);
    const ConverterClass *w = converter_class_find(c, "w");
    ck_assert_str_eq(w->type, "int *");
    ck_assert_int_eq(w->default_value.kind, PY_NONE);
    clinic_free(c);
}
END_TEST

/* _winapi.c's create_converter: type() with three arguments registers
   the class as a class statement does. */
START_TEST(test_type_made_classes)
{
    Clinic *c = unit_clinic("demo.c", NULL);
    ck_assert_ptr_nonnull(run_block(c,
        "def create_converter(type_, format_unit):\n"
        "    name = type_ + '_converter'\n"
        "    # registered upon creation by CConverter's metaclass\n"
        "    type(name, (CConverter,), {'type': type_, 'format_unit': "
        "format_unit})\n"
        "\n"
        "create_converter('HANDLE', '\" F_HANDLE \"')\n"
        "create_converter('BOOL', 'i') # F_BOOL used previously\n", 1));
    const ConverterClass *h = converter_class_find(c, "HANDLE");
    ck_assert_ptr_nonnull(h);
    ck_assert_str_eq(h->format_unit, "\" F_HANDLE \"");
    ck_assert_str_eq(converter_class_find(c, "BOOL")->type, "BOOL");
    /* add_default_legacy_c_converter: " F_HANDLE " is now a legacy unit */
    ck_assert_ptr_eq(legacy_converter_find(c, "\" F_HANDLE \""), h);
    clinic_free(c);
}
END_TEST

/* ---- print() ------------------------------------------------------------- */

START_TEST(test_print_output)
{
    Clinic *c = unit_clinic("demo.c", NULL);
    const char *out = run_block(c,
        "# comment\n"
        "\n"
        "print(\"#define HAVE_X 1\")\n"
        "print('a', \"b\", sep='-', end='!\\n'); print()\n"
        "print(42, None, True, 1.5, b'x')\n"
        "print(\"\"\"\n"
        "#ifdef X\n"
        "#endif\"\"\")\n"
        "class p_converter(CConverter):\n"
        "    print('in class')\n", 1);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "#define HAVE_X 1\na-b!\n\n42 None True 1.5 b'x'\n"
                     "\n#ifdef X\n#endif\nin class\n");
    clinic_free(c);
}
END_TEST

/* posixmodule.c's first block: loops that print #defines. */
START_TEST(test_print_loops)
{
    Clinic *c = unit_clinic("demo.c", NULL);
    const char *out = run_block(c,
        "for s in \"\"\"\n"
        "\n"
        "FACCESSAT\n"
        "FCHMODAT\n"
        "\n"
        "\"\"\".strip().split():\n"
        "    s = s.strip()\n"
        "    print(\"\"\"\n"
        "#ifdef HAVE_{s}\n"
        "    #define {s}_DIR_FD_CONVERTER dir_fd_converter\n"
        "#endif\n"
        "\"\"\".rstrip().format(s=s))\n", 1);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out,
        "\n#ifdef HAVE_FACCESSAT\n"
        "    #define FACCESSAT_DIR_FD_CONVERTER dir_fd_converter\n#endif\n"
        "\n#ifdef HAVE_FCHMODAT\n"
        "    #define FCHMODAT_DIR_FD_CONVERTER dir_fd_converter\n#endif\n");
    clinic_free(c);
}
END_TEST

START_TEST(test_empty_block)
{
    Clinic *c = unit_clinic("demo.c", NULL);
    const char *out = run_block(c, "", 3);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "");
    out = run_block(c, "\"\"\"Only a docstring.\"\"\"\npass\n", 3);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "");
    clinic_free(c);
}
END_TEST

/* ---- namespaces ----------------------------------------------------------- */

/* exec() gives every block a fresh namespace for its own names: an
   earlier block's class is not visible (NameError), as in clinic.py;
   the converter it registered still is, by its converter name. */
START_TEST(test_classes_do_not_cross_blocks)
{
    Clinic *c = unit_clinic("demo.c", NULL);
    ck_assert_ptr_nonnull(run_block(c,
        "class foo_converter(CConverter):\n    type = 'int'\n", 2));
    ck_assert_ptr_nonnull(converter_class_find(c, "foo"));
    ck_assert_ptr_null(run_block(c,
        "\nclass bar_converter(foo_converter):\n    pass\n", 7));
    ck_assert_ptr_nonnull(strstr(c->diagnostics.buf,
        "demo.c:8: error: Exception raised during parsing:\n"
        "NameError: name 'foo_converter' is not defined"));
    clinic_free(c);
}
END_TEST

/* exec(code) with separate locals: functions the block defines see
   clinic.py's globals, not the block's own top-level names. */
START_TEST(test_functions_see_the_globals)
{
    check_error("helper = 'x'\n"
                "def f():\n"
                "    return helper\n"
                "f()\n", 12, "NameError: name 'helper' is not defined");
    Clinic *c = unit_clinic("demo.c", NULL);
    const char *out = run_block(c,
        "def f():\n"
        "    return CConverter.__name__, NULL, unspecified\n"
        "print(f())\n", 1);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "('CConverter', <Null>, <Unspecified>)\n");
    clinic_free(c);
}
END_TEST

/* ---- errors ---------------------------------------------------------------- */

START_TEST(test_refused_constructs)
{
    check_error("\nimport os\n", 11, "Unsupported construct in python "
                "block: an import.");
    check_error("from os import path\n", 10, "an import");
    check_error("def f():\n    with open('x') as f:\n        pass\n", 11,
                "a 'with' statement");
    check_error("class x_converter(CConverter):\n"
                "    def f(self):\n"
                "        try:\n"
                "            pass\n"
                "        except Exception:\n"
                "            pass\n", 12, "a 'try' statement");
    check_error("def gen():\n    yield 1\n", 11, "a generator (yield)");
    check_error("x = [(yield) for y in z]\n", 10, "a generator");
    check_error("async def f(): pass\n", 10, "'async'");
}
END_TEST

START_TEST(test_every_refusal_says_why)
{
    check_error("import os\n", 10, "clinic runs python blocks in its own "
                "interpreter");
}
END_TEST

START_TEST(test_syntax_errors)
{
    check_error("class b_converter(CConverter)\n    type = 'int'\n", 10,
                "SyntaxError: expected ':'");
    check_error("print('abc)\n", 10, "SyntaxError: unterminated string literal");
    check_error("\nprint('''abc)\n\n", 11,
                "SyntaxError: unterminated triple-quoted string literal");
    check_error("print('x'\n\n", 10, "SyntaxError: '(' was never closed");
    check_error("  print('x')\n", 10, "IndentationError: unexpected indent");
    check_error("class b_converter(CConverter):\n"
                "    type = 'int'\n"
                "        converter = 'x'\n", 12,
                "IndentationError: unexpected indent");
    check_error("class b_converter(CConverter):\nprint('x')\n", 11,
                "IndentationError: expected an indented block after class "
                "definition on line 10");
    check_error("return 1\n", 10, "SyntaxError: 'return' outside function");
    check_error("f(x) = 1\n", 10, "SyntaxError: cannot assign to function call");
}
END_TEST

START_TEST(test_exceptions)
{
    check_error("x = 1\ny = x + 'a'\n", 11, "Exception raised during parsing:"
                "\nTypeError: unsupported operand type(s) for +: 'int' and "
                "'str'");
    check_error("raise RuntimeError(\"Can't specify a c_default\")\n", 10,
                "RuntimeError: Can't specify a c_default");
    check_error("class a_converter(CConverter, int_converter):\n    pass\n",
                10, "TypeError: Cannot create a consistent method resolution "
                "order (MRO) for bases CConverter, int_converter");
    /* (a block's own def is not a global: recurse through self) */
    check_error("class A:\n    def f(self, n):\n        return self.f(n + 1)\n"
                "A().f(0)\n", 12,
                "RecursionError: maximum recursion depth exceeded");
    check_error("while True:\n    pass\n", 11, "RuntimeError: the python block "
                "ran more than");
}
END_TEST

/* Objects of clinic's classes (Function, Parameter, the converters...)
   carry the C object behind them: a block cannot make one (it would
   have none), and clinic's methods check what they are given. */
START_TEST(test_host_objects)
{
    static const char *const classes[] = {
        "Function", "Parameter", "Class", "Module", "CRenderData",
        "LandMine", "CConverter", "int_converter", "CReturnConverter",
        "long_return_converter",
    };
    Arena *a = arena_new();
    for (size_t i = 0; i < sizeof classes / sizeof *classes; i++)
        check_error(arena_printf(a, "print(%s())\n", classes[i]), 10,
                    arena_printf(a, "TypeError: cannot create '%s' instances "
                                 "in a python block: clinic makes them",
                                 classes[i]));
    arena_free(a);
    check_error("class F(Function):\n    def __init__(self):\n        pass\n"
                "print(repr(F()))\n", 13,
                "TypeError: cannot create 'F' instances");
    check_error("Function.__repr__(5)\n", 10, "TypeError: descriptor "
                "'__repr__' requires a 'Function' object but received a "
                "'int'");
    /* a class of the block named as clinic's is told apart from it */
    check_error("class CConverter:\n    pass\n"
                "int_converter.render(CConverter(), None, None)\n", 12,
                "TypeError: descriptor 'render' requires a 'CConverter' "
                "object but received an object of the python block's class "
                "CConverter");
    check_error("P = Parameter\nclass Parameter:\n    pass\n"
                "P.is_optional(Parameter())\n", 13,
                "TypeError: clinic needs a Parameter, not an object of the "
                "python block's class Parameter");
    check_error("class str:\n    pass\nc_repr(str())\n", 12, "TypeError: "
                "c_repr() needs a str, not an object of the python block's "
                "class str");
}
END_TEST

/* fail() is clinic.py's: the message as given, at the block's line. */
START_TEST(test_fail_and_warn)
{
    check_error("fail('no', 'way', 3)\n", 9, "demo.c:9: error: no way 3");
    Clinic *c = unit_clinic("demo.c", NULL);
    const char *out = run_block(c, "warn('careful')\nprint('done')\n", 5);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "done\n");
    ck_assert_ptr_nonnull(strstr(c->diagnostics.buf,
                                 "demo.c:4: warning: careful"));
    clinic_free(c);
}
END_TEST

static Suite *pyblock_suite(void)
{
    Suite *s = suite_create("pyblock");
    TCase *tc = tcase_create("declarations");
    tcase_add_test(tc, test_converter_class_registered);
    tcase_add_test(tc, test_subclass_within_block);
    tcase_add_test(tc, test_return_converter_class_registered);
    tcase_add_test(tc, test_names_without_suffix_and_plain_classes);
    tcase_add_test(tc, test_attribute_values);
    tcase_add_test(tc, test_type_made_classes);
    tcase_add_test(tc, test_print_output);
    tcase_add_test(tc, test_print_loops);
    tcase_add_test(tc, test_empty_block);
    tcase_add_test(tc, test_classes_do_not_cross_blocks);
    tcase_add_test(tc, test_functions_see_the_globals);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_test(tc, test_refused_constructs);
    tcase_add_test(tc, test_every_refusal_says_why);
    tcase_add_test(tc, test_syntax_errors);
    tcase_add_test(tc, test_exceptions);
    tcase_add_test(tc, test_host_objects);
    tcase_add_test(tc, test_fail_and_warn);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_run(pyblock_suite());
}
