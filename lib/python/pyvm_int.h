/*
 * pyvm_int.h — the interpreter's insides, shared by the pyvm_*.c files.
 *
 *   pyvm_parse.c     statements to an AST (expressions are pyexpr's)
 *   pyvm_eval.c      evaluation: expressions, statements, scopes
 *   pyvm_call.c      calls, argument binding, frames, exceptions
 *   pyvm_object.c    classes, instances, attributes, the built-in types
 *   pyvm_table.c     dicts and sets (CPython's layouts, so that sets of
 *                    ints iterate in Python's order)
 *   pyvm_ops.c       operators: arithmetic, comparison, hashing, truth
 *   pyvm_seq.c       containers: items, slices, length, iteration, and
 *                    repr() and str() of every value
 *   pyvm_builtins.c  the builtins module
 *   pyvm_str.c       methods of str (and bytes.decode)
 *   pyvm_methods.c   methods of list, dict, set, tuple, numbers, object
 *   pyvm_format.c    format specs, %-formatting and str.format
 *
 * An object is a PyObj header (its kind and class) at the start of a
 * bigger struct, as CPython's are; PyValue.obj points at it.
 */
#ifndef CLINIC_PYVM_INT_H
#define CLINIC_PYVM_INT_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/compiler.h"
#include "python/pyexpr_int.h"
#include "python/pyvm.h"

typedef struct PyClass PyClass;
typedef struct PyDict PyDict;

/* ---- the AST of statements --------------------------------------------- */

typedef struct PyStmt PyStmt;

/* The names a function (or lambda, or comprehension) binds, found when
   it is parsed, as CPython's symbol table does: an assigned name is
   local unless declared global or nonlocal. */
typedef struct PyScope {
    const char **locals;
    size_t nlocals;
    /* a hash index over locals once there are many (a module of 200,000
       names took 30 s to parse by scanning them): entries are index + 1,
       0 free; local_mask + 1 of them, a power of two */
    uint32_t *local_index;
    size_t local_mask;
    const char **globals;
    size_t nglobals;
    const char **nonlocals;
    size_t nnonlocals;
} PyScope;

/* Whether the scope binds name locally. */
bool vm_scope_has_local(const PyScope *s, const char *name);

typedef struct PyFuncDef {
    const char *name;          /* "<lambda>" for a lambda */
    const char *qualname;
    const PyArguments *args;
    PyStmt **body;             /* a def's */
    size_t nbody;
    const PyExpr *expr;        /* a lambda's */
    const PyExpr *returns;     /* a def's "-> annotation", or NULL */
    PyScope scope;
    int line;
    bool encloses;             /* a def, lambda, class or comprehension is
                                  in its body: what it makes may close over
                                  the call's scope (otherwise nothing can
                                  keep the scope past the call) */
} PyFuncDef;

typedef enum PyStmtKind {
    ST_EXPR, ST_ASSIGN, ST_AUGASSIGN, ST_ANNASSIGN, ST_PASS, ST_BREAK,
    ST_CONTINUE, ST_RETURN, ST_RAISE, ST_ASSERT, ST_DEL, ST_GLOBAL,
    ST_NONLOCAL, ST_IF, ST_WHILE, ST_FOR, ST_DEF, ST_CLASS,
} PyStmtKind;

struct PyStmt {
    PyStmtKind kind;
    int line;                  /* file line */
    PyExpr *value;             /* EXPR, ASSIGN, AUGASSIGN, ANNASSIGN (may
                                  be NULL), RETURN, RAISE (exc), ASSERT (msg) */
    PyExpr **targets;          /* ASSIGN (a = b = value), DEL */
    size_t ntargets;
    PyExpr *target;            /* AUGASSIGN, ANNASSIGN, FOR */
    const char *op;            /* AUGASSIGN: "Add", ... */
    PyExpr *test;              /* IF, WHILE, ASSERT; FOR: the iterable;
                                  RAISE: the cause (from) */
    PyStmt **body, **orelse;
    size_t nbody, norelse;
    const char **names;        /* GLOBAL, NONLOCAL */
    size_t nnames;
    PyExpr **decorators;       /* DEF, CLASS */
    size_t ndecorators;
    PyFuncDef *def;            /* DEF */
    const char *name;          /* CLASS */
    const char *qualname;      /* CLASS */
    PyExpr **bases;            /* CLASS */
    size_t nbases;
    const PyScope *scope;      /* CLASS: its body's */
};

struct PyProgram {
    PyStmt **body;
    size_t nbody;
    PyScope scope;             /* the module level's (global statements) */
};

/* ---- objects ----------------------------------------------------------- */

