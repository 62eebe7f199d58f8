/*
 * convert_read.c — what a hand-written function is, for --convert: its
 * definition (return type, self, args, kwds), its docstring, the
 * declarations before its parse call and the call itself (format units,
 * kwlist, defaults from the initialisers), and how the rest of its body
 * uses what was parsed.  Each reader returns false with the reason
 * (refuse()) when what it reads is not of a form taken faithfully.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "convert/convert_int.h"
#include "convert/convert_units.h"

static const char *const parse_calls[] = {
    "PyArg_ParseTuple", "PyArg_ParseTupleAndKeywords", "PyArg_UnpackTuple",
    "PyArg_Parse", "PyArg_VaParse", "PyArg_VaParseTupleAndKeywords",
    "_PyArg_ParseTuple_SizeT", "_PyArg_ParseTupleAndKeywords_SizeT",
    "_PyArg_ParseStack", "_PyArg_ParseStackAndKeywords",
    "_PyArg_UnpackStack", "_PyArg_UnpackKeywords", "PyArg_ParseArray",
    "PyArg_ParseArrayAndKeywords", NULL
};

static const char *const statement_words[] = {
    "return", "if", "else", "while", "for", "do", "switch", "goto", "break",
    "continue", "case", "default", "sizeof", NULL
};

const char *const python_keywords[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await",
    "break", "class", "continue", "def", "del", "elif", "else", "except",
    "finally", "for", "from", "global", "if", "import", "in", "is",
    "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
    "while", "with", "yield", NULL
};

bool in_list(const char *const *list, const char *s)
{
    for (size_t i = 0; list[i]; i++)
        if (!strcmp(list[i], s))
            return true;
    return false;
}

void edit_add(Arena *a, Edits *ed, size_t start, size_t end,
                     const char *text)
{
    if (ed->n == ed->cap) {
        size_t nc = ed->cap ? 2 * ed->cap : 32;
        Edit *ne = arena_array_of(a, Edit, nc);
        if (ed->n)
            memcpy(ne, ed->e, ed->n * sizeof *ne);
        ed->e = ne;
        ed->cap = nc;
    }
    ed->e[ed->n++] = (Edit){start, end, text};
}
bool refuse(Func *f, ConvertRefusal why, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    f->why = why;
    f->why_text = arena_vprintf(f->cv->c->arena, fmt, ap);
    va_end(ap);
    return false;
}

size_t ctok_end(const Conv *cv, int i)
{
    return cv->toks[i].start + cv->toks[i].len;
}

/* The bytes [start, end) widened to whole lines when only blanks stand
   beside them on their lines. */
void whole_lines(const Conv *cv, size_t *start, size_t *end)
{
    size_t s = *start, e = *end;
    while (s > 0 && (cv->text[s - 1] == ' ' || cv->text[s - 1] == '\t'))
        s--;
    while (e < cv->len && (cv->text[e] == ' ' || cv->text[e] == '\t'))
        e++;
    if ((s == 0 || cv->text[s - 1] == '\n') &&
        (e == cv->len || cv->text[e] == '\n')) {
        *start = s;
        *end = e < cv->len ? e + 1 : e;
    }
}

bool blank_line_at(const Conv *cv, size_t at, size_t *next)
{
    size_t i = at;
    while (i < cv->len && (cv->text[i] == ' ' || cv->text[i] == '\t'))
        i++;
    if (i < cv->len && cv->text[i] == '\n') {
        *next = i + 1;
        return true;
    }
    return false;
}

/* ---- the definition ------------------------------------------------------ */

/* The type of a parameter or declaration written as tokens [from, to)
   plus stars: "const char *". */
const char *type_text(Conv *cv, int from, int to, int stars)
{
    StrBuf sb = STRBUF_INIT;
    for (int i = from; i < to; i++) {
        if (ctok_is(cv, i, "*")) {
            stars++;
            continue;
        }
        if (sb.len)
            sb_addc(&sb, ' ');
        sb_add(&sb, cv->text + cv->toks[i].start, cv->toks[i].len);
    }
    if (stars)
        sb_addc(&sb, ' ');
    for (int i = 0; i < stars; i++)
        sb_addc(&sb, '*');
    return sb_take(&sb, cv->c->arena);
}

static bool read_c_parameter(Func *f, int from, int to, const char **type,
                             const char **name, bool *unused);

/* O&'s function, when the file declares it, takes a void * or a pointer
   to the variable's type: the generated code passes the variable's
   address to it as a typed call, not through "...". */
static bool converter_takes(Func *f, const char *conv, const char *type)
{
    Conv *cv = f->cv;
    for (int i = 0; i + 1 < cv->ntoks; i++) {
        if (cv->toks[i].depth != 0 || !ctok_ident(cv, i, conv) ||
            !ctok_is(cv, i + 1, "(") || cv->toks[i + 1].match < 0)
            continue;
        int close = cv->toks[i + 1].match;
        if (!ctok_is(cv, close + 1, "{") && !ctok_is(cv, close + 1, ";"))
            continue;
        int fields[4], ends[4];
        if (ctok_split(cv, i + 2, close, fields, ends, 4) != 2)
            return false;
        const char *ptype, *pname;
        bool unused;
        if (!read_c_parameter(f, fields[1], ends[1], &ptype, &pname, &unused))
            return false;
        const char *want = arena_printf(cv->c->arena, "%s%s", type,
                                        type[strlen(type) - 1] == '*' ? "*"
                                                                      : " *");
        return !strcmp(ptype, "void *") || !strcmp(ptype, want);
    }
    return true;   /* a header declares it */
}

/* A parameter "TYPE *name" or "TYPE *Py_UNUSED(name)". */
static bool read_c_parameter(Func *f, int from, int to, const char **type,
                             const char **name, bool *unused)
{
    Conv *cv = f->cv;
    *unused = false;
    if (to - from >= 4 && ctok_is(cv, to - 1, ")") &&
        ctok_is(cv, to - 3, "(") && ctok_ident(cv, to - 4, "Py_UNUSED")) {
        *unused = true;
        *name = ctok_str(cv, to - 2);
        *type = type_text(cv, from, to - 4, 0);
        return true;
    }
    if (to - from < 2 || cv->toks[to - 1].kind != TK_IDENT)
        return false;
    for (int i = from; i < to - 1; i++)
        if (cv->toks[i].kind != TK_IDENT && !ctok_is(cv, i, "*"))
            return false;
    *name = ctok_str(cv, to - 1);
    *type = type_text(cv, from, to - 1, 0);
    return true;
}

/* A parameter of type PyObject *: "PyObject *" then a name, with
   qualifiers or attribute macros ("PyObject *dummy UNUSED"), or
   "Py_UNUSED(name)"; none of them change the function's type. */
static bool is_pyobject_parameter(const Conv *cv, int from, int to)
{
    if (to - from < 3 || !ctok_ident(cv, from, "PyObject") ||
        !ctok_is(cv, from + 1, "*"))
        return false;
    if (to - from == 6 && ctok_ident(cv, from + 2, "Py_UNUSED") &&
        ctok_is(cv, from + 3, "(") && ctok_is(cv, to - 1, ")"))
        return true;
    for (int i = from + 2; i < to; i++)
        if (cv->toks[i].kind != TK_IDENT)
            return false;
    return true;
}

bool body_uses(const Func *f, int from, int to, const char *name)
{
    for (int i = from; i < to; i++)
        if (ctok_ident(f->cv, i, name))
            return true;
    return false;
}

/* METH_NOARGS's second parameter ("void *unused", "PyObject *args
   UNUSED"): none of its names is used in the body. */
static bool noargs_parameter_unused(Func *f, int from, int to)
{
    /* the names after the type's "*": the type's own may be used */
    int star = from;
    while (star < to && !ctok_is(f->cv, star, "*"))
        star++;
    if (star < to)
        from = star + 1;
    for (int i = from; i < to; i++)
        if (f->cv->toks[i].kind == TK_IDENT &&
            body_uses(f, f->body_open, f->body_close, ctok_str(f->cv, i)))
            return false;
    return true;
}

/* The text defines the function at its top level. */
static bool defines_function(const Conv *cv, const char *name)
{
    for (int i = 0; i + 1 < cv->ntoks; i++)
        if (cv->toks[i].depth == 0 && ctok_ident(cv, i, name) &&
            ctok_is(cv, i + 1, "(") && cv->toks[i + 1].match > 0 &&
            ctok_is(cv, cv->toks[i + 1].match + 1, "{"))
            return true;
    return false;
}

#define MAX_CHAIN 8

/* name is the fragments seg[0..n) pasted: a parameter's stands for a
   non-empty run of identifier characters, any other for itself. */
static bool matches_chain(const char *name, const char *const *seg,
                          const size_t *len, const bool *param, size_t n)
{
    if (!n)
        return !*name;
    if (!param[0])
        return !strncmp(name, seg[0], len[0]) &&
               matches_chain(name + len[0], seg + 1, len + 1, param + 1, n - 1);
    for (size_t k = 1; name[k - 1] && (isalnum((unsigned char)name[k - 1]) ||
                                        name[k - 1] == '_'); k++)
        if (matches_chain(name + k, seg + 1, len + 1, param + 1, n - 1))
            return true;
    return false;
}

/* A file-level macro pastes the name together ("math_##name",
   "Py ## NAME ## Object"): the fragments a run of "##" joins, the
   macro's parameters standing for any, spell it. */
