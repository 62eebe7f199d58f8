/*
 * converters_py.c — converters as Python classes, and the one dispatch of
 * their methods.
 *
 * clinic.py's converters are Python classes; a python block subclasses
 * them and overrides any method (converter_init, parse_arg, cleanup,
 * render, ...), calling the built-in ones back through super().  Here
 * every converter class is also a class of the file's interpreter
 * (pyvm.h): the built-in ones carry their methods as natives that run
 * the C of converters.c and converters_render.c, a block's subclasses
 * carry Python functions.  Every method call, from the generator or from
 * Python, goes through the same lookup: the class's MRO finds either a
 * Python function, which runs in the interpreter, or a built-in, whose
 * C runs with the kind of the class that defines it.  A converter that
 * is no python block's pays nothing: its class has no interpreter class,
 * and the built-in runs at once.
 *
 * A converter instance is seen from Python through a host object: the
 * attributes clinic.py's CConverter has read and write the Converter
 * struct; others go to a dict of its own, which a copy copies (copy.copy
 * is how clinic.py clones a function).  Functions, parameters, classes
 * and modules are host objects too, and CRenderData is an instance whose
 * list attributes are synchronised with the C lists whenever control
 * crosses between C and Python.
 *
 * The file's interpreter (made on the first python block) also holds
 * clinic.py's module namespace: see the end of this file.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "converters_impl.h"

/* ---- the file's interpreter state -------------------------------------------- */

/* A pointer to its host object (functions, parameters, ...). */
typedef struct HostEntry {
    const void *ptr;
    PyObj *obj;
} HostEntry;

struct ConverterPython {
    Clinic *c;
    PyVM *vm;
    PyObj **row_class;          /* converter_rows' classes, made on use */
    PyObj **return_row_class;   /* return_rows' classes */
    PyObj *cls_function, *cls_parameter, *cls_class, *cls_module;
    PyObj *cls_renderdata, *cls_landmine;
    PyObj *landmine;
    HostEntry *hosts;           /* open addressing, a power of two */
    size_t nhosts, caphosts;
};

static ConverterPython *python_of(Clinic *c);

static ConverterPython *python_of_vm(PyVM *vm)
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
        py->hosts = arena_array_of(py->c->arena, HostEntry, py->caphosts);
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

/* ---- values across the boundary ----------------------------------------------- */

static PyValue str_or_none(ConverterPython *py, const char *s)
{
    return s ? pyvm_str(py->vm, s) : py_none;
}

/* An exception from Python code the generator called: clinic.py's parse
   loop reports any exception as "Exception raised during parsing". */
CLINIC_NORETURN static void python_error(ConverterPython *py)
{
    const PyError *e = pyvm_error(py->vm);
    clinic_fail(py->c, e->line > 0 ? e->line : 0,
                "Exception raised during parsing:\n%s", e->text);
}

CLINIC_NORETURN static void fail_exception(Clinic *c, const char *text)
{
    clinic_fail(c, 0, "Exception raised during parsing:\n%s", text);
}

/* A method's result where clinic.py uses it as a str ("" for None where
   clinic.py only tests its truth). */
static const char *result_str(ConverterPython *py, PyValue v, bool none_ok,
                              const char *method)
{
    if (v.kind == PY_STR)
        return v.s;
    if (v.kind == PY_NONE && none_ok)
        return NULL;
    if (!pyvm_truthy(py->vm, v))
        return "";
    fail_exception(py->c, arena_printf(py->c->arena, "TypeError: %s() "
                   "returned %s where clinic.py needs a str", method,
                   pyvm_type_name(py->vm, v)));
}

