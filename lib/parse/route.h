/*
 * route.h — the routing configuration: destinations (suppress, buffer,
 * file), their buffers, presets, push/pop, line prefix/suffix, and which
 * buffer each generated field goes to.  The output directives (directive.c)
 * change it; the output stage (output.c) writes the generated fields
 * through it.
 */
#ifndef CLINIC_ROUTE_H
#define CLINIC_ROUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/context.h"

/* The fields the generator fills, in clinic.py's destination_buffers
   order: cpp_if, docstring_prototype, docstring_definition,
   methoddef_define, impl_prototype, parser_prototype, parser_definition,
   cpp_endif, methoddef_ifndef, impl_definition. */
#define ROUTER_NFIELDS 10
extern const char *const router_field_names[ROUTER_NFIELDS];

/* Their indexes, in that order. */
typedef enum RouterField {
    FIELD_CPP_IF, FIELD_DOCSTRING_PROTOTYPE, FIELD_DOCSTRING_DEFINITION,
    FIELD_METHODDEF_DEFINE, FIELD_IMPL_PROTOTYPE, FIELD_PARSER_PROTOTYPE,
    FIELD_PARSER_DEFINITION, FIELD_CPP_ENDIF, FIELD_METHODDEF_IFNDEF,
    FIELD_IMPL_DEFINITION,
} RouterField;

typedef enum DestinationType {
    DEST_BUFFER,
    DEST_FILE,
    DEST_SUPPRESS,
} DestinationType;

typedef struct Destination Destination;

/* A run of a TextBuffer's text (not NUL-terminated). */
typedef struct TextPiece {
    struct TextPiece *next;
    size_t len, cap;
    char text[];
} TextPiece;

/* One text accumulator of a destination (clinic.py's _text_accumulator).
   Fields are routed to a TextBuffer, not to a destination, exactly as
   clinic.py's destination_buffers hold accumulators; the pointer stays
   valid for the whole run.  Its text is the pieces' end to end: it grows
   by new pieces, never by a copy of what it holds (a routed file's text
   is most of the file's memory), and is read piece by piece.  The pieces
   after last are empty: an emptied buffer keeps them for its next text. */
typedef struct TextBuffer {
    Destination *dest;
    int index;                 /* its index in dest's BufferSeries */
    TextPiece *first, *last;   /* arena memory; NULL until written */
    size_t len;                /* the text's, all pieces' */
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
    bool has_preamble;         /* the target's preamble went into it */
};

/* A routing of the ten fields (a preset, a saved 'output push'). */
typedef struct FieldMap {
    TextBuffer *fields[ROUTER_NFIELDS];
} FieldMap;

struct Router {
    Destination **dests;       /* in creation order: the end-of-file
                                  pass visits them in this order */
    size_t ndests, capdests;
    FieldMap fields;           /* clinic.py's destination_buffers */
    FieldMap *stack;           /* 'output push' */
    size_t nstack, capstack;
    const char *line_prefix;
    const char *line_suffix;
    /* What directives (printout, dump, output print) appended to the
       current block's output, grown in place (directive.c): a block of n
       printout lines costs memory linear in its output. */
    ArenaText appended;
};

/* clinic.py's add_destination / get_destination / get_destination_buffer.
   args are the extra arguments of "destination NAME new TYPE ...". */
Destination *router_add_destination(Clinic *c, const char *name,
                                    const char *type, const char **args,
                                    int nargs);
Destination *router_get_destination(Clinic *c, const char *name);
TextBuffer *router_get_buffer(Clinic *c, const char *name, int index);
/* The routing of preset name ('output preset NAME') into *map; false
   when there is no such preset. */
bool router_find_preset(Clinic *c, const char *name, FieldMap *map);

void textbuffer_append(Clinic *c, TextBuffer *tb, const char *text);
/* The same for text[0..n), its length known. */
void textbuffer_append_n(Clinic *c, TextBuffer *tb, const char *text,
                         size_t n);
/* Destination.dump(): every buffer's text in index order; clears them. */
const char *destination_dump(Clinic *c, Destination *d);
/* What Destination.clear() was meant to do: empty every buffer. */
void destination_clear(Destination *d);

int router_field_index(const char *name);     /* -1: not a field */

/* Python's repr() of a str, for messages worded as clinic.py's. */
const char *route_repr(Clinic *c, const char *s);

/* os.path.split() (POSIX). */
void route_path_split(Arena *a, const char *p, const char **head,
                      const char **tail);

/* The configuration every file starts with: destinations block,
   suppress, buffer and file, clinic.py's default routing and presets. */
Router *router_new(Clinic *c);

const char *router_line_prefix(const Clinic *c);
const char *router_line_suffix(const Clinic *c);
/* Append text to the current block's output (python print(), printout). */
void router_append_block(Clinic *c, const char *text);

#endif
