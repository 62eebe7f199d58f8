/*
 * dsl_params.c — the parameter section of a declaration (clinic.py's
 * state_parameter, parse_special_symbol and the default-value rules):
 * one parameter per line, with continuation lines, "as c_name", a
 * converter annotation and a default; '*', '/', '[' and ']' lines; the
 * group state machine and the placement rules for self and
 * defining_class.
 */
#include <stdlib.h>
#include <string.h>

#include "model/converters.h"
#include "parse/dsl_int.h"
#include "python/pyexpr.h"
#include "base/text.h"

/* a + b + d in the arena. */
static char *concat3(Clinic *c, const char *a, const char *b, const char *d)
{
    size_t na = strlen(a), nb = strlen(b), nd = strlen(d);
    char *s = arena_alloc_uninit(c->arena, na + nb + nd + 1);
    memcpy(s, a, na);
    memcpy(s + na, b, nb);
    memcpy(s + na + nb, d, nd + 1);
    return s;
}

Parameter *dsl_add_parameter(Clinic *c, Function *f, const char *key,
                             Parameter *p)
{
    p->key = key;
    /* an ordered dict: assigning an existing key keeps its place (the
       first bytes settle most comparisons without a call) */
    for (size_t i = 0; i < f->nparameters; i++)
        if (f->parameters[i]->key[0] == key[0] &&
            !strcmp(f->parameters[i]->key, key)) {
            f->parameters[i] = p;
            return p;
        }
    GROW(c, f->parameters, f->nparameters, f->capparameters);
    f->parameters[f->nparameters++] = p;
    return p;
}

static CLINIC_NORETURN void fail_group(Clinic *c, DslState *d, char where)
{
    static const DialectMessage ids[] = {MSG_GROUP_STATE_A, MSG_GROUP_STATE_B,
                                         MSG_GROUP_STATE_C, MSG_GROUP_STATE_D};
    clinic_failm(c, 0, ids[where - 'a'],
                 MSG_ARGS(d->function->name,
                          arena_printf(c->arena, "%d", d->parameter_state)));
}

/* Transition to the "required" parameter state: groups seen so far were
   on the left, so their numbers turn negative. */
static void to_required(DslState *d)
{
    if (d->parameter_state != PS_REQUIRED) {
        d->parameter_state = PS_REQUIRED;
        for (size_t i = 0; i < d->function->nparameters; i++)
            d->function->parameters[i]->group =
                -d->function->parameters[i]->group;
    }
}

static bool same_version(PyVersion a, PyVersion b)
{
    return a.major == b.major && a.minor == b.minor;
}

static bool version_less(PyVersion a, PyVersion b)
{
    return a.major < b.major || (a.major == b.major && a.minor < b.minor);
}

static const char *version_text(Clinic *c, PyVersion v)
{
    return arena_printf(c->arena, "%d.%d", v.major, v.minor);
}

/* int(s) for a Python int literal with optional sign, underscores and
   surrounding whitespace; false when it is none. */
static bool parse_py_int(const char *s, int *out)
{
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    bool negative = *s == '-';
    if (*s == '+' || *s == '-')
        s++;
    if (*s < '0' || *s > '9')
        return false;
    long v = 0;
    for (; *s; s++) {
        if (*s == '_' && s[1] >= '0' && s[1] <= '9')
            continue;
        if (*s < '0' || *s > '9')
            break;
        if (v < 100000000)
            v = v * 10 + (*s - '0');
    }
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    if (*s)
        return false;
    *out = (int)(negative ? -v : v);
    return true;
}

/* The version of a '[from X.Y]' marker. */
static PyVersion parse_version(Clinic *c, DslState *d, const char *text)
{
    PyVersion v = {0, 0};
    const char *dot = strchr(text, '.');
    if (!dot || strchr(dot + 1, '.') ||
        !parse_py_int(arena_strndup(c->arena, text, (size_t)(dot - text)),
                      &v.major) ||
        !parse_py_int(dot + 1, &v.minor))
        clinic_fail(c, 0, "Function %s: expected format '[from major.minor]' "
                          "where 'major' and 'minor' are integers; got %s",
                    dsl_repr_str(c, d->function->name),
                    dsl_repr_str(c, text));
    return v;
}

/* A '*' or '/' line with a '[from X.Y]' marker ("* [from 3.14]"): the
   symbol, and the version text in *from.  0 when the line is none. */
