/*
 * pyvm_object.c — classes, instances and attributes.
 *
 * Every value has a class: PyValue's own kinds map to the built-in
 * classes (int, str, tuple, ...), objects carry theirs.  Classes have
 * dicts and a C3 method resolution order, so attribute lookup is
 * Python's: data descriptors (property) first, then the instance's dict,
 * then the class's attributes, functions binding as methods.  A host
 * class (PyHostOps) answers for its instances' attributes before the
 * dict does.  The built-in classes and exceptions are made here, once
 * per interpreter.
 */
#include "python/pyvm_int.h"
#include "base/text.h"

#include <stdlib.h>
#include <string.h>

void *vm_alloc_obj(PyVM *vm, size_t size, ObjKind kind, PyClass *type)
{
    /* collectable (pyvm_heap.c), but classes: the lookup cache knows
       them by address, which a freed one's successor could take */
    if (kind != OBJ_CLASS)
        return vm_alloc_container(vm, size, kind, type);
    PyObj *o = arena_alloc(vm->a, size);
    o->kind = kind;
    o->type = type;
    return o;
}

PyValue vm_obj(void *o)
{
    PyValue v = { .kind = PY_OBJECT, .obj = o };
    return v;
}

bool vm_is_kind(PyValue v, ObjKind kind)
{
    return v.kind == PY_OBJECT && v.obj->kind == kind;
}

PyClass *vm_as_class(PyValue v)
{
    return vm_is_kind(v, OBJ_CLASS) ? (PyClass *)v.obj : NULL;
}

PyValue vm_native(PyVM *vm, const char *name, PyNativeFn fn, void *data,
                  bool is_method)
{
    PyNative *n = vm_alloc_obj(vm, sizeof *n, OBJ_NATIVE, vm->types[T_BUILTIN]);
    n->name = name;
    n->fn = fn;
    n->data = data;
    n->is_method = is_method;
    n->self_type = NULL;
    n->host = false;
    return vm_obj(n);
}

/* ---- classes ----------------------------------------------------------- */

bool vm_is_subclass(const PyClass *cls, const PyClass *base)
{
    for (size_t i = 0; i < cls->nmro; i++)
        if (cls->mro[i] == base)
            return true;
    return false;
}

/* C3: merge the bases' MROs and the bases themselves. */
static bool c3_merge(PyVM *vm, PyClass *cls)
{
    size_t nseq = cls->nbases + 1, total = 1;
    PyClass ***seqs = arena_array_of(vm->a, PyClass **, nseq);
    size_t *lens = arena_array_of(vm->a, size_t, nseq);
    size_t *heads = arena_array_of(vm->a, size_t, nseq);
    for (size_t i = 0; i < cls->nbases; i++) {
        seqs[i] = cls->bases[i]->mro;
        lens[i] = cls->bases[i]->nmro;
        total += lens[i];
    }
    seqs[nseq - 1] = cls->bases;
    lens[nseq - 1] = cls->nbases;
    cls->mro = arena_array_of(vm->a, PyClass *, total);
    cls->nmro = 0;
    cls->mro[cls->nmro++] = cls;
    if (cls->nbases == 1) {
        /* what the merge gives for one base, in one copy: a chain of
           classes each deriving from the last is not cubic */
        vm_work(vm, vm_work_of(lens[0], WORK_ITEM / 8));
        memcpy(cls->mro + 1, seqs[0], lens[0] * sizeof *seqs[0]);
        cls->nmro += lens[0];
        return true;
    }
    /* each pick looks through every tail */
    vm_work(vm, vm_work_of((uint64_t)total * total, WORK_COMPARE / 8));
    for (;;) {
        bool left = false;
        PyClass *pick = NULL;
        for (size_t i = 0; i < nseq && !pick; i++) {
            if (heads[i] >= lens[i])
                continue;
            left = true;
            PyClass *cand = seqs[i][heads[i]];
            bool in_tail = false;
            for (size_t j = 0; j < nseq && !in_tail; j++)
                for (size_t k = heads[j] + 1; k < lens[j]; k++)
                    if (seqs[j][k] == cand) {
                        in_tail = true;
                        break;
                    }
            if (!in_tail)
                pick = cand;
        }
        if (!left)
            return true;
        if (!pick)
            return false;
        cls->mro[cls->nmro++] = pick;
        for (size_t i = 0; i < nseq; i++)
            if (heads[i] < lens[i] && seqs[i][heads[i]] == pick)
                heads[i]++;
    }
}

PyClass *vm_new_class(PyVM *vm, const char *name, const char *module,
                      PyClass *const *bases, size_t nbases, PyDict *dict)
{
    PyClass *cls = vm_alloc_obj(vm, sizeof *cls, OBJ_CLASS, vm->types[T_TYPE]);
    cls->name = name;
    cls->qualname = name;
    cls->module = module;
    cls->dict = dict ? dict : vm_dict_new(vm);
    cls->dict->of_class = true;
    cls->builtin = T_OBJECT;
    if (nbases == 0 && vm->types[T_OBJECT]) {
        bases = &vm->types[T_OBJECT];
        nbases = 1;
    }
    cls->bases = arena_array_of(vm->a, PyClass *, nbases + 1);
    if (nbases)
        memcpy(cls->bases, bases, nbases * sizeof *bases);
    cls->nbases = nbases;
    if (!c3_merge(vm, cls)) {
        ABuf b = { vm, NULL, 0, 0 };
        ab_adds(&b, "Cannot create a consistent method resolution order "
                    "(MRO) for bases ");
        for (size_t i = 0; i < nbases; i++) {
            if (i)
                ab_adds(&b, ", ");
            ab_adds(&b, bases[i]->name);
        }
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], b.s);
    }
    /* what the nearest bases say about layout and hosting */
    for (size_t i = 1; i < cls->nmro; i++) {
        PyClass *b = cls->mro[i];
        if (b->is_exception)
            cls->is_exception = true;
        if (!cls->host && b->host) {
            cls->host = b->host;
            cls->host_data = b->host_data;
        }
        if (cls->builtin == T_OBJECT && b->builtin != T_OBJECT)
            cls->builtin = b->builtin;
    }
    return cls;
}

bool vm_lookup(const PyClass *cls, const char *name, PyValue *out,
               PyClass **owner)
{
    /* the name's hash is made once for the whole MRO */
    size_t n = strlen(name);
    int64_t hash = (int64_t)vm_str_hash(name, n);
    for (size_t i = 0; i < cls->nmro; i++) {
        PyValue *v = vm_dict_find_hashed(cls->mro[i]->dict, name, n, hash);
        if (v) {
            *out = *v;
            if (owner)
                *owner = cls->mro[i];
            return true;
        }
    }
    return false;
}

/* ---- the class of a value ---------------------------------------------- */

