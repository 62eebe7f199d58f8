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
    enum { SLOT_NONE, SLOT_NEW, SLOT_INIT } slot;   /* a type's tp_new or
                                  tp_init: its table is the type's slots */
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
    bool slots;                /* a type's tp_new and tp_init (open and
                                  close -1; decl_start: where the type
                                  or its slots are declared) */
} Table;

/* What one pass of the conversion learnt of the functions: in, the
   refusals of an earlier pass over the macros' expansions (a function a
   macro defines and that was left there is left for that reason); out,
   the functions converted (their C names). */
typedef struct PassRefusal {
    const char *func;
    ConvertRefusal why;
    const char *text;
} PassRefusal;

typedef struct Pass {
    const PassRefusal *refusals;
    size_t nrefusals;
    PassRefusal *left;         /* out: the functions left, with why */
    size_t nleft;
    const char **converted;
    size_t nconverted;
} Pass;

typedef struct Conv {
    Clinic *c;
    const Pass *earlier;       /* NULL: none */
    const char *text;
    size_t len;
    Tok *toks;
    int ntoks;
    Table *tables;
    size_t ntables;
    const char *module;        /* from the PyModuleDef; NULL: none */
    const char *path;          /* a header's name as the file includes it */
    struct Conv **headers;     /* conv_read_headers() */
    size_t nheaders;
    bool headers_read;
} Conv;

#define MAX_PARAMS 64
#define MAX_DECLS 64
#define MAX_DECLARATORS 16
#define MAX_ALIASES 8

struct FormatUnit;

typedef struct Edit {
    size_t start, end;
    const char *text;
} Edit;

typedef struct Edits {
    Edit *e;
    size_t n, cap;
} Edits;

/* A declarator of a declaration: "*name[..] = init". */
typedef struct Declarator {
    int from, to;              /* its tokens */
    int name;
    int stars;
    bool array;
    int init_from, init_to;    /* -1: no initialiser */
    bool parsed;               /* the parse call fills it */
} Declarator;

typedef struct Decl {
    int from, semi;            /* first token, its ";" */
    int spec_from, spec_to;
    Declarator d[MAX_DECLARATORS];
    size_t nd;
    bool is_kwlist;
} Decl;

typedef struct Param {
    const char *pyname, *cname;
    const struct FormatUnit *unit;
    const char *converter;     /* the converter as written */
    const char *length_name;   /* s#: the length variable */
    const char *def;           /* the default as written; NULL: required */
    const char *named;         /* O&'s function, O!'s type object: the
                                  generated code names it */
    bool kwonly;
    Decl *decl;
    Declarator *dr;
    Decl *length_decl;
    Declarator *length_dr;
} Param;

/* One function's conversion, built up until refused. */
typedef struct Func {
    Conv *cv;
    const Table *table;
    const Entry *entry;
    const char *full_name;     /* the Python name, dotted */
    int line;
    ConvertRefusal why;
    const char *why_text;
    enum { FL_VARARGS, FL_KEYWORDS, FL_O, FL_NOARGS } flags;
    int name_tok, decl_start, lparen, rparen, body_open, body_close;
    const char *self_name, *self_type, *arg_name, *kwds_name;
    const char *star_args;     /* METH_VARARGS that parses nothing: the
                                  impl takes the tuple as *NAME; NULL:
                                  not that form */
    const char *o_pyname;      /* METH_O's argument in a hand-written
                                  signature; NULL: its C name */
    const char *sig_names[MAX_PARAMS];  /* the parameters a hand-written
                                  signature names, in order */
    const char *sig_defaults[MAX_PARAMS];  /* their defaults as written;
                                  NULL: none */
    int nsig_names;            /* -1: no signature, or one not read */
    bool self_unused;
    bool class_method;         /* METH_CLASS: @classmethod */
    bool coexist;              /* METH_COEXIST: @coexist */
    Decl decls[MAX_DECLS];
    size_t ndecls;
    int parse_if, parse_end;   /* the parse statement's tokens */
    Param params[MAX_PARAMS];
    size_t nparams, npositional_only;
    const char *doc;
    const char *doc_header;    /* the header whose PyDoc_STRVAR it is;
                                  NULL: the file's */
    const char *doc_var;       /* its variable there */
    int docvar_tok;            /* the PyDoc_STRVAR to remove; -1: none */
    int docvar_shared;         /* one other entries name too; -1: none */
    int kwlist_decl_from, kwlist_decl_semi;   /* file-scope kwlist to drop */
    int kwlist_shared_from, kwlist_shared_semi;   /* a file-scope kwlist
                                  other functions name too: dropped when
                                  they are all converted; -1: none */
    const char *kwlist_name;
    const char *c_basename;    /* NULL: clinic's default */
    const Entry *alias[MAX_ALIASES];   /* other entries of the function */
    size_t nalias;
    bool keep_name;            /* called or declared: clinic's function
                                  keeps the C name */
    int first_call;            /* a call the include must precede; -1 */
    Edits edits;
} Func;

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
/* How many identifier tokens spell name, a member's ("->name",
   ".name") aside. */
