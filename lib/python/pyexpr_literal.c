/*
 * pyexpr_literal.c — ast.literal_eval(), and the display values both
 * evaluators build.
 *
 * literal_eval follows Python 3.11's rules exactly: constants, tuples,
 * lists, sets and dicts of literals, set(), +/- on a number, and complex
 * literals written "a+bj" / "a-bj".  Anything else is Python's ValueError
 * (false).  Lists, sets and dicts become opaque values that keep their
 * repr and their items.
 */
#include "python/pyexpr.h"
#include "python/pyexpr_int.h"
#include "base/strbuf.h"

#include <math.h>
#include <string.h>

const char *py_op_symbol(const char *op)
{
    static const char *const symbols[][2] = {
        { "Add", "+" }, { "Sub", "-" }, { "Mult", "*" }, { "Div", "/" },
        { "FloorDiv", "//" }, { "Mod", "%" }, { "Pow", "** or pow()" },
        { "LShift", "<<" }, { "RShift", ">>" }, { "BitOr", "|" },
        { "BitXor", "^" }, { "BitAnd", "&" }, { "MatMult", "@" },
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
        if (!strcmp(symbols[i][0], op))
            return symbols[i][1];
    return op;
}

double py_float_mod(double x, double y)
{
    double m = fmod(x, y);
    if (m) {
        if ((y < 0) != (m < 0))
            m += y;
    } else {
        m = copysign(0.0, y);
    }
    return m;
}

int py_int_float_cmp(Arena *a, const char *digits, double f)
{
    if (isnan(f))
        return 2;
    if (isinf(f))
        return f > 0 ? -1 : 1;
    /* the float's integral part as an int, exactly; its fraction
       decides a tie */
    double whole = floor(f);
    int c = pyint_cmp(digits, arena_printf(a, "%.0f", whole));
    if (c == 0 && f != whole)
        c = -1;
    return c;
}

static bool is_number(const PyValue *v)
{
    return v->kind == PY_INT || v->kind == PY_FLOAT || v->kind == PY_COMPLEX ||
           (py_is_opaque(v) && strcmp(v->type_name, "int") == 0);
}

static bool convert_num(const PyExpr *e, PyValue *out)
{
    if (e->kind != PX_CONST || !is_number(&e->value))
        return false;
    *out = e->value;
    return true;
}

static void pyvalue_negate(Arena *a, PyValue *v)
{
    switch (v->kind) {
    case PY_INT: *v = py_make_int(pyint_negate(a, v->s)); break;
    case PY_FLOAT: v->f = -v->f; break;
    case PY_COMPLEX: v->f = -v->f; v->imag = -v->imag; break;
    default: break;
    }
}

static bool convert_signed_num(Arena *a, const PyExpr *e, PyValue *out)
{
    if (e->kind == PX_UNARYOP && (strcmp(e->op, "UAdd") == 0 || strcmp(e->op, "USub") == 0)) {
        if (!convert_num(e->left, out))
            return false;
        if (e->op[1] == 'S')
            pyvalue_negate(a, out);
        return true;
    }
    return convert_num(e, out);
}

/* Numbers as doubles for mixed arithmetic (false for big ints). */
static bool pyvalue_as_double(const PyValue *v, double *d)
{
    switch (v->kind) {
    case PY_BOOL: *d = v->b; return true;
    case PY_INT: return pyint_to_double(v->s, d);
    case PY_FLOAT: *d = v->f; return true;
    default: return false;
    }
}

static bool literal(Arena *a, const PyExpr *e, PyValue *out);

/* A display of literals: its items evaluated, or false. */
static bool literal_items(Arena *a, PyExpr *const *items, size_t n, PyValue **out)
{
    PyValue *vals = arena_array_of(a, PyValue, n ? n : 1);
    for (size_t i = 0; i < n; i++)
        if (!items[i] || !literal(a, items[i], &vals[i]))
            return false;
    *out = vals;
    return true;
}

/* repr of a list/set/dict display built from values. */
static PyValue pyvalue_display(Arena *a, const char *type, const PyValue *keys,
                              const PyValue *values, size_t n)
{
    StrBuf sb = STRBUF_INIT;
    bool is_set = strcmp(type, "set") == 0, is_dict = strcmp(type, "dict") == 0;
    if (is_set && n == 0) {
        sb_adds(&sb, "set()");
    } else {
        sb_addc(&sb, type[0] == 'l' ? '[' : '{');
        size_t shown = 0;
        for (size_t i = 0; i < n; i++) {
            /* sets and dicts keep the first of equal keys */
            bool dup = false;
            size_t j;
            for (j = 0; j < i && (is_set || is_dict); j++)
                if (py_equal(&keys[j], &keys[i])) {
                    dup = true;
                    break;
                }
            if (dup)
                continue;
            if (shown++)
                sb_adds(&sb, ", ");
            pyvalue_repr(&sb, &keys[i]);
            if (is_dict) {
                /* the last value given for an equal key wins */
                size_t last = i;
                for (size_t k = i + 1; k < n; k++)
                    if (py_equal(&keys[k], &keys[i]))
                        last = k;
                sb_adds(&sb, ": ");
                pyvalue_repr(&sb, &values[last]);
            }
        }
        sb_addc(&sb, type[0] == 'l' ? ']' : '}');
    }
    PyValue v = py_make_opaque(type, pysb_take(&sb, a));
    /* the items stay, for indexing and `in`: a dict's keys are followed
       by its values */
    v.nitems = n;
    if (is_dict && n) {
        v.items = arena_array_of(a, PyValue, 2 * n);
        memcpy(v.items, keys, n * sizeof *keys);
        memcpy(v.items + n, values, n * sizeof *values);
    } else {
        v.items = (PyValue *)keys;
    }
    return v;
}

static bool literal(Arena *a, const PyExpr *e, PyValue *out)
{
    PyValue *vals, *vals2;
    switch (e->kind) {
    case PX_CONST:
        *out = e->value;
        return true;
    case PX_TUPLE:
        if (!literal_items(a, e->items, e->nitems, &vals))
            return false;
        memset(out, 0, sizeof *out);
        out->kind = PY_TUPLE;
        out->items = vals;
        out->nitems = e->nitems;
        return true;
    case PX_LIST:
    case PX_SET:
        if (!literal_items(a, e->items, e->nitems, &vals))
            return false;
        *out = pyvalue_display(a, e->kind == PX_LIST ? "list" : "set", vals, NULL, e->nitems);
        return true;
    case PX_CALL:
        if (e->left->kind == PX_NAME && strcmp(e->left->id, "set") == 0 &&
            e->nitems == 0 && e->nkeywords == 0) {
            *out = pyvalue_display(a, "set", NULL, NULL, 0);
            return true;
        }
        return false;
    case PX_DICT:
        if (!literal_items(a, e->items, e->nitems, &vals) ||
            !literal_items(a, e->values, e->nitems, &vals2))
            return false;
        *out = pyvalue_display(a, "dict", vals, vals2, e->nitems);
        return true;
    case PX_BINOP:
        if (strcmp(e->op, "Add") == 0 || strcmp(e->op, "Sub") == 0) {
            PyValue left, right;
            double l;
            if (convert_signed_num(a, e->left, &left) && convert_num(e->right, &right) &&
                (left.kind == PY_INT || left.kind == PY_FLOAT) && right.kind == PY_COMPLEX &&
                pyvalue_as_double(&left, &l)) {
                memset(out, 0, sizeof *out);
                out->kind = PY_COMPLEX;
                if (e->op[0] == 'A') {
                    out->f = l + right.f;
                    out->imag = 0.0 + right.imag;
                } else {
                    out->f = l - right.f;
                    out->imag = 0.0 - right.imag;
                }
                return true;
            }
        }
        return false;
    default:
        return convert_signed_num(a, e, out);
    }
}

bool pyexpr_literal_eval(Arena *a, const PyExpr *e, PyValue *out)
{
    return literal(a, e, out);
}