static int type_of_bit(unsigned bit)
{
    switch (bit) {
    case PYT_OBJECT: return T_OBJECT;
    case PYT_INT: return T_INT;
    case PYT_STR: return T_STR;
    case PYT_BYTES: return T_BYTES;
    case PYT_BYTEARRAY: return T_BYTEARRAY;
    case PYT_FLOAT: return T_FLOAT;
    case PYT_COMPLEX: return T_COMPLEX;
    case PYT_BOOL: return T_BOOL;
    case PYT_NONETYPE: return T_NONETYPE;
    default: return -1;
    }
}

PyClass *vm_type_of(PyVM *vm, PyValue v)
{
    switch (v.kind) {
    case PY_NONE: return vm->types[T_NONETYPE];
    case PY_BOOL: return vm->types[T_BOOL];
    case PY_INT: return vm->types[T_INT];
    case PY_FLOAT: return vm->types[T_FLOAT];
    case PY_COMPLEX: return vm->types[T_COMPLEX];
    case PY_STR: return vm->types[T_STR];
    case PY_BYTES: return vm->types[T_BYTES];
    case PY_TUPLE: return vm->types[T_TUPLE];
    case PY_NULL: return vm->types[T_NULL];
    case PY_UNSPECIFIED: return vm->types[T_UNSPECIFIED];
    case PY_TYPE: return vm->types[T_TYPE];
    case PY_SET: return vm->types[T_SET];
    case PY_UNKNOWN:
        if (!v.type_name)
            return vm->types[T_UNKNOWN];
        if (strcmp(v.type_name, "ellipsis") == 0)
            return vm->types[T_ELLIPSIS];
        for (int t = 0; t < T_COUNT; t++)
            if (vm->types[t] && strcmp(vm->types[t]->name, v.type_name) == 0)
                return vm->types[t];
        return vm->types[T_OPAQUE];
    case PY_OBJECT:
        return v.obj->type;
    }
    return vm->types[T_OBJECT];
}

const char *vm_type_name(PyVM *vm, PyValue v)
{
    if (v.kind == PY_UNKNOWN && v.type_name)
        return v.type_name;
    return vm_type_of(vm, v)->name;
}

bool vm_isinstance(PyVM *vm, PyValue v, PyClass *cls)
{
    return vm_is_subclass(vm_type_of(vm, v), cls);
}

/* ---- instances --------------------------------------------------------- */

PyValue vm_instantiate(PyVM *vm, PyClass *cls, const PyValue *args,
                       size_t nargs, const char *const *kwnames,
                       const PyValue *kwvalues, size_t nkw)
{
    if (cls->construct) {
        PyArgs a = { args, nargs, kwnames, kwvalues, nkw };
        return cls->construct(vm, &a, cls);
    }
    for (size_t i = 0; i < cls->nmro; i++)
        if (cls->mro[i]->construct && cls->mro[i] != vm->types[T_OBJECT] &&
            !cls->mro[i]->is_exception)
            vm_raise_class(vm, vm->types[T_NOT_IMPLEMENTED_ERROR],
                           arena_printf(vm->a, "clinic's Python cannot "
                                        "subclass the built-in type '%s'",
                                        cls->mro[i]->name));
    /* the host makes those, with the C object behind them: one made
       here would have none, and a method of the host would find none */
    if (cls->host)
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "cannot create '%s' instances in a python block: "
                       "clinic makes them", cls->name));
    PyInstance *inst = vm_alloc_obj(vm, sizeof *inst, OBJ_INSTANCE, cls);
    inst->dict = vm_dict_new(vm);
    inst->args = vm_make_tuple(vm, args, nargs);
    PyValue self = vm_obj(inst), init;
    PyClass *owner;
    if (vm_lookup(cls, "__init__", &init, &owner) &&
        owner != vm->types[T_OBJECT] && owner != vm->types[T_BASE_EXCEPTION]) {
        /* a temporary: an arena array would keep self for good
           (pyvm_heap.c) */
        TempMark mark = vm_temp_mark(vm);
        PyValue *full = vm_temp_array(vm, PyValue, nargs + 1);
        full[0] = self;
        if (nargs)
            memcpy(full + 1, args, nargs * sizeof *args);
        PyValue r = vm_call_link(vm, init, full, nargs + 1, kwnames, kwvalues,
                                 nkw);
        vm_temp_release(vm, mark);
        if (r.kind != PY_NONE)
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "__init__() should return None, not '%s'",
                           vm_type_name(vm, r)));
    } else if (nkw || (nargs && !cls->is_exception)) {
        vm_raise_class(vm, vm->types[T_TYPE_ERROR],
                       arena_printf(vm->a, "%s() takes no arguments",
                                    cls->name));
    }
    return self;
}

/* ---- attributes -------------------------------------------------------- */

static bool is_property(PyVM *vm, PyValue v)
{
    return vm_is_kind(v, OBJ_WRAPPER) && v.obj->type == vm->types[T_PROPERTY];
}

PyValue vm_bind(PyVM *vm, PyValue func, PyValue self, PyClass *owner_type)
{
    (void)owner_type;
    if (func.kind != PY_OBJECT)
        return func;
    switch (func.obj->kind) {
    case OBJ_FUNCTION:
        break;
    case OBJ_NATIVE:
        if (!((PyNative *)func.obj)->is_method)
            return func;
        break;
    case OBJ_WRAPPER:
        if (func.obj->type == vm->types[T_STATICMETHOD])
            return ((PyWrapper *)func.obj)->func;
        if (func.obj->type == vm->types[T_CLASSMETHOD]) {
            PyMethod *m = vm_alloc_obj(vm, sizeof *m, OBJ_METHOD,
                                       vm->types[T_METHOD]);
            m->self = vm_obj(vm_type_of(vm, self));
            m->func = ((PyWrapper *)func.obj)->func;
            return vm_obj(m);
        }
        return func;
    default:
        return func;
    }
    PyMethod *m = vm_alloc_obj(vm, sizeof *m, OBJ_METHOD, vm->types[T_METHOD]);
    m->self = self;
    m->func = func;
    return vm_obj(m);
}


static PyDict *dict_of(PyValue obj)
{
    if (obj.kind != PY_OBJECT)
        return NULL;
    switch (obj.obj->kind) {
    case OBJ_INSTANCE: return ((PyInstance *)obj.obj)->dict;
    case OBJ_FUNCTION: return ((PyFunction *)obj.obj)->dict;
    case OBJ_CLASS: return ((PyClass *)obj.obj)->dict;
    default: return NULL;
    }
}

static PyValue tuple_of_classes(PyVM *vm, PyClass *const *classes, size_t n)
{
    PyValue *items = arena_array_of(vm->a, PyValue, n + 1);
    for (size_t i = 0; i < n; i++)
        items[i] = vm_obj(classes[i]);
    return vm_make_tuple(vm, items, n);
}

