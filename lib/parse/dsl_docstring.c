/*
 * dsl_docstring.c — a function's final docstring (clinic.py's
 * format_docstring): the signature line Python's inspect module reads
 * back ("name($self, /, a, b=1, *, c)\n--\n\n"), the summary-line rule,
 * and the per-parameter documentation put in place of {parameters}.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/converters.h"
#include "parse/dsl_int.h"
#include "base/text.h"

/* Text built in an arena (the docstring is formatted in a scratch step):
   no heap buffer to free, and what is built needs no copy at the end. */
typedef struct Text {
    Arena *a;
    ArenaText t;
} Text;

#define TEXT_INIT(c) { (c)->arena, { NULL, 0, 0 } }

static inline void tx_add(Text *x, const char *s, size_t n)
{
    ArenaText *t = &x->t;
    if (t->len + n + 1 <= t->cap) {
        memcpy(t->text + t->len, s, n);
        t->len += n;
        t->text[t->len] = '\0';
    } else {
        arena_text_add(x->a, t, s, n);
    }
}

static inline void tx_addc(Text *x, char ch)
{
    tx_add(x, &ch, 1);
}

static inline void tx_adds(Text *x, const char *s)
{
    tx_add(x, s, strlen(s));
}

/* Room for n more bytes (and the NUL) in one allocation, where the
   length is known or bounded beforehand: the adds that follow are then
   copies in place, not the doubling of the first 64 bytes. */
static void tx_reserve(Text *x, size_t n)
{
    ArenaText *t = &x->t;
    if (t->len + n + 1 <= t->cap)
        return;
    char *grown = arena_alloc_uninit(x->a, t->len + n + 1);
    if (t->len)
        memcpy(grown, t->text, t->len);
    grown[t->len] = '\0';
    t->text = grown;
    t->cap = t->len + n + 1;
}

/* What was built ("" when nothing was). */
static inline const char *tx_str(const Text *x)
{
    return x->t.text ? x->t.text : "";
}

static size_t rstrip_len(const char *s, size_t n)
{
    while (n > 0 && text_is_py_space(s[n - 1]))
        n--;
    return n;
}

/* len() of a Python str of n bytes: code points, not bytes (the bytes
   less the UTF-8 continuation bytes; eight ASCII bytes at a time). */
static size_t py_len(const char *s, size_t n)
{
    size_t i = 0, cont = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        if (!(x & 0x8080808080808080u))
            continue;
        for (size_t k = i; k < i + 8; k++)
            cont += ((unsigned char)s[k] & 0xC0) == 0x80;
    }
    /* the tail: counted only when it has a byte from 0x80 on */
    unsigned char high = 0;
    for (size_t k = i; k < n; k++)
        high |= (unsigned char)s[k];
    if (high & 0x80)
        for (; i < n; i++)
            cont += ((unsigned char)s[i] & 0xC0) == 0x80;
    return n - cont;
}

/* The pieces of a signature, the same for Function.signature and
   full_signature (which differ in the name and the wrapping): each
   parameter's text with its width, the ']'s that close the groups, and
   whether a trailing '/' follows. */
typedef struct SigItem {
    const char *text;
    size_t len;              /* strlen(text) */
    size_t width;            /* py_len(text) */
} SigItem;

typedef struct SigParts {
    SigItem *items;
    size_t n;
    int close_brackets;
    bool trailing_slash;
} SigParts;

static void sig_push(SigParts *sp, const char *text, size_t len)
{
    sp->items[sp->n].text = text;
    sp->items[sp->n].len = len;
    sp->items[sp->n].width = py_len(text, len);
    sp->n++;
}

static void fix_right_bracket_count(Text *out, int *count, int desired)
{
    for (; *count < desired; (*count)++)
        tx_addc(out, '[');
    for (; *count > desired; (*count)--)
        tx_addc(out, ']');
}

/* clinic.py asserts that no positional-only parameter follows one that
   is not ('/' leaves a *args before it as it is), and stops with a
   traceback; only when it writes a docstring. */
static void check_positional_only_first(Clinic *c, Parameter **ps, size_t n)
{
    bool positional_only = true;
    for (size_t i = 1; i < n; i++) {
        if (ps[i]->kind != PARAM_POSITIONAL_ONLY)
            positional_only = false;
        else if (!positional_only)
            clinic_fail(c, 0, "Exception raised during parsing:\n"
                              "AssertionError: positional-only parameter "
                              "'%s' follows one that is not", ps[i]->name);
    }
}

