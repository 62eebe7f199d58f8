/*
 * pyvm_methods.c — the methods of the built-in types but str's
 * (pyvm_str.c): list, dict, set and frozenset, tuple, int, float and
 * bytes, and the few of object, BaseException and type that Python code
 * calls by name (super().__init__, object.__repr__).  Each is a native
 * taking self first; the tables at the end fill the classes' dicts.
 */
#include "python/pyvm_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- list -------------------------------------------------------------- */

static PyList *self_list(const PyArgs *a)
{
    return (PyList *)a->args[0].obj;
}

static PyValue l_append(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "list.append", "self object", v, NULL);
    vm_list_append(vm, self_list(a), v[1]);
    return py_none;
}

static PyValue l_extend(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "list.extend", "self iterable", v, NULL);
    size_t n;
    PyValue *items = vm_collect(vm, v[1], &n);
    for (size_t i = 0; i < n; i++)
        vm_list_append(vm, self_list(a), items[i]);
    return py_none;
}

static PyValue l_insert(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(3);
    pyvm_bind(vm, a, "list.insert", "self index object", v, NULL);
    PyList *l = self_list(a);
    int64_t i = vm_index(vm, v[1], arena_printf(vm->a, "'%s' object cannot be "
                         "interpreted as an integer", vm_type_name(vm, v[1])));
    if (i < 0)
        i = i + (int64_t)l->len < 0 ? 0 : i + (int64_t)l->len;
    if (i > (int64_t)l->len)
        i = (int64_t)l->len;
    vm_list_append(vm, l, py_none);
    vm_work(vm, (l->len - 1 - (size_t)i) * sizeof *l->items >> 3);
    memmove(l->items + i + 1, l->items + i, (l->len - 1 - (size_t)i) * sizeof *l->items);
    l->items[i] = v[2];
    return py_none;
}

static PyValue l_pop(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "list.pop", "self index=", v, NULL);
    PyList *l = self_list(a);
    if (l->len == 0)
        vm_raise_class(vm, vm->types[T_INDEX_ERROR], "pop from empty list");
    int64_t i = vm_given(v[1]) ? vm_index(vm, v[1], "an integer is required")
                            : (int64_t)l->len - 1;
    if (i < 0)
        i += (int64_t)l->len;
    if (i < 0 || i >= (int64_t)l->len)
        vm_raise_class(vm, vm->types[T_INDEX_ERROR], "pop index out of range");
    PyValue r = l->items[i];
    vm_work(vm, (l->len - (size_t)i - 1) * sizeof *l->items >> 3);
    memmove(l->items + i, l->items + i + 1, (l->len - (size_t)i - 1) * sizeof *l->items);
    l->len--;
    l->items[l->len] = py_none;   /* keeps nothing alive (pyvm_heap.c) */
    return r;
}

static int64_t list_find(PyVM *vm, PyList *l, PyValue x, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi && i < l->len; i++) {
        vm_work(vm, WORK_ITEM);
        if (vm_is(l->items[i], x) || vm_eq(vm, l->items[i], x))
            return (int64_t)i;
    }
    return -1;
}

static PyValue l_remove(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "list.remove", "self value", v, NULL);
    PyList *l = self_list(a);
    int64_t i = list_find(vm, l, v[1], 0, l->len);
    if (i < 0)
        vm_raise_class(vm, vm->types[T_VALUE_ERROR], "list.remove(x): x not in list");
    vm_work(vm, (l->len - (size_t)i - 1) * sizeof *l->items >> 3);
    memmove(l->items + i, l->items + i + 1, (l->len - (size_t)i - 1) * sizeof *l->items);
    l->len--;
    l->items[l->len] = py_none;   /* keeps nothing alive (pyvm_heap.c) */
    return py_none;
}

static PyValue l_index(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(4);
    pyvm_bind(vm, a, "list.index", "self value start= stop=", v, NULL);
    PyList *l = self_list(a);
    size_t lo, hi;
    vm_span(vm, v[2], v[3], l->len, &lo, &hi);
    int64_t i = list_find(vm, l, v[1], lo, hi);
    if (i < 0)
        vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(vm->a,
                       "%s is not in list", vm_repr(vm, v[1])));
    return vm_make_int64(vm, i);
}