/* Keyword arguments given to a converter, for a Python converter_init. */
static void kwargs_of(ConverterPython *py, const ConverterArg *args,
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
static ConverterArg *args_of_dict(ConverterPython *py, PyObj *dict,
                                  size_t *n)
{
    PyValue k, v;
    size_t count = 0;
    while (dict && pyvm_dict_entry(dict, count, &k, &v))
        count++;
    ConverterArg *args = arena_array_of(py->c->arena, ConverterArg, count + 1);
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
    if (v.kind == PY_TUPLE) {
        unsigned bits = 0;
        for (size_t i = 0; i < v.nitems; i++)
            bits |= types_of(py, v.items[i]);
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
    for (size_t i = 0; i < conv_type_order_len && n < 16; i++) {
        unsigned bit = conv_type_order[i];
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

/* ---- CRenderData, template dicts and argument lists ------------------------------ */

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

static void fill_list(ConverterPython *py, PyObj *list, const StrList *from)
{
    pyvm_list_clear(list);
    for (size_t i = 0; i < from->len; i++)
        pyvm_list_append(py->vm, list, pyvm_str(py->vm, from->items[i]));
}

/* A Python list of str back into a StrList, or the TypeError clinic.py's
   ''.join would raise later. */
static void read_list(ConverterPython *py, PyValue v, StrList *to)
{
    PyObj *list = pyvm_as_list(v);
    if (!list)
        fail_exception(py->c, arena_printf(py->c->arena, "TypeError: clinic "
                       "needs a list of str, not %s", pyvm_type_name(py->vm, v)));
    to->len = 0;
    for (size_t i = 0; i < pyvm_list_len(list); i++) {
        PyValue item = pyvm_list_item(list, i);
        if (item.kind != PY_STR)
            fail_exception(py->c, arena_printf(py->c->arena, "TypeError: "
                           "sequence item %zu: expected str instance, %s "
                           "found", i, pyvm_type_name(py->vm, item)));
        strlist_push(py->c->arena, to, item.s);
    }
}

/* The CRenderData object for data, its lists refreshed from C. */
static PyValue data_to_python(ConverterPython *py, RenderData *data)
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
        fill_list(py, list, from);
    }
    pyvm_dict_set(py->vm, dict, "return_value",
                  str_or_none(py, data->return_value));
    return w;
}

/* What Python code did to the object, back into data. */
static void data_from_python(ConverterPython *py, PyValue w, RenderData *data)
{
    PyObj *dict = pyvm_instance_dict(w);
    for (size_t i = 0; i < NLISTS; i++) {
        PyValue v;
        if (!pyvm_dict_get(py->vm, dict, render_lists[i].name, &v))
            fail_exception(py->c, arena_printf(py->c->arena, "AttributeError: "
                           "'CRenderData' object has no attribute '%s'",
                           render_lists[i].name));
        read_list(py, v, (StrList *)((char *)data + render_lists[i].offset));
    }
    PyValue rv;
    if (pyvm_dict_get(py->vm, dict, "return_value", &rv))
        data->return_value = rv.kind == PY_STR ? rv.s : NULL;
}

static RenderData *unwrap_data(ConverterPython *py, PyValue v)
{
    if (!pyvm_instance_host(v) ||
        !pyvm_is_subclass(pyvm_class_of(py->vm, v), py->cls_renderdata))
        pyvm_raise(py->vm, "TypeError", "clinic needs a CRenderData, not %s",
                   pyvm_type_name(py->vm, v));
    RenderData *d = pyvm_instance_host(v);
    data_from_python(py, v, d);
    return d;
}

static PyValue strmap_to_python(ConverterPython *py, const StrMap *m)
{
    PyObj *d = pyvm_dict_new(py->vm);
    for (size_t i = 0; i < m->len; i++)
        pyvm_dict_set(py->vm, d, m->keys[i], pyvm_str(py->vm, m->values[i]));
    return pyvm_obj(d);
}

static void strmap_from_python(ConverterPython *py, PyValue v, StrMap *m)
{
    PyObj *d = pyvm_as_dict(v);
    PyValue key, value;
    for (size_t i = 0; d && pyvm_dict_entry(d, i, &key, &value); i++)
        if (key.kind == PY_STR)
            strmap_set(py->c->arena, m, key.s, pyvm_to_str(py->vm, value));
}

static PyValue strlist_to_python(ConverterPython *py, const StrList *l)
{
    PyObj *list = pyvm_list_new(py->vm);
    fill_list(py, list, l);
    return pyvm_obj(list);
}

/* ---- host objects: converters ------------------------------------------------------- */

typedef enum FieldKind { F_STR, F_BOOL, F_VALUE, F_TYPES } FieldKind;

typedef struct Field {
    const char *name;
    FieldKind kind;
    size_t offset;
} Field;

/* CConverter's attributes, as the instance holds them. */
static const Field converter_fields[] = {
#define S(f) { #f, F_STR, offsetof(Converter, f) }
#define B(f) { #f, F_BOOL, offsetof(Converter, f) }
    S(name), S(py_name), S(type), S(c_default), S(py_default),
    S(c_ignored_default), S(converter), S(format_unit), S(encoding),
    S(subclass_of), S(signature_name),
    { "default", F_VALUE, offsetof(Converter, default_value) },
    { "default_type", F_TYPES, offsetof(Converter, default_type) },
    B(impl_by_reference), B(parse_by_reference), B(length),
    B(show_in_signature),
#undef S
#undef B
};

/* The same attributes as a class holds them, for the classes blocks
   make and the interpreter classes of the built-in ones. */
static const Field class_fields[] = {
#define S(f) { #f, F_STR, offsetof(ConverterClass, f) }
#define B(f) { #f, F_BOOL, offsetof(ConverterClass, f) }
    { "default", F_VALUE, offsetof(ConverterClass, default_value) },
    S(type), S(c_default), S(py_default), S(c_ignored_default), S(converter),
    S(format_unit), S(encoding), S(subclass_of), S(signature_name),
    { "default_type", F_TYPES, offsetof(ConverterClass, default_type) },
    B(impl_by_reference), B(parse_by_reference), B(length),
    B(show_in_signature),
#undef S
#undef B
};

static const Field return_fields[] = {
#define S(f) { #f, F_STR, offsetof(ReturnConverter, f) }
    S(type), S(py_default), S(cast), S(conversion_fn), S(unsigned_cast),
#undef S
};

static const Field return_class_fields[] = {
#define S(f) { #f, F_STR, offsetof(ReturnConverterClass, f) }
    S(type), S(cast), S(conversion_fn), S(unsigned_cast),
#undef S
};

static const Field *find_field(const Field *fields, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(fields[i].name, name) == 0)
            return &fields[i];
    return NULL;
}

static PyValue get_field(ConverterPython *py, const Field *f, const void *base)
{
    const char *p = (const char *)base + f->offset;
    switch (f->kind) {
    case F_STR: return str_or_none(py, *(const char *const *)p);
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
                       pyvm_type_name(py->vm, v));
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

static Function *unwrap_function(ConverterPython *py, PyValue v)
{
    if (v.kind == PY_NONE)
        return NULL;
    if (!pyvm_instance_host(v) ||
        !pyvm_is_subclass(pyvm_class_of(py->vm, v), py->cls_function))
        pyvm_raise(py->vm, "TypeError", "clinic needs a Function, not %s",
                   pyvm_type_name(py->vm, v));
    return pyvm_instance_host(v);
}

static Parameter *unwrap_parameter(ConverterPython *py, PyValue v)
{
    if (!pyvm_instance_host(v) ||
        !pyvm_is_subclass(pyvm_class_of(py->vm, v), py->cls_parameter))
        pyvm_raise(py->vm, "TypeError", "clinic needs a Parameter, not %s",
                   pyvm_type_name(py->vm, v));
    return pyvm_instance_host(v);
}

static PyValue function_object(ConverterPython *py, const Function *f);
static PyValue parameter_object(ConverterPython *py, const Parameter *p);

static bool converter_getattr(PyVM *vm, PyObj *self, const char *name,
                              PyValue *out)
{
    ConverterPython *py = python_of_vm(vm);
    Converter *conv = pyvm_instance_host(pyvm_obj(self));
    const Field *f = find_field(converter_fields,
                                sizeof converter_fields / sizeof *converter_fields,
                                name);
    if (f) {
        *out = get_field(py, f, conv);
        return true;
    }
    ConverterKind kind = converter_row_of(conv->cls)->kind;
    if (!strcmp(name, "function")) {
        *out = conv->initializing ? pyvm_obj(py->landmine)
                                  : function_object(py, conv->function);
        return true;
    }
    if (!strcmp(name, "parameter") && conv->parameter) {
        *out = parameter_object(py, conv->parameter);
        return true;
    }
    if (!strcmp(name, "specified_type") && kind == CK_SELF) {
        *out = str_or_none(py, conv->self_type);
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
    ConverterPython *py = python_of_vm(vm);
    Converter *conv = pyvm_instance_host(pyvm_obj(self));
    const Field *f = find_field(converter_fields,
                                sizeof converter_fields / sizeof *converter_fields,
                                name);
    if (f) {
        set_field(py, f, conv, v, pyvm_class_name(pyvm_class_of(vm, pyvm_obj(self))));
        return true;
    }
    if (!strcmp(name, "function")) {
        /* clinic.py's own __init__ sets the LandMine, then the function */
        if (!(v.kind == PY_OBJECT && v.obj == py->landmine))
            conv->function = unwrap_function(py, v);
        return true;
    }
    if (!strcmp(name, "parameter")) {
        conv->parameter = unwrap_parameter(py, v);
        return true;
    }
    if (!strcmp(name, "specified_type") &&
        converter_row_of(conv->cls)->kind == CK_SELF) {
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
    const Field *f = find_field(return_fields,
                                sizeof return_fields / sizeof *return_fields,
                                name);
    if (!f)
        return false;
    *out = get_field(python_of_vm(vm), f, rc);
    return true;
}

static bool return_converter_setattr(PyVM *vm, PyObj *self, const char *name,
                                     PyValue v)
{
    ReturnConverter *rc = pyvm_instance_host(pyvm_obj(self));
    const Field *f = find_field(return_fields,
                                sizeof return_fields / sizeof *return_fields,
                                name);
    if (!f)
        return false;
    set_field(python_of_vm(vm), f, rc, v, "CReturnConverter");
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

static PyObj *row_class(ConverterPython *py, const ConverterRow *row);
static PyObj *return_row_class(ConverterPython *py, const ReturnRow *row);

/* The object a python block sees for conv (the same one every time). */
static PyValue converter_object(ConverterPython *py, const Converter *cconv)
{
    Converter *conv = (Converter *)cconv;
    if (!conv->object) {
        PyObj *cls = conv->cls->pyclass ? conv->cls->pyclass
                   : row_class(py, converter_row_of(conv->cls));
        if (!conv->attrs)
            conv->attrs = pyvm_dict_new(py->vm);
        conv->object = pyvm_instance_new(py->vm, cls, conv, conv->attrs);
    }
    return pyvm_obj(conv->object);
}

static PyValue return_converter_object(ConverterPython *py,
                                       ReturnConverter *rc)
{
    if (!rc->object) {
        PyObj *cls = rc->cls->pyclass ? rc->cls->pyclass
                   : return_row_class(py, return_row_of(rc->cls));
        if (!rc->attrs)
            rc->attrs = pyvm_dict_new(py->vm);
        rc->object = pyvm_instance_new(py->vm, cls, rc, rc->attrs);
    }
    return pyvm_obj(rc->object);
}

static Converter *unwrap_converter(ConverterPython *py, PyValue self,
                                   const char *method)
{
    Converter *conv = pyvm_instance_host(self);
    if (!conv || !pyvm_is_subclass(pyvm_class_of(py->vm, self),
                                   row_class(py, &converter_rows[0])))
        pyvm_raise(py->vm, "TypeError", "descriptor '%s' requires a "
                   "'CConverter' object but received a '%s'", method,
                   pyvm_type_name(py->vm, self));
    return conv;
}

static ReturnConverter *unwrap_return_converter(ConverterPython *py,
                                                PyValue self,
                                                const char *method)
{
    ReturnConverter *rc = pyvm_instance_host(self);
    if (!rc || !pyvm_is_subclass(pyvm_class_of(py->vm, self),
                                 return_row_class(py, &return_rows[0])))
        pyvm_raise(py->vm, "TypeError", "descriptor '%s' requires a "
                   "'CReturnConverter' object but received a '%s'", method,
                   pyvm_type_name(py->vm, self));
    return rc;
}

void converter_copy_python(Clinic *c, Converter *copy)
{
    copy->object = NULL;
    if (copy->attrs)
        copy->attrs = pyvm_dict_copy(python_of(c)->vm, copy->attrs);
}

/* ---- host objects: functions, parameters, classes, modules, LandMine ---------------- */

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

static PyValue function_object(ConverterPython *py, const Function *f)
{
    return host_object(py, py->cls_function, f);
}

static PyValue parameter_object(ConverterPython *py, const Parameter *p)
{
    return host_object(py, py->cls_parameter, p);
}

static bool function_getattr(PyVM *vm, PyObj *self, const char *name,
                             PyValue *out)
{
    ConverterPython *py = python_of_vm(vm);
    const Function *f = pyvm_instance_host(pyvm_obj(self));
    if (!strcmp(name, "name"))
        *out = str_or_none(py, f->name);
    else if (!strcmp(name, "full_name"))
        *out = str_or_none(py, f->full_name);
    else if (!strcmp(name, "module"))
        *out = module_object(py, f->module);
    else if (!strcmp(name, "cls"))
        *out = class_object(py, f->cls);
    else if (!strcmp(name, "parent"))
        *out = f->cls ? class_object(py, f->cls) : module_object(py, f->module);
    else if (!strcmp(name, "c_basename"))
        *out = str_or_none(py, f->c_basename);
    else if (!strcmp(name, "return_converter"))
        *out = f->return_converter
                   ? return_converter_object(py, f->return_converter) : py_none;
    else if (!strcmp(name, "docstring"))
        *out = str_or_none(py, f->docstring ? f->docstring : "");
    else if (!strcmp(name, "kind"))
        *out = pyvm_str(vm, function_kinds[f->kind]);
    else if (!strcmp(name, "coexist"))
        *out = pyvm_bool(f->coexist);
    else if (!strcmp(name, "docstring_only"))
        *out = pyvm_bool(f->docstring_only);
    else if (!strcmp(name, "parameters")) {
        PyObj *d = pyvm_dict_new(vm);
        for (size_t i = 0; i < f->nparameters; i++)
            pyvm_dict_set(vm, d, f->parameters[i]->key,
                          parameter_object(py, f->parameters[i]));
        *out = pyvm_obj(d);
    } else
        return false;
    return true;
}

static const int parameter_kinds[] = {
    /* inspect.Parameter's kinds are numbered so */
    [PARAM_POSITIONAL_ONLY] = 0, [PARAM_POSITIONAL_OR_KEYWORD] = 1,
    [PARAM_VAR_POSITIONAL] = 2, [PARAM_KEYWORD_ONLY] = 3,
};

static bool parameter_getattr(PyVM *vm, PyObj *self, const char *name,
                              PyValue *out)
{
    ConverterPython *py = python_of_vm(vm);
    const Parameter *p = pyvm_instance_host(pyvm_obj(self));
    if (!strcmp(name, "name"))
        *out = str_or_none(py, p->name);
    else if (!strcmp(name, "kind"))
        *out = pyvm_int(vm, parameter_kinds[p->kind]);
    else if (!strcmp(name, "default"))
        *out = pyvm_import(vm, p->default_value);
    else if (!strcmp(name, "function"))
        *out = function_object(py, p->function);
    else if (!strcmp(name, "converter"))
        *out = p->converter ? converter_object(py, p->converter) : py_none;
    else if (!strcmp(name, "docstring"))
        *out = str_or_none(py, p->docstring ? p->docstring : "");
    else if (!strcmp(name, "group"))
        *out = pyvm_int(vm, p->group);
    else
        return false;
    return true;
}

static bool class_getattr(PyVM *vm, PyObj *self, const char *name,
                          PyValue *out)
{
    ConverterPython *py = python_of_vm(vm);
    const Class *cls = pyvm_instance_host(pyvm_obj(self));
    if (!strcmp(name, "name"))
        *out = str_or_none(py, cls->name);
    else if (!strcmp(name, "module"))
        *out = module_object(py, cls->module);
    else if (!strcmp(name, "cls"))
        *out = class_object(py, cls->cls);
    else if (!strcmp(name, "parent"))
        *out = cls->cls ? class_object(py, cls->cls)
                        : module_object(py, cls->module);
    else if (!strcmp(name, "typedef"))
        *out = str_or_none(py, cls->typedef_);
    else if (!strcmp(name, "type_object"))
        *out = str_or_none(py, cls->type_object);
    else
        return false;
    return true;
}

static bool module_getattr(PyVM *vm, PyObj *self, const char *name,
                           PyValue *out)
{
    ConverterPython *py = python_of_vm(vm);
    const Module *m = pyvm_instance_host(pyvm_obj(self));
    if (!strcmp(name, "name"))
        *out = str_or_none(py, m->name);
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
    ConverterPython *py = python_of_vm(vm);
    clinic_fail(py->c, 0, "Stepped on a land mine, trying to access "
                "attribute %s:\n%s", py_repr_str(py->c->arena, name,
                                                 strlen(name)),
                landmine_message);
}

static const PyHostOps function_ops = { function_getattr, NULL, NULL };
static const PyHostOps parameter_ops = { parameter_getattr, NULL, NULL };
static const PyHostOps class_ops = { class_getattr, NULL, NULL };
static const PyHostOps module_ops = { module_getattr, NULL, NULL };
static const PyHostOps landmine_ops = { landmine_getattr, NULL, NULL };

/* The reprs clinic.py gives them, and Parameter's predicates. */
static PyValue host_repr(PyVM *vm, const PyArgs *a, void *data)
{
    const char *what = data;
    PyValue self = a->args[0];
    void *host = pyvm_instance_host(self);
    if (!strcmp(what, "LandMine"))
        return pyvm_str(vm, arena_printf(python_of_vm(vm)->c->arena,
                        "<LandMine %s>", py_repr_str(python_of_vm(vm)->c->arena,
                        landmine_message, strlen(landmine_message))));
    const char *name = !strcmp(what, "Function") ? ((Function *)host)->name
                     : !strcmp(what, "Parameter") ? ((Parameter *)host)->name
                     : !strcmp(what, "Class") ? ((Class *)host)->name
                     : ((Module *)host)->name;
    return pyvm_str(vm, arena_printf(python_of_vm(vm)->c->arena,
                                     "<clinic.%s %s>", what, name));
}

static PyValue parameter_is(PyVM *vm, const PyArgs *a, void *data)
{
    PyValue v[1];
    pyvm_bind(vm, a, "is_kind", "self", v, NULL);
    ConverterPython *py = python_of_vm(vm);
    const Parameter *p = unwrap_parameter(py, v[0]);
    ParamKind kind = (ParamKind)(intptr_t)data;
    return pyvm_bool(p->kind == kind);
}

static PyValue parameter_is_optional(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[1];
    pyvm_bind(vm, a, "is_optional", "self", v, NULL);
    return pyvm_bool(param_is_optional(unwrap_parameter(python_of_vm(vm), v[0])));
}

/* ---- the methods: a table, the natives Python calls, the dispatch C calls ------------ */

#define K(kind) (UINT64_C(1) << (kind))

typedef struct MethodDef {
    const char *name;
    PyNativeFn native;
    uint64_t kinds;            /* the classes that define it (by kind) */
    bool property;             /* a property, not a method */
    int arg;                   /* the snippet, for the four snippet methods */
} MethodDef;

/* A native bound to the class whose dict holds it. */
typedef struct Binding {
    const MethodDef *def;
    const ConverterRow *row;
    const ReturnRow *return_row;
    ConverterPython *py;
} Binding;

static bool given(PyValue v)
{
    return v.kind != PY_UNSPECIFIED;
}

static const char *need_str(ConverterPython *py, PyValue v, const char *what)
{
    if (v.kind != PY_STR)
        pyvm_raise(py->vm, "TypeError", "%s must be a str, not %s", what,
                   pyvm_type_name(py->vm, v));
    return v.s;
}

static PyValue m_init(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[5];
    PyObj *kw;
    pyvm_bind(vm, a, "CConverter.__init__",
              "self name py_name function default= **", v, &kw);
    Converter *conv = unwrap_converter(py, v[0], "__init__");
    size_t n;
    ConverterArg *args = args_of_dict(py, kw, &n);
    builtin_cconverter_init(py->c, conv, need_str(py, v[1], "name"),
                            need_str(py, v[2], "py_name"),
                            unwrap_function(py, v[3]),
                            given(v[4]) ? pyvm_export(vm, v[4]) : py_unspecified,
                            args, n);
    return py_none;
}

static PyValue m_converter_init(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[1];
    PyObj *kw;
    pyvm_bind(vm, a, arena_printf(py->c->arena, "%s.converter_init",
                                  b->row->init_owner), "self **", v, &kw);
    Converter *conv = unwrap_converter(py, v[0], "converter_init");
    size_t n;
    ConverterArg *args = args_of_dict(py, kw, &n);
    builtin_converter_init(py->c, b->row, conv, args, n);
    return py_none;
}

static PyValue m_is_optional(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "is_optional", "self", v, NULL);
    return pyvm_bool(builtin_is_optional(unwrap_converter(b->py, v[0],
                                                          "is_optional")));
}

/* render(parameter, data) and its two halves. */
static PyValue m_render(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[3];
    pyvm_bind(vm, a, b->def->name, "self parameter data", v, NULL);
    Converter *conv = unwrap_converter(py, v[0], b->def->name);
    Parameter *p = unwrap_parameter(py, v[1]);
    RenderData *d = unwrap_data(py, v[2]);
    if (!strcmp(b->def->name, "_render_self"))
        builtin_render_self(py->c, conv, p, d);
    else if (!strcmp(b->def->name, "_render_non_self"))
        builtin_render_non_self(py->c, conv, p, d);
    else
        builtin_render(py->c, b->row->kind, conv, p, d);
    data_to_python(py, d);
    return py_none;
}

static PyValue m_length_name(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "length_name", "self", v, NULL);
    return str_or_none(b->py, builtin_length_name(b->py->c,
                       unwrap_converter(b->py, v[0], "length_name")));
}

static PyValue m_parse_argument(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[2];
    pyvm_bind(vm, a, "parse_argument", "self list", v, NULL);
    Converter *conv = unwrap_converter(py, v[0], "parse_argument");
    StrList l = { 0 };
    read_list(py, v[1], &l);
    builtin_parse_argument(py->c, conv, &l);
    fill_list(py, pyvm_as_list(v[1]), &l);
    return py_none;
}

static PyValue m_simple_declaration(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[3];
    pyvm_bind(vm, a, "simple_declaration", "self by_reference= * in_parser=",
              v, NULL);
    Converter *conv = unwrap_converter(b->py, v[0], "simple_declaration");
    return pyvm_str(vm, builtin_simple_declaration(b->py->c, conv,
                    given(v[1]) && pyvm_truthy(vm, v[1]),
                    given(v[2]) && pyvm_truthy(vm, v[2])));
}

static PyValue m_declaration(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[2];
    pyvm_bind(vm, a, "declaration", "self * in_parser=", v, NULL);
    return pyvm_str(vm, builtin_declaration(b->py->c,
                    unwrap_converter(b->py, v[0], "declaration")));
}

static PyValue m_snippet(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, b->def->name, "self", v, NULL);
    Converter *conv = unwrap_converter(b->py, v[0], b->def->name);
    return pyvm_str(vm, builtin_snippet(b->py->c, b->row->kind, conv,
                                        (ConverterSnippet)b->def->arg));
}

static PyValue m_pre_render(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "pre_render", "self", v, NULL);
    builtin_pre_render(b->py->c, b->row->kind,
                       unwrap_converter(b->py, v[0], "pre_render"));
    return py_none;
}

static PyValue m_parse_arg(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[3];
    pyvm_bind(vm, a, "parse_arg", "self argname displayname", v, NULL);
    Converter *conv = unwrap_converter(py, v[0], "parse_arg");
    return str_or_none(py, builtin_parse_arg(py->c, b->row->kind, conv,
                       need_str(py, v[1], "argname"),
                       need_str(py, v[2], "displayname")));
}

static PyValue m_set_template_dict(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[2];
    pyvm_bind(vm, a, "set_template_dict", "self template_dict", v, NULL);
    Converter *conv = unwrap_converter(py, v[0], "set_template_dict");
    PyObj *dict = pyvm_as_dict(v[1]);
    if (!dict)
        pyvm_raise(vm, "TypeError", "template_dict must be a dict");
    StrMap m = { 0 };
    strmap_from_python(py, v[1], &m);
    builtin_set_template_dict(py->c, b->row->kind, conv, &m);
    for (size_t i = 0; i < m.len; i++)
        pyvm_dict_set(vm, dict, m.keys[i], pyvm_str(vm, m.values[i]));
    return py_none;
}

static PyValue m_parser_name(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "parser_name", "self", v, NULL);
    return pyvm_str(vm, builtin_parser_name(b->py->c,
                    unwrap_converter(b->py, v[0], "parser_name")));
}

