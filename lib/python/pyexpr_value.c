/*
 * pyexpr_value.c — Python values: repr(), truthiness, == and type names.
 *
 * Signatures show defaults as Python's repr() prints them, so this file
 * reproduces CPython 3.11's formatting rules: shortest round-trip floats
 * with the 'r' style thresholds (exponent when the decimal point is
 * before -4 or after 16 digits), complex numbers without ".0", str quote
 * choice and escapes by str.isprintable(), bytes escapes.  Integers of
 * any size arrive as decimal text (pyexpr_bignum.c converts other bases
 * and multiplies).
 */
#include "python/pyexpr.h"
#include "python/pyexpr_int.h"
#include "python/pyvm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const PyValue py_unspecified = { .kind = PY_UNSPECIFIED };
const PyValue py_unknown = { .kind = PY_UNKNOWN };
const PyValue py_null = { .kind = PY_NULL };
const PyValue py_none = { .kind = PY_NONE };

/* ---- integers as decimal text ----------------------------------------- */

bool pyint_to_i64(const char *s, int64_t *out)
{
    bool neg = *s == '-';
    if (neg)
        s++;
    uint64_t v = 0;
    for (; *s; s++) {
        if (v > (UINT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
        return false;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

bool pyint_to_double(const char *s, double *out)
{
    /* strtod rounds decimal text correctly, as int.__float__ does. */
    double d = strtod(s, NULL);
    if (isinf(d))
        return false;
    *out = d;
    return true;
}

char *pyint_negate(Arena *a, const char *s)
{
    if (*s == '-')
        return arena_strdup(a, s + 1);
    if (strcmp(s, "0") == 0)
        return arena_strdup(a, s);
    return arena_printf(a, "-%s", s);
}

/* Magnitudes as digit strings: compare, add, subtract (a >= b). */
static int mag_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    if (na != nb)
        return na < nb ? -1 : 1;
    int c = memcmp(a, b, na);
    return c < 0 ? -1 : c > 0;
}

static char *mag_add(Arena *ar, const char *a, size_t na, const char *b, size_t nb)
{
    size_t n = (na > nb ? na : nb) + 1;
    char *r = arena_alloc(ar, n + 1);
    int carry = 0;
    for (size_t i = 0; i < n; i++) {
        int d = carry;
        if (i < na)
            d += a[na - 1 - i] - '0';
        if (i < nb)
            d += b[nb - 1 - i] - '0';
        r[n - 1 - i] = (char)('0' + d % 10);
        carry = d / 10;
    }
    while (r[0] == '0' && r[1])
        r++;
    return r;
}

static char *mag_sub(Arena *ar, const char *a, size_t na, const char *b, size_t nb)
{
    char *r = arena_alloc(ar, na + 1);
    int borrow = 0;
    for (size_t i = 0; i < na; i++) {
        int d = a[na - 1 - i] - '0' - borrow - (i < nb ? b[nb - 1 - i] - '0' : 0);
        borrow = d < 0;
        if (d < 0)
            d += 10;
        r[na - 1 - i] = (char)('0' + d);
    }
    while (r[0] == '0' && r[1])
        r++;
    return r;
}

char *pyint_add(Arena *ar, const char *x, const char *y)
{
    bool nx = *x == '-', ny = *y == '-';
    const char *a = x + nx, *b = y + ny;
    size_t na = strlen(a), nb = strlen(b);
    char *mag;
    bool neg;
    if (nx == ny) {
        mag = mag_add(ar, a, na, b, nb);
        neg = nx;
    } else if (mag_cmp(a, na, b, nb) >= 0) {
        mag = mag_sub(ar, a, na, b, nb);
        neg = nx;
    } else {
        mag = mag_sub(ar, b, nb, a, na);
        neg = ny;
    }
    if (neg && strcmp(mag, "0") != 0)
        return arena_printf(ar, "-%s", mag);
    return mag;
}

char *pysb_take(StrBuf *sb, Arena *a)
{
    return sb_take(sb, a);
}

PyValue py_make_int(const char *digits)
{
    PyValue v = { .kind = PY_INT, .s = digits, .len = strlen(digits) };
    return v;
}

PyValue py_make_str(const char *s, size_t len)
{
    PyValue v = { .kind = PY_STR, .s = s, .len = len };
    return v;
}

PyValue py_make_opaque(const char *type_name, const char *repr)
{
    PyValue v = { .kind = PY_UNKNOWN, .s = repr, .len = strlen(repr),
                  .type_name = type_name };
    return v;
}

PyValue py_make_uncomputed(const char *type_name, const char *stand_in)
{
    PyValue v = py_make_opaque(type_name, stand_in);
    v.uncomputed = true;
    return v;
}

bool py_is_opaque(const PyValue *v)
{
    return v->kind == PY_UNKNOWN && v->type_name != NULL;
}

bool py_is_uncomputed(const PyValue *v)
{
    if (v->uncomputed)
        return true;
    if (v->kind != PY_TUPLE && !(py_is_opaque(v) && v->items))
        return false;
    /* a dict's keys are followed by its values */
    size_t n = v->kind == PY_UNKNOWN && strcmp(v->type_name, "dict") == 0
                   ? 2 * v->nitems : v->nitems;
    for (size_t i = 0; i < n; i++)
        if (py_is_uncomputed(&v->items[i]))
            return true;
    return false;
}

/* ---- floats ------------------------------------------------------------ */

/* The shortest digits that read back as x: try 1..17 significant digits,
   the way Python's repr picks the shortest correctly rounded string. */
static void shortest_digits(double x, char *digits, int *decpt)
{
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    /* buf is "[-]d.ddde[+-]xx" */
    const char *p = buf;
    if (*p == '-')
        p++;
    size_t n = 0;
    for (; *p && *p != 'e'; p++)
        if (*p != '.')
            digits[n++] = *p;
    while (n > 1 && digits[n - 1] == '0')
        n--;
    digits[n] = '\0';
    *decpt = atoi(p + 1) + 1;
}

void pyfloat_repr(StrBuf *sb, double x, bool add_dot_0)
{
    if (isnan(x)) {
        sb_adds(sb, "nan");
        return;
    }
    if (signbit(x))
        sb_addc(sb, '-');
    x = fabs(x);
    if (isinf(x)) {
        sb_adds(sb, "inf");
        return;
    }
    char digits[32];
    int decpt;
    if (x == 0) {
        strcpy(digits, "0");
        decpt = 1;
    } else {
        shortest_digits(x, digits, &decpt);
    }
    int nd = (int)strlen(digits);
    if (decpt <= -4 || decpt > 16) {
        sb_addc(sb, digits[0]);
        if (nd > 1) {
            sb_addc(sb, '.');
            sb_adds(sb, digits + 1);
        }
        int e = decpt - 1;
        sb_addf(sb, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    } else if (decpt <= 0) {
        sb_adds(sb, "0.");
        for (int i = 0; i < -decpt; i++)
            sb_addc(sb, '0');
        sb_adds(sb, digits);
    } else if (decpt >= nd) {
        sb_adds(sb, digits);
        for (int i = nd; i < decpt; i++)
            sb_addc(sb, '0');
        if (add_dot_0)
            sb_adds(sb, ".0");
    } else {
        sb_add(sb, digits, (size_t)decpt);
        sb_addc(sb, '.');
        sb_adds(sb, digits + decpt);
    }
}

static void pycomplex_repr(StrBuf *sb, double re, double im)
{
    if (re == 0 && !signbit(re)) {
        pyfloat_repr(sb, im, false);
        sb_addc(sb, 'j');
        return;
    }
    sb_addc(sb, '(');
    pyfloat_repr(sb, re, false);
    if (!signbit(im) || isnan(im))
        sb_addc(sb, '+');
    pyfloat_repr(sb, im, false);
    sb_adds(sb, "j)");
}

/* ---- str and bytes ----------------------------------------------------- */

size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    size_t len;
    uint32_t v;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xE0) == 0xC0) {
        len = 2;
        v = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3;
        v = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4;
        v = c & 0x07;
    } else {
        *cp = c;
        return 1;
    }
    if (len > n) {
        *cp = c;
        return 1;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = c;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3F);
    }
    *cp = v;
    return len;
}

