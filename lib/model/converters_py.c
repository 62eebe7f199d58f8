/*
 * converters_py.c — converters as Python classes: the object model.
 *
 * clinic.py's converters are Python classes; a python block subclasses
 * them and overrides any method (converter_init, parse_arg, cleanup,
 * render, ...), calling the built-in ones back through super().  Here
 * every converter class is also a class of the file's interpreter
 * (pyvm.h): the built-in ones carry their methods as natives that run
 * the C of converters.c and converters_render.c (converters_dispatch.c),
 * and a block's subclasses are registered as they are made, as
 * clinic.py's metaclass registers them.
 *
 * A converter instance is seen from Python through a host object: the
 * attributes clinic.py's CConverter has read and write the Converter
 * struct; others go to a dict of its own, which a copy copies (copy.copy
 * is how clinic.py clones a function).  Functions, parameters, classes
 * and modules are host objects too, and CRenderData is an instance whose
 * list attributes are synchronised with the C lists whenever control
 * crosses between C and Python.  The interpreter is made for a file on
 * its first python block (or first class such a block made): a file with
 * none never pays for it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/converters_py_int.h"
#include "model/message.h"

/* ---- the file's interpreter state -------------------------------------- */

ConverterPython *cpy_of_vm(PyVM *vm)
{
    return pyvm_host(vm);
}

static size_t ptr_hash(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    return (size_t)((x >> 4) ^ (x >> 17));
}

static PyObj *host_find(ConverterPython *py, const void *ptr)
{
    if (!py->caphosts)
        return NULL;
    for (size_t i = ptr_hash(ptr) & (py->caphosts - 1);;
         i = (i + 1) & (py->caphosts - 1)) {
        if (!py->hosts[i].ptr)
            return NULL;
        if (py->hosts[i].ptr == ptr)
            return py->hosts[i].obj;
    }
}

static void host_add(ConverterPython *py, const void *ptr, PyObj *obj)
{
    if ((py->nhosts + 1) * 2 > py->caphosts) {
        HostEntry *old = py->hosts;
        size_t oldcap = py->caphosts;
        py->caphosts = oldcap ? oldcap * 2 : 64;
        /* the table outlives a scratch arena (converters_python_forget) */
        py->hosts = arena_array_of(py->c->file_arena, HostEntry,
                                   py->caphosts);
        py->nhosts = 0;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].ptr)
                host_add(py, old[i].ptr, old[i].obj);
    }
    size_t i = ptr_hash(ptr) & (py->caphosts - 1);
    while (py->hosts[i].ptr)
        i = (i + 1) & (py->caphosts - 1);
    py->hosts[i].ptr = ptr;
    py->hosts[i].obj = obj;
    py->nhosts++;
}

/* Python converters see C objects through host objects, one per address:
   those of the objects in the scratch arena, which is about to be reset
   (clinic_scratch_end), are forgotten, so an object made later at the
   same address gets a host of its own, and lose their C object, so that
   one a block kept (in a class attribute) raises RuntimeError instead of
   reading freed memory. */
static void forget_scratch_hosts(Clinic *c)
{
    const Arena *a = c->scratch;
    ConverterPython *py = *converters_python_slot(c);
    if (!py || py->nhosts == py->nhosts_kept)
        return;   /* hosts are only added in between */
    size_t cap = py->caphosts, kept = 0;
    HostEntry *entries = py->hosts;
    for (size_t i = 0; i < cap; i++) {
        if (!entries[i].ptr)
            continue;
        if (arena_owns(a, entries[i].ptr))
            pyvm_instance_set_host(entries[i].obj, NULL);
        else
            entries[kept++] = entries[i];
    }
    /* open addressing: the survivors are placed anew */
    HostEntry *survivors = xmalloc((kept + 1) * sizeof *entries);
    memcpy(survivors, entries, kept * sizeof *entries);
    memset(entries, 0, cap * sizeof *entries);
    py->nhosts = 0;
    for (size_t i = 0; i < kept; i++)
        host_add(py, survivors[i].ptr, survivors[i].obj);
    free(survivors);
    py->nhosts_kept = py->nhosts;
}

/* The host object for ptr, of class cls (made once per pointer). */
static PyValue host_object(ConverterPython *py, PyObj *cls, const void *ptr)
{
    if (!ptr)
        return py_none;
    PyObj *o = host_find(py, ptr);
    if (!o) {
        o = pyvm_instance_new(py->vm, cls, (void *)ptr, NULL);
        host_add(py, ptr, o);
    }
    return pyvm_obj(o);
}

/* ---- values across the boundary ---------------------------------------- */

PyValue cpy_str_or_none(ConverterPython *py, const char *s)
{
    return s ? pyvm_str(py->vm, s) : py_none;
}

/* An exception from Python code the generator called: clinic.py's parse
   loop reports any exception as "Exception raised during parsing". */
const char *converters_python_suggestion(Clinic *c, PyVM *vm)
{
    const char *name = c->dialect->exception_suggestions
                           ? pyvm_error_suggestion(vm) : NULL;
    return name ? arena_printf(c->arena, ". Did you mean: '%s'?", name) : "";
}

CLINIC_NORETURN void cpy_python_error(ConverterPython *py)
{
    const PyError *e = pyvm_error(py->vm);
    clinic_fail(py->c, e->line > 0 ? e->line : 0,
                "Exception raised during parsing:\n%s%s", e->text,
                converters_python_suggestion(py->c, py->vm));
}

CLINIC_NORETURN void cpy_fail_exception(Clinic *c, const char *text)
{
    clinic_fail(c, 0, "Exception raised during parsing:\n%s", text);
}

/* A method's result where clinic.py uses it as a str ("" for None where
   clinic.py only tests its truth). */
const char *cpy_result_str(ConverterPython *py, PyValue v, bool none_ok,
                              const char *method)
{
    if (v.kind == PY_STR)
        return v.s;
    if (v.kind == PY_NONE && none_ok)
        return NULL;
    if (!pyvm_truthy(py->vm, v))
        return "";
    cpy_fail_exception(py->c, arena_printf(py->c->arena, "TypeError: %s() "
                   "returned %s where clinic.py needs a str", method,
                   cpy_other_type(py, v, "str")));
}

/* Keyword arguments given to a converter, for a Python converter_init. */
void cpy_kwargs_of(ConverterPython *py, const ConverterArg *args,
                      size_t nargs, const char ***names, PyValue **values)
{
    *names = arena_array_of(py->c->arena, const char *, nargs + 1);
    *values = arena_array_of(py->c->arena, PyValue, nargs + 1);
    for (size_t i = 0; i < nargs; i++) {
        (*names)[i] = args[i].name;
        (*values)[i] = pyvm_import(py->vm, args[i].value);
    }
}

