/*
 * io.c — reading files as clinic.py does (regular files only, never
 * blocking on a FIFO or a device), and telling whether two paths name one
 * file; see io.h.  Writing is io_commit.c.
 */
#include "base/io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/simd.h"
#include "base/textform.h"

/* ---- reading --------------------------------------------------------- */

int io_open_regular(const char *path)
{
    struct stat st;
    return io_open_regular_st(path, &st);
}

int io_open_regular_st(const char *path, struct stat *st)
{
    /* stat first: a FIFO or a device is never opened at all (opening a
       FIFO for reading waits for a writer; some devices act on open) */
    if (stat(path, st) < 0)
        return -1;
    if (!S_ISREG(st->st_mode)) {
        errno = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
        return -1;
    }
    return io_open_listed_st(path, st);
}

int io_open_listed_st(const char *path, struct stat *st)
{
    /* O_NONBLOCK: should it have become a FIFO since, the open does not
       wait, and the fstat below refuses it */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return -1;
    int e = 0;
    if (fstat(fd, st) < 0)
        e = errno;
    else if (!S_ISREG(st->st_mode))
        e = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
    if (e) {
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

const char *io_file_kind(mode_t mode)
{
    if (S_ISREG(mode))
        return "a regular file";
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/* io_read_into, and the file's fstat as it was before the reading (all
   zero when fstat failed). */
static int io_read_into_st(int fd, char **buf, size_t *cap, size_t *len,
                           struct stat *st)
{
    if (fstat(fd, st) != 0)
        memset(st, 0, sizeof *st);
    return io_read_known(fd, st, buf, cap, len);
}

int io_read_into(int fd, char **buf, size_t *cap, size_t *len)
{
    struct stat st;
    return io_read_into_st(fd, buf, cap, len, &st);
}

int io_read_known(int fd, const struct stat *st, char **buf, size_t *cap,
                  size_t *len)
{
    /* the size, when known, sizes the buffer: one read, and a second to
       see the end */
    size_t want = S_ISREG(st->st_mode) && st->st_size > 0
                      ? (size_t)st->st_size + 1 : 4096;
    size_t n = 0;
    for (;;) {
        if (want > *cap || n + 1 >= *cap) {
            size_t grown_cap = *cap ? *cap : 4096;
            while (grown_cap < want || n + 1 >= grown_cap) {
                if (grown_cap > SIZE_MAX / 2) {
                    errno = ENOMEM;
                    return -1;
                }
                grown_cap *= 2;
            }
            char *grown = realloc(*buf, grown_cap);
            if (!grown) {       /* too big: this file fails alone */
                errno = ENOMEM;
                return -1;
            }
            *buf = grown;
            *cap = grown_cap;
        }
        ssize_t got = read(fd, *buf + n, *cap - n - 1);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    (*buf)[n] = '\0';
    *len = n;
    return 0;
}

/* Reads fd to its end: 0 and a malloc'd, NUL-terminated buffer (caller
   frees; *len excludes the NUL), or -1 with errno set (ENOMEM when the
   file is too big for memory: the caller's run goes on). */
static int io_read_fd(int fd, char **data, size_t *len)
{
    char *buf = NULL;
    size_t cap = 0;
    if (io_read_into(fd, &buf, &cap, len) < 0) {
        int e = errno;
        free(buf);
        errno = e;
        return -1;
    }
    *data = buf;
    return 0;
}

int io_read_file(const char *path, char **data, size_t *len)
{
    int fd = io_open_regular(path);
    if (fd < 0)
        return -1;
    int rc = io_read_fd(fd, data, len);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

size_t io_universal_newlines(char *data, size_t len)
{
    return textform_universal_newlines(data, len);
}

int io_read_text(const char *path, char **data, size_t *len)
{
    if (io_read_file(path, data, len) < 0)
        return -1;
    *len = io_universal_newlines(*data, *len);
    return 0;
}

int io_clinic_read(void *userdata, const char *path, char **data,
                   size_t *len)
{
    (void)userdata;
    return io_read_text(path, data, len);
}

#ifdef CLINIC_AVX2
/* The offset of the first 256 bytes from i on with a byte >= 0x80, or of
   the last 256 or fewer, read with AVX2. */
AVX2_FUNCTION
static size_t ascii_run_avx2(const unsigned char *s, size_t i, size_t len)
{
    for (; i + 256 <= len; i += 256) {
#define LOAD(k)                                                               \
    _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 32 * (k)))
        __m256i x = LOAD(0), y = LOAD(1);
#define OR_PAIR(k)                                                            \
    (x = _mm256_or_si256(x, LOAD(k)), y = _mm256_or_si256(y, LOAD((k) + 1)))
        OR_PAIR(2), OR_PAIR(4), OR_PAIR(6);
#undef OR_PAIR
#undef LOAD
        if (_mm256_movemask_epi8(_mm256_or_si256(x, y)))
            break;
    }
    return i;
}
#endif

bool io_check_utf8(const char *data, size_t len, char *msg, size_t msgsize)
{
#ifdef CLINIC_AVX2
    bool avx2 = clinic_have_avx2();
#endif
    const unsigned char *s = (const unsigned char *)data;
    size_t i = 0;
    while (i < len) {
        /* ASCII, most of any C file, 256 (with AVX2 or SSE2), 32, then
           eight bytes at a time: every file of a tree passes here.  The 256 bytes are
           read from a 16-byte boundary, so that each load goes straight
           into an OR (the first 16 bytes before it, once, unaligned). */
#ifdef CLINIC_AVX2
        if (avx2)
            i = ascii_run_avx2(s, i, len);
#endif
#ifdef CLINIC_SSE2
        if (i + 16 + 256 <= len &&
            !_mm_movemask_epi8(
                _mm_loadu_si128((const __m128i *)(const void *)(s + i)))) {
            i += 16 - ((uintptr_t)(s + i) & 15);
            while (i + 256 <= len) {
                const __m128i *v = (const __m128i *)(const void *)(s + i);
                __m128i x = v[0], y = v[1];
#define OR_PAIR(k)                                                            \
    (x = _mm_or_si128(x, v[k]), y = _mm_or_si128(y, v[(k) + 1]))
                OR_PAIR(2), OR_PAIR(4), OR_PAIR(6), OR_PAIR(8);
                OR_PAIR(10), OR_PAIR(12), OR_PAIR(14);
#undef OR_PAIR
                if (_mm_movemask_epi8(_mm_or_si128(x, y)))
                    break;
                i += 256;
            }
        }
#endif
        while (i + 32 <= len) {
            uint64_t w[4];
            memcpy(w, s + i, 32);
            if ((w[0] | w[1] | w[2] | w[3]) & UINT64_C(0x8080808080808080))
                break;
            i += 32;
        }
        while (i + 8 <= len) {
            uint64_t word;
            memcpy(&word, s + i, 8);
            if (word & UINT64_C(0x8080808080808080))
                break;
            i += 8;
        }
        if (i >= len)
            break;
        unsigned char b = s[i];
        if (b < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned char lo = 0x80, hi = 0xbf;   /* range of the 2nd byte */
        if (b >= 0xc2 && b <= 0xdf) {
            need = 1;
        } else if (b >= 0xe0 && b <= 0xef) {
            need = 2;
            if (b == 0xe0)
                lo = 0xa0;                    /* overlong */
            if (b == 0xed)
                hi = 0x9f;                    /* surrogates */
        } else if (b >= 0xf0 && b <= 0xf4) {
            need = 3;
            if (b == 0xf0)
                lo = 0x90;
            if (b == 0xf4)
                hi = 0x8f;                    /* beyond U+10FFFF */
        } else {
            snprintf(msg, msgsize,
                     "'utf-8' codec can't decode byte 0x%02x in position "
                     "%zu: invalid start byte", b, i);
            return false;
        }
        /* Python reports the lead byte plus the continuation bytes that
           were valid before the problem. */
        size_t k = 0;
        while (k < need && i + 1 + k < len) {
            unsigned char cb = s[i + 1 + k];
            bool ok = k == 0 ? cb >= lo && cb <= hi : cb >= 0x80 && cb <= 0xbf;
            if (!ok)
                break;
            k++;
        }
        if (k == need) {
            i += need + 1;
            continue;
        }
        const char *why = i + 1 + k >= len ? "unexpected end of data"
                                           : "invalid continuation byte";
        if (k == 0)
            snprintf(msg, msgsize,
                     "'utf-8' codec can't decode byte 0x%02x in position "
                     "%zu: %s", b, i, why);
        else
            snprintf(msg, msgsize,
                     "'utf-8' codec can't decode bytes in position "
                     "%zu-%zu: %s", i, i + k, why);
        return false;
    }
    return true;
}

#ifdef CLINIC_AVX2
/* io_find_cr_nul with AVX2, 128 bytes at a time while 128 are left: the
   bits found so far (1: "\r", 2: NUL) and *at where the rest begins. */
AVX2_FUNCTION
static unsigned cr_nul_avx2(const unsigned char *s, size_t *at, size_t len)
{
    const __m256i cr = _mm256_set1_epi8('\r'), zero = _mm256_setzero_si256();
    __m256i crs = zero, nuls = zero;
    size_t i = *at;
    for (; i + 128 <= len; i += 128) {
#define LOAD(k)                                                               \
    _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 32 * (k)))
        __m256i a = LOAD(0), b = LOAD(1), c = LOAD(2), d = LOAD(3);
#undef LOAD
        /* a NUL makes the minimum 0; a "\r" matches */
        nuls = _mm256_or_si256(
            nuls, _mm256_cmpeq_epi8(
                      _mm256_min_epu8(_mm256_min_epu8(a, b),
                                      _mm256_min_epu8(c, d)),
                      zero));
        crs = _mm256_or_si256(
            crs, _mm256_or_si256(
                     _mm256_or_si256(_mm256_cmpeq_epi8(a, cr),
                                     _mm256_cmpeq_epi8(b, cr)),
                     _mm256_or_si256(_mm256_cmpeq_epi8(c, cr),
                                     _mm256_cmpeq_epi8(d, cr))));
    }
    *at = i;
    return (_mm256_movemask_epi8(crs) ? 1u : 0u) |
           (_mm256_movemask_epi8(nuls) ? 2u : 0u);
}
#endif

void io_find_cr_nul(const char *data, size_t len, bool *has_cr,
                    bool *has_nul)
{
    const unsigned char *s = (const unsigned char *)data;
    size_t i = 0;
    unsigned found = 0;
#ifdef CLINIC_AVX2
    if (clinic_have_avx2())
        found = cr_nul_avx2(s, &i, len);
#endif
    /* the rest (all of it without AVX2): libc's searches */
    *has_cr = (found & 1) || memchr(s + i, '\r', len - i) != NULL;
    *has_nul = (found & 2) || memchr(s + i, '\0', len - i) != NULL;
}

#ifdef CLINIC_AVX2
/* The offset of the first 128 bytes from i on with a byte that is not
   plain (io_scan_text), or of the last 127 or fewer, read with AVX2. */
AVX2_FUNCTION
static size_t plain_run_avx2(const unsigned char *s, size_t i, size_t len)
{
    /* three minimums and an OR a vector, compared once per 128 bytes:
       NUL makes the minimum of the bytes 0; 0x0b-0x1f, less 0x0b, are
       the only bytes below 0x15 (wrapping around); the bytes >= 0x80
       have the high bit of the OR */
    const __m256i minus_0b = _mm256_set1_epi8(-0x0b),
                  below = _mm256_set1_epi8(0x14),
                  zero = _mm256_setzero_si256();
    for (; i + 128 <= len; i += 128) {
#define LOAD(k)                                                               \
    _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 32 * (k)))
        __m256i a = LOAD(0), b = LOAD(1), c = LOAD(2), d = LOAD(3);
#undef LOAD
        __m256i high = _mm256_or_si256(_mm256_or_si256(a, b),
                                       _mm256_or_si256(c, d));
        __m256i low = _mm256_min_epu8(_mm256_min_epu8(a, b),
                                      _mm256_min_epu8(c, d));
        __m256i control = _mm256_min_epu8(
            _mm256_min_epu8(_mm256_add_epi8(a, minus_0b),
                            _mm256_add_epi8(b, minus_0b)),
            _mm256_min_epu8(_mm256_add_epi8(c, minus_0b),
                            _mm256_add_epi8(d, minus_0b)));
        __m256i odd = _mm256_or_si256(
            _mm256_or_si256(high, _mm256_cmpeq_epi8(low, zero)),
            _mm256_cmpeq_epi8(_mm256_min_epu8(control, below), control));
        if (_mm256_movemask_epi8(odd))
            break;
    }
    return i;
}
#endif

