/*
 * convert_find.c — what a file declares at its top level, for --convert:
 * its PyModuleDef (the module's name and function table), its types
 * (static PyTypeObjects, PyType_Specs and their slots: each type's name and
 * method table) and its PyMethodDef tables with their entries.  Only what
 * is spelled out is taken: an initialiser with a preprocessor line in it,
 * or a field that is not a plain name, names nothing.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "convert/convert_int.h"

#define MAX_FIELDS 64

/* The fields of the initialiser whose "{" is token open: positional
   fields in fields[], and designated ones (".name = value") looked up by
   field_named().  Returns false when a preprocessor line is inside. */
typedef struct Init {
    int fields[MAX_FIELDS], ends[MAX_FIELDS];
    size_t n;
} Init;

static bool read_init(const Conv *cv, int open, Init *init)
{
    int close = cv->toks[open].match;
    if (close < 0)
        return false;
    for (int i = open + 1; i < close; i++)
        if (cv->toks[i].kind == TK_PP)
            return false;
    init->n = ctok_split(cv, open + 1, close, init->fields, init->ends,
                        MAX_FIELDS);
    return init->n <= MAX_FIELDS;
}

/* Past a head macro ("PyVarObject_HEAD_INIT(NULL, 0)") that a field
   begins with: it ends in a comma of its own. */
static int skip_head(const Conv *cv, int f, int end)
{
    if (cv->toks[f].kind == TK_IDENT && ctok_is(cv, f + 1, "(") &&
        cv->toks[f + 1].match > f && cv->toks[f + 1].match + 1 < end &&
        strstr(ctok_str(cv, f), "HEAD_INIT"))
        return cv->toks[f + 1].match + 1;
    return f;
}

/* The value of ".name = value" among the fields: its first token, or -1. */
static int field_named(const Conv *cv, const Init *init, const char *name,
                       int *end)
{
    for (size_t k = 0; k < init->n; k++) {
        int f = skip_head(cv, init->fields[k], init->ends[k]);
        if (ctok_is(cv, f, ".") && ctok_ident(cv, f + 1, name) &&
            ctok_is(cv, f + 2, "=")) {
            *end = init->ends[k];
            return f + 3;
        }
    }
    return -1;
}

/* A field that is one identifier, maybe with a "&" before it: its token,
   or -1. */
static int plain_name(const Conv *cv, int from, int to)
{
    if (to - from == 1 && cv->toks[from].kind == TK_IDENT)
        return from;
    return -1;
}

/* Designated from the start (".name = value"), maybe after a head
   macro; positional fields may end in designated ones, which do not
   count. */
static bool designated(const Conv *cv, const Init *init)
{
    for (size_t k = 0; k < init->n && k < 2; k++) {
        int f = skip_head(cv, init->fields[k], init->ends[k]);
        if (ctok_is(cv, f, "."))
            return true;
        if (f == init->fields[k] && !strstr(ctok_str(cv, f), "HEAD_INIT"))
            return false;   /* a positional field */
    }
    return false;
}

static Table *table_named(Conv *cv, int tok)
{
    if (tok < 0)
        return NULL;
    for (size_t i = 0; i < cv->ntables; i++)
        if (ctok_is(cv, tok, cv->tables[i].name))
            return &cv->tables[i];
    return NULL;
}

static const char *blocks_module(const Conv *cv);

/* A type's tp_name: the class is what follows the last dot, the module
   the file's (what precedes the dot when the file has none; with no dot
   and no module, none: a class at the top level, as the builtins' are).  NULL: not read, or
   a module of more than one name. */
