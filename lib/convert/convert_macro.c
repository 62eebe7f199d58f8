/*
 * convert_macro.c — functions a macro of the file defines, for --convert.
 * "FUNC1(acos, acos, 0, "doc")" at the top level of a file that says
 * "#define FUNC1(funcname, func, can_overflow, docstring) static
 * PyObject *math_##funcname(...) {...}" defines math_acos, which a table
 * registers: the use is written out as the preprocessor would expand it
 * (arguments put in, "#" and "##" applied), in the body's own lines, so
 * that the function can be read and converted like any other.  The
 * expansion is text the compiler rescans as it rescanned the macro's:
 * arguments are put in as written, which after the rescan is what the
 * preprocessor's expanded arguments give.  What is not read plainly (a
 * variadic macro, "#" before a long argument) is not expanded.
 */
#include <ctype.h>
#include <string.h>

#include "convert/convert_int.h"

#define MAX_MACRO_PARAMS 16

typedef struct Macro {
    const char *name;
    const char *params[MAX_MACRO_PARAMS];
    size_t nparams;
    const char *body;          /* its lines, the common indent gone */
} Macro;

static bool is_ident_char(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* The body's lines (joined by backslash-newline in the directive): each
   with its trailing blanks gone, the blank ones at both ends gone, the
   indent they all share gone. */
static const char *body_lines(Arena *a, const char *p, const char *end)
{
    const char *lines[512];
    size_t lens[512], n = 0;
    while (p <= end && n < 512) {
        const char *e = p;
        while (e < end && !(e[0] == '\\' && e + 1 < end && e[1] == '\n'))
            e++;
        const char *t = e;
        while (t > p && (t[-1] == ' ' || t[-1] == '\t'))
            t--;
        lines[n] = p;
        lens[n++] = (size_t)(t - p);
        p = e + 2;
    }
    if (p <= end)
        return NULL;
    size_t first = 0, last = n;
    while (first < last && !lens[first])
        first++;
    while (last > first && !lens[last - 1])
        last--;
    if (first == last)
        return NULL;
    size_t indent = (size_t)-1;
    for (size_t k = first; k < last; k++) {
        if (!lens[k])
            continue;
        size_t w = 0;
        while (w < lens[k] && (lines[k][w] == ' ' || lines[k][w] == '\t'))
            w++;
        if (indent == (size_t)-1) {
            indent = w;
            continue;
        }
        size_t same = 0;
        while (same < indent && same < w && lines[k][same] == lines[first][same])
            same++;
        indent = same;
    }
    StrBuf sb = STRBUF_INIT;
    for (size_t k = first; k < last; k++) {
        if (lens[k] > indent)
            sb_add(&sb, lines[k] + indent, lens[k] - indent);
        sb_addc(&sb, '\n');
    }
    sb_setlen(&sb, sb.len - 1);
    return sb_take(&sb, a);
}

/* "#define NAME(a, b) body" of the preprocessor token i; false for any
   other directive or a variadic macro. */
static bool read_macro(const Conv *cv, int i, Macro *m)
{
    const char *p = cv->text + cv->toks[i].start;
    const char *end = p + cv->toks[i].len;
    p = skip_blanks(p + 1, end);
    if (end - p < 7 || memcmp(p, "define", 6) || (p[6] != ' ' && p[6] != '\t'))
        return false;
    p = skip_blanks(p + 6, end);
    const char *name = p;
    while (p < end && is_ident_char(*p))
        p++;
    if (p == name || p >= end || *p != '(')
        return false;
    m->name = arena_strndup(cv->c->arena, name, (size_t)(p - name));
    m->nparams = 0;
    p++;
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' ||
                           (*p == '\\' && p + 1 < end && p[1] == '\n')))
            p += *p == '\\' ? 2 : 1;
        if (p < end && *p == ')' && !m->nparams)
            break;
        const char *pn = p;
        while (p < end && is_ident_char(*p))
            p++;
        if (p == pn || m->nparams == MAX_MACRO_PARAMS)
            return false;
        m->params[m->nparams++] = arena_strndup(cv->c->arena, pn,
                                                (size_t)(p - pn));
        p = skip_blanks(p, end);
        if (p < end && *p == ',') {
            p++;
            continue;
        }
        if (p < end && *p == ')')
            break;
        return false;
    }
    m->body = body_lines(cv->c->arena, p + 1, end);
    return m->body != NULL;
}

