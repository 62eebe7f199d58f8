/*
 * pyblock.c — "python" blocks: clinic.py's PythonParser.
 *
 * clinic.py exec()s a python block's text and captures what it prints as
 * the block's output.  Here the block runs in the file's interpreter
 * (pyvm.h) with clinic.py's namespace (converters_py.c): as exec() in
 * 3.11's PythonParser.parse, the block's top-level names go to a fresh
 * dict, while the functions and classes it defines see clinic.py's
 * module globals; from 3.13 on, the block runs in a fresh copy of the
 * parser namespace, which its functions see too.  Classes derived from converter classes register themselves
 * as they are made.
 *
 * Errors: a syntax error, an exception escaping the block or a construct
 * the interpreter does not run (import, with, try, generators, async) is
 * FILE:LINE: error: naming it, at the line of the offending statement;
 * fail() inside the block is clinic.py's fail.
 */
#include "parse/pyblock.h"

#include "model/converters.h"
#include "python/pyvm.h"

static const char refused_tail[] =
    "clinic runs python blocks in its own interpreter, which has no "
    "imports, 'with', 'try', generators or 'async'.";

void pyblock_parse_block(Clinic *c, Block *block)
{
    const char *src = block->input ? block->input : "";
    int first_line = block->body_line > 0 ? block->body_line : block->line + 1;
    PyParseError err;
    c->line = block->line;     /* fail()'s line, as the driver's */
    /* made first, so that the tree's memory counts in the run's */
    PyVM *vm = converters_python(c);
    PyProgram *prog = pyvm_parse(c->arena, src, first_line, &err);
    if (!prog) {
        if (!err.kind)
            clinic_fail(c, err.line, "Unsupported construct in python "
                        "block: %s.\n%s", err.msg, refused_tail);
        clinic_fail(c, err.line, "Exception raised during parsing:\n%s: %s",
                    err.kind, err.msg);
    }
    /* what converters' methods printed before goes where clinic.py's
       standard output goes, not into this block's output */
    converters_python_take_printed(c);
    PyObj *globals = converters_python_block_globals(c);
    if (!pyvm_exec(vm, prog, globals,
                   globals ? globals : converters_python_block_locals(c))) {
        /* the block's own output, like clinic.py's, is dropped */
        pyvm_take_output(vm, NULL);
        const PyError *e = pyvm_error(vm);
        clinic_fail(c, e->line, "Exception raised during parsing:\n%s%s",
                    e->text, converters_python_suggestion(c, vm));
    }
    block->output = pyvm_take_output(vm, NULL);
}
