/*
 * converters_pynames.c — the rest of clinic.py's (3.11's) module
 * namespace, for eval(): the modules it imports (sys.maxsize, os.sep ...),
 * its own classes and functions, the builtins, the objects of clinic.py's
 * the interpreter does not model (as stand-ins, pyvm_stand_in), and
 * DSLParser.state_parameter's locals where it calls eval(default).  The
 * lists were taken from dir() of clinic.py (3.11) and its imports.
 */
#include <stdint.h>
#include <string.h>

#include "model/converters_py_int.h"

/* modules, classes, builtin_classes, functions and builtins are sorted
   (by strcmp). */
static const char *const modules[] = {
    "abc", "ast", "collections", "contextlib", "copy", "cpp", "functools",
    "hashlib", "inspect", "io", "itertools", "os", "pprint", "re", "shlex",
    "string", "sys", "tempfile", "textwrap", "traceback", "types",
};

/* Classes (clinic.py's own and those of `from types import *`). */
static const char *const classes[] = {
    "AsyncGeneratorType", "Block", "BlockParser", "BlockPrinter", "BufferSeries",
    "BuiltinFunctionType", "BuiltinMethodType", "CConverter",
    "CConverterAutoRegister", "CLanguage", "CRenderData", "CReturnConverter",
    "CReturnConverterAutoRegister", "CellType", "Class", "ClassMethodDescriptorType",
    "Clinic", "CodeType", "CoroutineType", "DSLParser", "Destination",
    "DynamicClassAttribute", "EllipsisType", "FormatCounterFormatter", "FrameType",
    "Function", "FunctionType", "GeneratorType", "GenericAlias",
    "GetSetDescriptorType", "IndentStack", "LambdaType", "LandMine", "Language",
    "MappingProxyType", "MemberDescriptorType", "MethodDescriptorType", "MethodType",
    "MethodWrapperType", "Module", "ModuleType", "NoneType_return_converter",
    "NotImplementedType", "Null", "Parameter", "PyByteArrayObject_converter",
    "PyBytesObject_converter", "Py_UNICODE_converter", "Py_buffer_converter",
    "Py_complex_converter", "Py_ssize_t_converter", "Py_ssize_t_return_converter",
    "PythonLanguage", "PythonParser", "SimpleNamespace", "TracebackType", "UnionType",
    "Unknown", "Unspecified", "WrapperDescriptorType", "_text_accumulator_nt",
    "bool_converter", "bool_return_converter", "byte_converter", "char_converter",
    "defining_class_converter", "double_converter", "double_return_converter",
    "fildes_converter", "float_converter", "float_return_converter",
    "init_return_converter", "int_converter", "int_return_converter",
    "long_converter", "long_long_converter", "long_return_converter",
    "object_converter", "self_converter", "short_converter", "size_t_converter",
    "size_t_return_converter", "slice_index_converter", "str_converter",
    "text_accumulator_nt", "unicode_converter", "unsigned_char_converter",
    "unsigned_int_converter", "unsigned_int_return_converter",
    "unsigned_long_converter", "unsigned_long_long_converter",
    "unsigned_long_return_converter", "unsigned_short_converter",
};

/* The builtin classes. */
static const char *const builtin_classes[] = {
    "ArithmeticError", "AssertionError", "AttributeError", "BaseException",
    "BaseExceptionGroup", "BlockingIOError", "BrokenPipeError", "BufferError",
    "BytesWarning", "ChildProcessError", "ConnectionAbortedError", "ConnectionError",
    "ConnectionRefusedError", "ConnectionResetError", "DeprecationWarning",
    "EOFError", "EncodingWarning", "EnvironmentError", "Exception", "ExceptionGroup",
    "FileExistsError", "FileNotFoundError", "FloatingPointError", "FutureWarning",
    "GeneratorExit", "IOError", "ImportError", "ImportWarning", "IndentationError",
    "IndexError", "InterruptedError", "IsADirectoryError", "KeyError",
    "KeyboardInterrupt", "LookupError", "MemoryError", "ModuleNotFoundError",
    "NameError", "NotADirectoryError", "NotImplementedError", "OSError",
    "OverflowError", "PendingDeprecationWarning", "PermissionError",
    "ProcessLookupError", "RecursionError", "ReferenceError", "ResourceWarning",
    "RuntimeError", "RuntimeWarning", "StopAsyncIteration", "StopIteration",
    "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit", "TabError",
    "TimeoutError", "TypeError", "UnboundLocalError", "UnicodeDecodeError",
    "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError", "UnicodeWarning",
    "UserWarning", "ValueError", "Warning", "ZeroDivisionError", "classmethod",
    "dict", "enumerate", "filter", "frozenset", "list", "map", "memoryview",
    "property", "range", "reversed", "set", "slice", "staticmethod", "super",
    "tuple", "type", "zip",
};

