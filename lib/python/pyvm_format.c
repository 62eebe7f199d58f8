/*
 * pyvm_format.c — how Python formats values into text: the format-spec
 * mini-language (format(), f-strings, str.format), str.format's
 * replacement fields, and printf-style % formatting, with CPython 3.11's
 * results and ValueError/TypeError messages.
 *
 * Floats go through C's printf for the e/f/g forms (glibc rounds
 * correctly, as CPython's dtoa does) and pyexpr's shortest repr for the
 * default form.  Ints of any size format from their decimal text.
 */
#include "python/pyvm_int.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn static void value_error(PyVM *vm, const char *msg)
{
    vm_raise_class(vm, vm->types[T_VALUE_ERROR], msg);
}

_Noreturn static void type_error(PyVM *vm, const char *msg)
{
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], msg);
}

/* ---- the format-spec mini-language ------------------------------------- */

typedef struct Spec {
    const char *fill;          /* one code point (UTF-8) */
    size_t fill_len;
    char align;                /* 0 when not given */
    char sign;
    bool z, alt, zero;
    int64_t width;             /* -1 when not given */
    char grouping;
    int64_t precision;         /* -1 when not given */
    char type;                 /* 0 when not given */
} Spec;

static bool is_align(char c)
{
    return c == '<' || c == '>' || c == '=' || c == '^';
}

/* A width or precision; -2 when it passes Py_ssize_t, as CPython counts
   (the caller names the error: each formatting language has its own). */
static int64_t digits(const char **p)
{
    int64_t n = 0;
    bool overflow = false;
    while (isdigit((unsigned char)**p)) {
        int d = **p - '0';
        if (n > (INT64_MAX - d) / 10)
            overflow = true;
        else
            n = n * 10 + d;
        (*p)++;
    }
    return overflow ? -2 : n;
}

static int64_t spec_digits(PyVM *vm, const char **p)
{
    int64_t n = digits(p);
    if (n == -2)
        value_error(vm, "Too many decimal digits in format string");
    return n;
}

static void parse_spec(PyVM *vm, const char *s, Spec *sp, const char *type_name)
{
    memset(sp, 0, sizeof *sp);
    sp->fill = " ";
    sp->fill_len = 1;
    sp->width = sp->precision = -1;
    const char *p = s;
    bool fill_given = false;
    size_t first = *p ? vm_str_offset(p, strlen(p), 1) : 0;
    if (*p && is_align(p[first])) {
        sp->fill = p;
        sp->fill_len = first;
        sp->align = p[first];
        fill_given = true;
        p += first + 1;
    } else if (is_align(*p)) {
        sp->align = *p++;
    }
    if (*p == '+' || *p == '-' || *p == ' ')
        sp->sign = *p++;
    if (*p == 'z') {
        sp->z = true;
        p++;
    }
    if (*p == '#') {
        sp->alt = true;
        p++;
    }
    /* '0' pads with zeros unless a fill was given, and aligns after
       the sign when no alignment was given (numbers only) */
    if (*p == '0') {
        sp->zero = true;
        if (!fill_given) {
            sp->fill = "0";
            sp->fill_len = 1;
            if (!sp->align && strcmp(type_name, "str"))
                sp->align = '=';
        }
        p++;
    }
    if (isdigit((unsigned char)*p))
        sp->width = spec_digits(vm, &p);
    if (*p == ',' || *p == '_')
        sp->grouping = *p++;
    if (*p == ',' || *p == '_')
        value_error(vm, "Cannot specify both ',' and '_'.");
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p))
            value_error(vm, "Format specifier missing precision");
        sp->precision = spec_digits(vm, &p);
    }
    if (*p && p[1])
        value_error(vm, arena_printf(vm->a, "Invalid format specifier '%s' "
                                     "for object of type '%s'", s, type_name));
    sp->type = *p;
    if (sp->grouping && sp->type && !strchr("deEfFgG%", sp->type) &&
        !(sp->grouping == '_' && strchr("bxXo", sp->type)))
        value_error(vm, arena_printf(vm->a, "Cannot specify '%c' with '%c'.",
                                     sp->grouping, sp->type));
}

