/*
 * main.c — the clinic command line, compatible with clinic.py's main():
 * options, the --make walk, --check and --diff, diagnostics and exit
 * status.  All real work is in lib/: per file, read it (io.c), run
 * clinic_process() on the text, then write the results atomically (or
 * only report what would change).  With several files (--make, or more
 * than one FILE) the work on them runs on one thread per processor, while
 * printing, writing and directory listing stay in file order on the main
 * thread, so the output, the files written and the exit status are those
 * of the sequential run (see "the files, worked on in parallel").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <pthread.h>
#include <unistd.h>

#include "block.h"
#include "clinic.h"
#include "converters.h"
#include "diff.h"
#include "io.h"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: clinic [-h] [-f] [-o OUTPUT] [-v] [--converters] [--make]\n"
    "              [--srcdir SRCDIR] [--exclude EXCLUDE] [--check] [--diff]\n"
    "              [--dialect {3.11,3.13}] [--limited] [--version]\n"
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
    "  --dialect {3.11,3.13}\n"
    "                        the Argument Clinic to reproduce: CPython 3.11's\n"
    "                        or 3.13's.  Default: the version in the\n"
    "                        Include/patchlevel.h of the CPython tree that\n"
    "                        holds the file (or --srcdir), else 3.11\n"
    "  --limited             3.13: use the Limited C API in every file (as\n"
    "                        in a file that defines Py_LIMITED_API)\n"
    "  --version             show the version and the dialects, and exit\n"
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
    const Dialect *dialect;    /* --dialect; NULL: each file's tree says */
    bool limited;              /* --limited */
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
    OPT_SRCDIR, OPT_EXCLUDE, OPT_CHECK, OPT_DIFF, OPT_VERSION, OPT_DIALECT,
    OPT_LIMITED,
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
    {OPT_DIALECT, "dialect", "--dialect", true, 0},
    {OPT_LIMITED, "limited", "--limited", false, 0},
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
        for (size_t i = 0; dialects[i]; i++)
            printf("dialect %s: %s%s\n", dialects[i]->name,
                   dialects[i]->reference,
                   dialects[i] == dialect_default() ? " (the default)" : "");
        exit(EXIT_OK);
    case OPT_LIMITED:
        o->limited = true;
        break;
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

/* ---- what one file says, held until its turn ------------------------ */

/* Files are worked on in parallel (below) but everything they print must
   come out as the sequential run prints it: each file's output is kept
   here, in order, each piece marked for stdout or stderr, and written when
   the file's turn comes. */
typedef struct Report {
    StrBuf text;
    size_t *ends;        /* end offset of each piece in text */
    bool *to_stderr;
    size_t n, cap;
} Report;

static void report_add(Report *r, bool to_stderr, const char *s, size_t n)
{
    if (n == 0)
        return;
    if (r->n && r->to_stderr[r->n - 1] == to_stderr) {
        sb_add(&r->text, s, n);
        r->ends[r->n - 1] = r->text.len;
        return;
    }
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 4;
        r->ends = xrealloc(r->ends, r->cap * sizeof *r->ends);
        r->to_stderr = xrealloc(r->to_stderr, r->cap * sizeof *r->to_stderr);
    }
    sb_add(&r->text, s, n);
    r->ends[r->n] = r->text.len;
    r->to_stderr[r->n] = to_stderr;
    r->n++;
}

static void report_adds(Report *r, bool to_stderr, const char *s)
{
    report_add(r, to_stderr, s, strlen(s));
}

/* Writes it out as the sequential run did: stdout is flushed before
   anything goes to stderr. */
static void report_emit(const Report *r)
{
    size_t start = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (r->to_stderr[i]) {
            fflush(stdout);
            fwrite(r->text.buf + start, 1, r->ends[i] - start, stderr);
        } else {
            fwrite(r->text.buf + start, 1, r->ends[i] - start, stdout);
        }
        start = r->ends[i];
    }
}

