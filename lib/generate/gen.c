/*
 * gen.c — clinic.py's CLanguage.render_function: render a Function's
 * parameters and return converter into template fields, fill the
 * templates of its calling convention (gen_templates.c) and hand each of
 * the ten output fields to the router, in the router's order.
 */
#include <stdint.h>
#include <string.h>
#ifdef CHECK_RENDER_TEMPLATE
#include <stdlib.h>
#endif

#include "model/converters.h"
#include "generate/gen.h"
#include "python/pyexpr.h"
#include "generate/gen_int.h"
#include "model/message.h"
#include "generate/output.h"
#include "parse/route.h"
#include "base/compiler.h"
#include "base/text.h"

/* ---- small pieces of the model ------------------------------------------- */

bool gen_default_return_converter(const Function *f)
{
    return !f->return_converter || !f->return_converter->type ||
           strcmp(f->return_converter->type, "PyObject *") == 0;
}

const char *gen_methoddef_flags(Clinic *c, const Function *f)
{
    const char *flags = "";

    if (f->kind == FUNC_METHOD_INIT || f->kind == FUNC_METHOD_NEW)
        return "";
    if (f->kind == FUNC_CLASS_METHOD)
        flags = "METH_CLASS";
    else if (f->kind == FUNC_STATIC_METHOD)
        flags = "METH_STATIC";
    if (f->coexist)
        flags = *flags ? arena_printf(c->arena, "%s|METH_COEXIST", flags)
                       : "METH_COEXIST";
    return flags;
}

bool gen_is_object_converter(const Converter *conv)
{
    const ConverterClass *cls;
    for (cls = conv->cls; cls; cls = cls->base)
        if (cls->class_name && strcmp(cls->class_name, "object_converter") == 0)
            return true;
    return false;
}

/* The decimal digits of n, written so that they end at end; where they
   start. */
static char *put_decimal(char *end, size_t n)
{
    do
        *--end = (char)('0' + n % 10);
    while ((n /= 10) > 0);
    return end;
}

const char *gen_decimal(Arena *a, long n)
{
    char digits[24];
    unsigned long u = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;
    char *start = put_decimal(digits + sizeof digits, u);
    if (n < 0)
        *--start = '-';
    size_t len = (size_t)(digits + sizeof digits - start);
    char *s = arena_alloc_uninit(a, len + 1);
    memcpy(s, start, len);
    s[len] = '\0';
    return s;
}

const char *gen_param_displayname(Clinic *c, const Parameter *p, int i)
{
    bool quoted = c->dialect->quoted_displayname;
    if (i == 0)
        return quoted ? "\"argument\"" : "argument";
    /* "argument " and the name's repr or the number, in quotes or not:
       put together at its size, not printf'd */
    char digits[24];
    const char *what;
    size_t n;
    if (p->kind != PARAM_POSITIONAL_ONLY) {
        what = py_repr_str(c->arena, p->name, strlen(p->name));
        n = strlen(what);
    } else if (i > 0) {
        what = put_decimal(digits + sizeof digits, (size_t)i);
        n = (size_t)(digits + sizeof digits - what);
    } else {
        return quoted ? arena_printf(c->arena, "\"argument %d\"", i)
                      : arena_printf(c->arena, "argument %d", i);
    }
    char *out = arena_alloc_uninit(c->arena, n + 12), *o = out;
    if (quoted)
        *o++ = '"';
    memcpy(o, "argument ", 9);
    memcpy(o + 9, what, n);
    o += 9 + n;
    if (quoted)
        *o++ = '"';
    *o = '\0';
    return out;
}

const char *gen_displayname(const Function *f)
{
    return function_kind_new_or_init(f->kind) && f->cls ? f->cls->name
                                                        : f->name;
}

const char *gen_c_id(Clinic *c, const char *name)
{
    unsigned char ch = (unsigned char)name[0];
    if (ch && !name[1]) {
        bool alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                     (ch >= '0' && ch <= '9');
        return alnum ? arena_printf(c->arena, "_Py_LATIN1_CHR('%c')", ch)
                     : arena_printf(c->arena, "_Py_LATIN1_CHR(%d)", ch);
    }
    return arena_concat_of(c->arena, "&_Py_ID(", name, ")");
}

const char *gen_docstring_for_c_string(Clinic *c, const Function *f)
{
    Arena *a = c->arena;
    const char *doc = f->docstring ? f->docstring : "";
    const char *line_start = doc;
    size_t doclen = strlen(doc);

    if (!c->dialect->docstring_ascii_check && !text_is_ascii(doc, doclen))
        clinic_warnm(c, 0, MSG_NON_ASCII_DOCSTRING, NULL);

    /* One '"line\n"' piece per line; the last one loses its "\n" unless
       the docstring ends with the signature marker, which wants the blank
       line __text_signature__ expects.  Written in place in the arena, at
       the most it can take: each line quoted (at most twice as long) and
       5 bytes around it, for at most doclen + 1 lines, and the end's 4. */
    char *out = arena_alloc_uninit(a, 2 * doclen + 5 * (doclen + 1) + 5);
    char *o = out, *last_start;
    size_t last_len;
    for (;;) {
        size_t rest = doclen - (size_t)(line_start - doc);
        const char *nl = memchr(line_start, '\n', rest);
        size_t len = nl ? (size_t)(nl - line_start) : rest;
        *o++ = '"';
        last_start = o;
        o = text_put_quoted_for_c_string(o, line_start, len);
        last_len = (size_t)(o - last_start);
        if (!nl)
            break;
        memcpy(o, "\\n\"\n", 4);
        o += 4;
        line_start = nl + 1;
    }
    if (last_len == 2 && memcmp(last_start, "--", 2) == 0) {
        memcpy(o, "\\n\"\n\"\\n\"", 8);
        o += 8;
    } else {
        *o++ = '"';
    }
    *o = '\0';
    return out;
}

const char *gen_docstring_text(Clinic *c, const Function *f)
{
    const char *doc = f->docstring ? f->docstring : "";
    const char *last_line = strrchr(doc, '\n');
    last_line = last_line ? last_line + 1 : doc;
    if (strcmp(last_line, "--") == 0)
        return arena_concat_of(c->arena, doc, "\n\n");
    return doc;
}

/* ---- Clinic.ifndef_symbols --------------------------------------------------- */