static char match_from_marker(Clinic *c, const char *line, const char **from)
{
    if ((line[0] != '*' && line[0] != '/') || line[1] != ' ')
        return 0;
    const char *p = line + 1;
    while (*p == ' ')
        p++;
    if (strncmp(p, "[from ", 6) != 0)
        return 0;
    p += 6;
    while (*p == ' ')
        p++;
    size_t n = strlen(p);
    if (n < 2 || p[n - 1] != ']')
        return 0;
    *from = arena_strndup(c->arena, p, n - 1);
    return line[0];
}

void dsl_check_remaining_star(Clinic *c, DslState *d)
{
    Function *f = d->function;
    const char *symbol;
    if (d->keyword_only)
        symbol = "*";
    else if (d->deprecated_positional.major)
        symbol = "* [from ...]";
    else
        return;

    const Parameter *last = f->parameters[f->nparameters - 1];
    if (d->keyword_only) {
        if (last->kind == PARAM_KEYWORD_ONLY ||
            last->kind == PARAM_VAR_KEYWORD ||
            ((c->dialect->fixes & FIX_KEYWORD_ONLY_AFTER_VARARG) &&
             last->kind == PARAM_VAR_POSITIONAL))
            return;
    } else if (same_version(last->deprecated_positional,
                            d->deprecated_positional)) {
        return;
    }
    if (d->star_line)
        c->line = d->star_line;
    clinic_failm(c, 0, MSG_STAR_WITHOUT_PARAMETERS, MSG_ARGS(f->name, symbol));
}

/* '*', or '* [from X.Y]' (version), after which the parameters are
   keyword-only (or will be, from that version on). */
static void parse_star(Clinic *c, DslState *d, PyVersion version)
{
    Function *f = d->function;
    if (d->var_keyword)
        clinic_fail(c, 0, "Encountered '*' when not expecting parameters");
    if (!version.major) {
        if (d->keyword_only)
            clinic_failm(c, 0, MSG_STAR_TWICE, MSG_ARGS(f->name));
        dsl_check_remaining_star(c, d);
        d->keyword_only = true;
        d->star_line = d->line;
    } else {
        const char *name = dsl_repr_str(c, f->name);
        if (d->keyword_only)
            clinic_fail(c, 0, "Function %s: '* [from ...]' must precede '*'",
                        name);
        if (d->deprecated_positional.major) {
            if (same_version(d->deprecated_positional, version))
                clinic_fail(c, 0, "Function %s uses '* [from %s]' more than "
                                  "once.", name, version_text(c, version));
            if (version_less(d->deprecated_positional, version))
                clinic_fail(c, 0, "Function %s: '* [from %s]' must precede "
                                  "'* [from %s]'", name,
                            version_text(c, version),
                            version_text(c, d->deprecated_positional));
        }
        d->star_line = d->line;
    }
    d->deprecated_positional = version;
}

/* 3.13's checks of '/' and '/ [from X.Y]' against what came before. */
static void check_slash_order(Clinic *c, DslState *d, PyVersion version)
{
    Function *f = d->function;
    const char *name = dsl_repr_str(c, f->name);
    if (!version.major) {
        if (d->deprecated_keyword.major)
            clinic_fail(c, 0, "Function %s: '/' must precede '/ [from ...]'",
                        name);
        if (d->deprecated_positional.major)
            clinic_fail(c, 0, "Function %s: '/' must precede '* [from ...]'",
                        name);
        if (d->keyword_only)
            clinic_failm(c, 0, MSG_SLASH_AFTER_STAR, MSG_ARGS(f->name));
        if (d->positional_only)
            clinic_failm(c, 0, MSG_SLASH_TWICE, MSG_ARGS(f->name));
        return;
    }
    if (d->deprecated_keyword.major) {
        if (same_version(d->deprecated_keyword, version))
            clinic_fail(c, 0, "Function %s uses '/ [from %s]' more than once.",
                        name, version_text(c, version));
        if (version_less(version, d->deprecated_keyword))
            clinic_fail(c, 0, "Function %s: '/ [from %s]' must precede "
                              "'/ [from %s]'", name, version_text(c, version),
                        version_text(c, d->deprecated_keyword));
    }
    if (d->deprecated_positional.major)
        clinic_fail(c, 0, "Function %s: '/ [from ...]' must precede "
                          "'* [from ...]'", name);
    if (d->keyword_only)
        clinic_fail(c, 0, "Function %s: '/ [from ...]' must precede '*'",
                    name);
}

/* '/', or '/ [from X.Y]' (version): the parameters before it are
   positional-only (or will be, from that version on). */
