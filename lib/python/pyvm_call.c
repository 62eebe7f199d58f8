/*
 * pyvm_call.c — calls and exceptions (Lua's ldo.c).
 *
 * A call binds its arguments to parameters exactly as CPython does,
 * with CPython's TypeError messages, then runs a Python function
 * (pyvm_eval.c), a native, a bound method or a class.  An exception is a
 * longjmp to the innermost protected call (vm_protect), which restores
 * the interpreter's state and describes the exception the way the last
 * line of a traceback does.  Nothing needs unwinding by hand: all memory
 * is the arena's.
 */
#include "python/pyvm_int.h"

#include <sys/resource.h>

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The C stack a run may take: a call that would go past it is Python's
   RecursionError rather than a crash.  Ordinary builds reach VM_MAX_DEPTH
   long before (a Python call takes 2-4 KiB); it is what stops a deep
   recursion under a sanitizer, or on a small stack (ulimit -s).  Threads
   get the same stack as the main thread (clinic/pool.c).  The margin is
   for what runs between two checks (vm_enter, eval): the parsers' and the
   formatters' depths are bounded. */
size_t vm_stack_budget(void)
{
    size_t size = (size_t)8 << 20;
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        size = (size_t)rl.rlim_cur;
    size_t margin = (size_t)1 << 20;
    return size > 2 * margin ? size - margin : size / 2;
}

void vm_recursion_error(PyVM *vm, const char *where)
{
    vm_raise_class(vm, vm->types[T_RECURSION_ERROR], arena_printf(vm->a,
                   "maximum recursion depth exceeded%s", where));
}

void pyvm_enter(PyVM *vm, const char *where)
{
    vm_enter(vm, where);
}

void pyvm_leave(PyVM *vm)
{
    vm_leave(vm);
}

/* ---- temporaries -------------------------------------------------------- */

/* Under AddressSanitizer what is given back is poisoned (arena.h), so
   that a temporary kept past its call fails the tests (as arena.c's
   resets do). */
#define TEMP_CHUNK (16 * 1024)