/* Each symbol is kept with its length just before it (a size_t, in the
   bytes below the string): the look-up, made for every function of a
   file against all the symbols before it, compares the lengths first. */
static size_t ifndef_symbol_len(const char *symbol)
{
    size_t n;
    memcpy(&n, symbol - sizeof n, sizeof n);
    return n;
}

bool gen_ifndef_symbol_seen(const Clinic *c, const char *full_name)
{
    size_t n = strlen(full_name);
    for (size_t i = 0; i < c->nifndef_symbols; i++) {
        const char *symbol = c->ifndef_symbols[i];
        if (ifndef_symbol_len(symbol) == n &&
            memcmp(symbol, full_name, n) == 0)
            return true;
    }
    return false;
}

void gen_ifndef_symbol_add(Clinic *c, const char *full_name)
{
    if (c->nifndef_symbols == c->capifndef_symbols) {
        size_t cap = c->capifndef_symbols ? c->capifndef_symbols * 2 : 8;
        const char **items = arena_array_of(c->file_arena, const char *,
                                            cap);
        if (c->nifndef_symbols)
            memcpy(items, c->ifndef_symbols,
                   c->nifndef_symbols * sizeof *items);
        c->ifndef_symbols = items;
        c->capifndef_symbols = cap;
    }
    size_t n = strlen(full_name);
    char *at = arena_alloc_uninit(c->file_arena, sizeof n + n + 1);
    memcpy(at, &n, sizeof n);
    memcpy(at + sizeof n, full_name, n + 1);
    c->ifndef_symbols[c->nifndef_symbols++] = at + sizeof n;
}

/* ---- render_function ------------------------------------------------------------ */

static const char *c_basename_of(Clinic *c, const Function *f)
{
    StrBuf sb = STRBUF_INIT;
    const char *full = f->full_name, *end, *last_dot;

    if (f->c_basename && *f->c_basename)
        return f->c_basename;
    end = full + strlen(full);
    last_dot = strrchr(full, '.');
    if (last_dot && strcmp(last_dot + 1, "__new__") == 0)
        end = last_dot;
    else if (!last_dot && strcmp(full, "__new__") == 0)
        end = full;                  /* fields.pop() leaves nothing */
    for (; full < end; full++)
        sb_addc(&sb, *full == '.' ? '_' : *full);
    return sb_take(&sb, c->arena);
}

/* ---- template_dict ------------------------------------------------------ */

/* The fields render_function puts in template_dict: the templates name
   only these (and a Python converter's set_template_dict() may add
   others), so they are kept by index, not in a map, and the templates'
   "{name}"s are matched against this one list. */
#define TEMPLATE_FIELDS(X)                                                 \
    X(FULL_NAME, "full_name") X(NAME, "name")                              \
    X(GETSET_NAME, "getset_name") X(GETSET_BASENAME, "getset_basename")    \
    X(METHODDEF_NAME, "methoddef_name") X(C_BASENAME, "c_basename")        \
    X(DOCSTRING, "docstring") X(SELF_NAME, "self_name")                    \
    X(SELF_TYPE, "self_type") X(SELF_TYPE_CHECK, "self_type_check")        \
    X(TARGET_CRITICAL_SECTION, "target_critical_section")                  \
    X(DEFINING_CLASS_NAME, "defining_class_name")                          \
    X(BASE_TYPE_PTR, "base_type_ptr")                                      \
    X(IMPL_RETURN_TYPE, "impl_return_type")                                \
    X(DECLARATIONS, "declarations") X(INITIALIZERS, "initializers")        \
    X(MODIFICATIONS, "modifications") X(KEYWORDS_C, "keywords_c")          \
    X(KEYWORDS_PY, "keywords_py") X(FORMAT_UNITS, "format_units")          \
    X(PARSE_ARGUMENTS, "parse_arguments")                                  \
    X(PARSE_ARGUMENTS_COMMA, "parse_arguments_comma")                      \
    X(IMPL_PARAMETERS, "impl_parameters")                                  \
    X(PARSER_PARAMETERS, "parser_parameters")                              \
    X(IMPL_ARGUMENTS, "impl_arguments")                                    \
    X(RETURN_CONVERSION, "return_conversion")                              \
    X(POST_PARSING, "post_parsing") X(CLEANUP, "cleanup")                  \
    X(RETURN_VALUE, "return_value") X(LOCK, "lock") X(UNLOCK, "unlock")    \
    X(UNPACK_MIN, "unpack_min") X(UNPACK_MAX, "unpack_max")                \
    X(OPTION_GROUP_PARSING, "option_group_parsing")

typedef enum TemplateField {
#define X(id, name) TF_##id,
    TEMPLATE_FIELDS(X)
#undef X
    TF_COUNT
} TemplateField;

static const char *const field_names[TF_COUNT] = {
#define X(id, name) name,
    TEMPLATE_FIELDS(X)
#undef X
};

/* The fields linear_format fills in (a marker alone on its line). */
#define BLOCK_FIELDS                                                       \
    (1ULL << TF_DECLARATIONS | 1ULL << TF_INITIALIZERS |                   \
     1ULL << TF_MODIFICATIONS | 1ULL << TF_RETURN_CONVERSION |             \
     1ULL << TF_POST_PARSING | 1ULL << TF_CLEANUP | 1ULL << TF_LOCK |       \
     1ULL << TF_UNLOCK)

/* Whether k[0..n) is name, whose length is n (4 to 24): compared a
   word at a time, from both ends, without a call to memcmp. */
static inline bool same_name(const char *k, const char *name, size_t n)
{
    if (n >= 8) {
        uint64_t x, y, u, v;
        memcpy(&x, k, 8);
        memcpy(&y, name, 8);
        memcpy(&u, k + n - 8, 8);
        memcpy(&v, name + n - 8, 8);
        if (x != y || u != v)
            return false;
        if (n > 16) {
            memcpy(&x, k + 8, 8);
            memcpy(&y, name + 8, 8);
            return x == y;
        }
        return true;
    }
    uint32_t x, y, u, v;
    memcpy(&x, k, 4);
    memcpy(&y, name, 4);
    memcpy(&u, k + n - 4, 4);
    memcpy(&v, name + n - 4, 4);
    return x == y && u == v;
}

/* The field named k[0..n), or -1 for a name not in the list: its length
   and a letter or two pick the one name it can be, which is compared. */
