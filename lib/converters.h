/*
 * converters.h — the converter table and everything converters do.
 *
 * One table row per converter, legacy format unit and return converter
 * (CPython 3.11's clinic.py set).  The DSL parser creates instances with
 * converter_create(); the generator renders them.  Python blocks add
 * classes with converter_register_class().  `clinic --converters` prints
 * from the same table (converters_print).
 */
#ifndef CLINIC_CONVERTERS_H
#define CLINIC_CONVERTERS_H

#include "model.h"
#include "strbuf.h"

/* Registry of the file being processed: built-ins plus Python-block
   declarations.  Created by clinic_new(). */
ConverterRegistry *converters_new(Arena *a);

const ConverterClass *converter_class_find(const Clinic *c, const char *name);
const ConverterClass *legacy_converter_find(const Clinic *c,
                                            const char *format_unit);
const ReturnConverterClass *return_converter_class_find(const Clinic *c,
                                                        const char *name);
/* Register a class a Python block declared (also registers the legacy
   format unit, as clinic.py's metaclass does). */
void converter_register_class(Clinic *c, ConverterClass *cls);
void return_converter_register_class(Clinic *c, ReturnConverterClass *cls);

/* clinic.py's CConverter.__init__: checks the default against
   default_type, applies c_default/py_default/annotation, then the class's
   converter_init with the remaining keyword arguments (unknown keywords
   and illegal combinations fail as the reference does).  legacy_unit is
   the format unit when created from a legacy 'x' annotation (the
   functools.partial keyword arguments are applied), else NULL. */
Converter *converter_create(Clinic *c, const ConverterClass *cls,
                            const char *name, const char *py_name,
                            Function *function, PyValue default_value,
                            const ConverterArg *args, size_t nargs);
Converter *legacy_converter_create(Clinic *c, const char *format_unit,
                                   const char *name, const char *py_name,
                                   Function *function, PyValue default_value,
                                   const ConverterArg *args, size_t nargs);
/* Shallow copy (clinic.py's copy.copy), for cloning and render copies. */
Converter *converter_copy(Clinic *c, const Converter *conv);

ReturnConverter *return_converter_create(Clinic *c,
                                         const ReturnConverterClass *cls,
                                         const ConverterArg *args,
                                         size_t nargs);

/* The CConverter methods the generator calls. */
bool converter_is_optional(const Converter *conv);
const char *converter_parser_name(Clinic *c, const Converter *conv);
const char *converter_length_name(Clinic *c, const Converter *conv);
void converter_pre_render(Clinic *c, Converter *conv);
void converter_render(Clinic *c, Converter *conv, Parameter *p,
                      RenderData *data);
void converter_parse_argument(Clinic *c, Converter *conv, StrList *list);
/* parse_arg(argname, displayname): the specialised parsing snippet,
   still to be .format()ed by the generator; NULL when the converter has
   none (the generator then falls back to a format string). */
const char *converter_parse_arg(Clinic *c, Converter *conv,
                                const char *argname, const char *displayname);
const char *converter_simple_declaration(Clinic *c, const Converter *conv,
                                         bool by_reference, bool in_parser);
const char *converter_declaration(Clinic *c, const Converter *conv);
void converter_set_template_dict(Clinic *c, Converter *conv,
                                 StrMap *template_dict);
/* self_converter's parser_type(). */
const char *self_converter_parser_type(Clinic *c, const Converter *conv);

void return_converter_render(Clinic *c, ReturnConverter *rc, Function *f,
                             RenderData *data);

/* `clinic --converters`: the reference's listing, from the table. */
void converters_print(StrBuf *out);

#endif
