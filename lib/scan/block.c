/*
 * block.c — the scanner of clinic blocks: clinic.py's BlockParser (split
 * a file into verbatim text and blocks, find each block's existing
 * output, verify its checksum).  Its BlockPrinter is generate/printer.c.
 *
 * The reference reads files as UTF-8 text with universal newlines and
 * splits them with str.splitlines(keepends=True).  We work on bytes: the
 * caller (io.c) has already turned "\r\n" and "\r" into "\n", and lines
 * here are split where splitlines() would split ("\n", "\r\n", "\r",
 * "\v", "\f", "\x1c"-"\x1e", U+0085, U+2028, U+2029), so the same lines
 * are start lines, stop lines and end markers.  Line numbers, though, are
 * the real ones (counted at "\n" and "\r"), so a form feed on its own
 * line does not shift every message after it as it does in clinic.py.
 */
#include "scan/block.h"
#include "model/message.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "base/simd.h"

#include "base/checksum.h"
#include "scan/cpp.h"
#include "python/pyexpr.h"
#include "base/text.h"

/* One line of the file, terminator included. */
typedef struct Line {
    const char *s;
    size_t len;
    int lineno;
} Line;

struct BlockParser {
    Clinic *c;
    const char *text;
    size_t len;
    size_t pos;            /* start of the next unread line */
    int next_line;         /* real line number of the line at pos */
    int line_number;       /* clinic.py's line_number: the last line read */
    bool verify;
    bool borrow;           /* BlockScan.borrow */
    bool first_block;
    const char *dsl_name;  /* a start line was read; its block is next */
    int start_line;        /* ... on this line */

    pcre2_general_context *gctx;
    pcre2_compile_context *cctx;
    pcre2_code *start_re;
    pcre2_code *checksum_re;       /* for checksum_dsl (clinic.py caches
                                      the last one too) */
    const char *checksum_dsl;
    pcre2_match_data *md;

    size_t next_special;   /* no line break but "\n" before this offset */
    size_t marker_from;    /* no slash-star "[" in [marker_from, */
    size_t next_marker;    /* next_marker): lines there hold no marker */

    size_t cpp_from;       /* no byte of CPP_SPECIAL_BYTES in [cpp_from, */
    size_t next_cpp;       /* next_cpp): the cpp monitor ignores lines there */
};

/* ---- Python's notion of whitespace and line breaks on UTF-8 ---------- */

/* Python's ASCII whitespace, \t\n\v\f\r (9-13), \x1c-\x1f and ' ' (32),
   as bits: one comparison settles the bytes above ' ', most of them. */
#define ASCII_SPACE_BITS                                                      \
    ((UINT64_C(0x1f) << 9) | (UINT64_C(0xf) << 0x1c) | (UINT64_C(1) << 32))

static bool is_ascii_space(unsigned char b)
{
    return b <= ' ' && (ASCII_SPACE_BITS >> b) & 1;
}

/* Length of the Unicode whitespace character (str.isspace) at s, or 0. */
static size_t py_space_len(const unsigned char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned char b = s[0];
    if (is_ascii_space(b))
        return 1;
    if (n >= 2 && b == 0xc2 && (s[1] == 0x85 || s[1] == 0xa0))
        return 2;
    if (n < 3)
        return 0;
    if (b == 0xe1 && s[1] == 0x9a && s[2] == 0x80)             /* U+1680 */
        return 3;
    if (b == 0xe2 && s[1] == 0x80 &&                /* U+2000-200A, */
        ((s[2] >= 0x80 && s[2] <= 0x8a) ||          /* U+2028, U+2029, */
         s[2] == 0xa8 || s[2] == 0xa9 || s[2] == 0xaf))  /* U+202F */
        return 3;
    if (b == 0xe2 && s[1] == 0x81 && s[2] == 0x9f)             /* U+205F */
        return 3;
    if (b == 0xe3 && s[1] == 0x80 && s[2] == 0x80)             /* U+3000 */
        return 3;
    return 0;
}

/* str.lstrip(): skip leading whitespace. */
static size_t py_lstrip(const char *s, size_t n)
{
    size_t i = 0, k;
    while ((k = py_space_len((const unsigned char *)s + i, n - i)) > 0)
        i += k;
    return i;
}

/* str.isspace(): non-empty and all whitespace. */
static bool py_isspace(const char *s, size_t n)
{
    return n > 0 && py_lstrip(s, n) == n;
}

/* Length of the str.splitlines() line break at s, or 0. */
static size_t line_break_len(const unsigned char *s, size_t n)
{
    switch (s[0]) {
    case '\r':
        return n >= 2 && s[1] == '\n' ? 2 : 1;
    case '\n': case '\v': case '\f': case 0x1c: case 0x1d: case 0x1e:
        return 1;
    case 0xc2:
        return n >= 2 && s[1] == 0x85 ? 2 : 0;
    case 0xe2:
        return n >= 3 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9) ? 3
                                                                         : 0;
    default:
        return 0;
    }
}

/* Bytes that may begin a str.splitlines() break: the scanner skips the
   others with one table look-up per byte. */
static const unsigned char may_break[256] = {
    ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1,
    [0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0xc2] = 1, [0xe2] = 1,
};

/* ---- scanning the text a stretch at a time --------------------------- */

/* Most of a file is lines nobody looks at: what the scanner needs of
   them (where the next line break of another kind than "\n" is, how
   many lines there are up to the next line that matters, where that line
   starts) is found 16 to 64 bytes at a time with SSE2 where the compiler
   has it (all of x86-64), else a byte at a time.  The text is
   NUL-terminated: the byte at len may be read. */

#ifdef CLINIC_SSE2
/* The 16 bytes at s as a vector. */
static __m128i load16(const unsigned char *s)
{
    return _mm_loadu_si128((const __m128i *)(const void *)s);
}
#endif

#ifdef CLINIC_AVX2
/* find_other_break's search with AVX2, 64 bytes at a time while 64 are
   left: true and *at the candidate found, or false and *at where the
   rest begins. */