static PyValue m_parser_type(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    PyValue v[1];
    pyvm_bind(vm, a, "parser_type", "self", v, NULL);
    return str_or_none(b->py, builtin_parser_type(b->py->c,
                       unwrap_converter(b->py, v[0], "parser_type")));
}

/* Which built-in classes define each of CConverter's methods, as
   clinic.py's class bodies do. */
static const MethodDef converter_methods[] = {
    { "__init__", m_init, K(CK_BASE), false, 0 },
    { "converter_init", m_converter_init,
      K(CK_BASE) | K(CK_BOOL) | K(CK_DEFINING_CLASS) | K(CK_CHAR) |
      K(CK_UNSIGNED_CHAR) | K(CK_UNSIGNED_SHORT) | K(CK_INT) |
      K(CK_UNSIGNED_INT) | K(CK_UNSIGNED_LONG) | K(CK_UNSIGNED_LONG_LONG) |
      K(CK_PY_SSIZE_T) | K(CK_SLICE_INDEX) | K(CK_OBJECT) | K(CK_STR) |
      K(CK_PY_UNICODE) | K(CK_PY_BUFFER) | K(CK_SELF), false, 0 },
    { "is_optional", m_is_optional, K(CK_BASE), false, 0 },
    { "_render_self", m_render, K(CK_BASE), false, 0 },
    { "_render_non_self", m_render, K(CK_BASE), false, 0 },
    { "render", m_render, K(CK_BASE) | K(CK_DEFINING_CLASS) | K(CK_SELF),
      false, 0 },
    { "length_name", m_length_name, K(CK_BASE), false, 0 },
    { "parse_argument", m_parse_argument, K(CK_BASE), false, 0 },
    { "simple_declaration", m_simple_declaration, K(CK_BASE), false, 0 },
    { "declaration", m_declaration, K(CK_BASE), false, 0 },
    { "initialize", m_snippet, K(CK_BASE), false, SNIPPET_INITIALIZE },
    { "modify", m_snippet, K(CK_BASE), false, SNIPPET_MODIFY },
    { "post_parsing", m_snippet, K(CK_BASE) | K(CK_STR), false,
      SNIPPET_POST_PARSING },
    { "cleanup", m_snippet, K(CK_BASE) | K(CK_PY_UNICODE) | K(CK_PY_BUFFER),
      false, SNIPPET_CLEANUP },
    { "pre_render", m_pre_render, K(CK_BASE) | K(CK_SELF), false, 0 },
    { "parse_arg", m_parse_arg,
      K(CK_BASE) | K(CK_BOOL) | K(CK_CHAR) | K(CK_UNSIGNED_CHAR) |
      K(CK_SHORT) | K(CK_UNSIGNED_SHORT) | K(CK_INT) | K(CK_UNSIGNED_INT) |
      K(CK_LONG) | K(CK_UNSIGNED_LONG) | K(CK_LONG_LONG) |
      K(CK_UNSIGNED_LONG_LONG) | K(CK_PY_SSIZE_T) | K(CK_SIZE_T) |
      K(CK_FLOAT) | K(CK_DOUBLE) | K(CK_PY_COMPLEX) | K(CK_STR) |
      K(CK_PYBYTESOBJECT) | K(CK_PYBYTEARRAYOBJECT) | K(CK_UNICODE) |
      K(CK_PY_UNICODE) | K(CK_PY_BUFFER), false, 0 },
    { "set_template_dict", m_set_template_dict,
      K(CK_BASE) | K(CK_DEFINING_CLASS) | K(CK_SELF), false, 0 },
    { "parser_name", m_parser_name, K(CK_BASE), true, 0 },
    { "parser_type", m_parser_type, K(CK_SELF), true, 0 },
};
#define NMETHODS (sizeof converter_methods / sizeof converter_methods[0])

