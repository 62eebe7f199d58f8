/*
 * job.c — one input file, as clinic.py's parse_file() does it: the
 * language check, reading, the quick exit for files without a block,
 * the library's run, then the writes (in place, -o, routed files) as one
 * commit, or with --check/--diff the report of what would change.  The
 * input "-" is standard input, and its result goes to standard output.
 *
 * job_compute() may run on any thread and only reads files; job_commit()
 * runs on the main thread, in the files' order, and writes.
 */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* ---- what a job read and wrote ----------------------------------------- */

/* io_normpath(path), only copied when it is already normal (the
   walk's paths are): no empty, "." or ".." component. */
static char *normal_path(const char *path)
{
    const char *p = path + (path[0] == '/');
    for (;;) {
        const char *c = p;
        while (*c && *c != '/')
            c++;
        size_t n = (size_t)(c - p);
        if (n == 0 || (p[0] == '.' && (n == 1 || (n == 2 && p[1] == '.'))))
            return io_normpath(path);
        if (!*c)
            return xstrdup(path);
        p = c + 1;
    }
}

void refs_add_st(FileRefs *set, const char *path, const struct stat *st)
{
    if (set->n == set->cap) {
        set->cap = set->cap ? 2 * set->cap : 4;
        set->refs = xrealloc(set->refs, set->cap * sizeof *set->refs);
    }
    FileRef *f = &set->refs[set->n++];
    f->path = normal_path(path);
    f->exists = st != NULL;
    f->dev = st ? st->st_dev : 0;
    f->ino = st ? st->st_ino : 0;
}

void refs_add(FileRefs *set, const char *path)
{
    struct stat st;
    refs_add_st(set, path, stat(path, &st) == 0 ? &st : NULL);
}

void refs_clear(FileRefs *set)
{
    for (size_t i = 0; i < set->n; i++)
        free(set->refs[i].path);
    free(set->refs);
    memset(set, 0, sizeof *set);
}

bool refs_overlap(const FileRefs *a, const FileRefs *b)
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

/* ---- reading ------------------------------------------------------------ */

/* Why path could not be read or written (errno), in words: a FIFO or a
   device is named for what it is, and never opened. */
static void report_io_error(Report *r, const char *path, bool for_writing)
{
    struct stat st;
    int e = errno;
    if ((e == EINVAL || (e == EISDIR && for_writing)) &&
        stat(path, &st) == 0) {
        char message[128];
        snprintf(message, sizeof message,
                 "it is %s, not a regular file: not %s it",
                 io_file_kind(st.st_mode),
                 for_writing ? "replacing" : "reading");
        report_error(r, path, message);
        return;
    }
    report_error(r, path, strerror(e));
}

/* The bytes of a file the job will write (-o, a routed file), to compare
   with: NULL and *missing when it does not exist yet, NULL and an error
   reported when it cannot be read. */
static char *read_old(Job *job, const char *path, size_t *len,
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
    report_io_error(&job->report, path, true);
    return NULL;
}

/* The library's reader of other files (io_clinic_read's universal
   newlines), noting what it read and the file's identity.  What the
   library reads is what it will write (routed files, a target's header),
   and those are never written through a symlink: one is refused here,
   as ELOOP, before its target's text is even looked at. */
static int job_read_file(void *userdata, const char *path, char **data,
                         size_t *len)
{
    Job *job = userdata;
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        refs_add(&job->reads, path);
        errno = ELOOP;
        return -1;
    }
    int fd = io_open_regular_st(path, &st);
    if (fd < 0) {
        refs_add(&job->reads, path);
        return -1;
    }
    /* the identity of the file opened, from the fstat made there */
    refs_add_st(&job->reads, path, &st);
    char *buf = NULL;
    size_t cap = 0;
    int rc = io_read_known(fd, &st, &buf, &cap, len);
    int e = errno;
    close(fd);
    if (rc < 0) {
        free(buf);
        errno = e;
        return -1;
    }
    /* one look for a "\r", for both */
    bool has_cr = memchr(buf, '\r', *len) != NULL;
    job_note_text(job, path, &st, buf, *len, has_cr);
    if (has_cr)
        *len = io_universal_newlines(buf, *len);
    *data = buf;
    return 0;
}