AVX2_FUNCTION
static bool other_break_avx2(const unsigned char *s, size_t *at, size_t len)
{
    /* the candidates: bytes >= 0x80 (their high bit), and 0x0b-0x1f,
       the only bytes below 0x15 once 0x0b is taken off (wrapping) */
    const __m256i minus_0b = _mm256_set1_epi8(-0x0b),
                  below = _mm256_set1_epi8(0x14);
    size_t i = *at;
    for (; i + 64 <= len; i += 64) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        __m256i b =
            _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 32));
        __m256i la = _mm256_add_epi8(a, minus_0b),
                lb = _mm256_add_epi8(b, minus_0b);
        __m256i ca = _mm256_or_si256(
                    a, _mm256_cmpeq_epi8(_mm256_min_epu8(la, below), la)),
                cb = _mm256_or_si256(
                    b, _mm256_cmpeq_epi8(_mm256_min_epu8(lb, below), lb));
        if (!_mm256_movemask_epi8(_mm256_or_si256(ca, cb)))
            continue;
        uint64_t mask = (uint64_t)(uint32_t)_mm256_movemask_epi8(ca) |
                        (uint64_t)(uint32_t)_mm256_movemask_epi8(cb) << 32;
        for (; mask; mask &= mask - 1) {
            size_t k = i + clinic_lowest_bit64(mask);
            if (s[k] != '\n' && may_break[s[k]]) {
                *at = k;
                return true;
            }
        }
    }
    *at = i;
    return false;
}
#endif

/* The offset of the first byte at or after from that may begin a line
   break other than "\n" (may_break, less "\n"), or len. */
static size_t find_other_break(const char *text, size_t from, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = from;
#ifdef CLINIC_AVX2
    if (clinic_have_avx2() && other_break_avx2(s, &i, len))
        return i;
#endif
#ifdef CLINIC_SSE2
    /* the candidates, bytes 0x0b-0x1f and 0x80-0xff (one signed and one
       unsigned comparison), 16 bytes at a time; the few there are in C
       text are looked up in may_break */
    const __m128i space = _mm_set1_epi8(0x20), nl = _mm_set1_epi8('\n');
#define BREAK_CANDIDATES(v)                                                   \
    _mm_andnot_si128(_mm_cmpeq_epi8(_mm_min_epu8((v), nl), (v)),             \
                     _mm_cmplt_epi8((v), space))
    /* first a quicker look at 64 bytes for any candidate: the bytes >=
       0x80 have the high bit of their OR; the bytes 0x0b-0x1f, less 0x0b,
       are the only ones below 0x15 (unsigned, wrapping around) */
    const __m128i minus_0b = _mm_set1_epi8(-0x0b),
                  below = _mm_set1_epi8(0x14);
    for (;;) {
        while (i + 64 <= len) {
            __m128i a = load16(s + i), b = load16(s + i + 16),
                    c = load16(s + i + 32), d = load16(s + i + 48);
            __m128i high = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d));
            __m128i low = _mm_min_epu8(
                _mm_min_epu8(_mm_add_epi8(a, minus_0b),
                             _mm_add_epi8(b, minus_0b)),
                _mm_min_epu8(_mm_add_epi8(c, minus_0b),
                             _mm_add_epi8(d, minus_0b)));
            __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(low, below), low);
            if (_mm_movemask_epi8(_mm_or_si128(high, control)))
                break;
            i += 64;
        }
        /* 16 bytes at a time through a stretch with a candidate, or to
           the end (the NUL at len is no candidate) */
        size_t stretch_end = i + 64 <= len ? i + 64 : len + 1;
        for (; i + 16 <= stretch_end; i += 16) {
            unsigned mask =
                (unsigned)_mm_movemask_epi8(BREAK_CANDIDATES(load16(s + i)));
            while (mask) {
                size_t at = i + clinic_lowest_bit(mask);
                if (may_break[s[at]])
                    return at;
                mask &= mask - 1;
            }
        }
        if (i + 16 > len + 1)
            break;
    }
#undef BREAK_CANDIDATES
#endif
    while (i < len && (s[i] == '\n' || !may_break[s[i]]))
        i++;
    return i < len ? i : len;   /* the last stretch may end past len */
}

/* The offset just past the last "\n" in text[from, to), or from. */
static size_t line_start_before(const char *text, size_t from, size_t to)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t j = to;
#ifdef CLINIC_SSE2
    const __m128i nl = _mm_set1_epi8('\n');
    for (; j - from >= 16; j -= 16) {
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(load16(s + j - 16), nl));
        if (mask)
            return j - 16 + clinic_highest_bit(mask) + 1;
    }
    if (j > from && j >= 16) {
        /* the last stretch: the 16 bytes before j, less those before from */
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(load16(s + j - 16), nl));
        mask &= ~0u << (from - (j - 16));
        return mask ? j - 16 + clinic_highest_bit(mask) + 1 : from;
    }
#endif
    while (j > from && s[j - 1] != '\n')
        j--;
    return j;
}

#ifdef CLINIC_AVX2
/* count_newlines with AVX2, 64 bytes at a time while 64 are left; *from
   becomes where the rest begins. */
AVX2_FUNCTION
static int newlines_avx2(const unsigned char *s, size_t *from, size_t to)
{
    /* as below: the sums of a byte take at most 127 rounds of two */
    const __m256i nl = _mm256_set1_epi8('\n'), zero = _mm256_setzero_si256();
    size_t i = *from;
    long long n = 0;
    while (to - i >= 64) {
        size_t rounds = (to - i) / 64;
        if (rounds > 127)
            rounds = 127;
        __m256i sums = zero;
        for (size_t k = 0; k < rounds; k++, i += 64) {
            __m256i a = _mm256_cmpeq_epi8(
                _mm256_loadu_si256((const __m256i *)(const void *)(s + i)), nl);
            __m256i b = _mm256_cmpeq_epi8(
                _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 32)),
                nl);
            sums = _mm256_sub_epi8(sums, _mm256_add_epi8(a, b));
        }
        __m256i total = _mm256_sad_epu8(sums, zero);
        __m128i half = _mm_add_epi64(_mm256_castsi256_si128(total),
                                     _mm256_extracti128_si256(total, 1));
        n += _mm_cvtsi128_si64(half) +
             _mm_cvtsi128_si64(_mm_unpackhi_epi64(half, half));
    }
    *from = i;
    return (int)n;
}
#endif