static void report_clear(Report *r)
{
    sb_free(&r->text);
    free(r->ends);
    free(r->to_stderr);
    memset(r, 0, sizeof *r);
}

static void report_file_error(Report *r, const char *path,
                              const char *message)
{
    report_adds(r, true, path);
    report_adds(r, true, ": error: ");
    report_adds(r, true, message);
    report_adds(r, true, "\n");
}

static void file_error(const char *path, const char *message)
{
    fflush(stdout);
    fprintf(stderr, "%s: error: %s\n", path, message);
}

/* ---- one file -------------------------------------------------------- */

/* A file the work on another may have read: by name (normalised), and by
   identity when it existed, so a second name for it is caught too. */
typedef struct FileRef {
    char *path;
    bool exists;
    dev_t dev;
    ino_t ino;
} FileRef;

typedef struct FileRefs {
    FileRef *refs;
    size_t n, cap;
} FileRefs;

static char *normpath(const char *path);

static void refs_add(FileRefs *set, const char *path)
{
    if (set->n == set->cap) {
        set->cap = set->cap ? 2 * set->cap : 4;
        set->refs = xrealloc(set->refs, set->cap * sizeof *set->refs);
    }
    FileRef *f = &set->refs[set->n++];
    struct stat st;
    f->path = normpath(path);
    f->exists = stat(path, &st) == 0;
    f->dev = f->exists ? st.st_dev : 0;
    f->ino = f->exists ? st.st_ino : 0;
}

static void refs_clear(FileRefs *set)
{
    for (size_t i = 0; i < set->n; i++)
        free(set->refs[i].path);
    free(set->refs);
    memset(set, 0, sizeof *set);
}

static bool refs_overlap(const FileRefs *a, const FileRefs *b)
{
    for (size_t i = 0; i < a->n; i++)
        for (size_t k = 0; k < b->n; k++) {
            const FileRef *x = &a->refs[i], *y = &b->refs[k];
            if (strcmp(x->path, y->path) == 0 ||
                (x->exists && y->exists && x->dev == y->dev &&
                 x->ino == y->ino))
                return true;
        }
    return false;
}

/* One input file: what running clinic on it prints and would write,
   worked out (possibly on another thread) before its turn to write. */
typedef struct Job {
    const char *path;
    const char *output_path;
    char *owned_path;          /* path, when the job owns it */
    /* results */
    int status;
    Report report;
    IoCommit *commit;          /* NULL: nothing to write */
    FileRefs reads;            /* every file the work looked at */
    char **write_paths;        /* the files its commit writes */
    size_t nwrites;
    FileRefs writes;           /* what they were before (kept for checks) */
    /* scheduling */
    bool started, done;
    size_t start_commit;       /* files committed when the work began */
} Job;

/* Reads path's bytes; NULL (and *missing) when it does not exist, NULL
   and an error reported on other failures. */
static char *read_bytes(Job *job, const char *path, size_t *len,
                        bool *missing)
{
    char *data;
    *missing = false;
    refs_add(&job->reads, path);
    if (io_read_file(path, &data, len) == 0)
        return data;
    if (errno == ENOENT) {
        *missing = true;
        return NULL;
    }
    report_file_error(&job->report, path, strerror(errno));
    return NULL;
}

/* The library's reader of other files, noting what it read. */
static int job_read_file(void *userdata, const char *path, char **data,
                         size_t *len)
{
    Job *job = userdata;
    refs_add(&job->reads, path);
    return io_clinic_read(NULL, path, data, len);
}

/* --check / --diff for one file that would change. */
static void report_change(const Options *o, Job *job, const char *path,
                          const char *new_text, size_t new_len)
{
    if (o->check) {
        report_adds(&job->report, false, path);
        report_adds(&job->report, false, "\n");
    }
    if (!o->diff)
        return;
    bool missing;
    size_t old_len = 0;
    char *old = read_bytes(job, path, &old_len, &missing);
    StrBuf out = STRBUF_INIT;
    size_t n = strlen(path) + 3;
    char *a_label = xmalloc(n), *b_label = xmalloc(n);
    snprintf(a_label, n, "a/%s", path);
    snprintf(b_label, n, "b/%s", path);
    diff_unified(&out, old ? a_label : "/dev/null", old ? old : "", old_len,
                 b_label, new_text, new_len);
    report_add(&job->report, false, out.buf, out.len);
    sb_free(&out);
    free(a_label);
    free(b_label);
    free(old);
}

