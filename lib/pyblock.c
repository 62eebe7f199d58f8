/*
 * pyblock.c — "python" blocks without Python.
 *
 * clinic.py exec()s a "python" block and captures what it prints.
 * CPython uses such blocks almost only to declare converter classes, so we
 * understand that declarative subset and refuse the rest, naming the
 * construct and its line:
 *
 *   class NAME_converter(BASE):          registered as converter "NAME"
 *   class NAME_return_converter(BASE):   registered as return converter
 *       attr = other = "literal"         class attributes (see below)
 *       """docstring"""  /  pass  /  print(LITERALS)
 *   print(LITERALS, sep=..., end=...)    its text becomes the block output
 *
 * BASE is one of clinic.py's converter classes (CConverter, int_converter,
 * self_converter, CReturnConverter, long_return_converter, ...) or a class
 * declared earlier in the same block: like the reference, whose exec() gets
 * a fresh namespace per block, a class of an earlier block is not visible.
 * `object` or no base makes an inert class, as in Python.
 *
 * Class attributes become ConverterClass / ReturnConverterClass fields and
 * set the matching attrs_set bit (CATTR_* / RATTR_* in converters.h, one
 * bit per attribute in model.h's field order); the converters module
 * inherits the others from the base.  Attributes clinic.py never reads
 * are accepted and ignored, as Python would; those it reads but we cannot
 * represent (default, name, methods, ...) are refused.
 *
 * Known gap: a base named after a built-in class that an earlier block of
 * the file redeclared (class int_converter(...)) resolves to the
 * redeclared class, where Python would still see clinic.py's own.
 */
#include "pyblock.h"

#include <stddef.h>
#include <string.h>

#include "converters.h"
#include "model.h"
#include "pyexpr.h"

/* ---- tokens and logical lines ------------------------------------------ */

typedef enum TokKind { TK_NAME, TK_NUMBER, TK_STRING, TK_OP } TokKind;

typedef struct Tok {
    TokKind kind;
    const char *s;
    size_t n;
    int line;                  /* file line */
} Tok;

typedef struct LogicalLine {
    int line;                  /* file line of its first token */
    int indent;                /* column, tabs to multiples of 8 */
    Tok *toks;
    size_t ntoks;
} LogicalLine;

typedef struct PyBlockParser {
    Clinic *c;
    const char *src;
    int first_line;            /* file line of the block's first body line */
    LogicalLine *lines;
    size_t nlines, caplines;
    /* what print() wrote: arena memory, so an error's longjmp leaks
       nothing */
    char *out;
    size_t outlen, outcap;

    /* classes declared so far in this block, by Python class name */
    struct LocalClass {
        const char *name;
        ConverterClass *conv;          /* one of these, or neither: inert */
        ReturnConverterClass *ret;
    } *classes;
    size_t nclasses, capclasses;
} PyBlockParser;

static const char refuse_tail[] =
    "clinic runs no Python code: a python block may only declare converter "
    "classes (class attributes set to literals) and print() literals.";

CLINIC_NORETURN static void refuse(PyBlockParser *p, int line,
                                   const char *construct)
{
    clinic_fail(p->c, line, "Unsupported construct in python block: %s.\n%s",
                construct, refuse_tail);
}

CLINIC_NORETURN static void syntax_error(PyBlockParser *p, int line,
                                         const char *msg)
{
    clinic_fail(p->c, line, "Exception raised during parsing:\n"
                "SyntaxError: %s", msg);
}

static char *tok_text(PyBlockParser *p, const Tok *t)
{
    return arena_strndup(p->c->arena, t->s, t->n);
}

static bool tok_is(const Tok *t, TokKind kind, const char *text)
{
    return t->kind == kind && t->n == strlen(text) &&
           memcmp(t->s, text, t->n) == 0;
}

static bool is_name_start(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           ch == '_' || ch >= 0x80;
}

static bool is_name_char(unsigned char ch)
{
    return is_name_start(ch) || (ch >= '0' && ch <= '9');
}

/* A string literal's prefix (r, b, u, f and their pairs, any case). */
static bool is_string_prefix(const char *s, size_t n)
{
    if (n == 0 || n > 2)
        return false;
    char a = (char)(s[0] | 0x20), b = n == 2 ? (char)(s[1] | 0x20) : 0;
    if (n == 1)
        return a == 'r' || a == 'b' || a == 'u' || a == 'f';
    return (a == 'r' && (b == 'b' || b == 'f')) ||
           (b == 'r' && (a == 'b' || a == 'f'));
}