/* Pads body (sign and prefix before it, for '=') to the spec's width. */
static const char *pad(PyVM *vm, const Spec *sp, const char *sign_prefix,
                       const char *body, char default_align)
{
    char align = sp->align ? sp->align : default_align;
    size_t blen = strlen(body), plen = strlen(sign_prefix);
    size_t len = vm_str_len(sign_prefix, plen) + vm_str_len(body, blen);
    ABuf b = { vm, NULL, 0, 0 };
    ab_add(&b, "", 0);
    size_t fillc = sp->width > (int64_t)len ? (size_t)sp->width - len : 0;
    size_t left = align == '>' || align == '=' ? fillc
                : align == '^' ? fillc / 2 : 0;
    size_t right = fillc - left;
    vm_reserve(vm, vm_work_of(fillc, sp->fill_len) + blen + plen);
    if (align == '=')
        ab_adds(&b, sign_prefix);
    for (size_t i = 0; i < left; i++)
        ab_add(&b, sp->fill, sp->fill_len);
    if (align != '=')
        ab_adds(&b, sign_prefix);
    ab_add(&b, body, blen);
    for (size_t i = 0; i < right; i++)
        ab_add(&b, sp->fill, sp->fill_len);
    return b.s;
}

/* Groups of n digits separated by sep in the integer digits s. */
static const char *group(PyVM *vm, const char *s, size_t n, int every, char sep,
                         size_t min_width)
{
    ABuf b = { vm, NULL, 0, 0 };
    ab_add(&b, "", 0);
    /* '0' padding is grouped too: widen with zeros first */
    size_t total = n;
    while (min_width && total + (total - 1) / (size_t)every < min_width)
        total++;
    for (size_t i = 0; i < total; i++) {
        size_t from_right = total - i;
        if (i && from_right % (size_t)every == 0)
            ab_addc(&b, sep);
        ab_addc(&b, i < total - n ? '0' : s[i - (total - n)]);
    }
    return b.s;
}

static const char *format_str(PyVM *vm, const char *s, const Spec *sp)
{
    if (sp->type && sp->type != 's')
        value_error(vm, arena_printf(vm->a, "Unknown format code '%c' for "
                                     "object of type 'str'", sp->type));
    if (sp->sign)
        value_error(vm, "Sign not allowed in string format specifier");
    if (sp->alt)
        value_error(vm, "Alternate form (#) not allowed in string format "
                        "specifier");
    if (sp->align == '=')
        value_error(vm, "'=' alignment not allowed in string format "
                        "specifier");
    if (sp->grouping)
        value_error(vm, arena_printf(vm->a, "Cannot specify '%c' with 's'.",
                                     sp->grouping));
    if (sp->precision >= 0) {
        size_t n = strlen(s);
        size_t cut = vm_str_offset(s, n, (size_t)sp->precision);
        s = vm_strndup(vm, s, cut);
    }
    return pad(vm, sp, "", s, '<');
}

static const char *sign_of(bool negative, char sign)
{
    if (negative)
        return "-";
    return sign == '+' ? "+" : sign == ' ' ? " " : "";
}

static const char *format_int(PyVM *vm, const char *text, const Spec *sp)
{
    char type = sp->type ? sp->type : 'd';
    if (strchr("eEfFgG%", type))
        return NULL;   /* the caller formats it as a float */
    if (!strchr("bcdoxXn", type))
        value_error(vm, arena_printf(vm->a, "Unknown format code '%c' for "
                                     "object of type 'int'", type));
    if (sp->precision >= 0)
        value_error(vm, "Precision not allowed in integer format specifier");
    if (sp->z)
        value_error(vm, "Negative zero coercion (z) not allowed in integer "
                        "format specifier");
    bool negative = text[0] == '-';
    const char *mag = text + negative;
    if (type == 'c') {
        if (sp->sign)
            value_error(vm, "Sign not allowed with integer format specifier "
                            "'c'");
        if (sp->alt)
            value_error(vm, "Alternate form (#) not allowed with integer "
                            "format specifier 'c'");
        int64_t cp;
        if (!pyint_to_i64(text, &cp) || cp < 0 || cp > 0x10ffff)
            vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR],
                           "%c arg not in range(0x110000)");
        StrBuf tmp = STRBUF_INIT;
        utf8_encode(&tmp, (uint32_t)cp);
        const char *body = vm_strndup(vm, tmp.buf, tmp.len);
        sb_free(&tmp);
        return pad(vm, sp, "", body, '<');
    }
    int base = type == 'b' ? 2 : type == 'o' ? 8 : (type == 'x' || type == 'X') ? 16 : 10;
    if (base == 10)
        vm_check_int_digits(vm, text);
    char *d = base == 10 ? (char *)mag : vm_int_to_base(vm, mag, base);
    if (type == 'X')
        for (char *c = d; *c; c++)
            *c = (char)toupper((unsigned char)*c);
    const char *prefix = "";
    if (sp->alt && base != 10)
        prefix = type == 'b' ? "0b" : type == 'o' ? "0o" : type == 'x' ? "0x" : "0X";
    const char *sp_prefix = arena_printf(vm->a, "%s%s", sign_of(negative, sp->sign),
                                         prefix);
    const char *body = d;
    if (sp->grouping) {
        size_t min = 0;
        if (sp->align == '=' && sp->fill[0] == '0' && sp->width > 0)
            min = (size_t)sp->width > strlen(sp_prefix)
                      ? (size_t)sp->width - strlen(sp_prefix) : 0;
        body = group(vm, d, strlen(d), base == 10 ? 3 : 4, sp->grouping, min);
    }
    return pad(vm, sp, sp_prefix, body, '>');
}