/* The number of "\n" in text[from, to). */
static int count_newlines(const char *text, size_t from, size_t to)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = from;
    int n = 0;
#ifdef CLINIC_AVX2
    if (to - i >= 64 && clinic_have_avx2())
        n = newlines_avx2(s, &i, to);
#endif
#ifdef CLINIC_SSE2
    /* each "\n" found subtracts -1 from its byte of the sums, which are
       added up before any can pass 255 (a-d are 0 to -4 a byte) */
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (to - i >= 16) {
        /* at most 63 rounds of 64 bytes (four sums of a byte each), then
           16 bytes at a time */
        size_t rounds = (to - i) / 64;
        if (rounds > 63)
            rounds = 63;
        __m128i sums = zero;
        for (size_t k = 0; k < rounds; k++, i += 64) {
            __m128i a = _mm_cmpeq_epi8(load16(s + i), nl);
            __m128i b = _mm_cmpeq_epi8(load16(s + i + 16), nl);
            __m128i c = _mm_cmpeq_epi8(load16(s + i + 32), nl);
            __m128i d = _mm_cmpeq_epi8(load16(s + i + 48), nl);
            sums = _mm_sub_epi8(sums, _mm_add_epi8(_mm_add_epi8(a, b),
                                                   _mm_add_epi8(c, d)));
        }
        if (rounds == 0)
            for (; to - i >= 16; i += 16)
                sums = _mm_sub_epi8(sums, _mm_cmpeq_epi8(load16(s + i), nl));
        __m128i total = _mm_sad_epu8(sums, zero);
        n += _mm_cvtsi128_si32(total) +
             _mm_cvtsi128_si32(_mm_unpackhi_epi64(total, total));
    }
    if (i < to && to >= 16) {
        /* the last stretch: the 16 bytes before to, less those before i */
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(load16(s + to - 16), nl));
        for (mask >>= 16 - (to - i); mask; mask &= mask - 1)
            n++;
        i = to;
    }
#endif
    for (; i < to; i++)
        n += s[i] == '\n';
    return n;
}

/* Both markers (start line, end marker) begin with this, once leading
   whitespace is skipped: lines without it never reach the regexes. */
static bool has_marker_prefix(const char *s, size_t n)
{
    return n >= 3 && s[0] == '/' && s[1] == '*' && s[2] == '[';
}

/* Python's repr() of a piece of text, for messages. */
static const char *repr(Clinic *c, const char *s, size_t n)
{
    PyValue v = {0};
    v.kind = PY_STR;
    v.s = arena_strndup(c->arena, s, n);
    v.len = n;
    return py_repr(c->arena, &v);
}

/* ---- regular expressions (clinic.py's create_regex) ------------------ */

static void *arena_malloc_cb(PCRE2_SIZE size, void *data)
{
    return arena_alloc_uninit((Arena *)data, size);   /* like malloc */
}

static void arena_free_cb(void *p, void *data)
{
    (void)p;
    (void)data;   /* released with the arena */
}

/* Python str patterns: \w is Unicode, '.' stops only at "\n", '$' also
   matches before a final "\n".  Bytes that are not UTF-8 never match. */
#define REGEX_OPTIONS (PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF)

static pcre2_code *compile_regex(BlockParser *bp, const char *pattern)
{
    int err;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile(
        (PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
        REGEX_OPTIONS, &err, &off, bp->cctx);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(err, msg, sizeof msg);
        clinic_fail(bp->c, 0, "internal error: bad marker regex %s: %s",
                    pattern, (const char *)msg);
    }
    return re;
}

/* Matches re against s[0..n) ("\r" of a line end left out, see the file
   comment); returns group 1 in arena memory, or NULL. */
/* The start marker's regex, and the end marker's for the "clinic" DSL,
   are the same in every file: compiled once per process, on first use,
   outside any arena, and shared by the threads (compiled pcre2 code is
   only read).  Two threads compiling at once keep the first result. */
static _Atomic(pcre2_code *) shared_start_re, shared_clinic_end_re;

static pcre2_code *shared_regex(BlockParser *bp, _Atomic(pcre2_code *) *slot,
                                const char *pattern)
{
    pcre2_code *re = atomic_load_explicit(slot, memory_order_acquire);
    if (re)
        return re;
    pcre2_compile_context *cctx = pcre2_compile_context_create(NULL);
    if (!cctx)
        return compile_regex(bp, pattern);
    pcre2_set_newline(cctx, PCRE2_NEWLINE_LF);
    int err;
    PCRE2_SIZE off;
    re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                       REGEX_OPTIONS, &err, &off, cctx);
    pcre2_compile_context_free(cctx);
    if (!re)   /* out of memory, or a bug: the arena's copy says which */
        return compile_regex(bp, pattern);
    /* matched at every block of every file: compiled to machine code once,
       where pcre2 can (where it cannot, the interpreter matches alike) */
    (void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
    pcre2_code *none = NULL;
    if (!atomic_compare_exchange_strong(slot, &none, re)) {
        pcre2_code_free(re);
        re = none;
    }
    return re;
}

static const char *match_group(BlockParser *bp, pcre2_code *re,
                               const char *s, size_t n)
{
    if (n >= 2 && s[n - 2] == '\r' && s[n - 1] == '\n') {
        /* keep the "\n" so '$' behaves as for "\n" lines */
        char *copy = arena_strndup(bp->c->arena, s, n - 1);
        copy[n - 2] = '\n';
        s = copy;
        n--;
    } else if (n >= 1 && s[n - 1] == '\r') {
        n--;
    }
    int rc = pcre2_match(re, (PCRE2_SPTR)s, n, 0, 0, bp->md, NULL);
    if (rc < 2)
        return NULL;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(bp->md);
    return arena_strndup(bp->c->arena, s + ov[2], ov[3] - ov[2]);
}

/* ---- the markers matched by hand, on lines in ASCII ------------------ */

/* The regexes above, on a line whose bytes are all ASCII, match exactly
   as this code does (\w is [A-Za-z0-9_] there, '.' any byte but "\n");
   lines with other bytes, rare, go to the regexes. */