/* The end of the string literal whose quote is at q; line is advanced
   over newlines inside it. */
static const char *skip_string(PyBlockParser *p, const char *q, int *line)
{
    char quote = *q;
    bool triple = q[1] == quote && q[2] == quote;
    int start = *line;
    const char *s = q + (triple ? 3 : 1);
    for (;;) {
        if (!*s)
            syntax_error(p, start, triple ?
                         "unterminated triple-quoted string literal" :
                         "unterminated string literal");
        if (*s == '\\' && s[1]) {
            if (s[1] == '\n')
                ++*line;
            s += 2;
            continue;
        }
        if (*s == '\n') {
            if (!triple)
                syntax_error(p, start, "unterminated string literal");
            ++*line;
        }
        if (*s == quote && (!triple || (s[1] == quote && s[2] == quote)))
            return s + (triple ? 3 : 1);
        s++;
    }
}

static const char *const operators[] = {
    "**=", "//=", ">>=", "<<=", "...",
    "==", "!=", "<=", ">=", "<<", ">>", "**", "//", "->", ":=", "+=", "-=",
    "*=", "/=", "%=", "&=", "|=", "^=", "@=",
};

static void add_line(PyBlockParser *p, LogicalLine *ll)
{
    if (p->nlines == p->caplines) {
        size_t cap = p->caplines ? p->caplines * 2 : 16;
        LogicalLine *lines = arena_array_of(p->c->arena, LogicalLine, cap);
        if (p->nlines)
            memcpy(lines, p->lines, p->nlines * sizeof *lines);
        p->lines = lines;
        p->caplines = cap;
    }
    p->lines[p->nlines++] = *ll;
}

static void add_tok(PyBlockParser *p, LogicalLine *ll, size_t *cap, Tok t)
{
    if (ll->ntoks == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        Tok *toks = arena_array_of(p->c->arena, Tok, *cap);
        if (ll->ntoks)
            memcpy(toks, ll->toks, ll->ntoks * sizeof *toks);
        ll->toks = toks;
    }
    ll->toks[ll->ntoks++] = t;
}

/* Python's tokenizer, as far as logical lines go: comments dropped,
   brackets and backslashes join physical lines, blank lines vanish. */
static void tokenize(PyBlockParser *p)
{
    const char *s = p->src;
    int line = p->first_line;
    int depth = 0;
    bool at_line_start = true;
    LogicalLine ll = { 0, 0, NULL, 0 };
    size_t cap = 0;
    int bracket_line = 0;

    while (*s) {
        if (at_line_start) {
            int col = 0;
            for (; *s == ' ' || *s == '\t' || *s == '\f'; s++)
                col = *s == '\t' ? (col / 8 + 1) * 8 : *s == '\f' ? 0 : col + 1;
            if (*s == '#' || *s == '\n' || *s == '\r' || !*s) {
                while (*s && *s != '\n')
                    s++;
                if (*s) {
                    s++;
                    line++;
                }
                continue;      /* blank or comment-only line */
            }
            ll.indent = col;
            ll.line = line;
            at_line_start = false;
        }
        unsigned char ch = (unsigned char)*s;
        if (ch == ' ' || ch == '\t' || ch == '\f' || ch == '\r') {
            s++;
        } else if (ch == '#') {
            while (*s && *s != '\n')
                s++;
        } else if (ch == '\\') {
            if (s[1] == '\n') {
                s += 2;
                line++;
            } else if (s[1] == '\r' && s[2] == '\n') {
                s += 3;
                line++;
            } else {
                syntax_error(p, line, "unexpected character after line "
                             "continuation character");
            }
        } else if (ch == '\n') {
            s++;
            line++;
            if (depth == 0) {
                if (ll.ntoks)
                    add_line(p, &ll);
                ll = (LogicalLine){ 0, 0, NULL, 0 };
                cap = 0;
                at_line_start = true;
            }
        } else if (is_name_start(ch)) {
            const char *start = s;
            int tline = line;
            while (is_name_char((unsigned char)*s))
                s++;
            if ((*s == '\'' || *s == '"') &&
                is_string_prefix(start, (size_t)(s - start))) {
                s = skip_string(p, s, &line);
                add_tok(p, &ll, &cap, (Tok){ TK_STRING, start,
                                             (size_t)(s - start), tline });
            } else {
                add_tok(p, &ll, &cap, (Tok){ TK_NAME, start,
                                             (size_t)(s - start), tline });
            }
        } else if (ch == '\'' || ch == '"') {
            const char *start = s;
            int tline = line;
            s = skip_string(p, s, &line);
            add_tok(p, &ll, &cap, (Tok){ TK_STRING, start,
                                         (size_t)(s - start), tline });
        } else if ((ch >= '0' && ch <= '9') ||
                   (ch == '.' && s[1] >= '0' && s[1] <= '9')) {
            const char *start = s;
            for (;;) {
                if (is_name_char((unsigned char)*s) || *s == '.') {
                    s++;
                } else if ((*s == '+' || *s == '-') &&
                           (s[-1] == 'e' || s[-1] == 'E') &&
                           !(start[0] == '0' && (start[1] | 0x20) == 'x')) {
                    s++;
                } else {
                    break;
                }
            }
            add_tok(p, &ll, &cap, (Tok){ TK_NUMBER, start,
                                         (size_t)(s - start), line });
        } else {
            size_t n = 1;
            for (size_t i = 0; i < sizeof operators / sizeof *operators; i++) {
                size_t len = strlen(operators[i]);
                if (strncmp(s, operators[i], len) == 0) {
                    n = len;
                    break;
                }
            }
            if (n == 1) {
                if (strchr("([{", ch)) {
                    if (depth++ == 0)
                        bracket_line = line;
                } else if (strchr(")]}", ch)) {
                    if (depth == 0)
                        syntax_error(p, line, arena_printf(p->c->arena,
                                     "unmatched '%c'", ch));
                    depth--;
                } else if (!strchr("+-*/%@&|^~<>=.,:;!", ch)) {
                    syntax_error(p, line, "invalid character");
                }
            }
            add_tok(p, &ll, &cap, (Tok){ TK_OP, s, n, line });
            s += n;
        }
    }
    if (depth)
        syntax_error(p, bracket_line, "'(' was never closed");
    if (ll.ntoks)
        add_line(p, &ll);
}

