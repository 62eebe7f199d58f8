/*
 * pyvm_seq.c — containers and how values print: indexing and slicing
 * (str by code point, as Python counts), item assignment and deletion,
 * len(), the iteration protocol, and repr() and str() of every value.
 */
#include "python/pyvm_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- an arena buffer --------------------------------------------------- */

void ab_add(ABuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        vm_reserve(b->vm, cap);
        vm_work(b->vm, cap >> 3);
        char *ns = vm_plain_alloc(b->vm, cap);
        if (b->len)
            memcpy(ns, b->s, b->len);
        b->s = ns;
        b->cap = cap;
    }
    if (n)
        memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void ab_adds(ABuf *b, const char *s)
{
    ab_add(b, s, strlen(s));
}

void ab_addc(ABuf *b, char c)
{
    ab_add(b, &c, 1);
}

void ab_addf(ABuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = arena_vprintf(b->vm->a, fmt, ap);
    va_end(ap);
    ab_adds(b, s);
}

PyValue ab_value(ABuf *b)
{
    if (!b->s)
        ab_add(b, "", 0);
    return py_make_str(b->s, b->len);
}

/* ---- slice bounds ------------------------------------------------------ */

void vm_span(PyVM *vm, PyValue start, PyValue end, size_t n, size_t *lo,
             size_t *hi)
{
    int64_t s = 0, e = (int64_t)n;
    const char *msg = "slice indices must be integers or None or have an "
                      "__index__ method";
    if (vm_given(start) && start.kind != PY_NONE)
        s = vm_index(vm, start, msg);
    if (vm_given(end) && end.kind != PY_NONE)
        e = vm_index(vm, end, msg);
    if (s < 0)
        s = s + (int64_t)n < 0 ? 0 : s + (int64_t)n;
    if (e < 0)
        e = e + (int64_t)n < 0 ? 0 : e + (int64_t)n;
    if (e > (int64_t)n)
        e = (int64_t)n;
    *lo = (size_t)s;
    *hi = (size_t)e;
}

/* ---- code points ------------------------------------------------------- */

static bool vm_str_ascii(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return false;
    return true;
}

size_t vm_str_len(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += ((unsigned char)s[i] & 0xC0) != 0x80;
    return count;
}

size_t vm_str_offset(const char *s, size_t n, size_t cp)
{
    size_t i = 0;
    while (cp > 0 && i < n) {
        i++;
        while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80)
            i++;
        cp--;
    }
    return i;
}

/* ---- substring search --------------------------------------------------

   Crochemore and Perrin's two-way algorithm: linear time and constant
   memory for any needle, where trying every position costs n * m (a
   needle of 500,000 bytes in a text of 1,000,000 took seconds).  A
   search from the end is the same search in the text and the needle
   read backwards.  Needles shorter than SHORT_NEEDLE, which every normal
   search has, keep the plain loop (at most SHORT_NEEDLE * n). */
#define SHORT_NEEDLE 16
#define AT(p, len, i, rev) ((rev) ? (p)[(len) - 1 - (i)] : (p)[i])

/* The start - 1 of x's maximal suffix (SIZE_MAX: the whole of x) for
   the byte order or (flip) its reverse, and that suffix's period. */
static size_t max_suffix(const unsigned char *x, size_t m, bool rev,
                         bool flip, size_t *period)
{
    size_t ms = SIZE_MAX, j = 0, k = 1, p = 1;
    while (j + k < m) {
        unsigned a = AT(x, m, j + k, rev), b = AT(x, m, ms + k, rev);
        if (flip ? a > b : a < b) {
            j += k;
            k = 1;
            p = j - ms;
        } else if (a == b) {
            if (k != p) {
                k++;
            } else {
                j += p;
                k = 1;
            }
        } else {
            ms = j;
            j = ms + 1;
            k = p = 1;
        }
    }
    *period = p;
    return ms;
}

/* The first match of x (m >= 1) in y, counted from y's end when rev;
   *scanned gets how far into y the search looked. */
static inline size_t two_way(const unsigned char *y, size_t n,
                             const unsigned char *x, size_t m, bool rev,
                             size_t *scanned)
{
    size_t p1, p2;
    size_t s1 = max_suffix(x, m, rev, false, &p1) + 1;
    size_t s2 = max_suffix(x, m, rev, true, &p2) + 1;
    /* the critical factorisation: x = x[:left] + x[left:] */
    size_t left = s1 > s2 ? s1 : s2, per = s1 > s2 ? p1 : p2;
    bool periodic = per + left <= m;
    for (size_t i = 0; periodic && i < left; i++)
        periodic = AT(x, m, i, rev) == AT(x, m, i + per, rev);
    size_t j = 0;
    if (periodic) {
        size_t mem = 0;
        while (j + m <= n) {
            size_t i = left > mem ? left : mem;
            while (i < m && AT(x, m, i, rev) == AT(y, n, i + j, rev))
                i++;
            if (i < m) {
                j += i - left + 1;
                mem = 0;
                continue;
            }
            i = left;
            while (i > mem && AT(x, m, i - 1, rev) == AT(y, n, i - 1 + j, rev))
                i--;
            if (i <= mem) {
                *scanned = j + m;
                return j;
            }
            j += per;
            mem = m - per;
        }
    } else {
        per = (left > m - left ? left : m - left) + 1;
        while (j + m <= n) {
            size_t i = left;
            while (i < m && AT(x, m, i, rev) == AT(y, n, i + j, rev))
                i++;
            if (i < m) {
                j += i - left + 1;
                continue;
            }
            i = left;
            while (i > 0 && AT(x, m, i - 1, rev) == AT(y, n, i - 1 + j, rev))
                i--;
            if (i == 0) {
                *scanned = j + m;
                return j;
            }
            j += per;
        }
    }
    *scanned = n;
    return SIZE_MAX;
}