static const char *const functions[] = {
    "OverrideStdioWith", "_text_accumulator", "add_c_converter",
    "add_c_return_converter", "add_default_legacy_c_converter",
    "add_legacy_c_converter", "c_repr", "compute_checksum", "coroutine",
    "correct_name_for_self", "create_regex", "ensure_legal_c_identifier",
    "eval_ast_expr", "fail", "format_escape", "indent_all_lines",
    "is_legal_c_identifier", "is_legal_py_identifier", "linear_format", "main",
    "new_class", "normalize_snippet", "parse_file", "permute_left_option_groups",
    "permute_optional_groups", "permute_right_option_groups", "prepare_class",
    "quoted_for_c_string", "required_type_for_self_for_parser", "resolve_bases",
    "rstrip_lines", "str_converter_key", "strip_leading_and_trailing_blank_lines",
    "suffix_all_lines", "text_accumulator", "version_comparitor", "version_splitter",
    "warn", "warn_or_fail", "wrap_declarations", "write_file",
};

static const char *const builtins[] = {
    "__build_class__", "__import__", "abs", "aiter", "all", "anext", "any",
    "ascii", "bin", "breakpoint", "callable", "chr", "compile", "copyright",
    "credits", "delattr", "dir", "divmod", "eval", "exec", "exit", "format",
    "getattr", "globals", "hasattr", "hash", "help", "hex", "id", "input",
    "isinstance", "issubclass", "iter", "len", "license", "locals", "max", "min",
    "next", "oct", "open", "ord", "pow", "print", "quit", "repr", "round",
    "setattr", "sorted", "sum", "vars",
};

/* DSLParser.state_parameter's locals where it calls eval(default). */
static const char *const state_parameter_locals[] = {
    "self", "line", "indent", "c_name", "name", "have_as_token", "trailing",
    "base", "equals", "default", "module", "ast_input", "function_args",
    "is_vararg", "parameter", "parameter_name", "legacy", "kwargs", "bad",
};

