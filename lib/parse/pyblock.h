/*
 * pyblock.h — "python" blocks without Python: the declarative subset
 * (converter class definitions, print() of literals) is understood here;
 * anything else is refused with an error naming the construct.
 */
#ifndef CLINIC_PYBLOCK_H
#define CLINIC_PYBLOCK_H

#include "scan/block.h"
#include "base/context.h"

void pyblock_parse_block(Clinic *c, Block *block);

#endif