void utf8_encode(StrBuf *sb, uint32_t cp)
{
    char b[4];
    if (cp < 0x80) {
        sb_addc(sb, (char)cp);
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        sb_add(sb, b, 2);
    } else if (cp < 0x10000) {
        /* lone surrogates too, as Python strs may hold them */
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        sb_add(sb, b, 3);
    } else {
        b[0] = (char)(0xF0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        sb_add(sb, b, 4);
    }
}

void pystr_repr(StrBuf *sb, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    bool has_single = memchr(s, '\'', len) != NULL;
    bool has_double = memchr(s, '"', len) != NULL;
    char quote = has_single && !has_double ? '"' : '\'';
    sb_addc(sb, quote);
    for (size_t i = 0; i < len;) {
        uint32_t c;
        size_t n = utf8_decode(u + i, len - i, &c);
        if (c == (uint32_t)quote || c == '\\') {
            sb_addc(sb, '\\');
            sb_addc(sb, (char)c);
        } else if (c == '\t') {
            sb_adds(sb, "\\t");
        } else if (c == '\n') {
            sb_adds(sb, "\\n");
        } else if (c == '\r') {
            sb_adds(sb, "\\r");
        } else if (c < 0x80 && (c < ' ' || c == 0x7F)) {
            sb_addf(sb, "\\x%02x", (unsigned)c);
        } else if (c < 0x80 || unicode_isprintable(c)) {
            sb_add(sb, s + i, n);
        } else if (c <= 0xFF) {
            sb_addf(sb, "\\x%02x", (unsigned)c);
        } else if (c <= 0xFFFF) {
            sb_addf(sb, "\\u%04x", (unsigned)c);
        } else {
            sb_addf(sb, "\\U%08x", (unsigned)c);
        }
        i += n;
    }
    sb_addc(sb, quote);
}

static void repr_bytes(StrBuf *sb, const char *s, size_t len)
{
    bool has_single = memchr(s, '\'', len) != NULL;
    bool has_double = memchr(s, '"', len) != NULL;
    char quote = has_single && !has_double ? '"' : '\'';
    sb_addc(sb, 'b');
    sb_addc(sb, quote);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == (unsigned char)quote || c == '\\') {
            sb_addc(sb, '\\');
            sb_addc(sb, (char)c);
        } else if (c == '\t') {
            sb_adds(sb, "\\t");
        } else if (c == '\n') {
            sb_adds(sb, "\\n");
        } else if (c == '\r') {
            sb_adds(sb, "\\r");
        } else if (c < ' ' || c >= 0x7F) {
            sb_addf(sb, "\\x%02x", c);
        } else {
            sb_addc(sb, (char)c);
        }
    }
    sb_addc(sb, quote);
}

