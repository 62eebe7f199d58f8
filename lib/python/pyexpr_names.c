/*
 * pyexpr_names.c — the namespace clinic.py's eval() calls see.
 *
 * eval_ast_expr(node, globals()) and the bare eval(default) inside
 * DSLParser.state_parameter run in clinic.py's module globals (plus, for
 * the latter, that method's locals), with the builtins behind them.  A
 * name found there evaluates; any other raises NameError, which clinic
 * treats as "probably a named constant".  So this file lists every such
 * name, the values that matter (types, NULL/unspecified/unknown, a few
 * module constants like sys.maxsize), and the attributes of the modules
 * a default could plausibly name, so misspellings raise AttributeError.
 * The lists were taken from dir() of clinic.py (3.11) and its imports.
 */
#include "python/pyexpr.h"
#include "python/pyexpr_int.h"

#include <string.h>

typedef enum NameClass {
    N_TYPE, N_CONST, N_STR, N_MODULE, N_CLASS, N_FUNCTION, N_BUILTIN,
    N_OBJECT, N_DICT, N_SET,
} NameClass;

typedef struct NameEntry {
    const char *name;
    NameClass cls;
    unsigned type_bit;     /* N_TYPE */
    const char *text;      /* N_STR value */
} NameEntry;

/* The names eval() finds: clinic.py's module globals and the builtins. */
static const NameEntry names[] = {
    { "object", N_TYPE, PYT_OBJECT, NULL }, { "int", N_TYPE, PYT_INT, NULL },
    { "str", N_TYPE, PYT_STR, NULL }, { "bytes", N_TYPE, PYT_BYTES, NULL },
    { "bytearray", N_TYPE, PYT_BYTEARRAY, NULL }, { "float", N_TYPE, PYT_FLOAT, NULL },
    { "complex", N_TYPE, PYT_COMPLEX, NULL }, { "bool", N_TYPE, PYT_BOOL, NULL },
    { "NoneType", N_TYPE, PYT_NONETYPE, NULL }, { "buffer", N_TYPE, PYT_BUFFER, NULL },
    { "robuffer", N_TYPE, PYT_ROBUFFER, NULL }, { "rwbuffer", N_TYPE, PYT_RWBUFFER, NULL },
    { "NULL", N_CONST, 0, NULL }, { "unspecified", N_CONST, 0, NULL },
    { "unknown", N_CONST, 0, NULL }, { "Ellipsis", N_CONST, 0, NULL },
    { "NotImplemented", N_CONST, 0, NULL }, { "__debug__", N_CONST, 0, NULL },
    { "__name__", N_STR, 0, "__main__" },
    { "CLINIC_PREFIXED_ARGS", N_SET, 0, NULL }, { "c_keywords", N_SET, 0, NULL },
    { "unsupported_special_methods", N_SET, 0, NULL },
    { "converters", N_DICT, 0, NULL }, { "legacy_converters", N_DICT, 0, NULL },
    { "return_converters", N_DICT, 0, NULL }, { "extensions", N_DICT, 0, NULL },
    { "languages", N_DICT, 0, NULL }, { "parsers", N_DICT, 0, NULL },
    { "str_converter_argument_map", N_DICT, 0, NULL }, { "type_checks", N_DICT, 0, NULL },
    { "clinic", N_OBJECT, 0, NULL }, { "__builtins__", N_MODULE, 0, NULL },
    { "__doc__", N_CONST, 0, NULL }, { "__file__", N_OBJECT, 0, NULL },
    { "__cached__", N_CONST, 0, NULL }, { "__loader__", N_OBJECT, 0, NULL },
    { "__package__", N_CONST, 0, NULL }, { "__spec__", N_CONST, 0, NULL },
};

const char *const py_clinic_strings[PY_CLINIC_NSTRINGS][2] = {
    { "version", "1" }, { "NO_VARARG", "PY_SSIZE_T_MAX" },
    { "CLINIC_PREFIX", "__clinic_" }, { "sig_end_marker", "--" },
    /* the kinds of a function, each its own name */
    { "INVALID", "INVALID" }, { "CALLABLE", "CALLABLE" },
    { "STATIC_METHOD", "STATIC_METHOD" }, { "CLASS_METHOD", "CLASS_METHOD" },
    { "METHOD_INIT", "METHOD_INIT" }, { "METHOD_NEW", "METHOD_NEW" },
};

/* modules, classes, builtin_classes, functions and builtins are sorted
   (by strcmp): they are searched by halving. */
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

