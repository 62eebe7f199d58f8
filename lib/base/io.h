/*
 * io.h — the only module that touches files: reading them as clinic.py
 * does (UTF-8 text, universal newlines; regular files only), telling
 * whether two names are one file, and writing them safely (io_commit.c:
 * temp file in the same directory, fsync, rename; untouched when
 * unchanged; several files committed together or not at all).
 *
 * Errors are returned, never printed: -1 with errno set, and for writes
 * an IoError naming the file and the step that failed, so the command
 * line can say "FILE: error: ...".
 */
#ifndef CLINIC_IO_H
#define CLINIC_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* ---- reading --------------------------------------------------------- */

/* Opens a regular file for reading.  Anything else is refused without
   being opened (a FIFO would block, a device could act on the open):
   -1 with errno EISDIR for a directory, EINVAL for any other kind (see
   io_file_kind), or the error of stat/open. */
int io_open_regular(const char *path);
/* The same, with the fstat of the file opened in *st (its identity and
   size before any reading: for io_read_known). */
int io_open_regular_st(const char *path, struct stat *st);
/* The same for a path a directory listing just gave as a regular file
   (its entry's type): opened without the stat first.  Should it have
   become something else since, it is refused after the open, which does
   not wait (as io_open_regular's own check after the open does). */
int io_open_listed_st(const char *path, struct stat *st);

/* "a FIFO", "a character device", "a directory", ... for messages. */
const char *io_file_kind(mode_t mode);

/* The same into a buffer the caller keeps from file to file (*buf of
   *cap bytes, grown with realloc as needed; NULL and 0 to start). */
int io_read_into(int fd, char **buf, size_t *cap, size_t *len);
/* io_read_into with the fstat already made (st: io_open_regular_st's):
   a file is stat'ed once, not once per step. */
int io_read_known(int fd, const struct stat *st, char **buf, size_t *cap,
                  size_t *len);

/* io_open_regular + io_read_fd. */
int io_read_file(const char *path, char **data, size_t *len);

/* As clinic.py reads a file (open(path, 'r')): io_read_file, then
   universal newlines ("\r\n" and "\r" become "\n"). */
int io_read_text(const char *path, char **data, size_t *len);

/* Universal newlines in place; returns the new length. */
size_t io_universal_newlines(char *data, size_t len);

/* ClinicReadFn over io_read_text (userdata unused).  The library reads
   what a ClinicReadFn returns as universal newlines anyway, and keeps a
   file's own line endings itself (textform.h): clinic/job.c hands it the
   raw bytes of the input. */
int io_clinic_read(void *userdata, const char *path, char **data,
                   size_t *len);

/* Is data valid UTF-8?  When not, writes the message Python's decoder
   gives ("'utf-8' codec can't decode byte 0xff in position 3: invalid
   start byte") to msg and returns false. */
bool io_check_utf8(const char *data, size_t len, char *msg, size_t msgsize);

/* Does data hold a "\r" (*has_cr) or a NUL byte (*has_nul)?  One pass
   for both: what the library would otherwise search for one at a time. */
void io_find_cr_nul(const char *data, size_t len, bool *has_cr,
                    bool *has_nul);

/* What the library searches a file's text for, found in one pass over
   most of it: a "\r", a NUL byte, and how far from the start no byte
   may begin a line break but "\n": plain_len bytes with no NUL, no byte
   0x0b-0x1f and no byte >= 0x80 (0 where the processor has no quick way
   to tell: the library looks itself). */
typedef struct IoTextScan {
    bool has_cr, has_nul;
    size_t plain_len;
} IoTextScan;
void io_scan_text(const char *data, size_t len, IoTextScan *scan);

/* ---- paths and identity ------------------------------------------------ */

/* "dir/name" -> "dir" ("." when there is no slash, "/" for "/name");
   malloc'd. */
char *io_dirname(const char *path);
/* os.path.normpath(path): no empty or "." components, ".." taken back
   where it can be ("a/../b" -> "b", "/.." -> "/"), "." for nothing;
   malloc'd. */
char *io_normpath(const char *path);

/* The file a write to path really lands on: path itself, or for a
   symlink (even a dangling one) the file at the end of the chain, so the
   link is written through and stays a link.  malloc'd. */
char *io_resolve_target(const char *path);

/* Would a write to a and a write to b land on the same file?  Decided
   by the file itself: device and inode when both exist (so a symlink, a
   hard link, "./x", "/abs/x" and "d/../x" are all seen as one file), else
   by resolved paths (symlinks followed, dangling ones too, as a write
   follows them; the directory part that exists resolved with realpath,
   the rest normalised). */
