/*
 * gen_templates.c — choose the calling convention of a function and write
 * the templates of its ten output fields (clinic.py's
 * CLanguage.output_templates; 3.13's ParseArgsCodeGen, whose structure
 * this follows): METH_NOARGS, METH_O, METH_VARARGS with option groups,
 * positional-only METH_FASTCALL, METH_FASTCALL|METH_KEYWORDS, METH_METHOD,
 * __new__/__init__, and 3.13's getters and setters.  render_function
 * (gen.c) fills the templates in.
 *
 * What the dialects write differently comes from c->dialect (the keyword
 * parser's declaration, the defining class's argument check, ...); the
 * Limited C API paths run only for a file whose dialect honours
 * Py_LIMITED_API (c->limited_capi).
 *
 * The templates are written here exactly as the reference's
 * normalize_snippet() leaves them, so they read as the C they produce;
 * "{{" and "}}" are str.format escapes, "{name}" fields are filled later.
 */
#include <stdint.h>
#include <string.h>

#include "model/converters.h"
#include "model/target.h"
#include "scan/cpp.h"
#include "generate/gen.h"
#include "generate/gen_int.h"
#include "base/text.h"

/* ---- the fixed templates --------------------------------------------- */

#define METHODDEF_DEFINE_TEMPLATE \
    "#define {methoddef_name}    \\\n" \
    "    {{\"{name}\", {methoddef_cast}{c_basename}{methoddef_cast_end}, " \
    "{methoddef_flags}, {c_basename}__doc__}},"
static const char methoddef_define_template[] = METHODDEF_DEFINE_TEMPLATE;

#define GETTERDEF_DEFINE_TEMPLATE \
    "#if !defined({getset_basename}_DOCSTR)\n" \
    "#  define {getset_basename}_DOCSTR NULL\n" \
    "#endif\n" \
    "#if defined({getset_name}_GETSETDEF)\n" \
    "#  undef {getset_name}_GETSETDEF\n" \
    "#  define {getset_name}_GETSETDEF {{\"{name}\", (getter){getset_basename}_get, " \
    "(setter){getset_basename}_set, {getset_basename}_DOCSTR}},\n" \
    "#else\n" \
    "#  define {getset_name}_GETSETDEF {{\"{name}\", (getter){getset_basename}_get, " \
    "NULL, {getset_basename}_DOCSTR}},\n" \
    "#endif"
static const char getterdef_define_template[] = GETTERDEF_DEFINE_TEMPLATE;

#define SETTERDEF_DEFINE_TEMPLATE \
    "#if !defined({getset_basename}_DOCSTR)\n" \
    "#  define {getset_basename}_DOCSTR NULL\n" \
    "#endif\n" \
    "#if defined({getset_name}_GETSETDEF)\n" \
    "#  undef {getset_name}_GETSETDEF\n" \
    "#  define {getset_name}_GETSETDEF {{\"{name}\", (getter){getset_basename}_get, " \
    "(setter){getset_basename}_set, {getset_basename}_DOCSTR}},\n" \
    "#else\n" \
    "#  define {getset_name}_GETSETDEF {{\"{name}\", NULL, " \
    "(setter){getset_basename}_set, NULL}},\n" \
    "#endif"
static const char setterdef_define_template[] = SETTERDEF_DEFINE_TEMPLATE;

#define METHODDEF_IFNDEF_TEMPLATE \
    "#ifndef {methoddef_name}\n" \
    "    #define {methoddef_name}\n" \
    "#endif /* !defined({methoddef_name}) */"
static const char methoddef_ifndef_template[] = METHODDEF_IFNDEF_TEMPLATE;

#define DOCSTRING_PROTOTYPE_TEMPLATE \
    "PyDoc_VAR({c_basename}__doc__);"
static const char docstring_prototype_template[] = DOCSTRING_PROTOTYPE_TEMPLATE;

#define DOCSTRING_DEFINITION_TEMPLATE \
    "PyDoc_STRVAR({c_basename}__doc__,\n" \
    "{docstring});"
static const char docstring_definition_template[] = DOCSTRING_DEFINITION_TEMPLATE;

#define GETSET_DOCSTRING_DEFINITION_TEMPLATE \
    "PyDoc_STRVAR({getset_basename}__doc__,\n" \
    "{docstring});\n" \
    "#if defined({getset_basename}_DOCSTR)\n" \
    "#   undef {getset_basename}_DOCSTR\n" \
    "#endif\n" \
    "#define {getset_basename}_DOCSTR {getset_basename}__doc__"
static const char getset_docstring_definition_template[] = GETSET_DOCSTRING_DEFINITION_TEMPLATE;

#define IMPL_DEFINITION_TEMPLATE \
    "static {impl_return_type}\n" \
    "{c_basename}_impl({impl_parameters})"
static const char impl_definition_template[] = IMPL_DEFINITION_TEMPLATE;

#define PARSER_PROTOTYPE_KEYWORD \
    "static PyObject *\n" \
    "{c_basename}({self_type}{self_name}, PyObject *args, PyObject *kwargs)"
static const char parser_prototype_keyword[] = PARSER_PROTOTYPE_KEYWORD;

#define PARSER_PROTOTYPE_INIT \
    "static int\n" \
    "{c_basename}({self_type}{self_name}, PyObject *args, PyObject *kwargs)"
static const char parser_prototype_init[] = PARSER_PROTOTYPE_INIT;

#define PARSER_PROTOTYPE_VARARGS \
    "static PyObject *\n" \
    "{c_basename}({self_type}{self_name}, PyObject *args)"
static const char parser_prototype_varargs[] = PARSER_PROTOTYPE_VARARGS;

#define PARSER_PROTOTYPE_FASTCALL \
    "static PyObject *\n" \
    "{c_basename}({self_type}{self_name}, PyObject *const *args, " \
    "Py_ssize_t nargs)"
static const char parser_prototype_fastcall[] = PARSER_PROTOTYPE_FASTCALL;

#define PARSER_PROTOTYPE_FASTCALL_KEYWORDS \
    "static PyObject *\n" \
    "{c_basename}({self_type}{self_name}, PyObject *const *args, " \
    "Py_ssize_t nargs, PyObject *kwnames)"
static const char parser_prototype_fastcall_keywords[] = PARSER_PROTOTYPE_FASTCALL_KEYWORDS;

#define PARSER_PROTOTYPE_DEF_CLASS \
    "static PyObject *\n" \
    "{c_basename}({self_type}{self_name}, PyTypeObject *{defining_class_name}, " \
    "PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)"
static const char parser_prototype_def_class[] = PARSER_PROTOTYPE_DEF_CLASS;

#define PARSER_PROTOTYPE_NOARGS \
    "static PyObject *\n" \
    "{c_basename}({self_type}{self_name}, PyObject *Py_UNUSED(ignored))"
static const char parser_prototype_noargs[] = PARSER_PROTOTYPE_NOARGS;

#define PARSER_PROTOTYPE_GETTER \
    "static PyObject *\n" \
    "{c_basename}({self_type}{self_name}, void *Py_UNUSED(context))"
static const char parser_prototype_getter[] = PARSER_PROTOTYPE_GETTER;

#define PARSER_PROTOTYPE_SETTER \
    "static int\n" \
    "{c_basename}({self_type}{self_name}, PyObject *value, " \
    "void *Py_UNUSED(context))"
static const char parser_prototype_setter[] = PARSER_PROTOTYPE_SETTER;

/* METH_O's, by the name of its argument ("arg_" when the parameter
   is called "arg") */
#define PARSER_PROTOTYPE_O_ARG \
    "static PyObject *\n" \
    "{c_basename}({self_type}{self_name}, PyObject *arg)"
static const char parser_prototype_o_arg[] = PARSER_PROTOTYPE_O_ARG;

#define PARSER_PROTOTYPE_O_ARG_ \
    "static PyObject *\n" \
    "{c_basename}({self_type}{self_name}, PyObject *arg_)"
static const char parser_prototype_o_arg_[] = PARSER_PROTOTYPE_O_ARG_;

#define METH_O_PROTOTYPE \
    "static PyObject *\n" \
    "{c_basename}({impl_parameters})"
static const char meth_o_prototype[] = METH_O_PROTOTYPE;

/* 3.14's: the parser's own first argument, then the impl's others */
#define METH_O_PROTOTYPE_SELF \
    "static PyObject *\n" \
    "{c_basename}({self_type}{self_name}, {parser_parameters})"
static const char meth_o_prototype_self[] = METH_O_PROTOTYPE_SELF;

/* The fixed templates as output_templates hands them on: wrapped in
   newlines, and a prototype with its ';' (put together by the compiler,
   not for each function). */
