/*
 * gen.c — clinic.py's CLanguage.render_function: render a Function's
 * parameters and return converter into template fields, fill the
 * templates of its calling convention (gen_templates.c) and hand each of
 * the ten output fields to the router, in the router's order.
 */
#include <string.h>
#ifdef CHECK_RENDER_TEMPLATE
#include <stdlib.h>
#endif

#include "converters.h"
#include "gen.h"
#include "pyexpr.h"
#include "gen_internal.h"
#include "message.h"
#include "output.h"
#include "route.h"
#include "text.h"

/* ---- small pieces of the model ------------------------------------------- */

bool gen_default_return_converter(const Function *f)
{
    return !f->return_converter || !f->return_converter->type ||
           strcmp(f->return_converter->type, "PyObject *") == 0;
}

const char *gen_methoddef_flags(Clinic *c, const Function *f)
{
    const char *flags = "";

    if (f->kind == FUNC_METHOD_INIT || f->kind == FUNC_METHOD_NEW)
        return "";
    if (f->kind == FUNC_CLASS_METHOD)
        flags = "METH_CLASS";
    else if (f->kind == FUNC_STATIC_METHOD)
        flags = "METH_STATIC";
    if (f->coexist)
        flags = *flags ? arena_printf(c->arena, "%s|METH_COEXIST", flags)
                       : "METH_COEXIST";
    return flags;
}

bool gen_is_object_converter(const Converter *conv)
{
    const ConverterClass *cls;
    for (cls = conv->cls; cls; cls = cls->base)
        if (cls->class_name && strcmp(cls->class_name, "object_converter") == 0)
            return true;
    return false;
}

const char *gen_param_displayname(Clinic *c, const Parameter *p, int i)
{
    const char *name;
    if (i == 0)
        name = "argument";
    else if (p->kind != PARAM_POSITIONAL_ONLY)
        name = arena_printf(c->arena, "argument %s",
                            py_repr_str(c->arena, p->name, strlen(p->name)));
    else
        name = arena_printf(c->arena, "argument %d", i);
    return c->dialect->quoted_displayname
               ? arena_printf(c->arena, "\"%s\"", name) : name;
}

const char *gen_displayname(const Function *f)
{
    return function_kind_new_or_init(f->kind) && f->cls ? f->cls->name
                                                        : f->name;
}

const char *gen_c_id(Clinic *c, const char *name)
{
    unsigned char ch = (unsigned char)name[0];
    if (ch && !name[1]) {
        bool alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                     (ch >= '0' && ch <= '9');
        return alnum ? arena_printf(c->arena, "_Py_LATIN1_CHR('%c')", ch)
                     : arena_printf(c->arena, "_Py_LATIN1_CHR(%d)", ch);
    }
    return arena_printf(c->arena, "&_Py_ID(%s)", name);
}

const char *gen_docstring_for_c_string(Clinic *c, const Function *f)
{
    Arena *a = c->arena;
    const char *doc = f->docstring ? f->docstring : "";
    const char *line_start = doc;
    StrBuf sb = STRBUF_INIT;
    size_t last_piece = 0, last_start = 0, last_len = 0;
    size_t doclen = strlen(doc);

    if (!c->dialect->docstring_ascii_check && !text_is_ascii(doc, doclen))
        clinic_warnm(c, 0, MSG_NON_ASCII_DOCSTRING, NULL);

    /* One '"line\n"' piece per line; the last one loses its "\n" unless
       the docstring ends with the signature marker, which wants the blank
       line __text_signature__ expects. */
    sb_grow(&sb, doclen + doclen / 8 + 16);
    for (;;) {
        size_t rest = doclen - (size_t)(line_start - doc);
        const char *nl = memchr(line_start, '\n', rest);
        size_t len = nl ? (size_t)(nl - line_start) : rest;
        /* '"', the line quoted (at most twice as long), '\n"' and a
           newline, written in place */
        sb_grow(&sb, 2 * len + 5);
        char *o = sb.buf + sb.len;
        last_piece = sb.len;
        *o++ = '"';
        last_start = sb.len + 1;
        o = text_put_quoted_for_c_string(o, line_start, len);
        last_len = (size_t)(o - sb.buf) - last_start;
        memcpy(o, "\\n\"\n", 4);
        sb.len = (size_t)(o + 4 - sb.buf);
        sb.buf[sb.len] = '\0';
        if (!nl)
            break;
        line_start = nl + 1;
    }
    if (last_len == 2 && memcmp(sb.buf + last_start, "--", 2) == 0) {
        sb_adds(&sb, "\"\\n\"");
    } else {
        sb_setlen(&sb, last_piece + 1 + last_len);
        sb_addc(&sb, '"');
    }
    return sb_take(&sb, a);
}

