/*
 * gen.c — a grammar-based generator of hostile C files (see gen.h).
 *
 * What it calls is not a list kept here: the catalogue is read from the
 * interpreter once per process.  The names come from the builtins dict
 * and the python-block namespace of a live interpreter; a probe block
 * run through clinic itself then says which are classes and lists each
 * class's attributes with vars(), as a dir() walk would.  A native added
 * to lib/ is in the next run's catalogue without a change here.
 *
 * The grammar (roughly, each choice weighted by the switch it is in):
 *
 *   file     := ["python" block] {"clinic" block} ["python" block]
 *   python   := prelude {converter class | odd class} {statement}
 *   prelude  := deep data (tuples, lists, dicts, frozensets, classes,
 *               built 50 to 60,000 deep in a loop) | cyclic data
 *   class    := converter or return converter subclass of a built-in
 *               one, with odd class attributes and methods (any method
 *               name CConverter has) that set odd attributes on self,
 *               make clinic's objects by hand and call natives
 *   statement:= call | operator | subscript | unpacking | for | if |
 *               print | f-string | % formatting
 *   call     := builtin(args) | Class.method(wrong self, args) |
 *               sample.method(args) | Class(args) | via getattr, super()
 *               or __get__
 *   args     := odd values, *x, **x, repeated keywords
 *   value    := atoms (None, ints at every size boundary, nan, odd
 *               strings) | huge sizes ('a'*10**9) | deep and cyclic data
 *               | containers | calls | lambdas | clinic's objects
 *   clinic   := module, class, function lines with return converters;
 *               parameters with converters called with (**{}), (*[]),
 *               repeated and unknown keywords, odd c_default, huge
 *               defaults
 *
 * An exception ends a python block (the interpreter has no 'try'), so a
 * file holds few risky statements; breadth comes from many files.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drive/clinic.h"
#include "model/converters.h"
#include "base/dialect.h"
#include "gen.h"
#include "python/pyvm.h"
#include "python/pyvm_int.h"

#define COUNT(t) (sizeof (t) / sizeof (t)[0])

/* ---- output ------------------------------------------------------------ */

typedef struct Buf {
    char *p;
    size_t len, cap;
} Buf;

static void buf_vadd(Buf *b, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0)
        abort();
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + (size_t)n + 1 > cap)
            cap *= 2;
        b->p = realloc(b->p, cap);
        if (!b->p)
            abort();
        b->cap = cap;
    }
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

static void buf_add(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vadd(b, fmt, ap);
    va_end(ap);
}

/* ---- names ------------------------------------------------------------- */

typedef struct Names {
    char **v;
    size_t n, cap;
} Names;

static void names_add(Names *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], s))
            return;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v)
            abort();
    }
    l->v[l->n] = strdup(s);
    if (!l->v[l->n])
        abort();
    l->n++;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* ---- the catalogue ------------------------------------------------------ */

typedef struct Klass {
    char *expr;          /* how a block names it: "str", "type(iter([]))" */
    Names attrs;         /* vars() of it */
} Klass;

static struct {
    bool made;
    Names functions;     /* callables that are not classes */
    Names values;        /* the namespace's other names (NULL, version) */
    Klass *classes;
    size_t nclasses;
    Names converters;    /* DSL names: int, str, Py_buffer, ... */
    Names returns;       /* DSL return converter names */
    Names bases;         /* converter classes to subclass */
    Names return_bases;
    Names converter_methods;   /* vars(CConverter) */
    Names return_methods;      /* vars(CReturnConverter) */
} cat;

/* Classes no name reaches: the probe names them by what makes one. */
static const char *const type_exprs[] = {
    "type(len)", "type(None)", "type(iter([]))", "type({}.keys())",
    "type({}.values())", "type({}.items())", "type(lambda: 0)",
    "type([].append)", "type(NULL)", "type(unspecified)", "type(unknown)",
    "type(...)", "type(iter(range(2)))", "type(reversed([]))", "type(map(len, []))",
};

static void collect(PyObj *dict, Names *into)
{
    PyValue k, v;
    for (size_t i = 0; pyvm_dict_entry(dict, i, &k, &v); i++)
        if (k.kind == PY_STR && strncmp(k.s, "__", 2) != 0)
            names_add(into, k.s);
}

/* One line of the probe's output: "@ NAME KIND ATTR ATTR ...". */
static void catalogue_line(char *line)
{
    char *save = NULL;
    char *at = strtok_r(line, " ", &save);
    char *name = strtok_r(NULL, " ", &save);
    char *kind = strtok_r(NULL, " ", &save);
    if (!at || strcmp(at, "@") || !name || !kind)
        return;
    for (char *p = name; *p; p++)   /* the probe printed spaces as '~' */
        if (*p == '~')
            *p = ' ';
    if (*kind == 'F') {
        names_add(&cat.functions, name);
        return;
    }
    if (*kind == 'V') {
        names_add(&cat.values, name);
        return;
    }
    cat.classes = realloc(cat.classes, (cat.nclasses + 1) * sizeof *cat.classes);
    if (!cat.classes)
        abort();
    Klass *k = &cat.classes[cat.nclasses++];
    memset(k, 0, sizeof *k);
    k->expr = strdup(name);
    for (char *a; (a = strtok_r(NULL, " ", &save)) != NULL;)
        names_add(&k->attrs, a);
    if (!strcmp(name, "CConverter")) {
        names_add(&cat.bases, name);
        for (size_t i = 0; i < k->attrs.n; i++)
            names_add(&cat.converter_methods, k->attrs.v[i]);
    } else if (!strcmp(name, "CReturnConverter")) {
        names_add(&cat.return_bases, name);
        for (size_t i = 0; i < k->attrs.n; i++)
            names_add(&cat.return_methods, k->attrs.v[i]);
    } else if (ends_with(name, "_return_converter")) {
        names_add(&cat.return_bases, name);
        char *dsl = strdup(name);
        dsl[strlen(dsl) - strlen("_return_converter")] = '\0';
        names_add(&cat.returns, dsl);
        free(dsl);
    } else if (ends_with(name, "_converter")) {
        names_add(&cat.bases, name);
        char *dsl = strdup(name);
        dsl[strlen(dsl) - strlen("_converter")] = '\0';
        names_add(&cat.converters, dsl);
        free(dsl);
    }
}