static int field_index(const char *k, size_t n)
{
    int i;
    switch (n) {
    case 4:  i = k[0] == 'n' ? TF_NAME : TF_LOCK; break;
    case 6:  i = TF_UNLOCK; break;
    case 7:  i = TF_CLEANUP; break;
    case 9:  i = k[0] == 'f' ? TF_FULL_NAME : k[0] == 'd' ? TF_DOCSTRING
                 : k[5] == 'n' ? TF_SELF_NAME : TF_SELF_TYPE;
             break;
    case 10: i = k[0] == 'c' ? TF_C_BASENAME : k[0] == 'k' ? TF_KEYWORDS_C
                 : k[8] == 'i' ? TF_UNPACK_MIN : TF_UNPACK_MAX;
             break;
    case 11: i = k[0] == 'k' ? TF_KEYWORDS_PY : TF_GETSET_NAME; break;
    case 12:
        switch (k[0]) {
        case 'i': i = TF_INITIALIZERS; break;
        case 'd': i = TF_DECLARATIONS; break;
        case 'f': i = TF_FORMAT_UNITS; break;
        case 'p': i = TF_POST_PARSING; break;
        default:  i = TF_RETURN_VALUE; break;
        }
        break;
    case 13: i = k[0] == 'm' ? TF_MODIFICATIONS : TF_BASE_TYPE_PTR; break;
    case 14: i = k[0] == 'm' ? TF_METHODDEF_NAME : TF_IMPL_ARGUMENTS; break;
    case 15:
        switch (k[0]) {
        case 's': i = TF_SELF_TYPE_CHECK; break;
        case 'g': i = TF_GETSET_BASENAME; break;
        case 'p': i = TF_PARSE_ARGUMENTS; break;
        default:  i = TF_IMPL_PARAMETERS; break;
        }
        break;
    case 16: i = TF_IMPL_RETURN_TYPE; break;
    case 17: i = k[0] == 'p' ? TF_PARSER_PARAMETERS : TF_RETURN_CONVERSION;
             break;
    case 19: i = TF_DEFINING_CLASS_NAME; break;
    case 20: i = TF_OPTION_GROUP_PARSING; break;
    case 21: i = TF_PARSE_ARGUMENTS_COMMA; break;
    case 23: i = TF_TARGET_CRITICAL_SECTION; break;
    default: return -1;
    }
    return same_name(k, field_names[i], n) ? i : -1;
}

/* clinic.py's template_dict.  Its order (a Python dict's, which a Python
   set_template_dict() sees) is kept in order[]: a field's index, or
   TF_COUNT + its index in extra for another name. */
typedef struct TemplateDict {
    Arena *arena;
    unsigned long long set;         /* bit i: field i is in the dict */
    /* bit i: value[i][0..len[i]) is the text before text_format_escape,
       which linear_format's pass and format_map's would undo (a block
       field's lines go in as they are); escaped only if it is asked for
       as a plain value */
    unsigned long long unescaped;
    const char *value[TF_COUNT];
    size_t len[TF_COUNT];           /* SIZE_MAX until measured */
    StrMap extra;
    int *order;
    size_t norder, caporder;
} TemplateDict;

static void td_order_grow(TemplateDict *td)
{
    size_t cap = td->caporder ? td->caporder * 2 : 64;
    int *order = arena_array_uninit(td->arena, int, cap);
    if (td->norder)
        memcpy(order, td->order, td->norder * sizeof *order);
    td->order = order;
    td->caporder = cap;
}

static inline void td_ordered(TemplateDict *td, int slot)
{
    if (td->norder == td->caporder)
        td_order_grow(td);
    td->order[td->norder++] = slot;
}

/* template_dict[field] = value (of length len, or SIZE_MAX: not known) */
static inline void td_set_n(TemplateDict *td, TemplateField field,
                            const char *value, size_t len)
{
    if (!(td->set >> field & 1)) {
        td->set |= 1ULL << field;
        td_ordered(td, (int)field);
    }
    td->unescaped &= ~(1ULL << field);
    td->value[field] = value;
    td->len[field] = len;
}

/* template_dict[field] = text_format_escape(value[0..len)), escaped when
   first read as a plain value (a block field is read unescaped) */
static void td_set_unescaped(TemplateDict *td, TemplateField field,
                             const char *value, size_t len)
{
    td_set_n(td, field, value, len);
    td->unescaped |= 1ULL << field;
}

static const char *td_escape(TemplateDict *td, int field)
{
    td->unescaped &= ~(1ULL << field);
    td->value[field] = text_format_escape_n(td->arena, td->value[field],
                                            td->len[field]);
    td->len[field] = SIZE_MAX;
    return td->value[field];
}

/* template_dict[field] (which is set), escaped if it is not yet */
static inline const char *td_value(TemplateDict *td, int field)
{
    if (td->unescaped >> field & 1)
        return td_escape(td, field);
    return td->value[field];
}

static inline void td_set(TemplateDict *td, TemplateField field,
                          const char *value)
{
    td_set_n(td, field, value, SIZE_MAX);
}

/* template_dict[key] = value for any key */
static void td_set_key(TemplateDict *td, const char *key, const char *value)
{
    int i = field_index(key, strlen(key));
    if (i >= 0) {
        td_set(td, (TemplateField)i, value);
        return;
    }
    size_t before = td->extra.len;
    strmap_set(td->arena, &td->extra, key, value);
    if (td->extra.len != before)
        td_ordered(td, TF_COUNT + (int)before);
}

/* template_dict[field] = str(n) */
static void td_set_decimal(TemplateDict *td, TemplateField field, size_t n)
{
    char digits[24];
    char *start = put_decimal(digits + sizeof digits, n);
    size_t len = (size_t)(digits + sizeof digits - start);
    char *s = arena_alloc_uninit(td->arena, len + 1);
    memcpy(s, start, len);
    s[len] = '\0';
    td_set_n(td, field, s, len);
}

static const char *td_get(TemplateDict *td, TemplateField field)
{
    return td->set >> field & 1 ? td_value(td, field) : NULL;
}

/* template_dict as a map, in its order. */
static StrMap td_to_map(TemplateDict *td)
{
    StrMap m = {0};
    strmap_reserve(td->arena, &m, td->norder);
    for (size_t i = 0; i < td->norder; i++) {
        int slot = td->order[i];
        if (slot < TF_COUNT)
            strmap_set(td->arena, &m, field_names[slot], td_value(td, slot));
        else
            strmap_set(td->arena, &m, td->extra.keys[slot - TF_COUNT],
                       td->extra.values[slot - TF_COUNT]);
    }
    return m;
}