const char *gen_docstring_text(Clinic *c, const Function *f)
{
    const char *doc = f->docstring ? f->docstring : "";
    const char *last_line = strrchr(doc, '\n');
    last_line = last_line ? last_line + 1 : doc;
    if (strcmp(last_line, "--") == 0)
        return arena_printf(c->arena, "%s\n\n", doc);
    return doc;
}

/* ---- Clinic.ifndef_symbols --------------------------------------------------- */

bool gen_ifndef_symbol_seen(const Clinic *c, const char *full_name)
{
    size_t i;
    for (i = 0; i < c->nifndef_symbols; i++)
        if (strcmp(c->ifndef_symbols[i], full_name) == 0)
            return true;
    return false;
}

void gen_ifndef_symbol_add(Clinic *c, const char *full_name)
{
    if (c->nifndef_symbols == c->capifndef_symbols) {
        size_t cap = c->capifndef_symbols ? c->capifndef_symbols * 2 : 8;
        const char **items = arena_array_of(c->file_arena, const char *,
                                            cap);
        if (c->nifndef_symbols)
            memcpy(items, c->ifndef_symbols,
                   c->nifndef_symbols * sizeof *items);
        c->ifndef_symbols = items;
        c->capifndef_symbols = cap;
    }
    c->ifndef_symbols[c->nifndef_symbols++] =
        arena_strdup(c->file_arena, full_name);
}

/* ---- render_function ------------------------------------------------------------ */

/* Function.render_parameters: copies of the parameters whose converters
   have had pre_render() (the self converter learns its type there). */
static Parameter **render_parameters(Clinic *c, Function *f)
{
    Parameter **copies = arena_array_of(c->arena, Parameter *,
                                        f->nparameters + 1);
    size_t i;

    for (i = 0; i < f->nparameters; i++) {
        Parameter *p = arena_new_of(c->arena, Parameter);
        *p = *f->parameters[i];
        p->converter = converter_copy(c, f->parameters[i]->converter);
        p->converter->function = p->function;
        converter_pre_render(c, p->converter);
        copies[i] = p;
    }
    return copies;
}

static const char *c_basename_of(Clinic *c, const Function *f)
{
    StrBuf sb = STRBUF_INIT;
    const char *full = f->full_name, *end, *last_dot;

    if (f->c_basename && *f->c_basename)
        return f->c_basename;
    end = full + strlen(full);
    last_dot = strrchr(full, '.');
    if (last_dot && strcmp(last_dot + 1, "__new__") == 0)
        end = last_dot;
    else if (!last_dot && strcmp(full, "__new__") == 0)
        end = full;                  /* fields.pop() leaves nothing */
    for (; full < end; full++)
        sb_addc(&sb, *full == '.' ? '_' : *full);
    return sb_take(&sb, c->arena);
}

static const char *join_each(Arena *a, const StrList *l, const char *before,
                             const char *after, const char *sep)
{
    /* written once, at its size */
    size_t nb = strlen(before), na = strlen(after), ns = strlen(sep);
    size_t total = l->len ? (l->len - 1) * ns : 0;
    for (size_t i = 0; i < l->len; i++)
        total += nb + strlen(l->items[i]) + na;
    char *out = arena_alloc_uninit(a, total + 1), *o = out;
    for (size_t i = 0; i < l->len; i++) {
        if (i) {
            memcpy(o, sep, ns);
            o += ns;
        }
        size_t n = strlen(l->items[i]);
        memcpy(o, before, nb);
        memcpy(o + nb, l->items[i], n);
        memcpy(o + nb + n, after, na);
        o += nb + n + na;
    }
    *o = '\0';
    return out;
}

/* The fields render_function puts in with linear_format, which are the
   same for every template of the function: the option groups' switch,
   then the blocks of code. */
typedef struct BlockFields {
    StrMap option_groups;      /* empty without option groups */
    StrMap blocks;
    TextBlockFields block_fields;   /* blocks, for text_render_template */
} BlockFields;

/* A block field goes into template_dict and into the map of the block
   fields (its last value there is the one template_dict ends with). */
static void set_block_field(Arena *a, StrMap *d, BlockFields *bf,
                            const char *name, const char *value)
{
    strmap_set(a, d, name, value);
    strmap_set(a, &bf->blocks, name, value);
}

