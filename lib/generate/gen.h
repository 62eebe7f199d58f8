/*
 * gen.h — the generator (clinic.py's CLanguage.render_function and
 * output_templates): from a Function to the ten output fields, handed to
 * the router.
 */
#ifndef CLINIC_GEN_H
#define CLINIC_GEN_H

#include "model/model.h"

/* clinic.py's render_function: render f's fields into the router's
   destinations, and return what destination 'block' holds (dumped, i.e.
   taken and cleared) — the text that goes into the block's output. */
const char *gen_render_function(Clinic *c, Function *f);

/* CodeGen.add_include: record an #include the generated code needs
   (condition: the #if it sits under, or NULL); the first reason given for
   a header stays.  gen_copy_includes records a converter's. */
void gen_add_include(Clinic *c, const char *filename, const char *reason,
                     const char *condition);
void gen_copy_includes(Clinic *c, Converter *conv);
/* The #include lines that open a routed file ("" when there are none or
   the dialect prints none), sorted as 3.13 sorts them. */
const char *gen_includes_header(Clinic *c);

#endif