char *py_repr_str(Arena *a, const char *s, size_t len)
{
    /* printable ASCII without quotes or backslashes (names, mostly)
       is itself between single quotes */
    size_t i = 0;
    while (i < len && s[i] >= ' ' && s[i] <= '~' && s[i] != '\'' &&
           s[i] != '"' && s[i] != '\\')
        i++;
    if (i == len) {
        char *r = arena_alloc_uninit(a, len + 3);
        r[0] = '\'';
        memcpy(r + 1, s, len);
        r[len + 1] = '\'';
        r[len + 2] = '\0';
        return r;
    }
    StrBuf sb = STRBUF_INIT;
    pystr_repr(&sb, s, len);
    return pysb_take(&sb, a);
}

/* ---- types ------------------------------------------------------------- */

static const struct {
    unsigned bit;
    const char *name;
    const char *repr;
} type_table[] = {
    { PYT_OBJECT, "object", "<class 'object'>" },
    { PYT_INT, "int", "<class 'int'>" },
    { PYT_STR, "str", "<class 'str'>" },
    { PYT_BYTES, "bytes", "<class 'bytes'>" },
    { PYT_BYTEARRAY, "bytearray", "<class 'bytearray'>" },
    { PYT_FLOAT, "float", "<class 'float'>" },
    { PYT_COMPLEX, "complex", "<class 'complex'>" },
    { PYT_BOOL, "bool", "<class 'bool'>" },
    { PYT_NONETYPE, "NoneType", "<class 'NoneType'>" },
    /* defined in clinic.py, which runs as __main__ */
    { PYT_BUFFER, "buffer", "<class '__main__.buffer'>" },
    { PYT_ROBUFFER, "robuffer", "<class '__main__.robuffer'>" },
    { PYT_RWBUFFER, "rwbuffer", "<class '__main__.rwbuffer'>" },
};
#define NTYPES (sizeof type_table / sizeof type_table[0])