static size_t py_find(const char *hay, size_t n, const char *needle, size_t m,
               bool last, uint64_t *work)
{
    *work = 0;
    if (m > n)
        return SIZE_MAX;
    if (m == 0)
        return last ? n : 0;
    size_t at = SIZE_MAX, scanned = n;
    if (m < SHORT_NEEDLE) {
        if (!last) {
            for (const char *p = hay; (p = memchr(p, needle[0], (size_t)(hay + n - m + 1 - p)));
                 p++)
                if (!memcmp(p, needle, m)) {
                    at = (size_t)(p - hay);
                    scanned = at + m;
                    break;
                }
        } else {
            for (size_t k = n - m + 1; k-- > 0;)
                if (hay[k] == needle[0] && !memcmp(hay + k, needle, m)) {
                    at = k;
                    scanned = n - k;
                    break;
                }
        }
        *work = WORK_CALL + vm_work_of(scanned, m > 1 ? 2 : 1);
        return at;
    }
    const unsigned char *y = (const unsigned char *)hay;
    const unsigned char *x = (const unsigned char *)needle;
    if (!last) {
        at = two_way(y, n, x, m, false, &scanned);
    } else {
        at = two_way(y, n, x, m, true, &scanned);
        if (at != SIZE_MAX)
            at = n - at - m;
    }
    *work = WORK_CALL + vm_work_of(scanned + m, 4);
    return at;
}

size_t vm_find(PyVM *vm, const char *hay, size_t n, const char *needle,
               size_t m, bool last)
{
    uint64_t work;
    size_t at = py_find(hay, n, needle, m, last, &work);
    if (work)
        vm_work(vm, work);
    return at;
}

/* ---- lists ------------------------------------------------------------- */

PyList *vm_list_new(PyVM *vm, size_t cap)
{
    cap = cap ? cap : 4;
    if (cap > 4096)
        vm_reserve(vm, cap * sizeof(PyValue));
    /* the list and its first items in one buffer (pyvm_heap.c) */
    PyList *l = vm_alloc_container(vm, sizeof *l + cap * sizeof(PyValue),
                                   OBJ_LIST, vm->types[T_LIST]);
    l->cap = cap;
    l->items = (PyValue *)(l + 1);
    return l;
}

void vm_list_append(PyVM *vm, PyList *l, PyValue v)
{
    if (l->len == l->cap) {
        size_t cap = l->cap * 2;
        vm_reserve(vm, cap * sizeof(PyValue));
        vm_work(vm, cap * sizeof(PyValue) >> 3);
        if (cap > ((size_t)1 << 24))
            vm_raise_class(vm, vm->types[T_MEMORY_ERROR], "list too long");
        PyValue *items = vm_items_array(vm, PyValue, cap);
        memcpy(items, l->items, l->len * sizeof *items);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->len++] = v;
}

PyObj *pyvm_list_new(PyVM *vm)
{
    return &vm_list_new(vm, 4)->ob;
}

void pyvm_list_append(PyVM *vm, PyObj *list, PyValue v)
{
    vm_list_append(vm, (PyList *)list, v);
}

void pyvm_list_clear(PyObj *list)
{
    ((PyList *)list)->len = 0;
}

size_t pyvm_list_len(const PyObj *list)
{
    return ((const PyList *)list)->len;
}

PyValue pyvm_list_item(const PyObj *list, size_t i)
{
    return ((const PyList *)list)->items[i];
}

PyObj *pyvm_as_list(PyValue v)
{
    return vm_is_kind(v, OBJ_LIST) ? v.obj : NULL;
}

PyObj *pyvm_as_dict(PyValue v)
{
    return vm_is_kind(v, OBJ_DICT) ? v.obj : NULL;
}

PyObj *pyvm_dict_new(PyVM *vm)
{
    return &vm_dict_new(vm)->ob;
}

void pyvm_dict_set(PyVM *vm, PyObj *dict, const char *key, PyValue v)
{
    vm_dict_set_str(vm, (PyDict *)dict, key, v);
}

PyValue pyvm_str_set(PyVM *vm, const char *const *words)
{
    PySet *s = vm_set_new(vm, false);
    for (; *words; words++)
        vm_set_add(vm, s, vm_make_str(vm, *words, strlen(*words)));
    return vm_obj(s);
}

void pyvm_dict_set_static(PyVM *vm, PyObj *dict, const char *key, PyValue v)
{
    vm_dict_set_static(vm, (PyDict *)dict, key, v);
}

bool pyvm_dict_get(PyVM *vm, PyObj *dict, const char *key, PyValue *out)
{
    (void)vm;
    PyValue *v = vm_dict_find_str((PyDict *)dict, key);
    if (v && out)
        *out = *v;
    return v != NULL;
}

PyObj *pyvm_dict_copy(PyVM *vm, PyObj *dict)
{
    return &vm_dict_copy(vm, (PyDict *)dict)->ob;
}

bool pyvm_dict_entry(PyObj *dict, size_t i, PyValue *key, PyValue *value)
{
    PyDict *d = (PyDict *)dict;
    if (i >= d->len)
        return false;
    *key = d->keys[i];
    *value = *vm_dict_made(d, i);
    return true;
}

/* ---- indexes and slices ------------------------------------------------ */

