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
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "model/converters_int.h"


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
    /* 3.14 names it after the C name: "args_length", not
       "__clinic_args_length" */
    const char *name = (c->dialect->fixes & FIX_VARPOS_CONVERTERS)
                           ? conv->name : converter_parser_name(c, conv);
    return arena_concat_of(c->arena, name, "_length");
}

/* The C type a declaration starts with.  A python block may set
   self.type = None: clinic.py then fails on it (3.11: None has no
   endswith(), 3.13: an assert), where writing nothing would declare an
   untyped parameter. */
static const char *declared_type(Clinic *c, const Converter *conv)
{
    if (!conv->type)
        clinic_fail(c, 0, "cannot declare %s: its converter's type is None, "
                    "not a str", conv->name);
    return conv->type;
}

const char *builtin_simple_declaration(Clinic *c, const Converter *conv,
                                       bool by_reference, bool in_parser)
{
    const char *type = declared_type(c, conv);
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

/* The initializer of the variable: its C default, or in an optional
   group the c_ignored_default (3.14: or else the c_init_default). */
static const char *group_default(const Converter *conv)
{
    const char *def = conv->c_default;
    if ((!def || !def[0]) && conv->parameter && conv->parameter->group) {
        def = conv->c_ignored_default;
        if (!def || !def[0])
            def = conv->c_init_default;
    }
    return def;
}

const char *builtin_declaration(Clinic *c, const Converter *conv)
{
    if (!converter_overrides(c, conv, "simple_declaration")) {
        /* the built-in simple_declaration(in_parser=True), put together
           with the rest in one piece */
        const char *type = declared_type(c, conv);
        size_t tlen = strlen(type);
        const char *space = !tlen || type[tlen - 1] != '*' ? " " : "";
        const char *name = converter_parser_name(c, conv);
        const char *def = group_default(conv);
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
    const char *def = group_default(conv);
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
        if (kind == CK_VARPOS_TUPLE || kind == CK_VAR_KEYWORD_DICT ||
            kind == CK_UNICODE_FS)
            return arena_concat_of(c->arena, "Py_XDECREF(",
                                   converter_parser_name(c, conv), ");\n");
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

/* ---- the var-positional parameter ------------------------------------- */

/* 3.14's parse_vararg of varpos_tuple: the tuple of the arguments from
   max_pos on, made from the argument array (fastcall) or sliced from the
   argument tuple. */
static const char *varpos_tuple_code(Clinic *c, Converter *conv,
                                     const VarargCounts *n)
{
    Arena *a = c->arena;
    const char *name = converter_parser_name(c, conv);
    /* some argument before *args may be missing */
    bool may_lack = (n->pos_only < n->min_pos ? n->pos_only : n->min_pos) <
                    n->max_pos;
    if (!n->fastcall) {
        if (n->max_pos)
            return arena_printf(a,
                "%s = PyTuple_GetSlice(args, %d, PY_SSIZE_T_MAX);\n"
                "if (!%s) {{\n"
                "    goto exit;\n"
                "}}\n", name, n->max_pos, name);
        return arena_printf(a, "%s = Py_NewRef(args);\n", name);
    }
    if (n->limited_capi) {
        const char *size =
            may_lack ? arena_printf(a, "Py_MAX(nargs - %d, 0)", n->max_pos)
            : n->max_pos ? arena_printf(a, "nargs - %d", n->max_pos)
                         : "nargs";
        return arena_printf(a,
            "%s = PyTuple_New(%s);\n"
            "if (!%s) {{\n"
            "    goto exit;\n"
            "}}\n"
            "for (Py_ssize_t i = %d; i < nargs; ++i) {{\n"
            "    PyTuple_SET_ITEM(%s, i - %d, Py_NewRef(args[i]));\n"
            "}}\n", name, size, name, n->max_pos, name, n->max_pos);
    }
    const char *from_array =
        DIALECT_INHERITED(c->dialect, varpos_tuple_from_array);
    const char *include = DIALECT_INHERITED(c->dialect, varpos_tuple_include);
    if (include && *include)
        converter_add_include(c, conv, include,
                              arena_concat_of(a, from_array, "()"));
    const char *start = n->max_pos ? arena_printf(a, "args + %d", n->max_pos)
                                   : "args";
    const char *size = n->max_pos ? arena_printf(a, "nargs - %d", n->max_pos)
                                  : "nargs";
    if (may_lack)
        return arena_printf(a,
            "%s = nargs > %d\n"
            "    ? %s(%s, %s)\n"
            "    : PyTuple_New(0);\n"
            "if (%s == NULL) {{\n"
            "    goto exit;\n"
            "}}\n", name, n->max_pos, from_array, start, size, name);
    return arena_printf(a,
        "%s = %s(%s, %s);\n"
        "if (%s == NULL) {{\n"
        "    goto exit;\n"
        "}}\n", name, from_array, start, size, name);
}

/* 3.14's parse_vararg of varpos_array: a pointer into the arguments and
   how many there are. */
static const char *varpos_array_code(Clinic *c, Converter *conv,
                                     const VarargCounts *n)
{
    Arena *a = c->arena;
    if (!n->fastcall)
        converter_add_include(c, conv, "pycore_tuple.h", "_PyTuple_ITEMS()");
    const char *start = n->fastcall ? "args" : "_PyTuple_ITEMS(args)";
    const char *size = n->fastcall ? "nargs" : "PyTuple_GET_SIZE(args)";
    if (n->max_pos) {
        if ((n->pos_only < n->min_pos ? n->pos_only : n->min_pos) <
            n->max_pos) {
            start = arena_printf(a, "%s > %d ? %s + %d : %s", size,
                                 n->max_pos, start, n->max_pos, start);
            size = arena_printf(a, "Py_MAX(0, %s - %d)", size, n->max_pos);
        } else {
            start = arena_printf(a, "%s + %d", start, n->max_pos);
            size = arena_printf(a, "%s - %d", size, n->max_pos);
        }
    }
    return arena_printf(a, "%s = %s;\n%s = %s;\n",
                        converter_parser_name(c, conv), start,
                        converter_length_name(c, conv), size);
}

const char *converter_parse_vararg(Clinic *c, Converter *conv,
                                   const VarargCounts *counts)
{
    switch (converter_row_of(conv->cls)->kind) {
    case CK_VARPOS_TUPLE:
        return varpos_tuple_code(c, conv, counts);
    case CK_VARPOS_ARRAY:
        return varpos_array_code(c, conv, counts);
    default:
        clinic_fail(c, 0, "Exception raised during parsing:\n"
                          "NotImplementedError: %s has no parse_vararg()",
                    conv->cls->class_name);
    }
}

/* ---- the var-keyword parameter ---------------------------------------- */

const char *converter_parse_var_keyword(Clinic *c, Converter *conv)
{
    if (converter_row_of(conv->cls)->kind != CK_VAR_KEYWORD_DICT)
        clinic_fail(c, 0, "Exception raised during parsing:\n"
                          "NotImplementedError: %s has no "
                          "parse_var_keyword()", conv->cls->class_name);
    const char *name = converter_parser_name(c, conv);
    return arena_printf(c->arena,
        "if (kwargs == NULL) {{\n"
        "    %s = PyDict_New();\n"
        "    if (%s == NULL) {{\n"
        "        goto exit;\n"
        "    }}\n"
        "}}\n"
        "else {{\n"
        "    %s = Py_NewRef(kwargs);\n"
        "}}\n", name, name, name);
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

    if (param_kind_variable_length(p->kind))
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

static bool is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!text_is_py_space(s[i]))
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
    if (i < n && !text_is_py_space(text[i]))
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

/* format_code's output: a line at a time, indented as it is written. */
typedef struct CodeOut {
    char buf[4096];
    size_t len, line_start, ind;
    bool first;                 /* on the text's first line */
} CodeOut;

static const char code_spaces[64] = "                                "
                                    "                               ";

static inline bool code_put(CodeOut *o, const char *s, size_t n)
{
    if (n >= sizeof o->buf - o->len)
        return false;
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    return true;
}

/* The end of a line, and the next one's indent.  code: the line is
   known to be a line of code, which end_code_line leaves as it is. */
static bool code_newline(CodeOut *o, bool code)
{
    if (!code &&
        !end_code_line(o->buf, &o->len, o->line_start, o->ind, o->first))
        return false;
    o->first = false;
    if (!code_put(o, "\n", 1))
        return false;
    o->line_start = o->len;
    return code_put(o, code_spaces, o->ind);
}

/* A field's value, which must not bring a line of its own. */
static inline bool code_put_value(CodeOut *o, const char *value)
{
    if (!value)
        return false;
    size_t n = 0;
    while (value[n] && value[n] != '\n')
        n++;
    return !value[n] && code_put(o, value, n);
}

/* The snippet text p (or a part of it) formatted into o; false where
   format_code gives up. */
static bool code_put_source(CodeOut *o, const SnippetFields *f,
                            const char *p)
{
    while (*p) {
        if (p[0] == '{' && p[1] == '{') {
            if (!code_put(o, "{", 1))
                return false;
            p += 2;
        } else if (p[0] == '}' && p[1] == '}') {
            if (!code_put(o, "}", 1))
                return false;
            p += 2;
        } else if (p[0] == '{') {
            /* as text_format_map reads a field */
            const char *q = p + 1 + strcspn(p + 1, "}!:");
            const char *end = *q == '}' ? q : strchr(q, '}');
            if (!end)
                return false;
            if (!code_put_value(o, snippet_field(f, p + 1,
                                                 (size_t)(q - (p + 1)),
                                                 end == q)))
                return false;
            p = end + 1;
        } else if (p[0] == '}') {
            return false;
        } else {
            size_t n = strcspn(p, "{}\n");
            if (!code_put(o, p, n))
                return false;
            p += n;
            if (*p == '\n') {
                if (!code_newline(o, false))
                    return false;
                p++;
            }
        }
    }
    return true;
}

static void code_start(CodeOut *o, int indent)
{
    o->len = o->line_start = 0;
    o->ind = indent > 63 ? 63 : (size_t)indent;
    o->first = true;
    o->buf[0] = '\0';
    code_put(o, code_spaces, o->ind);
}

static char *code_finish(CodeOut *o, Arena *a)
{
    if (!end_code_line(o->buf, &o->len, o->line_start, o->ind, o->first))
        return NULL;
    /* the trailing white space goes, and the blank lines with it */
    while (o->len > 0 && text_is_py_space(o->buf[o->len - 1]))
        o->len--;
    return arena_strndup(a, o->buf, o->len);
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
    CodeOut o;
    code_start(&o, indent);
    if (!code_put_source(&o, f, f->text))
        return NULL;
    return code_finish(&o, f->c->arena);
}

/* ---- the snippets, read once ------------------------------------------- */

/* A dialect's snippet text is the same for every parameter: it is read
   once, for the whole run, into runs of literal text (a doubled brace is
   one brace of it) each followed by a field or the end of a line, so
   that formatting it only copies the runs and the values.  A snippet
   with a field of another kind ("{x!r}", a name not in the list) or a
   lone brace is left to format_code. */
enum {
    SNF_NONE = -1, SNF_ARGNAME, SNF_PARAMNAME, SNF_CAST, SNF_TYPECHECK,
    SNF_TYPENAME, SNF_LENGTH_NAME, SNF_TYPE, SNF_CONVERTER, SNF_SUBCLASS_OF,
    SNF_BAD_ARGUMENT, SNF_BAD_ARGUMENT2, SNF_NEWLINE, SNF_COUNT
};

static const char *const snippet_field_names[SNF_NEWLINE] = {
    "argname", "paramname", "cast", "typecheck", "typename", "length_name",
    "type", "converter", "subclass_of", "bad_argument", "bad_argument2",
};

typedef struct SnippetRun {
    unsigned short at, len;     /* the literal text: text[at..at+len) */
    signed char field;          /* what follows it: SNF_* */
    /* SNF_NEWLINE: the line it ends starts with code in its literal
       text, after blanks (none on the first line): end_code_line would
       leave it as it is, whatever the values */
    bool code;
} SnippetRun;

typedef struct CompiledSnippet {
    const char *text;           /* the snippet's, which it is found by */
    bool usable;
    unsigned nruns;
    SnippetRun run[];
} CompiledSnippet;

/* How many times needle is in text. */
static size_t count_of(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* text read into its runs (malloc'd; usable false when it cannot be). */
static CompiledSnippet *compile_snippet(const char *text)
{
    size_t n = strlen(text), max = n + 1;
    CompiledSnippet *cs = xmalloc(sizeof *cs + max * sizeof(SnippetRun));
    cs->text = text;
    cs->usable = false;
    cs->nruns = 0;
    if (n > 0xffff)
        return cs;
    size_t at = 0, bad[2] = {0, 0}, line = 0;
    for (size_t i = 0; i < n;) {
        SnippetRun *r = &cs->run[cs->nruns];
        char ch = text[i];
        if (ch != '{' && ch != '}' && ch != '\n') {
            i++;
            continue;
        }
        r->at = (unsigned short)at;
        r->code = false;
        if (ch == '\n') {
            r->len = (unsigned short)(i - at);
            r->field = SNF_NEWLINE;
            /* the line's first run, which starts it */
            const SnippetRun *first = &cs->run[line];
            size_t k = 0;
            while (k < first->len && (text[first->at + k] == ' ' ||
                                      text[first->at + k] == '\t'))
                k++;
            r->code = k < first->len && !text_is_py_space(text[first->at + k]) &&
                      (line > 0 || k == 0);
            line = cs->nruns + 1;
            i = at = i + 1;
        } else if (text[i + 1] == ch) {     /* "{{" or "}}": one */
            r->len = (unsigned short)(i + 1 - at);
            r->field = SNF_NONE;
            i = at = i + 2;
        } else if (ch == '}') {
            return cs;
        } else {
            size_t k = strcspn(text + i + 1, "{}!:");
            if (text[i + 1 + k] != '}')
                return cs;
            int field = SNF_NONE;
            for (int f = 0; f < SNF_NEWLINE; f++)
                if (strlen(snippet_field_names[f]) == k &&
                    !memcmp(text + i + 1, snippet_field_names[f], k))
                    field = f;
            if (field == SNF_NONE)
                return cs;
            if (field == SNF_BAD_ARGUMENT || field == SNF_BAD_ARGUMENT2)
                bad[field - SNF_BAD_ARGUMENT]++;
            r->len = (unsigned short)(i - at);
            r->field = (signed char)field;
            i = at = i + k + 2;
        }
        cs->nruns++;
    }
    SnippetRun *r = &cs->run[cs->nruns++];
    r->at = (unsigned short)at;
    r->len = (unsigned short)(n - at);
    r->field = SNF_NONE;
    r->code = false;
    /* format_snippet puts the type errors in by replacing their names
       wherever they are: only where each is a field of its own is that
       the same as formatting them where they are */
    cs->usable = bad[0] == count_of(text, "{bad_argument}") &&
                 bad[1] == count_of(text, "{bad_argument2}");
    return cs;
}

/* The snippets read so far, by their text's address: shared by the
   threads, each made once (a thread that loses the race to make one
   uses the other's) and kept for the run. */
#define SNIPPETS_KEPT 1024
static _Atomic(CompiledSnippet *) compiled_snippets[SNIPPETS_KEPT];

static const CompiledSnippet *compiled_snippet(const char *text)
{
    uint64_t h = (uint64_t)(uintptr_t)text * 0x9E3779B97F4A7C15ull;
    size_t start = (size_t)(h >> 54);       /* 10 bits: SNIPPETS_KEPT */
    for (size_t i = 0; i < SNIPPETS_KEPT; i++) {
        _Atomic(CompiledSnippet *) *slot =
            &compiled_snippets[(start + i) % SNIPPETS_KEPT];
        CompiledSnippet *cs = atomic_load_explicit(slot,
                                                   memory_order_acquire);
        if (!cs) {
            CompiledSnippet *made = compile_snippet(text);
            if (atomic_compare_exchange_strong_explicit(
                    slot, &cs, made, memory_order_acq_rel,
                    memory_order_acquire))
                return made->usable ? made : NULL;
            free(made);
        }
        if (cs->text == text)
            return cs->usable ? cs : NULL;
    }
    return NULL;
}

/* format_code of the compiled snippet cs, its type errors bad[0] and
   bad[1] (NULL: not given). */
static char *format_compiled(const SnippetFields *f,
                             const CompiledSnippet *cs,
                             const char *const bad[2], int indent)
{
    const Converter *conv = f->conv;
    CodeOut o;
    code_start(&o, indent);
    for (unsigned i = 0; i < cs->nruns; i++) {
        const SnippetRun *r = &cs->run[i];
        if (!code_put(&o, cs->text + r->at, r->len))
            return NULL;
        const char *value;
        switch (r->field) {
        case SNF_NONE:
            continue;
        case SNF_NEWLINE:
            if (!code_newline(&o, r->code))
                return NULL;
            continue;
        case SNF_BAD_ARGUMENT:
        case SNF_BAD_ARGUMENT2:
            value = bad[r->field - SNF_BAD_ARGUMENT];
            /* the type error is snippet text itself, with plain fields
               (format_code looks for the others in the whole text), on
               the line it is put in (the runs' lines stay as read); it
               must end where it ends (no brace left open) */
            if (!value || strpbrk(value, "!:\n") ||
                !code_put_source(&o, f, value))
                return NULL;
            continue;
        case SNF_ARGNAME: value = f->argname; break;
        case SNF_PARAMNAME: value = f->paramname; break;
        case SNF_CAST: value = f->extras->cast; break;
        case SNF_TYPECHECK: value = f->extras->typecheck; break;
        case SNF_TYPENAME: value = f->extras->typename_; break;
        case SNF_LENGTH_NAME:
            value = arena_concat_of(f->c->arena, f->paramname, "_length");
            break;
        case SNF_TYPE: value = conv->type ? conv->type : "None"; break;
        case SNF_CONVERTER:
            value = conv->converter ? conv->converter : "None";
            break;
        default:
            value = conv->subclass_of ? conv->subclass_of : "None";
            break;
        }
        if (!code_put_value(&o, value))
            return NULL;
    }
    return code_finish(&o, f->c->arena);
}

/* CConverter.format_code(): the snippet with its {bad_argument}s and then
   its fields filled in (and normalised, when call->indent asks). */
static const char *format_snippet(Clinic *c, Converter *conv,
                                  const DialectSnippet *sn,
                                  const ArgCall *call,
                                  const SnippetExtras *extras)
{
    Arena *a = c->arena;
    const char *bad[2] = {NULL, NULL};
    if (sn->expected)
        bad[0] = builtin_bad_argument(c, conv, call->displayname,
                                      sn->expected, sn->expected_expr,
                                      call->limited);
    if (sn->expected2)
        bad[1] = builtin_bad_argument(c, conv, call->displayname,
                                      sn->expected2, sn->expected_expr,
                                      call->limited);
    if (sn->include)
        converter_add_include(c, conv, sn->include, sn->include_reason);

    const char *paramname = converter_parser_name(c, conv);
    const CompiledSnippet *cs;
    if (call->indent >= 0 && !call->raw &&
        (cs = compiled_snippet(sn->text)) != NULL) {
        SnippetFields f = {c, conv, sn->text, call->argname, paramname,
                           extras};
        char *s = format_compiled(&f, cs, bad, call->indent);
        if (s)
            return s;
    }

    const char *text = call->raw ? snippet_raw_text(c, sn) : sn->text;
    if (bad[0])
        text = text_replace(a, text, "{bad_argument}", bad[0]);
    if (bad[1])
        text = text_replace(a, text, "{bad_argument2}", bad[1]);
    /* 3.14's length errors name the argument as the text says it */
    if (strstr(text, "{displayname}"))
        text = text_replace(a, text, "{displayname}", call->displayname);
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
        [CK_UINT] = "BaseUnsignedIntConverter",
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
    case CK_UINT:                /* the converter function, or for the
                                    Limited C API */
        return limited ? "limited" : NULL;
    case CK_PY_SSIZE_T:
        /* (3.15's allow_negative=False adds a check to each) */
        if (unit_is(conv, "n"))
            return conv->non_negative ? "n_non_negative" : unit;
        if (!limited)
            return NULL;
        return conv->non_negative ? "limited_non_negative" : "limited";
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
    { CK_PY_SSIZE_T, "_Py_convert_optional_to_non_negative_ssize_t",
      "pycore_abstract.h", "_Py_convert_optional_to_non_negative_ssize_t()" },
    { CK_SIZE_T, NULL, "pycore_long.h", "_PyLong_Size_t_Converter()" },
    /* (the reason: the converter's own name) */
    { CK_UINT, NULL, "pycore_long.h", NULL },
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
        const char *reason = converter_includes[i].reason;
        if (!reason) {
            if (!conv->converter)
                continue;
            reason = arena_concat_of(c->arena, conv->converter, "()");
        }
        converter_add_include(c, conv, converter_includes[i].include, reason);
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
    const Function *f = conv->function;
    /* 3.14: every parser takes a plain object, but tp_new's type */
    if (c->dialect->fixes & FIX_PYOBJECT_SELF)
        return f->kind == FUNC_METHOD_NEW ? "PyTypeObject *" : "PyObject *";
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