/* Attributes Python's objects have without a dict entry. */
static bool special_attribute(PyVM *vm, PyValue obj, const char *name,
                              PyValue *out)
{
    if (strcmp(name, "__class__") == 0) {
        *out = vm_obj(vm_type_of(vm, obj));
        return true;
    }
    const char *member = vm_sentinel_member(vm, obj);
    if (member && (!strcmp(name, "name") || !strcmp(name, "value") ||
                   !strcmp(name, "_name_") || !strcmp(name, "_value_"))) {
        *out = vm_make_str(vm, member, strlen(member));
        return true;
    }
    if (obj.kind == PY_OBJECT) {
        PyObj *o = obj.obj;
        if (o->kind == OBJ_CLASS) {
            PyClass *c = (PyClass *)o;
            if (!strcmp(name, "__name__")) {
                *out = vm_make_str(vm, c->name, strlen(c->name));
                return true;
            }
            if (!strcmp(name, "__qualname__")) {
                *out = vm_make_str(vm, c->qualname, strlen(c->qualname));
                return true;
            }
            if (!strcmp(name, "__module__")) {
                *out = vm_make_str(vm, c->module, strlen(c->module));
                return true;
            }
            PyValue members;
            if (!strcmp(name, "__members__") &&
                vm_enum_members(vm, obj, &members)) {
                PyDict *d = vm_dict_new(vm);
                for (size_t i = 0; i < members.nitems; i++) {
                    const char *m = vm_sentinel_member(vm, members.items[i]);
                    vm_dict_set_str(vm, d, m, members.items[i]);
                }
                *out = vm_obj(d);
                return true;
            }
            if (!strcmp(name, "__bases__")) {
                *out = tuple_of_classes(vm, c->bases, c->nbases);
                return true;
            }
            if (!strcmp(name, "__mro__")) {
                *out = tuple_of_classes(vm, c->mro, c->nmro);
                return true;
            }
            if (!strcmp(name, "__base__")) {
                *out = c->nbases ? vm_obj(c->bases[0]) : py_none;
                return true;
            }
        }
        if (o->kind == OBJ_FUNCTION) {
            PyFunction *f = (PyFunction *)o;
            if (!strcmp(name, "__name__")) {
                *out = vm_make_str(vm, f->name, strlen(f->name));
                return true;
            }
            if (!strcmp(name, "__qualname__")) {
                *out = vm_make_str(vm, f->qualname, strlen(f->qualname));
                return true;
            }
            if (!strcmp(name, "__annotations__")) {
                if (!f->annotations)   /* a lambda's */
                    f->annotations = vm_dict_new(vm);
                *out = vm_obj(f->annotations);
                return true;
            }
            if (!strcmp(name, "__module__")) {
                /* its globals' __name__ (None in 3.13's blocks) */
                PyValue *mod = f->globals
                    ? vm_dict_find_str(f->globals, "__name__") : NULL;
                *out = mod ? *mod : py_none;
                return true;
            }
        }
        if (o->kind == OBJ_NATIVE && !strcmp(name, "__name__")) {
            const char *n = ((PyNative *)o)->name;
            *out = vm_make_str(vm, n, strlen(n));
            return true;
        }
        if (o->kind == OBJ_METHOD) {
            PyMethod *m = (PyMethod *)o;
            if (!strcmp(name, "__self__")) {
                *out = m->self;
                return true;
            }
            if (!strcmp(name, "__func__")) {
                *out = m->func;
                return true;
            }
            /* the function's: m->func may be a method in turn */
            vm_enter(vm, "");
            bool found = vm_getattr_opt(vm, m->func, name, out);
            vm_leave(vm);
            return found;
        }
        if (o->kind == OBJ_INSTANCE && o->type->is_exception &&
            !strcmp(name, "args")) {
            *out = ((PyInstance *)o)->args;
            return true;
        }
        if (!strcmp(name, "__dict__") && dict_of(obj)) {
            *out = vm_obj(dict_of(obj));
            return true;
        }
        if (o->kind == OBJ_WRAPPER && (!strcmp(name, "__func__") ||
                                       !strcmp(name, "fget"))) {
            *out = ((PyWrapper *)o)->func;
            return true;
        }
    }
    if (obj.kind == PY_INT || obj.kind == PY_BOOL) {
        bool one = !strcmp(name, "denominator");
        if (!strcmp(name, "real") || !strcmp(name, "numerator")) {
            *out = obj.kind == PY_BOOL ? vm_make_int64(vm, obj.b) : obj;
            return true;
        }
        if (one || !strcmp(name, "imag")) {
            *out = vm_make_int64(vm, one);
            return true;
        }
    }
    if (obj.kind == PY_FLOAT || obj.kind == PY_COMPLEX) {
        if (!strcmp(name, "real")) {
            *out = vm_make_float(obj.f);
            return true;
        }
        if (!strcmp(name, "imag")) {
            *out = vm_make_float(obj.kind == PY_COMPLEX ? obj.imag : 0.0);
            return true;
        }
    }
    return false;
}

/* super().name: the MRO of self's class after the class super names. */
static bool super_getattr(PyVM *vm, PySuper *s, const char *name, PyValue *out)
{
    PyClass *start = vm_as_class(s->self) ? vm_as_class(s->self)
                                          : vm_type_of(vm, s->self);
    size_t k = 0;
    while (k < start->nmro && start->mro[k] != s->cls)
        k++;
    for (k++; k < start->nmro; k++) {
        PyValue *v = vm_dict_find_str(start->mro[k]->dict, name);
        if (!v)
            continue;
        if (is_property(vm, *v)) {
            *out = vm_call1(vm, ((PyWrapper *)v->obj)->func, s->self);
            return true;
        }
        if (vm_as_class(s->self) && vm_is_kind(*v, OBJ_FUNCTION)) {
            *out = *v;     /* super(C, C).f: a plain function */
            return true;
        }
        *out = vm_bind(vm, *v, s->self, start->mro[k]);
        return true;
    }
    return false;
}

/* obj.name without raising: false when there is no such attribute. */
/* An instance of a host class whose host object is gone (the host took
   it back: pyvm_instance_set_host), or that never had one. */
_Noreturn static void host_gone(PyVM *vm, PyValue obj)
{
    vm_raise_class(vm, vm->types[T_RUNTIME_ERROR], arena_printf(vm->a,
                   "the C object behind this '%s' object is gone: clinic "
                   "made it for a step that is over", vm_type_name(vm, obj)));
}