#define WRAPPED(t) "\n" t "\n"
#define WRAPPED_PROTOTYPE(t) "\n" t ";\n"
static const struct {
    const char *plain, *wrapped, *wrapped_prototype;
} fixed_templates[] = {
    { methoddef_define_template, WRAPPED(METHODDEF_DEFINE_TEMPLATE),
      NULL },
    { getterdef_define_template, WRAPPED(GETTERDEF_DEFINE_TEMPLATE),
      NULL },
    { setterdef_define_template, WRAPPED(SETTERDEF_DEFINE_TEMPLATE),
      NULL },
    { methoddef_ifndef_template, WRAPPED(METHODDEF_IFNDEF_TEMPLATE),
      NULL },
    { docstring_prototype_template, WRAPPED(DOCSTRING_PROTOTYPE_TEMPLATE),
      NULL },
    { docstring_definition_template, WRAPPED(DOCSTRING_DEFINITION_TEMPLATE),
      NULL },
    { getset_docstring_definition_template, WRAPPED(GETSET_DOCSTRING_DEFINITION_TEMPLATE),
      NULL },
    { impl_definition_template, WRAPPED(IMPL_DEFINITION_TEMPLATE),
      WRAPPED_PROTOTYPE(IMPL_DEFINITION_TEMPLATE) },
    { parser_prototype_keyword, WRAPPED(PARSER_PROTOTYPE_KEYWORD),
      WRAPPED_PROTOTYPE(PARSER_PROTOTYPE_KEYWORD) },
    { parser_prototype_init, WRAPPED(PARSER_PROTOTYPE_INIT),
      WRAPPED_PROTOTYPE(PARSER_PROTOTYPE_INIT) },
    { parser_prototype_varargs, WRAPPED(PARSER_PROTOTYPE_VARARGS),
      WRAPPED_PROTOTYPE(PARSER_PROTOTYPE_VARARGS) },
    { parser_prototype_fastcall, WRAPPED(PARSER_PROTOTYPE_FASTCALL),
      WRAPPED_PROTOTYPE(PARSER_PROTOTYPE_FASTCALL) },
    { parser_prototype_fastcall_keywords, WRAPPED(PARSER_PROTOTYPE_FASTCALL_KEYWORDS),
      WRAPPED_PROTOTYPE(PARSER_PROTOTYPE_FASTCALL_KEYWORDS) },
    { parser_prototype_def_class, WRAPPED(PARSER_PROTOTYPE_DEF_CLASS),
      WRAPPED_PROTOTYPE(PARSER_PROTOTYPE_DEF_CLASS) },
    { parser_prototype_noargs, WRAPPED(PARSER_PROTOTYPE_NOARGS),
      WRAPPED_PROTOTYPE(PARSER_PROTOTYPE_NOARGS) },
    { parser_prototype_getter, WRAPPED(PARSER_PROTOTYPE_GETTER),
      WRAPPED_PROTOTYPE(PARSER_PROTOTYPE_GETTER) },
    { parser_prototype_setter, WRAPPED(PARSER_PROTOTYPE_SETTER),
      WRAPPED_PROTOTYPE(PARSER_PROTOTYPE_SETTER) },
    { parser_prototype_o_arg, WRAPPED(PARSER_PROTOTYPE_O_ARG),
      WRAPPED_PROTOTYPE(PARSER_PROTOTYPE_O_ARG) },
    { parser_prototype_o_arg_, WRAPPED(PARSER_PROTOTYPE_O_ARG_),
      WRAPPED_PROTOTYPE(PARSER_PROTOTYPE_O_ARG_) },
    { meth_o_prototype, WRAPPED(METH_O_PROTOTYPE),
      WRAPPED_PROTOTYPE(METH_O_PROTOTYPE) },
    { meth_o_prototype_self, WRAPPED(METH_O_PROTOTYPE_SELF),
      WRAPPED_PROTOTYPE(METH_O_PROTOTYPE_SELF) },
};
#undef WRAPPED
#undef WRAPPED_PROTOTYPE

/* What parser_body puts before and after the parsing code.  {lock} and
   {unlock} are 3.13's critical sections; empty, their lines go. */
static const char parser_body_head[] =
    "{{\n"
    "    {return_value_declaration}\n"
    "    {parser_declarations}\n"
    "    {declarations}\n"
    "    {initializers}\n";

const char gen_parser_body_tail[] =
    "    {modifications}\n"
    "    {lock}\n"
    "    {return_value} = {c_basename}_impl({impl_arguments});\n"
    "    {unlock}\n"
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

static const char modsupport_h[] = "pycore_modsupport.h";

/* ---- the state of one function's templates ------------------------------ */

/* ParseArgsCodeGen: the parameters output_templates works on (without
   self, and without a leading defining_class), what they add up to, and
   the templates chosen so far. */
typedef struct ParseArgs {
    Clinic *c;
    Function *f;
    Parameter **params;
    size_t n;
    bool requires_defining_class;
    bool new_or_init;
    bool fastcall;
    bool limited_capi;
    int pos_only, min_pos, max_pos, min_kw_only, pseudo_args;
    long vararg;               /* index of *args, or -1 (NO_VARARG) */
    /* 3.14: *args, taken out of params (its converter parses it after
       them); NULL: none, or 3.13's *args, which stays among them */
    Parameter *varpos;
    /* 3.15: **kwds, taken out of params likewise; NULL: none */
    Parameter *var_keyword;

    const char *flags;
    const char *parser;        /* Rendering.parser (model.h) */
    const char *declarations;
    const char *return_value_declaration;
    const char *docstring_prototype, *docstring_definition;
    const char *methoddef_define;
    const char *parser_prototype, *parser_definition;
    const char *impl_prototype;   /* NULL: impl_definition's */
    const char *impl_definition;
    const char *cpp_if, *cpp_endif;   /* wrapped in newlines already */
    const char *methoddef_ifndef;
    bool methoddef_wrapped;   /* methoddef_define is, already */
    /* and then its parts between the fields, when they hold no brace */
    GenTemplateParts methoddef_parts;
    size_t parser_tail_at;    /* see GenTemplateParts */
    /* the fields of the last parser_body(): __new__ and __init__
       re-render the same parsing code under another prototype (clinic.py's
       "awful hack"); the parser's text is written from them once, by
       finalize(), when everything it depends on is known */
    StrList body_fields;
    bool has_body;
} ParseArgs;

static const char *snippet(Clinic *c, const char *s, int indent)
{
    return text_normalize_snippet(c->arena, s, indent);
}


/* The first parameter of the kind, taken out of pa->params; NULL when
   there is none. */
static Parameter *take_parameter(ParseArgs *pa, ParamKind kind)
{
    for (size_t i = 0; i < pa->n; i++) {
        if (pa->params[i]->kind != kind)
            continue;
        Parameter *p = pa->params[i];
        Parameter **rest = arena_array_of(pa->c->arena, Parameter *, pa->n);
        memcpy(rest, pa->params, i * sizeof *rest);
        memcpy(rest + i, pa->params + i + 1, (pa->n - i - 1) * sizeof *rest);
        pa->params = rest;
        pa->n--;
        return p;
    }
    return NULL;
}

static void parse_args_init(ParseArgs *pa, Clinic *c, Function *f)
{
    const bool vararg_fix =
        (c->dialect->fixes & FIX_MIN_KW_ONLY_AFTER_VARARG) != 0;

    memset(pa, 0, sizeof *pa);
    pa->c = c;
    pa->f = f;
    pa->params = f->parameters + 1;
    pa->n = f->nparameters - 1;
    if (pa->n && pa->params[0]->converter->cls->is_defining_class) {
        pa->requires_defining_class = true;
        pa->params++;
        pa->n--;
    }
    if (f->critical_section)
        gen_add_include(c, "pycore_critical_section.h",
                        "Py_BEGIN_CRITICAL_SECTION()", NULL);
    pa->new_or_init = function_kind_new_or_init(f->kind);
    pa->fastcall = !pa->new_or_init && !f->disable_fastcall;
    pa->vararg = -1;
    if (c->dialect->fixes & FIX_VARPOS_CONVERTERS)
        pa->varpos = take_parameter(pa, PARAM_VAR_POSITIONAL);
    pa->var_keyword = take_parameter(pa, PARAM_VAR_KEYWORD);
    /* (3.15: **kwds comes in a dict, never through fastcall) */
    if (pa->var_keyword)
        pa->fastcall = false;

    for (size_t i = 1; i <= pa->n; i++) {
        const Parameter *p = pa->params[i - 1];
        if (p->kind == PARAM_KEYWORD_ONLY) {
            if (!param_is_optional(p))
                pa->min_kw_only = (int)i - pa->max_pos -
                                  (vararg_fix && pa->vararg != -1);
        } else if (p->kind == PARAM_VAR_POSITIONAL) {
            if (pa->vararg != -1)
                clinic_fail(c, 0, "Too many var args");
            pa->pseudo_args++;
            pa->vararg = (long)i - 1;
        } else {
            if (pa->vararg == -1)
                pa->max_pos = (int)i;
            if (p->kind == PARAM_POSITIONAL_ONLY)
                pa->pos_only = (int)i;
            if (!param_is_optional(p))
                pa->min_pos = (int)i;
        }
    }
}

static bool has_option_groups(const ParseArgs *pa)
{
    return pa->n && (pa->params[0]->group || pa->params[pa->n - 1]->group);
}

