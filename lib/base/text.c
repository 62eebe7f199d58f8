/*
 * text.c — the text helpers clinic.py's output format is built from; see
 * text.h.  Each mirrors a named helper of clinic.py (or of Python's str
 * and textwrap) closely enough that the reference's output, which
 * depends on their quirks, comes out byte for byte.
 */
#include "base/text.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>


#include "base/simd.h"
#include "base/strbuf.h"

/* ---- lists and maps -------------------------------------------------- */

void strlist_push(Arena *a, StrList *l, const char *s)
{
    if (l->len == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        const char **items = arena_array_uninit(a, const char *, cap);
        if (l->len)
            memcpy(items, l->items, l->len * sizeof *items);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->len++] = s;
}

const char *strlist_join(Arena *a, const StrList *l, const char *sep)
{
    if (l->len == 1)            /* the one item, which no one changes */
        return l->items[0];
    return strlist_join_around(a, l, "", "", sep);
}

const char *strlist_join_around(Arena *a, const StrList *l, const char *before,
                                const char *after, const char *sep)
{
    /* written once, at its size: the first items' lengths are kept from
       the count to the copy */
    enum { LENGTHS_KEPT = 32 };
    size_t lengths[LENGTHS_KEPT];
    if (l->len == 0)
        return "";
    size_t nb = strlen(before), na = strlen(after), ns = strlen(sep);
    size_t total = (l->len - 1) * ns;
    for (size_t i = 0; i < l->len; i++) {
        size_t n = strlen(l->items[i]);
        if (i < LENGTHS_KEPT)
            lengths[i] = n;
        total += nb + n + na;
    }
    char *out = arena_alloc_uninit(a, total + 1), *o = out;
    for (size_t i = 0; i < l->len; i++) {
        if (i) {
            memcpy(o, sep, ns);
            o += ns;
        }
        size_t n = i < LENGTHS_KEPT ? lengths[i] : strlen(l->items[i]);
        if (nb)   /* strlist_join has neither: its copy is the item's */
            memcpy(o, before, nb);
        memcpy(o + nb, l->items[i], n);
        if (na)
            memcpy(o + nb + n, after, na);
        o += nb + n + na;
    }
    *o = '\0';
    return out;
}

bool strlist_contains(const StrList *l, const char *s)
{
    for (size_t i = 0; i < l->len; i++)
        if (strcmp(l->items[i], s) == 0)
            return true;
    return false;
}

/* A cheap hash of an n-byte key: its length and three of its bytes,
   enough to tell nearly all of clinic's template keys apart (a collision
   only costs a string comparison).  Its low byte is the length's and the
   next the first byte's: text_block_fields reads them. */
static unsigned key_hash(const char *key, size_t n)
{
    if (n == 0)
        return 0;
    const unsigned char *k = (const unsigned char *)key;
    return (unsigned)n ^ ((unsigned)k[0] << 8) ^ ((unsigned)k[n / 2] << 16) ^
           ((unsigned)k[n - 1] << 24);
}

/* The position of the first key at or after from whose hash is h, or
   m->len.  With SSE2, four hashes at a time: the arrays' capacity is a
   multiple of four, so a group past len is still the map's (its hashes
   past len are masked off). */
static inline size_t next_with_hash(const StrMap *m, unsigned h, size_t from)
{
    size_t i = from;
#ifdef CLINIC_SSE2
    const __m128i want = _mm_set1_epi32((int)h);
    for (; i < m->len; i += 4) {
        __m128i got = _mm_loadu_si128((const __m128i *)(const void *)
                                      (m->hashes + i));
        unsigned mask = (unsigned)_mm_movemask_ps(
            _mm_castsi128_ps(_mm_cmpeq_epi32(got, want)));
        if (m->len - i < 4)
            mask &= (1u << (m->len - i)) - 1;
        if (mask)
            return i + (unsigned)clinic_lowest_bit(mask);
    }
    return m->len;
#else
    while (i < m->len && m->hashes[i] != h)
        i++;
    return i;
#endif
}

void strmap_reserve(Arena *a, StrMap *m, size_t cap)
{
    if (cap <= m->cap)
        return;
    cap = (cap + 3) & ~(size_t)3;   /* a multiple of 4, for next_with_hash */
    /* grown arrays: written before they are read */
    const char **keys = arena_array_uninit(a, const char *, cap);
    const char **values = arena_array_uninit(a, const char *, cap);
    unsigned *hashes = arena_array_uninit(a, unsigned, cap);
    if (m->len) {
        memcpy(keys, m->keys, m->len * sizeof *keys);
        memcpy(values, m->values, m->len * sizeof *values);
        memcpy(hashes, m->hashes, m->len * sizeof *hashes);
    }
    m->keys = keys;
    m->values = values;
    m->hashes = hashes;
    m->cap = cap;
}

void strmap_set(Arena *a, StrMap *m, const char *key, const char *value)
{
    unsigned h = key_hash(key, strlen(key));
    for (size_t i = next_with_hash(m, h, 0); i < m->len;
         i = next_with_hash(m, h, i + 1)) {
        if (strcmp(m->keys[i], key) == 0) {
            m->values[i] = value;
            return;
        }
    }
    if (m->len == m->cap)
        strmap_reserve(a, m, m->cap ? m->cap * 2 : 16);
    m->keys[m->len] = key;
    m->values[m->len] = value;
    m->hashes[m->len] = h;
    m->len++;
}

const char *strmap_get(const StrMap *m, const char *key)
{
    unsigned h = key_hash(key, strlen(key));
    for (size_t i = next_with_hash(m, h, 0); i < m->len;
         i = next_with_hash(m, h, i + 1))
        if (strcmp(m->keys[i], key) == 0)
            return m->values[i];
    return NULL;
}

/* key: n bytes without a NUL */
static const char *strmap_getn(const StrMap *m, const char *key, size_t n)
{
    unsigned h = key_hash(key, n);
    /* a key whose hash is h has a length of n mod 256 (key_hash's low
       byte): below 256, n bytes or more, which memcmp may read */
    bool short_key = n < 256;
    for (size_t i = next_with_hash(m, h, 0); i < m->len;
         i = next_with_hash(m, h, i + 1))
        if ((short_key ? memcmp(m->keys[i], key, n)
                       : strncmp(m->keys[i], key, n)) == 0 &&
            m->keys[i][n] == '\0')
            return m->values[i];
    return NULL;
}