static bool is_ascii(const char *s, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, s + i, 8);
        if (word & UINT64_C(0x8080808080808080))
            return false;
    }
    for (; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return false;
    return true;
}

static bool is_ascii_word(unsigned char b)
{
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') ||
           (b >= '0' && b <= '9') || b == '_';
}

/* Where '$' matches in the line as match_group hands it to the regex: at
   its end, or before its final "\n" ("\r\n" counting as "\n", a final
   lone "\r" dropped). */
static size_t subject_end(const char *s, size_t n)
{
    if (n >= 2 && s[n - 2] == '\r' && s[n - 1] == '\n')
        return n - 2;
    if (n >= 1 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        return n - 1;
    return n;
}

/* The start line's regex, ^/\*\[(\w+) input\]$: the dsl name, or NULL. */
static const char *match_start_marker(BlockParser *bp, const char *s,
                                      size_t n)
{
    if (!is_ascii(s, n))
        return match_group(bp, bp->start_re, s, n);
    size_t end = subject_end(s, n), i = 3;
    if (end < 3 || memcmp(s, "/*[", 3) != 0)
        return NULL;
    while (i < end && is_ascii_word((unsigned char)s[i]))
        i++;
    if (i == 3 || end - i != 7 || memcmp(s + i, " input]", 7) != 0)
        return NULL;
    return arena_strndup(bp->c->arena, s + 3, i - 3);
}

/* The end marker's regex for dsl_name, compiled when a line needs it. */
static pcre2_code *end_marker_regex(BlockParser *bp, const char *dsl_name)
{
    if (!bp->checksum_dsl || strcmp(bp->checksum_dsl, dsl_name) != 0) {
        const char *pattern = arena_printf(
            bp->c->arena,
            "^/\\*\\[\\Q%s\\E end generated code: (.+)\\]\\*/$", dsl_name);
        bp->checksum_re = strcmp(dsl_name, "clinic") == 0
            ? shared_regex(bp, &shared_clinic_end_re, pattern)
            : compile_regex(bp, pattern);
        bp->checksum_dsl = dsl_name;
    }
    return bp->checksum_re;
}

/* The end marker's regex, ^/\*\[\QNAME\E end generated code: (.+)\]\*\/$
   with its greedy '.+': the arguments, or NULL. */
static const char *match_end_marker(BlockParser *bp, const char *dsl_name,
                                    const char *s, size_t n)
{
    static const char middle[] = " end generated code: ";
    if (!is_ascii(s, n))
        return match_group(bp, end_marker_regex(bp, dsl_name), s, n);
    size_t end = subject_end(s, n), name_len = strlen(dsl_name);
    size_t head = 3 + name_len + sizeof middle - 1;
    if (end < head + 1 + 3 || memcmp(s, "/*[", 3) != 0 ||
        memcmp(s + 3, dsl_name, name_len) != 0 ||
        memcmp(s + 3 + name_len, middle, sizeof middle - 1) != 0 ||
        memcmp(s + end - 3, "]*/", 3) != 0)
        return NULL;
    return arena_strndup(bp->c->arena, s + head, end - 3 - head);
}

#define NO_MARKER ((size_t)-1)

/* Where a marker would begin on the line (after leading whitespace), or
   NO_MARKER when the line cannot hold one: most lines are settled by
   their first byte. */
static size_t marker_offset(const char *s, size_t n)
{
    size_t skip = 0;
    while (skip < n) {                  /* ASCII whitespace, quickly */
        unsigned char b = (unsigned char)s[skip];
        if (b == '/')
            break;
        if (b >= 0x80) {                /* perhaps a Unicode space */
            skip += py_lstrip(s + skip, n - skip);
            break;
        }
        if (!is_ascii_space(b))
            return NO_MARKER;
        skip++;
    }
    return has_marker_prefix(s + skip, n - skip) ? skip : NO_MARKER;
}

/* ---- reading lines ------------------------------------------------- */

#ifdef CLINIC_AVX2
/* find_cpp_byte's search with AVX2, 64 bytes at a time while 64 are
   left: true and *at the byte found, or false and *at where the rest
   begins. */
AVX2_FUNCTION
static bool cpp_byte_avx2(const char *text, size_t *at, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    /* '#' and '/' (with '\'' and '+') by one comparison, as below */
    const __m256i bits = _mm256_set1_epi8(0x0c), slash = _mm256_set1_epi8('/'),
                  backslash = _mm256_set1_epi8('\\');
    size_t i = *at;
    for (; i + 64 <= len; i += 64) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        __m256i b =
            _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 32));
        __m256i ma = _mm256_or_si256(
                    _mm256_cmpeq_epi8(_mm256_or_si256(a, bits), slash),
                    _mm256_cmpeq_epi8(a, backslash)),
                mb = _mm256_or_si256(
                    _mm256_cmpeq_epi8(_mm256_or_si256(b, bits), slash),
                    _mm256_cmpeq_epi8(b, backslash));
        if (!_mm256_movemask_epi8(_mm256_or_si256(ma, mb)))
            continue;
        uint64_t mask = (uint64_t)(uint32_t)_mm256_movemask_epi8(ma) |
                        (uint64_t)(uint32_t)_mm256_movemask_epi8(mb) << 32;
        for (; mask; mask &= mask - 1) {
            size_t k = i + clinic_lowest_bit64(mask);
            if ((s[k] == '#' || s[k] == '/' || s[k] == '\\') &&
                cpp_byte_matters(text, k)) {
                *at = k;
                return true;
            }
        }
    }
    *at = i;
    return false;
}
#endif

/* Is b one of CPP_SPECIAL_BYTES? */
static bool is_cpp_special(unsigned char b)
{
    return b == '#' || b == '/' || b == '\\';
}

/* The offset of the first byte at or after from that makes its line
   matter to the cpp monitor (cpp_byte_matters), or len.  The text is
   NUL-terminated, without NULs.  With SSE2 the three bytes of
   CPP_SPECIAL_BYTES are looked for 64 bytes at a time (strcspn's set
   search costs more, and most stretches between them are short). */