static void commit_add(Job *job, const char *path, const char *data,
                       size_t len, bool make_dirs)
{
    if (!job->commit)
        job->commit = io_commit_new();
    io_commit_add(job->commit, path, data, len, make_dirs);
    job->write_paths = xrealloc(job->write_paths,
                                (job->nwrites + 1) * sizeof *job->write_paths);
    job->write_paths[job->nwrites++] = xstrdup(path);
}

/* clinic.py's parse_file() for one input, up to the writing: sets
   job->status to EXIT_OK, or EXIT_FAILED after an error or
   (--check/--diff) when something would change, and job->commit to what
   write_file() would write. */
/* A buffer each thread reads its files into, reused from file to file:
   most files are only looked at (no marker), and fresh memory for each
   would cost a page fault per page read. */
typedef struct ReadBuf {
    char *buf;
    size_t cap;
} ReadBuf;

/* io_read_file() into rb: 0 and the NUL-terminated bytes in rb->buf, or
   -1 with errno set. */
static int read_into(ReadBuf *rb, const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
        int e = errno;
        if (e == 0 || S_ISDIR(st.st_mode))
            e = EISDIR;
        close(fd);
        errno = e;
        return -1;
    }
    size_t n = 0;
    size_t want = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
    for (;;) {
        if (want > rb->cap || n + 1 >= rb->cap) {
            size_t cap = rb->cap ? rb->cap : 65536;
            while (cap < want || n + 1 >= cap)
                cap *= 2;
            rb->buf = xrealloc(rb->buf, cap);
            rb->cap = cap;
        }
        ssize_t got = read(fd, rb->buf + n, rb->cap - n - 1);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            close(fd);
            errno = e;
            return -1;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    rb->buf[n] = '\0';
    *len = n;
    return 0;
}

/* ---- the dialect of a CPython tree ---------------------------------- */

/* The dialect for the CPython tree that holds path (a file, or with
   is_dir a directory): the version in the Include/patchlevel.h of the
   nearest directory, going up, that has one; else the default. */
static const Dialect *dialect_of_tree(const char *path, bool is_dir)
{
    char *dir = realpath(path, NULL);
    if (!dir)
        return dialect_default();
    if (!is_dir) {
        char *slash = strrchr(dir, '/');
        if (slash)
            slash[slash == dir] = '\0';
    }
    const Dialect *found = NULL;
    char *header = xmalloc(strlen(dir) + sizeof "/Include/patchlevel.h");
    while (!found) {
        sprintf(header, "%s/Include/patchlevel.h", strcmp(dir, "/") ? dir : "");
        FILE *f = fopen(header, "rb");
        if (f) {
            char text[65536];
            size_t n = fread(text, 1, sizeof text, f);
            int major, minor;
            fclose(f);
            if (dialect_read_patchlevel(text, n, &major, &minor))
                found = dialect_for_version(major, minor);
        }
        char *slash = strrchr(dir, '/');
        if (!slash || strcmp(dir, "/") == 0)
            break;
        slash[slash == dir] = '\0';
    }
    free(header);
    free(dir);
    return found ? found : dialect_default();
}

/* The last guard before anything is written: no routed file is the
   input, or the -o target, under another name.  (The library refuses a
   destination that is the input; only here is -o known.) */