/* template_dict made anew from a map, in its order. */
static void td_from_map(TemplateDict *td, const StrMap *m)
{
    td->set = td->unescaped = 0;
    td->norder = 0;
    td->extra = (StrMap){0};
    for (size_t i = 0; i < m->len; i++)
        td_set_key(td, m->keys[i], m->values[i]);
}

/* The converters' set_template_dict(): a built-in one sets a field or
   two, put in as it sets them; a Python one reads and writes the whole
   dict, made into a map for it. */
static void td_set_by_converter(Clinic *c, TemplateDict *td, Converter *conv)
{
    StrMap set = {0};
    if (converter_set_template_dict_builtin(c, conv, &set)) {
        for (size_t i = 0; i < set.len; i++)
            td_set_key(td, set.keys[i], set.values[i]);
        return;
    }
    StrMap all = td_to_map(td);
    converter_set_template_dict(c, conv, &all);
    td_from_map(td, &all);
}

/* text_render_fields' look-up in template_dict. */
static const char *td_lookup(const void *fields, const char *key, size_t n,
                             size_t *len, TextFieldKind *block)
{
    /* the lengths are measured once, when first asked for */
    TemplateDict *td = (TemplateDict *)(uintptr_t)fields;
    int i = field_index(key, n);
    if (i < 0) {
        if (block)
            *block = TEXT_FIELD_PLAIN;
        for (size_t j = 0; j < td->extra.len; j++) {
            const char *k = td->extra.keys[j];
            if (strncmp(k, key, n) == 0 && k[n] == '\0') {
                const char *v = td->extra.values[j];
                if (v)
                    *len = strlen(v);
                return v;
            }
        }
        return NULL;
    }
    TextFieldKind kind = TEXT_FIELD_PLAIN;
    if (!(td->set >> i & 1) || !td->value[i]) {
        if (block)
            *block = kind;
        return NULL;
    }
    if (block && (BLOCK_FIELDS >> i & 1))
        kind = td->unescaped >> i & 1 ? TEXT_FIELD_BLOCK_FORMATTED
                                      : TEXT_FIELD_BLOCK;
    if (block)
        *block = kind;
    if (kind != TEXT_FIELD_BLOCK_FORMATTED)
        td_value(td, i);
    if (td->len[i] == SIZE_MAX)
        td->len[i] = strlen(td->value[i]);
    *len = td->len[i];
    return td->value[i];
}

/* The fields render_function fills in with linear_format, as maps, for
   the rare template rendered one pass at a time: the option groups'
   switch (filled in before all other fields), then the blocks of
   code. */
typedef struct BlockFields {
    StrMap option_groups;      /* empty without option groups */
    bool made;                 /* d and blocks made (when first needed) */
    StrMap d, blocks;
} BlockFields;

static void block_fields_make(TemplateDict *td, BlockFields *bf)
{
    if (bf->made)
        return;
    bf->made = true;
    bf->d = td_to_map(td);
    for (int i = 0; i < TF_COUNT; i++)
        if ((BLOCK_FIELDS >> i & 1) && (td->set >> i & 1))
            strmap_set(td->arena, &bf->blocks, field_names[i],
                       td_value(td, i));
}


/* Fills template_dict as the reference does, from the rendered data. */
static void fill_template_dict(Clinic *c, Function *f, Parameter **params,
                               RenderData *data, TemplateDict *d)
{
    Arena *a = c->arena;
    const char *c_basename;
    size_t i;

    td_set(d, TF_FULL_NAME, f->full_name);
    td_set(d, TF_NAME, gen_displayname(f));
    c_basename = c_basename_of(c, f);
    /* c_basename.upper(), and room for "_METHODDEF" after it */
    size_t nbase = strlen(c_basename);
    char *upper = arena_alloc_uninit(a, nbase + sizeof "_METHODDEF");
    for (size_t k = 0; k <= nbase; k++) {
        char ch = c_basename[k];
        upper[k] = ch >= 'a' && ch <= 'z' ? (char)(ch - 'a' + 'A') : ch;
    }
    if (f->kind == FUNC_GETTER || f->kind == FUNC_SETTER) {
        td_set(d, TF_GETSET_NAME, upper);
        td_set(d, TF_GETSET_BASENAME, c_basename);
        td_set(d, TF_C_BASENAME,
               arena_printf(a, "%s%s", c_basename,
                            f->kind == FUNC_GETTER ? "_get" : "_set"));
        if (f->kind == FUNC_SETTER) {
            /* the setter's value, implicitly */
            strlist_push(a, &data->impl_parameters, "PyObject *value");
            strlist_push(a, &data->impl_arguments, "value");
        }
    } else {
        memcpy(upper + nbase, "_METHODDEF", sizeof "_METHODDEF");
        td_set_n(d, TF_METHODDEF_NAME, upper, nbase + sizeof "_METHODDEF" - 1);
        td_set_n(d, TF_C_BASENAME, c_basename, nbase);
    }
    td_set(d, TF_DOCSTRING, gen_docstring_for_c_string(c, f));

    td_set_n(d, TF_SELF_NAME, "", 0);
    td_set_n(d, TF_SELF_TYPE, "", 0);
    td_set_n(d, TF_SELF_TYPE_CHECK, "", 0);
    StrList targets = {0};
    for (i = 0; i < f->ntarget_critical_section; i++)
        strlist_push(a, &targets, f->target_critical_section[i]);
    td_set(d, TF_TARGET_CRITICAL_SECTION, strlist_join(a, &targets, ", "));
    for (i = 0; i < f->nparameters; i++)
        td_set_by_converter(c, d, params[i]->converter);

    if (f->return_converter)
        return_converter_render(c, f->return_converter, f, data);
    td_set(d, TF_IMPL_RETURN_TYPE,
           f->return_converter && f->return_converter->type
               ? f->return_converter->type : "PyObject *");

    const char *s = strlist_join(a, &data->declarations, "\n");
    td_set_unescaped(d, TF_DECLARATIONS, s, strlen(s));
    td_set(d, TF_INITIALIZERS, strlist_join(a, &data->initializers, "\n\n"));
    td_set(d, TF_MODIFICATIONS,
           strlist_join(a, &data->modifications, "\n\n"));
    td_set(d, TF_KEYWORDS_C, strlist_join_around(a, &data->keywords, "\"", "\",", " "));
    StrList keywords_py = {0};
    for (i = 0; i < data->keywords.len; i++)
        if (*data->keywords.items[i])
            strlist_push(a, &keywords_py,
                         gen_c_id(c, data->keywords.items[i]));
    td_set(d, TF_KEYWORDS_PY, strlist_join_around(a, &keywords_py, "", ",", " "));
    td_set(d, TF_FORMAT_UNITS, strlist_join(a, &data->format_units, ""));
    td_set(d, TF_PARSE_ARGUMENTS,
           strlist_join(a, &data->parse_arguments, ", "));
    td_set_n(d, TF_PARSE_ARGUMENTS_COMMA,
             data->parse_arguments.len ? "," : "",
             data->parse_arguments.len ? 1 : 0);
    td_set(d, TF_IMPL_PARAMETERS,
           strlist_join(a, &data->impl_parameters, ", "));
    td_set(d, TF_IMPL_ARGUMENTS, strlist_join(a, &data->impl_arguments, ", "));
    /* 3.14's METH_O parser: the impl's parameters after self */
    StrList rest = data->impl_parameters;
    if (rest.len) {
        rest.items++;
        rest.len--;
    }
    td_set(d, TF_PARSER_PARAMETERS, strlist_join(a, &rest, ", "));
    /* the text rstripped: its first text_rstrip_len() bytes */
    s = strlist_join(a, &data->return_conversion, "");
    td_set_unescaped(d, TF_RETURN_CONVERSION, s, text_rstrip_len(s));
    s = strlist_join(a, &data->post_parsing, "");
    td_set_unescaped(d, TF_POST_PARSING, s, text_rstrip_len(s));
    s = strlist_join(a, &data->cleanup, "");
    td_set_unescaped(d, TF_CLEANUP, s, strlen(s));
    td_set(d, TF_RETURN_VALUE, data->return_value);
    td_set(d, TF_LOCK, strlist_join(a, &data->lock, "\n"));
    td_set(d, TF_UNLOCK, strlist_join(a, &data->unlock, "\n"));
}