/* ---- line-oriented helpers -------------------------------------------- */

/* Runs body for each '\n'-separated piece of s, as Python's s.split('\n')
   does: "a\n" gives "a" and "".  `continue` in body moves to the next
   line. */
#define FOR_EACH_LINE(s, line, len, body)                                   \
    for (const char *line = (s), *nl_ = strchr(line, '\n'); line;           \
         line = nl_ ? nl_ + 1 : NULL, nl_ = line ? strchr(line, '\n') : NULL) { \
        size_t len = nl_ ? (size_t)(nl_ - line) : strlen(line);             \
        body;                                                               \
    }

static size_t rstrip_len(const char *s, size_t n)
{
    while (n > 0 && text_is_py_space(s[n - 1]))
        n--;
    return n;
}

static bool is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!text_is_py_space(s[i]))
            return false;
    return true;
}

char *text_rstrip_lines(Arena *a, const char *s)
{
    StrBuf sb = STRBUF_INIT;
    bool first = true;
    FOR_EACH_LINE(s, line, len, {
        if (!first)
            sb_addc(&sb, '\n');
        first = false;
        sb_add(&sb, line, rstrip_len(line, len));
    });
    return sb_take(&sb, a);
}

/* textwrap.indent(s, prefix): prefix every line that is not blank. */
static void add_indented(StrBuf *sb, const char *s, const char *prefix)
{
    bool first = true;
    FOR_EACH_LINE(s, line, len, {
        if (!first)
            sb_addc(sb, '\n');
        first = false;
        if (!is_blank(line, len))
            sb_adds(sb, prefix);
        sb_add(sb, line, len);
    });
}

/* The field linear_format would substitute on one line, or NULL. */
static const char *linear_field(const char *line, size_t len, const StrMap *map)
{
    const char *curly = memchr(line, '{', len);
    const char *close = curly ? memchr(curly, '}', len - (size_t)(curly - line)) : NULL;
    return close ? strmap_getn(map, curly + 1, (size_t)(close - curly - 1)) : NULL;
}

/* linear_format, which clinic.py writes as: every line, with "\n" after
   it, or for a line naming a field its value indented (nothing at all
   for an empty value), and the last "\n" dropped.  Only lines holding a
   '{' can name a field, so the template is searched for those, and the
   lines in between are copied in one piece.  NULL when no line names a
   field and a copy is not wanted. */
/* The templates are long and full of C's braces (doubled for
   format_map); for a map of one plain key (parser_body's, the exit
   label's) the lines that may name it are found by looking for "{key}"
   itself: a line names a field when its first '{' opens one.  (For more
   keys, one search per key costs more than the scan for '{'.) */
#define FINDER_KEY_MAX 40

typedef struct FieldFinder {
    char pattern[FINDER_KEY_MAX + 3];   /* "{key}" */
    const char *next;                   /* NULL: no more */
} FieldFinder;

static bool finder_init(FieldFinder *ff, const char *t, const StrMap *map)
{
    if (map->len != 1)
        return false;
    const char *key = map->keys[0];
    size_t n = strlen(key);
    if (n == 0 || n > FINDER_KEY_MAX || key[strcspn(key, "{}\n")])
        return false;
    ff->pattern[0] = '{';
    memcpy(ff->pattern + 1, key, n);
    memcpy(ff->pattern + 1 + n, "}", 2);
    ff->next = strstr(t, ff->pattern);
    return true;
}

/* The first "{key}" at or after from, or NULL. */
static const char *finder_next(FieldFinder *ff, const char *from)
{
    if (ff->next && ff->next < from)
        ff->next = strstr(from, ff->pattern);
    return ff->next;
}

static char *linear_format(Arena *a, const char *t, const StrMap *map,
                           bool copy)
{
    StrBuf sb = STRBUF_INIT;
    const char *p = t;        /* the lines from here on are not out yet */
    const char *from = t;     /* where the next '{' is looked for (always
                                 at the start of a line) */
    bool rest = true;         /* a line starts at p (a last "" counts) */
    bool any = false;
    FieldFinder ff;
    bool by_key = finder_init(&ff, t, map);
    /* the first bytes of the keys (mod 64): most braces in a template
       open C's blocks ("{{") or format_map's fields, which no key starts
       like */
    unsigned long long starts = 0;
    for (size_t i = 0; i < map->len; i++)
        starts |= 1ULL << (map->keys[i][0] & 63);
    const char *curly;
    while ((curly = by_key ? finder_next(&ff, from) : strchr(from, '{'))) {
        if (!(starts >> (curly[1] & 63) & 1)) {
            const char *nl = strchr(curly, '\n');
            if (!nl)
                break;
            from = nl + 1;
            continue;
        }
        const char *line = curly;
        while (line > from && line[-1] != '\n')
            line--;
        const char *nl = strchr(curly, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        /* by key: when a '{' comes before it on the line, that one opens
           no field of the map, so the line names none */
        const char *value = by_key && memchr(line, '{', (size_t)(curly - line))
                                ? NULL : linear_field(line, len, map);
        if (!value) {
            if (!nl)
                break;
            from = nl + 1;
            continue;
        }
        if (!any) {
            any = true;
            sb_grow(&sb, strlen(t) + strlen(value) + 64);
        }
        sb_add(&sb, p, (size_t)(line - p));
        if (*value) {
            /* The marker stands alone on its line (clinic.py fails
               otherwise; our templates always comply). */
            char *indent = arena_strndup(a, line, (size_t)(curly - line));
            add_indented(&sb, text_rstrip_lines(a, value), indent);
            sb_addc(&sb, '\n');
        }
        if (!nl) {
            rest = false;
            break;
        }
        p = from = nl + 1;
    }
    if (!any && !copy)
        return NULL;
    if (rest) {
        sb_adds(&sb, p);
        sb_addc(&sb, '\n');
    }
    sb_setlen(&sb, sb.len ? sb.len - 1 : 0);
    return sb_take(&sb, a);
}

char *text_linear_format(Arena *a, const char *t, const StrMap *map)
{
    return linear_format(a, t, map, true);
}

const char *text_linear_format_if_any(Arena *a, const char *t,
                                      const StrMap *map)
{
    const char *s = linear_format(a, t, map, false);
    return s ? s : t;
}

/* ---- str.format_map ---------------------------------------------------- */

/* Copies s[p..end) to *out up to the first brace and returns where that
   is (end when there is none).  Up to 15 bytes past what it copies may
   be written at *out: the caller leaves room for them.  The templates
   are long runs of C between braces, so the bytes are looked at 16 at a
   time with SSE2 where the compiler has it (all of x86-64). */
static inline const char *copy_to_brace(char **out, const char *p,
                                        const char *end)
{
    char *o = *out;
#ifdef CLINIC_SSE2
    const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
    while (end - p >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        _mm_storeu_si128((__m128i *)(void *)o, x);
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(x, open), _mm_cmpeq_epi8(x, close)));
        if (mask) {
            unsigned k = (unsigned)clinic_lowest_bit(mask);
            *out = o + k;
            return p + k;
        }
        p += 16;
        o += 16;
    }
