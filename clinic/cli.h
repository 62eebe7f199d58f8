/*
 * cli.h — the command (clinic/), around the library that does the work:
 *
 *   options.c   the command line: options, usage and help
 *   report.c    what one file's run prints, held until its turn
 *   paths.c     path names: normalised, joined, and as diff labels;
 *               the CPython tree (and dialect) a path is in
 *   job.c       one input file: read it, run the library, then write
 *               the results or report what would change
 *   pool.c      the files, worked on in parallel, committed in order
 *   walk.c      --make: the source tree, walked
 *   main.c      the modes, the summary line and the exit status
 */
#ifndef CLINIC_CLI_H
#define CLINIC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "drive/clinic.h"

/* The exit status, in every mode: the worst of the files' statuses. */
enum {
    EXIT_OK = 0,        /* nothing to change, or everything written */
    EXIT_CHANGED = 1,   /* --check/--diff: something would change;
                           --exit-non-zero-on-write: something was
                           written */
    EXIT_ERROR = 2,     /* an error: in a file, in writing it, on the
                           command line, or on standard output */
};

/* ---- options.c --------------------------------------------------------- */

/* -j's upper bound: more threads than this only cost memory */
#define MAX_JOBS 256

typedef struct Options {
    bool force, verbose, quiet, converters, make, check, diff;
    bool dry_run;              /* --dry-run, unless --check or --diff */
    bool exit_on_write;        /* --exit-non-zero-on-write */
    const char *output;        /* -o; NULL: in place */
    const char *srcdir;
    const char **excludes;
    size_t nexcludes;
    const char **files;
    size_t nfiles;
    bool from_stdin;           /* the one file is "-" */
    const char *stdin_filename;
    const Dialect *dialect;    /* --dialect; NULL: each file's tree says */
    bool limited;              /* --limited */
    size_t jobs;               /* -j; 0: one per processor */
    QueryMode query;           /* --list, --json, --stats, --docstring */
    const char *docstring_name;
    const Target *target;      /* --target; NULL: the default */
    Query *run;                /* the query run, when query is set */
} Options;

void options_parse(int argc, char **argv, Options *o);
void options_free(Options *o);
/* "Usage error: MESSAGE", the usage, exit 2. */
CLINIC_NORETURN void usage_error(const char *message);
/* Flushes standard output and exits with status, or with EXIT_ERROR and
   a message when anything written there was lost (a full disk, a closed
   pipe's EPIPE when SIGPIPE is ignored). */
CLINIC_NORETURN void exit_flushing(int status);

/* ---- report.c ---------------------------------------------------------- */

/* What one file's run prints, in pieces marked for stdout or stderr,
   kept until the file's turn comes (see pool.c). */
typedef struct Report {
    StrBuf text;
    size_t *ends;        /* end offset of each piece in text */
    bool *to_stderr;
    size_t n, cap;
} Report;

void report_add(Report *r, bool to_stderr, const char *s, size_t n);
void report_adds(Report *r, bool to_stderr, const char *s);
void report_printf(Report *r, bool to_stderr, const char *fmt, ...)
    CLINIC_PRINTF(3, 4);
/* "PATH: error: MESSAGE" on stderr. */
void report_error(Report *r, const char *path, const char *message);
/* Writes it out as the sequential run does: stdout is flushed before
   anything goes to stderr. */
void report_emit(const Report *r);
void report_clear(Report *r);
/* Drops the bytes [start, end) of the report's text. */
void report_cut(Report *r, size_t start, size_t end);

/* ---- paths.c ----------------------------------------------------------- */

/* os.path.join(a, b).  malloc'd. */
char *path_join(const char *a, const char *b);
/* The name a diff gives path: relative to the current directory where
   the path is (absolute paths inside it included), normalised, so that
   "a/LABEL" applies with git apply and patch -p1 from here.  malloc'd. */
char *path_label(const char *path);
/* The dialect for the CPython tree that holds path (a file, or with
   is_dir a directory): the version in the Include/patchlevel.h of the
   nearest directory, going up, that has one; else the default. */
const Dialect *dialect_of_tree(const char *path, bool is_dir);

/* ---- job.c ------------------------------------------------------------- */

/* Files a job read or wrote, by normalised name and, when they existed,
   by identity (device and inode). */
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

void refs_add(FileRefs *set, const char *path);
/* The same for a file whose stat is known (no stat again). */
void refs_add_st(FileRefs *set, const char *path, const struct stat *st);
void refs_clear(FileRefs *set);
bool refs_overlap(const FileRefs *a, const FileRefs *b);

/* What the run did, for the summary line. */
typedef struct Tally {
    size_t changed;            /* files written (or that would be) */
    size_t unchanged;          /* input files with nothing to change */
    size_t failed;             /* input files with an error */
} Tally;

/* A text a job read, by the identity of its file when it was read (see
   sums.c). */
