/*
 * gen_deprecate.c — 3.13's '* [from X.Y]' and '/ [from X.Y]' markers in
 * generated code (CLanguage.compiler_deprecated_warning,
 * deprecate_positional_use, deprecate_keyword_use): a DeprecationWarning
 * when a parameter that is to become keyword-only is passed by position
 * (or the other way round), a note about it in the docstring, and a
 * compiler warning, then error, from the version on which the clinic
 * input itself must change.
 */
#include <string.h>

#include "model/target.h"
#include "generate/gen.h"
#include "generate/gen_int.h"
#include "python/pyexpr.h"
#include "base/text.h"
#include "base/textwrap.h"

/* Function.fulldisplayname: the dotted name with the modules and classes
   it is in ("mod.Class.method"; for __new__ and __init__ the class's). */
static const char *fulldisplayname(Clinic *c, const Function *f)
{
    Arena *a = c->arena;
    const char *name = gen_displayname(f);
    const Module *module;
    const Class *cls;

    if (function_kind_new_or_init(f->kind)) {
        cls = f->cls ? f->cls->cls : NULL;
        module = f->cls ? f->cls->module : NULL;
    } else {
        cls = f->cls;
        module = f->module;
    }
    for (; cls; cls = cls->cls)
        name = arena_printf(a, "%s.%s", cls->name, name);
    for (; module && module != c->root && *module->name;
         module = module->parent)
        name = arena_printf(a, "%s.%s", module->name, name);
    return name;
}

/* pprint_words: "'a'", "'a' and 'b'", "'a', 'b' and 'c'". */
static void add_words(Clinic *c, StrBuf *sb, Parameter **params, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_adds(sb, i + 1 == n ? " and " : ", ");
        sb_adds(sb, py_repr_str(c->arena, params[i]->name,
                                strlen(params[i]->name)));
    }
}

static bool same_version(PyVersion x, PyVersion y)
{
    return x.major == y.major && x.minor == y.minor;
}

static PyVersion version_of(const Parameter *p, bool keyword)
{
    return keyword ? p->deprecated_keyword : p->deprecated_positional;
}

/* The sentences naming the parameters, grouped by version (itertools
   .groupby: consecutive parameters with the same version). */
static void add_version_groups(Clinic *c, StrBuf *message, Parameter **params,
                               size_t n, bool keyword)
{
    for (size_t i = 0; i < n;) {
        PyVersion v = version_of(params[i], keyword);
        size_t k = i + 1;
        while (k < n && same_version(version_of(params[k], keyword), v))
            k++;
        size_t count = k - i;
        if (keyword) {
            sb_addf(message, " Parameter%s ", count == 1 ? "" : "s");
            add_words(c, message, params + i, count);
            sb_addf(message, " will become positional-only in Python %d.%d.",
                    v.major, v.minor);
        } else if (count == 1) {
            sb_adds(message, " Parameter ");
            add_words(c, message, params + i, count);
            sb_addf(message, " will become a keyword-only parameter in "
                    "Python %d.%d.", v.major, v.minor);
        } else {
            sb_adds(message, " Parameters ");
            add_words(c, message, params + i, count);
            sb_addf(message, " will become keyword-only parameters in "
                    "Python %d.%d.", v.major, v.minor);
        }
        i = k;
    }
}

/* wrapped_c_string_literal(text, width=64, subsequent_indent=20) */
static const char *wrapped_c_string_literal(Clinic *c, const char *text)
{
    TextWrap opts = {64, "", "", false, false, false};
    const char **lines;
    size_t n = text_wrap(c->arena, text, &opts, &lines);
    StrBuf sb = STRBUF_INIT;
    sb_addc(&sb, '"');
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_adds(&sb, "\"\n                    \"");
        sb_adds(&sb, lines[i]);
    }
    sb_addc(&sb, '"');
    return sb_take(&sb, c->arena);
}

/* The note the docstring gets. */
static void add_docstring_note(Clinic *c, Function *f, const char *message)
{
    const char *note = text_fill(c->arena,
                                 arena_printf(c->arena, "Note: %s", message),
                                 70);
    f->docstring = arena_printf(c->arena, "%s\n\n%s\n", f->docstring, note);
}

/* DEPRECATION_WARNING_PROTOTYPE, formatted and normalised. */
static const char *warning_code(Clinic *c, const char *condition,
                                const char *errcheck, const char *message)
{
    const char *code = arena_printf(c->arena,
        "\n"
        "        if (%s) {{%s\n"
        "            if (PyErr_WarnEx(PyExc_DeprecationWarning,\n"
        "                    %s, 1))\n"
        "            {{\n"
        "                goto exit;\n"
        "            }}\n"
        "        }}\n"
        "    ",
        condition, errcheck, wrapped_c_string_literal(c, message));
    return text_normalize_snippet(c->arena, code, 4);
}

