/*
 * dsl.c — the clinic DSL parser (clinic.py's DSLParser): the block loop,
 * the line-oriented state machine, directives and decorators, the
 * function declaration line (with cloning), and the module/class
 * namespace.  The parameter section is in dsl_params.c, the docstring
 * formatting in dsl_docstring.c.
 *
 * Errors carry the real line of the problem (clinic.py reports the line
 * the block parser has reached, the end of the block).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/converters.h"
#include "scan/cpp.h"
#include "parse/dsl_int.h"
#include "parse/directive.h"
#include "python/pyexpr.h"
#include "base/text.h"

/* ---- small helpers ----------------------------------------------------- */

const char *dsl_repr_str(Clinic *c, const char *s)
{
    return py_repr_str(c->arena, s, strlen(s));
}

/* The line past its leading whitespace. */
static const char *skip_space(const char *s)
{
    while (text_is_py_space(*s))
        s++;
    return s;
}

/* clinic.py's DSLParser.ignore_line: comment-only and empty lines. */
bool dsl_ignore_line(Clinic *c, const char *line)
{
    char first = *dsl_line_text(c->dsl, line);
    return first == '#' || !first;
}

/* ---- IndentStack ------------------------------------------------------- */

static int dsl_indent_measure(Clinic *c, IndentStack *s, const char *line)
{
    /* the line being parsed was checked for tabs */
    if (line != c->dsl->cur_line && strchr(line, '\t'))
        clinic_fail(c, 0,
                    "Tab characters are illegal in the Argument Clinic DSL.");
    const char *stripped = dsl_line_text(c->dsl, line);
    if (!*stripped) {
        /* we can't tell anything from an empty line, so pretend it's
           indented like our current indent */
        if (!s->depth)
            clinic_fail(c, 0,
                        "IndentStack expected indents, but none are defined.");
        return s->indents[s->depth - 1];
    }
    return (int)(stripped - line);
}

/* 1 if we indented (or this is the first margin), 0 if the margin did not
   change, -N if we dedented N times. */
int dsl_indent_infer(Clinic *c, IndentStack *s, const char *line)
{
    int indent = dsl_indent_measure(c, s, line);
    if (!s->depth || indent > s->indents[s->depth - 1]) {
        GROW(c, s->indents, s->depth, s->cap);
        s->indents[s->depth++] = indent;
        s->margin = indent;
        return 1;
    }
    if (indent == s->indents[s->depth - 1])
        return 0;
    bool known = false;
    for (size_t i = 0; i < s->depth; i++)
        if (s->indents[i] == indent)
            known = true;
    if (!known)
        clinic_fail(c, 0, "Illegal outdent.");
    int outdent_count = 0;
    while (indent != s->indents[s->depth - 1]) {
        s->depth--;
        outdent_count--;
    }
    s->margin = indent;
    return outdent_count;
}

static const char *dsl_indent_dedent(Clinic *c, IndentStack *s, const char *line)
{
    for (int i = 0; i < s->margin; i++)
        if (line[i] != ' ')
            clinic_failm(c, 0, MSG_CANNOT_DEDENT, NULL);
    size_t indent = (size_t)s->indents[s->depth - 1];
    return dsl_line_len(c->dsl, line) >= indent ? line + indent : "";
}

/* ---- the namespace ----------------------------------------------------- */

static Namespace *namespace_top(Clinic *c, DslState *d)
{
    if (!d->top) {
        if (!c->root) {
            c->root = arena_new_of(c->arena, Module);
            c->root->name = "";
        }
        d->top = arena_new_of(c->arena, Namespace);
        d->top->module = c->root;
    }
    return d->top;
}

const Namespace *dsl_namespace(const Clinic *c)
{
    return c->dsl ? c->dsl->top : NULL;
}

static Namespace *find_module(Namespace *ns, const char *name)
{
    for (size_t i = 0; i < ns->nmodules; i++)
        if (!strcmp(ns->modules[i]->module->name, name))
            return ns->modules[i];
    return NULL;
}

static Namespace *find_class(Namespace *ns, const char *name)
{
    for (size_t i = 0; i < ns->nclasses; i++)
        if (!strcmp(ns->classes[i]->cls->name, name))
            return ns->classes[i];
    return NULL;
}

/* Splits "a.b.c" at the dots, stripping each field when asked.  The
   fields are cut from one copy of s, their ends made NULs. */
static size_t split_dots(Clinic *c, const char *s, bool strip,
                         const char ***out)
{
    size_t n = 1, len = strlen(s);
    for (const char *p = s; (p = memchr(p, '.', len - (size_t)(p - s))); p++)
        n++;
    char *copy = arena_strndup(c->arena, s, len);
    const char **fields = arena_array_uninit(c->arena, const char *, n);
    size_t i = 0;
    for (char *start = copy;;) {
        char *dot = memchr(start, '.', len - (size_t)(start - copy));
        char *end = dot ? dot : copy + len;
        if (strip) {
            while (start < end && text_is_py_space(*start))
                start++;
            while (end > start && text_is_py_space(end[-1]))
                end--;
        }
        *end = '\0';
        fields[i++] = start;
        if (!dot)
            break;
        start = dot + 1;
    }
    *out = fields;
    return n;
}

/* clinic.py's Clinic._module_and_class: where fields lead.  *module is
   never NULL (the top level at least); *cls is NULL outside classes. */
static void module_and_class(Clinic *c, DslState *d, const char **fields,
                             size_t nfields, Namespace **module,
                             Namespace **cls)
{
    Namespace *parent = namespace_top(c, d);
    *module = parent;
    *cls = NULL;
    bool in_classes = false;
    bool nested = c->dialect->fixes & FIX_NESTED_MODULES;
    StrBuf prefix = STRBUF_INIT;
    for (size_t i = 0; i < nfields; i++) {
        if (nested)
            sb_addf(&prefix, "%s%s", i ? "." : "", fields[i]);
        if (!in_classes) {
            Namespace *child = find_module(parent, nested ? prefix.buf
                                                          : fields[i]);
            if (child) {
                parent = *module = child;
                continue;
            }
            in_classes = true;
        }
        Namespace *child = find_class(parent, fields[i]);
        if (!child) {
            /* 3.11 names the fields up to this one, 3.13 those from it */
            StrBuf so_far = STRBUF_INIT, rest = STRBUF_INIT;
            for (size_t j = 0; j < nfields; j++) {
                if (j <= i)
                    sb_addf(&so_far, "%s%s", j ? "." : "", fields[j]);
                if (j >= i)
                    sb_addf(&rest, "%s%s", j > i ? "." : "", fields[j]);
            }
            const char *before = sb_take(&so_far, c->arena);
            const char *after = sb_take(&rest, c->arena);
            sb_free(&prefix);
            clinic_failm(c, 0, MSG_NO_PARENT, MSG_ARGS(before, after));
        }
        *cls = parent = child;
    }
    sb_free(&prefix);
}

