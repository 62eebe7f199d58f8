/*
 * pyvm_ops.c — operators: arithmetic, comparison, equality, hashing and
 * truth, with CPython's results and error messages.
 *
 * Ints are PyValue's decimal text.  They are computed in int64 when the
 * operands and the result fit, and in decimal text otherwise
 * (pyexpr_bignum.c), so they have Python's arbitrary precision.  Floats
 * are doubles, with CPython's floor division and modulo rules.  A user
 * class's special methods (__add__, __radd__, __eq__, __lt__, ...) are
 * called where Python would call them.
 */
#include "python/pyvm_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INT_DIGITS 100000

/* ---- making values ----------------------------------------------------- */

PyValue vm_make_int64(PyVM *vm, int64_t i)
{
    static const char *const small[] = {
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
    };
    if (i >= 0 && i <= 10)
        return py_make_int(small[i]);
    /* by hand: "%lld" is not one of arena_printf's quick formats, and
       loops over ranges make an int per round */
    char buf[24], *p = buf + sizeof buf;
    uint64_t u = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (i < 0)
        *--p = '-';
    return py_make_int(vm_strndup(vm, p, (size_t)(buf + sizeof buf - p)));
}

PyValue vm_make_float(double d)
{
    PyValue v = { .kind = PY_FLOAT, .f = d };
    return v;
}

PyValue vm_make_str(PyVM *vm, const char *s, size_t n)
{
    vm_work(vm, n >> 3);
    if (n > 4096)
        vm_reserve(vm, n);
    char *copy = vm_text_alloc(vm, n);
    if (n)
        memcpy(copy, s, n);
    copy[n] = '\0';
    return py_make_str(copy, n);
}

PyValue vm_make_tuple(PyVM *vm, const PyValue *items, size_t n)
{
    PyValue t = { .kind = PY_TUPLE };
    if (n > 4096)
        vm_reserve(vm, n * sizeof(PyValue));
    t.items = vm_items_array(vm, PyValue, n + 1);
    if (n)
        memcpy(t.items, items, n * sizeof *items);
    t.nitems = n;
    return t;
}

PyValue pyvm_str(PyVM *vm, const char *s)
{
    return vm_make_str(vm, s, strlen(s));
}

PyValue pyvm_int(PyVM *vm, long long i)
{
    return vm_make_int64(vm, i);
}

PyValue pyvm_bool(bool b)
{
    PyValue v = { .kind = PY_BOOL, .b = b };
    return v;
}

/* Where big-int arithmetic works (its limbs, and results not kept yet):
   emptied by big(), so that the temporaries of a loop of big-int
   operations do not pile up in the file's arena.  Its memory is counted
   as the arena's (vm_reserve). */
static Arena *int_scratch(PyVM *vm)
{
    if (!vm->int_scratch)
        vm->int_scratch = vm_int_scratch_new(vm);
    return vm->int_scratch;
}

/* An int from decimal text, checked against the size limit, kept where
   values are (the text may be int_scratch's, which is emptied). */
static PyValue big(PyVM *vm, const char *digits)
{
    size_t n = strlen(digits);
    if (n > MAX_INT_DIGITS)
        vm_raise_class(vm, vm->types[T_MEMORY_ERROR], arena_printf(vm->a,
                       "clinic's Python keeps ints below %d digits",
                       MAX_INT_DIGITS));
    char *kept = vm_text_alloc(vm, n);
    memcpy(kept, digits, n + 1);
    if (vm->int_scratch)
        vm_int_scratch_reset(vm);
    return py_make_int(kept);
}

Arena *vm_int_scratch(PyVM *vm)
{
    return int_scratch(vm);
}

PyValue vm_int_value(PyVM *vm, const char *digits)
{
    return big(vm, digits);
}

/* The work of x / y, times times. */
static void vm_int_work(PyVM *vm, const char *x, const char *y, unsigned times)
{
    vm_work(vm, vm_work_of(pyint_work(x, y), (uint64_t)WORK_LIMB * times));
}

/* The work of a product of ints of these many digits, times times. */
static void vm_int_mul_work(PyVM *vm, size_t xdigits, size_t ydigits,
                            unsigned times)
{
    vm_work(vm, vm_work_of(pyint_mul_work(xdigits, ydigits),
                           (uint64_t)WORK_LIMB * times));
}

void vm_int_convert_work(PyVM *vm, size_t digits, unsigned times)
{
    vm_work(vm, vm_work_of(pyint_convert_work(digits),
                           (uint64_t)WORK_LIMB * times));
}

PyValue vm_int_round_tens(PyVM *vm, const char *x, uint64_t places)
{
    vm_work(vm, WORK_DIGIT * strlen(x));
    return big(vm, pyint_round_tens(int_scratch(vm), x, places));
}

char *vm_int_to_base(PyVM *vm, const char *mag, int base)
{
    vm_int_convert_work(vm, strlen(mag), 1);
    const char *d = pyint_to_base(int_scratch(vm), mag, base);
    char *kept = vm_strndup(vm, d, strlen(d));
    vm_int_scratch_reset(vm);
    return kept;
}

/* Refuses at once a result of about `digits` digits that big() would
   refuse once made: computing it may take seconds. */
static void check_digits(PyVM *vm, double digits)
{
    if (digits > MAX_INT_DIGITS + 1)
        vm_raise_class(vm, vm->types[T_MEMORY_ERROR], arena_printf(vm->a,
                       "clinic's Python keeps ints below %d digits",
                       MAX_INT_DIGITS));
}

/* Python 3.11 refuses to turn an int of more than 4300 digits into
   decimal text (sys.get_int_max_str_digits()). */
#define INT_MAX_STR_DIGITS 4300

void vm_check_int_digits(PyVM *vm, const char *text)
{
    size_t n = strlen(text) - (text[0] == '-');
    if (n > INT_MAX_STR_DIGITS)
        vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(vm->a,
                       "Exceeds the limit (%d digits) for integer string "
                       "conversion; use sys.set_int_max_str_digits() to "
                       "increase the limit", INT_MAX_STR_DIGITS));
}

bool vm_as_int64(PyValue v, int64_t *out)
{
    if (v.kind == PY_BOOL) {
        *out = v.b;
        return true;
    }
    return v.kind == PY_INT && pyint_to_i64(v.s, out);
}

static bool is_int(PyValue v)
{
    return v.kind == PY_INT || v.kind == PY_BOOL;
}

static const char *int_text(PyValue v)
{
    return v.kind == PY_BOOL ? (v.b ? "1" : "0") : v.s;
}

static bool is_number(PyValue v)
{
    return is_int(v) || v.kind == PY_FLOAT || v.kind == PY_COMPLEX;
}

/* An index operand (__index__): ints and bools only. */
int64_t vm_index(PyVM *vm, PyValue v, const char *what)
{
    int64_t i;
    if (vm_as_int64(v, &i))
        return i;
    if (v.kind == PY_INT)
        vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR], "Python int too "
                       "large to convert to C ssize_t");
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                   "%s, not %s", what, vm_type_name(vm, v)));
}