void io_scan_text(const char *data, size_t len, IoTextScan *scan)
{
    size_t plain = 0;   /* without AVX2 the scanner finds it as it goes */
#ifdef CLINIC_AVX2
    const unsigned char *s = (const unsigned char *)data;
    if (clinic_have_avx2()) {
        plain = plain_run_avx2(s, 0, len);
        /* the byte in the 128 where it stopped, or the short rest */
        while (plain < len && s[plain] != 0 && s[plain] < 0x80 &&
               !(s[plain] >= 0x0b && s[plain] <= 0x1f))
            plain++;
    }
#endif
    /* a plain stretch holds neither: only the rest is searched */
    scan->plain_len = plain;
    io_find_cr_nul(data + plain, len - plain, &scan->has_cr, &scan->has_nul);
}

/* ---- paths ----------------------------------------------------------- */

char *io_normpath(const char *path)
{
    size_t n = strlen(path);
    bool absolute = path[0] == '/';
    /* the components kept, as offsets into the copy being written */
    char *out = xmalloc(n + 2);
    size_t *starts = xmalloc((n / 2 + 2) * sizeof *starts);
    size_t len = 0, nparts = 0, nup = 0;   /* nup: leading ".."s kept */
    if (absolute)
        out[len++] = '/';
    for (const char *s = path; *s;) {
        while (*s == '/')
            s++;
        size_t k = strcspn(s, "/");
        if (k == 0 || (k == 1 && s[0] == '.')) {
            s += k;
            continue;
        }
        if (k == 2 && s[0] == '.' && s[1] == '.' &&
            (nparts > nup || absolute)) {
            if (nparts > nup) {   /* back over the last name */
                len = starts[--nparts];
                if (len > (size_t)absolute)
                    len--;   /* and its slash */
            }
            s += k;
            continue;
        }
        if (len > (size_t)absolute)
            out[len++] = '/';
        starts[nparts++] = len;
        if (k == 2 && s[0] == '.' && s[1] == '.')
            nup++;
        memcpy(out + len, s, k);
        len += k;
        s += k;
    }
    if (len == 0)
        out[len++] = '.';
    out[len] = '\0';
    free(starts);
    return out;
}