typedef enum ObjKind {
    OBJ_CLASS, OBJ_INSTANCE, OBJ_LIST, OBJ_DICT, OBJ_SET, OBJ_FUNCTION,
    OBJ_NATIVE, OBJ_METHOD, OBJ_RANGE, OBJ_ITER, OBJ_DICTVIEW, OBJ_SUPER,
    OBJ_WRAPPER, OBJ_SLICE,
} ObjKind;

struct PyObj {
    ObjKind kind;
    PyClass *type;
};

/* The built-in classes, by index into PyVM.types. */
typedef enum BuiltinType {
    T_OBJECT, T_TYPE, T_NONETYPE, T_BOOL, T_INT, T_FLOAT, T_COMPLEX,
    T_STR, T_BYTES, T_BYTEARRAY, T_TUPLE, T_LIST, T_DICT, T_SET,
    T_FROZENSET, T_RANGE, T_FUNCTION, T_BUILTIN, T_METHOD, T_PROPERTY,
    T_STATICMETHOD, T_CLASSMETHOD, T_SUPER, T_ITERATOR, T_DICT_KEYS,
    T_DICT_VALUES, T_DICT_ITEMS, T_SLICE, T_ELLIPSIS, T_GENERATOR,
    T_NULL, T_UNSPECIFIED, T_UNKNOWN, T_OPAQUE,
    /* exceptions */
    T_BASE_EXCEPTION, T_EXCEPTION, T_ARITHMETIC_ERROR, T_ZERO_DIVISION_ERROR,
    T_OVERFLOW_ERROR, T_ASSERTION_ERROR, T_ATTRIBUTE_ERROR, T_LOOKUP_ERROR,
    T_INDEX_ERROR, T_KEY_ERROR, T_NAME_ERROR, T_UNBOUND_LOCAL_ERROR,
    T_RUNTIME_ERROR, T_NOT_IMPLEMENTED_ERROR, T_RECURSION_ERROR,
    T_STOP_ITERATION, T_TYPE_ERROR, T_VALUE_ERROR, T_UNICODE_ERROR,
    T_MEMORY_ERROR, T_SYNTAX_ERROR, T_INDENTATION_ERROR, T_SYSTEM_EXIT,
    T_KEYBOARD_INTERRUPT,
    T_COUNT
} BuiltinType;

/* A native method table row for a built-in class (pyvm_methods.c). */
typedef struct NativeDef {
    const char *name;
    PyNativeFn fn;
} NativeDef;
extern const NativeDef vm_str_methods[], vm_bytes_methods[];  /* pyvm_str.c */

/* For natives: their bound arguments, their self, and whether an
   optional one was given. */
#define ARGS(n) PyValue v[n]; (void)v
#define SELF (a->args[0])
static inline bool vm_given(PyValue v)
{
    return pyvm_given(v);
}

struct PyClass {
    PyObj ob;
    const char *name;
    const char *qualname;
    const char *module;        /* "builtins" for built-in classes */
    PyClass **bases;
    size_t nbases;
    PyClass **mro;             /* C3 linearisation, the class first */
    size_t nmro;
    PyDict *dict;
    int builtin;               /* the BuiltinType instances are laid out
                                  as: T_OBJECT for plain instances,
                                  T_BASE_EXCEPTION for exceptions */
    unsigned pyt_bit;          /* clinic's PYT_ bit (pyexpr.h), if any */
    const PyHostOps *host;
    void *host_data;
    bool is_exception;
    bool made_by_python;       /* a class statement's or type()'s */
    bool is_enum;              /* an enum.Enum class: <enum 'Name'> */
    PyNativeFn construct;      /* a built-in type's constructor: int(x) */
};

/* A class of the interpreter's own (int, object, ...) or one a host made
   as built-in: Python code cannot change it, and its special methods are
   the interpreter's.  A class Python code made is none, whatever its
   __module__ (3.13's blocks make classes of module "builtins"). */
/* clinic's unspecified or unknown (not an opaque value) */
static inline bool vm_is_sentinel(PyValue v)
{
    return v.kind == PY_UNSPECIFIED || (v.kind == PY_UNKNOWN && !v.type_name);
}

/* The member name of a sentinel whose class is an enum (3.13's
   libclinic.utils.Sentinels), else NULL. */
const char *vm_sentinel_member(PyVM *vm, PyValue v);
/* The members of an enum class that is Sentinels, in definition order
   (a tuple), or false for any other object. */
bool vm_enum_members(PyVM *vm, PyValue cls, PyValue *members);

static inline bool vm_class_is_builtin(const PyClass *c)
{
    return !c->made_by_python && !strcmp(c->module, "builtins");
}

typedef struct PyInstance {
    PyObj ob;
    PyDict *dict;
    void *host;
    PyValue args;              /* exceptions: a PY_TUPLE */
} PyInstance;

typedef struct PyList {
    PyObj ob;
    PyValue *items;
    size_t len, cap;
} PyList;