static bool pasted_by_macro(const Conv *cv, const char *name)
{
    for (int i = 0; i < cv->ntoks; i++) {
        size_t mlen;
        const char *m = ctok_define(cv, i, &mlen);
        if (!m)
            continue;
        const char *s = m + mlen;
        const char *end = cv->text + ctok_end(cv, i);
        /* the parameters' list, when the macro takes any */
        const char *params = NULL, *params_end = NULL;
        if (s < end && *s == '(') {
            params = s + 1;
            params_end = memchr(params, ')', (size_t)(end - params));
            if (!params_end)
                continue;
            s = params_end + 1;
        }
        for (const char *p = s; p + 1 < end; p++) {
            if (p[0] != '#' || p[1] != '#')
                continue;
            /* back to the run's first fragment */
            const char *q = p;
            for (;;) {
                while (q > s && (q[-1] == ' ' || q[-1] == '\t'))
                    q--;
                while (q > s && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
                    q--;
                const char *r = q;
                while (r > s && (r[-1] == ' ' || r[-1] == '\t'))
                    r--;
                if (r - s >= 2 && r[-1] == '#' && r[-2] == '#')
                    q = r - 2;
                else
                    break;
            }
            const char *seg[MAX_CHAIN];
            size_t len[MAX_CHAIN], n = 0;
            bool param[MAX_CHAIN];
            const char *at = q;
            for (;;) {
                while (at < end && (*at == ' ' || *at == '\t'))
                    at++;
                const char *e = at;
                while (e < end && (isalnum((unsigned char)*e) || *e == '_'))
                    e++;
                if (e == at || n == MAX_CHAIN)
                    break;
                seg[n] = at;
                len[n] = (size_t)(e - at);
                param[n] = false;
                for (const char *pp = params; pp && pp < params_end;) {
                    while (pp < params_end && !(isalnum((unsigned char)*pp) || *pp == '_'))
                        pp++;
                    const char *pe = pp;
                    while (pe < params_end && (isalnum((unsigned char)*pe) || *pe == '_'))
                        pe++;
                    if (pe > pp && (size_t)(pe - pp) == len[n] && !memcmp(pp, at, len[n]))
                        param[n] = true;
                    pp = pe;
                }
                n++;
                at = e;
                while (at < end && (*at == ' ' || *at == '\t'))
                    at++;
                if (end - at >= 2 && at[0] == '#' && at[1] == '#')
                    at += 2;
                else
                    break;
            }
            if (n >= 2 && matches_chain(name, seg, len, param, n))
                return true;
            p = at > p ? at - 1 : p + 1;
        }
    }
    return false;
}

/* The other entries of the file's tables that register the function:
   aliases ("copy" and "__copy__") of the first.  Their count. */
static size_t entries_naming(const Conv *cv, const char *name,
                             const Entry **first)
{
    size_t n = 0;
    *first = NULL;
    for (size_t ti = 0; ti < cv->ntables; ti++)
        for (size_t ei = 0; ei < cv->tables[ti].nentries; ei++) {
            const Entry *e = &cv->tables[ti].entries[ei];
            if (e->func_tok < 0 || !ctok_is(cv, e->func_tok, name))
                continue;
            if (!n++)
                *first = e;
        }
    return n;
}

bool entry_is_alias(const Conv *cv, const Entry *e)
{
    const Entry *first;
    return e->func && entries_naming(cv, e->func, &first) > 1 && first != e;
}

/* The flags of two entries spelled alike, token for token. */
static bool same_flags(const Conv *cv, const Entry *a, const Entry *b)
{
    if (a->flags_to - a->flags_from != b->flags_to - b->flags_from)
        return false;
    for (int k = 0; k < a->flags_to - a->flags_from; k++)
        if (strcmp(ctok_str(cv, a->flags_from + k),
                   ctok_str(cv, b->flags_from + k)))
            return false;
    return true;
}

/* A function behind more than one entry keeps them all working when
   clinic's wrapper is called as the function was: METH_O and
   METH_NOARGS (clinic writes the same flags and C signature), every
   entry with the same flags.  The entries past the first then name the
   wrapper. */
static bool read_aliases(Func *f, int uses)
{
    Conv *cv = f->cv;
    const Entry *first;
    size_t n = entries_naming(cv, f->entry->func, &first);
    f->nalias = 0;
    if (n < 2 || uses != (int)n + 1 || first != f->entry)
        return false;
    if (f->flags != FL_O && f->flags != FL_NOARGS)
        return false;
    for (size_t ti = 0; ti < cv->ntables; ti++)
        for (size_t ei = 0; ei < cv->tables[ti].nentries; ei++) {
            const Entry *e = &cv->tables[ti].entries[ei];
            if (e == f->entry || e->func_tok < 0 ||
                !ctok_is(cv, e->func_tok, f->entry->func))
                continue;
            if (!same_flags(cv, e, f->entry) || f->nalias == MAX_ALIASES)
                return false;
            f->alias[f->nalias++] = e;
        }
    return true;
}

/* The identifier at i is a struct, union or enum tag. */
static bool is_tag(const Conv *cv, int i)
{
    return i > 0 && (ctok_ident(cv, i - 1, "struct") ||
                     ctok_ident(cv, i - 1, "union") ||
                     ctok_ident(cv, i - 1, "enum"));
}

/* A METH_O or METH_NOARGS function the file also names elsewhere: calls
   it, declares it ("static PyObject *NAME(PyObject *, PyObject *);"),
   takes its address (a slot, another table's entry, a comparison).
   clinic's function keeps the name, and (self a PyObject *, which
   find_definition checks) the C signature those uses were written for:
   METH_O's is the function itself, where it was; METH_NOARGS's is the
   wrapper, which calls the _impl with self alone as the function ignored
   its second argument, and which the generated code defines, so a use
   before the include needs a declaration (f->first_call).  A tp_new or
   tp_init likewise: clinic's parser keeps the slot function's name and
   signature, and parses as it did.  A member of the same name (after
   "." or "->") is none of its uses. */
static bool read_calls(Func *f, int found)
{
    Conv *cv = f->cv;
    const char *name = f->entry->func;
    if (f->flags != FL_O && f->flags != FL_NOARGS && !f->entry->slot)
        return false;
    bool declared = false;
    int first_use = -1;
    for (int i = 0; i + 1 < cv->ntoks; i++) {
        if (!ctok_ident(cv, i, name) || i == found || i == f->entry->func_tok ||
            is_tag(cv, i) || ctok_is(cv, i - 1, ".") || ctok_is(cv, i - 1, "->"))
            continue;
        bool alias = false;
        for (size_t k = 0; k < f->nalias; k++)
            if (f->alias[k]->func_tok == i)
                alias = true;
        if (alias)
            continue;
        if (cv->toks[i].depth == 0) {
            /* a prototype: static PyObject *NAME(...); (tp_init: int) */
            bool returns = f->entry->slot == SLOT_INIT
                ? ctok_ident(cv, i - 1, "int")
                : ctok_is(cv, i - 1, "*") && ctok_ident(cv, i - 2, "PyObject");
            if (!ctok_is(cv, i + 1, "(") || cv->toks[i + 1].match < 0 ||
                !ctok_is(cv, cv->toks[i + 1].match + 1, ";") || !returns ||
                i > found)
                return false;
            declared = true;
        } else if (first_use < 0) {
            first_use = i;
        }
    }
    f->first_call = declared || f->flags == FL_O ? -1 : first_use;
    f->keep_name = true;
    return true;
}

bool find_definition(Func *f)
{
    Conv *cv = f->cv;
    const char *name = f->entry->func;
    int found = -1;
    for (int i = 0; i + 1 < cv->ntoks; i++) {
        if (cv->toks[i].depth != 0 || !ctok_ident(cv, i, name) ||
            !ctok_is(cv, i + 1, "(") || cv->toks[i + 1].match < 0)
            continue;
        int close = cv->toks[i + 1].match;
        if (!ctok_is(cv, close + 1, "{"))
            continue;
        if (found >= 0)
            return refuse(f, REFUSE_SHAPE, "%s is defined twice", name);
        found = i;
    }
    if (found < 0) {
        for (int i = 0; i < cv->ntoks; i++)
            if (cv->toks[i].kind == TK_PP &&
                strstr(ctok_str(cv, i), name))
                return refuse(f, REFUSE_HIDDEN_CALL, "%s is defined by a "
                              "macro", name);
        /* a header beside the file defines it (stringlib's) */
        conv_read_headers(cv);
        for (size_t k = 0; k < cv->nheaders; k++)
            if (defines_function(cv->headers[k], name))
                return refuse(f, REFUSE_ELSEWHERE, "%s is defined in %s",
                              name, cv->headers[k]->path);
        if (pasted_by_macro(cv, name)) {
            /* where a macro's use was written out, why it was left */
            for (size_t k = 0; cv->earlier && k < cv->earlier->nrefusals; k++)
                if (!strcmp(cv->earlier->refusals[k].func, name))
                    return refuse(f, cv->earlier->refusals[k].why,
                                  "%s (in a macro's expansion)",
                                  cv->earlier->refusals[k].text);
            return refuse(f, REFUSE_HIDDEN_CALL, "%s is defined by a macro "
                          "that pastes its name", name);
        }
        return refuse(f, REFUSE_ELSEWHERE, "%s is not defined in this file",
                      name);
    }
    /* "struct sock_recv" is a tag, of another name space */
    int uses = ctok_count_ident(cv, name);
    for (int i = 1; i < cv->ntoks; i++)
        if (ctok_ident(cv, i, name) && is_tag(cv, i))
            uses--;
    f->first_call = -1;
    f->keep_name = false;
    if (uses != 2 && !read_aliases(f, uses) && !read_calls(f, found))
        return refuse(f, REFUSE_REFERENCED, "%s is named outside its "
                      "definition and its table entry", name);
    f->name_tok = found;
    f->lparen = found + 1;
    f->rparen = cv->toks[found + 1].match;
    f->body_open = f->rparen + 1;
    f->body_close = cv->toks[f->body_open].match;
    f->line = cv->toks[found].line;
    if (f->body_close < 0)
        return refuse(f, REFUSE_SHAPE, "unbalanced braces");
    /* [static] PyObject * NAME; tp_init: [static] int NAME */
    int i = found;
    if (f->entry->slot == SLOT_INIT) {
        if (!ctok_ident(cv, i - 1, "int"))
            return refuse(f, REFUSE_SHAPE, "%s does not return int", name);
        i -= 1;
    } else {
        if (!ctok_is(cv, i - 1, "*") || !ctok_ident(cv, i - 2, "PyObject"))
            return refuse(f, REFUSE_SHAPE, "%s does not return PyObject *",
                          name);
        i -= 2;
    }
    while (i > 0 && (ctok_ident(cv, i - 1, "static") ||
                     ctok_ident(cv, i - 1, "inline")))
        i--;
    /* after a statement, or a macro's use at the top level
       ("FUNC2(atan2, m_atan2, "...")" ends in its ")") */
    bool after_use = i > 1 && ctok_is(cv, i - 1, ")") &&
                     cv->toks[i - 1].match > 0 &&
                     cv->toks[cv->toks[i - 1].match - 1].kind == TK_IDENT &&
                     cv->toks[cv->toks[i - 1].match - 1].depth == 0;
    if (i > 0 && !(cv->toks[i - 1].kind == TK_PP || ctok_is(cv, i - 1, ";") ||
                   ctok_is(cv, i - 1, "}") || after_use))
        return refuse(f, REFUSE_SHAPE, "%s's declaration has more than "
                      "static and PyObject *", name);
    f->decl_start = i;
    bool is_static = false;
    for (int k = i; k < found; k++)
        if (ctok_ident(cv, k, "static"))
            is_static = true;
    /* clinic's functions are static: another file may link to this one */
    if (!is_static)
        return refuse(f, REFUSE_REFERENCED, "%s is not static: another "
                      "file may call it", name);

    int fields[4], ends[4];
    size_t n = ctok_split(cv, f->lparen + 1, f->rparen, fields, ends, 4);
    size_t want = f->flags == FL_KEYWORDS ? 3 : 2;
    if (n != want && !(f->flags == FL_NOARGS && n == 1))
        return refuse(f, REFUSE_SHAPE, "%s has %zu parameters", name, n);
    const char *type, *pname;
    bool unused;
    if (!read_c_parameter(f, fields[0], ends[0], &type, &pname, &unused))
        return refuse(f, REFUSE_SHAPE, "%s's first parameter is not read",
                      name);
    f->self_name = pname;
    f->self_type = type;
    /* clinic's function takes self as written in some dialects, as a
       PyObject * in others (FIX_PYOBJECT_SELF); its tp_new's parser a
       PyTypeObject *, its tp_init's a PyObject * in all */
    const char *kept_self = f->entry->slot == SLOT_NEW ? "PyTypeObject *"
                                                       : "PyObject *";
    if (f->keep_name && strcmp(type, kept_self) &&
        (f->entry->slot || (cv->c->dialect->fixes & FIX_PYOBJECT_SELF)))
        return refuse(f, REFUSE_REFERENCED, "%s is named elsewhere, and its "
                      "self is no %s, which clinic's function takes%s", name,
                      kept_self, f->entry->slot ? "" : " in this dialect");
    f->self_unused = unused ||
                     !body_uses(f, f->body_open, f->body_close, pname);
    for (size_t k = 1; k < n; k++) {
        if (f->flags == FL_NOARGS && f->keep_name &&
            !is_pyobject_parameter(cv, fields[k], ends[k]))
            return refuse(f, REFUSE_REFERENCED, "%s is named elsewhere, and "
                          "its second parameter is no PyObject *", name);
        if (f->flags == FL_NOARGS && noargs_parameter_unused(f, fields[k], ends[k])) {
            f->arg_name = NULL;   /* whatever its spelling: never read */
            continue;
        }
        if (!read_c_parameter(f, fields[k], ends[k], &type, &pname, &unused))
            return refuse(f, REFUSE_SHAPE, "%s's parameter %zu is not read",
                          name, k + 1);
        if (strcmp(type, "PyObject *"))
            return refuse(f, REFUSE_SHAPE, "%s's parameter %s is no "
                          "PyObject *", name, pname);
        if (k == 1)
            f->arg_name = unused ? NULL : pname;
        else
            f->kwds_name = unused ? NULL : pname;
    }
    return true;
}

/* ---- the docstring --------------------------------------------------------- */

/* The token of "PyDoc_STRVAR(name, ..." at the top level; -1: none. */
static int docstring_variable(const Conv *cv, const char *name)
{
    for (int i = 0; i + 4 < cv->ntoks; i++)
        if (cv->toks[i].depth == 0 && ctok_ident(cv, i, "PyDoc_STRVAR") &&
            ctok_is(cv, i + 1, "(") && ctok_is(cv, i + 2, name) &&
            ctok_is(cv, i + 3, ","))
            return i;
    return -1;
}

/* The parameters a hand-written signature names, after its "(" ("x",
   "$module, x, /", "$self, a, b=None, /"), into names[]: their count,
   or -1 for a signature read otherwise (over lines, groups "[x]",
   "*args", a default with a comma or a bracket, a name twice); the
   default each is given, as written, into defaults[] (NULL: none). */
static int signature_parameters(Arena *a, const char *p, const char **names,
                                const char **defaults)
{
    const char *close = strchr(p, ')');
    const char *nl = strchr(p, '\n');
    if (!close || (nl && nl < close))
        return -1;
    int n = 0;
    while (p < close) {
        const char *e = memchr(p, ',', (size_t)(close - p));
        if (!e)
            e = close;
        const char *s = p, *t = e;
        while (s < t && *s == ' ')
            s++;
        const char *eq = s;
        while (eq < t && *eq != '=')
            eq++;
        if (eq < t)
            t = eq;
        else
            eq = NULL;
        while (t > s && t[-1] == ' ')
            t--;
        p = e + 1;
        if (t == s && !eq)
            continue;                       /* "f()" */
        if (*s == '$' || (t - s == 1 && (*s == '/' || *s == '*')))
            continue;
        if (n == MAX_PARAMS)
            return -1;
        for (const char *c = s; c < e; c++)
            if (*c == '(' || *c == '[')
                return -1;
        char *name = arena_strndup(a, s, (size_t)(t - s));
        if (!text_is_legal_py_identifier(name) ||
            in_list(python_keywords, name))
            return -1;
        for (int k = 0; k < n; k++)
            if (!strcmp(names[k], name))
                return -1;
        defaults[n] = NULL;
        if (eq) {
            const char *d = eq + 1, *de = e;
            while (d < de && *d == ' ')
                d++;
            while (de > d && de[-1] == ' ')
                de--;
            defaults[n] = arena_strndup(a, d, (size_t)(de - d));
        }
        names[n++] = name;
    }
    return n;
}

/* The paragraph at p runs over more lines than one. */
static bool multi_line_paragraph(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl && nl[1] && nl[1] != '\n';
}

bool read_docstring(Func *f)
{
    Conv *cv = f->cv;
    const Entry *e = f->entry;
    f->docvar_tok = f->docvar_shared = -1;
    const char *doc = NULL;
    int end;
    int from = e->doc_from, to = e->doc_to;
    if (from == to || (to - from == 1 && (ctok_ident(cv, from, "NULL") ||
                                          ctok_is(cv, from, "0")))) {
        doc = "";
    } else if (cv->toks[from].kind == TK_STRING) {
        doc = ctok_strings(cv, from, &end);
        if (doc && end != to)
            doc = NULL;
    } else if (ctok_ident(cv, from, "PyDoc_STR") && ctok_is(cv, from + 1, "(")) {
        doc = ctok_strings(cv, from + 2, &end);
        if (doc && !(ctok_is(cv, end, ")") && end + 1 == to))
            doc = NULL;
    } else if (to - from == 1 && cv->toks[from].kind == TK_IDENT) {
        const char *var = ctok_str(cv, from);
        int i = docstring_variable(cv, var);
        if (i >= 0) {
            doc = ctok_strings(cv, i + 4, &end);
            if (doc && !(ctok_is(cv, end, ")") && ctok_is(cv, end + 1, ";")))
                doc = NULL;
            else if (doc && ctok_count_ident(cv, var) == 2)
                f->docvar_tok = i;
            else if (doc)
                f->docvar_shared = i;
        } else {
            /* a header beside the file defines it: the text is taken,
               the header stays as it is */
            conv_read_headers(cv);
            for (size_t k = 0; !doc && k < cv->nheaders; k++) {
                Conv *h = cv->headers[k];
                i = docstring_variable(h, var);
                if (i < 0)
                    continue;
                doc = ctok_strings(h, i + 4, &end);
                if (!doc || !(ctok_is(h, end, ")") &&
                              (ctok_is(h, end + 1, ";") || end + 1 == h->ntoks ||
                               h->toks[end + 1].kind == TK_PP ||
                               ctok_ident(h, end + 1, "PyDoc_STRVAR"))))
                    return refuse(f, REFUSE_DOCSTRING, "the docstring %s in %s "
                                  "is not a plain string literal", var, h->path);
                f->doc_header = h->path;
                f->doc_var = var;
            }
        }
    }
    if (!doc)
        return refuse(f, REFUSE_DOCSTRING, "the docstring is not a plain "
                      "string literal");
    /* a hand-written signature: "name(...)\n--\n\n" or a first paragraph
       "name(...) -> ..." */
    size_t plen = strlen(e->pyname);
    f->nsig_names = -1;
    if (!strncmp(doc, e->pyname, plen) && doc[plen] == '(') {
        f->nsig_names = signature_parameters(cv->c->arena, doc + plen + 1,
                                             f->sig_names, f->sig_defaults);
        if (f->flags == FL_O && f->nsig_names == 1)
            f->o_pyname = f->sig_names[0];
        const char *dashes = strstr(doc, "\n--\n\n");
        const char *para = strstr(doc, "\n\n");
        const char *nl = strchr(doc, '\n');
        if (dashes)
            doc = dashes + 5;
        else if (para && !(nl == para && multi_line_paragraph(para + 2)))
            doc = para + 2;
        else if (!para && (!nl || !nl[strspn(nl, "\n")]))
            doc = "";   /* the signature line alone */
        /* else: the signature line stays as the summary line clinic
           wants before a first paragraph of more lines than one, and
           __doc__ stays what it was */
    }
    size_t n = strlen(doc);
    while (n && doc[n - 1] == '\n')
        n--;
    doc = arena_strndup(cv->c->arena, doc, n);
    if (strstr(doc, "*/") || strstr(doc, "[clinic"))
        return refuse(f, REFUSE_DOCSTRING, "the docstring holds \"*/\"");
    if (doc[0] == ' ' || doc[0] == '\t')
        return refuse(f, REFUSE_DOCSTRING, "the docstring's first line is "
                      "indented");
    /* the dialect's width: a class's method's, or a function's (a
       class's __new__ and __init__ are the type's) */
    const Dialect *dl = cv->c->dialect;
    unsigned width = f->table->owner.class_name && !e->slot
                         ? dl->summary_width_method : dl->summary_width;
    const char *why;
    doc = docstring_with_summary(cv->c->arena, doc, width, &why);
    if (!doc)
        return refuse(f, REFUSE_DOCSTRING, "%s", why);
    for (const char *p = doc; *p; p++)
        if ((unsigned char)*p < 0x20 && *p != '\n')
            return refuse(f, REFUSE_DOCSTRING, "the docstring holds a "
                          "control character");
    f->doc = doc;
    return true;
}

/* A positional-only parameter has no name a caller can give, so the
   hand-written signature's name for it is what inspect.signature() and
   help() showed: it stays the Python name ("a as v"), where the C
   variable's name would change the signature. */
static void name_positional_as_documented(Func *f)
{
    if (f->nsig_names != (int)f->nparams)
        return;
    for (size_t k = 0; k < f->npositional_only; k++)
        for (size_t j = f->npositional_only; j < f->nparams; j++)
            if (!strcmp(f->params[j].pyname, f->sig_names[k]))
                return;   /* a keyword parameter's name */
    for (size_t k = 0; k < f->npositional_only; k++)
        f->params[k].pyname = f->sig_names[k];
}

/* A Python literal clinic takes as any object's default: a plain string
   ('' or ""), an integer, None, True, False. */
static bool plain_python_literal(const char *s)
{
    size_t n = strlen(s);
    if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
        for (size_t i = 1; i + 1 < n; i++)
            if (s[i] == s[0] || s[i] == '\\' || (unsigned char)s[i] < 0x20)
                return false;
        return true;
    }
    if (!strcmp(s, "None") || !strcmp(s, "True") || !strcmp(s, "False"))
        return true;
    const char *p = s + (*s == '-');
    if (!*p)
        return false;
    for (; *p; p++)
        if (*p < '0' || *p > '9')
            return false;
    return true;
}

