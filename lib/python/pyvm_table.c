/*
 * pyvm_table.c — dicts and sets.
 *
 * A dict keeps its entries in insertion order with an open-addressing
 * index beside them (CPython's compact dict, without its tricks:
 * deleting compacts the entries and rebuilds the index).  A set follows
 * CPython 3.11's setobject.c exactly — table sizes, linear probes, the
 * perturbation, dummies and when the table grows — because Python prints
 * and iterates a set in table order: a set of ints then comes out as
 * Python's does.  (Python randomises str hashes, so no order is promised
 * for strs; ours is stable.)
 */
#include "python/pyvm_int.h"

#include <string.h>

uint64_t vm_str_hash(const char *s, size_t n)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211u;
    }
    return h;
}

/* ---- dicts ------------------------------------------------------------- */

/* Lazy values (pyvm_lazy_value): the placeholder is a PY_OBJECT at
   this marker, nitems saying which value to make. */
struct PyLazy {
    PyLazyFn make;
    PyVM *vm;
};
static PyObj lazy_marker = { OBJ_INSTANCE, NULL };

static PyValue *make_lazy(PyDict *d, size_t e)
{
    vm_dict_changing(d);
    PyVM *vm = d->lazy->vm;
    vm_host_enter(vm);
    PyValue made = d->lazy->make(vm, d->values[e].nitems);
    vm_host_leave(vm);
    d->values[e] = made;
    return &d->values[e];
}

static inline PyValue *value_at(PyDict *d, size_t e)
{
    PyValue *v = &d->values[e];
    if (d->lazy && v->kind == PY_OBJECT && v->obj == &lazy_marker)
        return make_lazy(d, e);
    return v;
}

PyValue *vm_dict_made(PyDict *d, size_t e)
{
    return value_at(d, e);
}

PyDict *vm_dict_new(PyVM *vm)
{
    return vm_alloc_container(vm, sizeof(PyDict), OBJ_DICT, vm->types[T_DICT]);
}

static void place_entries(PyDict *d)
{
    size_t size = d->index_size;
    for (size_t e = 0; e < d->len; e++) {
        size_t i = (size_t)d->hashes[e] & (size - 1);
        while (d->index[i] >= 0)
            i = (i + 1) & (size - 1);
        d->index[i] = (int32_t)e;
    }
}

static void rebuild_index(PyVM *vm, PyDict *d, size_t size)
{
    d->index = vm_plain_array(vm, int32_t, size);
    d->index_size = size;
    memset(d->index, 0xff, size * sizeof *d->index);
    place_entries(d);
}

/* The index size vm_dict_set leaves a dict of n entries with, grown
   from 8 by doubling whenever it is two thirds full. */
static size_t index_size_for(size_t n)
{
    size_t size = 8;
    while (n * 3 >= size * 2)
        size *= 2;
    return size;
}

/* Room for n entries in the entry arrays (the index is left as it is):
   grown arrays are written before they are read. */
static void grow_entries(PyVM *vm, PyDict *d, size_t n)
{
    PyValue *keys = vm_items_uninit(vm, sizeof(PyValue) * n);
    PyValue *values = vm_items_uninit(vm, sizeof(PyValue) * n);
    int64_t *hashes = vm_plain_array(vm, int64_t, n);
    if (d->len) {
        memcpy(keys, d->keys, d->len * sizeof *keys);
        memcpy(values, d->values, d->len * sizeof *values);
        memcpy(hashes, d->hashes, d->len * sizeof *hashes);
    }
    d->keys = keys;
    d->values = values;
    d->hashes = hashes;
    d->cap = n;
}

void vm_dict_reserve(PyVM *vm, PyDict *d, size_t n)
{
    if (n <= d->cap)
        return;
    grow_entries(vm, d, n);
    size_t size = index_size_for(n);
    if (size > d->index_size)
        rebuild_index(vm, d, size);
}