/* An insertion-ordered hash table (dicts), as CPython's compact dict. */
struct PyDict {
    PyObj ob;
    PyValue *keys, *values;
    int64_t *hashes;
    size_t len, cap;           /* entries (none deleted: deleting compacts) */
    int32_t *index;            /* open addressing into the entries, -1 free */
    size_t index_size;         /* a power of two */
    struct PyLazy *lazy;       /* pyvm_lazy_value(): values not made
                                  yet are vm_lazy_value()s */
    bool of_class;             /* a class's: changing it moves
                                  vm_lookup_epoch */
    bool names_kept;           /* a call's temporary locals: vm_dict_set_str
                                  keeps the key it is given (a name of the
                                  function's code, which outlives the call)
                                  instead of a copy */
};

/* A set, laid out as CPython's setobject (open addressing, linear probes
   then perturbation), so it iterates in Python's order for ints. */
typedef struct SetEntry {
    PyValue key;
    int64_t hash;
    int state;                 /* 0 unused, 1 active, 2 dummy */
} SetEntry;
typedef struct PySet {
    PyObj ob;
    SetEntry *table;
    size_t mask, fill, used;
    bool frozen;
} PySet;

/* A def or a lambda: its code, defaults and the scope it closes over. */
typedef struct Env Env;
typedef struct PyFunction {
    PyObj ob;
    const PyFuncDef *def;
    const char *name, *qualname;
    PyValue *defaults;         /* args->ndefaults values */
    PyValue *kwdefaults;       /* one per keyword-only (PY_UNSPECIFIED:
                                  required) */
    Env *closure;              /* the enclosing function's scope, or NULL */
    PyDict *globals;
    PyClass **class_cell;      /* __class__, for super(), of a method */
    PyDict *dict;              /* function attributes */
    PyDict *annotations;       /* __annotations__, made at the def */
} PyFunction;

typedef struct PyNative {
    PyObj ob;
    const char *name;
    PyNativeFn fn;
    void *data;
    bool is_method;
    /* A built-in type's method: the type its self must be an instance
       of, checked on every call as CPython's method descriptors check it
       (list.pop(5) is a TypeError); NULL: the native checks what it needs */
    PyClass *self_type;
    bool host;                 /* the host's (pyvm_native): see
                                  vm_host_enter */
} PyNative;

typedef struct PyMethod {
    PyObj ob;
    PyValue self;
    PyValue func;
} PyMethod;

typedef struct PyRange {
    PyObj ob;
    int64_t start, stop, step;
} PyRange;

/* An iterator over a snapshot or a live object: lists and tuples by
   index, dict views and sets by entry, ranges by value, str by code
   point.  A user class's iterator is called instead. */
typedef struct PyIter {
    PyObj ob;
    PyValue seq;               /* what is iterated */
    size_t pos;
    int64_t next, stop, step;  /* ranges */
    int which;                 /* dict views: 0 keys, 1 values, 2 items */
} PyIter;

typedef struct PyDictView {
    PyObj ob;
    PyDict *dict;
    int which;                 /* 0 keys, 1 values, 2 items */
} PyDictView;

typedef struct PySuper {
    PyObj ob;
    PyClass *cls;              /* look up after this class in ... */
    PyValue self;              /* ... self's MRO */
} PySuper;

/* property, staticmethod, classmethod: one function wrapped. */
typedef struct PyWrapper {
    PyObj ob;
    PyValue func;
} PyWrapper;

typedef struct PySlice {
    PyObj ob;
    PyValue start, stop, step;
} PySlice;

/* ---- the interpreter --------------------------------------------------- */

/* Kinds of scope: they differ in where a name not bound there is looked
   up (a class body is skipped by the functions defined in it). */
typedef enum EnvKind {
    ENV_MODULE, ENV_CLASS, ENV_FUNCTION, ENV_COMPREHENSION,
} EnvKind;

/* A scope at run time: a function call's locals, a class body, a
   comprehension, or the module level. */
struct Env {
    EnvKind kind;
    PyDict *vars;
    const PyScope *scope;      /* the names it binds and declares (NULL
                                  for a comprehension) */
    Env *outer;                /* the enclosing scope: a comprehension's,
                                  or a function's free variables (NULL at
                                  the top) */
    PyDict *globals;
    PyClass **class_cell;      /* a class body: where its class goes */
};

/* The function running now, for super() and error lines. */
typedef struct Frame {
    struct Frame *back;
    PyFunction *func;
    Env *env;
    const PyValue *args;       /* its arguments as bound (args[0]: self) */
    size_t nargs;
} Frame;

