/*
 * io.c — reading files as clinic.py does and writing them safely; see
 * io.h.
 *
 * clinic.py's write_file() compares the old text with the new one and
 * does nothing when they are equal, else writes FILE.new and renames it
 * over FILE.  We do the same with a unique temp file (mkstemp), keep the
 * permission bits, fsync before the rename, write through symlinks
 * instead of replacing them, and write the input file and its routed
 * files as one commit: all temp files first, then all renames.
 */
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <signal.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "textform.h"

/* ---- reading --------------------------------------------------------- */

int io_read_file(const char *path, char **data, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        errno = EISDIR;
        return -1;
    }
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
    size_t n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            close(fd);
            errno = e;
            return -1;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}

size_t io_universal_newlines(char *data, size_t len)
{
    return textform_universal_newlines(data, len);
}

int io_read_text(const char *path, char **data, size_t *len)
{
    if (io_read_file(path, data, len) < 0)
        return -1;
    *len = io_universal_newlines(*data, *len);
    return 0;
}

int io_clinic_read(void *userdata, const char *path, char **data,
                   size_t *len)
{
    (void)userdata;
    return io_read_text(path, data, len);
}

bool io_check_utf8(const char *data, size_t len, char *msg, size_t msgsize)
{
    const unsigned char *s = (const unsigned char *)data;
    size_t i = 0;
    while (i < len) {
        /* ASCII, most of any C file, 32 then eight bytes at a time */
        while (i + 32 <= len) {
            uint64_t w[4];
            memcpy(w, s + i, 32);
            if ((w[0] | w[1] | w[2] | w[3]) & UINT64_C(0x8080808080808080))
                break;
            i += 32;
        }
        while (i + 8 <= len) {
            uint64_t word;
            memcpy(&word, s + i, 8);
            if (word & UINT64_C(0x8080808080808080))
                break;
            i += 8;
        }
        if (i >= len)
            break;
        unsigned char b = s[i];
        if (b < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned char lo = 0x80, hi = 0xbf;   /* range of the 2nd byte */
        if (b >= 0xc2 && b <= 0xdf) {
            need = 1;
        } else if (b >= 0xe0 && b <= 0xef) {
            need = 2;
            if (b == 0xe0)
                lo = 0xa0;                    /* overlong */
            if (b == 0xed)
                hi = 0x9f;                    /* surrogates */
        } else if (b >= 0xf0 && b <= 0xf4) {
            need = 3;
            if (b == 0xf0)
                lo = 0x90;
            if (b == 0xf4)
                hi = 0x8f;                    /* beyond U+10FFFF */
        } else {
            snprintf(msg, msgsize,
                     "'utf-8' codec can't decode byte 0x%02x in position "
                     "%zu: invalid start byte", b, i);
            return false;
        }
        /* Python reports the lead byte plus the continuation bytes that
           were valid before the problem. */
        size_t k = 0;
        while (k < need && i + 1 + k < len) {
            unsigned char cb = s[i + 1 + k];
            bool ok = k == 0 ? cb >= lo && cb <= hi : cb >= 0x80 && cb <= 0xbf;
            if (!ok)
                break;
            k++;
        }
        if (k == need) {
            i += need + 1;
            continue;
        }
        const char *why = i + 1 + k >= len ? "unexpected end of data"
                                           : "invalid continuation byte";
        if (k == 0)
            snprintf(msg, msgsize,
                     "'utf-8' codec can't decode byte 0x%02x in position "
                     "%zu: %s", b, i, why);
        else
            snprintf(msg, msgsize,
                     "'utf-8' codec can't decode bytes in position "
                     "%zu-%zu: %s", i, i + k, why);
        return false;
    }
    return true;
}

/* ---- writing --------------------------------------------------------- */

typedef struct CommitEntry {
    char *path;       /* as given */
    char *target;     /* the file really written (symlinks resolved) */
    char *temp;       /* temp file, while it exists */
    char *data;
    size_t len;
    bool make_dirs;
    bool unchanged;
} CommitEntry;

struct IoCommit {
    CommitEntry *entries;
    size_t n, cap;
    IoWriteFn write_fn;
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
                   size_t len, bool make_dirs)
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
    e->make_dirs = make_dirs;
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
    free(commit->entries);
    free(commit);
}

