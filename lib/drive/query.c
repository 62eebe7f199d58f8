/*
 * query.c — the query modes' run (query.h): what each file contributes,
 * gathered in file order; the --list tree; --docstring and its
 * did-you-mean; and the model helpers the query files share.
 */
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "parse/dsl.h"
#include "drive/query_int.h"

/* ---- the model, as reported ---------------------------------------------- */

const char *const query_function_kinds[] = {
    "function", "method", "classmethod", "staticmethod", "__new__",
    "__init__",
};
const size_t query_nfunction_kinds =
    sizeof query_function_kinds / sizeof *query_function_kinds;

const char *query_function_kind(const Function *f)
{
    switch (f->kind) {
    case FUNC_CALLABLE: return f->cls ? "method" : "function";
    case FUNC_CLASS_METHOD: return "classmethod";
    case FUNC_STATIC_METHOD: return "staticmethod";
    case FUNC_METHOD_NEW: return "__new__";
    case FUNC_METHOD_INIT: return "__init__";
    case FUNC_GETTER: return "getter";
    case FUNC_SETTER: return "setter";
    }
    return "function";
}

const char *query_parameter_kind(ParamKind kind)
{
    switch (kind) {
    case PARAM_POSITIONAL_ONLY: return "positional_only";
    case PARAM_POSITIONAL_OR_KEYWORD: return "positional_or_keyword";
    case PARAM_VAR_POSITIONAL: return "var_positional";
    case PARAM_KEYWORD_ONLY: return "keyword_only";
    case PARAM_VAR_KEYWORD: return "var_keyword";
    }
    return "positional_or_keyword";
}

bool query_is_special(const Parameter *p)
{
    return p->converter->cls->is_self || p->converter->cls->is_defining_class;
}

Parameter *const *query_parameters(const Function *f)
{
    return f->rendering.done ? f->rendering.parameters : f->parameters;
}

const char *query_module_name(const Module *m)
{
    return m && m->name && *m->name ? m->name : NULL;
}

static void add_class_name(StrBuf *sb, const Class *k)
{
    if (k->cls) {
        add_class_name(sb, k->cls);
        sb_addc(sb, '.');
    } else if (query_module_name(k->module)) {
        sb_adds(sb, k->module->name);
        sb_addc(sb, '.');
    }
    sb_adds(sb, k->name);
}

const char *query_class_full_name(Clinic *c, const Class *k)
{
    StrBuf sb = STRBUF_INIT;
    add_class_name(&sb, k);
    return sb_take(&sb, c->arena);
}

/* ---- --list ------------------------------------------------------------------ */

/* A node of the namespace, as CPython's --list prints it: its functions
   (each as its full dotted name with its signature; a getter or setter,
   which has none, with its decorators: "m.C.attr @setter @deleter"),
   then its classes, then its modules, each nested two spaces deeper. */
static void list_node(Clinic *c, StrBuf *out, const Namespace *ns, int indent)
{
    for (size_t i = 0; i < ns->nfunctions; i++) {
        const Function *f = ns->functions[i];
        if (f->kind == FUNC_GETTER || f->kind == FUNC_SETTER)
            sb_addf(out, "%*s%s %s%s\n", indent, "", f->full_name,
                    f->kind == FUNC_GETTER ? "@getter" : "@setter",
                    f->deleter ? " @deleter" : "");
        else
            sb_addf(out, "%*s%s\n", indent, "", f->full_signature);
    }
    for (size_t i = 0; i < ns->nclasses; i++) {
        sb_addf(out, "%*sclass %s\n", indent, "",
                query_class_full_name(c, ns->classes[i]->cls));
        list_node(c, out, ns->classes[i], indent + 2);
    }
    for (size_t i = 0; i < ns->nmodules; i++) {
        sb_addf(out, "%*smodule %s\n", indent, "",
                ns->modules[i]->module->name);
        list_node(c, out, ns->modules[i], indent + 2);
    }
}

/* ---- --docstring ----------------------------------------------------------------- */

