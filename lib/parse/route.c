/*
 * route.c — the routing configuration (clinic.py's BufferSeries,
 * Destination and the destination half of the Clinic class): the
 * destinations, their buffers, the presets and which buffer each of the
 * ten generated fields goes to.  The output directives (directive.c)
 * change it; the generator's output stage (output.c) writes through it.
 */
#include "parse/route.h"
#include "model/message.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

const char *const router_field_names[ROUTER_NFIELDS] = {
    "cpp_if",
    "docstring_prototype",
    "docstring_definition",
    "methoddef_define",
    "impl_prototype",
    "parser_prototype",
    "parser_definition",
    "cpp_endif",
    "methoddef_ifndef",
    "impl_definition",
};

/* clinic.py's Clinic.presets_text, kept in its own words: "preset NAME"
   starts a preset, "everything DEST [N]" routes every field, "FIELD DEST
   [N]" one field, to buffer N (default 0) of destination DEST. */
static const char presets_text[] =
    "preset block\n"
    "everything block\n"
    "methoddef_ifndef buffer 1\n"
    "docstring_prototype suppress\n"
    "parser_prototype suppress\n"
    "cpp_if suppress\n"
    "cpp_endif suppress\n"
    "\n"
    "preset original\n"
    "everything block\n"
    "methoddef_ifndef buffer 1\n"
    "docstring_prototype suppress\n"
    "parser_prototype suppress\n"
    "cpp_if suppress\n"
    "cpp_endif suppress\n"
    "\n"
    "preset file\n"
    "everything file\n"
    "methoddef_ifndef file 1\n"
    "docstring_prototype suppress\n"
    "parser_prototype suppress\n"
    "impl_definition block\n"
    "\n"
    "preset buffer\n"
    "everything buffer\n"
    "methoddef_ifndef buffer 1\n"
    "impl_definition block\n"
    "docstring_prototype suppress\n"
    "impl_prototype suppress\n"
    "parser_prototype suppress\n"
    "\n"
    "preset partial-buffer\n"
    "everything buffer\n"
    "methoddef_ifndef buffer 1\n"
    "docstring_prototype block\n"
    "impl_prototype suppress\n"
    "methoddef_define block\n"
    "parser_prototype block\n"
    "impl_definition block\n";

/* ---- Python-flavoured helpers ----------------------------------------- */

const char *route_repr(Clinic *c, const char *s)
{
    bool has_single = strchr(s, '\'') != NULL;
    bool has_double = strchr(s, '"') != NULL;
    char quote = (has_single && !has_double) ? '"' : '\'';
    StrBuf sb = STRBUF_INIT;
    sb_addc(&sb, quote);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned ch = *p;
        if (ch == (unsigned char)quote || ch == '\\') {
            sb_addc(&sb, '\\');
            sb_addc(&sb, (char)ch);
        } else if (ch == '\n') {
            sb_adds(&sb, "\\n");
        } else if (ch == '\r') {
            sb_adds(&sb, "\\r");
        } else if (ch == '\t') {
            sb_adds(&sb, "\\t");
        } else if (ch < 0x20 || ch == 0x7f) {
            sb_addf(&sb, "\\x%02x", ch);
        } else if (ch == 0xc2 && p[1] >= 0x80 && p[1] <= 0xa0) {
            /* U+0080..U+00A0 are not printable for Python */
            sb_addf(&sb, "\\x%02x", p[1]);
            p++;
        } else if (ch == 0xc2 && p[1] == 0xad) {
            sb_adds(&sb, "\\xad");
            p++;
        } else {
            sb_addc(&sb, (char)ch);
        }
    }
    sb_addc(&sb, quote);
    return sb_take(&sb, c->arena);
}

/* os.path.split() and os.path.splitext() (POSIX). */
void route_path_split(Arena *a, const char *p, const char **head,
                       const char **tail)
{
    const char *slash = strrchr(p, '/');
    size_t i = slash ? (size_t)(slash - p) + 1 : 0;
    size_t n = i;
    bool all_slashes = true;
    for (size_t k = 0; k < i; k++)
        if (p[k] != '/')
            all_slashes = false;
    if (n && !all_slashes)
        while (n > 0 && p[n - 1] == '/')
            n--;
    *head = arena_strndup(a, p, n);
    *tail = arena_strdup(a, p + i);
}