bool vm_getattr_opt(PyVM *vm, PyValue obj, const char *name, PyValue *out)
{
    if (vm_is_kind(obj, OBJ_SUPER)) {
        if (super_getattr(vm, (PySuper *)obj.obj, name, out))
            return true;
        if (!strcmp(name, "__class__")) {
            *out = vm_obj(vm->types[T_SUPER]);
            return true;
        }
        return false;
    }
    PyClass *cls = vm_as_class(obj);
    if (cls && !strcmp(name, "__annotations__") && !vm_class_is_builtin(cls)) {
        /* the class's own, made empty when it has none (not a base's) */
        PyValue *own = vm_dict_find_str(cls->dict, name);
        if (!own) {
            vm_dict_set_str(vm, cls->dict, name, vm_obj(vm_dict_new(vm)));
            own = vm_dict_find_str(cls->dict, name);
        }
        *out = *own;
        return true;
    }
    if (cls) {
        PyValue v;
        PyClass *owner;
        if (vm_lookup(cls, name, &v, &owner)) {
            if (vm_is_kind(v, OBJ_WRAPPER)) {
                if (v.obj->type == vm->types[T_STATICMETHOD]) {
                    *out = ((PyWrapper *)v.obj)->func;
                    return true;
                }
                if (v.obj->type == vm->types[T_CLASSMETHOD]) {
                    PyMethod *m = vm_alloc_obj(vm, sizeof *m, OBJ_METHOD,
                                               vm->types[T_METHOD]);
                    m->self = obj;
                    m->func = ((PyWrapper *)v.obj)->func;
                    *out = vm_obj(m);
                    return true;
                }
            }
            *out = v;
            return true;
        }
        if (special_attribute(vm, obj, name, out))
            return true;
        /* the metaclass's: type's methods (mro) */
        if (vm_lookup(vm->types[T_TYPE], name, &v, &owner)) {
            *out = vm_bind(vm, v, obj, owner);
            return true;
        }
        return false;
    }

    PyClass *type = vm_type_of(vm, obj);
    if (type->host && vm_is_kind(obj, OBJ_INSTANCE) && type->host->getattr) {
        if (!((PyInstance *)obj.obj)->host)
            host_gone(vm, obj);
        vm_host_enter(vm);
        bool found = type->host->getattr(vm, obj.obj, name, out);
        vm_host_leave(vm);
        if (found)
            return true;
    }

    PyValue cv;
    PyClass *owner = NULL;
    bool in_class = vm_lookup(type, name, &cv, &owner);
    if (in_class && is_property(vm, cv)) {
        *out = vm_call1(vm, ((PyWrapper *)cv.obj)->func, obj);
        return true;
    }
    PyDict *d = vm_is_kind(obj, OBJ_CLASS) ? NULL : dict_of(obj);
    if (d) {
        PyValue *v = vm_dict_find_str(d, name);
        if (v) {
            *out = *v;
            return true;
        }
    }
    if (in_class) {
        *out = vm_bind(vm, cv, obj, owner);
        return true;
    }
    if (special_attribute(vm, obj, name, out))
        return true;
    PyValue getattr_fn;
    if (vm_lookup(type, "__getattr__", &getattr_fn, NULL)) {
        *out = vm_call2(vm, getattr_fn, obj, vm_make_str(vm, name, strlen(name)));
        return true;
    }
    return false;
}

PyValue vm_getattr(PyVM *vm, PyValue obj, const char *name)
{
    PyValue out;
    if (vm_getattr_opt(vm, obj, name, &out))
        return out;
    PyClass *cls = vm_as_class(obj);
    const char *text = cls
        ? arena_printf(vm->a, "type object '%s' has no attribute '%s'",
                       cls->name, name)
        : arena_printf(vm->a, "'%s' object has no attribute '%s'",
                       vm_type_name(vm, obj), name);
    PyValue msg = vm_make_str(vm, text, strlen(text));
    PyValue exc = vm_new_exception(vm, vm->types[T_ATTRIBUTE_ERROR], &msg, 1);
    vm->attribute_hint.exception = exc.obj;
    vm->attribute_hint.name = name;
    vm->attribute_hint.obj = obj;
    vm_throw(vm, exc);
}

/* dir(object()) in Python 3.11, and what every class defined in Python
   code has besides its own names (its dict lacks them here). */
static const char *const object_dir[] = {
    "__class__", "__delattr__", "__dir__", "__doc__", "__eq__",
    "__format__", "__ge__", "__getattribute__", "__getstate__", "__gt__",
    "__hash__", "__init__", "__init_subclass__", "__le__", "__lt__",
    "__ne__", "__new__", "__reduce__", "__reduce_ex__", "__repr__",
    "__setattr__", "__sizeof__", "__str__", "__subclasshook__",
};
static const char *const class_dir[] = {
    "__dict__", "__doc__", "__module__", "__weakref__",
};

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void add_dict_names(const char **names, size_t *n, const PyDict *d)
{
    for (size_t i = 0; d && i < d->len; i++)
        if (d->keys[i].kind == PY_STR)
            names[(*n)++] = d->keys[i].s;
}

/* dir() of c if it is one of the interpreter's own classes that
   pyvm_dir.c lists; *own says whether it is one of its own classes. */
static const char *const *builtin_dir_of(PyVM *vm, const PyClass *c,
                                         bool *own)
{
    *own = vm_class_is_builtin(c);
    for (int t = 0; *own && t < T_COUNT; t++)
        if (vm->types[t] == c)
            return vm_builtin_dir(t);
    return NULL;
}

const char **vm_dir_names(PyVM *vm, PyValue obj, size_t *count)
{
    bool builtin;
    PyClass *cls = vm_as_class(obj);
    PyDict *own = NULL;
    bool instance = !cls;
    if (!cls) {
        cls = vm_type_of(vm, obj);
        if (vm_is_kind(obj, OBJ_INSTANCE))
            own = ((PyInstance *)obj.obj)->dict;
    }
    size_t cap = (own ? own->len : 0) +
                 sizeof object_dir / sizeof *object_dir;
    for (size_t i = 0; i < cls->nmro; i++) {
        const PyClass *c = cls->mro[i];
        if (c == vm->types[T_OBJECT])
            continue;
        const char *const *table = builtin_dir_of(vm, c, &builtin);
        if (table) {   /* it holds its bases' names too */
            while (*table++)
                cap++;
            break;
        }
        if (builtin || (c->host && instance) ||
            !c->dict || vm_dict_find_str(c->dict, "__slots__"))
            return NULL;   /* its dir() is not all in its dict */
        cap += c->dict->len + sizeof class_dir / sizeof *class_dir;
    }
    const char **names = arena_array_of(vm->a, const char *, cap + 1);
    size_t n = 0;
    add_dict_names(names, &n, own);
    for (size_t i = 0; i < cls->nmro; i++) {
        const PyClass *c = cls->mro[i];
        if (c == vm->types[T_OBJECT])
            continue;
        const char *const *table = builtin_dir_of(vm, c, &builtin);
        if (table) {
            while (*table)
                names[n++] = *table++;
            break;
        }
        add_dict_names(names, &n, c->dict);
        for (size_t k = 0; k < sizeof class_dir / sizeof *class_dir; k++)
            names[n++] = class_dir[k];
    }
    for (size_t k = 0; k < sizeof object_dir / sizeof *object_dir; k++)
        names[n++] = object_dir[k];
    qsort(names, n, sizeof *names, by_bytes);
    size_t unique = 0;
    for (size_t i = 0; i < n; i++)
        if (!unique || strcmp(names[unique - 1], names[i]))
            names[unique++] = names[i];
    *count = unique;
    return names;
}