static double to_double(PyVM *vm, PyValue v)
{
    if (v.kind == PY_FLOAT)
        return v.f;
    if (v.kind == PY_BOOL)
        return v.b;
    double d;
    if (!pyint_to_double(v.s, &d) || isinf(d))
        vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR],
                       "int too large to convert to float");
    return d;
}

/* ---- ints -------------------------------------------------------------- */

static bool add_overflows(int64_t x, int64_t y)
{
    return (y > 0 && x > INT64_MAX - y) || (y < 0 && x < INT64_MIN - y);
}

static bool mul_overflows(int64_t x, int64_t y)
{
    if (x == 0 || y == 0)
        return false;
    if (x == -1)
        return y == INT64_MIN;
    if (y == -1)
        return x == INT64_MIN;
    uint64_t ax = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    uint64_t ay = y < 0 ? (uint64_t)0 - (uint64_t)y : (uint64_t)y;
    return ax > (uint64_t)INT64_MAX / ay;
}

_Noreturn static void zero_division(PyVM *vm, const char *msg)
{
    vm_raise_class(vm, vm->types[T_ZERO_DIVISION_ERROR], msg);
}

static PyValue int_pow(PyVM *vm, PyValue x, PyValue y)
{
    int64_t e;
    if (y.kind == PY_INT && y.s[0] == '-') {
        double base = to_double(vm, x), ex = to_double(vm, y);
        if (base == 0)
            zero_division(vm, "0.0 cannot be raised to a negative power");
        return vm_make_float(pow(base, ex));
    }
    if (!vm_as_int64(y, &e)) {
        const char *b = int_text(x);
        if (!strcmp(b, "0") || !strcmp(b, "1"))
            return py_make_int(b);
        if (!strcmp(b, "-1"))
            return py_make_int(int_text(y)[strlen(int_text(y)) - 1] % 2
                               ? "-1" : "1");
        vm_raise_class(vm, vm->types[T_MEMORY_ERROR], "exponent too large");
    }
    const char *b = int_text(x);
    const char *mag = b + (b[0] == '-');
    double base_digits = strlen(mag) > 15 ? (double)strlen(mag)
                                          : log10(strtod(mag, NULL));
    if (strcmp(mag, "0") && strcmp(mag, "1") &&
        base_digits * (double)e > MAX_INT_DIGITS)
        vm_raise_class(vm, vm->types[T_MEMORY_ERROR], arena_printf(vm->a,
                       "clinic's Python keeps ints below %d digits",
                       MAX_INT_DIGITS));
    /* a product the result's size: more than the squarings and products
       of half its size and less that make it */
    double digits = (base_digits > 0 ? base_digits : 0) * (double)e + 1;
    vm_int_mul_work(vm, (size_t)digits, (size_t)digits, 1);
    return big(vm, pyint_pow(int_scratch(vm), b, (uint64_t)e));
}

/* x / y for ints beyond a double's exact range, correctly rounded as
   Python's long_true_divide: a quotient of 55 bits, a sticky bit for
   the remainder, one rounding to 53 bits, then the exponent. */
static double int_true_divide(PyVM *vm, const char *x, const char *y)
{
    bool negative = (x[0] == '-') != (y[0] == '-');
    const char *a = x + (x[0] == '-'), *b = y + (y[0] == '-');
    if (!strcmp(a, "0"))
        return negative ? -0.0 : 0.0;
    vm_int_convert_work(vm, strlen(a), 1);
    vm_int_convert_work(vm, strlen(b), 1);
    Arena *scratch = int_scratch(vm);
    long la = (long)strlen(pyint_to_base(scratch, a, 2));
    long lb = (long)strlen(pyint_to_base(scratch, b, 2));
    long diff = la - lb;
    if (diff > 1025)
        vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR], "integer division "
                       "result too large for a float");
    if (diff < -1140)
        return negative ? -0.0 : 0.0;
    long k = 55 - diff;
    const char *n = k >= 0 ? pyint_lshift(scratch, a, (uint64_t)k) : a;
    const char *d = k >= 0 ? b : pyint_lshift(scratch, b, (uint64_t)-k);
    char *q, *r;
    vm_int_work(vm, n, d, 2);
    pyint_divmod(scratch, n, d, &q, &r);
    unsigned long long qi = strtoull(q, NULL, 10);
    if (strcmp(r, "0"))
        qi |= 1;
    vm_int_scratch_reset(vm);
    double result = ldexp((double)qi, (int)-k);
    if (isinf(result))
        vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR], "integer division "
                       "result too large for a float");
    return negative ? -result : result;
}