static void find_docstrings(const Query *q, const Clinic *c, QueryFile *out)
{
    out->names = xcalloc(c->nfunctions + 1, sizeof *out->names);
    for (size_t i = 0; i < c->nfunctions; i++) {
        const Function *f = c->functions[i];
        out->names[out->nnames++] = xstrdup(f->full_name);
        if (strcmp(f->full_name, q->name) != 0)
            continue;
        out->matches = xrealloc(out->matches,
                                (out->nmatches + 1) * sizeof *out->matches);
        QueryMatch *m = &out->matches[out->nmatches++];
        m->path = xstrdup(c->filename);
        m->line = f->block_line;
        m->docstring = f->rendering.docstring
                           ? xstrdup(f->rendering.docstring) : NULL;
    }
}

typedef struct Candidate {
    const char *name;
    size_t score;       /* lower is closer */
} Candidate;

static int by_score(const void *x, const void *y)
{
    const Candidate *a = x, *b = y;
    if (a->score != b->score)
        return a->score < b->score ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* Closest first: a full name that ends with the one asked for (it was
   given without its module or class), then names a few edits away. */
size_t query_suggest(const char *name, char *const *names, size_t n,
                     const char **out, size_t max)
{
    size_t len = strlen(name), limit = len / 3 > 2 ? len / 3 : 2;
    Candidate *cs = xcalloc(n + 1, sizeof *cs);
    size_t ncs = 0;

    for (size_t i = 0; i < n; i++) {
        size_t nl = strlen(names[i]), score;
        bool seen = false;
        for (size_t k = 0; k < ncs; k++)
            if (strcmp(cs[k].name, names[i]) == 0)
                seen = true;
        if (seen || strcmp(names[i], name) == 0)
            continue;
        if (nl > len && names[i][nl - len - 1] == '.' &&
            strcmp(names[i] + nl - len, name) == 0)
            score = 0;
        else if ((score = (text_edit_distance(name, names[i]) +
                           TEXT_EDIT_MOVE - 1) / TEXT_EDIT_MOVE) > limit)
            continue;
        else
            score += 1;
        cs[ncs].name = names[i];
        cs[ncs].score = score;
        ncs++;
    }
    qsort(cs, ncs, sizeof *cs, by_score);
    size_t k;
    for (k = 0; k < ncs && k < max; k++)
        out[k] = cs[k].name;
    free(cs);
    return k;
}

/* ---- a file ------------------------------------------------------------------------ */

static void file_init(QueryFile *out)
{
    memset(out, 0, sizeof *out);
    sb_init(&out->text);
    query_stats_init(&out->stats);
}

void query_describe(const Query *q, Clinic *c, int rc, QueryFile *out)
{
    if (rc != 0) {
        query_describe_error(q, c->filename, c->error_line,
                             c->error_message ? c->error_message : "",
                             out);
        return;
    }
    file_init(out);
    query_stats_count_file(&out->stats, c);
    switch (q->mode) {
    case QUERY_LIST: {
        /* files that declare nothing (the generated .c.h files hold a
           'preserve' block and nothing more) are left out */
        const Namespace *ns = dsl_namespace(c);
        if (ns && (ns->nfunctions || ns->nclasses || ns->nmodules)) {
            sb_addf(&out->text, "%s\n", c->filename);
            list_node(c, &out->text, ns, 2);
        }
        break;
    }
    case QUERY_JSON: {
        JsonWriter w;
        json_init(&w, &out->text, 2);
        query_json_file(c, &w);
        break;
    }
    case QUERY_DOCSTRING:
        find_docstrings(q, c, out);
        break;
    case QUERY_STATS:
    case QUERY_NONE:
        break;
    }
}

void query_describe_error(const Query *q, const char *path, int line,
                          const char *message, QueryFile *out)
{
    file_init(out);
    out->stats.files = 1;
    out->stats.files_with_errors = 1;
    if (q->mode == QUERY_JSON) {
        JsonWriter w;
        json_init(&w, &out->text, 2);
        query_json_file_error(path, line, message, &w);
    }
}

static void free_matches(QueryMatch *ms, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(ms[i].path);
        free(ms[i].docstring);
    }
    free(ms);
}