/* Memory a call needs only while it runs: its argument arrays and the
   working arrays of binding them.  Taken and given back in LIFO order
   (vm_temp_mark before, vm_temp_release after; an exception gives back
   what the calls it unwinds took), so the calls of a converter method
   made for every parameter do not pile them up in the file's arena.
   Only what is provably dead when the taker returns goes here: an
   argument array is borrowed by the callee, never kept (a tuple or a
   dict made from it copies the values). */
typedef struct TempChunk {
    size_t used, size;
    struct TempChunk *next;    /* kept for reuse once given back */
    max_align_t data[];
} TempChunk;
typedef struct TempMark {
    TempChunk *chunk;          /* NULL: before the first one */
    size_t used;
} TempMark;

/* Where pyvm_raise() lands: the innermost protected call. */
typedef struct Handler {
    jmp_buf jb;
    struct Handler *prev;
    Frame *frame;
    int depth;
    int nin_repr;
    TempMark temp;
} Handler;

struct PyVM {
    PyClass *union_type;       /* types.UnionType, made on first use */
    /* annotations are kept as their text, not evaluated (code compiled
       under "from __future__ import annotations", as libclinic's exec()
       of a block is) */
    bool annotations_as_strings;
    Arena *a;
    PyClass *types[T_COUNT];
    PyDict *builtins;
    PyDict *globals;
    char *out;                 /* print() output: arena memory */
    size_t outlen, outcap;

    Handler *handler;
    PyError error;
    /* What Python's interpreter needs to offer "Did you mean" for the
       last NameError a name lookup raised (pyvm_error_suggestion()):
       the exception, the name (the program's), and what outlives the
       scope it was looked up from (a call's scope is temporary): a
       function's variables, the globals, the module's own names; a
       comprehension's variables are temporary, so its choice among them
       is made at once (choice[0] is 0 for none). */
    struct {
        PyObj *exception;
        const char *name;
        const PyScope *function_scope;
        PyDict *globals, *module_vars;
        char comprehension_choice[256];
    } name_hint;
    /* and for the last AttributeError vm_getattr raised: the object */
    struct {
        PyObj *exception;
        const char *name;
        PyValue obj;
    } attribute_hint;
    Frame *frame;
    Env *module_env;           /* the top level of the program running */
    Env *class_body;           /* the class body running (NULL: none), */
    Frame *class_body_frame;   /* in the call of this frame */
    int depth;                 /* Python calls in progress */
    uintptr_t stack_base;      /* the C stack where the outermost run began */
    size_t stack_budget;       /* how much of it calls may take */
    int line;                  /* file line of the statement running */
    long steps, step_limit;
    /* The file's work budget (see vm_work): work done so far, the most
       it may do, and the count at which vm_work_check runs next. */
    uint64_t work, work_limit, work_check;
    size_t arena_base;         /* arena_bytes() when it was made */
    size_t memory_limit;       /* bytes it may add to the arena */
    size_t run_arena_growth;   /* the arena's growth while Python code
                                  ran (vm_arena_growing) */
    size_t pool_drawn;         /* of the run's shared memory (vm_reserve) */
    size_t memory_slack;       /* allowed past the caps to report them */
    bool reserving;            /* making a MemoryError: no checks */
    PyValue ret;               /* a return statement's value */
    const PyObj **in_repr;     /* containers being repr()'d: "[...]" */
    int nin_repr, in_repr_cap;
    void *host;                /* pyvm_set_host() */
    TempChunk *temp;           /* the chunk temporaries come from now */
    TempChunk *temp_first;
    struct VmHeap *heap;       /* big buffers (pyvm_heap.c), NULL: none */
    int in_host;               /* host code running inside a run (a host
                                  native or attribute hook) */
    Arena *int_scratch;        /* big-int work (pyvm_ops.c), NULL: none */
};

/* ---- shared across the pyvm files -------------------------------------- */

/* The scope dir() and globals() without arguments read: the running
   class body's, else the running function's, else the program's top
   level. */
Env *vm_scope_now(PyVM *vm);
/* pyvm_dir.c: dir() of a built-in class (a T_ index), NULL-terminated;
   NULL for one it does not list. */
const char *const *vm_builtin_dir(int type);
/* dir(obj) when clinic's interpreter knows it exactly (objects of
   classes defined in Python and of the built-in classes pyvm_dir.c
   lists, and those classes), sorted, in *n; NULL otherwise. */
const char **vm_dir_names(PyVM *vm, PyValue obj, size_t *n);
/* A copy of d (less the key except, NULL: none) whose values not yet
   made (pyvm_lazy_value) are made on first use from the copy. */
PyDict *vm_dict_copy_lazy(PyVM *vm, PyDict *d, const char *except);
/* Makes every value of d not made yet: before Python code holds d. */
void vm_dict_make_all(PyDict *d);

