/*
 * gen_dsl.c — clinic input blocks in the syntax of 3.14 and 3.15, the
 * common forms and the rare corners, for the differential run against
 * the reference clinic.py (see gen_dsl.h, differential.py).
 *
 * Unlike gen.c, whose files try to crash the interpreter, these files are
 * meant to be accepted most of the time: a declaration as a user of the
 * newer syntax would write it, then, one choice in a few, a corner: a
 * continuation line, a comment after a parameter, a full-line comment,
 * odd or inconsistent indentation, "as" with odd spacing, defaults with
 * quotes, escapes and '=' in them, c_default=, the new converters and
 * options (uint8 ... uint64, unicode_fs_*, allow_negative, bitwise),
 * *args: tuple|array, **kwds: dict, deprecation markers, optional groups,
 * @getter/@setter/@deleter, @disable fastcall, @permit_long_* and
 * docstrings around the 3.15 width limits (72, 68 in a method).  A marker
 * lands out of order now and then, so refusals are compared too.
 */
#include "gen_dsl.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(t) (sizeof (t) / sizeof (t)[0])

/* The corners.  A file takes one (or none), so that when clinic and the
   reference disagree on it, the corner says why. */
typedef enum Corner {
    C_NONE,
    C_CONTINUATION,     /* a parameter line continued with '\' */
    C_COMMENT,          /* "a: int  # comment" */
    C_LINE_COMMENT,     /* a line of its own: "    # comment" */
    C_INDENT,           /* odd or inconsistent indentation */
    C_AS,               /* "a  as  c_a", a function's "as" */
    C_SPACING,          /* "a :int", "a: int=1" */
    C_ODD_DEFAULT,      /* defaults with quotes, escapes, '=' */
    C_NEW_CONVERTER,    /* uint8 ..., unicode_fs_*, allow_negative, bitwise */
    C_ODD_CONVERTER,    /* legacy units, c_default=, unknown names */
    C_DEPRECATION,      /* '* [from X.Y]', '/ [from X.Y]' */
    C_VARARGS,          /* *args: tuple|array|object */
    C_VARKWDS,          /* **kwds: dict|object */
    C_GROUP,            /* [ optional group ] */
    C_DECORATOR,        /* @disable fastcall, @permit_long_*, ... */
    C_RETURN,           /* -> int, ... */
    C_MISPLACED,        /* a marker where the list should have ended */
    C_WIDTH,            /* docstring lines around 68 and 72 characters */
    C_PARAM_DOC,        /* parameter docstrings */
    C_ACCESSOR,         /* @getter, @setter, @deleter */
    C_NCORNERS
} Corner;

typedef struct Dsl {
    uint64_t state;          /* the seed's splitmix64 */
    char *buf;
    size_t len, cap;
    Corner corner;           /* the file's */
} Dsl;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A choice among n. */
static unsigned pick(Dsl *g, unsigned n)
{
    return n <= 1 ? 0 : (unsigned)(splitmix(&g->state) % n);
}

#define ONE_IN(g, n) (pick((g), (n)) == 0)
#define PICK(g, t) ((t)[pick((g), COUNT(t))])

/* Is the file's corner c, and does this place take it (one in n)? */
static bool corner(Dsl *g, Corner c, unsigned n)
{
    return g->corner == c && ONE_IN(g, n);
}

