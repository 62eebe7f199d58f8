/*
 * pyexpr_eval.c — eval() in clinic.py's namespace.
 *
 * clinic.py evaluates converter arguments (eval_ast_expr in its module
 * globals) and defaults given alongside c_default (a bare eval() inside
 * DSLParser.state_parameter).  The results that matter are the values
 * (types, sets of types, NULL/unspecified/unknown, numbers, strings,
 * sys.maxsize) and whether Python raises, with which exception: clinic
 * prints its repr.  So arithmetic is exact (ints of any size for + - *
 * ** <<), and every operation raises the TypeError, ZeroDivisionError,
 * IndexError ... CPython 3.11 would, with its message.  Objects we cannot
 * model are opaque values (py_is_opaque) that know their type, so they
 * still fail where Python's would.
 */
#include "python/pyexpr.h"
#include "python/pyexpr_int.h"
#include "python/pyvm_int.h"
#include "base/strbuf.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the evaluator ------------------------------------------------------ */

typedef struct Eval {
    Arena *a;
    PyEvalScope scope;
    PyException exc;      /* what was raised: exc.type NULL until then */
    size_t built;         /* bytes of strs, bytes and tuples built so far */
    uint64_t work;        /* work done so far (see spend) */
} Eval;

/* What one evaluation may build.  Python builds any str its memory
   holds; ours stay in the file's arena until the file is done, and no
   C initialiser needs more. */
#define EVAL_BUILD_LIMIT ((size_t)16 << 20)

/* Raises type(*args): message is str() of it, args_repr the arguments
   as its repr() shows them. */
static bool raise_args(Eval *ev, const char *type, const char *message,
                       const char *args_repr)
{
    ev->exc.type = type;
    ev->exc.message = message;
    ev->exc.repr = arena_printf(ev->a, "%s(%s)", type, args_repr);
    return false;
}

/* Raises type(msg), or type() when msg is NULL. */
static bool raise(Eval *ev, const char *exc, const char *msg)
{
    if (!msg)
        return raise_args(ev, exc, "", "");
    StrBuf sb = STRBUF_INIT;
    pystr_repr(&sb, msg, strlen(msg));
    return raise_args(ev, exc, msg, pysb_take(&sb, ev->a));
}

/* Counts bytes the evaluation builds: MemoryError past the limit. */
static bool charge(Eval *ev, size_t bytes)
{
    if (bytes <= EVAL_BUILD_LIMIT - ev->built) {
        ev->built += bytes;
        return true;
    }
    return raise(ev, "MemoryError",
                 arena_printf(ev->a, "the value built here passes %zu MiB: clinic stops there",
                              EVAL_BUILD_LIMIT >> 20));
}

/* Counts work the evaluation does, before it does it, in the units and
   with the budget of the interpreter's (vm_work in pyvm_int.h): a file's
   python blocks may work that much, and so may one expression.
   RuntimeError past it. */
static bool spend(Eval *ev, uint64_t units)
{
    if (units <= WORK_LIMIT - ev->work) {
        ev->work += units;
        return true;
    }
    return raise(ev, "RuntimeError",
                 arena_printf(ev->a, "the expression did more work than clinic allows "
                              "(%llu units: big-int limb steps, bytes searched): "
                              "clinic stops it there",
                              (unsigned long long)WORK_LIMIT));
}

/* The work of x * y, as the interpreter charges it (vm_int_work). */
static bool spend_mul(Eval *ev, const char *x, const char *y)
{
    return spend(ev, vm_work_of(pyint_work(x, y), WORK_LIMB));
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
        int found = pyns_module_attr(e->left->id, attr, out);
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
    *out = py_make_uncomputed("object", arena_printf(ev->a, "<%s>", e->source ? e->source : attr));
    return true;
}

/* ---- arithmetic --------------------------------------------------------- */

static bool unsupported(Eval *ev, const char *op, const PyValue *l, const PyValue *r)
{
    return raise(ev, "TypeError",
                 arena_printf(ev->a, "unsupported operand type(s) for %s: '%s' and '%s'",
                              py_op_symbol(op), py_value_type_name(l), py_value_type_name(r)));
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
    return py_make_uncomputed("int", "<int>");
}

static const char *int_text(const PyValue *v)
{
    return v->kind == PY_BOOL ? (v->b ? "1" : "0") : v->s;
}

/* x ** n for n >= 0, or NULL when the result would be absurdly long
   (or, with ev->exc set, the work is past the budget). */
static const char *int_pow(Eval *ev, const char *x, int64_t n)
{
    const char *result = "1", *base = x;
    while (n > 0) {
        if (strlen(result) + strlen(base) > 3000)
            return NULL;
        if (n & 1) {
            if (!spend_mul(ev, result, base))
                return NULL;
            result = pyint_mul(ev->a, result, base);
        }
        n >>= 1;
        if (n) {
            if (!spend_mul(ev, base, base))
                return NULL;
            base = pyint_mul(ev->a, base, base);
        }
    }
    return result;
}

