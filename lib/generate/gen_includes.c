/*
 * gen_includes.c — the #include lines atop a routed file (3.13's
 * CodeGen.add_include and BlockPrinter's header_includes): every helper
 * the generated code calls that lives in an internal header is recorded
 * with the reason, once per header, and the routed file starts with the
 * sorted list.  The generator and the converters record them in every
 * dialect; only a dialect with header_includes prints them, and only for
 * a target built inside CPython's core (the headers are internal).
 */
#include <string.h>

#include "model/converters.h"
#include "model/target.h"
#include "generate/gen.h"
#include "generate/gen_int.h"

static IncludeList *includes_of(Clinic *c)
{
    if (!c->includes)
        c->includes = arena_new_of(c->file_arena, IncludeList);
    return c->includes;
}

void gen_add_include(Clinic *c, const char *filename, const char *reason,
                     const char *condition)
{
    IncludeList *l = includes_of(c);
    for (size_t i = 0; i < l->len; i++) {
        Include *in = &l->items[i];
        if (strcmp(in->filename, filename) != 0)
            continue;
        /* An unconditional include replaces a conditional one; otherwise
           the first reason given stays. */
        if (in->condition && !condition) {
            in->reason = arena_strdup(c->file_arena, reason);
            in->condition = NULL;
        }
        return;
    }
    /* kept for the end of the file, past the function being rendered */
    Arena *a = c->file_arena;
    include_list_add(a, l, arena_strdup(a, filename), arena_strdup(a, reason),
                     condition ? arena_strdup(a, condition) : NULL);
}

void gen_copy_includes(Clinic *c, Converter *conv)
{
    const IncludeList *l = converter_get_includes(c, conv);
    if (!l)
        return;
    for (size_t i = 0; i < l->len; i++) {
        const Include *in = &l->items[i];
        gen_add_include(c, in->filename, in->reason, in->condition);
    }
}

/* Include.sort_key: conditional ones ('#if ...') before the others
   ('NO_CONDITION'), then by file name. */
static int compare_includes(const Include *x, const Include *y)
{
    int r = strcmp(x->condition ? x->condition : "NO_CONDITION",
                   y->condition ? y->condition : "NO_CONDITION");
    return r ? r : strcmp(x->filename, y->filename);
}

/* The column the '// reason' comments start at. */
#define INCLUDE_COMMENT_COLUMN 35

const char *gen_includes_header(Clinic *c)
{
    IncludeList *l = c->includes;
    if (!c->dialect->header_includes || c->target->outside_core || !l ||
        !l->len)
        return "";
    const Include **sorted = arena_array_of(c->arena, const Include *, l->len);
    for (size_t i = 0; i < l->len; i++) {
        size_t k = i;
        for (; k > 0 && compare_includes(sorted[k - 1], &l->items[i]) > 0; k--)
            sorted[k] = sorted[k - 1];
        sorted[k] = &l->items[i];
    }

    StrBuf sb = STRBUF_INIT;
    const char *current = NULL;
    sb_addc(&sb, '\n');
    for (size_t i = 0; i < l->len; i++) {
        const Include *in = sorted[i];
        const char *cond = in->condition;
        if (!(cond == current || (cond && current && !strcmp(cond, current)))) {
            if (current)
                sb_adds(&sb, "#endif\n");
            current = cond;
            if (cond) {
                sb_adds(&sb, cond);
                sb_addc(&sb, '\n');
            }
        }
        size_t start = sb.len;
        sb_addf(&sb, current ? "#  include \"%s\"" : "#include \"%s\"",
                in->filename);
        if (in->reason && *in->reason) {
            while (sb.len - start < INCLUDE_COMMENT_COLUMN - 1)
                sb_addc(&sb, ' ');
            sb_addf(&sb, "// %s\n", in->reason);
        }
    }
    if (current)
        sb_adds(&sb, "#endif\n");
    return sb_take(&sb, c->arena);
}
