/*
 * query_json.c — `clinic --json`: one file's object (its blocks, modules,
 * classes, functions with their parameters, and the converters its
 * Python blocks declare), and the run's "stats".  The members and their
 * meaning are those of schema/clinic-query.schema.json; keep the two
 * together.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/converters.h"
#include "parse/dsl.h"
#include "python/pyexpr.h"
#include "drive/query_int.h"

static void key_string(JsonWriter *w, const char *key, const char *value)
{
    json_key(w, key);
    json_string(w, value);
}

static void key_int(JsonWriter *w, const char *key, long long value)
{
    json_key(w, key);
    json_int(w, value);
}

static void key_bool(JsonWriter *w, const char *key, bool value)
{
    json_key(w, key);
    json_bool(w, value);
}

/* NULL and "" alike: not given. */
static void key_text_or_null(JsonWriter *w, const char *key,
                             const char *value)
{
    key_string(w, key, value && *value ? value : NULL);
}

/* A class of clinic's namespace, or a set of them, as the declaration
   writes it ("str", "{str, NoneType}"; a set in a fixed order), where
   repr() would print "<class 'str'>". */
static const char *type_expression(Clinic *c, const PyValue *v)
{
    StrBuf sb = STRBUF_INIT;
    if (v->kind == PY_SET)
        sb_addc(&sb, '{');
    for (unsigned bit = 1; bit && bit <= v->types; bit <<= 1) {
        if (!(v->types & bit))
            continue;
        if (sb.len > 1)
            sb_adds(&sb, ", ");
        sb_adds(&sb, py_type_name(bit));
    }
    if (v->kind == PY_SET)
        sb_addc(&sb, '}');
    return sb_take(&sb, c->arena);
}

/* A Python value given to a converter: JSON's own form for None, bools,
   ints, finite floats and str; {"python": EXPRESSION} for the rest
   (classes and sets of them, bytes, names clinic only knows at run
   time, ...). */
static void py_value(Clinic *c, JsonWriter *w, const PyValue *v)
{
    switch (v->kind) {
    case PY_NONE:
        json_null(w);
        return;
    case PY_BOOL:
        json_bool(w, v->b);
        return;
    case PY_INT:
        json_number(w, arena_strndup(c->arena, v->s, v->len));
        return;
    case PY_FLOAT:
        if (isfinite(v->f)) {
            json_number(w, py_repr(c->arena, v));
            return;
        }
        break;
    case PY_STR:
        json_string_n(w, v->s, v->len);
        return;
    default:
        break;
    }
    json_begin_object(w);
    key_string(w, "python", v->kind == PY_TYPE || v->kind == PY_SET
                                ? type_expression(c, v)
                                : py_repr(c->arena, v));
    json_end_object(w);
}

/* ---- parameters ---------------------------------------------------------- */

/* "3.14", or null for none. */
static void key_version(Clinic *c, JsonWriter *w, const char *key,
                        PyVersion v)
{
    json_key(w, key);
    if (v.major)
        json_string(w, arena_printf(c->arena, "%d.%d", v.major, v.minor));
    else
        json_null(w);
}

static void converter_call(Clinic *c, JsonWriter *w, const Parameter *p)
{
    const ConverterCall *call = &p->annotation;
    json_key(w, "converter");
    json_begin_object(w);
    key_string(w, "name", p->converter->cls->name);
    key_string(w, "legacy", call->legacy ? call->name : NULL);
    json_key(w, "args");
    json_begin_object(w);
    for (size_t i = 0; i < call->nargs; i++) {
        json_key(w, call->args[i].name);
        py_value(c, w, &call->args[i].value);
    }
    json_end_object(w);
    json_end_object(w);
}

/* A bitwise unsigned converter of a dialect that deprecates its silent
   wrapping of values out of range (3.15). */
static bool overflow_deprecated(const Clinic *c, const Converter *conv)
{
    const char *unit = conv->format_unit;
    return c->dialect->bitwise_overflow_deprecated && unit && unit[0] &&
           !unit[1] && strchr("BHIkK", unit[0]);
}

static void parameter(Clinic *c, JsonWriter *w, const Parameter *p)
{
    const Converter *conv = p->converter;
    json_begin_object(w);
    key_string(w, "name", p->name);
    key_string(w, "c_name", conv->name);
    key_string(w, "kind", query_parameter_kind(p->kind));
    key_string(w, "special", conv->cls->is_self ? "self"
                             : conv->cls->is_defining_class ? "defining_class"
                                                           : NULL);
    converter_call(c, w, p);
    key_string(w, "c_type", conv->type);
    key_text_or_null(w, "format_unit", conv->format_unit);
    json_key(w, "default");
    if (!param_kind_variable_length(p->kind) && converter_is_optional(conv)) {
        json_begin_object(w);
        key_string(w, "python", conv->py_default && *conv->py_default
                                    ? conv->py_default
                                    : converter_default_repr(c, conv));
        key_text_or_null(w, "c", conv->c_default);
        json_end_object(w);
    } else {
        json_null(w);
    }
    key_int(w, "group", p->group);
    key_bool(w, "unused", conv->unused);
    key_version(c, w, "deprecated_positional", p->deprecated_positional);
    key_version(c, w, "deprecated_keyword", p->deprecated_keyword);
    key_bool(w, "overflow_deprecated", overflow_deprecated(c, conv));
    key_string(w, "docstring", p->docstring);
    json_end_object(w);
}

