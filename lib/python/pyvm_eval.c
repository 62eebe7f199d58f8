/*
 * pyvm_eval.c — evaluation: expressions, statements and scopes (Lua's
 * lvm.c).
 *
 * The AST is walked directly.  Names resolve as CPython's compiler
 * would have them resolve: a function's locals (known from its PyScope)
 * or else the enclosing functions' (closures see the live scope, so late
 * binding works), then the globals and the builtins; a class body is
 * skipped by the functions defined in it; a comprehension has its own
 * scope.  Top-level code runs as clinic.py's exec(block.input) does: its
 * names go to a locals dict that functions and classes defined in the
 * block do not see (they see the globals).
 */
#include "python/pyvm_int.h"
#include "base/text.h"

#include <string.h>

typedef enum Flow { FLOW_NORMAL, FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN } Flow;

static PyValue eval(PyVM *vm, Env *env, const PyExpr *e);
static PyValue eval_set_display(PyVM *vm, Env *env, const PyExpr *e,
                                bool iterated);
static PyValue eval_iterable(PyVM *vm, Env *env, const PyExpr *e);
static Flow exec_block(PyVM *vm, Env *env, PyStmt *const *body, size_t n);

/* ---- names ------------------------------------------------------------- */

static bool in_names(const char *const *names, size_t n, const char *name)
{
    /* the first byte tells most names apart without a call */
    for (size_t i = 0; i < n; i++)
        if (names[i][0] == name[0] && strcmp(names[i], name) == 0)
            return true;
    return false;
}

static bool declared_global(const Env *env, const char *name)
{
    return env->scope &&
           in_names(env->scope->globals, env->scope->nglobals, name);
}

static bool is_local(const Env *env, const char *name)
{
    return env->kind == ENV_FUNCTION && vm_scope_has_local(env->scope, name);
}

/* The keys of a dict, then extra unless it has it (exec() puts
   "__builtins__" in the globals it runs in), then another dict's not in
   it: one namespace. */
static size_t dict_names(PyVM *vm, const PyDict *d, const PyDict *more,
                         const char ***out, const char *extra)
{
    size_t cap = d->len + (more && more != d ? more->len : 0) + 1, n = 0;
    const char **names = arena_array_of(vm->a, const char *, cap + 1);
    for (size_t i = 0; i < d->len; i++)
        if (d->keys[i].kind == PY_STR)
            names[n++] = d->keys[i].s;
    if (extra && !vm_dict_find_str((PyDict *)d, extra))
        names[n++] = extra;
    if (more && more != d)
        for (size_t i = 0; i < more->len; i++)
            if (more->keys[i].kind == PY_STR &&
                !vm_dict_find_str((PyDict *)d,
                                  more->keys[i].s))
                names[n++] = more->keys[i].s;
    *out = names;
    return n;
}

/* Keeps what pyvm_error_suggestion() will need of a NameError. */
static void note_name_error(PyVM *vm, PyObj *exception, const Env *env,
                            const char *name)
{
    vm->name_hint.exception = exception;
    vm->name_hint.name = name;
    vm->name_hint.function_scope =
        env->kind == ENV_FUNCTION ? env->scope : NULL;
    vm->name_hint.globals = env->globals;
    vm->name_hint.module_vars = env->kind == ENV_MODULE ? env->vars : NULL;
    vm->name_hint.comprehension_choice[0] = 0;
    if (env->kind == ENV_COMPREHENSION) {
        const char **names;
        size_t n = dict_names(vm, env->vars, NULL, &names, NULL);
        const char *best = text_suggestion(name, names, n);
        if (best && strlen(best) < sizeof vm->name_hint.comprehension_choice)
            strcpy(vm->name_hint.comprehension_choice, best);
    }
}

_Noreturn static void name_error(PyVM *vm, const Env *env, const char *name)
{
    const char *text = arena_printf(vm->a, "name '%s' is not defined", name);
    PyValue msg = vm_make_str(vm, text, strlen(text));
    PyValue exc = vm_new_exception(vm, vm->types[T_NAME_ERROR], &msg, 1);
    note_name_error(vm, exc.obj, env, name);
    vm_throw(vm, exc);
}

/* A name being looked up, its hash made once for every dict it is looked
   up in (as vm_dict_find_str would make it for each). */
typedef struct Name {
    const char *s;
    size_t n;
    int64_t hash;
} Name;

static inline PyValue *find_name(PyDict *d, const Name *nm)
{
    return vm_dict_find_hashed(d, nm->s, nm->n, nm->hash);
}

/* A free variable: the nearest enclosing function scope that binds the
   name, or a comprehension's.  NULL when none does. */
static PyValue *find_free(PyVM *vm, Env *env, const Name *nm, bool *bound)
{
    const char *name = nm->s;
    *bound = false;
    for (Env *e = env->outer; e; e = e->outer) {
        if (e->kind == ENV_COMPREHENSION) {
            PyValue *v = find_name(e->vars, nm);
            if (v) {
                *bound = true;
                return v;
            }
            continue;
        }
        if (e->kind == ENV_FUNCTION && !declared_global(e, name) &&
            (is_local(e, name) ||
             in_names(e->scope->nonlocals, e->scope->nnonlocals, name))) {
            if (!is_local(e, name))
                continue;   /* nonlocal there: further out */
            *bound = true;
            PyValue *v = find_name(e->vars, nm);
            if (!v)
                vm_raise_class(vm, vm->types[T_NAME_ERROR], arena_printf(vm->a,
                               "cannot access free variable '%s' where it is "
                               "not associated with a value in enclosing "
                               "scope", name));
            return v;
        }
    }
    return NULL;
}

static PyValue load_global(PyVM *vm, Env *env, const Name *nm)
{
    PyValue *v = find_name(env->globals, nm);
    if (!v)
        v = find_name(vm->builtins, nm);
    if (!v)
        name_error(vm, env, nm->s);
    return *v;
}

static PyValue load_name(PyVM *vm, Env *env, const char *name)
{
    PyValue *v;
    bool bound;
    size_t n = strlen(name);
    Name nm = { name, n, (int64_t)vm_str_hash(name, n) };
    if (declared_global(env, name))
        return load_global(vm, env, &nm);
    switch (env->kind) {
    case ENV_FUNCTION:
        if (is_local(env, name)) {
            v = find_name(env->vars, &nm);
            if (!v)
                vm_raise_class(vm, vm->types[T_UNBOUND_LOCAL_ERROR],
                               arena_printf(vm->a, "cannot access local "
                                            "variable '%s' where it is not "
                                            "associated with a value", name));
            return *v;
        }
        break;
    case ENV_COMPREHENSION:
    case ENV_CLASS:
    case ENV_MODULE:
        v = find_name(env->vars, &nm);
        if (v)
            return *v;
        break;
    }
    v = find_free(vm, env, &nm, &bound);
    if (v)
        return *v;
    return load_global(vm, env, &nm);
}

/* The scope a name is stored in. */
static PyDict *store_scope(PyVM *vm, Env *env, const char *name)
{
    if (declared_global(env, name))
        return env->globals;
    if (env->kind == ENV_FUNCTION &&
        in_names(env->scope->nonlocals, env->scope->nnonlocals, name)) {
        for (Env *e = env->outer; e; e = e->outer)
            if (e->kind == ENV_FUNCTION && is_local(e, name))
                return e->vars;
        name_error(vm, env, name);
    }
    return env->vars;
}

static void store_name(PyVM *vm, Env *env, const char *name, PyValue v)
{
    vm_dict_set_str(vm, store_scope(vm, env, name), name, v);
}