static void make_catalogue(void)
{
    if (cat.made)
        return;
    cat.made = true;
    ClinicOptions options = {0};
    options.dialect = dialects[0];   /* 3.11: the namespace with functions */
    Clinic *c = clinic_new("probe.c", &options);
    PyVM *vm = converters_python(c);
    Names names = {0};
    collect((PyObj *)vm->builtins, &names);
    collect(pyvm_globals(vm), &names);
    clinic_free(c);
    for (size_t i = 0; i < COUNT(type_exprs); i++)
        names_add(&names, type_exprs[i]);

    /* the probe: what each name is, and a class's vars() */
    Buf probe = {0};
    buf_add(&probe, "/*[python input]\n");
    for (size_t i = 0; i < names.n; i++) {
        const char *n = names.v[i];
        char shown[256];
        snprintf(shown, sizeof shown, "%s", n);
        for (char *p = shown; *p; p++)
            if (*p == ' ')
                *p = '~';
        buf_add(&probe, "print('@', \"%s\", 'C' if isinstance(%s, type) else "
                "'F' if callable(%s) else 'V', *(vars(%s) if isinstance(%s, "
                "type) else ()))\n", shown, n, n, n, n);
    }
    buf_add(&probe, "[python start generated code]*/\n");
    c = clinic_new("probe.c", &options);
    if (clinic_process(c, probe.p, probe.len) != 0) {
        fprintf(stderr, "fuzzgen: the catalogue's probe failed:\n%s%s", probe.p,
                c->diagnostics.buf);
        abort();
    }
    char *text = strndup(c->output, c->output_len);
    clinic_free(c);
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (l[0] == '@')
            catalogue_line(l);
    free(text);
    free(probe.p);
    for (size_t i = 0; i < names.n; i++)
        free(names.v[i]);
    free(names.v);
    if (cat.functions.n < 10 || cat.nclasses < 10 || cat.converters.n < 10) {
        fprintf(stderr, "fuzzgen: the catalogue is too small "
                "(%zu functions, %zu classes, %zu converters)\n",
                cat.functions.n, cat.nclasses, cat.converters.n);
        abort();
    }
}

void fzgen_print_catalogue(FILE *out)
{
    make_catalogue();
    fprintf(out, "functions (%zu):", cat.functions.n);
    for (size_t i = 0; i < cat.functions.n; i++)
        fprintf(out, " %s", cat.functions.v[i]);
    fprintf(out, "\nvalues (%zu):", cat.values.n);
    for (size_t i = 0; i < cat.values.n; i++)
        fprintf(out, " %s", cat.values.v[i]);
    size_t nattrs = 0;
    for (size_t i = 0; i < cat.nclasses; i++)
        nattrs += cat.classes[i].attrs.n;
    fprintf(out, "\nclasses (%zu, %zu attributes):\n", cat.nclasses, nattrs);
    for (size_t i = 0; i < cat.nclasses; i++) {
        fprintf(out, "  %s:", cat.classes[i].expr);
        for (size_t k = 0; k < cat.classes[i].attrs.n; k++)
            fprintf(out, " %s", cat.classes[i].attrs.v[k]);
        fprintf(out, "\n");
    }
    fprintf(out, "DSL converters (%zu), return converters (%zu)\n",
            cat.converters.n, cat.returns.n);
}

unsigned fzgen_avoid_from_env(void)
{
    static const struct {
        const char *word;
        unsigned bit;
    } words[] = {
        { "deep", FZ_AVOID_DEEP }, { "cyclic", FZ_AVOID_CYCLIC },
        { "hosts", FZ_AVOID_HOSTS }, { "name", FZ_AVOID_NAME },
        { "starstar", FZ_AVOID_STARSTAR }, { "slow", FZ_AVOID_SLOW },
    };
    const char *e = getenv("CLINIC_FUZZGEN_AVOID");
    unsigned bits = 0;
    for (size_t i = 0; e && i < COUNT(words); i++)
        if (strstr(e, words[i].word))
            bits |= words[i].bit;
    return bits;
}

/* ---- choices ----------------------------------------------------------- */

typedef struct Gen {
    const uint8_t *data;     /* a libFuzzer input's bytes, or NULL: */
    size_t size, pos;
    uint64_t state;          /* a seed's splitmix64 */
    unsigned avoid;
    Buf out;
    int indent;
    int budget;              /* expression nodes left: bounds the file */
    int method;              /* 0 module level, 1 converter method,
                                2 return converter method */
    int nconv, nret;         /* fzN_converter, fzRN_return_converter */
    bool deep, deepl, deepd, deepf, deepk, cyc, cycd, pair, selfref, odd;
    int nfunc;               /* fzm.fN */
    bool module_done, class_done;
} Gen;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A choice among n: the input's next byte (two for n > 256), so
   libFuzzer's mutations are changes of the choices made; past its end,
   the first choice, the smallest (an atom, no arguments, no loop), so
   a short input is a short file and minimizing an input shortens it.
   A seed's choices come from splitmix64. */
static unsigned pick(Gen *g, unsigned n)
{
    if (n <= 1)
        return 0;
    if (g->data) {
        if (g->pos >= g->size)
            return 0;
        unsigned v = g->data[g->pos++];
        if (n > 256 && g->pos < g->size)
            v = v << 8 | g->data[g->pos++];
        return v % n;
    }
    return (unsigned)(splitmix(&g->state) % n);
}

#define ONE_IN(g, n) (pick((g), (n)) == 0)
#define PICK(g, t) ((t)[pick((g), COUNT(t))])

static const char *pick_name(Gen *g, const Names *l)
{
    return l->n ? l->v[pick(g, (unsigned)l->n)] : "None";
}

static void out(Gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vadd(&g->out, fmt, ap);
    va_end(ap);
}

static void line_start(Gen *g)
{
    out(g, "%*s", 4 * g->indent, "");
}

/* ---- values ------------------------------------------------------------ */