/* A slice's indices for a sequence of n items (PySlice_AdjustIndices). */
static int64_t slice_indices(PyVM *vm, PySlice *s, int64_t n, int64_t *start,
                             int64_t *stop, int64_t *step)
{
    const char *msg = "slice indices must be integers or None or have an "
                      "__index__ method";
    *step = s->step.kind == PY_NONE ? 1 : vm_index(vm, s->step, msg);
    /* as PySlice_Unpack: -step must be representable, for reversing */
    if (*step < -INT64_MAX)
        *step = -INT64_MAX;
    if (*step == 0)
        vm_raise_class(vm, vm->types[T_VALUE_ERROR], "slice step cannot be zero");
    bool back = *step < 0;
    if (s->start.kind == PY_NONE)
        *start = back ? n - 1 : 0;
    else {
        *start = vm_index(vm, s->start, msg);
        if (*start < 0) {
            *start += n;
            if (*start < 0)
                *start = back ? -1 : 0;
        } else if (*start >= n) {
            *start = back ? n - 1 : n;
        }
    }
    if (s->stop.kind == PY_NONE)
        *stop = back ? -1 : n;
    else {
        *stop = vm_index(vm, s->stop, msg);
        if (*stop < 0) {
            *stop += n;
            if (*stop < 0)
                *stop = back ? -1 : 0;
        } else if (*stop >= n) {
            *stop = back ? n - 1 : n;
        }
    }
    if (*step < 0)
        return *stop < *start ? (*start - *stop - 1) / (-*step) + 1 : 0;
    return *start < *stop ? (*stop - *start - 1) / *step + 1 : 0;
}

static int64_t seq_index(PyVM *vm, PyValue key, int64_t n, const char *what,
                         const char *type)
{
    int64_t i;
    if (!vm_as_int64(key, &i)) {
        if (key.kind == PY_INT)
            vm_raise_class(vm, vm->types[T_INDEX_ERROR], arena_printf(vm->a,
                           "cannot fit 'int' into an index-sized integer"));
        if (!strcmp(type, "str"))
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "string indices must be integers, not '%s'",
                           vm_type_name(vm, key)));
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "%s indices must be integers or slices, not %s", type,
                       vm_type_name(vm, key)));
    }
    if (i < 0)
        i += n;
    if (i < 0 || i >= n)
        vm_raise_class(vm, vm->types[T_INDEX_ERROR], what);
    return i;
}

/* The code points of a str, each as a string. */
static PyValue str_char(PyVM *vm, PyValue s, size_t cp)
{
    size_t start = vm_str_offset(s.s, s.len, cp);
    size_t end = vm_str_offset(s.s + start, s.len - start, 1) + start;
    return vm_make_str(vm, s.s + start, end - start);
}

static PyValue str_slice(PyVM *vm, PyValue s, PySlice *sl)
{
    vm_work(vm, s.len >> 3);   /* read to count its code points */
    bool ascii = vm_str_ascii(s.s, s.len);
    int64_t n = ascii ? (int64_t)s.len : (int64_t)vm_str_len(s.s, s.len);
    int64_t start, stop, step;
    int64_t count = slice_indices(vm, sl, n, &start, &stop, &step);
    if (step == 1) {
        size_t a = ascii ? (size_t)start : vm_str_offset(s.s, s.len, (size_t)start);
        size_t b = ascii ? (size_t)start + (size_t)count
                         : vm_str_offset(s.s, s.len, (size_t)(start + count));
        PyValue r = vm_make_str(vm, s.s + a, b - a);
        r.kind = s.kind;
        return r;
    }
    ABuf b = { vm, NULL, 0, 0 };
    ab_add(&b, "", 0);
    for (int64_t i = 0, k = start; i < count; i++, k += step) {
        if (ascii) {
            ab_addc(&b, s.s[k]);
        } else {
            PyValue c = str_char(vm, s, (size_t)k);
            ab_add(&b, c.s, c.len);
        }
    }
    PyValue r = ab_value(&b);
    r.kind = s.kind;
    return r;
}

static PyValue *items_slice(PyVM *vm, const PyValue *items, size_t n,
                            PySlice *sl, size_t *count)
{
    int64_t start, stop, step;
    int64_t c = slice_indices(vm, sl, (int64_t)n, &start, &stop, &step);
    vm_work(vm, (uint64_t)c * sizeof(PyValue) >> 3);
    vm_reserve(vm, (size_t)c * sizeof(PyValue));
    PyValue *out = vm_items_array(vm, PyValue, (size_t)c + 1);
    for (int64_t i = 0, k = start; i < c; i++, k += step)
        out[i] = items[k];
    *count = (size_t)c;
    return out;
}