/* The C basename clinic.py gives a function: the one after 'as', else
   the dotted name's fields joined by '_' (without a last __new__). */
static const char *effective_c_basename(Clinic *c, const Function *f)
{
    if (f->c_basename && *f->c_basename)
        return f->c_basename;
    const char *name = f->full_name;
    size_t n = strlen(name);
    if (n > 8 && !strcmp(name + n - 8, ".__new__"))
        n -= 8;
    char *s = arena_strndup(c->arena, name, n);
    for (char *p = s; *p; p++)
        if (*p == '.')
            *p = '_';
    return s;
}

/* 3.14's add_function(): the getter and the setter of an attribute make
   one PyGetSetDef entry, found by the C basename: one of each, sharing
   it. */
static void check_accessor_pair(Clinic *c, const Namespace *ns,
                                const Function *f)
{
    if (f->kind != FUNC_GETTER && f->kind != FUNC_SETTER)
        return;
    for (size_t i = 0; i < ns->nfunctions; i++) {
        const Function *other = ns->functions[i];
        if ((other->kind != FUNC_GETTER && other->kind != FUNC_SETTER) ||
            strcmp(other->full_name, f->full_name) != 0)
            continue;
        if (other->kind == f->kind)
            clinic_fail(c, 0, "Cannot apply @%s to '%s' twice",
                        f->kind == FUNC_SETTER ? "setter" : "getter",
                        f->full_name);
        if (strcmp(effective_c_basename(c, other),
                   effective_c_basename(c, f)) != 0)
            clinic_fail(c, 0, "The accessors of '%s' must have the same C "
                              "basename", f->full_name);
    }
}

static void namespace_add_function(Clinic *c, Namespace *ns, Function *f)
{
    GROW(c, ns->functions, ns->nfunctions, ns->capfunctions);
    ns->functions[ns->nfunctions++] = f;
    GROW(c, c->functions, c->nfunctions, c->capfunctions);
    c->functions[c->nfunctions++] = f;
}

/* ---- directives -------------------------------------------------------- */

static void directive_module(Clinic *c, DslState *d, const char *name)
{
    const char **fields;
    size_t n = split_dots(c, name, false, &fields);
    Namespace *module, *cls;
    module_and_class(c, d, fields, n - 1, &module, &cls);
    if (cls)
        clinic_fail(c, 0, "Can't nest a module inside a class!");
    /* clinic.py looks the full name up among the classes, and files the
       module under its full name: a module declared again replaces the
       earlier one. */
    if ((c->dialect->fixes & FIX_MODULE_REDEFINED) ? find_module(module, name)
                                                   : find_class(module, name))
        clinic_failm(c, 0, MSG_MODULE_DEFINED, MSG_ARGS(name));
    Namespace *m = arena_new_of(c->arena, Namespace);
    m->module = arena_new_of(c->arena, Module);
    m->module->name = arena_strdup(c->arena, name);
    m->module->parent = module->module == c->root ? NULL : module->module;
    for (size_t i = 0; i < module->nmodules; i++)
        if (!strcmp(module->modules[i]->module->name, name)) {
            module->modules[i] = m;
            return;
        }
    GROW(c, module->modules, module->nmodules, module->capmodules);
    module->modules[module->nmodules++] = m;
}

static void directive_class(Clinic *c, DslState *d, const char *full,
                            const char *typedef_, const char *type_object)
{
    const char **fields;
    size_t n = split_dots(c, full, false, &fields);
    const char *name = fields[n - 1];
    Namespace *module, *cls;
    module_and_class(c, d, fields, n - 1, &module, &cls);
    Namespace *parent = cls ? cls : module;
    if (find_class(parent, name))
        clinic_fail(c, 0, "Already defined class %s!", dsl_repr_str(c, name));
    Namespace *k = arena_new_of(c->arena, Namespace);
    k->module = module->module;
    k->cls = arena_new_of(c->arena, Class);
    k->cls->name = name;
    k->cls->module = module->module;
    k->cls->cls = cls ? cls->cls : NULL;
    k->cls->typedef_ = arena_strdup(c->arena, typedef_);
    k->cls->type_object = arena_strdup(c->arena, type_object);
    GROW(c, parent->classes, parent->nclasses, parent->capclasses);
    parent->classes[parent->nclasses++] = k;
}

/* The TypeError Python raises when a directive gets the wrong number of
   arguments; clinic.py reports str(e). */
static void check_arity(Clinic *c, const char *method, const char *const *params,
                        int nparams, int nargs)
{
    if (nargs > nparams)
        clinic_fail(c, 0,
                    "DSLParser.%s() takes %d positional argument%s but %d "
                    "were given",
                    method, nparams + 1, nparams ? "s" : "", nargs + 1);
    if (nargs == nparams)
        return;
    int missing = nparams - nargs;
    StrBuf names = STRBUF_INIT;
    for (int i = nargs; i < nparams; i++) {
        if (i > nargs)
            sb_adds(&names, missing == 2 ? " and " :
                            i == nparams - 1 ? ", and " : ", ");
        sb_addf(&names, "'%s'", params[i]);
    }
    const char *s = sb_take(&names, c->arena);
    clinic_fail(c, 0,
                "DSLParser.%s() missing %d required positional argument%s: %s",
                method, missing, missing == 1 ? "" : "s", s);
}