static int param_index(const Macro *m, const char *p, size_t n)
{
    for (size_t k = 0; k < m->nparams; k++)
        if (strlen(m->params[k]) == n && !memcmp(m->params[k], p, n))
            return (int)k;
    return -1;
}

/* The argument as "#" makes it a string: only a plain one (no quotes,
   no backslash), its blanks made single spaces. */
static bool stringize(StrBuf *out, const char *arg)
{
    sb_addc(out, '"');
    bool blank = false;
    for (const char *p = arg; *p; p++) {
        if (*p == '"' || *p == '\\' || *p == '\'' || *p == '/')
            return false;
        if (isspace((unsigned char)*p)) {
            blank = true;
            continue;
        }
        if (blank)
            sb_addc(out, ' ');
        blank = false;
        sb_addc(out, *p);
    }
    sb_addc(out, '"');
    return true;
}

/* The body with the arguments put in; NULL when it is not read. */
static const char *expand(Arena *a, const Macro *m, const char *const *args)
{
    StrBuf out = STRBUF_INIT;
    const char *p = m->body;
    bool paste = false;        /* a "##" was just written */
    while (*p) {
        char ch = *p;
        if (ch == '"' || ch == '\'') {
            const char *s = p++;
            while (*p && *p != ch) {
                if (*p == '\\' && p[1])
                    p++;
                p++;
            }
            if (!*p)
                goto fail;
            p++;
            sb_add(&out, s, (size_t)(p - s));
        } else if (ch == '/' && p[1] == '/') {
            goto fail;   /* it comments out the spliced lines after it */
        } else if (ch == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            if (!e)
                goto fail;
            sb_add(&out, p, (size_t)(e + 2 - p));
            p = e + 2;
        } else if (ch == '#' && p[1] == '#') {
            while (out.len && (out.buf[out.len - 1] == ' ' ||
                               out.buf[out.len - 1] == '\t'))
                out.len--;
            p += 2;
            while (*p == ' ' || *p == '\t')
                p++;
            paste = true;
            continue;
        } else if (ch == '#') {
            const char *q = p + 1;
            while (*q == ' ' || *q == '\t')
                q++;
            const char *e = q;
            while (is_ident_char(*e))
                e++;
            int k = param_index(m, q, (size_t)(e - q));
            if (k < 0 || !stringize(&out, args[k]))
                goto fail;
            p = e;
        } else if (is_ident_char(ch) && !isdigit((unsigned char)ch)) {
            const char *e = p;
            while (is_ident_char(*e))
                e++;
            int k = param_index(m, p, (size_t)(e - p));
            /* the line of the use, or a count: not the same written out */
            if ((e - p == 8 && !memcmp(p, "__LINE__", 8)) ||
                (e - p == 11 && !memcmp(p, "__COUNTER__", 11)))
                goto fail;
            if (k >= 0)
                sb_adds(&out, args[k]);
            else
                sb_add(&out, p, (size_t)(e - p));
            p = e;
        } else if (isdigit((unsigned char)ch)) {
            const char *e = p;
            while (is_ident_char(*e) || *e == '.')
                e++;
            sb_add(&out, p, (size_t)(e - p));
            p = e;
        } else {
            sb_addc(&out, ch);
            p++;
        }
        paste = false;
    }
    if (paste)
        goto fail;
    return sb_take(&out, a);
fail:
    sb_free(&out);
    return NULL;
}

static bool registered(const Conv *cv, const char *func)
{
    for (size_t t = 0; t < cv->ntables; t++)
        for (size_t e = 0; e < cv->tables[t].nentries; e++)
            if (cv->tables[t].entries[e].func &&
                !strcmp(cv->tables[t].entries[e].func, func))
                return true;
    return false;
}

/* The functions the text defines at its top level that a table of cv
   registers. */