static void path_splitext(Arena *a, const char *p, const char **root,
                          const char **ext)
{
    const char *sep = strrchr(p, '/');
    const char *dot = strrchr(p, '.');
    if (dot && (!sep || dot > sep)) {
        /* leading dots of the last component do not start an extension */
        for (const char *q = sep ? sep + 1 : p; q < dot; q++) {
            if (*q != '.') {
                *root = arena_strndup(a, p, (size_t)(dot - p));
                *ext = arena_strdup(a, dot);
                return;
            }
        }
    }
    *root = arena_strdup(a, p);
    *ext = "";
}

/* ---- buffers and destinations ----------------------------------------- */

void textbuffer_append(Clinic *c, TextBuffer *tb, const char *text)
{
    textbuffer_append_n(c, tb, text, strlen(text));
}

/* The pieces double from this size up to the largest, which a big
   text then takes one after another: what a buffer holds but does not
   use stays below the largest piece. */
#define TEXT_PIECE_FIRST 256
#define TEXT_PIECE_MAX (64 * 1024)

void textbuffer_append_n(Clinic *c, TextBuffer *tb, const char *text,
                         size_t n)
{
    if (n == 0)
        return;
    tb->len += n;
    TextPiece *p = tb->last;
    for (;;) {
        if (p) {
            size_t room = p->cap - p->len;
            size_t k = n < room ? n : room;
            memcpy(p->text + p->len, text, k);
            p->len += k;
            if (k == n)
                return;
            text += k;
            n -= k;
            if (p->next) {              /* an emptied buffer's next piece */
                p = tb->last = p->next;
                continue;
            }
        }
        size_t cap = p ? 2 * p->cap : TEXT_PIECE_FIRST;
        if (cap > TEXT_PIECE_MAX)
            cap = TEXT_PIECE_MAX;
        TextPiece *piece = arena_alloc_uninit(c->arena, sizeof *piece + cap);
        piece->next = NULL;
        piece->len = 0;
        piece->cap = cap;
        if (p)
            p->next = piece;
        else
            tb->first = piece;
        p = tb->last = piece;
    }
}

/* BufferSeries.__getitem__: grows the series (at either end) until it
   holds index.  Like clinic.py, a series starts out at index 0. */
static TextBuffer *destination_buffer(Clinic *c, Destination *d, int index)
{
    int lo = index < d->start ? index : d->start;
    int top = d->start + (int)d->nbuffers - 1;
    int hi = index > top ? index : top;
    size_t need = (size_t)(hi - lo + 1);
    size_t prepend = (size_t)(d->start - lo);
    if (need > d->nbuffers) {
        if (need > d->capbuffers || prepend) {
            size_t cap = d->capbuffers ? d->capbuffers : 4;
            while (cap < need)
                cap *= 2;
            TextBuffer **grown = arena_array_of(c->arena, TextBuffer *, cap);
            if (d->nbuffers)
                memcpy(grown + prepend, d->buffers,
                       d->nbuffers * sizeof *grown);
            d->buffers = grown;
            d->capbuffers = cap;
        }
        for (size_t i = 0; i < need; i++) {
            if (i >= prepend && i < prepend + d->nbuffers)
                continue;
            TextBuffer *tb = arena_new_of(c->arena, TextBuffer);
            tb->dest = d;
            tb->index = lo + (int)i;
            d->buffers[i] = tb;
        }
        d->nbuffers = need;
        d->start = lo;
    }
    return d->buffers[index - d->start];
}

/* Empties tb, keeping its pieces for what it gets next. */
static void textbuffer_clear(TextBuffer *tb)
{
    for (TextPiece *p = tb->first; p; p = p->next)
        p->len = 0;
    tb->last = tb->first;
    tb->len = 0;
}

