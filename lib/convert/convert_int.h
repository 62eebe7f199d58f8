/*
 * convert_int.h — what the files of convert/ share: the C tokens of the
 * input (convert_lex.c), what the file declares at its top level (method
 * tables, the module, the types: convert_find.c), and the edits the
 * conversion makes (convert.c).
 */
#ifndef CLINIC_CONVERT_INT_H
#define CLINIC_CONVERT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/context.h"
#include "base/strbuf.h"
#include "convert/convert.h"

typedef enum TokKind {
    TK_IDENT, TK_NUMBER, TK_STRING, TK_CHAR, TK_PUNCT, TK_PP
} TokKind;

/* One token: comments are not tokens; a preprocessor line (with its
   continuations) is one TK_PP token. */
typedef struct Tok {
    TokKind kind;
    size_t start, len;
    int line;
    int match;     /* ( [ {: the index of the closing one, and back; -1 */
    int depth;     /* braces open before it */
} Tok;

/* A PyMethodDef entry {"name", (PyCFunction)func, FLAGS, doc}. */
typedef struct Entry {
    int open, close;           /* its braces */
    int name_tok, func_tok;    /* the string, the function's identifier */
    const char *pyname, *func;
    int flags_from, flags_to;  /* tokens of the flags, [from, to) */
    int doc_from, doc_to;      /* of the doc field; from == to: none */
    int line;
} Entry;

typedef struct Owner {
    const char *module;        /* the module's Python name */
    const char *class_name;    /* NULL: module functions */
    const char *type_object;   /* "&Foo_Type", or NULL: not known */
} Owner;

typedef struct Table {
    const char *name;
    int open, close;           /* its braces */
    int decl_start;            /* the first token of its declaration */
    Entry *entries;
    size_t nentries;
    Owner owner;               /* module == NULL: none found */
} Table;

typedef struct Conv {
    Clinic *c;
    const char *text;
    size_t len;
    Tok *toks;
    int ntoks;
    Table *tables;
    size_t ntables;
    const char *module;        /* from the PyModuleDef; NULL: none */
} Conv;

/* convert_lex.c */
void conv_lex(Conv *cv);
bool ctok_is(const Conv *cv, int i, const char *s);
bool ctok_ident(const Conv *cv, int i, const char *s);
char *ctok_str(const Conv *cv, int i);            /* arena copy */
/* The value of adjacent string literals from token i on (C escapes
   \n \t \\ \" \' and line continuations); *end: the token after; NULL
   when i is no string or an escape is not one of those. */
char *ctok_strings(const Conv *cv, int i, int *end);
/* Tokens of [from, to) split at the commas not nested in brackets;
   fields[k] = its first token, ends[k] = past its last. */
size_t ctok_split(const Conv *cv, int from, int to, int *fields, int *ends,
                 size_t max);
/* How many identifier tokens spell name. */
int ctok_count_ident(const Conv *cv, const char *name);
/* The text of tokens [from, to) joined by single spaces. */
char *ctok_join(const Conv *cv, int from, int to);

/* convert_find.c */
void conv_find_tables(Conv *cv);

#endif
