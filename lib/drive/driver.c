/*
 * driver.c — the file driver, the top floor of lib/: one Clinic context per
 * input file (clinic.py's Clinic.__init__ and Clinic.parse, plus
 * parse_file's language check), calling the stages in order: scanner,
 * parsers (clinic DSL, python blocks), generator, output, printer.  No
 * stage calls back up here; errors come back through context.c's longjmp.
 *
 * Line endings and the BOM are settled here too, at the edges: the input
 * (and every routed file read) becomes LF text before any stage sees it,
 * and the results are put back into the input's form at the end (see
 * textform.h), so the scanner never meets a "\r".
 */
#include "drive/clinic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generate/printer.h"
#include "model/converters.h"
#include "scan/cpp.h"
#include "convert/convert.h"
#include "parse/dsl.h"
#include "model/model.h"
#include "generate/output.h"
#include "generate/gen.h"
#include "parse/route.h"
#include "parse/pyblock.h"
#include "model/target.h"

/* The ClinicReadFn the stages see: the caller's reader, then universal
   newlines, as clinic.py opens a destination file.  (A BOM there stays
   text, as it does for clinic.py: clinic never writes one into a routed
   file.) */
static int read_as_text(void *userdata, const char *path, char **data,
                        size_t *len)
{
    Clinic *c = userdata;
    if (c->read_raw(c->read_raw_userdata, path, data, len) != 0)
        return -1;
    if (*data && !c->options.read_file_lf)
        *len = textform_universal_newlines(*data, *len);
    return 0;
}

Clinic *clinic_new(const char *filename, const ClinicOptions *options)
{
    Arena *a = arena_new();
    Clinic *c = arena_new_of(a, Clinic);
    c->arena = a;
    c->file_arena = a;
    if (options)
        c->options = *options;
    c->filename = arena_strdup(a, filename ? filename : "-");
    c->dialect = c->options.dialect ? c->options.dialect : dialect_default();
    sb_init(&c->diagnostics);
    sb_init(&c->printed);
    if (c->options.read_file) {
        c->read_raw = c->options.read_file;
        c->read_raw_userdata = c->options.read_userdata;
        c->options.read_file = read_as_text;
        c->options.read_userdata = c;
    }

    c->root = arena_new_of(a, Module);
    c->root->name = "";

    c->target = c->options.target ? c->options.target : target_default();
    c->converters = converters_new(a, c->dialect);
    c->cpp = cpp_new(c);
    c->router = router_new(c);
    return c;
}

void clinic_free(Clinic *c)
{
    if (!c)
        return;
    sb_free(&c->diagnostics);
    sb_free(&c->printed);
    arena_free(c->scratch);
    arena_free(c->file_arena);
}

/* Notes the block in c->blocks; returns its record. */
static ClinicBlock *record_block(Clinic *c, const Block *block)
{
    if (c->nblocks == c->capblocks) {
        size_t cap = c->capblocks ? 2 * c->capblocks : 16;
        ClinicBlock *items = arena_array_of(c->arena, ClinicBlock, cap);
        if (c->nblocks)
            memcpy(items, c->blocks, c->nblocks * sizeof *items);
        c->blocks = items;
        c->capblocks = cap;
    }
    ClinicBlock *b = &c->blocks[c->nblocks++];
    b->dsl_name = block->dsl_name;
    b->line = block->line;
    b->function = NULL;
    return b;
}

/* A function after "#define Py_LIMITED_API" may use only the converters
   the target can write with the Limited API: refused here, not by the
   compiler later. */
static void check_limited_api(Clinic *c, const Function *f, int line)
{
    if (!c->limited_api_line || c->limited_api_line > line)
        return;
    for (size_t i = 0; i < f->nparameters; i++) {
        const Converter *conv = f->parameters[i]->converter;
        const char *why = target_limited_refusal(c->target, conv);
        if (why)
            clinic_fail(c, line, "%s: parameter '%s' (%s): the target %s "
                        "cannot write it for the Limited API (Py_LIMITED_API "
                        "is defined on line %d): %s", f->full_name,
                        f->parameters[i]->name, conv->cls->class_name,
                        c->target->name, c->limited_api_line, why);
    }
}

/* gen_render_function() in the scratch arena: the templates it fills in
   several passes, the copies of the parameters and the pieces of text it
   joins are dropped once the block's output is kept, so a file's memory
   follows its output rather than the work of rendering it (posixmodule.c:
   about a third of its peak).  What the router keeps goes to the file's
   arena (output_append_field).  The query modes read f->rendering after
   the file is done: there, everything stays in the file's arena. */
