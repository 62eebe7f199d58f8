/*
 * dialect.h — the Argument Clinic versions clinic reproduces, as data.
 *
 * A dialect is one CPython version's Argument Clinic (3.11's clinic.py,
 * 3.13's, 3.14's and 3.15's libclinic): the same pipeline, told apart by a small set of named
 * differences, one file each (dialect_3_11.c ... dialect_3_15.c; dialect.c
 * chooses among them) — the syntax it accepts (decorators and
 * markers), what it writes differently (the keyword parser's declaration,
 * converter snippets, the #include header of routed files, the Limited C
 * API), the names it renames, and its error wordings.  A file's dialect is
 * chosen once, when its Clinic context is made (ClinicOptions.dialect);
 * the stages read these fields, never the dialect's name.
 */
#ifndef CLINIC_DIALECT_H
#define CLINIC_DIALECT_H

#include <stdbool.h>
#include <stddef.h>

/* A built-in converter class whose C type the dialect writes otherwise. */
typedef struct DialectConverterType {
    const char *converter;     /* "Py_UNICODE_converter" */
    const char *type;          /* "const wchar_t *" */
} DialectConverterType;

/* A keyword a dialect adds to a built-in converter's converter_init,
   a bool (3.15: Py_ssize_t_converter's allow_negative=True). */
typedef struct DialectInitKeyword {
    const char *converter;     /* the class: "Py_ssize_t_converter" */
    const char *name;          /* "allow_negative" */
    bool default_value;
} DialectInitKeyword;

/* A built-in converter class and the class it derives from. */
typedef struct DialectClassBase {
    const char *converter;     /* "unsigned_short_converter" */
    const char *base;          /* "BaseUnsignedIntConverter" */
} DialectClassBase;

/* A name under which a class is registered. */
typedef struct DialectAlias {
    const char *name;          /* "object" */
    const char *class_name;    /* "CReturnConverter" */
    /* the name + "_return_converter" python blocks see it under
       ("object_return_converter") */
    const char *registered_as;
} DialectAlias;

/* A built-in converter class's attributes about defaults as the
   dialect's clinic defines them, where they are not the ones of the
   converter table (3.13's): c_ignored_default, c_init_default (3.14:
   what a variable without a default is initialised with), and the
   default_type a default must have.  NULL: the table's (c_init_default:
   the base class's); "" for none. */
typedef struct DialectClassDefaults {
    const char *converter;           /* "Py_buffer_converter" */
    const char *c_ignored_default;
    const char *c_init_default;
    /* the Python classes, as the reference's messages list them
       ("int, NoneType"); "object": any; "()": none, a default is
       refused */
    const char *default_type;
} DialectClassDefaults;

/* Which C API a converter snippet is written for. */
enum { SNIPPET_ANY_API, SNIPPET_FULL_API, SNIPPET_LIMITED_API };

/* One converter's specialised parsing snippet (a parse_arg() of
   clinic.py's converter classes; "cleanup" is Py_UNICODE's cleanup()):
   for a class and a variant (the format unit, or a case its parse_arg
   tells apart: "limited", "str_or_none"), the template, a str.format text with {argname}, {paramname},
   {length_name}, {bad_argument} ... (converters_render.c fills them). */
typedef struct DialectSnippet {
    const char *converter;     /* the class: "int_converter", "CConverter" */
    const char *variant;       /* "i", "O!", "limited", ... */
    unsigned char api;         /* SNIPPET_*_API */
    const char *text;
    /* {bad_argument} and {bad_argument2}: the type error, naming what
       was expected (text, or with expected_expr a C expression) */
    const char *expected;
    const char *expected2;
    bool expected_expr;
    /* an #include the snippet needs, and why (the comment) */
    const char *include;
    const char *include_reason;
    /* The reference's text is this one indented by `indent` spaces, after
       a newline and before as many spaces (0: 16), which a Python
       parse_arg adding to super()'s sees. */
    unsigned char indent;
} DialectSnippet;

/* The dialect's syntax where the dialects differ (bits of
   Dialect.syntax). */
