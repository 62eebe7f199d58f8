/*
 * cpp.h — follows #if/#ifdef/#ifndef/#elif/#else/#endif through verbatim
 * text, as clinic's cpp.py Monitor does, so a function knows the
 * preprocessor condition it is declared under.
 */
#ifndef CLINIC_CPP_H
#define CLINIC_CPP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/context.h"

CppMonitor *cpp_new(Clinic *c);
/* Feed one line (with or without its '\n'); lineno is 1-based. */
void cpp_writeline(Clinic *c, CppMonitor *m, const char *line, int lineno);
/* The same for the len bytes at line, which need not be a C string: the
   scanner hands over lines where they are in the file's text. */
void cpp_writeline_n(Clinic *c, CppMonitor *m, const char *line, size_t len,
                     int lineno);
/* The bytes that may make a line matter to the monitor: a line with none
   of them changes nothing, unless it follows one ending in a backslash
   (see cpp_wants_any_line), so the scanner need not pass it on. */
#define CPP_SPECIAL_BYTES "#/\\"
/* Does the byte of CPP_SPECIAL_BYTES at text[at] make its line matter?
   A '#' does (a directive, even inside a comment); a '/' only in a
   comment opener or closer ("//" changes nothing on a line without a
   '#'); a backslash only where nothing but whitespace may follow it on
   its line (a continuation: a backslash before a letter or a quote, as
   in a string's "\n", is not the last character of a stripped line).
   text is NUL-terminated: text[at + 1] may be read. */
static inline bool cpp_byte_matters(const char *text, size_t at)
{
    unsigned char next = (unsigned char)text[at + 1];
    switch (text[at]) {
    case '/':
        return next == '*' || (at > 0 && text[at - 1] == '*');
    case '\\':
        return next <= ' ' || next >= 0x80;   /* all Python whitespace */
    default:
        return true;
    }
}
/* Is the next line part of a continued one, whatever it holds? */
bool cpp_wants_any_line(const CppMonitor *m);
/* The current condition, as cpp.py's Monitor.condition(): the active
   conditions joined with " && ", or "" outside any #if. */
const char *cpp_condition(Clinic *c, CppMonitor *m);
/* End of file: cpp.py complains about unterminated blocks (if it does). */
void cpp_close(Clinic *c, CppMonitor *m);

#endif