static const char *const atoms[] = {
    "None", "True", "False", "0", "1", "-1", "2", "255", "256", "-256",
    "2**31-1", "2**31", "-2**31-1", "2**32", "2**63-1", "2**63", "-2**63",
    "-2**63-1", "2**64", "-2**64", "10**20", "-10**30", "10**400", "1.5",
    "-0.0", "float('nan')", "float('inf')", "-float('inf')", "1e308",
    "5e-324", "1j", "''", "'a'", "'abc'", "'\\x00'", "'\\udcff'",
    "'\\u20ac'", "'\\U0010ffff'", "'%s'", "'%'", "'{}'", "'{0}'", "'{'",
    "'{0.__class__}'", "'{!r}'", "'{:>5}'", "'\\n'", "'x'*100", "'1'*5000",
    "' 42 '", "'0x1f'", "'-'", "'_'", "'int'", "'self'", "'__init__'",
    "b''", "b'\\xff'", "b'ab'", "bytearray(b'ab')", "()", "(1,)", "(None, None)",
    "[]", "[1, 'a']", "[3, 1, 2]", "{}", "{'a': 1}", "{1: 2}", "{None: None}",
    "set()", "{1, 'a'}", "frozenset()", "frozenset({1})", "range(10)",
    "range(-5, 5, -2)", "range(2**63)", "slice(None)", "slice(1, 2, 3)",
    "slice(-2**63, 2**64, 0)", "...", "object()", "NULL", "unspecified",
    "unknown", "NoneType", "type", "object", "str", "int", "len", "print",
    "CConverter", "int_converter", "Function", "(lambda *a, **k: None)",
    "(lambda: 0)", "lambda x: x",
};

/* sizes that must hit a limit, quickly */
static const char *const huge[] = {
    "'a'*10**9", "'ab'*2**62", "[0]*10**9", "[None]*2**62", "(0,)*10**9",
    "b'a'*10**9", "bytearray(10**9)", "'%0*d' % (10**9, 1)",
    "range(10**30)",
    "'a'*100000", "[0]*100000", "'ab'.replace('', 'x'*100000)",
    "'x'*10**6 + 'y'", "'%s' * 10**6", "[[]]*10**6",
    "'a'.join('b'*10**5 for _ in [0])", "'-'*2**31",
    "'%.1000000f' % 1.5", "format(1.5, '.100000f')", "'{:,}'.format(10**5000)",
};

/* sizes that must hit the CPU budget (issue 28 item 3) */
static const char *const slow[] = {
    "1 << 330000", "10**10**5", "(1<<300000)*(1<<300000)", "int('9'*100001)",
    "int('f'*20000, 16)", "('a'*10**6).find('a'*500000+'b')", "2**2**20",
    "pow(3, 10**6)", "str(1<<100000)", "hex(1<<10**6)", "sum(range(10**8))",
    "divmod(10**100000, 7**20000)", "'a'*10**6 in 'a'*10**7",
    /* padding fills 256 MiB before it fails (pending/hang-padding-*) */
    "'x'.ljust(10**9)", "'x'.center(2**63-1)", "'x'.zfill(10**9)",
    "'\\t'.expandtabs(10**9)", "'{:>1000000000}'.format(1)",
    "list(range(10**9))", "tuple(range(2**62))", "set(range(10**8))",
    /* a million items: allowed, but a second or more under ASan */
    "{i: i for i in range(10**6)}", "str([0]*10**6)",
    "' '.join(['a']*10**6)", "sorted(range(10**6), key=str)",
    "tuple(range(10**6))", "set(range(10**6))",
};

static const char *const attrs_any[] = {
    "name", "type", "c_default", "py_default", "default", "converter",
    "format_unit", "c_ignored_default", "encoding", "subclass_of", "length",
    "show_in_signature", "signature_name", "function", "parameter",
    "py_name", "impl_by_reference", "parse_by_reference", "default_type",
    "unused", "module", "cls", "parameters", "docstring", "kind",
    "return_converter", "full_name", "c_basename", "self_converter",
    "declarations", "initializers", "modifications", "keywords",
    "format_units", "parse_arguments", "impl_parameters",
    "impl_arguments", "return_value", "return_conversion",
    "converter_retvals", "cleanup", "post_parsing", "__class__", "__dict__",
    "__name__", "__mro__", "__bases__", "__init__", "__repr__", "x",
};

static const char *const kwnames[] = {
    "key", "reverse", "default", "sep", "end", "start", "encoding",
    "errors", "base", "ndigits", "self", "name", "type", "x", "maxsplit",
    "keepends", "tabsize", "fillchar", "chars", "flush", "file", "strict",
    "c_default", "py_default", "accept", "bitwise", "args", "kwargs",
};

static void expr(Gen *g, int depth);

static bool have_data(const Gen *g)
{
    return g->deep || g->deepl || g->deepd || g->deepf || g->deepk ||
           g->cyc || g->cycd || g->pair || g->selfref || g->odd;
}

/* a deep, cyclic or odd datum the prelude made */
static void datum(Gen *g)
{
    const char *have[16];
    size_t n = 0;
    if (g->deep) have[n++] = "fz_deep";
    if (g->deepl) have[n++] = "fz_deepl";
    if (g->deepd) have[n++] = "fz_deepd";
    if (g->deepf) have[n++] = "fz_deepf";
    if (g->deepk) have[n++] = "fz_deepk";
    if (g->cyc) have[n++] = "fz_cyc";
    if (g->cycd) have[n++] = "fz_cycd";
    if (g->pair) have[n++] = "fz_pa";
    if (g->pair) have[n++] = "fz_pb";
    if (g->selfref) have[n++] = "fz_k";
    if (g->odd) have[n++] = "fz_odd";
    if (g->odd) have[n++] = "fz_Odd";
    if (g->odd) have[n++] = "fz_L";
    if (g->odd) have[n++] = "fz_D";
    if (g->odd) have[n++] = "fz_S";
    out(g, "%s", n ? have[pick(g, (unsigned)n)] : "None");
}

static const Klass *pick_class(Gen *g)
{
    return &cat.classes[pick(g, (unsigned)cat.nclasses)];
}

/* A method of a class, every (class, attribute) pair as likely: picking
   the class first would call the 27 methodless exceptions' nothing as
   often as str's 45 methods. */
static const Klass *pick_method(Gen *g, const char **attr)
{
    size_t total = 0;
    for (size_t i = 0; i < cat.nclasses; i++)
        total += cat.classes[i].attrs.n;
    size_t k = pick(g, (unsigned)total);
    for (size_t i = 0; i < cat.nclasses; i++) {
        if (k < cat.classes[i].attrs.n) {
            *attr = cat.classes[i].attrs.v[k];
            return &cat.classes[i];
        }
        k -= cat.classes[i].attrs.n;
    }
    *attr = "mro";
    return &cat.classes[0];
}

/* ints where a native wants an index, a count, a width or a self */
static const char *const odd_ints[] = {
    "0", "-1", "1", "2**31", "-2**31-1", "2**32", "2**63-1", "2**63",
    "-2**63", "-2**63-1", "2**64", "-2**64", "10**400", "-10**400", "True",
    "1.5", "-0.0", "float('nan')", "None", "'1'",
};

