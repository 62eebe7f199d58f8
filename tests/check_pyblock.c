/*
 * check_pyblock.c — unit tests of "python" blocks (pyblock.c): the
 * declarative subset registers converter classes and prints literals
 * exactly as clinic.py's exec() would; everything else is refused with a
 * message naming the construct, at its line in the file.
 */
#include <check.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "clinic.h"
#include "converters.h"
#include "model.h"
#include "pyblock.h"

static Clinic *new_clinic(void)
{
    ClinicOptions o = {0};
    return clinic_new("demo.c", &o);
}

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
    Clinic *c = new_clinic();
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
    Clinic *c = new_clinic();
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
    ck_assert_str_eq(cls->type, "HANDLE");
    ck_assert_str_eq(cls->converter, "handle_converter");
    ck_assert_str_eq(cls->c_default, "INVALID_HANDLE_VALUE");
    ck_assert_str_eq(cls->c_ignored_default, "INVALID_HANDLE_VALUE");
    ck_assert(cls->impl_by_reference);
    ck_assert(!cls->parse_by_reference);
    ck_assert_ptr_null(cls->subclass_of);
    ck_assert_uint_eq(cls->attrs_set,
                      CATTR_TYPE | CATTR_CONVERTER | CATTR_C_DEFAULT |
                      CATTR_C_IGNORED_DEFAULT | CATTR_IMPL_BY_REFERENCE |
                      CATTR_PARSE_BY_REFERENCE | CATTR_SUBCLASS_OF);
    /* not set: inherited from CConverter */
    ck_assert_str_eq(cls->format_unit, "O&");
    ck_assert(cls->show_in_signature);
    clinic_free(c);
}
END_TEST

START_TEST(test_subclass_within_block)
{
    Clinic *c = new_clinic();
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
    ck_assert_uint_eq(child->attrs_set, CATTR_CONVERTER);
    const ConverterClass *idtype = converter_class_find(c, "idtype_t");
    ck_assert_ptr_nonnull(idtype);
    ck_assert_ptr_eq(idtype->base, converter_class_find(c, "int"));
    ck_assert_str_eq(idtype->type, "idtype_t");
    clinic_free(c);
}
END_TEST

START_TEST(test_return_converter_class_registered)
{
    Clinic *c = new_clinic();
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
    ck_assert_uint_eq(rc->attrs_set,
                      RATTR_TYPE | RATTR_CONVERSION_FN | RATTR_UNSIGNED_CAST);
    clinic_free(c);
}
END_TEST

/* add_c_converter only registers names ending in _converter; a class
   without a converter base is an ordinary (inert) Python class. */
START_TEST(test_names_without_suffix_and_inert_classes)
{
    Clinic *c = new_clinic();
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
    Clinic *c = new_clinic();
    ck_assert_ptr_nonnull(run_block(c,
        "class v_converter(CConverter):\n"
        "    type = 'const ' \"char *\"\n"
        "    format_unit = r'\\d'\n"
        "    encoding = '''utf-8'''\n"
        "    default_type = (str, NoneType)\n"
        "    length = 1\n"
        "    show_in_signature = None\n"
        "    unused_by_clinic = [1, 2]\n"
        "    pass\n", 1));
    const ConverterClass *v = converter_class_find(c, "v");
    ck_assert_ptr_nonnull(v);
    ck_assert_str_eq(v->type, "const char *");
    ck_assert_str_eq(v->format_unit, "\\d");
    ck_assert_str_eq(v->encoding, "utf-8");
    ck_assert_uint_eq(v->default_type, PYT_STR | PYT_NONETYPE);
    ck_assert(v->length);
    ck_assert(!v->show_in_signature);
    clinic_free(c);
}
END_TEST

/* ---- print() ------------------------------------------------------------- */

START_TEST(test_print_literals)
{
    Clinic *c = new_clinic();
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

START_TEST(test_empty_block)
{
    Clinic *c = new_clinic();
    const char *out = run_block(c, "", 3);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "");
    out = run_block(c, "\"\"\"Only a docstring.\"\"\"\npass\n", 3);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "");
    clinic_free(c);
}
END_TEST

/* ---- refusals ------------------------------------------------------------ */

START_TEST(test_refuses_methods)
{
    check_error("class lzma_filter_converter(CConverter):\n"
                "    type = 'lzma_filter'\n"
                "\n"
                "    def cleanup(self):\n"
                "        return ''\n", 13, "a function definition (def cleanup)");
    check_error("class Py_UCS4_converter(CConverter):\n"
                "    def converter_init(self):\n"
                "        pass\n", 11, "def converter_init");
    check_error("def create_converter(type_, format_unit):\n"
                "    pass\n", 10, "def create_converter");
    check_error("class x_converter(CConverter):\n"
                "    @staticmethod\n"
                "    def f(): pass\n", 11, "a decorator");
}
END_TEST