#endif
    while (p < end && *p != '{' && *p != '}')
        *o++ = *p++;
    *out = o;
    return p;
}

/* The first brace in s[p..end), or end: copy_to_brace without the
   copy. */
static const char *find_brace(const char *p, const char *end)
{
#ifdef CLINIC_SSE2
    const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
    while (end - p >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(x, open), _mm_cmpeq_epi8(x, close)));
        if (mask)
            return p + clinic_lowest_bit(mask);
        p += 16;
    }
#endif
    while (p < end && *p != '{' && *p != '}')
        p++;
    return p;
}

/* Room in sb for n more bytes and copy_to_brace's overshoot. */
static inline char *room_for(StrBuf *sb, size_t n)
{
    if (sb->cap - sb->len <= n + 16)
        sb_grow(sb, n + 16);
    return sb->buf + sb->len;
}

/* The first of the bytes x, y, z in [p, end), or end: looked for 16
   bytes at a time with SSE2 where the compiler has it (field names and
   docstrings are long, the bytes looked for few). */
static inline const char *find_any_of3(const char *p, const char *end, char x,
                                       char y, char z)
{
#ifdef CLINIC_SSE2
    const __m128i vx = _mm_set1_epi8(x), vy = _mm_set1_epi8(y),
                  vz = _mm_set1_epi8(z);
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_or_si128(
            _mm_cmpeq_epi8(v, vx),
            _mm_or_si128(_mm_cmpeq_epi8(v, vy), _mm_cmpeq_epi8(v, vz))));
        if (mask)
            return p + clinic_lowest_bit(mask);
        p += 16;
    }
#endif
    while (p < end && *p != x && *p != y && *p != z)
        p++;
    return p;
}

/* Where the name of the field that starts at p ends: its '}', or the
   '!' or ':' of a conversion or format spec, or end. */
static const char *field_name_end(const char *p, const char *end)
{
    return find_any_of3(p, end, '}', '!', ':');
}

/* The end of the field whose name starts at p (its '}'), or NULL when
   the field is not a plain "{name}" closed before end. */
static const char *field_end(const char *p, const char *end)
{
    p = field_name_end(p, end);
    return p < end && *p == '}' ? p : NULL;
}

/* Appends value and makes room for n more bytes and copy_to_brace's
   overshoot after it; where the next byte goes. */
static char *add_value(StrBuf *sb, const char *value, size_t n)
{
    size_t vlen = strlen(value);
    sb_grow(sb, vlen + n + 16);
    memcpy(sb->buf + sb->len, value, vlen);
    sb->len += vlen;
    return sb->buf + sb->len;
}

char *text_format_map(Arena *a, const char *t, const StrMap *map,
                      const char **missing)
{
    size_t n = strlen(t);
    const char *p = t, *end = t + n;
    StrBuf sb = STRBUF_INIT;
    if (missing)
        *missing = NULL;
    char *o = room_for(&sb, n + n / 2);   /* the values grow it little */
    for (;;) {
        p = copy_to_brace(&o, p, end);
        sb.len = (size_t)(o - sb.buf);
        if (p == end)
            break;
        if (p + 1 < end && p[1] == *p) {        /* "{{" or "}}" */
            *o++ = *p;
            p += 2;
            continue;
        }
        if (*p == '}')                          /* a single '}' */
            goto fail;
        /* A conversion or format spec ("!r", ":>4") is not used by
           clinic's templates; the name ends before it. */
        const char *name_end = field_name_end(p + 1, end);
        const char *close = name_end < end && *name_end == '}' ? name_end
                            : name_end < end
                                ? memchr(name_end, '}', (size_t)(end - name_end))
                                : NULL;
        if (!close)
            goto fail;
        size_t klen = (size_t)(name_end - (p + 1));
        const char *value = strmap_getn(map, p + 1, klen);
        if (!value) {
            if (missing)
                *missing = arena_strndup(a, p + 1, klen);
            goto fail;
        }
        p = close + 1;
        o = add_value(&sb, value, (size_t)(end - p));
    }
    sb.buf[sb.len] = '\0';
    return sb_take(&sb, a);
fail:
    if (missing && !*missing)
        *missing = "";
    sb_free(&sb);
    return NULL;
}

/* ---- render_function's passes in one ------------------------------------ */

/* The value of a field and its length as a TextFieldLookup gives
   them; NULL when there is none. */
static inline const char *look_up(TextFieldLookup *lookup, const void *fields,
                                  const char *key, size_t n, size_t *len,
                                  TextFieldKind *block)
{
    return lookup(fields, key, n, len, block);
}

/* Appends value[0..vlen) and makes room for n more bytes and
   copy_to_brace's overshoot after it; where the next byte goes. */
static char *add_value_n(StrBuf *sb, const char *value, size_t vlen, size_t n)
{
    if (sb->cap - sb->len <= vlen + n + 16)
        sb_grow(sb, vlen + n + 16);
    memcpy(sb->buf + sb->len, value, vlen);
    sb->len += vlen;
    return sb->buf + sb->len;
}

/* format_map of s[0..n) appended to sb, as a piece of a longer text:
   false when a field is not a plain one closed within the piece, names
   no field, or a '}' stands alone (the whole text, formatted at once,
   fails or reads across the piece's end then). */
static bool format_piece(StrBuf *sb, const char *s, size_t n,
                         TextFieldLookup *lookup, const void *fields)
{
    const char *p = s, *end = s + n;
    char *o = room_for(sb, n);
    for (;;) {
        p = copy_to_brace(&o, p, end);
        sb->len = (size_t)(o - sb->buf);
        if (p == end)
            return true;
        if (p + 1 < end && p[1] == *p) {        /* "{{" or "}}" */
            *o++ = *p;
            p += 2;
            continue;
        }
        const char *close = *p == '{' ? field_end(p + 1, end) : NULL;
        size_t vlen = 0;
        const char *value = close ? look_up(lookup, fields, p + 1,
                                            (size_t)(close - p - 1), &vlen,
                                            NULL)
                                  : NULL;
        if (!value)
            return false;
        p = close + 1;
        o = add_value_n(sb, value, vlen, (size_t)(end - p));
    }
}