static void parse_slash(Clinic *c, DslState *d, PyVersion version)
{
    Function *f = d->function;
    if (d->var_keyword)
        clinic_fail(c, 0, "Encountered '/' when not expecting parameters");
    bool markers = dsl_has_syntax(c, SYNTAX_DEPRECATION);
    if (markers) {
        check_slash_order(c, d, version);
    } else if (d->positional_only) {
        clinic_failm(c, 0, MSG_SLASH_TWICE, MSG_ARGS(f->name));
    }
    d->positional_only = true;
    d->deprecated_keyword = version;
    if (version.major &&
        f->parameters[f->nparameters - 1]->kind != PARAM_POSITIONAL_OR_KEYWORD)
        clinic_fail(c, 0, "Function %s specifies '/ [from ...]' without "
                          "preceding parameters.",
                    dsl_repr_str(c, f->name));
    /* ps_required and ps_optional are allowed here: positional-only
       parameters without option groups may have defaults */
    if ((d->parameter_state != PS_REQUIRED &&
         d->parameter_state != PS_OPTIONAL &&
         d->parameter_state != PS_RIGHT_SQUARE_AFTER &&
         d->parameter_state != PS_GROUP_BEFORE) || d->group)
        fail_group(c, d, 'd');
    if (!markers && d->keyword_only)
        clinic_failm(c, 0, MSG_SLASH_AFTER_STAR, MSG_ARGS(f->name));
    /* fix up the preceding parameters */
    for (size_t i = 0; i < f->nparameters; i++) {
        Parameter *p = f->parameters[i];
        if (markers) {
            if (p->kind != PARAM_POSITIONAL_OR_KEYWORD)
                continue;
            if (!version.major)
                p->kind = PARAM_POSITIONAL_ONLY;
            else if (!p->deprecated_keyword.major)
                p->deprecated_keyword = version;
            continue;
        }
        if (param_kind_variable_length(p->kind))
            continue;
        if (p->kind != PARAM_POSITIONAL_OR_KEYWORD &&
            !p->converter->cls->is_self)
            clinic_failm(c, 0, MSG_SLASH_AFTER_STAR, MSG_ARGS(f->name));
        p->kind = PARAM_POSITIONAL_ONLY;
    }
}

static void parse_special_symbol(Clinic *c, DslState *d, char symbol,
                                 PyVersion version)
{
    Function *f = d->function;
    switch (symbol) {
    case '*':
        parse_star(c, d, version);
        break;
    case '[':
        if (d->parameter_state == PS_START ||
            d->parameter_state == PS_LEFT_SQUARE_BEFORE)
            d->parameter_state = PS_LEFT_SQUARE_BEFORE;
        else if (d->parameter_state == PS_REQUIRED ||
                 d->parameter_state == PS_GROUP_AFTER)
            d->parameter_state = PS_GROUP_AFTER;
        else
            fail_group(c, d, 'b');
        d->group++;
        f->docstring_only = true;
        break;
    case ']': {
        if (!d->group)
            clinic_failm(c, 0, MSG_UNMATCHED_BRACKET, MSG_ARGS(f->name));
        bool nonempty = false;
        for (size_t i = 0; i < f->nparameters; i++)
            if (f->parameters[i]->group == d->group)
                nonempty = true;
        if (!nonempty)
            clinic_failm(c, 0, MSG_EMPTY_GROUP, MSG_ARGS(f->name));
        d->group--;
        if (d->parameter_state == PS_LEFT_SQUARE_BEFORE ||
            d->parameter_state == PS_GROUP_BEFORE)
            d->parameter_state = PS_GROUP_BEFORE;
        else if (d->parameter_state == PS_GROUP_AFTER ||
                 d->parameter_state == PS_RIGHT_SQUARE_AFTER)
            d->parameter_state = PS_RIGHT_SQUARE_AFTER;
        else
            fail_group(c, d, 'c');
        break;
    }
    case '/':
        parse_slash(c, d, version);
        break;
    }
}

/* ---- default values ---------------------------------------------------- */

static PyValue str_value(const char *s)
{
    PyValue v = {0};
    v.kind = PY_STR;
    v.s = s;
    v.len = strlen(s);
    return v;
}

static ConverterArg *find_arg(ConverterArg *args, size_t nargs,
                              const char *name)
{
    for (size_t i = 0; i < nargs; i++)
        if (args[i].name && !strcmp(args[i].name, name))
            return &args[i];
    return NULL;
}

