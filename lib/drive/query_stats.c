/*
 * query_stats.c — the counts of `clinic --stats` (and of the JSON's
 * "stats"): functions by kind, parameters by kind and feature, calling
 * conventions and parsing methods as the generator chose them,
 * converters and return converters by use.
 */
#include <stdlib.h>
#include <string.h>

#include "model/converters.h"
#include "drive/query_int.h"

/* ---- name -> count ------------------------------------------------------- */

static void query_counts_add(QueryCounts *counts, const char *name, long n)
{
    for (size_t i = 0; i < counts->n; i++)
        if (strcmp(counts->items[i].name, name) == 0) {
            counts->items[i].count += n;
            return;
        }
    if (counts->n == counts->cap) {
        counts->cap = counts->cap ? 2 * counts->cap : 8;
        counts->items = xrealloc(counts->items,
                                 counts->cap * sizeof *counts->items);
    }
    counts->items[counts->n].name = xstrdup(name);
    counts->items[counts->n].count = n;
    counts->n++;
}

static void query_counts_free(QueryCounts *counts)
{
    for (size_t i = 0; i < counts->n; i++)
        free(counts->items[i].name);
    free(counts->items);
    memset(counts, 0, sizeof *counts);
}

static int by_count_then_name(const void *x, const void *y)
{
    const QueryCount *a = *(const QueryCount *const *)x;
    const QueryCount *b = *(const QueryCount *const *)y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(a->name, b->name);
}

const QueryCount **query_counts_sorted(const QueryCounts *counts)
{
    const QueryCount **sorted = xcalloc(counts->n + 1, sizeof *sorted);
    for (size_t i = 0; i < counts->n; i++)
        sorted[i] = &counts->items[i];
    qsort(sorted, counts->n, sizeof *sorted, by_count_then_name);
    return sorted;
}

/* ---- the stats of a file --------------------------------------------------- */

void query_stats_init(QueryStats *s)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < query_nfunction_kinds; i++)
        query_counts_add(&s->kinds, query_function_kinds[i], 0);
}

void query_stats_free(QueryStats *s)
{
    query_counts_free(&s->kinds);
    query_counts_free(&s->conventions);
    query_counts_free(&s->parsers);
    query_counts_free(&s->converters);
    query_counts_free(&s->return_converters);
    memset(s, 0, sizeof *s);
}

static void count_parameter(QueryStats *s, const Parameter *p)
{
    if (query_is_special(p))
        return;
    s->parameters++;
    switch (p->kind) {
    case PARAM_POSITIONAL_ONLY: s->positional_only++; break;
    case PARAM_POSITIONAL_OR_KEYWORD: s->positional_or_keyword++; break;
    case PARAM_KEYWORD_ONLY: s->keyword_only++; break;
    case PARAM_VAR_POSITIONAL: s->var_positional++; break;
    case PARAM_VAR_KEYWORD: s->var_keyword++; break;
    }
    if (!param_kind_variable_length(p->kind) &&
        converter_is_optional(p->converter))
        s->with_default++;
    if (p->group)
        s->in_optional_group++;
    if (p->deprecated_positional.major)
        s->deprecated_positional++;
    if (p->deprecated_keyword.major)
        s->deprecated_keyword++;
    query_counts_add(&s->converters, p->converter->cls->name, 1);
}

static void count_function(QueryStats *s, const Function *f)
{
    s->functions++;
    query_counts_add(&s->kinds, query_function_kind(f), 1);
    if (f->rendering.done) {
        query_counts_add(&s->conventions, f->rendering.convention, 1);
        query_counts_add(&s->parsers, f->rendering.parser, 1);
    }
    if (f->return_converter)
        query_counts_add(&s->return_converters,
                         f->return_converter->cls->name, 1);
    Parameter *const *ps = query_parameters(f);
    for (size_t i = 0; i < f->nparameters; i++)
        count_parameter(s, ps[i]);
}

void query_stats_count_file(QueryStats *s, Clinic *c)
{
    const ConverterClass *const *classes;
    const ReturnConverterClass *const *return_classes;

    s->files++;
    s->blocks += (long)c->nblocks;
    for (size_t i = 0; i < c->nfunctions; i++)
        count_function(s, c->functions[i]);
    s->custom_converters += (long)converters_declared(c, &classes);
    s->custom_return_converters +=
        (long)return_converters_declared(c, &return_classes);
}