static const char *class_of(Conv *cv, int tok, const char **module)
{
    int end;
    if (cv->toks[tok].kind == TK_IDENT && tok + 1 < cv->ntoks &&
        cv->toks[tok + 1].kind == TK_STRING) {
        /* MODNAME ".Name": the module is the file's, whatever the macro
           says on each platform */
        char *rest = ctok_strings(cv, tok + 1, &end);
        const char *mod = blocks_module(cv);
        if (!mod)
            mod = cv->module;
        if (!rest || rest[0] != '.' || !mod ||
            !text_is_legal_py_identifier(rest + 1))
            return NULL;
        *module = mod;
        return rest + 1;
    }
    char *name = ctok_strings(cv, tok, &end);
    if (!name || !*name)
        return NULL;
    char *dot = strrchr(name, '.');
    if (!dot) {
        *module = cv->module ? cv->module : "";
        return text_is_legal_py_identifier(name) ? name : NULL;
    }
    *dot = '\0';
    if (!text_is_legal_py_identifier(name) ||
        !text_is_legal_py_identifier(dot + 1))
        return NULL;
    /* the file's module names it in clinic ("collections.deque" of the
       module _collections is _collections.deque) */
    *module = cv->module ? cv->module : name;
    return dot + 1;
}

/* The module the file's clinic blocks declare ("module os" at the start
   of a line); NULL: none, or more than one. */
static const char *blocks_module(const Conv *cv)
{
    const char *found = NULL;
    size_t flen = 0;
    for (const char *p = cv->text; (p = strstr(p, "module ")) != NULL; p += 7) {
        if (p != cv->text && p[-1] != '\n')
            continue;
        const char *n = p + 7, *e = n;
        while (isalnum((unsigned char)*e) || *e == '_' || *e == '.')
            e++;
        if (e == n || *e != '\n')
            continue;
        if (found && ((size_t)(e - n) != flen || strncmp(found, n, flen)))
            return NULL;
        found = n;
        flen = (size_t)(e - n);
    }
    return found ? arena_strndup(cv->c->arena, found, flen) : NULL;
}

static Table *table_called(Conv *cv, const char *name)
{
    for (size_t i = 0; i < cv->ntables; i++)
        if (!strcmp(cv->tables[i].name, name))
            return &cv->tables[i];
    return NULL;
}

static void set_owner(Table *t, const char *module,
                      const char *class_name, const char *type_object)
{
    if (!t || t->owner.module || !module)
        return;
    t->owner.module = module;
    t->owner.class_name = class_name;
    t->owner.type_object = type_object;
}

/* The entries of the table whose "{" is token open. */
static void read_entries(Conv *cv, Table *t)
{
    size_t cap = 0;
    for (int i = t->open + 1; i < t->close; i++) {
        if (!ctok_is(cv, i, "{") || cv->toks[i].match < 0)
            continue;
        int close = cv->toks[i].match;
        int f[8], e[8];
        size_t n = ctok_split(cv, i + 1, close, f, e, 8);
        Entry en = {0};
        en.open = i;
        en.close = close;
        en.line = cv->toks[i].line;
        en.name_tok = en.func_tok = -1;
        if (n >= 3 && n <= 4 && e[0] - f[0] == 1 &&
            cv->toks[f[0]].kind == TK_STRING) {
            int end;
            en.pyname = ctok_strings(cv, f[0], &end);
            en.name_tok = f[0];
            /* (PyCFunction)func, (PyCFunction)(void(*)(void))func, func */
            int last = e[1] - 1;
            if (last >= f[1] && cv->toks[last].kind == TK_IDENT) {
                bool casts_only = true;
                for (int k = f[1]; k < last; k++)
                    if (cv->toks[k].kind == TK_IDENT &&
                        !ctok_is(cv, k, "PyCFunction") &&
                        !ctok_is(cv, k, "PyCFunctionWithKeywords") &&
                        !ctok_is(cv, k, "void"))
                        casts_only = false;
                if (casts_only && (last == f[1] || ctok_is(cv, last - 1, ")"))) {
                    en.func_tok = last;
                    en.func = ctok_str(cv, last);
                }
            }
            en.flags_from = f[2];
            en.flags_to = e[2];
            en.doc_from = n == 4 ? f[3] : e[2];
            en.doc_to = n == 4 ? e[3] : e[2];
        }
        if (t->nentries == cap) {
            size_t nc = cap ? 2 * cap : 16;
            Entry *ne = arena_array_of(cv->c->arena, Entry, nc);
            if (t->nentries)
                memcpy(ne, t->entries, t->nentries * sizeof *ne);
            t->entries = ne;
            cap = nc;
        }
        t->entries[t->nentries++] = en;
        i = close;
    }
}

