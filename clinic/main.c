/*
 * main.c — the clinic command: the modes (files, --make, standard input,
 * --converters, the query modes), the summary line and the exit status; see cli.h for
 * the other parts of the command.  All real work is in lib/: per file,
 * read it (io.c), run clinic_process() on the text, then write the
 * results atomically (io_commit.c) or only report what would change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli.h"

/* "2 files would be regenerated, 40 unchanged, 1 failed", on stderr:
   always with --check/--diff, else when something was written (a run
   with nothing to do is silent, and an error says enough by itself);
   never with -q, --dry-run (3.14's prints its list alone) or for
   standard input. */
static void print_summary(const Options *o, const Tally *t)
{
    bool dry = o->check || o->diff;
    if (o->quiet || o->dry_run || o->from_stdin || (!dry && !t->changed))
        return;
    fflush(stdout);
    fprintf(stderr, "%zu file%s %s, %zu unchanged", t->changed,
            t->changed == 1 ? "" : "s",
            dry ? "would be regenerated" : "regenerated", t->unchanged);
    if (t->failed)
        fprintf(stderr, ", %zu failed", t->failed);
    fputc('\n', stderr);
}

/* clinic - : standard input to standard output. */
static int run_stdin(const Options *o, Tally *t)
{
    if (o->nfiles > 1)
        usage_error("- (standard input) must be the only file.");
    if (o->output)
        usage_error("can't use -o with - (the result goes to standard "
                    "output).");
    Job job = {0};
    job.path = o->stdin_filename;
    job.from_stdin = true;
    ReadBuf rb = {NULL, 0};
    job_compute(o, &job, &rb);
    int status = job_commit(o, &job, t);
    refs_clear(&job.writes);
    free(rb.buf);
    return status;
}

/* Each file's memory is freed when it is done and the next file needs as
   much again: glibc would hand it back to the kernel (trimming the heap,
   unmapping large blocks) and fault it in afresh, page by page, which
   over the CPython tree was half the run's time.  Kept, it is reused;
   the peak stays the peak.  One malloc arena for all threads: per-thread
   arenas each grow to the largest file a thread saw, which raised the
   peak by a fifth for no gain in time. */
static void keep_freed_memory(void)
{
#if defined(__GLIBC__)
    mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_ARENA_MAX, 1);
#endif
}

/* A file named on the command line, for finding the ones named twice. */
typedef struct Named {
    bool exists;
    dev_t dev;
    ino_t ino;
    char *path;        /* normalised: the name of a file not there */
    size_t index;
} Named;

static int compare_named(const void *pa, const void *pb)
{
    const Named *a = pa, *b = pb;
    if (a->exists != b->exists)
        return a->exists ? -1 : 1;
    if (a->exists) {
        if (a->dev != b->dev)
            return a->dev < b->dev ? -1 : 1;
        if (a->ino != b->ino)
            return a->ino < b->ino ? -1 : 1;
    } else {
        int c = strcmp(a->path, b->path);
        if (c)
            return c;
    }
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Which of the files are a file named before (a.c and ./a.c, a symlink
   and its target, two hard links): processed twice, one would be
   written twice and its diff printed twice.  Sorted, not compared pair
   by pair: a pre-commit hook names thousands of files.  malloc'd. */
static bool *files_named_twice(const Options *o)
{
    Named *named = xmalloc((o->nfiles ? o->nfiles : 1) * sizeof *named);
    for (size_t i = 0; i < o->nfiles; i++) {
        struct stat st;
        named[i].exists = stat(o->files[i], &st) == 0;
        named[i].dev = named[i].exists ? st.st_dev : 0;
        named[i].ino = named[i].exists ? st.st_ino : 0;
        named[i].path = named[i].exists ? NULL : io_normpath(o->files[i]);
        named[i].index = i;
    }
    qsort(named, o->nfiles, sizeof *named, compare_named);
    bool *twice = xcalloc(o->nfiles ? o->nfiles : 1, sizeof *twice);
    for (size_t i = 1; i < o->nfiles; i++) {
        const Named *a = &named[i - 1], *b = &named[i];
        if (a->exists == b->exists &&
            (a->exists ? a->dev == b->dev && a->ino == b->ino
                       : !strcmp(a->path, b->path)))
            twice[b->index] = true;   /* the first keeps its place */
    }
    for (size_t i = 0; i < o->nfiles; i++)
        free(named[i].path);
    free(named);
    return twice;
}

int main(int argc, char **argv)
{
    keep_freed_memory();
    Options o = {0};
    options_parse(argc, argv, &o);

    if (o.converters) {
        if (o.nfiles)
            usage_error("can't specify --converters and a filename at the "
                        "same time.");
        if (o.dry_run || o.check || o.diff)
            usage_error("can't use --dry-run, --check or --diff with "
                        "--converters.");
        StrBuf out = STRBUF_INIT;
        converters_print(&out, o.dialect ? o.dialect : dialect_default());
        fwrite(out.buf, 1, out.len, stdout);
        sb_free(&out);
        options_free(&o);
        exit_flushing(EXIT_OK);
    }

    /* --check and --diff win over --dry-run (3.14's --diff does too) */
    if (o.check || o.diff)
        o.dry_run = false;

    Query run;
    if (o.query) {
        if (o.output || o.check || o.diff || o.dry_run)
            usage_error("--list, --json, --stats and --docstring write "
                        "nothing: not with -o, --check, --diff or "
                        "--dry-run.");
        query_init(&run, o.query, o.docstring_name);
        o.run = &run;
    }

    int status;
    Tally tally = {0};
    if (o.make) {
        if (o.output || o.nfiles)
            usage_error("can't use -o or filenames with --make.");
        if (!o.srcdir[0])
            usage_error("--srcdir must not be empty with --make.");
        if (!o.dialect)
            o.dialect = dialect_of_tree(o.srcdir, true);
        Pool *pool = pool_new(&o, true);
        walk_tree(&o, pool);
        status = pool_finish(pool, &tally);
    } else if (o.from_stdin) {
        status = run_stdin(&o, &tally);
    } else {
        if (!o.nfiles)
            usage_error(NULL);
        if (o.output && o.nfiles > 1)
            usage_error("can't use -o with multiple filenames.");
        bool *twice = files_named_twice(&o);
        Pool *pool = pool_new(&o, o.nfiles > 1);
        for (size_t i = 0; i < o.nfiles; i++)
            if (!twice[i])
                pool_add(pool, o.files[i], o.output, false);
        free(twice);
        status = pool_finish(pool, &tally);
    }
    if (o.query) {
        StrBuf out = STRBUF_INIT, err = STRBUF_INIT;
        if (!query_end(&run, &out, &err))
            status = EXIT_ERROR;
        fwrite(out.buf, 1, out.len, stdout);
        fflush(stdout);
        fwrite(err.buf, 1, err.len, stderr);
        sb_free(&out);
        sb_free(&err);
        query_free(&run);
    }
    if (o.dry_run)   /* its list comes after every file's messages */
        dry_run_print();
    print_summary(&o, &tally);
    sums_free();
    options_free(&o);
    sb_release_spares();
    exit_flushing(status);
}