static bool routed_onto_own_file(Job *job, const Clinic *c)
{
    for (size_t i = 0; i < c->nfiles; i++) {
        const char *routed = c->files[i].path;
        const char *own = io_same_file(routed, job->path) ? job->path
                          : job->output_path &&
                                  io_same_file(routed, job->output_path)
                              ? job->output_path : NULL;
        if (own) {
            /* reported where the library reports its end-of-file
               errors: at the last line */
            char message[2 * PATH_MAX + 128];
            snprintf(message, sizeof message,
                     "%s:%d: error: Routed file %s would overwrite %s %s, "
                     "not writing anything!\n", job->path, c->line, routed,
                     own == job->path ? "the input file" : "the output file",
                     own);
            report_adds(&job->report, true, message);
            return true;
        }
    }
    return false;
}

static void job_compute(const Options *o, Job *job, ReadBuf *rb)
{
    const char *path = job->path, *output_path = job->output_path;
    Report *r = &job->report;
    job->status = EXIT_OK;
    if (o->verbose) {
        report_adds(r, false, path);
        report_adds(r, false, "\n");
    }

    Arena *scratch = arena_new();
    const char *language_error = block_language_error(scratch, path);
    if (language_error) {
        report_file_error(r, path, language_error);
        arena_free(scratch);
        job->status = EXIT_FAILED;
        return;
    }
    arena_free(scratch);

    size_t len;
    refs_add(&job->reads, path);
    if (read_into(rb, path, &len) < 0) {
        report_file_error(r, path, strerror(errno));
        job->status = EXIT_FAILED;
        return;
    }
    const char *text = rb->buf;
    char why[256];
    if (!io_check_utf8(text, len, why, sizeof why)) {
        report_file_error(r, path, why);
        job->status = EXIT_FAILED;
        return;
    }
    /* The library takes the bytes as they are: it reads them as
       universal newlines and hands back its result in the file's own
       line endings (and BOM), or the very same bytes when the text is
       unchanged; so comparing bytes below is write_file()'s text-mode
       comparison.  parse_file's quick exit: no marker, nothing to do
       (not even -o). */
    if (!block_has_start_marker(text, len)) {
        return;
    }

    ClinicOptions copts = {0};
    copts.force = o->force;
    copts.verbose = o->verbose;
    copts.read_file = job_read_file;
    copts.read_userdata = job;
    copts.same_file = io_clinic_same_file;
    copts.dialect = o->dialect ? o->dialect : dialect_of_tree(path, false);
    copts.limited_capi = o->limited;
    Clinic *c = clinic_new(path, &copts);
    int rc = clinic_process(c, text, len);
    if (c->diagnostics.len)
        report_add(r, true, c->diagnostics.buf, c->diagnostics.len);
    if (rc == 0 && routed_onto_own_file(job, c))
        rc = -1;
    if (rc != 0) {
        clinic_free(c);
        job->status = EXIT_FAILED;
        return;
    }

    /* What changes: the target (byte for byte: for the input itself that
       is a text-mode comparison, see above) and the routed files the
       library found changed. */
    const char *target = output_path ? output_path : path;
    bool changed;
    if (output_path) {
        bool missing;
        size_t old_len;
        char *old = read_bytes(job, output_path, &old_len, &missing);
        if (!old && !missing) {
            clinic_free(c);
            job->status = EXIT_FAILED;
            return;
        }
        changed = !old || old_len != c->output_len ||
                  memcmp(old, c->output, old_len) != 0;
        free(old);
    } else {
        changed = len != c->output_len || memcmp(text, c->output, len) != 0;
    }

    if (o->check || o->diff) {
        for (size_t i = 0; i < c->nfiles; i++)
            if (c->files[i].changed) {
                report_change(o, job, c->files[i].path, c->files[i].text,
                              c->files[i].len);
                job->status = EXIT_FAILED;
            }
        if (changed) {
            report_change(o, job, target, c->output, c->output_len);
            job->status = EXIT_FAILED;
        }
    } else {
        for (size_t i = 0; i < c->nfiles; i++)
            if (c->files[i].changed)
                commit_add(job, c->files[i].path, c->files[i].text,
                           c->files[i].len, true);
        if (changed)
            commit_add(job, target, c->output, c->output_len, false);
    }
    clinic_free(c);
}