/* Walks back from the name of a top-level declaration to its first
   token: past the specifiers, to the token after the last ";", "}" or
   preprocessor line. */
static int declaration_start(const Conv *cv, int name)
{
    int i = name;
    while (i > 0) {
        const Tok *p = &cv->toks[i - 1];
        if (p->kind == TK_PP || ctok_is(cv, i - 1, ";") ||
            ctok_is(cv, i - 1, "}") || ctok_is(cv, i - 1, "{"))
            break;
        i--;
    }
    return i;
}

/* "#define NAME IDENT" (once, or every time the same): IDENT; NULL
   otherwise. */
static const char *defined_identifier(const Conv *cv, const char *name)
{
    const char *found = NULL;
    for (int i = 0; i < cv->ntoks; i++) {
        size_t len;
        const char *p = ctok_define(cv, i, &len);
        if (!p || len != strlen(name) || memcmp(p, name, len) ||
            (p[len] != ' ' && p[len] != '\t'))
            continue;
        const char *e = cv->text + ctok_end(cv, i);
        p += len;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        const char *value = arena_strndup(cv->c->arena, p, (size_t)(e - p));
        if (!text_is_legal_py_identifier(value) || (found && strcmp(found, value)))
            return NULL;
        found = value;
    }
    return found;
}

/* The string a macro stands for, when the file defines it as one plain
   literal ("#define PySocket_MODULE_NAME "_socket"") or as
   Py_STRINGIFY(NAME), the same on every platform; else NULL. */
static char *defined_string(const Conv *cv, const char *name)
{
    size_t n = strlen(name);
    char *found = NULL;
    for (int i = 0; i < cv->ntoks; i++) {
        if (cv->toks[i].kind != TK_PP)
            continue;
        const char *p = cv->text + cv->toks[i].start;
        const char *e = p + cv->toks[i].len;
        p++;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (e - p < 7 || memcmp(p, "define", 6) || (p[6] != ' ' && p[6] != '\t'))
            continue;
        p += 6;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if ((size_t)(e - p) <= n || memcmp(p, name, n) ||
            (p[n] != ' ' && p[n] != '\t'))
            continue;
        p += n;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        /* Py_STRINGIFY(NAME), NAME a macro of one identifier */
        if (e - p > 13 && !memcmp(p, "Py_STRINGIFY(", 13) && e[-1] == ')') {
            const char *arg = arena_strndup(cv->c->arena, p + 13,
                                            (size_t)(e - p - 14));
            const char *ident = defined_identifier(cv, arg);
            if (!ident)
                return NULL;
            if (found && strcmp(found, ident))
                return NULL;
            found = arena_strdup(cv->c->arena, ident);
            continue;
        }
        if (e - p < 2 || *p != '"' || e[-1] != '"')
            return NULL;
        for (const char *q = p + 1; q < e - 1; q++)
            if (*q == '"' || *q == '\\')
                return NULL;
        /* defined again otherwise (one name per platform): none */
        char *value = arena_strndup(cv->c->arena, p + 1, (size_t)(e - p - 2));
        if (found && strcmp(found, value))
            return NULL;
        found = value;
    }
    return found;
}

/* The headers the file includes with quotes from beside it
   ("#include "socketmodule.h""), as the compiler finds them first, read
   through the library's reader and lexed once. */