PyValue vm_getitem(PyVM *vm, PyValue obj, PyValue key)
{
    bool is_slice = vm_is_kind(key, OBJ_SLICE);
    if (obj.kind == PY_STR || obj.kind == PY_BYTES) {
        if (is_slice)
            return str_slice(vm, obj, (PySlice *)key.obj);
        if (obj.kind == PY_BYTES) {
            int64_t i = seq_index(vm, key, (int64_t)obj.len,
                                  "index out of range", "byte");
            return vm_make_int64(vm, (unsigned char)obj.s[i]);
        }
        bool ascii = vm_str_ascii(obj.s, obj.len);
        int64_t n = ascii ? (int64_t)obj.len : (int64_t)vm_str_len(obj.s, obj.len);
        int64_t i = seq_index(vm, key, n, "string index out of range", "str");
        return ascii ? vm_make_str(vm, obj.s + i, 1) : str_char(vm, obj, (size_t)i);
    }
    if (obj.kind == PY_TUPLE || vm_is_kind(obj, OBJ_LIST)) {
        bool tuple = obj.kind == PY_TUPLE;
        const PyValue *items = tuple ? obj.items : ((PyList *)obj.obj)->items;
        size_t n = tuple ? obj.nitems : ((PyList *)obj.obj)->len;
        if (is_slice) {
            size_t c;
            PyValue *out = items_slice(vm, items, n, (PySlice *)key.obj, &c);
            if (tuple)
                return vm_make_tuple(vm, out, c);
            PyList *l = vm_list_new(vm, c + 1);
            memcpy(l->items, out, c * sizeof *out);
            l->len = c;
            return vm_obj(l);
        }
        int64_t i = seq_index(vm, key, (int64_t)n, tuple ? "tuple index out "
                              "of range" : "list index out of range",
                              tuple ? "tuple" : "list");
        return items[i];
    }
    if (vm_is_kind(obj, OBJ_DICT)) {
        PyValue *v = vm_dict_find(vm, (PyDict *)obj.obj, key);
        if (!v) {
            PyValue missing;
            if (obj.obj->type != vm->types[T_DICT] &&
                vm_call_special(vm, obj, "__missing__", &key, 1, &missing))
                return missing;
            vm_throw(vm, vm_new_exception(vm, vm->types[T_KEY_ERROR], &key, 1));
        }
        return *v;
    }
    if (vm_is_kind(obj, OBJ_RANGE)) {
        PyRange *r = (PyRange *)obj.obj;
        int64_t n = vm_len(vm, obj);
        if (is_slice) {
            int64_t start, stop, step;
            int64_t c = slice_indices(vm, (PySlice *)key.obj, n, &start, &stop,
                                      &step);
            PyRange *nr = vm_alloc_obj(vm, sizeof *nr, OBJ_RANGE,
                                       vm->types[T_RANGE]);
            nr->start = r->start + start * r->step;
            nr->step = r->step * step;
            nr->stop = nr->start + c * nr->step;
            return vm_obj(nr);
        }
        int64_t i = seq_index(vm, key, n, "range object index out of range",
                              "range");
        return vm_make_int64(vm, r->start + i * r->step);
    }
    PyValue r;
    if (vm_call_special(vm, obj, "__getitem__", &key, 1, &r) &&
        !vm_class_is_builtin(vm_type_of(vm, obj)))
        return r;
    PyValue members;
    if (vm_enum_members(vm, obj, &members)) {   /* Enum['name'] */
        for (size_t i = 0; i < members.nitems; i++)
            if (key.kind == PY_STR &&
                !strcmp(key.s, vm_sentinel_member(vm, members.items[i])))
                return members.items[i];
        vm_throw(vm, vm_new_exception(vm, vm->types[T_KEY_ERROR], &key, 1));
    }
    if (vm_as_class(obj))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "type '%s' is not subscriptable", vm_as_class(obj)->name));
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                   "'%s' object is not subscriptable", vm_type_name(vm, obj)));
}

void vm_setitem(PyVM *vm, PyValue obj, PyValue key, PyValue value)
{
    if (vm_is_kind(obj, OBJ_LIST)) {
        PyList *l = (PyList *)obj.obj;
        if (vm_is_kind(key, OBJ_SLICE)) {
            int64_t start, stop, step;
            int64_t c = slice_indices(vm, (PySlice *)key.obj, (int64_t)l->len,
                                      &start, &stop, &step);
            size_t n;
            PyValue *items = vm_collect(vm, value, &n);
            if (step != 1) {
                if ((int64_t)n != c)
                    vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(
                                   vm->a, "attempt to assign sequence of size "
                                   "%zu to extended slice of size %lld", n,
                                   (long long)c));
                for (int64_t i = 0, k = start; i < c; i++, k += step)
                    l->items[k] = items[i];
                return;
            }
            if (stop < start)
                stop = start;
            size_t tail = l->len - (size_t)stop;
            PyValue *rest = vm_items_uninit(vm, sizeof(PyValue) * (tail + 1));
            memcpy(rest, l->items + stop, tail * sizeof *rest);
            l->len = (size_t)start;
            for (size_t i = 0; i < n; i++)
                vm_list_append(vm, l, items[i]);
            for (size_t i = 0; i < tail; i++)
                vm_list_append(vm, l, rest[i]);
            return;
        }
        int64_t i = seq_index(vm, key, (int64_t)l->len,
                              "list assignment index out of range", "list");
        l->items[i] = value;
        return;
    }
    if (vm_is_kind(obj, OBJ_DICT)) {
        vm_dict_set(vm, (PyDict *)obj.obj, key, value);
        return;
    }
    PyValue args[2] = { key, value }, r;
    if (vm_call_special(vm, obj, "__setitem__", args, 2, &r) &&
        !vm_class_is_builtin(vm_type_of(vm, obj)))
        return;
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                   "'%s' object does not support item assignment",
                   vm_type_name(vm, obj)));
}

void vm_delitem(PyVM *vm, PyValue obj, PyValue key)
{
    if (vm_is_kind(obj, OBJ_LIST)) {
        PyList *l = (PyList *)obj.obj;
        if (vm_is_kind(key, OBJ_SLICE)) {
            int64_t start, stop, step;
            int64_t c = slice_indices(vm, (PySlice *)key.obj, (int64_t)l->len,
                                      &start, &stop, &step);
            bool *drop = arena_array_of(vm->a, bool, l->len + 1);
            for (int64_t i = 0, k = start; i < c; i++, k += step)
                drop[k] = true;
            size_t out = 0;
            for (size_t i = 0; i < l->len; i++)
                if (!drop[i])
                    l->items[out++] = l->items[i];
            for (size_t i = out; i < l->len; i++)
                l->items[i] = py_none;   /* keeps nothing alive */
            l->len = out;
            return;
        }
        int64_t i = seq_index(vm, key, (int64_t)l->len,
                              "list assignment index out of range", "list");
        memmove(l->items + i, l->items + i + 1,
                (l->len - (size_t)i - 1) * sizeof *l->items);
        l->len--;
        l->items[l->len] = py_none;   /* keeps nothing alive */
        return;
    }
    if (vm_is_kind(obj, OBJ_DICT)) {
        if (!vm_dict_del(vm, (PyDict *)obj.obj, key))
            vm_throw(vm, vm_new_exception(vm, vm->types[T_KEY_ERROR], &key, 1));
        return;
    }
    PyValue r;
    if (vm_call_special(vm, obj, "__delitem__", &key, 1, &r) &&
        !vm_class_is_builtin(vm_type_of(vm, obj)))
        return;
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                   "'%s' object doesn't support item deletion",
                   vm_type_name(vm, obj)));
}

/* ---- len and containment ----------------------------------------------- */

