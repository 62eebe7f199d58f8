/*
 * dialect_3_13.c — CPython 3.13's Argument Clinic (Tools/clinic/clinic.py
 * and libclinic/), as the changes to 3.11's: the new syntax (critical
 * sections, getters and setters, @text_signature, deprecation markers),
 * 3.12's keyword parser, the #includes of routed files, the Limited C API,
 * its converters' new snippets and its error wordings.
 */
#include "dialect.h"

static const char *const make_extensions_3_13[] = {".c", ".cpp", ".h", NULL};

static const char *const prefixed_names_3_13[] = {
    "_keywords", "_parser", "args", "argsbuf", "fastargs", "kwargs",
    "kwnames", "nargs", "noptargs", "return_value", NULL,
};

/* 3.12's keyword parser: a static tuple of the keyword names, built from
   the interpreter's own strings, when building the core. */
static const DialectKeywordParser keyword_parser_3_13 = {
    .kwtuple_none =
        "#if defined(Py_BUILD_CORE) && !defined(Py_BUILD_CORE_MODULE)\n"
        "#  define KWTUPLE (PyObject *)&_Py_SINGLETON(tuple_empty)\n"
        "#else\n"
        "#  define KWTUPLE NULL\n"
        "#endif\n"
        "\n",
    .kwtuple_some =
        "#if defined(Py_BUILD_CORE) && !defined(Py_BUILD_CORE_MODULE)\n"
        "\n"
        "#define NUM_KEYWORDS %d\n"
        "static struct {{\n"
        "    PyGC_Head _this_is_not_used;\n"
        "    PyObject_VAR_HEAD\n"
        "    PyObject *ob_item[NUM_KEYWORDS];\n"
        "}} _kwtuple = {{\n"
        "    .ob_base = PyVarObject_HEAD_INIT(&PyTuple_Type, NUM_KEYWORDS)\n"
        "    .ob_item = {{ {keywords_py} }},\n"
        "}};\n"
        "#undef NUM_KEYWORDS\n"
        "#define KWTUPLE (&_kwtuple.ob_base.ob_base)\n"
        "\n"
        "#else  // !Py_BUILD_CORE\n"
        "#  define KWTUPLE NULL\n"
        "#endif  // !Py_BUILD_CORE\n"
        "\n",
    .kwtuple_limited = "#define KWTUPLE NULL\n\n",
    .declaration =
        "static const char * const _keywords[] = {{{keywords_c} NULL}};\n"
        "static _PyArg_Parser _parser = {{\n"
        "    .keywords = _keywords,\n"
        "    %s\n"
        "    .kwtuple = KWTUPLE,\n"
        "}};\n"
        "#undef KWTUPLE",
    .fname = ".fname = \"{name}\",",
    .format = ".format = \"{format_units}:{name}\",",
    .limited_keywords = "static char *_keywords[] = {{{keywords_c} NULL}};",
};

/* The snippets 3.13 writes differently or newly: PyLong_AsInt, no
   PyUnicode_READY or wchar cache, Py_buffer without the contiguity check,
   file descriptors by PyObject_AsFileDescriptor, and the Limited C API's. */