void conv_read_headers(Conv *cv)
{
    if (cv->headers_read)
        return;
    cv->headers_read = true;
    ClinicReadFn read = cv->c->options.read_file;
    if (!read)
        return;
    Arena *a = cv->c->arena;
    const char *slash = strrchr(cv->c->filename, '/');
    size_t dirlen = slash ? (size_t)(slash - cv->c->filename) + 1 : 0;
    size_t cap = 0;
    for (int i = 0; i < cv->ntoks; i++) {
        if (cv->toks[i].kind != TK_PP)
            continue;
        const char *p = cv->text + cv->toks[i].start;
        const char *end = p + cv->toks[i].len;
        p++;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (end - p < 8 || memcmp(p, "include", 7))
            continue;
        p += 7;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p >= end || *p != '"')
            continue;
        const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
        if (!q || q == p + 1 || p[1] == '/')
            continue;
        bool up = false;
        for (const char *d = p + 1; d + 1 < q; d++)
            if (d[0] == '.' && d[1] == '.')
                up = true;
        if (up)
            continue;
        const char *path = arena_printf(a, "%.*s%.*s", (int)dirlen,
                                        cv->c->filename, (int)(q - p - 1),
                                        p + 1);
        char *data;
        size_t len;
        if (read(cv->c->options.read_userdata, path, &data, &len))
            continue;
        Conv *h = arena_new_of(a, Conv);
        memset(h, 0, sizeof *h);
        h->c = cv->c;
        h->text = arena_strndup(a, data, len);
        h->len = len;
        h->path = arena_strndup(a, p + 1, (size_t)(q - p - 1));
        free(data);
        conv_lex(h);
        if (cv->nheaders == cap) {
            size_t nc = cap ? 2 * cap : 4;
            Conv **nh = arena_array_of(a, Conv *, nc);
            if (cv->nheaders)
                memcpy(nh, cv->headers, cv->nheaders * sizeof *nh);
            cv->headers = nh;
            cap = nc;
        }
        cv->headers[cv->nheaders++] = h;
    }
}

/* The same from a header the file includes. */
static char *included_string(Conv *cv, const char *name)
{
    conv_read_headers(cv);
    for (size_t k = 0; k < cv->nheaders; k++) {
        char *value = defined_string(cv->headers[k], name);
        if (value)
            return value;
    }
    return NULL;
}

/* The line of a clinic block that declares "module NAME" or "class NAME
   ...": its text after the keyword and the name, or NULL. */
static const char *declaration_of(const Conv *cv, const char *keyword,
                                  const char *name)
{
    const char *line = arena_printf(cv->c->arena, "%s %s", keyword, name);
    size_t n = strlen(line);
    for (const char *p = cv->text; (p = strstr(p, line)) != NULL; p += n)
        if ((p == cv->text || p[-1] == '\n') && (p[n] == '\n' || p[n] == ' '))
            return p + n;
    return NULL;
}

/* The owner of a table no PyModuleDef or type names, from the clinic
   blocks of the file whose _METHODDEF it holds already: "_ctypes.POINTER
   as create_pointer_type" puts CREATE_POINTER_TYPE_METHODDEF in a table
   of the module _ctypes the file declares.  All of them must agree. */
static void owner_from_blocks(Conv *cv, Table *t)
{
    Arena *a = cv->c->arena;
    const char *owner = NULL;
    for (int i = t->open + 1; i < t->close; i++) {
        if (cv->toks[i].kind != TK_IDENT || cv->toks[i].depth != cv->toks[t->open].depth + 1)
            continue;
        const char *macro = ctok_str(cv, i);
        size_t ml = strlen(macro);
        if (ml <= 10 || strcmp(macro + ml - 10, "_METHODDEF"))
            continue;
        const char *found = NULL;
        for (const char *p = cv->text; (p = strstr(p, "/*[clinic input]\n")) != NULL; ) {
            p += 17;
            /* the function's line: the first that declares nothing */
            while (*p == '\n' || !strncmp(p, "module ", 7) ||
                   !strncmp(p, "class ", 6) || *p == '@' || *p == '#')
                p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != '\0');
            size_t ln = strcspn(p, "\n");
            char *line = arena_strndup(a, p, ln);
            char *sp = strchr(line, ' ');
            char *base;
            if (sp) {
                *sp = '\0';
                const char *as = strstr(sp + 1, "as ");
                base = as == sp + 1 ? arena_strndup(a, as + 3, strcspn(as + 3, " "))
                                    : NULL;
                if (!base && sp[1] != '-' && sp[1] != '=')
                    continue;
            } else {
                base = NULL;
            }
            if (!base) {
                base = arena_strdup(a, line);
                for (char *q = base; *q; q++)
                    if (*q == '.')
                        *q = '_';
            }
            char *up = arena_printf(a, "%s_METHODDEF", base);
            for (char *q = up; *q; q++)
                *q = (char)toupper((unsigned char)*q);
            if (!strcmp(up, macro)) {
                found = line;
                break;
            }
        }
        if (!found || !strrchr(found, '.'))
            return;
        char *prefix = arena_strndup(a, found, (size_t)(strrchr(found, '.') - found));
        if (owner && strcmp(owner, prefix))
            return;
        owner = prefix;
    }
    if (!owner)
        return;
    if (declaration_of(cv, "module", owner)) {
        set_owner(t, owner, NULL, NULL);
        return;
    }
    const char *rest = declaration_of(cv, "class", owner);
    if (!rest)
        return;
    /* class NAME "TYPE" "TYPE_OBJECT" */
    const char *q1 = strchr(rest, '"'), *q2 = q1 ? strchr(q1 + 1, '"') : NULL;
    const char *q3 = q2 ? strchr(q2 + 1, '"') : NULL, *q4 = q3 ? strchr(q3 + 1, '"') : NULL;
    const char *eol = strchr(rest, '\n');
    const char *type_object = q4 && (!eol || q4 < eol)
        ? arena_strndup(a, q3 + 1, (size_t)(q4 - q3 - 1)) : NULL;
    const char *dot = strrchr(owner, '.');
    set_owner(t, dot ? arena_strndup(a, owner, (size_t)(dot - owner)) : "",
              dot ? dot + 1 : owner, type_object);
}

