/*
 * gen.h — the generator (clinic.py's CLanguage.render_function and
 * output_templates): from a Function to the ten output fields, handed to
 * the router.
 */
#ifndef CLINIC_GEN_H
#define CLINIC_GEN_H

#include "model.h"

/* clinic.py's render_function: render f's fields into the router's
   destinations, and return what destination 'block' holds (dumped, i.e.
   taken and cleared) — the text that goes into the block's output. */
const char *gen_render_function(Clinic *c, Function *f);

#endif
