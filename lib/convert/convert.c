/*
 * convert.c — clinic --convert: each function a PyMethodDef table
 * registers, parsed by exactly one PyArg_ParseTuple,
 * PyArg_ParseTupleAndKeywords or PyArg_UnpackTuple call at the top of its
 * body (or METH_O, METH_NOARGS), becomes a [clinic input] block and its
 * _impl: the parsed variables become parameters, the prelude that parsed
 * them goes, the rest of the body stays byte for byte; the table entry
 * becomes the _METHODDEF macro and the file includes clinic/FILE.c.h.
 * Anything not read faithfully refuses the function, with a note.
 * What a function is comes from convert_read.c; here is what it becomes
 * (the block, the edits) and where the file's new pieces go.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dialect.h"
#include "base/text.h"
#include "convert/convert_int.h"
#include "convert/convert_units.h"
#include "model/model.h"

static const char *const reason_names[CONVERT_NREASONS] = {
    [REFUSE_TWO_PARSE_CALLS] = "two-parse-calls",
    [REFUSE_ARGS_USED] = "args-used",
    [REFUSE_EFFECTS_BEFORE] = "effects-before-parse",
    [REFUSE_FORMAT_UNIT] = "format-unit",
    [REFUSE_UNINITIALISED] = "uninitialised",
    [REFUSE_HIDDEN_CALL] = "hidden-call",
    [REFUSE_SHAPE] = "shape",
    [REFUSE_TYPE] = "type",
    [REFUSE_DEFAULT] = "default",
    [REFUSE_REFERENCED] = "referenced",
    [REFUSE_DOCSTRING] = "docstring",
    [REFUSE_OWNER] = "owner",
    [REFUSE_FLAGS] = "flags",
    [REFUSE_ELSEWHERE] = "defined-elsewhere",
    [REFUSE_PARSE_FORM] = "parse-form",
};

const char *convert_reason_name(ConvertRefusal why)
{
    return why < CONVERT_NREASONS ? reason_names[why] : "?";
}

/* ---- writing ----------------------------------------------------------------- */

static bool only_wanted(const Conv *cv, const Func *f)
{
    const ClinicOptions *o = &cv->c->options;
    if (!o->nconvert_only)
        return true;
    for (size_t i = 0; i < o->nconvert_only; i++) {
        const char *w = o->convert_only[i];
        if (!strcmp(w, f->entry->pyname) || !strcmp(w, f->full_name) ||
            !strcmp(w, f->entry->func))
            return true;
    }
    return false;
}

static char *upper(Arena *a, const char *s)
{
    char *u = arena_strdup(a, s);
    for (char *p = u; *p; p++)
        *p = (char)toupper((unsigned char)*p);
    return u;
}

/* clinic's names for the function (its C base name and what it derives):
   any of them already in the file but the function itself asks for
   "as" with the function's own name, and then none may be taken. */
static bool choose_c_basename(Func *f)
{
    Conv *cv = f->cv;
    Arena *a = cv->c->arena;
    char *base = arena_strdup(a, f->full_name);
    for (char *p = base; *p; p++)
        if (*p == '.')
            *p = '_';
    /* a slot names the function: clinic's parser keeps its name */
    for (int attempt = f->keep_name || f->entry->slot ? 1 : 0; attempt < 2;
         attempt++) {
        if (attempt == 1)
            base = arena_strdup(a, f->entry->func);
        const char *names[] = {
            base, arena_printf(a, "%s_impl", base),
            arena_printf(a, "%s__doc__", base),
            arena_printf(a, "%s_METHODDEF", upper(a, base)),
        };
        bool taken = false;
        for (size_t k = 0; k < 4; k++) {
            int uses = ctok_count_ident(cv, names[k]);
            if (uses && !(k == 0 && !strcmp(names[k], f->entry->func)))
                taken = true;
        }
        if (!taken) {
            f->c_basename = attempt ? base : NULL;
            return true;
        }
        base = arena_strdup(a, f->entry->func);
    }
    return refuse(f, REFUSE_REFERENCED, "the names clinic would give %s are "
                  "taken", f->full_name);
}

static const char *basename_of(const Func *f)
{
    if (f->c_basename)
        return f->c_basename;
    char *base = arena_strdup(f->cv->c->arena, f->full_name);
    for (char *p = base; *p; p++)
        if (*p == '.')
            *p = '_';
    return base;
}

static const char *write_block(Func *f, const char *class_type)
{
    StrBuf sb = STRBUF_INIT;
    sb_adds(&sb, "/*[clinic input]\n");
    if (f->class_method)
        sb_adds(&sb, "@classmethod\n");
    if (f->coexist)
        sb_adds(&sb, "@coexist\n");
    sb_adds(&sb, f->full_name);
    if (f->c_basename)
        sb_addf(&sb, " as %s", f->c_basename);
    sb_adds(&sb, "\n");
    bool in_class = f->table->owner.class_name != NULL;
    const char *default_self = f->class_method ? "type"
                               : in_class ? "self" : "module";
    const char *default_type = f->class_method ? "PyTypeObject *"
                               : in_class ? class_type : "PyObject *";
    bool params = f->nparams || f->flags == FL_O || f->star_args;
    bool self_line = (!f->self_unused && strcmp(f->self_name, default_self)) ||
                     strcmp(f->self_type, default_type);
    if (params || self_line)
        sb_adds(&sb, "\n");
    if (self_line) {
        /* with its type always: a renamed self is otherwise a plain
           PyObject * in some dialects */
        sb_addf(&sb, "    %s: self(type=\"%s\")\n",
                f->self_unused ? default_self : f->self_name, f->self_type);
    }
    if (f->flags == FL_O && f->o_pyname && strcmp(f->o_pyname, f->arg_name))
        sb_addf(&sb, "    %s as %s: object\n    /\n", f->o_pyname, f->arg_name);
    else if (f->flags == FL_O)
        sb_addf(&sb, "    %s: object\n    /\n", f->arg_name);
    if (f->star_args)   /* 3.14 on: "*args: tuple" is the tuple */
        sb_addf(&sb, "    *%s: %s\n", f->star_args,
                DIALECT_INHERITED(f->cv->c->dialect, varpos_prefix)
                    ? "tuple" : "object");
    bool star = false;
    for (size_t k = 0; k < f->nparams; k++) {
        const Param *p = &f->params[k];
        if (p->kwonly && !star) {
            sb_adds(&sb, "    *\n");
            star = true;
        }
        sb_addf(&sb, "    %s", p->pyname);
        if (strcmp(p->pyname, p->cname))
            sb_addf(&sb, " as %s", p->cname);
        sb_addf(&sb, ": %s", p->converter);
        if (p->def)
            sb_addf(&sb, " = %s", p->def);
        sb_adds(&sb, "\n");
        if (k + 1 == f->npositional_only)
            sb_adds(&sb, "    /\n");
    }
    if (f->doc && *f->doc)
        sb_addf(&sb, "\n%s\n", f->doc);
    sb_adds(&sb, "[clinic start generated code]*/\n");
    return sb_take(&sb, f->cv->c->arena);
}

