/*
 * dsl_docstring.c — a function's final docstring (clinic.py's
 * format_docstring): the signature line Python's inspect module reads
 * back ("name($self, /, a, b=1, *, c)\n--\n\n"), the summary-line rule,
 * and the per-parameter documentation put in place of {parameters}.
 */
#include <stdlib.h>
#include <string.h>

#include "converters.h"
#include "dsl_internal.h"
#include "text.h"

/* The parameters as render_parameters gives them: copies whose
   converters have run pre_render (which fixes self's name and whether
   it shows in the signature). */
static Parameter **render_parameters(Clinic *c, Function *f)
{
    Parameter **ps = arena_array_of(c->arena, Parameter *, f->nparameters);
    for (size_t i = 0; i < f->nparameters; i++) {
        Parameter *p = arena_new_of(c->arena, Parameter);
        *p = *f->parameters[i];
        p->converter = converter_copy(c, p->converter);
        p->converter->function = f;
        converter_pre_render(c, p->converter);
        ps[i] = p;
    }
    return ps;
}

/* The signature line, wrapped before column 72 with continuation lines
   indented under the opening parenthesis (or not wrapped at all). */
typedef struct Signature {
    StrBuf text;
    size_t line_length;
    size_t indent;
    bool first_parameter;
    bool wrap;
} Signature;

/* len() of a Python str: code points, not bytes. */
static size_t py_len(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void add_parameter(Signature *sig, const char *text)
{
    if (sig->first_parameter) {
        sig->first_parameter = false;
    } else if (sig->wrap && sig->line_length + 1 + py_len(text) >= 72) {
        sb_addc(&sig->text, '\n');
        for (size_t i = 0; i < sig->indent; i++)
            sb_addc(&sig->text, ' ');
        sig->line_length = sig->indent;
    } else {
        sb_addc(&sig->text, ' ');
        sig->line_length++;
    }
    sig->line_length += py_len(text);
    sb_adds(&sig->text, text);
}

static void fix_right_bracket_count(StrBuf *out, int *count, int desired)
{
    for (; *count < desired; (*count)++)
        sb_addc(out, '[');
    for (; *count > desired; (*count)--)
        sb_addc(out, ']');
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

/* The signature as format_docstring renders it, for name: "name(a, b=1,
   /)", without the "--" line.  Never fails. */
static const char *signature_text(Clinic *c, const Function *f,
                                  Parameter **ps, size_t n, const char *name,
                                  bool wrap)
{
    /* 3.13: @text_signature gives it; getters and setters have none */
    if (f->forced_text_signature)
        return arena_printf(c->arena, "%s%s", name, f->forced_text_signature);
    if (f->kind == FUNC_GETTER || f->kind == FUNC_SETTER)
        return "";
    /* right_bracket_count: only positional-only parameters are shown
       in brackets; self never is */
    int *right_bracket = arena_array_of(c->arena, int, n);
    bool positional_only = true;
    for (size_t i = 1; i < n; i++) {
        if (ps[i]->kind != PARAM_POSITIONAL_ONLY)
            positional_only = false;
        right_bracket[i] = positional_only ? abs(ps[i]->group) : 0;
    }

    Signature sig = {STRBUF_INIT, 0, 0, true, wrap};
    sb_adds(&sig.text, name);
    sb_addc(&sig.text, '(');

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

    bool need_slash = false, added_slash = false, added_star = false;
    int right_bracket_count = 0;
    sig.line_length = sig.indent = py_len(sig.text.buf);
    StrBuf p_text = STRBUF_INIT;
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
            add_parameter(&sig, "/,");
        }
        if (p->kind == PARAM_KEYWORD_ONLY && !added_star) {
            added_star = true;
            add_parameter(&sig, "*,");
        }

        sb_reset(&p_text);
        fix_right_bracket_count(&p_text, &right_bracket_count,
                                i ? right_bracket[i] : 0);
        if (is_self)
            sb_addc(&p_text, '$');
        if (p->kind == PARAM_VAR_POSITIONAL) {
            sb_addc(&p_text, '*');
            /* 3.13: what follows *args is keyword-only, with no '*,' */
            if (c->dialect->fixes & FIX_KEYWORD_ONLY_AFTER_VARARG)
                added_star = true;
        }
        sb_adds(&p_text, conv->signature_name && *conv->signature_name
                             ? conv->signature_name : p->name);
        if (p->kind != PARAM_VAR_POSITIONAL && converter_is_optional(conv)) {
            sb_addc(&p_text, '=');
            if (conv->py_default && *conv->py_default)
                sb_adds(&p_text, conv->py_default);
            else
                sb_adds(&p_text, py_repr(c->arena, &conv->default_value));
        }
        if (i != n - 1 || need_a_trailing_slash)
            sb_addc(&p_text, ',');
        add_parameter(&sig, p_text.buf);
    }
    sb_free(&p_text);

    fix_right_bracket_count(&sig.text, &right_bracket_count, 0);
    if (need_a_trailing_slash)
        add_parameter(&sig, "/");
    sb_addc(&sig.text, ')');

    /* now fix up the places where the brackets look wrong */
    StrBuf fixed = STRBUF_INIT;
    for (const char *s = sig.text.buf; *s; s++) {
        if (!strncmp(s, ", ]", 3)) {
            sb_adds(&fixed, ",] ");
            s += 2;
        } else {
            sb_addc(&fixed, *s);
        }
    }
    sb_free(&sig.text);
    return sb_take(&fixed, c->arena);
}

