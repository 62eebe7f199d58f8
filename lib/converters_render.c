/*
 * converters_render.c — what a converter instance contributes to the
 * generated code: declarations, the impl and parser argument lists,
 * the specialised parsing snippets (parse_arg), cleanup and
 * post-parsing code, self/defining_class template entries, and the
 * return converters' conversion code.
 *
 * The parse_arg snippets are clinic.py's own template text: each is
 * returned after the same .format() call the reference makes, so it
 * still holds "{{name}}" and doubled braces for the generator's later
 * format pass, and the reference's indentation, which the generator
 * removes with normalize_snippet.
 */
#include <string.h>

#include "converters_impl.h"

/* ---- parse_arg templates, verbatim from clinic.py -------------------- */

/* CConverter.parse_arg (clinic.py line 2802) */
static const char tpl_converter[] =
    "\n"
    "                if (!{converter}({argname}, &{paramname})) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* CConverter.parse_arg (clinic.py line 2812) */
static const char tpl_type_checked[] =
    "\n"
    "                    if (!{typecheck}({argname})) {{{{\n"
    "                        _PyArg_BadArgument(\"{{name}}\", {displayname}, \"{typename}\", {argname});\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    {paramname} = {cast}{argname};\n"
    "                    ";

/* CConverter.parse_arg (clinic.py line 2821) */
static const char tpl_subclass_of[] =
    "\n"
    "                if (!PyObject_TypeCheck({argname}, {subclass_of})) {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, ({subclass_of})->tp_name, {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                {paramname} = {cast}{argname};\n"
    "                ";

/* CConverter.parse_arg (clinic.py line 2832) */
static const char tpl_object[] =
    "\n"
    "                {paramname} = {cast}{argname};\n"
    "                ";

/* bool_converter.parse_arg (clinic.py line 2877) */
static const char tpl_bool_i[] =
    "\n"
    "                {paramname} = _PyLong_AsInt({argname});\n"
    "                if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* bool_converter.parse_arg (clinic.py line 2884) */
static const char tpl_bool_p[] =
    "\n"
    "                {paramname} = PyObject_IsTrue({argname});\n"
    "                if ({paramname} < 0) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* char_converter.parse_arg (clinic.py line 2928) */
static const char tpl_char[] =
    "\n"
    "                if (PyBytes_Check({argname}) && PyBytes_GET_SIZE({argname}) == 1) {{{{\n"
    "                    {paramname} = PyBytes_AS_STRING({argname})[0];\n"
    "                }}}}\n"
    "                else if (PyByteArray_Check({argname}) && PyByteArray_GET_SIZE({argname}) == 1) {{{{\n"
    "                    {paramname} = PyByteArray_AS_STRING({argname})[0];\n"
    "                }}}}\n"
    "                else {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"a byte string of length 1\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* unsigned_char_converter.parse_arg (clinic.py line 2957) */
static const char tpl_unsigned_char_b[] =
    "\n"
    "                {{{{\n"
    "                    long ival = PyLong_AsLong({argname});\n"
    "                    if (ival == -1 && PyErr_Occurred()) {{{{\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    else if (ival < 0) {{{{\n"
    "                        PyErr_SetString(PyExc_OverflowError,\n"
    "                                        \"unsigned byte integer is less than minimum\");\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    else if (ival > UCHAR_MAX) {{{{\n"
    "                        PyErr_SetString(PyExc_OverflowError,\n"
    "                                        \"unsigned byte integer is greater than maximum\");\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    else {{{{\n"
    "                        {paramname} = (unsigned char) ival;\n"
    "                    }}}}\n"
    "                }}}}\n"
    "                ";

/* unsigned_char_converter.parse_arg (clinic.py line 2979) */
static const char tpl_unsigned_char_B[] =
    "\n"
    "                {{{{\n"
    "                    unsigned long ival = PyLong_AsUnsignedLongMask({argname});\n"
    "                    if (ival == (unsigned long)-1 && PyErr_Occurred()) {{{{\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    else {{{{\n"
    "                        {paramname} = (unsigned char) ival;\n"
    "                    }}}}\n"
    "                }}}}\n"
    "                ";