static bool use_meth_o(const ParseArgs *pa)
{
    return pa->n == 1 && pa->params[0]->kind == PARAM_POSITIONAL_ONLY &&
           !converter_is_optional(pa->params[0]->converter) && !pa->varpos &&
           !pa->requires_defining_class && !pa->new_or_init;
}

static bool use_simple_return(const ParseArgs *pa)
{
    return gen_default_return_converter(pa->f) && !pa->f->critical_section;
}

/* 3.14's use_pyobject_self(): the impl's self is a plain object, so the
   parser needs no cast to call it. */
static bool use_pyobject_self(const ParseArgs *pa)
{
    const Converter *self = pa->f->nparameters
                                ? pa->f->parameters[0]->converter : NULL;
    if (!self)
        return true;
    const char *type = self->type;
    if (!type) {
        const char *name;
        correct_name_for_self(pa->f, &type, &name);
    }
    return strcmp(type, "PyObject *") == 0 &&
           (!self->self_type || strcmp(self->self_type, "PyObject *") == 0);
}

static void select_prototypes(ParseArgs *pa)
{
    const Function *f = pa->f;
    bool has_docstring = f->docstring && *f->docstring;

    pa->docstring_prototype = pa->docstring_definition = "";
    pa->methoddef_define = methoddef_define_template;
    pa->return_value_declaration = "PyObject *return_value = NULL;";

    if (pa->new_or_init && !has_docstring) {
        /* no docstring, no methoddef */
    } else if (f->kind == FUNC_GETTER) {
        pa->methoddef_define = getterdef_define_template;
        if (has_docstring)
            pa->docstring_definition = getset_docstring_definition_template;
    } else if (f->kind == FUNC_SETTER) {
        if (has_docstring)
            clinic_fail(pa->c, 0, "docstrings are only supported for "
                                  "@getter, not @setter");
        pa->return_value_declaration = "int {return_value};";
        pa->methoddef_define = setterdef_define_template;
    } else {
        pa->docstring_prototype = docstring_prototype_template;
        pa->docstring_definition = docstring_definition_template;
    }
}

/* The Limited C API cannot express some functions: those fall back to the
   full API, with a warning. */
static void init_limited_capi(ParseArgs *pa)
{
    bool any_optional = false, any_required_kwonly = false, broken = false;

    pa->limited_capi = pa->c->limited_capi;
    if (!pa->limited_capi)
        return;
    for (size_t i = 0; i < pa->n; i++) {
        const Parameter *p = pa->params[i];
        any_optional |= param_is_optional(p);
        any_required_kwonly |= p->kind == PARAM_KEYWORD_ONLY &&
                               !param_is_optional(p);
        broken |= p->converter->cls->broken_limited_capi;
    }
    /* 3.14 makes *args in the Limited C API when only positional-only
       parameters come before it */
    bool varpos = pa->varpos && pa->pos_only < (int)pa->n;
    if (pa->pseudo_args || varpos || (any_optional && any_required_kwonly) ||
        broken) {
        clinic_warn(pa->c, 0, "Function %s cannot use limited C API",
                    pa->f->full_name);
        pa->limited_capi = false;
    }
}

/* The parser function: prototype, declarations, the parsing code (fields),
   the impl call and the cleanup.  Only the fields are kept here: the text
   is written by finalize(). */
static void parser_body(ParseArgs *pa, const StrList *fields)
{
    pa->body_fields = *fields;
    pa->has_body = true;
}

/* parser_body's text as clinic.py writes it, step by step: the template
   put together, {parser_declarations} filled in by linear_format, then
   {return_value_declaration} replaced everywhere.  (For the rare fields
   that name either; see parser_definition_text.) */
static const char *parser_definition_by_steps(ParseArgs *pa)
{
    Arena *a = pa->c->arena;
    const StrList *fields = &pa->body_fields;
    StrBuf sb = STRBUF_INIT;
    StrMap map = {0};

    sb_adds(&sb, pa->parser_prototype);
    sb_addc(&sb, '\n');
    sb_adds(&sb, parser_body_head);
    for (size_t i = 0; i < fields->len; i++) {
        sb_addc(&sb, '\n');
        sb_adds(&sb, fields->items[i]);
    }
    sb_addc(&sb, '\n');
    sb_adds(&sb, gen_parser_body_tail);

    strmap_set(a, &map, "parser_declarations",
               pa->declarations ? pa->declarations : "");
    const char *s = text_linear_format(a, sb_take(&sb, a), &map);
    return text_replace(a, s, "{return_value_declaration}",
                        pa->return_value_declaration);
}

/* What linear_format puts for "    {parser_declarations}": each line of
   the value stripped of trailing white space and, unless that leaves it
   empty, indented by four spaces; a newline after each.  Nothing for an
   empty value (the line goes).  Returns the end of what it wrote at o,
   which has room for strlen(value) + 5 bytes a line. */
static char *put_declarations(char *o, const char *value)
{
    if (!*value)
        return o;
    for (const char *line = value;;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        while (len > 0 && text_is_py_space(line[len - 1]))
            len--;
        if (len) {
            memcpy(o, "    ", 4);
            memcpy(o + 4, line, len);
            o += 4 + len;
        }
        *o++ = '\n';
        if (!nl)
            return o;
        line = nl + 1;
    }
}

/* The parser's definition, wrapped in newlines as output_templates
   leaves it, with the compiler warning (if any) before it.  Written in
   one piece: the template's two fields are known to be on their own
   lines in parser_body_head, and each is replaced there alone unless
   some other piece names one of them; then the text is made by the
   steps clinic.py takes. */
static const char *parser_definition_text(ParseArgs *pa, const char *warning)
{
    Arena *a = pa->c->arena;
    const StrList *fields = &pa->body_fields;
    const char *decl = pa->declarations ? pa->declarations : "";
    const char *rvd = pa->return_value_declaration;
    /* both fields' names end so */
    bool by_steps = strstr(pa->parser_prototype, "_declaration") ||
                    strstr(decl, "_declaration");
    size_t total = 0;
    for (size_t i = 0; i < fields->len && !by_steps; i++) {
        by_steps = strstr(fields->items[i], "_declaration") != NULL;
        total += strlen(fields->items[i]) + 1;
    }
    if (by_steps) {
        const char *s = parser_definition_by_steps(pa);
        return warning ? arena_concat_of(a, "\n", warning, "\n\n", s, "\n")
                       : arena_concat_of(a, "\n", s, "\n");
    }

    static const char head_open[] = "{{\n    ";
    static const char head_rest[] = "    {declarations}\n"
                                    "    {initializers}\n";
    size_t nlines = 1;
    for (const char *p = decl; (p = strchr(p, '\n')); p++)
        nlines++;
    size_t wlen = warning ? strlen(warning) + 2 : 0;
    size_t plen = strlen(pa->parser_prototype), rlen = strlen(rvd);
    total += 1 + wlen + plen + 1 + (sizeof head_open - 1) + rlen + 1 +
             strlen(decl) + 5 * nlines + (sizeof head_rest - 1) + 1 +
             (sizeof gen_parser_body_tail - 1) + 1;
    char *out = arena_alloc_uninit(a, total + 1), *o = out;
#define PUT(s, n) (memcpy(o, (s), (n)), o += (n))
    *o++ = '\n';
    if (warning) {
        PUT(warning, wlen - 2);
        PUT("\n\n", 2);
    }
    PUT(pa->parser_prototype, plen);
    *o++ = '\n';
    PUT(head_open, sizeof head_open - 1);
    PUT(rvd, rlen);
    *o++ = '\n';
    o = put_declarations(o, decl);
    PUT(head_rest, sizeof head_rest - 1);
    for (size_t i = 0; i < fields->len; i++) {
        *o++ = '\n';
        size_t n = strlen(fields->items[i]);
        PUT(fields->items[i], n);
    }
    *o++ = '\n';
    pa->parser_tail_at = (size_t)(o - out);
    PUT(gen_parser_body_tail, sizeof gen_parser_body_tail - 1);
    *o++ = '\n';
#undef PUT
    *o = '\0';
    return out;
}

/* The formats of the arguments the parsing code unpacks, and their
   first names written out. */
static const char args_fmt[] = "args[%d]", fastargs_fmt[] = "fastargs[%d]";
#define ARGNAMES_WRITTEN 16
static const char *const args_names[ARGNAMES_WRITTEN] = {
    "args[0]", "args[1]", "args[2]", "args[3]", "args[4]", "args[5]",
    "args[6]", "args[7]", "args[8]", "args[9]", "args[10]", "args[11]",
    "args[12]", "args[13]", "args[14]", "args[15]",
};
static const char *const fastargs_names[ARGNAMES_WRITTEN] = {
    "fastargs[0]", "fastargs[1]", "fastargs[2]", "fastargs[3]",
    "fastargs[4]", "fastargs[5]", "fastargs[6]", "fastargs[7]",
    "fastargs[8]", "fastargs[9]", "fastargs[10]", "fastargs[11]",
    "fastargs[12]", "fastargs[13]", "fastargs[14]", "fastargs[15]"
};

