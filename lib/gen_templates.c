/*
 * gen_templates.c — clinic.py's CLanguage.output_templates: choose the
 * calling convention of a function (METH_NOARGS, METH_O, METH_VARARGS
 * with option groups, positional-only METH_FASTCALL, METH_FASTCALL |
 * METH_KEYWORDS, METH_METHOD, __new__/__init__) and write the templates
 * of the ten output fields.  render_function (gen.c) fills them in.
 *
 * The templates are written here exactly as the reference's
 * normalize_snippet() leaves them, so they read as the C they produce;
 * "{{" and "}}" are str.format escapes, "{name}" fields are filled later.
 */
#include <string.h>

#include "converters.h"
#include "cpp.h"
#include "gen_internal.h"
#include "text.h"

/* ---- the fixed templates --------------------------------------------- */

static const char methoddef_define_template[] =
    "#define {methoddef_name}    \\\n"
    "    {{\"{name}\", {methoddef_cast}{c_basename}{methoddef_cast_end}, "
    "{methoddef_flags}, {c_basename}__doc__}},";

static const char docstring_prototype_template[] =
    "PyDoc_VAR({c_basename}__doc__);";

static const char docstring_definition_template[] =
    "PyDoc_STRVAR({c_basename}__doc__,\n"
    "{docstring});";

static const char impl_definition_template[] =
    "static {impl_return_type}\n"
    "{c_basename}_impl({impl_parameters})";

static const char parser_prototype_keyword[] =
    "static PyObject *\n"
    "{c_basename}({self_type}{self_name}, PyObject *args, PyObject *kwargs)";

static const char parser_prototype_varargs[] =
    "static PyObject *\n"
    "{c_basename}({self_type}{self_name}, PyObject *args)";

static const char parser_prototype_fastcall[] =
    "static PyObject *\n"
    "{c_basename}({self_type}{self_name}, PyObject *const *args, "
    "Py_ssize_t nargs)";

static const char parser_prototype_fastcall_keywords[] =
    "static PyObject *\n"
    "{c_basename}({self_type}{self_name}, PyObject *const *args, "
    "Py_ssize_t nargs, PyObject *kwnames)";

static const char parser_prototype_def_class[] =
    "static PyObject *\n"
    "{c_basename}({self_type}{self_name}, PyTypeObject *{defining_class_name}, "
    "PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)";

static const char parser_prototype_noargs[] =
    "static PyObject *\n"
    "{c_basename}({self_type}{self_name}, PyObject *Py_UNUSED(ignored))";

static const char parser_prototype_init[] =
    "static int\n"
    "{c_basename}({self_type}{self_name}, PyObject *args, PyObject *kwargs)";

static const char meth_o_prototype[] =
    "static PyObject *\n"
    "{c_basename}({impl_parameters})";

/* What parser_body puts before and after the parsing code. */
static const char parser_body_head[] =
    "{{\n"
    "    {return_value_declaration}\n"
    "    {parser_declarations}\n"
    "    {declarations}\n"
    "    {initializers}\n";

static const char parser_body_tail[] =
    "    {modifications}\n"
    "    {return_value} = {c_basename}_impl({impl_arguments});\n"
    "    {return_conversion}\n"
    "    {post_parsing}\n"
    "\n"
    "{exit_label}\n"
    "    {cleanup}\n"
    "    return return_value;\n"
    "}}";

static const char no_keywords_check[] =
    "    if ({self_type_check}!_PyArg_NoKeywords(\"{name}\", kwargs)) {{\n"
    "        goto exit;\n"
    "    }}";

static const char no_positional_check[] =
    "    if ({self_type_check}!_PyArg_NoPositional(\"{name}\", args)) {{\n"
    "        goto exit;\n"
    "    }}";

/* ---- parser_body ------------------------------------------------------- */

/* The reference's parser_body closure.  It remembers the fields and
   declarations of its last call: __new__ and __init__ re-render the same
   parsing code under another prototype (clinic.py's "awful hack"). */
typedef struct ParserBody {
    StrList fields;
    const char *declarations;
} ParserBody;