const char *vm_attribute_suggestion(PyVM *vm, PyValue obj, const char *name)
{
    size_t n;
    const char **names = vm_dir_names(vm, obj, &n);
    return names ? text_suggestion(name, names, n) : NULL;
}

bool vm_method_lookup(PyVM *vm, PyValue obj, const char *name, PyValue *out,
                      bool *unbound)
{
    *unbound = false;
    /* a class's attributes, and super()'s, are not its type's methods */
    if (!vm_is_kind(obj, OBJ_CLASS) && !vm_is_kind(obj, OBJ_SUPER)) {
        PyClass *type = vm_type_of(vm, obj);
        PyValue cv;
        bool hosted = type->host && vm_is_kind(obj, OBJ_INSTANCE) &&
                      ((PyInstance *)obj.obj)->host;
        PyDict *d = dict_of(obj);
        if (!hosted && vm_lookup(type, name, &cv, NULL) &&
            (vm_is_kind(cv, OBJ_FUNCTION) ||
             (vm_is_kind(cv, OBJ_NATIVE) && ((PyNative *)cv.obj)->is_method)) &&
            !(d && vm_dict_find_str(d, name))) {
            *out = cv;
            *unbound = true;
            return true;
        }
    }
    return vm_getattr_opt(vm, obj, name, out);
}

void vm_setattr(PyVM *vm, PyValue obj, const char *name, PyValue v)
{
    PyClass *cls = vm_as_class(obj);
    if (cls) {
        if (vm_class_is_builtin(cls))
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "cannot set '%s' attribute of immutable type '%s'",
                           name, cls->name));
        if (!strcmp(name, "__name__") && v.kind == PY_STR) {
            cls->name = v.s;
            return;
        }
        vm_dict_set_str(vm, cls->dict, name, v);
        return;
    }
    PyClass *type = vm_type_of(vm, obj);
    if (type->host && vm_is_kind(obj, OBJ_INSTANCE) && type->host->setattr) {
        if (!((PyInstance *)obj.obj)->host)
            host_gone(vm, obj);
        vm_host_enter(vm);
        bool done = type->host->setattr(vm, obj.obj, name, v);
        vm_host_leave(vm);
        if (done)
            return;
    }
    PyValue cv;
    if (vm_lookup(type, name, &cv, NULL) && is_property(vm, cv))
        vm_raise_class(vm, vm->types[T_ATTRIBUTE_ERROR], arena_printf(vm->a,
                       "property '%s' of '%s' object has no setter", name,
                       type->name));
    PyDict *d = dict_of(obj);
    if (!d)
        vm_raise_class(vm, vm->types[T_ATTRIBUTE_ERROR], arena_printf(vm->a,
                       "'%s' object has no attribute '%s'", type->name, name));
    vm_dict_set_str(vm, d, name, v);
}

void vm_delattr(PyVM *vm, PyValue obj, const char *name)
{
    PyDict *d = dict_of(obj);
    if (vm_as_class(obj) && vm_class_is_builtin(vm_as_class(obj)))
        d = NULL;
    if (!d || !vm_dict_del(vm, d, vm_make_str(vm, name, strlen(name))))
        vm_raise_class(vm, vm->types[T_ATTRIBUTE_ERROR], arena_printf(vm->a,
                       "'%s' object has no attribute '%s'",
                       vm_type_name(vm, obj), name));
}

/* ---- the built-in classes ---------------------------------------------- */

static const struct {
    int type;
    const char *name;
    int base;
} builtin_classes[] = {
    { T_OBJECT, "object", -1 }, { T_TYPE, "type", T_OBJECT },
    { T_NONETYPE, "NoneType", T_OBJECT }, { T_INT, "int", T_OBJECT },
    { T_BOOL, "bool", T_INT }, { T_FLOAT, "float", T_OBJECT },
    { T_COMPLEX, "complex", T_OBJECT }, { T_STR, "str", T_OBJECT },
    { T_BYTES, "bytes", T_OBJECT }, { T_BYTEARRAY, "bytearray", T_OBJECT },
    { T_TUPLE, "tuple", T_OBJECT }, { T_LIST, "list", T_OBJECT },
    { T_DICT, "dict", T_OBJECT }, { T_SET, "set", T_OBJECT },
    { T_FROZENSET, "frozenset", T_OBJECT }, { T_RANGE, "range", T_OBJECT },
    { T_FUNCTION, "function", T_OBJECT },
    { T_BUILTIN, "builtin_function_or_method", T_OBJECT },
    { T_METHOD, "method", T_OBJECT }, { T_PROPERTY, "property", T_OBJECT },
    { T_STATICMETHOD, "staticmethod", T_OBJECT },
    { T_CLASSMETHOD, "classmethod", T_OBJECT }, { T_SUPER, "super", T_OBJECT },
    { T_ITERATOR, "iterator", T_OBJECT },
    { T_DICT_KEYS, "dict_keys", T_OBJECT },
    { T_DICT_VALUES, "dict_values", T_OBJECT },
    { T_DICT_ITEMS, "dict_items", T_OBJECT }, { T_SLICE, "slice", T_OBJECT },
    { T_ELLIPSIS, "ellipsis", T_OBJECT }, { T_GENERATOR, "generator", T_OBJECT },
    { T_NULL, "Null", T_OBJECT }, { T_UNSPECIFIED, "Unspecified", T_OBJECT },
    { T_UNKNOWN, "Unknown", T_OBJECT }, { T_OPAQUE, "object", T_OBJECT },
    { T_BASE_EXCEPTION, "BaseException", T_OBJECT },
    { T_EXCEPTION, "Exception", T_BASE_EXCEPTION },
    { T_ARITHMETIC_ERROR, "ArithmeticError", T_EXCEPTION },
    { T_ZERO_DIVISION_ERROR, "ZeroDivisionError", T_ARITHMETIC_ERROR },
    { T_OVERFLOW_ERROR, "OverflowError", T_ARITHMETIC_ERROR },
    { T_ASSERTION_ERROR, "AssertionError", T_EXCEPTION },
    { T_ATTRIBUTE_ERROR, "AttributeError", T_EXCEPTION },
    { T_LOOKUP_ERROR, "LookupError", T_EXCEPTION },
    { T_INDEX_ERROR, "IndexError", T_LOOKUP_ERROR },
    { T_KEY_ERROR, "KeyError", T_LOOKUP_ERROR },
    { T_NAME_ERROR, "NameError", T_EXCEPTION },
    { T_UNBOUND_LOCAL_ERROR, "UnboundLocalError", T_NAME_ERROR },
    { T_RUNTIME_ERROR, "RuntimeError", T_EXCEPTION },
    { T_NOT_IMPLEMENTED_ERROR, "NotImplementedError", T_RUNTIME_ERROR },
    { T_RECURSION_ERROR, "RecursionError", T_RUNTIME_ERROR },
    { T_STOP_ITERATION, "StopIteration", T_EXCEPTION },
    { T_TYPE_ERROR, "TypeError", T_EXCEPTION },
    { T_VALUE_ERROR, "ValueError", T_EXCEPTION },
    { T_UNICODE_ERROR, "UnicodeError", T_VALUE_ERROR },
    { T_MEMORY_ERROR, "MemoryError", T_EXCEPTION },
    { T_SYNTAX_ERROR, "SyntaxError", T_EXCEPTION },
    { T_INDENTATION_ERROR, "IndentationError", T_SYNTAX_ERROR },
    { T_SYSTEM_EXIT, "SystemExit", T_BASE_EXCEPTION },
    { T_KEYBOARD_INTERRUPT, "KeyboardInterrupt", T_BASE_EXCEPTION },
};