/* The lines of a block field's value as linear_format puts them in for
   a marker indented by indent[0..ilen): trailing blanks stripped, each
   line but a blank one indented, each ending with "\n"; formatted
   unless they are already. */
static bool add_block_value(StrBuf *sb, const char *value, size_t vlen,
                            bool formatted, const char *indent, size_t ilen,
                            TextFieldLookup *lookup, const void *fields)
{
    const char *vend = value + vlen;
    for (const char *line = value;;) {
        const char *nl = memchr(line, '\n', (size_t)(vend - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(vend - line);
        len = rstrip_len(line, len);
        if (len) {
            sb_add(sb, indent, ilen);
            if (formatted)
                sb_add(sb, line, len);
            else if (!format_piece(sb, line, len, lookup, fields))
                return false;
        }
        sb_addc(sb, '\n');
        if (!nl)
            return true;
        line = nl + 1;
    }
}

#define EXIT_LINES_MAX 4

TextBlockFields text_block_fields(const StrMap *map)
{
    /* key_hash has a key's length and first byte in its first two
       bytes */
    TextBlockFields f = {map, 0, 0};
    for (size_t i = 0; i < map->len; i++) {
        f.firsts |= 1ULL << (map->hashes[i] >> 8 & 63);
        f.lengths |= 1ULL << (map->hashes[i] & 63);
    }
    return f;
}

static bool may_be_block(const TextBlockFields *f, const char *key, size_t n)
{
    return n && (f->firsts >> (key[0] & 63) & 1) &&
           (f->lengths >> (n & 63) & 1);
}

bool text_render_fields_into(StrBuf *sb, const char *t, size_t n,
                             TextFieldLookup *lookup, const void *fields,
                             bool exit_labels)
{
    const char *p = t, *end = t + n;
    /* where the "exit:" lines went out, to be taken back when nothing
       jumps to them (known only at the end) */
    size_t exit_at[EXIT_LINES_MAX], nexits = 0;
    bool value_jumps = false;   /* an inserted value has "goto exit;" */
    bool drop_last = false;     /* the last line was a marker's */
    char *o = room_for(sb, n + n / 2);
    for (;;) {
        p = copy_to_brace(&o, p, end);
        sb->len = (size_t)(o - sb->buf);
        if (p == end)
            break;
        if (p + 1 < end && p[1] == *p) {        /* "{{" or "}}" */
            *o++ = *p;
            p += 2;
            continue;
        }
        const char *close = *p == '{' ? field_end(p + 1, end) : NULL;
        if (!close)
            goto one_by_one;
        const char *key = p + 1;
        size_t klen = (size_t)(close - key), vlen = 0;
        TextFieldKind kind = TEXT_FIELD_PLAIN;
        const char *value = look_up(lookup, fields, key, klen, &vlen, &kind);
        const char *block = kind != TEXT_FIELD_PLAIN ? value : NULL;
        bool exit_label = !block && klen == 10 &&
                          memcmp(key, "exit_label", 10) == 0;
        if (!block && !exit_label) {
            if (!value)
                goto one_by_one;
            p = close + 1;
            o = add_value_n(sb, value, vlen, (size_t)(end - p));
            continue;
        }
        /* A marker linear_format replaces: it must stand alone on its
           line, after blanks only, which went out as they are. */
        const char *indent = p;
        while (indent > t && (indent[-1] == ' ' || indent[-1] == '\t'))
            indent--;
        if ((indent > t && indent[-1] != '\n') ||
            (close + 1 < end && close[1] != '\n'))
            goto one_by_one;
        size_t ilen = (size_t)(p - indent);
        sb->len -= ilen;
        if (block && *block) {
            /* the exit label pass would read the value's lines too */
            if (strstr(block, "{exit_label}"))
                goto one_by_one;
            value_jumps = value_jumps || strstr(block, "goto exit;");
            if (!add_block_value(sb, block, vlen,
                                 kind == TEXT_FIELD_BLOCK_FORMATTED, indent,
                                 ilen, lookup, fields))
                goto one_by_one;
        } else if (exit_label) {
            if (!exit_labels || nexits == EXIT_LINES_MAX)
                goto one_by_one;
            exit_at[nexits++] = sb->len;
            sb_add(sb, indent, ilen);
            sb_add(sb, "exit:\n", 6);
        }
        if (close + 1 == end) {
            drop_last = true;
            break;
        }
        p = close + 2;
        o = room_for(sb, (size_t)(end - p));
    }
    /* Only generate the "exit:" label if something jumps to it. */
    if (nexits && !value_jumps && !strstr(t, "goto exit;")) {
        size_t to = exit_at[0];
        for (size_t i = 0; i < nexits; i++) {
            size_t from = exit_at[i], line_end = from;
            while (sb->buf[line_end] != '\n')
                line_end++;
            size_t upto = i + 1 < nexits ? exit_at[i + 1] : sb->len;
            memmove(sb->buf + to, sb->buf + line_end + 1, upto - line_end - 1);
            to += upto - line_end - 1;
        }
        sb->len = to;
    }
    if (drop_last && sb->len)
        sb->len--;
    sb->buf[sb->len] = '\0';
    return true;
one_by_one:
    return false;
}


const char *text_render_fields(Arena *a, const char *t, size_t n,
                               TextFieldLookup *lookup, const void *fields,
                               size_t *len)
{
    /* Many templates have no field at all: they are their text. */
    if (find_brace(t, t + n) == t + n) {
        *len = n;
        return t;
    }
    StrBuf sb = STRBUF_INIT;
    if (!text_render_fields_into(&sb, t, n, lookup, fields, true)) {
        sb_free(&sb);
        return NULL;
    }
    *len = sb.len;
    return sb_take(&sb, a);
}

bool text_add_block_value(StrBuf *sb, const char *value, size_t vlen,
                          bool formatted, const char *indent, size_t ilen,
                          TextFieldLookup *lookup, const void *fields)
{
    return add_block_value(sb, value, vlen, formatted, indent, ilen, lookup,
                           fields);
}

/* text_render_template's fields: the block fields', then the map's. */
typedef struct MapFields {
    const TextBlockFields *blocks;
    const StrMap *map;
} MapFields;

static const char *map_field(const void *fields, const char *key, size_t n,
                             size_t *len, TextFieldKind *kind)
{
    const MapFields *mf = fields;
    const char *value = NULL;
    if (kind) {
        *kind = may_be_block(mf->blocks, key, n) &&
                        (value = strmap_getn(mf->blocks->map, key, n))
                    ? TEXT_FIELD_BLOCK : TEXT_FIELD_PLAIN;
    }
    if (!value)
        value = strmap_getn(mf->map, key, n);
    if (value)
        *len = strlen(value);
    return value;
}

const char *text_render_template(Arena *a, const char *t,
                                 const TextBlockFields *blocks,
                                 const StrMap *map)
{
    MapFields mf = {blocks, map};
    size_t len;
    return text_render_fields(a, t, strlen(t), map_field, &mf, &len);
}

/* ---- dedenting, indenting, wrapping ----------------------------------- */

/* textwrap.dedent's margin: the longest common leading run of blanks and
   tabs of the lines of [s, end) that hold something else. */
static size_t dedent_margin(const char *s, const char *end)
{
    const char *margin = NULL;
    size_t mlen = 0;
    for (const char *line = s; line <= end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
        size_t i = 0;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i < len) {
            if (!margin) {
                margin = line;
                mlen = i;
            } else {
                size_t k = 0;
                while (k < mlen && k < i && margin[k] == line[k])
                    k++;
                mlen = k;
            }
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    return mlen;
}

char *text_dedent(Arena *a, const char *s)
{
    size_t mlen = dedent_margin(s, s + strlen(s));
    /* whitespace-only lines become empty; others lose the margin */
    StrBuf sb = STRBUF_INIT;
    bool first = true;
    FOR_EACH_LINE(s, line, len, {
        if (!first)
            sb_addc(&sb, '\n');
        first = false;
        size_t i = 0;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i == len)
            continue;
        sb_add(&sb, line + mlen, len - mlen);
    });
    return sb_take(&sb, a);
}

char *text_normalize_snippet(Arena *a, const char *s, int indent)
{
    /* strip_leading_and_trailing_blank_lines */
    size_t n = rstrip_len(s, strlen(s));
    const char *start = s;
    for (;;) {
        const char *nl = memchr(start, '\n', (size_t)(s + n - start));
        if (!nl)
            break;
        if (!is_blank(start, (size_t)(nl - start)))
            break;
        start = nl + 1;
    }
    if (start > s + n)
        start = s + n;
    if (is_blank(start, (size_t)(s + n - start)))
        start = s + n;
    const char *end = s + n;
    if (indent > 63)
        indent = 63;

    /* textwrap.dedent then textwrap.indent, in one pass over the lines
       once the margin is known: a line of blanks and tabs only becomes
       empty, the others lose the margin; then each line that is not
       blank (in Python's wider sense) gets the indentation. */
    size_t mlen = dedent_margin(start, end);
    StrBuf sb = STRBUF_INIT;
    sb_grow(&sb, (size_t)(end - start) + (size_t)(end - start) / 4 + 16);
    for (const char *line = start; line <= end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
        size_t i = 0;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i < len) {
            const char *kept = line + mlen;
            size_t klen = len - mlen;
            if (!is_blank(kept, klen))
                for (int k = 0; k < indent; k++)
                    sb_addc(&sb, ' ');
            sb_add(&sb, kept, klen);
        }
        if (!nl)
            break;
        sb_addc(&sb, '\n');
        line = nl + 1;
    }
    return sb_take(&sb, a);
}

char *text_indent_all_lines(Arena *a, const char *s, const char *prefix)
{
    StrBuf sb = STRBUF_INIT;
    FOR_EACH_LINE(s, line, len, {
        if (line[len] == '\n') {
            sb_adds(&sb, prefix);
            sb_add(&sb, line, len);
            sb_addc(&sb, '\n');
        } else if (len) {
            sb_adds(&sb, prefix);
            sb_add(&sb, line, len);
        }
    });
    return sb_take(&sb, a);
}

char *text_suffix_all_lines(Arena *a, const char *s, const char *suffix)
{
    StrBuf sb = STRBUF_INIT;
    FOR_EACH_LINE(s, line, len, {
        if (line[len] == '\n') {
            sb_add(&sb, line, len);
            sb_adds(&sb, suffix);
            sb_addc(&sb, '\n');
        } else if (len) {
            sb_add(&sb, line, len);
            sb_adds(&sb, suffix);
        }
    });
    return sb_take(&sb, a);
}

char *text_format_escape(Arena *a, const char *s)
{
    return text_format_escape_n(a, s, strlen(s));
}

char *text_format_escape_n(Arena *a, const char *s, size_t n)
{
    /* the braces counted first, so the text is written once, at its
       size, the runs between them copied whole */
    size_t braces = 0;
    for (const char *p = s, *end = s + n; p < end; p++)
        braces += *p == '{' || *p == '}';
    char *out = arena_alloc_uninit(a, n + braces + 16 + 1), *o = out;
    for (const char *p = s, *end = s + n;;) {
        p = copy_to_brace(&o, p, end);
        if (p == end)
            break;
        *o++ = *p;
        *o++ = *p++;
    }
    *o = '\0';
    return out;
}

/* Python's str.strip() of one piece, as a new arena string. */
static char *strip_piece(Arena *a, const char *s, size_t n)
{
    while (n > 0 && text_is_py_space(*s)) {
        s++;
        n--;
    }
    return arena_strndup(a, s, rstrip_len(s, n));
}

/* s[0..n).strip() + ", ", written at its size */
static char *strip_piece_comma(Arena *a, const char *s, size_t n)
{
    while (n > 0 && text_is_py_space(*s)) {
        s++;
        n--;
    }
    n = rstrip_len(s, n);
    char *out = arena_alloc_uninit(a, n + 3);
    memcpy(out, s, n);
    memcpy(out + n, ", ", 3);
    return out;
}

/* Whether wrap_declarations gives a line back as it is: one without
   parameters ("(", ")" and a ',' between) does, and so does one whose
   parameters are written as it writes them (stripped, ", " between),
   that fits on one line once they are rejoined and ends with no blank:
   most impl declarations are short. */
static bool wrap_keeps_line(const char *line, size_t len, int length)
{
    const char *lp = memchr(line, '(', len);
    const char *after_l = lp ? lp + 1 : NULL;
    size_t after_l_len = lp ? len - (size_t)(after_l - line) : 0;
    const char *rp = after_l_len ? memchr(after_l, ')', after_l_len) : NULL;
    const char *comma = rp ? memchr(after_l, ',', (size_t)(rp - after_l)) : NULL;
    if (!after_l_len || !rp || !comma)
        return true;
    /* rejoined: the prefix, each parameter and ", ", so the line up to
       its ')' and 2 */
    if ((rp - line) + 2 > length || rstrip_len(line, len) != len)
        return false;
    if (text_is_py_space(after_l[0]) || text_is_py_space(rp[-1]))
        return false;
    for (const char *c = comma; c;
         c = memchr(c + 1, ',', (size_t)(rp - c - 1))) {
        if (c == after_l || text_is_py_space(c[-1]) || rp - c < 3 ||
            c[1] != ' ' || text_is_py_space(c[2]))
            return false;
    }
    return true;
}

const char *text_wrap_declarations(Arena *a, const char *text, int length)
{
    bool keeps = true;
    FOR_EACH_LINE(text, line, len, {
        if (!wrap_keeps_line(line, len, length)) {
            keeps = false;
            break;
        }
    });
    if (keeps)                  /* text itself, which no one changes */
        return text;

    StrBuf out = STRBUF_INIT;
    StrBuf l = STRBUF_INIT;     /* one line of the output, reused */
    bool first_line = true;
    FOR_EACH_LINE(text, line, len, {
        if (!first_line)
            sb_addc(&out, '\n');
        first_line = false;
        const char *lp = memchr(line, '(', len);
        const char *after_l = lp ? lp + 1 : NULL;
        size_t after_l_len = lp ? len - (size_t)(after_l - line) : 0;
        const char *rp = after_l_len ? memchr(after_l, ')', after_l_len) : NULL;
        const char *comma = rp ? memchr(after_l, ',', (size_t)(rp - after_l)) : NULL;
        if (!after_l_len || !rp || !comma) {
            sb_add(&out, line, len);
            continue;
        }
        /* parameters = [x.strip() + ", " for x in parameters.split(',')],
           each with its length */
        size_t nparams = 1;
        for (const char *c = comma; c;
             c = memchr(c + 1, ',', (size_t)(rp - c - 1)))
            nparams++;
        const char **params = arena_array_uninit(a, const char *, nparams);
        size_t *plens = arena_array_uninit(a, size_t, nparams);
        const char *p = after_l;
        for (size_t k = 0;; k++) {
            const char *c = memchr(p, ',', (size_t)(rp - p));
            const char *end = c ? c : rp;
            params[k] = strip_piece_comma(a, p, (size_t)(end - p));
            plens[k] = strlen(params[k]);
            if (!c)
                break;
            p = c + 1;
        }
        const char *after_r = rp + 1;
        size_t after_r_len = len - (size_t)(after_r - line);
        /* the first line's prefix is the line up to its '(', the next
           ones' as many spaces (or four, for a long prefix) */
        const char *prefix = line;
        size_t prefix_len = (size_t)(lp - line) + 1;
        const char *spaces;
        size_t spaces_len;
        if ((int)prefix_len < length) {
            char *s = arena_alloc(a, prefix_len + 1);
            memset(s, ' ', prefix_len);
            spaces = s;
            spaces_len = prefix_len;
        } else {
            spaces = "    ";
            spaces_len = 4;
        }
        size_t next = 0;
        bool first_out = true;
        while (next < nparams) {
            sb_reset(&l);
            sb_add(&l, prefix, prefix_len);
            bool first = true;
            while (next < nparams) {
                if (!first && (int)(l.len + plens[next]) > length)
                    break;
                sb_add(&l, params[next], plens[next]);
                next++;
                first = false;
            }
            if (next == nparams) {
                /* line.rstrip(", ") + ")" + after_r_paren */
                size_t n = l.len;
                while (n > 0 && (l.buf[n - 1] == ',' || l.buf[n - 1] == ' '))
                    n--;
                sb_setlen(&l, n);
                sb_addc(&l, ')');
                sb_add(&l, after_r, after_r_len);
            }
            if (!first_out)
                sb_addc(&out, '\n');
            first_out = false;
            sb_add(&out, l.buf, rstrip_len(l.buf, l.len));
            prefix = spaces;
            prefix_len = spaces_len;
        }
    });
    sb_free(&l);
    return sb_take(&out, a);
}

/* ---- quoting and identifiers ------------------------------------------ */

/* The first backslash or quote in s[0..end), or end. */
static const char *find_quotable(const char *s, const char *end)
{
    return find_any_of3(s, end, '\\', '"', '\'');
}

char *text_put_quoted_for_c_string(char *out, const char *s, size_t n)
{
    const char *end = s + n;
    while (s < end) {
        const char *q = find_quotable(s, end);  /* copied as they are */
        memcpy(out, s, (size_t)(q - s));
        out += q - s;
        if (q == end)
            break;
        *out++ = '\\';
        *out++ = *q;
        s = q + 1;
    }
    return out;
}

static void add_quoted_for_c_string(StrBuf *sb, const char *s, size_t n)
{
    sb_grow(sb, 2 * n);
    sb->len = (size_t)(text_put_quoted_for_c_string(sb->buf + sb->len, s, n) -
                       sb->buf);
    sb->buf[sb->len] = '\0';
}

bool text_is_ascii(const char *s, size_t n)
{
    size_t i = 0;
#ifdef CLINIC_SSE2
    for (; i + 16 <= n; i += 16)
        if (_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)
                                              (s + i))))
            return false;
