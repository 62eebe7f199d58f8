/*
 * converters_table.c — the converter table as data, the per-file
 * registry built from it, and `clinic --converters`.
 *
 * Rows mirror clinic.py's classes attribute for attribute (CConverter
 * and its 28 registered subclasses, CReturnConverter and its 11), the 30
 * legacy format units with their functools.partial keywords, in the
 * state clinic.py's module reaches once it has been imported.  The
 * registry adds the classes python blocks declare (converters_py.c).
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "model/converters_int.h"

/* ---- classes as Python prints them ----------------------------------- */

/* The order sets are printed in: the order clinic.py writes them in its
   source ({int, NoneType}, {robuffer, str, NoneType}, ...), instead of
   Python's hash order, so listings and messages are stable. */
const unsigned conv_type_order[] = {
    PYT_OBJECT, PYT_BOOL, PYT_INT, PYT_FLOAT, PYT_COMPLEX, PYT_BYTES,
    PYT_BYTEARRAY, PYT_ROBUFFER, PYT_STR, PYT_NULL, PYT_BUFFER,
    PYT_RWBUFFER, PYT_NONETYPE,
};
const size_t conv_type_order_len =
    sizeof conv_type_order / sizeof conv_type_order[0];
/* The same classes in the order of clinic.py's default_type tuples:
   (str, bytes, NullType, NoneType), (bytes, bytearray), (int, NoneType). */
const unsigned conv_default_type_order[] = {
    PYT_OBJECT, PYT_BOOL, PYT_INT, PYT_FLOAT, PYT_COMPLEX, PYT_STR,
    PYT_BYTES, PYT_BYTEARRAY, PYT_ROBUFFER, PYT_NULL, PYT_BUFFER,
    PYT_RWBUFFER, PYT_NONETYPE,
};

static const char *conv_class_repr(Arena *a, const Dialect *d, unsigned type_bit)
{
    switch (type_bit) {
    case PYT_OBJECT: return "<class 'object'>";
    case PYT_INT: return "<class 'int'>";
    case PYT_STR: return "<class 'str'>";
    case PYT_BYTES: return "<class 'bytes'>";
    case PYT_BYTEARRAY: return "<class 'bytearray'>";
    case PYT_FLOAT: return "<class 'float'>";
    case PYT_COMPLEX: return "<class 'complex'>";
    case PYT_BOOL: return "<class 'bool'>";
    case PYT_NONETYPE: return "<class 'NoneType'>";
    /* clinic's own classes, in the module the dialect defines them */
    case PYT_BUFFER:
        return arena_printf(a, "<class '%s.buffer'>", d->buffer_module);
    case PYT_ROBUFFER:
        return arena_printf(a, "<class '%s.robuffer'>", d->buffer_module);
    case PYT_RWBUFFER:
        return arena_printf(a, "<class '%s.rwbuffer'>", d->buffer_module);
    case PYT_NULL:
        return arena_printf(a, "<class '%s.Null'>", d->null_module);
    default: return "<class '?'>";
    }
}

const char *conv_in_dialect(Arena *a, const Dialect *d, const char *repr)
{
    static const char *const own[] = {"buffer", "robuffer", "rwbuffer",
                                      "Null"};
    if (!strstr(repr, "'__main__."))
        return repr;
    for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        repr = text_replace(a, repr,
                            arena_printf(a, "'__main__.%s'", own[i]),
                            arena_printf(a, "'%s.%s'",
                                         i < 3 ? d->buffer_module
                                               : d->null_module, own[i]));
    return repr;
}

static void add_type_set(Arena *a, const Dialect *d, StrBuf *sb,
                         unsigned types)
{
    bool first = true;
    for (size_t i = 0; i < conv_type_order_len; i++) {
        if (!(types & conv_type_order[i]))
            continue;
        if (!first)
            sb_adds(sb, ", ");
        sb_adds(sb, conv_class_repr(a, d, conv_type_order[i]));
        first = false;
    }
}

static void add_repr(Arena *a, const Dialect *d, StrBuf *sb,
                     const PyValue *v)
{
    switch (v->kind) {
    case PY_TYPE:
        sb_adds(sb, conv_class_repr(a, d, v->types));
        break;
    case PY_SET:
        if (!v->types) {
            sb_adds(sb, "set()");
            break;
        }
        if (!(v->types & PYT_NULL)) {
            /* Python's own order (pyexpr_value.c): it depends on the
               members' addresses and on the order they were added */
            sb_adds(sb, conv_in_dialect(a, d, py_repr(a, v)));
            break;
        }
        sb_addc(sb, '{');
        add_type_set(a, d, sb, v->types);
        sb_addc(sb, '}');
        break;
    case PY_TUPLE:
        sb_addc(sb, '(');
        for (size_t i = 0; i < v->nitems; i++) {
            if (i)
                sb_adds(sb, ", ");
            add_repr(a, d, sb, &v->items[i]);
        }
        if (v->nitems == 1)
            sb_addc(sb, ',');
        sb_addc(sb, ')');
        break;
    default:
        sb_adds(sb, py_repr(a, v));
        break;
    }
}

const char *conv_repr(Arena *a, const Dialect *d, const PyValue *v)
{
    StrBuf sb = STRBUF_INIT;
    add_repr(a, d, &sb, v);
    return sb_take(&sb, a);
}

/* ---- the built-in converter classes ---------------------------------- */

#define ROW(i) (&converter_rows[i].cls)
#define SET(bits) { .kind = PY_SET, .types = (bits) }
#define NONE { .kind = PY_NONE }
#define FALSE_ { .kind = PY_BOOL, .b = false }
#define TRUE_ { .kind = PY_BOOL, .b = true }

/* The attributes every row sets: C type, default_type, format unit,
   c_ignored_default; the rest of CConverter's defaults follow. */
#define ATTRS(ctype, dtype, unit, ignored)                                 \
    .type = ctype, .default_type = dtype, .format_unit = unit,             \
    .c_ignored_default = ignored, .parse_by_reference = true

enum {
    R_CCONVERTER, R_BOOL, R_DEFINING_CLASS, R_CHAR, R_UNSIGNED_CHAR, R_BYTE,
    R_SHORT, R_UNSIGNED_SHORT, R_INT, R_UNSIGNED_INT, R_LONG,
    R_UNSIGNED_LONG, R_LONG_LONG, R_UNSIGNED_LONG_LONG, R_PY_SSIZE_T,
    R_SLICE_INDEX, R_SIZE_T, R_FILDES, R_FLOAT, R_DOUBLE, R_PY_COMPLEX,
    R_OBJECT, R_STR, R_PYBYTESOBJECT, R_PYBYTEARRAYOBJECT, R_UNICODE,
    R_PY_UNICODE, R_PY_BUFFER, R_SELF, R_VARPOS_TUPLE, R_VARPOS_ARRAY,
    R_VAR_KEYWORD_DICT, R_UINT8, R_UINT16, R_UINT32, R_UINT64,
    R_UNICODE_FS_ENCODED, R_UNICODE_FS_DECODED, R_BASE_UNSIGNED_INT,
    R_VARPOS_BASE, R_VAR_KEYWORD_BASE, R_COUNT
};