/* A type's tp_new or tp_init slot naming the function at token func
   (maybe cast: "(initproc)func"): an entry of the type's slot table,
   whose declaration (the type's or its slots') starts at decl_start. */
static void add_slot(Conv *cv, const char *module, const char *cls,
                     const char *type_object, int slot, int from, int to,
                     int decl_start)
{
    int func = to - 1;
    if (func < from || cv->toks[func].kind != TK_IDENT ||
        !(func == from || (func - from == 3 && ctok_is(cv, from, "(") &&
                           ctok_is(cv, from + 2, ")"))))
        return;
    Arena *a = cv->c->arena;
    Table *t = NULL;
    for (size_t k = 0; k < cv->ntables; k++)
        if (cv->tables[k].slots && cv->tables[k].decl_start == decl_start)
            t = &cv->tables[k];
    if (!t) {
        Table *nt = arena_array_of(a, Table, cv->ntables + 1);
        if (cv->ntables)
            memcpy(nt, cv->tables, cv->ntables * sizeof *nt);
        cv->tables = nt;
        t = &cv->tables[cv->ntables++];
        memset(t, 0, sizeof *t);
        t->name = arena_printf(a, "the slots of %s", cls);
        t->open = t->close = -1;
        t->decl_start = decl_start;
        t->slots = true;
        t->entries = arena_array_of(a, Entry, 2);
        set_owner(t, module, cls, type_object);
    }
    if (t->nentries == 2)
        return;
    Entry *e = &t->entries[t->nentries++];
    memset(e, 0, sizeof *e);
    e->open = e->close = e->name_tok = -1;
    e->func_tok = func;
    e->func = ctok_str(cv, func);
    e->pyname = slot == SLOT_NEW ? "__new__" : "__init__";
    e->line = cv->toks[func].line;
    e->slot = slot;
}

/* The static types the text of ty defines: PyTypeObject NAME = {
   PyVarObject_HEAD_INIT(..) "mod.Name", ... (tp_methods is the 27th
   field) }, the owners of cv's tables they name (ty is cv, or a macro's
   expansion in cv; the slots are read in cv only). */