static void delete_name(PyVM *vm, Env *env, const char *name)
{
    PyDict *d = store_scope(vm, env, name);
    if (vm_dict_del(vm, d, vm_make_str(vm, name, strlen(name))))
        return;
    if (env->kind == ENV_FUNCTION && is_local(env, name))
        vm_raise_class(vm, vm->types[T_UNBOUND_LOCAL_ERROR], arena_printf(vm->a,
                       "cannot access local variable '%s' where it is not "
                       "associated with a value", name));
    name_error(vm, env, name);
}

static Env *new_env(PyVM *vm, EnvKind kind, const PyScope *scope, Env *outer,
                    PyDict *globals)
{
    Env *e = vm_items_alloc(vm, sizeof *e);   /* collectable */
    e->kind = kind;
    e->vars = vm_dict_new(vm);
    if (kind == ENV_FUNCTION)   /* its names are known: no growing */
        vm_dict_reserve(vm, e->vars, scope->nlocals);
    e->scope = scope;
    e->outer = outer;
    e->globals = globals;
    return e;
}

/* What code defined in env closes over: the nearest function or
   comprehension scope (a class body and the module level are not). */
static Env *closure_of(Env *env)
{
    while (env && (env->kind == ENV_CLASS || env->kind == ENV_MODULE))
        env = env->outer;
    return env;
}

/* ---- assignment -------------------------------------------------------- */

static PyValue subscript_key(PyVM *vm, Env *env, const PyExpr *e);

static void assign(PyVM *vm, Env *env, const PyExpr *target, PyValue v);

static void unpack(PyVM *vm, Env *env, const PyExpr *target, PyValue v)
{
    size_t star = target->nitems;
    for (size_t i = 0; i < target->nitems; i++)
        if (target->items[i]->kind == PX_STARRED)
            star = i;
    PyClass *type = vm_type_of(vm, v);
    PyValue iter_fn;
    if (v.kind != PY_TUPLE && v.kind != PY_STR && v.kind != PY_SET &&
        !(v.kind == PY_OBJECT && v.obj->kind != OBJ_INSTANCE &&
          v.obj->kind != OBJ_CLASS && v.obj->kind != OBJ_FUNCTION &&
          v.obj->kind != OBJ_NATIVE && v.obj->kind != OBJ_METHOD) &&
        !vm_lookup(type, "__iter__", &iter_fn, NULL) &&
        !vm_lookup(type, "__getitem__", &iter_fn, NULL))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                       "cannot unpack non-iterable %s object", type->name));
    size_t n;
    PyValue *items = vm_collect(vm, v, &n);
    size_t want = target->nitems;
    if (star == want) {
        if (n < want)
            vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(vm->a,
                           "not enough values to unpack (expected %zu, got "
                           "%zu)", want, n));
        if (n > want)
            vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(vm->a,
                           "too many values to unpack (expected %zu)", want));
        for (size_t i = 0; i < n; i++)
            assign(vm, env, target->items[i], items[i]);
        return;
    }
    if (n < want - 1)
        vm_raise_class(vm, vm->types[T_VALUE_ERROR], arena_printf(vm->a,
                       "not enough values to unpack (expected at least %zu, "
                       "got %zu)", want - 1, n));
    size_t after = want - star - 1;
    for (size_t i = 0; i < star; i++)
        assign(vm, env, target->items[i], items[i]);
    PyList *rest = vm_list_new(vm, n - star - after + 1);
    for (size_t i = star; i < n - after; i++)
        vm_list_append(vm, rest, items[i]);
    assign(vm, env, target->items[star]->left, vm_obj(rest));
    for (size_t i = 0; i < after; i++)
        assign(vm, env, target->items[star + 1 + i], items[n - after + i]);
}

static void assign(PyVM *vm, Env *env, const PyExpr *target, PyValue v)
{
    switch (target->kind) {
    case PX_NAME:
        store_name(vm, env, target->id, v);
        return;
    case PX_ATTRIBUTE:
        vm_setattr(vm, eval(vm, env, target->left), target->id, v);
        return;
    case PX_SUBSCRIPT: {
        PyValue obj = eval(vm, env, target->left);
        vm_setitem(vm, obj, subscript_key(vm, env, target->right), v);
        return;
    }
    case PX_TUPLE:
    case PX_LIST:
        unpack(vm, env, target, v);
        return;
    default:
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], "cannot assign to expression");
    }
}

/* ---- calls ------------------------------------------------------------- */

typedef struct ArgBuf {
    PyValue *args;
    size_t n, cap;
    const char **kwnames;
    PyValue *kwvalues;
    size_t nkw, capkw;
} ArgBuf;

static void arg_push(PyVM *vm, ArgBuf *b, PyValue v)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 8;
        PyValue *n = vm_temp_array(vm, PyValue, cap);
        if (b->n)
            memcpy(n, b->args, b->n * sizeof *n);
        b->args = n;
        b->cap = cap;
    }
    b->args[b->n++] = v;
}

static void kw_push(PyVM *vm, ArgBuf *b, const char *name, PyValue v,
                    const PyExpr *call)
{
    for (size_t i = 0; i < b->nkw; i++)
        if (strcmp(b->kwnames[i], name) == 0)
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "%s() got multiple values for keyword argument "
                           "'%s'", call->left->kind == PX_NAME
                           ? call->left->id : call->left->kind == PX_ATTRIBUTE
                           ? call->left->id : "function", name));
    if (b->nkw == b->capkw) {
        size_t cap = b->capkw ? b->capkw * 2 : 4;
        const char **nn = vm_temp_array(vm, const char *, cap);
        PyValue *nv = vm_temp_array(vm, PyValue, cap);
        if (b->nkw) {
            memcpy(nn, b->kwnames, b->nkw * sizeof *nn);
            memcpy(nv, b->kwvalues, b->nkw * sizeof *nv);
        }
        b->kwnames = nn;
        b->kwvalues = nv;
        b->capkw = cap;
    }
    b->kwnames[b->nkw] = name;
    b->kwvalues[b->nkw++] = v;
}

/* The arrays of arguments are temporaries (the callee borrows them). */
static PyValue eval_call(PyVM *vm, Env *env, const PyExpr *e)
{
    ArgBuf b = { 0 };
    TempMark mark = vm_temp_mark(vm);
    PyValue fn;
    const PyExpr *f = e->left;
    if (f->kind == PX_ATTRIBUTE) {
        PyValue obj = eval(vm, env, f->left);
        bool unbound;
        if (!vm_method_lookup(vm, obj, f->id, &fn, &unbound))
            fn = vm_getattr(vm, obj, f->id);   /* raises the error */
        if (unbound)
            arg_push(vm, &b, obj);
    } else {
        fn = eval(vm, env, f);
    }
    for (size_t i = 0; i < e->nitems; i++) {
        const PyExpr *a = e->items[i];
        if (a->kind == PX_STARRED) {
            PyValue seq = eval(vm, env, a->left);
            if (!vm_is_kind(seq, OBJ_LIST) && seq.kind != PY_TUPLE) {
                PyValue it;
                PyClass *t = vm_type_of(vm, seq);
                if (seq.kind == PY_OBJECT && seq.obj->kind == OBJ_INSTANCE &&
                    !vm_lookup(t, "__iter__", &it, NULL))
                    vm_raise_class(vm, vm->types[T_TYPE_ERROR],
                                   arena_printf(vm->a, "%s() argument after * "
                                                "must be an iterable, not %s",
                                                f->kind == PX_NAME ? f->id
                                                                   : "function",
                                                t->name));
            }
            size_t n;
            PyValue *items = vm_collect(vm, seq, &n);
            for (size_t k = 0; k < n; k++)
                arg_push(vm, &b, items[k]);
        } else {
            arg_push(vm, &b, eval(vm, env, a));
        }
    }
    for (size_t i = 0; i < e->nkeywords; i++) {
        const PyKeyword *kw = &e->keywords[i];
        PyValue v = eval(vm, env, kw->value);
        if (kw->arg) {
            kw_push(vm, &b, kw->arg, v, e);
            continue;
        }
        if (!vm_is_kind(v, OBJ_DICT))
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "%s() argument after ** must be a mapping, not %s",
                           f->kind == PX_NAME ? f->id : "function",
                           vm_type_name(vm, v)));
        PyDict *d = (PyDict *)v.obj;
        for (size_t k = 0; k < d->len; k++) {
            if (d->keys[k].kind != PY_STR)
                vm_raise_class(vm, vm->types[T_TYPE_ERROR], "keywords must be "
                               "strings");
            kw_push(vm, &b, d->keys[k].s, d->values[k], e);
        }
    }
    PyValue r = vm_call(vm, fn, b.args, b.n, b.kwnames, b.kwvalues, b.nkw);
    vm_temp_release(vm, mark);
    return r;
}

