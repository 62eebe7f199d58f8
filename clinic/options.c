/*
 * options.c — the command line, compatible with clinic.py's argparse
 * parser (the same options, messages and abbreviations), plus ours:
 * -q, --check, --diff, --dry-run (3.14's), --exit-non-zero-on-write,
 * --exclude, --stdin-filename, --version, --dialect, --limited, --target,
 * "-" for standard input, and the query modes --list (CPython's own
 * since 2026), --json, --stats and --docstring.
 */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CLINIC_COMMIT           /* given by the Makefile */
#define CLINIC_COMMIT ""
#endif


static const char usage_text[] =
    "usage: clinic [-h] [-f] [-o OUTPUT] [-v] [-q] [--converters] [--make]\n"
    "              [--srcdir SRCDIR] [--exclude EXCLUDE] [--check] [--diff]\n"
    "              [--dry-run] [--exit-non-zero-on-write]\n"
    "              [--stdin-filename NAME]\n"
    "              [-j JOBS]\n"
    "              [--list | --json | --stats | --docstring NAME]\n"
    "              [--dialect {3.11,3.13,3.14,3.15}] [--limited]\n"
    "              [--version]\n"
    "              [--target {3.11,portable}]\n"
    "              [filename ...]\n";

static const char help_text[] =
    "\n"
    "Preprocessor for CPython C files.\n"
    "\n"
    "The purpose of the Argument Clinic is automating all the boilerplate "
    "involved\n"
    "with writing argument parsing code for builtins and providing "
    "introspection\n"
    "signatures (\"docstrings\") for CPython builtins.\n"
    "\n"
    "For more information see https://docs.python.org/3/howto/clinic.html\n"
    "\n"
    "positional arguments:\n"
    "  filename              the C files to process\n"
    "                        (.c .cc .cpp .cxx .h .hh .hpp .hxx); - reads\n"
    "                        standard input and writes the result to\n"
    "                        standard output\n"
    "\n"
    "options:\n"
    "  -h, --help            show this help message and exit\n"
    "  -f, --force           do not verify the checksums of existing "
    "output\n"
    "  -o OUTPUT, --output OUTPUT\n"
    "                        write the result to OUTPUT (one input file "
    "only)\n"
    "  -v, --verbose         print the name of each file as it is "
    "processed\n"
    "  -q, --quiet           print only errors and warnings (no summary,\n"
    "                        no list of files under --check)\n"
    "  --converters          list the converters and return converters, "
    "then exit\n"
    "  --make                Walk --srcdir to run over all relevant files.\n"
    "                        (.c and .h files holding a clinic block, and\n"
    "                        .cpp files in the 3.13 dialect; .svn, .git,\n"
    "                        .hg, build and externals are skipped)\n"
    "  --srcdir SRCDIR       The directory tree to walk in --make mode.\n"
    "  --exclude EXCLUDE     a file or directory to skip in --make mode\n"
    "                        (relative to --srcdir, or absolute); can be\n"
    "                        given multiple times\n"
    "  --check               write nothing; list the files that would "
    "change\n"
    "  --diff                write nothing; print a unified diff of what\n"
    "                        would change (git apply, patch -p1)\n"
    "  --dry-run             write nothing; list the files that would\n"
    "                        change (\"would create PATH\", \"would update\n"
    "                        PATH\"), sorted, after all files, as 3.14's\n"
    "                        clinic.py does; the exit status is 0 all the\n"
    "                        same\n"
    "  --exit-non-zero-on-write\n"
    "                        exit with status 1 when a file was written\n"
    "                        (for pre-commit hooks)\n"
    "  -j JOBS, --jobs JOBS  work on JOBS files at a time (default: one per\n"
    "                        processor; 1: one after another); output and\n"
    "                        messages come in the same order either way\n"
    "  --stdin-filename NAME the name of the file read from standard input,\n"
    "                        for messages and its routed files (default:\n"
    "                        stdin.c)\n"
    "  --list                write nothing; list the modules, classes and\n"
    "                        functions each file declares, with signatures\n"
    "  --json                write nothing; print what the files declare as\n"
    "                        one JSON document (see clinic(1) and\n"
    "                        schema/clinic-query.schema.json)\n"
    "  --stats               write nothing; print counts of functions,\n"
    "                        parameters, converters and parsing methods\n"
    "  --docstring NAME      write nothing; print the docstring clinic\n"
    "                        writes for the function with full dotted name\n"
    "                        NAME\n"
    "  --dialect {3.11,3.13,3.14,3.15}\n"
    "                        the Argument Clinic to reproduce: CPython\n"
    "                        3.11's, 3.13's, 3.14's or 3.15's.  Default: the\n"
    "                        version in the Include/patchlevel.h of the\n"
    "                        CPython tree that holds the file (or --srcdir),\n"
    "                        else 3.11\n"
    "  --limited             3.13: use the Limited C API in every file (as\n"
    "                        in a file that defines Py_LIMITED_API)\n"
    "  --target {3.11,portable}\n"
    "                        what the code is written for: 3.11 (the\n"
    "                        default) is CPython's own build, the code of\n"
    "                        the dialect's clinic.py; portable builds on\n"
    "                        any CPython from 3.9 on, and as abi3 where the\n"
    "                        file defines Py_LIMITED_API (0x030A0000 or\n"
    "                        later), including the header clinic_portable.h\n"
    "                        it writes beside the code; it is the 3.11\n"
    "                        dialect's code rewritten (not with --dialect\n"
    "                        3.13).  A file's \"target NAME\" directive wins\n"
    "                        over this option\n"
    "  --version             show the version and the dialects, and exit\n"
    "\n"
    "examples:\n"
    "  clinic --list Modules/_collectionsmodule.c\n"
    "  clinic --json --make --srcdir . | jq '.stats.parsers'\n"
    "  clinic --docstring _collections.deque.rotate --make --srcdir .\n"
    "\n"
    "exit status:\n"
    "  0  nothing to change, or everything written\n"
    "  1  --check/--diff: a file would change (not --dry-run); with\n"
    "     --exit-non-zero-on-write: a file was written\n"
    "  2  an error in a file, in writing it, or on the command line;\n"
    "     --docstring: no function of that name\n";