/* The digits of a float in e/f/g/% form (no sign). */
/* Floats print every digit asked for, as CPython does, up to its limit
   and the block's memory. */
static void reserve_precision(PyVM *vm, int64_t prec)
{
    if (prec > INT_MAX)
        value_error(vm, "precision too big");
    vm_reserve(vm, (size_t)prec + 400);
}

static const char *float_digits(PyVM *vm, double x, char type, int64_t prec,
                                bool alt, bool *add_dot0)
{
    if (isinf(x))
        return isupper((unsigned char)type) ? "INF" : "inf";
    if (isnan(x))
        return isupper((unsigned char)type) ? "NAN" : "nan";
    reserve_precision(vm, prec);
    char fmt[16];
    char t = type == 'F' ? 'f' : type == 'n' ? 'g' : type;
    snprintf(fmt, sizeof fmt, "%%%s.%d%c", alt ? "#" : "", (int)prec, t);
    char *s = arena_printf(vm->a, fmt, x);
    if (add_dot0 && *add_dot0 && !strpbrk(s, ".eEn"))
        s = arena_printf(vm->a, "%s.0", s);
    return s;
}

/* No type but a precision: 'g', except that an integral result keeps a
   ".0" and so switches to the exponent one digit sooner (CPython's
   format_float_short with Py_DTSF_ADD_DOT_0). */
static const char *general_with_dot(PyVM *vm, double x, int64_t prec,
                                    bool alt)
{
    if (!isfinite(x))
        return float_digits(vm, x, 'g', prec, alt, NULL);
    reserve_precision(vm, prec);
    char *e = arena_printf(vm->a, "%.*e", (int)prec - 1, x);
    int decpt = atoi(strchr(e, 'e') + 1) + 1;
    char *s;
    if (decpt <= -4 || decpt > prec - 1) {
        s = e;
        if (!alt) {
            /* drop the mantissa's trailing zeros, and a bare point */
            char *exp = strchr(s, 'e'), *m = exp;
            if (memchr(s, '.', (size_t)(exp - s))) {
                while (m[-1] == '0')
                    m--;
                if (m[-1] == '.')
                    m--;
            }
            s = arena_printf(vm->a, "%.*s%s", (int)(m - s), s, exp);
        } else if (!strchr(s, '.')) {
            char *exp = strchr(s, 'e');
            s = arena_printf(vm->a, "%.*s.%s", (int)(exp - s), s, exp);
        }
        return s;
    }
    s = arena_printf(vm->a, "%.*f", (int)(prec - decpt), x);
    if (!alt && strchr(s, '.')) {
        size_t n = strlen(s);
        while (s[n - 1] == '0')
            n--;
        if (s[n - 1] == '.')
            n--;
        s[n] = '\0';
    }
    if (!strchr(s, '.'))
        s = arena_printf(vm->a, "%s%s", s, alt ? "." : ".0");
    return s;
}