/* The pieces of the signature as format_docstring renders it. */
static void signature_parts(Clinic *c, const Function *f, Parameter **ps,
                            size_t n, SigParts *sp)
{
    /* right_bracket_count: only positional-only parameters are shown
       in brackets; self never is */
    int *right_bracket = arena_array_uninit(c->arena, int, n);   /* [0] unused */
    bool positional_only = true;
    for (size_t i = 1; i < n; i++) {
        if (ps[i]->kind != PARAM_POSITIONAL_ONLY)
            positional_only = false;
        right_bracket[i] = positional_only ? abs(ps[i]->group) : 0;
    }

    /* a trailing slash only if this is a real signature and the last
       shown parameter is positional-only */
    bool need_a_trailing_slash = false;
    if (!f->docstring_only)
        for (size_t i = n; i-- > 0;) {
            if (!ps[i]->converter->show_in_signature)
                continue;
            need_a_trailing_slash = ps[i]->kind == PARAM_POSITIONAL_ONLY;
            break;
        }

    /* at most "/,", "*," and the parameter's text per parameter */
    sp->items = arena_array_uninit(c->arena, SigItem, 3 * n + 1);
    sp->n = 0;
    bool need_slash = false, added_slash = false, added_star = false;
    int right_bracket_count = 0;
    for (size_t i = 0; i < n; i++) {
        Parameter *p = ps[i];
        Converter *conv = p->converter;
        if (!conv->show_in_signature)
            continue;
        bool is_self = conv->cls->is_self;
        /* a docstring-only signature is not machine-parsable: no self */
        if (is_self && f->docstring_only)
            continue;

        if (p->kind == PARAM_POSITIONAL_ONLY) {
            need_slash = !f->docstring_only;
        } else if (need_slash && !added_slash) {
            added_slash = true;
            sig_push(sp, "/,", 2);
        }
        if (p->kind == PARAM_KEYWORD_ONLY && !added_star) {
            added_star = true;
            sig_push(sp, "*,", 2);
        }

        const char *name = conv->signature_name && *conv->signature_name
                               ? conv->signature_name : p->name;
        const char *value = NULL;
        if (!param_kind_variable_length(p->kind) && converter_is_optional(conv))
            value = conv->py_default && *conv->py_default
                        ? conv->py_default
                        : converter_default_repr(c, conv);
        int brackets = (i ? right_bracket[i] : 0) - right_bracket_count;
        size_t name_len = strlen(name), value_len = value ? strlen(value) : 0;
        Text p_text = TEXT_INIT(c);   /* its text is the item's */
        /* the brackets, "$*", the name, "=value" and ',' */
        tx_reserve(&p_text, (size_t)abs(brackets) + 2 + name_len + 1 +
                                value_len + 1);
        fix_right_bracket_count(&p_text, &right_bracket_count,
                                i ? right_bracket[i] : 0);
        if (is_self)
            tx_addc(&p_text, '$');
        if (p->kind == PARAM_VAR_POSITIONAL) {
            tx_addc(&p_text, '*');
            /* 3.13: what follows *args is keyword-only, with no '*,' */
            if (c->dialect->fixes & FIX_KEYWORD_ONLY_AFTER_VARARG)
                added_star = true;
        } else if (p->kind == PARAM_VAR_KEYWORD) {
            tx_add(&p_text, "**", 2);
        }
        tx_add(&p_text, name, name_len);
        if (value) {
            tx_addc(&p_text, '=');
            tx_add(&p_text, value, value_len);
        }
        if (i != n - 1 || need_a_trailing_slash)
            tx_addc(&p_text, ',');
        sig_push(sp, tx_str(&p_text), p_text.t.len);
    }
    sp->close_brackets = right_bracket_count;
    sp->trailing_slash = need_a_trailing_slash;
}

/* One piece after the others at *w, in room made for it: a space before
   it, or when wrapping and the line would reach column 72, a new line
   indented under the opening parenthesis. */
static inline char *add_item(char *w, size_t *line_length, size_t indent,
                             bool wrap, bool first, const char *item,
                             size_t len, size_t width)
{
    if (first) {
        /* nothing before the first */
    } else if (wrap && *line_length + 1 + width >= 72) {
        *w++ = '\n';
        memset(w, ' ', indent);
        w += indent;
        *line_length = indent;
    } else {
        *w++ = ' ';
        (*line_length)++;
    }
    *line_length += width;
    memcpy(w, item, len);
    return w + len;
}

/* The signature for name: "name(a, b=1, /)", without the "--" line,
   wrapped before column 72 with continuation lines indented under the
   opening parenthesis (or not wrapped at all).  Never fails.  Written
   into one allocation sized for the longest it can be. */