/* text_format_escape(text_rstrip(s)), without the stripped copy. */
static const char *escaped_rstripped(Arena *a, const char *s)
{
    return text_format_escape_n(a, s, text_rstrip_len(s));
}

/* Fills template_dict as the reference does, from the rendered data. */
static void fill_template_dict(Clinic *c, Function *f, Parameter **params,
                               RenderData *data, StrMap *d, BlockFields *bf)
{
    Arena *a = c->arena;
    const char *c_basename;
    size_t i;

    strmap_set(a, d, "full_name", f->full_name);
    strmap_set(a, d, "name", gen_displayname(f));
    c_basename = c_basename_of(c, f);
    char *upper = arena_strdup(a, c_basename);
    for (char *p = upper; *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    if (f->kind == FUNC_GETTER || f->kind == FUNC_SETTER) {
        strmap_set(a, d, "getset_name", upper);
        strmap_set(a, d, "getset_basename", c_basename);
        strmap_set(a, d, "c_basename",
                   arena_printf(a, "%s%s", c_basename,
                                f->kind == FUNC_GETTER ? "_get" : "_set"));
        if (f->kind == FUNC_SETTER) {
            /* the setter's value, implicitly */
            strlist_push(a, &data->impl_parameters, "PyObject *value");
            strlist_push(a, &data->impl_arguments, "value");
        }
    } else {
        strmap_set(a, d, "methoddef_name",
                   arena_printf(a, "%s_METHODDEF", upper));
        strmap_set(a, d, "c_basename", c_basename);
    }
    strmap_set(a, d, "docstring", gen_docstring_for_c_string(c, f));

    strmap_set(a, d, "self_name", "");
    strmap_set(a, d, "self_type", "");
    strmap_set(a, d, "self_type_check", "");
    StrList targets = {0};
    for (i = 0; i < f->ntarget_critical_section; i++)
        strlist_push(a, &targets, f->target_critical_section[i]);
    strmap_set(a, d, "target_critical_section",
               strlist_join(a, &targets, ", "));
    for (i = 0; i < f->nparameters; i++)
        converter_set_template_dict(c, params[i]->converter, d);

    if (f->return_converter)
        return_converter_render(c, f->return_converter, f, data);
    strmap_set(a, d, "impl_return_type",
               f->return_converter && f->return_converter->type
                   ? f->return_converter->type : "PyObject *");

    set_block_field(a, d, bf, "declarations",
               text_format_escape(a, strlist_join(a, &data->declarations, "\n")));
    set_block_field(a, d, bf, "initializers",
                    strlist_join(a, &data->initializers, "\n\n"));
    set_block_field(a, d, bf, "modifications",
               strlist_join(a, &data->modifications, "\n\n"));
    strmap_set(a, d, "keywords_c",
               join_each(a, &data->keywords, "\"", "\",", " "));
    StrList keywords_py = {0};
    for (i = 0; i < data->keywords.len; i++)
        if (*data->keywords.items[i])
            strlist_push(a, &keywords_py,
                         gen_c_id(c, data->keywords.items[i]));
    strmap_set(a, d, "keywords_py", join_each(a, &keywords_py, "", ",", " "));
    strmap_set(a, d, "format_units", strlist_join(a, &data->format_units, ""));
    strmap_set(a, d, "parse_arguments",
               strlist_join(a, &data->parse_arguments, ", "));
    strmap_set(a, d, "parse_arguments_comma",
               data->parse_arguments.len ? "," : "");
    strmap_set(a, d, "impl_parameters",
               strlist_join(a, &data->impl_parameters, ", "));
    strmap_set(a, d, "impl_arguments",
               strlist_join(a, &data->impl_arguments, ", "));
    set_block_field(a, d, bf, "return_conversion",
               escaped_rstripped(a, strlist_join(a, &data->return_conversion,
                                                 "")));
    set_block_field(a, d, bf, "post_parsing",
               escaped_rstripped(a, strlist_join(a, &data->post_parsing, "")));
    set_block_field(a, d, bf, "cleanup",
               text_format_escape(a, strlist_join(a, &data->cleanup, "")));
    strmap_set(a, d, "return_value", data->return_value);
    set_block_field(a, d, bf, "lock", strlist_join(a, &data->lock, "\n"));
    set_block_field(a, d, bf, "unlock", strlist_join(a, &data->unlock, "\n"));
}


/* The option groups' field, and the index of the block fields, once
   template_dict is complete. */
static void block_fields_finish(Clinic *c, const StrMap *d,
                                bool option_groups, BlockFields *bf)
{
    if (option_groups)
        strmap_set(c->arena, &bf->option_groups, "option_group_parsing",
                   strmap_get(d, "option_group_parsing"));
    bf->block_fields = text_block_fields(&bf->blocks);
}

/* render_function's passes over a template with braces after the option
   groups', one by one. */
static const char *render_one_pass_at_a_time(Clinic *c, const char *template,
                                             const StrMap *d,
                                             const BlockFields *bf)
{
    Arena *a = c->arena;
    const char *missing = NULL;
    const char *s;

    template = text_linear_format_if_any(a, template, &bf->blocks);

    /* Only generate the "exit:" label if something jumps to it. */
    if (strstr(template, "{exit_label}")) {
        StrMap exit_map = {0};
        strmap_set(a, &exit_map, "exit_label",
                   strstr(template, "goto exit;") ? "exit:" : "");
        template = text_linear_format(a, template, &exit_map);
    }

    if (!strpbrk(template, "{}"))
        return template;
    s = text_format_map(a, template, d, &missing);
    if (!s)
        clinic_fail(c, 0, "KeyError: '%s'", missing);
    return s;
}

/* The passes render_function makes over one field's template, up to the
   line prefix and suffix. */
static const char *render_field_text(Clinic *c, RouterField field,
                                     const char *template, const StrMap *d,
                                     const BlockFields *bf)
{
    Arena *a = c->arena;
    const char *s;

    if (bf->option_groups.len)
        template = text_linear_format_if_any(a, template, &bf->option_groups);
    /* Most templates are empty or hold no field at all (which
       text_render_template gives back as they are); the others have
       their passes made in one where that can be done. */
    if (!*template)
        s = template;
    else if (!(s = text_render_template(a, template, &bf->block_fields, d)))
        s = render_one_pass_at_a_time(c, template, d, bf);
#ifdef CHECK_RENDER_TEMPLATE
    /* a cross-check build (CFLAGS=-DCHECK_RENDER_TEMPLATE): the passes
       in one must give what they give one by one */
    if (strpbrk(template, "{}") &&
        strcmp(s, render_one_pass_at_a_time(c, template, d, bf)) != 0)
        abort();
#endif

    /* Reflow long impl declarations. */
    if (field == FIELD_IMPL_PROTOTYPE || field == FIELD_IMPL_DEFINITION)
        s = text_wrap_declarations(a, s, 78);
    return s;
}

static const char *with_line_prefix_and_suffix(Clinic *c, const char *s)
{
    const char *prefix = router_line_prefix(c);
    const char *suffix = router_line_suffix(c);
    if (prefix && *prefix)
        s = text_indent_all_lines(c->arena, s, prefix);
    if (suffix && *suffix)
        s = text_suffix_all_lines(c->arena, s, suffix);
    return s;
}

/* The impl's prototype is, nearly always, its definition's first line(s)
   with a ';': "\nX;\n" against "\nX\n".  Then, when X renders to a text
   whose last line ends with ')', wrap_declarations puts the ';' right
   after it and changes nothing else (it splits a line at its first
   parentheses and strips only trailing blanks), so the prototype is the
   rendered definition with a ';' before its final newline. */
static bool prototype_is_definition(const char *proto, const char *def)
{
    size_t n = strlen(def);
    return n >= 2 && strlen(proto) == n + 1 && def[n - 1] == '\n' &&
           memcmp(proto, def, n - 1) == 0 && strcmp(proto + n - 1, ";\n") == 0;
}

static const char *prototype_from_definition(Clinic *c,
                                             const char *rendered_def)
{
    size_t r = strlen(rendered_def);
    if (r < 2 || strcmp(rendered_def + r - 2, ")\n") != 0)
        return NULL;
    char *s = arena_alloc_uninit(c->arena, r + 2);
    memcpy(s, rendered_def, r - 1);
    memcpy(s + r - 1, ";\n", 3);
    return s;
}

const char *gen_render_function(Clinic *c, Function *f)
{
    Arena *a = c->arena;
    RenderData data;
    const char *templates[ROUTER_NFIELDS];
    StrMap d = {0};
    Parameter **params;
    size_t nselfless, i;
    int last_group = 0;
    size_t first_optional;
    bool positional, has_option_groups = false;
    int field;

    if (!f)
        return "";
    if (f->nparameters == 0 || !f->parameters[0]->converter->cls->is_self)
        clinic_fail(c, 0, "No self parameter in '%s'!", f->full_name);

    memset(&data, 0, sizeof data);
    data.return_value = "return_value";

    params = render_parameters(c, f);
    gen_output_templates(c, f, templates);

    if (f->critical_section) {
        const char *lock, *unlock;
        switch (f->ntarget_critical_section) {
        case 0:
            lock = "Py_BEGIN_CRITICAL_SECTION({self_name});";
            unlock = "Py_END_CRITICAL_SECTION();";
            break;
        case 1:
            lock = "Py_BEGIN_CRITICAL_SECTION({target_critical_section});";
            unlock = "Py_END_CRITICAL_SECTION();";
            break;
        default:
            lock = "Py_BEGIN_CRITICAL_SECTION2({target_critical_section});";
            unlock = "Py_END_CRITICAL_SECTION2();";
            break;
        }
        strlist_push(a, &data.lock, lock);
        strlist_push(a, &data.unlock, unlock);
    }

    nselfless = f->nparameters - 1;
    first_optional = nselfless;
    positional = nselfless &&
                 params[f->nparameters - 1]->kind == PARAM_POSITIONAL_ONLY;

    /* i counts from -1 so that first_optional ignores self. */
    for (i = 0; i < f->nparameters; i++) {
        Parameter *p = params[i];
        Converter *conv = p->converter;

        if (i != 0 && p->default_value.kind != PY_UNSPECIFIED &&
            i - 1 < first_optional)
            first_optional = i - 1;

        if (p->kind == PARAM_VAR_POSITIONAL)
            strlist_push(a, &data.cleanup,
                         arena_printf(a, "Py_XDECREF(%s);",
                                      converter_parser_name(c, conv)));

        if (last_group != p->group) {
            last_group = p->group;
            if (p->group) {
                const char *group_name = gen_group_to_variable_name(c, p->group);
                strlist_push(a, &data.impl_arguments, group_name);
                strlist_push(a, &data.declarations,
                             arena_printf(a, "int %s = 0;", group_name));
                strlist_push(a, &data.impl_parameters,
                             arena_printf(a, "int %s", group_name));
                has_option_groups = true;
            }
        }
        converter_render(c, conv, p, &data);
    }

    if (has_option_groups && !positional)
        clinic_failm(c, 0, MSG_GROUPS_NOT_POSITIONAL, NULL);

    /* The reference's HACK: a METH_O parser taking the impl's parameters
       must not also declare the one parameter as a local. */
    if (strstr(templates[FIELD_METHODDEF_DEFINE], "METH_O") &&
        strstr(templates[FIELD_PARSER_PROTOTYPE], "{impl_parameters}") &&
        data.declarations.len) {
        memmove(data.declarations.items, data.declarations.items + 1,
                (data.declarations.len - 1) * sizeof *data.declarations.items);
        data.declarations.len--;
    }

    BlockFields bf;
    memset(&bf, 0, sizeof bf);
    strmap_reserve(a, &d, 64);   /* it has some 40 fields */
    fill_template_dict(c, f, params, &data, &d, &bf);
    f->rendering.done = true;
    f->rendering.parameters = params;
    f->rendering.c_basename = strmap_get(&d, "c_basename");
    f->rendering.impl_return_type = strmap_get(&d, "impl_return_type");
    strmap_set(a, &d, "unpack_min", arena_printf(a, "%zu", first_optional));
    strmap_set(a, &d, "unpack_max", arena_printf(a, "%zu", nselfless));
    if (has_option_groups)
        strmap_set(a, &d, "option_group_parsing",
                   gen_option_group_parsing(c, f));

    block_fields_finish(c, &d, has_option_groups, &bf);
    const char *def_template = templates[FIELD_IMPL_DEFINITION];
    const char *def_text = NULL;
    for (field = 0; field < ROUTER_NFIELDS; field++) {
        const char *template = templates[field];
        const char *text = NULL;
        if (field == FIELD_IMPL_PROTOTYPE &&
            prototype_is_definition(template, def_template)) {
            /* the same template but for the ';': the same errors, if any */
            def_text = render_field_text(c, FIELD_IMPL_DEFINITION,
                                         def_template, &d, &bf);
            text = prototype_from_definition(c, def_text);
        } else if (field == FIELD_IMPL_DEFINITION && def_text &&
                   template == def_template) {
            text = def_text;
        }
        if (!text)
            text = render_field_text(c, (RouterField)field, template, &d,
                                     &bf);
        router_append_field(c, field, with_line_prefix_and_suffix(c, text));
    }
    return router_dump_block(c);
}