/* ---- functions and classes --------------------------------------------- */

/* An annotation as the code's compiler keeps it: evaluated, or (under
   "from __future__ import annotations") its text; a str constant as its
   repr, as ast.unparse writes it. */
static PyValue annotation_value(PyVM *vm, Env *env, const PyExpr *e)
{
    if (!vm->annotations_as_strings)
        return eval(vm, env, e);
    if (e->kind == PX_CONST && e->value.kind == PY_STR) {
        const char *r = vm_repr(vm, e->value);
        return vm_make_str(vm, r, strlen(r));
    }
    const char *text = e->source ? e->source : "";
    return vm_make_str(vm, text, strlen(text));
}

/* A def's __annotations__: its parameters' in order, then "return". */
static PyDict *function_annotations(PyVM *vm, Env *env, const PyFuncDef *def)
{
    PyDict *d = vm_dict_new(vm);
    const PyArguments *a = def->args;
    const PyArg *groups[] = { a->posonlyargs, a->args, a->vararg,
                              a->kwonlyargs, a->kwarg };
    size_t counts[] = { a->nposonlyargs, a->nargs, a->vararg ? 1 : 0,
                        a->nkwonlyargs, a->kwarg ? 1 : 0 };
    for (size_t g = 0; g < 5; g++)
        for (size_t i = 0; i < counts[g]; i++)
            if (groups[g][i].annotation)
                vm_dict_set_str(vm, d, groups[g][i].arg,
                                annotation_value(vm, env,
                                                 groups[g][i].annotation));
    if (def->returns)
        vm_dict_set_str(vm, d, "return",
                        annotation_value(vm, env, def->returns));
    return d;
}

static PyValue make_function(PyVM *vm, Env *env, const PyFuncDef *def)
{
    PyFunction *f = vm_alloc_obj(vm, sizeof *f, OBJ_FUNCTION,
                                 vm->types[T_FUNCTION]);
    f->def = def;
    f->name = def->name;
    f->qualname = def->qualname;
    const PyArguments *a = def->args;
    f->defaults = arena_array_of(vm->a, PyValue, a->ndefaults + 1);
    for (size_t i = 0; i < a->ndefaults; i++)
        f->defaults[i] = eval(vm, env, a->defaults[i]);
    f->kwdefaults = arena_array_of(vm->a, PyValue, a->nkwonlyargs + 1);
    for (size_t i = 0; i < a->nkwonlyargs; i++)
        f->kwdefaults[i] = a->kw_defaults[i]
                               ? eval(vm, env, a->kw_defaults[i]) : py_unspecified;
    if (!def->expr)   /* a def (a lambda has no annotations) */
        f->annotations = function_annotations(vm, env, def);
    f->closure = closure_of(env);
    f->globals = env->globals;
    f->dict = vm_dict_new(vm);
    if (env->kind == ENV_CLASS)
        f->class_cell = env->class_cell;
    else if (vm->frame && vm->frame->env == env)
        f->class_cell = vm->frame->func->class_cell;
    return vm_obj(f);
}

PyValue vm_run_function(PyVM *vm, PyFunction *f, const PyValue *args,
                        size_t nargs, const char *const *kwnames,
                        const PyValue *kwvalues, size_t nkw)
{
    const PyFuncDef *def = f->def;
    /* A scope nothing in the body can close over dies with the call: it
       and its locals are temporaries then. */
    TempMark mark = vm_temp_mark(vm);
    Env *env;
    if (def->encloses) {
        env = new_env(vm, ENV_FUNCTION, &def->scope, f->closure, f->globals);
    } else {
        env = vm_temp_alloc(vm, sizeof *env);
        *env = (Env){ .kind = ENV_FUNCTION, .scope = &def->scope,
                      .outer = f->closure, .globals = f->globals,
                      .vars = vm_dict_new_temp(vm, def->scope.nlocals) };
    }
    vm_bind_function_args(vm, f, args, nargs, kwnames, kwvalues, nkw,
                          env->vars);
    Frame frame = { vm->frame, f, env, args, nargs };
    int line = vm->line;
    vm->frame = &frame;
    PyValue result = py_none;
    if (def->expr) {
        result = eval(vm, env, def->expr);
    } else if (exec_block(vm, env, def->body, def->nbody) == FLOW_RETURN) {
        result = vm->ret;
    }
    vm->frame = frame.back;
    vm->line = line;     /* errors after the call are the caller's */
    if (!def->encloses)
        vm_temp_release(vm, mark);
    return result;
}

PyValue vm_super_here(PyVM *vm)
{
    Frame *fr = vm->frame;
    if (!fr || !fr->func->class_cell)
        vm_raise_class(vm, vm->types[T_RUNTIME_ERROR],
                       "super(): __class__ cell not found");
    const PyArguments *a = fr->func->def->args;
    const char *first = a->nposonlyargs ? a->posonlyargs[0].arg
                      : a->nargs ? a->args[0].arg : NULL;
    PyValue *self = first ? vm_dict_find_str(fr->env->vars, first) : NULL;
    if (!self)
        vm_raise_class(vm, vm->types[T_RUNTIME_ERROR], "super(): no arguments");
    PyClass *cls = *fr->func->class_cell;
    if (!cls)
        vm_raise_class(vm, vm->types[T_RUNTIME_ERROR],
                       "super(): empty __class__ cell");
    PySuper *s = vm_alloc_obj(vm, sizeof *s, OBJ_SUPER, vm->types[T_SUPER]);
    s->cls = cls;
    s->self = *self;
    return vm_obj(s);
}

