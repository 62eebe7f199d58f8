/*
 * main.c — the clinic command line, compatible with clinic.py's main():
 * options, the --make walk, --check and --diff, diagnostics and exit
 * status.  All real work is in lib/: per file, read it (io.c), run
 * clinic_process() on the text, then write the results atomically (or
 * only report what would change).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "block.h"
#include "clinic.h"
#include "converters.h"
#include "diff.h"
#include "io.h"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: clinic [-h] [-f] [-o OUTPUT] [-v] [--converters] [--make]\n"
    "              [--srcdir SRCDIR] [--exclude EXCLUDE] [--check] [--diff]\n"
    "              [--version]\n"
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
    "                        (.c .cc .cpp .cxx .h .hh .hpp .hxx)\n"
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
    "  --converters          list the converters and return converters, "
    "then exit\n"
    "  --make                Walk --srcdir to run over all relevant files.\n"
    "                        (.c and .h files holding a clinic block; .svn,\n"
    "                        .git, .hg, build and externals are skipped)\n"
    "  --srcdir SRCDIR       The directory tree to walk in --make mode.\n"
    "  --exclude EXCLUDE     a file to exclude in --make mode (relative\n"
    "                        to --srcdir); can be given multiple times\n"
    "  --check               write nothing; print the files that would "
    "change\n"
    "  --diff                write nothing; print a unified diff of what\n"
    "                        would change\n"
    "  --version             show the version and exit\n"
    "\n"
    "exit status:\n"
    "  0  success (nothing to change, or everything written)\n"
    "  1  an error in some file, or --check/--diff found files to change\n"
    "  2  usage error\n";

typedef struct Options {
    bool force, verbose, converters, make, check, diff;
    const char *output;
    const char *srcdir;
    const char **excludes;
    size_t nexcludes;
    const char **files;
    size_t nfiles;
} Options;

/* ---- the command line ------------------------------------------------ */

static void usage_error(const char *message)
{
    if (message)
        fprintf(stderr, "Usage error: %s\n\n", message);
    fputs(usage_text, stderr);
    exit(EXIT_USAGE);
}

/* argparse's own errors: usage, then "clinic: error: ...". */
static void argparse_error(const char *fmt, const char *arg,
                           const char *arg2)
{
    fputs(usage_text, stderr);
    fputs("clinic: error: ", stderr);
    fprintf(stderr, fmt, arg, arg2);
    fputc('\n', stderr);
    exit(EXIT_USAGE);
}

typedef enum OptionId {
    OPT_HELP, OPT_FORCE, OPT_OUTPUT, OPT_VERBOSE, OPT_CONVERTERS, OPT_MAKE,
    OPT_SRCDIR, OPT_EXCLUDE, OPT_CHECK, OPT_DIFF, OPT_VERSION,
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
    {OPT_CONVERTERS, "converters", "--converters", false, 0},
    {OPT_MAKE, "make", "--make", false, 0},
    {OPT_SRCDIR, "srcdir", "--srcdir", true, 0},
    {OPT_EXCLUDE, "exclude", "--exclude", true, 0},
    {OPT_CHECK, "check", "--check", false, 0},
    {OPT_DIFF, "diff", "--diff", false, 0},
    {OPT_VERSION, "version", "--version", false, 0},
};
#define NLONG (sizeof long_options / sizeof *long_options)

static void set_option(Options *o, const LongOption *opt, const char *arg)
{
    switch (opt->id) {
    case OPT_HELP:
        fputs(usage_text, stdout);
        fputs(help_text, stdout);
        exit(EXIT_OK);
    case OPT_VERSION:
        printf("clinic %s\n", CLINIC_VERSION);
        exit(EXIT_OK);
    case OPT_FORCE:
        o->force = true;
        break;
    case OPT_OUTPUT:
        o->output = arg;
        break;
    case OPT_VERBOSE:
        o->verbose = true;
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
    }
}

/* A long option by its full name or an unambiguous prefix (argparse's
   allow_abbrev). */
static const LongOption *find_long(const char *name, size_t n)
{
    const LongOption *found = NULL;
    char candidates[256] = "";
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

static void parse_args(int argc, char **argv, Options *o)
{
    bool only_files = false;
    o->srcdir = ".";
    o->files = xcalloc((size_t)argc + 1, sizeof *o->files);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_files || a[0] != '-' || a[1] == '\0') {
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
                else if (i + 1 < argc &&
                         (argv[i + 1][0] != '-' || argv[i + 1][1] == '\0'))
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
            if (!opt) {
                argparse_error("unrecognized arguments: %s%s", a, "");
            }
            if (!opt->takes_arg) {
                set_option(o, opt, NULL);
                continue;
            }
            const char *arg = p[1] ? p + 1 : NULL;
            if (!arg) {
                if (i + 1 < argc &&
                    (argv[i + 1][0] != '-' || argv[i + 1][1] == '\0'))
                    arg = argv[++i];
                else
                    argparse_error("argument %s: expected one argument",
                                   opt->display, "");
            }
            set_option(o, opt, arg);
            break;
        }
    }
}

/* ---- one file -------------------------------------------------------- */