#endif
    for (; i < n; i++)
        if ((unsigned char)s[i] > 0x7F)
            return false;
    return true;
}

char *text_quoted_for_c_string(Arena *a, const char *s)
{
    StrBuf sb = STRBUF_INIT;
    add_quoted_for_c_string(&sb, s, strlen(s));
    return sb_take(&sb, a);
}

char *text_c_repr(Arena *a, const char *s)
{
    return arena_printf(a, "\"%s\"", s);
}

const char *const text_c_keywords[] = {
    "asm", "auto", "break", "case", "char", "const", "continue", "default",
    "do", "double", "else", "enum", "extern", "float", "for", "goto", "if",
    "inline", "int", "long", "register", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "typeof", "union",
    "unsigned", "void", "volatile", "while", NULL,
};

/* text_c_keywords' word of n bytes s is, if any: asked of every name
   rendered, so the length picks the few it can be, each compared as
   the word it is (no call). */
static bool is_c_keyword_n(const char *s, size_t n)
{
#define IS(k) (memcmp(s, k, sizeof k - 1) == 0)
    switch (n) {
    case 2:
        return IS("do") ||
               IS("if");
    case 3:
        return IS("asm") ||
               IS("for") ||
               IS("int");
    case 4:
        return IS("auto") ||
               IS("case") ||
               IS("char") ||
               IS("else") ||
               IS("enum") ||
               IS("goto") ||
               IS("long") ||
               IS("void");
    case 5:
        return IS("break") ||
               IS("const") ||
               IS("float") ||
               IS("short") ||
               IS("union") ||
               IS("while");
    case 6:
        return IS("double") ||
               IS("extern") ||
               IS("inline") ||
               IS("return") ||
               IS("signed") ||
               IS("sizeof") ||
               IS("static") ||
               IS("struct") ||
               IS("switch") ||
               IS("typeof");
    case 7:
        return IS("default") ||
               IS("typedef");
    case 8:
        return IS("continue") ||
               IS("register") ||
               IS("unsigned") ||
               IS("volatile");
    default:
        return false;
    }
#undef IS
}

