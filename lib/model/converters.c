/*
 * converters.c — creating converter instances: clinic.py's
 * CConverter.__init__ followed by each class's converter_init, legacy
 * format units (functools.partial keywords), return converters.
 *
 * The checks and their messages follow clinic.py line for line; where
 * Python would raise a TypeError (an unexpected keyword argument), the
 * error reads as the reference's "Exception raised during parsing" ends.
 */
#include <string.h>

#include "model/converters_int.h"
#include "model/converters_py_int.h"
#include "model/message.h"

/* ---- small helpers ---------------------------------------------------- */

static bool is_set_of(const PyValue *v, unsigned types)
{
    return v->kind == PY_SET && v->types == types;
}

static const char uncomputed_note[] =
    "clinic's Python stands in for the objects of clinic.py it does not "
    "model (clinic, its converters dicts, state_parameter's locals)";

/* The type name of v for a message: an interpreter object's own. */
static const char *type_name_of(Clinic *c, const PyValue *v)
{
    return v->kind == PY_OBJECT ? pyvm_type_name(cpy_of(c)->vm, *v)
                                : py_value_type_name(v);
}

void converter_check_computed(Clinic *c, const char *what, const PyValue *v)
{
    /* whatever tests, measures or writes out the stand-in gets it wrong:
       its truth, its length, its text */
    if (py_is_uncomputed(v))
        clinic_fail_note(c, 0, uncomputed_note, "cannot use the %s given "
                         "for %s: clinic did not compute it",
                         py_value_type_name(v), what);
}

/* A keyword argument written into the C code as given (c_default=,
   type=, subclass_of=, ...).  clinic.py keeps any object there and then
   fails to join or test it as a str (a TypeError, or an AttributeError
   for type=): only a str can be written out, and only one clinic
   computed, never the stand-in for a value its evaluator did not
   compute (a call's result). */
static const char *arg_text(Clinic *c, const char *what, const PyValue *v)
{
    if (v->kind == PY_STR)
        return arena_strndup(c->arena, v->s, v->len);
    /* a stand-in whose type is a str's or unknown */
    const char *type = type_name_of(c, v);
    if (py_is_uncomputed(v) && (!strcmp(type, "str") ||
                                !strcmp(type, "object")))
        clinic_fail_note(c, 0, uncomputed_note, "cannot write out the %s "
                         "given for %s: clinic did not compute it",
                         type[0] == 's' ? "str" : "value", what);
    clinic_fail(c, 0, "%s must be a str, not %s", what, type);
}

/* isinstance(value, default_type) for a default_type bit set. */
static bool value_has_type(const PyValue *v, unsigned types)
{
    if (types & PYT_OBJECT)
        return true;
    switch (v->kind) {
    case PY_UNKNOWN:   /* isinstance(x, Unknown) is accepted */
        return v->type_name == NULL;
    case PY_NULL: return types & PYT_NULL;
    case PY_NONE: return types & PYT_NONETYPE;
    case PY_BOOL: return types & (PYT_BOOL | PYT_INT);
    case PY_INT: return types & PYT_INT;
    case PY_FLOAT: return types & PYT_FLOAT;
    case PY_COMPLEX: return types & PYT_COMPLEX;
    case PY_STR: return types & PYT_STR;
    case PY_BYTES: return types & PYT_BYTES;
    default: return false;
    }
}

/* default_type.__name__, or the names of the tuple joined by ", ", in
   the order the reference's tuples have them. */
static const char *type_names(Clinic *c, unsigned types)
{
    const char *null_name = DIALECT_INHERITED(c->dialect, null_type_name);
    StrBuf sb = STRBUF_INIT;
    for (size_t i = 0; i < conv_type_order_len; i++) {
        unsigned bit = conv_default_type_order[i];
        if (!(types & bit))
            continue;
        if (sb.len)
            sb_adds(&sb, ", ");
        sb_adds(&sb, bit == PYT_NULL ? (null_name ? null_name : "Null")
                                     : py_type_name(bit));
    }
    return sb_take(&sb, c->arena);
}

/* How the reference reports a TypeError escaping the DSL parser. */
CLINIC_NORETURN static void fail_type_error(Clinic *c, const char *message)
{
    clinic_fail(c, 0, "Exception raised during parsing:\nTypeError: %s",
                message);
}

/* ---- converter_init: keyword arguments -------------------------------- */

/* The converter_init arguments after binding: one value per declared
   parameter, defaults filled in. */
typedef struct InitArgs {
    InitParam params[MAX_INIT_PARAMS];   /* as the dialect has them */
    int nparams;
    PyValue values[MAX_INIT_PARAMS];
} InitArgs;