/* ---- the return converters' methods --------------------------------------------------- */

static void return_converter_call_init(ConverterPython *py, Clinic *c,
                                       ReturnConverter *rc,
                                       const ConverterArg *args, size_t nargs);

static PyValue rm_init(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[1];
    PyObj *kw;
    pyvm_bind(vm, a, "CReturnConverter.__init__", "self **", v, &kw);
    ReturnConverter *rc = unwrap_return_converter(py, v[0], "__init__");
    size_t n;
    ConverterArg *args = args_of_dict(py, kw, &n);
    return_converter_call_init(py, py->c, rc, args, n);
    return py_none;
}

static PyValue rm_return_converter_init(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[1];
    pyvm_bind(vm, a, "CReturnConverter.return_converter_init", "self", v,
              NULL);
    return py_none;
}

static PyValue rm_declare(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[3];
    pyvm_bind(vm, a, "declare", "self data name=", v, NULL);
    ReturnConverter *rc = unwrap_return_converter(py, v[0], "declare");
    RenderData *d = unwrap_data(py, v[1]);
    builtin_declare(py->c, rc, d, given(v[2]) ? need_str(py, v[2], "name")
                                              : NULL);
    data_to_python(py, d);
    return py_none;
}

static PyValue rm_err_occurred_if(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    bool null_pointer = b->def->arg;
    PyValue v[3];
    pyvm_bind(vm, a, b->def->name, null_pointer ? "self variable data"
                                                : "self expr data", v, NULL);
    unwrap_return_converter(py, v[0], b->def->name);
    const char *text = pyvm_to_str(vm, v[1]);
    RenderData *d = unwrap_data(py, v[2]);
    if (null_pointer)
        builtin_err_occurred_if_null_pointer(py->c, text, d);
    else
        builtin_err_occurred_if(py->c, text, d);
    data_to_python(py, d);
    return py_none;
}

static PyValue rm_render(PyVM *vm, const PyArgs *a, void *data)
{
    const Binding *b = data;
    ConverterPython *py = b->py;
    PyValue v[3];
    pyvm_bind(vm, a, "render", "self function data", v, NULL);
    ReturnConverter *rc = unwrap_return_converter(py, v[0], "render");
    Function *f = unwrap_function(py, v[1]);
    RenderData *d = unwrap_data(py, v[2]);
    builtin_return_render(py->c, b->return_row->kind, rc, f, d);
    data_to_python(py, d);
    return py_none;
}

#define RK(kind) (UINT64_C(1) << (kind))

static const MethodDef return_methods[] = {
    { "__init__", rm_init, RK(RK_OBJECT), false, 0 },
    { "return_converter_init", rm_return_converter_init, RK(RK_OBJECT), false,
      0 },
    { "declare", rm_declare, RK(RK_OBJECT), false, 0 },
    { "err_occurred_if", rm_err_occurred_if, RK(RK_OBJECT), false, 0 },
    { "err_occurred_if_null_pointer", rm_err_occurred_if, RK(RK_OBJECT),
      false, 1 },
    { "render", rm_render,
      RK(RK_OBJECT) | RK(RK_NONETYPE) | RK(RK_BOOL) | RK(RK_LONG) |
      RK(RK_INIT) | RK(RK_DOUBLE), false, 0 },
};
#define NRETURN_METHODS (sizeof return_methods / sizeof return_methods[0])

/* ---- the dispatch ------------------------------------------------------------------------ */

/* The binding behind a value found on a class, when it is one of the
   built-in methods above (directly, or as a property's getter). */
static const Binding *binding_of(ConverterPython *py, PyValue v)
{
    PyValue fget;
    if (pyvm_property_fget(py->vm, v, &fget))
        v = fget;
    void *data;
    PyNativeFn fn = pyvm_native_fn(v, &data);
    if (!fn)
        return NULL;
    for (size_t i = 0; i < NMETHODS; i++)
        if (converter_methods[i].native == fn)
            return data;
    for (size_t i = 0; i < NRETURN_METHODS; i++)
        if (return_methods[i].native == fn)
            return data;
    return NULL;
}

/* How an instance of cls answers method name: a Python override (true;
   *fn is what the class has), or the built-in of the class *row that
   defines it (false).  A class no python block made has no override:
   that costs one test. */
static bool find_override(Clinic *c, const ConverterClass *cls,
                          const char *name, ConverterPython **pyp,
                          PyValue *fn, const ConverterRow **row)
{
    *row = converter_row_of(cls);
    if (!cls->pyclass)
        return false;
    ConverterPython *py = python_of(c);
    *pyp = py;
    PyValue v;
    if (!pyvm_class_lookup(cls->pyclass, name, &v, NULL))
        return false;
    const Binding *b = binding_of(py, v);
    if (b) {
        *row = b->row;
        return false;
    }
    *fn = v;
    return true;
}

static bool find_return_override(Clinic *c, const ReturnConverterClass *cls,
                                 const char *name, ConverterPython **pyp,
                                 PyValue *fn, const ReturnRow **row)
{
    *row = return_row_of(cls);
    if (!cls->pyclass)
        return false;
    ConverterPython *py = python_of(c);
    *pyp = py;
    PyValue v;
    if (!pyvm_class_lookup(cls->pyclass, name, &v, NULL))
        return false;
    const Binding *b = binding_of(py, v);
    if (b) {
        *row = b->return_row;
        return false;
    }
    *fn = v;
    return true;
}