bool text_is_c_keyword(const char *s)
{
    return is_c_keyword_n(s, strlen(s));
}

static bool is_ident_start(char ch)
{
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
}

static bool is_ident_char(char ch)
{
    return is_ident_start(ch) || (ch >= '0' && ch <= '9');
}

static bool is_legal_c_identifier_n(const char *s, size_t n)
{
    if (n == 0 || !is_ident_start(s[0]))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!is_ident_char(s[i]))
            return false;
    return true;
}

/* Returns NULL when s is not a legal C identifier; the caller reports
   "Illegal C identifier: {}" through clinic_fail. */
const char *text_legal_c_identifier(Arena *a, const char *s)
{
    size_t n = strlen(s);
    if (!is_legal_c_identifier_n(s, n))
        return NULL;
    if (is_c_keyword_n(s, n))
        return arena_printf(a, "%s_value", s);
    return s;
}

bool text_is_legal_py_identifier(const char *s)
{
    /* clinic.py: all(is_legal_c_identifier(f) for f in s.split('.')) */
    for (;;) {
        const char *dot = strchr(s, '.');
        size_t n = dot ? (size_t)(dot - s) : strlen(s);
        if (!is_legal_c_identifier_n(s, n))
            return false;
        if (!dot)
            return true;
        s = dot + 1;
    }
}

