/*
 * dsl.h — the clinic DSL parser (clinic.py's DSLParser): directives,
 * decorators, function declarations with their parameters and docstrings,
 * module and class declarations.
 */
#ifndef CLINIC_DSL_H
#define CLINIC_DSL_H

#include "block.h"
#include "clinic.h"

/* Parses a "clinic" block and renders its output (block->output). */
void dsl_parse_block(Clinic *c, Block *block);

#endif
