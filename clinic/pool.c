/*
 * pool.c — the files, worked on in parallel, committed in order.
 *
 * Workers take jobs in order and work them out; only the main thread
 * writes, prints and lists directories, each job in its turn, so what
 * the run prints and writes is what the sequential run does.  A job that
 * read a file which an earlier job wrote after the reading began is done
 * again, in its turn.  --make lists directories ahead of the commits
 * (walk.c): a commit hook tells it what each job is about to create, and
 * the jobs a stale listing gave are dropped (pool_truncate).  Workers stay
 * at most RUN_AHEAD jobs ahead of the commits, so the results waiting
 * for their turn stay few.
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
    bool truncating;           /* pool_truncate waits for workers */
    PoolCommitHook hook;       /* asked before each commit */
    void *hook_data;
};

/* How far past the next commit the workers may go: far enough that one
   large file (posixmodule.c takes a fifth of the CPython tree's time)
   does not leave the other workers waiting for it to commit; a finished
   job that wrote nothing holds little. */
#define RUN_AHEAD 256

/* Is there a job a worker may start?  (Called with the lock held.) */
static bool can_take(const Pool *p)
{
    return p->next_start < p->njobs &&
           p->next_start < p->ncommitted + RUN_AHEAD;
}

static void *worker_main(void *arg)
{
    Pool *p = arg;
    ReadBuf rb = {NULL, 0};
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->closing && !can_take(p))
            pthread_cond_wait(&p->work, &p->lock);
        if (!can_take(p))
            break;      /* closing: the drain has taken everything */
        Job *job = p->jobs[p->next_start++];
        job->started = true;
        job->start_commit = p->ncommitted;
        pthread_mutex_unlock(&p->lock);
        job_compute(p->o, job, &rb);
        pthread_mutex_lock(&p->lock);
        job->done = true;
        /* the main thread waits for the next job to commit (or, while
           truncating, for any): no need to wake it for the others */
        if (p->truncating || (p->ncommitted < p->njobs &&
                              p->jobs[p->ncommitted] == job))
            pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    free(rb.buf);
    sb_release_spares();
    return NULL;
}

/* -j N: N workers; 1 (or one processor): none, the main thread does
   everything, one file after another. */
static size_t worker_count(const Options *o)
{
    long n = o->jobs ? (long)o->jobs : sysconf(_SC_NPROCESSORS_ONLN);
    if (!o->jobs && n > 16)
        n = 16;
    return n < 2 ? 0 : (size_t)n;
}

Pool *pool_new(const Options *o, bool parallel)
{
    Pool *p = xcalloc(1, sizeof *p);
    p->o = o;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    size_t n = parallel ? worker_count(o) : 0;
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

static void append(Pool *p, Job *job)
{
    pthread_mutex_lock(&p->lock);
    if (p->njobs == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->jobs = xrealloc(p->jobs, p->cap * sizeof *p->jobs);
    }
    p->jobs[p->njobs++] = job;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->lock);
}

void pool_add(Pool *p, const char *path, const char *output_path,
              bool own_path)
{
    Job *job = xcalloc(1, sizeof *job);
    job->path = path;
    job->output_path = output_path;
    if (own_path)
        job->owned_path = (char *)path;
    append(p, job);
}

void pool_add_listed(Pool *p, char *path)
{
    Job *job = xcalloc(1, sizeof *job);
    job->path = job->owned_path = path;
    job->listed_regular = true;
    append(p, job);
}

void pool_add_error(Pool *p, const char *path, const char *message)
{
    Job *job = xcalloc(1, sizeof *job);
    job->path = job->owned_path = xstrdup(path);
    job->error_only = true;
    report_error(&job->report, path, message);
    append(p, job);
}

void pool_set_commit_hook(Pool *p, PoolCommitHook hook, void *data)
{
    p->hook = hook;
    p->hook_data = data;
}

size_t pool_njobs(const Pool *p)
{
    return p->njobs;   /* only the main thread changes it */
}

void pool_truncate(Pool *p, size_t n)
{
    pthread_mutex_lock(&p->lock);
    p->truncating = true;
    if (n < p->ncommitted)
        n = p->ncommitted;
    for (size_t i = n; i < p->njobs; i++) {
        Job *job = p->jobs[i];
        while (job->started && !job->done)   /* a worker has it */
            pthread_cond_wait(&p->done, &p->lock);
        job_reset(job);
        refs_clear(&job->writes);
        free(job->owned_path);
        free(job);
        p->jobs[i] = NULL;
    }
    if (n < p->njobs)
        p->njobs = n;
    if (p->next_start > n)
        p->next_start = n;
    p->truncating = false;
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
        if (p->hook)
            p->hook(p->hook_data, job, me);
        int status = job_commit(p->o, job, &p->tally);
        if (status > p->status)
            p->status = status;

        pthread_mutex_lock(&p->lock);
        p->ncommitted++;
        pthread_cond_broadcast(&p->work);   /* the window moved */
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