/* The int operations whose results we compute exactly at any size. */
static bool exact_int_binop(Eval *ev, const char *op, const PyValue *l, const PyValue *r,
                            PyValue *out)
{
    const char *x = int_text(l), *y = int_text(r);
    int64_t n;
    if (strcmp(op, "Add") == 0 || strcmp(op, "Sub") == 0) {
        if (!spend(ev, strlen(x) + strlen(y)))
            return false;
        *out = py_make_int(pyint_add(ev->a, x, op[0] == 'A' ? y : pyint_negate(ev->a, y)));
    } else if (strcmp(op, "Mult") == 0) {
        if (!spend_mul(ev, x, y))
            return false;
        *out = py_make_int(pyint_mul(ev->a, x, y));
    } else if (strcmp(op, "LShift") == 0 && strcmp(x, "0") != 0 && *y != '-' &&
               (!pyint_to_i64(y, &n) || n > INT32_MAX)) {
        /* CPython cannot allocate such an int */
        return pyint_to_i64(y, &n) ? raise(ev, "MemoryError", NULL)
                                   : raise(ev, "OverflowError", "too many digits in integer");
    } else if ((strcmp(op, "Pow") == 0 || strcmp(op, "LShift") == 0) &&
               pyint_to_i64(y, &n) && n >= 0) {
        const char *p = op[0] == 'P' ? int_pow(ev, x, n) : int_pow(ev, "2", n);
        if (ev->exc.type)
            return false;
        if (p && op[0] == 'L') {
            if (!spend_mul(ev, x, p))
                return false;
            p = pyint_mul(ev->a, x, p);
        }
        *out = p ? py_make_int(p) : big_int();
    } else {
        return false;
    }
    return true;
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
        *out = float_value(py_float_mod(x, y));
    } else if (strcmp(op, "Pow") == 0) {
        if (x == 0 && y < 0)
            return raise(ev, "ZeroDivisionError", "0.0 cannot be raised to a negative power");
        double r = pow(x, y);
        if (isinf(r) && isfinite(x) && isfinite(y)) {
            /* CPython reports the C library's ERANGE as an OSError-style pair */
            return raise_args(ev, "OverflowError",
                              "(34, 'Numerical result out of range')",
                              "34, 'Numerical result out of range'");
        }
        *out = float_value(r);
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
    return is_list(v) || is_dict(v) || is_set(v);
}