PyValue vm_make_class(PyVM *vm, const char *name, const PyValue *bases,
                      size_t nbases, PyDict *dict)
{
    PyClass **cb = arena_array_of(vm->a, PyClass *, nbases + 1);
    for (size_t i = 0; i < nbases; i++) {
        cb[i] = vm_as_class(bases[i]);
        if (!cb[i])
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                           "bases must be types, not %s",
                           vm_type_name(vm, bases[i])));
        for (size_t k = 0; k < i; k++)
            if (cb[k] == cb[i])
                vm_raise_class(vm, vm->types[T_TYPE_ERROR], arena_printf(vm->a,
                               "duplicate base class %s", cb[i]->name));
        PyClass *b = cb[i];
        if (vm_class_is_builtin(b) && b->builtin != T_OBJECT &&
            b->builtin != T_BASE_EXCEPTION)
            vm_raise_class(vm, vm->types[T_NOT_IMPLEMENTED_ERROR],
                           arena_printf(vm->a, "clinic's Python cannot "
                                        "subclass the built-in type '%s'",
                                        b->name));
    }
    PyValue *mod = vm_dict_find_str(dict, "__module__");
    const char *module = mod && mod->kind == PY_STR ? mod->s : "__main__";
    PyClass *cls = vm_new_class(vm, name, module, cb, nbases, dict);
    cls->made_by_python = true;
    PyValue *qual = vm_dict_find_str(dict, "__qualname__");
    if (qual && qual->kind == PY_STR) {
        cls->qualname = qual->s;
        vm_dict_del(vm, dict, vm_make_str(vm, "__qualname__", 12));
    }
    if (cls->host && cls->host->class_created) {
        vm_host_enter(vm);
        cls->host->class_created(vm, &cls->ob);
        vm_host_leave(vm);
    }
    return vm_obj(cls);
}

static PyValue apply_decorators(PyVM *vm, Env *env, const PyStmt *s,
                                PyValue *decorators, PyValue v)
{
    (void)env;
    for (size_t i = s->ndecorators; i-- > 0;)
        v = vm_call1(vm, decorators[i], v);
    return v;
}

static PyValue *eval_decorators(PyVM *vm, Env *env, const PyStmt *s)
{
    PyValue *d = arena_array_of(vm->a, PyValue, s->ndecorators + 1);
    for (size_t i = 0; i < s->ndecorators; i++)
        d[i] = eval(vm, env, s->decorators[i]);
    return d;
}

/* Whether a module's or class body's statements annotate a name (not
   inside a def or class they hold): then its code starts, as CPython's
   SETUP_ANNOTATIONS, by making __annotations__. */
static bool annotates(PyStmt *const *body, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const PyStmt *s = body[i];
        if ((s->kind == ST_ANNASSIGN && s->target->kind == PX_NAME) ||
            ((s->kind == ST_IF || s->kind == ST_WHILE || s->kind == ST_FOR) &&
             (annotates(s->body, s->nbody) ||
              annotates(s->orelse, s->norelse))))
            return true;
    }
    return false;
}

static void setup_annotations(PyVM *vm, Env *env, PyStmt *const *body,
                              size_t n)
{
    if (annotates(body, n) && !vm_dict_find_str(env->vars, "__annotations__"))
        vm_dict_set_str(vm, env->vars, "__annotations__",
                        vm_obj(vm_dict_new(vm)));
}

static void class_statement(PyVM *vm, Env *env, const PyStmt *s)
{
    PyValue *decorators = eval_decorators(vm, env, s);
    PyValue *bases = arena_array_of(vm->a, PyValue, s->nbases + 1);
    for (size_t i = 0; i < s->nbases; i++)
        bases[i] = eval(vm, env, s->bases[i]);
    Env *body = new_env(vm, ENV_CLASS, s->scope, closure_of(env), env->globals);
    body->class_cell = arena_new_of(vm->a, PyClass *);
    /* __module__ = __name__, looked up as a class body looks up a name:
       without __name__ in the globals (3.13's blocks), the builtins'
       ("builtins") */
    PyValue *modname = vm_dict_find_str(env->globals, "__name__");
    if (!modname)
        modname = vm_dict_find_str(vm->builtins, "__name__");
    vm_dict_set_str(vm, body->vars, "__module__",
                    modname ? *modname : vm_make_str(vm, "builtins", 8));
    vm_dict_set_str(vm, body->vars, "__qualname__",
                    vm_make_str(vm, s->qualname, strlen(s->qualname)));
    Env *outer_body = vm->class_body;
    Frame *outer_frame = vm->class_body_frame;
    vm->class_body = body;
    vm->class_body_frame = vm->frame;
    setup_annotations(vm, body, s->body, s->nbody);
    exec_block(vm, body, s->body, s->nbody);
    vm->class_body = outer_body;
    vm->class_body_frame = outer_frame;
    vm->line = s->line;
    PyValue cls = vm_make_class(vm, s->name, bases, s->nbases, body->vars);
    *body->class_cell = vm_as_class(cls);
    store_name(vm, env, s->name, apply_decorators(vm, env, s, decorators, cls));
}

/* ---- comprehensions ---------------------------------------------------- */

typedef struct Comp {
    const PyExpr *e;
    Env *env;
    PyValue result;            /* list, set or dict being built */
} Comp;

static void comp_produce(PyVM *vm, Comp *c)
{
    const PyExpr *e = c->e;
    switch (e->kind) {
    case PX_SETCOMP:
        vm_set_add(vm, (PySet *)c->result.obj, eval(vm, c->env, e->left));
        break;
    case PX_DICTCOMP: {
        PyValue k = eval(vm, c->env, e->left);
        PyValue v = eval(vm, c->env, e->right);
        vm_dict_set(vm, (PyDict *)c->result.obj, k, v);
        break;
    }
    default:
        vm_list_append(vm, (PyList *)c->result.obj, eval(vm, c->env, e->left));
        break;
    }
}

static void comp_loop(PyVM *vm, Comp *c, size_t level, PyValue iterable)
{
    const PyComprehension *g = &c->e->generators[level];
    PyValue it = vm_iter(vm, iterable), item;
    while (vm_next(vm, it, &item)) {
        vm_step(vm);
        assign(vm, c->env, g->target, item);
        bool ok = true;
        for (size_t i = 0; i < g->nifs && ok; i++)
            ok = vm_truthy(vm, eval(vm, c->env, g->ifs[i]));
        if (!ok)
            continue;
        if (level + 1 < c->e->ngenerators)
            comp_loop(vm, c, level + 1,
                      eval_iterable(vm, c->env,
                                    c->e->generators[level + 1].iter));
        else
            comp_produce(vm, c);
    }
}

/* What a for loop or a comprehension iterates. */
static PyValue eval_iterable(PyVM *vm, Env *env, const PyExpr *e)
{
    if (e->kind == PX_SET)
        return eval_set_display(vm, env, e, true);
    return eval(vm, env, e);
}

static PyValue eval_comprehension(PyVM *vm, Env *env, const PyExpr *e)
{
    PyValue first = eval_iterable(vm, env, e->generators[0].iter);
    Comp c = { e, new_env(vm, ENV_COMPREHENSION, NULL, closure_of(env),
                          env->globals), py_none };
    switch (e->kind) {
    case PX_SETCOMP: c.result = vm_obj(vm_set_new(vm, false)); break;
    case PX_DICTCOMP: c.result = vm_obj(vm_dict_new(vm)); break;
    default: c.result = vm_obj(vm_list_new(vm, 4)); break;
    }
    comp_loop(vm, &c, 0, first);
    if (e->kind == PX_GENEXP) {
        /* evaluated eagerly: an iterator over the values */
        PyIter *it = vm_alloc_obj(vm, sizeof *it, OBJ_ITER,
                                  vm->types[T_GENERATOR]);
        it->seq = c.result;
        return vm_obj(it);
    }
    return c.result;
}

/* ---- expressions ------------------------------------------------------- */

static PyValue make_slice(PyVM *vm, Env *env, const PyExpr *e)
{
    PySlice *s = vm_alloc_obj(vm, sizeof *s, OBJ_SLICE, vm->types[T_SLICE]);
    s->start = e->left ? eval(vm, env, e->left) : py_none;
    s->stop = e->right ? eval(vm, env, e->right) : py_none;
    s->step = e->test ? eval(vm, env, e->test) : py_none;
    return vm_obj(s);
}