const char *destination_dump(Clinic *c, Destination *d)
{
    size_t total = 0;
    for (size_t i = 0; i < d->nbuffers; i++)
        total += d->buffers[i]->len;
    char *s = arena_alloc_uninit(c->arena, total + 1);
    size_t at = 0;
    for (size_t i = 0; i < d->nbuffers; i++) {
        TextBuffer *tb = d->buffers[i];
        for (TextPiece *p = tb->first; p && p->len; p = p->next) {
            memcpy(s + at, p->text, p->len);
            at += p->len;
        }
        textbuffer_clear(tb);
    }
    s[at] = '\0';
    return s;
}

void destination_clear(Destination *d)
{
    for (size_t i = 0; i < d->nbuffers; i++)
        textbuffer_clear(d->buffers[i]);
}

/* The default destination 'file': every file has it. */
static const char default_file_template[] = "{dirname}/clinic/{basename}.h";

/* The {path} ... {basename_extension} fields of a file destination's
   template, as clinic.py's Destination.__init__ computes them. */
static const char *file_destination_path(Clinic *c, const char *name,
                                         const char *template)
{
    Arena *a = c->arena;
    StrMap d = {0};
    const char *dirname, *basename, *root, *ext;
    route_path_split(a, c->filename, &dirname, &basename);
    if (!*dirname)
        dirname = ".";
    if (template == default_file_template)   /* its two fields, pasted */
        return arena_concat_of(a, dirname, "/clinic/", basename, ".h");
    path_splitext(a, c->filename, &root, &ext);
    strmap_set(a, &d, "path", c->filename);
    strmap_set(a, &d, "dirname", dirname);
    strmap_set(a, &d, "basename", basename);
    strmap_set(a, &d, "basename_root", root);
    strmap_set(a, &d, "basename_extension", ext);
    const char *missing = NULL;
    char *path = text_format_map(a, template, &d, &missing);
    if (!path) {
        /* clinic.py dies with a KeyError/ValueError traceback here */
        if (missing && *missing)
            clinic_fail(c, 0, "Unknown field %s in file name template %s "
                        "for destination %s",
                        route_repr(c, arena_printf(a, "{%s}", missing)),
                        route_repr(c, template), name);
        clinic_fail(c, 0, "Malformed file name template %s for "
                    "destination %s", route_repr(c, template), name);
    }
    return path;
}

Destination *router_add_destination(Clinic *c, const char *name,
                                    const char *type, const char **args,
                                    int nargs)
{
    Router *r = c->router;
    for (size_t i = 0; i < r->ndests; i++)
        if (!strcmp(r->dests[i]->name, name))
            clinic_fail(c, 0, "Destination already exists: %s",
                        route_repr(c, name));

    Destination *d = arena_new_of(c->arena, Destination);
    d->name = arena_strdup(c->arena, name);
    if (!strcmp(type, "buffer"))
        d->type = DEST_BUFFER;
    else if (!strcmp(type, "file"))
        d->type = DEST_FILE;
    else if (!strcmp(type, "suppress"))
        d->type = DEST_SUPPRESS;
    else
        clinic_failm(c, 0, MSG_DESTINATION_TYPE,
                     MSG_ARGS(type, name, "buffer, file, suppress"));
    int extra = d->type == DEST_FILE ? 1 : 0;
    if (nargs < extra)
        clinic_failm(c, 0, MSG_DESTINATION_TOO_FEW, MSG_ARGS(name, type));
    if (nargs > extra)
        clinic_failm(c, 0, MSG_DESTINATION_TOO_MANY, MSG_ARGS(name, type));
    if (d->type == DEST_FILE)
        d->filename = file_destination_path(c, name, args[0]);

    if (r->ndests == r->capdests) {
        size_t cap = r->capdests ? r->capdests * 2 : 8;
        Destination **grown = arena_array_of(c->arena, Destination *, cap);
        if (r->ndests)
            memcpy(grown, r->dests, r->ndests * sizeof *grown);
        r->dests = grown;
        r->capdests = cap;
    }
    r->dests[r->ndests++] = d;
    return d;
}