static const char *parser_body(Clinic *c, ParserBody *last,
                               const char *prototype, const StrList *fields,
                               const char *declarations)
{
    Arena *a = c->arena;
    StrBuf sb = STRBUF_INIT;
    StrMap map = {0};
    size_t i;

    last->fields = (StrList){0};
    for (i = 0; i < fields->len; i++)
        strlist_push(a, &last->fields, fields->items[i]);
    last->declarations = declarations;

    sb_adds(&sb, prototype);
    sb_addc(&sb, '\n');
    sb_adds(&sb, parser_body_head);
    for (i = 0; i < fields->len; i++) {
        sb_addc(&sb, '\n');
        sb_adds(&sb, fields->items[i]);
    }
    sb_addc(&sb, '\n');
    sb_adds(&sb, parser_body_tail);

    strmap_set(a, &map, "parser_declarations", declarations);
    return text_linear_format(a, sb_take(&sb, a), &map);
}

/* ---- helpers ------------------------------------------------------------ */

static const char *snippet(Clinic *c, const char *s, int indent)
{
    return text_normalize_snippet(c->arena, s, indent);
}

/* Python's str.replace(old, new) for every occurrence. */
static const char *str_replace(Arena *a, const char *s, const char *old,
                               const char *new_)
{
    StrBuf sb = STRBUF_INIT;
    size_t oldlen = strlen(old);
    const char *hit;

    while ((hit = strstr(s, old)) != NULL) {
        sb_add(&sb, s, (size_t)(hit - s));
        sb_adds(&sb, new_);
        s = hit + oldlen;
    }
    sb_adds(&sb, s);
    return sb_take(&sb, a);
}

/* The parameters output_templates works on: f->parameters without self
   (and without a leading defining_class parameter). */
typedef struct Signature {
    Parameter **params;
    size_t n;
    bool requires_defining_class;
    bool new_or_init;
    bool default_return_converter;
    long vararg;               /* index of *args, or -1 (NO_VARARG) */
    int pos_only, min_pos, max_pos, min_kw_only, pseudo_args;
} Signature;

static void read_signature(Clinic *c, Function *f, Signature *s)
{
    size_t i;

    memset(s, 0, sizeof *s);
    s->params = f->parameters + 1;
    s->n = f->nparameters - 1;
    if (s->n && s->params[0]->converter->cls->is_defining_class) {
        s->requires_defining_class = true;
        s->params++;
        s->n--;
    }
    s->new_or_init = f->kind == FUNC_METHOD_NEW || f->kind == FUNC_METHOD_INIT;
    s->default_return_converter = gen_default_return_converter(f);
    s->vararg = -1;

    for (i = 1; i <= s->n; i++) {
        const Parameter *p = s->params[i - 1];
        if (p->kind == PARAM_KEYWORD_ONLY) {
            if (!param_is_optional(p))
                s->min_kw_only = (int)i - s->max_pos;
        } else if (p->kind == PARAM_VAR_POSITIONAL) {
            if (s->vararg != -1)
                clinic_fail(c, 0, "Too many var args");
            s->pseudo_args++;
            s->vararg = (long)i - 1;
        } else {
            if (s->vararg == -1)
                s->max_pos = (int)i;
            if (p->kind == PARAM_POSITIONAL_ONLY)
                s->pos_only = (int)i;
            if (!param_is_optional(p))
                s->min_pos = (int)i;
        }
    }
}

/* What each calling convention decides. */
typedef struct Conv {
    const char *flags;
    const char *parser;             /* Rendering.parser (model.h) */
    const char *parser_prototype;
    const char *parser_definition;
    const char *impl_prototype;     /* NULL: same as impl_definition */
    const char *impl_definition;
    ParserBody body;
} Conv;

/* ---- the calling conventions -------------------------------------------- */

/* No parameters: METH_NOARGS, or METH_METHOD when it wants its defining
   class. */
