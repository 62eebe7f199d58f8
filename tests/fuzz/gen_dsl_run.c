/*
 * gen_dsl_run.c — the files of gen_dsl.c, by seed, for differential.py:
 *
 *   gen_dsl_run -s FIRST -n COUNT DIR   DIR/seed-N.c for N = FIRST ...
 *   gen_dsl_run -p SEED                 prints one file
 */
#include "gen_dsl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
    fputs("usage: gen_dsl_run -s FIRST -n COUNT DIR | -p SEED\n", stderr);
    return 2;
}

int main(int argc, char **argv)
{
    unsigned long long first = 1, count = 1;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-p") && i + 1 < argc) {
            size_t len;
            char *text = fzdsl_from_seed(strtoull(argv[++i], NULL, 10), &len);
            fwrite(text, 1, len, stdout);
            free(text);
            return 0;
        } else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
            first = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            count = strtoull(argv[++i], NULL, 10);
        } else if (argv[i][0] != '-' && !dir) {
            dir = argv[i];
        } else {
            return usage();
        }
    }
    if (!dir)
        return usage();
    for (unsigned long long s = first; s < first + count; s++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/seed-%llu.c", dir, s);
        FILE *f = fopen(path, "wb");
        if (!f) {
            perror(path);
            return 1;
        }
        size_t len;
        char *text = fzdsl_from_seed(s, &len);
        fwrite(text, 1, len, f);
        free(text);
        if (fclose(f) != 0) {
            perror(path);
            return 1;
        }
    }
    return 0;
}