/* Function.signature and full_signature (model.h). */
static void record_signatures(Clinic *c, Function *f, Parameter **ps,
                              size_t n)
{
    bool new_or_init = f->kind == FUNC_METHOD_NEW ||
                       f->kind == FUNC_METHOD_INIT;
    /* classes get just the name of the class for __new__ and __init__ */
    f->signature = signature_text(c, f, ps, n,
                                  new_or_init ? f->cls->name : f->name, true);
    const char *full_name = f->full_name;
    const char *dot = strrchr(full_name, '.');
    if (new_or_init && dot)
        full_name = arena_strndup(c->arena, full_name,
                                  (size_t)(dot - full_name));
    f->full_signature = signature_text(c, f, ps, n, full_name, false);
}

/* textwrap.indent(s, prefix): prefix every line that is not blank. */
static void add_indented(StrBuf *out, const char *s, const char *prefix)
{
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) + 1 : strlen(s);
        bool blank = true;
        for (size_t i = 0; i < len; i++)
            if (!strchr(" \t\n\r\f\v\x1c\x1d\x1e\x1f", s[i]))
                blank = false;
        if (!blank)
            sb_adds(out, prefix);
        sb_add(out, s, len);
        s += len;
    }
}

/* The text that replaces {parameters}: each documented parameter's name
   and its docstring, indented. */
static const char *parameters_section(Clinic *c, Parameter **ps, size_t n)
{
    StrBuf out = STRBUF_INIT;
    bool spacer_line = false;
    for (size_t i = 0; i < n; i++) {
        if (!*text_strip(c->arena, ps[i]->docstring))
            continue;
        if (spacer_line)
            sb_addc(&out, '\n');
        spacer_line = true;
        sb_addf(&out, "  %s\n", ps[i]->name);
        add_indented(&out, text_rstrip_lines(c->arena,
                                             text_rstrip(c->arena,
                                                         ps[i]->docstring)),
                     "    ");
    }
    if (out.len)
        sb_addc(&out, '\n');
    return sb_take(&out, c->arena);
}

/* linear_format's complaints about a {parameters} marker that does not
   stand alone on its line (the first '{' of each line is the one
   clinic.py looks at). */
static void check_parameters_marker(Clinic *c, const char *docstring)
{
    const char *s = docstring;
    for (;;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        const char *curly = memchr(s, '{', len);
        if (curly) {
            const char *close = memchr(curly, '}', len - (size_t)(curly - s));
            if (close && close - curly - 1 == (ptrdiff_t)strlen("parameters") &&
                !strncmp(curly + 1, "parameters", 10)) {
                if (close + 1 < s + len)
                    clinic_failm(c, 0, MSG_TEXT_AFTER_MARKER,
                                 MSG_ARGS("parameters"));
                for (const char *p = s; p < curly; p++)
                    if (!strchr(" \t\n\r\f\v\x1c\x1d\x1e\x1f", *p))
                        clinic_failm(c, 0, MSG_TEXT_BEFORE_MARKER,
                                     MSG_ARGS("parameters"));
            }
        }
        if (!nl)
            break;
        s = nl + 1;
    }
}

const char *dsl_format_docstring(Clinic *c, DslState *d, Function *f)
{
    bool new_or_init = f->kind == FUNC_METHOD_NEW ||
                       f->kind == FUNC_METHOD_INIT;
    bool getset = f->kind == FUNC_GETTER || f->kind == FUNC_SETTER;
    Parameter **ps = render_parameters(c, f);
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
    const char *first_line = f->docstring_only || getset
        ? f->signature : arena_printf(c->arena, "%s\n--\n", f->signature);
    const char *parameters = parameters_section(c, ps, n);

    /* the docstring body, one entry per line */
    const char *docstring = text_rstrip(c->arena, f->docstring);
    StrList lines = {0};
    for (const char *s = docstring;;) {
        const char *nl = strchr(s, '\n');
        char *line = nl ? arena_strndup(c->arena, s, (size_t)(nl - s))
                        : arena_strdup(c->arena, s);
        strlist_push(c->arena, &lines, text_rstrip(c->arena, line));
        if (!nl)
            break;
        s = nl + 1;
    }

    /* Enforce the summary line: either the docstring is empty, or it
       starts with a one-line summary followed by an empty line. */
    if (d->docstring_line)
        c->line = d->docstring_line;
    if (lines.len >= 2) {
        if (*lines.items[1]) {
            if (d->docstring_line)
                c->line = d->docstring_line + 1;
            clinic_failm(c, 0, MSG_NO_SUMMARY, MSG_ARGS(f->full_name));
        }
    } else {
        /* just the summary line: add an empty line after it, to keep it
           apart from the {parameters} about to be added */
        strlist_push(c->arena, &lines, "");
    }

    int markers = 0;
    for (const char *s = docstring; (s = strstr(s, "{parameters}")); s += 12)
        markers++;
    if (markers > 1)
        clinic_fail(c, 0, "You may not specify {parameters} more than once "
                          "in a docstring!");

    /* an empty signature line goes, as linear_format drops it */
    StrBuf out = STRBUF_INIT;
    sb_adds(&out, first_line);
    for (size_t i = 0; i < lines.len; i++) {
        if (i == 2 && !markers)
            sb_adds(&out, "\n{parameters}");
        if (i || *first_line)
            sb_addc(&out, '\n');
        sb_adds(&out, lines.items[i]);
    }
    if (lines.len == 2 && !markers)
        sb_adds(&out, "\n{parameters}");
    const char *text = sb_take(&out, c->arena);

    check_parameters_marker(c, text);
    StrMap map = {0};
    strmap_set(c->arena, &map, "parameters", parameters);
    return text_rstrip(c->arena, text_linear_format(c->arena, text, &map));
}