/* pyvm_call.c: raising */
_Noreturn void vm_throw(PyVM *vm, PyValue exc);
_Noreturn void vm_raise_class(PyVM *vm, PyClass *cls, const char *msg);
/* Python 3.11's "Did you mean" for an attribute name missing on obj: the
   closest of dir(obj), or NULL (also when dir(obj) is not known exactly:
   objects of built-in or host classes other than object). */
const char *vm_attribute_suggestion(PyVM *vm, PyValue obj, const char *name);
PyValue vm_new_exception(PyVM *vm, PyClass *cls, const PyValue *args,
                         size_t nargs);
void vm_step(PyVM *vm);

/* Work, in units of roughly a nanosecond of this machine, charged before
   it is done, by every native whose work grows with its operands (a
   step, an item iterated, a byte searched or copied, a limb step of a
   big int, a comparison of a sort): the step limit bounds statements,
   this bounds what one statement can make a native do.  The budget is
   the file's, over all its blocks and converter methods; spending it
   raises RuntimeError at the statement's line.  Memory is checked at
   the same points (vm_work_check). */
enum {
    WORK_STEP = 128,           /* a statement, call or loop round */
    WORK_ITEM = 64,            /* an item a native iterates */
    WORK_LIMB = 4,             /* a multiply-add of two big-int limbs */
    WORK_DIGIT = 4,            /* a decimal digit of a big int read into
                                  limbs, added, and written back */
    WORK_COMPARE = 32,         /* a comparison a sort or search makes */
    WORK_CALL = 32,            /* a native's call for a part of its work */
    /* memory is checked every this much work (512 steps): often enough
       that no loop outruns the cap by much, rarely enough to cost
       nothing */
    WORK_CHECK_EVERY = 65536,
};
#define WORK_LIMIT ((uint64_t)2000000000)
void vm_work_check(PyVM *vm);
static inline void vm_work(PyVM *vm, uint64_t units)
{
    if (units > vm->work_limit)
        units = vm->work_limit + 1;
    vm->work += units;
    if (vm->work >= vm->work_check)
        vm_work_check(vm);
}
/* Where big-int operations keep their temporaries, and the int of its
   decimal text kept as a value (refused beyond the size limit), the
   temporaries emptied. */
Arena *vm_int_scratch(PyVM *vm);
PyValue vm_int_value(PyVM *vm, const char *digits);
/* The work of a conversion of an int of these many digits to or from
   another base, times times. */
void vm_int_convert_work(PyVM *vm, size_t digits, unsigned times);
/* round(x, -places) of an int, places > 0, charged. */
PyValue vm_int_round_tens(PyVM *vm, const char *x, uint64_t places);
/* The digits of the magnitude mag in base 2, 8 or 16, charged, worked out
   where big-int temporaries go and kept as a value's text. */
char *vm_int_to_base(PyVM *vm, const char *mag, int base);
/* units per byte, for work measured in bytes (n * per, saturated) */
static inline uint64_t vm_work_of(uint64_t n, uint64_t per)
{
    return n > UINT64_MAX / 64 / per ? UINT64_MAX / 64 : n * per;
}
/* Python's default recursion limit, less what the interpreter's own
   frames below the first call use. */
#define VM_MAX_DEPTH 990
/* Py_EnterRecursiveCall: the one bound on recursion on the C stack.  A
   Python call enters, and so does every native that recurses into the
   values it is given (comparing, hashing, repr() of containers, ...),
   so that a deep or cyclic value is a RecursionError ("maximum recursion
   depth exceeded" and `where`: " in comparison") where it would overflow
   the stack.  Both the depth and the C stack taken since the outermost
   run began (vm_stack_budget) are checked; an exception restores the
   depth (vm_protect), otherwise each vm_enter is paired with a
   vm_leave. */
_Noreturn void vm_recursion_error(PyVM *vm, const char *where);
static inline bool vm_stack_spent(const PyVM *vm)
{
    uintptr_t here = CLINIC_STACK_ADDRESS();
    return vm->stack_base > here && vm->stack_base - here > vm->stack_budget;
}
static inline void vm_enter(PyVM *vm, const char *where)
{
    if (vm->depth >= VM_MAX_DEPTH || vm_stack_spent(vm))
        vm_recursion_error(vm, where);
    vm->depth++;
}
static inline void vm_leave(PyVM *vm)
{
    vm->depth--;
}
/* MemoryError unless the block can take `bytes` more: a cap on the arena
   a run grows, checked as steps go and before every big allocation. */