static void out(Dsl *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (g->len + (size_t)n + 1 > g->cap) {
        g->cap = 2 * (g->len + (size_t)n + 1);
        g->buf = realloc(g->buf, g->cap);
        if (!g->buf)
            abort();
    }
    va_start(ap, fmt);
    vsnprintf(g->buf + g->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    g->len += (size_t)n;
}

/* ---- parameters ---------------------------------------------------------- */

static const char *const names[] = {
    "a", "b", "c", "d", "e", "x", "y", "value", "key", "path", "size",
    "flags", "args", "kwds", "kwargs", "module", "default", "return_value",
    "noptargs", "argsbuf", "fastargs", "_keywords", "data", "name",
};

/* A converter, and defaults that fit it (or nearly). */
typedef struct ConverterChoice {
    const char *conv;
    const char *const defaults[4];
} ConverterChoice;

/* Those every dialect has. */
static const ConverterChoice converters[] = {
    {"object", {"None", "NULL", "1"}},
    {"int", {"0", "-1", "0x10", "True"}},
    {"int(accept={str})", {"'x'", "'\\n'", "'ab'", "''"}},
    {"str", {"'abc'", "None", "\"it's\"", "'a=b'"}},
    {"str(accept={str, NoneType})", {"None", "'x'", "NULL"}},
    {"str(zeroes=True, accept={robuffer, str})", {"'x'", "b'x'"}},
    {"Py_ssize_t", {"0", "-1", "sys.maxsize", "None"}},
    {"Py_ssize_t(accept={int, NoneType})", {"None", "5", "-sys.maxsize"}},
    {"slice_index", {"None", "0", "sys.maxsize"}},
    {"slice_index(accept={int})", {"0", "-1"}},
    {"size_t", {"0", "1", "None"}},
    {"bool", {"True", "False", "0", "1"}},
    {"bool(accept={int})", {"0", "1", "True"}},
    {"float", {"0.0", "1.5", "-1e300", "1"}},
    {"double", {"0.0", "1.5", "1e-5", "float('inf')"}},
    {"char", {"b'x'", "b'\\x00'", "b'\\''", "b'ab'"}},
    {"unsigned_char", {"0", "255", "None"}},
    {"unsigned_short", {"0", "65535"}},
    {"unsigned_long", {"0", "7"}},
    {"Py_buffer", {"None", "NULL"}},
    {"Py_buffer(accept={str, buffer, NoneType})", {"None", "NULL"}},
    {"fildes", {"0", "None"}},
    {"Py_complex", {"0j", "1"}},
    {"unicode", {"'x'", "None"}},
    {"PyBytesObject", {"None"}},
    {"object(subclass_of='&PyDict_Type')", {"None", "NULL"}},
    {"object(type=\"PyDictObject *\")", {"None"}},
};

/* 3.14's and 3.15's new converters and options, and the bitwise ones
   3.15 writes anew. */
static const ConverterChoice new_converters[] = {
    {"uint8", {"0", "255"}},
    {"uint16", {"0", "1"}},
    {"uint32", {"0", "1"}},
    {"uint64", {"0", "1"}},
    {"unicode_fs_encoded", {"NULL", "None"}},
    {"unicode_fs_decoded", {"NULL", "None"}},
    {"Py_ssize_t(allow_negative=False)", {"0", "78", "-1"}},
    {"Py_ssize_t(accept={int, NoneType}, allow_negative=False)",
     {"None", "3"}},
    {"int(allow_negative=False)", {"0"}},
    {"unsigned_char(bitwise=True)", {"0", "255"}},
    {"unsigned_short(bitwise=True)", {"0", "1"}},
    {"unsigned_int(bitwise=True)", {"0", "42"}},
    {"unsigned_long(bitwise=True)", {"0", "1"}},
    {"unsigned_long_long(bitwise=True)", {"0", "-1"}},
};

/* Legacy format units, c_default=, names that are no converter. */
static const ConverterChoice odd_converters[] = {
    {"'i'", {"0", "1"}},
    {"'O'", {"None"}},
    {"'z'", {"None", "'x'"}},
    {"'B'", {"0"}},
    {"'H'", {"0"}},
    {"'K'", {"0"}},
    {"'k'", {"0"}},
    {"'y*'", {"None"}},
    {"'es'", {"None"}},
    {"long(c_default=\"42\")", {"1", "0"}},
    {"int(c_default=\"\")", {"1"}},
    {"int(c_default=\"0\")", {NULL}},
    {"object(c_default=\"NULL\")", {"None", "1"}},
    {"str(c_default=\"NULL\")", {"None", "'x'"}},
    {"no_such_converter", {"0"}},
    {"int(**{})", {"0"}},
};

/* Defaults of any type, with quotes, escapes and '=' in them. */
static const char *const odd_defaults[] = {
    "'='", "'a=b'", "\"x = y\"", "'it\\'s'", "\"say \\\"hi\\\"\"",
    "'\\t\\n\\r\\x00'", "'\\u00e9'", "'\\U0001f600'", "'\xc3\xa9t\xc3\xa9'",
    "b'\\x00\\xff'", "b\"a'b\"", "''", "r'\\d'", "'#'", "'a # b'",
    "'\\\\'", "'{}'", "'%s'", "-0", "+1", "1_000", "0o17", "0b1",
    "1 + 2", "None", "NULL", "(1, 2)", "()", "[]", "sys.maxsize - 1",
    "'a' 'b'", "f'x'", "...",
};

static const char *const comments[] = {
    "# a comment", "#", "# a: int = 1", "# 'quote", "#\\", "# é",
};

static const char *const param_docs[] = {
    "The first parameter.", "Docstring with 'quotes' and \"doubles\".",
    "A line with a backslash \\ in it.", "Non-ASCII: \xc3\xa9t\xc3\xa9.",
};

/* An indentation of the parameter lines: four spaces, or an odd one. */
static const char *const indents[] = {
    "    ", "    ", "    ", "    ", "    ", "    ", "  ", "   ", "        ",
    "\t", " \t",
};

typedef struct Params {
    const char *indent;       /* the block's */
    bool used[COUNT(names)];
    bool any_default;
} Params;

static const char *fresh_name(Dsl *g, Params *p)
{
    for (int tries = 0; tries < 8; tries++) {
        unsigned k = pick(g, COUNT(names));
        if (!p->used[k] || ONE_IN(g, 20)) {
            p->used[k] = true;
            return names[k];
        }
    }
    return "z";
}

/* One parameter line (and perhaps its docstring), at the block's
   indentation or an odd one. */
static const ConverterChoice *pick_converter(Dsl *g)
{
    if (corner(g, C_NEW_CONVERTER, 2))
        return &new_converters[pick(g, COUNT(new_converters))];
    if (corner(g, C_ODD_CONVERTER, 2))
        return &odd_converters[pick(g, COUNT(odd_converters))];
    return &converters[pick(g, COUNT(converters))];
}

static void parameter(Dsl *g, Params *p, bool keyword_only)
{
    const char *indent = corner(g, C_INDENT, 3) ? PICK(g, indents)
                                                : p->indent;
    if (corner(g, C_LINE_COMMENT, 2))
        out(g, "%s%s\n", indent, PICK(g, comments));
    char line[512];
    const ConverterChoice *conv = pick_converter(g);
    const char *name = fresh_name(g, p);
    int n = snprintf(line, sizeof line, "%s", name);
    if (corner(g, C_AS, 2))
        n += snprintf(line + n, sizeof line - (size_t)n, "%sas%sc_%s",
                      ONE_IN(g, 2) ? "  " : " ", ONE_IN(g, 2) ? "  " : " ",
                      name);
    bool spacing = corner(g, C_SPACING, 2);
    n += snprintf(line + n, sizeof line - (size_t)n, "%s%s",
                  spacing && ONE_IN(g, 2) ? " :" : spacing ? ":" : ": ",
                  conv->conv);
    /* a default once one is given (else a required parameter after an
       optional one, which is an error now and then) */
    bool with_default = keyword_only ? ONE_IN(g, 2)
                                     : p->any_default ? !ONE_IN(g, 10)
                                                      : ONE_IN(g, 3);
    if (with_default) {
        const char *d = NULL;
        if (!corner(g, C_ODD_DEFAULT, 2)) {
            size_t nd = 0;
            while (nd < 4 && conv->defaults[nd])
                nd++;
            d = nd ? conv->defaults[pick(g, (unsigned)nd)] : NULL;
        }
        if (!d)
            d = PICK(g, odd_defaults);
        spacing = corner(g, C_SPACING, 2);
        n += snprintf(line + n, sizeof line - (size_t)n, "%s=%s%s",
                      spacing && ONE_IN(g, 2) ? "" : " ",
                      spacing && ONE_IN(g, 2) ? "" : " ", d);
        if (!keyword_only)
            p->any_default = true;
    }
    if (corner(g, C_COMMENT, 2))
        n += snprintf(line + n, sizeof line - (size_t)n, "%s%s",
                      ONE_IN(g, 2) ? "  " : " ", PICK(g, comments));
    /* a continuation line: cut at a space, the rest indented anyhow */
    char *space = corner(g, C_CONTINUATION, 2) ? strchr(line, ' ') : NULL;
    if (space) {
        *space = '\0';
        out(g, "%s%s%s\\\n%s%s\n", indent, line, ONE_IN(g, 2) ? " " : "",
            PICK(g, indents), space + 1);
    } else {
        out(g, "%s%s\n", indent, line);
    }
    if (corner(g, C_PARAM_DOC, 2))
        out(g, "%s%s%s\n", indent, ONE_IN(g, 4) ? "  " : "    ",
            PICK(g, param_docs));
}

/* A marker line: '/', '*', their deprecated forms, a group bracket. */
static void marker(Dsl *g, Params *p, const char *m)
{
    const char *indent = corner(g, C_INDENT, 3) ? PICK(g, indents)
                                                : p->indent;
    out(g, "%s%s%s\n", indent, m,
        corner(g, C_COMMENT, 2) ? "  # marker" : "");
}

static const char *const varargs[] = {
    "*args: tuple", "*args: tuple", "*args: array", "*args: object",
    "*args", "*args: tuple = None", "*args: array(c_default=\"NULL\")",
};
static const char *const varkwds[] = {
    "**kwds: dict", "**kwds: dict", "**kwargs: dict", "**kwds: object",
    "**kwds", "**kwds: dict = None",
};
static const char *const deprecations[] = {
    "* [from 3.14]", "/ [from 3.14]", "* [from 3.15]", "/ [from 3.16]",
    "* [from 3]", "/ [from x.y]",
};

static void parameters(Dsl *g, Params *p, bool self_param)
{
    if (self_param && ONE_IN(g, 6))
        out(g, "%sself: self(type=\"PyObject *\")\n", p->indent);
    int npos = (int)pick(g, 3), npok = (int)pick(g, 3), nkw = (int)pick(g, 3);
    bool group = g->corner == C_GROUP;
    if (group)
        marker(g, p, "[");
    for (int i = 0; i < npos; i++)
        parameter(g, p, false);
    if (group)
        marker(g, p, "]");
    if (npos && !ONE_IN(g, 4))
        marker(g, p, corner(g, C_DEPRECATION, 2) ? PICK(g, deprecations)
                                                  : "/");
    for (int i = 0; i < npok; i++)
        parameter(g, p, false);
    bool varargs_here = corner(g, C_VARARGS, 1);
    unsigned star = varargs_here ? 1 : pick(g, 4);
    if (varargs_here)
        marker(g, p, PICK(g, varargs));
    else if (star == 1)
        marker(g, p, corner(g, C_DEPRECATION, 1) ? PICK(g, deprecations)
                                                 : "*");
    else if (star == 2 && nkw)
        marker(g, p, "*");
    for (int i = 0; i < nkw && star; i++)
        parameter(g, p, true);
    if (corner(g, C_VARKWDS, 1))
        marker(g, p, PICK(g, varkwds));
    if (corner(g, C_MISPLACED, 1))   /* after where the list should end */
        marker(g, p, ONE_IN(g, 2) ? "/" : "*");
}

/* ---- docstrings ------------------------------------------------------------- */

/* A line of text exactly width characters long (ASCII, or with an é). */
static void text_line(Dsl *g, int width, bool non_ascii)
{
    static const char words[] = "Return the value of the thing, with care ";
    for (int i = 0; i < width; i++) {
        if (non_ascii && i == width / 2)
            out(g, "\xc3\xa9");
        else
            out(g, "%c", words[i % (int)(sizeof words - 1)]);
    }
    out(g, "\n");
}

static const int widths[] = {10, 40, 67, 68, 69, 71, 72, 73, 90};

/* A docstring: short lines, or with C_WIDTH lines around the limits. */
static void docstring(Dsl *g)
{
    if (ONE_IN(g, 6))
        return;
    bool wide = g->corner == C_WIDTH;
    out(g, "\n");
    text_line(g, wide ? PICK(g, widths) : 10 + (int)pick(g, 50),
              wide && ONE_IN(g, 4));
    if (ONE_IN(g, 3))
        return;
    out(g, "\n");
    int lines = 1 + (int)pick(g, 3);
    for (int i = 0; i < lines; i++)
        text_line(g, wide ? PICK(g, widths) : 10 + (int)pick(g, 50),
                  wide && ONE_IN(g, 4));
}

/* ---- functions ---------------------------------------------------------------- */

static const char *const returns[] = {
    "int", "NoneType", "bool", "Py_ssize_t", "object", "unsigned_long",
    "double", "size_t", "long", "float", "unsigned_int", "init",
    "int(c_default=\"0\")",
};

static const char *const extra_decorators[] = {
    "@critical_section", "@disable fastcall", "@permit_long_summary",
    "@permit_long_docstring_body", "@text_signature \"($module, a)\"",
    "@coexist", "@critical_section a", "@disable", "@disable nothing",
};

static void function_block(Dsl *g, int n)
{
    out(g, "/*[clinic input]\n");
    Params p = { .indent = corner(g, C_INDENT, 2) ? PICK(g, indents)
                                                  : "    " };
    unsigned kind = g->corner == C_ACCESSOR ? 9 + pick(g, 3) : pick(g, 9);
    bool params = true, self_param = false;
    if (corner(g, C_DECORATOR, 1))
        out(g, "%s\n", PICK(g, extra_decorators));
    switch (kind) {
    case 0: case 1: case 2: case 3:
        out(g, "m.f%d", n);
        break;
    case 4: case 5:
        out(g, "m.C.meth%d", n);
        self_param = true;
        break;
    case 6:
        out(g, "@classmethod\nm.C.cm%d", n);
        break;
    case 7:
        out(g, "@staticmethod\nm.C.sm%d", n);
        break;
    case 8:
        out(g, ONE_IN(g, 2) ? "@classmethod\nm.C.__new__" : "m.C.__init__");
        break;
    case 9:
        out(g, "@getter\nm.C.attr%d", n);
        params = ONE_IN(g, 10);
        break;
    case 10:
        out(g, "@setter\n%sm.C.attr%d", ONE_IN(g, 2) ? "@deleter\n" : "", n);
        params = ONE_IN(g, 10);
        break;
    default:
        /* both accessors of one attribute, the second in a block of
           its own below */
        out(g, "@getter\nm.C.prop%d", n);
        params = false;
        break;
    }
    if (corner(g, C_AS, 2))
        out(g, "%sas%sm_f%d_impl", ONE_IN(g, 3) ? "  " : " ",
            ONE_IN(g, 3) ? "  " : " ", n);
    if (corner(g, C_RETURN, 1))
        out(g, " -> %s", PICK(g, returns));
    out(g, "\n");
    if (params)
        parameters(g, &p, self_param);
    if (kind < 9 || ONE_IN(g, 4))
        docstring(g);
    out(g, "[clinic start generated code]*/\n\n");
    if (kind == 11) {
        out(g, "/*[clinic input]\n@setter\n%sm.C.prop%d\n",
            ONE_IN(g, 2) ? "@deleter\n" : "", n);
        out(g, "[clinic start generated code]*/\n\n");
    }
}

static char *generate(Dsl *g, size_t *len)
{
    /* a third of the files plain, the rest one corner each */
    unsigned c = pick(g, C_NCORNERS + C_NCORNERS / 2);
    g->corner = c < C_NCORNERS ? (Corner)c : C_NONE;
    out(g, "/*[clinic input]\nmodule m\n"
           "class m.C \"PyObject *\" \"&PyBaseObject_Type\"\n"
           "[clinic start generated code]*/\n\n");
    function_block(g, 0);
    *len = g->len;
    return g->buf;
}

char *fzdsl_from_seed(uint64_t seed, size_t *len)
{
    Dsl g = {0};
    g.state = seed * 0x2545f4914f6cdd1du + 1;
    return generate(&g, len);
}