const char *py_type_name(unsigned type_bit)
{
    for (size_t i = 0; i < NTYPES; i++)
        if (type_table[i].bit == type_bit)
            return type_table[i].name;
    return "?";
}

static const char *type_repr(unsigned type_bit)
{
    for (size_t i = 0; i < NTYPES; i++)
        if (type_table[i].bit == type_bit)
            return type_table[i].repr;
    return "<class '?'>";
}

const char *py_value_type_name(const PyValue *v)
{
    switch (v->kind) {
    case PY_UNSPECIFIED: return "Unspecified";
    case PY_UNKNOWN: return v->type_name ? v->type_name : "Unknown";
    case PY_NULL: return "Null";
    case PY_NONE: return "NoneType";
    case PY_BOOL: return "bool";
    case PY_INT: return "int";
    case PY_FLOAT: return "float";
    case PY_COMPLEX: return "complex";
    case PY_STR: return "str";
    case PY_BYTES: return "bytes";
    case PY_TYPE: return "type";
    case PY_SET: return "set";
    case PY_TUPLE: return "tuple";
    case PY_OBJECT: return "object";   /* pyvm_type_name() knows better */
    }
    return "object";
}

/* ---- the order Python iterates a set of classes --------------------------- */

/* A class hashes by its address (shifted right by 4), which decides how
   a small set is laid out, and so the order repr() prints.  Python's
   builtin classes are static objects of the interpreter, and Debian
   bookworm's /usr/bin/python3.11 (3.11.2: the reference interpreter,
   which CI and make deps install) is not position-independent: their
   addresses are the same in every run, and are these.  (Another build,
   a pyenv 3.11 say, orders some sets differently.)  clinic's own buffer
   classes live on the heap, where Python's order varies from run to run
   anyway; their addresses are one run's, with the spacing they always
   have. */
static const struct {
    unsigned bit;
    unsigned long long address;
} class_addresses[] = {
    { PYT_OBJECT, 0x9563c0 }, { PYT_INT, 0x958cc0 }, { PYT_STR, 0x958980 },
    { PYT_BYTES, 0x958b20 }, { PYT_BYTEARRAY, 0x955e60 },
    { PYT_FLOAT, 0x950900 }, { PYT_COMPLEX, 0x9542e0 }, { PYT_BOOL, 0x956820 },
    { PYT_NONETYPE, 0x94b260 }, { PYT_BUFFER, 0x7f3a1f90f910 },
    { PYT_ROBUFFER, 0x7f3a1f9106d0 }, { PYT_RWBUFFER, 0x7f3a1f90fff0 },
};

size_t py_class_hash(unsigned bit)
{
    for (size_t i = 0; i < sizeof class_addresses / sizeof class_addresses[0]; i++)
        if (class_addresses[i].bit == bit)
            return (size_t)(class_addresses[i].address >> 4);
    return 0;
}

/* The members of a PY_SET in the order Python would iterate it, having
   built it by adding v->items in order (or the PYT_ bits in order); with
   frozen, then copied by frozenset(), which sizes its table for twice
   the members (set_merge) and so may lay them out anew. */