/* A large file is first read a piece at a time, each piece cut after its
   last line break.  The large files of a tree are mostly generated tables
   and parsers without a clinic marker: read whole, one of them would hold
   megabytes at the moment another thread holds its largest clinic file,
   and that sum would be the run's peak memory.  The marker lies within a
   line and a line break is never inside a UTF-8 character, so the pieces'
   checks answer for the file.  1: valid UTF-8 and no start marker, done;
   0: the file must be read whole (a marker, bytes that are not UTF-8, or a
   line longer than a piece: the whole file's checks give the answer and
   its message); -1: a read error (errno). */
#define PIECE (256 * 1024)

static int pass_large_file(int fd, ReadBuf *rb)
{
    if (rb->cap < PIECE + 1) {
        free(rb->buf);
        rb->buf = xmalloc(PIECE + 1);
        rb->cap = PIECE + 1;
    }
    size_t kept = 0;   /* the start of a line, carried to the next piece */
    for (;;) {
        ssize_t got = read(fd, rb->buf + kept, PIECE - kept);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        size_t n = kept + (size_t)got;
        if (got == 0) {   /* the end: the last line, unless it is empty */
            char why[1];
            return io_check_utf8(rb->buf, n, why, sizeof why) &&
                   !block_has_start_marker(rb->buf, n);
        }
        size_t whole = n;   /* up to the last line break */
        while (whole > 0 && rb->buf[whole - 1] != '\n')
            whole--;
        if (whole == 0) {
            if (n == PIECE)
                return 0;   /* a line longer than a piece */
            kept = n;
            continue;
        }
        char why[1];
        if (!io_check_utf8(rb->buf, whole, why, sizeof why) ||
            block_has_start_marker(rb->buf, whole))
            return 0;
        kept = n - whole;
        memmove(rb->buf, rb->buf + whole, kept);
    }
}

/* The input's bytes into rb (NUL-terminated): from the file, or from
   standard input; st: the file's fstat before the reading.  The file is
   noted among the job's reads, by the identity of the file opened.  1: a
   large file that pass_large_file() found without a marker, not read. */