static const char *render_function(Clinic *c, Function *f)
{
    if (c->options.no_output)
        return gen_render_function(c, f);
    clinic_scratch_begin(c);
    const char *rendered = gen_render_function(c, f);
    /* kept in the file's arena, straight from the scratch's */
    const char *kept = arena_strdup(c->file_arena, rendered ? rendered : "");
    clinic_scratch_end(c);
    memset(&f->rendering, 0, sizeof f->rendering);
    return kept;
}

/* A clinic block: parsed, its function rendered, 'preserve' applied.
   Returns the function's full name, or NULL. */
static const char *render_clinic_block(Clinic *c, Block *block,
                                       ClinicBlock *record)
{
    Function *f = dsl_parse_block(c, block);
    record->function = f;
    if (f) {
        f->block_line = block->line;
        check_limited_api(c, f, block->line);
        const char *rendered = render_function(c, f);
        if (rendered && *rendered)
            block->output = arena_printf(c->arena, "%s%s", block->output,
                                         rendered);
    }
    dsl_finish_block(c, block);
    return f ? f->full_name : NULL;
}

/* One block through the parser its dsl name asks for.  Returns the name
   of the function it declares, or NULL. */
static const char *parse_block(Clinic *c, Block *block)
{
    c->line = block->line;
    ClinicBlock *record = record_block(c, block);
    if (!strcmp(block->dsl_name, "clinic"))
        return render_clinic_block(c, block, record);
    if (!strcmp(block->dsl_name, "python")) {
        pyblock_parse_block(c, block);
        return NULL;
    }
    clinic_fail(c, block->line, "No parser to handle %s block.",
                route_repr(c, block->dsl_name));
}

/* The output clinic would write for a block, or NULL when the block has
   errors of its own: its messages are dropped (clinic.py stops at the
   checksum, before the block is parsed). */
static const char *render_quietly(Clinic *c, Block *block, const char **name)
{
    jmp_buf recover;
    jmp_buf *outer = c->recover;
    size_t diagnostics = c->diagnostics.len;
    int errors = c->errors;
    Block copy = *block;
    c->recover = &recover;
    if (setjmp(recover)) {
        c->recover = outer;
        c->arena = c->file_arena;   /* the error may come from rendering */
        if (c->out_of_memory)
            longjmp(*outer, 1);
        sb_setlen(&c->diagnostics, diagnostics);
        c->errors = errors;
        return NULL;
    }
    *name = parse_block(c, &copy);
    c->recover = outer;
    sb_setlen(&c->diagnostics, diagnostics);
    return copy.output ? copy.output : "";
}

/* A block whose generated code was edited by hand: clinic.py's message,
   then a note naming the function and the first line where the file's
   text is not what clinic writes. */
CLINIC_NORETURN static void fail_checksum(Clinic *c, Block *block)
{
    const char *old = block->output ? block->output : "";
    const char *name = NULL;
    const char *fresh = render_quietly(c, block, &name);
    const char *note = NULL;
    if (fresh)
        note = block_mismatch_note(c, name ? arena_printf(c->arena, "%s's",
                                                          name)
                                           : "this block's",
                                   old, fresh, block->checksum_error_line);
    clinic_fail_note(c, block->checksum_error_line, note, "%s",
                     block->checksum_error);
}

/* The results back in the input's form.  An input whose LF text did not
   change is handed back byte for byte (whatever its line endings, mixed
   or not), so it is never rewritten, as clinic.py's write_file() leaves a
   file alone when its text is the same.  Routed files get the input's
   line endings but no BOM. */
static void restore_form(Clinic *c, const char *raw, size_t raw_len,
                         PrintOut *out, bool converted)
{
    if (printout_unchanged(out) && !converted) {
        c->output = raw;   /* the input itself: see clinic.h */
        c->output_len = raw_len;
    } else {
        c->output = textform_write(c->arena, &c->form, printout_at(out, 0),
                                   out->len, &c->output_len);
    }
    TextForm routed = c->form;
    routed.bom = false;
    if (routed.newline == TEXT_NEWLINE_LF)
        return;   /* already in their form: no copy */
    for (size_t i = 0; i < c->nfiles; i++)
        c->files[i].text = textform_write(c->arena, &routed,
                                          c->files[i].text, c->files[i].len,
                                          &c->files[i].len);
}

/* Memory ran out while processing c's file: give up on the file (the
   recovery point below reports it), not on the process. */
static void out_of_memory(void *context)
{
    Clinic *c = context;
    /* in a python block: the statement's line, not the block's */
    int line = converters_python_line(c);
    if (line > 0)
        c->line = line;
    c->out_of_memory = true;
    longjmp(*c->recover, 1);
}

