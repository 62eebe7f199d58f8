/*
 * sums.c — checksums of existing output, remembered for the run.
 *
 * In --make every routed clinic/NAME.c.h is read twice: when NAME.c is
 * processed (its output must still verify before it is replaced) and as
 * a file of its own; the SHA-1 of its output, most of its bytes, is
 * computed once.  A sum is remembered by the identity of the file as it
 * was read (device, inode, size, modification and change times, taken
 * by fstat on the descriptor read) and the place of the bytes in it.  A
 * file written since (by an atomic rename: a new inode) or edited in
 * place (new times) has another identity, and its sums are computed
 * afresh.  Only texts the library sees byte for byte as they are on
 * disk (no BOM, no carriage return) take part, so offsets agree however
 * the file was read.
 */
#include "cli.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct SumEntry {
    TextId id;
    size_t offset, len;
    size_t hash;
    char sum[CHECKSUM_HEX_LEN + 1];
} SumEntry;

/* The entries in the order they came, in chunks that are never moved,
   and an open-addressed index of them: a look-up touches a few bytes of
   the index and one entry, and the memory in use grows with the entries
   (a table of whole entries, probed at random, had every page of it
   touched after a few hundred). */
#define CHUNK 256
static struct {
    pthread_mutex_t lock;
    SumEntry **chunks;
    size_t n, nchunks;
    uint32_t *index;           /* 0: free, else an entry's number + 1 */
    size_t cap;                /* the index's slots: a power of two, or 0 */
} memo = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, NULL, 0};

/* Entry number k (from 0). */
static SumEntry *entry(size_t k)
{
    return &memo.chunks[k / CHUNK][k % CHUNK];
}

static bool same_entry(const SumEntry *e, const TextId *id, size_t offset,
                       size_t len)
{
    return e->offset == offset && e->len == len &&
           io_stamp_same(&e->id.stamp, &id->stamp);
}

static size_t hash_entry(const TextId *id, size_t offset, size_t len)
{
    /* FNV-1a over the fields that vary */
    const unsigned long long parts[] = {
        (unsigned long long)id->stamp.dev, (unsigned long long)id->stamp.ino,
        (unsigned long long)id->stamp.size,
        (unsigned long long)id->stamp.mtime_nsec,
        (unsigned long long)offset, (unsigned long long)len,
    };
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        h ^= parts[i];
        h *= 1099511628211ULL;
    }
    return (size_t)(h ^ (h >> 29));
}

/* The index slot of the entry for (id, offset, len), or the free slot
   where it would go. */
static uint32_t *find_slot(size_t hash, const TextId *id, size_t offset,
                           size_t len)
{
    size_t i = hash & (memo.cap - 1);
    while (memo.index[i]) {
        const SumEntry *e = entry(memo.index[i] - 1);
        if (e->hash == hash && same_entry(e, id, offset, len))
            break;
        i = (i + 1) & (memo.cap - 1);
    }
    return &memo.index[i];
}

/* The identity the job noted for path, when its text takes part. */
static const TextId *text_of(const Job *job, const char *path)
{
    for (size_t i = job->ntexts; i-- > 0;)
        if (!strcmp(job->texts[i].path, path))
            return job->texts[i].usable ? &job->texts[i] : NULL;
    return NULL;
}

bool sums_known(void *userdata, const char *path, size_t offset, size_t len,
                char *sum)
{
    const TextId *id = text_of(userdata, path);
    if (!id)
        return false;
    size_t hash = hash_entry(id, offset, len);
    bool found = false;
    pthread_mutex_lock(&memo.lock);
    if (memo.cap) {
        uint32_t slot = *find_slot(hash, id, offset, len);
        if (slot) {
            memcpy(sum, entry(slot - 1)->sum, 41);
            found = true;
        }
    }
    pthread_mutex_unlock(&memo.lock);
    return found;
}

void sums_note(void *userdata, const char *path, size_t offset, size_t len,
               const char *sum)
{
    const TextId *id = text_of(userdata, path);
    if (!id)
        return;
    size_t hash = hash_entry(id, offset, len);
    pthread_mutex_lock(&memo.lock);
    if (memo.n == UINT32_MAX - 1) {   /* the index's numbers: no room */
        pthread_mutex_unlock(&memo.lock);
        return;
    }
    if (2 * (memo.n + 1) > memo.cap) {
        size_t cap = memo.cap ? 2 * memo.cap : 1024;
        free(memo.index);
        memo.index = xcalloc(cap, sizeof *memo.index);
        memo.cap = cap;
        for (size_t k = 0; k < memo.n; k++) {
            size_t i = entry(k)->hash & (cap - 1);
            while (memo.index[i])
                i = (i + 1) & (cap - 1);
            memo.index[i] = (uint32_t)(k + 1);
        }
    }
    uint32_t *slot = find_slot(hash, id, offset, len);
    if (!*slot) {
        if (memo.n == memo.nchunks * CHUNK) {
            memo.chunks = xrealloc(memo.chunks, (memo.nchunks + 1) *
                                                    sizeof *memo.chunks);
            memo.chunks[memo.nchunks++] =
                xmalloc(CHUNK * sizeof **memo.chunks);
        }
        SumEntry *e = entry(memo.n++);
        e->id = *id;
        e->id.path = NULL;     /* the job's; not needed here */
        e->offset = offset;
        e->len = len;
        e->hash = hash;
        memcpy(e->sum, sum, sizeof e->sum);
        *slot = (uint32_t)memo.n;
    }
    pthread_mutex_unlock(&memo.lock);
}

void sums_free(void)
{
    for (size_t i = 0; i < memo.nchunks; i++)
        free(memo.chunks[i]);
    free(memo.chunks);
    free(memo.index);
    memo.chunks = NULL;
    memo.index = NULL;
    memo.n = memo.nchunks = memo.cap = 0;
}

/* ---- what a job read ------------------------------------------------------ */

void job_note_text(Job *job, const char *path, const struct stat *st,
                   const char *raw, size_t len, bool has_cr)
{
    if (job->ntexts == job->captexts) {
        job->captexts = job->captexts ? 2 * job->captexts : 4;
        job->texts = xrealloc(job->texts, job->captexts * sizeof *job->texts);
    }
    TextId *t = &job->texts[job->ntexts++];
    memset(t, 0, sizeof *t);
    t->path = xstrdup(path);
    t->usable = st->st_ino != 0 && S_ISREG(st->st_mode) &&
                (size_t)st->st_size == len &&
                !(len >= 3 && memcmp(raw, "\xef\xbb\xbf", 3) == 0) &&
                !has_cr;
    io_stamp_of(st, &t->stamp);
}

void job_forget_texts(Job *job)
{
    for (size_t i = 0; i < job->ntexts; i++)
        free(job->texts[i].path);
    free(job->texts);
    job->texts = NULL;
    job->ntexts = job->captexts = 0;
}