int64_t vm_len(PyVM *vm, PyValue v)
{
    switch (v.kind) {
    case PY_STR: return (int64_t)vm_str_len(v.s, v.len);
    case PY_BYTES: return (int64_t)v.len;
    case PY_TUPLE: return (int64_t)v.nitems;
    case PY_OBJECT:
        switch (v.obj->kind) {
        case OBJ_LIST: return (int64_t)((PyList *)v.obj)->len;
        case OBJ_DICT: return (int64_t)((PyDict *)v.obj)->len;
        case OBJ_SET: return (int64_t)((PySet *)v.obj)->used;
        case OBJ_DICTVIEW: return (int64_t)((PyDictView *)v.obj)->dict->len;
        case OBJ_RANGE: {
            PyRange *r = (PyRange *)v.obj;
            if (r->step > 0)
                return r->start < r->stop
                           ? (r->stop - r->start - 1) / r->step + 1 : 0;
            return r->start > r->stop
                       ? (r->start - r->stop - 1) / (-r->step) + 1 : 0;
        }
        case OBJ_INSTANCE: {
            PyValue r;
            if (vm_call_special(vm, v, "__len__", NULL, 0, &r)) {
                int64_t n;
                if (!vm_as_int64(r, &n))
                    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(
                                   vm->a, "'%s' object cannot be interpreted "
                                   "as an integer", vm_type_name(vm, r)));
                if (n < 0)
                    vm_raise_class(vm, vm->types[T_VALUE_ERROR],
                                   "__len__() should return >= 0");
                return n;
            }
            break;
        }
        default:
            break;
        }
        break;
    case PY_SET: {
        int64_t n = 0;
        for (unsigned t = v.types; t; t &= t - 1)
            n++;
        return n;
    }
    default:
        break;
    }
    PyValue members;
    if (vm_enum_members(vm, v, &members))
        return (int64_t)members.nitems;
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                   "object of type '%s' has no len()", vm_type_name(vm, v)));
}

/* Whether iter(v) could succeed, as `in` asks before it falls back to
   iterating (its TypeError names the argument, not the object). */
static bool iterable(PyVM *vm, PyValue v)
{
    PyValue fn;
    switch (v.kind) {
    case PY_STR: case PY_BYTES: case PY_TUPLE: case PY_SET:
        return true;
    case PY_UNKNOWN:
        return v.type_name && v.items;
    case PY_OBJECT:
        if (v.obj->kind == OBJ_INSTANCE)
            return vm_lookup(vm_type_of(vm, v), "__iter__", &fn, NULL) ||
                   vm_lookup(vm_type_of(vm, v), "__getitem__", &fn, NULL);
        return v.obj->kind == OBJ_ITER || v.obj->kind == OBJ_LIST ||
               v.obj->kind == OBJ_SET || v.obj->kind == OBJ_RANGE ||
               v.obj->kind == OBJ_DICT || v.obj->kind == OBJ_DICTVIEW;
    default:
        return false;
    }
}

bool vm_contains(PyVM *vm, PyValue container, PyValue item)
{
    if (container.kind == PY_BYTES && (item.kind == PY_INT ||
                                       item.kind == PY_BOOL)) {
        /* an int is a byte's value */
        int64_t byte;
        if (!vm_as_int64(item, &byte) || byte < 0 || byte > 255)
            vm_raise_class(vm, vm->types[T_VALUE_ERROR],
                           "byte must be in range(0, 256)");
        return memchr(container.s, (int)byte, container.len) != NULL;
    }
    if (container.kind == PY_STR || container.kind == PY_BYTES) {
        if (item.kind != container.kind)
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           container.kind == PY_STR
                           ? "'in <string>' requires string as left operand, "
                             "not %s"
                           : "a bytes-like object is required, not '%s'",
                           vm_type_name(vm, item)));
        return vm_find(vm, container.s, container.len, item.s, item.len,
                       false) != SIZE_MAX;
    }
    if (vm_is_kind(container, OBJ_DICT))
        return vm_dict_find(vm, (PyDict *)container.obj, item) != NULL;
    if (vm_is_kind(container, OBJ_SET)) {
        if (vm_is_kind(item, OBJ_SET) && !((PySet *)item.obj)->frozen) {
            PySet *f = vm_set_copy(vm, (PySet *)item.obj, true);
            item = vm_obj(f);
        }
        return vm_set_contains(vm, (PySet *)container.obj, item);
    }
    if (vm_is_kind(container, OBJ_DICTVIEW)) {
        PyDictView *dv = (PyDictView *)container.obj;
        if (dv->which == 0)
            return vm_dict_find(vm, dv->dict, item) != NULL;
    }
    if (vm_is_kind(container, OBJ_RANGE) && (item.kind == PY_INT ||
                                             item.kind == PY_BOOL)) {
        PyRange *r = (PyRange *)container.obj;
        int64_t i;
        if (!vm_as_int64(item, &i))
            return false;
        if (r->step > 0 ? (i < r->start || i >= r->stop)
                        : (i > r->start || i <= r->stop))
            return false;
        return (i - r->start) % r->step == 0;
    }
    if (vm_is_kind(container, OBJ_INSTANCE)) {
        PyValue r;
        if (vm_call_special(vm, container, "__contains__", &item, 1, &r))
            return vm_truthy(vm, r);
    }
    /* a tuple and a list read item by item as their iterators read them
       (the list live: __eq__ may change it), without making one */
    if (container.kind == PY_TUPLE) {
        vm_work(vm, container.nitems * WORK_ITEM);
        for (size_t i = 0; i < container.nitems; i++)
            if (vm_is(container.items[i], item) ||
                vm_eq(vm, container.items[i], item))
                return true;
        return false;
    }
    if (vm_is_kind(container, OBJ_LIST)) {
        const PyList *l = (const PyList *)container.obj;
        for (size_t i = 0; i < l->len; i++) {
            vm_work(vm, WORK_ITEM);
            PyValue v = l->items[i];
            if (vm_is(v, item) || vm_eq(vm, v, item))
                return true;
        }
        return false;
    }
    if (!iterable(vm, container))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "argument of type '%s' is not iterable",
                       vm_type_name(vm, container)));
    PyValue it = vm_iter(vm, container), v;
    while (vm_next(vm, it, &v))
        if (vm_is(v, item) || vm_eq(vm, v, item))
            return true;
    return false;
}