static size_t set_iteration_order(const PyValue *v, bool frozen,
                                  unsigned *out)
{
    unsigned inserted[NTYPES];
    int64_t keys[NTYPES], hashes[NTYPES];
    size_t order[NTYPES], n = 0;
    if (v->items)
        for (size_t i = 0; i < v->nitems && n < NTYPES; i++) {
            unsigned bit = v->items[i].types;
            bool dup = false;
            for (size_t k = 0; k < n; k++)
                dup |= inserted[k] == bit;
            if (v->items[i].kind == PY_TYPE && !dup)
                inserted[n++] = bit;
        }
    else
        for (size_t i = 0; i < NTYPES; i++)
            if (v->types & type_table[i].bit)
                inserted[n++] = type_table[i].bit;
    for (size_t k = 0; k < n; k++) {
        keys[k] = inserted[k];
        hashes[k] = (int64_t)py_class_hash(inserted[k]);
    }
    Arena *a = arena_new();
    size_t count = pyset_order(a, keys, hashes, n, frozen, order);
    arena_free(a);
    for (size_t k = 0; k < count; k++)
        out[k] = inserted[order[k]];
    return count;
}

static void repr_class_set(StrBuf *sb, const PyValue *v, bool frozen)
{
    unsigned order[NTYPES];
    size_t n = set_iteration_order(v, frozen, order);
    sb_addc(sb, '{');
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_adds(sb, ", ");
        sb_adds(sb, type_repr(order[i]));
    }
    sb_addc(sb, '}');
}

char *py_frozenset_repr(Arena *a, const PyValue *v)
{
    StrBuf sb = STRBUF_INIT;
    if (!v->types) {
        sb_adds(&sb, "frozenset()");
    } else {
        sb_adds(&sb, "frozenset(");
        repr_class_set(&sb, v, true);
        sb_addc(&sb, ')');
    }
    return pysb_take(&sb, a);
}

/* ---- repr -------------------------------------------------------------- */

void pyvalue_repr(StrBuf *sb, const PyValue *v)
{
    switch (v->kind) {
    case PY_UNSPECIFIED: sb_adds(sb, "<Unspecified>"); return;
    case PY_UNKNOWN:
        if (v->type_name)
            sb_add(sb, v->s, v->len);
        else
            sb_adds(sb, "<Unknown>");
        return;
    case PY_NULL: sb_adds(sb, "<Null>"); return;
    case PY_NONE: sb_adds(sb, "None"); return;
    case PY_BOOL: sb_adds(sb, v->b ? "True" : "False"); return;
    case PY_INT: sb_add(sb, v->s, v->len); return;
    case PY_FLOAT: pyfloat_repr(sb, v->f, true); return;
    case PY_COMPLEX: pycomplex_repr(sb, v->f, v->imag); return;
    case PY_STR: pystr_repr(sb, v->s ? v->s : "", v->len); return;
    case PY_BYTES: repr_bytes(sb, v->s ? v->s : "", v->len); return;
    case PY_TYPE: sb_adds(sb, type_repr(v->types)); return;
    case PY_SET: {
        if (!v->types) {
            sb_adds(sb, "set()");
            return;
        }
        repr_class_set(sb, v, false);
        return;
    }
    case PY_TUPLE:
        sb_addc(sb, '(');
        for (size_t i = 0; i < v->nitems; i++) {
            if (i)
                sb_adds(sb, ", ");
            pyvalue_repr(sb, &v->items[i]);
        }
        if (v->nitems == 1)
            sb_addc(sb, ',');
        sb_addc(sb, ')');
        return;
    case PY_OBJECT:
        /* the interpreter's repr() may run Python code: pyvm_repr() */
        sb_adds(sb, "<object>");
        return;
    }
}

