/*
 * measure.c — make bench's stopwatch: runs a command once, its standard
 * output and error to the file OUT, and prints "WALL KIB CPU STATUS": its
 * wall time in seconds, its peak resident memory in KiB, its CPU time
 * (user + system) in seconds and its exit status.
 *
 *   usage: measure OUT COMMAND [ARG]...
 *
 * The clock starts just before the fork and stops once the child has been
 * reaped, so only the tool's own start, run and exit are counted.  A run
 * timed by the shell (date, a subshell and /usr/bin/time around the tool)
 * also counts their forks and execs: 3-5 ms a run, a tenth of clinic's
 * time over a tree and nothing of clinic.py's.  This program is small, as
 * /usr/bin/time is: the memory its child has before the exec, which Linux
 * counts in the child's peak, stays far below either tool's.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: measure OUT COMMAND [ARG]...\n");
        return 2;
    }
    int out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0) {
        perror(argv[1]);
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (pid == 0) {
        dup2(out, STDOUT_FILENO);
        dup2(out, STDERR_FILENO);
        close(out);
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) {
        perror("wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double wall = (double)(end.tv_sec - start.tv_sec) +
                  (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("%.6f %ld %.6f %d\n", wall, usage.ru_maxrss,
           seconds(usage.ru_utime) + seconds(usage.ru_stime), code);
    return 0;
}
