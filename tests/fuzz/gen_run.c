/*
 * gen_run.c — the generator's deterministic run (make check's part) and
 * its tools.
 *
 *   gen_run [-s FIRST] [-n COUNT] [-t SECONDS] [-m MIB] [-T SECONDS] DIR
 *       runs the files of seeds FIRST .. FIRST+COUNT-1 (default 1, 200)
 *       through the library (fuzz_run.c), each in a child process, and
 *       fails when one crashes, reports a sanitizer error, runs longer
 *       than -t (default 10 s) or grows past -m MiB (default 2048), or
 *       ends without a diagnostic; the file and the child's messages stay
 *       in DIR as seed-N.c and seed-N.log, and the seed is printed.  -T
 *       stops starting new seeds after that many seconds (a slow machine
 *       must not make check hang; the seeds not run are said).
 *   gen_run -w [-s FIRST] [-n COUNT] ... DIR
 *       the sweep instead of seeds (gen.h): by default one pass, each
 *       native of the catalogue called once with an odd self
 *   gen_run -p SEED          prints the file of SEED
 *   gen_run -P K             prints the sweep's file K
 *   gen_run -b FILE          prints the file a fuzz_blocks input makes
 *   gen_run -c               prints the catalogue of natives
 *
 * CLINIC_FUZZGEN_AVOID leaves constructs out (gen.h).  A child per seed
 * costs a fork, but one crash does not hide the others, and a hang is
 * the parent's to time.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "fuzz_run.h"
#include "gen.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The child's resident size in MiB, from /proc; 0 when unknown. */
static long rss_mib(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long pages = 0, rss = 0;
    if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
        rss = 0;
    fclose(f);
    return rss * (sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

static int write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "gen_run: %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* The lines of a child's log that say what happened. */
static void show_log(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024];
    int shown = 0;
    while (fgets(line, sizeof line, f) && shown < 12)
        if (strstr(line, "ERROR") || strstr(line, "runtime error") ||
            strstr(line, "SUMMARY") || strstr(line, "without a diagnostic") ||
            strncmp(line, "    #0 ", 7) == 0 ||
            strncmp(line, "    #1 ", 7) == 0 ||
            strncmp(line, "    #2 ", 7) == 0) {
            fprintf(stderr, "    %s", line);
            shown++;
        }
    fclose(f);
}

/* Runs one seed's file (or the sweep's file number seed) in a child;
   true when it passed. */
static bool run_seed(uint64_t seed, bool sweep, const char *dir,
                     unsigned avoid, double timeout, long mib)
{
    size_t len;
    char *text = sweep ? fzgen_sweep(seed, &len)
                       : fzgen_from_seed(seed, avoid, &len);
    const char *what = sweep ? "sweep" : "seed";
    if (!text)
        return true;
    char cpath[4096], lpath[4096];
    snprintf(cpath, sizeof cpath, "%s/%s-%llu.c", dir, what,
             (unsigned long long)seed);
    snprintf(lpath, sizeof lpath, "%s/%s-%llu.log", dir, what,
             (unsigned long long)seed);
    if (write_file(cpath, text, len) != 0) {
        free(text);
        return false;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("gen_run: fork");
        free(text);
        return false;
    }
    if (pid == 0) {
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);   /* no orphan if we are killed */
#endif
        if (!freopen(lpath, "w", stderr))
            _exit(3);
        fuzz_run_text((const uint8_t *)text, len);
        _exit(0);
    }
    free(text);
    double start = now();
    const char *why = NULL;
    char whybuf[128];
    int status = 0;
    for (useconds_t nap = 200;; nap = nap < 20000 ? nap * 2 : nap) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            perror("gen_run: waitpid");
            return false;
        }
        double t = now() - start;
        long rss = rss_mib(pid);
        if (t > timeout || rss > mib) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            if (t > timeout)
                snprintf(whybuf, sizeof whybuf,
                         "still running after %.0f s", timeout);
            else
                snprintf(whybuf, sizeof whybuf, "over %ld MiB", mib);
            why = whybuf;
            break;
        }
        usleep(nap);
    }
    if (!why && WIFSIGNALED(status)) {
        snprintf(whybuf, sizeof whybuf, "killed by signal %d",
                 WTERMSIG(status));
        why = whybuf;
    } else if (!why && WEXITSTATUS(status) != 0) {
        snprintf(whybuf, sizeof whybuf, "exit status %d",
                 WEXITSTATUS(status));
        why = whybuf;
    }
    if (!why) {
        unlink(cpath);
        unlink(lpath);
        return true;
    }
    fprintf(stderr, "gen_run: FAIL: %s %llu: %s: %s (messages in %s)\n",
            what, (unsigned long long)seed, why, cpath, lpath);
    show_log(lpath);
    return false;
}

