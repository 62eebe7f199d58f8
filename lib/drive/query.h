/*
 * query.h — asking clinic what files declare instead of writing them:
 * the modes --list, --json, --stats and --docstring NAME.
 *
 * Everything reported is read from what processing a file built: the
 * namespace the DSL filled (dsl.h), the model (model.h), and what the
 * generator decided for each function (Function.rendering), so a query
 * can never drift from what clinic writes.  A run has two halves: per
 * file, query_describe() turns a processed Clinic into a QueryFile (on
 * any thread; it owns its memory, the Clinic may be freed after); then,
 * in file order, query_add() takes each into the Query, and query_end()
 * closes the run (the JSON document's stats, the --stats table, the
 * --docstring answer).  The JSON format is documented by
 * schema/clinic-query.schema.json and man/clinic.1.
 */
#ifndef CLINIC_QUERY_H
#define CLINIC_QUERY_H

#include <stdbool.h>
#include <stddef.h>

#include "drive/clinic.h"
#include "base/strbuf.h"

/* The "version" of the JSON document: raised when a member changes
   meaning or goes away (members may be added without raising it). */
#define QUERY_JSON_VERSION 1

typedef enum QueryMode {
    QUERY_NONE,
    QUERY_LIST,
    QUERY_JSON,
    QUERY_STATS,
    QUERY_DOCSTRING,
} QueryMode;

/* name -> count, kept in the order first seen. */
typedef struct QueryCount {
    char *name;
    long count;
} QueryCount;

typedef struct QueryCounts {
    QueryCount *items;
    size_t n, cap;
} QueryCounts;

/* The counts of --stats (and of the JSON's "stats").  Parameters are the
   ones a caller passes: self and defining_class are not counted. */
typedef struct QueryStats {
    long files, files_with_errors, blocks, functions;
    QueryCounts kinds;            /* function kinds, every kind listed */
    long parameters, positional_only, positional_or_keyword, keyword_only,
         var_positional, with_default, in_optional_group,
         deprecated_positional, deprecated_keyword;
    long var_keyword;             /* 3.15's **kwds: shown when some */
    QueryCounts conventions;      /* calling conventions (METH_ flags) */
    QueryCounts parsers;          /* Rendering.parser */
    QueryCounts converters;       /* by converter name, as declared */
    QueryCounts return_converters;
    long custom_converters, custom_return_converters;
} QueryStats;

/* One function --docstring found. */
typedef struct QueryMatch {
    char *path;
    int line;
    char *docstring;              /* NULL: clinic writes none */
} QueryMatch;

/* What one file contributes to a run. */
typedef struct QueryFile {
    StrBuf text;                  /* --list lines, or the JSON object */
    QueryStats stats;
    char **names;                 /* --docstring: every full name */
    size_t nnames;
    QueryMatch *matches;          /* --docstring: the functions so named */
    size_t nmatches;
} QueryFile;

typedef struct Query {
    QueryMode mode;
    const char *name;             /* --docstring's NAME */
    QueryStats stats;
    size_t nfiles;                /* files added */
    bool begun;                   /* the document's head is out */
    char **names;
    size_t nnames, capnames;
    QueryMatch *matches;
    size_t nmatches, capmatches;
} Query;

void query_init(Query *q, QueryMode mode, const char *name);
void query_free(Query *q);

/* A file clinic_process() has been run on: rc is what it returned (a
   file with an error is reported as one, from c->error_line and
   c->error_message).  Files without a clinic block are not reported:
   the caller does not call this for them. */
void query_describe(const Query *q, Clinic *c, int rc, QueryFile *out);
/* A file that could not be processed at all (unreadable, not UTF-8, not
   a C file): line -1 when the error is not at a line. */
void query_describe_error(const Query *q, const char *path, int line,
                          const char *message, QueryFile *out);
void query_file_free(QueryFile *f);

/* The run's output, in pieces for stdout (the JSON document's head comes
   with the first of them): query_add() for each file in order (it
   empties f), query_end() after the last.  query_end() returns false when
   --docstring found no function of that name; err then says so, with
   suggestions. */
void query_add(Query *q, QueryFile *f, StrBuf *out);
bool query_end(Query *q, StrBuf *out, StrBuf *err);

/* The names among names[0..n) closest to name (did-you-mean), best
   first, at most max of them; returns how many were put in out. */
size_t query_suggest(const char *name, char *const *names, size_t n,
                     const char **out, size_t max);

#endif