/* The edits that remove a statement [from, semi] (widened to its lines). */
static void remove_lines(Conv *cv, Edits *ed, int from, int last,
                         size_t *line_end)
{
    size_t s = cv->toks[from].start, e = ctok_end(cv, last), next;
    whole_lines(cv, &s, &e);
    /* between two blank lines: one of them goes too */
    if (s >= 1 && (s == 1 || cv->text[s - 2] == '\n') && cv->text[s - 1] == '\n' &&
        blank_line_at(cv, e, &next))
        e = next;
    edit_add(cv->c->arena, ed, s, e, "");
    if (line_end)
        *line_end = e;
}

static void remove_statement(Func *f, int from, int last, size_t *line_end)
{
    remove_lines(f->cv, &f->edits, from, last, line_end);
}

/* The table entry becomes the _METHODDEF, and its comma goes; the other
   entries of the function name clinic's wrapper.  (A slot names clinic's
   parser as it named the function: nothing to do.) */
static void write_entry_edits(Func *f)
{
    Conv *cv = f->cv;
    Arena *a = cv->c->arena;
    const Entry *e = f->entry;
    size_t es = cv->toks[e->open].start, ee = ctok_end(cv, e->close);
    if (ctok_is(cv, e->close + 1, ","))
        ee = ctok_end(cv, e->close + 1);
    edit_add(a, &f->edits, es, ee,
             arena_printf(a, "%s_METHODDEF", upper(a, basename_of(f))));
    /* the other entries of the function: clinic's wrapper, cast as the
       _METHODDEF casts it */
    const char *wrapper = basename_of(f);
    for (size_t k = 0; k < f->nalias; k++) {
        const Entry *al = f->alias[k];
        size_t fs = cv->toks[al->func_tok].start;
        bool bare = ctok_is(cv, al->func_tok - 1, ",");
        if (bare || strcmp(wrapper, al->func))
            edit_add(a, &f->edits, fs, ctok_end(cv, al->func_tok),
                     arena_printf(a, "%s%s", bare ? "(PyCFunction)" : "",
                                  wrapper));
    }
}

static void write_edits(Func *f, const char *class_type)
{
    Conv *cv = f->cv;
    Arena *a = cv->c->arena;
    /* the declaration: the block in its place */
    edit_add(a, &f->edits, cv->toks[f->decl_start].start,
             cv->toks[f->body_open].start, write_block(f, class_type));
    /* the prelude: parsed declarators, the kwlist, the parse statement */
    bool all_gone = true;
    for (size_t k = 0; k < f->ndecls; k++) {
        Decl *d = &f->decls[k];
        size_t kept = 0;
        for (size_t j = 0; j < d->nd; j++)
            if (!d->d[j].parsed)
                kept++;
        if (d->is_kwlist)
            kept = 0;
        if (kept == d->nd) {
            all_gone = false;
            continue;
        }
        if (!kept) {
            remove_statement(f, d->from, d->semi, NULL);
            continue;
        }
        all_gone = false;
        StrBuf sb = STRBUF_INIT;
        for (size_t j = 0; j < d->nd; j++) {
            if (d->d[j].parsed)
                continue;
            if (sb.len)
                sb_adds(&sb, ", ");
            sb_add(&sb, cv->text + cv->toks[d->d[j].from].start,
                   ctok_end(cv, d->d[j].to - 1) - cv->toks[d->d[j].from].start);
        }
        edit_add(a, &f->edits, cv->toks[d->d[0].from].start,
                 cv->toks[d->semi].start, sb_take(&sb, a));
    }
    if (f->parse_end > f->parse_if) {
        size_t end;
        size_t start = cv->toks[f->parse_if].start;
        remove_statement(f, f->parse_if, f->parse_end - 1, &end);
        if (all_gone) {
            /* nothing left before it: the blank lines between go too */
            size_t s = start;
            while (s > 0 && cv->text[s - 1] != '\n')
                s--;
            size_t blank_from = s, next;
            while (blank_from > 0) {
                size_t b = blank_from - 1;
                while (b > 0 && cv->text[b - 1] != '\n')
                    b--;
                if (!blank_line_at(cv, b, &next) || next != blank_from)
                    break;
                blank_from = b;
            }
            if (blank_from < s)
                edit_add(a, &f->edits, blank_from, s, "");
        }
        /* no blank line left doubled, or first in the body */
        size_t next;
        size_t before = start;
        while (before > 0 && cv->text[before - 1] != '\n')
            before--;
        bool blank_before = before >= 1 && before >= 2 &&
                            cv->text[before - 2] == '\n';
        if ((all_gone || blank_before) && blank_line_at(cv, end, &next))
            edit_add(a, &f->edits, end, next, "");
    }
    if (!f->entry->slot)
        write_entry_edits(f);
    if (f->docvar_tok >= 0)
        remove_statement(f, f->docvar_tok,
                         find_semicolon(cv, f->docvar_tok, cv->ntoks), NULL);
    if (f->kwlist_decl_from >= 0 && f->kwlist_decl_semi > 0)
        remove_statement(f, f->kwlist_decl_from, f->kwlist_decl_semi, NULL);
}

static void note(Conv *cv, int line, const char *fmt, ...) CLINIC_PRINTF(3, 4);
static void note(Conv *cv, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_addf(&cv->c->diagnostics, "%s:%d: note: convert: ", cv->c->filename,
            line);
    sb_vaddf(&cv->c->diagnostics, fmt, ap);
    sb_addc(&cv->c->diagnostics, '\n');
    va_end(ap);
}

/* The dotted name of the owner's pyname (of the class itself when
   pyname is NULL); the module is "" for a class at the top level. */
static const char *full_name(Conv *cv, const Owner *o, const char *pyname)
{
    StrBuf sb = STRBUF_INIT;
    if (o->module && *o->module)
        sb_adds(&sb, o->module);
    if (o->class_name)
        sb_addf(&sb, "%s%s", sb.len ? "." : "", o->class_name);
    if (pyname)
        sb_addf(&sb, "%s%s", sb.len ? "." : "", pyname);
    return sb_take(&sb, cv->c->arena);
}