void exit_flushing(int status)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno;
        fprintf(stderr, "clinic: error: can't write to standard output: "
                "%s\n", strerror(e ? e : EIO));
        status = EXIT_ERROR;
    }
    exit(status);
}

void usage_error(const char *message)
{
    if (message)
        fprintf(stderr, "Usage error: %s\n\n", message);
    fputs(usage_text, stderr);
    exit(EXIT_ERROR);
}

/* argparse's own errors: usage, then "clinic: error: ...". */
static void argparse_error(const char *fmt, const char *arg,
                           const char *arg2)
{
    fputs(usage_text, stderr);
    fputs("clinic: error: ", stderr);
    fprintf(stderr, fmt, arg, arg2);
    fputc('\n', stderr);
    exit(EXIT_ERROR);
}

typedef enum OptionId {
    OPT_HELP, OPT_FORCE, OPT_OUTPUT, OPT_VERBOSE, OPT_QUIET, OPT_CONVERTERS,
    OPT_MAKE, OPT_SRCDIR, OPT_EXCLUDE, OPT_CHECK, OPT_DIFF, OPT_DRY_RUN,
    OPT_EXIT_ON_WRITE, OPT_STDIN_FILENAME, OPT_VERSION, OPT_JOBS,
    OPT_LIST, OPT_JSON, OPT_STATS, OPT_DOCSTRING, OPT_DIALECT, OPT_LIMITED,
    OPT_TARGET,
} OptionId;

typedef struct LongOption {
    OptionId id;
    const char *name;
    const char *display;   /* for messages: "-o/--output" */
    bool takes_arg;
    char short_name;
} LongOption;

