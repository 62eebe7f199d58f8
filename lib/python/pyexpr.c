/*
 * pyexpr.c — Python 3.11's expression grammar, by recursive descent.
 *
 * Builds the PyExpr tree ast.parse() would build for what clinic feeds
 * it: "def x(LINE): pass" for a parameter line, "def x() -> TEXT: pass"
 * for a return annotation, "x = TEXT" for a default.  Every expression
 * form is recognised (literals, names, calls, subscripts, operators,
 * lambdas, displays, comprehensions; string literals are in
 * pyexpr_string.c) so that clinic's checks on node kinds see what
 * Python's would.  A syntax error stops the parse by longjmp to the entry
 * point, which reports it as PySyntaxError with the SyntaxError.text
 * Python would give.  pyexpr_compile_source() also lives here: it parses
 * a default the way eval(str) compiles it, then runs the compiler's
 * checks.
 */
#include "python/pyexpr.h"
#include "python/pyexpr_int.h"
#include "python/pyexpr_lex.h"
#include "python/pyexpr_parse_int.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

void px_release_held(Parser *p)
{
    while (p->nheld > 0)
        sb_free(p->held[--p->nheld]);
}

/* Python's parser gives up (MemoryError, "too complex") on expressions
   nested thousands deep; we stop long before the C stack would. */
#define MAX_CHAIN 10000
static void enter(Parser *p)
{
    if (++p->depth > 2000)
        px_syntax_error(p, "expression too complex (nested too deeply)");
}

_Noreturn void px_syntax_error(Parser *p, const char *msg)
{
    p->msg = msg;
    p->err_offset = p->lx.toks[p->pos].start;
    p->err_end = p->lx.toks[p->pos].end;
    p->err_at_end = p->lx.toks[p->pos].kind == T_END;
    longjmp(p->fail, 1);
}

const Token *px_tok(const Parser *p)
{
    return &p->lx.toks[p->pos];
}

static const Token *tok_ahead(const Parser *p, size_t k)
{
    size_t i = p->pos + k;
    return &p->lx.toks[i < p->lx.ntoks ? i : p->lx.ntoks - 1];
}

/* The lexer gave every operator and keyword token its TokCode, so these
   token tests are integer compares. */
static inline bool at(const Parser *p, TokCode code)
{
    return px_tok(p)->code == code;
}

static inline bool accept(Parser *p, TokCode code)
{
    if (!at(p, code))
        return false;
    p->pos++;
    return true;
}

static void expect(Parser *p, TokCode code)
{
    if (!accept(p, code))
        px_syntax_error(p, "invalid syntax");
}

static inline bool at_name(const Parser *p)
{
    const Token *t = px_tok(p);
    return t->kind == T_NAME && t->code == TC_NONE;
}

static const char *take_name(Parser *p)
{
    if (!at_name(p))
        px_syntax_error(p, "invalid syntax");
    const Token *t = px_tok(p);
    p->pos++;
    return arena_strndup(p->a, p->lx.src + t->start, t->end - t->start);
}

PyExpr *px_node(Parser *p, PyExprKind kind, size_t start_tok)
{
    PyExpr *e = arena_new_of(p->a, PyExpr);
    e->kind = kind;
    e->start = e->end = p->lx.toks[start_tok].start;
    return e;
}

/* Sets the node's source text from its first token to the last one read. */
PyExpr *px_finish(Parser *p, PyExpr *e, size_t start_tok)
{
    size_t s = p->lx.toks[start_tok].start;
    size_t end = p->pos > start_tok ? p->lx.toks[p->pos - 1].end : s;
    e->source = arena_strndup(p->a, p->lx.src + s, end - s);
    e->start = s;
    e->end = end;
    return e;
}

void px_list_push(Parser *p, ExprList *l, PyExpr *e)
{
    if (l->n == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 4;
        PyExpr **ni = arena_array_of(p->a, PyExpr *, ncap);
        if (l->n)
            memcpy(ni, l->items, l->n * sizeof *ni);
        l->items = ni;
        l->cap = ncap;
    }
    l->items[l->n++] = e;
}

static PyExpr *parse_expression(Parser *p);
static PyExpr *parse_named_expression(Parser *p);
static PyExpr *parse_star_named_expression(Parser *p);
static PyExpr *parse_disjunction(Parser *p);
static PyExpr *parse_bitwise_or(Parser *p);
static PyExpr *parse_primary(Parser *p);
static PyArguments *parse_parameters(Parser *p, bool annotations,
                                     TokCode closer);

/* ---- literals ------------------------------------------------------- */

static PyExpr *number_literal(Parser *p)
{
    const Token *t = px_tok(p);
    size_t start_tok = p->pos;
    size_t n = t->end - t->start;
    char *text = arena_alloc(p->a, n + 1), *d = text;
    for (size_t i = 0; i < n; i++)
        if (p->lx.src[t->start + i] != '_')
            *d++ = p->lx.src[t->start + i];
    *d = '\0';
    p->pos++;
    PyExpr *e = px_node(p, PX_CONST, start_tok);
    size_t len = (size_t)(d - text);
    char last = (char)(len ? text[len - 1] | 0x20 : 0);
    if (len > 1 && text[0] == '0' && strchr("xob", text[1] | 0x20)) {
        int base = (text[1] | 0x20) == 'x' ? 16 : (text[1] | 0x20) == 'o' ? 8 : 2;
        e->value = py_make_int(pyint_from_digits(p->a, text + 2, len - 2, base));
    } else if (last == 'j') {
        text[len - 1] = '\0';
        e->value.kind = PY_COMPLEX;
        e->value.f = 0;
        e->value.imag = strtod(text, NULL);
    } else if (strpbrk(text, ".eE")) {
        e->value.kind = PY_FLOAT;
        e->value.f = strtod(text, NULL);
    } else {
        e->value = py_make_int(pyint_from_digits(p->a, text, len, 10));
    }
    return px_finish(p, e, start_tok);
}

/* ---- atoms and displays ---------------------------------------------- */

static void set_store(Parser *p, PyExpr *e)
{
    switch (e->kind) {
    case PX_NAME:
    case PX_ATTRIBUTE:
    case PX_SUBSCRIPT:
        e->store = true;
        return;
    case PX_STARRED:
        e->store = true;
        set_store(p, e->left);
        return;
    case PX_TUPLE:
    case PX_LIST:
        e->store = true;
        for (size_t i = 0; i < e->nitems; i++)
            set_store(p, e->items[i]);
        return;
    default:
        px_syntax_error(p, "cannot assign to expression");
    }
}

/* star_targets of a comprehension's "for": a, b / (a, b) / *a, b */
static PyExpr *parse_for_targets(Parser *p)
{
    size_t start_tok = p->pos;
    ExprList l = { 0 };
    bool comma = false;
    for (;;) {
        PyExpr *t;
        size_t st = p->pos;
        if (accept(p, OP_STAR)) {
            t = px_node(p, PX_STARRED, st);
            t->left = parse_bitwise_or(p);
            px_finish(p, t, st);
        } else {
            t = parse_bitwise_or(p);
        }
        px_list_push(p, &l, t);
        if (!accept(p, OP_COMMA))
            break;
        comma = true;
        if (at(p, KW_IN))
            break;
    }
    PyExpr *target;
    if (comma) {
        target = px_node(p, PX_TUPLE, start_tok);
        target->items = l.items;
        target->nitems = l.n;
        px_finish(p, target, start_tok);
    } else {
        target = l.items[0];
    }
    set_store(p, target);
    return target;
}

static void parse_generators(Parser *p, PyExpr *e)
{
    size_t n = 0, cap = 2;
    PyComprehension *gens = arena_array_of(p->a, PyComprehension, cap);
    while (at(p, KW_FOR) || (at(p, KW_ASYNC) && tok_ahead(p, 1)->code == KW_FOR)) {
        bool is_async = accept(p, KW_ASYNC);
        expect(p, KW_FOR);
        if (n == cap) {
            PyComprehension *ng = arena_array_of(p->a, PyComprehension, cap * 2);
            memcpy(ng, gens, n * sizeof *ng);
            gens = ng;
            cap *= 2;
        }
        PyComprehension *g = &gens[n++];
        g->is_async = is_async;
        g->target = parse_for_targets(p);
        expect(p, KW_IN);
        g->iter = parse_disjunction(p);
        ExprList ifs = { 0 };
        while (accept(p, KW_IF))
            px_list_push(p, &ifs, parse_disjunction(p));
        g->ifs = ifs.items;
        g->nifs = ifs.n;
    }
    e->generators = gens;
    e->ngenerators = n;
}

