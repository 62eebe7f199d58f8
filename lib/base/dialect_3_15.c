/*
 * dialect_3_15.c — CPython 3.15's Argument Clinic (Tools/clinic/clinic.py
 * and libclinic/, as Debian's python3.15-examples ships it), as the
 * changes to 3.14's.  What is listed here so far: nested modules, the
 * width of a
 * docstring's summary line (over 72 characters, 68 in a class's method,
 * is an error) and the bitwise unsigned converters' PyLong_AsNativeBytes.
 * Everything else is 3.14's.
 */
#include "base/dialect.h"

/* kwds joins the names renamed "__clinic_NAME" in the parser (3.15's
   **kwds parser declares one). */
static const char *const prefixed_names_3_15[] = {
    "_keywords", "_parser", "args", "argsbuf", "fastargs", "kwargs", "kwds",
    "kwnames", "nargs", "noptargs", "return_value", NULL,
};

static const char *const messages_3_15[MSG_COUNT] = {
    /* the dotted prefix that was not found */
    [MSG_NO_PARENT] = "Parent class or module %1$r does not exist.",
    [MSG_SUMMARY_TOO_LONG] =
        "Summary line for %r is too long!\n"
        "The summary line must be no longer than %s characters.",
    [MSG_BODY_TOO_LONG] =
        "Docstring lines for %r are too long!\n"
        "Lines should be no longer than %s characters.",
    [MSG_REMOVE_PERMIT_LONG_SUMMARY] =
        "Remove the @permit_long_summary decorator from %r!\n",
    [MSG_REMOVE_PERMIT_LONG_BODY] =
        "Remove the @permit_long_docstring_body decorator from %r!\n",
};

/* 3.15's bitwise unsigned converters ('B', 'H', 'I', 'k', 'K'; 'k' and
   'K' after their index check) convert through PyLong_AsNativeBytes, and
   warn (DeprecationWarning) where the value does not fit, in the full
   and the Limited C API alike. */
#define AS_NATIVE_BYTES                                                       \
    "{{{{\n"                                                                  \
    "    Py_ssize_t _bytes = PyLong_AsNativeBytes({argname}, &{paramname}, "  \
    "sizeof({type}),\n"                                                      \
    "            Py_ASNATIVEBYTES_NATIVE_ENDIAN |\n"                         \
    "            Py_ASNATIVEBYTES_ALLOW_INDEX |\n"                           \
    "            Py_ASNATIVEBYTES_UNSIGNED_BUFFER);\n"                       \
    "    if (_bytes < 0) {{{{\n"                                             \
    "        goto exit;\n"                                                   \
    "    }}}}\n"                                                             \
    "    if ((size_t)_bytes > sizeof({type})) {{{{\n"                        \
    "        if (PyErr_WarnEx(PyExc_DeprecationWarning,\n"                   \
    "            \"integer value out of range\", 1) < 0)\n"                  \
    "        {{{{\n"                                                         \
    "            goto exit;\n"                                               \
    "        }}}}\n"                                                         \
    "    }}}}\n"                                                             \
    "}}}}\n"

/* 'k' and 'K' take only an index */
#define INDEX_CHECK                                                           \
    "if (!PyIndex_Check({argname})) {{{{\n"                                   \
    "    {bad_argument}\n"                                                   \
    "    goto exit;\n"                                                       \
    "}}}}\n"

/* Py_ssize_t(allow_negative=False): the value is checked once
   converted; the check's text keeps the indentation the reference's own
   has, whatever the snippet around it has */
#define NON_NEGATIVE_CHECK(pad)                                               \
    "\n" pad "if ({paramname} < 0) {{{{\n"                                   \
    pad "    PyErr_SetString(PyExc_ValueError,\n"                             \
    pad "                    \"{paramname} cannot be negative\");\n"          \
    pad "    goto exit;\n"                                                    \
    pad "}}}}"

/* the 'n' converter with the check, its index function the API's own */
#define N_NON_NEGATIVE(index)                                                 \
    "{{{{\n"                                                                  \
    "    Py_ssize_t ival = -1;\n"                                             \
    "    PyObject *iobj = " index "({argname});\n"                            \
    "    if (iobj != NULL) {{{{\n"                                            \
    "        ival = PyLong_AsSsize_t(iobj);\n"                                \
    "        Py_DECREF(iobj);\n"                                              \
    "    }}}}\n"                                                              \
    "    if (ival == -1 && PyErr_Occurred()) {{{{\n"                          \
    "        goto exit;\n"                                                    \
    "    }}}}\n"                                                              \
    "    {paramname} = ival;" NON_NEGATIVE_CHECK("    ") "\n"                 \
    "}}}}\n"