static const char *format_float(PyVM *vm, double x, const Spec *sp,
                                bool from_int)
{
    char type = sp->type;
    if (type && !strchr("eEfFgGn%", type))
        value_error(vm, arena_printf(vm->a, "Unknown format code '%c' for "
                                     "object of type '%s'", type,
                                     from_int ? "int" : "float"));
    bool negative = signbit(x) && !isnan(x);
    double mag = fabs(x);
    const char *body;
    if (type == '%') {
        body = float_digits(vm, mag * 100, 'f', sp->precision < 0 ? 6 : sp->precision,
                            sp->alt, NULL);
        body = arena_printf(vm->a, "%s%%", body);
    } else if (!type && sp->precision < 0) {
        StrBuf tmp = STRBUF_INIT;    /* repr() */
        pyfloat_repr(&tmp, mag, true);
        body = vm_strndup(vm, tmp.buf, tmp.len);
        sb_free(&tmp);
        const char *e = strchr(body, 'e');
        if (sp->alt && e && !memchr(body, '.', (size_t)(e - body)))
            body = arena_printf(vm->a, "%.*s.%s", (int)(e - body), body, e);
    } else if (!type) {
        body = general_with_dot(vm, mag, sp->precision ? sp->precision : 1,
                                sp->alt);
    } else {
        int64_t prec = sp->precision < 0 ? 6 : sp->precision;
        char t = type ? type : 'g';
        if ((t == 'g' || t == 'G' || t == 'n') && prec == 0)
            prec = 1;
        bool dot0 = !type;
        body = float_digits(vm, mag, t, prec, sp->alt, &dot0);
    }
    if (sp->z && negative) {
        /* negative zero after rounding becomes zero */
        bool all_zero = true;
        for (const char *c = body; *c; c++)
            if (isdigit((unsigned char)*c) && *c != '0')
                all_zero = false;
        if (all_zero)
            negative = false;
    }
    if (sp->grouping) {
        size_t intlen = strspn(body, "0123456789");
        size_t min = 0;
        const char *signp = sign_of(negative, sp->sign);
        if (sp->align == '=' && sp->fill[0] == '0' && sp->width > 0) {
            size_t rest = strlen(body) - intlen + strlen(signp);
            min = (size_t)sp->width > rest ? (size_t)sp->width - rest : 0;
        }
        body = arena_printf(vm->a, "%s%s",
                            group(vm, body, intlen, 3, sp->grouping, min),
                            body + intlen);
    }
    return pad(vm, sp, sign_of(negative, sp->sign), body, '>');
}

const char *vm_format(PyVM *vm, PyValue v, const char *spec)
{
    Spec sp;
    switch (v.kind) {
    case PY_STR:
        if (!*spec)
            return v.s;
        parse_spec(vm, spec, &sp, "str");
        return format_str(vm, v.s, &sp);
    case PY_BOOL:
        if (!*spec)
            return v.b ? "True" : "False";
        return vm_format(vm, vm_make_int64(vm, v.b), spec);
    case PY_INT: {
        const char *text = v.kind == PY_BOOL ? (v.b ? "1" : "0") : v.s;
        if (!*spec) {
            vm_check_int_digits(vm, text);
            return text;
        }
        parse_spec(vm, spec, &sp, "int");
        const char *r = format_int(vm, text, &sp);
        if (r)
            return r;
        double d;
        if (!pyint_to_double(text, &d) || isinf(d))
            vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR],
                           "int too large to convert to float");
        return format_float(vm, d, &sp, true);
    }
    case PY_FLOAT:
        if (!*spec)
            return vm_repr(vm, v);
        parse_spec(vm, spec, &sp, "float");
        return format_float(vm, v.f, &sp, false);
    default:
        break;
    }
    PyValue fn, r;
    PyClass *owner;
    if (vm_is_kind(v, OBJ_INSTANCE) &&
        vm_lookup(vm_type_of(vm, v), "__format__", &fn, &owner) &&
        !vm_class_is_builtin(owner)) {
        PyValue s = vm_make_str(vm, spec, strlen(spec));
        r = vm_call2(vm, fn, v, s);
        if (r.kind != PY_STR)
            type_error(vm, arena_printf(vm->a, "__format__ must return a str, "
                                        "not %s", vm_type_name(vm, r)));
        return r.s;
    }
    if (vm_sentinel_member(vm, v))   /* Enum.__format__: str's format */
        return vm_format(vm, vm_make_str(vm, vm_str(vm, v),
                                         strlen(vm_str(vm, v))), spec);
    if (*spec)
        type_error(vm, arena_printf(vm->a, "unsupported format string passed "
                                    "to %s.__format__", vm_type_name(vm, v)));
    return vm_str(vm, v);
}

/* ---- str.format -------------------------------------------------------- */

typedef struct FormatState {
    PyVM *vm;
    const PyArgs *a;
    int auto_index;            /* -1: manual numbering seen */
    bool manual;
} FormatState;