/* A parameter left out is NULL in C, which a signature cannot show
   (clinic's "<unrepresentable>": inspect.signature() fails on it); when
   the hand-written signature gave it a default, that stays what the
   signature shows, NULL what the C code gets (c_default), for an object
   converter; another converter, or a default that is no plain literal,
   is left. */
static bool default_as_documented(Func *f)
{
    if (f->nsig_names != (int)f->nparams)
        return true;
    for (size_t k = 0; k < f->nparams; k++) {
        Param *p = &f->params[k];
        const char *shown = f->sig_defaults[k];
        if (!shown || !p->def || strcmp(p->def, "NULL") ||
            strcmp(p->pyname, f->sig_names[k]))
            continue;
        if (strncmp(p->converter, "object", 6) || !plain_python_literal(shown))
            return refuse(f, REFUSE_DEFAULT, "the signature shows %s=%s, "
                          "where clinic's NULL would be <unrepresentable>",
                          p->pyname, shown);
        const char *conv = p->converter;
        p->converter = conv[6] == '('
            ? arena_printf(f->cv->c->arena, "object(c_default=\"NULL\", %s",
                           conv + 7)
            : "object(c_default=\"NULL\")";
        p->def = shown;
    }
    return true;
}

/* ---- the prelude: declarations, then the parse statement ----------------- */