/* short_converter.parse_arg (clinic.py line 3002) */
static const char tpl_short[] =
    "\n"
    "                {{{{\n"
    "                    long ival = PyLong_AsLong({argname});\n"
    "                    if (ival == -1 && PyErr_Occurred()) {{{{\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    else if (ival < SHRT_MIN) {{{{\n"
    "                        PyErr_SetString(PyExc_OverflowError,\n"
    "                                        \"signed short integer is less than minimum\");\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    else if (ival > SHRT_MAX) {{{{\n"
    "                        PyErr_SetString(PyExc_OverflowError,\n"
    "                                        \"signed short integer is greater than maximum\");\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    else {{{{\n"
    "                        {paramname} = (short) ival;\n"
    "                    }}}}\n"
    "                }}}}\n"
    "                ";

/* unsigned_short_converter.parse_arg (clinic.py line 3038) */
static const char tpl_unsigned_short_H[] =
    "\n"
    "                {paramname} = (unsigned short)PyLong_AsUnsignedLongMask({argname});\n"
    "                if ({paramname} == (unsigned short)-1 && PyErr_Occurred()) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* int_converter.parse_arg (clinic.py line 3063) */
static const char tpl_int[] =
    "\n"
    "                {paramname} = _PyLong_AsInt({argname});\n"
    "                if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* int_converter.parse_arg (clinic.py line 3070) */
