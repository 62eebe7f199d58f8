/*
 * io_commit.c — writing files safely; see io.h.
 *
 * clinic.py's write_file() compares the old text with the new one and
 * does nothing when they are equal, else writes FILE.new and renames it
 * over FILE.  We do the same with a unique temp file (mkstemp), fsync
 * before the rename, write through symlinks instead of replacing them,
 * and write the input file and its routed files as one commit in three
 * steps: every target checked, then every temp file written, then every
 * rename.  What can be known about a target before writing is checked in
 * the first step, so that the last one, which cannot be undone, has
 * nothing left to refuse but a file another process changed meanwhile.
 *
 * A symlink the user made to their input is theirs, and is written
 * through.  A routed file is clinic's to name, so a symlink in its place
 * came with the tree (a pull request) and is refused: followed, it would
 * have clinic replace whatever it points to.
 */
#define _GNU_SOURCE   /* statx: immutable, append-only, mount root */
#include "base/io.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"

typedef struct CommitEntry {
    char *path;       /* as given */
    char *target;     /* the file really written (symlinks resolved) */
    char *temp;       /* temp file, while it exists */
    char *data;
    size_t len;
    bool routed;      /* make its directories; never through a symlink */
    bool unchanged;
} CommitEntry;

/* A file the commit's texts were computed from, as it was read. */
typedef struct Expected {
    char *path;
    IoStamp stamp;
    bool replaced;    /* by this commit: no longer to be checked */
} Expected;

struct IoCommit {
    CommitEntry *entries;
    size_t n, cap;
    Expected *expected;
    size_t nexpected;
    IoWriteFn write_fn;
    char **made_dirs;          /* directories this commit created */
    size_t nmade, capmade;
};

static ssize_t default_write(int fd, const void *buf, size_t n)
{
    return write(fd, buf, n);
}

IoCommit *io_commit_new(void)
{
    IoCommit *commit = xcalloc(1, sizeof *commit);
    commit->write_fn = default_write;
    return commit;
}

void io_commit_set_write_fn(IoCommit *commit, IoWriteFn fn)
{
    commit->write_fn = fn ? fn : default_write;
}

void io_commit_add(IoCommit *commit, const char *path, const char *data,
                   size_t len, bool routed)
{
    if (commit->n == commit->cap) {
        commit->cap = commit->cap ? 2 * commit->cap : 4;
        commit->entries = xrealloc(commit->entries,
                                   commit->cap * sizeof *commit->entries);
    }
    CommitEntry *e = &commit->entries[commit->n++];
    memset(e, 0, sizeof *e);
    e->path = xstrdup(path);
    e->data = xmalloc(len + 1);
    memcpy(e->data, data, len);
    e->data[len] = '\0';
    e->len = len;
    e->routed = routed;
}

void io_commit_expect(IoCommit *commit, const char *path,
                      const IoStamp *stamp)
{
    commit->expected = xrealloc(commit->expected, (commit->nexpected + 1) *
                                                      sizeof *commit->expected);
    Expected *x = &commit->expected[commit->nexpected++];
    x->path = xstrdup(path);
    x->stamp = *stamp;
    x->replaced = false;
}

void io_commit_free(IoCommit *commit)
{
    if (!commit)
        return;
    for (size_t i = 0; i < commit->n; i++) {
        CommitEntry *e = &commit->entries[i];
        if (e->temp)
            unlink(e->temp);
        free(e->temp);
        free(e->path);
        free(e->target);
        free(e->data);
    }
    for (size_t i = 0; i < commit->nmade; i++)
        free(commit->made_dirs[i]);
    free(commit->made_dirs);
    for (size_t i = 0; i < commit->nexpected; i++)
        free(commit->expected[i].path);
    free(commit->expected);
    free(commit->entries);
    free(commit);
}

/* ---- errors ----------------------------------------------------------- */