static PyValue l_count(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "list.count", "self value", v, NULL);
    size_t n;
    PyValue *items = vm_collect(vm, SELF, &n);
    int64_t c = 0;
    vm_work(vm, n * WORK_ITEM);
    for (size_t i = 0; i < n; i++)
        c += vm_is(items[i], v[1]) || vm_eq(vm, items[i], v[1]);
    return vm_make_int64(vm, c);
}

/* A stable merge sort that lets comparisons raise. */
static void merge_sort(PyVM *vm, PyValue *keys, size_t *idx, size_t *tmp,
                       size_t n)
{
    if (n < 2)
        return;
    size_t half = n / 2;
    merge_sort(vm, keys, idx, tmp, half);
    merge_sort(vm, keys, idx + half, tmp, n - half);
    size_t i = 0, j = half, k = 0;
    vm_work(vm, n * WORK_COMPARE);
    while (i < half && j < n) {
        if (vm_lt(vm, keys[idx[j]], keys[idx[i]]))
            tmp[k++] = idx[j++];
        else
            tmp[k++] = idx[i++];
    }
    while (i < half)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

/* items sorted into out (n of them; items is reordered when reverse).
   The keys and the permutation are the sort's alone: temporaries, so
   that sorting in a loop does not pile them up. */
static void sort_into(PyVM *vm, PyValue *items, size_t n, PyValue key,
                      bool reverse, PyValue *out)
{
    /* reverse=True keeps equal items in order: reverse, sort, reverse */
    if (reverse)
        for (size_t i = 0; i < n / 2; i++) {
            PyValue t = items[i];
            items[i] = items[n - 1 - i];
            items[n - 1 - i] = t;
        }
    TempMark mark = vm_temp_mark(vm);
    vm_reserve(vm, (n + 1) * (2 * sizeof(size_t) +
                              (key.kind != PY_NONE ? sizeof(PyValue) : 0)));
    PyValue *keys = items;
    if (key.kind != PY_NONE) {
        keys = vm_temp_array(vm, PyValue, n + 1);
        for (size_t i = 0; i < n; i++)
            keys[i] = vm_call1(vm, key, items[i]);
    }
    size_t *idx = vm_temp_array(vm, size_t, n + 1);
    size_t *tmp = vm_temp_array(vm, size_t, n + 1);
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    merge_sort(vm, keys, idx, tmp, n);
    for (size_t i = 0; i < n; i++)
        out[i] = items[idx[reverse ? n - 1 - i : i]];
    vm_temp_release(vm, mark);
}

PyValue vm_sorted(PyVM *vm, PyValue *items, size_t n, PyValue key,
                  bool reverse)
{
    PyList *l = vm_list_new(vm, n + 1);
    sort_into(vm, items, n, key, reverse, l->items);
    l->len = n;
    return vm_obj(l);
}

static PyValue l_sort(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(3);
    pyvm_bind(vm, a, "list.sort", "self * key= reverse=", v, NULL);
    PyList *l = self_list(a);
    size_t n = l->len;
    /* sorted from a copy, straight back into the list */
    TempMark mark = vm_temp_mark(vm);
    vm_reserve(vm, (n + 1) * sizeof(PyValue));
    PyValue *copy = vm_temp_array(vm, PyValue, n + 1);
    memcpy(copy, l->items, n * sizeof *copy);
    sort_into(vm, copy, n, vm_given(v[1]) ? v[1] : py_none,
              vm_given(v[2]) && vm_truthy(vm, v[2]), l->items);
    vm_temp_release(vm, mark);
    return py_none;
}

static PyValue l_reverse(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "list.reverse", "self", v, NULL);
    PyList *l = self_list(a);
    for (size_t i = 0; i < l->len / 2; i++) {
        PyValue t = l->items[i];
        l->items[i] = l->items[l->len - 1 - i];
        l->items[l->len - 1 - i] = t;
    }
    return py_none;
}

static PyValue l_copy(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "list.copy", "self", v, NULL);
    PyList *l = self_list(a), *c = vm_list_new(vm, l->len + 1);
    memcpy(c->items, l->items, l->len * sizeof *l->items);
    c->len = l->len;
    return vm_obj(c);
}

static PyValue l_clear(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "list.clear", "self", v, NULL);
    self_list(a)->len = 0;
    return py_none;
}

/* ---- tuple ------------------------------------------------------------- */

