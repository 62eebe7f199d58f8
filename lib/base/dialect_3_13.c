/*
 * dialect_3_13.c — CPython 3.13's Argument Clinic (Tools/clinic/clinic.py
 * and libclinic/), as the changes to 3.11's: the new syntax (critical
 * sections, getters and setters, @text_signature, deprecation markers),
 * 3.12's keyword parser, the #includes of routed files, the Limited C API,
 * its converters' new snippets and its error wordings.
 */
#include "base/dialect.h"

const char *const make_extensions_3_13[] = {".c", ".cpp", ".h", NULL};

const char *const prefixed_names_3_13[] = {
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

/* Its wording of the messages the dialects word differently: f-strings
   with repr()s, one line where 3.11 broke lines. */
static const char *const messages_3_13[MSG_COUNT] = {
    [MSG_ACCESSOR_RETURN_TYPE] = "@%s method cannot define a return type",
    [MSG_ACCESSOR_PARAMETERS] = "@%s methods cannot define parameters",
    [MSG_CHECKSUM_MISMATCH] =
        "Checksum mismatch! Expected %r, computed %r. Suggested fix: remove "
        "all generated code including the end marker, or use the '-f' "
        "option.",
    [MSG_DESTINATION_TYPE] = "Invalid destination type %r for %s, must be %s",
    [MSG_DESTINATION_TOO_FEW] =
        "Not enough arguments for destination %r new %r",
    [MSG_DESTINATION_TOO_MANY] = "Too many arguments for destination %r new %r",
    [MSG_DESTINATION_CLEAR] =
        "Can't clear destination %r: it's not of type 'buffer'",
    [MSG_DESTINATION_MKDIR] =
        "Can't write to destination %r; can't make directory %r!",
    [MSG_DESTINATION_MODIFIED] = "Modified destination file %r; not overwriting!",
    [MSG_NO_PARENT] = "Parent class or module %2$r does not exist.",
    [MSG_TEXT_AFTER_MARKER] =
        "Text found after '{%s}' block marker! It must be on a line by "
        "itself.",
    [MSG_TEXT_BEFORE_MARKER] =
        "Non-whitespace characters found before '{%s}' block marker! "
        "It must be on a line by itself.",
    [MSG_GROUPS_NOT_POSITIONAL] =
        "You cannot use optional groups ('[' and ']') "
        "unless all parameters are positional-only ('/').",
    [MSG_DEFAULT_TYPE] = "%s: default value %s for field %r is not of type %r",
    [MSG_CANNOT_DEDENT] =
        "Cannot dedent; line does not start with the previous margin.",
    [MSG_OUTPUT_COMMAND] =
        "Invalid command or destination name %r. Must be one of:\n - %3$s",
    [MSG_PRESERVE_TWICE] = "Can't have 'preserve' twice in one block!",
    [MSG_TAB_IN_DSL] = "Tab characters are illegal in the Clinic DSL: %r",
    [MSG_CLONE_KIND] =
        "'kind' of function and cloned function don't match! "
        "(@classmethod/@staticmethod/@coexist)",
    [MSG_ILLEGAL_FUNCTION_NAME] = "Illegal function name: %r",
    [MSG_ILLEGAL_C_BASENAME] = "Illegal C basename: %r",
    [MSG_BAD_ANNOTATION] = "Badly formed annotation for %r: %3$r",
    [MSG_SPECIAL_METHOD] =
        "%r is a special method and cannot be converted to Argument Clinic!",
    [MSG_NEW_NOT_CLASSMETHOD] = "'__new__' must be a class method!",
    [MSG_INIT_NOT_NORMAL] =
        "'__init__' must be a normal method; got 'FunctionKind.%s'!",
    [MSG_INVALID_PARAMETER] =
        "Function %r has an invalid parameter declaration:\n\t %r",
    [MSG_INVALID_PARAMETER_COMMA] =
        "Function %r has an invalid parameter declaration (comma?): %r",
    [MSG_INVALID_PARAMETER_DEFAULT] =
        "Function %r has an invalid parameter declaration (default value?): %r",
    [MSG_INVALID_PARAMETER_KWARGS] =
        "Function %r has an invalid parameter declaration (**kwargs?): %r",
    [MSG_DEFAULT_MISSING] =
        "Can't have a parameter without a default (%r) "
        "after a parameter with a default!",
    /* test_clinic.py asserts the line clinic.py parsed */
    [MSG_DEFAULT_SYNTAX] = "Syntax error: %2$s",
    [MSG_MALFORMED_DEFAULT] =
        "Malformed expression given as default value %r caused %s",
    [MSG_EXPRESSION_NEEDS_C_DEFAULT] =
        "When you specify an expression (%r) as your default value, "
        "you MUST specify a valid c_default. %s",
    [MSG_CONSTANT_NEEDS_C_DEFAULT] =
        "When you specify a named constant (%r) as your default value, "
        "you MUST specify a valid c_default.",
    [MSG_NOT_A_CONVERTER] = "%r is not a valid %sconverter",
    [MSG_GROUP_STATE_B] =
        "Function %r has an unsupported group configuration. "
        "(Unexpected state %s.b)",
    [MSG_GROUP_STATE_C] =
        "Function %r has an unsupported group configuration. "
        "(Unexpected state %s.c)",
    [MSG_GROUP_STATE_D] =
        "Function %r has an unsupported group configuration. "
        "(Unexpected state %s.d)",
    [MSG_UNMATCHED_BRACKET] = "Function %r has a ']' without a matching '['.",
    [MSG_EMPTY_GROUP] =
        "Function %r has an empty group. "
        "All groups must contain at least one parameter.",
    [MSG_STAR_TWICE] = "Function %r uses '*' more than once.",
    [MSG_SLASH_TWICE] = "Function %r uses '/' more than once.",
    [MSG_SLASH_AFTER_STAR] = "Function %r: '/' must precede '*'",
    [MSG_NO_SUMMARY] =
        "Docstring for %r does not have a summary line!\n"
        "Every non-blank function docstring must start with a single line "
        "summary followed by an empty line.",
    [MSG_STAR_WITHOUT_PARAMETERS] =
        "Function %r specifies %r without following parameters.",
    [MSG_NON_ASCII_DOCSTRING] =
        "Non-ascii characters are not allowed in docstrings: %s",
    [MSG_FUNCTION_IN_CONVERTER_INIT] =
        "%r object has no attribute 'function'.\n"
        "Note: accessing self.function inside converter_init is disallowed!",
};

/* Py_UNICODE is gone from 3.13's C API: its converter writes wchar_t. */
static const DialectConverterType converter_types_3_13[] = {
    {"Py_UNICODE_converter", "const wchar_t *"},
    {NULL, NULL},
};

/* 3.13 dropped the NoneType and init return converters, and registers
   CReturnConverter itself as "object". */
const char *const return_converters_lacking_3_13[] = {
    "NoneType", "init", NULL,
};
const DialectAlias return_converter_aliases_3_13[] = {
    {"object", "CReturnConverter", "object_return_converter"},
    {NULL, NULL, NULL},
};

const Dialect dialect_3_13 = {
    .name = "3.13",
    .major = 3,
    .minor = 13,
    .reference = "CPython 3.13's Tools/clinic (clinic.py and libclinic/)",
    .base = &dialect_3_11,
    .make_extensions = make_extensions_3_13,
    .syntax = DIALECT_3_13_SYNTAX,
    .fixes = DIALECT_3_13_FIXES,
    .header_includes = true,
    .limited_capi = true,
    .prefixed_names = prefixed_names_3_13,
    .docstring_ascii_check = true,
    .exception_suggestions = true,
    .quoted_displayname = false,
    .keyword_parser = &keyword_parser_3_13,
    .defining_class_no_args = DIALECT_3_13_DEFINING_CLASS_NO_ARGS,
    .self_type_check_new = DIALECT_3_13_SELF_TYPE_CHECK_NEW,
    .self_type_check_init = DIALECT_3_13_SELF_TYPE_CHECK_INIT,
    .base_type_ptr = DIALECT_3_13_BASE_TYPE_PTR,
    .snippets = snippets_3_13,
    .nsnippets = sizeof snippets_3_13 / sizeof snippets_3_13[0],
    .messages = messages_3_13,
    .converter_types = converter_types_3_13,
    .return_converters_lacking = return_converters_lacking_3_13,
    .return_converter_aliases = return_converter_aliases_3_13,
    .buffer_module = DIALECT_3_13_BUFFER_MODULE,
    .null_module = DIALECT_3_13_NULL_MODULE,
    .sentinels_module = DIALECT_3_13_NULL_MODULE,
};

