/*
 * output.h — the output router: destinations (suppress, block, buffer,
 * file, two-pass), presets, push/pop, dump, line prefix/suffix.  The only
 * place that knows where a generated field ends up.
 */
#ifndef CLINIC_OUTPUT_H
#define CLINIC_OUTPUT_H

#include <stdbool.h>

#include "clinic.h"

struct Block;

/* The fields the generator fills, in clinic.py's destination_buffers
   order: cpp_if, docstring_prototype, docstring_definition,
   methoddef_define, impl_prototype, parser_prototype, parser_definition,
   cpp_endif, methoddef_ifndef, impl_definition. */
#define ROUTER_NFIELDS 10
extern const char *const router_field_names[ROUTER_NFIELDS];

Router *router_new(Clinic *c);

/* Append generated text for field i to wherever it is routed now. */
void router_append_field(Clinic *c, int field, const char *text);
/* Destination 'block': take (and clear) what has been written to it for
   the current block — the block's new output. */
const char *router_dump_block(Clinic *c);
/* Append text to the current block's output (python print(), printout). */
void router_append_block(Clinic *c, const char *text);

const char *router_line_prefix(const Clinic *c);
const char *router_line_suffix(const Clinic *c);

/* The output directives (set, destination, output, dump, printout,
   preserve, version).  Returns false when name is none of them. */
bool directive_run(Clinic *c, struct Block *block, const char *name,
                   const char **args, int nargs, int line);

/* Appended by the router helper: */

/* The end of Clinic.parse(): leftover buffer destinations are written to
   out in a "dump" block (with the reference's warning), file destinations
   become c->files (checked against the existing file unless -f). */
void router_finish(Clinic *c, StrBuf *out);

#endif