static size_t find_cpp_byte(const char *text, size_t from, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = from;
#ifdef CLINIC_AVX2
    if (clinic_have_avx2() && cpp_byte_avx2(text, &i, len))
        return i;
#endif
#ifdef CLINIC_SSE2
    /* '#' (0x23) and '/' (0x2f) are the bytes that become '/' with the
       bits 0x0c set, with '\'' and '+' (checked one by one: not many) */
    const __m128i bits = _mm_set1_epi8(0x0c), slash = _mm_set1_epi8('/'),
                  backslash = _mm_set1_epi8('\\');
#define CPP_SPECIAL(v)                                                        \
    _mm_or_si128(_mm_cmpeq_epi8(_mm_or_si128((v), bits), slash),             \
                 _mm_cmpeq_epi8((v), backslash))
    while (i + 64 <= len) {
        __m128i a = CPP_SPECIAL(load16(s + i)),
                b = CPP_SPECIAL(load16(s + i + 16)),
                c = CPP_SPECIAL(load16(s + i + 32)),
                d = CPP_SPECIAL(load16(s + i + 48));
        if (_mm_movemask_epi8(
                _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)))) {
            /* the candidates of the 64 bytes, in order */
            uint64_t mask = (uint64_t)(unsigned)_mm_movemask_epi8(a) |
                            (uint64_t)(unsigned)_mm_movemask_epi8(b) << 16 |
                            (uint64_t)(unsigned)_mm_movemask_epi8(c) << 32 |
                            (uint64_t)(unsigned)_mm_movemask_epi8(d) << 48;
            for (; mask; mask &= mask - 1) {
                size_t at = i + clinic_lowest_bit64(mask);
                if (is_cpp_special(s[at]) && cpp_byte_matters(text, at))
                    return at;
            }
        }
        i += 64;
    }
#undef CPP_SPECIAL
#endif
    for (; i < len; i++)
        if (is_cpp_special(s[i]) && cpp_byte_matters(text, i))
            return i;
    return len;
}

/* The offset of the next byte that makes its line matter to the cpp
   monitor at or after from (or the end of the text), found a stretch of
   text at a time. */
static size_t next_cpp_at(BlockParser *bp, size_t from)
{
    if (from < bp->cpp_from || from > bp->next_cpp) {
        bp->cpp_from = from;
        bp->next_cpp = find_cpp_byte(bp->text, from, bp->len);
    }
    return bp->next_cpp;
}

/* Can line l change the cpp monitor's state?  Most lines hold none of its
   bytes: those are neither copied nor passed on. */
static bool cpp_may_care(BlockParser *bp, const Line *l)
{
    if (cpp_wants_any_line(bp->c->cpp))
        return true;
    size_t from = (size_t)(l->s - bp->text);
    return next_cpp_at(bp, from) < from + l->len;
}

/* clinic.py's _line(): the next line; unless looking ahead it goes to
   the cpp monitor (CLanguage.parse_line). */
static bool read_line(BlockParser *bp, Line *l, bool lookahead)
{
    if (bp->pos >= bp->len)
        return false;
    const unsigned char *s = (const unsigned char *)bp->text;
    size_t i = bp->pos, brk = 0;
    if (i >= bp->next_special) {
        /* the bytes that may start another kind of line break, found a
           stretch at a time (the text is NUL-terminated, without NULs) */
        bp->next_special = find_other_break(bp->text, i, bp->len);
    }
    const char *nl = memchr(bp->text + i, '\n', bp->next_special - i);
    if (nl) {
        i = (size_t)(nl - bp->text);
        brk = 1;
    } else {
        while (i < bp->len) {
            if (may_break[s[i]] &&
                (brk = line_break_len(s + i, bp->len - i)))
                break;
            i++;
        }
    }
    l->s = bp->text + bp->pos;
    l->len = i + brk - bp->pos;
    l->lineno = bp->next_line;
    bp->pos = i + brk;
    if (brk && (s[i] == '\n' || s[i] == '\r'))
        bp->next_line++;
    bp->line_number = l->lineno;
    bp->c->line = l->lineno;

    /* the line where it is: the monitor reads no further than its end */
    if (!lookahead && bp->c->cpp && cpp_may_care(bp, l))
        cpp_writeline_n(bp->c, bp->c->cpp, l->s, l->len, l->lineno);
    return true;
}

/* Could the line hold a marker at all?  Both markers contain slash-star
   "[", and most lines of a file are nowhere near one: where the next one
   is, is found once and kept. */
/* The offset of the next slash-star "[" at or after from (or the end of
   the text), found a stretch of text at a time. */
static size_t find_marker(const char *text, size_t from, size_t len)
{
    const char *p = text + from, *end = text + len;
    while ((p = memchr(p, '[', (size_t)(end - p))) != NULL) {
        if (p - text >= (ptrdiff_t)from + 2 && p[-1] == '*' && p[-2] == '/')
            return (size_t)(p - 2 - text);
        p++;
    }
    return len;
}

static inline size_t next_marker_at(BlockParser *bp, size_t from)
{
    if (from < bp->marker_from || from > bp->next_marker) {
        bp->marker_from = from;
        bp->next_marker = find_marker(bp->text, from, bp->len);
    }
    return bp->next_marker;
}

static inline bool may_hold_marker(BlockParser *bp, const Line *l)
{
    size_t from = (size_t)(l->s - bp->text);
    return next_marker_at(bp, from) < from + l->len;
}

/* Skips, in one stretch, the lines from pos on that can matter to
   nobody: no marker, no line break but "\n" and, unless looking ahead
   (the cpp monitor is not fed then), nothing for the cpp monitor and no
   line it is waiting for.  They are only counted. */
static void skip_plain_lines(BlockParser *bp, bool lookahead)
{
    CppMonitor *cpp = lookahead ? NULL : bp->c->cpp;
    if (cpp && cpp_wants_any_line(cpp))
        return;
    size_t pos = bp->pos;
    if (pos >= bp->next_special)
        return;   /* read_line finds the next break of another kind */
    size_t stop = next_marker_at(bp, pos);
    if (cpp) {
        size_t c = next_cpp_at(bp, pos);
        if (c < stop)
            stop = c;
    }
    if (bp->next_special < stop)
        stop = bp->next_special;
    /* back to the start of the line that holds stop */
    stop = line_start_before(bp->text, pos, stop);
    if (stop == pos)
        return;
    int lines = count_newlines(bp->text, pos, stop);
    bp->pos = stop;
    bp->next_line += lines;
    bp->line_number = bp->next_line - 1;
    bp->c->line = bp->line_number;
}