static bool at_comprehension(const Parser *p)
{
    return at(p, KW_FOR) || (at(p, KW_ASYNC) && tok_ahead(p, 1)->code == KW_FOR);
}

static PyExpr *paren_atom(Parser *p)
{
    size_t start_tok = p->pos;
    expect(p, OP_LPAR);
    if (accept(p, OP_RPAR)) {
        PyExpr *e = px_node(p, PX_TUPLE, start_tok);
        return px_finish(p, e, start_tok);
    }
    if (at(p, KW_YIELD)) {
        size_t st = p->pos;
        p->pos++;
        PyExpr *y;
        if (accept(p, KW_FROM)) {
            y = px_node(p, PX_YIELDFROM, st);
            y->left = parse_expression(p);
        } else {
            y = px_node(p, PX_YIELD, st);
            if (!at(p, OP_RPAR))
                y->left = px_parse_star_expressions(p);
        }
        px_finish(p, y, st);
        expect(p, OP_RPAR);
        return y;
    }
    PyExpr *first = parse_star_named_expression(p);
    if (at_comprehension(p)) {
        if (first->kind == PX_STARRED)
            px_syntax_error(p, "iterable unpacking cannot be used in comprehension");
        PyExpr *g = px_node(p, PX_GENEXP, start_tok);
        g->left = first;
        parse_generators(p, g);
        expect(p, OP_RPAR);
        return px_finish(p, g, start_tok);
    }
    if (accept(p, OP_RPAR)) {
        if (first->kind == PX_STARRED)
            px_syntax_error(p, "cannot use starred expression here");
        return first;
    }
    ExprList l = { 0 };
    px_list_push(p, &l, first);
    expect(p, OP_COMMA);
    while (!at(p, OP_RPAR)) {
        px_list_push(p, &l, parse_star_named_expression(p));
        if (!accept(p, OP_COMMA))
            break;
    }
    expect(p, OP_RPAR);
    PyExpr *t = px_node(p, PX_TUPLE, start_tok);
    t->items = l.items;
    t->nitems = l.n;
    return px_finish(p, t, start_tok);
}

static PyExpr *list_atom(Parser *p)
{
    size_t start_tok = p->pos;
    expect(p, OP_LSQB);
    PyExpr *e = px_node(p, PX_LIST, start_tok);
    if (accept(p, OP_RSQB))
        return px_finish(p, e, start_tok);
    PyExpr *first = parse_star_named_expression(p);
    if (at_comprehension(p)) {
        if (first->kind == PX_STARRED)
            px_syntax_error(p, "iterable unpacking cannot be used in comprehension");
        e->kind = PX_LISTCOMP;
        e->left = first;
        parse_generators(p, e);
        expect(p, OP_RSQB);
        return px_finish(p, e, start_tok);
    }
    ExprList l = { 0 };
    px_list_push(p, &l, first);
    while (accept(p, OP_COMMA) && !at(p, OP_RSQB))
        px_list_push(p, &l, parse_star_named_expression(p));
    expect(p, OP_RSQB);
    e->items = l.items;
    e->nitems = l.n;
    return px_finish(p, e, start_tok);
}

static PyExpr *brace_atom(Parser *p)
{
    size_t start_tok = p->pos;
    expect(p, OP_LBRACE);
    PyExpr *e = px_node(p, PX_DICT, start_tok);
    if (accept(p, OP_RBRACE))
        return px_finish(p, e, start_tok);
    ExprList keys = { 0 }, values = { 0 };
    if (!at(p, OP_POW)) {
        /* a bare "y := 1" can only be a set element; "(y := 1)" can be a key */
        bool parenthesized = at(p, OP_LPAR);
        PyExpr *first = parse_star_named_expression(p);
        if (first->kind != PX_STARRED && (first->kind != PX_NAMEDEXPR || parenthesized) &&
            accept(p, OP_COLON)) {
            PyExpr *value = parse_expression(p);
            if (at_comprehension(p)) {
                e->kind = PX_DICTCOMP;
                e->left = first;
                e->right = value;
                parse_generators(p, e);
                expect(p, OP_RBRACE);
                return px_finish(p, e, start_tok);
            }
            px_list_push(p, &keys, first);
            px_list_push(p, &values, value);
        } else {
            /* a set */
            if (at_comprehension(p)) {
                if (first->kind == PX_STARRED)
                    px_syntax_error(p, "iterable unpacking cannot be used in comprehension");
                e->kind = PX_SETCOMP;
                e->left = first;
                parse_generators(p, e);
                expect(p, OP_RBRACE);
                return px_finish(p, e, start_tok);
            }
            e->kind = PX_SET;
            px_list_push(p, &keys, first);
            while (accept(p, OP_COMMA) && !at(p, OP_RBRACE))
                px_list_push(p, &keys, parse_star_named_expression(p));
            expect(p, OP_RBRACE);
            e->items = keys.items;
            e->nitems = keys.n;
            return px_finish(p, e, start_tok);
        }
        if (!accept(p, OP_COMMA)) {
            expect(p, OP_RBRACE);
            goto done;
        }
    }
    while (!at(p, OP_RBRACE)) {
        if (accept(p, OP_POW)) {
            px_list_push(p, &keys, NULL);
            px_list_push(p, &values, parse_bitwise_or(p));
        } else {
            px_list_push(p, &keys, parse_expression(p));
            expect(p, OP_COLON);
            px_list_push(p, &values, parse_expression(p));
        }
        if (!accept(p, OP_COMMA))
            break;
    }
    expect(p, OP_RBRACE);
done:
    e->items = keys.items;
    e->values = values.items;
    e->nitems = keys.n;
    return px_finish(p, e, start_tok);
}

static PyExpr *parse_atom(Parser *p)
{
    const Token *t = px_tok(p);
    size_t start_tok = p->pos;
    switch (t->kind) {
    case T_NUMBER:
        return number_literal(p);
    case T_STRING:
        return px_string_literals(p);
    case T_NAME: {
        PyExpr *e;
        if (accept(p, KW_TRUE) || accept(p, KW_FALSE)) {
            e = px_node(p, PX_CONST, start_tok);
            e->value.kind = PY_BOOL;
            e->value.b = t->code == KW_TRUE;
            return px_finish(p, e, start_tok);
        }
        if (accept(p, KW_NONE)) {
            e = px_node(p, PX_CONST, start_tok);
            e->value = py_none;
            return px_finish(p, e, start_tok);
        }
        e = px_node(p, PX_NAME, start_tok);
        e->id = take_name(p);
        /* the source of a name is its id: one copy serves both */
        e->source = e->id;
        e->end = t->end;
        return e;
    }
    case T_OP:
        if (at(p, OP_LPAR))
            return paren_atom(p);
        if (at(p, OP_LSQB))
            return list_atom(p);
        if (at(p, OP_LBRACE))
            return brace_atom(p);
        if (accept(p, OP_ELLIPSIS)) {
            PyExpr *e = px_node(p, PX_CONST, start_tok);
            e->value = py_make_opaque("ellipsis", "Ellipsis");
            return px_finish(p, e, start_tok);
        }
        break;
    default:
        break;
    }
    px_syntax_error(p, "invalid syntax");
}

/* ---- primaries ------------------------------------------------------- */