static bool convert_function(Conv *cv, Table *t, Entry *e, Func *f,
                             const char *class_type)
{
    memset(f, 0, sizeof *f);
    f->cv = cv;
    f->table = t;
    f->entry = e;
    f->line = e->line;
    f->kwlist_decl_from = f->kwlist_shared_from = -1;
    f->full_name = full_name(cv, &t->owner, e->pyname);
    bool varargs = false, keywords = false, o = false, noargs = false;
    f->class_method = false;
    for (int i = e->flags_from; i < e->flags_to; i++) {
        if (ctok_is(cv, i, "|"))
            continue;
        if (ctok_ident(cv, i, "METH_VARARGS"))
            varargs = true;
        else if (ctok_ident(cv, i, "METH_KEYWORDS"))
            keywords = true;
        else if (ctok_ident(cv, i, "METH_O"))
            o = true;
        else if (ctok_ident(cv, i, "METH_NOARGS"))
            noargs = true;
        else if (ctok_ident(cv, i, "METH_CLASS") && t->owner.class_name)
            f->class_method = true;
        else if (ctok_ident(cv, i, "METH_COEXIST") && t->owner.class_name)
            f->coexist = true;   /* @coexist: beside a slot's wrapper */
        else
            return refuse(f, REFUSE_FLAGS, "flags %s",
                          ctok_join(cv, e->flags_from, e->flags_to));
    }
    if (e->slot) {
        /* tp_new and tp_init take args and kwds: clinic's __new__ (a
           class method) and __init__ */
        varargs = keywords = true;
        f->class_method = e->slot == SLOT_NEW;
    }
    if (varargs + o + noargs != 1 || (keywords && !varargs))
        return refuse(f, REFUSE_FLAGS, "flags %s",
                      ctok_join(cv, e->flags_from, e->flags_to));
    f->flags = o ? FL_O : noargs ? FL_NOARGS : keywords ? FL_KEYWORDS
                                                        : FL_VARARGS;
    if (!t->owner.module)
        return refuse(f, REFUSE_OWNER, "no PyModuleDef or type names the "
                      "table %s", t->name);
    if (!e->slot && model_unsupported_special_method(e->pyname))
        return refuse(f, REFUSE_FLAGS, "clinic does not convert the special "
                      "method %s (a slot's wrapper is the type's)%s",
                      e->pyname, f->coexist ? ": METH_COEXIST keeps the "
                      "function beside it" : "");
    if (!find_definition(f) || !read_docstring(f) || !read_prelude(f))
        return false;
    if ((f->flags == FL_VARARGS || f->flags == FL_KEYWORDS) &&
        !f->star_args && !read_parse_call(f))
        return false;
    if (f->flags == FL_NOARGS && f->arg_name &&
        body_uses(f, f->body_open, f->body_close, f->arg_name))
        return refuse(f, REFUSE_ARGS_USED, "METH_NOARGS's %s is used",
                      f->arg_name);
    if (f->flags == FL_O && (!f->arg_name ||
                             !text_is_legal_py_identifier(f->arg_name) ||
                             in_list(python_keywords, f->arg_name)))
        return refuse(f, REFUSE_SHAPE, "METH_O's argument has no usable name");
    if (!rewrite_uses(f) || !choose_c_basename(f))
        return false;
    write_edits(f, class_type);
    return true;
}

/* The C type of self in a class's methods: the first parameter's type
   of its first instance method defined in the file; "PyObject *" when
   there is none. */
static const char *class_self_type(Conv *cv, const Table *t)
{
    /* a type's slots: its method table's, when it has one */
    for (size_t k = 0; t->slots && k < cv->ntables; k++) {
        const Table *m = &cv->tables[k];
        if (!m->slots && m->owner.class_name && m->owner.module &&
            !strcmp(m->owner.class_name, t->owner.class_name) &&
            !strcmp(m->owner.module, t->owner.module))
            return class_self_type(cv, m);
    }
    for (size_t ei = 0; ei < t->nentries; ei++) {
        const Entry *e = &t->entries[ei];
        if (!e->func || e->slot == SLOT_NEW)
            continue;
        bool instance = true;
        for (int i = e->flags_from; i < e->flags_to; i++)
            if (ctok_ident(cv, i, "METH_CLASS") || ctok_ident(cv, i, "METH_STATIC"))
                instance = false;
        if (!instance)
            continue;
        for (int i = 0; i + 1 < cv->ntoks; i++) {
            if (cv->toks[i].depth != 0 || !ctok_ident(cv, i, e->func) ||
                !ctok_is(cv, i + 1, "(") || cv->toks[i + 1].match < 0 ||
                !ctok_is(cv, cv->toks[i + 1].match + 1, "{"))
                continue;
            int fields[4], ends[4];
            size_t n = ctok_split(cv, i + 2, cv->toks[i + 1].match, fields,
                                  ends, 4);
            if (n >= 1 && ends[0] - fields[0] >= 2 &&
                cv->toks[ends[0] - 1].kind == TK_IDENT)
                return type_text(cv, fields[0], ends[0] - 1, 0);
        }
    }
    return "PyObject *";
}

/* The file's definition of the function calls a PyArg_ function (or
   _PyArg_): its arguments are parsed by hand. */
static bool calls_pyarg(const Conv *cv, const char *func)
{
    for (int i = 0; i + 1 < cv->ntoks; i++) {
        int open = ctok_function_body(cv, i, func);
        if (open >= 0)
            return ctok_block_names_pyarg(cv, open);
    }
    return false;
}

static int compare_edits(const void *pa, const void *pb)
{
    const Edit *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->end < b->end ? -1 : a->end > b->end;   /* insertions first */
}

/* Where the file declares "module NAME" or "class NAME ..." already (a
   line of a clinic block): its byte offset, or -1. */
static long declared_at(const Conv *cv, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = cv->text; (p = strstr(p, line)) != NULL; p += n)
        if ((p == cv->text || p[-1] == '\n') && (p[n] == '\n' || p[n] == ' '))
            return (long)(p - cv->text);
    return -1;
}

static bool declared(const Conv *cv, const char *line)
{
    return declared_at(cv, line) >= 0;
}

/* The C type of a class the file declares already ("class NAME "TYPE"
   ..." in a clinic block), or NULL. */
static const char *declared_class_type(Conv *cv, const char *name)
{
    const char *line = arena_printf(cv->c->arena, "class %s \"", name);
    size_t n = strlen(line);
    for (const char *p = cv->text; (p = strstr(p, line)) != NULL; p += n) {
        if (p != cv->text && p[-1] != '\n')
            continue;
        const char *end = strchr(p + n, '"');
        if (end && !memchr(p + n, '\n', (size_t)(end - (p + n))))
            return arena_strndup(cv->c->arena, p + n, (size_t)(end - (p + n)));
    }
    return NULL;
}

/* The token of the file's own #include of its generated code, or -1. */
static int existing_include(Conv *cv, const char *include)
{
    for (int i = 0; i < cv->ntoks; i++)
        if (cv->toks[i].kind == TK_PP && strstr(ctok_str(cv, i), include))
            return i;
    return -1;
}

/* A converted function, kept until the include's place is known. */
typedef struct Done {
    Edits edits;
    int decl_start;
    size_t table;
    const char *full_name;
    const char *func;          /* its C name */
    const char *doc_header, *doc_var;  /* its docstring's, in a header */
    int line;
    bool dropped;
    const char *type_name;     /* of its types, the one defined last */
    int type_pos;              /* the token where it is first named */
    const char *hard_name;     /* the same of the types not declared ahead */
    int hard_pos;
    int docvar_shared;         /* its entry's PyDoc_STRVAR others name */
    int kwlist_shared, kwlist_semi;   /* its kwlist others name; -1 */
    const char *kwlist_name;
    int first_call;            /* a call the include must precede; -1 */
    size_t ahead[2 * MAX_PARAMS + 1];   /* its types and functions that
                                          can be, in aheads[] */
    size_t nahead;
} Done;