static const DialectSnippet snippets_3_13[] = {
    {.converter = "bool_converter", .variant = "i", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = PyLong_AsInt({argname});\n"
         "if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"},
    {.converter = "unsigned_short_converter", .variant = "limited", .api = SNIPPET_LIMITED_API,
     .text =
         "{{{{\n"
         "    unsigned long uval = PyLong_AsUnsignedLong({argname});\n"
         "    if (uval == (unsigned long)-1 && PyErr_Occurred()) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    if (uval > USHRT_MAX) {{{{\n"
         "        PyErr_SetString(PyExc_OverflowError,\n"
         "                        \"Python int too large for C unsigned short\");\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    {paramname} = (unsigned short) uval;\n"
         "}}}}\n",
     .indent = 12},
    {.converter = "int_converter", .variant = "i", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = PyLong_AsInt({argname});\n"
         "if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"},
    {.converter = "int_converter", .variant = "C", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyUnicode_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "if (PyUnicode_GET_LENGTH({argname}) != 1) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = PyUnicode_READ_CHAR({argname}, 0);\n",
     .expected = "a unicode character"},
    {.converter = "unsigned_int_converter", .variant = "limited", .api = SNIPPET_LIMITED_API,
     .text =
         "{{{{\n"
         "    unsigned long uval = PyLong_AsUnsignedLong({argname});\n"
         "    if (uval == (unsigned long)-1 && PyErr_Occurred()) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    if (uval > UINT_MAX) {{{{\n"
         "        PyErr_SetString(PyExc_OverflowError,\n"
         "                        \"Python int too large for C unsigned int\");\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    {paramname} = (unsigned int) uval;\n"
         "}}}}\n",
     .indent = 12},
    {.converter = "unsigned_long_converter", .variant = "limited", .api = SNIPPET_LIMITED_API,
     .text =
         "{paramname} = PyLong_AsUnsignedLong({argname});\n"
         "if ({paramname} == (unsigned long)-1 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n",
     .indent = 12},
    {.converter = "unsigned_long_long_converter", .variant = "limited", .api = SNIPPET_LIMITED_API,
     .text =
         "{paramname} = PyLong_AsUnsignedLongLong({argname});\n"
         "if ({paramname} == (unsigned long long)-1 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n",
     .indent = 12},
    {.converter = "Py_ssize_t_converter", .variant = "limited", .api = SNIPPET_LIMITED_API,
     .text =
         "if ({argname} != Py_None) {{{{\n"
         "    if (PyIndex_Check({argname})) {{{{\n"
         "        {paramname} = PyNumber_AsSsize_t({argname}, PyExc_OverflowError);\n"
         "        if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
         "            goto exit;\n"
         "        }}}}\n"
         "    }}}}\n"
         "    else {{{{\n"
         "        {bad_argument}\n"
         "        goto exit;\n"
         "    }}}}\n"
         "}}}}\n",
     .expected = "integer or None", .indent = 12},
    {.converter = "Py_ssize_t_converter", .variant = "n", .api = SNIPPET_LIMITED_API,
     .text =
         "{{{{\n"
         "    Py_ssize_t ival = -1;\n"
         "    PyObject *iobj = PyNumber_Index({argname});\n"
         "    if (iobj != NULL) {{{{\n"
         "        ival = PyLong_AsSsize_t(iobj);\n"
         "        Py_DECREF(iobj);\n"
         "    }}}}\n"
         "    if (ival == -1 && PyErr_Occurred()) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    {paramname} = ival;\n"
         "}}}}\n"},
    {.converter = "slice_index_converter", .variant = "nullable", .api = SNIPPET_LIMITED_API,
     .text =
         "if (!Py_IsNone({argname})) {{{{\n"
         "    if (PyIndex_Check({argname})) {{{{\n"
         "        {paramname} = PyNumber_AsSsize_t({argname}, NULL);\n"
         "        if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
         "            return 0;\n"
         "        }}}}\n"
         "    }}}}\n"
         "    else {{{{\n"
         "        PyErr_SetString(PyExc_TypeError,\n"
         "                        \"slice indices must be integers or \"\n"
         "                        \"None or have an __index__ method\");\n"
         "        goto exit;\n"
         "    }}}}\n"
         "}}}}\n"},
    {.converter = "slice_index_converter", .variant = "not_nullable", .api = SNIPPET_LIMITED_API,
     .text =
         "if (PyIndex_Check({argname})) {{{{\n"
         "    {paramname} = PyNumber_AsSsize_t({argname}, NULL);\n"
         "    if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "}}}}\n"
         "else {{{{\n"
         "    PyErr_SetString(PyExc_TypeError,\n"
         "                    \"slice indices must be integers or \"\n"
         "                    \"have an __index__ method\");\n"
         "    goto exit;\n"
         "}}}}\n"},
    {.converter = "size_t_converter", .variant = "limited", .api = SNIPPET_LIMITED_API,
     .text =
         "{paramname} = PyLong_AsSize_t({argname});\n"
         "if ({paramname} == (size_t)-1 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n",
     .indent = 12},
    {.converter = "fildes_converter", .variant = "", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = PyObject_AsFileDescriptor({argname});\n"
         "if ({paramname} < 0) {{{{\n"
         "    goto exit;\n"
         "}}}}\n",
     .indent = 12},
    {.converter = "float_converter", .variant = "f", .api = SNIPPET_FULL_API,
     .text =
         "if (PyFloat_CheckExact({argname})) {{{{\n"
         "    {paramname} = (float) (PyFloat_AS_DOUBLE({argname}));\n"
         "}}}}\n"
         "else\n"
         "{{{{\n"
         "    {paramname} = (float) PyFloat_AsDouble({argname});\n"
         "    if ({paramname} == -1.0 && PyErr_Occurred()) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "}}}}\n",
     .indent = 20},
    {.converter = "float_converter", .variant = "f", .api = SNIPPET_LIMITED_API,
     .text =
         "{paramname} = (float) PyFloat_AsDouble({argname});\n"
         "if ({paramname} == -1.0 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n",
     .indent = 20},
    {.converter = "double_converter", .variant = "d", .api = SNIPPET_FULL_API,
     .text =
         "if (PyFloat_CheckExact({argname})) {{{{\n"
         "    {paramname} = PyFloat_AS_DOUBLE({argname});\n"
         "}}}}\n"
         "else\n"
         "{{{{\n"
         "    {paramname} = PyFloat_AsDouble({argname});\n"
         "    if ({paramname} == -1.0 && PyErr_Occurred()) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "}}}}\n",
     .indent = 20},
    {.converter = "double_converter", .variant = "d", .api = SNIPPET_LIMITED_API,
     .text =
         "{paramname} = PyFloat_AsDouble({argname});\n"
         "if ({paramname} == -1.0 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n",
     .indent = 20},
    {.converter = "unicode_converter", .variant = "U", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyUnicode_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = {argname};\n",
     .expected = "str"},
    {.converter = "Py_UNICODE_converter", .variant = "str", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyUnicode_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = PyUnicode_AsWideCharString({argname}, NULL);\n"
         "if ({paramname} == NULL) {{{{\n"
         "    goto exit;\n"
         "}}}}\n",
     .expected = "str", .indent = 20},
    {.converter = "Py_UNICODE_converter", .variant = "str_or_none", .api = SNIPPET_ANY_API,
     .text =
         "if ({argname} == Py_None) {{{{\n"
         "    {paramname} = NULL;\n"
         "}}}}\n"
         "else if (PyUnicode_Check({argname})) {{{{\n"
         "    {paramname} = PyUnicode_AsWideCharString({argname}, NULL);\n"
         "    if ({paramname} == NULL) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "}}}}\n"
         "else {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n",
     .expected = "str or None", .indent = 20},
    {.converter = "Py_buffer_converter", .variant = "y*", .api = SNIPPET_ANY_API,
     .text =
         "if (PyObject_GetBuffer({argname}, &{paramname}, PyBUF_SIMPLE) != 0) {{{{\n"
         "    goto exit;\n"
         "}}}}\n",
     .expected = "contiguous buffer"},
    {.converter = "Py_buffer_converter", .variant = "s*", .api = SNIPPET_ANY_API,
     .text =
         "if (PyUnicode_Check({argname})) {{{{\n"
         "    Py_ssize_t len;\n"
         "    const char *ptr = PyUnicode_AsUTF8AndSize({argname}, &len);\n"
         "    if (ptr == NULL) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    if (PyBuffer_FillInfo(&{paramname}, {argname}, (void *)ptr, len, 1, PyBUF_SIMPLE) < 0) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "}}}}\n"
         "else {{{{ /* any bytes-like object */\n"
         "    if (PyObject_GetBuffer({argname}, &{paramname}, PyBUF_SIMPLE) != 0) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "}}}}\n",
     .expected = "contiguous buffer"},
    {.converter = "Py_buffer_converter", .variant = "w*", .api = SNIPPET_ANY_API,
     .text =
         "if (PyObject_GetBuffer({argname}, &{paramname}, PyBUF_WRITABLE) < 0) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n",
     .expected = "read-write bytes-like object", .expected2 = "contiguous buffer"},
    {.converter = "Py_UNICODE_converter", .variant = "cleanup",
     .api = SNIPPET_ANY_API,
     .text =
         "PyMem_Free((void *){name});\n"},
};