static size_t defined_functions(const Conv *cv, const char *text,
                                const char ***out)
{
    Conv sub = {0};
    sub.c = cv->c;
    sub.text = text;
    sub.len = strlen(text);
    conv_lex(&sub);
    size_t n = 0;
    const char **names = arena_array_of(cv->c->arena, const char *,
                                        (size_t)sub.ntoks + 1);
    for (int i = 0; i + 1 < sub.ntoks; i++) {
        if (sub.toks[i].depth != 0 || sub.toks[i].kind != TK_IDENT ||
            !ctok_is(&sub, i + 1, "(") || sub.toks[i + 1].match < 0 ||
            !ctok_is(&sub, sub.toks[i + 1].match + 1, "{"))
            continue;
        const char *name = ctok_str(&sub, i);
        if (registered(cv, name))
            names[n++] = name;
    }
    *out = names;
    return n;
}

/* Another directive defines or undefines the macro (one definition per
   platform under #if, or a redefinition): which one a use takes is not
   read, so none is written out. */
static bool defined_again(const Conv *cv, int d, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < cv->ntoks; i++) {
        if (i == d || cv->toks[i].kind != TK_PP)
            continue;
        const char *p = cv->text + cv->toks[i].start;
        const char *end = p + cv->toks[i].len;
        p = skip_blanks(p + 1, end);
        size_t kw = (end - p >= 6 && !memcmp(p, "define", 6)) ? 6
                    : (end - p >= 5 && !memcmp(p, "undef", 5)) ? 5 : 0;
        if (!kw)
            continue;
        p = skip_blanks(p + kw, end);
        if ((size_t)(end - p) >= n && !memcmp(p, name, n) &&
            ((size_t)(end - p) == n || !is_ident_char(p[n])))
            return true;
    }
    return false;
}

/* Can a use stand at token i: at the start of a top-level statement. */
static bool at_statement_start(const Conv *cv, int i)
{
    if (cv->toks[i].depth != 0)
        return false;
    if (i == 0)
        return true;
    const Tok *p = &cv->toks[i - 1];
    return p->kind == TK_PP || ctok_is(cv, i - 1, ";") ||
           ctok_is(cv, i - 1, "}") || ctok_is(cv, i - 1, ")");
}

/* A top-level use of a function-like macro the file defines once, with
   as many arguments as the macro has parameters; next_use steps from
   one to the next, in the order of the defines, then of the text. */
typedef struct UseAt {
    int define_tok;            /* the "#define"; -1 before the first */
    int name_tok, close;       /* the use's name and its ")" */
    bool in_macro;             /* define_tok's uses are being read */
    Macro m;
    size_t nargs;
    const char *args[MAX_MACRO_PARAMS];   /* their text, arena copies */
} UseAt;

static bool next_use(Conv *cv, UseAt *u)
{
    Arena *a = cv->c->arena;
    for (;;) {
        if (!u->in_macro) {
            int d = u->define_tok + 1;
            while (d < cv->ntoks &&
                   (cv->toks[d].kind != TK_PP || cv->toks[d].depth != 0 ||
                    !read_macro(cv, d, &u->m) ||
                    defined_again(cv, d, u->m.name)))
                d++;
            if (d >= cv->ntoks)
                return false;
            u->define_tok = d;
            u->name_tok = d;
            u->in_macro = true;
        }
        for (int i = u->name_tok + 1; i + 1 < cv->ntoks; i++) {
            if (!ctok_ident(cv, i, u->m.name) || !ctok_is(cv, i + 1, "(") ||
                cv->toks[i + 1].match < 0 || !at_statement_start(cv, i))
                continue;
            int close = cv->toks[i + 1].match;
            int fields[MAX_MACRO_PARAMS + 1], ends[MAX_MACRO_PARAMS + 1];
            size_t nargs = ctok_split(cv, i + 2, close, fields, ends,
                                      MAX_MACRO_PARAMS + 1);
            if (nargs != u->m.nparams)
                continue;
            for (size_t k = 0; k < nargs; k++) {
                size_t s = cv->toks[fields[k]].start;
                u->args[k] = arena_strndup(a, cv->text + s,
                                           ctok_end(cv, ends[k] - 1) - s);
            }
            u->nargs = nargs;
            u->name_tok = i;
            u->close = close;
            return true;
        }
        u->in_macro = false;
    }
}