/* A dict of keyword arguments from Python, as ConverterArgs. */
ConverterArg *cpy_args_of_dict(ConverterPython *py, PyObj *dict,
                                  size_t *n)
{
    PyValue k, v;
    size_t count = 0;
    while (dict && pyvm_dict_entry(dict, count, &k, &v))
        count++;
    /* kept by add_legacy_c_converter's decorator, which may be made while
       a function renders (in the scratch arena) */
    ConverterArg *args = arena_array_of(py->c->file_arena, ConverterArg,
                                        count + 1);
    for (size_t i = 0; i < count; i++) {
        pyvm_dict_entry(dict, i, &k, &v);
        args[i].name = k.s;
        args[i].value = pyvm_export(py->vm, v);
    }
    *n = count;
    return args;
}

/* default_type: clinic's bits, and the classes Python sees. */
static unsigned types_of(ConverterPython *py, PyValue v)
{
    if (v.kind == PY_NONE)
        return 0;
    if (v.kind == PY_TUPLE && v.nitems == 0)
        return PYT_NO_DEFAULT;
    if (v.kind == PY_TUPLE) {
        unsigned bits = 0;
        pyvm_enter(py->vm, "");
        for (size_t i = 0; i < v.nitems; i++)
            bits |= types_of(py, v.items[i]);
        pyvm_leave(py->vm);
        return bits;
    }
    if (v.kind == PY_OBJECT && v.obj == pyvm_builtin_class(py->vm, "Null"))
        return PYT_NULL;
    PyValue e = pyvm_export(py->vm, v);
    if (e.kind != PY_TYPE)
        pyvm_raise(py->vm, "TypeError", "clinic needs default_type to be a "
                   "class or a tuple of classes, not %s",
                   pyvm_type_name(py->vm, v));
    return e.types;
}

static PyValue types_value(ConverterPython *py, unsigned bits)
{
    PyValue items[16];
    size_t n = 0;
    if (bits & PYT_NO_DEFAULT)
        return pyvm_tuple(py->vm, NULL, 0);
    for (size_t i = 0; i < conv_type_order_len && n < 16; i++) {
        unsigned bit = conv_default_type_order[i];
        if (!(bits & bit))
            continue;
        if (bit == PYT_NULL) {
            items[n++] = pyvm_obj(pyvm_builtin_class(py->vm, "Null"));
        } else {
            PyValue t = { .kind = PY_TYPE, .types = bit };
            items[n++] = pyvm_import(py->vm, t);
        }
    }
    if (n == 0)
        return py_none;
    return n == 1 ? items[0] : pyvm_tuple(py->vm, items, n);
}

/* ---- CRenderData, template dicts and argument lists -------------------- */

static const struct {
    const char *name;
    size_t offset;
} render_lists[] = {
#define L(f) { #f, offsetof(RenderData, f) }
    L(declarations), L(initializers), L(modifications), L(keywords),
    L(format_units), L(parse_arguments), L(impl_parameters),
    L(impl_arguments), L(return_conversion), L(cleanup), L(post_parsing),
#undef L
};
#define NLISTS (sizeof render_lists / sizeof render_lists[0])

void cpy_fill_list(ConverterPython *py, PyObj *list, const StrList *from)
{
    pyvm_list_clear(list);
    for (size_t i = 0; i < from->len; i++)
        pyvm_list_append(py->vm, list, pyvm_str(py->vm, from->items[i]));
}

/* A Python list of str back into a StrList, or the TypeError clinic.py's
   ''.join would raise later. */
void cpy_read_list(ConverterPython *py, PyValue v, StrList *to)
{
    PyObj *list = pyvm_as_list(v);
    if (!list)
        cpy_fail_exception(py->c, arena_printf(py->c->arena, "TypeError: clinic "
                       "needs a list of str, not %s",
                       cpy_other_type(py, v, "list")));
    to->len = 0;
    for (size_t i = 0; i < pyvm_list_len(list); i++) {
        PyValue item = pyvm_list_item(list, i);
        if (item.kind != PY_STR)
            cpy_fail_exception(py->c, arena_printf(py->c->arena, "TypeError: "
                           "sequence item %zu: expected str instance, %s "
                           "found", i, pyvm_type_name(py->vm, item)));
        strlist_push(py->c->arena, to, item.s);
    }
}

/* The CRenderData object for data, its lists refreshed from C. */
PyValue cpy_data_to_python(ConverterPython *py, RenderData *data)
{
    PyValue w = host_object(py, py->cls_renderdata, data);
    PyObj *dict = pyvm_instance_dict(w);
    for (size_t i = 0; i < NLISTS; i++) {
        const StrList *from = (const StrList *)((char *)data +
                                                render_lists[i].offset);
        PyValue cur;
        PyObj *list = pyvm_dict_get(py->vm, dict, render_lists[i].name, &cur)
                          ? pyvm_as_list(cur) : NULL;
        if (!list) {
            list = pyvm_list_new(py->vm);
            pyvm_dict_set(py->vm, dict, render_lists[i].name, pyvm_obj(list));
        }
        cpy_fill_list(py, list, from);
    }
    pyvm_dict_set(py->vm, dict, "return_value",
                  cpy_str_or_none(py, data->return_value));
    return w;
}

/* CRenderData has no attributes of its own, only a kind (HostKind). */
static const PyHostOps renderdata_ops = { NULL, NULL, NULL };

/* What Python code did to the object, back into data. */
static void cpy_data_from_python(ConverterPython *py, PyValue w,
                                 RenderData *data)
{
    PyObj *dict = pyvm_instance_dict(w);
    for (size_t i = 0; i < NLISTS; i++) {
        PyValue v;
        if (!pyvm_dict_get(py->vm, dict, render_lists[i].name, &v))
            cpy_fail_exception(py->c, arena_printf(py->c->arena, "AttributeError: "
                           "'CRenderData' object has no attribute '%s'",
                           render_lists[i].name));
        cpy_read_list(py, v, (StrList *)((char *)data + render_lists[i].offset));
    }
    PyValue rv;
    if (pyvm_dict_get(py->vm, dict, "return_value", &rv))
        data->return_value = rv.kind == PY_STR ? rv.s : NULL;
}

PyValue cpy_data_lend(ConverterPython *py, RenderData *data, void **lent)
{
    bool existed = host_find(py, data) != NULL;
    PyValue w = cpy_data_to_python(py, data);
    /* one made now has data already, and is lent for the first time */
    *lent = pyvm_instance_set_host(w.obj, data);
    if (!existed)
        *lent = NULL;
    return w;
}