/* a self a method does not expect */
static const char *const odd_selfs[] = {
    "1", "None", "'a'", "[]", "1.5", "object()", "int", "()", "{}",
    "-2**63", "10**400", "b'x'", "frozenset()", "CConverter", "len",
    "NULL", "unspecified", "Function", "(lambda: 0)", "range(3)",
    "super(int, 1)", "{}.keys()", "iter([])", "ValueError()",
};

/* A value of the class's own type where one is easy to make, so a method
   gets its own self and only odd arguments. */
static void sample_of(Gen *g, const Klass *k)
{
    static const char *const samples[][2] = {
        { "str", "'a,b c'" }, { "list", "[3, 'x', None]" },
        { "dict", "{'a': 1, 2: None}" }, { "set", "{1, 'b'}" },
        { "frozenset", "frozenset({1, 'b'})" }, { "int", "12345" },
        { "float", "1.25" }, { "bytes", "b'a,b'" },
        { "bytearray", "bytearray(b'ab')" }, { "tuple", "(1, 'x')" },
        { "type", "int" }, { "object", "object()" }, { "bool", "True" },
        { "range", "range(5)" }, { "complex", "1j" }, { "slice", "slice(1, 5)" },
    };
    for (size_t i = 0; i < COUNT(samples); i++)
        if (!strcmp(samples[i][0], k->expr)) {
            out(g, "%s", samples[i][1]);
            return;
        }
    out(g, "(%s)()", k->expr);
}

static void args(Gen *g, int depth)
{
    out(g, "(");
    int n = 0;
    unsigned npos = pick(g, 5);
    for (unsigned i = 0; i < npos; i++, n++) {
        out(g, "%s", n ? ", " : "");
        if (ONE_IN(g, 8))
            out(g, "*");
        if (ONE_IN(g, 3))
            out(g, "%s", PICK(g, odd_ints));
        else
            expr(g, depth);
    }
    unsigned nkw = ONE_IN(g, 3) ? pick(g, 3) + 1 : 0;
    for (unsigned i = 0; i < nkw; i++, n++) {
        out(g, "%s%s=", n ? ", " : "", PICK(g, kwnames));
        expr(g, depth);
    }
    if (ONE_IN(g, 12)) {
        out(g, "%s", n++ ? ", " : "");
        if (ONE_IN(g, 2))
            out(g, "key=1, key=2");
        else {
            out(g, "**");
            static const char *const maps[] = {
                "{}", "{'a': 1}", "{1: 2}", "{'key': None, 'x': []}",
                "dict.fromkeys(['reverse', 'default'])",
            };
            if (ONE_IN(g, 2))
                out(g, "%s", PICK(g, maps));
            else
                expr(g, depth);
        }
    }
    out(g, ")");
}

static void call(Gen *g, int depth)
{
    const char *attr = NULL;
    const Klass *k = ONE_IN(g, 4) ? pick_class(g) : pick_method(g, &attr);
    if (!attr)
        attr = pick_name(g, &k->attrs);
    switch (pick(g, 10)) {
    case 0: case 1: case 2:
        out(g, "%s", pick_name(g, &cat.functions));
        break;
    case 3: case 4:            /* unbound: often the wrong self */
        out(g, "%s.%s", k->expr, attr);
        if (k->attrs.n == 0)
            break;
        out(g, "(");
        switch (pick(g, 3)) {
        case 0: sample_of(g, k); break;
        case 1: out(g, "%s", PICK(g, odd_selfs)); break;
        default: expr(g, depth); break;
        }
        if (ONE_IN(g, 2)) {
            out(g, ", ");
            expr(g, depth);
        }
        out(g, ")");
        return;
    case 5: case 6:            /* bound to a value of its own type */
        out(g, "(");
        sample_of(g, k);
        out(g, ").%s", attr);
        break;
    case 7:
        out(g, "%s", k->expr);
        break;
    case 8:
        switch (pick(g, 4)) {
        case 0: out(g, "getattr(%s, '%s')", k->expr, attr); break;
        case 1: out(g, "%s.%s.__get__(", k->expr, attr);
                expr(g, depth);
                out(g, ")");
                break;
        case 2: out(g, "super(%s, ", k->expr);
                expr(g, depth);
                out(g, ").%s", attr);
                break;
        default: out(g, "vars(%s)['%s']", k->expr, attr); break;
        }
        break;
    default:
        out(g, "(");
        expr(g, depth);
        out(g, ")");
        break;
    }
    args(g, depth);
}

static const char *const hosts[] = {
    "Function()", "Parameter()", "Module()", "Class()", "CRenderData()",
    "LandMine('x')", "Function(name=None)", "Parameter('a', 1, None)",
    "type(Function)()", "Function.__new__(Function)",
};

static const char *const method_values[] = {
    "self", "self.function", "self.function.module",
    "type(self.function.module)()", "type(self.function)()", "type(self)()",
    "self.function.parameters", "self.function.cls", "self.name",
    "self.function.module.name", "fz_a", "fz_k", "fz_a[0]", "fz_a[-1]",
    "self.default", "self.__class__", "super()", "type(self).__mro__",
    "self.function.return_converter", "self.function.docstring",
};

static const char *const binops[] = {
    "==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "+", "-", "*",
    "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "and", "or",
};