int ctok_count_ident(const Conv *cv, const char *name);
/* Token i begins the file-level definition of the function name
   ("name(...) {"): the index of its "{", else -1. */
int ctok_function_body(const Conv *cv, int i, const char *name);
/* The block that opens at token open names a PyArg_ or _PyArg_
   function. */
bool ctok_block_names_pyarg(const Conv *cv, int open);
/* The text of tokens [from, to) joined by single spaces. */
char *ctok_join(const Conv *cv, int from, int to);
/* Token i is "#define NAME..." (blanks allowed after "#" and around
   the directive): NAME, *len its length (NULL: another token); the
   rest of the line follows it, up to ctok_end(cv, i). */
const char *ctok_define(const Conv *cv, int i, size_t *len);

/* convert_macro.c: a top-level use of a function-like macro the file
   defines whose expansion defines functions a table registers */
typedef struct MacroUse {
    size_t start, end;         /* the name to the ")" */
    int define_tok;
    const char *macro;
    const char *expansion;
    const char **funcs;        /* the registered functions it defines */
    size_t nfuncs;
    bool expand;
} MacroUse;

size_t conv_macro_uses(Conv *cv, MacroUse **uses);
/* The text with the uses whose expand is set written out; with
   drop_defines, a #define whose uses are all written out goes. */
const char *conv_expand_uses(const Conv *cv, const MacroUse *uses, size_t n,
                             bool drop_defines, size_t *out_len);

/* The owners of cv's tables that the types a macro's top-level use
   defines name (convert_find.c reads them in the use written out). */
void conv_macro_owners(Conv *cv);

/* convert_find.c */
void conv_find_tables(Conv *cv);
void conv_read_static_types(Conv *cv, Conv *ty);
void conv_read_headers(Conv *cv);

/* convert_summary.c: doc with the summary line clinic wants (doc itself
   when it has one), no wider than width columns (0: the dialect has no
   width); NULL and *why when the rule cannot make one */
const char *docstring_with_summary(Arena *a, const char *doc, unsigned width,
                                   const char **why);

/* convert_pure.c: tokens [from, to) that have no effect, so they may
   run after the parse call: an expression that assigns nothing and calls
   only what reads module state (CPython's getters, helpers of the file
   proved by their bodies); "assert(EXPR);" of one (depth: 0) */
bool conv_pure_expression(const Conv *cv, int from, int to);
bool conv_pure_statement(const Conv *cv, int from, int to, int depth);

/* convert_read.c: what the function is */
bool refuse(Func *f, ConvertRefusal why, const char *fmt, ...)
    CLINIC_PRINTF(3, 4);
void edit_add(Arena *a, Edits *ed, size_t start, size_t end,
              const char *text);
bool in_list(const char *const *list, const char *s);
extern const char *const python_keywords[];
size_t ctok_end(const Conv *cv, int i);
/* The bytes [start, end) widened to whole lines when only blanks stand
   beside them on their lines. */
void whole_lines(const Conv *cv, size_t *start, size_t *end);
/* A line of blanks at byte at: true, *next past its newline. */
bool blank_line_at(const Conv *cv, size_t at, size_t *next);
/* The type written as tokens [from, to) and stars: "const char *". */
const char *type_text(Conv *cv, int from, int to, int stars);
bool body_uses(const Func *f, int from, int to, const char *name);
int find_semicolon(const Conv *cv, int from, int to);
const char *variable_type(Func *f, Decl *d, Declarator *dr);
bool find_definition(Func *f);
/* An entry that registers a function an earlier entry registers too:
   converted (or left) with that one, not on its own. */
bool entry_is_alias(const Conv *cv, const Entry *e);
bool read_docstring(Func *f);
bool read_prelude(Func *f);
bool read_parse_call(Func *f);
bool rewrite_uses(Func *f);

#endif