static void job_reset(Job *job)
{
    report_clear(&job->report);
    if (job->commit)
        io_commit_free(job->commit);
    job->commit = NULL;
    for (size_t i = 0; i < job->nwrites; i++)
        free(job->write_paths[i]);
    free(job->write_paths);
    job->write_paths = NULL;
    job->nwrites = 0;
    refs_clear(&job->reads);
}

/* The job's turn: its output, then its writes.  Returns its status. */
static int job_commit(Job *job)
{
    report_emit(&job->report);
    int status = job->status;
    if (job->commit) {
        /* what the files written here were before: later jobs that read
           one of them (by name or identity) must be done again */
        for (size_t i = 0; i < job->nwrites; i++)
            refs_add(&job->writes, job->write_paths[i]);
        IoError err;
        if (io_commit_run(job->commit, &err) < 0) {
            file_error(err.path, err.message);
            status = EXIT_FAILED;
        }
    }
    fflush(stdout);
    job_reset(job);
    return status;
}

/* ---- the files, worked on in parallel, committed in order --------------

   Workers take jobs in order and work them out; only the main thread
   writes, prints and lists directories, each job in its turn, so what
   the run prints and writes is what the sequential run does.  A job that
   read a file which an earlier job wrote after the reading began is done
   again, in its turn; and before a directory is listed every job given so
   far has been committed, so files created by earlier ones are seen. */

typedef struct Pool {
    const Options *o;
    pthread_mutex_t lock;
    pthread_cond_t work;       /* a job was added, or closing */
    pthread_cond_t done;       /* a job was worked out */
    Job **jobs;
    size_t njobs, cap;
    size_t next_start;         /* first job no worker has taken */
    size_t ncommitted;
    bool closing;
    pthread_t *threads;
    size_t nthreads;
    ReadBuf rb;                /* the main thread's */
    int status;
} Pool;

static void *worker_main(void *arg)
{
    Pool *p = arg;
    ReadBuf rb = {NULL, 0};
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->next_start == p->njobs && !p->closing)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->next_start == p->njobs)
            break;
        Job *job = p->jobs[p->next_start++];
        job->started = true;
        job->start_commit = p->ncommitted;
        pthread_mutex_unlock(&p->lock);
        job_compute(p->o, job, &rb);
        pthread_mutex_lock(&p->lock);
        job->done = true;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    free(rb.buf);
    return NULL;
}

static size_t worker_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 2)
        return 0;   /* one processor: the main thread does everything */
    return n > 16 ? 16 : (size_t)n;
}

static void pool_init(Pool *p, const Options *o, bool parallel)
{
    memset(p, 0, sizeof *p);
    p->o = o;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    size_t n = parallel ? worker_count() : 0;
    p->threads = xcalloc(n ? n : 1, sizeof *p->threads);
    /* Workers get the main thread's stack limit (glibc's default too),
       but not its 2 MiB fallback when the limit is "unlimited": the
       parser's depth limits were chosen for a main-thread stack. */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur == RLIM_INFINITY)
        pthread_attr_setstacksize(&attr, (size_t)64 * 1024 * 1024);
    for (size_t i = 0; i < n; i++) {
        if (pthread_create(&p->threads[p->nthreads], &attr, worker_main, p))
            break;   /* fewer workers (or none): still correct */
        p->nthreads++;
    }
    pthread_attr_destroy(&attr);
}

static void pool_add(Pool *p, const char *path, const char *output_path,
                     bool own_path)
{
    Job *job = xcalloc(1, sizeof *job);
    job->path = path;
    job->output_path = output_path;
    if (own_path)
        job->owned_path = (char *)path;
    pthread_mutex_lock(&p->lock);
    if (p->njobs == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->jobs = xrealloc(p->jobs, p->cap * sizeof *p->jobs);
    }
    p->jobs[p->njobs++] = job;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->lock);
}

