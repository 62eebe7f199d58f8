/*
 * dsl.h — the clinic DSL parser (clinic.py's DSLParser): directives,
 * decorators, function declarations with their parameters and docstrings,
 * module and class declarations.
 */
#ifndef CLINIC_DSL_H
#define CLINIC_DSL_H

#include "scan/block.h"
#include "base/context.h"

/*
 * A node of the namespace: the top level, a module or a class, with the
 * modules, classes and functions declared in it, in declaration order
 * (clinic.py keeps these as attributes of Clinic, Module and Class).  It
 * lives here rather than in model.h because Module and Class carry only
 * what the generator needs; the query modes read it.
 */
typedef struct Namespace Namespace;
struct Namespace {
    Module *module;          /* the module itself, or the class's module */
    Class *cls;              /* NULL unless this node is a class */
    Namespace **modules;     /* keyed by the module's (dotted) name */
    size_t nmodules, capmodules;
    Namespace **classes;     /* keyed by the class's name */
    size_t nclasses, capclasses;
    Function **functions;
    size_t nfunctions, capfunctions;
};

/* The top of the namespace the file's clinic blocks declared, or NULL
   when none was parsed. */
const Namespace *dsl_namespace(const Clinic *c);

/* Parses a "clinic" block: runs its directives (whose output goes to
   block->output) and returns the function it declares, or NULL.  The
   driver renders the function and appends it to block->output, then calls
   dsl_finish_block(), which applies 'preserve'. */
struct Function *dsl_parse_block(Clinic *c, Block *block);
void dsl_finish_block(Clinic *c, Block *block);

#endif
