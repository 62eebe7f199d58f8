/*
 * pyvm_str.c — str's methods: joining and splitting, stripping, case,
 * searching and counting, the is*() predicates, padding, partitioning,
 * encoding, and bytes.decode.  Each is a native taking self first;
 * vm_str_methods and vm_bytes_methods fill the classes' dicts
 * (pyvm_methods.c).
 *
 * Indices count code points, as Python's do; whitespace is
 * str.isspace()'s.  Case mapping (upper, lower, ...) covers ASCII and
 * leaves other characters as they are.
 */
#include "python/pyvm_int.h"

#include <ctype.h>
#include <string.h>

static PyValue str_v(PyVM *vm, const char *s, size_t n)
{
    return vm_make_str(vm, s, n);
}

/* ---- code points ------------------------------------------------------- */

typedef struct Chars {
    uint32_t *cp;
    size_t *off;           /* byte offset of each, and off[n] = len */
    size_t n;
} Chars;

static Chars decode(PyVM *vm, PyValue s)
{
    Chars c;
    vm_work(vm, s.len * 2);
    c.cp = vm_plain_array(vm, uint32_t, s.len + 1);
    c.off = vm_plain_array(vm, size_t, s.len + 1);
    c.n = 0;
    for (size_t i = 0; i < s.len;) {
        c.off[c.n] = i;
        i += utf8_decode((const unsigned char *)s.s + i, s.len - i, &c.cp[c.n]);
        c.n++;
    }
    c.off[c.n] = s.len;
    return c;
}

static bool is_space(uint32_t c)
{
    return (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x20) || c == 0x85 ||
           c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
           c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f ||
           c == 0x3000;
}

static bool is_linebreak(uint32_t c)
{
    return c == '\n' || c == '\r' || c == 0x0b || c == 0x0c || c == 0x1c ||
           c == 0x1d || c == 0x1e || c == 0x85 || c == 0x2028 || c == 0x2029;
}

static PyValue need_str(PyVM *vm, PyValue v, const char *what)
{
    if (v.kind != PY_STR)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "%s, not %s", what, vm_type_name(vm, v)));
    return v;
}

/* ---- str --------------------------------------------------------------- */

static PyValue s_join(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "str.join", "self iterable", v, NULL);
    size_t n;
    PyValue *items = vm_collect(vm, v[1], &n);
    ABuf b = { vm, NULL, 0, 0 };
    ab_add(&b, "", 0);
    for (size_t i = 0; i < n; i++) {
        if (items[i].kind != PY_STR)
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "sequence item %zu: expected str instance, %s found",
                           i, vm_type_name(vm, items[i])));
        if (i)
            ab_add(&b, SELF.s, SELF.len);
        ab_add(&b, items[i].s, items[i].len);
    }
    return ab_value(&b);
}