void cpy_data_end(ConverterPython *py, PyValue w, RenderData *data,
                  void *lent)
{
    cpy_data_from_python(py, w, data);
    pyvm_instance_set_host(w.obj, lent);
}

RenderData *cpy_unwrap_data(ConverterPython *py, PyValue v)
{
    RenderData *d = pyvm_instance_host_of(v, &renderdata_ops);
    if (!d)
        pyvm_raise(py->vm, "TypeError", "clinic needs a CRenderData, not %s",
                   cpy_other_type(py, v, "CRenderData"));
    cpy_data_from_python(py, v, d);
    return d;
}

PyValue cpy_strmap_to_python(ConverterPython *py, const StrMap *m)
{
    PyObj *d = pyvm_dict_new(py->vm);
    for (size_t i = 0; i < m->len; i++)
        pyvm_dict_set(py->vm, d, m->keys[i], pyvm_str(py->vm, m->values[i]));
    return pyvm_obj(d);
}

void cpy_strmap_from_python(ConverterPython *py, PyValue v, StrMap *m)
{
    PyObj *d = pyvm_as_dict(v);
    PyValue key, value;
    for (size_t i = 0; d && pyvm_dict_entry(d, i, &key, &value); i++)
        if (key.kind == PY_STR)
            strmap_set(py->c->arena, m, key.s, pyvm_to_str(py->vm, value));
}

PyValue cpy_strlist_to_python(ConverterPython *py, const StrList *l)
{
    PyObj *list = pyvm_list_new(py->vm);
    cpy_fill_list(py, list, l);
    return pyvm_obj(list);
}

/* ---- host objects: converters ------------------------------------------ */

typedef enum FieldKind { F_STR, F_BOOL, F_VALUE, F_TYPES } FieldKind;

typedef struct Field {
    const char *name;
    FieldKind kind;
    size_t offset;
    bool libclinic;            /* only 3.13's classes have it */
    bool c_default_model;      /* only 3.14's classes have it */
} Field;

/* CConverter's attributes, as the instance holds them. */
static const Field converter_fields[] = {
#define S(f) { #f, F_STR, offsetof(Converter, f), false, false }
#define B(f) { #f, F_BOOL, offsetof(Converter, f), false, false }
    S(name), S(py_name), S(type), S(c_default), S(py_default),
    S(c_ignored_default), S(converter), S(format_unit), S(encoding),
    S(subclass_of), S(signature_name),
    { "default", F_VALUE, offsetof(Converter, default_value), false, false },
    { "default_type", F_TYPES, offsetof(Converter, default_type), false, false },
    B(impl_by_reference), B(parse_by_reference), B(length),
    B(show_in_signature),
    { "unused", F_BOOL, offsetof(Converter, unused), true, false },
    { "c_init_default", F_STR, offsetof(Converter, c_init_default), false,
      true },
#undef S
#undef B
};

/* The same attributes as a class holds them, for the classes blocks
   make and the interpreter classes of the built-in ones. */
static const Field class_fields[] = {
#define S(f) { #f, F_STR, offsetof(ConverterClass, f), false, false }
#define B(f) { #f, F_BOOL, offsetof(ConverterClass, f), false, false }
    { "default", F_VALUE, offsetof(ConverterClass, default_value), false, false },
    S(type), S(c_default), S(py_default), S(c_ignored_default), S(converter),
    S(format_unit), S(encoding), S(subclass_of), S(signature_name),
    { "default_type", F_TYPES, offsetof(ConverterClass, default_type), false,
      false },
    B(impl_by_reference), B(parse_by_reference), B(length),
    B(show_in_signature),
    { "broken_limited_capi", F_BOOL,
      offsetof(ConverterClass, broken_limited_capi), true, false },
    { "c_init_default", F_STR, offsetof(ConverterClass, c_init_default),
      false, true },
#undef S
#undef B
};

static const Field return_fields[] = {
#define S(f) { #f, F_STR, offsetof(ReturnConverter, f), false, false }
    S(type), S(py_default), S(cast), S(conversion_fn), S(unsigned_cast),
#undef S
};

static const Field return_class_fields[] = {
#define S(f) { #f, F_STR, offsetof(ReturnConverterClass, f), false, false }
    S(type), S(cast), S(conversion_fn), S(unsigned_cast),
#undef S
};

/* Whether the flavour's classes have the attribute. */
static bool field_in(const ConverterPython *py, const Field *f)
{
    return (!f->libclinic || py->flavour->libclinic_attrs) &&
           (!f->c_default_model || py->flavour->c_init_default_attr);
}

static const Field *find_field(const ConverterPython *py, const Field *fields,
                               size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(fields[i].name, name) == 0)
            return field_in(py, &fields[i]) ? &fields[i] : NULL;
    return NULL;
}

static PyValue get_field(ConverterPython *py, const Field *f, const void *base)
{
    const char *p = (const char *)base + f->offset;
    switch (f->kind) {
    case F_STR: return cpy_str_or_none(py, *(const char *const *)p);
    case F_BOOL: return pyvm_bool(*(const bool *)p);
    case F_VALUE: return pyvm_import(py->vm, *(const PyValue *)p);
    case F_TYPES: return types_value(py, *(const unsigned *)p);
    }
    return py_none;
}

static void set_field(ConverterPython *py, const Field *f, void *base,
                      PyValue v, const char *owner)
{
    char *p = (char *)base + f->offset;
    switch (f->kind) {
    case F_STR:
        if (v.kind != PY_STR && v.kind != PY_NONE)
            pyvm_raise(py->vm, "TypeError", "clinic keeps %s.%s as a str or "
                       "None, not %s", owner, f->name,
                       cpy_other_type(py, v, "str"));
        *(const char **)p = v.kind == PY_STR ? v.s : NULL;
        break;
    case F_BOOL:
        *(bool *)p = pyvm_truthy(py->vm, v);
        break;
    case F_VALUE:
        *(PyValue *)p = pyvm_export(py->vm, v);
        break;
    case F_TYPES:
        *(unsigned *)p = types_of(py, v);
        break;
    }
}

static const PyHostOps function_ops, parameter_ops;

const char *cpy_other_type(ConverterPython *py, PyValue v, const char *want)
{
    const char *name = pyvm_type_name(py->vm, v);
    if (pyvm_instance_gone(v))
        return arena_printf(py->c->arena, "a %s whose C object is gone "
                            "(clinic made it for a step that is over)", name);
    if (strcmp(name, want))
        return name;
    return arena_printf(py->c->arena, "an object of the python block's "
                        "class %s", name);
}

Function *cpy_unwrap_function(ConverterPython *py, PyValue v)
{
    if (v.kind == PY_NONE)
        return NULL;
    Function *f = pyvm_instance_host_of(v, &function_ops);
    if (!f)
        pyvm_raise(py->vm, "TypeError", "clinic needs a Function, not %s",
                   cpy_other_type(py, v, "Function"));
    return f;
}