/* Clinic.parse(), on the LF text of raw. */
int clinic_process(Clinic *c, const char *raw, size_t raw_len)
{
    jmp_buf recover;
    jmp_buf *outer = c->recover;
    const char *filename = c->filename;
    /* heap memory live across the longjmp must be reachable from here */
    PrintOut *out = arena_new_of(c->arena, PrintOut);
    printout_init(out, NULL, 0);

    c->output = NULL;
    c->output_len = 0;
    c->files = NULL;
    c->nfiles = 0;
    c->out_of_memory = false;
    c->blocks = NULL;
    c->nblocks = c->capblocks = 0;
    c->recover = &recover;
    OutOfMemoryHandler outer_oom =
        arena_set_out_of_memory((OutOfMemoryHandler){out_of_memory, c});
    if (setjmp(recover)) {
        arena_set_out_of_memory(outer_oom);
        c->recover = outer;
        c->arena = c->file_arena;
        converters_python_take_printed(c);
        c->filename = filename;
        printout_free(out);
        c->output = NULL;
        c->output_len = 0;
        c->files = NULL;
        c->nfiles = 0;
        if (c->out_of_memory) {
            /* what the failed run held is unreachable now but for the
               arena; the message needs little */
            c->errors++;
            if (c->line > 0)
                sb_addf(&c->diagnostics, "%s:%d: error: out of memory\n",
                        c->filename, c->line);
            else
                sb_addf(&c->diagnostics, "%s: error: out of memory\n",
                        c->filename);
        }
        return -1;
    }

    /* parse_file: the language check, then the quick exit for files
       without a single start marker (not even fed to the cpp monitor) */
    const char *language_error = block_language_error(c->arena, c->filename);
    if (language_error)
        clinic_fail(c, -1, "%s", language_error);
    /* Unlike clinic.py, which keeps a BOM as the first line's first
       character, we drop it here: a start line right after it is seen. */
    size_t len;
    const ClinicOptions *o = &c->options;
    const char *text =
        !o->input_terminated
            ? textform_read(c->arena, raw, raw_len, &c->form, &len)
        : o->input_scan && !o->input_scan->has_cr
            ? textform_read_lf(raw, raw_len, &c->form, &len)
            : textform_read_shared(c->arena, raw, raw_len, &c->form, &len);
    /* --convert: the hand-written parsers become blocks first; the text
       is then processed as if the user had written them */
    bool converted = false;
    if (o->convert) {
        size_t converted_len;
        const char *conv = convert_text(c, text, len, &converted_len, NULL);
        if (conv != text) {
            text = conv;
            len = converted_len;
            converted = true;
        }
    }
    /* (a marker holds no line break, so the input's bytes and its LF text
       have one alike) */
    if (!o->input_scan && !block_has_start_marker(text, len)) {
        c->output = raw;
        c->output_len = raw_len;
        c->recover = outer;
        arena_set_out_of_memory(outer_oom);
        return 0;
    }

    c->limited_api_line = target_limited_api_line(text, len);
    /* 3.13: a file that defines Py_LIMITED_API gets Limited C API code */
    c->limited_capi = c->dialect->limited_capi &&
                      (c->options.limited_capi || c->limited_api_line);

    /* compared with the input as it is printed: copied, about the size
       of the input, only once something differs */
    printout_init(out, text, len);
    BlockScan how = {
        .verify = !o->force,
        .no_nul = o->input_scan && !o->input_scan->has_nul,
        /* the caller's look at the input holds for the text it is (no
           "\r" to turn into "\n", no BOM to skip) */
        .plain_len = o->input_scan && text == raw && !converted
                         ? o->input_scan->plain_len : 0,
        /* verbatim blocks only go to block_print() here, and a block's
           old output is only kept by the DSL for 'preserve', whose block
           is printed by block_print(): neither is copied */
        .borrow = true,
    };
    BlockParser *bp = block_parser_new(c, text, len, &how);
    Block block;
    while (block_parser_next(bp, &block)) {
        if (block.checksum_error)
            fail_checksum(c, &block);
        if (block.dsl_name)
            parse_block(c, &block);
        /* without printing, its one check is still made */
        if (!c->options.no_output)
            block_print(c, out, &block);
        else
            block_check_output(c, &block);
    }

    c->line = block_parser_lines_read(bp);
    output_finish(c, out);
    converters_python_take_printed(c);

    if (!c->options.no_output)
        restore_form(c, raw, raw_len, out, converted);
    printout_free(out);
    c->recover = outer;
    arena_set_out_of_memory(outer_oom);
    return 0;
}
