/*
 * text.h — the text helpers clinic.py's output format is built from.
 *
 * String lists and string maps (arena-backed), Python's str.format_map
 * for the generator's templates, clinic.py's linear_format, textwrap's
 * dedent, normalize_snippet, wrap_declarations and C-string quoting.
 * Every function returns arena memory and never modifies its inputs.
 */
#ifndef CLINIC_TEXT_H
#define CLINIC_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/strbuf.h"

/* A growable list of strings in an arena. */
typedef struct StrList {
    const char **items;
    size_t len, cap;
} StrList;

void strlist_push(Arena *a, StrList *l, const char *s);
/* The items joined by sep (the one item itself when there is one). */
const char *strlist_join(Arena *a, const StrList *l, const char *sep);
/* sep.join(before + item + after for item in l), written at its size. */
const char *strlist_join_around(Arena *a, const StrList *l, const char *before,
                                const char *after, const char *sep);
bool strlist_contains(const StrList *l, const char *s);

/* An insertion-ordered string -> string map (a template dictionary). */
typedef struct StrMap {
    const char **keys;
    const char **values;
    size_t len, cap;
    unsigned *hashes;   /* a hash of each key, so a look-up compares
                           few strings */
} StrMap;

void strmap_set(Arena *a, StrMap *m, const char *key, const char *value);
const char *strmap_get(const StrMap *m, const char *key); /* NULL if absent */
/* Room for cap keys at once, for a map known to
   grow that big (template_dict). */
void strmap_reserve(Arena *a, StrMap *m, size_t cap);

/* Python's template.format_map(map) for "{name}" fields and "{{"/"}}"
   escapes.  A field missing from map is returned in *missing (and the
   result is NULL) so the caller can report it as clinic.py would. */
char *text_format_map(Arena *a, const char *template, const StrMap *map,
                      const char **missing);

/* clinic.py's linear_format: "{name}" alone on a line (with indentation)
   is replaced by the value, indented to match; elsewhere in a line it is
   replaced verbatim.  Fields not in map are left as they are. */
char *text_linear_format(Arena *a, const char *template, const StrMap *map);

/* The same, but template itself when no line of it names a field of
   map (the result is the same text then, without a copy). */
const char *text_linear_format_if_any(Arena *a, const char *template,
                                      const StrMap *map);

/* The block fields of text_render_template, made once for the
   templates of a function. */
typedef struct TextBlockFields {
    const StrMap *map;
    /* the first bytes and lengths (mod 64) of its keys, which tell most
       fields of a template from them without a look-up */
    unsigned long long firsts, lengths;
} TextBlockFields;

TextBlockFields text_block_fields(const StrMap *map);

/* render_function's passes over one of its templates, in one where it
   can: linear_format(t, blocks); then, when that has "{exit_label}",
   linear_format with exit_label = "exit:" if it has "goto exit;", else
   ""; then format_map(map).  t itself when it has no brace.  NULL when
   the template needs the passes one by one (a marker not alone on its
   line, a field format_map cannot fill or that a value's line leaves
   open, ...): the caller makes them then, which also reports any error
   as they do. */
const char *text_render_template(Arena *a, const char *t,
                                 const TextBlockFields *blocks,
                                 const StrMap *map);

/* What kind of field a look-up found: a plain one, which format_map
   fills in, or a block field, which linear_format does (a marker alone
   on its line) before format_map reads its lines, or one whose lines are
   already what format_map makes of them (the text before
   text_format_escape, its length given: the bytes after that length are
   blanks only), which go in as they are. */
typedef enum TextFieldKind {
    TEXT_FIELD_PLAIN, TEXT_FIELD_BLOCK, TEXT_FIELD_BLOCK_FORMATTED
} TextFieldKind;

/* The fields of text_render_fields, looked up by the caller's function:
   the value of the field named key[0..n) (NUL-terminated, its length in
   *len), or NULL when there is none.  With kind non-NULL, *kind tells
   what kind of field it is; with kind NULL, the plain value (as
   format_map reads it) is asked for. */
typedef const char *TextFieldLookup(const void *fields, const char *key,
                                    size_t n, size_t *len,
                                    TextFieldKind *kind);

/* text_render_template for t[0..n) (NUL-terminated) whose fields, block
   and plain, are looked up by lookup(fields, ...): for the generator,
   which keeps them by index, not in maps. */
const char *text_render_fields(Arena *a, const char *t, size_t n,
                               TextFieldLookup *lookup, const void *fields,
                               size_t *len);
/* The same appended to sb, which has room for it (no copy of a template
   without fields); false when the passes must be made one by one (sb
   then holds a part of the text).  Without exit_labels, an
   "{exit_label}" marker is declined too: the caller, rendering t as the
   first part of a text, decides about the label. */
bool text_render_fields_into(StrBuf *sb, const char *t, size_t n,
                             TextFieldLookup *lookup, const void *fields,
                             bool exit_labels);
/* Parts of it, for a caller rendering a template of its own: a block
   field's value[0..vlen) as linear_format puts it in for a marker
   indented by indent[0..ilen) (formatted by format_map unless it is
   already), and s[0..n) formatted by format_map; false when format_map
   would fail. */
bool text_add_block_value(StrBuf *sb, const char *value, size_t vlen,
                          bool formatted, const char *indent, size_t ilen,
                          TextFieldLookup *lookup, const void *fields);

/* textwrap.dedent(), and clinic.py's normalize_snippet(s, indent=n):
   dedent, strip surrounding blank lines, indent every line by n spaces. */