static const char tpl_int_C[] =
    "\n"
    "                if (!PyUnicode_Check({argname})) {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"a unicode character\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                if (PyUnicode_READY({argname})) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                if (PyUnicode_GET_LENGTH({argname}) != 1) {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"a unicode character\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                {paramname} = PyUnicode_READ_CHAR({argname}, 0);\n"
    "                ";

/* unsigned_int_converter.parse_arg (clinic.py line 3100) */
static const char tpl_unsigned_int_I[] =
    "\n"
    "                {paramname} = (unsigned int)PyLong_AsUnsignedLongMask({argname});\n"
    "                if ({paramname} == (unsigned int)-1 && PyErr_Occurred()) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* long_converter.parse_arg (clinic.py line 3116) */
static const char tpl_long[] =
    "\n"
    "                {paramname} = PyLong_AsLong({argname});\n"
    "                if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* unsigned_long_converter.parse_arg (clinic.py line 3137) */
static const char tpl_unsigned_long_k[] =
    "\n"
    "                if (!PyLong_Check({argname})) {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"int\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                {paramname} = PyLong_AsUnsignedLongMask({argname});\n"
    "                ";

/* long_long_converter.parse_arg (clinic.py line 3155) */
static const char tpl_long_long[] =
    "\n"
    "                {paramname} = PyLong_AsLongLong({argname});\n"
    "                if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* unsigned_long_long_converter.parse_arg (clinic.py line 3176) */
static const char tpl_unsigned_long_long_K[] =
    "\n"
    "                if (!PyLong_Check({argname})) {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"int\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                {paramname} = PyLong_AsUnsignedLongLongMask({argname});\n"
    "                ";

/* Py_ssize_t_converter.parse_arg (clinic.py line 3201) */
static const char tpl_py_ssize_t[] =
    "\n"
    "                {{{{\n"
    "                    Py_ssize_t ival = -1;\n"
    "                    PyObject *iobj = _PyNumber_Index({argname});\n"
    "                    if (iobj != NULL) {{{{\n"
    "                        ival = PyLong_AsSsize_t(iobj);\n"
    "                        Py_DECREF(iobj);\n"
    "                    }}}}\n"
    "                    if (ival == -1 && PyErr_Occurred()) {{{{\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    {paramname} = ival;\n"
    "                }}}}\n"
    "                ";

/* size_t_converter.parse_arg (clinic.py line 3236) */
static const char tpl_size_t_n[] =
    "\n"
    "                {paramname} = PyNumber_AsSsize_t({argname}, PyExc_OverflowError);\n"
    "                if ({paramname} == -1 && PyErr_Occurred()) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* float_converter.parse_arg (clinic.py line 3266) */
static const char tpl_float[] =
    "\n"
    "                if (PyFloat_CheckExact({argname})) {{{{\n"
    "                    {paramname} = (float) (PyFloat_AS_DOUBLE({argname}));\n"
    "                }}}}\n"
    "                else\n"
    "                {{{{\n"
    "                    {paramname} = (float) PyFloat_AsDouble({argname});\n"
    "                    if ({paramname} == -1.0 && PyErr_Occurred()) {{{{\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                }}}}\n"
    "                ";

/* double_converter.parse_arg (clinic.py line 3288) */
static const char tpl_double[] =
    "\n"
    "                if (PyFloat_CheckExact({argname})) {{{{\n"
    "                    {paramname} = PyFloat_AS_DOUBLE({argname});\n"
    "                }}}}\n"
    "                else\n"
    "                {{{{\n"
    "                    {paramname} = PyFloat_AsDouble({argname});\n"
    "                    if ({paramname} == -1.0 && PyErr_Occurred()) {{{{\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                }}}}\n"
    "                ";

/* Py_complex_converter.parse_arg (clinic.py line 3311) */
static const char tpl_py_complex[] =
    "\n"
    "                {paramname} = PyComplex_AsCComplex({argname});\n"
    "                if (PyErr_Occurred()) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* str_converter.parse_arg (clinic.py line 3387) */
static const char tpl_str_s[] =
    "\n"
    "                if (!PyUnicode_Check({argname})) {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"str\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                Py_ssize_t {paramname}_length;\n"
    "                {paramname} = PyUnicode_AsUTF8AndSize({argname}, &{paramname}_length);\n"
    "                if ({paramname} == NULL) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                if (strlen({paramname}) != (size_t){paramname}_length) {{{{\n"
    "                    PyErr_SetString(PyExc_ValueError, \"embedded null character\");\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* str_converter.parse_arg (clinic.py line 3404) */
static const char tpl_str_z[] =
    "\n"
    "                if ({argname} == Py_None) {{{{\n"
    "                    {paramname} = NULL;\n"
    "                }}}}\n"
    "                else if (PyUnicode_Check({argname})) {{{{\n"
    "                    Py_ssize_t {paramname}_length;\n"
    "                    {paramname} = PyUnicode_AsUTF8AndSize({argname}, &{paramname}_length);\n"
    "                    if ({paramname} == NULL) {{{{\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    if (strlen({paramname}) != (size_t){paramname}_length) {{{{\n"
    "                        PyErr_SetString(PyExc_ValueError, \"embedded null character\");\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                }}}}\n"
    "                else {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"str or None\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* PyBytesObject_converter.parse_arg (clinic.py line 3482) */
static const char tpl_bytes[] =
    "\n"
    "                if (!PyBytes_Check({argname})) {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"bytes\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                {paramname} = ({type}){argname};\n"
    "                ";

/* PyByteArrayObject_converter.parse_arg (clinic.py line 3499) */
static const char tpl_bytearray[] =
    "\n"
    "                if (!PyByteArray_Check({argname})) {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"bytearray\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                {paramname} = ({type}){argname};\n"
    "                ";

/* unicode_converter.parse_arg (clinic.py line 3516) */
static const char tpl_unicode[] =
    "\n"
    "                if (!PyUnicode_Check({argname})) {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"str\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                if (PyUnicode_READY({argname}) == -1) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                {paramname} = {argname};\n"
    "                ";

/* Py_UNICODE_converter.cleanup (clinic.py line 3555) */
static const char tpl_py_unicode_cleanup[] =
    "#if !USE_UNICODE_WCHAR_CACHE\n"
    "PyMem_Free((void *){name});\n"
    "#endif /* USE_UNICODE_WCHAR_CACHE */\n";

/* Py_UNICODE_converter.parse_arg (clinic.py line 3564) */
static const char tpl_py_unicode[] =
    "\n"
    "                    if (!PyUnicode_Check({argname})) {{{{\n"
    "                        _PyArg_BadArgument(\"{{name}}\", {argnum}, \"str\", {argname});\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    #if USE_UNICODE_WCHAR_CACHE\n"
    "                    {paramname} = _PyUnicode_AsUnicode({argname});\n"
    "                    #else /* USE_UNICODE_WCHAR_CACHE */\n"
    "                    {paramname} = PyUnicode_AsWideCharString({argname}, NULL);\n"
    "                    #endif /* USE_UNICODE_WCHAR_CACHE */\n"
    "                    if ({paramname} == NULL) {{{{\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    ";

/* Py_UNICODE_converter.parse_arg (clinic.py line 3579) */
static const char tpl_py_unicode_or_none[] =
    "\n"
    "                    if ({argname} == Py_None) {{{{\n"
    "                        {paramname} = NULL;\n"
    "                    }}}}\n"
    "                    else if (PyUnicode_Check({argname})) {{{{\n"
    "                        #if USE_UNICODE_WCHAR_CACHE\n"
    "                        {paramname} = _PyUnicode_AsUnicode({argname});\n"
    "                        #else /* USE_UNICODE_WCHAR_CACHE */\n"
    "                        {paramname} = PyUnicode_AsWideCharString({argname}, NULL);\n"
    "                        #endif /* USE_UNICODE_WCHAR_CACHE */\n"
    "                        if ({paramname} == NULL) {{{{\n"
    "                            goto exit;\n"
    "                        }}}}\n"
    "                    }}}}\n"
    "                    else {{{{\n"
    "                        _PyArg_BadArgument(\"{{name}}\", {argnum}, \"str or None\", {argname});\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    ";

/* Py_buffer_converter.parse_arg (clinic.py line 3634) */
static const char tpl_buffer_y[] =
    "\n"
    "                if (PyObject_GetBuffer({argname}, &{paramname}, PyBUF_SIMPLE) != 0) {{{{\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                if (!PyBuffer_IsContiguous(&{paramname}, 'C')) {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"contiguous buffer\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* Py_buffer_converter.parse_arg (clinic.py line 3645) */
static const char tpl_buffer_s[] =
    "\n"
    "                if (PyUnicode_Check({argname})) {{{{\n"
    "                    Py_ssize_t len;\n"
    "                    const char *ptr = PyUnicode_AsUTF8AndSize({argname}, &len);\n"
    "                    if (ptr == NULL) {{{{\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    PyBuffer_FillInfo(&{paramname}, {argname}, (void *)ptr, len, 1, 0);\n"
    "                }}}}\n"
    "                else {{{{ /* any bytes-like object */\n"
    "                    if (PyObject_GetBuffer({argname}, &{paramname}, PyBUF_SIMPLE) != 0) {{{{\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                    if (!PyBuffer_IsContiguous(&{paramname}, 'C')) {{{{\n"
    "                        _PyArg_BadArgument(\"{{name}}\", {displayname}, \"contiguous buffer\", {argname});\n"
    "                        goto exit;\n"
    "                    }}}}\n"
    "                }}}}\n"
    "                ";

/* Py_buffer_converter.parse_arg (clinic.py line 3666) */
static const char tpl_buffer_w[] =
    "\n"
    "                if (PyObject_GetBuffer({argname}, &{paramname}, PyBUF_WRITABLE) < 0) {{{{\n"
    "                    PyErr_Clear();\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"read-write bytes-like object\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                if (!PyBuffer_IsContiguous(&{paramname}, 'C')) {{{{\n"
    "                    _PyArg_BadArgument(\"{{name}}\", {displayname}, \"contiguous buffer\", {argname});\n"
    "                    goto exit;\n"
    "                }}}}\n"
    "                ";

/* ---- names and declarations ------------------------------------------- */

/* bpo-39741: "args" is the parser's own variable. */
const char *builtin_parser_name(Clinic *c, const Converter *conv)
{
    if (strcmp(conv->name, "args") == 0)
        return arena_printf(c->arena, "__clinic_%s", conv->name);
    return conv->name;
}

const char *builtin_length_name(Clinic *c, const Converter *conv)
{
    if (!conv->length)
        return NULL;
    return arena_printf(c->arena, "%s_length", converter_parser_name(c, conv));
}

const char *builtin_simple_declaration(Clinic *c, const Converter *conv,
                                       bool by_reference, bool in_parser)
{
    const char *type = conv->type ? conv->type : "";
    bool space = by_reference || !text_endswith(type, "*");
    return arena_printf(c->arena, "%s%s%s%s", type, space ? " " : "",
                        by_reference ? "*" : "",
                        in_parser ? converter_parser_name(c, conv)
                                  : conv->name);
}

const char *builtin_declaration(Clinic *c, const Converter *conv)
{
    StrBuf sb = STRBUF_INIT;
    sb_adds(&sb, converter_simple_declaration(c, conv, false, true));
    const char *def = conv->c_default;
    if ((!def || !def[0]) && conv->parameter && conv->parameter->group)
        def = conv->c_ignored_default;
    if (def && def[0]) {
        sb_adds(&sb, " = ");
        sb_adds(&sb, def);
    }
    sb_addc(&sb, ';');
    if (conv->length) {
        sb_adds(&sb, "\nPy_ssize_t ");
        sb_adds(&sb, converter_length_name(c, conv));
        sb_addc(&sb, ';');
    }
    return sb_take(&sb, c->arena);
}

static bool unit_is(const Converter *conv, const char *unit)
{
    return conv->format_unit && strcmp(conv->format_unit, unit) == 0;
}

/* ---- cleanup and post-parsing ----------------------------------------- */

/* CConverter's initialize/modify/cleanup/post_parsing and the built-in
   overrides: "" when there is none. */
const char *builtin_snippet(Clinic *c, ConverterKind kind,
                            const Converter *conv, ConverterSnippet which)
{
    if (which == SNIPPET_CLEANUP) {
        if (kind == CK_PY_UNICODE && !conv->length) {
            StrMap m = { 0 };
            strmap_set(c->arena, &m, "name", conv->name);
            return text_format_map(c->arena, tpl_py_unicode_cleanup, &m,
                                   NULL);
        }
        if (kind == CK_PY_BUFFER)
            return arena_printf(c->arena,
                                "if (%s.obj) {\n   PyBuffer_Release(&%s);\n}\n",
                                conv->name, conv->name);
    } else if (which == SNIPPET_POST_PARSING) {
        if (kind == CK_STR && conv->encoding && conv->encoding[0])
            return arena_printf(c->arena, "PyMem_FREE(%s);\n", conv->name);
    }
    return "";
}

/* ---- rendering into CRenderData --------------------------------------- */

void builtin_render_self(Clinic *c, Converter *conv, Parameter *p,
                         RenderData *data)
{
    conv->parameter = p;
    const char *name = converter_parser_name(c, conv);

    strlist_push(c->arena, &data->impl_arguments,
                 conv->impl_by_reference
                     ? arena_printf(c->arena, "&%s", name) : name);
    if (conv->length)
        strlist_push(c->arena, &data->impl_arguments,
                     converter_length_name(c, conv));

    strlist_push(c->arena, &data->impl_parameters,
                 converter_simple_declaration(c, conv,
                                              conv->impl_by_reference, false));
    if (conv->length)
        strlist_push(c->arena, &data->impl_parameters,
                     arena_printf(c->arena, "Py_ssize_t %s",
                                  converter_length_name(c, conv)));
}

void builtin_render_non_self(Clinic *c, Converter *conv, Parameter *p,
                             RenderData *data)
{
    Arena *a = c->arena;
    conv->parameter = p;
    const char *name = conv->name;

    strlist_push(a, &data->declarations, converter_declaration(c, conv));

    const char *initializers = converter_snippet(c, conv, SNIPPET_INITIALIZE);
    if (initializers[0])
        strlist_push(a, &data->initializers,
                     arena_printf(a, "/* initializers for %s */\n%s", name,
                                  text_rstrip(a, initializers)));
    const char *modifications = converter_snippet(c, conv, SNIPPET_MODIFY);
    if (modifications[0])
        strlist_push(a, &data->modifications,
                     arena_printf(a, "/* modifications for %s */\n%s", name,
                                  text_rstrip(a, modifications)));

    if (p->kind == PARAM_VAR_POSITIONAL)
        ;
    else if (p->kind == PARAM_POSITIONAL_ONLY)
        strlist_push(a, &data->keywords, "");
    else
        strlist_push(a, &data->keywords, p->name);

    if (converter_call_is_optional(c, conv) &&
        !strlist_contains(&data->format_units, "|"))
        strlist_push(a, &data->format_units, "|");
    if (p->kind == PARAM_KEYWORD_ONLY &&
        !strlist_contains(&data->format_units, "$"))
        strlist_push(a, &data->format_units, "$");
    strlist_push(a, &data->format_units,
                 conv->format_unit ? conv->format_unit : "");

    converter_parse_argument(c, conv, &data->parse_arguments);

    const char *post = converter_snippet(c, conv, SNIPPET_POST_PARSING);
    if (post[0])
        strlist_push(a, &data->post_parsing,
                     arena_printf(a, "/* Post parse cleanup for %s */\n%s\n",
                                  name, text_rstrip(a, post)));

    const char *cleanup = converter_snippet(c, conv, SNIPPET_CLEANUP);
    if (cleanup[0])
        strlist_push(a, &data->cleanup,
                     arena_printf(a, "/* Cleanup for %s */\n%s\n", name,
                                  text_rstrip(a, cleanup)));
}

void builtin_render(Clinic *c, ConverterKind kind, Converter *conv,
                    Parameter *p, RenderData *data)
{
    switch (kind) {
    case CK_DEFINING_CLASS:
        converter_render_self(c, conv, p, data);
        return;
    case CK_SELF: {
        if (conv->function->kind == FUNC_STATIC_METHOD)
            return;
        converter_render_self(c, conv, p, data);
        const char *type = conv->type ? conv->type : "";
        const char *parser_type = self_converter_parser_type(c, conv);
        if (parser_type && strcmp(type, parser_type) != 0 &&
            data->impl_arguments.len)
            /* self is always the first impl argument */
            data->impl_arguments.items[0] =
                arena_printf(c->arena, "(%s)%s", type,
                             data->impl_arguments.items[0]);
        return;
    }
    default:
        converter_render_self(c, conv, p, data);
        converter_render_non_self(c, conv, p, data);
        return;
    }
}

void builtin_parse_argument(Clinic *c, Converter *conv, StrList *list)
{
    Arena *a = c->arena;
    if (unit_is(conv, "O&")) {
        if (!conv->converter)
            clinic_fail(c, 0, "Exception raised during parsing:\n"
                              "AssertionError");
        strlist_push(a, list, conv->converter);
    }
    if (conv->encoding)
        strlist_push(a, list, text_c_repr(a, conv->encoding));
    else if (conv->subclass_of)
        strlist_push(a, list, conv->subclass_of);

    strlist_push(a, list, conv->parse_by_reference
                              ? arena_printf(a, "&%s", conv->name)
                              : conv->name);
    if (conv->length)
        strlist_push(a, list,
                     arena_printf(a, "&%s", converter_length_name(c, conv)));
}

/* ---- parse_arg -------------------------------------------------------- */

const TypeCheck conv_type_checks[] = {
    { "&PyLong_Type", "PyLong_Check", "int" },
    { "&PyTuple_Type", "PyTuple_Check", "tuple" },
    { "&PyList_Type", "PyList_Check", "list" },
    { "&PySet_Type", "PySet_Check", "set" },
    { "&PyFrozenSet_Type", "PyFrozenSet_Check", "frozenset" },
    { "&PyDict_Type", "PyDict_Check", "dict" },
    { "&PyUnicode_Type", "PyUnicode_Check", "str" },
    { "&PyBytes_Type", "PyBytes_Check", "bytes" },
    { "&PyByteArray_Type", "PyByteArray_Check", "bytearray" },
    { NULL, NULL, NULL },
};

/* template.format(argname=..., paramname=..., displayname=..., ...) */
static const char *format_template(Clinic *c, const char *tpl,
                                   const char *argname, const char *paramname,
                                   const char *displayname, StrMap *extra)
{
    StrMap m = { 0 };
    if (extra)
        m = *extra;
    strmap_set(c->arena, &m, "argname", argname);
    strmap_set(c->arena, &m, "paramname", paramname);
    strmap_set(c->arena, &m, "displayname", displayname);
    strmap_set(c->arena, &m, "argnum", displayname);
    const char *missing = NULL;
    char *s = text_format_map(c->arena, tpl, &m, &missing);
    if (!s)
        clinic_fail(c, 0, "Exception raised during parsing:\nKeyError: '%s'",
                    missing ? missing : "?");
    return s;
}

/* CConverter.parse_arg: the 'O&', 'O!' and 'O' format units. */
static const char *base_parse_arg(Clinic *c, const Converter *conv,
                                  const char *argname,
                                  const char *displayname)
{
    Arena *a = c->arena;
    const char *paramname = converter_parser_name(c, conv);
    StrMap m = { 0 };
    if (unit_is(conv, "O&")) {
        strmap_set(a, &m, "converter", conv->converter ? conv->converter
                                                       : "None");
        return format_template(c, tpl_converter, argname, paramname,
                               displayname, &m);
    }
    const char *cast = "";
    if (conv->type && strcmp(conv->type, "PyObject *") != 0)
        cast = arena_printf(a, "(%s)", conv->type);
    strmap_set(a, &m, "cast", cast);
    if (unit_is(conv, "O!")) {
        const char *sub = conv->subclass_of ? conv->subclass_of : "None";
        for (const TypeCheck *t = conv_type_checks; t->subclass_of; t++) {
            if (strcmp(sub, t->subclass_of) == 0) {
                strmap_set(a, &m, "typecheck", t->typecheck);
                strmap_set(a, &m, "typename", t->typename_);
                return format_template(c, tpl_type_checked, argname,
                                       paramname, displayname, &m);
            }
        }
        strmap_set(a, &m, "subclass_of", sub);
        return format_template(c, tpl_subclass_of, argname, paramname,
                               displayname, &m);
    }
    if (unit_is(conv, "O"))
        return format_template(c, tpl_object, argname, paramname,
                               displayname, &m);
    return NULL;
}

/* One specialised snippet: the template when the format unit matches. */
typedef struct UnitTemplate {
    ConverterKind kind;
    const char *format_unit;
    const char *tpl;
} UnitTemplate;

static const UnitTemplate unit_templates[] = {
    { CK_BOOL, "i", tpl_bool_i },
    { CK_BOOL, "p", tpl_bool_p },
    { CK_CHAR, "c", tpl_char },
    { CK_UNSIGNED_CHAR, "b", tpl_unsigned_char_b },
    { CK_UNSIGNED_CHAR, "B", tpl_unsigned_char_B },
    { CK_SHORT, "h", tpl_short },
    { CK_UNSIGNED_SHORT, "H", tpl_unsigned_short_H },
    { CK_INT, "i", tpl_int },
    { CK_INT, "C", tpl_int_C },
    { CK_UNSIGNED_INT, "I", tpl_unsigned_int_I },
    { CK_LONG, "l", tpl_long },
    { CK_UNSIGNED_LONG, "k", tpl_unsigned_long_k },
    { CK_LONG_LONG, "L", tpl_long_long },
    { CK_UNSIGNED_LONG_LONG, "K", tpl_unsigned_long_long_K },
    { CK_PY_SSIZE_T, "n", tpl_py_ssize_t },
    { CK_SIZE_T, "n", tpl_size_t_n },
    { CK_FLOAT, "f", tpl_float },
    { CK_DOUBLE, "d", tpl_double },
    { CK_PY_COMPLEX, "D", tpl_py_complex },
    { CK_STR, "s", tpl_str_s },
    { CK_STR, "z", tpl_str_z },
    { CK_PYBYTESOBJECT, "S", tpl_bytes },
    { CK_PYBYTEARRAYOBJECT, "Y", tpl_bytearray },
    { CK_UNICODE, "U", tpl_unicode },
    { CK_PY_BUFFER, "y*", tpl_buffer_y },
    { CK_PY_BUFFER, "s*", tpl_buffer_s },
    { CK_PY_BUFFER, "w*", tpl_buffer_w },
};

const char *builtin_parse_arg(Clinic *c, ConverterKind kind, Converter *conv,
                              const char *argname, const char *displayname)
{

    if (kind == CK_PY_UNICODE) {
        /* Py_UNICODE_converter uses self.name, not parser_name. */
        if (!conv->length) {
            if (conv->accept == PYT_STR)
                return format_template(c, tpl_py_unicode, argname,
                                       conv->name, displayname, NULL);
            if (conv->accept == (PYT_STR | PYT_NONETYPE))
                return format_template(c, tpl_py_unicode_or_none, argname,
                                       conv->name, displayname, NULL);
        }
        return base_parse_arg(c, conv, argname, displayname);
    }

    for (size_t i = 0; i < sizeof unit_templates / sizeof unit_templates[0];
         i++) {
        const UnitTemplate *t = &unit_templates[i];
        if (t->kind != kind || !unit_is(conv, t->format_unit))
            continue;
        StrMap m = { 0 };
        if (kind == CK_PYBYTESOBJECT || kind == CK_PYBYTEARRAYOBJECT)
            strmap_set(c->arena, &m, "type", conv->type);
        return format_template(c, t->tpl, argname,
                               converter_parser_name(c, conv), displayname,
                               &m);
    }
    return base_parse_arg(c, conv, argname, displayname);
}

/* ---- self and defining_class ------------------------------------------ */

void correct_name_for_self(const Function *f, const char **type,
                           const char **name)
{
    switch (f->kind) {
    case FUNC_CALLABLE:
    case FUNC_METHOD_INIT:
        *type = "PyObject *";
        *name = f->cls ? "self" : "module";
        return;
    case FUNC_STATIC_METHOD:
        *type = "void *";
        *name = "null";
        return;
    case FUNC_CLASS_METHOD:
    case FUNC_METHOD_NEW:
    default:
        *type = "PyTypeObject *";
        *name = "type";
        return;
    }
}

void builtin_pre_render(Clinic *c, ConverterKind kind, Converter *conv)
{
    (void)c;
    if (kind != CK_SELF)
        return;
    const Function *f = conv->function;
    const char *default_type, *default_name;
    correct_name_for_self(f, &default_type, &default_name);
    conv->signature_name = default_name;
    if (conv->self_type && conv->self_type[0])
        conv->type = conv->self_type;
    else if (!conv->type || !conv->type[0])
        conv->type = default_type;
    if (f->kind == FUNC_STATIC_METHOD || f->kind == FUNC_METHOD_NEW ||
        f->kind == FUNC_METHOD_INIT)
        conv->show_in_signature = false;
}

const char *builtin_parser_type(Clinic *c, const Converter *conv)
{
    (void)c;
    const Function *f = conv->function;
    switch (f->kind) {
    case FUNC_METHOD_INIT:
    case FUNC_METHOD_NEW:
    case FUNC_STATIC_METHOD:
    case FUNC_CLASS_METHOD: {
        const char *type, *name;
        correct_name_for_self(f, &type, &name);
        return type;
    }
    default:
        return conv->type;
    }
}

void builtin_set_template_dict(Clinic *c, ConverterKind kind, Converter *conv,
                               StrMap *template_dict)
{
    Arena *a = c->arena;
    switch (kind) {
    case CK_DEFINING_CLASS:
        strmap_set(a, template_dict, "defining_class_name", conv->name);
        return;
    case CK_SELF:
        break;
    default:
        return;
    }

    strmap_set(a, template_dict, "self_name", conv->name);
    strmap_set(a, template_dict, "self_type",
               self_converter_parser_type(c, conv));
    const Function *f = conv->function;
    const Class *cls = f->cls;
    if ((f->kind == FUNC_METHOD_NEW || f->kind == FUNC_METHOD_INIT) && cls &&
        cls->typedef_ && cls->typedef_[0]) {
        const char *type_object = cls->type_object;
        const char *prefix = type_object[0] == '&'
            ? arena_printf(a, "%s.", type_object + 1)
            : arena_printf(a, "%s->", type_object);
        const char *type_check;
        if (f->kind == FUNC_METHOD_NEW)
            type_check = arena_printf(a,
                "(%s == %s ||\n         %s->tp_init == %stp_init)",
                conv->name, type_object, conv->name, prefix);
        else
            type_check = arena_printf(a,
                "(Py_IS_TYPE(%s, %s) ||\n         Py_TYPE(%s)->tp_new == "
                "%stp_new)",
                conv->name, type_object, conv->name, prefix);
        strmap_set(a, template_dict, "self_type_check",
                   arena_printf(a, "%s &&\n        ", type_check));
    }
}

/* ---- return converters ------------------------------------------------ */

void builtin_declare(Clinic *c, ReturnConverter *rc, RenderData *data,
                     const char *name)
{
    if (!name)
        name = "_return_value";
    const char *type = rc->type ? rc->type : "";
    strlist_push(c->arena, &data->declarations,
                 arena_printf(c->arena, "%s%s%s;", type,
                              text_endswith(type, "*") ? "" : " ", name));
    data->return_value = name;
}

void builtin_err_occurred_if(Clinic *c, const char *expr, RenderData *data)
{
    strlist_push(c->arena, &data->return_conversion,
                 arena_printf(c->arena,
                              "if ((%s) && PyErr_Occurred()) {\n"
                              "    goto exit;\n}\n", expr));
}

void builtin_err_occurred_if_null_pointer(Clinic *c, const char *variable,
                                          RenderData *data)
{
    strlist_push(c->arena, &data->return_conversion,
                 arena_printf(c->arena,
                              "if (%s == NULL) {\n    goto exit;\n}\n",
                              variable));
}

void builtin_return_render(Clinic *c, ReturnKind kind, ReturnConverter *rc,
                           Function *f, RenderData *data)
{
    (void)f;
    Arena *a = c->arena;
    const char *cast = rc->cast ? rc->cast : "";
    switch (kind) {
    case RK_OBJECT:
    case RK_INIT:
        return;
    case RK_NONETYPE:
        return_converter_declare(c, rc, data, NULL);
        strlist_push(a, &data->return_conversion,
                     "if (_return_value != Py_None) {\n"
                     "    goto exit;\n"
                     "}\n"
                     "return_value = Py_None;\n"
                     "Py_INCREF(Py_None);");
        return;
    case RK_BOOL:
        return_converter_declare(c, rc, data, NULL);
        return_converter_err_occurred_if(c, rc, "_return_value == -1", data);
        strlist_push(a, &data->return_conversion,
                     "return_value = PyBool_FromLong((long)_return_value);\n");
        return;
    case RK_LONG:
        return_converter_declare(c, rc, data, NULL);
        return_converter_err_occurred_if(
            c, rc,
            arena_printf(a, "_return_value == %s-1",
                         rc->unsigned_cast ? rc->unsigned_cast : ""),
            data);
        strlist_push(a, &data->return_conversion,
                     arena_printf(a, "return_value = %s(%s_return_value);\n",
                                  rc->conversion_fn ? rc->conversion_fn : "",
                                  cast));
        return;
    case RK_DOUBLE:
        return_converter_declare(c, rc, data, NULL);
        return_converter_err_occurred_if(c, rc, "_return_value == -1.0", data);
        strlist_push(a, &data->return_conversion,
                     arena_printf(a,
                                  "return_value = PyFloat_FromDouble(%s"
                                  "_return_value);\n", cast));
        return;
    }
}