/* ---- iteration --------------------------------------------------------- */

static PyValue new_iter(PyVM *vm, PyValue seq, int which)
{
    PyIter *it = vm_alloc_obj(vm, sizeof *it, OBJ_ITER, vm->types[T_ITERATOR]);
    it->seq = seq;
    it->which = which;
    if (vm_is_kind(seq, OBJ_RANGE)) {
        PyRange *r = (PyRange *)seq.obj;
        it->next = r->start;
        it->stop = r->stop;
        it->step = r->step;
    }
    if (vm_is_kind(seq, OBJ_DICT))
        it->stop = (int64_t)((PyDict *)seq.obj)->len;
    if (vm_is_kind(seq, OBJ_SET))
        it->stop = (int64_t)((PySet *)seq.obj)->used;
    return vm_obj(it);
}

PyValue vm_iter(PyVM *vm, PyValue v)
{
    switch (v.kind) {
    case PY_STR:
    case PY_BYTES:
    case PY_TUPLE:
        return new_iter(vm, v, 0);
    case PY_SET:
        return new_iter(vm, pyvm_import(vm, v), 0);
    case PY_UNKNOWN:
        if (v.type_name && v.items) {
            PyValue t = vm_make_tuple(vm, v.items, v.nitems);
            return new_iter(vm, t, 0);
        }
        break;
    case PY_OBJECT:
        switch (v.obj->kind) {
        case OBJ_ITER:
            return v;
        case OBJ_LIST:
        case OBJ_SET:
        case OBJ_RANGE:
        case OBJ_DICT:
            return new_iter(vm, v, 0);
        case OBJ_DICTVIEW: {
            PyDictView *dv = (PyDictView *)v.obj;
            PyValue it = new_iter(vm, vm_obj(dv->dict), dv->which);
            return it;
        }
        case OBJ_INSTANCE: {
            PyValue r;
            if (vm_call_special(vm, v, "__iter__", NULL, 0, &r)) {
                PyValue next;
                if (!vm_lookup(vm_type_of(vm, r), "__next__", &next, NULL) &&
                    !vm_is_kind(r, OBJ_ITER))
                    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(
                                   vm->a, "iter() returned non-iterator of "
                                   "type '%s'", vm_type_name(vm, r)));
                return r;
            }
            break;
        }
        default:
            break;
        }
        break;
    default:
        break;
    }
    PyValue members;
    if (vm_enum_members(vm, v, &members))
        return new_iter(vm, members, 0);
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                   "'%s' object is not iterable", vm_type_name(vm, v)));
}

typedef struct UserNext {
    PyValue it, out;
} UserNext;

static void user_next(PyVM *vm, void *ctx)
{
    UserNext *u = ctx;
    if (!vm_call_special(vm, u->it, "__next__", NULL, 0, &u->out))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "'%s' object is not an iterator",
                       vm_type_name(vm, u->it)));
}

bool vm_next(PyVM *vm, PyValue itv, PyValue *out)
{
    /* natives iterate without steps (sum, min, sorted, join, ...) */
    vm_work(vm, WORK_ITEM);
    if (!vm_is_kind(itv, OBJ_ITER)) {
        UserNext u = { itv, py_none };
        if (vm_protect(vm, user_next, &u)) {
            *out = u.out;
            return true;
        }
        if (vm_exception_matches(vm, vm->types[T_STOP_ITERATION]))
            return false;
        vm_throw(vm, vm->error.value);
    }
    PyIter *it = (PyIter *)itv.obj;
    PyValue seq = it->seq;
    switch (seq.kind) {
    case PY_STR: {
        if (it->pos >= seq.len)
            return false;
        size_t start = it->pos;
        it->pos += vm_str_offset(seq.s + start, seq.len - start, 1);
        *out = vm_make_str(vm, seq.s + start, it->pos - start);
        return true;
    }
    case PY_BYTES:
        if (it->pos >= seq.len)
            return false;
        *out = vm_make_int64(vm, (unsigned char)seq.s[it->pos++]);
        return true;
    case PY_TUPLE:
        if (it->pos >= seq.nitems)
            return false;
        *out = seq.items[it->pos++];
        return true;
    case PY_OBJECT:
        break;
    default:
        return false;
    }
    switch (seq.obj->kind) {
    case OBJ_LIST: {
        PyList *l = (PyList *)seq.obj;
        if (it->pos >= l->len)
            return false;
        *out = l->items[it->pos++];
        return true;
    }
    case OBJ_SET: {
        PySet *s = (PySet *)seq.obj;
        if ((int64_t)s->used != it->stop)
            vm_raise_class(vm, vm->types[T_RUNTIME_ERROR],
                           "Set changed size during iteration");
        return vm_set_next(s, &it->pos, out);
    }
    case OBJ_RANGE:
        if (it->step > 0 ? it->next >= it->stop : it->next <= it->stop)
            return false;
        *out = vm_make_int64(vm, it->next);
        it->next += it->step;
        return true;
    case OBJ_DICT: {
        PyDict *d = (PyDict *)seq.obj;
        if ((int64_t)d->len != it->stop)
            vm_raise_class(vm, vm->types[T_RUNTIME_ERROR],
                           "dictionary changed size during iteration");
        if (it->pos >= d->len)
            return false;
        size_t i = it->pos++;
        if (it->which == 0)
            *out = d->keys[i];
        else if (it->which == 1)
            *out = d->values[i];
        else {
            PyValue pair[2] = { d->keys[i], d->values[i] };
            *out = vm_make_tuple(vm, pair, 2);
        }
        return true;
    }
    default:
        return false;
    }
}