static PyValue t_index(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(4);
    pyvm_bind(vm, a, "tuple.index", "self value start= stop=", v, NULL);
    size_t lo, hi;
    vm_span(vm, v[2], v[3], SELF.nitems, &lo, &hi);
    for (size_t i = lo; i < hi; i++)
        if (vm_is(SELF.items[i], v[1]) || vm_eq(vm, SELF.items[i], v[1]))
            return vm_make_int64(vm, (int64_t)i);
    vm_raise_class(vm, vm->types[T_VALUE_ERROR], "tuple.index(x): x not in tuple");
}

/* ---- dict -------------------------------------------------------------- */

static PyDict *self_dict(const PyArgs *a)
{
    return (PyDict *)a->args[0].obj;
}

static PyValue view(PyVM *vm, const PyArgs *a, int which, const char *fname)
{
    ARGS(1);
    pyvm_bind(vm, a, fname, "self", v, NULL);
    static const int types[] = { T_DICT_KEYS, T_DICT_VALUES, T_DICT_ITEMS };
    PyDictView *dv = vm_alloc_obj(vm, sizeof *dv, OBJ_DICTVIEW,
                                  vm->types[types[which]]);
    dv->dict = self_dict(a);
    dv->which = which;
    return vm_obj(dv);
}

static PyValue d_keys(PyVM *vm, const PyArgs *a, void *d) { (void)d; return view(vm, a, 0, "dict.keys"); }
static PyValue d_values(PyVM *vm, const PyArgs *a, void *d) { (void)d; return view(vm, a, 1, "dict.values"); }
static PyValue d_items(PyVM *vm, const PyArgs *a, void *d) { (void)d; return view(vm, a, 2, "dict.items"); }

static PyValue d_get(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(3);
    pyvm_bind(vm, a, "get", "self key default=", v, NULL);
    PyValue *found = vm_dict_find(vm, self_dict(a), v[1]);
    return found ? *found : vm_given(v[2]) ? v[2] : py_none;
}

static PyValue d_pop(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(3);
    pyvm_bind(vm, a, "pop", "self key default=", v, NULL);
    PyValue *found = vm_dict_find(vm, self_dict(a), v[1]);
    if (!found) {
        if (vm_given(v[2]))
            return v[2];
        vm_throw(vm, vm_new_exception(vm, vm->types[T_KEY_ERROR], &v[1], 1));
    }
    PyValue r = *found;
    vm_dict_del(vm, self_dict(a), v[1]);
    return r;
}

static PyValue d_popitem(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "popitem", "self", v, NULL);
    PyDict *d = self_dict(a);
    if (d->len == 0)
        vm_raise_class(vm, vm->types[T_KEY_ERROR], "popitem(): dictionary is empty");
    PyValue pair[2] = { d->keys[d->len - 1], d->values[d->len - 1] };
    vm_dict_del(vm, d, pair[0]);
    return vm_make_tuple(vm, pair, 2);
}

static PyValue d_setdefault(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(3);
    pyvm_bind(vm, a, "setdefault", "self key default=", v, NULL);
    PyValue *found = vm_dict_find(vm, self_dict(a), v[1]);
    if (found)
        return *found;
    PyValue dflt = vm_given(v[2]) ? v[2] : py_none;
    vm_dict_set(vm, self_dict(a), v[1], dflt);
    return dflt;
}

static PyValue d_update(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    if (a->nargs > 2)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "update expected at most 1 argument, got %zu",
                       a->nargs - 1));
    if (a->nargs == 2)
        vm_dict_update(vm, self_dict(a), a->args[1]);
    for (size_t k = 0; k < a->nkw; k++)
        vm_dict_set_str(vm, self_dict(a), a->kwnames[k], a->kwvalues[k]);
    return py_none;
}

static PyValue d_copy(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "dict.copy", "self", v, NULL);
    return vm_obj(vm_dict_copy(vm, self_dict(a)));
}

static PyValue d_clear(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "dict.clear", "self", v, NULL);
    PyDict *d = self_dict(a);
    vm_dict_changing(d);
    d->len = 0;
    d->index_size = 0;
    return py_none;
}

static PyValue d_fromkeys(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(3);
    pyvm_bind(vm, a, "fromkeys", "cls iterable value=", v, NULL);
    PyDict *d = vm_dict_new(vm);
    size_t n;
    PyValue *keys = vm_collect(vm, v[1], &n);
    for (size_t i = 0; i < n; i++)
        vm_dict_set(vm, d, keys[i], vm_given(v[2]) ? v[2] : py_none);
    return vm_obj(d);
}