static PyValue split_impl(PyVM *vm, const PyArgs *a, bool from_right)
{
    ARGS(3);
    pyvm_bind(vm, a, from_right ? "str.rsplit" : "str.split",
              "self sep= maxsplit=", v, NULL);
    PyValue s = SELF;
    int64_t maxsplit = -1;
    if (vm_given(v[2]))
        maxsplit = vm_index(vm, v[2], "'maxsplit' must be an integer");
    PyList *parts = vm_list_new(vm, 8);
    if (!vm_given(v[1]) || v[1].kind == PY_NONE) {
        Chars c = decode(vm, s);
        PyValue *tmp = vm_items_array(vm, PyValue, c.n + 1);
        size_t nt = 0;
        if (!from_right) {
            size_t i = 0;
            while (i < c.n) {
                while (i < c.n && is_space(c.cp[i]))
                    i++;
                if (i >= c.n)
                    break;
                if (maxsplit >= 0 && (int64_t)nt == maxsplit) {
                    /* the rest as it is, trailing whitespace and all */
                    tmp[nt++] = str_v(vm, s.s + c.off[i], c.off[c.n] - c.off[i]);
                    break;
                }
                size_t j = i;
                while (j < c.n && !is_space(c.cp[j]))
                    j++;
                tmp[nt++] = str_v(vm, s.s + c.off[i], c.off[j] - c.off[i]);
                i = j;
            }
            for (size_t k = 0; k < nt; k++)
                vm_list_append(vm, parts, tmp[k]);
        } else {
            size_t i = c.n;
            while (i > 0) {
                while (i > 0 && is_space(c.cp[i - 1]))
                    i--;
                if (i == 0)
                    break;
                if (maxsplit >= 0 && (int64_t)nt == maxsplit) {
                    tmp[nt++] = str_v(vm, s.s, c.off[i]);
                    break;
                }
                size_t j = i;
                while (j > 0 && !is_space(c.cp[j - 1]))
                    j--;
                tmp[nt++] = str_v(vm, s.s + c.off[j], c.off[i] - c.off[j]);
                i = j;
            }
            for (size_t k = nt; k-- > 0;)
                vm_list_append(vm, parts, tmp[k]);
        }
        return vm_obj(parts);
    }
    PyValue sep = need_str(vm, v[1], "must be str or None");
    if (sep.len == 0)
        vm_raise_class(vm, vm->types[T_VALUE_ERROR], "empty separator");
    if (!from_right) {
        size_t i = 0;
        int64_t done = 0;
        for (;;) {
            const char *hit = NULL;
            if (maxsplit < 0 || done < maxsplit) {
                size_t k = vm_find(vm, s.s + i, s.len - i, sep.s, sep.len,
                                   false);
                if (k != SIZE_MAX)
                    hit = s.s + i + k;
            }
            if (!hit) {
                vm_list_append(vm, parts, str_v(vm, s.s + i, s.len - i));
                break;
            }
            vm_list_append(vm, parts, str_v(vm, s.s + i, (size_t)(hit - s.s) - i));
            i = (size_t)(hit - s.s) + sep.len;
            done++;
        }
        return vm_obj(parts);
    }
    PyValue *tmp = vm_items_array(vm, PyValue, s.len + 2);
    size_t nt = 0, end = s.len;
    int64_t done = 0;
    for (;;) {
        size_t hit = SIZE_MAX;
        if (maxsplit < 0 || done < maxsplit)
            hit = vm_find(vm, s.s, end, sep.s, sep.len, true);
        if (hit == SIZE_MAX) {
            tmp[nt++] = str_v(vm, s.s, end);
            break;
        }
        tmp[nt++] = str_v(vm, s.s + hit + sep.len, end - hit - sep.len);
        end = hit;
        done++;
    }
    for (size_t k = nt; k-- > 0;)
        vm_list_append(vm, parts, tmp[k]);
    return vm_obj(parts);
}

static PyValue s_split(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return split_impl(vm, a, false);
}

static PyValue s_rsplit(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return split_impl(vm, a, true);
}

static PyValue s_splitlines(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "str.splitlines", "self keepends=", v, NULL);
    bool keep = vm_given(v[1]) && vm_truthy(vm, v[1]);
    Chars c = decode(vm, SELF);
    PyList *l = vm_list_new(vm, 8);
    size_t i = 0;
    while (i < c.n) {
        size_t j = i;
        while (j < c.n && !is_linebreak(c.cp[j]))
            j++;
        size_t eol = j;
        if (j < c.n) {
            j += (c.cp[j] == '\r' && j + 1 < c.n && c.cp[j + 1] == '\n') ? 2 : 1;
        }
        size_t stop = keep ? j : eol;
        vm_list_append(vm, l, str_v(vm, SELF.s + c.off[i], c.off[stop] - c.off[i]));
        i = j;
    }
    return vm_obj(l);
}

static bool in_chars(const Chars *set, uint32_t x)
{
    for (size_t k = 0; k < set->n; k++)
        if (set->cp[k] == x)
            return true;
    return false;
}