/* The argument of parameter i, as the parsing code names it: the
   format's "%d" replaced by i (every format here has that one
   conversion and no other). */
static const char *argname_of(Clinic *c, const char *argname_fmt, int i)
{
    if (i >= 0 && i < ARGNAMES_WRITTEN) {
        if (argname_fmt == args_fmt)
            return args_names[i];
        if (argname_fmt == fastargs_fmt)
            return fastargs_names[i];
    }
    const char *d = strstr(argname_fmt, "%d");
    if (!d || i < 0 || strchr(argname_fmt, '%') != d || strchr(d + 2, '%'))
        return arena_printf(c->arena, argname_fmt, i);
    char digits[16], *p = digits + sizeof digits;
    *--p = '\0';
    do
        *--p = (char)('0' + i % 10);
    while ((i /= 10) > 0);
    size_t head = (size_t)(d - argname_fmt), n = strlen(p);
    size_t tail = strlen(d + 2);
    char *out = arena_alloc_uninit(c->arena, head + n + tail + 1);
    memcpy(out, argname_fmt, head);
    memcpy(out + head, p, n);
    memcpy(out + head + n, d + 2, tail + 1);
    return out;
}

/* ---- the keyword parser's declarations ----------------------------------- */

static const char build_core_condition[] =
    "#if defined(Py_BUILD_CORE) && !defined(Py_BUILD_CORE_MODULE)";

/* declare_parser: the static _PyArg_Parser (and 3.12's keyword tuple),
   with the parser's name, or with the format string when hasformat. */
static const char *declare_parser(ParseArgs *pa, bool hasformat)
{
    Clinic *c = pa->c;
    const Dialect *d = c->dialect;
    const char *kwtuple;
    int num_keywords = 0;

    for (size_t i = 0; i < pa->f->nparameters; i++) {
        ParamKind k = pa->f->parameters[i]->kind;
        if (k == PARAM_POSITIONAL_OR_KEYWORD || k == PARAM_KEYWORD_ONLY)
            num_keywords++;
    }
    if (c->limited_capi || c->target->outside_core) {
        /* the file's Limited C API, even where this function cannot use
           it; or code that is never part of the core */
        kwtuple = DIALECT_KEYWORD_TEXT(d, kwtuple_limited);
    } else if (num_keywords == 0) {
        kwtuple = DIALECT_KEYWORD_TEXT(d, kwtuple_none);
        gen_add_include(c, "pycore_runtime.h", "_Py_SINGLETON()",
                        build_core_condition);
    } else {
        kwtuple = arena_printf(c->arena, DIALECT_KEYWORD_TEXT(d, kwtuple_some),
                               num_keywords);
        gen_add_include(c, "pycore_gc.h", "PyGC_Head", build_core_condition);
        gen_add_include(c, "pycore_runtime.h", "_Py_ID()",
                        build_core_condition);
    }
    return arena_concat_of(c->arena, kwtuple,
                           arena_printf(c->arena,
                                        DIALECT_KEYWORD_TEXT(d, declaration),
                                        hasformat
                                            ? DIALECT_KEYWORD_TEXT(d, format)
                                            : DIALECT_KEYWORD_TEXT(d, fname)));
}

/* ---- the calling conventions -------------------------------------------- */

/* No parameters: METH_NOARGS, a getter or setter, or METH_METHOD when it
   wants its defining class. */
static void parse_no_args(ParseArgs *pa)
{
    Clinic *c = pa->c;
    StrList code = {0};
    bool simple_return = use_simple_return(pa);

    pa->parser = "none";
    if (pa->f->kind == FUNC_GETTER) {
        pa->parser_prototype = parser_prototype_getter;
    } else if (pa->f->kind == FUNC_SETTER) {
        pa->parser_prototype = parser_prototype_setter;
        const char *preamble = DIALECT_INHERITED(c->dialect, setter_preamble);
        if (preamble && !pa->f->deleter)
            strlist_push(c->arena, &code, preamble);
    } else if (!pa->requires_defining_class) {
        pa->flags = "METH_NOARGS";
        pa->parser_prototype = parser_prototype_noargs;
    } else {
        if (!pa->fastcall)   /* the reference asserts it */
            clinic_fail(c, 0, "Exception raised during parsing:\n"
                              "AssertionError: a function taking only its "
                              "defining class cannot @disable fastcall");
        pa->flags = "METH_METHOD|METH_FASTCALL|METH_KEYWORDS";
        pa->parser = "inline";
        pa->parser_prototype = parser_prototype_def_class;
        strlist_push(c->arena, &code, arena_printf(c->arena,
            "    if (%s) {{\n"
            "        PyErr_SetString(PyExc_TypeError, \"{name}() takes no arguments\");\n"
            "        %s\n"
            "    }}",
            c->dialect->defining_class_no_args,
            simple_return ? "return NULL;" : "goto exit;"));
    }

    if (simple_return) {
        StrBuf sb = STRBUF_INIT;
        sb_adds(&sb, pa->parser_prototype);
        sb_adds(&sb, "\n{{");
        for (size_t i = 0; i < code.len; i++) {
            sb_addc(&sb, '\n');
            sb_adds(&sb, code.items[i]);
        }
        sb_adds(&sb, "\n    return {c_basename}_impl({impl_arguments});\n}}");
        pa->parser_definition = sb_take(&sb, c->arena);
    } else {
        parser_body(pa, &code);
    }
}

/* One required positional-only parameter: METH_O. */
static void parse_one_arg(ParseArgs *pa)
{
    Clinic *c = pa->c;
    Arena *a = c->arena;
    Parameter *p = pa->params[0];
    Converter *conv = p->converter;
    StrList code = {0};

    pa->flags = "METH_O";
    pa->parser = "none";

    if (gen_is_object_converter(conv) && conv->format_unit &&
        strcmp(conv->format_unit, "O") == 0) {
        bool pyobject_self = (c->dialect->fixes & FIX_PYOBJECT_SELF) != 0;
        const char *proto = pyobject_self ? meth_o_prototype_self
                                          : meth_o_prototype;
        if (use_simple_return(pa) &&
            (!pyobject_self || use_pyobject_self(pa))) {
            /* Maps straight onto METH_O: the impl is the method. */
            pa->impl_prototype = "";
            pa->impl_definition = proto;
        } else {
            /* The reference's "SLIGHT HACK": the parser takes the impl's
               parameters (render_function drops their declaration). */
            pa->parser_prototype = proto;
            parser_body(pa, &code);
        }
        return;
    }

    bool arg_taken = strcmp(p->name, "arg") == 0;
    const char *argname = arg_taken ? "arg_" : "arg";
    pa->parser_prototype = arg_taken ? parser_prototype_o_arg_
                                     : parser_prototype_o_arg;
    const char *parsearg = converter_parse_arg_code(
        c, conv, argname, gen_param_displayname(c, p, 0), pa->limited_capi, 4);
    pa->parser = parsearg ? "inline" : "PyArg_Parse";
    if (!parsearg) {
        converter_use_converter(c, conv);
        parsearg = snippet(c, arena_printf(a,
            "if (!PyArg_Parse(%s, \"{format_units}:{name}\", {parse_arguments})) {{\n"
            "    goto exit;\n"
            "}}", argname), 4);
    }
    strlist_push(a, &code, parsearg);
    parser_body(pa, &code);
}

/* Positional parameters in option groups: METH_VARARGS and a switch of
   PyArg_ParseTuple calls (gen_groups.c writes the switch). */
static void parse_option_groups(ParseArgs *pa)
{
    StrList code = {0};

    pa->flags = "METH_VARARGS";
    pa->parser = "PyArg_ParseTuple";
    pa->parser_prototype = parser_prototype_varargs;
    strlist_push(pa->c->arena, &code, "    {option_group_parsing}");
    parser_body(pa, &code);
}

/* 3.14's *args, parsed by its converter once the other parameters are
   (_parse_vararg), normalised for the parser's body. */
static const char *parse_vararg(ParseArgs *pa)
{
    VarargCounts counts = {pa->pos_only, pa->min_pos, pa->max_pos,
                           pa->fastcall, pa->limited_capi};
    return snippet(pa->c, converter_parse_vararg(pa->c, pa->varpos->converter,
                                                 &counts), 4);
}

/* 3.15's **kwds, filled once the positional arguments are parsed
   (_parse_kwarg), normalised for the parser's body. */
static const char *parse_var_keyword_code(ParseArgs *pa)
{
    return snippet(pa->c, converter_parse_var_keyword(
                              pa->c, pa->var_keyword->converter), 4);
}

/* 3.14 parses *args with specialised code only: a converter without
   any beside it is refused (the reference's ValueError). */
static CLINIC_NORETURN void fail_no_parse_arg(ParseArgs *pa, Parameter *p)
{
    clinic_fail(pa->c, 0, "Using converter %s of parameter %s is not "
                          "supported in function with var-positional "
                          "parameter", p->converter->cls->class_name,
                p->name);
}