void vm_reserve(PyVM *vm, size_t bytes);
/* Gives vm's share of the run's memory back (its arena is freed). */
void vm_give_back_memory(void *vm);
/* The arena's grow hook (arena_set_grow_hook). */
void vm_arena_growing(void *vm, size_t size);
size_t vm_stack_budget(void);
/* Temporaries (see TempMark): uninitialised memory. */
void *vm_temp_alloc(PyVM *vm, size_t size);
static inline TempMark vm_temp_mark(const PyVM *vm)
{
    return (TempMark){ vm->temp, vm->temp ? vm->temp->used : 0 };
}
void vm_temp_release(PyVM *vm, TempMark m);
#define vm_temp_array(vm, T, n) ((T *)vm_temp_alloc((vm), sizeof(T) * (n)))
/* pyvm_heap.c: what is freed by a collection when dropped (see there):
   objects but classes, value arrays, and text (of VM_BIG_MIN bytes and
   more in blocks of its own, smaller in slots of a slab, or from the
   arena until VM_SMALL_SLOTS_AFTER).  A collection runs once
   VM_COLLECT_EVERY bytes were allocated (and as much as the last one
   read), or at a cap. */
enum {
    VM_BIG_MIN = 256,
    /* small text goes to collectable slots once the arena has grown by
       this much while Python code ran (until then little is made, and
       the arena is quicker) */
    VM_SMALL_SLOTS_AFTER = 4 << 20,
    VM_COLLECT_EVERY = 32 << 20,
};
typedef struct VmHeap VmHeap;
/* size uninitialised bytes that will hold no pointers (text, hashes). */
void *vm_plain_alloc(PyVM *vm, size_t size);
/* Room for a text of n bytes and its NUL. */
static inline char *vm_text_alloc(PyVM *vm, size_t n)
{
    return vm_plain_alloc(vm, n + 1);
}
/* arena_strndup's, collectable when big. */
char *vm_strndup(PyVM *vm, const char *s, size_t n);
/* size bytes for values (PyValue arrays, tables), zeroed or not:
   collectable at any size, as a small array in the arena would keep
   what it refers to for good. */
void *vm_items_alloc(PyVM *vm, size_t size);
void *vm_items_uninit(PyVM *vm, size_t size);
#define vm_items_array(vm, T, n) ((T *)vm_items_alloc((vm), sizeof(T) * (n)))
#define vm_plain_array(vm, T, n) ((T *)vm_plain_alloc((vm), sizeof(T) * (n)))
/* An object (vm_alloc_obj's work), collectable. */
void *vm_alloc_container(PyVM *vm, size_t size, ObjKind kind, PyClass *type);
/* What the buffers and the big-int work arena hold now. */
size_t vm_heap_bytes(const PyVM *vm);
/* The big-int work arena: made, and emptied. */
Arena *vm_int_scratch_new(PyVM *vm);
void vm_int_scratch_reset(PyVM *vm);
/* Frees the buffers nothing refers to; does nothing while the host runs
   or when no run is in progress. */
void vm_collect_garbage(PyVM *vm);
/* Makes every buffer so far permanent: before the host may see it. */
void vm_heap_promote(PyVM *vm);
/* Around a call of host code from a run (vm_heap_promote first). */
void vm_host_enter(PyVM *vm);
void vm_host_leave(PyVM *vm);
/* calls */
PyValue vm_call(PyVM *vm, PyValue fn, const PyValue *args, size_t nargs,
                const char *const *kwnames, const PyValue *kwvalues,
                size_t nkw);
/* vm_call for a call that forwards to fn (a bound method's function, a
   staticmethod's, __call__, __init__): a chain of them is as long as
   Python code makes it, so a link that is not a function or a native
   (which enter themselves) enters as a call. */
PyValue vm_call_link(PyVM *vm, PyValue fn, const PyValue *args, size_t nargs,
                     const char *const *kwnames, const PyValue *kwvalues,
                     size_t nkw);
PyValue vm_call0(PyVM *vm, PyValue fn);
PyValue vm_call1(PyVM *vm, PyValue fn, PyValue x);
PyValue vm_call2(PyVM *vm, PyValue fn, PyValue x, PyValue y);
/* Calls a method found on self's class (or returns false when self's
   class has none by that name). */
bool vm_call_special(PyVM *vm, PyValue self, const char *name,
                     const PyValue *args, size_t nargs, PyValue *out);
/* A protected call of f(vm, ctx): false (and vm->error) on exception. */
bool vm_protect(PyVM *vm, void (*f)(PyVM *, void *), void *ctx);
bool vm_exception_matches(PyVM *vm, PyClass *cls);
void vm_bind_function_args(PyVM *vm, PyFunction *f, const PyValue *args,
                           size_t nargs, const char *const *kwnames,
                           const PyValue *kwvalues, size_t nkw, PyDict *vars);

/* pyvm_eval.c */
PyValue vm_run_function(PyVM *vm, PyFunction *f, const PyValue *args,
                        size_t nargs, const char *const *kwnames,
                        const PyValue *kwvalues, size_t nkw);