/* Calls a Python override on self; a property's getter, and for a
   property of CConverter's a plain value, are what the attribute is. */
static PyValue call_override(ConverterPython *py, PyValue fn, PyValue self,
                             const PyValue *args, size_t nargs,
                             const char *const *kwnames,
                             const PyValue *kwvalues, size_t nkw,
                             bool property)
{
    PyValue fget, result;
    if (pyvm_property_fget(py->vm, fn, &fget)) {
        fn = fget;
        nargs = nkw = 0;
    } else if (property) {
        return fn;
    }
    PyArgs a = { args, nargs, kwnames, kwvalues, nkw };
    if (!pyvm_pcall_method(py->vm, fn, self, &a, &result))
        python_error(py);
    return result;
}

static PyValue call0(ConverterPython *py, PyValue fn, const Converter *conv)
{
    return call_override(py, fn, converter_object(py, conv), NULL, 0, NULL,
                         NULL, 0, false);
}

Converter *converter_create(Clinic *c, const ConverterClass *cls,
                            const char *name, const char *py_name,
                            Function *function, PyValue default_value,
                            const ConverterArg *args, size_t nargs)
{
    Converter *conv = converter_alloc(c, cls);
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, cls, "__init__", &py, &fn, &row)) {
        builtin_cconverter_init(c, conv, name, py_name, function,
                                default_value, args, nargs);
        return conv;
    }
    const char **names;
    PyValue *values;
    kwargs_of(py, args, nargs, &names, &values);
    PyValue pos[4] = { pyvm_str(py->vm, name), pyvm_str(py->vm, py_name),
                       function_object(py, function),
                       pyvm_import(py->vm, default_value) };
    call_override(py, fn, converter_object(py, conv), pos, 4, names, values,
                  nargs, false);
    return conv;
}

void converter_call_init(Clinic *c, Converter *conv, const ConverterArg *args,
                         size_t nargs)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    conv->initializing = true;
    if (!find_override(c, conv->cls, "converter_init", &py, &fn, &row)) {
        builtin_converter_init(c, row, conv, args, nargs);
    } else {
        const char **names;
        PyValue *values;
        kwargs_of(py, args, nargs, &names, &values);
        call_override(py, fn, converter_object(py, conv), NULL, 0, names,
                      values, nargs, false);
    }
    conv->initializing = false;
}

bool converter_call_is_optional(Clinic *c, Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "is_optional", &py, &fn, &row))
        return builtin_is_optional(conv);
    return pyvm_truthy(py->vm, call0(py, fn, conv));
}

/* render, _render_self and _render_non_self */
static void dispatch_render(Clinic *c, const char *name, Converter *conv,
                            Parameter *p, RenderData *data)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, name, &py, &fn, &row)) {
        if (name[0] == 'r')
            builtin_render(c, row->kind, conv, p, data);
        else if (!strcmp(name, "_render_self"))
            builtin_render_self(c, conv, p, data);
        else
            builtin_render_non_self(c, conv, p, data);
        return;
    }
    PyValue w = data_to_python(py, data);
    PyValue args[2] = { parameter_object(py, p), w };
    call_override(py, fn, converter_object(py, conv), args, 2, NULL, NULL, 0,
                  false);
    data_from_python(py, w, data);
}

void converter_render(Clinic *c, Converter *conv, Parameter *p,
                      RenderData *data)
{
    dispatch_render(c, "render", conv, p, data);
}

void converter_render_self(Clinic *c, Converter *conv, Parameter *p,
                           RenderData *data)
{
    dispatch_render(c, "_render_self", conv, p, data);
}

void converter_render_non_self(Clinic *c, Converter *conv, Parameter *p,
                               RenderData *data)
{
    dispatch_render(c, "_render_non_self", conv, p, data);
}

const char *converter_length_name(Clinic *c, const Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "length_name", &py, &fn, &row))
        return builtin_length_name(c, conv);
    return result_str(py, call0(py, fn, conv), true, "length_name");
}

void converter_parse_argument(Clinic *c, Converter *conv, StrList *list)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "parse_argument", &py, &fn, &row)) {
        builtin_parse_argument(c, conv, list);
        return;
    }
    PyValue l = strlist_to_python(py, list);
    call_override(py, fn, converter_object(py, conv), &l, 1, NULL, NULL, 0,
                  false);
    read_list(py, l, list);
}

const char *converter_simple_declaration(Clinic *c, const Converter *conv,
                                         bool by_reference, bool in_parser)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "simple_declaration", &py, &fn, &row))
        return builtin_simple_declaration(c, conv, by_reference, in_parser);
    PyValue pos = pyvm_bool(by_reference), kw = pyvm_bool(in_parser);
    const char *kwname = "in_parser";
    return result_str(py, call_override(py, fn, converter_object(py, conv),
                                        &pos, 1, &kwname, &kw, 1, false),
                      false, "simple_declaration");
}

const char *converter_declaration(Clinic *c, const Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "declaration", &py, &fn, &row))
        return builtin_declaration(c, conv);
    PyValue kw = pyvm_bool(true);
    const char *kwname = "in_parser";
    return result_str(py, call_override(py, fn, converter_object(py, conv),
                                        NULL, 0, &kwname, &kw, 1, false),
                      false, "declaration");
}

static const char *const snippet_names[] = {
    [SNIPPET_INITIALIZE] = "initialize", [SNIPPET_MODIFY] = "modify",
    [SNIPPET_POST_PARSING] = "post_parsing", [SNIPPET_CLEANUP] = "cleanup",
};

const char *converter_snippet(Clinic *c, Converter *conv,
                              ConverterSnippet which)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, snippet_names[which], &py, &fn, &row))
        return builtin_snippet(c, row->kind, conv, which);
    const char *s = result_str(py, call0(py, fn, conv), true,
                               snippet_names[which]);
    return s ? s : "";
}

void converter_pre_render(Clinic *c, Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "pre_render", &py, &fn, &row))
        builtin_pre_render(c, row->kind, conv);
    else
        call0(py, fn, conv);
}

const char *converter_parse_arg(Clinic *c, Converter *conv,
                                const char *argname, const char *displayname)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "parse_arg", &py, &fn, &row))
        return builtin_parse_arg(c, row->kind, conv, argname, displayname);
    PyValue args[2] = { pyvm_str(py->vm, argname),
                        pyvm_str(py->vm, displayname) };
    return result_str(py, call_override(py, fn, converter_object(py, conv),
                                        args, 2, NULL, NULL, 0, false),
                      true, "parse_arg");
}

void converter_set_template_dict(Clinic *c, Converter *conv,
                                 StrMap *template_dict)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "set_template_dict", &py, &fn, &row)) {
        builtin_set_template_dict(c, row->kind, conv, template_dict);
        return;
    }
    PyValue d = strmap_to_python(py, template_dict);
    call_override(py, fn, converter_object(py, conv), &d, 1, NULL, NULL, 0,
                  false);
    strmap_from_python(py, d, template_dict);
}

const char *converter_parser_name(Clinic *c, const Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "parser_name", &py, &fn, &row))
        return builtin_parser_name(c, conv);
    return result_str(py, call_override(py, fn, converter_object(py, conv),
                                        NULL, 0, NULL, NULL, 0, true),
                      false, "parser_name");
}

const char *self_converter_parser_type(Clinic *c, const Converter *conv)
{
    ConverterPython *py;
    PyValue fn;
    const ConverterRow *row;
    if (!find_override(c, conv->cls, "parser_type", &py, &fn, &row))
        return builtin_parser_type(c, conv);
    return result_str(py, call_override(py, fn, converter_object(py, conv),
                                        NULL, 0, NULL, NULL, 0, true),
                      true, "parser_type");
}

/* CReturnConverter.__init__'s body: py_default, then
   return_converter_init(**kwargs), whose TypeError clinic.py turns into
   sys.exit(class(kwargs)\nmessage). */
static void return_converter_call_init(ConverterPython *py, Clinic *c,
                                       ReturnConverter *rc,
                                       const ConverterArg *args, size_t nargs)
{
    PyValue fn;
    const ReturnRow *row;
    if (!find_return_override(c, rc->cls, "return_converter_init", &py, &fn,
                              &row)) {
        builtin_return_converter_init(c, rc, args, nargs);
        return;
    }
    ConverterArg *rest = arena_array_of(c->arena, ConverterArg, nargs + 1);
    size_t nrest = 0;
    for (size_t i = 0; i < nargs; i++) {
        if (!strcmp(args[i].name, "py_default"))
            rc->py_default = args[i].value.kind == PY_STR ? args[i].value.s
                                                          : NULL;
        else
            rest[nrest++] = args[i];
    }
    const char **names;
    PyValue *values;
    kwargs_of(py, rest, nrest, &names, &values);
    PyArgs a = { NULL, 0, names, values, nrest };
    PyValue result;
    if (pyvm_pcall_method(py->vm, fn, return_converter_object(py, rc), &a,
                          &result))
        return;
    const PyError *e = pyvm_error(py->vm);
    if (strcmp(e->type, "TypeError"))
        python_error(py);
    StrBuf shown = STRBUF_INIT;
    for (size_t i = 0; i < nrest; i++)
        sb_addf(&shown, "%s%s=%s", i ? ", " : "", rest[i].name,
                conv_repr(c->arena, &rest[i].value));
    clinic_fail(c, 0, "%s(%s)\n%s", rc->cls->class_name,
                sb_take(&shown, c->arena), e->message);
}