static const char *plural(int n)
{
    return n == 1 ? "" : "s";
}

/* The full C API's check of the number of positional arguments: between
   min_pos and max_args (-1: no upper bound). */
static void check_positional(ParseArgs *pa, StrList *code, const char *nargs,
                             long max_args)
{
    Clinic *c = pa->c;
    Arena *a = c->arena;
    gen_add_include(c, modsupport_h, "_PyArg_CheckPositional()", NULL);
    strlist_push(a, code, arena_concat_of(a,
        "    if (!_PyArg_CheckPositional(\"{name}\", ", nargs, ", ",
        gen_decimal(a, pa->min_pos), ", ",
        max_args < 0 ? GEN_NO_VARARG : gen_decimal(a, max_args),
        ")) {{\n"
        "        goto exit;\n"
        "    }}"));
}

/* The Limited C API's checks of the number of positional arguments
   (_PyArg_CheckPositional is not part of it). */
static void limited_check_positional(ParseArgs *pa, StrList *code,
                                     const char **nargs, long max_args)
{
    Clinic *c = pa->c;
    Arena *a = c->arena;

    if (strcmp(*nargs, "nargs") != 0) {
        strlist_push(a, code, snippet(c, arena_printf(a,
            "Py_ssize_t nargs = %s;", *nargs), 4));
        *nargs = "nargs";
    }
    if (pa->min_pos == max_args) {
        strlist_push(a, code, arena_printf(a,
            "    if (%s != %d) {{\n"
            "        PyErr_Format(PyExc_TypeError, \"{name} expected %d argument%s, got %%zd\", %s);\n"
            "        goto exit;\n"
            "    }}", *nargs, pa->min_pos, pa->min_pos, plural(pa->min_pos),
            *nargs));
        return;
    }
    if (pa->min_pos)
        strlist_push(a, code, arena_printf(a,
            "    if (%s < %d) {{\n"
            "        PyErr_Format(PyExc_TypeError, \"{name} expected at least %d argument%s, got %%zd\", %s);\n"
            "        goto exit;\n"
            "    }}", *nargs, pa->min_pos, pa->min_pos, plural(pa->min_pos),
            *nargs));
    if (max_args >= 0)
        strlist_push(a, code, arena_printf(a,
            "    if (%s > %ld) {{\n"
            "        PyErr_Format(PyExc_TypeError, \"{name} expected at most %ld argument%s, got %%zd\", %s);\n"
            "        goto exit;\n"
            "    }}", *nargs, max_args, max_args, plural((int)max_args),
            *nargs));
}

/* Positional-only parameters without groups: METH_FASTCALL (or
   METH_VARARGS for __new__/__init__), one specialised conversion per
   argument, or a format string when some converter has none. */
static void parse_pos_only(ParseArgs *pa)
{
    Clinic *c = pa->c;
    Arena *a = c->arena;
    StrList code = {0};
    const char *nargs, *argname_fmt;
    bool has_optional = false, use_parser_code = true;

    if (pa->fastcall) {
        pa->flags = "METH_FASTCALL";
        pa->parser_prototype = parser_prototype_fastcall;
        nargs = "nargs";
        argname_fmt = args_fmt;
    } else {
        pa->flags = "METH_VARARGS";
        pa->parser_prototype = parser_prototype_varargs;
        if (pa->limited_capi) {
            nargs = "PyTuple_Size(args)";
            argname_fmt = "PyTuple_GetItem(args, %d)";
        } else {
            nargs = "PyTuple_GET_SIZE(args)";
            argname_fmt = "PyTuple_GET_ITEM(args, %d)";
        }
    }

    const char *left_args = arena_concat_of(a, nargs, " - ",
                                            gen_decimal(a, pa->max_pos));
    long max_args = pa->vararg != -1 || pa->varpos ? -1 : pa->max_pos;
    if (pa->limited_capi) {
        limited_check_positional(pa, &code, &nargs, max_args);
    } else if (!pa->varpos || pa->min_pos || max_args >= 0) {
        /* (3.14: no check where anything goes) */
        check_positional(pa, &code, nargs, max_args);
    }

    for (size_t i = 0; i < pa->n; i++) {
        Parameter *p = pa->params[i];

        if (p->kind == PARAM_VAR_POSITIONAL) {
            const char *pname = converter_parser_name(c, p->converter);
            if (pa->fastcall)
                strlist_push(a, &code, arena_printf(a,
                    "    %s = PyTuple_New(%s);\n"
                    "    if (!%s) {{\n"
                    "        goto exit;\n"
                    "    }}\n"
                    "    for (Py_ssize_t i = 0; i < %s; ++i) {{\n"
                    "        PyTuple_SET_ITEM(%s, i, Py_NewRef(args[%d + i]));\n"
                    "    }}",
                    pname, left_args, pname, left_args, pname, pa->max_pos));
            else
                strlist_push(a, &code, arena_printf(a,
                    "    %s = PyTuple_GetSlice(%d, -1);", pname, pa->max_pos));
            continue;
        }

        const char *parsearg = converter_parse_arg_code(
            c, p->converter, argname_of(c, argname_fmt, (int)i),
            gen_param_displayname(c, p, (int)i + 1), pa->limited_capi, 4);
        if (!parsearg) {
            if (pa->varpos)
                fail_no_parse_arg(pa, p);
            use_parser_code = false;
            break;
        }
        if (has_optional || param_is_optional(p)) {
            has_optional = true;
            strlist_push(a, &code, arena_printf(a,
                "    if (%s < %d) {{\n"
                "        goto skip_optional;\n"
                "    }}", nargs, (int)i + 1));
        }
        strlist_push(a, &code, parsearg);
    }

    if (use_parser_code) {
        pa->parser = pa->limited_capi ? "inline" : "_PyArg_CheckPositional";
        if (has_optional)
            strlist_push(a, &code, "skip_optional:");
        if (pa->varpos)
            strlist_push(a, &code, parse_vararg(pa));
        else if (pa->var_keyword)
            strlist_push(a, &code, parse_var_keyword_code(pa));
    } else {
        for (size_t i = 0; i < pa->n; i++)
            converter_use_converter(c, pa->params[i]->converter);
        if (pa->limited_capi)
            pa->fastcall = false;
        code = (StrList){0};
        pa->parser = pa->fastcall ? "_PyArg_ParseStack" : "PyArg_ParseTuple";
        if (pa->fastcall) {
            gen_add_include(c, modsupport_h, "_PyArg_ParseStack()", NULL);
            strlist_push(a, &code,
                "    if (!_PyArg_ParseStack(args, nargs, \"{format_units}:{name}\",\n"
                "        {parse_arguments})) {{\n"
                "        goto exit;\n"
                "    }}");
        } else {
            pa->flags = "METH_VARARGS";
            pa->parser_prototype = parser_prototype_varargs;
            strlist_push(a, &code,
                "    if (!PyArg_ParseTuple(args, \"{format_units}:{name}\",\n"
                "        {parse_arguments})) {{\n"
                "        goto exit;\n"
                "    }}");
        }
    }
    parser_body(pa, &code);
}

/* 3.15's **kwds, with positional-only parameters and *args before it:
   METH_VARARGS|METH_KEYWORDS, the positional arguments from the tuple,
   then the keywords' dict.  (The reference writes this for the full C
   API whatever the file asks for.) */
static void parse_var_keyword(ParseArgs *pa)
{
    Clinic *c = pa->c;
    Arena *a = c->arena;
    StrList code = {0};
    static const char nargs[] = "PyTuple_GET_SIZE(args)";

    pa->flags = "METH_VARARGS|METH_KEYWORDS";
    pa->parser = "inline";
    pa->parser_prototype = parser_prototype_keyword;

    long max_args = pa->varpos ? -1 : pa->max_pos;
    if (!pa->varpos && pa->min_pos == 0 && pa->max_pos == 0) {
        gen_add_include(c, modsupport_h, "_PyArg_NoPositional()", NULL);
        strlist_push(a, &code,
            "    if (!_PyArg_NoPositional(\"{name}\", args)) {{\n"
            "        goto exit;\n"
            "    }}");
    } else if (pa->min_pos || max_args >= 0) {
        check_positional(pa, &code, nargs, max_args);
    }

    bool has_optional = false;
    for (size_t i = 0; i < pa->n; i++) {
        Parameter *p = pa->params[i];
        const char *parsearg = converter_parse_arg_code(
            c, p->converter,
            arena_printf(a, "PyTuple_GET_ITEM(args, %zu)", i),
            gen_param_displayname(c, p, (int)i + 1), pa->limited_capi, 4);
        if (!parsearg)   /* the reference asserts there is one */
            clinic_fail(c, 0, "Exception raised during parsing:\n"
                              "AssertionError: %s has no parse_arg() for "
                              "a function with **kwargs",
                        p->converter->cls->class_name);
        if (has_optional || param_is_optional(p)) {
            has_optional = true;
            strlist_push(a, &code, arena_printf(a,
                "    if (%s < %zu) {{\n"
                "        goto skip_optional;\n"
                "    }}", nargs, i + 1));
        }
        strlist_push(a, &code, parsearg);
    }
    if (has_optional)
        strlist_push(a, &code, "skip_optional:");
    if (pa->varpos)
        strlist_push(a, &code, parse_vararg(pa));
    strlist_push(a, &code, parse_var_keyword_code(pa));
    parser_body(pa, &code);
}