static void file_error(const char *path, const char *message)
{
    fflush(stdout);
    fprintf(stderr, "%s: error: %s\n", path, message);
}

/* Reads path's bytes; NULL (and *missing) when it does not exist, NULL
   and an error printed on other failures. */
static char *read_bytes(const char *path, size_t *len, bool *missing)
{
    char *data;
    *missing = false;
    if (io_read_file(path, &data, len) == 0)
        return data;
    if (errno == ENOENT) {
        *missing = true;
        return NULL;
    }
    file_error(path, strerror(errno));
    return NULL;
}

/* --check / --diff for one file that would change. */
static void report_change(const Options *o, const char *path,
                          const char *new_text, size_t new_len)
{
    if (o->check)
        printf("%s\n", path);
    if (!o->diff)
        return;
    bool missing;
    size_t old_len = 0;
    char *old = read_bytes(path, &old_len, &missing);
    StrBuf out = STRBUF_INIT;
    size_t n = strlen(path) + 3;
    char *a_label = xmalloc(n), *b_label = xmalloc(n);
    snprintf(a_label, n, "a/%s", path);
    snprintf(b_label, n, "b/%s", path);
    diff_unified(&out, old ? a_label : "/dev/null", old ? old : "", old_len,
                 b_label, new_text, new_len);
    fwrite(out.buf, 1, out.len, stdout);
    sb_free(&out);
    free(a_label);
    free(b_label);
    free(old);
}

/* clinic.py's parse_file() and write_file() for one input.  Returns
   EXIT_OK, or EXIT_FAILED after an error or (--check/--diff) when
   something would change. */
static int process_file(const Options *o, const char *path,
                        const char *output_path)
{
    if (o->verbose) {
        printf("%s\n", path);
        fflush(stdout);
    }

    Arena *scratch = arena_new();
    const char *language_error = block_language_error(scratch, path);
    if (language_error) {
        file_error(path, language_error);
        arena_free(scratch);
        return EXIT_FAILED;
    }
    arena_free(scratch);

    char *text;
    size_t len;
    if (io_read_file(path, &text, &len) < 0) {
        file_error(path, strerror(errno));
        return EXIT_FAILED;
    }
    char why[256];
    if (!io_check_utf8(text, len, why, sizeof why)) {
        file_error(path, why);
        free(text);
        return EXIT_FAILED;
    }
    /* The library takes the bytes as they are: it reads them as
       universal newlines and hands back its result in the file's own
       line endings (and BOM), or the very same bytes when the text is
       unchanged; so comparing bytes below is write_file()'s text-mode
       comparison.  parse_file's quick exit: no marker, nothing to do
       (not even -o). */
    if (!block_has_start_marker(text, len)) {
        free(text);
        return EXIT_OK;
    }

    ClinicOptions copts = {0};
    copts.force = o->force;
    copts.verbose = o->verbose;
    copts.read_file = io_clinic_read;
    Clinic *c = clinic_new(path, &copts);
    int rc = clinic_process(c, text, len);
    if (c->diagnostics.len) {
        fflush(stdout);
        fwrite(c->diagnostics.buf, 1, c->diagnostics.len, stderr);
    }
    if (rc != 0) {
        clinic_free(c);
        free(text);
        return EXIT_FAILED;
    }

    /* What changes: the target (byte for byte: for the input itself that
       is a text-mode comparison, see above) and the routed files the
       library found changed. */
    const char *target = output_path ? output_path : path;
    bool changed;
    if (output_path) {
        bool missing;
        size_t old_len;
        char *old = read_bytes(output_path, &old_len, &missing);
        if (!old && !missing) {
            clinic_free(c);
            free(text);
            return EXIT_FAILED;
        }
        changed = !old || old_len != c->output_len ||
                  memcmp(old, c->output, old_len) != 0;
        free(old);
    } else {
        changed = len != c->output_len || memcmp(text, c->output, len) != 0;
    }

    int status = EXIT_OK;
    if (o->check || o->diff) {
        for (size_t i = 0; i < c->nfiles; i++)
            if (c->files[i].changed) {
                report_change(o, c->files[i].path, c->files[i].text,
                              c->files[i].len);
                status = EXIT_FAILED;
            }
        if (changed) {
            report_change(o, target, c->output, c->output_len);
            status = EXIT_FAILED;
        }
    } else {
        IoCommit *commit = io_commit_new();
        for (size_t i = 0; i < c->nfiles; i++)
            if (c->files[i].changed)
                io_commit_add(commit, c->files[i].path, c->files[i].text,
                              c->files[i].len, true);
        if (changed)
            io_commit_add(commit, target, c->output, c->output_len, false);
        IoError err;
        if (io_commit_run(commit, &err) < 0) {
            file_error(err.path, err.message);
            status = EXIT_FAILED;
        }
        io_commit_free(commit);
    }
    clinic_free(c);
    free(text);
    return status;
}

/* ---- --make ---------------------------------------------------------- */