char *io_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    size_t n = (size_t)(slash - path);
    char *d = xmalloc(n + 1);
    memcpy(d, path, n);
    d[n] = '\0';
    return d;
}

char *io_resolve_target(const char *path)
{
    char *cur = xstrdup(path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
            return cur;
        char *real = realpath(cur, NULL);
        if (real) {
            free(cur);
            return real;
        }
        /* dangling: follow one link by hand */
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return cur;
        link[n] = '\0';
        char *next;
        if (link[0] == '/') {
            next = xstrdup(link);
        } else {
            char *dir = io_dirname(cur);
            next = xmalloc(strlen(dir) + strlen(link) + 2);
            sprintf(next, "%s/%s", dir, link);
            free(dir);
        }
        free(cur);
        cur = next;
    }
    return cur;
}

/* ---- identity -------------------------------------------------------- */

/* Drops the last component of an absolute path in place ("/a/b" -> "/a",
   "/a" -> "/"). */
static void drop_last_component(char *path)
{
    char *slash = strrchr(path, '/');
    if (slash == path)
        path[1] = '\0';
    else if (slash)
        *slash = '\0';
}

/* An absolute name for the file a write to path lands on, every symlink
   resolved: realpath of the longest leading part that exists, then the
   rest, whose "." and ".." are resolved by name (none of it exists, so no
   link can be in it). */