char *text_dedent(Arena *a, const char *s);
char *text_normalize_snippet(Arena *a, const char *s, int indent);

char *text_rstrip_lines(Arena *a, const char *s);
char *text_indent_all_lines(Arena *a, const char *s, const char *prefix);
char *text_suffix_all_lines(Arena *a, const char *s, const char *suffix);
char *text_format_escape(Arena *a, const char *s);  /* { -> {{, } -> }} */
char *text_format_escape_n(Arena *a, const char *s, size_t n); /* s[0..n) */
/* Python's str.replace(old, new): every occurrence. */
char *text_replace(Arena *a, const char *s, const char *old, const char *new_);

/* clinic.py's wrap_declarations(text, length=78); s itself when it
   changes nothing. */
const char *text_wrap_declarations(Arena *a, const char *s, int length);

/* Quoting a Python str into C: quoted_for_c_string (backslash, quotes)
   and c_repr ('"' + s + '"'). */
char *text_quoted_for_c_string(Arena *a, const char *s);
/* The same written at out, which has room for 2 * n bytes; where it
   ends. */
char *text_put_quoted_for_c_string(char *out, const char *s, size_t n);
char *text_c_repr(Arena *a, const char *s);
/* 3.14's C literals (text_c_literal.c): bytes as a C string literal,
   C's escapes for the usual controls and octal for every other byte
   outside printable ASCII (c_bytes_repr); a UTF-8 str the same, with
   \uXXXX and \UXXXXXXXX for non-ASCII code points (c_str_repr).  Both
   break trigraphs ("??" -> "?\?") and comment marks ("/\*", "*\/").
   text_c_bytes_chars is c_bytes_repr without its double quotes. */
char *text_c_bytes_repr(Arena *a, const char *s, size_t n);
char *text_c_bytes_chars(Arena *a, const char *s, size_t n);
char *text_c_str_repr(Arena *a, const char *s, size_t n);
/* Whether s[0..n) is all ASCII (no byte above 0x7F). */
bool text_is_ascii(const char *s, size_t n);

/* clinic.py's ensure_legal_c_identifier: C keywords get "_value"; NULL
   when s is not a legal C identifier (the caller fails with
   "Illegal C identifier: {}"). */
const char *text_legal_c_identifier(Arena *a, const char *s);
bool text_is_c_keyword(const char *s);
/* clinic.py's c_keywords, in its order; ends with NULL. */
extern const char *const text_c_keywords[];
bool text_is_legal_py_identifier(const char *s);  /* [A-Za-z_]\w* */

/* Python's str.isspace() of one ASCII byte, as strip() and split() use
   it: "\t\n\v\f\r", " " and the separators "\x1c".."\x1f". */
static inline bool text_is_py_space(char ch)
{
    return ch == ' ' || (ch >= '\t' && ch <= '\r') ||
           (ch >= '\x1c' && ch <= '\x1f');
}

/* shlex.split(s) in POSIX mode without comments, as clinic.py splits
   directive lines and end markers: the words in *out (in a), and their
   number; or -1 and shlex's message in *error ("No closing quotation",
   "No escaped character"). */
int text_shlex_split(Arena *a, const char *s, const char ***out,
                     const char **error);
/* The bytes shlex takes for white space between words. */
#define TEXT_SHLEX_SPACE " \t\r\n"

/* Python str helpers with Python's semantics (whitespace = ASCII here). */
char *text_strip(Arena *a, const char *s);
/* The optimal string alignment distance of a and b: Levenshtein's with
   Python's costs (inserting, deleting or replacing a byte costs
   TEXT_EDIT_MOVE, changing only its case half that), plus swapping two
   neighbours (for "itn") at the cost of one move. */
#define TEXT_EDIT_MOVE 2
size_t text_edit_distance(const char *a, const char *b);
/* The candidate word is most likely a misspelling of, as Python's
   "Did you mean" picks it (a Levenshtein distance where a change of case
   costs half a substitution; here swapping two neighbours costs one
   move too), or NULL when none is close enough. */
const char *text_closest(const char *word, const char *const *candidates,
                         size_t n);

/* The name Python 3.11's interpreter offers as "Did you mean" for name
   among candidates (in their order: the first of the closest), or NULL:
   its own distance (a change of case costs 1, any other edit 2, no
   transposition), unlike text_closest's. */
const char *text_suggestion(const char *name, const char *const *candidates,
                            size_t n);
/* That distance between a[0..an) and b[0..bn), or more than max_cost
   once it is sure to exceed it. */
size_t text_suggestion_distance(const char *a, size_t an, const char *b,
                                size_t bn, size_t max_cost);

/* The first line (0-based) where a and b differ, or -1 when they are
   the same text. */
int text_first_differing_line(const char *a, const char *b);

/* The first lone surrogate (U+D800..U+DFFF, which a Python str may hold
   and which our strings carry as the 3 bytes ED A0..BF xx) in s[0..n):
   true and its position in code points, as Python's "can't encode
   character ... in position N" counts them. */
bool text_find_surrogate(const char *s, size_t n, size_t *position,
                         unsigned *code_point);

/* s.lstrip() without a copy: where s's first non-space character is. */
const char *text_skip_space(const char *s);
/* len(s.rstrip()), without a copy. */
size_t text_rstrip_len(const char *s);
char *text_rstrip(Arena *a, const char *s);
bool text_startswith(const char *s, const char *prefix);
bool text_endswith(const char *s, const char *suffix);

#endif