static int read_input(ReadBuf *rb, Job *job, size_t *len, struct stat *st)
{
    memset(st, 0, sizeof *st);
    if (job->from_stdin)
        return io_read_into(STDIN_FILENO, &rb->buf, &rb->cap, len);
    int fd = job->listed_regular ? io_open_listed_st(job->path, st)
                                 : io_open_regular_st(job->path, st);
    if (fd < 0) {
        refs_add(&job->reads, job->path);
        return -1;
    }
    refs_add_st(&job->reads, job->path, st);
    int rc = 0;
    if (S_ISREG(st->st_mode) && st->st_size > 2 * PIECE) {
        rc = pass_large_file(fd, rb);
        if (rc == 0 && lseek(fd, 0, SEEK_SET) < 0)
            rc = -1;
    }
    if (rc == 0)
        rc = io_read_known(fd, st, &rb->buf, &rb->cap, len);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

/* ---- what would change --------------------------------------------------- */

static void fail(Job *job)
{
    job->status = EXIT_ERROR;
    job->failed = true;
}

/* A file that cannot be processed at all (its error already reported):
   it fails, and the query modes report it as a file with an error. */
static void fail_file(const Options *o, Job *job, const char *message)
{
    fail(job);
    if (o->query) {
        query_describe_error(o->run, job->path, -1, message, &job->query);
        job->queried = true;
    }
}

/* A unified diff with git's headers ("diff --git", "new file mode" for
   a file that does not exist yet), so that git apply and patch -p1 from
   the current directory make exactly the change a write would.  Names
   are quoted as git quotes them, and on the ---/+++ lines a name with a
   space ends in a tab, as in git's diffs: patch reads a name up to a tab
   when there is one, else up to the first space. */
static void report_diff(Job *job, const char *path, const char *old,
                        size_t old_len, const char *new_text, size_t new_len)
{
    char *label = path_label(path);
    StrBuf a = STRBUF_INIT, b = STRBUF_INIT, out = STRBUF_INIT;
    diff_add_git_name(&a, "a/", label);
    diff_add_git_name(&b, "b/", label);
    sb_addf(&out, "diff --git %s %s\n", a.buf, b.buf);
    if (!old)
        sb_adds(&out, "new file mode 100644\n");
    if (strchr(label, ' ')) {
        sb_addc(&a, '\t');
        sb_addc(&b, '\t');
    }
    diff_unified(&out, old ? a.buf : "/dev/null", old ? old : "", old_len,
                 b.buf, new_text, new_len);
    report_add(&job->report, false, out.buf, out.len);
    sb_free(&out);
    sb_free(&a);
    sb_free(&b);
    free(label);
}

/* --check / --diff / --dry-run for one file that would change.  old: its
   current bytes when the caller has them (the input), else read here. */
static void report_change(const Options *o, Job *job, const char *path,
                          const char *old, size_t old_len,
                          const char *new_text, size_t new_len)
{
    job->nchanged++;
    if (job->status < EXIT_CHANGED && !o->dry_run)
        job->status = EXIT_CHANGED;
    job->reported = xrealloc(job->reported, (job->nreported + 1) *
                                                sizeof *job->reported);
    struct ReportedChange *change = &job->reported[job->nreported++];
    change->path = xstrdup(path);
    change->start = job->report.text.len;
    change->end = change->start;   /* set below, once it is written */
    change->created = change->dropped = false;
    if (o->dry_run) {
        /* listed at the end of the run (dry_run_print); a change is no
           reason for a non-zero status here, as in 3.14's clinic.py */
        struct stat st;
        change->created = !old && stat(path, &st) != 0 && errno == ENOENT;
        return;
    }
    if (o->check && !o->quiet) {
        char *label = path_label(path);
        report_printf(&job->report, false, "%s\n", label);
        free(label);
    }
    if (!o->diff) {
        change->end = job->report.text.len;
        return;
    }
    char *read = NULL;
    if (!old) {
        bool missing;
        read = read_old(job, path, &old_len, &missing);
        if (!read && !missing) {
            fail(job);
            return;
        }
        old = read;
    }
    report_diff(job, path, old, old_len, new_text, new_len);
    free(read);
    job->reported[job->nreported - 1].end = job->report.text.len;
}

/* The files --check and --diff have reported as changing so far in the
   run (main thread only). */
static FileRefs run_reported;

/* A write changes a file once, whichever inputs route text to it: the
   files an earlier job already reported are dropped from this job's
   report, so --check counts and --diff shows what a write would do. */
static void drop_reported_twice(Job *job)
{
    for (size_t i = job->nreported; i-- > 0;) {
        struct ReportedChange *change = &job->reported[i];
        FileRefs one = {0};
        refs_add(&one, change->path);
        if (refs_overlap(&one, &run_reported)) {
            report_cut(&job->report, change->start, change->end);
            change->dropped = true;
            job->nchanged--;
        } else {
            refs_add(&run_reported, change->path);
        }
        refs_clear(&one);
    }
    if (!job->nchanged && job->status == EXIT_CHANGED)
        job->status = EXIT_OK;
}

static void commit_add(Job *job, const char *path, const char *data,
                       size_t len, bool routed)
{
    if (!job->commit)
        job->commit = io_commit_new();
    io_commit_add(job->commit, path, data, len, routed);
    job->write_paths = xrealloc(job->write_paths,
                                (job->nwrites + 1) * sizeof *job->write_paths);
    job->write_paths[job->nwrites++] = xstrdup(path);
    job->nchanged++;
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
            report_printf(&job->report, true,
                          "%s:%d: error: Routed file %s would overwrite %s "
                          "%s, not writing anything!\n", job->path, c->line,
                          routed,
                          own == job->path ? "the input file"
                                           : "the output file", own);
            return true;
        }
    }
    return false;
}

