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
#include <stdio.h>
#include <string.h>

#include "converters_impl.h"


/* ---- names and declarations ------------------------------------------- */

/* bpo-39741: a parameter named like one of the parser's own variables
   ("args"; 3.13 has more) gets another name in the parser. */
const char *builtin_parser_name(Clinic *c, const Converter *conv)
{
    for (const char *const *p = c->dialect->prefixed_names; *p; p++)
        if (conv->name[0] == (*p)[0] && strcmp(conv->name, *p) == 0)
            return arena_concat_of(c->arena, "__clinic_", conv->name);
    return conv->name;
}

/* The name the parser uses where 3.11 used the plain one. */
static const char *parsing_name(Clinic *c, const Converter *conv)
{
    return (c->dialect->fixes & FIX_PARSER_NAME_EVERYWHERE)
               ? converter_parser_name(c, conv) : conv->name;
}

const char *builtin_length_name(Clinic *c, const Converter *conv)
{
    if (!conv->length)
        return NULL;
    return arena_concat_of(c->arena, converter_parser_name(c, conv), "_length");
}

const char *builtin_simple_declaration(Clinic *c, const Converter *conv,
                                       bool by_reference, bool in_parser)
{
    const char *type = conv->type ? conv->type : "";
    size_t tlen = strlen(type);
    bool space = by_reference || !tlen || type[tlen - 1] != '*';
    const char *name = conv->name;
    if (in_parser)
        name = converter_parser_name(c, conv);
    else if (conv->unused)
        return arena_concat_of(c->arena, type, space ? " " : "",
                      by_reference ? "*" : "", "Py_UNUSED(", name, ")");
    return arena_concat_of(c->arena, type, space ? " " : "", by_reference ? "*" : "",
                  name);
}