ReturnConverter *return_converter_create(Clinic *c,
                                         const ReturnConverterClass *cls,
                                         const ConverterArg *args,
                                         size_t nargs)
{
    ReturnConverter *rc = return_converter_alloc(c, cls);
    ConverterPython *py = NULL;
    PyValue fn;
    const ReturnRow *row;
    if (!find_return_override(c, cls, "__init__", &py, &fn, &row)) {
        return_converter_call_init(py, c, rc, args, nargs);
        return rc;
    }
    const char **names;
    PyValue *values;
    kwargs_of(py, args, nargs, &names, &values);
    call_override(py, fn, return_converter_object(py, rc), NULL, 0, names,
                  values, nargs, false);
    return rc;
}

void return_converter_render(Clinic *c, ReturnConverter *rc, Function *f,
                             RenderData *data)
{
    ConverterPython *py;
    PyValue fn;
    const ReturnRow *row;
    if (!find_return_override(c, rc->cls, "render", &py, &fn, &row)) {
        builtin_return_render(c, row->kind, rc, f, data);
        return;
    }
    PyValue w = data_to_python(py, data);
    PyValue args[2] = { function_object(py, f), w };
    call_override(py, fn, return_converter_object(py, rc), args, 2, NULL,
                  NULL, 0, false);
    data_from_python(py, w, data);
}

void return_converter_declare(Clinic *c, ReturnConverter *rc,
                              RenderData *data, const char *name)
{
    ConverterPython *py;
    PyValue fn;
    const ReturnRow *row;
    if (!find_return_override(c, rc->cls, "declare", &py, &fn, &row)) {
        builtin_declare(c, rc, data, name);
        return;
    }
    PyValue w = data_to_python(py, data);
    PyValue args[2] = { w, pyvm_str(py->vm, name ? name : "_return_value") };
    call_override(py, fn, return_converter_object(py, rc), args, 2, NULL,
                  NULL, 0, false);
    data_from_python(py, w, data);
}

static void dispatch_err_occurred(Clinic *c, ReturnConverter *rc,
                                  const char *name, const char *text,
                                  RenderData *data)
{
    ConverterPython *py;
    PyValue fn;
    const ReturnRow *row;
    if (!find_return_override(c, rc->cls, name, &py, &fn, &row)) {
        if (strstr(name, "null_pointer"))
            builtin_err_occurred_if_null_pointer(c, text, data);
        else
            builtin_err_occurred_if(c, text, data);
        return;
    }
    PyValue w = data_to_python(py, data);
    PyValue args[2] = { pyvm_str(py->vm, text), w };
    call_override(py, fn, return_converter_object(py, rc), args, 2, NULL,
                  NULL, 0, false);
    data_from_python(py, w, data);
}

void return_converter_err_occurred_if(Clinic *c, ReturnConverter *rc,
                                      const char *expr, RenderData *data)
{
    dispatch_err_occurred(c, rc, "err_occurred_if", expr, data);
}

void return_converter_err_occurred_if_null_pointer(Clinic *c,
                                                   ReturnConverter *rc,
                                                   const char *variable,
                                                   RenderData *data)
{
    dispatch_err_occurred(c, rc, "err_occurred_if_null_pointer", variable,
                          data);
}

/* ---- the classes ----------------------------------------------------------------------- */

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

static void add_method(ConverterPython *py, PyObj *dict, const MethodDef *m,
                       const ConverterRow *row, const ReturnRow *return_row)
{
    Binding *b = arena_new_of(py->c->arena, Binding);
    b->def = m;
    b->row = row;
    b->return_row = return_row;
    b->py = py;
    PyValue fn = pyvm_native(py->vm, m->name, m->native, b, true);
    pyvm_dict_set(py->vm, dict, m->name,
                  m->property ? pyvm_property(py->vm, fn) : fn);
}

/* A built-in converter class in the interpreter: the attributes and the
   methods clinic.py's class body defines (those its base does not). */
static PyObj *row_class(ConverterPython *py, const ConverterRow *row)
{
    size_t i = (size_t)(row - converter_rows);
    if (py->row_class[i])
        return py->row_class[i];
    const ConverterRow *base = row->cls.base ? converter_row_of(row->cls.base)
                                             : NULL;
    PyObj *base_class = base ? row_class(py, base) : NULL;
    PyObj *dict = pyvm_dict_new(py->vm);
    if (!base) {
        pyvm_dict_set(py->vm, dict, "name", py_none);
        pyvm_dict_set(py->vm, dict, "py_name", py_none);
    }
    for (size_t k = 0; k < sizeof class_fields / sizeof *class_fields; k++)
        if (!base || !field_equal(&class_fields[k], &row->cls, &base->cls))
            pyvm_dict_set(py->vm, dict, class_fields[k].name,
                          get_field(py, &class_fields[k], &row->cls));
    for (size_t k = 0; k < NMETHODS; k++) {
        const MethodDef *m = &converter_methods[k];
        if ((m->kinds & K(row->kind)) && (!base || base->kind != row->kind))
            add_method(py, dict, m, row, NULL);
    }
    py->row_class[i] = pyvm_class_new(py->vm, row->cls.class_name, "__main__",
                                      base ? &base_class : NULL, base ? 1 : 0,
                                      dict, &converter_ops,
                                      (void *)&row->cls);
    return py->row_class[i];
}

