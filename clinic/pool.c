/*
 * pool.c — the files, worked on in parallel, committed in order.
 *
 * Workers take jobs in order and work them out; only the main thread
 * writes, prints and lists directories, each job in its turn, so what
 * the run prints and writes is what the sequential run does.  A job that
 * read a file which an earlier job wrote after the reading began is done
 * again, in its turn; and before a directory is listed every job given so
 * far has been committed, so files created by earlier ones are seen.
 */
#include "cli.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

struct Pool {
    const Options *o;
    pthread_mutex_t lock;
    pthread_cond_t work;       /* a job was added, or closing */
    pthread_cond_t done;       /* a job was worked out */
    Job **jobs;
    size_t njobs, cap;
    size_t next_start;         /* first job no worker has taken */
    size_t ncommitted;
    bool closing;
    pthread_t *threads;
    size_t nthreads;
    ReadBuf rb;                /* the main thread's */
    int status;
    Tally tally;
};

static void *worker_main(void *arg)
{
    Pool *p = arg;
    ReadBuf rb = {NULL, 0};
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->next_start == p->njobs && !p->closing)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->next_start == p->njobs)
            break;
        Job *job = p->jobs[p->next_start++];
        job->started = true;
        job->start_commit = p->ncommitted;
        pthread_mutex_unlock(&p->lock);
        job_compute(p->o, job, &rb);
        pthread_mutex_lock(&p->lock);
        job->done = true;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    free(rb.buf);
    return NULL;
}

static size_t worker_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 2)
        return 0;   /* one processor: the main thread does everything */
    return n > 16 ? 16 : (size_t)n;
}

Pool *pool_new(const Options *o, bool parallel)
{
    Pool *p = xcalloc(1, sizeof *p);
    p->o = o;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    size_t n = parallel ? worker_count() : 0;
    p->threads = xcalloc(n ? n : 1, sizeof *p->threads);
    /* Workers get the main thread's stack limit (glibc's default too),
       but not its 2 MiB fallback when the limit is "unlimited": the
       parser's depth limits were chosen for a main-thread stack. */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur == RLIM_INFINITY)
        pthread_attr_setstacksize(&attr, (size_t)64 * 1024 * 1024);
    for (size_t i = 0; i < n; i++) {
        if (pthread_create(&p->threads[p->nthreads], &attr, worker_main, p))
            break;   /* fewer workers (or none): still correct */
        p->nthreads++;
    }
    pthread_attr_destroy(&attr);
    return p;
}

void pool_add(Pool *p, const char *path, const char *output_path,
              bool own_path)
{
    Job *job = xcalloc(1, sizeof *job);
    job->path = path;
    job->output_path = output_path;
    if (own_path)
        job->owned_path = (char *)path;
    pthread_mutex_lock(&p->lock);
    if (p->njobs == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->jobs = xrealloc(p->jobs, p->cap * sizeof *p->jobs);
    }
    p->jobs[p->njobs++] = job;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->lock);
}

void pool_fail(Pool *p)
{
    p->status = EXIT_ERROR;
}

void pool_drain(Pool *p)
{
    size_t first = p->ncommitted;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        if (p->ncommitted == p->njobs) {
            pthread_mutex_unlock(&p->lock);
            break;
        }
        Job *job = p->jobs[p->ncommitted];
        bool mine = false;
        if (!job->started && p->next_start == p->ncommitted) {
            /* no worker has it yet: the main thread works it out */
            mine = true;
            job->started = true;
            job->start_commit = p->ncommitted;
            p->next_start++;
        }
        while (!mine && !job->done)
            pthread_cond_wait(&p->done, &p->lock);
        size_t me = p->ncommitted;
        pthread_mutex_unlock(&p->lock);

        if (mine) {
            job_compute(p->o, job, &p->rb);
        } else {
            /* written since the work began, and read by it: again */
            for (size_t i = job->start_commit; i < me; i++)
                if (refs_overlap(&p->jobs[i]->writes, &job->reads)) {
                    job_reset(job);
                    job_compute(p->o, job, &p->rb);
                    break;
                }
        }
        int status = job_commit(p->o, job, &p->tally);
        if (status > p->status)
            p->status = status;

        pthread_mutex_lock(&p->lock);
        p->ncommitted++;
        pthread_mutex_unlock(&p->lock);
    }
    /* every later job begins after these commits: they are not needed
       for its checks any more */
    pthread_mutex_lock(&p->lock);
    for (size_t i = first; i < p->ncommitted; i++) {
        refs_clear(&p->jobs[i]->writes);
        free(p->jobs[i]->owned_path);
        free(p->jobs[i]);
        p->jobs[i] = NULL;
    }
    pthread_mutex_unlock(&p->lock);
}

int pool_finish(Pool *p, Tally *tally)
{
    pool_drain(p);
    pthread_mutex_lock(&p->lock);
    p->closing = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (size_t i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    int status = p->status;
    if (tally)
        *tally = p->tally;
    free(p->threads);
    free(p->jobs);
    free(p->rb.buf);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->work);
    free(p);
    return status;
}