const char *builtin_declaration(Clinic *c, const Converter *conv)
{
    if (!converter_overrides(c, conv, "simple_declaration")) {
        /* the built-in simple_declaration(in_parser=True), put together
           with the rest in one piece */
        const char *type = conv->type ? conv->type : "";
        size_t tlen = strlen(type);
        const char *space = !tlen || type[tlen - 1] != '*' ? " " : "";
        const char *name = converter_parser_name(c, conv);
        const char *def = conv->c_default;
        if ((!def || !def[0]) && conv->parameter && conv->parameter->group)
            def = conv->c_ignored_default;
        bool has_def = def && def[0];
        if (!conv->length)
            return has_def ? arena_concat_of(c->arena, type, space, name, " = ", def,
                                    ";")
                           : arena_concat_of(c->arena, type, space, name, ";");
        return arena_concat_of(c->arena, type, space, name, has_def ? " = " : "",
                      has_def ? def : "", ";\nPy_ssize_t ",
                      converter_length_name(c, conv), ";");
    }
    const char *decl = converter_simple_declaration(c, conv, false, true);
    const char *def = conv->c_default;
    if ((!def || !def[0]) && conv->parameter && conv->parameter->group)
        def = conv->c_ignored_default;
    bool has_def = def && def[0];
    if (!conv->length)
        return has_def ? arena_concat_of(c->arena, decl, " = ", def, ";")
                       : arena_concat_of(c->arena, decl, ";");
    return arena_concat_of(c->arena, decl, has_def ? " = " : "", has_def ? def : "",
                  ";\nPy_ssize_t ", converter_length_name(c, conv), ";");
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
            const DialectSnippet *sn = dialect_snippet(
                c->dialect, "Py_UNICODE_converter", "cleanup", false);
            return text_replace(c->arena, sn->text, "{name}",
                                parsing_name(c, conv));
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
                 conv->impl_by_reference ? arena_concat_of(c->arena, "&", name) : name);
    if (conv->length)
        strlist_push(c->arena, &data->impl_arguments,
                     converter_length_name(c, conv));

    strlist_push(c->arena, &data->impl_parameters,
                 converter_simple_declaration(c, conv,
                                              conv->impl_by_reference, false));
    if (conv->length)
        strlist_push(c->arena, &data->impl_parameters,
                     arena_concat_of(c->arena, "Py_ssize_t ",
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

    const char *name = parsing_name(c, conv);
    strlist_push(a, list, conv->parse_by_reference ? arena_concat_of(a, "&", name)
                                                   : name);
    if (conv->length)
        strlist_push(a, list, arena_concat_of(a, "&", converter_length_name(c, conv)));
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

/* CConverter.bad_argument(): the code raising the TypeError of an argument
   of the wrong type ("{{name}}" and "{argname}" are filled later). */
const char *builtin_bad_argument(Clinic *c, Converter *conv,
                                 const char *displayname, const char *expected,
                                 bool expected_expr, bool limited)
{
    Arena *a = c->arena;
    if (limited) {
        if (!expected_expr)
            return arena_printf(a, "PyErr_Format(PyExc_TypeError, "
                                "\"{{name}}() %s must be %s, not %%T\", "
                                "{argname});", displayname, expected);
        return arena_printf(a, "PyErr_Format(PyExc_TypeError, "
                            "\"{{name}}() %s must be %%s, not %%T\", "
                            "\"%s\", {argname});", displayname, expected);
    }
    converter_add_include(c, conv, "pycore_modsupport.h",
                          "_PyArg_BadArgument()");
    const char *quote = c->dialect->quoted_displayname ? "" : "\"";
    const char *equote = expected_expr ? "" : "\"";
    return arena_concat_of(a, "_PyArg_BadArgument(\"{{name}}\", ", quote, displayname,
                  quote, ", ", equote, expected, equote, ", {argname});");
}

/* One parse_arg() call: its arguments, and whether the caller wants the
   reference's own text (what a Python parse_arg sees from super()) or
   only the code the generator normalises anyway, or that code already
   normalised at an indentation (indent >= 0). */
typedef struct ArgCall {
    const char *argname;
    const char *displayname;
    bool limited;
    bool raw;
    int indent;
} ArgCall;

/* The fields a class's parse_arg adds to the snippet's own (NULL: not
   given). */
typedef struct SnippetExtras {
    const char *cast, *typecheck, *typename_;
} SnippetExtras;

/* The snippet as the reference's triple-quoted string has it. */
static const char *snippet_raw_text(Clinic *c, const DialectSnippet *sn)
{
    char indent[32];
    size_t n = sn->indent ? sn->indent : 16;
    if (n >= sizeof indent)
        n = sizeof indent - 1;
    memset(indent, ' ', n);
    indent[n] = '\0';
    return arena_printf(c->arena, "\n%s%s",
                        text_indent_all_lines(c->arena, sn->text, indent),
                        indent);
}

/* fields[name] = value, if the text asks for it ("{name}"). */
static void set_field(Clinic *c, StrMap *fields, const char *text,
                      const char *braced, const char *value)
{
    if (strstr(text, braced)) {
        size_t n = strlen(braced);
        strmap_set(c->arena, fields, arena_strndup(c->arena, braced + 1, n - 2),
                   value);
    }
}

/* What format_code() fills a snippet's fields from: the map
   format_snippet builds, without building it. */
typedef struct SnippetFields {
    Clinic *c;
    const Converter *conv;
    const char *text;
    const char *argname, *paramname;
    const SnippetExtras *extras;
} SnippetFields;

static bool name_is(const char *name, size_t n, const char *key)
{
    return strlen(key) == n && memcmp(name, key, n) == 0;
}

/* The value of field name (n bytes), or NULL when format_snippet's map
   would not have it: that map has the fields of the last four kinds only
   when the text names them plainly ("{type}"), which a field written
   plainly does (plain). */
static const char *snippet_field(const SnippetFields *f, const char *name,
                                 size_t n, bool plain)
{
    const Converter *conv = f->conv;
    const char *value = NULL;
    if (name_is(name, n, "argname"))
        return f->argname;
    if (name_is(name, n, "paramname"))
        return f->paramname;
    if (name_is(name, n, "cast"))
        return f->extras->cast;
    if (name_is(name, n, "typecheck"))
        return f->extras->typecheck;
    if (name_is(name, n, "typename"))
        return f->extras->typename_;
    if (name_is(name, n, "length_name"))
        value = arena_printf(f->c->arena, "%s_length", f->paramname);
    else if (name_is(name, n, "type"))
        value = conv->type ? conv->type : "None";
    else if (name_is(name, n, "converter"))
        value = conv->converter ? conv->converter : "None";
    else if (name_is(name, n, "subclass_of"))
        value = conv->subclass_of ? conv->subclass_of : "None";
    if (value && !plain) {
        char braced[16];
        braced[0] = '{';
        memcpy(braced + 1, name, n);
        memcpy(braced + 1 + n, "}", 2);
        if (!strstr(f->text, braced))
            value = NULL;
    }
    return value;
}

/* The bytes text.c's normalize_snippet takes for white space:
   "\t\n\v\f\r", ' ' and "\x1c".."\x1f". */
static inline bool is_py_space(char ch)
{
    return ch == ' ' || (ch >= '\t' && ch <= '\r') ||
           (ch >= '\x1c' && ch <= '\x1f');
}

static bool is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_py_space(s[i]))
            return false;
    return true;
}