/* kwargs.setdefault(name, value) */
static void set_default_arg(ConverterArg *args, size_t *nargs,
                            const char *name, PyValue value)
{
    if (!find_arg(args, *nargs, name)) {
        args[*nargs].name = name;
        args[*nargs].value = value;
        (*nargs)++;
    }
}

/* Whether a c_default keyword argument is a non-empty str (clinic.py:
   isinstance(c_default, str) and c_default), or (3.14) is there at all. */
static bool given_c_default(Clinic *c, ConverterArg *args, size_t nargs)
{
    ConverterArg *a = find_arg(args, nargs, "c_default");
    if (c->dialect->fixes & FIX_CONVERTER_C_DEFAULT)
        return a != NULL;
    return a && a->value.kind == PY_STR && a->value.len;
}

/* clinic.py's DetectBadNodes: we can only represent very simple data
   values in C. */
static bool is_bad_node(const PyExpr *e, void *unused)
{
    (void)unused;
    switch (e->kind) {
    case PX_CALL: case PX_IFEXP: case PX_LISTCOMP: case PX_SETCOMP:
    case PX_DICTCOMP: case PX_GENEXP: case PX_DICT: case PX_SET:
    case PX_LIST: case PX_TUPLE: case PX_STARRED:
        return true;
    default:
        return false;
    }
}

static bool is_number_constant(const PyExpr *e)
{
    return e->kind == PX_CONST &&
           (e->value.kind == PY_INT || e->value.kind == PY_FLOAT ||
            e->value.kind == PY_COMPLEX);
}

/* "a.b.c" from the Attribute chain, as clinic.py joins it. */
static const char *dotted_name(Clinic *c, const PyExpr *e)
{
    if (e->kind != PX_ATTRIBUTE)
        return e->id;
    return arena_printf(c->arena, "%s.%s", dotted_name(c, e->left), e->id);
}

/* clinic.py's words for a name as a default without c_default; a note
   when the name is a misspelt True, False, None or NULL ("true"). */
CLINIC_NORETURN static void fail_named_constant(Clinic *c, const char *name)
{
    static const char *const literals[] = {"True", "False", "None", "NULL"};
    const char *best = text_closest(name, literals,
                                    sizeof literals / sizeof *literals);
    clinic_failm_note(c, 0,
                      best ? arena_printf(c->arena, "did you mean '%s'?", best)
                           : NULL,
                      MSG_CONSTANT_NEEDS_C_DEFAULT, MSG_ARGS(name));
}

/*
 * The default value of a parameter: sets *value and adds the c_default
 * and py_default keyword arguments clinic.py derives (unless given).
 */
