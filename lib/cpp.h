/*
 * cpp.h — follows #if/#ifdef/#ifndef/#elif/#else/#endif through verbatim
 * text, as clinic's cpp.py Monitor does, so a function knows the
 * preprocessor condition it is declared under.
 */
#ifndef CLINIC_CPP_H
#define CLINIC_CPP_H

#include "context.h"

CppMonitor *cpp_new(Clinic *c);
/* Feed one line (with or without its '\n'); lineno is 1-based. */
void cpp_writeline(Clinic *c, CppMonitor *m, const char *line, int lineno);
/* The current condition, as cpp.py's Monitor.condition(): the active
   conditions joined with " && ", or "" outside any #if. */
const char *cpp_condition(Clinic *c, CppMonitor *m);
/* End of file: cpp.py complains about unterminated blocks (if it does). */
void cpp_close(Clinic *c, CppMonitor *m);

#endif
