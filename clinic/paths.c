/*
 * paths.c — path names as the command shows and compares them (the
 * library's io_normpath normalises them as os.path.normpath does):
 * joined as os.path.join does, and
 * made into the labels of a diff that git apply and patch -p1 accept;
 * and the CPython tree a path is in, for its dialect.
 */
#include "cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *path_join(const char *a, const char *b)
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

/* The components of an absolute path, in place ("/a/b" -> "a", "b"). */
static size_t split_components(char *path, char **parts)
{
    size_t n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(path, "/", &save); tok;
         tok = strtok_r(NULL, "/", &save))
        parts[n++] = tok;
    return n;
}

char *path_label(const char *path)
{
    char *norm = io_normpath(path);
    char cwd[PATH_MAX];
    if (norm[0] != '/' || !getcwd(cwd, sizeof cwd))
        return norm;
    /* absolute: relative to the current directory, going up with ".."
       where it is not inside it */
    char **to = xmalloc((strlen(norm) / 2 + 2) * sizeof *to);
    char **here = xmalloc((strlen(cwd) / 2 + 2) * sizeof *here);
    size_t nto = split_components(norm, to);
    size_t nhere = split_components(cwd, here);
    size_t common = 0;
    while (common < nto && common < nhere &&
           !strcmp(to[common], here[common]))
        common++;
    StrBuf label = STRBUF_INIT;
    for (size_t i = common; i < nhere; i++)
        sb_adds(&label, "../");
    for (size_t i = common; i < nto; i++) {
        sb_adds(&label, to[i]);
        if (i + 1 < nto)
            sb_addc(&label, '/');
    }
    if (label.len == 0)
        sb_addc(&label, '.');
    free(to);
    free(here);
    free(norm);
    return sb_detach(&label, NULL);
}

const Dialect *dialect_of_tree(const char *path, bool is_dir)
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