static PyValue strip_impl(PyVM *vm, const PyArgs *a, bool left, bool right,
                          const char *fname)
{
    ARGS(2);
    pyvm_bind(vm, a, fname, "self chars=", v, NULL);
    Chars c = decode(vm, SELF), set = { 0 };
    bool custom = vm_given(v[1]) && v[1].kind != PY_NONE;
    if (custom)
        set = decode(vm, need_str(vm, v[1], arena_printf(vm->a,
                                  "%s arg must be None or str",
                                  strchr(fname, '.') + 1)));
    size_t i = 0, j = c.n;
    if (left)
        while (i < j && (custom ? in_chars(&set, c.cp[i]) : is_space(c.cp[i])))
            i++;
    if (right)
        while (j > i && (custom ? in_chars(&set, c.cp[j - 1])
                                : is_space(c.cp[j - 1])))
            j--;
    return str_v(vm, SELF.s + c.off[i], c.off[j] - c.off[i]);
}

static PyValue s_strip(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return strip_impl(vm, a, true, true, "str.strip");
}

static PyValue s_lstrip(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return strip_impl(vm, a, true, false, "str.lstrip");
}

static PyValue s_rstrip(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return strip_impl(vm, a, false, true, "str.rstrip");
}

typedef enum CaseOp { UPPER, LOWER, CAPITALIZE, TITLE, SWAPCASE } CaseOp;

static PyValue change_case(PyVM *vm, const PyArgs *a, CaseOp op,
                           const char *fname)
{
    ARGS(1);
    pyvm_bind(vm, a, fname, "self", v, NULL);
    vm_work(vm, vm_work_of(SELF.len, 4));   /* a byte's case: ~4 ns */
    char *s = vm_strndup(vm, SELF.s, SELF.len);
    bool word_start = true;
    for (size_t i = 0; i < SELF.len; i++) {
        unsigned char c = (unsigned char)s[i];
        bool alpha = isalpha(c) && c < 0x80;
        switch (op) {
        case UPPER: s[i] = (char)(c < 0x80 ? toupper(c) : c); break;
        case LOWER: s[i] = (char)(c < 0x80 ? tolower(c) : c); break;
        case CAPITALIZE:
            s[i] = (char)(c >= 0x80 ? c : i == 0 ? toupper(c) : tolower(c));
            break;
        case TITLE:
            if (alpha)
                s[i] = (char)(word_start ? toupper(c) : tolower(c));
            word_start = !alpha && c < 0x80;
            break;
        case SWAPCASE:
            s[i] = (char)(c >= 0x80 ? c : isupper(c) ? tolower(c) : toupper(c));
            break;
        }
    }
    PyValue r = py_make_str(s, SELF.len);
    return r;
}

static PyValue s_upper(PyVM *vm, const PyArgs *a, void *d) { (void)d; return change_case(vm, a, UPPER, "str.upper"); }
static PyValue s_lower(PyVM *vm, const PyArgs *a, void *d) { (void)d; return change_case(vm, a, LOWER, "str.lower"); }
static PyValue s_casefold(PyVM *vm, const PyArgs *a, void *d) { (void)d; return change_case(vm, a, LOWER, "str.casefold"); }
static PyValue s_capitalize(PyVM *vm, const PyArgs *a, void *d) { (void)d; return change_case(vm, a, CAPITALIZE, "str.capitalize"); }
static PyValue s_title(PyVM *vm, const PyArgs *a, void *d) { (void)d; return change_case(vm, a, TITLE, "str.title"); }
static PyValue s_swapcase(PyVM *vm, const PyArgs *a, void *d) { (void)d; return change_case(vm, a, SWAPCASE, "str.swapcase"); }

/* startswith/endswith: a str or a tuple of strs, within [start:end]. */
static PyValue affix(PyVM *vm, const PyArgs *a, bool at_end, const char *fname)
{
    ARGS(4);
    pyvm_bind(vm, a, fname, "self affix start= end=", v, NULL);
    Chars c = decode(vm, SELF);
    size_t lo, hi;
    vm_span(vm, v[2], v[3], c.n, &lo, &hi);
    PyValue one = v[1];
    const PyValue *cands = &one;
    size_t ncands = 1;
    if (v[1].kind == PY_TUPLE) {
        cands = v[1].items;
        ncands = v[1].nitems;
    }
    for (size_t k = 0; k < ncands; k++) {
        if (cands[k].kind != PY_STR)
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           v[1].kind == PY_TUPLE
                           ? "tuple for %s must only contain str, not %s"
                           : "%s first arg must be str or a tuple of str, not %s",
                           strchr(fname, '.') + 1, vm_type_name(vm, cands[k])));
        if (lo > hi || (lo > c.n))
            continue;
        size_t b0 = c.off[lo], b1 = c.off[hi];
        size_t n = cands[k].len;
        if (n > b1 - b0)
            continue;
        const char *at = at_end ? SELF.s + b1 - n : SELF.s + b0;
        if (!memcmp(at, cands[k].s, n))
            return pyvm_bool(true);
    }
    return pyvm_bool(false);
}