/* is_start_line(): the dsl name of a start line (slash-star "[NAME input]",
   leading whitespace allowed), or NULL.  Most lines are settled by where
   the next slash-star "[" is, inline; the others by the regex. */
static const char *match_start_line(BlockParser *bp, const Line *l)
{
    size_t skip = marker_offset(l->s, l->len);
    if (skip == NO_MARKER)
        return NULL;
    return match_start_marker(bp, l->s + skip, l->len - skip);
}

static inline const char *is_start_line(BlockParser *bp, const Line *l)
{
    return may_hold_marker(bp, l) ? match_start_line(bp, l) : NULL;
}

/* ---- the parser ------------------------------------------------------ */

BlockParser *block_parser_new(Clinic *c, const char *text, size_t len,
                              const BlockScan *how)
{
    /* Blocks hold NUL-terminated strings: refuse rather than truncate. */
    const char *nul = how->no_nul ? NULL : memchr(text, '\0', len);
    if (nul) {
        int line = 1;
        for (const char *p = text; p < nul; p++)
            line += *p == '\n';
        clinic_fail(c, line, "NUL byte in the input: not supported");
    }
    BlockParser *bp = arena_new_of(c->arena, BlockParser);
    bp->c = c;
    bp->text = text;
    bp->len = len;
    bp->next_line = 1;
    bp->verify = how->verify;
    bp->borrow = how->borrow;
    bp->first_block = true;
    bp->cpp_from = SIZE_MAX;   /* nothing known yet */
    bp->gctx = pcre2_general_context_create(arena_malloc_cb, arena_free_cb,
                                            c->arena);
    bp->cctx = pcre2_compile_context_create(bp->gctx);
    pcre2_set_newline(bp->cctx, PCRE2_NEWLINE_LF);
    bp->start_re = shared_regex(bp, &shared_start_re,
                                "^/\\*\\[(\\w+) input\\]$");
    bp->md = pcre2_match_data_create(4, bp->gctx);
    if (how->plain_len > bp->next_special && how->plain_len <= len)
        bp->next_special = how->plain_len;
    return bp;
}

static void parse_verbatim_block(BlockParser *bp, Block *out)
{
    size_t start = bp->pos;
    size_t end = bp->pos;
    out->line = bp->next_line;
    Line l;
    for (;;) {
        skip_plain_lines(bp, false);
        end = bp->pos;
        if (!read_line(bp, &l, false))
            break;
        const char *dsl_name = is_start_line(bp, &l);
        if (dsl_name) {
            bp->dsl_name = dsl_name;
            bp->start_line = l.lineno;
            break;
        }
        end = bp->pos;
    }
    /* text that runs to the end of the file is already a string there */
    if (end == bp->len || end == start)
        out->input = end == start ? "" : bp->text + start;
    else if (bp->borrow)
        out->input = bp->text + start, out->input_len = end - start;
    else
        out->input = arena_strndup(bp->c->arena, bp->text + start,
                                   end - start);
}

/* is_stop_line(): the line starts with the stop line (stop_len bytes),
   with nothing but whitespace after it. */
static bool is_stop_line(BlockParser *bp, const Line *l, const char *stop,
                         size_t stop_len)
{
    Clinic *c = bp->c;
    if (l->len >= stop_len && memcmp(l->s, stop, stop_len) == 0) {
        if (l->len > stop_len &&
            !py_isspace(l->s + stop_len, l->len - stop_len))
            clinic_fail(c, l->lineno, "Garbage after stop line: %s",
                        repr(c, l->s + stop_len, l->len - stop_len));
        return true;
    }
    /* gh-92256: don't allow incorrectly formatted stop lines (a line
       that does not start with whitespace was just looked at) */
    if (py_space_len((const unsigned char *)l->s, l->len) == 0)
        return false;
    size_t skip = py_lstrip(l->s, l->len);
    if (l->len - skip >= stop_len &&
        memcmp(l->s + skip, stop, stop_len) == 0)
        clinic_fail(c, l->lineno,
                    "Whitespace is not allowed before the stop line: %s",
                    repr(c, l->s, l->len));
    return false;
}

/* Number of characters (code points) in the n bytes of UTF-8 at s:
   Python's len(). */
static size_t py_len(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += ((unsigned char)s[i] & 0xc0) != 0x80;
    return count;
}

/* The arguments of an end marker: "output=X input=Y" (or the legacy
   "checksum=X"); verifies the output's checksum. */
/* The SHA-1 (40 digits) of the output at offset in the text: computed,
   or remembered from an earlier file of the run. */
static void output_sum(BlockParser *bp, size_t offset, const char *output,
                       size_t len, char *full)
{
    const ClinicOptions *o = &bp->c->options;
    const char *path = bp->c->filename;
    if (o->sum_known && o->sum_known(o->sum_userdata, path, offset, len, full))
        return;
    checksum_compute(output, len, CHECKSUM_HEX_LEN, full);
    if (o->sum_note)
        o->sum_note(o->sum_userdata, path, offset, len, full);
}

/* A piece of the marker line: n bytes at s. */
typedef struct Span {
    const char *s;
    size_t n;
} Span;

/* str.strip() of the n bytes at s, as text_strip() strips (ASCII
   whitespace). */
static Span strip_span(const char *s, size_t n)
{
    while (n > 0 && is_ascii_space((unsigned char)s[0]))
        s++, n--;
    while (n > 0 && is_ascii_space((unsigned char)s[n - 1]))
        n--;
    return (Span){s, n};
}

static bool span_is(Span a, const char *word, size_t n)
{
    return a.n == n && memcmp(a.s, word, n) == 0;
}

