/*
 * gen_groups.c — option groups ("[" and "]" around positional-only
 * parameters): which argument counts select which groups, and the
 * switch statement of PyArg_ParseTuple calls that parses them
 * (clinic.py's permute_*_option_groups, group_to_variable_name and
 * render_option_group_parsing).
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/converters.h"
#include "generate/gen_int.h"
#include "base/text.h"
#include "python/pyvm.h"

/* ---- permutations ---------------------------------------------------------- */

/* Appends the items of the groups g[from..to) to out. */
static void append_groups(const void **out, size_t *n, const GenItems *g,
                          size_t from, size_t to)
{
    size_t i, j;
    for (i = from; i < to; i++)
        for (j = 0; j < g[i].n; j++)
            out[(*n)++] = g[i].items[j];
}

static size_t total_items(const GenItems *g, size_t n)
{
    size_t i, total = 0;
    for (i = 0; i < n; i++)
        total += g[i].n;
    return total;
}

size_t gen_permute_optional_groups(Arena *a, const GenItems *left,
                                   size_t nleft, const GenItems *required,
                                   const GenItems *right, size_t nright,
                                   GenItems **out)
{
    size_t cap = (nleft + 1) * (nright + 1);
    size_t max_items = total_items(left, nleft) + required->n +
                       total_items(right, nright);
    GenItems *result = arena_array_of(a, GenItems, cap);
    bool *seen = arena_array_of(a, bool, max_items + 1);
    size_t count = 0, r, l, i, j;

    *out = NULL;
    if (required->n == 0 && nleft != 0)
        return 0;

    /* permute_right_option_groups yields the first r right groups,
       permute_left_option_groups the last l left groups; the first
       combination of each length wins. */
    for (r = 0; r <= nright; r++) {
        for (l = 0; l <= nleft; l++) {
            const void **items = arena_array_of(a, const void *, max_items + 1);
            size_t n = 0;
            append_groups(items, &n, left, nleft - l, nleft);
            for (i = 0; i < required->n; i++)
                items[n++] = required->items[i];
            append_groups(items, &n, right, 0, r);
            if (seen[n])
                continue;
            seen[n] = true;
            result[count].items = items;
            result[count].n = n;
            count++;
        }
    }

    /* accumulator.sort(key=len): stable, so insertion sort. */
    for (i = 1; i < count; i++) {
        GenItems t = result[i];
        for (j = i; j > 0 && result[j - 1].n > t.n; j--)
            result[j] = result[j - 1];
        result[j] = t;
    }
    *out = result;
    return count;
}

/* ---- Python's set iteration order ------------------------------------------ */

/*
 * render_option_group_parsing sets the group flags in the order Python
 * iterates `{p.group for p in subset}`: the slot order of the set's hash
 * table (the interpreter's, pyset_order), for small ints, whose
 * hash is the int itself except hash(-1) == -2.
 */
size_t gen_pyset_int_order(Arena *a, const long *values, size_t n, long *out)
{
    int64_t *keys = arena_array_uninit(a, int64_t, n);
    int64_t *hashes = arena_array_uninit(a, int64_t, n);
    size_t *order = arena_array_uninit(a, size_t, n);
    for (size_t i = 0; i < n; i++) {
        keys[i] = values[i];
        hashes[i] = values[i] == -1 ? -2 : values[i];
    }
    size_t count = pyset_order(a, keys, hashes, n, false, order);
    for (size_t i = 0; i < count; i++)
        out[i] = values[order[i]];
    return count;
}

/* ---- the switch -------------------------------------------------------------- */

const char *gen_group_to_variable_name(Clinic *c, int group)
{
    return arena_printf(c->arena, "group_%s_%d", group < 0 ? "left" : "right",
                        group < 0 ? -group : group);
}

/* One `case N:` of the switch: parse exactly the parameters of subset. */
static void render_case(Clinic *c, Function *f, const GenItems *subset,
                        size_t n_required, StrBuf *out)
{
    Arena *a = c->arena;
    StrList parse_arguments = {0};
    StrBuf format_units = STRBUF_INIT;
    StrBuf booleans = STRBUF_INIT;
    StrMap d = {0}, lf = {0};
    long *ids = arena_array_of(a, long, subset->n);
    long *ordered = arena_array_of(a, long, subset->n);
    size_t i, nordered;
    const char *s, *missing = NULL;
    char *formatted;

    for (i = 0; i < subset->n; i++) {
        const Parameter *p = subset->items[i];
        ids[i] = p->group;
        if (i == n_required)      /* 3.14: the omissible ones after '|' */
            sb_addc(&format_units, '|');
        sb_adds(&format_units, p->converter->format_unit);
        converter_parse_argument(c, p->converter, &parse_arguments);
    }
    if (c->dialect->fixes & FIX_GROUP_FLAGS_IN_ORDER) {
        /* dict.fromkeys(): each group once, in parameter order */
        nordered = 0;
        for (i = 0; i < subset->n; i++) {
            size_t k = 0;
            while (k < nordered && ordered[k] != ids[i])
                k++;
            if (k == nordered)
                ordered[nordered++] = ids[i];
        }
    } else {
        nordered = gen_pyset_int_order(a, ids, subset->n, ordered);
    }
    for (i = 0; i < nordered; i++) {
        if (ordered[i] == 0)              /* group_ids.discard(0) */
            continue;
        if (booleans.len)
            sb_addc(&booleans, '\n');
        sb_addf(&booleans, "%s = 1;",
                gen_group_to_variable_name(c, (int)ordered[i]));
    }

    strmap_set(a, &lf, "group_booleans", sb_take(&booleans, a));
    s = text_linear_format(a,
        "    case {count}:\n"
        "        if (!PyArg_ParseTuple(args, \"{format_units}:{name}\", "
        "{parse_arguments})) {{\n"
        "            goto exit;\n"
        "        }}\n"
        "        {group_booleans}\n"
        "        break;\n", &lf);

    strmap_set(a, &d, "count", arena_printf(a, "%zu", subset->n));
    strmap_set(a, &d, "name", f->name);
    strmap_set(a, &d, "format_units", sb_take(&format_units, a));
    strmap_set(a, &d, "parse_arguments",
               strlist_join(a, &parse_arguments, ", "));
    formatted = text_format_map(a, s, &d, &missing);
    if (!formatted)
        clinic_fail(c, 0, "KeyError: '%s'", missing);
    sb_adds(out, formatted);
}