/* ---- functions ------------------------------------------------------------- */

static void function(Clinic *c, JsonWriter *w, const Function *f)
{
    const Rendering *r = &f->rendering;
    json_begin_object(w);
    key_string(w, "name", f->name);
    key_string(w, "full_name", f->full_name);
    key_string(w, "module", query_module_name(f->module));
    key_string(w, "class", f->cls ? query_class_full_name(c, f->cls) : NULL);
    key_string(w, "kind", query_function_kind(f));
    key_string(w, "c_basename", r->c_basename);
    key_int(w, "line", f->block_line);
    key_int(w, "declaration_line", f->line);
    key_text_or_null(w, "cpp_condition", f->cpp_condition);
    key_string(w, "signature", f->signature);
    key_bool(w, "text_signature", !f->docstring_only);
    key_string(w, "docstring", r->docstring);
    json_key(w, "return_converter");
    json_begin_object(w);
    key_string(w, "name", f->return_converter->cls->name);
    key_string(w, "c_type", r->impl_return_type);
    json_end_object(w);
    key_string(w, "methoddef_flags", r->methoddef_flags);
    key_string(w, "calling_convention", r->convention);
    key_string(w, "parser", r->parser);
    key_bool(w, "coexist", f->coexist);
    key_bool(w, "deleter", f->deleter);
    json_key(w, "parameters");
    json_begin_array(w);
    Parameter *const *ps = query_parameters(f);
    for (size_t i = 0; i < f->nparameters; i++)
        parameter(c, w, ps[i]);
    json_end_array(w);
    json_end_object(w);
}

/* ---- the namespace ---------------------------------------------------------- */

static void modules(JsonWriter *w, const Namespace *ns)
{
    for (size_t i = 0; i < ns->nmodules; i++) {
        const Module *m = ns->modules[i]->module;
        json_begin_object(w);
        key_string(w, "name", m->name);
        key_string(w, "parent", m->parent ? query_module_name(m->parent)
                                          : NULL);
        json_end_object(w);
        modules(w, ns->modules[i]);
    }
}

/* Classes in the order --list shows them: those of a node, each followed
   by its inner classes, then those of its modules. */
static void classes(Clinic *c, JsonWriter *w, const Namespace *ns)
{
    for (size_t i = 0; i < ns->nclasses; i++) {
        const Class *k = ns->classes[i]->cls;
        json_begin_object(w);
        key_string(w, "name", k->name);
        key_string(w, "full_name", query_class_full_name(c, k));
        key_string(w, "module", query_module_name(k->module));
        key_string(w, "class", k->cls ? query_class_full_name(c, k->cls)
                                       : NULL);
        key_string(w, "typedef", k->typedef_);
        key_string(w, "type_object", k->type_object);
        json_end_object(w);
        classes(c, w, ns->classes[i]);
    }
    for (size_t i = 0; i < ns->nmodules; i++)
        classes(c, w, ns->modules[i]);
}

/* ---- converters Python blocks declare ----------------------------------------- */

/* The members a declared converter class and return converter class
   share: the name declarations use, the Python class name, its base. */
static void begin_declared_class(JsonWriter *w, const char *name,
                                 const char *class_name, const char *base)
{
    json_begin_object(w);
    key_string(w, "name", name);
    key_string(w, "class_name", class_name);
    key_string(w, "base", base);
}

static void custom_converters(JsonWriter *w, Clinic *c)
{
    const ConverterClass *const *cs;
    size_t n = converters_declared(c, &cs);
    json_key(w, "converters");
    json_begin_array(w);
    for (size_t i = 0; i < n; i++) {
        begin_declared_class(w, cs[i]->name, cs[i]->class_name,
                             cs[i]->base ? cs[i]->base->class_name : NULL);
        key_text_or_null(w, "type", cs[i]->type);
        key_text_or_null(w, "format_unit", cs[i]->format_unit);
        key_text_or_null(w, "converter", cs[i]->converter);
        key_text_or_null(w, "c_default", cs[i]->c_default);
        key_text_or_null(w, "c_ignored_default", cs[i]->c_ignored_default);
        json_end_object(w);
    }
    json_end_array(w);

    const ReturnConverterClass *const *rs;
    n = return_converters_declared(c, &rs);
    json_key(w, "return_converters");
    json_begin_array(w);
    for (size_t i = 0; i < n; i++) {
        begin_declared_class(w, rs[i]->name, rs[i]->class_name,
                             rs[i]->base ? rs[i]->base->class_name : NULL);
        key_text_or_null(w, "type", rs[i]->type);
        key_text_or_null(w, "cast", rs[i]->cast);
        key_text_or_null(w, "conversion_fn", rs[i]->conversion_fn);
        json_end_object(w);
    }
    json_end_array(w);
}