Parameter *cpy_unwrap_parameter(ConverterPython *py, PyValue v)
{
    Parameter *p = pyvm_instance_host_of(v, &parameter_ops);
    if (!p)
        pyvm_raise(py->vm, "TypeError", "clinic needs a Parameter, not %s",
                   cpy_other_type(py, v, "Parameter"));
    return p;
}

/* Whether the converter's instance keeps bitwise (3.15's unsigned
   converters: their converter_init sets it). */
static bool keeps_bitwise(const ConverterPython *py, ConverterKind kind)
{
    return py->flavour->bitwise_instance_attr &&
           (kind == CK_UNSIGNED_CHAR || kind == CK_UNSIGNED_SHORT ||
            kind == CK_UNSIGNED_INT || kind == CK_UNSIGNED_LONG ||
            kind == CK_UNSIGNED_LONG_LONG);
}

static bool converter_getattr(PyVM *vm, PyObj *self, const char *name,
                              PyValue *out)
{
    ConverterPython *py = cpy_of_vm(vm);
    Converter *conv = pyvm_instance_host(pyvm_obj(self));
    const Field *f = find_field(py, converter_fields,
                                sizeof converter_fields / sizeof *converter_fields,
                                name);
    if (f) {
        *out = get_field(py, f, conv);
        return true;
    }
    ConverterKind kind = converter_row_of(conv->cls)->kind;
    if (!strcmp(name, "function")) {
        if (conv->initializing && !py->flavour->landmine)
            clinic_failm(py->c, 0, MSG_FUNCTION_IN_CONVERTER_INIT,
                         MSG_ARGS(pyvm_class_name(pyvm_class_of(vm,
                                      pyvm_obj(self))), "function"));
        *out = conv->initializing ? pyvm_obj(py->landmine)
                                  : cpy_function_object(py, conv->function);
        return true;
    }
    if (!strcmp(name, "parameter") && conv->parameter) {
        *out = cpy_parameter_object(py, conv->parameter);
        return true;
    }
    if (!strcmp(name, "specified_type") &&
        (kind == CK_SELF || kind == CK_DEFINING_CLASS)) {
        *out = cpy_str_or_none(py, conv->self_type);
        return true;
    }
    if (!strcmp(name, "bitwise") && keeps_bitwise(py, kind)) {
        *out = pyvm_bool(conv->bitwise);
        return true;
    }
    if (!strcmp(name, "accept") && kind == CK_PY_UNICODE && conv->accept) {
        PyValue set = { .kind = PY_SET, .types = conv->accept };
        *out = pyvm_import(vm, set);
        return true;
    }
    return false;
}

static bool converter_setattr(PyVM *vm, PyObj *self, const char *name,
                              PyValue v)
{
    ConverterPython *py = cpy_of_vm(vm);
    Converter *conv = pyvm_instance_host(pyvm_obj(self));
    const Field *f = find_field(py, converter_fields,
                                sizeof converter_fields / sizeof *converter_fields,
                                name);
    if (f) {
        set_field(py, f, conv, v, pyvm_class_name(pyvm_class_of(vm, pyvm_obj(self))));
        return true;
    }
    if (!strcmp(name, "function")) {
        /* clinic.py's own __init__ sets the LandMine, then the function */
        if (!(v.kind == PY_OBJECT && v.obj == py->landmine))
            conv->function = cpy_unwrap_function(py, v);
        return true;
    }
    if (!strcmp(name, "parameter")) {
        Parameter *p = cpy_unwrap_parameter(py, v);
        /* the copies a function is rendered with go with the scratch
           arena (forget_scratch_hosts): a converter that outlives it
           would keep a dangling pointer */
        const Arena *scratch = py->c->scratch;
        if (scratch && arena_owns(scratch, p) && !arena_owns(scratch, conv))
            pyvm_raise(vm, "TypeError", "clinic cannot keep this Parameter "
                       "in %s: it is a copy made to render one function, "
                       "and the converter outlives it",
                       pyvm_type_name(vm, pyvm_obj(self)));
        conv->parameter = p;
        return true;
    }
    ConverterKind kind = converter_row_of(conv->cls)->kind;
    if (!strcmp(name, "bitwise") && keeps_bitwise(py, kind)) {
        conv->bitwise = pyvm_truthy(vm, v);
        return true;
    }
    if (!strcmp(name, "specified_type") &&
        (kind == CK_SELF || kind == CK_DEFINING_CLASS)) {
        if (v.kind != PY_STR && v.kind != PY_NONE)
            pyvm_raise(vm, "TypeError", "clinic keeps specified_type as a str "
                       "or None");
        conv->self_type = v.kind == PY_STR ? v.s : NULL;
        return true;
    }
    return false;
}

static bool return_converter_getattr(PyVM *vm, PyObj *self, const char *name,
                                     PyValue *out)
{
    ReturnConverter *rc = pyvm_instance_host(pyvm_obj(self));
    const Field *f = find_field(cpy_of_vm(vm), return_fields,
                                sizeof return_fields / sizeof *return_fields,
                                name);
    if (!f)
        return false;
    *out = get_field(cpy_of_vm(vm), f, rc);
    return true;
}

static bool return_converter_setattr(PyVM *vm, PyObj *self, const char *name,
                                     PyValue v)
{
    ReturnConverter *rc = pyvm_instance_host(pyvm_obj(self));
    const Field *f = find_field(cpy_of_vm(vm), return_fields,
                                sizeof return_fields / sizeof *return_fields,
                                name);
    if (!f)
        return false;
    set_field(cpy_of_vm(vm), f, rc, v, "CReturnConverter");
    return true;
}

static void converter_class_created(PyVM *vm, PyObj *cls);
static void return_converter_class_created(PyVM *vm, PyObj *cls);

static const PyHostOps converter_ops = {
    converter_getattr, converter_setattr, converter_class_created,
};
static const PyHostOps return_converter_ops = {
    return_converter_getattr, return_converter_setattr,
    return_converter_class_created,
};

/* The object a python block sees for conv (the same one every time). */
PyValue cpy_converter_object(ConverterPython *py, const Converter *cconv)
{
    Converter *conv = (Converter *)cconv;
    if (!conv->object) {
        PyObj *cls = conv->cls->pyclass ? conv->cls->pyclass
                   : cpy_row_class(py, converter_row_of(conv->cls));
        if (!conv->attrs)
            conv->attrs = pyvm_dict_new(py->vm);
        conv->object = pyvm_instance_new(py->vm, cls, conv, conv->attrs);
        /* a copy made to render a function: forgotten with it */
        if (py->c->scratch && arena_owns(py->c->scratch, conv))
            host_add(py, conv, conv->object);
    }
    return pyvm_obj(conv->object);
}