PyValue vm_make_class(PyVM *vm, const char *name, const PyValue *bases,
                      size_t nbases, PyDict *dict);
void vm_write(PyVM *vm, const char *s, size_t n);
/* super() without arguments, from the running method. */
PyValue vm_super_here(PyVM *vm);

/* pyvm_object.c: types and attributes */
void vm_bootstrap(PyVM *vm);
PyClass *vm_type_of(PyVM *vm, PyValue v);
const char *vm_type_name(PyVM *vm, PyValue v);
PyClass *vm_new_class(PyVM *vm, const char *name, const char *module,
                      PyClass *const *bases, size_t nbases, PyDict *dict);
bool vm_lookup(const PyClass *cls, const char *name, PyValue *out,
               PyClass **owner);
bool vm_isinstance(PyVM *vm, PyValue v, PyClass *cls);
bool vm_is_subclass(const PyClass *cls, const PyClass *base);
PyValue vm_getattr(PyVM *vm, PyValue obj, const char *name);
bool vm_getattr_opt(PyVM *vm, PyValue obj, const char *name, PyValue *out);
void vm_setattr(PyVM *vm, PyValue obj, const char *name, PyValue v);
void vm_delattr(PyVM *vm, PyValue obj, const char *name);
/* An attribute found on the class for a method call: the function and
   whether self must be prepended (false: out is already bound). */
bool vm_method_lookup(PyVM *vm, PyValue obj, const char *name,
                      PyValue *out, bool *unbound);
PyValue vm_bind(PyVM *vm, PyValue func, PyValue self, PyClass *owner_type);
PyValue vm_obj(void *o);
void *vm_alloc_obj(PyVM *vm, size_t size, ObjKind kind, PyClass *type);
PyValue vm_native(PyVM *vm, const char *name, PyNativeFn fn, void *data,
                  bool is_method);
PyValue vm_instantiate(PyVM *vm, PyClass *cls, const PyValue *args,
                       size_t nargs, const char *const *kwnames,
                       const PyValue *kwvalues, size_t nkw);
bool vm_is_kind(PyValue v, ObjKind kind);
PyClass *vm_as_class(PyValue v);

/* What any class's attribute lookup finds can have changed since this
   count last moved: it moves at every change of a class's dict (the
   only thing a lookup reads besides the fixed MRO) and at every new
   interpreter (whose classes may reuse a freed one's addresses), in the
   thread that runs the interpreter.  pyvm_class_lookup() keeps its
   answers while it stands still.  Every change of a dict's entries goes
   through vm_dict_changing(). */
extern _Thread_local unsigned long vm_lookup_epoch;
static inline void vm_lookups_stale(void)
{
    vm_lookup_epoch++;
}
static inline void vm_dict_changing(const PyDict *d)
{
    if (d->of_class)
        vm_lookup_epoch++;
}

/* pyvm_table.c: dicts and sets */
PyDict *vm_dict_new(PyVM *vm);
/* A dict whose storage for n entries, the dict itself included, is a
   temporary (vm_temp_alloc): for a call's locals, given back when the
   call ends.  Growing past n takes arena memory, as any dict does. */
PyDict *vm_dict_new_temp(PyVM *vm, size_t n);
/* Room for n entries in all, so that filling a dict whose size is known
   leaves no outgrown arrays behind (an index as big as inserting them
   one by one would have made). */
void vm_dict_reserve(PyVM *vm, PyDict *d, size_t n);
/* A dict's value at entry e, made first if it is still lazy. */
PyValue *vm_dict_made(PyDict *d, size_t e);
PyValue *vm_dict_find(PyVM *vm, PyDict *d, PyValue key);
PyValue *vm_dict_find_str(PyDict *d, const char *key);
/* vm_dict_find_str with the key's length and (int64_t)vm_str_hash()
   made: for a name looked up in several dicts. */
PyValue *vm_dict_find_hashed(PyDict *d, const char *key, size_t n,
                             int64_t hash);
void vm_dict_set(PyVM *vm, PyDict *d, PyValue key, PyValue value);
void vm_dict_set_str(PyVM *vm, PyDict *d, const char *key, PyValue value);
/* vm_dict_set_str for a key that outlives the dict (a literal, a name of
   a static table): the key is kept, not copied. */