static void render_noargs(Clinic *c, const Signature *s, Conv *cv)
{
    StrList code = {0};

    if (!s->requires_defining_class) {
        cv->flags = "METH_NOARGS";
        cv->parser = "none";
        cv->parser_prototype = parser_prototype_noargs;
    } else {
        cv->flags = "METH_METHOD|METH_FASTCALL|METH_KEYWORDS";
        cv->parser = "inline";
        cv->parser_prototype = parser_prototype_def_class;
        strlist_push(c->arena, &code, arena_printf(c->arena,
            "    if (nargs) {{\n"
            "        PyErr_SetString(PyExc_TypeError, \"{name}() takes no arguments\");\n"
            "        %s\n"
            "    }}",
            s->default_return_converter ? "return NULL;" : "goto exit;"));
    }

    if (s->default_return_converter) {
        StrBuf sb = STRBUF_INIT;
        size_t i;
        sb_adds(&sb, cv->parser_prototype);
        sb_adds(&sb, "\n{{");
        for (i = 0; i < code.len; i++) {
            sb_addc(&sb, '\n');
            sb_adds(&sb, code.items[i]);
        }
        sb_adds(&sb, "\n    return {c_basename}_impl({impl_arguments});\n}}");
        cv->parser_definition = sb_take(&sb, c->arena);
    } else {
        cv->parser_definition = parser_body(c, &cv->body,
                                            cv->parser_prototype, &code, "");
    }
}

/* One required positional-only parameter: METH_O. */
static void render_meth_o(Clinic *c, const Signature *s, Conv *cv)
{
    Arena *a = c->arena;
    Parameter *p = s->params[0];
    Converter *conv = p->converter;
    StrList code = {0};
    const char *argname, *parsearg;

    cv->flags = "METH_O";
    cv->parser = "none";

    if (gen_is_object_converter(conv) && conv->format_unit &&
        strcmp(conv->format_unit, "O") == 0) {
        if (s->default_return_converter) {
            /* Maps straight onto METH_O: the impl is the method. */
            cv->impl_prototype = cv->parser_prototype = "";
            cv->parser_definition = "";
            cv->impl_definition = meth_o_prototype;
        } else {
            /* The reference's "SLIGHT HACK": the parser takes the impl's
               parameters (render_function drops their declaration). */
            cv->parser_prototype = meth_o_prototype;
            cv->parser_definition = parser_body(c, &cv->body, meth_o_prototype,
                                                &code, "");
        }
        return;
    }

    argname = strcmp(p->name, "arg") == 0 ? "arg_" : "arg";
    cv->parser_prototype = arena_printf(a,
        "static PyObject *\n"
        "{c_basename}({self_type}{self_name}, PyObject *%s)", argname);
    parsearg = converter_parse_arg(c, conv, argname,
                                   gen_param_displayname(c, p, 0));
    cv->parser = parsearg ? "inline" : "PyArg_Parse";
    if (!parsearg)
        parsearg = arena_printf(a,
            "if (!PyArg_Parse(%s, \"{format_units}:{name}\", {parse_arguments})) {{\n"
            "    goto exit;\n"
            "}}", argname);
    strlist_push(a, &code, snippet(c, parsearg, 4));
    cv->parser_definition = parser_body(c, &cv->body, cv->parser_prototype,
                                        &code, "");
}

/* Positional parameters in option groups: METH_VARARGS and a switch of
   PyArg_ParseTuple calls (gen_groups.c writes the switch). */
static void render_option_groups(Clinic *c, Conv *cv)
{
    StrList code = {0};

    cv->flags = "METH_VARARGS";
    cv->parser = "PyArg_ParseTuple";
    cv->parser_prototype = parser_prototype_varargs;
    strlist_push(c->arena, &code, "    {option_group_parsing}");
    cv->parser_definition = parser_body(c, &cv->body, cv->parser_prototype,
                                        &code, "");
}

/* Positional-only parameters without groups: METH_FASTCALL (or
   METH_VARARGS for __new__/__init__), one specialised conversion per
   argument, or a format string when some converter has none. */