void conv_read_static_types(Conv *cv, Conv *ty)
{
    for (int i = 0; i + 3 < ty->ntoks; i++) {
        if (ty->toks[i].depth != 0 || !ctok_ident(ty, i, "PyTypeObject") ||
            ty->toks[i + 1].kind != TK_IDENT || !ctok_is(ty, i + 2, "=") ||
            !ctok_is(ty, i + 3, "{"))
            continue;
        Init init;
        if (!read_init(ty, i + 3, &init) || !init.n)
            continue;
        const char *type_object = arena_printf(cv->c->arena, "&%s",
                                               ctok_str(ty, i + 1));
        int name = -1, methods = -1, end;
        if (designated(ty, &init)) {
            name = field_named(ty, &init, "tp_name", &end);
            /* the head and the name positional, the rest designated */
            int f0 = skip_head(ty, init.fields[0], init.ends[0]);
            if (name < 0 && f0 != init.fields[0] && f0 < init.ends[0] &&
                ty->toks[f0].kind == TK_STRING)
                name = f0;
            int m = field_named(ty, &init, "tp_methods", &end);
            if (m >= 0)
                methods = plain_name(ty, m, end);
        } else {
            /* the head macro, then tp_name with or without a comma */
            int f0 = init.fields[0];
            if (!(ctok_ident(ty, f0, "PyVarObject_HEAD_INIT") ||
                  ctok_ident(ty, f0, "PyObject_HEAD_INIT")) ||
                !ctok_is(ty, f0 + 1, "("))
                continue;
            int after = ty->toks[f0 + 1].match + 1;
            size_t base = after < init.ends[0] ? 0 : 1;
            name = after < init.ends[0] ? after : (init.n > 1 ? init.fields[1] : -1);
            if (init.n > base + 26)
                methods = plain_name(ty, init.fields[base + 26],
                                     init.ends[base + 26]);
        }
        const char *module = NULL;
        const char *cls = name >= 0 ? class_of(ty, name, &module) : NULL;
        if (cls)
            set_owner(methods >= 0 ? table_called(cv, ctok_str(ty, methods)) : NULL,
                      module, cls, type_object);
        if (cls && ty == cv && designated(ty, &init)) {
            int start = declaration_start(ty, i + 1);
            int v = field_named(ty, &init, "tp_new", &end);
            if (v >= 0)
                add_slot(cv, module, cls, type_object, SLOT_NEW, v, end, start);
            v = field_named(ty, &init, "tp_init", &end);
            if (v >= 0)
                add_slot(cv, module, cls, type_object, SLOT_INIT, v, end, start);
        }
    }
}

