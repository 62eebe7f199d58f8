/*
 * pyvm_run — runs Python programs with clinic's interpreter (lib/python/pyvm.h),
 * for the differential tests (differential.py): for each file, prints
 * what the program printed, then, if an exception escaped, "EXCEPTION:
 * TYPE" on a line of its own (and the message on stderr).  A program the
 * interpreter cannot parse prints "EXCEPTION: SyntaxError" (or
 * IndentationError), one it refuses "REFUSED: what".  With several
 * files, each one's output follows a line "\x01 FILE".  Exit status 0
 * unless a file cannot be read.
 *
 * Usage: pyvm_run FILE...
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/arena.h"
#include "python/pyvm.h"

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = xmalloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap)
            buf = xrealloc(buf, cap *= 2);
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

static int run_file(const char *path)
{
    char *src = read_all(path);
    if (!src) {
        perror(path);
        return 2;
    }
    Arena *a = arena_new();
    PyParseError err;
    PyProgram *prog = pyvm_parse(a, src, 1, &err);
    if (!prog) {
        if (err.kind)
            printf("EXCEPTION: %s\n", err.kind);
        else
            printf("REFUSED: %s\n", err.msg);
        fprintf(stderr, "line %d: %s\n", err.line, err.msg);
    } else {
        PyVM *vm = pyvm_new(a);
        bool ok = pyvm_run(vm, prog, NULL);
        size_t len;
        const char *out = pyvm_take_output(vm, &len);
        fwrite(out, 1, len, stdout);
        if (!ok) {
            const PyError *e = pyvm_error(vm);
            printf("EXCEPTION: %s\n", e->type);
            /* and what Python 3.11's traceback adds to the line */
            const char *hint = pyvm_error_suggestion(vm);
            if (hint)
                fprintf(stderr, "line %d: %s. Did you mean: '%s'?\n",
                        e->line, e->text, hint);
            else
                fprintf(stderr, "line %d: %s\n", e->line, e->text);
        }
    }
    arena_free(a);
    free(src);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: pyvm_run FILE...\n");
        return 2;
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        if (argc > 2)
            printf("\x01 %s\n", argv[i]);
        if (run_file(argv[i]))
            status = 2;
        fflush(stdout);
    }
    return status;
}