/* ---- the fixed templates, compiled ------------------------------------ */

/* A fixed template (gen_output_templates_fixed) is the same text for
   every function: it is read once per thread into its pieces, each a
   run of literal text (a doubled brace is one brace of it) and the
   field after it, so that rendering it only copies the pieces and the
   fields' values, whose lengths are known, at once into their place. */
#define COMPILED_PIECES_MAX 24

typedef struct CompiledPiece {
    unsigned short at, len;     /* the literal text: t[at..at+len) */
    signed char field;          /* the field after it, or -1 */
} CompiledPiece;

typedef struct CompiledTemplate {
    signed char state;          /* 0: not read yet, 1: compiled, -1: a
                                   template text_render_fields renders */
    unsigned char npieces;
    unsigned short literal_len;
    CompiledPiece piece[COMPILED_PIECES_MAX];
} CompiledTemplate;

static _Thread_local CompiledTemplate
    compiled_templates[GEN_FIXED_TEMPLATES_MAX];

/* Reads t into ct: false (ct not usable) for a template that names a
   block field, the exit label or a name not in the list, has a lone
   brace, or has too many pieces; text_render_fields renders those. */
static bool compile_template(const char *t, CompiledTemplate *ct)
{
    size_t n = strlen(t), lit = 0, at = 0;
    unsigned np = 0;
    if (n > 0xffff)
        return false;
    for (size_t i = 0;; ) {
        size_t b = i + strcspn(t + i, "{}");
        if (np == COMPILED_PIECES_MAX)
            return false;
        CompiledPiece *pc = &ct->piece[np++];
        pc->at = (unsigned short)at;
        pc->field = -1;
        if (b == n) {
            pc->len = (unsigned short)(n - at);
            lit += n - at;
            break;
        }
        if (t[b + 1] == t[b]) {                 /* "{{" or "}}": one */
            pc->len = (unsigned short)(b + 1 - at);
            lit += b + 1 - at;
            i = at = b + 2;
            continue;
        }
        if (t[b] == '}')
            return false;
        /* a plain "{name}" */
        size_t klen = strcspn(t + b + 1, "{}!:");
        const char *close = t + b + 1 + klen;
        if (*close != '}')
            return false;
        int field = field_index(t + b + 1, klen);
        if (field < 0 || (BLOCK_FIELDS >> field & 1))
            return false;
        pc->len = (unsigned short)(b - at);
        pc->field = (signed char)field;
        lit += b - at;
        i = at = (size_t)(close + 1 - t);
    }
    ct->npieces = (unsigned char)np;
    ct->literal_len = (unsigned short)lit;
    return true;
}

/* The length of the compiled template rendered: false when
   template_dict lacks one of its fields. */
static inline bool compiled_length(const CompiledTemplate *ct,
                                   TemplateDict *td, size_t *total)
{
    size_t n = ct->literal_len;
    for (unsigned i = 0; i < ct->npieces; i++) {
        int field = ct->piece[i].field;
        if (field < 0)
            continue;
        if (!(td->set >> field & 1) || !td->value[field])
            return false;
        td_value(td, field);
        if (td->len[field] == SIZE_MAX)
            td->len[field] = strlen(td->value[field]);
        n += td->len[field];
    }
    *total = n;
    return true;
}

/* The compiled template t rendered at o (compiled_length's bytes, which
   measured its fields); where it ends. */
static inline char *compiled_put(char *o, const char *t,
                                 const CompiledTemplate *ct,
                                 const TemplateDict *td)
{
    for (unsigned i = 0; i < ct->npieces; i++) {
        const CompiledPiece *pc = &ct->piece[i];
        memcpy(o, t + pc->at, pc->len);
        o += pc->len;
        if (pc->field >= 0) {
            memcpy(o, td->value[pc->field], td->len[pc->field]);
            o += td->len[pc->field];
        }
    }
    return o;
}

/* The fixed template t (number fixed) rendered, or NULL when it is not
   compiled or names a field template_dict lacks (text_render_fields,
   then the passes one by one, render it then, and report that). */