static void parse_default(Clinic *c, const char *default_text,
                          ConverterArg *args, size_t *nargs, PyValue *value)
{
    /* default_text.strip(): the line was right-stripped, so the text
       past the leading blanks is it, with no copy */
    const char *def = dsl_line_text(c->dsl, default_text);
    size_t def_len = strlen(def);
    if (def_len && text_is_py_space(def[def_len - 1]))
        def = text_strip(c->arena, def);
    PySyntaxError err = {0};
    PyExpr *expr = pyexpr_parse_default(c->arena, def, &err);
    if (!expr)
        clinic_failm_note(c, 0, "a default value is a Python expression (a "
                          "literal, NULL, or a name given with c_default=)",
                          MSG_DEFAULT_SYNTAX,
                          MSG_ARGS(dsl_repr_str(c, def),
                                   err.text ? dsl_repr_str(c, err.text)
                                            : "None"));

    const char *c_default = NULL, *py_default = NULL;
    if (!find_arg(args, *nargs, "c_default")) {
        if (pyexpr_any(expr, is_bad_node, NULL))
            clinic_fail(c, 0, "Unsupported expression as default value: %s",
                        dsl_repr_str(c, def));
    } else {
        /* with a c_default we can be more lenient about the default
           value, but at least make sure it's a valid expression */
        PyValue v;
        PyException exc;
        /* clinic.py evals the default *string*, so statement-only forms
           ("*a", "1; 2") raise SyntaxError there too. */
        const PyExpr *compiled = pyexpr_compile_source(c->arena, def, &exc);
        if (compiled && converters_eval(c, compiled, PY_SCOPE_STATE_PARAMETER,
                                        &v, &exc)) {
            if (v.kind == PY_UNSPECIFIED)
                clinic_fail(c, 0, "'unspecified' is not a legal default "
                                  "value!");
        } else if (strcmp(exc.type, "NameError")) {
            /* NameError: probably a named constant */
            clinic_failm(c, 0, MSG_MALFORMED_DEFAULT, MSG_ARGS(def, exc.repr));
        }
    }

    if (expr->kind == PX_NAME && !strcmp(expr->id, "NULL")) {
        /* mild hack: explicitly support NULL as a default value */
        *value = py_null;
        py_default = "<unrepresentable>";
        c_default = "NULL";
    } else if (expr->kind == PX_BINOP ||
               (expr->kind == PX_UNARYOP && !is_number_constant(expr->left))) {
        if (!given_c_default(c, args, *nargs))
            clinic_failm(c, 0, MSG_EXPRESSION_NEEDS_C_DEFAULT,
                         MSG_ARGS(def, pyexpr_dump(c->arena, expr)));
        py_default = def;
        *value = py_unknown;
    } else if (expr->kind == PX_ATTRIBUTE) {
        const PyExpr *n = expr;
        while (n->kind == PX_ATTRIBUTE)
            n = n->left;
        if (n->kind != PX_NAME)
            clinic_fail(c, 0, "Unsupported default value %s (looked like a "
                              "Python constant)", dsl_repr_str(c, def));
        py_default = dotted_name(c, expr);
        if (!given_c_default(c, args, *nargs))
            fail_named_constant(c, py_default);
        /* the c_default check above already evaluated it: anything but a
           NameError (the constant is C's, not Python's) has failed */
        if (!converters_eval(c, expr, PY_SCOPE_STATE_PARAMETER, value, NULL))
            *value = py_unknown;
    } else if (pyexpr_literal_eval(c->arena, expr, value)) {
        py_default = py_repr(c->arena, value);
        if (value->kind == PY_BOOL || value->kind == PY_NONE)
            c_default = concat3(c, "Py_", py_default, "");
        else if (value->kind == PY_STR)
            c_default = text_c_repr(c->arena,
                                    arena_strndup(c->arena, value->s,
                                                  value->len));
        else
            c_default = py_default;
    } else {
        /* ValueError from literal_eval: a named constant */
        *value = py_unknown;
        py_default = def;
        if (!given_c_default(c, args, *nargs))
            fail_named_constant(c, py_default);
    }

    /* where c_default is NULL here, it was given; 3.14's converter
       computes its own */
    if (c->dialect->fixes & FIX_CONVERTER_C_DEFAULT)
        c_default = NULL;
    if (c_default)
        set_default_arg(args, nargs, "c_default", str_value(c_default));
    if (py_default)
        set_default_arg(args, nargs, "py_default", str_value(py_default));
}

/* ---- a parameter line -------------------------------------------------- */

/* 3.15's **kwds: its name and annotation into *decl, and true; false
   when the line is refused as 3.14 refuses it (a parameter that takes
   keywords came before). */
static bool var_keyword(Clinic *c, Function *f, const char *line,
                        PyParamDecl *decl)
{
    for (size_t i = 0; i < f->nparameters; i++) {
        ParamKind k = f->parameters[i]->kind;
        if (k == PARAM_POSITIONAL_OR_KEYWORD || k == PARAM_KEYWORD_ONLY)
            return false;
    }
    /* the declaration without its "**", as one parameter */
    PyParamDecl kw;
    memset(&kw, 0, sizeof kw);
    const char *stars = strstr(line, "**");
    if (!stars || !pyexpr_parse_params(c->arena, stars + 2, &kw, NULL) ||
        kw.nargs != 1)
        clinic_failm(c, 0, MSG_INVALID_PARAMETER, MSG_ARGS(f->name, line));
    decl->name = kw.name;
    decl->annotation = kw.annotation;
    return true;
}

/* "name as c_name: converter" -> "name: converter", c_name. */
static const char *take_c_name(Clinic *c, const char *line,
                               const char **c_name)
{
    *c_name = NULL;
    const char *as = strstr(line, " as ");
    if (!as)
        return line;
    char *name = text_strip(c->arena,
                            arena_strndup(c->arena, line, (size_t)(as - line)));
    if (strchr(name, ' '))
        return line;
    const char *trailing = text_strip(c->arena, as + 4);
    const char *space = strchr(trailing, ' ');
    char *first = space ? arena_strndup(c->arena, trailing,
                                        (size_t)(space - trailing))
                        : arena_strdup(c->arena, trailing);
    size_t n = strlen(first);
    if (n && first[n - 1] == ':') {
        name = concat3(c, name, ":", "");
        first[n - 1] = '\0';
    }
    *c_name = first;
    return concat3(c, name, space ? space : "", "");
}