/* A routed file that would change, whose path below the input's
   directory passes through a symlink ("clinic -> /elsewhere", as a pull
   request can bring): written, it would land wherever the link points.
   The input's own directory is the user's, however they reached it;
   and the routed file itself being a link is refused by the library. */
static bool routed_through_link(Job *job, const Clinic *c)
{
    char *dir = io_dirname(job->path);
    size_t n = strlen(dir);
    bool here = !strcmp(dir, ".");
    bool refused = false;
    for (size_t i = 0; i < c->nfiles && !refused; i++) {
        const char *routed = c->files[i].path;
        const char *below = here && routed[0] != '/' ? routed
                            : !strncmp(routed, dir, n) && routed[n] == '/'
                                ? routed + n + 1 : NULL;
        if (!c->files[i].changed || !below)
            continue;
        for (const char *slash = strchr(below, '/'); slash && !refused;
             slash = strchr(slash + 1, '/')) {
            size_t len = (size_t)(slash - routed);
            char *on_the_way = xmalloc(len + 1);
            memcpy(on_the_way, routed, len);
            on_the_way[len] = '\0';
            struct stat st;
            if (lstat(on_the_way, &st) == 0 && S_ISLNK(st.st_mode)) {
                report_printf(&job->report, true,
                              "%s:%d: error: Destination file %s would be "
                              "written through %s, a symbolic link: clinic "
                              "writes the files it routes output to itself, "
                              "never through a link (remove the link)\n",
                              job->path, c->line, routed, on_the_way);
                refused = true;
            }
            free(on_the_way);
        }
    }
    free(dir);
    return refused;
}

/* ---- the job ------------------------------------------------------------- */

/* Standard input in, standard output out: the result, or the input as it
   was when it has no block; nothing when there is an error.  Files it
   routes output to are not written: one that would change is an error. */
static void finish_stdin(const Options *o, Job *job, const Clinic *c,
                         const char *text, size_t len)
{
    const char *out = c ? c->output : text;
    size_t out_len = c ? c->output_len : len;
    bool changed = out_len != len || memcmp(out, text, len) != 0;
    if (o->check || o->diff || o->dry_run) {
        if (changed)
            report_change(o, job, job->path, text, len, out, out_len);
        return;
    }
    for (size_t i = 0; c && i < c->nfiles; i++)
        if (c->files[i].changed) {
            report_printf(&job->report, true,
                          "%s: error: routed file %s would change: reading "
                          "standard input, clinic writes only standard "
                          "output (run it on the file itself)\n",
                          job->path, c->files[i].path);
            fail(job);
            return;
        }
    report_add(&job->report, false, out, out_len);
}