static PyValue int_binop(PyVM *vm, const char *op, PyValue x, PyValue y)
{
    int64_t a, b;
    bool small = vm_as_int64(x, &a) && vm_as_int64(y, &b);
    const char *xs = int_text(x), *ys = int_text(y);
    switch (op[0]) {
    case 'A':
        if (!strcmp(op, "Add")) {
            if (small && !add_overflows(a, b))
                return vm_make_int64(vm, a + b);
            vm_work(vm, WORK_DIGIT * (strlen(xs) + strlen(ys)));
            return big(vm, pyint_add(int_scratch(vm), xs, ys));
        }
        break;
    case 'S':
        if (small && !(b == INT64_MIN) && !add_overflows(a, -b))
            return vm_make_int64(vm, a - b);
        vm_work(vm, WORK_DIGIT * (strlen(xs) + strlen(ys)));
        return big(vm, pyint_sub(int_scratch(vm), xs, ys));
    case 'M':
        if (!strcmp(op, "Mult")) {
            if (small && !mul_overflows(a, b))
                return vm_make_int64(vm, a * b);
            check_digits(vm, (double)(strlen(xs) + strlen(ys)) - 3);
            vm_int_mul_work(vm, strlen(xs), strlen(ys), 1);
            return big(vm, pyint_mul(int_scratch(vm), xs, ys));
        }
        if (!strcmp(op, "Mod")) {
            if (small && b == 0)
                zero_division(vm, "integer modulo by zero");
            if (small && !(a == INT64_MIN && b == -1)) {
                int64_t r = a % b;
                if (r && ((r < 0) != (b < 0)))
                    r += b;
                return vm_make_int64(vm, r);
            }
            char *r;
            vm_int_work(vm, xs, ys, 2);
            if (!pyint_divmod(int_scratch(vm), xs, ys, NULL, &r))
                zero_division(vm, "integer modulo by zero");
            return big(vm, r);
        }
        break;
    case 'F':
        if (small && b == 0)
            zero_division(vm, "integer division or modulo by zero");
        if (small && !(a == INT64_MIN && b == -1)) {
            int64_t q = a / b;
            if ((a % b) && ((a < 0) != (b < 0)))
                q--;
            return vm_make_int64(vm, q);
        } else {
            char *q;
            vm_int_work(vm, xs, ys, 2);
            if (!pyint_divmod(int_scratch(vm), xs, ys, &q, NULL))
                zero_division(vm, "integer division or modulo by zero");
            return big(vm, q);
        }
    case 'D': {
        const int64_t exact = INT64_C(1) << 53;
        if (!strcmp(ys, "0"))
            zero_division(vm, "division by zero");
        if (small && a <= exact && a >= -exact && b <= exact && b >= -exact)
            return vm_make_float((double)a / (double)b);
        return vm_make_float(int_true_divide(vm, xs, ys));
    }
    case 'P':
        return int_pow(vm, x, y);
    case 'L':
    case 'R': {
        int64_t n;
        if (ys[0] == '-')
            vm_raise_class(vm, vm->types[T_VALUE_ERROR], "negative shift count");
        if (!vm_as_int64(y, &n) || n > INT32_MAX) {
            /* a shift by more than memory holds: CPython's errors */
            if (!strcmp(xs, "0"))
                return vm_make_int64(vm, 0);
            if (op[0] == 'R')
                return vm_make_int64(vm, xs[0] == '-' ? -1 : 0);
            double words;
            if (!pyint_to_double(ys, &words) || words / 30 > 2.3e18)
                vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR],
                               "too many digits in integer");
            vm_raise_class(vm, vm->types[T_MEMORY_ERROR], "");
        }
        if (op[0] == 'L') {
            if (small && n < 62 && a >= -(INT64_C(1) << (62 - n)) &&
                a < (INT64_C(1) << (62 - n)))
                return vm_make_int64(vm, a * (INT64_C(1) << n));
            double digits = (double)strlen(xs) - 1 + (double)n * 0.30103;
            check_digits(vm, digits);
            /* 2^n made by squarings, then multiplied by x */
            size_t power = (size_t)((double)n * 0.30103) + 1;
            vm_int_mul_work(vm, power, power, 1);
            vm_int_mul_work(vm, strlen(xs), power, 1);
            return big(vm, pyint_lshift(int_scratch(vm), xs, (uint64_t)n));
        }
        if (small)
            return vm_make_int64(vm, n >= 63 ? (a < 0 ? -1 : 0) : a >> n);
        vm_int_convert_work(vm, strlen(xs), 2);
        return big(vm, pyint_rshift(int_scratch(vm), xs, (uint64_t)n));
    }
    case 'B': {
        char c = !strcmp(op, "BitAnd") ? '&' : !strcmp(op, "BitOr") ? '|' : '^';
        if (x.kind == PY_BOOL && y.kind == PY_BOOL)
            return pyvm_bool(c == '&' ? (x.b & y.b) : c == '|' ? (x.b | y.b)
                                                               : (x.b ^ y.b));
        if (small)
            return vm_make_int64(vm, c == '&' ? (a & b) : c == '|' ? (a | b)
                                                                   : (a ^ b));
        const char *longer = strlen(xs) > strlen(ys) ? xs : ys;
        vm_int_convert_work(vm, strlen(longer), 3);
        return big(vm, pyint_bitop(int_scratch(vm), xs, ys, c));
    }
    default:
        break;
    }
    return py_unspecified;   /* not an int operation: MatMult */
}

/* ---- floats ------------------------------------------------------------ */

static PyValue float_binop(PyVM *vm, const char *op, double x, double y)
{
    switch (op[0]) {
    case 'A': return vm_make_float(x + y);
    case 'S': return vm_make_float(x - y);
    case 'M':
        if (!strcmp(op, "Mult"))
            return vm_make_float(x * y);
        if (!strcmp(op, "Mod")) {
            if (y == 0)
                zero_division(vm, "float modulo");
            return vm_make_float(py_float_mod(x, y));
        }
        break;
    case 'D':
        if (y == 0)
            zero_division(vm, "float division by zero");
        return vm_make_float(x / y);
    case 'F': {
        if (y == 0)
            zero_division(vm, "float floor division by zero");
        double mod = fmod(x, y), div = (x - mod) / y;
        if (mod && ((y < 0) != (mod < 0)))
            div -= 1.0;
        double floordiv = div ? floor(div) : copysign(0.0, x / y);
        if (div - floordiv > 0.5)
            floordiv += 1.0;
        return vm_make_float(floordiv);
    }
    case 'P': {
        if (x == 0 && y < 0)
            zero_division(vm, "0.0 cannot be raised to a negative power");
        if (x < 0 && y != floor(y) && isfinite(y)) {
            /* a complex result, as complex's _Py_c_pow computes it */
            double len = pow(fabs(x), y), phase = atan2(0.0, x) * y;
            PyValue c = { .kind = PY_COMPLEX, .f = len * cos(phase),
                          .imag = len * sin(phase) };
            return c;
        }
        double r = pow(x, y);
        if (isinf(r) && isfinite(x) && isfinite(y)) {
            PyValue args[2] = { vm_make_int64(vm, 34),
                                vm_make_str(vm, "Numerical result out of "
                                            "range", 29) };
            vm_throw(vm, vm_new_exception(vm, vm->types[T_OVERFLOW_ERROR],
                                          args, 2));
        }
        return vm_make_float(r);
    }
    default:
        break;
    }
    return py_unspecified;
}

typedef struct Complex {
    double re, im;
} Complex;

static Complex c_prod(Complex a, Complex b)
{
    Complex r = { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re };
    return r;
}

/* CPython's _Py_c_quot: scaled by the larger of b's parts. */
static Complex c_quot(PyVM *vm, Complex a, Complex b)
{
    double abs_re = fabs(b.re), abs_im = fabs(b.im);
    Complex r;
    if (abs_re >= abs_im) {
        if (abs_re == 0.0)
            zero_division(vm, "complex division by zero");
        double ratio = b.im / b.re, denom = b.re + b.im * ratio;
        r.re = (a.re + a.im * ratio) / denom;
        r.im = (a.im - a.re * ratio) / denom;
    } else {
        double ratio = b.re / b.im, denom = b.re * ratio + b.im;
        r.re = (a.re * ratio + a.im) / denom;
        r.im = (a.im * ratio - a.re) / denom;
    }
    return r;
}

/* CPython's complex_pow: repeated squaring for small integral exponents,
   else _Py_c_pow's polar form. */
static Complex c_pow(PyVM *vm, Complex a, Complex b)
{
    Complex one = { 1.0, 0.0 };
    if (b.re == 0.0 && b.im == 0.0)
        return one;
    if (a.re == 0.0 && a.im == 0.0) {
        if (b.im != 0.0 || b.re < 0.0)
            zero_division(vm, "0.0 to a negative or complex power");
        Complex zero = { 0.0, 0.0 };
        return zero;
    }
    long n = (long)b.re;
    if (b.im == 0.0 && b.re == (double)n && n <= 100 && n >= -100) {
        Complex r = one, p = a;
        unsigned long u = (unsigned long)(n < 0 ? -n : n), mask = 1;
        while (mask > 0 && u >= mask) {
            if (u & mask)
                r = c_prod(r, p);
            mask <<= 1;
            p = c_prod(p, p);
        }
        return n < 0 ? c_quot(vm, one, r) : r;
    }
    double vabs = hypot(a.re, a.im), len = pow(vabs, b.re);
    double at = atan2(a.im, a.re), phase = at * b.re;
    if (b.im != 0.0) {
        len /= exp(at * b.im);
        phase += b.im * log(vabs);
    }
    Complex r = { len * cos(phase), len * sin(phase) };
    return r;
}

