/*
 * printout.c — see printout.h.
 */
#include "base/printout.h"

#include <string.h>

void printout_init(PrintOut *o, const char *old, size_t old_len)
{
    o->old = old;
    o->old_len = old ? old_len : 0;
    o->len = 0;
    o->copied = false;
    sb_init(&o->text);
}

void printout_free(PrintOut *o)
{
    sb_free(&o->text);
}

void printout_add(PrintOut *o, const char *s, size_t n)
{
    if (!o->copied) {
        if (o->old && n <= o->old_len - o->len &&
            (s == o->old + o->len || memcmp(o->old + o->len, s, n) == 0)) {
            o->len += n;
            return;
        }
        /* the first difference: about as long as the old text, once */
        o->copied = true;
        size_t want = o->old_len > o->len + n ? o->old_len : o->len + n;
        sb_grow(&o->text, want + want / 8);
        sb_add(&o->text, o->old ? o->old : "", o->len);
    }
    sb_add(&o->text, s, n);
    o->len += n;
}

void printout_add_parts(PrintOut *o, const char *const *parts,
                        const size_t *lens, size_t n)
{
    size_t k = 0;
    if (!o->copied && o->old) {
        /* the pieces that match, at once; the rest as they come */
        size_t at = o->len;
        for (; k < n; k++) {
            if (lens[k] > o->old_len - at ||
                memcmp(o->old + at, parts[k], lens[k]) != 0)
                break;
            at += lens[k];
        }
        o->len = at;
    }
    for (; k < n; k++)
        printout_add(o, parts[k], lens[k]);
}

void printout_adds(PrintOut *o, const char *s)
{
    printout_add(o, s, strlen(s));
}

const char *printout_at(const PrintOut *o, size_t offset)
{
    if (o->copied)
        return o->text.buf + offset;
    return o->old ? o->old + offset : "";
}

bool printout_unchanged(const PrintOut *o)
{
    return o->old && !o->copied && o->len == o->old_len;
}