#define STRTYPES (PYT_STR | PYT_NULL | PYT_NONETYPE)
/* clinic.py writes "'\0'" in a Python string, i.e. a real NUL between
   quotes, which a C string cannot hold; "'\\0'" is what it means. */
#define CHAR_IGNORED "'\\0'"

#define BITWISE_PARAM { { "bitwise", FALSE_ } }, .nparams = 1

/* A class deriving directly from CConverter, or from base_row. */
#define CLS_OF(base_row, pyname, ...)                                      \
    .cls = { .name = pyname, .class_name = pyname "_converter",            \
             .base = ROW(base_row), .show_in_signature = true,             \
             __VA_ARGS__ }
#define CLS(pyname, ...) CLS_OF(R_CCONVERTER, pyname, __VA_ARGS__)

#define SIMPLE_ROW(R, K, pyname, ctype, dtype, unit, ignored)              \
    [R] = { CLS(pyname, ATTRS(ctype, dtype, unit, ignored)),                \
            .kind = K, .init_owner = "CConverter", .listed = true }

/* 3.14's unsigned integers of a given width, through their converter
   function (a BaseUnsignedIntConverter) */
#define UINT_ROW(R, pyname, ctype, function)                               \
    [R] = { CLS_OF(R_BASE_UNSIGNED_INT, pyname,                            \
                   ATTRS(ctype, PYT_INT, "O&", "0"), .converter = function), \
            .kind = CK_UINT, .init_owner = "CConverter", .listed = true,    \
            .added = true }

#define UNSIGNED_ROW(R, K, pyname, ctype)                                  \
    [R] = { CLS(pyname, ATTRS(ctype, PYT_INT, "O&", "0")),                  \
            .kind = K, .init_owner = pyname "_converter",                   \
            .params = BITWISE_PARAM, .listed = true }