/* strlcpy: copy what fits, always terminated. */
static void copy_truncated(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* err names path (shown as '' when empty), says what failed and, with
   errnum, why. */
static int fail_with(IoError *err, const char *path, int errnum,
                     const char *what)
{
    if (err) {
        copy_truncated(err->path, sizeof err->path, *path ? path : "''");
        copy_truncated(err->message, sizeof err->message, what);
        if (errnum) {
            size_t n = strlen(err->message);
            snprintf(err->message + n, sizeof err->message - n, ": %s",
                     strerror(errnum));
        }
        err->errnum = errnum;
    }
    errno = errnum;
    return -1;
}

/* fail_with, errno set but not shown: the message says it all. */
static int refuse(IoError *err, const char *path, int errnum,
                  const char *what)
{
    fail_with(err, path, 0, what);
    if (err)
        err->errnum = errnum;
    errno = errnum;
    return -1;
}

/* ---- step 1: every target checked ------------------------------------- */

/* The reference's words for a non-directory where a routed file's
   directory should be. */
static int obstructed(const CommitEntry *e, IoError *err)
{
    char *named = io_dirname(e->path);
    char what[2 * PATH_MAX + 64];
    snprintf(what, sizeof what,
             "Can't write to destination %s, can't make directory %s!",
             e->path, named);
    free(named);
    return refuse(err, e->path, ENOTDIR, what);
}

/* The file attributes a rename cannot get past: immutable and
   append-only (chattr +i, +a) and being a mount point (a bind-mounted
   file).  Linux's statx tells; elsewhere the rename will. */
static int check_attributes(const CommitEntry *e, IoError *err)
{
#if defined(STATX_ATTR_IMMUTABLE) && defined(STATX_ATTR_MOUNT_ROOT)
    struct statx stx;
    if (statx(AT_FDCWD, e->target, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS,
              &stx) < 0)
        return 0;
    const char *why = NULL;
    if (stx.stx_attributes & STATX_ATTR_IMMUTABLE)
        why = "file is immutable (chattr +i), not rewriting it";
    else if (stx.stx_attributes & STATX_ATTR_APPEND)
        why = "file is append-only (chattr +a), not rewriting it";
    else if (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT &&
             stx.stx_attributes & STATX_ATTR_MOUNT_ROOT)
        why = "file is a mount point (bind-mounted?), a rename can't "
              "replace it";
    if (why)
        return refuse(err, e->path, EPERM, why);
#else
    (void)e;
    (void)err;
#endif
    return 0;
}

/* The nearest directory of path that exists (path itself included), for
   a file whose directory is yet to be made; NULL when something that is
   not a directory is met first (*blocked then names it). */
static char *nearest_existing_dir(const char *dir, bool *blocked)
{
    char *cur = xstrdup(dir);
    *blocked = false;
    for (;;) {
        struct stat st;
        if (stat(cur, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                return cur;
            *blocked = true;
            free(cur);
            return NULL;
        }
        if (errno == ENOTDIR) {
            *blocked = true;
            free(cur);
            return NULL;
        }
        char *up = io_dirname(cur);
        if (!strcmp(up, cur)) {        /* "." or "/" missing: give up */
            free(up);
            free(cur);
            return NULL;
        }
        free(cur);
        cur = up;
    }
}

/* May the rename of a temp file in dir replace (or create) e->target?
   Everything that can be known before writing. */
static int check_target(const CommitEntry *e, IoError *err)
{
    if (!*e->path)
        return refuse(err, e->path, ENOENT, "empty file name");
    struct stat st;
    bool exists = lstat(e->target, &st) == 0;
    if (exists && e->routed && S_ISLNK(st.st_mode))
        return refuse(err, e->path, ELOOP, "it is a symbolic link: clinic "
                      "writes the files it routes output to itself, never "
                      "through a link (remove the link)");
    if (!exists && errno != ENOENT && errno != ENOTDIR)
        return fail_with(err, e->path, errno, "can't write it");
    if (exists) {
        if (S_ISLNK(st.st_mode))   /* a loop io_resolve_target gave up on */
            return fail_with(err, e->path, ELOOP, "can't write it");
        if (!S_ISREG(st.st_mode)) {
            char what[128];
            snprintf(what, sizeof what, "it is %s, not a regular file: not "
                     "replacing it", io_file_kind(st.st_mode));
            return refuse(err, e->path,
                          S_ISDIR(st.st_mode) ? EISDIR : EINVAL, what);
        }
        /* A file without any write permission bit was made read-only on
           purpose: refuse to replace it (clinic.py silently would). */
        if (!(st.st_mode & 0222))
            return refuse(err, e->path, EACCES,
                          "file is read-only, not rewriting it (make it "
                          "writable, or use --diff)");
        if (check_attributes(e, err) < 0)
            return -1;
    }

    char *dir = io_dirname(e->target);
    bool blocked;
    char *existing = nearest_existing_dir(dir, &blocked);
    if (!existing) {
        int rc;
        if (blocked && e->routed)
            rc = obstructed(e, err);
        else
            rc = fail_with(err, e->path, blocked ? ENOTDIR : ENOENT,
                           "can't write it");
        free(dir);
        return rc;
    }
    if (strcmp(existing, dir) != 0 && !e->routed) {
        free(existing);
        free(dir);
        return fail_with(err, e->path, ENOENT, "can't write it");
    }
    int rc = 0;
    /* effective ids, as the writes will use; EROFS, an immutable
       directory and missing permission all show here */
    if (faccessat(AT_FDCWD, existing, W_OK | X_OK, AT_EACCESS) < 0) {
        char what[PATH_MAX + 64];
        snprintf(what, sizeof what, "can't write in directory %s",
                 existing);
        rc = fail_with(err, e->path, errno, what);
    } else if (exists && geteuid() != 0 && st.st_uid != geteuid()) {
        /* in a sticky directory only the owners may rename over a file */
        struct stat dst;
        if (stat(existing, &dst) == 0 && dst.st_mode & S_ISVTX &&
            dst.st_uid != geteuid())
            rc = refuse(err, e->path, EPERM,
                        "file belongs to another user in a sticky "
                        "directory, not rewriting it");
    }
    free(existing);
    free(dir);
    return rc;
}

/* ---- step 2: directories and temp files ------------------------------ */

/* os.makedirs(dirname) for a routed file, noting each directory made so
   a failed commit can take it back. */
static int make_parent_dirs(IoCommit *commit, const CommitEntry *e,
                            IoError *err)
{
    char *dir = io_dirname(e->target);
    struct stat st;
    if (stat(dir, &st) == 0) {
        free(dir);
        return S_ISDIR(st.st_mode) ? 0 : obstructed(e, err);
    }
    int rc = 0;
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(dir, 0777) == 0) {
            if (commit->nmade == commit->capmade) {
                commit->capmade = commit->capmade ? 2 * commit->capmade : 4;
                commit->made_dirs = xrealloc(commit->made_dirs,
                                             commit->capmade *
                                                 sizeof *commit->made_dirs);
            }
            commit->made_dirs[commit->nmade++] = xstrdup(dir);
        } else if (errno != EEXIST) {
            rc = errno == ENOTDIR
                     ? obstructed(e, err)
                     : fail_with(err, e->path, errno, "can't make directory");
        } else if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
            rc = obstructed(e, err);
        }
        *p = saved;
        if (rc < 0 || saved == '\0')
            break;
    }
    free(dir);
    return rc;
}