static const LongOption long_options[] = {
    {OPT_HELP, "help", "-h/--help", false, 'h'},
    {OPT_FORCE, "force", "-f/--force", false, 'f'},
    {OPT_OUTPUT, "output", "-o/--output", true, 'o'},
    {OPT_VERBOSE, "verbose", "-v/--verbose", false, 'v'},
    {OPT_QUIET, "quiet", "-q/--quiet", false, 'q'},
    {OPT_CONVERTERS, "converters", "--converters", false, 0},
    {OPT_MAKE, "make", "--make", false, 0},
    {OPT_SRCDIR, "srcdir", "--srcdir", true, 0},
    {OPT_EXCLUDE, "exclude", "--exclude", true, 0},
    {OPT_CHECK, "check", "--check", false, 0},
    {OPT_DIFF, "diff", "--diff", false, 0},
    {OPT_DRY_RUN, "dry-run", "--dry-run", false, 0},
    {OPT_EXIT_ON_WRITE, "exit-non-zero-on-write", "--exit-non-zero-on-write",
     false, 0},
    {OPT_STDIN_FILENAME, "stdin-filename", "--stdin-filename", true, 0},
    {OPT_VERSION, "version", "--version", false, 0},
    {OPT_JOBS, "jobs", "-j/--jobs", true, 'j'},
    {OPT_LIST, "list", "--list", false, 0},
    {OPT_JSON, "json", "--json", false, 0},
    {OPT_STATS, "stats", "--stats", false, 0},
    {OPT_DOCSTRING, "docstring", "--docstring", true, 0},
    {OPT_DIALECT, "dialect", "--dialect", true, 0},
    {OPT_LIMITED, "limited", "--limited", false, 0},
    {OPT_TARGET, "target", "--target", true, 0},
};
#define NLONG (sizeof long_options / sizeof *long_options)

static void set_option(Options *o, const LongOption *opt, const char *arg)
{
    switch (opt->id) {
    case OPT_HELP:
        fputs(usage_text, stdout);
        fputs(help_text, stdout);
        exit_flushing(EXIT_OK);
    case OPT_VERSION:
        /* the commit (git describe) when built from a checkout that is
           not at the version's tag; see CLINIC_COMMIT in the Makefile */
        printf(CLINIC_COMMIT[0] ? "clinic %s (git %s)\n" : "clinic %s%s\n",
               CLINIC_VERSION, CLINIC_COMMIT);
        for (size_t i = 0; dialects[i]; i++)
            printf("dialect %s: %s%s\n", dialects[i]->name,
                   dialects[i]->reference,
                   dialects[i] == dialect_default() ? " (the default)" : "");
        exit_flushing(EXIT_OK);
    case OPT_DIALECT:
        o->dialect = dialect_find(arg);
        if (!o->dialect) {
            char choices[128] = "";
            for (size_t i = 0; dialects[i]; i++)
                snprintf(choices + strlen(choices),
                         sizeof choices - strlen(choices), "%s'%s'",
                         i ? ", " : "", dialects[i]->name);
            argparse_error("argument --dialect: invalid choice: '%s' "
                           "(choose from %s)", arg, choices);
        }
        break;
    case OPT_LIMITED:
        o->limited = true;
        break;
    case OPT_FORCE:
        o->force = true;
        break;
    case OPT_OUTPUT:
        o->output = arg;
        break;
    case OPT_VERBOSE:
        o->verbose = true;
        break;
    case OPT_QUIET:
        o->quiet = true;
        break;
    case OPT_CONVERTERS:
        o->converters = true;
        break;
    case OPT_MAKE:
        o->make = true;
        break;
    case OPT_SRCDIR:
        o->srcdir = arg;
        break;
    case OPT_EXCLUDE:
        o->excludes = xrealloc(o->excludes,
                              (o->nexcludes + 1) * sizeof *o->excludes);
        o->excludes[o->nexcludes++] = arg;
        break;
    case OPT_CHECK:
        o->check = true;
        break;
    case OPT_DIFF:
        o->diff = true;
        break;
    case OPT_DRY_RUN:
        o->dry_run = true;
        break;
    case OPT_EXIT_ON_WRITE:
        o->exit_on_write = true;
        break;
    case OPT_STDIN_FILENAME:
        o->stdin_filename = arg;
        break;
    case OPT_JOBS: {
        /* argparse's type=int: blanks around the number and a sign
           are accepted */
        char *end;
        errno = 0;
        long n = strtol(arg, &end, 10);
        while (*end == ' ' || *end == '\t' || *end == '\n')
            end++;
        if (end == arg || *end || errno)
            argparse_error("argument %s: invalid int value: '%s'",
                           opt->display, arg);
        if (n < 1 || n > MAX_JOBS) {
            char limit[32];
            snprintf(limit, sizeof limit, "%d", MAX_JOBS);
            argparse_error("argument %s: must be from 1 to %s",
                           opt->display, limit);
        }
        o->jobs = (size_t)n;
        break;
    }
    case OPT_TARGET:
        o->target = target_find(arg);
        if (!o->target) {
            char names[128] = "";
            for (size_t i = 0; targets[i]; i++)
                snprintf(names + strlen(names), sizeof names - strlen(names),
                         "%s'%s'", i ? ", " : "", targets[i]->name);
            argparse_error("argument --target: invalid choice: '%s' (choose "
                           "from %s)", arg, names);
        }
        break;
    case OPT_LIST:
    case OPT_JSON:
    case OPT_STATS:
    case OPT_DOCSTRING: {
        static const QueryMode modes[] = {
            [OPT_LIST] = QUERY_LIST, [OPT_JSON] = QUERY_JSON,
            [OPT_STATS] = QUERY_STATS, [OPT_DOCSTRING] = QUERY_DOCSTRING,
        };
        if (o->query && o->query != modes[opt->id])
            usage_error("--list, --json, --stats and --docstring go one at "
                        "a time.");
        o->query = modes[opt->id];
        if (opt->id == OPT_DOCSTRING)
            o->docstring_name = arg;
        break;
    }
    }
}