Destination *router_get_destination(Clinic *c, const char *name)
{
    Router *r = c->router;
    for (size_t i = 0; i < r->ndests; i++)
        if (!strcmp(r->dests[i]->name, name))
            return r->dests[i];
    clinic_fail(c, 0, "Destination does not exist: %s", route_repr(c, name));
}

TextBuffer *router_get_buffer(Clinic *c, const char *name, int index)
{
    return destination_buffer(c, router_get_destination(c, name), index);
}

int router_field_index(const char *name)
{
    for (int i = 0; i < ROUTER_NFIELDS; i++)
        if (!strcmp(router_field_names[i], name))
            return i;
    return -1;
}

/* Clinic.__init__'s loop over presets_text, for the one preset asked
   for.  clinic.py resolves every preset's buffers when it starts; here
   a preset's are looked up when a file asks for it (few do: the routing
   is the same, and a buffer made then rather than at the start holds
   the same text). */
bool router_find_preset(Clinic *c, const char *name, FieldMap *map)
{
    bool in_preset = false, found = false;
    const char *p = presets_text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[64];
        memcpy(line, p, n);
        line[n] = '\0';
        p += n + (nl ? 1 : 0);
        char *save = NULL;
        char *field = strtok_r(line, " ", &save);
        char *value = field ? strtok_r(NULL, " ", &save) : NULL;
        char *option = value ? strtok_r(NULL, " ", &save) : NULL;
        if (!value)
            continue;
        if (!strcmp(field, "preset")) {
            if (found)
                break;
            in_preset = found = !strcmp(value, name);
            continue;
        }
        if (!in_preset)
            continue;
        TextBuffer *tb = router_get_buffer(c, value, option ? atoi(option) : 0);
        if (!strcmp(field, "everything")) {
            for (int i = 0; i < ROUTER_NFIELDS; i++)
                map->fields[i] = tb;
            continue;
        }
        map->fields[router_field_index(field)] = tb;
    }
    return found;
}

Router *router_new(Clinic *c)
{
    Router *r = arena_new_of(c->arena, Router);
    c->router = r;
    r->line_prefix = r->line_suffix = "";
    /* made in this order: dests[0] to dests[3] */
    enum { BLOCK, SUPPRESS, BUFFER, FILE_ };
    router_add_destination(c, "block", "buffer", NULL, 0);
    router_add_destination(c, "suppress", "suppress", NULL, 0);
    router_add_destination(c, "buffer", "buffer", NULL, 0);
    const char *file_template = default_file_template;
    router_add_destination(c, "file", "file", &file_template, 1);

    /* clinic.py's default destination_buffers */
    static const struct { unsigned char dest, index; }
        defaults[ROUTER_NFIELDS] = {
        [FIELD_CPP_IF] = { FILE_, 0 },
        [FIELD_DOCSTRING_PROTOTYPE] = { SUPPRESS, 0 },
        [FIELD_DOCSTRING_DEFINITION] = { FILE_, 0 },
        [FIELD_METHODDEF_DEFINE] = { FILE_, 0 },
        [FIELD_IMPL_PROTOTYPE] = { FILE_, 0 },
        [FIELD_PARSER_PROTOTYPE] = { SUPPRESS, 0 },
        [FIELD_PARSER_DEFINITION] = { FILE_, 0 },
        [FIELD_CPP_ENDIF] = { FILE_, 0 },
        [FIELD_METHODDEF_IFNDEF] = { FILE_, 1 },
        [FIELD_IMPL_DEFINITION] = { BLOCK, 0 },
    };
    for (int i = 0; i < ROUTER_NFIELDS; i++)
        r->fields.fields[i] = destination_buffer(c, r->dests[defaults[i].dest],
                                                 defaults[i].index);
    return r;
}

/* ---- what the generator reads ---------------------------------------- */

const char *router_line_prefix(const Clinic *c)
{
    return c->router->line_prefix;
}

const char *router_line_suffix(const Clinic *c)
{
    return c->router->line_suffix;
}

void router_append_block(Clinic *c, const char *text)
{
    textbuffer_append(c, router_get_buffer(c, "block", 0), text);
}
