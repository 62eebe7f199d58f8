/*
 * json.c — the JSON writer of json.h.
 */
#include "base/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void json_init(JsonWriter *w, StrBuf *out, int depth)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->base = depth;
}

/* Room for n more bytes at the end of the buffer: write there, then
   close with commit().  (A document is made of many small pieces; one
   append per piece keeps writing it cheap.) */
static char *reserve(JsonWriter *w, size_t n)
{
    if (w->out->len + n >= w->out->cap)
        sb_grow(w->out, n);
    return w->out->buf + w->out->len;
}

static void commit(JsonWriter *w, char *end)
{
    *end = '\0';
    w->out->len = (size_t)(end - w->out->buf);
}

/* What goes before a value or a key: the comma after the member before
   it, then its own line, indented two spaces a level.  A value right
   after its key, or the writer's very first value, goes where it is. */
static void separate(JsonWriter *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->open == 0)
        return;
    size_t spaces = 2 * (size_t)(w->base + w->open);
    char *p = reserve(w, spaces + 2);
    if (!w->empty[w->open - 1])
        *p++ = ',';
    w->empty[w->open - 1] = false;
    *p++ = '\n';
    memset(p, ' ', spaces);
    commit(w, p + spaces);
}

static void begin(JsonWriter *w, char bracket)
{
    separate(w);
    if (w->open == JSON_MAX_DEPTH)
        abort();   /* a bug in the caller: clinic's documents are shallow */
    sb_addc(w->out, bracket);
    w->empty[w->open++] = true;
}

static void end(JsonWriter *w, char bracket)
{
    if (w->open == 0)
        abort();
    if (w->empty[--w->open]) {
        sb_addc(w->out, bracket);
        return;
    }
    size_t spaces = 2 * (size_t)(w->base + w->open);
    char *p = reserve(w, spaces + 2);
    *p++ = '\n';
    memset(p, ' ', spaces);
    p += spaces;
    *p++ = bracket;
    commit(w, p);
}

void json_begin_object(JsonWriter *w) { begin(w, '{'); }
void json_end_object(JsonWriter *w) { end(w, '}'); }
void json_begin_array(JsonWriter *w) { begin(w, '['); }
void json_end_array(JsonWriter *w) { end(w, ']'); }

/* Bytes a string cannot hold as they are: control characters, '"', '\\'
   and everything beyond ASCII (which is looked at more closely). */
static const unsigned char special[256] = {
    [0x00] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['"'] = 1, ['\\'] = 1,
    [0x80] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/* The length of the run of bytes at s that need no escaping. */
static size_t plain_run(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len && !special[s[i]])
        i++;
    return i;
}

void json_key(JsonWriter *w, const char *key)
{
    size_t len = strlen(key);
    separate(w);
    if (plain_run((const unsigned char *)key, len) == len) {
        char *p = reserve(w, len + 4);
        *p++ = '"';
        memcpy(p, key, len);
        memcpy(p + len, "\": ", 3);
        commit(w, p + len + 3);
    } else {
        json_add_quoted(w->out, key, len);
        sb_add(w->out, ": ", 2);
    }
    w->after_key = true;
}

void json_string(JsonWriter *w, const char *s)
{
    if (!s) {
        json_null(w);
        return;
    }
    json_string_n(w, s, strlen(s));
}

void json_string_n(JsonWriter *w, const char *s, size_t len)
{
    separate(w);
    json_add_quoted(w->out, s, len);
}

void json_int(JsonWriter *w, long long v)
{
    char digits[24], *d = digits + sizeof digits;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v
                                 : (unsigned long long)v;
    do
        *--d = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        *--d = '-';
    separate(w);
    sb_add(w->out, d, (size_t)(digits + sizeof digits - d));
}

void json_number(JsonWriter *w, const char *text)
{
    separate(w);
    sb_adds(w->out, text);
}

void json_bool(JsonWriter *w, bool b)
{
    separate(w);
    sb_adds(w->out, b ? "true" : "false");
}

void json_null(JsonWriter *w)
{
    separate(w);
    sb_add(w->out, "null", 4);
}

/* ---- strings ------------------------------------------------------------ */

static bool is_continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629), or 0.
   *surrogate is set when it encodes U+D800..U+DFFF, which RFC 3629
   forbids but Python's lone surrogates become. */
static size_t utf8_sequence(const unsigned char *s, size_t avail,
                            bool *surrogate)
{
    unsigned char c = s[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;

    *surrogate = false;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (avail < n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (!is_continuation(s[i]))
            return 0;
    *surrogate = c == 0xED && s[1] >= 0xA0;
    return n;
}

void json_add_quoted(StrBuf *out, const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, run = 0;   /* bytes copied as they are, from s + run */

    sb_grow(out, len + 2);
    sb_addc(out, '"');
    while (i < len) {
        unsigned char c = s[i];
        const char *escape = NULL;
        char buf[8];
        size_t n = 1;
        bool surrogate;

        if (!special[c]) {
            i += 1 + plain_run(s + i + 1, len - i - 1);
            continue;
        }
        if (c >= 0x80) {
            n = utf8_sequence(s + i, len - i, &surrogate);
            if (n && !surrogate) {
                i += n;
                continue;
            }
            if (n) {
                unsigned cp = ((c & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) |
                              (s[i + 2] & 0x3Fu);
                snprintf(buf, sizeof buf, "\\u%04x", cp);
                escape = buf;
            } else {
                n = 1;
                escape = "\\ufffd";
            }
        } else {
            switch (c) {
            case '"': escape = "\\\""; break;
            case '\\': escape = "\\\\"; break;
            case '\b': escape = "\\b"; break;
            case '\f': escape = "\\f"; break;
            case '\n': escape = "\\n"; break;
            case '\r': escape = "\\r"; break;
            case '\t': escape = "\\t"; break;
            default:
                snprintf(buf, sizeof buf, "\\u%04x", c);
                escape = buf;
            }
        }
        sb_add(out, text + run, i - run);
        sb_adds(out, escape);
        i += n;
        run = i;
    }
    sb_add(out, text + run, len - run);
    sb_addc(out, '"');
}