/* Does the file at path hold e's new text (already, or after a
   concurrent clinic's write of the same)? */
static bool same_text_at(const char *path, const CommitEntry *e)
{
    char *text;
    size_t n;
    if (io_read_file(path, &text, &n) < 0)
        return false;
    bool same = n == e->len && memcmp(text, e->data, n) == 0;
    free(text);
    return same;
}

static bool same_as_on_disk(const CommitEntry *e)
{
    return same_text_at(e->target, e);
}

static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* A temp name is ".STEM.clinic-PID-START-XXXXXX", or ".STEM.clinic-PID-
   XXXXXX" where the system does not tell a process's start: START is
   when the maker started, in the clock ticks since boot of Linux's
   /proc, so that a sweep can tell the maker from a later process given
   the same number.  STEM is the target's name, or, when the whole would
   pass the directory's limit on a name's length, the name cut short and
   a hash of it, so that a file with the longest name allowed can still
   be rewritten. */
#define TEMP_EXTRA (sizeof ".clinic---XXXXXX" + 10 + 20)  /* "." + pid + start */

static char *temp_stem(const char *dir, const char *base)
{
    long name_max = pathconf(dir, _PC_NAME_MAX);
    if (name_max <= 0)
        name_max = 255;
    size_t n = strlen(base);
    if (n + TEMP_EXTRA <= (size_t)name_max)
        return xstrdup(base);
    uint32_t h = 2166136261u;                  /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)base[i]) * 16777619u;
    size_t keep = (size_t)name_max > TEMP_EXTRA + 9 + 8
                      ? (size_t)name_max - TEMP_EXTRA - 9 : 8;
    char *stem = xmalloc(keep + 10);
    snprintf(stem, keep + 10, "%.*s~%08x", (int)keep, base, (unsigned)h);
    return stem;
}