static void render_positional_only(Clinic *c, const Signature *s, Conv *cv)
{
    Arena *a = c->arena;
    StrList code = {0};
    const char *nargs;
    const char *left_args, *max_args;
    bool has_optional = false, fallback = false;
    size_t i;

    if (!s->new_or_init) {
        cv->flags = "METH_FASTCALL";
        cv->parser_prototype = parser_prototype_fastcall;
        nargs = "nargs";
    } else {
        cv->flags = "METH_VARARGS";
        cv->parser_prototype = parser_prototype_varargs;
        nargs = "PyTuple_GET_SIZE(args)";
    }

    left_args = arena_printf(a, "%s - %d", nargs, s->max_pos);
    max_args = s->vararg != -1 ? GEN_NO_VARARG
                               : arena_printf(a, "%d", s->max_pos);
    strlist_push(a, &code, arena_printf(a,
        "    if (!_PyArg_CheckPositional(\"{name}\", %s, %d, %s)) {{\n"
        "        goto exit;\n"
        "    }}", nargs, s->min_pos, max_args));

    for (i = 0; i < s->n; i++) {
        Parameter *p = s->params[i];
        const char *displayname = gen_param_displayname(c, p, (int)i + 1);
        const char *argname, *parsearg;

        argname = s->new_or_init
                      ? arena_printf(a, "PyTuple_GET_ITEM(args, %d)", (int)i)
                      : arena_printf(a, "args[%d]", (int)i);

        if (p->kind == PARAM_VAR_POSITIONAL) {
            const char *pname = converter_parser_name(c, p->converter);
            if (!s->new_or_init)
                strlist_push(a, &code, arena_printf(a,
                    "    %s = PyTuple_New(%s);\n"
                    "    if (!%s) {{\n"
                    "        goto exit;\n"
                    "    }}\n"
                    "    for (Py_ssize_t i = 0; i < %s; ++i) {{\n"
                    "        PyTuple_SET_ITEM(%s, i, Py_NewRef(args[%d + i]));\n"
                    "    }}",
                    pname, left_args, pname, left_args, pname, s->max_pos));
            else
                strlist_push(a, &code, arena_printf(a,
                    "    %s = PyTuple_GetSlice(%d, -1);", pname, s->max_pos));
            continue;
        }

        parsearg = converter_parse_arg(c, p->converter, argname, displayname);
        if (!parsearg) {
            fallback = true;
            break;
        }
        if (has_optional || param_is_optional(p)) {
            has_optional = true;
            strlist_push(a, &code, arena_printf(a,
                "    if (%s < %d) {{\n"
                "        goto skip_optional;\n"
                "    }}", nargs, (int)i + 1));
        }
        strlist_push(a, &code, snippet(c, parsearg, 4));
    }

    cv->parser = !fallback ? "_PyArg_CheckPositional"
                 : s->new_or_init ? "PyArg_ParseTuple" : "_PyArg_ParseStack";
    if (!fallback) {
        if (has_optional)
            strlist_push(a, &code, "skip_optional:");
    } else {
        code = (StrList){0};
        if (!s->new_or_init)
            strlist_push(a, &code,
                "    if (!_PyArg_ParseStack(args, nargs, \"{format_units}:{name}\",\n"
                "        {parse_arguments})) {{\n"
                "        goto exit;\n"
                "    }}");
        else
            strlist_push(a, &code,
                "    if (!PyArg_ParseTuple(args, \"{format_units}:{name}\",\n"
                "        {parse_arguments})) {{\n"
                "        goto exit;\n"
                "    }}");
    }
    cv->parser_definition = parser_body(c, &cv->body, cv->parser_prototype,
                                        &code, "");
}

/* Everything else: keyword arguments through _PyArg_UnpackKeywords
   (METH_FASTCALL|METH_KEYWORDS, METH_VARARGS|METH_KEYWORDS for
   __new__/__init__, METH_METHOD with the defining class). */