static void bind_init_args(Clinic *c, const ConverterRow *row,
                           const ConverterArg *args, size_t nargs,
                           InitArgs *out)
{
    out->nparams = converter_init_params(row, c->dialect, out->params);
    const InitParam *params = out->params;
    int nparams = out->nparams;
    for (int i = 0; i < nparams; i++)
        out->values[i] = params[i].default_value;
    for (size_t k = 0; k < nargs; k++) {
        int i;
        for (i = 0; i < nparams; i++)
            if (strcmp(args[k].name, params[i].name) == 0)
                break;
        if (i == nparams) {
            /* what the converter takes: its own keywords, then what
               every converter takes */
            const char **names = arena_array_of(c->arena, const char *,
                                                (size_t)nparams + 3);
            size_t n = 0;
            for (int p = 0; p < nparams; p++)
                names[n++] = params[p].name;
            names[n++] = "c_default";
            names[n++] = "py_default";
            names[n++] = "annotation";
            const char *best = text_closest(args[k].name, names, n);
            clinic_fail_note(c, 0,
                             best ? arena_printf(c->arena, "did you mean "
                                                 "'%s'?", best) : NULL,
                             "Exception raised during parsing:\nTypeError: "
                             "%s.converter_init() got an unexpected keyword "
                             "argument '%s'", row->init_owner, args[k].name);
        }
        converter_check_computed(c, args[k].name, &args[k].value);
        out->values[i] = args[k].value;
    }
}

static const PyValue *init_arg(InitArgs *a, const char *name)
{
    for (int i = 0; i < a->nparams; i++)
        if (strcmp(a->params[i].name, name) == 0)
            return &a->values[i];
    return &py_none;
}

/* str_converter_argument_map: (frozenset(accept), bool(encoding),
   bool(zeroes)) -> format unit. */
static const struct {
    unsigned accept;
    bool encoding, zeroes;
    const char *format_unit;
} str_argument_map[] = {
    { PYT_STR, true, false, "es" },
    { PYT_STR, true, true, "es#" },
    { PYT_BYTES | PYT_BYTEARRAY | PYT_STR, true, false, "et" },
    { PYT_BYTES | PYT_BYTEARRAY | PYT_STR, true, true, "et#" },
    { PYT_STR, false, false, "s" },
    { PYT_ROBUFFER | PYT_STR, false, true, "s#" },
    { PYT_ROBUFFER, false, false, "y" },
    { PYT_ROBUFFER, false, true, "y#" },
    { PYT_STR | PYT_NONETYPE, false, false, "z" },
    { PYT_ROBUFFER | PYT_STR | PYT_NONETYPE, false, true, "z#" },
};

/* frozenset(accept), as str_converter_key() makes it, into *key (a
   PY_SET of classes) or, when it holds something else, its repr in
   *other.  A set, tuple, list or dict literal gives its members (a
   dict its keys), a str its characters; what Python cannot iterate is
   the TypeError frozenset() raises. */
static void frozen_accept(Clinic *c, const PyValue *accept, PyValue *key,
                          const char **other)
{
    *other = NULL;
    memset(key, 0, sizeof *key);
    key->kind = PY_SET;
    if (accept->kind == PY_SET) {
        *key = *accept;
        return;
    }
    const PyValue *items = accept->items;
    size_t n = accept->nitems;
    bool iterable = accept->kind == PY_TUPLE ||
                    (accept->kind == PY_UNKNOWN && accept->type_name &&
                     (!strcmp(accept->type_name, "list") ||
                      !strcmp(accept->type_name, "set") ||
                      !strcmp(accept->type_name, "frozenset") ||
                      !strcmp(accept->type_name, "dict")));
    if (accept->kind == PY_STR || accept->kind == PY_BYTES) {
        /* no format unit takes characters: the set's repr suffices
           (Python orders a set of strs by their salted hashes) */
        StrBuf sb = STRBUF_INIT;
        sb_adds(&sb, accept->len ? "frozenset({" : "frozenset()");
        for (size_t i = 0; i < accept->len; i++) {
            bool seen = memchr(accept->s, accept->s[i], i) != NULL;
            if (seen)
                continue;
            if (sb.len > 11)
                sb_adds(&sb, ", ");
            if (accept->kind == PY_BYTES)
                sb_addf(&sb, "%u", (unsigned char)accept->s[i]);
            else
                sb_addf(&sb, "'%c'", accept->s[i]);
        }
        if (accept->len)
            sb_adds(&sb, "})");
        *other = sb_take(&sb, c->arena);
        return;
    }
    if (!iterable)
        fail_type_error(c, arena_printf(c->arena, "'%s' object is not "
                                        "iterable",
                                        py_value_type_name(accept)));
    bool all_classes = true;
    for (size_t i = 0; i < n; i++)
        all_classes &= items[i].kind == PY_TYPE;
    if (all_classes) {
        key->items = (PyValue *)items;
        key->nitems = n;
        for (size_t i = 0; i < n; i++)
            key->types |= items[i].types;
        return;
    }
    /* literals (ints, strs): never a valid key; shown in their order */
    StrBuf sb = STRBUF_INIT;
    sb_adds(&sb, "frozenset({");
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_adds(&sb, ", ");
        sb_adds(&sb, py_repr(c->arena, &items[i]));
    }
    sb_adds(&sb, "})");
    *other = sb_take(&sb, c->arena);
}