static void parse_call_args(Parser *p, PyExpr *call)
{
    ExprList args = { 0 };
    size_t nkw = 0, capkw = 0;
    PyKeyword *kws = NULL;
    bool seen_kw = false, seen_kwunpack = false;
    while (!at(p, OP_RPAR)) {
        size_t st = p->pos;
        if (accept(p, OP_STAR)) {
            PyExpr *s = px_node(p, PX_STARRED, st);
            s->left = parse_expression(p);
            if (seen_kwunpack)
                px_syntax_error(p, "iterable argument unpacking follows keyword argument unpacking");
            px_list_push(p, &args, px_finish(p, s, st));
        } else if (at(p, OP_POW) || (at_name(p) && tok_ahead(p, 1)->code == OP_EQUAL)) {
            const char *arg = NULL;
            if (accept(p, OP_POW))
                seen_kwunpack = true;
            else {
                arg = take_name(p);
                expect(p, OP_EQUAL);
            }
            if (nkw == capkw) {
                capkw = capkw ? capkw * 2 : 4;
                PyKeyword *nk = arena_array_of(p->a, PyKeyword, capkw);
                if (nkw)
                    memcpy(nk, kws, nkw * sizeof *nk);
                kws = nk;
            }
            kws[nkw].arg = arg;
            kws[nkw].value = parse_expression(p);
            kws[nkw].start = p->lx.toks[st].start;
            kws[nkw].end = p->lx.toks[p->pos - 1].end;
            nkw++;
            seen_kw = true;
        } else {
            PyExpr *e = parse_named_expression(p);
            if (at_comprehension(p)) {
                PyExpr *g = px_node(p, PX_GENEXP, st);
                g->left = e;
                parse_generators(p, g);
                px_finish(p, g, st);
                if (args.n || nkw || !at(p, OP_RPAR))
                    px_syntax_error(p, "Generator expression must be parenthesized");
                e = g;
            }
            if (seen_kwunpack)
                px_syntax_error(p, "positional argument follows keyword argument unpacking");
            if (seen_kw)
                px_syntax_error(p, "positional argument follows keyword argument");
            px_list_push(p, &args, e);
        }
        if (!accept(p, OP_COMMA))
            break;
    }
    expect(p, OP_RPAR);
    call->items = args.items;
    call->nitems = args.n;
    call->keywords = kws;
    call->nkeywords = nkw;
}

static PyExpr *parse_slice(Parser *p)
{
    size_t st = p->pos;
    PyExpr *lower = NULL;
    if (!at(p, OP_COLON)) {
        if (at(p, OP_STAR)) {
            PyExpr *s = px_node(p, PX_STARRED, st);
            p->pos++;
            s->left = parse_bitwise_or(p);
            return px_finish(p, s, st);
        }
        lower = parse_named_expression(p);
        if (!at(p, OP_COLON))
            return lower;
    }
    expect(p, OP_COLON);
    PyExpr *sl = px_node(p, PX_SLICE, st);
    sl->left = lower;
    if (!at(p, OP_COLON) && !at(p, OP_RSQB) && !at(p, OP_COMMA))
        sl->right = parse_expression(p);
    if (accept(p, OP_COLON) && !at(p, OP_RSQB) && !at(p, OP_COMMA))
        sl->test = parse_expression(p);
    return px_finish(p, sl, st);
}

static PyExpr *parse_primary(Parser *p)
{
    size_t start_tok = p->pos;
    PyExpr *e = parse_atom(p);
    for (int chain = 0;; chain++) {
        if (chain > MAX_CHAIN)
            px_syntax_error(p, "expression too complex (chain too long)");
        if (accept(p, OP_DOT)) {
            PyExpr *at_ = px_node(p, PX_ATTRIBUTE, start_tok);
            at_->left = e;
            at_->id = take_name(p);
            e = px_finish(p, at_, start_tok);
        } else if (accept(p, OP_LPAR)) {
            PyExpr *call = px_node(p, PX_CALL, start_tok);
            call->left = e;
            parse_call_args(p, call);
            e = px_finish(p, call, start_tok);
        } else if (accept(p, OP_LSQB)) {
            PyExpr *sub = px_node(p, PX_SUBSCRIPT, start_tok);
            sub->left = e;
            size_t st = p->pos;
            PyExpr *first = parse_slice(p);
            if (at(p, OP_COMMA)) {
                ExprList l = { 0 };
                px_list_push(p, &l, first);
                while (accept(p, OP_COMMA) && !at(p, OP_RSQB))
                    px_list_push(p, &l, parse_slice(p));
                PyExpr *t = px_node(p, PX_TUPLE, st);
                t->items = l.items;
                t->nitems = l.n;
                first = px_finish(p, t, st);
            } else if (first->kind == PX_STARRED) {
                PyExpr *t = px_node(p, PX_TUPLE, st);
                t->items = arena_array_of(p->a, PyExpr *, 1);
                t->items[0] = first;
                t->nitems = 1;
                first = px_finish(p, t, st);
            }
            expect(p, OP_RSQB);
            sub->right = first;
            e = px_finish(p, sub, start_tok);
        } else {
            return e;
        }
    }
}

/* ---- operators ------------------------------------------------------- */


static PyExpr *binop(Parser *p, size_t start_tok, PyExpr *left, const char *op,
                     PyExpr *right)
{
    PyExpr *e = px_node(p, PX_BINOP, start_tok);
    e->left = left;
    e->op = op;
    e->right = right;
    return px_finish(p, e, start_tok);
}

static PyExpr *parse_factor(Parser *p);

static PyExpr *parse_power(Parser *p)
{
    size_t start_tok = p->pos;
    PyExpr *e;
    if (at(p, KW_AWAIT)) {
        p->pos++;
        e = px_node(p, PX_AWAIT, start_tok);
        enter(p);
        e->left = parse_primary(p);
        p->depth--;
        px_finish(p, e, start_tok);
    } else {
        e = parse_primary(p);
    }
    if (accept(p, OP_POW)) {
        enter(p);
        PyExpr *exponent = parse_factor(p);
        p->depth--;
        return binop(p, start_tok, e, "Pow", exponent);
    }
    return e;
}

static PyExpr *parse_factor(Parser *p)
{
    size_t start_tok = p->pos;
    const char *op = at(p, OP_MINUS) ? "USub" : at(p, OP_PLUS) ? "UAdd" : at(p, OP_TILDE) ? "Invert" : NULL;
    if (!op)
        return parse_power(p);
    p->pos++;
    PyExpr *e = px_node(p, PX_UNARYOP, start_tok);
    e->op = op;
    enter(p);
    e->left = parse_factor(p);
    p->depth--;
    return px_finish(p, e, start_tok);
}

/* The binary operator at the current token: its level (0 binds least:
   |, ^, &, shifts, + -, then * / // % @) and its name in *op; -1 when
   there is none. */
static int binary_operator(const Parser *p, const char **op)
{
    switch (px_tok(p)->code) {
    case OP_PIPE: *op = "BitOr"; return 0;
    case OP_CARET: *op = "BitXor"; return 1;
    case OP_AMP: *op = "BitAnd"; return 2;
    case OP_LSHIFT: *op = "LShift"; return 3;
    case OP_RSHIFT: *op = "RShift"; return 3;
    case OP_PLUS: *op = "Add"; return 4;
    case OP_MINUS: *op = "Sub"; return 4;
    case OP_STAR: *op = "Mult"; return 5;
    case OP_SLASH: *op = "Div"; return 5;
    case OP_FLOORDIV: *op = "FloorDiv"; return 5;
    case OP_PERCENT: *op = "Mod"; return 5;
    case OP_AT: *op = "MatMult"; return 5;
    default: return -1;
    }
}

/* The binary operators from bitwise or to the multiplicative ones, by
   precedence climbing: one loop per operand instead of a call per level,
   building the tree a call per level would (left-associative, each
   operation starting at its left operand's first token). */
static PyExpr *parse_binary(Parser *p, int min_level)
{
    size_t start_tok = p->pos;
    PyExpr *e = parse_factor(p);
    /* a left-associative chain nests to the left: bound it, since every
       later walk over the tree recurses through it.  Within one loop the
       levels met only go down, so a chain is a run of one level. */
    int chain_level = -1, chain = 0;
    for (;;) {
        const char *op = NULL;
        int level = binary_operator(p, &op);
        if (level < min_level)
            return e;
        if (level != chain_level) {
            chain_level = level;
            chain = 0;
        }
        p->pos++;
        e = binop(p, start_tok, e, op, parse_binary(p, level + 1));
        if (++chain > MAX_CHAIN)
            px_syntax_error(p, "expression too complex (chain too long)");
    }
}

static PyExpr *parse_bitwise_or(Parser *p)
{
    return parse_binary(p, 0);
}

