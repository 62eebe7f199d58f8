/*
 * dialect_3_15.c — CPython 3.15's Argument Clinic (Tools/clinic/clinic.py
 * and libclinic/, as Debian's python3.15-examples ships it), as the
 * changes to 3.14's.  What is listed here so far: the width of a
 * docstring's summary line (over 72 characters, 68 in a class's method,
 * is an error).  Everything else is 3.14's.
 */
#include "base/dialect.h"

static const char *const messages_3_15[MSG_COUNT] = {
    [MSG_SUMMARY_TOO_LONG] =
        "Summary line for %r is too long!\n"
        "The summary line must be no longer than %s characters.",
};

const Dialect dialect_3_15 = {
    .name = "3.15",
    .major = 3,
    .minor = 15,
    .reference = "CPython 3.15's Tools/clinic (clinic.py and libclinic/)",
    .base = &dialect_3_14,
    /* as 3.13, but the fixes */
    .make_extensions = make_extensions_3_13,
    .syntax = DIALECT_3_13_SYNTAX,
    .fixes = DIALECT_3_14_FIXES,
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
    .keyword_parser = NULL,
    .summary_width = 72,
    .summary_width_method = 68,
    .messages = messages_3_15,
};