/* The decorators 3.13 added, when the dialect has them. */
static bool run_decorator_3_13(Clinic *c, DslState *d, const char *name,
                               const char **args, int nargs)
{
    static const char *const text_signature_params[] = {"text_signature"};
    if (!strcmp(name, "@critical_section") &&
        dsl_has_syntax(c, SYNTAX_CRITICAL_SECTION)) {
        if (nargs > 2)
            clinic_fail(c, 0, "Up to 2 critical section variables are "
                              "supported");
        for (int i = 0; i < nargs; i++)
            strlist_push(c->arena, &d->target_critical_section, args[i]);
        d->critical_section = true;
    } else if ((!strcmp(name, "@getter") || !strcmp(name, "@setter")) &&
               dsl_has_syntax(c, SYNTAX_GETSET)) {
        bool getter = name[1] == 'g';
        check_arity(c, getter ? "at_getter" : "at_setter", NULL, 0, nargs);
        FunctionKind kind = getter ? FUNC_GETTER : FUNC_SETTER;
        if (d->kind == kind)
            clinic_fail(c, 0, "Cannot apply %s twice to the same function!",
                        name);
        if (d->kind == FUNC_GETTER || d->kind == FUNC_SETTER)
            clinic_fail(c, 0, "Cannot apply both @getter and @setter to the "
                              "same function!");
        d->kind = kind;
    } else if (!strcmp(name, "@deleter") &&
               dsl_has_syntax(c, SYNTAX_DELETER)) {
        check_arity(c, "at_deleter", NULL, 0, nargs);
        if (d->kind != FUNC_SETTER)
            clinic_fail(c, 0, "Can't set @deleter, @setter is not applied");
        if (d->deleter)
            clinic_fail(c, 0, "Cannot apply @deleter twice to the same "
                              "function!");
        d->deleter = true;
    } else if (!strcmp(name, "@disable") &&
               dsl_has_syntax(c, SYNTAX_DISABLE)) {
        /* the features a function can do without: fastcall */
        if (d->kind != FUNC_CALLABLE)
            clinic_fail(c, 0, "Can't set @disable, function is not a normal "
                              "callable");
        if (!nargs)
            clinic_fail(c, 0, "@disable expects at least one argument");
        /* list.remove('fastcall'): its first mention */
        const char *unknown = NULL;
        bool fastcall = false;
        for (int i = 0; i < nargs; i++) {
            if (!strcmp(args[i], "fastcall") && !fastcall)
                fastcall = d->disable_fastcall = true;
            else if (!unknown)
                unknown = args[i];
        }
        if (unknown)
            clinic_fail(c, 0, "invalid argument for @disable: %s", unknown);
    } else if ((!strcmp(name, "@permit_long_summary") ||
                !strcmp(name, "@permit_long_docstring_body")) &&
               dsl_has_syntax(c, SYNTAX_PERMIT_LONG)) {
        bool summary = name[13] == 's';
        bool *flag = summary ? &d->permit_long_summary
                             : &d->permit_long_docstring_body;
        check_arity(c, summary ? "at_permit_long_summary"
                               : "at_permit_long_docstring_body",
                    NULL, 0, nargs);
        if (*flag)
            clinic_fail(c, 0, "Called %s twice!", name);
        *flag = true;
    } else if (!strcmp(name, "@text_signature") &&
               dsl_has_syntax(c, SYNTAX_TEXT_SIGNATURE)) {
        check_arity(c, "at_text_signature", text_signature_params, 1, nargs);
        if (d->forced_text_signature)
            clinic_fail(c, 0, "Called @text_signature twice!");
        d->forced_text_signature = args[0];
    } else {
        return false;
    }
    return true;
}

static bool run_own_directive(Clinic *c, DslState *d, const char *name,
                              const char **args, int nargs)
{
    static const char *const module_params[] = {"name"};
    static const char *const class_params[] = {"name", "typedef",
                                               "type_object"};
    if (!strcmp(name, "module")) {
        check_arity(c, "directive_module", module_params, 1, nargs);
        directive_module(c, d, args[0]);
    } else if (!strcmp(name, "class")) {
        check_arity(c, "directive_class", class_params, 3, nargs);
        directive_class(c, d, args[0], args[1], args[2]);
    } else if (!strcmp(name, "@classmethod")) {
        check_arity(c, "at_classmethod", NULL, 0, nargs);
        if (d->kind != FUNC_CALLABLE)
            clinic_fail(c, 0, "Can't set @classmethod, function is not a "
                              "normal callable");
        d->kind = FUNC_CLASS_METHOD;
    } else if (!strcmp(name, "@staticmethod")) {
        check_arity(c, "at_staticmethod", NULL, 0, nargs);
        if (d->kind != FUNC_CALLABLE)
            clinic_fail(c, 0, "Can't set @staticmethod, function is not a "
                              "normal callable");
        d->kind = FUNC_STATIC_METHOD;
    } else if (!strcmp(name, "@coexist")) {
        check_arity(c, "at_coexist", NULL, 0, nargs);
        if (d->coexist)
            clinic_fail(c, 0, "Called @coexist twice!");
        d->coexist = true;
    } else {
        return run_decorator_3_13(c, d, name, args, nargs);
    }
    return true;
}

/* ---- the states -------------------------------------------------------- */

static void run_state(Clinic *c, DslState *d, const char *line);

void dsl_next_state(Clinic *c, DslState *d, DslStateFn state,
                    const char *line)
{
    d->state = state;
    if (line)
        run_state(c, d, line);
}

/* Whether the line is surely no directive: shlex.split() cannot fail on
   it (it has no quote or backslash) and its first word, which would name
   the directive, has a dot, as no directive's name has ("_io.open"). */
static bool surely_no_directive(const char *line)
{
    if (strpbrk(line, "\"'\\"))
        return false;
    const char *s = line + strspn(line, TEXT_SHLEX_SPACE);
    size_t word = strcspn(s, TEXT_SHLEX_SPACE);
    return memchr(s, '.', word) != NULL;
}

