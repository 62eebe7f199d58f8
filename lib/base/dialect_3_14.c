/*
 * dialect_3_14.c — CPython 3.14's Argument Clinic (Tools/clinic/clinic.py
 * and libclinic/, as Debian's python3.14-examples ships it), as the
 * changes to 3.13's.  What is listed here so far: the static keyword
 * tuple's ob_hash, the _PyArg_UnpackKeywords call with its named counts,
 * parser functions that take a plain PyObject * as their first argument,
 * cast at the impl call, the setter's deletion check, *args's own
 * converters (varpos_tuple, varpos_array), and the snippets of
 * 'c', 'C', 'k' and 'K' (lengths in their own errors; any index for the
 * bitwise ones).  Everything else is 3.13's.
 */
#include "base/dialect.h"

/* 3.14's keyword tuple carries the tuple's cached hash (ob_hash, -1: not
   computed yet); the rest of the declaration is 3.13's. */
static const DialectKeywordParser keyword_parser_3_14 = {
    .kwtuple_some =
        "#if defined(Py_BUILD_CORE) && !defined(Py_BUILD_CORE_MODULE)\n"
        "\n"
        "#define NUM_KEYWORDS %d\n"
        "static struct {{\n"
        "    PyGC_Head _this_is_not_used;\n"
        "    PyObject_VAR_HEAD\n"
        "    Py_hash_t ob_hash;\n"
        "    PyObject *ob_item[NUM_KEYWORDS];\n"
        "}} _kwtuple = {{\n"
        "    .ob_base = PyVarObject_HEAD_INIT(&PyTuple_Type, NUM_KEYWORDS)\n"
        "    .ob_hash = -1,\n"
        "    .ob_item = {{ {keywords_py} }},\n"
        "}};\n"
        "#undef NUM_KEYWORDS\n"
        "#define KWTUPLE (&_kwtuple.ob_base.ob_base)\n"
        "\n"
        "#else  // !Py_BUILD_CORE\n"
        "#  define KWTUPLE NULL\n"
        "#endif  // !Py_BUILD_CORE\n"
        "\n",
    /* one function for keywords with or without *args, its counts named */
    .unpack_call =
        "    %s = _PyArg_UnpackKeywords(%s, &_parser,\n"
        "            /*minpos*/ %d, /*maxpos*/ %d, /*minkw*/ %d, "
        "/*varpos*/ %d, argsbuf);\n"
        "    if (!%s) {{\n"
        "        goto exit;\n"
        "    }}",
};

/* The Limited C API's conversion of the unsigned converters that are
   not bitwise (BaseUnsignedIntConverter's): any index, a negative one
   refused, too large an one an OverflowError. */
#define UNSIGNED_AS_NATIVE_BYTES                                              \
    "{{{{\n"                                                                  \
    "    Py_ssize_t _bytes = PyLong_AsNativeBytes({argname}, &{paramname}, "  \
    "sizeof({type}),\n"                                                      \
    "            Py_ASNATIVEBYTES_NATIVE_ENDIAN |\n"                         \
    "            Py_ASNATIVEBYTES_ALLOW_INDEX |\n"                           \
    "            Py_ASNATIVEBYTES_REJECT_NEGATIVE |\n"                       \
    "            Py_ASNATIVEBYTES_UNSIGNED_BUFFER);\n"                       \
    "    if (_bytes < 0) {{{{\n"                                             \
    "        goto exit;\n"                                                   \
    "    }}}}\n"                                                             \
    "    if ((size_t)_bytes > sizeof({type})) {{{{\n"                        \
    "        PyErr_SetString(PyExc_OverflowError,\n"                         \
    "                        \"Python int too large for C {type}\");\n"      \
    "        goto exit;\n"                                                   \
    "    }}}}\n"                                                             \
    "}}}}\n"
#define UNSIGNED_LIMITED(cls)                                                 \
    {.converter = cls, .variant = "limited", .api = SNIPPET_LIMITED_API,      \
     .text = UNSIGNED_AS_NATIVE_BYTES, .indent = 12}