const ConverterRow converter_rows[] = {
    [R_CCONVERTER] = {
        .cls = { .name = "CConverter", .class_name = "CConverter",
                 ATTRS(NULL, 0, "O&", "NULL"), .show_in_signature = true },
        .kind = CK_BASE, .init_owner = "CConverter" },
    [R_BOOL] = {
        CLS("bool", ATTRS("int", PYT_BOOL, "p", "0")),
        .kind = CK_BOOL, .init_owner = "bool_converter",
        .params = { { "accept", SET(PYT_OBJECT) } }, .nparams = 1,
        .listed = true },
    [R_DEFINING_CLASS] = {
        .cls = { .name = "defining_class",
                 .class_name = "defining_class_converter",
                 .base = ROW(R_CCONVERTER), .is_defining_class = true,
                 ATTRS("PyTypeObject *", 0, "", "NULL"),
                 .show_in_signature = false },
        .kind = CK_DEFINING_CLASS, .init_owner = "defining_class_converter",
        .params = { { "type", NONE } }, .nparams = 1, .listed = true },
    [R_CHAR] = {
        CLS("char", ATTRS("char", PYT_BYTES | PYT_BYTEARRAY, "c",
                          CHAR_IGNORED)),
        .kind = CK_CHAR, .init_owner = "char_converter", .listed = true },
    [R_UNSIGNED_CHAR] = {
        CLS("unsigned_char", ATTRS("unsigned char", PYT_INT, "b",
                                   CHAR_IGNORED)),
        .kind = CK_UNSIGNED_CHAR, .init_owner = "unsigned_char_converter",
        .params = BITWISE_PARAM, .listed = true },
    [R_BYTE] = {
        .cls = { .name = "byte", .class_name = "byte_converter",
                 .base = ROW(R_UNSIGNED_CHAR), .show_in_signature = true,
                 ATTRS("unsigned char", PYT_INT, "b", CHAR_IGNORED) },
        .kind = CK_UNSIGNED_CHAR, .init_owner = "unsigned_char_converter",
        .params = BITWISE_PARAM, .listed = true },
    SIMPLE_ROW(R_SHORT, CK_SHORT, "short", "short", PYT_INT, "h", "0"),
    UNSIGNED_ROW(R_UNSIGNED_SHORT, CK_UNSIGNED_SHORT, "unsigned_short",
                 "unsigned short"),
    [R_INT] = {
        CLS("int", ATTRS("int", PYT_INT, "i", "0")),
        .kind = CK_INT, .init_owner = "int_converter",
        .params = { { "accept", SET(PYT_INT) }, { "type", NONE } },
        .nparams = 2, .listed = true },
    UNSIGNED_ROW(R_UNSIGNED_INT, CK_UNSIGNED_INT, "unsigned_int",
                 "unsigned int"),
    SIMPLE_ROW(R_LONG, CK_LONG, "long", "long", PYT_INT, "l", "0"),
    UNSIGNED_ROW(R_UNSIGNED_LONG, CK_UNSIGNED_LONG, "unsigned_long",
                 "unsigned long"),
    SIMPLE_ROW(R_LONG_LONG, CK_LONG_LONG, "long_long", "long long", PYT_INT,
               "L", "0"),
    UNSIGNED_ROW(R_UNSIGNED_LONG_LONG, CK_UNSIGNED_LONG_LONG,
                 "unsigned_long_long", "unsigned long long"),
    [R_PY_SSIZE_T] = {
        CLS("Py_ssize_t", ATTRS("Py_ssize_t", 0, "O&", "0")),
        .kind = CK_PY_SSIZE_T, .init_owner = "Py_ssize_t_converter",
        .params = { { "accept", SET(PYT_INT) } }, .nparams = 1,
        .listed = true },
    [R_SLICE_INDEX] = {
        CLS("slice_index", ATTRS("Py_ssize_t", 0, "O&", "NULL")),
        .kind = CK_SLICE_INDEX, .init_owner = "slice_index_converter",
        .params = { { "accept", SET(PYT_INT | PYT_NONETYPE) } },
        .nparams = 1, .listed = true },
    [R_SIZE_T] = {
        CLS("size_t", ATTRS("size_t", 0, "O&", "0"),
            .converter = "_PyLong_Size_t_Converter"),
        .kind = CK_SIZE_T, .init_owner = "CConverter", .listed = true },
    [R_FILDES] = {
        CLS("fildes", ATTRS("int", 0, "O&", "NULL"),
            .converter = "_PyLong_FileDescriptor_Converter"),
        .kind = CK_FILDES, .init_owner = "CConverter", .listed = true },
    SIMPLE_ROW(R_FLOAT, CK_FLOAT, "float", "float", PYT_FLOAT, "f", "0.0"),
    SIMPLE_ROW(R_DOUBLE, CK_DOUBLE, "double", "double", PYT_FLOAT, "d",
               "0.0"),
    SIMPLE_ROW(R_PY_COMPLEX, CK_PY_COMPLEX, "Py_complex", "Py_complex",
               PYT_COMPLEX, "D", "{0.0, 0.0}"),
    [R_OBJECT] = {
        CLS("object", ATTRS("PyObject *", 0, "O", "NULL")),
        .kind = CK_OBJECT, .init_owner = "object_converter",
        .params = { { "converter", NONE }, { "type", NONE },
                    { "subclass_of", NONE } },
        .nparams = 3, .listed = true },
    [R_STR] = {
        CLS("str", ATTRS("const char *", STRTYPES, "s", "NULL")),
        .kind = CK_STR, .init_owner = "str_converter",
        .params = { { "accept", SET(PYT_STR) }, { "encoding", NONE },
                    { "zeroes", FALSE_ } },
        .nparams = 3, .listed = true },
    SIMPLE_ROW(R_PYBYTESOBJECT, CK_PYBYTESOBJECT, "PyBytesObject",
               "PyBytesObject *", 0, "S", "NULL"),
    SIMPLE_ROW(R_PYBYTEARRAYOBJECT, CK_PYBYTEARRAYOBJECT,
               "PyByteArrayObject", "PyByteArrayObject *", 0, "Y", "NULL"),
    SIMPLE_ROW(R_UNICODE, CK_UNICODE, "unicode", "PyObject *", STRTYPES,
               "U", "NULL"),
    [R_PY_UNICODE] = {
        CLS("Py_UNICODE", ATTRS("const Py_UNICODE *", STRTYPES, "O&",
                                "NULL")),
        .kind = CK_PY_UNICODE, .init_owner = "Py_UNICODE_converter",
        .params = { { "accept", SET(PYT_STR) }, { "zeroes", FALSE_ } },
        .nparams = 2, .listed = true },
    [R_PY_BUFFER] = {
        CLS("Py_buffer", ATTRS("Py_buffer", 0, "y*", "{NULL, NULL}"),
            .impl_by_reference = true),
        .kind = CK_PY_BUFFER, .init_owner = "Py_buffer_converter",
        .params = { { "accept", SET(PYT_BUFFER) } }, .nparams = 1,
        .listed = true },
    [R_SELF] = {
        CLS("self", ATTRS(NULL, 0, "", "NULL"), .is_self = true),
        .kind = CK_SELF, .init_owner = "self_converter",
        .params = { { "type", NONE } }, .nparams = 1, .listed = true },
    /* 3.14's converters of *args: a tuple (NULL until it is made, and
       released in the cleanup), or the arguments' array and its length */
    [R_VARPOS_TUPLE] = {
        CLS_OF(R_VARPOS_BASE, "varpos_tuple", ATTRS("PyObject *", 0, "", ""),
               .c_default = "NULL"),
        .kind = CK_VARPOS_TUPLE, .init_owner = "CConverter", .listed = true,
        .added = true },
    [R_VARPOS_ARRAY] = {
        CLS_OF(R_VARPOS_BASE, "varpos_array",
               ATTRS("PyObject * const *", 0, "", ""), .length = true),
        .kind = CK_VARPOS_ARRAY, .init_owner = "CConverter", .listed = true,
        .added = true },
    /* 3.15's converter of **kwds: a new reference to the keywords' dict
       (a new dict when there are none), released in the cleanup */
    [R_VAR_KEYWORD_DICT] = {
        CLS_OF(R_VAR_KEYWORD_BASE, "var_keyword_dict",
               ATTRS("PyObject *", 0, "", ""), .c_default = "NULL"),
        .kind = CK_VAR_KEYWORD_DICT, .init_owner = "CConverter",
        .listed = true, .added = true },
    UINT_ROW(R_UINT8, "uint8", "uint8_t", "_PyLong_UInt8_Converter"),
    UINT_ROW(R_UINT16, "uint16", "uint16_t", "_PyLong_UInt16_Converter"),
    UINT_ROW(R_UINT32, "uint32", "uint32_t", "_PyLong_UInt32_Converter"),
    UINT_ROW(R_UINT64, "uint64", "uint64_t", "_PyLong_UInt64_Converter"),
    /* 3.14's file names: a new reference to the name encoded (bytes) or
       decoded (str), released in the cleanup; NULL the only default */
    [R_UNICODE_FS_ENCODED] = {
        CLS("unicode_fs_encoded", ATTRS("PyObject *", PYT_NULL, "O&", ""),
            .c_default = "NULL", .converter = "PyUnicode_FSConverter"),
        .kind = CK_UNICODE_FS, .init_owner = "CConverter", .listed = true,
        .added = true },
    [R_UNICODE_FS_DECODED] = {
        CLS("unicode_fs_decoded", ATTRS("PyObject *", PYT_NULL, "O&", ""),
            .c_default = "NULL", .converter = "PyUnicode_FSDecoder"),
        .kind = CK_UNICODE_FS, .init_owner = "CConverter", .listed = true,
        .added = true },
    /* Bases 3.14's module defines for the classes above, under no
       converter name: the unsigned integers' (bitwise is False; a
       dialect's class_bases put the older unsigned classes under it),
       and those of *args and **kwds, which take no default. */
    [R_BASE_UNSIGNED_INT] = {
        .cls = { .name = "BaseUnsignedIntConverter",
                 .class_name = "BaseUnsignedIntConverter",
                 .base = ROW(R_CCONVERTER), .show_in_signature = true,
                 ATTRS(NULL, PYT_INT, "O&", "0") },
        .kind = CK_UINT, .init_owner = "CConverter", .added = true,
        .false_attribute = "bitwise" },
    [R_VARPOS_BASE] = {
        .cls = { .name = "VarPosCConverter", .class_name = "VarPosCConverter",
                 .base = ROW(R_CCONVERTER), .show_in_signature = true,
                 ATTRS(NULL, PYT_NO_DEFAULT, "", "") },
        .kind = CK_BASE, .init_owner = "CConverter", .added = true },
    [R_VAR_KEYWORD_BASE] = {
        .cls = { .name = "VarKeywordCConverter",
                 .class_name = "VarKeywordCConverter",
                 .base = ROW(R_CCONVERTER), .show_in_signature = true,
                 ATTRS(NULL, PYT_NO_DEFAULT, "", "") },
        .kind = CK_BASE, .init_owner = "CConverter", .added = true },
};
const size_t converter_nrows = R_COUNT;

/* ---- the legacy format units ----------------------------------------- */

static const ConverterArg kw_bitwise[] = { { "bitwise", TRUE_ } };
static const ConverterArg kw_accept_str[] = { { "accept", SET(PYT_STR) } };
static const ConverterArg kw_s_hash[] = {
    { "accept", SET(PYT_ROBUFFER | PYT_STR) }, { "zeroes", TRUE_ } };