static PyValue complex_binop(PyVM *vm, const char *op, PyValue x, PyValue y)
{
    Complex a = { x.kind == PY_COMPLEX ? x.f : to_double(vm, x),
                  x.kind == PY_COMPLEX ? x.imag : 0 };
    Complex b = { y.kind == PY_COMPLEX ? y.f : to_double(vm, y),
                  y.kind == PY_COMPLEX ? y.imag : 0 };
    Complex r;
    if (!strcmp(op, "Add"))
        r = (Complex){ a.re + b.re, a.im + b.im };
    else if (!strcmp(op, "Sub"))
        r = (Complex){ a.re - b.re, a.im - b.im };
    else if (!strcmp(op, "Mult"))
        r = c_prod(a, b);
    else if (!strcmp(op, "Div"))
        r = c_quot(vm, a, b);
    else if (!strcmp(op, "Pow"))
        r = c_pow(vm, a, b);
    else
        return py_unspecified;
    if (!strcmp(op, "Pow") && (isinf(r.re) || isinf(r.im)) &&
        isfinite(a.re) && isfinite(a.im))
        vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR], "complex exponentiation");
    PyValue v = { .kind = PY_COMPLEX, .f = r.re, .imag = r.im };
    return v;
}

/* ---- sequences and sets ------------------------------------------------ */

static const char *dunder(const char *op, bool reflected)
{
    static const char *const names[][3] = {
        { "Add", "__add__", "__radd__" }, { "Sub", "__sub__", "__rsub__" },
        { "Mult", "__mul__", "__rmul__" }, { "Div", "__truediv__", "__rtruediv__" },
        { "FloorDiv", "__floordiv__", "__rfloordiv__" },
        { "Mod", "__mod__", "__rmod__" }, { "Pow", "__pow__", "__rpow__" },
        { "LShift", "__lshift__", "__rlshift__" },
        { "RShift", "__rshift__", "__rrshift__" }, { "BitOr", "__or__", "__ror__" },
        { "BitXor", "__xor__", "__rxor__" }, { "BitAnd", "__and__", "__rand__" },
        { "MatMult", "__matmul__", "__rmatmul__" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i][0], op))
            return names[i][reflected ? 2 : 1];
    return NULL;
}

static bool is_seq(PyValue v)
{
    return v.kind == PY_STR || v.kind == PY_TUPLE || v.kind == PY_BYTES ||
           vm_is_kind(v, OBJ_LIST);
}

static PyValue repeat(PyVM *vm, PyValue seq, PyValue count)
{
    int64_t n;
    if (!vm_as_int64(count, &n))
        vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR], arena_printf(vm->a,
                       "cannot fit 'int' into an index-sized integer"));
    if (n < 0)
        n = 0;
    if (seq.kind == PY_STR || seq.kind == PY_BYTES) {
        if (!seq.len)
            n = 0;
        if (n && seq.len > (size_t)INT64_MAX / (size_t)n)
            vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR],
                           seq.kind == PY_STR ? "repeated string is too long"
                                              : "repeated bytes are too long");
        if (n && seq.len > (size_t)(1 << 26) / (size_t)n)
            vm_raise_class(vm, vm->types[T_MEMORY_ERROR], "string too long");
        vm_reserve(vm, seq.len * (size_t)n + 1);
        vm_work(vm, seq.len * (size_t)n >> 3);
        char *s = vm_text_alloc(vm, seq.len * (size_t)n);
        for (int64_t i = 0; i < n; i++)
            memcpy(s + seq.len * (size_t)i, seq.s, seq.len);
        s[seq.len * (size_t)n] = '\0';
        PyValue r = seq;
        r.s = s;
        r.len = seq.len * (size_t)n;
        return r;
    }
    size_t len;
    PyValue *items = vm_collect(vm, seq, &len);
    if (!len)
        n = 0;
    if (n && len > (size_t)(1 << 22) / (size_t)n)
        vm_raise_class(vm, vm->types[T_MEMORY_ERROR], "sequence too long");
    vm_work(vm, len * (size_t)n * sizeof(PyValue) >> 3);
    PyList *l = vm_list_new(vm, len * (size_t)n + 1);
    for (int64_t i = 0; i < n; i++)
        for (size_t k = 0; k < len; k++)
            vm_list_append(vm, l, items[k]);
    if (seq.kind == PY_TUPLE)
        return vm_make_tuple(vm, l->items, l->len);
    return vm_obj(l);
}

static PyValue concat(PyVM *vm, PyValue x, PyValue y)
{
    if (x.kind == PY_STR || x.kind == PY_BYTES) {
        vm_reserve(vm, x.len + y.len + 1);
        vm_work(vm, (x.len + y.len) >> 3);
        char *s = vm_text_alloc(vm, x.len + y.len);
        memcpy(s, x.s, x.len);
        memcpy(s + x.len, y.s, y.len);
        s[x.len + y.len] = '\0';
        PyValue r = x;
        r.s = s;
        r.len = x.len + y.len;
        return r;
    }
    size_t nx, ny;
    PyValue *a = vm_collect(vm, x, &nx), *b = vm_collect(vm, y, &ny);
    vm_work(vm, (nx + ny) * sizeof(PyValue) >> 3);
    PyList *l = vm_list_new(vm, nx + ny + 1);
    for (size_t i = 0; i < nx; i++)
        vm_list_append(vm, l, a[i]);
    for (size_t i = 0; i < ny; i++)
        vm_list_append(vm, l, b[i]);
    if (x.kind == PY_TUPLE)
        return vm_make_tuple(vm, l->items, l->len);
    return vm_obj(l);
}

static PyValue set_binop(PyVM *vm, const char *op, PySet *x, PySet *y)
{
    switch (op[3]) {
    case 'O': return vm_obj(vm_set_union(vm, x, y));              /* BitOr */
    case 'A': return vm_obj(vm_set_intersection(vm, x, y));       /* BitAnd */
    case 'X': return vm_obj(vm_set_symmetric_difference(vm, x, y)); /* BitXor */
    default: return vm_obj(vm_set_difference(vm, x, y));          /* Sub */
    }
}

static PyValue user_binop(PyVM *vm, const char *op, PyValue x, PyValue y,
                          bool *found)
{
    PyValue r;
    *found = true;
    const char *name = dunder(op, false);
    if (name && vm_type_of(vm, x)->module &&
        !vm_class_is_builtin(vm_type_of(vm, x)) &&
        vm_call_special(vm, x, name, &y, 1, &r))
        return r;
    name = dunder(op, true);
    if (name && !vm_class_is_builtin(vm_type_of(vm, y)) &&
        vm_call_special(vm, y, name, &x, 1, &r))
        return r;
    *found = false;
    return py_none;
}