static void render_keywords(Clinic *c, const Signature *s, Conv *cv)
{
    Arena *a = c->arena;
    StrList code = {0};
    const char *unpack, *unpack_args, *nargs, *declarations;
    const char *add_label = NULL;
    int n = (int)s->n;
    int first_pos = s->pos_only > s->min_pos ? s->pos_only : s->min_pos;
    bool has_optional_kw, fallback = false;
    int i;

    has_optional_kw = first_pos + s->min_kw_only < n - (s->vararg != -1);
    if (s->vararg == -1) {
        unpack = "_PyArg_UnpackKeywords";
        unpack_args = arena_printf(a, "%d, %d, %d", s->min_pos, s->max_pos,
                                   s->min_kw_only);
        nargs = "nargs";
    } else {
        unpack = "_PyArg_UnpackKeywordsWithVararg";
        unpack_args = arena_printf(a, "%d, %d, %d, %ld", s->min_pos,
                                   s->max_pos, s->min_kw_only, s->vararg);
        nargs = s->max_pos ? arena_printf(a, "Py_MIN(nargs, %d)", s->max_pos)
                           : "0";
    }

    if (!s->new_or_init) {
        cv->flags = "METH_FASTCALL|METH_KEYWORDS";
        cv->parser_prototype = parser_prototype_fastcall_keywords;
        declarations = arena_printf(a,
            "static const char * const _keywords[] = {{{keywords} NULL}};\n"
            "static _PyArg_Parser _parser = {{NULL, _keywords, \"{name}\", 0}};\n"
            "PyObject *argsbuf[%d];", n);
        if (has_optional_kw)
            declarations = arena_printf(a,
                "%s\nPy_ssize_t noptargs = %s + (kwnames ? "
                "PyTuple_GET_SIZE(kwnames) : 0) - %d;",
                declarations, nargs, s->min_pos + s->min_kw_only);
        strlist_push(a, &code, arena_printf(a,
            "    args = %s(args, nargs, NULL, kwnames, &_parser, %s, argsbuf);\n"
            "    if (!args) {{\n"
            "        goto exit;\n"
            "    }}", unpack, unpack_args));
    } else {
        cv->flags = "METH_VARARGS|METH_KEYWORDS";
        cv->parser_prototype = parser_prototype_keyword;
        declarations = arena_printf(a,
            "static const char * const _keywords[] = {{{keywords} NULL}};\n"
            "static _PyArg_Parser _parser = {{NULL, _keywords, \"{name}\", 0}};\n"
            "PyObject *argsbuf[%d];\n"
            "PyObject * const *fastargs;\n"
            "Py_ssize_t nargs = PyTuple_GET_SIZE(args);", n);
        if (has_optional_kw)
            declarations = arena_printf(a,
                "%s\nPy_ssize_t noptargs = %s + (kwargs ? "
                "PyDict_GET_SIZE(kwargs) : 0) - %d;",
                declarations, nargs, s->min_pos + s->min_kw_only);
        strlist_push(a, &code, arena_printf(a,
            "    fastargs = %s(_PyTuple_CAST(args)->ob_item, nargs, kwargs, "
            "NULL, &_parser, %s, argsbuf);\n"
            "    if (!fastargs) {{\n"
            "        goto exit;\n"
            "    }}", unpack, unpack_args));
    }

    if (s->requires_defining_class) {
        cv->flags = arena_printf(a, "METH_METHOD|%s", cv->flags);
        cv->parser_prototype = parser_prototype_def_class;
    }

    for (i = 0; i < n; i++) {
        Parameter *p = s->params[i];
        const char *argname, *displayname, *parsearg;

        if (p->converter->cls->is_defining_class)
            clinic_fail(c, 0, "defining_class should be the first parameter "
                              "(after self)");
        displayname = gen_param_displayname(c, p, i + 1);
        argname = s->new_or_init ? arena_printf(a, "fastargs[%d]", i)
                                 : arena_printf(a, "args[%d]", i);
        parsearg = converter_parse_arg(c, p->converter, argname, displayname);
        if (!parsearg) {
            fallback = true;
            break;
        }
        if (add_label && (i == s->pos_only || i == s->max_pos)) {
            strlist_push(a, &code, arena_printf(a, "%s:", add_label));
            add_label = NULL;
        }
        if (!param_is_optional(p)) {
            strlist_push(a, &code, snippet(c, parsearg, 4));
        } else if (i < s->pos_only) {
            add_label = "skip_optional_posonly";
            strlist_push(a, &code, arena_printf(a,
                "    if (nargs < %d) {{\n"
                "        goto %s;\n"
                "    }}", i + 1, add_label));
            if (has_optional_kw)
                strlist_push(a, &code, "    noptargs--;");
            strlist_push(a, &code, snippet(c, parsearg, 4));
        } else {
            const char *label;
            int first_opt;
            if (i < s->max_pos) {
                label = "skip_optional_pos";
                first_opt = first_pos;
            } else {
                label = "skip_optional_kwonly";
                first_opt = s->max_pos + s->min_kw_only;
                if (s->vararg != -1)
                    first_opt += 1;
            }
            if (i == first_opt) {
                add_label = label;
                strlist_push(a, &code, arena_printf(a,
                    "    if (!noptargs) {{\n"
                    "        goto %s;\n"
                    "    }}", add_label));
            }
            if (i + 1 == n) {
                strlist_push(a, &code, snippet(c, parsearg, 4));
            } else {
                add_label = label;
                strlist_push(a, &code, arena_printf(a, "    if (%s) {{",
                                                    argname));
                strlist_push(a, &code, snippet(c, parsearg, 8));
                strlist_push(a, &code, arena_printf(a,
                    "        if (!--noptargs) {{\n"
                    "            goto %s;\n"
                    "        }}\n"
                    "    }}", add_label));
            }
        }
    }

    cv->parser = !fallback ? unpack
                 : s->new_or_init ? "_PyArg_ParseTupleAndKeywordsFast"
                                  : "_PyArg_ParseStackAndKeywords";
    if (!fallback) {
        if (add_label)
            strlist_push(a, &code, arena_printf(a, "%s:", add_label));
    } else {
        declarations =
            "static const char * const _keywords[] = {{{keywords} NULL}};\n"
            "static _PyArg_Parser _parser = {{\"{format_units}:{name}\", "
            "_keywords, 0}};";
        code = (StrList){0};
        if (!s->new_or_init)
            strlist_push(a, &code,
                "    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "
                "&_parser{parse_arguments_comma}\n"
                "        {parse_arguments})) {{\n"
                "        goto exit;\n"
                "    }}");
        else
            strlist_push(a, &code,
                "    if (!_PyArg_ParseTupleAndKeywordsFast(args, kwargs, "
                "&_parser,\n"
                "        {parse_arguments})) {{\n"
                "        goto exit;\n"
                "    }}");
    }
    cv->parser_definition = parser_body(c, &cv->body, cv->parser_prototype,
                                        &code, declarations);
}