/* shlex.split() of the arguments, as spans: with nothing to unquote (no
   quote, no backslash: the usual "output=... input=...") and no more
   than `room` fields, the runs between blanks, pointing into the
   arguments, in local[]; else text_shlex_split's, in arena memory. */
static size_t split_arguments(BlockParser *bp, const char *s, Span *local,
                              size_t room, Span **fields)
{
    size_t n = 0;
    for (const char *p = s;;) {
        p += strspn(p, " \t\r\n");
        if (*p == '\0') {
            *fields = local;
            return n;
        }
        size_t run = strcspn(p, " \t\r\n'\"\\");
        char stop = p[run];
        if (stop == '\'' || stop == '"' || stop == '\\' || n == room)
            break;
        local[n++] = (Span){p, run};
        p += run;
    }
    const char **strings;
    const char *err;
    int words = text_shlex_split(bp->c->arena, s, &strings, &err);
    if (words < 0)
        clinic_fail(bp->c, 0, "%s", err);
    n = (size_t)words;
    Span *out = arena_array_of(bp->c->arena, Span, n + 1);
    for (size_t i = 0; i < n; i++)
        out[i] = (Span){strings[i], strlen(strings[i])};
    *fields = out;
    return n;
}

static void check_end_marker(BlockParser *bp, const Line *marker,
                             const char *arguments, const char *output,
                             size_t output_offset, size_t output_len,
                             Block *block)
{
    Clinic *c = bp->c;
    Span local[3 * 4], *fields;
    size_t n = split_arguments(bp, arguments, local, 4, &fields);
    Span *names = n <= 4 ? local + 4 : arena_array_of(c->arena, Span, 2 * n);
    Span *values = names + n;
    for (size_t i = 0; i < n; i++) {
        const char *eq = memchr(fields[i].s, '=', fields[i].n);
        if (!eq)
            clinic_fail(c, marker->lineno,
                        "Mangled Argument Clinic marker line: %s",
                        repr(c, marker->s, marker->len));
        size_t at = (size_t)(eq - fields[i].s);
        names[i] = strip_span(fields[i].s, at);
        values[i] = strip_span(eq + 1, fields[i].n - at - 1);
    }
    if (!bp->verify)
        return;

    /* a dict: the last field of a name wins */
    const char *want = "checksum";
    size_t want_len = 8;
    for (size_t i = 0; i < n; i++)
        if (span_is(names[i], "input", 5))
            want = "output", want_len = 6;
    const Span *checksum = NULL;
    for (size_t i = n; i-- > 0;)
        if (span_is(names[i], want, want_len)) {
            checksum = &values[i];
            break;
        }
    if (!checksum)   /* clinic.py dies with KeyError here */
        clinic_fail(c, marker->lineno,
                    "Mangled Argument Clinic marker line: %s",
                    repr(c, marker->s, marker->len));

    size_t length = py_len(checksum->s, checksum->n);
    char full[CHECKSUM_HEX_LEN + 1], computed[CHECKSUM_HEX_LEN + 1];
    output_sum(bp, output_offset, output, output_len, full);
    memcpy(computed, full, sizeof full);
    size_t computed_len = CHECKSUM_HEX_LEN;
    if (length > 0 && length < CHECKSUM_HEX_LEN)
        computed[length] = '\0', computed_len = length;
    if (span_is(*checksum, computed, computed_len)) {
        /* where it is in the text: the printer, comparing with the text,
           then finds it in its place */
        block->verified_output = bp->text + output_offset;
        block->verified_len = output_len;
        memcpy(block->verified_sum, full, sizeof full);
        return;
    }
    const char *message = message_format(
        c, MSG_CHECKSUM_MISMATCH,
        MSG_ARGS(arena_strndup(c->arena, checksum->s, checksum->n),
                 computed));
    block->checksum_error = message;
    block->checksum_error_line = marker->lineno;
    /* the caller's note reads the old output as a string: a borrowed
       one is made one here, where the cost is rare */
    if (block->output && block->output == block->borrowed_output)
        block->output = arena_strndup(c->arena, block->output,
                                      block->borrowed_len);
}

static void parse_clinic_block(BlockParser *bp, Block *out)
{
    Clinic *c = bp->c;
    const char *dsl_name = bp->dsl_name;
    /* the stop line, "[NAME start generated code]" and star-slash */
    size_t name_len = strlen(dsl_name), stop_len = name_len + 25;
    char *stop = arena_alloc_uninit(c->arena, stop_len + 1);
    stop[0] = '[';
    memcpy(stop + 1, dsl_name, name_len);
    memcpy(stop + 1 + name_len, " start generated code]*/", 25);
    memset(out, 0, sizeof *out);
    out->dsl_name = dsl_name;
    out->indent = "";
    out->preindent = "";
    out->line = bp->start_line;
    out->body_line = bp->start_line + 1;

    /* the body, up to the stop line (or a start line, which is lost, or
       the end of the file) */
    size_t start = bp->pos, end = bp->pos;
    Line l;
    bool closed = false;
    for (;;) {
        /* the lines no one looks at, at once: with the cpp monitor fed, a
           stop line (and one with whitespace before it) is never among
           them, as it holds a comment closer, nor is a start line */
        if (bp->c->cpp) {
            skip_plain_lines(bp, false);
            end = bp->pos;
        }
        if (!read_line(bp, &l, false))
            break;
        if (is_start_line(bp, &l))
            /* clinic.py ends the block here and drops this line */
            clinic_fail(c, l.lineno, "start line inside the block that "
                        "began at line %d, which has no '%s' line (clinic.py "
                        "would drop this line)", out->line, stop);
        if (is_stop_line(bp, &l, stop, stop_len)) {
            closed = true;
            break;
        }
        end = bp->pos;
    }
    out->input = arena_strndup(c->arena, bp->text + start, end - start);
    if (!closed)   /* clinic.py closes it silently */
        clinic_warn(c, out->line, "block has no '%s' line: it ends at the "
                    "end of the file, where the stop line is added", stop);

    /* the output, up to the end marker (looking ahead: without one, the
       lines go back to be read again as verbatim text) */
    size_t saved_pos = bp->pos, saved_special = bp->next_special;
    int saved_next = bp->next_line, saved_line = bp->line_number;
    size_t out_start = bp->pos, out_end = bp->pos;
    const char *arguments = NULL;
    for (;;) {
        skip_plain_lines(bp, true);
        out_end = bp->pos;
        if (!read_line(bp, &l, true))
            break;
        size_t skip = may_hold_marker(bp, &l) ? marker_offset(l.s, l.len)
                                              : NO_MARKER;
        arguments = NULL;
        if (skip != NO_MARKER)
            arguments = match_end_marker(bp, dsl_name, l.s + skip,
                                         l.len - skip);
        if (arguments && *arguments)
            break;
        arguments = NULL;
        out_end = bp->pos;
        if (is_start_line(bp, &l))
            break;
    }
    if (arguments) {
        if (bp->borrow) {
            out->output = out->borrowed_output = bp->text + out_start;
            out->borrowed_len = out_end - out_start;
        } else {
            out->output = arena_strndup(c->arena, bp->text + out_start,
                                        out_end - out_start);
        }
        check_end_marker(bp, &l, arguments, bp->text + out_start, out_start,
                         out_end - out_start, out);
    } else {
        bp->pos = saved_pos;
        bp->next_special = saved_special;
        bp->next_line = saved_next;
        bp->line_number = saved_line;
        c->line = saved_line;
        out->output = NULL;
    }
}

