/*
 * dialect_3_11.c — CPython 3.11's Argument Clinic (Tools/clinic/clinic.py
 * and cpp.py), the default dialect and the base of the others: what it
 * writes where the dialects differ, and its converters' parsing snippets.
 */
#include "base/dialect.h"

static const char *const make_extensions_3_11[] = {".c", ".h", NULL};

static const char *const prefixed_names_3_11[] = {"args", NULL};

static const DialectKeywordParser keyword_parser_3_11 = {
    .kwtuple_none = "",
    .kwtuple_some = "",
    .kwtuple_limited = "",
    .declaration =
        "static const char * const _keywords[] = {{{keywords_c} NULL}};\n"
        "static _PyArg_Parser _parser = {{%s}};",
    .fname = "NULL, _keywords, \"{name}\", 0",
    .format = "\"{format_units}:{name}\", _keywords, 0",
    .limited_keywords = "",
};

/* The converters' parsing snippets (each class's parse_arg), as
   clinic.py writes them. */
static const DialectSnippet snippets_3_11[] = {
    {.converter = "CConverter", .variant = "O&", .api = SNIPPET_ANY_API,
     .text =
         "if (!{converter}({argname}, &{paramname})) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"},
    {.converter = "CConverter", .variant = "O!subclass_of", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyObject_TypeCheck({argname}, {subclass_of})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = {cast}{argname};\n",
     .expected = "({subclass_of})->tp_name", .expected_expr = true},
    {.converter = "CConverter", .variant = "O", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = {cast}{argname};\n"},
    {.converter = "CConverter", .variant = "O!", .api = SNIPPET_ANY_API,
     .text =
         "if (!{typecheck}({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = {cast}{argname};\n",
     .expected = "{typename}", .indent = 20},
    {.converter = "bool_converter", .variant = "i", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = _PyLong_AsInt({argname});\n"
         "if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"},
    {.converter = "bool_converter", .variant = "p", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = PyObject_IsTrue({argname});\n"
         "if ({paramname} < 0) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"},
    {.converter = "char_converter", .variant = "c", .api = SNIPPET_ANY_API,
     .text =
         "if (PyBytes_Check({argname}) && PyBytes_GET_SIZE({argname}) == 1) {{{{\n"
         "    {paramname} = PyBytes_AS_STRING({argname})[0];\n"
         "}}}}\n"
         "else if (PyByteArray_Check({argname}) && PyByteArray_GET_SIZE({argname}) == 1) {{{{\n"
         "    {paramname} = PyByteArray_AS_STRING({argname})[0];\n"
         "}}}}\n"
         "else {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n",
     .expected = "a byte string of length 1"},
    {.converter = "unsigned_char_converter", .variant = "b", .api = SNIPPET_ANY_API,
     .text =
         "{{{{\n"
         "    long ival = PyLong_AsLong({argname});\n"
         "    if (ival == -1 && PyErr_Occurred()) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    else if (ival < 0) {{{{\n"
         "        PyErr_SetString(PyExc_OverflowError,\n"
         "                        \"unsigned byte integer is less than minimum\");\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    else if (ival > UCHAR_MAX) {{{{\n"
         "        PyErr_SetString(PyExc_OverflowError,\n"
         "                        \"unsigned byte integer is greater than maximum\");\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    else {{{{\n"
         "        {paramname} = (unsigned char) ival;\n"
         "    }}}}\n"
         "}}}}\n"},
    {.converter = "unsigned_char_converter", .variant = "B", .api = SNIPPET_ANY_API,
     .text =
         "{{{{\n"
         "    unsigned long ival = PyLong_AsUnsignedLongMask({argname});\n"
         "    if (ival == (unsigned long)-1 && PyErr_Occurred()) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    else {{{{\n"
         "        {paramname} = (unsigned char) ival;\n"
         "    }}}}\n"
         "}}}}\n"},
    {.converter = "short_converter", .variant = "h", .api = SNIPPET_ANY_API,
     .text =
         "{{{{\n"
         "    long ival = PyLong_AsLong({argname});\n"
         "    if (ival == -1 && PyErr_Occurred()) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    else if (ival < SHRT_MIN) {{{{\n"
         "        PyErr_SetString(PyExc_OverflowError,\n"
         "                        \"signed short integer is less than minimum\");\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    else if (ival > SHRT_MAX) {{{{\n"
         "        PyErr_SetString(PyExc_OverflowError,\n"
         "                        \"signed short integer is greater than maximum\");\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    else {{{{\n"
         "        {paramname} = (short) ival;\n"
         "    }}}}\n"
         "}}}}\n"},
    {.converter = "unsigned_short_converter", .variant = "H", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = (unsigned short)PyLong_AsUnsignedLongMask({argname});\n"
         "if ({paramname} == (unsigned short)-1 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"},
    {.converter = "int_converter", .variant = "i", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = _PyLong_AsInt({argname});\n"
         "if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"},
    {.converter = "int_converter", .variant = "C", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyUnicode_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "if (PyUnicode_READY({argname})) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"
         "if (PyUnicode_GET_LENGTH({argname}) != 1) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = PyUnicode_READ_CHAR({argname}, 0);\n",
     .expected = "a unicode character"},
    {.converter = "unsigned_int_converter", .variant = "I", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = (unsigned int)PyLong_AsUnsignedLongMask({argname});\n"
         "if ({paramname} == (unsigned int)-1 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"},
    {.converter = "long_converter", .variant = "l", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = PyLong_AsLong({argname});\n"
         "if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"},
    {.converter = "unsigned_long_converter", .variant = "k", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyLong_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = PyLong_AsUnsignedLongMask({argname});\n",
     .expected = "int"},
    {.converter = "long_long_converter", .variant = "L", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = PyLong_AsLongLong({argname});\n"
         "if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"},
    {.converter = "unsigned_long_long_converter", .variant = "K", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyLong_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = PyLong_AsUnsignedLongLongMask({argname});\n",
     .expected = "int"},
    {.converter = "Py_ssize_t_converter", .variant = "n", .api = SNIPPET_FULL_API,
     .text =
         "{{{{\n"
         "    Py_ssize_t ival = -1;\n"
         "    PyObject *iobj = _PyNumber_Index({argname});\n"
         "    if (iobj != NULL) {{{{\n"
         "        ival = PyLong_AsSsize_t(iobj);\n"
         "        Py_DECREF(iobj);\n"
         "    }}}}\n"
         "    if (ival == -1 && PyErr_Occurred()) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    {paramname} = ival;\n"
         "}}}}\n",
     .include = "pycore_abstract.h", .include_reason = "_PyNumber_Index()"},
    {.converter = "size_t_converter", .variant = "n", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = PyNumber_AsSsize_t({argname}, PyExc_OverflowError);\n"
         "if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"},
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
         "}}}}\n"},
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
         "}}}}\n"},
    {.converter = "Py_complex_converter", .variant = "D", .api = SNIPPET_ANY_API,
     .text =
         "{paramname} = PyComplex_AsCComplex({argname});\n"
         "if (PyErr_Occurred()) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"},
    {.converter = "str_converter", .variant = "s", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyUnicode_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "Py_ssize_t {length_name};\n"
         "{paramname} = PyUnicode_AsUTF8AndSize({argname}, &{length_name});\n"
         "if ({paramname} == NULL) {{{{\n"
         "    goto exit;\n"
         "}}}}\n"
         "if (strlen({paramname}) != (size_t){length_name}) {{{{\n"
         "    PyErr_SetString(PyExc_ValueError, \"embedded null character\");\n"
         "    goto exit;\n"
         "}}}}\n",
     .expected = "str"},
    {.converter = "str_converter", .variant = "z", .api = SNIPPET_ANY_API,
     .text =
         "if ({argname} == Py_None) {{{{\n"
         "    {paramname} = NULL;\n"
         "}}}}\n"
         "else if (PyUnicode_Check({argname})) {{{{\n"
         "    Py_ssize_t {length_name};\n"
         "    {paramname} = PyUnicode_AsUTF8AndSize({argname}, &{length_name});\n"
         "    if ({paramname} == NULL) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    if (strlen({paramname}) != (size_t){length_name}) {{{{\n"
         "        PyErr_SetString(PyExc_ValueError, \"embedded null character\");\n"
         "        goto exit;\n"
         "    }}}}\n"
         "}}}}\n"
         "else {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n",
     .expected = "str or None"},
    {.converter = "PyBytesObject_converter", .variant = "S", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyBytes_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = ({type}){argname};\n",
     .expected = "bytes"},
    {.converter = "PyByteArrayObject_converter", .variant = "Y", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyByteArray_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = ({type}){argname};\n",
     .expected = "bytearray"},
    {.converter = "unicode_converter", .variant = "U", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyUnicode_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "if (PyUnicode_READY({argname}) == -1) {{{{\n"
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
         "#if USE_UNICODE_WCHAR_CACHE\n"
         "{paramname} = _PyUnicode_AsUnicode({argname});\n"
         "#else /* USE_UNICODE_WCHAR_CACHE */\n"
         "{paramname} = PyUnicode_AsWideCharString({argname}, NULL);\n"
         "#endif /* USE_UNICODE_WCHAR_CACHE */\n"
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
         "    #if USE_UNICODE_WCHAR_CACHE\n"
         "    {paramname} = _PyUnicode_AsUnicode({argname});\n"
         "    #else /* USE_UNICODE_WCHAR_CACHE */\n"
         "    {paramname} = PyUnicode_AsWideCharString({argname}, NULL);\n"
         "    #endif /* USE_UNICODE_WCHAR_CACHE */\n"
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
         "}}}}\n"
         "if (!PyBuffer_IsContiguous(&{paramname}, 'C')) {{{{\n"
         "    {bad_argument}\n"
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
         "    PyBuffer_FillInfo(&{paramname}, {argname}, (void *)ptr, len, 1, 0);\n"
         "}}}}\n"
         "else {{{{ /* any bytes-like object */\n"
         "    if (PyObject_GetBuffer({argname}, &{paramname}, PyBUF_SIMPLE) != 0) {{{{\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    if (!PyBuffer_IsContiguous(&{paramname}, 'C')) {{{{\n"
         "        {bad_argument}\n"
         "        goto exit;\n"
         "    }}}}\n"
         "}}}}\n",
     .expected = "contiguous buffer"},
    {.converter = "Py_buffer_converter", .variant = "w*", .api = SNIPPET_ANY_API,
     .text =
         "if (PyObject_GetBuffer({argname}, &{paramname}, PyBUF_WRITABLE) < 0) {{{{\n"
         "    PyErr_Clear();\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "if (!PyBuffer_IsContiguous(&{paramname}, 'C')) {{{{\n"
         "    {bad_argument2}\n"
         "    goto exit;\n"
         "}}}}\n",
     .expected = "read-write bytes-like object", .expected2 = "contiguous buffer"},
    {.converter = "Py_UNICODE_converter", .variant = "cleanup",
     .api = SNIPPET_ANY_API,
     .text =
         "#if !USE_UNICODE_WCHAR_CACHE\n"
         "PyMem_Free((void *){name});\n"
         "#endif /* USE_UNICODE_WCHAR_CACHE */\n"},
};

/* Its wording of the messages the dialects word differently. */
static const char *const messages_3_11[MSG_COUNT] = {
    [MSG_CHECKSUM_MISMATCH] =
        "Checksum mismatch!\nExpected: %s\nComputed: %s\n"
        "Suggested fix: remove all generated code including the end marker,\n"
        "or use the '-f' option.",
    [MSG_DESTINATION_TYPE] = "Invalid destination type %r for %s , must be %s",
    [MSG_DESTINATION_TOO_FEW] =
        "Not enough arguments for destination %s new %s",
    [MSG_DESTINATION_TOO_MANY] = "Too many arguments for destination %s new %s",
    [MSG_DESTINATION_CLEAR] =
        "Can't clear destination%s , it's not of type buffer",
    [MSG_DESTINATION_MKDIR] =
        "Can't write to destination %s, can't make directory %s!",
    [MSG_DESTINATION_MODIFIED] = "Modified destination file %r, not overwriting!",
    [MSG_NO_PARENT] = "Parent class or module %1$s does not exist.",
    [MSG_TEXT_AFTER_MARKER] =
        "Text found after {%s} block marker!  It must be on a line by itself.",
    [MSG_TEXT_BEFORE_MARKER] =
        "Non-whitespace characters found before {%s} block marker!  "
        "It must be on a line by itself.",
    [MSG_GROUPS_NOT_POSITIONAL] =
        "You cannot use optional groups ('[' and ']')\n"
        "unless all parameters are positional-only ('/').",
    [MSG_DEFAULT_TYPE] = "%s: default value %s for field %s is not of type %s",
    [MSG_CANNOT_DEDENT] =
        "Cannot dedent, line does not start with the previous margin:",
    [MSG_MODULE_DEFINED] = "Already defined module %r!",
    [MSG_OUTPUT_COMMAND] =
        "Invalid command / destination name %r, must be one of:\n"
        "  preset push pop print everything%2$s",
    [MSG_PRESERVE_TWICE] = "Can't have preserve twice in one block!",
    [MSG_TAB_IN_DSL] = "Tab characters are illegal in the Clinic DSL.\n\t%r",
    [MSG_CLONE_KIND] =
        "'kind' of function and cloned function don't match!  "
        "(@classmethod/@staticmethod/@coexist)",
    [MSG_ILLEGAL_FUNCTION_NAME] = "Illegal function name: %s",
    [MSG_ILLEGAL_C_BASENAME] = "Illegal C basename: %s",
    [MSG_BAD_ANNOTATION] = "Badly-formed annotation for %s: %s",
    [MSG_SPECIAL_METHOD] =
        "%s is a special method and cannot be converted to Argument "
        "Clinic!  (Yet.)",
    [MSG_NEW_NOT_CLASSMETHOD] = "__new__ must be a class method!",
    [MSG_INIT_NOT_NORMAL] =
        "__init__ must be a normal method, not a class or static method!",
    [MSG_INVALID_PARAMETER] =
        "Function %s has an invalid parameter declaration:\n\t%s",
    [MSG_INVALID_PARAMETER_COMMA] =
        "Function %s has an invalid parameter declaration (comma?):\n\t%s",
    [MSG_INVALID_PARAMETER_DEFAULT] =
        "Function %s has an invalid parameter declaration (default value?):"
        "\n\t%s",
    [MSG_INVALID_PARAMETER_KWARGS] =
        "Function %s has an invalid parameter declaration (**kwargs?):\n\t%s",
    [MSG_DEFAULT_MISSING] =
        "Can't have a parameter without a default (%r)\n"
        "after a parameter with a default!",
    /* clinic.py shows the line it parsed, its own 'x = ' wrapper around
       the default; the default as written says more */
    [MSG_DEFAULT_SYNTAX] = "Syntax error: %1$s",
    [MSG_MALFORMED_DEFAULT] =
        "Malformed expression given as default value\n%r caused %s",
    [MSG_EXPRESSION_NEEDS_C_DEFAULT] =
        "When you specify an expression (%r) as your default value,\n"
        "you MUST specify a valid c_default.%s",
    [MSG_CONSTANT_NEEDS_C_DEFAULT] =
        "When you specify a named constant (%r) as your default value,\n"
        "you MUST specify a valid c_default.",
    [MSG_NOT_A_CONVERTER] = "%s is not a valid %sconverter",
    [MSG_GROUP_STATE_A] =
        "Function %s has an unsupported group configuration. "
        "(Unexpected state %s.a)",
    [MSG_GROUP_STATE_B] =
        "Function %s has an unsupported group configuration. "
        "(Unexpected state %s.b)",
    [MSG_GROUP_STATE_C] =
        "Function %s has an unsupported group configuration. "
        "(Unexpected state %s.c)",
    [MSG_GROUP_STATE_D] =
        "Function %s has an unsupported group configuration. "
        "(Unexpected state %s.d)",
    [MSG_UNMATCHED_BRACKET] = "Function %s has a ] without a matching [.",
    [MSG_EMPTY_GROUP] =
        "Function %s has an empty group.\n"
        "All groups must contain at least one parameter.",
    [MSG_STAR_TWICE] = "Function %s uses '*' more than once.",
    [MSG_SLASH_TWICE] = "Function %s uses '/' more than once.",
    [MSG_SLASH_AFTER_STAR] =
        "Function %s mixes keyword-only and positional-only parameters, "
        "which is unsupported.",
    [MSG_NO_SUMMARY] =
        "Docstring for %s does not have a summary line!\n"
        "Every non-blank function docstring must start with\n"
        "a single line summary followed by an empty line.",
    [MSG_STAR_WITHOUT_PARAMETERS] =
        "Function %s specifies '*' without any parameters afterwards.",
    [MSG_NON_ASCII_DOCSTRING] = "Non-ascii character appear in docstring.",
    [MSG_FUNCTION_IN_CONVERTER_INIT] =
        "Stepped on a land mine, trying to access attribute %2$r:\n"
        "Don't access members of self.function inside converter_init!",
};

const Dialect dialect_3_11 = {
    .name = "3.11",
    .major = 3,
    .minor = 11,
    .reference = "CPython 3.11's Tools/clinic/clinic.py",
    .make_extensions = make_extensions_3_11,
    .syntax = SYNTAX_VERSION,
    .fixes = 0,
    .header_includes = false,
    .limited_capi = false,
    .prefixed_names = prefixed_names_3_11,
    .docstring_ascii_check = false,
    .exception_suggestions = false,
    .quoted_displayname = true,
    .keyword_parser = &keyword_parser_3_11,
    .defining_class_no_args = "nargs",
    .self_type_check_new =
        "({self} == {type} ||\n         {self}->tp_init == {prefix}tp_init)",
    .self_type_check_init =
        "(Py_IS_TYPE({self}, {type}) ||\n"
        "         Py_TYPE({self})->tp_new == {prefix}tp_new)",
    .base_type_ptr = NULL,
    .snippets = snippets_3_11,
    .nsnippets = sizeof snippets_3_11 / sizeof snippets_3_11[0],
    .messages = messages_3_11,
    /* clinic.py runs as a script: its own classes live in __main__ */
    .buffer_module = "__main__",
    .null_module = "__main__",
};