enum {
    SYNTAX_CRITICAL_SECTION = 1u << 0,   /* @critical_section [a [b]] */
    SYNTAX_GETSET = 1u << 1,             /* @getter, @setter */
    SYNTAX_TEXT_SIGNATURE = 1u << 2,     /* @text_signature "(...)" */
    SYNTAX_DEPRECATION = 1u << 3,        /* '* [from X.Y]', '/ [from X.Y]' */
    SYNTAX_UNUSED = 1u << 4,             /* converter(unused=True) */
    SYNTAX_VERSION = 1u << 5,            /* the 'version' directive (3.11's;
                                            3.13 has none) */
    SYNTAX_DELETER = 1u << 6,            /* @deleter after @setter (3.14) */
    SYNTAX_PERMIT_LONG = 1u << 7,        /* @permit_long_summary,
                                            @permit_long_docstring_body
                                            (3.15) */
    SYNTAX_DISABLE = 1u << 8,            /* @disable fastcall (3.14) */
};

/* How a keyword parser declares its static _PyArg_Parser (3.13's
   declare_parser): an optional preamble defining KWTUPLE, then the
   declaration.  The texts are str.format templates of the generator
   (doubled braces, {keywords_c}, {keywords_py}, {name}, {format_units}). */
typedef struct DialectKeywordParser {
    const char *kwtuple_none;      /* no keyword parameters */
    const char *kwtuple_some;      /* some: printf %d is how many */
    const char *kwtuple_limited;   /* the Limited C API */
    const char *declaration;       /* printf %s is fname or format */
    const char *fname;             /* the parser's name ... */
    const char *format;            /* ... or its format string */
    /* The Limited C API's fallback, PyArg_ParseTupleAndKeywords's. */
    const char *limited_keywords;
    /* The _PyArg_UnpackKeywords call with its counts named (3.14; NULL:
       the positional counts, and _PyArg_UnpackKeywordsWithVararg for
       *args): printf %s the result variable, %s its first arguments,
       %d minpos, maxpos, minkw and varpos, %s the result again. */
    const char *unpack_call;
} DialectKeywordParser;

struct Dialect;

/* A dialect's text of the keyword parser field at `offset` (offsetof
   DialectKeywordParser): from d, or its bases where d gives none. */
const char *dialect_keyword_text(const struct Dialect *d, size_t offset);
#define DIALECT_KEYWORD_TEXT(d, field) \
    dialect_keyword_text((d), offsetof(DialectKeywordParser, field))

/*
 * The error and warning messages whose wording differs between the
 * dialects.  Each dialect's table gives the text of those it words its
 * own way (NULL: its base's).  The texts are formats for message.c: the
 * arguments are strings, "%s" takes the next one as it is, "%r" as Python
 * repr() shows it, "%2$s" (or "%2$r") the second; "%%" is '%'.  Every
 * dialect's text takes the same arguments, in the order given here.
 */