static const char *render_fixed(Arena *a, const char *t, int fixed,
                                TemplateDict *td, size_t *len)
{
    CompiledTemplate *ct = &compiled_templates[fixed];
    if (ct->state == 0)
        ct->state = compile_template(t, ct) ? 1 : -1;
    size_t total;
    if (ct->state < 0 || !compiled_length(ct, td, &total))
        return NULL;
    char *out = arena_alloc_uninit(a, total + 1);
    *compiled_put(out, t, ct, td) = '\0';
    *len = total;
    return out;
}

/* The usual methoddef #define, from its parts and fields, or NULL when
   template_dict lacks one of them (its template is rendered then):

       #define {methoddef_name}    \
           {"{name}", <cast>{c_basename}<cast end>, <flags>,
            {c_basename}__doc__},
*/
static const char *render_methoddef(Arena *a, const GenTemplateParts *md,
                                    TemplateDict *td, size_t *len)
{
    static const TemplateField fields[] = {
        TF_METHODDEF_NAME, TF_NAME, TF_C_BASENAME
    };
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        TemplateField field = fields[i];
        if (!(td->set >> field & 1) || !td->value[field])
            return NULL;
        td_value(td, field);
        if (td->len[field] == SIZE_MAX)
            td->len[field] = strlen(td->value[field]);
    }
    static const char head[] = "\n#define ", line[] = "    \\\n    {\"",
                      quote[] = "\", ", doc[] = "__doc__},\n";
    size_t ncast = strlen(md->cast), nend = strlen(md->cast_end);
    size_t nflags = strlen(md->flags);
    size_t nbase = td->len[TF_C_BASENAME];
    size_t total = (sizeof head - 1) + td->len[TF_METHODDEF_NAME] +
                   (sizeof line - 1) + td->len[TF_NAME] + (sizeof quote - 1) +
                   ncast + nbase + nend + 2 + nflags + 2 + nbase +
                   (sizeof doc - 1);
    char *out = arena_alloc_uninit(a, total + 1), *o = out;
#define PUT(s, n) (memcpy(o, (s), (n)), o += (n))
    PUT(head, sizeof head - 1);
    PUT(td->value[TF_METHODDEF_NAME], td->len[TF_METHODDEF_NAME]);
    PUT(line, sizeof line - 1);
    PUT(td->value[TF_NAME], td->len[TF_NAME]);
    PUT(quote, sizeof quote - 1);
    PUT(md->cast, ncast);
    PUT(td->value[TF_C_BASENAME], nbase);
    PUT(md->cast_end, nend);
    PUT(", ", 2);
    PUT(md->flags, nflags);
    PUT(", ", 2);
    PUT(td->value[TF_C_BASENAME], nbase);
    PUT(doc, sizeof doc - 1);
#undef PUT
    *o = '\0';
    *len = total;
    return out;
}

/* ---- the parser's definition, its fixed end compiled ------------------- */

/* The parser's definition ends with gen_parser_body_tail: its lines are
   read once per thread into what each is (a block field's marker, the
   exit label's, or a line of text to format), so that only the part
   before it is scanned for its fields. */
#define TAIL_LINES_MAX 16

typedef struct TailLine {
    enum { TAIL_TEXT, TAIL_BLOCK, TAIL_EXIT } kind;
    unsigned short at, len;     /* the line, without its '\n' */
    unsigned short indent;      /* a marker's blanks */
    signed char field;          /* a block marker's field */
    CompiledTemplate text;      /* a line of text, compiled */
} TailLine;

static _Thread_local struct {
    signed char state;          /* 0: not read, 1: read, -1: not usable */
    unsigned char nlines;
    TailLine line[TAIL_LINES_MAX];
} compiled_tail;

static bool compile_tail(const char *t)
{
    unsigned nl = 0;
    for (const char *line = t; *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            return false;           /* the tail's lines end with '\n' */
        if (nl == TAIL_LINES_MAX)
            return false;
        TailLine *tl = &compiled_tail.line[nl++];
        tl->at = (unsigned short)(line - t);
        tl->len = (unsigned short)(end - line);
        tl->kind = TAIL_TEXT;
        const char *p = line;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        tl->indent = (unsigned short)(p - line);
        char one[256];              /* the line alone, to compile */
        if ((size_t)(end - line) >= sizeof one)
            return false;
        memcpy(one, line, (size_t)(end - line));
        one[end - line] = '\0';
        if (p < end && *p == '{' && end[-1] == '}' && end - p > 2 &&
            !memchr(p + 1, '{', (size_t)(end - p - 2)) &&
            !memchr(p + 1, '}', (size_t)(end - p - 2))) {
            size_t klen = (size_t)(end - p - 2);
            int field = field_index(p + 1, klen);
            if (field >= 0 && (BLOCK_FIELDS >> field & 1)) {
                tl->kind = TAIL_BLOCK;
                tl->field = (signed char)field;
            } else if (klen == 10 && memcmp(p + 1, "exit_label", 10) == 0) {
                tl->kind = TAIL_EXIT;
            }
        }
        if (tl->kind == TAIL_TEXT && !compile_template(one, &tl->text))
            return false;
        line = end + 1;
    }
    compiled_tail.nlines = (unsigned char)nl;
    return true;
}

/* The parser's definition t, whose tail (gen_parser_body_tail and a
   newline) starts at tail_at, rendered as text_render_fields does: the
   part before the tail by it, without the exit label (which that part
   has not), then the tail's lines.  The "exit:" line stays when the
   template or a block field's value has "goto exit;".  NULL when
   text_render_fields must render the whole (a block's value has
   "{exit_label}", a field cannot be filled, ...). */