static PyValue s_startswith(PyVM *vm, const PyArgs *a, void *d) { (void)d; return affix(vm, a, false, "str.startswith"); }
static PyValue s_endswith(PyVM *vm, const PyArgs *a, void *d) { (void)d; return affix(vm, a, true, "str.endswith"); }

/* find/rfind/index/rindex/count: code point results. */
static PyValue search(PyVM *vm, const PyArgs *a, const char *fname,
                      bool from_right, bool raise, bool count)
{
    ARGS(4);
    pyvm_bind(vm, a, fname, "self sub start= end=", v, NULL);
    PyValue sub = v[1];
    if (sub.kind != PY_STR)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "must be str, not %s", vm_type_name(vm, sub)));
    size_t ncp = vm_str_len(SELF.s, SELF.len), lo, hi;
    vm_span(vm, v[2], v[3], ncp, &lo, &hi);
    int64_t found = -1, hits = 0;
    if (lo <= hi) {
        size_t b0 = ncp == SELF.len ? lo : vm_str_offset(SELF.s, SELF.len, lo);
        size_t b1 = ncp == SELF.len ? hi
                  : b0 + vm_str_offset(SELF.s + b0, SELF.len - b0, hi - lo);
        if (count) {
            if (sub.len == 0) {
                hits = (int64_t)(hi - lo) + 1;
            } else {
                for (size_t k = b0;;) {
                    size_t at = vm_find(vm, SELF.s + k, b1 - k, sub.s,
                                        sub.len, false);
                    if (at == SIZE_MAX)
                        break;
                    hits++;
                    k += at + sub.len;
                }
            }
            return vm_make_int64(vm, hits);
        }
        size_t at = vm_find(vm, SELF.s + b0, b1 - b0, sub.s, sub.len,
                            from_right);
        if (at != SIZE_MAX)
            found = (int64_t)(b0 + at);
    } else if (count) {
        return vm_make_int64(vm, 0);
    }
    if (found < 0) {
        if (raise)
            vm_raise_class(vm, vm->types[T_VALUE_ERROR], "substring not found");
        return vm_make_int64(vm, -1);
    }
    return vm_make_int64(vm, (int64_t)vm_str_len(SELF.s, (size_t)found));
}

static PyValue s_find(PyVM *vm, const PyArgs *a, void *d) { (void)d; return search(vm, a, "str.find", false, false, false); }
static PyValue s_rfind(PyVM *vm, const PyArgs *a, void *d) { (void)d; return search(vm, a, "str.rfind", true, false, false); }
static PyValue s_index(PyVM *vm, const PyArgs *a, void *d) { (void)d; return search(vm, a, "str.index", false, true, false); }
static PyValue s_rindex(PyVM *vm, const PyArgs *a, void *d) { (void)d; return search(vm, a, "str.rindex", true, true, false); }
static PyValue s_count(PyVM *vm, const PyArgs *a, void *d) { (void)d; return search(vm, a, "str.count", false, false, true); }