/* When the process numbered pid started, in clock ticks since boot, by
   Linux's /proc/PID/stat (field 22); 0 where that cannot be read.  One
   kernel counter for every process, so two readings compare exactly:
   no wall clock, no boot time, nothing a clock step or a container's
   view of time can shift. */
static unsigned long long process_start_ticks(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* the fields after the command's name, which may hold anything but
       ends at the last ')': state is field 3, starttime field 22 */
    const char *p = strrchr(buf, ')');
    if (!p)
        return 0;
    int field = 2;
    for (p++; *p && field < 22; p++)
        if (*p == ' ')
            field++;
    unsigned long long ticks = 0;
    if (field != 22 || sscanf(p, "%llu", &ticks) != 1)
        return 0;
    return ticks;
}

char *io_temp_name(const char *target)
{
    char *dir = io_dirname(target);
    const char *base = strrchr(target, '/');
    base = base ? base + 1 : target;
    char *stem = temp_stem(dir, base);
    char *name = xmalloc(strlen(dir) + strlen(stem) + 64);
    long pid = (long)getpid();
    unsigned long long start = process_start_ticks(pid);
    if (start)
        sprintf(name, "%s/.%s.clinic-%ld-%llu-XXXXXX", dir, stem, pid, start);
    else
        sprintf(name, "%s/.%s.clinic-%ld-XXXXXX", dir, stem, pid);
    free(stem);
    free(dir);
    return name;
}

/* Reads "PID-XXXXXX" or "PID-START-XXXXXX", the end of a temp name;
   start is 0 when the name has none.  False for anything else. */
static bool parse_temp_maker(const char *s, long *pid, unsigned long long *start)
{
    char *end;
    if (*s < '1' || *s > '9')
        return false;
    *pid = strtol(s, &end, 10);
    if (*pid <= 0 || *end != '-')
        return false;
    *start = 0;
    if (strlen(end + 1) == 6)
        return true;
    s = end + 1;
    if (*s < '1' || *s > '9')
        return false;
    *start = strtoull(s, &end, 10);
    return *start != 0 && *end == '-' && strlen(end + 1) == 6;
}

/*
 * A clinic killed between creating a temp file and renaming it leaves it
 * behind (or the old text under the temp name, when killed between
 * exchanging the two and removing it); the next run over the same file,
 * writing it or finding it up to date, removes those whose maker is gone:
 * no process has its number, or the one that has it started at another
 * time than the name records (the number was reused).  A live
 * maker's temp file (a concurrent clinic) is left alone, so two runs
 * never disturb each other; so is one whose name records no start, while
 * a process has its number.
 */
static void remove_stale_temps(const char *dir, const char *stem)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t slen = strlen(stem);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *name = de->d_name;
        long pid;
        unsigned long long start;
        if (name[0] != '.' || strncmp(name + 1, stem, slen) != 0 ||
            strncmp(name + 1 + slen, ".clinic-", 8) != 0 ||
            !parse_temp_maker(name + 1 + slen + 8, &pid, &start))
            continue;
        bool gone = kill((pid_t)pid, 0) < 0 && errno == ESRCH;
        if (!gone && start) {
            unsigned long long now = process_start_ticks(pid);
            gone = now != 0 && now != start;
        }
        if (gone) {
            char *path = xmalloc(strlen(dir) + strlen(name) + 2);
            sprintf(path, "%s/%s", dir, name);
            unlink(path);   /* best effort: a leftover harms nothing */
            free(path);
        }
    }
    closedir(d);
}