static void expr(Gen *g, int depth)
{
    if (depth <= 0 || --g->budget <= 0) {
        if (have_data(g) && ONE_IN(g, 3))
            datum(g);
        else
            out(g, "%s", PICK(g, atoms));
        return;
    }
    switch (pick(g, 18)) {
    case 0: case 1: case 2:
        out(g, "%s", PICK(g, atoms));
        break;
    case 3: case 4:
        if (have_data(g))
            datum(g);
        else
            out(g, "%s", PICK(g, atoms));
        break;
    case 5:
        /* rare: each may take the whole CPU budget, seconds */
        if (!(g->avoid & FZ_AVOID_SLOW) && ONE_IN(g, 16))
            out(g, "(%s)", PICK(g, slow));
        else
            out(g, "(%s)", PICK(g, huge));
        break;
    case 6:
        switch (pick(g, 5)) {
        case 0: out(g, "["); expr(g, depth - 1); out(g, ", ");
                expr(g, depth - 1); out(g, "]"); break;
        case 1: out(g, "("); expr(g, depth - 1); out(g, ",)"); break;
        case 2: out(g, "{"); expr(g, depth - 1); out(g, ": ");
                expr(g, depth - 1); out(g, "}"); break;
        case 3: out(g, "{"); expr(g, depth - 1); out(g, "}"); break;
        default: out(g, "[fz_x for fz_x in "); expr(g, depth - 1);
                 out(g, "]"); break;
        }
        break;
    case 7: case 8: case 9:
        call(g, depth - 1);
        break;
    case 10:
        if (g->avoid & FZ_AVOID_HOSTS)
            out(g, "%s", PICK(g, atoms));
        else
            out(g, "%s", PICK(g, hosts));
        break;
    case 11:
        if (ONE_IN(g, 2))
            out(g, "%s", pick_name(g, &cat.functions));
        else if (ONE_IN(g, 2))
            out(g, "%s", pick_name(g, &cat.values));
        else
            out(g, "%s", pick_class(g)->expr);
        break;
    case 12:
        out(g, "(lambda *fz_la, **fz_lk: ");
        expr(g, depth - 1);
        out(g, ")");
        break;
    case 13:
        if (g->method) {
            const char *v = PICK(g, method_values);
            if ((g->avoid & FZ_AVOID_HOSTS) && strstr(v, ")()"))
                v = "self";
            out(g, "%s", v);
        } else {
            out(g, "%s", PICK(g, atoms));
        }
        break;
    case 14: case 15:
        out(g, "(");
        expr(g, depth - 1);
        out(g, " %s ", PICK(g, binops));
        expr(g, depth - 1);
        out(g, ")");
        break;
    case 16:
        out(g, "(");
        expr(g, depth - 1);
        out(g, ").%s", ONE_IN(g, 2) ? PICK(g, attrs_any)
                                      : pick_name(g, &pick_class(g)->attrs));
        break;
    default:
        out(g, "(");
        expr(g, depth - 1);
        out(g, ")[");
        if (ONE_IN(g, 3)) {      /* odd bounds and steps */
            out(g, "%s:%s:%s]", ONE_IN(g, 3) ? "" : PICK(g, odd_ints),
                ONE_IN(g, 3) ? "" : PICK(g, odd_ints), PICK(g, odd_ints));
            break;
        }
        if (ONE_IN(g, 3)) {
            expr(g, depth - 1);
            out(g, ":");
            expr(g, depth - 1);
            out(g, ":");
        }
        expr(g, depth - 1);
        out(g, "]");
        break;
    }
}

/* ---- statements -------------------------------------------------------- */

static const char *const specs[] = {
    "", ">10", "<", "{", "}", "%", ",d", ".1000000f", "0100000000d", "x",
    "#x", "c", "s", "!r", "=^20", "+.3e", "_b", "z", ">{}", "1000000000",
};

/* natives that walk their argument: the ones to feed deep data */
static const char *const walkers[] = {
    "hash", "repr", "str", "ascii", "sorted", "max", "min", "frozenset",
    "set", "list", "tuple", "format", "len", "sum", "any", "all", "print",
    "dict", "iter", "reversed", "bool", "id", "isinstance",
};

static void stmt(Gen *g, int depth);

static void block_body(Gen *g, int depth)
{
    g->indent++;
    unsigned n = pick(g, 2) + 1;
    for (unsigned i = 0; i < n; i++)
        stmt(g, depth);
    g->indent--;
}

static void stmt(Gen *g, int depth)
{
    line_start(g);
    switch (pick(g, 16)) {
    case 0: case 1: case 2: case 3:
        call(g, depth);
        break;
    case 4:
        out(g, "print(");
        expr(g, depth);
        out(g, ")");
        break;
    case 5:
        out(g, "fz_r = ");
        expr(g, depth);
        break;
    case 6:
        expr(g, depth);
        out(g, " %s ", PICK(g, binops));
        expr(g, depth);
        break;
    case 7:            /* a walker over deep, cyclic or odd data */
        out(g, "%s(", PICK(g, walkers));
        if (have_data(g))
            datum(g);
        else
            expr(g, depth);
        if (ONE_IN(g, 3)) {
            out(g, ", ");
            if (have_data(g))
                datum(g);
            else
                expr(g, depth);
        }
        out(g, ")");
        break;
    case 8:
        switch (pick(g, 5)) {
        case 0: expr(g, depth); out(g, "["); expr(g, depth);
                out(g, "] = "); expr(g, depth); break;
        case 1: out(g, "del "); expr(g, depth); out(g, "[");
                expr(g, depth); out(g, "]"); break;
        case 2: out(g, "("); expr(g, depth); out(g, ").%s = ",
                PICK(g, attrs_any)); expr(g, depth); break;
        case 3: out(g, "setattr("); expr(g, depth); out(g, ", ");
                expr(g, depth); out(g, ", "); expr(g, depth);
                out(g, ")"); break;
        default: out(g, "delattr("); expr(g, depth); out(g, ", '%s')",
                 PICK(g, attrs_any)); break;
        }
        break;
    case 9:
        out(g, "for fz_x in ");
        expr(g, depth);
        out(g, ":\n");
        block_body(g, depth - 1);
        return;
    case 10:
        out(g, "fz_a1, fz_a2 = ");
        expr(g, depth);
        break;
    case 11:
        if (ONE_IN(g, 2)) {
            out(g, "f'{");
            expr(g, depth);
            out(g, "!r:%s}'", PICK(g, specs));
        } else if (ONE_IN(g, 2)) {
            out(g, "'%%s %%r %%d %%x %%c %%(a)s %%*d' %% ");
            expr(g, depth);
        } else {
            out(g, "format(");
            expr(g, depth);
            out(g, ", '%s')", PICK(g, specs));
        }
        break;
    case 12:
        out(g, "if ");
        expr(g, depth);
        out(g, ":\n");
        block_body(g, depth - 1);
        line_start(g);
        out(g, "else:\n");
        block_body(g, depth - 1);
        return;
    case 13:
        out(g, "for fz_i in range(3):\n");
        block_body(g, depth - 1);
        return;
    case 14:
        out(g, "fz_s = sorted(");
        expr(g, depth);
        out(g, ", key=");
        expr(g, depth);
        out(g, ")");
        break;
    default:
        out(g, "assert ");
        expr(g, depth);
        break;
    }
    out(g, "\n");
}

/* ---- the prelude: deep, cyclic and odd data --------------------------- */

static int deep_size(Gen *g)
{
    static const int sizes[] = { 50, 1000, 3000, 60000 };
    int n = sizes[pick(g, COUNT(sizes))];
    return (g->avoid & FZ_AVOID_DEEP) && n > 1000 ? 1000 : n;
}