/* The snippets 3.14 writes differently: a wrong length has its own
   message (naming the length), and the bitwise converters take any
   object with __index__. */
static const DialectSnippet snippets_3_14[] = {
    {.converter = "char_converter", .variant = "c", .api = SNIPPET_ANY_API,
     .text =
         "if (PyBytes_Check({argname})) {{{{\n"
         "    if (PyBytes_GET_SIZE({argname}) != 1) {{{{\n"
         "        PyErr_Format(PyExc_TypeError,\n"
         "            \"{{name}}(): {displayname} must be a byte string of length 1, \"\n"
         "            \"not a bytes object of length %zd\",\n"
         "            PyBytes_GET_SIZE({argname}));\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    {paramname} = PyBytes_AS_STRING({argname})[0];\n"
         "}}}}\n"
         "else if (PyByteArray_Check({argname})) {{{{\n"
         "    if (PyByteArray_GET_SIZE({argname}) != 1) {{{{\n"
         "        PyErr_Format(PyExc_TypeError,\n"
         "            \"{{name}}(): {displayname} must be a byte string of length 1, \"\n"
         "            \"not a bytearray object of length %zd\",\n"
         "            PyByteArray_GET_SIZE({argname}));\n"
         "        goto exit;\n"
         "    }}}}\n"
         "    {paramname} = PyByteArray_AS_STRING({argname})[0];\n"
         "}}}}\n"
         "else {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n",
     .expected = "a byte string of length 1"},
    {.converter = "int_converter", .variant = "C", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyUnicode_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "if (PyUnicode_GET_LENGTH({argname}) != 1) {{{{\n"
         "    PyErr_Format(PyExc_TypeError,\n"
         "        \"{{name}}(): {displayname} must be a unicode character, \"\n"
         "        \"not a string of length %zd\",\n"
         "        PyUnicode_GET_LENGTH({argname}));\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = PyUnicode_READ_CHAR({argname}, 0);\n",
     .expected = "a unicode character"},
    {.converter = "unsigned_long_converter", .variant = "k", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyIndex_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = PyLong_AsUnsignedLongMask({argname});\n",
     .expected = "int"},
    {.converter = "unsigned_long_long_converter", .variant = "K", .api = SNIPPET_ANY_API,
     .text =
         "if (!PyIndex_Check({argname})) {{{{\n"
         "    {bad_argument}\n"
         "    goto exit;\n"
         "}}}}\n"
         "{paramname} = PyLong_AsUnsignedLongLongMask({argname});\n",
     .expected = "int"},
    UNSIGNED_LIMITED("unsigned_short_converter"),
    UNSIGNED_LIMITED("unsigned_int_converter"),
    UNSIGNED_LIMITED("unsigned_long_converter"),
    UNSIGNED_LIMITED("unsigned_long_long_converter"),
    UNSIGNED_LIMITED("size_t_converter"),
    /* uint8 ... uint64 */
    UNSIGNED_LIMITED("BaseUnsignedIntConverter"),
};

/* The converter classes 3.14 adds: those of *args, the unsigned
   integers of a given width, and file names through the file system
   encoding. */
static const char *const converters_added_3_14[] = {
    "varpos_tuple_converter", "varpos_array_converter",
    "uint8_converter", "uint16_converter", "uint32_converter",
    "uint64_converter", "unicode_fs_encoded_converter",
    "unicode_fs_decoded_converter",
    /* the bases clinic's module defines for them, registered under no
       converter name */
    "BaseUnsignedIntConverter", "VarPosCConverter", NULL,
};

/* The unsigned integers share a base class (its bitwise, its parse_arg
   for the Limited C API); unsigned_char is not one of them. */