/* ---- X | Y of classes: types.UnionType ---------------------------------- */

static bool is_union(PyVM *vm, PyValue v)
{
    return vm->union_type && vm_is_kind(v, OBJ_INSTANCE) &&
           v.obj->type == vm->union_type;
}

static bool unionable(PyVM *vm, PyValue v)
{
    return v.kind == PY_NONE || vm_as_class(v) || is_union(vm, v);
}

static PyValue union_args(PyVM *vm, PyValue u)
{
    PyValue args;
    if (!pyvm_dict_get(vm, pyvm_instance_dict(u), "__args__", &args))
        return vm_make_tuple(vm, NULL, 0);
    return args;
}

static PyValue union_repr(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    if (a->nargs != 1 || !is_union(vm, a->args[0]))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR],
                       "descriptor '__repr__' requires a 'types.UnionType' "
                       "object");
    PyValue args = union_args(vm, a->args[0]);
    const char *r = "";
    for (size_t i = 0; i < args.nitems; i++) {
        PyClass *c = vm_as_class(args.items[i]);
        const char *name = !c ? "None"
                         : !strcmp(c->module, "builtins") ? c->qualname
                         : arena_printf(vm->a, "%s.%s", c->module, c->qualname);
        r = i ? arena_printf(vm->a, "%s | %s", r, name) : name;
    }
    return vm_make_str(vm, r, strlen(r));
}

/* x | y as type.__or__ makes it: the members of both, each once. */
static PyValue make_union(PyVM *vm, PyValue x, PyValue y)
{
    if (!vm->union_type) {
        PyObj *dict = pyvm_dict_new(vm);
        pyvm_dict_set_static(vm, dict, "__repr__",
                             pyvm_native(vm, "__repr__", union_repr, NULL,
                                         true));
        vm->union_type = (PyClass *)pyvm_class_new(vm, "UnionType", "types",
                                                   NULL, 0, dict, NULL, NULL);
    }
    PyValue parts[2] = { x, y }, more[2];
    for (int k = 0; k < 2; k++)
        more[k] = is_union(vm, parts[k]) ? union_args(vm, parts[k])
                                         : vm_make_tuple(vm, &parts[k], 1);
    PyValue *items = arena_array_of(vm->a, PyValue,
                                    more[0].nitems + more[1].nitems);
    size_t n = 0;
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < more[k].nitems; i++) {
            bool seen = false;
            for (size_t j = 0; j < n && !seen; j++)
                seen = vm_is(items[j], more[k].items[i]);
            if (!seen)
                items[n++] = more[k].items[i];
        }
    }
    PyObj *u = pyvm_instance_new(vm, &vm->union_type->ob, NULL, NULL);
    pyvm_dict_set_static(vm, pyvm_instance_dict(vm_obj(u)), "__args__",
                         vm_make_tuple(vm, items, n));
    return vm_obj(u);
}

PyValue pyvm_union(PyVM *vm, PyValue x, PyValue y)
{
    return make_union(vm, x, y);
}

PyValue vm_binop(PyVM *vm, const char *op, PyValue x, PyValue y)
{
    if (is_int(x) && is_int(y)) {
        PyValue r = int_binop(vm, op, x, y);
        if (r.kind != PY_UNSPECIFIED)
            return r;
    } else if (is_number(x) && is_number(y)) {
        if (x.kind == PY_COMPLEX || y.kind == PY_COMPLEX) {
            PyValue r = complex_binop(vm, op, x, y);
            if (r.kind != PY_UNSPECIFIED)
                return r;
        } else {
            PyValue r = float_binop(vm, op, to_double(vm, x), to_double(vm, y));
            if (r.kind != PY_UNSPECIFIED)
                return r;
        }
    }
    if (!strcmp(op, "BitOr") && unionable(vm, x) && unionable(vm, y) &&
        (x.kind != PY_NONE || y.kind != PY_NONE))
        return make_union(vm, x, y);
    bool add = !strcmp(op, "Add"), mult = !strcmp(op, "Mult");
    if (add && is_seq(x)) {
        bool same = x.kind == y.kind &&
                    (x.kind != PY_OBJECT || x.obj->kind == y.obj->kind);
        if (same)
            return concat(vm, x, y);
        if (x.kind == PY_STR && vm_class_is_builtin(vm_type_of(vm, y)))
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "can only concatenate str (not \"%s\") to str",
                           vm_type_name(vm, y)));
        if (x.kind == PY_BYTES &&
            vm_class_is_builtin(vm_type_of(vm, y)))
            /* the buffer protocol's words */
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "can't concat %s to %s", vm_type_name(vm, y),
                           vm_type_name(vm, x)));
        if (x.kind != PY_STR && vm_class_is_builtin(vm_type_of(vm, y)))
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "can only concatenate %s (not \"%s\") to %s",
                           vm_type_name(vm, x), vm_type_name(vm, y),
                           vm_type_name(vm, x)));
    }
    if (mult && is_seq(x) && is_int(y))
        return repeat(vm, x, y);
    if (mult && is_seq(y) && is_int(x))
        return repeat(vm, y, x);
    if (mult && (is_seq(x) || is_seq(y)) &&
        vm_class_is_builtin(vm_type_of(vm, is_seq(x) ? y : x)))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "can't multiply sequence by non-int of type '%s'",
                       vm_type_name(vm, is_seq(x) ? y : x)));
    if (!strcmp(op, "Mod") && (x.kind == PY_STR || x.kind == PY_BYTES))
        return vm_percent_format(vm, x, y);
    if (vm_is_kind(x, OBJ_SET) && vm_is_kind(y, OBJ_SET) &&
        (!strcmp(op, "BitOr") || !strcmp(op, "BitAnd") ||
         !strcmp(op, "BitXor") || !strcmp(op, "Sub")))
        return set_binop(vm, op, (PySet *)x.obj, (PySet *)y.obj);
    if (vm_is_kind(x, OBJ_DICT) && vm_is_kind(y, OBJ_DICT) &&
        !strcmp(op, "BitOr")) {
        PyDict *d = vm_dict_copy(vm, (PyDict *)x.obj), *o = (PyDict *)y.obj;
        for (size_t i = 0; i < o->len; i++)
            vm_dict_set(vm, d, o->keys[i], o->values[i]);
        return vm_obj(d);
    }
    bool found;
    PyValue r = user_binop(vm, op, x, y, &found);
    if (found)
        return r;
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                   "unsupported operand type(s) for %s: '%s' and '%s'",
                   py_op_symbol(op), vm_type_name(vm, x), vm_type_name(vm, y)));
}