PyDict *vm_dict_new_temp(PyVM *vm, size_t n)
{
    PyDict *d = vm_temp_alloc(vm, sizeof *d);
    memset(d, 0, sizeof *d);
    d->ob.kind = OBJ_DICT;
    d->ob.type = vm->types[T_DICT];
    d->names_kept = true;
    if (n == 0)
        return d;   /* the first entry makes the index, as for any dict */
    /* room for n entries without growing */
    size_t size = index_size_for(n);
    d->index = vm_temp_array(vm, int32_t, size);
    d->index_size = size;
    memset(d->index, 0xff, size * sizeof *d->index);
    d->keys = vm_temp_array(vm, PyValue, n);
    d->values = vm_temp_array(vm, PyValue, n);
    d->hashes = vm_temp_array(vm, int64_t, n);
    d->cap = n;
    return d;
}

static bool key_equal(PyVM *vm, PyValue x, PyValue y)
{
    if (x.kind == PY_STR && y.kind == PY_STR)
        return x.len == y.len && memcmp(x.s, y.s, x.len) == 0;
    return vm_is(x, y) || vm_eq(vm, x, y);
}

/* The slot of key in the index, or of the free slot where it would go. */
static size_t probe(PyVM *vm, PyDict *d, PyValue key, int64_t hash,
                    bool *found)
{
    size_t mask = d->index_size - 1, i = (size_t)hash & mask;
    for (;;) {
        int32_t e = d->index[i];
        if (e < 0) {
            *found = false;
            return i;
        }
        if (d->hashes[e] == hash && key_equal(vm, d->keys[e], key)) {
            *found = true;
            return i;
        }
        i = (i + 1) & mask;
    }
}

PyValue *vm_dict_find(PyVM *vm, PyDict *d, PyValue key)
{
    if (d->len == 0)
        return NULL;
    int64_t hash = vm_hash(vm, key);
    bool found;
    size_t i = probe(vm, d, key, hash, &found);
    return found ? value_at(d, (size_t)d->index[i]) : NULL;
}

PyValue *vm_dict_find_str(PyDict *d, const char *key)
{
    if (d->len == 0)
        return NULL;
    size_t n = strlen(key);
    return vm_dict_find_hashed(d, key, n, (int64_t)vm_str_hash(key, n));
}

PyValue *vm_dict_find_hashed(PyDict *d, const char *key, size_t n,
                             int64_t hash)
{
    if (d->len == 0)
        return NULL;
    size_t mask = d->index_size - 1, i = (size_t)hash & mask;
    for (;;) {
        int32_t e = d->index[i];
        if (e < 0)
            return NULL;
        if (d->hashes[e] == hash && d->keys[e].kind == PY_STR &&
            d->keys[e].len == n && memcmp(d->keys[e].s, key, n) == 0)
            return value_at(d, (size_t)e);
        i = (i + 1) & mask;
    }
}

/* A new entry for key at the free index slot i that probing found. */
static void insert_at(PyVM *vm, PyDict *d, size_t i, PyValue key,
                      int64_t hash, PyValue value)
{
    vm_dict_changing(d);
    if (d->len == d->cap)   /* not the index: slot i is in it */
        grow_entries(vm, d, d->cap ? d->cap * 2 : 4);
    d->keys[d->len] = key;
    d->values[d->len] = value;
    d->hashes[d->len] = hash;
    d->index[i] = (int32_t)d->len;
    d->len++;
    if (d->len * 3 >= d->index_size * 2)
        rebuild_index(vm, d, d->index_size * 2);
}

/* vm_dict_set with the key's hash made. */
static void dict_set_hashed(PyVM *vm, PyDict *d, PyValue key, int64_t hash,
                            PyValue value)
{
    if (d->index_size == 0)
        rebuild_index(vm, d, 8);
    bool found;
    size_t i = probe(vm, d, key, hash, &found);
    if (found) {
        vm_dict_changing(d);
        d->values[d->index[i]] = value;
        return;
    }
    insert_at(vm, d, i, key, hash, value);
}

void vm_dict_set(PyVM *vm, PyDict *d, PyValue key, PyValue value)
{
    dict_set_hashed(vm, d, key, vm_hash(vm, key), value);
}