void job_compute(const Options *o, Job *job, ReadBuf *rb)
{
    if (job->error_only)
        return;   /* its report is all there is */
    const char *path = job->path, *output_path = job->output_path;
    Report *r = &job->report;
    job->status = EXIT_OK;
    job->failed = false;
    job->nchanged = 0;
    if (o->verbose)   /* standard output is the result's for "-", the
                         query modes' and --dry-run's list */
        report_printf(r, job->from_stdin || o->query != QUERY_NONE ||
                             o->dry_run, "%s\n", path);

    if (!block_language_ok(path)) {   /* the message needs an arena */
        Arena *scratch = arena_new();
        const char *language_error = block_language_error(scratch, path);
        report_error(r, path, language_error);
        fail_file(o, job, language_error);
        arena_free(scratch);
        return;
    }

    size_t len;
    struct stat st;
    int got = read_input(rb, job, &len, &st);
    if (got < 0) {
        int e = errno;
        if (job->from_stdin)
            report_error(r, "-", strerror(e));
        else
            report_io_error(r, path, false);
        fail_file(o, job, strerror(e));
        return;
    }
    if (got > 0)
        return;   /* a large file, checked a piece at a time: no marker */
    const char *text = rb->buf;
    char why[256];
    if (!io_check_utf8(text, len, why, sizeof why)) {
        report_error(r, path, why);
        fail_file(o, job, why);
        return;
    }
    /* The library takes the bytes as they are: it reads them as
       universal newlines and hands back its result in the file's own
       line endings (and BOM), or the very same bytes when the text is
       unchanged; so comparing bytes below is write_file()'s text-mode
       comparison.  parse_file's quick exit: no marker, nothing to do
       (not even -o). */
    if (!o->convert && !block_has_start_marker(text, len)) {
        if (job->from_stdin && !o->query)
            finish_stdin(o, job, NULL, text, len);
        return;
    }

    /* one look for a "\r", a NUL and other line breaks, for the sums
       and the library */
    IoTextScan scan;
    io_scan_text(text, len, &scan);
    if (!job->from_stdin)
        job_note_text(job, path, &st, text, len, scan.has_cr);
    ClinicOptions copts = {0};
    copts.input_scan = &scan;   /* what was just found, and a marker */
    copts.sum_known = sums_known;
    copts.sum_note = sums_note;
    copts.sum_userdata = job;
    copts.input_terminated = true;   /* io_read_into ends it with a NUL */
    copts.force = o->force;
    copts.verbose = o->verbose;
    copts.no_output = o->query != QUERY_NONE;
    copts.read_file = job_read_file;
    copts.read_file_lf = true;   /* job_read_file's universal newlines */
    copts.read_userdata = job;
    copts.same_file = io_clinic_same_file;
    copts.target = o->target;
    copts.dialect = o->dialect ? o->dialect : dialect_of_tree(path, false);
    copts.limited_capi = o->limited;
    copts.convert = o->convert;
    copts.convert_only = o->convert_only;
    copts.nconvert_only = o->nconvert_only;
    Clinic *c = clinic_new(path, &copts);
    int rc = clinic_process(c, text, len);
    /* what converters' methods printed, as clinic.py prints it (not in
       the query modes, whose standard output is their answer) */
    if (c->printed.len && !o->query)
        report_add(r, false, c->printed.buf, c->printed.len);
    if (c->diagnostics.len)
        report_add(r, true, c->diagnostics.buf, c->diagnostics.len);
    bool onto_own_file = rc == 0 && routed_onto_own_file(job, c);
    if (onto_own_file)
        rc = -1;
    if (o->query) {
        /* asked, not told: report what the file declares, write nothing */
        if (onto_own_file)
            query_describe_error(o->run, path, c->line, "Routed file would "
                                 "overwrite the input or the output file, "
                                 "not writing anything!", &job->query);
        else
            query_describe(o->run, c, rc, &job->query);
        job->queried = true;
        if (rc != 0)
            fail(job);
        clinic_free(c);
        return;
    }
    if (rc == 0 && !job->from_stdin && routed_through_link(job, c))
        rc = -1;
    if (rc != 0) {
        clinic_free(c);
        fail(job);
        return;
    }
    if (job->from_stdin) {
        finish_stdin(o, job, c, text, len);
        clinic_free(c);
        return;
    }

    /* What changes: the target (byte for byte: for the input itself that
       is a text-mode comparison, see above) and the routed files the
       library found changed. */
    const char *target = output_path ? output_path : path;
    const char *old = text;
    size_t old_len = len;
    char *old_output = NULL;
    if (output_path) {
        bool missing;
        old = old_output = read_old(job, output_path, &old_len, &missing);
        if (!old && !missing) {
            clinic_free(c);
            fail(job);
            return;
        }
    }
    /* an unchanged input comes back as the very bytes read */
    bool changed = !old || old_len != c->output_len ||
                   (old != c->output && memcmp(old, c->output, old_len) != 0);

    if (o->check || o->diff || o->dry_run) {
        for (size_t i = 0; i < c->nfiles; i++)
            if (c->files[i].changed)
                report_change(o, job, c->files[i].path, NULL, 0,
                              c->files[i].text, c->files[i].len);
        if (changed)
            report_change(o, job, target, old, old_len, c->output,
                          c->output_len);
    } else {
        for (size_t i = 0; i < c->nfiles; i++)
            if (c->files[i].changed)
                commit_add(job, c->files[i].path, c->files[i].text,
                           c->files[i].len, true);
            else
                io_sweep_temps(c->files[i].path, true);
        if (changed)
            commit_add(job, target, c->output, c->output_len, false);
        else
            io_sweep_temps(target, false);
    }
    free(old_output);
    clinic_free(c);
}