int block_parser_lines_read(const BlockParser *bp)
{
    /* next_line counts line breaks; a last line without one counts too */
    bool partial = bp->pos > 0 && bp->text[bp->pos - 1] != '\n';
    return bp->next_line - 1 + partial;
}

size_t block_output_len(const Block *b)
{
    if (!b->output)
        return 0;
    if (b->output == b->borrowed_output)
        return b->borrowed_len;
    return strlen(b->output);
}

const char *block_mismatch_note(Clinic *c, const char *what, const char *old,
                                const char *fresh, int marker_line)
{
    int differs = text_first_differing_line(old, fresh);
    if (differs < 0)
        return arena_printf(c->arena, "%s generated code is what clinic "
                            "writes, only its checksum differs: -f to "
                            "rewrite the marker", what);
    /* the output's lines end at the end marker */
    int first = marker_line;
    for (const char *p = old; *p; p++)
        first -= *p == '\n';
    return arena_printf(c->arena, "%s generated code differs from what "
                        "clinic writes from line %d on: -f to overwrite it, "
                        "or restore the generated code", what,
                        first + differs);
}

bool block_parser_next(BlockParser *bp, Block *out)
{
    for (;;) {
        if (bp->pos >= bp->len) {
            /* a start line is the file's last line: clinic.py drops it
               (and loses that line); we refuse */
            if (bp->dsl_name)
                clinic_fail(bp->c, bp->start_line, "block left open at end "
                            "of file: nothing follows its start line (clinic.py "
                            "would drop that line)");
            return false;
        }
        memset(out, 0, sizeof *out);
        if (bp->dsl_name) {
            parse_clinic_block(bp, out);
            bp->dsl_name = NULL;
            bp->first_block = false;
            return true;
        }
        parse_verbatim_block(bp, out);
        if (bp->first_block && out->input[0] == '\0')
            continue;
        bp->first_block = false;
        return true;
    }
}

/* ---- the file-level checks of parse_file ----------------------------- */

/* os.path.splitext's extension of filename, without its dot ("" for
   none): the last dot of the base name, not counting leading dots. */
static const char *extension_of(const char *filename)
{
    const char *base = strrchr(filename, '/');
    base = base ? base + 1 : filename;
    const char *dot = strrchr(base, '.');
    if (dot)
        for (const char *p = base; p < dot; p++)
            if (*p != '.')
                return dot + 1;
    return "";
}

bool block_language_ok(const char *filename)
{
    static const char *const extensions[] = {
        "c", "cc", "cpp", "cxx", "h", "hh", "hpp", "hxx",
    };
    const char *ext = extension_of(filename);
    for (size_t i = 0; i < sizeof extensions / sizeof *extensions; i++)
        if (strcmp(ext, extensions[i]) == 0)
            return true;
    return false;
}

const char *block_language_error(Arena *a, const char *filename)
{
    if (block_language_ok(filename))
        return NULL;
    PyValue v = {0};
    v.kind = PY_STR;
    v.s = filename;
    v.len = strlen(filename);
    return arena_printf(a, *extension_of(filename)
                               ? "Can't identify file type for file %s"
                               : "Can't extract file type for file %s",
                        py_repr(a, &v));
}

/* The regex, for the rare candidate whose name is not plain ASCII; from
   offset on. */
static bool start_marker_regex(const char *text, size_t len, size_t offset)
{
    int err;
    PCRE2_SIZE off;
    pcre2_compile_context *cctx = pcre2_compile_context_create(NULL);
    pcre2_set_newline(cctx, PCRE2_NEWLINE_LF);
    pcre2_code *re = pcre2_compile(
        (PCRE2_SPTR) "/\\*\\[(\\w+) input\\]", PCRE2_ZERO_TERMINATED,
        PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &err, &off, cctx);
    pcre2_compile_context_free(cctx);
    if (!re)
        return true;   /* cannot happen; process the file rather than skip */
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    int rc = pcre2_match(re, (PCRE2_SPTR)text, len, offset, 0, md, NULL);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return rc > 0;
}

/* The search for slash-star "[(\w+) input]" done by hand: most files have
   no "/" "*[" at all, and the names that follow one are ASCII; only a name
   running into a non-ASCII byte (a Unicode \w?) needs the regex. */
bool block_has_start_marker(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    const unsigned char *end = s + len, *p = s + (len < 2 ? len : 2);
    while (p < end && (p = memchr(p, '[', (size_t)(end - p))) != NULL) {
        const unsigned char *name = ++p;
        if (p[-2] != '*' || p[-3] != '/')
            continue;
        while (p < end && is_ascii_word(*p))
            p++;
        if (p < end && *p >= 0x80)
            return start_marker_regex(text, len, (size_t)(name - 3 - s));
        if (p > name && (size_t)(end - p) >= 7 && memcmp(p, " input]", 7) == 0)
            return true;
    }
    return false;
}