static void state_dsl_start(Clinic *c, DslState *d, const char *line)
{
    if (dsl_ignore_line(c, line))
        return;

    if (surely_no_directive(line)) {
        dsl_next_state(c, d, DSL_MODULENAME_NAME, line);
        return;
    }

    /* is it a directive? */
    const char **fields;
    const char *err;
    int n = text_shlex_split(c->arena, line, &fields, &err);
    if (n < 0)
        clinic_fail(c, 0, "%s", err);
    bool preserving = d->block->preserve_output;
    if (run_own_directive(c, d, fields[0], fields + 1, n - 1) ||
        directive_run(c, d->block, fields[0], fields + 1, n - 1, d->line)) {
        if (d->block->preserve_output && !preserving)
            d->preserve_line = d->line;
        return;
    }

    dsl_next_state(c, d, DSL_MODULENAME_NAME, line);
}

/* The bytes of a dotted name: letters and '_' (L), digits (D), the dot
   (P); every other byte (E), and all from 0x80 on, ends it. */
enum { NAME_END, NAME_LETTER, NAME_DIGIT, NAME_DOT };
#define E NAME_END
#define L NAME_LETTER
#define D NAME_DIGIT
#define P NAME_DOT
static const unsigned char name_class[256] = {
    E, E, E, E, E, E, E, E, E, E, E, E, E, E, E, E,
    E, E, E, E, E, E, E, E, E, E, E, E, E, E, E, E,
    E, E, E, E, E, E, E, E, E, E, E, E, E, E, P, E,
    D, D, D, D, D, D, D, D, D, D, E, E, E, E, E, E,
    E, L, L, L, L, L, L, L, L, L, L, L, L, L, L, L,
    L, L, L, L, L, L, L, L, L, L, L, E, E, E, E, L,
    E, L, L, L, L, L, L, L, L, L, L, L, L, L, L, L,
    L, L, L, L, L, L, L, L, L, L, L, E, E, E, E, E,
};
#undef E
#undef L
#undef D
#undef P

/* clinic.py's is_legal_py_identifier: each of the dot-separated fields
   a legal C identifier (ASCII letters, digits and '_', no digit
   first), in one pass. */
static bool is_legal_py_identifier(const char *s)
{
    for (;;) {
        /* a field: a letter or '_', then letters, '_' and digits */
        if (name_class[(unsigned char)*s] != NAME_LETTER)
            return false;
        unsigned char k;
        do
            k = name_class[(unsigned char)*++s];
        while (k == NAME_LETTER || k == NAME_DIGIT);
        if (k != NAME_DOT)
            return !*s;
        s++;
    }
}

static bool is_legal_c_identifier(Clinic *c, const char *s)
{
    return text_legal_c_identifier(c->arena, s) != NULL;
}

/* Function.copy(): a clone shares the original's return converter and
   copies its parameters (with copies of their converters). */
static Function *clone_function(Clinic *c, const Function *from)
{
    Function *f = arena_new_of(c->arena, Function);
    *f = *from;
    f->parameters = NULL;
    f->nparameters = f->capparameters = 0;
    f->render_parameters = NULL;
    for (size_t i = 0; i < from->nparameters; i++) {
        Parameter *p = arena_new_of(c->arena, Parameter);
        *p = *from->parameters[i];
        p->function = f;
        p->converter = converter_copy(c, p->converter);
        p->converter->function = f;
        dsl_add_parameter(c, f, p->key, p);
    }
    return f;
}

/* "module.fn [as c_basename]": the full name and the C basename (NULL:
   derived from the full name when rendering).  The names must be legal;
   3.13 also refuses an 'as' without a name. */
static void parse_function_names(Clinic *c, const char *decl,
                                 const char **full_name,
                                 const char **c_basename)
{
    const char *as = strstr(decl, " as ");
    *c_basename = NULL;
    if (as) {
        *full_name = text_strip(c->arena, arena_strndup(c->arena, decl,
                                                        (size_t)(as - decl)));
        *c_basename = text_strip(c->arena, as + 4);
        if (!**c_basename) {
            if (c->dialect->fixes & FIX_FUNCTION_NAME_FIRST)
                clinic_fail(c, 0, "No C basename provided after 'as' keyword");
            *c_basename = NULL;
        }
    } else {
        /* decl.strip(): a copy only when there are blanks after it (the
           line is the block's, kept as long as the function) */
        const char *name = dsl_line_text(c->dsl, decl);
        size_t len = strlen(name);
        *full_name = len && text_is_py_space(name[len - 1])
                         ? text_strip(c->arena, name) : name;
    }
    if (!is_legal_py_identifier(*full_name))
        clinic_failm(c, 0, MSG_ILLEGAL_FUNCTION_NAME, MSG_ARGS(*full_name));
    if (*c_basename && !is_legal_c_identifier(c, *c_basename))
        clinic_failm(c, 0, MSG_ILLEGAL_C_BASENAME, MSG_ARGS(*c_basename));
}

static void normalize_function_kind(Clinic *c, DslState *d,
                                    const char *name, const Namespace *cls);