/* vm_dict_set_str, the key copied (when it is new) unless it lives as
   long as the dict does.  Probed once, as vm_dict_set would probe it: an
   entry whose key is a str is compared here, and at any other key with
   the same hash (whose __eq__ may run) vm_dict_set decides. */
static void set_str(PyVM *vm, PyDict *d, const char *key, PyValue value,
                    bool keep_key)
{
    size_t n = strlen(key);
    int64_t hash = (int64_t)vm_str_hash(key, n);
    if (hash == -1)
        hash = -2;   /* as vm_hash() has it */
    if (d->index_size == 0)
        rebuild_index(vm, d, 8);
    size_t mask = d->index_size - 1, i = (size_t)hash & mask;
    for (;;) {
        int32_t e = d->index[i];
        if (e < 0)
            break;
        if (d->hashes[e] == hash) {
            if (d->keys[e].kind != PY_STR) {
                dict_set_hashed(vm, d, keep_key ? py_make_str(key, n)
                                                : vm_make_str(vm, key, n),
                                hash, value);
                return;
            }
            if (d->keys[e].len == n && memcmp(d->keys[e].s, key, n) == 0) {
                vm_dict_changing(d);
                d->values[e] = value;
                return;
            }
        }
        i = (i + 1) & mask;
    }
    insert_at(vm, d, i, keep_key ? py_make_str(key, n)
                                 : vm_make_str(vm, key, n),
              hash, value);
}

void vm_dict_set_str(PyVM *vm, PyDict *d, const char *key, PyValue value)
{
    set_str(vm, d, key, value, d->names_kept);
}

void vm_dict_set_static(PyVM *vm, PyDict *d, const char *key, PyValue value)
{
    set_str(vm, d, key, value, true);
}

PyValue pyvm_lazy_value(PyVM *vm, PyObj *dict, PyLazyFn make, size_t which)
{
    PyDict *d = (PyDict *)dict;
    if (!d->lazy) {
        d->lazy = arena_new_of(vm->a, struct PyLazy);
        d->lazy->make = make;
        d->lazy->vm = vm;
    }
    PyValue v = { .kind = PY_OBJECT, .obj = &lazy_marker, .nitems = which };
    return v;
}

void pyvm_dict_fill_static(PyVM *vm, PyObj *dict, PyDictLayout *layout,
                           const char *const *names, const PyValue *values,
                           size_t n)
{
    PyDict *d = (PyDict *)dict;
    size_t have = d->len;
    if (layout->made && layout->len == have + n) {
        vm_dict_changing(d);
        PyValue *keys = arena_array_uninit(vm->a, PyValue, layout->cap);
        PyValue *vals = arena_array_uninit(vm->a, PyValue, layout->cap);
        int64_t *hashes = arena_array_uninit(vm->a, int64_t, layout->cap);
        if (have) {
            memcpy(keys, d->keys, have * sizeof *keys);
            memcpy(vals, d->values, have * sizeof *vals);
        }
        memcpy(hashes, layout->hashes, (have + n) * sizeof *hashes);
        for (size_t i = 0; i < n; i++) {
            keys[have + i] = py_make_str(names[i], strlen(names[i]));
            vals[have + i] = values[i];
        }
        d->index = arena_array_uninit(vm->a, int32_t, layout->index_size);
        memcpy(d->index, layout->index, layout->index_size * sizeof *d->index);
        d->index_size = layout->index_size;
        d->keys = keys;
        d->values = vals;
        d->hashes = hashes;
        d->cap = layout->cap;
        d->len = have + n;
        return;
    }
    vm_dict_reserve(vm, d, have + n);
    for (size_t i = 0; i < n; i++)
        set_str(vm, d, names[i], values[i], true);
    if (d->len == have + n && d->len <= PYVM_LAYOUT_MAX &&
        d->index_size <= PYVM_LAYOUT_INDEX) {
        layout->made = true;
        layout->len = d->len;
        layout->cap = d->cap;
        layout->index_size = d->index_size;
        memcpy(layout->hashes, d->hashes, d->len * sizeof *d->hashes);
        memcpy(layout->index, d->index, d->index_size * sizeof *d->index);
    }
}

