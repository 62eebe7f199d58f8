/*
 * textwrap.h — Python's textwrap.wrap() and fill(), as far as clinic
 * uses them: the TextWrapper options it passes, ASCII text.
 */
#ifndef CLINIC_TEXTWRAP_H
#define CLINIC_TEXTWRAP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/strbuf.h"

typedef struct TextWrap {
    int width;
    const char *initial_indent;
    const char *subsequent_indent;
    bool replace_whitespace;
    bool drop_whitespace;
    bool break_on_hyphens;
} TextWrap;

/* TextWrapper's defaults: width 70, no indent, whitespace replaced and
   dropped at line ends, words split after hyphens. */
#define TEXTWRAP_DEFAULTS { 70, "", "", true, true, true }

/* textwrap.wrap(text, ...): the lines (in *lines, arena memory) and how
   many there are. */
size_t text_wrap(Arena *a, const char *text, const TextWrap *opts,
                 const char ***lines);

/* textwrap.fill(text, width): the lines joined with "\n". */
const char *text_fill(Arena *a, const char *text, int width);

#endif