void *vm_temp_alloc(PyVM *vm, size_t size)
{
    size = (size + _Alignof(max_align_t) - 1) / _Alignof(max_align_t) *
           _Alignof(max_align_t);
    TempChunk *c = vm->temp;
    if (!c || c->size - c->used < size) {
        /* the next chunk, when one was given back and is big enough */
        TempChunk *n = c ? c->next : vm->temp_first;
        if (!n || n->size < size) {
            size_t want = size > TEMP_CHUNK ? size : TEMP_CHUNK;
            TempChunk *fresh = arena_alloc_uninit(vm->a, sizeof *fresh + want);
            fresh->size = want;
            fresh->next = n;
            if (c)
                c->next = fresh;
            else
                vm->temp_first = fresh;
            n = fresh;
        }
        n->used = 0;
        c = vm->temp = n;
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    ARENA_UNPOISON(p, size);
    return p;
}

void vm_temp_release(PyVM *vm, TempMark m)
{
#ifdef ARENA_ASAN
    for (TempChunk *c = m.chunk ? m.chunk : vm->temp_first; c; c = c->next) {
        size_t from = c == m.chunk ? m.used : 0;
        ARENA_POISON((char *)c->data + from, c->size - from);
    }
#endif
    vm->temp = m.chunk;
    if (m.chunk)
        m.chunk->used = m.used;
}

/* ---- raising ----------------------------------------------------------- */

void vm_throw(PyVM *vm, PyValue exc)
{
    vm->error.value = exc;
    vm->error.line = vm->line;
    if (!vm->handler) {
        fprintf(stderr, "clinic: Python exception outside a protected call\n");
        abort();
    }
    longjmp(vm->handler->jb, 1);
}

PyValue vm_new_exception(PyVM *vm, PyClass *cls, const PyValue *args,
                         size_t nargs)
{
    PyInstance *inst = vm_alloc_obj(vm, sizeof *inst, OBJ_INSTANCE, cls);
    inst->dict = vm_dict_new(vm);
    inst->args = vm_make_tuple(vm, args, nargs);
    return vm_obj(inst);
}

void vm_raise_class(PyVM *vm, PyClass *cls, const char *msg)
{
    /* an empty message is an exception without arguments: MemoryError() */
    PyValue arg = msg ? vm_make_str(vm, msg, strlen(msg)) : py_none;
    vm_throw(vm, vm_new_exception(vm, cls, &arg, msg && *msg ? 1 : 0));
}

void pyvm_raise(PyVM *vm, const char *type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vprintf(vm->a, fmt, ap);
    va_end(ap);
    PyObj *cls = pyvm_builtin_class(vm, type);
    vm_raise_class(vm, cls ? (PyClass *)cls : vm->types[T_RUNTIME_ERROR], msg);
}

/* ---- memory ------------------------------------------------------------

   More memory than a python block can mean is stopped too: the arena
   only grows while a file is processed, and a runaway block would take
   the machine down before clinic could report it.  What an interpreter
   counts is its live memory: its arena's growth since it was made (its
   file's memory from its first python block on: small objects are not
   freed one by one) and the big buffers not freed yet (pyvm_heap.c; a
   cap reached collects them first), checked as work goes
   (vm_work_check) and before every big allocation, against two caps:
     - the file's own, memory_limit (512 MiB);
     - the run's: all interpreters of the process, one per file being
       worked on (clinic -j N), share one pool of MEMORY_POOL bytes.
       Each may use MEMORY_FLOOR bytes without drawing from it, so that a
       normal file (a few MiB at most) never fails because a hostile one
       runs beside it; beyond that it draws from the pool, and gives its
       share back when its arena is freed.  A run peaks at N * 32 MiB +
       512 MiB, where each file's own cap let -j 4 take 1.78 GB. */
#define MEMORY_FLOOR ((size_t)32 << 20)
#define MEMORY_POOL ((size_t)512 << 20)

static _Atomic size_t memory_pool_drawn;

/* What vm draws from the pool when it uses `used` bytes. */
static void draw_from_pool(PyVM *vm, size_t used)
{
    size_t draw = used > MEMORY_FLOOR ? used - MEMORY_FLOOR : 0;
    if (draw > vm->pool_drawn)
        atomic_fetch_add(&memory_pool_drawn, draw - vm->pool_drawn);
    else if (draw < vm->pool_drawn)
        atomic_fetch_sub(&memory_pool_drawn, vm->pool_drawn - draw);
    vm->pool_drawn = draw;
}

void vm_give_back_memory(void *vm_)
{
    PyVM *vm = vm_;
    draw_from_pool(vm, 0);
}

/* MemoryError, made while the arena may grow past the caps (its message
   and object need a little); the caps then grow by that little, so that
   what reports the error (str() of it, the host) does not fail again. */
_Noreturn static void memory_error(PyVM *vm, const char *msg)
{
    vm->reserving = true;
    PyValue arg = vm_make_str(vm, msg, strlen(msg));
    PyValue exc = vm_new_exception(vm, vm->types[T_MEMORY_ERROR], &arg, 1);
    vm->memory_slack += (size_t)1 << 20;
    vm->reserving = false;
    vm_throw(vm, exc);
}

/* Which cap taking `bytes` more would pass: 0 none, 1 the file's, 2 the
   run's. */
static int cap_passed(PyVM *vm, size_t bytes)
{
    size_t used = arena_bytes(vm->a) - vm->arena_base + vm_heap_bytes(vm);
    size_t want = bytes > SIZE_MAX / 2 ? SIZE_MAX / 2 : used + bytes;
    draw_from_pool(vm, used);
    want = want > vm->memory_slack ? want - vm->memory_slack : 0;
    if (want > vm->memory_limit)
        return 1;
    if (want > MEMORY_FLOOR) {
        size_t others = atomic_load(&memory_pool_drawn) - vm->pool_drawn;
        if (others + (want - MEMORY_FLOOR) > MEMORY_POOL)
            return 2;
    }
    return 0;
}

void vm_reserve(PyVM *vm, size_t bytes)
{
    if (vm->reserving)
        return;
    int passed = cap_passed(vm, bytes);
    if (passed) {
        /* what is dead is not counted */
        vm_collect_garbage(vm);
        passed = cap_passed(vm, bytes);
    }
    if (!passed)
        return;
    /* the message's memory is not checked again: the arena growing for
       it would call here, and again, until the stack overflowed */
    vm->reserving = true;
    memory_error(vm, passed == 1
        ? arena_printf(vm->a, "the python block used more than %zu MiB: "
                       "clinic stops it there", vm->memory_limit >> 20)
        : arena_printf(vm->a, "the python blocks of the files being "
                       "processed at once used the %zu MiB clinic shares "
                       "among them: clinic stops this one there",
                       MEMORY_POOL >> 20));
}

/* The arena is about to grow by size: while the interpreter runs, that
   is checked against the caps first, whoever allocates (a native, the
   host in a method), so no allocation outruns them. */
void vm_arena_growing(void *vm_, size_t size)
{
    PyVM *vm = vm_;
    if (vm->handler) {
        vm->run_arena_growth += size;
        vm_reserve(vm, size);
    }
}

void vm_step(PyVM *vm)
{
    if (++vm->steps > vm->step_limit) {
        vm->steps = 0;   /* the error path itself may step */
        vm_raise_class(vm, vm->types[T_RUNTIME_ERROR], arena_printf(vm->a,
                       "the python block ran more than %ld steps: clinic "
                       "stops it there", vm->step_limit));
    }
    vm_work(vm, WORK_STEP);
}

void vm_work_check(PyVM *vm)
{
    if (vm->work > vm->work_limit) {
        /* the error path and what the host does after it may work a
           little: a grace, spent again at once by more work */
        vm->work = vm->work_limit - (vm->work_limit < (1u << 20)
                                     ? vm->work_limit : (1u << 20));
        vm->work_check = vm->work_limit + 1;
        vm_raise_class(vm, vm->types[T_RUNTIME_ERROR], arena_printf(vm->a,
                       "the python blocks of this file did more work than "
                       "clinic allows (%llu units: steps, items iterated, "
                       "bytes searched and copied, big-int limb steps): "
                       "clinic stops it there",
                       (unsigned long long)vm->work_limit));
    }
    /* the next check set first: raising MemoryError works too */
    vm->work_check = vm->work + WORK_CHECK_EVERY;
    if (vm->work_check > vm->work_limit)
        vm->work_check = vm->work_limit + 1;
    vm_reserve(vm, 0);
}

static bool is_key_error(PyVM *vm, PyClass *cls)
{
    return vm_is_subclass(cls, vm->types[T_KEY_ERROR]);
}

/* str(exc) for the traceback line, protected against a failing __str__. */
static void exception_str(PyVM *vm, void *ctx)
{
    const char **out = ctx;
    PyValue exc = vm->error.value;
    PyClass *cls = vm_type_of(vm, exc);
    if (vm_is_kind(exc, OBJ_INSTANCE) && cls->is_exception) {
        PyValue str_fn;
        PyClass *owner;
        if (vm_lookup(cls, "__str__", &str_fn, &owner) &&
            !vm_class_is_builtin(owner)) {
            *out = vm_str(vm, exc);
            return;
        }
        PyValue args = ((PyInstance *)exc.obj)->args;
        if (args.nitems == 0)
            *out = "";
        else if (args.nitems == 1)
            *out = is_key_error(vm, cls) ? vm_repr(vm, args.items[0])
                                             : vm_str(vm, args.items[0]);
        else
            *out = vm_repr(vm, args);
        return;
    }
    *out = vm_str(vm, exc);
}

/* Fills vm->error's descriptions from its value. */
static void describe_error(PyVM *vm)
{
    PyError *e = &vm->error;
    PyValue exc = e->value;
    int line = e->line;
    PyClass *cls = vm_as_class(exc);
    if (!cls)
        cls = vm_type_of(vm, exc);
    const char *type = cls->qualname;
    if (strcmp(cls->module, "builtins") && strcmp(cls->module, "__main__"))
        type = arena_printf(vm->a, "%s.%s", cls->module, cls->qualname);
    const char *msg = "";
    if (!vm_as_class(exc)) {
        Handler *saved = vm->handler;
        if (!vm_protect(vm, exception_str, &msg))
            msg = "<exception str() failed>";
        vm->handler = saved;
        e->value = exc;
    }
    e->type = type;
    e->message = msg;
    e->text = *msg ? arena_printf(vm->a, "%s: %s", type, msg) : type;
    e->line = line;
}

bool vm_protect(PyVM *vm, void (*f)(PyVM *, void *), void *ctx)
{
    Handler h;
    h.prev = vm->handler;
    h.frame = vm->frame;
    h.depth = vm->depth;
    h.nin_repr = vm->nin_repr;
    h.temp = vm_temp_mark(vm);
    int line = vm->line;
    if (!h.prev)   /* the outermost run: calls measure the stack from here */
        vm->stack_base = CLINIC_STACK_ADDRESS();
    int in_host = vm->in_host;
    vm->handler = &h;
    if (setjmp(h.jb) == 0) {
        f(vm, ctx);
        vm->handler = h.prev;
        if (!h.prev)   /* the host may keep what the run made */
            vm_heap_promote(vm);
        return true;
    }
    vm->handler = h.prev;
    vm->in_host = in_host;
    if (!h.prev)
        vm_heap_promote(vm);
    vm->frame = h.frame;
    vm->depth = h.depth;
    vm->nin_repr = h.nin_repr;
    vm_temp_release(vm, h.temp);
    PyError saved = vm->error;
    describe_error(vm);
    saved.type = vm->error.type;
    saved.message = vm->error.message;
    saved.text = vm->error.text;
    vm->error = saved;
    vm->line = line;
    return false;
}

bool vm_exception_matches(PyVM *vm, PyClass *cls)
{
    return vm_isinstance(vm, vm->error.value, cls);
}

const PyError *pyvm_error(const PyVM *vm)
{
    return &vm->error;
}

/* ---- binding arguments to parameters ----------------------------------- */

/* A signature: the parameters a call binds, as ceval.c sees a code
   object's. */
typedef struct Sig {
    const char *fname;
    const char *const *names;  /* npos positional (nposonly first), then
                                  nkwonly keyword-only */
    size_t nposonly, npos, nkwonly;
    const PyValue *defaults;   /* the last ndefaults positional ones */
    size_t ndefaults;
    const PyValue *kwdefaults; /* per keyword-only ... */
    const bool *kwhas_default; /* ... when this says it has one */
    const char *vararg, *kwarg;
} Sig;

static const char *plural(size_t n)
{
    return n == 1 ? "" : "s";
}

/* "'a'", "'a' and 'b'", "'a', 'b', and 'c'" */
static const char *name_list(PyVM *vm, const char **names, size_t n)
{
    ABuf b = { vm, NULL, 0, 0 };
    for (size_t i = 0; i < n; i++) {
        if (i && n > 2)
            ab_adds(&b, ", ");
        if (i == n - 1 && n > 1)
            ab_adds(&b, n == 2 ? " and " : "and ");
        ab_addf(&b, "'%s'", names[i]);
    }
    return b.s;
}

_Noreturn static void type_error(PyVM *vm, const char *msg)
{
    vm_raise_class(vm, vm->types[T_TYPE_ERROR], msg);
}

static void bind(PyVM *vm, const Sig *s, const PyValue *args, size_t nargs,
                 const char *const *kwnames, const PyValue *kwvalues,
                 size_t nkw, PyValue *slots, bool *filled, PyValue *varargs,
                 PyDict **kwargs)
{
    size_t n = s->npos + s->nkwonly;
    for (size_t i = 0; i < n; i++)
        filled[i] = false;
    size_t take = nargs < s->npos ? nargs : s->npos;
    for (size_t i = 0; i < take; i++) {
        slots[i] = args[i];
        filled[i] = true;
    }
    if (nargs > s->npos && !s->vararg) {
        size_t kwonly_given = 0;
        for (size_t k = 0; k < nkw; k++)
            for (size_t i = s->npos; i < n; i++)
                if (strcmp(kwnames[k], s->names[i]) == 0)
                    kwonly_given++;
        const char *sig = s->ndefaults
            ? arena_printf(vm->a, "from %zu to %zu", s->npos - s->ndefaults,
                           s->npos)
            : arena_printf(vm->a, "%zu", s->npos);
        bool many = s->ndefaults || s->npos != 1;
        if (kwonly_given)
            type_error(vm, arena_printf(vm->a, "%s() takes %s positional "
                       "argument%s but %zu positional argument%s (and %zu "
                       "keyword-only argument%s) were given", s->fname, sig,
                       many ? "s" : "", nargs, plural(nargs), kwonly_given,
                       plural(kwonly_given)));
        type_error(vm, arena_printf(vm->a, "%s() takes %s positional "
                   "argument%s but %zu %s given", s->fname, sig,
                   many ? "s" : "", nargs, nargs == 1 ? "was" : "were"));
    }
    if (s->vararg)
        *varargs = vm_make_tuple(vm, nargs > take ? args + take : NULL,
                                 nargs > take ? nargs - take : 0);
    if (s->kwarg)
        *kwargs = vm_dict_new(vm);
    const char **posonly_as_kw = NULL;
    size_t nposonly_as_kw = 0;
    for (size_t k = 0; k < nkw; k++) {
        size_t i;
        for (i = s->nposonly; i < n; i++)
            if (strcmp(kwnames[k], s->names[i]) == 0)
                break;
        if (i < n) {
            if (filled[i])
                type_error(vm, arena_printf(vm->a, "%s() got multiple values "
                           "for argument '%s'", s->fname, kwnames[k]));
            slots[i] = kwvalues[k];
            filled[i] = true;
            continue;
        }
        if (s->kwarg) {
            if (vm_dict_find_str(*kwargs, kwnames[k]))
                type_error(vm, arena_printf(vm->a, "%s() got multiple values "
                           "for keyword argument '%s'", s->fname, kwnames[k]));
            vm_dict_set_str(vm, *kwargs, kwnames[k], kwvalues[k]);
            continue;
        }
        bool posonly = false;
        for (i = 0; i < s->nposonly; i++)
            if (strcmp(kwnames[k], s->names[i]) == 0)
                posonly = true;
        if (posonly) {
            if (!posonly_as_kw)
                posonly_as_kw = vm_temp_array(vm, const char *, nkw);
            posonly_as_kw[nposonly_as_kw++] = kwnames[k];
            continue;
        }
        type_error(vm, arena_printf(vm->a, "%s() got an unexpected keyword "
                   "argument '%s'", s->fname, kwnames[k]));
    }
    if (nposonly_as_kw) {
        ABuf b = { vm, NULL, 0, 0 };
        for (size_t i = 0; i < nposonly_as_kw; i++)
            ab_addf(&b, "%s'%s'", i ? ", " : "", posonly_as_kw[i]);
        type_error(vm, arena_printf(vm->a, "%s() got some positional-only "
                   "arguments passed as keyword arguments: %s", s->fname,
                   b.s));
    }
    /* defaults, then what is still missing */
    const char **missing = vm_temp_array(vm, const char *, n + 1);
    size_t nmissing = 0;
    size_t first_default = s->npos - s->ndefaults;
    for (size_t i = 0; i < s->npos; i++) {
        if (filled[i])
            continue;
        if (i >= first_default) {
            slots[i] = s->defaults[i - first_default];
            filled[i] = true;
        } else {
            missing[nmissing++] = s->names[i];
        }
    }
    if (nmissing)
        type_error(vm, arena_printf(vm->a, "%s() missing %zu required "
                   "positional argument%s: %s", s->fname, nmissing,
                   plural(nmissing), name_list(vm, missing, nmissing)));
    for (size_t i = s->npos; i < n; i++) {
        if (filled[i])
            continue;
        size_t k = i - s->npos;
        if (s->kwhas_default[k]) {
            slots[i] = s->kwdefaults[k];
            filled[i] = true;
        } else {
            missing[nmissing++] = s->names[i];
        }
    }
    if (nmissing)
        type_error(vm, arena_printf(vm->a, "%s() missing %zu required "
                   "keyword-only argument%s: %s", s->fname, nmissing,
                   plural(nmissing), name_list(vm, missing, nmissing)));
}

/* Binds a Python function's call into the locals of its new scope. */
void vm_bind_function_args(PyVM *vm, PyFunction *f, const PyValue *args,
                           size_t nargs, const char *const *kwnames,
                           const PyValue *kwvalues, size_t nkw, PyDict *vars)
{
    const PyArguments *pa = f->def->args;
    size_t npos = pa->nposonlyargs + pa->nargs, n = npos + pa->nkwonlyargs;
    TempMark mark = vm_temp_mark(vm);
    const char **names = vm_temp_array(vm, const char *, n + 1);
    bool *kwhas = vm_temp_array(vm, bool, pa->nkwonlyargs + 1);
    for (size_t i = 0; i < pa->nposonlyargs; i++)
        names[i] = pa->posonlyargs[i].arg;
    for (size_t i = 0; i < pa->nargs; i++)
        names[pa->nposonlyargs + i] = pa->args[i].arg;
    for (size_t i = 0; i < pa->nkwonlyargs; i++) {
        names[npos + i] = pa->kwonlyargs[i].arg;
        kwhas[i] = pa->kw_defaults[i] != NULL;
    }
    Sig s = {
        .fname = f->qualname, .names = names, .nposonly = pa->nposonlyargs,
        .npos = npos, .nkwonly = pa->nkwonlyargs, .defaults = f->defaults,
        .ndefaults = pa->ndefaults, .kwdefaults = f->kwdefaults,
        .kwhas_default = kwhas,
        .vararg = pa->vararg ? pa->vararg->arg : NULL,
        .kwarg = pa->kwarg ? pa->kwarg->arg : NULL,
    };
    PyValue *slots = vm_temp_array(vm, PyValue, n + 1);
    bool *filled = vm_temp_array(vm, bool, n + 1);
    PyValue varargs;
    PyDict *kwargs = NULL;
    bind(vm, &s, args, nargs, kwnames, kwvalues, nkw, slots, filled, &varargs,
         &kwargs);
    for (size_t i = 0; i < n; i++)
        vm_dict_set_str(vm, vars, names[i], slots[i]);
    if (s.vararg)
        vm_dict_set_str(vm, vars, s.vararg, varargs);
    if (s.kwarg)
        vm_dict_set_str(vm, vars, s.kwarg, vm_obj(kwargs));
    vm_temp_release(vm, mark);
}

const PyValue pyvm_absent = { .kind = PY_UNSPECIFIED, .b = true };

void pyvm_bind(PyVM *vm, const PyArgs *a, const char *fname, const char *spec,
               PyValue *out, PyObj **kwargs)
{
    const char *names[16];
    bool optional[16];
    size_t n = 0, npos = 0, nrequired_pos = 0;
    TempMark mark = vm_temp_mark(vm);
    bool kwonly = false, has_kwarg = false;
    for (const char *p = spec; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *start = p;
        while (*p && *p != ' ')
            p++;
        size_t len = (size_t)(p - start);
        if (len == 1 && *start == '*') {
            kwonly = true;
            continue;
        }
        if (len == 2 && start[0] == '*' && start[1] == '*') {
            has_kwarg = true;
            continue;
        }
        bool opt = start[len - 1] == '=';
        size_t namelen = opt ? len - 1 : len;
        char *name = vm_temp_alloc(vm, namelen + 1);
        memcpy(name, start, namelen);
        name[namelen] = '\0';
        names[n] = name;
        optional[n] = opt;
        if (!kwonly) {
            npos++;
            if (!opt)
                nrequired_pos = npos;
        }
        n++;
    }
    PyValue defaults[16], kwdefaults[16];
    bool kwhas[16];
    for (size_t i = 0; i < n; i++) {
        defaults[i] = kwdefaults[i] = pyvm_absent;
        kwhas[i] = i >= npos && optional[i];
    }
    Sig s = {
        .fname = fname, .names = names, .npos = npos, .nkwonly = n - npos,
        .defaults = defaults, .ndefaults = npos - nrequired_pos,
        .kwdefaults = kwdefaults + 0, .kwhas_default = kwhas + npos,
        .kwarg = has_kwarg ? "kwargs" : NULL,
    };
    bool filled[16];
    PyValue varargs;
    PyDict *kw = NULL;
    bind(vm, &s, a->args, a->nargs, a->kwnames, a->kwvalues, a->nkw, out,
         filled, &varargs, &kw);
    if (kwargs)
        *kwargs = kw ? &kw->ob : NULL;
    vm_temp_release(vm, mark);
}

/* ---- calling ----------------------------------------------------------- */

/* A built-in type's method called with a self that is none of its type's
   (list.pop(5), str.upper()): CPython's descriptor errors, in the words
   of a method ("unbound method list.pop() needs an argument") or of a
   slot wrapper such as __str__. */
static void check_self(PyVM *vm, const PyNative *n, const PyValue *args,
                       size_t nargs)
{
    if (nargs && vm_isinstance(vm, args[0], n->self_type))
        return;
    const char *type = pyvm_class_name(&n->self_type->ob);
    size_t len = strlen(n->name);
    bool slot = len > 4 && !strncmp(n->name, "__", 2) &&
                !strcmp(n->name + len - 2, "__");
    if (!nargs)
        type_error(vm, slot
            ? arena_printf(vm->a, "descriptor '%s' of '%s' object needs an "
                           "argument", n->name, type)
            : arena_printf(vm->a, "unbound method %s.%s() needs an argument",
                           type, n->name));
    const char *got = vm_type_name(vm, args[0]);
    type_error(vm, slot
        ? arena_printf(vm->a, "descriptor '%s' requires a '%s' object but "
                       "received a '%s'", n->name, type, got)
        : arena_printf(vm->a, "descriptor '%s' for '%s' objects doesn't "
                       "apply to a '%s' object", n->name, type, got));
}

PyValue vm_call_link(PyVM *vm, PyValue fn, const PyValue *args, size_t nargs,
                     const char *const *kwnames, const PyValue *kwvalues,
                     size_t nkw)
{
    if (vm_is_kind(fn, OBJ_FUNCTION) || vm_is_kind(fn, OBJ_NATIVE))
        return vm_call(vm, fn, args, nargs, kwnames, kwvalues, nkw);
    vm_enter(vm, " while calling a Python object");
    PyValue r = vm_call(vm, fn, args, nargs, kwnames, kwvalues, nkw);
    vm_leave(vm);
    return r;
}

PyValue vm_call(PyVM *vm, PyValue fn, const PyValue *args, size_t nargs,
                const char *const *kwnames, const PyValue *kwvalues,
                size_t nkw)
{
    vm_step(vm);
    if (fn.kind == PY_OBJECT) {
        switch (fn.obj->kind) {
        case OBJ_FUNCTION: {
            vm_enter(vm, "");
            PyValue r = vm_run_function(vm, (PyFunction *)fn.obj, args, nargs,
                                        kwnames, kwvalues, nkw);
            vm_leave(vm);
            return r;
        }
        case OBJ_NATIVE: {
            PyNative *n = (PyNative *)fn.obj;
            if (n->self_type &&
                (nargs == 0 || vm_type_of(vm, args[0]) != n->self_type))
                check_self(vm, n, args, nargs);
            PyArgs a = { args, nargs, kwnames, kwvalues, nkw };
            vm_enter(vm, "");
            if (n->host)
                vm_host_enter(vm);
            PyValue r = n->fn(vm, &a, n->data);
            if (n->host)
                vm_host_leave(vm);
            vm_leave(vm);
            return r;
        }
        case OBJ_METHOD: {
            PyMethod *m = (PyMethod *)fn.obj;
            TempMark mark = vm_temp_mark(vm);
            PyValue *full = vm_temp_array(vm, PyValue, nargs + 1);
            full[0] = m->self;
            if (nargs)
                memcpy(full + 1, args, nargs * sizeof *args);
            PyValue r = vm_call_link(vm, m->func, full, nargs + 1, kwnames,
                                     kwvalues, nkw);
            vm_temp_release(vm, mark);
            return r;
        }
        case OBJ_CLASS:
            return vm_instantiate(vm, (PyClass *)fn.obj, args, nargs,
                                  kwnames, kwvalues, nkw);
        case OBJ_WRAPPER:
            if (fn.obj->type != vm->types[T_PROPERTY])
                return vm_call_link(vm, ((PyWrapper *)fn.obj)->func, args,
                                    nargs, kwnames, kwvalues, nkw);
            break;
        case OBJ_INSTANCE: {
            PyValue call;
            if (vm_lookup(fn.obj->type, "__call__", &call, NULL))
                return vm_call_link(vm, vm_bind(vm, call, fn, NULL), args,
                                    nargs, kwnames, kwvalues, nkw);
            break;
        }
        default:
            break;
        }
    }
    type_error(vm, arena_printf(vm->a, "'%s' object is not callable",
                                vm_type_name(vm, fn)));
}

PyValue vm_call0(PyVM *vm, PyValue fn)
{
    return vm_call(vm, fn, NULL, 0, NULL, NULL, 0);
}

PyValue vm_call1(PyVM *vm, PyValue fn, PyValue x)
{
    return vm_call(vm, fn, &x, 1, NULL, NULL, 0);
}

PyValue vm_call2(PyVM *vm, PyValue fn, PyValue x, PyValue y)
{
    PyValue args[2] = { x, y };
    return vm_call(vm, fn, args, 2, NULL, NULL, 0);
}

bool vm_call_special(PyVM *vm, PyValue self, const char *name,
                     const PyValue *args, size_t nargs, PyValue *out)
{
    PyClass *type = vm_type_of(vm, self);
    PyValue fn;
    if (!vm_lookup(type, name, &fn, NULL))
        return false;
    TempMark mark = vm_temp_mark(vm);
    PyValue *full = vm_temp_array(vm, PyValue, nargs + 1);
    full[0] = self;
    if (nargs)
        memcpy(full + 1, args, nargs * sizeof *args);
    *out = vm_call(vm, fn, full, nargs + 1, NULL, NULL, 0);
    vm_temp_release(vm, mark);
    return true;
}

PyValue pyvm_call(PyVM *vm, PyValue fn, const PyArgs *a)
{
    return vm_call(vm, fn, a->args, a->nargs, a->kwnames, a->kwvalues, a->nkw);
}

typedef struct PCall {
    PyValue fn;
    const PyArgs *a;
    PyValue result;
} PCall;

static void pcall(PyVM *vm, void *ctx)
{
    PCall *c = ctx;
    c->result = pyvm_call(vm, c->fn, c->a);
}

/* A protected call: false when an exception escaped (pyvm_error()). */
static bool pyvm_pcall(PyVM *vm, PyValue fn, const PyArgs *a, PyValue *result)
{
    PCall c = { fn, a, py_none };
    /* an error before the callee's first statement has no line of its
       own: it is the host's (line 0) */
    int line = vm->line;
    vm->line = 0;
    bool ok = vm_protect(vm, pcall, &c);
    vm->line = line;
    if (result)
        *result = c.result;
    return ok;
}

bool pyvm_pcall_method(PyVM *vm, PyValue fn, PyValue self, const PyArgs *a,
                       PyValue *result)
{
    TempMark mark = vm_temp_mark(vm);
    PyValue *full = vm_temp_array(vm, PyValue, a->nargs + 1);
    full[0] = self;
    if (a->nargs)
        memcpy(full + 1, a->args, a->nargs * sizeof *full);
    PyArgs b = { full, a->nargs + 1, a->kwnames, a->kwvalues, a->nkw };
    bool ok = pyvm_pcall(vm, fn, &b, result);
    vm_temp_release(vm, mark);
    return ok;
}