/* os.path.normpath, for comparing paths with the --exclude list. */
static char *normpath(const char *path)
{
    size_t n = strlen(path);
    char *out = xmalloc(n + 2);
    char **parts = xmalloc((n + 1) * sizeof *parts);
    char *copy = xstrdup(path);
    size_t nparts = 0;
    bool absolute = path[0] == '/';
    for (char *tok = strtok(copy, "/"); tok; tok = strtok(NULL, "/")) {
        if (strcmp(tok, ".") == 0)
            continue;
        if (strcmp(tok, "..") == 0 &&
            ((nparts > 0 && strcmp(parts[nparts - 1], "..") != 0) ||
             absolute)) {
            if (nparts > 0)
                nparts--;
            continue;
        }
        parts[nparts++] = tok;
    }
    out[0] = '\0';
    if (absolute)
        strcat(out, "/");
    for (size_t i = 0; i < nparts; i++) {
        if (i)
            strcat(out, "/");
        strcat(out, parts[i]);
    }
    if (!out[0])
        strcpy(out, ".");
    free(parts);
    free(copy);
    return out;
}

/* os.path.join(a, b) */
static char *path_join(const char *a, const char *b)
{
    size_t n = strlen(a);
    char *p = xmalloc(n + strlen(b) + 2);
    if (b[0] == '/')
        strcpy(p, b);
    else if (n == 0 || a[n - 1] == '/')
        sprintf(p, "%s%s", a, b);
    else
        sprintf(p, "%s/%s", a, b);
    return p;
}

static int compare_names(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* os.walk(srcdir), top-down, names sorted so runs are reproducible;
   version-control and build directories are skipped, as are symlinked
   directories (os.walk does not follow links). */
static int walk(const Options *o, char **excludes, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return EXIT_OK;   /* os.walk ignores what it cannot list */
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            names = xrealloc(names, cap * sizeof *names);
        }
        names[n++] = xstrdup(de->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, compare_names);

    int status = EXIT_OK;
    bool *is_dir = xcalloc(n ? n : 1, sizeof *is_dir);
    for (size_t i = 0; i < n; i++) {
        char *path = path_join(dir, names[i]);
        struct stat st;
        is_dir[i] = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
        if (!is_dir[i] && (ends_with(names[i], ".c") ||
                           ends_with(names[i], ".h"))) {
            char *norm = normpath(path);
            bool excluded = false;
            for (size_t k = 0; k < o->nexcludes; k++)
                if (strcmp(norm, excludes[k]) == 0)
                    excluded = true;
            free(norm);
            if (!excluded && process_file(o, path, NULL) != EXIT_OK)
                status = EXIT_FAILED;
        }
        free(path);
    }
    static const char *const skipped[] = {".svn", ".git", ".hg", "build",
                                          "externals"};
    for (size_t i = 0; i < n; i++) {
        if (!is_dir[i])
            continue;
        bool skip = false;
        for (size_t k = 0; k < sizeof skipped / sizeof *skipped; k++)
            if (strcmp(names[i], skipped[k]) == 0)
                skip = true;
        char *path = path_join(dir, names[i]);
        struct stat st;
        if (!skip && lstat(path, &st) == 0 && !S_ISLNK(st.st_mode) &&
            walk(o, excludes, path) != EXIT_OK)
            status = EXIT_FAILED;
        free(path);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(is_dir);
    return status;
}

static int run_make(const Options *o)
{
    struct stat st;
    if (stat(o->srcdir, &st) < 0) {
        file_error(o->srcdir, strerror(errno));
        return EXIT_FAILED;
    }
    if (!S_ISDIR(st.st_mode)) {
        file_error(o->srcdir, strerror(ENOTDIR));
        return EXIT_FAILED;
    }
    char **excludes = xcalloc(o->nexcludes + 1, sizeof *excludes);
    for (size_t i = 0; i < o->nexcludes; i++) {
        char *joined = path_join(o->srcdir, o->excludes[i]);
        excludes[i] = normpath(joined);
        free(joined);
    }
    int status = walk(o, excludes, o->srcdir);
    for (size_t i = 0; i < o->nexcludes; i++)
        free(excludes[i]);
    free(excludes);
    return status;
}

/* ---- main ------------------------------------------------------------ */

int main(int argc, char **argv)
{
    Options o = {0};
    parse_args(argc, argv, &o);

    if (o.converters) {
        if (o.nfiles)
            usage_error("can't specify --converters and a filename at the "
                        "same time.");
        StrBuf out = STRBUF_INIT;
        converters_print(&out);
        fwrite(out.buf, 1, out.len, stdout);
        sb_free(&out);
        return EXIT_OK;
    }

    int status = EXIT_OK;
    if (o.make) {
        if (o.output || o.nfiles)
            usage_error("can't use -o or filenames with --make.");
        if (!o.srcdir[0])
            usage_error("--srcdir must not be empty with --make.");
        status = run_make(&o);
    } else {
        if (!o.nfiles)
            usage_error(NULL);
        if (o.output && o.nfiles > 1)
            usage_error("can't use -o with multiple filenames.");
        for (size_t i = 0; i < o.nfiles; i++)
            if (process_file(&o, o.files[i], o.output) != EXIT_OK)
                status = EXIT_FAILED;
    }
    free(o.files);
    free(o.excludes);
    fflush(stdout);
    return status;
}