static const char *compare_op(Parser *p)
{
    const char *op;
    switch (px_tok(p)->code) {
    case OP_EQ: op = "Eq"; break;
    case OP_NE: op = "NotEq"; break;
    case OP_LE: op = "LtE"; break;
    case OP_GE: op = "GtE"; break;
    case OP_LT: op = "Lt"; break;
    case OP_GT: op = "Gt"; break;
    case KW_IN: op = "In"; break;
    default: op = NULL; break;
    }
    if (op) {
        p->pos++;
        return op;
    }
    if (at(p, KW_NOT) && tok_ahead(p, 1)->code == KW_IN) {
        p->pos += 2;
        return "NotIn";
    }
    if (accept(p, KW_IS))
        return accept(p, KW_NOT) ? "IsNot" : "Is";
    return NULL;
}

static PyExpr *parse_comparison(Parser *p)
{
    size_t start_tok = p->pos;
    PyExpr *e = parse_bitwise_or(p);
    const char *op = compare_op(p);
    if (!op)
        return e;
    PyExpr *c = px_node(p, PX_COMPARE, start_tok);
    c->left = e;
    ExprList comps = { 0 };
    size_t n = 0, cap = 4;
    const char **opv = arena_array_of(p->a, const char *, cap);
    while (op) {
        if (n == cap) {
            const char **no = arena_array_of(p->a, const char *, cap * 2);
            memcpy(no, opv, n * sizeof *no);
            opv = no;
            cap *= 2;
        }
        opv[n++] = op;
        px_list_push(p, &comps, parse_bitwise_or(p));
        op = compare_op(p);
    }
    c->ops = opv;
    c->items = comps.items;
    c->nitems = comps.n;
    return px_finish(p, c, start_tok);
}

static PyExpr *parse_inversion(Parser *p)
{
    size_t start_tok = p->pos;
    if (!accept(p, KW_NOT))
        return parse_comparison(p);
    PyExpr *e = px_node(p, PX_UNARYOP, start_tok);
    e->op = "Not";
    enter(p);
    e->left = parse_inversion(p);
    p->depth--;
    return px_finish(p, e, start_tok);
}

static PyExpr *parse_boolop(Parser *p, TokCode kw, const char *op,
                            PyExpr *(*next)(Parser *))
{
    size_t start_tok = p->pos;
    PyExpr *e = next(p);
    if (!at(p, kw))
        return e;
    ExprList l = { 0 };
    px_list_push(p, &l, e);
    while (accept(p, kw))
        px_list_push(p, &l, next(p));
    PyExpr *b = px_node(p, PX_BOOLOP, start_tok);
    b->op = op;
    b->items = l.items;
    b->nitems = l.n;
    return px_finish(p, b, start_tok);
}

static PyExpr *parse_conjunction(Parser *p)
{
    return parse_boolop(p, KW_AND, "And", parse_inversion);
}

static PyExpr *parse_disjunction(Parser *p)
{
    return parse_boolop(p, KW_OR, "Or", parse_conjunction);
}

static PyExpr *parse_expression_inner(Parser *p);

/* Every nested expression passes here: brackets, lambdas, conditionals. */
static PyExpr *parse_expression(Parser *p)
{
    enter(p);
    PyExpr *e = parse_expression_inner(p);
    p->depth--;
    return e;
}

/* The tokens that, after an atom, continue the expression at some level
   of the descent: a trailer (. ( [), **, a binary or comparison operator,
   and, or, if. */
static const bool continues_atom[TC_COUNT] = {
    [OP_DOT] = true, [OP_LPAR] = true, [OP_LSQB] = true, [OP_POW] = true,
    [OP_PIPE] = true, [OP_CARET] = true, [OP_AMP] = true,
    [OP_LSHIFT] = true, [OP_RSHIFT] = true, [OP_PLUS] = true,
    [OP_MINUS] = true, [OP_STAR] = true, [OP_SLASH] = true,
    [OP_FLOORDIV] = true, [OP_PERCENT] = true, [OP_AT] = true,
    [OP_EQ] = true, [OP_NE] = true, [OP_LE] = true, [OP_GE] = true,
    [OP_LT] = true, [OP_GT] = true, [KW_IN] = true, [KW_NOT] = true,
    [KW_IS] = true, [KW_AND] = true, [KW_OR] = true, [KW_IF] = true,
};

/* Whether the expression at t is one atom (a name, number, string, True,
   False or None) that nothing after it continues: then every level of
   the descent would return what parse_atom() does, so the parser skips
   them.  The token after t exists: t is not the last (T_END). */
static bool lone_atom(const Token *t)
{
    switch (t->kind) {
    case T_NAME:
        if (t->code != TC_NONE && t->code != KW_TRUE &&
            t->code != KW_FALSE && t->code != KW_NONE)
            return false;
        break;
    case T_NUMBER:
        break;
    case T_STRING:
        if (t[1].kind == T_STRING)   /* adjacent strings concatenate */
            return false;
        break;
    default:
        return false;
    }
    return !continues_atom[t[1].code];
}

/* Whether the expression at the current token is one primary (a name, a
   bracketed display or strings, with its trailers: ".name", "(...)",
   "[...]") that nothing after it continues.  The lexer matched the
   brackets, so their contents are stepped over; every level of the
   descent would then return what parse_primary() does. */
static bool lone_primary(const Parser *p)
{
    const Token *toks = p->lx.toks;
    size_t i = p->pos;
    const Token *t = &toks[i];
    if (t->kind == T_NAME) {
        if (t->code != TC_NONE)
            return false;
        i++;
    } else if (t->kind == T_STRING) {
        while (toks[i].kind == T_STRING)
            i++;
    } else if (t->code == OP_LPAR || t->code == OP_LSQB ||
               t->code == OP_LBRACE) {
        if (!t->match)
            return false;
        i = t->match + 1u;
    } else {
        return false;
    }
    for (;;) {
        t = &toks[i];
        if (t->code == OP_DOT) {
            /* not the last token: T_END is */
            if (t[1].kind != T_NAME)
                return false;
            i += 2;
        } else if (t->code == OP_LPAR || t->code == OP_LSQB) {
            if (!t->match)
                return false;
            i = t->match + 1u;
        } else {
            return !continues_atom[t->code];
        }
    }
}

static PyExpr *parse_expression_inner(Parser *p)
{
    size_t start_tok = p->pos;
    if (lone_atom(px_tok(p)))
        return parse_atom(p);
    if (lone_primary(p)) {
        PyExpr *e = parse_primary(p);
        if (!continues_atom[px_tok(p)->code])
            return e;
        /* not as foreseen (it cannot be, a parsed primary ends at the
           bracket the lexer matched): the whole descent, from the start */
        p->pos = start_tok;
    }
    if (accept(p, KW_LAMBDA)) {
        PyExpr *l = px_node(p, PX_LAMBDA, start_tok);
        l->args = parse_parameters(p, false, OP_COLON);
        expect(p, OP_COLON);
        l->left = parse_expression(p);
        return px_finish(p, l, start_tok);
    }
    PyExpr *e = parse_disjunction(p);
    if (!accept(p, KW_IF))
        return e;
    PyExpr *ife = px_node(p, PX_IFEXP, start_tok);
    ife->left = e;
    ife->test = parse_disjunction(p);
    if (!accept(p, KW_ELSE))
        px_syntax_error(p, "expected 'else' after 'if' expression");
    ife->right = parse_expression(p);
    return px_finish(p, ife, start_tok);
}

static PyExpr *parse_named_expression(Parser *p)
{
    size_t start_tok = p->pos;
    if (at_name(p) && tok_ahead(p, 1)->code == OP_WALRUS) {
        PyExpr *n = px_node(p, PX_NAMEDEXPR, start_tok);
        PyExpr *target = px_node(p, PX_NAME, start_tok);
        target->id = take_name(p);
        target->store = true;
        n->left = px_finish(p, target, start_tok);
        expect(p, OP_WALRUS);
        n->right = parse_expression(p);
        return px_finish(p, n, start_tok);
    }
    PyExpr *e = parse_expression(p);
    if (at(p, OP_WALRUS))
        px_syntax_error(p, "cannot use assignment expressions with expression");
    return e;
}

