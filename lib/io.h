/*
 * io.h — the only module that touches files: reading them as clinic.py
 * does (UTF-8 text, universal newlines) and writing them safely (temp
 * file in the same directory, fsync, rename; untouched when unchanged;
 * several files committed together or not at all).
 *
 * Errors are returned, never printed: -1 with errno set, and for writes
 * an IoError naming the file and the step that failed, so the command
 * line can say "FILE: error: ...".
 */
#ifndef CLINIC_IO_H
#define CLINIC_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Reads a whole file as bytes.  0 and a malloc'd, NUL-terminated buffer
   (caller frees; *len excludes the NUL), or -1 with errno set. */
int io_read_file(const char *path, char **data, size_t *len);

/* As clinic.py reads a file (open(path, 'r')): io_read_file, then
   universal newlines ("\r\n" and "\r" become "\n"). */
int io_read_text(const char *path, char **data, size_t *len);

/* Universal newlines in place; returns the new length. */
size_t io_universal_newlines(char *data, size_t len);

/* ClinicReadFn over io_read_text (userdata unused).  The library reads
   what a ClinicReadFn returns as universal newlines anyway, and keeps a
   file's own line endings itself (textform.h): clinic/main.c hands it the
   raw bytes of the input. */
int io_clinic_read(void *userdata, const char *path, char **data,
                   size_t *len);

/* Would a write to a and a write to b land on the same file?  Decided
   by the file itself: device and inode when both exist (so a symlink, a
   hard link, "./x", "/abs/x" and "d/../x" are all seen as one file), else
   by resolved paths (symlinks followed, dangling ones too, as a write
   follows them; the directory part that exists resolved with realpath,
   the rest normalised). */
bool io_same_file(const char *a, const char *b);

/* ClinicSameFileFn over io_same_file (userdata unused). */
bool io_clinic_same_file(void *userdata, const char *a, const char *b);

/* Is data valid UTF-8?  When not, writes the message Python's decoder
   gives ("'utf-8' codec can't decode byte 0xff in position 3: invalid
   start byte") to msg and returns false. */
bool io_check_utf8(const char *data, size_t len, char *msg, size_t msgsize);

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
   their targets.  If anything fails before the renames, no target is
   touched and no temp file is left behind. */
typedef struct IoCommit IoCommit;

IoCommit *io_commit_new(void);
void io_commit_free(IoCommit *commit);
void io_commit_set_write_fn(IoCommit *commit, IoWriteFn fn);
/* Adds a file (data is copied).  make_dirs: create missing parent
   directories, as clinic.py's file destinations do. */
void io_commit_add(IoCommit *commit, const char *path, const char *data,
                   size_t len, bool make_dirs);
/* Writes everything.  Files whose content on disk is already identical
   are not touched (their mtime is kept).  A target that is a symlink is
   written through (the link stays a link); an existing target's
   permission bits are kept, a new file gets 0666 & ~umask.  Returns the
   number of files actually written, or -1 and *err. */
int io_commit_run(IoCommit *commit, IoError *err);

/* One file on its own: io_commit_* with a single entry. */
int io_write_file(const char *path, const char *data, size_t len,
                  IoError *err);

#endif