void vm_dict_set_static(PyVM *vm, PyDict *d, const char *key, PyValue value);
bool vm_dict_del(PyVM *vm, PyDict *d, PyValue key);
PyDict *vm_dict_copy(PyVM *vm, const PyDict *d);
PySet *vm_set_new(PyVM *vm, bool frozen);
bool vm_set_add(PyVM *vm, PySet *s, PyValue key);
bool vm_set_contains(PyVM *vm, PySet *s, PyValue key);
bool vm_set_discard(PyVM *vm, PySet *s, PyValue key);
/* The i-th active entry in table order (false past the end). */
bool vm_set_next(const PySet *s, size_t *pos, PyValue *key);
uint64_t vm_str_hash(const char *s, size_t n);
void vm_set_merge(PyVM *vm, PySet *so, const PySet *other);
PySet *vm_set_copy(PyVM *vm, const PySet *s, bool frozen);
PySet *vm_set_union(PyVM *vm, PySet *so, PySet *other);
PySet *vm_set_intersection(PyVM *vm, PySet *so, PySet *other);
PySet *vm_set_difference(PyVM *vm, PySet *so, PySet *other);
PySet *vm_set_symmetric_difference(PyVM *vm, PySet *so, PySet *other);

/* pyvm_ops.c */
int64_t vm_hash(PyVM *vm, PyValue v);
bool vm_eq(PyVM *vm, PyValue x, PyValue y);
bool vm_is(PyValue x, PyValue y);
bool vm_truthy(PyVM *vm, PyValue v);
PyValue vm_binop(PyVM *vm, const char *op, PyValue x, PyValue y);
PyValue vm_inplace(PyVM *vm, const char *op, PyValue x, PyValue y);
PyValue vm_unaryop(PyVM *vm, const char *op, PyValue x);
bool vm_compare(PyVM *vm, const char *op, PyValue x, PyValue y);
bool vm_lt(PyVM *vm, PyValue x, PyValue y);
bool vm_contains(PyVM *vm, PyValue container, PyValue item);

/* pyvm_seq.c */
const char *vm_repr(PyVM *vm, PyValue v);
const char *vm_str(PyVM *vm, PyValue v);
const char *vm_ascii(PyVM *vm, PyValue v);
PyValue vm_getitem(PyVM *vm, PyValue obj, PyValue key);
void vm_setitem(PyVM *vm, PyValue obj, PyValue key, PyValue value);
void vm_delitem(PyVM *vm, PyValue obj, PyValue key);
int64_t vm_len(PyVM *vm, PyValue v);
/* Iteration: an iterator, then its next value (false when exhausted). */
PyValue vm_iter(PyVM *vm, PyValue v);
bool vm_next(PyVM *vm, PyValue it, PyValue *out);
/* All of an iterable's values. */
PyValue *vm_collect(PyVM *vm, PyValue iterable, size_t *n);
PyValue vm_make_int64(PyVM *vm, int64_t i);
PyValue vm_make_str(PyVM *vm, const char *s, size_t n);
PyValue vm_make_float(double d);
PyValue vm_make_tuple(PyVM *vm, const PyValue *items, size_t n);
PyList *vm_list_new(PyVM *vm, size_t cap);
void vm_list_append(PyVM *vm, PyList *l, PyValue v);
bool vm_as_int64(PyValue v, int64_t *out);
/* ValueError for an int too long for decimal text, as Python 3.11. */
void vm_check_int_digits(PyVM *vm, const char *text);
int64_t vm_index(PyVM *vm, PyValue v, const char *what);
/* Code points of a str (UTF-8): counting, and the byte offset of one. */
size_t vm_str_len(const char *s, size_t n);
size_t vm_str_offset(const char *s, size_t n, size_t cp);
/* The byte offset of needle's first (last: its last) occurrence in hay,
   or SIZE_MAX; in linear time, its work charged. */
size_t vm_find(PyVM *vm, const char *hay, size_t n, const char *needle,
               size_t m, bool last);

/* pyvm_builtins.c and pyvm_methods.c */
void vm_install_builtins(PyVM *vm);
void vm_install_methods(PyVM *vm);
PyValue vm_sorted(PyVM *vm, PyValue *items, size_t n, PyValue key,
                  bool reverse);
void vm_dict_update(PyVM *vm, PyDict *d, PyValue src);

/* pyvm_format.c */
const char *vm_format(PyVM *vm, PyValue v, const char *spec);
PyValue vm_str_format(PyVM *vm, const char *fmt, size_t n, const PyArgs *a);
PyValue vm_percent_format(PyVM *vm, PyValue fmt, PyValue args);

/* An arena buffer for building strings that may be abandoned by a raise
   (a StrBuf would leak then). */
typedef struct ABuf {
    PyVM *vm;
    char *s;
    size_t len, cap;
} ABuf;
void ab_add(ABuf *b, const char *s, size_t n);
void ab_adds(ABuf *b, const char *s);
void ab_addc(ABuf *b, char c);
void ab_addf(ABuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
PyValue ab_value(ABuf *b);
/* Code point indices start and end (None or ints, or not given) as
   Python slices a sequence of n with them (str.find, list.index). */
void vm_span(PyVM *vm, PyValue start, PyValue end, size_t n, size_t *lo,
             size_t *hi);

#endif