static bool read_declaration(Func *f, int from, int semi, Decl *d)
{
    Conv *cv = f->cv;
    memset(d, 0, sizeof *d);
    d->from = from;
    d->semi = semi;
    int fields[MAX_DECLARATORS], ends[MAX_DECLARATORS];
    size_t n = ctok_split(cv, from, semi, fields, ends, MAX_DECLARATORS);
    if (!n || n > MAX_DECLARATORS)
        return false;
    for (size_t k = 0; k < n; k++) {
        Declarator *dr = &d->d[k];
        int a = fields[k], b = ends[k];
        int stop = b;
        for (int i = a; i < b; i++)
            if (ctok_is(cv, i, "=") || ctok_is(cv, i, "[")) {
                stop = i;
                break;
            }
        int name = stop - 1;
        if (name < a || cv->toks[name].kind != TK_IDENT)
            return false;
        int dstart = name;
        while (dstart > a && ctok_is(cv, dstart - 1, "*"))
            dstart--;
        if (k == 0) {
            d->spec_from = a;
            d->spec_to = dstart;
            if (dstart == a)
                return false;
            /* "const char * const name": a star before a const is
               the type's */
            for (int i = a; i < dstart; i++)
                if (cv->toks[i].kind != TK_IDENT &&
                    !(ctok_is(cv, i, "*") && ctok_ident(cv, i + 1, "const")))
                    return false;
            if (in_list(statement_words, ctok_str(cv, a)))
                return false;
        } else if (dstart != a) {
            return false;
        }
        dr->from = dstart;
        dr->to = b;
        dr->name = name;
        dr->stars = name - dstart;
        dr->init_from = dr->init_to = -1;
        int i = stop;
        while (i < b && ctok_is(cv, i, "[")) {
            dr->array = true;
            i = cv->toks[i].match + 1;
            if (i <= 0)
                return false;
        }
        if (i < b) {
            if (!ctok_is(cv, i, "="))
                return false;
            dr->init_from = i + 1;
            dr->init_to = b;
            if (dr->init_from == b)
                return false;
        }
    }
    d->nd = n;
    return true;
}

/* An initialiser that runs no code: no call but sizeof, no assignment. */
static bool initialiser_is_constant(const Conv *cv, int from, int to)
{
    for (int i = from; i < to; i++) {
        if (cv->toks[i].kind == TK_IDENT && ctok_is(cv, i + 1, "(") &&
            !ctok_ident(cv, i, "sizeof"))
            return false;
        if (ctok_is(cv, i, "=") || ctok_is(cv, i, "++") || ctok_is(cv, i, "--") ||
            (cv->toks[i].kind == TK_PUNCT && cv->toks[i].len == 2 &&
             cv->text[cv->toks[i].start + 1] == '=' &&
             !ctok_is(cv, i, "==") && !ctok_is(cv, i, "!=") &&
             !ctok_is(cv, i, "<=") && !ctok_is(cv, i, ">=")))
            return false;
    }
    return true;
}

/* An initialiser that only reads module state stays in the _impl, so it
   runs after the parsing: it may name no variable declared before it in
   the body (one the parse call may fill); the parsed variable's own
   initialiser is its default, read as one. */
static bool read_state_initialiser(Func *f, const Decl *d, const Declarator *dr)
{
    for (size_t k = 0; k <= f->ndecls; k++) {
        const Decl *other = k < f->ndecls ? &f->decls[k] : d;
        for (size_t j = 0; j < other->nd && &other->d[j] != dr; j++)
            if (body_uses(f, dr->init_from, dr->init_to,
                          ctok_str(f->cv, other->d[j].name)))
                return refuse(f, REFUSE_EFFECTS_BEFORE, "the initialiser of "
                              "%s reads %s, which would be read after the "
                              "parse call", ctok_str(f->cv, dr->name),
                              ctok_str(f->cv, other->d[j].name));
    }
    return true;
}