static PyExpr *parse_star_named_expression(Parser *p)
{
    size_t start_tok = p->pos;
    if (accept(p, OP_STAR)) {
        PyExpr *s = px_node(p, PX_STARRED, start_tok);
        s->left = parse_bitwise_or(p);
        return px_finish(p, s, start_tok);
    }
    return parse_named_expression(p);
}

/* star_expressions: the right-hand side of "x = ...", a bare tuple allowed. */
PyExpr *px_parse_star_expressions(Parser *p)
{
    size_t start_tok = p->pos;
    PyExpr *first;
    if (at(p, OP_STAR)) {
        first = px_node(p, PX_STARRED, start_tok);
        p->pos++;
        first->left = parse_bitwise_or(p);
        px_finish(p, first, start_tok);
    } else {
        first = parse_expression(p);
    }
    if (!at(p, OP_COMMA))
        return first;
    ExprList l = { 0 };
    px_list_push(p, &l, first);
    while (accept(p, OP_COMMA)) {
        const Token *t = px_tok(p);
        if (t->kind == T_END || t->kind == T_NEWLINE || at(p, OP_EQUAL) || at(p, OP_SEMI) ||
            at(p, OP_RPAR) || at(p, OP_RSQB) || at(p, OP_RBRACE) || at(p, OP_COLON))
            break;
        size_t st = p->pos;
        if (accept(p, OP_STAR)) {
            PyExpr *s = px_node(p, PX_STARRED, st);
            s->left = parse_bitwise_or(p);
            px_list_push(p, &l, px_finish(p, s, st));
        } else {
            px_list_push(p, &l, parse_expression(p));
        }
    }
    PyExpr *t = px_node(p, PX_TUPLE, start_tok);
    t->items = l.items;
    t->nitems = l.n;
    return px_finish(p, t, start_tok);
}

/* ---- parameters ------------------------------------------------------ */

typedef struct ArgList {
    PyArg *items;
    size_t n, cap;
} ArgList;

static void arg_push(Parser *p, ArgList *l, PyArg arg)
{
    if (l->n == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 4;
        PyArg *ni = arena_array_of(p->a, PyArg, ncap);
        if (l->n)
            memcpy(ni, l->items, l->n * sizeof *ni);
        l->items = ni;
        l->cap = ncap;
    }
    l->items[l->n++] = arg;
}

static PyArg parse_param(Parser *p, bool annotations, bool star_annotation)
{
    PyArg arg = { .arg = take_name(p) };
    if (annotations && accept(p, OP_COLON)) {
        if (star_annotation && at(p, OP_STAR)) {
            size_t st = p->pos;
            p->pos++;
            PyExpr *s = px_node(p, PX_STARRED, st);
            s->left = parse_expression(p);
            arg.annotation = px_finish(p, s, st);
        } else {
            arg.annotation = parse_expression(p);
        }
    }
    return arg;
}

/* The parameter list of a def (annotations allowed, ends at ")") or of a
   lambda (no annotations, ends at ":"). */
static PyArguments *parse_parameters(Parser *p, bool annotations,
                                     TokCode closer)
{
    PyArguments *args = arena_new_of(p->a, PyArguments);
    ArgList plain = { 0 }, kwonly = { 0 };
    ExprList defaults = { 0 }, kw_defaults = { 0 };
    size_t nposonly = 0;
    bool star = false, bare_star = false;
    while (!at(p, closer)) {
        if (args->kwarg)
            px_syntax_error(p, "arguments cannot follow var-keyword argument");
        if (accept(p, OP_SLASH)) {
            if (star || nposonly || plain.n == 0)
                px_syntax_error(p, star ? "/ must be ahead of *"
                                     : "at least one argument must precede /");
            nposonly = plain.n;
            if (nposonly == 0)
                nposonly = (size_t)-1;
        } else if (accept(p, OP_POW)) {
            PyArg a = parse_param(p, annotations, false);
            args->kwarg = arena_new_of(p->a, PyArg);
            *args->kwarg = a;
        } else if (accept(p, OP_STAR)) {
            if (star)
                px_syntax_error(p, "* argument may appear only once");
            star = true;
            if (at(p, OP_COMMA) || at(p, closer)) {
                bare_star = true;
            } else {
                PyArg a = parse_param(p, annotations, true);
                args->vararg = arena_new_of(p->a, PyArg);
                *args->vararg = a;
            }
        } else {
            PyArg a = parse_param(p, annotations, false);
            PyExpr *def = NULL;
            if (accept(p, OP_EQUAL))
                def = parse_expression(p);
            if (star) {
                arg_push(p, &kwonly, a);
                px_list_push(p, &kw_defaults, def);
            } else {
                if (!def && defaults.n)
                    px_syntax_error(p, "non-default argument follows default argument");
                arg_push(p, &plain, a);
                if (def)
                    px_list_push(p, &defaults, def);
            }
        }
        if (!accept(p, OP_COMMA))
            break;
    }
    if (bare_star && kwonly.n == 0)
        px_syntax_error(p, "named arguments must follow bare *");
    if (nposonly == (size_t)-1)
        nposonly = 0;
    args->posonlyargs = plain.items;
    args->nposonlyargs = nposonly;
    args->args = plain.items ? plain.items + nposonly : NULL;
    args->nargs = plain.n - nposonly;
    args->kwonlyargs = kwonly.items;
    args->nkwonlyargs = kwonly.n;
    args->kw_defaults = kw_defaults.items;
    args->defaults = defaults.items;
    args->ndefaults = defaults.n;
    return args;
}

/* ---- for the statement parser (pyvm_parse.c) ------------------------ */

bool px_at(const Parser *p, const char *text)
{
    return tok_is(&p->lx, px_tok(p), text);
}
bool px_accept(Parser *p, const char *text)
{
    if (!px_at(p, text))
        return false;
    p->pos++;
    return true;
}
void px_expect(Parser *p, const char *text)
{
    if (!px_accept(p, text))
        px_syntax_error(p, "invalid syntax");
}
bool px_at_name(const Parser *p) { return at_name(p); }
const char *px_take_name(Parser *p) { return take_name(p); }
PyExpr *px_parse_expression(Parser *p) { return parse_expression(p); }
PyExpr *px_parse_named_expression(Parser *p) { return parse_named_expression(p); }
PyExpr *px_parse_for_targets(Parser *p) { return parse_for_targets(p); }
void px_set_store(Parser *p, PyExpr *e) { set_store(p, e); }
PyArguments *px_parse_parameters(Parser *p, bool annotations, const char *closer)
{
    return parse_parameters(p, annotations, tok_code_of(closer));
}

/* ---- entry points ---------------------------------------------------- */

/* The line holding offset, as SyntaxError.text shows it. */
static const char *error_line(Arena *a, const char *src, size_t offset, bool newline)
{
    size_t start = offset, end = offset;
    size_t n = strlen(src);
    if (start > n)
        start = end = n;
    while (start > 0 && src[start - 1] != '\n')
        start--;
    while (end < n && src[end] != '\n')
        end++;
    return arena_printf(a, "%.*s%s", (int)(end - start), src + start, newline ? "\n" : "");
}

typedef enum Framing {
    FRAME_EXPR, FRAME_EVAL, FRAME_DEFAULT, FRAME_PARAMS, FRAME_RETURNS
} Framing;

typedef struct ParseResult {
    PyExpr *expr;
    PyArguments *args;
    /* where a syntax error was found (FRAME_EVAL reports it) */
    size_t err_offset, err_end;
    bool err_at_end;
} ParseResult;

/* After the statement clinic looks at: more simple statements separated
   by ';' (Python accepts "x = 1; y"), then the end of the line. */
static void expect_statement_end(Parser *p)
{
    while (accept(p, OP_SEMI)) {
        if (px_tok(p)->kind == T_END || px_tok(p)->kind == T_NEWLINE)
            break;
        if (accept(p, KW_PASS) || accept(p, KW_BREAK) || accept(p, KW_CONTINUE))
            continue;
        do {
            if (at(p, KW_YIELD)) {
                p->pos++;
                if (!accept(p, KW_FROM) && (px_tok(p)->kind == T_END || at(p, OP_SEMI) || at(p, OP_EQUAL)))
                    continue;
            }
            px_parse_star_expressions(p);
        } while (accept(p, OP_EQUAL));
    }
    while (px_tok(p)->kind == T_NEWLINE)
        p->pos++;
    if (px_tok(p)->kind != T_END)
        px_syntax_error(p, "invalid syntax");
}