/* Ends the line at text (n bytes, after its indent at line_start of out,
   whose length *len is): normalize_snippet leaves a line of blanks and
   tabs empty, and does not indent one of other white space.  False when
   the line is the first and normalize_snippet would take it otherwise
   than as is (a leading blank line, a margin to remove). */
static bool end_code_line(char *out, size_t *len, size_t line_start,
                          size_t indent, bool first)
{
    char *text = out + line_start + indent;
    size_t n = *len - line_start - indent, i = 0;
    while (i < n && (text[i] == ' ' || text[i] == '\t'))
        i++;
    if (i < n && !is_py_space(text[i]))
        return !(first && i > 0);    /* the usual line: code */
    if (first && (i > 0 || is_blank(text, n)))
        return false;
    if (i == n) {
        *len = line_start;
    } else if (indent && is_blank(text, n)) {
        memmove(out + line_start, text, n);
        *len = line_start + n;
    }
    return true;
}

/* format_snippet's text, formatted and then normalised at indent as
   text_normalize_snippet() does, in one pass: each line is written
   indented as it is formatted.  That holds while the text's first line
   has no margin (then none of them has one) and no value brings a line
   of its own; NULL otherwise, or when the text does not format (the
   caller then takes the long way, which says why), or does not fit in
   the buffer (snippets are some hundred bytes). */
static char *format_code(const SnippetFields *f, int indent)
{
    static const char spaces[64] = "                                "
                                   "                               ";
    char out[4096];
    size_t len = 0, line_start = 0;
    size_t ind = indent > 63 ? 63 : (size_t)indent;
    bool first = true;
#define PUT(s, n)                                 \
    do {                                          \
        size_t n_ = (n);                          \
        if (n_ >= sizeof out - len)               \
            return NULL;                          \
        memcpy(out + len, (s), n_);               \
        len += n_;                                \
    } while (0)

    PUT(spaces, ind);
    for (const char *p = f->text; *p;) {
        if (p[0] == '{' && p[1] == '{') {
            PUT("{", 1);
            p += 2;
        } else if (p[0] == '}' && p[1] == '}') {
            PUT("}", 1);
            p += 2;
        } else if (p[0] == '{') {
            /* as text_format_map reads a field */
            const char *q = p + 1 + strcspn(p + 1, "}!:");
            const char *end = *q == '}' ? q : strchr(q, '}');
            if (!end)
                return NULL;
            const char *value = snippet_field(f, p + 1, (size_t)(q - (p + 1)),
                                              end == q);
            if (!value)
                return NULL;
            size_t n = strcspn(value, "\n");
            if (value[n])
                return NULL;
            PUT(value, n);
            p = end + 1;
        } else if (p[0] == '}') {
            return NULL;
        } else {
            size_t n = strcspn(p, "{}\n");
            PUT(p, n);
            p += n;
            if (*p == '\n') {
                if (!end_code_line(out, &len, line_start, ind, first))
                    return NULL;
                first = false;
                PUT("\n", 1);
                line_start = len;
                PUT(spaces, ind);
                p++;
            }
        }
    }
#undef PUT
    if (!end_code_line(out, &len, line_start, ind, first))
        return NULL;
    /* the trailing white space goes, and the blank lines with it */
    while (len > 0 && is_py_space(out[len - 1]))
        len--;
    return arena_strndup(f->c->arena, out, len);
}