static PyValue field_value(FormatState *st, const char *name, size_t n)
{
    PyVM *vm = st->vm;
    size_t i = 0;
    while (i < n && name[i] != '.' && name[i] != '[')
        i++;
    PyValue v;
    if (i == 0) {
        if (st->manual)
            value_error(vm, "cannot switch from manual field specification "
                            "to automatic field numbering");
        int idx = st->auto_index++;
        if ((size_t)idx >= st->a->nargs)
            vm_raise_class(vm, vm->types[T_INDEX_ERROR], arena_printf(vm->a,
                           "Replacement index %d out of range for positional "
                           "args tuple", idx));
        v = st->a->args[idx];
    } else {
        bool numeric = true;
        for (size_t k = 0; k < i; k++)
            numeric &= isdigit((unsigned char)name[k]) != 0;
        if (numeric) {
            if (st->auto_index > 0)
                value_error(vm, "cannot switch from automatic field numbering "
                                "to manual field specification");
            st->manual = true;
            size_t idx = 0;
            for (size_t k = 0; k < i; k++)
                idx = idx * 10 + (size_t)(name[k] - '0');
            if (idx >= st->a->nargs)
                vm_raise_class(vm, vm->types[T_INDEX_ERROR], arena_printf(vm->a,
                               "Replacement index %zu out of range for "
                               "positional args tuple", idx));
            v = st->a->args[idx];
        } else {
            char *key = vm_strndup(vm, name, i);
            size_t k;
            for (k = 0; k < st->a->nkw; k++)
                if (!strcmp(st->a->kwnames[k], key))
                    break;
            if (k == st->a->nkw) {
                PyValue kv = vm_make_str(vm, key, i);
                vm_throw(vm, vm_new_exception(vm, vm->types[T_KEY_ERROR], &kv, 1));
            }
            v = st->a->kwvalues[k];
        }
    }
    while (i < n) {
        if (name[i] == '.') {
            size_t start = ++i;
            while (i < n && name[i] != '.' && name[i] != '[')
                i++;
            if (i == start)
                value_error(vm, "Empty attribute in format string");
            v = vm_getattr(vm, v, vm_strndup(vm, name + start, i - start));
        } else {
            size_t start = ++i;
            while (i < n && name[i] != ']')
                i++;
            if (i >= n)
                value_error(vm, "Missing ']' in format string");
            if (i == start)
                value_error(vm, "Empty attribute in format string");
            bool numeric = true;
            for (size_t k = start; k < i; k++)
                numeric &= isdigit((unsigned char)name[k]) != 0;
            PyValue key = numeric
                ? py_make_int(vm_strndup(vm, name + start, i - start))
                : vm_make_str(vm, name + start, i - start);
            v = vm_getitem(vm, v, key);
            i++;
            if (i < n && name[i] != '.' && name[i] != '[')
                value_error(vm, "Only '.' or '[' may follow ']' in format "
                                "field specifier");
        }
    }
    return v;
}

static void format_into(FormatState *st, ABuf *out, const char *s, size_t n,
                        int depth);

/* One replacement field's text (between the braces). */
static void replacement(FormatState *st, ABuf *out, const char *f, size_t n,
                        int depth)
{
    PyVM *vm = st->vm;
    size_t i = 0, bracket = 0;
    while (i < n && ((f[i] != '!' && f[i] != ':') || bracket)) {
        if (f[i] == '[')
            bracket = 1;
        else if (f[i] == ']')
            bracket = 0;
        i++;
    }
    PyValue v = field_value(st, f, i);
    char conversion = 0;
    if (i < n && f[i] == '!') {
        if (i + 1 >= n)
            value_error(vm, "end of string while looking for conversion "
                            "specifier");
        conversion = f[i + 1];
        i += 2;
        if (i < n && f[i] != ':')
            value_error(vm, "expected ':' after conversion specifier");
    }
    const char *spec = "";
    if (i < n && f[i] == ':') {
        ABuf sb = { vm, NULL, 0, 0 };
        ab_add(&sb, "", 0);
        format_into(st, &sb, f + i + 1, n - i - 1, depth + 1);
        spec = sb.s;
    }
    switch (conversion) {
    case 0:
        break;
    case 's': {
        const char *s = vm_str(vm, v);
        v = vm_make_str(vm, s, strlen(s));
        break;
    }
    case 'r': {
        const char *s = vm_repr(vm, v);
        v = vm_make_str(vm, s, strlen(s));
        break;
    }
    case 'a': {
        const char *s = vm_ascii(vm, v);
        v = vm_make_str(vm, s, strlen(s));
        break;
    }
    default:
        value_error(vm, arena_printf(vm->a, "Unknown conversion specifier %c",
                                     conversion));
    }
    ab_adds(out, vm_format(vm, v, spec));
}