static const char *const dunders[] = {
    "__eq__", "__ne__", "__lt__", "__gt__", "__hash__", "__repr__",
    "__str__", "__format__", "__len__", "__iter__", "__next__",
    "__getitem__", "__contains__", "__bool__", "__index__", "__int__",
    "__call__", "__getattr__", "__add__", "__radd__", "__mul__",
    "__init__", "__setattr__", "__setitem__", "__del__", "__new__",
};

static void odd_class(Gen *g)
{
    static const char *const bases[] = {
        "object", "str", "int", "list", "dict", "tuple", "Exception",
        "type", "CConverter", "float", "set",
    };
    /* what the dunders change under their caller's feet: defined
       first, since fz_Odd() itself may run __init__ */
    line_start(g);
    out(g, "fz_L = [3, 1, 2]\n");
    line_start(g);
    out(g, "fz_D = {1: 0, 'a': 3}\n");
    line_start(g);
    out(g, "fz_S = {1, 'a'}\n");
    line_start(g);
    out(g, "class fz_Odd(%s):\n", PICK(g, bases));
    g->indent++;
    unsigned n = pick(g, 5) + 1;
    for (unsigned i = 0; i < n; i++) {
        line_start(g);
        out(g, "def %s(self, *fz_a, **fz_k):\n", PICK(g, dunders));
        g->indent++;
        if (ONE_IN(g, 3)) {   /* change what the caller is working on */
            static const char *const mutations[] = {
                "fz_L.clear()", "fz_D.clear()", "fz_L.append(self)",
                "fz_D[len(fz_D)] = self", "fz_L[:] = range(100)",
                "fz_L.sort()", "fz_D.update({i: i for i in range(100)})",
                "fz_L.extend(fz_L)", "fz_S.clear()", "fz_S.add(len(fz_S))",
            };
            line_start(g);
            out(g, "%s\n", PICK(g, mutations));
        }
        line_start(g);
        out(g, "return ");
        if (ONE_IN(g, 4))
            out(g, "%s", ONE_IN(g, 2) ? "self" : "repr(self)");
        else
            expr(g, 1);
        out(g, "\n");
        g->indent--;
    }
    g->indent--;
    line_start(g);
    out(g, "fz_odd = fz_Odd()\n");
    line_start(g);
    out(g, "fz_L[1:1] = [fz_odd, 0, fz_odd]\n");
    line_start(g);
    out(g, "fz_D[2] = fz_odd\n");
    g->odd = true;
}

static void prelude(Gen *g)
{
    unsigned n = pick(g, 3);
    for (unsigned i = 0; i < n; i++) {
        switch (pick(g, 9)) {
        case 0: out(g, "fz_deep = ()\nfor _ in range(%d):\n"
                    "    fz_deep = (fz_deep,)\n", deep_size(g));
                g->deep = true; break;
        case 1: out(g, "fz_deepl = []\nfor _ in range(%d):\n"
                    "    fz_deepl = [fz_deepl]\n", deep_size(g));
                g->deepl = true; break;
        case 2: out(g, "fz_deepd = {}\nfor _ in range(%d):\n"
                    "    fz_deepd = {'k': fz_deepd}\n", deep_size(g));
                g->deepd = true; break;
        case 3: {
            /* each level hashes the whole chain again: quadratic
               (pending/hang-frozenset-nesting.c) */
            int k = deep_size(g);
            if ((g->avoid & FZ_AVOID_SLOW) && k > 1000)
                k = 1000;
            out(g, "fz_deepf = frozenset()\nfor _ in range(%d):\n"
                "    fz_deepf = frozenset([fz_deepf])\n", k);
            g->deepf = true;
            break;
        }
        case 4: {
            /* a class deriving from the last: a long MRO, and a chain of
               calls through super(); type() of one costs its MRO's
               length squared, so 3,000 at most (pending/hang-mro-*) */
            int k = deep_size(g), cap = g->avoid & FZ_AVOID_SLOW ? 500 : 3000;
            out(g, "fz_deepk = object\nfor _ in range(%d):\n"
                "    fz_deepk = type('K', (fz_deepk,), {})\n",
                k < cap ? k : cap);
            g->deepk = true;
            break;
        }
        case 5:
            if (g->avoid & FZ_AVOID_CYCLIC)
                break;
            out(g, "fz_cyc = []\nfz_cyc.append(fz_cyc)\n");
            g->cyc = true;
            break;
        case 6:
            if (g->avoid & FZ_AVOID_CYCLIC)
                break;
            out(g, "fz_cycd = {}\nfz_cycd['k'] = fz_cycd\n");
            g->cycd = true;
            break;
        case 7:
            if (g->avoid & FZ_AVOID_CYCLIC)
                break;
            out(g, "fz_pa = []\nfz_pb = [fz_pa]\nfz_pa.append(fz_pb)\n"
                "class fz_K:\n    pass\nfz_k = fz_K()\nfz_k.k = fz_k\n");
            g->pair = g->selfref = true;
            break;
        default:
            odd_class(g);
            break;
        }
    }
}

/* ---- converter classes ------------------------------------------------- */

/* What a converter's method can reach of clinic's objects: writing odd
   values into them is how a block makes the generator read them back. */
static const char *const reachable[] = {
    "self", "self", "self", "self.function", "self.function.module",
    "self.function.cls", "fz_a[-1]", "fz_a[0]", "type(self)",
    "self.function.return_converter", "self.function.parameters",
};

static void self_assign(Gen *g)
{
    const char *a = ONE_IN(g, 3) ? pick_name(g, &cat.converter_methods)
                                 : PICK(g, attrs_any);
    const char *t = PICK(g, reachable);
    if ((g->avoid & FZ_AVOID_NAME) && !strcmp(a, "name"))
        a = "py_name";
    line_start(g);
    if (ONE_IN(g, 4)) {       /* the lists clinic keeps: odd items */
        static const char *const ops[] = {
            "append(", "extend(", "insert(0, ", "remove(", "__init__(",
        };
        out(g, "%s.%s.%s", t, PICK(g, attrs_any), PICK(g, ops));
        expr(g, 2);
        out(g, ")\n");
        return;
    }
    out(g, "%s.%s = ", t, a);
    expr(g, 2);
    out(g, "\n");
}