/* A long option by its full name or an unambiguous prefix (argparse's
   allow_abbrev). */
static const LongOption *find_long(const char *name, size_t n)
{
    const LongOption *found = NULL;
    char candidates[512] = "";
    int matches = 0;
    for (size_t i = 0; i < NLONG; i++) {
        const char *full = long_options[i].name;
        if (strncmp(full, name, n) != 0)
            continue;
        if (full[n] == '\0')
            return &long_options[i];
        found = &long_options[i];
        if (matches++)
            strcat(candidates, ", ");
        strcat(candidates, "--");
        strcat(candidates, full);
    }
    if (matches > 1) {
        char given[128];
        snprintf(given, sizeof given, "--%.*s", (int)(n < 100 ? n : 100),
                 name);
        argparse_error("ambiguous option: %s could match %s", given,
                       candidates);
    }
    return found;
}

/* Does argv[i] look like an option's argument?  argparse takes "-" as
   one, and nothing else that starts with "-". */
static bool is_argument(const char *a)
{
    return a[0] != '-' || a[1] == '\0';
}

void options_parse(int argc, char **argv, Options *o)
{
    bool only_files = false;
    o->srcdir = ".";
    o->files = xcalloc((size_t)argc + 1, sizeof *o->files);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_files || is_argument(a)) {
            o->files[o->nfiles++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_files = true;
            continue;
        }
        if (a[1] == '-') {
            const char *name = a + 2;
            const char *eq = strchr(name, '=');
            size_t n = eq ? (size_t)(eq - name) : strlen(name);
            const LongOption *opt = find_long(name, n);
            if (!opt)
                argparse_error("unrecognized arguments: %s%s", a, "");
            const char *arg = NULL;
            if (opt->takes_arg) {
                if (eq)
                    arg = eq + 1;
                else if (i + 1 < argc && is_argument(argv[i + 1]))
                    arg = argv[++i];
                else
                    argparse_error("argument %s: expected one argument",
                                   opt->display, "");
            } else if (eq) {
                argparse_error("argument %s: ignored explicit argument '%s'",
                               opt->display, eq + 1);
            }
            set_option(o, opt, arg);
            continue;
        }
        /* short options, possibly combined: -fv, -oFILE */
        for (const char *p = a + 1; *p; p++) {
            const LongOption *opt = NULL;
            for (size_t k = 0; k < NLONG; k++)
                if (long_options[k].short_name == *p)
                    opt = &long_options[k];
            if (!opt)
                argparse_error("unrecognized arguments: %s%s", a, "");
            if (!opt->takes_arg) {
                set_option(o, opt, NULL);
                continue;
            }
            const char *arg = p[1] ? p + 1 : NULL;
            if (!arg) {
                if (i + 1 < argc && is_argument(argv[i + 1]))
                    arg = argv[++i];
                else
                    argparse_error("argument %s: expected one argument",
                                   opt->display, "");
            }
            set_option(o, opt, arg);
            break;
        }
    }
    /* clinic.py: "if not output: output = filename", so -o "" writes the
       file in place */
    if (o->output && !*o->output)
        o->output = NULL;
    for (size_t i = 0; i < o->nfiles; i++)
        if (!strcmp(o->files[i], "-"))
            o->from_stdin = true;
    if (!o->stdin_filename)
        o->stdin_filename = "stdin.c";
}

void options_free(Options *o)
{
    free(o->files);
    free(o->excludes);
}