typedef enum DialectMessage {
    MSG_CHECKSUM_MISMATCH,          /* expected, computed */
    MSG_DESTINATION_TYPE,           /* type, name, the valid types */
    MSG_DESTINATION_TOO_FEW,        /* name, type */
    MSG_DESTINATION_TOO_MANY,       /* name, type */
    MSG_DESTINATION_CLEAR,          /* name */
    MSG_DESTINATION_MKDIR,          /* file, directory */
    MSG_DESTINATION_MODIFIED,       /* file */
    MSG_NO_PARENT,                  /* the fields so far, those from there */
    MSG_TEXT_AFTER_MARKER,          /* name */
    MSG_TEXT_BEFORE_MARKER,         /* name */
    MSG_GROUPS_NOT_POSITIONAL,
    MSG_DEFAULT_TYPE,               /* class, repr(default), field, types */
    MSG_CANNOT_DEDENT,
    MSG_MODULE_DEFINED,             /* name */
    MSG_OUTPUT_COMMAND,             /* name, fields " a b", "
 - 'a'..." */
    MSG_PRESERVE_TWICE,
    MSG_TAB_IN_DSL,                 /* line */
    MSG_CLONE_KIND,
    MSG_ILLEGAL_FUNCTION_NAME,      /* name */
    MSG_ILLEGAL_C_BASENAME,         /* name */
    MSG_BAD_ANNOTATION,             /* full name, annotation, stripped */
    MSG_SPECIAL_METHOD,             /* name */
    MSG_NEW_NOT_CLASSMETHOD,
    MSG_INIT_NOT_NORMAL,            /* the kind, "CLASS_METHOD" */
    MSG_INVALID_PARAMETER,          /* function, line */
    MSG_INVALID_PARAMETER_COMMA,    /* function, line */
    MSG_INVALID_PARAMETER_DEFAULT,  /* function, line */
    MSG_INVALID_PARAMETER_KWARGS,   /* function, line */
    MSG_DEFAULT_MISSING,            /* parameter */
    MSG_DEFAULT_SYNTAX,             /* repr(default), repr(the line parsed:
                                       "x = DEFAULT\n") */
    MSG_MALFORMED_DEFAULT,          /* repr(default), repr(exception) */
    MSG_EXPRESSION_NEEDS_C_DEFAULT, /* default, ast.dump() */
    MSG_CONSTANT_NEEDS_C_DEFAULT,   /* default */
    MSG_NOT_A_CONVERTER,            /* name, "legacy " or "" */
    MSG_GROUP_STATE_A,              /* function, state */
    MSG_GROUP_STATE_B,              /* function, state */
    MSG_GROUP_STATE_C,              /* function, state */
    MSG_GROUP_STATE_D,              /* function, state */
    MSG_UNMATCHED_BRACKET,          /* function */
    MSG_EMPTY_GROUP,                /* function */
    MSG_STAR_TWICE,                 /* function */
    MSG_SLASH_TWICE,                /* function */
    MSG_SLASH_AFTER_STAR,           /* function */
    MSG_NO_SUMMARY,                 /* full name */
    MSG_STAR_WITHOUT_PARAMETERS,    /* function, the marker ("*") */
    MSG_NON_ASCII_DOCSTRING,        /* the characters, repr()'d */
    MSG_FUNCTION_IN_CONVERTER_INIT, /* the class, the attribute of
                                       self.function (3.11 fails there) */
    MSG_SUMMARY_TOO_LONG,           /* full name, the width (3.15) */
    MSG_BODY_TOO_LONG,              /* full name, the width (3.15) */
    MSG_REMOVE_PERMIT_LONG_SUMMARY, /* full name (3.15) */
    MSG_REMOVE_PERMIT_LONG_BODY,    /* full name (3.15) */
    MSG_C_DEFAULT_REQUIRED,         /* class, the default's repr (3.14) */
    MSG_ACCESSOR_RETURN_TYPE,       /* "getter" or "setter" (3.13) */
    MSG_ACCESSOR_PARAMETERS,        /* "getter" or "setter" (3.13) */
    MSG_COUNT
} DialectMessage;

/* Behaviour the reference changed between versions without new syntax,
   by what it fixed (bits of Dialect.fixes). */