/* ---- shlex --------------------------------------------------------------- */

static bool is_shlex_space(char ch)
{
    return ch && strchr(TEXT_SHLEX_SPACE, ch);
}

int text_shlex_split(Arena *a, const char *s, const char ***out,
                     const char **error)
{
    size_t n = 0, cap = 4;
    const char **words = arena_array_of(a, const char *, cap);
    StrBuf tok = STRBUF_INIT;
    *error = NULL;
    for (;;) {
        while (is_shlex_space(*s))
            s++;
        if (!*s)
            break;
        sb_reset(&tok);
        while (*s && !is_shlex_space(*s)) {
            if (*s == '"' || *s == '\'') {
                char quote = *s++;
                while (*s != quote) {
                    if (!*s) {
                        *error = "No closing quotation";
                        goto fail;
                    }
                    /* in double quotes, a backslash escapes only a quote
                       or a backslash and is kept before anything else */
                    if (*s == '\\' && quote == '"') {
                        if (!s[1]) {
                            *error = "No escaped character";
                            goto fail;
                        }
                        if (s[1] != '"' && s[1] != '\\')
                            sb_addc(&tok, '\\');
                        s++;
                    }
                    sb_addc(&tok, *s++);
                }
                s++;
            } else if (*s == '\\') {
                if (!s[1]) {
                    *error = "No escaped character";
                    goto fail;
                }
                sb_addc(&tok, s[1]);
                s += 2;
            } else {   /* a run of plain characters, at once */
                size_t run = strcspn(s, " \t\r\n\\'\"");
                sb_add(&tok, s, run);
                s += run;
            }
        }
        if (n == cap) {
            const char **grown = arena_array_of(a, const char *, cap * 2);
            memcpy(grown, words, cap * sizeof *words);
            words = grown;
            cap *= 2;
        }
        words[n++] = arena_strndup(a, tok.buf, tok.len);
    }
    sb_free(&tok);
    *out = words;
    return (int)n;
fail:
    sb_free(&tok);
    return -1;
}

/* ---- Python str methods ------------------------------------------------ */

char *text_strip(Arena *a, const char *s)
{
    return strip_piece(a, s, strlen(s));
}

/* Python/suggestions.c: moving (inserting, deleting, replacing) costs
   2 (TEXT_EDIT_MOVE), changing only the case of a letter 1. */
#define MOVE_COST TEXT_EDIT_MOVE
#define CASE_COST 1

static size_t substitution_cost(char a, char b)
{
    if (a == b)
        return 0;
    if (tolower((unsigned char)a) == tolower((unsigned char)b))
        return CASE_COST;
    return MOVE_COST;
}

size_t text_edit_distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    size_t *rows = xmalloc(3 * (nb + 1) * sizeof *rows);
    size_t *before = rows, *prev = rows + nb + 1, *row = rows + 2 * (nb + 1);
    for (size_t j = 0; j <= nb; j++)
        prev[j] = j * MOVE_COST;
    for (size_t i = 1; i <= na; i++) {
        row[0] = i * MOVE_COST;
        for (size_t j = 1; j <= nb; j++) {
            size_t best = prev[j - 1] + substitution_cost(a[i - 1], b[j - 1]);
            if (prev[j] + MOVE_COST < best)
                best = prev[j] + MOVE_COST;
            if (row[j - 1] + MOVE_COST < best)
                best = row[j - 1] + MOVE_COST;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                before[j - 2] + MOVE_COST < best)
                best = before[j - 2] + MOVE_COST;
            row[j] = best;
        }
        size_t *t = before;
        before = prev;
        prev = row;
        row = t;
    }
    size_t d = prev[nb];
    free(rows);
    return d;
}