void query_file_free(QueryFile *f)
{
    sb_free(&f->text);
    query_stats_free(&f->stats);
    for (size_t i = 0; i < f->nnames; i++)
        free(f->names[i]);
    free(f->names);
    free_matches(f->matches, f->nmatches);
    memset(f, 0, sizeof *f);
}

/* ---- the run ------------------------------------------------------------------------ */

void query_init(Query *q, QueryMode mode, const char *name)
{
    memset(q, 0, sizeof *q);
    q->mode = mode;
    q->name = name;
    query_stats_init(&q->stats);
}

void query_free(Query *q)
{
    query_stats_free(&q->stats);
    for (size_t i = 0; i < q->nnames; i++)
        free(q->names[i]);
    free(q->names);
    free_matches(q->matches, q->nmatches);
    memset(q, 0, sizeof *q);
}

/* The JSON document's head, once, before anything else. */
static void begin(Query *q, StrBuf *out)
{
    if (q->begun || q->mode != QUERY_JSON)
        return;
    q->begun = true;
    sb_addf(out, "{\n  \"version\": %d,\n  \"generator\": \"clinic %s\",\n"
                 "  \"files\": [",
            QUERY_JSON_VERSION, CLINIC_VERSION);
}

void query_add(Query *q, QueryFile *f, StrBuf *out)
{
    begin(q, out);
    query_stats_merge(&q->stats, &f->stats);
    if (q->mode == QUERY_JSON)
        sb_adds(out, q->nfiles ? ",\n    " : "\n    ");
    sb_addsb(out, &f->text);
    q->nfiles++;

    /* the names and matches change hands */
    if (f->nnames) {
        if (q->nnames + f->nnames > q->capnames) {
            q->capnames = 2 * (q->nnames + f->nnames);
            q->names = xrealloc(q->names, q->capnames * sizeof *q->names);
        }
        memcpy(q->names + q->nnames, f->names, f->nnames * sizeof *f->names);
        q->nnames += f->nnames;
        f->nnames = 0;
    }
    if (f->nmatches) {
        q->matches = xrealloc(q->matches, (q->nmatches + f->nmatches) *
                                              sizeof *q->matches);
        memcpy(q->matches + q->nmatches, f->matches,
               f->nmatches * sizeof *f->matches);
        q->nmatches += f->nmatches;
        f->nmatches = 0;
    }
    query_file_free(f);
}

static bool answer_docstring(Query *q, StrBuf *out, StrBuf *err)
{
    if (q->nmatches == 0) {
        const char *close[5];
        size_t n = query_suggest(q->name, q->names, q->nnames, close, 5);
        sb_addf(err, "clinic: error: no function is named '%s'", q->name);
        for (size_t i = 0; i < n; i++)
            sb_addf(err, "%s'%s'", i == 0 ? "; did you mean " : ", ",
                    close[i]);
        sb_adds(err, n ? "?\n" : "\n");
        return false;
    }
    for (size_t i = 0; i < q->nmatches; i++) {
        const QueryMatch *m = &q->matches[i];
        if (q->nmatches > 1)
            sb_addf(out, "%s==> %s:%d <==\n", i ? "\n" : "", m->path,
                    m->line);
        if (m->docstring) {
            size_t n = strlen(m->docstring);
            sb_adds(out, m->docstring);
            if (!n || m->docstring[n - 1] != '\n')
                sb_addc(out, '\n');
        }
        else
            sb_addf(err, "%s:%d: %s has no docstring (clinic writes none "
                         "for it)\n", m->path, m->line, q->name);
    }
    return true;
}

bool query_end(Query *q, StrBuf *out, StrBuf *err)
{
    begin(q, out);
    switch (q->mode) {
    case QUERY_JSON: {
        sb_adds(out, q->nfiles ? "\n  ],\n  \"stats\": " : "],\n  \"stats\": ");
        JsonWriter w;
        json_init(&w, out, 1);
        query_json_stats(&q->stats, &w);
        sb_adds(out, "\n}\n");
        return true;
    }
    case QUERY_STATS:
        query_stats_print(&q->stats, out);
        return true;
    case QUERY_DOCSTRING:
        return answer_docstring(q, out, err);
    case QUERY_LIST:
    case QUERY_NONE:
        return true;
    }
    return true;
}