/* The parameters a '[from X.Y]' marker deprecates, by their index. */
typedef struct Deprecated {
    Parameter **params;
    int *index;
    size_t n;
} Deprecated;

static void collect_deprecated(ParseArgs *pa, Deprecated *positional,
                               Deprecated *keyword)
{
    Arena *a = pa->c->arena;
    positional->params = arena_array_of(a, Parameter *, pa->n + 1);
    positional->index = arena_array_of(a, int, pa->n + 1);
    keyword->params = arena_array_of(a, Parameter *, pa->n + 1);
    keyword->index = arena_array_of(a, int, pa->n + 1);
    positional->n = keyword->n = 0;
    for (size_t i = 0; i < pa->n; i++) {
        Parameter *p = pa->params[i];
        if (p->deprecated_positional.major) {
            positional->params[positional->n] = p;
            positional->index[positional->n++] = (int)i;
        }
        if (p->deprecated_keyword.major) {
            keyword->params[keyword->n] = p;
            keyword->index[keyword->n++] = (int)i;
        }
    }
}

/* The indentation of parameter i's parsing code: inside an "if" for an
   optional one that some other follows (see add_optional_parse). */
static int parse_indent(const ParseArgs *pa, const Parameter *p, size_t i)
{
    if (!param_is_optional(p) || (int)i < pa->pos_only || i + 1 == pa->n)
        return 4;
    return 8;
}

/* The code of one parameter that may be missing: what skips it.
   parsearg is its parsing code, indented by parse_indent(). */
static void add_optional_parse(ParseArgs *pa, StrList *code, size_t i,
                               const char *argname, const char *parsearg,
                               bool has_optional_kw, const char **add_label)
{
    Clinic *c = pa->c;
    Arena *a = c->arena;
    int first_pos = pa->pos_only > pa->min_pos ? pa->pos_only : pa->min_pos;

    if ((int)i < pa->pos_only) {
        *add_label = "skip_optional_posonly";
        strlist_push(a, code, arena_concat_of(a,
            "    if (nargs < ", gen_decimal(a, (long)i + 1), ") {{\n"
            "        goto ", *add_label, ";\n"
            "    }}"));
        if (has_optional_kw)
            strlist_push(a, code, "    noptargs--;");
        strlist_push(a, code, parsearg);
        return;
    }

    const char *label;
    int first_opt;
    if ((int)i < pa->max_pos) {
        label = "skip_optional_pos";
        first_opt = first_pos;
    } else {
        label = "skip_optional_kwonly";
        first_opt = pa->max_pos + pa->min_kw_only;
        if (pa->vararg != -1)
            first_opt += 1;
    }
    if ((int)i == first_opt) {
        *add_label = label;
        strlist_push(a, code, arena_concat_of(a,
            "    if (!noptargs) {{\n"
            "        goto ", *add_label, ";\n"
            "    }}"));
    }
    if (i + 1 == pa->n) {
        strlist_push(a, code, parsearg);
    } else {
        *add_label = label;
        strlist_push(a, code, arena_concat_of(a, "    if (", argname, ") {{"));
        strlist_push(a, code, parsearg);
        strlist_push(a, code, arena_concat_of(a,
            "        if (!--noptargs) {{\n"
            "            goto ", *add_label, ";\n"
            "        }}\n"
            "    }}"));
    }
}

/* Everything else: keyword arguments through _PyArg_UnpackKeywords
   (METH_FASTCALL|METH_KEYWORDS, METH_VARARGS|METH_KEYWORDS for
   __new__/__init__, METH_METHOD with the defining class), or a format
   string when some converter has none (always, for the Limited C API). */
static void parse_general(ParseArgs *pa)
{
    Clinic *c = pa->c;
    Arena *a = c->arena;
    StrList code = {0};
    const char *argname_fmt = NULL;
    const char *add_label = NULL;
    bool use_parser_code = true;
    Deprecated dep_pos, dep_kw;
    int first_pos = pa->pos_only > pa->min_pos ? pa->pos_only : pa->min_pos;
    bool has_optional_kw = first_pos + pa->min_kw_only <
                           (int)pa->n - (pa->vararg != -1);

    collect_deprecated(pa, &dep_pos, &dep_kw);

    if (pa->limited_capi) {
        use_parser_code = false;
        pa->fastcall = false;
    } else {
        const char *unpack, *unpack_args, *nargs;
        /* 3.14's call, with its counts named; not yet for *args, whose
           parsing 3.14 reworked */
        const char *unpack_call = pa->vararg == -1
            ? DIALECT_KEYWORD_TEXT(c->dialect, unpack_call) : NULL;
        if (pa->vararg == -1) {
            gen_add_include(c, modsupport_h, "_PyArg_UnpackKeywords()", NULL);
            unpack = "_PyArg_UnpackKeywords";
            unpack_args = arena_concat_of(a, gen_decimal(a, pa->min_pos), ", ",
                                          gen_decimal(a, pa->max_pos), ", ",
                                          gen_decimal(a, pa->min_kw_only));
            nargs = !pa->varpos ? "nargs"
                    : pa->max_pos ? arena_printf(a, "Py_MIN(nargs, %d)",
                                                 pa->max_pos)
                                  : "0";
        } else {
            gen_add_include(c, modsupport_h,
                            "_PyArg_UnpackKeywordsWithVararg()", NULL);
            unpack = "_PyArg_UnpackKeywordsWithVararg";
            unpack_args = arena_printf(a, "%d, %d, %d, %ld", pa->min_pos,
                                       pa->max_pos, pa->min_kw_only,
                                       pa->vararg);
            nargs = pa->max_pos ? arena_printf(a, "Py_MIN(nargs, %d)",
                                               pa->max_pos)
                                : "0";
        }
        pa->parser = unpack;

        if (pa->fastcall) {
            pa->flags = "METH_FASTCALL|METH_KEYWORDS";
            pa->parser_prototype = parser_prototype_fastcall_keywords;
            /* 3.14 unpacks the arguments before *args apart */
            argname_fmt = pa->varpos ? fastargs_fmt : args_fmt;
            pa->declarations = arena_printf(a, "%s\nPyObject *argsbuf[%zu];%s",
                                            declare_parser(pa, false),
                                            pa->n ? pa->n : 1,
                                            pa->varpos
                                                ? "\nPyObject * const *fastargs;"
                                                : "");
            if (has_optional_kw)
                pa->declarations = arena_printf(a,
                    "%s\nPy_ssize_t noptargs = %s + (kwnames ? "
                    "PyTuple_GET_SIZE(kwnames) : 0) - %d;",
                    pa->declarations, nargs, pa->min_pos + pa->min_kw_only);
            if (unpack_call)
                strlist_push(a, &code, arena_printf(a, unpack_call,
                    pa->varpos ? "fastargs" : "args",
                    "args, nargs, NULL, kwnames", pa->min_pos, pa->max_pos,
                    pa->min_kw_only, pa->varpos != NULL,
                    pa->varpos ? "fastargs" : "args"));
            else
                strlist_push(a, &code, arena_printf(a,
                    "    args = %s(args, nargs, NULL, kwnames, &_parser, %s, argsbuf);\n"
                    "    if (!args) {{\n"
                    "        goto exit;\n"
                    "    }}", unpack, unpack_args));
        } else {
            pa->flags = "METH_VARARGS|METH_KEYWORDS";
            pa->parser_prototype = parser_prototype_keyword;
            argname_fmt = fastargs_fmt;
            pa->declarations = arena_printf(a,
                "%s\nPyObject *argsbuf[%zu];\n"
                "PyObject * const *fastargs;\n"
                "Py_ssize_t nargs = PyTuple_GET_SIZE(args);",
                declare_parser(pa, false), pa->n ? pa->n : 1);
            if (has_optional_kw)
                pa->declarations = arena_printf(a,
                    "%s\nPy_ssize_t noptargs = %s + (kwargs ? "
                    "PyDict_GET_SIZE(kwargs) : 0) - %d;",
                    pa->declarations, nargs, pa->min_pos + pa->min_kw_only);
            if (unpack_call)
                strlist_push(a, &code, arena_printf(a, unpack_call, "fastargs",
                    "_PyTuple_CAST(args)->ob_item, nargs, kwargs, NULL",
                    pa->min_pos, pa->max_pos, pa->min_kw_only,
                    pa->varpos != NULL, "fastargs"));
            else
                strlist_push(a, &code, arena_printf(a,
                    "    fastargs = %s(_PyTuple_CAST(args)->ob_item, nargs, kwargs, "
                    "NULL, &_parser, %s, argsbuf);\n"
                    "    if (!fastargs) {{\n"
                    "        goto exit;\n"
                    "    }}", unpack, unpack_args));
        }
    }

    if (pa->requires_defining_class) {
        pa->flags = arena_printf(a, "METH_METHOD|%s", pa->flags);
        pa->parser_prototype = parser_prototype_def_class;
    }

    if (use_parser_code) {
        if (dep_kw.n)
            strlist_push(a, &code, gen_deprecate_keyword_use(
                c, pa->f, dep_kw.params, dep_kw.index, dep_kw.n, argname_fmt,
                pa->fastcall));

        for (size_t i = 0; i < pa->n; i++) {
            Parameter *p = pa->params[i];
            if (p->converter->cls->is_defining_class)
                clinic_fail(c, 0, "defining_class should be the first "
                                  "parameter (after self)");
            const char *argname = argname_of(c, argname_fmt, (int)i);
            const char *parsearg = converter_parse_arg_code(
                c, p->converter, argname,
                gen_param_displayname(c, p, (int)i + 1), pa->limited_capi,
                parse_indent(pa, p, i));
            if (!parsearg) {
                code = (StrList){0};
                use_parser_code = false;
                break;
            }

            if (add_label && ((int)i == pa->pos_only || (int)i == pa->max_pos)) {
                strlist_push(a, &code, arena_printf(a, "%s:", add_label));
                add_label = NULL;
            }
            if (!param_is_optional(p))
                strlist_push(a, &code, parsearg);
            else
                add_optional_parse(pa, &code, i, argname, parsearg,
                                   has_optional_kw, &add_label);
        }
    }

    if (use_parser_code) {
        if (add_label)
            strlist_push(a, &code, arena_printf(a, "%s:", add_label));
        if (pa->varpos)
            strlist_push(a, &code, parse_vararg(pa));
    } else {
        pa->parser = pa->limited_capi ? "PyArg_ParseTupleAndKeywords"
                     : pa->fastcall ? "_PyArg_ParseStackAndKeywords"
                                    : "_PyArg_ParseTupleAndKeywordsFast";
        for (size_t i = 0; i < pa->n; i++)
            converter_use_converter(c, pa->params[i]->converter);
        pa->declarations = declare_parser(pa, true);
        code = (StrList){0};
        if (pa->limited_capi) {
            /* positional-or-keyword arguments */
            pa->flags = "METH_VARARGS|METH_KEYWORDS";
            pa->parser_prototype = parser_prototype_keyword;
            strlist_push(a, &code,
                "    if (!PyArg_ParseTupleAndKeywords(args, kwargs, \"{format_units}:{name}\", _keywords,\n"
                "        {parse_arguments}))\n"
                "        goto exit;");
            pa->declarations =
                DIALECT_KEYWORD_TEXT(c->dialect, limited_keywords);
            if (dep_pos.n || dep_kw.n)
                pa->declarations = arena_printf(a,
                    "%s\nPy_ssize_t nargs = PyTuple_Size(args);",
                    pa->declarations);
        } else if (pa->fastcall) {
            gen_add_include(c, modsupport_h,
                            "_PyArg_ParseStackAndKeywords()", NULL);
            strlist_push(a, &code,
                "    if (!_PyArg_ParseStackAndKeywords(args, nargs, kwnames, "
                "&_parser{parse_arguments_comma}\n"
                "        {parse_arguments})) {{\n"
                "        goto exit;\n"
                "    }}");
        } else {
            gen_add_include(c, modsupport_h,
                            "_PyArg_ParseTupleAndKeywordsFast()", NULL);
            strlist_push(a, &code,
                "    if (!_PyArg_ParseTupleAndKeywordsFast(args, kwargs, "
                "&_parser,\n"
                "        {parse_arguments})) {{\n"
                "        goto exit;\n"
                "    }}");
            if (dep_pos.n || dep_kw.n)
                pa->declarations = arena_printf(a,
                    "%s\nPy_ssize_t nargs = PyTuple_GET_SIZE(args);",
                    pa->declarations);
        }
        if (dep_kw.n)
            strlist_push(a, &code, gen_deprecate_keyword_use(
                c, pa->f, dep_kw.params, dep_kw.index, dep_kw.n, NULL,
                pa->fastcall));
    }

    if (dep_pos.n) {
        /* before the parsing of the parameters */
        const char *dep = gen_deprecate_positional_use(
            c, pa->f, dep_pos.params, dep_pos.index, dep_pos.n);
        StrList with = {0};
        strlist_push(a, &with, dep);
        for (size_t i = 0; i < code.len; i++)
            strlist_push(a, &with, code.items[i]);
        code = with;
    }
    parser_body(pa, &code);
}