PyValue vm_inplace(PyVM *vm, const char *op, PyValue x, PyValue y)
{
    if (vm_is_kind(x, OBJ_LIST) && !strcmp(op, "Add")) {
        size_t n;
        PyValue *items = vm_collect(vm, y, &n);
        for (size_t i = 0; i < n; i++)
            vm_list_append(vm, (PyList *)x.obj, items[i]);
        return x;
    }
    if (vm_is_kind(x, OBJ_SET) && vm_is_kind(y, OBJ_SET) &&
        !((PySet *)x.obj)->frozen && !strcmp(op, "BitOr")) {
        vm_set_merge(vm, (PySet *)x.obj, (PySet *)y.obj);
        return x;
    }
    if (vm_is_kind(x, OBJ_DICT) && !strcmp(op, "BitOr") &&
        vm_is_kind(y, OBJ_DICT)) {
        PyDict *o = (PyDict *)y.obj;
        for (size_t i = 0; i < o->len; i++)
            vm_dict_set(vm, (PyDict *)x.obj, o->keys[i], o->values[i]);
        return x;
    }
    return vm_binop(vm, op, x, y);
}

PyValue vm_unaryop(PyVM *vm, const char *op, PyValue x)
{
    if (is_int(x)) {
        int64_t i;
        bool small = vm_as_int64(x, &i);
        if (!strcmp(op, "USub"))
            return small && i != INT64_MIN ? vm_make_int64(vm, -i)
                                           : big(vm, pyint_negate(int_scratch(vm),
                                                                  int_text(x)));
        if (!strcmp(op, "UAdd"))
            return small ? vm_make_int64(vm, i) : x;
        if (!strcmp(op, "Invert"))
            return small && i != INT64_MIN
                       ? vm_make_int64(vm, ~i)
                       : big(vm, pyint_sub(int_scratch(vm),
                                           pyint_negate(int_scratch(vm),
                                                        int_text(x)),
                                           "1"));
    }
    if (x.kind == PY_FLOAT) {
        if (!strcmp(op, "USub"))
            return vm_make_float(-x.f);
        if (!strcmp(op, "UAdd"))
            return x;
    }
    if (x.kind == PY_COMPLEX && strcmp(op, "Invert")) {
        if (!strcmp(op, "USub")) {
            x.f = -x.f;
            x.imag = -x.imag;
        }
        return x;
    }
    const char *name = !strcmp(op, "USub") ? "__neg__"
                     : !strcmp(op, "UAdd") ? "__pos__" : "__invert__";
    PyValue r;
    if (vm_call_special(vm, x, name, NULL, 0, &r) &&
        !vm_class_is_builtin(vm_type_of(vm, x)))
        return r;
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                   "bad operand type for unary %s: '%s'",
                   !strcmp(op, "USub") ? "-" : !strcmp(op, "UAdd") ? "+" : "~",
                   vm_type_name(vm, x)));
}

/* ---- equality, identity, hashing --------------------------------------- */

bool vm_is(PyValue x, PyValue y)
{
    if (x.kind != y.kind)
        return false;
    switch (x.kind) {
    case PY_OBJECT: return x.obj == y.obj;
    case PY_BOOL: return x.b == y.b;
    case PY_INT: return strcmp(x.s, y.s) == 0;
    case PY_STR:
    case PY_BYTES: return x.s == y.s || (x.len == y.len && !memcmp(x.s, y.s, x.len));
    case PY_FLOAT: return x.f == y.f;
    case PY_TYPE:
    case PY_SET: return x.types == y.types;
    case PY_TUPLE: return x.items == y.items || (x.nitems == 0 && y.nitems == 0);
    case PY_UNKNOWN:
        return x.type_name == y.type_name ||
               (x.type_name && y.type_name && !strcmp(x.type_name, y.type_name) &&
                x.s == y.s);
    default: return true;   /* None, NULL, unspecified: singletons */
    }
}

static bool user_eq(PyVM *vm, PyValue x, PyValue y, bool *found)
{
    PyValue r;
    *found = true;
    PyClass *tx = vm_type_of(vm, x), *ty = vm_type_of(vm, y);
    PyClass *owner;
    PyValue fn;
    if (x.kind == PY_OBJECT && vm_lookup(tx, "__eq__", &fn, &owner) &&
        !vm_class_is_builtin(owner) &&
        vm_call_special(vm, x, "__eq__", &y, 1, &r))
        return vm_truthy(vm, r);
    if (y.kind == PY_OBJECT && vm_lookup(ty, "__eq__", &fn, &owner) &&
        !vm_class_is_builtin(owner) &&
        vm_call_special(vm, y, "__eq__", &x, 1, &r))
        return vm_truthy(vm, r);
    *found = false;
    return false;
}

/* x == y for a container or an object: what may recurse. */
static bool eq_deep(PyVM *vm, PyValue x, PyValue y)
{
    if (x.kind != PY_OBJECT && y.kind != PY_OBJECT) {
        if (x.kind == PY_TUPLE && y.kind == PY_TUPLE) {
            if (x.nitems != y.nitems)
                return false;
            vm_work(vm, x.nitems * WORK_ITEM);
            for (size_t i = 0; i < x.nitems; i++)
                if (!vm_is(x.items[i], y.items[i]) &&
                    !vm_eq(vm, x.items[i], y.items[i]))
                    return false;
            return true;
        }
        return py_equal(&x, &y);
    }
    bool found;
    bool r = user_eq(vm, x, y, &found);
    if (found)
        return r;
    if (x.kind != PY_OBJECT || y.kind != PY_OBJECT)
        return false;
    if (x.obj == y.obj)
        return true;
    ObjKind k = x.obj->kind;
    if (k != y.obj->kind)
        return false;
    switch (k) {
    case OBJ_LIST: {
        PyList *a = (PyList *)x.obj, *b = (PyList *)y.obj;
        if (a->len != b->len)
            return false;
        vm_work(vm, a->len * WORK_ITEM);
        for (size_t i = 0; i < a->len && i < b->len; i++)
            if (!vm_is(a->items[i], b->items[i]) &&
                !vm_eq(vm, a->items[i], b->items[i]))
                return false;
        return a->len == b->len;
    }
    case OBJ_DICT: {
        PyDict *a = (PyDict *)x.obj, *b = (PyDict *)y.obj;
        if (a->len != b->len)
            return false;
        vm_work(vm, a->len * WORK_ITEM);
        for (size_t i = 0; i < a->len; i++) {
            PyValue *v = vm_dict_find(vm, b, a->keys[i]);
            if (!v || (!vm_is(*v, a->values[i]) && !vm_eq(vm, *v, a->values[i])))
                return false;
        }
        return true;
    }
    case OBJ_SET: {
        PySet *a = (PySet *)x.obj, *b = (PySet *)y.obj;
        if (a->used != b->used)
            return false;
        size_t pos = 0;
        PyValue key;
        while (vm_set_next(a, &pos, &key))
            if (!vm_set_contains(vm, b, key))
                return false;
        return true;
    }
    case OBJ_RANGE: {
        PyRange *a = (PyRange *)x.obj, *b = (PyRange *)y.obj;
        return a->start == b->start && a->stop == b->stop && a->step == b->step;
    }
    case OBJ_METHOD: {
        PyMethod *a = (PyMethod *)x.obj, *b = (PyMethod *)y.obj;
        return vm_is(a->self, b->self) && vm_is(a->func, b->func);
    }
    default:
        return false;
    }
}

