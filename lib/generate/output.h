/*
 * output.h — the output stage: generated fields go where the routing
 * configuration (route.h) sends them; at the end of the file, leftover
 * buffers are dumped and "file" destinations become routed files.
 */
#ifndef CLINIC_OUTPUT_H
#define CLINIC_OUTPUT_H

#include "base/context.h"
#include "base/printout.h"

/* Append generated text for field i (router_field_names) to wherever it
   is routed now. */
void output_append_field(Clinic *c, int field, const char *text);
/* The same for text of length n. */
void output_append_field_n(Clinic *c, int field, const char *text, size_t n);
/* Destination 'block': take (and clear) what has been written to it for
   the current block — the block's new output. */
const char *output_dump_block(Clinic *c);

/* The end of Clinic.parse(): leftover buffer destinations are written to
   out in a "dump" block (with the reference's warning), file destinations
   become c->files (checked against the existing file unless -f). */
void output_finish(Clinic *c, PrintOut *out);

#endif