int find_semicolon(const Conv *cv, int from, int to)
{
    for (int i = from; i < to; i++) {
        if (ctok_is(cv, i, ";"))
            return i;
        if (cv->toks[i].kind == TK_PUNCT && cv->toks[i].match > i)
            i = cv->toks[i].match;
    }
    return -1;
}

static bool is_parse_call(const Conv *cv, int i)
{
    if (cv->toks[i].kind != TK_IDENT)
        return false;
    for (size_t k = 0; parse_calls[k]; k++)
        if (ctok_is(cv, i, parse_calls[k]))
            return true;
    return false;
}

static Declarator *find_variable(Func *f, const char *name, Decl **decl)
{
    for (size_t k = 0; k < f->ndecls; k++)
        for (size_t j = 0; j < f->decls[k].nd; j++)
            if (ctok_is(f->cv, f->decls[k].d[j].name, name)) {
                *decl = &f->decls[k];
                return &f->decls[k].d[j];
            }
    return NULL;
}

/* The kwlist's names: from a declaration in the body or at file scope
   "static char *kwlist[] = {"a", "", NULL};". */
static bool read_kwlist(Func *f, int from, int to, const char ***names,
                        size_t *nnames)
{
    Conv *cv = f->cv;
    /* (char **)kwlist */
    if (ctok_is(cv, from, "(") && cv->toks[from].match > from &&
        cv->toks[from].match < to)
        from = cv->toks[from].match + 1;
    if (to - from != 1 || cv->toks[from].kind != TK_IDENT)
        return refuse(f, REFUSE_SHAPE, "the kwlist is not a variable");
    const char *name = ctok_str(cv, from);
    int open = -1;
    Decl *decl;
    Declarator *dr = find_variable(f, name, &decl);
    if (dr) {
        if (dr->init_from < 0 || !ctok_is(cv, dr->init_from, "{"))
            return refuse(f, REFUSE_SHAPE, "the kwlist %s has no "
                          "initialiser", name);
        open = dr->init_from;
        /* a variable of the body: only the body can name it */
        int uses = 0;
        for (int i = f->body_open; i < f->body_close; i++)
            uses += ctok_ident(cv, i, name);
        if (decl->nd != 1 || uses != 2)
            return refuse(f, REFUSE_REFERENCED, "the kwlist %s is used "
                          "elsewhere", name);
        decl->is_kwlist = true;
    } else {
        for (int i = 0; i + 4 < cv->ntoks; i++)
            if (cv->toks[i].depth == 0 && ctok_ident(cv, i, name) &&
                ctok_is(cv, i + 1, "[") && ctok_is(cv, i + 2, "]") &&
                ctok_is(cv, i + 3, "=") && ctok_is(cv, i + 4, "{")) {
                open = i + 4;
                int s = i;
                while (s > 0 && cv->toks[s - 1].kind == TK_IDENT)
                    s--;
                while (s > 0 && ctok_is(cv, s - 1, "*"))
                    s--;
                while (s > 0 && cv->toks[s - 1].kind == TK_IDENT)
                    s--;
                int semi = cv->toks[open].match + 1;
                if (!ctok_is(cv, semi, ";"))
                    break;
                if (ctok_count_ident(cv, name) == 2) {
                    f->kwlist_decl_from = s;
                    f->kwlist_decl_semi = semi;
                } else {
                    f->kwlist_shared_from = s;
                    f->kwlist_shared_semi = semi;
                    f->kwlist_name = name;
                }
                break;
            }
        if (open < 0)
            return refuse(f, REFUSE_SHAPE, "no declaration of the kwlist %s",
                          name);
    }
    int close = cv->toks[open].match;
    int fields[MAX_PARAMS + 1], ends[MAX_PARAMS + 1];
    size_t n = ctok_split(cv, open + 1, close, fields, ends, MAX_PARAMS + 1);
    if (n == 0 || n > MAX_PARAMS + 1)
        return refuse(f, REFUSE_SHAPE, "the kwlist %s is not read", name);
    const char **out = arena_array_of(cv->c->arena, const char *, n);
    for (size_t k = 0; k + 1 < n; k++) {
        int end, at = fields[k];
        /* (char *)"name", C++'s spelling of the same */
        if (ctok_is(cv, at, "(") && cv->toks[at].match == at + 3 &&
            ctok_ident(cv, at + 1, "char") && ctok_is(cv, at + 2, "*"))
            at += 4;
        out[k] = ctok_strings(cv, at, &end);
        if (!out[k] || end != ends[k])
            return refuse(f, REFUSE_SHAPE, "the kwlist %s holds a name that "
                          "is no string literal", name);
    }
    if (!(ends[n - 1] - fields[n - 1] == 1 &&
          (ctok_ident(cv, fields[n - 1], "NULL") || ctok_is(cv, fields[n - 1], "0"))))
        return refuse(f, REFUSE_SHAPE, "the kwlist %s does not end with "
                      "NULL", name);
    *names = out;
    *nnames = n - 1;
    return true;
}

/* A C integer or floating literal, as Python reads it; NULL: not one. */
static const char *number_default(Func *f, int from, int to, bool floating)
{
    Conv *cv = f->cv;
    bool neg = ctok_is(cv, from, "-");
    if (neg)
        from++;
    if (to - from != 1 || cv->toks[from].kind != TK_NUMBER)
        return NULL;
    const char *s = ctok_str(cv, from);
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    for (const char *p = s; *p; p++) {
        if (isdigit((unsigned char)*p) || (hex && isxdigit((unsigned char)*p)) ||
            (p == s + 1 && hex))
            continue;
        if (floating && !hex && (*p == '.' || *p == 'e' || *p == 'E' ||
                                 ((*p == '+' || *p == '-') && p > s &&
                                  (p[-1] == 'e' || p[-1] == 'E'))))
            continue;
        return NULL;   /* a suffix, or not a Python literal */
    }
    /* an octal "0755" is no Python literal */
    if (!hex && s[0] == '0' && isdigit((unsigned char)s[1]) &&
        !strpbrk(s, ".eE"))
        return NULL;
    return arena_printf(cv->c->arena, "%s%s", neg ? "-" : "", s);
}

static const char *plain_c_string(Func *f, int from, int to)
{
    Conv *cv = f->cv;
    if (to - from != 1 || cv->toks[from].kind != TK_STRING)
        return NULL;
    const char *s = ctok_str(cv, from);
    if (s[0] != '"')
        return NULL;
    for (const char *p = s; *p; p++)
        if (*p == '\\' || (unsigned char)*p >= 0x7f || (unsigned char)*p < 0x20)
            return NULL;
    return s;
}

/* The parameter's default from its variable's initialiser. */
static bool take_default(Func *f, Param *p)
{
    Conv *cv = f->cv;
    Declarator *dr = p->dr;
    if (dr->init_from < 0)
        return refuse(f, REFUSE_UNINITIALISED, "the optional %s has no "
                      "initialiser: it is used uninitialised when not given",
                      p->cname);
    int a = dr->init_from, b = dr->init_to;
    bool is_null = b - a == 1 && (ctok_ident(cv, a, "NULL") ||
                                  (ctok_is(cv, a, "0") && p->unit->defaults != DEF_INT &&
                                   p->unit->defaults != DEF_FLOAT &&
                                   p->unit->defaults != DEF_BOOL &&
                                   p->unit->defaults != DEF_ANY));
    bool is_none = b - a == 1 && ctok_ident(cv, a, "Py_None");
    const char *def = NULL;
    switch (p->unit->defaults) {
    case DEF_NONE:
        break;
    case DEF_INT:
        def = number_default(f, a, b, false);
        break;
    case DEF_FLOAT:
        def = number_default(f, a, b, true);
        break;
    case DEF_BOOL:
        if (b - a == 1 && ctok_is(cv, a, "0"))
            def = "False";
        else if (b - a == 1 && ctok_is(cv, a, "1"))
            def = "True";
        break;
    case DEF_CHAR:
        if (b - a == 1 && cv->toks[a].kind == TK_CHAR && cv->toks[a].len == 3 &&
            cv->text[cv->toks[a].start] == '\'') {
            char ch = cv->text[cv->toks[a].start + 1];
            if (ch >= 0x20 && ch < 0x7f && ch != '\\' && ch != '\'')
                def = arena_printf(cv->c->arena, "b'%c'", ch);
        }
        break;
    case DEF_STR:
        def = is_null ? "NULL" : plain_c_string(f, a, b);
        break;
    case DEF_STR_NONE:
        def = is_null ? "None" : plain_c_string(f, a, b);
        break;
    case DEF_NULL:
        def = is_null ? "NULL" : NULL;
        break;
    case DEF_BUFFER:
        if (ctok_is(cv, a, "{") && cv->toks[a].match == b - 1) {
            bool zeros = true;
            for (int i = a + 1; i < b - 1; i++)
                if (!(ctok_ident(cv, i, "NULL") || ctok_is(cv, i, "0") ||
                      ctok_is(cv, i, ",")))
                    zeros = false;
            if (zeros)
                def = "None";
        }
        break;
    case DEF_OBJECT:
        def = is_null ? "NULL" : is_none ? "None" : NULL;
        break;
    case DEF_ANY:
        def = is_null ? "NULL" : is_none ? "None"
                                         : number_default(f, a, b, false);
        break;
    }
    if (!def)
        return refuse(f, REFUSE_DEFAULT, "the initialiser of %s (%s) is no "
                      "default clinic can write for '%s'", p->cname,
                      ctok_join(cv, a, b), p->unit->unit);
    p->def = def;
    return true;
}