static bool parse_framed(Arena *a, const char *src, Framing framing,
                         ParseResult *res, PySyntaxError *err)
{
    /* in the arena, not on the stack: it changes between setjmp and
       longjmp, and automatic objects would be indeterminate after it */
    Parser *p = arena_alloc_uninit(a, sizeof *p);
    /* all but the jmp_buf and the f-string buffers (set before use) */
    p->a = a;
    p->pos = 0;
    p->msg = NULL;
    p->err_offset = p->err_end = 0;
    p->err_at_end = false;
    p->depth = 0;
    p->nheld = 0;
    memset(res, 0, sizeof *res);
    if (err) {
        err->msg = NULL;
        err->text = NULL;
    }
    if (!pylex(a, src, &p->lx)) {
        res->err_offset = res->err_end = p->lx.error_offset;
        if (err) {
            err->msg = p->lx.error_msg;
            err->text = error_line(a, src, p->lx.error_offset, p->lx.error_newline);
        }
        return false;
    }
    if (setjmp(p->fail)) {
        px_release_held(p);
        res->err_offset = p->err_offset;
        res->err_end = p->err_end;
        res->err_at_end = p->err_at_end;
        if (err) {
            if (p->lx.unclosed) {
                err->msg = arena_printf(a, "'%c' was never closed", p->lx.unclosed_char);
                p->err_offset = p->lx.unclosed_offset;
            } else {
                err->msg = p->msg;
            }
            err->text = error_line(a, src, p->err_offset, true);
        }
        return false;
    }
    switch (framing) {
    case FRAME_EVAL: {
        /* eval's grammar: expressions, no starred or ':=' at the top */
        size_t start_tok = p->pos;
        PyExpr *first = parse_expression(p);
        if (at(p, OP_COMMA)) {
            ExprList l = { 0 };
            px_list_push(p, &l, first);
            while (accept(p, OP_COMMA) && px_tok(p)->kind != T_END && px_tok(p)->kind != T_NEWLINE)
                px_list_push(p, &l, parse_expression(p));
            first = px_node(p, PX_TUPLE, start_tok);
            first->items = l.items;
            first->nitems = l.n;
            px_finish(p, first, start_tok);
        }
        res->expr = first;
        while (px_tok(p)->kind == T_NEWLINE)
            p->pos++;
        if (px_tok(p)->kind != T_END)
            px_syntax_error(p, "invalid syntax");
        break;
    }
    case FRAME_EXPR:
        res->expr = px_parse_star_expressions(p);
        while (px_tok(p)->kind == T_NEWLINE)
            p->pos++;
        if (px_tok(p)->kind != T_END)
            px_syntax_error(p, "invalid syntax");
        break;
    case FRAME_DEFAULT: {
        /* "x = a = b": the targets become Store, body[0].value is the last */
        PyExpr *value = px_parse_star_expressions(p);
        expect(p, OP_EQUAL);
        for (;;) {
            set_store(p, value);
            if (at(p, KW_YIELD)) {
                size_t st = p->pos;
                p->pos++;
                PyExpr *y;
                if (accept(p, KW_FROM)) {
                    y = px_node(p, PX_YIELDFROM, st);
                    y->left = parse_expression(p);
                } else {
                    y = px_node(p, PX_YIELD, st);
                    if (px_tok(p)->kind != T_END && !at(p, OP_SEMI) && !at(p, OP_EQUAL))
                        y->left = px_parse_star_expressions(p);
                }
                value = px_finish(p, y, st);
            } else {
                value = px_parse_star_expressions(p);
            }
            if (!accept(p, OP_EQUAL))
                break;
        }
        res->expr = value;
        expect_statement_end(p);
        break;
    }
    case FRAME_PARAMS:
        expect(p, KW_DEF);
        take_name(p);
        expect(p, OP_LPAR);
        res->args = parse_parameters(p, true, OP_RPAR);
        expect(p, OP_RPAR);
        expect(p, OP_COLON);
        expect(p, KW_PASS);
        expect_statement_end(p);
        break;
    case FRAME_RETURNS:
        expect(p, KW_DEF);
        take_name(p);
        expect(p, OP_LPAR);
        expect(p, OP_RPAR);
        expect(p, OP_ARROW);
        res->expr = parse_expression(p);
        expect(p, OP_COLON);
        expect(p, KW_PASS);
        expect_statement_end(p);
        break;
    }
    return true;
}

PyExpr *pyexpr_parse(Arena *a, const char *src, PySyntaxError *err)
{
    ParseResult res;
    if (!parse_framed(a, src, FRAME_EXPR, &res, err))
        return NULL;
    return res.expr;
}

/* Python's SyntaxError repr for eval(text): SyntaxError(msg, ('<string>',
   lineno, offset, text, end_lineno, end_offset)), offsets 1-based. */
static PyException eval_syntax_error(Arena *a, const char *msg, const char *text,
                                     size_t offset, size_t end)
{
    StrBuf sb = STRBUF_INIT;
    sb_adds(&sb, "SyntaxError(");
    pystr_repr(&sb, msg, strlen(msg));
    sb_addf(&sb, ", ('<string>', 1, %zu, ", offset);
    if (text)
        pystr_repr(&sb, text, strlen(text));
    else
        sb_adds(&sb, "None");
    sb_addf(&sb, ", 1, %zu))", end);
    /* str() of a SyntaxError names the file and line */
    return (PyException){ .type = "SyntaxError",
                          .message = arena_printf(a, "%s (<string>, line 1)", msg),
                          .repr = pysb_take(&sb, a) };
}

typedef struct CompileCheck {
    Arena *a;
    const char *msg;      /* the SyntaxError's message, once found */
    size_t start, end;    /* and where: byte offsets of the node */
    int in_lambda;
} CompileCheck;

static bool compile_error_at(CompileCheck *cc, const char *msg, size_t start,
                             size_t end)
{
    cc->msg = msg;
    cc->start = start;
    cc->end = end;
    return true;
}

/* The compiler's errors for an expression valid to the parser. */
static bool compile_error(const PyExpr *e, void *ctx)
{
    CompileCheck *cc = ctx;
    /* a lambda is a function: yield is fine there, await is not */
    if ((e->kind == PX_YIELD || e->kind == PX_YIELDFROM) && !cc->in_lambda)
        return compile_error_at(cc, "'yield' outside function", e->start,
                                e->end);
    if (e->kind == PX_AWAIT)
        return compile_error_at(cc, cc->in_lambda
                                        ? "'await' outside async function"
                                        : "'await' outside function",
                                e->start, e->end);
    if (e->kind == PX_CALL) {
        for (size_t i = 0; i < e->nkeywords; i++)
            for (size_t j = 0; j < i; j++)
                if (e->keywords[i].arg && e->keywords[j].arg &&
                    strcmp(e->keywords[i].arg, e->keywords[j].arg) == 0)
                    return compile_error_at(
                        cc, arena_printf(cc->a, "keyword argument repeated: %s",
                                         e->keywords[i].arg),
                        e->keywords[i].start, e->keywords[i].end);
    }
    return false;
}

/* Walks e as the compiler would, noting when it is inside a lambda. */
static bool find_compile_error(const PyExpr *e, CompileCheck *cc)
{
    if (!e)
        return false;
    if (e->kind == PX_LAMBDA) {
        const PyArguments *args = e->args;
        for (size_t i = 0; i < args->ndefaults; i++)
            if (find_compile_error(args->defaults[i], cc))
                return true;
        for (size_t i = 0; i < args->nkwonlyargs; i++)
            if (find_compile_error(args->kw_defaults[i], cc))
                return true;
        cc->in_lambda++;
        bool found = find_compile_error(e->left, cc);
        cc->in_lambda--;
        return found;
    }
    if (compile_error(e, cc))
        return true;
    if (find_compile_error(e->left, cc) || find_compile_error(e->right, cc) ||
        find_compile_error(e->test, cc))
        return true;
    for (size_t i = 0; i < e->nitems; i++)
        if (find_compile_error(e->items[i], cc) ||
            (e->values && find_compile_error(e->values[i], cc)))
            return true;
    for (size_t i = 0; i < e->nkeywords; i++)
        if (find_compile_error(e->keywords[i].value, cc))
            return true;
    for (size_t i = 0; i < e->ngenerators; i++) {
        const PyComprehension *g = &e->generators[i];
        if (find_compile_error(g->target, cc) || find_compile_error(g->iter, cc))
            return true;
        for (size_t k = 0; k < g->nifs; k++)
            if (find_compile_error(g->ifs[k], cc))
                return true;
    }
    return false;
}