char *py_repr(Arena *a, const PyValue *v)
{
    /* the reprs that are a copy of some text need no buffer */
    switch (v->kind) {
    case PY_NONE: return arena_strndup(a, "None", 4);
    case PY_BOOL: return v->b ? arena_strndup(a, "True", 4)
                              : arena_strndup(a, "False", 5);
    case PY_INT: return arena_strndup(a, v->s, v->len);
    default: break;
    }
    StrBuf sb = STRBUF_INIT;
    pyvalue_repr(&sb, v);
    return pysb_take(&sb, a);
}

/* ---- truthiness and equality ------------------------------------------ */

bool py_truthy(const PyValue *v)
{
    switch (v->kind) {
    case PY_NONE: return false;
    case PY_BOOL: return v->b;
    case PY_INT: return strcmp(v->s, "0") != 0;
    case PY_FLOAT: return v->f != 0;
    case PY_COMPLEX: return v->f != 0 || v->imag != 0;
    case PY_STR:
    case PY_BYTES: return v->len > 0;
    case PY_SET: return v->types != 0;
    case PY_TUPLE: return v->nitems > 0;
    case PY_UNKNOWN:
        if (v->type_name && v->s &&
            (strcmp(v->s, "[]") == 0 || strcmp(v->s, "{}") == 0 ||
             strcmp(v->s, "set()") == 0))
            return false;
        return true;
    default: return true;
    }
}

/* A number's value as (real, imag) and, for ints and bools, its exact
   decimal text; false for non-numbers. */
static bool numeric(const PyValue *v, double *re, double *im, const char **text)
{
    *im = 0;
    *text = NULL;
    switch (v->kind) {
    case PY_BOOL:
        *re = v->b;
        *text = v->b ? "1" : "0";
        return true;
    case PY_INT:
        *text = v->s;
        if (!pyint_to_double(v->s, re))
            *re = INFINITY;
        return true;
    case PY_FLOAT:
        *re = v->f;
        return true;
    case PY_COMPLEX:
        *re = v->f;
        *im = v->imag;
        return true;
    default:
        return false;
    }
}

/* int == float exactly: the float must be integral with the same digits. */
static bool int_equals_double(const char *text, double d)
{
    if (!isfinite(d) || d != floor(d))
        return false;
    char buf[400];
    snprintf(buf, sizeof buf, "%.0f", d);
    if (strcmp(buf, "-0") == 0)
        strcpy(buf, "0");
    return strcmp(buf, text) == 0;
}

bool py_equal(const PyValue *x, const PyValue *y)
{
    double xr, xi, yr, yi;
    const char *xt, *yt;
    if (numeric(x, &xr, &xi, &xt) && numeric(y, &yr, &yi, &yt)) {
        if (xt && yt)
            return strcmp(xt, yt) == 0;
        if (xt)
            return yi == 0 && int_equals_double(xt, yr);
        if (yt)
            return xi == 0 && int_equals_double(yt, xr);
        return xr == yr && xi == yi;
    }
    if (x->kind != y->kind)
        return false;
    switch (x->kind) {
    case PY_STR:
    case PY_BYTES:
        return x->len == y->len && memcmp(x->s, y->s, x->len) == 0;
    case PY_TYPE:
    case PY_SET:
        return x->types == y->types;
    case PY_TUPLE:
        if (x->nitems != y->nitems)
            return false;
        for (size_t i = 0; i < x->nitems; i++)
            if (!py_equal(&x->items[i], &y->items[i]))
                return false;
        return true;
    case PY_UNKNOWN:
        /* the one `unknown`, or two opaque objects we cannot tell apart */
        if (!x->type_name || !y->type_name)
            return !x->type_name && !y->type_name;
        return strcmp(x->type_name, y->type_name) == 0 && x->len == y->len &&
               memcmp(x->s, y->s, x->len) == 0;
    case PY_OBJECT:
        return x->obj == y->obj;
    default:
        return true; /* None, NULL, unspecified: singletons */
    }
}

/* ---- exceptions as a traceback prints them -------------------------------- */

char *pyexpr_exception_line(Arena *a, const PyException *exc)
{
    if (!*exc->message)
        return arena_strdup(a, exc->type);
    return arena_printf(a, "%s: %s", exc->type, exc->message);
}
