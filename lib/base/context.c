/*
 * context.c — the error channel of the per-file context: diagnostics are
 * collected as "FILE:LINE: error|warning: ..." lines, and an error
 * longjmps to the driver's recovery point (as Lua's luaD_throw does), so
 * no stage needs to unwind by hand: everything a run built lives in the
 * arena.
 */
#include "base/context.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void report(Clinic *c, const char *kind, int line, const char *fmt,
                   va_list ap)
{
    if (line == 0)
        line = c->line;     /* line < 0: the file as a whole */
    if (line > 0)
        sb_addf(&c->diagnostics, "%s:%d: %s: ", c->filename, line, kind);
    else
        sb_addf(&c->diagnostics, "%s: %s: ", c->filename, kind);
    sb_vaddf(&c->diagnostics, fmt, ap);
    sb_addc(&c->diagnostics, '\n');
}

/* ---- scratch steps ------------------------------------------------------ */

void clinic_scratch_begin(Clinic *c)
{
    if (c->arena != c->file_arena)
        return;   /* nested: the outer step owns it */
    if (!c->scratch)
        c->scratch = arena_new();
    c->arena = c->scratch;
}

void clinic_scratch_end(Clinic *c)
{
    if (c->arena != c->scratch)
        return;
    c->arena = c->file_arena;
    if (c->before_scratch_reset)
        c->before_scratch_reset(c);
    arena_reset(c->scratch);
}

/* The error apart from the diagnostics' text, for the query modes. */
static void record_error(Clinic *c, int line, const char *fmt, va_list ap)
{
    /* kept past the scratch arena of a function being rendered */
    c->error_message = arena_vprintf(c->file_arena, fmt, ap);
    c->error_line = line == 0 ? c->line : line < 0 ? -1 : line;
}

static void note(Clinic *c, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(c, "note", line, fmt, ap);
    va_end(ap);
}

CLINIC_NORETURN static void throw_error(Clinic *c)
{
    c->errors++;
    if (c->recover)
        longjmp(*c->recover, 1);
    /* an error outside clinic_process() is a bug in lib/ */
    fputs(c->diagnostics.buf, stderr);
    abort();
}

void clinic_fail(Clinic *c, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(c, "error", line, fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    record_error(c, line, fmt, ap);
    va_end(ap);
    throw_error(c);
}

void clinic_fail_note(Clinic *c, int line, const char *note_text,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(c, "error", line, fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    record_error(c, line, fmt, ap);
    va_end(ap);
    if (note_text)
        note(c, line, "%s", note_text);
    throw_error(c);
}

void clinic_warn(Clinic *c, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(c, "warning", line, fmt, ap);
    va_end(ap);
}
