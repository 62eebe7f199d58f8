/*
 * gen_int.h — what the generator's files (gen.c, gen_templates.c,
 * gen_groups.c) share with each other and with tests/unit/check_gen.c.
 * Not part of the library's interface: gen.h is.
 */
#ifndef CLINIC_GEN_INT_H
#define CLINIC_GEN_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"
#include "parse/route.h"
#include "base/strbuf.h"
#include "base/text.h"

/* clinic.py's NO_VARARG, as it is printed into generated code. */
#define GEN_NO_VARARG "PY_SSIZE_T_MAX"

/* ---- gen.c ----------------------------------------------------------- */

/* CLanguage.docstring_for_c_string: the docstring as a C string literal
   (one quoted piece per line).  Warns about non-ASCII text as the
   reference does. */
const char *gen_docstring_for_c_string(Clinic *c, const Function *f);

/* The text of that C string literal, unescaped: the docstring, and the
   blank line after a closing "--" line. */
const char *gen_docstring_text(Clinic *c, const Function *f);

/* Parameter.get_displayname(i): how error messages name argument i
   ("argument 'x'"; 3.11 has it in double quotes, 3.13 without). */
const char *gen_param_displayname(Clinic *c, const Parameter *p, int i);

/* Function.displayname: the class's name for __new__ and __init__. */
const char *gen_displayname(const Function *f);

/* 3.13's c_id(): how the keyword tuple names a keyword
   ("_Py_LATIN1_CHR('x')", "&_Py_ID(name)"). */
const char *gen_c_id(Clinic *c, const char *name);

/* str(n), put together without printf. */
const char *gen_decimal(Arena *a, long n);

/* No return converter, or one whose C type is "PyObject *". */
bool gen_default_return_converter(const Function *f);

/* Function.methoddef_flags: "METH_CLASS", "METH_STATIC|METH_COEXIST",
   ... or "" (none, also for __new__ and __init__). */
const char *gen_methoddef_flags(Clinic *c, const Function *f);

/* Clinic.ifndef_symbols: whether full_name already got its
   methoddef #ifndef in this file, and recording that it has. */
bool gen_ifndef_symbol_seen(const Clinic *c, const char *full_name);
void gen_ifndef_symbol_add(Clinic *c, const char *full_name);

/* Whether conv's class is object_converter or derives from it. */
bool gen_is_object_converter(const Converter *conv);

/* ---- gen_templates.c --------------------------------------------------- */

/* CLanguage.output_templates: the template of each of the ten fields,
   keyed by field name (router_field_names), each non-empty one wrapped in
   newlines.  The templates still hold {name}-style fields for
   render_function's passes. */
void gen_output_templates(Clinic *c, Function *f,
                          const char *templates[ROUTER_NFIELDS]);

/* How many of the templates gen_output_templates_fixed numbers. */
#define GEN_FIXED_TEMPLATES_MAX 64

/* What the generator renders some templates from.  The methoddef
   #define's parts between its fields ({methoddef_name}, {name},
   {c_basename} twice): its cast, the cast's end and the flags, none
   holding a brace.  Where the parser's definition has
   gen_parser_body_tail and a newline, which end it (0: it is not known
   to). */
typedef struct GenTemplateParts {
    const char *cast, *cast_end, *flags;
    size_t parser_tail_at;
} GenTemplateParts;

/* The end of the parser's body: the impl's call, the conversion of its
   return value, the "exit:" label and the cleanup. */
extern const char gen_parser_body_tail[];

/* fixed[FIELD_METHODDEF_DEFINE] for the usual methoddef #define, whose
   parts are in *methoddef. */
#define GEN_FIXED_METHODDEF (-2)

/* The same, and which of the fixed templates (the same text for every
   function, in static storage) each one is: a number below
   GEN_FIXED_TEMPLATES_MAX, or -1 for a template made for the function,
   or GEN_FIXED_METHODDEF.  The generator compiles the fixed ones once.
   *parts: see GenTemplateParts. */
void gen_output_templates_fixed(Clinic *c, Function *f,
                                const char *templates[ROUTER_NFIELDS],
                                int fixed[ROUTER_NFIELDS],
                                GenTemplateParts *parts);

/* ---- gen_deprecate.c --------------------------------------------------- */

/* The compiler warning (then error) of a function with '[from X.Y]'
   markers, from the earliest version they name; NULL when none. */
const char *gen_compiler_deprecated_warning(Clinic *c, const Function *f,
                                            Parameter **params, size_t n);
/* The DeprecationWarning for passing by position the parameters params
   (at index[] among the parsed ones), and its note in f's docstring. */
const char *gen_deprecate_positional_use(Clinic *c, Function *f,
                                         Parameter **params, const int *index,
                                         size_t n);
/* The same for passing by keyword: argname_fmt ("args[%d]") when the
   arguments are unpacked, NULL when the keywords are looked up. */
const char *gen_deprecate_keyword_use(Clinic *c, Function *f,
                                      Parameter **params, const int *index,
                                      size_t n, const char *argname_fmt,
                                      bool fastcall);

/* ---- gen_groups.c ------------------------------------------------------ */

/* A run of items: one option group, or one acceptable argument list. */
typedef struct GenItems {
    const void **items;
    size_t n;
} GenItems;

/* clinic.py's permute_optional_groups(left, required, right): the
   acceptable argument lists, shortest first, left groups preferred.
   Returns the number of lists stored in *out; returns 0 with *out NULL
   when left groups are given without required ones (the reference's
   assertion). */
size_t gen_permute_optional_groups(Arena *a, const GenItems *left,
                                   size_t nleft, const GenItems *required,
                                   const GenItems *right, size_t nright,
                                   GenItems **out);

/* The order in which CPython 3.11 iterates a set built by adding the
   given small ints in order (duplicates dropped).  Writes the distinct
   values to out (room for n) in iteration order and returns how many. */
size_t gen_pyset_int_order(Arena *a, const long *values, size_t n,
                           long *out);

/* CLanguage.group_to_variable_name: "group_left_1", "group_right_2". */
const char *gen_group_to_variable_name(Clinic *c, int group);

/* CLanguage.render_option_group_parsing: the switch over
   PyTuple_GET_SIZE(args), already format-escaped as the reference stores
   it in template_dict['option_group_parsing']. */
const char *gen_option_group_parsing(Clinic *c, Function *f);

#endif