void vm_bootstrap(PyVM *vm)
{
    for (size_t i = 0; i < sizeof builtin_classes / sizeof builtin_classes[0]; i++) {
        int t = builtin_classes[i].type, base = builtin_classes[i].base;
        PyClass *b = base >= 0 ? vm->types[base] : NULL;
        /* type and dict do not exist yet while object is made */
        PyClass *cls = arena_new_of(vm->a, PyClass);
        cls->ob.kind = OBJ_CLASS;
        cls->name = cls->qualname = builtin_classes[i].name;
        cls->module = "builtins";
        cls->builtin = t;
        cls->bases = arena_array_of(vm->a, PyClass *, 1);
        if (b) {
            cls->bases[0] = b;
            cls->nbases = 1;
            cls->mro = arena_array_of(vm->a, PyClass *, b->nmro + 1);
            cls->mro[0] = cls;
            memcpy(cls->mro + 1, b->mro, b->nmro * sizeof *b->mro);
            cls->nmro = b->nmro + 1;
            cls->is_exception = b->is_exception || t == T_BASE_EXCEPTION;
        } else {
            cls->mro = arena_array_of(vm->a, PyClass *, 1);
            cls->mro[0] = cls;
            cls->nmro = 1;
        }
        if (t == T_BASE_EXCEPTION)
            cls->is_exception = true;
        if (cls->is_exception)
            cls->builtin = T_BASE_EXCEPTION;
        else if (t != T_OBJECT)
            cls->builtin = t;
        vm->types[t] = cls;
    }
    /* clinic.py's own classes print as defined in __main__ */
    vm->types[T_NULL]->module = "__main__";
    vm->types[T_UNSPECIFIED]->module = "__main__";
    vm->types[T_UNKNOWN]->module = "__main__";
    for (int t = 0; t < T_COUNT; t++) {
        vm->types[t]->ob.type = vm->types[T_TYPE];
        vm->types[t]->dict = NULL;
    }
    for (int t = 0; t < T_COUNT; t++) {
        vm->types[t]->dict = vm_dict_new(vm);
        vm->types[t]->dict->of_class = true;
    }
    vm->types[T_INT]->pyt_bit = PYT_INT;
    vm->types[T_STR]->pyt_bit = PYT_STR;
    vm->types[T_BYTES]->pyt_bit = PYT_BYTES;
    vm->types[T_BYTEARRAY]->pyt_bit = PYT_BYTEARRAY;
    vm->types[T_FLOAT]->pyt_bit = PYT_FLOAT;
    vm->types[T_COMPLEX]->pyt_bit = PYT_COMPLEX;
    vm->types[T_BOOL]->pyt_bit = PYT_BOOL;
    vm->types[T_NONETYPE]->pyt_bit = PYT_NONETYPE;
    vm->types[T_OBJECT]->pyt_bit = PYT_OBJECT;
}

/* ---- libclinic's Sentinels enum --------------------------------------- */

const char *vm_sentinel_member(PyVM *vm, PyValue v)
{
    if (!vm_is_sentinel(v) || !vm->types[T_UNSPECIFIED]->is_enum)
        return NULL;
    return v.kind == PY_UNSPECIFIED ? "unspecified" : "unknown";
}

bool vm_enum_members(PyVM *vm, PyValue cls, PyValue *members)
{
    PyClass *c = vm_as_class(cls);
    if (!c || !c->is_enum || c != vm->types[T_UNSPECIFIED])
        return false;
    PyValue both[2] = { py_unspecified, py_unknown };
    *members = vm_make_tuple(vm, both, 2);
    return true;
}

/* Sentinels(value): the member whose value it is, as Enum's lookup */
static PyValue sentinels_construct(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[1];
    pyvm_bind(vm, a, "Sentinels", "value", v, NULL);
    if (v[0].kind == PY_STR && !strcmp(v[0].s, "unspecified"))
        return py_unspecified;
    if (v[0].kind == PY_STR && !strcmp(v[0].s, "unknown"))
        return py_unknown;
    if (vm_is_sentinel(v[0]))
        return v[0];
    vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(vm->a,
                   "%s is not a valid Sentinels", vm_repr(vm, v[0])));
}

void pyvm_sentinels_enum(PyVM *vm, const char *module)
{
    PyClass *meta = vm_new_class(vm, "EnumType", "enum",
                                 &vm->types[T_TYPE], 1, NULL);
    PyClass *enum_class = vm_new_class(vm, "Enum", "enum", NULL, 0, NULL);
    enum_class->is_enum = true;
    enum_class->ob.type = meta;
    PyClass *s = vm->types[T_UNSPECIFIED];
    s->name = s->qualname = "Sentinels";
    s->module = module;
    s->is_enum = true;
    s->ob.type = meta;
    s->bases[0] = enum_class;
    s->mro = arena_array_of(vm->a, PyClass *, 3);
    s->mro[0] = s;
    s->mro[1] = enum_class;
    s->mro[2] = vm->types[T_OBJECT];
    s->nmro = 3;
    s->construct = sentinels_construct;
    vm_dict_set_static(vm, s->dict, "unspecified", py_unspecified);
    vm_dict_set_static(vm, s->dict, "unknown", py_unknown);
    vm->types[T_UNKNOWN] = s;
}

/* ---- public wrappers for hosts ----------------------------------------- */