/* CConverter.format_code(): the snippet with its {bad_argument}s and then
   its fields filled in (and normalised, when call->indent asks). */
static const char *format_snippet(Clinic *c, Converter *conv,
                                  const DialectSnippet *sn,
                                  const ArgCall *call,
                                  const SnippetExtras *extras)
{
    Arena *a = c->arena;
    const char *text = call->raw ? snippet_raw_text(c, sn) : sn->text;
    if (sn->expected) {
        const char *bad = builtin_bad_argument(c, conv, call->displayname,
                                               sn->expected,
                                               sn->expected_expr,
                                               call->limited);
        text = text_replace(a, text, "{bad_argument}", bad);
    }
    if (sn->expected2) {
        const char *bad = builtin_bad_argument(c, conv, call->displayname,
                                               sn->expected2,
                                               sn->expected_expr,
                                               call->limited);
        text = text_replace(a, text, "{bad_argument2}", bad);
    }
    if (sn->include)
        converter_add_include(c, conv, sn->include, sn->include_reason);

    const char *paramname = converter_parser_name(c, conv);
    if (call->indent >= 0) {
        SnippetFields f = {c, conv, text, call->argname, paramname, extras};
        char *s = format_code(&f, call->indent);
        if (s)
            return s;
    }

    StrMap fields = {0};
    if (extras->cast)
        strmap_set(a, &fields, "cast", extras->cast);
    if (extras->typecheck)
        strmap_set(a, &fields, "typecheck", extras->typecheck);
    if (extras->typename_)
        strmap_set(a, &fields, "typename", extras->typename_);
    strmap_set(a, &fields, "argname", call->argname);
    strmap_set(a, &fields, "paramname", paramname);
    if (strstr(text, "{length_name}"))
        strmap_set(a, &fields, "length_name",
                   arena_printf(a, "%s_length", paramname));
    set_field(c, &fields, text, "{type}", conv->type ? conv->type : "None");
    set_field(c, &fields, text, "{converter}",
              conv->converter ? conv->converter : "None");
    set_field(c, &fields, text, "{subclass_of}",
              conv->subclass_of ? conv->subclass_of : "None");
    const char *missing = NULL;
    char *s = text_format_map(a, text, &fields, &missing);
    if (!s)
        clinic_fail(c, 0, "Exception raised during parsing:\nKeyError: '%s'",
                    missing ? missing : "?");
    return call->indent >= 0 ? text_normalize_snippet(a, s, call->indent) : s;
}

/* The snippet of `converter` for `variant` in the file's dialect, or NULL
   when it has none (then the base class's parse_arg applies). */
static const char *dialect_parse_arg(Clinic *c, Converter *conv,
                                     const char *converter,
                                     const char *variant, const ArgCall *call,
                                     const SnippetExtras *extras)
{
    const DialectSnippet *sn = dialect_snippet(c->dialect, converter, variant,
                                               call->limited);
    if (!sn)
        return NULL;
    return format_snippet(c, conv, sn, call, extras);
}

/* CConverter.parse_arg: the 'O&', 'O!' and 'O' format units. */
static const char *base_parse_arg(Clinic *c, Converter *conv,
                                  const ArgCall *call)
{
    Arena *a = c->arena;
    SnippetExtras m = {0};
    if (unit_is(conv, "O&")) {
        converter_use_converter(c, conv);
        return dialect_parse_arg(c, conv, "CConverter", "O&", call, &m);
    }
    m.cast = "";
    if (conv->type && strcmp(conv->type, "PyObject *") != 0)
        m.cast = arena_printf(a, "(%s)", conv->type);
    if (unit_is(conv, "O!")) {
        const char *sub = conv->subclass_of ? conv->subclass_of : "None";
        for (const TypeCheck *t = conv_type_checks; t->subclass_of; t++)
            if (strcmp(sub, t->subclass_of) == 0) {
                m.typecheck = t->typecheck;
                m.typename_ = t->typename_;
                return dialect_parse_arg(c, conv, "CConverter", "O!", call,
                                         &m);
            }
        return dialect_parse_arg(c, conv, "CConverter", "O!subclass_of",
                                 call, &m);
    }
    if (unit_is(conv, "O"))
        return dialect_parse_arg(c, conv, "CConverter", "O", call, &m);
    return NULL;
}