/* ---- set --------------------------------------------------------------- */

static PySet *self_set(const PyArgs *a)
{
    return (PySet *)a->args[0].obj;
}

static PySet *as_set(PyVM *vm, PyValue v)
{
    if (vm_is_kind(v, OBJ_SET))
        return (PySet *)v.obj;
    PySet *s = vm_set_new(vm, false);
    size_t n;
    PyValue *items = vm_collect(vm, v, &n);
    for (size_t i = 0; i < n; i++)
        vm_set_add(vm, s, items[i]);
    return s;
}

static void mutable_check(PyVM *vm, PySet *s, const char *name)
{
    if (s->frozen)
        vm_raise_class(vm, vm->types[T_ATTRIBUTE_ERROR], arena_printf(vm->a,
                       "'frozenset' object has no attribute '%s'", name));
}

static PyValue set_add(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "set.add", "self object", v, NULL);
    mutable_check(vm, self_set(a), "add");
    vm_set_add(vm, self_set(a), v[1]);
    return py_none;
}

static PyValue set_discard(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "set.discard", "self object", v, NULL);
    mutable_check(vm, self_set(a), "discard");
    vm_set_discard(vm, self_set(a), v[1]);
    return py_none;
}

static PyValue set_remove(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "set.remove", "self object", v, NULL);
    mutable_check(vm, self_set(a), "remove");
    if (!vm_set_discard(vm, self_set(a), v[1]))
        vm_throw(vm, vm_new_exception(vm, vm->types[T_KEY_ERROR], &v[1], 1));
    return py_none;
}

static PyValue set_pop(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "set.pop", "self", v, NULL);
    PySet *s = self_set(a);
    mutable_check(vm, s, "pop");
    size_t pos = 0;
    PyValue key;
    if (!vm_set_next(s, &pos, &key))
        vm_raise_class(vm, vm->types[T_KEY_ERROR], "pop from an empty set");
    vm_set_discard(vm, s, key);
    return key;
}

static PyValue set_clear(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "set.clear", "self", v, NULL);
    PySet *s = self_set(a);
    mutable_check(vm, s, "clear");
    PySet *empty = vm_set_new(vm, false);
    s->table = empty->table;
    s->mask = empty->mask;
    s->fill = s->used = 0;
    return py_none;
}

static PyValue set_copy(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "set.copy", "self", v, NULL);
    return vm_obj(vm_set_copy(vm, self_set(a), self_set(a)->frozen));
}

/* set_update_internal: another set merges, anything else adds its
   items in order (setobject.c; the order decides how a set prints). */
static void update_from(PyVM *vm, PySet *s, PyValue other)
{
    if (vm_is_kind(other, OBJ_SET)) {
        vm_set_merge(vm, s, (PySet *)other.obj);
        return;
    }
    size_t n;
    PyValue *items = vm_collect(vm, other, &n);
    for (size_t i = 0; i < n; i++)
        vm_set_add(vm, s, items[i]);
}

/* so & other, for any iterable other. */
static PySet *intersection(PyVM *vm, PySet *so, PyValue other)
{
    if (vm_is_kind(other, OBJ_SET))
        return vm_set_intersection(vm, so, (PySet *)other.obj);
    PySet *result = vm_set_new(vm, so->frozen);
    size_t n;
    PyValue *items = vm_collect(vm, other, &n);
    for (size_t i = 0; i < n; i++)
        if (vm_set_contains(vm, so, items[i]))
            vm_set_add(vm, result, items[i]);
    return result;
}

/* so - other: a copy with other's items discarded, or (for a set much
   smaller than so) vm_set_difference's way. */
static PySet *difference(PyVM *vm, PySet *so, PyValue other)
{
    if (vm_is_kind(other, OBJ_SET))
        return vm_set_difference(vm, so, (PySet *)other.obj);
    PySet *result = vm_set_copy(vm, so, so->frozen);
    size_t n;
    PyValue *items = vm_collect(vm, other, &n);
    for (size_t i = 0; i < n; i++)
        vm_set_discard(vm, result, items[i]);
    return result;
}

static void replace_table(PySet *s, const PySet *from)
{
    s->table = from->table;
    s->mask = from->mask;
    s->fill = from->fill;
    s->used = from->used;
}

/* union, intersection, difference and their _update forms, with any
   number of iterables. */
