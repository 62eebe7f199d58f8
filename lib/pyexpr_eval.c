/*
 * pyexpr_eval.c — ast.literal_eval() and eval() in clinic.py's namespace.
 *
 * literal_eval follows Python 3.11's rules exactly (constants, displays of
 * literals, signed numbers, complex "a+bj", set()).  eval() is what
 * clinic.py does with converter arguments (eval_ast_expr in its module
 * globals) and with defaults given alongside c_default (plain eval()
 * inside DSLParser.state_parameter): it must know which names exist in
 * that namespace (NameError otherwise), produce the values that matter
 * (types, sets of types, NULL/unspecified/unknown, numbers, strings,
 * sys.maxsize), and raise the exception Python would, by its repr.
 * Objects we cannot model become opaque values (py_is_opaque).
 */
#include "pyexpr.h"
#include "pyexpr_int.h"
#include "strbuf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- ast.literal_eval ------------------------------------------------- */

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

static void negate(Arena *a, PyValue *v)
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
            negate(a, out);
        return true;
    }
    return convert_num(e, out);
}

/* Numbers as doubles for mixed arithmetic (false for big ints). */
static bool as_double(const PyValue *v, double *d)
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
static PyValue opaque_display(Arena *a, const char *type, const PyValue *keys,
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

static bool all_types(const PyValue *v, size_t n, unsigned *bits)
{
    *bits = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].kind != PY_TYPE)
            return false;
        *bits |= v[i].types;
    }
    return true;
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
        *out = opaque_display(a, e->kind == PX_LIST ? "list" : "set", vals, NULL, e->nitems);
        return true;
    case PX_CALL:
        if (e->left->kind == PX_NAME && strcmp(e->left->id, "set") == 0 &&
            e->nitems == 0 && e->nkeywords == 0) {
            *out = opaque_display(a, "set", NULL, NULL, 0);
            return true;
        }
        return false;
    case PX_DICT:
        if (!literal_items(a, e->items, e->nitems, &vals) ||
            !literal_items(a, e->values, e->nitems, &vals2))
            return false;
        *out = opaque_display(a, "dict", vals, vals2, e->nitems);
        return true;
    case PX_BINOP:
        if (strcmp(e->op, "Add") == 0 || strcmp(e->op, "Sub") == 0) {
            PyValue left, right;
            double l;
            if (convert_signed_num(a, e->left, &left) && convert_num(e->right, &right) &&
                (left.kind == PY_INT || left.kind == PY_FLOAT) && right.kind == PY_COMPLEX &&
                as_double(&left, &l)) {
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

/* ---- the evaluator ------------------------------------------------------ */

typedef struct Eval {
    Arena *a;
    PyEvalScope scope;
    const char *error;
} Eval;

static bool raise(Eval *ev, const char *exc, const char *msg)
{
    StrBuf sb = STRBUF_INIT;
    sb_adds(&sb, exc);
    sb_addc(&sb, '(');
    pystr_repr(&sb, msg, strlen(msg));
    sb_addc(&sb, ')');
    ev->error = pysb_take(&sb, ev->a);
    return false;
}

static bool eval(Eval *ev, const PyExpr *e, PyValue *out);

static bool lookup_name(Eval *ev, const char *id, PyValue *out)
{
    if (pyns_lookup(ev->a, id, ev->scope, out))
        return true;
    return raise(ev, "NameError", arena_printf(ev->a, "name '%s' is not defined", id));
}

static bool eval_attribute(Eval *ev, const PyExpr *e, PyValue *out)
{
    PyValue base;
    if (!eval(ev, e->left, &base))
        return false;
    const char *attr = e->id;
    if (py_is_opaque(&base) && strcmp(base.type_name, "module") == 0 &&
        e->left->kind == PX_NAME) {
        int found = pyns_module_attr(ev->a, e->left->id, attr, out);
        if (found > 0)
            return true;
        if (found < 0)
            return raise(ev, "AttributeError",
                         arena_printf(ev->a, "module '%s' has no attribute '%s'",
                                      e->left->id, attr));
    }
    /* clinic's own sentinels have only object's (dunder) attributes */
    if (base.kind == PY_NULL || base.kind == PY_UNSPECIFIED ||
        (base.kind == PY_UNKNOWN && !base.type_name) || base.kind == PY_NONE) {
        if (strncmp(attr, "__", 2) != 0)
            return raise(ev, "AttributeError",
                         arena_printf(ev->a, "'%s' object has no attribute '%s'",
                                      py_value_type_name(&base), attr));
    }
    if ((base.kind == PY_INT || base.kind == PY_BOOL) &&
        (strcmp(attr, "real") == 0 || strcmp(attr, "numerator") == 0)) {
        *out = base.kind == PY_INT ? base : py_make_int(base.b ? "1" : "0");
        return true;
    }
    if ((base.kind == PY_INT || base.kind == PY_BOOL) &&
        (strcmp(attr, "imag") == 0 || strcmp(attr, "denominator") == 0)) {
        *out = py_make_int(attr[0] == 'i' ? "0" : "1");
        return true;
    }
    if ((base.kind == PY_FLOAT || base.kind == PY_COMPLEX) &&
        (strcmp(attr, "real") == 0 || strcmp(attr, "imag") == 0)) {
        memset(out, 0, sizeof *out);
        out->kind = PY_FLOAT;
        out->f = attr[0] == 'r' ? base.f : base.kind == PY_COMPLEX ? base.imag : 0.0;
        return true;
    }
    *out = py_make_opaque("object", arena_printf(ev->a, "<%s>", e->source ? e->source : attr));
    return true;
}

/* ---- arithmetic --------------------------------------------------------- */

static const char *const op_symbols[][2] = {
    { "Add", "+" }, { "Sub", "-" }, { "Mult", "*" }, { "Div", "/" },
    { "FloorDiv", "//" }, { "Mod", "%" }, { "Pow", "** or pow()" },
    { "LShift", "<<" }, { "RShift", ">>" }, { "BitOr", "|" },
    { "BitXor", "^" }, { "BitAnd", "&" }, { "MatMult", "@" },
};

static const char *op_symbol(const char *op)
{
    for (size_t i = 0; i < sizeof op_symbols / sizeof op_symbols[0]; i++)
        if (strcmp(op_symbols[i][0], op) == 0)
            return op_symbols[i][1];
    return op;
}

static bool unsupported(Eval *ev, const char *op, const PyValue *l, const PyValue *r)
{
    return raise(ev, "TypeError",
                 arena_printf(ev->a, "unsupported operand type(s) for %s: '%s' and '%s'",
                              op_symbol(op), py_value_type_name(l), py_value_type_name(r)));
}

static bool is_int(const PyValue *v)
{
    return v->kind == PY_INT || v->kind == PY_BOOL;
}

static bool get_i64(const PyValue *v, int64_t *out)
{
    if (v->kind == PY_BOOL) {
        *out = v->b;
        return true;
    }
    return pyint_to_i64(v->s, out);
}

static PyValue int_value(Arena *a, int64_t v)
{
    return py_make_int(arena_printf(a, "%lld", (long long)v));
}

static PyValue float_value(double d)
{
    PyValue v = { .kind = PY_FLOAT, .f = d };
    return v;
}

/* A big int we do not compute: still an int for type checks. */
static PyValue big_int(void)
{
    return py_make_opaque("int", "<int>");
}

static const char *int_text(const PyValue *v)
{
    return v->kind == PY_BOOL ? (v->b ? "1" : "0") : v->s;
}

/* x ** n for n >= 0, or NULL when the result would be absurdly long. */
static const char *int_pow(Arena *a, const char *x, int64_t n)
{
    const char *result = "1", *base = x;
    while (n > 0) {
        if (strlen(result) + strlen(base) > 20000)
            return NULL;
        if (n & 1)
            result = pyint_mul(a, result, base);
        n >>= 1;
        if (n)
            base = pyint_mul(a, base, base);
    }
    return result;
}

/* The int operations whose results we compute exactly at any size. */
static bool exact_int_binop(Eval *ev, const char *op, const PyValue *l, const PyValue *r,
                            PyValue *out)
{
    const char *x = int_text(l), *y = int_text(r);
    int64_t n;
    if (strcmp(op, "Add") == 0) {
        *out = py_make_int(pyint_add(ev->a, x, y));
    } else if (strcmp(op, "Sub") == 0) {
        *out = py_make_int(pyint_add(ev->a, x, pyint_negate(ev->a, y)));
    } else if (strcmp(op, "Mult") == 0) {
        *out = py_make_int(pyint_mul(ev->a, x, y));
    } else if ((strcmp(op, "Pow") == 0 || strcmp(op, "LShift") == 0) &&
               pyint_to_i64(y, &n) && n >= 0) {
        const char *p = op[0] == 'P' ? int_pow(ev->a, x, n) : int_pow(ev->a, "2", n);
        if (p && op[0] == 'L')
            p = pyint_mul(ev->a, x, p);
        *out = p ? py_make_int(p) : big_int();
    } else {
        return false;
    }
    return true;
}

static double py_fmod(double x, double y)
{
    double m = fmod(x, y);
    if (m != 0 && ((y < 0) != (m < 0)))
        m += y;
    else if (m == 0)
        m = copysign(0.0, y);
    return m;
}

static bool int_binop(Eval *ev, const char *op, int64_t x, int64_t y, PyValue *out)
{
    Arena *a = ev->a;
    if (strcmp(op, "Add") == 0) {
        if ((y > 0 && x > INT64_MAX - y) || (y < 0 && x < INT64_MIN - y))
            *out = big_int();
        else
            *out = int_value(a, x + y);
    } else if (strcmp(op, "Sub") == 0) {
        if ((y < 0 && x > INT64_MAX + y) || (y > 0 && x < INT64_MIN + y))
            *out = big_int();
        else
            *out = int_value(a, x - y);
    } else if (strcmp(op, "Mult") == 0) {
        if (x != 0 && y != 0 &&
            (fabs((double)x) * fabs((double)y) >= 9.2e18))
            *out = big_int();
        else
            *out = int_value(a, x * y);
    } else if (strcmp(op, "Div") == 0) {
        if (y == 0)
            return raise(ev, "ZeroDivisionError", "division by zero");
        *out = float_value((double)x / (double)y);
    } else if (strcmp(op, "FloorDiv") == 0 || strcmp(op, "Mod") == 0) {
        if (y == 0)
            return raise(ev, "ZeroDivisionError", op[0] == 'F'
                                                      ? "integer division or modulo by zero"
                                                      : "integer modulo by zero");
        if (x == INT64_MIN && y == -1) {
            *out = op[0] == 'F' ? big_int() : int_value(a, 0);
            return true;
        }
        int64_t q = x / y, r = x % y;
        if (r != 0 && ((r < 0) != (y < 0))) {
            q--;
            r += y;
        }
        *out = int_value(a, op[0] == 'F' ? q : r);
    } else if (strcmp(op, "Pow") == 0) {
        if (y < 0) {
            if (x == 0)
                return raise(ev, "ZeroDivisionError",
                             "0.0 cannot be raised to a negative power");
            *out = float_value(pow((double)x, (double)y));
            return true;
        }
        int64_t r = 1;
        for (int64_t i = 0; i < y; i++) {
            if (x != 0 && fabs((double)r) * fabs((double)x) >= 9.2e18) {
                *out = big_int();
                return true;
            }
            r *= x;
            if (r == 0 || r == 1)
                break;
        }
        *out = int_value(a, r);
    } else if (strcmp(op, "LShift") == 0 || strcmp(op, "RShift") == 0) {
        if (y < 0)
            return raise(ev, "ValueError", "negative shift count");
        if (op[0] == 'R')
            *out = int_value(a, y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
        else if (x == 0)
            *out = int_value(a, 0);
        else if (y >= 62 || fabs((double)x) * ldexp(1.0, (int)y) >= 9.2e18)
            *out = big_int();
        else
            *out = int_value(a, (int64_t)((uint64_t)x << y));
    } else if (strcmp(op, "BitOr") == 0) {
        *out = int_value(a, x | y);
    } else if (strcmp(op, "BitXor") == 0) {
        *out = int_value(a, x ^ y);
    } else if (strcmp(op, "BitAnd") == 0) {
        *out = int_value(a, x & y);
    } else {
        return false;
    }
    return true;
}

static bool float_binop(Eval *ev, const char *op, double x, double y, PyValue *out)
{
    if (strcmp(op, "Add") == 0)
        *out = float_value(x + y);
    else if (strcmp(op, "Sub") == 0)
        *out = float_value(x - y);
    else if (strcmp(op, "Mult") == 0)
        *out = float_value(x * y);
    else if (strcmp(op, "Div") == 0) {
        if (y == 0)
            return raise(ev, "ZeroDivisionError", "float division by zero");
        *out = float_value(x / y);
    } else if (strcmp(op, "FloorDiv") == 0) {
        if (y == 0)
            return raise(ev, "ZeroDivisionError", "float floor division by zero");
        *out = float_value(floor(x / y));
    } else if (strcmp(op, "Mod") == 0) {
        if (y == 0)
            return raise(ev, "ZeroDivisionError", "float modulo");
        *out = float_value(py_fmod(x, y));
    } else if (strcmp(op, "Pow") == 0) {
        if (x == 0 && y < 0)
            return raise(ev, "ZeroDivisionError", "0.0 cannot be raised to a negative power");
        *out = float_value(pow(x, y));
    } else {
        return false;
    }
    return true;
}

/* ---- what each kind of object supports ------------------------------- */

static bool opaque_is(const PyValue *v, const char *type)
{
    return py_is_opaque(v) && strcmp(v->type_name, type) == 0;
}

/* An object whose type we do not know (a local of state_parameter, an
   attribute we do not model): assume any operation on it works. */
static bool permissive(const PyValue *v)
{
    return opaque_is(v, "object");
}

static bool is_list(const PyValue *v) { return opaque_is(v, "list"); }
static bool is_dict(const PyValue *v) { return opaque_is(v, "dict"); }
static bool is_set(const PyValue *v) { return v->kind == PY_SET || opaque_is(v, "set"); }
static bool is_str(const PyValue *v) { return v->kind == PY_STR || opaque_is(v, "str"); }
static bool is_bytes(const PyValue *v) { return v->kind == PY_BYTES || opaque_is(v, "bytes"); }
static bool is_sequence(const PyValue *v)
{
    return is_str(v) || is_bytes(v) || v->kind == PY_TUPLE || is_list(v);
}
static bool unhashable(const PyValue *v)
{
    return is_list(v) || is_dict(v) || opaque_is(v, "set");
}
static bool is_big_int(const PyValue *v) { return opaque_is(v, "int"); }

static bool raise_unhashable(Eval *ev, const PyValue *v)
{
    return raise(ev, "TypeError", arena_printf(ev->a, "unhashable type: '%s'",
                                               py_value_type_name(v)));
}

/* Conversion specifiers in a %-format (not counting "%%"). */
static size_t format_specs(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (s[i] == '%') {
            if (s[i + 1] != '%')
                count++;
            i++;
        }
    return count;
}

/* Concatenates two values' item arrays (tuples and lists). */
static PyValue *join_items(Arena *a, const PyValue *l, const PyValue *r)
{
    size_t n = l->nitems + r->nitems;
    PyValue *items = arena_array_of(a, PyValue, n ? n : 1);
    if (l->nitems)
        memcpy(items, l->items, l->nitems * sizeof *items);
    if (r->nitems)
        memcpy(items + l->nitems, r->items, r->nitems * sizeof *items);
    return items;
}

/* The binary operators on everything but numbers. */
static bool sequence_binop(Eval *ev, const char *op, const PyValue *lp, const PyValue *rp,
                           PyValue *out)
{
    PyValue l = *lp, r = *rp;
    if (strcmp(op, "Add") == 0 && is_sequence(&l)) {
        const char *t = is_str(&l) ? "str" : is_bytes(&l) ? "bytes"
                      : l.kind == PY_TUPLE ? "tuple" : "list";
        bool same = strcmp(py_value_type_name(&r), t) == 0;
        if (!same) {
            if (is_bytes(&l))
                return raise(ev, "TypeError", arena_printf(ev->a, "can't concat %s to bytes",
                                                           py_value_type_name(&r)));
            return raise(ev, "TypeError",
                         arena_printf(ev->a, "can only concatenate %s (not \"%s\") to %s", t,
                                      py_value_type_name(&r), t));
        }
        if (py_is_opaque(&l) && !is_list(&l)) {
            *out = l;
            return true;
        }
        if ((l.kind == PY_STR || l.kind == PY_BYTES) && r.kind == l.kind) {
            char *s = arena_alloc(ev->a, l.len + r.len + 1);
            memcpy(s, l.s, l.len);
            memcpy(s + l.len, r.s, r.len);
            *out = l;
            out->s = s;
            out->len = l.len + r.len;
            return true;
        }
        if (r.kind != l.kind && !is_list(&r)) {
            *out = py_make_opaque(t, "<object>");
            return true;
        }
        *out = l;
        out->items = join_items(ev->a, &l, &r);
        out->nitems = l.nitems + r.nitems;
        if (is_list(&l))
            out->s = "<list>", out->len = 6;
        return true;
    }
    if (strcmp(op, "Mult") == 0 && (is_sequence(&l) || is_sequence(&r))) {
        const PyValue *seq = is_sequence(&l) ? &l : &r, *count = seq == &l ? &r : &l;
        if (!is_int(count) && !is_big_int(count))
            return raise(ev, "TypeError",
                         arena_printf(ev->a, "can't multiply sequence by non-int of type '%s'",
                                      py_value_type_name(count)));
        int64_t k;
        if ((seq->kind == PY_STR || seq->kind == PY_BYTES) && get_i64(count, &k)) {
            if (k > 0 && seq->len * (size_t)k > 100000000)
                return raise(ev, "MemoryError", "");
            StrBuf sb = STRBUF_INIT;
            for (int64_t i = 0; i < k; i++)
                sb_add(&sb, seq->s, seq->len);
            *out = *seq;
            out->len = sb.len;
            out->s = pysb_take(&sb, ev->a);
            return true;
        }
        *out = py_make_opaque(py_value_type_name(seq), "<object>");
        return true;
    }
    if (strcmp(op, "Mod") == 0 && (is_str(&l) || is_bytes(&l))) {
        if (l.kind == PY_STR || l.kind == PY_BYTES) {
            size_t specs = format_specs(l.s, l.len);
            bool empty_tuple = r.kind == PY_TUPLE && r.nitems == 0;
            if (specs == 0 && !empty_tuple && !is_dict(&r) && !permissive(&r))
                return raise(ev, "TypeError",
                             l.kind == PY_STR ? "not all arguments converted during string formatting"
                                              : "not all arguments converted during bytes formatting");
        }
        *out = py_make_opaque(py_value_type_name(&l), "<formatted>");
        return true;
    }
    if (strcmp(op, "BitOr") == 0 &&
        (l.kind == PY_TYPE || l.kind == PY_NONE || opaque_is(&l, "type") ||
         opaque_is(&l, "types.UnionType")) &&
        (r.kind == PY_TYPE || r.kind == PY_NONE || opaque_is(&r, "type") ||
         opaque_is(&r, "types.UnionType")) &&
        !(l.kind == PY_NONE && r.kind == PY_NONE)) {
        /* int | None is a types.UnionType */
        *out = py_make_opaque("types.UnionType", "<union>");
        return true;
    }
    if (is_set(&l) && is_set(&r) &&
        (strcmp(op, "BitOr") == 0 || strcmp(op, "BitAnd") == 0 || strcmp(op, "Sub") == 0 ||
         strcmp(op, "BitXor") == 0)) {
        if (l.kind == PY_SET && r.kind == PY_SET) {
            *out = l;
            out->types = op[0] == 'S' ? l.types & ~r.types
                       : strcmp(op, "BitOr") == 0 ? l.types | r.types
                       : strcmp(op, "BitAnd") == 0 ? l.types & r.types : l.types ^ r.types;
        } else {
            *out = py_make_opaque("set", "<set>");
        }
        return true;
    }
    if (strcmp(op, "BitOr") == 0 && is_dict(&l) && is_dict(&r)) {
        *out = py_make_opaque("dict", "<dict>");
        return true;
    }
    return unsupported(ev, op, &l, &r);
}

static bool eval_binop(Eval *ev, const PyExpr *e, PyValue *out)
{
    PyValue l, r;
    if (!eval(ev, e->left, &l) || !eval(ev, e->right, &r))
        return false;
    const char *op = e->op;
    if (permissive(&l) || permissive(&r)) {
        *out = py_make_opaque("object", "<object>");
        return true;
    }
    bool lbig = py_is_opaque(&l) && strcmp(l.type_name, "int") == 0;
    bool rbig = py_is_opaque(&r) && strcmp(r.type_name, "int") == 0;
    if (lbig || rbig) {
        if ((lbig || is_int(&l) || l.kind == PY_FLOAT) && (rbig || is_int(&r) || r.kind == PY_FLOAT)) {
            *out = big_int();
            return true;
        }
    }
    if (is_int(&l) && is_int(&r)) {
        if (exact_int_binop(ev, op, &l, &r, out))
            return true;
        if (ev->error)
            return false;
        int64_t x, y;
        if (get_i64(&l, &x) && get_i64(&r, &y)) {
            if (int_binop(ev, op, x, y, out))
                return true;
            if (ev->error)
                return false;
        } else if (strcmp(op, "MatMult") != 0) {
            if (strcmp(op, "Div") == 0 || strcmp(op, "FloorDiv") == 0 || strcmp(op, "Mod") == 0) {
                get_i64(&r, &y);
                if (r.kind == PY_INT && strcmp(r.s, "0") == 0)
                    return int_binop(ev, op, 0, 0, out);
            }
            *out = big_int();
            return true;
        }
        return unsupported(ev, op, &l, &r);
    }
    double x, y;
    bool lnum = is_int(&l) || l.kind == PY_FLOAT, rnum = is_int(&r) || r.kind == PY_FLOAT;
    if (lnum && rnum) {
        if (!as_double(&l, &x) || !as_double(&r, &y))
            return raise(ev, "OverflowError", "int too large to convert to float");
        if (float_binop(ev, op, x, y, out))
            return true;
        if (ev->error)
            return false;
        return unsupported(ev, op, &l, &r);
    }
    if ((lnum || l.kind == PY_COMPLEX) && (rnum || r.kind == PY_COMPLEX)) {
        double xr = l.f, xi = l.imag, yr = r.f, yi = r.imag;
        if (l.kind != PY_COMPLEX) {
            if (!as_double(&l, &xr))
                return raise(ev, "OverflowError", "int too large to convert to float");
            xi = 0;
        }
        if (r.kind != PY_COMPLEX) {
            if (!as_double(&r, &yr))
                return raise(ev, "OverflowError", "int too large to convert to float");
            yi = 0;
        }
        memset(out, 0, sizeof *out);
        out->kind = PY_COMPLEX;
        if (strcmp(op, "Add") == 0) {
            out->f = xr + yr;
            out->imag = xi + yi;
        } else if (strcmp(op, "Sub") == 0) {
            out->f = xr - yr;
            out->imag = xi - yi;
        } else if (strcmp(op, "Mult") == 0) {
            out->f = xr * yr - xi * yi;
            out->imag = xr * yi + xi * yr;
        } else if (strcmp(op, "Div") == 0) {
            if (yr == 0 && yi == 0)
                return raise(ev, "ZeroDivisionError", "complex division by zero");
            double d = yr * yr + yi * yi;
            out->f = (xr * yr + xi * yi) / d;
            out->imag = (xi * yr - xr * yi) / d;
        } else if (strcmp(op, "Pow") == 0) {
            *out = py_make_opaque("complex", "<complex>");
        } else {
            return unsupported(ev, op, &l, &r);
        }
        return true;
    }
    return sequence_binop(ev, op, &l, &r, out);
}

static bool eval_unaryop(Eval *ev, const PyExpr *e, PyValue *out)
{
    PyValue v;
    if (!eval(ev, e->left, &v))
        return false;
    if (strcmp(e->op, "Not") == 0) {
        memset(out, 0, sizeof *out);
        out->kind = PY_BOOL;
        out->b = !py_truthy(&v);
        return true;
    }
    if (py_is_opaque(&v) && strcmp(v.type_name, "int") == 0) {
        *out = v;
        return true;
    }
    if (v.kind == PY_BOOL)
        v = py_make_int(v.b ? "1" : "0");
    const char *sym = e->op[0] == 'U' ? (e->op[1] == 'S' ? "-" : "+") : "~";
    if (strcmp(e->op, "Invert") == 0) {
        int64_t x;
        if (v.kind != PY_INT)
            goto bad;
        if (!pyint_to_i64(v.s, &x) || x == INT64_MIN) {
            *out = big_int();
            return true;
        }
        *out = int_value(ev->a, ~x);
        return true;
    }
    if (v.kind != PY_INT && v.kind != PY_FLOAT && v.kind != PY_COMPLEX)
        goto bad;
    *out = v;
    if (e->op[1] == 'S')
        negate(ev->a, out);
    return true;
bad:
    if (permissive(&v)) {
        *out = py_make_opaque("object", "<object>");
        return true;
    }
    return raise(ev, "TypeError", arena_printf(ev->a, "bad operand type for unary %s: '%s'",
                                               sym, py_value_type_name(&v)));
}

static bool order(Eval *ev, const char *op, const PyValue *l, const PyValue *r, bool *res);

/* Lexicographic comparison of item arrays, as tuples and lists compare. */
static bool order_items(Eval *ev, const char *op, const PyValue *l, const PyValue *r, bool *res)
{
    size_t n = l->nitems < r->nitems ? l->nitems : r->nitems;
    for (size_t i = 0; i < n; i++) {
        if (py_equal(&l->items[i], &r->items[i]))
            continue;
        return order(ev, op, &l->items[i], &r->items[i], res);
    }
    int cmp = l->nitems < r->nitems ? -1 : l->nitems > r->nitems ? 1 : 0;
    *res = strcmp(op, "Lt") == 0 ? cmp < 0 : strcmp(op, "LtE") == 0 ? cmp <= 0
         : strcmp(op, "Gt") == 0 ? cmp > 0 : cmp >= 0;
    return true;
}

/* <, <=, >, >= where Python defines them; other pairs are a TypeError. */
static bool order(Eval *ev, const char *op, const PyValue *l, const PyValue *r, bool *res)
{
    double x, y;
    int cmp;
    bool lnum = is_int(l) || l->kind == PY_FLOAT || is_big_int(l);
    bool rnum = is_int(r) || r->kind == PY_FLOAT || is_big_int(r);
    if (permissive(l) || permissive(r)) {
        *res = false;
        return true;
    }
    if (lnum && rnum) {
        if (!as_double(l, &x) || !as_double(r, &y)) {
            *res = false;
            return true;
        }
        cmp = x < y ? -1 : x > y ? 1 : 0;
    } else if ((l->kind == PY_STR && r->kind == PY_STR) ||
               (l->kind == PY_BYTES && r->kind == PY_BYTES)) {
        size_t n = l->len < r->len ? l->len : r->len;
        cmp = memcmp(l->s, r->s, n);
        if (cmp == 0)
            cmp = l->len < r->len ? -1 : l->len > r->len ? 1 : 0;
    } else if ((l->kind == PY_TUPLE && r->kind == PY_TUPLE) || (is_list(l) && is_list(r))) {
        return order_items(ev, op, l, r, res);
    } else if (is_set(l) && is_set(r)) {
        /* subset order; exact only for sets of clinic's types */
        unsigned a = l->kind == PY_SET ? l->types : 0, b = r->kind == PY_SET ? r->types : 0;
        bool sub = (a & ~b) == 0, sup = (b & ~a) == 0;
        *res = strcmp(op, "Lt") == 0 ? sub && a != b : strcmp(op, "LtE") == 0 ? sub
             : strcmp(op, "Gt") == 0 ? sup && a != b : sup;
        return true;
    } else if ((is_str(l) && is_str(r)) || (is_bytes(l) && is_bytes(r))) {
        *res = false;
        return true;
    } else {
        const char *sym = strcmp(op, "Lt") == 0 ? "<" : strcmp(op, "LtE") == 0 ? "<="
                        : strcmp(op, "Gt") == 0 ? ">" : ">=";
        return raise(ev, "TypeError",
                     arena_printf(ev->a, "'%s' not supported between instances of '%s' and '%s'",
                                  sym, py_value_type_name(l), py_value_type_name(r)));
    }
    *res = strcmp(op, "Lt") == 0 ? cmp < 0 : strcmp(op, "LtE") == 0 ? cmp <= 0
         : strcmp(op, "Gt") == 0 ? cmp > 0 : cmp >= 0;
    return true;
}

static bool find_bytes(const char *hay, size_t n, const char *needle, size_t m)
{
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(hay + i, needle, m) == 0)
            return true;
    return false;
}

static bool contains(Eval *ev, const PyValue *item, const PyValue *seq, bool *res)
{
    *res = false;
    if (permissive(seq))
        return true;
    if (seq->kind == PY_TUPLE || is_list(seq)) {
        for (size_t i = 0; i < seq->nitems; i++)
            if (py_equal(item, &seq->items[i]))
                *res = true;
        return true;
    }
    if (is_set(seq) || is_dict(seq)) {
        if (unhashable(item))
            return raise_unhashable(ev, item);
        if (seq->kind == PY_SET)
            *res = item->kind == PY_TYPE && (seq->types & item->types);
        else
            for (size_t i = 0; i < seq->nitems; i++)
                if (py_equal(item, &seq->items[i]))
                    *res = true;
        return true;
    }
    if (is_str(seq)) {
        if (!is_str(item) && !permissive(item))
            return raise(ev, "TypeError",
                         arena_printf(ev->a, "'in <string>' requires string as left operand, not %s",
                                      py_value_type_name(item)));
        if (seq->kind == PY_STR && item->kind == PY_STR)
            *res = find_bytes(seq->s, seq->len, item->s, item->len);
        return true;
    }
    if (is_bytes(seq)) {
        if (item->kind == PY_BYTES && seq->kind == PY_BYTES) {
            *res = find_bytes(seq->s, seq->len, item->s, item->len);
            return true;
        }
        int64_t byte;
        if (is_int(item) && get_i64(item, &byte)) {
            if (byte < 0 || byte > 255)
                return raise(ev, "ValueError", "byte must be in range(0, 256)");
            if (seq->kind == PY_BYTES)
                *res = memchr(seq->s, (int)byte, seq->len) != NULL;
            return true;
        }
        if (permissive(item) || is_bytes(item))
            return true;
        return raise(ev, "TypeError", arena_printf(ev->a, "a bytes-like object is required, not '%s'",
                                                   py_value_type_name(item)));
    }
    if (opaque_is(seq, "type") || opaque_is(seq, "builtin_function_or_method") ||
        opaque_is(seq, "function") || opaque_is(seq, "module") || !py_is_opaque(seq))
        return raise(ev, "TypeError", arena_printf(ev->a, "argument of type '%s' is not iterable",
                                                   py_value_type_name(seq)));
    return true;
}

static bool eval_compare(Eval *ev, const PyExpr *e, PyValue *out)
{
    PyValue l;
    if (!eval(ev, e->left, &l))
        return false;
    memset(out, 0, sizeof *out);
    out->kind = PY_BOOL;
    out->b = true;
    for (size_t i = 0; i < e->nitems; i++) {
        PyValue r;
        bool res = false;
        if (!eval(ev, e->items[i], &r))
            return false;
        const char *op = e->ops[i];
        if (strcmp(op, "Eq") == 0 || strcmp(op, "NotEq") == 0) {
            res = py_equal(&l, &r) == (op[0] == 'E');
        } else if (strcmp(op, "Is") == 0 || strcmp(op, "IsNot") == 0) {
            /* identity: singletons and types are the same objects */
            bool same = l.kind == r.kind && py_equal(&l, &r) && !py_is_opaque(&l) &&
                        (l.kind == PY_NONE || l.kind == PY_BOOL || l.kind == PY_NULL ||
                         l.kind == PY_UNSPECIFIED || l.kind == PY_UNKNOWN || l.kind == PY_TYPE);
            res = same == (strcmp(op, "Is") == 0);
        } else if (strcmp(op, "In") == 0 || strcmp(op, "NotIn") == 0) {
            if (!contains(ev, &l, &r, &res))
                return false;
            if (op[0] == 'N')
                res = !res;
        } else if (!order(ev, op, &l, &r, &res)) {
            return false;
        }
        if (!res) {
            out->b = false;
            return true;
        }
        l = r;
    }
    return true;
}

static bool eval_items(Eval *ev, PyExpr *const *items, size_t n, PyValue **out)
{
    PyValue *vals = arena_array_of(ev->a, PyValue, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        if (items[i]->kind == PX_STARRED) {
            /* unpacking: the result's length is unknown to us */
            if (!eval(ev, items[i]->left, &vals[i]))
                return false;
            vals[i] = py_make_opaque("object", "<unpacked>");
            continue;
        }
        if (!eval(ev, items[i], &vals[i]))
            return false;
    }
    *out = vals;
    return true;
}

static bool eval_call(Eval *ev, const PyExpr *e, PyValue *out)
{
    PyValue f, *args;
    if (!eval(ev, e->left, &f) || !eval_items(ev, e->items, e->nitems, &args))
        return false;
    for (size_t i = 0; i < e->nkeywords; i++) {
        PyValue kv;
        if (!eval(ev, e->keywords[i].value, &kv))
            return false;
    }
    if (f.kind == PY_TYPE && e->nitems == 0 && e->nkeywords == 0) {
        switch (f.types) {
        case PYT_INT: *out = py_make_int("0"); return true;
        case PYT_FLOAT: *out = float_value(0.0); return true;
        case PYT_STR: *out = py_make_str("", 0); return true;
        case PYT_BOOL:
            memset(out, 0, sizeof *out);
            out->kind = PY_BOOL;
            return true;
        case PYT_BYTES:
            *out = py_make_str("", 0);
            out->kind = PY_BYTES;
            return true;
        default: break;
        }
    }
    if (py_is_opaque(&f) && strcmp(f.type_name, "type") == 0 &&
        strcmp(f.s, "<class 'set'>") == 0 && e->nitems == 0 && e->nkeywords == 0) {
        *out = opaque_display(ev->a, "set", NULL, NULL, 0);
        return true;
    }
    if (f.kind == PY_TYPE || py_is_opaque(&f)) {
        *out = py_make_opaque(f.kind == PY_TYPE ? py_type_name(f.types) : "object", "<object>");
        return true;
    }
    return raise(ev, "TypeError", arena_printf(ev->a, "'%s' object is not callable",
                                               py_value_type_name(&f)));
}

static bool eval_subscript(Eval *ev, const PyExpr *e, PyValue *out)
{
    PyValue v, idx;
    if (!eval(ev, e->left, &v))
        return false;
    if (e->right->kind == PX_SLICE) {
        const PyExpr *s = e->right;
        PyValue part;
        if ((s->left && !eval(ev, s->left, &part)) || (s->right && !eval(ev, s->right, &part)) ||
            (s->test && !eval(ev, s->test, &part)))
            return false;
        *out = py_make_opaque(py_value_type_name(&v), "<slice>");
        return true;
    }
    if (!eval(ev, e->right, &idx))
        return false;
    int64_t i;
    if (py_is_opaque(&v) && strcmp(v.type_name, "list") == 0) {
        if (!is_int(&idx))
            return raise(ev, "TypeError",
                         arena_printf(ev->a, "list indices must be integers or slices, not %s",
                                      py_value_type_name(&idx)));
        int64_t n = (int64_t)v.nitems;
        if (!get_i64(&idx, &i))
            i = n;
        if (i < 0)
            i += n;
        if (i < 0 || i >= n)
            return raise(ev, "IndexError", "list index out of range");
        *out = v.items[i];
        return true;
    }
    if ((v.kind == PY_TUPLE || v.kind == PY_STR || v.kind == PY_BYTES) && is_int(&idx) &&
        get_i64(&idx, &i)) {
        int64_t n = v.kind == PY_TUPLE ? (int64_t)v.nitems : (int64_t)v.len;
        if (i < 0)
            i += n;
        if (i < 0 || i >= n)
            return raise(ev, "IndexError", v.kind == PY_TUPLE ? "tuple index out of range"
                                         : v.kind == PY_STR ? "string index out of range"
                                                            : "index out of range");
        if (v.kind == PY_TUPLE)
            *out = v.items[i];
        else if (v.kind == PY_BYTES)
            *out = int_value(ev->a, (unsigned char)v.s[i]);
        else
            *out = py_make_opaque("str", "<char>");
        return true;
    }
    if (py_is_opaque(&v) || v.kind == PY_TYPE) {
        *out = py_make_opaque("object", "<object>");
        return true;
    }
    if (v.kind == PY_TUPLE || v.kind == PY_STR || v.kind == PY_BYTES)
        return raise(ev, "TypeError",
                     arena_printf(ev->a, "%s indices must be integers or slices, not %s",
                                  py_value_type_name(&v), py_value_type_name(&idx)));
    return raise(ev, "TypeError", arena_printf(ev->a, "'%s' object is not subscriptable",
                                               py_value_type_name(&v)));
}

static bool eval(Eval *ev, const PyExpr *e, PyValue *out)
{
    PyValue *vals, *vals2;
    switch (e->kind) {
    case PX_CONST:
        *out = e->value;
        return true;
    case PX_NAME:
        return lookup_name(ev, e->id, out);
    case PX_ATTRIBUTE:
        return eval_attribute(ev, e, out);
    case PX_CALL:
        return eval_call(ev, e, out);
    case PX_UNARYOP:
        return eval_unaryop(ev, e, out);
    case PX_BINOP:
        return eval_binop(ev, e, out);
    case PX_BOOLOP:
        for (size_t i = 0; i < e->nitems; i++) {
            if (!eval(ev, e->items[i], out))
                return false;
            bool t = py_truthy(out);
            if ((e->op[0] == 'A') != t)
                return true;
        }
        return true;
    case PX_COMPARE:
        return eval_compare(ev, e, out);
    case PX_IFEXP: {
        PyValue t;
        if (!eval(ev, e->test, &t))
            return false;
        return eval(ev, py_truthy(&t) ? e->left : e->right, out);
    }
    case PX_TUPLE:
        if (!eval_items(ev, e->items, e->nitems, &vals))
            return false;
        memset(out, 0, sizeof *out);
        out->kind = PY_TUPLE;
        out->items = vals;
        out->nitems = e->nitems;
        return true;
    case PX_SET: {
        unsigned bits;
        if (!eval_items(ev, e->items, e->nitems, &vals))
            return false;
        if (all_types(vals, e->nitems, &bits)) {
            memset(out, 0, sizeof *out);
            out->kind = PY_SET;
            out->types = bits;
        } else {
            *out = opaque_display(ev->a, "set", vals, NULL, e->nitems);
        }
        return true;
    }
    case PX_LIST:
        if (!eval_items(ev, e->items, e->nitems, &vals))
            return false;
        *out = opaque_display(ev->a, "list", vals, NULL, e->nitems);
        return true;
    case PX_DICT:
        vals = arena_array_of(ev->a, PyValue, e->nitems ? e->nitems : 1);
        vals2 = arena_array_of(ev->a, PyValue, e->nitems ? e->nitems : 1);
        for (size_t i = 0; i < e->nitems; i++) {
            if ((e->items[i] && !eval(ev, e->items[i], &vals[i])) ||
                !eval(ev, e->values[i], &vals2[i]))
                return false;
            if (!e->items[i])
                return (*out = py_make_opaque("dict", "{...}")), true;
        }
        *out = opaque_display(ev->a, "dict", vals, vals2, e->nitems);
        return true;
    case PX_LAMBDA:
        *out = py_make_opaque("function", "<function <lambda>>");
        return true;
    case PX_JOINEDSTR:
        for (size_t i = 0; i < e->nitems; i++)
            if (e->items[i]->kind == PX_FORMATTEDVALUE && !eval(ev, e->items[i]->left, out))
                return false;
        *out = py_make_opaque("str", "<f-string>");
        return true;
    case PX_NAMEDEXPR:
        return eval(ev, e->right, out);
    case PX_SUBSCRIPT:
        return eval_subscript(ev, e, out);
    case PX_GENEXP:
        *out = py_make_opaque("generator", "<generator object <genexpr>>");
        return true;
    case PX_LISTCOMP:
    case PX_SETCOMP:
    case PX_DICTCOMP: {
        /* the first iterable is evaluated in the enclosing scope */
        PyValue it;
        if (e->ngenerators && !eval(ev, e->generators[0].iter, &it))
            return false;
        *out = py_make_opaque(e->kind == PX_LISTCOMP ? "list" : e->kind == PX_SETCOMP ? "set" : "dict",
                              "<comprehension>");
        return true;
    }
    case PX_STARRED:
        return raise(ev, "SyntaxError", "can't use starred expression here");
    case PX_YIELD:
    case PX_YIELDFROM:
        return raise(ev, "SyntaxError", "'yield' outside function");
    case PX_AWAIT:
        return raise(ev, "SyntaxError", "'await' outside function");
    case PX_SLICE:
    case PX_FORMATTEDVALUE:
        break;
    }
    *out = py_make_opaque("object", "<object>");
    return true;
}

bool pyexpr_eval_in(Arena *a, const PyExpr *e, PyEvalScope scope, PyValue *out,
                    const char **error)
{
    Eval ev = { .a = a, .scope = scope };
    PyValue v;
    if (eval(&ev, e, &v)) {
        *out = v;
        if (error)
            *error = NULL;
        return true;
    }
    if (error)
        *error = ev.error;
    return false;
}

bool pyexpr_eval(Arena *a, const PyExpr *e, PyValue *out, const char **error)
{
    return pyexpr_eval_in(a, e, PY_SCOPE_GLOBALS, out, error);
}
