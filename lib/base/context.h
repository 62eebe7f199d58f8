/*
 * context.h — the per-file context and the error channel: the ground
 * floor every stage of lib/ may use (see README, "Layers").
 *
 * One Clinic holds everything one input file's run builds.  Errors are
 * raised with clinic_fail(), which longjmps back to the recovery point the
 * driver set (clinic_process() in drive/driver.c); the caller then writes
 * nothing.  No function in lib/ touches the file system except through the
 * callbacks the caller supplies (ClinicReadFn, ClinicSameFileFn; io.c
 * provides the real ones), so tests and the fuzzer run without files.
 */
#ifndef CLINIC_CONTEXT_H
#define CLINIC_CONTEXT_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/checksum.h"
#include "base/dialect.h"
#include "base/io.h"
#include "base/strbuf.h"
#include "base/textform.h"

/* The version: the Makefile's VERSION, its one source, given as
   -DCLINIC_VERSION; "unknown" only in a compile outside the Makefile. */
#ifndef CLINIC_VERSION
#define CLINIC_VERSION "unknown"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CLINIC_NORETURN __attribute__((noreturn))
#define CLINIC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLINIC_NORETURN
#define CLINIC_PRINTF(f, a)
#endif

/* Reads a whole file.  Returns 0 and a malloc'd buffer (caller frees; a
   NUL follows its *len bytes, as io_read_file gives it), or
   -1 with errno set (ENOENT when the file does not exist, EINVAL when it
   is not a regular file: a FIFO or a device is never read; ELOOP when it
   is a symbolic link, which the library then refuses to write through:
   what it reads are the files it writes, routed files and a target's
   header).  The bytes may have any line endings: the library reads them
   as universal newlines. */
typedef int (*ClinicReadFn)(void *userdata, const char *path,
                            char **data, size_t *len);

/* Would writes to paths a and b land on the same file?  The library asks
   before it routes output to a file, so that no second name for the input
   (an absolute path, "./", a symlink, "d/../d/x.c") and no two names for
   one routed file get past it.  io_clinic_same_file decides by device and
   inode; NULL: by the names, after "./" and "//" are normalised. */
typedef bool (*ClinicSameFileFn)(void *userdata, const char *a,
                                 const char *b);

/* A checksum remembered for the len bytes at offset of path's text (see
   ClinicOptions.sum_known); sum holds CHECKSUM_HEX_LEN hex digits and a NUL. */
typedef bool (*ClinicSumKnownFn)(void *userdata, const char *path,
                                 size_t offset, size_t len, char *sum);
typedef void (*ClinicSumNoteFn)(void *userdata, const char *path,
                                size_t offset, size_t len, const char *sum);

typedef struct Target Target;              /* target.h */

typedef struct ClinicOptions {
    bool force;            /* -f: do not verify checksums */
    bool verbose;          /* -v */
    bool no_output;        /* only what the file declares is wanted (the
                              query modes): the new text is not put
                              together; c->output and the text of
                              c->files stay NULL; what the generator
                              decided for each function stays in
                              Function.rendering (otherwise it is
                              dropped with the function's scratch) */
    ClinicReadFn read_file;    /* NULL: every other file is absent */
    void *read_userdata;
    ClinicSameFileFn same_file;
    void *same_file_userdata;
    const Target *target;  /* NULL: the default (3.11); a file's "target"
                              directive overrides it */
    const Dialect *dialect;    /* NULL: dialect_default() */
    bool limited_capi;         /* --limited: the Limited C API everywhere
                                  (when the dialect has it) */
    /* Checksums of existing output remembered across the files of a run
       (a routed file is verified when its .c file is processed, and
       again as a file of its own).  sum_known fills sum with
       CHECKSUM_HEX_LEN hex digits when the len bytes at offset in
       path's text, as the input or the last read_file gave it, were
       hashed before; sum_note hands it a sum just computed.  NULL:
       every sum is computed. */
    ClinicSumKnownFn sum_known;
    ClinicSumNoteFn sum_note;
    void *sum_userdata;
    bool input_terminated;     /* a NUL follows the input's bytes: LF
                                  text is read where it is, not copied */
    /* What the caller found when it read the input (io_scan_text), so
       that the library does not search for it again; the input then
       holds a start marker too.  NULL: nothing is known. */
    const IoTextScan *input_scan;
    /* read_file hands back text already in universal newlines (no "\r"
       left): not searched for one again. */
    bool read_file_lf;
    /* --convert (convert/convert.h): hand-written parsers become clinic
       blocks before the file is processed; convert_only names the
       functions to take (none: all). */
    bool convert;
    const char *const *convert_only;
    size_t nconvert_only;
} ClinicOptions;

/* A file other than the input that a "file" destination writes.  Its text
   has the input file's line endings (never a BOM). */
