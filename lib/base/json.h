/*
 * json.h — a small JSON writer into a StrBuf, for `clinic --json`.
 *
 * Output is deterministic (members in the order written, two spaces of
 * indentation per level, "key": value) and always valid UTF-8 JSON,
 * whatever bytes a string holds: well-formed UTF-8 is kept as it is,
 * control characters are escaped, a surrogate code point encoded in
 * UTF-8 (how clinic keeps Python's lone surrogates) becomes a \uXXXX
 * escape, and any other ill-formed byte becomes \ufffd.
 *
 * A writer can start deeper than the top level, so that pieces of one
 * document can be written apart (one file's object on a worker thread)
 * and pasted together with the indentation they would have had.
 */
#ifndef CLINIC_JSON_H
#define CLINIC_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"

#define JSON_MAX_DEPTH 32

typedef struct JsonWriter {
    StrBuf *out;
    int base;                  /* the depth the writer started at */
    int open;                  /* containers it has open */
    bool empty[JSON_MAX_DEPTH]; /* no member yet in the open container */
    bool after_key;            /* the next value completes "key": */
} JsonWriter;

/* Writes into out.  depth: the nesting level the first value sits at (0
   for a whole document); the caller writes whatever separates it from
   what comes before. */
void json_init(JsonWriter *w, StrBuf *out, int depth);

void json_begin_object(JsonWriter *w);
void json_end_object(JsonWriter *w);
void json_begin_array(JsonWriter *w);
void json_end_array(JsonWriter *w);
/* The key of the next member of the open object. */
void json_key(JsonWriter *w, const char *key);

void json_string(JsonWriter *w, const char *s);   /* NULL: null */
void json_string_n(JsonWriter *w, const char *s, size_t len);
void json_int(JsonWriter *w, long long v);
/* A number given as its JSON text (Python's int digits, a float's
   repr); the caller vouches for its syntax. */
void json_number(JsonWriter *w, const char *text);
void json_bool(JsonWriter *w, bool b);
void json_null(JsonWriter *w);

/* The quoted, escaped form of s[0..len) (see above), appended to out. */
void json_add_quoted(StrBuf *out, const char *s, size_t len);

#endif