PyValue cpy_return_converter_object(ConverterPython *py,
                                       ReturnConverter *rc)
{
    if (!rc->object) {
        PyObj *cls = rc->cls->pyclass ? rc->cls->pyclass
                   : cpy_return_row_class(py, return_row_of(rc->cls));
        if (!rc->attrs)
            rc->attrs = pyvm_dict_new(py->vm);
        rc->object = pyvm_instance_new(py->vm, cls, rc, rc->attrs);
    }
    return pyvm_obj(rc->object);
}

/* "a 'int'", as CPython says, or what cpy_other_type says. */
static const char *received(ConverterPython *py, PyValue v, const char *want)
{
    const char *name = pyvm_type_name(py->vm, v);
    if (!pyvm_instance_gone(v) && strcmp(name, want))
        return arena_printf(py->c->arena, "a '%s'", name);
    return cpy_other_type(py, v, want);
}

Converter *cpy_unwrap_converter(ConverterPython *py, PyValue self,
                                   const char *method)
{
    Converter *conv = pyvm_instance_host_of(self, &converter_ops);
    if (!conv)
        pyvm_raise(py->vm, "TypeError", "descriptor '%s' requires a "
                   "'CConverter' object but received %s", method,
                   received(py, self, "CConverter"));
    return conv;
}

ReturnConverter *cpy_unwrap_return_converter(ConverterPython *py,
                                                PyValue self,
                                                const char *method)
{
    ReturnConverter *rc = pyvm_instance_host_of(self, &return_converter_ops);
    if (!rc)
        pyvm_raise(py->vm, "TypeError", "descriptor '%s' requires a "
                   "'CReturnConverter' object but received %s", method,
                   received(py, self, "CReturnConverter"));
    return rc;
}

void converter_copy_python(Clinic *c, Converter *copy)
{
    copy->object = NULL;
    if (copy->attrs)
        copy->attrs = pyvm_dict_copy(cpy_of(c)->vm, copy->attrs);
}

/* ---- host objects: functions, parameters, classes, modules, LandMine --- */

static const char *const function_kinds[] = {
    [FUNC_CALLABLE] = "CALLABLE", [FUNC_STATIC_METHOD] = "STATIC_METHOD",
    [FUNC_CLASS_METHOD] = "CLASS_METHOD", [FUNC_METHOD_INIT] = "METHOD_INIT",
    [FUNC_METHOD_NEW] = "METHOD_NEW",
};

static PyValue module_object(ConverterPython *py, const Module *m)
{
    return host_object(py, py->cls_module, m);
}

static PyValue class_object(ConverterPython *py, const Class *cls)
{
    return host_object(py, py->cls_class, cls);
}

PyValue cpy_function_object(ConverterPython *py, const Function *f)
{
    return host_object(py, py->cls_function, f);
}

PyValue cpy_parameter_object(ConverterPython *py, const Parameter *p)
{
    return host_object(py, py->cls_parameter, p);
}

static bool function_getattr(PyVM *vm, PyObj *self, const char *name,
                             PyValue *out)
{
    ConverterPython *py = cpy_of_vm(vm);
    const Function *f = pyvm_instance_host(pyvm_obj(self));
    if (!strcmp(name, "name"))
        *out = cpy_str_or_none(py, f->name);
    else if (!strcmp(name, "full_name"))
        *out = cpy_str_or_none(py, f->full_name);
    else if (!strcmp(name, "module"))
        *out = module_object(py, f->module);
    else if (!strcmp(name, "cls"))
        *out = class_object(py, f->cls);
    else if (!strcmp(name, "parent"))
        *out = f->cls ? class_object(py, f->cls) : module_object(py, f->module);
    else if (!strcmp(name, "c_basename"))
        *out = cpy_str_or_none(py, f->c_basename);
    else if (!strcmp(name, "return_converter"))
        *out = f->return_converter
                   ? cpy_return_converter_object(py, f->return_converter) : py_none;
    else if (!strcmp(name, "docstring"))
        *out = cpy_str_or_none(py, f->docstring ? f->docstring : "");
    else if (!strcmp(name, "kind"))
        *out = pyvm_str(vm, function_kinds[f->kind]);
    else if (!strcmp(name, "coexist"))
        *out = pyvm_bool(f->coexist);
    else if (!strcmp(name, "docstring_only"))
        *out = pyvm_bool(f->docstring_only);
    else if (!strcmp(name, "docstring_line_width") &&
             py->c->dialect->summary_width)   /* 3.15's property */
        *out = pyvm_int(vm, f->cls && !function_kind_new_or_init(f->kind)
                                ? py->c->dialect->summary_width_method
                                : py->c->dialect->summary_width);
    else if (!strcmp(name, "parameters")) {
        PyObj *d = pyvm_dict_new(vm);
        for (size_t i = 0; i < f->nparameters; i++)
            pyvm_dict_set(vm, d, f->parameters[i]->key,
                          cpy_parameter_object(py, f->parameters[i]));
        *out = pyvm_obj(d);
    } else
        return false;
    return true;
}

static const int parameter_kinds[] = {
    /* inspect.Parameter's kinds are numbered so */
    [PARAM_POSITIONAL_ONLY] = 0, [PARAM_POSITIONAL_OR_KEYWORD] = 1,
    [PARAM_VAR_POSITIONAL] = 2, [PARAM_KEYWORD_ONLY] = 3,
    [PARAM_VAR_KEYWORD] = 4,
};

static bool parameter_getattr(PyVM *vm, PyObj *self, const char *name,
                              PyValue *out)
{
    ConverterPython *py = cpy_of_vm(vm);
    const Parameter *p = pyvm_instance_host(pyvm_obj(self));
    if (!strcmp(name, "name"))
        *out = cpy_str_or_none(py, p->name);
    else if (!strcmp(name, "kind"))
        *out = pyvm_int(vm, parameter_kinds[p->kind]);
    else if (!strcmp(name, "default"))
        *out = pyvm_import(vm, p->default_value);
    else if (!strcmp(name, "function"))
        *out = cpy_function_object(py, p->function);
    else if (!strcmp(name, "converter"))
        *out = p->converter ? cpy_converter_object(py, p->converter) : py_none;
    else if (!strcmp(name, "docstring"))
        *out = cpy_str_or_none(py, p->docstring ? p->docstring : "");
    else if (!strcmp(name, "group"))
        *out = pyvm_int(vm, p->group);
    else
        return false;
    return true;
}