static int print_bytes_file(const char *path, unsigned avoid)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "gen_run: %s: %s\n", path, strerror(errno));
        return 2;
    }
    uint8_t *data = NULL;
    size_t n = 0, cap = 0;
    for (int ch; (ch = getc(f)) != EOF;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            data = realloc(data, cap);
            if (!data)
                abort();
        }
        data[n++] = (uint8_t)ch;
    }
    fclose(f);
    size_t len;
    char *text = fzgen_from_bytes(data, n, avoid, &len);
    fwrite(text, 1, len, stdout);
    free(text);
    free(data);
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: gen_run [-s FIRST] [-n COUNT] [-t SECONDS] "
            "[-m MIB] [-T SECONDS] DIR\n"
            "       gen_run -w [-s FIRST] [-n COUNT] DIR\n"
            "       gen_run -p SEED | -P K | -b FILE | -c\n");
    exit(2);
}

int main(int argc, char **argv)
{
    unsigned long long first = 1, count = 200;
    bool sweep = false, counted = false;
    double timeout = 10, total = 0;
    long mib = 2048;
    unsigned avoid = fzgen_avoid_from_env();
    int opt;
    while ((opt = getopt(argc, argv, "s:n:t:m:T:p:b:cwP:")) != -1) {
        switch (opt) {
        case 's': first = strtoull(optarg, NULL, 10); break;
        case 'n': count = strtoull(optarg, NULL, 10); counted = true; break;
        case 'w': sweep = true; break;
        case 't': timeout = atof(optarg); break;
        case 'm': mib = atol(optarg); break;
        case 'T': total = atof(optarg); break;
        case 'p': {
            size_t len;
            char *text = fzgen_from_seed(strtoull(optarg, NULL, 10), avoid,
                                         &len);
            fwrite(text, 1, len, stdout);
            free(text);
            return 0;
        }
        case 'b': return print_bytes_file(optarg, avoid);
        case 'c': fzgen_print_catalogue(stdout); return 0;
        case 'P': {
            size_t len;
            char *text = fzgen_sweep(strtoull(optarg, NULL, 10), &len);
            if (text)
                fwrite(text, 1, len, stdout);
            free(text);
            return text ? 0 : 1;
        }
        default: usage();
        }
    }
    if (optind != argc - 1)
        usage();
    const char *dir = argv[optind];
    if (sweep && !counted)     /* one pass: every native once */
        count = fzgen_sweep_natives();
    if (sweep && !counted && first == 1)
        first = 0;
    double start = now();
    unsigned long long ran = 0, failed = 0;
    for (unsigned long long s = first; s < first + count; s++) {
        if (total > 0 && now() - start > total) {
            fprintf(stderr, "gen_run: stopped after %.0f s: seeds %llu to "
                    "%llu not run\n", total, s, first + count - 1);
            break;
        }
        ran++;
        if (!run_seed(s, sweep, dir, avoid, timeout, mib))
            failed++;
    }
    fprintf(stderr, "gen_run: %llu %s from %llu in %.1f s, %llu failed\n",
            ran, sweep ? "sweep files" : "seeds", first, now() - start,
            failed);
    return failed ? 1 : 0;
}
