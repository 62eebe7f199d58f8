/*
 * walk.c — --make: clinic.py's os.walk(srcdir) over every .c and .h
 * file, top-down, names sorted so runs are reproducible; version-control
 * and build directories are skipped, as are symlinked directories
 * (os.walk does not follow links).
 *
 * Unlike os.walk, a directory that cannot be listed (no permission, a
 * path too long) is an error, not silently left out; and an --exclude
 * matches the file it names however it is spelled (relative to --srcdir
 * or absolute, through a symlink), by identity, and is warned about when
 * it matches nothing.
 */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct Exclude {
    const char *given;         /* as on the command line */
    char *path;                /* normalised; joined to --srcdir */
    bool exists;
    dev_t dev;
    ino_t ino;
    bool matched;
} Exclude;

typedef struct Walk {
    const Options *o;
    Pool *pool;
    Exclude *excludes;
    size_t nexcludes;
} Walk;

static int compare_names(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Is path (whose stat is st, when have_st) excluded? */
static bool excluded(Walk *w, const char *path, const struct stat *st,
                     bool have_st)
{
    bool hit = false;
    char *norm = NULL;
    for (size_t k = 0; k < w->nexcludes; k++) {
        Exclude *x = &w->excludes[k];
        bool same = have_st && x->exists && x->dev == st->st_dev &&
                    x->ino == st->st_ino;
        if (!same) {
            if (!norm)
                norm = path_normalize(path);
            same = !strcmp(norm, x->path);
        }
        if (same) {
            x->matched = true;
            hit = true;
        }
    }
    free(norm);
    return hit;
}

static void walk_error(Walk *w, const char *dir, const char *what)
{
    fflush(stdout);
    fprintf(stderr, "%s: error: %s: %s\n", dir, what, strerror(errno));
    pool_fail(w->pool);
}

static void walk(Walk *w, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        walk_error(w, dir, "can't list directory");
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    errno = 0;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            names = xrealloc(names, cap * sizeof *names);
        }
        names[n++] = xstrdup(de->d_name);
        errno = 0;
    }
    if (errno)
        walk_error(w, dir, "can't list directory");
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, compare_names);

    bool *is_dir = xcalloc(n ? n : 1, sizeof *is_dir);
    for (size_t i = 0; i < n; i++) {
        char *path = path_join(dir, names[i]);
        struct stat st;
        bool have_st = stat(path, &st) == 0;
        if (!have_st && errno != ENOENT && errno != ELOOP) {
            /* not a dangling or looping link: a path too long to name,
               a directory we may not search */
            walk_error(w, path, "can't look at it");
            free(path);
            continue;
        }
        is_dir[i] = have_st && S_ISDIR(st.st_mode);
        /* everything else with a name the dialect's --make takes is
           offered: a FIFO or a dangling link is an error of its own, as
           in clinic.py */
        if (!is_dir[i] && dialect_makes(w->o->dialect, names[i]) &&
            !excluded(w, path, &st, have_st)) {
            pool_add(w->pool, path, NULL, true);
            path = NULL;
        }
        free(path);
    }
    /* before any subdirectory is looked at, the files here are done */
    pool_drain(w->pool);
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
            !excluded(w, path, &st, true))
            walk(w, path);
        free(path);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(is_dir);
}

void walk_tree(const Options *o, Pool *pool)
{
    struct stat st;
    int e = stat(o->srcdir, &st) < 0 ? errno
            : S_ISDIR(st.st_mode)    ? 0 : ENOTDIR;
    if (e) {
        fflush(stdout);
        fprintf(stderr, "%s: error: %s\n", o->srcdir, strerror(e));
        pool_fail(pool);
        return;
    }
    Walk w = {o, pool, xcalloc(o->nexcludes + 1, sizeof(Exclude)),
              o->nexcludes};
    for (size_t i = 0; i < o->nexcludes; i++) {
        Exclude *x = &w.excludes[i];
        char *joined = path_join(o->srcdir, o->excludes[i]);
        x->given = o->excludes[i];
        x->path = path_normalize(joined);
        x->exists = stat(joined, &st) == 0;
        x->dev = x->exists ? st.st_dev : 0;
        x->ino = x->exists ? st.st_ino : 0;
        free(joined);
    }
    walk(&w, o->srcdir);
    pool_drain(pool);
    for (size_t i = 0; i < w.nexcludes; i++) {
        if (!w.excludes[i].matched) {
            fflush(stdout);
            fprintf(stderr, "clinic: warning: --exclude %s matches nothing "
                    "under %s\n", w.excludes[i].given, o->srcdir);
        }
        free(w.excludes[i].path);
    }
    free(w.excludes);
}