static bool try_clone(Clinic *c, DslState *d, const char *line)
{
    const char *eq = strrchr(line, '=');
    if (!eq)
        return false;
    char *before = arena_strndup(c->arena, line, (size_t)(eq - line));
    const char *existing = text_strip(c->arena, eq + 1);
    const char *full_name, *c_basename = "";
    bool names_first = c->dialect->fixes & FIX_FUNCTION_NAME_FIRST;

    if (names_first) {
        /* 3.13: a legal name after '=' makes it a clone, whose own names
           must then be legal */
        if (!is_legal_py_identifier(existing))
            return false;
        if (d->forced_text_signature)
            clinic_fail(c, 0, "Cannot use @text_signature when cloning a "
                              "function");
        parse_function_names(c, before, &full_name, &c_basename);
    } else {
        const char *as = strstr(before, " as ");
        if (as) {
            full_name = text_strip(c->arena,
                                   arena_strndup(c->arena, before,
                                                 (size_t)(as - before)));
            c_basename = text_strip(c->arena, as + 4);
        } else {
            full_name = text_strip(c->arena, before);
        }
        if (!(is_legal_py_identifier(full_name) &&
              (!*c_basename || is_legal_c_identifier(c, c_basename)) &&
              is_legal_py_identifier(existing)))
            return false;
    }

    /* we're cloning! */
    const char **fields;
    size_t n;
    Namespace *module, *cls;
    if (names_first) {
        /* the clone's kind: 3.13 names __new__/__init__ first */
        n = split_dots(c, full_name, true, &fields);
        module_and_class(c, d, fields, n - 1, &module, &cls);
        normalize_function_kind(c, d, fields[n - 1], cls);
    }
    n = split_dots(c, existing, true, &fields);
    module_and_class(c, d, fields, n - 1, &module, &cls);
    Namespace *where = cls ? cls : module;
    Function *existing_function = NULL;
    for (size_t i = 0; i < where->nfunctions; i++)
        if (!strcmp(where->functions[i]->name, fields[n - 1])) {
            existing_function = where->functions[i];
            break;
        }
    if (!existing_function)
        clinic_fail(c, 0, "Couldn't find existing function %s!",
                    dsl_repr_str(c, existing));

    n = split_dots(c, full_name, true, &fields);
    module_and_class(c, d, fields, n - 1, &module, &cls);

    bool other_kind = false;
    if (!(existing_function->kind == d->kind &&
          existing_function->coexist == d->coexist)) {
        /* 3.13 lets __new__ and __init__ be cloned into other kinds */
        if ((c->dialect->fixes & FIX_CLONE_NEW_OR_INIT) &&
            function_kind_new_or_init(existing_function->kind))
            other_kind = true;
        else
            clinic_failm(c, 0, MSG_CLONE_KIND, NULL);
    }
    Function *f = clone_function(c, existing_function);
    f->name = fields[n - 1];
    f->full_name = full_name;
    f->module = module->module;
    f->cls = cls ? cls->cls : NULL;
    f->c_basename = c_basename && *c_basename ? c_basename : NULL;
    f->docstring = "";
    f->line = d->line;
    f->cpp_condition = "";
    if (other_kind) {
        f->kind = d->kind;
        f->return_converter = return_converter_create(
            c, return_converter_class_by_class_name(c, "CReturnConverter"),
            NULL, 0);
    }
    d->function = f;
    namespace_add_function(c, cls ? cls : module, f);
    dsl_next_state(c, d, DSL_FUNCTION_DOCSTRING, NULL);
    return true;
}


/* The keyword arguments of a converter call, evaluated in clinic.py's
   namespace (parse_converter's eval_ast_expr), in order.  A "**mapping"
   has no name: 3.13 refuses it where it stands; 3.11 evaluates it like
   the others and fails only when it calls the converter with a None key
   among the keywords, so *splat says there was one (see
   dsl_check_kwarg_splat). */
static ConverterArg *eval_keywords(Clinic *c, const PyExpr *call,
                                   size_t *nargs, bool *splat)
{
    /* Python's compiler refuses a repeated keyword.  clinic.py compiles
       each value alone and keeps the last one, which hides a typo or a
       contradiction (bitwise=True, bitwise=False): refuse it as Python
       would, before anything is evaluated. */
    for (size_t i = 1; i < call->nkeywords; i++)
        for (size_t j = 0; j < i && call->keywords[i].arg; j++)
            if (call->keywords[j].arg &&
                !strcmp(call->keywords[i].arg, call->keywords[j].arg))
                clinic_fail(c, 0, "Exception raised during parsing:\n"
                                  "SyntaxError: keyword argument repeated: %s",
                            call->keywords[i].arg);

    ConverterArg *args = arena_array_of(c->arena, ConverterArg,
                                        call->nkeywords + 2);
    size_t n = 0;
    *splat = false;
    for (size_t i = 0; i < call->nkeywords; i++) {
        const PyKeyword *k = &call->keywords[i];
        if (!k->arg && (c->dialect->fixes & FIX_CONVERTER_CALL_CHECKED))
            clinic_fail(c, 0, "Cannot use a kwarg splat in a function-call "
                              "annotation");
        PyException exc;
        PyValue value;
        if (!converters_eval(c, k->value, PY_SCOPE_GLOBALS, &value,
                            &exc))
            clinic_fail(c, 0, "Exception raised during parsing:\n%s",
                        pyexpr_exception_line(c->arena, &exc));
        if (!k->arg) {
            *splat = true;
            continue;
        }
        args[n].name = k->arg;
        args[n].value = value;
        n++;
    }
    *nargs = n;
    return args;
}

void dsl_check_kwarg_splat(Clinic *c, bool splat)
{
    /* Python's words when a call's **kwargs has a key that is not a str */
    if (splat)
        clinic_fail(c, 0, "Exception raised during parsing:\n"
                          "TypeError: keywords must be strings");
}

/* The name of the node's class in Python's ast module. */
static const char *ast_class_name(const PyExpr *e)
{
    switch (e->kind) {
    case PX_CONST: return "Constant";
    case PX_ATTRIBUTE: return "Attribute";
    case PX_CALL: return "Call";
    case PX_SUBSCRIPT: return "Subscript";
    case PX_LAMBDA: return "Lambda";
    case PX_BINOP: return "BinOp";
    case PX_UNARYOP: return "UnaryOp";
    default: return "expr";
    }
}

/* clinic.py's parse_converter: the converter's name, whether it is a
   legacy format unit, and its keyword arguments (room is left for two
   more, c_default and py_default). */
const char *dsl_parse_converter(Clinic *c, const PyExpr *annotation,
                                bool *legacy, ConverterArg **args,
                                size_t *nargs, bool *splat)
{
    *legacy = false;
    *splat = false;
    *nargs = 0;
    *args = arena_array_of(c->arena, ConverterArg, 2);
    if (annotation && annotation->kind == PX_CONST &&
        annotation->value.kind == PY_STR) {
        *legacy = true;
        return arena_strndup(c->arena, annotation->value.s,
                             annotation->value.len);
    }
    if (annotation && annotation->kind == PX_NAME)
        return annotation->id;
    if (!annotation || annotation->kind != PX_CALL ||
        (annotation->left->kind != PX_NAME &&
         (c->dialect->fixes & FIX_CONVERTER_CALL_CHECKED)))
        clinic_fail(c, 0, "Annotations must be either a name, a function "
                          "call, or a string.");
    if (annotation->left->kind != PX_NAME)
        /* clinic.py reads annotation.func.id and crashes */
        clinic_fail(c, 0, "Exception raised during parsing:\n"
                          "AttributeError: '%s' object has no attribute 'id'",
                    ast_class_name(annotation->left));
    *args = eval_keywords(c, annotation, nargs, splat);
    return annotation->left->id;
}