/* ---- expressions ------------------------------------------------------- */

/* The source of toks[from, to) for pyexpr_parse: tokens joined by spaces
   (comments and line breaks between them are gone). */
static char *join_tokens(PyBlockParser *p, const Tok *toks, size_t from,
                         size_t to)
{
    StrBuf sb = STRBUF_INIT;
    for (size_t i = from; i < to; i++) {
        if (i > from)
            sb_addc(&sb, ' ');
        sb_add(&sb, toks[i].s, toks[i].n);
    }
    return sb_take(&sb, p->c->arena);
}

static PyExpr *parse_expr(PyBlockParser *p, const Tok *toks, size_t from,
                          size_t to, int line)
{
    if (from >= to)
        syntax_error(p, line, "invalid syntax");
    PySyntaxError err = { NULL, NULL };
    PyExpr *e = pyexpr_parse(p->c->arena, join_tokens(p, toks, from, to),
                             &err);
    if (!e)
        syntax_error(p, line, err.msg ? err.msg : "invalid syntax");
    return e;
}

/* What a construct that is not a literal is, for the refusal message. */
static const char *describe_expr(PyBlockParser *p, const PyExpr *e)
{
    Arena *a = p->c->arena;
    if (e->kind == PX_CALL) {
        if (e->left->kind == PX_NAME)
            return arena_printf(a, "a call to %s()", e->left->id);
        if (e->left->kind == PX_ATTRIBUTE)
            return arena_printf(a, "a call to %s()", e->left->source);
        return "a function call";
    }
    if (e->kind == PX_NAME)
        return arena_printf(a, "the name '%s'", e->id);
    return arena_printf(a, "the expression '%s'", e->source);
}

static void output_add(PyBlockParser *p, const char *s, size_t n)
{
    if (p->outlen + n + 1 > p->outcap) {
        size_t cap = p->outcap ? p->outcap : 256;
        while (cap < p->outlen + n + 1)
            cap *= 2;
        char *buf = arena_alloc(p->c->arena, cap);
        if (p->outlen)
            memcpy(buf, p->out, p->outlen);
        p->out = buf;
        p->outcap = cap;
    }
    memcpy(p->out + p->outlen, s, n);
    p->outlen += n;
    p->out[p->outlen] = '\0';
}

/* str(value), as print() writes it. */
static void output_str(PyBlockParser *p, const PyValue *v)
{
    if (v->kind == PY_STR) {
        output_add(p, v->s, v->len);
    } else {
        const char *r = py_repr(p->c->arena, v);
        output_add(p, r, strlen(r));
    }
}