bool vm_eq(PyVM *vm, PyValue x, PyValue y)
{
    if (x.kind != PY_OBJECT && y.kind != PY_OBJECT &&
        (x.kind != PY_TUPLE || y.kind != PY_TUPLE))
        return py_equal(&x, &y);
    vm_enter(vm, " in comparison");
    bool r = eq_deep(vm, x, y);
    vm_leave(vm);
    return r;
}

/* CPython's hash of a float (_Py_HashDouble). */
static int64_t hash_double(double v)
{
    const uint64_t modulus = ((uint64_t)1 << 61) - 1;
    if (isinf(v))
        return v > 0 ? 314159 : -314159;
    if (isnan(v))
        return 0;
    int e, sign = 1;
    double m = frexp(v, &e);
    if (m < 0) {
        sign = -1;
        m = -m;
    }
    uint64_t x = 0;
    while (m) {
        x = ((x << 28) & modulus) | x >> (61 - 28);
        m *= 268435456.0;
        e -= 28;
        uint64_t y = (uint64_t)m;
        m -= (double)y;
        x += y;
        if (x >= modulus)
            x -= modulus;
    }
    e = e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61);
    x = ((x << e) & modulus) | x >> (61 - e);
    int64_t h = (int64_t)x * sign;
    return h == -1 ? -2 : h;
}

/* CPython checks no depth there (a deep tuple overflows its stack) */
#define HASHING " while hashing an object"

static int64_t hash_tuple(PyVM *vm, const PyValue *items, size_t n)
{
    const uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL,
                   p5 = 2870177450012600261ULL;
    uint64_t acc = p5;
    vm_work(vm, n * WORK_ITEM);
    vm_enter(vm, HASHING);
    for (size_t i = 0; i < n; i++) {
        uint64_t lane = (uint64_t)vm_hash(vm, items[i]);
        acc += lane * p2;
        acc = (acc << 31) | (acc >> 33);
        acc *= p1;
    }
    vm_leave(vm);
    acc += n ^ (p5 ^ 3527539UL);
    if (acc == (uint64_t)-1)
        return 1546275796;
    return (int64_t)acc;
}

static int64_t hash_pointer(const void *p)
{
    uint64_t y = (uint64_t)(uintptr_t)p;
    return (int64_t)((y >> 4) | (y << 60));
}

_Noreturn static void unhashable(PyVM *vm, PyValue v)
{
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                   "unhashable type: '%s'", vm_type_name(vm, v)));
}

int64_t vm_hash(PyVM *vm, PyValue v)
{
    switch (v.kind) {
    case PY_BOOL:
        return v.b;
    case PY_INT: {
        int64_t i;
        if (pyint_to_i64(v.s, &i) && i > -((INT64_C(1) << 61) - 1) &&
            i < (INT64_C(1) << 61) - 1)
            return i == -1 ? -2 : i;
        /* ten additions a digit */
        vm_work(vm, vm_work_of(strlen(v.s), 4 * WORK_DIGIT));
        return pyint_hash(v.s);
    }
    case PY_FLOAT: {
        if (v.f == floor(v.f) && fabs(v.f) < 9.2e18) {
            int64_t i = (int64_t)v.f;
            if (i > -((INT64_C(1) << 61) - 1) && i < (INT64_C(1) << 61) - 1)
                return i == -1 ? -2 : i;
        }
        return hash_double(v.f);
    }
    case PY_COMPLEX: {
        int64_t h = hash_double(v.f) + 1000003 * hash_double(v.imag);
        return h == -1 ? -2 : h;
    }
    case PY_STR:
    case PY_BYTES: {
        int64_t h = (int64_t)vm_str_hash(v.s, v.len);
        return h == -1 ? -2 : h;
    }
    case PY_TUPLE:
        return hash_tuple(vm, v.items, v.nitems);
    case PY_NONE: return 0x1a2b3c4d;
    case PY_NULL: return 0x2b3c4d5e;
    case PY_UNSPECIFIED:
    case PY_UNKNOWN: {
        /* an Enum member's is its name's */
        const char *member = vm_sentinel_member(vm, v);
        if (member)
            return (int64_t)vm_str_hash(member, strlen(member));
        if (v.kind == PY_UNSPECIFIED)
            return 0x3c4d5e6f;
        return v.type_name ? (int64_t)vm_str_hash(v.s, v.len) : 0x4d5e6f70;
    }
    case PY_TYPE: return (int64_t)v.types * 2654435761u;
    case PY_SET:
        unhashable(vm, v);
    case PY_OBJECT:
        break;
    }
    PyObj *o = v.obj;
    switch (o->kind) {
    case OBJ_LIST:
    case OBJ_DICT:
        unhashable(vm, v);
    case OBJ_SET:
        if (!((PySet *)o)->frozen)
            unhashable(vm, v);
        {
            uint64_t h = 0;
            size_t pos = 0;
            PyValue key;
            vm_enter(vm, HASHING);
            while (vm_set_next((PySet *)o, &pos, &key))
                h ^= (uint64_t)vm_hash(vm, key) * 3644798167u;
            vm_leave(vm);
            return (int64_t)h;
        }
    case OBJ_INSTANCE: {
        PyValue fn, r;
        PyClass *owner;
        if (vm_lookup(o->type, "__hash__", &fn, &owner) &&
            !vm_class_is_builtin(owner)) {
            if (fn.kind == PY_NONE)
                unhashable(vm, v);
            r = vm_call1(vm, fn, v);
            int64_t h;
            if (!vm_as_int64(r, &h))
                vm_raise_class(vm, vm->types[T_TYPE_ERROR], "__hash__ method "
                               "should return an integer");
            return h;
        }
        if (vm_lookup(o->type, "__eq__", &fn, &owner) &&
            !vm_class_is_builtin(owner))
            unhashable(vm, v);
        return hash_pointer(o);
    }
    case OBJ_METHOD: {
        vm_enter(vm, HASHING);
        int64_t h = vm_hash(vm, ((PyMethod *)o)->self) ^
                    vm_hash(vm, ((PyMethod *)o)->func);
        vm_leave(vm);
        return h;
    }
    case OBJ_CLASS:
        /* the builtin classes clinic knows hash as in the reference
           interpreter, so sets of them iterate (and print) in its order */
        if (((PyClass *)o)->pyt_bit)
            return (int64_t)py_class_hash(((PyClass *)o)->pyt_bit);
        return hash_pointer(o);
    default:
        return hash_pointer(o);
    }
}

/* ---- ordering ---------------------------------------------------------- */