static ReturnConverter *parse_return_annotation(Clinic *c,
                                                const char *full_name,
                                                const char *returns)
{
    PySyntaxError err = {0};
    PyExpr *e = pyexpr_parse_returns(c->arena, returns, &err);
    if (!e)
        clinic_failm(c, 0, MSG_BAD_ANNOTATION,
                     MSG_ARGS(full_name, returns,
                              text_strip(c->arena, returns)));
    bool legacy, splat;
    ConverterArg *args;
    size_t nargs;
    const char *name = dsl_parse_converter(c, e, &legacy, &args, &nargs,
                                           &splat);
    if (legacy)
        clinic_fail(c, 0, "Legacy converter %s not allowed as a return "
                          "converter", dsl_repr_str(c, name));
    const ReturnConverterClass *cls = return_converter_class_find(c, name);
    if (!cls)
        clinic_fail_note(c, 0, converter_suggestion(c, true, name),
                         "No available return converter called %s",
                         dsl_repr_str(c, name));
    dsl_check_kwarg_splat(c, splat);
    ReturnConverter *rc = return_converter_for_annotation(c, cls, args,
                                                          nargs);
    if (!rc)
        clinic_failm(c, 0, MSG_BAD_ANNOTATION,
                     MSG_ARGS(full_name, returns,
                              text_strip(c->arena, returns)));
    return rc;
}

static const char *kind_name(FunctionKind kind)
{
    static const char *const names[] = {
        [FUNC_CALLABLE] = "CALLABLE", [FUNC_STATIC_METHOD] = "STATIC_METHOD",
        [FUNC_CLASS_METHOD] = "CLASS_METHOD",
        [FUNC_METHOD_INIT] = "METHOD_INIT", [FUNC_METHOD_NEW] = "METHOD_NEW",
        [FUNC_GETTER] = "GETTER", [FUNC_SETTER] = "SETTER",
    };
    return names[kind];
}

/* The checks the function's own name calls for (special methods, __new__,
   __init__, getters and setters), and the kind __new__ and __init__
   make it. */
static void normalize_function_kind(Clinic *c, DslState *d,
                                    const char *name, const Namespace *cls)
{
    if (model_unsupported_special_method(name))
        clinic_failm(c, 0, MSG_SPECIAL_METHOD, MSG_ARGS(name));
    if (!strcmp(name, "__init__") && (d->kind != FUNC_CALLABLE || !cls))
        clinic_failm(c, 0, MSG_INIT_NOT_NORMAL, MSG_ARGS(kind_name(d->kind)));
    if (!strcmp(name, "__new__") && (d->kind != FUNC_CLASS_METHOD || !cls))
        clinic_failm(c, 0, MSG_NEW_NOT_CLASSMETHOD, NULL);
    if ((d->kind == FUNC_GETTER || d->kind == FUNC_SETTER) && !cls)
        clinic_fail(c, 0, "@getter and @setter must be methods");
    if (!strcmp(name, "__new__"))
        d->kind = FUNC_METHOD_NEW;
    else if (!strcmp(name, "__init__"))
        d->kind = FUNC_METHOD_INIT;
}

/* A return converter by its class, whether or not the dialect gives it a
   name ("init_return_converter" is 3.13's int_return_converter that
   renders nothing). */
static ReturnConverter *return_converter_of_class(Clinic *c,
                                                  const char *class_name)
{
    return return_converter_create(
        c, return_converter_class_by_class_name(c, class_name), NULL, 0);
}

/* 3.13's resolve_return_converter: what the annotation names; getters,
   setters and __init__ may not name one.  __init__ and setters return an
   int, which no return converter renders. */
static ReturnConverter *resolve_return_converter(Clinic *c, DslState *d,
                                                 const char *full_name,
                                                 const char *returns)
{
    const char *forced = returns ? text_strip(c->arena, returns) : "";
    if (*forced) {
        if (d->kind == FUNC_GETTER || d->kind == FUNC_SETTER)
            clinic_failm(c, 0, MSG_ACCESSOR_RETURN_TYPE,
                         MSG_ARGS(d->kind == FUNC_GETTER ? "getter" : "setter"));
        if (d->kind == FUNC_METHOD_INIT)
            clinic_fail(c, 0, "__init__ methods cannot define a return type");
        return parse_return_annotation(c, full_name, returns);
    }
    if (d->kind == FUNC_METHOD_INIT || d->kind == FUNC_SETTER)
        return return_converter_of_class(c, "init_return_converter");
    return return_converter_of_class(c, "CReturnConverter");
}