static void str_converter_init(Clinic *c, Converter *conv,
                               const PyValue *accept, const PyValue *encoding,
                               const PyValue *zeroes)
{
    bool has_encoding = py_truthy(encoding), has_zeroes = py_truthy(zeroes);
    PyValue key;
    const char *other;
    frozen_accept(c, accept, &key, &other);
    const char *unit = NULL;
    if (!other)
        for (size_t i = 0; i < sizeof str_argument_map /
                                   sizeof str_argument_map[0]; i++)
            if (str_argument_map[i].accept == key.types &&
                str_argument_map[i].encoding == has_encoding &&
                str_argument_map[i].zeroes == has_zeroes)
                unit = str_argument_map[i].format_unit;
    if (!unit) {
        /* the repr of the key tuple: frozenset's members in the order
           Python's set table holds them (pyexpr_value.c) */
        const char *set = other ? other
                                : conv_in_dialect(c->arena, c->dialect,
                                      py_frozenset_repr(c->arena, &key));
        clinic_fail(c, 0,
                    "str_converter: illegal combination of arguments "
                    "(%s, %s, %s)", set, has_encoding ? "True" : "False",
                    has_zeroes ? "True" : "False");
    }

    conv->format_unit = unit;
    conv->length = has_zeroes;
    if (has_encoding) {
        PyKind k = conv->default_value.kind;
        /* clinic.py tests `default not in (Null, None, unspecified)`:
           the Null *class*, so a NULL default is refused too. */
        if (k != PY_NONE && k != PY_UNSPECIFIED)
            clinic_fail(c, 0, "str_converter: Argument Clinic doesn't "
                              "support default values for encoded strings");
        conv->encoding = arg_text(c, "encoding", encoding);
        conv->type = "char *";
        /* sorry, clinic can't support preallocated buffers for es# and et# */
        conv->c_default = "NULL";
    }
    if ((key.types & PYT_NONETYPE) && conv->c_default &&
        strcmp(conv->c_default, "Py_None") == 0)
        conv->c_default = "NULL";
}

static void fail_illegal_accept(Clinic *c, const char *class_name,
                                const PyValue *accept)
{
    clinic_fail(c, 0, "%s: illegal 'accept' argument %s", class_name,
                conv_repr(c->arena, c->dialect, accept));
}

/* bytes repr without its "b" prefix, as char_converter's c_default. */
static const char *char_c_default(Clinic *c, const PyValue *v)
{
    const char *r = py_repr(c->arena, v) + 1;
    if (strcmp(r, "\"'\"") == 0)
        return "'\\''";
    return r;
}

/* 3.14's char default: the bytes as a C character constant, with C's
   escapes and octal for the rest (c_bytes_repr), whatever their
   number. */
static const char *char_c_default_escaped(Clinic *c, const PyValue *v)
{
    if (v->len == 1 && v->s[0] == '\'')
        return "'\\''";
    if (v->len == 1 && v->s[0] == '"')
        return "'\"'";
    if (v->len == 1 && v->s[0] == '\0')
        return "'\\0'";
    return arena_concat_of(c->arena, "'",
                           text_c_bytes_chars(c->arena, v->s, v->len), "'");
}

/* 3.14's c_unichar_repr(): a one-character str default of
   int(accept={str}) as a C character constant, or in hex. */
static const char *unichar_c_default(Clinic *c, const PyValue *v)
{
    /* one code point, as ord() wants */
    size_t points = 0;
    for (size_t i = 0; i < v->len; i++)
        points += ((unsigned char)v->s[i] & 0xC0) != 0x80;
    if (points != 1)
        fail_type_error(c, arena_printf(c->arena, "ord() expected a "
                        "character, but string of length %zu found", points));
    const unsigned char *s = (const unsigned char *)v->s;
    unsigned long cp = s[0];
    if (cp >= 0x80) {
        int more = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : 1;
        cp &= 0x3Fu >> more;
        for (int k = 1; k <= more && (size_t)k < v->len; k++)
            cp = (cp << 6) | (s[k] & 0x3F);
    }
    if (cp == '\'')
        return "'\\''";
    if (cp == '"')
        return "'\"'";
    if (cp == 0)
        return "0";
    static const char escapes[] = "\a\b\f\n\r\t\v\"\\";
    static const char letters[] = "abfnrtv\"\\";
    const char *e = cp && cp < 0x80 ? strchr(escapes, (int)cp) : NULL;
    if (e)
        return arena_printf(c->arena, "'\\%c'", letters[e - escapes]);
    if (cp >= 32 && cp < 127)
        return arena_printf(c->arena, "'%c'", (int)cp);
    return arena_printf(c->arena, "0x%02lx", cp);
}