static int docvar_of(const Done *d)
{
    return d->docvar_shared;
}

static int kwlist_of(const Done *d)
{
    return d->kwlist_shared;
}

/* How many converted functions name the declaration shared(&done[k])
   starts (a PyDoc_STRVAR, a kwlist), when done[k] is the first of them;
   0 when another comes first, or done[k] names none. */
static size_t namers_if_first(const Done *done, size_t ndone, size_t k,
                              int (*shared)(const Done *))
{
    int decl = shared(&done[k]);
    if (done[k].dropped || decl < 0)
        return 0;
    size_t named = 0;
    for (size_t j = 0; j < ndone; j++)
        if (!done[j].dropped && shared(&done[j]) == decl) {
            if (j < k)
                return 0;
            named++;
        }
    return named;
}

/* A type the file defines after the place of the include, that the
   generated code names only through pointers: declared ahead of the
   include, as "typedef struct TAG NAME;" (an anonymous struct gets its
   typedef name as its tag) or "struct NAME;". */
typedef struct Ahead {
    const char *name;
    int pos;                   /* its definition's token */
    const char *decl;
    int tag_after;             /* the "struct" the tag goes after; -1 */
    bool wanted;
} Ahead;

/* A name d's generated code needs that the file defines at token pos:
   with decl, a declaration that can go ahead of the include (one entry
   of aheads[] per name); without, the latest such name bounds where the
   include can go. */
static void depend_on(Done *d, Ahead *aheads, size_t *naheads,
                      const char *name, int pos, const char *decl,
                      int tag_after)
{
    if (!decl) {
        if (pos > d->hard_pos) {
            d->hard_pos = pos;
            d->hard_name = name;
        }
        return;
    }
    size_t h = 0;
    while (h < *naheads && strcmp(aheads[h].name, name))
        h++;
    if (h == *naheads)
        aheads[(*naheads)++] = (Ahead){name, pos, decl, tag_after, false};
    d->ahead[d->nahead++] = h;
}

/* The name a type is defined by: "FooObject" of "const FooObject *". */
static const char *type_name(Conv *cv, const char *type)
{
    static const char *const words[] = {
        "const", "struct", "union", "enum", "unsigned", "signed", "volatile",
        NULL
    };
    const char *p = type;
    while (*p) {
        size_t n = strcspn(p, " *");
        if (n) {
            char *w = arena_strndup(cv->c->arena, p, n);
            if (!in_list(words, w))
                return w;
        }
        p += n;
        p += strspn(p, " *");
    }
    return NULL;
}

/* Where the file defines the type name: "} name;", "typedef ... name;"
   or "struct name {"; -1: not here (a header defines it). */
static int type_definition(const Conv *cv, const char *name)
{
    for (int i = 1; i + 1 < cv->ntoks; i++) {
        if (!ctok_ident(cv, i, name))
            continue;
        if ((ctok_is(cv, i - 1, "}") && ctok_is(cv, i + 1, ";")) ||
            ((ctok_ident(cv, i - 1, "struct") || ctok_ident(cv, i - 1, "union")) &&
             ctok_is(cv, i + 1, "{")))
            return i;
        if (ctok_is(cv, i + 1, ";"))
            for (int k = i - 1; k >= 0 && cv->toks[k].kind == TK_IDENT; k--)
                if (ctok_ident(cv, k, "typedef"))
                    return i;
    }
    return -1;
}

/* The first token at the top level that names the identifier (its
   declaration or definition); -1: none (a header declares it). */
static int top_level_mention(const Conv *cv, const char *name)
{
    for (int i = 0; i < cv->ntoks; i++)
        if (cv->toks[i].depth == 0 && ctok_ident(cv, i, name))
            return i;
    return -1;
}

/* The prototype of the function whose definition names it at token
   pos ("static int conv(PyObject *o, void *p);", its blanks made single
   spaces); NULL when pos is no function's definition. */
static const char *prototype_of(Conv *cv, int pos)
{
    if (!ctok_is(cv, pos + 1, "(") || cv->toks[pos + 1].match < 0)
        return NULL;
    int close = cv->toks[pos + 1].match;
    if (!ctok_is(cv, close + 1, "{"))
        return NULL;
    int start = pos;
    while (start > 0 && cv->toks[start - 1].kind != TK_PP &&
           !ctok_is(cv, start - 1, ";") && !ctok_is(cv, start - 1, "}"))
        start--;
    if (start == pos)
        return NULL;
    for (int i = start; i <= close; i++)
        if (cv->toks[i].kind == TK_PP)
            return NULL;
    StrBuf sb = STRBUF_INIT;
    const char *p = cv->text + cv->toks[start].start;
    const char *end = cv->text + ctok_end(cv, close);
    bool blank = false;
    for (; p < end; p++) {
        if (p[0] == '/' && p + 1 < end && p[1] == '*') {
            sb_free(&sb);
            return NULL;      /* a comment: not made one line */
        }
        if (*p == ' ' || *p == '\t' || *p == '\n') {
            blank = true;
            continue;
        }
        if (blank && sb.len && sb.buf[sb.len - 1] != '(' && *p != ')' && *p != ',')
            sb_addc(&sb, ' ');
        blank = false;
        sb_addc(&sb, *p);
    }
    sb_addc(&sb, ';');
    return sb_take(&sb, cv->c->arena);
}

/* Can the type text, defined at token pos, be declared ahead?  Its
   declaration, and *tag_after the token an anonymous struct's tag goes
   after (-1: none); NULL: it cannot. */
static const char *ahead_declaration(Conv *cv, const char *type,
                                     const char *name, int pos,
                                     int *tag_after)
{
    *tag_after = -1;
    if (!strchr(type, '*'))
        return NULL;
    if (!strncmp(type, "struct ", 7)) {
        if (ctok_ident(cv, pos - 1, "struct") && ctok_is(cv, pos + 1, "{"))
            return arena_printf(cv->c->arena, "struct %s;", name);
        return NULL;
    }
    if (!ctok_is(cv, pos - 1, "}") || !ctok_is(cv, pos + 1, ";"))
        return NULL;
    int open = cv->toks[pos - 1].match;
    if (open < 3)
        return NULL;
    if (cv->toks[open - 1].kind == TK_IDENT &&
        ctok_ident(cv, open - 2, "struct") && ctok_ident(cv, open - 3, "typedef"))
        return arena_printf(cv->c->arena, "typedef struct %s %s;",
                            ctok_str(cv, open - 1), name);
    if (ctok_ident(cv, open - 1, "struct") && ctok_ident(cv, open - 2, "typedef")) {
        /* its name as a tag: no struct of the file has it */
        for (int i = 0; i + 1 < cv->ntoks; i++)
            if (ctok_ident(cv, i, "struct") && ctok_ident(cv, i + 1, name))
                return NULL;
        *tag_after = open - 1;
        return arena_printf(cv->c->arena, "typedef struct %s %s;", name, name);
    }
    return NULL;
}

