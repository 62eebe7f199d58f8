/*
 * directive.c — the output directives of a clinic block (clinic.py's
 * DSLParser.directive_set, _destination, _output, _dump, _printout,
 * _preserve and _version).  The DSL parser hands every directive line to
 * directive_run(); `module` and `class` are its own (dsl.c).
 *
 * clinic.py calls a directive as a Python method with the line's words as
 * arguments, so a wrong word count fails with Python's TypeError text;
 * check_arity() reproduces it.
 */
#include "parse/directive.h"

#include "parse/route.h"

#include <string.h>

#include "scan/block.h"
#include "model/target.h"
#include "model/message.h"
#include "base/text.h"

/* The version of Argument Clinic we implement, as clinic.py's `version`. */
#define REFERENCE_CLINIC_VERSION "1"

/* ---- Python's TypeError for a call with the wrong number of words ----- */

typedef struct Arity {
    const char *qualname;      /* "DSLParser.directive_set" */
    const char *params[2];     /* positional parameter names, after self */
    int required;
    int max;                   /* -1: *args */
} Arity;

static void check_arity(Clinic *c, const Arity *f, int nargs)
{
    if (nargs < f->required) {
        int missing = f->required - nargs;
        StrBuf names = STRBUF_INIT;
        for (int i = nargs; i < f->required; i++) {
            if (i > nargs)
                sb_adds(&names, missing == 2 ? " and " :
                                i == f->required - 1 ? ", and " : ", ");
            sb_addf(&names, "'%s'", f->params[i]);
        }
        const char *list = sb_take(&names, c->arena);
        clinic_fail(c, 0, "%s() missing %d required positional argument%s: %s",
                    f->qualname, missing, missing == 1 ? "" : "s", list);
    }
    if (f->max >= 0 && nargs > f->max) {
        /* counts include self */
        if (f->max > f->required)
            clinic_fail(c, 0, "%s() takes from %d to %d positional arguments "
                        "but %d were given", f->qualname, f->required + 1,
                        f->max + 1, nargs + 1);
        clinic_fail(c, 0, "%s() takes %d positional argument%s but %d were "
                    "given", f->qualname, f->max + 1,
                    f->max + 1 == 1 ? "" : "s", nargs + 1);
    }
}

/* block.output.append(text) */
static void append_output(Clinic *c, Block *block, const char *text)
{
    ArenaText *t = &c->router->appended;
    if (!block->output || block->output != t->text) {
        /* another block, or its output was set since: start from it */
        *t = (ArenaText){0};
        arena_text_adds(c->arena, t, block->output ? block->output : "");
    }
    arena_text_adds(c->arena, t, text);
    block->output = t->text;
    block->output_appended = true;
}

/* ---- version ---------------------------------------------------------- */

/* One component of clinic.py's version_splitter(): a number (as its
   digits) or a pre-release letter a/b/c (-3/-2/-1). */
typedef struct VersionPart {
    int letter;                /* 0, or -3..-1 */
    const char *digits;
    size_t ndigits;
} VersionPart;

typedef struct Version {
    VersionPart parts[32];
    int n;
} Version;

static void version_flush(Clinic *c, Version *v, const char *s,
                          const char *start, const char *end)
{
    if (start == end)
        clinic_fail(c, 0, "Unsupported version string: %s",
                    route_repr(c, s));
    while (end - start > 1 && *start == '0')
        start++;
    if (v->n == (int)(sizeof v->parts / sizeof v->parts[0]))
        clinic_fail(c, 0, "Unsupported version string: %s",
                    route_repr(c, s));
    v->parts[v->n++] = (VersionPart){0, start, (size_t)(end - start)};
}

static void version_split(Clinic *c, const char *s, Version *v)
{
    const char *start = s;
    v->n = 0;
    for (const char *p = s; *p; p++) {
        if (*p >= '0' && *p <= '9')
            continue;
        if (*p == '.') {
            version_flush(c, v, s, start, p);
        } else if (*p == 'a' || *p == 'b' || *p == 'c') {
            version_flush(c, v, s, start, p);
            if (v->n == (int)(sizeof v->parts / sizeof v->parts[0]))
                clinic_fail(c, 0, "Unsupported version string: %s",
                            route_repr(c, s));
            v->parts[v->n++] = (VersionPart){*p - 'a' - 3, NULL, 0};
        } else {
            char ch[2] = { *p, '\0' };
            clinic_fail(c, 0, "Illegal character %s in version string %s",
                        route_repr(c, ch), route_repr(c, s));
        }
        start = p + 1;
    }
    version_flush(c, v, s, start, s + strlen(s));
}

static int version_part_compare(const VersionPart *a, const VersionPart *b)
{
    /* a letter (-3..-1) sorts below any number */
    if (a->letter || b->letter) {
        int x = a->letter, y = b->letter;
        return x < y ? -1 : x > y;
    }
    if (a->ndigits != b->ndigits)
        return a->ndigits < b->ndigits ? -1 : 1;
    int r = memcmp(a->digits, b->digits, a->ndigits);
    return r < 0 ? -1 : r > 0;
}