static char *resolve_path(const char *path)
{
    char *target = io_resolve_target(path);
    char *real = realpath(target, NULL);
    if (real) {
        free(target);
        return real;
    }
    char *abs;
    if (target[0] == '/') {
        abs = target;
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            return target;
        abs = xmalloc(strlen(cwd) + strlen(target) + 2);
        sprintf(abs, "%s/%s", cwd, target);
        free(target);
    }
    /* the longest existing prefix, cut at a slash (the root exists) */
    size_t cut = strlen(abs);
    char *base;
    for (;;) {
        while (cut > 0 && abs[cut] != '/')
            cut--;
        if (cut == 0) {
            base = xstrdup("/");
            break;
        }
        abs[cut] = '\0';
        base = realpath(abs, NULL);
        abs[cut] = '/';
        if (base)
            break;
        cut--;
    }
    size_t cap = strlen(base) + strlen(abs + cut) + 2;
    char *out = xmalloc(cap);
    strcpy(out, base);
    free(base);
    char *save = NULL;
    for (char *part = strtok_r(abs + cut, "/", &save); part;
         part = strtok_r(NULL, "/", &save)) {
        if (!strcmp(part, "."))
            continue;
        if (!strcmp(part, "..")) {
            drop_last_component(out);
            continue;
        }
        if (strcmp(out, "/") != 0)
            strcat(out, "/");
        strcat(out, part);
    }
    free(abs);
    return out;
}

bool io_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ra = resolve_path(a), *rb = resolve_path(b);
    bool same = strcmp(ra, rb) == 0;
    free(ra);
    free(rb);
    return same;
}

bool io_clinic_same_file(void *userdata, const char *a, const char *b)
{
    (void)userdata;
    return io_same_file(a, b);
}
