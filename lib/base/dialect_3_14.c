/*
 * dialect_3_14.c — CPython 3.14's Argument Clinic (Tools/clinic/clinic.py
 * and libclinic/, as Debian's python3.14-examples ships it), as the
 * changes to 3.13's.  What is listed here so far: the static keyword
 * tuple's ob_hash, the _PyArg_UnpackKeywords call with its named counts,
 * and parser functions that take a plain PyObject * as their first
 * argument, cast at the impl call.  Everything else is 3.13's.
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

const Dialect dialect_3_14 = {
    .name = "3.14",
    .major = 3,
    .minor = 14,
    .reference = "CPython 3.14's Tools/clinic (clinic.py and libclinic/)",
    .base = &dialect_3_13,
    /* as 3.13 */
    .make_extensions = make_extensions_3_13,
    .syntax = DIALECT_3_13_SYNTAX,
    .fixes = DIALECT_3_13_FIXES | FIX_PYOBJECT_SELF,
    .header_includes = true,
    .limited_capi = true,
    .prefixed_names = prefixed_names_3_13,
    .docstring_ascii_check = true,
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
};