/* strlcpy: copy what fits, always terminated. */
static void copy_truncated(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static int fail_with(IoError *err, const char *path, int errnum,
                     const char *what)
{
    if (err) {
        copy_truncated(err->path, sizeof err->path, path);
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

/* "dir/name" -> "dir" ("." when there is no slash, "/" for "/name"). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    size_t n = (size_t)(slash - path);
    char *d = xmalloc(n + 1);
    memcpy(d, path, n);
    d[n] = '\0';
    return d;
}

/* The file a write to path really lands on: path itself, or for a
   symlink (even a dangling one) the file at the end of the chain, so
   the link is written through and stays a link. */
static char *resolve_target(const char *path)
{
    char *cur = xstrdup(path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
            return cur;
        char *real = realpath(cur, NULL);
        if (real) {
            free(cur);
            return real;
        }
        /* dangling: follow one link by hand */
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return cur;
        link[n] = '\0';
        char *next;
        if (link[0] == '/') {
            next = xstrdup(link);
        } else {
            char *dir = dir_of(cur);
            next = xmalloc(strlen(dir) + strlen(link) + 2);
            sprintf(next, "%s/%s", dir, link);
            free(dir);
        }
        free(cur);
        cur = next;
    }
    return cur;
}

/* ---- identity -------------------------------------------------------- */

/* Drops the last component of an absolute path in place ("/a/b" -> "/a",
   "/a" -> "/"). */
static void drop_last_component(char *path)
{
    char *slash = strrchr(path, '/');
    if (slash == path)
        path[1] = '\0';
    else if (slash)
        *slash = '\0';
}

/* An absolute name for the file a write to path lands on, every symlink
   resolved: realpath of the longest leading part that exists, then the
   rest, whose "." and ".." are resolved by name (none of it exists, so no
   link can be in it). */
static char *resolve_path(const char *path)
{
    char *target = resolve_target(path);
    char *real = realpath(target, NULL);
    if (real) {
        free(target);
        return real;
    }
    char *abs;
    if (target[0] == '/') {
        abs = target;
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            return target;
        abs = xmalloc(strlen(cwd) + strlen(target) + 2);
        sprintf(abs, "%s/%s", cwd, target);
        free(target);
    }
    /* the longest existing prefix, cut at a slash (the root exists) */
    size_t cut = strlen(abs);
    char *base;
    for (;;) {
        while (cut > 0 && abs[cut] != '/')
            cut--;
        if (cut == 0) {
            base = xstrdup("/");
            break;
        }
        abs[cut] = '\0';
        base = realpath(abs, NULL);
        abs[cut] = '/';
        if (base)
            break;
        cut--;
    }
    size_t cap = strlen(base) + strlen(abs + cut) + 2;
    char *out = xmalloc(cap);
    strcpy(out, base);
    free(base);
    char *save = NULL;
    for (char *part = strtok_r(abs + cut, "/", &save); part;
         part = strtok_r(NULL, "/", &save)) {
        if (!strcmp(part, "."))
            continue;
        if (!strcmp(part, "..")) {
            drop_last_component(out);
            continue;
        }
        if (strcmp(out, "/") != 0)
            strcat(out, "/");
        strcat(out, part);
    }
    free(abs);
    return out;
}

bool io_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ra = resolve_path(a), *rb = resolve_path(b);
    bool same = strcmp(ra, rb) == 0;
    free(ra);
    free(rb);
    return same;
}

bool io_clinic_same_file(void *userdata, const char *a, const char *b)
{
    (void)userdata;
    return io_same_file(a, b);
}

/* os.makedirs(dirname) for a routed file; a non-directory in the way is
   the reference's "Can't write to destination" error. */
static int make_parent_dirs(const CommitEntry *e, IoError *err)
{
    char *dir = dir_of(e->target);
    int rc = 0;
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            goto obstructed;
        free(dir);
        return 0;
    }
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
            int e2 = errno;
            if (e2 == ENOTDIR) {
                *p = saved;
                goto obstructed;
            }
            rc = fail_with(err, e->path, e2, "can't make directory");
            *p = saved;
            break;
        }
        if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
            *p = saved;
            goto obstructed;
        }
        *p = saved;
        if (saved == '\0')
            break;
    }
    free(dir);
    return rc;

obstructed:;
    char *named = dir_of(e->path);
    char what[2 * PATH_MAX + 64];
    snprintf(what, sizeof what,
             "Can't write to destination %s, can't make directory %s!",
             e->path, named);
    free(named);
    free(dir);
    fail_with(err, e->path, 0, what);
    if (err)
        err->errnum = ENOTDIR;
    errno = ENOTDIR;
    return -1;
}

static bool same_as_on_disk(const CommitEntry *e)
{
    char *old;
    size_t n;
    if (io_read_file(e->target, &old, &n) < 0)
        return false;
    bool same = n == e->len && memcmp(old, e->data, n) == 0;
    free(old);
    return same;
}

