/*
 * dsl_int.h — private to dsl*.c: the DSL parser's state.
 *
 * clinic.py's DSLParser is one object whose attributes the state methods
 * share; here that is DslState, hanging off the Clinic (c->dsl).  The
 * namespace of modules and classes it fills is in dsl.h.
 */
#ifndef CLINIC_DSL_INT_H
#define CLINIC_DSL_INT_H

#include <stdbool.h>
#include <string.h>

#include "base/text.h"
#include "scan/block.h"
#include "parse/dsl.h"
#include "model/message.h"
#include "model/model.h"

typedef enum DslStateFn {
    DSL_START,
    DSL_MODULENAME_NAME,
    DSL_PARAMETERS_START,
    DSL_PARAMETER,
    DSL_PARAMETER_DOCSTRING_START,
    DSL_PARAMETER_DOCSTRING,
    DSL_FUNCTION_DOCSTRING,
} DslStateFn;

/* The group state machine of the parameter section (clinic.py ps_*). */
enum {
    PS_START, PS_LEFT_SQUARE_BEFORE, PS_GROUP_BEFORE, PS_REQUIRED,
    PS_OPTIONAL, PS_GROUP_AFTER, PS_RIGHT_SQUARE_AFTER,
};

/* clinic.py's IndentStack. */
typedef struct IndentStack {
    int *indents;
    size_t depth, cap;
    int margin;              /* -1: none yet */
} IndentStack;

struct DslState {
    Namespace *top;

    /* Per block (clinic.py's DSLParser.reset). */
    Block *block;
    Function *function;
    DslStateFn state;
    bool keyword_only;
    bool positional_only;
    bool var_keyword;        /* 3.15's **kwds came: no more parameters */
    int group;
    int parameter_state;
    IndentStack indent;
    FunctionKind kind;
    bool coexist;
    /* 3.13's decorators and markers */
    bool critical_section;
    StrList target_critical_section;
    bool deleter;                      /* 3.14's @deleter */
    bool disable_fastcall;             /* 3.14's @disable fastcall */
    bool permit_long_summary;          /* 3.15's decorators */
    bool permit_long_docstring_body;
    const char *forced_text_signature;
    PyVersion deprecated_positional;   /* the last '* [from X.Y]' */
    PyVersion deprecated_keyword;      /* the last '/ [from X.Y]' */
    const char *parameter_continuation;
    int parameter_docstring_indent;
    int line;                /* line of the line being parsed */
    /* The line dsl_parse() is running the states on: where its text
       starts (past the leading whitespace) and its length, measured once
       for the states that each look at them (dsl_line_text()); it holds
       no tab (dsl_parse() refuses those). */
    const char *cur_line, *cur_text;
    size_t cur_len;
    int star_line;           /* where '*' was seen */
    int docstring_line;      /* first line of the function docstring */
    int preserve_line;       /* where 'preserve' was given */
    /* dsl_parse_block() to dsl_finish_block(): the block's output as
       found, and the empty piece that stands for "nothing added yet" */
    const char *saved_output;
    const char *no_output;
    /* The docstrings being read, line by line: grown in place, so a
       docstring of n lines costs memory linear in its length. */
    ArenaText function_docstring;
    ArenaText parameter_docstring;
    const Parameter *parameter_docstring_of;
    ArenaText parameter_continuation_text;
};

/* The line past its leading whitespace: measured once for the line
   being parsed. */
static inline const char *dsl_line_text(const DslState *d, const char *line)
{
    if (line == d->cur_line)
        return d->cur_text;
    while (text_is_py_space(*line))
        line++;
    return line;
}

/* strlen(line), known for the line being parsed. */
static inline size_t dsl_line_len(const DslState *d, const char *line)
{
    return line == d->cur_line ? d->cur_len : strlen(line);
}

/* Switches state, and runs the new state on line unless it is NULL. */
void dsl_next_state(Clinic *c, DslState *d, DslStateFn state,
                    const char *line);
/* clinic.py's ignore_line: comment-only and blank lines. */
bool dsl_ignore_line(Clinic *c, const char *line);
/* clinic.py's parse_converter: the converter's name, whether it is a
   legacy format unit, and its keyword arguments (with room for two
   more); *splat: whether a "**mapping" was among them, left out. */
const char *dsl_parse_converter(Clinic *c, const PyExpr *annotation,
                                bool *legacy, ConverterArg **args,
                                size_t *nargs, bool *splat);
/* Where 3.11's clinic.py calls the converter with those keyword
   arguments: a "**mapping" among them fails there (a TypeError). */
void dsl_check_kwarg_splat(Clinic *c, bool splat);

int dsl_indent_infer(Clinic *c, IndentStack *s, const char *line);


/* The parameter section (dsl_params.c). */
void dsl_state_parameter(Clinic *c, DslState *d, const char *line);
Parameter *dsl_add_parameter(Clinic *c, Function *f, const char *key,
                             Parameter *p);
/* check_remaining_star: a '*' (or '* [from X.Y]') with no parameter
   after it. */
void dsl_check_remaining_star(Clinic *c, DslState *d);

/* The docstring (dsl_docstring.c): clinic.py's format_docstring. */
const char *dsl_format_docstring(Clinic *c, DslState *d, Function *f);

/* Makes room for one more element in an arena-backed array. */
#define GROW(c, arr, n, cap)                                                 \
    do {                                                                     \
        if ((n) == (cap)) {                                                  \
            size_t ncap_ = (cap) ? 2 * (cap) : 8;                            \
            void *narr_ = arena_alloc((c)->arena, ncap_ * sizeof(*(arr)));   \
            if (n)                                                           \
                memcpy(narr_, (arr), (n) * sizeof(*(arr)));                  \
            (arr) = narr_;                                                   \
            (cap) = ncap_;                                                   \
        }                                                                    \
    } while (0)

/* A docstring line added to the text read so far, after a '\n' once
   that is not empty: in place while there is room (the usual case),
   else through arena_text_add(), which grows it. */
static inline void dsl_text_add_line(Arena *a, ArenaText *t, const char *s,
                                     size_t n)
{
    size_t sep = t->len != 0;
    if (t->len + sep + n + 1 > t->cap) {
        if (sep)
            arena_text_add(a, t, "\n", 1);
        arena_text_add(a, t, s, n);
        return;
    }
    if (sep)
        t->text[t->len++] = '\n';
    memcpy(t->text + t->len, s, n);
    t->len += n;
    t->text[t->len] = '\0';
}

/* repr() of a str, as messages quote names and values. */
const char *dsl_repr_str(Clinic *c, const char *s);

/* Whether the file's dialect has this syntax (SYNTAX_ bits). */
static inline bool dsl_has_syntax(const Clinic *c, unsigned syntax)
{
    return (c->dialect->syntax & syntax) != 0;
}

/* Runs the state machine over a block's body without rendering: the
   declared function (with its docstring formatted), or NULL. */
Function *dsl_parse(Clinic *c, Block *block);

#endif