size_t conv_macro_uses(Conv *cv, MacroUse **out)
{
    Arena *a = cv->c->arena;
    size_t n = 0, cap = 0;
    MacroUse *uses = NULL;
    UseAt u = {.define_tok = -1};
    while (next_use(cv, &u)) {
        const char *text = expand(a, &u.m, u.args);
        if (!text)
            continue;
        const char **funcs;
        size_t nfuncs = defined_functions(cv, text, &funcs);
        if (!nfuncs)
            continue;
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 16;
            MacroUse *nu = arena_array_of(a, MacroUse, nc);
            if (n)
                memcpy(nu, uses, n * sizeof *nu);
            uses = nu;
            cap = nc;
        }
        uses[n++] = (MacroUse){
            .start = cv->toks[u.name_tok].start,
            .end = ctok_end(cv, u.close),
            .define_tok = u.define_tok, .macro = u.m.name,
            .expansion = text, .funcs = funcs, .nfuncs = nfuncs,
            .expand = false,
        };
    }
    *out = uses;
    return n;
}

const char *conv_expand_uses(const Conv *cv, const MacroUse *uses, size_t n,
                             bool drop_defines, size_t *out_len)
{
    StrBuf sb = STRBUF_INIT;
    size_t pos = 0;
    size_t blank_after = (size_t)-1;   /* a blank line was added there */
    /* the uses in the order of the text; each define before its uses */
    for (int d = -1;;) {
        /* the next thing to write: a use or a define all uses expand */
        size_t best = (size_t)-1, best_end = 0;
        const char *text = NULL;
        for (size_t k = 0; k < n; k++)
            if (uses[k].expand && uses[k].start >= pos && uses[k].start < best) {
                best = uses[k].start;
                best_end = uses[k].end;
                text = uses[k].expansion;
            }
        for (size_t k = 0; k < n; k++) {
            int t = uses[k].define_tok;
            size_t s = cv->toks[t].start;
            if (!drop_defines || t == d || s < pos || s >= best)
                continue;
            /* every use of the macro is expanded, and nothing else
               names it (its own #define does): the define goes */
            size_t all = 0, expanded = 0;
            for (size_t j = 0; j < n; j++)
                if (uses[j].define_tok == t) {
                    all++;
                    expanded += uses[j].expand;
                }
            if (expanded != all ||
                (size_t)ctok_count_ident(cv, uses[k].macro) != all + 1)
                continue;
            size_t e = ctok_end(cv, t), next;
            whole_lines(cv, &s, &e);
            if (blank_line_at(cv, e, &next) && s >= 2 &&
                cv->text[s - 1] == '\n' && cv->text[s - 2] == '\n')
                e = next;
            best = s;
            best_end = e;
            text = "";
            d = t;
        }
        if (!text)
            break;
        sb_add(&sb, cv->text + pos, best - pos);
        /* a use on the line after or before another line: a blank line
           between that and the function the use becomes */
        if (*text && best >= 2 && cv->text[best - 1] == '\n' &&
            cv->text[best - 2] != '\n' && best - 1 != blank_after)
            sb_addc(&sb, '\n');
        sb_adds(&sb, text);
        size_t next;
        if (*text && best_end < cv->len && cv->text[best_end] == '\n' &&
            !blank_line_at(cv, best_end + 1, &next)) {
            sb_addc(&sb, '\n');
            blank_after = best_end;
        }
        pos = best_end;
    }
    sb_add(&sb, cv->text + pos, cv->len - pos);
    *out_len = sb.len;
    return sb_take(&sb, cv->c->arena);
}

/* A type a macro's top-level use defines ("ComplexExtendsException(...,
   NAME_methods, ...)" writing out "static PyTypeObject _PyExc_NAME =
   {...}"): the owner of a table no other declaration owns, read from
   the use written out. */
void conv_macro_owners(Conv *cv)
{
    UseAt u = {.define_tok = -1};
    while (next_use(cv, &u)) {
        bool names_table = false;
        for (size_t k = 0; k < u.nargs; k++)
            for (size_t t = 0; t < cv->ntables; t++)
                if (!cv->tables[t].owner.module &&
                    !strcmp(cv->tables[t].name, u.args[k]))
                    names_table = true;
        const char *text = names_table ? expand(cv->c->arena, &u.m, u.args)
                                       : NULL;
        if (!text)
            continue;
        Conv sub = {0};
        sub.c = cv->c;
        sub.text = text;
        sub.len = strlen(text);
        sub.module = cv->module;
        conv_lex(&sub);
        conv_read_static_types(cv, &sub);
    }
}