const char *pyexpr_compile_error(Arena *a, const PyExpr *e)
{
    CompileCheck cc = { .a = a };
    return find_compile_error(e, &cc) ? cc.msg : NULL;
}

static PyExpr *plain_default(Arena *a, const char *text, size_t frame);

PyExpr *pyexpr_compile_source(Arena *a, const char *text, PyException *exc)
{
    /* eval() skips leading blanks of a string source */
    while (*text == ' ' || *text == '\t')
        text++;
    /* a constant or a name: nothing the compiler could refuse */
    PyExpr *plain = plain_default(a, text, 0);
    if (plain)
        return plain;
    ParseResult res;
    PySyntaxError err;
    if (!parse_framed(a, text, FRAME_EVAL, &res, &err)) {
        size_t offset = res.err_at_end ? 0 : res.err_offset + 1;
        size_t end = res.err_at_end ? 0 : res.err_end + 1;
        const char *line = err.text;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n')
            line = arena_strndup(a, line, n - 1);
        *exc = eval_syntax_error(a, err.msg, line, offset, end);
        return NULL;
    }
    CompileCheck cc = { .a = a };
    if (find_compile_error(res.expr, &cc)) {
        *exc = eval_syntax_error(a, cc.msg, NULL, cc.start + 1, cc.end + 1);
        return NULL;
    }
    return res.expr;
}

/* before + text + after, as clinic.py frames a line for ast.parse(). */
static const char *framed(Arena *a, const char *before, size_t nbefore,
                          const char *text, const char *after, size_t nafter)
{
    size_t n = strlen(text);
    char *s = arena_alloc_uninit(a, nbefore + n + nafter + 1);
    memcpy(s, before, nbefore);
    memcpy(s + nbefore, text, n);
    memcpy(s + nbefore + n, after, nafter + 1);   /* with its NUL */
    return s;
}

#define FRAMED(a, before, text, after) \
    framed((a), before, sizeof before - 1, (text), after, sizeof after - 1)

/* A node of the source text[start..end), as px_node() and px_finish()
   make it; offsets are into the framed line, after `frame` bytes. */
static PyExpr *plain_node(Arena *a, PyExprKind kind, const char *text,
                          size_t frame, size_t start, size_t end)
{
    PyExpr *e = arena_new_of(a, PyExpr);
    e->kind = kind;
    e->source = arena_strndup(a, text + start, end - start);
    e->start = frame + start;
    e->end = frame + end;
    return e;
}

/* A one-quoted str of printable ASCII with no backslash at text[start]
   and alone (no other string right after it): its Constant, with *end
   after its closing quote; NULL for any other text. */
static PyExpr *plain_string(Arena *a, const char *text, size_t frame,
                            size_t start, size_t *end)
{
    char quote = text[start];
    size_t i = start + 1;
    while (text[i] != quote) {
        if (text[i] < ' ' || text[i] > '~' || text[i] == '\\')
            return NULL;
        i++;
    }
    i++;
    /* "" followed by a quote opens a triple-quoted string; a quote after
       the closing one starts an adjacent string */
    if (text[i] == '"' || text[i] == '\'')
        return NULL;
    PyExpr *e = plain_node(a, PX_CONST, text, frame, start, i);
    e->value.kind = PY_STR;
    e->value.len = i - start - 2;
    e->value.s = arena_strndup(a, text + start + 1, e->value.len);
    *end = i;
    return e;
}

/* The commonest defaults, the whole of text: None, True, False, a name
   (NULL, or a constant given with c_default) or a dotted one (sys.maxsize),
   a decimal int with no underscores or leading zeros, and one with a '-'
   before it, a plain string (plain_string()).  These build the nodes the
   parse of "x = TEXT" gives (a Constant, a Name, Attributes, a UnaryOp
   USub over a Constant) without tokenizing it; NULL for any other text,
   which takes the full parse. */
static PyExpr *plain_default(Arena *a, const char *text, size_t frame)
{
    if (text[0] == '"' || text[0] == '\'') {
        size_t end;
        PyExpr *e = plain_string(a, text, frame, 0, &end);
        return e && !text[end] ? e : NULL;
    }
    size_t n = tok_ascii_name_len(text);
    if (n && text[n] == '.') {
        /* a.b.c: Attributes nested to the left, each from the start */
        if (tok_keyword_of(text, n) != TC_NONE)
            return NULL;
        PyExpr *e = plain_node(a, PX_NAME, text, frame, 0, n);
        e->id = e->source;
        while (text[n] == '.') {
            size_t attr = n + 1, nattr = tok_ascii_name_len(text + attr);
            if (!nattr || tok_keyword_of(text + attr, nattr) != TC_NONE)
                return NULL;
            n = attr + nattr;
            PyExpr *at = plain_node(a, PX_ATTRIBUTE, text, frame, 0, n);
            at->left = e;
            at->id = arena_strndup(a, text + attr, nattr);
            e = at;
        }
        return text[n] ? NULL : e;
    }
    if (n) {
        if (text[n])
            return NULL;
        PyExpr *e;
        switch (tok_keyword_of(text, n)) {
        case TC_NONE:
            e = plain_node(a, PX_NAME, text, frame, 0, n);
            e->id = e->source;
            return e;
        case KW_NONE:
            e = plain_node(a, PX_CONST, text, frame, 0, n);
            e->value = py_none;
            return e;
        case KW_TRUE:
        case KW_FALSE:
            e = plain_node(a, PX_CONST, text, frame, 0, n);
            e->value.kind = PY_BOOL;
            e->value.b = text[0] == 'T';
            return e;
        default:
            return NULL;
        }
    }
    size_t minus = text[0] == '-';
    const char *digits = text + minus;
    while (digits[n] >= '0' && digits[n] <= '9')
        n++;
    if (!n || digits[n] || (n > 1 && digits[0] == '0'))
        return NULL;
    PyExpr *number = plain_node(a, PX_CONST, text, frame, minus, minus + n);
    number->value = py_make_int(arena_strndup(a, digits, n));
    if (!minus)
        return number;
    PyExpr *e = plain_node(a, PX_UNARYOP, text, frame, 0, 1 + n);
    e->op = "USub";
    e->left = number;
    return e;
}

PyExpr *pyexpr_parse_default(Arena *a, const char *text, PySyntaxError *err)
{
    PyExpr *plain = plain_default(a, text, sizeof "x = " - 1);
    if (plain) {
        if (err)
            err->msg = err->text = NULL;
        return plain;
    }
    ParseResult res;
    const char *src = FRAMED(a, "x = ", text, "");
    if (!parse_framed(a, src, FRAME_DEFAULT, &res, err))
        return NULL;
    return res.expr;
}

PyExpr *pyexpr_parse_returns(Arena *a, const char *text, PySyntaxError *err)
{
    ParseResult res;
    const char *src = FRAMED(a, "def x() -> ", text, ": pass");
    if (!parse_framed(a, src, FRAME_RETURNS, &res, err))
        return NULL;
    return res.expr;
}

PyArguments *pyexpr_parse_arguments(Arena *a, const char *text, PySyntaxError *err)
{
    ParseResult res;
    const char *src = FRAMED(a, "def x(", text, "): pass");
    if (!parse_framed(a, src, FRAME_PARAMS, &res, err))
        return NULL;
    return res.args;
}

/* The length of the ASCII identifier that starts at s, 0 when none does
   or when it is a keyword. */
static size_t plain_name_len(const char *s)
{
    size_t n = tok_ascii_name_len(s);
    return n && tok_keyword_of(s, n) == TC_NONE ? n : 0;
}

/* ---- plain parameter lines ------------------------------------------ */