/* Gives the temp file what the target had: permission bits without
   setuid and setgid (a rewritten program is not the one that was
   trusted; cp drops them too), and owner and group where the process
   may set them.  A new file gets 0666 & ~umask. */
static int copy_ownership(int fd, const char *target)
{
    struct stat st;
    if (stat(target, &st) < 0)
        return fchmod(fd, new_file_mode());
    if (fchown(fd, st.st_uid, st.st_gid) < 0)
        (void)!fchown(fd, (uid_t)-1, st.st_gid);   /* the group, at least */
    return fchmod(fd, st.st_mode & 07777 & ~(mode_t)(S_ISUID | S_ISGID));
}

/* Removes the temp files of target that dead makers left. */
static void sweep_temps_of(const char *target)
{
    char *dir = io_dirname(target);
    const char *base = strrchr(target, '/');
    base = base ? base + 1 : target;
    char *stem = temp_stem(dir, base);
    remove_stale_temps(dir, stem);
    free(stem);
    free(dir);
}

void io_sweep_temps(const char *path, bool routed)
{
    char *target = routed ? xstrdup(path) : io_resolve_target(path);
    sweep_temps_of(target);
    free(target);
}

/* Writes e->data to a fresh temp file beside the target. */
static int write_temp(IoCommit *commit, CommitEntry *e, IoError *err)
{
    sweep_temps_of(e->target);
    e->temp = io_temp_name(e->target);

    int fd = mkstemp(e->temp);
    if (fd < 0) {
        int e2 = errno;
        free(e->temp);
        e->temp = NULL;
        return fail_with(err, e->path, e2, "can't create temporary file");
    }
    const char *what = NULL;
    int e2 = 0;
    size_t done = 0;
    while (done < e->len) {
        ssize_t n = commit->write_fn(fd, e->data + done, e->len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            e2 = n < 0 ? errno : ENOSPC;
            what = "can't write";
            break;
        }
        done += (size_t)n;
    }
    if (!what && copy_ownership(fd, e->target) < 0) {
        e2 = errno;
        what = "can't set permissions";
    }
    if (!what && fsync(fd) < 0) {
        e2 = errno;
        what = "can't write";
    }
    if (close(fd) < 0 && !what) {
        e2 = errno;
        what = "can't write";
    }
    if (what)
        return fail_with(err, e->path, e2, what);
    return 0;
}

/* Takes back what a failed commit made: its temp files, and the
   directories it created (deepest first; one that is not empty now
   stays). */
static void undo(IoCommit *commit)
{
    int saved = errno;
    for (size_t i = 0; i < commit->n; i++) {
        CommitEntry *e = &commit->entries[i];
        if (e->temp) {
            unlink(e->temp);
            free(e->temp);
            e->temp = NULL;
        }
    }
    while (commit->nmade) {
        char *d = commit->made_dirs[--commit->nmade];
        rmdir(d);
        free(d);
    }
    errno = saved;
}

/* ---- step 3: the renames ----------------------------------------------- */

void io_stamp_of(const struct stat *st, IoStamp *stamp)
{
    stamp->dev = st->st_dev;
    stamp->ino = st->st_ino;
    stamp->size = st->st_size;
    stamp->mtime_sec = st->st_mtim.tv_sec;
    stamp->mtime_nsec = st->st_mtim.tv_nsec;
    stamp->ctime_sec = st->st_ctim.tv_sec;
    stamp->ctime_nsec = st->st_ctim.tv_nsec;
}

bool io_stamp_same(const IoStamp *a, const IoStamp *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime_sec == b->mtime_sec && a->mtime_nsec == b->mtime_nsec &&
           a->ctime_sec == b->ctime_sec && a->ctime_nsec == b->ctime_nsec;
}