static PyValue s_replace(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(4);
    pyvm_bind(vm, a, "str.replace", "self old new count=", v, NULL);
    PyValue old = need_str(vm, v[1], "replace() argument 1 must be str");
    PyValue new_ = need_str(vm, v[2], "replace() argument 2 must be str");
    int64_t count = vm_given(v[3]) ? vm_index(vm, v[3], "'count' must be an "
                                                     "integer") : -1;
    ABuf b = { vm, NULL, 0, 0 };
    ab_add(&b, "", 0);
    PyValue s = SELF;
    int64_t done = 0;
    if (old.len == 0) {
        Chars c = decode(vm, s);
        for (size_t i = 0; i <= c.n; i++) {
            if (count < 0 || done < count) {
                ab_add(&b, new_.s, new_.len);
                done++;
            }
            if (i < c.n)
                ab_add(&b, s.s + c.off[i], c.off[i + 1] - c.off[i]);
        }
        return ab_value(&b);
    }
    size_t i = 0;
    while (i < s.len) {
        size_t at = count < 0 || done < count
                  ? vm_find(vm, s.s + i, s.len - i, old.s, old.len, false)
                  : SIZE_MAX;
        if (at == SIZE_MAX) {
            ab_add(&b, s.s + i, s.len - i);
            break;
        }
        ab_add(&b, s.s + i, at);
        ab_add(&b, new_.s, new_.len);
        i += at + old.len;
        done++;
    }
    return ab_value(&b);
}

static PyValue s_format(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    if (a->nargs == 0 || a->args[0].kind != PY_STR)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], "descriptor 'format' of "
                       "'str' object needs an argument");
    PyArgs rest = { a->args + 1, a->nargs - 1, a->kwnames, a->kwvalues, a->nkw };
    return vm_str_format(vm, SELF.s, SELF.len, &rest);
}

static PyValue s_format_map(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "str.format_map", "self mapping", v, NULL);
    if (!vm_is_kind(v[1], OBJ_DICT))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], "format_map() argument "
                       "must be a dict in clinic's Python");
    PyDict *d = (PyDict *)v[1].obj;
    const char **names = arena_array_of(vm->a, const char *, d->len + 1);
    size_t n = 0;
    for (size_t i = 0; i < d->len; i++)
        if (d->keys[i].kind == PY_STR)
            names[n++] = d->keys[i].s;
    PyValue *values = arena_array_of(vm->a, PyValue, d->len + 1);
    for (size_t i = 0, k = 0; i < d->len; i++)
        if (d->keys[i].kind == PY_STR)
            values[k++] = d->values[i];
    PyArgs kw = { NULL, 0, names, values, n };
    return vm_str_format(vm, SELF.s, SELF.len, &kw);
}

typedef bool (*CharTest)(uint32_t c);
static bool t_digit(uint32_t c) { return c >= '0' && c <= '9'; }
/* Letters: ASCII exactly; beyond it the common alphabets' blocks (Latin,
   Greek, Cyrillic, Hebrew, Arabic, kana, CJK, Hangul), which is what
   clinic's Python knows of Unicode's categories. */