/* __new__ and __init__: the slot's own prototype, and the parsing code
   of the convention chosen above re-rendered under it. */
static void render_new_or_init(Clinic *c, Function *f, const Signature *s,
                               Conv *cv, const char **return_value_declaration)
{
    Arena *a = c->arena;
    StrList fields = {0};
    bool parses_positional, parses_keywords;
    ParserBody last = cv->body;
    size_t i;

    if (f->kind == FUNC_METHOD_NEW) {
        cv->parser_prototype = parser_prototype_keyword;
    } else {
        *return_value_declaration = "int return_value = -1;";
        cv->parser_prototype = parser_prototype_init;
    }

    parses_positional = strstr(cv->flags, "METH_NOARGS") == NULL;
    parses_keywords = strstr(cv->flags, "METH_KEYWORDS") != NULL;

    if (s->requires_defining_class)
        clinic_fail(c, 0, "Slot methods cannot access their defining class.");

    if (!parses_keywords) {
        if (!parses_positional) {
            strlist_push(a, &fields, no_positional_check);
            cv->parser = "_PyArg_NoPositional";
        }
        strlist_push(a, &fields, no_keywords_check);
    }
    for (i = 0; i < last.fields.len; i++)
        strlist_push(a, &fields, last.fields.items[i]);

    cv->parser_definition = parser_body(c, &cv->body, cv->parser_prototype,
                                        &fields,
                                        last.declarations ? last.declarations
                                                          : "");
}

/* ---- output_templates ----------------------------------------------------- */

static const char *wrap_in_newlines(Clinic *c, const char *s)
{
    return *s ? arena_printf(c->arena, "\n%s\n", s) : "";
}

