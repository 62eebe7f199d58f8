/*
 * pyexpr_dump.c — ast.dump() of Python 3.11, and a generic node walk.
 *
 * clinic.py appends ast.dump(expr) to one error message ("When you
 * specify an expression ... you MUST specify a valid c_default."), so the
 * dump must match Python's: every field by name in _fields order, fields
 * that are None omitted, lists shown even when empty, constants by repr.
 */
#include "python/pyexpr.h"
#include "python/pyexpr_int.h"
#include "base/strbuf.h"

#include <string.h>

static void dump(StrBuf *sb, const PyExpr *e);

static void dump_list(StrBuf *sb, PyExpr *const *items, size_t n)
{
    sb_addc(sb, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_adds(sb, ", ");
        if (items[i])
            dump(sb, items[i]);
        else
            sb_adds(sb, "None");
    }
    sb_addc(sb, ']');
}

static void ctx(StrBuf *sb, const PyExpr *e)
{
    sb_adds(sb, e->store ? ", ctx=Store())" : ", ctx=Load())");
}

static void dump_arg(StrBuf *sb, const PyArg *a)
{
    sb_adds(sb, "arg(arg=");
    pystr_repr(sb, a->arg, strlen(a->arg));
    if (a->annotation) {
        sb_adds(sb, ", annotation=");
        dump(sb, a->annotation);
    }
    sb_addc(sb, ')');
}

static void dump_args(StrBuf *sb, const PyArg *args, size_t n)
{
    sb_addc(sb, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_adds(sb, ", ");
        dump_arg(sb, &args[i]);
    }
    sb_addc(sb, ']');
}

static void dump_arguments(StrBuf *sb, const PyArguments *a)
{
    sb_adds(sb, "arguments(posonlyargs=");
    dump_args(sb, a->posonlyargs, a->nposonlyargs);
    sb_adds(sb, ", args=");
    dump_args(sb, a->args, a->nargs);
    if (a->vararg) {
        sb_adds(sb, ", vararg=");
        dump_arg(sb, a->vararg);
    }
    sb_adds(sb, ", kwonlyargs=");
    dump_args(sb, a->kwonlyargs, a->nkwonlyargs);
    sb_adds(sb, ", kw_defaults=");
    dump_list(sb, a->kw_defaults, a->nkwonlyargs);
    if (a->kwarg) {
        sb_adds(sb, ", kwarg=");
        dump_arg(sb, a->kwarg);
    }
    sb_adds(sb, ", defaults=");
    dump_list(sb, a->defaults, a->ndefaults);
    sb_addc(sb, ')');
}

static void dump_generators(StrBuf *sb, const PyExpr *e)
{
    sb_adds(sb, "generators=[");
    for (size_t i = 0; i < e->ngenerators; i++) {
        const PyComprehension *g = &e->generators[i];
        if (i)
            sb_adds(sb, ", ");
        sb_adds(sb, "comprehension(target=");
        dump(sb, g->target);
        sb_adds(sb, ", iter=");
        dump(sb, g->iter);
        sb_adds(sb, ", ifs=");
        dump_list(sb, g->ifs, g->nifs);
        sb_addf(sb, ", is_async=%d)", g->is_async ? 1 : 0);
    }
    sb_adds(sb, "])");
}

static void op(StrBuf *sb, const char *name)
{
    sb_adds(sb, name);
    sb_adds(sb, "()");
}