/* Whether obj[a:b] reads the slice and drops it (a built-in sequence):
   then the slice is a temporary, not arena memory a loop of slices
   would fill. */
static bool slice_not_kept(PyVM *vm, PyValue obj)
{
    switch (obj.kind) {
    case PY_STR:
    case PY_BYTES:
    case PY_TUPLE:
        return true;
    case PY_OBJECT:
        return obj.obj->kind == OBJ_LIST && obj.obj->type == vm->types[T_LIST];
    default:
        return false;
    }
}

static PyValue temp_slice_getitem(PyVM *vm, Env *env, PyValue obj,
                                  const PyExpr *e)
{
    PyValue start = e->left ? eval(vm, env, e->left) : py_none;
    PyValue stop = e->right ? eval(vm, env, e->right) : py_none;
    PyValue step = e->test ? eval(vm, env, e->test) : py_none;
    TempMark mark = vm_temp_mark(vm);
    PySlice *s = vm_temp_alloc(vm, sizeof *s);
    s->ob.kind = OBJ_SLICE;
    s->ob.type = vm->types[T_SLICE];
    s->start = start;
    s->stop = stop;
    s->step = step;
    PyValue r = vm_getitem(vm, obj, vm_obj(s));
    vm_temp_release(vm, mark);
    return r;
}

static PyValue subscript_key(PyVM *vm, Env *env, const PyExpr *e)
{
    if (e->kind == PX_SLICE)
        return make_slice(vm, env, e);
    return eval(vm, env, e);
}

/* Items of a display with *unpacking. */
static PyValue *display_items(PyVM *vm, Env *env, PyExpr *const *items,
                              size_t n, size_t *count)
{
    ArgBuf b = { 0 };
    for (size_t i = 0; i < n; i++) {
        if (items[i]->kind == PX_STARRED) {
            size_t k;
            PyValue *vals = vm_collect(vm, eval(vm, env, items[i]->left), &k);
            for (size_t j = 0; j < k; j++)
                arg_push(vm, &b, vals[j]);
        } else {
            arg_push(vm, &b, eval(vm, env, items[i]));
        }
    }
    *count = b.n;
    return b.args;
}

static const char *ascii_of(PyVM *vm, PyValue v)
{
    const char *r = vm_repr(vm, v);
    ABuf b = { vm, NULL, 0, 0 };
    const unsigned char *s = (const unsigned char *)r;
    size_t n = strlen(r);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = utf8_decode(s + i, n - i, &cp);
        if (cp < 0x80)
            ab_addc(&b, (char)cp);
        else if (cp < 0x100)
            ab_addf(&b, "\\x%02x", cp);
        else if (cp < 0x10000)
            ab_addf(&b, "\\u%04x", cp);
        else
            ab_addf(&b, "\\U%08x", cp);
        i += k;
    }
    ab_add(&b, "", 0);
    return b.s;
}

const char *vm_ascii(PyVM *vm, PyValue v)
{
    return ascii_of(vm, v);
}

static PyValue eval_fstring(PyVM *vm, Env *env, const PyExpr *e)
{
    ABuf b = { vm, NULL, 0, 0 };
    ab_add(&b, "", 0);
    for (size_t i = 0; i < e->nitems; i++) {
        const PyExpr *part = e->items[i];
        if (part->kind == PX_CONST) {
            ab_add(&b, part->value.s, part->value.len);
            continue;
        }
        PyValue v = eval(vm, env, part->left);
        const char *spec = "";
        if (part->test) {
            PyValue s = eval(vm, env, part->test);
            spec = s.s;
        }
        if (part->conversion == 's')
            v = vm_make_str(vm, vm_str(vm, v), strlen(vm_str(vm, v)));
        else if (part->conversion == 'r') {
            const char *r = vm_repr(vm, v);
            v = vm_make_str(vm, r, strlen(r));
        } else if (part->conversion == 'a') {
            const char *r = ascii_of(vm, v);
            v = vm_make_str(vm, r, strlen(r));
        }
        ab_adds(&b, vm_format(vm, v, spec));
    }
    return ab_value(&b);
}

/* Whether CPython's compiler folds e into a constant (ast_opt.c):
   literals, unary operators on them, tuples of constants, operators on
   constants whose int result stays small (128 bits). */
static bool folds_to_constant(const PyExpr *e, PyValue value)
{
    switch (e->kind) {
    case PX_CONST:
        return true;
    case PX_UNARYOP:
        return e->left->kind == PX_CONST ||
               e->left->kind == PX_UNARYOP;
    case PX_TUPLE:
        for (size_t i = 0; i < e->nitems; i++)
            if (e->items[i]->kind == PX_STARRED ||
                !folds_to_constant(e->items[i], value.items[i]))
                return false;
        return true;
    case PX_BINOP:
        return (e->left->kind == PX_CONST || e->left->kind == PX_UNARYOP) &&
               (e->right->kind == PX_CONST || e->right->kind == PX_UNARYOP) &&
               (value.kind != PY_INT || strlen(value.s) <= 38);
    default:
        return false;
    }
}

/* A set display.  Of three or more constants, CPython builds a frozenset
   constant, which the compiler makes twice (the second time from the
   first one's order) and the display copies: its elements come out in
   that order, which this reproduces.  iterated: the display is what a
   for loop or a comprehension iterates. */
static PyValue eval_set_display(PyVM *vm, Env *env, const PyExpr *e,
                                bool iterated)
{
    size_t n;
    PyValue *items = display_items(vm, env, e->items, e->nitems, &n);
    PySet *s = vm_set_new(vm, false);
    for (size_t i = 0; i < n; i++)
        vm_set_add(vm, s, items[i]);
    /* "for x in {constants}" is folded at any size (ast_opt's fold_iter) */
    bool constant = e->nitems >= (iterated ? 1u : 3u);
    for (size_t i = 0; i < e->nitems && constant; i++)
        constant = folds_to_constant(e->items[i], items[i]);
    if (!constant)
        return vm_obj(s);
    PySet *again = vm_set_new(vm, true), *result = vm_set_new(vm, false);
    size_t pos = 0;
    PyValue key;
    while (vm_set_next(s, &pos, &key))
        vm_set_add(vm, again, key);
    if (iterated)
        return vm_obj(again);      /* the loop iterates the constant */
    vm_set_merge(vm, result, again);
    return vm_obj(result);
}

static PyValue eval_lambda(PyVM *vm, Env *env, const PyExpr *e)
{
    return make_function(vm, env, e->vm_data);
}