/* 3.14's count_required(): the arguments a call cannot omit, all but
   the trailing optional parameters outside any group. */
static size_t count_required(const GenItems *subset)
{
    size_t count = subset->n;
    while (count) {
        const Parameter *p = subset->items[count - 1];
        if (p->group || !converter_is_optional(p->converter))
            break;
        count--;
    }
    return count;
}

const char *gen_option_group_parsing(Clinic *c, Function *f)
{
    Arena *a = c->arena;
    size_t nparams = f->nparameters;
    Parameter **params = f->parameters;
    GenItems *left = arena_array_of(a, GenItems, nparams + 1);
    GenItems *right = arena_array_of(a, GenItems, nparams + 1);
    GenItems required = {arena_array_of(a, const void *, nparams + 1), 0};
    GenItems *current = NULL, *subsets;
    size_t nleft = 0, nright = 0, nsubsets, i;
    size_t count_min = SIZE_MAX, count_max = 0;
    int last = INT_MIN;                   /* clinic.py's `unspecified` */
    StrBuf sb = STRBUF_INIT;

    if (nparams && params[0]->converter->cls->is_self) {
        params++;
        nparams--;
    }

    for (i = 0; i < nparams; i++) {
        Parameter *p = params[i];
        if (p->group != last) {
            last = p->group;
            if (p->group < 0) {
                current = &left[nleft++];
            } else if (p->group == 0) {
                current = &required;
            } else {
                current = &right[nright++];
            }
            if (current != &required) {
                current->items = arena_array_of(a, const void *, nparams);
                current->n = 0;
            }
        }
        current->items[current->n++] = p;
    }

    nsubsets = gen_permute_optional_groups(a, left, nleft, &required, right,
                                           nright, &subsets);
    if (!subsets)
        clinic_fail(c, 0, "AssertionError");

    sb_adds(&sb, "switch (PyTuple_GET_SIZE(args)) {\n");
    if (c->dialect->fixes & FIX_GROUP_OPTIONAL_COUNTS) {
        /* each argument count maps to the one subset that takes it; the
           counts a subset takes by omitting optional parameters fall
           through to its own case */
        size_t most = 0;
        for (i = 0; i < nsubsets; i++)
            if (subsets[i].n > most)
                most = subsets[i].n;
        const GenItems **by_count = arena_array_of(a, const GenItems *,
                                                   most + 1);
        for (i = 0; i < nsubsets; i++)
            for (size_t k = count_required(&subsets[i]); k <= subsets[i].n;
                 k++) {
                if (by_count[k])
                    clinic_fail(c, 0, "Function %s has an ambiguous group "
                                "configuration: a call with %zu argument(s) "
                                "can be parsed in more than one way.",
                                arena_printf(a, "'%s'", f->full_name), k);
                by_count[k] = &subsets[i];
            }
        for (size_t k = 0; k <= most; k++) {
            const GenItems *subset = by_count[k];
            if (!subset)
                continue;
            if (k < count_min)
                count_min = k;
            count_max = k;
            if (k < subset->n)
                sb_addf(&sb, "    case %zu:\n", k);
            else if (k == 0)
                sb_adds(&sb, "    case 0:\n        break;\n");
            else
                render_case(c, f, subset, count_required(subset), &sb);
        }
        nsubsets = 0;
    }
    for (i = 0; i < nsubsets; i++) {
        size_t count = subsets[i].n;
        if (count < count_min)
            count_min = count;
        if (count > count_max)
            count_max = count;
        if (count == 0) {
            sb_adds(&sb, "    case 0:\n        break;\n");
            continue;
        }
        render_case(c, f, &subsets[i], SIZE_MAX, &sb);
    }
    sb_adds(&sb, "    default:\n");
    sb_addf(&sb, "        PyErr_SetString(PyExc_TypeError, \"%s requires %zu "
                 "to %zu arguments\");\n", f->full_name, count_min, count_max);
    sb_adds(&sb, "        goto exit;\n");
    sb_adds(&sb, "}");
    return text_format_escape(a, sb_take(&sb, a));
}
