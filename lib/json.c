/*
 * json.c — the JSON writer of json.h.
 */
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void json_init(JsonWriter *w, StrBuf *out, int depth)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->base = depth;
}

static void newline_and_indent(JsonWriter *w, int depth)
{
    sb_addc(w->out, '\n');
    for (int i = 0; i < depth; i++)
        sb_add(w->out, "  ", 2);
}

/* What goes before a value or a key: the comma after the member before
   it, then its own line.  A value right after its key, or the writer's
   very first value, goes where it is. */
static void separate(JsonWriter *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->open == 0)
        return;
    if (!w->empty[w->open - 1])
        sb_addc(w->out, ',');
    w->empty[w->open - 1] = false;
    newline_and_indent(w, w->base + w->open);
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
    if (!w->empty[--w->open])
        newline_and_indent(w, w->base + w->open);
    sb_addc(w->out, bracket);
}

void json_begin_object(JsonWriter *w) { begin(w, '{'); }
void json_end_object(JsonWriter *w) { end(w, '}'); }
void json_begin_array(JsonWriter *w) { begin(w, '['); }
void json_end_array(JsonWriter *w) { end(w, ']'); }

void json_key(JsonWriter *w, const char *key)
{
    separate(w);
    json_add_quoted(w->out, key, strlen(key));
    sb_add(w->out, ": ", 2);
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
    separate(w);
    sb_addf(w->out, "%lld", v);
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

        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            i++;
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