bool vm_dict_del(PyVM *vm, PyDict *d, PyValue key)
{
    if (d->len == 0)
        return false;
    int64_t hash = vm_hash(vm, key);
    bool found;
    size_t i = probe(vm, d, key, hash, &found);
    if (!found)
        return false;
    vm_dict_changing(d);
    /* compacting and reindexing: the whole dict */
    vm_work(vm, d->len * 8);
    size_t e = (size_t)d->index[i], rest = d->len - e - 1;
    memmove(d->keys + e, d->keys + e + 1, rest * sizeof *d->keys);
    memmove(d->values + e, d->values + e + 1, rest * sizeof *d->values);
    memmove(d->hashes + e, d->hashes + e + 1, rest * sizeof *d->hashes);
    d->len--;
    /* what the entries past the end held is kept alive by nothing
       (pyvm_heap.c), and the index is rebuilt where it is */
    d->keys[d->len] = d->values[d->len] = py_none;
    memset(d->index, 0xff, d->index_size * sizeof *d->index);
    place_entries(d);
    return true;
}

PyDict *vm_dict_copy(PyVM *vm, const PyDict *d)
{
    PyDict *c = vm_dict_new(vm);
    vm_work(vm, d->len * WORK_ITEM);
    vm_dict_reserve(vm, c, d->len);
    for (size_t i = 0; i < d->len; i++)
        vm_dict_set(vm, c, d->keys[i], *value_at((PyDict *)d, i));
    return c;
}

void vm_dict_make_all(PyDict *d)
{
    for (size_t i = 0; d->lazy && i < d->len; i++)
        value_at(d, i);
}

PyDict *vm_dict_copy_lazy(PyVM *vm, PyDict *d, const char *except)
{
    PyDict *c = vm_dict_new(vm);
    vm_work(vm, d->len * WORK_ITEM);
    vm_dict_reserve(vm, c, d->len);
    for (size_t i = 0; i < d->len; i++)
        if (!(except && d->keys[i].kind == PY_STR &&
              !strcmp(d->keys[i].s, except)))
            vm_dict_set(vm, c, d->keys[i], d->values[i]);
    c->lazy = d->lazy;   /* the same maker: the copy makes its own */
    return c;
}

/* ---- sets (setobject.c) ------------------------------------------------ */

#define SET_MINSIZE 8
#define LINEAR_PROBES 9
#define PERTURB_SHIFT 5

PySet *vm_set_new(PyVM *vm, bool frozen)
{
    PySet *s = vm_alloc_container(vm, sizeof(PySet), OBJ_SET,
                            vm->types[frozen ? T_FROZENSET : T_SET]);
    s->table = vm_items_array(vm, SetEntry, SET_MINSIZE);
    s->mask = SET_MINSIZE - 1;
    s->frozen = frozen;
    return s;
}

static void insert_clean(SetEntry *table, size_t mask, PyValue key,
                         int64_t hash)
{
    size_t perturb = (size_t)hash, i = (size_t)hash & mask;
    for (;;) {
        SetEntry *entry = &table[i];
        if (entry->state == 0)
            goto found;
        if (i + LINEAR_PROBES <= mask)
            for (size_t j = 0; j < LINEAR_PROBES; j++) {
                entry++;
                if (entry->state == 0)
                    goto found;
            }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
        continue;
    found:
        entry->key = key;
        entry->hash = hash;
        entry->state = 1;
        return;
    }
}

static void set_resize(PyVM *vm, Arena *a, PySet *s, size_t minused)
{
    size_t newsize = SET_MINSIZE;
    while (newsize <= minused)
        newsize <<= 1;
    SetEntry *old = s->table;
    size_t oldmask = s->mask;
    if (newsize == SET_MINSIZE && s->mask == SET_MINSIZE - 1 &&
        s->fill == s->used)
        return;
    /* the interpreter's tables are collectable; pyset_order's (no
       interpreter) live in its arena */
    s->table = vm ? vm_items_array(vm, SetEntry, newsize)
                  : arena_array_of(a, SetEntry, newsize);
    s->mask = newsize - 1;
    s->fill = s->used;
    for (size_t i = 0; i <= oldmask; i++)
        if (old[i].state == 1)
            insert_clean(s->table, s->mask, old[i].key, old[i].hash);
}