static const DialectClassBase class_bases_3_14[] = {
    {"unsigned_short_converter", "BaseUnsignedIntConverter"},
    {"unsigned_int_converter", "BaseUnsignedIntConverter"},
    {"unsigned_long_converter", "BaseUnsignedIntConverter"},
    {"unsigned_long_long_converter", "BaseUnsignedIntConverter"},
    {"size_t_converter", "BaseUnsignedIntConverter"},
    {NULL, NULL},
};

/* CConverter's c_ignored_default is "" (it was "NULL"), so the classes
   that inherited it have none; slice_index's is "0"; Py_buffer's
   "{NULL, NULL}" became its c_init_default.  CConverter's default_type
   is object (it was None); self's and defining_class's is (): they
   take no default.  Defaults are checked
   against more precise types (unsigned_char, no longer derived from the
   unsigned base, takes any). */
static const DialectClassDefaults class_defaults_3_14[] = {
    {"CConverter", "", "", "object"},
    {"defining_class_converter", "", "", "()"},
    {"self_converter", "", "", "()"},
    {"fildes_converter", "", "", NULL},
    {"slice_index_converter", "0", "", "int, NoneType"},
    {"Py_buffer_converter", "", "{NULL, NULL}",
     "str, bytes, NullType, NoneType"},
    {"Py_ssize_t_converter", NULL, NULL, "int, NoneType"},
    {"size_t_converter", NULL, NULL, "int"},
    {"char_converter", NULL, NULL, "bytes"},
    {"str_converter", NULL, NULL, "str, bytes, NullType, NoneType"},
    {"unsigned_char_converter", NULL, NULL, "object"},
    {"byte_converter", NULL, NULL, "object"},
    {NULL, NULL, NULL, NULL},
};

/* 3.14 words these its own way. */
static const char *const messages_3_14[MSG_COUNT] = {
    /* one line: the declaration is parsed whole, as Python */
    [MSG_INVALID_PARAMETER] =
        "Function %r has an invalid parameter declaration: %r",
    /* the converter found no C default for its default */
    [MSG_C_DEFAULT_REQUIRED] =
        "%s: c_default is required for default value %s",
    /* the accessors named together, whichever it is */
    [MSG_ACCESSOR_RETURN_TYPE] =
        "@getter and @setter methods cannot define a return type",
    [MSG_ACCESSOR_PARAMETERS] =
        "@getter and @setter methods cannot define parameters",
};

const Dialect dialect_3_14 = {
    .name = "3.14",
    .major = 3,
    .minor = 14,
    .reference = "CPython 3.14's Tools/clinic (clinic.py and libclinic/)",
    .base = &dialect_3_13,
    /* as 3.13, but the fixes */
    .make_extensions = make_extensions_3_13,
    .make_normalises_paths = true,
    .syntax = DIALECT_3_13_SYNTAX | SYNTAX_DELETER | SYNTAX_DISABLE,
    .fixes = DIALECT_3_14_FIXES,
    .header_includes = true,
    .limited_capi = true,
    .prefixed_names = prefixed_names_3_13,
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
    .keyword_parser = &keyword_parser_3_14,
    .snippets = snippets_3_14,
    .nsnippets = sizeof snippets_3_14 / sizeof snippets_3_14[0],
    /* a setter is called with NULL to delete the attribute: refused
       before the impl is called */
    .setter_preamble =
        "    if (value == NULL) {{\n"
        "        PyErr_Format(PyExc_AttributeError,\n"
        "                     \"attribute '{name}' of '%.100s' objects cannot be deleted\",\n"
        "                     Py_TYPE({self_name})->tp_name);\n"
        "        return -1;\n"
        "    }}",
    /* *args: object is refused, as 3.14 refuses it */
    .varpos_prefix = "varpos_",
    .converters_added = converters_added_3_14,
    .varpos_tuple_from_array = "_PyTuple_FromArray",
    .varpos_tuple_include = "pycore_tuple.h",
    .messages = messages_3_14,
    .null_type_name = "NullType",
    .class_defaults = class_defaults_3_14,
    .class_bases = class_bases_3_14,
};