static PyValue eval(PyVM *vm, Env *env, const PyExpr *e)
{
    /* an expression nests as deep as the parser allows (2,000), which a
       stack that calls have mostly taken may not hold (a sanitizer's
       frames are big): the stack is checked as vm_enter checks it */
    if (e->kind != PX_CONST && e->kind != PX_NAME && vm_stack_spent(vm))
        vm_recursion_error(vm, "");
    switch (e->kind) {
    case PX_CONST:
        return e->value;
    case PX_NAME:
        return load_name(vm, env, e->id);
    case PX_ATTRIBUTE:
        return vm_getattr(vm, eval(vm, env, e->left), e->id);
    case PX_CALL:
        return eval_call(vm, env, e);
    case PX_UNARYOP:
        if (strcmp(e->op, "Not") == 0)
            return pyvm_bool(!vm_truthy(vm, eval(vm, env, e->left)));
        return vm_unaryop(vm, e->op, eval(vm, env, e->left));
    case PX_BINOP: {
        PyValue l = eval(vm, env, e->left);
        PyValue r = eval(vm, env, e->right);
        return vm_binop(vm, e->op, l, r);
    }
    case PX_BOOLOP: {
        bool is_and = strcmp(e->op, "And") == 0;
        PyValue v = py_none;
        for (size_t i = 0; i < e->nitems; i++) {
            v = eval(vm, env, e->items[i]);
            if (vm_truthy(vm, v) != is_and)
                return v;
        }
        return v;
    }
    case PX_COMPARE: {
        PyValue l = eval(vm, env, e->left);
        /* "x in (a, b)": the tuple is only looked through, never seen by
           Python code (only its items are compared), so its items are
           temporaries */
        if (e->nitems == 1 && e->items[0]->kind == PX_TUPLE &&
            (!strcmp(e->ops[0], "In") || !strcmp(e->ops[0], "NotIn"))) {
            TempMark mark = vm_temp_mark(vm);
            PyValue t = { .kind = PY_TUPLE };
            t.items = display_items(vm, env, e->items[0]->items,
                                    e->items[0]->nitems, &t.nitems);
            bool r = vm_compare(vm, e->ops[0], l, t);
            vm_temp_release(vm, mark);
            return pyvm_bool(r);
        }
        for (size_t i = 0; i < e->nitems; i++) {
            PyValue r = eval(vm, env, e->items[i]);
            if (!vm_compare(vm, e->ops[i], l, r))
                return pyvm_bool(false);
            l = r;
        }
        return pyvm_bool(true);
    }
    case PX_IFEXP:
        return vm_truthy(vm, eval(vm, env, e->test)) ? eval(vm, env, e->left)
                                                    : eval(vm, env, e->right);
    case PX_LAMBDA:
        return eval_lambda(vm, env, e);
    case PX_SUBSCRIPT: {
        PyValue obj = eval(vm, env, e->left);
        if (e->right->kind == PX_SLICE && slice_not_kept(vm, obj))
            return temp_slice_getitem(vm, env, obj, e->right);
        return vm_getitem(vm, obj, subscript_key(vm, env, e->right));
    }
    case PX_TUPLE: {
        /* the items gathered as temporaries, given back once copied */
        size_t n;
        TempMark mark = vm_temp_mark(vm);
        PyValue *items = display_items(vm, env, e->items, e->nitems, &n);
        PyValue t = vm_make_tuple(vm, items, n);
        vm_temp_release(vm, mark);
        return t;
    }
    case PX_LIST: {
        size_t n;
        TempMark mark = vm_temp_mark(vm);
        PyValue *items = display_items(vm, env, e->items, e->nitems, &n);
        PyList *l = vm_list_new(vm, n);
        for (size_t i = 0; i < n; i++)
            vm_list_append(vm, l, items[i]);
        vm_temp_release(vm, mark);
        return vm_obj(l);
    }
    case PX_SET:
        return eval_set_display(vm, env, e, false);
    case PX_DICT: {
        PyDict *d = vm_dict_new(vm);
        for (size_t i = 0; i < e->nitems; i++) {
            if (!e->items[i]) {
                PyValue m = eval(vm, env, e->values[i]);
                if (!vm_is_kind(m, OBJ_DICT))
                    vm_raise_class(vm, vm->types[T_TYPE_ERROR],
                                   arena_printf(vm->a, "'%s' object is not a "
                                                "mapping", vm_type_name(vm, m)));
                PyDict *src = (PyDict *)m.obj;
                for (size_t k = 0; k < src->len; k++)
                    vm_dict_set(vm, d, src->keys[k], src->values[k]);
                continue;
            }
            PyValue k = eval(vm, env, e->items[i]);
            PyValue v = eval(vm, env, e->values[i]);
            vm_dict_set(vm, d, k, v);
        }
        return vm_obj(d);
    }
    case PX_LISTCOMP:
    case PX_SETCOMP:
    case PX_DICTCOMP:
    case PX_GENEXP:
        return eval_comprehension(vm, env, e);
    case PX_JOINEDSTR:
        return eval_fstring(vm, env, e);
    case PX_FORMATTEDVALUE: {
        PyExpr js = { .kind = PX_JOINEDSTR, .items = (PyExpr **)&e, .nitems = 1 };
        return eval_fstring(vm, env, &js);
    }
    case PX_NAMEDEXPR: {
        PyValue v = eval(vm, env, e->right);
        Env *target = env;
        while (target->kind == ENV_COMPREHENSION && target->outer)
            target = target->outer;
        if (target->kind == ENV_COMPREHENSION)
            vm_dict_set_str(vm, env->globals, e->left->id, v);
        else
            store_name(vm, target, e->left->id, v);
        return v;
    }
    case PX_SLICE:
        return make_slice(vm, env, e);
    case PX_STARRED:
        vm_raise_class(vm, vm->types[T_SYNTAX_ERROR],
                       "can't use starred expression here");
    case PX_YIELD:
    case PX_YIELDFROM:
    case PX_AWAIT:
        break;
    }
    vm_raise_class(vm, vm->types[T_RUNTIME_ERROR], "unsupported expression");
}

/* ---- statements -------------------------------------------------------- */

static void del_target(PyVM *vm, Env *env, const PyExpr *t)
{
    switch (t->kind) {
    case PX_NAME:
        delete_name(vm, env, t->id);
        break;
    case PX_ATTRIBUTE:
        vm_delattr(vm, eval(vm, env, t->left), t->id);
        break;
    case PX_SUBSCRIPT: {
        PyValue obj = eval(vm, env, t->left);
        vm_delitem(vm, obj, subscript_key(vm, env, t->right));
        break;
    }
    case PX_TUPLE:
    case PX_LIST:
        for (size_t i = 0; i < t->nitems; i++)
            del_target(vm, env, t->items[i]);
        break;
    default:
        break;
    }
}

static void aug_assign(PyVM *vm, Env *env, const PyStmt *s)
{
    const PyExpr *t = s->target;
    switch (t->kind) {
    case PX_NAME: {
        PyValue v = load_name(vm, env, t->id);
        PyValue r = vm_inplace(vm, s->op, v, eval(vm, env, s->value));
        store_name(vm, env, t->id, r);
        return;
    }
    case PX_ATTRIBUTE: {
        PyValue obj = eval(vm, env, t->left);
        PyValue v = vm_getattr(vm, obj, t->id);
        PyValue r = vm_inplace(vm, s->op, v, eval(vm, env, s->value));
        vm_setattr(vm, obj, t->id, r);
        return;
    }
    case PX_SUBSCRIPT: {
        PyValue obj = eval(vm, env, t->left);
        PyValue key = subscript_key(vm, env, t->right);
        PyValue v = vm_getitem(vm, obj, key);
        PyValue r = vm_inplace(vm, s->op, v, eval(vm, env, s->value));
        vm_setitem(vm, obj, key, r);
        return;
    }
    default:
        break;
    }
}

_Noreturn static void raise_statement(PyVM *vm, Env *env, const PyStmt *s)
{
    if (!s->value)
        vm_raise_class(vm, vm->types[T_RUNTIME_ERROR],
                       "No active exception to reraise");
    PyValue exc = eval(vm, env, s->value);
    if (s->test) {
        PyValue cause = eval(vm, env, s->test);
        PyClass *cc = vm_as_class(cause);
        if (!(cause.kind == PY_NONE || (cc && cc->is_exception) ||
              vm_type_of(vm, cause)->is_exception))
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], "exception causes "
                           "must derive from BaseException");
    }
    PyClass *cls = vm_as_class(exc);
    if (cls) {
        if (!cls->is_exception)
            vm_raise_class(vm, vm->types[T_TYPE_ERROR], "exceptions must "
                           "derive from BaseException");
        exc = vm_call0(vm, exc);
    }
    if (!vm_type_of(vm, exc)->is_exception || !vm_is_kind(exc, OBJ_INSTANCE))
        vm_raise_class(vm, vm->types[T_TYPE_ERROR], "exceptions must derive "
                       "from BaseException");
    vm_throw(vm, exc);
}