static bool t_alpha(uint32_t c)
{
    if (c < 0x80)
        return isalpha((int)c);
    static const uint32_t ranges[][2] = {
        { 0xaa, 0xaa }, { 0xb5, 0xb5 }, { 0xba, 0xba }, { 0xc0, 0xd6 },
        { 0xd8, 0xf6 }, { 0xf8, 0x2af }, { 0x370, 0x373 }, { 0x376, 0x377 },
        { 0x37b, 0x37d }, { 0x386, 0x386 }, { 0x388, 0x3ff }, { 0x400, 0x481 },
        { 0x48a, 0x52f }, { 0x5d0, 0x5ea }, { 0x620, 0x64a }, { 0x3041, 0x3096 },
        { 0x30a1, 0x30fa }, { 0x4e00, 0x9fff }, { 0xac00, 0xd7a3 },
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (c >= ranges[i][0] && c <= ranges[i][1])
            return c != 0x3f6;
    return false;
}
static bool t_alnum(uint32_t c) { return t_digit(c) || t_alpha(c); }
static bool t_upper(uint32_t c) { return c < 0x80 && isupper((int)c); }
static bool t_lower(uint32_t c) { return c < 0x80 && islower((int)c); }
static bool t_ascii(uint32_t c) { return c < 0x80; }
static bool t_printable(uint32_t c) { return unicode_isprintable(c); }

static PyValue char_test(PyVM *vm, const PyArgs *a, CharTest t,
                         const char *fname, bool empty_result)
{
    ARGS(1);
    pyvm_bind(vm, a, fname, "self", v, NULL);
    Chars c = decode(vm, SELF);
    if (c.n == 0)
        return pyvm_bool(empty_result);
    for (size_t i = 0; i < c.n; i++)
        if (!t(c.cp[i]))
            return pyvm_bool(false);
    return pyvm_bool(true);
}

static PyValue s_isdigit(PyVM *vm, const PyArgs *a, void *d) { (void)d; return char_test(vm, a, t_digit, "str.isdigit", false); }
static PyValue s_isdecimal(PyVM *vm, const PyArgs *a, void *d) { (void)d; return char_test(vm, a, t_digit, "str.isdecimal", false); }
static PyValue s_isnumeric(PyVM *vm, const PyArgs *a, void *d) { (void)d; return char_test(vm, a, t_digit, "str.isnumeric", false); }
static PyValue s_isalpha(PyVM *vm, const PyArgs *a, void *d) { (void)d; return char_test(vm, a, t_alpha, "str.isalpha", false); }
static PyValue s_isalnum(PyVM *vm, const PyArgs *a, void *d) { (void)d; return char_test(vm, a, t_alnum, "str.isalnum", false); }
static PyValue s_isspace(PyVM *vm, const PyArgs *a, void *d) { (void)d; return char_test(vm, a, is_space, "str.isspace", false); }
static PyValue s_isascii(PyVM *vm, const PyArgs *a, void *d) { (void)d; return char_test(vm, a, t_ascii, "str.isascii", true); }
static PyValue s_isprintable(PyVM *vm, const PyArgs *a, void *d) { (void)d; return char_test(vm, a, t_printable, "str.isprintable", true); }

/* isupper/islower: some cased character, and none of the other case. */
static PyValue cased(PyVM *vm, const PyArgs *a, bool upper, const char *fname)
{
    ARGS(1);
    pyvm_bind(vm, a, fname, "self", v, NULL);
    bool any = false;
    for (size_t i = 0; i < SELF.len; i++) {
        uint32_t c = (unsigned char)SELF.s[i];
        if (upper ? t_lower(c) : t_upper(c))
            return pyvm_bool(false);
        any |= upper ? t_upper(c) : t_lower(c);
    }
    return pyvm_bool(any);
}

static PyValue s_isupper(PyVM *vm, const PyArgs *a, void *d) { (void)d; return cased(vm, a, true, "str.isupper"); }
static PyValue s_islower(PyVM *vm, const PyArgs *a, void *d) { (void)d; return cased(vm, a, false, "str.islower"); }

static PyValue s_isidentifier(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "str.isidentifier", "self", v, NULL);
    Chars c = decode(vm, SELF);
    if (c.n == 0)
        return pyvm_bool(false);
    for (size_t i = 0; i < c.n; i++) {
        uint32_t x = c.cp[i];
        bool ok = x == '_' || t_alpha(x) || (i && t_digit(x));
        if (!ok)
            return pyvm_bool(false);
    }
    return pyvm_bool(true);
}

static PyValue s_istitle(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "str.istitle", "self", v, NULL);
    bool prev_cased = false, any = false;
    for (size_t i = 0; i < SELF.len; i++) {
        uint32_t c = (unsigned char)SELF.s[i];
        if (t_upper(c)) {
            if (prev_cased)
                return pyvm_bool(false);
            prev_cased = any = true;
        } else if (t_lower(c)) {
            if (!prev_cased)
                return pyvm_bool(false);
            prev_cased = any = true;
        } else {
            prev_cased = false;
        }
    }
    return pyvm_bool(any);
}