static int compare_names(const void *pa, const void *pb)
{
    return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* The place the file's own include of its generated code (token
   included) may move up to, before a method table: the last token of
   the file that the generated code it includes now names (a type, a
   function, a variable or a macro of the file: declared before it), or
   -1 when it names none; -2 when the include stays where it is (the
   generated file is not read, or python blocks may name anything). */
static int include_needs(Conv *cv, int included)
{
    if (strstr(cv->text, "[python input]"))
        return -2;
    ClinicReadFn read = cv->c->options.read_file;
    if (!read)
        return -2;
    Arena *a = cv->c->arena;
    const char *slash = strrchr(cv->c->filename, '/');
    const char *path = arena_printf(
        a, "%.*sclinic/%s.h", slash ? (int)(slash - cv->c->filename) + 1 : 0,
        cv->c->filename, slash ? slash + 1 : cv->c->filename);
    char *data;
    size_t len;
    if (read(cv->c->options.read_userdata, path, &data, &len))
        return -2;
    Conv h = {0};
    h.c = cv->c;
    h.text = arena_strndup(a, data, len);
    h.len = len;
    free(data);
    conv_lex(&h);
    /* the names it uses and does not declare itself: its functions
       ("NAME(" at its top level) and its macros */
    const char **names = arena_array_of(a, const char *,
                                        h.ntoks ? (size_t)h.ntoks : 1);
    size_t n = 0;
    for (int i = 0; i < h.ntoks; i++)
        if (h.toks[i].kind == TK_IDENT)
            names[n++] = ctok_str(&h, i);
    qsort(names, n, sizeof *names, compare_names);
    size_t u = 0;
    for (size_t k = 0; k < n; k++)
        if (!u || strcmp(names[u - 1], names[k]))
            names[u++] = names[k];
    n = u;
    bool *own = arena_array_of(a, bool, n ? n : 1);
    for (int i = 0; i + 1 < h.ntoks; i++) {
        const char *name = NULL;
        if (h.toks[i].kind == TK_IDENT && h.toks[i].depth == 0 &&
            ctok_is(&h, i + 1, "(") && !ctok_ident(&h, i, "PyDoc_STRVAR"))
            name = ctok_str(&h, i);
        else if (ctok_ident(&h, i, "PyDoc_STRVAR") && ctok_is(&h, i + 1, "("))
            name = ctok_str(&h, i + 2);
        if (!name)
            continue;
        const char **at = bsearch(&name, names, n, sizeof *names, compare_names);
        if (at)
            own[at - names] = true;
    }
    for (int i = 0; i < h.ntoks; i++) {
        size_t nl;
        const char *p = ctok_define(&h, i, &nl);
        if (!p)
            continue;
        const char *name = arena_strndup(a, p, nl);
        const char **at = bsearch(&name, names, n, sizeof *names, compare_names);
        if (at)
            own[at - names] = true;
    }
    /* the first top-level mention of each in the file: a declaration */
    int need = -1;
    bool *seen = arena_array_of(a, bool, n ? n : 1);
    for (int i = 0; i < cv->ntoks; i++) {
        if (i == included)
            continue;
        /* a declarator's parameters declare nothing at the top level */
        if (cv->toks[i].depth == 0 && ctok_is(cv, i, "(") &&
            cv->toks[i].match > i) {
            i = cv->toks[i].match;
            continue;
        }
        const char *name = NULL;
        /* a name that begins a statement is a use (a macro's, a type's),
           not what the statement declares; "} name;" ends a typedef */
        bool starts = i == 0 || cv->toks[i - 1].kind == TK_PP ||
                      ctok_is(cv, i - 1, ";") ||
                      (ctok_is(cv, i - 1, "}") && !ctok_is(cv, i + 1, ";") &&
                       !ctok_is(cv, i + 1, ","));
        /* the declarator's name: what follows it is none of a type's */
        bool declarator = ctok_is(cv, i + 1, "(") || ctok_is(cv, i + 1, ";") ||
                          ctok_is(cv, i + 1, "=") || ctok_is(cv, i + 1, "[") ||
                          ctok_is(cv, i + 1, ",") || ctok_is(cv, i + 1, "{");
        if (cv->toks[i].kind == TK_IDENT && cv->toks[i].depth == 0 &&
            !starts && declarator && !ctok_ident(cv, i, "struct") &&
            !ctok_ident(cv, i, "union") && !ctok_ident(cv, i, "enum")) {
            name = ctok_str(cv, i);
        } else {
            size_t nl;
            const char *p = ctok_define(cv, i, &nl);
            if (p)
                name = arena_strndup(a, p, nl);
        }
        if (!name)
            continue;
        const char **at = bsearch(&name, names, n, sizeof *names, compare_names);
        if (!at || own[at - names] || seen[at - names])
            continue;
        seen[at - names] = true;
        if (i > need)
            need = i;
    }
    return need;
}

/* The tokens [from, to) hold no preprocessor conditional that does not
   close among them: an #include moved from one end to the other stays
   under the same conditions. */
static bool same_conditions(const Conv *cv, int from, int to)
{
    int depth = 0;
    for (int i = from; i < to; i++) {
        if (cv->toks[i].kind != TK_PP)
            continue;
        const char *p = cv->text + cv->toks[i].start + 1;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!strncmp(p, "if", 2))
            depth++;
        else if (!strncmp(p, "endif", 5) && depth-- == 0)
            return false;
        else if ((!strncmp(p, "else", 4) || !strncmp(p, "elif", 4)) && !depth)
            return false;
    }
    return depth == 0;
}

/* The clinic block around the byte at when it declares modules and
   classes only (and so names nothing C needs): its bytes [*start, *end),
   its end marker's line with it. */
static bool declarations_block(const Conv *cv, size_t at, size_t *start,
                               size_t *end)
{
    static const char head[] = "/*[clinic input]\n";
    static const char stop_line[] = "[clinic start generated code]*/\n";
    const char *text = cv->text, *open = NULL;
    for (const char *p = text; (p = strstr(p, head)) != NULL &&
                               (size_t)(p - text) < at; p++)
        if (p == text || p[-1] == '\n')
            open = p;
    if (!open)
        return false;
    const char *body = open + sizeof head - 1;
    const char *stop = strstr(body, stop_line);
    if (!stop || (size_t)(stop - text) < at)
        return false;
    for (const char *l = body; l < stop;) {
        const char *nl = memchr(l, '\n', (size_t)(stop - l));
        if (!nl || !(nl == l || !strncmp(l, "module ", 7) ||
                     !strncmp(l, "class ", 6)))
            return false;
        l = nl + 1;
    }
    const char *marker = stop + sizeof stop_line - 1;
    const char *eol = strchr(marker, '\n');
    if (strncmp(marker, "/*[clinic end generated code:", 29) || !eol)
        return false;
    *start = (size_t)(open - text);
    *end = (size_t)(eol + 1 - text);
    return true;
}