enum {
    /* min_kw_only does not count the *args parameter */
    FIX_MIN_KW_ONLY_AFTER_VARARG = 1u << 0,
    /* the parser's name of a parameter ("__clinic_args") is the one its
       format-string argument, Py_UNICODE's snippet and cleanup use */
    FIX_PARSER_NAME_EVERYWHERE = 1u << 1,
    /* a module declared twice is an error (3.11 looked for a class) */
    FIX_MODULE_REDEFINED = 1u << 2,
    /* the function line's name is checked (parent, special methods,
       __new__ and __init__) before its return annotation, and a clone's
       names must be legal */
    FIX_FUNCTION_NAME_FIRST = 1u << 3,
    /* the parameters after *args are keyword-only */
    FIX_KEYWORD_ONLY_AFTER_VARARG = 1u << 4,
    /* a clone of __new__ or __init__ may be of another kind */
    FIX_CLONE_NEW_OR_INIT = 1u << 5,
    /* defining_class is positional-only, and needs a class */
    FIX_DEFINING_CLASS_POSITIONAL = 1u << 6,
    /* bool's c_default= stays as given (only Py_True and Py_False become
       1 and 0), and an unknown default is left alone */
    FIX_BOOL_KEEPS_C_DEFAULT = 1u << 7,
    /* parse_converter checks the call: a callee that is not a name and a
       "**mapping" among the arguments are refused with a message (3.11
       reads the callee's .id, and evaluates a "**mapping", then fails to
       call the converter with a None key) */
    FIX_CONVERTER_CALL_CHECKED = 1u << 8,
    /* a parser function takes its first argument as a plain PyObject *
       (self, type or null), cast to the impl's type at the impl call,
       and METH_O calls the impl directly only when that needs no cast
       (3.14) */
    FIX_PYOBJECT_SELF = 1u << 9,
    /* an option group's case sets its group flags in parameter order
       (3.14's dict.fromkeys), not in the order of a Python set of ints */
    FIX_GROUP_FLAGS_IN_ORDER = 1u << 10,
    /* a default is checked against the type converter_init chose (its
       accept), after it: int(accept={str}) takes a str, Py_buffer None
       only with NoneType accepted (3.14) */
    FIX_DEFAULT_TYPE_AFTER_INIT = 1u << 11,
    /* optional groups with optional parameters: each argument count maps
       to one subset (an ambiguous configuration is an error), the counts
       it takes by omitting some fall through to its case, and '|' marks
       them in the format units (3.14's count_required) */
    FIX_GROUP_OPTIONAL_COUNTS = 1u << 12,
    /* an attribute has at most one getter and one setter, sharing their C
       basename (3.14's add_function) */
    FIX_ACCESSOR_PAIRS = 1u << 13,
    /* the converter computes its C default from the default, after
       converter_init (3.14's CConverter.__init__): the DSL passes only
       py_default; no default gives c_init_default, NULL gives
       c_ignored_default or c_init_default, and any other value the
       class's c_default_init, or else c_init_default for None, the
       escaped C literal for str and bytes (c_str_repr, c_bytes_repr),
       repr() for int and float; what is left is an error ("c_default
       is required"). c_default="" counts as given to the DSL. */
    FIX_CONVERTER_C_DEFAULT = 1u << 14,
    /* a module is looked up by the dotted name up to it, as modules are
       filed under their full name, so "module a.b" makes "a.b.f" work;
       a missing parent is named by that prefix (3.15) */
    FIX_NESTED_MODULES = 1u << 15,
    /* a parameter line is parsed whole, as Python's "def x(LINE\n):
       pass": its default may hold '=', a '#' comment may end it, and
       any syntax error is the one-line invalid parameter declaration
       (3.14) */
    FIX_PARAMETER_LINE_WHOLE = 1u << 16,
    /* *args has a converter of its own (varpos_tuple, varpos_array),
       which parses it after the other parameters, outside the argument
       buffer, and cleans it up; a '#' length is named after the
       parameter's C name, not its parser name (3.14) */
    FIX_VARPOS_CONVERTERS = 1u << 17,
    /* the preprocessor monitor skips a line that ends inside a block
       comment, a '#' line included, where 3.11's cpp.py still reads the
       directive in it (and stops on an empty one) (3.13) */
    FIX_CPP_SKIPS_COMMENTED = 1u << 18,
};

/* What 3.13 accepts and fixes over 3.11, which the newer dialects keep. */
#define DIALECT_3_13_SYNTAX                                                  \
    (SYNTAX_CRITICAL_SECTION | SYNTAX_GETSET | SYNTAX_TEXT_SIGNATURE |       \
     SYNTAX_DEPRECATION | SYNTAX_UNUSED)
#define DIALECT_3_13_FIXES                                                   \
    (FIX_MIN_KW_ONLY_AFTER_VARARG | FIX_PARSER_NAME_EVERYWHERE |             \
     FIX_MODULE_REDEFINED | FIX_FUNCTION_NAME_FIRST |                        \
     FIX_KEYWORD_ONLY_AFTER_VARARG | FIX_CLONE_NEW_OR_INIT |                 \
     FIX_DEFINING_CLASS_POSITIONAL | FIX_BOOL_KEEPS_C_DEFAULT |              \
     FIX_CONVERTER_CALL_CHECKED | FIX_CPP_SKIPS_COMMENTED)
#define DIALECT_3_14_FIXES                                                   \
    (DIALECT_3_13_FIXES | FIX_PYOBJECT_SELF | FIX_GROUP_FLAGS_IN_ORDER |     \
     FIX_DEFAULT_TYPE_AFTER_INIT | FIX_GROUP_OPTIONAL_COUNTS |               \
     FIX_ACCESSOR_PAIRS | FIX_CONVERTER_C_DEFAULT |                          \
     FIX_PARAMETER_LINE_WHOLE | FIX_VARPOS_CONVERTERS)
#define DIALECT_3_13_DEFINING_CLASS_NO_ARGS                                  \
    "nargs || (kwnames && PyTuple_GET_SIZE(kwnames))"
#define DIALECT_3_13_SELF_TYPE_CHECK_NEW                                     \
    "({self} == base_tp || {self}->tp_init == base_tp->tp_init)"