static void bitwise_init(Converter *conv, const PyValue *bitwise,
                         const char *unit, const char *converter)
{
    conv->bitwise = py_truthy(bitwise);
    if (conv->bitwise)
        conv->format_unit = unit;
    else
        conv->converter = converter;
}

/* The converter_init of a built-in class (or CConverter's). */
void builtin_converter_init(Clinic *c, const ConverterRow *row,
                            Converter *conv, const ConverterArg *args,
                            size_t nargs)
{
    InitArgs a;
    bind_init_args(c, row, args, nargs, &a);
#define ARG(name) init_arg(&a, name)

    switch (row->kind) {
    case CK_BOOL: {
        const PyValue *accept = ARG("accept");
        if (is_set_of(accept, PYT_INT)) {
            conv->format_unit = "i";
            /* 3.14 checks the default after converter_init: any int */
            if (c->dialect->fixes & FIX_DEFAULT_TYPE_AFTER_INIT)
                conv->default_type = PYT_INT;
        } else if (!is_set_of(accept, PYT_OBJECT)) {
            fail_illegal_accept(c, "bool_converter", accept);
        }
        bool keeps = c->dialect->fixes & FIX_BOOL_KEEPS_C_DEFAULT;
        /* 3.14: the default is its own (c_default_init writes it) */
        if (c->dialect->fixes & FIX_CONVERTER_C_DEFAULT)
            break;
        if (conv->default_value.kind != PY_UNSPECIFIED &&
            !(keeps && conv->default_value.kind == PY_UNKNOWN &&
              !conv->default_value.type_name)) {
            bool b = py_truthy(&conv->default_value);
            conv->default_value.kind = PY_BOOL;
            conv->default_value.b = b;
            if (!keeps || (conv->c_default &&
                           (!strcmp(conv->c_default, "Py_True") ||
                            !strcmp(conv->c_default, "Py_False"))))
                conv->c_default = b ? "1" : "0";
        }
        break;
    }
    case CK_DEFINING_CLASS:
    case CK_SELF: {
        const PyValue *type = ARG("type");
        conv->self_type = type->kind == PY_NONE ? NULL
                                                : arg_text(c, "type", type);
        break;
    }
    case CK_CHAR: {
        const PyValue *d = &conv->default_value;
        if (d->kind == PY_BYTES &&
            (c->dialect->fixes & FIX_DEFAULT_TYPE_AFTER_INIT)) {
            /* 3.14: any bytes (its length check is unreachable) */
            conv->c_default = char_c_default_escaped(c, d);
        } else if (d->kind == PY_BYTES) {
            if (d->len != 1)
                clinic_fail(c, 0, "char_converter: illegal default value %s",
                            py_repr(c->arena, d));
            conv->c_default = char_c_default(c, d);
        }
        break;
    }
    case CK_UNSIGNED_CHAR:
        conv->bitwise = py_truthy(ARG("bitwise"));
        if (conv->bitwise)
            conv->format_unit = "B";
        break;
    case CK_UNSIGNED_SHORT:
        bitwise_init(conv, ARG("bitwise"), "H",
                     "_PyLong_UnsignedShort_Converter");
        break;
    case CK_UNSIGNED_INT:
        bitwise_init(conv, ARG("bitwise"), "I",
                     "_PyLong_UnsignedInt_Converter");
        break;
    case CK_UNSIGNED_LONG:
        bitwise_init(conv, ARG("bitwise"), "k",
                     "_PyLong_UnsignedLong_Converter");
        break;
    case CK_UNSIGNED_LONG_LONG:
        bitwise_init(conv, ARG("bitwise"), "K",
                     "_PyLong_UnsignedLongLong_Converter");
        break;
    case CK_INT: {
        const PyValue *accept = ARG("accept"), *type = ARG("type");
        if (is_set_of(accept, PYT_STR)) {
            conv->format_unit = "C";
            if (c->dialect->fixes & FIX_DEFAULT_TYPE_AFTER_INIT) {
                conv->default_type = PYT_STR;
                if (conv->default_value.kind == PY_STR)
                    conv->c_default = unichar_c_default(c, &conv->default_value);
            }
        } else if (!is_set_of(accept, PYT_INT))
            fail_illegal_accept(c, "int_converter", accept);
        if (type->kind != PY_NONE)
            conv->type = arg_text(c, "type", type);
        break;
    }
    case CK_PY_SSIZE_T: {
        const PyValue *accept = ARG("accept");
        /* allow_negative (3.15; True where the dialect has none) */
        conv->non_negative = !py_truthy(ARG("allow_negative")) &&
                             ARG("allow_negative")->kind != PY_NONE;
        if (is_set_of(accept, PYT_INT)) {
            conv->format_unit = "n";
            conv->default_type = PYT_INT;
        } else if (is_set_of(accept, PYT_INT | PYT_NONETYPE)) {
            conv->converter = conv->non_negative
                ? "_Py_convert_optional_to_non_negative_ssize_t"
                : "_Py_convert_optional_to_ssize_t";
            if (c->dialect->fixes & FIX_DEFAULT_TYPE_AFTER_INIT)
                conv->default_type = PYT_INT | PYT_NONETYPE;
        } else {
            fail_illegal_accept(c, "Py_ssize_t_converter", accept);
        }
        break;
    }
    case CK_SLICE_INDEX: {
        const PyValue *accept = ARG("accept");
        /* 3.14: the defaults each accept takes */
        bool typed = c->dialect->fixes & FIX_DEFAULT_TYPE_AFTER_INIT;
        if (is_set_of(accept, PYT_INT)) {
            conv->converter = "_PyEval_SliceIndexNotNone";
            if (typed)
                conv->default_type = PYT_INT;
        } else if (is_set_of(accept, PYT_INT | PYT_NONETYPE)) {
            conv->converter = "_PyEval_SliceIndex";
            if (typed)
                conv->default_type = PYT_INT | PYT_NONETYPE;
        } else
            fail_illegal_accept(c, "slice_index_converter", accept);
        break;
    }
    case CK_OBJECT: {
        const PyValue *converter = ARG("converter"), *type = ARG("type"),
                      *subclass_of = ARG("subclass_of");
        if (py_truthy(converter)) {
            if (py_truthy(subclass_of))
                clinic_fail(c, 0, "object: Cannot pass in both 'converter' "
                                  "and 'subclass_of'");
            conv->format_unit = "O&";
            conv->converter = arg_text(c, "converter", converter);
        } else if (py_truthy(subclass_of)) {
            conv->format_unit = "O!";
            conv->subclass_of = arg_text(c, "subclass_of", subclass_of);
        }
        if (type->kind != PY_NONE)
            conv->type = arg_text(c, "type", type);
        break;
    }
    case CK_STR:
        str_converter_init(c, conv, ARG("accept"), ARG("encoding"),
                           ARG("zeroes"));
        break;
    case CK_PY_UNICODE: {
        const PyValue *accept = ARG("accept");
        bool or_none = is_set_of(accept, PYT_STR | PYT_NONETYPE);
        if (py_truthy(ARG("zeroes"))) {
            conv->format_unit = or_none ? "Z#" : "u#";
            conv->length = true;
        } else {
            conv->accept = accept->kind == PY_SET ? accept->types : 0;
            if (is_set_of(accept, PYT_STR)) {
                conv->converter = "_PyUnicode_WideCharString_Converter";
                /* 3.14 checks the default after: no None */
                if (c->dialect->fixes & FIX_DEFAULT_TYPE_AFTER_INIT)
                    conv->default_type = PYT_STR | PYT_NULL;
            }
            else if (or_none)
                conv->converter = "_PyUnicode_WideCharString_Opt_Converter";
            else
                fail_illegal_accept(c, "Py_UNICODE_converter", accept);
        }
        conv->c_default = "NULL";
        break;
    }
    case CK_PY_BUFFER: {
        const PyValue *accept = ARG("accept");
        PyKind k = conv->default_value.kind;
        bool typed = c->dialect->fixes & FIX_DEFAULT_TYPE_AFTER_INIT;
        if (!typed && k != PY_UNSPECIFIED && k != PY_NONE)
            clinic_fail(c, 0, "The only legal default value for Py_buffer "
                              "is None.");
        /* 3.14: the defaults each accept takes */
        if (typed) {
            if (k == PY_STR || k == PY_BYTES)
                clinic_fail(c, 0, "Py_buffer_converter: a str or bytes "
                                  "default is not supported yet");
            conv->default_type =
                is_set_of(accept, PYT_STR | PYT_BUFFER | PYT_NONETYPE)
                    ? PYT_STR | PYT_BYTES | PYT_NULL | PYT_NONETYPE
                : is_set_of(accept, PYT_STR | PYT_BUFFER)
                    ? PYT_STR | PYT_BYTES | PYT_NULL
                : is_set_of(accept, PYT_BUFFER) ? PYT_BYTES | PYT_NULL
                : PYT_NULL;
        }
        /* 3.14: c_init_default, or what c_default_init makes */
        if (!(c->dialect->fixes & FIX_CONVERTER_C_DEFAULT))
            conv->c_default = conv->c_ignored_default;
        if (is_set_of(accept, PYT_STR | PYT_BUFFER | PYT_NONETYPE))
            conv->format_unit = "z*";
        else if (is_set_of(accept, PYT_STR | PYT_BUFFER))
            conv->format_unit = "s*";
        else if (is_set_of(accept, PYT_BUFFER))
            conv->format_unit = "y*";
        else if (is_set_of(accept, PYT_RWBUFFER))
            conv->format_unit = "w*";
        else
            clinic_fail(c, 0, "Py_buffer_converter: illegal combination of "
                              "arguments");
        break;
    }
    default:
        /* CConverter.converter_init(self): nothing to do. */
        break;
    }
#undef ARG
}