static void format_into(FormatState *st, ABuf *out, const char *s, size_t n,
                        int depth)
{
    PyVM *vm = st->vm;
    if (depth > 2)
        value_error(vm, "Max string recursion exceeded");
    size_t i = 0;
    while (i < n) {
        char c = s[i];
        if (c == '}') {
            if (i + 1 < n && s[i + 1] == '}') {
                ab_addc(out, '}');
                i += 2;
                continue;
            }
            value_error(vm, "Single '}' encountered in format string");
        }
        if (c != '{') {
            size_t j = i;
            while (j < n && s[j] != '{' && s[j] != '}')
                j++;
            ab_add(out, s + i, j - i);
            i = j;
            continue;
        }
        if (i + 1 < n && s[i + 1] == '{') {
            ab_addc(out, '{');
            i += 2;
            continue;
        }
        /* a field: up to the matching '}' */
        size_t j = i + 1;
        int level = 1;
        while (j < n) {
            if (s[j] == '{')
                level++;
            else if (s[j] == '}' && --level == 0)
                break;
            j++;
        }
        if (j >= n)
            value_error(vm, level > 1 || j > i + 1
                            ? "expected '}' before end of string"
                            : "Single '{' encountered in format string");
        replacement(st, out, s + i + 1, j - i - 1, depth);
        i = j + 1;
    }
}

PyValue vm_str_format(PyVM *vm, const char *fmt, size_t n, const PyArgs *a)
{
    FormatState st = { vm, a, 0, false };
    ABuf out = { vm, NULL, 0, 0 };
    ab_add(&out, "", 0);
    format_into(&st, &out, fmt, n, 0);
    return ab_value(&out);
}

/* ---- printf-style % formatting ----------------------------------------- */

typedef struct PercentArgs {
    PyValue single;
    const PyValue *items;
    size_t n, next;
    bool is_tuple, used_single;
    PyDict *dict;
} PercentArgs;

static PyValue next_arg(PyVM *vm, PercentArgs *pa)
{
    if (pa->is_tuple) {
        if (pa->next >= pa->n)
            type_error(vm, "not enough arguments for format string");
        return pa->items[pa->next++];
    }
    if (pa->used_single)
        type_error(vm, "not enough arguments for format string");
    pa->used_single = true;
    return pa->single;
}

static bool is_real(PyValue v)
{
    return v.kind == PY_INT || v.kind == PY_BOOL || v.kind == PY_FLOAT;
}

/* A '*' width or precision: an int that fits the C type CPython reads it
   into (Py_ssize_t for widths, int for precisions). */
static int64_t star_arg(PyVM *vm, PyValue v, int64_t max, const char *ctype)
{
    int64_t n;
    if (v.kind != PY_INT && v.kind != PY_BOOL)
        type_error(vm, "* wants int");
    if (!vm_as_int64(v, &n) || n > max || n < -max)
        vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR], arena_printf(vm->a,
                       "Python int too large to convert to C %s", ctype));
    return n;
}