/* "&name": the variable's declaration in the prelude. */
static bool take_variable(Func *f, int from, int to, Decl **decl,
                          Declarator **dr)
{
    Conv *cv = f->cv;
    if (to - from != 2 || !ctok_is(cv, from, "&") ||
        cv->toks[from + 1].kind != TK_IDENT)
        return refuse(f, REFUSE_SHAPE, "the argument '%s' is not the "
                      "address of a variable", ctok_join(cv, from, to));
    const char *name = ctok_str(cv, from + 1);
    *dr = find_variable(f, name, decl);
    if (!*dr)
        return refuse(f, REFUSE_SHAPE, "%s is not declared at the top of "
                      "the function", name);
    if ((*dr)->parsed)
        return refuse(f, REFUSE_SHAPE, "%s is parsed twice", name);
    if ((*dr)->array || ctok_ident(cv, (*decl)->spec_from, "static"))
        return refuse(f, REFUSE_TYPE, "%s is an array or static", name);
    (*dr)->parsed = true;
    return true;
}

const char *variable_type(Func *f, Decl *d, Declarator *dr)
{
    return type_text(f->cv, d->spec_from, d->spec_to, dr->stars);
}

static bool type_fits(const FormatUnit *u, const char *type)
{
    if (!u->type || !strcmp(type, u->type))
        return true;
    size_t n = strlen(type);
    for (const char *p = u->also_type; p && *p;) {
        size_t len = strcspn(p, "|");
        if (len == n && !strncmp(p, type, n))
            return true;
        p += len + (p[len] == '|');
    }
    return false;
}

/* The parameters from the format string and the C arguments after it. */
static bool read_format(Func *f, const char *fmt, int *args, int *ends,
                        size_t nargs, const char **kwnames, size_t nkw)
{
    Conv *cv = f->cv;
    Arena *a = cv->c->arena;
    const char *p = fmt;
    size_t arg = 0;
    bool optional = false, kwonly = false;
    while (*p && *p != ':' && *p != ';') {
        if (*p == '|') {
            optional = true;
            p++;
            continue;
        }
        if (*p == '$') {
            kwonly = true;
            p++;
            continue;
        }
        const char *at = p;
        const FormatUnit *u = unit_next(&p);
        if (!u)
            return refuse(f, REFUSE_FORMAT_UNIT, "format unit '%.*s' has no "
                          "converter", at[0] == 'e' && at[1] ? 2 : 1, at);
        if (f->nparams == MAX_PARAMS)
            return refuse(f, REFUSE_SHAPE, "too many parameters");
        if (arg + (size_t)u->nargs > nargs)
            return refuse(f, REFUSE_SHAPE, "fewer arguments than the format "
                          "\"%s\" takes", fmt);
        Param *pm = &f->params[f->nparams];
        memset(pm, 0, sizeof *pm);
        pm->unit = u;
        pm->kwonly = kwonly;
        pm->converter = u->converter;
        int var = 0;
        const char *extra = NULL;   /* O!'s type, O&'s converter, es's
                                       encoding */
        if (!strcmp(u->unit, "O!") || !strcmp(u->unit, "O&") ||
            u->unit[0] == 'e') {
            int x = args[arg], xe = ends[arg];
            if (!strcmp(u->unit, "O!")) {
                if (!(xe - x == 2 && ctok_is(cv, x, "&") &&
                      cv->toks[x + 1].kind == TK_IDENT))
                    return refuse(f, REFUSE_SHAPE, "O!'s type is not &NAME");
                extra = arena_printf(a, "&%s", ctok_str(cv, x + 1));
                pm->named = ctok_str(cv, x + 1);
            } else if (!strcmp(u->unit, "O&")) {
                /* "conv" or "&conv": the same function pointer */
                if (xe - x == 2 && ctok_is(cv, x, "&"))
                    x++;
                if (xe - x != 1 || cv->toks[x].kind != TK_IDENT)
                    return refuse(f, REFUSE_SHAPE, "O&'s converter is not a "
                                  "function name");
                extra = ctok_str(cv, x);
                pm->named = extra;
            } else {
                extra = plain_c_string(f, x, xe);
                if (!extra)
                    return refuse(f, REFUSE_SHAPE, "%s's encoding is not a "
                                  "plain string literal", u->unit);
                extra = arena_printf(a, "'%.*s'", (int)strlen(extra) - 2,
                                     extra + 1);
            }
            var = 1;
        }
        if (!take_variable(f, args[arg + var], ends[arg + var], &pm->decl,
                           &pm->dr))
            return false;
        pm->cname = ctok_str(cv, pm->dr->name);
        const char *type = variable_type(f, pm->decl, pm->dr);
        if (!strcmp(u->unit, "O!")) {
            pm->converter = !strcmp(type, "PyObject *")
                ? arena_printf(a, "object(subclass_of='%s')", extra)
                : arena_printf(a, "object(type='%s', subclass_of='%s')", type,
                               extra);
        } else if (!strcmp(u->unit, "O&")) {
            if (!converter_takes(f, extra, type))
                return refuse(f, REFUSE_TYPE, "%s's second parameter is no "
                              "void * nor a pointer to %s's %s: clinic's call "
                              "of it would not compile cleanly", extra,
                              pm->cname, type);
            pm->converter = !strcmp(type, "PyObject *")
                ? arena_printf(a, "object(converter='%s')", extra)
                : arena_printf(a, "object(converter='%s', type='%s')", extra,
                               type);
        } else if (u->unit[0] == 'e') {
            pm->converter = arena_printf(
                a, "str(encoding=%s%s%s)", extra,
                u->unit[1] == 't' ? ", accept={bytes, bytearray, str}" : "",
                u->unit[2] == '#' ? ", zeroes=True" : "");
        } else if ((!strcmp(u->unit, "S") || !strcmp(u->unit, "Y")) &&
                   !strcmp(type, "PyObject *")) {
            pm->converter = u->unit[0] == 'S'
                ? "object(subclass_of='&PyBytes_Type')"
                : "object(subclass_of='&PyByteArray_Type')";
        } else if (!strcmp(u->unit, "O") && strcmp(type, "PyObject *") &&
                   pm->dr->stars > 0) {
            pm->converter = arena_printf(a, "object(type='%s')", type);
        } else if (!type_fits(u, type)) {
            return refuse(f, REFUSE_TYPE, "%s is %s, not the %s '%s' "
                          "fills", pm->cname, type, u->type, u->unit);
        }
        if (u->unit[0] == 'e' && body_uses(f, f->parse_end, f->body_close,
                                           "PyMem_Free"))
            return refuse(f, REFUSE_SHAPE, "the body frees the buffer '%s' "
                          "fills, which the generated code frees", u->unit);
        if (u->unit[strlen(u->unit) - 1] == '#') {
            int la = arg + var + 1;
            if (!take_variable(f, args[la], ends[la], &pm->length_decl,
                               &pm->length_dr))
                return false;
            const char *lt = variable_type(f, pm->length_decl, pm->length_dr);
            if (strcmp(lt, "Py_ssize_t"))
                return refuse(f, REFUSE_TYPE, "the length %s is %s, not "
                              "Py_ssize_t", ctok_str(cv, pm->length_dr->name),
                              lt);
            pm->length_name = ctok_str(cv, pm->length_dr->name);
        }
        arg += (size_t)u->nargs;
        if (kwnames) {
            if (f->nparams >= nkw)
                return refuse(f, REFUSE_SHAPE, "the kwlist has fewer names "
                              "than the format units");
            pm->pyname = kwnames[f->nparams];
            if (!*pm->pyname) {
                if (f->npositional_only != f->nparams)
                    return refuse(f, REFUSE_SHAPE, "an empty kwlist name "
                                  "after a named one");
                f->npositional_only++;
                pm->pyname = pm->cname;
            }
        } else {
            pm->pyname = pm->cname;
            f->npositional_only++;
        }
        if (!text_is_legal_py_identifier(pm->pyname) ||
            in_list(python_keywords, pm->pyname))
            return refuse(f, REFUSE_SHAPE, "'%s' is no Python parameter name",
                          pm->pyname);
        f->nparams++;
        if (optional && !take_default(f, pm))
            return false;
        if (pm->kwonly && !pm->def)
            return refuse(f, REFUSE_SHAPE, "a required keyword-only "
                          "parameter");
    }
    if (arg != nargs)
        return refuse(f, REFUSE_SHAPE, "more arguments than the format "
                      "\"%s\" takes", fmt);
    name_positional_as_documented(f);
    if (!default_as_documented(f))
        return false;
    if (kwnames && nkw != f->nparams)
        return refuse(f, REFUSE_SHAPE, "the kwlist has %zu names for %zu "
                      "format units", nkw, f->nparams);
    return true;
}

/* The preprocessor line token i is "#define NAME...": the byte after
   NAME; NULL when it defines another name or is another line. */