static bool class_getattr(PyVM *vm, PyObj *self, const char *name,
                          PyValue *out)
{
    ConverterPython *py = cpy_of_vm(vm);
    const Class *cls = pyvm_instance_host(pyvm_obj(self));
    if (!strcmp(name, "name"))
        *out = cpy_str_or_none(py, cls->name);
    else if (!strcmp(name, "module"))
        *out = module_object(py, cls->module);
    else if (!strcmp(name, "cls"))
        *out = class_object(py, cls->cls);
    else if (!strcmp(name, "parent"))
        *out = cls->cls ? class_object(py, cls->cls)
                        : module_object(py, cls->module);
    else if (!strcmp(name, "typedef"))
        *out = cpy_str_or_none(py, cls->typedef_);
    else if (!strcmp(name, "type_object"))
        *out = cpy_str_or_none(py, cls->type_object);
    else
        return false;
    return true;
}

static bool module_getattr(PyVM *vm, PyObj *self, const char *name,
                           PyValue *out)
{
    ConverterPython *py = cpy_of_vm(vm);
    const Module *m = pyvm_instance_host(pyvm_obj(self));
    if (!strcmp(name, "name"))
        *out = cpy_str_or_none(py, m->name);
    else if (!strcmp(name, "module") || !strcmp(name, "parent"))
        *out = m->parent ? module_object(py, m->parent) : py_none;
    else
        return false;
    return true;
}

static const char landmine_message[] =
    "Don't access members of self.function inside converter_init!";

/* clinic.py's LandMine: any attribute but __repr__ fails. */
static bool landmine_getattr(PyVM *vm, PyObj *self, const char *name,
                             PyValue *out)
{
    (void)self;
    if (!strcmp(name, "__repr__") || !strcmp(name, "__class__"))
        return false;
    if (!strcmp(name, "__message__")) {
        *out = pyvm_str(vm, landmine_message);
        return true;
    }
    ConverterPython *py = cpy_of_vm(vm);
    clinic_failm(py->c, 0, MSG_FUNCTION_IN_CONVERTER_INIT,
                 MSG_ARGS("", name));
}

static const PyHostOps function_ops = { function_getattr, NULL, NULL };
static const PyHostOps parameter_ops = { parameter_getattr, NULL, NULL };
static const PyHostOps class_ops = { class_getattr, NULL, NULL };
static const PyHostOps module_ops = { module_getattr, NULL, NULL };
static const PyHostOps landmine_ops = { landmine_getattr, NULL, NULL };

/* The classes of clinic's objects (Function, Parameter, ...), by name
   and by the PyHostOps that tell their host pointers apart. */
typedef struct HostKind {
    const char *name;
    const PyHostOps *ops;
} HostKind;

/* The host classes, by name and kind. */
static const HostKind host_function = { "Function", &function_ops },
    host_parameter = { "Parameter", &parameter_ops },
    host_class = { "Class", &class_ops },
    host_module = { "Module", &module_ops },
    host_renderdata = { "CRenderData", &renderdata_ops },
    host_landmine = { "LandMine", &landmine_ops };

/* The reprs clinic.py gives them, and Parameter's predicates. */
static PyValue host_repr(PyVM *vm, const PyArgs *a, void *data)
{
    const HostKind *kind = data;
    const char *what = kind->name;
    PyValue self = a->args[0];
    /* self may be another host class's, its class deriving from both */
    void *host = pyvm_instance_host_of(self, kind->ops);
    if (!host)
        pyvm_raise(vm, "TypeError", "descriptor '__repr__' requires a '%s' "
                   "object but received %s", what,
                   received(cpy_of_vm(vm), self, what));
    if (!strcmp(what, "LandMine"))
        return pyvm_str(vm, arena_printf(cpy_of_vm(vm)->c->arena,
                        "<LandMine %s>", py_repr_str(cpy_of_vm(vm)->c->arena,
                        landmine_message, strlen(landmine_message))));
    const char *name = !strcmp(what, "Function") ? ((Function *)host)->name
                     : !strcmp(what, "Parameter") ? ((Parameter *)host)->name
                     : !strcmp(what, "Class") ? ((Class *)host)->name
                     : ((Module *)host)->name;
    return pyvm_str(vm, arena_printf(cpy_of_vm(vm)->c->arena,
                                     "<clinic.%s %s>", what, name));
}

static PyValue parameter_is(PyVM *vm, const PyArgs *a, void *data)
{
    PyValue v[1];
    pyvm_bind(vm, a, "is_kind", "self", v, NULL);
    ConverterPython *py = cpy_of_vm(vm);
    const Parameter *p = cpy_unwrap_parameter(py, v[0]);
    ParamKind kind = (ParamKind)(intptr_t)data;
    return pyvm_bool(p->kind == kind);
}

/* 3.15's is_variable_length(): *args or **kwds (the model has no
   **kwds parameter yet, so *args). */
static PyValue parameter_is_variable_length(PyVM *vm, const PyArgs *a,
                                            void *data)
{
    (void)data;
    PyValue v[1];
    pyvm_bind(vm, a, "is_variable_length", "self", v, NULL);
    const Parameter *p = cpy_unwrap_parameter(cpy_of_vm(vm), v[0]);
    return pyvm_bool(p->kind == PARAM_VAR_POSITIONAL);
}

static PyValue parameter_is_optional(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[1];
    pyvm_bind(vm, a, "is_optional", "self", v, NULL);
    return pyvm_bool(param_is_optional(cpy_unwrap_parameter(cpy_of_vm(vm), v[0])));
}

/* ---- the classes ------------------------------------------------------- */

static bool field_equal(const Field *f, const void *x, const void *y)
{
    const char *px = (const char *)x + f->offset, *py_ = (const char *)y + f->offset;
    switch (f->kind) {
    case F_STR: {
        const char *a = *(const char *const *)px, *b = *(const char *const *)py_;
        return a == b || (a && b && !strcmp(a, b));
    }
    case F_BOOL: return *(const bool *)px == *(const bool *)py_;
    case F_TYPES: return *(const unsigned *)px == *(const unsigned *)py_;
    case F_VALUE:
        break;
    }
    return ((const PyValue *)px)->kind == ((const PyValue *)py_)->kind;
}

/* A built-in converter class in the interpreter: the attributes and the
   methods clinic.py's class body defines (those its base does not). */