/* A parameter line read by hand, as far as it has the common shapes (see
   plain_param()); offsets in the nodes are into the framed line. */
typedef struct PlainLine {
    Arena *a;
    const char *text;
    size_t pos;
} PlainLine;

#define PARAMS_FRAME (sizeof "def x(" - 1)
#define PLAIN_MAX 16     /* keyword arguments, or set members */

static void plain_spaces(PlainLine *q)
{
    while (q->text[q->pos] == ' ')
        q->pos++;
}

/* A name that is no string prefix (no quote right after it): a Name, or
   the Constant of True, False or None; NULL for other keywords. */
static PyExpr *plain_name(PlainLine *q)
{
    const char *at = q->text + q->pos;
    size_t n = tok_ascii_name_len(at);
    if (!n || at[n] == '"' || at[n] == '\'')
        return NULL;
    PyExpr *e;
    switch (tok_keyword_of(at, n)) {
    case TC_NONE:
        e = plain_node(q->a, PX_NAME, q->text, PARAMS_FRAME, q->pos,
                       q->pos + n);
        e->id = e->source;
        break;
    case KW_NONE:
        e = plain_node(q->a, PX_CONST, q->text, PARAMS_FRAME, q->pos,
                       q->pos + n);
        e->value = py_none;
        break;
    case KW_TRUE:
    case KW_FALSE:
        e = plain_node(q->a, PX_CONST, q->text, PARAMS_FRAME, q->pos,
                       q->pos + n);
        e->value.kind = PY_BOOL;
        e->value.b = at[0] == 'T';
        break;
    default:
        return NULL;
    }
    q->pos += n;
    return e;
}

/* A keyword argument's value: a name, True, False or None; a decimal int
   with no '_' or leading zero; a one-quoted str of printable ASCII with
   no backslash, alone (no other string after it); a set of names.  NULL
   for anything else.  What may follow is the caller's to check. */
static PyExpr *plain_value(PlainLine *q)
{
    const char *t = q->text;
    size_t start = q->pos;
    char ch = t[start];
    if (ch >= '0' && ch <= '9') {
        size_t end = start;
        while (t[end] >= '0' && t[end] <= '9')
            end++;
        if ((ch == '0' && end - start > 1) || !strchr(" ,)}", t[end]) ||
            !t[end])
            return NULL;
        PyExpr *e = plain_node(q->a, PX_CONST, t, PARAMS_FRAME, start, end);
        e->value = py_make_int(arena_strndup(q->a, t + start, end - start));
        q->pos = end;
        return e;
    }
    if (ch == '"' || ch == '\'') {
        size_t end;
        PyExpr *e = plain_string(q->a, t, PARAMS_FRAME, start, &end);
        if (e)
            q->pos = end;
        return e;
    }
    if (ch == '{') {
        PyExpr *items[PLAIN_MAX];
        size_t n = 0;
        q->pos++;
        for (;;) {
            plain_spaces(q);
            if (n == PLAIN_MAX || !(items[n++] = plain_name(q)))
                return NULL;
            plain_spaces(q);
            if (t[q->pos] == '}')
                break;
            if (t[q->pos] != ',')
                return NULL;
            q->pos++;
        }
        q->pos++;
        PyExpr *e = plain_node(q->a, PX_SET, t, PARAMS_FRAME, start, q->pos);
        e->items = arena_array_of(q->a, PyExpr *, n);
        memcpy(e->items, items, n * sizeof *items);
        e->nitems = n;
        return e;
    }
    return plain_name(q);
}

/* Most parameter lines are "name: converter" or "name: converter(k=v,
   ...)", where each v is a name, a number, a plain string or a set of
   names (plain_value()), with spaces between.  For these the parse of
   "def x(TEXT): pass" can only give one plain parameter annotated with a
   Name or a Call of keyword arguments, so that is built directly (the
   same nodes, spans and copies) without tokenizing the framed line.
   False for any other text, which takes the full parse. */
static bool plain_param(Arena *a, const char *text, PyParamDecl *out)
{
    PlainLine q = { a, text, 0 };
    size_t nname = plain_name_len(text);
    if (!nname)
        return false;
    q.pos = nname;
    plain_spaces(&q);
    if (text[q.pos++] != ':')
        return false;
    plain_spaces(&q);
    size_t conv = q.pos;
    size_t nconv = plain_name_len(text + conv);
    if (!nconv || text[conv + nconv] == '"' || text[conv + nconv] == '\'')
        return false;
    q.pos += nconv;
    plain_spaces(&q);

    PyExpr *name = plain_node(a, PX_NAME, text, PARAMS_FRAME, conv,
                              conv + nconv);
    name->id = name->source;
    PyExpr *annotation = name;
    if (text[q.pos] == '(') {
        PyKeyword kws[PLAIN_MAX];
        size_t nkw = 0;
        q.pos++;
        plain_spaces(&q);
        while (text[q.pos] != ')') {
            size_t kw = q.pos;
            size_t nkwname = plain_name_len(text + kw);
            if (nkw == PLAIN_MAX || !nkwname)
                return false;
            q.pos += nkwname;
            plain_spaces(&q);
            if (text[q.pos] != '=' || text[q.pos + 1] == '=')
                return false;
            q.pos++;
            plain_spaces(&q);
            PyExpr *value = plain_value(&q);
            if (!value)
                return false;
            kws[nkw].arg = arena_strndup(a, text + kw, nkwname);
            kws[nkw].value = value;
            kws[nkw].start = PARAMS_FRAME + kw;
            kws[nkw].end = PARAMS_FRAME + q.pos;
            nkw++;
            plain_spaces(&q);
            if (text[q.pos] == ',') {
                q.pos++;
                plain_spaces(&q);
                if (text[q.pos] == ')')   /* a trailing comma */
                    return false;
            } else if (text[q.pos] != ')') {
                return false;
            }
        }
        q.pos++;
        annotation = plain_node(a, PX_CALL, text, PARAMS_FRAME, conv, q.pos);
        annotation->left = name;
        if (nkw) {
            annotation->keywords = arena_array_of(a, PyKeyword, nkw);
            memcpy(annotation->keywords, kws, nkw * sizeof *kws);
        }
        annotation->nkeywords = nkw;
        plain_spaces(&q);
    }
    if (text[q.pos])
        return false;
    out->nargs = 1;
    out->name = arena_strndup(a, text, nname);
    out->annotation = annotation;
    return true;
}

static void fill_param_decl(PyParamDecl *out, const PyArguments *args);

bool pyexpr_parse_params(Arena *a, const char *text, PyParamDecl *out,
                         PySyntaxError *err)
{
    memset(out, 0, sizeof *out);
    if (plain_param(a, text, out)) {
        if (err)
            err->msg = err->text = NULL;
        return true;
    }
    PyArguments *args = pyexpr_parse_arguments(a, text, err);
    if (!args)
        return false;
    fill_param_decl(out, args);
    return true;
}

bool pyexpr_parse_param_line(Arena *a, const char *text, PyParamDecl *out)
{
    memset(out, 0, sizeof *out);
    ParseResult res;
    const char *src = FRAMED(a, "def x(", text, "\n): pass");
    if (!parse_framed(a, src, FRAME_PARAMS, &res, NULL))
        return false;
    fill_param_decl(out, res.args);
    if (out->default_expr) {
        /* the frame's "def x(" before the text */
        out->default_start = out->default_expr->start - PARAMS_FRAME;
        out->default_end = out->default_expr->end - PARAMS_FRAME;
    }
    return true;
}

static void fill_param_decl(PyParamDecl *out, const PyArguments *args)
{
    /* state_parameter reads: len(args), defaults or kw_defaults (a list
       with one None per keyword-only parameter, so any keyword-only
       parameter counts), kwarg, then vararg or args[0]. */
    out->nargs = (int)args->nargs;
    out->has_default = args->ndefaults > 0 || args->nkwonlyargs > 0;
    out->has_kwarg = args->kwarg != NULL;
    out->is_vararg = args->vararg != NULL;
    out->default_expr = args->ndefaults ? args->defaults[0] : NULL;
    const PyArg *param = args->vararg ? args->vararg
                         : args->nargs ? &args->args[0] : NULL;
    if (param) {
        out->name = param->arg;
        out->annotation = param->annotation;
    }
}