static const char *signature_text(Clinic *c, const Function *f,
                                  const SigParts *sp, const char *name,
                                  bool wrap)
{
    /* 3.13: @text_signature gives it; getters and setters have none */
    if (f->forced_text_signature)
        return arena_printf(c->arena, "%s%s", name, f->forced_text_signature);
    if (f->kind == FUNC_GETTER || f->kind == FUNC_SETTER)
        return "";

    size_t name_len = strlen(name);
    size_t indent = py_len(name, name_len) + 1;   /* after "name(" */
    /* each item (and '/') after a space, or a new line and the indent */
    size_t separator = 1 + (wrap ? indent : 0);
    size_t room = name_len + 1 + (size_t)sp->close_brackets +
                  (sp->trailing_slash ? separator + 1 : 0) + 2;
    for (size_t i = 0; i < sp->n; i++)
        room += separator + sp->items[i].len;
    char *text = arena_alloc_uninit(c->arena, room), *w = text;
    memcpy(w, name, name_len);
    w += name_len;
    *w++ = '(';
    size_t line_length = indent;
    bool first = true;
    for (size_t i = 0; i < sp->n; i++) {
        w = add_item(w, &line_length, indent, wrap, first, sp->items[i].text,
                     sp->items[i].len, sp->items[i].width);
        first = false;
    }
    for (int i = 0; i < sp->close_brackets; i++)
        *w++ = ']';
    if (sp->trailing_slash)
        w = add_item(w, &line_length, indent, wrap, first, "/", 1, 1);
    *w++ = ')';
    *w = '\0';

    /* now fix up the places where the brackets look wrong (most
       signatures have no ']' at all) */
    if (!memchr(text, ']', (size_t)(w - text)) || !strstr(text, ", ]"))
        return text;
    Text fixed = TEXT_INIT(c);
    for (const char *s = text; *s; s++) {
        if (!strncmp(s, ", ]", 3)) {
            tx_adds(&fixed, ",] ");
            s += 2;
        } else {
            tx_addc(&fixed, *s);
        }
    }
    return tx_str(&fixed);
}

/* Function.signature and full_signature (model.h). */
static void record_signatures(Clinic *c, Function *f, Parameter **ps,
                              size_t n)
{
    bool new_or_init = f->kind == FUNC_METHOD_NEW ||
                       f->kind == FUNC_METHOD_INIT;
    SigParts sp = {0};
    if (!f->forced_text_signature && f->kind != FUNC_GETTER &&
        f->kind != FUNC_SETTER)
        signature_parts(c, f, ps, n, &sp);
    /* classes get just the name of the class for __new__ and __init__ */
    f->signature = signature_text(c, f, &sp,
                                  new_or_init ? f->cls->name : f->name, true);
    const char *full_name = f->full_name;
    const char *dot = strrchr(full_name, '.');
    if (new_or_init && dot)
        full_name = arena_strndup(c->arena, full_name,
                                  (size_t)(dot - full_name));
    f->full_signature = signature_text(c, f, &sp, full_name, false);
}

/* The lines of text[0..n) right-stripped, each non-empty one after
   prefix (of plen bytes), joined with "\n": textwrap.indent() of the
   text with its lines right-stripped. */
static void add_indented_rstripped(Text *out, const char *text, size_t n,
                                   const char *prefix, size_t plen)
{
    const char *end = text + n;
    for (const char *s = text;;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *line_end = nl ? nl : end;
        size_t len = rstrip_len(s, (size_t)(line_end - s));
        if (len) {
            tx_add(out, prefix, plen);
            tx_add(out, s, len);
        }
        if (!nl)
            break;
        tx_addc(out, '\n');
        s = nl + 1;
    }
}

static bool is_blank(const char *s)
{
    for (; *s; s++)
        if (!text_is_py_space(*s))
            return false;
    return true;
}

/* The text that replaces {parameters}: each documented parameter's name
   and its docstring, indented. */
static const char *parameters_section(Clinic *c, Parameter **ps, size_t n)
{
    Text out = TEXT_INIT(c);
    bool spacer_line = false;
    for (size_t i = 0; i < n; i++) {
        const char *doc = ps[i]->docstring;
        if (is_blank(doc))
            continue;
        if (spacer_line)
            tx_addc(&out, '\n');
        spacer_line = true;
        tx_add(&out, "  ", 2);
        tx_adds(&out, ps[i]->name);
        tx_addc(&out, '\n');
        add_indented_rstripped(&out, doc, rstrip_len(doc, strlen(doc)),
                               "    ", 4);
    }
    if (out.t.len)
        tx_addc(&out, '\n');
    return tx_str(&out);
}