START_TEST(test_refuses_statements)
{
    check_error("\nfor s in 'A B'.split():\n    print(s)\n", 11, "a 'for' loop");
    check_error("import os\n", 10, "an import");
    check_error("from os import path\n", 10, "an import");
    check_error("x = 'HANDLE'\n", 10, "a module-level assignment (x = ...)");
    check_error("create_converter('HANDLE', 'k')\n", 10,
                "a call to create_converter()");
    check_error("print('a' + 'b')\n", 10, "print() of 'a' + 'b'");
    check_error("print('x', file=None)\n", 10, "print() with argument 'file'");
    check_error("if True:\n    pass\n", 10, "an 'if' statement");
    check_error("class w_converter(CConverter):\n"
                "    type = 'int'\n"
                "    while False: pass\n", 12, "a 'while' loop");
    check_error("class w_converter(CConverter):\n"
                "    type += 'int'\n", 11, "an augmented assignment");
    check_error("class w_converter(CConverter):\n"
                "    type: str = 'int'\n", 11, "an annotated assignment");
    check_error("class w_converter(CConverter):\n"
                "    class inner: pass\n", 11, "a nested class");
    check_error("x_converter = type('x_converter', (CConverter,), {})\n", 10,
                "a module-level assignment");
}
END_TEST

START_TEST(test_refuses_attributes)
{
    check_error("class a_converter(CConverter):\n"
                "    type = 'int' + ' *'\n", 11,
                "class attribute type = 'int' + ' *', whose value is not a "
                "literal");
    check_error("class a_converter(CConverter):\n"
                "    py_name = None\n", 11,
                "setting 'py_name' in class a_converter");
    check_error("class a_return_converter(CReturnConverter):\n"
                "    render = None\n", 11, "setting 'render'");
    check_error("class a_converter(CConverter):\n"
                "    type = 5\n", 11, "type = 5 (clinic expects a string or "
                "None)");
    check_error("class a_converter(CConverter):\n"
                "    x, y = 1, 2\n", 11, "assignment to 'x , y'");
    check_error("class a_converter(CConverter, int_converter):\n    pass\n",
                10, "only a single base class");
    check_error("class a_converter(version):\n    pass\n", 10,
                "version is not a converter class");
}
END_TEST

START_TEST(test_every_refusal_says_why)
{
    check_error("import os\n", 10, "clinic runs no Python code");
}
END_TEST

/* exec() gives every block a fresh namespace: an earlier block's class is
   not visible, as in clinic.py (NameError). */
START_TEST(test_classes_do_not_cross_blocks)
{
    Clinic *c = new_clinic();
    ck_assert_ptr_nonnull(run_block(c,
        "class foo_converter(CConverter):\n    type = 'int'\n", 2));
    ck_assert_ptr_null(run_block(c,
        "\nclass bar_converter(foo_converter):\n    pass\n", 7));
    ck_assert_ptr_nonnull(strstr(c->diagnostics.buf,
        "demo.c:8: error: Exception raised during parsing:\n"
        "NameError: name 'foo_converter' is not defined"));
    clinic_free(c);
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
    check_error("class b_converter(CConverter):\nprint('x')\n", 10,
                "IndentationError: expected an indented block after class "
                "definition on line 10");
}
END_TEST

static Suite *pyblock_suite(void)
{
    Suite *s = suite_create("pyblock");
    TCase *tc = tcase_create("declarations");
    tcase_add_test(tc, test_converter_class_registered);
    tcase_add_test(tc, test_subclass_within_block);
    tcase_add_test(tc, test_return_converter_class_registered);
    tcase_add_test(tc, test_names_without_suffix_and_inert_classes);
    tcase_add_test(tc, test_attribute_values);
    tcase_add_test(tc, test_print_literals);
    tcase_add_test(tc, test_empty_block);
    suite_add_tcase(s, tc);

    tc = tcase_create("refusals");
    tcase_add_test(tc, test_refuses_methods);
    tcase_add_test(tc, test_refuses_statements);
    tcase_add_test(tc, test_refuses_attributes);
    tcase_add_test(tc, test_every_refusal_says_why);
    tcase_add_test(tc, test_classes_do_not_cross_blocks);
    tcase_add_test(tc, test_syntax_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pyblock_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