static const ConverterArg kw_y[] = { { "accept", SET(PYT_ROBUFFER) } };
static const ConverterArg kw_y_hash[] = {
    { "accept", SET(PYT_ROBUFFER) }, { "zeroes", TRUE_ } };
static const ConverterArg kw_z[] = {
    { "accept", SET(PYT_STR | PYT_NONETYPE) } };
static const ConverterArg kw_z_hash[] = {
    { "accept", SET(PYT_ROBUFFER | PYT_STR | PYT_NONETYPE) },
    { "zeroes", TRUE_ } };
static const ConverterArg kw_Z_hash[] = {
    { "accept", SET(PYT_STR | PYT_NONETYPE) }, { "zeroes", TRUE_ } };
static const ConverterArg kw_zeroes[] = { { "zeroes", TRUE_ } };
static const ConverterArg kw_w_star[] = { { "accept", SET(PYT_RWBUFFER) } };
static const ConverterArg kw_z_star[] = {
    { "accept", SET(PYT_STR | PYT_BUFFER | PYT_NONETYPE) } };
static const ConverterArg kw_s_star[] = {
    { "accept", SET(PYT_STR | PYT_BUFFER) } };

#define LEGACY(unit, R) { unit, ROW(R), NULL, 0 }
#define LEGACY_KW(unit, R, kw) \
    { unit, ROW(R), kw, sizeof kw / sizeof kw[0] }

/* In the order clinic.py's import fills legacy_converters. */
const LegacyEntry legacy_entries[] = {
    LEGACY("p", R_BOOL),
    LEGACY("c", R_CHAR),
    LEGACY("b", R_UNSIGNED_CHAR),
    LEGACY_KW("B", R_UNSIGNED_CHAR, kw_bitwise),
    LEGACY("h", R_SHORT),
    LEGACY("i", R_INT),
    LEGACY_KW("C", R_INT, kw_accept_str),
    LEGACY("l", R_LONG),
    LEGACY("L", R_LONG_LONG),
    LEGACY("f", R_FLOAT),
    LEGACY("d", R_DOUBLE),
    LEGACY("D", R_PY_COMPLEX),
    LEGACY("O", R_OBJECT),
    LEGACY("s", R_STR),
    LEGACY_KW("s#", R_STR, kw_s_hash),
    LEGACY_KW("y", R_STR, kw_y),
    LEGACY_KW("y#", R_STR, kw_y_hash),
    LEGACY_KW("z", R_STR, kw_z),
    LEGACY_KW("z#", R_STR, kw_z_hash),
    LEGACY("S", R_PYBYTESOBJECT),
    LEGACY("Y", R_PYBYTEARRAYOBJECT),
    LEGACY("U", R_UNICODE),
    LEGACY_KW("Z#", R_PY_UNICODE, kw_Z_hash),
    LEGACY_KW("Z", R_PY_UNICODE, kw_z),
    LEGACY_KW("u#", R_PY_UNICODE, kw_zeroes),
    LEGACY("u", R_PY_UNICODE),
    LEGACY("y*", R_PY_BUFFER),
    LEGACY_KW("w*", R_PY_BUFFER, kw_w_star),
    LEGACY_KW("z*", R_PY_BUFFER, kw_z_star),
    LEGACY_KW("s*", R_PY_BUFFER, kw_s_star),
};
const size_t legacy_nentries = sizeof legacy_entries / sizeof legacy_entries[0];

/* ---- the built-in return converter classes --------------------------- */

enum {
    RR_OBJECT, RR_NONETYPE, RR_BOOL, RR_LONG, RR_INT, RR_INIT,
    RR_UNSIGNED_LONG, RR_UNSIGNED_INT, RR_PY_SSIZE_T, RR_SIZE_T, RR_DOUBLE,
    RR_FLOAT, RR_COUNT
};
#define RROW(i) (&return_rows[i].cls)

#define LONG_ROW(R, pyname, base_, ctype, fn, cast_, ucast)                \
    [R] = { .cls = { .name = pyname,                                        \
                     .class_name = pyname "_return_converter",              \
                     .base = RROW(base_), .type = ctype,                    \
                     .conversion_fn = fn, .cast = cast_,                    \
                     .unsigned_cast = ucast },                              \
            .kind = RK_LONG, .listed = true }

const ReturnRow return_rows[] = {
    [RR_OBJECT] = {
        .cls = { .name = "object", .class_name = "CReturnConverter",
                 .type = "PyObject *" },
        .kind = RK_OBJECT },
    [RR_NONETYPE] = {
        .cls = { .name = "NoneType", .class_name = "NoneType_return_converter",
                 .base = RROW(RR_OBJECT), .type = "PyObject *" },
        .kind = RK_NONETYPE, .listed = true },
    [RR_BOOL] = {
        .cls = { .name = "bool", .class_name = "bool_return_converter",
                 .base = RROW(RR_OBJECT), .type = "int" },
        .kind = RK_BOOL, .listed = true },
    [RR_LONG] = {
        .cls = { .name = "long", .class_name = "long_return_converter",
                 .base = RROW(RR_OBJECT), .type = "long",
                 .conversion_fn = "PyLong_FromLong", .cast = "",
                 .unsigned_cast = "" },
        .kind = RK_LONG, .listed = true },
    LONG_ROW(RR_INT, "int", RR_LONG, "int", "PyLong_FromLong", "(long)", ""),
    [RR_INIT] = {
        .cls = { .name = "init", .class_name = "init_return_converter",
                 .base = RROW(RR_LONG), .type = "int",
                 .conversion_fn = "PyLong_FromLong", .cast = "(long)",
                 .unsigned_cast = "" },
        .kind = RK_INIT, .listed = true },
    LONG_ROW(RR_UNSIGNED_LONG, "unsigned_long", RR_LONG, "unsigned long",
             "PyLong_FromUnsignedLong", "", "(unsigned long)"),
    LONG_ROW(RR_UNSIGNED_INT, "unsigned_int", RR_UNSIGNED_LONG,
             "unsigned int", "PyLong_FromUnsignedLong", "(unsigned long)",
             "(unsigned int)"),
    LONG_ROW(RR_PY_SSIZE_T, "Py_ssize_t", RR_LONG, "Py_ssize_t",
             "PyLong_FromSsize_t", "", ""),
    LONG_ROW(RR_SIZE_T, "size_t", RR_LONG, "size_t", "PyLong_FromSize_t", "",
             "(size_t)"),
    [RR_DOUBLE] = {
        .cls = { .name = "double", .class_name = "double_return_converter",
                 .base = RROW(RR_OBJECT), .type = "double", .cast = "" },
        .kind = RK_DOUBLE, .listed = true },
    [RR_FLOAT] = {
        .cls = { .name = "float", .class_name = "float_return_converter",
                 .base = RROW(RR_DOUBLE), .type = "float", .cast = "(double)" },
        .kind = RK_DOUBLE, .listed = true },
};
const size_t return_nrows = RR_COUNT;