/* print(args, sep=, end=) with literal arguments. */
static void run_print(PyBlockParser *p, const PyExpr *call, int line)
{
    Arena *a = p->c->arena;
    PyValue sep = { .kind = PY_STR, .s = " ", .len = 1 };
    PyValue end = { .kind = PY_STR, .s = "\n", .len = 1 };
    for (size_t i = 0; i < call->nkeywords; i++) {
        const PyKeyword *kw = &call->keywords[i];
        PyValue v;
        if (!kw->arg || (strcmp(kw->arg, "sep") && strcmp(kw->arg, "end")))
            refuse(p, line, arena_printf(a, "print() with argument '%s'",
                                         kw->arg ? kw->arg : "**"));
        if (!pyexpr_literal_eval(a, kw->value, &v) ||
            (v.kind != PY_STR && v.kind != PY_NONE))
            refuse(p, line, arena_printf(a, "print() with %s=%s", kw->arg,
                                         kw->value->source));
        if (v.kind == PY_STR)
            *(strcmp(kw->arg, "sep") ? &end : &sep) = v;
    }
    for (size_t i = 0; i < call->nitems; i++) {
        PyValue v;
        if (call->items[i]->kind == PX_STARRED ||
            !pyexpr_literal_eval(a, call->items[i], &v))
            refuse(p, line, arena_printf(a, "print() of %s, which is not "
                                         "a literal",
                                         call->items[i]->source));
        if (i)
            output_str(p, &sep);
        output_str(p, &v);
    }
    output_str(p, &end);
}

/* An expression statement: print(), or a literal (a docstring) which
   Python evaluates and forgets. */
static void expression_statement(PyBlockParser *p, const Tok *toks,
                                 size_t from, size_t to, int line)
{
    PyExpr *e = parse_expr(p, toks, from, to, line);
    PyValue v;
    if (e->kind == PX_CALL && e->left->kind == PX_NAME &&
        strcmp(e->left->id, "print") == 0) {
        run_print(p, e, line);
        return;
    }
    if (pyexpr_literal_eval(p->c->arena, e, &v))
        return;
    refuse(p, line, describe_expr(p, e));
}

/* ---- class attributes -------------------------------------------------- */

/* A class under construction: exactly one of conv / ret, or neither for an
   inert class (base object). */
typedef struct ClassDef {
    const char *name;
    int line;
    ConverterClass *conv;
    ReturnConverterClass *ret;
} ClassDef;

typedef enum AttrType { A_STR, A_BOOL, A_TYPES, A_VALUE } AttrType;

typedef struct ConverterAttr {
    const char *name;
    unsigned bit;
    AttrType type;
    size_t offset;
} ConverterAttr;