/* ---- 3.14: the C default the converter computes ------------------------ */

void builtin_c_default_init(Clinic *c, ConverterKind kind, Converter *conv)
{
    const PyValue *d = &conv->default_value;
    switch (kind) {
    case CK_BOOL:   /* str(int(self.default)) */
        if (d->kind == PY_BOOL)
            conv->c_default = d->b ? "1" : "0";
        else if (d->kind == PY_INT)
            conv->c_default = py_repr(c->arena, d);
        break;
    case CK_CHAR:
        if (d->kind == PY_BYTES)
            conv->c_default = char_c_default_escaped(c, d);
        break;
    case CK_INT:
        if (d->kind == PY_STR)
            conv->c_default = unichar_c_default(c, d);
        break;
    case CK_OBJECT:
        if (d->kind == PY_NONE || d->kind == PY_BOOL)
            conv->c_default = arena_concat_of(c->arena, "Py_",
                                              py_repr(c->arena, d));
        break;
    case CK_STR:
        if (d->kind == PY_NONE)
            conv->c_default = "NULL";
        break;
    case CK_PY_BUFFER:
        /* a str is its UTF-8 bytes */
        if (d->kind == PY_BYTES || d->kind == PY_STR)
            conv->c_default = arena_printf(c->arena,
                "{.buf = %s, .obj = NULL, .len = %zu}",
                text_c_bytes_repr(c->arena, d->s, d->len), d->len);
        break;
    default:
        /* CConverter.c_default_init(self): nothing */
        break;
    }
}