static void pass_left(Arena *a, Pass *pass, size_t cap, const char *func,
                      ConvertRefusal why, const char *text)
{
    if (pass && func && pass->nleft < cap)
        pass->left[pass->nleft++] = (PassRefusal){func, why,
                                                  arena_strdup(a, text)};
}

/* One pass of the conversion over text; pass (or NULL) takes what an
   earlier pass learnt, and gives what this one did. */
static const char *convert_once(Clinic *c, const char *text, size_t len,
                                size_t *out_len, ConvertStats *stats,
                                Pass *pass)
{
    Conv conv = {0};
    Conv *cv = &conv;
    cv->c = c;
    cv->earlier = pass;
    cv->text = text;
    cv->len = len;
    conv_lex(cv);
    conv_find_tables(cv);
    *out_len = len;
    Arena *a = c->arena;
    Edits all = {0};
    size_t considered = 0, converted = 0;
    size_t refused[CONVERT_NREASONS] = {0};
    int first_decl = -1;       /* the first converted function's start */
    int first_table = -1;      /* the first table with a converted entry */
    StrBuf decls = STRBUF_INIT;
    const char **class_types = arena_array_of(a, const char *,
                                              cv->ntables ? cv->ntables : 1);
    Func *f = arena_new_of(a, Func);
    size_t nentries = 0;
    for (size_t ti = 0; ti < cv->ntables; ti++)
        nentries += cv->tables[ti].nentries;
    Done *done = arena_array_of(a, Done, nentries ? nentries : 1);
    size_t ndone = 0;
    Ahead *aheads = arena_array_of(a, Ahead,
                                   nentries ? nentries * (2 * MAX_PARAMS + 1) : 1);
    size_t naheads = 0;
    if (pass) {
        pass->left = arena_array_of(a, PassRefusal, nentries ? nentries : 1);
        pass->converted = arena_array_of(a, const char *,
                                         nentries ? nentries : 1);
        pass->nleft = pass->nconverted = 0;
    }
    for (size_t ti = 0; ti < cv->ntables; ti++) {
        Table *t = &cv->tables[ti];
        for (size_t ei = 0; ei < t->nentries; ei++) {
            Entry *e = &t->entries[ei];
            if (!e->pyname || e->func_tok < 0)
                continue;   /* a macro, the sentinel */
            if (entry_is_alias(cv, e))
                continue;   /* its function is its first entry's */
            memset(f, 0, sizeof *f);
            f->cv = cv;
            f->entry = e;
            f->table = t;
            f->full_name = full_name(cv, &t->owner, e->pyname);
            if (!only_wanted(cv, f))
                continue;
            if (e->slot && !calls_pyarg(cv, e->func))
                continue;   /* a slot that parses nothing by hand */
            considered++;
            if (t->owner.class_name && !class_types[ti]) {
                class_types[ti] = declared_class_type(
                    cv, full_name(cv, &t->owner, NULL));
                if (!class_types[ti])
                    class_types[ti] = class_self_type(cv, t);
            }
            if (!convert_function(cv, t, e, f, class_types[ti])) {
                refused[f->why]++;
                note(cv, f->line ? f->line : e->line, "%s left as it is (%s): %s",
                     f->full_name, reason_names[f->why], f->why_text);
                pass_left(a, pass, nentries, e->func, f->why, f->why_text);
                continue;
            }
            converted++;
            Done *d = &done[ndone++];
            d->edits = f->edits;
            d->decl_start = f->decl_start;
            d->table = ti;
            d->full_name = f->full_name;
            d->func = e->func;
            d->doc_header = f->doc_header;
            d->doc_var = f->doc_var;
            d->line = f->line;
            d->dropped = false;
            d->type_name = d->hard_name = NULL;
            d->type_pos = d->hard_pos = -1;
            d->nahead = 0;
            d->docvar_shared = f->docvar_shared;
            d->kwlist_shared = f->kwlist_shared_from;
            d->kwlist_semi = f->kwlist_shared_semi;
            d->kwlist_name = f->kwlist_name;
            d->first_call = f->first_call;
            /* the types its generated code names: defined before the
               include? */
            const char *types[MAX_PARAMS + 1];
            size_t ntypes = 0;
            types[ntypes++] = f->self_type;
            for (size_t k = 0; k < f->nparams; k++)
                types[ntypes++] = variable_type(f, f->params[k].decl,
                                                f->params[k].dr);
            /* the functions and type objects it names: declared before
               the include (the first top-level mention) */
            for (size_t k = 0; k < f->nparams; k++) {
                const char *name = f->params[k].named;
                int pos = name ? top_level_mention(cv, name) : -1;
                if (pos > d->type_pos) {
                    d->type_pos = pos;
                    d->type_name = name;
                }
                /* a function defined there is declared ahead by its
                   prototype */
                const char *proto = pos >= 0 ? prototype_of(cv, pos) : NULL;
                depend_on(d, aheads, &naheads, name, pos, proto, -1);
            }
            for (size_t k = 0; k < ntypes; k++) {
                const char *name = type_name(cv, types[k]);
                int pos = name ? type_definition(cv, name) : -1;
                if (pos > d->type_pos) {
                    d->type_pos = pos;
                    d->type_name = name;
                }
                int tag_after = -1;
                const char *decl = pos >= 0
                    ? ahead_declaration(cv, types[k], name, pos, &tag_after)
                    : NULL;
                depend_on(d, aheads, &naheads, name, pos, decl, tag_after);
            }
        }
    }
    /* The include goes before a method table: every table with a
       _METHODDEF after it, every type the generated code names before
       it.  Of the places, the one that keeps the most functions; those
       it cannot keep are left. */
    const char *slash = strrchr(c->filename, '/');
    const char *include = arena_printf(a, "#include \"clinic/%s.h\"",
                                       slash ? slash + 1 : c->filename);
    int included = existing_include(cv, arena_printf(a, "\"clinic/%s.h\"",
                                                     slash ? slash + 1
                                                           : c->filename));
    /* first with every type defined before the place; when that leaves
       functions, with the types declared ahead where they can be */
    int best = -1;
    size_t best_kept = 0;
    bool ahead = false;
    /* the file's own include, when it has one, is the place; or a table
       before it, where what its generated code names is declared */
    int needs = -2;
    for (size_t k = 0; included >= 0 && needs == -2 && k < ndone; k++)
        if (cv->tables[done[k].table].decl_start < included)
            needs = include_needs(cv, included);
    for (int round = 0; round < 2 && best_kept < ndone; round++) {
        for (size_t place = 0; place < cv->ntables + (included >= 0); place++) {
            /* the include where it is first: moved only to keep more */
            size_t ti = included < 0 ? place : place == 0 ? cv->ntables : place - 1;
            if (included >= 0 && ti < cv->ntables &&
                (needs == -2 || cv->tables[ti].decl_start <= needs ||
                 cv->tables[ti].decl_start >= included ||
                 !same_conditions(cv, cv->tables[ti].decl_start, included)))
                continue;
            int at = included >= 0 && ti == cv->ntables
                ? included : cv->tables[ti].decl_start;
            size_t kept = 0;
            for (size_t k = 0; k < ndone; k++)
                if (cv->tables[done[k].table].decl_start >= at &&
                    (round ? done[k].hard_pos : done[k].type_pos) < at &&
                    (done[k].first_call < 0 || done[k].first_call > at))
                    kept++;
            if (kept > best_kept) {
                best = at;
                best_kept = kept;
                ahead = round == 1;
            }
        }
    }
    if (ahead)
        for (size_t k = 0; k < ndone; k++) {
            done[k].type_pos = done[k].hard_pos;
            done[k].type_name = done[k].hard_name;
        }
    first_table = best;
    for (size_t k = 0; k < ndone; k++) {
        Done *d = &done[k];
        const Table *t = &cv->tables[d->table];
        if (best >= 0 && t->decl_start >= best && d->type_pos < best &&
            (d->first_call < 0 || d->first_call > best))
            continue;
        d->dropped = true;
        converted--;
        refused[REFUSE_SHAPE]++;
        if (d->first_call >= 0 &&
            d->first_call <= (best >= 0 ? best : t->decl_start))
            note(cv, d->line, "%s left as it is (%s): it is called before "
                 "the place the generated code is included", d->full_name,
                 reason_names[REFUSE_SHAPE]);
        else if (best >= 0 && t->decl_start < best)
            note(cv, d->line, "%s left as it is (%s): its table %s comes "
                 "before the place the generated code is included (%s)",
                 d->full_name, reason_names[REFUSE_SHAPE], t->name,
                 included >= 0 ? "the file's own #include"
                               : "after the types of other functions");
        else if (best < 0 && included >= 0 && t->decl_start < included)
            note(cv, d->line, "%s left as it is (%s): its table %s comes "
                 "before the file's own #include of the generated code",
                 d->full_name, reason_names[REFUSE_SHAPE], t->name);
        else
            note(cv, d->line, "%s left as it is (%s): %s, which its "
                 "generated code names, is defined after a method table the "
                 "generated code must come before", d->full_name,
                 reason_names[REFUSE_SHAPE],
                 d->type_name ? d->type_name : "?");
    }
    /* a block before the file's own declaration of its module or class
       would name what is not declared yet */
    size_t moved_start = 0, moved_end = 0;
    for (size_t k = 0; k < ndone; k++) {
        Done *d = &done[k];
        const Table *t = &cv->tables[d->table];
        if (d->dropped)
            continue;
        long mod = *t->owner.module
            ? declared_at(cv, arena_printf(a, "module %s", t->owner.module))
            : -1;
        long cls = t->owner.class_name
            ? declared_at(cv, arena_printf(a, "class %s",
                                           full_name(cv, &t->owner, NULL)))
            : -1;
        long at = mod > cls ? mod : cls;
        if (at < 0 || (size_t)at < cv->toks[d->decl_start].start)
            continue;
        /* a block of declarations only moves up, before the first
           function (one block) */
        size_t bs, be;
        if (moved_end ? (size_t)at >= moved_start && (size_t)at < moved_end
                      : declarations_block(cv, (size_t)at, &bs, &be) &&
                            (moved_start = bs, moved_end = be, true))
            continue;
        d->dropped = true;
        converted--;
        refused[REFUSE_SHAPE]++;
        note(cv, d->line, "%s left as it is (%s): it comes before the "
             "file's declaration of its module or class", d->full_name,
             reason_names[REFUSE_SHAPE]);
    }
    for (size_t ti = 0; ti < cv->ntables; ti++) {
        Table *t = &cv->tables[ti];
        bool any = false;
        for (size_t k = 0; k < ndone; k++) {
            Done *d = &done[k];
            if (d->dropped || d->table != ti)
                continue;
            any = true;
            for (size_t j = 0; ahead && j < d->nahead; j++)
                if (aheads[d->ahead[j]].pos >= best)
                    aheads[d->ahead[j]].wanted = true;
            for (size_t j = 0; j < d->edits.n; j++)
                edit_add(a, &all, d->edits.e[j].start, d->edits.e[j].end,
                         d->edits.e[j].text);
            if (first_decl < 0 || d->decl_start < first_decl)
                first_decl = d->decl_start;
        }
        if (any) {
            const char *mod = arena_printf(a, "module %s", t->owner.module);
            if (*t->owner.module && !declared(cv, mod) &&
                !strstr(decls.buf, arena_printf(a, "%s\n", mod)))
                sb_addf(&decls, "%s\n", mod);
            if (t->owner.class_name) {
                const char *cls = arena_printf(a, "class %s",
                                               full_name(cv, &t->owner, NULL));
                /* once: a type's slots and its methods name one class */
                if (!declared(cv, cls) &&
                    !strstr(decls.buf ? decls.buf : "",
                            arena_printf(a, "%s \"", cls)))
                    sb_addf(&decls, "%s \"%s\" \"%s\"\n", cls, class_types[ti],
                            t->owner.type_object ? t->owner.type_object
                                                 : "NULL");
            }
        }
    }
    for (size_t k = 0; pass && k < ndone; k++) {
        if (done[k].dropped)
            pass_left(a, pass, nentries, done[k].func, REFUSE_SHAPE,
                      "the generated code cannot be included before it");
        else
            pass->converted[pass->nconverted++] = done[k].func;
    }
    if (stats) {
        stats->converted += converted;
        for (size_t k = 0; k < CONVERT_NREASONS; k++)
            stats->refused[k] += refused[k];
    }
    /* the docstrings taken from a header that nothing names now: the
       header is not the file's to change; the note says what to drop */
    for (size_t k = 0; k < ndone; k++) {
        if (done[k].dropped || !done[k].doc_header)
            continue;
        bool first = true;
        for (size_t j = 0; j < k; j++)
            if (!done[j].dropped && done[j].doc_header &&
                !strcmp(done[j].doc_header, done[k].doc_header))
                first = false;
        if (!first)
            continue;
        StrBuf vars = STRBUF_INIT;
        for (size_t j = k; j < ndone; j++) {
            if (done[j].dropped || !done[j].doc_header ||
                strcmp(done[j].doc_header, done[k].doc_header))
                continue;
            size_t naming = 0;
            bool listed = false;
            for (size_t i = k; i < ndone; i++)
                if (!done[i].dropped && done[i].doc_var &&
                    !strcmp(done[i].doc_var, done[j].doc_var)) {
                    naming++;
                    if (i < j)
                        listed = true;
                }
            if (!listed && (int)naming == ctok_count_ident(cv, done[j].doc_var))
                sb_addf(&vars, "%s%s", vars.len ? ", " : "", done[j].doc_var);
        }
        if (vars.len)
            sb_addf(&c->diagnostics, "%s: note: convert: the docstrings the "
                    "converted functions took from %s are named by nothing "
                    "now: %s\n", c->filename, done[k].doc_header, vars.buf);
        sb_free(&vars);
    }
    if (considered) {
        StrBuf sum = STRBUF_INIT;
        sb_addf(&sum, "%s: note: convert: %zu converted, %zu left as they "
                "are", c->filename, converted, considered - converted);
        const char *sep = " (";
        for (size_t k = 0; k < CONVERT_NREASONS; k++)
            if (refused[k]) {
                sb_addf(&sum, "%s%zu %s", sep, refused[k], reason_names[k]);
                sep = ", ";
            }
        sb_adds(&sum, *sep == ',' ? ")\n" : "\n");
        sb_addsb(&c->diagnostics, &sum);
        sb_free(&sum);
    }
    if (!converted) {
        sb_free(&decls);
        return text;
    }
    /* the declarations before the first function, the include before the
       first table */
    /* the file's block of declarations that had to move: before ours */
    const char *moved_block = "";
    if (moved_end) {
        size_t e = moved_end, next;
        if (blank_line_at(cv, e, &next))
            e = next;
        edit_add(a, &all, moved_start, e, "");
        moved_block = arena_printf(a, "%.*s\n", (int)(moved_end - moved_start),
                             text + moved_start);
    }
    if (decls.len || moved_end) {
        if (decls.len)
            sb_adds(&decls, "[clinic start generated code]*/\n\n");
        const char *block = arena_printf(a, "%s%s%s", moved_block,
                                         decls.len ? "/*[clinic input]\n" : "",
                                         decls.len ? decls.buf : "");
        edit_add(a, &all, cv->toks[first_decl].start,
                 cv->toks[first_decl].start, block);
    }
    sb_free(&decls);
    /* a PyDoc_STRVAR, or a file-scope kwlist, that only converted
       functions named goes */
    for (size_t k = 0; k < ndone; k++) {
        size_t named = namers_if_first(done, ndone, k, docvar_of);
        int dv = done[k].docvar_shared;
        if (named && (int)named + 1 == ctok_count_ident(cv, ctok_str(cv, dv + 2)))
            remove_lines(cv, &all, dv, find_semicolon(cv, dv, cv->ntoks), NULL);
        named = namers_if_first(done, ndone, k, kwlist_of);
        if (named && (int)named + 1 == ctok_count_ident(cv, done[k].kwlist_name))
            remove_lines(cv, &all, done[k].kwlist_shared, done[k].kwlist_semi,
                         NULL);
    }
    /* the types declared ahead of the include, in the order defined */
    StrBuf fwd = STRBUF_INIT;
    for (int pos = 0; pos < cv->ntoks; pos++)
        for (size_t h = 0; h < naheads; h++) {
            if (!aheads[h].wanted || aheads[h].pos != pos)
                continue;
            sb_addf(&fwd, "%s\n", aheads[h].decl);
            if (aheads[h].tag_after >= 0) {
                size_t e = ctok_end(cv, aheads[h].tag_after);
                edit_add(a, &all, e, e, arena_printf(a, " %s", aheads[h].name));
            }
        }
    if (fwd.len)
        sb_addc(&fwd, '\n');
    bool include_moved = included >= 0 && first_table != included;
    if (include_moved)
        remove_lines(cv, &all, included, included, NULL);
    size_t at = cv->toks[included >= 0 && !include_moved ? included
                                                         : first_table].start;
    while (at > 0 && text[at - 1] != '\n')
        at--;
    if (included < 0 || include_moved)
        edit_add(a, &all, at, at, arena_printf(a, "%s%s\n\n", fwd.len ? fwd.buf : "",
                                               include));
    else if (fwd.len)
        edit_add(a, &all, at, at, arena_strdup(a, fwd.buf));
    sb_free(&fwd);
    qsort(all.e, all.n, sizeof *all.e, compare_edits);
    StrBuf out = STRBUF_INIT;
    size_t pos = 0;
    for (size_t k = 0; k < all.n; k++) {
        const Edit *ed = &all.e[k];
        if (ed->start < pos) {
            /* only removals overlap (blank lines two of them take) */
            if (ed->end > pos)
                pos = ed->end;
            continue;
        }
        sb_add(&out, text + pos, ed->start - pos);
        sb_adds(&out, ed->text);
        pos = ed->end;
    }
    sb_add(&out, text + pos, len - pos);
    *out_len = out.len;
    return sb_take(&out, a);
}