/* Is the file now (a file the commit's texts came from) one the commit
   writes, already holding the commit's text for it?  Then whoever
   changed it (a concurrent clinic) made the change this commit makes. */
static bool holds_commit_text(const IoCommit *commit, const struct stat *now)
{
    for (size_t i = 0; i < commit->n; i++) {
        const CommitEntry *e = &commit->entries[i];
        struct stat st;
        if (stat(e->target, &st) == 0 && st.st_dev == now->st_dev &&
            st.st_ino == now->st_ino)
            return same_as_on_disk(e);
    }
    return false;
}

/* The first file the commit's texts came from that is no longer the
   file that was read (and does not hold the commit's text), or NULL.
   The change time catches an edit in place that kept the size and set
   the modification time back. */
static const Expected *changed_since_read(const IoCommit *commit)
{
    for (size_t i = 0; i < commit->nexpected; i++) {
        const Expected *x = &commit->expected[i];
        struct stat st;
        IoStamp now;
        if (x->replaced)
            continue;
        if (stat(x->path, &st) < 0)
            return x;
        io_stamp_of(&st, &now);
        if (!io_stamp_same(&now, &x->stamp)) {
            if (holds_commit_text(commit, &st))
                continue;
            return x;
        }
    }
    return NULL;
}

/* The commit has just renamed its text over the file that was `old`:
   an expected file that was that one has changed as it should. */
static void note_replaced(IoCommit *commit, const struct stat *old)
{
    for (size_t i = 0; i < commit->nexpected; i++) {
        Expected *x = &commit->expected[i];
        if (x->stamp.dev == old->st_dev && x->stamp.ino == old->st_ino)
            x->replaced = true;
    }
}

/* The file e's texts came from, when the commit expects one there: by
   name, or by the identity of the file there now (st, when it exists). */
static const Expected *expected_at(const IoCommit *commit,
                                   const CommitEntry *e,
                                   const struct stat *st)
{
    for (size_t i = 0; i < commit->nexpected; i++) {
        const Expected *x = &commit->expected[i];
        if (!x->replaced &&
            (!strcmp(x->path, e->path) ||
             (st && x->stamp.dev == st->st_dev && x->stamp.ino == st->st_ino)))
            return x;
    }
    return NULL;
}

/* Renames e's temp file over its target.  A stat just before a rename
   leaves a window in which another process can replace the file, to be
   overwritten with output of its old text; so where the target is a file
   the texts came from, the two are exchanged instead (Linux's renameat2
   RENAME_EXCHANGE), and the file taken out is checked to be the one that
   was read (device, inode, size, modification time: a rename changes its
   change time).  If it is not, it is exchanged back and *stale says
   which file changed.  Where exchanging is not supported, a plain
   rename.  -1 and err (or *stale) on failure. */
static int replace_target(IoCommit *commit, CommitEntry *e,
                          const Expected **stale, IoError *err)
{
    struct stat old;
    bool existed = stat(e->target, &old) == 0;
    const Expected *x = expected_at(commit, e, existed ? &old : NULL);
#ifdef RENAME_EXCHANGE
    if (x) {
        if (renameat2(AT_FDCWD, e->temp, AT_FDCWD, e->target,
                      RENAME_EXCHANGE) == 0) {
            struct stat out;
            bool as_read = lstat(e->temp, &out) == 0 &&
                           out.st_dev == x->stamp.dev &&
                           out.st_ino == x->stamp.ino &&
                           out.st_size == x->stamp.size &&
                           out.st_mtim.tv_sec == x->stamp.mtime_sec &&
                           out.st_mtim.tv_nsec == x->stamp.mtime_nsec;
            if (!as_read && !same_text_at(e->temp, e)) {
                /* theirs back in place; ours is the temp file again
                   (should that fail, theirs is kept under the temp
                   name rather than removed with the temp file) */
                if (renameat2(AT_FDCWD, e->temp, AT_FDCWD, e->target,
                              RENAME_EXCHANGE) < 0) {
                    free(e->temp);
                    e->temp = NULL;
                }
                *stale = x;
                return -1;
            }
            unlink(e->temp);   /* the old file */
            note_replaced(commit, &out);
            return 0;
        }
        if (errno == ENOENT) {   /* gone since the check */
            *stale = x;
            return -1;
        }
        if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
            return fail_with(err, e->path, errno, "can't replace file");
    }
#endif
    if (rename(e->temp, e->target) < 0)
        return fail_with(err, e->path, errno, "can't replace file");
    if (existed)
        note_replaced(commit, &old);
    return 0;
}