static bool is_given(const char *s)
{
    return s && s[0];
}

/* The rest of 3.14's CConverter.__init__ once the default is checked:
   the C default from the class's attributes, its c_default_init, or the
   default's own C literal. */
static void compute_c_default(Clinic *c, Converter *conv, PyValue def)
{
    if (is_given(conv->c_default))
        return;
    const ConverterClass *cls = conv->cls;
    const char *cls_name = cls->class_name ? cls->class_name : cls->name;
    if (def.kind == PY_UNSPECIFIED) {
        if (is_given(conv->c_init_default))
            conv->c_default = conv->c_init_default;
        return;
    }
    if (def.kind == PY_NULL) {
        conv->c_default = is_given(conv->c_ignored_default)
                              ? conv->c_ignored_default
                              : conv->c_init_default;
        if (!is_given(conv->c_default))
            clinic_failm(c, 0, MSG_C_DEFAULT_REQUIRED,
                         MSG_ARGS(cls_name, "NULL"));
        return;
    }
    if (def.kind == PY_UNKNOWN && !def.type_name)
        /* a c_default="" with a named constant: clinic.py asserts the
           default is known here */
        clinic_fail(c, 0, "Exception raised during parsing:\n"
                          "AssertionError");
    converter_call_c_default_init(c, conv);
    if (is_given(conv->c_default))
        return;
    switch (def.kind) {
    case PY_NONE:
        conv->c_default = conv->c_init_default;
        if (!is_given(conv->c_default))
            clinic_failm(c, 0, MSG_C_DEFAULT_REQUIRED,
                         MSG_ARGS(cls_name, "None"));
        return;
    case PY_STR:
        conv->c_default = text_c_str_repr(c->arena, def.s, def.len);
        return;
    case PY_BYTES:
        conv->c_default = text_c_bytes_repr(c->arena, def.s, def.len);
        return;
    case PY_INT: case PY_BOOL: case PY_FLOAT:
        conv->c_default = py_repr(c->arena, &def);
        return;
    default:
        clinic_failm(c, 0, MSG_C_DEFAULT_REQUIRED,
                     MSG_ARGS(cls_name, conv_repr(c->arena, c->dialect,
                                                  &def)));
    }
}

/* ---- CConverter.__init__ ---------------------------------------------- */

Converter *converter_alloc(Clinic *c, const ConverterClass *cls)
{
    if (cls->invalid)
        clinic_fail(c, 0, "Exception raised during parsing:\n%s",
                    cls->invalid);
    Converter *conv = arena_new_of(c->arena, Converter);
    conv->cls = cls;
    conv->type = cls->type;
    /* the dialect's C type for a built-in class, unless a Python block
       gave the class its own */
    const ConverterRow *row = converter_row_of(cls);
    const char *dialect_type = dialect_converter_type(c->dialect,
                                                      row->cls.class_name);
    if (dialect_type && cls->type == row->cls.type)
        conv->type = dialect_type;
    conv->c_default = cls->c_default;
    conv->py_default = cls->py_default;
    converter_class_defaults(c->dialect, cls, &conv->c_ignored_default,
                             &conv->c_init_default, &conv->default_type);
    conv->converter = cls->converter;
    conv->format_unit = cls->format_unit;
    conv->encoding = cls->encoding;
    conv->subclass_of = cls->subclass_of;
    conv->signature_name = cls->signature_name;
    conv->impl_by_reference = cls->impl_by_reference;
    conv->parse_by_reference = cls->parse_by_reference;
    conv->length = cls->length;
    conv->show_in_signature = cls->show_in_signature;
    /* a class attribute "default" (zero: PY_UNSPECIFIED) */
    conv->default_value = cls->default_value;
    conv->includes = arena_new_of(c->arena, IncludeList);
    return conv;
}