static void method(Gen *g, const char *name, const char *base_call)
{
    line_start(g);
    out(g, "def %s(self, *fz_a, **fz_k):\n", name);
    g->indent++;
    unsigned n = pick(g, 3);
    for (unsigned i = 0; i < n; i++) {
        if (ONE_IN(g, 2))
            self_assign(g);
        else
            stmt(g, 2);
    }
    if (ONE_IN(g, 5) && strcmp(name, "render") == 0) {
        line_start(g);
        out(g, "fz_a[-1].%s = ", PICK(g, attrs_any));
        expr(g, 2);
        out(g, "\n");
    }
    line_start(g);
    if (base_call && ONE_IN(g, 2))
        out(g, "return super().%s(*fz_a, **fz_k)\n", base_call);
    else if (ONE_IN(g, 2)) {
        out(g, "return ");
        expr(g, 2);
        out(g, "\n");
    } else
        out(g, "pass\n");
    g->indent--;
}

static const char *const class_attrs[] = {
    "type", "converter", "format_unit", "c_default", "py_default", "default",
    "c_ignored_default", "encoding", "impl_by_reference", "parse_by_reference",
    "length", "show_in_signature", "default_type", "subclass_of",
    "signature_name", "name",
};

static void converter_class(Gen *g, bool ret)
{
    int k = ret ? g->nret++ : g->nconv++;
    const Names *bases = ret ? &cat.return_bases : &cat.bases;
    const Names *methods = ret ? &cat.return_methods : &cat.converter_methods;
    line_start(g);
    out(g, ret ? "class fzR%d_return_converter(%s):\n"
               : "class fz%d_converter(%s):\n", k, pick_name(g, bases));
    g->indent++;
    g->method = ret ? 2 : 1;
    unsigned na = pick(g, 3);
    for (unsigned i = 0; i < na; i++) {
        const char *a = PICK(g, class_attrs);
        if ((g->avoid & FZ_AVOID_NAME) && !strcmp(a, "name"))
            continue;
        line_start(g);
        out(g, "%s = ", a);
        if (ONE_IN(g, 2))
            out(g, "%s", PICK(g, atoms));
        else
            expr(g, 1);
        out(g, "\n");
    }
    const char *init = ret ? "return_converter_init" : "converter_init";
    if (!ONE_IN(g, 4))
        method(g, init, ONE_IN(g, 3) ? init : NULL);
    unsigned nm = pick(g, 3);
    for (unsigned i = 0; i < nm; i++) {
        const char *m = pick_name(g, methods);
        method(g, m, m);
    }
    line_start(g);
    out(g, "pass\n");
    g->method = 0;
    g->indent--;
}

static void python_block(Gen *g)
{
    out(g, "/*[python input]\n");
    prelude(g);
    unsigned nc = pick(g, 3);
    for (unsigned i = 0; i < nc; i++)
        converter_class(g, ONE_IN(g, 4));
    if (ONE_IN(g, 6))
        odd_class(g);
    unsigned ns = pick(g, 4);
    for (unsigned i = 0; i < ns; i++)
        stmt(g, 3);
    out(g, "[python start generated code]*/\n\n");
}

/* ---- clinic input blocks ----------------------------------------------- */

/* values the DSL evaluates (its expression subset) */
static const char *const dsl_values[] = {
    "None", "0", "-1", "1", "10**1000", "2**64", "-2**63", "1.5", "-0.0",
    "'x'", "\"a\"*10", "'0'*1000001", "'x'*2**40", "NULL", "unspecified",
    "{str, NoneType}", "{int}", "{str}", "{robuffer}", "{buffer, str}",
    "True", "False", "()", "[]", "{}", "sys.maxsize", "-sys.maxsize - 1",
    "'\\x00'", "\"\\\"\"", "str", "int", "object", "1 + 2", "-(-1)",
    "'%s' % 1", "lambda: 0", "f'{1}'", "[1]*10**9", "int(**{})", "x.y",
    "a.b.c", "'{}'", "b'x'", "1j", "float('nan')", "'\\udcff'", "...",
    "'a' 'b'", "(1, 2)", "{'a': 1}", "not 0", "0 if 1 else 2", "\"\"",
    "'fz_m_C *'", "'PyObject *'", "'Py_ssize_t'", "'%'", "'\\\\'",
};

static const char *const dsl_slow[] = {
    "@hex", "10**10**6", "2**2**22", "'9'*100001",
};

static const char *const dsl_kwnames[] = {
    "c_default", "py_default", "type", "accept", "bitwise", "encoding",
    "subclass_of", "zeroes", "nullable", "allow_negative", "unused",
    "length", "default", "annotation", "converter", "format_unit",
    "ndigits", "x", "self", "doc_default", "c_ignored_default",
};

static const char *const legacy[] = {
    "'i'", "'O&'", "'es#'", "'z*'", "'U'", "'O!'", "'s#'", "'y*'", "'w*'",
    "'et'", "'?'", "'C'",
};

static void dsl_value(Gen *g)
{
    if (!(g->avoid & FZ_AVOID_SLOW) && ONE_IN(g, 80)) {
        const char *v = PICK(g, dsl_slow);
        if (strcmp(v, "@hex") == 0) {   /* a 100,000-digit literal */
            out(g, "0x");
            for (int i = 0; i < 10000; i++)
                out(g, "fffffffff7");
        } else
            out(g, "%s", v);
    } else {
        const char *v = PICK(g, dsl_values);
        if ((g->avoid & FZ_AVOID_STARSTAR) && strstr(v, "**{"))
            v = "None";
        out(g, "%s", v);
    }
}

static void dsl_call_args(Gen *g)
{
    if (ONE_IN(g, 3))
        return;                  /* a bare name */
    out(g, "(");
    int n = 0;
    switch (pick(g, 8)) {
    case 0:
        if (!(g->avoid & FZ_AVOID_STARSTAR)) {
            out(g, "**{}");
            n++;
        }
        break;
    case 1: out(g, "*[]"); n++; break;
    case 2: out(g, "*()"); n++; break;
    case 3: {
        const char *k = PICK(g, dsl_kwnames);
        out(g, "%s=", k);
        dsl_value(g);
        out(g, ", %s=", k);
        dsl_value(g);
        n++;
        break;
    }
    case 4: dsl_value(g); n++; break;
    default: break;
    }
    unsigned nk = pick(g, 3);
    for (unsigned i = 0; i < nk; i++, n++) {
        out(g, "%s%s=", n ? ", " : "", PICK(g, dsl_kwnames));
        dsl_value(g);
    }
    if (!(g->avoid & FZ_AVOID_STARSTAR) && ONE_IN(g, 8))
        out(g, "%s**%s", n ? ", " : "", ONE_IN(g, 2) ? "{}" : "{'x': 1}");
    out(g, ")");
}