PyObj *pyvm_class_new(PyVM *vm, const char *name, const char *module,
                      PyObj *const *bases, size_t nbases, PyObj *dict,
                      const PyHostOps *host, void *data)
{
    PyClass *cls = vm_new_class(vm, name, module, (PyClass *const *)bases,
                                nbases, (PyDict *)dict);
    if (host) {
        cls->host = host;
        cls->host_data = data;
    } else if (data) {
        cls->host_data = data;
    }
    return &cls->ob;
}

void *pyvm_class_data(const PyObj *cls)
{
    return ((const PyClass *)cls)->host_data;
}

void pyvm_class_set_data(PyObj *cls, void *data)
{
    ((PyClass *)cls)->host_data = data;
}

const char *pyvm_class_name(const PyObj *cls)
{
    return ((const PyClass *)cls)->name;
}

_Thread_local unsigned long vm_lookup_epoch = 1;

/* The converters ask the same few classes for the same few method names
   at every parameter (is it overridden?): the answers are kept, by class
   and name, while nothing that could change them happens
   (vm_lookup_epoch).  The name is kept as a copy (up to 31 bytes; a
   longer one is looked up every time). */
#define LOOKUP_CACHE 256
typedef struct LookupEntry {
    const PyClass *cls;
    unsigned long epoch;
    char name[32];
    bool found;
    PyClass *owner;
    PyValue value;
} LookupEntry;
static _Thread_local LookupEntry lookup_cache[LOOKUP_CACHE];

bool pyvm_class_lookup(const PyObj *cls, const char *name, PyValue *out,
                       PyObj **owner)
{
    uintptr_t key = (uintptr_t)cls ^ ((uintptr_t)name >> 3);
    LookupEntry *e = &lookup_cache[(key ^ (key >> 7) ^ (key >> 13)) &
                                   (LOOKUP_CACHE - 1)];
    PyClass *o = NULL;
    if (e->cls == (const PyClass *)cls && e->epoch == vm_lookup_epoch &&
        strcmp(e->name, name) == 0) {
        if (e->found)
            *out = e->value;
        if (owner)
            *owner = e->owner ? &e->owner->ob : NULL;
        return e->found;
    }
    bool found = vm_lookup((const PyClass *)cls, name, out, &o);
    size_t n = strlen(name);
    if (n < sizeof e->name) {
        e->cls = (const PyClass *)cls;
        e->epoch = vm_lookup_epoch;
        memcpy(e->name, name, n + 1);
        e->found = found;
        e->owner = found ? o : NULL;
        if (found)
            e->value = *out;
    }
    if (owner)
        *owner = o ? &o->ob : NULL;
    return found;
}

PyObj *pyvm_class_of(PyVM *vm, PyValue v)
{
    return &vm_type_of(vm, v)->ob;
}

bool pyvm_is_subclass(const PyObj *cls, const PyObj *base)
{
    return vm_is_subclass((const PyClass *)cls, (const PyClass *)base);
}

PyObj *pyvm_builtin_class(PyVM *vm, const char *name)
{
    /* by the name it was made with, which a host may have changed */
    for (size_t i = 0; i < sizeof builtin_classes / sizeof *builtin_classes;
         i++)
        if (strcmp(builtin_classes[i].name, name) == 0)
            return &vm->types[builtin_classes[i].type]->ob;
    return NULL;
}

void pyvm_class_rename(PyObj *cls, const char *name, const char *module)
{
    PyClass *c = (PyClass *)cls;
    c->name = c->qualname = name;
    c->module = module;
}

PyObj *pyvm_instance_new(PyVM *vm, PyObj *cls, void *host, PyObj *dict)
{
    PyInstance *inst = vm_alloc_obj(vm, sizeof *inst, OBJ_INSTANCE,
                                    (PyClass *)cls);
    inst->host = host;
    inst->dict = dict ? (PyDict *)dict : vm_dict_new(vm);
    inst->args = vm_make_tuple(vm, NULL, 0);
    return &inst->ob;
}

void *pyvm_instance_host(PyValue v)
{
    return vm_is_kind(v, OBJ_INSTANCE) ? ((PyInstance *)v.obj)->host : NULL;
}

void *pyvm_instance_set_host(PyObj *o, void *host)
{
    PyInstance *inst = (PyInstance *)o;
    void *old = inst->host;
    inst->host = host;
    return old;
}

bool pyvm_instance_gone(PyValue v)
{
    return vm_is_kind(v, OBJ_INSTANCE) && v.obj->type->host &&
           !((PyInstance *)v.obj)->host;
}

void *pyvm_instance_host_of(PyValue v, const PyHostOps *ops)
{
    return vm_is_kind(v, OBJ_INSTANCE) && v.obj->type->host == ops
               ? ((PyInstance *)v.obj)->host : NULL;
}

PyObj *pyvm_instance_dict(PyValue v)
{
    return vm_is_kind(v, OBJ_INSTANCE) ? &((PyInstance *)v.obj)->dict->ob
                                       : NULL;
}

PyValue pyvm_native(PyVM *vm, const char *name, PyNativeFn fn, void *data,
                    bool is_method)
{
    PyValue v = vm_native(vm, name, fn, data, is_method);
    ((PyNative *)v.obj)->host = true;
    return v;
}

PyNativeFn pyvm_native_fn(PyValue v, void **data)
{
    if (!vm_is_kind(v, OBJ_NATIVE))
        return NULL;
    if (data)
        *data = ((PyNative *)v.obj)->data;
    return ((PyNative *)v.obj)->fn;
}

PyValue pyvm_getattr(PyVM *vm, PyValue obj, const char *name)
{
    return vm_getattr(vm, obj, name);
}

PyValue pyvm_obj(PyObj *o)
{
    return vm_obj(o);
}

const char *pyvm_type_name(PyVM *vm, PyValue v)
{
    return vm_type_name(vm, v);
}

/* clinic's PY_TYPE / PY_SET of classes, into the interpreter's classes
   and sets (recursively through tuples). */
PyValue pyvm_import(PyVM *vm, PyValue v)
{
    switch (v.kind) {
    case PY_TYPE: {
        int t = type_of_bit(v.types);
        if (t >= 0)
            return vm_obj(vm->types[t]);
        PyValue *found = vm_dict_find_str(vm->globals, py_type_name(v.types));
        return found ? *found : v;
    }
    case PY_SET: {
        PySet *s = vm_set_new(vm, false);
        for (size_t i = 0; i < v.nitems; i++)
            vm_set_add(vm, s, pyvm_import(vm, v.items[i]));
        if (!v.items)
            for (unsigned bit = 1; bit && bit <= PYT_RWBUFFER; bit <<= 1)
                if (v.types & bit) {
                    PyValue t = { .kind = PY_TYPE, .types = bit };
                    vm_set_add(vm, s, pyvm_import(vm, t));
                }
        return vm_obj(s);
    }
    case PY_TUPLE: {
        PyValue *items = arena_array_of(vm->a, PyValue, v.nitems + 1);
        for (size_t i = 0; i < v.nitems; i++)
            items[i] = pyvm_import(vm, v.items[i]);
        return vm_make_tuple(vm, items, v.nitems);
    }
    default:
        return v;
    }
}