/* set_add_entry.  Without an interpreter (vm NULL: pyset_order) a key
   is a number in len, and equal keys have equal numbers. */
static bool add_entry_in(PyVM *vm, Arena *a, PySet *s, PyValue key,
                         int64_t hash)
{
    for (;;) {
        size_t mask = s->mask, i = (size_t)hash & mask, perturb = (size_t)hash;
        SetEntry *freeslot = NULL, *table = s->table;
        for (;;) {
            SetEntry *entry = &table[i];
            size_t probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
            for (;;) {
                if (entry->state == 0)
                    goto found_unused_or_dummy;
                if (entry->state == 1 && entry->hash == hash &&
                    (vm ? key_equal(vm, entry->key, key)
                        : entry->key.len == key.len))
                    return false;
                if (entry->state == 2)
                    freeslot = entry;
                entry++;
                if (probes-- == 0)
                    break;
            }
            perturb >>= PERTURB_SHIFT;
            i = (i * 5 + 1 + perturb) & mask;
            continue;
        found_unused_or_dummy:
            if (freeslot) {
                freeslot->key = key;
                freeslot->hash = hash;
                freeslot->state = 1;
                s->used++;
                return true;
            }
            entry->key = key;
            entry->hash = hash;
            entry->state = 1;
            s->fill++;
            s->used++;
            if (s->fill * 5 >= mask * 3)
                set_resize(vm, a, s, s->used > 50000 ? s->used * 2 : s->used * 4);
            return true;
        }
    }
}

static bool add_entry(PyVM *vm, PySet *s, PyValue key, int64_t hash)
{
    return add_entry_in(vm, vm->a, s, key, hash);
}

