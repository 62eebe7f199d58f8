/*
 * printer.h — BlockPrinter: a block (scan/block.h) back into the file's
 * text, with its markers and fresh checksums.
 */
#ifndef CLINIC_PRINTER_H
#define CLINIC_PRINTER_H

#include "scan/block.h"

/* BlockPrinter.print_block: writes the block with its new output and the
   end marker with fresh checksums. */
void block_print(Clinic *c, PrintOut *out, const Block *b);
/* The one check block_print() makes of a block's output (a lone surrogate
   cannot be written as UTF-8: clinic.py's error), alone, for runs that
   print nothing (ClinicOptions.no_output). */
void block_check_output(Clinic *c, const Block *b);

#endif
