/*
 * dsl.h — the clinic DSL parser (clinic.py's DSLParser): directives,
 * decorators, function declarations with their parameters and docstrings,
 * module and class declarations.
 */
#ifndef CLINIC_DSL_H
#define CLINIC_DSL_H

#include "block.h"
#include "context.h"

/* Parses a "clinic" block: runs its directives (whose output goes to
   block->output) and returns the function it declares, or NULL.  The
   driver renders the function and appends it to block->output, then calls
   dsl_finish_block(), which applies 'preserve'. */
struct Function *dsl_parse_block(Clinic *c, Block *block);
void dsl_finish_block(Clinic *c, Block *block);

#endif