static void dump(StrBuf *sb, const PyExpr *e)
{
    switch (e->kind) {
    case PX_CONST: {
        sb_adds(sb, "Constant(value=");
        pyvalue_repr(sb, &e->value);
        if (e->const_kind)
            sb_addf(sb, ", kind='%s'", e->const_kind);
        sb_addc(sb, ')');
        return;
    }
    case PX_NAME:
        sb_adds(sb, "Name(id=");
        pystr_repr(sb, e->id, strlen(e->id));
        ctx(sb, e);
        return;
    case PX_ATTRIBUTE:
        sb_adds(sb, "Attribute(value=");
        dump(sb, e->left);
        sb_adds(sb, ", attr=");
        pystr_repr(sb, e->id, strlen(e->id));
        ctx(sb, e);
        return;
    case PX_CALL:
        sb_adds(sb, "Call(func=");
        dump(sb, e->left);
        sb_adds(sb, ", args=");
        dump_list(sb, e->items, e->nitems);
        sb_adds(sb, ", keywords=[");
        for (size_t i = 0; i < e->nkeywords; i++) {
            if (i)
                sb_adds(sb, ", ");
            sb_adds(sb, "keyword(");
            if (e->keywords[i].arg) {
                sb_adds(sb, "arg=");
                pystr_repr(sb, e->keywords[i].arg, strlen(e->keywords[i].arg));
                sb_adds(sb, ", ");
            }
            sb_adds(sb, "value=");
            dump(sb, e->keywords[i].value);
            sb_addc(sb, ')');
        }
        sb_adds(sb, "])");
        return;
    case PX_UNARYOP:
        sb_adds(sb, "UnaryOp(op=");
        op(sb, e->op);
        sb_adds(sb, ", operand=");
        dump(sb, e->left);
        sb_addc(sb, ')');
        return;
    case PX_BINOP:
        sb_adds(sb, "BinOp(left=");
        dump(sb, e->left);
        sb_adds(sb, ", op=");
        op(sb, e->op);
        sb_adds(sb, ", right=");
        dump(sb, e->right);
        sb_addc(sb, ')');
        return;
    case PX_BOOLOP:
        sb_adds(sb, "BoolOp(op=");
        op(sb, e->op);
        sb_adds(sb, ", values=");
        dump_list(sb, e->items, e->nitems);
        sb_addc(sb, ')');
        return;
    case PX_COMPARE:
        sb_adds(sb, "Compare(left=");
        dump(sb, e->left);
        sb_adds(sb, ", ops=[");
        for (size_t i = 0; i < e->nitems; i++) {
            if (i)
                sb_adds(sb, ", ");
            op(sb, e->ops[i]);
        }
        sb_adds(sb, "], comparators=");
        dump_list(sb, e->items, e->nitems);
        sb_addc(sb, ')');
        return;
    case PX_IFEXP:
        sb_adds(sb, "IfExp(test=");
        dump(sb, e->test);
        sb_adds(sb, ", body=");
        dump(sb, e->left);
        sb_adds(sb, ", orelse=");
        dump(sb, e->right);
        sb_addc(sb, ')');
        return;
    case PX_LAMBDA:
        sb_adds(sb, "Lambda(args=");
        dump_arguments(sb, e->args);
        sb_adds(sb, ", body=");
        dump(sb, e->left);
        sb_addc(sb, ')');
        return;
    case PX_SUBSCRIPT:
        sb_adds(sb, "Subscript(value=");
        dump(sb, e->left);
        sb_adds(sb, ", slice=");
        dump(sb, e->right);
        ctx(sb, e);
        return;
    case PX_STARRED:
        sb_adds(sb, "Starred(value=");
        dump(sb, e->left);
        ctx(sb, e);
        return;
    case PX_TUPLE:
    case PX_LIST:
        sb_adds(sb, e->kind == PX_TUPLE ? "Tuple(elts=" : "List(elts=");
        dump_list(sb, e->items, e->nitems);
        ctx(sb, e);
        return;
    case PX_SET:
        sb_adds(sb, "Set(elts=");
        dump_list(sb, e->items, e->nitems);
        sb_addc(sb, ')');
        return;
    case PX_DICT:
        sb_adds(sb, "Dict(keys=");
        dump_list(sb, e->items, e->nitems);
        sb_adds(sb, ", values=");
        dump_list(sb, e->values, e->nitems);
        sb_addc(sb, ')');
        return;
    case PX_LISTCOMP:
    case PX_SETCOMP:
    case PX_GENEXP:
        sb_adds(sb, e->kind == PX_LISTCOMP ? "ListComp(elt="
                    : e->kind == PX_SETCOMP ? "SetComp(elt=" : "GeneratorExp(elt=");
        dump(sb, e->left);
        sb_adds(sb, ", ");
        dump_generators(sb, e);
        return;
    case PX_DICTCOMP:
        sb_adds(sb, "DictComp(key=");
        dump(sb, e->left);
        sb_adds(sb, ", value=");
        dump(sb, e->right);
        sb_adds(sb, ", ");
        dump_generators(sb, e);
        return;
    case PX_JOINEDSTR:
        sb_adds(sb, "JoinedStr(values=");
        dump_list(sb, e->items, e->nitems);
        sb_addc(sb, ')');
        return;
    case PX_FORMATTEDVALUE:
        sb_adds(sb, "FormattedValue(value=");
        dump(sb, e->left);
        sb_addf(sb, ", conversion=%d", e->conversion);
        if (e->test) {
            sb_adds(sb, ", format_spec=");
            dump(sb, e->test);
        }
        sb_addc(sb, ')');
        return;
    case PX_NAMEDEXPR:
        sb_adds(sb, "NamedExpr(target=");
        dump(sb, e->left);
        sb_adds(sb, ", value=");
        dump(sb, e->right);
        sb_addc(sb, ')');
        return;
    case PX_SLICE: {
        sb_adds(sb, "Slice(");
        const char *sep = "";
        if (e->left) {
            sb_adds(sb, "lower=");
            dump(sb, e->left);
            sep = ", ";
        }
        if (e->right) {
            sb_adds(sb, sep);
            sb_adds(sb, "upper=");
            dump(sb, e->right);
            sep = ", ";
        }
        if (e->test) {
            sb_adds(sb, sep);
            sb_adds(sb, "step=");
            dump(sb, e->test);
        }
        sb_addc(sb, ')');
        return;
    }
    case PX_YIELD:
    case PX_YIELDFROM:
    case PX_AWAIT:
        sb_adds(sb, e->kind == PX_YIELD ? "Yield(" : e->kind == PX_YIELDFROM ? "YieldFrom(" : "Await(");
        if (e->left) {
            sb_adds(sb, "value=");
            dump(sb, e->left);
        }
        sb_addc(sb, ')');
        return;
    }
}