/* Commits every job given so far, in order. */
static void pool_drain(Pool *p)
{
    size_t first = p->ncommitted;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        if (p->ncommitted == p->njobs) {
            pthread_mutex_unlock(&p->lock);
            break;
        }
        Job *job = p->jobs[p->ncommitted];
        bool mine = false;
        if (!job->started && p->next_start == p->ncommitted) {
            /* no worker has it yet: the main thread works it out */
            mine = true;
            job->started = true;
            job->start_commit = p->ncommitted;
            p->next_start++;
        }
        while (!mine && !job->done)
            pthread_cond_wait(&p->done, &p->lock);
        size_t me = p->ncommitted;
        pthread_mutex_unlock(&p->lock);

        if (mine) {
            job_compute(p->o, job, &p->rb);
        } else {
            /* written since the work began, and read by it: again */
            for (size_t i = job->start_commit; i < me; i++)
                if (refs_overlap(&p->jobs[i]->writes, &job->reads)) {
                    job_reset(job);
                    job_compute(p->o, job, &p->rb);
                    break;
                }
        }
        if (job_commit(job) != EXIT_OK)
            p->status = EXIT_FAILED;

        pthread_mutex_lock(&p->lock);
        p->ncommitted++;
        pthread_mutex_unlock(&p->lock);
    }
    /* every later job begins after these commits: they are not needed
       for its checks any more */
    pthread_mutex_lock(&p->lock);
    for (size_t i = first; i < p->ncommitted; i++) {
        refs_clear(&p->jobs[i]->writes);
        free(p->jobs[i]->owned_path);
        free(p->jobs[i]);
        p->jobs[i] = NULL;
    }
    pthread_mutex_unlock(&p->lock);
}

static int pool_finish(Pool *p)
{
    pool_drain(p);
    pthread_mutex_lock(&p->lock);
    p->closing = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (size_t i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    free(p->threads);
    free(p->jobs);
    free(p->rb.buf);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    return p->status;
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
    char *save = NULL;   /* strtok_r: workers call this too */
    for (char *tok = strtok_r(copy, "/", &save); tok;
         tok = strtok_r(NULL, "/", &save)) {
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

/* os.walk(srcdir), top-down, names sorted so runs are reproducible;
   version-control and build directories are skipped, as are symlinked
   directories (os.walk does not follow links). */
static int walk(const Options *o, Pool *pool, char **excludes,
                const char *dir)
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
        if (!is_dir[i] && dialect_makes(o->dialect, names[i])) {
            char *norm = normpath(path);
            bool excluded = false;
            for (size_t k = 0; k < o->nexcludes; k++)
                if (strcmp(norm, excludes[k]) == 0)
                    excluded = true;
            free(norm);
            if (!excluded) {
                pool_add(pool, path, NULL, true);
                path = NULL;
            }
        }
        free(path);
    }
    /* before any subdirectory is looked at, the files here are done */
    pool_drain(pool);
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
            walk(o, pool, excludes, path) != EXIT_OK)
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
    Pool pool;
    pool_init(&pool, o, true);
    int status = walk(o, &pool, excludes, o->srcdir);
    if (pool_finish(&pool) != EXIT_OK)
        status = EXIT_FAILED;
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
        converters_print(&out, o.dialect ? o.dialect : dialect_default());
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
        if (!o.dialect)
            o.dialect = dialect_of_tree(o.srcdir, true);
        status = run_make(&o);
    } else {
        if (!o.nfiles)
            usage_error(NULL);
        if (o.output && o.nfiles > 1)
            usage_error("can't use -o with multiple filenames.");
        Pool pool;
        pool_init(&pool, &o, o.nfiles > 1);
        for (size_t i = 0; i < o.nfiles; i++)
            pool_add(&pool, o.files[i], o.output, false);
        status = pool_finish(&pool);
    }
    free(o.files);
    free(o.excludes);
    fflush(stdout);
    return status;
}
