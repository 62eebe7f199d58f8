/*
 * output_internal.h — the router's data, shared by output.c (the router
 * itself and the end-of-file pass) and directive.c (the output
 * directives).  Nothing outside those two files and their unit test
 * should include it: the rest of lib/ talks to the router via output.h.
 */
#ifndef CLINIC_OUTPUT_INTERNAL_H
#define CLINIC_OUTPUT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "output.h"

typedef enum DestinationType {
    DEST_BUFFER,
    DEST_FILE,
    DEST_SUPPRESS,
} DestinationType;

typedef struct Destination Destination;

/* One text accumulator of a destination (clinic.py's _text_accumulator).
   Fields are routed to a TextBuffer, not to a destination, exactly as
   clinic.py's destination_buffers hold accumulators; the pointer stays
   valid for the whole run. */
typedef struct TextBuffer {
    Destination *dest;
    int index;                 /* its index in dest's BufferSeries */
    char *text;                /* arena memory, NUL-terminated */
    size_t len, cap;
} TextBuffer;

/* clinic.py's Destination with its BufferSeries: buffers[i] has index
   start + i; asking for any index creates the buffers up to it. */
struct Destination {
    const char *name;
    DestinationType type;
    const char *filename;      /* DEST_FILE: the formatted path template */
    TextBuffer **buffers;
    size_t nbuffers, capbuffers;
    int start;
};

/* A routing of the ten fields (a preset, a saved 'output push'). */
typedef struct FieldMap {
    TextBuffer *fields[ROUTER_NFIELDS];
} FieldMap;

typedef struct Preset {
    const char *name;
    FieldMap map;
} Preset;

#define ROUTER_NPRESETS 5

struct Router {
    Destination **dests;       /* in creation order: the end-of-file
                                  pass visits them in this order */
    size_t ndests, capdests;
    FieldMap fields;           /* clinic.py's destination_buffers */
    FieldMap *stack;           /* 'output push' */
    size_t nstack, capstack;
    Preset presets[ROUTER_NPRESETS];
    const char *line_prefix;
    const char *line_suffix;
};

/* clinic.py's add_destination / get_destination / get_destination_buffer.
   args are the extra arguments of "destination NAME new TYPE ...". */
Destination *router_add_destination(Clinic *c, const char *name,
                                    const char *type, const char **args,
                                    int nargs);
Destination *router_get_destination(Clinic *c, const char *name);
TextBuffer *router_get_buffer(Clinic *c, const char *name, int index);
const Preset *router_find_preset(const Clinic *c, const char *name);

void textbuffer_append(Clinic *c, TextBuffer *tb, const char *text);
/* Destination.dump(): every buffer's text in index order; clears them. */
const char *destination_dump(Clinic *c, Destination *d);
/* What Destination.clear() was meant to do: empty every buffer. */
void destination_clear(Destination *d);

int router_field_index(const char *name);     /* -1: not a field */

/* Python's repr() of a str, for messages worded as clinic.py's. */
const char *output_repr(Clinic *c, const char *s);

#endif