PyValue *vm_collect(PyVM *vm, PyValue iterable, size_t *n)
{
    if (iterable.kind == PY_TUPLE) {
        *n = iterable.nitems;
        return iterable.items;
    }
    if (vm_is_kind(iterable, OBJ_LIST)) {
        PyList *l = (PyList *)iterable.obj;
        vm_work(vm, l->len * sizeof(PyValue) >> 3);
        vm_reserve(vm, l->len * sizeof(PyValue));
        PyValue *copy = arena_array_of(vm->a, PyValue, l->len + 1);
        memcpy(copy, l->items, l->len * sizeof *copy);
        *n = l->len;
        return copy;
    }
    PyList *l = vm_list_new(vm, 8);
    PyValue it = vm_iter(vm, iterable), v;
    while (vm_next(vm, it, &v)) {
        vm_step(vm);
        vm_list_append(vm, l, v);
    }
    *n = l->len;
    return l->items;
}

/* ---- repr and str ------------------------------------------------------ */

static void repr_into(PyVM *vm, ABuf *b, PyValue v);

#define REPR " while getting the repr of an object"

/* Py_ReprEnter: false when o is being repr()'d already (a cycle).  As
   many containers can be open as vm_enter allows. */
static bool enter_repr(PyVM *vm, const PyObj *o)
{
    for (int i = 0; i < vm->nin_repr; i++)
        if (vm->in_repr[i] == o)
            return false;
    if (vm->nin_repr == vm->in_repr_cap) {
        int cap = vm->in_repr_cap ? 2 * vm->in_repr_cap : 16;
        const PyObj **grown = arena_array_of(vm->a, const PyObj *, cap);
        if (vm->nin_repr)
            memcpy(grown, vm->in_repr, vm->nin_repr * sizeof *grown);
        vm->in_repr = grown;
        vm->in_repr_cap = cap;
    }
    vm->in_repr[vm->nin_repr++] = o;
    return true;
}

static void repr_items(PyVM *vm, ABuf *b, const PyValue *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            ab_adds(b, ", ");
        repr_into(vm, b, items[i]);
    }
}

/* A class of module builtins prints its __name__, as CPython's tp_name
   (a nested class of a 3.13 block is <class 'D'>). */
static const char *class_repr(PyVM *vm, const PyClass *c)
{
    if (c->is_enum)
        return arena_printf(vm->a, "<enum '%s'>", c->name);
    if (!strcmp(c->module, "builtins"))
        return arena_printf(vm->a, "<class '%s'>", c->name);
    return arena_printf(vm->a, "<class '%s.%s'>", c->module, c->qualname);
}

static const char *default_repr(PyVM *vm, PyValue v)
{
    PyClass *c = vm_type_of(vm, v);
    if (!strcmp(c->module, "builtins"))
        return arena_printf(vm->a, "<%s object at %p>", c->name,
                            (void *)v.obj);
    return arena_printf(vm->a, "<%s.%s object at %p>", c->module, c->qualname,
                        (void *)v.obj);
}

static const char *checked_str(PyVM *vm, PyValue r, const char *method)
{
    if (r.kind != PY_STR)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "%s returned non-string (type %s)", method,
                       vm_type_name(vm, r)));
    return r.s;
}

