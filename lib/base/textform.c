/*
 * textform.c — reading and restoring a file's line endings and byte
 * order mark; see textform.h.
 *
 * Why the dominant style for a file with mixed line ends: the pipeline
 * works on LF text, so where each line break came from is lost; writing
 * every line in the style most of the file already uses changes the
 * fewest bytes.  The driver only writes a file back at all when its text
 * (in LF form) changed, so a mixed file with nothing to regenerate keeps
 * every byte.
 */
#include "base/textform.h"

#include <string.h>

static const char utf8_bom[] = "\xef\xbb\xbf";
#define BOM_LEN 3

size_t textform_universal_newlines(char *data, size_t len)
{
    const char *cr = memchr(data, '\r', len);
    if (!cr)
        return len;   /* nothing to change: the usual case */
    size_t out = (size_t)(cr - data);
    for (size_t i = out; i < len; i++) {
        if (data[i] == '\r') {
            data[out++] = '\n';
            if (i + 1 < len && data[i + 1] == '\n')
                i++;
        } else {
            data[out++] = data[i];
        }
    }
    if (out < len)
        data[out] = '\0';
    return out;
}

/* Counts each style of line break and picks the one clinic writes. */
static void detect_newline(const char *s, size_t len, TextForm *form)
{
    size_t lf = 0, crlf = 0, cr = 0;
    if (!memchr(s, '\r', len)) {   /* the usual case: plain LF text */
        form->mixed = false;
        form->newline = TEXT_NEWLINE_LF;
        return;
    }
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\n') {
            lf++;
        } else if (s[i] == '\r') {
            if (i + 1 < len && s[i + 1] == '\n') {
                crlf++;
                i++;
            } else {
                cr++;
            }
        }
    }
    form->mixed = (lf != 0) + (crlf != 0) + (cr != 0) > 1;
    if (crlf > lf && crlf >= cr)
        form->newline = TEXT_NEWLINE_CRLF;
    else if (cr > lf && cr > crlf)
        form->newline = TEXT_NEWLINE_CR;
    else
        form->newline = TEXT_NEWLINE_LF;
}

char *textform_read(Arena *a, const char *raw, size_t len, TextForm *form,
                    size_t *lf_len)
{
    memset(form, 0, sizeof *form);
    if (len >= BOM_LEN && memcmp(raw, utf8_bom, BOM_LEN) == 0) {
        form->bom = true;
        raw += BOM_LEN;
        len -= BOM_LEN;
    }
    detect_newline(raw, len, form);
    char *text = arena_strndup(a, raw, len);
    *lf_len = form->newline == TEXT_NEWLINE_LF && !form->mixed
                  ? len
                  : textform_universal_newlines(text, len);
    return text;
}

const char *textform_read_shared(Arena *a, const char *raw, size_t len,
                                 TextForm *form, size_t *lf_len)
{
    size_t bom = len >= BOM_LEN && memcmp(raw, utf8_bom, BOM_LEN) == 0
                     ? BOM_LEN : 0;
    TextForm probe = {0};
    detect_newline(raw + bom, len - bom, &probe);
    if (probe.newline != TEXT_NEWLINE_LF || probe.mixed)
        return textform_read(a, raw, len, form, lf_len);
    *form = probe;
    form->bom = bom != 0;
    *lf_len = len - bom;
    return raw + bom;
}

const char *textform_read_lf(const char *raw, size_t len, TextForm *form,
                             size_t *lf_len)
{
    size_t bom = len >= BOM_LEN && memcmp(raw, utf8_bom, BOM_LEN) == 0
                     ? BOM_LEN : 0;
    memset(form, 0, sizeof *form);   /* LF, not mixed */
    form->bom = bom != 0;
    *lf_len = len - bom;
    return raw + bom;
}

char *textform_write(Arena *a, const TextForm *form, const char *lf,
                     size_t len, size_t *out_len)
{
    size_t lines = 0;
    if (form->newline == TEXT_NEWLINE_CRLF)
        for (size_t i = 0; i < len; i++)
            lines += lf[i] == '\n';
    size_t bom = form->bom ? BOM_LEN : 0;
    size_t n = bom + len + lines;
    char *out = arena_alloc_uninit(a, n + 1);
    char *p = out;
    if (bom) {
        memcpy(p, utf8_bom, BOM_LEN);
        p += BOM_LEN;
    }
    switch (form->newline) {
    case TEXT_NEWLINE_LF:
        memcpy(p, lf, len);
        p += len;
        break;
    case TEXT_NEWLINE_CR:
        for (size_t i = 0; i < len; i++)
            *p++ = lf[i] == '\n' ? '\r' : lf[i];
        break;
    case TEXT_NEWLINE_CRLF:
        for (size_t i = 0; i < len; i++) {
            if (lf[i] == '\n')
                *p++ = '\r';
            *p++ = lf[i];
        }
        break;
    }
    *p = '\0';
    *out_len = n;
    return out;
}