/* Copies the #includes the converters asked for while their code was
   written (3.13's copy_includes). */
static void copy_includes(ParseArgs *pa)
{
    for (size_t i = 0; i < pa->n; i++)
        gen_copy_includes(pa->c, pa->params[i]->converter);
    if (pa->varpos)
        gen_copy_includes(pa->c, pa->varpos->converter);
}

/* __new__ and __init__: the slot's own prototype, and the parsing code
   of the convention chosen above re-rendered under it. */
static void handle_new_or_init(ParseArgs *pa)
{
    Clinic *c = pa->c;
    Arena *a = c->arena;
    StrList fields = {0};

    pa->methoddef_define = "";
    if (pa->f->kind == FUNC_METHOD_NEW) {
        pa->parser_prototype = parser_prototype_keyword;
    } else {
        pa->return_value_declaration = "int return_value = -1;";
        pa->parser_prototype = parser_prototype_init;
    }

    bool parses_positional = strstr(pa->flags, "METH_NOARGS") == NULL;
    bool parses_keywords = strstr(pa->flags, "METH_KEYWORDS") != NULL;

    if (pa->requires_defining_class)
        clinic_fail(c, 0, "Slot methods cannot access their defining class.");

    if (!parses_keywords) {
        if (c->dialect->base_type_ptr)
            pa->declarations = "{base_type_ptr}";
        gen_add_include(c, modsupport_h, "_PyArg_NoKeywords()", NULL);
        if (!parses_positional) {
            gen_add_include(c, modsupport_h, "_PyArg_NoPositional()", NULL);
            strlist_push(a, &fields, no_positional_check);
            pa->parser = "_PyArg_NoPositional";
        }
        strlist_push(a, &fields, no_keywords_check);
    }
    for (size_t i = 0; i < pa->body_fields.len; i++)
        strlist_push(a, &fields, pa->body_fields.items[i]);
    parser_body(pa, &fields);
}

static void process_methoddef(ParseArgs *pa)
{
    Clinic *c = pa->c;
    Arena *a = c->arena;
    const char *flags = pa->flags;
    const char *methoddef_cast, *methoddef_cast_end = "";

    if (!strcmp(flags, "METH_NOARGS") || !strcmp(flags, "METH_O") ||
        !strcmp(flags, "METH_VARARGS")) {
        methoddef_cast = "(PyCFunction)";
    } else if (pa->f->kind == FUNC_GETTER) {
        methoddef_cast = "";   /* the getter's template has no cast */
    } else if (pa->limited_capi) {
        methoddef_cast = "(PyCFunction)(void(*)(void))";
    } else {
        methoddef_cast = "_PyCFunction_CAST(";
        methoddef_cast_end = ")";
    }
    const char *meth_flags = gen_methoddef_flags(c, pa->f);
    if (*meth_flags)
        flags = arena_printf(a, "%s|%s", flags, meth_flags);

    Rendering *r = &pa->f->rendering;
    /* a getter or setter has no METH_ flags: it is a PyGetSetDef's */
    r->convention = pa->f->kind == FUNC_GETTER   ? "getter"
                    : pa->f->kind == FUNC_SETTER ? "setter"
                                                 : pa->flags;
    r->parser = pa->parser;
    r->methoddef_flags = *pa->methoddef_define ? flags : NULL;
    r->docstring = *pa->docstring_definition ? gen_docstring_text(c, pa->f)
                                             : NULL;

    if (pa->methoddef_define == methoddef_define_template &&
        !strchr(flags, '{')) {
        /* the template's three fields filled in as it is put together
           (it names each once; flags and casts name none) */
        static const char head[] = "\n#define {methoddef_name}    \\\n"
                                   "    {{\"{name}\", ";
        static const char basename[] = "{c_basename}";
        static const char doc[] = ", {c_basename}__doc__}},\n";
        size_t cast = strlen(methoddef_cast), end = strlen(methoddef_cast_end);
        size_t nflags = strlen(flags);
        char *out = arena_alloc_uninit(a, sizeof head + cast + sizeof basename +
                                              end + 2 + nflags + sizeof doc);
        char *o = out;
#define PUT(s, n) (memcpy(o, (s), (n)), o += (n))
        PUT(head, sizeof head - 1);
        PUT(methoddef_cast, cast);
        PUT(basename, sizeof basename - 1);
        PUT(methoddef_cast_end, end);
        PUT(", ", 2);
        PUT(flags, nflags);
        PUT(doc, sizeof doc);     /* with its NUL */
#undef PUT
        pa->methoddef_define = out;
        pa->methoddef_wrapped = true;
        if (!strpbrk(flags, "{}") && !strpbrk(methoddef_cast, "{}") &&
            !strpbrk(methoddef_cast_end, "{}")) {
            pa->methoddef_parts.cast = methoddef_cast;
            pa->methoddef_parts.cast_end = methoddef_cast_end;
            pa->methoddef_parts.flags = flags;
        }
    } else if (strstr(pa->methoddef_define, "{methoddef_")) {
        pa->methoddef_define = text_replace(a, pa->methoddef_define,
                                           "{methoddef_flags}", flags);
        pa->methoddef_define = text_replace(a, pa->methoddef_define,
                                           "{methoddef_cast}", methoddef_cast);
        pa->methoddef_define = text_replace(a, pa->methoddef_define,
                                           "{methoddef_cast_end}",
                                           methoddef_cast_end);
    }

    /* The reference reads the preprocessor state when it renders, after
       the block's stop line; the DSL records it in f->cpp_condition just
       before calling us. */
    const char *conditional = pa->f->cpp_condition ? pa->f->cpp_condition
                            : c->cpp ? cpp_condition(c, c->cpp) : "";
    pa->cpp_if = pa->cpp_endif = pa->methoddef_ifndef = "";
    if (*conditional) {
        pa->cpp_if = arena_concat_of(a, "\n#if ", conditional, "\n");
        pa->cpp_endif = arena_concat_of(a, "\n#endif /* ", conditional, " */\n");
        if (*pa->methoddef_define &&
            !gen_ifndef_symbol_seen(c, pa->f->full_name)) {
            gen_ifndef_symbol_add(c, pa->f->full_name);
            pa->methoddef_ifndef = methoddef_ifndef_template;
        }
    }
}