static PyValue set_multi(PyVM *vm, const PyArgs *a, char op, bool update)
{
    PySet *so = self_set(a), *result = so;
    if (update)
        mutable_check(vm, so, op == '|' ? "update" : op == '&'
                      ? "intersection_update" : "difference_update");
    if (op == '|') {
        if (!update)
            result = vm_set_copy(vm, so, so->frozen);
        for (size_t i = 1; i < a->nargs; i++)
            if (!(vm_is_kind(a->args[i], OBJ_SET) &&
                  (PySet *)a->args[i].obj == so))
                update_from(vm, result, a->args[i]);
        return update ? py_none : vm_obj(result);
    }
    if (a->nargs == 1)
        result = update ? so : vm_set_copy(vm, so, so->frozen);
    for (size_t i = 1; i < a->nargs; i++) {
        if (op == '&')
            result = intersection(vm, result, a->args[i]);
        else if (i == 1 || !update)
            result = difference(vm, result, a->args[i]);
        else
            result = difference(vm, result, a->args[i]);
    }
    if (update) {
        if (result != so)
            replace_table(so, result);
        return py_none;
    }
    result->frozen = so->frozen;
    result->ob.type = so->ob.type;
    return vm_obj(result);
}

static PyValue set_symmetric_difference(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[2];
    pyvm_bind(vm, a, "set.symmetric_difference", "self other", v, NULL);
    PySet *so = self_set(a);
    PySet *other = vm_is_kind(v[1], OBJ_SET) ? (PySet *)v[1].obj
                                             : as_set(vm, v[1]);
    PySet *r = vm_set_symmetric_difference(vm, so, other);
    r->frozen = so->frozen;
    r->ob.type = so->ob.type;
    return vm_obj(r);
}

static PyValue set_union(PyVM *vm, const PyArgs *a, void *d) { (void)d; return set_multi(vm, a, '|', false); }
static PyValue set_intersection(PyVM *vm, const PyArgs *a, void *d) { (void)d; return set_multi(vm, a, '&', false); }
static PyValue set_difference(PyVM *vm, const PyArgs *a, void *d) { (void)d; return set_multi(vm, a, '-', false); }
static PyValue set_update(PyVM *vm, const PyArgs *a, void *d) { (void)d; return set_multi(vm, a, '|', true); }
static PyValue set_intersection_update(PyVM *vm, const PyArgs *a, void *d) { (void)d; return set_multi(vm, a, '&', true); }
static PyValue set_difference_update(PyVM *vm, const PyArgs *a, void *d) { (void)d; return set_multi(vm, a, '-', true); }

static PyValue set_relation(PyVM *vm, const PyArgs *a, int which,
                            const char *fname)
{
    ARGS(2);
    pyvm_bind(vm, a, fname, "self other", v, NULL);
    PySet *s = self_set(a), *o = as_set(vm, v[1]);
    size_t pos = 0;
    PyValue key;
    if (which == 0) {          /* issubset */
        while (vm_set_next(s, &pos, &key))
            if (!vm_set_contains(vm, o, key))
                return pyvm_bool(false);
        return pyvm_bool(true);
    }
    if (which == 1) {          /* issuperset */
        while (vm_set_next(o, &pos, &key))
            if (!vm_set_contains(vm, s, key))
                return pyvm_bool(false);
        return pyvm_bool(true);
    }
    while (vm_set_next(s, &pos, &key))   /* isdisjoint */
        if (vm_set_contains(vm, o, key))
            return pyvm_bool(false);
    return pyvm_bool(true);
}

static PyValue set_issubset(PyVM *vm, const PyArgs *a, void *d) { (void)d; return set_relation(vm, a, 0, "set.issubset"); }
static PyValue set_issuperset(PyVM *vm, const PyArgs *a, void *d) { (void)d; return set_relation(vm, a, 1, "set.issuperset"); }
static PyValue set_isdisjoint(PyVM *vm, const PyArgs *a, void *d) { (void)d; return set_relation(vm, a, 2, "set.isdisjoint"); }

/* ---- numbers, object, exceptions, type --------------------------------- */

static PyValue i_bit_length(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "int.bit_length", "self", v, NULL);
    const char *t = SELF.kind == PY_BOOL ? (SELF.b ? "1" : "0") : SELF.s;
    if (t[0] == '-')
        t++;
    if (!strcmp(t, "0"))
        return vm_make_int64(vm, 0);
    return vm_make_int64(vm, (int64_t)strlen(vm_int_to_base(vm, t, 2)));
}