/* printf's flags for an int, as Python applies them. */
static const char *percent_int(PyVM *vm, PyValue v, char conv, bool alt,
                               int64_t prec)
{
    const char *text;
    if (v.kind == PY_FLOAT) {
        if (conv != 'd' && conv != 'i' && conv != 'u')
            type_error(vm, arena_printf(vm->a, "%%%c format: an integer is "
                                        "required, not float", conv));
        if (!isfinite(v.f))
            vm_raise_class(vm, vm->types[isnan(v.f) ? T_VALUE_ERROR
                                                    : T_OVERFLOW_ERROR],
                           isnan(v.f) ? "cannot convert float NaN to integer"
                                      : "cannot convert float infinity to "
                                        "integer");
        text = arena_printf(vm->a, "%.0f", trunc(v.f));
        if (!strcmp(text, "-0"))
            text = "0";
    } else {
        text = v.kind == PY_BOOL ? (v.b ? "1" : "0") : v.s;
    }
    bool negative = text[0] == '-';
    const char *mag = text + negative;
    int base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X') ? 16 : 10;
    if (base == 10)
        vm_check_int_digits(vm, text);
    char *d = base == 10 ? (char *)mag : vm_int_to_base(vm, mag, base);
    if (conv == 'X')
        for (char *c = d; *c; c++)
            *c = (char)toupper((unsigned char)*c);
    if (prec >= 0 && (int64_t)strlen(d) < prec) {
        vm_reserve(vm, (size_t)prec + 1);
        char *z = arena_alloc(vm->a, (size_t)prec + 1);
        size_t pad0 = (size_t)prec - strlen(d);
        memset(z, '0', pad0);
        strcpy(z + pad0, d);
        d = z;
    }
    const char *prefix = "";
    if (alt && base == 8)
        prefix = "0o";
    else if (alt && base == 16)
        prefix = conv == 'x' ? "0x" : "0X";
    return arena_printf(vm->a, "%s%s%s", negative ? "-" : "", prefix, d);
}