/* clinic.py's version_comparitor. */
static int version_compare(Clinic *c, const char *v1, const char *v2)
{
    Version a, b;
    version_split(c, v1, &a);
    version_split(c, v2, &b);
    static const VersionPart zero = {0, "0", 1};
    for (int i = 0; i < a.n || i < b.n; i++) {
        int r = version_part_compare(i < a.n ? &a.parts[i] : &zero,
                                     i < b.n ? &b.parts[i] : &zero);
        if (r)
            return r;
    }
    return 0;
}

static void directive_version(Clinic *c, const char *required)
{
    if (version_compare(c, REFERENCE_CLINIC_VERSION, required) < 0)
        clinic_fail(c, 0, "Insufficient Clinic version!\n  Version: "
                    REFERENCE_CLINIC_VERSION "\n  Required: %s", required);
}

/* ---- set -------------------------------------------------------------- */

static void directive_set(Clinic *c, const char *name, const char *value)
{
    bool prefix = !strcmp(name, "line_prefix");
    if (!prefix && strcmp(name, "line_suffix"))
        clinic_fail(c, 0, "unknown variable %s", route_repr(c, name));

    StrMap fields = {0};
    strmap_set(c->arena, &fields, "block comment start", "/*");
    strmap_set(c->arena, &fields, "block comment end", "*/");
    const char *missing = NULL;
    const char *formatted = text_format_map(c->arena, value, &fields,
                                            &missing);
    if (!formatted) {
        /* clinic.py dies with a KeyError/ValueError traceback here */
        if (missing && *missing)
            clinic_fail(c, 0, "Unknown field %s in value for %s",
                        route_repr(c, arena_printf(c->arena, "{%s}",
                                                    missing)), name);
        clinic_fail(c, 0, "Malformed value %s for %s", route_repr(c, value),
                    name);
    }
    if (prefix)
        c->router->line_prefix = formatted;
    else
        c->router->line_suffix = formatted;
}

/* ---- destination ------------------------------------------------------ */

static void directive_destination(Clinic *c, const char **args, int nargs)
{
    const char *name = args[0], *command = args[1];
    if (!strcmp(command, "new")) {
        static const Arity add_destination = {
            "Clinic.add_destination", {"name", "type"}, 2, -1 };
        /* self.clinic.add_destination(name, *args) */
        check_arity(c, &add_destination, nargs - 1);
        router_add_destination(c, name, args[2], args + 3, nargs - 3);
        return;
    }
    if (!strcmp(command, "clear")) {
        /* clinic.py's Destination.clear() dies with an AttributeError;
           this does what its documentation says: empty the buffer. */
        Destination *d = router_get_destination(c, name);
        if (d->type != DEST_BUFFER)
            clinic_failm(c, 0, MSG_DESTINATION_CLEAR, MSG_ARGS(d->name));
        destination_clear(d);
        return;
    }
    clinic_fail(c, 0, "unknown destination command %s",
                route_repr(c, command));
}

/* ---- output ----------------------------------------------------------- */

/* 'output print', a debugging aid: clinic.py pprints its OrderedDict of
   accumulators, memory addresses included; we print where each field
   goes instead. */
static void print_field_map(Clinic *c, Block *block)
{
    StrBuf sb = STRBUF_INIT;
    for (int i = 0; i < ROUTER_NFIELDS; i++) {
        const TextBuffer *tb = c->router->fields.fields[i];
        sb_addf(&sb, "%s %s %d\n", router_field_names[i], tb->dest->name,
                tb->index);
    }
    append_output(c, block, sb_to_arena(&sb, c->arena));
    sb_free(&sb);
}

static void directive_output(Clinic *c, Block *block, const char *command,
                             const char *destination)
{
    Router *r = c->router;

    if (!strcmp(command, "preset")) {
        if (!router_find_preset(c, destination, &r->fields))
            clinic_fail(c, 0, "Unknown preset %s!",
                        route_repr(c, destination));
        return;
    }
    if (!strcmp(command, "push")) {
        if (r->nstack == r->capstack) {
            size_t cap = r->capstack ? r->capstack * 2 : 4;
            FieldMap *grown = arena_array_of(c->arena, FieldMap, cap);
            if (r->nstack)
                memcpy(grown, r->stack, r->nstack * sizeof *grown);
            r->stack = grown;
            r->capstack = cap;
        }
        r->stack[r->nstack++] = r->fields;
        return;
    }
    if (!strcmp(command, "pop")) {
        if (!r->nstack)
            clinic_fail(c, 0, "Can't 'output pop', stack is empty!");
        r->fields = r->stack[--r->nstack];
        return;
    }
    if (!strcmp(command, "print")) {
        print_field_map(c, block);
        return;
    }

    TextBuffer *tb = router_get_buffer(c, destination, 0);
    if (!strcmp(command, "everything")) {
        for (int i = 0; i < ROUTER_NFIELDS; i++)
            r->fields.fields[i] = tb;
        return;
    }
    int field = router_field_index(command);
    if (field < 0) {
        /* the field names, as 3.11 and 3.13 list them */
        static const char *const commands[] = {"preset", "push", "pop",
                                               "print", "everything"};
        StrBuf names = STRBUF_INIT, items = STRBUF_INIT;
        for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
            sb_addf(&items, "%s'%s'", i ? "\n - " : "", commands[i]);
        for (int i = 0; i < ROUTER_NFIELDS; i++) {
            sb_addf(&names, " %s", router_field_names[i]);
            sb_addf(&items, "\n - '%s'", router_field_names[i]);
        }
        const char *list = sb_take(&names, c->arena);
        const char *listed = sb_take(&items, c->arena);
        clinic_failm(c, 0, MSG_OUTPUT_COMMAND,
                     MSG_ARGS(command, list, listed));
    }
    r->fields.fields[field] = tb;
}