static void state_modulename_name(Clinic *c, DslState *d, const char *line)
{
    /* The declaration: "module.fn [as c_basename] [-> return annotation]",
       or a clone, "module.fn [as c_basename] = module.existing_fn". */
    if (!*dsl_line_text(d, line))
        return;

    dsl_indent_infer(c, &d->indent, line);

    if (try_clone(c, d, line))
        return;

    const char *arrow = strstr(line, "->");
    const char *decl = arrow ? arena_strndup(c->arena, line,
                                             (size_t)(arrow - line))
                             : line;
    const char *returns = arrow ? arrow + 2 : NULL;

    const char *full_name, *c_basename;
    parse_function_names(c, decl, &full_name, &c_basename);

    /* 3.11 reads the return annotation before the name's parent */
    bool names_first = c->dialect->fixes & FIX_FUNCTION_NAME_FIRST;
    ReturnConverter *return_converter = NULL;
    if (!names_first && returns && *returns)
        return_converter = parse_return_annotation(c, full_name, returns);

    const char **fields;
    size_t n = split_dots(c, full_name, true, &fields);
    Namespace *module, *cls;
    module_and_class(c, d, fields, n - 1, &module, &cls);
    const char *function_name = fields[n - 1];
    normalize_function_kind(c, d, function_name, cls);

    if (names_first)
        return_converter = resolve_return_converter(c, d, full_name, returns);
    else if (!return_converter)
        return_converter = d->kind == FUNC_METHOD_INIT
            ? return_converter_of_class(c, "init_return_converter")
            : return_converter_create(
                  c, return_converter_class_by_class_name(c,
                                                          "CReturnConverter"),
                  NULL, 0);

    Function *f = arena_new_of(c->arena, Function);
    f->name = function_name;
    f->full_name = full_name;
    f->module = module->module;
    f->cls = cls ? cls->cls : NULL;
    f->c_basename = c_basename;
    f->return_converter = return_converter;
    f->docstring = "";
    f->kind = d->kind;
    f->coexist = d->coexist;
    f->line = d->line;
    f->cpp_condition = "";
    f->critical_section = d->critical_section;
    f->deleter = d->deleter;
    f->disable_fastcall = d->disable_fastcall;
    f->target_critical_section = d->target_critical_section.items;
    f->ntarget_critical_section = d->target_critical_section.len;
    f->forced_text_signature = d->forced_text_signature;
    d->function = f;
    if (c->dialect->fixes & FIX_ACCESSOR_PAIRS)
        check_accessor_pair(c, cls ? cls : module, f);

    /* insert a self converter automatically */
    const char *self_type, *self_name;
    correct_name_for_self(f, &self_type, &self_name);
    ConverterArg type_arg = {"type", {0}};
    size_t nargs = 0;
    if (f->cls && !strcmp(self_type, "PyObject *")) {
        type_arg.value.kind = PY_STR;
        type_arg.value.s = f->cls->typedef_;
        type_arg.value.len = strlen(f->cls->typedef_);
        nargs = 1;
    }
    const ConverterClass *self_cls = converter_class_find(c, "self");
    Converter *sc = converter_create(c, self_cls, self_name, self_name, f,
                                     py_unspecified, &type_arg, nargs);
    Parameter *p_self = arena_new_of(c->arena, Parameter);
    p_self->name = sc->name;
    p_self->key = sc->name;
    p_self->kind = PARAM_POSITIONAL_ONLY;
    p_self->default_value = py_unspecified;
    p_self->function = f;
    p_self->converter = sc;
    p_self->docstring = "";
    dsl_add_parameter(c, f, p_self->key, p_self);

    namespace_add_function(c, cls ? cls : module, f);
    dsl_next_state(c, d, DSL_PARAMETERS_START, NULL);
}

static void state_parameters_start(Clinic *c, DslState *d, const char *line)
{
    if (dsl_ignore_line(c, line))
        return;
    /* if this line is not indented, we have no parameters */
    if (!dsl_indent_infer(c, &d->indent, line)) {
        dsl_next_state(c, d, DSL_FUNCTION_DOCSTRING, line);
        return;
    }
    if (d->function->kind == FUNC_GETTER || d->function->kind == FUNC_SETTER)
        clinic_failm(c, 0, MSG_ACCESSOR_PARAMETERS,
                     MSG_ARGS(d->function->kind == FUNC_GETTER ? "getter"
                                                               : "setter"));
    d->parameter_continuation = "";
    dsl_next_state(c, d, DSL_PARAMETER, line);
}

/* 3.13's docstring_append: a warning naming the non-ASCII characters of
   a docstring line. */
static void dsl_check_docstring_ascii(Clinic *c, const char *line)
{
    if (!c->dialect->docstring_ascii_check)
        return;
    /* most lines are ASCII: eight bytes at a time show it */
    size_t len = dsl_line_len(c->dsl, line), i = 0;
    uint64_t high = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t x;
        memcpy(&x, line + i, 8);
        high |= x;
    }
    for (; i < len; i++)
        high |= (unsigned char)line[i];
    if (!(high & 0x8080808080808080u))
        return;
    StrBuf found = STRBUF_INIT;
    for (const unsigned char *p = (const unsigned char *)line; *p;) {
        if (*p < 0x80) {
            p++;
            continue;
        }
        size_t n = 1;
        while ((p[n] & 0xC0) == 0x80)
            n++;
        const char *ch = arena_strndup(c->arena, (const char *)p, n);
        sb_addf(&found, "%s%s", found.len ? ", " : "", dsl_repr_str(c, ch));
        p += n;
    }
    if (found.len)
        clinic_warnm(c, 0, MSG_NON_ASCII_DOCSTRING,
                     MSG_ARGS(sb_take(&found, c->arena)));
    sb_free(&found);
}

/* A docstring line added to the docstring read so far: joined with
   "\n" once the docstring is not empty. */
static const char *add_docstring_line(Clinic *c, ArenaText *t,
                                      const char *text)
{
    dsl_text_add_line(c->arena, t, text, strlen(text));
    return t->text;
}

static void state_parameter_docstring(Clinic *c, DslState *d,
                                      const char *line)
{
    /* line.strip(): only its first character matters */
    const char *stripped = dsl_line_text(d, line);
    if (stripped[0] == '#')
        return;

    int indent = dsl_indent_measure(c, &d->indent, line);
    if (indent < d->parameter_docstring_indent) {
        dsl_indent_infer(c, &d->indent, line);
        if (d->indent.depth == 2)  /* back to a parameter */
            dsl_next_state(c, d, DSL_PARAMETER, line);
        else
            dsl_next_state(c, d, DSL_FUNCTION_DOCSTRING, line);
        return;
    }

    Function *f = d->function;
    Parameter *last = f->parameters[f->nparameters - 1];
    dsl_check_docstring_ascii(c, line);
    const char *text = *stripped ? dsl_indent_dedent(c, &d->indent, line)
                                 : "";
    if (d->parameter_docstring_of != last) {
        d->parameter_docstring_of = last;
        d->parameter_docstring = (ArenaText){0};
        arena_text_adds(c->arena, &d->parameter_docstring, last->docstring);
    }
    last->docstring = add_docstring_line(c, &d->parameter_docstring, text);
}