const char *gen_compiler_deprecated_warning(Clinic *c, const Function *f,
                                            Parameter **params, size_t n)
{
    PyVersion min = {0, 0};
    for (size_t i = 0; i < n; i++) {
        PyVersion vs[2] = {params[i]->deprecated_positional,
                           params[i]->deprecated_keyword};
        for (int k = 0; k < 2; k++)
            if (vs[k].major &&
                (!min.major || vs[k].major < min.major ||
                 (vs[k].major == min.major && vs[k].minor < min.minor)))
                min = vs[k];
    }
    /* The reminder is for CPython's developers, built with the release it
       names; an extension built outside the core goes on building on
       every release (its callers still get the DeprecationWarning). */
    if (!min.major || c->target->outside_core)
        return NULL;

    const char *message = arena_printf(c->arena,
        "\"Update the clinic input of %s.\"",
        py_repr_str(c->arena, f->full_name, strlen(f->full_name)));
    return arena_printf(c->arena,
        "// Emit compiler warnings when we get to Python %d.%d.\n"
        "#if PY_VERSION_HEX >= 0x%02x%02x00C0\n"
        "#  error %s\n"
        "#elif PY_VERSION_HEX >= 0x%02x%02x00A0\n"
        "#  ifdef _MSC_VER\n"
        "#    pragma message (%s)\n"
        "#  else\n"
        "#    warning %s\n"
        "#  endif\n"
        "#endif",
        min.major, min.minor, (unsigned)min.major, (unsigned)min.minor,
        message, (unsigned)min.major, (unsigned)min.minor, message, message);
}

const char *gen_deprecate_positional_use(Clinic *c, Function *f,
                                         Parameter **params, const int *index,
                                         size_t n)
{
    Arena *a = c->arena;
    int first_pos = index[0], last_pos = index[n - 1];
    const char *condition, *amount, *pl;

    if (n == 1) {
        condition = arena_printf(a, "nargs == %d", first_pos + 1);
        amount = first_pos ? arena_printf(a, "%d ", first_pos + 1) : "";
        pl = "s";
    } else {
        condition = arena_printf(a, "nargs > %d && nargs <= %d", first_pos,
                                 last_pos + 1);
        amount = first_pos ? arena_printf(a, "more than %d ", first_pos) : "";
        pl = first_pos != 1 ? "s" : "";
    }
    StrBuf message = STRBUF_INIT;
    sb_addf(&message, "Passing %spositional argument%s to %s() is deprecated.",
            amount, pl, fulldisplayname(c, f));
    add_version_groups(c, &message, params, n, false);
    const char *text = sb_take(&message, a);

    add_docstring_note(c, f, text);
    return warning_code(c, condition, "", text);
}

const char *gen_deprecate_keyword_use(Clinic *c, Function *f,
                                      Parameter **params, const int *index,
                                      size_t n, const char *argname_fmt,
                                      bool fastcall)
{
    Arena *a = c->arena;
    StrList conditions = {0};
    const char *containscheck = NULL;

    for (size_t k = 0; k < n; k++) {
        int i = index[k];
        Parameter *p = params[k];
        if (!param_is_optional(p)) {
            conditions = (StrList){0};
            strlist_push(a, &conditions, arena_printf(a, "nargs < %d", i + 1));
        } else if (argname_fmt) {
            strlist_push(a, &conditions, arena_printf(a, "nargs < %d && %s",
                i + 1, arena_printf(a, argname_fmt, i)));
        } else {
            const char *keywords = fastcall ? "kwnames" : "kwargs";
            if (c->target->keyword_given) {
                containscheck = c->target->keyword_given;
                strlist_push(a, &conditions, arena_printf(a,
                    "nargs < %d && %s(%s, \"%s\")", i + 1, containscheck,
                    keywords, p->name));
                continue;
            }
            containscheck = fastcall ? "PySequence_Contains"
                                     : "PyDict_Contains";
            strlist_push(a, &conditions, arena_printf(a,
                "nargs < %d && %s(%s, %s)", i + 1, containscheck,
                keywords, gen_c_id(c, p->name)));
            gen_add_include(c, "pycore_runtime.h", "_Py_ID()", NULL);
        }
    }
    const char *condition = strlist_join(a, &conditions, ") || (");
    if (conditions.len > 1)
        condition = arena_printf(a, "((%s))", condition);
    if (param_is_optional(params[n - 1])) {
        const char *size;
        if (fastcall)
            size = c->limited_capi ? "kwnames && PyTuple_Size(kwnames)"
                                   : "kwnames && PyTuple_GET_SIZE(kwnames)";
        else
            size = c->limited_capi ? "kwargs && PyDict_Size(kwargs)"
                                   : "kwargs && PyDict_GET_SIZE(kwargs)";
        condition = arena_printf(a, "%s && %s", size, condition);
    }

    StrBuf message = STRBUF_INIT;
    sb_addf(&message, "Passing keyword argument%s ", n != 1 ? "s" : "");
    add_words(c, &message, params, n);
    sb_addf(&message, " to %s() is deprecated.", fulldisplayname(c, f));
    add_version_groups(c, &message, params, n, true);
    const char *text = sb_take(&message, a);

    const char *errcheck = "";
    if (containscheck)
        errcheck = arena_printf(a,
            "\n"
            "            if (PyErr_Occurred()) {{ // %s() above can fail\n"
            "                goto exit;\n"
            "            }}", containscheck);
    if (argname_fmt)
        add_docstring_note(c, f, text);
    return warning_code(c, condition, errcheck, text);
}