static bool pass_converted(const Pass *p, const char *func)
{
    for (size_t k = 0; k < p->nconverted; k++)
        if (!strcmp(p->converted[k], func))
            return true;
    return false;
}

/* Functions a macro defines are converted where the macro's use can be
   written out: a first pass, quiet, over the text with every such use
   written out says which functions convert there; the text with those
   uses written out is then converted, and a use whose function is left
   after all is taken back, until none is. */
const char *convert_text(Clinic *c, const char *text, size_t len,
                         size_t *out_len, ConvertStats *stats)
{
    Conv conv = {0};
    conv.c = c;
    conv.text = text;
    conv.len = len;
    conv_lex(&conv);
    conv_find_tables(&conv);
    MacroUse *uses;
    size_t nuses = conv_macro_uses(&conv, &uses);
    if (!nuses)
        return convert_once(c, text, len, out_len, stats, NULL);
    size_t mark = c->diagnostics.len;
    for (size_t k = 0; k < nuses; k++)
        uses[k].expand = true;
    size_t elen;
    const char *expanded = conv_expand_uses(&conv, uses, nuses, false, &elen);
    Pass first = {0};
    ConvertStats quiet = {0};
    convert_once(c, expanded, elen, &elen, &quiet, &first);
    sb_setlen(&c->diagnostics, mark);
    /* the reasons of the functions the uses define */
    size_t nwhy = 0;
    for (size_t k = 0; k < first.nleft; k++)
        for (size_t u = 0; u < nuses; u++)
            for (size_t j = 0; j < uses[u].nfuncs; j++)
                if (!strcmp(uses[u].funcs[j], first.left[k].func)) {
                    first.left[nwhy++] = first.left[k];
                    u = nuses - 1;
                    break;
                }
    first.nleft = nwhy;
    for (size_t k = 0; k < nuses; k++)
        for (size_t j = 0; j < uses[k].nfuncs; j++)
            if (!pass_converted(&first, uses[k].funcs[j]))
                uses[k].expand = false;
    for (;;) {
        Pass pass = {first.left, first.nleft, NULL, 0, NULL, 0};
        ConvertStats these = {0};
        const char *in = conv_expand_uses(&conv, uses, nuses, true, &elen);
        const char *out = convert_once(c, in, elen, out_len, &these, &pass);
        bool taken_back = false;
        for (size_t k = 0; k < nuses; k++)
            for (size_t j = 0; uses[k].expand && j < uses[k].nfuncs; j++)
                if (!pass_converted(&pass, uses[k].funcs[j])) {
                    uses[k].expand = false;
                    taken_back = true;
                }
        if (!taken_back) {
            if (stats) {
                stats->converted += these.converted;
                for (size_t k = 0; k < CONVERT_NREASONS; k++)
                    stats->refused[k] += these.refused[k];
            }
            if (out == in && in != text) {
                /* nothing converted: the file as it was */
                *out_len = len;
                return text;
            }
            return out;
        }
        sb_setlen(&c->diagnostics, mark);
    }
}