static SetEntry *find_entry(PyVM *vm, PySet *s, PyValue key, int64_t hash)
{
    size_t mask = s->mask, i = (size_t)hash & mask, perturb = (size_t)hash;
    for (;;) {
        SetEntry *entry = &s->table[i];
        size_t probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
        for (;;) {
            if (entry->state == 0)
                return NULL;
            if (entry->state == 1 && entry->hash == hash &&
                key_equal(vm, entry->key, key))
                return entry;
            entry++;
            if (probes-- == 0)
                break;
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

bool vm_set_add(PyVM *vm, PySet *s, PyValue key)
{
    return add_entry(vm, s, key, vm_hash(vm, key));
}

bool vm_set_contains(PyVM *vm, PySet *s, PyValue key)
{
    return find_entry(vm, s, key, vm_hash(vm, key)) != NULL;
}

bool vm_set_discard(PyVM *vm, PySet *s, PyValue key)
{
    SetEntry *e = find_entry(vm, s, key, vm_hash(vm, key));
    if (!e)
        return false;
    e->state = 2;
    e->hash = -1;
    s->used--;
    return true;
}

bool vm_set_next(const PySet *s, size_t *pos, PyValue *key)
{
    for (; *pos <= s->mask; (*pos)++)
        if (s->table[*pos].state == 1) {
            *key = s->table[(*pos)++].key;
            return true;
        }
    return false;
}

/* set_merge: so.update(other) for another set (vm NULL: see
   add_entry_in). */
static void set_merge(PyVM *vm, Arena *a, PySet *so, const PySet *other)
{
    if ((so->fill + other->used) * 5 >= so->mask * 3)
        set_resize(vm, a, so, (so->used + other->used) * 2);
    if (so->fill == 0 && so->mask == other->mask &&
        other->fill == other->used) {
        for (size_t i = 0; i <= other->mask; i++)
            if (other->table[i].state == 1)
                so->table[i] = other->table[i];
        so->fill = other->fill;
        so->used = other->used;
        return;
    }
    if (so->fill == 0) {
        so->fill = so->used = other->used;
        for (size_t i = 0; i <= other->mask; i++)
            if (other->table[i].state == 1)
                insert_clean(so->table, so->mask, other->table[i].key,
                             other->table[i].hash);
        return;
    }
    for (size_t i = 0; i <= other->mask; i++)
        if (other->table[i].state == 1)
            add_entry_in(vm, a, so, other->table[i].key,
                         other->table[i].hash);
}

void vm_set_merge(PyVM *vm, PySet *so, const PySet *other)
{
    if (other == so || other->used == 0)
        return;
    vm_work(vm, (other->mask + 1) * WORK_ITEM);
    set_merge(vm, vm->a, so, other);
}

size_t pyset_order(Arena *a, const int64_t *keys, const int64_t *hashes,
                   size_t n, bool frozen, size_t *out)
{
    PySet set = { .table = arena_array_of(a, SetEntry, SET_MINSIZE),
                  .mask = SET_MINSIZE - 1 };
    for (size_t i = 0; i < n; i++) {
        /* the key's number: the index of its first occurrence */
        size_t first = 0;
        while (keys[first] != keys[i])
            first++;
        PyValue key = { .kind = PY_INT, .len = first };
        add_entry_in(NULL, a, &set, key, hashes[i]);
    }
    PySet *s = &set, copy;
    if (frozen && set.used) {
        copy = (PySet){ .table = arena_array_of(a, SetEntry, SET_MINSIZE),
                        .mask = SET_MINSIZE - 1, .frozen = true };
        set_merge(NULL, a, &copy, &set);
        s = &copy;
    }
    size_t count = 0;
    for (size_t i = 0; i <= s->mask; i++)
        if (s->table[i].state == 1)
            out[count++] = s->table[i].key.len;
    return count;
}

PySet *vm_set_copy(PyVM *vm, const PySet *s, bool frozen)
{
    PySet *c = vm_set_new(vm, frozen);
    vm_set_merge(vm, c, s);
    return c;
}

/* The operators, in the order setobject.c builds their results. */
PySet *vm_set_intersection(PyVM *vm, PySet *so, PySet *other)
{
    vm_work(vm, (other->mask + 1) * WORK_ITEM);
    if (so == other)
        return vm_set_copy(vm, so, so->frozen);
    PySet *result = vm_set_new(vm, so->frozen);
    if (other->used > so->used) {
        PySet *t = so;
        so = other;
        other = t;
    }
    for (size_t i = 0; i <= other->mask; i++) {
        SetEntry *e = &other->table[i];
        if (e->state == 1 && find_entry(vm, so, e->key, e->hash))
            add_entry(vm, result, e->key, e->hash);
    }
    return result;
}

PySet *vm_set_difference(PyVM *vm, PySet *so, PySet *other)
{
    vm_work(vm, (so->mask + other->mask + 2) * WORK_ITEM);
    if ((so->used >> 2) > other->used) {
        PySet *result = vm_set_copy(vm, so, so->frozen);
        for (size_t i = 0; i <= other->mask; i++)
            if (other->table[i].state == 1)
                vm_set_discard(vm, result, other->table[i].key);
        return result;
    }
    PySet *result = vm_set_new(vm, so->frozen);
    for (size_t i = 0; i <= so->mask; i++) {
        SetEntry *e = &so->table[i];
        if (e->state == 1 && !find_entry(vm, other, e->key, e->hash))
            add_entry(vm, result, e->key, e->hash);
    }
    return result;
}

PySet *vm_set_symmetric_difference(PyVM *vm, PySet *so, PySet *other)
{
    vm_work(vm, (so->mask + 1) * WORK_ITEM);
    PySet *result = vm_set_copy(vm, other, so->frozen);
    for (size_t i = 0; i <= so->mask; i++) {
        SetEntry *e = &so->table[i];
        if (e->state != 1)
            continue;
        SetEntry *found = find_entry(vm, result, e->key, e->hash);
        if (found) {
            found->state = 2;
            found->hash = -1;
            result->used--;
        } else {
            add_entry(vm, result, e->key, e->hash);
        }
    }
    return result;
}

PySet *vm_set_union(PyVM *vm, PySet *so, PySet *other)
{
    PySet *result = vm_set_copy(vm, so, so->frozen);
    if (other != so)
        vm_set_merge(vm, result, other);
    return result;
}