static Flow exec_stmt(PyVM *vm, Env *env, const PyStmt *s)
{
    vm->line = s->line;
    vm_step(vm);
    switch (s->kind) {
    case ST_EXPR:
        eval(vm, env, s->value);
        return FLOW_NORMAL;
    case ST_ASSIGN: {
        PyValue v = eval(vm, env, s->value);
        for (size_t i = 0; i < s->ntargets; i++)
            assign(vm, env, s->targets[i], v);
        return FLOW_NORMAL;
    }
    case ST_AUGASSIGN:
        aug_assign(vm, env, s);
        return FLOW_NORMAL;
    case ST_ANNASSIGN:
        if (env->kind != ENV_FUNCTION && s->target->kind == PX_NAME) {
            /* the scope's __annotations__, as SETUP_ANNOTATIONS makes
               it (here when the first annotation runs) */
            PyValue ann = annotation_value(vm, env, s->test);
            PyValue *d = vm_dict_find_str(env->vars, "__annotations__");
            if (!d || !vm_is_kind(*d, OBJ_DICT)) {
                vm_dict_set_str(vm, env->vars, "__annotations__",
                                vm_obj(vm_dict_new(vm)));
                d = vm_dict_find_str(env->vars, "__annotations__");
            }
            vm_dict_set_str(vm, (PyDict *)d->obj, s->target->id, ann);
        }
        if (s->value)
            assign(vm, env, s->target, eval(vm, env, s->value));
        return FLOW_NORMAL;
    case ST_PASS:
    case ST_GLOBAL:
    case ST_NONLOCAL:
        return FLOW_NORMAL;
    case ST_BREAK:
        return FLOW_BREAK;
    case ST_CONTINUE:
        return FLOW_CONTINUE;
    case ST_RETURN:
        vm->ret = s->value ? eval(vm, env, s->value) : py_none;
        return FLOW_RETURN;
    case ST_RAISE:
        raise_statement(vm, env, s);
    case ST_ASSERT:
        if (!vm_truthy(vm, eval(vm, env, s->test))) {
            if (s->value) {
                PyValue msg = eval(vm, env, s->value);
                vm_throw(vm, vm_new_exception(vm, vm->types[T_ASSERTION_ERROR],
                                              &msg, 1));
            }
            vm_throw(vm, vm_new_exception(vm, vm->types[T_ASSERTION_ERROR],
                                          NULL, 0));
        }
        return FLOW_NORMAL;
    case ST_DEL:
        for (size_t i = 0; i < s->ntargets; i++)
            del_target(vm, env, s->targets[i]);
        return FLOW_NORMAL;
    case ST_IF:
        /* an elif chain (pyvm_parse.c) runs as a loop */
        while (!vm_truthy(vm, eval(vm, env, s->test))) {
            if (s->norelse != 1 || s->orelse[0]->kind != ST_IF)
                return exec_block(vm, env, s->orelse, s->norelse);
            s = s->orelse[0];
            vm->line = s->line;
            vm_step(vm);
        }
        return exec_block(vm, env, s->body, s->nbody);
    case ST_WHILE:
        while (vm_truthy(vm, eval(vm, env, s->test))) {
            Flow f = exec_block(vm, env, s->body, s->nbody);
            if (f == FLOW_BREAK)
                return FLOW_NORMAL;
            if (f == FLOW_RETURN)
                return f;
            vm->line = s->line;
        }
        return exec_block(vm, env, s->orelse, s->norelse);
    case ST_FOR: {
        PyValue it = vm_iter(vm, eval_iterable(vm, env, s->test)), item;
        while (vm_next(vm, it, &item)) {
            assign(vm, env, s->target, item);
            Flow f = exec_block(vm, env, s->body, s->nbody);
            if (f == FLOW_BREAK)
                return FLOW_NORMAL;
            if (f == FLOW_RETURN)
                return f;
            vm->line = s->line;
        }
        return exec_block(vm, env, s->orelse, s->norelse);
    }
    case ST_DEF: {
        PyValue *decorators = eval_decorators(vm, env, s);
        PyValue f = make_function(vm, env, s->def);
        store_name(vm, env, s->def->name,
                   apply_decorators(vm, env, s, decorators, f));
        return FLOW_NORMAL;
    }
    case ST_CLASS:
        class_statement(vm, env, s);
        return FLOW_NORMAL;
    }
    return FLOW_NORMAL;
}

static Flow exec_block(PyVM *vm, Env *env, PyStmt *const *body, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        Flow f = exec_stmt(vm, env, body[i]);
        if (f != FLOW_NORMAL)
            return f;
    }
    return FLOW_NORMAL;
}

/* ---- the interpreter --------------------------------------------------- */

PyVM *pyvm_new(Arena *a)
{
    PyVM *vm = arena_new_of(a, PyVM);
    vm_lookups_stale();
    vm->a = a;
    vm->arena_base = arena_bytes(a);
    vm->step_limit = 2000000;
    vm->work_limit = WORK_LIMIT;
    vm->work_check = WORK_CHECK_EVERY;
    vm->memory_limit = (size_t)512 << 20;
    vm->stack_budget = vm_stack_budget();
    vm_bootstrap(vm);
    vm->builtins = vm_dict_new(vm);
    vm->globals = vm_dict_new(vm);
    vm_install_methods(vm);
    vm_install_builtins(vm);
    vm_dict_set_static(vm, vm->globals, "__name__", vm_make_str(vm, "__main__", 8));
    arena_on_free(a, vm_give_back_memory, vm);
    arena_set_grow_hook(a, vm_arena_growing, vm);
    return vm;
}

PyObj *pyvm_builtins(PyVM *vm)
{
    return &vm->builtins->ob;
}

PyObj *pyvm_globals(PyVM *vm)
{
    return &vm->globals->ob;
}

int pyvm_line_running(const PyVM *vm)
{
    return vm->handler ? vm->line : 0;
}

void pyvm_set_step_limit(PyVM *vm, long steps)
{
    vm->step_limit = steps;
}

void pyvm_set_work_limit(PyVM *vm, uint64_t units)
{
    vm->work_limit = units;
    vm->work_check = vm->work < units ? vm->work + 1 : units + 1;
}

void pyvm_set_memory_limit(PyVM *vm, size_t bytes)
{
    vm->memory_limit = bytes;
}

typedef struct Run {
    const PyProgram *prog;
    Env *env;
} Run;

static void run(PyVM *vm, void *ctx)
{
    Run *r = ctx;
    setup_annotations(vm, r->env, r->prog->body, r->prog->nbody);
    exec_block(vm, r->env, r->prog->body, r->prog->nbody);
}

/* ---- "Did you mean" ----------------------------------------------------

   Python 3.11's interpreter offers, for a NameError a lookup raised, the
   closest of the frame's local variables, else of its globals, else of
   its builtins (text_suggestion(): each list on its own). */

/* The names of Python 3.11's builtins module, in its dict's order (a
   script's: site adds open ... help): the candidates it offers, whichever
   of them this interpreter has. */