PyObj *cpy_row_class(ConverterPython *py, const ConverterRow *row)
{
    size_t i = (size_t)(row - converter_rows);
    if (py->row_class[i])
        return py->row_class[i];
    const Dialect *d = py->c->dialect;
    const ConverterClass *base_cls = converter_base_in(d, &row->cls);
    const ConverterRow *base = base_cls ? converter_row_of(base_cls) : NULL;
    PyObj *base_class = base ? cpy_row_class(py, base) : NULL;
    PyObj *dict = pyvm_dict_new(py->vm);
    /* CConverter's name and py_name are None (3.11), only annotated
       (libclinic); its unused is False (libclinic) */
    if (!base && !py->flavour->libclinic_attrs) {
        pyvm_dict_set_static(py->vm, dict, "name", py_none);
        pyvm_dict_set_static(py->vm, dict, "py_name", py_none);
    } else if (!base) {
        pyvm_dict_set_static(py->vm, dict, "unused", pyvm_bool(false));
    }
    if (row->false_attribute)
        pyvm_dict_set_static(py->vm, dict, row->false_attribute,
                             pyvm_bool(false));
    /* self's and defining_class's type= (3.14 declares it in the class) */
    if (py->flavour->specified_type_attr &&
        (row->kind == CK_SELF || row->kind == CK_DEFINING_CLASS))
        pyvm_dict_set_static(py->vm, dict, "specified_type", py_none);
    /* the C-default attributes as the dialect's clinic has them */
    ConverterClass own = row->cls, of_base;
    converter_class_defaults(d, &row->cls, &own.c_ignored_default,
                             &own.c_init_default, &own.default_type);
    if (base) {
        of_base = base->cls;
        converter_class_defaults(d, &base->cls, &of_base.c_ignored_default,
                                 &of_base.c_init_default,
                                 &of_base.default_type);
    }
    for (size_t k = 0; k < sizeof class_fields / sizeof *class_fields; k++)
        if (field_in(py, &class_fields[k]) &&
            (!base || !field_equal(&class_fields[k], &own, &of_base)))
            pyvm_dict_set_static(py->vm, dict, class_fields[k].name,
                          get_field(py, &class_fields[k], &own));
    cpy_add_methods(py, dict, row, base);
    cpy_add_class_annotations(py, dict, row->cls.class_name);
    py->row_class[i] = pyvm_class_new(py->vm, row->cls.class_name,
                                      base ? py->flavour->module
                                           : py->flavour->root_module,
                                      base ? &base_class : NULL, base ? 1 : 0,
                                      dict, &converter_ops,
                                      (void *)&row->cls);
    return py->row_class[i];
}

PyObj *cpy_return_row_class(ConverterPython *py, const ReturnRow *row)
{
    size_t i = (size_t)(row - return_rows);
    if (py->return_row_class[i])
        return py->return_row_class[i];
    const ReturnRow *base = row->cls.base ? return_row_of(row->cls.base)
                                          : NULL;
    PyObj *base_class = base ? cpy_return_row_class(py, base) : NULL;
    PyObj *dict = pyvm_dict_new(py->vm);
    if (!base)
        pyvm_dict_set_static(py->vm, dict, "default", py_none);
    for (size_t k = 0; k < sizeof return_class_fields / sizeof *return_class_fields; k++)
        if (!base || !field_equal(&return_class_fields[k], &row->cls, &base->cls))
            pyvm_dict_set_static(py->vm, dict, return_class_fields[k].name,
                          get_field(py, &return_class_fields[k], &row->cls));
    cpy_add_return_methods(py, dict, row, base);
    cpy_add_class_annotations(py, dict, row->cls.class_name);
    py->return_row_class[i] = pyvm_class_new(
        py->vm, row->cls.class_name, py->flavour->return_module,
        base ? &base_class : NULL,
        base ? 1 : 0, dict, &return_converter_ops, (void *)&row->cls);
    return py->return_row_class[i];
}

/* Whether a class attribute has a type clinic can keep; if not, why
   (clinic.py accepts any value there, and fails only when the class is
   used: so do we). */
static bool class_field_ok(ConverterPython *py, const Field *f, PyValue v,
                           const char *class_name, const char **invalid)
{
    bool ok = true;
    if (f->kind == F_STR)
        ok = v.kind == PY_STR || v.kind == PY_NONE;
    else if (f->kind == F_TYPES)
        ok = v.kind == PY_NONE || v.kind == PY_TUPLE ||
             pyvm_export(py->vm, v).kind == PY_TYPE ||
             (v.kind == PY_OBJECT &&
              v.obj == pyvm_builtin_class(py->vm, "Null"));
    if (!ok && invalid && !*invalid)
        *invalid = arena_printf(py->c->file_arena, "TypeError: clinic needs "
                                "%s.%s to be %s, not %s", class_name, f->name,
                                f->kind == F_STR ? "a str or None"
                                                 : "a class or a tuple of "
                                                   "classes",
                                cpy_other_type(py, v, f->kind == F_STR
                                                      ? "str" : "tuple"));
    return ok;
}

/* CConverterAutoRegister: a class deriving from a converter class is
   registered as it is made (class statement or type()), with its class
   attributes as Python's lookup finds them. */
static void converter_class_created(PyVM *vm, PyObj *cls)
{
    ConverterPython *py = cpy_of_vm(vm);
    const ConverterClass *base = pyvm_class_data(cls);
    ConverterClass *cc = arena_new_of(py->c->file_arena, ConverterClass);
    cc->class_name = pyvm_class_name(cls);
    cc->base = base;
    cc->pyclass = cls;
    cc->is_self = base->is_self;
    cc->is_defining_class = base->is_defining_class;
    for (size_t k = 0; k < sizeof class_fields / sizeof *class_fields; k++) {
        PyValue v;
        if (!field_in(py, &class_fields[k]))
            continue;
        if (pyvm_class_lookup(cls, class_fields[k].name, &v, NULL) &&
            !class_field_ok(py, &class_fields[k], v, cc->class_name,
                            &cc->invalid))
            continue;
        set_field(py, &class_fields[k], cc, v, cc->class_name);
    }
    cc->attrs_set = ~0u;
    pyvm_class_set_data(cls, cc);
    converter_register_class(py->c, cc);
}

static void return_converter_class_created(PyVM *vm, PyObj *cls)
{
    ConverterPython *py = cpy_of_vm(vm);
    const ReturnConverterClass *base = pyvm_class_data(cls);
    ReturnConverterClass *rc = arena_new_of(py->c->file_arena,
                                            ReturnConverterClass);
    rc->class_name = pyvm_class_name(cls);
    rc->base = base;
    rc->pyclass = cls;
    for (size_t k = 0; k < sizeof return_class_fields / sizeof *return_class_fields; k++) {
        PyValue v;
        if (pyvm_class_lookup(cls, return_class_fields[k].name, &v, NULL) &&
            class_field_ok(py, &return_class_fields[k], v, rc->class_name,
                           NULL))
            set_field(py, &return_class_fields[k], rc, v, rc->class_name);
    }
    rc->attrs_set = ~0u;
    pyvm_class_set_data(cls, rc);
    return_converter_register_class(py->c, rc);
}