static const DialectSnippet snippets_3_15[] = {
    {.converter = "Py_ssize_t_converter", .variant = "n_non_negative",
     .api = SNIPPET_FULL_API,
     .text = N_NON_NEGATIVE("_PyNumber_Index"),
     .include = "pycore_abstract.h", .include_reason = "_PyNumber_Index()"},
    {.converter = "Py_ssize_t_converter", .variant = "n_non_negative",
     .api = SNIPPET_LIMITED_API,
     .text = N_NON_NEGATIVE("PyNumber_Index")},
    {.converter = "Py_ssize_t_converter", .variant = "limited_non_negative",
     .api = SNIPPET_LIMITED_API,
     .text =
         "if ({argname} != Py_None) {{{{\n"
         "    if (PyIndex_Check({argname})) {{{{\n"
         "        {paramname} = PyNumber_AsSsize_t({argname}, PyExc_OverflowError);\n"
         "        if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
         "            goto exit;\n"
         "        }}}}" NON_NEGATIVE_CHECK("        ") "\n"
         "    }}}}\n"
         "    else {{{{\n"
         "        {bad_argument}\n"
         "        goto exit;\n"
         "    }}}}\n"
         "}}}}\n",
     .expected = "integer or None", .indent = 12},
    /* Every one computes its bad_argument (which asks for its #include),
       though only 'k' and 'K' write it. */
    {.converter = "unsigned_char_converter", .variant = "B", .api = SNIPPET_ANY_API,
     .text = AS_NATIVE_BYTES, .expected = "int"},
    {.converter = "unsigned_short_converter", .variant = "H", .api = SNIPPET_ANY_API,
     .text = AS_NATIVE_BYTES, .expected = "int"},
    {.converter = "unsigned_int_converter", .variant = "I", .api = SNIPPET_ANY_API,
     .text = AS_NATIVE_BYTES, .expected = "int"},
    {.converter = "unsigned_long_converter", .variant = "k", .api = SNIPPET_ANY_API,
     .text = INDEX_CHECK AS_NATIVE_BYTES,
     .expected = "int"},
    {.converter = "unsigned_long_long_converter", .variant = "K", .api = SNIPPET_ANY_API,
     .text = INDEX_CHECK AS_NATIVE_BYTES,
     .expected = "int"},
};

/* unsigned_char derives from the unsigned base again: an int default. */
static const DialectClassDefaults class_defaults_3_15[] = {
    {"unsigned_char_converter", NULL, NULL, "int"},
    {"byte_converter", NULL, NULL, "int"},
    {NULL, NULL, NULL, NULL},
};

/* The converter class 3.15 adds: that of **kwds. */
static const char *const converters_added_3_15[] = {
    "var_keyword_dict_converter", "VarKeywordCConverter", NULL,
};

/* unsigned_char (and byte, its subclass) joins the unsigned integers */
static const DialectClassBase class_bases_3_15[] = {
    {"unsigned_char_converter", "BaseUnsignedIntConverter"},
    {NULL, NULL},
};

/* Py_ssize_t(allow_negative=False) refuses a negative value */
static const DialectInitKeyword init_keywords_added_3_15[] = {
    {"Py_ssize_t_converter", "allow_negative", true},
    {NULL, NULL, false},
};

const Dialect dialect_3_15 = {
    .name = "3.15",
    .major = 3,
    .minor = 15,
    .reference = "CPython 3.15's Tools/clinic (clinic.py and libclinic/)",
    .base = &dialect_3_14,
    /* as 3.13, but the fixes */
    .make_extensions = make_extensions_3_13,
    .make_normalises_paths = true,
    .syntax = DIALECT_3_13_SYNTAX | SYNTAX_DELETER | SYNTAX_DISABLE |
              SYNTAX_PERMIT_LONG,
    .fixes = DIALECT_3_14_FIXES | FIX_NESTED_MODULES,
    .header_includes = true,
    .limited_capi = true,
    .prefixed_names = prefixed_names_3_15,
    .docstring_ascii_check = true,
    .exception_suggestions = true,
    .quoted_displayname = false,
    .defining_class_no_args = DIALECT_3_13_DEFINING_CLASS_NO_ARGS,
    .self_type_check_new = DIALECT_3_13_SELF_TYPE_CHECK_NEW,
    .self_type_check_init = DIALECT_3_13_SELF_TYPE_CHECK_INIT,
    .base_type_ptr = DIALECT_3_13_BASE_TYPE_PTR,
    .return_converters_lacking = return_converters_lacking_3_13,
    .return_converter_aliases = return_converter_aliases_3_13,
    .buffer_module = DIALECT_3_13_BUFFER_MODULE,
    .null_module = DIALECT_3_13_NULL_MODULE,
    .keyword_parser = NULL,
    .summary_width = 72,
    .summary_width_method = 68,
    .messages = messages_3_15,
    /* **kwds: var_keyword_dict */
    .var_keyword_prefix = "var_keyword_",
    /* *args: tuple is made with the public function, which needs no
       #include */
    .varpos_tuple_from_array = "PyTuple_FromArray",
    .varpos_tuple_include = "",
    .init_keywords_added = init_keywords_added_3_15,
    .converters_added = converters_added_3_15,
    .snippets = snippets_3_15,
    .nsnippets = sizeof snippets_3_15 / sizeof snippets_3_15[0],
    /* AS_NATIVE_BYTES: a value out of range warns */
    .bitwise_overflow_deprecated = true,
    .class_defaults = class_defaults_3_15,
    .class_bases = class_bases_3_15,
};