/* The line of text holding *at: its start and its end (its '\n' or the
   end of the text). */
static const char *line_start(const char *text, const char *at)
{
    while (at > text && at[-1] != '\n')
        at--;
    return at;
}

/* Whether the line whose first '{' is curly (the line ending at
   line_end) names the {parameters} field, as linear_format reads it:
   the first '}' after that '{' closes "parameters". */
static bool is_parameters_field(const char *curly, const char *line_end,
                                const char **close)
{
    *close = memchr(curly, '}', (size_t)(line_end - curly));
    return *close && *close - curly - 1 == 10 &&
           !memcmp(curly + 1, "parameters", 10);
}

/* rstrip(linear_format(text, parameters=parameters)): each line whose
   first '{' opens "{parameters}" becomes the parameters' lines
   (right-stripped) indented as the marker was, or goes when there are
   none; every other line stays as it is.  A marker that does not stand
   alone on its line gets linear_format's complaint (the first '{' of
   each line is the one clinic.py looks at).  Only lines holding a '{'
   are looked at; the rest is copied in runs. */
static const char *format_parameters(Clinic *c, const char *text,
                                     const char *parameters)
{
    Text out = TEXT_INIT(c);
    const char *copied = text;   /* the text before it is in out */
    for (const char *curly = strchr(text, '{'); curly;) {
        const char *s = line_start(text, curly);
        const char *nl = strchr(curly, '\n');
        const char *end = nl ? nl : curly + strlen(curly);
        const char *close;
        if (is_parameters_field(curly, end, &close)) {
            if (close + 1 < end)
                clinic_failm(c, 0, MSG_TEXT_AFTER_MARKER,
                             MSG_ARGS("parameters"));
            for (const char *p = s; p < curly; p++)
                if (!text_is_py_space(*p))
                    clinic_failm(c, 0, MSG_TEXT_BEFORE_MARKER,
                                 MSG_ARGS("parameters"));
            tx_add(&out, copied, (size_t)(s - copied));
            if (*parameters) {
                add_indented_rstripped(&out, parameters, strlen(parameters),
                                       s, (size_t)(curly - s));
                tx_addc(&out, '\n');
            }
            copied = nl ? nl + 1 : end;
        }
        if (!nl)
            break;
        curly = strchr(nl + 1, '{');
    }
    tx_adds(&out, copied);
    /* the text is the scratch arena's: cut in place */
    if (!out.t.len)
        return "";
    out.t.text[rstrip_len(out.t.text, out.t.len)] = '\0';
    return out.t.text;
}