/* Attribute values of clinic's imported modules that a default may name. */
static const struct {
    const char *module, *attr;
    const char *int_value, *str_value;
} module_attrs[] = {
    { "sys", "maxsize", "9223372036854775807", NULL },
    { "sys", "maxunicode", "1114111", NULL },
    { "sys", "byteorder", NULL, "little" },
    { "sys", "platform", NULL, "linux" },
    { "sys", "hexversion", "51053296", NULL },
    { "io", "DEFAULT_BUFFER_SIZE", "8192", NULL },
    { "io", "SEEK_SET", "0", NULL }, { "io", "SEEK_CUR", "1", NULL },
    { "io", "SEEK_END", "2", NULL },
    { "os", "SEEK_SET", "0", NULL }, { "os", "SEEK_CUR", "1", NULL },
    { "os", "SEEK_END", "2", NULL },
    { "os", "sep", NULL, "/" }, { "os", "pathsep", NULL, ":" },
    { "os", "linesep", NULL, "\n" }, { "os", "curdir", NULL, "." },
    { "os", "pardir", NULL, ".." }, { "os", "extsep", NULL, "." },
    { "os", "name", NULL, "posix" }, { "os", "devnull", NULL, "/dev/null" },
    { "os", "F_OK", "0", NULL }, { "os", "R_OK", "4", NULL },
    { "os", "W_OK", "2", NULL }, { "os", "X_OK", "1", NULL },
    { "string", "digits", NULL, "0123456789" },
    { "string", "hexdigits", NULL, "0123456789abcdefABCDEF" },
    { "string", "octdigits", NULL, "01234567" },
    { "string", "ascii_lowercase", NULL, "abcdefghijklmnopqrstuvwxyz" },
    { "string", "ascii_uppercase", NULL, "ABCDEFGHIJKLMNOPQRSTUVWXYZ" },
    { "string", "ascii_letters", NULL, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" },
    { "string", "whitespace", NULL, " \t\n\r\x0b\x0c" },
};

/* Every attribute of the modules whose attributes a default plausibly
   names, so that a misspelt one raises AttributeError as in Python. */
static const struct {
    const char *module, *attrs;
} module_dirs[] = {
    { "sys", " __breakpointhook__ __displayhook__ __doc__ __excepthook__ "
             "__interactivehook__ __loader__ __name__ __package__ __spec__ __stderr__ "
             "__stdin__ __stdout__ __unraisablehook__ _base_executable "
             "_clear_type_cache _current_exceptions _current_frames _debugmallocstats "
             "_framework _getframe _getquickenedcount _git _home _stdlib_dir _xoptions "
             "abiflags addaudithook api_version argv audit base_exec_prefix base_prefix "
             "breakpointhook builtin_module_names byteorder call_tracing copyright "
             "displayhook dont_write_bytecode exc_info excepthook exception exec_prefix "
             "executable exit flags float_info float_repr_style get_asyncgen_hooks "
             "get_coroutine_origin_tracking_depth get_int_max_str_digits "
             "getallocatedblocks getdefaultencoding getdlopenflags "
             "getfilesystemencodeerrors getfilesystemencoding getprofile "
             "getrecursionlimit getrefcount getsizeof getswitchinterval gettrace "
             "hash_info hexversion implementation int_info intern is_finalizing maxsize "
             "maxunicode meta_path modules orig_argv path path_hooks "
             "path_importer_cache platform platlibdir prefix pycache_prefix "
             "set_asyncgen_hooks set_coroutine_origin_tracking_depth "
             "set_int_max_str_digits setdlopenflags setprofile setrecursionlimit "
             "setswitchinterval settrace stderr stdin stdlib_module_names stdout "
             "thread_info unraisablehook version version_info warnoptions " },
    { "io", " BlockingIOError BufferedIOBase BufferedRWPair BufferedRandom "
            "BufferedReader BufferedWriter BytesIO DEFAULT_BUFFER_SIZE FileIO IOBase "
            "IncrementalNewlineDecoder RawIOBase SEEK_CUR SEEK_END SEEK_SET StringIO "
            "TextIOBase TextIOWrapper UnsupportedOperation __all__ __author__ "
            "__builtins__ __doc__ __file__ __getattr__ __loader__ __name__ __package__ "
            "__spec__ _io abc open open_code text_encoding " },
    { "string", " Formatter Template _ChainMap __all__ __builtins__ __cached__ "
                "__doc__ __file__ __loader__ __name__ __package__ __spec__ _re "
                "_sentinel_dict _string ascii_letters ascii_lowercase ascii_uppercase "
                "capwords digits hexdigits octdigits printable punctuation whitespace " },
};

/* false only when we know the module lacks the attribute */
static bool module_has(const char *module, const char *attr)
{
    for (size_t i = 0; i < sizeof module_dirs / sizeof module_dirs[0]; i++) {
        if (strcmp(module_dirs[i].module, module) != 0)
            continue;
        size_t n = strlen(attr);
        for (const char *p = strstr(module_dirs[i].attrs, attr); p;
             p = strstr(p + 1, attr))
            if (p[-1] == ' ' && p[n] == ' ')
                return true;
        return false;
    }
    return true;
}


/* ---- modules ------------------------------------------------------------ */

typedef struct ModuleStandIn {
    const char *name;
} ModuleStandIn;

static bool module_getattr(PyVM *vm, PyObj *self, const char *attr,
                           PyValue *out)
{
    if (!strncmp(attr, "__", 2) && strcmp(attr, "__doc__") &&
        strcmp(attr, "__name__"))
        return false;
    const ModuleStandIn *m = pyvm_instance_host(pyvm_obj(self));
    if (!strcmp(attr, "__name__")) {
        *out = pyvm_str(vm, m->name);
        return true;
    }
    for (size_t i = 0; i < sizeof module_attrs / sizeof module_attrs[0]; i++)
        if (!strcmp(module_attrs[i].module, m->name) &&
            !strcmp(module_attrs[i].attr, attr)) {
            const char *digits = module_attrs[i].int_value;
            if (digits)
                *out = (PyValue){ .kind = PY_INT, .s = digits,
                                  .len = strlen(digits) };
            else
                *out = pyvm_str(vm, module_attrs[i].str_value);
            return true;
        }
    if (!module_has(m->name, attr))
        pyvm_raise(vm, "AttributeError", "module '%s' has no attribute '%s'",
                   m->name, attr);
    *out = pyvm_stand_in(vm, "object", arena_printf(cpy_of_vm(vm)->c->arena,
                                                    "<%s.%s>", m->name, attr));
    return true;
}

static const PyHostOps module_stand_in_ops = { module_getattr, NULL, NULL };

/* A built-in module prints as one; another with its file's path, which
   clinic does not know. */
static PyValue module_repr(PyVM *vm, const PyArgs *a, void *data)
{
    (void)data;
    const ModuleStandIn *m = a->nargs ? pyvm_instance_host_of(
        a->args[0], &module_stand_in_ops) : NULL;
    if (!m)
        pyvm_raise(vm, "TypeError", "descriptor '__repr__' needs a module");
    if (!strcmp(m->name, "sys") || !strcmp(m->name, "builtins"))
        return pyvm_str(vm, arena_printf(cpy_of_vm(vm)->c->arena,
                                         "<module '%s' (built-in)>", m->name));
    pyvm_raise(vm, "RuntimeError", "clinic does not know the repr of module "
               "'%s' (the path of its file)", m->name);
}

/* ---- clinic.py's functions and the builtins the interpreter lacks ------- */

static PyValue not_run(PyVM *vm, const PyArgs *a, void *data)
{
    (void)a;
    pyvm_raise(vm, "RuntimeError", "clinic does not run %s()",
               (const char *)data);
}

/* ---- the namespace ------------------------------------------------------ */

/* Which of the names a dict gets (those neither it, the globals nor the
   builtins have) is the same for every file of a dialect: found once
   per thread and kept, a bit per name in the order they are put. */
#define NAMES_MAX 512
typedef struct NamesFilter {
    const Dialect *dialect;
    bool with_locals;
    bool made;
    uint64_t keep[NAMES_MAX / 64];
} NamesFilter;
static _Thread_local NamesFilter names_filters[8];

typedef struct Filler {
    PyVM *vm;
    PyObj *dict;
    NamesFilter *filter;     /* NULL: more dialects than kept, look up */
    size_t k;                /* the names put so far */
} Filler;

static NamesFilter *names_filter(const Dialect *d, bool with_locals)
{
    for (size_t i = 0; i < sizeof names_filters / sizeof *names_filters; i++) {
        NamesFilter *f = &names_filters[i];
        if (!f->dialect) {
            f->dialect = d;
            f->with_locals = with_locals;
        }
        if (f->dialect == d && f->with_locals == with_locals)
            return f;
    }
    return NULL;
}

static void put_missing(Filler *fl, const char *name, PyValue v)
{
    size_t k = fl->k++;
    bool keep;
    if (k >= NAMES_MAX)
        fl->filter = NULL;
    if (fl->filter && fl->filter->made) {
        keep = fl->filter->keep[k / 64] >> (k % 64) & 1;
    } else {
        PyValue old;
        keep = !pyvm_dict_get(fl->vm, fl->dict, name, &old) &&
               !pyvm_dict_get(fl->vm, pyvm_globals(fl->vm), name, &old) &&
               !pyvm_dict_get(fl->vm, pyvm_builtins(fl->vm), name, &old);
        if (fl->filter && keep)
            fl->filter->keep[k / 64] |= (uint64_t)1 << (k % 64);
    }
    if (keep)
        pyvm_dict_set_static(fl->vm, fl->dict, name, v);
}

/* What is made only when an expression reads it (pyvm_lazy_value): a
   kind of value, and its name's index in the kind's list. */
enum {
    LAZY_MODULE, LAZY_CLASS, LAZY_BUILTIN_CLASS, LAZY_FUNCTION, LAZY_BUILTIN,
    LAZY_DICT, LAZY_SET, LAZY_OBJECT, LAZY_LOCAL, LAZY_BUILTINS_MODULE,
};
#define LAZY(kind, i) ((size_t)(kind) << 16 | (i))

static const char *const none_names[] = { "__doc__", "__cached__",
                                          "__package__", "__spec__" };
static const char *const dict_names[] = {
    "converters", "legacy_converters", "return_converters", "extensions",
    "languages", "parsers", "str_converter_argument_map", "type_checks",
};
static const char *const set_names[] = { "CLINIC_PREFIXED_ARGS", "c_keywords",
                                         "unsupported_special_methods" };
static const char *const object_names[] = { "clinic", "__file__",
                                            "__loader__" };

static PyValue module_value(ConverterPython *py, const char *name)
{
    PyVM *vm = py->vm;
    if (!py->module_class) {
        PyObj *mdict = pyvm_dict_new(vm);
        pyvm_dict_set_static(vm, mdict, "__repr__",
                             pyvm_native(vm, "__repr__", module_repr, NULL,
                                         true));
        py->module_class = pyvm_class_new(vm, "module", "builtins", NULL, 0,
                                          mdict, &module_stand_in_ops, NULL);
    }
    ModuleStandIn *m = arena_new_of(py->c->file_arena, ModuleStandIn);
    m->name = name;
    return pyvm_obj(pyvm_instance_new(vm, py->module_class, m, NULL));
}

static PyValue make_module_name(PyVM *vm, size_t which)
{
    ConverterPython *py = cpy_of_vm(vm);
    size_t i = which & 0xffff;
    switch (which >> 16) {
    case LAZY_MODULE: return module_value(py, modules[i]);
    case LAZY_BUILTINS_MODULE: return module_value(py, "builtins");
    case LAZY_CLASS:
        return pyvm_obj(pyvm_class_new(vm, classes[i], "__main__", NULL, 0,
                                       NULL, &module_stand_in_ops, NULL));
    case LAZY_BUILTIN_CLASS:
        return pyvm_obj(pyvm_class_new(vm, builtin_classes[i], "builtins",
                                       NULL, 0, NULL, &module_stand_in_ops,
                                       NULL));
    case LAZY_FUNCTION:
        return pyvm_native(vm, functions[i], not_run, (void *)functions[i],
                           false);
    case LAZY_BUILTIN:
        return pyvm_native(vm, builtins[i], not_run, (void *)builtins[i],
                           false);
    case LAZY_DICT: return pyvm_stand_in(vm, "dict", "{...}");
    case LAZY_SET: return pyvm_stand_in(vm, "set", "{...}");
    case LAZY_OBJECT:
        return pyvm_stand_in(vm, "object", arena_printf(
            py->c->file_arena, "<%s>", object_names[i]));
    default:   /* LAZY_LOCAL */
        return pyvm_stand_in(vm, "object", arena_printf(
            py->c->file_arena, "<%s>", state_parameter_locals[i]));
    }
}

static void put_lazy(Filler *fl, const char *name, size_t which)
{
    put_missing(fl, name, pyvm_lazy_value(fl->vm, fl->dict, make_module_name,
                                          which));
}

static void install_module_names(ConverterPython *py, PyObj *dict,
                                 bool with_locals)
{
    PyVM *vm = py->vm;
    Filler filler = { vm, dict, names_filter(py->c->dialect, with_locals), 0 };
    Filler *f = &filler;
    for (size_t i = 0; i < sizeof modules / sizeof *modules; i++)
        put_lazy(f, modules[i], LAZY(LAZY_MODULE, i));
    put_lazy(f, "__builtins__", LAZY(LAZY_BUILTINS_MODULE, 0));
    for (size_t i = 0; i < sizeof classes / sizeof *classes; i++)
        put_lazy(f, classes[i], LAZY(LAZY_CLASS, i));
    for (size_t i = 0; i < sizeof builtin_classes / sizeof *builtin_classes; i++)
        put_lazy(f, builtin_classes[i], LAZY(LAZY_BUILTIN_CLASS, i));
    for (size_t i = 0; i < sizeof functions / sizeof *functions; i++)
        put_lazy(f, functions[i], LAZY(LAZY_FUNCTION, i));
    for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
        put_lazy(f, builtins[i], LAZY(LAZY_BUILTIN, i));
    for (size_t i = 0; i < sizeof none_names / sizeof *none_names; i++)
        put_missing(f, none_names[i], py_none);
    for (size_t i = 0; i < sizeof dict_names / sizeof *dict_names; i++)
        put_lazy(f, dict_names[i], LAZY(LAZY_DICT, i));
    for (size_t i = 0; i < sizeof set_names / sizeof *set_names; i++)
        put_lazy(f, set_names[i], LAZY(LAZY_SET, i));
    for (size_t i = 0; i < sizeof object_names / sizeof *object_names; i++)
        put_lazy(f, object_names[i], LAZY(LAZY_OBJECT, i));
    put_missing(f, "NULL", py_null);
    put_missing(f, "unknown", py_unknown);
    put_missing(f, "__debug__", pyvm_bool(true));
    put_missing(f, "NotImplemented",
                (PyValue){ .kind = PY_UNKNOWN,
                           .type_name = "NotImplementedType",
                           .s = "NotImplemented", .len = 14 });
    for (size_t i = 0; i < CPY_CLINIC_NSTRINGS; i++)
        put_missing(f, cpy_clinic_strings[i][0],
                    pyvm_str(vm, cpy_clinic_strings[i][1]));
    if (f->filter)
        f->filter->made = true;
}

/* clinic.py 3.11's module globals in the order the module makes them,
   as globals() in a python block lists them. */
static const char *const module_order[] = {
    "__name__", "__doc__", "__package__", "__loader__", "__spec__",
    "__annotations__", "__builtins__", "__file__", "__cached__", "abc", "ast",
    "collections", "contextlib", "copy", "cpp", "functools", "hashlib",
    "inspect", "io", "itertools", "os", "pprint", "re", "shlex", "string",
    "sys", "tempfile", "textwrap", "traceback", "types", "FunctionType",
    "LambdaType", "CodeType", "MappingProxyType", "SimpleNamespace",
    "CellType", "GeneratorType", "CoroutineType", "AsyncGeneratorType",
    "MethodType", "BuiltinFunctionType", "BuiltinMethodType",
    "WrapperDescriptorType", "MethodWrapperType", "MethodDescriptorType",
    "ClassMethodDescriptorType", "ModuleType", "TracebackType", "FrameType",
    "GetSetDescriptorType", "MemberDescriptorType", "new_class",
    "resolve_bases", "prepare_class", "DynamicClassAttribute", "coroutine",
    "GenericAlias", "UnionType", "EllipsisType", "NoneType",
    "NotImplementedType", "version", "NO_VARARG", "CLINIC_PREFIX",
    "CLINIC_PREFIXED_ARGS", "Unspecified", "unspecified", "Null", "NULL",
    "Unknown", "unknown", "sig_end_marker", "_text_accumulator_nt",
    "_text_accumulator", "text_accumulator_nt", "text_accumulator",
    "warn_or_fail", "warn", "fail", "quoted_for_c_string", "c_repr",
    "is_legal_c_identifier", "is_legal_py_identifier", "c_keywords",
    "ensure_legal_c_identifier", "rstrip_lines", "format_escape",
    "linear_format", "indent_all_lines", "suffix_all_lines",
    "version_splitter", "version_comparitor", "CRenderData",
    "FormatCounterFormatter", "Language", "PythonLanguage",
    "permute_left_option_groups", "permute_right_option_groups",
    "permute_optional_groups", "strip_leading_and_trailing_blank_lines",
    "normalize_snippet", "wrap_declarations", "CLanguage",
    "OverrideStdioWith", "create_regex", "Block", "BlockParser",
    "BlockPrinter", "BufferSeries", "Destination", "languages", "extensions",
    "converters", "legacy_converters", "return_converters", "write_file",
    "clinic", "Clinic", "parse_file", "compute_checksum", "PythonParser",
    "Module", "Class", "unsupported_special_methods", "INVALID", "CALLABLE",
    "STATIC_METHOD", "CLASS_METHOD", "METHOD_INIT", "METHOD_NEW", "Function",
    "Parameter", "LandMine", "add_c_converter",
    "add_default_legacy_c_converter", "add_legacy_c_converter",
    "CConverterAutoRegister", "CConverter", "type_checks", "bool_converter",
    "defining_class_converter", "char_converter", "unsigned_char_converter",
    "byte_converter", "short_converter", "unsigned_short_converter",
    "int_converter", "unsigned_int_converter", "long_converter",
    "unsigned_long_converter", "long_long_converter",
    "unsigned_long_long_converter", "Py_ssize_t_converter",
    "slice_index_converter", "size_t_converter", "fildes_converter",
    "float_converter", "double_converter", "Py_complex_converter",
    "object_converter", "buffer", "rwbuffer", "robuffer", "str_converter_key",
    "str_converter_argument_map", "str_converter", "PyBytesObject_converter",
    "PyByteArrayObject_converter", "unicode_converter",
    "Py_UNICODE_converter", "Py_buffer_converter", "correct_name_for_self",
    "required_type_for_self_for_parser", "self_converter",
    "add_c_return_converter", "CReturnConverterAutoRegister",
    "CReturnConverter", "NoneType_return_converter", "bool_return_converter",
    "long_return_converter", "int_return_converter", "init_return_converter",
    "unsigned_long_return_converter", "unsigned_int_return_converter",
    "Py_ssize_t_return_converter", "size_t_return_converter",
    "double_return_converter", "float_return_converter", "eval_ast_expr",
    "IndentStack", "DSLParser", "parsers", "main",
};

const char *const *cpy_module_order(size_t *n)
{
    *n = sizeof module_order / sizeof *module_order;
    return module_order;
}

/* The index of name in list, or -1. */
static int index_in(const char *const *list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (list[i][0] == name[0] && !strcmp(list[i], name))
            return (int)i;
    return -1;
}
#define INDEX_IN(list, name) index_in(list, sizeof list / sizeof *list, name)

bool cpy_module_name_value(ConverterPython *py, const char *name,
                           size_t *lazy, PyValue *out)
{
    static const struct { int kind; const char *const *list; size_t n; } lists[] = {
#define L(kind, list) { kind, list, sizeof list / sizeof *list }
        L(LAZY_MODULE, modules), L(LAZY_CLASS, classes),
        L(LAZY_FUNCTION, functions), L(LAZY_DICT, dict_names),
        L(LAZY_SET, set_names), L(LAZY_OBJECT, object_names),
#undef L
    };
    *lazy = SIZE_MAX;
    for (size_t k = 0; k < sizeof lists / sizeof *lists; k++) {
        int i = index_in(lists[k].list, lists[k].n, name);
        if (i >= 0) {
            *lazy = LAZY(lists[k].kind, (size_t)i);
            return true;
        }
    }
    if (INDEX_IN(none_names, name) >= 0) {
        *out = py_none;
        return true;
    }
    if (!strcmp(name, "__builtins__")) {
        *lazy = LAZY(LAZY_BUILTINS_MODULE, 0);
        return true;
    }
    if (!strcmp(name, "__annotations__")) {   /* the module's: empty */
        *out = pyvm_obj(pyvm_dict_new(py->vm));
        return true;
    }
    return false;
}

PyValue cpy_make_module_name(PyVM *vm, size_t lazy)
{
    return make_module_name(vm, lazy);
}

void cpy_install_module_names(ConverterPython *py, PyObj *dict)
{
    install_module_names(py, dict, false);
}

PyObj *cpy_state_parameter_locals(ConverterPython *py)
{
    PyVM *vm = py->vm;
    PyObj *locals = pyvm_dict_new(vm);
    /* the locals first: they hide the module's names */
    for (size_t i = 0; i < sizeof state_parameter_locals /
                           sizeof *state_parameter_locals; i++)
        pyvm_dict_set_static(vm, locals, state_parameter_locals[i],
                             pyvm_lazy_value(vm, locals, make_module_name,
                                             LAZY(LAZY_LOCAL, i)));
    install_module_names(py, locals, true);
    return locals;
}

/* ---- libclinic's dsl_parser, where 3.13 on evaluates defaults ---------- */

static const char *const dsl_parser_modules[] = {
    "ast", "enum", "inspect", "pprint", "re", "shlex", "sys", "libclinic",
};

PyObj *cpy_default_globals(ConverterPython *py)
{
    PyVM *vm = py->vm;
    PyObj *g = pyvm_dict_new(vm);
    Arena *a = py->c->file_arena;
    for (const char *const *n = py->flavour->default_globals; *n; n++) {
        PyValue v;
        if (!strcmp(*n, "__name__"))
            v = pyvm_str(vm, "libclinic.dsl_parser");
        else if (!strcmp(*n, "__package__"))
            v = pyvm_str(vm, "libclinic");
        else if (!strcmp(*n, "__doc__"))
            v = py_none;
        else if (!strcmp(*n, "NULL"))
            v = py_null;
        else if (!strcmp(*n, "unknown"))
            v = py_unknown;
        else if (!strcmp(*n, "__builtins__"))
            v = pyvm_obj(pyvm_builtins(vm));
        else if (INDEX_IN(dsl_parser_modules, *n) >= 0)
            v = module_value(py, *n);
        else if (!pyvm_dict_get(vm, pyvm_globals(vm), *n, &v))
            v = pyvm_stand_in(vm, "object", arena_printf(a, "<%s>", *n));
        pyvm_dict_set_static(vm, g, *n, v);
    }
    return g;
}

PyObj *cpy_default_locals(ConverterPython *py)
{
    PyVM *vm = py->vm;
    PyObj *locals = pyvm_dict_new(vm);
    for (const char *const *n = py->flavour->default_locals; *n; n++)
        pyvm_dict_set_static(vm, locals, *n, pyvm_stand_in(vm, "object",
                             arena_printf(py->c->file_arena, "<%s>", *n)));
    return locals;
}

/* ---- which names may be there ------------------------------------------- */

static bool listed(const char *const *list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (list[i][0] == name[0] && !strcmp(list[i], name))
            return true;
    return false;
}
#define LISTED(list, name) listed(list, sizeof list / sizeof *list, name)

bool cpy_namespace_may_have(const Clinic *c, bool state_parameter,
                            const char *name)
{
    const PyFlavour *fl = cpy_flavour_of(c->dialect);
    if (state_parameter && fl->default_globals) {
        /* libclinic.dsl_parser's globals, parse_parameter's locals and
           the builtins */
        for (const char *const *n = fl->default_globals; *n; n++)
            if (!strcmp(*n, name))
                return true;
        for (const char *const *n = fl->default_locals; *n; n++)
            if (!strcmp(*n, name))
                return true;
        return LISTED(builtin_classes, name) || LISTED(builtins, name) ||
               !strcmp(name, "object") || !strcmp(name, "int") ||
               !strcmp(name, "str") || !strcmp(name, "bytes") ||
               !strcmp(name, "bytearray") || !strcmp(name, "float") ||
               !strcmp(name, "complex") || !strcmp(name, "bool") ||
               !strcmp(name, "Ellipsis") || !strcmp(name, "NotImplemented") ||
               !strcmp(name, "__debug__");
    }
    /* every namespace's names are among clinic.py's module's (its own,
       its imports, the builtins), the classes of the converters and the
       functions of python blocks' flavours */
    static const char *const more[] = {
        "object", "int", "str", "bytes", "bytearray", "float", "complex",
        "bool", "NoneType", "buffer", "robuffer", "rwbuffer", "NULL",
        "unspecified", "unknown", "Ellipsis", "NotImplemented", "__debug__",
        "__name__", "__doc__", "__cached__", "__package__", "__spec__",
        "__builtins__", "__file__", "__loader__", "clinic", "converters",
        "legacy_converters", "return_converters", "extensions", "languages",
        "parsers", "str_converter_argument_map", "type_checks",
        "CLINIC_PREFIXED_ARGS", "c_keywords", "unsupported_special_methods",
        "Null", "Unspecified", "Unknown", "Function", "Parameter", "Class",
        "Module", "CRenderData", "LandMine", "CConverter",
        "CReturnConverter",
    };
    if (LISTED(more, name) || LISTED(modules, name) ||
        LISTED(classes, name) || LISTED(builtin_classes, name) ||
        LISTED(functions, name) || LISTED(builtins, name) ||
        (state_parameter && LISTED(state_parameter_locals, name)))
        return true;
    for (size_t i = 0; i < CPY_CLINIC_NSTRINGS; i++)
        if (!strcmp(cpy_clinic_strings[i][0], name))
            return true;
    for (size_t i = 0; i < converter_nrows; i++)
        if (!strcmp(converter_rows[i].cls.class_name, name))
            return true;
    for (size_t i = 0; i < return_nrows; i++)
        if (!strcmp(return_rows[i].cls.class_name, name))
            return true;
    for (size_t i = 0; i < fl->nfunctions; i++)
        if (!strcmp(fl->functions[i].name, name))
            return true;
    return false;
}