/* The class whose parse_arg a built-in kind runs, and the variant of its
   snippet for this converter: the format unit, unless the class tells its
   cases apart otherwise.  NULL variant: the class defers to CConverter. */
static const char *parse_arg_variant(ConverterKind kind, const Converter *conv,
                                     bool limited, const char **converter)
{
    static const char *const class_of[] = {
        [CK_BOOL] = "bool_converter",
        [CK_CHAR] = "char_converter",
        [CK_UNSIGNED_CHAR] = "unsigned_char_converter",
        [CK_SHORT] = "short_converter",
        [CK_UNSIGNED_SHORT] = "unsigned_short_converter",
        [CK_INT] = "int_converter",
        [CK_UNSIGNED_INT] = "unsigned_int_converter",
        [CK_LONG] = "long_converter",
        [CK_UNSIGNED_LONG] = "unsigned_long_converter",
        [CK_LONG_LONG] = "long_long_converter",
        [CK_UNSIGNED_LONG_LONG] = "unsigned_long_long_converter",
        [CK_PY_SSIZE_T] = "Py_ssize_t_converter",
        [CK_SLICE_INDEX] = "slice_index_converter",
        [CK_SIZE_T] = "size_t_converter",
        [CK_FILDES] = "fildes_converter",
        [CK_FLOAT] = "float_converter",
        [CK_DOUBLE] = "double_converter",
        [CK_PY_COMPLEX] = "Py_complex_converter",
        [CK_STR] = "str_converter",
        [CK_PYBYTESOBJECT] = "PyBytesObject_converter",
        [CK_PYBYTEARRAYOBJECT] = "PyByteArrayObject_converter",
        [CK_UNICODE] = "unicode_converter",
        [CK_PY_UNICODE] = "Py_UNICODE_converter",
        [CK_PY_BUFFER] = "Py_buffer_converter",
    };
    const char *unit = conv->format_unit ? conv->format_unit : "";
    *converter = (size_t)kind < sizeof class_of / sizeof class_of[0]
                     ? class_of[kind] : NULL;
    if (!*converter)
        return NULL;
    switch (kind) {
    case CK_UNSIGNED_SHORT:      /* 'H', or for the Limited C API */
    case CK_UNSIGNED_INT:        /* the O& converter's replacement */
    case CK_UNSIGNED_LONG:
    case CK_UNSIGNED_LONG_LONG:
    case CK_SIZE_T:
        if (unit_is(conv, kind == CK_UNSIGNED_SHORT ? "H" :
                          kind == CK_UNSIGNED_INT ? "I" :
                          kind == CK_UNSIGNED_LONG ? "k" :
                          kind == CK_UNSIGNED_LONG_LONG ? "K" : "n"))
            return unit;
        return limited ? "limited" : NULL;
    case CK_PY_SSIZE_T:
        if (unit_is(conv, "n"))
            return unit;
        return limited ? "limited" : NULL;
    case CK_SLICE_INDEX:
        if (!limited)
            return NULL;
        return conv->converter &&
               strcmp(conv->converter, "_PyEval_SliceIndex") == 0
                   ? "nullable" : "not_nullable";
    case CK_FILDES:
        return "";
    case CK_PY_UNICODE:
        if (conv->length)
            return NULL;
        if (conv->accept == PYT_STR)
            return "str";
        if (conv->accept == (PYT_STR | PYT_NONETYPE))
            return "str_or_none";
        return NULL;
    default:
        return unit;
    }
}