/* Objects that are neither numbers, strings nor containers. */
static bool is_plain_object(const PyValue *v)
{
    return opaque_is(v, "module") || opaque_is(v, "function") || opaque_is(v, "type") ||
           opaque_is(v, "builtin_function_or_method") || opaque_is(v, "ellipsis") ||
           opaque_is(v, "NotImplementedType") || opaque_is(v, "types.UnionType");
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
            if (!charge(ev, l.len + r.len))
                return false;
            char *s = arena_alloc(ev->a, l.len + r.len + 1);
            memcpy(s, l.s, l.len);
            memcpy(s + l.len, r.s, r.len);
            *out = l;
            out->s = s;
            out->len = l.len + r.len;
            return true;
        }
        if ((r.kind != l.kind && !is_list(&r)) || l.uncomputed || r.uncomputed) {
            *out = py_make_uncomputed(t, "<object>");
            return true;
        }
        PyValue *items = join_items(ev->a, &l, &r);
        if (is_list(&l)) {
            *out = pyvalue_display(ev->a, "list", items, NULL, l.nitems + r.nitems);
            return true;
        }
        *out = l;
        out->items = items;
        out->nitems = l.nitems + r.nitems;
        return true;
    }
    if (strcmp(op, "Mult") == 0 && (is_sequence(&l) || is_sequence(&r))) {
        const PyValue *seq = is_sequence(&l) ? &l : &r, *count = seq == &l ? &r : &l;
        if (!is_int(count) && !is_big_int(count))
            return raise(ev, "TypeError",
                         arena_printf(ev->a, "can't multiply sequence by non-int of type '%s'",
                                      py_value_type_name(count)));
        int64_t k;
        if (!get_i64(count, &k))
            return raise(ev, "OverflowError", "cannot fit 'int' into an index-sized integer");
        if (seq->kind == PY_STR || seq->kind == PY_BYTES) {
            size_t total = k > 0 && seq->len ? seq->len * (size_t)k : 0;
            if (k > 0 && seq->len > (size_t)(INT64_MAX / k))
                return raise(ev, "OverflowError", seq->kind == PY_STR
                                                      ? "repeated string is too long"
                                                      : "repeated bytes are too long");
            if (!charge(ev, total))
                return false;
            /* the copies double: a few memcpy calls, not k */
            char *buf = arena_alloc_uninit(ev->a, total + 1);
            size_t done = total ? seq->len : 0;
            if (done)
                memcpy(buf, seq->s, done);
            while (done < total) {
                size_t n = done < total - done ? done : total - done;
                memcpy(buf + done, buf, n);
                done += n;
            }
            buf[total] = '\0';
            *out = *seq;
            out->len = total;
            out->s = buf;
            return true;
        }
        if ((seq->kind == PY_TUPLE || is_list(seq)) && seq->nitems && k > 0 &&
            (double)k * (double)seq->nitems > 1e12)
            return raise(ev, "MemoryError", NULL);
        if (seq->kind == PY_TUPLE &&
            (k <= 0 || seq->nitems == 0 || seq->nitems * (size_t)k <= 100000)) {
            size_t total = k <= 0 ? 0 : seq->nitems * (size_t)k;
            if (!charge(ev, total * sizeof(PyValue)))
                return false;
            *out = *seq;
            out->nitems = total;
            out->items = arena_array_of(ev->a, PyValue, total ? total : 1);
            for (size_t i = 0; i < total; i++)
                out->items[i] = seq->items[i % seq->nitems];
            return true;
        }
        *out = py_make_uncomputed(py_value_type_name(seq), "<object>");
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
        *out = py_make_uncomputed(py_value_type_name(&l), "<formatted>");
        return true;
    }
    if (strcmp(op, "BitOr") == 0 &&
        (l.kind == PY_TYPE || l.kind == PY_NONE || opaque_is(&l, "type") ||
         opaque_is(&l, "types.UnionType")) &&
        (r.kind == PY_TYPE || r.kind == PY_NONE || opaque_is(&r, "type") ||
         opaque_is(&r, "types.UnionType")) &&
        !(l.kind == PY_NONE && r.kind == PY_NONE)) {
        /* int | None is a types.UnionType */
        *out = py_make_uncomputed("types.UnionType", "<union>");
        return true;
    }
    if (is_set(&l) && is_set(&r) &&
        (strcmp(op, "BitOr") == 0 || strcmp(op, "BitAnd") == 0 || strcmp(op, "Sub") == 0 ||
         strcmp(op, "BitXor") == 0)) {
        if (l.kind == PY_SET && r.kind == PY_SET) {
            *out = l;
            out->items = NULL;
            out->nitems = 0;
            out->types = op[0] == 'S' ? l.types & ~r.types
                       : strcmp(op, "BitOr") == 0 ? l.types | r.types
                       : strcmp(op, "BitAnd") == 0 ? l.types & r.types : l.types ^ r.types;
        } else {
            *out = py_make_uncomputed("set", "<set>");
        }
        return true;
    }
    if (strcmp(op, "BitOr") == 0 && is_dict(&l) && is_dict(&r)) {
        *out = py_make_uncomputed("dict", "<dict>");
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
        *out = py_make_uncomputed("object", "<object>");
        return true;
    }
    /* a complex result we did not compute still combines with numbers */
    bool lnumeric = is_int(&l) || l.kind == PY_FLOAT || l.kind == PY_COMPLEX || is_big_int(&l);
    bool rnumeric = is_int(&r) || r.kind == PY_FLOAT || r.kind == PY_COMPLEX || is_big_int(&r);
    if ((opaque_is(&l, "complex") && (rnumeric || opaque_is(&r, "complex"))) ||
        (opaque_is(&r, "complex") && lnumeric)) {
        if (strcmp(op, "FloorDiv") == 0 || strcmp(op, "Mod") == 0 || strcmp(op, "LShift") == 0 ||
            strcmp(op, "RShift") == 0 || strcmp(op, "BitAnd") == 0 || strcmp(op, "BitOr") == 0 ||
            strcmp(op, "BitXor") == 0 || strcmp(op, "MatMult") == 0)
            return unsupported(ev, op, &l, &r);
        *out = py_make_uncomputed("complex", "<complex>");
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
    if (l.kind == PY_BOOL && r.kind == PY_BOOL &&
        (strcmp(op, "BitAnd") == 0 || strcmp(op, "BitOr") == 0 || strcmp(op, "BitXor") == 0)) {
        *out = l;
        out->b = op[3] == 'A' ? (l.b && r.b) : op[3] == 'O' ? (l.b || r.b) : (l.b != r.b);
        return true;
    }
    if (is_int(&l) && is_int(&r)) {
        if (exact_int_binop(ev, op, &l, &r, out))
            return true;
        if (ev->exc.type)
            return false;
        int64_t x, y;
        if (get_i64(&l, &x) && get_i64(&r, &y)) {
            if (int_binop(ev, op, x, y, out))
                return true;
            if (ev->exc.type)
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
        if (!pyvalue_as_double(&l, &x) || !pyvalue_as_double(&r, &y))
            return raise(ev, "OverflowError", "int too large to convert to float");
        if (float_binop(ev, op, x, y, out))
            return true;
        if (ev->exc.type)
            return false;
        return unsupported(ev, op, &l, &r);
    }
    if ((lnum || l.kind == PY_COMPLEX) && (rnum || r.kind == PY_COMPLEX)) {
        double xr = l.f, xi = l.imag, yr = r.f, yi = r.imag;
        if (l.kind != PY_COMPLEX) {
            if (!pyvalue_as_double(&l, &xr))
                return raise(ev, "OverflowError", "int too large to convert to float");
            xi = 0;
        }
        if (r.kind != PY_COMPLEX) {
            if (!pyvalue_as_double(&r, &yr))
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
            if (xr == 0 && xi == 0) {
                if (yi != 0 || yr < 0)
                    return raise(ev, "ZeroDivisionError", "0.0 to a negative or complex power");
                out->f = yr == 0 ? 1.0 : 0.0;
                out->imag = 0.0;
                return true;
            }
            *out = py_make_uncomputed("complex", "<complex>");
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
        if (py_is_uncomputed(&v)) {
            *out = py_make_uncomputed("bool", "<bool>");
            return true;
        }
        memset(out, 0, sizeof *out);
        out->kind = PY_BOOL;
        out->b = !py_truthy(&v);
        return true;
    }
    if (is_big_int(&v) || (opaque_is(&v, "complex") && strcmp(e->op, "Invert") != 0)) {
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
        pyvalue_negate(ev->a, out);
    return true;
bad:
    if (permissive(&v)) {
        *out = py_make_uncomputed("object", "<object>");
        return true;
    }
    return raise(ev, "TypeError", arena_printf(ev->a, "bad operand type for unary %s: '%s'",
                                               sym, py_value_type_name(&v)));
}

static bool order(Eval *ev, const char *op, const PyValue *l, const PyValue *r, bool *res);

/* Membership in a set value: PY_SET holds types, an opaque set its items. */
static bool set_has(const PyValue *set, const PyValue *item)
{
    if (set->kind == PY_SET)
        return item->kind == PY_TYPE && (set->types & item->types);
    for (size_t i = 0; i < set->nitems; i++)
        if (py_equal(&set->items[i], item))
            return true;
    return false;
}

/* Every member of a is in b. */
static bool set_subset(const PyValue *a, const PyValue *b)
{
    if (a->kind == PY_SET) {
        for (unsigned t = a->types; t; t &= t - 1) {
            PyValue member = { .kind = PY_TYPE, .types = t & -t };
            if (!set_has(b, &member))
                return false;
        }
        return true;
    }
    for (size_t i = 0; i < a->nitems; i++)
        if (!set_has(b, &a->items[i]))
            return false;
    return true;
}

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
    if (is_int(l) && is_int(r)) {
        /* exactly, at any size */
        cmp = pyint_cmp(int_text(l), int_text(r));
    } else if ((is_int(l) && r->kind == PY_FLOAT) ||
               (l->kind == PY_FLOAT && is_int(r))) {
        /* exactly too: 10**400 > 1.5, though 10**400 is no double */
        cmp = is_int(l) ? py_int_float_cmp(ev->a, int_text(l), r->f)
                        : -py_int_float_cmp(ev->a, int_text(r), l->f);
        if (cmp == 2 || cmp == -2) {   /* a NaN: every order is false */
            *res = false;
            return true;
        }
    } else if (lnum && rnum) {
        if (!pyvalue_as_double(l, &x) || !pyvalue_as_double(r, &y)) {
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
        /* sets are ordered by inclusion */
        bool sub = set_subset(l, r), sup = set_subset(r, l);
        *res = strcmp(op, "Lt") == 0 ? sub && !sup : strcmp(op, "LtE") == 0 ? sub
             : strcmp(op, "Gt") == 0 ? sup && !sub : sup;
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

/* item in seq for two strs or two bytes: a search in linear time. */
static bool find_bytes(Eval *ev, const PyValue *item, const PyValue *seq, bool *res)
{
    uint64_t work;
    *res = py_find(seq->s, seq->len, item->s, item->len, false, &work) != SIZE_MAX;
    return spend(ev, work);
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
        /* set.__contains__ looks a set up as a frozenset */
        if (unhashable(item) && !(is_set(seq) && is_set(item)))
            return raise_unhashable(ev, item);
        if (is_set(seq))
            *res = set_has(seq, item);
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
            return find_bytes(ev, item, seq, res);
        return true;
    }
    if (is_bytes(seq)) {
        if (item->kind == PY_BYTES && seq->kind == PY_BYTES)
            return find_bytes(ev, item, seq, res);
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
    if (!opaque_is(seq, "generator"))
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
        if (py_is_uncomputed(&l) || py_is_uncomputed(&r)) {
            /* what a stand-in compares to is not known either */
            *out = py_make_uncomputed("bool", "<bool>");
            return true;
        }
        const char *op = e->ops[i];
        if (strcmp(op, "Eq") == 0 || strcmp(op, "NotEq") == 0) {
            res = py_equal(&l, &r) == (op[0] == 'E');
        } else if (strcmp(op, "Is") == 0 || strcmp(op, "IsNot") == 0) {
            /* identity: singletons and types are the same objects */
            /* singletons, types, and equal constants of one code object
               (which the compiler merges) are the same object */
            bool same = l.kind == r.kind && py_equal(&l, &r) && l.kind != PY_SET &&
                        (!py_is_opaque(&l) || is_plain_object(&l));
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
            vals[i] = py_make_uncomputed("object", "<unpacked>");
            continue;
        }
        if (!eval(ev, items[i], &vals[i]))
            return false;
    }
    *out = vals;
    return true;
}

/* len() of a value, or -1 when it has none or we do not know it. */
static int64_t value_len(const PyValue *v)
{
    if (v->uncomputed)
        return -1;   /* a comprehension's list: its items are not kept */
    if (v->kind == PY_STR) {
        int64_t n = 0;
        for (size_t i = 0; i < v->len; i++)
            n += ((unsigned char)v->s[i] & 0xC0) != 0x80;
        return n;
    }
    if (v->kind == PY_BYTES)
        return (int64_t)v->len;
    if (v->kind == PY_TUPLE || is_list(v))
        return (int64_t)v->nitems;
    if ((is_dict(v) || opaque_is(v, "set")) && v->items) {
        int64_t n = 0;
        for (size_t i = 0; i < v->nitems; i++) {
            size_t j = 0;
            while (j < i && !py_equal(&v->items[j], &v->items[i]))
                j++;
            n += j == i;
        }
        return n;
    }
    if (v->kind == PY_SET) {
        int64_t n = 0;
        for (unsigned t = v->types; t; t &= t - 1)
            n++;
        return n;
    }
    return -1;
}

/* int(x), float(x), str(x), bool(x), len(x) and set(): the calls whose
   results or errors a default could plausibly depend on. */
static bool call_builtin(Eval *ev, const char *name, const PyValue *args, size_t n,
                         PyValue *out, bool *handled)
{
    *handled = true;
    const PyValue *x = n ? &args[0] : NULL;
    if (x && permissive(x)) {
        *handled = false;
        return true;
    }
    if (strcmp(name, "len") == 0) {
        if (n != 1)
            return raise(ev, "TypeError",
                         arena_printf(ev->a, "len() takes exactly one argument (%zu given)", n));
        int64_t len = value_len(x);
        if (len < 0) {
            if (py_is_opaque(x) && !opaque_is(x, "type") && !opaque_is(x, "module") &&
                !opaque_is(x, "function") && !opaque_is(x, "builtin_function_or_method") &&
                !is_big_int(x) && !opaque_is(x, "ellipsis")) {
                *out = big_int();
                return true;
            }
            return raise(ev, "TypeError", arena_printf(ev->a, "object of type '%s' has no len()",
                                                       py_value_type_name(x)));
        }
        *out = int_value(ev->a, len);
        return true;
    }
    if (n > 1) {
        *handled = false;
        return true;
    }
    if (strcmp(name, "bool") == 0) {
        if (x && py_is_uncomputed(x)) {
            *out = py_make_uncomputed("bool", "<bool>");
            return true;
        }
        memset(out, 0, sizeof *out);
        out->kind = PY_BOOL;
        out->b = x ? py_truthy(x) : false;
        return true;
    }
    if (strcmp(name, "str") == 0) {
        if (!x)
            *out = py_make_str("", 0);
        else if (x->kind == PY_STR)
            *out = *x;
        else if (!py_repr_is_exact(x) || opaque_is(x, "str") || opaque_is(x, "bytes"))
            *out = py_make_uncomputed("str", "<str>");
        else {
            /* str() is repr() for every other object we keep */
            const char *r = py_repr(ev->a, x);
            *out = py_make_str(r, strlen(r));
        }
        return true;
    }
    if (strcmp(name, "int") == 0) {
        if (!x || is_int(x) || is_big_int(x)) {
            *out = !x ? py_make_int("0") : x->kind == PY_BOOL ? py_make_int(x->b ? "1" : "0") : *x;
            return true;
        }
        if (x->kind == PY_FLOAT) {
            if (isinf(x->f))
                return raise(ev, "OverflowError", "cannot convert float infinity to integer");
            if (isnan(x->f))
                return raise(ev, "ValueError", "cannot convert float NaN to integer");
            char buf[400];
            snprintf(buf, sizeof buf, "%.0f", trunc(x->f));
            *out = py_make_int(arena_strdup(ev->a, strcmp(buf, "-0") == 0 ? "0" : buf));
            return true;
        }
        if (x->kind == PY_STR || x->kind == PY_BYTES) {
            const char *p = x->s, *end = x->s + x->len;
            while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
                p++;
            while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n'))
                end--;
            const char *d = p + (p < end && (*p == '-' || *p == '+'));
            bool ok = d < end && isdigit((unsigned char)*d) && isdigit((unsigned char)end[-1]);
            for (const char *q = d; ok && q < end; q++)
                ok = isdigit((unsigned char)*q) ||
                     (*q == '_' && q + 1 < end && isdigit((unsigned char)q[1]));
            if (!ok || (end - d > 1 && *d == '0' && strspn(d, "0_") < (size_t)(end - d)))
                return raise(ev, "ValueError",
                             arena_printf(ev->a, "invalid literal for int() with base 10: %s",
                                          py_repr(ev->a, x)));
            StrBuf digits = STRBUF_INIT;
            for (const char *q = d; q < end; q++)
                if (*q != '_')
                    sb_addc(&digits, *q);
            const char *dec = pyint_from_digits(ev->a, digits.buf, digits.len, 10);
            sb_free(&digits);
            *out = py_make_int(*p == '-' ? pyint_negate(ev->a, dec) : dec);
            return true;
        }
        if (x->kind == PY_COMPLEX || x->kind == PY_NONE || x->kind == PY_TUPLE ||
            x->kind == PY_TYPE || x->kind == PY_SET || is_list(x) || is_dict(x) ||
            is_plain_object(x) ||
            x->kind == PY_NULL || x->kind == PY_UNSPECIFIED ||
            (x->kind == PY_UNKNOWN && !x->type_name))
            return raise(ev, "TypeError",
                         arena_printf(ev->a, "int() argument must be a string, a bytes-like "
                                             "object or a real number, not '%s'",
                                      py_value_type_name(x)));
        *handled = false;
        return true;
    }
    if (strcmp(name, "float") == 0) {
        double d;
        if (!x) {
            *out = float_value(0.0);
            return true;
        }
        if (x->kind == PY_FLOAT || is_int(x)) {
            if (!pyvalue_as_double(x, &d))
                return raise(ev, "OverflowError", "int too large to convert to float");
            *out = float_value(d);
            return true;
        }
        if (x->kind == PY_STR || x->kind == PY_BYTES) {
            char *text = arena_strndup(ev->a, x->s, x->len), *endp;
            d = strtod(text, &endp);
            while (*endp == ' ' || *endp == '\t' || *endp == '\n')
                endp++;
            if (endp == text || *endp || strpbrk(text, "xXpP"))
                return raise(ev, "ValueError",
                             arena_printf(ev->a, "could not convert string to float: %s",
                                          py_repr(ev->a, x)));
            *out = float_value(d);
            return true;
        }
        if (!permissive(x))
            return raise(ev, "TypeError",
                         arena_printf(ev->a, "float() argument must be a string or a real "
                                             "number, not '%s'", py_value_type_name(x)));
    }
    if (strcmp(name, "set") == 0) {
        if (!x) {
            *out = pyvalue_display(ev->a, "set", NULL, NULL, 0);
            return true;
        }
        if (is_int(x) || x->kind == PY_FLOAT || x->kind == PY_COMPLEX || x->kind == PY_NONE ||
            x->kind == PY_TYPE || x->kind == PY_NULL || x->kind == PY_UNSPECIFIED ||
            (x->kind == PY_UNKNOWN && !x->type_name) || opaque_is(x, "module") || opaque_is(x, "function") ||
            opaque_is(x, "builtin_function_or_method") || opaque_is(x, "ellipsis"))
            return raise(ev, "TypeError", arena_printf(ev->a, "'%s' object is not iterable",
                                                       py_value_type_name(x)));
        if (x->kind == PY_TUPLE || is_list(x))
            for (size_t i = 0; i < x->nitems; i++)
                if (unhashable(&x->items[i]))
                    return raise_unhashable(ev, &x->items[i]);
        *out = py_make_uncomputed("set", "<set>");
        return true;
    }
    *handled = false;
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
    bool starred = false;
    for (size_t i = 0; i < e->nitems; i++)
        starred |= e->items[i]->kind == PX_STARRED;
    const char *name = NULL;
    if (f.kind == PY_TYPE)
        name = py_type_name(f.types);
    else if (opaque_is(&f, "builtin_function_or_method") && strcmp(f.s, "<built-in function len>") == 0)
        name = "len";
    else if (opaque_is(&f, "type") && strcmp(f.s, "<class 'set'>") == 0)
        name = "set";
    if (name && !starred && e->nkeywords == 0) {
        bool handled;
        if (!call_builtin(ev, name, args, e->nitems, out, &handled))
            return false;
        if (handled)
            return true;
    }
    if (f.kind == PY_TYPE || py_is_opaque(&f)) {
        if (py_is_opaque(&f) && !permissive(&f) && !opaque_is(&f, "type") &&
            !opaque_is(&f, "function") && !opaque_is(&f, "builtin_function_or_method"))
            return raise(ev, "TypeError", arena_printf(ev->a, "'%s' object is not callable",
                                                       py_value_type_name(&f)));
        *out = py_make_uncomputed(f.kind == PY_TYPE ? py_type_name(f.types) : "object", "<object>");
        return true;
    }
    return raise(ev, "TypeError", arena_printf(ev->a, "'%s' object is not callable",
                                               py_value_type_name(&f)));
}

/* Classes whose [] makes a generic alias (list[int]) rather than fail. */
static bool generic_class(const PyValue *v)
{
    static const char *const generics[] = {
        "<class 'tuple'>", "<class 'list'>", "<class 'dict'>", "<class 'set'>",
        "<class 'frozenset'>", "<class 'type'>", "<class 'enumerate'>",
    };
    for (size_t i = 0; i < sizeof generics / sizeof generics[0]; i++)
        if (strcmp(v->s, generics[i]) == 0)
            return true;
    return false;
}

static bool eval_subscript(Eval *ev, const PyExpr *e, PyValue *out)
{
    PyValue v, idx;
    if (!eval(ev, e->left, &v))
        return false;
    bool is_slice = e->right->kind == PX_SLICE;
    if (is_slice) {
        const PyExpr *s = e->right;
        PyValue part;
        if ((s->left && !eval(ev, s->left, &part)) || (s->right && !eval(ev, s->right, &part)) ||
            (s->test && !eval(ev, s->test, &part)))
            return false;
    } else if (!eval(ev, e->right, &idx)) {
        return false;
    }
    if (permissive(&v)) {
        *out = py_make_uncomputed("object", "<object>");
        return true;
    }
    if (v.kind == PY_TYPE || opaque_is(&v, "type")) {
        if (v.kind != PY_TYPE && generic_class(&v)) {
            *out = py_make_uncomputed("types.GenericAlias", "<generic alias>");
            return true;
        }
        const char *tn = v.kind == PY_TYPE ? py_type_name(v.types)
                                           : arena_strndup(ev->a, v.s + 8, v.len - 10);
        return raise(ev, "TypeError", arena_printf(ev->a, "type '%s' is not subscriptable", tn));
    }
    const char *tn = py_value_type_name(&v);
    if (is_dict(&v)) {
        if (is_slice || unhashable(&idx))
            return raise_unhashable(ev, is_slice ? &(PyValue){ .kind = PY_UNKNOWN, .type_name = "slice" } : &idx);
        for (size_t i = v.nitems; i-- > 0;)
            if (py_equal(&v.items[i], &idx)) {
                *out = v.items[v.nitems + i];
                return true;
            }
        /* str() of a KeyError is the repr of its key */
        StrBuf sb = STRBUF_INIT;
        pyvalue_repr(&sb, &idx);
        const char *key = pysb_take(&sb, ev->a);
        return raise_args(ev, "KeyError", key, key);
    }
    if (!is_sequence(&v))
        return raise(ev, "TypeError", arena_printf(ev->a, "'%s' object is not subscriptable", tn));
    if (is_slice) {
        *out = py_make_uncomputed(tn, "<slice>");
        return true;
    }
    if (!is_int(&idx) && !is_big_int(&idx) && !permissive(&idx)) {
        const char *it = py_value_type_name(&idx);
        if (is_str(&v))
            return raise(ev, "TypeError",
                         arena_printf(ev->a, "string indices must be integers, not '%s'", it));
        return raise(ev, "TypeError",
                     arena_printf(ev->a, "%s indices must be integers or slices, not %s",
                                  is_bytes(&v) ? "byte" : tn, it));
    }
    int64_t i, n = value_len(&v);
    if (n < 0 || (py_is_opaque(&v) && !is_list(&v))) {
        *out = py_make_uncomputed(is_bytes(&v) ? "int" : is_str(&v) ? "str" : "object",
                                  "<item>");
        return true;
    }
    if (!get_i64(&idx, &i))
        i = INT64_MAX;
    if (i < 0 && i != INT64_MIN)
        i += n;
    if (i < 0 || i >= n)
        return raise(ev, "IndexError", v.kind == PY_TUPLE ? "tuple index out of range"
                                     : is_list(&v) ? "list index out of range"
                                     : is_str(&v) ? "string index out of range"
                                                  : "index out of range");
    if (v.kind == PY_TUPLE || is_list(&v)) {
        *out = v.items[i];
    } else if (v.kind == PY_BYTES) {
        *out = int_value(ev->a, (unsigned char)v.s[i]);
    } else {
        /* the i-th code point */
        const unsigned char *p = (const unsigned char *)v.s;
        size_t k = 0;
        for (int64_t cp = 0; cp < i; cp++)
            k += utf8_decode(p + k, v.len - k, &(uint32_t){ 0 });
        size_t len = utf8_decode(p + k, v.len - k, &(uint32_t){ 0 });
        *out = py_make_str(arena_strndup(ev->a, v.s + k, len), len);
    }
    return true;
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
            if (py_is_uncomputed(out)) {
                /* which operand is the result depends on its truth */
                *out = py_make_uncomputed("object", "<object>");
                return true;
            }
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
        if (py_is_uncomputed(&t)) {
            *out = py_make_uncomputed("object", "<object>");
            return true;
        }
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
        if (pyvalue_all_types(vals, e->nitems, &bits)) {
            memset(out, 0, sizeof *out);
            out->kind = PY_SET;
            out->types = bits;
            /* the insertion order decides the repr's order */
            out->items = vals;
            out->nitems = e->nitems;
        } else {
            *out = pyvalue_display(ev->a, "set", vals, NULL, e->nitems);
        }
        return true;
    }
    case PX_LIST:
        if (!eval_items(ev, e->items, e->nitems, &vals))
            return false;
        *out = pyvalue_display(ev->a, "list", vals, NULL, e->nitems);
        return true;
    case PX_DICT:
        vals = arena_array_of(ev->a, PyValue, e->nitems ? e->nitems : 1);
        vals2 = arena_array_of(ev->a, PyValue, e->nitems ? e->nitems : 1);
        for (size_t i = 0; i < e->nitems; i++) {
            if ((e->items[i] && !eval(ev, e->items[i], &vals[i])) ||
                !eval(ev, e->values[i], &vals2[i]))
                return false;
            if (!e->items[i])
                return (*out = py_make_uncomputed("dict", "{...}")), true;
        }
        *out = pyvalue_display(ev->a, "dict", vals, vals2, e->nitems);
        return true;
    case PX_LAMBDA:
        *out = py_make_uncomputed("function", "<function <lambda>>");
        return true;
    case PX_JOINEDSTR:
        for (size_t i = 0; i < e->nitems; i++)
            if (e->items[i]->kind == PX_FORMATTEDVALUE && !eval(ev, e->items[i]->left, out))
                return false;
        *out = py_make_uncomputed("str", "<f-string>");
        return true;
    case PX_NAMEDEXPR:
        return eval(ev, e->right, out);
    case PX_SUBSCRIPT:
        return eval_subscript(ev, e, out);
    case PX_GENEXP:
        *out = py_make_uncomputed("generator", "<generator object <genexpr>>");
        return true;
    case PX_LISTCOMP:
    case PX_SETCOMP:
    case PX_DICTCOMP: {
        /* the first iterable is evaluated in the enclosing scope */
        PyValue it;
        if (e->ngenerators && !eval(ev, e->generators[0].iter, &it))
            return false;
        *out = py_make_uncomputed(e->kind == PX_LISTCOMP ? "list" : e->kind == PX_SETCOMP ? "set" : "dict",
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
    *out = py_make_uncomputed("object", "<object>");
    return true;
}

bool pyexpr_eval_in(Arena *a, const PyExpr *e, PyEvalScope scope, PyValue *out,
                    PyException *exc)
{
    Eval ev = { .a = a, .scope = scope };
    PyValue v;
    /* compile() refuses what the parser let through before anything runs */
    const char *syntax = pyexpr_compile_error(a, e);
    if (syntax)
        raise(&ev, "SyntaxError", syntax);
    else if (eval(&ev, e, &v)) {
        *out = v;
        if (exc)
            *exc = (PyException){0};
        return true;
    }
    if (exc)
        *exc = ev.exc;
    return false;
}

bool pyexpr_eval(Arena *a, const PyExpr *e, PyValue *out, PyException *exc)
{
    return pyexpr_eval_in(a, e, PY_SCOPE_GLOBALS, out, exc);
}

/* ---- exceptions as a traceback prints them -------------------------------- */

char *pyexpr_exception_line(Arena *a, const PyException *exc)
{
    if (!*exc->message)
        return arena_strdup(a, exc->type);
    return arena_printf(a, "%s: %s", exc->type, exc->message);
}