const char *text_closest(const char *word, const char *const *candidates,
                         size_t n)
{
    const char *best = NULL;
    size_t best_cost = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(candidates[i], word))
            continue;
        /* Python's limit: (len(a) + len(b) + 3) * MOVE_COST / 6 */
        size_t limit = (strlen(word) + strlen(candidates[i]) + 3) *
                       MOVE_COST / 6;
        /* only the case differs ("null", "NULL"): the one meant */
        size_t cost = strcasecmp(word, candidates[i]) == 0
                          ? 0 : text_edit_distance(word, candidates[i]);
        if (cost <= limit && cost < best_cost) {
            best = candidates[i];
            best_cost = cost;
        }
    }
    return best;
}

/* ---- Python 3.11's "Did you mean" -------------------------------------

   The interpreter's own rules (Python/suggestions.c in 3.11): lengths and
   characters are UTF-8 bytes; a change of ASCII case costs 1, any other
   substitution, insertion or deletion 2, and there is no transposition;
   common prefixes and suffixes are trimmed first; a list of 750 names or
   more offers nothing. */

enum { SUGGEST_MOVE = 2, SUGGEST_CASE = 1, SUGGEST_MAX_NAME = 40,
       SUGGEST_MAX_CANDIDATES = 750 };

static size_t suggestion_substitution(char a, char b)
{
    if ((a & 31) != (b & 31))
        return SUGGEST_MOVE;
    if (a == b)
        return 0;
    if (a >= 'A' && a <= 'Z')
        a = (char)(a + ('a' - 'A'));
    if (b >= 'A' && b <= 'Z')
        b = (char)(b + ('a' - 'A'));
    return a == b ? SUGGEST_CASE : SUGGEST_MOVE;
}

size_t text_suggestion_distance(const char *a, size_t an, const char *b,
                                size_t bn, size_t max_cost)
{
    while (an && bn && a[0] == b[0]) {
        a++, b++;
        an--, bn--;
    }
    while (an && bn && a[an - 1] == b[bn - 1])
        an--, bn--;
    if (!an || !bn)
        return (an + bn) * SUGGEST_MOVE;
    if (an > SUGGEST_MAX_NAME || bn > SUGGEST_MAX_NAME)
        return max_cost + 1;
    if (bn < an) {
        const char *t = a;
        a = b, b = t;
        size_t tn = an;
        an = bn, bn = tn;
    }
    if ((bn - an) * SUGGEST_MOVE > max_cost)
        return max_cost + 1;
    size_t row[SUGGEST_MAX_NAME];
    for (size_t i = 0; i < an; i++)
        row[i] = (i + 1) * SUGGEST_MOVE;
    size_t result = 0;
    for (size_t j = 0; j < bn; j++) {
        size_t diagonal = j * SUGGEST_MOVE;
        size_t minimum = (size_t)-1;
        result = diagonal;
        for (size_t i = 0; i < an; i++) {
            size_t substitute = diagonal + suggestion_substitution(b[j], a[i]);
            diagonal = row[i];
            size_t move = (result < diagonal ? result : diagonal) +
                          SUGGEST_MOVE;
            result = move < substitute ? move : substitute;
            row[i] = result;
            if (result < minimum)
                minimum = result;
        }
        if (minimum > max_cost)
            return max_cost + 1;
    }
    return result;
}

const char *text_suggestion(const char *name, const char *const *candidates,
                            size_t n)
{
    if (n >= SUGGEST_MAX_CANDIDATES)
        return NULL;
    size_t name_len = strlen(name);
    const char *best = NULL;
    size_t best_distance = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(candidates[i], name))
            continue;
        size_t len = strlen(candidates[i]);
        size_t max = (name_len + len + 3) * SUGGEST_MOVE / 6;
        if (best && best_distance - 1 < max)
            max = best_distance - 1;
        size_t d = text_suggestion_distance(name, name_len, candidates[i],
                                            len, max);
        if (d > max)
            continue;
        if (!best || d < best_distance) {
            best = candidates[i];
            best_distance = d;
        }
    }
    return best;
}

int text_first_differing_line(const char *a, const char *b)
{
    int line = 0;
    for (; *a && *a == *b; a++, b++)
        line += *a == '\n';
    return *a == *b ? -1 : line;
}

bool text_find_surrogate(const char *s, size_t n, size_t *position,
                         unsigned *code_point)
{
    const unsigned char *u = (const unsigned char *)s;
    const unsigned char *hit = memchr(u, 0xED, n);
    while (hit && !(hit + 2 < u + n && hit[1] >= 0xA0 && hit[1] <= 0xBF))
        hit = memchr(hit + 1, 0xED, n - (size_t)(hit + 1 - u));
    if (!hit)
        return false;
    size_t chars = 0;
    for (const unsigned char *p = u; p < hit; p++)
        chars += (*p & 0xC0) != 0x80;
    *position = chars;
    *code_point = 0xD000u | ((hit[1] & 0x3Fu) << 6) | (hit[2] & 0x3Fu);
    return true;
}

const char *text_skip_space(const char *s)
{
    while (*s && text_is_py_space(*s))
        s++;
    return s;
}

size_t text_rstrip_len(const char *s)
{
    return rstrip_len(s, strlen(s));
}

char *text_rstrip(Arena *a, const char *s)
{
    return arena_strndup(a, s, rstrip_len(s, strlen(s)));
}

bool text_startswith(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool text_endswith(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

char *text_replace(Arena *a, const char *s, const char *old, const char *new_)
{
    /* the hits are found first (the first few remembered), so the result
       is written once, in place */
    enum { REMEMBERED = 8 };
    const char *at[REMEMBERED];
    size_t oldlen = strlen(old), newlen = strlen(new_), hits = 0;
    const char *hit = oldlen ? strstr(s, old) : NULL;
    if (!hit)
        return arena_strdup(a, s);
    for (; hit; hit = strstr(hit + oldlen, old))
        if (hits++ < REMEMBERED)
            at[hits - 1] = hit;
    size_t len = strlen(s) - hits * oldlen + hits * newlen;
    char *out = arena_alloc_uninit(a, len + 1), *o = out;
    for (size_t i = 0; i < hits; i++) {
        hit = i < REMEMBERED ? at[i] : strstr(s, old);
        memcpy(o, s, (size_t)(hit - s));
        o += hit - s;
        memcpy(o, new_, newlen);
        o += newlen;
        s = hit + oldlen;
    }
    strcpy(o, s);
    return out;
}