#define DIALECT_3_13_SELF_TYPE_CHECK_INIT                                    \
    "(Py_IS_TYPE({self}, base_tp) ||\n"                                      \
    "         Py_TYPE({self})->tp_new == base_tp->tp_new)"
#define DIALECT_3_13_BASE_TYPE_PTR "PyTypeObject *base_tp = {type};"
#define DIALECT_3_13_BUFFER_MODULE "libclinic.converters"
#define DIALECT_3_13_NULL_MODULE "libclinic.utils"

typedef struct Dialect {
    const char *name;          /* "3.11": what --dialect takes */
    int major, minor;          /* the CPython version it reproduces */
    const char *reference;     /* what it reproduces, for --help */
    /* The dialect this one changes: whatever is not given here (NULL or
       not in a table) is the base's. */
    const struct Dialect *base;
    /* what --make walks: file name endings, NULL-terminated */
    const char *const *make_extensions;
    /* --make names each file by os.path.normpath of the walk's path
       ("./Modules/a.c" is "Modules/a.c", in messages and in the routed
       files' {dirname}: 3.14) */
    bool make_normalises_paths;
    unsigned syntax;           /* SYNTAX_ bits */
    unsigned fixes;            /* FIX_ bits */

    /* Routed files open with the #includes the code needs
       (gen_includes.c). */
    bool header_includes;
    /* A file that defines Py_LIMITED_API gets Limited C API code. */
    bool limited_capi;
    /* Parameter names that clash with the parser's own variables, renamed
       "__clinic_NAME" in the parser (bpo-39741), NULL-terminated. */
    const char *const *prefixed_names;
    /* Non-ASCII docstrings are warned about line by line, naming the
       characters, as the DSL reads them (3.13), not once per function as
       the C string is made (3.11). */
    bool docstring_ascii_check;
    /* An argument's display name, as parse_arg() gets it, is in double
       quotes ("\"argument 'x'\"", 3.11) or not. */
    bool quoted_displayname;
    /* An exception a python block or a converter raises reaches the
       interpreter uncaught, whose traceback offers "Did you mean" on a
       NameError (3.13), instead of traceback.format_exc()'s (3.11). */
    bool exception_suggestions;

    const DialectKeywordParser *keyword_parser;
    /* The METH_METHOD parser of a function without parameters refuses
       arguments when this C condition holds. */
    const char *defining_class_no_args;
    /* __new__ and __init__ of a class with a typedef check that no
       subclass changed the slot before refusing keywords: the checks
       ({self} and {type} for the names, {prefix} for the type object's
       "Type." or "type->"), and the declaration they need (NULL: none). */
    const char *self_type_check_new;
    const char *self_type_check_init;
    const char *base_type_ptr;

    /* The converters' parsing snippets this dialect writes (new, or
       changed from its base's). */
    const DialectSnippet *snippets;
    size_t nsnippets;

    /* Its wording of the messages (see DialectMessage). */
    const char *const *messages;

    /* Built-in converters with another C type, NULL-terminated by
       converter (NULL: none). */
    const DialectConverterType *converter_types;
    /* The return converters of the base it does not have, and the names
       it adds (both NULL-terminated; NULL: none). */
    const char *const *return_converters_lacking;
    const DialectAlias *return_converter_aliases;
    /* Where clinic's own classes live, as their repr() shows in listings
       and messages: buffer, robuffer and rwbuffer; Null. */
    const char *buffer_module;
    const char *null_module;
    /* A docstring's summary line longer than this is an error, in a
       class's method than summary_width_method (3.15; 0: any width). */
    unsigned char summary_width, summary_width_method;
    /* What a setter's parser does first (3.14: refuse deletion), a
       template of the generator (NULL: its base's; none in 3.11). */
    const char *setter_preamble;
    /* *args's converter is looked up as this prefix + its name (3.14:
       "varpos_"; NULL: its base's; none in 3.11). */
    const char *varpos_prefix;
    /* The converter classes of the table that this dialect adds to its
       base's, by class name, NULL-terminated (NULL: none): the table's
       rows marked as added exist only in the dialects that add them. */
    const char *const *converters_added;
    /* The function a METH_FASTCALL *args: tuple is made with, and the
       #include it needs ("": none) (3.14: "_PyTuple_FromArray"; NULL:
       its base's). */
    const char *varpos_tuple_from_array;
    const char *varpos_tuple_include;
    /* The keywords this dialect adds to converter_init of built-in
       classes, after their base's, NULL-terminated by converter (NULL:
       none). */
    const DialectInitKeyword *init_keywords_added;
    /* The name clinic's Null class has in messages (NULL: its base's;
       "Null" in 3.11 and 3.13). */
    const char *null_type_name;
    /* The module of the enum Sentinels whose members unspecified and
       unknown are, as python blocks see them (NULL: its base's; none in
       3.11, whose Unspecified and Unknown are classes of their own). */
    const char *sentinels_module;
    /* **kwds's converter is looked up as this prefix + its name (3.15:
       "var_keyword_"; NULL: its base's; none before 3.15). */
    const char *var_keyword_prefix;
    /* The bitwise unsigned converters (format units B, H, I, k, K) warn
       (a DeprecationWarning) when a value does not fit, which the older
       ones wrap silently: deprecated, to become an error (3.15). */
    bool bitwise_overflow_deprecated;
    /* The built-in classes whose c_ignored_default, c_init_default or
       default_type differ from the converter table's, NULL-terminated;
       a class not listed is as the base dialect has it. */
    const DialectClassDefaults *class_defaults;
    /* The built-in classes whose base class is not the converter
       table's (3.14: the unsigned integers derive from
       BaseUnsignedIntConverter), NULL-terminated; a class not listed
       derives as in the base dialect.  What python blocks see (__mro__,
       inherited attributes); the generation is the table's either way. */
    const DialectClassBase *class_bases;
} Dialect;