char *pyexpr_dump(Arena *a, const PyExpr *e)
{
    StrBuf sb = STRBUF_INIT;
    dump(&sb, e);
    return pysb_take(&sb, a);
}

/* ---- walking ----------------------------------------------------------- */

static bool any_list(PyExpr *const *items, size_t n,
                     bool (*visit)(const PyExpr *, void *), void *c)
{
    for (size_t i = 0; i < n; i++)
        if (items[i] && pyexpr_any(items[i], visit, c))
            return true;
    return false;
}

bool pyexpr_any(const PyExpr *e, bool (*visit)(const PyExpr *, void *), void *c)
{
    if (!e)
        return false;
    if (visit(e, c))
        return true;
    if (pyexpr_any(e->left, visit, c) || pyexpr_any(e->right, visit, c) ||
        pyexpr_any(e->test, visit, c) || any_list(e->items, e->nitems, visit, c))
        return true;
    if (e->values && any_list(e->values, e->nitems, visit, c))
        return true;
    for (size_t i = 0; i < e->nkeywords; i++)
        if (pyexpr_any(e->keywords[i].value, visit, c))
            return true;
    for (size_t i = 0; i < e->ngenerators; i++) {
        const PyComprehension *g = &e->generators[i];
        if (pyexpr_any(g->target, visit, c) || pyexpr_any(g->iter, visit, c) ||
            any_list(g->ifs, g->nifs, visit, c))
            return true;
    }
    if (e->args) {
        const PyArguments *a = e->args;
        if (any_list(a->defaults, a->ndefaults, visit, c) ||
            any_list(a->kw_defaults, a->nkwonlyargs, visit, c))
            return true;
    }
    return false;
}