static int compare_sequences(PyVM *vm, const PyValue *a, size_t na,
                             const PyValue *b, size_t nb, const char *op,
                             bool *decided)
{
    vm_work(vm, (na < nb ? na : nb) * WORK_ITEM);
    for (size_t i = 0; i < na && i < nb; i++) {
        if (vm_is(a[i], b[i]) || vm_eq(vm, a[i], b[i]))
            continue;
        *decided = true;
        return vm_compare(vm, op, a[i], b[i]);
    }
    *decided = false;
    return na < nb ? -1 : na > nb ? 1 : 0;
}

static int str_cmp(PyValue x, PyValue y)
{
    size_t n = x.len < y.len ? x.len : y.len;
    int c = memcmp(x.s, y.s, n);
    if (c)
        return c < 0 ? -1 : 1;
    return x.len < y.len ? -1 : x.len > y.len ? 1 : 0;
}

static bool ordered(const char *op, int c)
{
    if (!strcmp(op, "Lt")) return c < 0;
    if (!strcmp(op, "LtE")) return c <= 0;
    if (!strcmp(op, "Gt")) return c > 0;
    return c >= 0;
}

static const char *order_dunder(const char *op, bool reflected)
{
    if (!strcmp(op, "Lt")) return reflected ? "__gt__" : "__lt__";
    if (!strcmp(op, "LtE")) return reflected ? "__ge__" : "__le__";
    if (!strcmp(op, "Gt")) return reflected ? "__lt__" : "__gt__";
    return reflected ? "__le__" : "__ge__";
}

static const char *order_symbol(const char *op)
{
    if (!strcmp(op, "Lt")) return "<";
    if (!strcmp(op, "LtE")) return "<=";
    if (!strcmp(op, "Gt")) return ">";
    return ">=";
}

static bool order(PyVM *vm, const char *op, PyValue x, PyValue y)
{
    if (is_int(x) && is_int(y))
        return ordered(op, pyint_cmp(int_text(x), int_text(y)));
    if ((is_int(x) || x.kind == PY_FLOAT) && (is_int(y) || y.kind == PY_FLOAT)) {
        if (is_int(x) || is_int(y)) {
            int c = is_int(x) ? py_int_float_cmp(vm->a, int_text(x), y.f)
                              : -py_int_float_cmp(vm->a, int_text(y), x.f);
            /* a NaN: every order is false */
            return c != 2 && c != -2 && ordered(op, c);
        }
        double a = x.f, b = y.f;
        if (!strcmp(op, "Lt")) return a < b;
        if (!strcmp(op, "LtE")) return a <= b;
        if (!strcmp(op, "Gt")) return a > b;
        return a >= b;
    }
    if ((x.kind == PY_STR && y.kind == PY_STR) ||
        (x.kind == PY_BYTES && y.kind == PY_BYTES))
        return ordered(op, str_cmp(x, y));
    if ((x.kind == PY_TUPLE && y.kind == PY_TUPLE) ||
        (vm_is_kind(x, OBJ_LIST) && vm_is_kind(y, OBJ_LIST))) {
        size_t na, nb;
        PyValue *a = vm_collect(vm, x, &na), *b = vm_collect(vm, y, &nb);
        bool decided;
        vm_enter(vm, " in comparison");
        int c = compare_sequences(vm, a, na, b, nb, op, &decided);
        vm_leave(vm);
        return decided ? c != 0 : ordered(op, c);
    }
    if (vm_is_kind(x, OBJ_SET) && vm_is_kind(y, OBJ_SET)) {
        PySet *a = (PySet *)x.obj, *b = (PySet *)y.obj;
        bool strict = !strcmp(op, "Lt") || !strcmp(op, "Gt");
        bool sub = !strcmp(op, "Lt") || !strcmp(op, "LtE");
        PySet *small = sub ? a : b, *large = sub ? b : a;
        if (small->used > large->used || (strict && small->used == large->used))
            return false;
        size_t pos = 0;
        PyValue key;
        while (vm_set_next(small, &pos, &key))
            if (!vm_set_contains(vm, large, key))
                return false;
        return true;
    }
    PyValue r;
    if (x.kind == PY_OBJECT && !vm_class_is_builtin(vm_type_of(vm, x)) &&
        vm_call_special(vm, x, order_dunder(op, false), &y, 1, &r))
        return vm_truthy(vm, r);
    if (y.kind == PY_OBJECT && !vm_class_is_builtin(vm_type_of(vm, y)) &&
        vm_call_special(vm, y, order_dunder(op, true), &x, 1, &r))
        return vm_truthy(vm, r);
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                   "'%s' not supported between instances of '%s' and '%s'",
                   order_symbol(op), vm_type_name(vm, x), vm_type_name(vm, y)));
}

bool vm_lt(PyVM *vm, PyValue x, PyValue y)
{
    return order(vm, "Lt", x, y);
}

bool vm_compare(PyVM *vm, const char *op, PyValue x, PyValue y)
{
    switch (op[0]) {
    case 'E': return vm_is(x, y) && x.kind == PY_OBJECT ? true : vm_eq(vm, x, y);
    case 'N':
        if (!strcmp(op, "NotEq")) {
            PyValue r;
            PyClass *owner;
            PyValue fn;
            if (x.kind == PY_OBJECT &&
                vm_lookup(vm_type_of(vm, x), "__ne__", &fn, &owner) &&
                !vm_class_is_builtin(owner) &&
                vm_call_special(vm, x, "__ne__", &y, 1, &r))
                return vm_truthy(vm, r);
            return !(vm_is(x, y) && x.kind == PY_OBJECT) && !vm_eq(vm, x, y);
        }
        return !vm_contains(vm, y, x);   /* NotIn */
    case 'I':
        if (!strcmp(op, "In"))
            return vm_contains(vm, y, x);
        if (!strcmp(op, "Is"))
            return vm_is(x, y);
        return !vm_is(x, y);             /* IsNot */
    default:
        return order(vm, op, x, y);
    }
}

/* ---- truth ------------------------------------------------------------- */

bool vm_truthy(PyVM *vm, PyValue v)
{
    if (v.kind != PY_OBJECT)
        return py_truthy(&v);
    switch (v.obj->kind) {
    case OBJ_LIST: return ((PyList *)v.obj)->len != 0;
    case OBJ_DICT: return ((PyDict *)v.obj)->len != 0;
    case OBJ_SET: return ((PySet *)v.obj)->used != 0;
    case OBJ_RANGE:
    case OBJ_DICTVIEW: return vm_len(vm, v) != 0;
    case OBJ_INSTANCE: {
        PyValue r;
        if (vm_call_special(vm, v, "__bool__", NULL, 0, &r)) {
            if (r.kind != PY_BOOL)
                vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                               "__bool__ should return bool, returned %s",
                               vm_type_name(vm, r)));
            return r.b;
        }
        if (vm_call_special(vm, v, "__len__", NULL, 0, &r))
            return vm_truthy(vm, r);
        return true;
    }
    default:
        return true;
    }
}

bool pyvm_truthy(PyVM *vm, PyValue v)
{
    return vm_truthy(vm, v);
}