static void state_function_docstring(Clinic *c, DslState *d,
                                     const char *line)
{
    Function *f = d->function;
    if (d->group)
        clinic_failm(c, 0, MSG_UNMATCHED_BRACKET, MSG_ARGS(f->name));

    /* line.strip(): only its first character matters */
    const char *stripped = dsl_line_text(d, line);
    if (stripped[0] == '#')
        return;

    const char *text = "";
    size_t len = 0;
    if (*stripped) {
        if (!d->docstring_line)
            d->docstring_line = d->line;
        dsl_check_docstring_ascii(c, line);
        text = dsl_indent_dedent(c, &d->indent, line);
        /* its length from the line's, known */
        size_t full = dsl_line_len(d, line);
        size_t indent = (size_t)d->indent.indents[d->indent.depth - 1];
        len = full >= indent ? full - indent : 0;
        while (len && text_is_py_space(text[len - 1]))
            len--;
    }
    if (d->function_docstring.text != f->docstring) {
        d->function_docstring = (ArenaText){0};
        arena_text_adds(c->arena, &d->function_docstring, f->docstring);
    }
    ArenaText *t = &d->function_docstring;
    dsl_text_add_line(c->arena, t, text, len);
    f->docstring = t->text;
}

static void run_state(Clinic *c, DslState *d, const char *line)
{
    switch (d->state) {
    case DSL_START:
        state_dsl_start(c, d, line);
        break;
    case DSL_MODULENAME_NAME:
        state_modulename_name(c, d, line);
        break;
    case DSL_PARAMETERS_START:
        state_parameters_start(c, d, line);
        break;
    case DSL_PARAMETER:
        dsl_state_parameter(c, d, line);
        break;
    case DSL_PARAMETER_DOCSTRING_START:
        d->parameter_docstring_indent = d->indent.margin;
        dsl_next_state(c, d, DSL_PARAMETER_DOCSTRING, line);
        break;
    case DSL_PARAMETER_DOCSTRING:
        state_parameter_docstring(c, d, line);
        break;
    case DSL_FUNCTION_DOCSTRING:
        state_function_docstring(c, d, line);
        break;
    }
}

/* clinic.py's state_terminal: checks that need the whole declaration,
   then the docstring is formatted. */
static void state_terminal(Clinic *c, DslState *d)
{
    Function *f = d->function;
    if (!f)
        return;
    dsl_check_remaining_star(c, d);
    /* remove trailing whitespace from all parameter docstrings */
    for (size_t i = 0; i < f->nparameters; i++) {
        const char *doc = f->parameters[i]->docstring;
        size_t n = strlen(doc);
        /* copied only when there is whitespace to strip (the text read
           is no longer grown once the block ends) */
        if (n && text_is_py_space(doc[n - 1]))
            f->parameters[i]->docstring = arena_strndup(c->arena, doc,
                                                        text_rstrip_len(doc));
    }
    /* the copies of the parameters and the pieces of text put together
       are dropped: only the docstring and the signatures are kept */
    clinic_scratch_begin(c);
    const char *doc = dsl_format_docstring(c, d, f);
    /* copied to where c->arena will be after the step, before the
       scratch arena is reset */
    Arena *keep_in = c->arena == c->scratch ? c->file_arena : c->arena;
    const char **keep[] = { &doc, &f->signature, &f->full_signature };
    for (int i = 0; i < 3; i++)
        if (*keep[i])
            *keep[i] = arena_strdup(keep_in, *keep[i]);
    clinic_scratch_end(c);
    f->docstring = doc;
}

/* ---- the block --------------------------------------------------------- */

static void reset(DslState *d, Block *block)
{
    d->block = block;
    d->function = NULL;
    d->state = DSL_START;
    d->keyword_only = false;
    d->positional_only = false;
    d->var_keyword = false;
    d->group = 0;
    d->parameter_state = PS_START;
    d->indent.depth = 0;
    d->indent.margin = -1;
    d->kind = FUNC_CALLABLE;
    d->coexist = false;
    d->critical_section = false;
    d->deleter = false;
    d->disable_fastcall = false;
    d->permit_long_summary = false;
    d->permit_long_docstring_body = false;
    d->target_critical_section = (StrList){0};
    d->forced_text_signature = NULL;
    d->deprecated_positional = (PyVersion){0, 0};
    d->deprecated_keyword = (PyVersion){0, 0};
    d->parameter_continuation = "";
    d->parameter_docstring_indent = 0;
    d->star_line = 0;
    d->docstring_line = 0;
    d->preserve_line = 0;
}

Function *dsl_parse(Clinic *c, Block *block)
{
    if (!c->dsl)
        c->dsl = arena_new_of(c->arena, DslState);
    DslState *d = c->dsl;
    reset(d, block);

    /* block.input.split('\n'): the empty string after the last newline
       is a line too.  The lines are cut from one copy of the input, their
       '\n's made NULs. */
    char *s = arena_strdup(c->arena, block->input ? block->input : "");
    const char *tab = strchr(s, '\t');
    int line_number = block->body_line;
    for (;;) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        d->line = c->line = line_number;
        if (tab && (!nl || tab < nl))
            clinic_failm(c, 0, MSG_TAB_IN_DSL, MSG_ARGS(s));
        d->cur_line = s;
        d->cur_text = skip_space(s);
        d->cur_len = nl ? (size_t)(nl - s) : strlen(s);
        run_state(c, d, s);
        if (!nl)
            break;
        s = nl + 1;
        line_number++;
    }

    d->cur_line = NULL;
    if (d->function)
        d->line = c->line = d->function->line;
    state_terminal(c, d);
    return d->function;
}

Function *dsl_parse_block(Clinic *c, Block *block)
{
    /* clinic.py collects the output as a list of pieces: directives
       ('dump', 'printout') append to it, even empty pieces, and the
       function's rendering is added after them.  The router's appends
       always make a new string, so a piece was added exactly when
       block->output is no longer this one. */
    if (!c->dsl)
        c->dsl = arena_new_of(c->arena, DslState);
    c->dsl->saved_output = block->output;
    c->dsl->no_output = arena_strdup(c->arena, "");
    block->output = c->dsl->no_output;

    Function *f = dsl_parse(c, block);
    if (f)
        f->cpp_condition = c->cpp ? cpp_condition(c, c->cpp) : "";
    return f;
}

void dsl_finish_block(Clinic *c, Block *block)
{
    DslState *d = c->dsl;
    if (block->preserve_output) {
        c->line = d->preserve_line;
        if (block->output != d->no_output)
            clinic_fail(c, 0, "'preserve' only works for blocks that don't "
                              "produce any output!");
        if (!d->saved_output)
            clinic_fail(c, 0, "you must specify dsl_name and output "
                              "together, dsl_name 'clinic'");
        block->output = d->saved_output;
    }
}