static const char *const python_builtin_names[] = {
    "__name__", "__doc__", "__package__", "__loader__", "__spec__",
    "__build_class__", "__import__", "abs", "all", "any", "ascii", "bin",
    "breakpoint", "callable", "chr", "compile", "delattr", "dir", "divmod",
    "eval", "exec", "format", "getattr", "globals", "hasattr", "hash", "hex",
    "id", "input", "isinstance", "issubclass", "iter", "aiter", "len",
    "locals", "max", "min", "next", "anext", "oct", "ord", "pow", "print",
    "repr", "round", "setattr", "sorted", "sum", "vars", "None", "Ellipsis",
    "NotImplemented", "False", "True", "bool", "memoryview", "bytearray",
    "bytes", "classmethod", "complex", "dict", "enumerate", "filter", "float",
    "frozenset", "property", "int", "list", "map", "object", "range",
    "reversed", "set", "slice", "staticmethod", "str", "super", "tuple",
    "type", "zip", "__debug__", "BaseException", "BaseExceptionGroup",
    "Exception", "GeneratorExit", "KeyboardInterrupt", "SystemExit",
    "ArithmeticError", "AssertionError", "AttributeError", "BufferError",
    "EOFError", "ImportError", "LookupError", "MemoryError", "NameError",
    "OSError", "ReferenceError", "RuntimeError", "StopAsyncIteration",
    "StopIteration", "SyntaxError", "SystemError", "TypeError", "ValueError",
    "Warning", "FloatingPointError", "OverflowError", "ZeroDivisionError",
    "BytesWarning", "DeprecationWarning", "EncodingWarning", "FutureWarning",
    "ImportWarning", "PendingDeprecationWarning", "ResourceWarning",
    "RuntimeWarning", "SyntaxWarning", "UnicodeWarning", "UserWarning",
    "BlockingIOError", "ChildProcessError", "ConnectionError",
    "FileExistsError", "FileNotFoundError", "InterruptedError",
    "IsADirectoryError", "NotADirectoryError", "PermissionError",
    "ProcessLookupError", "TimeoutError", "IndentationError", "IndexError",
    "KeyError", "ModuleNotFoundError", "NotImplementedError",
    "RecursionError", "UnboundLocalError", "UnicodeError", "BrokenPipeError",
    "ConnectionAbortedError", "ConnectionRefusedError",
    "ConnectionResetError", "TabError", "UnicodeDecodeError",
    "UnicodeEncodeError", "UnicodeTranslateError", "ExceptionGroup",
    "EnvironmentError", "IOError", "open", "quit", "exit", "copyright",
    "credits", "license", "help",
};

const char *pyvm_error_suggestion(PyVM *vm)
{
    if (vm->error.value.kind != PY_OBJECT)
        return NULL;
    if (vm->attribute_hint.exception &&
        vm->error.value.obj == vm->attribute_hint.exception)
        return vm_attribute_suggestion(vm, vm->attribute_hint.obj,
                                       vm->attribute_hint.name);
    if (vm->error.value.obj != vm->name_hint.exception ||
        !vm->name_hint.exception)
        return NULL;
    const char *name = vm->name_hint.name;
    const char **names;
    size_t n;
    if (vm->name_hint.comprehension_choice[0])
        return vm->name_hint.comprehension_choice;
    /* a function's variables, as its code object names them */
    const PyScope *scope = vm->name_hint.function_scope;
    const char *best = scope ? text_suggestion(name, scope->locals,
                                               scope->nlocals) : NULL;
    if (best)
        return best;
    /* the module's own names live in the globals with exec() */
    n = dict_names(vm, vm->name_hint.globals, vm->name_hint.module_vars,
                   &names, "__builtins__");
    best = text_suggestion(name, names, n);
    if (best)
        return best;
    return text_suggestion(name, python_builtin_names,
                           sizeof python_builtin_names /
                           sizeof *python_builtin_names);
}

bool pyvm_run(PyVM *vm, const PyProgram *prog, PyObj *locals)
{
    return pyvm_exec(vm, prog, NULL, locals);
}

bool pyvm_exec(PyVM *vm, const PyProgram *prog, PyObj *globals,
               PyObj *locals)
{
    vm_lookups_stale();
    Env *env = arena_new_of(vm->a, Env);
    env->kind = ENV_MODULE;
    env->globals = globals ? (PyDict *)globals : vm->globals;
    env->vars = locals ? (PyDict *)locals : env->globals;
    env->scope = &prog->scope;
    Run r = { prog, env };
    vm->steps = 0;
    Env *outer = vm->module_env, *outer_body = vm->class_body;
    vm->module_env = env;
    vm->class_body = NULL;
    bool ok = vm_protect(vm, run, &r);
    vm->module_env = outer;
    vm->class_body = outer_body;
    return ok;
}

PyObj *pyvm_globals_copy(PyVM *vm)
{
    /* a dict of names, not the module: no __name__ */
    PyDict *copy = vm_dict_copy_lazy(vm, vm->globals, "__name__");
    vm_dict_set_str(vm, copy, "__builtins__", vm_obj(vm->builtins));
    return &copy->ob;
}

Env *vm_scope_now(PyVM *vm)
{
    /* a class body runs in the call it is in: calls it makes have
       frames of their own */
    if (vm->class_body && vm->class_body_frame == vm->frame)
        return vm->class_body;
    return vm->frame ? vm->frame->env : vm->module_env;
}

typedef struct ExprRun {
    const PyExpr *e;
    Env *env;
    PyValue value;
} ExprRun;

static void run_expr(PyVM *vm, void *ctx)
{
    ExprRun *r = ctx;
    r->value = eval(vm, r->env, r->e);
}

bool pyvm_eval(PyVM *vm, const PyExpr *e, PyObj *globals, PyObj *locals,
               PyValue *out)
{
    static const PyScope module_scope;
    vm_lookups_stale();
    Env *env = arena_new_of(vm->a, Env);
    env->kind = ENV_MODULE;
    env->globals = globals ? (PyDict *)globals : vm->globals;
    env->vars = locals ? (PyDict *)locals : env->globals;
    env->scope = &module_scope;
    ExprRun r = { e, env, py_none };
    vm->steps = 0;
    if (!vm_protect(vm, run_expr, &r))
        return false;
    *out = r.value;
    return true;
}

static void run_error_repr(PyVM *vm, void *ctx)
{
    *(const char **)ctx = vm_repr(vm, vm->error.value);
}

const char *pyvm_error_repr(PyVM *vm)
{
    PyError error = vm->error;
    const char *repr = error.type;
    if (!vm_protect(vm, run_error_repr, &repr))
        repr = error.type;
    vm->error = error;
    return repr;
}

void vm_write(PyVM *vm, const char *s, size_t n)
{
    if (vm->outlen + n + 1 > vm->outcap) {
        size_t cap = vm->outcap ? vm->outcap * 2 : 256;
        while (cap < vm->outlen + n + 1)
            cap *= 2;
        char *buf = arena_alloc_uninit(vm->a, cap);
        if (vm->outlen)
            memcpy(buf, vm->out, vm->outlen);
        vm->out = buf;
        vm->outcap = cap;
    }
    memcpy(vm->out + vm->outlen, s, n);
    vm->outlen += n;
    vm->out[vm->outlen] = '\0';
}

const char *pyvm_take_output(PyVM *vm, size_t *len)
{
    const char *out = vm->out ? vm->out : "";
    if (len)
        *len = vm->outlen;
    vm->out = NULL;
    vm->outlen = vm->outcap = 0;
    return out;
}
