/*
 * converters_pynames.c — the rest of clinic.py's (3.11's) module
 * namespace, for eval(): the modules it imports (sys.maxsize, os.sep ...),
 * its own classes and functions, the builtins, the objects of clinic.py's
 * the interpreter does not model (as stand-ins, pyvm_stand_in), and
 * DSLParser.state_parameter's locals where it calls eval(default).  The
 * lists were taken from dir() of clinic.py (3.11) and its imports.
 */
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

static void put_missing(PyVM *vm, PyObj *dict, const char *name, PyValue v)
{
    PyValue old;
    if (!pyvm_dict_get(vm, dict, name, &old) &&
        !pyvm_dict_get(vm, pyvm_builtins(vm), name, &old))
        pyvm_dict_set_static(vm, dict, name, v);
}

void cpy_install_module_names(ConverterPython *py, PyObj *dict)
{
    PyVM *vm = py->vm;
    Arena *a = py->c->file_arena;
    PyObj *mdict = pyvm_dict_new(vm);
    pyvm_dict_set_static(vm, mdict, "__repr__",
                         pyvm_native(vm, "__repr__", module_repr, NULL, true));
    PyObj *module_class = pyvm_class_new(vm, "module", "builtins", NULL, 0,
                                         mdict, &module_stand_in_ops, NULL);
    for (size_t i = 0; i < sizeof modules / sizeof *modules; i++) {
        ModuleStandIn *m = arena_new_of(a, ModuleStandIn);
        m->name = modules[i];
        put_missing(vm, dict, modules[i],
                    pyvm_obj(pyvm_instance_new(vm, module_class, m, NULL)));
    }
    ModuleStandIn *builtins_module = arena_new_of(a, ModuleStandIn);
    builtins_module->name = "builtins";
    put_missing(vm, dict, "__builtins__",
                pyvm_obj(pyvm_instance_new(vm, module_class, builtins_module,
                                           NULL)));
    for (size_t i = 0; i < sizeof classes / sizeof *classes; i++)
        put_missing(vm, dict, classes[i],
                    pyvm_obj(pyvm_class_new(vm, classes[i], "__main__", NULL,
                                            0, NULL, &module_stand_in_ops,
                                            NULL)));
    for (size_t i = 0; i < sizeof builtin_classes / sizeof *builtin_classes; i++)
        put_missing(vm, dict, builtin_classes[i],
                    pyvm_obj(pyvm_class_new(vm, builtin_classes[i], "builtins",
                                            NULL, 0, NULL, &module_stand_in_ops,
                                            NULL)));
    for (size_t i = 0; i < sizeof functions / sizeof *functions; i++)
        put_missing(vm, dict, functions[i],
                    pyvm_native(vm, functions[i], not_run,
                                (void *)functions[i], false));
    for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
        put_missing(vm, dict, builtins[i],
                    pyvm_native(vm, builtins[i], not_run, (void *)builtins[i],
                                false));
    static const char *const none_names[] = { "__doc__", "__cached__",
                                              "__package__", "__spec__" };
    for (size_t i = 0; i < 4; i++)
        put_missing(vm, dict, none_names[i], py_none);
    static const char *const dicts[] = {
        "converters", "legacy_converters", "return_converters", "extensions",
        "languages", "parsers", "str_converter_argument_map", "type_checks",
    };
    for (size_t i = 0; i < sizeof dicts / sizeof *dicts; i++)
        put_missing(vm, dict, dicts[i], pyvm_stand_in(vm, "dict", "{...}"));
    static const char *const sets[] = { "CLINIC_PREFIXED_ARGS", "c_keywords",
                                        "unsupported_special_methods" };
    for (size_t i = 0; i < 3; i++)
        put_missing(vm, dict, sets[i], pyvm_stand_in(vm, "set", "{...}"));
    static const char *const objects[] = { "clinic", "__file__",
                                           "__loader__" };
    for (size_t i = 0; i < 3; i++)
        put_missing(vm, dict, objects[i],
                    pyvm_stand_in(vm, "object", arena_printf(a, "<%s>",
                                                             objects[i])));
    put_missing(vm, dict, "NULL", py_null);
    put_missing(vm, dict, "unknown", py_unknown);
    for (size_t i = 0; i < CPY_CLINIC_NSTRINGS; i++)
        put_missing(vm, dict, cpy_clinic_strings[i][0],
                    pyvm_str(vm, cpy_clinic_strings[i][1]));
}

PyObj *cpy_state_parameter_locals(ConverterPython *py)
{
    PyVM *vm = py->vm;
    PyObj *locals = pyvm_dict_new(vm);
    for (size_t i = 0; i < sizeof state_parameter_locals /
                           sizeof *state_parameter_locals; i++)
        pyvm_dict_set_static(vm, locals, state_parameter_locals[i],
                             pyvm_stand_in(vm, "object", arena_printf(
                                 py->c->file_arena, "<%s>",
                                 state_parameter_locals[i])));
    return locals;
}