void dsl_state_parameter(Clinic *c, DslState *d, const char *line)
{
    Function *f = d->function;

    /* A line continued with a backslash is joined to the next one in
       place (parameter_continuation_text), not copied at each line, so
       n continuation lines cost memory linear in their length. */
    if (*d->parameter_continuation) {
        ArenaText *t = &d->parameter_continuation_text;
        arena_text_adds(c->arena, t, " ");
        arena_text_adds(c->arena, t, text_skip_space(line));
        line = t->text;
        d->parameter_continuation = "";
    }

    if (dsl_ignore_line(c, line))
        return;

    int indent = dsl_indent_infer(c, &d->indent, line);
    if (indent == -1) {
        /* we outdented, must be to definition column */
        dsl_next_state(c, d, DSL_FUNCTION_DOCSTRING, line);
        return;
    }
    if (indent == 1) {
        /* we indented, must be to new parameter docstring column */
        dsl_next_state(c, d, DSL_PARAMETER_DOCSTRING_START, line);
        return;
    }

    size_t len = dsl_line_len(d, line);
    while (len && text_is_py_space(line[len - 1]))
        len--;
    if (len && line[len - 1] == '\\') {
        ArenaText *t = &d->parameter_continuation_text;
        if (line == t->text) {
            t->len = len - 1;          /* the joined line, cut in place */
            t->text[t->len] = '\0';
        } else {
            *t = (ArenaText){0};
            arena_text_add(c->arena, t, line, len - 1);
        }
        d->parameter_continuation = t->text;   /* "" is no continuation */
        return;
    }
    {
        /* line.strip(): one copy */
        const char *start = dsl_line_text(d, line);
        line = arena_strndup(c->arena, start, len - (size_t)(start - line));
    }

    const char *from;
    char marked = dsl_has_syntax(c, SYNTAX_DEPRECATION)
                      ? match_from_marker(c, line, &from) : 0;
    if (marked) {
        parse_special_symbol(c, d, marked, parse_version(c, d, from));
        return;
    }
    if (!strcmp(line, "*") || !strcmp(line, "/") || !strcmp(line, "[") ||
        !strcmp(line, "]")) {
        parse_special_symbol(c, d, line[0], (PyVersion){0, 0});
        return;
    }

    /* 3.15: **kwds ends the parameters */
    if (d->var_keyword)
        clinic_fail(c, 0, "Encountered parameter line when not expecting "
                          "parameters: %s", line);

    switch (d->parameter_state) {
    case PS_START:
    case PS_REQUIRED:
        to_required(d);
        break;
    case PS_LEFT_SQUARE_BEFORE:
        d->parameter_state = PS_GROUP_BEFORE;
        break;
    case PS_GROUP_BEFORE:
        if (!d->group)
            to_required(d);
        break;
    case PS_GROUP_AFTER:
    case PS_OPTIONAL:
        break;
    default:
        fail_group(c, d, 'a');
    }

    /* handle "as" for parameters too */
    const char *c_name;
    line = take_c_name(c, line, &c_name);

    const char *eq = strrchr(line, '=');
    const char *base = eq ? arena_strndup(c->arena, line, (size_t)(eq - line))
                          : line;
    const char *default_text = eq ? eq + 1 : NULL;

    /* the syntax error itself is not reported: no text is made for it */
    PyParamDecl decl;
    memset(&decl, 0, sizeof decl);
    if (c->dialect->fixes & FIX_PARAMETER_LINE_WHOLE) {
        /* 3.14: the line whole; the default is the expression's text */
        if (!pyexpr_parse_param_line(c->arena, line, &decl))
            clinic_failm(c, 0, MSG_INVALID_PARAMETER, MSG_ARGS(f->name, line));
        default_text = decl.default_expr
            ? arena_strndup(c->arena, line + decl.default_start,
                            decl.default_end - decl.default_start)
            : NULL;
        if (decl.default_expr)
            decl.has_default = false;
    } else if (!pyexpr_parse_params(c->arena, base, &decl, NULL)) {
        /* the last '=' was probably inside a function call, like
           c: int(accept={str}), so assume there was no default value */
        default_text = NULL;
        memset(&decl, 0, sizeof decl);
        if (!pyexpr_parse_params(c->arena, line, &decl, NULL))
            clinic_failm(c, 0, MSG_INVALID_PARAMETER, MSG_ARGS(f->name, line));
    }
    if (decl.nargs > 1)
        clinic_failm(c, 0, MSG_INVALID_PARAMETER_COMMA,
                     MSG_ARGS(f->name, line));
    if (decl.has_default)
        clinic_failm(c, 0, MSG_INVALID_PARAMETER_DEFAULT,
                     MSG_ARGS(f->name, line));
    /* 3.14 parses the line as Python: "**kwds = x" is no syntax */
    if (decl.has_kwarg && default_text &&
        (c->dialect->fixes & FIX_PARAMETER_LINE_WHOLE))
        clinic_failm(c, 0, MSG_INVALID_PARAMETER, MSG_ARGS(f->name, line));
    const char *var_keyword_prefix =
        DIALECT_INHERITED(c->dialect, var_keyword_prefix);
    bool is_var_keyword = decl.has_kwarg && var_keyword_prefix &&
                          var_keyword(c, f, line, &decl);
    if (decl.has_kwarg && !is_var_keyword)
        clinic_failm(c, 0, MSG_INVALID_PARAMETER_KWARGS,
                     MSG_ARGS(f->name, line));
    if (!decl.is_vararg && !is_var_keyword && decl.nargs == 0)
        clinic_failm(c, 0, MSG_INVALID_PARAMETER, MSG_ARGS(f->name, line));
    if (decl.is_vararg && dsl_has_syntax(c, SYNTAX_DEPRECATION)) {
        /* 3.13: *args counts as the '*' */
        if (d->keyword_only)
            clinic_failm(c, 0, MSG_STAR_TWICE, MSG_ARGS(f->name));
        dsl_check_remaining_star(c, d);
    }

    bool is_vararg = decl.is_vararg;
    const char *parameter_name = decl.name;
    bool legacy, splat;
    ConverterArg *args;
    size_t nargs;
    const char *name = dsl_parse_converter(c, decl.annotation, &legacy,
                                           &args, &nargs, &splat);
    ConverterCall annotation = {name, legacy, args, nargs};

    /* 3.14: *args has a converter of its own, which needs no default
       and may follow parameters with one */
    const bool varpos_converter =
        is_vararg && (c->dialect->fixes & FIX_VARPOS_CONVERTERS);
    PyValue value;
    if (!default_text || !*default_text) {
        if (d->parameter_state == PS_OPTIONAL && !varpos_converter &&
            !is_var_keyword)
            clinic_failm(c, 0, MSG_DEFAULT_MISSING, MSG_ARGS(parameter_name));
        if ((c->dialect->fixes & FIX_CONVERTER_C_DEFAULT) &&
            find_arg(args, nargs, "py_default"))
            clinic_fail(c, 0, "You can't specify py_default without "
                              "specifying a default value!");
        if ((c->dialect->fixes & FIX_CONVERTER_C_DEFAULT) &&
            find_arg(args, nargs, "c_default"))
            clinic_fail(c, 0, "You can't specify c_default without "
                              "specifying a default value!");
        if (varpos_converter || is_var_keyword) {
            value = py_unspecified;
        } else if (is_vararg) {
            value = py_null;
            set_default_arg(args, &nargs, "c_default", str_value("NULL"));
        } else {
            value = py_unspecified;
        }
        if (find_arg(args, nargs, "py_default"))
            clinic_fail(c, 0, "You can't specify py_default without "
                              "specifying a default value!");
    } else {
        if (is_vararg && (c->dialect->fixes & FIX_PARAMETER_LINE_WHOLE))
            /* 3.14 parses the line as Python: *args = x is no syntax */
            clinic_failm(c, 0, MSG_INVALID_PARAMETER, MSG_ARGS(f->name, line));
        if (is_vararg)
            clinic_fail(c, 0, "Vararg can't take a default value!");
        if (d->parameter_state == PS_REQUIRED)
            d->parameter_state = PS_OPTIONAL;
        if (c->dialect->fixes & FIX_PARAMETER_LINE_WHOLE) {
            /* 3.14 parses the whole line as Python: a default that is
               no expression makes the declaration invalid */
            PySyntaxError err = {0};
            const char *def = text_strip(c->arena,
                                         dsl_line_text(c->dsl, default_text));
            if (!pyexpr_parse_default(c->arena, def, &err))
                clinic_failm(c, 0, MSG_INVALID_PARAMETER,
                             MSG_ARGS(f->name, line));
        }
        parse_default(c, default_text, args, &nargs, &value);
    }

    const char *converter_name = c_name && *c_name ? c_name : parameter_name;
    /* 3.14: *args has a converter of its own kind, "varpos_" + name */
    const char *varpos = DIALECT_INHERITED(c->dialect, varpos_prefix);
    if (is_vararg && varpos)
        name = arena_concat_of(c->arena, varpos, name);
    else if (is_var_keyword)   /* 3.15: "var_keyword_" + name */
        name = arena_concat_of(c->arena, var_keyword_prefix, name);
    Converter *converter;
    if (legacy) {
        if (!legacy_converter_find(c, name))
            clinic_failm(c, 0, MSG_NOT_A_CONVERTER, MSG_ARGS(name, "legacy "));
        dsl_check_kwarg_splat(c, splat);
        converter = legacy_converter_create(c, name, converter_name,
                                            parameter_name, f, value, args,
                                            nargs);
    } else {
        const ConverterClass *cls = converter_class_find(c, name);
        if (!cls)
            clinic_failm_note(c, 0, converter_suggestion(c, false, name),
                              MSG_NOT_A_CONVERTER, MSG_ARGS(name, ""));
        dsl_check_kwarg_splat(c, splat);
        converter = converter_create(c, cls, converter_name, parameter_name,
                                     f, value, args, nargs);
    }

    ParamKind kind = is_vararg ? PARAM_VAR_POSITIONAL
                     : is_var_keyword ? PARAM_VAR_KEYWORD
                     : d->keyword_only ? PARAM_KEYWORD_ONLY
                                       : PARAM_POSITIONAL_OR_KEYWORD;

    if (converter->cls->is_self) {
        if (f->nparameters != 1)
            clinic_fail(c, 0, "A 'self' parameter, if specified, must be the "
                              "very first thing in the parameter block.");
        if (d->parameter_state != PS_REQUIRED)
            clinic_fail(c, 0, "A 'self' parameter cannot be marked "
                              "optional.");
        if (value.kind != PY_UNSPECIFIED)
            clinic_fail(c, 0, "A 'self' parameter cannot have a default "
                              "value.");
        if (d->group)
            clinic_fail(c, 0, "A 'self' parameter cannot be in an optional "
                              "group.");
        kind = PARAM_POSITIONAL_ONLY;
        d->parameter_state = PS_START;
        f->nparameters = 0;
    }

    if (converter->cls->is_defining_class) {
        if (f->nparameters != 1)
            clinic_fail(c, 0, "A 'defining_class' parameter, if specified, "
                              "must either be the first thing in the "
                              "parameter block, or come just after 'self'.");
        if (d->parameter_state != PS_REQUIRED)
            clinic_fail(c, 0, "A 'defining_class' parameter cannot be marked "
                              "optional.");
        if (value.kind != PY_UNSPECIFIED)
            clinic_fail(c, 0, "A 'defining_class' parameter cannot have a "
                              "default value.");
        if (d->group)
            clinic_fail(c, 0, "A 'defining_class' parameter cannot be in an "
                              "optional group.");
        if (c->dialect->fixes & FIX_DEFINING_CLASS_POSITIONAL) {
            if (!f->cls)
                clinic_fail(c, 0, "A 'defining_class' parameter cannot be "
                                  "defined at module level.");
            kind = PARAM_POSITIONAL_ONLY;
        }
    }

    Parameter *p = arena_new_of(c->arena, Parameter);
    p->name = parameter_name;
    p->kind = kind;
    p->default_value = value;
    p->function = f;
    p->converter = converter;
    p->docstring = "";
    p->group = d->group;
    p->deprecated_positional = d->deprecated_positional;
    p->annotation = annotation;

    for (size_t i = 1; i < f->nparameters; i++)
        if (f->parameters[i]->name[0] == parameter_name[0] &&
            !strcmp(f->parameters[i]->name, parameter_name))
            clinic_fail(c, 0, "You can't have two parameters named %s!",
                        dsl_repr_str(c, parameter_name));
    if (f->nparameters && !strcmp(f->parameters[0]->name, parameter_name) &&
        !c_name)
        clinic_fail(c, 0, "Parameter '%s' requires a custom C name",
                    parameter_name);

    const char *key = c_name && *c_name
        ? concat3(c, parameter_name, "_as_", c_name)
        : parameter_name;
    dsl_add_parameter(c, f, key, p);
    if (is_vararg && (c->dialect->fixes & FIX_KEYWORD_ONLY_AFTER_VARARG))
        d->keyword_only = true;
    if (is_var_keyword)
        d->var_keyword = true;
}