void gen_output_templates(Clinic *c, Function *f, StrMap *templates)
{
    Arena *a = c->arena;
    Signature s;
    Conv cv;
    const char *methoddef_define = methoddef_define_template;
    const char *docstring_prototype, *docstring_definition;
    const char *return_value_declaration = "PyObject *return_value = NULL;";
    const char *methoddef_cast, *methoddef_cast_end, *flags, *meth_flags;
    const char *conditional;
    const char *cpp_if = "", *cpp_endif = "", *methoddef_ifndef = "";
    const char *parser_prototype, *impl_prototype, *parser_definition;
    bool meth_o, has_option_groups;

    read_signature(c, f, &s);
    memset(&cv, 0, sizeof cv);
    cv.impl_definition = impl_definition_template;

    has_option_groups = s.n && (s.params[0]->group || s.params[s.n - 1]->group);
    meth_o = s.n == 1 && s.params[0]->kind == PARAM_POSITIONAL_ONLY &&
             !converter_is_optional(s.params[0]->converter) &&
             !s.requires_defining_class && !s.new_or_init;

    if (s.new_or_init && (!f->docstring || !*f->docstring)) {
        docstring_prototype = docstring_definition = "";
    } else {
        docstring_prototype = docstring_prototype_template;
        docstring_definition = docstring_definition_template;
    }

    if (s.n == 0)
        render_noargs(c, &s, &cv);
    else if (meth_o)
        render_meth_o(c, &s, &cv);
    else if (has_option_groups)
        render_option_groups(c, &cv);
    else if (!s.requires_defining_class &&
             s.pos_only == (int)s.n - s.pseudo_args)
        render_positional_only(c, &s, &cv);
    else
        render_keywords(c, &s, &cv);

    if (s.new_or_init) {
        methoddef_define = "";
        render_new_or_init(c, f, &s, &cv, &return_value_declaration);
    }

    flags = cv.flags;
    if (strcmp(flags, "METH_NOARGS") == 0 || strcmp(flags, "METH_O") == 0 ||
        strcmp(flags, "METH_VARARGS") == 0) {
        methoddef_cast = "(PyCFunction)";
        methoddef_cast_end = "";
    } else {
        methoddef_cast = "_PyCFunction_CAST(";
        methoddef_cast_end = ")";
    }
    meth_flags = gen_methoddef_flags(c, f);
    if (*meth_flags)
        flags = arena_printf(a, "%s|%s", flags, meth_flags);

    f->rendering.convention = cv.flags;
    f->rendering.parser = cv.parser;
    f->rendering.methoddef_flags = *methoddef_define ? flags : NULL;
    f->rendering.docstring =
        *docstring_definition ? gen_docstring_text(c, f) : NULL;

    methoddef_define = str_replace(a, methoddef_define, "{methoddef_flags}",
                                   flags);
    methoddef_define = str_replace(a, methoddef_define, "{methoddef_cast}",
                                   methoddef_cast);
    methoddef_define = str_replace(a, methoddef_define, "{methoddef_cast_end}",
                                   methoddef_cast_end);

    /* The reference reads the preprocessor state when it renders, after
       the block's stop line; the DSL records it in f->cpp_condition just
       before calling us. */
    if (f->cpp_condition)
        conditional = f->cpp_condition;
    else
        conditional = c->cpp ? cpp_condition(c, c->cpp) : "";
    if (*conditional) {
        cpp_if = arena_printf(a, "#if %s", conditional);
        cpp_endif = arena_printf(a, "#endif /* %s */", conditional);
        if (*methoddef_define && !gen_ifndef_symbol_seen(c, f->full_name)) {
            gen_ifndef_symbol_add(c, f->full_name);
            methoddef_ifndef =
                "#ifndef {methoddef_name}\n"
                "    #define {methoddef_name}\n"
                "#endif /* !defined({methoddef_name}) */";
        }
    }

    parser_prototype = cv.parser_prototype;
    if (*parser_prototype)
        parser_prototype = arena_printf(a, "%s;", parser_prototype);
    impl_prototype = cv.impl_prototype ? cv.impl_prototype : cv.impl_definition;
    if (*impl_prototype)
        impl_prototype = arena_printf(a, "%s;", impl_prototype);
    parser_definition = str_replace(a, cv.parser_definition,
                                    "{return_value_declaration}",
                                    return_value_declaration);

    strmap_set(a, templates, "docstring_prototype",
               wrap_in_newlines(c, docstring_prototype));
    strmap_set(a, templates, "docstring_definition",
               wrap_in_newlines(c, docstring_definition));
    strmap_set(a, templates, "impl_prototype",
               wrap_in_newlines(c, impl_prototype));
    strmap_set(a, templates, "methoddef_define",
               wrap_in_newlines(c, methoddef_define));
    strmap_set(a, templates, "parser_prototype",
               wrap_in_newlines(c, parser_prototype));
    strmap_set(a, templates, "parser_definition",
               wrap_in_newlines(c, parser_definition));
    strmap_set(a, templates, "impl_definition",
               wrap_in_newlines(c, cv.impl_definition));
    strmap_set(a, templates, "cpp_if", wrap_in_newlines(c, cpp_if));
    strmap_set(a, templates, "cpp_endif", wrap_in_newlines(c, cpp_endif));
    strmap_set(a, templates, "methoddef_ifndef",
               wrap_in_newlines(c, methoddef_ifndef));
}