static const char *pp_defined(const Conv *cv, int i, const char *name)
{
    size_t len;
    const char *p = ctok_define(cv, i, &len);
    if (!p || len != strlen(name) || memcmp(p, name, len))
        return NULL;
    return p + len;
}

/* The file defines name as a function whose body calls a PyArg_
   function, or as a macro whose text names one. */
static bool file_parser(const Conv *cv, const char *name)
{
    for (int i = 0; i + 1 < cv->ntoks; i++) {
        const Tok *t = &cv->toks[i];
        if (t->kind == TK_PP) {
            /* #define NAME(...) ... PyArg_ ... */
            const char *after = pp_defined(cv, i, name);
            if (after && *after == '(' &&
                strstr(arena_strndup(cv->c->arena, after,
                                     t->start + t->len -
                                         (size_t)(after - cv->text)),
                       "PyArg_"))
                return true;
            continue;
        }
        int open = ctok_function_body(cv, i, name);
        if (open >= 0 && ctok_block_names_pyarg(cv, open))
            return true;
    }
    return false;
}

/* name is spelt as a macro (capitals, digits, "_") and the file neither
   defines it nor a function of that name: a header's macro. */
static bool macro_of_another_file(const Conv *cv, const char *name)
{
    for (const char *p = name; *p; p++)
        if (!isupper((unsigned char)*p) && !isdigit((unsigned char)*p) &&
            *p != '_')
            return false;
    for (int i = 0; i + 1 < cv->ntoks; i++) {
        const Tok *t = &cv->toks[i];
        if (t->kind == TK_PP) {
            if (pp_defined(cv, i, name))
                return false;
        } else if (t->depth == 0 && ctok_ident(cv, i, name) &&
                   ctok_is(cv, i + 1, "(") && cv->toks[i + 1].match >= 0 &&
                   ctok_is(cv, cv->toks[i + 1].match + 1, "{")) {
            return false;
        }
    }
    return true;
}

/* METH_VARARGS with no parse call: the body takes the arguments as the
   tuple they are, and so does an impl of "*args: object" (a tuple of
   them; a call with keywords fails as before).  Unless the tuple goes to
   a call that parses it: a PyArg_ function, or a function or macro of
   the file that calls one (the call's function, or one handed to it). */
static bool read_star_args(Func *f)
{
    Conv *cv = f->cv;
    if (f->entry->slot)
        return refuse(f, REFUSE_HIDDEN_CALL, "no PyArg_Parse* call in the "
                      "body of %s, which takes keywords too",
                      f->entry->slot == SLOT_NEW ? "tp_new" : "tp_init");
    if (f->flags != FL_VARARGS)
        return refuse(f, REFUSE_HIDDEN_CALL, "no PyArg_Parse* call in the "
                      "body of a METH_KEYWORDS function: it would take "
                      "**kwargs, which is not converted");
    const char *name = f->arg_name;
    if (!name)
        return refuse(f, REFUSE_HIDDEN_CALL, "no PyArg_Parse* call in the "
                      "body, and the arguments' parameter has no name "
                      "to give *args");
    for (int i = f->body_open + 1; i < f->body_close; i++) {
        if (!ctok_ident(cv, i, name) || ctok_is(cv, i - 1, ".") ||
            ctok_is(cv, i - 1, "->"))
            continue;
        /* the calls it is an argument of, the innermost first */
        for (int open = i - 1; open > f->body_open; open--) {
            if (!ctok_is(cv, open, "(") || cv->toks[open].match < i)
                continue;
            if (cv->toks[open - 1].kind != TK_IDENT)
                continue;
            for (int k = open - 1; k < cv->toks[open].match; k++) {
                if (cv->toks[k].kind != TK_IDENT)
                    continue;
                const char *callee = ctok_str(cv, k);
                if (!strncmp(callee, "PyArg_", 6) ||
                    !strncmp(callee, "_PyArg_", 7) || file_parser(cv, callee))
                    return refuse(f, REFUSE_HIDDEN_CALL, "no PyArg_Parse* "
                                  "call in the body: %s hands %s to %s, "
                                  "which parses", f->entry->func, name,
                                  callee);
                if (k == open - 1 && macro_of_another_file(cv, callee))
                    return refuse(f, REFUSE_HIDDEN_CALL, "no PyArg_Parse* "
                                  "call in the body: %s hands %s to %s, a "
                                  "macro of another file, which may parse",
                                  f->entry->func, name, callee);
            }
        }
    }
    if (!text_is_legal_py_identifier(name) || in_list(python_keywords, name))
        return refuse(f, REFUSE_SHAPE, "%s is no Python parameter name",
                      name);
    f->star_args = name;
    f->parse_if = f->parse_end = f->body_open + 1;
    return true;
}

/* The body up to the parse statement: declarations only, then
   "if (!CALL(...)) return NULL;" (or "{ return NULL; }"). */
bool read_prelude(Func *f)
{
    Conv *cv = f->cv;
    int ncalls = 0, call = -1;
    for (int i = f->body_open + 1; i < f->body_close; i++)
        if (is_parse_call(cv, i) && ctok_is(cv, i + 1, "(")) {
            ncalls++;
            if (call < 0)
                call = i;
        } else if (is_parse_call(cv, i)) {
            return refuse(f, REFUSE_HIDDEN_CALL, "%s is named, not called",
                          ctok_str(cv, i));
        }
    if (f->flags == FL_O || f->flags == FL_NOARGS) {
        /* METH_O's parse calls parse its argument, or what the body
           makes of it, not the call's arguments: the body stays whole */
        if (ncalls && f->flags == FL_NOARGS)
            return refuse(f, REFUSE_TWO_PARSE_CALLS, "a METH_NOARGS "
                          "function that parses");
        /* nothing parses: the body stays whole */
        f->parse_if = f->parse_end = f->body_open + 1;
        return true;
    } else {
        if (!ncalls)
            return read_star_args(f);
        if (ncalls > 1)
            return refuse(f, REFUSE_TWO_PARSE_CALLS, "%d parse calls", ncalls);
    }
    int i = f->body_open + 1;
    while (i < f->body_close) {
        if (ctok_ident(cv, i, "if") && call >= 0 && i < call &&
            cv->toks[i + 1].match > call) {
            /* if ( ! CALL ( ... ) ) return NULL ; */
            int close = cv->toks[i + 1].match;
            if (!(ctok_is(cv, i + 1, "(") && ctok_is(cv, i + 2, "!") &&
                  call == i + 3 && cv->toks[call + 1].match == close - 1))
                return refuse(f, body_uses(f, i, close, f->arg_name ? f->arg_name : "")
                                  && call != i + 3
                                  ? REFUSE_TWO_PARSE_CALLS : REFUSE_SHAPE,
                              "the parse call is not \"if (!%s(...))\"",
                              ctok_str(cv, call));
            int r = close + 1;
            bool braces = ctok_is(cv, r, "{");
            if (braces)
                r++;
            /* tp_init fails with -1 */
            bool init = f->entry->slot == SLOT_INIT;
            const char *fail = init ? "return -1;" : "return NULL;";
            if (!(ctok_ident(cv, r, "return") &&
                  (init ? ctok_is(cv, r + 1, "-") && ctok_is(cv, r + 2, "1")
                        : ctok_ident(cv, r + 1, "NULL")) &&
                  ctok_is(cv, r + 2 + init, ";")))
                return refuse(f, REFUSE_SHAPE, "the parse call's error path "
                              "is not \"%s\"", fail);
            r += 3 + init;
            if (braces) {
                if (!ctok_is(cv, r, "}"))
                    return refuse(f, REFUSE_SHAPE, "the parse call's error "
                                  "path is not \"%s\"", fail);
                r++;
            }
            f->parse_if = i;
            f->parse_end = r;
            break;
        }
        if (cv->toks[i].kind == TK_PP)
            return refuse(f, REFUSE_SHAPE, "a preprocessor line before the "
                          "parse call");
        int semi = find_semicolon(cv, i, f->body_close);
        if (semi < 0)
            return refuse(f, REFUSE_SHAPE, "the body is not read");
        if (call >= 0 && semi > call)
            return refuse(f, body_uses(f, i, call, f->arg_name ? f->arg_name : "")
                              ? REFUSE_TWO_PARSE_CALLS : REFUSE_SHAPE,
                          "the parse call is not a statement of its own at "
                          "the top of the body");
        if (f->ndecls == MAX_DECLS)
            return refuse(f, REFUSE_SHAPE, "too many declarations");
        if (f->flags != FL_O && f->flags != FL_NOARGS &&
            conv_pure_statement(cv, i, semi + 1, 0)) {
            i = semi + 1;   /* an assert: it stays, after the parsing */
            continue;
        }
        Decl *d = &f->decls[f->ndecls];
        if (!read_declaration(f, i, semi, d)) {
            if (f->flags == FL_O || f->flags == FL_NOARGS)
                break;   /* the body's first statement: kept as it is */
            return refuse(f, f->arg_name && body_uses(f, i, semi + 1, f->arg_name)
                              ? REFUSE_TWO_PARSE_CALLS : REFUSE_EFFECTS_BEFORE,
                          "a statement before the parse call (line %d)%s",
                          cv->toks[i].line,
                          f->arg_name && body_uses(f, i, semi + 1, f->arg_name)
                              ? ": the parsing depends on the arguments" : "");
        }
        for (size_t k = 0; k < d->nd; k++) {
            const Declarator *dr = &d->d[k];
            if (dr->init_from < 0 ||
                initialiser_is_constant(cv, dr->init_from, dr->init_to))
                continue;
            if (!conv_pure_expression(cv, dr->init_from, dr->init_to))
                return refuse(f, REFUSE_EFFECTS_BEFORE, "the initialiser of "
                              "%s runs code before the parse call",
                              ctok_str(cv, dr->name));
            if (!read_state_initialiser(f, d, dr))
                return false;
        }
        f->ndecls++;
        i = semi + 1;
    }
    if (f->flags == FL_O || f->flags == FL_NOARGS)
        return true;
    if (f->parse_end == 0)
        return refuse(f, REFUSE_SHAPE, "the parse call is not at the top of "
                      "the body");
    /* what a state read computes the parse call cannot name: it runs
       after the generated parser now */
    for (size_t k = 0; k < f->ndecls; k++)
        for (size_t j = 0; j < f->decls[k].nd; j++) {
            const Declarator *dr = &f->decls[k].d[j];
            const char *name = ctok_str(cv, dr->name);
            if (dr->init_from >= 0 &&
                !initialiser_is_constant(cv, dr->init_from, dr->init_to) &&
                body_uses(f, f->parse_if, f->parse_end, name))
                return refuse(f, REFUSE_EFFECTS_BEFORE, "the parse call names "
                              "%s, which its initialiser computes before it",
                              name);
        }
    return true;
}