bool io_same_file(const char *a, const char *b);

/* ClinicSameFileFn over io_same_file (userdata unused). */
bool io_clinic_same_file(void *userdata, const char *a, const char *b);

/* ---- writing (io_commit.c) --------------------------------------------- */

/* What went wrong in a write: the file concerned, the step, errno. */
typedef struct IoError {
    char path[4096];
    char message[4096 + 256];   /* "can't create temporary file: ..." */
    int errnum;
} IoError;

/* The write(2) used for file contents; tests inject failures here. */
typedef ssize_t (*IoWriteFn)(int fd, const void *buf, size_t n);

/* A set of files written together: every new text goes to a temp file
   first; only when all are written and synced are they renamed over
   their targets.

   Before anything is created, every target that changes is checked: two
   entries must not be one file; an existing target must be a regular
   file that a rename can replace (not a directory, FIFO or device, not
   read-only, immutable or append-only, not a mount point, not another
   user's file in a sticky directory); its directory (or the nearest one
   that exists, when directories are to be made) must be a writable
   directory.  So every failure that can be known beforehand leaves all
   targets as they were.  If anything fails later but before the renames
   (disk full), the temp files and the directories the commit made are
   removed.  Only a rename failing unforeseeably, or a file expected
   (io_commit_expect) changing between two renames, can leave a commit
   half done. */
typedef struct IoCommit IoCommit;

IoCommit *io_commit_new(void);
void io_commit_free(IoCommit *commit);
void io_commit_set_write_fn(IoCommit *commit, IoWriteFn fn);
/* Adds a file (data is copied).  routed: a file clinic owns (a routed
   file, a target's header) rather than one the user named: its missing
   parent directories are made, as clinic.py's file destinations do, and
   a symlink in its place is refused, never written through (a symlink a
   source tree brings, "clinic/x.c.h -> ../../victim", would otherwise
   have clinic write wherever it points). */
void io_commit_add(IoCommit *commit, const char *path, const char *data,
                   size_t len, bool routed);

/* A file's identity and stamps as the run read it, to tell whether
   another process changed it since. */
typedef struct IoStamp {
    dev_t dev;
    ino_t ino;
    off_t size;
    long long mtime_sec, mtime_nsec, ctime_sec, ctime_nsec;
} IoStamp;

void io_stamp_of(const struct stat *st, IoStamp *stamp);
/* The same file, not changed in between: every field equal. */
bool io_stamp_same(const IoStamp *a, const IoStamp *b);
/* The commit's texts were computed from path as stamped: before each
   rename it is stat'ed again, and if it is no longer that very file
   (another inode, size, modification or change time) the commit stops
   there, its temp files removed: the file is left as the other process
   wrote it ("changed while clinic was running", errno ESTALE).  The
   rename over such a file is an exchange where Linux has one, and the
   file taken out is checked once more, so no replacement slips in
   between the check and the rename.  Files
   whose text on disk is already what the commit would write are not
   renamed, and then a change is no error (a concurrent clinic wrote the
   same). */
void io_commit_expect(IoCommit *commit, const char *path,
                      const IoStamp *stamp);
/* Checks every target, then writes everything.  Files whose content on
   disk is already identical are not touched (their mtime is kept).  A
   target that is a symlink is written through (the link stays a link),
   unless it was added as routed: then it is refused.
   A rewritten file keeps its permission bits but setuid and setgid (as
   cp does), and its owner and group where the process may set them; a
   new file gets 0666 & ~umask.  A hard link to a rewritten file keeps
   the old text: the rename gives the name a new file.  Returns the
   number of files actually written, or -1 and *err. */
int io_commit_run(IoCommit *commit, IoError *err);

/* One file on its own: io_commit_* with a single entry. */
int io_write_file(const char *path, const char *data, size_t len,
                  IoError *err);

/* Removes path's temp files that dead makers left, as a write of path
   does first (path resolved through symbolic links, unless routed, as
   io_commit_add's).  A clinic killed after putting its text in place
   but before removing the old one (held under the temp name) leaves the
   file up to date: no later write of it would sweep. */
void io_sweep_temps(const char *path, bool routed);

/* The temp file name for target (".BASE.clinic-PID-XXXXXX", BASE cut
   and hashed when the name would pass the directory's limit): exposed
   for tests.  malloc'd. */
char *io_temp_name(const char *target);

#endif
