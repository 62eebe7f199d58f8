/*
 * query_int.h — what the query files (query.c, query_json.c,
 * query_stats.c) share.  Not part of the library's interface: query.h is.
 */
#ifndef CLINIC_QUERY_INT_H
#define CLINIC_QUERY_INT_H

#include "base/json.h"
#include "model/model.h"
#include "drive/query.h"

/* The kinds a function can be, as reported ("function", "method",
   "classmethod", "staticmethod", "__new__", "__init__"), in the order
   --stats lists them.  A new FunctionKind gets its name in
   query_function_kind() (the compiler asks for it) and a place here. */
extern const char *const query_function_kinds[];
extern const size_t query_nfunction_kinds;

const char *query_function_kind(const Function *f);
/* inspect.Parameter's kind names, lower case: "positional_only", ... */
const char *query_parameter_kind(ParamKind kind);
/* self and defining_class: parameters no caller passes. */
bool query_is_special(const Parameter *p);
/* The parameters as the generator rendered them (or as declared, when
   the function was not rendered). */
Parameter *const *query_parameters(const Function *f);
/* "mod.Class.Inner" */
const char *query_class_full_name(Clinic *c, const Class *k);
/* NULL for the top level (clinic's pseudo-module without a name). */
const char *query_module_name(const Module *m);

/* The counts sorted by count (largest first), then name: a new array
   of pointers into counts, to free(). */
const QueryCount **query_counts_sorted(const QueryCounts *counts);
void query_stats_init(QueryStats *s);
void query_stats_free(QueryStats *s);
void query_stats_count_file(QueryStats *s, Clinic *c);
void query_stats_merge(QueryStats *into, const QueryStats *from);
void query_stats_print(const QueryStats *s, StrBuf *out);

/* JSON (query_json.c): one file's object, written at the depth it has in
   the document; the run's "stats" object. */
void query_json_file(Clinic *c, JsonWriter *w);
void query_json_file_error(const char *path, int line, const char *message,
                           JsonWriter *w);
void query_json_stats(const QueryStats *s, JsonWriter *w);

#endif