static bool in_list(const char *const *list, size_t n, const char *name)
{
    /* the first characters settle most of them without a call */
    for (size_t i = 0; i < n; i++)
        if (list[i][0] == name[0] && strcmp(list[i], name) == 0)
            return true;
    return false;
}
#define IN(list, name) in_list(list, sizeof list / sizeof list[0], name)

/* Membership of a list sorted by strcmp, by halving it. */
static bool in_sorted(const char *const *list, size_t n, const char *name)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int cmp = strcmp(name, list[mid]);
        if (!cmp)
            return true;
        if (cmp < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return false;
}
#define IN_SORTED(list, name) \
    in_sorted(list, sizeof list / sizeof list[0], name)

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

static PyValue make_type(unsigned bit)
{
    PyValue v = { .kind = PY_TYPE, .types = bit };
    return v;
}

bool pyns_lookup(Arena *a, const char *id, PyEvalScope scope, PyValue *out)
{
    for (size_t i = 0; i < PY_CLINIC_NSTRINGS; i++)
        if (py_clinic_strings[i][0][0] == id[0] &&
            strcmp(py_clinic_strings[i][0], id) == 0) {
            *out = py_make_str(py_clinic_strings[i][1],
                               strlen(py_clinic_strings[i][1]));
            return true;
        }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (names[i].name[0] != id[0] || strcmp(names[i].name, id) != 0)
            continue;
        switch (names[i].cls) {
        case N_TYPE:
            *out = make_type(names[i].type_bit);
            return true;
        case N_STR:
            *out = py_make_str(names[i].text, strlen(names[i].text));
            return true;
        case N_CONST:
            if (strcmp(id, "NULL") == 0)
                *out = py_null;
            else if (strcmp(id, "unspecified") == 0)
                *out = py_unspecified;
            else if (strcmp(id, "unknown") == 0)
                *out = py_unknown;
            else if (strcmp(id, "Ellipsis") == 0)
                *out = py_make_opaque("ellipsis", "Ellipsis");
            else if (strcmp(id, "NotImplemented") == 0)
                *out = py_make_opaque("NotImplementedType", "NotImplemented");
            else if (strcmp(id, "__debug__") == 0) {
                memset(out, 0, sizeof *out);
                out->kind = PY_BOOL;
                out->b = true;
            } else
                *out = py_none;
            return true;
        case N_MODULE:
            *out = py_make_opaque("module", arena_printf(a, "<module '%s' (built-in)>", "builtins"));
            return true;
        case N_DICT:
            *out = py_make_uncomputed("dict", "{...}");
            return true;
        case N_SET:
            *out = py_make_uncomputed("set", "{...}");
            return true;
        default:
            *out = py_make_uncomputed("object", arena_printf(a, "<%s>", id));
            return true;
        }
    }
    if (IN_SORTED(modules, id)) {
        *out = py_make_opaque("module", arena_printf(a, "<module '%s'>", id));
        out->inexact = true;    /* <module 'os' from '/usr/lib/...'> */
        return true;
    }
    if (IN_SORTED(classes, id) || IN_SORTED(builtin_classes, id)) {
        *out = py_make_opaque("type", arena_printf(a, "<class '%s'>", id));
        /* clinic.py's own are its module's: <class '__main__.Block'> */
        out->inexact = !IN_SORTED(builtin_classes, id);
        return true;
    }
    if (IN_SORTED(functions, id)) {
        *out = py_make_opaque("function", arena_printf(a, "<function %s>", id));
        out->inexact = true;    /* <function fail at 0x7f...> */
        return true;
    }
    if (IN_SORTED(builtins, id)) {
        *out = py_make_opaque("builtin_function_or_method",
                              arena_printf(a, "<built-in function %s>", id));
        return true;
    }
    if (scope == PY_SCOPE_STATE_PARAMETER && IN(state_parameter_locals, id)) {
        *out = py_make_uncomputed("object", arena_printf(a, "<%s>", id));
        return true;
    }
    return false;
}

int pyns_module_attr(const char *module, const char *attr, PyValue *out)
{
    for (size_t i = 0; i < sizeof module_attrs / sizeof module_attrs[0]; i++) {
        if (strcmp(module_attrs[i].module, module) == 0 &&
            strcmp(module_attrs[i].attr, attr) == 0) {
            if (module_attrs[i].int_value)
                *out = py_make_int(module_attrs[i].int_value);
            else
                *out = py_make_str(module_attrs[i].str_value,
                                   strlen(module_attrs[i].str_value));
            return 1;
        }
    }
    return module_has(module, attr) ? 0 : -1;
}