void conv_find_tables(Conv *cv)
{
    size_t cap = 0;
    /* the tables first: the module and the types name them */
    for (int i = 0; i + 4 < cv->ntoks; i++) {
        if (cv->toks[i].depth != 0 || !ctok_ident(cv, i, "PyMethodDef") ||
            cv->toks[i + 1].kind != TK_IDENT || !ctok_is(cv, i + 2, "["))
            continue;
        int close_br = cv->toks[i + 2].match;
        if (close_br < 0 || !ctok_is(cv, close_br + 1, "=") ||
            !ctok_is(cv, close_br + 2, "{") || cv->toks[close_br + 2].match < 0)
            continue;
        if (cv->ntables == cap) {
            size_t nc = cap ? 2 * cap : 8;
            Table *nt = arena_array_of(cv->c->arena, Table, nc);
            if (cv->ntables)
                memcpy(nt, cv->tables, cv->ntables * sizeof *nt);
            cv->tables = nt;
            cap = nc;
        }
        Table *t = &cv->tables[cv->ntables++];
        memset(t, 0, sizeof *t);
        t->name = ctok_str(cv, i + 1);
        t->open = close_br + 2;
        t->close = cv->toks[t->open].match;
        t->decl_start = declaration_start(cv, i + 1);
        read_entries(cv, t);
        i = t->close;
    }

    /* the module: PyModuleDef NAME = { PyModuleDef_HEAD_INIT, "name",
       doc, size, methods, ... } or designated */
    for (int i = 0; i + 3 < cv->ntoks && !cv->module; i++) {
        if (cv->toks[i].depth != 0 || !ctok_ident(cv, i, "PyModuleDef") ||
            cv->toks[i + 1].kind != TK_IDENT || !ctok_is(cv, i + 2, "=") ||
            !ctok_is(cv, i + 3, "{"))
            continue;
        Init init;
        if (!read_init(cv, i + 3, &init))
            continue;
        int name = -1, methods = -1, end;
        if (designated(cv, &init)) {
            name = field_named(cv, &init, "m_name", &end);
            int m = field_named(cv, &init, "m_methods", &end);
            if (m >= 0)
                methods = plain_name(cv, m, end);
        } else if (init.n >= 2 && ctok_ident(cv, init.fields[0],
                                            "PyModuleDef_HEAD_INIT")) {
            name = init.fields[1];
            if (init.n >= 5)
                methods = plain_name(cv, init.fields[4], init.ends[4]);
        }
        int end_name;
        char *modname = name >= 0 ? ctok_strings(cv, name, &end_name) : NULL;
        if (!modname && name >= 0 && cv->toks[name].kind == TK_IDENT)
            modname = defined_string(cv, ctok_str(cv, name));
        if (!modname && name >= 0 && cv->toks[name].kind == TK_IDENT)
            modname = included_string(cv, ctok_str(cv, name));
        if (!modname || !*modname || strchr(modname, '.'))
            continue;
        cv->module = modname;
        set_owner(table_named(cv, methods), cv->module, NULL, NULL);
    }

    conv_read_static_types(cv, cv);

    /* heap types: PyType_Spec NAME = { "mod.Name", size, itemsize, flags,
       slots } whose slots hold {Py_tp_methods, table} */
    for (int i = 0; i + 3 < cv->ntoks; i++) {
        if (cv->toks[i].depth != 0 || !ctok_ident(cv, i, "PyType_Spec") ||
            cv->toks[i + 1].kind != TK_IDENT || !ctok_is(cv, i + 2, "=") ||
            !ctok_is(cv, i + 3, "{"))
            continue;
        Init init;
        if (!read_init(cv, i + 3, &init) || !init.n)
            continue;
        int name = -1, slots = -1, end;
        if (designated(cv, &init)) {
            name = field_named(cv, &init, "name", &end);
            int s = field_named(cv, &init, "slots", &end);
            if (s >= 0)
                slots = plain_name(cv, s, end);
        } else if (init.n >= 5) {
            name = init.fields[0];
            slots = plain_name(cv, init.fields[4], init.ends[4]);
        }
        const char *module = NULL;
        const char *cls = name >= 0 ? class_of(cv, name, &module) : NULL;
        if (!cls || slots < 0)
            continue;
        /* PyType_Slot SLOTS[] = { {Py_tp_methods, table}, ... } */
        for (int k = 0; k + 4 < cv->ntoks; k++) {
            if (cv->toks[k].depth != 0 || !ctok_ident(cv, k, "PyType_Slot") ||
                !ctok_is(cv, k + 1, cv->text[0] ? ctok_str(cv, slots) : "") ||
                !ctok_is(cv, k + 2, "["))
                continue;
            int cb = cv->toks[k + 2].match;
            if (cb < 0 || !ctok_is(cv, cb + 1, "=") || !ctok_is(cv, cb + 2, "{"))
                continue;
            /* preprocessor lines may stand between the slots: each
               slot is read on its own */
            int close = cv->toks[cb + 2].match;
            for (int f = cb + 3; f + 4 < close; f++) {
                if (ctok_is(cv, f, "{") && ctok_ident(cv, f + 1, "Py_tp_methods") &&
                    ctok_is(cv, f + 2, ",") && cv->toks[f + 3].kind == TK_IDENT &&
                    ctok_is(cv, f + 4, "}"))
                    set_owner(table_named(cv, f + 3), module, cls, NULL);
                bool is_new = ctok_ident(cv, f + 1, "Py_tp_new");
                if (ctok_is(cv, f, "{") && (is_new || ctok_ident(cv, f + 1, "Py_tp_init")) &&
                    ctok_is(cv, f + 2, ",") && cv->toks[f].match > f + 3)
                    add_slot(cv, module, cls, NULL, is_new ? SLOT_NEW : SLOT_INIT,
                             f + 3, cv->toks[f].match, declaration_start(cv, k + 1));
            }
            break;
        }
    }

    conv_macro_owners(cv);
    for (size_t k = 0; k < cv->ntables; k++)
        if (!cv->tables[k].owner.module)
            owner_from_blocks(cv, &cv->tables[k]);
}