/* The pointer field at `offset` (offsetof Dialect) of d, or of its
   nearest base that gives one: the fields added for 3.14 and later,
   which the newer files need not restate. */
const void *dialect_inherited(const Dialect *d, size_t offset);
#define DIALECT_INHERITED(d, field) \
    dialect_inherited((d), offsetof(Dialect, field))

/* Every dialect, oldest first, NULL-terminated; and each by name. */
extern const Dialect *const dialects[];
extern const Dialect dialect_3_11;   /* dialect_3_11.c */
extern const Dialect dialect_3_13;   /* dialect_3_13.c */
extern const Dialect dialect_3_14;   /* dialect_3_14.c */
extern const Dialect dialect_3_15;   /* dialect_3_15.c */

/* 3.13's tables, which the newer dialects keep. */
extern const char *const make_extensions_3_13[];
extern const char *const prefixed_names_3_13[];
extern const char *const return_converters_lacking_3_13[];
extern const DialectAlias return_converter_aliases_3_13[];

/* The dialect a file gets when nothing says otherwise: 3.11. */
const Dialect *dialect_default(void);

/* By name ("3.13"); NULL when there is no such dialect. */
const Dialect *dialect_find(const char *name);

/* The dialect for a CPython tree of version major.minor: the newest
   dialect not newer than the tree (3.12 gets 3.11, 3.16 gets 3.15), or
   the default for trees older than every dialect (3.16 gets 3.15). */
const Dialect *dialect_for_version(int major, int minor);

/* PY_MAJOR_VERSION and PY_MINOR_VERSION from the text of a CPython
   Include/patchlevel.h.  Returns false when they are not both there. */
bool dialect_read_patchlevel(const char *text, size_t len, int *major,
                             int *minor);

/* The snippet of converter class `converter` for `variant`, written for
   the full C API or (limited) the Limited C API; looked for in d, then in
   its bases.  NULL: the class has none (its parse_arg defers to its base
   class's). */
const DialectSnippet *dialect_snippet(const Dialect *d, const char *converter,
                                      const char *variant, bool limited);

/* The C type the dialect gives the built-in converter class `converter`,
   or NULL when it keeps the class's own. */
const char *dialect_converter_type(const Dialect *d, const char *converter);

/* Whether the dialect, or a base of it, adds the converter class of
   this name (Dialect.converters_added). */
bool dialect_adds_converter(const Dialect *d, const char *class_name);

/* The class the built-in class `class_name` derives from in the
   dialect (Dialect.class_bases), or NULL when it is the table's. */
const char *dialect_class_base(const Dialect *d, const char *class_name);

/* Whether the dialect has no return converter of this name. */
bool dialect_lacks_return_converter(const Dialect *d, const char *name);

/* The dialect's wording of message id (from d, or its bases). */
const char *dialect_message(const Dialect *d, DialectMessage id);

/* Whether the dialect --make walks a file of this name. */
bool dialect_makes(const Dialect *d, const char *filename);

#endif