PyValue vm_percent_format(PyVM *vm, PyValue fmtv, PyValue args)
{
    PercentArgs pa = { .single = args };
    if (args.kind == PY_TUPLE) {
        pa.is_tuple = true;
        pa.items = args.items;
        pa.n = args.nitems;
    } else if (vm_is_kind(args, OBJ_DICT)) {
        pa.dict = (PyDict *)args.obj;
    }
    const char *s = fmtv.s;
    size_t n = fmtv.len;
    ABuf out = { vm, NULL, 0, 0 };
    ab_add(&out, "", 0);
    size_t i = 0;
    while (i < n) {
        if (s[i] != '%') {
            size_t j = i;
            while (j < n && s[j] != '%')
                j++;
            ab_add(&out, s + i, j - i);
            i = j;
            continue;
        }
        size_t start = i++;
        PyValue v = py_none;
        bool have_value = false;
        if (i < n && s[i] == '(') {
            if (!pa.dict)
                type_error(vm, "format requires a mapping");
            size_t k = ++i;
            int depth = 1;
            while (i < n && depth) {
                if (s[i] == '(')
                    depth++;
                else if (s[i] == ')')
                    depth--;
                if (depth)
                    i++;
            }
            if (i >= n)
                value_error(vm, "incomplete format key");
            PyValue key = vm_make_str(vm, s + k, i - k);
            i++;
            PyValue *found = vm_dict_find(vm, pa.dict, key);
            if (!found)
                vm_throw(vm, vm_new_exception(vm, vm->types[T_KEY_ERROR], &key, 1));
            v = *found;
            have_value = true;
            pa.used_single = true;
        }
        bool left = false, plus = false, space = false, alt = false, zero = false;
        for (; i < n && strchr("-+ #0", s[i]); i++) {
            switch (s[i]) {
            case '-': left = true; break;
            case '+': plus = true; break;
            case ' ': space = true; break;
            case '#': alt = true; break;
            default: zero = true; break;
            }
        }
        int64_t width = -1, prec = -1;
        if (i < n && s[i] == '*') {
            width = star_arg(vm, next_arg(vm, &pa), INT64_MAX, "ssize_t");
            if (width < 0) {
                left = true;
                width = -width;
            }
            i++;
        } else if (i < n && isdigit((unsigned char)s[i])) {
            const char *p = s + i;
            width = digits(&p);
            if (width == -2)
                value_error(vm, "width too big");
            i = (size_t)(p - s);
        }
        if (i < n && s[i] == '.') {
            i++;
            if (i < n && s[i] == '*') {
                prec = star_arg(vm, next_arg(vm, &pa), INT_MAX, "int");
                if (prec < 0)
                    prec = 0;
                i++;
            } else {
                const char *p = s + i;
                prec = digits(&p);
                if (prec == -2 || prec > INT_MAX)
                    value_error(vm, "precision too big");
                i = (size_t)(p - s);
            }
        }
        while (i < n && strchr("hlL", s[i]))
            i++;
        if (i >= n)
            value_error(vm, "incomplete format");
        char conv = s[i++];
        if (conv == '%') {
            ab_addc(&out, '%');
            continue;
        }
        if (!strchr("sradiuoxXeEfFgGc", conv)) {
            unsigned char uc = (unsigned char)conv;
            value_error(vm, arena_printf(vm->a, "unsupported format character "
                                         "'%c' (0x%x) at index %zu", conv, uc,
                                         i - 1));
        }
        if (!have_value)
            v = next_arg(vm, &pa);
        const char *body, *sign = "";
        bool numeric = false;
        switch (conv) {
        case 's':
            body = vm_str(vm, v);
            goto truncate;
        case 'r':
            body = vm_repr(vm, v);
            goto truncate;
        case 'a':
            body = vm_ascii(vm, v);
        truncate:
            if (prec >= 0)
                body = vm_strndup(vm, body,
                                     vm_str_offset(body, strlen(body), (size_t)prec));
            break;
        case 'c':
            if (v.kind == PY_STR) {
                if (vm_str_len(v.s, v.len) != 1)
                    type_error(vm, "%c requires int or char");
                body = v.s;
            } else {
                int64_t cp;
                if (!vm_as_int64(v, &cp))
                    type_error(vm, "%c requires int or char");
                if (cp < 0 || cp > 0x10ffff)
                    vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR],
                                   "%c arg not in range(0x110000)");
                StrBuf tmp = STRBUF_INIT;
                utf8_encode(&tmp, (uint32_t)cp);
                body = vm_strndup(vm, tmp.buf, tmp.len);
                sb_free(&tmp);
            }
            break;
        case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
            if (!is_real(v))
                type_error(vm, arena_printf(vm->a, "%%%c format: %s is required, "
                                            "not %s", conv,
                                            conv == 'o' || conv == 'x' || conv == 'X'
                                                ? "an integer" : "a real number",
                                            vm_type_name(vm, v)));
            body = percent_int(vm, v, conv, alt, prec);
            numeric = true;
            break;
        default: {   /* e E f F g G */
            if (!is_real(v))
                type_error(vm, arena_printf(vm->a, "must be real number, not "
                                            "%s", vm_type_name(vm, v)));
            double d = v.kind == PY_FLOAT ? v.f : 0;
            if (v.kind != PY_FLOAT && !pyint_to_double(v.kind == PY_BOOL
                                                       ? (v.b ? "1" : "0")
                                                       : v.s, &d))
                vm_raise_class(vm, vm->types[T_OVERFLOW_ERROR],
                               "int too large to convert to float");
            bool neg = signbit(d) && !isnan(d);
            body = arena_printf(vm->a, "%s%s", neg ? "-" : "",
                                float_digits(vm, fabs(d), conv, prec < 0 ? 6 : prec,
                                             alt, NULL));
            numeric = true;
            break;
        }
        }
        if (numeric) {
            if (body[0] == '-') {
                sign = "-";
                body++;
            } else if (plus) {
                sign = "+";
            } else if (space) {
                sign = " ";
            }
            /* the 0x prefix stays before zero padding */
            const char *prefix = "";
            if ((body[0] == '0' && (body[1] == 'x' || body[1] == 'X' ||
                                    body[1] == 'o')) && alt) {
                prefix = vm_strndup(vm, body, 2);
                body += 2;
            }
            size_t len = strlen(sign) + strlen(prefix) + strlen(body);
            if (width > (int64_t)len && !left && zero &&
                !strstr(body, "inf") && !strstr(body, "nan")) {
                size_t z = (size_t)width - len;
                vm_reserve(vm, z + strlen(body) + 1);
                char *padded = arena_alloc(vm->a, z + strlen(body) + 1);
                memset(padded, '0', z);
                strcpy(padded + z, body);
                body = padded;
            }
            body = arena_printf(vm->a, "%s%s%s", sign, prefix, body);
        }
        size_t blen = vm_str_len(body, strlen(body));
        if (width > (int64_t)blen) {
            size_t fill = (size_t)width - blen;
            if (!left)
                for (size_t k = 0; k < fill; k++)
                    ab_addc(&out, ' ');
            ab_adds(&out, body);
            if (left)
                for (size_t k = 0; k < fill; k++)
                    ab_addc(&out, ' ');
        } else {
            ab_adds(&out, body);
        }
        (void)start;
    }
    if ((pa.is_tuple && pa.next < pa.n) ||
        (!pa.is_tuple && !pa.dict && !pa.used_single))
        type_error(vm, fmtv.kind == PY_BYTES
                           ? "not all arguments converted during bytes "
                             "formatting"
                           : "not all arguments converted during string "
                             "formatting");
    PyValue r = ab_value(&out);
    r.kind = fmtv.kind;
    return r;
}