static PyObj *cpy_host_class(ConverterPython *py, const HostKind *kind)
{
    PyObj *dict = pyvm_dict_new(py->vm);
    pyvm_dict_set_static(py->vm, dict, "__repr__",
                  pyvm_native(py->vm, "__repr__", host_repr, (void *)kind,
                              true));
    return pyvm_class_new(py->vm, kind->name, py->flavour->module, NULL, 0,
                          dict, kind->ops, NULL);
}

/* Unspecified.__repr__ and Unknown.__repr__ of clinic.py */
static PyValue sentinel_repr(PyVM *vm, const PyArgs *a, void *data)
{
    (void)a;
    return pyvm_str(vm, arena_printf(cpy_of_vm(vm)->c->arena, "<%s>",
                                     (const char *)data));
}

ConverterPython *cpy_of(Clinic *c)
{
    ConverterPython **slot = converters_python_slot(c);
    if (*slot)
        return *slot;
    /* the interpreter lives as long as the file, even when first needed
       inside a scratch step */
    Arena *a = c->file_arena;
    ConverterPython *py = arena_new_of(a, ConverterPython);
    py->c = c;
    py->flavour = cpy_flavour_of(c->dialect);
    py->vm = pyvm_new(a);
    pyvm_set_host(py->vm, py);
    /* clinic's Null class, where and as the dialect defines it */
    const char *null_name = DIALECT_INHERITED(c->dialect, null_type_name);
    pyvm_class_rename(pyvm_builtin_class(py->vm, "Null"),
                      null_name ? null_name : "Null",
                      c->dialect->null_module ? c->dialect->null_module
                                              : "__main__");
    pyvm_set_annotations_as_strings(py->vm, py->flavour->future_annotations);
    const char *sentinels = DIALECT_INHERITED(c->dialect, sentinels_module);
    if (sentinels) {
        pyvm_sentinels_enum(py->vm, sentinels);
    } else {
        /* clinic.py's Unspecified and Unknown: a new one prints as the
           sentinel does */
        static const char *const classes[] = { "Unspecified", "Unknown" };
        for (size_t i = 0; i < 2; i++) {
            PyValue cls = pyvm_obj(pyvm_builtin_class(py->vm, classes[i]));
            pyvm_dict_set_static(py->vm,
                pyvm_as_dict(pyvm_getattr(py->vm, cls, "__dict__")),
                "__repr__", pyvm_native(py->vm, "__repr__", sentinel_repr,
                                        (void *)classes[i], true));
        }
    }
    c->before_scratch_reset = forget_scratch_hosts;
    py->row_class = arena_array_of(a, PyObj *, converter_nrows);
    py->return_row_class = arena_array_of(a, PyObj *, return_nrows);
    py->cls_function = cpy_host_class(py, &host_function);
    py->cls_parameter = cpy_host_class(py, &host_parameter);
    py->cls_class = cpy_host_class(py, &host_class);
    py->cls_module = cpy_host_class(py, &host_module);
    py->cls_renderdata = cpy_host_class(py, &host_renderdata);
    py->cls_landmine = cpy_host_class(py, &host_landmine);
    static const struct {
        const char *name;
        ParamKind kind;
    } predicates[] = {
        { "is_keyword_only", PARAM_KEYWORD_ONLY },
        { "is_positional_only", PARAM_POSITIONAL_ONLY },
        { "is_vararg", PARAM_VAR_POSITIONAL },
    };
    PyValue dictv = pyvm_getattr(py->vm, pyvm_obj(py->cls_parameter), "__dict__");
    for (size_t i = 0; i < 3; i++)
        pyvm_dict_set_static(py->vm, pyvm_as_dict(dictv), predicates[i].name,
                      pyvm_native(py->vm, predicates[i].name, parameter_is,
                                  (void *)(intptr_t)predicates[i].kind, true));
    pyvm_dict_set_static(py->vm, pyvm_as_dict(dictv), "is_optional",
                  pyvm_native(py->vm, "is_optional", parameter_is_optional,
                              NULL, true));
    /* 3.15's, which came with **kwds */
    if (DIALECT_INHERITED(c->dialect, var_keyword_prefix)) {
        pyvm_dict_set_static(py->vm, pyvm_as_dict(dictv),
            "is_positional_or_keyword",
            pyvm_native(py->vm, "is_positional_or_keyword", parameter_is,
                        (void *)(intptr_t)PARAM_POSITIONAL_OR_KEYWORD, true));
        /* no kind is a **kwds one in the model yet: always false */
        pyvm_dict_set_static(py->vm, pyvm_as_dict(dictv), "is_var_keyword",
            pyvm_native(py->vm, "is_var_keyword", parameter_is,
                        (void *)(intptr_t)-1, true));
        pyvm_dict_set_static(py->vm, pyvm_as_dict(dictv),
            "is_variable_length",
            pyvm_native(py->vm, "is_variable_length",
                        parameter_is_variable_length, NULL, true));
    }
    /* the LandMine needs a host pointer only to be one: its own message */
    py->landmine = pyvm_instance_new(py->vm, py->cls_landmine,
                                     (void *)landmine_message, NULL);
    *slot = py;
    cpy_install_namespace(py);
    return py;
}

PyVM *converters_python(Clinic *c)
{
    return cpy_of(c)->vm;
}

void converters_python_take_printed(Clinic *c)
{
    ConverterPython *py = *converters_python_slot(c);
    if (!py)
        return;
    size_t len;
    const char *text = pyvm_take_output(py->vm, &len);
    if (text && len)
        sb_add(&c->printed, text, len);
}

PyObj *converters_python_block_globals(Clinic *c)
{
    ConverterPython *py = cpy_of(c);
    return py->flavour->module_globals ? NULL : pyvm_globals_copy(py->vm);
}

PyObj *converters_python_block_locals(Clinic *c)
{
    PyVM *vm = cpy_of(c)->vm;
    PyObj *locals = pyvm_dict_new(vm);
    static const char *const parse_locals[][2] = {
        { "self", "PythonParser" }, { "block", "Block" }, { "s", "StringIO" },
    };
    for (size_t i = 0; i < 3; i++)
        pyvm_dict_set_static(vm, locals, parse_locals[i][0],
                             pyvm_stand_in(vm, parse_locals[i][1],
                                           arena_printf(c->file_arena, "<%s>",
                                                        parse_locals[i][0])));
    return locals;
}

int converters_python_line(const Clinic *c)
{
    ConverterPython *py = *converters_python_slot(c);
    return py && py->vm ? pyvm_line_running(py->vm) : 0;
}