static void merge_counts(QueryCounts *into, const QueryCounts *from)
{
    for (size_t i = 0; i < from->n; i++)
        query_counts_add(into, from->items[i].name, from->items[i].count);
}

void query_stats_merge(QueryStats *into, const QueryStats *from)
{
    into->files += from->files;
    into->files_with_errors += from->files_with_errors;
    into->blocks += from->blocks;
    into->functions += from->functions;
    merge_counts(&into->kinds, &from->kinds);
    into->parameters += from->parameters;
    into->positional_only += from->positional_only;
    into->positional_or_keyword += from->positional_or_keyword;
    into->keyword_only += from->keyword_only;
    into->var_positional += from->var_positional;
    into->var_keyword += from->var_keyword;
    into->with_default += from->with_default;
    into->in_optional_group += from->in_optional_group;
    into->deprecated_positional += from->deprecated_positional;
    into->deprecated_keyword += from->deprecated_keyword;
    merge_counts(&into->conventions, &from->conventions);
    merge_counts(&into->parsers, &from->parsers);
    merge_counts(&into->converters, &from->converters);
    merge_counts(&into->return_converters, &from->return_converters);
    into->custom_converters += from->custom_converters;
    into->custom_return_converters += from->custom_return_converters;
}

/* ---- the table --------------------------------------------------------------- */

/* "name    count" lines: the names in a column as wide as the longest
   (at least 32), the counts right-aligned after it. */
typedef struct Table {
    StrBuf *out;
    int width;
} Table;

static void row(const Table *t, int indent, const char *name, long count)
{
    sb_addf(t->out, "%*s%-*s %7ld\n", indent, "", t->width - indent, name,
            count);
}

static void section(const Table *t, const char *title,
                    const QueryCounts *counts, bool sorted)
{
    sb_addf(t->out, "\n%s:\n", title);
    if (!sorted) {
        for (size_t i = 0; i < counts->n; i++)
            row(t, 2, counts->items[i].name, counts->items[i].count);
        return;
    }
    const QueryCount **items = query_counts_sorted(counts);
    for (size_t i = 0; i < counts->n; i++)
        row(t, 2, items[i]->name, items[i]->count);
    free(items);
}

static void widen(int *width, const QueryCounts *counts)
{
    for (size_t i = 0; i < counts->n; i++) {
        int w = 2 + (int)strlen(counts->items[i].name);
        if (w > *width)
            *width = w;
    }
}

void query_stats_print(const QueryStats *s, StrBuf *out)
{
    Table t = {out, 32};
    widen(&t.width, &s->conventions);
    widen(&t.width, &s->parsers);
    widen(&t.width, &s->converters);
    widen(&t.width, &s->return_converters);

    row(&t, 0, "files", s->files);
    row(&t, 0, "files with errors", s->files_with_errors);
    row(&t, 0, "blocks", s->blocks);
    row(&t, 0, "functions", s->functions);
    row(&t, 0, "custom converters", s->custom_converters);
    row(&t, 0, "custom return converters", s->custom_return_converters);

    section(&t, "functions by kind", &s->kinds, false);

    sb_adds(out, "\nparameters (self and defining_class not counted):\n");
    row(&t, 2, "all", s->parameters);
    row(&t, 2, "positional_only", s->positional_only);
    row(&t, 2, "positional_or_keyword", s->positional_or_keyword);
    row(&t, 2, "keyword_only", s->keyword_only);
    row(&t, 2, "var_positional", s->var_positional);
    if (s->var_keyword)
        row(&t, 2, "var_keyword", s->var_keyword);
    row(&t, 2, "with a default", s->with_default);
    row(&t, 2, "in an optional group", s->in_optional_group);
    row(&t, 2, "deprecated positional use", s->deprecated_positional);
    row(&t, 2, "deprecated keyword use", s->deprecated_keyword);

    section(&t, "calling conventions", &s->conventions, true);
    section(&t, "parsing methods", &s->parsers, true);
    section(&t, "converters", &s->converters, true);
    section(&t, "return converters", &s->return_converters, true);
}