/* Do the files from entry `from` on already hold what the commit would
   write?  A concurrent clinic, given the same files, writes the same
   texts: its change is no conflict.  If so, their temp files go. */
static bool already_written(IoCommit *commit, size_t from)
{
    for (size_t i = from; i < commit->n; i++) {
        const CommitEntry *e = &commit->entries[i];
        if (!e->unchanged && !same_as_on_disk(e))
            return false;
    }
    undo(commit);
    return true;
}

static int changed_meanwhile(IoError *err, const Expected *x)
{
    return refuse(err, x->path, ESTALE, "changed while clinic was running: "
                  "left as it is now, nothing written from its old text "
                  "(run clinic again)");
}

static void sync_dir_of(const char *path)
{
    char *dir = io_dirname(path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);   /* best effort: the rename is done either way */
        close(fd);
    }
    free(dir);
}

int io_commit_run(IoCommit *commit, IoError *err)
{
    /* Two entries on one file would leave only the text renamed last:
       whichever the order, one of them is lost. */
    for (size_t i = 0; i < commit->n; i++)
        for (size_t k = i + 1; k < commit->n; k++)
            if (io_same_file(commit->entries[i].path,
                             commit->entries[k].path)) {
                char what[PATH_MAX + 64];
                snprintf(what, sizeof what, "is the same file as %s, "
                         "not writing either", commit->entries[k].path);
                return refuse(err, commit->entries[i].path, EINVAL, what);
            }
    for (size_t i = 0; i < commit->n; i++) {
        CommitEntry *e = &commit->entries[i];
        free(e->target);
        /* a routed file's rename replaces a link that appears after the
           check, rather than writing through it */
        e->target = e->routed ? xstrdup(e->path) : io_resolve_target(e->path);
        e->unchanged = same_as_on_disk(e);
        if (e->unchanged)
            sweep_temps_of(e->target);
    }
    for (size_t i = 0; i < commit->n; i++) {
        CommitEntry *e = &commit->entries[i];
        if (!e->unchanged && check_target(e, err) < 0)
            return -1;
    }

    for (size_t i = 0; i < commit->n; i++) {
        CommitEntry *e = &commit->entries[i];
        if (e->unchanged)
            continue;
        if ((e->routed && make_parent_dirs(commit, e, err) < 0) ||
            write_temp(commit, e, err) < 0) {
            undo(commit);
            return -1;
        }
    }

    int written = 0;
    for (size_t i = 0; i < commit->n; i++) {
        CommitEntry *e = &commit->entries[i];
        if (e->unchanged)
            continue;
        const Expected *changed = changed_since_read(commit);
        if (changed) {
            if (already_written(commit, i))
                break;
            undo(commit);
            return changed_meanwhile(err, changed);
        }
        if (replace_target(commit, e, &changed, err) < 0) {
            undo(commit);
            return changed ? changed_meanwhile(err, changed) : -1;
        }
        free(e->temp);
        e->temp = NULL;
        sync_dir_of(e->target);
        written++;
    }
    for (size_t i = 0; i < commit->nmade; i++)
        free(commit->made_dirs[i]);
    commit->nmade = 0;
    return written;
}

int io_write_file(const char *path, const char *data, size_t len,
                  IoError *err)
{
    IoCommit *commit = io_commit_new();
    io_commit_add(commit, path, data, len, false);
    int rc = io_commit_run(commit, err);
    io_commit_free(commit);
    return rc;
}