static PyValue f_is_integer(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "float.is_integer", "self", v, NULL);
    return pyvm_bool(isfinite(SELF.f) && SELF.f == floor(SELF.f));
}

static PyValue o_init(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    if (a->nargs > 1 || a->nkw)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], "object.__init__() takes "
                       "exactly one argument (the instance to initialize)");
    return py_none;
}

static PyValue o_repr(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "object.__repr__", "self", v, NULL);
    PyClass *c = vm_type_of(vm, SELF);
    /* a class of module builtins prints its __name__, as CPython's
       tp_name */
    const char *r = !strcmp(c->module, "builtins")
        ? arena_printf(vm->a, "<%s object at %p>", c->name, (void *)SELF.obj)
        : arena_printf(vm->a, "<%s.%s object at %p>", c->module, c->qualname,
                       (void *)SELF.obj);
    return vm_make_str(vm, r, strlen(r));
}

static PyValue o_str(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "object.__str__", "self", v, NULL);
    const char *r = vm_repr(vm, SELF);
    return vm_make_str(vm, r, strlen(r));
}

static PyValue o_eq(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "object.__eq__", "self value", v, NULL);
    return pyvm_bool(vm_is(v[0], v[1]));
}

static PyValue o_ne(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "object.__ne__", "self value", v, NULL);
    return pyvm_bool(!vm_eq(vm, v[0], v[1]));
}

static PyValue o_hash(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(1);
    pyvm_bind(vm, a, "object.__hash__", "self", v, NULL);
    return vm_make_int64(vm, (int64_t)((uintptr_t)SELF.obj >> 4));
}

static PyValue o_format(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    ARGS(2);
    pyvm_bind(vm, a, "object.__format__", "self format_spec", v, NULL);
    if (v[1].kind != PY_STR || v[1].len)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "unsupported format string passed to %s.__format__",
                       vm_type_name(vm, SELF)));
    const char *s = vm_str(vm, SELF);
    return vm_make_str(vm, s, strlen(s));
}

static PyValue e_init(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    if (a->nkw)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "%s() takes no keyword arguments",
                       vm_type_name(vm, SELF)));
    if (vm_is_kind(SELF, OBJ_INSTANCE))
        ((PyInstance *)SELF.obj)->args = vm_make_tuple(vm, a->args + 1,
                                                       a->nargs - 1);
    return py_none;
}

static PyValue e_str(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue args = vm_is_kind(SELF, OBJ_INSTANCE)
                       ? ((PyInstance *)SELF.obj)->args : vm_make_tuple(vm, NULL, 0);
    const char *s = args.nitems == 0 ? ""
                  : args.nitems == 1 ? vm_str(vm, args.items[0])
                                     : vm_repr(vm, args);
    return vm_make_str(vm, s, strlen(s));
}

static PyValue type_mro(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyClass *c = vm_as_class(SELF);
    PyList *l = vm_list_new(vm, c->nmro + 1);
    for (size_t i = 0; i < c->nmro; i++)
        vm_list_append(vm, l, vm_obj(c->mro[i]));
    return vm_obj(l);
}

/* ---- the tables -------------------------------------------------------- */

static const NativeDef list_methods[] = {
    { "append", l_append }, { "extend", l_extend }, { "insert", l_insert },
    { "pop", l_pop }, { "remove", l_remove }, { "index", l_index },
    { "count", l_count }, { "sort", l_sort }, { "reverse", l_reverse },
    { "copy", l_copy }, { "clear", l_clear }, { NULL, NULL },
};

static const NativeDef tuple_methods[] = {
    { "index", t_index }, { "count", l_count }, { NULL, NULL },
};

static const NativeDef dict_methods[] = {
    { "keys", d_keys }, { "values", d_values }, { "items", d_items },
    { "get", d_get }, { "pop", d_pop }, { "popitem", d_popitem },
    { "setdefault", d_setdefault }, { "update", d_update },
    { "copy", d_copy }, { "clear", d_clear }, { NULL, NULL },
};