static void object_repr(PyVM *vm, ABuf *b, PyValue v)
{
    PyObj *o = v.obj;
    switch (o->kind) {
    case OBJ_LIST: {
        PyList *l = (PyList *)o;
        if (!enter_repr(vm, o)) {
            ab_adds(b, "[...]");
            return;
        }
        ab_addc(b, '[');
        repr_items(vm, b, l->items, l->len);
        ab_addc(b, ']');
        vm->nin_repr--;
        return;
    }
    case OBJ_DICT: {
        PyDict *d = (PyDict *)o;
        if (!enter_repr(vm, o)) {
            ab_adds(b, "{...}");
            return;
        }
        ab_addc(b, '{');
        for (size_t i = 0; i < d->len; i++) {
            if (i)
                ab_adds(b, ", ");
            repr_into(vm, b, d->keys[i]);
            ab_adds(b, ": ");
            repr_into(vm, b, d->values[i]);
        }
        ab_addc(b, '}');
        vm->nin_repr--;
        return;
    }
    case OBJ_SET: {
        PySet *s = (PySet *)o;
        const char *name = o->type->name;
        if (s->used == 0) {
            ab_addf(b, "%s()", name);
            return;
        }
        if (!enter_repr(vm, o)) {
            ab_addf(b, "%s(...)", name);
            return;
        }
        if (s->frozen)
            ab_addf(b, "%s(", name);
        ab_addc(b, '{');
        size_t pos = 0, i = 0;
        PyValue key;
        while (vm_set_next(s, &pos, &key)) {
            if (i++)
                ab_adds(b, ", ");
            repr_into(vm, b, key);
        }
        ab_addc(b, '}');
        if (s->frozen)
            ab_addc(b, ')');
        vm->nin_repr--;
        return;
    }
    case OBJ_CLASS:
        ab_adds(b, class_repr(vm, (PyClass *)o));
        return;
    case OBJ_FUNCTION:
        ab_addf(b, "<function %s at %p>", ((PyFunction *)o)->qualname,
                (void *)o);
        return;
    case OBJ_NATIVE:
        ab_addf(b, "<built-in function %s>", ((PyNative *)o)->name);
        return;
    case OBJ_METHOD: {
        PyMethod *m = (PyMethod *)o;
        if (vm_is_kind(m->func, OBJ_NATIVE)) {
            ab_addf(b, "<built-in method %s of %s object at %p>",
                    ((PyNative *)m->func.obj)->name,
                    vm_type_name(vm, m->self), (void *)m->self.obj);
            return;
        }
        ab_addf(b, "<bound method %s of ", vm_is_kind(m->func, OBJ_FUNCTION)
                ? ((PyFunction *)m->func.obj)->qualname : "?");
        repr_into(vm, b, m->self);
        ab_addc(b, '>');
        return;
    }
    case OBJ_RANGE: {
        PyRange *r = (PyRange *)o;
        if (r->step == 1)
            ab_addf(b, "range(%lld, %lld)", (long long)r->start,
                    (long long)r->stop);
        else
            ab_addf(b, "range(%lld, %lld, %lld)", (long long)r->start,
                    (long long)r->stop, (long long)r->step);
        return;
    }
    case OBJ_DICTVIEW: {
        PyDictView *dv = (PyDictView *)o;
        static const char *const names[] = { "dict_keys", "dict_values",
                                             "dict_items" };
        ab_addf(b, "%s([", names[dv->which]);
        PyValue it = vm_iter(vm, vm_obj(dv)), item;
        bool first = true;
        while (vm_next(vm, it, &item)) {
            if (!first)
                ab_adds(b, ", ");
            first = false;
            repr_into(vm, b, item);
        }
        ab_adds(b, "])");
        return;
    }
    case OBJ_SLICE: {
        PySlice *s = (PySlice *)o;
        ab_adds(b, "slice(");
        repr_into(vm, b, s->start);
        ab_adds(b, ", ");
        repr_into(vm, b, s->stop);
        ab_adds(b, ", ");
        repr_into(vm, b, s->step);
        ab_addc(b, ')');
        return;
    }
    case OBJ_SUPER: {
        PySuper *s = (PySuper *)o;
        ab_addf(b, "<super: %s, <%s object>>", class_repr(vm, s->cls),
                vm_type_name(vm, s->self));
        return;
    }
    case OBJ_ITER:
        if (o->type == vm->types[T_GENERATOR]) {
            ab_addf(b, "<generator object <genexpr> at %p>", (void *)o);
            return;
        }
        ab_addf(b, "<%s_iterator object at %p>",
                vm_type_name(vm, ((PyIter *)o)->seq), (void *)o);
        return;
    case OBJ_WRAPPER:
        ab_addf(b, "<%s object at %p>", o->type->name, (void *)o);
        return;
    case OBJ_INSTANCE: {
        PyValue fn, r;
        PyClass *owner;
        /* a built-in class's own (object's) is below; a host's class
           may print as a built-in one and have its own */
        if (vm_lookup(o->type, "__repr__", &fn, &owner) &&
            (!vm_class_is_builtin(owner) || owner->host)) {
            r = vm_call1(vm, fn, v);
            ab_adds(b, checked_str(vm, r, "__repr__"));
            return;
        }
        if (o->type->is_exception) {
            PyValue args = ((PyInstance *)o)->args;
            ab_addf(b, "%s(", o->type->name);
            repr_items(vm, b, args.items, args.nitems);
            ab_addc(b, ')');
            return;
        }
        ab_adds(b, default_repr(vm, v));
        return;
    }
    }
}

static void repr_into(PyVM *vm, ABuf *b, PyValue v)
{
    vm_step(vm);
    switch (v.kind) {
    case PY_OBJECT:
        vm_enter(vm, REPR);
        object_repr(vm, b, v);
        vm_leave(vm);
        return;
    case PY_TUPLE:
        vm_enter(vm, REPR);
        ab_addc(b, '(');
        repr_items(vm, b, v.items, v.nitems);
        if (v.nitems == 1)
            ab_addc(b, ',');
        ab_addc(b, ')');
        vm_leave(vm);
        return;
    case PY_TYPE:
    case PY_SET:
        repr_into(vm, b, pyvm_import(vm, v));
        return;
    default: {
        if (v.kind == PY_INT)
            vm_check_int_digits(vm, v.s);
        const char *r = py_repr(vm->a, &v);
        ab_adds(b, r);
        return;
    }
    }
}

const char *vm_repr(PyVM *vm, PyValue v)
{
    if (v.kind == PY_INT)
        vm_check_int_digits(vm, v.s);
    if (v.kind == PY_STR || v.kind == PY_INT || v.kind == PY_NONE ||
        v.kind == PY_BOOL || v.kind == PY_FLOAT)
        return py_repr(vm->a, &v);
    ABuf b = { vm, NULL, 0, 0 };
    ab_add(&b, "", 0);
    repr_into(vm, &b, v);
    return b.s;
}

const char *vm_str(PyVM *vm, PyValue v)
{
    if (v.kind == PY_STR)
        return v.s;
    const char *member = vm_sentinel_member(vm, v);
    if (member)   /* Enum.__str__ */
        return arena_printf(vm->a, "Sentinels.%s", member);
    if (vm_is_kind(v, OBJ_INSTANCE)) {
        PyValue fn;
        PyClass *owner;
        PyClass *type = v.obj->type;
        if (vm_lookup(type, "__str__", &fn, &owner) &&
            !vm_class_is_builtin(owner))
            return checked_str(vm, vm_call1(vm, fn, v), "__str__");
        if (type->is_exception) {
            PyValue args = ((PyInstance *)v.obj)->args;
            if (args.nitems == 0)
                return "";
            if (args.nitems == 1) {
                if (vm_is_subclass(type, vm->types[T_KEY_ERROR]))
                    return vm_repr(vm, args.items[0]);
                vm_enter(vm, " while getting the str of an object");
                const char *s = vm_str(vm, args.items[0]);
                vm_leave(vm);
                return s;
            }
            return vm_repr(vm, args);
        }
    }
    return vm_repr(vm, v);
}

const char *pyvm_to_str(PyVM *vm, PyValue v)
{
    return vm_str(vm, v);
}

const char *pyvm_repr(PyVM *vm, PyValue v)
{
    return vm_repr(vm, v);
}