const Dialect dialect_3_13 = {
    .name = "3.13",
    .major = 3,
    .minor = 13,
    .reference = "CPython 3.13's Tools/clinic (clinic.py and libclinic/)",
    .base = &dialect_3_11,
    .make_extensions = make_extensions_3_13,
    .syntax = SYNTAX_CRITICAL_SECTION | SYNTAX_GETSET | SYNTAX_TEXT_SIGNATURE |
              SYNTAX_DEPRECATION | SYNTAX_UNUSED,
    .fixes = FIX_MIN_KW_ONLY_AFTER_VARARG | FIX_PARSER_NAME_EVERYWHERE,
    .header_includes = true,
    .limited_capi = true,
    .prefixed_names = prefixed_names_3_13,
    .quoted_displayname = false,
    .keyword_parser = &keyword_parser_3_13,
    .defining_class_no_args = "nargs || (kwnames && PyTuple_GET_SIZE(kwnames))",
    .self_type_check_new =
        "({self} == base_tp || {self}->tp_init == base_tp->tp_init)",
    .self_type_check_init =
        "(Py_IS_TYPE({self}, base_tp) ||\n"
        "         Py_TYPE({self})->tp_new == base_tp->tp_new)",
    .base_type_ptr = "PyTypeObject *base_tp = {type};",
    .snippets = snippets_3_13,
    .nsnippets = sizeof snippets_3_13 / sizeof snippets_3_13[0],
};