/* ---- a file ------------------------------------------------------------------ */

void query_json_file(Clinic *c, JsonWriter *w)
{
    const Namespace *ns = dsl_namespace(c);

    json_begin_object(w);
    key_string(w, "path", c->filename);
    json_key(w, "error");
    json_null(w);

    json_key(w, "outputs");
    json_begin_array(w);
    for (size_t i = 0; i < c->nfiles; i++)
        json_string(w, c->files[i].path);
    json_end_array(w);

    json_key(w, "blocks");
    json_begin_array(w);
    for (size_t i = 0; i < c->nblocks; i++) {
        const ClinicBlock *b = &c->blocks[i];
        json_begin_object(w);
        key_int(w, "line", b->line);
        key_string(w, "dsl", b->dsl_name);
        key_string(w, "function", b->function ? b->function->full_name
                                              : NULL);
        json_end_object(w);
    }
    json_end_array(w);

    json_key(w, "modules");
    json_begin_array(w);
    if (ns)
        modules(w, ns);
    json_end_array(w);

    json_key(w, "classes");
    json_begin_array(w);
    if (ns)
        classes(c, w, ns);
    json_end_array(w);

    json_key(w, "functions");
    json_begin_array(w);
    for (size_t i = 0; i < c->nfunctions; i++)
        function(c, w, c->functions[i]);
    json_end_array(w);

    custom_converters(w, c);
    json_end_object(w);
}

void query_json_file_error(const char *path, int line, const char *message,
                           JsonWriter *w)
{
    static const char *const empty_lists[] = {
        "outputs", "blocks", "modules", "classes", "functions", "converters",
        "return_converters",
    };
    json_begin_object(w);
    key_string(w, "path", path);
    json_key(w, "error");
    json_begin_object(w);
    json_key(w, "line");
    if (line > 0)
        json_int(w, line);
    else
        json_null(w);
    key_string(w, "message", message);
    json_end_object(w);
    for (size_t i = 0; i < sizeof empty_lists / sizeof *empty_lists; i++) {
        json_key(w, empty_lists[i]);
        json_begin_array(w);
        json_end_array(w);
    }
    json_end_object(w);
}

/* ---- the run's stats ------------------------------------------------------------ */

static void counts(JsonWriter *w, const char *key, const QueryCounts *cs,
                   bool sorted)
{
    json_key(w, key);
    json_begin_object(w);
    if (!sorted) {
        for (size_t i = 0; i < cs->n; i++)
            key_int(w, cs->items[i].name, cs->items[i].count);
    } else {
        const QueryCount **items = query_counts_sorted(cs);
        for (size_t i = 0; i < cs->n; i++)
            key_int(w, items[i]->name, items[i]->count);
        free(items);
    }
    json_end_object(w);
}

void query_json_stats(const QueryStats *s, JsonWriter *w)
{
    json_begin_object(w);
    key_int(w, "files", s->files);
    key_int(w, "files_with_errors", s->files_with_errors);
    key_int(w, "blocks", s->blocks);
    key_int(w, "functions", s->functions);
    key_int(w, "custom_converters", s->custom_converters);
    key_int(w, "custom_return_converters", s->custom_return_converters);
    counts(w, "functions_by_kind", &s->kinds, false);
    json_key(w, "parameters");
    json_begin_object(w);
    key_int(w, "all", s->parameters);
    key_int(w, "positional_only", s->positional_only);
    key_int(w, "positional_or_keyword", s->positional_or_keyword);
    key_int(w, "keyword_only", s->keyword_only);
    key_int(w, "var_positional", s->var_positional);
    key_int(w, "with_default", s->with_default);
    key_int(w, "in_optional_group", s->in_optional_group);
    key_int(w, "deprecated_positional", s->deprecated_positional);
    key_int(w, "deprecated_keyword", s->deprecated_keyword);
    if (s->var_keyword)   /* (an optional member: 3.15's **kwds) */
        key_int(w, "var_keyword", s->var_keyword);
    json_end_object(w);
    counts(w, "calling_conventions", &s->conventions, true);
    counts(w, "parsers", &s->parsers, true);
    counts(w, "converters", &s->converters, true);
    counts(w, "return_converters", &s->return_converters, true);
    json_end_object(w);
}
