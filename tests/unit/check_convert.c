/*
 * check_convert.c — unit tests of --convert (lib/convert/): each format
 * unit's converter, each reason a function is left as it is, and the
 * pieces of a conversion (the block, the _impl, the table entry), run on
 * text in memory.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drive/clinic.h"
#include "convert/convert.h"
#include "convert/convert_units.h"
#include "unit.h"

/* A module "m" with one function f, parsed as given. */
#define MODULE_END \
    "static PyMethodDef methods[] = {\n" \
    "    {\"f\", (PyCFunction)(void(*)(void))m_f, FLAGS, \"Doc.\"},\n" \
    "    {NULL, NULL, 0, NULL}\n};\n" \
    "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n"

typedef struct Case {
    const char *name;
    const char *body;        /* between "{" and "}" of m_f(module, args) */
    const char *flags;       /* the entry's flags */
    int reason;              /* -1: converted */
    const char *wanted;      /* converted: in the new text */
} Case;

static const Case cases[] = {
    {"int", "int a;\n if (!PyArg_ParseTuple(args, \"i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    a: int\n    /\n"},
    {"optional_default", "long a = -3;\n if (!PyArg_ParseTuple(args, \"|l\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    a: long = -3\n"},
    {"hex_default", "Py_ssize_t n = 0x10;\n if (!PyArg_ParseTuple(args, \"|n\", &n)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    n: Py_ssize_t = 0x10\n"},
    {"bool", "int p = 1;\n if (!PyArg_ParseTuple(args, \"|p\", &p)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    p: bool = True\n"},
    {"str_default", "const char *s = \"abc\";\n if (!PyArg_ParseTuple(args, \"|s\", &s)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    s: str = \"abc\"\n"},
    {"z_null", "const char *s = NULL;\n if (!PyArg_ParseTuple(args, \"|z\", &s)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    s: str(accept={str, NoneType}) = None\n"},
    {"object_none", "PyObject *o = Py_None;\n if (!PyArg_ParseTuple(args, \"|O\", &o)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    o: object = None\n"},
    {"object_typed", "FooObject *o;\n if (!PyArg_ParseTuple(args, \"O\", &o)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    o: object(type='FooObject *')\n"},
    {"o_bang", "PyObject *o;\n if (!PyArg_ParseTuple(args, \"O!\", &PyDict_Type, &o)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    o: object(subclass_of='&PyDict_Type')\n"},
    {"o_amp", "int fd;\n if (!PyArg_ParseTuple(args, \"O&\", conv_fd, &fd)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    fd: object(converter='conv_fd', type='int')\n"},
    {"o_amp_address", "int fd;\n if (!PyArg_ParseTuple(args, \"O&\", &conv_fd, &fd)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    fd: object(converter='conv_fd', type='int')\n"},
    {"struct_tag_of_its_name", "struct m_f *p = NULL;\n int a;\n if (!PyArg_ParseTuple(args, \"i\", &a)) return NULL;\n return PyLong_FromLong(a + (p != NULL));",
     "METH_VARARGS", -1, "    a: int\n    /\n"},
    {"es", "char *s;\n if (!PyArg_ParseTuple(args, \"es\", \"ascii\", &s)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    s: str(encoding='ascii')\n"},
    {"et_sized", "char *s; Py_ssize_t n;\n if (!PyArg_ParseTuple(args, \"et#\", \"ascii\", &s, &n)) return NULL;\n return PyLong_FromSsize_t(n);",
     "METH_VARARGS", -1, "return PyLong_FromSsize_t(s_length);"},
    {"buffer_pointer", "Py_buffer b;\n if (!PyArg_ParseTuple(args, \"y*\", &b)) return NULL;\n PyBuffer_Release(&b);\n return PyLong_FromSsize_t(b.len);",
     "METH_VARARGS", -1, "PyBuffer_Release(b);\n return PyLong_FromSsize_t(b->len);"},
    {"keywords", "static char *kwlist[] = {\"\", \"x\", \"key\", NULL};\n int a, b = 0, c = 1;\n"
     " if (!PyArg_ParseTupleAndKeywords(args, kw, \"i|i$i\", kwlist, &a, &b, &c)) return NULL;\n return NULL;",
     "METH_VARARGS | METH_KEYWORDS", -1, "    a: int\n    /\n    x as b: int = 0\n    *\n    key as c: int = 1\n"},
    {"unpack", "PyObject *a, *b = NULL;\n if (!PyArg_UnpackTuple(args, \"f\", 1, 2, &a, &b)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    a: object\n    b: object = NULL\n    /\n"},
    {"entry_replaced", "int a;\n if (!PyArg_ParseTuple(args, \"i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    M_F_METHODDEF\n    {NULL, NULL, 0, NULL}"},
    {"kept_declaration", "int a, kept = 2;\n if (!PyArg_ParseTuple(args, \"i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "int kept = 2;"},
    {"two_calls", "int a;\n if (!PyArg_ParseTuple(args, \"i\", &a)) return NULL;\n if (!PyArg_ParseTuple(args, \"i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_TWO_PARSE_CALLS, NULL},
    {"by_count", "int a = 0;\n if (PyTuple_Size(args) > 2) return NULL;\n if (!PyArg_ParseTuple(args, \"|i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_TWO_PARSE_CALLS, NULL},
    {"args_used", "int a;\n if (!PyArg_ParseTuple(args, \"i\", &a)) return NULL;\n return args;",
     "METH_VARARGS", REFUSE_ARGS_USED, NULL},
    {"effects", "int a = g();\n if (!PyArg_ParseTuple(args, \"i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_EFFECTS_BEFORE, NULL},
    {"statement_before", "int a;\n a = 3;\n if (!PyArg_ParseTuple(args, \"|i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_EFFECTS_BEFORE, NULL},
    {"unit_paren", "int a, b;\n if (!PyArg_ParseTuple(args, \"(ii)\", &a, &b)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_FORMAT_UNIT, NULL},
    {"unit_u", "void *a;\n if (!PyArg_ParseTuple(args, \"u\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_FORMAT_UNIT, NULL},
    {"uninitialised", "int a;\n if (!PyArg_ParseTuple(args, \"|i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_UNINITIALISED, NULL},
    {"macro", "int a;\n if (!MY_PARSE(args, &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_HIDDEN_CALL, NULL},
    {"format_macro", "int a;\n if (!PyArg_ParseTuple(args, FORMAT, &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_HIDDEN_CALL, NULL},
    {"type", "short a;\n if (!PyArg_ParseTuple(args, \"i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_TYPE, NULL},
    {"default_macro", "int a = FOO;\n if (!PyArg_ParseTuple(args, \"|i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_DEFAULT, NULL},
    {"default_suffix", "long a = 1L;\n if (!PyArg_ParseTuple(args, \"|l\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_DEFAULT, NULL},
    {"error_goto", "int a;\n if (!PyArg_ParseTuple(args, \"i\", &a)) goto done;\n done: return NULL;",
     "METH_VARARGS", REFUSE_SHAPE, NULL},
    {"flags", "return NULL;", "METH_FASTCALL", REFUSE_FLAGS, NULL},
    /* a read of module state before the parse call stays, after it */
    {"state_read", "st *state = PyModule_GetState(module);\n int a;\n assert(state != NULL);\n"
     " if (!PyArg_ParseTuple(args, \"i\", &a)) return NULL;\n return state->f(a);",
     "METH_VARARGS", -1, "{\n st *state = PyModule_GetState(module);\n assert(state != NULL);\n"
     " return state->f(a);\n}"},
    {"state_named_by_parse", "st *state = PyModule_GetState(module);\n PyObject *a;\n"
     " if (!PyArg_ParseTuple(args, \"O!\", state->t, &a)) return NULL;\n return a;",
     "METH_VARARGS", REFUSE_EFFECTS_BEFORE, NULL},
    {"state_reads_variable", "int a = 0;\n st *state = PyModule_GetState(a ? module : NULL);\n"
     " if (!PyArg_ParseTuple(args, \"|i\", &a)) return NULL;\n return state->f(a);",
     "METH_VARARGS", REFUSE_EFFECTS_BEFORE, NULL},
    {"assert_with_effect", "int a;\n assert(g() != 0);\n"
     " if (!PyArg_ParseTuple(args, \"i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_EFFECTS_BEFORE, NULL},
    {"sizet_tuple", "const char *s; Py_ssize_t n; int a = 1;\n if (!_PyArg_ParseTuple_SizeT(args, \"s#|i\", &s, &n, &a)) return NULL;\n return PyLong_FromSsize_t(n);",
     "METH_VARARGS", -1, "    s: str(accept={robuffer, str}, zeroes=True)\n    a: int = 1\n    /\n"},
    {"sizet_keywords", "static char *kwlist[] = {\"x\", NULL}; int a;\n if (!_PyArg_ParseTupleAndKeywords_SizeT(args, kw, \"i\", kwlist, &a)) return NULL;\n return NULL;",
     "METH_VARARGS | METH_KEYWORDS", -1, "    x as a: int\n"},
    {"sizet_int_length", "const char *s; int n;\n if (!_PyArg_ParseTuple_SizeT(args, \"s#\", &s, &n)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_TYPE, NULL},
    {"form_one_object", "int a;\n if (!PyArg_Parse(args, \"i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_PARSE_FORM, NULL},
    {"form_stack", "int a;\n if (!_PyArg_ParseStack(&args, 1, \"i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_PARSE_FORM, NULL},
    {"form_unpack_stack", "PyObject *a;\n if (!_PyArg_UnpackStack(&args, 1, \"f\", 1, 1, &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_PARSE_FORM, NULL},
    {"form_va", "int a;\n if (!PyArg_VaParse(args, \"i\", va)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_PARSE_FORM, NULL},
    {"kwlist_char_cast", "static char *kwlist[] = {(char *)\"x\", (char *)\"y\", NULL}; int a, b = 0;\n"
     " if (!PyArg_ParseTupleAndKeywords(args, kw, \"i|i\", kwlist, &a, &b)) return NULL;\n return NULL;",
     "METH_VARARGS | METH_KEYWORDS", -1, "    x as a: int\n    y as b: int = 0\n"},
    {"I_uint32", "uint32_t a = 0;\n if (!PyArg_ParseTuple(args, \"|I\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", -1, "    a: unsigned_int(bitwise=True) = 0\n"},
    {"I_uint16", "uint16_t a = 0;\n if (!PyArg_ParseTuple(args, \"|I\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS", REFUSE_TYPE, NULL},
    {"star_args", "return PyLong_FromSsize_t(PyTuple_GET_SIZE(args));",
     "METH_VARARGS", -1, "    *args: object\n\nDoc.\n[clinic start generated code]*/\n"
     "{\n return PyLong_FromSsize_t(PyTuple_GET_SIZE(args));\n}"},
    {"star_args_unused", "Py_RETURN_NONE;", "METH_VARARGS", -1, "    *args: object\n"},
    {"star_args_header_macro", "return HIDDEN_PARSE(args);", "METH_VARARGS",
     REFUSE_HIDDEN_CALL, NULL},
    {"star_args_pyarg_function", "if (!_PyArg_NoPositional(\"f\", args)) return NULL;\n Py_RETURN_NONE;",
     "METH_VARARGS", REFUSE_HIDDEN_CALL, NULL},
    {"star_args_keywords", "return PyLong_FromSsize_t(PyTuple_GET_SIZE(args));",
     "METH_VARARGS | METH_KEYWORDS", REFUSE_HIDDEN_CALL, NULL},
    {"keywords_without_kwlist", "int a;\n if (!PyArg_ParseTuple(args, \"i\", &a)) return NULL;\n return NULL;",
     "METH_VARARGS | METH_KEYWORDS", REFUSE_FLAGS, NULL},
};

/* m_f's source: its parameters from the flags. */
static char *module_source(const Case *k)
{
    const char *params = strstr(k->flags, "KEYWORDS")
        ? "PyObject *module, PyObject *args, PyObject *kw"
        : "PyObject *module, PyObject *args";
    const char *fmt = "#include \"Python.h\"\n\nstatic PyObject *\nm_f(%s)\n{\n %s\n}\n\n" MODULE_END;
    size_t n = strlen(fmt) + strlen(params) + strlen(k->body) + 1;
    char *flags_fmt = malloc(n);
    snprintf(flags_fmt, n, fmt, params, k->body);
    /* FLAGS in MODULE_END */
    char *at = strstr(flags_fmt, "FLAGS");
    size_t m = strlen(flags_fmt) + strlen(k->flags) + 1;
    char *out = malloc(m);
    snprintf(out, m, "%.*s%s%s", (int)(at - flags_fmt), flags_fmt, k->flags,
             at + 5);
    free(flags_fmt);
    return out;
}

START_TEST(test_case)
{
    const Case *k = &cases[_i];
    char *src = module_source(k);
    ClinicOptions o = {0};
    o.convert = true;
    Clinic *c = clinic_new("m.c", &o);
    ConvertStats stats = {0};
    size_t len;
    const char *out = convert_text(c, src, strlen(src), &len, &stats);
    if (k->reason < 0) {
        ck_assert_msg(stats.converted == 1, "%s: not converted: %s", k->name,
                      c->diagnostics.buf);
        ck_assert_msg(strstr(out, k->wanted) != NULL,
                      "%s: lacks\n%s\nin\n%s", k->name, k->wanted, out);
        ck_assert(strstr(out, "#include \"clinic/m.c.h\"\n") != NULL);
        ck_assert(strstr(out, "/*[clinic input]\nmodule m\n") != NULL);
        ck_assert(strstr(out, "PyArg_") == NULL);
    } else {
        ck_assert_msg(stats.converted == 0, "%s: converted:\n%s", k->name, out);
        ck_assert_msg(stats.refused[k->reason] == 1, "%s: not refused for "
                      "%s: %s", k->name, convert_reason_name(k->reason),
                      c->diagnostics.buf);
        /* left byte for byte, and said why */
        ck_assert(out == src);
        ck_assert_msg(strstr(c->diagnostics.buf, convert_reason_name(k->reason)),
                      "%s: %s", k->name, c->diagnostics.buf);
        ck_assert(strstr(c->diagnostics.buf, "m.c:4: note: convert: m.f left "
                                             "as it is") != NULL ||
                  strstr(c->diagnostics.buf, "note: convert: m.f left") != NULL);
    }
    clinic_free(c);
    free(src);
}
END_TEST

/* Every unit of the How-To's table has a converter; "(" and "u" none. */
START_TEST(test_units)
{
    static const char *const known[] = {
        "b", "B", "h", "H", "i", "I", "l", "k", "L", "K", "n", "c", "C", "f",
        "d", "D", "s", "s*", "s#", "z", "z*", "z#", "y", "y*", "y#", "S",
        "Y", "U", "w*", "es", "et", "es#", "et#", "O", "O!", "O&", "p", NULL
    };
    for (size_t i = 0; known[i]; i++) {
        const char *p = known[i];
        const FormatUnit *u = unit_next(&p);
        ck_assert_msg(u && !strcmp(u->unit, known[i]) && *p == '\0',
                      "unit %s", known[i]);
        ck_assert(u->converter && *u->converter);
    }
    static const char *const unknown[] = {"(", "u", "Z", "w#", "e", "x", NULL};
    for (size_t i = 0; unknown[i]; i++) {
        const char *p = unknown[i];
        ck_assert_msg(unit_next(&p) == NULL, "unit %s", unknown[i]);
    }
}
END_TEST

/* Comments and strings that look like code are not code. */
START_TEST(test_comments_and_strings)
{
    const char *src =
        "#include \"Python.h\"\n"
        "/* static PyMethodDef fake[] = {{\"x\", x, METH_VARARGS, NULL}}; */\n"
        "static const char *s = \"PyArg_ParseTuple(args, \\\"i\\\")\";\n"
        "// PyModuleDef m = {PyModuleDef_HEAD_INIT, \"fake\"};\n";
    ClinicOptions o = {0};
    o.convert = true;
    Clinic *c = clinic_new("m.c", &o);
    ConvertStats stats = {0};
    size_t len;
    const char *out = convert_text(c, src, strlen(src), &len, &stats);
    ck_assert(out == src && len == strlen(src));
    ck_assert_uint_eq(c->diagnostics.len, 0);
    clinic_free(c);
}
END_TEST

/* --convert-only: the others are not even looked at. */
START_TEST(test_only)
{
    char *src = module_source(&cases[0]);
    const char *only[] = {"g"};
    ClinicOptions o = {0};
    o.convert = true;
    o.convert_only = only;
    o.nconvert_only = 1;
    Clinic *c = clinic_new("m.c", &o);
    ConvertStats stats = {0};
    size_t len;
    const char *out = convert_text(c, src, strlen(src), &len, &stats);
    ck_assert(out == src);
    ck_assert_uint_eq(c->diagnostics.len, 0);
    clinic_free(c);
    only[0] = "m.f";
    c = clinic_new("m.c", &o);
    out = convert_text(c, src, strlen(src), &len, &stats);
    ck_assert(out != src);
    ck_assert_uint_eq(stats.converted, 1);
    clinic_free(c);
    free(src);
}
END_TEST

/* The whole pipeline: converted, generated, and generated again alike. */
START_TEST(test_process_twice)
{
    char *src = module_source(&cases[13]);
    ClinicOptions o = {0};
    o.convert = true;
    Clinic *c = clinic_new("m.c", &o);
    ck_assert_int_eq(clinic_process(c, src, strlen(src)), 0);
    ck_assert(strstr(c->output, "/*[clinic end generated code: output=") != NULL);
    ck_assert_uint_eq(c->nfiles, 1);
    char *first = strndup(c->output, c->output_len);
    clinic_free(c);
    ClinicOptions plain = {0};
    c = clinic_new("m.c", &plain);
    ck_assert_int_eq(clinic_process(c, first, strlen(first)), 0);
    ck_assert(c->output == first);   /* unchanged: the very bytes */
    clinic_free(c);
    free(first);
    free(src);
}
END_TEST

/* Runs convert_text on src in the dialect (NULL: the default); returns
   the new text (strdup'd) and the notes in *notes (strdup'd). */
static char *convert_source_in(const char *src, const char *dialect,
                               ConvertStats *stats, char **notes)
{
    ClinicOptions o = {0};
    o.convert = true;
    if (dialect)
        o.dialect = dialect_find(dialect);
    Clinic *c = clinic_new("m.c", &o);
    size_t len;
    const char *out = convert_text(c, src, strlen(src), &len, stats);
    char *copy = strndup(out, len);
    *notes = strdup(c->diagnostics.buf);
    clinic_free(c);
    return copy;
}

static char *convert_source(const char *src, ConvertStats *stats,
                            char **notes)
{
    return convert_source_in(src, NULL, stats, notes);
}

/* A helper of the file that reads module state is judged by its body:
   one that only declares, asserts and returns what reads state may run
   after the parse call; one that does anything else may not. */
START_TEST(test_state_helper)
{
    static const struct {
        const char *helper_body;
        bool pure;
    } helpers[] = {
        {"void *state = _PyType_GetModuleState(Py_TYPE(m));\n"
         "    assert(state != NULL);\n    return (st *)state;", true},
        {"return get_inner(m);", true},
        {"PyErr_SetString(PyExc_TypeError, \"no\");\n    return NULL;", false},
        {"counter++;\n    return PyModule_GetState(m);", false},
        {"return unknown_macro(m);", false},
    };
    for (size_t k = 0; k < sizeof helpers / sizeof *helpers; k++) {
        char src[2048];
        snprintf(src, sizeof src,
                 "#include \"Python.h\"\n"
                 "static int counter;\n"
                 "static st *\nget_inner(PyObject *m)\n{\n    return PyModule_GetState(m);\n}\n\n"
                 "static st *\nget_state(PyObject *m)\n{\n    %s\n}\n\n"
                 "static PyObject *\nm_f(PyObject *module, PyObject *args)\n"
                 "{\n    st *state = get_state(module);\n    int a;\n"
                 "    if (!PyArg_ParseTuple(args, \"i\", &a))\n        return NULL;\n"
                 "    return state->f(a);\n}\n\n"
                 "static PyMethodDef methods[] = {\n"
                 "    {\"f\", m_f, METH_VARARGS, \"Doc.\"},\n"
                 "    {NULL, NULL, 0, NULL}\n};\n"
                 "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n",
                 helpers[k].helper_body);
        ConvertStats stats = {0};
        char *notes;
        char *out = convert_source(src, &stats, &notes);
        if (helpers[k].pure) {
            ck_assert_msg(stats.converted == 1, "%zu: %s", k, notes);
            ck_assert_msg(strstr(out, "{\n    st *state = get_state(module);\n"
                                 "    return state->f(a);\n}") != NULL, "%zu: %s", k, out);
        } else {
            ck_assert_msg(stats.refused[REFUSE_EFFECTS_BEFORE] == 1, "%zu: %s", k, notes);
            ck_assert_str_eq(out, src);
        }
        free(out);
        free(notes);
    }
}
END_TEST

#define CLASS_TYPE(NAME, STRUCT, TABLE) \
    "static PyTypeObject " NAME "_Type = {\n" \
    "    PyVarObject_HEAD_INIT(NULL, 0)\n" \
    "    .tp_name = \"m." NAME "\",\n" \
    "    .tp_basicsize = sizeof(" STRUCT "),\n" \
    "    .tp_methods = " TABLE ",\n" \
    "};\n"

#define METHOD(FN, STRUCT) \
    "static PyObject *\n" FN "(" STRUCT " *self, PyObject *args)\n" \
    "{\n    int n;\n    if (!PyArg_ParseTuple(args, \"i\", &n))\n" \
    "        return NULL;\n    return PyLong_FromLong(n);\n}\n"

#define TABLE(NAME, FN) \
    "static PyMethodDef " NAME "[] = {\n" \
    "    {\"f\", (PyCFunction)" FN ", METH_VARARGS, NULL},\n" \
    "    {NULL, NULL}\n};\n"

#define MODULE_DEF \
    "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, NULL};\n"

/* The include goes where it keeps the most functions: after every type
   the generated code names, before every table it serves; a function
   whose type comes only after that is left, with a note. */
START_TEST(test_include_place)
{
    const char *src =
        "#include \"Python.h\"\n"
        "typedef struct { PyObject_HEAD int a; } AObject;\n"
        METHOD("A_f", "AObject") TABLE("A_methods", "A_f")
        CLASS_TYPE("A", "AObject", "A_methods")
        "typedef struct { PyObject_HEAD int b; } BObject;\n"
        METHOD("B_f", "BObject") TABLE("B_methods", "B_f")
        CLASS_TYPE("B", "BObject", "B_methods")
        "typedef struct { PyObject_HEAD int c; } CObject;\n"
        METHOD("C_f", "CObject") TABLE("C_methods", "C_f")
        CLASS_TYPE("C", "CObject", "C_methods")
        MODULE_DEF;
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    /* each type is defined after the table before it: the include before
       A's table, B and C declared ahead of it (their structs tagged with
       their names) */
    ck_assert_msg(stats.converted == 3, "%s", notes);
    char *inc = strstr(out, "#include \"clinic/m.c.h\"");
    ck_assert(inc != NULL);
    ck_assert_msg(strstr(out, "}\ntypedef struct BObject BObject;\n"
                              "typedef struct CObject CObject;\n\n#include") != NULL,
                  "%s", out);
    ck_assert(strstr(out, "M_A_F_METHODDEF") > inc);
    ck_assert(strstr(out, "typedef struct BObject { PyObject_HEAD int b; } BObject;") > inc);
    ck_assert(strstr(out, "typedef struct CObject { PyObject_HEAD int c; } CObject;") > inc);
    free(out);
    free(notes);

    /* a type that is not declared ahead (its struct defined apart from
       its typedef) holds its function back: every place keeps one, the
       first wins */
    const char *apart =
        "#include \"Python.h\"\n"
        "struct AObject { PyObject_HEAD int a; };\ntypedef struct AObject AObject;\n"
        METHOD("A_f", "AObject") TABLE("A_methods", "A_f")
        CLASS_TYPE("A", "AObject", "A_methods")
        "struct BObject { PyObject_HEAD int b; };\ntypedef struct BObject BObject;\n"
        METHOD("B_f", "BObject") TABLE("B_methods", "B_f")
        CLASS_TYPE("B", "BObject", "B_methods")
        MODULE_DEF;
    memset(&stats, 0, sizeof stats);
    out = convert_source(apart, &stats, &notes);
    ck_assert_uint_eq(stats.converted, 1);
    ck_assert_uint_eq(stats.refused[REFUSE_SHAPE], 1);
    ck_assert_msg(strstr(notes, "m.B.f left as it is (shape)") != NULL, "%s", notes);
    inc = strstr(out, "#include \"clinic/m.c.h\"");
    ck_assert(inc != NULL && strstr(out, "M_A_F_METHODDEF") > inc);
    ck_assert(strstr(out, "typedef struct AObject AObject;") < inc);
    ck_assert(strstr(out, "typedef struct BObject BObject;\n\n#include") == NULL);
    free(out);
    free(notes);

    /* types from a header (never defined here) do not hold it back */
    const char *headers =
        "#include \"Python.h\"\n"
        METHOD("A_f", "AObject") TABLE("A_methods", "A_f")
        CLASS_TYPE("A", "AObject", "A_methods")
        METHOD("B_f", "BObject") TABLE("B_methods", "B_f")
        CLASS_TYPE("B", "BObject", "B_methods")
        MODULE_DEF;
    memset(&stats, 0, sizeof stats);
    out = convert_source(headers, &stats, &notes);
    ck_assert_msg(stats.converted == 2, "%s", notes);
    ck_assert(strstr(out, "class m.A \"AObject *\" \"&A_Type\"\n") != NULL);
    ck_assert(strstr(out, "class m.B \"BObject *\" \"&B_Type\"\n") != NULL);
    free(out);
    free(notes);
}
END_TEST

/* METH_CLASS: @classmethod, with the function's own self line. */
START_TEST(test_classmethod)
{
    const char *src =
        "#include \"Python.h\"\n"
        "typedef struct { PyObject_HEAD } AObject;\n"
        "static PyObject *\nA_make(PyObject *cls, PyObject *args)\n"
        "{\n    int n = 0;\n    if (!PyArg_ParseTuple(args, \"|i\", &n))\n"
        "        return NULL;\n    return PyObject_CallNoArgs(cls);\n}\n"
        "static PyMethodDef A_methods[] = {\n"
        "    {\"make\", (PyCFunction)A_make, METH_VARARGS | METH_CLASS, \"Make one.\"},\n"
        "    {NULL, NULL}\n};\n"
        CLASS_TYPE("A", "AObject", "A_methods") MODULE_DEF;
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_msg(strstr(out, "/*[clinic input]\n@classmethod\nm.A.make\n\n"
                              "    cls: self(type=\"PyObject *\")\n"
                              "    n: int = 0\n    /\n\nMake one.\n") != NULL,
                  "%s", out);
    free(out);
    free(notes);
}
END_TEST

/* The file's own include of its generated code is the one place. */
START_TEST(test_existing_include)
{
    char *src = module_source(&cases[0]);
    size_t n = strlen(src) + 64;
    char *late = malloc(n);
    /* the include after the table: the function cannot use it */
    snprintf(late, n, "%s#include \"clinic/m.c.h\"\n", src);
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(late, &stats, &notes);
    ck_assert_uint_eq(stats.converted, 0);
    ck_assert_msg(strstr(notes, "before the file's own #include") != NULL ||
                  strstr(notes, "the file's own #include") != NULL, "%s", notes);
    ck_assert_str_eq(out, late);
    free(out);
    free(notes);
    free(late);
    free(src);
}
END_TEST

/* #if branches that each open a function's brace leave the braces
   counted once: the table after them is still at the top level. */
START_TEST(test_if_branches)
{
    char *src = module_source(&cases[0]);
    const char *branches =
        "#ifdef X\nstatic int g(int a) {\n#else\nstatic int g(long a) {\n#endif\n"
        "    return 0;\n}\n";
    size_t n = strlen(src) + strlen(branches) + 1;
    char *both = malloc(n);
    char *at = strstr(src, "static PyObject *");
    snprintf(both, n, "%.*s%s%s", (int)(at - src), src, branches, at);
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(both, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    free(out);
    free(notes);
    free(both);
    free(src);
}
END_TEST

/* One function behind two entries: METH_NOARGS keeps both, the second
   naming clinic's wrapper with the first's cast; METH_VARARGS (clinic
   writes other flags) leaves it. */
START_TEST(test_aliases)
{
    const char *src =
        "#include \"Python.h\"\n"
        "typedef struct { PyObject_HEAD } AObject;\n"
        "static PyObject *\nA_copy(AObject *self, PyObject *Py_UNUSED(ignored))\n"
        "{\n    return Py_NewRef(self);\n}\n"
        "static PyMethodDef A_methods[] = {\n"
        "    {\"copy\", (PyCFunction)A_copy, METH_NOARGS, \"Copy.\"},\n"
        "    {\"__copy__\", A_copy, METH_NOARGS, \"Copy.\"},\n"
        "    {NULL, NULL}\n};\n"
        CLASS_TYPE("A", "AObject", "A_methods") MODULE_DEF;
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_msg(strstr(out, "    M_A_COPY_METHODDEF\n"
                              "    {\"__copy__\", (PyCFunction)m_A_copy, "
                              "METH_NOARGS, \"Copy.\"},\n") != NULL, "%s", out);
    free(out);
    free(notes);

    const char *varargs =
        "#include \"Python.h\"\n"
        "typedef struct { PyObject_HEAD } AObject;\n"
        "static PyObject *\nA_copy(AObject *self, PyObject *args)\n"
        "{\n    int n = 0;\n    if (!PyArg_ParseTuple(args, \"|i\", &n))\n"
        "        return NULL;\n    return Py_NewRef(self);\n}\n"
        "static PyMethodDef A_methods[] = {\n"
        "    {\"copy\", (PyCFunction)A_copy, METH_VARARGS, \"Copy.\"},\n"
        "    {\"__copy__\", (PyCFunction)A_copy, METH_VARARGS, \"Copy.\"},\n"
        "    {NULL, NULL}\n};\n"
        CLASS_TYPE("A", "AObject", "A_methods") MODULE_DEF;
    memset(&stats, 0, sizeof stats);
    out = convert_source(varargs, &stats, &notes);
    ck_assert_str_eq(out, varargs);
    ck_assert_uint_eq(stats.refused[REFUSE_REFERENCED], 1);
    free(out);
    free(notes);
}
END_TEST

/* A function a macro of the file defines, at a use of the macro at the
   top level: the use written out as the preprocessor expands it ("##",
   "#", the arguments) and converted; a use whose function is left stays
   as it is, with the reason its expansion gave; a function no use
   defines is the file's, not another's. */
START_TEST(test_pasted_by_macro)
{
    const char *src =
        "#include \"Python.h\"\n"
        "#define FUNC(name, doc) static PyObject *m_ ## name(PyObject *m, PyObject *a) \\\n"
        "    { return PyUnicode_FromString(#name); } \\\n"
        "    PyDoc_STRVAR(m_##name##_doc, doc);\n"
        "FUNC(g, \"Two\\n  lines.\")\n"
        "FUNC(f, \"f($module, x, /)\\n--\\n\\nReturn x.\")\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"f\", m_f, METH_O, m_f_doc},\n"
        "    {\"g\", m_g, METH_O, m_g_doc},\n"
        "    {\"h\", m_h, METH_O, \"Doc.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_uint_eq(stats.refused[REFUSE_DOCSTRING], 1);
    ck_assert_uint_eq(stats.refused[REFUSE_HIDDEN_CALL], 1);
    ck_assert_uint_eq(stats.refused[REFUSE_ELSEWHERE], 0);
    ck_assert_msg(strstr(notes, "m_h is defined by a macro that pastes") != NULL,
                  "%s", notes);
    ck_assert_msg(strstr(notes, "(in a macro's expansion)") != NULL, "%s", notes);
    /* the use left, and the define it needs */
    ck_assert_msg(strstr(out, "#define FUNC(name, doc)") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\nFUNC(g, \"Two\\n  lines.\")\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "/*[clinic input]\nm.f\n\n    x as a: object\n    /\n\n"
                         "Return x.\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "{ return PyUnicode_FromString(\"f\"); }\n") != NULL,
                  "%s", out);
    ck_assert_msg(strstr(out, "FUNC(f") == NULL, "%s", out);
    free(out);
    free(notes);

    /* a macro defined twice (one per platform): which definition a use
       takes is not read, so none is written out */
    const char *twice =
        "#include \"Python.h\"\n"
        "#ifdef MS_WINDOWS\n"
        "#define FUNC(name) static PyObject *m_ ## name(PyObject *m, PyObject *Py_UNUSED(a)) \\\n"
        "    { Py_RETURN_TRUE; }\n"
        "#else\n"
        "#define FUNC(name) static PyObject *m_ ## name(PyObject *m, PyObject *Py_UNUSED(a)) \\\n"
        "    { Py_RETURN_FALSE; }\n"
        "#endif\n"
        "FUNC(f)\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"f\", m_f, METH_NOARGS, \"F.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    memset(&stats, 0, sizeof stats);
    out = convert_source(twice, &stats, &notes);
    ck_assert_uint_eq(stats.converted, 0);
    ck_assert_uint_eq(stats.refused[REFUSE_HIDDEN_CALL], 1);
    ck_assert_str_eq(out, twice);
    free(out);
    free(notes);

    /* a "//" comment in a macro comments out the spliced lines after
       it: written out line by line, they would be code */
    const char *line_comment =
        "#include \"Python.h\"\n"
        "#define FUNC(name) static PyObject *m_ ## name(PyObject *m, PyObject *Py_UNUSED(a)) \\\n"
        "    { // a comment \\\n"
        "      Py_RETURN_TRUE; }\n"
        "FUNC(f)\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"f\", m_f, METH_NOARGS, \"F.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    memset(&stats, 0, sizeof stats);
    out = convert_source(line_comment, &stats, &notes);
    ck_assert_uint_eq(stats.converted, 0);
    ck_assert_str_eq(out, line_comment);
    free(out);
    free(notes);

    /* __LINE__ in a macro is the use's line: not the same written out */
    const char *line_macro =
        "#include \"Python.h\"\n"
        "#define FUNC(name) static PyObject *m_ ## name(PyObject *m, PyObject *Py_UNUSED(a)) \\\n"
        "    { \\\n"
        "      return PyLong_FromLong(__LINE__); }\n"
        "FUNC(f)\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"f\", m_f, METH_NOARGS, \"F.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    memset(&stats, 0, sizeof stats);
    out = convert_source(line_macro, &stats, &notes);
    ck_assert_uint_eq(stats.converted, 0);
    ck_assert_str_eq(out, line_macro);
    free(out);
    free(notes);

    /* every use written out: the define goes */
    const char *all =
        "#include \"Python.h\"\n"
        "#define FUNC(name) \\\n"
        "    static PyObject * \\\n"
        "    m_ ## name(PyObject *m, PyObject *Py_UNUSED(a)) \\\n"
        "    { \\\n"
        "        return PyUnicode_FromString(#name); \\\n"
        "    }\n"
        "\n"
        "FUNC(f)\n"
        "FUNC(g)\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"f\", m_f, METH_NOARGS, \"F.\"},\n"
        "    {\"g\", m_g, METH_NOARGS, \"G.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    memset(&stats, 0, sizeof stats);
    out = convert_source(all, &stats, &notes);
    ck_assert_msg(stats.converted == 2, "%s", notes);
    ck_assert_msg(strstr(out, "#define FUNC") == NULL, "%s", out);
    ck_assert_msg(strstr(out, "#include \"Python.h\"\n\n/*[clinic input]\nmodule m\n")
                  != NULL, "%s", out);
    ck_assert_msg(strstr(out, "]*/\n{\n    return PyUnicode_FromString(\"g\");\n}\n\n")
                  != NULL, "%s", out);
    free(out);
    free(notes);
}
END_TEST

/* A PyDoc_STRVAR two converted functions' entries name goes with them;
   one an entry left names stays. */
START_TEST(test_shared_docstring)
{
    const char *src =
        "#include \"Python.h\"\n"
        "PyDoc_STRVAR(reduce_doc, \"Reduce.\");\n\n"
        "static PyObject *\nm_a(PyObject *m, PyObject *Py_UNUSED(ignored))\n"
        "{\n    return Py_NewRef(m);\n}\n\n"
        "static PyObject *\nm_b(PyObject *m, PyObject *Py_UNUSED(ignored))\n"
        "{\n    return Py_NewRef(m);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"a\", m_a, METH_NOARGS, reduce_doc},\n"
        "    {\"b\", m_b, METH_NOARGS, reduce_doc},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 2, "%s", notes);
    ck_assert_msg(strstr(out, "reduce_doc") == NULL, "%s", out);
    free(out);
    free(notes);

    /* b left (its flags): the variable stays for it */
    char *left = strdup(src);
    memcpy(strstr(left, "METH_NOARGS, reduce_doc},\n    {NULL"), "METH_STATIC", 11);
    memset(&stats, 0, sizeof stats);
    out = convert_source(left, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_msg(strstr(out, "PyDoc_STRVAR(reduce_doc, \"Reduce.\");") != NULL, "%s", out);
    free(out);
    free(notes);
    free(left);
}
END_TEST

/* A METH_NOARGS function the file calls keeps its C name (clinic's
   function has its signature): after the include, or declared; a call
   before the include with no declaration leaves it; a function that is
   not static (another file may link to it) is left. */
START_TEST(test_called)
{
    const char *after =
        "#include \"Python.h\"\n"
        "static PyObject *\nm_a(PyObject *m, PyObject *Py_UNUSED(ignored))\n"
        "{\n    return Py_NewRef(m);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"a\", m_a, METH_NOARGS, \"A.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static PyObject *\ncaller(PyObject *m)\n{\n    return m_a(m, NULL);\n}\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(after, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_msg(strstr(out, "/*[clinic input]\nm.a as m_a\n") != NULL, "%s", out);
    ck_assert(strstr(out, "return m_a(m, NULL);") != NULL);
    free(out);
    free(notes);

    /* called before the include: left */
    const char *before =
        "#include \"Python.h\"\n"
        "static PyObject *\nm_a(PyObject *m, PyObject *Py_UNUSED(ignored))\n"
        "{\n    return Py_NewRef(m);\n}\n\n"
        "static PyObject *\ncaller(PyObject *m)\n{\n    return m_a(m, NULL);\n}\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"a\", m_a, METH_NOARGS, \"A.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    memset(&stats, 0, sizeof stats);
    out = convert_source(before, &stats, &notes);
    ck_assert_uint_eq(stats.converted, 0);
    ck_assert_msg(strstr(notes, "it is called before the place") != NULL, "%s", notes);
    ck_assert_str_eq(out, before);
    free(out);
    free(notes);

    /* the same, declared first: converted */
    size_t n = strlen(before) + 128;
    char *declared = malloc(n);
    snprintf(declared, n, "static PyObject *m_a(PyObject *, PyObject *);\n%s", before);
    memset(&stats, 0, sizeof stats);
    out = convert_source(declared, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    free(out);
    free(notes);
    free(declared);

    /* self of the module's type: clinic's function takes a PyObject * in
       3.14 on (FIX_PYOBJECT_SELF), so the call would not match there; in
       3.13 it takes self as written */
    char *typed = strdup(after);
    char *self = strstr(typed, "m_a(PyObject *m,");
    memcpy(self + 4, "ModObject", 9);
    memset(&stats, 0, sizeof stats);
    out = convert_source_in(typed, "3.14", &stats, &notes);
    ck_assert_uint_eq(stats.converted, 0);
    ck_assert_msg(strstr(notes, "its self is no PyObject *") != NULL, "%s", notes);
    free(out);
    free(notes);
    memset(&stats, 0, sizeof stats);
    out = convert_source_in(typed, "3.13", &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_msg(strstr(out, "m.a as m_a\n\n    m: self(type=\"ModObject *\")\n") != NULL,
                  "%s", out);
    free(out);
    free(notes);
    free(typed);

    /* not static */
    char *exported = strdup(after);
    char *st = strstr(exported, "static PyObject *\nm_a(");
    memset(st, ' ', 6);
    memset(&stats, 0, sizeof stats);
    out = convert_source(exported, &stats, &notes);
    ck_assert_uint_eq(stats.converted, 0);
    ck_assert_msg(strstr(notes, "m_a is not static") != NULL, "%s", notes);
    free(out);
    free(notes);
    free(exported);
}
END_TEST

/* A METH_O or METH_NOARGS function named elsewhere than by calls (a
   slot, another table's entry, a comparison) keeps its name too: METH_O's
   function stays where it was, METH_NOARGS's wrapper has the signature
   the uses were written for; a member of its name is none of its uses. */
START_TEST(test_named_elsewhere)
{
    const char *src =
        "#include \"Python.h\"\n"
        "typedef struct { PyObject_HEAD PyObject *m_o; } TObject;\n"
        "static PyObject *\nm_o(PyObject *self, PyObject *key)\n"
        "{\n    return Py_NewRef(key);\n}\n\n"
        "static PyObject *\nm_n(PyObject *self, PyObject *dummy UNUSED)\n"
        "{\n    return Py_NewRef(self);\n}\n\n"
        "static int\nis_o(PyObject *f, TObject *t, HeaderObject *h)\n"
        "{\n    return f == (PyObject *)t->m_o || f == h->m_n;\n}\n\n"
        "static PyMethodDef T_methods[] = {\n"
        "    {\"o\", m_o, METH_O, \"O.\"},\n"
        "    {\"n\", m_n, METH_NOARGS, \"N.\"},\n"
        "    {\"n_o\", m_n, METH_O, NULL},\n"
        "    {NULL, NULL}\n};\n"
        "static PyMappingMethods T_as_mapping = {0, m_o, 0};\n"
        "static PyGetSetDef T_getset[] = {{\"n\", (getter)m_n, NULL, NULL}, {NULL}};\n"
        CLASS_TYPE("T", "TObject", "T_methods") MODULE_DEF;
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 2, "%s", notes);
    ck_assert_msg(strstr(out, "m.T.o as m_o\n\n    key: object\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "m.T.n as m_n\n") != NULL, "%s", out);
    /* the other uses as they were */
    ck_assert(strstr(out, "{0, m_o, 0}") != NULL);
    ck_assert(strstr(out, "(getter)m_n, NULL") != NULL);
    ck_assert(strstr(out, "{\"n_o\", m_n, METH_O, NULL},") != NULL);
    free(out);
    free(notes);

    /* a METH_NOARGS wrapper named before the include, undeclared: left */
    const char *early =
        "#include \"Python.h\"\n"
        "static PyObject *\nm_n(PyObject *self, PyObject *Py_UNUSED(dummy))\n"
        "{\n    return Py_NewRef(self);\n}\n\n"
        "static PyGetSetDef getset[] = {{\"n\", (getter)m_n, NULL, NULL}, {NULL}};\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"n\", m_n, METH_NOARGS, \"N.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    memset(&stats, 0, sizeof stats);
    out = convert_source(early, &stats, &notes);
    ck_assert_uint_eq(stats.converted, 0);
    ck_assert_msg(strstr(notes, "before the place the generated code is included") != NULL,
                  "%s", notes);
    ck_assert_str_eq(out, early);
    free(out);
    free(notes);

    /* the same METH_O: its function stays where it was, converted */
    char *early_o = strdup(early);
    char *flags = strstr(early_o, "METH_NOARGS");
    memcpy(flags, "METH_O     ", 11);
    char *second = strstr(early_o, "PyObject *Py_UNUSED(dummy)");
    memcpy(second, "PyObject *key             ", 26);
    memset(&stats, 0, sizeof stats);
    out = convert_source(early_o, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s\n%s", notes, early_o);
    ck_assert(strstr(out, "(getter)m_n, NULL") != NULL);
    free(out);
    free(notes);
    free(early_o);
}
END_TEST

/* METH_COEXIST: @coexist, so the generated entry's flags are the
   original's; a special method clinic does not convert is left. */
START_TEST(test_coexist)
{
    const char *src =
        "#include \"Python.h\"\n"
        "typedef struct { PyObject_HEAD } TObject;\n"
        "static PyObject *\nT_contains(TObject *self, PyObject *key)\n"
        "{\n    return Py_NewRef(key);\n}\n\n"
        "static PyObject *\nT_getitem(TObject *self, PyObject *key)\n"
        "{\n    return Py_NewRef(key);\n}\n\n"
        "static PyMethodDef T_methods[] = {\n"
        "    {\"__contains__\", (PyCFunction)T_contains, METH_O | METH_COEXIST, \"In.\"},\n"
        "    {\"__getitem__\", (PyCFunction)T_getitem, METH_O | METH_COEXIST, \"Get.\"},\n"
        "    {NULL, NULL}\n};\n"
        CLASS_TYPE("T", "TObject", "T_methods") MODULE_DEF;
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_uint_eq(stats.refused[REFUSE_FLAGS], 1);
    ck_assert_msg(strstr(out, "/*[clinic input]\n@coexist\nm.T.__contains__\n") != NULL,
                  "%s", out);
    ck_assert_msg(strstr(notes, "m.T.__getitem__ left as it is (flags): clinic does not "
                         "convert the special method __getitem__") != NULL, "%s", notes);
    free(out);
    free(notes);
    /* the whole pipeline: the generated entry has both flags */
    ClinicOptions o = {0};
    o.convert = true;
    Clinic *c = clinic_new("m.c", &o);
    ck_assert_int_eq(clinic_process(c, src, strlen(src)), 0);
    ck_assert_uint_eq(c->nfiles, 1);
    ck_assert_msg(strstr(c->files[0].text, "METH_O|METH_COEXIST, m_T___contains____doc__}") != NULL,
                  "%s", c->files[0].text);
    clinic_free(c);
}
END_TEST

/* A hand-written signature line before a first paragraph of more lines
   than one stays as the summary line clinic wants, so that __doc__ is
   what it was; in the "--" form it is not in __doc__, and the first
   sentence is made the summary line. */
START_TEST(test_docstring_long_paragraph)
{
    const char *src =
        "#include \"Python.h\"\n"
        "PyDoc_STRVAR(a_doc, \"a(x)\\n\\nFirst line\\nand second.\\n\\nMore.\");\n\n"
        "static PyObject *\nm_a(PyObject *m, PyObject *x)\n"
        "{\n    return Py_NewRef(x);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"a\", m_a, METH_O, a_doc},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_msg(strstr(out, "    /\n\na(x)\n\nFirst line\nand second.\n\nMore.\n"
                         "[clinic start generated code]*/") != NULL, "%s", out);
    free(out);
    free(notes);

    /* "--": the signature is not in __doc__, the first sentence is the
       summary line */
    const char *dashed =
        "#include \"Python.h\"\n"
        "PyDoc_STRVAR(a_doc, \"a($module, x, /)\\n--\\n\\nFirst line\\nand second.\");\n\n"
        "static PyObject *\nm_a(PyObject *m, PyObject *x)\n"
        "{\n    return Py_NewRef(x);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"a\", m_a, METH_O, a_doc},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    memset(&stats, 0, sizeof stats);
    out = convert_source(dashed, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_msg(strstr(out, "    /\n\nFirst line and second.\n"
                         "[clinic start generated code]*/") != NULL, "%s", out);
    free(out);
    free(notes);

    /* a signature over two lines: the paragraph after it is the first,
       its one sentence made the summary line */
    const char *two =
        "#include \"Python.h\"\n"
        "PyDoc_STRVAR(a_doc, \"a(x,\\n  y)\\n\\nFirst line\\nand second.\");\n\n"
        "static PyObject *\nm_a(PyObject *m, PyObject *x)\n"
        "{\n    return Py_NewRef(x);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"a\", m_a, METH_O, a_doc},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    memset(&stats, 0, sizeof stats);
    out = convert_source(two, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_msg(strstr(out, "    /\n\nFirst line and second.\n"
                         "[clinic start generated code]*/") != NULL, "%s", out);
    free(out);
    free(notes);
}
END_TEST

/* A first paragraph of more lines than one: its first sentence, made
   one line, is the summary line, the rest of the text follows as
   written after a blank line; what the rule cannot make one line of is
   left, with the reason. */
START_TEST(test_docstring_summary)
{
    static const struct {
        const char *doc;       /* the C string literal's text */
        const char *wanted;    /* the block's docstring; NULL: left */
        const char *why;       /* left: in the note */
    } docs[] = {
        /* the first sentence, the rest of its line and paragraph after */
        {"Return x.  The rest\\nof it.\\n\\nMore.",
         "Return x.\n\nThe rest\nof it.\n\nMore.\n", NULL},
        /* a sentence over two lines joined, at a line's end */
        {"Return the value of\\nx.\\nThen more.",
         "Return the value of x.\n\nThen more.\n", NULL},
        /* the paragraph one sentence, with no period */
        {"Return True if so and\\nFalse otherwise", "Return True if so and False otherwise\n",
         NULL},
        /* a period in brackets, an abbreviation, a lowercase word after a
           period, a dotted name: no sentence's end */
        {"Convert to UTC (a.k.a.\\nGMT). Then\\nmore.",
         "Convert to UTC (a.k.a. GMT).\n\nThen\nmore.\n", NULL},
        {"Make e.g. one\\nor two, etc. and so on.  More.",
         "Make e.g. one or two, etc. and so on.\n\nMore.\n", NULL},
        {"Use str.join. Or\\nnot.", "Use str.join. Or not.\n", NULL},
        {"The sign of x. y is\\nnext.", "The sign of x. y is next.\n", NULL},
        /* left */
        {"Return the rows\\n    a  b\\n    c  d", NULL, "runs over an indented line"},
        {"Return a value that is a very long sentence which would not fit on one\\n"
         "line of a hundred columns at all, so it stays as it is.", NULL,
         "wider than 100 columns"},
    };
    for (size_t k = 0; k < sizeof docs / sizeof *docs; k++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "#include \"Python.h\"\n"
                 "PyDoc_STRVAR(a_doc, \"%s\");\n\n"
                 "static PyObject *\nm_a(PyObject *m, PyObject *x)\n"
                 "{\n    return Py_NewRef(x);\n}\n\n"
                 "static PyMethodDef methods[] = {\n"
                 "    {\"a\", m_a, METH_O, a_doc},\n"
                 "    {NULL, NULL}\n};\n"
                 "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n",
                 docs[k].doc);
        ConvertStats stats = {0};
        char *notes;
        char *out = convert_source(src, &stats, &notes);
        if (docs[k].wanted) {
            char want[512];
            snprintf(want, sizeof want, "    /\n\n%s[clinic start generated code]*/",
                     docs[k].wanted);
            ck_assert_msg(stats.converted == 1, "%zu: %s", k, notes);
            ck_assert_msg(strstr(out, want) != NULL, "%zu: lacks\n%s\nin\n%s", k,
                          want, out);
        } else {
            ck_assert_msg(stats.refused[REFUSE_DOCSTRING] == 1, "%zu: %s", k, notes);
            ck_assert_str_eq(out, src);
            ck_assert_msg(strstr(notes, docs[k].why) != NULL, "%zu: %s", k, notes);
        }
        free(out);
        free(notes);
    }
    /* 3.15 holds a summary line to 72 columns (an error past them): a
       longer one, made or given, is left; 3.13 takes it */
    static const char *const wide[] = {
        "Return x, which is given back as it was, the very same object\\n"
        "and not a copy.",
        "Return x, which is given back as it was, the very same object and not a copy.",
    };
    for (size_t k = 0; k < 2; k++)
        for (int d315 = 0; d315 < 2; d315++) {
            char src[1024];
            snprintf(src, sizeof src,
                     "#include \"Python.h\"\n"
                     "static PyObject *\nm_a(PyObject *m, PyObject *x)\n"
                     "{\n    return Py_NewRef(x);\n}\n\n"
                     "static PyMethodDef methods[] = {\n"
                     "    {\"a\", m_a, METH_O, \"%s\"},\n"
                     "    {NULL, NULL}\n};\n"
                     "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n",
                     wide[k]);
            ClinicOptions o = {0};
            o.convert = true;
            o.dialect = dialect_find(d315 ? "3.15" : "3.13");
            ck_assert(o.dialect != NULL);
            Clinic *c = clinic_new("m.c", &o);
            ConvertStats stats = {0};
            size_t len;
            convert_text(c, src, strlen(src), &len, &stats);
            ck_assert_msg(stats.converted == (size_t)!d315, "%zu %d: %s", k, d315,
                          c->diagnostics.buf);
            if (d315)
                ck_assert_msg(strstr(c->diagnostics.buf, "wider than 72 columns") != NULL,
                              "%s", c->diagnostics.buf);
            clinic_free(c);
        }
}
END_TEST

/* Positional-only parameters keep the names the hand-written signature
   gave them (inspect.signature() showed those), the C variables theirs;
   keyword parameters keep their kwlist names. */
START_TEST(test_documented_positional_names)
{
    const char *src =
        "#include \"Python.h\"\n"
        "PyDoc_STRVAR(add_doc, \"add($module, a, b=None, /)\\n--\\n\\nAdd.\");\n\n"
        "static PyObject *\nm_add(PyObject *m, PyObject *args)\n"
        "{\n    PyObject *v, *w = NULL;\n"
        "    if (!PyArg_ParseTuple(args, \"O|O:add\", &v, &w))\n"
        "        return NULL;\n    return Py_NewRef(v);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"add\", m_add, METH_VARARGS, add_doc},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    /* b's NULL shown as the signature showed it, so inspect.signature()
       still reads it */
    ck_assert_msg(strstr(out, "    a as v: object\n"
                              "    b as w: object(c_default=\"NULL\") = None\n    /\n")
                  != NULL, "%s", out);
    free(out);
    free(notes);

    /* a default that is no plain literal: left */
    char *odd = strdup(src);
    char *none = strstr(odd, "b=None");
    memcpy(none, "b=nope", 6);
    memset(&stats, 0, sizeof stats);
    out = convert_source(odd, &stats, &notes);
    ck_assert_uint_eq(stats.refused[REFUSE_DEFAULT], 1);
    ck_assert_msg(strstr(notes, "the signature shows b=nope, where clinic's NULL would be "
                         "<unrepresentable>") != NULL, "%s", notes);
    free(out);
    free(notes);
    free(odd);

    /* names the C variables have in another order: renamed all at once */
    const char *shifted =
        "#include \"Python.h\"\n"
        "PyDoc_STRVAR(fma_doc, \"fma($module, x, y, z, /)\\n--\\n\\nFma.\");\n\n"
        "static PyObject *\nm_fma(PyObject *m, PyObject *args)\n"
        "{\n    PyObject *v, *w, *x;\n"
        "    if (!PyArg_ParseTuple(args, \"OOO:fma\", &v, &w, &x))\n"
        "        return NULL;\n    return Py_NewRef(x);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"fma\", m_fma, METH_VARARGS, fma_doc},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    memset(&stats, 0, sizeof stats);
    out = convert_source(shifted, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_msg(strstr(out, "    x as v: object\n    y as w: object\n"
                              "    z as x: object\n    /\n") != NULL, "%s", out);
    free(out);
    free(notes);

    /* a signature naming more parameters than the format: C names */
    const char *other =
        "#include \"Python.h\"\n"
        "PyDoc_STRVAR(add_doc, \"add($module, a, b, c, /)\\n--\\n\\nAdd.\");\n\n"
        "static PyObject *\nm_add(PyObject *m, PyObject *args)\n"
        "{\n    PyObject *v, *w;\n"
        "    if (!PyArg_ParseTuple(args, \"OO:add\", &v, &w))\n"
        "        return NULL;\n    return Py_NewRef(v);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"add\", m_add, METH_VARARGS, add_doc},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    memset(&stats, 0, sizeof stats);
    out = convert_source(other, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_msg(strstr(out, "    v: object\n    w: object\n    /\n") != NULL,
                  "%s", out);
    free(out);
    free(notes);
}
END_TEST

/* The module's name a macro of a header beside the file gives. */
static int read_header(void *userdata, const char *path, char **data,
                       size_t *len)
{
    (void)userdata;
    if (strcmp(path, "dir/mod.h")) {
        errno = ENOENT;
        return -1;
    }
    *data = strdup("#ifndef MOD_H\n#define MOD_H\n#define MOD_NAME \"_mod\"\n"
                   "PyDoc_STRVAR(doc_b, \"b($module, /)\\n--\\n\\nB from the header.\");\n"
                   "PyDoc_STRVAR(doc_c, \"C from\\n  the header.\");\n"
                   "static PyObject *\nm_h(PyObject *m, PyObject *x)\n{\n    return x;\n}\n"
                   "#endif\n");
    *len = strlen(*data);
    return 0;
}

START_TEST(test_module_name_in_header)
{
    const char *src =
        "#include \"Python.h\"\n"
        "#include \"mod.h\"\n"
        "static PyObject *\nm_a(PyObject *m, PyObject *x)\n"
        "{\n    return Py_NewRef(x);\n}\n\n"
        "static PyObject *\nm_b(PyObject *m, PyObject *x)\n"
        "{\n    return Py_NewRef(x);\n}\n\n"
        "static PyObject *\nm_c(PyObject *m, PyObject *Py_UNUSED(x))\n"
        "{\n    return Py_NewRef(m);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"a\", m_a, METH_O, \"A.\"},\n"
        "    {\"b\", m_b, METH_O, doc_b},\n"
        "    {\"c\", (PyCFunction)m_c, METH_NOARGS, doc_c},\n"
        "    {\"h\", m_h, METH_O, \"H.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, MOD_NAME, NULL, -1, methods};\n";
    for (int with_reader = 0; with_reader < 2; with_reader++) {
        ClinicOptions o = {0};
        o.convert = true;
        if (with_reader)
            o.read_file = read_header;
        Clinic *c = clinic_new("dir/mod.c", &o);
        ConvertStats stats = {0};
        size_t len;
        const char *out = convert_text(c, src, strlen(src), &len, &stats);
        if (with_reader) {
            ck_assert_msg(stats.converted == 2, "%s", c->diagnostics.buf);
            ck_assert_uint_eq(stats.refused[REFUSE_DOCSTRING], 1);
            /* a function the header defines is the header's */
            ck_assert_uint_eq(stats.refused[REFUSE_ELSEWHERE], 1);
            ck_assert_msg(strstr(c->diagnostics.buf, "m_h is defined in mod.h") != NULL,
                          "%s", c->diagnostics.buf);
            /* the header's docstring taken, the header named */
            ck_assert_msg(strstr(out, "\n_mod.b\n\n    x: object\n    /\n\nB from the header.\n") != NULL,
                          "%s", out);
            ck_assert_msg(strstr(c->diagnostics.buf, "took from mod.h are named "
                                 "by nothing now: doc_b\n") != NULL,
                          "%s", c->diagnostics.buf);
            ck_assert_msg(strstr(out, "module _mod\n") != NULL, "%s", out);
            ck_assert_msg(strstr(out, "\n_mod.a\n") != NULL, "%s", out);
        } else {
            ck_assert_uint_eq(stats.refused[REFUSE_OWNER], 4);
        }
        clinic_free(c);
    }
}
END_TEST

/* A table no PyModuleDef or type names belongs to the module or class
   of the clinic functions whose _METHODDEF it holds already. */
START_TEST(test_owner_from_blocks)
{
    const char *src =
        "#include \"Python.h\"\n"
        "/*[clinic input]\nmodule m\nclass m.C \"CObject *\" \"&C_Type\"\n"
        "[clinic start generated code]*/\n\n"
        "/*[clinic input]\nm.a as m_a_c\n\n[clinic start generated code]*/\n\n"
        "/*[clinic input]\nm.C.x\n\n[clinic start generated code]*/\n\n"
        "static PyObject *\nm_b(PyObject *m, PyObject *x)\n"
        "{\n    return Py_NewRef(x);\n}\n\n"
        "static PyObject *\nc_y(CObject *self, PyObject *Py_UNUSED(ignored))\n"
        "{\n    Py_RETURN_NONE;\n}\n\n"
        "PyMethodDef methods[] = {\n"
        "    M_A_C_METHODDEF\n"
        "    {\"b\", m_b, METH_O, \"B.\"},\n"
        "    {NULL, NULL}\n};\n"
        "PyMethodDef c_methods[] = {\n"
        "    M_C_X_METHODDEF\n"
        "    {\"y\", (PyCFunction)c_y, METH_NOARGS, \"Y.\"},\n"
        "    {NULL, NULL}\n};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 2, "%s", notes);
    ck_assert_msg(strstr(out, "/*[clinic input]\nm.b\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "/*[clinic input]\nm.C.y\n") != NULL, "%s", out);
    free(out);
    free(notes);

    /* two owners in one table: none */
    char *mixed = malloc(strlen(src) + 32);
    const char *cut = strstr(src, "    M_A_C_METHODDEF\n");
    sprintf(mixed, "%.*s    M_C_X_METHODDEF\n%s", (int)(cut - src), src, cut);
    memset(&stats, 0, sizeof stats);
    out = convert_source(mixed, &stats, &notes);
    ck_assert_msg(stats.refused[REFUSE_OWNER] == 1 && stats.converted == 1, "%s", notes);
    free(out);
    free(notes);
    free(mixed);
}
END_TEST

/* O&'s function and O!'s type object are named by the generated code:
   a function defined after the file's own include of it is declared
   ahead by its prototype; a type object defined there leaves the
   function; declared before, it is converted as it is. */
START_TEST(test_converter_before_include)
{
    const char *src =
        "#include \"Python.h\"\n"
        "DECL"
        "#include \"clinic/m.c.h\"\n\n"
        "static int\nconv(PyObject *o,\n     void *p)\n{\n    *(int *)p = 1;\n    return 1;\n}\n\n"
        "static PyTypeObject T_Type = {0};\n\n"
        "static PyObject *\nm_a(PyObject *m, PyObject *args)\n"
        "{\n    int x;\n    if (!PyArg_ParseTuple(args, \"O&\", conv, &x))\n"
        "        return NULL;\n    return PyLong_FromLong(x);\n}\n\n"
        "static PyObject *\nm_b(PyObject *m, PyObject *args)\n"
        "{\n    PyObject *t;\n    if (!PyArg_ParseTuple(args, \"O!\", &T_Type, &t))\n"
        "        return NULL;\n    return Py_NewRef(t);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"a\", m_a, METH_VARARGS, \"A.\"},\n"
        "    {\"b\", m_b, METH_VARARGS, \"B.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    for (int declared = 0; declared < 2; declared++) {
        const char *decl = declared ? "static PyTypeObject T_Type;\n" : "";
        char *text = malloc(strlen(src) + strlen(decl) + 1);
        const char *at = strstr(src, "DECL");
        sprintf(text, "%.*s%s%s", (int)(at - src), src, decl, at + 4);
        ConvertStats stats = {0};
        char *notes;
        char *out = convert_source(text, &stats, &notes);
        ck_assert_msg(strstr(out, "static int conv(PyObject *o, void *p);\n\n"
                             "#include \"clinic/m.c.h\"\n") != NULL, "%s", out);
        if (declared) {
            ck_assert_msg(stats.converted == 2, "%s", notes);
        } else {
            ck_assert_msg(stats.converted == 1, "%s", notes);
            ck_assert_msg(strstr(notes, "T_Type, which its generated code names") != NULL,
                          "%s", notes);
        }
        free(out);
        free(notes);
        free(text);
    }
}
END_TEST

/* O&'s function the file declares takes a void * or a pointer to the
   variable's type, or the call clinic writes of it would warn. */
START_TEST(test_converter_parameter_type)
{
    const char *src =
        "#include \"Python.h\"\n"
        "static int\nconv(PyObject *o, void **p)\n{\n    *p = o;\n    return 1;\n}\n\n"
        "static PyObject *\nm_a(PyObject *m, PyObject *args)\n"
        "{\n    TYPE x;\n    if (!PyArg_ParseTuple(args, \"O&\", conv, &x))\n"
        "        return NULL;\n    return Py_NewRef((PyObject *)x);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"a\", m_a, METH_VARARGS, \"A.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    for (int k = 0; k < 2; k++) {
        const char *type = k ? "PyObject *" : "void *";
        char *text = malloc(strlen(src) + 16);
        const char *at = strstr(src, "TYPE");
        sprintf(text, "%.*s%s%s", (int)(at - src), src, type, at + 4);
        ConvertStats stats = {0};
        char *notes;
        char *out = convert_source(text, &stats, &notes);
        if (k) {
            ck_assert_uint_eq(stats.refused[REFUSE_TYPE], 1);
            ck_assert_str_eq(out, text);
        } else {
            ck_assert_msg(stats.converted == 1, "%s", notes);
        }
        free(out);
        free(notes);
        free(text);
    }
}
END_TEST

/* tp_new and tp_init become clinic's __new__ and __init__, the slots
   naming clinic's parsers by the functions' names; one that ignores
   its keywords (PyArg_ParseTuple) is left; one that parses nothing by
   hand is not counted. */
START_TEST(test_slots)
{
    const char *src =
        "#include \"Python.h\"\n"
        "typedef struct { PyObject_HEAD long n; } TObject;\n"
        "static PyObject *\nt_new(PyTypeObject *type, PyObject *args, PyObject *kwds)\n"
        "{\n    static char *kwlist[] = {\"n\", NULL};\n    long n = 0;\n"
        "    if (!PyArg_ParseTupleAndKeywords(args, kwds, \"|l\", kwlist, &n))\n"
        "        return NULL;\n    return type->tp_alloc(type, 0);\n}\n\n"
        "static int\nt_init(TObject *self, PyObject *args, PyObject *kwds)\n"
        "{\n    static char *kwlist[] = {\"n\", NULL};\n    long n = 0;\n"
        "    if (!PyArg_ParseTupleAndKeywords(args, kwds, \"|l\", kwlist, &n)) {\n"
        "        return -1;\n    }\n    self->n = n;\n    return 0;\n}\n\n"
        "static PyObject *\nu_new(PyTypeObject *type, PyObject *args, PyObject *kwds)\n"
        "{\n    long n;\n    if (!PyArg_ParseTuple(args, \"l\", &n))\n"
        "        return NULL;\n    return type->tp_alloc(type, 0);\n}\n\n"
        "static int\nu_init(PyObject *self, PyObject *args, PyObject *kwds)\n"
        "{\n    return 0;\n}\n\n"
        "static PyTypeObject T_Type = {\n    PyVarObject_HEAD_INIT(NULL, 0)\n"
        "    .tp_name = \"m.T\",\n    .tp_new = t_new,\n    .tp_init = (initproc)t_init,\n};\n"
        "static PyType_Slot u_slots[] = {\n    {Py_tp_new, u_new},\n"
        "    {Py_tp_init, u_init},\n    {0, NULL}\n};\n"
        "static PyType_Spec u_spec = {\"m.U\", 0, 0, 0, u_slots};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 2, "%s", notes);
    ck_assert_uint_eq(stats.refused[REFUSE_FLAGS], 1);
    ck_assert_msg(strstr(notes, "m.U.__new__ left as it is (flags): PyArg_ParseTuple "
                         "ignores the keywords tp_new takes") != NULL, "%s", notes);
    ck_assert_msg(strstr(notes, "__init__ left") == NULL, "%s", notes);
    ck_assert_msg(strstr(out, "/*[clinic input]\n@classmethod\nm.T.__new__ as t_new\n\n"
                         "    n: long = 0\n[clinic start generated code]*/\n") != NULL,
                  "%s", out);
    ck_assert_msg(strstr(out, "/*[clinic input]\nm.T.__init__ as t_init\n\n"
                         "    n: long = 0\n[clinic start generated code]*/\n") != NULL,
                  "%s", out);
    /* the slots as they were */
    ck_assert_msg(strstr(out, "    .tp_new = t_new,\n    .tp_init = (initproc)t_init,\n")
                  != NULL, "%s", out);
    ck_assert_msg(strstr(out, "    self->n = n;\n    return 0;\n}\n") != NULL, "%s", out);
    free(out);
    free(notes);

    /* a slot function declared ahead and called by name: clinic's parser
       keeps its name and signature, so both still hold; called before
       the include without the declaration, it is left */
    const char *called =
        "#include \"Python.h\"\n"
        "static PyObject *t_new(PyTypeObject *type, PyObject *args, PyObject *kwds);\n"
        "static PyObject *\nmake(PyTypeObject *t, PyObject *args)\n"
        "{\n    return t_new(t, args, NULL);\n}\n\n"
        "static PyObject *\nt_new(PyTypeObject *type, PyObject *args, PyObject *kwds)\n"
        "{\n    static char *kwlist[] = {\"n\", NULL};\n    long n = 0;\n"
        "    if (!PyArg_ParseTupleAndKeywords(args, kwds, \"|l\", kwlist, &n))\n"
        "        return NULL;\n    return type->tp_alloc(type, 0);\n}\n\n"
        "static PyType_Slot t_slots[] = {\n    {Py_tp_new, t_new},\n    {0, NULL}\n};\n"
        "static PyType_Spec t_spec = {\"m.T\", 0, 0, 0, t_slots};\n";
    for (int with_prototype = 1; with_prototype >= 0; with_prototype--) {
        const char *text = with_prototype ? called : strchr(called, '\n') + 1;
        char *whole = with_prototype ? strdup(called)
                                     : (char *)malloc(strlen(text) + 32);
        if (!with_prototype)
            sprintf(whole, "#include \"Python.h\"\n%s", strchr(text, '\n') + 1);
        memset(&stats, 0, sizeof stats);
        out = convert_source(whole, &stats, &notes);
        if (with_prototype) {
            ck_assert_msg(stats.converted == 1, "%s", notes);
            ck_assert(strstr(out, "m.T.__new__ as t_new\n") != NULL);
            ck_assert(strstr(out, "    return t_new(t, args, NULL);\n") != NULL);
        } else {
            ck_assert_msg(stats.converted == 0, "%s", notes);
            ck_assert_msg(strstr(notes, "it is called before the place") != NULL,
                          "%s", notes);
        }
        free(out);
        free(notes);
        free(whole);
    }

    /* a tp_init declared with its own self type: clinic's parser takes a
       PyObject *, which the declaration would contradict */
    const char *init =
        "#include \"Python.h\"\n"
        "typedef struct { PyObject_HEAD long n; } TObject;\n"
        "static int t_init(TObject *self, PyObject *args, PyObject *kwds);\n"
        "static int\nt_init(TObject *self, PyObject *args, PyObject *kwds)\n"
        "{\n    static char *kwlist[] = {\"n\", NULL};\n    long n = 0;\n"
        "    if (!PyArg_ParseTupleAndKeywords(args, kwds, \"|l\", kwlist, &n))\n"
        "        return -1;\n    self->n = n;\n    return 0;\n}\n\n"
        "static PyType_Slot t_slots[] = {\n    {Py_tp_init, t_init},\n    {0, NULL}\n};\n"
        "static PyType_Spec t_spec = {\"m.T\", 0, 0, 0, t_slots};\n";
    memset(&stats, 0, sizeof stats);
    out = convert_source(init, &stats, &notes);
    ck_assert_uint_eq(stats.refused[REFUSE_REFERENCED], 1);
    ck_assert_msg(strstr(notes, "its self is no PyObject *, which clinic's function "
                         "takes\n") != NULL, "%s", notes);
    free(out);
    free(notes);
}
END_TEST

/* METH_NOARGS's second parameter with a macro after its name ("PyObject
   *dummy UNUSED"): unused though the body names its type. */
START_TEST(test_noargs_unused_macro)
{
    const char *src =
        "#include \"Python.h\"\n"
        "#define UNUSED __attribute__((unused))\n"
        "static PyObject *\nm_a(PyObject *m, PyObject *dummy UNUSED)\n"
        "{\n    PyObject *r = m;\n    return Py_NewRef(r);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"a\", m_a, METH_NOARGS, \"A.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    free(out);
    free(notes);

    /* the name used: left */
    char *used = strdup(src);
    char *r = strstr(used, "PyObject *r = m;");
    memcpy(r + 14, "dummy", 5);
    r[19] = ';';
    memset(&stats, 0, sizeof stats);
    out = convert_source(used, &stats, &notes);
    ck_assert_msg(stats.converted == 0, "%s", out);
    free(out);
    free(notes);
    free(used);
}
END_TEST

/* A METH_VARARGS function that hands its tuple to a function of the
   file: *args when that function parses nothing, left when it (or a
   function handed along, or a macro of the file) parses; "*args: tuple"
   where the dialect calls it so. */
static const char *const star_args_src =
    "#include \"Python.h\"\n"
    "#define PARSE_PAIR(a, x, y) PyArg_ParseTuple(a, \"ii\", x, y)\n"
    "static PyObject *\nsum(PyObject *t)\n{\n    return PySequence_List(t);\n}\n\n"
    "static PyObject *\npair(PyObject *t, int r)\n{\n    int x, y;\n"
    "    if (!PyArg_ParseTuple(t, \"ii\", &x, &y))\n        return NULL;\n"
    "    return PyLong_FromLong(r ? y : x);\n}\n\n"
    "static PyObject *\ninvoke(PyObject *(*fn)(PyObject *, int), PyObject *t)\n"
    "{\n    return fn(t, 1);\n}\n\n"
    "static PyObject *\nm_a(PyObject *m, PyObject *args)\n{\n    return sum(args);\n}\n\n"
    "static PyObject *\nm_b(PyObject *m, PyObject *args)\n{\n    return pair(args, 0);\n}\n\n"
    "static PyObject *\nm_c(PyObject *m, PyObject *args)\n{\n    return invoke(pair, args);\n}\n\n"
    "static PyObject *\nm_d(PyObject *m, PyObject *args)\n{\n    int x, y;\n"
    "    return PARSE_PAIR(args, &x, &y) ? PyLong_FromLong(x) : NULL;\n}\n\n"
    "static PyMethodDef methods[] = {\n"
    "    {\"a\", m_a, METH_VARARGS, \"A.\"},\n"
    "    {\"b\", m_b, METH_VARARGS, \"B.\"},\n"
    "    {\"c\", m_c, METH_VARARGS, \"C.\"},\n"
    "    {\"d\", m_d, METH_VARARGS, \"D.\"},\n"
    "    {NULL, NULL}\n};\n"
    "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";

START_TEST(test_star_args)
{
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(star_args_src, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_uint_eq(stats.refused[REFUSE_HIDDEN_CALL], 3);
    ck_assert_msg(strstr(out, "/*[clinic input]\nm.a\n\n    *args: object\n") != NULL,
                  "%s", out);
    ck_assert_msg(strstr(notes, "m.b left as it is (hidden-call): no PyArg_Parse* "
                         "call in the body: m_b hands args to pair, which parses"),
                  "%s", notes);
    ck_assert_msg(strstr(notes, "m.c left as it is (hidden-call): no PyArg_Parse* "
                         "call in the body: m_c hands args to pair, which parses"),
                  "%s", notes);
    ck_assert_msg(strstr(notes, "m_d hands args to PARSE_PAIR, which parses"),
                  "%s", notes);
    free(out);
    free(notes);

    ClinicOptions o = {0};
    o.convert = true;
    Clinic *c = clinic_new("m.c", &o);
    c->dialect = dialect_find("3.14");
    ck_assert_ptr_nonnull(c->dialect);
    size_t len;
    memset(&stats, 0, sizeof stats);
    const char *text = convert_text(c, star_args_src, strlen(star_args_src),
                                    &len, &stats);
    ck_assert_msg(strstr(text, "m.a\n\n    *args: tuple\n") != NULL, "%s", text);
    clinic_free(c);
}
END_TEST

/* A METH_O function's parse call parses its argument, not the call's
   arguments: converted with one object parameter, its body whole.
   METH_NOARGS that parses: left. */
START_TEST(test_o_parses_its_argument)
{
    const char *src =
        "#include \"Python.h\"\n"
        "static PyObject *\nm_set(PyObject *m, PyObject *state)\n{\n    int a, b;\n"
        "    if (!PyArg_ParseTuple(state, \"ii\", &a, &b))\n        return NULL;\n"
        "    return PyLong_FromLong(a + b);\n}\n\n"
        "static PyObject *\nm_none(PyObject *m, PyObject *unused)\n{\n    int a;\n"
        "    if (!PyArg_ParseTuple(m, \"i\", &a))\n        return NULL;\n"
        "    return PyLong_FromLong(a);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"set\", m_set, METH_O, \"Set.\"},\n"
        "    {\"none\", m_none, METH_NOARGS, \"None.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_uint_eq(stats.refused[REFUSE_TWO_PARSE_CALLS], 1);
    ck_assert_msg(strstr(out, "m.set\n\n    state: object\n    /\n\nSet.\n") != NULL,
                  "%s", out);
    ck_assert(strstr(out, "Set.\n[clinic start generated code]*/\n{\n    int a, b;\n"
                     "    if (!PyArg_ParseTuple(state, \"ii\", &a, &b))\n"
                     "        return NULL;\n") != NULL);
    ck_assert_msg(strstr(notes, "m.none left as it is (two-parse-calls)"), "%s",
                  notes);
    free(out);
    free(notes);
}
END_TEST

/* A hand-written signature line followed by more lines of the first
   paragraph: that paragraph is more than a summary line, and what
   follows the signature stays in __doc__ (left, not emptied). */
START_TEST(test_signature_line_then_more)
{
    const char *src =
        "#include \"Python.h\"\n"
        "static PyObject *\nm_g(PyObject *m, PyObject *args)\n{\n"
        "    return Py_NewRef(args);\n}\n\n"
        "static PyObject *\nm_h(PyObject *m, PyObject *args)\n{\n"
        "    return Py_NewRef(args);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"g\", m_g, METH_VARARGS, \"g(x) -> y\\n    Return y.\"},\n"
        "    {\"h\", m_h, METH_VARARGS, \"h(x) -> y\\n\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_uint_eq(stats.refused[REFUSE_DOCSTRING], 1);
    ck_assert_msg(strstr(notes, "m.g left as it is (docstring)"), "%s", notes);
    ck_assert_msg(strstr(out, "m.h\n\n    *args: object\n[clinic start") != NULL,
                  "%s", out);
    free(out);
    free(notes);
}
END_TEST

/* Owners read in more forms: a type a macro's use defines, a PyType_Spec
   named MODNAME ".Name" (MODNAME one string per platform: the module
   the blocks declare), a static type whose name is positional and the
   rest designated, a module named Py_STRINGIFY(NAME). */
START_TEST(test_owner_forms)
{
    const char *src =
        "#include \"Python.h\"\n"
        "#ifdef MS_WINDOWS\n#  define MODNAME \"nt\"\n#else\n#  define MODNAME \"posix\"\n#endif\n"
        "#define MODULE_NAME _mine\n"
        "#define MODULE_NAME_STR Py_STRINGIFY(MODULE_NAME)\n"
        "#define MAKE_TYPE(NAME, METHODS) \\\n"
        "static PyTypeObject NAME##_Type = { \\\n"
        "    PyVarObject_HEAD_INIT(NULL, 0) \\\n"
        "    .tp_name = #NAME, \\\n"
        "    .tp_methods = METHODS, \\\n"
        "}\n"
        "/*[clinic input]\nmodule os\n[clinic start generated code]*/\n\n"
        "static PyObject *\na_x(PyObject *self, PyObject *Py_UNUSED(ignored))\n"
        "{\n    Py_RETURN_NONE;\n}\n\n"
        "static PyObject *\nb_y(PyObject *self, PyObject *Py_UNUSED(ignored))\n"
        "{\n    Py_RETURN_NONE;\n}\n\n"
        "static PyObject *\nc_z(PyObject *self, PyObject *Py_UNUSED(ignored))\n"
        "{\n    Py_RETURN_NONE;\n}\n\n"
        "static PyObject *\nm_w(PyObject *m, PyObject *Py_UNUSED(ignored))\n"
        "{\n    Py_RETURN_NONE;\n}\n\n"
        "static PyMethodDef a_methods[] = {\n"
        "    {\"x\", a_x, METH_NOARGS, \"X.\"},\n    {NULL, NULL}\n};\n"
        "MAKE_TYPE(Made, a_methods);\n\n"
        "static PyMethodDef b_methods[] = {\n"
        "    {\"y\", b_y, METH_NOARGS, \"Y.\"},\n    {NULL, NULL}\n};\n"
        "static PyType_Slot b_slots[] = {\n    {Py_tp_methods, b_methods},\n    {0, 0}\n};\n"
        "static PyType_Spec b_spec = {\n    MODNAME \".Spec\",\n    0, 0, 0, b_slots\n};\n\n"
        "static PyMethodDef c_methods[] = {\n"
        "    {\"z\", c_z, METH_NOARGS, \"Z.\"},\n    {NULL, NULL}\n};\n"
        "PyTypeObject C_Type = {\n    PyVarObject_HEAD_INIT(&PyType_Type, 0)\n    \"CType\",\n"
        "    .tp_methods = c_methods,\n};\n\n"
        "static PyMethodDef m_methods[] = {\n"
        "    {\"w\", m_w, METH_NOARGS, \"W.\"},\n    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {\n    PyModuleDef_HEAD_INIT,\n"
        "    .m_name = MODULE_NAME_STR,\n    .m_methods = m_methods,\n};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 4, "%s", notes);
    /* a name with no dot: of the file's module */
    ck_assert_msg(strstr(out, "/*[clinic input]\n_mine.Made.x\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "/*[clinic input]\nos.Spec.y\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "/*[clinic input]\n_mine.CType.z\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "/*[clinic input]\n_mine.w\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "class _mine.Made \"PyObject *\" \"&Made_Type\"\n") != NULL,
                  "%s", out);
    free(out);
    free(notes);
}
END_TEST

/* The generated code of dir/m.c as it is: it names the type the
   userdata names. */
static int read_generated(void *userdata, const char *path, char **data,
                          size_t *len)
{
    if (strcmp(path, "dir/clinic/m.c.h")) {
        errno = ENOENT;
        return -1;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "static PyObject *\nm_A_y_impl(%s *self);\n"
             "static PyObject *\nm_A_y(%s *self, PyObject *Py_UNUSED(ignored))\n"
             "{\n    return m_A_y_impl(self);\n}\n", (const char *)userdata,
             (const char *)userdata);
    *data = strdup(buf);
    *len = strlen(*data);
    return 0;
}

/* A table before the file's own include of its generated code: the
   include moves up before it when what the generated code names now
   is declared there; it stays (and the function is left) otherwise. */
START_TEST(test_include_moved)
{
    const char *src =
        "#include \"Python.h\"\n"
        "typedef struct { PyObject_HEAD int x; } AObject;\n"
        "/*[clinic input]\nmodule m\nclass m.A \"AObject *\" \"&A_Type\"\n"
        "[clinic start generated code]*/\n\n"
        "static PyObject *\na_x(AObject *self, PyObject *Py_UNUSED(ignored))\n"
        "{\n    Py_RETURN_NONE;\n}\n\n"
        "static PyMethodDef a_methods[] = {\n"
        "    {\"x\", (PyCFunction)a_x, METH_NOARGS, \"X.\"},\n"
        "    M_A_Y_METHODDEF\n"
        "    {NULL, NULL}\n};\n\n"
        "typedef struct { int y; } Late;\n\n"
        "#include \"clinic/m.c.h\"\n\n"
        "/*[clinic input]\nm.A.y\n[clinic start generated code]*/\n";
    for (int k = 0; k < 3; k++) {
        ClinicOptions o = {0};
        o.convert = true;
        if (k) {
            o.read_file = read_generated;
            o.read_userdata = k == 1 ? "AObject" : "Late";
        }
        Clinic *c = clinic_new("dir/m.c", &o);
        ConvertStats stats = {0};
        size_t len;
        const char *out = convert_text(c, src, strlen(src), &len, &stats);
        const char *inc = strstr(out, "#include \"clinic/m.c.h\"");
        const char *table = strstr(out, "static PyMethodDef a_methods");
        ck_assert(inc && table);
        if (k == 1) {
            ck_assert_msg(stats.converted == 1, "%s", c->diagnostics.buf);
            ck_assert_msg(inc < table, "%s", out);
            /* once */
            ck_assert_ptr_null(strstr(inc + 1, "#include \"clinic/m.c.h\""));
            ck_assert_msg(strstr(out, "} Late;\n\n/*[clinic input]\nm.A.y\n") != NULL,
                          "%s", out);
        } else {
            ck_assert_msg(stats.refused[REFUSE_SHAPE] == 1, "%s", c->diagnostics.buf);
            ck_assert(out == src);
        }
        clinic_free(c);
    }
}
END_TEST

/* A file-scope kwlist two functions name goes when both are converted;
   it stays when one is left. */
START_TEST(test_shared_kwlist)
{
    const char *src =
        "#include \"Python.h\"\n"
        "static char *kwlist[] = {\"a\", NULL};\n\n"
        "static PyObject *\nm_f(PyObject *m, PyObject *args, PyObject *kw)\n{\n"
        "    int a;\n    if (!PyArg_ParseTupleAndKeywords(args, kw, \"i\", kwlist, &a))\n"
        "        return NULL;\n    return PyLong_FromLong(a);\n}\n\n"
        "static PyObject *\nm_g(PyObject *m, PyObject *args, PyObject *kw)\n{\n"
        "    int a;\n    if (!PyArg_ParseTupleAndKeywords(args, kw, \"i\", kwlist, &a))\n"
        "        return NULL;\n    return PyLong_FromLong(-a);\n}\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"f\", (PyCFunction)(void(*)(void))m_f, METH_VARARGS | METH_KEYWORDS, \"F.\"},\n"
        "    {\"g\", (PyCFunction)(void(*)(void))m_g, METH_VARARGS | METH_KEYWORDS, DOC},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    /* g's docstring is no literal: g is left, the kwlist stays */
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert(strstr(out, "static char *kwlist[] = {\"a\", NULL};\n") != NULL);
    free(out);
    free(notes);
    char *both = strdup(src);
    memcpy(strstr(both, "DOC}"), "\"G\"", 3);
    memset(&stats, 0, sizeof stats);
    out = convert_source(both, &stats, &notes);
    ck_assert_msg(stats.converted == 2, "%s", notes);
    ck_assert_msg(strstr(out, "kwlist") == NULL, "%s", out);
    free(out);
    free(notes);
    free(both);
}
END_TEST

/* A member of the docstring variable's name ("p->f_doc") is no use of
   it: the PyDoc_STRVAR goes with the conversion. */
START_TEST(test_member_of_docstring_name)
{
    const char *src =
        "#include \"Python.h\"\n"
        "#include \"s.h\"\n"
        "extern struct s *sp;\n"
        "static PyObject *\nm_f(PyObject *m, PyObject *x)\n{\n"
        "    return PyLong_FromLong(sp->f_doc + (*sp).f_doc);\n}\n\n"
        "PyDoc_STRVAR(f_doc, \"F.\");\n\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"f\", m_f, METH_O, f_doc},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_msg(strstr(out, "PyDoc_STRVAR") == NULL, "%s", out);
    free(out);
    free(notes);
}
END_TEST

/* A function before the file's block declaring its class: a block of
   declarations only moves up before it; a block that also holds a
   function stays, and the function is left. */
START_TEST(test_declarations_moved)
{
    const char *src =
        "#include \"Python.h\"\n"
        "static PyObject *\nc_x(CObject *self, PyObject *Py_UNUSED(ignored))\n"
        "{\n    Py_RETURN_NONE;\n}\n\n"
        "/*[clinic input]\nmodule m\nclass m.C \"CObject *\" \"&C_Type\"\n"
        "[clinic start generated code]*/\n"
        "/*[clinic end generated code: output=da39a3ee5e6b4b0d input=0]*/\n\n"
        "static PyMethodDef c_methods[] = {\n"
        "    {\"x\", (PyCFunction)c_x, METH_NOARGS, \"X.\"},\n"
        "    {NULL, NULL}\n};\n"
        CLASS_TYPE("C", "CObject", "c_methods");
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.converted == 1, "%s", notes);
    ck_assert_msg(strstr(out, "#include \"Python.h\"\n/*[clinic input]\nmodule m\n"
                         "class m.C \"CObject *\" \"&C_Type\"\n[clinic start generated code]*/\n"
                         "/*[clinic end generated code: output=da39a3ee5e6b4b0d input=0]*/\n\n"
                         "/*[clinic input]\nm.C.x\n") != NULL, "%s", out);
    /* once */
    ck_assert_ptr_null(strstr(strstr(out, "class m.C") + 1, "class m.C"));
    free(out);
    free(notes);

    char *with_function = strdup(src);
    char *cls = strstr(with_function, "class m.C");
    memcpy(cls - 9, "m.f     \n", 9);   /* "module m\n" becomes a function */
    memset(&stats, 0, sizeof stats);
    out = convert_source(with_function, &stats, &notes);
    ck_assert_msg(stats.refused[REFUSE_SHAPE] == 1, "%s", notes);
    free(out);
    free(notes);
    free(with_function);
}
END_TEST

/* A name a macro's "##" run can spell is left as pasted (hidden-call);
   one it cannot (the run's fixed fragments are not all in it) is
   another file's. */
START_TEST(test_pasted_run)
{
    const char *src =
        "#include \"Python.h\"\n"
        "#define PASTE(X) static PyObject *Py ## X ## Object(PyObject *m, PyObject *o) { return o; }\n"
        "static PyMethodDef methods[] = {\n"
        "    {\"a\", PyFooObject, METH_O, \"A.\"},\n"
        "    {\"b\", Py_GenericAlias, METH_O, \"B.\"},\n"
        "    {NULL, NULL}\n};\n"
        "static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, \"m\", NULL, -1, methods};\n";
    ConvertStats stats = {0};
    char *notes;
    char *out = convert_source(src, &stats, &notes);
    ck_assert_msg(stats.refused[REFUSE_HIDDEN_CALL] == 1 &&
                  stats.refused[REFUSE_ELSEWHERE] == 1, "%s", notes);
    ck_assert_msg(strstr(notes, "m.b left as it is (defined-elsewhere)") != NULL,
                  "%s", notes);
    free(out);
    free(notes);
}
END_TEST

static Suite *convert_suite(void)
{
    Suite *s = suite_create("convert");
    TCase *tc = tcase_create("convert");
    tcase_add_loop_test(tc, test_case, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, test_units);
    tcase_add_test(tc, test_comments_and_strings);
    tcase_add_test(tc, test_only);
    tcase_add_test(tc, test_process_twice);
    tcase_add_test(tc, test_include_place);
    tcase_add_test(tc, test_classmethod);
    tcase_add_test(tc, test_existing_include);
    tcase_add_test(tc, test_if_branches);
    tcase_add_test(tc, test_aliases);
    tcase_add_test(tc, test_pasted_by_macro);
    tcase_add_test(tc, test_shared_docstring);
    tcase_add_test(tc, test_called);
    tcase_add_test(tc, test_noargs_unused_macro);
    tcase_add_test(tc, test_docstring_long_paragraph);
    tcase_add_test(tc, test_docstring_summary);
    tcase_add_test(tc, test_named_elsewhere);
    tcase_add_test(tc, test_coexist);
    tcase_add_test(tc, test_state_helper);
    tcase_add_test(tc, test_documented_positional_names);
    tcase_add_test(tc, test_module_name_in_header);
    tcase_add_test(tc, test_owner_from_blocks);
    tcase_add_test(tc, test_converter_before_include);
    tcase_add_test(tc, test_converter_parameter_type);
    tcase_add_test(tc, test_slots);
    tcase_add_test(tc, test_star_args);
    tcase_add_test(tc, test_o_parses_its_argument);
    tcase_add_test(tc, test_signature_line_then_more);
    tcase_add_test(tc, test_owner_forms);
    tcase_add_test(tc, test_include_moved);
    tcase_add_test(tc, test_shared_kwlist);
    tcase_add_test(tc, test_member_of_docstring_name);
    tcase_add_test(tc, test_declarations_moved);
    tcase_add_test(tc, test_pasted_run);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_run(convert_suite());
}