static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/*
 * Temp files are named ".BASE.clinic-PID-XXXXXX".  A clinic killed between
 * creating one and renaming it leaves it behind; the next run writing
 * BASE removes those whose process is gone.  A live process's temp file
 * (a concurrent clinic) is left alone, so two runs never disturb each
 * other.
 */
static void remove_stale_temps(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t blen = strlen(base);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *name = de->d_name;
        if (name[0] != '.' || strncmp(name + 1, base, blen) != 0 ||
            strncmp(name + 1 + blen, ".clinic-", 8) != 0)
            continue;
        char *end;
        long pid = strtol(name + 1 + blen + 8, &end, 10);
        if (pid <= 0 || *end != '-' || strlen(end + 1) != 6)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char *path = xmalloc(strlen(dir) + strlen(name) + 2);
        sprintf(path, "%s/%s", dir, name);
        unlink(path);   /* best effort: a leftover harms nothing */
        free(path);
    }
    closedir(d);
}

/* Writes e->data to a fresh temp file beside the target. */
static int write_temp(IoCommit *commit, CommitEntry *e, IoError *err)
{
    char *dir = dir_of(e->target);
    const char *base = strrchr(e->target, '/');
    base = base ? base + 1 : e->target;
    remove_stale_temps(dir, base);
    e->temp = xmalloc(strlen(dir) + strlen(base) + 48);
    sprintf(e->temp, "%s/.%s.clinic-%ld-XXXXXX", dir, base, (long)getpid());
    free(dir);

    int fd = mkstemp(e->temp);
    if (fd < 0) {
        int e2 = errno;
        free(e->temp);
        e->temp = NULL;
        return fail_with(err, e->path, e2, "can't create temporary file");
    }
    struct stat st;
    mode_t mode = stat(e->target, &st) == 0 ? st.st_mode & 07777
                                            : new_file_mode();
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
    if (!what && fchmod(fd, mode) < 0) {
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

static void sync_dir_of(const char *path)
{
    char *dir = dir_of(path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);   /* best effort: the rename is done either way */
        close(fd);
    }
    free(dir);
}

static void remove_temps(IoCommit *commit)
{
    for (size_t i = 0; i < commit->n; i++) {
        CommitEntry *e = &commit->entries[i];
        if (e->temp) {
            unlink(e->temp);
            free(e->temp);
            e->temp = NULL;
        }
    }
}

int io_commit_run(IoCommit *commit, IoError *err)
{
    /* Two entries on one file would leave only the text renamed last:
       whichever order, one of them is lost. */
    for (size_t i = 0; i < commit->n; i++)
        for (size_t k = i + 1; k < commit->n; k++)
            if (io_same_file(commit->entries[i].path,
                             commit->entries[k].path)) {
                char what[PATH_MAX + 64];
                snprintf(what, sizeof what, "is the same file as %s, "
                         "not writing either", commit->entries[k].path);
                return fail_with(err, commit->entries[i].path, 0, what);
            }
    for (size_t i = 0; i < commit->n; i++) {
        CommitEntry *e = &commit->entries[i];
        free(e->target);
        e->target = resolve_target(e->path);
        e->unchanged = same_as_on_disk(e);
    }
    /* A file without any write permission bit was made read-only on
       purpose: refuse to replace it (clinic.py silently would). */
    for (size_t i = 0; i < commit->n; i++) {
        CommitEntry *e = &commit->entries[i];
        struct stat st;
        if (!e->unchanged && stat(e->target, &st) == 0 &&
            S_ISREG(st.st_mode) && !(st.st_mode & 0222)) {
            errno = EACCES;
            return fail_with(err, e->path, 0,
                             "file is read-only, not rewriting it "
                             "(make it writable, or use --diff)");
        }
    }
    for (size_t i = 0; i < commit->n; i++) {
        CommitEntry *e = &commit->entries[i];
        if (!e->unchanged && e->make_dirs && make_parent_dirs(e, err) < 0)
            return -1;
    }
    for (size_t i = 0; i < commit->n; i++) {
        CommitEntry *e = &commit->entries[i];
        if (!e->unchanged && write_temp(commit, e, err) < 0) {
            int e2 = errno;
            remove_temps(commit);
            errno = e2;
            return -1;
        }
    }
    int written = 0;
    for (size_t i = 0; i < commit->n; i++) {
        CommitEntry *e = &commit->entries[i];
        if (e->unchanged)
            continue;
        if (rename(e->temp, e->target) < 0) {
            int e2 = errno;
            remove_temps(commit);
            return fail_with(err, e->path, e2, "can't replace file");
        }
        free(e->temp);
        e->temp = NULL;
        sync_dir_of(e->target);
        written++;
    }
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