static const char *render_parser_definition(Arena *a, const char *t,
                                            size_t tail_at, TemplateDict *td,
                                            size_t *len)
{
    static const char tail_nl[] = "\n";
    if (compiled_tail.state == 0) {
        char tail[1024];
        size_t n = strlen(gen_parser_body_tail);
        compiled_tail.state = -1;
        if (n + 2 <= sizeof tail) {
            memcpy(tail, gen_parser_body_tail, n);
            memcpy(tail + n, tail_nl, 2);
            if (compile_tail(tail))
                compiled_tail.state = 1;
        }
    }
    if (compiled_tail.state < 0)
        return NULL;
    /* the blocks' values, and whether the label stays */
    bool keep_exit = false;
    for (unsigned long long m = BLOCK_FIELDS & td->set; m; m &= m - 1) {
        unsigned i = clinic_lowest_bit64(m);
        const char *v = td->value[i];
        if (!v)
            continue;
        if (!*v)
            continue;
        if (strstr(v, "{exit_label}"))
            return NULL;
        keep_exit = keep_exit || strstr(v, "goto exit;");
    }
    keep_exit = keep_exit || strstr(t, "goto exit;");

    StrBuf sb = STRBUF_INIT;
    sb_grow(&sb, tail_at + tail_at / 2 + 256);
    if (!text_render_fields_into(&sb, t, tail_at, td_lookup, td, false))
        goto whole;
    const char *tail = t + tail_at;
    for (unsigned i = 0; i < compiled_tail.nlines; i++) {
        const TailLine *tl = &compiled_tail.line[i];
        const char *line = tail + tl->at;
        if (tl->kind == TAIL_TEXT) {
            size_t n;
            if (!compiled_length(&tl->text, td, &n))
                goto whole;
            if (sb.cap - sb.len <= n + 1)
                sb_grow(&sb, n + 1);
            char *o = compiled_put(sb.buf + sb.len, line, &tl->text, td);
            *o++ = '\n';
            *o = '\0';
            sb.len = (size_t)(o - sb.buf);
        } else if (tl->kind == TAIL_EXIT) {
            if (keep_exit) {
                sb_add(&sb, line, tl->indent);
                sb_add(&sb, "exit:\n", 6);
            }
        } else {
            int field = tl->field;
            if (!(td->set >> field & 1) || !td->value[field])
                goto whole;
            const char *v = td->value[field];
            if (!*v)
                continue;
            bool formatted = td->unescaped >> field & 1;
            if (td->len[field] == SIZE_MAX)
                td->len[field] = strlen(v);
            if (!text_add_block_value(&sb, v, td->len[field], formatted, line,
                                      tl->indent, td_lookup, td))
                goto whole;
        }
    }
    *len = sb.len;
    return sb_take(&sb, a);
whole:
    sb_free(&sb);
    return NULL;
}

/* render_function's passes over a template with braces after the option
   groups', one by one. */
static const char *render_one_pass_at_a_time(Clinic *c, const char *template,
                                             TemplateDict *td,
                                             BlockFields *bf)
{
    Arena *a = c->arena;
    const char *missing = NULL;
    const char *s;

    block_fields_make(td, bf);
    template = text_linear_format_if_any(a, template, &bf->blocks);

    /* Only generate the "exit:" label if something jumps to it. */
    if (strstr(template, "{exit_label}")) {
        StrMap exit_map = {0};
        strmap_set(a, &exit_map, "exit_label",
                   strstr(template, "goto exit;") ? "exit:" : "");
        template = text_linear_format(a, template, &exit_map);
    }

    if (!strpbrk(template, "{}"))
        return template;
    s = text_format_map(a, template, &bf->d, &missing);
    if (!s)
        clinic_fail(c, 0, "KeyError: '%s'", missing);
    return s;
}

/* The passes render_function makes over one field's template, up to the
   line prefix and suffix; the text's length in *len. */
static const char *render_field_text(Clinic *c, RouterField field,
                                     const char *template, int fixed,
                                     const GenTemplateParts *methoddef,
                                     TemplateDict *td, BlockFields *bf,
                                     size_t *len)
{
    Arena *a = c->arena;
    const char *s;
    size_t tail_at = field == FIELD_PARSER_DEFINITION
                         ? methoddef->parser_tail_at : 0;

    if (bf->option_groups.len) {
        const char *t = template;
        template = text_linear_format_if_any(a, template, &bf->option_groups);
        if (template != t) {
            fixed = -1;
            tail_at = 0;
        }
    }
    /* Most templates are empty or hold no field at all (which
       text_render_fields gives back as they are); the others have
       their passes made in one where that can be done. */
    if (!*template) {
        s = template;
        *len = 0;
    } else if (!((fixed >= 0 &&
                  (s = render_fixed(a, template, fixed, td, len))) ||
                 (fixed == GEN_FIXED_METHODDEF &&
                  (s = render_methoddef(a, methoddef, td, len))) ||
                 (tail_at &&
                  (s = render_parser_definition(a, template, tail_at, td,
                                                len))) ||
                 (s = text_render_fields(a, template, strlen(template),
                                         td_lookup, td, len)))) {
        s = render_one_pass_at_a_time(c, template, td, bf);
        *len = strlen(s);
    }
#ifdef CHECK_RENDER_TEMPLATE
    /* a cross-check build (CFLAGS=-DCHECK_RENDER_TEMPLATE): the passes
       in one must give what they give one by one */
    if (strpbrk(template, "{}") &&
        strcmp(s, render_one_pass_at_a_time(c, template, td, bf)) != 0)
        abort();
#endif

    /* Reflow long impl declarations. */
    if (field == FIELD_IMPL_PROTOTYPE || field == FIELD_IMPL_DEFINITION) {
        const char *wrapped = text_wrap_declarations(a, s, 78);
        if (wrapped != s) {
            s = wrapped;
            *len = strlen(s);
        }
    }
    return s;
}

/* s (of length *len) with the line prefix and suffix; *len follows. */
static const char *with_line_prefix_and_suffix(Clinic *c, const char *s,
                                               size_t *len)
{
    const char *prefix = router_line_prefix(c);
    const char *suffix = router_line_suffix(c);
    if (prefix && *prefix)
        s = text_indent_all_lines(c->arena, s, prefix);
    if (suffix && *suffix)
        s = text_suffix_all_lines(c->arena, s, suffix);
    if ((prefix && *prefix) || (suffix && *suffix))
        *len = strlen(s);
    return s;
}

/* The impl's prototype is, nearly always, its definition's first line(s)
   with a ';': "\nX;\n" against "\nX\n".  Then, when X renders to a text
   whose last line ends with ')', wrap_declarations puts the ';' right
   after it and changes nothing else (it splits a line at its first
   parentheses and strips only trailing blanks), so the prototype is the
   rendered definition with a ';' before its final newline. */
static bool prototype_is_definition(const char *proto, const char *def)
{
    size_t n = strlen(def);
    return n >= 2 && strlen(proto) == n + 1 && def[n - 1] == '\n' &&
           memcmp(proto, def, n - 1) == 0 && strcmp(proto + n - 1, ";\n") == 0;
}