static PyObj *return_row_class(ConverterPython *py, const ReturnRow *row)
{
    size_t i = (size_t)(row - return_rows);
    if (py->return_row_class[i])
        return py->return_row_class[i];
    const ReturnRow *base = row->cls.base ? return_row_of(row->cls.base)
                                          : NULL;
    PyObj *base_class = base ? return_row_class(py, base) : NULL;
    PyObj *dict = pyvm_dict_new(py->vm);
    if (!base)
        pyvm_dict_set(py->vm, dict, "default", py_none);
    for (size_t k = 0; k < sizeof return_class_fields / sizeof *return_class_fields; k++)
        if (!base || !field_equal(&return_class_fields[k], &row->cls, &base->cls))
            pyvm_dict_set(py->vm, dict, return_class_fields[k].name,
                          get_field(py, &return_class_fields[k], &row->cls));
    for (size_t k = 0; k < NRETURN_METHODS; k++) {
        const MethodDef *m = &return_methods[k];
        if ((m->kinds & RK(row->kind)) && (!base || base->kind != row->kind))
            add_method(py, dict, m, NULL, row);
    }
    py->return_row_class[i] = pyvm_class_new(
        py->vm, row->cls.class_name, "__main__", base ? &base_class : NULL,
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
        *invalid = arena_printf(py->c->arena, "TypeError: clinic needs "
                                "%s.%s to be %s, not %s", class_name, f->name,
                                f->kind == F_STR ? "a str or None"
                                                 : "a class or a tuple of "
                                                   "classes",
                                pyvm_type_name(py->vm, v));
    return ok;
}

/* CConverterAutoRegister: a class deriving from a converter class is
   registered as it is made (class statement or type()), with its class
   attributes as Python's lookup finds them. */
static void converter_class_created(PyVM *vm, PyObj *cls)
{
    ConverterPython *py = python_of_vm(vm);
    const ConverterClass *base = pyvm_class_data(cls);
    ConverterClass *cc = arena_new_of(py->c->arena, ConverterClass);
    cc->class_name = pyvm_class_name(cls);
    cc->base = base;
    cc->pyclass = cls;
    cc->is_self = base->is_self;
    cc->is_defining_class = base->is_defining_class;
    for (size_t k = 0; k < sizeof class_fields / sizeof *class_fields; k++) {
        PyValue v;
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
    ConverterPython *py = python_of_vm(vm);
    const ReturnConverterClass *base = pyvm_class_data(cls);
    ReturnConverterClass *rc = arena_new_of(py->c->arena, ReturnConverterClass);
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

/* ---- clinic.py's module namespace --------------------------------------------------------- */

/* " ".join(str(a) for a in args), and line_number=, for fail and warn. */
static const char *message_of(PyVM *vm, const PyArgs *a, int *line)
{
    ConverterPython *py = python_of_vm(vm);
    StrBuf sb = STRBUF_INIT;
    const char *text;
    *line = 0;
    for (size_t k = 0; k < a->nkw; k++) {
        if (!strcmp(a->kwnames[k], "line_number") &&
            a->kwvalues[k].kind == PY_INT)
            *line = atoi(a->kwvalues[k].s);
        else if (strcmp(a->kwnames[k], "filename") &&
                 strcmp(a->kwnames[k], "line_number"))
            pyvm_raise(vm, "TypeError", "fail() got an unexpected keyword "
                       "argument '%s'", a->kwnames[k]);
    }
    for (size_t i = 0; i < a->nargs; i++) {
        text = pyvm_to_str(vm, a->args[i]);
        if (i)
            sb_addc(&sb, ' ');
        sb_adds(&sb, text);
    }
    return sb_take(&sb, py->c->arena);
}

static PyValue ns_fail(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    int line;
    const char *msg = message_of(vm, a, &line);
    clinic_fail(python_of_vm(vm)->c, line, "%s", msg);
}

static PyValue ns_warn(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    int line;
    const char *msg = message_of(vm, a, &line);
    clinic_warn(python_of_vm(vm)->c, line, "%s", msg);
    return py_none;
}

static const char *str_arg(PyVM *vm, const PyArgs *a, const char *fname)
{
    PyValue v[1];
    pyvm_bind(vm, a, fname, "s", v, NULL);
    if (v[0].kind != PY_STR)
        pyvm_raise(vm, "TypeError", "%s() needs a str, not %s", fname,
                   pyvm_type_name(vm, v[0]));
    return v[0].s;
}

static Arena *arena_of(PyVM *vm)
{
    return python_of_vm(vm)->c->arena;
}

static PyValue ns_ensure_legal_c_identifier(PyVM *vm, const PyArgs *a,
                                            void *data)
{
    (void)data;
    const char *s = str_arg(vm, a, "ensure_legal_c_identifier");
    const char *r = text_legal_c_identifier(arena_of(vm), s);
    if (!r)
        clinic_fail(python_of_vm(vm)->c, 0, "Illegal C identifier: %s", s);
    return pyvm_str(vm, r);
}

static PyValue ns_is_legal_c_identifier(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    const char *s = str_arg(vm, a, "is_legal_c_identifier");
    return text_legal_c_identifier(arena_of(vm), s) || text_is_c_keyword(s)
               ? pyvm_bool(true) : py_none;
}

static PyValue ns_is_legal_py_identifier(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    return pyvm_bool(text_is_legal_py_identifier(
        str_arg(vm, a, "is_legal_py_identifier")));
}

/* The text helpers that take one str. */
static PyValue ns_text1(PyVM *vm, const PyArgs *a, void *data)
{
    const char *which = data;
    Arena *ar = arena_of(vm);
    const char *s = str_arg(vm, a, which);
    if (!strcmp(which, "rstrip_lines"))
        return pyvm_str(vm, text_rstrip_lines(ar, s));
    if (!strcmp(which, "c_repr"))
        return pyvm_str(vm, text_c_repr(ar, s));
    if (!strcmp(which, "quoted_for_c_string"))
        return pyvm_str(vm, text_quoted_for_c_string(ar, s));
    if (!strcmp(which, "format_escape"))
        return pyvm_str(vm, text_format_escape(ar, s));
    /* strip_leading_and_trailing_blank_lines */
    const char *r = text_rstrip(ar, s);
    while (*r) {
        const char *nl = strchr(r, '\n');
        size_t len = nl ? (size_t)(nl - r) : strlen(r);
        bool blank = true;
        for (size_t i = 0; i < len; i++)
            if (!strchr(" \t\f\v\r", r[i]))
                blank = false;
        if (!blank || !nl)
            break;
        r = nl + 1;
    }
    return pyvm_str(vm, r);
}

static PyValue ns_affix_lines(PyVM *vm, const PyArgs *a, void *data)
{
    const char *which = data;
    PyValue v[2];
    pyvm_bind(vm, a, which, !strcmp(which, "indent_all_lines") ? "s prefix"
                                                               : "s suffix",
              v, NULL);
    if (v[0].kind != PY_STR || v[1].kind != PY_STR)
        pyvm_raise(vm, "TypeError", "%s() needs str arguments", which);
    return pyvm_str(vm, !strcmp(which, "indent_all_lines")
                            ? text_indent_all_lines(arena_of(vm), v[0].s, v[1].s)
                            : text_suffix_all_lines(arena_of(vm), v[0].s, v[1].s));
}

static PyValue ns_normalize_snippet(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[2];
    pyvm_bind(vm, a, "normalize_snippet", "s * indent=", v, NULL);
    if (v[0].kind != PY_STR)
        pyvm_raise(vm, "TypeError", "normalize_snippet() needs a str");
    int indent = 0;
    if (given(v[1])) {
        if (v[1].kind != PY_INT)
            pyvm_raise(vm, "TypeError", "indent must be an int");
        indent = atoi(v[1].s);
    }
    return pyvm_str(vm, text_normalize_snippet(arena_of(vm), v[0].s, indent));
}

static PyValue ns_wrap_declarations(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[2];
    pyvm_bind(vm, a, "wrap_declarations", "text length=", v, NULL);
    if (v[0].kind != PY_STR)
        pyvm_raise(vm, "TypeError", "wrap_declarations() needs a str");
    int length = given(v[1]) && v[1].kind == PY_INT ? atoi(v[1].s) : 78;
    return pyvm_str(vm, text_wrap_declarations(arena_of(vm), v[0].s, length));
}

static PyValue ns_linear_format(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    PyValue v[1];
    PyObj *kw;
    pyvm_bind(vm, a, "linear_format", "s **", v, &kw);
    if (v[0].kind != PY_STR)
        pyvm_raise(vm, "TypeError", "linear_format() needs a str");
    StrMap m = { 0 };
    PyValue key, value;
    for (size_t i = 0; pyvm_dict_entry(kw, i, &key, &value); i++)
        strmap_set(arena_of(vm), &m, key.s, pyvm_to_str(vm, value));
    return pyvm_str(vm, text_linear_format(arena_of(vm), v[0].s, &m));
}

static PyValue ns_correct_name_for_self(PyVM *vm, const PyArgs *a, void *data)
{
    const char *which = data;
    PyValue v[1];
    pyvm_bind(vm, a, which, "f", v, NULL);
    Function *f = unwrap_function(python_of_vm(vm), v[0]);
    if (!f)
        pyvm_raise(vm, "AttributeError", "'NoneType' object has no attribute "
                   "'kind'");
    const char *type, *name;
    correct_name_for_self(f, &type, &name);
    if (!strcmp(which, "correct_name_for_self")) {
        PyValue pair[2] = { pyvm_str(vm, type), pyvm_str(vm, name) };
        return pyvm_tuple(vm, pair, 2);
    }
    /* required_type_for_self_for_parser */
    return f->kind == FUNC_CALLABLE ? py_none : pyvm_str(vm, type);
}

/* The converter class behind v (a class deriving from CConverter). */
static const ConverterClass *converter_class_of(ConverterPython *py, PyValue v)
{
    PyObj *cconverter = row_class(py, &converter_rows[0]);
    if (v.kind != PY_OBJECT ||
        !pyvm_is_subclass(pyvm_class_of(py->vm, v),
                          pyvm_builtin_class(py->vm, "type")) ||
        !pyvm_is_subclass(v.obj, cconverter))
        return NULL;
    return pyvm_class_data(v.obj);
}

static const ReturnConverterClass *return_class_of(ConverterPython *py,
                                                   PyValue v)
{
    PyObj *base = return_row_class(py, &return_rows[0]);
    if (v.kind != PY_OBJECT ||
        !pyvm_is_subclass(pyvm_class_of(py->vm, v),
                          pyvm_builtin_class(py->vm, "type")) ||
        !pyvm_is_subclass(v.obj, base))
        return NULL;
    return pyvm_class_data(v.obj);
}

/* add_c_converter(f, name=None) and add_c_return_converter(f, name=None):
   f under name, or under its class name less the suffix. */
static PyValue ns_add_c_converter(PyVM *vm, const PyArgs *a, void *data)
{
    bool is_return = data != NULL;
    ConverterPython *py = python_of_vm(vm);
    PyValue v[2];
    pyvm_bind(vm, a, is_return ? "add_c_return_converter" : "add_c_converter",
              "f name=", v, NULL);
    const ConverterClass *cls = is_return ? NULL : converter_class_of(py, v[0]);
    const ReturnConverterClass *rcls = is_return ? return_class_of(py, v[0])
                                                 : NULL;
    if (!cls && !rcls)
        pyvm_raise(vm, "TypeError", "clinic registers only %sconverter "
                   "classes, not %s", is_return ? "return " : "",
                   pyvm_type_name(vm, v[0]));
    const char *name;
    if (given(v[1]) && pyvm_truthy(vm, v[1])) {
        name = need_str(py, v[1], "name");
    } else {
        const char *suffix = is_return ? "_return_converter" : "_converter";
        const char *cname = pyvm_class_name(v[0].obj);
        size_t n = strlen(cname), k = strlen(suffix);
        if (n < k || strcmp(cname + n - k, suffix))
            return v[0];
        name = arena_strndup(py->c->arena, cname, n - k);
    }
    if (is_return)
        return_converter_register_name(py->c, name, rcls);
    else
        converter_register_name(py->c, name, cls);
    return v[0];
}

static PyValue ns_add_default_legacy_c_converter(PyVM *vm, const PyArgs *a,
                                                 void *data)
{
    (void)data;
    ConverterPython *py = python_of_vm(vm);
    PyValue v[1];
    pyvm_bind(vm, a, "add_default_legacy_c_converter", "cls", v, NULL);
    const ConverterClass *cls = converter_class_of(py, v[0]);
    if (!cls)
        pyvm_raise(vm, "TypeError", "clinic registers only converter "
                   "classes, not %s", pyvm_type_name(vm, v[0]));
    const char *unit = cls->format_unit;
    if (unit && strcmp(unit, "O&") && unit[0] &&
        !converter_has_legacy(py->c, unit))
        converter_register_legacy(py->c, unit, cls, NULL, 0);
    return v[0];
}

/* add_legacy_c_converter(format_unit, **kwargs) returns the decorator
   that registers its class under format_unit with those keywords. */
typedef struct LegacyDecorator {
    const char *format_unit;
    ConverterArg *kwargs;
    size_t nkwargs;
} LegacyDecorator;

static PyValue legacy_decorator(PyVM *vm, const PyArgs *a, void *data)
{
    LegacyDecorator *d = data;
    ConverterPython *py = python_of_vm(vm);
    PyValue v[1];
    pyvm_bind(vm, a, "closure", "f", v, NULL);
    const ConverterClass *cls = converter_class_of(py, v[0]);
    if (!cls)
        pyvm_raise(vm, "TypeError", "clinic registers only converter "
                   "classes, not %s", pyvm_type_name(vm, v[0]));
    if (d->format_unit[0])
        converter_register_legacy(py->c, d->format_unit, cls, d->kwargs,
                                  d->nkwargs);
    return v[0];
}

static PyValue ns_add_legacy_c_converter(PyVM *vm, const PyArgs *a,
                                         void *data)
{
    (void)data;
    ConverterPython *py = python_of_vm(vm);
    PyValue v[1];
    PyObj *kw;
    pyvm_bind(vm, a, "add_legacy_c_converter", "format_unit **", v, &kw);
    LegacyDecorator *d = arena_new_of(py->c->arena, LegacyDecorator);
    d->format_unit = v[0].kind == PY_STR ? v[0].s : "";
    d->kwargs = args_of_dict(py, kw, &d->nkwargs);
    return pyvm_native(vm, "closure", legacy_decorator, d, false);
}

/* set("a b c".split()) */
static PyValue str_set(PyVM *vm, const char *words)
{
    PyObj *list = pyvm_list_new(vm);
    Arena *ar = arena_of(vm);
    const char *p = words;
    while (*p) {
        const char *end = strchr(p, ' ');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        pyvm_list_append(vm, list, pyvm_str(vm, arena_strndup(ar, p, n)));
        p += n + (end ? 1 : 0);
    }
    PyValue arg = pyvm_obj(list);
    PyArgs args = { &arg, 1, NULL, NULL, 0 };
    return pyvm_call(vm, pyvm_obj(pyvm_builtin_class(vm, "set")), &args);
}

static const struct {
    const char *name;
    PyNativeFn fn;
    const char *data;
} namespace_functions[] = {
    { "fail", ns_fail, NULL },
    { "add_c_converter", ns_add_c_converter, NULL },
    { "add_c_return_converter", ns_add_c_converter, "return" },
    { "add_default_legacy_c_converter", ns_add_default_legacy_c_converter,
      NULL },
    { "add_legacy_c_converter", ns_add_legacy_c_converter, NULL },
    { "warn", ns_warn, NULL },
    { "ensure_legal_c_identifier", ns_ensure_legal_c_identifier, NULL },
    { "is_legal_c_identifier", ns_is_legal_c_identifier, NULL },
    { "is_legal_py_identifier", ns_is_legal_py_identifier, NULL },
    { "rstrip_lines", ns_text1, "rstrip_lines" },
    { "c_repr", ns_text1, "c_repr" },
    { "quoted_for_c_string", ns_text1, "quoted_for_c_string" },
    { "format_escape", ns_text1, "format_escape" },
    { "strip_leading_and_trailing_blank_lines", ns_text1,
      "strip_leading_and_trailing_blank_lines" },
    { "indent_all_lines", ns_affix_lines, "indent_all_lines" },
    { "suffix_all_lines", ns_affix_lines, "suffix_all_lines" },
    { "normalize_snippet", ns_normalize_snippet, NULL },
    { "wrap_declarations", ns_wrap_declarations, NULL },
    { "linear_format", ns_linear_format, NULL },
    { "correct_name_for_self", ns_correct_name_for_self,
      "correct_name_for_self" },
    { "required_type_for_self_for_parser", ns_correct_name_for_self,
      "required_type_for_self_for_parser" },
};

static const char *const string_constants[][2] = {
    { "version", "1" }, { "NO_VARARG", "PY_SSIZE_T_MAX" },
    { "CLINIC_PREFIX", "__clinic_" }, { "sig_end_marker", "--" },
    { "INVALID", "INVALID" }, { "CALLABLE", "CALLABLE" },
    { "STATIC_METHOD", "STATIC_METHOD" }, { "CLASS_METHOD", "CLASS_METHOD" },
    { "METHOD_INIT", "METHOD_INIT" }, { "METHOD_NEW", "METHOD_NEW" },
};

static const char c_keywords[] =
    "asm auto break case char const continue default do double else enum "
    "extern float for goto if inline int long register return short signed "
    "sizeof static struct switch typedef typeof union unsigned void volatile "
    "while";

static const char *const type_checks[][3] = {
    { "&PyLong_Type", "PyLong_Check", "int" },
    { "&PyTuple_Type", "PyTuple_Check", "tuple" },
    { "&PyList_Type", "PyList_Check", "list" },
    { "&PySet_Type", "PySet_Check", "set" },
    { "&PyFrozenSet_Type", "PyFrozenSet_Check", "frozenset" },
    { "&PyDict_Type", "PyDict_Check", "dict" },
    { "&PyUnicode_Type", "PyUnicode_Check", "str" },
    { "&PyBytes_Type", "PyBytes_Check", "bytes" },
    { "&PyByteArray_Type", "PyByteArray_Check", "bytearray" },
};

static PyObj *host_class(ConverterPython *py, const char *name,
                         const PyHostOps *ops)
{
    PyObj *dict = pyvm_dict_new(py->vm);
    pyvm_dict_set(py->vm, dict, "__repr__",
                  pyvm_native(py->vm, "__repr__", host_repr, (void *)name,
                              true));
    return pyvm_class_new(py->vm, name, "__main__", NULL, 0, dict, ops, NULL);
}

static void install_namespace(ConverterPython *py)
{
    PyVM *vm = py->vm;
    PyObj *g = pyvm_globals(vm);
    for (size_t i = 0; i < converter_nrows; i++)
        pyvm_dict_set(vm, g, converter_rows[i].cls.class_name,
                      pyvm_obj(row_class(py, &converter_rows[i])));
    for (size_t i = 0; i < return_nrows; i++)
        pyvm_dict_set(vm, g, return_rows[i].cls.class_name,
                      pyvm_obj(return_row_class(py, &return_rows[i])));
    for (size_t i = 0; i < sizeof namespace_functions / sizeof namespace_functions[0]; i++)
        pyvm_dict_set(vm, g, namespace_functions[i].name,
                      pyvm_native(vm, namespace_functions[i].name,
                                  namespace_functions[i].fn,
                                  (void *)namespace_functions[i].data, false));
    for (size_t i = 0; i < sizeof string_constants / sizeof string_constants[0]; i++)
        pyvm_dict_set(vm, g, string_constants[i][0],
                      pyvm_str(vm, string_constants[i][1]));
    pyvm_dict_set(vm, g, "unspecified", py_unspecified);
    pyvm_dict_set(vm, g, "NULL", py_null);
    pyvm_dict_set(vm, g, "unknown", py_unknown);
    static const char *const classes[] = { "Null", "Unspecified", "Unknown",
                                           "NoneType" };
    for (size_t i = 0; i < 4; i++)
        pyvm_dict_set(vm, g, classes[i],
                      pyvm_obj(pyvm_builtin_class(vm, classes[i])));
    static const char *const buffers[] = { "buffer", "rwbuffer", "robuffer" };
    for (size_t i = 0; i < 3; i++)
        pyvm_dict_set(vm, g, buffers[i],
                      pyvm_obj(pyvm_class_new(vm, buffers[i], "__main__", NULL,
                                              0, NULL, NULL, NULL)));
    pyvm_dict_set(vm, g, "CLINIC_PREFIXED_ARGS", str_set(vm, "args"));
    pyvm_dict_set(vm, g, "c_keywords", str_set(vm, c_keywords));
    PyObj *checks = pyvm_dict_new(vm);
    for (size_t i = 0; i < sizeof type_checks / sizeof type_checks[0]; i++) {
        PyValue pair[2] = { pyvm_str(vm, type_checks[i][1]),
                            pyvm_str(vm, type_checks[i][2]) };
        pyvm_dict_set(vm, checks, type_checks[i][0], pyvm_tuple(vm, pair, 2));
    }
    pyvm_dict_set(vm, g, "type_checks", pyvm_obj(checks));
    static const struct {
        const char *name;
        PyObj **cls;
    } hosts[] = { { "Function", NULL }, { "Parameter", NULL }, { "Class", NULL },
                  { "Module", NULL }, { "CRenderData", NULL },
                  { "LandMine", NULL } };
    PyObj *made[6] = { py->cls_function, py->cls_parameter, py->cls_class,
                       py->cls_module, py->cls_renderdata, py->cls_landmine };
    for (size_t i = 0; i < 6; i++)
        pyvm_dict_set(vm, g, hosts[i].name, pyvm_obj(made[i]));
}

static ConverterPython *python_of(Clinic *c)
{
    ConverterPython **slot = converters_python_slot(c);
    if (*slot)
        return *slot;
    ConverterPython *py = arena_new_of(c->arena, ConverterPython);
    py->c = c;
    py->vm = pyvm_new(c->arena);
    pyvm_set_host(py->vm, py);
    py->row_class = arena_array_of(c->arena, PyObj *, converter_nrows);
    py->return_row_class = arena_array_of(c->arena, PyObj *, return_nrows);
    py->cls_function = host_class(py, "Function", &function_ops);
    py->cls_parameter = host_class(py, "Parameter", &parameter_ops);
    py->cls_class = host_class(py, "Class", &class_ops);
    py->cls_module = host_class(py, "Module", &module_ops);
    py->cls_renderdata = host_class(py, "CRenderData", NULL);
    py->cls_landmine = host_class(py, "LandMine", &landmine_ops);
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
        pyvm_dict_set(py->vm, pyvm_as_dict(dictv), predicates[i].name,
                      pyvm_native(py->vm, predicates[i].name, parameter_is,
                                  (void *)(intptr_t)predicates[i].kind, true));
    pyvm_dict_set(py->vm, pyvm_as_dict(dictv), "is_optional",
                  pyvm_native(py->vm, "is_optional", parameter_is_optional,
                              NULL, true));
    /* the LandMine needs a host pointer only to be one: its own message */
    py->landmine = pyvm_instance_new(py->vm, py->cls_landmine,
                                     (void *)landmine_message, NULL);
    *slot = py;
    install_namespace(py);
    return py;
}

PyVM *converters_python(Clinic *c)
{
    return python_of(c)->vm;
}