void builtin_cconverter_init(Clinic *c, Converter *conv, const char *name,
                             const char *py_name, Function *function,
                             PyValue default_value, const ConverterArg *args,
                             size_t nargs)
{
    const ConverterClass *cls = conv->cls;
    /* Python binds __init__'s own parameters first. */
    static const char *const init_params[] = { "name", "py_name", "function",
                                               "default" };
    const PyValue *c_default = NULL, *py_default = NULL, *annotation = NULL;
    ConverterArg *rest = arena_array_of(c->arena, ConverterArg, nargs + 1);
    size_t nrest = 0;
    for (size_t i = 0; i < nargs; i++) {
        const char *n = args[i].name;
        for (size_t j = 0; j < 4; j++)
            if (n[0] == init_params[j][0] && strcmp(n, init_params[j]) == 0)
                fail_type_error(c, arena_printf(c->arena,
                    "%s.__init__() got multiple values for argument '%s'",
                    "CConverter", n));
        if (strcmp(n, "c_default") == 0)
            c_default = &args[i].value;
        else if (strcmp(n, "py_default") == 0)
            py_default = &args[i].value;
        else if (strcmp(n, "annotation") == 0)
            annotation = &args[i].value;
        else if (strcmp(n, "unused") == 0 &&
                 (c->dialect->syntax & SYNTAX_UNUSED)) {
            converter_check_computed(c, n, &args[i].value);
            conv->unused = py_truthy(&args[i].value);
        } else {
            rest[nrest++] = args[i];
        }
    }

    conv->name = text_legal_c_identifier(c->arena, name);
    if (!conv->name)
        clinic_fail(c, 0, "Illegal C identifier: %s", name);
    conv->py_name = py_name;

    bool after_init = c->dialect->fixes & FIX_DEFAULT_TYPE_AFTER_INIT;
    /* 3.14 sets self.default after converter_init, and computes the C
       default from it */
    bool computes = c->dialect->fixes & FIX_CONVERTER_C_DEFAULT;
    if (default_value.kind != PY_UNSPECIFIED) {
        if (!after_init && conv->default_type &&
            !value_has_type(&default_value, conv->default_type))
            clinic_failm(c, 0, MSG_DEFAULT_TYPE,
                         MSG_ARGS(cls->class_name ? cls->class_name
                                                  : cls->name,
                                  conv_repr(c->arena, c->dialect,
                                            &default_value),
                                  name, type_names(c, conv->default_type)));
        if (!computes)
            conv->default_value = default_value;
    }

    if (c_default && py_truthy(c_default))
        conv->c_default = arg_text(c, "c_default", c_default);
    if (py_default && py_truthy(py_default))
        conv->py_default = arg_text(c, "py_default", py_default);

    if (annotation && annotation->kind != PY_UNSPECIFIED)
        clinic_fail(c, 0,
                    "The 'annotation' parameter is not currently permitted.");

    converter_call_init(c, conv, rest, nrest);
    /* default_type == (): the class takes no default (3.14's self and
       defining_class) */
    if (default_value.kind != PY_UNSPECIFIED &&
        (conv->default_type & PYT_NO_DEFAULT)) {
        const char *cn = cls->class_name ? cls->class_name : cls->name;
        size_t n = strlen(cn);
        if (text_endswith(cn, "_converter"))
            n -= strlen("_converter");
        clinic_fail(c, 0, "A '%.*s' parameter cannot be marked optional.",
                    (int)n, cn);
    }
    /* 3.14 checks the default against the type converter_init chose */
    if (after_init && default_value.kind != PY_UNSPECIFIED &&
        conv->default_type &&
        !value_has_type(&default_value, conv->default_type))
        clinic_failm(c, 0, MSG_DEFAULT_TYPE,
                     MSG_ARGS(cls->class_name ? cls->class_name : cls->name,
                              conv_repr(c->arena, c->dialect, &default_value),
                              name, type_names(c, conv->default_type)));
    if (computes) {
        if (default_value.kind != PY_UNSPECIFIED)
            conv->default_value = default_value;
        compute_c_default(c, conv, default_value);
    }
    conv->function = function;
}