/* s wrapped in newlines, as output_templates hands its templates on
   ("" stays "").  *fixed: which of the fixed templates that is
   (gen_output_templates_fixed), or -1. */
/* Which of fixed_templates s is, or -1.  Asked for each template of
   each function: the answer for each fixed one is kept, in a table
   by its address, so that the list is walked once per thread and
   template (an address there is a fixed template's, never another
   text's). */
#define FIXED_SEEN_SIZE 64
static _Thread_local struct {
    const char *plain;
    int index;
} fixed_seen[FIXED_SEEN_SIZE];

static int fixed_template_of(const char *s)
{
    size_t h = ((uintptr_t)s >> 3) % FIXED_SEEN_SIZE;
    if (fixed_seen[h].plain == s)
        return fixed_seen[h].index;
    for (size_t i = 0; i < sizeof fixed_templates / sizeof *fixed_templates;
         i++)
        if (s == fixed_templates[i].plain) {
            fixed_seen[h].plain = s;
            fixed_seen[h].index = (int)i;
            return (int)i;
        }
    return -1;
}

static const char *wrap_in_newlines(Clinic *c, const char *s, int *fixed)
{
    *fixed = -1;
    if (!*s)
        return "";
    int i = fixed_template_of(s);
    if (i >= 0) {
        *fixed = 2 * i;
        return fixed_templates[i].wrapped;
    }
    return arena_concat_of(c->arena, "\n", s, "\n");
}

/* A prototype: the declaration with a ';', wrapped in newlines. */
static const char *wrap_prototype(Clinic *c, const char *s, int *fixed)
{
    *fixed = -1;
    if (!*s)
        return "";
    int i = fixed_template_of(s);
    if (i >= 0 && fixed_templates[i].wrapped_prototype) {
        *fixed = 2 * i + 1;
        return fixed_templates[i].wrapped_prototype;
    }
    return arena_concat_of(c->arena, "\n", s, ";\n");
}

_Static_assert(2 * sizeof fixed_templates / sizeof *fixed_templates <=
                   GEN_FIXED_TEMPLATES_MAX,
               "GEN_FIXED_TEMPLATES_MAX counts the fixed templates");

/* The templates of the parser's and the impl's prototypes and of the
   parser's definition, finished and wrapped in newlines. */
static void finalize(ParseArgs *pa, const char **parser_prototype,
                     const char **impl_prototype,
                     const char **parser_definition,
                     int fixed[ROUTER_NFIELDS])
{
    Clinic *c = pa->c;
    Arena *a = c->arena;

    *parser_prototype = wrap_prototype(c, pa->parser_prototype,
                                       &fixed[FIELD_PARSER_PROTOTYPE]);
    if (!pa->impl_prototype)
        pa->impl_prototype = pa->impl_definition;
    *impl_prototype = wrap_prototype(c, pa->impl_prototype,
                                     &fixed[FIELD_IMPL_PROTOTYPE]);
    fixed[FIELD_PARSER_DEFINITION] = -1;
    const char *warning = gen_compiler_deprecated_warning(c, pa->f, pa->params,
                                                          pa->n);
    if (pa->has_body) {
        *parser_definition = parser_definition_text(pa, warning);
        return;
    }
    const char *def = pa->parser_definition;
    if (strstr(def, "{return_value_declaration}"))
        def = text_replace(a, def, "{return_value_declaration}",
                           pa->return_value_declaration);
    if (warning) {
        *parser_definition = arena_concat_of(a, "\n", warning, "\n\n", def,
                                             "\n");
        return;
    }
    *parser_definition = wrap_in_newlines(c, def,
                                          &fixed[FIELD_PARSER_DEFINITION]);
}

/* ---- output_templates ----------------------------------------------------- */

void gen_output_templates(Clinic *c, Function *f,
                          const char *templates[ROUTER_NFIELDS])
{
    int fixed[ROUTER_NFIELDS];
    GenTemplateParts methoddef;
    gen_output_templates_fixed(c, f, templates, fixed, &methoddef);
}

void gen_output_templates_fixed(Clinic *c, Function *f,
                                const char *templates[ROUTER_NFIELDS],
                                int fixed[ROUTER_NFIELDS],
                                GenTemplateParts *parts)
{
    ParseArgs pa;

    parse_args_init(&pa, c, f);
    select_prototypes(&pa);
    init_limited_capi(&pa);

    pa.flags = "";
    pa.declarations = "";
    pa.parser_prototype = "";
    pa.parser_definition = "";
    pa.impl_prototype = NULL;
    pa.impl_definition = impl_definition_template;

    if (pa.n == 0 && !pa.varpos && !pa.var_keyword)
        parse_no_args(&pa);
    else if (use_meth_o(&pa))   /* (3.15 asks it whatever **kwds says) */
        parse_one_arg(&pa);
    else if (has_option_groups(&pa))
        parse_option_groups(&pa);
    else if (pa.var_keyword)
        parse_var_keyword(&pa);
    else if (!pa.requires_defining_class &&
             pa.pos_only == (int)pa.n - pa.pseudo_args)
        parse_pos_only(&pa);
    else
        parse_general(&pa);

    copy_includes(&pa);
    if (pa.new_or_init)
        handle_new_or_init(&pa);
    process_methoddef(&pa);
    finalize(&pa, &templates[FIELD_PARSER_PROTOTYPE],
             &templates[FIELD_IMPL_PROTOTYPE],
             &templates[FIELD_PARSER_DEFINITION], fixed);

    templates[FIELD_DOCSTRING_PROTOTYPE] =
        wrap_in_newlines(c, pa.docstring_prototype,
                         &fixed[FIELD_DOCSTRING_PROTOTYPE]);
    templates[FIELD_DOCSTRING_DEFINITION] =
        wrap_in_newlines(c, pa.docstring_definition,
                         &fixed[FIELD_DOCSTRING_DEFINITION]);
    if (pa.methoddef_wrapped) {
        templates[FIELD_METHODDEF_DEFINE] = pa.methoddef_define;
        fixed[FIELD_METHODDEF_DEFINE] = -1;
        *parts = pa.methoddef_parts;
        if (parts->flags)
            fixed[FIELD_METHODDEF_DEFINE] = GEN_FIXED_METHODDEF;
    } else {
        templates[FIELD_METHODDEF_DEFINE] =
            wrap_in_newlines(c, pa.methoddef_define,
                             &fixed[FIELD_METHODDEF_DEFINE]);
        *parts = (GenTemplateParts){0};
    }
    parts->parser_tail_at = pa.parser_tail_at;
    templates[FIELD_IMPL_DEFINITION] =
        wrap_in_newlines(c, pa.impl_definition, &fixed[FIELD_IMPL_DEFINITION]);
    templates[FIELD_CPP_IF] = pa.cpp_if;
    fixed[FIELD_CPP_IF] = -1;
    templates[FIELD_CPP_ENDIF] = pa.cpp_endif;
    fixed[FIELD_CPP_ENDIF] = -1;
    templates[FIELD_METHODDEF_IFNDEF] =
        wrap_in_newlines(c, pa.methoddef_ifndef,
                         &fixed[FIELD_METHODDEF_IFNDEF]);
}
