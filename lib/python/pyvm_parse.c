/*
 * pyvm_parse.c — Python statements, on pyexpr's tokens and expressions.
 *
 * The block is tokenized whole by pyexpr's lexer (which already joins
 * bracketed and backslash-continued lines and marks the ends of logical
 * lines); indentation is read from the column of each logical line's
 * first token, as Python's tokenizer would emit INDENT and DEDENT.  Every
 * expression is parsed by pyexpr's grammar (pyexpr_parse_int.h), so there is
 * one expression parser.
 *
 * While parsing a def, a lambda or a class body, the names it binds are
 * collected (PyScope), as CPython's symbol table does, so that evaluation
 * knows a local from a global.  Constructs the interpreter does not run
 * are refused here, before anything runs, naming the construct.
 */
#include "python/pyexpr_parse_int.h"
#include "python/pyvm_int.h"

#include <string.h>

/* Names being collected for one scope. */
typedef struct ScopeBuilder {
    struct ScopeBuilder *up;
    bool is_function;          /* a def or lambda (not module or class) */
    PyScope *scope;
    size_t caplocals, capglobals, capnonlocals;
    int nonlocal_line;
    bool encloses;             /* see PyFuncDef */
} ScopeBuilder;

/* A nonlocal declaration, checked once the whole module is parsed. */
typedef struct NonlocalCheck {
    const char *name;
    int line;
    ScopeBuilder *where;       /* the declaring function's builder */
} NonlocalCheck;

typedef struct StmtParser {
    Parser *p;
    const char *src;
    int first_line;
    size_t *line_starts;       /* offset of each physical line */
    size_t nlines;
    int loop_depth;            /* loops around the statement being parsed,
                                  within the current function */
    int blocks;                /* indented blocks around it */
    ScopeBuilder *sb;
    const char *class_prefix;  /* qualname prefix: "A." inside class A */
    /* an IndentationError or a refusal: p->fail is longjmp'd with 2 */
    const char *err_kind;
    const char *err_msg;
    int err_line;
    NonlocalCheck *checks;
    size_t nchecks, capchecks;
    ScopeBuilder **builders;   /* every function scope, for the checks */
    size_t nbuilders, capbuilders;
    /* the bound on the memory parsing takes (PARSE_MEMORY): the arena's
       size before, whether the tokens are made yet, and the arena's own
       grow hook, chained to */
    size_t arena_base, statement_base;
    bool lexed;
    void (*outer_hook)(void *context, size_t size);
    void *outer_context;
} StmtParser;

/* What parsing may take: its tokens (40 bytes each, and the arrays
   outgrown while they are made) and its syntax tree (about a kilobyte a
   simple statement).  One statement, up to the next one it holds (a
   compound statement's header, or its body's statements one by one),
   may take PARSE_STATEMENT_MEMORY (a list display of 100,000 items fits,
   a hundred times what a real one has); a block PARSE_BLOCK_MEMORY (a
   block of 200,000 assignments fits).  So a huge statement is an error at
   its line instead of gigabytes.  The block's tree then counts in its
   run's memory (the interpreter is made before the block is parsed). */
#define PARSE_STATEMENT_MEMORY ((size_t)64 << 20)
#define PARSE_BLOCK_MEMORY ((size_t)384 << 20)

static void *grow(Arena *a, void *items, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return items;
    size_t ncap = *cap ? *cap * 2 : 4;
    void *ni = arena_alloc(a, ncap * size);
    if (n)
        memcpy(ni, items, n * size);
    *cap = ncap;
    return ni;
}

/* ---- positions --------------------------------------------------------- */