static const NativeDef set_methods[] = {
    { "add", set_add }, { "discard", set_discard }, { "remove", set_remove },
    { "pop", set_pop }, { "clear", set_clear }, { "copy", set_copy },
    { "union", set_union }, { "intersection", set_intersection },
    { "difference", set_difference },
    { "symmetric_difference", set_symmetric_difference },
    { "update", set_update }, { "intersection_update", set_intersection_update },
    { "difference_update", set_difference_update },
    { "issubset", set_issubset }, { "issuperset", set_issuperset },
    { "isdisjoint", set_isdisjoint }, { NULL, NULL },
};

static const NativeDef frozenset_methods[] = {
    { "copy", set_copy }, { "union", set_union },
    { "intersection", set_intersection }, { "difference", set_difference },
    { "symmetric_difference", set_symmetric_difference },
    { "issubset", set_issubset }, { "issuperset", set_issuperset },
    { "isdisjoint", set_isdisjoint }, { NULL, NULL },
};

static const NativeDef int_methods[] = {
    { "bit_length", i_bit_length }, { NULL, NULL },
};

static const NativeDef float_methods[] = {
    { "is_integer", f_is_integer }, { NULL, NULL },
};

static const NativeDef object_methods[] = {
    { "__init__", o_init }, { "__repr__", o_repr }, { "__str__", o_str },
    { "__eq__", o_eq }, { "__ne__", o_ne }, { "__hash__", o_hash },
    { "__format__", o_format }, { NULL, NULL },
};

static const NativeDef exception_methods[] = {
    { "__init__", e_init }, { "__str__", e_str }, { NULL, NULL },
};

static const NativeDef type_methods[] = {
    { "mro", type_mro }, { NULL, NULL },
};

/* A method table's dict is laid out the same in every interpreter (fixed
   names put in order into an empty dict): pyvm_dict_fill_static keeps
   its layout per thread once made.  extra: a last entry, for dict's
   fromkeys (NULL: none). */
#define METHODS_MAX 64
static _Thread_local PyDictLayout method_layouts[12];

static void install(PyVM *vm, int type, const NativeDef *defs, size_t which,
                    const char *extra_name, PyValue extra)
{
    size_t n = 0;
    while (defs[n].name)
        n++;
    if (n > METHODS_MAX)
        abort();   /* a table longer than names[] holds: raise METHODS_MAX */
    /* the natives, as vm_native makes them, in one allocation */
    PyNative *natives = arena_array_of(vm->a, PyNative, n);
    const char *names[METHODS_MAX + 1];
    PyValue values[METHODS_MAX + 1];
    for (size_t i = 0; i < n; i++) {
        natives[i].ob.kind = OBJ_NATIVE;
        natives[i].ob.type = vm->types[T_BUILTIN];
        natives[i].name = defs[i].name;
        natives[i].fn = defs[i].fn;
        natives[i].is_method = true;
        /* every value is an object: object's methods take any self */
        natives[i].self_type = type == T_OBJECT ? NULL : vm->types[type];
        names[i] = defs[i].name;
        values[i] = vm_obj(&natives[i]);
    }
    if (extra_name) {
        names[n] = extra_name;
        values[n++] = extra;
    }
    pyvm_dict_fill_static(vm, &vm->types[type]->dict->ob,
                          &method_layouts[which], names, values, n);
}

void vm_install_methods(PyVM *vm)
{
    /* dict.fromkeys is a classmethod */
    PyWrapper *w = vm_alloc_obj(vm, sizeof *w, OBJ_WRAPPER,
                                vm->types[T_CLASSMETHOD]);
    w->func = vm_native(vm, "fromkeys", d_fromkeys, NULL, false);
    install(vm, T_STR, vm_str_methods, 0, NULL, py_none);
    install(vm, T_LIST, list_methods, 1, NULL, py_none);
    install(vm, T_TUPLE, tuple_methods, 2, NULL, py_none);
    install(vm, T_DICT, dict_methods, 3, "fromkeys", vm_obj(w));
    install(vm, T_SET, set_methods, 4, NULL, py_none);
    install(vm, T_FROZENSET, frozenset_methods, 5, NULL, py_none);
    install(vm, T_INT, int_methods, 6, NULL, py_none);
    install(vm, T_FLOAT, float_methods, 7, NULL, py_none);
    install(vm, T_BYTES, vm_bytes_methods, 8, NULL, py_none);
    install(vm, T_OBJECT, object_methods, 9, NULL, py_none);
    install(vm, T_BASE_EXCEPTION, exception_methods, 10, NULL, py_none);
    install(vm, T_TYPE, type_methods, 11, NULL, py_none);
}