const char *dsl_format_docstring(Clinic *c, DslState *d, Function *f)
{
    bool new_or_init = f->kind == FUNC_METHOD_NEW ||
                       f->kind == FUNC_METHOD_INIT;
    bool getset = f->kind == FUNC_GETTER || f->kind == FUNC_SETTER;
    Parameter **ps = function_render_parameters(c, f);
    size_t n = f->nparameters;
    record_signatures(c, f, ps, n);
    /* no docstring for __new__/__init__ (or a getter or setter): no
       signature, nothing */
    if ((new_or_init || getset) && !*f->docstring)
        return f->docstring;

    /* a signature of its own (@text_signature) is not checked; a getter
       or setter has none */
    if (!f->forced_text_signature && !getset)
        check_positional_only_first(c, ps, n);
    const char *first_line = f->signature;
    bool dashes = !(f->docstring_only || getset);   /* "\n--\n" after it */
    const char *parameters = parameters_section(c, ps, n);

    /* the docstring body, right-stripped, and its lines (each
       right-stripped when added) */
    const char *docstring = f->docstring;
    const char *doc_end = docstring + rstrip_len(docstring, strlen(docstring));
    /* its lines, counted as far as 3: only 1, 2 and more matter */
    size_t nlines = 1;
    for (const char *s = docstring;
         nlines < 3 && (s = memchr(s, '\n', (size_t)(doc_end - s))); s++)
        nlines++;

    /* Enforce the summary line: either the docstring is empty, or it
       starts with a one-line summary followed by an empty line. */
    if (d->docstring_line)
        c->line = d->docstring_line;
    if (nlines >= 2) {
        const char *line1 = (const char *)memchr(docstring, '\n',
                                                 (size_t)(doc_end - docstring)) + 1;
        const char *nl = memchr(line1, '\n', (size_t)(doc_end - line1));
        if (rstrip_len(line1, (size_t)((nl ? nl : doc_end) - line1))) {
            if (d->docstring_line)
                c->line = d->docstring_line + 1;
            clinic_failm(c, 0, MSG_NO_SUMMARY, MSG_ARGS(f->full_name));
        }
    }

    /* 3.15: the summary line fits pydoc's 80 columns, with room for the
       indentation of a class's method (an error); so should the other
       lines (a warning); @permit_long_summary and
       @permit_long_docstring_body allow them, and are warned about when
       nothing needs them */
    if (c->dialect->summary_width) {
        unsigned width = f->cls && !function_kind_new_or_init(f->kind)
                             ? c->dialect->summary_width_method
                             : c->dialect->summary_width;
        size_t summary = 0, body = 0;
        size_t i = 0;
        for (const char *s = docstring;; i++) {
            const char *nl = memchr(s, '\n', (size_t)(doc_end - s));
            const char *e = nl ? nl : doc_end;
            size_t chars = 0;
            for (const char *p = s; p < e; p++)   /* code points, as len() */
                chars += ((unsigned char)*p & 0xC0) != 0x80;
            if (i == 0)
                summary = chars;
            else if (chars > body)
                body = chars;
            if (!nl)
                break;
            s = nl + 1;
        }
        const char *w = arena_printf(c->arena, "%u", width);
        if (summary > width) {
            if (!d->permit_long_summary)
                clinic_failm(c, 0, MSG_SUMMARY_TOO_LONG,
                             MSG_ARGS(f->full_name, w));
        } else if (d->permit_long_summary) {
            clinic_warnm(c, 0, MSG_REMOVE_PERMIT_LONG_SUMMARY,
                         MSG_ARGS(f->full_name));
        }
        if (body > width) {
            if (!d->permit_long_docstring_body)
                clinic_warnm(c, 0, MSG_BODY_TOO_LONG,
                             MSG_ARGS(f->full_name, w));
        } else if (d->permit_long_docstring_body) {
            clinic_warnm(c, 0, MSG_REMOVE_PERMIT_LONG_BODY,
                         MSG_ARGS(f->full_name));
        }
    }

    int markers = 0;
    for (const char *s = strchr(docstring, '{') ? docstring : "";
         (s = strstr(s, "{parameters}")); s += 12)
        markers++;
    if (markers > 1)
        clinic_fail(c, 0, "You may not specify {parameters} more than once "
                          "in a docstring!");

    /* the first line, then the lines with {parameters} after the first
       two when the docstring has no marker (just the summary line: an
       empty line after it, to keep it apart from the {parameters});
       an empty signature line goes, as linear_format drops it.  When
       that marker of ours is the only one there can be (none in the
       docstring, no '{' in the signature), the parameters go in its
       place here, as format_parameters() would put them, instead of a
       second pass copying the whole text. */
    bool direct = !markers && !strchr(first_line, '{');
    size_t plen = strlen(parameters);
    Text out = TEXT_INIT(c);
    tx_reserve(&out, strlen(first_line) + 4 + (size_t)(doc_end - docstring) +
                         2 * plen + 32);
    tx_adds(&out, first_line);
    if (dashes)
        tx_add(&out, "\n--\n", 4);
    bool empty_first = !*first_line && !dashes;
    size_t i = 0;
    for (const char *s = docstring;; i++) {
        const char *nl = memchr(s, '\n', (size_t)(doc_end - s));
        const char *line_end = nl ? nl : doc_end;
        if (i == 2 && !markers) {
            if (!direct) {
                tx_add(&out, "\n{parameters}", 13);
            } else if (plen) {
                /* the marker's line and its '\n' become the lines */
                tx_addc(&out, '\n');
                add_indented_rstripped(&out, parameters, plen, "", 0);
            }
        }
        if (i || !empty_first)
            tx_addc(&out, '\n');
        tx_add(&out, s, rstrip_len(s, (size_t)(line_end - s)));
        if (!nl)
            break;
        s = nl + 1;
    }
    bool marker_last = !markers && nlines <= 2;
    if (nlines == 1)
        tx_addc(&out, '\n');
    if (marker_last && !direct) {
        tx_add(&out, "\n{parameters}", 13);
    } else if (marker_last) {
        /* the last line: the lines and a '\n' after them */
        tx_addc(&out, '\n');
        if (plen) {
            add_indented_rstripped(&out, parameters, plen, "", 0);
            tx_addc(&out, '\n');
        }
    }
    if (!direct)
        return format_parameters(c, tx_str(&out), parameters);
    /* rstrip(), in place: the text is the scratch arena's */
    if (!out.t.len)
        return "";
    out.t.text[rstrip_len(out.t.text, out.t.len)] = '\0';
    return out.t.text;
}