typedef struct TextId {
    char *path;                /* as the job or the library named it */
    bool usable;               /* the library sees it as it is on disk */
    IoStamp stamp;             /* its file, when it was read */
} TextId;

/* One input file: what running clinic on it prints and would write,
   worked out (possibly on another thread) before its turn to write. */
typedef struct Job {
    const char *path;
    const char *output_path;   /* -o */
    char *owned_path;          /* path, when the job owns it */
    bool from_stdin;           /* read standard input; path names it */
    bool listed_regular;       /* its directory entry said a regular file
                                  (pool_add_listed): opened without a stat
                                  first */
    bool error_only;           /* not a file: an error of --make's walk,
                                  printed in its turn (pool_add_error) */
    /* results */
    int status;
    bool failed;
    size_t nchanged;           /* files that would change */
    Report report;
    /* --check/--diff/--dry-run: each file reported as changing, and
       where its lines are in the report (a file two inputs change, such
       as a target's header beside both, is reported by the first only) */
    struct ReportedChange {
        char *path;
        size_t start, end;
        bool created;          /* --dry-run: the file is not there yet */
        bool dropped;          /* an earlier job reported it */
    } *reported;
    size_t nreported;
    IoCommit *commit;          /* NULL: nothing to write */
    FileRefs reads;            /* every file the work looked at */
    TextId *texts;             /* the texts it read, for sums.c */
    size_t ntexts, captexts;
    char **write_paths;        /* the files its commit writes */
    size_t nwrites;
    FileRefs writes;           /* what they were before (kept for checks) */
    QueryFile query;           /* the query modes: what the file declares */
    bool queried;
    /* scheduling */
    bool started, done;
    size_t start_commit;       /* files committed when the work began */
} Job;

/* A buffer each thread reads its files into, reused from file to file:
   most files are only looked at (no marker), and fresh memory for each
   would cost a page fault per page read. */
typedef struct ReadBuf {
    char *buf;
    size_t cap;
} ReadBuf;

/* Works the job out: its report, its status, and what to write. */
void job_compute(const Options *o, Job *job, ReadBuf *rb);
/* The job's turn: prints its report, writes its files, counts it in t.
   Returns its status. */
int job_commit(const Options *o, Job *job, Tally *t);
/* Forgets what job_compute found, to work the job out again. */
void job_reset(Job *job);
/* --dry-run: "would create PATH" or "would update PATH" for each file
   the run's commits found changing, sorted by path, on stdout. */
void dry_run_print(void);

/* ---- sums.c ------------------------------------------------------------ */

/* ClinicOptions.sum_known and sum_note over the run's remembered
   checksums; userdata is the Job. */
bool sums_known(void *userdata, const char *path, size_t offset, size_t len,
                char *sum);
void sums_note(void *userdata, const char *path, size_t offset, size_t len,
               const char *sum);
void sums_free(void);
/* Notes that the job read raw (len bytes) from path, whose fstat before
   the reading was st; has_cr: raw holds a "\r" (the caller looked). */
void job_note_text(Job *job, const char *path, const struct stat *st,
                   const char *raw, size_t len, bool has_cr);
void job_forget_texts(Job *job);

/* ---- pool.c ------------------------------------------------------------ */

typedef struct Pool Pool;

/* parallel: work on files on one thread per processor. */
Pool *pool_new(const Options *o, bool parallel);
/* Adds a file; own_path: the pool frees path when done. */
void pool_add(Pool *p, const char *path, const char *output_path,
              bool own_path);
/* The same for a file --make's walk listed as a regular file (its
   directory entry's type); the pool owns path. */
void pool_add_listed(Pool *p, char *path);
/* Adds "PATH: error: MESSAGE", printed in its turn among the files'
   reports; the run's status becomes EXIT_ERROR then. */
void pool_add_error(Pool *p, const char *path, const char *message);
/* Commits every file added so far, in order. */
void pool_drain(Pool *p);
/* Asked on the main thread before the job numbered index (from 0, in the
   order added) is committed; it may pool_truncate the jobs after it. */
typedef void (*PoolCommitHook)(void *data, const Job *job, size_t index);
void pool_set_commit_hook(Pool *p, PoolCommitHook hook, void *data);
/* The number of files added so far. */
size_t pool_njobs(const Pool *p);
/* Drops the jobs numbered n and after (none yet committed), waiting for
   the workers that work on them; their results are thrown away. */
void pool_truncate(Pool *p, size_t n);
/* Notes an error found outside the files (a directory --make could not
   list): the run's status becomes EXIT_ERROR. */
void pool_fail(Pool *p);
/* Drains, stops the workers and frees the pool; returns the run's
   status and its tally. */
int pool_finish(Pool *p, Tally *tally);

/* ---- walk.c ------------------------------------------------------------ */

/* --make: every file under o->srcdir the dialect's --make takes (.c and
   .h; 3.13 also .cpp), into the pool. */
void walk_tree(const Options *o, Pool *pool);

#endif