static size_t line_index(const StmtParser *sp, size_t offset)
{
    size_t lo = 0, hi = sp->nlines;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (sp->line_starts[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int file_line(const StmtParser *sp, size_t offset)
{
    return sp->first_line + (int)line_index(sp, offset);
}

static int tok_line(const StmtParser *sp, const Token *t)
{
    return file_line(sp, t->start);
}

/* The indentation of the line holding offset, tabs to multiples of 8. */
static int column_of(const StmtParser *sp, size_t offset)
{
    int col = 0;
    for (size_t i = sp->line_starts[line_index(sp, offset)]; i < offset; i++)
        col = sp->src[i] == '\t' ? (col / 8 + 1) * 8
            : sp->src[i] == '\f' ? 0 : col + 1;
    return col;
}

static const Token *tok(const StmtParser *sp)
{
    return px_tok(sp->p);
}

static bool at_kind(const StmtParser *sp, TokKind k)
{
    return tok(sp)->kind == k;
}

static bool at(const StmtParser *sp, const char *text)
{
    return px_at(sp->p, text);
}

static bool accept(StmtParser *sp, const char *text)
{
    return px_accept(sp->p, text);
}

static void expect(StmtParser *sp, const char *text)
{
    px_expect(sp->p, text);
}

static bool at_line_end(const StmtParser *sp)
{
    return at_kind(sp, T_NEWLINE) || at_kind(sp, T_END);
}

/* ---- errors ------------------------------------------------------------ */

_Noreturn static void fail_at(StmtParser *sp, const char *kind, int line,
                              const char *msg)
{
    sp->err_kind = kind;
    sp->err_msg = msg;
    sp->err_line = line;
    longjmp(sp->p->fail, 2);
}

_Noreturn static void syntax_error(StmtParser *sp, const char *msg)
{
    px_syntax_error(sp->p, msg);
}

_Noreturn static void indentation_error(StmtParser *sp, int line,
                                        const char *msg)
{
    fail_at(sp, "IndentationError", line, msg);
}

/* A construct the interpreter does not run. */
_Noreturn static void refuse(StmtParser *sp, int line, const char *what)
{
    fail_at(sp, NULL, line, what);
}

/* ---- scopes ------------------------------------------------------------ */

static bool in_names(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

static void add_name(Arena *a, const char ***names, size_t *n, size_t *cap,
                     const char *name)
{
    if (in_names(*names, *n, name))
        return;
    *names = grow(a, *names, *n, cap, sizeof **names);
    (*names)[(*n)++] = name;
}

/* Scopes of a few names are scanned; past this many, hashed. */
#define FEW_LOCALS 16

static size_t name_hash(const char *s)
{
    size_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

bool vm_scope_has_local(const PyScope *s, const char *name)
{
    if (!s->local_index)
        return in_names(s->locals, s->nlocals, name);
    for (size_t i = name_hash(name) & s->local_mask;;
         i = (i + 1) & s->local_mask) {
        uint32_t k = s->local_index[i];
        if (!k)
            return false;
        if (!strcmp(s->locals[k - 1], name))
            return true;
    }
}

static void index_local(PyScope *s, size_t k)
{
    size_t i = name_hash(s->locals[k]) & s->local_mask;
    while (s->local_index[i])
        i = (i + 1) & s->local_mask;
    s->local_index[i] = (uint32_t)k + 1;
}

static void add_local(StmtParser *sp, PyScope *s, const char *name)
{
    if (vm_scope_has_local(s, name))
        return;
    s->locals = grow(sp->p->a, s->locals, s->nlocals, &sp->sb->caplocals,
                     sizeof *s->locals);
    s->locals[s->nlocals++] = name;
    if (s->nlocals < FEW_LOCALS)
        return;
    if (s->local_index && s->nlocals * 2 <= s->local_mask + 1) {
        index_local(s, s->nlocals - 1);
        return;
    }
    /* at most half full: rebuilt four times as big as the names */
    size_t size = 64;
    while (size < s->nlocals * 4)
        size *= 2;
    s->local_index = arena_array_of(sp->p->a, uint32_t, size);
    s->local_mask = size - 1;
    for (size_t k = 0; k < s->nlocals; k++)
        index_local(s, k);
}

static void bind_name(StmtParser *sp, const char *name)
{
    PyScope *s = sp->sb->scope;
    if (in_names(s->globals, s->nglobals, name) ||
        in_names(s->nonlocals, s->nnonlocals, name))
        return;
    add_local(sp, s, name);
}

/* The names an assignment target binds. */
static void bind_target(StmtParser *sp, const PyExpr *t)
{
    switch (t->kind) {
    case PX_NAME:
        bind_name(sp, t->id);
        break;
    case PX_STARRED:
        bind_target(sp, t->left);
        break;
    case PX_TUPLE:
    case PX_LIST:
        for (size_t i = 0; i < t->nitems; i++)
            bind_target(sp, t->items[i]);
        break;
    default:
        break;
    }
}

static bool visit_named_expr(const PyExpr *e, void *ctx)
{
    if (e->kind == PX_NAMEDEXPR && e->left->kind == PX_NAME)
        bind_name(ctx, e->left->id);
    return false;
}

static bool visit_refused(const PyExpr *e, void *ctx)
{
    (void)ctx;
    return e->kind == PX_YIELD || e->kind == PX_YIELDFROM ||
           e->kind == PX_AWAIT;
}

/* Every expression a statement holds: walrus targets bind names, and
   generators and await are refused. */
static void check_expr(StmtParser *sp, const PyExpr *e, int line)
{
    if (!e)
        return;
    if (pyexpr_any(e, visit_refused, NULL))
        refuse(sp, line, "a generator (yield) or 'await'");
    /* what the compiler refuses in a tree the parser accepted: a keyword
       argument repeated in a call */
    const char *msg = pyexpr_compile_error(sp->p->a, e);
    if (msg)
        fail_at(sp, "SyntaxError", line, msg);
    pyexpr_any(e, visit_named_expr, sp);
}

static ScopeBuilder *push_scope(StmtParser *sp, bool is_function)
{
    ScopeBuilder *b = arena_new_of(sp->p->a, ScopeBuilder);
    if (sp->sb)
        sp->sb->encloses = true;
    b->up = sp->sb;
    b->is_function = is_function;
    b->scope = arena_new_of(sp->p->a, PyScope);
    sp->sb = b;
    if (is_function) {
        sp->builders = grow(sp->p->a, sp->builders, sp->nbuilders,
                            &sp->capbuilders, sizeof *sp->builders);
        sp->builders[sp->nbuilders++] = b;
    }
    return b;
}

static void pop_scope(StmtParser *sp)
{
    sp->sb = sp->sb->up;
}

static void bind_arguments(StmtParser *sp, const PyArguments *args)
{
    for (size_t i = 0; i < args->nposonlyargs; i++)
        bind_name(sp, args->posonlyargs[i].arg);
    for (size_t i = 0; i < args->nargs; i++)
        bind_name(sp, args->args[i].arg);
    if (args->vararg)
        bind_name(sp, args->vararg->arg);
    for (size_t i = 0; i < args->nkwonlyargs; i++)
        bind_name(sp, args->kwonlyargs[i].arg);
    if (args->kwarg)
        bind_name(sp, args->kwarg->arg);
}

/* Code that makes a scope of its own, which may close over the one it
   is in. */
static bool visit_encloser(const PyExpr *e, void *ctx)
{
    (void)ctx;
    return e->kind == PX_LAMBDA || e->kind == PX_LISTCOMP ||
           e->kind == PX_SETCOMP || e->kind == PX_DICTCOMP ||
           e->kind == PX_GENEXP;
}

/* A lambda's scope, computed when its expression is parsed: pyexpr
   keeps it in the node's vm_data for evaluation. */
static bool visit_lambda(const PyExpr *e, void *ctx)
{
    StmtParser *sp = ctx;
    if (e->kind != PX_LAMBDA || e->vm_data)
        return false;
    push_scope(sp, true);
    bind_arguments(sp, e->args);
    pyexpr_any(e->left, visit_named_expr, sp);
    PyFuncDef *def = arena_new_of(sp->p->a, PyFuncDef);
    def->name = "<lambda>";
    def->qualname = arena_printf(sp->p->a, "%s<lambda>", sp->class_prefix);
    def->args = e->args;
    def->expr = e->left;
    def->scope = *sp->sb->scope;
    def->encloses = pyexpr_any(e->left, visit_encloser, NULL);
    pop_scope(sp);
    ((PyExpr *)e)->vm_data = def;
    /* lambdas nested in this one get their own scopes too */
    pyexpr_any(e->left, visit_lambda, sp);
    return false;
}

static PyExpr *parsed(StmtParser *sp, PyExpr *e, int line)
{
    check_expr(sp, e, line);
    if (e && sp->sb && pyexpr_any(e, visit_encloser, NULL))
        sp->sb->encloses = true;
    pyexpr_any(e, visit_lambda, sp);
    return e;
}

/* ---- simple statements ------------------------------------------------- */

static PyStmt *new_stmt(StmtParser *sp, PyStmtKind kind, int line)
{
    PyStmt *s = arena_new_of(sp->p->a, PyStmt);
    s->kind = kind;
    s->line = line;
    return s;
}

static const struct {
    const char *tok, *op;
} augops[] = {
    { "+=", "Add" }, { "-=", "Sub" }, { "*=", "Mult" }, { "/=", "Div" },
    { "//=", "FloorDiv" }, { "%=", "Mod" }, { "**=", "Pow" },
    { "<<=", "LShift" }, { ">>=", "RShift" }, { "&=", "BitAnd" },
    { "|=", "BitOr" }, { "^=", "BitXor" }, { "@=", "MatMult" },
};

static const char *describe_target(const PyExpr *e)
{
    switch (e->kind) {
    case PX_CALL: return "function call";
    case PX_CONST: return "literal";
    case PX_COMPARE: return "comparison";
    case PX_BINOP: case PX_UNARYOP: return "expression";
    case PX_BOOLOP: return "expression";
    case PX_LAMBDA: return "lambda";
    case PX_IFEXP: return "conditional expression";
    case PX_JOINEDSTR: return "f-string expression";
    case PX_DICT: return "dict literal";
    case PX_SET: return "set display";
    case PX_LISTCOMP: return "list comprehension";
    default: return "expression";
    }
}

/* An assignment target, checked as Python's parser does. */
static void store_target(StmtParser *sp, PyExpr *e)
{
    if (e->kind == PX_CALL || e->kind == PX_CONST || e->kind == PX_COMPARE ||
        e->kind == PX_BINOP || e->kind == PX_UNARYOP || e->kind == PX_BOOLOP ||
        e->kind == PX_LAMBDA || e->kind == PX_IFEXP || e->kind == PX_DICT ||
        e->kind == PX_SET || e->kind == PX_JOINEDSTR ||
        e->kind == PX_LISTCOMP || e->kind == PX_NAMEDEXPR)
        syntax_error(sp, arena_printf(sp->p->a, "cannot assign to %s",
                                      describe_target(e)));
    if (e->kind == PX_TUPLE || e->kind == PX_LIST)
        for (size_t i = 0; i < e->nitems; i++)
            if (e->items[i]->kind != PX_STARRED)
                store_target(sp, e->items[i]);
    px_set_store(sp->p, e);
    bind_target(sp, e);
}

static PyExpr *star_expressions(StmtParser *sp, int line)
{
    if (at(sp, "yield"))
        refuse(sp, line, "a generator (yield)");
    return parsed(sp, px_parse_star_expressions(sp->p), line);
}

static PyStmt *expression_statement(StmtParser *sp, int line)
{
    PyExpr *first = star_expressions(sp, line);
    for (size_t i = 0; i < sizeof augops / sizeof augops[0]; i++) {
        if (!accept(sp, augops[i].tok))
            continue;
        if (first->kind != PX_NAME && first->kind != PX_ATTRIBUTE &&
            first->kind != PX_SUBSCRIPT)
            syntax_error(sp, arena_printf(sp->p->a, "'%s' is an illegal "
                         "expression for augmented assignment",
                         describe_target(first)));
        px_set_store(sp->p, first);
        bind_target(sp, first);
        PyStmt *s = new_stmt(sp, ST_AUGASSIGN, line);
        s->target = first;
        s->op = augops[i].op;
        s->value = star_expressions(sp, line);
        return s;
    }
    if (accept(sp, ":")) {
        if (first->kind != PX_NAME && first->kind != PX_ATTRIBUTE &&
            first->kind != PX_SUBSCRIPT)
            syntax_error(sp, "only single target (not tuple) can be "
                             "annotated");
        px_set_store(sp->p, first);
        bind_target(sp, first);
        PyStmt *s = new_stmt(sp, ST_ANNASSIGN, line);
        s->target = first;
        s->test = parsed(sp, px_parse_expression(sp->p), line);
        if (accept(sp, "="))
            s->value = star_expressions(sp, line);
        return s;
    }
    if (!at(sp, "=")) {
        PyStmt *s = new_stmt(sp, ST_EXPR, line);
        s->value = first;
        return s;
    }
    PyExpr **targets = NULL;
    size_t n = 0, cap = 0;
    PyExpr *value = first;
    while (accept(sp, "=")) {
        store_target(sp, value);
        targets = grow(sp->p->a, targets, n, &cap, sizeof *targets);
        targets[n++] = value;
        value = star_expressions(sp, line);
    }
    PyStmt *s = new_stmt(sp, ST_ASSIGN, line);
    s->targets = targets;
    s->ntargets = n;
    s->value = value;
    return s;
}

static const char **name_list(StmtParser *sp, size_t *n)
{
    const char **names = NULL;
    size_t cap = 0;
    *n = 0;
    do {
        names = grow(sp->p->a, names, *n, &cap, sizeof *names);
        names[(*n)++] = px_take_name(sp->p);
    } while (accept(sp, ","));
    return names;
}

static void check_del_target(StmtParser *sp, PyExpr *e)
{
    if (e->kind == PX_TUPLE || e->kind == PX_LIST) {
        for (size_t i = 0; i < e->nitems; i++)
            check_del_target(sp, e->items[i]);
        return;
    }
    if (e->kind != PX_NAME && e->kind != PX_ATTRIBUTE &&
        e->kind != PX_SUBSCRIPT)
        syntax_error(sp, arena_printf(sp->p->a, "cannot delete %s",
                                      describe_target(e)));
    if (e->kind == PX_NAME)
        bind_name(sp, e->id);
}

/* Keywords that begin a statement the interpreter refuses. */
static const struct {
    const char *keyword, *what;
} refused_keywords[] = {
    { "import", "an import" }, { "from", "an import" },
    { "with", "a 'with' statement" }, { "try", "a 'try' statement" },
    { "except", "a 'try' statement" }, { "finally", "a 'try' statement" },
    { "async", "'async'" }, { "await", "'await'" },
    { "yield", "a generator (yield)" },
};

static PyStmt *simple_statement(StmtParser *sp)
{
    const Token *t = tok(sp);
    int line = tok_line(sp, t);
    for (size_t i = 0; i < sizeof refused_keywords / sizeof refused_keywords[0]; i++)
        if (at(sp, refused_keywords[i].keyword))
            refuse(sp, line, refused_keywords[i].what);
    if (accept(sp, "pass"))
        return new_stmt(sp, ST_PASS, line);
    if (accept(sp, "break") || accept(sp, "continue")) {
        bool is_break = sp->p->lx.src[t->start] == 'b';
        if (sp->loop_depth == 0)
            syntax_error(sp, is_break ? "'break' outside loop"
                                      : "'continue' not properly in loop");
        return new_stmt(sp, is_break ? ST_BREAK : ST_CONTINUE, line);
    }
    if (accept(sp, "return")) {
        if (!sp->sb->is_function)
            fail_at(sp, "SyntaxError", line, "'return' outside function");
        PyStmt *s = new_stmt(sp, ST_RETURN, line);
        if (!at_line_end(sp) && !at(sp, ";"))
            s->value = star_expressions(sp, line);
        return s;
    }
    if (accept(sp, "raise")) {
        PyStmt *s = new_stmt(sp, ST_RAISE, line);
        if (!at_line_end(sp) && !at(sp, ";")) {
            s->value = parsed(sp, px_parse_expression(sp->p), line);
            if (accept(sp, "from"))
                s->test = parsed(sp, px_parse_expression(sp->p), line);
        }
        return s;
    }
    if (accept(sp, "assert")) {
        PyStmt *s = new_stmt(sp, ST_ASSERT, line);
        s->test = parsed(sp, px_parse_expression(sp->p), line);
        if (accept(sp, ","))
            s->value = parsed(sp, px_parse_expression(sp->p), line);
        return s;
    }
    if (accept(sp, "del")) {
        PyStmt *s = new_stmt(sp, ST_DEL, line);
        PyExpr *e = parsed(sp, px_parse_star_expressions(sp->p), line);
        check_del_target(sp, e);
        if (e->kind == PX_TUPLE) {
            s->targets = e->items;
            s->ntargets = e->nitems;
        } else {
            s->targets = arena_array_of(sp->p->a, PyExpr *, 1);
            s->targets[0] = e;
            s->ntargets = 1;
        }
        for (size_t i = 0; i < s->ntargets; i++)
            px_set_store(sp->p, s->targets[i]);
        return s;
    }
    if (at(sp, "global") || at(sp, "nonlocal")) {
        bool global = accept(sp, "global");
        if (!global)
            expect(sp, "nonlocal");
        PyStmt *s = new_stmt(sp, global ? ST_GLOBAL : ST_NONLOCAL, line);
        s->names = name_list(sp, &s->nnames);
        PyScope *scope = sp->sb->scope;
        for (size_t i = 0; i < s->nnames; i++) {
            const char *name = s->names[i];
            if (vm_scope_has_local(scope, name))
                fail_at(sp, "SyntaxError", line, arena_printf(sp->p->a,
                        "name '%s' is assigned to before %s declaration",
                        name, global ? "global" : "nonlocal"));
            if (global) {
                add_name(sp->p->a, &scope->globals, &scope->nglobals,
                         &sp->sb->capglobals, name);
                continue;
            }
            if (!sp->sb->is_function)
                fail_at(sp, "SyntaxError", line, "nonlocal declaration not "
                        "allowed at module level");
            add_name(sp->p->a, &scope->nonlocals, &scope->nnonlocals,
                     &sp->sb->capnonlocals, name);
            sp->checks = grow(sp->p->a, sp->checks, sp->nchecks,
                              &sp->capchecks, sizeof *sp->checks);
            sp->checks[sp->nchecks++] = (NonlocalCheck){ name, line, sp->sb };
        }
        return s;
    }
    return expression_statement(sp, line);
}

/* ---- blocks and compound statements ------------------------------------ */

typedef struct StmtList {
    PyStmt **items;
    size_t n, cap;
} StmtList;

static void push_stmt(StmtParser *sp, StmtList *l, PyStmt *s)
{
    l->items = grow(sp->p->a, l->items, l->n, &l->cap, sizeof *l->items);
    l->items[l->n++] = s;
}

static void statement(StmtParser *sp, StmtList *out, int indent);

static void skip_newlines(StmtParser *sp)
{
    while (at_kind(sp, T_NEWLINE))
        sp->p->pos++;
}

/* Simple statements separated by ';' up to the end of the line. */
static void simple_statements(StmtParser *sp, StmtList *out)
{
    for (;;) {
        push_stmt(sp, out, simple_statement(sp));
        if (!accept(sp, ";"))
            break;
        if (at_line_end(sp))
            break;
    }
    if (!at_line_end(sp))
        syntax_error(sp, "invalid syntax");
}

/* The body after "HEADER:" — on the same line, or an indented block.
   what names the header for "expected an indented block after ...". */
static StmtList block(StmtParser *sp, int indent, const char *what,
                      int header_line)
{
    StmtList body = { 0 };
    if (!accept(sp, ":"))
        syntax_error(sp, "expected ':'");
    if (!at_line_end(sp)) {
        simple_statements(sp, &body);
        return body;
    }
    skip_newlines(sp);
    const Token *t = tok(sp);
    int inner = t->kind == T_END ? -1 : column_of(sp, t->start);
    if (inner <= indent)
        indentation_error(sp, t->kind == T_END ? header_line + 1
                                               : tok_line(sp, t),
                          arena_printf(sp->p->a, "expected an indented block "
                                       "after %s on line %d", what,
                                       header_line));
    /* CPython's tokenizer stops at 100 levels (MAXINDENT), and so do we:
       statements nest on the C stack, here and when they run */
    if (++sp->blocks >= 100)
        indentation_error(sp, tok_line(sp, t), "too many levels of "
                          "indentation");
    for (;;) {
        statement(sp, &body, inner);
        skip_newlines(sp);
        if (at_kind(sp, T_END))
            break;
        int col = column_of(sp, tok(sp)->start);
        if (col == inner)
            continue;
        if (col > inner)
            indentation_error(sp, tok_line(sp, tok(sp)), "unexpected indent");
        if (col > indent)
            indentation_error(sp, tok_line(sp, tok(sp)), "unindent does not "
                              "match any outer indentation level");
        break;
    }
    sp->blocks--;
    return body;
}

/* After a block: is the next logical line "KEYWORD" at this indent? */
static bool continues_with(StmtParser *sp, int indent, const char *keyword)
{
    size_t save = sp->p->pos;
    skip_newlines(sp);
    if (!at_kind(sp, T_END) && column_of(sp, tok(sp)->start) == indent &&
        at(sp, keyword))
        return true;
    sp->p->pos = save;
    return false;
}

/* An elif is an if statement, the else of the one before: a chain as
   long as the file is, made by a loop rather than nested calls. */
static PyStmt *if_statement(StmtParser *sp, int indent, int line,
                            const char *what)
{
    PyStmt *first = NULL, *prev = NULL;
    for (;;) {
        PyStmt *s = new_stmt(sp, ST_IF, line);
        s->test = parsed(sp, px_parse_named_expression(sp->p), line);
        StmtList body = block(sp, indent, what, line);
        s->body = body.items;
        s->nbody = body.n;
        if (prev) {
            prev->orelse = arena_array_of(sp->p->a, PyStmt *, 1);
            prev->orelse[0] = s;
            prev->norelse = 1;
        } else {
            first = s;
        }
        prev = s;
        if (!continues_with(sp, indent, "elif"))
            break;
        line = tok_line(sp, tok(sp));
        sp->p->pos++;
        what = "'elif' statement";
    }
    if (continues_with(sp, indent, "else")) {
        int l = tok_line(sp, tok(sp));
        sp->p->pos++;
        StmtList orelse = block(sp, indent, "'else' statement", l);
        prev->orelse = orelse.items;
        prev->norelse = orelse.n;
    }
    return first;
}

static void loop_else(StmtParser *sp, PyStmt *s, int indent)
{
    if (!continues_with(sp, indent, "else"))
        return;
    int l = tok_line(sp, tok(sp));
    sp->p->pos++;
    StmtList orelse = block(sp, indent, "'else' statement", l);
    s->orelse = orelse.items;
    s->norelse = orelse.n;
}

static PyStmt *while_statement(StmtParser *sp, int indent, int line)
{
    PyStmt *s = new_stmt(sp, ST_WHILE, line);
    s->test = parsed(sp, px_parse_named_expression(sp->p), line);
    sp->loop_depth++;
    StmtList body = block(sp, indent, "'while' statement", line);
    sp->loop_depth--;
    s->body = body.items;
    s->nbody = body.n;
    loop_else(sp, s, indent);
    return s;
}

static PyStmt *for_statement(StmtParser *sp, int indent, int line)
{
    PyStmt *s = new_stmt(sp, ST_FOR, line);
    s->target = px_parse_for_targets(sp->p);
    bind_target(sp, s->target);
    check_expr(sp, s->target, line);
    expect(sp, "in");
    s->test = star_expressions(sp, line);
    sp->loop_depth++;
    StmtList body = block(sp, indent, "'for' statement", line);
    sp->loop_depth--;
    s->body = body.items;
    s->nbody = body.n;
    loop_else(sp, s, indent);
    return s;
}

static PyStmt *def_statement(StmtParser *sp, int indent, int line)
{
    Arena *a = sp->p->a;
    PyStmt *s = new_stmt(sp, ST_DEF, line);
    const char *name = px_take_name(sp->p);
    bind_name(sp, name);
    expect(sp, "(");
    PyArguments *args = px_parse_parameters(sp->p, true, ")");
    expect(sp, ")");
    /* defaults and annotations belong to the enclosing scope */
    for (size_t i = 0; i < args->ndefaults; i++)
        parsed(sp, args->defaults[i], line);
    for (size_t i = 0; i < args->nkwonlyargs; i++)
        parsed(sp, args->kw_defaults[i], line);
    PyArg *groups[] = { args->posonlyargs, args->args, args->vararg,
                        args->kwonlyargs, args->kwarg };
    size_t counts[] = { args->nposonlyargs, args->nargs,
                        args->vararg ? 1 : 0, args->nkwonlyargs,
                        args->kwarg ? 1 : 0 };
    for (size_t g = 0; g < 5; g++)
        for (size_t i = 0; i < counts[g]; i++)
            if (groups[g][i].annotation)
                parsed(sp, groups[g][i].annotation, line);
    PyExpr *returns = NULL;
    if (accept(sp, "->"))
        returns = parsed(sp, px_parse_expression(sp->p), line);

    PyFuncDef *def = arena_new_of(a, PyFuncDef);
    def->returns = returns;
    def->name = name;
    def->qualname = arena_printf(a, "%s%s", sp->class_prefix, name);
    def->args = args;
    def->line = line;
    s->def = def;

    const char *saved_prefix = sp->class_prefix;
    int saved_loops = sp->loop_depth;
    sp->class_prefix = arena_printf(a, "%s.<locals>.", def->qualname);
    sp->loop_depth = 0;
    push_scope(sp, true);
    bind_arguments(sp, args);
    StmtList body = block(sp, indent, arena_printf(a, "function definition"),
                          line);
    def->scope = *sp->sb->scope;
    def->encloses = sp->sb->encloses;
    pop_scope(sp);
    sp->class_prefix = saved_prefix;
    sp->loop_depth = saved_loops;
    def->body = body.items;
    def->nbody = body.n;
    return s;
}

static PyStmt *class_statement(StmtParser *sp, int indent, int line)
{
    Arena *a = sp->p->a;
    PyStmt *s = new_stmt(sp, ST_CLASS, line);
    s->name = px_take_name(sp->p);
    s->qualname = arena_printf(a, "%s%s", sp->class_prefix, s->name);
    bind_name(sp, s->name);
    if (accept(sp, "(")) {
        ExprList bases = { 0 };
        while (!at(sp, ")")) {
            if (at(sp, "*") || at(sp, "**") ||
                (px_at_name(sp->p) &&
                 tok_is(&sp->p->lx, &sp->p->lx.toks[sp->p->pos + 1], "=")))
                refuse(sp, line, "a class with keyword arguments or "
                                 "unpacked bases");
            px_list_push(sp->p, &bases,
                         parsed(sp, px_parse_expression(sp->p), line));
            if (!accept(sp, ","))
                break;
        }
        expect(sp, ")");
        s->bases = bases.items;
        s->nbases = bases.n;
    }
    const char *saved_prefix = sp->class_prefix;
    int saved_loops = sp->loop_depth;
    sp->class_prefix = arena_printf(a, "%s%s.", saved_prefix, s->name);
    sp->loop_depth = 0;
    push_scope(sp, false);
    StmtList body = block(sp, indent, "class definition", line);
    s->scope = sp->sb->scope;
    pop_scope(sp);
    sp->class_prefix = saved_prefix;
    sp->loop_depth = saved_loops;
    s->body = body.items;
    s->nbody = body.n;
    return s;
}

static void statement(StmtParser *sp, StmtList *out, int indent)
{
    sp->statement_base = arena_bytes(sp->p->a);
    const Token *t = tok(sp);
    int line = tok_line(sp, t);
    PyExpr **decorators = NULL;
    size_t ndecorators = 0, cap = 0;
    while (accept(sp, "@")) {
        decorators = grow(sp->p->a, decorators, ndecorators, &cap,
                          sizeof *decorators);
        decorators[ndecorators++] =
            parsed(sp, px_parse_named_expression(sp->p), line);
        if (!at_kind(sp, T_NEWLINE))
            syntax_error(sp, "invalid syntax");
        skip_newlines(sp);
        if (column_of(sp, tok(sp)->start) != indent)
            indentation_error(sp, tok_line(sp, tok(sp)), "unexpected indent");
        line = tok_line(sp, tok(sp));
    }
    PyStmt *s = NULL;
    if (accept(sp, "if"))
        s = if_statement(sp, indent, line, "'if' statement");
    else if (accept(sp, "while"))
        s = while_statement(sp, indent, line);
    else if (accept(sp, "for"))
        s = for_statement(sp, indent, line);
    else if (accept(sp, "def"))
        s = def_statement(sp, indent, line);
    else if (accept(sp, "class"))
        s = class_statement(sp, indent, line);
    else if (at(sp, "elif") || at(sp, "else"))
        syntax_error(sp, "invalid syntax");
    if (!s) {
        if (ndecorators)
            syntax_error(sp, "invalid syntax");
        simple_statements(sp, out);
        return;
    }
    if (ndecorators && s->kind != ST_DEF && s->kind != ST_CLASS)
        syntax_error(sp, "invalid syntax");
    s->decorators = decorators;
    s->ndecorators = ndecorators;
    push_stmt(sp, out, s);
}

/* ---- the module -------------------------------------------------------- */

static void find_lines(StmtParser *sp)
{
    size_t n = 1;
    for (const char *c = sp->src; *c; c++)
        n += *c == '\n';
    sp->line_starts = arena_array_of(sp->p->a, size_t, n);
    sp->nlines = 0;
    sp->line_starts[sp->nlines++] = 0;
    for (size_t i = 0; sp->src[i]; i++)
        if (sp->src[i] == '\n')
            sp->line_starts[sp->nlines++] = i + 1;
}

/* "no binding for nonlocal 'x' found": an enclosing function must bind
   the name (known only once the whole module is parsed). */
static void check_nonlocals(StmtParser *sp)
{
    for (size_t i = 0; i < sp->nchecks; i++) {
        const NonlocalCheck *c = &sp->checks[i];
        bool found = false;
        for (ScopeBuilder *b = c->where->up; b && !found; b = b->up)
            if (b->is_function && vm_scope_has_local(b->scope, c->name))
                found = true;
        if (!found)
            fail_at(sp, "SyntaxError", c->line, arena_printf(sp->p->a,
                    "no binding for nonlocal '%s' found", c->name));
    }
}

/* The arena's grow hook while a block is parsed: MemoryError at the line
   of the token being parsed once the statement or the block took its
   share. */
static void parse_growing(void *context, size_t size)
{
    StmtParser *sp = context;
    Arena *a = sp->p->a;
    size_t now = arena_bytes(a) + size;
    bool block = now - sp->arena_base > PARSE_BLOCK_MEMORY;
    if (block || (sp->lexed &&
                  now - sp->statement_base > PARSE_STATEMENT_MEMORY)) {
        /* the message is made without this hook, which it would call
           again */
        arena_set_grow_hook(a, sp->outer_hook, sp->outer_context);
        fail_at(sp, "MemoryError", sp->lexed ? tok_line(sp, tok(sp))
                                             : sp->first_line,
                arena_printf(a, "the python %s is too big to parse: its "
                             "tokens and syntax tree take more than %zu MiB",
                             block ? "block" : "statement",
                             (block ? PARSE_BLOCK_MEMORY
                                    : PARSE_STATEMENT_MEMORY) >> 20));
    }
    if (sp->outer_hook)
        sp->outer_hook(sp->outer_context, size);
}

static PyProgram *parse_program(StmtParser *sp, Arena *a, const char *src,
                                PyParseError *err);

PyProgram *pyvm_parse(Arena *a, const char *src, int first_line,
                      PyParseError *err)
{
    StmtParser *sp = arena_new_of(a, StmtParser);
    sp->p = arena_new_of(a, Parser);
    sp->p->a = a;
    sp->src = src;
    sp->first_line = first_line;
    sp->class_prefix = "";
    find_lines(sp);
    memset(err, 0, sizeof *err);
    sp->arena_base = sp->statement_base = arena_bytes(a);
    sp->outer_hook = arena_grow_hook_of(a, &sp->outer_context);
    arena_set_grow_hook(a, parse_growing, sp);
    PyProgram *prog = parse_program(sp, a, src, err);
    arena_set_grow_hook(a, sp->outer_hook, sp->outer_context);
    return prog;
}

static PyProgram *parse_program(StmtParser *sp, Arena *a, const char *src,
                                PyParseError *err)
{
    int code = setjmp(sp->p->fail);
    if (code == 0 && !pylex(a, src, &sp->p->lx)) {
        err->kind = "SyntaxError";
        err->msg = sp->p->lx.error_msg;
        err->line = file_line(sp, sp->p->lx.error_offset);
        return NULL;
    }
    if (!sp->lexed) {
        /* the tokens count as the block's, not its first statement's */
        sp->lexed = true;
        sp->statement_base = arena_bytes(a);
    }
    if (code) {
        px_release_held(sp->p);
        if (code == 2) {
            err->kind = sp->err_kind;
            err->msg = sp->err_msg;
            err->line = sp->err_line;
        } else if (sp->p->lx.unclosed) {
            err->kind = "SyntaxError";
            err->msg = arena_printf(a, "'%c' was never closed",
                                    sp->p->lx.unclosed_char);
            err->line = file_line(sp, sp->p->lx.unclosed_offset);
        } else {
            err->kind = "SyntaxError";
            err->msg = sp->p->msg;
            err->line = file_line(sp, sp->p->err_offset);
        }
        return NULL;
    }

    PyProgram *prog = arena_new_of(a, PyProgram);
    StmtList body = { 0 };
    push_scope(sp, false);
    skip_newlines(sp);
    while (!at_kind(sp, T_END)) {
        if (column_of(sp, tok(sp)->start) != 0)
            indentation_error(sp, tok_line(sp, tok(sp)), "unexpected indent");
        statement(sp, &body, 0);
        skip_newlines(sp);
    }
    check_nonlocals(sp);
    prog->scope = *sp->sb->scope;
    prog->body = body.items;
    prog->nbody = body.n;
    return prog;
}

void pyvm_prepare_expr(Arena *a, const PyExpr *e)
{
    StmtParser *sp = arena_new_of(a, StmtParser);
    sp->p = arena_new_of(a, Parser);
    sp->p->a = a;
    sp->class_prefix = "";
    push_scope(sp, false);
    pyexpr_any(e, visit_lambda, sp);
}