static const char *parse_arg_of(Clinic *c, ConverterKind kind,
                                Converter *conv, const ArgCall *call)
{
    const char *converter;
    const char *variant = parse_arg_variant(kind, conv, call->limited,
                                            &converter);
    if (variant) {
        SnippetExtras none = {0};
        const char *s = dialect_parse_arg(c, conv, converter, variant, call,
                                          &none);
        if (s)
            return s;
    }
    return base_parse_arg(c, conv, call);
}

const char *builtin_parse_arg(Clinic *c, ConverterKind kind, Converter *conv,
                              const char *argname, const char *displayname,
                              bool limited_capi, bool raw)
{
    ArgCall call = {argname, displayname, limited_capi, raw, -1};
    return parse_arg_of(c, kind, conv, &call);
}

const char *builtin_parse_arg_code(Clinic *c, ConverterKind kind,
                                   Converter *conv, const char *argname,
                                   const char *displayname, bool limited_capi,
                                   int indent)
{
    ArgCall call = {argname, displayname, limited_capi, false, indent};
    return parse_arg_of(c, kind, conv, &call);
}

/* What a converter function used through 'O&' needs included (3.13's
   use_converter()). */
static const struct {
    ConverterKind kind;
    const char *converter;     /* NULL: whichever */
    const char *include, *reason;
} converter_includes[] = {
    { CK_UNSIGNED_SHORT, "_PyLong_UnsignedShort_Converter", "pycore_long.h",
      "_PyLong_UnsignedShort_Converter()" },
    { CK_UNSIGNED_INT, "_PyLong_UnsignedInt_Converter", "pycore_long.h",
      "_PyLong_UnsignedInt_Converter()" },
    { CK_UNSIGNED_LONG, "_PyLong_UnsignedLong_Converter", "pycore_long.h",
      "_PyLong_UnsignedLong_Converter()" },
    { CK_UNSIGNED_LONG_LONG, "_PyLong_UnsignedLongLong_Converter",
      "pycore_long.h", "_PyLong_UnsignedLongLong_Converter()" },
    { CK_PY_SSIZE_T, "_Py_convert_optional_to_ssize_t", "pycore_abstract.h",
      "_Py_convert_optional_to_ssize_t()" },
    { CK_SIZE_T, NULL, "pycore_long.h", "_PyLong_Size_t_Converter()" },
    { CK_FILDES, NULL, "pycore_fileutils.h",
      "_PyLong_FileDescriptor_Converter()" },
};

void builtin_use_converter(Clinic *c, ConverterKind kind, Converter *conv)
{
    for (size_t i = 0;
         i < sizeof converter_includes / sizeof converter_includes[0]; i++) {
        if (converter_includes[i].kind != kind)
            continue;
        if (converter_includes[i].converter &&
            !(conv->converter &&
              strcmp(conv->converter, converter_includes[i].converter) == 0))
            continue;
        converter_add_include(c, conv, converter_includes[i].include,
                              converter_includes[i].reason);
    }
}

/* ---- self and defining_class ------------------------------------------ */

void correct_name_for_self(const Function *f, const char **type,
                           const char **name)
{
    switch (f->kind) {
    case FUNC_CALLABLE:
    case FUNC_METHOD_INIT:
    case FUNC_GETTER:
    case FUNC_SETTER:
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
    if (function_kind_new_or_init(f->kind) && cls && cls->typedef_ &&
        cls->typedef_[0]) {
        const char *type_object = cls->type_object;
        StrMap names = {0};
        strmap_set(a, &names, "self", conv->name);
        strmap_set(a, &names, "type", type_object);
        strmap_set(a, &names, "prefix", type_object[0] == '&'
                   ? arena_printf(a, "%s.", type_object + 1)
                   : arena_printf(a, "%s->", type_object));
        const char *check = f->kind == FUNC_METHOD_NEW
                                ? c->dialect->self_type_check_new
                                : c->dialect->self_type_check_init;
        strmap_set(a, template_dict, "self_type_check",
                   arena_printf(a, "%s &&\n        ",
                                text_format_map(a, check, &names, NULL)));
        if (c->dialect->base_type_ptr)
            strmap_set(a, template_dict, "base_type_ptr",
                       text_format_map(a, c->dialect->base_type_ptr, &names,
                                       NULL));
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
