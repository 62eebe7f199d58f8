/*
 * directive.h — the output directives of the clinic DSL (set, destination,
 * output, dump, printout, preserve, version): they change the routing
 * configuration (route.h).
 */
#ifndef CLINIC_DIRECTIVE_H
#define CLINIC_DIRECTIVE_H

#include <stdbool.h>

#include "scan/block.h"
#include "base/context.h"

/* Runs directive name with its arguments.  Returns false when name is
   none of them. */
bool directive_run(Clinic *c, Block *block, const char *name,
                   const char **args, int nargs, int line);

#endif