void job_reset(Job *job)
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
    job_forget_texts(job);
    for (size_t i = 0; i < job->nreported; i++)
        free(job->reported[i].path);
    free(job->reported);
    job->reported = NULL;
    job->nreported = 0;
    if (job->queried)
        query_file_free(&job->query);
    job->queried = false;
}

/* --dry-run: the files that would change, over the whole run (main
   thread only), printed once at its end. */
static struct DryRunChange {
    char *path;
    bool created;
} *dry_run_changes;
static size_t n_dry_run_changes;

static void dry_run_note(const Job *job)
{
    dry_run_changes = xrealloc(dry_run_changes,
                               (n_dry_run_changes + job->nreported + 1) *
                                   sizeof *dry_run_changes);
    for (size_t i = 0; i < job->nreported; i++) {
        if (job->reported[i].dropped)
            continue;
        struct DryRunChange *d = &dry_run_changes[n_dry_run_changes++];
        d->path = xstrdup(job->reported[i].path);
        d->created = job->reported[i].created;
    }
}

/* By path as a plain string: Python's sort of str is by code point,
   which strcmp of UTF-8 gives.  (A path is listed once: see
   drop_reported_twice.) */
static int compare_dry_run(const void *pa, const void *pb)
{
    const struct DryRunChange *a = pa, *b = pb;
    return strcmp(a->path, b->path);
}

void dry_run_print(void)
{
    qsort(dry_run_changes, n_dry_run_changes, sizeof *dry_run_changes,
          compare_dry_run);
    for (size_t i = 0; i < n_dry_run_changes; i++) {
        printf("would %s %s\n",
               dry_run_changes[i].created ? "create" : "update",
               dry_run_changes[i].path);
        free(dry_run_changes[i].path);
    }
    free(dry_run_changes);
    dry_run_changes = NULL;
    n_dry_run_changes = 0;
}

int job_commit(const Options *o, Job *job, Tally *t)
{
    drop_reported_twice(job);
    if (o->dry_run)
        dry_run_note(job);
    report_emit(&job->report);
    if (job->error_only) {   /* no file: not counted */
        fflush(stdout);
        job_reset(job);
        return EXIT_ERROR;
    }
    if (job->queried) {
        StrBuf out = STRBUF_INIT;
        query_add(o->run, &job->query, &out);
        fwrite(out.buf, 1, out.len, stdout);
        sb_free(&out);
        job->queried = false;
    }
    int status = job->status;
    bool failed = job->failed;
    size_t changed = job->nchanged;
    if (job->commit) {
        /* what the files written here were before: later jobs that read
           one of them (by name or identity) must be done again */
        for (size_t i = 0; i < job->nwrites; i++)
            refs_add(&job->writes, job->write_paths[i]);
        /* what was computed is written only over the very files it was
           computed from: another process may have replaced one since */
        for (size_t i = 0; i < job->ntexts; i++) {
            const TextId *read = &job->texts[i];
            io_commit_expect(job->commit, read->path, &read->stamp);
        }
        IoError err;
        int written = io_commit_run(job->commit, &err);
        if (written < 0) {
            fflush(stdout);
            fprintf(stderr, "%s: error: %s\n", err.path, err.message);
            status = EXIT_ERROR;
            failed = true;
            changed = 0;
        } else {
            changed = (size_t)written;
            if (written && o->exit_on_write && status < EXIT_CHANGED)
                status = EXIT_CHANGED;
        }
    }
    if (failed)
        t->failed++;
    else if (!changed)
        t->unchanged++;
    t->changed += changed;
    fflush(stdout);
    job_reset(job);
    return status;
}