/* The tuple form a parse function is: itself, or the one it is with
   Py_ssize_t lengths (the _SizeT names, what PY_SSIZE_T_CLEAN makes of
   the plain ones: the lengths' C type is checked as for those); NULL:
   of another form. */
static const char *tuple_form(const char *fn)
{
    static const char *const same[][2] = {
        {"PyArg_ParseTuple", "PyArg_ParseTuple"},
        {"PyArg_ParseTupleAndKeywords", "PyArg_ParseTupleAndKeywords"},
        {"PyArg_UnpackTuple", "PyArg_UnpackTuple"},
        {"_PyArg_ParseTuple_SizeT", "PyArg_ParseTuple"},
        {"_PyArg_ParseTupleAndKeywords_SizeT", "PyArg_ParseTupleAndKeywords"},
    };
    for (size_t k = 0; k < sizeof same / sizeof *same; k++)
        if (!strcmp(fn, same[k][0]))
            return same[k][1];
    return NULL;
}

/* Why a parse function of another form is left. */
static const char *parse_form_why(const char *fn)
{
    if (!strcmp(fn, "PyArg_Parse"))
        return "parses one object as a format unit, not a tuple";
    if (!strcmp(fn, "PyArg_VaParse") ||
        !strcmp(fn, "PyArg_VaParseTupleAndKeywords"))
        return "parses a va_list another function was given";
    if (!strcmp(fn, "_PyArg_UnpackKeywords"))
        return "is clinic's own helper: the function was generated";
    return "parses an array and a count (a fastcall form): not converted";
}

bool read_parse_call(Func *f)
{
    Conv *cv = f->cv;
    int call = f->parse_if + 3;
    int open = call + 1, close = cv->toks[open].match;
    int args[MAX_PARAMS * 3 + 8], ends[MAX_PARAMS * 3 + 8];
    size_t max = sizeof args / sizeof *args;
    size_t n = ctok_split(cv, open + 1, close, args, ends, max);
    if (n > max)
        return refuse(f, REFUSE_SHAPE, "too many arguments");
    const char *fn = ctok_str(cv, call);
    const char *same = tuple_form(fn);
    if (!same)
        return refuse(f, REFUSE_PARSE_FORM, "%s %s", fn, parse_form_why(fn));
    bool keywords = !strcmp(same, "PyArg_ParseTupleAndKeywords");
    bool unpack = !strcmp(same, "PyArg_UnpackTuple");
    if (!keywords && f->entry->slot)
        return refuse(f, REFUSE_FLAGS, "%s ignores the keywords %s takes, "
                      "which clinic's %s would refuse", fn,
                      f->entry->slot == SLOT_NEW ? "tp_new" : "tp_init",
                      f->entry->pyname);
    if (keywords != (f->flags == FL_KEYWORDS))
        return refuse(f, REFUSE_FLAGS, "%s with METH_%s", fn,
                      f->flags == FL_KEYWORDS ? "KEYWORDS" : "VARARGS only");
    if (n < 2 || !f->arg_name || ends[0] - args[0] != 1 ||
        !ctok_is(cv, args[0], f->arg_name))
        return refuse(f, REFUSE_SHAPE, "%s does not parse %s", fn,
                      f->arg_name ? f->arg_name : "the arguments");
    size_t first = 1;
    if (keywords) {
        if (n < 4 || !f->kwds_name || ends[1] - args[1] != 1 ||
            !ctok_is(cv, args[1], f->kwds_name))
            return refuse(f, REFUSE_SHAPE, "%s does not parse %s", fn,
                          f->kwds_name ? f->kwds_name : "the keywords");
        first = 2;
    }
    if (unpack) {
        /* PyArg_UnpackTuple(args, "name", min, max, &a, ...) */
        int end;
        if (n < 4 || !ctok_strings(cv, args[1], &end) || end != ends[1])
            return refuse(f, REFUSE_HIDDEN_CALL, "the name is not a string "
                          "literal");
        const char *smin = number_default(f, args[2], ends[2], false);
        const char *smax = number_default(f, args[3], ends[3], false);
        if (!smin || !smax)
            return refuse(f, REFUSE_HIDDEN_CALL, "the argument counts are "
                          "not literals");
        long lo = strtol(smin, NULL, 0), hi = strtol(smax, NULL, 0);
        if (lo < 0 || hi < lo || (size_t)hi != n - 4 || hi > MAX_PARAMS)
            return refuse(f, REFUSE_SHAPE, "%ld to %ld arguments for %zu "
                          "variables", lo, hi, n - 4);
        StrBuf fmt = STRBUF_INIT;
        for (long k = 0; k < hi; k++) {
            if (k == lo)
                sb_addc(&fmt, '|');
            sb_addc(&fmt, 'O');
        }
        const char *format = sb_take(&fmt, cv->c->arena);
        return read_format(f, format, args + 4, ends + 4, n - 4, NULL, 0);
    }
    int end;
    const char *format = ctok_strings(cv, args[first], &end);
    if (!format || end != ends[first])
        return refuse(f, REFUSE_HIDDEN_CALL, "the format is not a string "
                      "literal");
    size_t rest = first + 1;
    const char **kwnames = NULL;
    size_t nkw = 0;
    if (keywords) {
        if (!read_kwlist(f, args[rest], ends[rest], &kwnames, &nkw))
            return false;
        rest++;
    }
    return read_format(f, format, args + rest, ends + rest, n - rest,
                       kwnames, nkw);
}

/* The uses of the parameters in the rest of the body: args and kwds not
   at all; a Py_buffer becomes a pointer (&view -> view, view. ->
   view->); a length "len" of s# becomes clinic's NAME_length. */
bool rewrite_uses(Func *f)
{
    Conv *cv = f->cv;
    Arena *a = cv->c->arena;
    int from = f->parse_end, to = f->body_close;
    if (f->flags != FL_O && !f->star_args && f->arg_name &&
        body_uses(f, from, to, f->arg_name))
        return refuse(f, REFUSE_ARGS_USED, "%s is used after the parse call",
                      f->arg_name);
    if (f->kwds_name && body_uses(f, from, to, f->kwds_name))
        return refuse(f, REFUSE_ARGS_USED, "%s is used after the parse call",
                      f->kwds_name);
    for (size_t k = 0; k < f->nparams; k++) {
        Param *p = &f->params[k];
        if (p->length_name) {
            const char *clinic_name = arena_printf(a, "%s_length", p->cname);
            if (strcmp(clinic_name, p->length_name)) {
                if (ctok_count_ident(cv, clinic_name))
                    return refuse(f, REFUSE_REFERENCED, "%s is taken",
                                  clinic_name);
                for (int i = from; i < to; i++)
                    if (ctok_ident(cv, i, p->length_name) &&
                        !ctok_is(cv, i - 1, ".") && !ctok_is(cv, i - 1, "->"))
                        edit_add(a, &f->edits, cv->toks[i].start,
                                 ctok_end(cv, i), clinic_name);
            }
        }
        if (strcmp(p->unit->type ? p->unit->type : "", "Py_buffer"))
            continue;
        for (int i = from; i < to; i++) {
            if (!ctok_ident(cv, i, p->cname) || ctok_is(cv, i - 1, ".") ||
                ctok_is(cv, i - 1, "->"))
                continue;
            if (ctok_is(cv, i - 1, "&"))
                edit_add(a, &f->edits, cv->toks[i - 1].start,
                         cv->toks[i - 1].start + 1, "");
            else if (ctok_is(cv, i + 1, "."))
                edit_add(a, &f->edits, cv->toks[i + 1].start,
                         ctok_end(cv, i + 1), "->");
            else
                return refuse(f, REFUSE_TYPE, "the Py_buffer %s is used by "
                              "value (line %d)", p->cname, cv->toks[i].line);
        }
    }
    return true;
}