static PyValue partition(PyVM *vm, const PyArgs *a, bool from_right)
{
    ARGS(2);
    pyvm_bind(vm, a, from_right ? "str.rpartition" : "str.partition",
              "self sep", v, NULL);
    PyValue sep = need_str(vm, v[1], "must be str");
    if (sep.len == 0)
        vm_raise_class(vm, vm->types[T_VALUE_ERROR], "empty separator");
    PyValue s = SELF, empty = str_v(vm, "", 0);
    size_t hit = SIZE_MAX;
    hit = vm_find(vm, s.s, s.len, sep.s, sep.len, from_right);
    PyValue parts[3];
    if (hit == SIZE_MAX) {
        parts[0] = from_right ? empty : s;
        parts[1] = empty;
        parts[2] = from_right ? s : empty;
    } else {
        parts[0] = str_v(vm, s.s, hit);
        parts[1] = sep;
        parts[2] = str_v(vm, s.s + hit + sep.len, s.len - hit - sep.len);
    }
    return vm_make_tuple(vm, parts, 3);
}

static PyValue s_partition(PyVM *vm, const PyArgs *a, void *d) { (void)d; return partition(vm, a, false); }
static PyValue s_rpartition(PyVM *vm, const PyArgs *a, void *d) { (void)d; return partition(vm, a, true); }

static PyValue justify(PyVM *vm, const PyArgs *a, char how, const char *fname)
{
    ARGS(3);
    pyvm_bind(vm, a, fname, "self width fillchar=", v, NULL);
    int64_t width = vm_index(vm, v[1], arena_printf(vm->a, "'%s' object "
                             "cannot be interpreted as an integer",
                             vm_type_name(vm, v[1])));
    PyValue fill = str_v(vm, " ", 1);
    if (vm_given(v[2])) {
        fill = v[2];
        if (fill.kind != PY_STR || vm_str_len(fill.s, fill.len) != 1)
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], fill.kind != PY_STR
                           ? arena_printf(vm->a, "The fill character must be a "
                                          "unicode character, not %s",
                                          vm_type_name(vm, fill))
                           : "The fill character must be exactly one "
                             "character long");
    }
    size_t n = vm_str_len(SELF.s, SELF.len);
    if (width <= (int64_t)n)
        return SELF;
    size_t pad = (size_t)width - n, left = 0;
    if (how == 'r')
        left = pad;
    else if (how == 'c')
        left = pad / 2 + (pad & (size_t)width & 1);
    /* the whole width, refused up front when it cannot be had */
    vm_reserve(vm, vm_work_of(pad, fill.len) + SELF.len);
    ABuf b = { vm, NULL, 0, 0 };
    ab_add(&b, "", 0);
    for (size_t i = 0; i < left; i++)
        ab_add(&b, fill.s, fill.len);
    ab_add(&b, SELF.s, SELF.len);
    for (size_t i = left; i < pad; i++)
        ab_add(&b, fill.s, fill.len);
    return ab_value(&b);
}

static PyValue s_ljust(PyVM *vm, const PyArgs *a, void *d) { (void)d; return justify(vm, a, 'l', "str.ljust"); }
static PyValue s_rjust(PyVM *vm, const PyArgs *a, void *d) { (void)d; return justify(vm, a, 'r', "str.rjust"); }
static PyValue s_center(PyVM *vm, const PyArgs *a, void *d) { (void)d; return justify(vm, a, 'c', "str.center"); }

static PyValue s_zfill(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "str.zfill", "self width", v, NULL);
    int64_t width = vm_index(vm, v[1], "an integer is required");
    size_t n = vm_str_len(SELF.s, SELF.len);
    if (width <= (int64_t)n)
        return SELF;
    size_t pad = (size_t)width - n;
    vm_reserve(vm, pad + SELF.len);
    ABuf b = { vm, NULL, 0, 0 };
    ab_add(&b, "", 0);
    size_t start = 0;
    if (SELF.len && (SELF.s[0] == '+' || SELF.s[0] == '-')) {
        ab_addc(&b, SELF.s[0]);
        start = 1;
    }
    for (size_t i = 0; i < pad; i++)
        ab_addc(&b, '0');
    ab_add(&b, SELF.s + start, SELF.len - start);
    return ab_value(&b);
}