Converter *legacy_converter_create(Clinic *c, const char *format_unit,
                                   const char *name, const char *py_name,
                                   Function *function, PyValue default_value,
                                   const ConverterArg *args, size_t nargs)
{
    const LegacyEntry *e = legacy_entry_find(c, format_unit);
    if (!e)
        clinic_failm(c, 0, MSG_NOT_A_CONVERTER,
                     MSG_ARGS(format_unit, "legacy "));

    /* functools.partial: its keywords first, the call's override them. */
    ConverterArg *merged = arena_array_of(c->arena, ConverterArg,
                                          e->nkwargs + nargs + 1);
    size_t n = 0;
    for (size_t i = 0; i < e->nkwargs; i++)
        merged[n++] = e->kwargs[i];
    for (size_t i = 0; i < nargs; i++) {
        size_t j;
        for (j = 0; j < n; j++)
            if (strcmp(merged[j].name, args[i].name) == 0)
                break;
        merged[j] = args[i];
        if (j == n)
            n++;
    }
    return converter_create(c, e->cls, name, py_name, function, default_value,
                            merged, n);
}

Converter *converter_copy(Clinic *c, const Converter *conv)
{
    Converter *copy = arena_alloc_uninit(c->arena, sizeof *copy);
    *copy = *conv;
    converter_copy_python(c, copy);
    return copy;
}

Parameter **function_render_parameters(Clinic *c, Function *f)
{
    if (f->render_parameters)
        return f->render_parameters;
    /* kept as long as f: made in the file's arena even inside a
       scratch step */
    Arena *step = c->arena;
    c->arena = c->file_arena;
    Parameter **copies = arena_array_of(c->arena, Parameter *,
                                        f->nparameters + 1);
    for (size_t i = 0; i < f->nparameters; i++) {
        Parameter *p = arena_new_of(c->arena, Parameter);
        *p = *f->parameters[i];
        p->converter = converter_copy(c, f->parameters[i]->converter);
        p->converter->function = p->function;
        converter_pre_render(c, p->converter);
        copies[i] = p;
    }
    c->arena = step;
    f->render_parameters = copies;
    return copies;
}

bool converter_is_optional(const Converter *conv)
{
    return conv->default_value.kind != PY_UNSPECIFIED;
}

bool builtin_is_optional(const Converter *conv)
{
    return converter_is_optional(conv);
}

/* ---- return converters ------------------------------------------------ */

ReturnConverter *return_converter_alloc(Clinic *c,
                                        const ReturnConverterClass *cls)
{
    ReturnConverter *rc = arena_new_of(c->arena, ReturnConverter);
    rc->cls = cls;
    rc->type = cls->type;
    rc->cast = cls->cast;
    rc->conversion_fn = cls->conversion_fn;
    rc->unsigned_cast = cls->unsigned_cast;
    return rc;
}

/* CReturnConverter.__init__(self, *, py_default=None, **kwargs) with
   the built-in return_converter_init(self), which takes no arguments: a
   TypeError that clinic.py turns into sys.exit(...). */
void builtin_return_converter_init(Clinic *c, ReturnConverter *rc,
                                   const ConverterArg *args, size_t nargs)
{
    const ReturnConverterClass *cls = rc->cls;
    StrBuf shown = STRBUF_INIT;
    const char *unexpected = NULL;
    for (size_t i = 0; i < nargs; i++) {
        if (strcmp(args[i].name, "py_default") == 0) {
            /* kept, never written out: any value clinic computed */
            const PyValue *v = &args[i].value;
            if (v->kind == PY_STR)
                rc->py_default = arena_strndup(c->arena, v->s, v->len);
            else if (py_truthy(v) && v->kind != PY_OBJECT &&
                     !py_is_uncomputed(v))
                rc->py_default = py_repr(c->arena, v);
            continue;
        }
        if (!unexpected)
            unexpected = args[i].name;
        sb_addf(&shown, "%s%s=%s", shown.len ? ", " : "", args[i].name,
                conv_repr(c->arena, c->dialect, &args[i].value));
    }
    if (unexpected) {
        char *s = sb_take(&shown, c->arena);
        clinic_fail(c, 0,
                    "%s(%s)\nCReturnConverter.return_converter_init() got an "
                    "unexpected keyword argument '%s'",
                    cls->class_name ? cls->class_name : cls->name, s,
                    unexpected);
    }
    sb_free(&shown);
}

/* ---- the #includes a converter asks for (3.13) --------------------- */

void include_list_add(Arena *a, IncludeList *l, const char *filename,
                      const char *reason, const char *condition)
{
    if (l->len == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        Include *items = arena_array_of(a, Include, cap);
        if (l->len)
            memcpy(items, l->items, l->len * sizeof *items);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->len].filename = filename;
    l->items[l->len].reason = reason;
    l->items[l->len].condition = condition;
    l->len++;
}

void converter_add_include(Clinic *c, Converter *conv, const char *filename,
                           const char *reason)
{
    /* a copy made for rendering shares the list with its original, which
       outlives the scratch arena (driver.c's render_function) */
    if (!conv->includes)   /* a converter made by hand */
        conv->includes = arena_new_of(c->file_arena, IncludeList);
    include_list_add(c->file_arena, conv->includes, filename, reason, NULL);
}