static void dsl_converter(Gen *g, bool ret)
{
    int mine = ret ? g->nret : g->nconv;
    if (mine && ONE_IN(g, 2))
        out(g, ret ? "fzR%u" : "fz%u", pick(g, (unsigned)mine));
    else if (!ret && ONE_IN(g, 10))
        out(g, "%s", PICK(g, legacy));
    else if (ONE_IN(g, 20))
        out(g, "%s", ONE_IN(g, 2) ? "nonexistent" : "int.x");
    else
        out(g, "%s", pick_name(g, ret ? &cat.returns : &cat.converters));
    dsl_call_args(g);
}

static void clinic_block(Gen *g)
{
    out(g, "/*[clinic input]\n");
    if (!g->module_done || ONE_IN(g, 20)) {
        out(g, "module fzm\n");
        g->module_done = true;
    }
    bool in_class = false;
    if (!g->class_done && ONE_IN(g, 4)) {
        out(g, "class fzm.C \"fzm_C *\" \"&fzm_C_Type\"\n");
        g->class_done = true;
    }
    if (g->class_done && ONE_IN(g, 2))
        in_class = true;
    if (in_class && ONE_IN(g, 4))
        out(g, "%s\n", ONE_IN(g, 2) ? "@classmethod" : "@staticmethod");
    if (in_class && ONE_IN(g, 6))
        out(g, "fzm.C.%s", ONE_IN(g, 2) ? "__init__" : "__new__");
    else
        out(g, "fzm.%sf%d", in_class ? "C." : "", g->nfunc++);
    if (ONE_IN(g, 6))
        out(g, " as fzm_renamed%d", g->nfunc);
    if (ONE_IN(g, 3)) {
        out(g, " -> ");
        dsl_converter(g, true);
    }
    out(g, "\n");
    if (ONE_IN(g, 8)) {
        out(g, "    self: self(type=");
        dsl_value(g);
        out(g, ")\n");
    }
    unsigned np = pick(g, 5);
    for (unsigned i = 0; i < np; i++) {
        if (ONE_IN(g, 10))
            out(g, "    %s\n", ONE_IN(g, 2) ? "/" : "*");
        out(g, "    p%u: ", i);
        dsl_converter(g, false);
        if (ONE_IN(g, 3)) {
            out(g, " = ");
            dsl_value(g);
        }
        out(g, "\n");
        if (ONE_IN(g, 6))
            out(g, "        A parameter's docstring.\n");
    }
    if (ONE_IN(g, 3))
        out(g, "    /\n");
    out(g, "\nA docstring.\n[clinic start generated code]*/\n\n");
}

/* ---- files ------------------------------------------------------------- */

static char *generate(Gen *g, size_t *len)
{
    make_catalogue();
    g->budget = 400;
    out(g, "/* fuzzgen */\n");
    if (!ONE_IN(g, 8))
        python_block(g);
    unsigned nb = pick(g, 3);
    for (unsigned i = 0; i < nb; i++)
        clinic_block(g);
    if (ONE_IN(g, 6))
        python_block(g);
    *len = g->out.len;
    return g->out.p;
}

char *fzgen_from_seed(uint64_t seed, unsigned avoid, size_t *len)
{
    Gen g = {0};
    g.state = seed;
    g.avoid = avoid;
    return generate(&g, len);
}

char *fzgen_from_bytes(const uint8_t *data, size_t size, unsigned avoid,
                       size_t *len)
{
    Gen g = {0};
    g.data = data ? data : (const uint8_t *)"";
    g.size = size;
    g.avoid = avoid;
    return generate(&g, len);
}

/* ---- the sweep: each native once, with an odd self -------------------- */

static size_t sweep_natives(void)
{
    size_t n = cat.functions.n;
    for (size_t i = 0; i < cat.nclasses; i++)
        n += cat.classes[i].attrs.n;
    return n;
}

/* After the odd selfs, the sweep's rounds give every native deep or
   cyclic data, as self and as argument: the natives that recurse */
static const struct {
    const char *name, *make;
} sweep_data[] = {
    { "t", "t = ()\nfor _ in range(60000):\n    t = (t,)\n" },
    { "l", "l = []\nfor _ in range(60000):\n    l = [l]\n" },
    { "d", "d = {}\nfor _ in range(60000):\n    d = {'k': d}\n" },
    { "c", "c = []\nc.append(c)\n" },
    { "c", "c = {}\nc[1] = c\n" },
};

size_t fzgen_sweep_size(void)
{
    make_catalogue();
    return sweep_natives() * (COUNT(odd_selfs) + COUNT(sweep_data));
}

size_t fzgen_sweep_natives(void)
{
    make_catalogue();
    return sweep_natives();
}

char *fzgen_sweep(size_t k, size_t *len)
{
    make_catalogue();
    size_t n = sweep_natives();
    if (k >= fzgen_sweep_size())
        return NULL;
    size_t which = k % n, round = k / n;
    /* the self turns with the native, so one pass over the natives
       already gives each kind of self to many of them */
    const char *self = odd_selfs[(which + round) % COUNT(odd_selfs)];
    const char *arg = odd_ints[(which + 3 * round) % COUNT(odd_ints)];
    Buf b = {0};
    buf_add(&b, "/* fuzzgen sweep %zu */\n/*[python input]\n", k);
    if (round >= COUNT(odd_selfs)) {
        size_t r = round - COUNT(odd_selfs);
        buf_add(&b, "%s", sweep_data[r].make);
        self = arg = sweep_data[r].name;
    }
    if (which < cat.functions.n) {
        buf_add(&b, "x = %s(%s%s%s)\n", cat.functions.v[which], self,
                round % 2 ? ", " : "", round % 2 ? arg : "");
    } else {
        which -= cat.functions.n;
        const Klass *c = cat.classes;
        while (which >= c->attrs.n) {
            which -= c->attrs.n;
            c++;
        }
        buf_add(&b, "x = (%s).%s(%s%s%s)\n", c->expr, c->attrs.v[which],
                round % 3 == 2 ? "" : self, round % 2 ? ", " : "",
                round % 2 ? arg : "");
    }
    buf_add(&b, "[python start generated code]*/\n");
    *len = b.len;
    return b.p;
}