/* rendered_def is r bytes long; the prototype is one more. */
static const char *prototype_from_definition(Clinic *c,
                                             const char *rendered_def,
                                             size_t r)
{
    if (r < 2 || memcmp(rendered_def + r - 2, ")\n", 2) != 0)
        return NULL;
    char *s = arena_alloc_uninit(c->arena, r + 2);
    memcpy(s, rendered_def, r - 1);
    memcpy(s + r - 1, ";\n", 3);
    return s;
}

const char *gen_render_function(Clinic *c, Function *f)
{
    Arena *a = c->arena;
    RenderData data;
    const char *templates[ROUTER_NFIELDS];
    int fixed[ROUTER_NFIELDS];
    GenTemplateParts methoddef;
    Parameter **params;
    size_t nselfless, i;
    int last_group = 0;
    size_t first_optional;
    bool positional, has_option_groups = false;
    int field;

    if (!f)
        return "";
    if (f->nparameters == 0 || !f->parameters[0]->converter->cls->is_self)
        clinic_fail(c, 0, "No self parameter in '%s'!", f->full_name);

    memset(&data, 0, sizeof data);
    data.return_value = "return_value";

    params = function_render_parameters(c, f);
    gen_output_templates_fixed(c, f, templates, fixed, &methoddef);

    if (f->critical_section) {
        const char *lock, *unlock;
        switch (f->ntarget_critical_section) {
        case 0:
            lock = "Py_BEGIN_CRITICAL_SECTION({self_name});";
            unlock = "Py_END_CRITICAL_SECTION();";
            break;
        case 1:
            lock = "Py_BEGIN_CRITICAL_SECTION({target_critical_section});";
            unlock = "Py_END_CRITICAL_SECTION();";
            break;
        default:
            lock = "Py_BEGIN_CRITICAL_SECTION2({target_critical_section});";
            unlock = "Py_END_CRITICAL_SECTION2();";
            break;
        }
        strlist_push(a, &data.lock, lock);
        strlist_push(a, &data.unlock, unlock);
    }

    nselfless = f->nparameters - 1;
    first_optional = nselfless;
    positional = nselfless &&
                 params[f->nparameters - 1]->kind == PARAM_POSITIONAL_ONLY;

    /* i counts from -1 so that first_optional ignores self. */
    for (i = 0; i < f->nparameters; i++) {
        Parameter *p = params[i];
        Converter *conv = p->converter;

        if (i != 0 && p->default_value.kind != PY_UNSPECIFIED &&
            i - 1 < first_optional)
            first_optional = i - 1;

        /* (3.14's *args converters clean up after themselves) */
        if (p->kind == PARAM_VAR_POSITIONAL &&
            !(c->dialect->fixes & FIX_VARPOS_CONVERTERS))
            strlist_push(a, &data.cleanup,
                         arena_printf(a, "Py_XDECREF(%s);",
                                      converter_parser_name(c, conv)));

        if (last_group != p->group) {
            last_group = p->group;
            if (p->group) {
                const char *group_name = gen_group_to_variable_name(c, p->group);
                strlist_push(a, &data.impl_arguments, group_name);
                strlist_push(a, &data.declarations,
                             arena_printf(a, "int %s = 0;", group_name));
                strlist_push(a, &data.impl_parameters,
                             arena_printf(a, "int %s", group_name));
                has_option_groups = true;
            }
        }
        converter_render(c, conv, p, &data);
    }

    if (has_option_groups && !positional)
        clinic_failm(c, 0, MSG_GROUPS_NOT_POSITIONAL, NULL);

    /* The reference's HACK: a METH_O parser taking the impl's parameters
       must not also declare the one parameter as a local. */
    if (strstr(templates[FIELD_METHODDEF_DEFINE], "METH_O") &&
        (strstr(templates[FIELD_PARSER_PROTOTYPE], "{impl_parameters}") ||
         strstr(templates[FIELD_PARSER_PROTOTYPE], "{parser_parameters}")) &&
        data.declarations.len) {
        memmove(data.declarations.items, data.declarations.items + 1,
                (data.declarations.len - 1) * sizeof *data.declarations.items);
        data.declarations.len--;
    }

    BlockFields bf;
    memset(&bf, 0, sizeof bf);
    TemplateDict d;
    d.arena = a;
    d.set = d.unescaped = 0;
    d.extra = (StrMap){0};
    d.order = NULL;
    d.norder = d.caporder = 0;
    fill_template_dict(c, f, params, &data, &d);
    f->rendering.done = true;
    f->rendering.parameters = params;
    f->rendering.c_basename = td_get(&d, TF_C_BASENAME);
    f->rendering.impl_return_type = td_get(&d, TF_IMPL_RETURN_TYPE);
    td_set_decimal(&d, TF_UNPACK_MIN, first_optional);
    td_set_decimal(&d, TF_UNPACK_MAX, nselfless);
    if (has_option_groups) {
        const char *parsing = gen_option_group_parsing(c, f);
        td_set(&d, TF_OPTION_GROUP_PARSING, parsing);
        strmap_set(a, &bf.option_groups, "option_group_parsing", parsing);
    }

    const char *def_template = templates[FIELD_IMPL_DEFINITION];
    const char *def_text = NULL;
    size_t def_len = 0;
    for (field = 0; field < ROUTER_NFIELDS; field++) {
        const char *template = templates[field];
        const char *text = NULL;
        size_t len = 0;
        if (field == FIELD_IMPL_PROTOTYPE &&
            prototype_is_definition(template, def_template)) {
            /* the same template but for the ';': the same errors, if any */
            def_text = render_field_text(c, FIELD_IMPL_DEFINITION,
                                         def_template,
                                         fixed[FIELD_IMPL_DEFINITION],
                                         &methoddef, &d, &bf, &def_len);
            text = prototype_from_definition(c, def_text, def_len);
            len = def_len + 1;
        } else if (field == FIELD_IMPL_DEFINITION && def_text &&
                   template == def_template) {
            text = def_text;
            len = def_len;
        }
        if (!text)
            text = render_field_text(c, (RouterField)field, template,
                                     fixed[field], &methoddef, &d, &bf, &len);
        text = with_line_prefix_and_suffix(c, text, &len);
        output_append_field_n(c, field, text, len);
    }
    return output_dump_block(c);
}