/* The PYT_ bits of a default_type a dialect names ("int, NoneType";
   "object": any; "()": none). */
static unsigned type_bits_of(const char *names)
{
    unsigned bits = 0;
    if (strcmp(names, "()") == 0)
        return PYT_NO_DEFAULT;
    for (const char *p = names; *p;) {
        size_t n = strcspn(p, ",");
        for (size_t i = 0; i < conv_type_order_len; i++) {
            unsigned b = conv_default_type_order[i];
            const char *tn = b == PYT_NULL ? "NullType" : py_type_name(b);
            if (tn && strlen(tn) == n && !strncmp(p, tn, n))
                bits |= b;
        }
        p += n;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return bits;
}

/* The entry of dialect d (or its nearest base) for a built-in class. */
static const DialectClassDefaults *class_entry(const Dialect *d,
                                               const char *class_name)
{
    for (; d; d = d->base)
        for (const DialectClassDefaults *t = d->class_defaults;
             t && t->converter; t++)
            if (strcmp(t->converter, class_name) == 0)
                return t;
    return NULL;
}

static void compute_class_defaults(const Dialect *d, const ConverterClass *cls,
                              const char **c_ignored_default,
                              const char **c_init_default,
                              unsigned *default_type)
{
    *c_ignored_default = cls->c_ignored_default;
    *c_init_default = cls->c_init_default;
    *default_type = cls->default_type;
    if (cls->pyclass || !cls->class_name)
        return;   /* a python block's: its own, as its lookup found them */
    const DialectClassDefaults *t = class_entry(d, cls->class_name);
    if (t && t->c_ignored_default)
        *c_ignored_default = t->c_ignored_default;
    if (t && t->default_type)
        *default_type = type_bits_of(t->default_type);
    if (t && t->c_init_default)
        *c_init_default = t->c_init_default;
    if (cls->base && (!(t && t->c_init_default) || !*default_type)) {
        /* c_init_default and default_type no row sets: its base's, as
           Python finds them (default_type is object from 3.14 on).  The
           table's base: where a dialect puts a class under another
           (class_bases), the classes under it set their default_type,
           and its c_init_default is CConverter's. */
        const char *ignored, *init;
        unsigned types;
        converter_class_defaults(d, cls->base, &ignored, &init, &types);
        if (!(t && t->c_init_default))
            *c_init_default = init;
        if (!*default_type)
            *default_type = types;
    }
}

/* The defaults of the table's rows in the dialect last asked about, per
   thread: asked for every converter made, from data that never changes. */
static _Thread_local struct {
    const Dialect *dialect;
    bool made[R_COUNT];
    const char *c_ignored_default[R_COUNT], *c_init_default[R_COUNT];
    unsigned default_type[R_COUNT];
} row_defaults;

static ptrdiff_t row_index(const void *table, size_t n, size_t row_size,
                           size_t member_at, const void *p);

void converter_class_defaults(const Dialect *d, const ConverterClass *cls,
                              const char **c_ignored_default,
                              const char **c_init_default,
                              unsigned *default_type)
{
    ptrdiff_t i = row_index(converter_rows, converter_nrows,
                            sizeof *converter_rows,
                            offsetof(ConverterRow, cls), cls);
    if (i < 0) {
        compute_class_defaults(d, cls, c_ignored_default, c_init_default,
                               default_type);
        return;
    }
    if (row_defaults.dialect != d) {
        memset(row_defaults.made, 0, sizeof row_defaults.made);
        row_defaults.dialect = d;
    }
    if (!row_defaults.made[i]) {
        compute_class_defaults(d, cls, &row_defaults.c_ignored_default[i],
                               &row_defaults.c_init_default[i],
                               &row_defaults.default_type[i]);
        row_defaults.made[i] = true;
    }
    *c_ignored_default = row_defaults.c_ignored_default[i];
    *c_init_default = row_defaults.c_init_default[i];
    *default_type = row_defaults.default_type[i];
}

const ConverterClass *converter_base_in(const Dialect *d,
                                        const ConverterClass *cls)
{
    const char *name = cls->class_name && !cls->pyclass
                           ? dialect_class_base(d, cls->class_name) : NULL;
    if (name)
        for (size_t i = 0; i < converter_nrows; i++)
            if (strcmp(converter_rows[i].cls.class_name, name) == 0)
                return &converter_rows[i].cls;
    return cls->base;
}

/* The index of the row whose member at offset member_at is at address p
   in a table of n rows of size row_size, or -1: asked for every converter
   at every step of rendering, so answered by address arithmetic rather
   than by a search (done on integers: the class may live elsewhere). */
static ptrdiff_t row_index(const void *table, size_t n, size_t row_size,
                           size_t member_at, const void *p)
{
    uintptr_t at = (uintptr_t)p, first = (uintptr_t)table + member_at;
    if (at < first || at >= first + n * row_size ||
        (at - first) % row_size != 0)
        return -1;
    return (ptrdiff_t)((at - first) / row_size);
}

const ConverterRow *converter_row_of(const ConverterClass *cls)
{
    for (const ConverterClass *p = cls; p; p = p->base) {
        ptrdiff_t i = row_index(converter_rows, converter_nrows,
                                sizeof *converter_rows,
                                offsetof(ConverterRow, cls), p);
        if (i >= 0)
            return &converter_rows[i];
    }
    return &converter_rows[R_CCONVERTER];
}

const ReturnRow *return_row_of(const ReturnConverterClass *cls)
{
    for (const ReturnConverterClass *p = cls; p; p = p->base) {
        ptrdiff_t i = row_index(return_rows, return_nrows,
                                sizeof *return_rows,
                                offsetof(ReturnRow, cls), p);
        if (i >= 0)
            return &return_rows[i];
    }
    return &return_rows[RR_OBJECT];
}

/* ---- the registry: clinic.py's converters, legacy_converters and
        return_converters dicts, per file ------------------------------- */

typedef struct NamedEntry {
    const char *name;
    const void *cls;
} NamedEntry;

/* A dict of names, in insertion order, with an index by hash: every
   parameter's converter is looked up by name, among some hundred.  The
   index (open addressing; slot = entry + 1, 0 empty) is built when a
   lookup finds none: the built-in registry's is built once, before it is
   shared, and a file's copy uses it until the file adds a name. */
typedef struct NamedTable {
    NamedEntry *items;
    size_t len, cap;
    unsigned *index;
    size_t mask;          /* index has mask + 1 slots */
    bool index_own;       /* index is this table's (else the prototype's) */
} NamedTable;

struct ConverterRegistry {
    Arena *arena;
    ConverterPython *py;            /* python blocks' interpreter state */
    NamedTable converters;          /* name -> ConverterClass */
    NamedTable return_converters;   /* name -> ReturnConverterClass */
    NamedTable classes;             /* class_name -> ConverterClass */
    NamedTable return_classes;      /* class_name -> ReturnConverterClass */
    LegacyEntry *legacy;            /* format unit -> class + partial */
    size_t nlegacy, caplegacy;
    /* the classes Python blocks declared, in order */
    const ConverterClass **declared;
    size_t ndeclared, capdeclared;
    const ReturnConverterClass **return_declared;
    size_t nreturn_declared, capreturn_declared;
};

static unsigned name_hash(const char *name)
{
    unsigned h = 2166136261u;            /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

static void named_index_add(NamedTable *t, size_t i)
{
    size_t k = name_hash(t->items[i].name) & t->mask;
    while (t->index[k])
        k = (k + 1) & t->mask;
    t->index[k] = (unsigned)i + 1;
}

static void named_index_build(Arena *a, NamedTable *t)
{
    size_t slots = 64;
    while (slots < 2 * t->cap)
        slots *= 2;
    t->index = arena_array_of(a, unsigned, slots);
    t->mask = slots - 1;
    t->index_own = true;
    for (size_t i = 0; i < t->len; i++)
        named_index_add(t, i);
}

/* The entry of name, or NULL. */
static NamedEntry *named_find(const NamedTable *t, const char *name)
{
    if (!t->index) {
        for (size_t i = 0; i < t->len; i++)
            if (strcmp(t->items[i].name, name) == 0)
                return &t->items[i];
        return NULL;
    }
    for (size_t k = name_hash(name) & t->mask; t->index[k];
         k = (k + 1) & t->mask) {
        NamedEntry *e = &t->items[t->index[k] - 1];
        if (strcmp(e->name, name) == 0)
            return e;
    }
    return NULL;
}

static const void *named_get(Arena *a, NamedTable *t, const char *name)
{
    if (!t->index)
        named_index_build(a, t);
    NamedEntry *e = named_find(t, name);
    return e ? e->cls : NULL;
}

/* dict[name] = cls: replaces an existing key in place, as a dict does. */
static void named_set(Arena *a, NamedTable *t, const char *name,
                      const void *cls)
{
    NamedEntry *e = named_find(t, name);
    if (e) {
        e->cls = cls;
        return;
    }
    if (t->len == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        NamedEntry *items = arena_array_of(a, NamedEntry, cap);
        if (t->len)
            memcpy(items, t->items, t->len * sizeof *items);
        t->items = items;
        t->cap = cap;
    }
    t->items[t->len].name = name;
    t->items[t->len].cls = cls;
    t->len++;
    /* an index of its own with room takes the name; any other is
       rebuilt at the next lookup */
    if (t->index && t->index_own && 2 * t->len <= t->mask + 1)
        named_index_add(t, t->len - 1);
    else
        t->index = NULL;
}

static const LegacyEntry *registry_legacy(const ConverterRegistry *r,
                                          const char *unit)
{
    for (size_t i = 0; i < r->nlegacy; i++)
        if (strcmp(r->legacy[i].format_unit, unit) == 0)
            return &r->legacy[i];
    return NULL;
}

static void registry_add_legacy(ConverterRegistry *r, const LegacyEntry *e)
{
    for (size_t i = 0; i < r->nlegacy; i++) {
        if (strcmp(r->legacy[i].format_unit, e->format_unit) == 0) {
            r->legacy[i] = *e;
            return;
        }
    }
    if (r->nlegacy == r->caplegacy) {
        size_t cap = r->caplegacy ? r->caplegacy * 2 : 64;
        LegacyEntry *items = arena_array_of(r->arena, LegacyEntry, cap);
        if (r->nlegacy)
            memcpy(items, r->legacy, r->nlegacy * sizeof *items);
        r->legacy = items;
        r->caplegacy = cap;
    }
    r->legacy[r->nlegacy++] = *e;
}

/* The built-in registry of dialect d, as its clinic's import leaves it,
   built in a. */
int converter_init_params(const ConverterRow *row, const Dialect *d,
                          InitParam out[MAX_INIT_PARAMS])
{
    int n = row->nparams;
    memcpy(out, row->params, (size_t)n * sizeof *out);
    /* the oldest dialect's additions first */
    const Dialect *chain[8];
    size_t depth = 0;
    for (; d && depth < sizeof chain / sizeof *chain; d = d->base)
        chain[depth++] = d;
    while (depth--)
        for (const DialectInitKeyword *k = chain[depth]->init_keywords_added;
             k && k->converter; k++)
            if (strcmp(k->converter, row->init_owner) == 0 &&
                n < MAX_INIT_PARAMS)
                out[n++] = (InitParam){
                    k->name, {.kind = PY_BOOL, .b = k->default_value}};
    return n;
}

bool converter_row_in_dialect(const ConverterRow *row, const Dialect *d)
{
    return !row->added || dialect_adds_converter(d, row->cls.class_name);
}

static ConverterRegistry *registry_build(Arena *a, const Dialect *d)
{
    ConverterRegistry *r = arena_new_of(a, ConverterRegistry);
    r->arena = a;
    for (size_t i = 0; i < converter_nrows; i++) {
        const ConverterClass *cls = &converter_rows[i].cls;
        if (!converter_row_in_dialect(&converter_rows[i], d))
            continue;
        if (converter_rows[i].listed)
            named_set(a, &r->converters, cls->name, cls);
        named_set(a, &r->classes, cls->class_name, cls);
    }
    for (size_t i = 0; i < return_nrows; i++) {
        const ReturnConverterClass *cls = &return_rows[i].cls;
        if (!dialect_lacks_return_converter(d, cls->name))
            named_set(a, &r->return_converters, cls->name, cls);
        named_set(a, &r->return_classes, cls->class_name, cls);
    }
    for (const DialectAlias *al = d->return_converter_aliases;
         al && al->name; al++)
        named_set(a, &r->return_converters, al->name,
                  named_get(a, &r->return_classes, al->class_name));
    for (size_t i = 0; i < legacy_nentries; i++)
        registry_add_legacy(r, &legacy_entries[i]);
    named_index_build(a, &r->converters);
    named_index_build(a, &r->return_converters);
    named_index_build(a, &r->classes);
    named_index_build(a, &r->return_classes);
    return r;
}

/* t's entries, in arrays of a's (a file changes its registry: python
   blocks declare classes, a converter may be replaced). */
static void named_clone(Arena *a, NamedTable *t)
{
    NamedEntry *items = arena_array_of(a, NamedEntry, t->cap);
    memcpy(items, t->items, t->len * sizeof *items);
    t->items = items;
    t->index_own = false;   /* the prototype's, shared */
}

/* A dialect's built-in registry is the same for every file: built once
   per process, in an arena of its own that lives as long, and copied for
   each file.  Two threads building it at once keep the first one.  (A
   dialect not in dialects[] gets its own each time.) */
#define MAX_CACHED_DIALECTS 8
static _Atomic(ConverterRegistry *) builtin_registry[MAX_CACHED_DIALECTS];
static _Atomic(Arena *) builtin_arena[MAX_CACHED_DIALECTS];   /* keep them
                                            reachable, for leak checkers */

static ConverterRegistry *builtin_registry_of(Arena *a, const Dialect *d)
{
    size_t k = 0;
    while (k < MAX_CACHED_DIALECTS && dialects[k] && dialects[k] != d)
        k++;
    if (k == MAX_CACHED_DIALECTS || !dialects[k])
        return registry_build(a, d);
    ConverterRegistry *proto =
        atomic_load_explicit(&builtin_registry[k], memory_order_acquire);
    if (!proto) {
        Arena *own = arena_new();
        ConverterRegistry *built = registry_build(own, d);
        if (atomic_compare_exchange_strong(&builtin_registry[k], &proto,
                                           built)) {
            proto = built;
            atomic_store(&builtin_arena[k], own);
        } else {
            arena_free(own);   /* proto: the other thread's */
        }
    }
    return proto;
}

ConverterRegistry *converters_new(Arena *a, const Dialect *d)
{
    ConverterRegistry *proto = builtin_registry_of(a, d);
    if (proto->arena == a)
        return proto;   /* built for this file alone */
    ConverterRegistry *r = arena_new_of(a, ConverterRegistry);
    *r = *proto;
    r->arena = a;
    named_clone(a, &r->converters);
    named_clone(a, &r->return_converters);
    named_clone(a, &r->classes);
    named_clone(a, &r->return_classes);
    r->legacy = arena_array_of(a, LegacyEntry, r->caplegacy);
    memcpy(r->legacy, proto->legacy, r->nlegacy * sizeof *r->legacy);
    return r;
}

const ConverterClass *converter_class_find(const Clinic *c, const char *name)
{
    ConverterRegistry *r = c->converters;
    return named_get(r->arena, &r->converters, name);
}

/* The names of the converters (and return converters) known now,
   built-in and declared, for did-you-mean notes; in c's arena. */
static size_t converter_class_names(const Clinic *c, bool returns,
                             const char ***names)
{
    const NamedTable *t = returns ? &c->converters->return_converters
                                  : &c->converters->converters;
    const char **out = arena_array_of(c->arena, const char *, t->len + 1);
    for (size_t i = 0; i < t->len; i++)
        out[i] = t->items[i].name;
    *names = out;
    return t->len;
}

const char *converter_suggestion(Clinic *c, bool returns, const char *name)
{
    const char **names;
    size_t n = converter_class_names(c, returns, &names);
    const char *best = text_closest(name, names, n);
    return best ? arena_printf(c->arena, "did you mean '%s'?", best) : NULL;
}

const ConverterClass *legacy_converter_find(const Clinic *c,
                                            const char *format_unit)
{
    const LegacyEntry *e = registry_legacy(c->converters, format_unit);
    return e ? e->cls : NULL;
}

const LegacyEntry *legacy_entry_find(const Clinic *c, const char *unit)
{
    return registry_legacy(c->converters, unit);
}

const ReturnConverterClass *return_converter_class_find(const Clinic *c,
                                                        const char *name)
{
    ConverterRegistry *r = c->converters;
    return named_get(r->arena, &r->return_converters, name);
}

const ConverterClass *converter_class_by_class_name(const Clinic *c,
                                                    const char *class_name)
{
    ConverterRegistry *r = c->converters;
    return named_get(r->arena, &r->classes, class_name);
}

const ReturnConverterClass *
return_converter_class_by_class_name(const Clinic *c, const char *class_name)
{
    ConverterRegistry *r = c->converters;
    return named_get(r->arena, &r->return_classes, class_name);
}

/* The part of a class name before suffix, or NULL if it does not end so
   (add_c_converter only registers "*_converter" classes). */
static const char *strip_suffix(Arena *a, const char *name, const char *suffix)
{
    if (!name || !text_endswith(name, suffix))
        return NULL;
    return arena_strndup(a, name, strlen(name) - strlen(suffix));
}

/* Class attributes a Python block did not set come from the base class,
   as Python's attribute lookup would find them. */
static void inherit_attributes(ConverterClass *cls)
{
    const ConverterClass *b = cls->base ? cls->base : ROW(R_CCONVERTER);
    unsigned set = cls->attrs_set;
#define INHERIT(bit, field) if (!(set & (bit))) cls->field = b->field
    INHERIT(CATTR_TYPE, type);
    INHERIT(CATTR_C_DEFAULT, c_default);
    INHERIT(CATTR_PY_DEFAULT, py_default);
    INHERIT(CATTR_C_IGNORED_DEFAULT, c_ignored_default);
    INHERIT(CATTR_C_INIT_DEFAULT, c_init_default);
    INHERIT(CATTR_CONVERTER, converter);
    INHERIT(CATTR_FORMAT_UNIT, format_unit);
    INHERIT(CATTR_ENCODING, encoding);
    INHERIT(CATTR_SUBCLASS_OF, subclass_of);
    INHERIT(CATTR_SIGNATURE_NAME, signature_name);
    INHERIT(CATTR_DEFAULT_TYPE, default_type);
    INHERIT(CATTR_IMPL_BY_REFERENCE, impl_by_reference);
    INHERIT(CATTR_PARSE_BY_REFERENCE, parse_by_reference);
    INHERIT(CATTR_LENGTH, length);
    INHERIT(CATTR_SHOW_IN_SIGNATURE, show_in_signature);
    INHERIT(CATTR_BROKEN_LIMITED_CAPI, broken_limited_capi);
    INHERIT(CATTR_DEFAULT, default_value);
#undef INHERIT
    cls->is_self = cls->is_self || b->is_self;
    cls->is_defining_class = cls->is_defining_class || b->is_defining_class;
}

/* Makes room for one more item in an arena-backed array. */
static void *grow(Arena *a, void *items, size_t len, size_t *cap,
                  size_t size)
{
    if (len < *cap)
        return items;
    size_t ncap = *cap ? *cap * 2 : 8;
    void *n = arena_alloc(a, ncap * size);
    if (len)
        memcpy(n, items, len * size);
    *cap = ncap;
    return n;
}

void converter_register_class(Clinic *c, ConverterClass *cls)
{
    ConverterRegistry *r = c->converters;
    r->declared = grow(r->arena, r->declared, r->ndeclared, &r->capdeclared,
                       sizeof *r->declared);
    r->declared[r->ndeclared++] = cls;
    if (!cls->base)
        cls->base = ROW(R_CCONVERTER);
    inherit_attributes(cls);

    /* CConverterAutoRegister: add_c_converter ... */
    const char *key = strip_suffix(r->arena, cls->class_name, "_converter");
    if (!cls->class_name)
        key = cls->name;
    if (!cls->name)
        cls->name = key ? key : cls->class_name;
    if (key)
        named_set(r->arena, &r->converters, key, cls);
    if (cls->class_name)
        named_set(r->arena, &r->classes, cls->class_name, cls);

    /* ... and add_default_legacy_c_converter. */
    const char *unit = cls->format_unit;
    if (unit && strcmp(unit, "O&") != 0 && unit[0] &&
        !registry_legacy(r, unit)) {
        LegacyEntry e = { unit, cls, NULL, 0 };
        registry_add_legacy(r, &e);
    }
}

void return_converter_register_class(Clinic *c, ReturnConverterClass *cls)
{
    ConverterRegistry *r = c->converters;
    r->return_declared = grow(r->arena, r->return_declared,
                              r->nreturn_declared, &r->capreturn_declared,
                              sizeof *r->return_declared);
    r->return_declared[r->nreturn_declared++] = cls;
    if (!cls->base)
        cls->base = RROW(RR_OBJECT);
    const ReturnConverterClass *b = cls->base;
    unsigned set = cls->attrs_set;
    if (!(set & RATTR_TYPE))
        cls->type = b->type;
    if (!(set & RATTR_CAST))
        cls->cast = b->cast;
    if (!(set & RATTR_CONVERSION_FN))
        cls->conversion_fn = b->conversion_fn;
    if (!(set & RATTR_UNSIGNED_CAST))
        cls->unsigned_cast = b->unsigned_cast;

    const char *key =
        strip_suffix(r->arena, cls->class_name, "_return_converter");
    if (!cls->class_name)
        key = cls->name;
    if (!cls->name)
        cls->name = key ? key : cls->class_name;
    if (key)
        named_set(r->arena, &r->return_converters, key, cls);
    if (cls->class_name)
        named_set(r->arena, &r->return_classes, cls->class_name, cls);
}

size_t converters_declared(const Clinic *c,
                           const ConverterClass *const **classes)
{
    *classes = c->converters->declared;
    return c->converters->ndeclared;
}

size_t return_converters_declared(const Clinic *c,
                                  const ReturnConverterClass *const **classes)
{
    *classes = c->converters->return_declared;
    return c->converters->nreturn_declared;
}

/* ---- names Python blocks give classes ------------------------------- */

void converter_register_name(Clinic *c, const char *name,
                             const ConverterClass *cls)
{
    ConverterRegistry *r = c->converters;
    named_set(r->arena, &r->converters, name, cls);
}

void return_converter_register_name(Clinic *c, const char *name,
                                    const ReturnConverterClass *cls)
{
    ConverterRegistry *r = c->converters;
    named_set(r->arena, &r->return_converters, name, cls);
}

void converter_register_legacy(Clinic *c, const char *format_unit,
                               const ConverterClass *cls,
                               const ConverterArg *kwargs, size_t nkwargs)
{
    LegacyEntry e = { format_unit, cls, kwargs, nkwargs };
    registry_add_legacy(c->converters, &e);
}

bool converter_has_legacy(const Clinic *c, const char *format_unit)
{
    return registry_legacy(c->converters, format_unit) != NULL;
}

ConverterPython **converters_python_slot(const Clinic *c)
{
    return &c->converters->py;
}

/* ---- `clinic --converters` ------------------------------------------- */

static int lower_cmp(const char *x, const char *y)
{
    for (;; x++, y++) {
        int cx = tolower((unsigned char)*x), cy = tolower((unsigned char)*y);
        if (cx != cy || !cx)
            return cx - cy;
    }
}

/* --converters lists the rows by name, whatever the case */
static int cmp_row_names(const void *x, const void *y)
{
    return lower_cmp((*(const ConverterRow *const *)x)->cls.name,
                     (*(const ConverterRow *const *)y)->cls.name);
}

static int cmp_names(const void *x, const void *y)
{
    return lower_cmp(*(const char *const *)x, *(const char *const *)y);
}

static int cmp_units(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static void print_legacy_line(StrBuf *out, const char **units, size_t n,
                              bool upper)
{
    sb_adds(out, "    ");
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (!!isupper((unsigned char)units[i][0]) != upper)
            continue;
        if (!first)
            sb_addc(out, ' ');
        sb_adds(out, units[i]);
        first = false;
    }
    sb_addc(out, '\n');
}

void converters_print(StrBuf *out, const Dialect *d)
{
    Arena *a = arena_new();

    const char *units[64];
    size_t nunits = 0;
    for (size_t i = 0; i < legacy_nentries && nunits < 64; i++)
        units[nunits++] = legacy_entries[i].format_unit;
    qsort(units, nunits, sizeof units[0], cmp_units);
    sb_adds(out, "\nLegacy converters:\n");
    print_legacy_line(out, units, nunits, true);
    print_legacy_line(out, units, nunits, false);
    sb_addc(out, '\n');

    /* the table's rows the dialect has (3.14 and 3.15 add some) */
    const ConverterRow *rows[64];
    size_t nrows = 0;
    for (size_t i = 0; i < converter_nrows && nrows < 64; i++)
        if (converter_rows[i].listed &&
            converter_row_in_dialect(&converter_rows[i], d))
            rows[nrows++] = &converter_rows[i];
    qsort(rows, nrows, sizeof rows[0], cmp_row_names);
    sb_adds(out, "Converters:\n");
    for (size_t i = 0; i < nrows; i++) {
        sb_addf(out, "    %s(", rows[i]->cls.name);
        InitParam params[MAX_INIT_PARAMS];
        int nparams = converter_init_params(rows[i], d, params);
        for (int j = 0; j < nparams; j++) {
            const InitParam *p = &params[j];
            sb_addf(out, "%s%s=%s", j ? ", " : "", p->name,
                    conv_repr(a, d, &p->default_value));
        }
        sb_adds(out, ")\n");
    }
    sb_addc(out, '\n');

    const char *rnames[64];
    size_t nrrows = 0;
    for (size_t i = 0; i < return_nrows; i++)
        if (return_rows[i].listed &&
            !dialect_lacks_return_converter(d, return_rows[i].cls.name))
            rnames[nrrows++] = return_rows[i].cls.name;
    for (const DialectAlias *al = d->return_converter_aliases;
         al && al->name; al++)
        rnames[nrrows++] = al->name;
    qsort(rnames, nrrows, sizeof rnames[0], cmp_names);
    sb_adds(out, "Return converters:\n");
    for (size_t i = 0; i < nrrows; i++)
        sb_addf(out, "    %s()\n", rnames[i]);
    sb_addc(out, '\n');

    sb_adds(out, "All converters also accept (c_default=None, "
                 "py_default=None, annotation=None).\n");
    sb_adds(out, "All return converters also accept (py_default=None).\n");
    arena_free(a);
}