/* The bit clinic knows a class by (the buffer classes are the host's). */
static unsigned class_bit(PyVM *vm, PyValue v)
{
    PyClass *c = vm_as_class(v);
    if (!c)
        return 0;
    if (c->pyt_bit)
        return c->pyt_bit;
    static const struct { const char *name; unsigned bit; } host_bits[] = {
        { "buffer", PYT_BUFFER }, { "robuffer", PYT_ROBUFFER },
        { "rwbuffer", PYT_RWBUFFER },
    };
    for (size_t i = 0; i < 3; i++) {
        PyValue *g = vm_dict_find_str(vm->globals, host_bits[i].name);
        if (g && vm_is(*g, v))
            return host_bits[i].bit;
    }
    return 0;
}

PyValue pyvm_export(PyVM *vm, PyValue v)
{
    unsigned bit = class_bit(vm, v);
    if (bit) {
        PyValue t = { .kind = PY_TYPE, .types = bit };
        return t;
    }
    if (vm_is_kind(v, OBJ_SET)) {
        PySet *s = (PySet *)v.obj;
        PyValue out = { .kind = PY_SET };
        out.items = arena_array_of(vm->a, PyValue, s->used + 1);
        size_t pos = 0;
        PyValue key;
        while (vm_set_next(s, &pos, &key)) {
            unsigned b = class_bit(vm, key);
            if (!b)
                return v;
            out.types |= b;
            out.items[out.nitems].kind = PY_TYPE;
            out.items[out.nitems++].types = b;
        }
        return out;
    }
    if (v.kind == PY_TUPLE) {
        /* what clinic keeps is no deeper than vm_enter allows, so that
           its own recursive walks (py_repr, py_equal) cannot overflow */
        PyValue *items = arena_array_of(vm->a, PyValue, v.nitems + 1);
        vm_enter(vm, "");
        for (size_t i = 0; i < v.nitems; i++)
            items[i] = pyvm_export(vm, v.items[i]);
        vm_leave(vm);
        return vm_make_tuple(vm, items, v.nitems);
    }
    return v;
}

/* ---- stand-ins ----------------------------------------------------------

   An object of clinic.py's the interpreter does not model (clinic.py's
   Clinic, its converters dict, a local of state_parameter): an instance
   of a class named as the object's type, whose attributes are stand-ins
   too.  Exported, it is clinic's uncomputed value, which clinic refuses
   to test or write out. */

static bool stand_in_getattr(PyVM *vm, PyObj *self, const char *name,
                             PyValue *out)
{
    if (!strncmp(name, "__", 2))
        return false;
    const char *of = ((PyInstance *)self)->host;
    size_t n = strlen(of);
    if (n >= 2 && of[0] == '<' && of[n - 1] == '>')
        of = arena_strndup(vm->a, of + 1, n - 2);
    *out = pyvm_stand_in(vm, "object", arena_printf(vm->a, "<%s.%s>", of,
                                                    name));
    return true;
}

static const PyHostOps stand_in_ops = { stand_in_getattr, NULL, NULL };

PyValue pyvm_stand_in(PyVM *vm, const char *type_name, const char *stand_in)
{
    PyObj *cls = pyvm_class_new(vm, type_name, "builtins", NULL, 0, NULL,
                                &stand_in_ops, NULL);
    return vm_obj(pyvm_instance_new(vm, cls, (void *)stand_in, NULL));
}

/* pyvm_export, and a list, set or dict as clinic's opaque value of that
   type (its repr and its items, exported), a stand-in as uncomputed. */
static PyValue export_deep(PyVM *vm, PyValue v)
{
    const char *stand_in = pyvm_instance_host_of(v, &stand_in_ops);
    if (stand_in)
        return py_make_uncomputed(vm_type_name(vm, v), stand_in);
    PyValue e = pyvm_export(vm, v);
    if (e.kind == PY_TUPLE) {
        PyValue t = e;
        t.items = arena_array_of(vm->a, PyValue, e.nitems + 1);
        vm_enter(vm, "");
        for (size_t i = 0; i < e.nitems; i++)
            t.items[i] = export_deep(vm, e.items[i]);
        vm_leave(vm);
        return t;
    }
    bool is_dict = vm_is_kind(e, OBJ_DICT);
    if (!is_dict && !vm_is_kind(e, OBJ_LIST) && !vm_is_kind(e, OBJ_SET))
        return e;
    const char *type = vm_type_name(vm, e);
    if (strcmp(type, "list") && strcmp(type, "dict") && strcmp(type, "set") &&
        strcmp(type, "frozenset"))
        return e;   /* a subclass's object: the interpreter's */
    PyValue out = py_make_opaque(type, vm_repr(vm, e));
    size_t n;
    PyValue *keys = vm_collect(vm, e, &n);
    out.nitems = n;
    out.items = arena_array_of(vm->a, PyValue, (is_dict ? 2 * n : n) + 1);
    vm_enter(vm, "");
    for (size_t i = 0; i < n; i++) {
        out.items[i] = export_deep(vm, keys[i]);
        if (is_dict)
            out.items[n + i] = export_deep(vm, vm_getitem(vm, e, keys[i]));
    }
    vm_leave(vm);
    return out;
}

typedef struct Export {
    PyValue v;
} Export;

static void run_export(PyVM *vm, void *ctx)
{
    Export *x = ctx;
    x->v = export_deep(vm, x->v);
}

bool pyvm_export_value(PyVM *vm, PyValue v, PyValue *out)
{
    Export x = { v };
    if (!vm_protect(vm, run_export, &x))
        return false;
    *out = x.v;
    return true;
}

void pyvm_set_annotations_as_strings(PyVM *vm, bool as_strings)
{
    vm->annotations_as_strings = as_strings;
}

void pyvm_set_host(PyVM *vm, void *host)
{
    vm->host = host;
}

void *pyvm_host(const PyVM *vm)
{
    return vm->host;
}

PyValue pyvm_tuple(PyVM *vm, const PyValue *items, size_t n)
{
    return vm_make_tuple(vm, items, n);
}

PyValue pyvm_property(PyVM *vm, PyValue fget)
{
    PyWrapper *w = vm_alloc_obj(vm, sizeof *w, OBJ_WRAPPER,
                                vm->types[T_PROPERTY]);
    w->func = fget;
    return vm_obj(w);
}

bool pyvm_property_fget(PyVM *vm, PyValue v, PyValue *fget)
{
    if (!is_property(vm, v))
        return false;
    *fget = ((PyWrapper *)v.obj)->func;
    return true;
}