/* ---- dispatch --------------------------------------------------------- */

/* Each directive gets the words after its name, already counted. */
typedef void DirectiveFn(Clinic *c, Block *block, const char **args,
                         int nargs);

static void run_version(Clinic *c, Block *block, const char **args, int nargs)
{
    (void)block, (void)nargs;
    directive_version(c, args[0]);
}

static void run_set(Clinic *c, Block *block, const char **args, int nargs)
{
    (void)block, (void)nargs;
    directive_set(c, args[0], args[1]);
}

static void run_destination(Clinic *c, Block *block, const char **args,
                            int nargs)
{
    (void)block;
    directive_destination(c, args, nargs);
}

static void run_output(Clinic *c, Block *block, const char **args, int nargs)
{
    directive_output(c, block, args[0], nargs > 1 ? args[1] : "");
}

static void run_dump(Clinic *c, Block *block, const char **args, int nargs)
{
    (void)nargs;
    Destination *d = router_get_destination(c, args[0]);
    append_output(c, block, destination_dump(c, d));
}

static void run_printout(Clinic *c, Block *block, const char **args,
                         int nargs)
{
    StrBuf sb = STRBUF_INIT;
    for (int i = 0; i < nargs; i++) {
        if (i)
            sb_addc(&sb, ' ');
        sb_adds(&sb, args[i]);
    }
    sb_addc(&sb, '\n');
    const char *text = sb_take(&sb, c->arena);
    append_output(c, block, text);
}

/* What follows (the block keeps its old output, and must not produce any
   new one) is the DSL parser's business. */
static void run_preserve(Clinic *c, Block *block, const char **args,
                         int nargs)
{
    (void)args, (void)nargs;
    if (block->preserve_output)
        clinic_failm(c, 0, MSG_PRESERVE_TWICE, NULL);
    block->preserve_output = true;
}

/* Ours: "target NAME" chooses what the file's code is written for
   (target.h).  It wins over --target, so that a file carries its choice;
   it must come before the first function, whose code it would change. */
static void run_target(Clinic *c, Block *block, const char **args,
                       int nargs)
{
    (void)block, (void)nargs;
    const Target *t = target_find(args[0]);
    if (!t) {
        StrBuf names = STRBUF_INIT;
        for (size_t i = 0; targets[i]; i++)
            sb_addf(&names, "%s%s", i ? ", " : "", targets[i]->name);
        clinic_fail(c, 0, "Unknown target %s; the targets are %s.",
                    route_repr(c, args[0]), sb_take(&names, c->arena));
    }
    if (t != c->target && c->nfunctions)
        clinic_fail(c, 0, "The target directive must come before the "
                    "first function (%s's code is already written for %s).",
                    c->functions[0]->full_name, c->target->name);
    c->target = t;
}

static const struct {
    const char *name;
    Arity arity;
    DirectiveFn *run;
} directives[] = {
    { "version", { "DSLParser.directive_version", {"required"}, 1, 1 },
      run_version },
    { "set", { "DSLParser.directive_set", {"name", "value"}, 2, 2 },
      run_set },
    { "destination", { "DSLParser.directive_destination",
                       {"name", "command"}, 2, -1 }, run_destination },
    { "output", { "DSLParser.directive_output",
                  {"command_or_name", "destination"}, 1, 2 }, run_output },
    { "dump", { "DSLParser.directive_dump", {"name"}, 1, 1 }, run_dump },
    { "printout", { "DSLParser.directive_printout", {NULL}, 0, -1 },
      run_printout },
    { "preserve", { "DSLParser.directive_preserve", {NULL}, 0, 0 },
      run_preserve },
    { "target", { "DSLParser.directive_target", {"name"}, 1, 1 },
      run_target },
};

bool directive_run(Clinic *c, Block *block, const char *name,
                   const char **args, int nargs, int line)
{
    for (size_t i = 0; i < sizeof directives / sizeof directives[0]; i++) {
        if (strcmp(directives[i].name, name))
            continue;
        if (directives[i].run == run_version &&
            !(c->dialect->syntax & SYNTAX_VERSION))
            return false;       /* then a function line, as 3.13 reads it */
        /* directive errors name the directive's line */
        if (line > 0)
            c->line = line;
        check_arity(c, &directives[i].arity, nargs);
        directives[i].run(c, block, args, nargs);
        return true;
    }
    return false;
}