typedef struct ClinicOutputFile {
    const char *path;
    const char *text;
    size_t len;
    bool changed;          /* its text (line endings aside) differs from
                              what is on disk now; when false the file is
                              to be left alone, whatever its line endings */
} ClinicOutputFile;

/* Opaque states, each owned by the module named. */
typedef struct Router Router;              /* output.c */
typedef struct ConverterRegistry ConverterRegistry; /* converters.c */
typedef struct CppMonitor CppMonitor;      /* cpp.c */
typedef struct DslState DslState;          /* dsl.c */
typedef struct Module Module;              /* model.h */
typedef struct Class Class;
typedef struct Function Function;

typedef struct Clinic {
    Arena *arena;          /* where stages allocate: file_arena, or scratch
                              while a function is rendered */
    Arena *file_arena;     /* lives as long as the Clinic */
    Arena *scratch;        /* one step's intermediate text: see
                              clinic_scratch_begin() */
    /* called before the scratch arena is reset, to drop what points
       into it (converters_py.c's host objects) */
    void (*before_scratch_reset)(struct Clinic *c);
    ClinicOptions options;
    const Dialect *dialect;    /* the file's dialect, never NULL */
    const char *filename;  /* as given by the user; used in messages */
    int line;              /* line clinic_fail() reports when given 0 */

    jmp_buf *recover;      /* set by clinic_process() */
    StrBuf diagnostics;    /* "FILE:LINE: error|warning: ...\n" lines */
    /* what Python code printed outside a python block's own run (a
       converter's method, as clinic.py's go to its standard output) */
    StrBuf printed;
    int errors;
    bool out_of_memory;    /* the last clinic_process() ran out of it */
    /* The error clinic_fail() raised last, apart: its line (-1: the
       file as a whole) and its message (arena). */
    int error_line;
    const char *error_message;

    /* The namespace the DSL fills: modules, classes, functions (for
       cloning) in declaration order.  See model.h. */
    Module *root;          /* pseudo-module holding the top level */
    Function **functions;
    size_t nfunctions, capfunctions;

    ConverterRegistry *converters;
    Router *router;
    CppMonitor *cpp;
    DslState *dsl;

    /* What the code is written for (target.h), and the line of the
       input's "#define Py_LIMITED_API" (0: none): the functions after it
       may use only what the target can write with the Limited API. */
    const Target *target;
    int limited_api_line;

    /* The input's line endings and BOM (textform.h), and the caller's
       reader: options.read_file is replaced by one that hands the
       library universal-newline text. */
    TextForm form;
    ClinicReadFn read_raw;
    void *read_raw_userdata;

    /* Result of clinic_process(). */
    const char *output;    /* in the input's form; the input's very bytes
                              (the input itself, not a copy) when its
                              text (line endings aside) is unchanged */
    size_t output_len;
    ClinicOutputFile *files;
    size_t nfiles;
    /* Every block of the file in order, as the driver met it (clinic.h),
       for the query modes. */
    struct ClinicBlock *blocks;
    size_t nblocks, capblocks;

    /* gen.c: full names of the functions that already got their
       "#ifndef NAME_METHODDEF" (clinic.py's Clinic.ifndef_symbols). */
    const char **ifndef_symbols;
    size_t nifndef_symbols, capifndef_symbols;

    /* gen_includes.c: the #includes the generated code needs so far
       (3.13's CodeGen.add_include), printed atop routed files when the
       dialect says so. */
    struct IncludeList *includes;
    /* The file asks for the Limited C API (3.13: it defines
       Py_LIMITED_API); set by clinic_process(). */
    bool limited_capi;
} Clinic;

/* A step whose intermediate text is dropped when it ends: between begin
   and end, c->arena is the scratch arena, and end resets it.  What the
   step keeps, the caller copies to c->file_arena after end; stages that
   may run inside such a step put what outlives it there themselves.  An
   error in the step longjmps past end: the driver's recovery points go
   back to the file's arena.  Inside a step, begin and end do nothing. */
void clinic_scratch_begin(Clinic *c);
void clinic_scratch_end(Clinic *c);

/* Raise an error at line (0: c->line).  Never returns. */
CLINIC_NORETURN void clinic_fail(Clinic *c, int line, const char *fmt, ...)
    CLINIC_PRINTF(3, 4);
void clinic_warn(Clinic *c, int line, const char *fmt, ...)
    CLINIC_PRINTF(3, 4);
/* clinic_fail, and after the error a note at the same line, GCC's
   "FILE:LINE: note: NOTE": what the reference's words leave out (a
   did-you-mean, where a mismatch starts).  NULL note: none. */
CLINIC_NORETURN void clinic_fail_note(Clinic *c, int line, const char *note,
                                      const char *fmt, ...)
    CLINIC_PRINTF(4, 5);

#endif