#define CA(name, bit, type) \
    { #name, bit, type, offsetof(ConverterClass, name) }
#define CA_AS(pyname, field, bit, type) \
    { pyname, bit, type, offsetof(ConverterClass, field) }
static const ConverterAttr converter_attrs[] = {
    CA(type, CATTR_TYPE, A_STR),
    CA(c_default, CATTR_C_DEFAULT, A_STR),
    CA(py_default, CATTR_PY_DEFAULT, A_STR),
    CA(c_ignored_default, CATTR_C_IGNORED_DEFAULT, A_STR),
    CA(converter, CATTR_CONVERTER, A_STR),
    CA(format_unit, CATTR_FORMAT_UNIT, A_STR),
    CA(encoding, CATTR_ENCODING, A_STR),
    CA(subclass_of, CATTR_SUBCLASS_OF, A_STR),
    CA(signature_name, CATTR_SIGNATURE_NAME, A_STR),
    CA(default_type, CATTR_DEFAULT_TYPE, A_TYPES),
    CA(impl_by_reference, CATTR_IMPL_BY_REFERENCE, A_BOOL),
    CA(parse_by_reference, CATTR_PARSE_BY_REFERENCE, A_BOOL),
    CA(length, CATTR_LENGTH, A_BOOL),
    CA(show_in_signature, CATTR_SHOW_IN_SIGNATURE, A_BOOL),
    CA(broken_limited_capi, CATTR_BROKEN_LIMITED_CAPI, A_BOOL),
    CA_AS("default", default_value, CATTR_DEFAULT, A_VALUE),
};
#undef CA
#undef CA_AS

#define RA(name, bit) \
    { #name, bit, A_STR, offsetof(ReturnConverterClass, name) }
static const ConverterAttr return_converter_attrs[] = {
    RA(type, RATTR_TYPE),
    RA(cast, RATTR_CAST),
    RA(conversion_fn, RATTR_CONVERSION_FN),
    RA(unsigned_cast, RATTR_UNSIGNED_CAST),
};
#undef RA

/* Names clinic.py reads from a converter (instance state and methods)
   that a class attribute would change in ways we cannot represent. */
static const char *const converter_reserved[] = {
    "name", "py_name", "function", "parameter", "accept",
    "specified_type", "parser_name", "converter_init", "is_optional",
    "render", "_render_self", "_render_non_self", "length_name",
    "parse_argument", "simple_declaration", "declaration", "initialize",
    "modify", "post_parsing", "cleanup", "pre_render", "parse_arg",
    "_parse_arg", "set_template_dict", "parser_type", NULL,
};
static const char *const return_converter_reserved[] = {
    "return_converter_init", "declare", "err_occurred_if",
    "err_occurred_if_null_pointer", "render", NULL,
};

static bool in_list(const char *const *list, const char *name)
{
    for (; *list; list++)
        if (strcmp(*list, name) == 0)
            return true;
    return false;
}

static void set_attribute(PyBlockParser *p, ClassDef *cd, const char *name,
                          const PyExpr *value_expr, int line)
{
    Arena *a = p->c->arena;
    const ConverterAttr *table = NULL;
    size_t ntable = 0;
    const char *const *reserved = NULL;
    char *base = NULL;
    unsigned *attrs_set = NULL;

    if (cd->conv) {
        table = converter_attrs;
        ntable = sizeof converter_attrs / sizeof *converter_attrs;
        reserved = converter_reserved;
        base = (char *)cd->conv;
        attrs_set = &cd->conv->attrs_set;
    } else if (cd->ret) {
        table = return_converter_attrs;
        ntable = sizeof return_converter_attrs / sizeof *return_converter_attrs;
        reserved = return_converter_reserved;
        base = (char *)cd->ret;
        attrs_set = &cd->ret->attrs_set;
    }

    const ConverterAttr *attr = NULL;
    for (size_t i = 0; i < ntable; i++)
        if (strcmp(table[i].name, name) == 0)
            attr = &table[i];

    PyValue v;
    bool literal = pyexpr_literal_eval(a, value_expr, &v);
    if (attr && attr->type == A_TYPES && !literal) {
        const char *error = NULL;
        literal = pyexpr_eval(a, value_expr, &v, &error) &&
                  (v.kind == PY_TYPE || v.kind == PY_TUPLE);
    }
    if (!literal)
        refuse(p, line, arena_printf(a, "class attribute %s = %s, whose "
                                     "value is not a literal", name,
                                     value_expr->source));
    if (!attr) {
        if ((reserved && in_list(reserved, name)) ||
            (name[0] == '_' && name[1] == '_'))
            refuse(p, line, arena_printf(a, "setting '%s' in class %s",
                                         name, cd->name));
        return;     /* an attribute clinic never reads: inert, as in Python */
    }

    void *field = base + attr->offset;
    switch (attr->type) {
    case A_STR:
        if (v.kind == PY_NONE)
            *(const char **)field = NULL;
        else if (v.kind == PY_STR)
            *(const char **)field = arena_strndup(a, v.s, v.len);
        else
            refuse(p, line, arena_printf(a, "%s = %s (clinic expects a "
                                         "string or None)", name,
                                         value_expr->source));
        break;
    case A_BOOL:
        *(bool *)field = py_truthy(&v);
        break;
    case A_TYPES: {
        unsigned types = 0;
        if (v.kind == PY_TYPE) {
            types = v.types;
        } else if (v.kind == PY_TUPLE) {
            for (size_t i = 0; i < v.nitems; i++) {
                if (v.items[i].kind != PY_TYPE)
                    refuse(p, line, arena_printf(a, "default_type = %s",
                                                 value_expr->source));
                types |= v.items[i].types;
            }
        } else if (v.kind != PY_NONE) {
            refuse(p, line, arena_printf(a, "default_type = %s",
                                         value_expr->source));
        }
        *(unsigned *)field = types;
        break;
    }
    case A_VALUE:
        *(PyValue *)field = v;
        break;
    }
    *attrs_set |= attr->bit;
}

/* ---- statements -------------------------------------------------------- */

static const char *const keywords[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await",
    "break", "class", "continue", "def", "del", "elif", "else", "except",
    "finally", "for", "from", "global", "if", "import", "in", "is",
    "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
    "while", "with", "yield", NULL,
};

/* The refusal text for a statement starting with keyword kw. */
static const char *describe_keyword(PyBlockParser *p, const Tok *toks,
                                    size_t n, const char *kw)
{
    Arena *a = p->c->arena;
    if (!strcmp(kw, "def") || !strcmp(kw, "async"))
        return n > 1 && toks[1].kind == TK_NAME && strcmp(kw, "async")
               ? arena_printf(a, "a function definition (def %s)",
                              tok_text(p, &toks[1]))
               : "a function definition";
    if (!strcmp(kw, "for") || !strcmp(kw, "while"))
        return arena_printf(a, "a '%s' loop", kw);
    if (!strcmp(kw, "import") || !strcmp(kw, "from"))
        return "an import";
    if (!strcmp(kw, "class"))
        return "a nested class";
    return arena_printf(a, "%s '%s' statement",
                        strchr("aeiou", kw[0]) ? "an" : "a", kw);
}

/* One simple statement toks[from, to) at module level (cd NULL) or in a
   class body. */
static void simple_statement(PyBlockParser *p, ClassDef *cd, const Tok *toks,
                             size_t from, size_t to)
{
    Arena *a = p->c->arena;
    if (from == to)
        return;
    int line = toks[from].line;
    const Tok *t0 = &toks[from];

    if (tok_is(t0, TK_NAME, "pass") && to - from == 1)
        return;
    if (t0->kind == TK_NAME) {
        char *word = tok_text(p, t0);
        if (in_list(keywords, word) && strcmp(word, "None") &&
            strcmp(word, "True") && strcmp(word, "False") &&
            strcmp(word, "not") && strcmp(word, "lambda") &&
            strcmp(word, "await"))
            refuse(p, line, describe_keyword(p, toks + from, to - from, word));
    }
    if (tok_is(t0, TK_OP, "@"))
        refuse(p, line, "a decorator");

    /* find the assignment '='s at bracket depth 0 */
    size_t eqs[64], neq = 0;
    int depth = 0;
    for (size_t i = from; i < to; i++) {
        const Tok *t = &toks[i];
        if (t->kind != TK_OP)
            continue;
        if (t->n == 1 && strchr("([{", t->s[0]))
            depth++;
        else if (t->n == 1 && strchr(")]}", t->s[0]))
            depth--;
        else if (depth == 0 && tok_is(t, TK_OP, "=")) {
            if (neq == sizeof eqs / sizeof *eqs)
                refuse(p, line, "a chained assignment that long");
            eqs[neq++] = i;
        } else if (depth == 0 && t->n >= 2 && t->s[t->n - 1] == '=' &&
                   !tok_is(t, TK_OP, "==") && !tok_is(t, TK_OP, "!=") &&
                   !tok_is(t, TK_OP, "<=") && !tok_is(t, TK_OP, ">=")) {
            refuse(p, line, tok_is(t, TK_OP, ":=") ? "an assignment "
                   "expression (:=)" : "an augmented assignment");
        } else if (depth == 0 && tok_is(t, TK_OP, ":") && neq == 0 &&
                   !tok_is(t0, TK_NAME, "lambda")) {
            refuse(p, line, "an annotated assignment");
        }
    }

    if (neq == 0) {
        expression_statement(p, toks, from, to, line);
        return;
    }

    /* targets: each a plain name */
    size_t start = from;
    const char *names[64];
    for (size_t k = 0; k < neq; k++) {
        if (eqs[k] - start != 1 || toks[start].kind != TK_NAME ||
            in_list(keywords, tok_text(p, &toks[start]))) {
            if (eqs[k] == start)
                syntax_error(p, line, "invalid syntax");
            refuse(p, line, arena_printf(a, "assignment to '%s'",
                                         join_tokens(p, toks, start,
                                                     eqs[k])));
        }
        names[k] = tok_text(p, &toks[start]);
        start = eqs[k] + 1;
    }
    PyExpr *value = parse_expr(p, toks, start, to, line);
    if (!cd)
        refuse(p, line, arena_printf(a, "a module-level assignment (%s = "
                                     "...)", names[0]));
    for (size_t k = 0; k < neq; k++)
        set_attribute(p, cd, names[k], value, line);
}

/* Simple statements of toks[from, to), separated by ';'. */
static void simple_statements(PyBlockParser *p, ClassDef *cd,
                              const Tok *toks, size_t from, size_t to)
{
    int depth = 0;
    size_t start = from;
    for (size_t i = from; i < to; i++) {
        const Tok *t = &toks[i];
        if (t->kind != TK_OP || t->n != 1)
            continue;
        if (strchr("([{", t->s[0]))
            depth++;
        else if (strchr(")]}", t->s[0]))
            depth--;
        else if (t->s[0] == ';' && depth == 0) {
            if (i == start)
                syntax_error(p, t->line, "invalid syntax");
            simple_statement(p, cd, toks, start, i);
            start = i + 1;
        }
    }
    simple_statement(p, cd, toks, start, to);
}

static const char *const converter_bases[] = {
    "CConverter", "bool_converter", "defining_class_converter",
    "char_converter", "unsigned_char_converter", "byte_converter",
    "short_converter", "unsigned_short_converter", "int_converter",
    "unsigned_int_converter", "long_converter", "unsigned_long_converter",
    "long_long_converter", "unsigned_long_long_converter",
    "Py_ssize_t_converter", "slice_index_converter", "size_t_converter",
    "fildes_converter", "float_converter", "double_converter",
    "Py_complex_converter", "object_converter", "str_converter",
    "PyBytesObject_converter", "PyByteArrayObject_converter",
    "unicode_converter", "Py_UNICODE_converter", "Py_buffer_converter",
    "self_converter", NULL,
};
static const char *const return_converter_bases[] = {
    "CReturnConverter", "NoneType_return_converter", "bool_return_converter",
    "long_return_converter", "int_return_converter", "init_return_converter",
    "unsigned_long_return_converter", "unsigned_int_return_converter",
    "Py_ssize_t_return_converter", "size_t_return_converter",
    "double_return_converter", "float_return_converter", NULL,
};

/* Resolves the base class name as Python would in the block's namespace
   (the block's own classes, then clinic.py's globals). */
static void resolve_base(PyBlockParser *p, ClassDef *cd, const char *base,
                         int line)
{
    Arena *a = p->c->arena;
    for (size_t i = p->nclasses; i-- > 0;) {
        if (strcmp(p->classes[i].name, base) == 0) {
            if (p->classes[i].conv) {
                cd->conv = arena_new_of(a, ConverterClass);
                cd->conv->base = p->classes[i].conv;
            } else if (p->classes[i].ret) {
                cd->ret = arena_new_of(a, ReturnConverterClass);
                cd->ret->base = p->classes[i].ret;
            }
            return;
        }
    }
    if (in_list(converter_bases, base)) {
        const ConverterClass *b = converter_class_by_class_name(p->c, base);
        if (!b)
            refuse(p, line, arena_printf(a, "base class %s, which clinic "
                                         "does not know", base));
        cd->conv = arena_new_of(a, ConverterClass);
        cd->conv->base = b;
        return;
    }
    if (in_list(return_converter_bases, base)) {
        const ReturnConverterClass *b =
            return_converter_class_by_class_name(p->c, base);
        if (!b)
            refuse(p, line, arena_printf(a, "base class %s, which clinic "
                                         "does not know", base));
        cd->ret = arena_new_of(a, ReturnConverterClass);
        cd->ret->base = b;
        return;
    }
    if (strcmp(base, "object") == 0)
        return;
    PyExpr e = { .kind = PX_NAME, .id = base, .source = base };
    PyValue v;
    const char *error = NULL;
    if (!pyexpr_eval(a, &e, &v, &error))
        clinic_fail(p->c, line, "Exception raised during parsing:\n"
                    "NameError: name '%s' is not defined", base);
    refuse(p, line, arena_printf(a, "class %s(%s): %s is not a converter "
                                 "class", cd->name, base, base));
}

/* "class NAME[(BASE)]:" in ll; returns the index of the ':' token. */
static size_t class_header(PyBlockParser *p, const LogicalLine *ll,
                           ClassDef *cd)
{
    const Tok *t = ll->toks;
    size_t n = ll->ntoks, i = 1;
    if (n < 3 || t[1].kind != TK_NAME || in_list(keywords, tok_text(p, &t[1])))
        syntax_error(p, ll->line, "invalid syntax");
    cd->name = tok_text(p, &t[1]);
    cd->line = ll->line;
    const char *base = "object";
    i = 2;
    if (tok_is(&t[i], TK_OP, "(")) {
        size_t close = i + 1;
        while (close < n && !tok_is(&t[close], TK_OP, ")"))
            close++;
        if (close >= n)
            syntax_error(p, ll->line, "invalid syntax");
        if (close == i + 1) {
            /* class NAME(): no base */
        } else if (close == i + 2 && t[i + 1].kind == TK_NAME) {
            base = tok_text(p, &t[i + 1]);
        } else if (close == i + 3 && t[i + 1].kind == TK_NAME &&
                   tok_is(&t[i + 2], TK_OP, ",")) {
            base = tok_text(p, &t[i + 1]);
        } else {
            refuse(p, ll->line, arena_printf(p->c->arena,
                   "class %s(%s): only a single base class named directly "
                   "is supported", cd->name,
                   join_tokens(p, t, i + 1, close)));
        }
        i = close + 1;
    }
    if (i >= n || !tok_is(&t[i], TK_OP, ":"))
        syntax_error(p, ll->line, "expected ':'");
    resolve_base(p, cd, base, ll->line);
    if (cd->conv)
        cd->conv->class_name = cd->name;
    else if (cd->ret)
        cd->ret->class_name = cd->name;
    return i;
}

/* The class is complete: CConverterAutoRegister / CReturnConverterAuto-
   Register run now, and later classes of the block may derive from it. */
static void finish_class(PyBlockParser *p, ClassDef *cd)
{
    if (cd->conv)
        converter_register_class(p->c, cd->conv);
    else if (cd->ret)
        return_converter_register_class(p->c, cd->ret);
    if (p->nclasses == p->capclasses) {
        size_t cap = p->capclasses ? p->capclasses * 2 : 8;
        struct LocalClass *classes =
            arena_array_of(p->c->arena, struct LocalClass, cap);
        if (p->nclasses)
            memcpy(classes, p->classes, p->nclasses * sizeof *classes);
        p->classes = classes;
        p->capclasses = cap;
    }
    p->classes[p->nclasses++] =
        (struct LocalClass){ cd->name, cd->conv, cd->ret };
}

static bool line_starts_compound(const LogicalLine *ll)
{
    static const char *const compound[] = {
        "class", "def", "async", "for", "while", "if", "elif", "else", "try",
        "except", "finally", "with", NULL,
    };
    if (ll->toks[0].kind == TK_OP && tok_is(&ll->toks[0], TK_OP, "@"))
        return true;
    for (const char *const *k = compound; *k; k++)
        if (tok_is(&ll->toks[0], TK_NAME, *k))
            return true;
    return false;
}

static void run(PyBlockParser *p)
{
    size_t i = 0;
    while (i < p->nlines) {
        LogicalLine *ll = &p->lines[i];
        if (ll->indent != 0)
            clinic_fail(p->c, ll->line, "Exception raised during parsing:\n"
                        "IndentationError: unexpected indent");
        if (!tok_is(&ll->toks[0], TK_NAME, "class")) {
            if (line_starts_compound(ll)) {
                Tok *t = ll->toks;
                refuse(p, ll->line, tok_is(&t[0], TK_OP, "@") ? "a decorator"
                       : describe_keyword(p, t, ll->ntoks,
                                          tok_text(p, &t[0])));
            }
            simple_statements(p, NULL, ll->toks, 0, ll->ntoks);
            i++;
            continue;
        }

        ClassDef cd = { NULL, 0, NULL, NULL };
        size_t colon = class_header(p, ll, &cd);
        i++;
        if (colon + 1 < ll->ntoks) {
            /* class X(Y): body on the same line */
            simple_statements(p, &cd, ll->toks, colon + 1, ll->ntoks);
        } else {
            if (i >= p->nlines || p->lines[i].indent == 0)
                clinic_fail(p->c, ll->line, "Exception raised during parsing:"
                            "\nIndentationError: expected an indented block "
                            "after class definition on line %d", ll->line);
            int body_indent = p->lines[i].indent;
            for (; i < p->nlines && p->lines[i].indent != 0; i++) {
                LogicalLine *body = &p->lines[i];
                if (body->indent > body_indent)
                    clinic_fail(p->c, body->line, "Exception raised during "
                                "parsing:\nIndentationError: unexpected "
                                "indent");
                if (body->indent < body_indent)
                    clinic_fail(p->c, body->line, "Exception raised during "
                                "parsing:\nIndentationError: unindent does not "
                                "match any outer indentation level");
                if (line_starts_compound(body)) {
                    Tok *t = body->toks;
                    refuse(p, body->line, tok_is(&t[0], TK_OP, "@")
                           ? "a decorator"
                           : describe_keyword(p, t, body->ntoks,
                                              tok_text(p, &t[0])));
                }
                simple_statements(p, &cd, body->toks, 0, body->ntoks);
            }
        }
        finish_class(p, &cd);
    }
}

void pyblock_parse_block(Clinic *c, Block *block)
{
    PyBlockParser *p = arena_new_of(c->arena, PyBlockParser);
    p->c = c;
    p->src = block->input ? block->input : "";
    p->first_line = block->body_line > 0 ? block->body_line : block->line + 1;
    tokenize(p);
    run(p);
    block->output = p->out ? p->out : "";
}
