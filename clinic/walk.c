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
#include <limits.h>
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

typedef struct Node Node;

typedef struct Walk {
    const Options *o;
    Pool *pool;
    Exclude *excludes;
    size_t nexcludes;
    Node *root;
    Node *stale;               /* a listing found stale: walk again from it */
} Walk;

/* A directory entry: its name, and its type as the listing gave it
   (DT_UNKNOWN where the file system does not say). */
typedef struct Entry {
    char *name;
    unsigned char type;
} Entry;

#if defined(DT_REG) && defined(DT_DIR)
#define ENTRY_REG DT_REG
#define ENTRY_DIR DT_DIR
#else
#define ENTRY_REG 255   /* never given */
#define ENTRY_DIR 255
#endif

static int compare_entries(const void *x, const void *y)
{
    return strcmp(((const Entry *)x)->name, ((const Entry *)y)->name);
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
                norm = io_normpath(path);
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

/* An error of the walk, printed in its turn among the files' reports
   (the listing may run ahead of them). */
static void walk_error(Walk *w, const char *dir, const char *what)
{
    char message[512];
    snprintf(message, sizeof message, "%s: %s", what, strerror(errno));
    pool_add_error(w->pool, dir, message);
}

/* ---- the tree, listed ahead ----------------------------------------------
 *
 * clinic.py's os.walk lists a directory when it gets there, after the
 * files before it are done, so it sees the files they created (a routed
 * clinic/NAME.c.h written for the first time).  We list the whole tree
 * at once and keep both cores busy; before each commit, the hook below
 * looks at what the job is about to create.  Should that land in a
 * directory listed ahead of this job's turn, that listing is stale: the
 * jobs from it on are dropped, and the walk goes on from that directory
 * as os.walk does, listing each directory only when every file before it
 * is committed.  (Nothing is created in a tree that is up to date.)
 */

struct Node {
    char *path;
    char *norm;                /* normalised, to match written paths */
    struct Node *parent;
    struct Node **kids;        /* subdirectories to walk, in order */
    size_t nkids, capkids;
    size_t next_kid;           /* the walk's place among them */
    size_t first_job;          /* the pool's number of its first file */
    bool listed;
    bool have_id;              /* its identity, looked up when needed */
    dev_t dev;
    ino_t ino;
};

static Node *node_new(char *path, Node *parent)
{
    Node *n = xcalloc(1, sizeof *n);
    n->path = path;
    n->norm = io_normpath(path);
    n->parent = parent;
    return n;
}

static void node_free(Node *n)
{
    for (size_t i = 0; i < n->nkids; i++)
        node_free(n->kids[i]);
    free(n->kids);
    free(n->path);
    free(n->norm);
    free(n);
}

static void node_forget_kids(Node *n)
{
    for (size_t i = 0; i < n->nkids; i++)
        node_free(n->kids[i]);
    n->nkids = n->next_kid = 0;
}

static void node_add_kid(Node *n, char *path)
{
    if (n->nkids == n->capkids) {
        n->capkids = n->capkids ? 2 * n->capkids : 8;
        n->kids = xrealloc(n->kids, n->capkids * sizeof *n->kids);
    }
    n->kids[n->nkids++] = node_new(path, n);
}

/* The node after n in the walk's order (top-down, names sorted). */
static Node *node_next(Node *n)
{
    while (n) {
        if (n->next_kid < n->nkids)
            return n->kids[n->next_kid++];
        n = n->parent;
    }
    return NULL;
}

/* The listed node that is directory dir (whose stat is st), in n's
   subtree: by name, or by identity (dir named another way). */
static Node *node_find(Node *n, const char *norm, const struct stat *st)
{
    if (!n->listed)
        return NULL;
    if (!strcmp(n->norm, norm))
        return n;
    if (!n->have_id) {
        struct stat own;
        n->have_id = true;
        if (stat(n->path, &own) == 0) {
            n->dev = own.st_dev;
            n->ino = own.st_ino;
        }
    }
    if (n->ino && n->dev == st->st_dev && n->ino == st->st_ino)
        return n;
    for (size_t i = 0; i < n->nkids; i++) {
        Node *hit = node_find(n->kids[i], norm, st);
        if (hit)
            return hit;
    }
    return NULL;
}

/* Forgets the listings that gave jobs first_job and after: those
   directories are to be listed again. */
static void unlist_from(Node *n, size_t first_job)
{
    if (n->listed && n->first_job >= first_job)
        n->listed = false;
    for (size_t i = 0; i < n->nkids; i++)
        unlist_from(n->kids[i], first_job);
}

/* Before job number index is committed: does it create an entry in a
   directory listed ahead of its turn?  For each file it writes that does
   not exist yet, the directory that gets something new is the deepest
   existing one on the way to it. */
static void before_commit(void *data, const Job *job, size_t index)
{
    Walk *w = data;
    Node *stale = NULL;
    for (size_t i = 0; i < job->nwrites; i++) {
        struct stat st;
        if (lstat(job->write_paths[i], &st) == 0)
            continue;   /* replaced, not created */
        char *dir = io_normpath(job->write_paths[i]);
        for (;;) {
            char *slash = strrchr(dir, '/');
            if (!slash)
                strcpy(dir, ".");
            else if (slash == dir)
                dir[1] = '\0';   /* "/" */
            else
                *slash = '\0';
            if (stat(dir, &st) == 0 || !slash || slash == dir)
                break;
        }
        Node *d = stat(dir, &st) == 0 ? node_find(w->root, dir, &st) : NULL;
        if (d && d->first_job > index &&
            (!stale || d->first_job < stale->first_job))
            stale = d;
        free(dir);
    }
    if (stale) {
        /* it and every directory after it are listed again, in turn */
        pool_truncate(w->pool, stale->first_job);
        unlist_from(w->root, stale->first_job);
        w->stale = stale;
    }
}

static void list_node(Walk *w, Node *n);

/* Walks from n on as os.walk does: each directory listed when every file
   before it is committed.  (n's ancestors resume after it.) */
static void walk_in_turn(Walk *w, Node *n)
{
    for (Node *c = n; c->parent; c = c->parent) {
        Node *p = c->parent;
        for (size_t i = 0; i < p->nkids; i++)
            if (p->kids[i] == c)
                p->next_kid = i + 1;
    }
    for (; n; n = node_next(n)) {
        pool_drain(w->pool);
        list_node(w, n);
    }
    pool_drain(w->pool);
}

/* Lists node n: its .c and .h files go to the pool, its subdirectories
   to walk become its kids. */
/* path_join(dir, name) for an entry of dir (dir_len bytes): pasted, not
   printed, as it is for every entry of the tree. */
static char *join_entry(const char *dir, size_t dir_len, const char *name)
{
    if (name[0] == '/' || dir_len == 0 || dir[dir_len - 1] == '/')
        return path_join(dir, name);
    size_t name_len = strlen(name);
    char *p = xmalloc(dir_len + name_len + 2);
    memcpy(p, dir, dir_len);
    p[dir_len] = '/';
    memcpy(p + dir_len + 1, name, name_len + 1);
    return p;
}

/* The name a file found gets (path, the walk's, is taken): as joined,
   or normalised where the dialect's --make does that. */
static char *file_path(const Walk *w, char *path)
{
    if (!w->o->dialect->make_normalises_paths)
        return path;
    char *norm = io_normpath(path);
    free(path);
    return norm;
}

static void list_node(Walk *w, Node *n)
{
    const char *dir = n->path;
    node_forget_kids(n);
    n->first_job = pool_njobs(w->pool);
    n->listed = true;
    DIR *d = opendir(dir);
    if (!d) {
        walk_error(w, dir, "can't list directory");
        return;
    }
    Entry *entries = NULL;
    size_t count = 0, cap = 0;
    struct dirent *de;
    errno = 0;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            entries = xrealloc(entries, cap * sizeof *entries);
        }
        entries[count].name = xstrdup(de->d_name);
#if defined(DT_REG) && defined(DT_DIR)
        entries[count].type = de->d_type;
#else
        entries[count].type = 0;   /* no d_type: every entry is looked at */
#endif
        count++;
        errno = 0;
    }
    if (errno)
        walk_error(w, dir, "can't list directory");
    closedir(d);
    if (count)
        qsort(entries, count, sizeof *entries, compare_entries);

    bool *is_dir = xcalloc(count ? count : 1, sizeof *is_dir);
    size_t dir_len = strlen(dir);
    for (size_t i = 0; i < count; i++) {
        const char *name = entries[i].name;
        /* The entry's type saves a stat for regular files and
           directories, unless --exclude needs their identity or the
           path is too long to name (the stat says so); links and file
           systems that do not say are looked at. */
        unsigned char type = entries[i].type;
        bool nameable = dir_len + 1 + strlen(name) < PATH_MAX;
        if ((type == ENTRY_REG || type == ENTRY_DIR) && !w->nexcludes &&
            nameable) {
            is_dir[i] = type == ENTRY_DIR;
            if (!is_dir[i] && dialect_makes(w->o->dialect, name))
                pool_add_listed(w->pool,
                                file_path(w, join_entry(dir, dir_len, name)));
            continue;
        }
        char *path = join_entry(dir, dir_len, name);
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
        if (!is_dir[i] && dialect_makes(w->o->dialect, name) &&
            !excluded(w, path, &st, have_st)) {
            pool_add(w->pool, file_path(w, path), NULL, true);
            path = NULL;
        }
        free(path);
    }
    static const char *const skipped[] = {".svn", ".git", ".hg", "build",
                                          "externals"};
    for (size_t i = 0; i < count; i++) {
        if (!is_dir[i])
            continue;
        bool skip = false;
        for (size_t k = 0; k < sizeof skipped / sizeof *skipped; k++)
            if (strcmp(entries[i].name, skipped[k]) == 0)
                skip = true;
        if (skip)
            continue;
        char *path = join_entry(dir, dir_len, entries[i].name);
        struct stat st;
        /* a directory entry is no link; anything else is looked at */
        if ((entries[i].type == ENTRY_DIR && !w->nexcludes) ||
            (lstat(path, &st) == 0 && !S_ISLNK(st.st_mode) &&
             !excluded(w, path, &st, true)))
            node_add_kid(n, path);
        else
            free(path);
    }
    for (size_t i = 0; i < count; i++)
        free(entries[i].name);
    free(entries);
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
    Walk w = {.o = o, .pool = pool,
              .excludes = xcalloc(o->nexcludes + 1, sizeof(Exclude)),
              .nexcludes = o->nexcludes};
    for (size_t i = 0; i < o->nexcludes; i++) {
        Exclude *x = &w.excludes[i];
        char *joined = path_join(o->srcdir, o->excludes[i]);
        x->given = o->excludes[i];
        x->path = io_normpath(joined);
        x->exists = stat(joined, &st) == 0;
        x->dev = x->exists ? st.st_dev : 0;
        x->ino = x->exists ? st.st_ino : 0;
        free(joined);
    }
    w.root = node_new(xstrdup(o->srcdir), NULL);
    pool_set_commit_hook(pool, before_commit, &w);
    for (Node *n = w.root; n; n = node_next(n))
        list_node(&w, n);
    pool_drain(pool);
    while (w.stale) {   /* (once: then nothing is listed ahead) */
        Node *n = w.stale;
        w.stale = NULL;
        walk_in_turn(&w, n);
    }
    pool_set_commit_hook(pool, NULL, NULL);
    node_free(w.root);
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