static PyValue s_expandtabs(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "str.expandtabs", "self tabsize=", v, NULL);
    int64_t tab = vm_given(v[1]) ? vm_index(vm, v[1], "an integer is required") : 8;
    ABuf b = { vm, NULL, 0, 0 };
    ab_add(&b, "", 0);
    int64_t col = 0;
    Chars c = decode(vm, SELF);
    for (size_t i = 0; i < c.n; i++) {
        if (c.cp[i] == '\t') {
            if (tab > 0) {
                int64_t spaces = tab - col % tab;
                vm_reserve(vm, (size_t)spaces);
                for (int64_t k = 0; k < spaces; k++)
                    ab_addc(&b, ' ');
                col += spaces;
            }
            continue;
        }
        ab_add(&b, SELF.s + c.off[i], c.off[i + 1] - c.off[i]);
        col = c.cp[i] == '\n' || c.cp[i] == '\r' ? 0 : col + 1;
    }
    return ab_value(&b);
}

static PyValue s_encode(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(3);
    pyvm_bind(vm, a, "str.encode", "self encoding= errors=", v, NULL);
    PyValue r = SELF;
    r.kind = PY_BYTES;
    return r;
}

static PyValue affix_remove(PyVM *vm, const PyArgs *a, bool suffix)
{
    ARGS(2);
    pyvm_bind(vm, a, suffix ? "str.removesuffix" : "str.removeprefix",
              "self affix", v, NULL);
    PyValue x = need_str(vm, v[1], arena_printf(vm->a, "%s() argument must "
                         "be str", suffix ? "removesuffix" : "removeprefix"));
    PyValue s = SELF;
    if (x.len > s.len || x.len == 0)
        return s;
    if (!suffix && !memcmp(s.s, x.s, x.len))
        return str_v(vm, s.s + x.len, s.len - x.len);
    if (suffix && !memcmp(s.s + s.len - x.len, x.s, x.len))
        return str_v(vm, s.s, s.len - x.len);
    return s;
}

static PyValue s_removeprefix(PyVM *vm, const PyArgs *a, void *d) { (void)d; return affix_remove(vm, a, false); }
static PyValue s_removesuffix(PyVM *vm, const PyArgs *a, void *d) { (void)d; return affix_remove(vm, a, true); }

static PyValue b_decode(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(3);
    pyvm_bind(vm, a, "bytes.decode", "self encoding= errors=", v, NULL);
    PyValue r = SELF;
    r.kind = PY_STR;
    return r;
}

/* ---- the table --------------------------------------------------------- */

const NativeDef vm_str_methods[] = {
    { "join", s_join }, { "split", s_split }, { "rsplit", s_rsplit },
    { "splitlines", s_splitlines }, { "strip", s_strip },
    { "lstrip", s_lstrip }, { "rstrip", s_rstrip }, { "upper", s_upper },
    { "lower", s_lower }, { "casefold", s_casefold },
    { "capitalize", s_capitalize }, { "title", s_title },
    { "swapcase", s_swapcase }, { "startswith", s_startswith },
    { "endswith", s_endswith }, { "find", s_find }, { "rfind", s_rfind },
    { "index", s_index }, { "rindex", s_rindex }, { "count", s_count },
    { "replace", s_replace }, { "format", s_format },
    { "format_map", s_format_map }, { "isdigit", s_isdigit },
    { "isdecimal", s_isdecimal }, { "isnumeric", s_isnumeric },
    { "isalpha", s_isalpha }, { "isalnum", s_isalnum },
    { "isspace", s_isspace }, { "isascii", s_isascii },
    { "isprintable", s_isprintable }, { "isupper", s_isupper },
    { "islower", s_islower }, { "isidentifier", s_isidentifier },
    { "istitle", s_istitle }, { "partition", s_partition },
    { "rpartition", s_rpartition }, { "ljust", s_ljust }, { "rjust", s_rjust },
    { "center", s_center }, { "zfill", s_zfill },
    { "expandtabs", s_expandtabs }, { "encode", s_encode },
    { "removeprefix", s_removeprefix }, { "removesuffix", s_removesuffix },
    { NULL, NULL },
};

const NativeDef vm_bytes_methods[] = {
    { "decode", b_decode }, { NULL, NULL },
};
