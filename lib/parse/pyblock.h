/*
 * pyblock.h — "python" blocks (clinic.py's PythonParser): the block runs
 * in clinic's own interpreter (python/pyvm.h) with clinic.py's namespace,
 * and what it prints becomes its output; a construct the interpreter
 * does not run is refused with an error naming it.
 */
#ifndef CLINIC_PYBLOCK_H
#define CLINIC_PYBLOCK_H

#include "scan/block.h"
#include "base/context.h"

void pyblock_parse_block(Clinic *c, Block *block);

#endif
